//! One function definition: its IR signature and attributes, the frame
//! (an entry-block alloca per parameter, then per local), the parameters'
//! arrival (`paramref` + `store`, or `memcpy` from the `paramref` address for
//! a struct), the hidden sret pointer, the body, and the implicit return at
//! the end (`return 0` for `main`, C11 5.1.2.2.3).
//!
//! Locals whose storage is only known at run time keep their address in a
//! pointer slot instead: VLAs (`Stmt::VlaAlloc` fills the slot) and, on
//! x86-64, `va_list` parameters (the array type decays to a pointer to the
//! caller's object).

use super::builder::FnBuilder;
use super::repr::Repr;
use super::{LResult, ModuleCx};
use crate::frontend::hir::{self, CaseId, LabelId, LocalId};
use crate::frontend::source::{Diagnostic, Span};
use crate::frontend::types::CType;
use crate::ir::constants::IrConst;
use crate::ir::instruction::{BlockId, Instruction, Operand, Terminator, Value};
use crate::ir::module::IrFunction;
use crate::ir::types::IrType;
use rustc_hash::FxHashMap;

/// Where a local's bytes are.
#[derive(Clone, Copy, Debug)]
pub(super) enum LocalSlot {
    /// The alloca is the object.
    Direct(Value),
    /// The alloca holds the object's address.
    Indirect(Value),
}

/// Break and continue targets of an enclosing loop or switch, with the
/// number of VLA scopes open at its start.
#[derive(Clone, Copy)]
pub(super) struct JumpTarget {
    pub block: BlockId,
    pub vla_depth: usize,
}

/// The state of lowering one function.
pub(crate) struct FnLower<'c, 'p> {
    pub cx: &'c mut ModuleCx<'p>,
    pub b: FnBuilder,
    pub func: &'p hir::Function,
    pub locals: Vec<Option<LocalSlot>>,
    labels: FxHashMap<LabelId, BlockId>,
    /// `vla_saves.len()` where each label already lowered stands.
    pub label_vla_depth: FxHashMap<LabelId, usize>,
    /// Forward `goto`s from inside VLA scopes: per label, the block each
    /// jumps to and the VLA saves open at the jump (the block, filled in at
    /// the label, frees the VLAs the label is outside of).
    pub pending_vla_gotos: FxHashMap<LabelId, Vec<(BlockId, Vec<Value>)>>,
    pub breaks: Vec<JumpTarget>,
    pub continues: Vec<JumpTarget>,
    /// Blocks of the `case`/`default` positions of the enclosing switches.
    pub cases: Vec<FxHashMap<CaseId, BlockId>>,
    /// `stacksave` results of the VLA scopes currently open.
    pub vla_saves: Vec<Value>,
    /// `vla_saves.len()` when the innermost block began (its first VLA saves the stack).
    pub vla_base: usize,
    /// The slot holding the caller's result buffer (sret functions).
    pub sret_slot: Option<Value>,
    pub ret_type: IrType,
    /// Scratch slots for unaligned accesses, one per type.
    pub scratch: FxHashMap<IrType, Value>,
}

