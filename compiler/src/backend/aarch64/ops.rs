//! Integer and floating-point arithmetic, comparisons, conversions,
//! `select` and the intrinsics. 128-bit integers and binary128
//! `long double` are in `wide`.
//!
//! Integer operands are loaded into 64-bit registers extended to 64 bits by
//! the *operation's* signedness where it matters (`sdiv`, `asr`, signed
//! compares read their operands as signed even on an unsigned type, as the
//! interpreter does), else by the type's; 32-bit and narrower operations
//! then compute in `w` registers and 64-bit ones in `x` registers, and the
//! result's low bytes are stored. Float compares use `fcmp` with condition
//! codes that are false on an unordered result (`mi ls gt ge eq`), except
//! `ne`, which is true on NaN (IEEE, like the interpreter). `popcount` uses
//! the Advanced SIMD `cnt`/`addv` pair (AArch64 has no scalar popcount
//! before FEAT_CSSC).

use super::regs::{Vr, Xr};
use super::{emit, FnEmitter};
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::intrinsics::IntrinsicOp;
use crate::ir::ops::{IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// The condition code of an integer comparison.
pub(super) fn int_cc(op: IrCmpOp) -> &'static str {
    match op {
        IrCmpOp::Eq => "eq",
        IrCmpOp::Ne => "ne",
        IrCmpOp::Slt => "lt",
        IrCmpOp::Sle => "le",
        IrCmpOp::Sgt => "gt",
        IrCmpOp::Sge => "ge",
        IrCmpOp::Ult => "lo",
        IrCmpOp::Ule => "ls",
        IrCmpOp::Ugt => "hi",
        IrCmpOp::Uge => "hs",
    }
}

/// The condition code of a floating-point comparison after `fcmp`.
pub(super) fn float_cc(op: IrCmpOp) -> &'static str {
    match op {
        IrCmpOp::Eq => "eq",
        IrCmpOp::Ne => "ne",
        IrCmpOp::Slt | IrCmpOp::Ult => "mi",
        IrCmpOp::Sle | IrCmpOp::Ule => "ls",
        IrCmpOp::Sgt | IrCmpOp::Ugt => "gt",
        IrCmpOp::Sge | IrCmpOp::Uge => "ge",
    }
}

/// Whether the comparison reads its operands as signed.
pub(super) fn cmp_is_signed(op: IrCmpOp, ty: IrType) -> bool {
    match op {
        IrCmpOp::Slt | IrCmpOp::Sle | IrCmpOp::Sgt | IrCmpOp::Sge => true,
        IrCmpOp::Ult | IrCmpOp::Ule | IrCmpOp::Ugt | IrCmpOp::Uge => false,
        IrCmpOp::Eq | IrCmpOp::Ne => ty.is_signed(),
    }
}

