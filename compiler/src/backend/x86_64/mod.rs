//! The x86-64 backend: IR to GNU as (AT&T syntax) for x86-64 Linux under the
//! System V AMD64 psABI (docs/abi.md is the contract with the lowering).
//!
//! Code generation is simple: every IR value has the home the register
//! allocator ([`crate::backend::regalloc`]) gave it, one of nine integer
//! registers (`r8 r9 rsi rdi`, which `clobbers` keeps away from values live
//! across calls and long sequences, and the callee-saved `rbx r12-r15`,
//! saved in the prologue), for a `float` or `double` one of `xmm8..xmm15`
//! (all caller-saved: only values no call crosses), or a shared frame slot. Each instruction reads its operands
//! (in place when they are in registers, else into scratch registers `rax
//! rcx rdx`, `xmm0 xmm1`, the x87 stack for `long double`), computes, and
//! writes the result last (often straight into its home register). A copy
//! whose two sides share a home emits nothing. `r10` and `r11` are the
//! emitter's address temporaries. Local improvements:
//!
//! - addresses defined once by `globaladdr` or a constant-offset `gep` are
//!   rematerialized into memory operands (`sym+8(%rip)`, `-40(%rbp)`);
//! - an integer `cmp` read only by the block's `condbr` leaves its result in
//!   the flags (`cmp; jl`), never in a slot;
//! - a result stays in its register for the next instruction: its store is
//!   deferred until the next line of assembly (`FnEmitter::flush`, called
//!   by `emit!`), and dropped when that instruction is its only reader.
//!
//! The frame, from `%rbp` down: saved `%rbp` at `0(%rbp)`, then the locals
//! area ([`FrameLayout`]) holding, in order, the `alloca` objects (zeroed in
//! the prologue, as the interpreter's allocas are), the value slots, then the
//! areas reserved here: parameter homes, the register save area of a
//! variadic function, the saved callee-saved registers an inline asm uses,
//! scratch space. `%rsp` stays 16-byte aligned in the body; a call's stack
//! arguments get their own area pushed below it for the call only.
//!
//! Files: `abi` (argument classification), `calls` (prologue, calls,
//! returns), `ops` (integer and SSE arithmetic, comparisons, conversions),
//! `wide` (`__int128` and x87 `long double`), `memory` (loads, stores,
//! atomics, stack), `varargs` (`va_start`/`va_arg`), `inline_asm`, `regs`,
//! `encode` and `operands` (instruction encoding and AT&T operand parsing
//! for the integrated assembler).

pub mod abi;
mod calls;
pub mod encode;
mod inline_asm;
mod memory;
mod operands;
mod ops;
pub mod regs;
mod varargs;
mod wide;

use super::frame::{slot_size, FrameLayout, Home, ValueTypes};
use super::switch::{plan_switch, SwitchPlan};
use super::{
    block_label, walk_blocks, BackendError, FunctionEmitter, LongDoubleFormat, ModuleContext, TargetDesc, TargetIsa,
};
pub(crate) use crate::backend::isel::SecondReturn;
use crate::backend::isel::{self, push_new, BlockBranches, EmitterBase};
use crate::backend::regalloc::{Clobbers, PhysReg, RegBudget, RegClass};
use crate::ir::constants::IrConst;
use crate::ir::instruction::{BlockId, Instruction, Operand, Terminator, Value};
use crate::ir::module::IrFunction;
use crate::ir::types::IrType;
use crate::target::Target;
use abi::{ArgLoc, CallLayout};
use regs::{Gpr, Mem};

/// The registers the allocator may hand out: four caller-saved ones that
/// only calls and a few long sequences use (see [`clobbers`]), then the
/// callee-saved ones nothing else in this backend uses (`%rbp` is the frame
/// pointer). Floats have their own list ([`XMM_HOMES`]).
const ALLOCATABLE: [Gpr; 9] = [
    Gpr::R8,
    Gpr::R9,
    Gpr::Rsi,
    Gpr::Rdi,
    Gpr::Rbx,
    Gpr::R12,
    Gpr::R13,
    Gpr::R14,
    Gpr::R15,
];
/// How many of [`ALLOCATABLE`] are caller-saved (they come first).
const CALLER_SAVED: u8 = 4;
/// The float-class registers the allocator may hand out: `xmm8..xmm15`,
/// which no code sequence of this backend uses as scratch (those use `xmm0`
/// and `xmm1`) and no call passes arguments or results in. SysV makes every
/// vector register caller-saved, so these hold only values that live across
/// no call (see [`clobbers`]).
const XMM_HOMES: u8 = 8;
const REG_BUDGET: RegBudget = RegBudget { int: 9, float: 8 };

/// The caller-saved allocatable registers an instruction's code overwrites:
/// all of them for calls and for the sequences that use `rsi`/`rdi`/`r8`/`r9`
/// as scratch or argument registers (block copies, `va_*`, intrinsics, inline
/// asm, selects, and anything on 16-byte values, which may call libgcc).
/// The float homes `xmm8..15` are overwritten by the same calls and
/// sequences except selects (which work in integer registers).
///
/// A call overwrites the float homes only after reading its operands (its
/// float arguments go to `xmm0..7`, its stack arguments through `rax`), so
/// its float clobbers are `late`: a `double` computed just to be passed may
/// live in `xmm8..15`. Its integer clobbers stay early: the integer
/// arguments are loaded one by one into registers that may hold another
/// argument's value. (Making them late too, with one parallel move for the
/// arguments, did not pay: see docs/results.md, 2026-11-27.)
fn clobbers(inst: &Instruction, types: &ValueTypes) -> Clobbers {
    let int = (1 << CALLER_SAVED) - 1;
    let float = (1 << XMM_HOMES) - 1;
    if let Instruction::Call { .. } | Instruction::CallIndirect { .. } = inst {
        // The injected bug forgets that a call overwrites the float homes.
        let spared = crate::inject::enabled(crate::inject::Bug::X86XmmLiveAcrossCall);
        return Clobbers {
            int,
            late_float: if spared { 0 } else { float },
            ..Clobbers::default()
        };
    }
    let calls = crate::backend::clobbers_caller_saved(inst, types);
    Clobbers {
        int: if calls || matches!(inst, Instruction::Select { .. }) {
            int
        } else {
            0
        },
        float: if calls { float } else { 0 },
        ..Clobbers::default()
    }
}

/// The largest alloca region the prologue zeroes with one `movq $0` per
/// eightbyte (a larger one takes `rep stosq`).
const ZERO_BY_STORES: u32 = 128;

