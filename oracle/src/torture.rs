//! gcc's C torture execute tests (`gcc.c-torture/execute` and its `ieee/`
//! subdirectory, GCC 12.2 from Debian's `gcc-12-source`) as a project suite.
//!
//! The suite's own drivers decide what runs and how: `execute.exp` runs every
//! `*.c` through `gcc-dg-runtest`, which obeys the DejaGnu `{ dg-... }`
//! directives in each file; `ieee/ieee.exp` runs `c-torture-execute`, which
//! obeys a Tcl file `NAME.x` beside the test. This module reads both the way
//! those drivers do, for one target triplet (`x86_64-pc-linux-gnu`, ...),
//! and keeps the rule simple and faithful:
//!
//! - a test whose directives or `.x` file *apply* options (`dg-options`,
//!   `dg-additional-options`, `lappend additional_flags`) on this target is
//!   **unsupported**: phicc's driver is not gcc's, so its meaning cannot be
//!   reproduced (options guarded by a selector that does not match the
//!   target, such as `{ target ia32 }`, do not apply);
//! - `dg-require-effective-target`, `dg-skip-if`, `dg-xfail-if` and the `.x`
//!   file's `return 1` are evaluated against the target's effective-target
//!   keywords ([`keyword`]) and the configuration's gcc-equivalent flags
//!   (`-O0`, or `-O1` for `opt`); a requirement the target lacks, or a skip
//!   or xfail that matches, makes the test unsupported;
//! - a test that the target's own `gcc -O0` does not build and pass is
//!   unsupported too (the reference run, cached per target).
//!
//! Every other test is *selected*: phicc compiles and links it (static for
//! QEMU targets), phicc-runner runs it, and it passes when it exits 0 (the
//! tests call `abort()` on failure). The outcomes are compared with a tracked
//! expected-failure list, one reason per test ([`ExpectedList`]).

use crate::runner::{self, Job, Limits, Termination};
use crate::target::{Config, Target};
use anyhow::{bail, Context};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Where Debian's `gcc-12-source` puts GCC's sources.
pub const GCC_SOURCE_TARBALL: &str = "/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz";
/// The execute tests' directory inside the tarball.
pub const EXECUTE_DIR: &str = "gcc-12.2.0/gcc/testsuite/gcc.c-torture/execute";

// ---------------------------------------------------------------------------
// Tcl words (the syntax of DejaGnu directives and `.x` files)

/// One Tcl word: a string (bare or quoted) or a braced list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Word {
    Str(String),
    List(Vec<Word>),
}

impl Word {
    /// The strings of a word, lists flattened and each string split at
    /// whitespace (`"-O2 -fwrapv"` and `{ "-O2" "-fwrapv" }` are both two options).
    pub fn strings(&self) -> Vec<String> {
        match self {
            Word::Str(s) => s.split_whitespace().map(str::to_string).collect(),
            Word::List(ws) => ws.iter().flat_map(Word::strings).collect(),
        }
    }

    /// The empty string `""` or an empty list.
    fn is_empty(&self) -> bool {
        match self {
            Word::Str(s) => s.is_empty(),
            Word::List(ws) => ws.is_empty(),
        }
    }
}

/// Splits Tcl text into words: `{...}` (nested) is a list, `"..."` a string
/// (with backslash substitution), anything else a bare word up to
/// whitespace, where `[...]` nests.
pub fn parse_words(s: &str) -> Result<Vec<Word>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let words = parse_words_at(&chars, &mut i, false)?;
    Ok(words)
}

fn parse_words_at(c: &[char], i: &mut usize, nested: bool) -> Result<Vec<Word>, String> {
    let mut words = Vec::new();
    loop {
        while *i < c.len() && c[*i].is_whitespace() {
            *i += 1;
        }
        if *i >= c.len() {
            if nested {
                return Err("unbalanced `{`".into());
            }
            return Ok(words);
        }
        match c[*i] {
            '}' => {
                if !nested {
                    return Err("unbalanced `}`".into());
                }
                *i += 1;
                return Ok(words);
            }
            '{' => {
                *i += 1;
                words.push(Word::List(parse_words_at(c, i, true)?));
            }
            '"' => {
                *i += 1;
                let mut s = String::new();
                loop {
                    match c.get(*i) {
                        None => return Err("unterminated `\"`".into()),
                        Some('"') => break,
                        // Tcl's backslash substitution: `\[` is `[`, `\n` a newline.
                        Some('\\') if *i + 1 < c.len() => {
                            s.push(match c[*i + 1] {
                                'n' => '\n',
                                't' => '\t',
                                'r' => '\r',
                                other => other,
                            });
                            *i += 1;
                        }
                        Some(&ch) => s.push(ch),
                    }
                    *i += 1;
                }
                *i += 1;
                words.push(Word::Str(s));
            }
            _ => {
                let mut s = String::new();
                let mut brackets = 0usize;
                while let Some(&ch) = c.get(*i) {
                    if brackets == 0 && (ch.is_whitespace() || ch == '}' || ch == '{') {
                        break;
                    }
                    match ch {
                        '[' => brackets += 1,
                        ']' => brackets = brackets.saturating_sub(1),
                        _ => {}
                    }
                    s.push(ch);
                    *i += 1;
                }
                words.push(Word::Str(s));
            }
        }
    }
}

/// The `{ dg-NAME args... }` directives of a source file, in order, each as
/// its words (the first is the name).
pub fn directives(source: &str) -> Result<Vec<Vec<Word>>, String> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("dg-") {
        // The directive opens with `{` and optional blanks before `dg-`.
        let before = rest[..at].trim_end_matches([' ', '\t']);
        if !before.ends_with('{') {
            rest = &rest[at + 3..];
            continue;
        }
        let open = before.len() - 1;
        let body = &rest[open + 1..];
        let end =
            matching_brace(body).ok_or_else(|| format!("unterminated directive `{}`", first_line(&rest[open..])))?;
        let words = parse_words(&body[..end]).map_err(|e| format!("{e} in `{}`", first_line(&rest[open..])))?;
        out.push(words);
        rest = &body[end + 1..];
    }
    Ok(out)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// The index of the `}` that closes the text (which starts just after a `{`).
