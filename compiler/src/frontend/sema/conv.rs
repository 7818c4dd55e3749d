//! Conversions (C11 6.3) and type relations (6.2.7):
//! * lvalue conversion, array-to-pointer and function-to-pointer decay
//!   (6.3.2.1), made explicit as `Load` / `ArrayDecay` / `FuncDecay`;
//! * the integer promotions (6.3.1.1p2, bit-fields as gcc promotes them: a
//!   field narrower than `int` becomes `int`), the usual arithmetic
//!   conversions (6.3.1.8) and the default argument promotions (6.5.2.2p6);
//! * the scalar conversions as `hir::Cast` with the right `CastKind`;
//! * conversion as if by assignment with the constraints of 6.5.16.1
//!   (diagnosed like gcc: incompatible pointers and integer/pointer mixes
//!   are warnings, other mismatches errors);
//! * null pointer constants (6.3.2.3p3), compatible and composite types.

use super::super::hir::{CastKind, Expr, ExprKind, Init};
use super::super::source::{PResult, Span};
use super::super::types::{usual_arithmetic_conversion, ArrayLen, CType, FloatKind, IntKind, QualType};
use super::ty::{self, unqual};
use super::{const_eval, err, Sema};
use std::sync::Arc;

/// What an assignment-like conversion is for (it words the diagnostics).
#[derive(Clone, Debug)]
pub(super) enum AssignCtx {
    Assign,
    Init,
    Return,
    Arg(usize, String),
}

impl AssignCtx {
    fn doing(&self) -> String {
        match self {
            AssignCtx::Assign => "assigning to".into(),
            AssignCtx::Init => "initializing".into(),
            AssignCtx::Return => "returning".into(),
            AssignCtx::Arg(n, f) => format!("passing argument {n} of '{f}' as"),
        }
    }
}

/// The cast that converts a value of type `from` to type `to` (both scalar
/// or `void`), if C allows it explicitly.
pub(super) fn cast_kind(from: &CType, to: &CType) -> Option<CastKind> {
    use CType::*;
    let int = |t: &CType| matches!(t, Int(_) | Enum(_));
    Some(match (from, to) {
        (_, Void) => CastKind::ToVoid,
        (f, Int(IntKind::Bool)) if ty::is_scalar(f) => CastKind::ToBool,
        (f, t) if int(f) && int(t) => CastKind::IntToInt,
        (f, Float(_)) if int(f) => CastKind::IntToFloat,
        (Float(_), t) if int(t) => CastKind::FloatToInt,
        (Float(_), Float(_)) => CastKind::FloatToFloat,
        (f, Pointer(_)) if int(f) => CastKind::IntToPtr,
        (Pointer(_), t) if int(t) => CastKind::PtrToInt,
        (Pointer(_), Pointer(_)) => CastKind::PtrToPtr,
        _ => return None,
    })
}

/// The width of the bit-field an expression reads, if it reads one. As in
/// gcc, a comma expression whose right operand reads a bit-field, and an
/// assignment, compound assignment or `++`/`--` of a bit-field, have the
/// bit-field's width for the promotions: `~(x, s.f29)` and `(s.f29 = 0) - 1`
/// are `int` (Csmith `--seed 4091561791`).
pub(super) fn bitfield_width(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Load(inner) | ExprKind::Comma(_, inner) => bitfield_width(inner),
        ExprKind::Assign { lhs, .. } | ExprKind::CompoundAssign { lhs, .. } | ExprKind::IncDec { lhs, .. } => {
            bitfield_width(lhs)
        }
        ExprKind::Member { bitfield: Some(bf), .. } => Some(bf.width),
        _ => None,
    }
}

