//! Per-target classification of struct and union arguments and returns
//! (docs/abi.md, "By-value arguments"), computed from the C types:
//!
//! * x86-64, System V AMD64 psABI 1.0 section 3.2.3: every eightbyte gets the
//!   merge of the classes of the fields that overlap it (INTEGER for integer
//!   and pointer types, SSE for `float`/`double`); an aggregate larger than
//!   two eightbytes, one with a field at an offset that is not a multiple of
//!   its alignment, or one containing `long double` (X87) is MEMORY in every
//!   eightbyte, except a lone `long double` (X87, X87UP), which is
//!   `[mem, none]`: memory as an argument, `st(0)` as a return value.
//! * AArch64, AAPCS64 5.9.5: a homogeneous floating-point aggregate is made
//!   of one to four members of one floating type (unions: every member an
//!   HFA of that type, the count is the largest), with no other data and no
//!   padding.
//! * RISC-V, ELF psABI "Hardware floating-point calling convention" (LP64D):
//!   after flattening nested structs and arrays, a struct of exactly one
//!   `float`/`double`, of two of them, or of one of them and one integer of at
//!   most XLEN bits, travels in floating-point (and integer) registers.
//!   Unions and structs with non-zero-width bit-fields are never flattened.
//!
//! The C-level walk over the leaves of an aggregate is shared by the three.

use super::repr::Types;
use crate::frontend::types::{ArrayLen, CType, FloatKind};
use crate::ir::types::{EightbyteClass, Hfa, IrType, RiscvFloatClass};
use crate::target::Target;

/// The classification of one struct or union for the target being compiled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StructAbi {
    pub size: u64,
    pub align: u64,
    /// x86-64 only.
    pub classes: Vec<EightbyteClass>,
    /// AArch64 only.
    pub hfa: Option<Hfa>,
    /// RISC-V only.
    pub riscv: Option<RiscvFloatClass>,
}

/// A leaf of an aggregate: a scalar member at a byte offset.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Leaf {
    Int {
        offset: u64,
        size: u64,
    },
    Float {
        offset: u64,
        kind: FloatKind,
    },
    /// A non-zero-width bit-field occupying `bytes` bytes from `offset`.
    BitField {
        offset: u64,
        bytes: u64,
    },
    /// Something none of the three conventions flattens (complex numbers,
    /// `va_list`, incomplete members).
    Other {
        offset: u64,
    },
}

/// Whether the aggregate's walk met a union or a member at an offset that
/// is not a multiple of its alignment.
#[derive(Default)]
struct WalkFacts {
    has_union: bool,
    unaligned: bool,
}

