//! Expressions (C11 6.5.1-6.5.4): identifiers, constants and string
//! literals, `_Generic`, postfix operators (subscripts, calls, members,
//! `++`/`--`, compound literals), unary operators, `sizeof`/`_Alignof`,
//! casts, and the GNU forms (statement expressions, `&&label`,
//! `__builtin_va_arg`, `__builtin_offsetof`, `__builtin_types_compatible_p`).
//! Binary, conditional and assignment operators are in `binary.rs`.
//!
//! `expr` gives an expression as it stands (an lvalue stays an lvalue);
//! `rvalue_of` applies the conversions of 6.3.2.1 for use as an operand.

use super::super::ast::{self, Initializer};
use super::super::hir::{CastKind, Expr, ExprKind, Init, StaticInit, UnaryOp};
use super::super::literal::{IntLitType, Prefix};
use super::super::source::{PResult, Span};
use super::super::types::{ArrayLen, CType, IntKind, QualType, RecordId};
use super::conv::{bitfield_width, cast_kind};
use super::scope::{ObjRef, Ordinary};
use super::ty::{self, q, unqual};
use super::vector::vector_parts;
use super::{const_eval, err, Sema};
use std::sync::Arc;

pub(super) fn mk(kind: ExprKind, ty: QualType, span: Span) -> Expr {
    Expr { kind, ty, span }
}

impl Sema {
    /// An expression used for its value (6.3.2.1).
    pub(super) fn rvalue_of(&mut self, e: &ast::Expr) -> PResult<Expr> {
        let x = self.expr(e)?;
        self.value(x)
    }

    /// A scalar value (conditions of `if`, loops, `!`, `&&`, `?:`).
    pub(super) fn scalar_of(&mut self, e: &ast::Expr, what: &str) -> PResult<Expr> {
        let v = self.rvalue_of(e)?;
        if matches!(&*v.ty.ty, CType::Complex(_)) {
            return self.complex_truth(v, e.span);
        }
        if !ty::is_scalar(&v.ty.ty) {
            return Err(err(
                e.span,
                format!("used '{}' where a scalar is required{what}", self.type_str(&v.ty)),
            ));
        }
        Ok(v)
    }

    /// An expression as it stands: lvalues are not converted.
    pub(super) fn expr(&mut self, e: &ast::Expr) -> PResult<Expr> {
        self.enter(e.span)?;
        let r = self.expr_inner(e);
        self.leave();
        r
    }