impl Sema {
    /// The precision GCC gives a value when it is narrower than its C type:
    /// a bit-field wider than `int` but narrower than its declared type
    /// (`unsigned long long b : 40`) has a type of exactly its width (the
    /// width of a bit-field is implementation-defined territory: C11
    /// 6.7.2.1p5 and J.3.9), and so has arithmetic on it (see
    /// [`Sema::with_gcc_precision`]). Narrower bit-fields promote to `int`
    /// (6.3.1.1p2). gcc.c-torture/execute/bitfld-3.c, bitfld-5.c,
    /// pr32244-1.c, pr34971.c.
    pub(super) fn gcc_precision(&self, e: &Expr) -> Option<u32> {
        if let ExprKind::Cast(CastKind::BitPrecision(bits), _) = &e.kind {
            return Some(*bits);
        }
        let w = bitfield_width(e)?;
        let k = ty::int_kind(&e.ty.ty, &self.types)?;
        (w > 32 && u64::from(w) < k.size() * 8).then_some(w)
    }

    /// What [`Sema::with_gcc_precision`] needs of an operand, taken before
    /// the conversions: its bit-field precision, if any, and the width of
    /// its promoted type.
    pub(super) fn operand_precision(&self, e: &Expr) -> (Option<u32>, u32) {
        let promoted = ty::int_kind(&e.ty.ty, &self.types).map_or(0, |k| (k.promote().size() * 8) as u32);
        (self.gcc_precision(e), promoted)
    }

    /// The result of arithmetic on operands described by `operands`
    /// ([`Sema::operand_precision`]), reduced as GCC computes it when an
    /// operand has a bit-field precision: in the type of the greatest
    /// precision among the (promoted) operands, so wrapping at that width
    /// when it is below the result type's.
    pub(super) fn with_gcc_precision(&self, result: Expr, operands: &[(Option<u32>, u32)]) -> Expr {
        if operands.iter().all(|(p, _)| p.is_none()) {
            return result;
        }
        let Some(k) = ty::int_kind(&result.ty.ty, &self.types) else {
            return result;
        };
        let bits = operands.iter().map(|&(p, w)| p.unwrap_or(w)).max().unwrap_or(0);
        if bits == 0 || u64::from(bits) >= k.size() * 8 {
            return result;
        }
        let (ty, span) = (result.ty.clone(), result.span);
        Expr {
            kind: ExprKind::Cast(CastKind::BitPrecision(bits), Box::new(result)),
            ty,
            span,
        }
    }

    /// The value of an operand (6.3.2.1): lvalues of object type are read,
    /// arrays decay to a pointer to their first element, function designators
    /// to a pointer to the function.
    pub(super) fn value(&mut self, e: Expr) -> PResult<Expr> {
        let span = e.span;
        match &*e.ty.ty {
            CType::Array { elem, .. } => {
                let elem = elem.clone();
                let e = if e.is_lvalue() { e } else { self.materialize(e)? };
                Ok(Expr {
                    kind: ExprKind::ArrayDecay(Box::new(e)),
                    ty: ty::ptr_to(elem),
                    span,
                })
            }
            CType::VaList if self.va_list_is_array() => {
                // x86-64: va_list is `struct __va_list_tag[1]`; it decays to
                // the address of its (only) element, the object itself.
                if !e.is_lvalue() {
                    return Err(err(span, "invalid use of a 'va_list' value"));
                }
                let t = ty::ptr_to(unqual(&e.ty));
                Ok(Expr {
                    kind: ExprKind::AddrOf(Box::new(e)),
                    ty: t,
                    span,
                })
            }
            CType::Function { .. } => {
                let t = ty::ptr_to(e.ty.clone());
                if let ExprKind::Deref(p) = e.kind {
                    // `*fp` used as a function designator is `fp` again.
                    return Ok(Expr { ty: t, ..*p });
                }
                Ok(Expr {
                    kind: ExprKind::FuncDecay(Box::new(e)),
                    ty: t,
                    span,
                })
            }
            CType::Void if e.is_lvalue() => {
                // `*p` with `p` a `void *`: only its side effects are kept.
                match e.kind {
                    ExprKind::Deref(p) => Ok(Expr {
                        kind: ExprKind::Cast(CastKind::ToVoid, p),
                        ty: ty::void(),
                        span,
                    }),
                    _ => Ok(Expr { ty: ty::void(), ..e }),
                }
            }
            t if e.is_lvalue() => {
                // A record with variably modified members is complete,
                // its value only copied by assignment (`variable_record_assign`).
                let runtime_record = matches!(t, CType::Record(_)) && self.types.is_runtime_sized(t);
                if !ty::is_complete(t, &self.types) && !runtime_record {
                    return Err(err(
                        span,
                        format!("invalid use of incomplete type '{}'", self.type_str(&e.ty)),
                    ));
                }
                let t = unqual(&e.ty);
                Ok(Expr {
                    kind: ExprKind::Load(Box::new(e)),
                    ty: t,
                    span,
                })
            }
            _ => Ok(e),
        }
    }

