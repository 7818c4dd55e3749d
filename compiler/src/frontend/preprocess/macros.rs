//! Macro definition and expansion (C11 6.10.3) with Prosser's hideset
//! algorithm, as described in Dave Prosser's 1986 note "Complete macro
//! expansion algorithm" and in chibicc's preprocessor essay:
//!
//! * Every token carries a hideset: the macros it came from.
//! * An identifier naming a macro expands unless the macro is in its hideset.
//! * Object-like `T` with hideset HS: the body is substituted and every result
//!   token gets `HS ∪ {T}` added.
//! * Function-like `T ( args )`: the new hideset is `(HS(T) ∩ HS(')')) ∪ {T}`,
//!   so a macro name produced by the arguments can still expand once the
//!   invocation that hid it is finished.
//! * Substitution (`subst`): a parameter after `#` becomes the stringized raw
//!   argument; a parameter next to `##` is the raw argument and the tokens are
//!   pasted; any other parameter is the argument *fully macro-expanded on its
//!   own* first. GNU `, ## __VA_ARGS__` drops the comma when the variable
//!   arguments are empty.
//! * The result is pushed back in front of the remaining input and rescanned.
//!
//! Expanded tokens take the invocation's span, so diagnostics and `__LINE__`
//! point at the use of the macro.

use super::super::lexer::{lex_single_with, tokenize};
use super::super::source::{Diagnostic, PResult, Span};
use super::super::token::{
    hideset_intersection, hideset_of, hideset_union, name_key, HideSet, Punct, Text, Token, TokenKind,
};
use super::{Preprocessor, UnionMemo};
use std::ops::Range;
use std::sync::Arc;

/// Macros the preprocessor computes on each use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    File,
    Line,
    Counter,
    Date,
    Time,
    IncludeLevel,
    BaseFile,
}

/// A macro definition.
#[derive(Clone, Debug)]
pub enum MacroDef {
    Object {
        body: Arc<Vec<Token>>,
        /// The hideset of just this macro's name (see [`Preprocessor::name_set`]).
        name: HideSet,
    },
    Function {
        params: Arc<Vec<Text>>,
        /// The last parameter collects the variable arguments (`...` as `__VA_ARGS__`, or GNU `name...`).
        variadic: bool,
        body: Arc<Vec<Token>>,
        /// Per body token: 1 + the index of the parameter it names, or 0
        /// (found once here instead of at each expansion).
        slots: Arc<Vec<u32>>,
        name: HideSet,
    },
    Builtin(Builtin),
}

impl MacroDef {
    /// Whether two definitions are the same (C11 6.10.3p2: redefinition must be identical).
    pub fn same_as(&self, other: &MacroDef) -> bool {
        let same_body = |a: &[Token], b: &[Token]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .enumerate()
                    .all(|(i, (x, y))| x.text == y.text && (i == 0 || x.has_space == y.has_space))
        };
        match (self, other) {
            (MacroDef::Object { body: a, .. }, MacroDef::Object { body: b, .. }) => same_body(a, b),
            (
                MacroDef::Function {
                    params: p1,
                    variadic: v1,
                    body: b1,
                    ..
                },
                MacroDef::Function {
                    params: p2,
                    variadic: v2,
                    body: b2,
                    ..
                },
            ) => p1 == p2 && v1 == v2 && same_body(b1, b2),
            _ => false,
        }
    }
}

/// One argument of an invocation: its raw tokens.
type Arg<'t> = &'t [Token];

/// An argument's macro-expanded form in `subst`, computed on first use.
enum Expanded {
    Not,
    /// Expansion would not change it: the raw tokens.
    Raw,
    Done(Vec<Token>),
}

