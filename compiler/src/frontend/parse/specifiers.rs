//! Type specifiers (C11 6.7.2): counting the keywords of a specifier list and
//! resolving the multiset to one base type per 6.7.2p2 (`long unsigned long
//! int` is `unsigned long long`), with GNU `__int128` and `__float128`.

use super::super::ast::BaseType;
use super::super::source::{Diagnostic, PResult, Span};

/// Counts of the type-specifier keywords seen (6.7.2p2 lists the valid multisets).
#[derive(Default)]
pub(super) struct SpecCount {
    pub(super) void: u32,
    pub(super) bool_: u32,
    pub(super) char: u32,
    pub(super) short: u32,
    pub(super) int: u32,
    pub(super) long: u32,
    pub(super) float: u32,
    pub(super) double: u32,
    pub(super) signed: u32,
    pub(super) unsigned: u32,
    pub(super) int128: u32,
    pub(super) complex: u32,
    pub(super) float128: u32,
    /// A struct/union/enum/typedef/typeof/va_list/_Atomic() specifier.
    pub(super) other: Option<BaseType>,
}

impl SpecCount {
    pub(super) fn any(&self) -> bool {
        self.void
            + self.bool_
            + self.char
            + self.short
            + self.int
            + self.long
            + self.float
            + self.double
            + self.signed
            + self.unsigned
            + self.int128
            + self.complex
            + self.float128
            > 0
            || self.other.is_some()
    }

    /// The base type; `_Complex` wraps the real type it is combined with
    /// (`_Complex` alone is `_Complex double`, and GNU allows integer types).
    pub(super) fn resolve(mut self, span: Span, implicit_int: bool) -> PResult<BaseType> {
        let complex = std::mem::take(&mut self.complex);
        if complex > 1 {
            return Err(Diagnostic::error(span, "duplicate '_Complex'"));
        }
        if complex == 1 {
            if self.other.is_some() {
                return Err(Diagnostic::error(
                    span,
                    "two or more data types in declaration specifiers",
                ));
            }
            if !self.any() {
                return Ok(BaseType::Complex(Box::new(BaseType::Double)));
            }
            let t = self.resolve(span, false)?;
            if matches!(t, BaseType::Void | BaseType::Bool) {
                return Err(Diagnostic::error(
                    span,
                    "invalid use of '_Complex' with a non-arithmetic type",
                ));
            }
            return Ok(BaseType::Complex(Box::new(t)));
        }
        let err = || Diagnostic::error(span, "invalid combination of type specifiers");
        if self.signed > 1 || self.unsigned > 1 || self.signed + self.unsigned > 1 || self.long > 2 {
            return Err(err());
        }
        let basic = self.void
            + self.bool_
            + self.char
            + self.short
            + self.int
            + self.long
            + self.float
            + self.double
            + self.signed
            + self.unsigned
            + self.int128
            + self.complex
            + self.float128;
        if let Some(o) = self.other {
            if basic > 0 {
                return Err(Diagnostic::error(
                    span,
                    "two or more data types in declaration specifiers",
                ));
            }
            return Ok(o);
        }
        if basic == 0 {
            return if implicit_int { Ok(BaseType::Int) } else { Err(err()) };
        }
        let u = self.unsigned == 1;
        let sign_ok = self.void + self.bool_ + self.float + self.double + self.float128 + self.complex == 0;
        if (self.signed + self.unsigned) > 0 && !sign_ok {
            return Err(err());
        }
        let one = |n: u32| n == basic;
        let with_sign = |n: u32| n + self.signed + self.unsigned == basic;
        let ty = if self.void == 1 && one(1) {
            BaseType::Void
        } else if self.bool_ == 1 && one(1) {
            BaseType::Bool
        } else if self.char == 1 && with_sign(1) {
            if self.signed == 1 {
                BaseType::SChar
            } else if u {
                BaseType::UChar
            } else {
                BaseType::Char
            }
        } else if self.short == 1 && with_sign(1 + self.int) && self.int <= 1 {
            if u {
                BaseType::UShort
            } else {
                BaseType::Short
            }
        } else if self.long == 1 && self.double == 1 && one(2) {
            BaseType::LongDouble
        } else if self.long >= 1 && with_sign(self.long + self.int) && self.int <= 1 {
            match (self.long, u) {
                (1, false) => BaseType::Long,
                (1, true) => BaseType::ULong,
                (_, false) => BaseType::LongLong,
                (_, true) => BaseType::ULongLong,
            }
        } else if self.int128 == 1 && with_sign(1) {
            if u {
                BaseType::UInt128
            } else {
                BaseType::Int128
            }
        } else if self.int <= 1 && with_sign(self.int) {
            if u {
                BaseType::UInt
            } else {
                BaseType::Int
            }
        } else if self.float == 1 && one(1) {
            BaseType::Float
        } else if self.double == 1 && self.long <= 1 && one(1 + self.long) {
            if self.long == 1 {
                BaseType::LongDouble
            } else {
                BaseType::Double
            }
        } else if self.float128 == 1 && one(1) {
            BaseType::Float128
        } else {
            return Err(err());
        };
        Ok(ty)
    }
}
