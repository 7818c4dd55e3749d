//! C types (C11 6.2.5) for the three LP64 targets: integer and floating
//! kinds with size, alignment, signedness and conversion rank, integer
//! promotions and the usual arithmetic conversions (6.3.1.1, 6.3.1.8), and
//! the derived types (pointers, arrays, functions, records, enums) with their
//! size and alignment through a [`TypeContext`] that owns struct/union/enum
//! definitions. Record layout itself is in `layout.rs`.
//!
//! `long double` is 16 bytes aligned to 16 on every target (x87 extended on
//! x86-64, IEEE binary128 elsewhere; constants are exact, `crate::binary128`).

use super::layout::{layout_record, FieldSpec, LayoutError, RecordAttrs, RecordLayout};
use crate::target::Target;
use std::sync::Arc;

/// Integer types (6.2.5p4-p7) in rank order within each signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
}

impl IntKind {
    pub fn size(self) -> u64 {
        use IntKind::*;
        match self {
            Bool | Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 4,
            Long | ULong | LongLong | ULongLong => 8,
            Int128 | UInt128 => 16,
        }
    }

    pub fn align(self) -> u64 {
        self.size()
    }

    /// Signedness; plain `char` depends on the target.
    pub fn is_signed(self, target: Target) -> bool {
        use IntKind::*;
        match self {
            Char => target.char_is_signed(),
            SChar | Short | Int | Long | LongLong | Int128 => true,
            Bool | UChar | UShort | UInt | ULong | ULongLong | UInt128 => false,
        }
    }

    /// Conversion rank (6.3.1.1p1).
    pub fn rank(self) -> u32 {
        use IntKind::*;
        match self {
            Bool => 0,
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
            Int128 | UInt128 => 6,
        }
    }

    /// The unsigned type of the same rank.
    pub fn to_unsigned(self) -> IntKind {
        use IntKind::*;
        match self {
            Char | SChar => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            LongLong => ULongLong,
            Int128 => UInt128,
            k => k,
        }
    }

    /// Integer promotion (6.3.1.1p2): types of rank below `int` become `int`
    /// (all their values fit in `int` on our targets).
    pub fn promote(self) -> IntKind {
        if self.rank() < IntKind::Int.rank() {
            IntKind::Int
        } else {
            self
        }
    }
}

/// Real floating types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    Float,
    Double,
    LongDouble,
    Float128,
}

impl FloatKind {
    pub fn size(self) -> u64 {
        match self {
            FloatKind::Float => 4,
            FloatKind::Double => 8,
            FloatKind::LongDouble | FloatKind::Float128 => 16,
        }
    }

    pub fn align(self) -> u64 {
        self.size()
    }

    fn rank(self) -> u32 {
        match self {
            FloatKind::Float => 0,
            FloatKind::Double => 1,
            FloatKind::LongDouble => 2,
            FloatKind::Float128 => 3,
        }
    }
}

/// An arithmetic type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arith {
    Int(IntKind),
    Float(FloatKind),
}

impl Arith {
    pub fn size(self) -> u64 {
        match self {
            Arith::Int(k) => k.size(),
            Arith::Float(k) => k.size(),
        }
    }

    pub fn align(self) -> u64 {
        match self {
            Arith::Int(k) => k.align(),
            Arith::Float(k) => k.align(),
        }
    }
}

/// The alignment of a GNU vector type of `size` bytes, gcc's: its size on
/// x86-64 and RISC-V 64, at most 16 on AArch64 (`aarch64_vector_alignment`).
/// (gcc's C11 `_Alignof` caps it at 16 everywhere, `__alignof__` does not;
/// phicc answers both with this alignment.)
pub fn vector_align(size: u64, target: Target) -> u64 {
    match target {
        Target::X86_64 | Target::Riscv64 => size.max(1),
        Target::Aarch64 => size.clamp(1, 16),
    }
}

