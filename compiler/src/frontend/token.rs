//! Tokens: the preprocessing tokens of C11 6.4 (identifiers, pp-numbers,
//! character constants, string literals, punctuators and stray characters)
//! and, after preprocessing, keywords.
//!
//! A token keeps its spelling as bytes (source files need not be UTF-8), its
//! span, the two layout bits the preprocessor needs (first on its line,
//! preceded by white space) and the *hideset* of Prosser's macro-expansion
//! algorithm (the names of macros whose expansion produced it and that must
//! not expand again; see `preprocess/mod.rs`).
//!
//! Hidesets hold macro names, and the preprocessor interns every identifier
//! (`intern.rs`): one allocation per spelling. So a name is compared by the
//! address of its spelling ([`name_key`]), and a hideset is sorted by it.

use super::source::Span;
use std::borrow::Cow;
use std::sync::Arc;

/// Token spelling; shared so that copying a token is cheap.
pub type Text = Arc<[u8]>;

/// Punctuators of C11 6.4.6 (digraphs map to their ordinary spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    Semi,
    Ellipsis,
    Assign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    PlusAssign,
    MinusAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    CaretAssign,
    PipeAssign,
    Comma,
    Hash,
    HashHash,
}

/// Every punctuator spelling, longest first so a greedy match is correct.
pub const PUNCTUATORS: &[(&str, Punct)] = &[
    ("%:%:", Punct::HashHash),
    ("...", Punct::Ellipsis),
    ("<<=", Punct::ShlAssign),
    (">>=", Punct::ShrAssign),
    ("->", Punct::Arrow),
    ("++", Punct::PlusPlus),
    ("--", Punct::MinusMinus),
    ("<<", Punct::Shl),
    (">>", Punct::Shr),
    ("<=", Punct::Le),
    (">=", Punct::Ge),
    ("==", Punct::EqEq),
    ("!=", Punct::Ne),
    ("&&", Punct::AmpAmp),
    ("||", Punct::PipePipe),
    ("*=", Punct::StarAssign),
    ("/=", Punct::SlashAssign),
    ("%=", Punct::PercentAssign),
    ("+=", Punct::PlusAssign),
    ("-=", Punct::MinusAssign),
    ("&=", Punct::AmpAssign),
    ("^=", Punct::CaretAssign),
    ("|=", Punct::PipeAssign),
    ("##", Punct::HashHash),
    ("<:", Punct::LBracket),
    (":>", Punct::RBracket),
    ("<%", Punct::LBrace),
    ("%>", Punct::RBrace),
    ("%:", Punct::Hash),
    ("[", Punct::LBracket),
    ("]", Punct::RBracket),
    ("(", Punct::LParen),
    (")", Punct::RParen),
    ("{", Punct::LBrace),
    ("}", Punct::RBrace),
    (".", Punct::Dot),
    ("&", Punct::Amp),
    ("*", Punct::Star),
    ("+", Punct::Plus),
    ("-", Punct::Minus),
    ("~", Punct::Tilde),
    ("!", Punct::Bang),
    ("/", Punct::Slash),
    ("%", Punct::Percent),
    ("<", Punct::Lt),
    (">", Punct::Gt),
    ("^", Punct::Caret),
    ("|", Punct::Pipe),
    ("?", Punct::Question),
    (":", Punct::Colon),
    (";", Punct::Semi),
    ("=", Punct::Assign),
    (",", Punct::Comma),
    ("#", Punct::Hash),
];

impl Punct {
    /// The canonical spelling.
    pub fn as_str(self) -> &'static str {
        PUNCTUATORS
            .iter()
            .rev()
            .find(|(_, p)| *p == self)
            .map(|(s, _)| *s)
            .unwrap_or("?")
    }
}

macro_rules! keywords {
    ($($name:ident = $($spelling:literal)|+;)*) => {
        /// Keywords of C11 6.4.1 plus the GNU spellings glibc headers use.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Keyword { $($name),* }

        impl Keyword {
            /// The keyword spelled `s`, if any.
            pub fn from_bytes(s: &[u8]) -> Option<Keyword> {
                match s {
                    $($($spelling)|+ => Some(Keyword::$name),)*
                    _ => None,
                }
            }
        }
    };
}

