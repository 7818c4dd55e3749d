//! How C types are represented in the IR (docs/abi.md, "Scalars" and
//! "Aggregates"): every scalar C type maps to one `IrType`; records, arrays
//! and (on x86-64 and AArch64) `va_list` are *aggregates* that live in memory
//! and travel as addresses; `void` has no value.
//!
//! `_Bool` is `u8`, plain `char` is `i8` on x86-64 and `u8` elsewhere, enums
//! take their underlying integer type, every pointer is `ptr`, `long double`
//! (and `_Float128`) is `f128`. `_Complex` types are aggregates of two
//! parts (see `complex.rs`); GNU vectors are aggregates too (sema spells
//! their operations element by element).

use crate::frontend::hir::Program;
use crate::frontend::types::{CType, FloatKind, IntKind, QualType, TypeContext};
use crate::ir::types::IrType;
use crate::target::Target;

/// The IR shape of a C type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    /// A value of one IR type (integers, floats, pointers, RISC-V `va_list`).
    Scalar(IrType),
    /// Bytes in memory, handled through their address (records, arrays,
    /// `va_list` on x86-64 and AArch64).
    Aggregate {
        size: u64,
        align: u64,
    },
    Void,
}

/// Why a type has no IR representation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReprError {
    Incomplete,
    Function,
    VariableSize,
}

impl ReprError {
    pub fn message(&self) -> &'static str {
        match self {
            ReprError::Incomplete => "use of an object of incomplete type",
            ReprError::Function => "a function type is not an object type",
            ReprError::VariableSize => "a value of a struct with variable-size members is not supported",
        }
    }
}

/// The IR type of an integer kind on `target`.
pub fn int_ir_type(k: IntKind, target: Target) -> IrType {
    use IntKind::*;
    match k {
        Bool | UChar => IrType::U8,
        Char => {
            if target.char_is_signed() {
                IrType::I8
            } else {
                IrType::U8
            }
        }
        SChar => IrType::I8,
        Short => IrType::I16,
        UShort => IrType::U16,
        Int => IrType::I32,
        UInt => IrType::U32,
        Long | LongLong => IrType::I64,
        ULong | ULongLong => IrType::U64,
        Int128 => IrType::I128,
        UInt128 => IrType::U128,
    }
}

pub fn float_ir_type(k: FloatKind) -> IrType {
    match k {
        FloatKind::Float => IrType::F32,
        FloatKind::Double => IrType::F64,
        FloatKind::LongDouble | FloatKind::Float128 => IrType::F128,
    }
}

/// Type queries lowering needs, answered from the program's [`TypeContext`].
pub struct Types<'p> {
    pub cx: &'p TypeContext,
    pub target: Target,
}

impl<'p> Types<'p> {
    pub fn new(program: &'p Program) -> Types<'p> {
        Types {
            cx: &program.types,
            target: program.target,
        }
    }

    /// The IR representation of `t`.
    pub fn repr(&self, t: &CType) -> Result<Repr, ReprError> {
        Ok(match t {
            CType::Void => Repr::Void,
            CType::Int(k) => Repr::Scalar(int_ir_type(*k, self.target)),
            CType::Enum(id) => {
                let k = self.cx.enums.get(id.0 as usize).map_or(IntKind::UInt, |e| e.underlying);
                Repr::Scalar(int_ir_type(k, self.target))
            }
            CType::Float(k) => Repr::Scalar(float_ir_type(*k)),
            CType::Pointer(_) => Repr::Scalar(IrType::Ptr),
            CType::Function { .. } => return Err(ReprError::Function),
            CType::VaList if self.target.va_list().is_pointer() => Repr::Scalar(IrType::Ptr),
            CType::Record(id) if self.cx.records.get(id.0 as usize).is_some_and(|r| r.variable) => {
                return Err(ReprError::VariableSize)
            }
            CType::Array { .. } | CType::Record(_) | CType::VaList | CType::Complex(_) | CType::Vector { .. } => {
                Repr::Aggregate {
                    size: self.size_of(t).unwrap_or(0),
                    align: self.align_of(t),
                }
            }
        })
    }

    /// The IR type of a scalar type (`None` for aggregates and `void`).
    pub fn scalar(&self, t: &CType) -> Option<IrType> {
        match self.repr(t) {
            Ok(Repr::Scalar(ty)) => Some(ty),
            _ => None,
        }
    }

    /// `sizeof`, or `None` for incomplete types and VLAs.
    pub fn size_of(&self, t: &CType) -> Option<u64> {
        self.cx.size_of(t).ok()
    }

    /// `_Alignof` (1 when unknown).
    pub fn align_of(&self, t: &CType) -> u64 {
        self.cx.align_of(t).unwrap_or(1).max(1)
    }

    pub fn is_signed(&self, t: &CType) -> bool {
        match t {
            CType::Int(k) => k.is_signed(self.target),
            CType::Enum(id) => self
                .cx
                .enums
                .get(id.0 as usize)
                .is_some_and(|e| e.underlying.is_signed(self.target)),
            _ => false,
        }
    }

    /// The element type an IR address of type `t *` points to, for `gep`:
    /// the pointee's scalar type, else `i8`.
    pub fn pointee_ir_type(&self, ptr: &CType) -> IrType {
        match ptr {
            CType::Pointer(q) => self.scalar(&q.ty).unwrap_or(IrType::I8),
            _ => IrType::I8,
        }
    }

    /// Whether the object type contains anything `volatile` at its top level
    /// or in its array elements (the alloca of such a local is volatile).
    pub fn is_volatile_object(&self, q: &QualType) -> bool {
        if q.quals.is_volatile {
            return true;
        }
        match &*q.ty {
            CType::Array { elem, .. } => self.is_volatile_object(elem),
            CType::Record(id) => self
                .cx
                .records
                .get(id.0 as usize)
                .is_some_and(|r| r.members.iter().any(|m| self.is_volatile_object(&m.ty))),
            _ => false,
        }
    }

    /// Whether objects of the type have a run-time size (VLAs, records with
    /// variably modified members): their storage is a `DynAlloca`.
    pub fn is_vla(&self, t: &CType) -> bool {
        self.cx.is_runtime_sized(t)
    }
}
