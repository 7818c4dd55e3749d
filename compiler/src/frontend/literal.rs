//! Values of literals: integer constants (C11 6.4.4.1) with their type from
//! the suffix and magnitude table, floating constants (6.4.4.2, decimal and
//! hexadecimal), character constants (6.4.4.4) and string literals (6.4.5)
//! with the prefixes `L`, `u`, `U`, `u8` and every escape sequence (simple,
//! octal, hex, `\u`/`\U` universal character names, GNU `\e`).
//!
//! All three targets are LP64 with a 32-bit `wchar_t`, so the tables here do
//! not depend on the target; the signedness of plain `char` and of `wchar_t`
//! does, and is applied by the caller.

use super::source::{Diagnostic, PResult, Span};
use crate::binary128::{parse_f32, parse_f64, Binary128, Format};
use crate::target::LongDoubleFormat;

/// The type an integer constant gets (C11 6.4.4.1p5, LP64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntLitType {
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
}

/// A parsed integer constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLit {
    pub value: u64,
    pub ty: IntLitType,
}

/// The suffix of a floating constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    None,
    F,
    L,
}

/// A parsed floating constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatLit {
    /// The value rounded to the literal's type (`float`: an exact `f32`);
    /// for `long double`, the nearest `f64`.
    pub value: f64,
    pub suffix: FloatSuffix,
    /// For `long double` (suffix `L`): the exact value in each target's
    /// format, since literals do not depend on the target.
    pub long_double: Option<LongDoubleLit>,
}

/// A `long double` literal rounded to each `long double` format, both in
/// the binary128 layout ([`crate::binary128`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LongDoubleLit {
    /// Rounded to 64 significant bits (x86-64's x87 extended).
    pub x87: Binary128,
    /// Rounded to 113 significant bits (AArch64, RISC-V 64).
    pub binary128: Binary128,
}

impl LongDoubleLit {
    /// The value in `format`.
    pub fn get(&self, format: LongDoubleFormat) -> Binary128 {
        match format {
            LongDoubleFormat::X87 => self.x87,
            LongDoubleFormat::Binary128 => self.binary128,
        }
    }
}

/// A numeric constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumLit {
    Int(IntLit),
    Float(FloatLit),
}

/// Encoding prefix of a character constant or string literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefix {
    None,
    U8,
    /// `L`: `wchar_t`, 32 bits.
    Wide,
    /// `u`: `char16_t`.
    Utf16,
    /// `U`: `char32_t`.
    Utf32,
}

impl Prefix {
    /// Size in bytes of one element.
    pub fn unit_size(self) -> u32 {
        match self {
            Prefix::None | Prefix::U8 => 1,
            Prefix::Utf16 => 2,
            Prefix::Wide | Prefix::Utf32 => 4,
        }
    }
}

/// Parses a pp-number as an integer or floating constant.
pub fn parse_number(text: &[u8], span: Span) -> PResult<NumLit> {
    if let Some(i) = quick_int(text) {
        return Ok(NumLit::Int(i));
    }
    let s = std::str::from_utf8(text).map_err(|_| Diagnostic::error(span, "invalid numeric constant"))?;
    // Lower-cased on the stack when short (nearly every constant).
    let mut buf = [0u8; 48];
    let heap;
    let lower: &str = match buf.get_mut(..s.len()) {
        Some(b) => {
            b.copy_from_slice(s.as_bytes());
            b.make_ascii_lowercase();
            std::str::from_utf8(b).map_err(|_| Diagnostic::error(span, "invalid numeric constant"))?
        }
        None => {
            heap = s.to_ascii_lowercase();
            &heap
        }
    };
    let is_hex = lower.starts_with("0x");
    let is_float = if is_hex {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    };
    if is_float {
        parse_float(lower, is_hex, span).map(NumLit::Float)
    } else {
        parse_int(lower, span).map(NumLit::Int)
    }
}

