//! The pass registry and pipeline: names -> passes, run in order over a
//! module, with the verifier after each pass on request (`--verify-each`, as
//! QBE re-checks SSA after every pass) and a hook for `--print-ir-after`.
//!
//! Names: `verify`, `mem2reg` ([`promote_allocas`]), `mem2reg-params`
//! ([`promote_allocas_with_params`]), `copyprop` ([`propagate_copies`]),
//! `phi-elim` ([`eliminate_phis`]) and the group `mem2reg-pipeline` = mem2reg,
//! mem2reg-params, copyprop, phi-elim (the `mem2reg` configuration of
//! docs/architecture.md#configurations). The verifier checks SSA form until `phi-elim` has run and the
//! non-SSA form after it; `copyprop` after `phi-elim` is refused, since copy
//! propagation is only valid on SSA form (docs/ssa.md#no-copy-propagation-after-phi-elimination).

use super::copyprop::propagate_copies;
use crate::ir::module::IrModule;
use crate::ir::verify::{verify_module, VerifyMode};
use crate::passes::mem2reg::{promote_allocas, promote_allocas_with_params, PromoteStats};
use crate::passes::phi_elim::eliminate_phis;
use std::fmt;

/// One registered pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassKind {
    Verify,
    Mem2reg,
    Mem2regParams,
    Copyprop,
    PhiElim,
}

impl PassKind {
    pub const ALL: [PassKind; 5] = [
        PassKind::Verify,
        PassKind::Mem2reg,
        PassKind::Mem2regParams,
        PassKind::Copyprop,
        PassKind::PhiElim,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PassKind::Verify => "verify",
            PassKind::Mem2reg => "mem2reg",
            PassKind::Mem2regParams => "mem2reg-params",
            PassKind::Copyprop => "copyprop",
            PassKind::PhiElim => "phi-elim",
        }
    }
}

/// Name of the group that runs the whole `mem2reg` configuration.
pub const MEM2REG_PIPELINE: &str = "mem2reg-pipeline";

/// An ordered list of passes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pipeline {
    pub passes: Vec<PassKind>,
    /// Run the verifier after every pass.
    pub verify_each: bool,
}

/// Counts from one pipeline run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassStats {
    /// `mem2reg` (parameters excluded).
    pub mem2reg: PromoteStats,
    /// `mem2reg-params`.
    pub mem2reg_params: PromoteStats,
    /// Uses rewritten plus copies deleted by `copyprop`.
    pub copyprop_changes: usize,
    /// Phis eliminated by `phi-elim`.
    pub phis_eliminated: usize,
    /// Names of the passes run, in order.
    pub passes_run: Vec<&'static str>,
}

impl fmt::Display for PassStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "passes run: {}", self.passes_run.join(", "))?;
        writeln!(f, "mem2reg: {}", self.mem2reg)?;
        writeln!(f, "mem2reg-params: {}", self.mem2reg_params)?;
        writeln!(f, "copyprop: {} changes", self.copyprop_changes)?;
        write!(f, "phi-elim: {} phis eliminated", self.phis_eliminated)
    }
}

/// Why a pipeline stopped.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The verifier rejected the module after a pass (or before any, for `verify`).
    #[error("verifier failed after {after}:\n{errors}")]
    Verify { after: String, errors: String },
    /// A pass that needs SSA form was asked to run after phi elimination.
    #[error("{pass} needs SSA form but phi-elim has already run")]
    NotSsa { pass: &'static str },
}

impl Pipeline {
    /// Parses `mem2reg,copyprop` (names separated by commas, spaces ignored).
    pub fn parse(spec: &str) -> Result<Pipeline, String> {
        let mut passes = Vec::new();
        for name in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if name == MEM2REG_PIPELINE {
                passes.extend([
                    PassKind::Mem2reg,
                    PassKind::Mem2regParams,
                    PassKind::Copyprop,
                    PassKind::PhiElim,
                ]);
            } else if let Some(kind) = PassKind::ALL.iter().find(|k| k.name() == name) {
                passes.push(*kind);
            } else {
                let valid: Vec<&str> = PassKind::ALL
                    .iter()
                    .map(|k| k.name())
                    .chain(std::iter::once(MEM2REG_PIPELINE))
                    .collect();
                return Err(format!("unknown pass `{name}` (valid: {})", valid.join(", ")));
            }
        }
        Ok(Pipeline {
            passes,
            verify_each: false,
        })
    }

    /// Runs the passes in order over `module`, calling `after_pass(name, module)`
    /// after each one.
    pub fn run(
        &self,
        module: &mut IrModule,
        after_pass: &mut dyn FnMut(&str, &IrModule),
    ) -> Result<PassStats, PipelineError> {
        let mut stats = PassStats::default();
        // The input is taken to be SSA (alloca form is SSA too).
        let mut ssa = true;
        for &pass in &self.passes {
            match pass {
                PassKind::Verify => verify(module, ssa, "verify")?,
                PassKind::Mem2reg | PassKind::Mem2regParams if !ssa => {
                    return Err(PipelineError::NotSsa { pass: pass.name() })
                }
                PassKind::Mem2reg => {
                    for f in module.functions.iter_mut().filter(|f| !f.is_declaration) {
                        stats.mem2reg += promote_allocas(f);
                    }
                }
                PassKind::Mem2regParams => {
                    for f in module.functions.iter_mut().filter(|f| !f.is_declaration) {
                        stats.mem2reg_params += promote_allocas_with_params(f);
                    }
                }
                PassKind::Copyprop => {
                    if !ssa {
                        return Err(PipelineError::NotSsa { pass: pass.name() });
                    }
                    stats.copyprop_changes += module.for_each_function(propagate_copies);
                }
                PassKind::PhiElim => {
                    stats.phis_eliminated += eliminate_phis(module);
                    ssa = false;
                }
            }
            stats.passes_run.push(pass.name());
            if self.verify_each && pass != PassKind::Verify {
                verify(module, ssa, pass.name())?;
            }
            after_pass(pass.name(), module);
        }
        Ok(stats)
    }
}

fn verify(module: &IrModule, ssa: bool, after: &str) -> Result<(), PipelineError> {
    let mode = if ssa { VerifyMode::Ssa } else { VerifyMode::NonSsa };
    verify_module(module, mode).map_err(|e| PipelineError::Verify {
        after: after.to_string(),
        errors: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_the_group() {
        let p = Pipeline::parse("verify, mem2reg-pipeline").unwrap();
        assert_eq!(
            p.passes,
            vec![
                PassKind::Verify,
                PassKind::Mem2reg,
                PassKind::Mem2regParams,
                PassKind::Copyprop,
                PassKind::PhiElim
            ]
        );
        assert_eq!(Pipeline::parse("").unwrap().passes, vec![]);
    }

    #[test]
    fn unknown_name_lists_the_valid_ones() {
        let e = Pipeline::parse("mem2reg,gvn").unwrap_err();
        assert!(e.contains("`gvn`"), "{e}");
        for name in [
            "verify",
            "mem2reg",
            "mem2reg-params",
            "copyprop",
            "phi-elim",
            "mem2reg-pipeline",
        ] {
            assert!(e.contains(name), "{e}");
        }
    }

    #[test]
    fn copyprop_after_phi_elim_is_refused() {
        let p = Pipeline::parse("phi-elim,copyprop").unwrap();
        let mut m = IrModule::default();
        let err = p.run(&mut m, &mut |_, _| {}).unwrap_err();
        assert!(matches!(err, PipelineError::NotSsa { pass: "copyprop" }));
    }
}