/// The usual arithmetic conversions (6.3.1.8): the common type of two operands.
pub fn usual_arithmetic_conversion(a: Arith, b: Arith, target: Target) -> Arith {
    match (a, b) {
        (Arith::Float(x), Arith::Float(y)) => Arith::Float(if x.rank() >= y.rank() { x } else { y }),
        (Arith::Float(x), _) | (_, Arith::Float(x)) => Arith::Float(x),
        (Arith::Int(x), Arith::Int(y)) => {
            let (x, y) = (x.promote(), y.promote());
            if x == y {
                return Arith::Int(x);
            }
            let (sx, sy) = (x.is_signed(target), y.is_signed(target));
            if sx == sy {
                return Arith::Int(if x.rank() >= y.rank() { x } else { y });
            }
            let (s, u) = if sx { (x, y) } else { (y, x) };
            if u.rank() >= s.rank() {
                Arith::Int(u)
            } else if s.size() > u.size() {
                // The signed type can represent every value of the unsigned one.
                Arith::Int(s)
            } else {
                Arith::Int(s.to_unsigned())
            }
        }
    }
}

/// Type qualifiers (6.7.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Qualifiers {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
    pub is_atomic: bool,
}

/// A type with its qualifiers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QualType {
    pub ty: Arc<CType>,
    pub quals: Qualifiers,
}

impl QualType {
    pub fn new(ty: CType) -> QualType {
        QualType {
            ty: Arc::new(ty),
            quals: Qualifiers::default(),
        }
    }

    pub fn with_quals(mut self, quals: Qualifiers) -> QualType {
        self.quals = quals;
        self
    }
}

/// Index of a struct/union definition in a [`TypeContext`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordId(pub u32);

/// Index of an enum definition in a [`TypeContext`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub u32);

/// The length of an array type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayLen {
    Fixed(u64),
    /// `[]`: incomplete (or a flexible array member).
    Unknown,
    /// A VLA: the length is a run-time value.
    Variable,
}

/// C types (6.2.5). Records and enums are referred to by id so that
/// self-referential structs need no cycles.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    Void,
    Int(IntKind),
    Float(FloatKind),
    /// `_Complex T` (C11 6.2.5p11) and GNU `_Complex` integer types: two
    /// `T` parts, real then imaginary.
    Complex(Arith),
    Pointer(QualType),
    Array {
        elem: QualType,
        len: ArrayLen,
    },
    Function {
        ret: QualType,
        params: Vec<QualType>,
        variadic: bool,
        prototyped: bool,
    },
    Record(RecordId),
    Enum(EnumId),
    /// `__builtin_va_list` (its shape is the target's, see [`va_list_size_align`]).
    VaList,
    /// A GNU vector (`__attribute__((vector_size(N)))`, gcc manual "Using
    /// Vector Instructions through Built-in Functions"): `len` elements (a
    /// power of two) of an integer or real floating type, `len * size`
    /// bytes aligned by [`vector_align`]. Enum elements are their
    /// underlying integer type.
    Vector {
        elem: Arith,
        len: u64,
    },
}

impl CType {
    pub fn is_integer(&self) -> bool {
        matches!(self, CType::Int(_) | CType::Enum(_))
    }

    pub fn is_arithmetic(&self) -> bool {
        matches!(
            self,
            CType::Int(_) | CType::Enum(_) | CType::Float(_) | CType::Complex(_)
        )
    }

    pub fn is_scalar(&self) -> bool {
        self.is_arithmetic() || matches!(self, CType::Pointer(_))
    }
}

/// Size and alignment of `__builtin_va_list` (the target's [`crate::target::VaListKind`]).
pub fn va_list_size_align(target: Target) -> (u64, u64) {
    target.va_list().size_align()
}

