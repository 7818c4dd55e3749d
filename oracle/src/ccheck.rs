//! The in-process C check behind the `c_roundtrip` fuzz target: C source
//! text through phicc's frontend (preprocessor, parser, semantic analysis,
//! lowering) into alloca-form IR, then the IR check of [`crate::ircheck`]:
//! every stage of the mem2reg pipeline verified, and the program
//! interpreted without mem2reg (the lowered IR) and with it under the same
//! inline-asm schedules. No assembler, no QEMU.

use crate::ircheck::{check_module, CheckConfig, Report};
use phicc::frontend::preprocess::PreprocessOptions;
use phicc::frontend::source::SourceMap;
use phicc::ir::module::IrModule;
use phicc::ir::verify::{verify_module, VerifyMode};
use phicc::target::Target;

/// Why a C program did not reach the IR check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrontendFailure {
    /// The frontend rejected the program: the rendered diagnostic.
    Rejected(String),
    /// Lowering produced IR that does not verify.
    BadIr(String),
}

impl std::fmt::Display for FrontendFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrontendFailure::Rejected(d) => write!(f, "the frontend rejected the program:\n{d}"),
            FrontendFailure::BadIr(e) => write!(f, "lowering produced IR that does not verify:\n{e}"),
        }
    }
}

/// Lower the C program `source` for `target` to verified alloca-form IR.
pub fn lower_c(source: &str, target: Target) -> Result<IrModule, FrontendFailure> {
    lower_c_with_includes(source, target, &[])
}

/// [`lower_c`] with `-I` directories (Csmith programs need `/usr/include/csmith`).
pub fn lower_c_with_includes(
    source: &str,
    target: Target,
    include_dirs: &[std::path::PathBuf],
) -> Result<IrModule, FrontendFailure> {
    let mut sm = SourceMap::new();
    let mut opts = PreprocessOptions::new(target);
    opts.include_dirs.extend(include_dirs.iter().cloned());
    let tu = phicc::frontend::parse_source(&mut sm, "cgen.c", source.as_bytes(), &opts)
        .map_err(|d| FrontendFailure::Rejected(d.render(&sm)))?;
    let (program, _warnings) =
        phicc::frontend::sema::analyze(&tu, target).map_err(|d| FrontendFailure::Rejected(d.render(&sm)))?;
    let module = phicc::lower::lower_program(&program).map_err(|d| FrontendFailure::Rejected(d.render(&sm)))?;
    verify_module(&module, VerifyMode::NonSsa).map_err(|e| FrontendFailure::BadIr(e.to_string()))?;
    Ok(module)
}

/// Lower `source` and run the IR check on it.
pub fn check_c(source: &str, target: Target, cfg: &CheckConfig) -> Result<Report, FrontendFailure> {
    let module = lower_c(source, target)?;
    Ok(check_module(&module, cfg))
}
