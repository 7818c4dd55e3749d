//! The RISC-V 64 backend: IR to GNU as for `riscv64-linux-gnu` (rv64gc,
//! `-march=rv64gc -mabi=lp64d`) under the LP64D calling convention of the
//! RISC-V ELF psABI (docs/abi.md is the contract with the lowering).
//!
//! Code generation follows the x86-64 backend's plan: every value has the
//! home the register allocator gives it ([`crate::backend::regalloc`]):
//! a register (integers and pointers: the caller-saved `a2`..`a7` first,
//! then the callee-saved `s1`..`s11`; `float`/`double`: `ft3`..`ft11`,
//! then `fs0`..`fs11`) or a (shared) frame slot
//! ([`crate::backend::frame`]), except the addresses the frame layout
//! rematerializes (frame objects, symbols), which are recomputed where
//! used. An instruction reads an operand from its home register when that
//! holds it as the instruction needs it (else loads it into the scratch
//! registers `t0`..`t5`, `ft0`..`ft2`), and computes its result straight
//! into its home register (else into a scratch register, then stored). A
//! home register holds a 32-bit value sign-extended and an 8- or 16-bit one
//! extended by its signedness ([`moves::canon`]), so most readers use it
//! as it is. A caller-saved home never holds a value live across, or read
//! by, an instruction whose code overwrites it (calls, `fmod`, block
//! copies, `va_*`, intrinsics, wide values: [`clobbers`]); the
//! callee-saved homes are registers no other code here touches. So calls
//! need no saves (the prologue saves the callee-saved homes used);
//! nothing else is live in a register between instructions, and functions
//! with inline asm (whose operands may take `s` registers) or calling
//! `setjmp`-like functions keep every value in a slot. `t6` is the
//! shortest-lived temporary: displacements that do not fit 12 bits (which
//! is how frames of any size work, [`regs`]) and FP constants' bits.
//! Branches to blocks are `j`/`b<cond>` (the assembler relaxes a conditional
//! branch beyond its 4 KiB reach into a branch over a `j`); a function that
//! may exceed `j`'s 1 MiB reach is emitted again with every block branch in
//! the far form `jump label, t6` (auipc + jr).
//!
//! The frame, with `s0` the frame pointer equal to the incoming `sp` (so the
//! caller's stack arguments are at `0(s0)` upwards):
//!
//! ```text
//!   s0 + 0 ...        incoming stack arguments
//!   s0 - 64 .. s0     a0..a7 of a variadic function (contiguous with the
//!                     stack arguments: va_list is one pointer walking both)
//!   s0 - V - 8        saved ra          (V = 64 when variadic, else 0)
//!   s0 - V - 16       saved s0
//!   below             the locals area (FrameLayout): allocas (zeroed in the
//!                     prologue), value slots, parameter homes (none for
//!                     a parameter moved straight into its home register),
//!                     the address of an unpassed parameter and the second
//!                     return value (only when used), callee-saved
//!                     registers the allocator or an inline asm uses
//!   sp                16-byte aligned; a call pushes its outgoing area
//! ```
//!
//! Files: `abi` (the LP64D argument classification), `calls` (prologue,
//! calls, returns), `moves` (loads, stores, addresses, constants, copies),
//! `branches` (block branches, `switch`), `ops` (integer and FP arithmetic,
//! comparisons, conversions, bit operations, intrinsics), `wide`
//! (`__int128`, and binary128 `long double` through libgcc's soft-float
//! routines), `memory` (memory instructions, globals, dynamic stack,
//! atomics), `varargs`, `inline_asm`, `regs`.

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
use super::{walk_blocks, BackendError, FunctionEmitter, ModuleContext, TargetDesc, TargetIsa};
pub(crate) use crate::backend::isel::SecondReturn;
use crate::backend::isel::{self, push_new, BlockBranches, EmitterBase};
use crate::backend::LongDoubleFormat;
use crate::ir::instruction::{BlockId, Instruction, Operand, Terminator, Value};
use crate::ir::module::IrFunction;
use crate::ir::types::IrType;
use crate::target::Target;
use abi::{ArgLoc, CallLayout, Place};
use regs::{Fpr, Gpr, Mem, S0, T0, ZERO};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;

/// Writes one line of assembly to the emitter's output.
macro_rules! emit {
    ($e:expr, $($arg:tt)*) => {{
        let _ = writeln!($e.out, $($arg)*);
    }};
}
pub(crate) use emit;