    fn expr_inner(&mut self, e: &ast::Expr) -> PResult<Expr> {
        use ast::ExprKind as A;
        let span = e.span;
        match &e.kind {
            A::Ident(name) => self.ident(name, span),
            A::Int(lit) => {
                let k = match lit.ty {
                    IntLitType::Int => IntKind::Int,
                    IntLitType::UInt => IntKind::UInt,
                    IntLitType::Long => IntKind::Long,
                    IntLitType::ULong => IntKind::ULong,
                    IntLitType::LongLong => IntKind::LongLong,
                    IntLitType::ULongLong => IntKind::ULongLong,
                };
                Ok(mk(ExprKind::Int(lit.value as i128), ty::int_ty(k), span))
            }
            A::Imaginary(lit) => {
                let v = self.expr(lit)?;
                let Some(a) = ty::arith(&v.ty.ty, &self.types) else {
                    return Err(err(span, "invalid imaginary constant"));
                };
                let zero = self.convert(mk(ExprKind::Int(0), ty::int(), span), &v.ty);
                Ok(self.mk_complex(a, zero, v, span))
            }
            A::Float(lit) => {
                use super::super::literal::FloatSuffix;
                let k = match lit.suffix {
                    FloatSuffix::None => super::super::types::FloatKind::Double,
                    FloatSuffix::F => super::super::types::FloatKind::Float,
                    FloatSuffix::L => super::super::types::FloatKind::LongDouble,
                };
                // The literal is already rounded to its type (a `long double`
                // to each target format, this target's taken).
                let v = match lit.long_double {
                    Some(ld) => ld.get(self.target.long_double()),
                    None => crate::binary128::Binary128::from_f64(lit.value),
                };
                Ok(mk(ExprKind::Float(v), ty::float_ty(k), span))
            }
            A::Char { value, prefix } => {
                let t = match prefix {
                    Prefix::None | Prefix::U8 => ty::int(),
                    Prefix::Wide => self.wchar_t(),
                    Prefix::Utf16 => ty::int_ty(IntKind::UShort),
                    Prefix::Utf32 => ty::int_ty(IntKind::UInt),
                };
                let k = ty::int_kind(&t.ty, &self.types).unwrap_or(IntKind::Int);
                Ok(mk(
                    ExprKind::Int(const_eval::normalize(*value as i128, k, self.target)),
                    t,
                    span,
                ))
            }
            A::Str { prefix, units } => Ok(self.string_literal(*prefix, units, span)),
            A::Unary(op, x) => self.unary(*op, x, span),
            A::Binary(op, l, r) => self.binary(*op, l, r, span),
            A::Assign(op, l, r) => self.assign(*op, l, r, span),
            A::Cond(c, m, els) => self.conditional(c, m.as_deref(), els, span),
            A::Cast(tn, x) => self.cast(tn, x, span),
            A::SizeofExpr(x) => {
                let v = self.expr(x)?;
                if let ExprKind::Member { bitfield: Some(_), .. } = v.kind {
                    return Err(err(span, "'sizeof' applied to a bit-field"));
                }
                self.sizeof_type(&v.ty, span)
            }
            A::SizeofType(tn) => {
                let t = self.type_name(tn)?;
                let r = self.sizeof_type(&t, span)?;
                Ok(self.with_pending_sizes(r))
            }
            A::AlignofExpr(x) => {
                let v = self.expr(x)?;
                let member = match (&x.kind, &v.kind) {
                    (
                        A::Member(_, name) | A::Arrow(_, name),
                        ExprKind::Member {
                            base, bitfield: None, ..
                        },
                    ) => match &*base.ty.ty {
                        CType::Record(id) => self.member_decl_align(*id, name),
                        _ => None,
                    },
                    _ => None,
                };
                let a = match member.or_else(|| self.declared_align(&v)) {
                    Some(a) => a,
                    None => self.alignof_type(&v.ty, span)?,
                };
                Ok(mk(ExprKind::Int(a as i128), ty::size_t(), span))
            }
            A::AlignofType(tn) => {
                let t = self.type_name(tn)?;
                self.vla_pending.clear();
                let a = match self.typedef_align(&tn.specs, &tn.declarator.derived) {
                    Some(a) => a,
                    None => self.alignof_type(&t, span)?,
                };
                Ok(mk(ExprKind::Int(a as i128), ty::size_t(), span))
            }
            A::Call(f, args) => self.call(f, args, span),
            A::Index(a, i) => {
                let a = self.expr(a)?;
                if vector_parts(&a.ty.ty).is_some() {
                    let i = self.rvalue_of(i)?;
                    return self.vector_subscript(a, i, span);
                }
                let a = self.value(a)?;
                let i = self.rvalue_of(i)?;
                let (p, idx) = if ty::is_pointer(&a.ty.ty) {
                    (a, i)
                } else if ty::is_pointer(&i.ty.ty) {
                    (i, a)
                } else {
                    return Err(err(span, "subscripted value is neither array nor pointer"));
                };
                if ty::int_kind(&idx.ty.ty, &self.types).is_none() {
                    return Err(err(span, "array subscript is not an integer"));
                }
                let sum = self.ptr_add(p, idx, false, span)?;
                self.deref(sum, span)
            }
            A::Member(b, name) => {
                let b = self.expr(b)?;
                self.member(b, name, span)
            }
            A::Arrow(b, name) => {
                let p = self.rvalue_of(b)?;
                if !matches!(ty::pointee(&p.ty.ty), Some(t) if ty::is_record(&t.ty)) {
                    return Err(err(
                        span,
                        format!("invalid type argument of '->' (have '{}')", self.type_str(&p.ty)),
                    ));
                }
                let b = self.deref(p, span)?;
                self.member(b, name, span)
            }
            A::CompoundLiteral(tn, items) => self.compound_literal(tn, items, span),
            A::StmtExpr(block) => self.stmt_expr(block, span),
            A::Generic(ctrl, assocs) => {
                let c = self.rvalue_of(ctrl)?;
                let ct = unqual(&c.ty);
                let mut chosen = None;
                let mut default = None;
                for (tn, x) in assocs {
                    match tn {
                        Some(tn) => {
                            let t = self.type_name(tn)?;
                            self.vla_pending.clear();
                            if self.compatible(&unqual(&t), &ct) {
                                if chosen.is_some() {
                                    return Err(err(tn.span, "'_Generic' selector matches multiple associations"));
                                }
                                chosen = Some(x);
                            }
                        }
                        None => default = Some(x),
                    }
                }
                match chosen.or(default) {
                    Some(x) => self.expr(x),
                    None => Err(err(
                        span,
                        format!(
                            "'_Generic' selector of type '{}' is not compatible with any association",
                            self.type_str(&ct)
                        ),
                    )),
                }
            }
            A::LabelAddr(name) => {
                let id = self.label_ref(name, span)?;
                if let Some(f) = self.func.as_mut() {
                    f.labels[id.0 as usize].address_taken = true;
                }
                Ok(mk(ExprKind::LabelAddr(id), ty::void_ptr(), span))
            }
            A::VaArg(ap, tn) => {
                let t = self.type_name(tn)?;
                self.vla_pending.clear();
                let ap = self.va_list_operand(ap, false)?;
                if !ty::is_complete(&t.ty, &self.types) || ty::is_array(&t.ty) || ty::is_variably_modified(&t.ty) {
                    return Err(err(span, format!("invalid type '{}' for 'va_arg'", self.type_str(&t))));
                }
                if matches!(&*t.ty, CType::Float(super::super::types::FloatKind::Float))
                    || ty::int_kind(&t.ty, &self.types).is_some_and(|k| k.rank() < IntKind::Int.rank())
                {
                    self.warn(
                        span,
                        format!(
                            "'{}' is promoted when passed through '...' (so you should pass the promoted type to 'va_arg')",
                            self.type_str(&t)
                        ),
                    );
                }
                Ok(mk(ExprKind::VaArg(Box::new(ap)), unqual(&t), span))
            }
            A::Offsetof(tn, path) => self.offsetof(tn, path, span),
            A::TypesCompatible(a, b) => {
                let a = self.type_name(a)?;
                let b = self.type_name(b)?;
                self.vla_pending.clear();
                let v = self.compatible_unqual(&a.ty, &b.ty);
                Ok(mk(ExprKind::Int(v as i128), ty::int(), span))
            }
        }
    }

