//! A recursive-descent parser for C11 (ISO/IEC 9899:2011, clause 6) plus the
//! GNU extensions glibc headers and real programs use, in chibicc's style:
//! each parse function carries its grammar rule as a comment. Split by
//! construct: `decl.rs` (declarations, declarators, struct/enum, type names),
//! `expr.rs` (expressions), `stmt.rs` (statements and inline asm), `init.rs`
//! (initializers and designators).
//!
//! C's grammar is ambiguous without knowing which identifiers are typedef
//! names (`T * x;` is a declaration or a multiplication), so the parser keeps a
//! stack of scopes recording, for each identifier declared, whether it is a
//! typedef name (6.2.1: an inner ordinary declaration hides an outer typedef).
//!
//! `#pragma` tokens are lifted out of the token stream first and reappear as
//! items at the next top-level, block-item or struct-member boundary.
//! The first error ends parsing; there is no recovery.

mod decl;
mod expr;
mod init;
mod specifiers;
mod stmt;
#[cfg(test)]
mod tests;

use super::ast::*;
use super::source::{Diagnostic, PResult, Span};
use super::token::{Keyword, Punct, Text, Token, TokenKind};
use crate::target::Target;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Deepest nesting of expressions/statements/declarators before we give up.
const MAX_DEPTH: usize = 2000;
/// The parser runs on its own thread with this much stack...
const PARSER_STACK: usize = 256 << 20;
/// ...of which the recursive descent may use this many bytes, measured from
/// the entry point: hostile nesting ends in an error, never a stack overflow
/// (frames are several KiB each in debug builds, so this bounds bytes, not depth).
const STACK_BUDGET: usize = 192 << 20;

fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

pub struct Parser {
    toks: Vec<Token>,
    pos: usize,
    /// Pragmas removed from `toks`, with the index of the token they preceded.
    pragmas: Vec<(usize, Token)>,
    next_pragma: usize,
    /// Identifier spellings and the one `Name` each becomes (an identifier
    /// used a hundred times is allocated once).
    names: FxHashMap<Text, Name>,
    /// Stacks the items of the initializer lists and blocks being parsed
    /// (nested ones above their enclosing ones): each list is then moved
    /// into a vector of its exact length, where growing a vector per list
    /// copied its items several times.
    init_items: Vec<InitItem>,
    block_items: Vec<BlockItem>,
    /// Innermost scope last; `true` = typedef name.
    scopes: Vec<FxHashMap<Name, bool>>,
    target: Target,
    depth: usize,
    max_depth: usize,
    stack_base: usize,
}

/// Parses preprocessed tokens (ending in `Eof`; keywords need not be converted yet).
/// Runs on a dedicated thread with a large stack so deep nesting is an error, not a crash.
pub fn parse_tokens(toks: Vec<Token>, target: Target) -> PResult<TranslationUnit> {
    let spawned = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("phicc-parser".into())
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, move || parse_on_this_thread(toks, target))
            .map(|h| h.join())
    });
    match spawned {
        Ok(Ok(r)) => r,
        Ok(Err(payload)) => std::panic::resume_unwind(payload),
        Err(e) => Err(Diagnostic::global(format!("cannot start the parser thread: {e}"))),
    }
}

fn parse_on_this_thread(mut toks: Vec<Token>, target: Target) -> PResult<TranslationUnit> {
    super::lexer::convert_keywords(&mut toks);
    // Pragmas and stray tokens leave the vector in place (no second copy of
    // the unit's tokens).
    let mut pragmas = Vec::new();
    let mut stray = None;
    let mut n_kept = 0;
    // Most units have neither (a scan is cheaper than `retain`'s bookkeeping).
    let lifted = |t: &Token| matches!(t.kind, TokenKind::Pragma | TokenKind::Other);
    if toks.iter().any(lifted) {
        toks.retain(|t| match t.kind {
            TokenKind::Pragma => {
                pragmas.push((n_kept, t.clone()));
                false
            }
            TokenKind::Other => {
                stray.get_or_insert_with(|| super::lexer::stray_token_error(t));
                false
            }
            _ => {
                n_kept += 1;
                true
            }
        });
    }
    if let Some(e) = stray {
        return Err(e);
    }
    let mut kept = toks;
    if kept.last().is_none_or(|t| t.kind != TokenKind::Eof) {
        let span = kept.last().map(|t| t.span).unwrap_or_default();
        kept.push(Token::new(TokenKind::Eof, b"", span));
    }
    // Sized from the token count so that the maps seldom grow (rehashing as
    // they filled was 2% of parsing a Csmith program, whose headers declare
    // a new name every few dozen tokens).
    let names = FxHashMap::with_capacity_and_hasher(kept.len() / 16, Default::default());
    let file_scope = FxHashMap::with_capacity_and_hasher(kept.len() / 32, Default::default());
    let mut p = Parser {
        toks: kept,
        pos: 0,
        pragmas,
        next_pragma: 0,
        names,
        init_items: Vec::new(),
        block_items: Vec::new(),
        scopes: vec![file_scope],
        target,
        depth: 0,
        max_depth: 0,
        stack_base: stack_address(),
    };
    p.translation_unit()
}

