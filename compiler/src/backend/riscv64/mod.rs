//! The RISC-V 64 backend: IR to GNU as for `riscv64-linux-gnu` (rv64gc,
//! `-march=rv64gc -mabi=lp64d`) under the LP64D calling convention of the
//! RISC-V ELF psABI (docs/abi.md is the contract with the lowering).
//!
//! Code generation follows the x86-64 backend's plan, correct first: every
//! value lives in its frame slot ([`crate::backend::frame`]); each
//! instruction loads its operands into the scratch registers `t0`..`t5` (and
//! `ft0`..`ft2`), computes, and stores the result, so nothing is live in a
//! register between instructions: calls, inline asm and `asm goto` edges
//! need no register bookkeeping. `t6` only materializes displacements that
//! do not fit 12 bits ([`regs`]), which is how frames of any size work.
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
//!                     prologue), value slots, parameter homes, scratch,
//!                     callee-saved registers an inline asm uses
//!   sp                16-byte aligned; a call pushes its outgoing area
//! ```
//!
//! Files: `abi` (the LP64D argument classification), `calls` (prologue,
//! calls, returns), `ops` (integer and FP arithmetic, comparisons,
//! conversions, bit operations, intrinsics), `wide` (`__int128`, and
//! binary128 `long double` through libgcc's soft-float routines), `memory`
//! (loads, stores, copies, globals, dynamic stack, atomics), `varargs`,
//! `inline_asm`, `regs`.

pub mod abi;
mod calls;
mod inline_asm;
mod memory;
mod ops;
pub mod regs;
mod varargs;
mod wide;

use super::frame::{slot_size, FrameLayout, Home, ValueTypes};
use super::switch::{normalize_case, plan_switch, SwitchPlan};
use super::{
    block_label, walk_blocks, BackendError, FunctionEmitter, LongDoubleFormat, ModuleContext, TargetDesc, TargetIsa,
};
use crate::frontend::target::Target;
use crate::ir::constants::IrConst;
use crate::ir::instruction::{BlockId, Instruction, Operand, Terminator, Value};
use crate::ir::module::IrFunction;
use crate::ir::types::IrType;
use abi::{ArgLoc, CallLayout, Place};
use regs::{fits_i12, load_op, store_op, Fpr, Gpr, Mem, S0, T0, T1, T2, T6, ZERO};
use rustc_hash::FxHashMap;
use std::fmt::Write as _;

/// Writes one line of assembly to the emitter's output.
macro_rules! emit {
    ($e:expr, $($arg:tt)*) => {{
        let _ = writeln!($e.out, $($arg)*);
    }};
}
pub(crate) use emit;

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
    long_double: LongDoubleFormat::Binary128,
    comment: "#",
    type_prefix: '@',
    asm_dialects: false,
};

impl TargetIsa for Riscv64 {
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
enum ParamHome {
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
}

/// Which second return register a call's result is read from afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SecondReturn {
    F32,
    F64,
    F128,
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
    /// 32 bytes of scratch.
    scratch: u32,
    /// 16 bytes for the second return value (`setret*second`, `getret*second`).
    ret2: u32,
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
}

