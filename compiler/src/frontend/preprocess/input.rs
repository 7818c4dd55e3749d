//! The preprocessor's pending input: what the main loop reads next.
//!
//! Two kinds of source are layered: the token vectors of the files being
//! read (shared with the per-file token cache, read through a cursor, never
//! copied whole), and a stack of tokens pushed in front of them (macro
//! expansions to rescan, tokens looked at and given back). Entering a file
//! records how many pushed tokens lie below it; while the stack holds more
//! than that, the pushed tokens come first, then the rest of the file, then
//! the pushed tokens below it, then the file under that, and so on. A file's
//! cursor is dropped when its last token (its `Eof`) is read.
//!
//! Expanding a token list on its own (a macro argument, a `#if` line) puts
//! it in front of everything, behind an end marker ([`Input::push_isolated`]):
//! the expansion reads up to the marker, never past it, and leaves the
//! input as it found it, without a second input to build and swap in.
//!
//! Reading a token from a file clones it (its spelling is shared, so that is
//! a reference count); a skipped token is never cloned. A file whose tokens
//! nobody else holds (the main file, which is not cached) is read by
//! moving its tokens out: no reference counts at all.

use super::super::token::Token;
use std::sync::Arc;

/// A file being read: its tokens and the next one's index.
#[derive(Debug)]
struct Cursor {
    toks: Toks,
    /// `pushed.len()` when the file was entered: pushed tokens at or above
    /// this index come before the file's tokens.
    base: usize,
}

/// A file's tokens still to read.
#[derive(Debug)]
enum Toks {
    /// Shared with the token cache: read by cloning from `pos` on.
    Shared(Arc<Vec<Token>>, usize),
    /// Ours alone: moved out one by one.
    Owned(std::vec::IntoIter<Token>),
}

impl Toks {
    #[inline]
    fn first(&self) -> Option<&Token> {
        match self {
            Toks::Shared(v, pos) => v.get(*pos),
            Toks::Owned(it) => it.as_slice().first(),
        }
    }

    /// Takes the first token (`None` if none is left).
    #[inline]
    fn take(&mut self) -> Option<Token> {
        match self {
            Toks::Shared(v, pos) => {
                let t = v.get(*pos)?.clone();
                *pos += 1;
                Some(t)
            }
            Toks::Owned(it) => it.next(),
        }
    }

    /// Drops the first token.
    #[inline]
    fn skip(&mut self) {
        match self {
            Toks::Shared(_, pos) => *pos += 1,
            Toks::Owned(it) => {
                it.next();
            }
        }
    }

    #[inline]
    fn is_empty(&self) -> bool {
        match self {
            Toks::Shared(v, pos) => *pos >= v.len(),
            Toks::Owned(it) => it.as_slice().is_empty(),
        }
    }
}

/// See the module doc.
#[derive(Debug, Default)]
pub(crate) struct Input {
    /// Top = next.
    pushed: Vec<Token>,
    files: Vec<Cursor>,
}

impl Input {
    /// Puts `toks` (in order) and then `end` in front of the input, and
    /// returns the height to [`Self::truncate`] to so as to drop whatever
    /// of them is left. `end` (an `Eof`) stops a reader: nothing past it
    /// is read while it is there.
    pub(crate) fn push_isolated(&mut self, toks: &[Token], end: Token) -> usize {
        let floor = self.pushed.len();
        self.pushed.reserve(toks.len() + 1);
        self.pushed.push(end);
        self.pushed.extend(toks.iter().rev().cloned());
        floor
    }

    /// Drops pushed tokens down to `height` (a height from
    /// [`Self::push_isolated`], after an error left some of its tokens).
    pub(crate) fn truncate(&mut self, height: usize) {
        self.pushed.truncate(height);
    }

    /// Starts reading `toks` before everything else (moving them out if
    /// nobody else holds them).
    pub(crate) fn enter(&mut self, toks: Arc<Vec<Token>>) {
        if !toks.is_empty() {
            let toks = match Arc::try_unwrap(toks) {
                Ok(v) => Toks::Owned(v.into_iter()),
                Err(shared) => Toks::Shared(shared, 0),
            };
            self.files.push(Cursor {
                toks,
                base: self.pushed.len(),
            });
        }
    }

    /// Puts `t` in front of the input.
    #[inline]
    pub(crate) fn push(&mut self, t: Token) {
        self.pushed.push(t);
    }