fn matching_brace(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quoted = false;
    let mut escaped = false;
    for (i, ch) in s.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match ch {
            '\\' => escaped = true,
            '"' => quoted = !quoted,
            '{' if !quoted => depth += 1,
            '}' if !quoted => {
                if depth == 0 {
                    return Some(i);
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    None
}

// ---------------------------------------------------------------------------
// Targets as DejaGnu sees them

/// The platform a test is judged for: the target's triplet (as
/// `config.guess` spells it) and the configuration's gcc-equivalent flags
/// (what `dg-skip-if` option lists are matched against).
#[derive(Clone, Debug)]
pub struct Platform {
    pub target: Target,
    pub triplet: String,
    pub flags: Vec<String>,
}

impl Platform {
    pub fn new(target: Target, config: Config) -> Platform {
        let vendor = match target {
            Target::X86_64 => "pc",
            _ => "unknown",
        };
        Platform {
            target,
            triplet: format!("{}-{vendor}-linux-gnu", target.name()),
            flags: vec![match config {
                Config::Opt => "-O1".to_string(),
                Config::Nomem2reg | Config::Mem2reg => "-O0".to_string(),
            }],
        }
    }
}

/// An effective-target keyword's value on a Linux/glibc target, as GCC 12's
/// `check_effective_target_*` finds it there; `None` for a keyword this
/// table does not know (the test is then unsupported, naming it).
pub fn keyword(target: Target, kw: &str) -> Option<bool> {
    Some(match kw {
        // LP64 Linux/glibc ELF targets with a hosted libc, 8 MB of stack,
        // executable stacks for trampolines and a gcc that has them all.
        "int32plus"
        | "int32"
        | "longlong64"
        | "int128"
        | "lp64"
        | "ptr32plus"
        | "size32plus"
        | "double64plus"
        | "stdint_types"
        | "label_values"
        | "trampolines"
        | "alloca"
        | "indirect_jumps"
        | "untyped_assembly"
        | "return_address"
        | "fileio"
        | "unwrapped"
        | "mmap"
        | "c99_runtime"
        | "signal"
        | "fpic"
        | "pie"
        | "weak"
        | "alias"
        | "nonlocal_goto"
        | "hosted"
        | "hard_float"
        | "keeps_null_pointer_checks" => true,
        // Decimal floating point: gcc supports it (BID) only on x86-64 of ours.
        "dfp" => target == Target::X86_64,
        "ia32" | "ilp32" | "int16" | "newlib_nano_io" | "freestanding" | "vxworks_kernel" | "coldfire_fpu"
        | "ti_c67x" | "avr_tiny" => false,
        _ => return None,
    })
}

/// Shell-style glob (`*`, `?`, `[...]`, `\x`), as Tcl's `string match`.
pub fn glob(pattern: &str, text: &str) -> bool {
    fn go(p: &[char], t: &[char]) -> bool {
        match p.first() {
            None => t.is_empty(),
            Some('*') => (0..=t.len()).any(|k| go(&p[1..], &t[k..])),
            Some('?') => !t.is_empty() && go(&p[1..], &t[1..]),
            Some('[') => {
                let Some(close) = p.iter().position(|&c| c == ']') else {
                    return false;
                };
                let set = &p[1..close];
                let hit = t.first().is_some_and(|&c| {
                    let mut k = 0;
                    let mut hit = false;
                    while k < set.len() {
                        if k + 2 < set.len() && set[k + 1] == '-' {
                            hit |= set[k] <= c && c <= set[k + 2];
                            k += 3;
                        } else {
                            hit |= set[k] == c;
                            k += 1;
                        }
                    }
                    hit
                });
                hit && go(&p[close + 1..], &t[1..])
            }
            Some('\\') if p.len() > 1 => t.first() == Some(&p[1]) && go(&p[2..], &t[1..]),
            Some(c) => t.first() == Some(c) && go(&p[1..], &t[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    go(&p, &t)
}

/// One atom of a selector: a triplet glob (it has a `-`) or an
/// effective-target keyword.
fn atom(p: &Platform, s: &str) -> Result<bool, String> {
    if s.contains('-') {
        Ok(glob(s, &p.triplet))
    } else {
        keyword(p.target, s).ok_or_else(|| format!("unknown effective-target keyword `{s}`"))
    }
}

/// Evaluates a DejaGnu target selector: `{ target EXPR }`, or a list of
/// triplet globs and keywords (any matches), or an expression with `!`,
/// `&&` and `||` over such lists.
pub fn selector(p: &Platform, w: &Word) -> Result<bool, String> {
    match w {
        Word::Str(s) => atom(p, s),
        Word::List(ws) => {
            if let Some(Word::Str(first)) = ws.first() {
                if first == "target" {
                    return match &ws[1..] {
                        [one] => selector(p, one),
                        rest => expression(p, rest),
                    };
                }
            }
            expression(p, ws)
        }
    }
}

fn is_op(w: &Word) -> bool {
    matches!(w, Word::Str(s) if s == "!" || s == "&&" || s == "||")
}

fn expression(p: &Platform, ws: &[Word]) -> Result<bool, String> {
    if !ws.iter().any(is_op) {
        // A plain list: any element matches.
        for w in ws {
            if selector(p, w)? {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    let mut i = 0;
    let mut value = unary(p, ws, &mut i)?;
    while i < ws.len() {
        let Word::Str(op) = &ws[i] else {
            return Err("expected `&&` or `||` in a selector".into());
        };
        i += 1;
        let rhs = unary(p, ws, &mut i)?;
        value = match op.as_str() {
            "&&" => value && rhs,
            "||" => value || rhs,
            _ => return Err(format!("unexpected `{op}` in a selector")),
        };
    }
    Ok(value)
}

fn unary(p: &Platform, ws: &[Word], i: &mut usize) -> Result<bool, String> {
    let w = ws.get(*i).ok_or("a selector ends early")?;
    *i += 1;
    if matches!(w, Word::Str(s) if s == "!") {
        return Ok(!unary(p, ws, i)?);
    }
    selector(p, w)
}

/// Whether an option list (`dg-skip-if`'s include or exclude list) hits the
/// platform's flags: `"*"` hits anything, `""` nothing, an option hits when
/// it is one of the flags.
fn options_hit(p: &Platform, w: &Word) -> bool {
    w.strings().iter().any(|o| o == "*" || p.flags.contains(o))
}

// ---------------------------------------------------------------------------
// What the directives and the `.x` file decide

/// Why a test does not run on a platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// Options apply on this target (phicc does not speak gcc's options).
    Options(String),
    /// A target requirement it lacks, or a skip or xfail that matches.
    Target(String),
    /// The target's gcc -O0 does not build and pass it.
    Reference(String),
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Unsupported::Options(s) => write!(f, "options: {s}"),
            Unsupported::Target(s) => write!(f, "target: {s}"),
            Unsupported::Reference(s) => write!(f, "gcc -O0: {s}"),
        }
    }
}

impl Unsupported {
    pub fn kind(&self) -> &'static str {
        match self {
            Unsupported::Options(_) => "options",
            Unsupported::Target(_) => "target",
            Unsupported::Reference(_) => "gcc -O0",
        }
    }
}

/// The DejaGnu directives' verdict on a platform: `Ok(())` when the test runs
/// with no options.
pub fn check_directives(p: &Platform, source: &str) -> Result<(), Unsupported> {
    let ds = directives(source).map_err(Unsupported::Target)?;
    for d in &ds {
        let Some(Word::Str(name)) = d.first() else {
            continue;
        };
        let args = &d[1..];
        let guard = |k: usize| -> Result<bool, Unsupported> {
            match args.get(k) {
                None => Ok(true),
                Some(w) => selector(p, w).map_err(Unsupported::Target),
            }
        };
        match name.as_str() {
            "dg-do" => {
                let what = args.first().map(Word::strings).unwrap_or_default();
                if what.first().map(String::as_str) != Some("run") {
                    return Err(Unsupported::Target(format!("dg-do {}", what.join(" "))));
                }
            }
            "dg-options" | "dg-additional-options" => {
                let opts = args.first().map(Word::strings).unwrap_or_default();
                if guard(1)? && !opts.is_empty() {
                    return Err(Unsupported::Options(opts.join(" ")));
                }
            }
            "dg-add-options" => {
                let feature = args.first().map(Word::strings).unwrap_or_default().join(" ");
                // gcc's add_options_for_stack_size adds -DSTACK_SIZE only for
                // boards with a stack limit, add_options_for_ieee only for
                // alpha, sh and rx: neither adds anything on our targets.
                if feature != "stack_size" && feature != "ieee" {
                    return Err(Unsupported::Options(format!("dg-add-options {feature}")));
                }
            }
            "dg-require-effective-target" => {
                let kw = args.first().map(Word::strings).unwrap_or_default().join(" ");
                if guard(1)?
                    && !keyword(p.target, &kw)
                        .ok_or_else(|| Unsupported::Target(format!("unknown effective-target keyword `{kw}`")))?
                {
                    return Err(Unsupported::Target(format!("requires {kw}")));
                }
            }
            // 8 MB of stack covers every dg-require-stack-size of the suite
            // (the largest is 0x80100); ELF has aliases and weak symbols.
            "dg-require-stack-size" | "dg-require-alias" | "dg-require-weak" => {}
            "dg-skip-if" | "dg-xfail-if" | "dg-xfail-run-if" => {
                let comment = args.first().map(Word::strings).unwrap_or_default().join(" ");
                let sel = args
                    .get(1)
                    .ok_or_else(|| Unsupported::Target(format!("{name} without a selector")))?;
                let hits = selector(p, sel).map_err(Unsupported::Target)?
                    && args.get(2).is_none_or(|w| options_hit(p, w))
                    && !args.get(3).is_some_and(|w| !w.is_empty() && options_hit(p, w));
                if hits {
                    return Err(Unsupported::Target(format!("{name} \"{comment}\"")));
                }
            }
            "dg-prune-output" => {}
            other => return Err(Unsupported::Target(format!("unknown directive {other}"))),
        }
    }
    Ok(())
}

/// The verdict of a test's `.x` file (run by `c-torture-execute`): a small
/// Tcl subset, the one those files use (`if`/`else` on `istarget` and
/// `check_effective_target_*`, `return`, `lappend additional_flags`, `set`,
/// `global`).
pub fn check_x_file(p: &Platform, script: &str) -> Result<(), Unsupported> {
    match exec_tcl(p, script).map_err(|e| Unsupported::Target(format!(".x file: {e}")))? {
        XOutcome { returned: Some(r), .. } if r != "0" => Err(Unsupported::Target(format!(".x file returns {r}"))),
        XOutcome { xfail: true, .. } => Err(Unsupported::Target(".x file sets torture_execute_xfail".into())),
        XOutcome { flags, .. } if !flags.is_empty() => Err(Unsupported::Options(flags.join(" "))),
        _ => Ok(()),
    }
}

#[derive(Default)]
struct XOutcome {
    returned: Option<String>,
    flags: Vec<String>,
    xfail: bool,
}

/// Splits a Tcl script into commands (newline or `;` outside braces,
/// brackets and quotes), dropping comments.
fn tcl_commands(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut depth, mut quoted, mut escaped) = (0i32, false, false);
    for ch in script.chars() {
        if escaped {
            escaped = false;
            cur.push(ch);
            continue;
        }
        match ch {
            '\\' => escaped = true,
            '"' => quoted = !quoted,
            '{' | '[' if !quoted => depth += 1,
            '}' | ']' if !quoted => depth -= 1,
            _ => {}
        }
        if (ch == '\n' || ch == ';') && depth == 0 && !quoted {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty() && !c.starts_with('#'))
        .collect()
}

fn exec_tcl(p: &Platform, script: &str) -> Result<XOutcome, String> {
    let mut out = XOutcome::default();
    exec_into(p, script, &mut out)?;
    Ok(out)
}

/// Runs the commands; true when a `return` ended the script.
fn exec_into(p: &Platform, script: &str, out: &mut XOutcome) -> Result<bool, String> {
    for cmd in tcl_commands(script) {
        let words = parse_words(&cmd)?;
        let Some(Word::Str(name)) = words.first() else {
            return Err(format!("cannot run `{cmd}`"));
        };
        match name.as_str() {
            "return" => {
                out.returned = Some(words.get(1).map(|w| w.strings().join(" ")).unwrap_or_default());
                return Ok(true);
            }
            "global" => {}
            "set" => {
                if matches!(words.get(1), Some(Word::Str(v)) if v == "torture_execute_xfail") {
                    out.xfail = true;
                }
            }
            "lappend" if matches!(words.get(1), Some(Word::Str(v)) if v == "additional_flags") => {
                out.flags.extend(words[2..].iter().flat_map(Word::strings));
            }
            "if" => {
                // if COND BODY ?elseif COND BODY ...? ?else BODY?
                let words = raw_words(&cmd);
                let mut k = 1;
                loop {
                    let cond = words.get(k).ok_or("`if` without a condition")?;
                    let body = words.get(k + 1).ok_or("`if` without a body")?;
                    if tcl_condition(p, cond)? {
                        if exec_into(p, body, out)? {
                            return Ok(true);
                        }
                        break;
                    }
                    match words.get(k + 2).map(String::as_str) {
                        Some("elseif") => k += 3,
                        Some("else") => {
                            let body = words.get(k + 3).ok_or("`else` without a body")?;
                            if exec_into(p, body, out)? {
                                return Ok(true);
                            }
                            break;
                        }
                        None => break,
                        Some(_) => return Err(format!("cannot run `{cmd}`")),
                    }
                }
            }
            _ => return Err(format!("cannot run `{cmd}`")),
        }
    }
    Ok(false)
}

/// A command's words as their source text: a braced word's contents, a
/// quoted word's contents, or a bare word (where `[...]` nests).
fn raw_words(cmd: &str) -> Vec<String> {
    let c: Vec<char> = cmd.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_whitespace() {
            i += 1;
            continue;
        }
        let (open, close) = match c[i] {
            '{' => ('{', '}'),
            '"' => ('"', '"'),
            _ => ('[', ']'),
        };
        if open != '[' {
            let start = i + 1;
            let mut depth = 1;
            i += 1;
            while i < c.len() {
                if c[i] == '\\' {
                    i += 2;
                    continue;
                }
                if c[i] == close && (open == '"' || depth == 1) {
                    break;
                }
                if open == '{' && c[i] == '{' {
                    depth += 1;
                } else if open == '{' && c[i] == '}' {
                    depth -= 1;
                }
                i += 1;
            }
            out.push(c[start..i.min(c.len())].iter().collect());
            i += 1;
        } else {
            let start = i;
            let mut depth = 0usize;
            while i < c.len() && (depth > 0 || !c[i].is_whitespace()) {
                match c[i] {
                    '[' => depth += 1,
                    ']' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        }
    }
    out
}

/// Evaluates a Tcl `if` condition of `[istarget PAT]`,
/// `[check_effective_target_KW]`, `!`, `&&`, `||` and parentheses, with
/// short-circuit (an unknown command on a branch never taken is fine).
fn tcl_condition(p: &Platform, cond: &str) -> Result<bool, String> {
    #[derive(Debug)]
    enum Tok {
        Cmd(String),
        Not,
        And,
        Or,
        Open,
        Close,
    }
    let c: Vec<char> = cond.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            ' ' | '\t' | '\n' => i += 1,
            '!' => {
                toks.push(Tok::Not);
                i += 1;
            }
            '&' if c.get(i + 1) == Some(&'&') => {
                toks.push(Tok::And);
                i += 2;
            }
            '|' if c.get(i + 1) == Some(&'|') => {
                toks.push(Tok::Or);
                i += 2;
            }
            '(' | '{' => {
                toks.push(Tok::Open);
                i += 1;
            }
            ')' | '}' => {
                toks.push(Tok::Close);
                i += 1;
            }
            '[' => {
                let start = i + 1;
                let mut depth = 1;
                i += 1;
                while i < c.len() && depth > 0 {
                    match c[i] {
                        '[' => depth += 1,
                        ']' => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                }
                if depth != 0 {
                    return Err(format!("unbalanced `[` in `{cond}`"));
                }
                toks.push(Tok::Cmd(c[start..i - 1].iter().collect()));
            }
            _ => return Err(format!("cannot evaluate `{cond}`")),
        }
    }
    fn command(p: &Platform, cmd: &str) -> Result<bool, String> {
        let words = parse_words(cmd)?;
        let strs: Vec<String> = words.iter().flat_map(Word::strings).collect();
        match strs.as_slice() {
            [c, pat] if c == "istarget" => Ok(glob(pat, &p.triplet)),
            [c] if c.starts_with("check_effective_target_") => {
                let kw = &c["check_effective_target_".len()..];
                keyword(p.target, kw).ok_or_else(|| format!("unknown effective-target keyword `{kw}`"))
            }
            _ => Err(format!("cannot evaluate `[{cmd}]`")),
        }
    }
    // or := and ('||' and)* ; and := un ('&&' un)* ; un := '!' un | '(' or ')' | cmd
    // `live` false evaluates nothing (the short-circuited side).
    fn or(p: &Platform, t: &[Tok], i: &mut usize, live: bool) -> Result<bool, String> {
        let mut v = and(p, t, i, live)?;
        while matches!(t.get(*i), Some(Tok::Or)) {
            *i += 1;
            let r = and(p, t, i, live && !v)?;
            v = v || r;
        }
        Ok(v)
    }
    fn and(p: &Platform, t: &[Tok], i: &mut usize, live: bool) -> Result<bool, String> {
        let mut v = un(p, t, i, live)?;
        while matches!(t.get(*i), Some(Tok::And)) {
            *i += 1;
            let r = un(p, t, i, live && v)?;
            v = v && r;
        }
        Ok(v)
    }
    fn un(p: &Platform, t: &[Tok], i: &mut usize, live: bool) -> Result<bool, String> {
        let tok = t.get(*i).ok_or("condition ends early")?;
        *i += 1;
        match tok {
            Tok::Not => Ok(!un(p, t, i, live)?),
            Tok::Open => {
                let v = or(p, t, i, live)?;
                match t.get(*i) {
                    Some(Tok::Close) => {
                        *i += 1;
                        Ok(v)
                    }
                    _ => Err("unbalanced parenthesis".into()),
                }
            }
            Tok::Cmd(c) => {
                if live {
                    command(p, c)
                } else {
                    Ok(false)
                }
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }
    let mut i = 0;
    let v = or(p, &toks, &mut i, true)?;
    if i != toks.len() {
        return Err(format!("cannot evaluate `{cond}`"));
    }
    Ok(v)
}

// ---------------------------------------------------------------------------
// Tests, outcomes and the expected-failure list

/// One test: its name relative to the execute directory without `.c`
/// (`20000112-1`, `ieee/pr36332`) and its source.
#[derive(Clone, Debug)]
pub struct Test {
    pub name: String,
    pub path: PathBuf,
}

/// Every test of the execute directory (`*.c` and `ieee/*.c`; `builtins/`
/// has its own driver with helper files and is not part of the suite), sorted by name.
pub fn discover(dir: &Path) -> anyhow::Result<Vec<Test>> {
    let mut tests = Vec::new();
    for (sub, prefix) in [(dir.to_path_buf(), ""), (dir.join("ieee"), "ieee/")] {
        for entry in std::fs::read_dir(&sub).with_context(|| format!("reading {}", sub.display()))? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "c") {
                let stem = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
                tests.push(Test {
                    name: format!("{prefix}{stem}"),
                    path,
                });
            }
        }
    }
    tests.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tests)
}

/// The static verdict on a test: its directives and its `.x` file.
pub fn support(p: &Platform, test: &Test) -> Result<(), Unsupported> {
    let source = std::fs::read(&test.path).map_err(|e| Unsupported::Target(format!("unreadable: {e}")))?;
    check_directives(p, &String::from_utf8_lossy(&source))?;
    let x = test.path.with_extension("x");
    if let Ok(script) = std::fs::read_to_string(&x) {
        check_x_file(p, &script)?;
    }
    Ok(())
}

/// `count` tests spread evenly over `tests` (every `len/count`-th by name),
/// or all of them.
pub fn sample<T: Clone>(tests: &[T], count: Option<usize>) -> Vec<T> {
    match count {
        Some(n) if n < tests.len() => (0..n).map(|i| tests[i * tests.len() / n].clone()).collect(),
        _ => tests.to_vec(),
    }
}

/// How one test ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    /// phicc rejected it, crashed, or the link failed.
    CompileError(String),
    /// It ran and exited non-zero or died of a signal.
    WrongCode(String),
    Timeout,
    Unsupported(Unsupported),
}

impl Outcome {
    /// The outcome's column in `results.tsv` and in the expected list.
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::CompileError(_) => "compile-error",
            Outcome::WrongCode(_) => "wrong-code",
            Outcome::Timeout => "timeout",
            Outcome::Unsupported(_) => "unsupported",
        }
    }

    pub fn detail(&self) -> String {
        match self {
            Outcome::Pass | Outcome::Timeout => String::new(),
            Outcome::CompileError(s) | Outcome::WrongCode(s) => s.clone(),
            Outcome::Unsupported(u) => u.to_string(),
        }
    }

    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Outcome::CompileError(_) | Outcome::WrongCode(_) | Outcome::Timeout
        )
    }
}