    pub(super) fn wchar_t(&self) -> QualType {
        if self.target.wchar_is_signed() {
            ty::int()
        } else {
            ty::int_ty(IntKind::UInt)
        }
    }

    /// An identifier in an expression (6.5.1p2).
    fn ident(&mut self, name: &Arc<str>, span: Span) -> PResult<Expr> {
        match self.scopes.lookup(name) {
            Some(Ordinary::Object { obj, ty, .. }) => {
                let kind = match obj {
                    ObjRef::Local(id) => ExprKind::Local(*id),
                    ObjRef::Global(id) => ExprKind::Global(*id),
                    // Only its type matters (a VLA bound in a prototype).
                    ObjRef::ProtoParam => ExprKind::Local(super::super::hir::LocalId(u32::MAX)),
                };
                Ok(mk(kind, ty.clone(), span))
            }
            Some(Ordinary::EnumConst { value, ty }) => Ok(mk(ExprKind::Int(*value), ty.clone(), span)),
            Some(Ordinary::Typedef { .. }) => {
                Err(err(span, format!("unexpected type name '{name}': expected expression")))
            }
            None => match &**name {
                "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__" => {
                    let Some(f) = self.func.as_ref() else {
                        return Err(err(span, format!("'{name}' is not defined outside a function")));
                    };
                    let text = f.name.to_string();
                    let units: Vec<u32> = text.bytes().map(|b| b as u32).collect();
                    Ok(self.string_literal(Prefix::None, &units, span))
                }
                _ => Err(err(span, format!("'{name}' undeclared"))),
            },
        }
    }

    /// A string literal object (6.4.5): an lvalue of array type.
    pub(super) fn string_literal(&mut self, prefix: Prefix, units: &[u32], span: Span) -> Expr {
        let (elem, unit) = self.string_elem(prefix);
        let mut bytes = Vec::with_capacity((units.len() + 1) * unit as usize);
        for &u in units.iter().chain(std::iter::once(&0)) {
            bytes.extend_from_slice(&u.to_le_bytes()[..unit as usize]);
        }
        let id = self.intern_string(bytes, unit);
        let t = q(CType::Array {
            elem,
            len: ArrayLen::Fixed(units.len() as u64 + 1),
        });
        mk(ExprKind::Str(id), t, span)
    }

    /// The element type and code unit size of a string literal with `prefix`.
    pub(super) fn string_elem(&self, prefix: Prefix) -> (QualType, u8) {
        match prefix {
            Prefix::None | Prefix::U8 => (ty::int_ty(IntKind::Char), 1),
            Prefix::Wide => (self.wchar_t(), 4),
            Prefix::Utf16 => (ty::int_ty(IntKind::UShort), 2),
            Prefix::Utf32 => (ty::int_ty(IntKind::UInt), 4),
        }
    }