    /// Turns a record value into an lvalue (a temporary initialized with it),
    /// for members of array type of a non-lvalue (6.2.4p8, temporary lifetime).
    pub(super) fn materialize(&mut self, e: Expr) -> PResult<Expr> {
        if let ExprKind::Member { base, offset, bitfield } = e.kind {
            let base = if base.is_lvalue() {
                *base
            } else {
                self.materialize(*base)?
            };
            return Ok(Expr {
                kind: ExprKind::Member {
                    base: Box::new(base),
                    offset,
                    bitfield,
                },
                ..e
            });
        }
        let span = e.span;
        let t = unqual(&e.ty);
        let local = self.new_temp(t.clone(), span)?;
        Ok(Expr {
            kind: ExprKind::CompoundLiteral {
                local,
                init: Box::new(Init::Expr(e)),
            },
            ty: t,
            span,
        })
    }

    /// Builds a cast node, folding constants.
    pub(super) fn mk_cast(&self, kind: CastKind, e: Expr, to: QualType) -> Expr {
        let span = e.span;
        if let Some(k) = const_eval::fold_cast(kind, &e, &to, &self.types, self.target) {
            return Expr { kind: k, ty: to, span };
        }
        Expr {
            kind: ExprKind::Cast(kind, Box::new(e)),
            ty: to,
            span,
        }
    }

    /// Converts a value to `to` (implicitly; the caller has checked the
    /// conversion is allowed). Same types give the value unchanged.
    pub(super) fn convert(&self, e: Expr, to: &QualType) -> Expr {
        let to = unqual(to);
        if *e.ty.ty == *to.ty {
            return Expr { ty: to, ..e };
        }
        if matches!(&*e.ty.ty, CType::Complex(_)) || matches!(&*to.ty, CType::Complex(_)) {
            return self.convert_complex(e, &to);
        }
        match cast_kind(&e.ty.ty, &to.ty) {
            Some(CastKind::PtrToPtr) if *e.ty.ty == *to.ty => Expr { ty: to, ..e },
            Some(k) => self.mk_cast(k, e, to),
            None => Expr { ty: to, ..e },
        }
    }

    /// The integer promotions (6.3.1.1p2) of a value; other types unchanged.
    pub(super) fn promote(&self, e: Expr) -> Expr {
        let Some(k) = ty::int_kind(&e.ty.ty, &self.types) else {
            return e;
        };
        let target = match bitfield_width(&e) {
            Some(w) if w < 32 => IntKind::Int,
            Some(32) if k.rank() <= IntKind::Int.rank() => {
                if k.is_signed(self.target) {
                    IntKind::Int
                } else {
                    IntKind::UInt
                }
            }
            _ => k.promote(),
        };
        if matches!(&*e.ty.ty, CType::Int(x) if *x == target) {
            return e;
        }
        self.convert(e, &ty::int_ty(target))
    }

    /// The promoted type of a declared type (for K&R parameters).
    pub(super) fn default_promoted_type(&self, t: &QualType) -> QualType {
        match &*t.ty {
            CType::Float(FloatKind::Float) => ty::float_ty(FloatKind::Double),
            c => match ty::int_kind(c, &self.types) {
                Some(k) if k.rank() < IntKind::Int.rank() => ty::int(),
                _ => unqual(t),
            },
        }
    }

