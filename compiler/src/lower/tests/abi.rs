//! Struct classification per target. Expected values come from the ABI
//! documents: the System V AMD64 psABI 3.2.3 classification rules, AAPCS64
//! 5.9.5 (homogeneous aggregates) and the RISC-V psABI hardware
//! floating-point calling convention (LP64D).

use super::build::*;
use crate::frontend::layout::RecordAttrs;
use crate::frontend::types::{CType, FloatKind, IntKind, QualType};
use crate::ir::types::{EightbyteClass, Hfa, IrType, RiscvFloatClass};
use crate::lower::{StructAbi, Types};
use crate::target::Target;

fn ldouble() -> QualType {
    q(CType::Float(FloatKind::LongDouble))
}
fn int128() -> QualType {
    q(CType::Int(IntKind::Int128))
}

/// Classifies a struct (or union) with the given members on `target`.
fn classify(target: Target, union: bool, packed: bool, members: &[(&str, QualType, Option<u32>)]) -> StructAbi {
    let mut pb = ProgramBuilder::new(target);
    let attrs = RecordAttrs {
        packed,
        ..RecordAttrs::default()
    };
    let (t, _) = pb.record(union, members, attrs);
    Types::new(&pb.p).struct_abi(&t.ty)
}

fn s(members: &[(&str, QualType, Option<u32>)]) -> Vec<(&'static str, QualType, Option<u32>)> {
    members.iter().map(|(_, t, w)| ("m", t.clone(), *w)).collect()
}

#[test]
fn sysv_eightbyte_classes() {
    use EightbyteClass::*;
    let x86 = |members: &[(&str, QualType, Option<u32>)]| classify(Target::X86_64, false, false, &s(members)).classes;
    assert_eq!(x86(&[("a", int(), None), ("b", int(), None)]), vec![Integer]);
    assert_eq!(x86(&[("d", double(), None)]), vec![Sse]);
    assert_eq!(x86(&[("a", float(), None), ("b", float(), None)]), vec![Sse]);
    // INTEGER wins over SSE within one eightbyte (psABI 3.2.3, merge rule 4).
    assert_eq!(x86(&[("f", float(), None), ("i", int(), None)]), vec![Integer]);
    assert_eq!(x86(&[("d", double(), None), ("l", long(), None)]), vec![Sse, Integer]);
    assert_eq!(
        x86(&[("a", float(), None), ("b", float(), None), ("c", float(), None)]),
        vec![Sse, Sse]
    );
    assert_eq!(x86(&[("v", int128(), None)]), vec![Integer, Integer]);
    assert_eq!(x86(&[("a", int(), Some(3)), ("d", double(), None)]), vec![Integer, Sse]);
    // Larger than two eightbytes: MEMORY.
    assert_eq!(x86(&[("c", array(char_(), 24), None)]), vec![Memory; 3]);
    // A lone long double (X87, X87UP) is [mem, none] (returned in st(0),
    // docs/abi.md); long double with anything else is MEMORY.
    assert_eq!(x86(&[("x", ldouble(), None)]), vec![Memory, NoClass]);
    assert_eq!(x86(&[("x", ldouble(), None), ("i", int(), None)]), vec![Memory; 4]);
    let lu = classify(
        Target::X86_64,
        true,
        false,
        &s(&[("x", ldouble(), None), ("i", int(), None)]),
    );
    assert_eq!(lu.classes, vec![Memory; 2]);
    // A union merges its members at offset 0.
    let u = classify(
        Target::X86_64,
        true,
        false,
        &s(&[("f", float(), None), ("i", int(), None)]),
    );
    assert_eq!(u.classes, vec![Integer]);
    // An unaligned field (packed): MEMORY.
    let p = classify(
        Target::X86_64,
        false,
        true,
        &s(&[("c", char_(), None), ("x", int(), None)]),
    );
    assert_eq!((p.size, p.classes), (5, vec![Memory]));
    // Other targets' fields stay empty.
    assert!(x86(&[("d", double(), None)]).len() == 1);
    let a = classify(Target::X86_64, false, false, &s(&[("d", double(), None)]));
    assert_eq!((a.hfa, a.riscv), (None, None));
}