/// For each parameter, the value of its `paramref` when the prologue can
/// write the argument straight into that value's home: the parameter is read
/// by exactly one `paramref`, which comes before anything but allocas and
/// other `paramref`s in the entry block, its value is read somewhere, fits 8
/// bytes, and lives in a register or a slot. Caller-saved homes (which are
/// argument registers too) are written by one parallel move after the
/// prologue's stores; not when the prologue zeroes its allocas with
/// `rep stosq`, which clobbers `%rdi` and `%rcx` while arguments are still
/// in them.
fn direct_params(f: &IrFunction, types: &ValueTypes, layout: &FrameLayout) -> Vec<Option<Value>> {
    let mut refs: Vec<(usize, Option<Value>)> = vec![(0, None); f.params.len()];
    // Every leading `paramref`'s value: a direct one must not share its home
    // with another (a dead one may, and would overwrite it later).
    let mut leading_values: Vec<Value> = Vec::new();
    let mut leading = true;
    let mut used: FxHashSet<Value> = FxHashSet::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        for inst in &b.instructions {
            inst.for_each_used_value(|v| {
                used.insert(v);
            });
            match inst {
                Instruction::ParamRef { dest, param_idx, .. } => {
                    if bi == 0 && leading {
                        leading_values.push(*dest);
                    }
                    if let Some(r) = refs.get_mut(*param_idx) {
                        r.0 += 1;
                        if bi == 0 && leading {
                            r.1 = Some(*dest);
                        }
                    }
                }
                Instruction::Alloca { .. } => {}
                _ => leading = false,
            }
        }
        b.terminator.for_each_used_value(|v| {
            used.insert(v);
        });
        leading = false;
    }
    refs.into_iter()
        .map(|(count, dest)| {
            let d = dest.filter(|_| count == 1)?;
            let shared = leading_values
                .iter()
                .any(|&o| o != d && layout.home(o) == layout.home(d));
            let home_ok = !shared
                && match layout.home(d) {
                    // `rep stosq` leaves the xmm registers alone.
                    Home::Reg(p) => {
                        p.class == RegClass::Float
                            || p.index >= CALLER_SAVED
                            || layout.alloca_region.1 <= ZERO_BY_STORES
                    }
                    Home::Slot(_) => true,
                    _ => false,
                };
            (home_ok && used.contains(&d) && types.of(d).size() <= 8 && types.of(d) != IrType::F128).then_some(d)
        })
        .collect()
}

/// Whether `f` may use the scratch and second-return areas: any value or
/// operand wider than 8 bytes or `long double`, a call returning a struct or
/// a second value, a parameter without a home of its own, `va_*`, an
/// intrinsic or inline asm.
fn needs_scratch_areas(f: &IrFunction, types: &ValueTypes, params: &[ParamHome]) -> bool {
    use Instruction::*;
    if params.iter().any(|p| matches!(p, ParamHome::None)) || f.return_type.size() > 8 {
        return true;
    }
    let wide = |t: IrType| t.size() > 8 || t == IrType::F128;
    f.blocks.iter().flat_map(|b| b.instructions.iter()).any(|inst| {
        let mut w = match inst {
            Call { info, .. } | CallIndirect { info, .. } => {
                info.is_sret
                    || !info.ret_eightbyte_classes.is_empty()
                    || wide(info.return_type)
                    || info.arg_types.iter().any(|t| wide(*t))
            }
            Cast { from_ty, to_ty, .. } => wide(*from_ty) || wide(*to_ty),
            InlineAsm(_) | Intrinsic { .. } => true,
            VaStart { .. } | VaEnd { .. } | VaCopy { .. } | VaArg { .. } | VaArgStruct { .. } => true,
            GetReturnF64Second { .. } | GetReturnF32Second { .. } | GetReturnF128Second { .. } => true,
            SetReturnF64Second { .. } | SetReturnF32Second { .. } | SetReturnF128Second { .. } => true,
            _ => false,
        };
        w |= inst.result_type().is_some_and(wide) || inst.dest().is_some_and(|d| wide(types.of(d)));
        inst.for_each_used_value(|v| w |= wide(types.of(v)));
        w
    })
}

/// The register of an integer-class allocator home.
fn phys(p: PhysReg) -> Gpr {
    debug_assert_eq!(p.class, RegClass::Int);
    ALLOCATABLE[p.index as usize]
}

/// The number `n` of `%xmm<n>`, the register of a float-class allocator home.
fn xmm_home(p: PhysReg) -> u8 {
    debug_assert_eq!(p.class, RegClass::Float);
    8 + p.index
}
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;

/// Writes one line of assembly to the emitter's output (after the store a
/// forwarded result still owes, see [`FnEmitter::flush`]).
macro_rules! emit {
    ($e:expr, $($arg:tt)*) => {{
        $e.flush();
        let _ = writeln!($e.out, $($arg)*);
    }};
}
pub(crate) use emit;

/// The x86-64 target.
pub struct X86_64;

pub static X86_64_DESC: TargetDesc = TargetDesc {
    target: Target::X86_64,
    int_arg_regs: &["rdi", "rsi", "rdx", "rcx", "r8", "r9"],
    float_arg_regs: &["xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7"],
    int_ret_regs: &["rax", "rdx"],
    float_ret_regs: &["xmm0", "xmm1"],
    callee_saved: &["rbx", "rbp", "r12", "r13", "r14", "r15"],
    stack_align: 16,
    comment: "#",
    type_prefix: '@',
    asm_dialects: true,
};

impl TargetIsa for X86_64 {
    fn desc(&self) -> &'static TargetDesc {
        &X86_64_DESC
    }

    fn emit_function(&self, cx: &mut ModuleContext<'_>, f: &IrFunction, out: &mut String) -> Result<(), BackendError> {
        let mut e = FnEmitter::new(cx, f, out)?;
        walk_blocks(f, &mut e)
    }

    fn assemble(&self, text: &str) -> Option<Result<Vec<u8>, String>> {
        Some(encode::assemble(text))
    }
}

/// Where a parameter's value (or, for a struct, its copy) is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParamHome {
    /// Not passed (an empty struct).
    None,
    /// A scalar saved from its register(s) into this locals-area slot.
    Slot(u32),
    /// A scalar in the caller's stack area, at this `%rbp` displacement.
    Incoming(i64),
    /// A struct copied from registers into this locals-area buffer (the value is its address).
    Buffer(u32),
    /// A struct in the caller's stack area (the value is its address).
    IncomingAddr(i64),
    /// A scalar the prologue moves straight from its register into the
    /// home (a callee-saved register or a slot) of the value of the one
    /// `paramref` that reads it, at the top of the entry block; that
    /// `paramref` emits nothing.
    Direct(Value),
}