pub(super) fn lower_function<'p>(cx: &mut ModuleCx<'p>, f: &'p hir::Function) -> LResult<IrFunction> {
    let g = cx.global(f.global);
    let sig = cx.signature(&g.ty.ty, g.span)?;
    let mut ir = IrFunction::new(g.name.clone(), sig.ret, sig.params.clone());
    ir.is_variadic = sig.variadic || f.is_variadic;
    ir.uses_sret = sig.sret;
    ir.ret_eightbyte_classes = sig.ret_classes.clone();
    ir.is_static = g.linkage == hir::Linkage::Internal;
    ir.is_inline = g.attrs.is_inline;
    ir.is_always_inline = g.attrs.always_inline;
    ir.is_noinline = g.attrs.noinline;
    ir.section = g.attrs.section.clone();
    ir.visibility = g.attrs.visibility.clone();
    ir.is_weak = g.attrs.weak;
    ir.align = g.attrs.align;
    ir.is_used = g.attrs.used;
    let param_offset = usize::from(sig.sret);
    if f.params.len() + param_offset != sig.params.len() {
        return Err(Diagnostic::error(
            f.span,
            format!(
                "function '{}' has {} parameters but its type has {}",
                g.name,
                f.params.len(),
                sig.params.len() - param_offset
            ),
        ));
    }
    let mut fl = FnLower {
        b: FnBuilder::new(cx.next_block),
        cx,
        func: f,
        locals: vec![None; f.locals.len()],
        labels: FxHashMap::default(),
        label_vla_depth: FxHashMap::default(),
        pending_vla_gotos: FxHashMap::default(),
        breaks: Vec::new(),
        continues: Vec::new(),
        cases: Vec::new(),
        vla_saves: Vec::new(),
        vla_base: 0,
        sret_slot: None,
        ret_type: sig.ret,
        scratch: FxHashMap::default(),
    };
    // Labels whose address a static initializer takes already have blocks.
    let static_labels: Vec<BlockId> = fl
        .cx
        .static_labels
        .iter()
        .filter(|((func, _), _)| *func == f.global)
        .map(|((_, l), b)| {
            fl.labels.insert(*l, *b);
            *b
        })
        .collect();
    let mut param_allocas = Vec::new();
    // Frame: parameter slots first, in order (mem2reg-params finds them there).
    if sig.sret {
        let slot = fl.b.alloca(IrType::Ptr, 8, 8, false);
        fl.sret_slot = Some(slot);
        param_allocas.push(slot);
    }
    for (i, &lid) in f.params.iter().enumerate() {
        let slot = fl.param_slot(lid, i + param_offset, &sig.params[i + param_offset])?;
        param_allocas.push(slot);
    }
    for (i, local) in f.locals.iter().enumerate() {
        if fl.locals[i].is_none() && !local.is_param {
            fl.locals[i] = Some(fl.local_slot(local)?);
        }
    }
    // Arrival of the parameters.
    if let Some(slot) = fl.sret_slot {
        let p = fl.b.value();
        fl.b.emit(Instruction::ParamRef {
            dest: p,
            param_idx: 0,
            ty: IrType::Ptr,
        });
        fl.b.store(IrType::Ptr, p.into(), slot);
    }
    for (i, &lid) in f.params.iter().enumerate() {
        fl.param_arrival(lid, i + param_offset, &sig.params[i + param_offset])?;
    }
    fl.stmt(&f.body)?;
    if !fl.pending_vla_gotos.is_empty() {
        // Sema rejects a `goto` to a label the function does not define.
        return Err(Diagnostic::error(f.span, "a goto names a label that was never placed"));
    }
    let fallthrough = if g.name == "main" && sig.ret == IrType::I32 {
        Terminator::Return(Some(Operand::Const(IrConst::I32(0))))
    } else {
        Terminator::Return(None)
    };
    let (blocks, next_value, next_block) = fl.b.finish(fallthrough, &static_labels);
    fl.cx.next_block = next_block;
    ir.blocks = blocks;
    ir.next_value_id = next_value;
    ir.param_alloca_values = param_allocas;
    let mut init_labels = static_labels;
    init_labels.sort();
    ir.global_init_label_blocks = init_labels;
    Ok(ir)
}