keywords! {
    Auto = b"auto";
    Break = b"break";
    Case = b"case";
    Char = b"char";
    Const = b"const" | b"__const" | b"__const__";
    Continue = b"continue";
    Default = b"default";
    Do = b"do";
    Double = b"double";
    Else = b"else";
    Enum = b"enum";
    Extern = b"extern";
    Float = b"float";
    For = b"for";
    Goto = b"goto";
    If = b"if";
    Inline = b"inline" | b"__inline" | b"__inline__";
    Int = b"int";
    Long = b"long";
    Register = b"register";
    Restrict = b"restrict" | b"__restrict" | b"__restrict__";
    Return = b"return";
    Short = b"short";
    Signed = b"signed" | b"__signed" | b"__signed__";
    Sizeof = b"sizeof";
    Static = b"static";
    Struct = b"struct";
    Switch = b"switch";
    Typedef = b"typedef";
    Union = b"union";
    Unsigned = b"unsigned";
    Void = b"void";
    Volatile = b"volatile" | b"__volatile" | b"__volatile__";
    While = b"while";
    Alignas = b"_Alignas";
    Alignof = b"_Alignof" | b"__alignof" | b"__alignof__";
    Atomic = b"_Atomic";
    Bool = b"_Bool";
    Complex = b"_Complex" | b"__complex__" | b"__complex";
    Generic = b"_Generic";
    Imaginary = b"_Imaginary";
    Noreturn = b"_Noreturn";
    StaticAssert = b"_Static_assert";
    ThreadLocal = b"_Thread_local" | b"__thread";
    Int128 = b"__int128";
    Int128T = b"__int128_t";
    UInt128T = b"__uint128_t";
    Float128 = b"__float128";
    Attribute = b"__attribute__" | b"__attribute";
    Extension = b"__extension__";
    Typeof = b"typeof" | b"__typeof" | b"__typeof__";
    Asm = b"asm" | b"__asm" | b"__asm__";
    Label = b"__label__";
    BuiltinVaList = b"__builtin_va_list";
    BuiltinVaArg = b"__builtin_va_arg";
    BuiltinOffsetof = b"__builtin_offsetof";
    BuiltinTypesCompatibleP = b"__builtin_types_compatible_p";
    Real = b"__real__" | b"__real";
    AutoType = b"__auto_type";
    Imag = b"__imag__" | b"__imag";
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Ident,
    /// Only after [`super::lexer::convert_keywords`].
    Keyword(Keyword),
    /// A pp-number (C11 6.4.8): an integer or floating constant once parsed.
    Number,
    /// A character constant with optional prefix `L`, `u`, `U`.
    Char,
    /// A string literal with optional prefix `L`, `u`, `U`, `u8`.
    Str,
    Punct(Punct),
    /// A stray character that is no other token (e.g. `@`, `` ` ``, `\`).
    Other,
    /// A `#pragma` the preprocessor passes to the parser; `text` is the rest of
    /// the directive line (re-lex it with `lexer::tokenize` to get its tokens).
    Pragma,
    /// A placemarker (C11 6.10.3.3p2): an empty `##` operand, removed after substitution.
    Placemarker,
    Eof,
}

/// The set of macro names a token must not expand (Prosser's hideset):
/// interned spellings, sorted by [`name_key`].
pub type HideSet = Option<Arc<Vec<Text>>>;

/// One token.
#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokenKind,
    pub text: Text,
    pub span: Span,
    /// First token of its line (a `#` here starts a directive).
    pub at_bol: bool,
    /// Preceded by white space or a comment (matters for `#` stringizing and `-E`).
    pub has_space: bool,
    pub hideset: HideSet,
}

/// The identity of an interned spelling: its address. Two interned
/// spellings are equal exactly when their keys are (while the interner that
/// holds them lives, no address is reused).
#[inline(always)]
pub fn name_key(t: &Text) -> usize {
    Arc::as_ptr(t) as *const u8 as usize
}

/// The empty spelling (of `Eof` and placemarker tokens), allocated once per
/// process and shared.
pub fn empty_text() -> Text {
    static EMPTY: std::sync::OnceLock<Text> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| Text::from(&b""[..])).clone()
}

impl Token {
    pub fn new(kind: TokenKind, text: &[u8], span: Span) -> Token {
        let text = if text.is_empty() { empty_text() } else { Arc::from(text) };
        Token::with_text(kind, text, span)
    }

    /// A token whose spelling is already shared.
    pub fn with_text(kind: TokenKind, text: Text, span: Span) -> Token {
        Token {
            kind,
            text,
            span,
            at_bol: false,
            has_space: false,
            hideset: None,
        }
    }

    /// True for the punctuator `p`.
    pub fn is_punct(&self, p: Punct) -> bool {
        self.kind == TokenKind::Punct(p)
    }

    /// True for an identifier (or keyword) spelled `s`.
    pub fn is_ident(&self, s: &str) -> bool {
        matches!(self.kind, TokenKind::Ident | TokenKind::Keyword(_)) && &*self.text == s.as_bytes()
    }

    pub fn is_keyword(&self, k: Keyword) -> bool {
        self.kind == TokenKind::Keyword(k)
    }

    /// The spelling, lossily decoded for messages.
    pub fn str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.text)
    }

    /// Whether `name` (interned) is in this token's hideset.
    #[inline]
    pub fn hidden(&self, name: &Text) -> bool {
        let key = name_key(name);
        self.hideset
            .as_ref()
            .is_some_and(|hs| hs.binary_search_by_key(&key, name_key).is_ok())
    }
}