/// The integer registers the allocator may hand out: first the caller-saved
/// `a2`..`a7`, which only calls and the libgcc calls of wide (`__int128`,
/// binary128) code write (see [`clobbers`]; `a0`/`a1` also carry results
/// and atomic sequences use them), then the callee-saved `s1`..`s11`
/// (`s0` is the frame pointer; outside inline asm nothing else here uses
/// them). The `t` registers are the emitter's scratch.
const ALLOCATABLE_GPRS: [Gpr; 17] = [
    Gpr(12),
    Gpr(13),
    Gpr(14),
    Gpr(15),
    Gpr(16),
    Gpr(17),
    Gpr(9),
    Gpr(18),
    Gpr(19),
    Gpr(20),
    Gpr(21),
    Gpr(22),
    Gpr(23),
    Gpr(24),
    Gpr(25),
    Gpr(26),
    Gpr(27),
];
/// How many of [`ALLOCATABLE_GPRS`] are caller-saved (they come first).
const CALLER_SAVED_GPRS: u8 = 6;
/// The FP registers the allocator may hand out (`float`/`double`): first
/// the caller-saved `ft3`..`ft11`, which no emitter sequence uses (its FP
/// scratch registers are `ft0`..`ft2`), then the callee-saved `fs0`..`fs11`.
const ALLOCATABLE_FPRS: [Fpr; 21] = [
    Fpr(3),
    Fpr(4),
    Fpr(5),
    Fpr(6),
    Fpr(7),
    Fpr(28),
    Fpr(29),
    Fpr(30),
    Fpr(31),
    Fpr(8),
    Fpr(9),
    Fpr(18),
    Fpr(19),
    Fpr(20),
    Fpr(21),
    Fpr(22),
    Fpr(23),
    Fpr(24),
    Fpr(25),
    Fpr(26),
    Fpr(27),
];
/// How many of [`ALLOCATABLE_FPRS`] are caller-saved (they come first).
const CALLER_SAVED_FPRS: u8 = 9;
const REG_BUDGET: RegBudget = RegBudget { int: 17, float: 21 };

/// The caller-saved allocatable registers an instruction's code overwrites
/// (a value it reads or that is live across it never gets them): all of
/// them for calls (the callee may use them, and the call loads its
/// arguments into `a0`..`a7` one by one, so an argument must not sit in
/// one), `fmod` calls (a float `srem`/`urem`), block copies, `va_*`,
/// intrinsics and inline asm (which may call helpers), and anything on
/// 16-byte values (`__int128` and binary128 code calls libgcc with
/// arguments in `a0`..`a3`).
///
/// A call whose argument set-up writes no allocatable register overwrites
/// them only after reading its operands, so its clobbers are `late` and a
/// value it only reads (the `x` of `mix(x)`) may sit in `a2`..`a7` or
/// `ft3`..`ft11` instead of taking a callee-saved register or a stack slot:
/// its integer arguments go to `a0` and `a1` at most (not allocatable),
/// every float argument to `fa0`..`fa7` (none allocatable), and stack
/// arguments through the scratch registers ([`call_writes_only_scratch`]).
fn clobbers(inst: &Instruction, types: &ValueTypes) -> Clobbers {
    let (int, float) = ((1 << CALLER_SAVED_GPRS) - 1, (1 << CALLER_SAVED_FPRS) - 1);
    match inst {
        Instruction::Call { info, .. } | Instruction::CallIndirect { info, .. } if call_writes_only_scratch(info) => {
            Clobbers {
                late_int: int,
                late_float: float,
                ..Clobbers::default()
            }
        }
        _ if crate::backend::clobbers_caller_saved(inst, types) => Clobbers {
            int,
            float,
            ..Clobbers::default()
        },
        _ => Clobbers::default(),
    }
}

