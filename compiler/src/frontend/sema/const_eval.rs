//! Constant expressions (C11 6.6).
//!
//! * Folding: operators and casts whose operands are integer or floating
//!   constants are replaced by their value when the node is built, with the
//!   target's type widths (integers wrap like the machine; division by zero,
//!   `INT_MIN / -1` and out-of-range shifts are left unfolded, so they stay
//!   run-time traps and are not integer constant expressions). After
//!   folding, an integer constant expression (6.6p6) is exactly an
//!   `ExprKind::Int` of integer type.
//! * Static initializer values (6.6p7-9): arithmetic constants, address
//!   constants (`&obj`, arrays and functions decayed, `&a[3]`, `&s.f`,
//!   `(char *)&x + 4`, null pointers, integers cast to pointers), GNU label
//!   addresses in static locals and label differences `&&a - &&b`.
//!
//! Floating constants are exact ([`Binary128`]): `float` and `double`
//! arithmetic folds in `f64` (IEEE, so exactly as the machine computes it),
//! `long double` arithmetic, conversions and comparisons with the exact
//! operations of [`crate::binary128`], rounded to the target's `long double`
//! precision (an invalid operation folds to the positive quiet NaN, as gcc's
//! folding does).

use super::super::ast;
use super::super::hir::{AddrTarget, BinaryOp, CastKind, Expr, ExprKind, GlobalId, LabelId, UnaryOp};
use super::super::source::PResult;
use super::super::types::{CType, FloatKind, IntKind, QualType, TypeContext};
use super::ty;
use super::{err, Sema};
use crate::binary128::{Binary128, Format, Truncated};
use crate::target::Target;

/// Wraps `v` to the range of integer kind `k` (two's complement). For
/// `unsigned __int128`, whose values do not all fit an `i128`, the bit
/// pattern is kept.
pub(super) fn normalize(v: i128, k: IntKind, target: Target) -> i128 {
    if k == IntKind::Bool {
        return (v != 0) as i128;
    }
    let bits = k.size() * 8;
    if bits >= 128 {
        return v;
    }
    let mask = (1i128 << bits) - 1;
    let m = v & mask;
    if k.is_signed(target) && (m >> (bits - 1)) & 1 == 1 {
        m - (1i128 << bits)
    } else {
        m
    }
}

/// The binary format of a floating kind on `target`.
pub(super) fn float_format(k: FloatKind, target: Target) -> Format {
    match k {
        FloatKind::Float => Format::BINARY32,
        FloatKind::Double => Format::BINARY64,
        FloatKind::LongDouble => Format::long_double(target.long_double()),
        FloatKind::Float128 => Format::BINARY128,
    }
}

/// Rounds a value to the precision of a floating kind (a NaN keeps its sign).
pub(super) fn round_float(v: Binary128, k: FloatKind, target: Target) -> Binary128 {
    match k {
        FloatKind::Float => Binary128::from_f32(v.to_f32()),
        FloatKind::Double => Binary128::from_f64(v.to_f64()),
        _ => v.round_to(float_format(k, target)),
    }
}

/// The integer `v` of kind `from` converted to floating kind `k`, rounded once.
fn int_to_float(v: i128, from: IntKind, k: FloatKind, target: Target) -> Binary128 {
    let (neg, magnitude) = if from == IntKind::UInt128 {
        (false, v as u128)
    } else {
        (v < 0, v.unsigned_abs())
    };
    Binary128::from_int(neg, magnitude, float_format(k, target))
}

/// A floating value converted to integer kind `k` (toward zero; out of
/// range saturates, NaN gives 0, see `fold_cast`).
fn float_to_int(f: Binary128, k: IntKind, target: Target) -> i128 {
    let bits = (k.size() * 8) as u32;
    let signed = k.is_signed(target);
    let min = if signed { i128::MIN >> (128 - bits) } else { 0 };
    let max = if signed {
        i128::MAX >> (128 - bits)
    } else {
        (u128::MAX >> (128 - bits)) as i128
    };
    let v = match f.trunc() {
        Truncated::Nan => 0,
        Truncated::TooBig { neg } => {
            if neg {
                min
            } else {
                max
            }
        }
        Truncated::Value { neg, magnitude } => {
            // Limits as magnitudes: 2^(bits-1) below zero for signed types.
            let lo = if signed { 1u128 << (bits - 1) } else { 0 };
            let hi = max as u128;
            if neg && magnitude > lo {
                min
            } else if !neg && magnitude > hi {
                max
            } else if neg {
                (magnitude as i128).wrapping_neg()
            } else {
                magnitude as i128
            }
        }
    };
    normalize(v, k, target)
}