/// Union of two hidesets.
pub fn hideset_union(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            if Arc::ptr_eq(x, y) {
                return a.clone();
            }
            // Both are sorted: merge them, and keep an operand that already
            // holds the other.
            let mut v: Vec<Text> = Vec::with_capacity(x.len() + y.len());
            let (mut i, mut j) = (0, 0);
            while i < x.len() && j < y.len() {
                match name_key(&x[i]).cmp(&name_key(&y[j])) {
                    std::cmp::Ordering::Less => {
                        v.push(x[i].clone());
                        i += 1;
                    }
                    std::cmp::Ordering::Greater => {
                        v.push(y[j].clone());
                        j += 1;
                    }
                    std::cmp::Ordering::Equal => {
                        v.push(x[i].clone());
                        i += 1;
                        j += 1;
                    }
                }
            }
            if j == y.len() && v.len() + (x.len() - i) == x.len() {
                return a.clone();
            }
            if i == x.len() && v.len() + (y.len() - j) == y.len() {
                return b.clone();
            }
            v.extend(x[i..].iter().cloned());
            v.extend(y[j..].iter().cloned());
            Some(Arc::new(v))
        }
    }
}

/// Intersection of two hidesets.
pub fn hideset_intersection(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        // The same set (a macro name and its `)` from one expansion).
        (Some(x), Some(y)) if Arc::ptr_eq(x, y) => a.clone(),
        (Some(x), Some(y)) => {
            let v: Vec<Text> = x
                .iter()
                .filter(|n| y.binary_search_by_key(&name_key(n), name_key).is_ok())
                .cloned()
                .collect();
            if v.is_empty() {
                None
            } else {
                Some(Arc::new(v))
            }
        }
        _ => None,
    }
}

/// A hideset of one name.
pub fn hideset_of(name: &Text) -> HideSet {
    Some(Arc::new(vec![name.clone()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::intern::Interner;

    /// A hideset of `names`, interned in `i` and sorted by key as the
    /// preprocessor keeps them.
    fn set(i: &mut Interner, names: &[&str]) -> HideSet {
        let mut v: Vec<Text> = names.iter().map(|n| i.intern(n.as_bytes())).collect();
        v.sort_by_key(name_key);
        Some(Arc::new(v))
    }

    /// The names of a hideset, in spelling order (the set's own order is by
    /// address, which is no one's business).
    fn names(hs: &HideSet) -> Vec<String> {
        let mut v: Vec<String> = hs
            .as_ref()
            .map(|v| v.iter().map(|t| String::from_utf8_lossy(t).into_owned()).collect())
            .unwrap_or_default();
        v.sort();
        v
    }

    fn sorted_by_key(hs: &HideSet) -> bool {
        hs.as_ref()
            .is_none_or(|v| v.windows(2).all(|w| name_key(&w[0]) < name_key(&w[1])))
    }

    #[test]
    fn union_merges_sets_without_duplicates() {
        let mut i = Interner::default();
        let u = hideset_union(&set(&mut i, &["A", "C", "E"]), &set(&mut i, &["B", "C", "F"]));
        assert_eq!(names(&u), ["A", "B", "C", "E", "F"]);
        assert!(sorted_by_key(&u));
        assert_eq!(names(&hideset_union(&None, &set(&mut i, &["X"]))), ["X"]);
        assert_eq!(names(&hideset_union(&set(&mut i, &["X"]), &None)), ["X"]);
    }

    #[test]
    fn union_with_a_subset_shares_the_superset() {
        let mut i = Interner::default();
        let big = set(&mut i, &["A", "B", "C"]);
        let u = hideset_union(&big, &set(&mut i, &["B"]));
        assert!(Arc::ptr_eq(u.as_ref().unwrap(), big.as_ref().unwrap()));
        let u = hideset_union(&set(&mut i, &["A", "C"]), &big);
        assert!(Arc::ptr_eq(u.as_ref().unwrap(), big.as_ref().unwrap()));
        let u = hideset_union(&set(&mut i, &["A", "D"]), &big);
        assert_eq!(names(&u), ["A", "B", "C", "D"]);
        assert!(sorted_by_key(&u));
    }

    #[test]
    fn intersection_and_membership_go_by_interned_identity() {
        let mut i = Interner::default();
        let a = set(&mut i, &["P", "Q", "R", "S"]);
        let b = set(&mut i, &["Q", "S", "T"]);
        assert_eq!(names(&hideset_intersection(&a, &b)), ["Q", "S"]);
        assert_eq!(hideset_intersection(&a, &set(&mut i, &["Z"])), None);
        let mut t = Token::new(TokenKind::Ident, b"Q", Span::default());
        t.hideset = a;
        assert!(t.hidden(&i.intern(b"Q")) && t.hidden(&i.intern(b"S")));
        assert!(!t.hidden(&i.intern(b"T")));
    }
}
