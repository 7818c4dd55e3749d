//! Lowering: the typed tree (`frontend::hir`) to alloca-form IR
//! (docs/ir-design.md#form), spelled as docs/abi.md fixes (what the interpreter runs and the backends
//! translate).
//!
//! The shape of the result, in the manner of clang's CodeGen at -O0 and of
//! cproc's "every local is a stack slot, promotion is someone else's job":
//! * every local object is an `alloca` in the entry block (volatile when the
//!   object is); parameters arrive by `paramref` and are stored into their
//!   slot (struct parameters are copied from the `paramref` address with
//!   `memcpy`); the first N allocas are the N parameters' slots;
//! * `&&`, `||`, `?:` are control flow, never `select` (side effects are
//!   kept even when one side is constant, but a constant condition branches
//!   unconditionally, so the dead side is pruned); a result crosses blocks through a
//!   temporary alloca (mem2reg turns it into a phi);
//! * `switch` is the `Switch` terminator (GNU case ranges expanded when small,
//!   compare chains otherwise), computed goto is `IndirectBranch` over every
//!   address-taken label, asm is `InlineAsm` with outputs as pointers;
//! * records live in memory and are copied with `memcpy`; a record value is
//!   the address of its bytes;
//! * static data is byte runs plus relocations; block ids are unique in the
//!   whole module.
//!
//! Files, by construct: `repr` (C types to IR types), `abi` (the layouts of by-value
//! structs, classified by the crate's `abi` module), `builder` (blocks and values), `function` (frames,
//! parameters, locals, returns), `stmt` and `switch` (control flow), `expr`
//! (values), `place` (lvalues, bit-fields, unaligned accesses), `convert`
//! (C11 6.3 conversions), `call` (calls and their ABI metadata), `init`
//! (run-time initializers), `static_data` (globals and string literals),
//! `asm` (inline assembly), `builtins` (builtins, atomics, `va_*`), `unused`
//! (drops unreferenced `static` functions and data).

mod abi;
mod asm;
mod builder;
mod builtins;
mod call;
mod complex;
mod convert;
mod expr;
mod function;
mod init;
mod packed;
mod place;
mod repr;
mod static_data;
mod stmt;
mod switch;
#[cfg(test)]
mod tests;
mod unused;

pub use crate::abi::StructAbi;
pub use repr::{Repr, Types};

use crate::frontend::hir::{self, GlobalId, GlobalKind, LabelId, Program};
use crate::frontend::source::{Diagnostic, Span};
use crate::frontend::types::CType;
use crate::ir::instruction::BlockId;
use crate::ir::module::{IrFunction, IrGlobal, IrModule, IrParam};
use crate::ir::types::{EightbyteClass, IrType};
use rustc_hash::{FxHashMap, FxHashSet};

/// Errors are diagnostics at the offending construct.
pub type LResult<T> = Result<T, Diagnostic>;

/// Lowers a whole program; the result verifies in `VerifyMode::NonSsa` (and
/// in SSA mode: alloca form has no phis and every value is defined once).
pub fn lower_program(program: &Program) -> Result<IrModule, Diagnostic> {
    let mut cx = ModuleCx::new(program);
    let mut module = IrModule::default();
    cx.collect_static_label_refs();
    for f in &program.functions {
        let g = &program.globals[f.global.0 as usize];
        if g.attrs.gnu_inline || g.attrs.alias.is_some() {
            // Only an inline body (no out-of-line copy) / a symbol alias.
            continue;
        }
        let func = function::lower_function(&mut cx, f)?;
        cx.defined.insert(f.global);
        module.functions.push(func);
    }
    static_data::lower_static_data(&mut cx, &mut module)?;
    module.globals.append(&mut cx.init_images);
    cx.declare_remaining(&mut module)?;
    module.toplevel_asm = program.toplevel_asm.clone();
    unused::drop_unreferenced_internals(&mut module);
    Ok(module)
}

