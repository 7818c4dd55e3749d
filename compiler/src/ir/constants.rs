//! Compile-time constants (`IrConst`) and their conversions: coercion between
//! IR types, narrowing (used by mem2reg for stores into narrower allocas), bit
//! patterns, little-endian serialization, hash keys, and the float encodings
//! for `long double` (IEEE binary128 and x87 80-bit extended).
//!
//! Integer constants carry no signedness: an `I32(-1)` stored as a `U32` is
//! the bit pattern 0xffff_ffff. The instruction's `IrType` says how to read it.
//! Equality compares bit patterns, so NaN constants compare equal to themselves
//! (needed for `parse(print(m)) == m`).
//!
//! A `long double` constant is exact: its binary128 bytes hold the value
//! (rounded to the target's precision by the frontend, [`crate::binary128`]);
//! its `f64` is only the nearest double, which the interpreter folds with.
//! Conversions of such a constant ([`IrConst::coerce_to`]) and its truth
//! ([`IrConst::is_zero`]) read the bytes, never the `f64`. The optimizer
//! folds no floating-point operation (sccp, gvn and simplifycfg fold
//! integers only), so an `f64` approximation never decides a result.

use super::types::IrType;
use crate::binary128::{Binary128, Truncated};

/// A compile-time constant operand.
#[derive(Clone, Copy, Debug)]
pub enum IrConst {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    F32(f32),
    F64(f64),
    /// `long double`: the nearest `f64` (what the interpreter computes with)
    /// and the exact value as binary128 bytes (little-endian), which
    /// emission, conversions and truth tests use.
    LongDouble(f64, [u8; 16]),
    /// The zero of whatever type the using instruction has.
    Zero,
}

/// A hashable, bit-exact key for a constant (floats by bit pattern).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstHashKey {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    F32(u32),
    F64(u64),
    LongDouble(u64, [u8; 16]),
    Zero,
}

impl PartialEq for IrConst {
    fn eq(&self, other: &Self) -> bool {
        self.to_hash_key() == other.to_hash_key()
    }
}
impl Eq for IrConst {}

impl std::hash::Hash for IrConst {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.to_hash_key().hash(state)
    }
}

/// Sign-extend the low `bits` bits of `v`.
pub fn sext(v: u128, bits: u32) -> i128 {
    if bits >= 128 {
        v as i128
    } else {
        let s = 128 - bits;
        ((v << s) as i128) >> s
    }
}

/// Keep the low `bits` bits of `v`.
pub fn zext(v: u128, bits: u32) -> u128 {
    if bits >= 128 {
        v
    } else {
        v & ((1u128 << bits) - 1)
    }
}

impl IrConst {
    pub fn to_hash_key(&self) -> ConstHashKey {
        match *self {
            IrConst::I8(v) => ConstHashKey::I8(v),
            IrConst::I16(v) => ConstHashKey::I16(v),
            IrConst::I32(v) => ConstHashKey::I32(v),
            IrConst::I64(v) => ConstHashKey::I64(v),
            IrConst::I128(v) => ConstHashKey::I128(v),
            IrConst::F32(v) => ConstHashKey::F32(v.to_bits()),
            IrConst::F64(v) => ConstHashKey::F64(v.to_bits()),
            IrConst::LongDouble(v, b) => ConstHashKey::LongDouble(v.to_bits(), b),
            IrConst::Zero => ConstHashKey::Zero,
        }
    }

    pub fn is_zero(&self) -> bool {
        match *self {
            IrConst::I8(v) => v == 0,
            IrConst::I16(v) => v == 0,
            IrConst::I32(v) => v == 0,
            IrConst::I64(v) => v == 0,
            IrConst::I128(v) => v == 0,
            IrConst::F32(v) => v == 0.0,
            IrConst::F64(v) => v == 0.0,
            IrConst::LongDouble(_, b) => Binary128::from_le_bytes(b).is_zero(),
            IrConst::Zero => true,
        }
    }

