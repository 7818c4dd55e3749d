//! `#if` / `#elif` evaluation (C11 6.10.1): `defined` is replaced before
//! expansion, `__has_include` is answered before expansion (so a header name
//! is not macro-expanded), the line is expanded in isolation, and `expr.rs`
//! evaluates the result, asking back here for GNU queries such as
//! `__has_attribute` that only appear after expansion.

use super::super::source::{Diagnostic, PResult};
use super::super::token::{Punct, Token, TokenKind};
use super::{expr, Preprocessor, KNOWN_ATTRIBUTES, KNOWN_BUILTINS};

impl Preprocessor<'_> {
    /// Evaluates a `#if`/`#elif` line (C11 6.10.1).
    pub(super) fn eval_if(&mut self, directive: &Token, rest: &[Token]) -> PResult<bool> {
        // `defined X` and `defined ( X )` are replaced before expansion.
        let mut line = Vec::with_capacity(rest.len());
        let mut i = 0;
        while i < rest.len() {
            let t = &rest[i];
            if t.is_ident("defined") {
                let (name, len) = if rest.get(i + 1).is_some_and(|t| t.is_punct(Punct::LParen)) {
                    match (rest.get(i + 2), rest.get(i + 3)) {
                        (Some(n), Some(r)) if n.kind == TokenKind::Ident && r.is_punct(Punct::RParen) => (n, 4),
                        _ => return Err(Diagnostic::error(t.span, "missing ')' after \"defined\"")),
                    }
                } else {
                    match rest.get(i + 1) {
                        Some(n) if n.kind == TokenKind::Ident => (n, 2),
                        _ => return Err(Diagnostic::error(t.span, "operator \"defined\" requires an identifier")),
                    }
                };
                let v = if self.is_defined(&name.text) { b"1" } else { b"0" };
                line.push(Token::new(TokenKind::Number, v, t.span));
                i += len;
                continue;
            }
            if t.is_ident("__has_include") || t.is_ident("__has_include_next") {
                // Evaluate before expansion, so a header name is not macro-expanded.
                let close = rest[i..].iter().position(|t| t.is_punct(Punct::RParen)).map(|p| p + i);
                if let Some(close) = close {
                    let v = self.has_include(t, &rest[i + 2.min(close - i)..close]);
                    line.push(Token::new(TokenKind::Number, if v { b"1" } else { b"0" }, t.span));
                    i = close + 1;
                    continue;
                }
            }
            line.push(t.clone());
            i += 1;
        }
        self.in_if_line = true;
        let expanded = self.expand_isolated(&line);
        self.in_if_line = false;
        let expanded = expanded?;
        let v = expr::evaluate(&expanded, directive.span, self.target.char_is_signed(), &|t, args| {
            self.special_query(t, args)
        })?;
        Ok(v.bits != 0)
    }

    /// `__has_attribute(x)`, `__has_builtin(x)`, `defined X` after expansion, `__has_include(...)`.
    pub(super) fn special_query(&self, t: &Token, args: &[Token]) -> Option<i64> {
        let arg = || args.first().filter(|_| args.len() == 1).map(|a| a.text.clone());
        match &*t.text {
            b"__has_attribute" => {
                let a = arg()?;
                let s = String::from_utf8_lossy(&a);
                let s = s.strip_prefix("__").and_then(|s| s.strip_suffix("__")).unwrap_or(&s);
                Some(KNOWN_ATTRIBUTES.contains(&s) as i64)
            }
            b"__has_builtin" => {
                let a = arg()?;
                Some(KNOWN_BUILTINS.contains(&&*String::from_utf8_lossy(&a)) as i64)
            }
            b"__has_feature" | b"__has_extension" | b"__has_cpp_attribute" | b"__has_c_attribute" => Some(0),
            b"defined" => {
                let a = args.first().or(args.get(1))?;
                Some(self.is_defined(&a.text) as i64)
            }
            b"__has_include" | b"__has_include_next" => Some(self.has_include(t, args) as i64),
            _ => None,
        }
    }
}
