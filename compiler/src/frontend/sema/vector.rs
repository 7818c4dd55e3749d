//! GNU vector types (gcc manual, "Using Vector Instructions through Built-in
//! Functions"): `__attribute__((vector_size(N)))` on a declaration makes its
//! integer or floating type a vector of `N / sizeof(elem)` elements.
//!
//! A vector is a real type in sema (`CType::Vector`) and an aggregate below
//! it (lowering keeps it in memory like a record). Every operation on
//! vectors is spelled here element by element with the scalar nodes of the
//! typed tree, as gcc's generic vector lowering (`tree-vect-generic.cc`)
//! does for a target without SIMD instructions: an operand vector that is
//! not a plain variable is first copied into a temporary, and the result is
//! a compound-literal temporary whose elements are stored one by one:
//!
//! ```text
//! a + f()   =>   (tmp1 = f(), (V){ a[0] + tmp1[0], a[1] + tmp1[1], ... })
//! ```
//!
//! Each element operation is the scalar operation of C on the element type
//! (promoted, computed, converted back to the element type), which is
//! gcc's wrap-around element arithmetic. The rules of gcc's C front end
//! (`c-typeck.cc`, `c-common.cc`) are followed:
//! * `+ - * /` on integer or floating vectors, `% & | ^ << >>` on integer
//!   vectors, unary `+ - ~`, `++`/`--`, compound assignment; two vector
//!   operands need the same number of elements of the same kind and size
//!   (signedness may differ; the result has the left operand's type);
//! * a scalar operand is broadcast (`scalar_to_vector`): it must convert to
//!   the element type without loss (a constant must fit, a variable must not
//!   be wider), else "conversion of scalar ... involves truncation"; a vector
//!   shifted by a scalar takes the count as it is;
//! * comparisons give a vector of signed integers of the element size, -1
//!   where the comparison holds and 0 elsewhere;
//! * `v[i]` is an lvalue of the element type (of a temporary for a vector
//!   value);
//! * casts between a vector and a vector or integer (or pointer) of the same
//!   size reinterpret the bytes; assignment converts between vectors of the
//!   same size and number of elements whose elements are both integers
//!   (gcc's comparison results are "opaque" vectors that convert to any
//!   such vector; phicc allows it for every integer vector);
//! * `__builtin_shuffle(a, mask)` and `__builtin_shuffle(a, b, mask)`: element
//!   `i` is `a[mask[i] % n]`, or of the concatenation of `a` and `b` modulo
//!   `2n`.
//!
//! gcc's vector `?:` with a vector condition and `!`, `&&`, `||` on vectors
//! are C++ only; they are errors here as in gcc's C.

use super::super::ast;
use super::super::hir::{BinaryOp, CastKind, Expr, ExprKind, Init, InitStore, UnaryOp};
use super::super::source::{PResult, Span};
use super::super::types::{Arith, CType, FloatKind, IntKind, QualType};
use super::binary::is_pure;
use super::expr::mk;
use super::ty::{self, unqual};
use super::{const_eval, err, Sema};
use std::sync::Arc;

/// The most bytes a vector type may have (each operation is spelled element
/// by element, so the typed tree grows with the element count).
const MAX_VECTOR_BYTES: i128 = 4096;

/// One operand of an element-wise operation.
#[derive(Clone)]
enum Source {
    /// A vector lvalue, read element by element (a variable, or a temporary
    /// that a prefix assignment fills).
    Vector(Expr),
    /// A scalar value used for every element (pure: evaluated per element).
    Scalar(Expr),
}

/// The element type and count of a vector type.
pub(super) fn vector_parts(t: &CType) -> Option<(Arith, u64)> {
    match t {
        CType::Vector { elem, len } => Some((*elem, *len)),
        _ => None,
    }
}

fn is_int_elem(a: Arith) -> bool {
    matches!(a, Arith::Int(_))
}