/// One entry of an expected-failure list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The failing outcome (`compile-error`, `wrong-code`, `timeout`).
    pub outcome: String,
    /// The configurations it applies to (empty: every one).
    pub configs: Vec<Config>,
    pub reason: String,
}

/// A tracked expected-failure list (`corpora/torture/expected-failures-TARGET.txt`):
/// one test a line, `TEST OUTCOME [configs=C,...] REASON...`, `#` comments.
#[derive(Clone, Debug, Default)]
pub struct ExpectedList {
    pub entries: BTreeMap<String, Vec<Expected>>,
}

impl ExpectedList {
    pub fn parse(text: &str) -> Result<ExpectedList, String> {
        let mut list = ExpectedList::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |m: &str| format!("line {}: {m}", n + 1);
            let mut parts = line.splitn(3, char::is_whitespace);
            let test = parts.next().unwrap_or_default().to_string();
            let outcome = parts.next().ok_or_else(|| at("missing outcome"))?.to_string();
            if !["compile-error", "wrong-code", "timeout"].contains(&outcome.as_str()) {
                return Err(at(&format!(
                    "outcome `{outcome}` is not compile-error, wrong-code or timeout"
                )));
            }
            let mut rest = parts.next().unwrap_or_default().trim();
            let mut configs = Vec::new();
            if let Some(spec) = rest.strip_prefix("configs=") {
                let (list, after) = spec.split_once(char::is_whitespace).unwrap_or((spec, ""));
                configs = crate::target::parse_list(list).map_err(|e| at(&e))?;
                rest = after.trim();
            }
            if rest.is_empty() {
                return Err(at(&format!("`{test}` has no reason")));
            }
            let entry = Expected {
                outcome,
                configs,
                reason: rest.to_string(),
            };
            let entries = list.entries.entry(test.clone()).or_default();
            if entries.iter().any(|e| {
                e.configs.is_empty() || entry.configs.is_empty() || e.configs.iter().any(|c| entry.configs.contains(c))
            }) {
                return Err(at(&format!("`{test}` is listed twice for one configuration")));
            }
            entries.push(entry);
        }
        Ok(list)
    }

    /// The entry for a test in a configuration.
    pub fn get(&self, test: &str, config: Config) -> Option<&Expected> {
        self.entries
            .get(test)?
            .iter()
            .find(|e| e.configs.is_empty() || e.configs.contains(&config))
    }
}