    /// `*p` (6.5.3.2p4): an lvalue of the pointed-to type.
    pub(super) fn deref(&mut self, p: Expr, span: Span) -> PResult<Expr> {
        let Some(t) = ty::pointee(&p.ty.ty).cloned() else {
            return Err(err(
                span,
                format!("invalid type argument of unary '*' (have '{}')", self.type_str(&p.ty)),
            ));
        };
        Ok(mk(ExprKind::Deref(Box::new(p)), t, span))
    }

    fn unary(&mut self, op: ast::UnaryOp, x: &ast::Expr, span: Span) -> PResult<Expr> {
        use ast::UnaryOp as U;
        match op {
            U::Plus | U::Neg => {
                let v = self.rvalue_of(x)?;
                if vector_parts(&v.ty.ty).is_some() {
                    return self.vector_unary(op, v, span);
                }
                if matches!(&*v.ty.ty, CType::Complex(_)) {
                    if op == U::Plus {
                        return Ok(Expr { span, ..v });
                    }
                    return Ok(self.complex_unary(UnaryOp::Neg, v, span));
                }
                if ty::arith(&v.ty.ty, &self.types).is_none() {
                    return Err(err(
                        span,
                        format!(
                            "wrong type argument to unary {}",
                            if op == U::Plus { "plus" } else { "minus" }
                        ),
                    ));
                }
                let p = self.operand_precision(&v);
                let v = self.promote(v);
                if op == U::Plus {
                    return Ok(Expr { span, ..v });
                }
                let r = self.mk_unary(UnaryOp::Neg, v, span);
                Ok(self.with_gcc_precision(r, &[p]))
            }
            U::BitNot => {
                let v = self.rvalue_of(x)?;
                if vector_parts(&v.ty.ty).is_some() {
                    return self.vector_unary(op, v, span);
                }
                if matches!(&*v.ty.ty, CType::Complex(_)) {
                    // GNU: `~z` is the complex conjugate.
                    return Ok(self.complex_unary(UnaryOp::BitNot, v, span));
                }
                if ty::int_kind(&v.ty.ty, &self.types).is_none() {
                    return Err(err(span, "wrong type argument to bit-complement"));
                }
                let p = self.operand_precision(&v);
                let v = self.promote(v);
                let r = self.mk_unary(UnaryOp::BitNot, v, span);
                Ok(self.with_gcc_precision(r, &[p]))
            }
            U::Not => {
                let v = self.scalar_of(x, " (operand of '!')")?;
                let t = ty::int();
                if let Some(k) = const_eval::fold_unary(UnaryOp::LogNot, &v, &t, &self.types, self.target) {
                    return Ok(mk(k, t, span));
                }
                Ok(mk(ExprKind::Unary(UnaryOp::LogNot, Box::new(v)), t, span))
            }
            U::Deref => {
                let p = self.rvalue_of(x)?;
                self.deref(p, span)
            }
            U::AddrOf => {
                let e = self.expr(x)?;
                self.address_of(e, span)
            }
            U::PreInc | U::PreDec | U::PostInc | U::PostDec => {
                let lv = self.expr(x)?;
                let is_prefix = matches!(op, U::PreInc | U::PreDec);
                let up = matches!(op, U::PreInc | U::PostInc);
                self.inc_dec(lv, is_prefix, up, span)
            }
            U::Real | U::Imag => {
                let e = self.expr(x)?;
                self.real_imag(e, op == U::Imag, span)
            }
        }
    }

    pub(super) fn mk_unary(&self, op: UnaryOp, v: Expr, span: Span) -> Expr {
        let t = v.ty.clone();
        if let Some(k) = const_eval::fold_unary(op, &v, &t, &self.types, self.target) {
            return mk(k, t, span);
        }
        mk(ExprKind::Unary(op, Box::new(v)), t, span)
    }

    /// `&e` (6.5.3.2p3).
    pub(super) fn address_of(&mut self, e: Expr, span: Span) -> PResult<Expr> {
        if ty::is_function(&e.ty.ty) {
            return self.value(e);
        }
        if !e.is_lvalue() {
            return Err(err(span, "lvalue required as unary '&' operand"));
        }
        if let ExprKind::Member { bitfield: Some(_), .. } = e.kind {
            return Err(err(span, "cannot take address of bit-field"));
        }
        if let ExprKind::Local(id) = e.kind {
            if self.func.as_ref().is_some_and(|f| f.register_locals.contains(&id)) {
                return Err(err(span, "address of register variable requested"));
            }
        }
        let t = ty::ptr_to(e.ty.clone());
        if let ExprKind::Deref(p) = e.kind {
            // `&*p` is `p`, not evaluated as a dereference (6.5.3.2p3).
            return Ok(Expr { ty: t, span, ..*p });
        }
        Ok(mk(ExprKind::AddrOf(Box::new(e)), t, span))
    }