/// One member of a struct or union.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// `None` for unnamed bit-fields and anonymous struct/union members.
    pub name: Option<Arc<str>>,
    pub ty: QualType,
    pub bit_width: Option<u32>,
    /// `__attribute__((packed))` / `aligned(n)` on the member.
    pub packed: bool,
    pub aligned: Option<u64>,
    /// The alignment of the member's type when an `aligned` typedef set it
    /// (it may be lower than the natural one: gcc's typedef variant types).
    pub type_align: Option<u64>,
}

/// A struct or union: incomplete until [`TypeContext::complete_record`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordDef {
    pub tag: Option<Arc<str>>,
    pub is_union: bool,
    pub members: Vec<Member>,
    pub layout: Option<RecordLayout>,
    /// A member's size is known only at run time (GNU variably modified
    /// members, declared in a function): `layout` places only the members
    /// up to the first such one (it counts as size 0) and gives the
    /// alignment; [`TypeContext::size_of`] fails, sema computes the rest
    /// when the definition is reached.
    pub variable: bool,
}

/// An enum; its underlying type is `unsigned int` when no enumerator is
/// negative and all fit, else `int`, widened to a 64-bit type when a value
/// needs it (gcc's choice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumDef {
    pub tag: Option<Arc<str>>,
    pub underlying: IntKind,
    pub complete: bool,
}

/// Errors from size and layout queries (the caller attaches a span).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeError {
    Incomplete,
    Layout(LayoutError),
    TooLarge,
}

/// Owns the record and enum definitions of a translation unit and answers
/// size and alignment queries for the target.
#[derive(Clone, Debug)]
pub struct TypeContext {
    pub target: Target,
    pub records: Vec<RecordDef>,
    pub enums: Vec<EnumDef>,
}

impl TypeContext {
    pub fn new(target: Target) -> TypeContext {
        TypeContext {
            target,
            records: Vec::new(),
            enums: Vec::new(),
        }
    }

    /// Declares a new (incomplete) struct or union.
    pub fn new_record(&mut self, tag: Option<Arc<str>>, is_union: bool) -> RecordId {
        self.records.push(RecordDef {
            tag,
            is_union,
            members: Vec::new(),
            layout: None,
            variable: false,
        });
        RecordId(self.records.len() as u32 - 1)
    }

    pub fn new_enum(&mut self, tag: Option<Arc<str>>) -> EnumId {
        self.enums.push(EnumDef {
            tag,
            underlying: IntKind::UInt,
            complete: false,
        });
        EnumId(self.enums.len() as u32 - 1)
    }

    /// Completes an enum given its enumerator values.
    pub fn complete_enum(&mut self, id: EnumId, values: &[i128]) {
        let min = values.iter().copied().min().unwrap_or(0);
        let max = values.iter().copied().max().unwrap_or(0);
        let underlying = if min >= 0 {
            if max <= u32::MAX as i128 {
                IntKind::UInt
            } else {
                IntKind::ULong
            }
        } else if min >= i32::MIN as i128 && max <= i32::MAX as i128 {
            IntKind::Int
        } else {
            IntKind::Long
        };
        if let Some(e) = self.enums.get_mut(id.0 as usize) {
            e.underlying = underlying;
            e.complete = true;
        }
    }

