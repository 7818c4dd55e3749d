//! The C scalar types of generated programs and their constants.
//!
//! The three targets are LP64 (x86-64 SysV, AAPCS64, RISC-V LP64D): `long`
//! and `long long` are 64 bits. Plain `char` never appears (its signedness
//! differs between x86-64 and the other two): `signed char` or
//! `unsigned char` always. Constants are printed so that they have exactly
//! their type and no conversion changes their value (no `-Woverflow`):
//! `(-2147483647 - 1)` for `INT_MIN`, suffixes for the wide types, casts for
//! the narrow ones.

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Scalar {
    Bool,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LLong,
    ULLong,
    Float,
    Double,
}

/// Every scalar type (variables pick from this list).
pub(crate) const ALL_SCALARS: [Scalar; 13] = [
    Scalar::Bool,
    Scalar::SChar,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
    Scalar::LLong,
    Scalar::ULLong,
    Scalar::Float,
    Scalar::Double,
];

/// Integer types an asm operand can have (32- or 64-bit registers).
pub(crate) const ASM_SCALARS: [Scalar; 6] = [
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
    Scalar::LLong,
    Scalar::ULLong,
];

impl Scalar {
    /// The C spelling.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "_Bool",
            Scalar::SChar => "signed char",
            Scalar::UChar => "unsigned char",
            Scalar::Short => "short",
            Scalar::UShort => "unsigned short",
            Scalar::Int => "int",
            Scalar::UInt => "unsigned",
            Scalar::Long => "long",
            Scalar::ULong => "unsigned long",
            Scalar::LLong => "long long",
            Scalar::ULLong => "unsigned long long",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }

    /// A short tag for variable names (`u16_3`, `f64_7`).
    pub fn tag(self) -> &'static str {
        match self {
            Scalar::Bool => "b",
            Scalar::SChar => "s8",
            Scalar::UChar => "u8",
            Scalar::Short => "s16",
            Scalar::UShort => "u16",
            Scalar::Int => "i32",
            Scalar::UInt => "u32",
            Scalar::Long => "l64",
            Scalar::ULong => "ul64",
            Scalar::LLong => "i64",
            Scalar::ULLong => "u64",
            Scalar::Float => "f32",
            Scalar::Double => "f64",
        }
    }

    /// Width in bits (`_Bool` holds one bit).
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::SChar | Scalar::UChar => 8,
            Scalar::Short | Scalar::UShort => 16,
            Scalar::Int | Scalar::UInt | Scalar::Float => 32,
            Scalar::Long | Scalar::ULong | Scalar::LLong | Scalar::ULLong | Scalar::Double => 64,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Float | Scalar::Double)
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::SChar | Scalar::Short | Scalar::Int | Scalar::Long | Scalar::LLong
        )
    }

    /// The unsigned type integer arithmetic on this type is done in: no
    /// operation on it can overflow (C11 6.2.5p9), and it is at least as wide
    /// as `int`, so no promotion turns it signed.
    pub fn unsigned_arith(self) -> Scalar {
        if self.bits() <= 32 {
            Scalar::UInt
        } else {
            Scalar::ULLong
        }
    }

    /// The signed type of the same arithmetic width.
    pub fn signed_arith(self) -> Scalar {
        if self.bits() <= 32 {
            Scalar::Int
        } else {
            Scalar::LLong
        }
    }

    /// The constant `raw` (truncated to the width) written with exactly this
    /// type. Floating types take [`Scalar::float_literal`] instead.
    pub fn int_literal(self, raw: u64) -> String {
        let bits = self.bits();
        let u = if bits >= 64 { raw } else { raw & ((1u64 << bits) - 1) };
        let s = if bits >= 64 {
            u as i64
        } else {
            ((u << (64 - bits)) as i64) >> (64 - bits)
        };
        match self {
            Scalar::Bool => format!("((_Bool){})", u & 1),
            Scalar::SChar | Scalar::Short => format!("(({}){})", self.name(), s),
            Scalar::UChar | Scalar::UShort => format!("(({}){}u)", self.name(), u),
            Scalar::Int => signed_literal(s, i32::MIN as i64, ""),
            Scalar::Long => signed_literal(s, i64::MIN, "L"),
            Scalar::LLong => signed_literal(s, i64::MIN, "LL"),
            Scalar::UInt => unsigned_literal(u, "u"),
            Scalar::ULong => unsigned_literal(u, "UL"),
            Scalar::ULLong => unsigned_literal(u, "ULL"),
            Scalar::Float | Scalar::Double => unreachable!("float constant through int_literal"),
        }
    }

    /// A floating constant of this type picked by `pick`. Every value is
    /// finite and at most 1e6 in magnitude, like every stored float.
    pub fn float_literal(self, pick: u64) -> String {
        const VALUES: &[&str] = &[
            "0.0",
            "1.0",
            "-1.0",
            "0.5",
            "1.5",
            "-2.25",
            "3.0",
            "100.0",
            "0.1",
            "-0.75",
            "1e3",
            "12345.678",
            "0.001",
            "-7.5",
            "65536.0",
            "-0.0",
            "2.5e-3",
            "999999.0",
        ];
        let base = if pick.is_multiple_of(3) {
            // An exact multiple of 1/8 in -500..500.
            let v = ((pick >> 8) % 8000) as i64 - 4000;
            format!("{:.3}", v as f64 / 8.0)
        } else {
            VALUES[(pick as usize / 3) % VALUES.len()].to_string()
        };
        let suffixed = if self == Scalar::Float {
            format!("{base}f")
        } else {
            base
        };
        if suffixed.starts_with('-') {
            format!("({suffixed})")
        } else {
            suffixed
        }
    }
}

fn signed_literal(v: i64, min: i64, suffix: &str) -> String {
    if v == min {
        format!("({}{suffix} - 1)", min + 1)
    } else if v < 0 {
        format!("({v}{suffix})")
    } else {
        format!("{v}{suffix}")
    }
}

fn unsigned_literal(v: u64, suffix: &str) -> String {
    if v > 4096 {
        format!("{v:#x}{suffix}")
    } else {
        format!("{v}{suffix}")
    }
}

/// A variable's type: a scalar, a pointer to one, or a small array of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CType {
    Scalar(Scalar),
    Ptr(Scalar),
    /// `T name[ARRAY_LEN]`, indexed with a masked index.
    Array(Scalar),
}

/// Length of every generated array (indices are masked with `& 3`).
pub(crate) const ARRAY_LEN: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_have_their_type() {
        assert_eq!(Scalar::Int.int_literal(0x8000_0000), "(-2147483647 - 1)");
        assert_eq!(Scalar::Int.int_literal(u64::MAX), "(-1)");
        assert_eq!(Scalar::LLong.int_literal(1 << 63), "(-9223372036854775807LL - 1)");
        assert_eq!(Scalar::UChar.int_literal(0x1ff), "((unsigned char)255u)");
        assert_eq!(Scalar::SChar.int_literal(0x80), "((signed char)-128)");
        assert_eq!(Scalar::ULLong.int_literal(u64::MAX), "0xffffffffffffffffULL");
        assert_eq!(Scalar::Bool.int_literal(3), "((_Bool)1)");
        assert_eq!(Scalar::Float.float_literal(4), "(-1.0f)");
    }
}