#[test]
fn aapcs64_homogeneous_aggregates() {
    let hfa = |members: &[(&str, QualType, Option<u32>)]| classify(Target::Aarch64, false, false, &s(members)).hfa;
    let h = |base, count| Some(Hfa { base, count });
    assert_eq!(
        hfa(&[
            ("a", float(), None),
            ("b", float(), None),
            ("c", float(), None),
            ("d", float(), None)
        ]),
        h(IrType::F32, 4)
    );
    assert_eq!(hfa(&[("a", array(double(), 2), None)]), h(IrType::F64, 2));
    assert_eq!(
        hfa(&[("x", ldouble(), None), ("y", ldouble(), None)]),
        h(IrType::F128, 2)
    );
    // Five members, mixed kinds, integers, bit-fields: not HFAs.
    assert_eq!(hfa(&[("a", array(float(), 5), None)]), None);
    assert_eq!(hfa(&[("a", float(), None), ("b", double(), None)]), None);
    assert_eq!(hfa(&[("a", int(), None), ("b", float(), None)]), None);
    assert_eq!(hfa(&[("a", int(), Some(3))]), None);
    // Nested aggregates flatten: struct { struct { double x, y; } p; double z; }.
    let mut pb = ProgramBuilder::new(Target::Aarch64);
    let (inner, _) = pb.record(
        false,
        &s(&[("x", double(), None), ("y", double(), None)]),
        RecordAttrs::default(),
    );
    let (outer, _) = pb.record(
        false,
        &[("p", inner, None), ("z", double(), None)],
        RecordAttrs::default(),
    );
    assert_eq!(Types::new(&pb.p).struct_abi(&outer.ty).hfa, h(IrType::F64, 3));
    assert!(classify(Target::Aarch64, false, false, &s(&[("d", double(), None)]))
        .classes
        .is_empty());
}

#[test]
fn riscv_lp64d_flattening() {
    use RiscvFloatClass::*;
    let rv = |members: &[(&str, QualType, Option<u32>)]| classify(Target::Riscv64, false, false, &s(members)).riscv;
    assert_eq!(rv(&[("d", double(), None)]), Some(OneFloat { is_double: true }));
    assert_eq!(rv(&[("f", float(), None)]), Some(OneFloat { is_double: false }));
    assert_eq!(
        rv(&[("a", float(), None), ("b", double(), None)]),
        Some(TwoFloats {
            lo_double: false,
            hi_double: true
        })
    );
    assert_eq!(
        rv(&[("a", array(float(), 2), None)]),
        Some(TwoFloats {
            lo_double: false,
            hi_double: false
        })
    );
    assert_eq!(
        rv(&[("d", double(), None), ("i", int(), None)]),
        Some(FloatInt {
            float_double: true,
            int_size: 4,
            int_offset: 8
        })
    );
    assert_eq!(
        rv(&[("c", char_(), None), ("f", float(), None)]),
        Some(IntFloat {
            int_size: 1,
            float_double: false,
            float_offset: 4
        })
    );
    assert_eq!(
        rv(&[("d", double(), None), ("l", long(), None)]),
        Some(FloatInt {
            float_double: true,
            int_size: 8,
            int_offset: 8
        })
    );
    // Two integers, three floats, long double, __int128: the integer convention.
    assert_eq!(rv(&[("a", int(), None), ("b", int(), None)]), None);
    assert_eq!(rv(&[("a", array(float(), 3), None)]), None);
    assert_eq!(rv(&[("x", ldouble(), None)]), None);
    assert_eq!(rv(&[("f", float(), None), ("v", int128(), None)]), None);
    // Unions are never flattened.
    assert_eq!(
        classify(Target::Riscv64, true, false, &s(&[("d", double(), None)])).riscv,
        None
    );
    // Nested: struct { struct { float x; } s; int i; }.
    let mut pb = ProgramBuilder::new(Target::Riscv64);
    let (inner, _) = pb.record(false, &s(&[("x", float(), None)]), RecordAttrs::default());
    let (outer, _) = pb.record(false, &[("s", inner, None), ("i", int(), None)], RecordAttrs::default());
    assert_eq!(
        Types::new(&pb.p).struct_abi(&outer.ty).riscv,
        Some(FloatInt {
            float_double: false,
            int_size: 4,
            int_offset: 4
        })
    );
}
