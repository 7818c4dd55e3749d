//! The lexer: translation phase 3 (C11 5.1.1.2), splitting a file's cleaned
//! text (splices already removed by `source.rs`) into preprocessing tokens
//! (C11 6.4): identifiers, pp-numbers, character constants and string literals
//! (with the prefixes `L`, `u`, `U`, `u8`), punctuators (greedy longest match,
//! digraphs included) and single stray characters. Comments become white
//! space. Each token records whether it starts a line and whether white space
//! precedes it. After preprocessing, [`convert_keywords`] turns identifiers
//! that spell keywords into keyword tokens. The values of literals are decoded
//! later by `literal.rs`, where the parser needs them.
//!
//! Bytes at or above 0x80 are accepted in identifiers (UTF-8 identifiers, as
//! gcc does), so no input makes the lexer fail except an unterminated comment,
//! character constant or string literal.

use super::intern::Interner;
use super::source::{Diagnostic, FileId, PResult, SourceMap, Span};
use super::token::{Keyword, Punct, Text, Token, TokenKind, PUNCTUATORS};
use std::sync::OnceLock;

/// The canonical spelling of `p`, allocated once per process.
fn shared_punct_text(p: Punct) -> Text {
    punct_texts()[p as usize].clone()
}

/// Every punctuator's canonical spelling, indexed by `Punct as usize`.
fn punct_texts() -> &'static [Text] {
    static TEXTS: OnceLock<Vec<Text>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let n = PUNCTUATORS.iter().map(|(_, q)| *q as usize).max().unwrap_or(0) + 1;
        let mut v: Vec<Text> = vec![Text::from(&b""[..]); n];
        for (_, q) in PUNCTUATORS {
            v[*q as usize] = Text::from(q.as_str().as_bytes());
        }
        v
    })
}

/// What a byte may begin, for the lexer's dispatch: one table load instead
/// of a chain of range tests per byte (C code is mostly identifiers, white
/// space and punctuators).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
enum Class {
    /// A stray character (C11 6.4p3: "each non-white-space character that
    /// cannot be one of the above").
    Other,
    /// Horizontal white space: space, tab, carriage return, form feed,
    /// vertical tab.
    Space,
    Newline,
    /// A letter, `_`, `$` or a byte at or above 0x80 (UTF-8 identifiers,
    /// as gcc accepts them), except the literal prefixes.
    Ident,
    /// `L`, `u`, `U`: an identifier, or the prefix of a literal.
    Prefix,
    Digit,
    /// `"` or `'`.
    Quote,
    /// `.`: a punctuator, or the start of a pp-number.
    Dot,
    /// `/`: a punctuator, or the start of a comment.
    Slash,
    /// The first byte of some other punctuator.
    Punct,
}

