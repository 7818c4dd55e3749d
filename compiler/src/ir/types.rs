//! Target-independent scalar types of the IR (`IrType`), x86 address spaces and
//! the ABI classification metadata carried on functions, parameters and calls.
//!
//! Pointers are opaque: the `IrType` on a load or store says how wide the access
//! is; a pointer carries no pointee type. All targets are LP64, so `Ptr` is 8 bytes.

use std::fmt;

/// A scalar IR type. Signed and unsigned integers are distinct types because
/// casts, divisions, comparisons and shifts read the signedness from the type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IrType {
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
    F32,
    F64,
    /// `long double`: binary128 on AArch64/RISC-V, x87 80-bit on x86-64.
    /// Constants are exact; the interpreter computes through `f64`
    /// (docs/ir-design.md#constants).
    F128,
    Ptr,
    #[default]
    Void,
}

impl IrType {
    /// Every type, in declaration order (used by tests and generators).
    pub const ALL: [IrType; 15] = [
        IrType::I8,
        IrType::I16,
        IrType::I32,
        IrType::I64,
        IrType::I128,
        IrType::U8,
        IrType::U16,
        IrType::U32,
        IrType::U64,
        IrType::U128,
        IrType::F32,
        IrType::F64,
        IrType::F128,
        IrType::Ptr,
        IrType::Void,
    ];

    /// Size in bytes on an LP64 target (`Void` is 0).
    pub fn size(self) -> usize {
        match self {
            IrType::I8 | IrType::U8 => 1,
            IrType::I16 | IrType::U16 => 2,
            IrType::I32 | IrType::U32 | IrType::F32 => 4,
            IrType::I64 | IrType::U64 | IrType::F64 | IrType::Ptr => 8,
            IrType::I128 | IrType::U128 | IrType::F128 => 16,
            IrType::Void => 0,
        }
    }

    /// Natural alignment in bytes.
    pub fn align(self) -> usize {
        self.size().max(1)
    }

    /// Width in bits of the value (pointers are 64-bit integers).
    pub fn bits(self) -> u32 {
        (self.size() * 8) as u32
    }

    pub fn is_integer(self) -> bool {
        matches!(
            self,
            IrType::I8
                | IrType::I16
                | IrType::I32
                | IrType::I64
                | IrType::I128
                | IrType::U8
                | IrType::U16
                | IrType::U32
                | IrType::U64
                | IrType::U128
        )
    }

    /// Integers and pointers: the types integer ops accept.
    pub fn is_int_or_ptr(self) -> bool {
        self.is_integer() || self == IrType::Ptr
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IrType::I8 | IrType::I16 | IrType::I32 | IrType::I64 | IrType::I128
        )
    }

    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            IrType::U8 | IrType::U16 | IrType::U32 | IrType::U64 | IrType::U128 | IrType::Ptr
        )
    }

    pub fn is_float(self) -> bool {
        matches!(self, IrType::F32 | IrType::F64 | IrType::F128)
    }

    pub fn is_128(self) -> bool {
        matches!(self, IrType::I128 | IrType::U128)
    }

    /// The signed integer type of the same width (pointers map to `I64`).
    pub fn to_signed(self) -> IrType {
        match self {
            IrType::U8 => IrType::I8,
            IrType::U16 => IrType::I16,
            IrType::U32 => IrType::I32,
            IrType::U64 | IrType::Ptr => IrType::I64,
            IrType::U128 => IrType::I128,
            t => t,
        }
    }

    /// The unsigned integer type of the same width (pointers map to `U64`).
    pub fn to_unsigned(self) -> IrType {
        match self {
            IrType::I8 => IrType::U8,
            IrType::I16 => IrType::U16,
            IrType::I32 => IrType::U32,
            IrType::I64 | IrType::Ptr => IrType::U64,
            IrType::I128 => IrType::U128,
            t => t,
        }
    }

    /// The textual name used by the IR printer and parser.
    pub fn name(self) -> &'static str {
        match self {
            IrType::I8 => "i8",
            IrType::I16 => "i16",
            IrType::I32 => "i32",
            IrType::I64 => "i64",
            IrType::I128 => "i128",
            IrType::U8 => "u8",
            IrType::U16 => "u16",
            IrType::U32 => "u32",
            IrType::U64 => "u64",
            IrType::U128 => "u128",
            IrType::F32 => "f32",
            IrType::F64 => "f64",
            IrType::F128 => "f128",
            IrType::Ptr => "ptr",
            IrType::Void => "void",
        }
    }

    pub fn from_name(s: &str) -> Option<IrType> {
        IrType::ALL.into_iter().find(|t| t.name() == s)
    }
}

impl fmt::Display for IrType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// x86 segment override on a memory access (`__seg_gs`, `__seg_fs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    #[default]
    Default,
    SegGs,
    SegFs,
}

impl AddressSpace {
    pub fn name(self) -> &'static str {
        match self {
            AddressSpace::Default => "default",
            AddressSpace::SegGs => "gs",
            AddressSpace::SegFs => "fs",
        }
    }
    pub fn from_name(s: &str) -> Option<AddressSpace> {
        match s {
            "default" => Some(AddressSpace::Default),
            "gs" => Some(AddressSpace::SegGs),
            "fs" => Some(AddressSpace::SegFs),
            _ => None,
        }
    }
}

/// SysV AMD64 classification of one eightbyte of an aggregate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EightbyteClass {
    NoClass,
    Integer,
    Sse,
    Memory,
}

impl EightbyteClass {
    pub fn name(self) -> &'static str {
        match self {
            EightbyteClass::NoClass => "none",
            EightbyteClass::Integer => "int",
            EightbyteClass::Sse => "sse",
            EightbyteClass::Memory => "mem",
        }
    }
    pub fn from_name(s: &str) -> Option<EightbyteClass> {
        match s {
            "none" => Some(EightbyteClass::NoClass),
            "int" => Some(EightbyteClass::Integer),
            "sse" => Some(EightbyteClass::Sse),
            "mem" => Some(EightbyteClass::Memory),
            _ => None,
        }
    }
}

/// AAPCS64 homogeneous floating-point aggregate (HFA): a struct or array made of
/// one to four members of the same floating type (`f32`, `f64` or `f128`), passed
/// and returned in consecutive SIMD/FP registers (AAPCS64 5.9.5, 6.8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hfa {
    /// `F32`, `F64` or `F128`.
    pub base: IrType,
    /// 1 to 4.
    pub count: u8,
}

/// RISC-V LP64D flattening of a small struct into floating-point registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RiscvFloatClass {
    /// One float field (f32 or f64 by size).
    OneFloat { is_double: bool },
    /// Two float fields.
    TwoFloats { lo_double: bool, hi_double: bool },
    /// A float field followed by an integer field (offsets and sizes implied by layout).
    FloatInt {
        float_double: bool,
        int_size: u8,
        int_offset: u8,
    },
    /// An integer field followed by a float field.
    IntFloat {
        int_size: u8,
        float_double: bool,
        float_offset: u8,
    },
}