/// Parses a pp-number that may carry GNU's imaginary suffix (`i` or `j`,
/// before or after the other suffix letters: `2.0i`, `1.5fi`, `3iL`, `4i`):
/// the constant and whether it is imaginary.
pub fn parse_number_imaginary(text: &[u8], span: Span) -> PResult<(NumLit, bool)> {
    if let Some(i) = quick_int(text) {
        return Ok((NumLit::Int(i), false));
    }
    let is_hex = text.len() > 1 && text[0] == b'0' && matches!(text[1], b'x' | b'X');
    // `i` and `j` are neither digits nor other suffixes, even in hex.
    let pos = text.iter().rposition(|&b| matches!(b, b'i' | b'I' | b'j' | b'J'));
    match pos {
        Some(p) if p > 0 && !(is_hex && p == 1) => {
            let mut rest = text[..p].to_vec();
            rest.extend_from_slice(&text[p + 1..]);
            Ok((parse_number(&rest, span)?, true))
        }
        _ => Ok((parse_number(text, span)?, false)),
    }
}

/// The common integer constant (decimal, octal or hexadecimal digits, then
/// only `u`/`l` suffix letters) read straight from its bytes. Anything else
/// (floats, binary, imaginary, overflow, bad digits or suffixes) is `None`
/// and goes the general way, which gives the same value or the diagnostic:
/// programs are mostly integer constants, and the general path costs a few
/// hundred instructions each.
fn quick_int(text: &[u8]) -> Option<IntLit> {
    let (radix, start) = match text {
        [b'0', b'x' | b'X', ..] => (16u64, 2),
        [b'0', ..] => (8, 0),
        _ => (10, 0),
    };
    let mut value: u64 = 0;
    let mut i = start;
    while let Some(&b) = text.get(i) {
        let d = match b {
            b'0'..=b'9' => (b - b'0') as u64,
            b'a'..=b'f' => (b - b'a' + 10) as u64,
            b'A'..=b'F' => (b - b'A' + 10) as u64,
            _ => break,
        };
        if d >= radix {
            break;
        }
        value = value.checked_mul(radix)?.checked_add(d)?;
        i += 1;
    }
    if i == start {
        return None;
    }
    let mut unsigned = false;
    let mut longs = 0;
    let suffix = &text[i..];
    if suffix.len() > 3 {
        return None;
    }
    // Byte by byte: a slice copy of unknown length is a `memcpy` call.
    let mut lower = [0u8; 3];
    for (l, &b) in lower.iter_mut().zip(suffix) {
        *l = b.to_ascii_lowercase();
    }
    match &lower[..suffix.len()] {
        b"" => {}
        b"u" => unsigned = true,
        b"l" => longs = 1,
        b"ul" | b"lu" => (unsigned, longs) = (true, 1),
        b"ll" => longs = 2,
        b"ull" | b"llu" => (unsigned, longs) = (true, 2),
        _ => return None,
    }
    Some(IntLit {
        value,
        ty: int_lit_type(value, unsigned, longs, radix == 10),
    })
}

fn parse_int(s: &str, span: Span) -> PResult<IntLit> {
    let bad = || Diagnostic::error(span, format!("invalid integer constant '{s}'"));
    let (digits_start, radix) = if s.starts_with("0x") {
        (2, 16)
    } else if s.starts_with("0b") {
        (2, 2)
    } else if s.starts_with('0') {
        (0, 8)
    } else {
        (0, 10)
    };
    let body = &s[digits_start..];
    let end = body.find(|c: char| !c.is_digit(radix)).unwrap_or(body.len());
    let (digits, suffix) = body.split_at(end);
    if digits.is_empty() && radix != 8 {
        return Err(bad());
    }
    let mut value: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix).ok_or_else(bad)? as u64;
        value = value
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(d))
            .ok_or_else(|| Diagnostic::error(span, "integer constant is too large for its type"))?;
    }
    let (unsigned, longs) = match suffix {
        "" => (false, 0),
        "u" => (true, 0),
        "l" => (false, 1),
        "ul" | "lu" => (true, 1),
        "ll" => (false, 2),
        "ull" | "llu" => (true, 2),
        _ => return Err(bad()),
    };
    Ok(IntLit {
        value,
        ty: int_lit_type(value, unsigned, longs, radix == 10),
    })
}