static CLASS: [Class; 256] = {
    let mut t = [Class::Other; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c == b'L' || c == b'u' || c == b'U' {
            Class::Prefix
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80 {
            Class::Ident
        } else if c.is_ascii_digit() {
            Class::Digit
        } else if c == b' ' || c == b'\t' || c == b'\r' || c == b'\x0b' || c == b'\x0c' {
            Class::Space
        } else if c == b'\n' {
            Class::Newline
        } else if c == b'"' || c == b'\'' {
            Class::Quote
        } else if c == b'.' {
            Class::Dot
        } else if c == b'/' {
            Class::Slash
        } else if matches!(
            c,
            b'[' | b']'
                | b'('
                | b')'
                | b'{'
                | b'}'
                | b'-'
                | b'+'
                | b'&'
                | b'*'
                | b'~'
                | b'!'
                | b'%'
                | b'<'
                | b'>'
                | b'='
                | b'^'
                | b'|'
                | b'?'
                | b':'
                | b';'
                | b','
                | b'#'
        ) {
            Class::Punct
        } else {
            Class::Other
        };
        b += 1;
    }
    t
};

#[inline(always)]
fn class(b: u8) -> Class {
    CLASS[b as usize]
}

#[inline(always)]
fn is_ident_continue(b: u8) -> bool {
    matches!(class(b), Class::Ident | Class::Prefix | Class::Digit)
}

/// The punctuator that starts at `text[i]`, greedily the longest (C11
/// 6.4p4), digraphs as their ordinary spelling (6.4.6p3), and its length.
/// Written out per first byte: searching the spelling table compared
/// strings with a library call per candidate.
#[inline(always)]
fn punctuator(text: &[u8], i: usize) -> Option<(Punct, usize)> {
    use Punct::*;
    let at = |k: usize| text.get(i + k).copied().unwrap_or(0);
    let n1 = at(1);
    // One byte, or two when the second is `second`.
    let or2 = |second: u8, two: Punct, one: Punct| if n1 == second { (two, 2) } else { (one, 1) };
    Some(match text[i] {
        b'[' => (LBracket, 1),
        b']' => (RBracket, 1),
        b'(' => (LParen, 1),
        b')' => (RParen, 1),
        b'{' => (LBrace, 1),
        b'}' => (RBrace, 1),
        b'~' => (Tilde, 1),
        b'?' => (Question, 1),
        b';' => (Semi, 1),
        b',' => (Comma, 1),
        b'.' if n1 == b'.' && at(2) == b'.' => (Ellipsis, 3),
        b'.' => (Dot, 1),
        b'-' => match n1 {
            b'>' => (Arrow, 2),
            b'-' => (MinusMinus, 2),
            b'=' => (MinusAssign, 2),
            _ => (Minus, 1),
        },
        b'+' => match n1 {
            b'+' => (PlusPlus, 2),
            b'=' => (PlusAssign, 2),
            _ => (Plus, 1),
        },
        b'&' => match n1 {
            b'&' => (AmpAmp, 2),
            b'=' => (AmpAssign, 2),
            _ => (Amp, 1),
        },
        b'|' => match n1 {
            b'|' => (PipePipe, 2),
            b'=' => (PipeAssign, 2),
            _ => (Pipe, 1),
        },
        b'*' => or2(b'=', StarAssign, Star),
        b'!' => or2(b'=', Ne, Bang),
        b'/' => or2(b'=', SlashAssign, Slash),
        b'=' => or2(b'=', EqEq, Assign),
        b'^' => or2(b'=', CaretAssign, Caret),
        b':' => or2(b'>', RBracket, Colon),
        b'#' => or2(b'#', HashHash, Hash),
        b'%' => match n1 {
            b'=' => (PercentAssign, 2),
            b'>' => (RBrace, 2),
            b':' if at(2) == b'%' && at(3) == b':' => (HashHash, 4),
            b':' => (Hash, 2),
            _ => (Percent, 1),
        },
        b'<' => match n1 {
            b'<' if at(2) == b'=' => (ShlAssign, 3),
            b'<' => (Shl, 2),
            b'=' => (Le, 2),
            b':' => (LBracket, 2),
            b'%' => (LBrace, 2),
            _ => (Lt, 1),
        },
        b'>' => match n1 {
            b'>' if at(2) == b'=' => (ShrAssign, 3),
            b'>' => (Shr, 2),
            b'=' => (Ge, 2),
            _ => (Gt, 1),
        },
        _ => return None,
    })
}

/// Lexes all of `file` into tokens, ending with an `Eof` token.
pub fn tokenize_file(sm: &SourceMap, file: FileId) -> PResult<Vec<Token>> {
    let text = sm.file(file).text.clone();
    tokenize(&text, file)
}

/// Lexes `text`, whose spans belong to `file`, ending with an `Eof` token.
pub fn tokenize(text: &[u8], file: FileId) -> PResult<Vec<Token>> {
    tokenize_with(text, file, &mut Interner::default())
}

/// [`tokenize`], sharing identifier and pp-number spellings through
/// `interned` (the preprocessor keeps one for all the files it reads).
pub fn tokenize_with(text: &[u8], file: FileId, interned: &mut Interner) -> PResult<Vec<Token>> {
    // C code has about one token per three bytes (Csmith programs 2.9);
    // headers, mostly comments, far fewer. Room for one per two bytes, the
    // rest given back at the end: no doubling, which would leave the old
    // block behind (memory touched for nothing).
    let mut toks = Vec::with_capacity(text.len() / 2 + 1);
    let puncts = punct_texts();
    let mut i = 0usize;
    let mut at_bol = true;
    let mut has_space = false;
    let span = |s: usize, e: usize| Span::new(file, s as u32, e as u32);
    while i < text.len() {
        // White space and comments.
        match class(text[i]) {
            Class::Newline => {
                i += 1;
                at_bol = true;
                has_space = false;
                continue;
            }
            Class::Space => {
                // Indentation comes in runs.
                i += 1;
                while i < text.len() && class(text[i]) == Class::Space {
                    i += 1;
                }
                has_space = true;
                continue;
            }
            Class::Slash if text.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |k| i + k);
                has_space = true;
                continue;
            }
            Class::Slash if text.get(i + 1) == Some(&b'*') => {
                let Some(end) = find_comment_end(&text[i + 2..]) else {
                    return Err(Diagnostic::error(span(i, i + 2), "unterminated comment"));
                };
                i += 2 + end + 2;
                has_space = true;
                continue;
            }
            _ => {}
        }
        let start = i;
        let kind;
        (kind, i) = scan_token(text, i);
        let spelling: Text = match kind {
            // Digraphs are stored with their ordinary spelling (C11 6.4.6p3);
            // every punctuator shares one spelling, every identifier and
            // pp-number one per preprocessing run (programs repeat their
            // constants, headers their names).
            TokenKind::Punct(p) => puncts[p as usize].clone(),
            TokenKind::Ident | TokenKind::Number => interned.intern(&text[start..i]),
            _ => Text::from(&text[start..i]),
        };
        let mut tok = Token::with_text(kind, spelling, span(start, i));
        tok.at_bol = at_bol;
        tok.has_space = has_space;
        toks.push(tok);
        at_bol = false;
        has_space = false;
    }
    let mut eof = Token::new(TokenKind::Eof, b"", span(text.len(), text.len()));
    eof.at_bol = true;
    toks.push(eof);
    toks.shrink_to_fit();
    Ok(toks)
}

