//! The preprocessor (C11 6.10): translation phase 4.
//!
//! Input is a stack of pending tokens (top = next token; an `#include` pushes
//! the whole included file, ending in its own `Eof` which closes the include
//! frame; a macro expansion pushes its replacement for rescanning). The main
//! loop pops a token: a `#` that starts a line and was not produced by a macro
//! begins a directive, an identifier naming a macro is expanded by the
//! hideset algorithm of `macros.rs`, anything else goes to the output.
//! Conditional groups that are not taken are skipped token by token, counting
//! nested `#if`s. `#if` lines are expanded in isolation and evaluated by
//! `expr.rs`. Header search is in `headers.rs`.
//!
//! `#pragma once` and GCC's `#pragma push_macro("NAME")`/`pop_macro("NAME")`
//! (which save and restore one macro's definition, or its absence) are handled
//! here; every other `#pragma` (and `_Pragma`) is passed to the parser as one `Pragma` token holding the rest of the line,
//! which is how `#pragma pack` reaches struct layout.

mod conditional;
mod expr;
pub mod headers;
mod include;
mod input;
mod macros;
mod table;
#[cfg(test)]
pub(crate) mod tests;

pub use macros::{Builtin, MacroDef};

use super::intern::Interner;
use super::lexer::tokenize_with;
use super::source::{Diagnostic, FileId, PResult, SourceMap, Span};
use super::token::{name_key, Punct, Text, Token, TokenKind};
use crate::target::Target;
use headers::SearchDir;
#[cfg(test)]
use include::find_include_guard;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A non-empty hideset.
type HideSetArc = Arc<Vec<Text>>;

/// Memo of hideset unions by the operands' addresses (see
/// `Preprocessor::union` in `macros.rs`); it holds the operands, so their
/// addresses stay theirs.
type UnionMemo = FxHashMap<(usize, usize), (HideSetArc, HideSetArc, super::token::HideSet)>;

/// A `-D` or `-U` option, applied in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CmdlineMacro {
    /// `-D name=value` (`-D name` means value `1`).
    Define(String, String),
    Undef(String),
}

/// What the preprocessor needs to know besides the input.
#[derive(Clone, Debug)]
pub struct PreprocessOptions {
    pub target: Target,
    /// `-I` directories, searched first.
    pub include_dirs: Vec<PathBuf>,
    pub macros: Vec<CmdlineMacro>,
    /// `-iquote` directories: for `#include "..."` only, before `-I`.
    pub quote_dirs: Vec<PathBuf>,
    /// `-isystem` directories: after `-I`, before the compiler's and the
    /// target's headers; what they hold are system headers (`-MM`).
    pub system_dirs: Vec<PathBuf>,
    /// `-include` files, read as `#include "file"` before the main file
    /// (looked up in the working directory first).
    pub pre_includes: Vec<PathBuf>,
    /// `--sysroot`: the target's headers are `SYSROOT/usr/include/<triple>`
    /// and `SYSROOT/usr/include`.
    pub sysroot: Option<PathBuf>,
}

impl PreprocessOptions {
    pub fn new(target: Target) -> PreprocessOptions {
        PreprocessOptions {
            target,
            include_dirs: Vec::new(),
            macros: Vec::new(),
            quote_dirs: Vec::new(),
            system_dirs: Vec::new(),
            pre_includes: Vec::new(),
            sysroot: None,
        }
    }
}

/// The result of preprocessing: tokens ending in `Eof`, and warnings (`#warning`).
#[derive(Clone, Debug)]
pub struct Preprocessed {
    pub tokens: Vec<Token>,
    pub warnings: Vec<Diagnostic>,
    /// The files `#include` read, in the order first met (the compiler's
    /// own headers, which are no files, left out): what `-M` lists.
    pub dependencies: Vec<Dependency>,
}

/// A header the preprocessor read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    pub path: PathBuf,
    /// Found in a system directory (`-isystem` or the target's), which
    /// `-MM` leaves out.
    pub system: bool,
}

/// Upper bound on tokens processed, so that exponential macro tricks end in an error.
const TOKEN_BUDGET: u64 = 200_000_000;
const MAX_INCLUDE_DEPTH: usize = 200;

