//! C ABI classification of aggregates (structs, unions and the arrays in
//! them) for the three targets, in one place: lowering describes an
//! aggregate's layout with the target-neutral [`Aggregate`] and asks
//! [`classify`]; the backends' `abi.rs` files only assign registers and stack
//! slots from the result (docs/abi.md, "By-value arguments").
//!
//! - [`sysv`]: x86-64, System V AMD64 psABI 1.0 section 3.2.3, the classes of
//!   an aggregate's eightbytes;
//! - [`aapcs64`]: AArch64, AAPCS64 5.9.5, homogeneous floating-point
//!   aggregates (HFAs);
//! - [`lp64d`]: RISC-V, the ELF psABI "Hardware floating-point calling
//!   convention" (LP64D), the flattening of small structs into
//!   floating-point and integer registers.
//!
//! [`Aggregate`] knows no C: it is the layout tree of the aggregate (scalar
//! leaves with their sizes and offsets, records, arrays), which is all any of
//! the three algorithms reads.

pub mod aapcs64;
pub mod lp64d;
pub mod sysv;

use crate::ir::types::{EightbyteClass, Hfa, RiscvFloatClass};
use crate::target::Target;

/// The floating-point formats the classifications tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatFormat {
    /// `float`, binary32.
    F32,
    /// `double`, binary64.
    F64,
    /// `long double`: x87 extended on x86-64, binary128 on AArch64 and RISC-V.
    LongDouble,
    /// `_Float128`, binary128.
    Float128,
}

impl FloatFormat {
    /// Size in bytes.
    pub fn size(self) -> u64 {
        match self {
            FloatFormat::F32 => 4,
            FloatFormat::F64 => 8,
            FloatFormat::LongDouble | FloatFormat::Float128 => 16,
        }
    }
}

/// The layout of a value inside an aggregate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An integer, enumeration or pointer of `size` bytes.
    Int { size: u64 },
    /// A real floating-point value.
    Float(FloatFormat),
    /// An array of `len` elements `elem_size` bytes apart; `len: None` is a
    /// flexible array member (it occupies nothing).
    Array {
        elem: Box<Shape>,
        elem_size: u64,
        len: Option<u64>,
    },
    /// A struct or union whose layout is known.
    Record { is_union: bool, members: Vec<Member> },
    /// Anything none of the conventions looks into (complex numbers,
    /// `va_list`, incomplete types).
    Other,
}

/// A member of a [`Shape::Record`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Byte offset in the record.
    pub offset: u64,
    /// Alignment of the member's type (a packed record can place a member
    /// below it).
    pub align: u64,
    /// `Some` for a bit-field.
    pub bit_field: Option<BitField>,
    pub shape: Shape,
}

/// A bit-field's width and its first bit within the byte at the member's offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitField {
    pub width: u32,
    pub bit_offset: u32,
}

/// An aggregate passed or returned by value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aggregate {
    pub size: u64,
    pub align: u64,
    pub shape: Shape,
}

/// The classification of one aggregate for one target: lowering copies the
/// field of its target into the IR (`IrParam`, `CallInfo`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StructAbi {
    pub size: u64,
    pub align: u64,
    /// x86-64 only: one class per eightbyte.
    pub classes: Vec<EightbyteClass>,
    /// AArch64 only.
    pub hfa: Option<Hfa>,
    /// RISC-V only.
    pub riscv: Option<RiscvFloatClass>,
}

/// Classifies `agg` by the calling convention of `target`.
pub fn classify(target: Target, agg: &Aggregate) -> StructAbi {
    let mut abi = StructAbi {
        size: agg.size,
        align: agg.align,
        ..StructAbi::default()
    };
    match target {
        Target::X86_64 => abi.classes = sysv::eightbyte_classes(agg),
        Target::Aarch64 => abi.hfa = aapcs64::hfa(agg),
        Target::Riscv64 => abi.riscv = lp64d::float_class(agg),
    }
    abi
}

/// A scalar leaf of an aggregate at a byte offset, after flattening nested
/// records and arrays (the view SysV and LP64D classify).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Leaf {
    Int {
        offset: u64,
        size: u64,
    },
    Float {
        offset: u64,
        format: FloatFormat,
    },
    /// A non-zero-width bit-field occupying `bytes` bytes from `offset`.
    BitField {
        offset: u64,
        bytes: u64,
    },
    Other {
        offset: u64,
    },
}

/// Whether the flattening met a union or a member at an offset that is not
/// a multiple of its alignment.
#[derive(Default)]
struct WalkFacts {
    has_union: bool,
    unaligned: bool,
}

fn walk(shape: &Shape, base: u64, facts: &mut WalkFacts, out: &mut Vec<Leaf>) {
    match shape {
        Shape::Int { size } => out.push(Leaf::Int {
            offset: base,
            size: *size,
        }),
        Shape::Float(format) => out.push(Leaf::Float {
            offset: base,
            format: *format,
        }),
        Shape::Array {
            elem,
            elem_size,
            len: Some(n),
        } => {
            // Bounded: classification only looks at small aggregates.
            for i in 0..(*n).min(64) {
                walk(elem, base + i * elem_size, facts, out);
            }
        }
        // Flexible array members occupy nothing.
        Shape::Array { len: None, .. } => {}
        Shape::Record { is_union, members } => {
            facts.has_union |= is_union;
            for m in members {
                let off = base + m.offset;
                match m.bit_field {
                    Some(BitField { width: 0, .. }) => {}
                    Some(BitField { width, bit_offset }) => out.push(Leaf::BitField {
                        offset: off,
                        bytes: (bit_offset as u64 + width as u64).div_ceil(8),
                    }),
                    None => {
                        if !off.is_multiple_of(m.align) {
                            facts.unaligned = true;
                        }
                        walk(&m.shape, off, facts, out)
                    }
                }
            }
        }
        Shape::Other => out.push(Leaf::Other { offset: base }),
    }
}

/// The scalar leaves of `agg` in member order, and what the walk met.
fn leaves(agg: &Aggregate) -> (Vec<Leaf>, WalkFacts) {
    let mut facts = WalkFacts::default();
    let mut out = Vec::new();
    walk(&agg.shape, 0, &mut facts, &mut out);
    (out, facts)
}

#[cfg(test)]
mod tests;
