//! Integer and floating-point arithmetic, comparisons, conversions,
//! `select` and the intrinsics. 128-bit integers and binary128
//! `long double` are in `wide`.
//!
//! Integer operands are loaded into 64-bit registers extended to 64 bits by
//! the *operation's* signedness where it matters (`sdiv`, `asr`, signed
//! compares read their operands as signed even on an unsigned type, as the
//! interpreter does), else by the type's; 32-bit and narrower operations
//! then compute in `w` registers and 64-bit ones in `x` registers, and the
//! result's low bytes are stored. Operands in home registers are read in
//! place when the operation's result depends only on their low bytes (or
//! the type is 4 or 8 bytes, where the `w`/`x` form reads exactly the
//! value), and results are computed straight into the destination's home
//! register when it has one. Multiplication and unsigned division and
//! remainder by `2^j` are `lsl`/`lsr`/`and`, and adding a small negative
//! constant is `sub`. A compare whose only reader is its block's
//! conditional branch only sets the flags (the branch tests them). Float
//! compares use `fcmp` with condition
//! codes that are false on an unordered result (`mi ls gt ge eq`), except
//! `ne`, which is true on NaN (IEEE, like the interpreter). `popcount` uses
//! the Advanced SIMD `cnt`/`addv` pair (AArch64 has no scalar popcount
//! before FEAT_CSSC).

use super::regs::{Vr, Xr};
use super::{emit, FnEmitter};
use crate::backend::isel::cmp_is_signed;
use crate::backend::isel::EmitterBase;
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

