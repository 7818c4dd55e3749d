//! What the three targets share about 128-bit integers (`__int128`, IR
//! `i128`/`u128`) and `long double` (IR `f128`): the libgcc routines that
//! do the work no instruction does, and how an ordered 128-bit compare
//! reduces to "less than".
//!
//! Every target computes 128-bit integers in register pairs and calls
//! libgcc for division, remainder and conversions to and from floating
//! point, as gcc does (libgcc's "Routines for integer arithmetic" and
//! "Routines for floating point emulation": `__divti3`, `__floattisf`,
//! `__fixdfti`, ...). A `long double` is x87 extended on x86-64 (names in
//! `xf`) and IEEE binary128 on AArch64 and RISC-V 64 (names in `tf`), where
//! arithmetic and compares are soft-float calls too. The register moves
//! around each call are the target's.

use crate::ir::ops::{IrBinOp, IrCmpOp};
use crate::ir::types::IrType;
use crate::target::LongDoubleFormat;

/// The libgcc routine of a 128-bit `sdiv`, `udiv`, `srem` or `urem`.
pub(crate) fn divmod_helper(op: IrBinOp) -> &'static str {
    match op {
        IrBinOp::SDiv => "__divti3",
        IrBinOp::UDiv => "__udivti3",
        IrBinOp::SRem => "__modti3",
        _ => "__umodti3",
    }
}

/// An ordered compare `lhs op rhs` of 128-bit integers as `x < y` or, when
/// the flag is false, `x >= y`: the operands to subtract and whether the
/// "less than" outcome is the true one (`Eq`/`Ne` are not ordered).
pub(crate) fn ordered_operands<'a, T>(op: IrCmpOp, lhs: &'a T, rhs: &'a T) -> (&'a T, &'a T, bool) {
    match op {
        IrCmpOp::Slt | IrCmpOp::Ult => (lhs, rhs, true),
        IrCmpOp::Sge | IrCmpOp::Uge => (lhs, rhs, false),
        IrCmpOp::Sgt | IrCmpOp::Ugt => (rhs, lhs, true),
        _ => (rhs, lhs, false),
    }
}

/// Whether `ty` is a 128-bit integer or `long double`: the types whose
/// work goes through register pairs, memory or libgcc on every target.
pub(crate) fn is_wide(ty: IrType) -> bool {
    ty.is_128() || ty == IrType::F128
}

/// What a conversion with a 128-bit integer or a `long double` on either
/// side does (each target emits each kind its own way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WideCast {
    /// The same bits: the same type, or one 128-bit integer type to the other.
    Move,
    /// An integer of at most 64 bits to a 128-bit one, extended by the
    /// source's signedness.
    IntToWide,
    /// A 128-bit integer to a narrower integer: its low bits.
    WideToInt,
    /// A 128-bit integer to `float`, `double` or `long double` ([`float_from_ti`]).
    WideToFloat,
    /// `float`, `double` or `long double` to a 128-bit integer ([`fix_to_ti`]).
    FloatToWide,
    /// `float` or `double` to `long double`.
    ExtendToLong,
    /// `long double` to `float` or `double`.
    TruncFromLong,
    /// An integer of at most 64 bits to `long double`.
    IntToLong,
    /// `long double` to an integer of at most 64 bits.
    LongToInt,
}

/// The kind of a cast from `from` to `to` where either is a 128-bit
/// integer or `long double`; `None` for a pair no cast has (an internal
/// error).
pub(crate) fn classify_cast(from: IrType, to: IrType) -> Option<WideCast> {
    use IrType::{F128, F32, F64};
    let int = |t: IrType| t.is_int_or_ptr();
    Some(match (from, to) {
        (f, t) if f == t || (f.is_128() && t.is_128()) => WideCast::Move,
        (f, t) if int(f) && !f.is_128() && t.is_128() => WideCast::IntToWide,
        (f, t) if f.is_128() && int(t) => WideCast::WideToInt,
        (f, F32 | F64 | F128) if f.is_128() => WideCast::WideToFloat,
        (F32 | F64 | F128, t) if t.is_128() => WideCast::FloatToWide,
        (F32 | F64, F128) => WideCast::ExtendToLong,
        (F128, F32 | F64) => WideCast::TruncFromLong,
        (f, F128) if int(f) => WideCast::IntToLong,
        (F128, t) if int(t) => WideCast::LongToInt,
        _ => return None,
    })
}

