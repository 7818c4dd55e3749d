//! `__int128` and IEEE binary128 `long double` (IR `i128`/`u128` and `f128`).
//!
//! 128-bit integers live in 16-byte slots and compute in register pairs
//! (`x9:x10` low:high, second operand `x11:x12`): `adds`/`adc`,
//! `subs`/`sbc`, a `mul`/`umulh`/`madd` product, shifts built from both
//! halves and selected on bit 6 of the count, compares through `cmp`/`sbcs`
//! (ordered) or `cmp`/`ccmp` (equality). Division and conversions to and
//! from floating point call libgcc (`__divti3 __udivti3 __modti3
//! __umodti3`, `__float[un]ti[sd]f`, `__fix[uns][sd]fti`), as gcc does.
//!
//! AArch64 has no binary128 arithmetic, so `long double` goes through the
//! libgcc soft-float routines exactly as gcc compiles it: `__addtf3
//! __subtf3 __multf3 __divtf3`, the comparisons `__eqtf2 __netf2 __lttf2
//! __letf2 __gttf2 __getf2` (each returns an integer to compare with 0, with
//! the unordered case on the false side), conversions `__extend[sd]ftf2`,
//! `__trunctf[sd]f2`, `__fixtf[dt]i`, `__fixunstfti`, `__float[un][sdt]itf`; the
//! remainder is libm's `fmodl`. Arguments travel in `q0`/`q1`, results in
//! `q0` (AAPCS64). Negation flips the sign bit in the integer registers.