    /// The default argument promotions (6.5.2.2p6).
    pub(super) fn default_arg_promote(&self, e: Expr) -> Expr {
        if matches!(&*e.ty.ty, CType::Float(FloatKind::Float)) {
            return self.convert(e, &ty::float_ty(FloatKind::Double));
        }
        self.promote(e)
    }

    /// The usual arithmetic conversions (6.3.1.8) of two arithmetic values:
    /// both converted to the common type, which is returned too.
    pub(super) fn usual_arith(&self, a: Expr, b: Expr) -> (Expr, Expr, QualType) {
        let a = self.promote(a);
        let b = self.promote(b);
        let (Some(x), Some(y)) = (ty::arith(&a.ty.ty, &self.types), ty::arith(&b.ty.ty, &self.types)) else {
            let t = a.ty.clone();
            return (a, b, t);
        };
        let common = ty::arith_type(usual_arithmetic_conversion(x, y, self.target));
        let a = self.convert(a, &common);
        let b = self.convert(b, &common);
        (a, b, common)
    }

    /// 6.3.2.3p3: an integer constant expression with value 0, possibly cast to `void *`.
    pub(super) fn is_null_pointer_constant(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(0) => ty::int_kind(&e.ty.ty, &self.types).is_some(),
            ExprKind::Cast(CastKind::IntToPtr, inner) => {
                matches!(ty::pointee(&e.ty.ty), Some(p) if ty::is_void(&p.ty) && p.quals == Default::default())
                    && self.is_null_pointer_constant(inner)
            }
            _ => false,
        }
    }

    /// Compatible types (6.2.7), qualifiers included.
    pub(super) fn compatible(&self, a: &QualType, b: &QualType) -> bool {
        a.quals.is_const == b.quals.is_const
            && a.quals.is_volatile == b.quals.is_volatile
            && a.quals.is_restrict == b.quals.is_restrict
            && self.compatible_unqual(&a.ty, &b.ty)
    }

    /// Compatible types ignoring top-level qualifiers.
    pub(super) fn compatible_unqual(&self, a: &CType, b: &CType) -> bool {
        use CType::*;
        match (a, b) {
            (Int(x), Int(y)) => x == y,
            (Enum(e), Int(k)) | (Int(k), Enum(e)) => {
                self.types.enums.get(e.0 as usize).is_some_and(|d| d.underlying == *k)
            }
            (Pointer(p), Pointer(r)) => self.compatible(p, r),
            (Array { elem: e1, len: l1 }, Array { elem: e2, len: l2 }) => {
                self.compatible(e1, e2)
                    && match (l1, l2) {
                        (ArrayLen::Fixed(x), ArrayLen::Fixed(y)) => x == y,
                        _ => true,
                    }
            }
            (
                Function {
                    ret: r1,
                    params: p1,
                    variadic: v1,
                    prototyped: pr1,
                },
                Function {
                    ret: r2,
                    params: p2,
                    variadic: v2,
                    prototyped: pr2,
                },
            ) => {
                if !self.compatible_unqual(&r1.ty, &r2.ty) {
                    return false;
                }
                match (pr1, pr2) {
                    (true, true) => {
                        v1 == v2
                            && p1.len() == p2.len()
                            && p1.iter().zip(p2).all(|(x, y)| self.compatible_unqual(&x.ty, &y.ty))
                    }
                    (true, false) => !v1,
                    (false, true) => !v2,
                    (false, false) => true,
                }
            }
            _ => a == b,
        }
    }

    /// The composite type of two compatible types (6.2.7p3).
    pub(super) fn composite(&self, a: &QualType, b: &QualType) -> QualType {
        use CType::*;
        let t = match (&*a.ty, &*b.ty) {
            (Array { elem: e1, len: l1 }, Array { elem: e2, len: l2 }) => {
                if *l1 == ArrayLen::Variable || *l2 == ArrayLen::Variable {
                    return if *l1 == ArrayLen::Variable {
                        b.clone()
                    } else {
                        a.clone()
                    };
                }
                let len = match (l1, l2) {
                    (ArrayLen::Fixed(n), _) | (_, ArrayLen::Fixed(n)) => ArrayLen::Fixed(*n),
                    _ => ArrayLen::Unknown,
                };
                Array {
                    elem: self.composite(e1, e2),
                    len,
                }
            }
            (
                Function {
                    ret: r1,
                    params: p1,
                    variadic,
                    prototyped: pr1,
                },
                Function {
                    ret: r2,
                    params: p2,
                    prototyped: pr2,
                    ..
                },
            ) => match (pr1, pr2) {
                (true, true) => Function {
                    ret: self.composite(r1, r2),
                    params: p1.iter().zip(p2).map(|(x, y)| self.composite(x, y)).collect(),
                    variadic: *variadic,
                    prototyped: true,
                },
                (false, true) => return b.clone(),
                _ => return a.clone(),
            },
            (Pointer(p), Pointer(r)) => Pointer(self.composite(p, r)),
            _ => return a.clone(),
        };
        QualType {
            ty: Arc::new(t),
            quals: a.quals,
        }
    }

    /// Conversion as if by assignment (6.5.16.1) of a value to `to`.
    pub(super) fn assign_convert(&mut self, e: Expr, to: &QualType, ctx: AssignCtx, span: Span) -> PResult<Expr> {
        let from = e.ty.clone();
        let incompatible = |this: &Sema| {
            err(
                span,
                format!(
                    "incompatible types when {} type '{}' from type '{}'",
                    ctx.doing(),
                    this.type_str(&unqual(to)),
                    this.type_str(&from)
                ),
            )
        };
        if ty::is_void(&from.ty) {
            return Err(err(span, "void value not ignored as it ought to be"));
        }
        let ft = &*from.ty;
        let tt = &*to.ty;
        let arith = |t: &CType| self.real_arith(t).is_some();
        if arith(tt) && arith(ft) {
            return Ok(self.convert(e, to));
        }
        match (ft, tt) {
            (CType::Pointer(_), CType::Int(IntKind::Bool)) => return Ok(self.convert(e, to)),
            (CType::Complex(_), _) | (_, CType::Complex(_)) => return Err(incompatible(self)),
            (CType::Record(x), CType::Record(y)) if x == y => return Ok(self.convert(e, to)),
            (CType::VaList, CType::VaList) => return Ok(e),
            (CType::Vector { .. }, CType::Vector { .. }) if self.vector_convertible(ft, tt) => {
                return Ok(self.convert(e, to))
            }
            (_, CType::Pointer(tp)) => {
                if self.is_null_pointer_constant(&e) {
                    return Ok(self.convert(e, to));
                }
                if let CType::Pointer(fp) = ft {
                    let void_side = ty::is_void(&tp.ty) || ty::is_void(&fp.ty);
                    if !void_side && !self.compatible_unqual(&tp.ty, &fp.ty) {
                        self.warn(
                            span,
                            format!(
                                "incompatible pointer types {} '{}' from '{}'",
                                ctx.doing(),
                                self.type_str(&unqual(to)),
                                self.type_str(&from)
                            ),
                        );
                    } else if !ty::quals_include(tp.quals, fp.quals) {
                        self.warn(
                            span,
                            format!(
                                "{} '{}' discards qualifiers from pointer target type",
                                ctx.doing(),
                                self.type_str(&unqual(to))
                            ),
                        );
                    }
                    return Ok(self.convert(e, to));
                }
                if ty::int_kind(ft, &self.types).is_some() {
                    self.warn(
                        span,
                        format!("{} a pointer from an integer without a cast", ctx.doing()),
                    );
                    return Ok(self.convert(e, to));
                }
                return Err(incompatible(self));
            }
            (CType::Pointer(_), t) if ty::int_kind(t, &self.types).is_some() => {
                self.warn(
                    span,
                    format!("{} an integer from a pointer without a cast", ctx.doing()),
                );
                return Ok(self.convert(e, to));
            }
            _ => {}
        }
        Err(incompatible(self))
    }
}