/// The type of an integer constant from its suffix and magnitude (6.4.4.1p5).
fn int_lit_type(value: u64, unsigned: bool, longs: u8, decimal: bool) -> IntLitType {
    use IntLitType::*;
    let candidates: &[IntLitType] = match (unsigned, longs, decimal) {
        (false, 0, true) => &[Int, Long, LongLong],
        (false, 0, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
        (true, 0, _) => &[UInt, ULong, ULongLong],
        (false, 1, true) => &[Long, LongLong],
        (false, 1, false) => &[Long, ULong, LongLong, ULongLong],
        (true, 1, _) => &[ULong, ULongLong],
        (false, _, true) => &[LongLong],
        (false, _, false) => &[LongLong, ULongLong],
        (true, _, _) => &[ULongLong],
    };
    let fits = |t: IntLitType| match t {
        Int => value <= i32::MAX as u64,
        UInt => value <= u32::MAX as u64,
        Long | LongLong => value <= i64::MAX as u64,
        ULong | ULongLong => true,
    };
    // A decimal constant too large for every signed candidate becomes unsigned
    // (a gcc extension, with a warning there).
    candidates
        .iter()
        .copied()
        .find(|&t| fits(t))
        .unwrap_or(if longs == 2 { ULongLong } else { ULong })
}

fn parse_float(s: &str, is_hex: bool, span: Span) -> PResult<FloatLit> {
    let bad = || Diagnostic::error(span, format!("invalid floating constant '{s}'"));
    // In a hex constant an `f` before the `p` exponent is a digit, not a suffix.
    let (body, suffix) = match (s.strip_suffix('f'), s.strip_suffix('l')) {
        (Some(b), _) if !is_hex || s.contains('p') => (b, FloatSuffix::F),
        (_, Some(b)) => (b, FloatSuffix::L),
        _ => (s, FloatSuffix::None),
    };
    if !is_hex
        && !body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'+' | b'-'))
    {
        return Err(bad());
    }
    // Each type's value is the literal rounded once to that type (C11 6.4.4.2p3).
    Ok(match suffix {
        FloatSuffix::F => FloatLit {
            value: parse_f32(body).ok_or_else(bad)? as f64,
            suffix,
            long_double: None,
        },
        FloatSuffix::None => FloatLit {
            value: parse_f64(body).ok_or_else(bad)?,
            suffix,
            long_double: None,
        },
        FloatSuffix::L => {
            let x87 = Binary128::parse(body, Format::X87).ok_or_else(bad)?;
            let binary128 = Binary128::parse(body, Format::BINARY128).ok_or_else(bad)?;
            FloatLit {
                value: binary128.to_f64(),
                suffix,
                long_double: Some(LongDoubleLit { x87, binary128 }),
            }
        }
    })
}

/// Splits a char/string token into its prefix and the text between the quotes.
fn split_prefix(text: &[u8]) -> (Prefix, &[u8]) {
    let (p, rest) = if let Some(r) = text.strip_prefix(b"u8") {
        (Prefix::U8, r)
    } else if let Some(r) = text.strip_prefix(b"L") {
        (Prefix::Wide, r)
    } else if let Some(r) = text.strip_prefix(b"u") {
        (Prefix::Utf16, r)
    } else if let Some(r) = text.strip_prefix(b"U") {
        (Prefix::Utf32, r)
    } else {
        (Prefix::None, text)
    };
    let inner = if rest.len() >= 2 {
        &rest[1..rest.len() - 1]
    } else {
        &[][..]
    };
    (p, inner)
}