impl<'a, 'm> FnEmitter<'a, 'm> {
    fn new(
        cx: &'a mut ModuleContext<'m>,
        f: &'a IrFunction,
        out: &'a mut String,
        far: bool,
    ) -> Result<Self, BackendError> {
        let types = ValueTypes::compute(f);
        let mut layout = FrameLayout::compute(f, &types)?;
        let own = abi::layout_of_function(f);
        let mut params = Vec::with_capacity(f.params.len());
        for (i, loc) in own.args.iter().enumerate() {
            let p = &f.params[i];
            let is_struct = p.struct_size.is_some() && !(f.uses_sret && i == 0);
            let home = match loc {
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
        let scratch = layout.reserve(32, 16);
        let ret2 = layout.reserve(16, 16);
        let mut saved_g = Vec::new();
        let mut saved_f = Vec::new();
        let mut max_outputs = 0;
        let mut second_returns = FxHashMap::default();
        let mut sets_second = None;
        for (bi, b) in f.blocks.iter().enumerate() {
            let mut last_call = None;
            for (ii, inst) in b.instructions.iter().enumerate() {
                match inst {
                    Instruction::InlineAsm(asm) => {
                        max_outputs = max_outputs.max(asm.outputs.len());
                        let (g, fl) = inline_asm::callee_saved_used(asm, &layout)
                            .map_err(|m| BackendError::in_function(&f.name, format!("inline asm: {m}")))?;
                        for r in g {
                            if !saved_g.contains(&r) {
                                saved_g.push(r);
                            }
                        }
                        for r in fl {
                            if !saved_f.contains(&r) {
                                saved_f.push(r);
                            }
                        }
                    }
                    Instruction::Call { .. } | Instruction::CallIndirect { .. } => last_call = Some((bi, ii)),
                    Instruction::GetReturnF32Second { .. } => {
                        if let Some(c) = last_call {
                            second_returns.insert(c, SecondReturn::F32);
                        }
                    }
                    Instruction::GetReturnF64Second { .. } => {
                        if let Some(c) = last_call {
                            second_returns.insert(c, SecondReturn::F64);
                        }
                    }
                    Instruction::GetReturnF128Second { .. } => {
                        if let Some(c) = last_call {
                            second_returns.insert(c, SecondReturn::F128);
                        }
                    }
                    Instruction::SetReturnF32Second { .. } => sets_second = Some(SecondReturn::F32),
                    Instruction::SetReturnF64Second { .. } => sets_second = Some(SecondReturn::F64),
                    Instruction::SetReturnF128Second { .. } => sets_second = Some(SecondReturn::F128),
                    _ => {}
                }
            }
        }
        saved_g.sort();
        saved_f.sort();
        let saved_gprs = saved_g.into_iter().map(|g| (g, layout.reserve(8, 8))).collect();
        let saved_fprs = saved_f.into_iter().map(|r| (r, layout.reserve(8, 8))).collect();
        let asm_spill = layout.reserve(16 * max_outputs as u32, 16);
        layout.finish();
        if layout.size() > (1 << 30) {
            return Err(BackendError::in_function(&f.name, "stack frame too large"));
        }
        let vararg_save = if f.is_variadic { VARARG_SAVE } else { 0 };
        let area_top = vararg_save + 16 + layout.size() as i64;
        Ok(FnEmitter {
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
            saved_gprs,
            saved_fprs,
            asm_spill,
            second_returns,
            sets_second,
            block_index: 0,
            inst_index: 0,
            far,
        })
    }

    /// An unconditional branch to block `b`.
    fn jump(&mut self, b: BlockId) {
        if self.far {
            emit!(self, "\tjump\t{}, t6", block_label(b));
        } else {
            emit!(self, "\tj\t{}", block_label(b));
        }
    }

    /// `if (operands satisfy cond) goto b`, `cond` one of `beqz bnez beq bne bgtu`.
    fn branch(&mut self, cond: &str, operands: &str, b: BlockId) {
        if !self.far {
            emit!(self, "\t{cond}\t{operands}, {}", block_label(b));
            return;
        }
        let inverse = match cond {
            "beqz" => "bnez",
            "bnez" => "beqz",
            "beq" => "bne",
            "bne" => "beq",
            "bgtu" => "bleu",
            other => other,
        };
        let skip = self.cx.labels.fresh();
        emit!(self, "\t{inverse}\t{operands}, .Lnear{skip}");
        self.jump(b);
        emit!(self, ".Lnear{skip}:");
    }

    fn err(&self, message: impl Into<String>) -> BackendError {
        BackendError::in_function(&self.f.name, message)
    }

    /// The memory of locals-area offset `off`.
    fn area(&self, off: u32) -> Mem {
        Mem::new(S0, off as i64 - self.area_top)
    }

    /// The slot of `v` (a value that is not an `alloca` address).
    fn slot(&self, v: Value) -> Result<Mem, BackendError> {
        match self.layout.home(v) {
            Home::Slot(off) => Ok(self.area(off)),
            Home::None => Err(self.err(format!("{v} is used but never defined"))),
            _ => Err(self.err(format!("{v} is an address, not a slot"))),
        }
    }

    /// The memory of a locals-area offset that may lie outside the area.
    fn frame_mem(&self, off: i64) -> Mem {
        Mem::new(S0, off - self.area_top)
    }

    /// Puts the address of symbol `name` plus `offset` into `r`: PC-relative
    /// (`lla`) when the module defines it, else from the GOT, or for a
    /// thread-local the initial-exec offset plus `tp`.
    fn symbol_address(&mut self, name: &str, offset: i64, r: Gpr) {
        let sym = super::symbol(name);
        let mut extra = offset;
        if self.cx.thread_local.contains(name) {
            emit!(self, "\tla.tls.ie\t{r}, {sym}");
            emit!(self, "\tadd\t{r}, {r}, tp");
        } else if self.cx.is_defined(name) || name.starts_with(".L") {
            match offset {
                0 => emit!(self, "\tlla\t{r}, {sym}"),
                o => emit!(self, "\tlla\t{r}, {sym}{o:+}"),
            }
            extra = 0;
        } else {
            let l = self.cx.labels.fresh();
            emit!(self, ".Lgot{l}:");
            emit!(self, "\tauipc\t{r}, %got_pcrel_hi({sym})");
            emit!(self, "\tld\t{r}, %pcrel_lo(.Lgot{l})({r})");
        }
        if extra != 0 {
            if fits_i12(extra) || r != T6 {
                self.add_imm(r, r, extra);
            } else {
                // t6 is the target: step with 12-bit immediates (offsets stay below 2^30).
                let mut left = extra;
                while left != 0 {
                    let step = left.clamp(-2048, 2047);
                    emit!(self, "\taddi\t{r}, {r}, {step}");
                    left -= step;
                }
            }
        }
    }

    /// Puts the address an address home stands for into `r` (nothing for
    /// slots and undefined values).
    fn materialize(&mut self, home: Home, r: Gpr) {
        match home {
            Home::Alloca { offset, align } => self.alloca_address(offset, align, r),
            Home::FrameAddr(o) => {
                let m = self.frame_mem(o);
                self.add_imm(r, S0, m.disp);
            }
            Home::SymbolAddr { sym, offset } => {
                let name = self.layout.symbol(sym).clone();
                self.symbol_address(&name, offset, r);
            }
            Home::Slot(_) | Home::None => {}
        }
    }

    /// The operand text of `m` for a load or store: `disp(base)`, after
    /// adding a displacement beyond 12 bits to the base in `t6`.
    fn mem_operand(&mut self, m: Mem) -> String {
        if fits_i12(m.disp) {
            format!("{}({})", m.disp, m.base)
        } else {
            debug_assert!(m.base != T6, "t6 is the displacement register");
            emit!(self, "\tli\tt6, {}", m.disp);
            emit!(self, "\tadd\tt6, t6, {}", m.base);
            "0(t6)".to_string()
        }
    }

    /// `rd = rs + imm` for any 64-bit `imm`.
    fn add_imm(&mut self, rd: Gpr, rs: Gpr, imm: i64) {
        if fits_i12(imm) {
            if imm != 0 || rd != rs {
                emit!(self, "\taddi\t{rd}, {rs}, {imm}");
            }
        } else {
            debug_assert!(rs != T6);
            emit!(self, "\tli\tt6, {imm}");
            emit!(self, "\tadd\t{rd}, {rs}, t6");
        }
    }

    /// `r = imm`.
    fn li(&mut self, r: Gpr, imm: i64) {
        if imm == 0 {
            emit!(self, "\tmv\t{r}, zero");
        } else {
            emit!(self, "\tli\t{r}, {imm}");
        }
    }

    /// `r = the size-byte integer at m`, extended to 64 bits.
    fn load_mem(&mut self, m: Mem, size: usize, signed: bool, r: Gpr) {
        let op = self.mem_operand(m);
        emit!(self, "\t{}\t{r}, {op}", load_op(size, signed));
    }

    /// Stores the low `size` (1, 2, 4 or 8) bytes of `r` to `m`.
    fn store_mem(&mut self, r: Gpr, size: usize, m: Mem) {
        let op = self.mem_operand(m);
        emit!(self, "\t{}\t{r}, {op}", store_op(size));
    }

    /// Loads a `float`/`double` at `m` into `fr`.
    fn load_fmem(&mut self, m: Mem, ty: IrType, fr: Fpr) {
        let op = self.mem_operand(m);
        let mn = if ty == IrType::F32 { "flw" } else { "fld" };
        emit!(self, "\t{mn}\t{fr}, {op}");
    }

    /// Stores `fr` as a `float`/`double` to `m`.
    fn store_fmem(&mut self, fr: Fpr, ty: IrType, m: Mem) {
        let op = self.mem_operand(m);
        let mn = if ty == IrType::F32 { "fsw" } else { "fsd" };
        emit!(self, "\t{mn}\t{fr}, {op}");
    }

    /// `r = address of the alloca object at offset` (rounded up at run time
    /// when it is aligned beyond 16).
    fn alloca_address(&mut self, offset: u32, align: u32, r: Gpr) {
        let m = self.area(offset);
        self.add_imm(r, S0, m.disp);
        if align > 16 {
            self.add_imm(r, r, align as i64 - 16);
            let mask = -(align as i64);
            if fits_i12(mask) {
                emit!(self, "\tandi\t{r}, {r}, {mask}");
            } else {
                emit!(self, "\tli\tt6, {mask}");
                emit!(self, "\tand\t{r}, {r}, t6");
            }
        }
    }

    /// The memory a pointer value addresses: an alloca's object directly,
    /// otherwise the pointer is loaded into `scratch`.
    fn addr_of(&mut self, ptr: Value, scratch: Gpr) -> Result<Mem, BackendError> {
        match self.layout.home(ptr) {
            Home::Alloca { offset, align } if align <= 16 => Ok(self.area(offset)),
            Home::FrameAddr(o) => Ok(self.frame_mem(o)),
            home @ (Home::Alloca { .. } | Home::SymbolAddr { .. }) => {
                self.materialize(home, scratch);
                Ok(Mem::new(scratch, 0))
            }
            Home::Slot(off) => {
                let m = self.area(off);
                self.load_mem(m, 8, false, scratch);
                Ok(Mem::new(scratch, 0))
            }
            Home::None => Err(self.err(format!("{ptr} is used but never defined"))),
        }
    }

    /// The pointer value `ptr` in register `r`.
    fn load_ptr(&mut self, ptr: &Operand, r: Gpr) -> Result<(), BackendError> {
        self.load_int(ptr, IrType::Ptr, false, r)
    }

    /// The integer value of constant `c` as a `ty`, extended to 64 bits by `signed`.
    fn const_i64(c: &IrConst, ty: IrType, signed: bool) -> i64 {
        let t = if ty == IrType::Void { IrType::I64 } else { ty };
        let bits = c.bits_as(t);
        let w = (t.size().clamp(1, 8) * 8) as u32;
        if signed {
            crate::ir::constants::sext(bits, w) as i64
        } else {
            crate::ir::constants::zext(bits, w) as u64 as i64
        }
    }

    /// Loads an integer-class operand of type `ty` into `r`, extended to 64
    /// bits (sign-extended when `signed`). An alloca's value is its address;
    /// a 16-byte value gives its low half; a float gives its bits.
    fn load_int(&mut self, op: &Operand, ty: IrType, signed: bool, r: Gpr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let imm = Self::const_i64(c, ty, signed);
                self.li(r, imm);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    self.load_mem(m, ty.size().clamp(1, 8), signed, r);
                }
                Home::None => return Err(self.err(format!("{v} is used but never defined"))),
                home => self.materialize(home, r),
            },
        }
        Ok(())
    }

    /// Loads an operand's bits with the extension its type implies.
    fn load(&mut self, op: &Operand, ty: IrType, r: Gpr) -> Result<(), BackendError> {
        self.load_int(op, ty, ty.is_signed(), r)
    }

    /// Loads an operand as the psABI wants it in an integer register:
    /// narrower integers widened by their signedness to 32 bits, then
    /// sign-extended to 64 (so `u32` is sign-extended too).
    fn load_abi(&mut self, op: &Operand, ty: IrType, r: Gpr) -> Result<(), BackendError> {
        let signed = ty.is_signed() || ty.size() == 4;
        self.load_int(op, ty, signed, r)
    }

    /// Loads a `float`/`double` operand into `fr`.
    fn load_f(&mut self, op: &Operand, ty: IrType, fr: Fpr) -> Result<(), BackendError> {
        let ty = if ty == IrType::F32 { IrType::F32 } else { IrType::F64 };
        let mv = if ty == IrType::F32 { "fmv.w.x" } else { "fmv.d.x" };
        match op {
            Operand::Const(c) => {
                let bits = c.bits_as(ty) as u64;
                if bits == 0 {
                    emit!(self, "\t{mv}\t{fr}, zero");
                } else {
                    self.li(T6, bits as i64);
                    emit!(self, "\t{mv}\t{fr}, t6");
                }
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    self.load_fmem(m, ty, fr);
                }
                Home::None => return Err(self.err(format!("{v} is used but never defined"))),
                home => {
                    self.materialize(home, T6);
                    emit!(self, "\t{mv}\t{fr}, t6");
                }
            },
        }
        Ok(())
    }

    /// Loads a 16-byte operand (of type `ty`: `i128`, `u128` or `f128`)
    /// into `lo:hi`. A narrower value gives its bits and a zero high half.
    fn load_pair(&mut self, op: &Operand, ty: IrType, lo: Gpr, hi: Gpr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let img = Self::const_image(c, ty);
                let l = i64::from_le_bytes(img[..8].try_into().unwrap_or([0; 8]));
                let h = i64::from_le_bytes(img[8..].try_into().unwrap_or([0; 8]));
                self.li(lo, l);
                self.li(hi, h);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    if self.types.of(*v).size() > 8 {
                        self.load_mem(m, 8, false, lo);
                        self.load_mem(m.at(8), 8, false, hi);
                    } else {
                        let t = self.types.of(*v);
                        self.load_mem(m, t.size().clamp(1, 8), t.is_signed(), lo);
                        self.li(hi, 0);
                    }
                }
                Home::None => return Err(self.err(format!("{v} is used but never defined"))),
                home => {
                    self.materialize(home, lo);
                    self.li(hi, 0);
                }
            },
        }
        Ok(())
    }

    /// Stores `lo:hi` into the 16-byte slot of `dest`.
    fn store_pair(&mut self, lo: Gpr, hi: Gpr, dest: Value) -> Result<(), BackendError> {
        let m = self.slot(dest)?;
        self.store_mem(lo, 8, m);
        self.store_mem(hi, 8, m.at(8));
        Ok(())
    }

    /// Stores `r` into the slot of `v` at the width of `ty`.
    fn store(&mut self, r: Gpr, ty: IrType, v: Value) -> Result<(), BackendError> {
        let m = self.slot(v)?;
        self.store_mem(r, ty.size().clamp(1, 8), m);
        Ok(())
    }

    /// The memory image of a constant stored as a `ty` (16 bytes, little-endian).
    fn const_image(c: &IrConst, ty: IrType) -> [u8; 16] {
        let mut b = Vec::with_capacity(16);
        super::data::const_bytes(c, ty, LongDoubleFormat::Binary128, &mut b);
        b.resize(16, 0);
        b.try_into().unwrap_or([0; 16])
    }

    /// Stores constant `c` of type `ty` into `m` (through `t0`).
    fn store_const(&mut self, c: &IrConst, ty: IrType, m: Mem) {
        let img = Self::const_image(c, ty);
        let size = ty.size().max(1);
        let mut at = 0;
        while at < size {
            let chunk = chunk_size(size - at);
            let mut v: u64 = 0;
            for k in 0..chunk {
                v |= (img[at + k] as u64) << (8 * k);
            }
            if v == 0 {
                self.store_mem(ZERO, chunk, m.at(at as i64));
            } else {
                self.li(T0, v as i64);
                self.store_mem(T0, chunk, m.at(at as i64));
            }
            at += chunk;
        }
    }

    /// Copies `size` bytes from `src` to `dst` through `t0`, in chunks of
    /// 8, 4, 2 and 1 bytes (the bases must not be `t0` or `t6`).
    fn copy_mem(&mut self, src: Mem, dst: Mem, size: usize) {
        let mut at = 0;
        while at < size {
            let chunk = chunk_size(size - at);
            self.load_mem(src.at(at as i64), chunk, false, T0);
            self.store_mem(T0, chunk, dst.at(at as i64));
            at += chunk;
        }
    }

    /// Copies `size` bytes from the address in `src` to the address in
    /// `dst` (neither `t0`, `t1`, `t2` nor `t6`): unrolled when short, else a
    /// loop of 8-byte moves and the tail. Advances neither register.
    fn copy_bytes(&mut self, src: Gpr, dst: Gpr, size: usize) {
        if size <= 64 {
            self.copy_mem(Mem::new(src, 0), Mem::new(dst, 0), size);
            return;
        }
        let words = size / 8;
        let l = self.cx.labels.fresh();
        emit!(self, "\tmv\tt1, {src}");
        emit!(self, "\tmv\tt2, {dst}");
        self.li(T0, words as i64);
        emit!(self, ".Lcopy{l}:");
        emit!(self, "\tld\tt6, 0(t1)");
        emit!(self, "\tsd\tt6, 0(t2)");
        emit!(self, "\taddi\tt1, t1, 8");
        emit!(self, "\taddi\tt2, t2, 8");
        emit!(self, "\taddi\tt0, t0, -1");
        emit!(self, "\tbnez\tt0, .Lcopy{l}");
        self.copy_mem(Mem::new(T1, 0), Mem::new(T2, 0), size - 8 * words);
    }

    /// Stores operand `op` of type `ty` (all its bytes) into `m`: the generic
    /// value move (through `t0`; `m`'s base must not be `t0`).
    fn store_operand(&mut self, op: &Operand, ty: IrType, m: Mem) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => self.store_const(c, ty, m),
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let src = self.area(off);
                    let size = if ty.size() > 8 { 16 } else { ty.size().max(1) };
                    self.copy_mem(src, m, size);
                }
                Home::None => return Err(self.err(format!("{v} is used but never defined"))),
                home => {
                    self.materialize(home, T0);
                    self.store_mem(T0, ty.size().clamp(1, 8), m);
                }
            },
        }
        Ok(())
    }

    fn param_home(&self, i: usize) -> Result<ParamHome, BackendError> {
        self.params.get(i).copied().ok_or_else(|| {
            self.err(format!(
                "paramref {i} of a function with {} parameters",
                self.params.len()
            ))
        })
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
            return Err(self.err(format!("switch on {ty}")));
        }
        if ty.is_128() {
            self.load_pair(val, ty, T0, T1)?;
            let mut seen = Vec::new();
            for &(c, b) in cases {
                let v = normalize_case(c, ty);
                if seen.contains(&v) {
                    continue;
                }
                seen.push(v);
                let (lo, hi) = (v as u128 as u64 as i64, ((v as u128) >> 64) as u64 as i64);
                let next = self.cx.labels.fresh();
                self.li(T2, lo);
                emit!(self, "\tbne\tt0, t2, .Ltmp{next}");
                self.li(T2, hi);
                self.branch("beq", "t1, t2", b);
                emit!(self, ".Ltmp{next}:");
            }
            self.jump(default);
            return Ok(());
        }
        self.load(val, ty, T0)?;
        match plan_switch(cases, default, ty) {
            SwitchPlan::CompareChain { cases } => {
                for (v, b) in cases {
                    let v = v as u64 as i64;
                    if v == 0 {
                        self.branch("beqz", "t0", b);
                    } else {
                        self.li(T1, v);
                        self.branch("beq", "t0, t1", b);
                    }
                }
                self.jump(default);
            }
            SwitchPlan::JumpTable { min, table } => {
                let min = min as u64 as i64;
                if min != 0 {
                    self.li(T1, min);
                    emit!(self, "\tsub\tt0, t0, t1");
                }
                let jt = self.cx.labels.fresh();
                self.li(T1, table.len() as i64 - 1);
                self.branch("bgtu", "t0, t1", default);
                emit!(self, "\tlla\tt1, .LJT{jt}");
                emit!(self, "\tslli\tt0, t0, 2");
                emit!(self, "\tadd\tt0, t0, t1");
                emit!(self, "\tlw\tt0, 0(t0)");
                emit!(self, "\tadd\tt0, t0, t1");
                emit!(self, "\tjr\tt0");
                let ro = &mut self.cx.rodata;
                let _ = writeln!(ro, "\t.p2align\t2\n.LJT{jt}:");
                for b in table {
                    let _ = writeln!(ro, "\t.word\t.LBB{}-.LJT{jt}", b.0);
                }
            }
        }
        Ok(())
    }

    /// Loads a branch condition into `t0` (nonzero = true); returns
    /// `Some(value)` for a constant condition.
    fn load_cond(&mut self, cond: &Operand) -> Result<Option<bool>, BackendError> {
        match cond {
            Operand::Const(c) => Ok(Some(c.is_nonzero())),
            Operand::Value(v) => {
                let ty = self.types.of(*v);
                match self.layout.home(*v) {
                    Home::Alloca { .. } | Home::FrameAddr(_) => Ok(Some(true)),
                    home @ Home::SymbolAddr { .. } => {
                        // A weak symbol's address may be null.
                        self.materialize(home, T0);
                        Ok(None)
                    }
                    Home::None => Err(self.err(format!("{v} is used but never defined"))),
                    Home::Slot(off) => {
                        let m = self.area(off);
                        if ty.size() > 8 {
                            self.load_mem(m, 8, false, T0);
                            self.load_mem(m.at(8), 8, false, T1);
                            emit!(self, "\tor\tt0, t0, t1");
                        } else {
                            let size = if ty == IrType::Void { 8 } else { ty.size().max(1) };
                            self.load_mem(m, size, false, T0);
                        }
                        Ok(None)
                    }
                }
            }
        }
    }
}