/// The IR signature of a C function type.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub ret: IrType,
    pub params: Vec<IrParam>,
    /// Returns a record through a hidden first parameter.
    pub sret: bool,
    pub variadic: bool,
    pub ret_classes: Vec<EightbyteClass>,
}

/// What lowering knows about the whole module while it lowers functions.
pub(crate) struct ModuleCx<'p> {
    pub program: &'p Program,
    pub types: Types<'p>,
    pub next_block: u32,
    /// Globals (objects and functions) some lowered code refers to.
    pub used: FxHashSet<GlobalId>,
    /// Functions given a body in the module.
    pub defined: FxHashSet<GlobalId>,
    /// Blocks of labels whose address a static initializer takes.
    pub static_labels: FxHashMap<(GlobalId, LabelId), BlockId>,
    /// Library functions lowering itself calls (`memset`, `abort`,
    /// `__muldc3`): name, return type, parameters, and the hidden result
    /// parameter of one returning a struct.
    pub runtime_calls: Vec<(&'static str, IrType, Vec<IrType>, Option<IrParam>)>,
    /// Pointee types whose dereferences may be misaligned (packed records).
    pub unaligned: packed::UnalignedPointees,
    /// Read-only images of constant automatic initializers (`init.rs`),
    /// added to the module's globals at the end.
    pub init_images: Vec<IrGlobal>,
}

impl<'p> ModuleCx<'p> {
    fn new(program: &'p Program) -> ModuleCx<'p> {
        let types = Types::new(program);
        let unaligned = packed::UnalignedPointees::analyze(program, &types);
        ModuleCx {
            program,
            types,
            unaligned,
            next_block: 0,
            used: FxHashSet::default(),
            defined: FxHashSet::default(),
            static_labels: FxHashMap::default(),
            runtime_calls: Vec::new(),
            init_images: Vec::new(),
        }
    }

    pub fn global(&self, id: GlobalId) -> &'p hir::Global {
        &self.program.globals[id.0 as usize]
    }

    /// The assembler name of a global, marking it used.
    pub fn use_global(&mut self, id: GlobalId) -> String {
        self.used.insert(id);
        self.global(id).name.clone()
    }

    /// The symbol of string literal `id`.
    pub fn string_symbol(&self, id: hir::StrId) -> String {
        static_data::string_symbol(self.program, id)
    }

    /// Records that lowering calls a library function of its own.
    pub fn use_runtime(&mut self, name: &'static str, ret: IrType, params: &[IrType]) {
        if !self.runtime_calls.iter().any(|(n, ..)| *n == name) {
            self.runtime_calls.push((name, ret, params.to_vec(), None));
        }
    }

    /// Records a library function returning a struct through `sret`.
    pub fn use_runtime_sret(&mut self, name: &'static str, sret: IrParam, params: &[IrType]) {
        if !self.runtime_calls.iter().any(|(n, ..)| *n == name) {
            self.runtime_calls
                .push((name, IrType::Void, params.to_vec(), Some(sret)));
        }
    }

    /// The IR signature of function type `fn_ty`.
    pub fn signature(&self, fn_ty: &CType, span: Span) -> LResult<Signature> {
        let CType::Function {
            ret, params, variadic, ..
        } = fn_ty
        else {
            return Err(Diagnostic::error(span, "called object is not a function"));
        };
        let mut sig = Signature {
            ret: IrType::Void,
            params: Vec::new(),
            sret: false,
            variadic: *variadic,
            ret_classes: Vec::new(),
        };
        match self
            .types
            .repr(&ret.ty)
            .map_err(|e| Diagnostic::error(span, e.message()))?
        {
            Repr::Void => {}
            Repr::Scalar(t) => sig.ret = t,
            Repr::Aggregate { .. } => {
                let abi = self.types.struct_abi(&ret.ty);
                sig.sret = true;
                sig.ret_classes = abi.classes.clone();
                sig.params.push(struct_param(&abi));
            }
        }
        for p in params {
            sig.params.push(self.param_abi(&p.ty, span)?);
        }
        Ok(sig)
    }