/// How a symbol's address is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SymbolKind {
    /// Defined in this module: PC-relative.
    Local,
    /// Defined elsewhere: loaded from the GOT.
    Got,
    /// Thread-local: the thread pointer plus the offset from the GOT (initial exec).
    ThreadLocal,
}

/// A result kept in a register for the instruction that follows it.
#[derive(Clone, Debug)]
struct PendingStore {
    value: Value,
    reg: Gpr,
    /// Bytes of the value (1, 2, 4 or 8).
    size: usize,
    slot: Mem,
    /// The value's only reader is the next instruction: the store can go.
    single_use: bool,
}

/// The state of one function being emitted.
pub(crate) struct FnEmitter<'a, 'm> {
    cx: &'a mut ModuleContext<'m>,
    f: &'a IrFunction,
    out: &'a mut String,
    types: ValueTypes,
    layout: FrameLayout,
    /// The function's own parameter layout.
    own: CallLayout,
    params: Vec<ParamHome>,
    /// Register save area of a variadic function (176 bytes).
    rsa: Option<u32>,
    /// 32 bytes of scratch (x87 conversions, constants).
    scratch: Option<u32>,
    /// 16 bytes for the second return value (`setret*second`, `getret*second`).
    ret2: Option<u32>,
    /// Callee-saved registers an inline asm uses, with their save slots.
    saved: Vec<(Gpr, u32)>,
    /// Spill slots for inline asm outputs (16 bytes each).
    asm_spill: u32,
    /// Calls followed by a `getret*second`, by (block index, instruction index).
    second_returns: FxHashMap<(usize, usize), SecondReturn>,
    /// The second return register this function sets (`setret*second`).
    sets_second: Option<SecondReturn>,
    /// Integer compares whose only use is the conditional branch right
    /// after them: they leave their result in the flags only.
    fused_compares: FxHashSet<Value>,
    /// The possible targets of the function's indirect branches (computed goto).
    address_taken: FxHashSet<BlockId>,
    /// The compare whose flags the next conditional branch tests, and its condition.
    pending_branch: Option<(Value, &'static str)>,
    /// A result still in its register whose store to the slot is deferred
    /// until the next line of assembly (see [`FnEmitter::flush`]).
    pending_store: Option<PendingStore>,
    /// How many times each value is read (operand occurrences), and whether
    /// it has more than one definition (a copy after phi elimination).
    use_counts: Vec<u32>,
    block_index: usize,
    inst_index: usize,
}

impl<'a, 'm> FnEmitter<'a, 'm> {
    fn new(cx: &'a mut ModuleContext<'m>, f: &'a IrFunction, out: &'a mut String) -> Result<Self, BackendError> {
        let types = ValueTypes::compute(f);
        let mut layout = FrameLayout::compute_with(f, &types, REG_BUDGET, clobbers)?;
        let own = abi::layout_of_function(f);
        // Parameter homes.
        let direct = direct_params(f, &types, &layout);
        let mut params = Vec::with_capacity(f.params.len());
        for (i, loc) in own.args.iter().enumerate() {
            let p = &f.params[i];
            let is_struct = p.struct_size.is_some() && !(f.uses_sret && i == 0);
            let home = match loc {
                ArgLoc::Ignored if f.uses_sret && i == 0 => {
                    let size = p.struct_size.unwrap_or(0) as u32;
                    ParamHome::Buffer(layout.reserve(size.div_ceil(8).max(1) * 8, 16))
                }
                ArgLoc::Ignored => ParamHome::None,
                ArgLoc::StructRegs(parts) => {
                    let n = parts.iter().map(|p| p.offset + 8).max().unwrap_or(8);
                    ParamHome::Buffer(layout.reserve(n, 16))
                }
                ArgLoc::StackStruct { offset, .. } => ParamHome::IncomingAddr(16 + *offset as i64),
                ArgLoc::Stack(offset) if !is_struct => ParamHome::Incoming(16 + *offset as i64),
                ArgLoc::Stack(offset) => ParamHome::IncomingAddr(16 + *offset as i64),
                ArgLoc::Gpr(_) | ArgLoc::Xmm(_) if direct[i].is_some() && !(f.uses_sret && i == 0) => {
                    ParamHome::Direct(direct[i].unwrap_or(Value(0)))
                }
                ArgLoc::Gpr(_) | ArgLoc::GprPair(..) | ArgLoc::Xmm(_) => {
                    let s = slot_size(p.ty);
                    ParamHome::Slot(layout.reserve(s, s))
                }
            };
            params.push(home);
        }
        let rsa = f.is_variadic.then(|| layout.reserve(176, 16));
        // The scratch and second-return areas, only where some instruction
        // may use them (wide or x87 values, struct returns, address-only
        // parameters, `va_*`, intrinsics, asm); elsewhere an access is an
        // internal error, never a stray store.
        let needs_areas = needs_scratch_areas(f, &types, &params);
        let scratch = needs_areas.then(|| layout.reserve(32, 16));
        let ret2 = needs_areas.then(|| layout.reserve(16, 16));
        // Prescan: inline asm needs, second-return reads.
        let mut callee_saved = Vec::new();
        let scan = isel::prescan(
            f,
            |_| Ok(()),
            |asm| {
                let used = inline_asm::callee_saved_used(asm, &types, &layout)
                    .map_err(|e| BackendError::inline_asm(&f.name, e))?;
                push_new(&mut callee_saved, used);
                Ok(())
            },
        )?;
        let max_outputs = scan.max_asm_outputs;
        let fused_compares = super::fusable_compares(f, |ty| ty.is_int_or_ptr() && !ty.is_128());
        let use_counts = use_counts(f, types.len());
        for &p in layout
            .used_regs()
            .iter()
            .filter(|p| p.class == RegClass::Int && p.index >= CALLER_SAVED)
        {
            let g = phys(p);
            if !callee_saved.contains(&g) {
                callee_saved.push(g);
            }
        }
        callee_saved.sort();
        let saved = callee_saved.into_iter().map(|g| (g, layout.reserve(8, 8))).collect();
        let asm_spill = layout.reserve(16 * max_outputs as u32, 16);
        layout.finish();
        if layout.size() > (1 << 30) {
            return Err(BackendError::unsupported(&f.name, "stack frame too large"));
        }
        Ok(FnEmitter {
            cx,
            f,
            out,
            types,
            layout,
            own,
            params,
            rsa,
            scratch,
            ret2,
            saved,
            asm_spill,
            second_returns: scan.second_returns,
            sets_second: scan.sets_second,
            fused_compares,
            address_taken: f
                .blocks
                .iter()
                .flat_map(|b| match &b.terminator {
                    Terminator::IndirectBranch { possible_targets, .. } => possible_targets.as_slice(),
                    _ => &[],
                })
                .copied()
                .collect(),
            pending_branch: None,
            pending_store: None,
            use_counts,
            block_index: 0,
            inst_index: 0,
        })
    }