    /// Whether an lvalue may be assigned (6.3.2.1p1), with gcc's wording.
    pub(super) fn check_modifiable(&self, e: &Expr, what: &str, span: Span) -> PResult<()> {
        if !e.is_lvalue() || ty::is_function(&e.ty.ty) {
            let operand = if what == "assignment" {
                "left operand of assignment".to_string()
            } else {
                format!("{what} operand")
            };
            return Err(err(span, format!("lvalue required as {operand}")));
        }
        if ty::is_array(&e.ty.ty) {
            return Err(err(span, format!("{what} to expression with array type")));
        }
        if ty::is_void(&e.ty.ty) || !ty::is_complete(&e.ty.ty, &self.types) {
            return Err(err(span, format!("{what} of an object of incomplete type")));
        }
        if e.ty.quals.is_const || self.record_has_const_member(&e.ty.ty) {
            let target = match &e.kind {
                ExprKind::Local(id) => self
                    .func
                    .as_ref()
                    .and_then(|f| f.locals.get(id.0 as usize))
                    .map(|l| format!("read-only variable '{}'", l.name)),
                ExprKind::Global(id) => Some(format!(
                    "read-only variable '{}'",
                    self.global_info[id.0 as usize].c_name
                )),
                ExprKind::Member { .. } => Some("read-only member".to_string()),
                _ => None,
            };
            return Err(err(
                span,
                format!("{what} of {}", target.unwrap_or_else(|| "read-only location".into())),
            ));
        }
        Ok(())
    }

    fn record_has_const_member(&self, t: &CType) -> bool {
        let CType::Record(id) = t else { return false };
        self.types.records[id.0 as usize]
            .members
            .iter()
            .any(|m| m.ty.quals.is_const || self.record_has_const_member(&m.ty.ty))
    }

    /// `++`/`--` (6.5.2.4, 6.5.3.1).
    fn inc_dec(&mut self, lv: Expr, is_prefix: bool, up: bool, span: Span) -> PResult<Expr> {
        let what = if up { "increment" } else { "decrement" };
        self.check_modifiable(&lv, what, span)?;
        let t = unqual(&lv.ty);
        if vector_parts(&t.ty).is_some() {
            return self.vector_inc_dec(lv, is_prefix, up, span);
        }
        if matches!(&*t.ty, CType::Complex(_)) {
            return self.complex_inc_dec(lv, is_prefix, up, span);
        }
        let ptr_elem_size = match &*t.ty {
            CType::Pointer(p) => Some(self.pointee_size(p, span)?),
            c if ty::arith(c, &self.types).is_some() => None,
            _ => return Err(err(span, format!("wrong type argument to {what}"))),
        };
        if ptr_elem_size == Some(u64::MAX) {
            return self.vla_pointer_step(lv, is_prefix, up, span);
        }
        Ok(mk(
            ExprKind::IncDec {
                lhs: Box::new(lv),
                is_prefix,
                delta: if up { 1 } else { -1 },
                ptr_elem_size,
            },
            t,
            span,
        ))
    }

    /// `++p`/`p--` on a pointer to a VLA: the step is a run-time size, so it
    /// is `p += n` (prefix) or `(tmp = p, p += n, tmp)` (postfix; `p` must
    /// then be a simple lvalue, evaluated twice).
    fn vla_pointer_step(&mut self, lv: Expr, is_prefix: bool, up: bool, span: Span) -> PResult<Expr> {
        let t = unqual(&lv.ty);
        let elem = ty::pointee(&t.ty).cloned().expect("a pointer");
        let bytes = self.vla_runtime_size(&elem, span)?;
        let mut step = self.convert(bytes, &ty::long());
        if !up {
            step = self.mk_unary(UnaryOp::Neg, step, span);
        }
        let add = |lhs: Expr, step: Expr| {
            mk(
                ExprKind::CompoundAssign {
                    op: super::super::hir::BinaryOp::Add,
                    lhs: Box::new(lhs),
                    rhs: Box::new(step),
                    op_ty: t.clone(),
                    ptr_elem_size: Some(1),
                },
                t.clone(),
                span,
            )
        };
        if is_prefix {
            return Ok(add(lv, step));
        }
        if !super::binary::is_pure(&lv) {
            return Err(err(
                span,
                "postfix step of a pointer to a variable length array needs a simple operand",
            ));
        }
        let tmp = self.new_temp(t.clone(), span)?;
        let old = self.value(lv.clone())?;
        let save = mk(
            ExprKind::Assign {
                lhs: Box::new(mk(ExprKind::Local(tmp), t.clone(), span)),
                rhs: Box::new(old),
            },
            t.clone(),
            span,
        );
        let read = self.load_local(tmp, t.clone(), span);
        let stepped = add(lv, step);
        let tail = mk(ExprKind::Comma(Box::new(stepped), Box::new(read)), t.clone(), span);
        Ok(mk(ExprKind::Comma(Box::new(save), Box::new(tail)), t, span))
    }