/// The signed integer kind of `bytes` bytes (the elements of a comparison result).
fn signed_kind(bytes: u64) -> IntKind {
    match bytes {
        1 => IntKind::SChar,
        2 => IntKind::Short,
        4 => IntKind::Int,
        8 => IntKind::Long,
        _ => IntKind::Int128,
    }
}

/// Mantissa digits of a floating kind (for `int_safely_convertible_to_real_p`).
fn mantissa_bits(k: FloatKind) -> u32 {
    match k {
        FloatKind::Float => 24,
        FloatKind::Double => 53,
        // x87 extended on x86-64; binary128 elsewhere has more, but the
        // 64-bit integers are the widest that matter either way.
        FloatKind::LongDouble => 64,
        FloatKind::Float128 => 113,
    }
}

impl Sema {
    /// `t` with `vector_size(size)` applied: to the innermost type of a
    /// pointer, array or function derivation (gcc's
    /// `reconstruct_complex_type`), which must be an integer or real
    /// floating type.
    pub(super) fn apply_vector_size(&self, t: QualType, size: i128, span: Span) -> PResult<QualType> {
        let wrap = |ty: CType| QualType {
            ty: Arc::new(ty),
            quals: t.quals,
        };
        match &*t.ty {
            CType::Pointer(p) => {
                let inner = self.apply_vector_size(p.clone(), size, span)?;
                return Ok(wrap(CType::Pointer(inner)));
            }
            CType::Array { elem, len } => {
                let inner = self.apply_vector_size(elem.clone(), size, span)?;
                return Ok(wrap(CType::Array { elem: inner, len: *len }));
            }
            CType::Function {
                ret,
                params,
                variadic,
                prototyped,
            } => {
                let inner = self.apply_vector_size(ret.clone(), size, span)?;
                return Ok(wrap(CType::Function {
                    ret: inner,
                    params: params.clone(),
                    variadic: *variadic,
                    prototyped: *prototyped,
                }));
            }
            _ => {}
        }
        let elem = match ty::arith(&t.ty, &self.types) {
            Some(Arith::Int(IntKind::Bool)) | None => {
                return Err(err(span, "invalid vector type for attribute 'vector_size'"))
            }
            Some(a) => a,
        };
        if size == 0 {
            return Err(err(span, "zero vector size"));
        }
        if size < 0 {
            return Err(err(
                span,
                format!("'vector_size' attribute argument value '{size}' is negative"),
            ));
        }
        let es = elem.size() as i128;
        if size % es != 0 {
            return Err(err(span, "vector size not an integral multiple of component size"));
        }
        let n = size / es;
        if n.count_ones() != 1 {
            return Err(err(span, format!("number of vector components {n} not a power of two")));
        }
        if size > MAX_VECTOR_BYTES {
            return Err(err(
                span,
                format!("vector size {size} is too large (phicc supports up to {MAX_VECTOR_BYTES} bytes)"),
            ));
        }
        Ok(wrap(CType::Vector { elem, len: n as u64 }))
    }

    /// Element `i` of the vector lvalue `lv` (an lvalue of the element type).
    fn element(&self, lv: &Expr, i: u64) -> Expr {
        let (elem, _) = vector_parts(&lv.ty.ty).expect("a vector");
        let t = ty::arith_type(elem).with_quals(lv.ty.quals);
        mk(
            ExprKind::Member {
                base: Box::new(lv.clone()),
                offset: i * elem.size(),
                bitfield: None,
            },
            t,
            lv.span,
        )
    }

    /// Element `idx` (a run-time integer value) of the vector lvalue `lv`.
    fn element_at(&mut self, lv: Expr, idx: Expr, span: Span) -> PResult<Expr> {
        let (elem, _) = vector_parts(&lv.ty.ty).expect("a vector");
        let et = ty::arith_type(elem).with_quals(lv.ty.quals);
        let quals = lv.ty.quals;
        let vt = ty::ptr_to(lv.ty.clone());
        let addr = mk(ExprKind::AddrOf(Box::new(lv)), vt, span);
        let p = mk(
            ExprKind::Cast(CastKind::PtrToPtr, Box::new(addr)),
            ty::ptr_to(et.with_quals(quals)),
            span,
        );
        let sum = self.ptr_add(p, idx, false, span)?;
        self.deref(sum, span)
    }