    /// The memory operand of a locals-area offset that may lie outside the area.
    fn frame_mem(&self, off: i64) -> Mem {
        Mem::new(Gpr::Rbp, off - self.layout.size() as i64)
    }

    /// The slot of `v` (a value that is not an address).
    fn slot(&self, v: Value) -> Result<Mem, BackendError> {
        match self.layout.home(v) {
            Home::Slot(off) => Ok(self.area(off)),
            Home::None => Err(self.internal(format!("{v} is used but never defined"))),
            Home::Reg(_) => Err(self.internal(format!("{v} is in a register where a slot is needed"))),
            _ => Err(self.internal(format!("{v} is an address, not a slot"))),
        }
    }

    /// `r = address of the alloca object of v`.
    fn alloca_address(&mut self, offset: u32, align: u32, r: Gpr) {
        let m = self.area(offset);
        emit!(self, "\tleaq\t{m}, {}", r.q());
        if align > 16 {
            emit!(self, "\taddq\t${}, {}", align - 16, r.q());
            emit!(self, "\tandq\t${}, {}", -(align as i64), r.q());
        }
    }

    /// Where a symbol's address comes from.
    fn symbol_kind(&self, name: &str) -> SymbolKind {
        if self.cx.thread_local.contains(name) {
            SymbolKind::ThreadLocal
        } else if self.cx.is_defined(name) || name.starts_with(".L") {
            SymbolKind::Local
        } else {
            SymbolKind::Got
        }
    }

    /// Loads the base address of a symbol that is not PC-relative into `r`.
    fn symbol_base(&mut self, name: &str, kind: SymbolKind, r: Gpr) {
        let sym = crate::backend::symbol(name);
        match kind {
            SymbolKind::ThreadLocal => {
                emit!(self, "\tmovq\t%fs:0, {}", r.q());
                emit!(self, "\taddq\t{sym}@gottpoff(%rip), {}", r.q());
            }
            SymbolKind::Got => emit!(self, "\tmovq\t{sym}@GOTPCREL(%rip), {}", r.q()),
            SymbolKind::Local => emit!(self, "\tleaq\t{sym}(%rip), {}", r.q()),
        }
    }

    /// Puts the address an address home stands for into `r`.
    fn materialize(&mut self, home: Home, r: Gpr) {
        match home {
            Home::Alloca { offset, align } => self.alloca_address(offset, align, r),
            Home::FrameAddr(o) => {
                let m = self.frame_mem(o);
                emit!(self, "\tleaq\t{m}, {}", r.q());
            }
            Home::SymbolAddr { sym, offset } => {
                let name = self.layout.symbol(sym).clone();
                match self.symbol_kind(&name) {
                    SymbolKind::Local => {
                        let m = Mem::rip(name, offset);
                        emit!(self, "\tleaq\t{m}, {}", r.q());
                    }
                    kind => {
                        self.symbol_base(&name, kind, r);
                        if offset != 0 {
                            emit!(self, "\tleaq\t{offset}({}), {}", r.q(), r.q());
                        }
                    }
                }
            }
            Home::Reg(p) if p.class == RegClass::Float => emit!(self, "\tmovq\t%xmm{}, {}", xmm_home(p), r.q()),
            Home::Reg(p) => emit!(self, "\tmovq\t{}, {}", phys(p).q(), r.q()),
            Home::Slot(_) | Home::None => {}
        }
    }

    /// The memory a pointer value addresses: a frame object or a symbol
    /// directly, otherwise through the pointer loaded into `scratch`.
    fn addr_of(&mut self, ptr: Value, seg: crate::ir::types::AddressSpace, scratch: Gpr) -> Result<Mem, BackendError> {
        let plain = seg == crate::ir::types::AddressSpace::Default;
        let through = |base: Gpr, disp: i64| Mem {
            seg,
            ..Mem::new(base, disp)
        };
        match self.layout.home(ptr) {
            Home::Alloca { offset, align } if align <= 16 && plain => Ok(self.area(offset)),
            Home::FrameAddr(o) if plain => Ok(self.frame_mem(o)),
            Home::SymbolAddr { sym, offset } => {
                let name = self.layout.symbol(sym).clone();
                match self.symbol_kind(&name) {
                    SymbolKind::Local if plain => Ok(Mem::rip(name, offset)),
                    SymbolKind::Local => {
                        self.materialize(Home::SymbolAddr { sym, offset }, scratch);
                        Ok(through(scratch, 0))
                    }
                    kind => {
                        self.symbol_base(&name, kind, scratch);
                        Ok(through(scratch, offset))
                    }
                }
            }
            Home::Slot(off) => {
                if !self.take_forwarded(ptr, 8, false, scratch) {
                    let m = self.area(off);
                    emit!(self, "\tmovq\t{m}, {}", scratch.q());
                }
                Ok(through(scratch, 0))
            }
            Home::Reg(p) if p.class == RegClass::Int => {
                self.flush();
                Ok(through(phys(p), 0))
            }
            Home::None => Err(self.internal(format!("{ptr} is used but never defined"))),
            h => {
                self.materialize(h, scratch);
                Ok(through(scratch, 0))
            }
        }
    }

    /// `r = imm` with the shortest encoding.
    fn mov_imm(&mut self, imm: i64, r: Gpr) {
        if imm == 0 {
            emit!(self, "\txorl\t{}, {}", r.l(), r.l());
        } else if (0..=u32::MAX as i64).contains(&imm) {
            emit!(self, "\tmovl\t${imm}, {}", r.l());
        } else if i32::try_from(imm).is_ok() {
            emit!(self, "\tmovq\t${imm}, {}", r.q());
        } else {
            emit!(self, "\tmovabsq\t${imm}, {}", r.q());
        }
    }