impl<'c, 'p> FnLower<'c, 'p> {
    pub fn local(&self, id: LocalId) -> &'p hir::Local {
        &self.func.locals[id.0 as usize]
    }

    pub fn repr(&self, t: &CType, span: Span) -> LResult<Repr> {
        self.cx.types.repr(t).map_err(|e| Diagnostic::error(span, e.message()))
    }

    /// The IR type of a scalar C type (an error for anything else).
    pub fn ir(&self, t: &CType, span: Span) -> LResult<IrType> {
        match self.repr(t, span)? {
            Repr::Scalar(ty) => Ok(ty),
            Repr::Void => Err(Diagnostic::error(span, "void value not ignored as it ought to be")),
            Repr::Aggregate { .. } => Err(Diagnostic::error(span, "an aggregate where a scalar is expected")),
        }
    }

    /// The slot of a local object.
    fn local_slot(&mut self, local: &hir::Local) -> LResult<LocalSlot> {
        let volatile = self.cx.types.is_volatile_object(&local.ty);
        if self.cx.types.is_vla(&local.ty.ty) {
            return Ok(LocalSlot::Indirect(self.b.alloca(IrType::Ptr, 8, 8, false)));
        }
        Ok(match self.repr(&local.ty.ty, local.span)? {
            Repr::Scalar(ty) => LocalSlot::Direct(self.b.alloca(ty, ty.size() as u64, local.align, volatile)),
            Repr::Aggregate { size, align } => {
                LocalSlot::Direct(self.b.alloca(IrType::I8, size, align.max(local.align), volatile))
            }
            Repr::Void => return Err(Diagnostic::error(local.span, "variable has incomplete type 'void'")),
        })
    }

    fn param_slot(&mut self, lid: LocalId, _idx: usize, abi: &crate::ir::module::IrParam) -> LResult<Value> {
        let local = self.local(lid);
        let slot = if self.cx.va_list_is_array(&local.ty.ty) {
            let s = self.b.alloca(IrType::Ptr, 8, 8, false);
            self.locals[lid.0 as usize] = Some(LocalSlot::Indirect(s));
            return Ok(s);
        } else if let Some(size) = abi.struct_size {
            let volatile = self.cx.types.is_volatile_object(&local.ty);
            let align = abi.struct_align.unwrap_or(8) as u64;
            self.b.alloca(IrType::I8, size as u64, align.max(local.align), volatile)
        } else {
            let volatile = self.cx.types.is_volatile_object(&local.ty);
            self.b.alloca(abi.ty, abi.ty.size() as u64, local.align, volatile)
        };
        self.locals[lid.0 as usize] = Some(LocalSlot::Direct(slot));
        Ok(slot)
    }

    fn param_arrival(&mut self, lid: LocalId, idx: usize, abi: &crate::ir::module::IrParam) -> LResult<()> {
        let p = self.b.value();
        self.b.emit(Instruction::ParamRef {
            dest: p,
            param_idx: idx,
            ty: abi.ty,
        });
        match self.locals[lid.0 as usize] {
            Some(LocalSlot::Indirect(slot)) => self.b.store(IrType::Ptr, p.into(), slot),
            Some(LocalSlot::Direct(slot)) => match abi.struct_size {
                Some(size) => self.b.memcpy(slot, p, size as u64),
                None => self.b.store(abi.ty, p.into(), slot),
            },
            None => {}
        }
        Ok(())
    }

    /// The address of a local object.
    pub fn local_addr(&mut self, id: LocalId, span: Span) -> LResult<Value> {
        match self.locals.get(id.0 as usize).copied().flatten() {
            Some(LocalSlot::Direct(v)) => Ok(v),
            Some(LocalSlot::Indirect(slot)) => Ok(self.b.load(IrType::Ptr, slot)),
            None => Err(Diagnostic::error(span, "internal: reference to an unknown local")),
        }
    }

    /// The block of a named label (created on first use).
    pub fn label_block(&mut self, id: LabelId) -> BlockId {
        if let Some(&b) = self.labels.get(&id) {
            return b;
        }
        let b = self.b.new_block();
        self.labels.insert(id, b);
        b
    }

    /// A scratch slot of type `ty` (for accesses at under-aligned addresses).
    pub fn scratch_slot(&mut self, ty: IrType) -> Value {
        if let Some(&v) = self.scratch.get(&ty) {
            return v;
        }
        let v = self.b.alloca(ty, ty.size() as u64, ty.align() as u64, false);
        self.scratch.insert(ty, v);
        v
    }

    /// A fresh temporary object of `size` bytes.
    pub fn temp_object(&mut self, size: u64, align: u64) -> Value {
        self.b.alloca(IrType::I8, size, align, false)
    }

    /// A fresh temporary scalar slot.
    pub fn temp_scalar(&mut self, ty: IrType) -> Value {
        self.b.alloca(ty, ty.size() as u64, ty.align() as u64, false)
    }
}