impl Preprocessor<'_> {
    /// If `tok` is a macro to expand here, pushes its expansion onto the input
    /// stack and returns `Ok(None)`; otherwise gives the token back.
    /// (Inlined for the test that most tokens fail: not an identifier.)
    #[inline(always)]
    pub(super) fn try_expand(&mut self, tok: Token) -> PResult<Option<Token>> {
        if tok.kind != TokenKind::Ident {
            return Ok(Some(tok));
        }
        self.try_expand_ident(tok)
    }

    /// [`Self::try_expand`] for an identifier.
    fn try_expand_ident(&mut self, tok: Token) -> PResult<Option<Token>> {
        if tok.hidden(&tok.text) {
            return Ok(Some(tok));
        }
        // Shared, not copied: one reference count for the whole definition.
        let Some(def) = self.macros.get_shared(&tok.text) else {
            if Arc::ptr_eq(&tok.text, &self.pragma_name) && self.input.peek().is_some_and(|t| t.is_punct(Punct::LParen))
            {
                self.expand_pragma_operator(&tok)?;
                return Ok(None);
            }
            return Ok(Some(tok));
        };
        match &*def {
            &MacroDef::Builtin(b) => {
                let t = self.builtin_token(b, &tok)?;
                self.input.push(t);
                Ok(None)
            }
            MacroDef::Object { body, name } => {
                let hs = self.union(&tok.hideset, name);
                let out = self.subst(body, &[], 0, &[], false, false)?;
                self.push_expansion(out, &tok, &hs);
                Ok(None)
            }
            MacroDef::Function {
                params,
                variadic,
                body,
                slots,
                name,
            } => {
                if !self.input.peek().is_some_and(|t| t.is_punct(Punct::LParen)) {
                    return Ok(Some(tok));
                }
                self.input.skip();
                let (flat, ranges, rparen) = self.read_args(&tok, params.len(), *variadic)?;
                let inter = hideset_intersection(&tok.hideset, &rparen.hideset);
                let hs = self.union(&inter, name);
                let args: Vec<Arg> = ranges.iter().map(|r| &flat[r.clone()]).collect();
                let out = self.subst(body, slots, params.len(), &args, *variadic, true)?;
                drop(args);
                self.push_expansion(out, &tok, &hs);
                self.recycle(flat);
                self.ranges = ranges;
                Ok(None)
            }
        }
    }

    /// The hideset holding just `name`, one shared set per macro name (so
    /// that the tokens of different expansions of a macro share it too).
    pub(super) fn name_set(&mut self, name: &Text) -> HideSet {
        self.name_sets
            .entry(name_key(name))
            .or_insert_with(|| hideset_of(name))
            .clone()
    }

    /// The union of two hidesets, remembered per pair of sets: expansions
    /// keep forming the same unions (every token of an argument, every use
    /// of a macro inside another). The memo holds both operands, so their
    /// addresses, its key, stay theirs.
    fn union(&mut self, a: &HideSet, b: &HideSet) -> HideSet {
        union_memo(&mut self.unions, a, b)
    }

    /// Whether expanding `toks` on their own could change them: some
    /// identifier names a macro it is not hidden from, or is `_Pragma`.
    fn may_expand(&self, toks: &[Token]) -> bool {
        toks.iter().any(|t| {
            t.kind == TokenKind::Ident
                && (self.macros.contains(&t.text) || Arc::ptr_eq(&t.text, &self.pragma_name))
                && !t.hidden(&t.text)
        })
    }

    /// Pushes an expansion (in order) onto the input stack, with the hideset
    /// added, the invocation's span and layout.
    fn push_expansion(&mut self, mut out: Vec<Token>, inv: &Token, hs: &HideSet) {
        // Keep the invocation's layout if the expansion is empty: the next token inherits the space.
        if out.is_empty() {
            if let Some(next) = self.input.peek_mut() {
                if inv.has_space && !next.at_bol {
                    next.has_space = true;
                }
            }
            return;
        }
        // Tokens of one expansion mostly share their hideset (the body's
        // tokens have none, an argument's share one): remember the last
        // union instead of building an equal set per token.
        let mut last: Option<(Arc<Vec<Text>>, HideSet)> = None;
        let first_space = inv.has_space && !self.in_include_line;
        let unions = &mut self.unions;
        for (i, t) in out.iter_mut().enumerate() {
            t.hideset = match &t.hideset {
                None => hs.clone(),
                Some(own) => match &last {
                    Some((from, union)) if Arc::ptr_eq(from, own) => union.clone(),
                    _ => {
                        let union = union_memo(unions, &t.hideset, hs);
                        last = Some((own.clone(), union.clone()));
                        union
                    }
                },
            };
            t.span = inv.span;
            t.at_bol = false;
            if i == 0 {
                t.has_space = first_space;
                t.at_bol = inv.at_bol;
            }
        }
        self.input.push_all(&mut out);
        self.recycle(out);
    }

    /// An empty token vector with room for `n`, from the spares if one is
    /// there: expansions make and drop a few vectors each (arguments,
    /// results), and the allocator's work for them was a tenth of the
    /// expansion's.
    #[inline]
    pub(super) fn buffer(&mut self, n: usize) -> Vec<Token> {
        match self.buffers.last() {
            Some(v) if v.capacity() >= n => self.buffers.pop().unwrap_or_default(),
            // Too small (growing it would copy its old block): a fresh one.
            _ => Vec::with_capacity(n),
        }
    }

    /// Keeps `v`'s block as a spare for [`Self::buffer`] (a few, not large).
    #[inline]
    pub(super) fn recycle(&mut self, mut v: Vec<Token>) {
        if self.buffers.len() < 32 && v.capacity() <= 1024 {
            v.clear();
            self.buffers.push(v);
        }
    }

    /// Reads `( args )` after a function-like macro name (the `(` is consumed).
    /// The arguments' tokens come back in one vector, each argument a range of it.
    fn read_args(
        &mut self,
        name: &Token,
        nparams: usize,
        variadic: bool,
    ) -> PResult<(Vec<Token>, Vec<Range<usize>>, Token)> {
        // Room for most argument lists (growing from 4 by doubling cost more).
        let mut flat: Vec<Token> = self.buffer(16);
        // The spare from the last invocation, if no other took it.
        let mut args: Vec<Range<usize>> = std::mem::take(&mut self.ranges);
        args.clear();
        args.push(0..0);
        let mut depth = 0usize;
        let rparen = loop {
            let Some(t) = self.input.pop() else {
                return Err(Diagnostic::error(
                    name.span,
                    format!("unterminated argument list invoking macro \"{}\"", name.str()),
                ));
            };
            match t.kind {
                TokenKind::Eof => {
                    let span = name.span;
                    self.input.push(t);
                    return Err(Diagnostic::error(
                        span,
                        format!("unterminated argument list invoking macro \"{}\"", name.str()),
                    ));
                }
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) => {
                    if depth == 0 {
                        break t;
                    }
                    depth -= 1;
                }
                // A comma at depth 0 separates arguments, except inside the variable ones.
                TokenKind::Punct(Punct::Comma) if depth == 0 && !(variadic && args.len() == nparams) => {
                    args.push(flat.len()..flat.len());
                    continue;
                }
                _ => {}
            }
            let mut t = t;
            if t.at_bol {
                // Arguments may span lines; they are no longer line starts.
                t.at_bol = false;
                t.has_space = true;
            }
            flat.push(t);
            if let Some(a) = args.last_mut() {
                a.end = flat.len();
            }
        };
        // `F()` is one empty argument; for a zero-parameter macro, zero arguments.
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        // The variable arguments may be omitted entirely (GNU, and C2x).
        if variadic && args.len() + 1 == nparams {
            args.push(flat.len()..flat.len());
        }
        if args.len() != nparams {
            let msg = if args.len() > nparams {
                format!(
                    "macro \"{}\" passed {} arguments, but takes just {}",
                    name.str(),
                    args.len(),
                    nparams
                )
            } else {
                format!(
                    "macro \"{}\" requires {} arguments, but only {} given",
                    name.str(),
                    nparams,
                    args.len()
                )
            };
            return Err(Diagnostic::error(name.span, msg));
        }
        Ok((flat, args, rparen))
    }

    /// Fully macro-expands `toks` on their own (an argument, a `#if` or `#include` line).
    pub(super) fn expand_isolated(&mut self, toks: &[Token]) -> PResult<Vec<Token>> {
        if self.depth < 200 && !self.may_expand(toks) {
            // Nothing to expand (most arguments): the tokens as they are,
            // counted as the loop below would count them.
            self.tick_all(toks)?;
            return Ok(toks.to_vec());
        }
        let mut eof = Token::new(TokenKind::Eof, b"", toks.last().map(|t| t.span).unwrap_or_default());
        eof.at_bol = true;
        // In front of the input, behind an end marker (see `input.rs`).
        let floor = self.input.push_isolated(toks, eof);
        self.depth += 1;
        let result = (|| {
            if self.depth > 200 {
                return Err(Diagnostic::error(
                    toks.first().map(|t| t.span).unwrap_or_default(),
                    "macro expansion nested too deeply",
                ));
            }
            // At least as many tokens come out as go in, mostly.
            let mut out = Vec::with_capacity(toks.len() + 8);
            while let Some(t) = self.input.pop() {
                if t.kind == TokenKind::Eof {
                    break;
                }
                self.tick(&t)?;
                if self.in_if_line && t.kind == TokenKind::Ident && &*t.text == b"defined" {
                    // In #if, the operand of a `defined` produced by expansion is
                    // not expanded (as gcc does).
                    out.push(t);
                    let paren = self.input.peek().is_some_and(|n| n.is_punct(Punct::LParen));
                    let n = if paren { 3 } else { 1 };
                    for _ in 0..n {
                        match self.input.peek() {
                            Some(x) if x.kind != TokenKind::Eof => out.extend(self.input.pop()),
                            _ => break,
                        }
                    }
                    continue;
                }
                if let Some(t) = self.try_expand(t)? {
                    out.push(t);
                }
            }
            Ok(out)
        })();
        self.depth -= 1;
        if result.is_err() {
            self.input.truncate(floor);
        }
        result
    }

    /// The substitution step of the hideset algorithm (see the module doc).
    /// `slots` gives the parameter each body token names (see
    /// [`MacroDef::Function`]; empty for an object-like macro).
    fn subst(
        &mut self,
        body: &[Token],
        slots: &[u32],
        nparams: usize,
        args: &[Arg],
        variadic: bool,
        is_fn: bool,
    ) -> PResult<Vec<Token>> {
        // The parameter that body token `j` names.
        let find = |j: usize| -> Option<usize> { slots.get(j).and_then(|&s| s.checked_sub(1)).map(|s| s as usize) };
        let is_va = |i: usize| variadic && i + 1 == nparams;
        // Each argument is macro-expanded at most once however often its
        // parameter appears (as gcc does; it also keeps `__COUNTER__` in an
        // argument at one value).
        let mut expanded_args: Vec<Expanded> = (0..args.len()).map(|_| Expanded::Not).collect();
        let arg_tokens: usize = args.iter().map(|a| a.len()).sum();
        let mut out: Vec<Token> = self.buffer(body.len() + arg_tokens);
        // Whether `out` may hold placemarkers (to remove at the end).
        let mut marks = false;
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            let next = body.get(i + 1);
            // "#" param: stringize.
            if is_fn && t.is_punct(Punct::Hash) {
                let Some(p) = next.and(find(i + 1)) else {
                    return Err(Diagnostic::error(t.span, "'#' is not followed by a macro parameter"));
                };
                let mut s = stringize(args[p], t.span)?;
                s.has_space = t.has_space;
                out.push(s);
                i += 2;
                continue;
            }
            // GNU: , ## __VA_ARGS__
            if t.is_punct(Punct::Comma) && next.is_some_and(|n| n.is_punct(Punct::HashHash)) {
                if let Some(p) = find(i + 2).filter(|&p| is_va(p)) {
                    if args[p].is_empty() {
                        i += 3;
                    } else {
                        out.push(t.clone());
                        i += 2;
                    }
                    continue;
                }
            }
            // "##" rhs: paste the last output token with the next operand.
            if t.is_punct(Punct::HashHash) {
                let (Some(rhs), false) = (next, out.is_empty()) else {
                    return Err(Diagnostic::error(
                        t.span,
                        "'##' cannot appear at either end of a macro expansion",
                    ));
                };
                let operand: Vec<Token> = match find(i + 1) {
                    Some(p) if args[p].is_empty() => {
                        marks = true;
                        vec![placemarker(rhs)]
                    }
                    Some(p) => args[p].to_vec(),
                    None => vec![rhs.clone()],
                };
                self.paste_onto(&mut out, &operand[0])?;
                out.extend(operand[1..].iter().cloned());
                i += 2;
                continue;
            }
            // __VA_OPT__ ( tokens ): the tokens if the variable arguments are
            // non-empty, else nothing (C2x 6.10.4.1, a GNU extension before).
            if variadic && t.kind == TokenKind::Ident && &*t.text == b"__VA_OPT__" {
                let close = next.filter(|n| n.is_punct(Punct::LParen)).and_then(|_| {
                    let mut depth = 0usize;
                    for (j, b) in body.iter().enumerate().skip(i + 1) {
                        if b.is_punct(Punct::LParen) {
                            depth += 1;
                        } else if b.is_punct(Punct::RParen) {
                            depth -= 1;
                            if depth == 0 {
                                return Some(j);
                            }
                        }
                    }
                    None
                });
                let Some(close) = close else {
                    return Err(Diagnostic::error(
                        t.span,
                        "__VA_OPT__ must be followed by a parenthesized token list",
                    ));
                };
                let has_va = args.last().is_some_and(|a| !a.is_empty());
                if has_va {
                    let inner_slots = slots.get(i + 2..close).unwrap_or(&[]);
                    let inner = self.subst(&body[i + 2..close], inner_slots, nparams, args, variadic, is_fn)?;
                    let start = out.len();
                    out.extend(inner);
                    if let Some(f) = out.get_mut(start) {
                        f.has_space = t.has_space;
                    }
                } else {
                    marks = true;
                    out.push(placemarker(t));
                }
                i = close + 1;
                continue;
            }
            if let Some(p) = find(i) {
                if next.is_some_and(|n| n.is_punct(Punct::HashHash)) {
                    // Left operand of ##: the raw argument, or a placemarker.
                    let start = out.len();
                    if args[p].is_empty() {
                        marks = true;
                        out.push(placemarker(t));
                    } else {
                        out.extend(args[p].iter().cloned());
                    }
                    out[start].has_space = t.has_space;
                    i += 1;
                    continue;
                }
                if matches!(expanded_args[p], Expanded::Not) {
                    expanded_args[p] = if self.depth < 200 && !self.may_expand(args[p]) {
                        // Nothing to expand (most arguments): the raw tokens,
                        // counted as `expand_isolated` would count them.
                        self.tick_all(args[p])?;
                        Expanded::Raw
                    } else {
                        Expanded::Done(self.expand_isolated(args[p])?)
                    };
                }
                let start = out.len();
                match &expanded_args[p] {
                    Expanded::Done(v) => out.extend(v.iter().cloned()),
                    _ => out.extend(args[p].iter().cloned()),
                }
                if let Some(f) = out.get_mut(start) {
                    f.has_space = t.has_space;
                }
                i += 1;
                continue;
            }
            out.push(t.clone());
            i += 1;
        }
        if marks {
            out.retain(|t| t.kind != TokenKind::Placemarker);
        }
        Ok(out)
    }

    /// Replaces the last token of `out` with it pasted to `rhs` (C11 6.10.3.3).
    fn paste_onto(&mut self, out: &mut [Token], rhs: &Token) -> PResult<()> {
        let Some(lhs) = out.last_mut() else { return Ok(()) };
        if rhs.kind == TokenKind::Placemarker {
            return Ok(());
        }
        if lhs.kind == TokenKind::Placemarker {
            let space = lhs.has_space;
            *lhs = rhs.clone();
            lhs.has_space = space;
            return Ok(());
        }
        let mut text = lhs.text.to_vec();
        text.extend_from_slice(&rhs.text);
        let Some(mut t) = lex_single_with(&text, lhs.span.file, Some(&mut self.interner)) else {
            return Err(Diagnostic::error(
                lhs.span,
                format!(
                    "pasting \"{}\" and \"{}\" does not give a valid preprocessing token",
                    lhs.str(),
                    rhs.str()
                ),
            ));
        };
        t.span = lhs.span;
        t.has_space = lhs.has_space;
        t.hideset = lhs.hideset.clone();
        *lhs = t;
        Ok(())
    }

    fn builtin_token(&mut self, b: Builtin, inv: &Token) -> PResult<Token> {
        let loc = self.sm.location(inv.span);
        let (kind, text) = match b {
            Builtin::File => (TokenKind::Str, quote(&loc.file)),
            Builtin::BaseFile => (TokenKind::Str, quote(&self.sm.file(self.main_file).name)),
            Builtin::Line => (TokenKind::Number, loc.line.to_string()),
            Builtin::Counter => {
                self.counter += 1;
                (TokenKind::Number, (self.counter - 1).to_string())
            }
            Builtin::Date => (TokenKind::Str, quote(&self.date)),
            Builtin::Time => (TokenKind::Str, quote(&self.time)),
            Builtin::IncludeLevel => (
                TokenKind::Number,
                (self.include_stack.len().saturating_sub(1)).to_string(),
            ),
        };
        let mut t = Token::new(kind, text.as_bytes(), inv.span);
        t.at_bol = inv.at_bol;
        t.has_space = inv.has_space;
        let name = self.name_set(&inv.text);
        t.hideset = self.union(&inv.hideset, &name);
        Ok(t)
    }

    /// `_Pragma ( string-literal )` (C11 6.10.9): becomes the `#pragma` line it spells.
    fn expand_pragma_operator(&mut self, tok: &Token) -> PResult<()> {
        self.input.skip();
        let s = self.input.pop();
        let r = self.input.pop();
        let (Some(s), Some(r)) = (s, r) else {
            return Err(Diagnostic::error(
                tok.span,
                "_Pragma takes a parenthesized string literal",
            ));
        };
        if s.kind != TokenKind::Str || !r.is_punct(Punct::RParen) {
            self.input.push(r);
            self.input.push(s);
            return Err(Diagnostic::error(
                tok.span,
                "_Pragma takes a parenthesized string literal",
            ));
        }
        // Destringize: drop the prefix and quotes, unescape \" and \\.
        let q = s.text.iter().position(|&c| c == b'"').unwrap_or(0);
        let inner = if s.text.len() >= q + 2 {
            &s.text[q + 1..s.text.len() - 1]
        } else {
            &[][..]
        };
        let mut un = Vec::with_capacity(inner.len());
        let mut i = 0;
        while i < inner.len() {
            if inner[i] == b'\\' && matches!(inner.get(i + 1), Some(b'"' | b'\\')) {
                i += 1;
            }
            un.push(inner[i]);
            i += 1;
        }
        let mut toks = tokenize(&un, tok.span.file).unwrap_or_default();
        toks.pop();
        let mut line = self.pragma_line(tok.span, toks);
        self.input.push_all(&mut line);
        Ok(())
    }
}

