//! `_Complex` in expressions (C11 6.2.5p11, 6.3.1.6-7, 6.3.1.8, G.5 without
//! Annex G's imaginary types) and GNU's extensions: complex integer types,
//! imaginary constants (`2.0i`), `__real__`/`__imag__` (lvalues when their
//! operand is), `~z` as the conjugate.
//!
//! What sema builds (documented in `hir.rs`): a complex value is built by
//! [`ExprKind::Complex`], converted by `CastKind::ComplexToComplex`, and
//! read part by part through `Member` nodes at offset 0 and at the part
//! size. Mixed real/complex arithmetic keeps the real operand real, as gcc's
//! C front end does (`build_binary_op`: `r * z` is `(r*re, r*im)`, `z + r` is
//! `(re+r, im)`, `z / r` is `(re/r, im/r)`), which is visible with signed
//! zeros, infinities and NaNs; only a real dividend of a complex divisor is
//! converted. Constant operands are folded part by part, so that static
//! initializers such as `1.0 + 2.0i` are constants.

use super::super::hir::{BinaryOp, CastKind, Expr, ExprKind, UnaryOp};
use super::super::source::{PResult, Span};
use super::super::types::{usual_arithmetic_conversion, Arith, CType, QualType};
use super::binary::is_pure;
use super::expr::mk;
use super::ty::{self, unqual};
use super::{err, Sema};

/// The part type of a complex type.
pub(super) fn complex_part(t: &CType) -> Option<Arith> {
    match t {
        CType::Complex(a) => Some(*a),
        _ => None,
    }
}

pub(super) fn complex_ty(a: Arith) -> QualType {
    ty::q(CType::Complex(a))
}

fn is_const(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int(_) | ExprKind::Float(_))
}

/// The parts of a constant complex value.
fn const_parts(e: &Expr) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        ExprKind::Complex(re, im) if is_const(re) && is_const(im) => Some((re, im)),
        _ => None,
    }
}

impl Sema {
    /// The real type behind an arithmetic operand: the part type of a complex
    /// one, the type itself for a real one.
    pub(super) fn real_arith(&self, t: &CType) -> Option<Arith> {
        complex_part(t).or_else(|| ty::arith(t, &self.types))
    }

    /// The common part type of two operands of which one is complex
    /// (6.3.1.8p1: the usual conversions of the corresponding real types;
    /// gcc does not promote the parts of complex integers of one type).
    fn common_part(&self, a: Arith, b: Arith) -> Arith {
        if a == b {
            return a;
        }
        usual_arithmetic_conversion(a, b, self.target)
    }

    fn zero_of(&self, a: Arith, span: Span) -> Expr {
        self.convert(mk(ExprKind::Int(0), ty::int(), span), &ty::arith_type(a))
    }

    /// `re + im*i` of part type `a` (both already of that type).
    pub(super) fn mk_complex(&self, a: Arith, re: Expr, im: Expr, span: Span) -> Expr {
        mk(ExprKind::Complex(Box::new(re), Box::new(im)), complex_ty(a), span)
    }

    /// The real (`imag == false`) or imaginary part of a complex value or
    /// lvalue; an lvalue part of an lvalue.
    pub(super) fn complex_part_of(&self, e: Expr, imag: bool) -> Expr {
        let span = e.span;
        let Some(a) = complex_part(&e.ty.ty) else {
            return e;
        };
        if let ExprKind::Complex(re, im) = &e.kind {
            let (want, other) = if imag { (im, re) } else { (re, im) };
            if is_pure(other) {
                return (**want).clone();
            }
        }
        let t = ty::arith_type(a).with_quals(e.ty.quals);
        mk(
            ExprKind::Member {
                base: Box::new(e),
                offset: if imag { a.size() } else { 0 },
                bitfield: None,
            },
            t,
            span,
        )
    }

    /// Converts a value to or from a complex type (`convert` calls this when
    /// either side is complex).
    pub(super) fn convert_complex(&self, e: Expr, to: &QualType) -> Expr {
        let span = e.span;
        let to = unqual(to);
        match (complex_part(&e.ty.ty), complex_part(&to.ty)) {
            (Some(from), Some(p)) => {
                if from == p {
                    return Expr { ty: to, ..e };
                }
                if let ExprKind::Complex(re, im) = e.kind {
                    let pt = ty::arith_type(p);
                    let re = self.convert(*re, &pt);
                    let im = self.convert(*im, &pt);
                    return self.mk_complex(p, re, im, span);
                }
                mk(ExprKind::Cast(CastKind::ComplexToComplex, Box::new(e)), to, span)
            }
            (None, Some(p)) => {
                let re = self.convert(e, &ty::arith_type(p));
                let im = self.zero_of(p, span);
                self.mk_complex(p, re, im, span)
            }
            (Some(_), None) if matches!(&*to.ty, CType::Int(super::super::types::IntKind::Bool)) => {
                if let Some((re, im)) = const_parts(&e) {
                    let nz = |x: &Expr| match x.kind {
                        ExprKind::Int(v) => v != 0,
                        ExprKind::Float(f) => !f.is_zero(),
                        _ => true,
                    };
                    return mk(ExprKind::Int((nz(re) || nz(im)) as i128), to, span);
                }
                mk(ExprKind::Cast(CastKind::ToBool, Box::new(e)), to, span)
            }
            (Some(_), None) => {
                let re = self.complex_part_of(e, false);
                let re = if re.is_lvalue() {
                    let t = unqual(&re.ty);
                    mk(ExprKind::Load(Box::new(re)), t, span)
                } else {
                    re
                };
                self.convert(re, &to)
            }
            (None, None) => self.convert(e, &to),
        }
    }