/// `j` when `k` is `2^j` with `1 <= j < ` the operation's width (32 for
/// types of at most 4 bytes, else 64).
fn pow2(k: i64, ty: IrType) -> Option<u32> {
    let width = if ty.size() > 4 { 64 } else { 32 };
    let k = if width == 32 { k as u32 as u64 } else { k as u64 };
    (k.is_power_of_two() && k > 1 && k.trailing_zeros() < width).then(|| k.trailing_zeros())
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
        let bitwise = matches!(op, IrBinOp::And | IrBinOp::Or | IrBinOp::Xor);
        if ty.is_float() && !bitwise {
            if matches!(op, IrBinOp::SRem | IrBinOp::URem) {
                self.load_fp(lhs, ty, Vr(0))?;
                self.load_fp(rhs, ty, Vr(1))?;
                emit!(self, "\tbl\t{}", if ty == IrType::F32 { "fmodf" } else { "fmod" });
                return self.store_fp(Vr(0), ty, dest);
            }
            let a = self.fp_operand(lhs, ty, Vr(16))?;
            let b = self.fp_operand(rhs, ty, Vr(17))?;
            let d = self.fp_dest(dest, Vr(16));
            let mn = match op {
                IrBinOp::Add => "fadd",
                IrBinOp::Sub => "fsub",
                IrBinOp::Mul => "fmul",
                IrBinOp::SDiv | IrBinOp::UDiv => "fdiv",
                _ => return Err(self.internal(format!("{} on {ty}", op.name()))),
            };
            let size = ty.size();
            emit!(self, "\t{mn}\t{}, {}, {}", d.sized(size), a.sized(size), b.sized(size));
            return self.store_fp(d, ty, dest);
        }
        if ty == IrType::Void {
            return Err(self.internal("arithmetic on void"));
        }
        let wide = ty.size() > 4;
        let name = |r: Xr| if wide { r.x() } else { r.w() };
        let signed = match op {
            IrBinOp::SDiv | IrBinOp::SRem | IrBinOp::AShr => true,
            IrBinOp::UDiv | IrBinOp::URem | IrBinOp::LShr => false,
            _ => ty.is_signed(),
        };
        // Whether the result's low bytes depend only on the operands' low
        // bytes (then home registers are read as they are); a 4-byte type
        // computes in `w` registers, which read exactly the value.
        let low_bits_only = matches!(
            op,
            IrBinOp::Add | IrBinOp::Sub | IrBinOp::Mul | IrBinOp::And | IrBinOp::Or | IrBinOp::Xor | IrBinOp::Shl
        );
        let raw = low_bits_only || ty.size() == 4;
        let d = self.int_dest(dest, Xr(9));
        let l = self.int_operand(lhs, ty, signed, Xr(9), raw)?;
        // Adding or subtracting is the same modulo the width whatever the
        // signedness: such a constant is read sign-extended, so that
        // `x + 0xffffffffu` is `sub w, w, #1`.
        let modular = matches!(op, IrBinOp::Add | IrBinOp::Sub);
        let mut konst = rhs.as_const().map(|c| Self::const_i64(&c, ty, signed || modular));
        if modular && crate::inject::enabled(crate::inject::Bug::ModularImmFrom32Bits) {
            konst = konst.map(|k| k as i32 as i64);
        }
        let (dn, ln) = (name(d), name(l));
        match op {
            IrBinOp::Add | IrBinOp::Sub => {
                let (mn, neg) = if op == IrBinOp::Add {
                    ("add", "sub")
                } else {
                    ("sub", "add")
                };
                match konst {
                    Some(k) if (0..4096).contains(&k) => emit!(self, "\t{mn}\t{dn}, {ln}, #{k}"),
                    // Adding -k is subtracting k (modulo the width).
                    Some(k) if (-4095..0).contains(&k) => emit!(self, "\t{neg}\t{dn}, {ln}, #{}", -k),
                    _ => {
                        let r = self.int_operand(rhs, ty, signed, Xr(10), raw)?;
                        emit!(self, "\t{mn}\t{dn}, {ln}, {}", name(r));
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
                        emit!(self, "\t{mn}\t{dn}, {ln}, #{k}");
                    }
                    _ => {
                        let r = self.int_operand(rhs, ty, signed, Xr(10), raw)?;
                        emit!(self, "\t{mn}\t{dn}, {ln}, {}", name(r));
                    }
                }
            }
            IrBinOp::Mul => match konst.and_then(|k| pow2(k, ty)) {
                Some(j) => emit!(self, "\tlsl\t{dn}, {ln}, #{j}"),
                None => {
                    let r = self.int_operand(rhs, ty, signed, Xr(10), raw)?;
                    emit!(self, "\tmul\t{dn}, {ln}, {}", name(r));
                }
            },
            // Unsigned division and remainder by 2^j (j >= 1): a shift and a mask.
            IrBinOp::UDiv if konst.and_then(|k| pow2(k, ty)).is_some() => {
                let j = konst.and_then(|k| pow2(k, ty)).unwrap_or(0);
                emit!(self, "\tlsr\t{dn}, {ln}, #{j}");
            }
            IrBinOp::URem if konst.and_then(|k| pow2(k, ty)).is_some() => {
                let j = konst.and_then(|k| pow2(k, ty)).unwrap_or(0);
                let mask = (1u64 << j) - 1;
                emit!(self, "\tand\t{dn}, {ln}, #{mask}");
            }
            IrBinOp::SDiv | IrBinOp::UDiv | IrBinOp::SRem | IrBinOp::URem => {
                let r = self.int_operand(rhs, ty, signed, Xr(10), raw)?;
                let rn = name(r);
                let div = if signed { "sdiv" } else { "udiv" };
                if matches!(op, IrBinOp::SRem | IrBinOp::URem) {
                    let c = name(Xr(11));
                    emit!(self, "\t{div}\t{c}, {ln}, {rn}");
                    emit!(self, "\tmsub\t{dn}, {c}, {rn}, {ln}");
                } else {
                    emit!(self, "\t{div}\t{dn}, {ln}, {rn}");
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
                        emit!(self, "\t{mn}\t{dn}, {ln}, #{n}");
                    }
                    None => {
                        // The count's low bits are all the shift reads.
                        let r = self.int_operand(rhs, ty, false, Xr(10), true)?;
                        emit!(self, "\t{mn}\t{dn}, {ln}, {}", name(r));
                    }
                }
            }
        }
        self.store(d, ty, dest)
    }

    pub(super) fn unop(&mut self, dest: Value, op: IrUnaryOp, src: &Operand, ty: IrType) -> Result<(), BackendError> {
        if op == IrUnaryOp::IsConstant {
            let is_const = matches!(src, Operand::Const(_));
            let d = self.int_dest(dest, Xr(9));
            self.mov_imm(d, is_const as u64);
            return self.store_sized(d, ty.size().clamp(1, 8), dest);
        }
        let wide = ty.size() > 4;
        let a = if wide { "x9" } else { "w9" };
        let name = |r: Xr| if wide { r.x() } else { r.w() };
        if ty.is_float() {
            match op {
                IrUnaryOp::Neg => {
                    let s = self.fp_operand(src, ty, Vr(16))?;
                    let d = self.fp_dest(dest, Vr(16));
                    emit!(self, "\tfneg\t{}, {}", d.sized(ty.size()), s.sized(ty.size()));
                    return self.store_fp(d, ty, dest);
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
        let d = self.int_dest(dest, Xr(9));
        let dn = name(d);
        match op {
            IrUnaryOp::Neg | IrUnaryOp::Not => {
                // The low bytes of the result depend only on the operand's.
                let s = self.int_operand(src, ty, ty.is_signed(), Xr(9), true)?;
                let mn = if op == IrUnaryOp::Neg { "neg" } else { "mvn" };
                emit!(self, "\t{mn}\t{dn}, {}", name(s));
            }
            IrUnaryOp::Clz if bits == 32 || bits == 64 => {
                let s = self.int_operand(src, ty, false, Xr(9), true)?;
                emit!(self, "\tclz\t{dn}, {}", name(s));
            }
            IrUnaryOp::Ctz if bits == 32 || bits == 64 => {
                let s = self.int_operand(src, ty, false, Xr(9), true)?;
                emit!(self, "\trbit\t{dn}, {}", name(s));
                emit!(self, "\tclz\t{dn}, {dn}");
            }
            IrUnaryOp::Clz => {
                self.load_int(src, ty, false, Xr(9))?;
                emit!(self, "\tclz\tx9, x9");
                if bits < 64 {
                    emit!(self, "\tsub\t{}, x9, #{}", d.x(), 64 - bits);
                }
            }
            IrUnaryOp::Ctz => {
                self.load_int(src, ty, false, Xr(9))?;
                if bits < 64 {
                    // A stop bit just above the value makes ctz(0) = bits.
                    emit!(self, "\torr\tx9, x9, #{}", 1u64 << bits);
                }
                emit!(self, "\trbit\tx9, x9");
                emit!(self, "\tclz\t{}, x9", d.x());
            }
            IrUnaryOp::Popcount => {
                self.load_int(src, ty, false, Xr(9))?;
                self.popcount_x9();
                return self.store(Xr(9), ty, dest);
            }
            IrUnaryOp::Bswap => {
                // Each byte of the result is one of the operand's low bytes.
                let s = self.int_operand(src, ty, false, Xr(9), true)?;
                match ty.size() {
                    1 => return self.store(s, ty, dest),
                    2 => emit!(self, "\trev16\t{}, {}", d.w(), s.w()),
                    4 => emit!(self, "\trev\t{}, {}", d.w(), s.w()),
                    _ => emit!(self, "\trev\t{}, {}", d.x(), s.x()),
                }
            }
            IrUnaryOp::IsConstant => unreachable!("handled above"),
        }
        self.store(d, ty, dest)
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
        let cc = if ty.is_128() {
            self.cmp_wide(op, lhs, rhs, ty)?
        } else if ty == IrType::F128 {
            self.cmp_f128(op, lhs, rhs)?
        } else if ty.is_float() {
            let a = self.fp_operand(lhs, ty, Vr(16))?;
            let b = self.fp_operand(rhs, ty, Vr(17))?;
            let size = ty.size();
            emit!(self, "\tfcmp\t{}, {}", a.sized(size), b.sized(size));
            float_cc(op)
        } else {
            if ty == IrType::Void {
                return Err(self.internal("comparison of void"));
            }
            let signed = cmp_is_signed(op, ty);
            // Operands extended to 64 bits compare the same in `w` form
            // when the type has at most 4 bytes; a 4- or 8-byte value is
            // compared in place in its home register.
            let name = |r: Xr| if ty.size() > 4 { r.x() } else { r.w() };
            let raw = ty.size() == 4;
            let l = self.int_operand(lhs, ty, signed, Xr(9), raw)?;
            let ln = name(l);
            match rhs.as_const().map(|c| Self::const_i64(&c, ty, signed)) {
                Some(k) if (0..4096).contains(&k) => emit!(self, "\tcmp\t{ln}, #{k}"),
                Some(k) if (-4095..0).contains(&k) => emit!(self, "\tcmn\t{ln}, #{}", -k),
                _ => {
                    let r = self.int_operand(rhs, ty, signed, Xr(10), raw)?;
                    emit!(self, "\tcmp\t{ln}, {}", name(r));
                }
            }
            int_cc(op)
        };
        if self.fused_compares.contains(&dest) {
            // Only the block's conditional branch reads the result: it
            // branches on the flags ([`FnEmitter::pending_cc`]).
            self.pending_cc = Some((dest, cc));
            return Ok(());
        }
        let d = self.int_dest(dest, Xr(9));
        emit!(self, "\tcset\t{}, {cc}", d.w());
        self.store_sized(d, 1, dest)
    }

    pub(super) fn cast(&mut self, dest: Value, src: &Operand, from: IrType, to: IrType) -> Result<(), BackendError> {
        match (from.is_float(), to.is_float()) {
            (false, false) => {
                // Narrowing (or same-width) reads the low bytes as they are.
                if to.size() <= from.size() {
                    if let Operand::Value(v) = src {
                        if self.xreg_of(*v).is_some() {
                            return self.move_value(dest, src, to);
                        }
                    }
                }
                let d = self.int_dest(dest, Xr(9));
                self.load(src, from, d)?;
                self.store(d, to, dest)?;
            }
            (false, true) => {
                // `w` form on a 4-byte value, else extended to 64 bits.
                let s = self.int_operand(src, from, from.is_signed(), Xr(9), from.size() == 4)?;
                let sn = if from.size() == 4 && s != Xr(9) { s.w() } else { s.x() };
                let mn = if from.is_signed() { "scvtf" } else { "ucvtf" };
                let d = self.fp_dest(dest, Vr(16));
                emit!(self, "\t{mn}\t{}, {sn}", d.sized(to.size()));
                self.store_fp(d, to, dest)?;
            }
            (true, false) => {
                // Truncation toward zero, then the integer wraps to the
                // target width (as the interpreter and x86-64 do; out of
                // range is undefined in C): a 64-bit signed conversion
                // covers every narrower type, and u64 takes the unsigned
                // conversion for non-negative values only.
                let s = self.fp_operand(src, from, Vr(16))?;
                let v = s.sized(from.size());
                let d = self.int_dest(dest, Xr(9));
                if matches!(to, IrType::U64 | IrType::Ptr) {
                    emit!(self, "\tfcvtzs\tx9, {v}");
                    emit!(self, "\tfcvtzu\tx10, {v}");
                    emit!(self, "\tfcmp\t{v}, #0.0");
                    emit!(self, "\tcsel\t{}, x10, x9, ge", d.x());
                } else {
                    emit!(self, "\tfcvtzs\t{}, {v}", d.x());
                }
                self.store(d, to, dest)?;
            }
            (true, true) => {
                if from == to {
                    self.move_value(dest, src, to)?;
                } else {
                    let s = self.fp_operand(src, from, Vr(16))?;
                    let d = self.fp_dest(dest, Vr(16));
                    emit!(self, "\tfcvt\t{}, {}", d.sized(to.size()), s.sized(from.size()));
                    self.store_fp(d, to, dest)?;
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
        if ty.size() > 8 {
            let cty = self.types.of_operand(cond);
            let m = self.slot(dest)?;
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
        // The flags first (`ne`: the condition holds); loading the two
        // sides (moves, loads, address arithmetic) leaves them intact.
        if let Some(c) = self.load_cond(cond)? {
            let pick = if c { t } else { f };
            return self.move_value(dest, pick, ty);
        }
        if ty.is_float() {
            if let Some(dv) = self.vreg_of(dest) {
                let a = self.fp_operand(t, ty, Vr(16))?;
                let b = self.fp_operand(f, ty, Vr(17))?;
                emit!(self, "\tfcsel\t{}, {}, {}, ne", dv.d(), a.d(), b.d());
                return Ok(());
            }
        }
        // The low bytes of either side are all the result keeps.
        let a = self.int_operand(t, ty, ty.is_signed(), Xr(9), true)?;
        let b = self.int_operand(f, ty, ty.is_signed(), Xr(10), true)?;
        let d = self.int_dest(dest, Xr(9));
        emit!(self, "\tcsel\t{}, {}, {}, ne", d.x(), a.x(), b.x());
        self.store_sized(d, ty.size().clamp(1, 8), dest)
    }

    pub(super) fn intrinsic(
        &mut self,
        dest: Option<Value>,
        op: IntrinsicOp,
        args: &[Operand],
    ) -> Result<(), BackendError> {
        match op {
            IntrinsicOp::Lfence => emit!(self, "\tdmb\tishld"),
            IntrinsicOp::Mfence => emit!(self, "\tdmb\tish"),
            IntrinsicOp::Sfence => emit!(self, "\tdmb\tishst"),
            IntrinsicOp::Pause => emit!(self, "\tyield"),
            IntrinsicOp::Clflush => {
                let p = self.intrinsic_arg(op, args, 0)?;
                self.load_int(&p, IrType::Ptr, false, Xr(9))?;
                emit!(self, "\tdc\tcivac, x9");
            }
            IntrinsicOp::SqrtF32 | IntrinsicOp::SqrtF64 | IntrinsicOp::FabsF32 | IntrinsicOp::FabsF64 => {
                let ty = if matches!(op, IntrinsicOp::SqrtF32 | IntrinsicOp::FabsF32) {
                    IrType::F32
                } else {
                    IrType::F64
                };
                let a = self.intrinsic_arg(op, args, 0)?;
                let s = self.fp_operand(&a, ty, Vr(16))?;
                let d = match dest {
                    Some(d) => self.fp_dest(d, Vr(16)),
                    None => Vr(16),
                };
                let mn = if matches!(op, IntrinsicOp::SqrtF32 | IntrinsicOp::SqrtF64) {
                    "fsqrt"
                } else {
                    "fabs"
                };
                emit!(self, "\t{mn}\t{}, {}", d.sized(ty.size()), s.sized(ty.size()));
                if let Some(dv) = dest {
                    self.store_fp(d, ty, dv)?;
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