/// How a run differs from its expected list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// Fails and is not listed.
    NewFailure {
        test: String,
        outcome: String,
        detail: String,
    },
    /// Listed with another failing outcome.
    Changed {
        test: String,
        expected: String,
        outcome: String,
        detail: String,
    },
    /// Listed but passes: take it off the list.
    UnexpectedPass { test: String },
    /// Listed but unsupported on this platform, or not a test of the suite
    /// (reported only when the whole suite ran).
    Stale { test: String, why: String },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Mismatch::NewFailure { test, outcome, detail } => write!(f, "new failure: {test}: {outcome} {detail}"),
            Mismatch::Changed {
                test,
                expected,
                outcome,
                detail,
            } => write!(
                f,
                "changed failure: {test}: listed as {expected}, now {outcome} {detail}"
            ),
            Mismatch::UnexpectedPass { test } => write!(f, "unexpected pass: {test} passes but is still listed"),
            Mismatch::Stale { test, why } => write!(f, "stale entry: {test}: {why}"),
        }
    }
}

/// Compares the results of a run (test name, outcome) with the list. `full`
/// says the whole suite ran, so listed tests that did not run are stale.
pub fn compare(results: &[(String, Outcome)], list: &ExpectedList, config: Config, full: bool) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for (test, outcome) in results {
        let expected = list.get(test, config);
        match (outcome, expected) {
            (o, None) if o.is_failure() => out.push(Mismatch::NewFailure {
                test: test.clone(),
                outcome: o.kind().into(),
                detail: o.detail(),
            }),
            (o, Some(e)) if o.is_failure() && o.kind() != e.outcome => out.push(Mismatch::Changed {
                test: test.clone(),
                expected: e.outcome.clone(),
                outcome: o.kind().into(),
                detail: o.detail(),
            }),
            (Outcome::Pass, Some(_)) => out.push(Mismatch::UnexpectedPass { test: test.clone() }),
            (Outcome::Unsupported(u), Some(_)) if full => out.push(Mismatch::Stale {
                test: test.clone(),
                why: format!("unsupported ({u})"),
            }),
            _ => {}
        }
    }
    if full {
        for test in list.entries.keys() {
            if list.get(test, config).is_some() && !results.iter().any(|(t, _)| t == test) {
                out.push(Mismatch::Stale {
                    test: test.clone(),
                    why: "no such test".into(),
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Running

/// A torture run's settings.
#[derive(Clone, Debug)]
pub struct RunSpec {
    pub target: Target,
    pub config: Config,
    pub phicc: PathBuf,
    /// The execute directory.
    pub suite: PathBuf,
    /// Where the reference verdicts are cached.
    pub cache: PathBuf,
    pub jobs: usize,
    /// Wall-clock limit of one test binary (three times this under QEMU).
    pub run_timeout: Duration,
    pub compile_timeout: Duration,
    pub progress: bool,
}

/// Extracts the execute tests from gcc-12-source's tarball into
/// `cache/gcc-12.2.0/...` unless they are already there; returns the
/// execute directory.
pub fn extract(cache: &Path) -> anyhow::Result<PathBuf> {
    let dir = cache.join(EXECUTE_DIR);
    let stamp = cache.join("extracted.stamp");
    if stamp.exists() && dir.join("ieee").is_dir() {
        return Ok(dir);
    }
    if !Path::new(GCC_SOURCE_TARBALL).exists() {
        bail!("{GCC_SOURCE_TARBALL} is missing: install gcc-12-source (scripts/setup.sh --torture)");
    }
    std::fs::create_dir_all(cache)?;
    eprintln!("torture: extracting {EXECUTE_DIR} from {GCC_SOURCE_TARBALL}");
    let status = std::process::Command::new("tar")
        .arg("-xJf")
        .arg(GCC_SOURCE_TARBALL)
        .arg("-C")
        .arg(cache)
        .arg(format!("{EXECUTE_DIR}/"))
        .status()
        .context("running tar")?;
    if !status.success() || !dir.join("ieee").is_dir() {
        bail!("extracting {EXECUTE_DIR} from {GCC_SOURCE_TARBALL} failed ({status})");
    }
    std::fs::write(&stamp, b"")?;
    Ok(dir)
}

/// The outcome of one selected test compiled by phicc.
fn run_phicc(spec: &RunSpec, test: &Test, work: &Path) -> anyhow::Result<Outcome> {
    let bin = work.join("a.out");
    let mut args = vec![format!("--target={}", spec.target), "-w".to_string()];
    if spec.target.emulator().is_some() {
        args.push("-static".into());
    }
    args.extend(spec.config.flags().iter().map(|s| s.to_string()));
    args.extend([
        "-o".to_string(),
        bin.display().to_string(),
        test.path.display().to_string(),
    ]);
    // (phicc links libm itself.)
    let limits = Limits {
        address_space: Some(4 << 30),
        ..Limits::with_timeout(spec.compile_timeout)
    };
    let r = runner::run(&Job::new(&spec.phicc).args(&args).cwd(work), &limits)?;
    let stderr = String::from_utf8_lossy(&r.stderr.bytes);
    match r.termination {
        Termination::Exited(0) if bin.exists() => {}
        Termination::Exited(0) => return Ok(Outcome::CompileError("no binary".into())),
        Termination::Exited(s) if s == phicc::exit::ICE => {
            return Ok(Outcome::CompileError(format!(
                "internal compiler error: {}",
                first_error(&stderr)
            )))
        }
        Termination::Exited(_) => return Ok(Outcome::CompileError(first_error(&stderr))),
        Termination::Timeout => return Ok(Outcome::CompileError("compile timeout".into())),
        t => return Ok(Outcome::CompileError(format!("phicc {}", t.describe()))),
    }
    Ok(run_binary(spec, &bin, work)?.map_or(Outcome::Pass, |t| match t {
        Termination::Timeout => Outcome::Timeout,
        t => Outcome::WrongCode(t.describe()),
    }))
}

/// Runs a binary of the target; `None` when it exits 0, else how it ended.
fn run_binary(spec: &RunSpec, bin: &Path, work: &Path) -> anyhow::Result<Option<Termination>> {
    let mut timeout = spec.run_timeout;
    if spec.target.emulator().is_some() {
        timeout *= 3;
    }
    let limits = Limits {
        cpu_seconds: timeout.as_secs() + 1,
        ..Limits::with_timeout(timeout)
    };
    // Some tests write files (fprintf-1 writes to stdout only, but
    // 20010122-1 and friends use the working directory): run in `work`.
    let r = match runner::emulator(spec.target) {
        None => runner::run(&Job::new(bin).cwd(work), &limits)?,
        Some(q) => runner::run(&Job::new(q).arg(bin).cwd(work), &limits)?,
    };
    Ok(match r.termination {
        Termination::Exited(0) => None,
        t => Some(t),
    })
}

/// The first `error:` line of a compiler's diagnostics (else the first line),
/// with the path of the test dropped.
fn first_error(stderr: &str) -> String {
    if let Some(l) = stderr.lines().find(|l| l.contains("undefined reference")) {
        let at = l.find("undefined reference").unwrap_or(0);
        return format!("link: {}", &l[at..]);
    }
    let line = stderr
        .lines()
        .find(|l| l.contains("error:"))
        .or_else(|| stderr.lines().next())
        .unwrap_or("")
        .trim();
    let line = match line.find(".c:") {
        Some(k) => line[k + 3..]
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == ':')
            .trim(),
        None => line,
    };
    line.replace('\t', " ").chars().take(200).collect()
}

/// The reference verdict (`Ok` when the target's gcc -O0 builds and passes
/// it), cached in `cache/reference-TARGET.tsv`.
struct ReferenceCache {
    path: PathBuf,
    known: Mutex<BTreeMap<String, String>>,
}

impl ReferenceCache {
    fn open(cache: &Path, target: Target) -> ReferenceCache {
        let path = cache.join(format!("reference-{target}.tsv"));
        let mut known = BTreeMap::new();
        if let Ok(text) = std::fs::read_to_string(&path) {
            for line in text.lines() {
                if let Some((t, v)) = line.split_once('\t') {
                    known.insert(t.to_string(), v.to_string());
                }
            }
        }
        ReferenceCache {
            path,
            known: Mutex::new(known),
        }
    }

    fn verdict(&self, spec: &RunSpec, test: &Test, work: &Path) -> anyhow::Result<Result<(), Unsupported>> {
        let cached = self.known.lock().unwrap().get(&test.name).cloned();
        let v = match cached {
            Some(v) => v,
            None => {
                let v = reference(spec, test, work)?;
                crate::util::append_line(&self.path, &format!("{}\t{v}", test.name))?;
                self.known.lock().unwrap().insert(test.name.clone(), v.clone());
                v
            }
        };
        Ok(if v == "pass" {
            Ok(())
        } else {
            Err(Unsupported::Reference(v))
        })
    }
}

fn reference(spec: &RunSpec, test: &Test, work: &Path) -> anyhow::Result<String> {
    let bin = work.join("ref.out");
    let args = [
        "-O0".to_string(),
        "-w".into(),
        "-static".into(),
        "-o".into(),
        bin.display().to_string(),
        test.path.display().to_string(),
        "-lm".into(),
    ];
    let r = runner::run(
        &Job::new(spec.target.gcc()).args(args).cwd(work),
        &Limits::with_timeout(Duration::from_secs(60)),
    )?;
    if r.termination != Termination::Exited(0) {
        return Ok(format!(
            "does not build: {}",
            first_error(&String::from_utf8_lossy(&r.stderr.bytes))
        ));
    }
    Ok(match run_binary(spec, &bin, work)? {
        None => "pass".into(),
        Some(t) => format!("fails ({})", t.describe()),
    })
}

/// Runs the tests (already sampled) and returns each one's outcome, in order.
pub fn run(spec: &RunSpec, tests: &[Test]) -> anyhow::Result<Vec<(String, Outcome)>> {
    let platform = Platform::new(spec.target, spec.config);
    let refs = ReferenceCache::open(&spec.cache, spec.target);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; tests.len()]);
    let next = AtomicUsize::new(0);
    let bar = if spec.progress {
        let b = indicatif::ProgressBar::new(tests.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:25}] {pos}/{len} tests ({per_sec}) {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        b.enable_steady_tick(Duration::from_millis(500));
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let failures = AtomicUsize::new(0);
    let error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..spec.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= tests.len() || error.lock().unwrap().is_some() {
                    break;
                }
                let test = &tests[i];
                let outcome = (|| -> anyhow::Result<Outcome> {
                    if let Err(u) = support(&platform, test) {
                        return Ok(Outcome::Unsupported(u));
                    }
                    let work = tempfile::tempdir()?;
                    if let Err(u) = refs.verdict(spec, test, work.path())? {
                        return Ok(Outcome::Unsupported(u));
                    }
                    run_phicc(spec, test, work.path())
                })();
                match outcome {
                    Ok(o) => {
                        if o.is_failure() {
                            let n = failures.fetch_add(1, Ordering::Relaxed) + 1;
                            bar.set_message(format!("failing {n}"));
                        }
                        results.lock().unwrap()[i] = Some(o);
                    }
                    Err(e) => {
                        *error.lock().unwrap() = Some(e.context(format!("running {}", test.name)));
                    }
                }
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    Ok(tests
        .iter()
        .zip(results.into_inner().unwrap())
        .map(|(t, o)| (t.name.clone(), o.expect("every test ran")))
        .collect())
}

/// `results.tsv`: `test<TAB>outcome<TAB>detail`, a header line first.
pub fn results_tsv(results: &[(String, Outcome)]) -> String {
    let mut s = String::from("test\toutcome\tdetail\n");
    for (t, o) in results {
        s.push_str(&format!("{t}\t{}\t{}\n", o.kind(), o.detail()));
    }
    s
}

/// The summary: counts per outcome (unsupported split by why), and the
/// mismatches with the expected list.
pub fn summary(spec: &RunSpec, results: &[(String, Outcome)], mismatches: &[Mismatch], list_path: &Path) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unsupported: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, o) in results {
        *counts.entry(o.kind()).or_default() += 1;
        if let Outcome::Unsupported(u) = o {
            *unsupported.entry(u.kind()).or_default() += 1;
        }
    }
    let n = |k: &str| counts.get(k).copied().unwrap_or(0);
    let selected = results.len() - n("unsupported");
    let mut s = format!(
        "torture {} {}: {} tests, {selected} selected, {} pass, {} compile-error, {} wrong-code, {} timeout\n",
        spec.target,
        spec.config,
        results.len(),
        n("pass"),
        n("compile-error"),
        n("wrong-code"),
        n("timeout")
    );
    let u: Vec<String> = unsupported.iter().map(|(k, v)| format!("{v} {k}")).collect();
    if u.is_empty() {
        s.push_str("unsupported: 0\n");
    } else {
        s.push_str(&format!("unsupported: {} ({})\n", n("unsupported"), u.join(", ")));
    }
    if mismatches.is_empty() {
        s.push_str(&format!("as expected by {}\n", list_path.display()));
    } else {
        s.push_str(&format!(
            "{} differences from {}:\n",
            mismatches.len(),
            list_path.display()
        ));
        for m in mismatches {
            s.push_str(&format!("  {m}\n"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x86(config: Config) -> Platform {
        Platform::new(Target::X86_64, config)
    }

    #[test]
    fn tcl_words_nest_and_quote() {
        let w = parse_words(r#"dg-skip-if "requires alloca" { ! alloca } { "-O0" } { "" }"#).unwrap();
        assert_eq!(w[0], Word::Str("dg-skip-if".into()));
        assert_eq!(w[1], Word::Str("requires alloca".into()));
        assert_eq!(
            w[2],
            Word::List(vec![Word::Str("!".into()), Word::Str("alloca".into())])
        );
        assert_eq!(w[4], Word::List(vec![Word::Str(String::new())]));
        assert!(parse_words("{ a").is_err());
        assert_eq!(Word::Str("-O2 -fwrapv".into()).strings(), vec!["-O2", "-fwrapv"]);
    }

    #[test]
    fn directives_are_found_in_comments_only_when_braced() {
        let src = "/* { dg-do run } */\n/* { dg-options \"-fwrapv\" } */\nint dg_x; /* see dg-options above */\n";
        let ds = directives(src).unwrap();
        assert_eq!(ds.len(), 2);
        assert_eq!(ds[1][0], Word::Str("dg-options".into()));
        assert_eq!(ds[1][1], Word::Str("-fwrapv".into()));
    }

    #[test]
    fn selectors_follow_the_triplet_and_keywords() {
        let p = x86(Config::Mem2reg);
        let a = Platform::new(Target::Aarch64, Config::Mem2reg);
        let sel = |s: &str| Word::List(parse_words(s).unwrap());
        assert!(selector(&p, &sel("*-*-*")).unwrap());
        assert!(!selector(&p, &sel("m32c-*-*")).unwrap());
        assert!(selector(&p, &sel("target { x86_64-*-* i?86-*-* }")).unwrap());
        assert!(!selector(&a, &sel("target { x86_64-*-* i?86-*-* }")).unwrap());
        assert!(!selector(&p, &sel("target { { i?86-*-* x86_64-*-* } && ia32 }")).unwrap());
        assert!(selector(&a, &sel("! { i?86-*-* x86_64-*-* }")).unwrap());
        assert!(!selector(&p, &sel("! alloca")).unwrap());
        assert!(selector(&p, &sel("target { ! ia32 }")).unwrap());
        assert!(selector(&p, &sel("bogus_keyword")).is_err());
        assert!(glob("i?86-*-freebsd*[123].*", "i386-pc-freebsd2.1"));
        assert!(!glob("i?86-*-freebsd*[123].*", "i386-pc-freebsd4.1"));
        // Tcl's backslash substitution in quotes makes `\[` a bracket.
        assert_eq!(
            parse_words(r#""*-freebsd*\[123\]""#).unwrap(),
            vec![Word::Str("*-freebsd*[123]".into())]
        );
        assert!(glob("x86_64-*-linux*", "x86_64-pc-linux-gnu"));
    }

    #[test]
    fn directives_decide_support() {
        let p = x86(Config::Mem2reg);
        let a = Platform::new(Target::Aarch64, Config::Mem2reg);
        let o = x86(Config::Opt);
        let check = |p: &Platform, s: &str| check_directives(p, s);
        assert_eq!(check(&p, "/* { dg-do run } */"), Ok(()));
        assert_eq!(
            check(&p, "/* { dg-options \"-fwrapv\" } */"),
            Err(Unsupported::Options("-fwrapv".into()))
        );
        // Options for another target do not apply; for this one they do.
        assert_eq!(
            check(
                &p,
                "/* { dg-options \"-mtune=i686\" { target { { i?86-*-* x86_64-*-* } && ia32 } } } */"
            ),
            Ok(())
        );
        assert!(matches!(
            check(
                &p,
                "/* { dg-options \"-mno-mmx\" { target { x86_64-*-* i?86-*-* } } } */"
            ),
            Err(Unsupported::Options(_))
        ));
        assert_eq!(
            check(
                &a,
                "/* { dg-options \"-mno-mmx\" { target { x86_64-*-* i?86-*-* } } } */"
            ),
            Ok(())
        );
        assert_eq!(check(&p, "/* { dg-add-options stack_size } */"), Ok(()));
        assert_eq!(check(&p, "/* { dg-require-effective-target int128 } */"), Ok(()));
        assert_eq!(check(&p, "/* { dg-require-effective-target dfp } */"), Ok(()));
        assert!(matches!(
            check(&a, "/* { dg-require-effective-target dfp } */"),
            Err(Unsupported::Target(_))
        ));
        // dg-skip-if: selector, then include and exclude option lists.
        assert_eq!(
            check(
                &p,
                "/* { dg-skip-if \"requires alloca\" { ! alloca } { \"-O0\" } { \"\" } } */"
            ),
            Ok(())
        );
        assert_eq!(
            check(
                &p,
                "/* { dg-skip-if \"fp\" { *-*-* } \"-fomit-frame-pointer\" \"\" } */"
            ),
            Ok(())
        );
        assert_eq!(
            check(
                &p,
                "/* { dg-skip-if \"requires higher optimization\" { *-*-* } \"-O1\" \"\" } */"
            ),
            Ok(())
        );
        assert!(check(
            &o,
            "/* { dg-skip-if \"requires higher optimization\" { *-*-* } \"-O1\" \"\" } */"
        )
        .is_err());
        assert!(check(&a, "/* { dg-skip-if \"\" { ! { i?86-*-* x86_64-*-* } } } */").is_err());
        assert_eq!(
            check(&p, "/* { dg-skip-if \"\" { ! { i?86-*-* x86_64-*-* } } } */"),
            Ok(())
        );
        assert!(check(&p, "/* { dg-frobnicate } */").is_err());
    }

    #[test]
    fn x_files_run_their_tcl() {
        let p = x86(Config::Mem2reg);
        assert_eq!(
            check_x_file(&p, "if [istarget \"avr-*-*\"] {\n    return 1\n}\nreturn 0\n"),
            Ok(())
        );
        assert!(check_x_file(&p, "if [istarget \"x86_64-*-*\"] {\n    return 1\n}\nreturn 0\n").is_err());
        assert_eq!(
            check_x_file(
                &p,
                "if { [check_effective_target_c99_runtime] } {\n    return 0\n}\nreturn 1\n"
            ),
            Ok(())
        );
        assert_eq!(
            check_x_file(&p, "lappend additional_flags \"-fno-trapping-math\"\nreturn 0\n"),
            Err(Unsupported::Options("-fno-trapping-math".into()))
        );
        // Short-circuit: the unknown keyword behind a false istarget is never asked.
        let s = "if { [istarget \"tic6x-*-*\"] && [check_effective_target_unheard_of] } {\n set torture_execute_xfail x\n return 1\n}\nreturn 0";
        assert_eq!(check_x_file(&p, s), Ok(()));
        let s = "if { [istarget \"x86_64-*-*\"] && [check_effective_target_unheard_of] } {\n return 1\n}\nreturn 0";
        assert!(check_x_file(&p, s).is_err());
        // mzero2.x: Tcl escapes inside the quoted pattern; `set` of the xfail
        // variable inside a branch not taken changes nothing.
        let s = "if { [istarget \"i?86-*-freebsd*\\[123\\]\\.*\"] } {\n\tset torture_execute_xfail \"i?86-*-freebsd*\"\n}\nreturn 0\n";
        assert_eq!(check_x_file(&p, s), Ok(()));
        let s = "if { [istarget \"x86_64-*-linux*\"] } {\n\tset torture_execute_xfail \"x\"\n}\nreturn 0\n";
        assert!(check_x_file(&p, s).is_err());
        // Nested braces inside a set are data, not commands.
        let s = "# comment\nif [istarget \"arm*-*-vxworks*\"] {\n set torture_eval_before_execute {\n  global x\n  set x { \"a\" { \"*-*-*\" } }\n }\n}\nreturn 0\n";
        assert_eq!(check_x_file(&p, s), Ok(()));
    }

    #[test]
    fn expected_list_parses_and_rejects_bad_lines() {
        let l = ExpectedList::parse(
            "# comment\nbitfld-1 wrong-code integer promotion of unsigned bit-fields\nvector-1 compile-error GNU vector types\nslow-1 timeout configs=nomem2reg slow without mem2reg\n",
        )
        .unwrap();
        assert_eq!(
            l.get("bitfld-1", Config::Mem2reg).unwrap().reason,
            "integer promotion of unsigned bit-fields"
        );
        assert!(l.get("slow-1", Config::Mem2reg).is_none());
        assert_eq!(l.get("slow-1", Config::Nomem2reg).unwrap().outcome, "timeout");
        assert!(ExpectedList::parse("a wrong-code\n").is_err(), "a reason is required");
        assert!(ExpectedList::parse("a broken why\n").is_err(), "unknown outcome");
        assert!(
            ExpectedList::parse("a wrong-code x\na compile-error y\n").is_err(),
            "listed twice"
        );
        assert!(ExpectedList::parse("a wrong-code configs=bogus y\n").is_err());
    }

    #[test]
    fn comparison_names_new_changed_passing_and_stale_tests() {
        let l = ExpectedList::parse(
            "a wrong-code r\nb compile-error r\nc wrong-code r\nd wrong-code r\ngone wrong-code r\n",
        )
        .unwrap();
        let results = vec![
            ("a".to_string(), Outcome::WrongCode("exit 1".into())), // as listed
            ("b".to_string(), Outcome::WrongCode("signal 11".into())), // changed
            ("c".to_string(), Outcome::Pass),                       // listed but passes
            (
                "d".to_string(),
                Outcome::Unsupported(Unsupported::Options("-fwrapv".into())),
            ),
            ("e".to_string(), Outcome::Timeout), // new
            ("f".to_string(), Outcome::Pass),
        ];
        let m = compare(&results, &l, Config::Mem2reg, false);
        assert_eq!(m.len(), 3, "{m:?}");
        assert!(matches!(&m[0], Mismatch::Changed { test, .. } if test == "b"));
        assert_eq!(m[1], Mismatch::UnexpectedPass { test: "c".into() });
        assert!(matches!(&m[2], Mismatch::NewFailure { test, outcome, .. } if test == "e" && outcome == "timeout"));
        // A full run also names entries that did not run or are unsupported.
        let m = compare(&results, &l, Config::Mem2reg, true);
        assert_eq!(m.len(), 5, "{m:?}");
        assert!(m.contains(&Mismatch::Stale {
            test: "gone".into(),
            why: "no such test".into()
        }));
        assert!(m
            .iter()
            .any(|x| matches!(x, Mismatch::Stale { test, .. } if test == "d")));
        assert!(compare(&results[..1], &l, Config::Mem2reg, false).is_empty());
    }

    #[test]
    fn samples_are_even_and_deterministic() {
        let v: Vec<u32> = (0..10).collect();
        assert_eq!(sample(&v, Some(5)), vec![0, 2, 4, 6, 8]);
        assert_eq!(sample(&v, None), v);
        assert_eq!(sample(&v, Some(20)), v);
    }
}
