//! Binary operators (C11 6.5.5-6.5.14, 6.5.17), the conditional operator
//! (6.5.15, with GNU `c ?: b`) and assignment (6.5.16): operand constraints,
//! the usual arithmetic conversions, pointer arithmetic (`PtrAdd`/`PtrDiff`,
//! GNU arithmetic on `void *`), pointer comparisons and null pointer
//! constants.

use super::super::ast;
use super::super::hir::{BinaryOp, CastKind, Expr, ExprKind};
use super::super::source::{PResult, Span};
use super::super::types::{CType, QualType};
use super::conv::AssignCtx;
use super::expr::mk;
use super::ty::{self, unqual};
use super::vector::vector_parts;
use super::{const_eval, err, Sema};

fn hir_op(op: ast::BinaryOp) -> Option<BinaryOp> {
    use ast::BinaryOp as A;
    Some(match op {
        A::Mul => BinaryOp::Mul,
        A::Div => BinaryOp::Div,
        A::Rem => BinaryOp::Rem,
        A::Add => BinaryOp::Add,
        A::Sub => BinaryOp::Sub,
        A::Shl => BinaryOp::Shl,
        A::Shr => BinaryOp::Shr,
        A::Lt => BinaryOp::Lt,
        A::Gt => BinaryOp::Gt,
        A::Le => BinaryOp::Le,
        A::Ge => BinaryOp::Ge,
        A::Eq => BinaryOp::Eq,
        A::Ne => BinaryOp::Ne,
        A::BitAnd => BinaryOp::BitAnd,
        A::BitXor => BinaryOp::BitXor,
        A::BitOr => BinaryOp::BitOr,
        A::LogAnd | A::LogOr | A::Comma => return None,
    })
}

pub(super) fn op_str(op: BinaryOp) -> &'static str {
    use BinaryOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        Rem => "%",
        Shl => "<<",
        Shr => ">>",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
        Eq => "==",
        Ne => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
    }
}

fn is_comparison(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
    )
}

/// Whether evaluating `e` twice is the same as once (no side effects, not volatile).
pub(super) fn is_pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::LabelAddr(_) => true,
        ExprKind::Local(_) | ExprKind::Global(_) => !e.ty.quals.is_volatile,
        ExprKind::Load(x) | ExprKind::ArrayDecay(x) | ExprKind::FuncDecay(x) | ExprKind::AddrOf(x) => {
            !e.ty.quals.is_volatile && !x.ty.quals.is_volatile && is_pure(x)
        }
        ExprKind::Cast(_, x) => is_pure(x),
        _ => false,
    }
}

impl Sema {
    /// Builds a binary node, folding constants. `ty` is the node type.
    pub(super) fn mk_binary(&self, op: BinaryOp, l: Expr, r: Expr, ty: QualType, span: Span) -> Expr {
        if let Some(k) = const_eval::fold_binary(op, &l, &r, &ty, &self.types, self.target) {
            return mk(k, ty, span);
        }
        mk(ExprKind::Binary(op, Box::new(l), Box::new(r)), ty, span)
    }

    pub(super) fn binary(&mut self, op: ast::BinaryOp, l: &ast::Expr, r: &ast::Expr, span: Span) -> PResult<Expr> {
        match op {
            ast::BinaryOp::Comma => {
                let a = self.rvalue_of(l)?;
                let b = self.rvalue_of(r)?;
                let t = b.ty.clone();
                Ok(mk(ExprKind::Comma(Box::new(a), Box::new(b)), t, span))
            }
            ast::BinaryOp::LogAnd | ast::BinaryOp::LogOr => {
                let what = if op == ast::BinaryOp::LogAnd {
                    " (operand of '&&')"
                } else {
                    " (operand of '||')"
                };
                let a = self.scalar_of(l, what)?;
                let b = self.scalar_of(r, what)?;
                let truth = |e: &Expr| match e.kind {
                    ExprKind::Int(v) => Some(v != 0),
                    ExprKind::Float(f) => Some(!f.is_zero()),
                    _ => None,
                };
                if let (Some(x), Some(y)) = (truth(&a), truth(&b)) {
                    let v = if op == ast::BinaryOp::LogAnd { x && y } else { x || y };
                    return Ok(mk(ExprKind::Int(v as i128), ty::int(), span));
                }
                // A constant left operand that decides the result makes an
                // integer constant expression whatever the unevaluated right
                // one is (C11 6.6p3: `1 || 1 / 0`, `0 && f()`).
                match (op, truth(&a)) {
                    (ast::BinaryOp::LogAnd, Some(false)) => return Ok(mk(ExprKind::Int(0), ty::int(), span)),
                    (ast::BinaryOp::LogOr, Some(true)) => return Ok(mk(ExprKind::Int(1), ty::int(), span)),
                    _ => {}
                }
                let k = if op == ast::BinaryOp::LogAnd {
                    ExprKind::LogAnd(Box::new(a), Box::new(b))
                } else {
                    ExprKind::LogOr(Box::new(a), Box::new(b))
                };
                Ok(mk(k, ty::int(), span))
            }
            _ => {
                let a = self.rvalue_of(l)?;
                let b = self.rvalue_of(r)?;
                let op = hir_op(op).expect("arithmetic operator");
                self.binary_values(op, a, b, span)
            }
        }
    }