impl FnEmitter<'_, '_> {
    pub(super) fn binop(
        &mut self,
        dest: Value,
        op: IrBinOp,
        lhs: &Operand,
        rhs: &Operand,
        ty: IrType,
    ) -> Result<(), BackendError> {
        if ty.is_128() {
            return self.binop_wide(dest, op, lhs, rhs, ty);
        }
        if ty == IrType::F128 {
            return self.binop_f128(dest, op, lhs, rhs);
        }
        let bitwise = matches!(op, IrBinOp::And | IrBinOp::Or | IrBinOp::Xor);
        if ty.is_float() && !bitwise {
            let (a, b) = (Vr(16), Vr(17));
            if matches!(op, IrBinOp::SRem | IrBinOp::URem) {
                self.load_fp(lhs, ty, Vr(0))?;
                self.load_fp(rhs, ty, Vr(1))?;
                emit!(self, "\tbl\t{}", if ty == IrType::F32 { "fmodf" } else { "fmod" });
                return self.store_fp(Vr(0), ty, dest);
            }
            self.load_fp(lhs, ty, a)?;
            self.load_fp(rhs, ty, b)?;
            let mn = match op {
                IrBinOp::Add => "fadd",
                IrBinOp::Sub => "fsub",
                IrBinOp::Mul => "fmul",
                IrBinOp::SDiv | IrBinOp::UDiv => "fdiv",
                _ => return Err(self.internal(format!("{} on {ty}", op.name()))),
            };
            let size = ty.size();
            emit!(self, "\t{mn}\t{}, {}, {}", a.sized(size), a.sized(size), b.sized(size));
            return self.store_fp(a, ty, dest);
        }
        if ty == IrType::Void {
            return Err(self.internal("arithmetic on void"));
        }
        let wide = ty.size() > 4;
        let (a, b) = if wide { ("x9", "x10") } else { ("w9", "w10") };
        let signed = match op {
            IrBinOp::SDiv | IrBinOp::SRem | IrBinOp::AShr => true,
            IrBinOp::UDiv | IrBinOp::URem | IrBinOp::LShr => false,
            _ => ty.is_signed(),
        };
        self.load_int(lhs, ty, signed, Xr(9))?;
        let konst = rhs.as_const().map(|c| Self::const_i64(&c, ty, signed));
        match op {
            IrBinOp::Add | IrBinOp::Sub => {
                let mn = if op == IrBinOp::Add { "add" } else { "sub" };
                match konst {
                    Some(k) if (0..4096).contains(&k) => emit!(self, "\t{mn}\t{a}, {a}, #{k}"),
                    _ => {
                        self.load_int(rhs, ty, signed, Xr(10))?;
                        emit!(self, "\t{mn}\t{a}, {a}, {b}");
                    }
                }
            }
            IrBinOp::And | IrBinOp::Or | IrBinOp::Xor => {
                let mn = match op {
                    IrBinOp::And => "and",
                    IrBinOp::Or => "orr",
                    _ => "eor",
                };
                let bits = if wide { 64 } else { 32 };
                match konst {
                    Some(k) if super::regs::is_logical_imm(k as u64, bits) => {
                        let k = if wide { k } else { k as u32 as i64 };
                        emit!(self, "\t{mn}\t{a}, {a}, #{k}");
                    }
                    _ => {
                        self.load_int(rhs, ty, signed, Xr(10))?;
                        emit!(self, "\t{mn}\t{a}, {a}, {b}");
                    }
                }
            }
            IrBinOp::Mul => {
                self.load_int(rhs, ty, signed, Xr(10))?;
                emit!(self, "\tmul\t{a}, {a}, {b}");
            }
            IrBinOp::SDiv | IrBinOp::UDiv | IrBinOp::SRem | IrBinOp::URem => {
                self.load_int(rhs, ty, signed, Xr(10))?;
                let div = if signed { "sdiv" } else { "udiv" };
                let c = if wide { "x11" } else { "w11" };
                emit!(self, "\t{div}\t{c}, {a}, {b}");
                if matches!(op, IrBinOp::SRem | IrBinOp::URem) {
                    emit!(self, "\tmsub\t{a}, {c}, {b}, {a}");
                } else {
                    emit!(self, "\tmov\t{a}, {c}");
                }
            }
            IrBinOp::Shl | IrBinOp::AShr | IrBinOp::LShr => {
                let mn = match op {
                    IrBinOp::Shl => "lsl",
                    IrBinOp::AShr => "asr",
                    _ => "lsr",
                };
                // Narrow signed values shift right as their sign-extension
                // in 32 bits; everything else works on the extended register.
                match konst {
                    Some(k) => {
                        let n = k & if wide { 63 } else { 31 };
                        emit!(self, "\t{mn}\t{a}, {a}, #{n}");
                    }
                    None => {
                        self.load_int(rhs, ty, false, Xr(10))?;
                        emit!(self, "\t{mn}\t{a}, {a}, {b}");
                    }
                }
            }
        }
        self.store(Xr(9), ty, dest)
    }

