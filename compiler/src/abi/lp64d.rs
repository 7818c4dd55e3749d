//! RISC-V, ELF psABI "Hardware floating-point calling convention" (LP64D):
//! after flattening nested structs and arrays, a struct of exactly one
//! `float`/`double`, of two of them, or of one of them and one integer of at
//! most XLEN bits, travels in floating-point (and integer) registers.
//! Unions and structs with non-zero-width bit-fields are never flattened.

use super::{leaves, Aggregate, FloatFormat, Leaf};
use crate::ir::types::RiscvFloatClass;

/// The LP64D flattening of `agg`, if it qualifies.
pub fn float_class(agg: &Aggregate) -> Option<RiscvFloatClass> {
    if agg.size > 16 {
        return None;
    }
    let (leaves, facts) = leaves(agg);
    if facts.has_union {
        return None;
    }
    // (is_float, is_double / int size, offset)
    let mut fields: Vec<(bool, u64, u64)> = Vec::new();
    for leaf in leaves {
        match leaf {
            Leaf::Float {
                format: FloatFormat::F32,
                offset,
            } => fields.push((true, 4, offset)),
            Leaf::Float {
                format: FloatFormat::F64,
                offset,
            } => fields.push((true, 8, offset)),
            Leaf::Int { offset, size } if size <= 8 => fields.push((false, size, offset)),
            _ => return None,
        }
        if fields.len() > 2 {
            return None;
        }
    }
    let fits = |off: u64| u8::try_from(off).ok();
    match fields[..] {
        [(true, s, _)] => Some(RiscvFloatClass::OneFloat { is_double: s == 8 }),
        [(true, a, _), (true, b, _)] => Some(RiscvFloatClass::TwoFloats {
            lo_double: a == 8,
            hi_double: b == 8,
        }),
        [(true, f, _), (false, i, off)] => Some(RiscvFloatClass::FloatInt {
            float_double: f == 8,
            int_size: i as u8,
            int_offset: fits(off)?,
        }),
        [(false, i, _), (true, f, off)] => Some(RiscvFloatClass::IntFloat {
            int_size: i as u8,
            float_double: f == 8,
            float_offset: fits(off)?,
        }),
        _ => None,
    }
}