/// libgcc's mode letter of a floating-point type: `s`, `d`, or the
/// `long double` format's `x`/`t`.
fn float_mode(ty: IrType, ld: LongDoubleFormat) -> &'static str {
    match ty {
        IrType::F32 => "s",
        IrType::F64 => "d",
        _ => match ld {
            LongDoubleFormat::X87 => "x",
            LongDoubleFormat::Binary128 => "t",
        },
    }
}

/// The routine converting a (signed or not) 128-bit integer to `to`:
/// `__float[un]ti{s,d,x,t}f`.
pub(crate) fn float_from_ti(signed: bool, to: IrType, ld: LongDoubleFormat) -> String {
    let un = if signed { "" } else { "un" };
    format!("__float{un}ti{}f", float_mode(to, ld))
}

/// The routine converting `from` to a (signed or not) 128-bit integer,
/// truncating: `__fix[uns]{s,d,x,t}fti`.
pub(crate) fn fix_to_ti(signed: bool, from: IrType, ld: LongDoubleFormat) -> String {
    let uns = if signed { "" } else { "uns" };
    format!("__fix{uns}{}fti", float_mode(from, ld))
}

/// The binary128 soft-float routine of an arithmetic operation (`fmodl`
/// for the remainder), or `None` for an operation `long double` lacks.
pub(crate) fn tf_binop_helper(op: IrBinOp) -> Option<&'static str> {
    Some(match op {
        IrBinOp::Add => "__addtf3",
        IrBinOp::Sub => "__subtf3",
        IrBinOp::Mul => "__multf3",
        IrBinOp::SDiv | IrBinOp::UDiv => "__divtf3",
        IrBinOp::SRem | IrBinOp::URem => "fmodl",
        _ => return None,
    })
}

/// The binary128 soft-float compare routine of `op`: it returns an `int`
/// that compares with 0 as the operands do, with the unordered (NaN) case on
/// the false side of `op`.
pub(crate) fn tf_cmp_helper(op: IrCmpOp) -> &'static str {
    match op {
        IrCmpOp::Eq => "__eqtf2",
        IrCmpOp::Ne => "__netf2",
        IrCmpOp::Slt | IrCmpOp::Ult => "__lttf2",
        IrCmpOp::Sle | IrCmpOp::Ule => "__letf2",
        IrCmpOp::Sgt | IrCmpOp::Ugt => "__gttf2",
        IrCmpOp::Sge | IrCmpOp::Uge => "__getf2",
    }
}

/// The routine widening a `float` or `double` to binary128.
pub(crate) fn tf_extend_helper(from: IrType) -> &'static str {
    if from == IrType::F32 {
        "__extendsftf2"
    } else {
        "__extenddftf2"
    }
}

/// The routine narrowing a binary128 to a `float` or `double`.
pub(crate) fn tf_trunc_helper(to: IrType) -> &'static str {
    if to == IrType::F32 {
        "__trunctfsf2"
    } else {
        "__trunctfdf2"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_are_classified_by_their_wide_side() {
        use IrType::*;
        use WideCast::*;
        assert_eq!(classify_cast(I128, U128), Some(Move));
        assert_eq!(classify_cast(I32, I128), Some(IntToWide));
        assert_eq!(classify_cast(Ptr, U128), Some(IntToWide));
        assert_eq!(classify_cast(U128, I8), Some(WideToInt));
        assert_eq!(classify_cast(I128, F128), Some(WideToFloat));
        assert_eq!(classify_cast(F32, U128), Some(FloatToWide));
        assert_eq!(classify_cast(F64, F128), Some(ExtendToLong));
        assert_eq!(classify_cast(F128, F32), Some(TruncFromLong));
        assert_eq!(classify_cast(U64, F128), Some(IntToLong));
        assert_eq!(classify_cast(F128, I16), Some(LongToInt));
        assert_eq!(classify_cast(F128, Void), None);
    }

    /// The names are libgcc's (the list in its manual), so that a link
    /// against libgcc finds each of them.
    #[test]
    fn conversion_names_are_libgcc_s() {
        use IrType::*;
        use LongDoubleFormat::*;
        assert_eq!(float_from_ti(true, F32, Binary128), "__floattisf");
        assert_eq!(float_from_ti(false, F64, X87), "__floatuntidf");
        assert_eq!(float_from_ti(true, F128, X87), "__floattixf");
        assert_eq!(float_from_ti(false, F128, Binary128), "__floatuntitf");
        assert_eq!(fix_to_ti(true, F64, X87), "__fixdfti");
        assert_eq!(fix_to_ti(false, F32, Binary128), "__fixunssfti");
        assert_eq!(fix_to_ti(false, F128, X87), "__fixunsxfti");
        assert_eq!(fix_to_ti(true, F128, Binary128), "__fixtfti");
    }
}