/// Whether a call's argument set-up (`FnEmitter::call`) writes no
/// allocatable register: every argument a scalar of at most 8 bytes passed
/// in `a0`, `a1`, `fa0`..`fa7` or on the stack (no struct copy, no
/// by-reference copy, no 16-byte value, no argument in `a2`..`a7`), and no
/// struct result in registers (read through its buffer after the call).
fn call_writes_only_scratch(info: &crate::ir::instruction::CallInfo) -> bool {
    // The injected bug lets arguments in `a2`..`a7` through: loading one
    // may overwrite another argument's value before it is read.
    let last_gpr = if crate::inject::enabled(crate::inject::Bug::RiscvLateClobberArgRegs) {
        7
    } else {
        1
    };
    let lay = abi::layout_of_call(info);
    // A struct returned in registers is stored through the result buffer
    // after the call: the buffer pointer must outlive the call's clobbers.
    if lay.args.len() != info.args.len() || (info.is_sret && matches!(lay.ret, abi::RetLoc::Parts(_))) {
        return false;
    }
    lay.args.iter().enumerate().all(|(i, loc)| {
        let scalar = info.struct_arg_sizes.get(i).copied().flatten().is_none()
            && info.arg_types.get(i).is_some_and(|t| t.size() <= 8);
        match loc {
            ArgLoc::Ignored => true,
            ArgLoc::ByRef(_) => false,
            ArgLoc::Parts(parts) => {
                scalar
                    && parts.iter().all(|p| match p.place {
                        Place::Gpr(n) => n <= last_gpr,
                        Place::Fpr(_) | Place::Stack(_) => true,
                    })
            }
        }
    })
}

/// A register home: an integer or an FP register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RegHome {
    G(Gpr),
    F(Fpr),
}

/// The register of an allocator home.
fn phys(p: PhysReg) -> RegHome {
    match p.class {
        RegClass::Int => RegHome::G(ALLOCATABLE_GPRS[p.index as usize]),
        RegClass::Float => RegHome::F(ALLOCATABLE_FPRS[p.index as usize]),
    }
}

/// The RISC-V 64 target.
pub struct Riscv64;

pub static RISCV64_DESC: TargetDesc = TargetDesc {
    target: Target::Riscv64,
    int_arg_regs: &["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"],
    float_arg_regs: &["fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7"],
    int_ret_regs: &["a0", "a1"],
    float_ret_regs: &["fa0", "fa1"],
    callee_saved: &["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"],
    stack_align: 16,
    comment: "#",
    type_prefix: '@',
    asm_dialects: false,
};

impl TargetIsa for Riscv64 {
    fn assemble(&self, text: &str) -> Option<Result<Vec<u8>, String>> {
        Some(encode::assemble(text))
    }

    fn desc(&self) -> &'static TargetDesc {
        &RISCV64_DESC
    }

    fn emit_function(&self, cx: &mut ModuleContext<'_>, f: &IrFunction, out: &mut String) -> Result<(), BackendError> {
        let rodata_len = cx.rodata.len();
        let mut body = String::new();
        walk_blocks(f, &mut FnEmitter::new(cx, f, &mut body, false)?)?;
        if max_text_bytes(&body) >= FAR_BRANCH_LIMIT {
            // Too big for `jal`'s reach: again, with every block branch far.
            cx.rodata.truncate(rodata_len);
            body.clear();
            walk_blocks(f, &mut FnEmitter::new(cx, f, &mut body, true)?)?;
        }
        out.push_str(&body);
        Ok(())
    }
}

/// Functions whose code may reach this size use far block branches: `jal`
/// (and a conditional branch that the assembler relaxes into one) reaches
/// +-1 MiB.
const FAR_BRANCH_LIMIT: usize = 1 << 20;

/// An upper bound of the bytes of machine code in `asm` (a `li` expands to
/// at most 8 instructions, anything else to at most 2).
fn max_text_bytes(asm: &str) -> usize {
    asm.lines()
        .map(|l| {
            let l = l.trim_start();
            if l.is_empty() || l.starts_with('.') || l.ends_with(':') {
                0
            } else if l.starts_with("li\t") {
                32
            } else {
                8
            }
        })
        .sum()
}

/// Bytes of the register save area of a variadic function (`a0..a7`).
const VARARG_SAVE: i64 = 64;

