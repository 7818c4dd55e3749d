//! `#if` constant expressions (C11 6.10.1): after `defined` and macro
//! expansion, every remaining identifier is 0 and the expression is evaluated
//! in `intmax_t`/`uintmax_t` (64 bits on all our targets) with the usual
//! arithmetic conversions: an operation with an unsigned operand is unsigned.
//! Precedence climbing over the C operator table; `&&`, `||` and `?:` do not
//! evaluate (so do not diagnose) their skipped operands, as gcc does.
//! GNU `__has_attribute(x)` / `__has_builtin(x)` and `defined` that appear only
//! after expansion are answered through a callback.

use super::super::literal::{decode_char, parse_number, NumLit, Prefix};
use super::super::source::{Diagnostic, PResult, Span};
use super::super::token::{Punct, Token, TokenKind};

/// A `#if` value: 64 bits and a signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PpValue {
    pub bits: u64,
    pub unsigned: bool,
}

impl PpValue {
    fn signed(v: i64) -> PpValue {
        PpValue {
            bits: v as u64,
            unsigned: false,
        }
    }
    fn truth(self) -> bool {
        self.bits != 0
    }
}

/// Answers identifiers that are operators in `#if`: given the name and its
/// parenthesized argument tokens, `Some(value)` if it is one.
pub type SpecialFn<'a> = dyn Fn(&Token, &[Token]) -> Option<i64> + 'a;

/// Deepest parenthesis/operator nesting accepted in a `#if` expression.
const MAX_DEPTH: usize = 256;

struct Eval<'t, 's> {
    toks: &'t [Token],
    pos: usize,
    depth: usize,
    char_signed: bool,
    special: &'s SpecialFn<'s>,
    end_span: Span,
}

/// Evaluates a fully expanded `#if` line.
pub fn evaluate(toks: &[Token], directive: Span, char_signed: bool, special: &SpecialFn<'_>) -> PResult<PpValue> {
    if toks.is_empty() {
        return Err(Diagnostic::error(directive, "#if with no expression"));
    }
    let end_span = toks.last().map(|t| t.span).unwrap_or(directive);
    let mut e = Eval {
        toks,
        pos: 0,
        depth: 0,
        char_signed,
        special,
        end_span,
    };
    let v = e.comma(true)?;
    if let Some(t) = e.toks.get(e.pos) {
        return Err(Diagnostic::error(
            t.span,
            format!("missing binary operator before token \"{}\"", t.str()),
        ));
    }
    Ok(v)
}

/// The value of a decimal constant of at most 18 digits, unsuffixed or
/// with suffix `L` (no leading zero: that would be octal).
fn small_decimal(s: &[u8]) -> Option<u64> {
    let digits = s.strip_suffix(b"L").unwrap_or(s);
    if digits.is_empty() || digits.len() > 18 || (digits[0] == b'0' && digits.len() > 1) {
        return None;
    }
    digits
        .iter()
        .try_fold(0u64, |v, &d| d.is_ascii_digit().then(|| v * 10 + (d - b'0') as u64))
}

fn binary_prec(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        Star | Slash | Percent => 10,
        Plus | Minus => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        EqEq | Ne => 6,
        Amp => 5,
        Caret => 4,
        Pipe => 3,
        AmpAmp => 2,
        PipePipe => 1,
        _ => return None,
    })
}