/// Scans the token that starts at `text[i]` (not white space or a comment):
/// its kind and the offset just after it.
#[inline(always)]
fn scan_token(text: &[u8], mut i: usize) -> (TokenKind, usize) {
    let c = text[i];
    let kind;
    match class(c) {
        Class::Digit => return (TokenKind::Number, scan_number(text, i + 1)),
        Class::Dot if text.get(i + 1).is_some_and(|d| d.is_ascii_digit()) => {
            return (TokenKind::Number, scan_number(text, i + 1))
        }
        Class::Ident => return (TokenKind::Ident, scan_ident(text, i + 1)),
        Class::Prefix | Class::Quote => {
            let Some((prefix_len, quote)) = literal_start(&text[i..]) else {
                // `L`, `u`, `U` not before a quote.
                return (TokenKind::Ident, scan_ident(text, i + 1));
            };
            match scan_quoted(text, i + prefix_len, quote) {
                Some(end) => {
                    i = end;
                    kind = if quote == b'"' { TokenKind::Str } else { TokenKind::Char };
                }
                None => {
                    // Unterminated: harmless in a skipped group (gcc lexes it as a
                    // stray character); an error if it reaches the output. The rest
                    // of the line becomes one `Other` token.
                    while i < text.len() && text[i] != b'\n' {
                        i += 1;
                    }
                    kind = TokenKind::Other;
                }
            }
        }
        Class::Dot | Class::Slash | Class::Punct => match punctuator(text, i) {
            Some((p, len)) => {
                i += len;
                kind = TokenKind::Punct(p);
            }
            None => {
                i += 1;
                kind = TokenKind::Other;
            }
        },
        // A stray ASCII byte (bytes >= 0x80 are identifier characters);
        // white space only when the caller let it through.
        Class::Other | Class::Space | Class::Newline => {
            i += 1;
            kind = TokenKind::Other;
        }
    }
    (kind, i)
}

/// The end of the identifier whose rest starts at `text[i]`.
#[inline(always)]
fn scan_ident(text: &[u8], i: usize) -> usize {
    let rest = &text[i..];
    i + rest.iter().position(|&b| !is_ident_continue(b)).unwrap_or(rest.len())
}

