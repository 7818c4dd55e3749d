//! Integer and SSE arithmetic, comparisons, conversions, `select` and the
//! intrinsics. 128-bit integers and x87 `long double` are in `wide`.
//!
//! Integers up to 32 bits compute in 32-bit registers, 64-bit ones (and
//! pointers) in 64-bit registers. Operands are loaded extended by the
//! *operation's* signedness where it matters (`sdiv`, `ashr`, signed
//! compares read their operands as signed even on an unsigned type, as the
//! interpreter does), else by the type's. Float compares use `ucomis[sd]`
//! with the operands ordered so that `seta`/`setae` give false on NaN, `eq`
//! checks parity, `ne` is true on NaN (IEEE, like the interpreter).
//! Conversions between `u64` and floating point use the classic sequences
//! (halve-and-double for `u64 -> double`, subtract `2^63` for
//! `double -> u64`).

use super::regs::{suffix, Gpr};
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::isel::cmp_is_signed;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::intrinsics::IntrinsicOp;
use crate::ir::ops::{IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// The `setcc` condition of an integer comparison.
pub(super) fn int_cc(op: IrCmpOp) -> &'static str {
    match op {
        IrCmpOp::Eq => "e",
        IrCmpOp::Ne => "ne",
        IrCmpOp::Slt => "l",
        IrCmpOp::Sle => "le",
        IrCmpOp::Sgt => "g",
        IrCmpOp::Sge => "ge",
        IrCmpOp::Ult => "b",
        IrCmpOp::Ule => "be",
        IrCmpOp::Ugt => "a",
        IrCmpOp::Uge => "ae",
    }
}

/// The condition code that holds when `cc` does not.
pub(super) fn inverse_cc(cc: &str) -> &'static str {
    match cc {
        "e" => "ne",
        "ne" => "e",
        "l" => "ge",
        "ge" => "l",
        "le" => "g",
        "g" => "le",
        "b" => "ae",
        "ae" => "b",
        "be" => "a",
        _ => "be",
    }
}

/// `ss` or `sd`.
fn fsuf(ty: IrType) -> &'static str {
    if ty == IrType::F32 {
        "ss"
    } else {
        "sd"
    }
}

