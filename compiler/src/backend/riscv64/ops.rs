//! Integer and floating-point arithmetic, comparisons, conversions,
//! `select`, bit operations and intrinsics (RV64IMFD; 128-bit integers and
//! binary128 `long double` are in `wide`).
//!
//! 32-bit integer operations use the `*w` instructions; 8- and 16-bit ones
//! compute in 64 bits on operands extended by the *operation's* signedness
//! where it matters (`sdiv`, `ashr`, signed compares read their operands as
//! signed even on an unsigned type, as the interpreter does) and store the
//! low bytes. Comparisons are `slt`/`sltu`/`xor`+`seqz` on 64-bit values
//! extended alike. Float comparisons use `feq`/`flt`/`fle`, which are false
//! on NaN, so `ne` (`!feq`) is true on NaN (IEEE, like the interpreter).
//! Float-to-integer conversions round toward zero (`rtz`) to 64 bits and
//! wrap to the target width (the interpreter's rule, docs/ir.md). The base ISA has
//! no count-leading-zeros or byte-swap instruction (Zbb is not in rv64gc):
//! `clz`, `ctz`, `popcount` and `bswap` are short loops and shift sequences.

use super::moves::{FLAG, FULL, WORD};
use super::regs::{fits_i12, Gpr, FA0, FA1, FT0, FT1, T0, T1, T2, T3, ZERO};
use super::{emit, FnEmitter};
use crate::backend::isel::cmp_is_signed;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::intrinsics::IntrinsicOp;
use crate::ir::ops::{AtomicOrdering, IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// `.s` or `.d`.
fn fsuf(ty: IrType) -> &'static str {
    if ty == IrType::F32 {
        "s"
    } else {
        "d"
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
        let bitwise = matches!(op, IrBinOp::And | IrBinOp::Or | IrBinOp::Xor);
        if ty.is_float() && !bitwise {
            let f = fsuf(ty);
            let mnemonic = match op {
                IrBinOp::Add => "fadd",
                IrBinOp::Sub => "fsub",
                IrBinOp::Mul => "fmul",
                IrBinOp::SDiv | IrBinOp::UDiv => "fdiv",
                IrBinOp::SRem | IrBinOp::URem => {
                    self.load_f(lhs, ty, FA0)?;
                    self.load_f(rhs, ty, FA1)?;
                    let func = if ty == IrType::F32 { "fmodf" } else { "fmod" };
                    emit!(self, "\tcall\t{func}@plt");
                    return self.store_f(FA0, ty, dest);
                }
                _ => return Err(self.internal(format!("{} on {ty}", op.name()))),
            };
            let a = self.fpr_operand(lhs, ty, FT0)?;
            let b = self.fpr_operand(rhs, ty, FT1)?;
            let d = self.dest_fpr(dest, ty, FT0);
            emit!(self, "\t{mnemonic}.{f}\t{d}, {a}, {b}");
            return self.store_f(d, ty, dest);
        }
        if ty == IrType::Void {
            return Err(self.internal("arithmetic on void"));
        }
        let w32 = ty.size() == 4;
        let wide = ty.size() == 8;
        // How the operands must be extended: `None` when only their low
        // bytes matter (every `*w` instruction; the low bytes of a narrow
        // result); bitwise operations on 32 bits keep the sign extension.
        let (signed, low_only) = match op {
            IrBinOp::SDiv | IrBinOp::SRem | IrBinOp::AShr => (true, w32),
            IrBinOp::UDiv | IrBinOp::URem | IrBinOp::LShr => (false, w32),
            IrBinOp::And | IrBinOp::Or | IrBinOp::Xor => (w32 || ty.is_signed(), !w32 && !wide),
            _ => (ty.is_signed(), !wide),
        };
        let want = if low_only { None } else { Some(signed) };
        let w = if w32 { "w" } else { "" };
        let mn = match op {
            IrBinOp::Add => format!("add{w}"),
            IrBinOp::Sub => format!("sub{w}"),
            IrBinOp::Mul => format!("mul{w}"),
            IrBinOp::And => "and".into(),
            IrBinOp::Or => "or".into(),
            IrBinOp::Xor => "xor".into(),
            IrBinOp::SDiv => format!("div{w}"),
            IrBinOp::UDiv => format!("divu{w}"),
            IrBinOp::SRem => format!("rem{w}"),
            IrBinOp::URem => format!("remu{w}"),
            IrBinOp::Shl => format!("sll{w}"),
            // 8- and 16-bit operands are already extended to 64 bits.
            IrBinOp::LShr if w32 || wide => format!("srl{w}"),
            IrBinOp::AShr if w32 || wide => format!("sra{w}"),
            IrBinOp::LShr => "srl".into(),
            IrBinOp::AShr => "sra".into(),
        };
        // What the result register holds.
        let have = if w32 {
            match op {
                IrBinOp::And | IrBinOp::Or | IrBinOp::Xor => (4, signed),
                _ => WORD,
            }
        } else if matches!(op, IrBinOp::And | IrBinOp::Or | IrBinOp::Xor) && !low_only {
            (ty.size(), signed)
        } else {
            FULL
        };
        let a = self.gpr_operand(lhs, ty, want, T0)?;
        let d = self.dest_gpr(dest, T0);
        // An immediate form for a constant right operand.
        // Adding or subtracting is the same modulo the width whatever the
        // signedness: a constant is read sign-extended, so that `x + 0xffffffffu`
        // is `addiw x, -1`.
        let modular = matches!(op, IrBinOp::Add | IrBinOp::Sub);
        let mut konst = rhs.as_const().map(|c| Self::const_i64(&c, ty, signed || modular));
        if modular && crate::inject::enabled(crate::inject::Bug::ModularImmFrom32Bits) {
            konst = konst.map(|k| k as i32 as i64);
        }
        let imm = konst.and_then(|k| {
            let shift = if w32 { k & 31 } else { k & 63 };
            match op {
                IrBinOp::Add if fits_i12(k) => Some((format!("addi{w}"), k)),
                IrBinOp::Sub if k != i64::MIN && fits_i12(-k) => Some((format!("addi{w}"), -k)),
                IrBinOp::And | IrBinOp::Or | IrBinOp::Xor if fits_i12(k) => Some((format!("{mn}i"), k)),
                IrBinOp::Shl => Some((format!("slli{w}"), shift)),
                IrBinOp::LShr => Some((format!("srli{w}"), shift)),
                IrBinOp::AShr => Some((format!("srai{w}"), shift)),
                _ => None,
            }
        });
        match imm {
            Some((mni, k)) => emit!(self, "\t{mni}\t{d}, {a}, {k}"),
            None => {
                let b = self.gpr_operand(rhs, ty, want, T1)?;
                emit!(self, "\t{mn}\t{d}, {a}, {b}");
            }
        }
        self.store_ext(d, ty, dest, have)
    }

    pub(super) fn unop(&mut self, dest: Value, op: IrUnaryOp, src: &Operand, ty: IrType) -> Result<(), BackendError> {
        if op == IrUnaryOp::IsConstant {
            let is_const = matches!(src, Operand::Const(_));
            self.li(T0, is_const as i64);
            return self.store(T0, ty, dest);
        }
        if ty == IrType::Void {
            return Err(self.internal(format!("{} on void", op.name())));
        }
        if ty.is_float() {
            match op {
                IrUnaryOp::Neg => {
                    let a = self.fpr_operand(src, ty, FT0)?;
                    let d = self.dest_fpr(dest, ty, FT0);
                    emit!(self, "\tfneg.{}\t{d}, {a}", fsuf(ty));
                    return self.store_f(d, ty, dest);
                }
                IrUnaryOp::Not => {
                    self.load_int(src, ty, false, T0)?;
                    emit!(self, "\tnot\tt0, t0");
                    return self.store(T0, ty, dest);
                }
                _ => return Err(self.internal(format!("{} on {ty}", op.name()))),
            }
        }
        let bits = ty.bits() as i64;
        match op {
            IrUnaryOp::Neg | IrUnaryOp::Not => {
                let w32 = ty.size() == 4;
                let a = self.gpr_operand(src, ty, Some(ty.is_signed() || w32), T0)?;
                let d = self.dest_gpr(dest, T0);
                let (mn, have) = match op {
                    IrUnaryOp::Neg if w32 => ("negw", WORD),
                    IrUnaryOp::Neg => ("neg", FULL),
                    // The complement of an extended value is extended alike.
                    _ => ("not", (ty.size(), ty.is_signed() || w32)),
                };
                emit!(self, "\t{mn}\t{d}, {a}");
                self.store_ext(d, ty, dest, have)
            }
            IrUnaryOp::Clz => {
                self.load_int(src, ty, false, T0)?;
                self.clz64(T0, T1);
                emit!(self, "\taddi\tt1, t1, {}", bits - 64);
                self.store(T1, ty, dest)
            }
            IrUnaryOp::Ctz => {
                self.load_int(src, ty, false, T0)?;
                self.ctz64(T0, T1);
                // ctz(0) is the width.
                if bits < 64 {
                    let done = self.cx.labels.fresh();
                    self.li(T2, bits);
                    emit!(self, "\tbleu\tt1, t2, .Ltmp{done}");
                    emit!(self, "\tmv\tt1, t2");
                    emit!(self, ".Ltmp{done}:");
                }
                self.store(T1, ty, dest)
            }
            IrUnaryOp::Popcount => {
                self.load_int(src, ty, false, T0)?;
                self.popcount64(T0, T1);
                self.store(T1, ty, dest)
            }
            IrUnaryOp::Bswap => {
                self.load_int(src, ty, false, T0)?;
                self.bswap(T0, T1, ty.size());
                self.store(T1, ty, dest)
            }
            IrUnaryOp::IsConstant => unreachable!("handled above"),
        }
    }

    /// `out = number of leading zeros of the 64-bit x` (64 for 0); clobbers `x` and `t2`.
    pub(super) fn clz64(&mut self, x: Gpr, out: Gpr) {
        let (l, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
        self.li(out, 64);
        emit!(self, "\tbeqz\t{x}, .Ltmp{done}");
        self.li(out, 0);
        emit!(self, ".Ltmp{l}:");
        emit!(self, "\tbltz\t{x}, .Ltmp{done}");
        emit!(self, "\tslli\t{x}, {x}, 1");
        emit!(self, "\taddi\t{out}, {out}, 1");
        emit!(self, "\tj\t.Ltmp{l}");
        emit!(self, ".Ltmp{done}:");
    }

    /// `out = number of trailing zeros of the 64-bit x` (64 for 0); clobbers `x` and `t2`.
    pub(super) fn ctz64(&mut self, x: Gpr, out: Gpr) {
        let (l, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
        self.li(out, 64);
        emit!(self, "\tbeqz\t{x}, .Ltmp{done}");
        self.li(out, 0);
        emit!(self, ".Ltmp{l}:");
        emit!(self, "\tandi\tt2, {x}, 1");
        emit!(self, "\tbnez\tt2, .Ltmp{done}");
        emit!(self, "\tsrli\t{x}, {x}, 1");
        emit!(self, "\taddi\t{out}, {out}, 1");
        emit!(self, "\tj\t.Ltmp{l}");
        emit!(self, ".Ltmp{done}:");
    }

    /// `out = number of one bits of x`; clobbers `x` and `t2`.
    pub(super) fn popcount64(&mut self, x: Gpr, out: Gpr) {
        let (l, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
        self.li(out, 0);
        emit!(self, ".Ltmp{l}:");
        emit!(self, "\tbeqz\t{x}, .Ltmp{done}");
        emit!(self, "\taddi\tt2, {x}, -1");
        emit!(self, "\tand\t{x}, {x}, t2");
        emit!(self, "\taddi\t{out}, {out}, 1");
        emit!(self, "\tj\t.Ltmp{l}");
        emit!(self, ".Ltmp{done}:");
    }

    /// `out = the low `size` bytes of x in reverse order`; clobbers `x` and `t2`.
    pub(super) fn bswap(&mut self, x: Gpr, out: Gpr, size: usize) {
        self.li(out, 0);
        for k in 0..size {
            if k > 0 {
                emit!(self, "\tslli\t{out}, {out}, 8");
            }
            emit!(self, "\tandi\tt2, {x}, 255");
            emit!(self, "\tor\t{out}, {out}, t2");
            if k + 1 < size {
                emit!(self, "\tsrli\t{x}, {x}, 8");
            }
        }
    }

    /// `d = (a OP b)` (0 or 1) for 64-bit operands already extended alike.
    fn set_int_cond(&mut self, op: IrCmpOp, d: Gpr, a: Gpr, b: Gpr) {
        let lt = if cmp_is_signed(op, IrType::I64) || matches!(op, IrCmpOp::Eq | IrCmpOp::Ne) {
            "slt"
        } else {
            "sltu"
        };
        match op {
            IrCmpOp::Eq | IrCmpOp::Ne => {
                let z = if op == IrCmpOp::Eq { "seqz" } else { "snez" };
                if b == ZERO {
                    emit!(self, "\t{z}\t{d}, {a}");
                } else if a == ZERO {
                    emit!(self, "\t{z}\t{d}, {b}");
                } else {
                    emit!(self, "\txor\t{d}, {a}, {b}");
                    emit!(self, "\t{z}\t{d}, {d}");
                }
            }
            IrCmpOp::Slt | IrCmpOp::Ult => emit!(self, "\t{lt}\t{d}, {a}, {b}"),
            IrCmpOp::Sgt | IrCmpOp::Ugt => emit!(self, "\t{lt}\t{d}, {b}, {a}"),
            IrCmpOp::Sle | IrCmpOp::Ule => {
                emit!(self, "\t{lt}\t{d}, {b}, {a}");
                emit!(self, "\txori\t{d}, {d}, 1");
            }
            IrCmpOp::Sge | IrCmpOp::Uge => {
                emit!(self, "\t{lt}\t{d}, {a}, {b}");
                emit!(self, "\txori\t{d}, {d}, 1");
            }
        }
    }

    pub(super) fn cmp(
        &mut self,
        dest: Value,
        op: IrCmpOp,
        lhs: &Operand,
        rhs: &Operand,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let mut d = T0;
        if ty.is_128() {
            self.cmp_wide(op, lhs, rhs, ty)?;
        } else if ty == IrType::F128 {
            self.cmp_f128(op, lhs, rhs)?;
        } else if ty.is_float() {
            let f = fsuf(ty);
            let a = self.fpr_operand(lhs, ty, FT0)?;
            let b = self.fpr_operand(rhs, ty, FT1)?;
            d = self.dest_gpr(dest, T0);
            match op {
                IrCmpOp::Eq => emit!(self, "\tfeq.{f}\t{d}, {a}, {b}"),
                IrCmpOp::Ne => {
                    emit!(self, "\tfeq.{f}\t{d}, {a}, {b}");
                    emit!(self, "\txori\t{d}, {d}, 1");
                }
                IrCmpOp::Slt | IrCmpOp::Ult => emit!(self, "\tflt.{f}\t{d}, {a}, {b}"),
                IrCmpOp::Sle | IrCmpOp::Ule => emit!(self, "\tfle.{f}\t{d}, {a}, {b}"),
                IrCmpOp::Sgt | IrCmpOp::Ugt => emit!(self, "\tflt.{f}\t{d}, {b}, {a}"),
                IrCmpOp::Sge | IrCmpOp::Uge => emit!(self, "\tfle.{f}\t{d}, {b}, {a}"),
            }
        } else {
            if ty == IrType::Void {
                return Err(self.internal("comparison of void"));
            }
            // Unsigned order and equality hold on sign-extended values too,
            // so 32-bit operands are compared as RV64 keeps them.
            let signed = ty.size() == 4 || cmp_is_signed(op, ty);
            let a = self.gpr_operand(lhs, ty, Some(signed), T0)?;
            if self.fused_compares.contains(&dest) {
                // The block's branch compares the registers itself.
                let b = self.gpr_operand(rhs, ty, Some(signed), T1)?;
                let (yes, no) = fused_branch(op, a, b);
                self.pending_branch = Some((dest, yes, no));
                return Ok(());
            }
            d = self.dest_gpr(dest, T0);
            let k = rhs.as_const().map(|c| Self::const_i64(&c, ty, signed));
            match (op, k) {
                (IrCmpOp::Slt, Some(k)) if fits_i12(k) => emit!(self, "\tslti\t{d}, {a}, {k}"),
                (IrCmpOp::Ult, Some(k)) if fits_i12(k) => emit!(self, "\tsltiu\t{d}, {a}, {k}"),
                (IrCmpOp::Eq | IrCmpOp::Ne, Some(k)) if k != 0 && fits_i12(k) => {
                    let z = if op == IrCmpOp::Eq { "seqz" } else { "snez" };
                    emit!(self, "\txori\t{d}, {a}, {k}");
                    emit!(self, "\t{z}\t{d}, {d}");
                }
                _ => {
                    let b = self.gpr_operand(rhs, ty, Some(signed), T1)?;
                    self.set_int_cond(op, d, a, b);
                }
            }
        }
        self.store_ext(d, IrType::I8, dest, FLAG)
    }

    pub(super) fn cast(&mut self, dest: Value, src: &Operand, from: IrType, to: IrType) -> Result<(), BackendError> {
        match (from.is_float(), to.is_float()) {
            (false, false) => {
                // Extended by the source's signedness (its home register when
                // that is already so), then kept as the destination's type.
                let d = self.dest_gpr(dest, T0);
                let have = (from.size().clamp(1, 8), from.is_signed());
                let r = self.gpr_operand(src, from, Some(from.is_signed()), d)?;
                self.store_ext(r, to, dest, have)?;
            }
            (false, true) => {
                let a = self.gpr_operand(src, from, Some(from.is_signed()), T0)?;
                let kind = if from.is_signed() { "l" } else { "lu" };
                let d = self.dest_fpr(dest, to, FT0);
                emit!(self, "\tfcvt.{}.{kind}\t{d}, {a}", fsuf(to));
                self.store_f(d, to, dest)?;
            }
            (true, false) => {
                // Truncate toward zero to 64 bits signed, then wrap to the
                // target width; a u64 takes the unsigned conversion for
                // non-negative values (those from 2^63 up), as the interpreter does.
                let f = fsuf(from);
                let a = self.fpr_operand(src, from, FT0)?;
                emit!(self, "\tfcvt.l.{f}\tt0, {a}, rtz");
                if matches!(to, IrType::U64 | IrType::Ptr) {
                    let done = self.cx.labels.fresh();
                    emit!(
                        self,
                        "\tfmv.{}.x\tft1, zero",
                        if from == IrType::F32 { "w" } else { "d" }
                    );
                    emit!(self, "\tflt.{f}\tt1, {a}, ft1");
                    emit!(self, "\tbnez\tt1, .Ltmp{done}");
                    emit!(self, "\tfcvt.lu.{f}\tt0, {a}, rtz");
                    emit!(self, ".Ltmp{done}:");
                }
                self.store(T0, to, dest)?;
            }
            (true, true) => {
                if from == to {
                    self.move_value(dest, src, to)?;
                } else {
                    let a = self.fpr_operand(src, from, FT0)?;
                    let d = self.dest_fpr(dest, to, FT0);
                    emit!(self, "\tfcvt.{}.{}\t{d}, {a}", fsuf(to), fsuf(from));
                    self.store_f(d, to, dest)?;
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
        let skip = self.cx.labels.fresh();
        if ty.size() > 8 {
            self.load_pair(t, ty, T0, T1)?;
            self.load_pair(f, ty, T2, T3)?;
            self.load_cond_into(cond, cty)?;
            emit!(self, "\tbnez\tt4, .Ltmp{skip}");
            emit!(self, "\tmv\tt0, t2");
            emit!(self, "\tmv\tt1, t3");
            emit!(self, ".Ltmp{skip}:");
            return self.store_pair(T0, T1, dest);
        }
        self.load(t, ty, T0)?;
        self.load(f, ty, T1)?;
        self.load_cond_into(cond, cty)?;
        emit!(self, "\tbnez\tt4, .Ltmp{skip}");
        emit!(self, "\tmv\tt0, t1");
        emit!(self, ".Ltmp{skip}:");
        if ty.is_float() {
            self.store(T0, ty, dest)
        } else {
            self.store_ext(T0, ty, dest, (ty.size().clamp(1, 8), ty.is_signed()))
        }
    }

    /// `t4 = cond` (any nonzero bit means true).
    fn load_cond_into(&mut self, cond: &Operand, cty: IrType) -> Result<(), BackendError> {
        if cty.size() > 8 {
            self.load_pair(cond, cty, super::regs::T4, super::regs::T5)?;
            emit!(self, "\tor\tt4, t4, t5");
            Ok(())
        } else {
            self.load_int(cond, cty, false, super::regs::T4)
        }
    }

    pub(super) fn fence(&mut self, ordering: AtomicOrdering) {
        match ordering {
            AtomicOrdering::Relaxed => {}
            AtomicOrdering::Acquire => emit!(self, "\tfence\tr, rw"),
            AtomicOrdering::Release => emit!(self, "\tfence\trw, w"),
            AtomicOrdering::AcqRel | AtomicOrdering::SeqCst => emit!(self, "\tfence\trw, rw"),
        }
    }

    pub(super) fn intrinsic(
        &mut self,
        dest: Option<Value>,
        op: IntrinsicOp,
        args: &[Operand],
    ) -> Result<(), BackendError> {
        let out = match op {
            IntrinsicOp::Lfence => {
                emit!(self, "\tfence\tr, r");
                None
            }
            IntrinsicOp::Sfence => {
                emit!(self, "\tfence\tw, w");
                None
            }
            IntrinsicOp::Mfence => {
                emit!(self, "\tfence\trw, rw");
                None
            }
            IntrinsicOp::Pause => {
                emit!(self, "\tnop");
                None
            }
            IntrinsicOp::Clflush => {
                // rv64gc has no cache maintenance (Zicbom is an extension):
                // order the memory accesses around it, which is all a
                // program can observe.
                emit!(self, "\tfence\trw, rw");
                None
            }
            IntrinsicOp::SqrtF32 | IntrinsicOp::SqrtF64 | IntrinsicOp::FabsF32 | IntrinsicOp::FabsF64 => {
                let ty = if matches!(op, IntrinsicOp::SqrtF32 | IntrinsicOp::FabsF32) {
                    IrType::F32
                } else {
                    IrType::F64
                };
                let mn = if matches!(op, IntrinsicOp::SqrtF32 | IntrinsicOp::SqrtF64) {
                    "fsqrt"
                } else {
                    "fabs"
                };
                let a = self.intrinsic_arg(op, args, 0)?;
                let a = self.fpr_operand(&a, ty, FT0)?;
                let d = match dest {
                    Some(v) => self.dest_fpr(v, ty, FT0),
                    None => FT0,
                };
                emit!(self, "\t{mn}.{}\t{d}, {a}", fsuf(ty));
                if let Some(v) = dest {
                    self.store_f(d, ty, v)?;
                }
                return Ok(());
            }
            IntrinsicOp::FrameAddress => {
                emit!(self, "\tmv\tt0, s0");
                Some(IrType::Ptr)
            }
            IntrinsicOp::ReturnAddress => {
                emit!(self, "\tld\tt0, {}(s0)", -self.vararg_save - 8);
                Some(IrType::Ptr)
            }
            IntrinsicOp::ThreadPointer => {
                emit!(self, "\tmv\tt0, tp");
                Some(IrType::Ptr)
            }
        };
        if let (Some(d), Some(ty)) = (dest, out) {
            self.store(T0, ty, d)?;
        }
        Ok(())
    }
}

/// The branch taken when `a op b` holds, and its inverse (`a > b` is `b < a`).
fn fused_branch(op: IrCmpOp, a: Gpr, b: Gpr) -> (super::BranchCond, super::BranchCond) {
    let swap = crate::inject::enabled(crate::inject::Bug::RiscvFusedBranchUnswapped);
    let (x, y) = if swap { (a, b) } else { (b, a) };
    match op {
        IrCmpOp::Eq => (("beq", a, b), ("bne", a, b)),
        IrCmpOp::Ne => (("bne", a, b), ("beq", a, b)),
        IrCmpOp::Slt => (("blt", a, b), ("bge", a, b)),
        IrCmpOp::Sge => (("bge", a, b), ("blt", a, b)),
        IrCmpOp::Ult => (("bltu", a, b), ("bgeu", a, b)),
        IrCmpOp::Uge => (("bgeu", a, b), ("bltu", a, b)),
        IrCmpOp::Sgt => (("blt", x, y), ("bge", x, y)),
        IrCmpOp::Sle => (("bge", x, y), ("blt", x, y)),
        IrCmpOp::Ugt => (("bltu", x, y), ("bgeu", x, y)),
        IrCmpOp::Ule => (("bgeu", x, y), ("bltu", x, y)),
    }
}