    fn invalid_operands(&self, op: BinaryOp, a: &Expr, b: &Expr, span: Span) -> super::super::source::Diagnostic {
        err(
            span,
            format!(
                "invalid operands to binary {} (have '{}' and '{}')",
                op_str(op),
                self.type_str(&a.ty),
                self.type_str(&b.ty)
            ),
        )
    }

    /// A binary operator on two values.
    pub(super) fn binary_values(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> PResult<Expr> {
        use BinaryOp::*;
        if vector_parts(&a.ty.ty).is_some() || vector_parts(&b.ty.ty).is_some() {
            return self.vector_binary(op, a, b, span);
        }
        if matches!(&*a.ty.ty, CType::Complex(_)) || matches!(&*b.ty.ty, CType::Complex(_)) {
            return self.complex_binary(op, a, b, span);
        }
        let is_arith = |s: &Sema, e: &Expr| ty::arith(&e.ty.ty, &s.types).is_some();
        let is_int = |s: &Sema, e: &Expr| ty::int_kind(&e.ty.ty, &s.types).is_some();
        let ap = ty::is_pointer(&a.ty.ty);
        let bp = ty::is_pointer(&b.ty.ty);
        match op {
            Mul | Div | Rem | BitAnd | BitOr | BitXor => {
                let ok = if matches!(op, Mul | Div) {
                    is_arith(self, &a) && is_arith(self, &b)
                } else {
                    is_int(self, &a) && is_int(self, &b)
                };
                if !ok {
                    return Err(self.invalid_operands(op, &a, &b, span));
                }
                if matches!(op, Div | Rem) && matches!(b.kind, ExprKind::Int(0)) {
                    self.warn(span, "division by zero");
                }
                let (pa, pb) = (self.operand_precision(&a), self.operand_precision(&b));
                let (a, b, t) = self.usual_arith(a, b);
                let r = self.mk_binary(op, a, b, t, span);
                Ok(self.with_gcc_precision(r, &[pa, pb]))
            }
            Add => {
                if is_arith(self, &a) && is_arith(self, &b) {
                    let (pa, pb) = (self.operand_precision(&a), self.operand_precision(&b));
                    let (a, b, t) = self.usual_arith(a, b);
                    let r = self.mk_binary(op, a, b, t, span);
                    return Ok(self.with_gcc_precision(r, &[pa, pb]));
                }
                if ap && is_int(self, &b) {
                    return self.ptr_add(a, b, false, span);
                }
                if bp && is_int(self, &a) {
                    return self.ptr_add(b, a, false, span);
                }
                Err(self.invalid_operands(op, &a, &b, span))
            }
            Sub => {
                if is_arith(self, &a) && is_arith(self, &b) {
                    let (pa, pb) = (self.operand_precision(&a), self.operand_precision(&b));
                    let (a, b, t) = self.usual_arith(a, b);
                    let r = self.mk_binary(op, a, b, t, span);
                    return Ok(self.with_gcc_precision(r, &[pa, pb]));
                }
                if ap && is_int(self, &b) {
                    return self.ptr_add(a, b, true, span);
                }
                if ap && bp {
                    return self.ptr_diff(a, b, span);
                }
                Err(self.invalid_operands(op, &a, &b, span))
            }
            Shl | Shr => {
                if !is_int(self, &a) || !is_int(self, &b) {
                    return Err(self.invalid_operands(op, &a, &b, span));
                }
                let pa = self.operand_precision(&a);
                let a = self.promote(a);
                let b = self.promote(b);
                let t = a.ty.clone();
                let r = self.mk_binary(op, a, b, t, span);
                Ok(self.with_gcc_precision(r, &[pa]))
            }
            Eq | Ne | Lt | Le | Gt | Ge => {
                if is_arith(self, &a) && is_arith(self, &b) {
                    let (a, b, _) = self.usual_arith(a, b);
                    return Ok(self.mk_binary(op, a, b, ty::int(), span));
                }
                let equality = matches!(op, Eq | Ne);
                let (a, b) = if ap && bp {
                    let pa = ty::pointee(&a.ty.ty).cloned().unwrap_or_else(ty::void);
                    let pb = ty::pointee(&b.ty.ty).cloned().unwrap_or_else(ty::void);
                    let voidish = ty::is_void(&pa.ty) || ty::is_void(&pb.ty);
                    if !self.compatible_unqual(&pa.ty, &pb.ty) && (!equality || !voidish) {
                        if self.is_null_pointer_constant(&b) || self.is_null_pointer_constant(&a) {
                            // `p < (void *)0` and the like: gcc accepts quietly.
                        } else if voidish {
                            // Ordering a `void *` against an object pointer is a GNU extension.
                        } else {
                            self.warn(span, "comparison of distinct pointer types lacks a cast");
                        }
                    }
                    let t = a.ty.clone();
                    let b = self.convert(b, &t);
                    (a, b)
                } else if ap && is_int(self, &b) {
                    if !self.is_null_pointer_constant(&b) {
                        self.warn(span, "comparison between pointer and integer");
                    }
                    let t = a.ty.clone();
                    let b = self.convert(b, &t);
                    (a, b)
                } else if bp && is_int(self, &a) {
                    if !self.is_null_pointer_constant(&a) {
                        self.warn(span, "comparison between pointer and integer");
                    }
                    let t = b.ty.clone();
                    let a = self.convert(a, &t);
                    (a, b)
                } else {
                    return Err(self.invalid_operands(op, &a, &b, span));
                };
                Ok(self.mk_binary(op, a, b, ty::int(), span))
            }
        }
    }

    /// `lhs = rhs` for a record with variably modified members: a `memcpy`
    /// of its run-time size from the object `rhs` reads; the value is the
    /// object `lhs` (read as its address by lowering, see hir `Load`).
    fn variable_record_assign(&mut self, lhs: Expr, rhs: Expr, span: Span) -> PResult<Expr> {
        if lhs.ty.quals.is_const {
            return Err(err(span, "assignment of read-only location"));
        }
        if !self.compatible_unqual(&lhs.ty.ty, &rhs.ty.ty) {
            return Err(err(span, "incompatible types when assigning a struct"));
        }
        let Some(src) = self.object_address(rhs, span)? else {
            return Err(err(
                span,
                "a value of a struct with variable-size members that is not an object is not supported",
            ));
        };
        let t = unqual(&lhs.ty);
        let size = self.vla_runtime_size(&t, span)?;
        let dst = self.address_of(lhs, span)?;
        let vp = ty::void_ptr();
        let dst = mk(ExprKind::Cast(CastKind::PtrToPtr, Box::new(dst)), vp.clone(), span);
        let src = mk(ExprKind::Cast(CastKind::PtrToPtr, Box::new(src)), vp, span);
        let copy = self.library_call("memcpy", vec![dst, src, size], span)?;
        let p = mk(
            ExprKind::Cast(CastKind::PtrToPtr, Box::new(copy)),
            ty::ptr_to(t.clone()),
            span,
        );
        Ok(mk(ExprKind::Deref(Box::new(p)), t, span))
    }

    /// The address of the object a record value was read from (`Load` of
    /// an lvalue, possibly the result of a statement expression or comma).
    fn object_address(&mut self, v: Expr, span: Span) -> PResult<Option<Expr>> {
        Ok(match v.kind {
            ExprKind::Load(lv) => Some(self.address_of(*lv, span)?),
            ExprKind::Comma(a, b) => self.object_address(*b, span)?.map(|b| {
                let pt = b.ty.clone();
                mk(ExprKind::Comma(a, Box::new(b)), pt, span)
            }),
            ExprKind::StmtExpr { body, result: Some(r) } => self.object_address(*r, span)?.map(|r| {
                let pt = r.ty.clone();
                mk(
                    ExprKind::StmtExpr {
                        body,
                        result: Some(Box::new(r)),
                    },
                    pt,
                    span,
                )
            }),
            _ => None,
        })
    }

    /// `p + i` / `p - i` (6.5.6p8): the index as a `long`, negated for `-`.
    pub(super) fn ptr_add(&mut self, p: Expr, i: Expr, negate: bool, span: Span) -> PResult<Expr> {
        let elem = ty::pointee(&p.ty.ty).cloned().unwrap_or_else(ty::void);
        let size = self.pointee_size(&elem, span)?;
        let i = self.promote(i);
        let mut idx = self.convert(i, &ty::long());
        if negate {
            idx = self.mk_unary(super::super::hir::UnaryOp::Neg, idx, span);
        }
        let elem_size = if size == u64::MAX {
            // A pointer to a VLA: scale by its run-time size.
            let bytes = self.vla_runtime_size(&elem, span)?;
            let bytes = self.convert(bytes, &ty::long());
            idx = self.mk_binary(BinaryOp::Mul, idx, bytes, ty::long(), span);
            1
        } else {
            size
        };
        let t = unqual(&p.ty);
        Ok(mk(
            ExprKind::PtrAdd {
                ptr: Box::new(p),
                index: Box::new(idx),
                elem_size,
            },
            t,
            span,
        ))
    }

    /// `p - q` (6.5.6p9): the difference in elements as `ptrdiff_t`.
    fn ptr_diff(&mut self, a: Expr, b: Expr, span: Span) -> PResult<Expr> {
        let pa = ty::pointee(&a.ty.ty).cloned().unwrap_or_else(ty::void);
        let pb = ty::pointee(&b.ty.ty).cloned().unwrap_or_else(ty::void);
        if !self.compatible_unqual(&pa.ty, &pb.ty) {
            return Err(self.invalid_operands(BinaryOp::Sub, &a, &b, span));
        }
        let size = self.pointee_size(&pa, span)?;
        if size == u64::MAX {
            let d = mk(
                ExprKind::PtrDiff {
                    lhs: Box::new(a),
                    rhs: Box::new(b),
                    elem_size: 1,
                },
                ty::long(),
                span,
            );
            let bytes = self.vla_runtime_size(&pa, span)?;
            let bytes = self.convert(bytes, &ty::long());
            return Ok(self.mk_binary(BinaryOp::Div, d, bytes, ty::long(), span));
        }
        if size == 0 {
            return Err(err(span, "arithmetic on a pointer to an object of size zero"));
        }
        Ok(mk(
            ExprKind::PtrDiff {
                lhs: Box::new(a),
                rhs: Box::new(b),
                elem_size: size,
            },
            ty::long(),
            span,
        ))
    }

    /// `c ? a : b` and GNU `c ?: b` (6.5.15).
    pub(super) fn conditional(
        &mut self,
        c: &ast::Expr,
        mid: Option<&ast::Expr>,
        els: &ast::Expr,
        span: Span,
    ) -> PResult<Expr> {
        let c = self.scalar_of(c, " (condition of '?:')")?;
        let (c, a) = match mid {
            Some(m) => {
                let a = self.rvalue_of(m)?;
                (c, a)
            }
            None if is_pure(&c) || self.func.is_none() => {
                let a = c.clone();
                (c, a)
            }
            None => {
                // `c ?: b`: evaluate `c` once into a temporary.
                let t = c.ty.clone();
                let tmp = self.new_temp(t.clone(), span)?;
                let lhs = mk(ExprKind::Local(tmp), t.clone(), span);
                let set = mk(
                    ExprKind::Assign {
                        lhs: Box::new(lhs),
                        rhs: Box::new(c),
                    },
                    t.clone(),
                    span,
                );
                let read = self.load_local(tmp, t.clone(), span);
                let cond = mk(ExprKind::Comma(Box::new(set), Box::new(read.clone())), t, span);
                (cond, read)
            }
        };
        let b = self.rvalue_of(els)?;
        let (a, b, t) = self.cond_types(a, b, span)?;
        if let ExprKind::Int(v) = c.kind {
            let is_const = |e: &Expr| matches!(e.kind, ExprKind::Int(_) | ExprKind::Float(_));
            if is_const(&a) && is_const(&b) {
                return Ok(Expr {
                    span,
                    ..if v != 0 { a } else { b }
                });
            }
        }
        Ok(mk(ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), t, span))
    }

