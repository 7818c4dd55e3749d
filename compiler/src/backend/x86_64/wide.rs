//! `__int128` and x87 `long double` (IR `i128`/`u128` and `f128`).
//!
//! 128-bit integers live in 16-byte slots and compute in register pairs
//! (`rax:rdx` low:high): add/adc, sub/sbb, a three-multiply product,
//! `shld`/`shrd` shifts with the `count & 64` fix-up, compares through
//! `cmp`/`sbb` on both halves. Division and conversions to and from floating
//! point call libgcc (`__divti3 __udivti3 __modti3 __umodti3`,
//! `__float[un]ti[sdx]f`, `__fix[uns][sdx]fti`), as gcc does.
//!
//! `long double` is the x87 80-bit format in 16 bytes (psABI 3.1.2): values
//! are loaded with `fldt` and stored with `fstpt`; arithmetic uses the
//! register forms whose destination is `%st` (unambiguous in AT&T syntax);
//! conversions to integers run `fistp` under a control word set to truncate.

use super::regs::Gpr;
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::wide::{self, WideCast};
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::ops::{IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::IrType;
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    /// Loads a 16-byte integer operand into `lo:hi` (a narrower value is
    /// read as its slot's two halves, which callers never rely on).
    pub(super) fn load_wide(&mut self, op: &Operand, lo: Gpr, hi: Gpr) -> Result<(), BackendError> {
        self.load_wide_as(op, IrType::I128, lo, hi)
    }

    /// As [`FnEmitter::load_wide`] for a 16-byte value of type `ty` (a
    /// constant takes that type's memory image: x87 bytes for `f128`).
    pub(super) fn load_wide_as(&mut self, op: &Operand, ty: IrType, lo: Gpr, hi: Gpr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let [l, h] = Self::const_words(c, ty);
                self.mov_imm(l as i64, lo);
                self.mov_imm(h as i64, hi);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(_) => {
                    let m = self.slot(*v)?;
                    emit!(self, "\tmovq\t{m}, {}", lo.q());
                    emit!(self, "\tmovq\t{}, {}", m.at(8), hi.q());
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                h => {
                    self.materialize(h, lo);
                    emit!(self, "\txorl\t{}, {}", hi.l(), hi.l());
                }
            },
        }
        Ok(())
    }

    fn store_rax_rdx(&mut self, dest: Value) -> Result<(), BackendError> {
        let m = self.slot(dest)?;
        emit!(self, "\tmovq\t%rax, {m}");
        emit!(self, "\tmovq\t%rdx, {}", m.at(8));
        Ok(())
    }

    fn call_helper(&mut self, name: &str) {
        emit!(self, "\tcall\t{name}@PLT");
    }

    pub(super) fn binop_wide(
        &mut self,
        dest: Value,
        op: IrBinOp,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Result<(), BackendError> {
        match op {
            IrBinOp::Add | IrBinOp::Sub | IrBinOp::And | IrBinOp::Or | IrBinOp::Xor => {
                self.load_wide(lhs, Gpr::Rax, Gpr::Rdx)?;
                self.load_wide(rhs, Gpr::Rcx, Gpr::Rsi)?;
                let (a, b) = match op {
                    IrBinOp::Add => ("addq", "adcq"),
                    IrBinOp::Sub => ("subq", "sbbq"),
                    IrBinOp::And => ("andq", "andq"),
                    IrBinOp::Or => ("orq", "orq"),
                    _ => ("xorq", "xorq"),
                };
                emit!(self, "\t{a}\t%rcx, %rax");
                emit!(self, "\t{b}\t%rsi, %rdx");
            }
            IrBinOp::Mul => {
                self.load_wide(lhs, Gpr::R8, Gpr::R9)?;
                self.load_wide(rhs, Gpr::Rcx, Gpr::Rsi)?;
                emit!(self, "\tmovq\t%r9, %r10");
                emit!(self, "\timulq\t%rcx, %r10");
                emit!(self, "\tmovq\t%r8, %r11");
                emit!(self, "\timulq\t%rsi, %r11");
                emit!(self, "\taddq\t%r11, %r10");
                emit!(self, "\tmovq\t%r8, %rax");
                emit!(self, "\tmulq\t%rcx");
                emit!(self, "\taddq\t%r10, %rdx");
            }
            IrBinOp::SDiv | IrBinOp::UDiv | IrBinOp::SRem | IrBinOp::URem => {
                self.load_wide(lhs, Gpr::Rdi, Gpr::Rsi)?;
                self.load_wide(rhs, Gpr::Rdx, Gpr::Rcx)?;
                self.call_helper(wide::divmod_helper(op));
            }
            IrBinOp::Shl | IrBinOp::LShr | IrBinOp::AShr => {
                self.load_wide(lhs, Gpr::Rax, Gpr::Rdx)?;
                self.load_int(rhs, IrType::U64, false, Gpr::Rcx)?;
                let done = self.cx.labels.fresh();
                match op {
                    IrBinOp::Shl => {
                        emit!(self, "\tshldq\t%cl, %rax, %rdx");
                        emit!(self, "\tshlq\t%cl, %rax");
                        emit!(self, "\ttestb\t$64, %cl");
                        emit!(self, "\tje\t.Ltmp{done}");
                        emit!(self, "\tmovq\t%rax, %rdx");
                        emit!(self, "\txorl\t%eax, %eax");
                    }
                    IrBinOp::LShr => {
                        emit!(self, "\tshrdq\t%cl, %rdx, %rax");
                        emit!(self, "\tshrq\t%cl, %rdx");
                        emit!(self, "\ttestb\t$64, %cl");
                        emit!(self, "\tje\t.Ltmp{done}");
                        emit!(self, "\tmovq\t%rdx, %rax");
                        emit!(self, "\txorl\t%edx, %edx");
                    }
                    _ => {
                        emit!(self, "\tshrdq\t%cl, %rdx, %rax");
                        emit!(self, "\tsarq\t%cl, %rdx");
                        emit!(self, "\ttestb\t$64, %cl");
                        emit!(self, "\tje\t.Ltmp{done}");
                        emit!(self, "\tmovq\t%rdx, %rax");
                        emit!(self, "\tsarq\t$63, %rdx");
                    }
                }
                emit!(self, ".Ltmp{done}:");
            }
        }
        self.store_rax_rdx(dest)
    }

    pub(super) fn unop_wide(&mut self, dest: Value, op: IrUnaryOp, src: &Operand) -> Result<(), BackendError> {
        self.load_wide(src, Gpr::Rax, Gpr::Rdx)?;
        match op {
            IrUnaryOp::Neg => {
                emit!(self, "\tnegq\t%rax");
                emit!(self, "\tadcq\t$0, %rdx");
                emit!(self, "\tnegq\t%rdx");
            }
            IrUnaryOp::Not => {
                emit!(self, "\tnotq\t%rax");
                emit!(self, "\tnotq\t%rdx");
            }
            IrUnaryOp::Bswap => {
                emit!(self, "\tbswapq\t%rax");
                emit!(self, "\tbswapq\t%rdx");
                emit!(self, "\txchgq\t%rax, %rdx");
            }
            IrUnaryOp::Clz => {
                let (lo, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                emit!(self, "\ttestq\t%rdx, %rdx");
                emit!(self, "\tje\t.Ltmp{lo}");
                emit!(self, "\tbsrq\t%rdx, %rcx");
                emit!(self, "\tmovl\t$63, %eax");
                emit!(self, "\tsubl\t%ecx, %eax");
                emit!(self, "\tjmp\t.Ltmp{done}");
                emit!(self, ".Ltmp{lo}:");
                emit!(self, "\tbsrq\t%rax, %rcx");
                emit!(self, "\tmovq\t$-1, %r8");
                emit!(self, "\tcmovzq\t%r8, %rcx");
                emit!(self, "\tmovl\t$127, %eax");
                emit!(self, "\tsubl\t%ecx, %eax");
                emit!(self, ".Ltmp{done}:");
                emit!(self, "\txorl\t%edx, %edx");
            }
            IrUnaryOp::Ctz => {
                let (hi, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                emit!(self, "\ttestq\t%rax, %rax");
                emit!(self, "\tje\t.Ltmp{hi}");
                emit!(self, "\tbsfq\t%rax, %rax");
                emit!(self, "\tjmp\t.Ltmp{done}");
                emit!(self, ".Ltmp{hi}:");
                emit!(self, "\tbsfq\t%rdx, %rax");
                emit!(self, "\tmovl\t$64, %ecx");
                emit!(self, "\tcmovzq\t%rcx, %rax");
                emit!(self, "\taddq\t$64, %rax");
                emit!(self, ".Ltmp{done}:");
                emit!(self, "\txorl\t%edx, %edx");
            }
            IrUnaryOp::Popcount => {
                emit!(self, "\tmovq\t%rdx, %r9");
                self.popcount_rax();
                emit!(self, "\tmovq\t%rax, %r8");
                emit!(self, "\tmovq\t%r9, %rax");
                self.popcount_rax();
                emit!(self, "\taddq\t%r8, %rax");
                emit!(self, "\txorl\t%edx, %edx");
            }
            IrUnaryOp::IsConstant => unreachable!("handled by unop"),
        }
        self.store_rax_rdx(dest)
    }

    /// Leaves the comparison's result in `%al`.
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
                self.load_wide(lhs, Gpr::Rax, Gpr::Rdx)?;
                self.load_wide(rhs, Gpr::Rcx, Gpr::Rsi)?;
                emit!(self, "\txorq\t%rcx, %rax");
                emit!(self, "\txorq\t%rsi, %rdx");
                emit!(self, "\torq\t%rdx, %rax");
                emit!(self, "\tset{}\t%al", if op == IrCmpOp::Eq { "e" } else { "ne" });
            }
            _ => {
                // x - y by cmp/sbb gives "x < y" (l/b) and "x >= y" (ge/ae).
                let (x, y, lt) = wide::ordered_operands(op, lhs, rhs);
                self.load_wide(x, Gpr::Rax, Gpr::Rdx)?;
                self.load_wide(y, Gpr::Rcx, Gpr::Rsi)?;
                emit!(self, "\tcmpq\t%rcx, %rax");
                emit!(self, "\tsbbq\t%rsi, %rdx");
                let cc = match (lt, signed) {
                    (true, true) => "l",
                    (true, false) => "b",
                    (false, true) => "ge",
                    (false, false) => "ae",
                };
                emit!(self, "\tset{cc}\t%al");
            }
        }
        Ok(())
    }

    /// Pushes a `long double` operand onto the x87 stack.
    pub(super) fn fld(&mut self, op: &Operand) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let s = self.scratch_area()?;
                self.store_const(c, IrType::F128, &s);
                emit!(self, "\tfldt\t{s}");
            }
            Operand::Value(v) => {
                let m = self.slot(*v)?;
                emit!(self, "\tfldt\t{m}");
            }
        }
        Ok(())
    }

    /// Pushes a `float`/`double` operand onto the x87 stack.
    fn fld_small(&mut self, op: &Operand, ty: IrType) -> Result<(), BackendError> {
        let m = match op {
            Operand::Const(c) => {
                let s = self.scratch_area()?;
                self.store_const(c, ty, &s);
                s
            }
            Operand::Value(v) if self.xmm_of(*v).is_some() => {
                let s = self.scratch_area()?;
                self.store_operand(op, ty, &s)?;
                s
            }
            Operand::Value(v) => self.slot(*v)?,
        };
        emit!(self, "\tfld{}\t{m}", if ty == IrType::F32 { "s" } else { "l" });
        Ok(())
    }

    /// `long double` arithmetic on the x87 stack.
    pub(super) fn binop_f128(
        &mut self,
        dest: Value,
        op: IrBinOp,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Result<(), BackendError> {
        let m = self.slot(dest)?;
        self.fld(rhs)?;
        self.fld(lhs)?;
        match op {
            IrBinOp::Add => emit!(self, "\tfadd\t%st(1), %st"),
            IrBinOp::Sub => emit!(self, "\tfsub\t%st(1), %st"),
            IrBinOp::Mul => emit!(self, "\tfmul\t%st(1), %st"),
            IrBinOp::SDiv | IrBinOp::UDiv => emit!(self, "\tfdiv\t%st(1), %st"),
            IrBinOp::SRem | IrBinOp::URem => {
                let again = self.cx.labels.fresh();
                emit!(self, ".Ltmp{again}:");
                emit!(self, "\tfprem");
                emit!(self, "\tfnstsw\t%ax");
                emit!(self, "\ttestw\t$1024, %ax");
                emit!(self, "\tjne\t.Ltmp{again}");
            }
            _ => {
                emit!(self, "\tfstp\t%st(0)");
                emit!(self, "\tfstp\t%st(0)");
                return Err(self.internal(format!("{} on f128", op.name())));
            }
        }
        emit!(self, "\tfstpt\t{m}");
        emit!(self, "\tfstp\t%st(0)");
        Ok(())
    }

    /// `long double` negation on the x87 stack.
    pub(super) fn unop_f128(&mut self, dest: Value, op: IrUnaryOp, src: &Operand) -> Result<(), BackendError> {
        let m = self.slot(dest)?;
        if op != IrUnaryOp::Neg {
            return Err(self.internal(format!("{} on f128", op.name())));
        }
        self.fld(src)?;
        emit!(self, "\tfchs");
        emit!(self, "\tfstpt\t{m}");
        Ok(())
    }

    /// Leaves the comparison's result in `%al` (IEEE, as for SSE).
    pub(super) fn cmp_x87(&mut self, op: IrCmpOp, lhs: &Operand, rhs: &Operand) -> Result<(), BackendError> {
        let (a, b) = match op {
            IrCmpOp::Slt | IrCmpOp::Ult | IrCmpOp::Sle | IrCmpOp::Ule => (rhs, lhs),
            _ => (lhs, rhs),
        };
        self.fld(b)?;
        self.fld(a)?;
        emit!(self, "\tfucomip\t%st(1), %st");
        emit!(self, "\tfstp\t%st(0)");
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
        Ok(())
    }

    /// Sets the x87 rounding mode to truncation, saving the control word in scratch+16.
    fn x87_truncate_on(&mut self) -> Result<(), BackendError> {
        let s = self.scratch_area()?;
        emit!(self, "\tfnstcw\t{}", s.at(16));
        emit!(self, "\tmovzwl\t{}, %eax", s.at(16));
        emit!(self, "\torl\t$3072, %eax");
        emit!(self, "\tmovw\t%ax, {}", s.at(18));
        emit!(self, "\tfldcw\t{}", s.at(18));
        Ok(())
    }

    fn x87_truncate_off(&mut self) -> Result<(), BackendError> {
        let s = self.scratch_area()?;
        emit!(self, "\tfldcw\t{}", s.at(16));
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
        // A register destination (an integer of at most 8 bytes) is written
        // with `store_sized`; `m` is only used for slot destinations.
        let m = match (self.reg_of(dest), self.xmm_of(dest)) {
            (None, None) => self.slot(dest)?,
            _ => self.ret2_area()?,
        };
        let s = self.scratch_area()?;
        let (f, t) = (from, to);
        match wide::classify_cast(from, to) {
            Some(WideCast::Move) => self.move_value(dest, src, to)?,
            Some(WideCast::IntToWide) => {
                self.load(src, f, Gpr::Rax)?;
                if f.is_signed() {
                    emit!(self, "\tmovq\t%rax, %rdx");
                    emit!(self, "\tsarq\t$63, %rdx");
                } else {
                    emit!(self, "\txorl\t%edx, %edx");
                }
                self.store_rax_rdx(dest)?;
            }
            Some(WideCast::WideToInt) => {
                self.load_wide(src, Gpr::Rax, Gpr::Rdx)?;
                self.store_sized(Gpr::Rax, t.size(), dest)?;
            }
            Some(WideCast::WideToFloat) if to != IrType::F128 => {
                self.load_wide(src, Gpr::Rdi, Gpr::Rsi)?;
                self.call_helper(&wide::float_from_ti(f.is_signed(), to, Self::LONG_DOUBLE));
                self.store_xmm_to(0, to, dest)?;
            }
            Some(WideCast::FloatToWide) if from != IrType::F128 => {
                self.load_xmm(src, from, 0)?;
                self.call_helper(&wide::fix_to_ti(t.is_signed(), from, Self::LONG_DOUBLE));
                self.store_rax_rdx(dest)?;
            }
            Some(WideCast::WideToFloat) => {
                self.load_wide(src, Gpr::Rdi, Gpr::Rsi)?;
                self.call_helper(&wide::float_from_ti(f.is_signed(), to, Self::LONG_DOUBLE));
                emit!(self, "\tfstpt\t{m}");
            }
            Some(WideCast::FloatToWide) => {
                emit!(self, "\tsubq\t$16, %rsp");
                self.fld(src)?;
                emit!(self, "\tfstpt\t(%rsp)");
                self.call_helper(&wide::fix_to_ti(t.is_signed(), from, Self::LONG_DOUBLE));
                emit!(self, "\taddq\t$16, %rsp");
                self.store_rax_rdx(dest)?;
            }
            Some(WideCast::ExtendToLong) => {
                self.fld_small(src, from)?;
                emit!(self, "\tfstpt\t{m}");
            }
            Some(WideCast::TruncFromLong) => {
                self.fld(src)?;
                emit!(self, "\tfstp{}\t{m}", if to == IrType::F32 { "s" } else { "l" });
                if let Some(x) = self.xmm_of(dest) {
                    let mv = if to == IrType::F32 { "movss" } else { "movsd" };
                    emit!(self, "\t{mv}\t{m}, %xmm{x}");
                }
            }
            Some(WideCast::IntToLong) => {
                self.load(src, f, Gpr::Rax)?;
                emit!(self, "\tmovq\t%rax, {s}");
                emit!(self, "\tfildll\t{s}");
                if matches!(f, IrType::U64 | IrType::Ptr) {
                    let done = self.cx.labels.fresh();
                    emit!(self, "\ttestq\t%rax, %rax");
                    emit!(self, "\tjns\t.Ltmp{done}");
                    // + 2^64 (as a float constant) when the top bit was set.
                    emit!(self, "\tmovl\t$1602224128, {}", s.at(8));
                    emit!(self, "\tfadds\t{}", s.at(8));
                    emit!(self, ".Ltmp{done}:");
                }
                emit!(self, "\tfstpt\t{m}");
            }
            Some(WideCast::LongToInt) => {
                self.fld(src)?;
                self.x87_truncate_on()?;
                if matches!(t, IrType::U64 | IrType::Ptr) {
                    let (small, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
                    emit!(self, "\tmovl\t$1593835520, {}", s.at(8));
                    emit!(self, "\tflds\t{}", s.at(8));
                    emit!(self, "\tfucomip\t%st(1), %st");
                    emit!(self, "\tja\t.Ltmp{small}");
                    emit!(self, "\tfsubs\t{}", s.at(8));
                    emit!(self, "\tfistpll\t{s}");
                    emit!(self, "\tmovq\t{s}, %rax");
                    emit!(self, "\tbtcq\t$63, %rax");
                    emit!(self, "\tjmp\t.Ltmp{done}");
                    emit!(self, ".Ltmp{small}:");
                    emit!(self, "\tfistpll\t{s}");
                    emit!(self, "\tmovq\t{s}, %rax");
                    emit!(self, ".Ltmp{done}:");
                } else {
                    emit!(self, "\tfistpll\t{s}");
                    emit!(self, "\tmovq\t{s}, %rax");
                }
                self.x87_truncate_off()?;
                self.store_sized(Gpr::Rax, t.size(), dest)?;
            }
            None => return Err(self.internal(format!("cast from {from} to {to}"))),
        }
        Ok(())
    }
}