/// Where a parameter's value (or, for a struct, its copy) is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParamHome {
    /// Not passed (an empty struct).
    None,
    /// A scalar (or a by-reference struct's pointer) saved from its
    /// register(s) into this locals-area slot.
    Slot(u32),
    /// A scalar (or a by-reference pointer) in the caller's stack area at `s0 + d`.
    Incoming(i64),
    /// A struct copied into this locals-area buffer (the value is its address).
    Buffer(u32),
    /// A struct in the caller's stack area (the value is its address `s0 + d`).
    IncomingAddr(i64),
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
    /// `VARARG_SAVE` for a variadic function, else 0.
    vararg_save: i64,
    /// Distance from `s0` down to the base of the locals area.
    area_top: i64,
    /// 16 bytes whose address stands for a parameter that is not passed
    /// (an empty struct); reserved only when there is one.
    scratch: Option<u32>,
    /// 8 bytes for the second return value (`setret*second`,
    /// `getret*second`); reserved only when the function has one of these.
    ret2: Option<u32>,
    /// Parameters the prologue moves straight from their argument register
    /// into the home register of their only `paramref`'s destination (see
    /// [`direct_params`]).
    direct_params: Vec<(usize, Value)>,
    /// Callee-saved registers an inline asm uses, with their save slots.
    saved_gprs: Vec<(Gpr, u32)>,
    saved_fprs: Vec<(Fpr, u32)>,
    /// Spill slots for inline asm outputs (16 bytes each).
    asm_spill: u32,
    /// Calls followed by a `getret*second`, by (block index, instruction index).
    second_returns: FxHashMap<(usize, usize), SecondReturn>,
    /// The second return register this function sets (`setret*second`).
    sets_second: Option<SecondReturn>,
    block_index: usize,
    inst_index: usize,
    /// Branches to blocks go through `jump label, t6` (any distance).
    far: bool,
    /// Integer compares whose only reader is their block's conditional
    /// branch ([`fusable_compares`](crate::backend::fusable_compares)): the
    /// branch compares the two registers (`blt a, b, L`) and no 0/1 is made.
    fused_compares: FxHashSet<Value>,
    /// The fused compare just emitted: its value, and the branch and its
    /// inverse over two registers (consumed by the terminator).
    pending_branch: Option<(Value, BranchCond, BranchCond)>,
    /// A leaf with nothing in the frame: no `ra`/`s0` record, `sp` never
    /// moves ([`crate::backend::needs_no_frame_record`]; gcc -O0 still sets
    /// up `s0` in a leaf, but no reader needs it here).
    frameless: bool,
}

