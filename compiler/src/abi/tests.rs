//! The three classifications on hand-built layouts; expected values from the
//! System V AMD64 psABI 3.2.3, AAPCS64 5.9.5 and the RISC-V psABI LP64D
//! rules (the C-level cases, built from C types, are in `lower/tests/abi.rs`).

use super::*;
use crate::ir::types::IrType;

fn int(size: u64) -> Shape {
    Shape::Int { size }
}

fn float(f: FloatFormat) -> Shape {
    Shape::Float(f)
}

/// A struct (or union) of `members` placed at their natural alignment.
fn record(is_union: bool, members: Vec<(Shape, u64, u64)>) -> Shape {
    let mut offset = 0u64;
    let members = members
        .into_iter()
        .map(|(shape, size, align)| {
            let at = if is_union { 0 } else { offset.next_multiple_of(align) };
            offset = at + size;
            Member {
                offset: at,
                align,
                bit_field: None,
                shape,
            }
        })
        .collect();
    Shape::Record { is_union, members }
}

fn agg(size: u64, align: u64, shape: Shape) -> Aggregate {
    Aggregate { size, align, shape }
}

#[test]
fn sysv_merges_the_classes_of_each_eightbyte() {
    use crate::ir::types::EightbyteClass::*;
    // struct { float a, b; double d; }: SSE, SSE.
    let s = agg(
        16,
        8,
        record(
            false,
            vec![
                (float(FloatFormat::F32), 4, 4),
                (float(FloatFormat::F32), 4, 4),
                (float(FloatFormat::F64), 8, 8),
            ],
        ),
    );
    assert_eq!(sysv::eightbyte_classes(&s), vec![Sse, Sse]);
    // struct { float f; int i; long l; }: INTEGER wins within the first eightbyte.
    let s = agg(
        16,
        8,
        record(
            false,
            vec![(float(FloatFormat::F32), 4, 4), (int(4), 4, 4), (int(8), 8, 8)],
        ),
    );
    assert_eq!(sysv::eightbyte_classes(&s), vec![Integer, Integer]);
    // Larger than two eightbytes: MEMORY.
    let s = agg(
        24,
        8,
        record(false, vec![(int(8), 8, 8), (int(8), 8, 8), (int(8), 8, 8)]),
    );
    assert_eq!(sysv::eightbyte_classes(&s), vec![Memory; 3]);
    // A lone long double: [mem, none]; with another member: MEMORY.
    let s = agg(16, 16, record(false, vec![(float(FloatFormat::LongDouble), 16, 16)]));
    assert_eq!(sysv::eightbyte_classes(&s), vec![Memory, NoClass]);
    let s = agg(16, 16, record(false, vec![(float(FloatFormat::Float128), 16, 16)]));
    assert_eq!(sysv::eightbyte_classes(&s), vec![Memory, Memory]);
    // A member below its alignment (packed): MEMORY.
    let packed = Shape::Record {
        is_union: false,
        members: vec![
            Member {
                offset: 0,
                align: 1,
                bit_field: None,
                shape: int(1),
            },
            Member {
                offset: 1,
                align: 4,
                bit_field: None,
                shape: int(4),
            },
        ],
    };
    assert_eq!(sysv::eightbyte_classes(&agg(5, 1, packed)), vec![Memory]);
}