    /// The result type of `?:` (6.5.15p3-6) and both operands converted to it.
    fn cond_types(&mut self, a: Expr, b: Expr, span: Span) -> PResult<(Expr, Expr, QualType)> {
        let arith = |s: &Sema, e: &Expr| ty::arith(&e.ty.ty, &s.types).is_some();
        if arith(self, &a) && arith(self, &b) {
            return Ok(self.usual_arith(a, b));
        }
        if let (Some(x), Some(y)) = (self.real_arith(&a.ty.ty), self.real_arith(&b.ty.ty)) {
            // At least one `_Complex`: the complex type of the common real type.
            let p = if x == y {
                x
            } else {
                super::super::types::usual_arithmetic_conversion(x, y, self.target)
            };
            let t = super::complex::complex_ty(p);
            let a = self.convert(a, &t);
            let b = self.convert(b, &t);
            return Ok((a, b, t));
        }
        let (at, bt) = (a.ty.clone(), b.ty.clone());
        match (&*at.ty, &*bt.ty) {
            (CType::Void, CType::Void) => return Ok((a, b, ty::void())),
            (CType::Void, _) | (_, CType::Void) => {
                let to_void = |e: Expr| {
                    if ty::is_void(&e.ty.ty) {
                        e
                    } else {
                        let s = e.span;
                        mk(ExprKind::Cast(CastKind::ToVoid, Box::new(e)), ty::void(), s)
                    }
                };
                return Ok((to_void(a), to_void(b), ty::void()));
            }
            (CType::Record(x), CType::Record(y)) if x == y => return Ok((a, b, unqual(&at))),
            (CType::VaList, CType::VaList) => return Ok((a, b, unqual(&at))),
            (CType::Vector { .. }, CType::Vector { .. }) if at.ty == bt.ty => return Ok((a, b, unqual(&at))),
            _ => {}
        }
        let ap = ty::is_pointer(&at.ty);
        let bp = ty::is_pointer(&bt.ty);
        let t = if ap && bp {
            let pa = ty::pointee(&at.ty).cloned().unwrap_or_else(ty::void);
            let pb = ty::pointee(&bt.ty).cloned().unwrap_or_else(ty::void);
            let quals = ty::merge_quals(pa.quals, pb.quals);
            if self.is_null_pointer_constant(&a) {
                unqual(&bt)
            } else if self.is_null_pointer_constant(&b) {
                unqual(&at)
            } else if ty::is_void(&pa.ty) || ty::is_void(&pb.ty) {
                ty::ptr_to(ty::void().with_quals(quals))
            } else if self.compatible_unqual(&pa.ty, &pb.ty) {
                let c = self.composite(&unqual(&pa), &unqual(&pb));
                ty::ptr_to(c.with_quals(quals))
            } else {
                self.warn(span, "pointer type mismatch in conditional expression");
                ty::ptr_to(ty::void().with_quals(quals))
            }
        } else if ap && ty::int_kind(&bt.ty, &self.types).is_some() {
            if !self.is_null_pointer_constant(&b) {
                self.warn(span, "pointer/integer type mismatch in conditional expression");
            }
            unqual(&at)
        } else if bp && ty::int_kind(&at.ty, &self.types).is_some() {
            if !self.is_null_pointer_constant(&a) {
                self.warn(span, "pointer/integer type mismatch in conditional expression");
            }
            unqual(&bt)
        } else {
            return Err(err(
                span,
                format!(
                    "type mismatch in conditional expression ('{}' and '{}')",
                    self.type_str(&at),
                    self.type_str(&bt)
                ),
            ));
        };
        let a = self.convert(a, &t);
        let b = self.convert(b, &t);
        Ok((a, b, t))
    }