    /// The element size for arithmetic on a pointer to `p`: 1 for `void` and
    /// functions (GNU), `u64::MAX` for a VLA (a run-time size).
    pub(super) fn pointee_size(&self, p: &QualType, span: Span) -> PResult<u64> {
        match &*p.ty {
            CType::Void | CType::Function { .. } => Ok(1),
            t if self.types.is_runtime_sized(t) => Ok(u64::MAX),
            _ => self.types.size_of(&p.ty).map_err(|_| {
                err(
                    span,
                    format!("arithmetic on a pointer to an incomplete type '{}'", self.type_str(p)),
                )
            }),
        }
    }

    /// `(type) e` (6.5.4).
    fn cast(&mut self, tn: &ast::TypeName, x: &ast::Expr, span: Span) -> PResult<Expr> {
        let t = self.type_name(tn)?;
        let v = self.rvalue_of(x)?;
        let v = self.with_pending_sizes(v);
        let to = unqual(&t);
        if matches!(&*t.ty, CType::Complex(_)) || matches!(&*v.ty.ty, CType::Complex(_)) {
            if ty::is_void(&to.ty) {
                return Ok(mk(ExprKind::Cast(CastKind::ToVoid, Box::new(v)), to, span));
            }
            if self.real_arith(&to.ty).is_none() || self.real_arith(&v.ty.ty).is_none() {
                return Err(err(
                    span,
                    format!(
                        "invalid cast from '{}' to '{}'",
                        self.type_str(&v.ty),
                        self.type_str(&to)
                    ),
                ));
            }
            return Ok(Expr {
                span,
                ..self.convert(v, &to)
            });
        }
        if ty::is_void(&to.ty) {
            return Ok(mk(ExprKind::Cast(CastKind::ToVoid, Box::new(v)), to, span));
        }
        if vector_parts(&to.ty).is_some() || vector_parts(&v.ty.ty).is_some() {
            return self.vector_cast(v, to, span);
        }
        if let CType::Record(id) = &*to.ty {
            if matches!(&*v.ty.ty, CType::Record(x) if x == id) {
                return Ok(Expr { ty: to, span, ..v });
            }
            if self.types.records[id.0 as usize].is_union {
                return self.union_cast(*id, v, span);
            }
        }
        if !ty::is_scalar(&to.ty) {
            return Err(err(span, "conversion to non-scalar type requested"));
        }
        if ty::is_void(&v.ty.ty) {
            return Err(err(span, "void value not ignored as it ought to be"));
        }
        match cast_kind(&v.ty.ty, &to.ty) {
            Some(k) => {
                // A cast of a bit-field to its own declared type is still a
                // conversion: the result is a full `unsigned int` (say), no
                // longer a bit-field that promotes to `int` (C11 6.3.1.1p2,
                // 6.5.4p5; gcc.c-torture/execute/bitfld-1.c). Likewise
                // arithmetic GCC does at a bit-field's precision: after the
                // cast it is of the full type (bitfld-5.c).
                if *v.ty.ty == *to.ty && bitfield_width(&v).is_none() && self.gcc_precision(&v).is_none() {
                    return Ok(Expr { ty: to, span, ..v });
                }
                Ok(Expr {
                    span,
                    ..self.mk_cast(k, v, to)
                })
            }
            None => Err(err(
                span,
                format!(
                    "cannot convert a value of type '{}' to type '{}'",
                    self.type_str(&v.ty),
                    self.type_str(&to)
                ),
            )),
        }
    }