    /// An lvalue holding vector value `v`: the variable itself when `v`
    /// reads one, else a temporary that an assignment appended to `prefix`
    /// fills.
    fn vector_source(&mut self, v: Expr, prefix: &mut Vec<Expr>) -> PResult<Expr> {
        if let ExprKind::Load(inner) = &v.kind {
            if matches!(inner.kind, ExprKind::Local(_) | ExprKind::Global(_)) && is_pure(inner) {
                return Ok(*inner.clone());
            }
        }
        let span = v.span;
        let t = unqual(&v.ty);
        let tmp = self.new_temp(t.clone(), span)?;
        let lhs = mk(ExprKind::Local(tmp), t.clone(), span);
        prefix.push(mk(
            ExprKind::Assign {
                lhs: Box::new(lhs.clone()),
                rhs: Box::new(v),
            },
            t,
            span,
        ));
        Ok(lhs)
    }

    /// A scalar value that may be evaluated once per element: itself when
    /// pure, else a temporary that an assignment appended to `prefix` fills.
    fn scalar_source(&mut self, s: Expr, prefix: &mut Vec<Expr>) -> PResult<Expr> {
        if is_pure(&s) {
            return Ok(s);
        }
        let span = s.span;
        let t = unqual(&s.ty);
        let tmp = self.new_temp(t.clone(), span)?;
        let lhs = mk(ExprKind::Local(tmp), t.clone(), span);
        prefix.push(mk(
            ExprKind::Assign {
                lhs: Box::new(lhs),
                rhs: Box::new(s),
            },
            t.clone(),
            span,
        ));
        Ok(self.load_local(tmp, t, span))
    }

    /// Element `i` of an operand, as a value.
    fn source_elem(&mut self, s: &Source, i: u64) -> PResult<Expr> {
        match s {
            Source::Vector(lv) => {
                let e = self.element(lv, i);
                self.value(e)
            }
            Source::Scalar(v) => Ok(v.clone()),
        }
    }

    /// The vector value of type `result` whose element `i` is `f(i)` (a
    /// value converted to the element type here), after the `prefix`
    /// assignments.
    fn build_vector(
        &mut self,
        result: &QualType,
        prefix: Vec<Expr>,
        mut f: impl FnMut(&mut Sema, u64) -> PResult<Expr>,
        span: Span,
    ) -> PResult<Expr> {
        let result = unqual(result);
        let (elem, n) = vector_parts(&result.ty).expect("a vector");
        let et = ty::arith_type(elem);
        let mut stores = Vec::with_capacity(n as usize);
        for i in 0..n {
            let v = f(self, i)?;
            let v = self.convert(v, &et);
            stores.push(InitStore {
                offset: i * elem.size(),
                bitfield: None,
                init: Init::Expr(v),
            });
        }
        let local = self.new_temp(result.clone(), span)?;
        let lit = mk(
            ExprKind::CompoundLiteral {
                local,
                init: Box::new(Init::List { stores }),
            },
            result.clone(),
            span,
        );
        let value = mk(ExprKind::Load(Box::new(lit)), result.clone(), span);
        Ok(prefix.into_iter().rev().fold(value, |acc, p| {
            mk(ExprKind::Comma(Box::new(p), Box::new(acc)), result.clone(), span)
        }))
    }

