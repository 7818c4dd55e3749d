//! The AArch64 backend: IR to GNU as for `aarch64-linux-gnu` under AAPCS64
//! (docs/abi.md is the contract with the lowering).
//!
//! Code generation is deliberately simple and correct first, like the
//! x86-64 backend: the register allocator ([`crate::backend::regalloc`])
//! gives every value a home, a register or a shared frame slot
//! ([`crate::backend::frame`]). Integers and pointers of at most 8 bytes
//! take the caller-saved `x2..x7` and `x13..x15` first, then the
//! callee-saved `x19..x28`; `float` and `double` take the caller-saved
//! `v24..v31` first, then `d8..d15` (AAPCS64 preserves their low 64 bits,
//! all these values use). A caller-saved home never holds a value live
//! across an instruction whose code overwrites it (calls, `fmod`, block
//! copies, `va_*`, intrinsics, wide values: [`clobbers`]), nor a value the
//! instruction reads after it has overwritten the register (a call reads
//! its operands before the callee runs, but loads its argument registers
//! one by one), so calls need no saves; the prologue saves the
//! callee-saved homes handed out and the epilogue restores them. Each instruction reads
//! its operands straight from their home registers where the operation
//! allows (a register holds a value's bits in its low `size` bytes, so
//! narrow values are extended first where the upper bits matter), else
//! loads them into temporaries (`x9..x12`, and `x13..x15` inside the
//! sequences that clobber them; `v16..v19`), and computes into
//! the destination's home register or a temporary it then stores.
//! Functions with inline asm keep every value in a slot (the
//! asm operand planner picks callee-saved registers for itself), so inline
//! asm and `asm goto` edges need no register bookkeeping. `x16` is the
//! pointer temporary and `x17` materializes large immediates and far
//! offsets ([`regs`]).
//!
//! The frame: on entry `sp` drops by `16 + locals` at once, the frame record
//! (`x29`, `x30`) is stored at the new `sp` and `x29` points at it, so that
//! the locals area ([`FrameLayout`]) sits just above the record at
//! positive offsets (`[x29, #16 + off]`), reachable with scaled 12-bit
//! displacements. The incoming stack arguments start at `x29 + 16 + locals`
//! (the caller's `sp`). The body may move `sp` (dynamic allocas, a call's
//! outgoing area pushed just for the call); `x29` never moves. The locals
//! area holds, in order, the `alloca` objects (zeroed in the prologue, as
//! the interpreter's allocas are), the value slots, then the areas reserved
//! here: parameter homes (none for a parameter the prologue moves straight
//! into its home register), the register save areas of a variadic
//! function, the address of an unpassed (empty struct) parameter and the
//! second return register (each only when some code uses it; an access
//! otherwise is an internal error), the callee-saved registers the
//! allocator hands out or an inline asm uses.
//!
//! Files: `abi` (argument classification), `calls` (prologue, calls,
//! returns), `moves` (immediates, addressing, value moves), `branches`
//! (conditions, `switch`), `ops` (integer and floating-point arithmetic,
//! comparisons, conversions), `wide` (`__int128` and binary128 `long
//! double` through libgcc), `memory` (loads, stores, atomics, stack),
//! `varargs` (`va_start`/`va_arg`), `inline_asm`, `regs`.

pub mod abi;
mod branches;
mod calls;
pub mod encode;
mod inline_asm;
mod memory;
mod moves;
mod ops;
pub mod regs;
mod varargs;
mod wide;

use super::frame::{slot_size, FrameLayout, Home, ValueTypes};
use super::regalloc::{Clobbers, PhysReg, RegBudget, RegClass};
use super::{block_label, walk_blocks, BackendError, FunctionEmitter, ModuleContext, TargetDesc, TargetIsa};
pub(crate) use crate::backend::isel::SecondReturn;
use crate::backend::isel::{self, push_new, BlockBranches, EmitterBase};
use crate::backend::LongDoubleFormat;
use crate::ir::instruction::{BlockId, Instruction, Operand, Terminator, Value};
use crate::ir::module::IrFunction;
use crate::ir::types::IrType;
use crate::target::Target;
use abi::{ArgLoc, CallLayout, RetLoc};
use regs::{Mem, Vr, Xr, FP};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;

/// Writes one line of assembly to the emitter's output.
macro_rules! emit {
    ($e:expr, $($arg:tt)*) => {{
        let _ = writeln!($e.out, $($arg)*);
    }};
}
pub(crate) use emit;

/// The AArch64 target.
pub struct Aarch64;

/// The general registers the allocator may hand out: first the caller-saved
/// argument registers `x2..x7`, which the emitter writes only to pass
/// arguments (calls, the libgcc calls of wide and `fmod` sequences) and in
/// the prologue, and `x13..x15`, which it uses only inside calls, block
/// copies, `va_*`, wide (`__int128`, `long double`) sequences and wide
/// selects (see [`clobbers`]). Then the
/// callee-saved `x19..x28`, which nothing else in this backend uses
/// (`x29`/`x30` are the frame record). `x0`/`x1` carry results and the
/// first two arguments, `x9..x12` are the emitter's value temporaries,
/// `x16`/`x17` its pointer and immediate temporaries, `x8` the indirect
/// result register, `x18` the platform register: none of them is handed
/// out.
const ALLOCATABLE_X: [Xr; 19] = [
    Xr(2),
    Xr(3),
    Xr(4),
    Xr(5),
    Xr(6),
    Xr(7),
    Xr(13),
    Xr(14),
    Xr(15),
    Xr(19),
    Xr(20),
    Xr(21),
    Xr(22),
    Xr(23),
    Xr(24),
    Xr(25),
    Xr(26),
    Xr(27),
    Xr(28),
];
/// How many of [`ALLOCATABLE_X`] are caller-saved (they come first).
const CALLER_SAVED_X: u8 = 9;
/// The SIMD/FP registers the allocator may hand out: first the caller-saved
/// `v24..v31`, which no emitter sequence uses (its FP temporaries are
/// `v16..v19`), then `v8..v15`, of which AAPCS64 preserves the low 64 bits
/// (enough for `f32`/`f64`).
const ALLOCATABLE_V: [Vr; 16] = [
    Vr(24),
    Vr(25),
    Vr(26),
    Vr(27),
    Vr(28),
    Vr(29),
    Vr(30),
    Vr(31),
    Vr(8),
    Vr(9),
    Vr(10),
    Vr(11),
    Vr(12),
    Vr(13),
    Vr(14),
    Vr(15),
];
/// How many of [`ALLOCATABLE_V`] are caller-saved (they come first).
const CALLER_SAVED_V: u8 = 8;
const REG_BUDGET: RegBudget = RegBudget { int: 19, float: 16 };

