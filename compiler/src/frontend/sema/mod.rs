//! Semantic analysis: syntax tree (`ast`) to typed tree (`hir`).
//!
//! STUB: the real implementation replaces this file. Contract: name
//! resolution with C scopes, types from declaration specifiers and
//! declarators, C11 6.3 conversions made explicit, constant folding, static
//! initializers, and `file:line:col` errors for ill-formed programs.

use super::ast::TranslationUnit;
use super::hir::Program;
use super::source::Diagnostic;
use super::target::Target;

/// Analyzes a translation unit for `target`: the typed program and any
/// warnings, or the first error.
pub fn analyze(tu: &TranslationUnit, target: Target) -> Result<(Program, Vec<Diagnostic>), Diagnostic> {
    let _ = (tu, target);
    Err(Diagnostic::global("semantic analysis is not implemented yet"))
}
