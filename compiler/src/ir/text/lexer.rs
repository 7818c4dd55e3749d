//! Tokenizer of the textual IR: turns the source into a flat token list with
//! 1-based line and column positions (columns count characters).
//!
//! The format is line-oriented: a newline is a token, because an instruction
//! or top-level item ends at the end of its line. Comments (`;` to the end of
//! the line) are dropped. Constants are decoded here (`5i32`, `-0.0f64`,
//! `f64:0x7ff8000000000000`, `f128:0x..:0x..`); bare integers (`size 4`,
//! switch case values) stay as sign plus magnitude for the parser to range-check.
//! Strings are decoded to raw code units so the same literal syntax serves
//! narrow strings (chars), `wchar_t` strings (u32) and `char16_t` strings (u16).

use super::ParseError;
use crate::ir::constants::{f64_to_f128_bytes, IrConst};

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Newline,
    /// A word: keyword, type, op name, block label `bbN`, C label name.
    Ident(String),
    /// `%N`.
    Value(u32),
    /// `@name` or `@"name"`.
    Symbol(String),
    /// `"..."` decoded to code units (not yet checked to be chars).
    Str(Vec<u32>),
    /// A bare integer: sign and magnitude.
    Int {
        neg: bool,
        mag: u128,
    },
    /// A typed constant.
    Const(IrConst),
    /// One of `= , ( ) [ ] { } : * + -`.
    Punct(char),
    /// `->`.
    Arrow,
    /// `...`.
    Ellipsis,
    Eof,
}

impl Tok {
    /// How the token is named in "expected X, found Y" messages.
    pub(super) fn describe(&self) -> String {
        match self {
            Tok::Newline => "end of line".into(),
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Value(v) => format!("value %{v}"),
            Tok::Symbol(s) => format!("symbol @{}", super::printer::symbol_text(s).trim_start_matches('@')),
            Tok::Str(_) => "string literal".into(),
            Tok::Int { neg, mag } => format!("integer {}{}", if *neg { "-" } else { "" }, mag),
            Tok::Const(c) => format!("constant {}", super::printer::const_text(c)),
            Tok::Punct(c) => format!("'{c}'"),
            Tok::Arrow => "'->'".into(),
            Tok::Ellipsis => "'...'".into(),
            Tok::Eof => "end of input".into(),
        }
    }
}

/// A token with its position.
#[derive(Clone, Debug)]
pub(super) struct Spanned {
    pub tok: Tok,
    pub line: usize,
    pub col: usize,
}

/// Characters allowed in an unquoted symbol name after `@`.
pub(super) fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$'
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    col: usize,
}