impl<'a, 'm> FnEmitter<'a, 'm> {
    fn new(
        cx: &'a mut ModuleContext<'m>,
        f: &'a IrFunction,
        out: &'a mut String,
        far: bool,
    ) -> Result<Self, BackendError> {
        let types = ValueTypes::compute(f);
        let mut layout = FrameLayout::compute_with(f, &types, REG_BUDGET, clobbers)?;
        let own = abi::layout_of_function(f);
        let direct_params = direct_params(f, &types, &layout, &own);
        let mut params = Vec::with_capacity(f.params.len());
        for (i, loc) in own.args.iter().enumerate() {
            let p = &f.params[i];
            let is_struct = p.struct_size.is_some() && !(f.uses_sret && i == 0);
            let home = match loc {
                _ if direct_params.iter().any(|&(k, _)| k == i) => ParamHome::Direct,
                ArgLoc::Ignored if f.uses_sret && i == 0 => {
                    // A struct returned in registers: the callee's own buffer.
                    let size = p.struct_size.unwrap_or(0) as u32;
                    ParamHome::Buffer(layout.reserve(size.div_ceil(16).max(1) * 16, 16))
                }
                ArgLoc::Ignored => ParamHome::None,
                ArgLoc::ByRef(Place::Stack(off)) => ParamHome::Incoming(*off as i64),
                ArgLoc::ByRef(_) => ParamHome::Slot(layout.reserve(8, 8)),
                ArgLoc::Parts(parts) => match parts.as_slice() {
                    [one] if matches!(one.place, Place::Stack(_)) => {
                        let Place::Stack(off) = one.place else { unreachable!() };
                        if is_struct {
                            ParamHome::IncomingAddr(off as i64)
                        } else {
                            ParamHome::Incoming(off as i64)
                        }
                    }
                    _ if is_struct => {
                        let end = parts.iter().map(|q| q.offset + 8).max().unwrap_or(8);
                        ParamHome::Buffer(layout.reserve(end.div_ceil(16) * 16, 16))
                    }
                    _ => {
                        let s = slot_size(p.ty);
                        ParamHome::Slot(layout.reserve(s, s))
                    }
                },
            };
            params.push(home);
        }
        // The scratch and second-return areas only where some code uses
        // them; elsewhere an access is an internal error, never a stray store.
        let scratch = params
            .iter()
            .any(|p| matches!(p, ParamHome::None))
            .then(|| layout.reserve(16, 16));
        let ret2 = crate::backend::uses_second_return(f).then(|| layout.reserve(8, 8));
        let mut saved_g = Vec::new();
        let mut saved_f = Vec::new();
        let scan = isel::prescan(
            f,
            |inst| match inst {
                // LP64D returns `_Complex long double` (32 bytes) in memory,
                // so there is no second binary128 return register to read
                // or set; the frontend lowers such returns through sret.
                Instruction::GetReturnF128Second { .. } | Instruction::SetReturnF128Second { .. } => {
                    Err(BackendError::internal(
                        &f.name,
                        "getretf128second/setretf128second: RISC-V LP64D has no second binary128 return \
                         register (`_Complex long double` is returned in memory)",
                    ))
                }
                _ => Ok(()),
            },
            |asm| {
                let used =
                    inline_asm::callee_saved_used(asm, &layout).map_err(|e| BackendError::inline_asm(&f.name, e))?;
                for r in used {
                    match r {
                        RegHome::G(g) => push_new(&mut saved_g, [g]),
                        RegHome::F(r) => push_new(&mut saved_f, [r]),
                    }
                }
                Ok(())
            },
        )?;
        let max_outputs = scan.max_asm_outputs;
        // The callee-saved homes handed out are saved (the caller-saved
        // ones hold no value across a call, see `clobbers`).
        for &p in layout.used_regs() {
            match phys(p) {
                RegHome::G(g) if p.index >= CALLER_SAVED_GPRS && !saved_g.contains(&g) => saved_g.push(g),
                RegHome::F(r) if p.index >= CALLER_SAVED_FPRS && !saved_f.contains(&r) => saved_f.push(r),
                _ => {}
            }
        }
        saved_g.sort();
        saved_f.sort();
        let saved_gprs: Vec<(Gpr, u32)> = saved_g.into_iter().map(|g| (g, layout.reserve(8, 8))).collect();
        let saved_fprs: Vec<(Fpr, u32)> = saved_f.into_iter().map(|r| (r, layout.reserve(8, 8))).collect();
        let asm_spill = layout.reserve(16 * max_outputs as u32, 16);
        layout.finish();
        if layout.size() > (1 << 30) {
            return Err(BackendError::unsupported(&f.name, "stack frame too large"));
        }
        let vararg_save = if f.is_variadic { VARARG_SAVE } else { 0 };
        let area_top = vararg_save + 16 + layout.size() as i64;
        let frameless = (layout.size() == 0 || crate::inject::enabled(crate::inject::Bug::FramelessLeafWithLocals))
            && vararg_save == 0
            && saved_gprs.is_empty()
            && saved_fprs.is_empty()
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
            vararg_save,
            area_top,
            scratch,
            ret2,
            direct_params,
            saved_gprs,
            saved_fprs,
            asm_spill,
            second_returns: scan.second_returns,
            sets_second: scan.sets_second,
            block_index: 0,
            inst_index: 0,
            far,
            fused_compares: crate::backend::fusable_compares(f, |ty| ty.is_int_or_ptr() && !ty.is_128()),
            pending_branch: None,
        })
    }

    /// The slot of `v` (a value that is not an `alloca` address).
    fn slot(&self, v: Value) -> Result<Mem, BackendError> {
        match self.layout.home(v) {
            Home::Slot(off) => Ok(self.area(off)),
            Home::None => Err(self.internal(format!("{v} is used but never defined"))),
            Home::Reg(_) => Err(self.internal(format!("{v} is in a register where a slot is needed"))),
            _ => Err(self.internal(format!("{v} is an address, not a slot"))),
        }
    }

    /// The register holding `v`, when the allocator put it in one.
    fn reg_of(&self, v: Value) -> Option<RegHome> {
        match self.layout.home(v) {
            Home::Reg(p) => Some(phys(p)),
            _ => None,
        }
    }

    /// The integer register holding `v`, if any.
    fn gpr_of(&self, v: Value) -> Option<Gpr> {
        match self.reg_of(v) {
            Some(RegHome::G(g)) => Some(g),
            _ => None,
        }
    }

    /// The FP register holding `v`, if any.
    fn fpr_of(&self, v: Value) -> Option<Fpr> {
        match self.reg_of(v) {
            Some(RegHome::F(f)) => Some(f),
            _ => None,
        }
    }

    fn stack_save(&mut self, dest: Value) -> Result<(), BackendError> {
        emit!(self, "\tmv\tt0, sp");
        self.store(T0, IrType::Ptr, dest)
    }

    fn stack_restore(&mut self, ptr: Value) -> Result<(), BackendError> {
        self.load_ptr(&Operand::Value(ptr), T0)?;
        emit!(self, "\tmv\tsp, t0");
        Ok(())
    }

    fn label_addr(&mut self, dest: Value, label: BlockId) -> Result<(), BackendError> {
        emit!(self, "\tlla\tt0, .LBB{}", label.0);
        self.store(T0, IrType::Ptr, dest)
    }

    /// `getret*second`: the value the last call left in the second-return area.
    fn get_second_return(&mut self, dest: Value, reg: IrType) -> Result<(), BackendError> {
        if reg == IrType::F128 {
            return Err(self.internal("no second binary128 return register under LP64D"));
        }
        let src = self.ret2_area()?;
        self.write_mem(src, 8, dest)
    }

    /// `setret*second`: the value the epilogue returns in the second register.
    fn set_second_return(&mut self, src: &Operand, reg: IrType) -> Result<(), BackendError> {
        if reg == IrType::F128 {
            return Err(self.internal("no second binary128 return register under LP64D"));
        }
        let m = self.ret2_area()?;
        self.store_operand(src, reg, m)
    }
}