/// Folds a cast of a constant.
pub(super) fn fold_cast(kind: CastKind, e: &Expr, to: &QualType, cx: &TypeContext, target: Target) -> Option<ExprKind> {
    let from_k = ty::int_kind(&e.ty.ty, cx);
    let to_k = ty::int_kind(&to.ty, cx);
    match (kind, &e.kind) {
        (CastKind::IntToInt, ExprKind::Int(v)) => Some(ExprKind::Int(normalize(*v, to_k?, target))),
        (CastKind::ToBool, ExprKind::Int(v)) => Some(ExprKind::Int((*v != 0) as i128)),
        (CastKind::ToBool, ExprKind::Float(f)) => Some(ExprKind::Int(!f.is_zero() as i128)),
        (CastKind::IntToFloat, ExprKind::Int(v)) => {
            let CType::Float(fk) = &*to.ty else { return None };
            Some(ExprKind::Float(int_to_float(*v, from_k?, *fk, target)))
        }
        // A value out of the target type's range is undefined behaviour
        // (C11 6.3.1.4p1); GCC folds such a constant conversion by
        // saturating to the type's minimum or maximum (NaN gives 0), at
        // every optimization level, and programs rely on it
        // (gcc.c-torture/execute/20031003-1.c).
        (CastKind::FloatToInt, ExprKind::Float(f)) => Some(ExprKind::Int(float_to_int(*f, to_k?, target))),
        (CastKind::FloatToFloat, ExprKind::Float(f)) => {
            let CType::Float(fk) = &*to.ty else { return None };
            Some(ExprKind::Float(round_float(*f, *fk, target)))
        }
        _ => None,
    }
}

fn fold_int(op: BinaryOp, a: i128, b: i128, k: IntKind, target: Target) -> Option<i128> {
    use BinaryOp::*;
    let signed = k.is_signed(target);
    let bits = (k.size() * 8) as i128;
    let cmp = |o: std::cmp::Ordering| -> i128 {
        use std::cmp::Ordering::*;
        (match op {
            Eq => o == Equal,
            Ne => o != Equal,
            Lt => o == Less,
            Le => o != Greater,
            Gt => o == Greater,
            Ge => o != Less,
            _ => false,
        }) as i128
    };
    let ord = if signed || k != IntKind::UInt128 {
        a.cmp(&b)
    } else {
        (a as u128).cmp(&(b as u128))
    };
    let v = match op {
        Add => a.wrapping_add(b),
        Sub => a.wrapping_sub(b),
        Mul => a.wrapping_mul(b),
        Div | Rem => {
            if b == 0 {
                return None;
            }
            if signed {
                if b == -1 && normalize(a.wrapping_neg(), k, target) == a && a != 0 {
                    return None; // INT_MIN / -1 overflows
                }
                if op == Div {
                    a.wrapping_div(b)
                } else {
                    a.wrapping_rem(b)
                }
            } else {
                let (x, y) = (a as u128, b as u128);
                (if op == Div { x / y } else { x % y }) as i128
            }
        }
        Shl | Shr => {
            if b < 0 || b >= bits {
                return None;
            }
            if op == Shl {
                ((a as u128) << b) as i128
            } else if signed {
                a >> b
            } else if k == IntKind::UInt128 {
                ((a as u128) >> b) as i128
            } else {
                a >> b
            }
        }
        BitAnd => a & b,
        BitOr => a | b,
        BitXor => a ^ b,
        Eq | Ne | Lt | Le | Gt | Ge => return Some(cmp(ord)),
    };
    Some(normalize(v, k, target))
}

fn fold_float(op: BinaryOp, a: Binary128, b: Binary128, k: FloatKind, target: Target) -> Option<ExprKind> {
    use std::cmp::Ordering::*;
    use BinaryOp::*;
    let ord = a.compare(b);
    let cmp = |yes: bool| Some(ExprKind::Int(yes as i128));
    match op {
        Eq => return cmp(ord == Some(Equal)),
        Ne => return cmp(ord != Some(Equal)),
        Lt => return cmp(ord == Some(Less)),
        Le => return cmp(matches!(ord, Some(Less | Equal))),
        Gt => return cmp(ord == Some(Greater)),
        Ge => return cmp(matches!(ord, Some(Greater | Equal))),
        Add | Sub | Mul | Div => {}
        _ => return None,
    }
    let v = match k {
        FloatKind::Float | FloatKind::Double => {
            let (a, b) = (a.to_f64(), b.to_f64());
            let v = match op {
                Add => a + b,
                Sub => a - b,
                Mul => a * b,
                _ => a / b,
            };
            round_float(Binary128::from_f64(v), k, target)
        }
        FloatKind::LongDouble | FloatKind::Float128 => {
            let f = float_format(k, target);
            match op {
                Add => a.add(b, f),
                Sub => a.sub(b, f),
                Mul => a.mul(b, f),
                _ => a.div(b, f),
            }
        }
    };
    Some(ExprKind::Float(v))
}

