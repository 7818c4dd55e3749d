//! `__int128` and binary128 `long double` (IR `i128`/`u128` and `f128`).
//!
//! 128-bit integers live in 16-byte slots and compute in register pairs
//! (`t0:t1` and `t2:t3`, low:high): carries and borrows through `sltu`, the
//! product from `mul`/`mulhu` and two cross products, shifts with a branch
//! on `count >= 64`, compares on the high halves and then the low halves.
//! Division and conversions to and from floating point call libgcc
//! (`__divti3 __udivti3 __modti3 __umodti3`, `__float[un]ti[sdt]f`,
//! `__fix[uns][sdt]fti`), as gcc does.
//!
//! `long double` is IEEE binary128 (RISC-V psABI "C/C++ type details"),
//! which rv64gc has no instructions for: arithmetic, comparisons and
//! conversions call libgcc's soft-float routines (`__addtf3 __subtf3
//! __multf3 __divtf3`, `__eqtf2 __netf2 __lttf2 __letf2 __gttf2 __getf2`,
//! `__extend[sd]ftf2 __trunctf[sd]f2`, `__float[un]ditf`, `__fix[uns]tfdi`)
//! with the value in an integer register pair, exactly as they are passed
//! by the calling convention; remainder calls libm's `fmodl`. Negation flips
//! the sign bit.