    pub fn is_one(&self) -> bool {
        match *self {
            IrConst::F32(v) => v == 1.0,
            IrConst::F64(v) => v == 1.0,
            IrConst::LongDouble(_, b) => b == f64_to_f128_bytes(1.0),
            IrConst::Zero => false,
            _ => self.to_i128() == Some(1),
        }
    }

    pub fn is_nonzero(&self) -> bool {
        !self.is_zero()
    }

    /// The integer value, sign-extended; `None` for floats.
    pub fn to_i128(&self) -> Option<i128> {
        match *self {
            IrConst::I8(v) => Some(v as i128),
            IrConst::I16(v) => Some(v as i128),
            IrConst::I32(v) => Some(v as i128),
            IrConst::I64(v) => Some(v as i128),
            IrConst::I128(v) => Some(v),
            IrConst::Zero => Some(0),
            _ => None,
        }
    }

    /// The integer value, sign-extended and truncated to 64 bits; `None` for floats.
    pub fn to_i64(&self) -> Option<i64> {
        self.to_i128().map(|v| v as i64)
    }

    /// The integer value reinterpreted as unsigned 64 bits; `None` for floats.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_i128().map(|v| v as u64)
    }

    /// The numeric value as `f64` (integers converted signed); `Zero` gives 0.0.
    pub fn to_f64(&self) -> Option<f64> {
        match *self {
            IrConst::F32(v) => Some(v as f64),
            IrConst::F64(v) | IrConst::LongDouble(v, _) => Some(v),
            _ => self.to_i128().map(|v| v as f64),
        }
    }

    /// The constant of type `ty` whose (signed) integer value is `val`, truncated.
    pub fn from_i64(val: i64, ty: IrType) -> IrConst {
        IrConst::from_i128(val as i128, ty)
    }

    /// As [`IrConst::from_i64`] for 128-bit values. Float types convert numerically.
    pub fn from_i128(val: i128, ty: IrType) -> IrConst {
        match ty {
            IrType::I8 | IrType::U8 => IrConst::I8(val as i8),
            IrType::I16 | IrType::U16 => IrConst::I16(val as i16),
            IrType::I32 | IrType::U32 => IrConst::I32(val as i32),
            IrType::I64 | IrType::U64 | IrType::Ptr => IrConst::I64(val as i64),
            IrType::I128 | IrType::U128 => IrConst::I128(val),
            IrType::F32 => IrConst::F32(val as f32),
            IrType::F64 => IrConst::F64(val as f64),
            IrType::F128 => IrConst::long_double(val as f64),
            IrType::Void => IrConst::Zero,
        }
    }

    /// The zero of `ty`, in the variant that matches the type's width.
    pub fn zero(ty: IrType) -> IrConst {
        match ty {
            IrType::F32 => IrConst::F32(0.0),
            IrType::F64 => IrConst::F64(0.0),
            IrType::F128 => IrConst::long_double(0.0),
            IrType::Void => IrConst::Zero,
            _ => IrConst::from_i128(0, ty),
        }
    }

    /// The one of `ty`.
    pub fn one(ty: IrType) -> IrConst {
        match ty {
            IrType::F32 => IrConst::F32(1.0),
            IrType::F64 => IrConst::F64(1.0),
            IrType::F128 => IrConst::long_double(1.0),
            _ => IrConst::from_i128(1, ty),
        }
    }

    /// A pointer-width integer (LP64: `I64`).
    pub fn ptr_int(val: i64) -> IrConst {
        IrConst::I64(val)
    }

    /// Raw bits of the constant as the value of type `ty` would hold them: integers
    /// truncated to the type's width (zero-extended into the `u128`), floats as
    /// their IEEE bit pattern (`F128` as the bits of its `f64` approximation,
    /// which is how the interpreter folds long double).
    pub fn bits_as(&self, ty: IrType) -> u128 {
        match ty {
            IrType::F32 => (self.to_f64().unwrap_or(0.0) as f32).to_bits() as u128,
            IrType::F64 | IrType::F128 => self.to_f64().unwrap_or(0.0).to_bits() as u128,
            IrType::Void => 0,
            _ => {
                let raw: u128 = match *self {
                    IrConst::F32(v) => v.to_bits() as u128,
                    IrConst::F64(v) | IrConst::LongDouble(v, _) => v.to_bits() as u128,
                    _ => self.to_i128().unwrap_or(0) as u128,
                };
                zext(raw, ty.bits())
            }
        }
    }

    /// The constant of type `ty` with raw bits `bits` (inverse of [`IrConst::bits_as`]).
    pub fn from_bits(bits: u128, ty: IrType) -> IrConst {
        match ty {
            IrType::F32 => IrConst::F32(f32::from_bits(bits as u32)),
            IrType::F64 => IrConst::F64(f64::from_bits(bits as u64)),
            IrType::F128 => IrConst::long_double(f64::from_bits(bits as u64)),
            IrType::Void => IrConst::Zero,
            _ => IrConst::from_i128(sext(bits, ty.bits()), ty),
        }
    }

    /// Convert the constant to `target` as a C conversion from a signed (or float)
    /// source would. Integer to integer truncates or sign-extends; integer to
    /// float converts numerically; float to integer truncates toward zero.
    pub fn coerce_to(&self, target: IrType) -> IrConst {
        self.coerce_to_with_src(target, None)
    }

    /// As [`IrConst::coerce_to`], reading an integer source as unsigned when
    /// `src_ty` is an unsigned type.
    pub fn coerce_to_with_src(&self, target: IrType, src_ty: Option<IrType>) -> IrConst {
        let unsigned_src = src_ty.is_some_and(|t| t.is_unsigned());
        match *self {
            // Exactly, from the bytes (rounded once to the target type).
            IrConst::LongDouble(_, b) => {
                let x = Binary128::from_le_bytes(b);
                match target {
                    IrType::F32 => IrConst::F32(x.to_f32()),
                    IrType::F64 => IrConst::F64(x.to_f64()),
                    IrType::F128 => *self,
                    t => {
                        // Toward zero; out of range wraps like the i128 of
                        // the f64 path below (undefined behaviour in C).
                        let v = match x.trunc() {
                            Truncated::Value { neg, magnitude } => {
                                let m = magnitude as i128;
                                if neg {
                                    m.wrapping_neg()
                                } else {
                                    m
                                }
                            }
                            Truncated::Nan => 0,
                            Truncated::TooBig { neg } => {
                                if neg {
                                    i128::MIN
                                } else {
                                    i128::MAX
                                }
                            }
                        };
                        IrConst::from_i128(v, t)
                    }
                }
            }
            IrConst::F32(_) | IrConst::F64(_) => {
                let v = self.to_f64().unwrap_or(0.0);
                match target {
                    IrType::F32 => IrConst::F32(v as f32),
                    IrType::F64 => IrConst::F64(v),
                    IrType::F128 => IrConst::long_double(v),
                    t if t.is_unsigned() => IrConst::from_i128(v as u128 as i128, t),
                    t => IrConst::from_i128(v as i128, t),
                }
            }
            _ => {
                let mut v = self.to_i128().unwrap_or(0);
                if unsigned_src {
                    let bits = src_ty.map(|t| t.bits()).unwrap_or(64);
                    v = zext(v as u128, bits) as i128;
                }
                match target {
                    IrType::F32 => IrConst::F32(if unsigned_src { v as u128 as f32 } else { v as f32 }),
                    IrType::F64 => IrConst::F64(if unsigned_src { v as u128 as f64 } else { v as f64 }),
                    IrType::F128 => IrConst::long_double(v as f64),
                    t => IrConst::from_i128(v, t),
                }
            }
        }
    }

    /// Narrow an integer constant to the width of `ty` (mem2reg's constant
    /// narrowing for stores into narrower allocas). Floats and `Zero` of a
    /// float type convert; other constants are returned re-typed to `ty`.
    pub fn narrowed_to(&self, ty: IrType) -> IrConst {
        match *self {
            IrConst::Zero => IrConst::zero(ty),
            _ if ty.is_float() => self.coerce_to(ty),
            _ => IrConst::from_bits(self.bits_as(ty), ty),
        }
    }

    /// `I8(0)` or `I8(1)` as C11 6.3.1.2 converts a scalar to `_Bool`.
    pub fn bool_normalize(&self) -> IrConst {
        IrConst::I8(self.is_nonzero() as i8)
    }

    /// A `long double` constant from an `f64` value (exact binary128 bytes).
    pub fn long_double(v: f64) -> IrConst {
        IrConst::LongDouble(v, f64_to_f128_bytes(v))
    }

    /// An exact `long double` constant (see the module documentation).
    pub fn long_double_exact(v: Binary128) -> IrConst {
        IrConst::LongDouble(v.to_f64(), v.to_le_bytes())
    }

    /// The exact value of a `long double` constant.
    pub fn exact_long_double(&self) -> Option<Binary128> {
        match *self {
            IrConst::LongDouble(_, b) => Some(Binary128::from_le_bytes(b)),
            _ => None,
        }
    }

    pub fn long_double_from_i64(v: i64) -> IrConst {
        IrConst::long_double(v as f64)
    }

    pub fn long_double_from_u64(v: u64) -> IrConst {
        IrConst::long_double(v as f64)
    }

    /// Append the constant's `size` little-endian bytes (long double as binary128).
    pub fn push_le_bytes(&self, out: &mut Vec<u8>, size: usize) {
        match *self {
            IrConst::LongDouble(_, b) => out.extend_from_slice(&b[..size.min(16)]),
            IrConst::F32(v) => out.extend_from_slice(&v.to_le_bytes()[..size.min(4)]),
            IrConst::F64(v) => out.extend_from_slice(&v.to_le_bytes()[..size.min(8)]),
            _ => {
                let v = self.to_i128().unwrap_or(0);
                out.extend_from_slice(&v.to_le_bytes()[..size.min(16)]);
            }
        }
        // Pad if the requested size is larger than the payload.
        let written = match *self {
            IrConst::F32(_) => 4,
            IrConst::F64(_) => 8,
            _ => 16,
        }
        .min(size);
        out.extend(std::iter::repeat_n(0u8, size - written));
    }

    /// The natural little-endian bytes of the constant's variant.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        let size = match *self {
            IrConst::I8(_) => 1,
            IrConst::I16(_) => 2,
            IrConst::I32(_) | IrConst::F32(_) => 4,
            IrConst::I64(_) | IrConst::F64(_) | IrConst::Zero => 8,
            IrConst::I128(_) | IrConst::LongDouble(..) => 16,
        };
        let mut out = Vec::with_capacity(size);
        self.push_le_bytes(&mut out, size);
        out
    }
}