/// The caller-saved allocatable registers an instruction's code overwrites
/// (a value it reads or that is live across it never gets them): all of
/// them for calls (the callee may use them), `fmod` calls (a float
/// `srem`/`urem`), block copies (`x13`), `va_*` (`x13`, and `va_arg` of a
/// composite copies), intrinsics and inline asm (which may call helpers),
/// and anything on 16-byte values (`__int128` sequences use `x9..x15`,
/// `long double` and 128-bit conversions call libgcc with arguments in
/// `x0..x3` and `v0`/`v1`).
///
/// A call overwrites most of them only after reading its operands: its
/// clobbers are `late` but for the argument registers `x2..x7` it loads,
/// one after the other while reading the operands
/// ([`arg_regs_written_early`]), so a value it only reads (the `x` of
/// `mix(x)`) may sit in `x13..x15`, `v24..v31` or an argument register it
/// does not load instead of taking a callee-saved register or a stack slot.
fn clobbers(inst: &Instruction, types: &ValueTypes) -> Clobbers {
    let (int, float) = ((1 << CALLER_SAVED_X) - 1, (1 << CALLER_SAVED_V) - 1);
    let early = match inst {
        Instruction::Call { info, .. } | Instruction::CallIndirect { info, .. } => arg_regs_written_early(info),
        _ => None,
    };
    match early {
        Some(early) => Clobbers {
            int: early,
            late_int: int & !early,
            late_float: float,
            ..Clobbers::default()
        },
        None if crate::backend::clobbers_caller_saved(inst, types) => Clobbers {
            int,
            float,
            ..Clobbers::default()
        },
        None => Clobbers::default(),
    }
}

/// The allocatable registers (a mask of [`ALLOCATABLE_X`] indices) a
/// call's code (`FnEmitter::call`) writes before it has read every
/// operand: the argument registers `x2..x7` it loads, in argument order,
/// each from its operand (an operand of a later argument may not sit in
/// one). `None` when the call writes other allocatable registers before
/// the `bl`/`blr` or reads an operand after it, and so clobbers them all
/// early: a composite argument (a by-reference copy goes through `x13`, an
/// odd-sized piece in registers is put together in `x15`), a 16-byte one,
/// or a composite result in registers (stored through its buffer operand
/// after the call). Everything else goes through registers that are not
/// allocatable: `x0`, `x1`, `v0..v7`, stack arguments through `x10`, the
/// callee of an indirect call into `x16` after the arguments, the buffer of
/// a memory-returned composite into `x8` before the `bl`.
fn arg_regs_written_early(info: &crate::ir::instruction::CallInfo) -> Option<u64> {
    let lay = abi::layout_of_call(info);
    if lay.args.len() != info.args.len() || matches!(lay.ret, RetLoc::StructGprs(_) | RetLoc::StructHfa(_)) {
        return None;
    }
    let mut early = 0u64;
    for (i, loc) in lay.args.iter().enumerate() {
        let scalar = info.struct_arg_sizes.get(i).copied().flatten().is_none()
            && info.arg_types.get(i).is_some_and(|t| t.size() <= 8);
        match loc {
            ArgLoc::Ignored => {}
            ArgLoc::Fpr(_) | ArgLoc::Stack(_) if scalar => {}
            ArgLoc::Gpr(n) if scalar => {
                if let Some(k) = ALLOCATABLE_X.iter().position(|x| x.0 == *n) {
                    early |= 1 << k;
                }
            }
            _ => return None,
        }
    }
    // The injected bug takes the argument registers to be written late
    // too: loading one may overwrite an operand a later argument reads.
    if crate::inject::enabled(crate::inject::Bug::Aarch64LateClobberArgRegs) {
        early = 0;
    }
    Some(early)
}

/// A home register: a general one or a SIMD/FP one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HomeReg {
    X(Xr),
    V(Vr),
}

/// The register of an allocator home.
fn phys(p: PhysReg) -> HomeReg {
    match p.class {
        RegClass::Int => HomeReg::X(ALLOCATABLE_X[p.index as usize]),
        RegClass::Float => HomeReg::V(ALLOCATABLE_V[p.index as usize]),
    }
}

pub static AARCH64_DESC: TargetDesc = TargetDesc {
    target: Target::Aarch64,
    int_arg_regs: &["x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"],
    float_arg_regs: &["v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7"],
    int_ret_regs: &["x0", "x1"],
    float_ret_regs: &["v0", "v1", "v2", "v3"],
    callee_saved: &[
        "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "d8", "d9", "d10", "d11",
        "d12", "d13", "d14", "d15",
    ],
    stack_align: 16,
    comment: "//",
    type_prefix: '%',
    asm_dialects: false,
};

/// Functions longer than this many lines of assembly are emitted again with
/// conditional branches that reach anywhere (`b.cond` reaches only 1 MiB).
const FAR_BRANCH_LINES: usize = 150_000;