/// Folds a binary operator on constants. For comparisons the operand type
/// is the left operand's; otherwise it is the node type.
pub(super) fn fold_binary(
    op: BinaryOp,
    l: &Expr,
    r: &Expr,
    result: &QualType,
    cx: &TypeContext,
    target: Target,
) -> Option<ExprKind> {
    match (&l.kind, &r.kind) {
        (ExprKind::Int(a), ExprKind::Int(b)) => {
            let k = ty::int_kind(&l.ty.ty, cx)?;
            let v = fold_int(op, *a, *b, k, target)?;
            let rk = ty::int_kind(&result.ty, cx)?;
            Some(ExprKind::Int(normalize(v, rk, target)))
        }
        (ExprKind::Float(a), ExprKind::Float(b)) => {
            let CType::Float(k) = &*l.ty.ty else { return None };
            fold_float(op, *a, *b, *k, target)
        }
        _ => None,
    }
}

/// Folds a unary operator on a constant.
pub(super) fn fold_unary(
    op: UnaryOp,
    e: &Expr,
    result: &QualType,
    cx: &TypeContext,
    target: Target,
) -> Option<ExprKind> {
    match (&e.kind, op) {
        (ExprKind::Int(v), UnaryOp::LogNot) => Some(ExprKind::Int((*v == 0) as i128)),
        (ExprKind::Float(v), UnaryOp::LogNot) => Some(ExprKind::Int(v.is_zero() as i128)),
        (ExprKind::Int(v), UnaryOp::Neg) => Some(ExprKind::Int(normalize(
            v.wrapping_neg(),
            ty::int_kind(&result.ty, cx)?,
            target,
        ))),
        (ExprKind::Int(v), UnaryOp::BitNot) => {
            Some(ExprKind::Int(normalize(!v, ty::int_kind(&result.ty, cx)?, target)))
        }
        (ExprKind::Float(v), UnaryOp::Neg) => Some(ExprKind::Float(-*v)),
        _ => None,
    }
}

/// The value of a static initializer element.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum SVal {
    Int(i128),
    Float(Binary128),
    /// An address constant; `base == None` is an integer cast to a pointer.
    Addr {
        base: Option<AddrTarget>,
        offset: i64,
    },
    LabelDiff {
        func: GlobalId,
        a: LabelId,
        b: LabelId,
    },
}

impl Sema {
    /// An integer constant expression (6.6p6) in the syntax tree.
    pub(super) fn const_int(&mut self, e: &ast::Expr) -> PResult<i128> {
        let x = self.rvalue_of(e)?;
        match x.kind {
            ExprKind::Int(v) if ty::int_kind(&x.ty.ty, &self.types).is_some() => Ok(v),
            _ => Err(err(e.span, "expression is not an integer constant expression")),
        }
    }

