//! Lowering: typed tree (`frontend::hir`) to the alloca IR of seed 004.
//!
//! STUB: the real implementation replaces this file. Contract: every local
//! an `Alloca`, parameters via `ParamRef` + `Store`, `&&`/`||`/`?:` as
//! control flow, `switch` to `Switch`, computed goto to `IndirectBranch`,
//! asm to `InlineAsm` with outputs pointing at allocas, globals with their
//! initializers, struct copies via `Memcpy`, varargs via the `Va*`
//! instructions.

use crate::frontend::hir::Program;
use crate::frontend::source::Diagnostic;
use crate::ir::module::IrModule;

/// Lowers a whole program; the result verifies in `VerifyMode::NonSsa`.
pub fn lower_program(program: &Program) -> Result<IrModule, Diagnostic> {
    let _ = program;
    Err(Diagnostic::global("lowering is not implemented yet"))
}