    /// Whether scalar `s` converts to element type `elem` without loss
    /// (gcc's `unsafe_conversion_p` as `scalar_to_vector` uses it).
    fn scalar_fits(&self, s: &Expr, elem: Arith) -> bool {
        // A widened integer counts as its narrower source (gcc's `get_unwidened`).
        let mut s = s;
        while let ExprKind::Cast(CastKind::IntToInt, inner) = &s.kind {
            let narrower = |e: &Expr| ty::int_kind(&e.ty.ty, &self.types).map_or(u64::MAX, |k| k.size());
            if matches!(s.kind, ExprKind::Int(_)) || narrower(inner) > narrower(s) {
                break;
            }
            s = inner;
        }
        let Some(st) = ty::arith(&s.ty.ty, &self.types) else {
            return false;
        };
        match (st, elem) {
            (Arith::Int(sk), Arith::Int(ek)) => match s.kind {
                ExprKind::Int(v) => {
                    if const_eval::normalize(v, ek, self.target) == v {
                        return true;
                    }
                    // Only the sign changes: a warning in gcc, not an error.
                    let (ss, es) = (sk.is_signed(self.target), ek.is_signed(self.target));
                    (!es && ss && v < 0) || (es && !ss)
                }
                _ => sk.size() <= ek.size(),
            },
            (Arith::Int(sk), Arith::Float(ek)) => match s.kind {
                ExprKind::Int(v) => {
                    let m = mantissa_bits(ek);
                    let mag = v.unsigned_abs();
                    mag == 0 || 128 - mag.leading_zeros() - mag.trailing_zeros() <= m
                }
                _ => {
                    let bits = (sk.size() * 8) as u32 - u32::from(sk.is_signed(self.target));
                    bits <= mantissa_bits(ek)
                }
            },
            (Arith::Float(sk), Arith::Float(ek)) => match s.kind {
                ExprKind::Float(f) => const_eval::round_float(f, ek, self.target) == f || f.is_nan(),
                _ => sk.size() <= ek.size(),
            },
            (Arith::Float(_), Arith::Int(_)) => false,
        }
    }

    fn vector_invalid(&self, op: &str, a: &QualType, b: &QualType, span: Span) -> super::super::source::Diagnostic {
        err(
            span,
            format!(
                "invalid operands to binary {op} (have '{}' and '{}')",
                self.type_str(a),
                self.type_str(b)
            ),
        )
    }