impl Parser {
    // ---- token access -------------------------------------------------

    pub(super) fn tok(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    pub(super) fn peek_at(&self, n: usize) -> &Token {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)]
    }

    pub(super) fn span(&self) -> Span {
        self.tok().span
    }

    /// Moves past the current token (never past `Eof`) and gives its span.
    /// No token is cloned: a token clone touches two reference counts.
    pub(super) fn advance(&mut self) -> Span {
        let span = self.tok().span;
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        span
    }

    /// The current token's kind and span.
    pub(super) fn kind_span(&self) -> (TokenKind, Span) {
        let t = self.tok();
        (t.kind, t.span)
    }

    pub(super) fn at_eof(&self) -> bool {
        self.tok().kind == TokenKind::Eof
    }

    pub(super) fn is(&self, p: Punct) -> bool {
        self.tok().is_punct(p)
    }

    pub(super) fn is_kw(&self, k: Keyword) -> bool {
        self.tok().is_keyword(k)
    }

    pub(super) fn eat(&mut self, p: Punct) -> bool {
        if self.is(p) {
            self.advance();
            true
        } else {
            false
        }
    }

    pub(super) fn eat_kw(&mut self, k: Keyword) -> bool {
        if self.is_kw(k) {
            self.advance();
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, p: Punct) -> PResult<Span> {
        if self.is(p) {
            Ok(self.advance())
        } else {
            Err(self.error_here(&format!("expected '{}'", p.as_str())))
        }
    }

    pub(super) fn error_here(&self, what: &str) -> Diagnostic {
        let t = self.tok();
        if t.kind == TokenKind::Eof {
            Diagnostic::error(t.span, format!("{what} at end of input"))
        } else {
            Diagnostic::error(t.span, format!("{what} before '{}'", t.str()))
        }
    }

    /// The shared `Name` of an identifier spelled `text`.
    /// The shared `Name` of the current token (an identifier).
    pub(super) fn name_here(&mut self) -> Name {
        let i = self.pos.min(self.toks.len() - 1);
        intern_name(&mut self.names, &self.toks[i].text)
    }

    pub(super) fn ident(&mut self) -> PResult<(Name, Span)> {
        if self.tok().kind == TokenKind::Ident {
            let name = self.name_here();
            Ok((name, self.advance()))
        } else {
            Err(self.error_here("expected identifier"))
        }
    }

    /// Span from `start` to the previous token.
    pub(super) fn span_from(&self, start: Span) -> Span {
        let end = self.toks[self.pos.saturating_sub(1)].span;
        if end.file == start.file && end.end >= start.start {
            Span::new(start.file, start.start, end.end)
        } else {
            start
        }
    }

    /// Guards recursion depth; pair with `leave`.
    pub(super) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        // The stack is measured every eighth level: eight frames are far
        // less than the margin between the budget and the stack's size.
        if self.depth > MAX_DEPTH || (self.depth % 8 == 0 && self.stack_base.abs_diff(stack_address()) > STACK_BUDGET) {
            return Err(Diagnostic::error(self.span(), "nesting too deep"));
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    pub(super) fn leave_n(&mut self, n: usize) {
        self.depth -= n;
    }

    pub(super) fn target(&self) -> Target {
        self.target
    }

    /// Pragmas that came before the current token.
    pub(super) fn take_pragmas(&mut self) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        while let Some((idx, t)) = self.pragmas.get(self.next_pragma) {
            if *idx > self.pos {
                break;
            }
            out.push((t.str().into_owned(), t.span));
            self.next_pragma += 1;
        }
        out
    }

    // ---- scopes ---------------------------------------------------------

    pub(super) fn push_scope(&mut self) {
        self.scopes.push(FxHashMap::default());
    }

    pub(super) fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    pub(super) fn declare(&mut self, name: &Name, is_typedef: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.clone(), is_typedef);
        }
    }

    pub(super) fn is_typedef_name(&self, t: &Token) -> bool {
        if t.kind != TokenKind::Ident {
            return false;
        }
        // Spelled as `intern_name` spells it (identifiers are nearly always
        // UTF-8; a lossy decoding allocates).
        let name = match std::str::from_utf8(&t.text) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => t.str(),
        };
        for s in self.scopes.iter().rev() {
            if let Some(&td) = s.get(&*name) {
                return td;
            }
        }
        false
    }

    // ---- attributes and asm labels ------------------------------------

    /// attribute-list = ("__attribute__" "(" "(" attribute ("," attribute)* ")" ")")*
    /// attribute      = (identifier | keyword) ("(" (assign ("," assign)*)? ")")?
    pub(super) fn attributes(&mut self, out: &mut Vec<Attribute>) -> PResult<()> {
        while self.is_kw(Keyword::Attribute) {
            self.advance();
            self.expect(Punct::LParen)?;
            self.expect(Punct::LParen)?;
            loop {
                if self.is(Punct::RParen) {
                    break;
                }
                if self.eat(Punct::Comma) {
                    continue;
                }
                let t = self.tok();
                if !matches!(t.kind, TokenKind::Ident | TokenKind::Keyword(_)) {
                    return Err(self.error_here("expected attribute name"));
                }
                let raw = t.str();
                let name: Name = Arc::from(
                    raw.strip_prefix("__")
                        .and_then(|s| s.strip_suffix("__"))
                        .unwrap_or(&raw),
                );
                let span = self.advance();
                let mut args = Vec::new();
                if self.eat(Punct::LParen) {
                    while !self.is(Punct::RParen) {
                        args.push(self.assign()?);
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                    self.expect(Punct::RParen)?;
                }
                out.push(Attribute { name, args, span });
            }
            self.expect(Punct::RParen)?;
            self.expect(Punct::RParen)?;
        }
        Ok(())
    }

    /// asm-label = ("asm" | "__asm__") "(" string-literal+ ")"
    pub(super) fn asm_label(&mut self) -> PResult<Option<String>> {
        if !self.is_kw(Keyword::Asm) {
            return Ok(None);
        }
        self.advance();
        self.expect(Punct::LParen)?;
        let s = self.string_text()?;
        self.expect(Punct::RParen)?;
        Ok(Some(s))
    }

    /// Adjacent narrow string literals as text (asm templates, labels, messages).
    pub(super) fn string_text(&mut self) -> PResult<String> {
        if self.tok().kind != TokenKind::Str {
            return Err(self.error_here("expected string literal"));
        }
        let mut bytes = Vec::new();
        while self.tok().kind == TokenKind::Str {
            let t = self.tok();
            let s = super::literal::decode_string(&t.text, t.span)?;
            self.advance();
            bytes.extend(s.units.iter().map(|&u| u as u8));
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    // ---- translation unit (6.9) ----------------------------------------

    /// translation-unit = external-declaration*
    fn translation_unit(&mut self) -> PResult<TranslationUnit> {
        let mut items = Vec::new();
        loop {
            for (text, span) in self.take_pragmas() {
                items.push(ExternalDecl::Pragma(text, span));
            }
            if self.at_eof() {
                break;
            }
            self.external_declaration(&mut items)?;
        }
        Ok(TranslationUnit {
            items,
            max_depth: self.max_depth,
        })
    }

    /// external-declaration = function-definition | declaration | ";" | asm-definition
    fn external_declaration(&mut self, items: &mut Vec<ExternalDecl>) -> PResult<()> {
        if self.eat(Punct::Semi) {
            return Ok(());
        }
        if self.is_kw(Keyword::Asm) {
            let start = self.span();
            let s = self.asm_label()?.unwrap_or_default();
            self.expect(Punct::Semi)?;
            items.push(ExternalDecl::Asm(s, self.span_from(start)));
            return Ok(());
        }
        match self.declaration_or_function(true)? {
            DeclOrFunc::Decl(d) => items.push(ExternalDecl::Decl(d)),
            DeclOrFunc::Func(f) => items.push(ExternalDecl::Function(Box::new(f))),
        }
        Ok(())
    }
}

/// The one `Name` of spelling `text` in `names`.
fn intern_name(names: &mut FxHashMap<Text, Name>, text: &Text) -> Name {
    if let Some(n) = names.get(text) {
        return n.clone();
    }
    let n: Name = match std::str::from_utf8(text) {
        Ok(s) => Arc::from(s),
        Err(_) => Arc::from(&*String::from_utf8_lossy(text)),
    };
    names.insert(text.clone(), n.clone());
    n
}

pub(super) enum DeclOrFunc {
    Decl(Declaration),
    Func(FunctionDef),
}