/// Encode an `f64` exactly as IEEE 754 binary128 (little-endian).
pub fn f64_to_f128_bytes(val: f64) -> [u8; 16] {
    let bits = val.to_bits();
    let sign = (bits >> 63) as u128;
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mant = (bits & ((1u64 << 52) - 1)) as u128;
    let (e, m): (u128, u128) = if exp == 0 {
        if mant == 0 {
            (0, 0)
        } else {
            // Subnormal f64: value = mant * 2^-1074; normalize on its top bit.
            let p = 127 - mant.leading_zeros() as i64;
            let e = (p - 1074 + 16383) as u128;
            let m = (mant << (112 - p)) & ((1u128 << 112) - 1);
            (e, m)
        }
    } else if exp == 0x7ff {
        (0x7fff, mant << 60)
    } else {
        ((exp - 1023 + 16383) as u128, mant << 60)
    };
    let q = (sign << 127) | (e << 112) | m;
    q.to_le_bytes()
}

/// Encode an `f64` exactly as x87 80-bit extended precision (little-endian).
pub fn f64_to_x87_bytes(val: f64) -> [u8; 10] {
    let bits = val.to_bits();
    let sign = (bits >> 63) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mant = bits & ((1u64 << 52) - 1);
    let (e, m): (u16, u64) = if exp == 0 {
        if mant == 0 {
            (0, 0)
        } else {
            let lz = mant.leading_zeros(); // >= 12
            let m = mant << lz; // explicit integer bit now at bit 63
            let e = (1 - 1023 - (lz as i64 - 11) + 16383) as u16;
            (e, m)
        }
    } else if exp == 0x7ff {
        (0x7fff, (1u64 << 63) | (mant << 11))
    } else {
        ((exp - 1023 + 16383) as u16, (1u64 << 63) | (mant << 11))
    };
    let mut out = [0u8; 10];
    out[..8].copy_from_slice(&m.to_le_bytes());
    out[8..].copy_from_slice(&((sign << 15) | e).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_truncates_to_the_alloca_width() {
        assert_eq!(IrConst::I64(0x1_0000_0005).narrowed_to(IrType::I32), IrConst::I32(5));
        assert_eq!(IrConst::I64(-1).narrowed_to(IrType::U8), IrConst::I8(-1));
        assert_eq!(IrConst::I64(300).narrowed_to(IrType::I8), IrConst::I8(44));
        assert_eq!(IrConst::Zero.narrowed_to(IrType::F64), IrConst::F64(0.0));
    }

    #[test]
    fn coerce_respects_unsigned_sources() {
        let c = IrConst::I32(-1);
        assert_eq!(c.coerce_to(IrType::I64), IrConst::I64(-1));
        assert_eq!(
            c.coerce_to_with_src(IrType::I64, Some(IrType::U32)),
            IrConst::I64(0xffff_ffff)
        );
        assert_eq!(IrConst::F64(-2.7).coerce_to(IrType::I32), IrConst::I32(-2));
        assert_eq!(
            IrConst::I8(-1).coerce_to_with_src(IrType::F64, Some(IrType::U8)),
            IrConst::F64(255.0)
        );
    }

    #[test]
    fn nan_constants_equal_themselves() {
        assert_eq!(IrConst::F64(f64::NAN), IrConst::F64(f64::NAN));
        assert_ne!(IrConst::F64(0.0), IrConst::F64(-0.0));
    }

    #[test]
    fn float_encodings_match_known_patterns() {
        // 1.0 in binary128: exponent 0x3fff, zero mantissa.
        let q = u128::from_le_bytes(f64_to_f128_bytes(1.0));
        assert_eq!(q, 0x3fff_u128 << 112);
        let q = u128::from_le_bytes(f64_to_f128_bytes(-2.5));
        assert_eq!(q >> 112, 0xc000);
        assert_eq!(q & ((1u128 << 112) - 1), 1u128 << 110);
        // 1.0 in x87: mantissa with explicit integer bit, exponent 0x3fff.
        let x = f64_to_x87_bytes(1.0);
        assert_eq!(u64::from_le_bytes(x[..8].try_into().unwrap()), 1u64 << 63);
        assert_eq!(u16::from_le_bytes([x[8], x[9]]), 0x3fff);
        // Smallest subnormal f64 = 2^-1074.
        let q = u128::from_le_bytes(f64_to_f128_bytes(f64::from_bits(1)));
        assert_eq!(q >> 112, (16383 - 1074) as u128);
        assert_eq!(q & ((1u128 << 112) - 1), 0);
        let x = f64_to_x87_bytes(f64::from_bits(1));
        assert_eq!(u16::from_le_bytes([x[8], x[9]]), (16383 - 1074) as u16);
        assert_eq!(u64::from_le_bytes(x[..8].try_into().unwrap()), 1u64 << 63);
    }

    #[test]
    fn bits_round_trip_through_types() {
        for ty in [IrType::I8, IrType::U16, IrType::I32, IrType::U64, IrType::I128] {
            let c = IrConst::from_i64(-3, ty);
            assert_eq!(IrConst::from_bits(c.bits_as(ty), ty), c);
        }
        assert_eq!(IrConst::I32(-1).bits_as(IrType::U32), 0xffff_ffff);
        assert_eq!(IrConst::I64(3).bits_as(IrType::F64), 3.0f64.to_bits() as u128);
    }
}