impl Eval<'_, '_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    fn peek_punct(&self, p: Punct) -> bool {
        self.peek().is_some_and(|t| t.is_punct(p))
    }

    fn expect(&mut self, p: Punct) -> PResult<()> {
        if self.peek_punct(p) {
            self.pos += 1;
            Ok(())
        } else {
            let span = self.peek().map(|t| t.span).unwrap_or(self.end_span);
            Err(Diagnostic::error(
                span,
                format!("expected '{}' in preprocessor expression", p.as_str()),
            ))
        }
    }

    // expression := conditional ("," conditional)*
    fn comma(&mut self, ev: bool) -> PResult<PpValue> {
        let mut v = self.conditional(ev)?;
        while self.peek_punct(Punct::Comma) {
            self.pos += 1;
            v = self.conditional(ev)?;
        }
        Ok(v)
    }

    // conditional := binary(1) ("?" expression ":" conditional)?
    fn conditional(&mut self, ev: bool) -> PResult<PpValue> {
        let c = self.binary(1, ev)?;
        if !self.peek_punct(Punct::Question) {
            return Ok(c);
        }
        self.pos += 1;
        let a = self.comma(ev && c.truth())?;
        self.expect(Punct::Colon)?;
        let b = self.conditional(ev && !c.truth())?;
        let unsigned = a.unsigned || b.unsigned;
        let r = if c.truth() { a } else { b };
        Ok(PpValue { bits: r.bits, unsigned })
    }

    fn binary(&mut self, min_prec: u8, ev: bool) -> PResult<PpValue> {
        let mut lhs = self.unary(ev)?;
        while let Some(TokenKind::Punct(op)) = self.peek().map(|t| t.kind) {
            let Some(prec) = binary_prec(op) else { break };
            if prec < min_prec {
                break;
            }
            let op_span = self.toks[self.pos].span;
            self.pos += 1;
            let rhs_ev = match op {
                Punct::AmpAmp => ev && lhs.truth(),
                Punct::PipePipe => ev && !lhs.truth(),
                _ => ev,
            };
            let rhs = self.binary(prec + 1, rhs_ev)?;
            lhs = apply(op, lhs, rhs, ev, op_span)?;
        }
        Ok(lhs)
    }

    // unary := ("+" | "-" | "~" | "!") unary | primary
    fn unary(&mut self, ev: bool) -> PResult<PpValue> {
        self.depth += 1;
        let r = self.unary_inner(ev);
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self, ev: bool) -> PResult<PpValue> {
        if self.depth > MAX_DEPTH {
            let span = self.peek().map(|t| t.span).unwrap_or(self.end_span);
            return Err(Diagnostic::error(span, "#if expression nested too deeply"));
        }
        let Some(t) = self.peek() else {
            return Err(Diagnostic::error(self.end_span, "#if expression ends unexpectedly"));
        };
        if let TokenKind::Punct(p @ (Punct::Plus | Punct::Minus | Punct::Tilde | Punct::Bang)) = t.kind {
            self.pos += 1;
            let v = self.unary(ev)?;
            return Ok(match p {
                Punct::Plus => v,
                Punct::Minus => PpValue {
                    bits: v.bits.wrapping_neg(),
                    unsigned: v.unsigned,
                },
                Punct::Tilde => PpValue {
                    bits: !v.bits,
                    unsigned: v.unsigned,
                },
                _ => PpValue::signed((!v.truth()) as i64),
            });
        }
        self.primary(ev)
    }

    // primary := "(" expression ")" | number | char-constant | identifier ("(" args ")")?
    fn primary(&mut self, ev: bool) -> PResult<PpValue> {
        let t = self.toks[self.pos].clone();
        self.pos += 1;
        match t.kind {
            TokenKind::Punct(Punct::LParen) => {
                let v = self.comma(ev)?;
                self.expect(Punct::RParen)?;
                Ok(v)
            }
            // Most `#if` numbers are small decimal constants (`1`, `201710L`):
            // read them directly, the general literal parser is ten times
            // the work. Up to 18 digits fit in `intmax_t`; unsuffixed or
            // `L`, a decimal constant is signed (C11 6.4.4.1p5).
            TokenKind::Number if small_decimal(&t.text).is_some() => Ok(PpValue {
                bits: small_decimal(&t.text).unwrap_or(0),
                unsigned: false,
            }),
            TokenKind::Number => match parse_number(&t.text, t.span)? {
                NumLit::Int(i) => {
                    use super::super::literal::IntLitType::*;
                    Ok(PpValue {
                        bits: i.value,
                        unsigned: matches!(i.ty, UInt | ULong | ULongLong),
                    })
                }
                NumLit::Float(_) => Err(Diagnostic::error(
                    t.span,
                    "floating constant in preprocessor expression",
                )),
            },
            TokenKind::Char => {
                let c = decode_char(&t.text, t.span)?;
                let v = match c.prefix {
                    Prefix::None if c.count == 1 && self.char_signed => c.value as u8 as i8 as i64,
                    Prefix::None if c.count > 1 => c.value as u32 as i32 as i64,
                    _ => c.value,
                };
                Ok(PpValue::signed(v))
            }
            TokenKind::Ident | TokenKind::Keyword(_) => {
                // `name ( args )` may be a GNU query such as __has_attribute.
                if self.peek_punct(Punct::LParen) {
                    let start = self.pos;
                    let mut depth = 0;
                    let mut end = None;
                    for (i, a) in self.toks[start..].iter().enumerate() {
                        if a.is_punct(Punct::LParen) {
                            depth += 1;
                        } else if a.is_punct(Punct::RParen) {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(start + i);
                                break;
                            }
                        }
                    }
                    if let Some(end) = end {
                        if let Some(v) = (self.special)(&t, &self.toks[start + 1..end]) {
                            self.pos = end + 1;
                            return Ok(PpValue::signed(v));
                        }
                    }
                    if t.is_ident("__has_attribute") || t.is_ident("__has_builtin") || t.is_ident("__has_include") {
                        return Err(Diagnostic::error(t.span, format!("malformed {} expression", t.str())));
                    }
                    // An identifier followed by "(" that is no query: a function-like
                    // macro that was not defined; gcc reports a missing operator.
                    return Err(Diagnostic::error(
                        t.span,
                        format!("function-like macro '{}' is not defined", t.str()),
                    ));
                }
                if t.is_ident("defined") {
                    if let Some(v) = (self.special)(&t, &self.toks[self.pos..(self.pos + 1).min(self.toks.len())]) {
                        self.pos += 1;
                        return Ok(PpValue::signed(v));
                    }
                }
                Ok(PpValue::signed(0))
            }
            _ => Err(Diagnostic::error(
                t.span,
                format!("token \"{}\" is not valid in preprocessor expressions", t.str()),
            )),
        }
    }
}