impl TargetIsa for Aarch64 {
    fn desc(&self) -> &'static TargetDesc {
        &AARCH64_DESC
    }

    fn emit_function(&self, cx: &mut ModuleContext<'_>, f: &IrFunction, out: &mut String) -> Result<(), BackendError> {
        let mut body = String::new();
        {
            let mut e = FnEmitter::new(cx, f, &mut body, false)?;
            walk_blocks(f, &mut e)?;
        }
        if body.lines().count() > FAR_BRANCH_LINES {
            body.clear();
            let mut e = FnEmitter::new(cx, f, &mut body, true)?;
            walk_blocks(f, &mut e)?;
        }
        out.push_str(&body);
        Ok(())
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
    /// A scalar in the caller's stack area, at this offset from its `sp`.
    Incoming(u32),
    /// A struct copied from registers into this locals-area buffer (the value is its address).
    Buffer(u32),
    /// A struct in the caller's stack area (the value is its address).
    IncomingAddr(u32),
    /// A struct passed by reference: the pointer was saved in this slot.
    RefSlot(u32),
    /// A struct passed by reference: the pointer is in the caller's stack area.
    RefIncoming(u32),
    /// A scalar the prologue moves straight from its argument register into
    /// the home register of the one `paramref` that reads it (see
    /// [`direct_params`]); it has no slot.
    Direct,
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
    /// General and vector register save areas of a variadic function (64 + 128 bytes).
    save_area: Option<u32>,
    /// 16 bytes whose address stands for a parameter that is not passed
    /// (an empty struct); reserved only when there is one.
    scratch: Option<u32>,
    /// 16 bytes for the second return value (`setret*second`,
    /// `getret*second`); reserved only when the function has one of these.
    ret2: Option<u32>,
    /// Callee-saved registers the allocator hands out or an inline asm
    /// uses, with their save slots (consecutive, so pairs go by `stp`).
    saved_x: Vec<(Xr, u32)>,
    saved_v: Vec<(Vr, u32)>,
    /// Calls followed by a `getret*second`, by (block index, instruction index).
    second_returns: FxHashMap<(usize, usize), SecondReturn>,
    /// The second return register this function sets (`setret*second`).
    sets_second: Option<SecondReturn>,
    /// Conditional branches go through an unconditional `b`.
    far_branches: bool,
    /// Parameters the prologue moves straight from their argument register
    /// into the home register of their only `paramref`'s destination, in
    /// the order of those `paramref`s (see [`direct_params`]).
    direct_params: Vec<(usize, Value)>,
    /// The values of [`direct_params`](Self::direct_params) nothing reads:
    /// the prologue does not move them.
    unread_params: Vec<Value>,
    /// Compares whose only reader is their block's conditional branch
    /// ([`fusable_compares`]): they set the flags and emit no `cset`.
    fused_compares: FxHashSet<Value>,
    /// The fused compare just emitted and the condition code that holds
    /// when it is true (consumed by the terminator).
    pending_cc: Option<(Value, &'static str)>,
    block_index: usize,
    inst_index: usize,
    /// A leaf with nothing in the frame: no frame record, `sp` never moves
    /// ([`crate::backend::needs_no_frame_record`]; gcc -O0 does the same).
    frameless: bool,
}

impl<'a, 'm> FnEmitter<'a, 'm> {
    fn new(
        cx: &'a mut ModuleContext<'m>,
        f: &'a IrFunction,
        out: &'a mut String,
        far_branches: bool,
    ) -> Result<Self, BackendError> {
        let types = ValueTypes::compute(f);
        let mut layout = FrameLayout::compute_with(f, &types, REG_BUDGET, clobbers)?;
        abi::check_hfas(f.params.iter().map(|p| &p.aarch64_hfa)).map_err(|m| BackendError::internal(&f.name, m))?;
        let own = abi::layout_of_function(f);
        let (direct_params, unread_params) = direct_params(f, &layout, &own);
        let mut params = Vec::with_capacity(f.params.len());
        for (i, loc) in own.args.iter().enumerate() {
            let p = &f.params[i];
            let is_struct = p.struct_size.is_some() && !(f.uses_sret && i == 0);
            let home = match *loc {
                ArgLoc::Ignored if f.uses_sret && i == 0 => match own.ret {
                    // The pointer arrives in x8.
                    abi::RetLoc::Sret => ParamHome::Slot(layout.reserve(8, 8)),
                    _ => {
                        let size = p.struct_size.unwrap_or(0) as u32;
                        ParamHome::Buffer(layout.reserve(size.div_ceil(16).max(1) * 16, 16))
                    }
                },
                ArgLoc::Ignored => ParamHome::None,
                ArgLoc::StructGprs { count, .. } => ParamHome::Buffer(layout.reserve(8 * count as u32, 16)),
                ArgLoc::StructHfa { hfa, .. } => {
                    ParamHome::Buffer(layout.reserve(abi::hfa_member_size(hfa) * hfa.count as u32, 16))
                }
                ArgLoc::StackStruct { offset, .. } => ParamHome::IncomingAddr(offset),
                ArgLoc::Stack(offset) if !is_struct => ParamHome::Incoming(offset),
                ArgLoc::Stack(offset) => ParamHome::IncomingAddr(offset),
                ArgLoc::RefGpr { .. } => ParamHome::RefSlot(layout.reserve(8, 8)),
                ArgLoc::RefStack { offset, .. } => ParamHome::RefIncoming(offset),
                ArgLoc::Gpr(_) | ArgLoc::Fpr(_) if direct_params.iter().any(|&(k, _)| k == i) => ParamHome::Direct,
                ArgLoc::Gpr(_) | ArgLoc::GprPair(_) | ArgLoc::Fpr(_) => {
                    let s = slot_size(p.ty);
                    ParamHome::Slot(layout.reserve(s, s))
                }
            };
            params.push(home);
        }
        let save_area = f.is_variadic.then(|| layout.reserve(64 + 128, 16));
        // The scratch and second-return areas only where some code uses
        // them; elsewhere an access is an internal error, never a stray store.
        let scratch = params
            .iter()
            .any(|p| matches!(p, ParamHome::None))
            .then(|| layout.reserve(16, 16));
        let ret2 = crate::backend::uses_second_return(f).then(|| layout.reserve(16, 16));
        let mut used_x: Vec<Xr> = Vec::new();
        let mut used_v: Vec<Vr> = Vec::new();
        let scan = isel::prescan(
            f,
            |_| Ok(()),
            |asm| {
                let used =
                    inline_asm::callee_saved_used(asm, &layout).map_err(|e| BackendError::inline_asm(&f.name, e))?;
                for r in used {
                    match r {
                        HomeReg::X(x) => push_new(&mut used_x, [x]),
                        HomeReg::V(v) => push_new(&mut used_v, [v]),
                    }
                }
                Ok(())
            },
        )?;
        // The callee-saved homes handed out are saved (the caller-saved
        // ones hold no value across a call, see `clobbers`).
        for &p in layout.used_regs() {
            match phys(p) {
                HomeReg::X(x) if x.is_callee_saved() && !used_x.contains(&x) => used_x.push(x),
                HomeReg::V(v) if v.is_callee_saved() && !used_v.contains(&v) => used_v.push(v),
                _ => {}
            }
        }
        used_x.sort();
        used_v.sort();
        let save_bytes = 8 * (used_x.len() + used_v.len()) as u32;
        let base = if save_bytes > 0 {
            layout.reserve(save_bytes, 8)
        } else {
            0
        };
        let saved_x: Vec<(Xr, u32)> = used_x
            .into_iter()
            .enumerate()
            .map(|(k, x)| (x, base + 8 * k as u32))
            .collect();
        let nx = saved_x.len() as u32;
        let saved_v: Vec<(Vr, u32)> = used_v
            .into_iter()
            .enumerate()
            .map(|(k, v)| (v, base + 8 * (nx + k as u32)))
            .collect();
        layout.finish();
        if layout.size() > (1 << 30) {
            return Err(BackendError::unsupported(&f.name, "stack frame too large"));
        }
        let frameless = (layout.size() == 0 || crate::inject::enabled(crate::inject::Bug::FramelessLeafWithLocals))
            && saved_x.is_empty()
            && saved_v.is_empty()
            && save_area.is_none()
            && scratch.is_none()
            && ret2.is_none()
            && params.iter().all(|p| matches!(p, ParamHome::Direct))
            && crate::backend::needs_no_frame_record(f, &types);
        Ok(FnEmitter {
            frameless,
            cx,
            f,
            out,
            types,
            layout,
            own,
            params,
            save_area,
            scratch,
            ret2,
            saved_x,
            saved_v,
            second_returns: scan.second_returns,
            sets_second: scan.sets_second,
            far_branches,
            direct_params,
            unread_params,
            fused_compares: crate::backend::fusable_compares(f, |_| true),
            pending_cc: None,
            block_index: 0,
            inst_index: 0,
        })
    }

    /// Bytes `sp` drops by in the prologue: the frame record and the locals area.
    fn frame_size(&self) -> u32 {
        16 + self.layout.size()
    }

    /// The caller's stack argument area at offset `off`.
    fn incoming(&self, off: u32) -> Mem {
        Mem::new(FP, self.frame_size() as i64 + off as i64)
    }

    /// The slot of `v` (a value that is not an `alloca` address).
    fn slot(&self, v: Value) -> Result<Mem, BackendError> {
        match self.layout.home(v) {
            Home::Slot(off) => Ok(self.area(off)),
            Home::Alloca { .. } | Home::FrameAddr(_) | Home::SymbolAddr { .. } => {
                Err(self.internal(format!("{v} is an address computed where used, not a slot")))
            }
            Home::Reg(_) => Err(self.internal(format!("{v} is in a register where a slot is needed"))),
            Home::None => Err(self.internal(format!("{v} is used but never defined"))),
        }
    }

    /// The register holding `v`, when the allocator put it in one.
    fn reg_of(&self, v: Value) -> Option<HomeReg> {
        match self.layout.home(v) {
            Home::Reg(p) => Some(phys(p)),
            _ => None,
        }
    }

    /// The general register holding `v`, when it has one.
    fn xreg_of(&self, v: Value) -> Option<Xr> {
        match self.reg_of(v) {
            Some(HomeReg::X(x)) => Some(x),
            _ => None,
        }
    }

    /// The SIMD/FP register holding `v`, when it has one.
    fn vreg_of(&self, v: Value) -> Option<Vr> {
        match self.reg_of(v) {
            Some(HomeReg::V(r)) => Some(r),
            _ => None,
        }
    }

    fn stack_save(&mut self, dest: Value) -> Result<(), BackendError> {
        emit!(self, "\tmov\tx9, sp");
        self.store(Xr(9), IrType::Ptr, dest)
    }

    fn stack_restore(&mut self, ptr: Value) -> Result<(), BackendError> {
        self.pointer_into(ptr, Xr(9))?;
        emit!(self, "\tmov\tsp, x9");
        Ok(())
    }

    fn label_addr(&mut self, dest: Value, label: BlockId) -> Result<(), BackendError> {
        let l = block_label(label);
        emit!(self, "\tadrp\tx9, {l}");
        emit!(self, "\tadd\tx9, x9, :lo12:{l}");
        self.store(Xr(9), IrType::Ptr, dest)
    }

    /// `getret*second`: the value the last call left in the second-return area.
    fn get_second_return(&mut self, dest: Value, _reg: IrType) -> Result<(), BackendError> {
        let ty = self.types.of(dest);
        let src = self.ret2_area()?;
        match self.reg_of(dest) {
            Some(HomeReg::V(v)) => self.load_fp_mem(src, ty.size(), v),
            Some(HomeReg::X(x)) => self.load_mem(src, 8, false, x),
            None => {
                let m = self.slot(dest)?;
                self.copy_mem(src, m, if ty == IrType::F128 { 16 } else { 8 });
            }
        }
        Ok(())
    }

    /// `setret*second`: the value the epilogue returns in the second register.
    fn set_second_return(&mut self, src: &Operand, reg: IrType) -> Result<(), BackendError> {
        let m = self.ret2_area()?;
        self.store_operand(src, reg, m)
    }
}

impl BlockBranches for FnEmitter<'_, '_> {
    type Cond = &'static str;

    fn jump_to(&mut self, b: BlockId) {
        emit!(self, "\tb\t{}", block_label(b));
    }

    fn branch_to(&mut self, cc: &'static str, b: BlockId) {
        self.branch_if(cc, &block_label(b));
    }

    fn branch_target(&self, b: BlockId) -> BlockId {
        self.layout.branch_target(b)
    }
}

impl EmitterBase for FnEmitter<'_, '_> {
    type Mem = Mem;
    type ParamHome = ParamHome;

    const LONG_DOUBLE: LongDoubleFormat = LongDoubleFormat::Binary128;

    fn function(&self) -> &IrFunction {
        self.f
    }

    /// The memory operand of locals-area offset `off`.
    fn area(&self, off: u32) -> Mem {
        Mem::new(FP, 16 + off as i64)
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
        emit!(self, ".LBB{}:", label.0);
        self.inst_index = 0;
        self.pending_cc = None;
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
                cond: Operand::Value(c),
                true_label,
                false_label,
            } if self.pending_cc.is_some_and(|(v, _)| v == *c) => {
                let cc = self.pending_cc.take().map_or("ne", |(_, cc)| cc);
                isel::two_way(self, cc, branches::invert_cc(cc), *true_label, *false_label, next);
            }
            Terminator::CondBranch {
                cond,
                true_label,
                false_label,
            } => match self.load_cond(cond)? {
                Some(taken) => isel::goto(self, if taken { *true_label } else { *false_label }, next),
                None => isel::two_way(self, "ne", "eq", *true_label, *false_label, next),
            },
            Terminator::Switch {
                val,
                cases,
                default,
                ty,
            } => self.switch(val, *ty, cases, *default)?,
            Terminator::IndirectBranch { target, .. } => {
                self.load_int(target, IrType::Ptr, false, Xr(9))?;
                emit!(self, "\tbr\tx9");
            }
            Terminator::Unreachable => emit!(self, "\tbrk\t#1000"),
        }
        Ok(())
    }
}