    /// A binary operator with at least one vector operand.
    pub(super) fn vector_binary(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> PResult<Expr> {
        use BinaryOp::*;
        let opname = super::binary::op_str(op);
        let (at, bt) = (unqual(&a.ty), unqual(&b.ty));
        let invalid = |s: &Sema| s.vector_invalid(opname, &at, &bt, span);
        let shift = matches!(op, Shl | Shr);
        let int_only = matches!(op, Rem | BitAnd | BitOr | BitXor | Shl | Shr);
        let comparison = matches!(op, Eq | Ne | Lt | Le | Gt | Ge);
        let (va, vb) = (vector_parts(&at.ty), vector_parts(&bt.ty));
        let vec_ty = if va.is_some() { at.clone() } else { bt.clone() };
        let (elem, n) = vector_parts(&vec_ty.ty).expect("a vector operand");
        let mut prefix = Vec::new();
        let (sa, sb) = match (va, vb) {
            (Some((ea, na)), Some((eb, nb))) => {
                let same_kind = is_int_elem(ea) == is_int_elem(eb);
                if na != nb || !same_kind || (!shift && ea.size() != eb.size()) {
                    return Err(invalid(self));
                }
                let sa = self.vector_source(a, &mut prefix)?;
                let sb = self.vector_source(b, &mut prefix)?;
                (Source::Vector(sa), Source::Vector(sb))
            }
            (Some(_), None) if shift => {
                if ty::int_kind(&bt.ty, &self.types).is_none() || !is_int_elem(elem) {
                    return Err(invalid(self));
                }
                let sa = self.vector_source(a, &mut prefix)?;
                let sb = self.scalar_source(b, &mut prefix)?;
                (Source::Vector(sa), Source::Scalar(sb))
            }
            _ => {
                // A scalar broadcast to the other operand's vector type.
                let scalar = if va.is_some() { &b } else { &a };
                let scalar_int = ty::int_kind(&scalar.ty.ty, &self.types).is_some();
                let allowed = if is_int_elem(elem) {
                    scalar_int
                } else {
                    !int_only && ty::arith(&scalar.ty.ty, &self.types).is_some()
                };
                if !allowed {
                    return Err(invalid(self));
                }
                if !self.scalar_fits(scalar, elem) {
                    return Err(err(
                        span,
                        format!(
                            "conversion of scalar '{}' to vector '{}' involves truncation",
                            self.type_str(&scalar.ty),
                            self.type_str(&vec_ty)
                        ),
                    ));
                }
                let et = ty::arith_type(elem);
                if va.is_some() {
                    let sa = self.vector_source(a, &mut prefix)?;
                    let b = self.convert(b, &et);
                    let sb = self.scalar_source(b, &mut prefix)?;
                    (Source::Vector(sa), Source::Scalar(sb))
                } else {
                    let a = self.convert(a, &et);
                    let sa = self.scalar_source(a, &mut prefix)?;
                    let sb = self.vector_source(b, &mut prefix)?;
                    (Source::Scalar(sa), Source::Vector(sb))
                }
            }
        };
        if int_only && !is_int_elem(elem) {
            return Err(invalid(self));
        }
        let result = if comparison {
            ty::q(CType::Vector {
                elem: Arith::Int(signed_kind(elem.size())),
                len: n,
            })
        } else {
            vec_ty
        };
        self.build_vector(
            &result,
            prefix,
            |s, i| {
                let x = s.source_elem(&sa, i)?;
                let y = s.source_elem(&sb, i)?;
                let r = s.binary_values(op, x, y, span)?;
                Ok(if comparison {
                    // 1/0 to -1/0.
                    s.mk_unary(UnaryOp::Neg, r, span)
                } else {
                    r
                })
            },
            span,
        )
    }

    /// Unary `+`, `-` or `~` of a vector value.
    pub(super) fn vector_unary(&mut self, op: ast::UnaryOp, v: Expr, span: Span) -> PResult<Expr> {
        let (elem, _) = vector_parts(&v.ty.ty).expect("a vector");
        match op {
            ast::UnaryOp::Plus => return Ok(Expr { span, ..v }),
            ast::UnaryOp::BitNot if !is_int_elem(elem) => {
                return Err(err(span, "wrong type argument to bit-complement"));
            }
            _ => {}
        }
        let uop = if op == ast::UnaryOp::BitNot {
            UnaryOp::BitNot
        } else {
            UnaryOp::Neg
        };
        let t = unqual(&v.ty);
        let mut prefix = Vec::new();
        let src = Source::Vector(self.vector_source(v, &mut prefix)?);
        self.build_vector(
            &t,
            prefix,
            |s, i| {
                let x = s.source_elem(&src, i)?;
                let x = s.promote(x);
                Ok(s.mk_unary(uop, x, span))
            },
            span,
        )
    }

    /// An lvalue that designates `lhs` and may be evaluated repeatedly: the
    /// variable itself, or `*tmp` with `tmp = &lhs` appended to `prefix`.
    fn stable_lvalue(&mut self, lhs: Expr, prefix: &mut Vec<Expr>, span: Span) -> PResult<Expr> {
        if matches!(lhs.kind, ExprKind::Local(_) | ExprKind::Global(_)) && is_pure(&lhs) {
            return Ok(lhs);
        }
        let addr = self.address_of(lhs, span)?;
        let p = self.scalar_source(addr, prefix)?;
        self.deref(p, span)
    }

    /// `lhs op= rhs` with a vector operand.
    pub(super) fn vector_compound_assign(&mut self, op: BinaryOp, lhs: Expr, rhs: Expr, span: Span) -> PResult<Expr> {
        let lt = unqual(&lhs.ty);
        if vector_parts(&lt.ty).is_none() || matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            return Err(self.vector_invalid(super::binary::op_str(op), &lt, &rhs.ty, span));
        }
        let mut prefix = Vec::new();
        let place = self.stable_lvalue(lhs, &mut prefix, span)?;
        let old = self.value(place.clone())?;
        let new = self.vector_binary(op, old, rhs, span)?;
        let new = self.assign_convert(new, &lt, super::conv::AssignCtx::Assign, span)?;
        let assign = mk(
            ExprKind::Assign {
                lhs: Box::new(place),
                rhs: Box::new(new),
            },
            lt.clone(),
            span,
        );
        Ok(prefix.into_iter().rev().fold(assign, |acc, p| {
            mk(ExprKind::Comma(Box::new(p), Box::new(acc)), lt.clone(), span)
        }))
    }