fn apply(op: Punct, a: PpValue, b: PpValue, ev: bool, span: Span) -> PResult<PpValue> {
    use Punct::*;
    let unsigned = a.unsigned || b.unsigned;
    let (x, y) = (a.bits, b.bits);
    let (sx, sy) = (x as i64, y as i64);
    let bool_v = |c: bool| Ok(PpValue::signed(c as i64));
    let arith = |bits: u64| Ok(PpValue { bits, unsigned });
    match op {
        Star => arith(x.wrapping_mul(y)),
        Slash | Percent => {
            if y == 0 {
                if ev {
                    return Err(Diagnostic::error(span, "division by zero in #if"));
                }
                return arith(0);
            }
            let r = match (op, unsigned) {
                (Slash, true) => x / y,
                (Slash, false) => sx.wrapping_div(sy) as u64,
                (_, true) => x % y,
                (_, false) => sx.wrapping_rem(sy) as u64,
            };
            arith(r)
        }
        Plus => arith(x.wrapping_add(y)),
        Minus => arith(x.wrapping_sub(y)),
        // Shifts take the left operand's type (C11 6.5.7p3).
        Shl | Shr => {
            // A negative count shifts the other way, as gcc's evaluator does.
            let neg = !b.unsigned && sy < 0;
            let amount = if neg { sy.unsigned_abs() } else { y }.min(64) as u32;
            let left = (op == Shl) != neg;
            let bits = if left {
                x.checked_shl(amount).unwrap_or(0)
            } else if a.unsigned {
                x.checked_shr(amount).unwrap_or(0)
            } else {
                sx.checked_shr(amount).unwrap_or(if sx < 0 { -1 } else { 0 }) as u64
            };
            Ok(PpValue {
                bits,
                unsigned: a.unsigned,
            })
        }
        Lt => bool_v(if unsigned { x < y } else { sx < sy }),
        Gt => bool_v(if unsigned { x > y } else { sx > sy }),
        Le => bool_v(if unsigned { x <= y } else { sx <= sy }),
        Ge => bool_v(if unsigned { x >= y } else { sx >= sy }),
        EqEq => bool_v(x == y),
        Ne => bool_v(x != y),
        Amp => arith(x & y),
        Caret => arith(x ^ y),
        Pipe => arith(x | y),
        AmpAmp => bool_v(a.truth() && b.truth()),
        PipePipe => bool_v(a.truth() || b.truth()),
        _ => Err(Diagnostic::error(span, "invalid operator in preprocessor expression")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::lexer::tokenize;
    use crate::frontend::source::FileId;

    fn eval(s: &str) -> PResult<PpValue> {
        let mut toks = tokenize(s.as_bytes(), FileId(0)).unwrap();
        toks.pop();
        evaluate(&toks, Span::default(), true, &|t, args| {
            (t.is_ident("__has_attribute")).then(|| args.iter().any(|a| a.is_ident("packed")) as i64)
        })
    }

    fn val(s: &str) -> i64 {
        eval(s).unwrap().bits as i64
    }

    /// Decimal constants as gcc reads them in `#if` (values checked with
    /// `gcc -E`): signed unless suffixed `u`, octal with a leading zero,
    /// unsigned from 2^63 on.
    #[test]
    fn decimal_constants_and_their_signedness() {
        assert_eq!(val("999999999999999999 + 1 == 1000000000000000000"), 1);
        assert_eq!(val("201710L == 201710 && 201710L > 201709L"), 1);
        assert_eq!(val("0 == 00 && 010 == 8 && 0x10 == 16 && 10 == 10L"), 1);
        assert_eq!(val("-1 < 0 && -1L < 0 && -1 < 1L"), 1);
        assert_eq!(val("-1 < 1u"), 0);
        assert_eq!(val("-1 < 1LL"), 1);
        assert_eq!(val("9223372036854775807 > 0"), 1);
        assert_eq!(val("18446744073709551615 == -1"), 1);
        assert_eq!(val("18446744073709551615 > 0"), 1);
        assert!(eval("1.5").is_err() && eval("12a").is_err());
    }

    #[test]
    fn arithmetic_and_precedence() {
        assert_eq!(val("1 + 2 * 3"), 7);
        assert_eq!(val("(1 + 2) * 3"), 9);
        assert_eq!(val("10 / 3 % 2"), 1);
        assert_eq!(val("1 << 4 >> 2"), 4);
        assert_eq!(val("-7 / 2"), -3);
        assert_eq!(val("~0"), -1);
        assert_eq!(val("!5 || 0"), 0);
        assert_eq!(val("1 ? 2 : 3"), 2);
        assert_eq!(val("0 ? 2 : 0 ? 3 : 4"), 4);
        assert_eq!(val("3 & 6 | 8 ^ 1"), 11);
        assert_eq!(val("'a'"), 97);
        assert_eq!(val("'\\377'"), -1);
        assert_eq!(val("undefined_name + 1"), 1);
        assert_eq!(val("0x7fffffffffffffff + 0 == 9223372036854775807"), 1);
        assert_eq!(val("(1, 2)"), 2);
    }

    #[test]
    fn unsigned_rules() {
        assert_eq!(val("-1 < 0"), 1);
        assert_eq!(val("-1 < 0u"), 0);
        assert_eq!(val("-1 > 0u"), 1);
        assert_eq!(val("(0 ? 1u : -1) > 0"), 1);
        assert_eq!(val("-1 / 2u > 0"), 1);
        assert_eq!(val("18446744073709551615 == -1"), 1);
        assert!(eval("0u - 1").unwrap().unsigned);
        assert_eq!(val("-1 >> 1"), -1);
        assert_eq!(val("-1u >> 63"), 1);
    }

    #[test]
    fn short_circuit_skips_errors() {
        assert_eq!(val("0 && 1 / 0"), 0);
        assert_eq!(val("1 || 1 / 0"), 1);
        assert_eq!(val("1 ? 2 : 1 / 0"), 2);
        assert!(eval("1 / 0").unwrap_err().message.contains("division by zero"));
        assert!(eval("1 % 0").is_err());
    }

    #[test]
    fn queries_and_errors() {
        assert_eq!(val("__has_attribute(packed)"), 1);
        assert_eq!(val("__has_attribute(nope) + 2"), 2);
        assert!(eval("1.0").is_err());
        assert!(eval("1 +").is_err());
        assert!(eval("(1").is_err());
        assert!(eval("1 2").is_err());
        assert!(eval("\"s\"").is_err());
        assert!(eval("f(1)").is_err());
        assert!(evaluate(&[], Span::default(), true, &|_, _| None).is_err());
        let deep = format!("{}1{}", "(".repeat(100000), ")".repeat(100000));
        assert!(eval(&deep).unwrap_err().message.contains("nested too deeply"));
        let deep = format!("{}1", "~".repeat(100000));
        assert!(eval(&deep).unwrap_err().message.contains("nested too deeply"));
        assert_eq!(val(&format!("{}1{}", "(".repeat(200), ")".repeat(200))), 1);
    }
}
