//! The C frontend: from C source text to a typed tree (`hir::Program`).
//!
//! # Pipeline
//!
//! ```text
//! bytes --source.rs--> cleaned text (backslash-newlines spliced, C11 5.1.1.2 phase 2)
//!       --lexer.rs---> preprocessing tokens (phase 3)
//!       --preprocess/> tokens after directives and macro expansion (phase 4)
//!       --parse/-----> ast::TranslationUnit (phases 5-7: literals decoded by
//!                      literal.rs, adjacent strings concatenated, keywords recognised)
//!       --sema/------> hir::Program (typed tree: names resolved, conversions explicit)
//!       (then lower turns the typed tree into alloca IR)
//! ```
//!
//! * `source.rs` owns every file and the diagnostics type. A `Span` is a byte
//!   range in a file; `Diagnostic::render` gives `file:line:col: error: msg`,
//!   the source line and a caret. Errors are values: no phase panics on any
//!   input; the first error ends the phase.
//! * `lexer.rs` and `token.rs` produce pp-tokens (`intern.rs` shares their
//!   spellings); `literal.rs` gives the values
//!   of numbers, character constants and string literals.
//! * `preprocess/` is our own preprocessor. Macro expansion follows Prosser's
//!   hideset algorithm (see `preprocess/macros.rs`); `#if` arithmetic is in
//!   intmax/uintmax (`preprocess/expr.rs`); headers are searched in `-I`
//!   directories, then the compiler's own headers (`compiler/include/`,
//!   embedded in the binary), then the target's glibc headers
//!   (`preprocess/headers.rs`). `#pragma` lines other than `once` reach the
//!   parser as `Pragma` tokens.
//! * `predefined.rs` writes the target's predefined macros from the target
//!   table (`crate::target`, which also gives char signedness and include
//!   directories).
//! * `parse/` is a recursive-descent C11 parser with the GNU extensions used by
//!   glibc and real programs, split by construct (decl, expr, stmt, init). It
//!   tracks typedef names per scope, which C's grammar needs.
//! * `ast.rs` is the syntactic tree: declarators keep their derivation list,
//!   specifiers are resolved to a base type; semantic checks are sema's.
//! * `types.rs` has the semantic C types (`CType`, `QualType`), integer
//!   promotions and usual arithmetic conversions, and a `TypeContext` that owns
//!   struct/union/enum definitions and answers `sizeof`/`_Alignof` per target;
//!   `layout.rs` places struct and union members, bit-fields included, with
//!   `packed`, `aligned` and `#pragma pack`.
//! * `sema/` is semantic analysis: names resolved, `ast` types turned into
//!   `CType`s, conversions made explicit, constants folded; its output is the
//!   typed tree of `hir.rs`, which `crate::lower` turns into IR.
//!
//! Entry points: [`preprocess`] and [`parse`] (or [`parse_tokens`] on the
//! output of `preprocess`), then [`sema::analyze`].

pub mod ast;
pub mod hir;
pub mod intern;
pub mod layout;
pub mod lexer;
pub mod literal;
pub mod parse;
pub mod predefined;
pub mod preprocess;
pub mod sema;
pub mod source;
pub mod token;
pub mod types;

pub use parse::parse_tokens;
pub use preprocess::{CmdlineMacro, PreprocessOptions, Preprocessed};
pub use source::{Diagnostic, SourceMap};

use std::path::Path;

/// Preprocesses the C file at `path` for `opts.target`: returns the tokens
/// (ending in `Eof`) and warnings, or the first error. File names and
/// positions of all tokens are in `sm`; render errors with `Diagnostic::render(&sm)`.
/// Print the tokens as `-E` output with [`preprocess::print_tokens`].
pub fn preprocess(sm: &mut SourceMap, path: &Path, opts: &PreprocessOptions) -> Result<Preprocessed, Diagnostic> {
    preprocess::preprocess_file(sm, path, opts)
}

/// Preprocesses and parses the C file at `path` into a syntax tree.
/// `#warning`s are returned beside the tree.
pub fn parse(
    sm: &mut SourceMap,
    path: &Path,
    opts: &PreprocessOptions,
) -> Result<(ast::TranslationUnit, Vec<Diagnostic>), Diagnostic> {
    let pp = preprocess(sm, path, opts)?;
    let tu = parse_tokens(pp.tokens, opts.target)?;
    Ok((tu, pp.warnings))
}

/// Preprocesses and parses source text held in memory (`name` is used in diagnostics).
pub fn parse_source(
    sm: &mut SourceMap,
    name: &str,
    text: &[u8],
    opts: &PreprocessOptions,
) -> Result<ast::TranslationUnit, Diagnostic> {
    let pp = preprocess::preprocess_source(sm, name, text.to_vec(), opts)?;
    parse_tokens(pp.tokens, opts.target)
}