/// The end of the pp-number whose rest starts at `text[i]`:
/// `.`? digit (digit | identifier-nondigit | [eEpP][+-] | `.`)* (C11 6.4.8).
#[inline(always)]
fn scan_number(text: &[u8], mut i: usize) -> usize {
    while i < text.len() {
        let d = text[i];
        if is_ident_continue(d) {
            // A sign continues the number only after an exponent letter.
            let sign = matches!(d, b'e' | b'E' | b'p' | b'P') && matches!(text.get(i + 1), Some(b'+' | b'-'));
            i += 1 + sign as usize;
        } else if d == b'.' {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// The offset of `*/` in `hay` (comments are most of a header: a
/// vectorized search for the `/`, which comments seldom hold otherwise;
/// `memmem` would build a searcher for each comment).
fn find_comment_end(hay: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'/', hay.get(1..)?)
        .map(|k| k + 1)
        .find(|&k| hay[k - 1] == b'*')
        .map(|k| k - 1)
}

/// If a character constant or string literal starts here, the length of its
/// prefix (`L`, `u`, `U`, `u8` or none) and its quote character.
fn literal_start(s: &[u8]) -> Option<(usize, u8)> {
    if !matches!(s.first(), Some(b'u' | b'U' | b'L' | b'"' | b'\'')) {
        return None;
    }
    for (prefix, quotes) in [
        (&b"u8"[..], &b"\""[..]),
        (b"L", b"\"'"),
        (b"u", b"\"'"),
        (b"U", b"\"'"),
        (b"", b"\"'"),
    ] {
        if let Some(&q) = s.get(prefix.len()) {
            if s.starts_with(prefix) && quotes.contains(&q) {
                return Some((prefix.len(), q));
            }
        }
    }
    None
}

/// Scans a quoted literal whose opening quote is at `q`; returns the offset
/// after the closing quote, or `None` if the line or file ends first.
fn scan_quoted(text: &[u8], q: usize, quote: u8) -> Option<usize> {
    let mut i = q + 1;
    loop {
        match text.get(i) {
            None | Some(b'\n') => return None,
            Some(b'\\') => i += 2,
            Some(&c) if c == quote => return Some(i + 1),
            Some(_) => i += 1,
        }
    }
}

/// The diagnostic for an `Other` token that reached the parser or `-E` output.
pub fn stray_token_error(t: &Token) -> Diagnostic {
    match t.text.iter().find(|&&c| c == b'\'' || c == b'"') {
        Some(&q) if t.text.len() > 1 || t.text[0] == q => {
            Diagnostic::error(t.span, format!("missing terminating {} character", q as char))
        }
        _ => Diagnostic::error(t.span, format!("stray '{}' in program", t.str())),
    }
}

/// Turns identifiers that spell keywords into keyword tokens (translation phase 7).
pub fn convert_keywords(toks: &mut [Token]) {
    for t in toks {
        if t.kind == TokenKind::Ident {
            if let Some(k) = Keyword::from_bytes(&t.text) {
                t.kind = TokenKind::Keyword(k);
            }
        }
    }
}

/// Lexes `text` and returns its single token, or `None` when it is not exactly
/// one token (the `##` operator's validity check, C11 6.10.3.3p3).
pub fn lex_single(text: &[u8], file: FileId) -> Option<Token> {
    lex_single_with(text, file, None)
}

/// [`lex_single`], sharing an identifier's or pp-number's spelling through
/// `interned` if given (the preprocessor looks macro names up by identity,
/// so a pasted identifier must be interned like a lexed one).
pub fn lex_single_with(text: &[u8], file: FileId, interned: Option<&mut Interner>) -> Option<Token> {
    // White space or a comment first would not be one token (an unterminated
    // comment is no token at all).
    let first = *text.first()?;
    if matches!(first, b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c')
        || (first == b'/' && matches!(text.get(1), Some(b'/' | b'*')))
    {
        return None;
    }
    let (kind, end) = scan_token(text, 0);
    if end != text.len() {
        return None;
    }
    let spelling = match (kind, interned) {
        (TokenKind::Punct(p), _) => shared_punct_text(p),
        (TokenKind::Ident | TokenKind::Number, Some(i)) => i.intern(text),
        _ => Text::from(text),
    };
    let mut tok = Token::with_text(kind, spelling, Span::new(file, 0, end as u32));
    tok.at_bol = true;
    Some(tok)
}

/// Spells a punctuator token back (used by `-E` output and stringizing).
pub fn punct_text(p: Punct) -> &'static str {
    p.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, String)> {
        let toks = tokenize(src.as_bytes(), FileId(0)).unwrap();
        toks.iter()
            .filter(|t| t.kind != TokenKind::Eof)
            .map(|t| (t.kind, t.str().into_owned()))
            .collect()
    }

    #[test]
    fn all_punctuators_lex_greedily() {
        for (s, p) in PUNCTUATORS {
            let k = kinds(s);
            assert_eq!(k, vec![(TokenKind::Punct(*p), p.as_str().to_string())], "{s}");
        }
        let k = kinds("a+++++b<<=c->d...e");
        let texts: Vec<&str> = k.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(texts, ["a", "++", "++", "+", "b", "<<=", "c", "->", "d", "...", "e"]);
    }

    /// The written-out punctuator match against the greedy rule of C11
    /// 6.4p4 applied to the spelling table (longest first): every string of
    /// up to four bytes over the punctuator bytes and a few others.
    #[test]
    fn punctuator_match_is_the_greedy_longest_spelling() {
        let alphabet: Vec<u8> = b"[](){}.-+&*~!/%<>=^|?:;,#a1 @".to_vec();
        let greedy = |s: &[u8]| {
            PUNCTUATORS
                .iter()
                .find(|(p, _)| s.starts_with(p.as_bytes()))
                .map(|(p, q)| (*q, p.len()))
        };
        let mut s = Vec::new();
        let mut checked = 0;
        for len in 1..=4u32 {
            for n in 0..alphabet.len().pow(len) {
                s.clear();
                let mut k = n;
                for _ in 0..len {
                    s.push(alphabet[k % alphabet.len()]);
                    k /= alphabet.len();
                }
                assert_eq!(punctuator(&s, 0), greedy(&s), "{:?}", String::from_utf8_lossy(&s));
                checked += 1;
            }
        }
        assert!(checked > 700_000);
    }

    #[test]
    fn byte_classes() {
        for c in 0..=255u8 {
            let ident = c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
            assert_eq!(is_ident_continue(c), ident, "{c}");
            let space = matches!(c, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c');
            assert_eq!(class(c) == Class::Space, space, "{c}");
            let starts_punct = PUNCTUATORS.iter().any(|(p, _)| p.as_bytes()[0] == c);
            assert_eq!(
                matches!(class(c), Class::Punct | Class::Dot | Class::Slash),
                starts_punct,
                "{c}"
            );
        }
        // Runs of mixed white space are one gap; a stray byte is one token.
        let k = kinds("a \t\x0b\x0c\r b@c");
        assert_eq!(k.iter().map(|x| x.1.as_str()).collect::<Vec<_>>(), ["a", "b", "@", "c"]);
        let toks = tokenize(b"a \t b", FileId(0)).unwrap();
        assert!(toks[1].has_space && toks[1].span.start == 4);
        // `L`, `u`, `U`, `u8` are identifiers unless a quote follows.
        let k = kinds("L u U u8 Lx u8x L'a' u8\"s\"");
        let ks: Vec<TokenKind> = k.iter().map(|x| x.0).collect();
        use TokenKind::*;
        assert_eq!(ks, [Ident, Ident, Ident, Ident, Ident, Ident, Char, Str]);
    }

    #[test]
    fn numbers_and_suffixes_are_pp_numbers() {
        for s in [
            "0x1fULL",
            "1.5e+10f",
            "0x1.8p-3L",
            ".5",
            "1e",
            "08",
            "1..2",
            "123abc",
            "0b101u",
        ] {
            assert_eq!(kinds(s), vec![(TokenKind::Number, s.to_string())], "{s}");
        }
        // e+ only continues after e/E/p/P.
        let k = kinds("1+2");
        assert_eq!(k.len(), 3);
    }

    #[test]
    fn literal_prefixes() {
        let k = kinds(r#"L"a" u"b" U"c" u8"d" "e\"f" 'x' L'y' u'z' U'\'' u8 'q'"#);
        let ks: Vec<TokenKind> = k.iter().map(|x| x.0).collect();
        use TokenKind::*;
        assert_eq!(ks, [Str, Str, Str, Str, Str, Char, Char, Char, Char, Ident, Char]);
        assert_eq!(k[4].1, r#""e\"f""#);
    }

    #[test]
    fn comments_and_layout() {
        let toks = tokenize(b"a/* x\n */b // c\n  #d", FileId(0)).unwrap();
        assert_eq!(toks[1].str(), "b");
        assert!(toks[1].has_space && !toks[1].at_bol);
        assert!(toks[2].at_bol && toks[2].is_punct(Punct::Hash));
        assert!(!toks[3].has_space);
        // A comment ends at the first `*/` after its `/*` (not at the `*`
        // of `/*/`); `/` and `*` inside do not end it.
        let k = kinds("a /*/ b */ c /* / * */ d /**/e/***/f /*x**/g");
        let texts: Vec<&str> = k.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(texts, ["a", "c", "d", "e", "f", "g"]);
        assert!(tokenize(b"a /*/", FileId(0)).is_err());
        assert!(tokenize(b"a /* *", FileId(0)).is_err());
    }

    fn toks_of(s: &str) -> Token {
        tokenize(s.as_bytes(), FileId(0)).unwrap().remove(0)
    }

    #[test]
    fn errors_are_reported_not_panics() {
        assert!(tokenize(b"/* never", FileId(0))
            .unwrap_err()
            .message
            .contains("unterminated comment"));
        let toks = tokenize(b"\"abc\n\"", FileId(0)).unwrap();
        assert_eq!(toks[0].kind, TokenKind::Other);
        assert!(stray_token_error(&toks[0])
            .message
            .contains("missing terminating \" character"));
        let toks = tokenize(b"x '\\", FileId(0)).unwrap();
        assert_eq!((toks[1].kind, &*toks[1].text), (TokenKind::Other, &b"'\\"[..]));
        assert!(stray_token_error(&toks[1])
            .message
            .contains("missing terminating ' character"));
        assert!(stray_token_error(&toks_of("@")).message.contains("stray '@'"));
        let k = kinds("@ ` \\ \u{e9}t\u{e9}");
        assert_eq!(k[0].0, TokenKind::Other);
        assert_eq!(k[3], (TokenKind::Ident, "\u{e9}t\u{e9}".to_string()));
    }

    #[test]
    fn keywords_convert_after_preprocessing() {
        let mut toks = tokenize(b"int __int128 __restrict x __attribute__ __typeof__", FileId(0)).unwrap();
        convert_keywords(&mut toks);
        assert_eq!(toks[0].kind, TokenKind::Keyword(Keyword::Int));
        assert_eq!(toks[1].kind, TokenKind::Keyword(Keyword::Int128));
        assert_eq!(toks[2].kind, TokenKind::Keyword(Keyword::Restrict));
        assert_eq!(toks[3].kind, TokenKind::Ident);
        assert_eq!(toks[4].kind, TokenKind::Keyword(Keyword::Attribute));
        assert_eq!(toks[5].kind, TokenKind::Keyword(Keyword::Typeof));
    }

    #[test]
    fn lex_single_checks_paste_results() {
        assert_eq!(lex_single(b"ab", FileId(0)).unwrap().kind, TokenKind::Ident);
        assert!(lex_single(b"+-", FileId(0)).is_none());
        assert!(lex_single(b"", FileId(0)).is_none());
        // Comments and white space are not a token; a digraph is its ordinary spelling.
        assert!(lex_single(b"//", FileId(0)).is_none());
        assert!(lex_single(b"/*", FileId(0)).is_none());
        assert!(lex_single(b" a", FileId(0)).is_none());
        assert!(lex_single(b"a b", FileId(0)).is_none());
        assert_eq!(&*lex_single(b"%:%:", FileId(0)).unwrap().text, b"##");
        assert_eq!(lex_single(b"1e+5", FileId(0)).unwrap().kind, TokenKind::Number);
        assert_eq!(lex_single(b"L\"x\"", FileId(0)).unwrap().kind, TokenKind::Str);
        assert_eq!(lex_single(b"'a", FileId(0)).unwrap().kind, TokenKind::Other);
        assert_eq!(
            lex_single(b"<<=", FileId(0)).unwrap().kind,
            TokenKind::Punct(Punct::ShlAssign)
        );
    }
}