/// A conditional branch over two registers: `beq bne blt bge bltu bgeu`
/// (`bnez r` is `bne r, zero`).
pub(super) type BranchCond = (&'static str, Gpr, Gpr);

impl BlockBranches for FnEmitter<'_, '_> {
    type Cond = BranchCond;

    fn jump_to(&mut self, b: BlockId) {
        self.jump(b);
    }

    fn branch_to(&mut self, (op, a, r): BranchCond, b: BlockId) {
        match (op, r) {
            ("bne", ZERO) => self.branch("bnez", a.name(), b),
            ("beq", ZERO) => self.branch("beqz", a.name(), b),
            _ => self.branch(op, &format!("{}, {}", a.name(), r.name()), b),
        }
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
        Mem::new(S0, off as i64 - self.area_top)
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
            } => {
                // The fused compare's branch conditions, when it is this
                // branch's condition (no early return: the block must still
                // be counted below, or later calls miss their second returns).
                let fused = match (cond, self.pending_branch.take()) {
                    (Operand::Value(c), Some((v, yes, no))) if *c == v => Some((yes, no)),
                    _ => None,
                };
                if let Some((yes, no)) = fused {
                    isel::two_way(self, yes, no, *true_label, *false_label, next);
                } else {
                    match self.load_cond(cond)? {
                        Err(taken) => isel::goto(self, if taken { *true_label } else { *false_label }, next),
                        Ok(r) => isel::two_way(
                            self,
                            ("bne", r, ZERO),
                            ("beq", r, ZERO),
                            *true_label,
                            *false_label,
                            next,
                        ),
                    }
                }
            }
            Terminator::Switch {
                val,
                cases,
                default,
                ty,
            } => self.switch(val, *ty, cases, *default)?,
            Terminator::IndirectBranch { target, .. } => {
                self.load_ptr(target, T0)?;
                emit!(self, "\tjr\tt0");
            }
            Terminator::Unreachable => emit!(self, "\tunimp"),
        }
        Ok(())
    }
}