    /// `++v`, `v--` and the like on a vector lvalue: every element steps by one.
    pub(super) fn vector_inc_dec(&mut self, lv: Expr, is_prefix: bool, up: bool, span: Span) -> PResult<Expr> {
        let lt = unqual(&lv.ty);
        let one = mk(ExprKind::Int(1), ty::int(), span);
        let op = if up { BinaryOp::Add } else { BinaryOp::Sub };
        if is_prefix {
            return self.vector_compound_assign(op, lv, one, span);
        }
        let mut prefix = Vec::new();
        let place = self.stable_lvalue(lv, &mut prefix, span)?;
        let old = self.value(place.clone())?;
        let tmp = self.new_temp(lt.clone(), span)?;
        let save = mk(
            ExprKind::Assign {
                lhs: Box::new(mk(ExprKind::Local(tmp), lt.clone(), span)),
                rhs: Box::new(old),
            },
            lt.clone(),
            span,
        );
        let step = self.vector_compound_assign(op, place, one, span)?;
        let read = self.load_local(tmp, lt.clone(), span);
        prefix.push(save);
        prefix.push(step);
        Ok(prefix.into_iter().rev().fold(read, |acc, p| {
            mk(ExprKind::Comma(Box::new(p), Box::new(acc)), lt.clone(), span)
        }))
    }

    /// `v[i]` with `v` of vector type (an lvalue or a value).
    pub(super) fn vector_subscript(&mut self, v: Expr, idx: Expr, span: Span) -> PResult<Expr> {
        if ty::int_kind(&idx.ty.ty, &self.types).is_none() {
            return Err(err(span, "array subscript is not an integer"));
        }
        let (_, n) = vector_parts(&v.ty.ty).expect("a vector");
        let lv = if v.is_lvalue() { v } else { self.materialize(v)? };
        if let ExprKind::Int(i) = idx.kind {
            if (0..n as i128).contains(&i) {
                return Ok(Expr {
                    span,
                    ..self.element(&lv, i as u64)
                });
            }
        }
        self.element_at(lv, idx, span)
    }