use super::regs::{Vr, Xr};
use super::{emit, FnEmitter};
use crate::backend::isel::EmitterBase;
use crate::backend::wide::{self, WideCast};
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::ops::{IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::IrType;
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    fn call_helper(&mut self, name: &str) {
        emit!(self, "\tbl\t{name}");
    }

    pub(super) fn binop_wide(
        &mut self,
        dest: Value,
        op: IrBinOp,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Result<(), BackendError> {
        match op {
            IrBinOp::SDiv | IrBinOp::UDiv | IrBinOp::SRem | IrBinOp::URem => {
                self.load_pair(lhs, Xr(0), Xr(1))?;
                self.load_pair(rhs, Xr(2), Xr(3))?;
                self.call_helper(wide::divmod_helper(op));
                return self.store_pair(Xr(0), Xr(1), dest);
            }
            IrBinOp::Shl | IrBinOp::LShr | IrBinOp::AShr => {
                self.load_pair(lhs, Xr(9), Xr(10))?;
                self.load_int(rhs, IrType::U64, false, Xr(11))?;
                self.shift_wide(op);
                return self.store_pair(Xr(9), Xr(10), dest);
            }
            _ => {}
        }
        self.load_pair(lhs, Xr(9), Xr(10))?;
        self.load_pair(rhs, Xr(11), Xr(12))?;
        match op {
            IrBinOp::Add => {
                emit!(self, "\tadds\tx9, x9, x11");
                emit!(self, "\tadc\tx10, x10, x12");
            }
            IrBinOp::Sub => {
                emit!(self, "\tsubs\tx9, x9, x11");
                emit!(self, "\tsbc\tx10, x10, x12");
            }
            IrBinOp::And | IrBinOp::Or | IrBinOp::Xor => {
                let mn = match op {
                    IrBinOp::And => "and",
                    IrBinOp::Or => "orr",
                    _ => "eor",
                };
                emit!(self, "\t{mn}\tx9, x9, x11");
                emit!(self, "\t{mn}\tx10, x10, x12");
            }
            IrBinOp::Mul => {
                // (a1:a0)(b1:b0) mod 2^128 = a0*b0 + ((a0*b1 + a1*b0 + hi(a0*b0)) << 64).
                emit!(self, "\tumulh\tx13, x9, x11");
                emit!(self, "\tmadd\tx13, x9, x12, x13");
                emit!(self, "\tmadd\tx10, x10, x11, x13");
                emit!(self, "\tmul\tx9, x9, x11");
            }
            _ => unreachable!("handled above"),
        }
        self.store_pair(Xr(9), Xr(10), dest)
    }

    /// Shifts `x9:x10` by `x11` (0..=127).
    fn shift_wide(&mut self, op: IrBinOp) {
        emit!(self, "\tmvn\tw14, w11"); // 63 - n (mod 64)
        match op {
            IrBinOp::Shl => {
                // n < 64: hi = hi << n | lo >> (64 - n), lo = lo << n
                emit!(self, "\tlsl\tx13, x10, x11");
                emit!(self, "\tlsr\tx15, x9, #1");
                emit!(self, "\tlsr\tx15, x15, x14");
                emit!(self, "\torr\tx13, x13, x15");
                emit!(self, "\tlsl\tx14, x9, x11");
                emit!(self, "\ttst\tx11, #64");
                emit!(self, "\tcsel\tx10, x14, x13, ne");
                emit!(self, "\tcsel\tx9, xzr, x14, ne");
            }
            _ => {
                // n < 64: lo = lo >> n | hi << (64 - n), hi = hi >> n
                let hi_shift = if op == IrBinOp::AShr { "asr" } else { "lsr" };
                emit!(self, "\tlsr\tx13, x9, x11");
                emit!(self, "\tlsl\tx15, x10, #1");
                emit!(self, "\tlsl\tx15, x15, x14");
                emit!(self, "\torr\tx13, x13, x15");
                emit!(self, "\t{hi_shift}\tx14, x10, x11");
                if op == IrBinOp::AShr {
                    emit!(self, "\tasr\tx15, x10, #63");
                } else {
                    emit!(self, "\tmov\tx15, xzr");
                }
                emit!(self, "\ttst\tx11, #64");
                emit!(self, "\tcsel\tx9, x14, x13, ne");
                emit!(self, "\tcsel\tx10, x15, x14, ne");
            }
        }
    }

    pub(super) fn unop_wide(&mut self, dest: Value, op: IrUnaryOp, src: &Operand) -> Result<(), BackendError> {
        self.load_pair(src, Xr(9), Xr(10))?;
        match op {
            IrUnaryOp::Neg => {
                emit!(self, "\tnegs\tx9, x9");
                emit!(self, "\tngc\tx10, x10");
            }
            IrUnaryOp::Not => {
                emit!(self, "\tmvn\tx9, x9");
                emit!(self, "\tmvn\tx10, x10");
            }
            IrUnaryOp::Bswap => {
                emit!(self, "\trev\tx11, x9");
                emit!(self, "\trev\tx9, x10");
                emit!(self, "\tmov\tx10, x11");
            }
            IrUnaryOp::Clz => {
                // hi != 0 ? clz(hi) : 64 + clz(lo)
                emit!(self, "\tclz\tx11, x10");
                emit!(self, "\tclz\tx12, x9");
                emit!(self, "\tadd\tx12, x12, #64");
                emit!(self, "\tcmp\tx10, #0");
                emit!(self, "\tcsel\tx9, x11, x12, ne");
                emit!(self, "\tmov\tx10, xzr");
            }
            IrUnaryOp::Ctz => {
                // lo != 0 ? ctz(lo) : 64 + ctz(hi)
                emit!(self, "\trbit\tx11, x9");
                emit!(self, "\tclz\tx11, x11");
                emit!(self, "\trbit\tx12, x10");
                emit!(self, "\tclz\tx12, x12");
                emit!(self, "\tadd\tx12, x12, #64");
                emit!(self, "\tcmp\tx9, #0");
                emit!(self, "\tcsel\tx9, x11, x12, ne");
                emit!(self, "\tmov\tx10, xzr");
            }
            IrUnaryOp::Popcount => {
                emit!(self, "\tfmov\td16, x9");
                emit!(self, "\tfmov\tv16.d[1], x10");
                emit!(self, "\tcnt\tv16.16b, v16.16b");
                emit!(self, "\taddv\tb16, v16.16b");
                emit!(self, "\tfmov\tw9, s16");
                emit!(self, "\tmov\tx10, xzr");
            }
            IrUnaryOp::IsConstant => unreachable!("handled by unop"),
        }
        self.store_pair(Xr(9), Xr(10), dest)
    }

    /// Sets the flags; returns the condition code that holds when the
    /// comparison is true.
    pub(super) fn cmp_wide(
        &mut self,
        op: IrCmpOp,
        lhs: &Operand,
        rhs: &Operand,
        ty: IrType,
    ) -> Result<&'static str, BackendError> {
        let signed = crate::backend::isel::cmp_is_signed(op, ty);
        match op {
            IrCmpOp::Eq | IrCmpOp::Ne => {
                self.load_pair(lhs, Xr(9), Xr(10))?;
                self.load_pair(rhs, Xr(11), Xr(12))?;
                emit!(self, "\tcmp\tx9, x11");
                emit!(self, "\tccmp\tx10, x12, #0, eq");
                Ok(if op == IrCmpOp::Eq { "eq" } else { "ne" })
            }
            _ => {
                // x - y over both halves gives "x < y" (lt/lo) and "x >= y" (ge/hs).
                let (x, y, lt) = wide::ordered_operands(op, lhs, rhs);
                self.load_pair(x, Xr(9), Xr(10))?;
                self.load_pair(y, Xr(11), Xr(12))?;
                emit!(self, "\tcmp\tx9, x11");
                emit!(self, "\tsbcs\txzr, x10, x12");
                Ok(match (lt, signed) {
                    (true, true) => "lt",
                    (true, false) => "lo",
                    (false, true) => "ge",
                    (false, false) => "hs",
                })
            }
        }
    }

    pub(super) fn binop_f128(
        &mut self,
        dest: Value,
        op: IrBinOp,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Result<(), BackendError> {
        let Some(f) = wide::tf_binop_helper(op) else {
            return Err(self.internal(format!("{} on f128", op.name())));
        };
        self.load_fp(lhs, IrType::F128, Vr(0))?;
        self.load_fp(rhs, IrType::F128, Vr(1))?;
        self.call_helper(f);
        self.store_fp(Vr(0), IrType::F128, dest)
    }

    pub(super) fn unop_f128(&mut self, dest: Value, op: IrUnaryOp, src: &Operand) -> Result<(), BackendError> {
        if op != IrUnaryOp::Neg {
            return Err(self.internal(format!("{} on f128", op.name())));
        }
        self.load_pair_as(src, IrType::F128, Xr(9), Xr(10))?;
        emit!(self, "\teor\tx10, x10, #0x8000000000000000");
        self.store_pair(Xr(9), Xr(10), dest)
    }

    /// Sets the flags; returns the condition code that holds when the
    /// comparison is true.
    pub(super) fn cmp_f128(&mut self, op: IrCmpOp, lhs: &Operand, rhs: &Operand) -> Result<&'static str, BackendError> {
        self.load_fp(lhs, IrType::F128, Vr(0))?;
        self.load_fp(rhs, IrType::F128, Vr(1))?;
        let cc = match op {
            IrCmpOp::Eq => "eq",
            IrCmpOp::Ne => "ne",
            IrCmpOp::Slt | IrCmpOp::Ult => "lt",
            IrCmpOp::Sle | IrCmpOp::Ule => "le",
            IrCmpOp::Sgt | IrCmpOp::Ugt => "gt",
            IrCmpOp::Sge | IrCmpOp::Uge => "ge",
        };
        self.call_helper(wide::tf_cmp_helper(op));
        emit!(self, "\tcmp\tw0, #0");
        Ok(cc)
    }

    /// Conversions where either side is 128-bit or `long double`.
    pub(super) fn cast_wide(
        &mut self,
        dest: Value,
        src: &Operand,
        from: IrType,
        to: IrType,
    ) -> Result<(), BackendError> {
        let (f, t) = (from, to);
        match wide::classify_cast(from, to) {
            Some(WideCast::Move) => self.move_value(dest, src, to)?,
            Some(WideCast::IntToWide) => {
                self.load(src, f, Xr(9))?;
                if f.is_signed() {
                    emit!(self, "\tasr\tx10, x9, #63");
                } else {
                    emit!(self, "\tmov\tx10, xzr");
                }
                self.store_pair(Xr(9), Xr(10), dest)?;
            }
            Some(WideCast::WideToInt) => {
                self.load_pair(src, Xr(9), Xr(10))?;
                self.store(Xr(9), t, dest)?;
            }
            Some(WideCast::WideToFloat) => {
                self.load_pair(src, Xr(0), Xr(1))?;
                self.call_helper(&wide::float_from_ti(f.is_signed(), to, Self::LONG_DOUBLE));
                self.store_fp(Vr(0), to, dest)?;
            }
            Some(WideCast::FloatToWide) => {
                self.load_fp(src, from, Vr(0))?;
                self.call_helper(&wide::fix_to_ti(t.is_signed(), from, Self::LONG_DOUBLE));
                self.store_pair(Xr(0), Xr(1), dest)?;
            }
            Some(WideCast::ExtendToLong) => {
                self.load_fp(src, from, Vr(0))?;
                self.call_helper(wide::tf_extend_helper(from));
                self.store_fp(Vr(0), to, dest)?;
            }
            Some(WideCast::TruncFromLong) => {
                self.load_fp(src, from, Vr(0))?;
                self.call_helper(wide::tf_trunc_helper(to));
                self.store_fp(Vr(0), to, dest)?;
            }
            Some(WideCast::IntToLong) => {
                self.load(src, f, Xr(0))?;
                let name = match (f.is_signed(), f.size() > 4) {
                    (true, false) => "__floatsitf",
                    (true, true) => "__floatditf",
                    (false, false) => "__floatunsitf",
                    (false, true) => "__floatunditf",
                };
                self.call_helper(name);
                self.store_fp(Vr(0), to, dest)?;
            }
            Some(WideCast::LongToInt) => {
                // Truncation toward zero, then wrapping to the width (see
                // `cast`): signed types through a 64-bit conversion,
                // unsigned ones through a 128-bit one (exact on [0, 2^64)
                // and wrapping for negative values).
                self.load_fp(src, from, Vr(0))?;
                self.call_helper(if t.is_signed() { "__fixtfdi" } else { "__fixtfti" });
                self.store(Xr(0), t, dest)?;
            }
            None => return Err(self.internal(format!("cast from {from} to {to}"))),
        }
        Ok(())
    }
}