    /// Gives a record its members and computes its layout.
    pub fn complete_record(&mut self, id: RecordId, members: Vec<Member>, attrs: RecordAttrs) -> Result<(), TypeError> {
        let mut specs = Vec::with_capacity(members.len());
        let last = members.len().saturating_sub(1);
        for (i, m) in members.iter().enumerate() {
            // A flexible array member (last, `[]`) has size 0 and its element's alignment.
            let (size, align) = match &*m.ty.ty {
                CType::Array {
                    elem,
                    len: ArrayLen::Unknown,
                } if i == last && !attrs.is_union => (0, self.align_of(&elem.ty)?),
                // Placed by sema at run time (see `RecordDef::variable`).
                t if self.is_runtime_sized(t) => (0, m.type_align.map_or_else(|| self.align_of(t), Ok)?),
                t => (self.size_of(t)?, m.type_align.map_or_else(|| self.align_of(t), Ok)?),
            };
            specs.push(FieldSpec {
                size,
                align,
                bit_width: m.bit_width,
                named: m.name.is_some() || m.bit_width.is_none(),
                packed: m.packed,
                aligned: m.aligned,
            });
        }
        let layout = layout_record(
            &specs,
            RecordAttrs {
                is_union: attrs.is_union,
                unnamed_bitfields_align: self.target.info().unnamed_bitfields_align,
                ..attrs
            },
        )
        .map_err(TypeError::Layout)?;
        let variable = members.iter().any(|m| self.is_runtime_sized(&m.ty.ty));
        let r = self.records.get_mut(id.0 as usize).ok_or(TypeError::Incomplete)?;
        r.variable = variable;
        r.members = members;
        r.layout = Some(layout);
        Ok(())
    }

    /// Whether objects of type `t` have a size known only at run time: a
    /// VLA, or a record with such a member.
    pub fn is_runtime_sized(&self, t: &CType) -> bool {
        match t {
            CType::Array {
                len: ArrayLen::Variable,
                ..
            } => true,
            CType::Array { elem, .. } => self.is_runtime_sized(&elem.ty),
            CType::Record(id) => self.records.get(id.0 as usize).is_some_and(|r| r.variable),
            _ => false,
        }
    }

    /// `sizeof` (6.5.3.4) of a complete object type.
    pub fn size_of(&self, t: &CType) -> Result<u64, TypeError> {
        Ok(match t {
            CType::Void | CType::Function { .. } => return Err(TypeError::Incomplete),
            CType::Int(k) => k.size(),
            CType::Float(k) => k.size(),
            CType::Complex(k) => 2 * k.size(),
            CType::Pointer(_) => 8,
            CType::Array {
                elem,
                len: ArrayLen::Fixed(n),
            } => self.size_of(&elem.ty)?.checked_mul(*n).ok_or(TypeError::TooLarge)?,
            CType::Array { .. } => return Err(TypeError::Incomplete),
            CType::Record(id) => {
                self.records
                    .get(id.0 as usize)
                    .filter(|r| !r.variable)
                    .and_then(|r| r.layout.as_ref())
                    .ok_or(TypeError::Incomplete)?
                    .size
            }
            CType::Enum(id) => self
                .enums
                .get(id.0 as usize)
                .ok_or(TypeError::Incomplete)?
                .underlying
                .size(),
            CType::VaList => va_list_size_align(self.target).0,
            CType::Vector { elem, len } => elem.size() * len,
        })
    }