    /// Loads an integer-class operand of type `ty` into `r`, extended to 64
    /// bits (sign-extended when `signed`). An alloca's value is its address;
    /// a 16-byte value gives its low half; a float gives its bits.
    fn load_int(&mut self, op: &Operand, ty: IrType, signed: bool, r: Gpr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let imm = Self::const_i64(c, ty, signed);
                self.mov_imm(imm, r);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(_) if self.take_forwarded(*v, ty.size().clamp(1, 8), signed, r) => {}
                Home::Slot(off) => {
                    let m = self.area(off);
                    self.load_mem(&m, ty.size(), signed, r);
                }
                Home::Reg(p) if p.class == RegClass::Float => {
                    // A float's bits.
                    let x = xmm_home(p);
                    if ty.size() <= 4 || self.types.of(*v) == IrType::F32 {
                        emit!(self, "\tmovd\t%xmm{x}, {}", r.l());
                    } else {
                        emit!(self, "\tmovq\t%xmm{x}, {}", r.q());
                    }
                }
                Home::Reg(p) => self.extend_reg(phys(p), ty.size(), signed, r),
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                h => self.materialize(h, r),
            },
        }
        Ok(())
    }

    /// `r = the low size bytes of register `from``, extended to 64 bits.
    fn extend_reg(&mut self, from: Gpr, size: usize, signed: bool, r: Gpr) {
        match (size, signed) {
            (1, true) => emit!(self, "\tmovsbq\t{}, {}", from.name(1), r.q()),
            (1, false) => emit!(self, "\tmovzbl\t{}, {}", from.name(1), r.l()),
            (2, true) => emit!(self, "\tmovswq\t{}, {}", from.name(2), r.q()),
            (2, false) => emit!(self, "\tmovzwl\t{}, {}", from.name(2), r.l()),
            (4, true) => emit!(self, "\tmovslq\t{}, {}", from.l(), r.q()),
            (4, false) => emit!(self, "\tmovl\t{}, {}", from.l(), r.l()),
            _ if from == r => self.flush(),
            _ => emit!(self, "\tmovq\t{}, {}", from.q(), r.q()),
        }
    }

    /// The integer register holding `v`, when the allocator put it in one.
    fn reg_of(&self, v: Value) -> Option<Gpr> {
        match self.layout.home(v) {
            Home::Reg(p) if p.class == RegClass::Int => Some(phys(p)),
            _ => None,
        }
    }

    /// The `n` of the `%xmm<n>` holding the float `v`, when the allocator put it in one.
    fn xmm_of(&self, v: Value) -> Option<u8> {
        match self.layout.home(v) {
            Home::Reg(p) if p.class == RegClass::Float => Some(xmm_home(p)),
            _ => None,
        }
    }

    /// `dest = op` (all bytes of a `ty`): the generic value move, into a
    /// register or a slot. Nothing when both already share a home (a copy
    /// the allocator coalesced).
    fn move_value(&mut self, dest: Value, op: &Operand, ty: IrType) -> Result<(), BackendError> {
        if let Operand::Value(s) = op {
            if self.layout.home(*s) == self.layout.home(dest) && !self.layout.home(dest).is_address() {
                return Ok(());
            }
        }
        if let Some(x) = self.xmm_of(dest) {
            return self.load_xmm(op, self.types.of(dest), x);
        }
        match self.reg_of(dest) {
            Some(g) => {
                let signed = ty.is_signed();
                self.load_int(op, ty, signed, g)
            }
            None => {
                let m = self.slot(dest)?;
                self.store_operand(op, ty, &m)
            }
        }
    }

    /// `r = the size-byte integer at m`, extended to 64 bits.
    fn load_mem(&mut self, m: &Mem, size: usize, signed: bool, r: Gpr) {
        match (size, signed) {
            (1, true) => emit!(self, "\tmovsbq\t{m}, {}", r.q()),
            (1, false) => emit!(self, "\tmovzbl\t{m}, {}", r.l()),
            (2, true) => emit!(self, "\tmovswq\t{m}, {}", r.q()),
            (2, false) => emit!(self, "\tmovzwl\t{m}, {}", r.l()),
            (4, true) => emit!(self, "\tmovslq\t{m}, {}", r.q()),
            (4, false) => emit!(self, "\tmovl\t{m}, {}", r.l()),
            _ => emit!(self, "\tmovq\t{m}, {}", r.q()),
        }
    }

    /// Loads an operand's bits with the extension its type implies.
    fn load(&mut self, op: &Operand, ty: IrType, r: Gpr) -> Result<(), BackendError> {
        self.load_int(op, ty, ty.is_signed(), r)
    }

    /// The operand as an immediate that fits a sign-extended 32-bit field.
    fn imm32(op: &Operand, ty: IrType, signed: bool) -> Option<i64> {
        let c = op.as_const()?;
        let v = Self::const_i64(&c, ty, signed);
        if ty.size() <= 4 || i32::try_from(v).is_ok() {
            // 32-bit operations take the low 32 bits of any 32-bit immediate.
            let v32 = if ty.size() <= 4 { v as i32 as i64 } else { v };
            Some(v32)
        } else {
            None
        }
    }

    /// Stores the low `size` bytes of `r` to `m`.
    fn store_mem(&mut self, r: Gpr, size: usize, m: &Mem) {
        let s = regs::suffix(size);
        emit!(self, "\tmov{s}\t{}, {m}", r.name(size));
    }

    /// Stores `r` into the slot of `v` at the width of `ty`.
    fn store(&mut self, r: Gpr, ty: IrType, v: Value) -> Result<(), BackendError> {
        self.store_sized(r, ty.size().clamp(1, 8), v)
    }

    /// As [`FnEmitter::store`] for a value of `size` bytes.
    fn store_sized(&mut self, r: Gpr, size: usize, v: Value) -> Result<(), BackendError> {
        if let Some(x) = self.xmm_of(v) {
            // A float's bits into its xmm home.
            if size <= 4 {
                emit!(self, "\tmovd\t{}, %xmm{x}", r.l());
            } else {
                emit!(self, "\tmovq\t{}, %xmm{x}", r.q());
            }
            return Ok(());
        }
        if let Some(g) = self.reg_of(v) {
            self.flush();
            if g != r {
                let _ = size;
                emit!(self, "\tmovq\t{}, {}", r.q(), g.q());
            }
            return Ok(());
        }
        let m = self.slot(v)?;
        self.flush();
        // Keep the result in `r`: the next instruction may read it from there.
        self.pending_store = Some(PendingStore {
            value: v,
            reg: r,
            size,
            slot: m,
            single_use: self.use_counts.get(v.0 as usize) == Some(&1),
        });
        Ok(())
    }

    /// Emits the store a forwarded result still owes. Every line of
    /// assembly goes through here first, so memory is up to date whenever
    /// anything but the forwarded read happens.
    fn flush(&mut self) {
        if let Some(p) = self.pending_store.take() {
            let s = regs::suffix(p.size);
            let _ = writeln!(self.out, "\tmov{s}\t{}, {}", p.reg.name(p.size), p.slot);
        }
    }

    /// Reads value `v` of `size` bytes into `r`, extended by `signed`, from the
    /// register a forwarded result is in; false when `v` is not forwarded.
    fn take_forwarded(&mut self, v: Value, size: usize, signed: bool, r: Gpr) -> bool {
        match &self.pending_store {
            Some(p) if p.value == v && p.size == size => {}
            _ => return false,
        }
        let Some(p) = self.pending_store.take() else {
            return false;
        };
        if !p.single_use {
            let s = regs::suffix(p.size);
            let _ = writeln!(self.out, "\tmov{s}\t{}, {}", p.reg.name(p.size), p.slot);
        }
        let (from, to) = (p.reg, r);
        let line = match (size, signed) {
            (1, true) => format!("movsbq\t{}, {}", from.name(1), to.q()),
            (1, false) => format!("movzbl\t{}, {}", from.name(1), to.l()),
            (2, true) => format!("movswq\t{}, {}", from.name(2), to.q()),
            (2, false) => format!("movzwl\t{}, {}", from.name(2), to.l()),
            (4, true) => format!("movslq\t{}, {}", from.l(), to.q()),
            (4, false) => format!("movl\t{}, {}", from.l(), to.l()),
            _ if from == to => return true,
            _ => format!("movq\t{}, {}", from.q(), to.q()),
        };
        let _ = writeln!(self.out, "\t{line}");
        true
    }

    /// Stores constant `c` of type `ty` into `m` (via `rax` when it does not fit an immediate).
    fn store_const(&mut self, c: &IrConst, ty: IrType, m: &Mem) {
        for (at, chunk, v) in Self::const_pieces(c, ty) {
            let dst = m.at(at as i64);
            match chunk {
                8 => {
                    if i32::try_from(v as i64).is_ok() {
                        emit!(self, "\tmovq\t${}, {dst}", v as i64);
                    } else {
                        emit!(self, "\tmovabsq\t${}, %rax", v as i64);
                        emit!(self, "\tmovq\t%rax, {dst}");
                    }
                }
                4 => emit!(self, "\tmovl\t${}, {dst}", v as u32 as i32),
                2 => emit!(self, "\tmovw\t${}, {dst}", v as u16 as i16),
                _ => emit!(self, "\tmovb\t${}, {dst}", v as u8 as i8),
            }
        }
    }

    /// Copies `size` bytes (a multiple of 8, or 1/2/4) from `src` to `dst` through `rax`.
    fn copy_mem(&mut self, src: &Mem, dst: &Mem, size: usize) {
        for (at, chunk) in super::data::pieces(size) {
            let s = regs::suffix(chunk);
            let r = Gpr::Rax.name(chunk);
            emit!(self, "\tmov{s}\t{}, {r}", src.at(at as i64));
            emit!(self, "\tmov{s}\t{r}, {}", dst.at(at as i64));
        }
    }

    /// Stores operand `op` of type `ty` (all its bytes) into `m`: the generic value move.
    fn store_operand(&mut self, op: &Operand, ty: IrType, m: &Mem) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => self.store_const(c, ty, m),
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let src = self.area(off);
                    let size = if ty.size() > 8 { 16 } else { ty.size().max(1) };
                    self.copy_mem(&src, m, size);
                }
                Home::Reg(p) if p.class == RegClass::Float => {
                    let mv = if ty.size() <= 4 || self.types.of(*v) == IrType::F32 {
                        "movss"
                    } else {
                        "movsd"
                    };
                    emit!(self, "\t{mv}\t%xmm{}, {m}", xmm_home(p));
                }
                Home::Reg(p) => {
                    self.flush();
                    self.store_mem(phys(p), ty.size().clamp(1, 8), m);
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                h => {
                    self.materialize(h, Gpr::Rax);
                    self.store_mem(Gpr::Rax, ty.size().clamp(1, 8), m);
                }
            },
        }
        Ok(())
    }

    /// Emits the body of a `switch`.
    fn switch(
        &mut self,
        val: &Operand,
        ty: IrType,
        cases: &[(i64, BlockId)],
        default: BlockId,
    ) -> Result<(), BackendError> {
        if !ty.is_int_or_ptr() {
            return Err(self.internal(format!("switch on {ty}")));
        }
        if ty.is_128() {
            // Compare both halves for each case.
            self.load_wide(val, Gpr::Rax, Gpr::Rdx)?;
            let mut seen = Vec::new();
            for &(c, b) in cases {
                let v = super::switch::normalize_case(c, ty);
                if seen.contains(&v) {
                    continue;
                }
                seen.push(v);
                let (lo, hi) = (v as u128 as u64 as i64, ((v as u128) >> 64) as u64 as i64);
                let next = self.cx.labels.fresh();
                self.mov_imm(lo, Gpr::Rcx);
                emit!(self, "\tcmpq\t%rcx, %rax");
                emit!(self, "\tjne\t.Ltmp{next}");
                self.mov_imm(hi, Gpr::Rcx);
                emit!(self, "\tcmpq\t%rcx, %rdx");
                emit!(self, "\tje\t{}", block_label(b));
                emit!(self, ".Ltmp{next}:");
            }
            emit!(self, "\tjmp\t{}", block_label(default));
            return Ok(());
        }
        self.load(val, ty, Gpr::Rax)?;
        self.switch_plan(plan_switch(cases, default, ty), ty.is_signed(), default);
        Ok(())
    }

    /// `cmpq $v, %rax` for a 64-bit `v` (through `%rcx` when it is no 32-bit immediate).
    fn cmp_rax_imm(&mut self, v: i64) {
        if i32::try_from(v).is_ok() {
            emit!(self, "\tcmpq\t${v}, %rax");
        } else {
            emit!(self, "\tmovabsq\t${v}, %rcx");
            emit!(self, "\tcmpq\t%rcx, %rax");
        }
    }

    /// The code of a switch plan over the value in `%rax` (extended from the
    /// switch type by its signedness); `signed` orders a binary search.
    fn switch_plan(&mut self, plan: SwitchPlan, signed: bool, default: BlockId) {
        match plan {
            SwitchPlan::CompareChain { cases } => {
                for (v, b) in cases {
                    self.cmp_rax_imm(v as u64 as i64);
                    emit!(self, "\tje\t{}", block_label(b));
                }
                emit!(self, "\tjmp\t{}", block_label(default));
            }
            SwitchPlan::Split { pivot, below, above } => {
                let low = self.cx.labels.fresh();
                self.cmp_rax_imm(pivot as u64 as i64);
                emit!(self, "\t{}\t.Lsw{low}", if signed { "jl" } else { "jb" });
                self.switch_plan(*above, signed, default);
                emit!(self, ".Lsw{low}:");
                self.switch_plan(*below, signed, default);
            }
            SwitchPlan::JumpTable { min, table } => {
                let min = min as u64 as i64;
                if min != 0 {
                    if i32::try_from(min).is_ok() {
                        emit!(self, "\tsubq\t${min}, %rax");
                    } else {
                        emit!(self, "\tmovabsq\t${min}, %rcx");
                        emit!(self, "\tsubq\t%rcx, %rax");
                    }
                }
                let jt = self.cx.labels.fresh();
                emit!(self, "\tcmpq\t${}, %rax", table.len() - 1);
                emit!(self, "\tja\t{}", block_label(default));
                emit!(self, "\tleaq\t.LJT{jt}(%rip), %rcx");
                emit!(self, "\tmovslq\t(%rcx,%rax,4), %rax");
                emit!(self, "\taddq\t%rcx, %rax");
                emit!(self, "\tjmp\t*%rax");
                let ro = &mut self.cx.rodata;
                let _ = writeln!(ro, "\t.p2align\t2\n.LJT{jt}:");
                for b in table {
                    let _ = writeln!(ro, "\t.long\t.LBB{}-.LJT{jt}", b.0);
                }
            }
        }
    }

    /// The size in bytes a `cmp`/`test` on a condition of type `ty` reads.
    fn cond_size(ty: IrType) -> usize {
        if ty == IrType::Void || ty.size() > 8 {
            8
        } else {
            ty.size()
        }
    }

    /// Sets the flags from `cond != 0`; returns `Some(value)` for a constant condition.
    fn test_cond(&mut self, cond: &Operand) -> Result<Option<bool>, BackendError> {
        match cond {
            Operand::Const(c) => Ok(Some(c.is_nonzero())),
            Operand::Value(v) => {
                let ty = self.types.of(*v);
                match self.layout.home(*v) {
                    Home::Alloca { .. } | Home::FrameAddr(_) => Ok(Some(true)),
                    Home::None => Err(self.internal(format!("{v} is used but never defined"))),
                    h @ Home::SymbolAddr { sym, .. } => {
                        // A weak undefined symbol's address may be null.
                        if self.symbol_kind(self.layout.symbol(sym)) != SymbolKind::Got {
                            return Ok(Some(true));
                        }
                        self.materialize(h, Gpr::Rax);
                        emit!(self, "\ttestq\t%rax, %rax");
                        Ok(None)
                    }
                    Home::Reg(p) if p.class == RegClass::Float => {
                        self.load_int(cond, ty, false, Gpr::Rax)?;
                        emit!(self, "\ttestq\t%rax, %rax");
                        Ok(None)
                    }
                    Home::Reg(p) => {
                        let size = Self::cond_size(ty);
                        let r = phys(p).name(size);
                        emit!(self, "\ttest{}\t{r}, {r}", regs::suffix(size));
                        Ok(None)
                    }
                    Home::Slot(_)
                        if !ty.is_128()
                            && self
                                .pending_store
                                .as_ref()
                                .is_some_and(|p| p.value == *v && p.size == Self::cond_size(ty) && p.single_use) =>
                    {
                        let size = Self::cond_size(ty);
                        let reg = self.pending_store.take().map(|p| p.reg).unwrap_or(Gpr::Rax);
                        let r = reg.name(size);
                        emit!(self, "\ttest{}\t{r}, {r}", regs::suffix(size));
                        Ok(None)
                    }
                    Home::Slot(off) => {
                        let m = self.area(off);
                        if ty.is_128() {
                            emit!(self, "\tmovq\t{m}, %rax");
                            emit!(self, "\torq\t{}, %rax", m.at(8));
                            return Ok(None);
                        }
                        let size = Self::cond_size(ty);
                        emit!(self, "\tcmp{}\t$0, {m}", regs::suffix(size));
                        Ok(None)
                    }
                }
            }
        }
    }

    fn stack_save(&mut self, dest: Value) -> Result<(), BackendError> {
        emit!(self, "\tmovq\t%rsp, %rax");
        self.store_sized(Gpr::Rax, 8, dest)
    }

    fn stack_restore(&mut self, ptr: Value) -> Result<(), BackendError> {
        self.load_int(&Operand::Value(ptr), IrType::Ptr, false, Gpr::Rax)?;
        emit!(self, "\tmovq\t%rax, %rsp");
        Ok(())
    }

    fn label_addr(&mut self, dest: Value, label: BlockId) -> Result<(), BackendError> {
        emit!(self, "\tleaq\t.LBB{}(%rip), %rax", label.0);
        self.store_sized(Gpr::Rax, 8, dest)
    }

    /// `getret*second`: the value the last call left in the second-return area.
    fn get_second_return(&mut self, dest: Value, _reg: IrType) -> Result<(), BackendError> {
        let ty = self.types.of(dest);
        let src = self.ret2_area()?;
        if let Some(x) = self.xmm_of(dest) {
            let mv = if ty == IrType::F32 { "movss" } else { "movsd" };
            emit!(self, "\t{mv}\t{src}, %xmm{x}");
            return Ok(());
        }
        let m = self.slot(dest)?;
        self.copy_mem(&src, &m, if ty == IrType::F128 { 16 } else { 8 });
        Ok(())
    }

    /// `setret*second`: the value the epilogue returns in the second register.
    fn set_second_return(&mut self, src: &Operand, reg: IrType) -> Result<(), BackendError> {
        let m = self.ret2_area()?;
        self.store_operand(src, reg, &m)
    }

    fn fence(&mut self, ordering: crate::ir::ops::AtomicOrdering) {
        if ordering == crate::ir::ops::AtomicOrdering::SeqCst {
            emit!(self, "\tmfence");
        }
    }
}

