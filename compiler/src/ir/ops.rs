//! The operator enums of the IR (`IrBinOp`, `IrUnaryOp`, `IrCmpOp`,
//! `AtomicRmwOp`, `AtomicOrdering`) with their textual names and evaluation.
//!
//! Evaluation comes in two flavours: `eval_i64` / `eval_i128` on
//! plain integers (for constant folding), and `eval_bits` on raw bit patterns of
//! a given `IrType`, which is what the reference interpreter uses. Both follow
//! the interpreter contract (docs/architecture.md#the-interpreter-contract): integer arithmetic wraps; division by
//! zero, `MIN / -1` and shifts by at least the bit width are traps.

use super::constants::{sext, zext};
use super::types::IrType;

/// Why an operation cannot produce a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalTrap {
    DivByZero,
    /// `MIN / -1` or `MIN % -1` on a signed type.
    DivOverflow,
    /// Shift amount at least the bit width of the type.
    ShiftTooLarge,
}

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $v),* }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$v),*];
            /// The textual name used by the IR printer and parser.
            pub fn name(self) -> &'static str { match self { $($name::$v => $s),* } }
            pub fn from_name(s: &str) -> Option<$name> {
                match s { $($s => Some($name::$v),)* _ => None }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.name()) }
        }
    };
}

named_enum!(
    /// Two-operand arithmetic and logic.
    IrBinOp {
        Add = "add", Sub = "sub", Mul = "mul", SDiv = "sdiv", UDiv = "udiv",
        SRem = "srem", URem = "urem", And = "and", Or = "or", Xor = "xor",
        Shl = "shl", AShr = "ashr", LShr = "lshr",
    }
);

named_enum!(
    /// One-operand operations.
    IrUnaryOp {
        Neg = "neg", Not = "not", Clz = "clz", Ctz = "ctz", Bswap = "bswap",
        Popcount = "popcount",
        /// `__builtin_constant_p`: 1 for a constant operand, else 0.
        IsConstant = "isconstant",
    }
);

named_enum!(
    /// Comparisons; the result of a `Cmp` is an `I8` 0 or 1.
    IrCmpOp {
        Eq = "eq", Ne = "ne", Slt = "slt", Sle = "sle", Sgt = "sgt", Sge = "sge",
        Ult = "ult", Ule = "ule", Ugt = "ugt", Uge = "uge",
    }
);

named_enum!(
    /// Read-modify-write operations of `AtomicRmw`.
    AtomicRmwOp {
        Add = "add", Sub = "sub", And = "and", Or = "or", Xor = "xor",
        Nand = "nand", Xchg = "xchg", TestAndSet = "testandset",
    }
);

named_enum!(
    /// C11 memory orderings.
    AtomicOrdering {
        Relaxed = "relaxed", Acquire = "acquire", Release = "release",
        AcqRel = "acqrel", SeqCst = "seqcst",
    }
);