/// The `(parameter, paramref destination)` pairs whose `paramref` the
/// prologue does as a register move: the `paramref`s at the start of the
/// entry block (nothing but other such `paramref`s and `alloca`s, which emit
/// no code, runs before them, and the block is entered only once), of a
/// scalar of at most 8 bytes passed in one register of its class (`a<n>`
/// for an integer or pointer, `fa<n>` for a float) and read by no other
/// `paramref`, into a destination in a home register. The prologue then
/// neither stores the parameter to a slot nor reloads it. A home register
/// that is also the argument register of some parameter (one of `a2`..`a7`;
/// `ft*`/`fs*`/`s*` are never argument registers) is refused: with every
/// home register outside the incoming argument registers, the moves, in the
/// `paramref`s' order, overwrite no argument still to be read (no cycle
/// arises), and the prologue's later stores of the other parameters read
/// intact registers.
fn direct_params(f: &IrFunction, types: &ValueTypes, layout: &FrameLayout, own: &CallLayout) -> Vec<(usize, Value)> {
    let Some(entry) = f.blocks.first() else {
        return Vec::new();
    };
    let mut reads = vec![0u32; own.args.len()];
    for b in &f.blocks {
        if b.terminator.successors().contains(&entry.label) {
            return Vec::new();
        }
        for inst in &b.instructions {
            match inst {
                Instruction::ParamRef { param_idx, .. } if *param_idx < reads.len() => reads[*param_idx] += 1,
                Instruction::LabelAddr { label, .. } if *label == entry.label => return Vec::new(),
                _ => {}
            }
        }
    }
    // The integer argument registers the parameters arrive in.
    let mut incoming: Vec<Gpr> = Vec::new();
    for loc in &own.args {
        match loc {
            ArgLoc::Parts(parts) => {
                for p in parts {
                    if let Place::Gpr(n) = p.place {
                        incoming.push(regs::arg_gpr(n));
                    }
                }
            }
            ArgLoc::ByRef(Place::Gpr(n)) => incoming.push(regs::arg_gpr(*n)),
            _ => {}
        }
    }
    let mut direct = Vec::new();
    for inst in &entry.instructions {
        match inst {
            Instruction::Alloca { .. } => {}
            Instruction::ParamRef { dest, param_idx, .. } => {
                let i = *param_idx;
                let Some(p) = f.params.get(i) else { break };
                let ty = types.of(*dest);
                let is_struct = p.struct_size.is_some() || (f.uses_sret && i == 0);
                let ok = match (own.args.get(i), layout.home(*dest)) {
                    (Some(ArgLoc::Parts(parts)), Home::Reg(h)) if parts.len() == 1 && !is_struct => {
                        match (parts[0].place, phys(h)) {
                            (Place::Gpr(_), RegHome::G(g)) => {
                                ty.is_int_or_ptr() && ty.size() <= 8 && !incoming.contains(&g)
                            }
                            (Place::Fpr(_), RegHome::F(_)) => matches!(ty, IrType::F32 | IrType::F64),
                            _ => false,
                        }
                    }
                    _ => false,
                };
                if ok && reads.get(i) == Some(&1) {
                    direct.push((i, *dest));
                }
            }
            _ => break,
        }
    }
    direct
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    /// The lines of function `name` compiled for RISC-V 64 (from its label to its `ret`).
    fn body_of(src: &str, name: &str) -> Vec<String> {
        let m = parse_module(src).unwrap();
        let s = crate::backend::emit_assembly(&m, Target::Riscv64).unwrap();
        let start = s
            .find(&format!("\n{name}:\n"))
            .unwrap_or_else(|| panic!("no {name} in {s}"));
        s[start + 1..]
            .lines()
            .take_while(|l| *l != "\tret")
            .map(String::from)
            .collect()
    }

    #[test]
    fn leaf_temporaries_take_caller_saved_registers_that_need_no_save() {
        let body = body_of(
            "define @f(i64, i64, f64) -> f64 {\nbb0:\n  %0 = paramref 0 i64\n  %1 = paramref 1 i64\n  %9 = paramref 2 f64\n  %2 = mul i64 %0, %1\n  %3 = add i64 %2, %0\n  %4 = sub i64 %3, %1\n  %5 = cast i64 -> f64 %4\n  %6 = mul f64 %5, %9\n  %7 = add f64 %6, %9\n  ret %7\n}\n",
            "f",
        );
        let text = body.join("\n");
        // The parameters move straight into a2..a7 / ft3..ft11 (a0 and a1
        // are incoming arguments, so they are not homes here).
        assert!(text.contains("\tmv\ta2, a0") || text.contains("\tmv\ta3, a0"), "{text}");
        assert!(text.contains("\tfmv.d\tft"), "{text}");
        assert!(text.contains("\tmul\ta"), "{text}");
        // No callee-saved register is used, so nothing is saved, the
        // locals area is empty and no value touches a slot.
        for r in (1..=11)
            .map(|k| format!("s{k}"))
            .chain((0..=11).map(|k| format!("fs{k}")))
        {
            assert!(
                !body.iter().any(|l| l.split([' ', '\t', ',', '(']).any(|w| w == r)),
                "{r} in {text}"
            );
        }
        assert!(!text.contains("(s0)"), "{text}");
        // A leaf with an empty frame has no frame record: `sp`, `ra` and `s0` are untouched.
        for r in ["sp", "ra", "s0"] {
            assert!(
                !body.iter().any(|l| l.split([' ', '\t', ',', '(', ')']).any(|w| w == r)),
                "{r} in {text}"
            );
        }
    }

    #[test]
    fn a_function_that_calls_keeps_its_frame_record() {
        // Nothing of its own in the frame, but the call overwrites ra.
        let body = body_of(
            "declare @g() -> void\ndefine @f() -> void {\nbb0:\n  call void @g()\n  ret\n}\n",
            "f",
        );
        assert!(body.iter().any(|l| l == "\tsd\tra, 8(sp)"), "{}", body.join("\n"));
    }

    #[test]
    fn values_live_across_a_call_avoid_caller_saved_registers() {
        // %1 and %8 are live across the call: they may not sit in a2..a7 /
        // ft3..ft11, which the callee may clobber. %0 and %7 are only read
        // by it, and it loads nothing allocatable (a0 and fa0), so they may.
        let body = body_of(
            "declare @g(i64, f64) -> i64\ndefine @f(i64, f64) -> f64 {\nbb0:\n  %0 = paramref 0 i64\n  %7 = paramref 1 f64\n  %1 = add i64 %0, 5i64\n  %8 = mul f64 %7, %7\n  %2 = call i64 @g(i64 %0, f64 %7)\n  %3 = add i64 %2, %1\n  %4 = cast i64 -> f64 %3\n  %5 = add f64 %4, %8\n  ret %5\n}\n",
            "f",
        );
        let text = body.join("\n");
        let def = |prefix: &str| -> String {
            let l = body
                .iter()
                .find(|l| l.starts_with(prefix) && !l.contains("sp,"))
                .unwrap_or_else(|| panic!("no {prefix} in {text}"));
            l[prefix.len()..].split(',').next().unwrap_or("").to_string()
        };
        let r1 = def("\taddi\t");
        assert!(
            body.iter()
                .any(|l| l.starts_with(&format!("\taddi\t{r1}, ")) && l.ends_with(", 5")),
            "{text}"
        );
        assert!(r1.starts_with('s') && r1 != "s0", "{r1} in {text}");
        let r8 = def("\tfmul.d\t");
        assert!(r8.starts_with("fs"), "{r8} in {text}");
        let caller_saved = |r: &str| (2..=7).any(|k| r == format!("a{k}")) || (3..=11).any(|k| r == format!("ft{k}"));
        let r0 = def("\tmv\t");
        let r7 = def("\tfmv.d\t");
        assert!(caller_saved(&r0) && caller_saved(&r7), "{r0} and {r7} in {text}");
    }

    #[test]
    fn operands_of_a_call_that_loads_a2_avoid_caller_saved_registers() {
        // The call loads a0, a1 and a2 one by one: a value it reads may not
        // sit in a2..a7, where loading an earlier argument could overwrite it.
        let body = body_of(
            "declare @h(i64, i64, i64) -> i64\ndefine @f(i64, i64, i64) -> i64 {\nbb0:\n  %0 = paramref 0 i64\n  %1 = paramref 1 i64\n  %2 = paramref 2 i64\n  %3 = add i64 %0, 1i64\n  %4 = add i64 %1, 2i64\n  %5 = add i64 %2, 3i64\n  %6 = call i64 @h(i64 %5, i64 %4, i64 %3)\n  ret %6\n}\n",
            "f",
        );
        let text = body.join("\n");
        let sums: Vec<&str> = body
            .iter()
            .filter(|l| l.starts_with("\taddi\t") && !l.contains("sp,") && !l.contains("s0,"))
            .map(|l| l["\taddi\t".len()..].split(',').next().unwrap_or(""))
            .collect();
        assert_eq!(sums.len(), 3, "{text}");
        for r in sums {
            assert!(r.starts_with('s') && r != "s0", "{r} in {text}");
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
            int: 0b11_1111,
            float: 0b1_1111_1111,
            ..Clobbers::default()
        };
        let insts = &f.blocks[0].instructions;
        assert_eq!(clobbers(&insts[2], &types), all);
        assert_eq!(clobbers(&insts[3], &types), all);
        assert_eq!(clobbers(&insts[4], &types), Clobbers::default());
        // A 128-bit compare of two constants runs the wide sequence too.
        assert_eq!(clobbers(&insts[5], &types), all);
    }
}