#[test]
fn aapcs64_finds_homogeneous_aggregates() {
    let h = |base, count| Some(Hfa { base, count });
    let f4 = Shape::Array {
        elem: Box::new(float(FloatFormat::F32)),
        elem_size: 4,
        len: Some(4),
    };
    assert_eq!(
        aapcs64::hfa(&agg(16, 4, record(false, vec![(f4, 16, 4)]))),
        h(IrType::F32, 4)
    );
    // Five members: not an HFA.
    let f5 = Shape::Array {
        elem: Box::new(float(FloatFormat::F64)),
        elem_size: 8,
        len: Some(5),
    };
    assert_eq!(aapcs64::hfa(&agg(40, 8, record(false, vec![(f5, 40, 8)]))), None);
    // A union counts its largest member.
    let u = record(
        true,
        vec![
            (float(FloatFormat::F64), 8, 8),
            (
                record(
                    false,
                    vec![(float(FloatFormat::F64), 8, 8), (float(FloatFormat::F64), 8, 8)],
                ),
                16,
                8,
            ),
        ],
    );
    assert_eq!(aapcs64::hfa(&agg(16, 8, u)), h(IrType::F64, 2));
    // Mixed float types, or an integer: not an HFA.
    let mixed = record(
        false,
        vec![(float(FloatFormat::F32), 4, 4), (float(FloatFormat::F64), 8, 8)],
    );
    assert_eq!(aapcs64::hfa(&agg(16, 8, mixed)), None);
    let with_int = record(false, vec![(float(FloatFormat::F32), 4, 4), (int(4), 4, 4)]);
    assert_eq!(aapcs64::hfa(&agg(8, 4, with_int)), None);
    // long double and _Float128 are one type.
    let q = record(
        false,
        vec![
            (float(FloatFormat::LongDouble), 16, 16),
            (float(FloatFormat::Float128), 16, 16),
        ],
    );
    assert_eq!(aapcs64::hfa(&agg(32, 16, q)), h(IrType::F128, 2));
    assert!(aapcs64::is_valid_hfa(Hfa {
        base: IrType::F64,
        count: 4
    }));
    assert!(!aapcs64::is_valid_hfa(Hfa {
        base: IrType::F64,
        count: 5
    }));
    assert!(!aapcs64::is_valid_hfa(Hfa {
        base: IrType::I32,
        count: 1
    }));
}

#[test]
fn lp64d_flattens_small_structs() {
    use crate::ir::types::RiscvFloatClass::*;
    let d = || (float(FloatFormat::F64), 8, 8);
    let f = || (float(FloatFormat::F32), 4, 4);
    assert_eq!(
        lp64d::float_class(&agg(8, 8, record(false, vec![d()]))),
        Some(OneFloat { is_double: true })
    );
    assert_eq!(
        lp64d::float_class(&agg(16, 8, record(false, vec![f(), d()]))),
        Some(TwoFloats {
            lo_double: false,
            hi_double: true
        })
    );
    assert_eq!(
        lp64d::float_class(&agg(16, 8, record(false, vec![d(), (int(4), 4, 4)]))),
        Some(FloatInt {
            float_double: true,
            int_size: 4,
            int_offset: 8
        })
    );
    assert_eq!(
        lp64d::float_class(&agg(8, 4, record(false, vec![(int(2), 2, 2), f()]))),
        Some(IntFloat {
            int_size: 2,
            float_double: false,
            float_offset: 4
        })
    );
    // Three fields, two integers, a union: the integer convention.
    assert_eq!(
        lp64d::float_class(&agg(12, 4, record(false, vec![f(), f(), f()]))),
        None
    );
    assert_eq!(
        lp64d::float_class(&agg(8, 4, record(false, vec![(int(4), 4, 4), (int(4), 4, 4)]))),
        None
    );
    assert_eq!(lp64d::float_class(&agg(8, 8, record(true, vec![d()]))), None);
}

#[test]
fn classify_fills_the_field_of_the_target() {
    let s = agg(8, 8, record(false, vec![(float(FloatFormat::F64), 8, 8)]));
    let x86 = classify(Target::X86_64, &s);
    assert_eq!((x86.classes.len(), x86.hfa, x86.riscv), (1, None, None));
    let a64 = classify(Target::Aarch64, &s);
    assert!(a64.classes.is_empty() && a64.hfa.is_some() && a64.riscv.is_none());
    let rv = classify(Target::Riscv64, &s);
    assert!(rv.classes.is_empty() && rv.hfa.is_none() && rv.riscv.is_some());
    assert_eq!((rv.size, rv.align), (8, 8));
}