impl IrBinOp {
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            IrBinOp::Add | IrBinOp::Mul | IrBinOp::And | IrBinOp::Or | IrBinOp::Xor
        )
    }

    /// Division and remainder can trap and must not be speculated.
    pub fn can_trap(self) -> bool {
        matches!(self, IrBinOp::SDiv | IrBinOp::UDiv | IrBinOp::SRem | IrBinOp::URem)
    }

    pub fn is_shift(self) -> bool {
        matches!(self, IrBinOp::Shl | IrBinOp::AShr | IrBinOp::LShr)
    }

    /// Evaluate on 64-bit integers with wrapping arithmetic. `None` for
    /// division or remainder by zero. Unsigned ops read the bits as `u64`;
    /// shift amounts are taken modulo 64 (C folding never relies on more).
    pub fn eval_i64(self, l: i64, r: i64) -> Option<i64> {
        let (ul, ur) = (l as u64, r as u64);
        Some(match self {
            IrBinOp::Add => l.wrapping_add(r),
            IrBinOp::Sub => l.wrapping_sub(r),
            IrBinOp::Mul => l.wrapping_mul(r),
            IrBinOp::SDiv => {
                if r == 0 {
                    return None;
                }
                l.wrapping_div(r)
            }
            IrBinOp::UDiv => ul.checked_div(ur)? as i64,
            IrBinOp::SRem => {
                if r == 0 {
                    return None;
                }
                l.wrapping_rem(r)
            }
            IrBinOp::URem => ul.checked_rem(ur)? as i64,
            IrBinOp::And => l & r,
            IrBinOp::Or => l | r,
            IrBinOp::Xor => l ^ r,
            IrBinOp::Shl => l.wrapping_shl(r as u32),
            IrBinOp::AShr => l.wrapping_shr(r as u32),
            IrBinOp::LShr => ul.wrapping_shr(r as u32) as i64,
        })
    }

    /// As [`IrBinOp::eval_i64`] on 128-bit integers.
    pub fn eval_i128(self, l: i128, r: i128) -> Option<i128> {
        let (ul, ur) = (l as u128, r as u128);
        Some(match self {
            IrBinOp::Add => l.wrapping_add(r),
            IrBinOp::Sub => l.wrapping_sub(r),
            IrBinOp::Mul => l.wrapping_mul(r),
            IrBinOp::SDiv => {
                if r == 0 {
                    return None;
                }
                l.wrapping_div(r)
            }
            IrBinOp::UDiv => ul.checked_div(ur)? as i128,
            IrBinOp::SRem => {
                if r == 0 {
                    return None;
                }
                l.wrapping_rem(r)
            }
            IrBinOp::URem => ul.checked_rem(ur)? as i128,
            IrBinOp::And => l & r,
            IrBinOp::Or => l | r,
            IrBinOp::Xor => l ^ r,
            IrBinOp::Shl => l.wrapping_shl(r as u32),
            IrBinOp::AShr => l.wrapping_shr(r as u32),
            IrBinOp::LShr => ul.wrapping_shr(r as u32) as i128,
        })
    }

    /// Evaluate on raw bit patterns of type `ty` (integers zero-extended into
    /// the `u128`, floats as IEEE bits, `F128` as `f64` bits). The result is
    /// the raw bits of the result, truncated to the width of `ty`.
    ///
    /// Integer semantics: wrapping; signed ops read the operands sign-extended
    /// from the type width (for `Ptr` and unsigned types `SDiv`/`SRem`/`AShr`
    /// still read them as signed, as the opcode says). Traps on division by
    /// zero, `MIN / -1` (and `MIN % -1`) and shift amounts `>= bits`.
    /// Float semantics: IEEE for add/sub/mul/div/rem; bitwise ops and shifts
    /// act on the bit pattern (never produced by the C frontend).
    pub fn eval_bits(self, l: u128, r: u128, ty: IrType) -> Result<u128, EvalTrap> {
        if ty.is_float() && !matches!(self, IrBinOp::And | IrBinOp::Or | IrBinOp::Xor) {
            return Ok(self.eval_float(l, r, ty));
        }
        let bits = if ty.is_float() || ty == IrType::Void {
            64
        } else {
            ty.bits()
        };
        let (ul, ur) = (zext(l, bits), zext(r, bits));
        let (sl, sr) = (sext(l, bits), sext(r, bits));
        let min = sext(1u128 << (bits - 1), bits);
        let v: u128 = match self {
            IrBinOp::Add => ul.wrapping_add(ur),
            IrBinOp::Sub => ul.wrapping_sub(ur),
            IrBinOp::Mul => ul.wrapping_mul(ur),
            IrBinOp::SDiv | IrBinOp::SRem => {
                if sr == 0 {
                    return Err(EvalTrap::DivByZero);
                }
                if sl == min && sr == -1 {
                    return Err(EvalTrap::DivOverflow);
                }
                if self == IrBinOp::SDiv {
                    (sl / sr) as u128
                } else {
                    (sl % sr) as u128
                }
            }
            IrBinOp::UDiv => ul.checked_div(ur).ok_or(EvalTrap::DivByZero)?,
            IrBinOp::URem => ul.checked_rem(ur).ok_or(EvalTrap::DivByZero)?,
            IrBinOp::And => ul & ur,
            IrBinOp::Or => ul | ur,
            IrBinOp::Xor => ul ^ ur,
            IrBinOp::Shl | IrBinOp::AShr | IrBinOp::LShr => {
                if ur >= bits as u128 {
                    return Err(EvalTrap::ShiftTooLarge);
                }
                let s = ur as u32;
                match self {
                    IrBinOp::Shl => ul << s,
                    IrBinOp::AShr => (sl >> s) as u128,
                    _ => ul >> s,
                }
            }
        };
        Ok(zext(v, bits))
    }

    fn eval_float(self, l: u128, r: u128, ty: IrType) -> u128 {
        if ty == IrType::F32 {
            let (a, b) = (f32::from_bits(l as u32), f32::from_bits(r as u32));
            let v = match self {
                IrBinOp::Add => a + b,
                IrBinOp::Sub => a - b,
                IrBinOp::Mul => a * b,
                IrBinOp::SDiv | IrBinOp::UDiv => a / b,
                IrBinOp::SRem | IrBinOp::URem => a % b,
                _ => a,
            };
            v.to_bits() as u128
        } else {
            let (a, b) = (f64::from_bits(l as u64), f64::from_bits(r as u64));
            let v = match self {
                IrBinOp::Add => a + b,
                IrBinOp::Sub => a - b,
                IrBinOp::Mul => a * b,
                IrBinOp::SDiv | IrBinOp::UDiv => a / b,
                IrBinOp::SRem | IrBinOp::URem => a % b,
                _ => a,
            };
            v.to_bits() as u128
        }
    }
}