    /// The value of a part (a `Load` of a `Member` part of an lvalue).
    fn part_value(&self, e: Expr, imag: bool) -> Expr {
        let p = self.complex_part_of(e, imag);
        if p.is_lvalue() {
            let t = unqual(&p.ty);
            let s = p.span;
            mk(ExprKind::Load(Box::new(p)), t, s)
        } else {
            p
        }
    }

    /// A condition on a complex value: `z != 0`.
    pub(super) fn complex_truth(&mut self, v: Expr, span: Span) -> PResult<Expr> {
        let zero = mk(ExprKind::Int(0), ty::int(), span);
        self.complex_binary(BinaryOp::Ne, v, zero, span)
    }

    /// A binary operator with at least one complex operand.
    pub(super) fn complex_binary(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> PResult<Expr> {
        use BinaryOp::*;
        let (Some(x), Some(y)) = (self.real_arith(&a.ty.ty), self.real_arith(&b.ty.ty)) else {
            return Err(self.complex_operands(op, &a, &b, span));
        };
        if !matches!(op, Add | Sub | Mul | Div | Eq | Ne) {
            return Err(self.complex_operands(op, &a, &b, span));
        }
        let p = self.common_part(x, y);
        let ct = complex_ty(p);
        let pt = ty::arith_type(p);
        let a_cx = complex_part(&a.ty.ty).is_some();
        let b_cx = complex_part(&b.ty.ty).is_some();
        // Operands keep their realness except where gcc converts.
        let to_complex = |op: BinaryOp, is_left: bool| match op {
            Eq | Ne => true,
            Div => is_left && !a_cx,
            _ => false,
        };
        let conv = |s: &Sema, e: Expr, cx: bool, left: bool| {
            if cx || to_complex(op, left) {
                s.convert(e, &ct)
            } else {
                s.convert(e, &pt)
            }
        };
        let a = conv(self, a, a_cx, true);
        let b = conv(self, b, b_cx, false);
        if matches!(op, Eq | Ne) {
            if let (Some((ar, ai)), Some((br, bi))) = (const_parts(&a), const_parts(&b)) {
                let r = self.mk_binary(Eq, ar.clone(), br.clone(), ty::int(), span);
                let i = self.mk_binary(Eq, ai.clone(), bi.clone(), ty::int(), span);
                if let (ExprKind::Int(r), ExprKind::Int(i)) = (r.kind, i.kind) {
                    let eq = r != 0 && i != 0;
                    return Ok(mk(ExprKind::Int((eq == (op == Eq)) as i128), ty::int(), span));
                }
            }
            return Ok(mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty::int(), span));
        }
        if let Some(folded) = self.fold_complex(op, &a, &b, p, span) {
            return Ok(folded);
        }
        Ok(mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), ct, span))
    }

    /// Folds `a op b` when every part is a constant (`+ - *` exactly as the
    /// run-time code computes them; `/` by the textbook formula).
    fn fold_complex(&self, op: BinaryOp, a: &Expr, b: &Expr, p: Arith, span: Span) -> Option<Expr> {
        use BinaryOp::*;
        let pt = ty::arith_type(p);
        let parts = |e: &Expr| -> Option<(Expr, Option<Expr>)> {
            if is_const(e) {
                return Some((e.clone(), None));
            }
            const_parts(e).map(|(r, i)| (r.clone(), Some(i.clone())))
        };
        let (ar, ai) = parts(a)?;
        let (br, bi) = parts(b)?;
        let bin = |op, l: Expr, r: Expr| self.mk_binary(op, l, r, pt.clone(), span);
        let (re, im) = match (op, ai, bi) {
            (Add | Sub, Some(ai), Some(bi)) => (bin(op, ar, br), bin(op, ai, bi)),
            (Add | Sub, Some(ai), None) => (bin(op, ar, br), ai),
            (Add, None, Some(bi)) => (bin(op, ar, br), bi),
            (Sub, None, Some(bi)) => (bin(op, ar, br), self.mk_unary(UnaryOp::Neg, bi, span)),
            (Mul, Some(ai), None) | (Div, Some(ai), None) => (bin(op, ar, br.clone()), bin(op, ai, br)),
            (Mul, None, Some(bi)) => (bin(op, ar.clone(), br), bin(op, ar, bi)),
            (Mul, Some(ai), Some(bi)) => {
                let re = bin(Sub, bin(Mul, ar.clone(), br.clone()), bin(Mul, ai.clone(), bi.clone()));
                let im = bin(Add, bin(Mul, ar, bi), bin(Mul, ai, br));
                (re, im)
            }
            (Div, Some(ai), Some(bi)) => {
                let den = bin(Add, bin(Mul, br.clone(), br.clone()), bin(Mul, bi.clone(), bi.clone()));
                let re = bin(Add, bin(Mul, ar.clone(), br.clone()), bin(Mul, ai.clone(), bi.clone()));
                let im = bin(Sub, bin(Mul, ai, br), bin(Mul, ar, bi));
                (bin(Div, re, den.clone()), bin(Div, im, den))
            }
            _ => return None,
        };
        (is_const(&re) && is_const(&im)).then(|| self.mk_complex(p, re, im, span))
    }

    fn complex_operands(&self, op: BinaryOp, a: &Expr, b: &Expr, span: Span) -> super::super::source::Diagnostic {
        let sym = match op {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
        };
        err(
            span,
            format!(
                "invalid operands to binary {sym} (have '{}' and '{}')",
                self.type_str(&a.ty),
                self.type_str(&b.ty)
            ),
        )
    }

    /// `-z`, `+z` and GNU `~z` (the conjugate) of a complex value.
    pub(super) fn complex_unary(&mut self, op: UnaryOp, v: Expr, span: Span) -> Expr {
        let t = unqual(&v.ty);
        let Some(p) = complex_part(&t.ty) else {
            return v;
        };
        if let Some((re, im)) = const_parts(&v) {
            let (re, im) = (re.clone(), im.clone());
            let re = if op == UnaryOp::Neg {
                self.mk_unary(UnaryOp::Neg, re, span)
            } else {
                re
            };
            let im = self.mk_unary(UnaryOp::Neg, im, span);
            if is_const(&re) && is_const(&im) {
                return self.mk_complex(p, re, im, span);
            }
        }
        mk(ExprKind::Unary(op, Box::new(v)), t, span)
    }

    /// `__real__ e` / `__imag__ e`: a part of a complex lvalue is an lvalue;
    /// of a real operand, the operand itself and zero.
    pub(super) fn real_imag(&mut self, e: Expr, imag: bool, span: Span) -> PResult<Expr> {
        if complex_part(&e.ty.ty).is_some() {
            let e = if e.is_lvalue() { e } else { self.value(e)? };
            return Ok(self.complex_part_of(e, imag));
        }
        let v = self.value(e)?;
        if ty::arith(&v.ty.ty, &self.types).is_none() {
            return Err(err(
                span,
                format!(
                    "wrong type argument to '{}' (have '{}')",
                    if imag { "__imag__" } else { "__real__" },
                    self.type_str(&v.ty)
                ),
            ));
        }
        if !imag {
            return Ok(v);
        }
        let t = v.ty.clone();
        let zero = self.convert(mk(ExprKind::Int(0), ty::int(), span), &t);
        let side = mk(ExprKind::Cast(CastKind::ToVoid, Box::new(v)), ty::void(), span);
        Ok(mk(ExprKind::Comma(Box::new(side), Box::new(zero)), t, span))
    }

    /// `lhs op= rhs` where either side is complex: `lhs = lhs op rhs`, with
    /// the place of `lhs` computed once (through a pointer temporary unless
    /// it is a plain variable).
    pub(super) fn complex_compound_assign(&mut self, op: BinaryOp, lhs: Expr, rhs: Expr, span: Span) -> PResult<Expr> {
        if let ExprKind::Member { bitfield: Some(_), .. } = lhs.kind {
            return Err(err(
                span,
                "compound assignment of a complex value to a bit-field is not supported",
            ));
        }
        let lt = unqual(&lhs.ty);
        if self.real_arith(&lt.ty).is_none() {
            return Err(self.complex_operands(op, &lhs, &rhs, span));
        }
        let (prefix, place) = self.place_once(lhs, span)?;
        let old = mk(ExprKind::Load(Box::new(place.clone())), lt.clone(), span);
        let value = self.complex_binary(op, old, rhs, span)?;
        let value = self.convert(value, &lt);
        let assign = mk(
            ExprKind::Assign {
                lhs: Box::new(place),
                rhs: Box::new(value),
            },
            lt.clone(),
            span,
        );
        Ok(match prefix {
            Some(set) => mk(ExprKind::Comma(Box::new(set), Box::new(assign)), lt, span),
            None => assign,
        })
    }

    /// An lvalue usable twice: itself when it is a variable, else `*tmp`
    /// with the set-up `tmp = &lvalue` to evaluate first.
    fn place_once(&mut self, lv: Expr, span: Span) -> PResult<(Option<Expr>, Expr)> {
        if matches!(lv.kind, ExprKind::Local(_) | ExprKind::Global(_)) {
            return Ok((None, lv));
        }
        let pt = ty::ptr_to(lv.ty.clone());
        let tmp = self.new_temp(pt.clone(), span)?;
        let addr = mk(ExprKind::AddrOf(Box::new(lv)), pt.clone(), span);
        let set = mk(
            ExprKind::Assign {
                lhs: Box::new(mk(ExprKind::Local(tmp), pt.clone(), span)),
                rhs: Box::new(addr),
            },
            pt.clone(),
            span,
        );
        let p = self.load_local(tmp, pt, span);
        Ok((Some(set), self.deref(p, span)?))
    }

    /// GNU `++z`, `z--` on a complex lvalue: its real part changes by one;
    /// the postfix forms give the old value.
    pub(super) fn complex_inc_dec(&mut self, lv: Expr, is_prefix: bool, up: bool, span: Span) -> PResult<Expr> {
        let one = mk(ExprKind::Int(if up { 1 } else { -1 }), ty::int(), span);
        if is_prefix {
            return self.complex_compound_assign(BinaryOp::Add, lv, one, span);
        }
        let lt = unqual(&lv.ty);
        let (prefix, place) = self.place_once(lv, span)?;
        let old = self.new_temp(lt.clone(), span)?;
        let read = mk(ExprKind::Load(Box::new(place.clone())), lt.clone(), span);
        let save = mk(
            ExprKind::Assign {
                lhs: Box::new(mk(ExprKind::Local(old), lt.clone(), span)),
                rhs: Box::new(read.clone()),
            },
            lt.clone(),
            span,
        );
        let sum = self.complex_binary(BinaryOp::Add, read, one, span)?;
        let sum = self.convert(sum, &lt);
        let store = mk(
            ExprKind::Assign {
                lhs: Box::new(place),
                rhs: Box::new(sum),
            },
            lt.clone(),
            span,
        );
        let comma = |a: Expr, b: Expr| {
            let t = b.ty.clone();
            mk(ExprKind::Comma(Box::new(a), Box::new(b)), t, span)
        };
        let result = comma(save, comma(store, self.load_local(old, lt, span)));
        Ok(match prefix {
            Some(set) => comma(set, result),
            None => result,
        })
    }

    /// `__builtin_complex(re, im)` (gcc): two values of one floating type.
    pub(super) fn builtin_complex(&mut self, re: Expr, im: Expr, span: Span) -> PResult<Expr> {
        match (&*re.ty.ty, &*im.ty.ty) {
            (CType::Float(a), CType::Float(b)) if a == b => Ok(self.mk_complex(Arith::Float(*a), re, im, span)),
            _ => Err(err(
                span,
                format!(
                    "'__builtin_complex' operands must be of one floating type (have '{}' and '{}')",
                    self.type_str(&re.ty),
                    self.type_str(&im.ty)
                ),
            )),
        }
    }

    /// `__builtin_creal*`, `__builtin_cimag*`, `__builtin_conj*`: the argument
    /// converted to the complex type of the builtin's suffix.
    pub(super) fn complex_builtin(&mut self, name: &str, arg: Expr, span: Span) -> PResult<Option<Expr>> {
        use super::super::types::FloatKind as F;
        let (what, rest) = if let Some(r) = name.strip_prefix("__builtin_creal") {
            (0, r)
        } else if let Some(r) = name.strip_prefix("__builtin_cimag") {
            (1, r)
        } else if let Some(r) = name.strip_prefix("__builtin_conj") {
            (2, r)
        } else {
            return Ok(None);
        };
        let k = match rest {
            "" => F::Double,
            "f" => F::Float,
            "l" => F::LongDouble,
            _ => return Ok(None),
        };
        if self.real_arith(&arg.ty.ty).is_none() {
            return Err(err(
                span,
                format!("argument of '{name}' has type '{}'", self.type_str(&arg.ty)),
            ));
        }
        let p = Arith::Float(k);
        let z = self.convert(arg, &complex_ty(p));
        Ok(Some(match what {
            0 => self.part_value(z, false),
            1 => self.part_value(z, true),
            _ => self.complex_unary(UnaryOp::BitNot, z, span),
        }))
    }
}