    /// A value's bytes as type `to` (same size): a temporary of type `to`
    /// whose bytes the value is stored into.
    fn reinterpret(&mut self, v: Expr, to: QualType, span: Span) -> PResult<Expr> {
        let local = self.new_temp(to.clone(), span)?;
        let init = Init::List {
            stores: vec![InitStore {
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
            to.clone(),
            span,
        );
        Ok(mk(ExprKind::Load(Box::new(lit)), to, span))
    }

    /// `(to) v` where `to` or `v` is a vector (gcc's `convert_to_vector`
    /// and the vector case of `convert_to_integer`): a reinterpretation of
    /// the bytes between a vector and a vector, integer or pointer of the
    /// same size.
    pub(super) fn vector_cast(&mut self, v: Expr, to: QualType, span: Span) -> PResult<Expr> {
        let from = unqual(&v.ty);
        if *from.ty == *to.ty {
            return Ok(Expr { ty: to, span, ..v });
        }
        let from_ok = vector_parts(&from.ty).is_some()
            || ty::int_kind(&from.ty, &self.types).is_some()
            || ty::is_pointer(&from.ty);
        let to_ok =
            vector_parts(&to.ty).is_some() || ty::int_kind(&to.ty, &self.types).is_some() || ty::is_pointer(&to.ty);
        if !from_ok || !to_ok || matches!(&*to.ty, CType::Int(IntKind::Bool)) {
            return Err(err(
                span,
                format!(
                    "cannot convert a value of type '{}' to type '{}'",
                    self.type_str(&from),
                    self.type_str(&to)
                ),
            ));
        }
        let (fs, ts) = (self.size_of(&from, span)?, self.size_of(&to, span)?);
        if fs != ts {
            return Err(err(
                span,
                format!(
                    "cannot convert a value of type '{}' to type '{}' which has different size",
                    self.type_str(&from),
                    self.type_str(&to)
                ),
            ));
        }
        self.reinterpret(v, to, span)
    }

    /// Whether assignment converts vector type `from` to vector type `to`
    /// (gcc's `vector_types_convertible_p`, lax for integer elements).
    pub(super) fn vector_convertible(&self, from: &CType, to: &CType) -> bool {
        match (vector_parts(from), vector_parts(to)) {
            (Some((ef, nf)), Some((et, nt))) => {
                nf == nt && (ef == et || (is_int_elem(ef) && is_int_elem(et) && ef.size() == et.size()))
            }
            _ => false,
        }
    }

    /// `__builtin_shuffle(a, mask)` / `__builtin_shuffle(a, b, mask)`.
    pub(super) fn vector_shuffle(&mut self, args: &[ast::Expr], span: Span) -> PResult<Expr> {
        if !(2..=3).contains(&args.len()) {
            return Err(err(span, "'__builtin_shuffle' takes two or three arguments"));
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue_of(a)?);
        }
        let mask = vals.pop().expect("a mask");
        let (Some((me, mn)), Some((ea, na))) = (vector_parts(&mask.ty.ty), vector_parts(&vals[0].ty.ty)) else {
            return Err(err(span, "'__builtin_shuffle' arguments must be vectors"));
        };
        if !is_int_elem(me) {
            return Err(err(span, "'__builtin_shuffle' last argument must be an integer vector"));
        }
        if mn != na || me.size() != ea.size() {
            return Err(err(
                span,
                "'__builtin_shuffle' argument vectors must have the same number of elements as the mask, of the same size",
            ));
        }
        if vals.len() == 2 && unqual(&vals[0].ty) != unqual(&vals[1].ty) {
            return Err(err(
                span,
                "'__builtin_shuffle' argument vectors must be of the same type",
            ));
        }
        let t = unqual(&vals[0].ty);
        let mut prefix = Vec::new();
        let mut srcs = Vec::new();
        for v in vals {
            srcs.push(self.vector_source(v, &mut prefix)?);
        }
        let m = self.vector_source(mask, &mut prefix)?;
        let (Arith::Int(mk_kind), count) = (me, na * srcs.len() as u64) else {
            unreachable!("checked above")
        };
        let mt = ty::int_ty(mk_kind);
        self.build_vector(
            &t,
            prefix,
            |s, i| {
                let e = s.element(&m, i);
                let sel = s.value(e)?;
                let wrap = mk(ExprKind::Int(count as i128 - 1), mt.clone(), span);
                let idx = s.binary_values(BinaryOp::BitAnd, sel, wrap, span)?;
                let pick = |s: &mut Sema, k: usize, idx: Expr| -> PResult<Expr> {
                    let lv = s.element_at(srcs[k].clone(), idx, span)?;
                    s.value(lv)
                };
                if srcs.len() == 1 {
                    return pick(s, 0, idx);
                }
                let nn = mk(ExprKind::Int(na as i128), idx.ty.clone(), span);
                let first = s.binary_values(BinaryOp::Lt, idx.clone(), nn.clone(), span)?;
                let a = pick(s, 0, idx.clone())?;
                let hi = s.binary_values(BinaryOp::Sub, idx, nn, span)?;
                let b = pick(s, 1, hi)?;
                let et = a.ty.clone();
                Ok(mk(ExprKind::Cond(Box::new(first), Box::new(a), Box::new(b)), et, span))
            },
            span,
        )
    }
}