    /// `lhs = rhs` and `lhs op= rhs` (6.5.16).
    pub(super) fn assign(
        &mut self,
        op: Option<ast::BinaryOp>,
        l: &ast::Expr,
        r: &ast::Expr,
        span: Span,
    ) -> PResult<Expr> {
        let lhs = self.expr(l)?;
        if op.is_none()
            && lhs.is_lvalue()
            && matches!(&*lhs.ty.ty, CType::Record(_))
            && self.types.is_runtime_sized(&lhs.ty.ty)
        {
            let rhs = self.rvalue_of(r)?;
            return self.variable_record_assign(lhs, rhs, span);
        }
        self.check_modifiable(&lhs, "assignment", span)?;
        let rhs = self.rvalue_of(r)?;
        let lt = unqual(&lhs.ty);
        let Some(op) = op else {
            if matches!(&*lt.ty, CType::VaList) && self.va_list_is_array() {
                return Err(err(span, "assignment to expression with array type"));
            }
            let rhs = self.assign_convert(rhs, &lt, AssignCtx::Assign, span)?;
            return Ok(mk(
                ExprKind::Assign {
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                lt,
                span,
            ));
        };
        let op = hir_op(op).expect("compound assignment operator");
        if vector_parts(&lt.ty).is_some() || vector_parts(&rhs.ty.ty).is_some() {
            return self.vector_compound_assign(op, lhs, rhs, span);
        }
        if matches!(&*lt.ty, CType::Complex(_)) || matches!(&*rhs.ty.ty, CType::Complex(_)) {
            return self.complex_compound_assign(op, lhs, rhs, span);
        }
        if let CType::Pointer(p) = &*lt.ty {
            if matches!(op, BinaryOp::Add | BinaryOp::Sub) {
                if ty::int_kind(&rhs.ty.ty, &self.types).is_none() {
                    return Err(self.invalid_operands(op, &lhs, &rhs, span));
                }
                let p = p.clone();
                let size = self.pointee_size(&p, span)?;
                let rhs = self.promote(rhs);
                let mut idx = self.convert(rhs, &ty::long());
                let elem = if size == u64::MAX {
                    let bytes = self.vla_runtime_size(&p, span)?;
                    let bytes = self.convert(bytes, &ty::long());
                    idx = self.mk_binary(BinaryOp::Mul, idx, bytes, ty::long(), span);
                    1
                } else {
                    size
                };
                return Ok(mk(
                    ExprKind::CompoundAssign {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(idx),
                        op_ty: lt.clone(),
                        ptr_elem_size: Some(elem),
                    },
                    lt,
                    span,
                ));
            }
        }
        let int_only = !matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div);
        let ok = |s: &Sema, t: &CType| {
            if int_only {
                ty::int_kind(t, &s.types).is_some()
            } else {
                ty::arith(t, &s.types).is_some()
            }
        };
        if !ok(self, &lt.ty) || !ok(self, &rhs.ty.ty) || is_comparison(op) {
            return Err(self.invalid_operands(op, &lhs, &rhs, span));
        }
        // The promoted type of the left operand's value (bit-fields promote like gcc).
        let probe = mk(ExprKind::Int(0), lt.clone(), span);
        let probe = match &lhs.kind {
            ExprKind::Member { bitfield: Some(bf), .. } => mk(
                ExprKind::Load(Box::new(mk(
                    ExprKind::Member {
                        base: Box::new(probe.clone()),
                        offset: 0,
                        bitfield: Some(*bf),
                    },
                    lt.clone(),
                    span,
                ))),
                lt.clone(),
                span,
            ),
            _ => probe,
        };
        let (op_ty, rhs) = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            let t = self.promote(probe).ty;
            (t, self.promote(rhs))
        } else {
            let (_, rhs, t) = self.usual_arith(probe, rhs);
            (t, rhs)
        };
        Ok(mk(
            ExprKind::CompoundAssign {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
                op_ty,
                ptr_elem_size: None,
            },
            lt,
            span,
        ))
    }
}