impl Lexer<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn err(&self, line: usize, col: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }

    fn take_while(&mut self, pred: impl Fn(char) -> bool) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if !pred(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// The body of a `"..."` literal, opening quote already consumed.
    fn string_body(&mut self, line: usize, col: usize) -> Result<Vec<u32>, ParseError> {
        let mut units = Vec::new();
        loop {
            let (l, c) = (self.line, self.col);
            match self.bump() {
                None | Some('\n') => return Err(self.err(line, col, "unterminated string literal")),
                Some('"') => return Ok(units),
                Some('\\') => {
                    let unit = match self.bump() {
                        Some('n') => 10,
                        Some('t') => 9,
                        Some('r') => 13,
                        Some('0') => 0,
                        Some('\\') => '\\' as u32,
                        Some('"') => '"' as u32,
                        Some('x') => {
                            let h = self.take_n_hex(2);
                            if h.len() != 2 {
                                return Err(self.err(l, c, "expected two hex digits after '\\x'"));
                            }
                            u32::from_str_radix(&h, 16).map_err(|_| self.err(l, c, "bad '\\x' escape"))?
                        }
                        Some('u') => {
                            if self.bump() != Some('{') {
                                return Err(self.err(l, c, "expected '{' after '\\u'"));
                            }
                            let h = self.take_while(|c| c.is_ascii_hexdigit());
                            if self.bump() != Some('}') || h.is_empty() || h.len() > 8 {
                                return Err(self.err(l, c, "expected 1 to 8 hex digits and '}' in '\\u{...}'"));
                            }
                            u32::from_str_radix(&h, 16).map_err(|_| self.err(l, c, "bad '\\u' escape"))?
                        }
                        _ => {
                            return Err(self.err(
                                l,
                                c,
                                "unknown escape (expected \\n \\t \\r \\0 \\\\ \\\" \\xHH \\u{H})",
                            ))
                        }
                    };
                    units.push(unit)
                }
                Some(ch) => units.push(ch as u32),
            }
        }
    }

    fn take_n_hex(&mut self, n: usize) -> String {
        let mut s = String::new();
        while s.len() < n {
            match self.peek() {
                Some(c) if c.is_ascii_hexdigit() => {
                    s.push(c);
                    self.bump();
                }
                _ => break,
            }
        }
        s
    }

    /// `0x` plus hex digits, as a u128 (after `f32:` and friends).
    fn hex_u128(&mut self, line: usize, col: usize) -> Result<u128, ParseError> {
        let word = self.take_while(|c| c.is_ascii_alphanumeric());
        let digits = word
            .strip_prefix("0x")
            .ok_or_else(|| self.err(line, col, "expected '0x' and hex digits in a float bit pattern"))?;
        if digits.is_empty() || digits.len() > 32 {
            return Err(self.err(line, col, "expected 1 to 32 hex digits in a float bit pattern"));
        }
        u128::from_str_radix(digits, 16).map_err(|_| self.err(line, col, "invalid hex digits in a float bit pattern"))
    }

    /// `f32:0xBITS`, `f64:0xBITS` or `f128:0xF64BITS:0xBINARY128`, the type
    /// word already consumed and the next char being ':'.
    fn float_bits(&mut self, ty: &str, line: usize, col: usize) -> Result<IrConst, ParseError> {
        self.bump();
        let bits = self.hex_u128(line, col)?;
        let too_wide = |w: u32| bits >> w != 0;
        match ty {
            "f32" if !too_wide(32) => Ok(IrConst::F32(f32::from_bits(bits as u32))),
            "f64" if !too_wide(64) => Ok(IrConst::F64(f64::from_bits(bits as u64))),
            "f128" if !too_wide(64) => {
                if self.peek() != Some(':') {
                    return Err(self.err(line, col, "expected ':0x<binary128 hex>' after the f64 bits of f128"));
                }
                self.bump();
                let q = self.hex_u128(line, col)?;
                Ok(IrConst::LongDouble(f64::from_bits(bits as u64), q.to_le_bytes()))
            }
            _ => Err(self.err(line, col, format!("bit pattern too wide for {ty}"))),
        }
    }

    /// A numeric token starting at a digit or a '-' followed by a digit.
    fn number(&mut self, line: usize, col: usize) -> Result<Tok, ParseError> {
        let mut text = String::new();
        if self.peek() == Some('-') {
            text.push('-');
            self.bump();
        }
        while let Some(c) = self.peek() {
            let exp_sign = (c == '-' || c == '+') && text.ends_with(['e', 'E']) && !text.contains(['x', 'X']);
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' || exp_sign {
                text.push(c);
                self.bump();
            } else {
                break;
            }
        }
        let (neg, body) = match text.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, text.as_str()),
        };
        if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
            let mag = body
                .parse::<u128>()
                .map_err(|_| self.err(line, col, "integer literal too large"))?;
            return Ok(Tok::Int { neg, mag });
        }
        parse_suffixed(&text)
            .map(Tok::Const)
            .map_err(|m| self.err(line, col, m))
    }

    fn next_token(&mut self) -> Result<Option<Spanned>, ParseError> {
        loop {
            match self.peek() {
                Some(' ') | Some('\t') | Some('\r') => {
                    self.bump();
                }
                Some(';') => {
                    self.take_while(|c| c != '\n');
                }
                _ => break,
            }
        }
        let (line, col) = (self.line, self.col);
        let Some(c) = self.peek() else { return Ok(None) };
        let tok = match c {
            '\n' => {
                self.bump();
                Tok::Newline
            }
            '%' => {
                self.bump();
                let digits = self.take_while(|c| c.is_ascii_digit());
                if digits.is_empty() {
                    return Err(self.err(line, col, "expected a value number after '%'"));
                }
                Tok::Value(
                    digits
                        .parse::<u32>()
                        .map_err(|_| self.err(line, col, "value number does not fit in 32 bits"))?,
                )
            }
            '@' => {
                self.bump();
                if self.peek() == Some('"') {
                    self.bump();
                    let units = self.string_body(line, col)?;
                    Tok::Symbol(units_to_string(&units).ok_or_else(|| self.err(line, col, "invalid char in symbol"))?)
                } else {
                    let name = self.take_while(is_symbol_char);
                    if name.is_empty() {
                        return Err(self.err(line, col, "expected a symbol name or a quoted name after '@'"));
                    }
                    Tok::Symbol(name)
                }
            }
            '"' => {
                self.bump();
                Tok::Str(self.string_body(line, col)?)
            }
            '-' => {
                let mut probe = self.chars.clone();
                probe.next();
                match probe.next() {
                    Some(d) if d.is_ascii_digit() => self.number(line, col)?,
                    Some('>') => {
                        self.bump();
                        self.bump();
                        Tok::Arrow
                    }
                    _ => {
                        self.bump();
                        Tok::Punct('-')
                    }
                }
            }
            '.' if self.dots() => Tok::Ellipsis,
            c if c.is_ascii_digit() => self.number(line, col)?,
            c if is_ident_start(c) => {
                let word = self.take_while(is_symbol_char);
                if matches!(word.as_str(), "f32" | "f64" | "f128") && self.peek() == Some(':') {
                    Tok::Const(self.float_bits(&word, line, col)?)
                } else {
                    Tok::Ident(word)
                }
            }
            '=' | ',' | '(' | ')' | '[' | ']' | '{' | '}' | ':' | '*' | '+' => {
                self.bump();
                Tok::Punct(c)
            }
            other => return Err(self.err(line, col, format!("unexpected character {other:?}"))),
        };
        Ok(Some(Spanned { tok, line, col }))
    }

    /// Consumes `...` when the input continues with exactly three dots.
    fn dots(&mut self) -> bool {
        let mut probe = self.chars.clone();
        let three = probe.next() == Some('.') && probe.next() == Some('.') && probe.next() == Some('.');
        if three {
            for _ in 0..3 {
                self.bump();
            }
        }
        three
    }
}