impl BlockBranches for FnEmitter<'_, '_> {
    type Cond = &'static str;

    fn jump_to(&mut self, b: BlockId) {
        emit!(self, "\tjmp\t{}", block_label(b));
    }

    fn branch_to(&mut self, cc: &'static str, b: BlockId) {
        emit!(self, "\tj{cc}\t{}", block_label(b));
    }

    fn branch_target(&self, b: BlockId) -> BlockId {
        self.layout.branch_target(b)
    }
}

impl EmitterBase for FnEmitter<'_, '_> {
    type Mem = Mem;
    type ParamHome = ParamHome;

    const LONG_DOUBLE: LongDoubleFormat = LongDoubleFormat::X87;

    fn function(&self) -> &IrFunction {
        self.f
    }

    /// The memory operand of locals-area offset `off`.
    fn area(&self, off: u32) -> Mem {
        Mem::new(Gpr::Rbp, off as i64 - self.layout.size() as i64)
    }

    fn reserved_areas(&self) -> (Option<u32>, Option<u32>) {
        (self.scratch, self.ret2)
    }

    fn param_homes(&self) -> &[ParamHome] {
        &self.params
    }
}

impl FunctionEmitter for FnEmitter<'_, '_> {
    fn prologue(&mut self) -> Result<(), BackendError> {
        self.emit_prologue()
    }