    /// How one argument of C type `t` is passed.
    pub fn param_abi(&self, t: &CType, span: Span) -> LResult<IrParam> {
        Ok(
            match self.types.repr(t).map_err(|e| Diagnostic::error(span, e.message()))? {
                Repr::Scalar(ty) => IrParam::scalar(ty),
                Repr::Void => return Err(Diagnostic::error(span, "parameter of type void")),
                // On x86-64 `va_list` is an array: it decays to a pointer.
                Repr::Aggregate { .. } if self.va_list_is_array(t) => IrParam::scalar(IrType::Ptr),
                Repr::Aggregate { .. } => struct_param(&self.types.struct_abi(t)),
            },
        )
    }

    /// `va_list` on x86-64 is `__va_list_tag[1]`: passing one passes its address.
    pub fn va_list_is_array(&self, t: &CType) -> bool {
        matches!(t, CType::VaList) && self.types.target.va_list().is_array()
    }

    /// Finds the labels whose address static initializers take, so that
    /// their functions keep their blocks and list them.
    fn collect_static_label_refs(&mut self) {
        for g in &self.program.globals {
            let Some(init) = &g.init else { continue };
            for item in &init.items {
                let mut note = |f: GlobalId, l: LabelId| {
                    if !self.static_labels.contains_key(&(f, l)) {
                        let id = BlockId(self.next_block);
                        self.next_block += 1;
                        self.static_labels.insert((f, l), id);
                    }
                };
                match &item.value {
                    hir::StaticValue::Addr {
                        target: hir::AddrTarget::Label(f, l),
                        ..
                    } => note(*f, *l),
                    hir::StaticValue::LabelDiff { func, a, b, .. } => {
                        note(*func, *a);
                        note(*func, *b);
                    }
                    _ => {}
                }
            }
        }
    }

    /// Declarations for every used function that has no body here, and for
    /// the library functions lowering calls.
    fn declare_remaining(&mut self, module: &mut IrModule) -> LResult<()> {
        let mut ids: Vec<GlobalId> = self.used.iter().copied().collect();
        ids.sort();
        for id in ids {
            let g = self.global(id);
            if g.kind != GlobalKind::Function || self.defined.contains(&id) {
                continue;
            }
            if let Some(target) = &g.attrs.alias {
                let _ = target;
                continue;
            }
            let sig = self.signature(&g.ty.ty, g.span)?;
            let mut f = IrFunction::new(g.name.clone(), sig.ret, sig.params);
            f.is_declaration = true;
            f.is_variadic = sig.variadic;
            f.uses_sret = sig.sret;
            f.ret_eightbyte_classes = sig.ret_classes;
            f.is_weak = g.attrs.weak;
            if g.attrs.weak || g.attrs.visibility.is_some() {
                module
                    .symbol_attrs
                    .push((g.name.clone(), g.attrs.weak, g.attrs.visibility.clone()));
            }
            module.functions.push(f);
        }
        for (name, ret, params, sret) in std::mem::take(&mut self.runtime_calls) {
            if module.functions.iter().any(|f| f.name == name) {
                continue;
            }
            let mut ps: Vec<IrParam> = params.into_iter().map(IrParam::scalar).collect();
            if let Some(s) = &sret {
                ps.insert(0, s.clone());
            }
            let mut f = IrFunction::new(name, ret, ps);
            f.is_declaration = true;
            if let Some(s) = sret {
                f.uses_sret = true;
                f.ret_eightbyte_classes = s.struct_eightbyte_classes;
            }
            module.functions.push(f);
        }
        Ok(())
    }
}

/// The `IrParam` of a struct passed by value (or of the hidden sret pointer).
pub fn struct_param(abi: &StructAbi) -> IrParam {
    IrParam {
        ty: IrType::Ptr,
        struct_size: Some(abi.size as usize),
        struct_align: Some(abi.align as usize),
        struct_eightbyte_classes: abi.classes.clone(),
        riscv_float_class: abi.riscv,
        aarch64_hfa: abi.hfa,
    }
}