impl IrUnaryOp {
    /// Evaluate on raw bits of type `ty`. `IsConstant` has no runtime value of
    /// its own: the interpreter gives 0 for a value operand (the caller passes
    /// constants through `eval_const` instead).
    pub fn eval_bits(self, v: u128, ty: IrType) -> u128 {
        if ty.is_float() {
            return match self {
                IrUnaryOp::Neg if ty == IrType::F32 => (v as u32 ^ 0x8000_0000) as u128,
                IrUnaryOp::Neg => (v as u64 ^ (1u64 << 63)) as u128,
                IrUnaryOp::IsConstant => 0,
                _ => v,
            };
        }
        let bits = if ty == IrType::Void { 64 } else { ty.bits() };
        let u = zext(v, bits);
        let r = match self {
            IrUnaryOp::Neg => u.wrapping_neg(),
            IrUnaryOp::Not => !u,
            IrUnaryOp::Clz => (u.leading_zeros() - (128 - bits)) as u128,
            IrUnaryOp::Ctz => {
                if u == 0 {
                    bits as u128
                } else {
                    u.trailing_zeros() as u128
                }
            }
            IrUnaryOp::Bswap => u.swap_bytes() >> (128 - bits),
            IrUnaryOp::Popcount => u.count_ones() as u128,
            IrUnaryOp::IsConstant => 0,
        };
        zext(r, bits)
    }
}

impl IrCmpOp {
    pub fn eval_i64(self, l: i64, r: i64) -> bool {
        // Unsigned comparisons read the 64-bit patterns as u64.
        self.eval_u(l as u64 as u128, r as u64 as u128, l as i128, r as i128)
    }

    pub fn eval_i128(self, l: i128, r: i128) -> bool {
        self.eval_u(l as u128, r as u128, l, r)
    }

    fn eval_u(self, ul: u128, ur: u128, sl: i128, sr: i128) -> bool {
        match self {
            IrCmpOp::Eq => ul == ur,
            IrCmpOp::Ne => ul != ur,
            IrCmpOp::Slt => sl < sr,
            IrCmpOp::Sle => sl <= sr,
            IrCmpOp::Sgt => sl > sr,
            IrCmpOp::Sge => sl >= sr,
            IrCmpOp::Ult => ul < ur,
            IrCmpOp::Ule => ul <= ur,
            IrCmpOp::Ugt => ul > ur,
            IrCmpOp::Uge => ul >= ur,
        }
    }

    /// IEEE comparison: ordered for everything but `Ne` (true on NaN).
    pub fn eval_f64(self, l: f64, r: f64) -> bool {
        match self {
            IrCmpOp::Eq => l == r,
            IrCmpOp::Ne => l != r,
            IrCmpOp::Slt | IrCmpOp::Ult => l < r,
            IrCmpOp::Sle | IrCmpOp::Ule => l <= r,
            IrCmpOp::Sgt | IrCmpOp::Ugt => l > r,
            IrCmpOp::Sge | IrCmpOp::Uge => l >= r,
        }
    }

    /// Compare raw bit patterns of type `ty`.
    pub fn eval_bits(self, l: u128, r: u128, ty: IrType) -> bool {
        match ty {
            IrType::F32 => self.eval_f64(f32::from_bits(l as u32) as f64, f32::from_bits(r as u32) as f64),
            IrType::F64 | IrType::F128 => self.eval_f64(f64::from_bits(l as u64), f64::from_bits(r as u64)),
            _ => {
                let bits = if ty == IrType::Void { 64 } else { ty.bits() };
                self.eval_u(zext(l, bits), zext(r, bits), sext(l, bits), sext(r, bits))
            }
        }
    }
}