    fn elided_blocks(&self, f: &IrFunction) -> FxHashSet<BlockId> {
        self.layout.elided_blocks(f)
    }

    fn block_start(&mut self, index: usize, label: BlockId) {
        self.block_index = index;
        if self.address_taken.contains(&label) {
            // Computed-goto targets start on 16 bytes when that costs at
            // most 10 bytes of padding, as gcc -O2 aligns jump targets.
            emit!(self, "\t.p2align\t4,,10");
        }
        emit!(self, ".LBB{}:", label.0);
        self.inst_index = 0;
    }

    fn instruction(&mut self, inst: &Instruction) -> Result<(), BackendError> {
        crate::backend::isel::select_instruction!(self, inst);
        Ok(())
    }

    fn terminator(&mut self, term: &Terminator, next: Option<BlockId>) -> Result<(), BackendError> {
        match term {
            Terminator::Return(val) => self.emit_return(val.as_ref())?,
            Terminator::Branch(b) => isel::goto(self, *b, next),
            Terminator::CondBranch {
                cond,
                true_label,
                false_label,
            } if self.pending_branch.is_some_and(|(v, _)| Operand::Value(v) == *cond) => {
                let (_, cc) = self.pending_branch.take().unwrap_or((Value(0), "ne"));
                isel::two_way(self, cc, ops::inverse_cc(cc), *true_label, *false_label, next);
            }
            Terminator::CondBranch {
                cond,
                true_label,
                false_label,
            } => match self.test_cond(cond)? {
                Some(taken) => isel::goto(self, if taken { *true_label } else { *false_label }, next),
                None => isel::two_way(self, "ne", "e", *true_label, *false_label, next),
            },
            Terminator::Switch {
                val,
                cases,
                default,
                ty,
            } => self.switch(val, *ty, cases, *default)?,
            // Always through %rax: `movq (%r8), %r8; jmp *%r8` ran repro-02
            // at half the speed of the same code with a move to %rax on an
            // AMD EPYC.
            Terminator::IndirectBranch { target, .. } => {
                self.load_int(target, IrType::Ptr, false, Gpr::Rax)?;
                emit!(self, "\tjmp\t*%rax");
            }
            Terminator::Unreachable => emit!(self, "\tud2"),
        }
        self.flush();
        Ok(())
    }
}