/// Attributes `__has_attribute` reports (parsed everywhere, honoured where they change meaning).
const KNOWN_ATTRIBUTES: &[&str] = &[
    "aligned",
    "packed",
    "noreturn",
    "section",
    "weak",
    "visibility",
    "always_inline",
    "noinline",
    "used",
    "constructor",
    "destructor",
    "mode",
    "unused",
    "format",
    "format_arg",
    "nonnull",
    "pure",
    "const",
    "malloc",
    "deprecated",
    "warn_unused_result",
    "nothrow",
    "leaf",
    "alias",
    "cold",
    "hot",
    "may_alias",
    "returns_twice",
    "sentinel",
    "alloc_size",
    "transparent_union",
    "cleanup",
    "gnu_inline",
    "artificial",
    "externally_visible",
    "noclone",
    "no_instrument_function",
    "weakref",
    "error",
    "warning",
    "access",
    "returns_nonnull",
];

/// Builtins `__has_builtin` reports.
const KNOWN_BUILTINS: &[&str] = &[
    "__builtin_va_start",
    "__builtin_va_end",
    "__builtin_va_arg",
    "__builtin_va_copy",
    "__builtin_expect",
    "__builtin_offsetof",
    "__builtin_unreachable",
    "__builtin_types_compatible_p",
    "__builtin_constant_p",
    "__builtin_trap",
    "__builtin_abort",
    "__builtin_memcpy",
    "__builtin_memset",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CondCtx {
    Then,
    Elif,
    Else,
}

#[derive(Clone, Debug)]
struct Cond {
    ctx: CondCtx,
    /// Some group of this conditional has been taken.
    included: bool,
    span: Span,
}

#[derive(Clone, Debug)]
pub(super) struct IncludeFrame {
    path: PathBuf,
    dir_index: Option<usize>,
    cond_depth: usize,
}

/// The preprocessor state; see the module doc.
pub struct Preprocessor<'a> {
    pub(super) sm: &'a mut SourceMap,
    target: Target,
    macros: table::MacroTable,
    pub(super) input: input::Input,
    conds: Vec<Cond>,
    pub(super) include_stack: Vec<IncludeFrame>,
    search_dirs: Vec<SearchDir>,
    /// `search_dirs[..angled_start]` are `-iquote` directories.
    pub(super) angled_start: usize,
    /// `search_dirs[first_system..]` hold system headers.
    pub(super) first_system: usize,
    pub(super) dependencies: Vec<Dependency>,
    pub(super) dependency_set: FxHashSet<PathBuf>,
    once: FxHashSet<PathBuf>,
    /// Per macro name: the definitions saved by `#pragma push_macro`, innermost last.
    pushed_macros: FxHashMap<Text, Vec<Option<MacroDef>>>,
    files: FxHashMap<PathBuf, FileId>,
    file_tokens: FxHashMap<FileId, Arc<Vec<Token>>>,
    /// Identifier and pp-number spellings, shared by all files. Every
    /// identifier in the input is interned here (see `table.rs`).
    pub(super) interner: Interner,
    /// `_Pragma`, interned (to recognize the operator by identity).
    pub(super) pragma_name: Text,
    /// Per macro name (by `name_key`): the hideset of just that name (see `macros.rs`).
    pub(super) name_sets: FxHashMap<usize, super::token::HideSet>,
    /// Memo of hideset unions (see `Preprocessor::union` in `macros.rs`).
    pub(super) unions: UnionMemo,
    /// Spare token vectors (see `Preprocessor::buffer` in `macros.rs`).
    pub(super) buffers: Vec<Vec<Token>>,
    /// A spare vector for an invocation's argument ranges (see `read_args`).
    pub(super) ranges: Vec<std::ops::Range<usize>>,
    /// Per file: the macro of an include guard wrapping the whole file, if any.
    guards: FxHashMap<FileId, Option<Text>>,
    pub(super) counter: u64,
    pub(super) date: String,
    pub(super) time: String,
    pub(super) main_file: FileId,
    pub(super) depth: usize,
    steps: u64,
    warnings: Vec<Diagnostic>,
    builtin_file: FileId,
    /// Expanding a `#if` line (`defined` protects its operand).
    pub(super) in_if_line: bool,
    /// Expanding a computed `#include` line: the first token of each
    /// expansion takes no space from its invocation (gcc glues the header
    /// name from the macro bodies' own spacing).
    pub(super) in_include_line: bool,
}