    /// `_Alignof` (6.5.3.4) of a complete object type.
    pub fn align_of(&self, t: &CType) -> Result<u64, TypeError> {
        Ok(match t {
            CType::Void | CType::Function { .. } => return Err(TypeError::Incomplete),
            CType::Int(k) => k.align(),
            CType::Float(k) => k.align(),
            CType::Complex(a) => a.align(),
            CType::Pointer(_) => 8,
            CType::Array { elem, .. } => self.align_of(&elem.ty)?,
            CType::Record(id) => {
                self.records
                    .get(id.0 as usize)
                    .and_then(|r| r.layout.as_ref())
                    .ok_or(TypeError::Incomplete)?
                    .align
            }
            CType::Enum(id) => self
                .enums
                .get(id.0 as usize)
                .ok_or(TypeError::Incomplete)?
                .underlying
                .align(),
            CType::VaList => va_list_size_align(self.target).1,
            CType::Vector { elem, len } => vector_align(elem.size() * len, self.target),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(t: CType) -> QualType {
        QualType::new(t)
    }

    fn member(name: &str, t: CType) -> Member {
        Member {
            name: Some(Arc::from(name)),
            ty: q(t),
            bit_width: None,
            packed: false,
            aligned: None,
            type_align: None,
        }
    }

    #[test]
    fn sizes_of_derived_types() {
        let mut cx = TypeContext::new(Target::X86_64);
        let int = CType::Int(IntKind::Int);
        assert_eq!(
            cx.size_of(&CType::Array {
                elem: q(int.clone()),
                len: ArrayLen::Fixed(10)
            }),
            Ok(40)
        );
        assert_eq!(cx.size_of(&CType::Pointer(q(CType::Void))), Ok(8));
        assert_eq!(cx.size_of(&CType::Void), Err(TypeError::Incomplete));
        assert_eq!(cx.size_of(&CType::Complex(Arith::Float(FloatKind::Double))), Ok(16));
        assert_eq!(cx.size_of(&CType::Float(FloatKind::LongDouble)), Ok(16));
        // struct node { int v; struct node *next; char tail[]; }
        let id = cx.new_record(Some(Arc::from("node")), false);
        assert_eq!(cx.size_of(&CType::Record(id)), Err(TypeError::Incomplete));
        let members = vec![
            member("v", int.clone()),
            member("next", CType::Pointer(q(CType::Record(id)))),
            member(
                "tail",
                CType::Array {
                    elem: q(CType::Int(IntKind::Char)),
                    len: ArrayLen::Unknown,
                },
            ),
        ];
        cx.complete_record(id, members, RecordAttrs::default()).unwrap();
        assert_eq!(cx.size_of(&CType::Record(id)), Ok(16));
        assert_eq!(cx.records[id.0 as usize].layout.as_ref().unwrap().fields[2].offset, 16);
        let e = cx.new_enum(None);
        cx.complete_enum(e, &[0, 5]);
        assert_eq!(cx.enums[e.0 as usize].underlying, IntKind::UInt);
        cx.complete_enum(e, &[-1, 5]);
        assert_eq!(cx.enums[e.0 as usize].underlying, IntKind::Int);
        cx.complete_enum(e, &[0, 1 << 40]);
        assert_eq!(cx.size_of(&CType::Enum(e)), Ok(8));
        let huge = CType::Array {
            elem: q(int),
            len: ArrayLen::Fixed(u64::MAX),
        };
        assert_eq!(cx.size_of(&huge), Err(TypeError::TooLarge));
        for t in Target::ALL {
            let cx = TypeContext::new(t);
            assert!(cx.size_of(&CType::VaList).unwrap() >= 8);
        }
    }

    #[test]
    fn arithmetic_conversions_6_3_1_8() {
        use Arith::{Float as F, Int as I};
        use IntKind::*;
        let t = Target::X86_64;
        assert_eq!(usual_arithmetic_conversion(I(Char), I(Short), t), I(Int));
        assert_eq!(usual_arithmetic_conversion(I(Int), I(UInt), t), I(UInt));
        assert_eq!(usual_arithmetic_conversion(I(Long), I(UInt), t), I(Long));
        // Same size, the signed one has the higher rank: its unsigned counterpart (6.3.1.8p1).
        assert_eq!(usual_arithmetic_conversion(I(LongLong), I(ULong), t), I(ULongLong));
        assert_eq!(usual_arithmetic_conversion(I(Long), I(ULongLong), t), I(ULongLong));
        assert_eq!(usual_arithmetic_conversion(I(Int128), I(ULong), t), I(Int128));
        assert_eq!(usual_arithmetic_conversion(I(Bool), I(UShort), t), I(Int));
        assert_eq!(
            usual_arithmetic_conversion(F(FloatKind::Float), I(ULongLong), t),
            F(FloatKind::Float)
        );
        assert_eq!(
            usual_arithmetic_conversion(F(FloatKind::Double), F(FloatKind::LongDouble), t),
            F(FloatKind::LongDouble)
        );
        assert!(IntKind::Char.is_signed(Target::X86_64));
        assert!(!IntKind::Char.is_signed(Target::Aarch64));
        assert_eq!(IntKind::UChar.promote(), IntKind::Int);
    }
}