    /// Moves `toks` (in order) in front of the input, leaving it empty.
    #[inline]
    pub(crate) fn push_all(&mut self, toks: &mut Vec<Token>) {
        // A block copy and an in-place reversal: cheaper than pushing
        // the tokens one by one from the back.
        let start = self.pushed.len();
        self.pushed.append(toks);
        self.pushed[start..].reverse();
    }

    /// The file the next token comes from, if it does not come from the
    /// pushed tokens.
    #[inline]
    fn next_file(&self) -> Option<usize> {
        let i = self.files.len().checked_sub(1)?;
        (self.pushed.len() <= self.files[i].base).then_some(i)
    }

    /// Moves past a file's token (dropping the file once read).
    /// Drops file `i` (the innermost) once read.
    #[inline]
    fn drop_if_read(&mut self, i: usize) {
        if self.files[i].toks.is_empty() {
            self.files.pop();
        }
    }

    /// Takes the next token.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<Token> {
        match self.next_file() {
            Some(i) => {
                let t = self.files[i].toks.take();
                self.drop_if_read(i);
                t
            }
            None => self.pushed.pop(),
        }
    }

    /// Drops the next token.
    #[inline]
    pub(crate) fn skip(&mut self) {
        match self.next_file() {
            Some(i) => {
                self.files[i].toks.skip();
                self.drop_if_read(i);
            }
            None => {
                self.pushed.pop();
            }
        }
    }

    /// The next token.
    #[inline]
    pub(crate) fn peek(&self) -> Option<&Token> {
        match self.next_file() {
            Some(i) => self.files[i].toks.first(),
            None => self.pushed.last(),
        }
    }

    /// Moves the tokens that come next to `out` while `plain` holds for
    /// them, and returns how many: the shortcut of the main loop and of
    /// argument reading for tokens that need no work. Stops where the next
    /// token would come from another source (a run never crosses from the
    /// pushed tokens into a file, or out of one).
    pub(crate) fn take_run(&mut self, out: &mut Vec<Token>, mut plain: impl FnMut(&Token) -> bool) -> usize {
        let Some(i) = self.next_file() else {
            // From the pushed tokens (top = next), down to where the
            // innermost file's tokens come in.
            let floor = self.files.last().map_or(0, |f| f.base);
            let avail = &self.pushed[floor..];
            let n = avail.iter().rev().position(|t| !plain(t)).unwrap_or(avail.len());
            let from = self.pushed.len() - n;
            out.extend(self.pushed.drain(from..).rev());
            return n;
        };
        let n = match &mut self.files[i].toks {
            Toks::Shared(v, pos) => {
                let rest = &v[*pos..];
                let n = rest.iter().position(|t| !plain(t)).unwrap_or(rest.len());
                out.extend_from_slice(&rest[..n]);
                *pos += n;
                n
            }
            Toks::Owned(it) => {
                let rest = it.as_slice();
                let n = rest.iter().position(|t| !plain(t)).unwrap_or(rest.len());
                out.extend(it.by_ref().take(n));
                n
            }
        };
        self.drop_if_read(i);
        n
    }

    /// Drops the tokens that come next while `skip` holds for them,
    /// stopping where the next token would come from another source.
    pub(crate) fn skip_while(&mut self, mut skip: impl FnMut(&Token) -> bool) {
        let Some(i) = self.next_file() else {
            let floor = self.files.last().map_or(0, |f| f.base);
            let avail = &self.pushed[floor..];
            let n = avail.iter().rev().position(|t| !skip(t)).unwrap_or(avail.len());
            self.pushed.truncate(self.pushed.len() - n);
            return;
        };
        match &mut self.files[i].toks {
            Toks::Shared(v, pos) => {
                let rest = &v[*pos..];
                *pos += rest.iter().position(|t| !skip(t)).unwrap_or(rest.len());
            }
            Toks::Owned(it) => {
                let rest = it.as_slice();
                let n = rest.iter().position(|t| !skip(t)).unwrap_or(rest.len());
                if n > 0 {
                    it.nth(n - 1);
                }
            }
        }
        self.drop_if_read(i);
    }

    /// The next token, to change (a file's token is copied out first).
    #[inline]
    pub(crate) fn peek_mut(&mut self) -> Option<&mut Token> {
        if self.next_file().is_some() {
            let t = self.pop()?;
            self.pushed.push(t);
        }
        self.pushed.last_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::source::Span;
    use crate::frontend::token::TokenKind;

    fn tok(s: &str) -> Token {
        Token::new(TokenKind::Ident, s.as_bytes(), Span::default())
    }

    fn file(words: &str) -> Arc<Vec<Token>> {
        Arc::new(words.split(' ').map(tok).collect())
    }

    fn drain(input: &mut Input) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(t) = input.pop() {
            out.push(t.str().into_owned());
        }
        out
    }

    #[test]
    fn files_nest_between_pushed_tokens() {
        let mut input = Input::default();
        input.enter(file("a b c"));
        assert_eq!(input.pop().unwrap().str(), "a");
        // Pushed in front of the rest of the outer file...
        input.push_all(&mut vec![tok("x"), tok("y")]);
        assert_eq!(input.pop().unwrap().str(), "x");
        // ...then an inner file before the remaining `y`.
        input.enter(file("i j"));
        assert_eq!(input.peek().unwrap().str(), "i");
        input.skip();
        input.push(tok("p"));
        assert_eq!(drain(&mut input), ["p", "j", "y", "b", "c"]);
    }

    #[test]
    fn peek_mut_changes_only_the_read_copy() {
        let shared = file("a b");
        let mut input = Input::default();
        input.enter(shared.clone());
        input.peek_mut().unwrap().has_space = true;
        let a = input.pop().unwrap();
        assert!(a.has_space);
        assert!(!shared[0].has_space);
        assert_eq!(drain(&mut input), ["b"]);
    }

    #[test]
    fn runs_stop_at_the_first_other_token_and_at_a_source_boundary() {
        let mut input = Input::default();
        input.enter(file("a b X c"));
        let mut out = Vec::new();
        let plain = |t: &Token| &*t.text != b"X";
        assert_eq!(input.take_run(&mut out, plain), 2);
        assert_eq!(input.pop().unwrap().str(), "X");
        // Pushed tokens first, then the rest of the file: a run stops between.
        input.push_all(&mut vec![tok("p"), tok("q")]);
        assert_eq!(input.take_run(&mut out, plain), 2);
        input.push_all(&mut vec![tok("r"), tok("X")]);
        input.enter(file("i"));
        assert_eq!(input.take_run(&mut out, plain), 1);
        assert_eq!(input.take_run(&mut out, plain), 1);
        let names: Vec<String> = out.iter().map(|t| t.str().into_owned()).collect();
        assert_eq!(names, ["a", "b", "p", "q", "i", "r"]);
        assert_eq!(drain(&mut input), ["X", "c"]);
    }

    #[test]
    fn skips_stop_at_the_first_kept_token_and_at_a_source_boundary() {
        let keep = |t: &Token| &*t.text == b"K";
        for shared in [false, true] {
            let f = file("a b K c");
            let _hold = shared.then(|| f.clone());
            let mut input = Input::default();
            input.enter(f);
            input.skip_while(|t| !keep(t));
            input.push_all(&mut vec![tok("p"), tok("K")]);
            input.skip_while(|t| !keep(t));
            assert_eq!(drain(&mut input), ["K", "K", "c"]);
        }
    }

    #[test]
    fn isolated_tokens_come_first_then_their_end_then_the_rest() {
        let mut input = Input::default();
        input.enter(file("f g"));
        assert_eq!(input.pop().unwrap().str(), "f");
        input.push(tok("p"));
        let floor = input.push_isolated(&[tok("a"), tok("b")], tok("end"));
        // An isolated list inside another.
        assert_eq!(input.pop().unwrap().str(), "a");
        let inner = input.push_isolated(&[tok("x")], tok("end2"));
        assert_eq!(input.pop().unwrap().str(), "x");
        assert_eq!(input.pop().unwrap().str(), "end2");
        assert_eq!(input.peek().unwrap().str(), "b");
        // Dropping the rest of an isolated list (after an error).
        let again = input.push_isolated(&[tok("y"), tok("z")], tok("end3"));
        assert_eq!(input.pop().unwrap().str(), "y");
        input.truncate(again);
        assert!(inner == again);
        assert_eq!(input.pop().unwrap().str(), "b");
        assert_eq!(input.pop().unwrap().str(), "end");
        input.truncate(floor);
        assert_eq!(drain(&mut input), ["p", "g"]);
    }
}