use super::regs::{Gpr, A0, A1, A2, A3, FA0, T0, T1, T2, T3, T4, T5};
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
        emit!(self, "\tcall\t{name}@plt");
    }

    /// Loads a 128-bit integer operand into `lo:hi` (a 64-bit operand is not expected).
    fn load_i128(&mut self, op: &Operand, lo: Gpr, hi: Gpr) -> Result<(), BackendError> {
        self.load_pair(op, IrType::I128, lo, hi)
    }

    pub(super) fn binop_wide(
        &mut self,
        dest: Value,
        op: IrBinOp,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Result<(), BackendError> {
        match op {
            IrBinOp::Add | IrBinOp::Sub | IrBinOp::And | IrBinOp::Or | IrBinOp::Xor | IrBinOp::Mul => {
                self.load_i128(lhs, T0, T1)?;
                self.load_i128(rhs, T2, T3)?;
                match op {
                    IrBinOp::Add => {
                        emit!(self, "\tadd\tt0, t0, t2");
                        emit!(self, "\tsltu\tt4, t0, t2");
                        emit!(self, "\tadd\tt1, t1, t3");
                        emit!(self, "\tadd\tt1, t1, t4");
                    }
                    IrBinOp::Sub => {
                        emit!(self, "\tsltu\tt4, t0, t2");
                        emit!(self, "\tsub\tt0, t0, t2");
                        emit!(self, "\tsub\tt1, t1, t3");
                        emit!(self, "\tsub\tt1, t1, t4");
                    }
                    IrBinOp::Mul => {
                        emit!(self, "\tmul\tt4, t0, t3");
                        emit!(self, "\tmul\tt5, t1, t2");
                        emit!(self, "\tadd\tt4, t4, t5");
                        emit!(self, "\tmulhu\tt5, t0, t2");
                        emit!(self, "\tadd\tt1, t4, t5");
                        emit!(self, "\tmul\tt0, t0, t2");
                    }
                    _ => {
                        let mn = match op {
                            IrBinOp::And => "and",
                            IrBinOp::Or => "or",
                            _ => "xor",
                        };
                        emit!(self, "\t{mn}\tt0, t0, t2");
                        emit!(self, "\t{mn}\tt1, t1, t3");
                    }
                }
                self.store_pair(T0, T1, dest)
            }
            IrBinOp::SDiv | IrBinOp::UDiv | IrBinOp::SRem | IrBinOp::URem => {
                self.load_i128(lhs, A0, A1)?;
                self.load_i128(rhs, A2, A3)?;
                self.call_helper(wide::divmod_helper(op));
                self.store_pair(A0, A1, dest)
            }
            IrBinOp::Shl | IrBinOp::LShr | IrBinOp::AShr => {
                self.load_i128(lhs, T0, T1)?;
                self.load_int(rhs, IrType::U64, false, T4)?;
                let (big, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                emit!(self, "\tandi\tt4, t4, 127");
                self.li(T2, 64);
                emit!(self, "\tbgeu\tt4, t2, .Ltmp{big}");
                emit!(self, "\tbeqz\tt4, .Ltmp{done}");
                emit!(self, "\tsub\tt2, t2, t4");
                match op {
                    IrBinOp::Shl => {
                        emit!(self, "\tsrl\tt3, t0, t2");
                        emit!(self, "\tsll\tt1, t1, t4");
                        emit!(self, "\tor\tt1, t1, t3");
                        emit!(self, "\tsll\tt0, t0, t4");
                        emit!(self, "\tj\t.Ltmp{done}");
                        emit!(self, ".Ltmp{big}:");
                        emit!(self, "\taddi\tt4, t4, -64");
                        emit!(self, "\tsll\tt1, t0, t4");
                        emit!(self, "\tmv\tt0, zero");
                    }
                    _ => {
                        let sr = if op == IrBinOp::AShr { "sra" } else { "srl" };
                        emit!(self, "\tsll\tt3, t1, t2");
                        emit!(self, "\tsrl\tt0, t0, t4");
                        emit!(self, "\tor\tt0, t0, t3");
                        emit!(self, "\t{sr}\tt1, t1, t4");
                        emit!(self, "\tj\t.Ltmp{done}");
                        emit!(self, ".Ltmp{big}:");
                        emit!(self, "\taddi\tt4, t4, -64");
                        emit!(self, "\t{sr}\tt0, t1, t4");
                        if op == IrBinOp::AShr {
                            emit!(self, "\tsrai\tt1, t1, 63");
                        } else {
                            emit!(self, "\tmv\tt1, zero");
                        }
                    }
                }
                emit!(self, ".Ltmp{done}:");
                self.store_pair(T0, T1, dest)
            }
        }
    }

    pub(super) fn unop_wide(&mut self, dest: Value, op: IrUnaryOp, src: &Operand) -> Result<(), BackendError> {
        self.load_i128(src, T0, T1)?;
        match op {
            IrUnaryOp::Neg => {
                emit!(self, "\tsnez\tt2, t0");
                emit!(self, "\tneg\tt0, t0");
                emit!(self, "\tneg\tt1, t1");
                emit!(self, "\tsub\tt1, t1, t2");
            }
            IrUnaryOp::Not => {
                emit!(self, "\tnot\tt0, t0");
                emit!(self, "\tnot\tt1, t1");
            }
            IrUnaryOp::Bswap => {
                emit!(self, "\tmv\tt5, t0");
                self.bswap(T1, T0, 8);
                self.bswap(T5, T1, 8);
            }
            IrUnaryOp::Clz => {
                let (lo, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                emit!(self, "\tbeqz\tt1, .Ltmp{lo}");
                self.clz64(T1, T3);
                emit!(self, "\tj\t.Ltmp{done}");
                emit!(self, ".Ltmp{lo}:");
                self.clz64(T0, T3);
                emit!(self, "\taddi\tt3, t3, 64");
                emit!(self, ".Ltmp{done}:");
                emit!(self, "\tmv\tt0, t3");
                emit!(self, "\tmv\tt1, zero");
            }
            IrUnaryOp::Ctz => {
                let (hi, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                emit!(self, "\tbeqz\tt0, .Ltmp{hi}");
                self.ctz64(T0, T3);
                emit!(self, "\tj\t.Ltmp{done}");
                emit!(self, ".Ltmp{hi}:");
                self.ctz64(T1, T3);
                emit!(self, "\taddi\tt3, t3, 64");
                emit!(self, ".Ltmp{done}:");
                emit!(self, "\tmv\tt0, t3");
                emit!(self, "\tmv\tt1, zero");
            }
            IrUnaryOp::Popcount => {
                self.popcount64(T0, T3);
                self.popcount64(T1, T4);
                emit!(self, "\tadd\tt0, t3, t4");
                emit!(self, "\tmv\tt1, zero");
            }
            IrUnaryOp::IsConstant => unreachable!("handled by unop"),
        }
        self.store_pair(T0, T1, dest)
    }

    /// Leaves the comparison's result (0/1) in `t0`.
    pub(super) fn cmp_wide(
        &mut self,
        op: IrCmpOp,
        lhs: &Operand,
        rhs: &Operand,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let signed = crate::backend::isel::cmp_is_signed(op, ty);
        match op {
            IrCmpOp::Eq | IrCmpOp::Ne => {
                self.load_i128(lhs, T0, T1)?;
                self.load_i128(rhs, T2, T3)?;
                emit!(self, "\txor\tt0, t0, t2");
                emit!(self, "\txor\tt1, t1, t3");
                emit!(self, "\tor\tt0, t0, t1");
                emit!(self, "\t{}\tt0, t0", if op == IrCmpOp::Eq { "seqz" } else { "snez" });
            }
            _ => {
                // x < y, possibly negated: lt(x, y) = hi_x < hi_y || (hi_x == hi_y && lo_x <u lo_y).
                let (x, y, less) = wide::ordered_operands(op, lhs, rhs);
                self.load_i128(x, T0, T1)?;
                self.load_i128(y, T2, T3)?;
                let lt = if signed { "slt" } else { "sltu" };
                emit!(self, "\t{lt}\tt4, t1, t3");
                emit!(self, "\txor\tt5, t1, t3");
                emit!(self, "\tseqz\tt5, t5");
                emit!(self, "\tsltu\tt0, t0, t2");
                emit!(self, "\tand\tt0, t0, t5");
                emit!(self, "\tor\tt0, t0, t4");
                if !less {
                    emit!(self, "\txori\tt0, t0, 1");
                }
            }
        }
        Ok(())
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
        self.load_pair(lhs, IrType::F128, A0, A1)?;
        self.load_pair(rhs, IrType::F128, A2, A3)?;
        self.call_helper(f);
        self.store_pair(A0, A1, dest)
    }

    pub(super) fn unop_f128(&mut self, dest: Value, op: IrUnaryOp, src: &Operand) -> Result<(), BackendError> {
        if op != IrUnaryOp::Neg {
            return Err(self.internal(format!("{} on f128", op.name())));
        }
        self.load_pair(src, IrType::F128, T0, T1)?;
        self.li(T2, 1);
        emit!(self, "\tslli\tt2, t2, 63");
        emit!(self, "\txor\tt1, t1, t2");
        self.store_pair(T0, T1, dest)
    }

    /// Leaves the comparison's result (0/1) in `t0` (IEEE: only `ne` is true on NaN).
    pub(super) fn cmp_f128(&mut self, op: IrCmpOp, lhs: &Operand, rhs: &Operand) -> Result<(), BackendError> {
        let f = wide::tf_cmp_helper(op);
        self.load_pair(lhs, IrType::F128, A0, A1)?;
        self.load_pair(rhs, IrType::F128, A2, A3)?;
        self.call_helper(f);
        // The helpers return an int whose sign encodes the relation.
        emit!(self, "\tsext.w\tt0, a0");
        match op {
            IrCmpOp::Eq => emit!(self, "\tseqz\tt0, t0"),
            IrCmpOp::Ne => emit!(self, "\tsnez\tt0, t0"),
            IrCmpOp::Slt | IrCmpOp::Ult => emit!(self, "\tsltz\tt0, t0"),
            IrCmpOp::Sle | IrCmpOp::Ule => emit!(self, "\tslti\tt0, t0, 1"),
            IrCmpOp::Sgt | IrCmpOp::Ugt => emit!(self, "\tsgtz\tt0, t0"),
            IrCmpOp::Sge | IrCmpOp::Uge => {
                emit!(self, "\tsltz\tt0, t0");
                emit!(self, "\txori\tt0, t0, 1");
            }
        }
        Ok(())
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
            // Integers of up to 64 bits to and from 128-bit integers.
            Some(WideCast::IntToWide) => {
                self.load(src, f, T0)?;
                if f.is_signed() {
                    emit!(self, "\tsrai\tt1, t0, 63");
                } else {
                    self.li(T1, 0);
                }
                self.store_pair(T0, T1, dest)?;
            }
            Some(WideCast::WideToInt) => {
                self.load_i128(src, T0, T1)?;
                self.store(T0, t, dest)?;
            }
            // 128-bit integers and floating point.
            Some(WideCast::WideToFloat) => {
                self.load_i128(src, A0, A1)?;
                self.call_helper(&wide::float_from_ti(f.is_signed(), t, Self::LONG_DOUBLE));
                if t == IrType::F128 {
                    self.store_pair(A0, A1, dest)?;
                } else {
                    self.store_f(FA0, t, dest)?;
                }
            }
            Some(WideCast::FloatToWide) => {
                let name = wide::fix_to_ti(t.is_signed(), f, Self::LONG_DOUBLE);
                if f == IrType::F128 {
                    self.load_pair(src, f, A0, A1)?;
                } else {
                    self.load_f(src, f, FA0)?;
                }
                self.call_helper(&name);
                self.store_pair(A0, A1, dest)?;
            }
            // long double and float/double.
            Some(WideCast::ExtendToLong) => {
                self.load_f(src, from, FA0)?;
                self.call_helper(wide::tf_extend_helper(from));
                self.store_pair(A0, A1, dest)?;
            }
            Some(WideCast::TruncFromLong) => {
                self.load_pair(src, from, A0, A1)?;
                self.call_helper(wide::tf_trunc_helper(to));
                self.store_f(FA0, to, dest)?;
            }
            // long double and integers of up to 64 bits.
            Some(WideCast::IntToLong) => {
                self.load(src, f, A0)?;
                let unsigned64 = matches!(f, IrType::U64 | IrType::Ptr);
                self.call_helper(if unsigned64 { "__floatunditf" } else { "__floatditf" });
                self.store_pair(A0, A1, dest)?;
            }
            Some(WideCast::LongToInt) => {
                // As for double: signed 64-bit then wrapped, a u64 unsigned
                // when non-negative.
                self.load_pair(src, from, A0, A1)?;
                if matches!(t, IrType::U64 | IrType::Ptr) {
                    let (neg, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                    emit!(self, "\tbltz\ta1, .Ltmp{neg}");
                    self.call_helper("__fixunstfdi");
                    emit!(self, "\tj\t.Ltmp{done}");
                    emit!(self, ".Ltmp{neg}:");
                    self.call_helper("__fixtfdi");
                    emit!(self, ".Ltmp{done}:");
                } else {
                    self.call_helper("__fixtfdi");
                }
                self.store(A0, t, dest)?;
            }
            None => return Err(self.internal(format!("cast from {from} to {to}"))),
        }
        Ok(())
    }
}