    pub(super) fn unop(&mut self, dest: Value, op: IrUnaryOp, src: &Operand, ty: IrType) -> Result<(), BackendError> {
        if op == IrUnaryOp::IsConstant {
            let is_const = matches!(src, Operand::Const(_));
            self.mov_imm(Xr(9), is_const as u64);
            let m = self.slot(dest)?;
            self.store_mem(Xr(9), ty.size().clamp(1, 8), m);
            return Ok(());
        }
        if ty.is_128() {
            return self.unop_wide(dest, op, src);
        }
        if ty == IrType::F128 {
            return self.unop_f128(dest, op, src);
        }
        let wide = ty.size() > 4;
        let a = if wide { "x9" } else { "w9" };
        if ty.is_float() {
            match op {
                IrUnaryOp::Neg => {
                    self.load_fp(src, ty, Vr(16))?;
                    let r = Vr(16).sized(ty.size());
                    emit!(self, "\tfneg\t{r}, {r}");
                    return self.store_fp(Vr(16), ty, dest);
                }
                IrUnaryOp::Not => {
                    self.load_int(src, ty, false, Xr(9))?;
                    emit!(self, "\tmvn\t{a}, {a}");
                    return self.store(Xr(9), ty, dest);
                }
                _ => return Err(self.internal(format!("{} on {ty}", op.name()))),
            }
        }
        let bits = ty.bits();
        match op {
            IrUnaryOp::Neg | IrUnaryOp::Not => {
                self.load(src, ty, Xr(9))?;
                let mn = if op == IrUnaryOp::Neg { "neg" } else { "mvn" };
                emit!(self, "\t{mn}\t{a}, {a}");
            }
            IrUnaryOp::Clz => {
                self.load_int(src, ty, false, Xr(9))?;
                emit!(self, "\tclz\tx9, x9");
                if bits < 64 {
                    emit!(self, "\tsub\tx9, x9, #{}", 64 - bits);
                }
            }
            IrUnaryOp::Ctz => {
                self.load_int(src, ty, false, Xr(9))?;
                if bits < 64 {
                    // A stop bit just above the value makes ctz(0) = bits.
                    emit!(self, "\torr\tx9, x9, #{}", 1u64 << bits);
                }
                emit!(self, "\trbit\tx9, x9");
                emit!(self, "\tclz\tx9, x9");
            }
            IrUnaryOp::Popcount => {
                self.load_int(src, ty, false, Xr(9))?;
                self.popcount_x9();
            }
            IrUnaryOp::Bswap => {
                self.load(src, ty, Xr(9))?;
                match ty.size() {
                    1 => {}
                    2 => emit!(self, "\trev16\tw9, w9"),
                    4 => emit!(self, "\trev\tw9, w9"),
                    _ => emit!(self, "\trev\tx9, x9"),
                }
            }
            IrUnaryOp::IsConstant => unreachable!("handled above"),
        }
        self.store(Xr(9), ty, dest)
    }