/// Preprocesses the file at `path`.
pub fn preprocess_file(sm: &mut SourceMap, path: &Path, opts: &PreprocessOptions) -> PResult<Preprocessed> {
    let bytes = std::fs::read(path)
        .map_err(|e| Diagnostic::global(format!("{}: {}", path.display(), e.to_string().to_lowercase())))?;
    preprocess_source(sm, &path.to_string_lossy(), bytes, opts)
}

/// Preprocesses `text`, reported as file `name`.
pub fn preprocess_source(
    sm: &mut SourceMap,
    name: &str,
    text: Vec<u8>,
    opts: &PreprocessOptions,
) -> PResult<Preprocessed> {
    let main = sm.add_file(name, text);
    let mut pp = Preprocessor::new(sm, opts, main);
    let tokens = pp.run(main)?;
    Ok(Preprocessed {
        tokens,
        warnings: pp.warnings,
        dependencies: pp.dependencies,
    })
}

fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Howard Hinnant's algorithm.
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z.rem_euclid(146097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + (m <= 2) as i64, m, d)
}

fn date_time() -> (String, String) {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0)
        });
    let (y, m, d) = civil_from_days(secs.div_euclid(86400));
    let t = secs.rem_euclid(86400);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    (
        format!("{} {:2} {}", MONTHS[(m - 1) as usize], d, y),
        format!("{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60),
    )
}