    /// GNU cast to a union type: a union value whose member of the operand's
    /// type holds the operand.
    fn union_cast(&mut self, id: RecordId, v: Expr, span: Span) -> PResult<Expr> {
        let members = self.types.records[id.0 as usize].members.clone();
        let Some(m) = members
            .iter()
            .find(|m| self.compatible_unqual(&m.ty.ty, &v.ty.ty) && m.bit_width.is_none())
        else {
            return Err(err(span, "cast to union type from type not present in union"));
        };
        let ut = q(CType::Record(id));
        let v = self.convert(v, &m.ty);
        self.union_value(ut, v, span)
    }

    /// A temporary union holding `v` at offset 0, as a value.
    pub(super) fn union_value(&mut self, ut: QualType, v: Expr, span: Span) -> PResult<Expr> {
        let local = self.new_temp(ut.clone(), span)?;
        let init = Init::List {
            stores: vec![super::super::hir::InitStore {
                offset: 0,
                bitfield: None,
                init: Init::Expr(v),
            }],
        };
        let lit = mk(
            ExprKind::CompoundLiteral {
                local,
                init: Box::new(init),
            },
            ut.clone(),
            span,
        );
        Ok(mk(ExprKind::Load(Box::new(lit)), ut, span))
    }

    /// Wraps `e` so the VLA sizes computed by the type names inside it are
    /// evaluated first.
    pub(super) fn with_pending_sizes(&mut self, e: Expr) -> Expr {
        let pending = std::mem::take(&mut self.vla_pending);
        pending.into_iter().rev().fold(e, |acc, s| {
            let super::super::hir::StmtKind::Expr(x) = s.kind else {
                return acc;
            };
            let span = acc.span;
            let t = acc.ty.clone();
            mk(ExprKind::Comma(Box::new(x), Box::new(acc)), t, span)
        })
    }

    /// `sizeof` of a type (6.5.3.4): a constant, or for a VLA its run-time size.
    pub(super) fn sizeof_type(&mut self, t: &QualType, span: Span) -> PResult<Expr> {
        if self.types.is_runtime_sized(&t.ty) {
            return self.vla_runtime_size(t, span);
        }
        let n = match &*t.ty {
            CType::Void | CType::Function { .. } => 1,
            _ => self.types.size_of(&t.ty).map_err(|_| {
                err(
                    span,
                    format!(
                        "invalid application of 'sizeof' to incomplete type '{}'",
                        self.type_str(t)
                    ),
                )
            })?,
        };
        Ok(mk(ExprKind::Int(n as i128), ty::size_t(), span))
    }

    /// The run-time size of a VLA type in bytes (a `size_t` value).
    pub(super) fn vla_runtime_size(&mut self, t: &QualType, span: Span) -> PResult<Expr> {
        let Some(vs) = self.vla_size_of(&t.ty) else {
            return Err(err(span, "the size of this variable length array is not known here"));
        };
        let count = self.load_local(vs.count, ty::size_t(), span);
        let unit = mk(ExprKind::Int(vs.unit as i128), ty::size_t(), span);
        Ok(self.mk_binary(super::super::hir::BinaryOp::Mul, count, unit, ty::size_t(), span))
    }

    /// GNU `__alignof__` of a declared object or function names the
    /// declaration's alignment, `aligned`/`_Alignas` included (gcc's
    /// `c_alignof_expr`: `DECL_ALIGN` of a variable or function), not just its
    /// type's. A function without `aligned` has the target's function
    /// alignment (gcc's `FUNCTION_BOUNDARY`: 1 byte on x86-64, 4 on AArch64,
    /// 2 on RISC-V with compressed instructions). gcc.c-torture/execute/
    /// align-3.c; /work/shared/bugs/repro-11.c.
    fn declared_align(&self, e: &Expr) -> Option<u64> {
        match &e.kind {
            ExprKind::Local(id) => self.func.as_ref().map(|f| f.locals[id.0 as usize].align),
            ExprKind::Global(id) => {
                let g = &self.globals[id.0 as usize];
                if ty::is_function(&g.ty.ty) {
                    let boundary = match self.target {
                        crate::target::Target::X86_64 => 1,
                        crate::target::Target::Aarch64 => 4,
                        crate::target::Target::Riscv64 => 2,
                    };
                    Some(g.attrs.align.unwrap_or(boundary))
                } else {
                    let natural = self.types.align_of(&g.ty.ty).ok()?;
                    Some(g.attrs.align.map_or(natural, |a| a.max(natural)))
                }
            }
            _ => None,
        }
    }