    /// `x9 = popcount(x9)`.
    pub(super) fn popcount_x9(&mut self) {
        emit!(self, "\tfmov\td16, x9");
        emit!(self, "\tcnt\tv16.8b, v16.8b");
        emit!(self, "\taddv\tb16, v16.8b");
        emit!(self, "\tfmov\tw9, s16");
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
            self.cmp_f128(op, lhs, rhs)?;
        } else if ty.is_float() {
            self.load_fp(lhs, ty, Vr(16))?;
            self.load_fp(rhs, ty, Vr(17))?;
            let size = ty.size();
            emit!(self, "\tfcmp\t{}, {}", Vr(16).sized(size), Vr(17).sized(size));
            emit!(self, "\tcset\tw9, {}", float_cc(op));
        } else {
            if ty == IrType::Void {
                return Err(self.internal("comparison of void"));
            }
            let signed = cmp_is_signed(op, ty);
            self.load_int(lhs, ty, signed, Xr(9))?;
            match rhs.as_const().map(|c| Self::const_i64(&c, ty, signed)) {
                Some(k) if (0..4096).contains(&k) => emit!(self, "\tcmp\tx9, #{k}"),
                Some(k) if (-4095..0).contains(&k) => emit!(self, "\tcmn\tx9, #{}", -k),
                _ => {
                    self.load_int(rhs, ty, signed, Xr(10))?;
                    emit!(self, "\tcmp\tx9, x10");
                }
            }
            emit!(self, "\tcset\tw9, {}", int_cc(op));
        }
        let m = self.slot(dest)?;
        self.store_mem(Xr(9), 1, m);
        Ok(())
    }

    pub(super) fn cast(&mut self, dest: Value, src: &Operand, from: IrType, to: IrType) -> Result<(), BackendError> {
        if from == IrType::Void || to == IrType::Void {
            return Err(self.internal("cast from or to void"));
        }
        if from.is_128() || to.is_128() || from == IrType::F128 || to == IrType::F128 {
            return self.cast_wide(dest, src, from, to);
        }
        match (from.is_float(), to.is_float()) {
            (false, false) => {
                self.load(src, from, Xr(9))?;
                self.store(Xr(9), to, dest)?;
            }
            (false, true) => {
                self.load(src, from, Xr(9))?;
                let mn = if from.is_signed() { "scvtf" } else { "ucvtf" };
                emit!(self, "\t{mn}\t{}, x9", Vr(16).sized(to.size()));
                self.store_fp(Vr(16), to, dest)?;
            }
            (true, false) => {
                // Truncation toward zero, then the integer wraps to the
                // target width (as the interpreter and x86-64 do; out of
                // range is undefined in C): a 64-bit signed conversion
                // covers every narrower type, and u64 takes the unsigned
                // conversion for non-negative values only.
                self.load_fp(src, from, Vr(16))?;
                let v = Vr(16).sized(from.size());
                emit!(self, "\tfcvtzs\tx9, {v}");
                if matches!(to, IrType::U64 | IrType::Ptr) {
                    emit!(self, "\tfcvtzu\tx10, {v}");
                    emit!(self, "\tfcmp\t{v}, #0.0");
                    emit!(self, "\tcsel\tx9, x10, x9, ge");
                }
                self.store(Xr(9), to, dest)?;
            }
            (true, true) => {
                if from == to {
                    let m = self.slot(dest)?;
                    self.store_operand(src, to, m)?;
                } else {
                    self.load_fp(src, from, Vr(16))?;
                    emit!(
                        self,
                        "\tfcvt\t{}, {}",
                        Vr(16).sized(to.size()),
                        Vr(16).sized(from.size())
                    );
                    self.store_fp(Vr(16), to, dest)?;
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
        let m = self.slot(dest)?;
        if let Some(c) = cond.as_const() {
            let pick = if c.is_nonzero() { t } else { f };
            return self.store_operand(pick, ty, m);
        }
        let cty = self.types.of_operand(cond);
        if ty.size() > 8 {
            self.load_pair_as(t, ty, Xr(9), Xr(10))?;
            self.load_pair_as(f, ty, Xr(11), Xr(12))?;
            self.load_int(cond, cty, false, Xr(13))?;
            emit!(self, "\tcmp\tx13, #0");
            emit!(self, "\tcsel\tx9, x9, x11, ne");
            emit!(self, "\tcsel\tx10, x10, x12, ne");
            self.store_mem(Xr(9), 8, m);
            self.store_mem(Xr(10), 8, m.at(8));
            return Ok(());
        }
        self.load(t, ty, Xr(9))?;
        self.load(f, ty, Xr(10))?;
        self.load_int(cond, cty, false, Xr(13))?;
        emit!(self, "\tcmp\tx13, #0");
        emit!(self, "\tcsel\tx9, x9, x10, ne");
        self.store_mem(Xr(9), ty.size().clamp(1, 8), m);
        Ok(())
    }

    pub(super) fn intrinsic(
        &mut self,
        dest: Option<Value>,
        op: IntrinsicOp,
        args: &[Operand],
    ) -> Result<(), BackendError> {
        let arg = |i: usize| args.get(i).copied();
        let need =
            |s: &Self, i: usize| arg(i).ok_or_else(|| s.internal(format!("intrinsic {} needs an argument", op.name())));
        match op {
            IntrinsicOp::Lfence => emit!(self, "\tdmb\tishld"),
            IntrinsicOp::Mfence => emit!(self, "\tdmb\tish"),
            IntrinsicOp::Sfence => emit!(self, "\tdmb\tishst"),
            IntrinsicOp::Pause => emit!(self, "\tyield"),
            IntrinsicOp::Clflush => {
                let p = need(self, 0)?;
                self.load_int(&p, IrType::Ptr, false, Xr(9))?;
                emit!(self, "\tdc\tcivac, x9");
            }
            IntrinsicOp::SqrtF32 | IntrinsicOp::SqrtF64 | IntrinsicOp::FabsF32 | IntrinsicOp::FabsF64 => {
                let ty = if matches!(op, IntrinsicOp::SqrtF32 | IntrinsicOp::FabsF32) {
                    IrType::F32
                } else {
                    IrType::F64
                };
                let a = need(self, 0)?;
                self.load_fp(&a, ty, Vr(16))?;
                let r = Vr(16).sized(ty.size());
                let mn = if matches!(op, IntrinsicOp::SqrtF32 | IntrinsicOp::SqrtF64) {
                    "fsqrt"
                } else {
                    "fabs"
                };
                emit!(self, "\t{mn}\t{r}, {r}");
                if let Some(d) = dest {
                    self.store_fp(Vr(16), ty, d)?;
                }
                return Ok(());
            }
            IntrinsicOp::FrameAddress => emit!(self, "\tmov\tx9, x29"),
            IntrinsicOp::ReturnAddress => emit!(self, "\tldr\tx9, [x29, #8]"),
            IntrinsicOp::ThreadPointer => emit!(self, "\tmrs\tx9, tpidr_el0"),
        }
        if let (Some(d), Some(ty)) = (dest, op.result_type()) {
            self.store(Xr(9), ty, d)?;
        }
        Ok(())
    }
}