impl FnEmitter<'_, '_> {
    /// Loads a `float`/`double` operand into `%xmm<n>` (constants go through `rax`).
    pub(super) fn load_xmm(&mut self, op: &Operand, ty: IrType, n: u8) -> Result<(), BackendError> {
        let ty = if ty == IrType::F32 { IrType::F32 } else { IrType::F64 };
        match op {
            Operand::Const(c) => {
                let bits = c.bits_as(ty) as u64;
                if bits == 0 {
                    emit!(self, "\txorps\t%xmm{n}, %xmm{n}");
                } else if ty == IrType::F32 {
                    emit!(self, "\tmovl\t${}, %eax", bits as u32 as i32);
                    emit!(self, "\tmovd\t%eax, %xmm{n}");
                } else {
                    self.mov_imm(bits as i64, Gpr::Rax);
                    emit!(self, "\tmovq\t%rax, %xmm{n}");
                }
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(_) => {
                    let m = self.slot(*v)?;
                    emit!(self, "\tmov{}\t{m}, %xmm{n}", fsuf(ty));
                }
                Home::Reg(p) if p.class == crate::backend::regalloc::RegClass::Float => {
                    let x = super::xmm_home(p);
                    if x != n {
                        emit!(self, "\tmovaps\t%xmm{x}, %xmm{n}");
                    }
                }
                Home::Reg(p) => {
                    self.flush();
                    emit!(self, "\tmovq\t{}, %xmm{n}", super::phys(p).q());
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                h => {
                    self.materialize(h, Gpr::Rax);
                    emit!(self, "\tmovq\t%rax, %xmm{n}");
                }
            },
        }
        Ok(())
    }

    /// Stores `%xmm<n>` as a `ty` into `m`.
    pub(super) fn store_xmm(&mut self, n: u8, ty: IrType, m: &super::regs::Mem) {
        emit!(self, "\tmov{}\t%xmm{n}, {m}", fsuf(ty));
    }

    /// `dest = %xmm<n>` for a `float`/`double` `dest`: into its xmm home, or its slot.
    pub(super) fn store_xmm_to(&mut self, n: u8, ty: IrType, dest: Value) -> Result<(), BackendError> {
        match self.xmm_of(dest) {
            Some(x) if x == n => {}
            Some(x) => emit!(self, "\tmovaps\t%xmm{n}, %xmm{x}"),
            None => {
                let m = self.slot(dest)?;
                self.store_xmm(n, ty, &m);
            }
        }
        Ok(())
    }

    /// A `float`/`double` operand as an SSE instruction's source: its xmm
    /// home or its slot in place, else loaded into `%xmm<scratch>`.
    pub(super) fn xmm_source(&mut self, op: &Operand, ty: IrType, scratch: u8) -> Result<String, BackendError> {
        if let Some(v) = op.as_value() {
            if let Some(x) = self.xmm_of(v) {
                return Ok(format!("%xmm{x}"));
            }
            if let Home::Slot(_) = self.layout.home(v) {
                return Ok(self.slot(v)?.to_string());
            }
        }
        self.load_xmm(op, ty, scratch)?;
        Ok(format!("%xmm{scratch}"))
    }

    pub(super) fn binop(
        &mut self,
        dest: Value,
        op: IrBinOp,
        lhs: &Operand,
        rhs: &Operand,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let bitwise = matches!(op, IrBinOp::And | IrBinOp::Or | IrBinOp::Xor);
        if ty.is_float() && !bitwise {
            let f = fsuf(ty);
            let mnemonic = match op {
                IrBinOp::Add => "add",
                IrBinOp::Sub => "sub",
                IrBinOp::Mul => "mul",
                IrBinOp::SDiv | IrBinOp::UDiv => "div",
                IrBinOp::SRem | IrBinOp::URem => {
                    self.load_xmm(lhs, ty, 0)?;
                    self.load_xmm(rhs, ty, 1)?;
                    let func = if ty == IrType::F32 { "fmodf" } else { "fmod" };
                    emit!(self, "\tcall\t{func}@PLT");
                    return self.store_xmm_to(0, ty, dest);
                }
                _ => return Err(self.internal(format!("{} on {ty}", op.name()))),
            };
            // Compute in the destination's xmm home when it has one (and
            // the right operand is not there), reading the right operand in
            // place; else in xmm0.
            let rhs_home = rhs.as_value().and_then(|v| self.xmm_of(v));
            let into = match self.xmm_of(dest) {
                Some(x) if rhs_home != Some(x) => x,
                _ => 0,
            };
            self.load_xmm(lhs, ty, into)?;
            let b = self.xmm_source(rhs, ty, 1)?;
            emit!(self, "\t{mnemonic}{f}\t{b}, %xmm{into}");
            return self.store_xmm_to(into, ty, dest);
        }
        if ty == IrType::Void {
            return Err(self.internal("arithmetic on void"));
        }
        let w = if ty.size() <= 4 { 4 } else { 8 };
        let s = suffix(w);
        let (a, c, d) = (Gpr::Rax.name(w), Gpr::Rcx.name(w), Gpr::Rdx.name(w));
        let signed = match op {
            IrBinOp::SDiv | IrBinOp::SRem | IrBinOp::AShr => true,
            IrBinOp::UDiv | IrBinOp::URem | IrBinOp::LShr => false,
            _ => ty.is_signed(),
        };
        let low_bits_only = matches!(
            op,
            IrBinOp::Add | IrBinOp::Sub | IrBinOp::And | IrBinOp::Or | IrBinOp::Xor | IrBinOp::Mul
        );
        if low_bits_only {
            // These results' low bits depend only on the operands' low bits:
            // compute straight into the destination's register when it has
            // one (and the right operand is not in it), reading a right
            // operand in a register or slot in place.
            let rhs_reg = rhs.as_value().and_then(|v| self.reg_of(v));
            let into = match self.reg_of(dest) {
                Some(g) if rhs_reg != Some(g) => g,
                _ => Gpr::Rax,
            };
            let r = into.name(w);
            let mn = match op {
                IrBinOp::Add => "add",
                IrBinOp::Sub => "sub",
                IrBinOp::And => "and",
                IrBinOp::Or => "or",
                IrBinOp::Xor => "xor",
                _ => "imul",
            };
            // Only the low bits are read: a left operand already in `into`
            // needs no extension first.
            match lhs.as_value().and_then(|v| self.reg_of(v)) {
                Some(g) if g == into => self.flush(),
                _ => self.load_int(lhs, ty, signed, into)?,
            }
            match Self::imm32(rhs, ty, signed) {
                // Strength reduction: shifts and `lea` have 1-cycle latency, `imul` 3.
                Some(imm) if op == IrBinOp::Mul && imm > 0 && (imm as u64).is_power_of_two() => {
                    emit!(self, "\tshl{s}\t${}, {r}", imm.trailing_zeros())
                }
                Some(imm @ (3 | 5 | 9)) if op == IrBinOp::Mul => {
                    let q = into.name(8);
                    let l = into.name(w);
                    emit!(self, "\tlea{s}\t({q},{q},{}), {l}", imm - 1)
                }
                Some(imm) if op == IrBinOp::Mul => emit!(self, "\timul{s}\t${imm}, {r}, {r}"),
                Some(imm) => emit!(self, "\t{mn}{s}\t${imm}, {r}"),
                None => match rhs_reg {
                    Some(g) => emit!(self, "\t{mn}{s}\t{}, {r}", g.name(w)),
                    None => {
                        self.load_int(rhs, ty, signed, Gpr::Rcx)?;
                        emit!(self, "\t{mn}{s}\t{c}, {r}");
                    }
                },
            }
            return self.store(into, ty, dest);
        }
        if let (IrBinOp::Shl | IrBinOp::AShr | IrBinOp::LShr, Some(cst), Some(g)) =
            (op, rhs.as_const(), self.reg_of(dest))
        {
            // A shift by a constant, straight in the destination's register.
            let mn = match op {
                IrBinOp::Shl => "shl",
                IrBinOp::AShr => "sar",
                _ => "shr",
            };
            self.load_int(lhs, ty, signed, g)?;
            let n = Self::const_i64(&cst, ty, false) & (8 * w as i64 - 1);
            emit!(self, "\t{mn}{s}\t${n}, {}", g.name(w));
            return self.store(g, ty, dest);
        }
        self.load_int(lhs, ty, signed, Gpr::Rax)?;
        let mut result = Gpr::Rax;
        match op {
            IrBinOp::Add | IrBinOp::Sub | IrBinOp::And | IrBinOp::Or | IrBinOp::Xor | IrBinOp::Mul => {
                unreachable!("handled above")
            }
            IrBinOp::SDiv | IrBinOp::SRem | IrBinOp::UDiv | IrBinOp::URem => {
                self.load_int(rhs, ty, signed, Gpr::Rcx)?;
                if signed {
                    emit!(self, "\t{}", if w == 4 { "cltd" } else { "cqto" });
                    emit!(self, "\tidiv{s}\t{c}");
                } else {
                    emit!(self, "\txorl\t%edx, %edx");
                    emit!(self, "\tdiv{s}\t{c}");
                }
                if matches!(op, IrBinOp::SRem | IrBinOp::URem) {
                    result = Gpr::Rdx;
                }
                let _ = d;
            }
            IrBinOp::Shl | IrBinOp::AShr | IrBinOp::LShr => {
                let mn = match op {
                    IrBinOp::Shl => "shl",
                    IrBinOp::AShr => "sar",
                    _ => "shr",
                };
                match rhs.as_const() {
                    Some(cst) => {
                        let n = Self::const_i64(&cst, ty, false) & (8 * w as i64 - 1);
                        emit!(self, "\t{mn}{s}\t${n}, {a}");
                    }
                    None => {
                        self.load_int(rhs, ty, false, Gpr::Rcx)?;
                        emit!(self, "\t{mn}{s}\t%cl, {a}");
                    }
                }
            }
        }
        self.store(result, ty, dest)
    }

    pub(super) fn unop(&mut self, dest: Value, op: IrUnaryOp, src: &Operand, ty: IrType) -> Result<(), BackendError> {
        if op == IrUnaryOp::IsConstant {
            let is_const = matches!(src, Operand::Const(_));
            self.mov_imm(is_const as i64, Gpr::Rax);
            self.store_sized(Gpr::Rax, ty.size().clamp(1, 8), dest)?;
            return Ok(());
        }
        let w = if ty.size() <= 4 { 4 } else { 8 };
        let s = suffix(w);
        let a = Gpr::Rax.name(w);
        if ty.is_float() {
            self.load_int(src, ty, false, Gpr::Rax)?;
            match op {
                IrUnaryOp::Neg if ty == IrType::F32 => emit!(self, "\txorl\t$-2147483648, %eax"),
                IrUnaryOp::Neg => emit!(self, "\tbtcq\t$63, %rax"),
                IrUnaryOp::Not => emit!(self, "\tnot{s}\t{a}"),
                _ => return Err(self.internal(format!("{} on {ty}", op.name()))),
            }
            return self.store(Gpr::Rax, ty, dest);
        }
        let bits = ty.bits() as i64;
        match op {
            IrUnaryOp::Neg | IrUnaryOp::Not => {
                self.load(src, ty, Gpr::Rax)?;
                let mn = if op == IrUnaryOp::Neg { "neg" } else { "not" };
                emit!(self, "\t{mn}{s}\t{a}");
                self.store(Gpr::Rax, ty, dest)
            }
            IrUnaryOp::Clz => {
                self.load_int(src, ty, false, Gpr::Rax)?;
                emit!(self, "\tbsrq\t%rax, %rax");
                emit!(self, "\tmovq\t$-1, %rcx");
                emit!(self, "\tcmovzq\t%rcx, %rax");
                emit!(self, "\tmovl\t${}, %ecx", bits - 1);
                emit!(self, "\tsubl\t%eax, %ecx");
                self.store(Gpr::Rcx, ty, dest)
            }
            IrUnaryOp::Ctz => {
                self.load_int(src, ty, false, Gpr::Rax)?;
                emit!(self, "\tbsfq\t%rax, %rax");
                emit!(self, "\tmovl\t${bits}, %ecx");
                emit!(self, "\tcmovzq\t%rcx, %rax");
                self.store(Gpr::Rax, ty, dest)
            }
            IrUnaryOp::Popcount => {
                self.load_int(src, ty, false, Gpr::Rax)?;
                self.popcount_rax();
                self.store(Gpr::Rax, ty, dest)
            }
            IrUnaryOp::Bswap => {
                self.load(src, ty, Gpr::Rax)?;
                match ty.size() {
                    1 => {}
                    2 => emit!(self, "\trolw\t$8, %ax"),
                    4 => emit!(self, "\tbswapl\t%eax"),
                    _ => emit!(self, "\tbswapq\t%rax"),
                }
                self.store(Gpr::Rax, ty, dest)
            }
            IrUnaryOp::IsConstant => unreachable!("handled above"),
        }
    }

    /// `rax = popcount(rax)` without the `popcnt` instruction (not in the
    /// x86-64 baseline): the SWAR sum of bit counts.
    pub(super) fn popcount_rax(&mut self) {
        emit!(self, "\tmovq\t%rax, %rcx");
        emit!(self, "\tshrq\t%rcx");
        emit!(self, "\tmovabsq\t$6148914691236517205, %rdx");
        emit!(self, "\tandq\t%rdx, %rcx");
        emit!(self, "\tsubq\t%rcx, %rax");
        emit!(self, "\tmovabsq\t$3689348814741910323, %rdx");
        emit!(self, "\tmovq\t%rax, %rcx");
        emit!(self, "\tandq\t%rdx, %rax");
        emit!(self, "\tshrq\t$2, %rcx");
        emit!(self, "\tandq\t%rdx, %rcx");
        emit!(self, "\taddq\t%rcx, %rax");
        emit!(self, "\tmovq\t%rax, %rcx");
        emit!(self, "\tshrq\t$4, %rcx");
        emit!(self, "\taddq\t%rcx, %rax");
        emit!(self, "\tmovabsq\t$1085102592571150095, %rdx");
        emit!(self, "\tandq\t%rdx, %rax");
        emit!(self, "\tmovabsq\t$72340172838076673, %rdx");
        emit!(self, "\timulq\t%rdx, %rax");
        emit!(self, "\tshrq\t$56, %rax");
    }

    pub(super) fn cmp(
        &mut self,
        dest: Value,
        op: IrCmpOp,
        lhs: &Operand,
        rhs: &Operand,
        ty: IrType,
    ) -> Result<(), BackendError> {
        if ty.is_128() {
            self.cmp_wide(op, lhs, rhs, ty)?;
        } else if ty == IrType::F128 {
            self.cmp_x87(op, lhs, rhs)?;
        } else if ty.is_float() {
            let f = if ty == IrType::F32 { "ucomiss" } else { "ucomisd" };
            // Order the operands so that "above" means the relation holds.
            let (a, b) = match op {
                IrCmpOp::Slt | IrCmpOp::Ult | IrCmpOp::Sle | IrCmpOp::Ule => (rhs, lhs),
                _ => (lhs, rhs),
            };
            let a = match a.as_value().and_then(|v| self.xmm_of(v)) {
                Some(x) => x,
                None => {
                    self.load_xmm(a, ty, 0)?;
                    0
                }
            };
            let b = self.xmm_source(b, ty, 1)?;
            emit!(self, "\t{f}\t{b}, %xmm{a}");
            match op {
                IrCmpOp::Eq => {
                    emit!(self, "\tsete\t%al");
                    emit!(self, "\tsetnp\t%cl");
                    emit!(self, "\tandb\t%cl, %al");
                }
                IrCmpOp::Ne => {
                    emit!(self, "\tsetne\t%al");
                    emit!(self, "\tsetp\t%cl");
                    emit!(self, "\torb\t%cl, %al");
                }
                IrCmpOp::Slt | IrCmpOp::Ult | IrCmpOp::Sgt | IrCmpOp::Ugt => emit!(self, "\tseta\t%al"),
                _ => emit!(self, "\tsetae\t%al"),
            }
        } else {
            if ty == IrType::Void {
                return Err(self.internal("comparison of void"));
            }
            let w = if ty.size() <= 4 { 4 } else { 8 };
            let s = suffix(w);
            let signed = cmp_is_signed(op, ty);
            // A 4- or 8-byte operand in a register is compared in place (a
            // narrower one must be extended first).
            let in_place =
                |this: &Self, o: &Operand| o.as_value().and_then(|v| this.reg_of(v)).filter(|_| ty.size() == w);
            let a = match in_place(self, lhs) {
                Some(g) => g,
                None => {
                    self.load_int(lhs, ty, signed, Gpr::Rax)?;
                    Gpr::Rax
                }
            };
            match Self::imm32(rhs, ty, signed) {
                Some(imm) => emit!(self, "\tcmp{s}\t${imm}, {}", a.name(w)),
                None => {
                    let b = match in_place(self, rhs) {
                        Some(g) => g,
                        None => {
                            self.load_int(rhs, ty, signed, Gpr::Rcx)?;
                            Gpr::Rcx
                        }
                    };
                    emit!(self, "\tcmp{s}\t{}, {}", b.name(w), a.name(w));
                }
            }
            if self.fused_compares.contains(&dest) {
                // The block's conditional branch jumps on these flags.
                self.pending_branch = Some((dest, int_cc(op)));
                return Ok(());
            }
            emit!(self, "\tset{}\t%al", int_cc(op));
        }
        self.store_sized(Gpr::Rax, 1, dest)
    }

    pub(super) fn cast(&mut self, dest: Value, src: &Operand, from: IrType, to: IrType) -> Result<(), BackendError> {
        match (from.is_float(), to.is_float()) {
            (false, false) => {
                self.load(src, from, Gpr::Rax)?;
                self.store_sized(Gpr::Rax, to.size(), dest)?;
            }
            (false, true) => {
                self.load(src, from, Gpr::Rax)?;
                let f = fsuf(to);
                if matches!(from, IrType::U64 | IrType::Ptr) {
                    let (big, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                    emit!(self, "\ttestq\t%rax, %rax");
                    emit!(self, "\tjs\t.Ltmp{big}");
                    emit!(self, "\tcvtsi2{f}q\t%rax, %xmm0");
                    emit!(self, "\tjmp\t.Ltmp{done}");
                    emit!(self, ".Ltmp{big}:");
                    emit!(self, "\tmovq\t%rax, %rcx");
                    emit!(self, "\tshrq\t%rcx");
                    emit!(self, "\tandl\t$1, %eax");
                    emit!(self, "\torq\t%rax, %rcx");
                    emit!(self, "\tcvtsi2{f}q\t%rcx, %xmm0");
                    emit!(self, "\tadd{f}\t%xmm0, %xmm0");
                    emit!(self, ".Ltmp{done}:");
                    self.store_xmm_to(0, to, dest)?;
                } else {
                    let into = self.xmm_of(dest).unwrap_or(0);
                    emit!(self, "\tcvtsi2{f}q\t%rax, %xmm{into}");
                    self.store_xmm_to(into, to, dest)?;
                }
            }
            (true, false) => {
                let f = fsuf(from);
                match to {
                    IrType::U64 | IrType::Ptr => {
                        self.load_xmm(src, from, 0)?;
                        let (big, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                        if from == IrType::F32 {
                            emit!(self, "\tmovl\t$1593835520, %eax");
                            emit!(self, "\tmovd\t%eax, %xmm1");
                            emit!(self, "\tucomiss\t%xmm1, %xmm0");
                        } else {
                            emit!(self, "\tmovabsq\t$4890909195324358656, %rax");
                            emit!(self, "\tmovq\t%rax, %xmm1");
                            emit!(self, "\tucomisd\t%xmm1, %xmm0");
                        }
                        emit!(self, "\tjae\t.Ltmp{big}");
                        emit!(self, "\tcvtt{f}2si\t%xmm0, %rax");
                        emit!(self, "\tjmp\t.Ltmp{done}");
                        emit!(self, ".Ltmp{big}:");
                        emit!(self, "\tsub{f}\t%xmm1, %xmm0");
                        emit!(self, "\tcvtt{f}2si\t%xmm0, %rax");
                        emit!(self, "\tbtcq\t$63, %rax");
                        emit!(self, ".Ltmp{done}:");
                    }
                    IrType::U32 | IrType::I64 => {
                        let x = self.xmm_source(src, from, 0)?;
                        emit!(self, "\tcvtt{f}2si\t{x}, %rax")
                    }
                    _ => {
                        let x = self.xmm_source(src, from, 0)?;
                        emit!(self, "\tcvtt{f}2si\t{x}, %eax")
                    }
                }
                self.store_sized(Gpr::Rax, to.size(), dest)?;
            }
            (true, true) => {
                if from == to {
                    self.move_value(dest, src, to)?;
                } else {
                    let into = self.xmm_of(dest).unwrap_or(0);
                    let x = self.xmm_source(src, from, into)?;
                    emit!(self, "\tcvt{}2{}\t{x}, %xmm{into}", fsuf(from), fsuf(to));
                    self.store_xmm_to(into, to, dest)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn select(
        &mut self,
        dest: Value,
        cond: &Operand,
        t: &Operand,
        f: &Operand,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let cty = self.types.of_operand(cond);
        if ty.size() > 8 {
            self.load_wide_as(t, ty, Gpr::Rax, Gpr::Rdx)?;
            self.load_wide_as(f, ty, Gpr::Rcx, Gpr::Rsi)?;
            self.load_int(cond, cty, false, Gpr::R11)?;
            emit!(self, "\ttestq\t%r11, %r11");
            emit!(self, "\tcmoveq\t%rcx, %rax");
            emit!(self, "\tcmoveq\t%rsi, %rdx");
            let m = self.slot(dest)?;
            emit!(self, "\tmovq\t%rax, {m}");
            emit!(self, "\tmovq\t%rdx, {}", m.at(8));
            return Ok(());
        }
        self.load(t, ty, Gpr::Rax)?;
        self.load(f, ty, Gpr::Rcx)?;
        self.load_int(cond, cty, false, Gpr::R11)?;
        emit!(self, "\ttestq\t%r11, %r11");
        emit!(self, "\tcmoveq\t%rcx, %rax");
        self.store_sized(Gpr::Rax, ty.size().clamp(1, 8), dest)
    }

    pub(super) fn intrinsic(
        &mut self,
        dest: Option<Value>,
        op: IntrinsicOp,
        args: &[Operand],
    ) -> Result<(), BackendError> {
        let out = match op {
            IntrinsicOp::Lfence => {
                emit!(self, "\tlfence");
                None
            }
            IntrinsicOp::Mfence => {
                emit!(self, "\tmfence");
                None
            }
            IntrinsicOp::Sfence => {
                emit!(self, "\tsfence");
                None
            }
            IntrinsicOp::Pause => {
                emit!(self, "\tpause");
                None
            }
            IntrinsicOp::Clflush => {
                let p = self.intrinsic_arg(op, args, 0)?;
                self.load_int(&p, IrType::Ptr, false, Gpr::Rax)?;
                emit!(self, "\tclflush\t(%rax)");
                None
            }
            IntrinsicOp::SqrtF32 | IntrinsicOp::SqrtF64 => {
                let ty = if op == IntrinsicOp::SqrtF32 {
                    IrType::F32
                } else {
                    IrType::F64
                };
                let a = self.intrinsic_arg(op, args, 0)?;
                self.load_xmm(&a, ty, 0)?;
                emit!(self, "\tsqrt{}\t%xmm0, %xmm0", fsuf(ty));
                emit!(self, "\tmovq\t%xmm0, %rax");
                Some(ty)
            }
            IntrinsicOp::FabsF32 => {
                let a = self.intrinsic_arg(op, args, 0)?;
                self.load_int(&a, IrType::F32, false, Gpr::Rax)?;
                emit!(self, "\tandl\t$2147483647, %eax");
                Some(IrType::F32)
            }
            IntrinsicOp::FabsF64 => {
                let a = self.intrinsic_arg(op, args, 0)?;
                self.load_int(&a, IrType::F64, false, Gpr::Rax)?;
                emit!(self, "\tbtrq\t$63, %rax");
                Some(IrType::F64)
            }
            IntrinsicOp::FrameAddress => {
                emit!(self, "\tmovq\t%rbp, %rax");
                Some(IrType::Ptr)
            }
            IntrinsicOp::ReturnAddress => {
                emit!(self, "\tmovq\t8(%rbp), %rax");
                Some(IrType::Ptr)
            }
            IntrinsicOp::ThreadPointer => {
                emit!(self, "\tmovq\t%fs:0, %rax");
                Some(IrType::Ptr)
            }
        };
        if let (Some(d), Some(ty)) = (dest, out) {
            self.store(Gpr::Rax, ty, d)?;
        }
        Ok(())
    }
}