    fn alignof_type(&self, t: &QualType, span: Span) -> PResult<u64> {
        match &*t.ty {
            CType::Void | CType::Function { .. } => Ok(1),
            CType::Array {
                elem,
                len: ArrayLen::Variable,
            } => self.alignof_type(elem, span),
            _ => self.types.align_of(&t.ty).map_err(|_| {
                err(
                    span,
                    format!(
                        "invalid application of '_Alignof' to incomplete type '{}'",
                        self.type_str(t)
                    ),
                )
            }),
        }
    }

    /// A compound literal (6.5.2.5): an unnamed object, automatic in a
    /// function and static at file scope.
    fn compound_literal(&mut self, tn: &ast::TypeName, items: &[ast::InitItem], span: Span) -> PResult<Expr> {
        let t = self.type_name(tn)?;
        if ty::is_variably_modified(&t.ty) {
            return Err(err(span, "compound literal has variable size"));
        }
        self.vla_pending.clear();
        if ty::is_function(&t.ty) {
            return Err(err(span, "compound literal has function type"));
        }
        let init = Initializer::List(items.to_vec(), span);
        if self.func.is_some() {
            let (t, init) = self.local_initializer(&t, &init, span)?;
            let align = self.align_of(&t, span)?;
            let n = self.func.as_ref().map(|f| f.locals.len()).unwrap_or(0);
            let local = self.new_local(Arc::from(format!(".compoundliteral{n}")), t.clone(), align, false, span)?;
            return Ok(mk(
                ExprKind::CompoundLiteral {
                    local,
                    init: Box::new(init),
                },
                t,
                span,
            ));
        }
        let (t, init) = self.static_initializer(&t, &init, span)?;
        let id = self.new_compound_literal_global(t.clone(), init, span)?;
        Ok(mk(ExprKind::Global(id), t, span))
    }

    /// A file-scope compound literal object.
    fn new_compound_literal_global(
        &mut self,
        t: QualType,
        init: StaticInit,
        span: Span,
    ) -> PResult<super::super::hir::GlobalId> {
        let n = self.unique_suffix();
        let name = format!(".compoundliteral.{n}");
        let id = super::super::hir::GlobalId(self.globals.len() as u32);
        let align = self.align_of(&t, span)?;
        self.globals.push(super::super::hir::Global {
            name: name.clone(),
            kind: super::super::hir::GlobalKind::Object,
            ty: t,
            linkage: super::super::hir::Linkage::Internal,
            is_definition: true,
            init: Some(init),
            attrs: super::super::hir::GlobalAttrs {
                align: Some(align),
                ..Default::default()
            },
            span,
        });
        self.global_info.push(super::GlobalInfo {
            c_name: Arc::from(name),
            defined: true,
            inline_only: false,
            compound_literal: true,
            builtin_decl: false,
        });
        Ok(id)
    }

    /// A GNU statement expression: the block's last expression statement
    /// gives the value.
    fn stmt_expr(&mut self, block: &ast::Block, span: Span) -> PResult<Expr> {
        if self.func.is_none() {
            return Err(err(span, "statement expressions are only allowed inside a function"));
        }
        self.scopes.push();
        let mut body = Vec::new();
        let r = self.block_items(&block.items, &mut body);
        self.scopes.pop();
        r?;
        // The value is the last expression statement's, possibly labeled (gcc).
        fn ends_in_expr(s: &ast::Stmt) -> bool {
            match &s.kind {
                ast::StmtKind::Expr(Some(_)) => true,
                ast::StmtKind::Labeled(_, _, inner) => ends_in_expr(inner),
                _ => false,
            }
        }
        fn take_result(s: super::super::hir::Stmt, body: &mut Vec<super::super::hir::Stmt>) -> Option<Expr> {
            use super::super::hir::StmtKind as K;
            match s.kind {
                K::Expr(x) => Some(x),
                K::Block(mut v) if matches!(v.first().map(|s| &s.kind), Some(K::Label(_))) && v.len() == 2 => {
                    let inner = v.pop().expect("two items");
                    body.append(&mut v);
                    take_result(inner, body)
                }
                other => {
                    body.push(super::super::hir::Stmt {
                        kind: other,
                        span: s.span,
                    });
                    None
                }
            }
        }
        let mut result = None;
        if matches!(block.items.last(), Some(ast::BlockItem::Stmt(s)) if ends_in_expr(s)) {
            if let Some(last) = body.pop() {
                result = take_result(last, &mut body).map(Box::new);
            }
        }
        let t = result.as_ref().map(|r| unqual(&r.ty)).unwrap_or_else(ty::void);
        Ok(mk(ExprKind::StmtExpr { body, result }, t, span))
    }
}