/// Code units to a Rust string; `None` when a unit is not a char.
pub(super) fn units_to_string(units: &[u32]) -> Option<String> {
    units.iter().map(|&u| char::from_u32(u)).collect()
}

/// A suffixed constant: `5i32`, `-1i8`, `1.5f64`, `1e-7f32`, `2.0f128`.
fn parse_suffixed(text: &str) -> Result<IrConst, String> {
    const SUFFIXES: [&str; 8] = ["i128", "i16", "i32", "i64", "i8", "f128", "f32", "f64"];
    let Some(suffix) = SUFFIXES.iter().find(|s| text.ends_with(*s)) else {
        return Err(format!(
            "invalid number '{text}' (a constant needs a type suffix i8 i16 i32 i64 i128 f32 f64 f128)"
        ));
    };
    let num = &text[..text.len() - suffix.len()];
    let bad = || format!("invalid {suffix} constant '{text}'");
    if suffix.starts_with('i') {
        // Signed decimal; an unsigned spelling in range of the width is its bit pattern.
        let (neg, digits) = match num.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, num),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let mag: u128 = digits.parse().map_err(|_| bad())?;
        let bits: u32 = suffix.trim_start_matches('i').parse().map_err(|_| bad())?;
        let min_mag = 1u128 << (bits - 1); // |MIN|
        let max_unsigned = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
        if (neg && mag > min_mag) || (!neg && mag > max_unsigned) {
            return Err(format!("{suffix} constant '{text}' out of range"));
        }
        let v = if neg { 0u128.wrapping_sub(mag) } else { mag };
        return Ok(match bits {
            8 => IrConst::I8(v as i8),
            16 => IrConst::I16(v as i16),
            32 => IrConst::I32(v as i32),
            64 => IrConst::I64(v as i64),
            _ => IrConst::I128(v as i128),
        });
    }
    // Decimal float: digits, optional fraction and exponent; no "inf"/"nan" words.
    if !num.bytes().any(|b| b.is_ascii_digit())
        || !num
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
    {
        return Err(bad());
    }
    match *suffix {
        "f32" => num.parse::<f32>().map(IrConst::F32).map_err(|_| bad()),
        "f64" => num.parse::<f64>().map(IrConst::F64).map_err(|_| bad()),
        _ => num
            .parse::<f64>()
            .map(|v| IrConst::LongDouble(v, f64_to_f128_bytes(v)))
            .map_err(|_| bad()),
    }
}

/// Tokenizes the whole input; the list always ends with `Eof`.
pub(super) fn tokenize(src: &str) -> Result<Vec<Spanned>, ParseError> {
    let mut lx = Lexer {
        chars: src.chars().peekable(),
        line: 1,
        col: 1,
    };
    let mut out = Vec::new();
    while let Some(t) = lx.next_token()? {
        out.push(t);
    }
    out.push(Spanned {
        tok: Tok::Eof,
        line: lx.line,
        col: lx.col,
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokenize(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn constants_decode_with_their_variant() {
        assert_eq!(
            toks("5i32 -1i8 255i8")[..3],
            [
                Tok::Const(IrConst::I32(5)),
                Tok::Const(IrConst::I8(-1)),
                Tok::Const(IrConst::I8(-1))
            ]
        );
        assert_eq!(toks("1e-7f32")[0], Tok::Const(IrConst::F32(1e-7)));
        assert_eq!(
            toks("f64:0x7ff8000000000001")[0],
            Tok::Const(IrConst::F64(f64::from_bits(0x7ff8000000000001)))
        );
        assert_eq!(
            toks("-170141183460469231731687303715884105728i128")[0],
            Tok::Const(IrConst::I128(i128::MIN))
        );
        assert_eq!(toks("-3")[0], Tok::Int { neg: true, mag: 3 });
    }

    #[test]
    fn punctuation_and_positions() {
        let t = tokenize("a -> b ...\n  %3 ; comment\n@\"x y\"").unwrap();
        let kinds: Vec<_> = t.iter().map(|s| s.tok.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                Tok::Ident("a".into()),
                Tok::Arrow,
                Tok::Ident("b".into()),
                Tok::Ellipsis,
                Tok::Newline,
                Tok::Value(3),
                Tok::Newline,
                Tok::Symbol("x y".into()),
                Tok::Eof
            ]
        );
        assert_eq!((t[5].line, t[5].col), (2, 3));
    }

    #[test]
    fn lexical_errors_have_positions() {
        let e = tokenize("ok\n  \"abc").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert!(e.message.contains("unterminated"));
        assert!(tokenize("256i8").unwrap_err().message.contains("out of range"));
        assert!(tokenize("1.5").unwrap_err().message.contains("type suffix"));
        assert!(tokenize("%x").is_err());
        assert!(tokenize("f64:0x1ffffffffffffffff").is_err());
    }
}