/// Decodes the body of a literal into code points (for narrow literals: bytes,
/// with UCNs and non-ASCII source characters as their UTF-8 bytes).
fn decode_body(body: &[u8], prefix: Prefix, span: Span) -> PResult<Vec<u32>> {
    let narrow = prefix.unit_size() == 1;
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    let push_cp = |out: &mut Vec<u32>, cp: u32| {
        if narrow {
            let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
            let mut buf = [0u8; 4];
            out.extend(ch.encode_utf8(&mut buf).bytes().map(|b| b as u32));
        } else {
            out.push(cp);
        }
    };
    while i < body.len() {
        let c = body[i];
        if c != b'\\' {
            if c < 0x80 || narrow {
                out.push(c as u32);
                i += 1;
            } else {
                // A UTF-8 source character in a wide literal: one code point.
                let len = match c {
                    0xc0..=0xdf => 2,
                    0xe0..=0xef => 3,
                    0xf0..=0xf7 => 4,
                    _ => 1,
                };
                let end = (i + len).min(body.len());
                match std::str::from_utf8(&body[i..end]).ok().and_then(|s| s.chars().next()) {
                    Some(ch) => out.push(ch as u32),
                    None => out.push(c as u32),
                }
                i = end;
            }
            continue;
        }
        i += 1;
        let Some(&e) = body.get(i) else {
            return Err(Diagnostic::error(span, "incomplete escape sequence"));
        };
        i += 1;
        let v = match e {
            b'n' => 10,
            b't' => 9,
            b'v' => 11,
            b'b' => 8,
            b'r' => 13,
            b'f' => 12,
            b'a' => 7,
            b'e' | b'E' => 27,
            b'\\' | b'\'' | b'"' | b'?' => e as u32,
            b'0'..=b'7' => {
                let mut v = (e - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < body.len() && (b'0'..=b'7').contains(&body[i]) {
                    v = v * 8 + (body[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                v
            }
            b'x' => {
                let start = i;
                let mut v: u32 = 0;
                while i < body.len() && body[i].is_ascii_hexdigit() {
                    v = v.wrapping_shl(4) | (body[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                if i == start {
                    return Err(Diagnostic::error(span, "\\x used with no following hex digits"));
                }
                v
            }
            b'u' | b'U' => {
                let n = if e == b'u' { 4 } else { 8 };
                let digits = body.get(i..i + n).filter(|d| d.iter().all(|b| b.is_ascii_hexdigit()));
                let Some(digits) = digits else {
                    return Err(Diagnostic::error(span, "incomplete universal character name"));
                };
                let cp = u32::from_str_radix(std::str::from_utf8(digits).unwrap_or("0"), 16).unwrap_or(0);
                i += n;
                push_cp(&mut out, cp);
                continue;
            }
            _ => {
                return Err(Diagnostic::error(
                    span,
                    format!("unknown escape sequence '\\{}'", String::from_utf8_lossy(&[e])),
                ))
            }
        };
        // Octal and hex escapes give a unit value directly; truncate to the unit width.
        let v = match prefix.unit_size() {
            1 => v & 0xff,
            2 => v & 0xffff,
            _ => v,
        };
        out.push(v);
    }
    if prefix == Prefix::Utf16 {
        // Code points above the BMP become surrogate pairs.
        let mut units = Vec::with_capacity(out.len());
        for cp in out {
            if cp > 0xffff {
                let c = cp - 0x10000;
                units.push(0xd800 + (c >> 10));
                units.push(0xdc00 + (c & 0x3ff));
            } else {
                units.push(cp);
            }
        }
        return Ok(units);
    }
    Ok(out)
}

/// A decoded string literal: its prefix and its elements, without the terminating zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrLit {
    pub prefix: Prefix,
    pub units: Vec<u32>,
}

/// Decodes one string-literal token.
pub fn decode_string(text: &[u8], span: Span) -> PResult<StrLit> {
    let (prefix, body) = split_prefix(text);
    Ok(StrLit {
        prefix,
        units: decode_body(body, prefix, span)?,
    })
}

/// A decoded character constant. `value` is the constant's value before the
/// signedness of plain `char` is applied: for an unprefixed single character
/// the caller sign-extends from 8 bits when `char` is signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharLit {
    pub prefix: Prefix,
    pub value: i64,
    /// Number of characters (more than one: a multi-character constant, 6.4.4.4p10).
    pub count: usize,
}

/// Decodes one character-constant token.
pub fn decode_char(text: &[u8], span: Span) -> PResult<CharLit> {
    let (prefix, body) = split_prefix(text);
    let units = decode_body(body, prefix, span)?;
    if units.is_empty() {
        return Err(Diagnostic::error(span, "empty character constant"));
    }
    let value = match prefix {
        // gcc: the value of 'ab' is ('a' << 8) | 'b', truncated to int.
        Prefix::None | Prefix::U8 => units
            .iter()
            .fold(0i64, |acc, &u| ((acc << 8) | (u as i64 & 0xff)) & 0xffff_ffff),
        _ => *units.last().unwrap_or(&0) as i64,
    };
    Ok(CharLit {
        prefix,
        value,
        count: units.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp() -> Span {
        Span::default()
    }

    fn int(s: &str) -> IntLit {
        match parse_number(s.as_bytes(), sp()).unwrap() {
            NumLit::Int(i) => i,
            other => panic!("{s}: {other:?}"),
        }
    }

    fn float(s: &str) -> FloatLit {
        match parse_number(s.as_bytes(), sp()).unwrap() {
            NumLit::Float(f) => f,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn integer_types_follow_6_4_4_1() {
        use IntLitType::*;
        assert_eq!(int("42"), IntLit { value: 42, ty: Int });
        assert_eq!(int("2147483648").ty, Long);
        assert_eq!(int("0x80000000").ty, UInt);
        assert_eq!(int("0xffffffffffffffff").ty, ULong);
        assert_eq!(int("017").value, 15);
        assert_eq!(int("0").value, 0);
        assert_eq!(int("10u").ty, UInt);
        assert_eq!(int("10UL").ty, ULong);
        assert_eq!(int("10lu").ty, ULong);
        assert_eq!(int("10ll").ty, LongLong);
        assert_eq!(int("10LLU").ty, ULongLong);
        assert_eq!(int("0b1010").value, 10);
        assert_eq!(int("9223372036854775808").ty, ULong);
        for bad in ["09", "1x", "0x", "1lul", "18446744073709551616", "1uu"] {
            assert!(parse_number(bad.as_bytes(), sp()).is_err(), "{bad}");
        }
    }

    #[test]
    fn quick_integers_match_the_general_path() {
        // Every spelling the quick path accepts gets what the general path
        // gives; the others it leaves to the general path.
        let mut accepted = 0;
        for digits in [
            "0",
            "7",
            "017",
            "08",
            "42",
            "0x1F",
            "0XfF",
            "0x",
            "0b101",
            "2147483648",
            "4294967295",
        ] {
            for extra in ["", "0", "9", "a", "ffffffffffffffff", "99999999999999999999"] {
                for suffix in [
                    "", "u", "U", "l", "L", "ul", "uL", "LU", "ll", "lL", "ULL", "llu", "lul", "uu", "f", "i", "e3",
                    ".5",
                ] {
                    let s = format!("{digits}{extra}{suffix}");
                    if let Some(q) = quick_int(s.as_bytes()) {
                        accepted += 1;
                        let lower = s.to_ascii_lowercase();
                        assert_eq!(parse_int(&lower, sp()).ok(), Some(q), "{s}");
                    }
                }
            }
        }
        assert!(accepted > 300, "{accepted}");
        for rejected in [
            "08",
            "0x",
            "0b1",
            "1e3",
            "1.5",
            "2i",
            "1lul",
            "18446744073709551616",
            "1uu",
            "0x1p2",
        ] {
            assert_eq!(quick_int(rejected.as_bytes()), None, "{rejected}");
        }
        assert_eq!(
            quick_int(b"0xFFFFFFFFUL"),
            Some(IntLit {
                value: 0xffff_ffff,
                ty: IntLitType::ULong
            })
        );
        assert_eq!(
            quick_int(b"0x7fffffff"),
            Some(IntLit {
                value: 0x7fff_ffff,
                ty: IntLitType::Int
            })
        );
    }

    #[test]
    fn floats_decimal_and_hex() {
        assert_eq!(
            float("1.5"),
            FloatLit {
                value: 1.5,
                suffix: FloatSuffix::None,
                long_double: None
            }
        );
        assert_eq!(
            float("1e3f"),
            FloatLit {
                value: 1000.0,
                suffix: FloatSuffix::F,
                long_double: None
            }
        );
        // 0.25 is 2^-2 in both long double formats: biased exponent 0x3ffd.
        let quarter = Binary128(0x3ffd_u128 << 112);
        assert_eq!(
            float(".25L"),
            FloatLit {
                value: 0.25,
                suffix: FloatSuffix::L,
                long_double: Some(LongDoubleLit {
                    x87: quarter,
                    binary128: quarter
                })
            }
        );
        // 0.1L differs by format (gcc's bytes, x87 widened to binary128's layout).
        let tenth = float("0.1L").long_double.unwrap();
        assert_eq!(tenth.binary128.0, 0x3ffb999999999999999999999999999a);
        assert_eq!(tenth.x87.0, 0x3ffb999999999999999a000000000000);
        // A float literal is rounded once (through double it would be 1.0).
        assert_eq!(float("1.00000005960464477539062500000001f").value, 1.0000001192092896);
        assert_eq!(float("0x1.8p1").value, 3.0);
        assert_eq!(
            float("0x1p-2f"),
            FloatLit {
                value: 0.25,
                suffix: FloatSuffix::F,
                long_double: None
            }
        );
        assert_eq!(float("1.").value, 1.0);
        assert_eq!(float("1e+2").value, 100.0);
        for bad in ["1.5q", "1e", "0x1.8", "1.0ff"] {
            assert!(parse_number(bad.as_bytes(), sp()).is_err(), "{bad}");
        }
    }

    #[test]
    fn escapes_and_prefixes() {
        let s = decode_string(br#""a\n\x41\101\0\e\?\u00e9""#, sp()).unwrap();
        assert_eq!(s.prefix, Prefix::None);
        assert_eq!(s.units, vec![97, 10, 65, 65, 0, 27, 63, 0xc3, 0xa9]);
        let s = decode_string("L\"\u{e9}\\x100\"".as_bytes(), sp()).unwrap();
        assert_eq!(s.units, vec![0xe9, 0x100]);
        let s = decode_string(br#"u"\U0001F600""#, sp()).unwrap();
        assert_eq!(s.units, vec![0xd83d, 0xde00]);
        assert_eq!(decode_string(br#"u8"x""#, sp()).unwrap().prefix, Prefix::U8);
        assert!(decode_string(br#""\q""#, sp()).is_err());
        assert!(decode_string(br#""\x""#, sp()).is_err());
        assert!(decode_string(br#""\u12""#, sp()).is_err());
    }

    #[test]
    fn character_constants() {
        assert_eq!(decode_char(b"'a'", sp()).unwrap().value, 97);
        assert_eq!(decode_char(br"'\377'", sp()).unwrap().value, 255);
        assert_eq!(
            decode_char(b"'ab'", sp()).unwrap(),
            CharLit {
                prefix: Prefix::None,
                value: 0x6162,
                count: 2
            }
        );
        assert_eq!(decode_char(br"L'\x12345'", sp()).unwrap().value, 0x12345);
        assert_eq!(decode_char(br"u'\xffff'", sp()).unwrap().value, 0xffff);
        assert!(decode_char(b"''", sp()).is_err());
    }

    #[test]
    fn imaginary_suffixes_gnu() {
        let im = |s: &str| parse_number_imaginary(s.as_bytes(), sp()).unwrap();
        assert_eq!(
            im("2.0i"),
            (
                NumLit::Float(FloatLit {
                    value: 2.0,
                    suffix: FloatSuffix::None,
                    long_double: None
                }),
                true
            )
        );
        assert_eq!(
            im("1.5fi"),
            (
                NumLit::Float(FloatLit {
                    value: 1.5,
                    suffix: FloatSuffix::F,
                    long_double: None
                }),
                true
            )
        );
        assert_eq!(
            im("1.5iF"),
            (
                NumLit::Float(FloatLit {
                    value: 1.5,
                    suffix: FloatSuffix::F,
                    long_double: None
                }),
                true
            )
        );
        assert_eq!(
            im("3.0jL"),
            (
                NumLit::Float(FloatLit {
                    value: 3.0,
                    suffix: FloatSuffix::L,
                    long_double: Some(LongDoubleLit {
                        x87: Binary128(0x4000_8000_u128 << 96),
                        binary128: Binary128(0x4000_8000_u128 << 96)
                    })
                }),
                true
            )
        );
        assert_eq!(
            im("200i"),
            (
                NumLit::Int(IntLit {
                    value: 200,
                    ty: IntLitType::Int
                }),
                true
            )
        );
        assert_eq!(
            im("0x10i"),
            (
                NumLit::Int(IntLit {
                    value: 16,
                    ty: IntLitType::Int
                }),
                true
            )
        );
        assert_eq!(
            im("7u"),
            (
                NumLit::Int(IntLit {
                    value: 7,
                    ty: IntLitType::UInt
                }),
                false
            )
        );
        assert!(parse_number_imaginary(b"1.0ii", sp()).is_err());
        assert!(parse_number(b"2i", sp()).is_err());
    }
}