impl Types<'_> {
    /// Classifies the aggregate type `t` for `self.target`.
    pub fn struct_abi(&self, t: &CType) -> StructAbi {
        let size = self.size_of(t).unwrap_or(0);
        let align = self.align_of(t);
        let mut abi = StructAbi {
            size,
            align,
            ..StructAbi::default()
        };
        match self.target {
            Target::X86_64 => abi.classes = self.sysv_classes(t, size),
            Target::Aarch64 => abi.hfa = self.hfa(t, size),
            Target::Riscv64 => abi.riscv = self.riscv_class(t, size),
        }
        abi
    }

    fn walk(&self, t: &CType, base: u64, facts: &mut WalkFacts, out: &mut Vec<Leaf>) {
        match t {
            CType::Int(_) | CType::Enum(_) | CType::Pointer(_) => out.push(Leaf::Int {
                offset: base,
                size: self.size_of(t).unwrap_or(8),
            }),
            CType::Float(k) => out.push(Leaf::Float { offset: base, kind: *k }),
            CType::Array {
                elem,
                len: ArrayLen::Fixed(n),
            } => {
                let es = self.size_of(&elem.ty).unwrap_or(0);
                // Bounded: classification only looks at small aggregates.
                for i in 0..(*n).min(64) {
                    self.walk(&elem.ty, base + i * es, facts, out);
                }
            }
            // Flexible array members and zero-length arrays occupy nothing.
            CType::Array { .. } => {}
            CType::Record(id) => {
                let Some(rec) = self.cx.records.get(id.0 as usize) else {
                    out.push(Leaf::Other { offset: base });
                    return;
                };
                let Some(layout) = rec.layout.as_ref() else {
                    out.push(Leaf::Other { offset: base });
                    return;
                };
                facts.has_union |= rec.is_union;
                for (m, place) in rec.members.iter().zip(&layout.fields) {
                    let off = base + place.offset;
                    match m.bit_width {
                        Some(0) => {}
                        Some(w) => {
                            let bits = place.bit_offset as u64 + w as u64;
                            out.push(Leaf::BitField {
                                offset: off,
                                bytes: bits.div_ceil(8),
                            })
                        }
                        None => {
                            let a = self.align_of(&m.ty.ty);
                            if !off.is_multiple_of(a) {
                                facts.unaligned = true;
                            }
                            self.walk(&m.ty.ty, off, facts, out)
                        }
                    }
                }
            }
            _ => out.push(Leaf::Other { offset: base }),
        }
    }

    fn leaves(&self, t: &CType) -> (Vec<Leaf>, WalkFacts) {
        let mut facts = WalkFacts::default();
        let mut out = Vec::new();
        self.walk(t, 0, &mut facts, &mut out);
        (out, facts)
    }

    /// SysV eightbyte classes: one per eightbyte of `size`.
    fn sysv_classes(&self, t: &CType, size: u64) -> Vec<EightbyteClass> {
        use EightbyteClass::*;
        let n = size.div_ceil(8) as usize;
        let memory = vec![Memory; n];
        if size > 16 {
            return memory;
        }
        let (leaves, facts) = self.leaves(t);
        if facts.unaligned {
            return memory;
        }
        // A single `long double` (X87, X87UP; several union members at offset
        // 0 count as one): `[mem, none]`, returned in st(0) (docs/abi.md).
        let lone_long_double = |l: &Leaf| {
            matches!(
                l,
                Leaf::Float {
                    kind: FloatKind::LongDouble,
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
                    kind: kind @ (FloatKind::Float | FloatKind::Double),
                    offset,
                } => merge(offset, kind.size(), Sse),
                // X87 and X87UP (long double), or anything unclassifiable.
                Leaf::Float { .. } | Leaf::Other { .. } => return memory,
            }
        }
        if classes.contains(&Memory) {
            return memory;
        }
        classes
    }

    /// The AAPCS64 HFA of the aggregate, if it is one.
    fn hfa(&self, t: &CType, size: u64) -> Option<Hfa> {
        let (base, count) = self.hfa_candidate(t)?;
        let base_ty = match base {
            FloatKind::Float => IrType::F32,
            FloatKind::Double => IrType::F64,
            FloatKind::LongDouble | FloatKind::Float128 => IrType::F128,
        };
        if count == 0 || count > 4 || size != count * base.size() {
            return None;
        }
        Some(Hfa {
            base: base_ty,
            count: count as u8,
        })
    }

    /// (base type, member count) when every member is one floating type.
    fn hfa_candidate(&self, t: &CType) -> Option<(FloatKind, u64)> {
        match t {
            CType::Float(k) => Some((canonical_float(*k), 1)),
            CType::Array {
                elem,
                len: ArrayLen::Fixed(n),
            } => {
                let (k, c) = self.hfa_candidate(&elem.ty)?;
                Some((k, c.checked_mul(*n)?))
            }
            CType::Record(id) => {
                let rec = self.cx.records.get(id.0 as usize)?;
                rec.layout.as_ref()?;
                let mut base: Option<FloatKind> = None;
                let mut count = 0u64;
                for m in &rec.members {
                    if m.bit_width.is_some() {
                        return None;
                    }
                    let (k, c) = self.hfa_candidate(&m.ty.ty)?;
                    if base.is_some_and(|b| b != k) {
                        return None;
                    }
                    base = Some(k);
                    count = if rec.is_union { count.max(c) } else { count + c };
                    if count > 4 {
                        return None;
                    }
                }
                Some((base?, count))
            }
            _ => None,
        }
    }

    /// The RISC-V LP64D flattening of a struct, if it qualifies.
    fn riscv_class(&self, t: &CType, size: u64) -> Option<RiscvFloatClass> {
        if size > 16 {
            return None;
        }
        let (leaves, facts) = self.leaves(t);
        if facts.has_union {
            return None;
        }
        // (is_float, is_double / int size, offset)
        let mut fields: Vec<(bool, u64, u64)> = Vec::new();
        for leaf in leaves {
            match leaf {
                Leaf::Float {
                    kind: FloatKind::Float,
                    offset,
                } => fields.push((true, 4, offset)),
                Leaf::Float {
                    kind: FloatKind::Double,
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
}

/// `_Float128` and `long double` are the same 128-bit type for HFA purposes
/// on AArch64.
fn canonical_float(k: FloatKind) -> FloatKind {
    match k {
        FloatKind::Float128 => FloatKind::LongDouble,
        k => k,
    }
}