/// [`Preprocessor::union`] on the memo alone (so that it can run while the
/// input is borrowed).
fn union_memo(unions: &mut UnionMemo, a: &HideSet, b: &HideSet) -> HideSet {
    let (Some(x), Some(y)) = (a, b) else {
        return hideset_union(a, b);
    };
    if Arc::ptr_eq(x, y) {
        return a.clone();
    }
    let key = (Arc::as_ptr(x) as usize, Arc::as_ptr(y) as usize);
    if let Some((_, _, u)) = unions.get(&key) {
        return u.clone();
    }
    let u = hideset_union(a, b);
    unions.insert(key, (x.clone(), y.clone(), u.clone()));
    u
}

fn placemarker(at: &Token) -> Token {
    let mut t = Token::new(TokenKind::Placemarker, b"", at.span);
    t.has_space = at.has_space;
    t
}

fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// The `#` operator (C11 6.10.3.2): spell the argument as a string literal,
/// one space for each run of white space, `"` and `\` escaped inside literals.
pub fn stringize(arg: &[Token], span: Span) -> PResult<Token> {
    let mut s = vec![b'"'];
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && t.has_space {
            s.push(b' ');
        }
        if matches!(t.kind, TokenKind::Str | TokenKind::Char) {
            for &c in t.text.iter() {
                if c == b'"' || c == b'\\' {
                    s.push(b'\\');
                }
                s.push(c);
            }
        } else {
            s.extend_from_slice(&t.text);
        }
    }
    s.push(b'"');
    let mut t = Token::new(TokenKind::Str, &s, span);
    t.span = span;
    Ok(t)
}