impl AtomicRmwOp {
    /// The new memory value for `old op val` on raw bits of type `ty`.
    pub fn apply_bits(self, old: u128, val: u128, ty: IrType) -> u128 {
        let bits = ty.bits().max(8);
        let r = match self {
            AtomicRmwOp::Add => old.wrapping_add(val),
            AtomicRmwOp::Sub => old.wrapping_sub(val),
            AtomicRmwOp::And => old & val,
            AtomicRmwOp::Or => old | val,
            AtomicRmwOp::Xor => old ^ val,
            AtomicRmwOp::Nand => !(old & val),
            AtomicRmwOp::Xchg => val,
            AtomicRmwOp::TestAndSet => 1,
        };
        zext(r, bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for op in IrBinOp::ALL {
            assert_eq!(IrBinOp::from_name(op.name()), Some(*op));
        }
        for op in IrCmpOp::ALL {
            assert_eq!(IrCmpOp::from_name(op.name()), Some(*op));
        }
        for op in IrUnaryOp::ALL {
            assert_eq!(IrUnaryOp::from_name(op.name()), Some(*op));
        }
    }

    #[test]
    fn integer_traps() {
        let m = 0x8000_0000u128;
        assert_eq!(
            IrBinOp::SDiv.eval_bits(m, 0xffff_ffff, IrType::I32),
            Err(EvalTrap::DivOverflow)
        );
        assert_eq!(
            IrBinOp::SRem.eval_bits(m, 0xffff_ffff, IrType::I32),
            Err(EvalTrap::DivOverflow)
        );
        // The same bits as u32 divide fine.
        assert_eq!(IrBinOp::UDiv.eval_bits(m, 0xffff_ffff, IrType::U32), Ok(0));
        assert_eq!(IrBinOp::URem.eval_bits(5, 0, IrType::U8), Err(EvalTrap::DivByZero));
        assert_eq!(IrBinOp::Shl.eval_bits(1, 32, IrType::I32), Err(EvalTrap::ShiftTooLarge));
        assert_eq!(IrBinOp::Shl.eval_bits(1, 31, IrType::I32), Ok(m));
        assert_eq!(IrBinOp::Shl.eval_bits(1, 100, IrType::I128), Ok(1u128 << 100));
    }

    #[test]
    fn arithmetic_wraps_at_the_type_width() {
        assert_eq!(IrBinOp::Add.eval_bits(0xff, 1, IrType::U8), Ok(0));
        assert_eq!(IrBinOp::Mul.eval_bits(0x7fff, 2, IrType::I16), Ok(0xfffe));
        assert_eq!(IrBinOp::AShr.eval_bits(0x80, 7, IrType::I8), Ok(0xff));
        assert_eq!(IrBinOp::LShr.eval_bits(0x80, 7, IrType::I8), Ok(1));
        assert_eq!(IrBinOp::SDiv.eval_bits(0xf9, 2, IrType::I8), Ok(0xfd)); // -7/2 = -3
        assert_eq!(IrBinOp::SRem.eval_bits(0xf9, 2, IrType::I8), Ok(0xff)); // -7%2 = -1
        assert_eq!(IrBinOp::eval_i64(IrBinOp::SDiv, i64::MIN, -1), Some(i64::MIN));
        assert_eq!(IrBinOp::eval_i64(IrBinOp::SRem, 1, 0), None);
    }

    #[test]
    fn comparisons_by_signedness_and_float() {
        assert!(IrCmpOp::Slt.eval_bits(0xff, 1, IrType::I8));
        assert!(!IrCmpOp::Ult.eval_bits(0xff, 1, IrType::I8));
        assert!(IrCmpOp::Ult.eval_i64(1, -1));
        assert!(!IrCmpOp::Slt.eval_i64(1, -1));
        let nan = f64::NAN.to_bits() as u128;
        assert!(IrCmpOp::Ne.eval_bits(nan, nan, IrType::F64));
        assert!(!IrCmpOp::Eq.eval_bits(nan, nan, IrType::F64));
    }

    #[test]
    fn unary_ops() {
        assert_eq!(IrUnaryOp::Clz.eval_bits(1, IrType::I32), 31);
        assert_eq!(IrUnaryOp::Ctz.eval_bits(8, IrType::U16), 3);
        assert_eq!(IrUnaryOp::Bswap.eval_bits(0x1234, IrType::U16), 0x3412);
        assert_eq!(IrUnaryOp::Popcount.eval_bits(0xff, IrType::I64), 8);
        assert_eq!(IrUnaryOp::Neg.eval_bits(1, IrType::I8), 0xff);
        assert_eq!(IrUnaryOp::Not.eval_bits(0, IrType::U16), 0xffff);
    }
}