/// How many times each value is read, counting every operand occurrence
/// (`add %1, %1` reads `%1` twice); a value defined more than once (a copy
/// after phi elimination) gets `u32::MAX` so that it is never forwarded.
fn use_counts(f: &IrFunction, n: usize) -> Vec<u32> {
    let mut uses = vec![0u32; n];
    let mut defs = vec![0u8; n];
    let bump = |v: Value, uses: &mut Vec<u32>| {
        let i = v.0 as usize;
        if i >= uses.len() {
            uses.resize(i + 1, 0);
        }
        uses[i] = uses[i].saturating_add(1);
    };
    for b in &f.blocks {
        for inst in &b.instructions {
            inst.for_each_used_value(|v| bump(v, &mut uses));
            inst.for_each_def(|v| {
                if let Some(d) = defs.get_mut(v.0 as usize) {
                    *d = d.saturating_add(1);
                }
            });
        }
        b.terminator.for_each_used_value(|v| bump(v, &mut uses));
    }
    for (u, d) in uses.iter_mut().zip(&defs) {
        if *d > 1 {
            *u = u32::MAX;
        }
    }
    uses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    /// A float remainder calls `fmod`, which may overwrite r8, r9, rsi and
    /// rdi: nothing live across it may live there (as for calls, selects and
    /// 16-byte values); plain integer arithmetic clobbers nothing.
    #[test]
    fn float_remainders_selects_and_wide_values_clobber_the_caller_saved_registers() {
        let m = parse_module(
            "define @f(f64, i64) -> f64 {\nbb0:\n  %0 = paramref 0 f64\n  %1 = paramref 1 i64\n  %2 = srem f64 %0, %0\n  %3 = cast i64 -> i128 %1\n  %4 = add i64 %1, %1\n  %5 = select i64 %1, %4, %1\n  ret %2\n}\n",
        )
        .unwrap();
        let f = &m.functions[0];
        let types = ValueTypes::compute(f);
        let all = Clobbers {
            int: 0b1111,
            float: 0xff,
            ..Clobbers::default()
        };
        let insts = &f.blocks[0].instructions;
        assert_eq!(clobbers(&insts[2], &types), all);
        assert_eq!(clobbers(&insts[3], &types), all);
        assert_eq!(clobbers(&insts[4], &types), Clobbers::default());
        // A select works in integer registers only.
        assert_eq!(clobbers(&insts[5], &types), Clobbers { float: 0, ..all });
    }

    /// A call overwrites the xmm homes only after reading its operands
    /// (`late`: a float argument may live in one), the integer caller-saved
    /// registers early (direct and indirect calls alike).
    #[test]
    fn calls_clobber_the_xmm_homes_after_reading_their_operands() {
        let m = parse_module(
            "declare @g(i64, f64) -> i64
define @f(i64, ptr) -> i64 {
bb0:
  %0 = paramref 0 i64
  %1 = paramref 1 ptr
  %2 = call i64 @g(i64 %0, f64 1.5f64)
  %3 = call i64 %1(i64 %2, f64 2.5f64)
  ret %3
}
",
        )
        .unwrap();
        let f = m.functions.iter().find(|f| !f.is_declaration).unwrap();
        let types = ValueTypes::compute(f);
        let insts = &f.blocks[0].instructions;
        assert_eq!(
            clobbers(&insts[2], &types),
            Clobbers {
                int: 0b1111,
                late_float: 0xff,
                ..Clobbers::default()
            }
        );
        assert_eq!(
            clobbers(&insts[3], &types),
            Clobbers {
                int: 0b1111,
                late_float: 0xff,
                ..Clobbers::default()
            }
        );
    }
}