/// The `(parameter, paramref destination)` pairs whose `paramref` can be
/// done by the prologue as a register move: the `paramref`s at the start of
/// the entry block (nothing but other such `paramref`s and `alloca`s, which
/// emit no code, runs before them, and the block is entered only once), of
/// a scalar parameter passed in a register and read by no other
/// `paramref`, into a destination in a home register. The prologue then
/// neither stores the parameter to its slot nor reloads it. The moves go
/// from argument registers (`x0..x7`, `v0..v7`) to home registers, which
/// may be argument registers too (`x2..x7`): the prologue makes them one
/// parallel move after it has stored the other parameters and the
/// variadic save areas (`FnEmitter::move_direct_params`), and nothing later
/// in it (the `alloca` zeroing through `x9`/`x16`) writes a home register.
/// A parallel move needs distinct destinations: a `paramref` whose home
/// register another `paramref` of the run has too (a dead one interferes
/// with nothing) is not moved so, but read in its place in the body.
fn direct_params(f: &IrFunction, layout: &FrameLayout, own: &CallLayout) -> (Vec<(usize, Value)>, Vec<Value>) {
    let Some(entry) = f.blocks.first() else {
        return (Vec::new(), Vec::new());
    };
    let mut reads = vec![0u32; own.args.len()];
    let mut used: FxHashSet<Value> = FxHashSet::default();
    for b in &f.blocks {
        if b.terminator.successors().contains(&entry.label) {
            return (Vec::new(), Vec::new());
        }
        for inst in &b.instructions {
            match inst {
                Instruction::ParamRef { param_idx, .. } if *param_idx < reads.len() => reads[*param_idx] += 1,
                Instruction::LabelAddr { label, .. } if *label == entry.label => return (Vec::new(), Vec::new()),
                _ => {}
            }
            inst.for_each_used_value(|v| {
                used.insert(v);
            });
        }
        b.terminator.for_each_used_value(|v| {
            used.insert(v);
        });
    }
    let mut direct = Vec::new();
    // The home registers of the run's `paramref`s whose value is read: an
    // unread one may share its register with a later one (it interferes
    // with nothing), and the moves run together, before any `paramref` of
    // the body. An unread one needs no move.
    let mut homes: Vec<PhysReg> = Vec::new();
    let mut unread = Vec::new();
    for inst in &entry.instructions {
        match inst {
            Instruction::Alloca { .. } => {}
            Instruction::ParamRef { dest, param_idx, .. } => {
                let i = *param_idx;
                let in_reg = matches!(own.args.get(i), Some(ArgLoc::Gpr(_) | ArgLoc::Fpr(_)));
                if let Home::Reg(r) = layout.home(*dest) {
                    if used.contains(dest) {
                        homes.push(r);
                    } else if in_reg && reads.get(i) == Some(&1) && !(f.uses_sret && i == 0) {
                        unread.push(*dest);
                    } else {
                        // Read from its slot by the body: it writes its register.
                        homes.push(r);
                    }
                }
                if in_reg
                    && reads.get(i) == Some(&1)
                    && !(f.uses_sret && i == 0)
                    && matches!(layout.home(*dest), Home::Reg(_))
                {
                    direct.push((i, *dest));
                }
            }
            _ => break,
        }
    }
    // A register two of them share goes to neither: the moves' destinations
    // are then distinct, so their order does not matter but for sources.
    direct.retain(|&(_, d)| match layout.home(d) {
        Home::Reg(r) => unread.contains(&d) || homes.iter().filter(|&&h| h == r).count() == 1,
        _ => false,
    });
    (direct, unread)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    fn asm_of(src: &str) -> String {
        let m = parse_module(src).unwrap();
        crate::backend::emit_assembly(&m, Target::Aarch64).unwrap()
    }

    #[test]
    fn large_immediates_use_movz_movk_and_movn() {
        let s = asm_of("define @f() -> i64 {\nbb0:\n  ret 81985529216486895i64\n}\n");
        // 0x0123456789abcdef
        assert!(s.contains("movz\tx0, #52719, lsl #0"), "{s}");
        assert!(s.contains("movk\tx0, #291, lsl #48"), "{s}");
        let s = asm_of("define @f() -> i64 {\nbb0:\n  ret -2i64\n}\n");
        assert!(s.contains("movn\tx0, #1, lsl #0"), "{s}");
    }

    #[test]
    fn far_frame_offsets_are_materialized() {
        let s = asm_of(
            "define @f() -> i32 {\nbb0:\n  %0 = alloca i8, size 70000, align 16\n  store i8 0i8, %0\n  %1 = add i128 1i128, 2i128\n  %2 = cast i128 -> i32 %1\n  ret %2\n}\n",
        );
        // The slot of %1 (128-bit values live in slots) lies past the
        // 70000-byte object: beyond a scaled 32-bit displacement.
        assert!(s.contains("add\tx17, x29, x17"), "{s}");
    }

    #[test]
    fn functions_past_the_reach_of_conditional_branches_use_far_branches() {
        // A conditional branch over ~60 000 128-bit additions (well past
        // b.cond's 1 MiB; 128-bit values live in slots, so each takes
        // several instructions whatever the register allocator does).
        let mut src = String::from("define @f(i32) -> i32 {\nbb0:\n  %0 = paramref 0 i32\n  %1 = cmp eq i32 %0, 0i32\n  condbr %1, bb2, bb1\nbb1:\n  %2 = cast i32 -> i128 %0\n");
        for k in 3..60_000 {
            let _ = writeln!(src, "  %{k} = add i128 %{}, 1i128", k - 1);
        }
        src.push_str("  %60000 = cast i128 -> i32 %59999\n  ret %60000\nbb2:\n  ret 0i32\n}\n");
        let s = asm_of(&src);
        // The conditional branch (on the compare's flags, inverted) skips
        // over an unconditional one.
        assert!(
            s.contains("\tb.ne\t.Ltmp") && s.contains("\tb\t.LBB2"),
            "{}",
            &s[..2000]
        );
        let small = asm_of("define @f(i32) -> i32 {\nbb0:\n  %0 = paramref 0 i32\n  %1 = cmp eq i32 %0, 0i32\n  condbr %1, bb2, bb1\nbb1:\n  ret 1i32\nbb2:\n  ret 0i32\n}\n");
        assert!(small.contains("\tb.eq\t.LBB2") && !small.contains(".Ltmp"), "{small}");
    }

    /// The lines of function `name` in `s` (from its label to the next `ret`).
    fn body_of<'s>(s: &'s str, name: &str) -> Vec<&'s str> {
        let start = s
            .find(&format!("\n{name}:\n"))
            .unwrap_or_else(|| panic!("no {name} in {s}"));
        s[start + 1..].lines().take_while(|l| *l != "\tret").collect()
    }

    #[test]
    fn loop_values_live_in_callee_saved_registers_the_prologue_saves() {
        // A counting loop calling out: %1 (the counter) and %5 (the sum)
        // survive the call in x19..x28, which the prologue saves and the
        // epilogue restores.
        let s = asm_of(
            "declare @g(i64) -> i64\ndefine @f(i64) -> i64 {\nbb0:\n  %0 = paramref 0 i64\n  %1 = copy 0i64\n  %5 = copy 0i64\n  br bb1\nbb1:\n  %6 = call i64 @g(i64 %1)\n  %7 = add i64 %5, %6\n  %5 = copy %7\n  %2 = add i64 %1, 1i64\n  %1 = copy %2\n  %3 = cmp slt i64 %1, %0\n  condbr %3, bb1, bb2\nbb2:\n  ret %5\n}\n",
        );
        let body = body_of(&s, "f");
        let text = body.join("\n");
        let saves: Vec<&&str> = body
            .iter()
            .filter(|l| (l.starts_with("\tstp\tx") || l.starts_with("\tstr\tx")) && l.contains("x19"))
            .collect();
        assert_eq!(saves.len(), 1, "{text}");
        let restores = body
            .iter()
            .filter(|l| (l.starts_with("\tldp\tx") || l.starts_with("\tldr\tx")) && l.contains("x19"))
            .count();
        assert_eq!(restores, 1, "{text}");
        // The loop itself touches no frame slot besides the argument save.
        let lp: Vec<&&str> = body
            .iter()
            .skip_while(|l| **l != ".LBB1:")
            .take_while(|l| **l != ".LBB2:")
            .collect();
        assert!(!lp.is_empty(), "{text}");
        assert!(lp.iter().all(|l| !l.contains("[x29")), "{text}");
        // The compare feeds only the branch: no cset, a b.lt / b.ge on its flags.
        assert!(!text.contains("cset"), "{text}");
        assert!(
            text.contains("\tb.lt\t.LBB1") || text.contains("\tb.ge\t.LBB2"),
            "{text}"
        );
    }

    #[test]
    fn leaf_temporaries_take_caller_saved_registers_that_need_no_save() {
        let s = asm_of(
            "define @f(i64, i64, f64) -> f64 {\nbb0:\n  %0 = paramref 0 i64\n  %1 = paramref 1 i64\n  %9 = paramref 2 f64\n  %2 = mul i64 %0, %1\n  %3 = add i64 %2, %0\n  %4 = sub i64 %3, %1\n  %5 = cast i64 -> f64 %4\n  %6 = mul f64 %5, %9\n  %7 = add f64 %6, %9\n  ret %7\n}\n",
        );
        let text = body_of(&s, "f").join("\n");
        // The parameters and temporaries live in x2..x7, x13..x15 and d24..d31.
        assert!(
            text.contains("\tmov\tx2, x0") || text.contains("\tmov\tx3, x0"),
            "{text}"
        );
        let mul = text.lines().find_map(|l| l.strip_prefix("\tmul\t")).unwrap_or("");
        assert!(caller_saved(mul.split(',').next().unwrap_or("")), "{text}");
        assert!(text.contains("\tfmul\td2") || text.contains("\tfmul\td3"), "{text}");
        // No callee-saved register is used, so nothing is saved, no value
        // touches a slot, and the leaf needs no frame record: `sp`, `x29`
        // and `x30` are untouched.
        for r in (19..=30)
            .map(|k| format!("x{k}"))
            .chain((8..=15).map(|k| format!("d{k}")))
        {
            assert!(!text.contains(&r), "{r} in {text}");
        }
        assert!(!text.contains("sp"), "{text}");
    }

    #[test]
    fn a_function_that_calls_keeps_its_frame_record() {
        // Nothing of its own in the frame, but the call overwrites x30.
        let s = asm_of("declare @g() -> void\ndefine @f() -> void {\nbb0:\n  call void @g()\n  ret\n}\n");
        let text = body_of(&s, "f").join("\n");
        assert!(text.contains("\tstp\tx29, x30, [sp]"), "{text}");
    }

    /// The caller-saved homes: `x13..x15`, `x2..x7` and `d24..d31`.
    fn caller_saved(r: &str) -> bool {
        let k = |p: char| r.strip_prefix(p).and_then(|n| n.parse::<u8>().ok());
        matches!(k('x'), Some(2..=7 | 13..=15)) || matches!(k('d'), Some(24..=31))
    }

    #[test]
    fn values_live_across_a_call_avoid_caller_saved_registers() {
        // %1 and %8 are live across the call: they may not sit in
        // x13..x15, x2..x7 or v24..v31, which the callee may clobber. %0
        // and %7 are only read by it, and it loads no allocatable register
        // (x0 and d0), so they may.
        let s = asm_of(
            "declare @g(i64, f64) -> i64\ndefine @f(i64, f64) -> f64 {\nbb0:\n  %0 = paramref 0 i64\n  %7 = paramref 1 f64\n  %1 = add i64 %0, 5i64\n  %8 = mul f64 %7, %7\n  %2 = call i64 @g(i64 %0, f64 %7)\n  %3 = add i64 %2, %1\n  %4 = cast i64 -> f64 %3\n  %5 = add f64 %4, %8\n  ret %5\n}\n",
        );
        let body = body_of(&s, "f");
        let text = body.join("\n");
        let def = |prefix: &str| -> String {
            let l = body
                .iter()
                .find(|l| l.starts_with(prefix) && !l.contains("sp"))
                .unwrap_or_else(|| panic!("no {prefix} in {text}"));
            l[prefix.len()..].split(',').next().unwrap_or("").to_string()
        };
        // %1 = %0 + 5 and %8 = %7 * %7 go to callee-saved registers.
        let r1 = def("\tadd\t");
        assert!(
            body.iter()
                .any(|l| l.starts_with(&format!("\tadd\t{r1}, ")) && l.ends_with(", #5")),
            "{text}"
        );
        let k: u8 = r1[1..].parse().unwrap();
        assert!((19..=28).contains(&k), "{r1} in {text}");
        let r8 = def("\tfmul\t");
        let k: u8 = r8[1..].parse().unwrap();
        assert!(r8.starts_with('d') && (8..=15).contains(&k), "{r8} in {text}");
        // The prologue moves %0 and %7 into caller-saved homes.
        let r0 = def("\tmov\t");
        let r7 = def("\tfmov\t");
        assert!(caller_saved(&r0) && caller_saved(&r7), "{r0} and {r7} in {text}");
        // Only callee-saved registers are saved.
        assert!(
            body.iter()
                .filter(|l| l.starts_with("\tst") && l.contains("[x29"))
                .all(|l| !l.split([' ', '\t', ',']).any(caller_saved)),
            "{text}"
        );
    }

    #[test]
    fn operands_of_a_call_that_loads_x2_to_x7_avoid_them() {
        // The call loads x0..x7 one by one from eight sums it alone reads:
        // a sum may not sit in x2..x7, where loading an earlier argument
        // could overwrite it (three fit in x13..x15, the other five go to
        // callee-saved registers).
        let mut src = String::from(
            "declare @h(i64, i64, i64, i64, i64, i64, i64, i64) -> i64\ndefine @f(i64) -> i64 {\nbb0:\n  %0 = paramref 0 i64\n",
        );
        for k in 1..=8 {
            src.push_str(&format!("  %{k} = add i64 %0, {k}i64\n"));
        }
        src.push_str(
            "  %9 = call i64 @h(i64 %8, i64 %7, i64 %6, i64 %5, i64 %4, i64 %3, i64 %2, i64 %1)\n  ret %9\n}\n",
        );
        let s = asm_of(&src);
        let body = body_of(&s, "f");
        let text = body.join("\n");
        let sums: Vec<&str> = body
            .iter()
            .filter(|l| l.starts_with("\tadd\t") && !l.contains("sp,") && !l.contains("x29,"))
            .map(|l| l["\tadd\t".len()..].split(',').next().unwrap_or(""))
            .collect();
        assert_eq!(sums.len(), 8, "{text}");
        for r in sums {
            let k: u8 = r[1..].parse().unwrap();
            assert!(!(2..=7).contains(&k), "{r} in {text}");
        }
    }

    #[test]
    fn parameter_moves_into_argument_registers_keep_every_parameter() {
        // %1 is never read, so its home may be the register %2 arrives in
        // (x2) or %2's home: the prologue's moves must leave %2 and %0 in
        // the registers `sub` reads. Followed through the prologue's `mov`s.
        for body in [
            "  %0 = paramref 0 i64\n  %1 = paramref 1 i64\n  %2 = paramref 2 i64\n  %3 = sub i64 %2, %0\n  ret %3\n",
            "  %0 = paramref 0 i64\n  %1 = paramref 1 i64\n  %2 = paramref 2 i64\n  %4 = paramref 3 i64\n  %5 = add i64 %4, %1\n  %3 = sub i64 %2, %0\n  %6 = xor i64 %3, %5\n  ret %6\n",
        ] {
            let s = asm_of(&format!(
                "define @f(i64, i64, i64, i64) -> i64 {{\nbb0:\n{body}}}\n"
            ));
            let lines = body_of(&s, "f");
            let text = lines.join("\n");
            let mut holds: FxHashMap<String, String> = FxHashMap::default();
            let at = |holds: &FxHashMap<String, String>, r: &str| holds.get(r).cloned().unwrap_or_else(|| r.to_string());
            for l in lines.iter().take_while(|l| !l.starts_with(".LBB")) {
                if let Some(ops) = l.strip_prefix("\tmov\t") {
                    let (d, src) = ops.split_once(", ").unwrap();
                    let v = at(&holds, src);
                    holds.insert(d.to_string(), v);
                }
            }
            let sub = lines.iter().find(|l| l.starts_with("\tsub\tx")).unwrap();
            let ops: Vec<&str> = sub["\tsub\t".len()..].split(", ").collect();
            assert_eq!(at(&holds, ops[1]), "x2", "{text}");
            assert_eq!(at(&holds, ops[2]), "x0", "{text}");
        }
    }

    #[test]
    fn float_remainders_and_wide_values_clobber_every_caller_saved_register() {
        let m = parse_module(
            "define @f(f64, i64) -> f64 {\nbb0:\n  %0 = paramref 0 f64\n  %1 = paramref 1 i64\n  %2 = srem f64 %0, %0\n  %3 = cast i64 -> i128 %1\n  %4 = add i64 %1, %1\n  %5 = cmp slt i128 1i128, 2i128\n  ret %2\n}\n",
        )
        .unwrap();
        let f = &m.functions[0];
        let types = ValueTypes::compute(f);
        let all = Clobbers {
            int: 0x1ff,
            float: 0xff,
            ..Clobbers::default()
        };
        let insts = &f.blocks[0].instructions;
        assert_eq!(clobbers(&insts[2], &types), all);
        assert_eq!(clobbers(&insts[3], &types), all);
        assert_eq!(clobbers(&insts[4], &types), Clobbers::default());
        // A 128-bit compare of two constants runs the wide sequence too.
        assert_eq!(clobbers(&insts[5], &types), all);
    }

    #[test]
    fn doubles_live_in_d8_to_d15() {
        let s = asm_of(
            "declare @h(f64) -> f64\ndefine @f(f64) -> f64 {\nbb0:\n  %0 = paramref 0 f64\n  %1 = call f64 @h(f64 %0)\n  %2 = mul f64 %0, %1\n  ret %2\n}\n",
        );
        let text = body_of(&s, "f").join("\n");
        // %0 lives across the call in a callee-saved d register, saved and restored.
        assert!(text.contains("d8"), "{text}");
        assert!(text.contains("\tstr\td8") || text.contains("\tstp\td8"), "{text}");
        assert!(text.contains("\tldr\td8") || text.contains("\tldp\td8"), "{text}");
        assert!(text.contains("\tfmul\td"), "{text}");
    }

    #[test]
    fn asm_naming_a_register_keeps_its_function_out_of_registers() {
        // `%1` is live across the asm. Without a named register it keeps a
        // callee-saved home (x19, the first the planner never takes for two
        // operands); with a `x19` clobber the whole function stays in slots.
        let f = |clobbers: &str| {
            asm_of(&format!(
                "define @f(i64) -> i64 {{\nbb0:\n  %0 = paramref 0 i64\n  %1 = add i64 %0, 1i64\n  %9 = alloca i64, size 8, align 8\n  asm \"mov %0, %1\" outputs(\"=r\" *%9) inputs(\"r\" %1) {clobbers}types(i64, i64)\n  %2 = load i64 %9\n  %3 = add i64 %2, %1\n  ret %3\n}}\n"
            ))
        };
        let plain = body_of(&f(""), "f").join("\n");
        assert!(plain.contains("x19"), "{plain}");
        let named = body_of(&f("clobbers(\"x19\") "), "f").join("\n");
        for r in (19..=28).filter(|r| *r != 19) {
            assert!(!named.contains(&format!("x{r}")), "{named}");
        }
        // x19 appears only in the prologue's save and the epilogue's restore.
        let uses = named.lines().filter(|l| l.contains("x19")).count();
        assert!(uses <= 2, "{named}");
        assert!(!named.contains("d8"), "{named}");
    }

    #[test]
    fn powers_of_two_and_negative_immediates_need_no_constant_register() {
        let s = asm_of(
            "define @f(i64, i32) -> i64 {\nbb0:\n  %0 = paramref 0 i64\n  %1 = paramref 1 i32\n  %2 = mul i64 %0, 8i64\n  %3 = udiv i64 %2, 16i64\n  %4 = urem i32 %1, 16i32\n  %5 = add i64 %3, -5i64\n  %6 = cast i32 -> i64 %4\n  %7 = sub i64 %5, %6\n  ret %7\n}\n",
        );
        let text = body_of(&s, "f").join("\n");
        assert!(text.contains("\tlsl\tx") && text.contains(", #3"), "{text}");
        assert!(text.contains("\tlsr\tx") && text.contains(", #4"), "{text}");
        assert!(text.contains("\tand\tw") && text.contains(", #15"), "{text}");
        assert!(text.contains("\tsub\tx") && text.contains(", #5"), "{text}");
        assert!(
            !text.contains("\tmul") && !text.contains("div") && !text.contains("movn"),
            "{text}"
        );
        // The parameters move straight from x0/x1 into their homes.
        assert!(!text.contains("str\tx0") && !text.contains("str\tx1"), "{text}");
    }

    #[test]
    fn unsupported_ir_is_an_error_not_a_panic() {
        let m = parse_module(
            "define @f(ptr) -> i128 {\nbb0:\n  %0 = paramref 0 ptr\n  %1 = atomicload i128 %0, seqcst\n  ret %1\n}\n",
        )
        .unwrap();
        let e = crate::backend::emit_assembly(&m, Target::Aarch64).unwrap_err();
        assert!(e.message.contains("atomic"), "{e}");
        assert_eq!(e.kind, crate::backend::BackendErrorKind::Unsupported, "{e}");
        // An HFA of more than four members is not an AAPCS64 HFA.
        let m = parse_module("define @g(ptr size 40 align 8 hfa(f64, 5)) -> void {\nbb0:\n  ret\n}\n").unwrap();
        let e = crate::backend::emit_assembly(&m, Target::Aarch64).unwrap_err();
        assert!(e.message.contains("hfa(f64, 5)"), "{e}");
        assert_eq!(e.kind, crate::backend::BackendErrorKind::Internal, "{e}");
    }
}
