//! The in-process IR check shared by the cargo-fuzz targets and
//! `oracle ir-campaign`: run a module through each stage of the mem2reg
//! pipeline (mem2reg, mem2reg-params, copyprop, phi-elim), verify the IR after
//! every stage, and interpret the original and the transformed module under the
//! same inline-asm schedules. Any verifier failure or outcome difference is a
//! finding, reported with the first stage at which it appeared.
//!
//! Outcomes that ran out of fuel are inconclusive and never a finding.

use phicc::ir::interp::{self, Outcome, RunConfig, RunResult};
use phicc::ir::module::IrModule;
use phicc::ir::verify::{verify_module, VerifyMode};
use phicc::passes::copyprop::propagate_copies;
use phicc::passes::mem2reg::{promote_allocas, promote_allocas_with_params};
use phicc::passes::phi_elim::eliminate_phis;
use std::fmt;

/// A stage of the mem2reg pipeline, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Input,
    Mem2reg,
    Mem2regParams,
    Copyprop,
    PhiElim,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Input => "input",
            Stage::Mem2reg => "mem2reg",
            Stage::Mem2regParams => "mem2reg-params",
            Stage::Copyprop => "copyprop",
            Stage::PhiElim => "phi-elim",
        }
    }
}

/// Which passes a check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckMode {
    /// Alloca-form input: the whole pipeline.
    Pipeline,
    /// SSA-form input: phi elimination only.
    PhiElimOnly,
}

/// What went wrong.
#[derive(Clone, Debug)]
pub enum Failure {
    /// The verifier rejected the IR after `stage` (for `Input`, the generator's output).
    Verifier { stage: Stage, message: String },
    /// Interpreting after `stage` gave a different outcome than the original.
    Mismatch {
        stage: Stage,
        schedule: u64,
        before: Outcome,
        after: Outcome,
    },
}

impl Failure {
    pub fn stage(&self) -> Stage {
        match self {
            Failure::Verifier { stage, .. } | Failure::Mismatch { stage, .. } => *stage,
        }
    }

    /// A short key that identifies the kind of failure (for bucketing and for
    /// checking that a reduced case still fails the same way).
    pub fn signature(&self) -> String {
        match self {
            Failure::Verifier { stage, .. } => format!("verifier after {}", stage.name()),
            Failure::Mismatch { stage, .. } => format!("mismatch after {}", stage.name()),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Verifier { stage, message } => {
                write!(f, "verifier failed after {}:\n{message}", stage.name())
            }
            Failure::Mismatch { stage, schedule, before, after } => write!(
                f,
                "outcome changed after {} (schedule {schedule}):\n--- original ---\n{before}\n--- after {} ---\n{after}",
                stage.name(),
                stage.name()
            ),
        }
    }
}

/// The result of checking one module.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub failure: Option<Failure>,
    /// Some run of the original ran out of fuel.
    pub inconclusive: bool,
    /// Some run of the original ended in a trap.
    pub trapped: bool,
}

/// Check settings.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    pub mode: CheckMode,
    pub schedules: Vec<u64>,
    pub fuel: u64,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            mode: CheckMode::Pipeline,
            schedules: vec![0, 1],
            fuel: 200_000,
        }
    }
}

/// Run the check on `module`.
pub fn check_module(module: &IrModule, cfg: &CheckConfig) -> Report {
    let mut report = Report::default();
    if let Err(e) = verify_module(module, VerifyMode::Ssa) {
        report.failure = Some(Failure::Verifier {
            stage: Stage::Input,
            message: e.to_string(),
        });
        return report;
    }
    let run = |m: &IrModule, seed: u64| {
        interp::run(
            m,
            &RunConfig {
                entry: "main".into(),
                args: vec![],
                schedule_seed: seed,
                fuel: cfg.fuel,
            },
        )
    };
    let originals: Vec<Outcome> = cfg.schedules.iter().map(|&s| run(module, s)).collect();
    report.inconclusive = originals.iter().any(|o| o.is_inconclusive());
    report.trapped = originals.iter().any(|o| matches!(o.result, RunResult::Trap(_)));

    let stages: &[Stage] = match cfg.mode {
        CheckMode::Pipeline => &[Stage::Mem2reg, Stage::Mem2regParams, Stage::Copyprop, Stage::PhiElim],
        CheckMode::PhiElimOnly => &[Stage::PhiElim],
    };
    // Run every stage with the verifier after it, keeping each stage's module.
    let mut snapshots: Vec<(Stage, IrModule)> = Vec::with_capacity(stages.len());
    let mut m = module.clone();
    for &stage in stages {
        apply(&mut m, stage);
        let mode = if stage == Stage::PhiElim {
            VerifyMode::NonSsa
        } else {
            VerifyMode::Ssa
        };
        if let Err(e) = verify_module(&m, mode) {
            report.failure = Some(Failure::Verifier {
                stage,
                message: e.to_string(),
            });
            return report;
        }
        snapshots.push((stage, m.clone()));
    }
    // Interpret the final module; only when it differs, interpret the
    // intermediate ones to name the first stage that changed the meaning.
    let differs = |m: &IrModule| {
        cfg.schedules.iter().zip(&originals).find_map(|(&seed, before)| {
            let after = run(m, seed);
            let conclusive = !before.is_inconclusive() && !after.is_inconclusive();
            (conclusive && *before != after).then(|| (seed, before.clone(), after))
        })
    };
    if differs(&m).is_none() {
        return report;
    }
    for (stage, sm) in &snapshots {
        if let Some((schedule, before, after)) = differs(sm) {
            report.failure = Some(Failure::Mismatch {
                stage: *stage,
                schedule,
                before,
                after,
            });
            return report;
        }
    }
    report
}

/// Apply one stage to every defined function of `m`.
pub fn apply(m: &mut IrModule, stage: Stage) {
    match stage {
        Stage::Input => {}
        Stage::Mem2reg => {
            m.for_each_function(|f| {
                promote_allocas(f);
                0
            });
        }
        Stage::Mem2regParams => {
            m.for_each_function(|f| {
                promote_allocas_with_params(f);
                0
            });
        }
        Stage::Copyprop => {
            m.for_each_function(propagate_copies);
        }
        Stage::PhiElim => {
            eliminate_phis(m);
        }
    }
}