impl<'a> Preprocessor<'a> {
    fn new(sm: &'a mut SourceMap, opts: &PreprocessOptions, main_file: FileId) -> Preprocessor<'a> {
        let mut search_dirs: Vec<SearchDir> = opts.quote_dirs.iter().map(|d| SearchDir::Path(d.clone())).collect();
        let angled_start = search_dirs.len();
        search_dirs.extend(opts.include_dirs.iter().map(|d| SearchDir::Path(d.clone())));
        let first_system = search_dirs.len();
        search_dirs.extend(opts.system_dirs.iter().map(|d| SearchDir::Path(d.clone())));
        search_dirs.push(SearchDir::Builtin);
        match &opts.sysroot {
            Some(root) => {
                let usr = root.join("usr/include");
                search_dirs.push(SearchDir::Path(usr.join(opts.target.triple())));
                search_dirs.push(SearchDir::Path(usr));
            }
            None => search_dirs.extend(
                opts.target
                    .system_include_dirs()
                    .iter()
                    .map(|d| SearchDir::Path(d.into())),
            ),
        }
        let (date, time) = date_time();
        // Room for glibc's headers' macros without growing (about 1200
        // for `csmith.h`).
        let mut macros = table::MacroTable::with_capacity(2048);
        let mut interner = Interner::with_capacity(4096);
        for (name, b) in [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__COUNTER__", Builtin::Counter),
            ("__DATE__", Builtin::Date),
            ("__TIME__", Builtin::Time),
            ("__INCLUDE_LEVEL__", Builtin::IncludeLevel),
            ("__BASE_FILE__", Builtin::BaseFile),
        ] {
            macros.insert(&interner.intern(name.as_bytes()), MacroDef::Builtin(b));
        }
        let mut pp = Preprocessor {
            sm,
            target: opts.target,
            macros,
            input: input::Input::default(),
            conds: Vec::new(),
            include_stack: Vec::new(),
            search_dirs,
            angled_start,
            first_system,
            dependencies: Vec::new(),
            dependency_set: FxHashSet::default(),
            once: FxHashSet::default(),
            pushed_macros: FxHashMap::default(),
            files: FxHashMap::default(),
            file_tokens: FxHashMap::default(),
            pragma_name: interner.intern(b"_Pragma"),
            interner,
            guards: FxHashMap::default(),
            name_sets: FxHashMap::with_capacity_and_hasher(2048, Default::default()),
            unions: FxHashMap::default(),
            buffers: Vec::new(),
            ranges: Vec::new(),
            counter: 0,
            date,
            time,
            main_file,
            depth: 0,
            steps: 0,
            warnings: Vec::new(),
            builtin_file: FileId(0),
            in_if_line: false,
            in_include_line: false,
        };
        let mut builtin = crate::frontend::predefined::predefined_macros(opts.target);
        for m in &opts.macros {
            match m {
                CmdlineMacro::Define(n, v) => builtin.push_str(&format!("#define {n} {v}\n")),
                CmdlineMacro::Undef(n) => builtin.push_str(&format!("#undef {n}\n")),
            }
        }
        for f in &opts.pre_includes {
            builtin.push_str(&format!("#include \"{}\"\n", f.display()));
        }
        pp.builtin_file = pp.sm.add_file("<built-in>", builtin.into_bytes());
        pp
    }

    /// Counts work so that pathological inputs end with an error.
    pub(super) fn tick(&mut self, tok: &Token) -> PResult<()> {
        self.steps += 1;
        if self.steps > TOKEN_BUDGET {
            return Err(Diagnostic::error(
                tok.span,
                "preprocessing exceeds the token budget (runaway macro expansion?)",
            ));
        }
        Ok(())
    }

    /// [`Self::tick`] for each of `toks`, at once.
    pub(super) fn tick_all(&mut self, toks: &[Token]) -> PResult<()> {
        let room = TOKEN_BUDGET.saturating_sub(self.steps);
        if let Some(t) = toks.get(room as usize) {
            self.steps = TOKEN_BUDGET;
            return self.tick(t);
        }
        self.steps += toks.len() as u64;
        Ok(())
    }

    fn file_tokens(&mut self, file: FileId) -> PResult<Arc<Vec<Token>>> {
        if let Some(t) = self.file_tokens.get(&file) {
            return Ok(t.clone());
        }
        let toks = Arc::new(tokenize_with(
            &self.sm.file(file).text.clone(),
            file,
            &mut self.interner,
        )?);
        self.file_tokens.insert(file, toks.clone());
        Ok(toks)
    }

    /// Starts reading `file`: pushes a frame and the file's tokens.
    fn enter_file(&mut self, file: FileId, path: PathBuf, dir_index: Option<usize>) -> PResult<()> {
        let toks = self.file_tokens(file)?;
        self.include_stack.push(IncludeFrame {
            path,
            dir_index,
            cond_depth: self.conds.len(),
        });
        self.input.enter(toks);
        Ok(())
    }

    /// The main loop (see the module doc).
    fn run(&mut self, main: FileId) -> PResult<Vec<Token>> {
        let main_path = PathBuf::from(&*self.sm.file(main).name);
        // The main file's tokens are not cached (a file rarely includes
        // itself; it would be lexed again): the input owns them and moves
        // them out instead of cloning each.
        let main_toks = tokenize_with(&self.sm.file(main).text.clone(), main, &mut self.interner)?;
        // The output is about the main file's tokens plus what headers and
        // macros add: a hosted program's usual headers come to some 20000
        // tokens (`csmith.h`: 17700). Reserved once instead of doubling
        // (each doubling copies the tokens and leaves the old block
        // behind); the pages of the unused rest are never touched, and
        // given back at the end.
        let main_len = main_toks.len();
        let mut out = Vec::with_capacity(main_len + main_len / 2 + 32768);
        self.include_stack.push(IncludeFrame {
            path: main_path,
            dir_index: None,
            cond_depth: self.conds.len(),
        });
        self.input.enter(Arc::new(main_toks));
        let b = self.builtin_file;
        self.enter_file(b, PathBuf::from("<built-in>"), None)?;
        let mut force_bol = false;
        loop {
            if !force_bol {
                // Tokens that need no work (no directive, no macro name to
                // expand, no stray quote) go to the output as a run.
                let macros = &self.macros;
                let pragma = name_key(&self.pragma_name);
                let n = self.input.take_run(&mut out, |t| match t.kind {
                    TokenKind::Punct(Punct::Hash) => !(t.at_bol && t.hideset.is_none()),
                    TokenKind::Punct(_) | TokenKind::Number | TokenKind::Str | TokenKind::Char => true,
                    TokenKind::Ident => (!macros.contains(&t.text) && name_key(&t.text) != pragma) || t.hidden(&t.text),
                    _ => false,
                });
                self.steps += n as u64;
                if self.steps > TOKEN_BUDGET {
                    if let Some(t) = out.last().cloned() {
                        return Err(Diagnostic::error(
                            t.span,
                            "preprocessing exceeds the token budget (runaway macro expansion?)",
                        ));
                    }
                }
            }
            let Some(tok) = self.input.pop() else { break };
            self.tick(&tok)?;
            if tok.kind == TokenKind::Eof {
                let frame = self.include_stack.pop();
                let depth = frame.map(|f| f.cond_depth).unwrap_or(0);
                if self.conds.len() > depth {
                    let span = self.conds[self.conds.len() - 1].span;
                    return Err(Diagnostic::error(span, "unterminated conditional directive"));
                }
                if self.include_stack.is_empty() {
                    out.push(tok);
                    break;
                }
                continue;
            }
            if tok.is_punct(Punct::Hash) && tok.at_bol && tok.hideset.is_none() {
                if let Some(p) = self.directive(tok)? {
                    out.push(p);
                    force_bol = true;
                }
                continue;
            }
            if let Some(mut t) = self.try_expand(tok)? {
                if t.kind == TokenKind::Other && (t.text[0] == b'\'' || t.text[0] == b'"') {
                    return Err(super::lexer::stray_token_error(&t));
                }
                if t.kind == TokenKind::Pragma {
                    t.at_bol = true;
                    out.push(t);
                    force_bol = true;
                    continue;
                }
                if force_bol {
                    t.at_bol = true;
                    force_bol = false;
                }
                out.push(t);
            }
        }
        out.shrink_to_fit();
        Ok(out)
    }

    /// Pops the rest of the current line.
    fn read_line(&mut self) -> Vec<Token> {
        // Room for most directive lines without growing.
        let mut line = Vec::with_capacity(8);
        while let Some(t) = self.input.peek() {
            if t.at_bol || t.kind == TokenKind::Eof {
                break;
            }
            line.extend(self.input.pop());
        }
        line
    }

    fn current_file(&self) -> Option<&IncludeFrame> {
        self.include_stack.last()
    }

    /// Handles one directive; `hash` is its `#`. Returns a `Pragma` token to pass on, if any.
    fn directive(&mut self, hash: Token) -> PResult<Option<Token>> {
        let line = self.read_line();
        let Some(name) = line.first() else { return Ok(None) }; // the null directive
        let rest = &line[1..];
        if name.kind == TokenKind::Number {
            // GNU line marker: # 42 "file" flags
            self.line_directive(&hash, &line)?;
            return Ok(None);
        }
        let word: &[u8] = if name.kind == TokenKind::Ident { &name.text } else { b"" };
        match word {
            b"include" | b"import" => self.include(&hash, rest, false)?,
            b"include_next" => self.include(&hash, rest, true)?,
            b"define" => self.define(&hash, rest)?,
            b"undef" => {
                let n = self.macro_name(&hash, rest)?;
                self.macros.remove(&n.text);
            }
            b"if" => {
                let v = self.eval_if(name, rest)?;
                self.conds.push(Cond {
                    ctx: CondCtx::Then,
                    included: v,
                    span: hash.span,
                });
                if !v {
                    self.skip_group();
                }
            }
            b"ifdef" | b"ifndef" => {
                let n = self.macro_name(&hash, rest)?;
                let v = self.is_defined(&n.text) == (word == b"ifdef");
                self.conds.push(Cond {
                    ctx: CondCtx::Then,
                    included: v,
                    span: hash.span,
                });
                if !v {
                    self.skip_group();
                }
            }
            b"elif" => {
                let base = self.current_file().map(|f| f.cond_depth).unwrap_or(0);
                if self.conds.len() <= base {
                    return Err(Diagnostic::error(name.span, "#elif without #if"));
                }
                let c = self.conds.last().cloned().unwrap_or(Cond {
                    ctx: CondCtx::Then,
                    included: true,
                    span: name.span,
                });
                if c.ctx == CondCtx::Else {
                    return Err(Diagnostic::error(name.span, "#elif after #else"));
                }
                let v = !c.included && self.eval_if(name, rest)?;
                if let Some(c) = self.conds.last_mut() {
                    c.ctx = CondCtx::Elif;
                    c.included |= v;
                }
                if !v {
                    self.skip_group();
                }
            }
            b"else" => {
                let base = self.current_file().map(|f| f.cond_depth).unwrap_or(0);
                if self.conds.len() <= base {
                    return Err(Diagnostic::error(name.span, "#else without #if"));
                }
                let Some(c) = self.conds.last_mut() else {
                    return Ok(None);
                };
                if c.ctx == CondCtx::Else {
                    return Err(Diagnostic::error(name.span, "#else after #else"));
                }
                c.ctx = CondCtx::Else;
                let skip = c.included;
                c.included = true;
                if skip {
                    self.skip_group();
                }
            }
            b"endif" => {
                let base = self.current_file().map(|f| f.cond_depth).unwrap_or(0);
                if self.conds.len() <= base {
                    return Err(Diagnostic::error(name.span, "#endif without #if"));
                }
                self.conds.pop();
            }
            b"line" => {
                let expanded = self.expand_isolated(rest)?;
                let mut l = vec![name.clone()];
                l.extend(expanded);
                // Keep the directive's own end position for the remapping.
                if let Some(last) = line.last() {
                    if let Some(end) = l.last_mut() {
                        end.span.end = last.span.end;
                        end.span.file = last.span.file;
                    }
                }
                self.line_directive(&hash, &l[1..])?;
            }
            b"error" => {
                return Err(Diagnostic::error(hash.span, format!("#error {}", spell(rest))));
            }
            b"warning" => {
                self.warnings
                    .push(Diagnostic::warning(hash.span, format!("#warning {}", spell(rest))));
            }
            b"pragma" => return Ok(self.pragma(&hash, rest)),
            b"ident" | b"sccs" | b"assert" | b"unassert" => {}
            _ => {
                return Err(Diagnostic::error(
                    name.span,
                    format!("invalid preprocessing directive #{}", name.str()),
                ));
            }
        }
        Ok(None)
    }

    fn macro_name<'t>(&self, hash: &Token, rest: &'t [Token]) -> PResult<&'t Token> {
        match rest.first() {
            Some(t) if t.kind == TokenKind::Ident => {
                if &*t.text == b"defined" {
                    return Err(Diagnostic::error(t.span, "\"defined\" cannot be used as a macro name"));
                }
                Ok(t)
            }
            Some(t) => Err(Diagnostic::error(t.span, "macro names must be identifiers")),
            None => Err(Diagnostic::error(hash.span, "no macro name given in directive")),
        }
    }

    /// Whether the identifier `name` (interned) is defined as a macro or
    /// names one of the special `__has_*` operators.
    pub(super) fn is_defined(&self, name: &Text) -> bool {
        self.macros.contains(name)
            || matches!(
                &**name,
                b"__has_include" | b"__has_include_next" | b"__has_attribute" | b"__has_builtin"
            )
    }

    /// Skips a group whose condition is false, up to the `#elif`/`#else`/`#endif`
    /// that ends it (left on the stack for the main loop).
    fn skip_group(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.input.peek() {
            if t.kind == TokenKind::Eof {
                return;
            }
            // Skipped tokens are dropped unread; only a directive's `#` is taken.
            if !(t.is_punct(Punct::Hash) && t.at_bol) {
                self.input
                    .skip_while(|t| t.kind != TokenKind::Eof && !(t.is_punct(Punct::Hash) && t.at_bol));
                continue;
            }
            let Some(t) = self.input.pop() else { return };
            let Some(next) = self.input.peek() else { return };
            if next.at_bol {
                continue;
            }
            match &*next.text {
                b"if" | b"ifdef" | b"ifndef" => depth += 1,
                b"elif" | b"else" if depth == 0 => {
                    self.input.push(t);
                    return;
                }
                b"endif" => {
                    if depth == 0 {
                        self.input.push(t);
                        return;
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
    }

    /// `#define` (C11 6.10.3).
    fn define(&mut self, hash: &Token, rest: &[Token]) -> PResult<()> {
        let name = self.macro_name(hash, rest)?.clone();
        let mut body_start = 1;
        let def = if rest.get(1).is_some_and(|t| t.is_punct(Punct::LParen) && !t.has_space) {
            // Function-like: parameter list.
            let mut params: Vec<Text> = Vec::new();
            let mut variadic = false;
            let mut i = 2;
            loop {
                let Some(t) = rest.get(i) else {
                    return Err(Diagnostic::error(name.span, "missing ')' in macro parameter list"));
                };
                if t.is_punct(Punct::RParen) && params.is_empty() && !variadic {
                    i += 1;
                    break;
                }
                if t.is_punct(Punct::Ellipsis) {
                    variadic = true;
                    params.push(Arc::from(&b"__VA_ARGS__"[..]));
                } else if t.kind == TokenKind::Ident {
                    if params.contains(&t.text) {
                        return Err(Diagnostic::error(
                            t.span,
                            format!("duplicate macro parameter \"{}\"", t.str()),
                        ));
                    }
                    params.push(t.text.clone());
                    if rest.get(i + 1).is_some_and(|n| n.is_punct(Punct::Ellipsis)) {
                        variadic = true; // GNU named variable arguments: `args...`
                        i += 1;
                    }
                } else {
                    return Err(Diagnostic::error(
                        t.span,
                        "expected parameter name in macro parameter list",
                    ));
                }
                i += 1;
                match rest.get(i) {
                    Some(t) if t.is_punct(Punct::RParen) => {
                        i += 1;
                        break;
                    }
                    Some(t) if t.is_punct(Punct::Comma) && !variadic => i += 1,
                    Some(t) => return Err(Diagnostic::error(t.span, "expected ',' or ')' in macro parameter list")),
                    None => return Err(Diagnostic::error(name.span, "missing ')' in macro parameter list")),
                }
            }
            body_start = i;
            let body = self.body(rest, body_start)?;
            let slots = body
                .iter()
                .map(|t| {
                    let p = (t.kind == TokenKind::Ident)
                        .then(|| params.iter().position(|p| *p == t.text))
                        .flatten();
                    p.map_or(0, |p| p as u32 + 1)
                })
                .collect();
            MacroDef::Function {
                params: Arc::new(params),
                variadic,
                body: Arc::new(body),
                slots: Arc::new(slots),
                name: self.name_set(&name.text),
            }
        } else {
            MacroDef::Object {
                body: Arc::new(self.body(rest, body_start)?),
                name: self.name_set(&name.text),
            }
        };
        if let MacroDef::Function { params, body, .. } = &def {
            // C11 6.10.3.2p1: each # is followed by a parameter.
            for (i, t) in body.iter().enumerate() {
                if t.is_punct(Punct::Hash) {
                    let ok = body
                        .get(i + 1)
                        .is_some_and(|n| n.kind == TokenKind::Ident && params.contains(&n.text));
                    if !ok {
                        return Err(Diagnostic::error(t.span, "'#' is not followed by a macro parameter"));
                    }
                }
            }
        }
        let ends = |b: &[Token]| {
            b.first().is_some_and(|t| t.is_punct(Punct::HashHash))
                || b.last().is_some_and(|t| t.is_punct(Punct::HashHash))
        };
        match &def {
            MacroDef::Object { body: b, .. } | MacroDef::Function { body: b, .. } if ends(b) => {
                return Err(Diagnostic::error(
                    name.span,
                    "'##' cannot appear at either end of a macro expansion",
                ));
            }
            _ => {}
        }
        match self.macros.get(&name.text) {
            Some(MacroDef::Builtin(_)) => {
                self.warnings.push(Diagnostic::warning(
                    name.span,
                    format!("redefining builtin macro \"{}\"", name.str()),
                ));
            }
            Some(old) if !old.same_as(&def) => {
                self.warnings
                    .push(Diagnostic::warning(name.span, format!("\"{}\" redefined", name.str())));
            }
            _ => {}
        }
        self.macros.insert(&name.text, def);
        Ok(())
    }

    fn body(&self, rest: &[Token], start: usize) -> PResult<Vec<Token>> {
        let mut body: Vec<Token> = rest.get(start..).unwrap_or(&[]).to_vec();
        if let Some(f) = body.first_mut() {
            f.has_space = false;
        }
        for t in &mut body {
            t.at_bol = false;
        }
        Ok(body)
    }

    /// `#line digits ["name"]` and GNU line markers `# digits "name" flags`.
    fn line_directive(&mut self, hash: &Token, toks: &[Token]) -> PResult<()> {
        let Some(n) = toks.first().filter(|t| t.kind == TokenKind::Number) else {
            return Err(Diagnostic::error(
                hash.span,
                "#line directive requires a positive integer argument",
            ));
        };
        let line: u32 = std::str::from_utf8(&n.text)
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| Diagnostic::error(n.span, format!("\"{}\" is not a valid line number", n.str())))?;
        let name = match toks.get(1) {
            Some(t) if t.kind == TokenKind::Str => {
                let s = String::from_utf8_lossy(&t.text[1..t.text.len() - 1]).into_owned();
                Some(s)
            }
            Some(t) if toks.len() > 1 && hash.span.file != self.builtin_file && t.kind != TokenKind::Number => {
                return Err(Diagnostic::error(t.span, "invalid filename in #line directive"));
            }
            _ => None,
        };
        let end = toks.last().map(|t| t.span).unwrap_or(hash.span);
        self.sm.add_line_remap(hash.span.file, end.end, line, name.as_deref());
        Ok(())
    }

    /// `#pragma`: `once` is ours; everything else becomes a `Pragma` token.
    fn pragma(&mut self, hash: &Token, rest: &[Token]) -> Option<Token> {
        if rest.len() == 1 && rest[0].is_ident("once") {
            if let Some(f) = self.current_file() {
                let p = f.path.clone();
                self.once.insert(p);
            }
            return None;
        }
        self.push_pop_macro(rest);
        let mut t = Token::new(TokenKind::Pragma, spell(rest).as_bytes(), hash.span);
        t.at_bol = true;
        Some(t)
    }

    /// GCC's `#pragma push_macro("NAME")` saves the current definition of NAME
    /// (or that it is undefined); `#pragma pop_macro("NAME")` restores the last
    /// one saved, and is ignored when nothing was pushed, as in GCC. The pragma
    /// still reaches the output, as `gcc -E` keeps it.
    fn push_pop_macro(&mut self, rest: &[Token]) {
        let [op, l, name, r] = rest else { return };
        let push = op.is_ident("push_macro");
        if !(push || op.is_ident("pop_macro"))
            || !l.is_punct(Punct::LParen)
            || !r.is_punct(Punct::RParen)
            || name.kind != TokenKind::Str
            || name.text.first() != Some(&b'"')
            || name.text.len() < 2
        {
            return;
        }
        // Interned: a macro name, to look up by identity.
        let key: Text = self.interner.intern(&name.text[1..name.text.len() - 1]);
        if push {
            let def = self.macros.get(&key).cloned();
            self.pushed_macros.entry(key).or_default().push(def);
        } else if let Some(def) = self.pushed_macros.get_mut(&key).and_then(|v| v.pop()) {
            match def {
                Some(d) => self.macros.insert(&key, d),
                None => self.macros.remove(&key),
            };
        }
    }

    /// The `Pragma` token for `_Pragma("...")`, as a one-token line.
    pub(super) fn pragma_line(&mut self, span: Span, toks: Vec<Token>) -> Vec<Token> {
        self.push_pop_macro(&toks);
        let mut t = Token::new(TokenKind::Pragma, spell(&toks).as_bytes(), span);
        t.at_bol = true;
        vec![t]
    }
}

/// Spells tokens back as source text, one space where there was white space.
pub fn spell(toks: &[Token]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.has_space {
            s.push(' ');
        }
        s.push_str(&t.str());
    }
    s
}

/// Prints tokens as `-E` output: a line break before each token that began a
/// line, a space where there was white space, and a space wherever two
/// adjacent tokens would otherwise lex as one (`+` `+` from a macro); pragmas
/// as `#pragma` lines.
pub fn print_tokens(toks: &[Token]) -> String {
    let mut s = String::new();
    let mut prev: Option<&Token> = None;
    for t in toks {
        if t.kind == TokenKind::Eof {
            break;
        }
        if prev.is_some() && t.at_bol {
            s.push('\n');
        } else if t.has_space {
            s.push(' ');
        } else if let Some(p) = prev {
            let mut joined = p.text.to_vec();
            joined.extend_from_slice(&t.text);
            if p.kind != TokenKind::Pragma && super::lexer::lex_single(&joined, t.span.file).is_some() {
                s.push(' ');
            }
        }
        if t.kind == TokenKind::Pragma {
            s.push_str("#pragma ");
        }
        s.push_str(&t.str());
        prev = Some(t);
    }
    s.push('\n');
    s
}
