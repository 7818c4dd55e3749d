//! Struct and union arguments and returns: lowering describes the C type's
//! layout as a target-neutral [`crate::abi::Aggregate`] and asks
//! [`crate::abi::classify`] for the target's classification (SysV eightbyte
//! classes, AAPCS64 HFA, LP64D flattening; docs/abi.md, "By-value
//! arguments"), which it records in the IR.

use super::repr::Types;
use crate::abi::{self, Aggregate, BitField, FloatFormat, Member, Shape, StructAbi};
use crate::frontend::types::{Arith, ArrayLen, CType, FloatKind};
use crate::target::Target;

impl Types<'_> {
    /// Classifies the aggregate type `t` for `self.target`.
    pub fn struct_abi(&self, t: &CType) -> StructAbi {
        let mut abi = abi::classify(self.target, &self.aggregate(t));
        if self.target == Target::X86_64 && matches!(t, CType::Complex(Arith::Float(FloatKind::LongDouble))) {
            // psABI 3.2.3 COMPLEX_X87: memory as an argument, `st(0)` (real)
            // and `st(1)` (imaginary) as a return value; a struct of two
            // `long double`s is plain MEMORY, hence the special case.
            use crate::ir::types::EightbyteClass::{Memory, NoClass};
            abi.classes = vec![Memory, NoClass, Memory, NoClass];
        }
        abi
    }

    /// The layout of the aggregate type `t`.
    pub fn aggregate(&self, t: &CType) -> Aggregate {
        Aggregate {
            size: self.size_of(t).unwrap_or(0),
            align: self.align_of(t),
            shape: self.shape(t),
        }
    }

    fn shape(&self, t: &CType) -> Shape {
        match t {
            CType::Int(_) | CType::Enum(_) | CType::Pointer(_) => Shape::Int {
                size: self.size_of(t).unwrap_or(8),
            },
            CType::Float(k) => Shape::Float(match k {
                FloatKind::Float => FloatFormat::F32,
                FloatKind::Double => FloatFormat::F64,
                FloatKind::LongDouble => FloatFormat::LongDouble,
                FloatKind::Float128 => FloatFormat::Float128,
            }),
            // `_Complex T` is laid out, and classified, as `T[2]`.
            CType::Complex(a) => {
                let part = match a {
                    Arith::Int(k) => CType::Int(*k),
                    Arith::Float(k) => CType::Float(*k),
                };
                Shape::Array {
                    elem: Box::new(self.shape(&part)),
                    elem_size: a.size(),
                    len: Some(2),
                }
            }
            CType::Array { elem, len } => Shape::Array {
                elem: Box::new(self.shape(&elem.ty)),
                elem_size: self.size_of(&elem.ty).unwrap_or(0),
                len: match len {
                    ArrayLen::Fixed(n) => Some(*n),
                    _ => None,
                },
            },
            // A GNU vector is classified as the array of its elements (not
            // gcc's vector classes: docs/abi.md, "GNU vectors").
            CType::Vector { elem, len } => {
                let elem = match elem {
                    Arith::Int(k) => CType::Int(*k),
                    Arith::Float(k) => CType::Float(*k),
                };
                Shape::Array {
                    elem_size: self.size_of(&elem).unwrap_or(0),
                    elem: Box::new(self.shape(&elem)),
                    len: Some(*len),
                }
            }
            CType::Record(id) => {
                let Some(rec) = self.cx.records.get(id.0 as usize) else {
                    return Shape::Other;
                };
                let Some(layout) = rec.layout.as_ref() else {
                    return Shape::Other;
                };
                Shape::Record {
                    is_union: rec.is_union,
                    members: rec
                        .members
                        .iter()
                        .zip(&layout.fields)
                        .map(|(m, place)| Member {
                            offset: place.offset,
                            align: self.align_of(&m.ty.ty),
                            bit_field: m.bit_width.map(|width| BitField {
                                width,
                                bit_offset: place.bit_offset,
                            }),
                            shape: self.shape(&m.ty.ty),
                        })
                        .collect(),
                }
            }
            _ => Shape::Other,
        }
    }
}
