//! Backends: IR to GNU assembler text for x86-64, AArch64 and RISC-V 64.
//!
//! STUB: the real implementation replaces this file (target abstraction in
//! this module and `common/`, one directory per target).

use crate::frontend::target::Target;
use crate::ir::module::IrModule;

/// An IR construct the backend cannot translate (the driver prints it as an error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendError {
    pub function: Option<String>,
    pub message: String,
}

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.function {
            Some(func) => write!(f, "in function '{func}': {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for BackendError {}

/// Emits a whole module as assembly for `target`. `m` must be phi-free
/// (after `eliminate_phis`) and verify.
pub fn emit_assembly(m: &IrModule, target: Target) -> Result<String, BackendError> {
    let _ = m;
    Err(BackendError {
        function: None,
        message: format!("no backend for {target:?} yet"),
    })
}
