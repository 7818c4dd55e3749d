//! AArch64, AAPCS64 5.9.5: a homogeneous floating-point aggregate (HFA) is
//! made of one to four members of one floating type (unions: every member an
//! HFA of that type, the count is the largest), with no other data and no
//! padding. `long double` and `_Float128` are the same binary128 type here.

use super::{Aggregate, FloatFormat, Shape};
use crate::ir::types::{Hfa, IrType};

/// The HFA `agg` is, if it is one.
pub fn hfa(agg: &Aggregate) -> Option<Hfa> {
    let (base, count) = candidate(&agg.shape)?;
    let base_ty = match base {
        FloatFormat::F32 => IrType::F32,
        FloatFormat::F64 => IrType::F64,
        FloatFormat::LongDouble | FloatFormat::Float128 => IrType::F128,
    };
    if count == 0 || count > 4 || agg.size != count * base.size() {
        return None;
    }
    Some(Hfa {
        base: base_ty,
        count: count as u8,
    })
}

/// Whether `h` is an HFA AAPCS64 allows: one to four members of `f32`, `f64` or `f128`.
pub fn is_valid_hfa(h: Hfa) -> bool {
    (1..=4).contains(&h.count) && matches!(h.base, IrType::F32 | IrType::F64 | IrType::F128)
}

/// (base format, member count) when every member is one floating type.
fn candidate(shape: &Shape) -> Option<(FloatFormat, u64)> {
    match shape {
        Shape::Float(f) => Some((canonical(*f), 1)),
        Shape::Array { elem, len: Some(n), .. } => {
            let (k, c) = candidate(elem)?;
            Some((k, c.checked_mul(*n)?))
        }
        Shape::Record { is_union, members } => {
            let mut base: Option<FloatFormat> = None;
            let mut count = 0u64;
            for m in members {
                if m.bit_field.is_some() {
                    return None;
                }
                let (k, c) = candidate(&m.shape)?;
                if base.is_some_and(|b| b != k) {
                    return None;
                }
                base = Some(k);
                count = if *is_union { count.max(c) } else { count + c };
                if count > 4 {
                    return None;
                }
            }
            Some((base?, count))
        }
        _ => None,
    }
}

/// `_Float128` and `long double` are the same 128-bit type for HFA purposes.
fn canonical(f: FloatFormat) -> FloatFormat {
    match f {
        FloatFormat::Float128 => FloatFormat::LongDouble,
        f => f,
    }
}
