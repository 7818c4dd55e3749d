//! x86-64 System V AMD64 psABI 1.0 section 3.2.3: the class of each
//! eightbyte of an aggregate. Every eightbyte gets the merge of the classes
//! of the fields that overlap it (INTEGER for integer and pointer types, SSE
//! for `float`/`double`); an aggregate larger than two eightbytes, one with a
//! field at an offset that is not a multiple of its alignment, or one
//! containing `long double` (X87) is MEMORY in every eightbyte, except a lone
//! `long double` (X87, X87UP), which is `[mem, none]`: memory as an
//! argument, `st(0)` as a return value (docs/abi.md).

use super::{leaves, Aggregate, FloatFormat, Leaf};
use crate::ir::types::EightbyteClass;

/// One class per eightbyte of `agg`.
pub fn eightbyte_classes(agg: &Aggregate) -> Vec<EightbyteClass> {
    use EightbyteClass::*;
    let size = agg.size;
    let n = size.div_ceil(8) as usize;
    let memory = vec![Memory; n];
    if size > 16 {
        return memory;
    }
    let (leaves, facts) = leaves(agg);
    if facts.unaligned {
        return memory;
    }
    // A single `long double` (X87, X87UP; several union members at offset
    // 0 count as one): `[mem, none]`, returned in st(0).
    let lone_long_double = |l: &Leaf| {
        matches!(
            l,
            Leaf::Float {
                format: FloatFormat::LongDouble,
                offset: 0
            }
        )
    };
    if size == 16 && !leaves.is_empty() && leaves.iter().all(lone_long_double) {
        return vec![Memory, NoClass];
    }
    let mut classes = vec![NoClass; n];
    let mut merge = |from: u64, bytes: u64, c: EightbyteClass| {
        let first = (from / 8) as usize;
        let last = ((from + bytes.max(1) - 1) / 8) as usize;
        for slot in classes.iter_mut().take(last + 1).skip(first) {
            *slot = match (*slot, c) {
                (a, b) if a == b => a,
                (NoClass, b) => b,
                (a, NoClass) => a,
                (Memory, _) | (_, Memory) => Memory,
                (Integer, _) | (_, Integer) => Integer,
                _ => Sse,
            };
        }
    };
    for leaf in leaves {
        match leaf {
            Leaf::Int { offset, size } => merge(offset, size, Integer),
            Leaf::BitField { offset, bytes } => merge(offset, bytes, Integer),
            Leaf::Float {
                format: format @ (FloatFormat::F32 | FloatFormat::F64),
                offset,
            } => merge(offset, format.size(), Sse),
            // X87 and X87UP (long double), or anything unclassifiable.
            Leaf::Float { .. } | Leaf::Other { .. } => return memory,
        }
    }
    if classes.contains(&Memory) {
        return memory;
    }
    classes
}