    /// The value of a constant expression usable in a static initializer.
    pub(super) fn static_eval(&self, e: &Expr) -> Option<SVal> {
        match &e.kind {
            ExprKind::Int(v) => Some(SVal::Int(*v)),
            ExprKind::Float(f) => Some(SVal::Float(*f)),
            ExprKind::Cast(k, x) => {
                let v = self.static_eval(x)?;
                let to_size = self.types.size_of(&e.ty.ty).ok();
                match (k, v) {
                    (CastKind::IntToInt | CastKind::PtrToInt, SVal::Int(n)) => Some(SVal::Int(normalize(
                        n,
                        ty::int_kind(&e.ty.ty, &self.types)?,
                        self.target,
                    ))),
                    (CastKind::IntToInt | CastKind::PtrToInt, a @ SVal::Addr { .. }) => {
                        if let SVal::Addr { base: None, offset } = a {
                            return Some(SVal::Int(normalize(
                                offset as i128,
                                ty::int_kind(&e.ty.ty, &self.types)?,
                                self.target,
                            )));
                        }
                        (to_size == Some(8)).then_some(a)
                    }
                    (CastKind::IntToInt, d @ SVal::LabelDiff { .. }) => Some(d),
                    (CastKind::IntToPtr, SVal::Int(n)) => Some(SVal::Addr {
                        base: None,
                        offset: n as i64,
                    }),
                    (CastKind::IntToPtr | CastKind::PtrToPtr, a @ SVal::Addr { .. }) => Some(a),
                    (CastKind::ToBool, SVal::Addr { base: Some(_), .. }) => Some(SVal::Int(1)),
                    (CastKind::ToBool, SVal::Addr { base: None, offset }) => Some(SVal::Int((offset != 0) as i128)),
                    (CastKind::ToBool, SVal::Int(n)) => Some(SVal::Int((n != 0) as i128)),
                    (CastKind::ToBool, SVal::Float(f)) => Some(SVal::Int(!f.is_zero() as i128)),
                    (CastKind::IntToFloat, SVal::Int(n)) => {
                        let CType::Float(fk) = &*e.ty.ty else { return None };
                        let from = ty::int_kind(&x.ty.ty, &self.types)?;
                        Some(SVal::Float(int_to_float(n, from, *fk, self.target)))
                    }
                    (CastKind::FloatToFloat, SVal::Float(f)) => {
                        let CType::Float(fk) = &*e.ty.ty else { return None };
                        Some(SVal::Float(round_float(f, *fk, self.target)))
                    }
                    (CastKind::FloatToInt, SVal::Float(_)) => {
                        let folded = fold_cast(*k, x, &e.ty, &self.types, self.target)?;
                        match folded {
                            ExprKind::Int(n) => Some(SVal::Int(n)),
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            ExprKind::AddrOf(lv) | ExprKind::ArrayDecay(lv) | ExprKind::FuncDecay(lv) => self.static_addr(lv),
            ExprKind::PtrAdd { ptr, index, elem_size } => {
                let SVal::Addr { base, offset } = self.static_eval(ptr)? else {
                    return None;
                };
                let SVal::Int(i) = self.static_eval(index)? else {
                    return None;
                };
                let delta = (i as i64).checked_mul(*elem_size as i64)?;
                Some(SVal::Addr {
                    base,
                    offset: offset.checked_add(delta)?,
                })
            }
            ExprKind::PtrDiff { lhs, rhs, elem_size } => {
                let (SVal::Addr { base: b1, offset: o1 }, SVal::Addr { base: b2, offset: o2 }) =
                    (self.static_eval(lhs)?, self.static_eval(rhs)?)
                else {
                    return None;
                };
                match (b1, b2) {
                    (Some(AddrTarget::Label(f, a)), Some(AddrTarget::Label(g, b))) if f == g && o1 == 0 && o2 == 0 => {
                        Some(SVal::LabelDiff { func: f, a, b })
                    }
                    (x, y) if x == y && *elem_size > 0 => Some(SVal::Int(((o1 - o2) / *elem_size as i64) as i128)),
                    _ => None,
                }
            }
            ExprKind::LabelAddr(l) => {
                let f = self.func.as_ref()?;
                Some(SVal::Addr {
                    base: Some(AddrTarget::Label(f.global, *l)),
                    offset: 0,
                })
            }
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
                match (self.static_eval(a)?, self.static_eval(b)?) {
                    (SVal::Addr { base, offset }, SVal::Int(n)) => Some(SVal::Addr {
                        base,
                        offset: if *op == BinaryOp::Add {
                            offset.checked_add(n as i64)?
                        } else {
                            offset.checked_sub(n as i64)?
                        },
                    }),
                    (SVal::Int(n), SVal::Addr { base, offset }) if *op == BinaryOp::Add => Some(SVal::Addr {
                        base,
                        offset: offset.checked_add(n as i64)?,
                    }),
                    (SVal::Addr { base: b1, offset: o1 }, SVal::Addr { base: b2, offset: o2 })
                        if *op == BinaryOp::Sub && b1 == b2 =>
                    {
                        Some(SVal::Int((o1 - o2) as i128))
                    }
                    _ => None,
                }
            }
            ExprKind::Cond(c, a, b) => match self.static_eval(c)? {
                SVal::Int(0) => self.static_eval(b),
                SVal::Int(_) | SVal::Addr { base: Some(_), .. } => self.static_eval(a),
                SVal::Float(f) => self.static_eval(if !f.is_zero() { a } else { b }),
                _ => None,
            },
            _ => None,
        }
    }

    /// The address of a static lvalue.
    fn static_addr(&self, lv: &Expr) -> Option<SVal> {
        match &lv.kind {
            ExprKind::Global(id) => Some(SVal::Addr {
                base: Some(AddrTarget::Global(*id)),
                offset: 0,
            }),
            ExprKind::Str(id) => Some(SVal::Addr {
                base: Some(AddrTarget::Str(*id)),
                offset: 0,
            }),
            ExprKind::Member {
                base,
                offset,
                bitfield: None,
            } if base.is_lvalue() => match self.static_addr(base)? {
                SVal::Addr { base, offset: o } => Some(SVal::Addr {
                    base,
                    offset: o.checked_add(*offset as i64)?,
                }),
                _ => None,
            },
            ExprKind::Deref(p) => match self.static_eval(p)? {
                a @ SVal::Addr { .. } => Some(a),
                _ => None,
            },
            _ => None,
        }
    }
}