/// The largest access (8, 4, 2 or 1 bytes) not longer than `left`.
fn chunk_size(left: usize) -> usize {
    if left >= 8 {
        8
    } else if left >= 4 {
        4
    } else if left >= 2 {
        2
    } else {
        1
    }
}

impl FunctionEmitter for FnEmitter<'_, '_> {
    fn prologue(&mut self) -> Result<(), BackendError> {
        self.emit_prologue()
    }

    fn block_start(&mut self, label: BlockId) {
        emit!(self, ".LBB{}:", label.0);
        self.inst_index = 0;
    }

    fn instruction(&mut self, inst: &Instruction) -> Result<(), BackendError> {
        use Instruction::*;
        match inst {
            Alloca { .. } => {}
            DynAlloca { dest, size, align } => self.dyn_alloca(*dest, size, *align)?,
            Load { dest, ptr, ty, .. } => self.load_inst(*dest, *ptr, *ty)?,
            Store { val, ptr, ty, .. } => self.store_inst(val, *ptr, *ty)?,
            Memcpy { dest, src, size } => self.memcpy(*dest, *src, *size)?,
            GetElementPtr { dest, base, offset, .. } => self.gep(*dest, *base, offset)?,
            GlobalAddr { dest, name } => self.global_addr(*dest, name)?,
            StackSave { dest } => {
                emit!(self, "\tmv\tt0, sp");
                self.store(T0, IrType::Ptr, *dest)?;
            }
            StackRestore { ptr } => {
                self.load_ptr(&Operand::Value(*ptr), T0)?;
                emit!(self, "\tmv\tsp, t0");
            }
            BinOp { dest, op, lhs, rhs, ty } => self.binop(*dest, *op, lhs, rhs, *ty)?,
            UnaryOp { dest, op, src, ty } => self.unop(*dest, *op, src, *ty)?,
            Cmp { dest, op, lhs, rhs, ty } => self.cmp(*dest, *op, lhs, rhs, *ty)?,
            Cast {
                dest,
                src,
                from_ty,
                to_ty,
            } => self.cast(*dest, src, *from_ty, *to_ty)?,
            Copy { dest, src } => {
                let ty = self.types.of(*dest);
                let m = self.slot(*dest)?;
                self.store_operand(src, ty, m)?;
            }
            Select {
                dest,
                cond,
                true_val,
                false_val,
                ty,
            } => self.select(*dest, cond, true_val, false_val, *ty)?,
            Call { func, info } => self.call(Some(func), None, info)?,
            CallIndirect { func_ptr, info } => self.call(None, Some(func_ptr), info)?,
            VaStart { va_list_ptr } => self.va_start(*va_list_ptr)?,
            VaEnd { .. } => {}
            VaCopy { dest_ptr, src_ptr } => self.va_copy(*dest_ptr, *src_ptr)?,
            VaArg {
                dest,
                va_list_ptr,
                result_ty,
            } => self.va_arg(*dest, *va_list_ptr, *result_ty)?,
            VaArgStruct {
                dest_ptr,
                va_list_ptr,
                size,
                ..
            } => self.va_arg_struct(*dest_ptr, *va_list_ptr, *size)?,
            AtomicRmw {
                dest,
                op,
                ptr,
                val,
                ty,
                ordering,
            } => self.atomic_rmw(*dest, *op, *ptr, val, *ty, *ordering)?,
            AtomicCmpxchg {
                dest,
                ptr,
                expected,
                desired,
                ty,
                returns_bool,
                ..
            } => self.atomic_cmpxchg(*dest, *ptr, expected, desired, *ty, *returns_bool)?,
            AtomicLoad {
                dest,
                ptr,
                ty,
                ordering,
            } => self.atomic_load(*dest, *ptr, *ty, *ordering)?,
            AtomicStore { ptr, val, ordering, ty } => self.atomic_store(*ptr, val, *ordering, *ty)?,
            Fence { ordering } => self.fence(*ordering),
            Phi { .. } => return Err(self.err("phi in the backend (phi elimination has not run)")),
            ParamRef { dest, param_idx, ty } => self.param_ref(*dest, *param_idx, *ty)?,
            GetReturnF64Second { dest } | GetReturnF32Second { dest } | GetReturnF128Second { dest } => {
                let ty = self.types.of(*dest);
                let src = self.area(self.ret2);
                let m = self.slot(*dest)?;
                self.copy_mem(src, m, if ty.size() > 8 { 16 } else { 8 });
            }
            SetReturnF64Second { src } => {
                let m = self.area(self.ret2);
                self.store_operand(src, IrType::F64, m)?;
            }
            SetReturnF32Second { src } => {
                let m = self.area(self.ret2);
                self.store_operand(src, IrType::F32, m)?;
            }
            SetReturnF128Second { src } => {
                let m = self.area(self.ret2);
                self.store_operand(src, IrType::F128, m)?;
            }
            InlineAsm(asm) => self.inline_asm(asm)?,
            Intrinsic { dest, op, args, .. } => self.intrinsic(*dest, *op, args)?,
            LabelAddr { dest, label } => {
                emit!(self, "\tlla\tt0, .LBB{}", label.0);
                self.store(T0, IrType::Ptr, *dest)?;
            }
        }
        self.inst_index += 1;
        Ok(())
    }

    fn terminator(&mut self, term: &Terminator, next: Option<BlockId>) -> Result<(), BackendError> {
        match term {
            Terminator::Return(val) => self.emit_return(val.as_ref())?,
            Terminator::Branch(b) => {
                if next != Some(*b) {
                    self.jump(*b);
                }
            }
            Terminator::CondBranch {
                cond,
                true_label,
                false_label,
            } => match self.load_cond(cond)? {
                Some(taken) => {
                    let b = if taken { *true_label } else { *false_label };
                    if next != Some(b) {
                        self.jump(b);
                    }
                }
                None => {
                    if next == Some(*true_label) {
                        self.branch("beqz", "t0", *false_label);
                    } else {
                        self.branch("bnez", "t0", *true_label);
                        if next != Some(*false_label) {
                            self.jump(*false_label);
                        }
                    }
                }
            },
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
        self.block_index += 1;
        Ok(())
    }
}
