//! Expressions (C11 6.5) to IR values.
//!
//! An expression lowers to an [`RValue`]: a scalar operand of the IR type of
//! its C type, the address of a record's bytes, or nothing (`void`). The
//! order of evaluation follows gcc where C leaves it unspecified and a
//! program could tell: left operand before right; in `a = b` the place of `a`
//! before `b`; in `a op= b` the value of `b` before the place of `a`.
//!
//! Control flow inside expressions (C11 6.5.13-6.5.15): `&&`, `||` and `?:`
//! branch, never select; their result crosses blocks through a temporary
//! slot. Used as a condition, they branch straight to the targets
//! ([`FnLower::branch_on`]).

use super::complex::is_complex;
use super::function::FnLower;
use super::repr::Repr;
use super::LResult;
use crate::frontend::hir::{BinaryOp, CastKind, Expr, ExprKind, UnaryOp};
use crate::frontend::source::Diagnostic;
use crate::frontend::types::{CType, IntKind, QualType};
use crate::ir::constants::IrConst;
use crate::ir::instruction::{BlockId, Instruction, Operand, Value};
use crate::ir::ops::{IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::IrType;

/// The value of an expression.
#[derive(Clone, Copy, Debug)]
pub(super) enum RValue {
    Scalar(Operand),
    /// The address of a record (or other aggregate) value's bytes.
    Agg(Value),
    Void,
}

/// The cast kind that converts between two arithmetic IR types.
pub(super) fn arith_cast_kind(from: IrType, to: IrType) -> CastKind {
    match (from.is_float(), to.is_float()) {
        (false, false) => CastKind::IntToInt,
        (false, true) => CastKind::IntToFloat,
        (true, false) => CastKind::FloatToInt,
        (true, true) => CastKind::FloatToFloat,
    }
}

fn is_bool(t: &CType) -> bool {
    matches!(t, CType::Int(IntKind::Bool))
}

impl FnLower<'_, '_> {
    /// A scalar-valued expression.
    pub fn scalar(&mut self, e: &Expr) -> LResult<Operand> {
        match self.expr(e)? {
            RValue::Scalar(v) => Ok(v),
            RValue::Agg(a) => Ok(a.into()),
            RValue::Void => Err(Diagnostic::error(e.span, "void value not ignored as it ought to be")),
        }
    }

    /// A record-valued expression: the address of its bytes.
    pub fn aggregate(&mut self, e: &Expr) -> LResult<Value> {
        match self.expr(e)? {
            RValue::Agg(a) => Ok(a),
            RValue::Scalar(v) => Ok(self.b.as_value(v)),
            RValue::Void => Err(Diagnostic::error(e.span, "void value not ignored as it ought to be")),
        }
    }

    /// Evaluates for side effects only.
    pub fn effect(&mut self, e: &Expr) -> LResult<()> {
        self.expr(e).map(|_| ())
    }

    fn constant(&self, e: &Expr, c: impl FnOnce(IrType) -> IrConst) -> LResult<RValue> {
        let ty = self.ir(&e.ty.ty, e.span)?;
        Ok(RValue::Scalar(Operand::Const(c(ty))))
    }

    /// The value of an lvalue used where a value is expected.
    fn read_lvalue(&mut self, lv: &Expr) -> LResult<RValue> {
        match &*lv.ty.ty {
            CType::Function { .. } => Ok(RValue::Scalar(self.place(lv)?.addr.into())),
            // A record with variably modified members: its address (sema
            // copies such records itself; a copy here would fail in `repr`).
            t @ CType::Record(_) if self.cx.types.is_vla(t) => Ok(RValue::Agg(self.place(lv)?.addr)),
            t => match self.repr(t, lv.span)? {
                Repr::Scalar(_) => {
                    let (p, ty, signed) = self.scalar_place(lv)?;
                    Ok(RValue::Scalar(self.load_place(p, ty, signed)))
                }
                Repr::Aggregate { .. } => Ok(RValue::Agg(self.place(lv)?.addr)),
                Repr::Void => {
                    // `*p` of a `void *` in a void context: nothing to read.
                    self.place(lv)?;
                    Ok(RValue::Void)
                }
            },
        }
    }

    pub fn expr(&mut self, e: &Expr) -> LResult<RValue> {
        match &e.kind {
            ExprKind::Int(v) => self.constant(e, |ty| IrConst::from_i128(*v, ty)),
            // Exact: sema rounded the constant to its type.
            ExprKind::Float(v) => self.constant(e, |ty| match ty {
                IrType::F32 => IrConst::F32(v.to_f32()),
                IrType::F128 => IrConst::long_double_exact(*v),
                IrType::F64 => IrConst::F64(v.to_f64()),
                t => IrConst::from_i128(v.to_f64() as i128, t),
            }),
            ExprKind::Load(lv) => self.read_lvalue(lv),
            ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Str(_)
            | ExprKind::CompoundLiteral { .. }
            | ExprKind::Member { .. } => self.read_lvalue(e),
            ExprKind::ArrayDecay(x) | ExprKind::FuncDecay(x) => Ok(RValue::Scalar(self.place(x)?.addr.into())),
            ExprKind::AddrOf(x) => {
                let p = self.place(x)?;
                if p.bitfield.is_some() {
                    return Err(Diagnostic::error(e.span, "cannot take the address of a bit-field"));
                }
                Ok(RValue::Scalar(p.addr.into()))
            }
            ExprKind::Cast(CastKind::ComplexToComplex, x) => self.complex_cast(x, e),
            ExprKind::Cast(kind, x) => Ok(match self.cast_expr(*kind, x, e)? {
                Some(v) => RValue::Scalar(v),
                None => RValue::Void,
            }),
            ExprKind::Unary(op, x) if is_complex(&x.ty.ty) => self.complex_unary(*op, x),
            ExprKind::Unary(op, x) => self.unary(*op, x, e),
            ExprKind::Binary(op, l, r) if is_complex(&e.ty.ty) => self.complex_binary(*op, l, r, e),
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r),
            ExprKind::Complex(..) => self.complex_value(e),
            ExprKind::PtrAdd { ptr, index, elem_size } => {
                let p = self.scalar(ptr)?;
                let i = self.scalar(index)?;
                let ity = self.ir(&index.ty.ty, index.span)?;
                let elem = self.cx.types.pointee_ir_type(&e.ty.ty);
                Ok(RValue::Scalar(
                    self.ptr_offset(p, i, ity, *elem_size, false, elem).into(),
                ))
            }
            ExprKind::PtrDiff { lhs, rhs, elem_size } => {
                let l = self.scalar(lhs)?;
                let r = self.scalar(rhs)?;
                let d = self.b.binop(IrBinOp::Sub, IrType::I64, l, r);
                if *elem_size > 1 {
                    let q = self.b.binop(
                        IrBinOp::SDiv,
                        IrType::I64,
                        d.into(),
                        Operand::Const(IrConst::I64(*elem_size as i64)),
                    );
                    Ok(RValue::Scalar(q.into()))
                } else {
                    Ok(RValue::Scalar(d.into()))
                }
            }
            ExprKind::LogAnd(..) | ExprKind::LogOr(..) => {
                let tmp = self.temp_scalar(IrType::I32);
                let (t, f, end) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.branch_on(e, t, f)?;
                self.b.start(t);
                self.b.store(IrType::I32, Operand::Const(IrConst::I32(1)), tmp);
                self.b.branch(end);
                self.b.start(f);
                self.b.store(IrType::I32, Operand::Const(IrConst::I32(0)), tmp);
                self.b.branch(end);
                self.b.start(end);
                Ok(RValue::Scalar(self.b.load(IrType::I32, tmp).into()))
            }
            ExprKind::Cond(c, a, b) => self.conditional(e, c, a, b),
            ExprKind::Comma(a, b) => {
                self.effect(a)?;
                self.expr(b)
            }
            ExprKind::Assign { lhs, rhs } => self.assign(e, lhs, rhs),
            ExprKind::CompoundAssign {
                op,
                lhs,
                rhs,
                op_ty,
                ptr_elem_size,
            } => self.compound_assign(*op, lhs, rhs, op_ty, *ptr_elem_size),
            ExprKind::IncDec {
                lhs,
                is_prefix,
                delta,
                ptr_elem_size,
            } => self.inc_dec(lhs, *is_prefix, *delta, *ptr_elem_size),
            ExprKind::Call { callee, fn_ty, args } => self.call(e, callee, fn_ty, args),
            ExprKind::Builtin(b, args) => self.builtin(e, *b, args),
            ExprKind::VaArg(ap) => self.va_arg(e, ap),
            ExprKind::StmtExpr { body, result } => {
                for s in body {
                    self.stmt(s)?;
                }
                match result {
                    Some(r) => self.expr(r),
                    None => Ok(RValue::Void),
                }
            }
            ExprKind::LabelAddr(l) => {
                let block = self.label_block(*l);
                let dest = self.b.value();
                self.b.emit(Instruction::LabelAddr { dest, label: block });
                Ok(RValue::Scalar(dest.into()))
            }
        }
    }

    /// `p + i * elem_size` (or minus), with `elem` the addressed IR type.
    pub fn ptr_offset(
        &mut self,
        p: Operand,
        i: Operand,
        ity: IrType,
        elem_size: u64,
        negate: bool,
        elem: IrType,
    ) -> Value {
        let i = self.int_resize(i, ity, IrType::I64);
        let scaled: Operand = match i {
            Operand::Const(c) => {
                let v = c.to_i64().unwrap_or(0).wrapping_mul(elem_size as i64);
                Operand::Const(IrConst::I64(if negate { v.wrapping_neg() } else { v }))
            }
            v => {
                let s = if elem_size == 1 {
                    v
                } else {
                    self.b
                        .binop(
                            IrBinOp::Mul,
                            IrType::I64,
                            v,
                            Operand::Const(IrConst::I64(elem_size as i64)),
                        )
                        .into()
                };
                if negate {
                    self.b.unop(IrUnaryOp::Neg, IrType::I64, s).into()
                } else {
                    s
                }
            }
        };
        let base = self.b.as_value(p);
        if scaled == Operand::Const(IrConst::I64(0)) {
            return base;
        }
        self.b.gep(elem, base, scaled)
    }

    fn unary(&mut self, op: UnaryOp, x: &Expr, e: &Expr) -> LResult<RValue> {
        let ty = self.ir(&x.ty.ty, x.span)?;
        let v = self.scalar(x)?;
        Ok(RValue::Scalar(match op {
            UnaryOp::Neg => self.b.unop(IrUnaryOp::Neg, ty, v).into(),
            UnaryOp::BitNot => self.b.unop(IrUnaryOp::Not, ty, v).into(),
            UnaryOp::LogNot => {
                let c = self.b.cmp(IrCmpOp::Eq, ty, v, Operand::Const(IrConst::zero(ty)));
                let rt = self.ir(&e.ty.ty, e.span)?;
                let i = self.bool_to_int(c.into());
                self.int_resize(i, IrType::I32, rt)
            }
        }))
    }

    /// The IR operation of an arithmetic `BinaryOp` on operands of `ty`.
    pub fn arith_op(op: BinaryOp, ty: IrType, signed: bool) -> Option<IrBinOp> {
        Some(match op {
            BinaryOp::Add => IrBinOp::Add,
            BinaryOp::Sub => IrBinOp::Sub,
            BinaryOp::Mul => IrBinOp::Mul,
            BinaryOp::Div if signed || ty.is_float() => IrBinOp::SDiv,
            BinaryOp::Div => IrBinOp::UDiv,
            BinaryOp::Rem if signed => IrBinOp::SRem,
            BinaryOp::Rem => IrBinOp::URem,
            BinaryOp::Shl => IrBinOp::Shl,
            BinaryOp::Shr if signed => IrBinOp::AShr,
            BinaryOp::Shr => IrBinOp::LShr,
            BinaryOp::BitAnd => IrBinOp::And,
            BinaryOp::BitOr => IrBinOp::Or,
            BinaryOp::BitXor => IrBinOp::Xor,
            _ => return None,
        })
    }

    fn compare_op(op: BinaryOp, ty: IrType, signed: bool) -> Option<IrCmpOp> {
        let s = signed || ty.is_float();
        Some(match op {
            BinaryOp::Eq => IrCmpOp::Eq,
            BinaryOp::Ne => IrCmpOp::Ne,
            BinaryOp::Lt if s => IrCmpOp::Slt,
            BinaryOp::Lt => IrCmpOp::Ult,
            BinaryOp::Le if s => IrCmpOp::Sle,
            BinaryOp::Le => IrCmpOp::Ule,
            BinaryOp::Gt if s => IrCmpOp::Sgt,
            BinaryOp::Gt => IrCmpOp::Ugt,
            BinaryOp::Ge if s => IrCmpOp::Sge,
            BinaryOp::Ge => IrCmpOp::Uge,
            _ => return None,
        })
    }

    /// A comparison as an `i8` flag.
    fn compare(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> LResult<Option<Value>> {
        if is_complex(&l.ty.ty) {
            if !matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                return Ok(None);
            }
            return self.complex_compare(op, l, r).map(Some);
        }
        let ty = self.ir(&l.ty.ty, l.span)?;
        let signed = self.cx.types.is_signed(&l.ty.ty);
        let Some(cop) = Self::compare_op(op, ty, signed) else {
            return Ok(None);
        };
        let lv = self.scalar(l)?;
        let rv = self.scalar(r)?;
        let rty = self.ir(&r.ty.ty, r.span)?;
        let rv = if rty.size() != ty.size() && !ty.is_float() {
            self.int_resize(rv, rty, ty)
        } else {
            rv
        };
        Ok(Some(self.b.cmp(cop, ty, lv, rv)))
    }

    fn binary(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> LResult<RValue> {
        if let Some(flag) = self.compare(op, l, r)? {
            return Ok(RValue::Scalar(self.bool_to_int(flag.into())));
        }
        let ty = self.ir(&l.ty.ty, l.span)?;
        let signed = self.cx.types.is_signed(&l.ty.ty);
        let iop = Self::arith_op(op, ty, signed).ok_or_else(|| Diagnostic::error(l.span, "bad binary operator"))?;
        let lv = self.scalar(l)?;
        let rv = self.scalar(r)?;
        let rty = self.ir(&r.ty.ty, r.span)?;
        let rv = if rty != ty && !ty.is_float() && !rty.is_float() {
            self.int_resize(rv, rty, ty)
        } else {
            rv
        };
        Ok(RValue::Scalar(self.b.binop(iop, ty, lv, rv).into()))
    }

    /// Branches to `t` when the scalar `e` is nonzero, else to `f`.
    /// A constant condition branches unconditionally: the dead side has no
    /// predecessor, so lowering prunes it with its calls (as gcc -O0 drops
    /// `if (0)`, `0 && f()`, `0 ? f() : x`).
    pub fn branch_on(&mut self, e: &Expr, t: BlockId, f: BlockId) -> LResult<()> {
        match &e.kind {
            ExprKind::Int(v) => {
                self.b.branch(if *v != 0 { t } else { f });
                Ok(())
            }
            ExprKind::LogAnd(a, b) => {
                let mid = self.b.new_block();
                self.branch_on(a, mid, f)?;
                self.b.start(mid);
                self.branch_on(b, t, f)
            }
            ExprKind::LogOr(a, b) => {
                let mid = self.b.new_block();
                self.branch_on(a, t, mid)?;
                self.b.start(mid);
                self.branch_on(b, t, f)
            }
            ExprKind::Unary(UnaryOp::LogNot, x) => self.branch_on(x, f, t),
            ExprKind::Cast(CastKind::ToBool, x) => self.branch_on(x, t, f),
            ExprKind::Comma(a, b) => {
                self.effect(a)?;
                self.branch_on(b, t, f)
            }
            ExprKind::Binary(op, l, r) => match self.compare(*op, l, r)? {
                Some(flag) => {
                    self.b.cond_branch(flag.into(), t, f);
                    Ok(())
                }
                None => self.branch_on_value(e, t, f),
            },
            _ => self.branch_on_value(e, t, f),
        }
    }

    fn branch_on_value(&mut self, e: &Expr, t: BlockId, f: BlockId) -> LResult<()> {
        if is_complex(&e.ty.ty) {
            return self.branch_on_complex(e, t, f);
        }
        let ty = self.ir(&e.ty.ty, e.span)?;
        let v = self.scalar(e)?;
        let flag = self.b.cmp(IrCmpOp::Ne, ty, v, Operand::Const(IrConst::zero(ty)));
        self.b.cond_branch(flag.into(), t, f);
        Ok(())
    }

    fn conditional(&mut self, e: &Expr, c: &Expr, a: &Expr, b: &Expr) -> LResult<RValue> {
        let (t, f, end) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        let repr = self.repr(&e.ty.ty, e.span)?;
        // The result slot is made before branching (it lives in the entry anyway).
        let slot = match repr {
            Repr::Scalar(ty) => Some(self.temp_scalar(ty)),
            Repr::Aggregate { size, align } => Some(self.temp_object(size, align)),
            Repr::Void => None,
        };
        self.branch_on(c, t, f)?;
        for (block, arm) in [(t, a), (f, b)] {
            self.b.start(block);
            match (repr, slot) {
                (Repr::Scalar(ty), Some(s)) => {
                    let v = self.scalar(arm)?;
                    self.b.store(ty, v, s);
                }
                (Repr::Aggregate { size, .. }, Some(s)) => {
                    let src = self.aggregate(arm)?;
                    self.b.memcpy(s, src, size);
                }
                _ => self.effect(arm)?,
            }
            self.b.branch(end);
        }
        self.b.start(end);
        Ok(match (repr, slot) {
            (Repr::Scalar(ty), Some(s)) => RValue::Scalar(self.b.load(ty, s).into()),
            (Repr::Aggregate { .. }, Some(s)) => RValue::Agg(s),
            _ => RValue::Void,
        })
    }

    fn assign(&mut self, e: &Expr, lhs: &Expr, rhs: &Expr) -> LResult<RValue> {
        match self.repr(&lhs.ty.ty, lhs.span)? {
            Repr::Aggregate { size, .. } => {
                let p = self.place(lhs)?;
                let src = self.aggregate(rhs)?;
                self.b.memcpy(p.addr, src, size);
                Ok(RValue::Agg(p.addr))
            }
            Repr::Scalar(_) => {
                let (p, ty, signed) = self.scalar_place(lhs)?;
                let v = self.scalar(rhs)?;
                Ok(RValue::Scalar(self.store_place(p, ty, v, signed)))
            }
            Repr::Void => Err(Diagnostic::error(e.span, "assignment to an object of type void")),
        }
    }

    fn compound_assign(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        op_ty: &QualType,
        ptr_elem_size: Option<u64>,
    ) -> LResult<RValue> {
        let r = self.scalar(rhs)?;
        let rty = self.ir(&rhs.ty.ty, rhs.span)?;
        let (p, lty, signed) = self.scalar_place(lhs)?;
        let old = self.load_place(p, lty, signed);
        let new: Operand = if let Some(n) = ptr_elem_size {
            let elem = self.cx.types.pointee_ir_type(&lhs.ty.ty);
            self.ptr_offset(old, r, rty, n, op == BinaryOp::Sub, elem).into()
        } else {
            let oty = self.ir(&op_ty.ty, lhs.span)?;
            let osigned = self.cx.types.is_signed(&op_ty.ty);
            let err = |m: String| Diagnostic::error(lhs.span, m);
            let old = self.convert(arith_cast_kind(lty, oty), old, lty, oty).map_err(err)?;
            let r = if rty != oty && !rty.is_float() && !oty.is_float() {
                self.int_resize(r, rty, oty)
            } else {
                r
            };
            let iop = Self::arith_op(op, oty, osigned).ok_or_else(|| err("bad compound operator".into()))?;
            let res = self.b.binop(iop, oty, old, r).into();
            let back = if is_bool(&lhs.ty.ty) {
                CastKind::ToBool
            } else {
                arith_cast_kind(oty, lty)
            };
            self.convert(back, res, oty, lty).map_err(err)?
        };
        Ok(RValue::Scalar(self.store_place(p, lty, new, signed)))
    }

    fn inc_dec(&mut self, lhs: &Expr, is_prefix: bool, delta: i64, ptr_elem_size: Option<u64>) -> LResult<RValue> {
        let (p, ty, signed) = self.scalar_place(lhs)?;
        let old = self.load_place(p, ty, signed);
        let new: Operand = if let Some(n) = ptr_elem_size {
            let elem = self.cx.types.pointee_ir_type(&lhs.ty.ty);
            self.ptr_offset(old, Operand::Const(IrConst::I64(delta)), IrType::I64, n, false, elem)
                .into()
        } else if ty.is_float() {
            let one = match ty {
                IrType::F32 => IrConst::F32(delta as f32),
                IrType::F128 => IrConst::long_double(delta as f64),
                _ => IrConst::F64(delta as f64),
            };
            self.b.binop(IrBinOp::Add, ty, old, Operand::Const(one)).into()
        } else if is_bool(&lhs.ty.ty) {
            // `b++` is `b = (int)b + 1`, `b--` is `b = (int)b - 1`, each converted to _Bool.
            let wide = self.int_resize(old, ty, IrType::I32);
            let sum = self.b.binop(
                IrBinOp::Add,
                IrType::I32,
                wide,
                Operand::Const(IrConst::I32(delta as i32)),
            );
            self.bool_of(sum.into(), IrType::I32)
        } else {
            self.b
                .binop(
                    IrBinOp::Add,
                    ty,
                    old,
                    Operand::Const(IrConst::from_i128(delta as i128, ty)),
                )
                .into()
        };
        let stored = self.store_place(p, ty, new, signed);
        Ok(RValue::Scalar(if is_prefix { stored } else { old }))
    }
}
