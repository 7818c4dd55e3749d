//! The in-process IR check shared by the cargo-fuzz targets and
//! `oracle ir-campaign`: run a module through each pass of a configuration of
//! phicc's pass table (`phicc::passes`; alloca-form input gets
//! [`Configuration::CHECKED`], SSA input `nomem2reg`, phi-elim alone), verify
//! the IR after every pass, and interpret the original and the transformed
//! module under the same inline-asm schedules. Any verifier failure or outcome
//! difference is a finding, reported with the first stage (pass) at which it
//! appeared. Before the passes, the dominance frontiers mem2reg would use are
//! compared with an independent computation (a disagreement is a verifier
//! finding at the input stage).
//!
//! Termination is an outcome: when the original finishes in S interpreter
//! steps and the transformed module has not finished after
//! `phicc::ir::interp::hang_limit(S)` = 8·S + 10,000 steps (its fuel is raised
//! to at least that), the finding is "no longer terminates after PASS"
//! ([`Failure::Hang`]). Only an original that runs out of fuel makes a run
//! inconclusive.
//!
//! Many inputs per function (issue 17 item 5, [`crate::inputs`]): with
//! [`CheckConfig::inputs`] on, every function besides `main` whose parameters
//! are scalars is called with boundary, random and (when its parameters fit
//! in [`Inputs::exhaustive_bits`]) all argument vectors, each outcome compared
//! before and after the passes like `main`'s. A call whose original traps
//! (undefined behaviour: after it anything may happen) or runs out of fuel is
//! skipped; a call of a function that runs no inline asm uses only the first
//! schedule (the schedule drives nothing else). The finding names its call
//! ([`Failure::call`]), and its stage is the first after which that call
//! differs.

pub use crate::inputs::{Call, Inputs};
use phicc::ir::interp::{self, hang_limit, Outcome, Program, RunConfig, RunResult};
use phicc::ir::module::IrModule;
use phicc::ir::verify::{IncrementalVerifier, VerifyMode};
use phicc::passes::{Configuration, PassKind, Pipeline, PipelineError};
use std::fmt;

/// Where a failure showed: the input, or the IR after a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Input,
    After(PassKind),
}

impl Stage {
    /// `input`, or the pass's name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Input => "input",
            Stage::After(pass) => pass.name(),
        }
    }
}

/// Which passes a check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckMode {
    /// Alloca-form input: the checked configuration, [`Configuration::CHECKED`].
    Pipeline,
    /// Alloca-form input: the `mem2reg` configuration, what `phicc` runs
    /// without flags (mem2reg and phi elimination with the copy propagation
    /// between them); the `mem2reg_roundtrip` fuzz target's check.
    Mem2reg,
    /// SSA-form input: the `nomem2reg` configuration (phi elimination only).
    PhiElimOnly,
}

impl CheckMode {
    /// The configuration whose passes are checked.
    pub fn configuration(self) -> Configuration {
        match self {
            CheckMode::Pipeline => Configuration::CHECKED,
            CheckMode::Mem2reg => Configuration::Mem2reg,
            CheckMode::PhiElimOnly => Configuration::Nomem2reg,
        }
    }

    /// The stages a failure can be reported at, in order.
    pub fn stages(self) -> Vec<Stage> {
        std::iter::once(Stage::Input)
            .chain(self.configuration().passes().iter().map(|&p| Stage::After(p)))
            .collect()
    }
}

/// What went wrong.
#[derive(Clone, Debug)]
pub enum Failure {
    /// The verifier rejected the IR after `stage` (for `Input`, the generator's output).
    Verifier { stage: Stage, message: String },
    /// Interpreting after `stage` gave a different outcome than the original.
    Mismatch {
        stage: Stage,
        call: Call,
        schedule: u64,
        before: Outcome,
        after: Outcome,
    },
    /// The original finished in `steps` steps; after `stage` the program had
    /// not finished after `limit` ([`hang_limit`]) steps.
    Hang {
        stage: Stage,
        call: Call,
        schedule: u64,
        before: Outcome,
        steps: u64,
        limit: u64,
    },
}

impl Failure {
    pub fn stage(&self) -> Stage {
        match self {
            Failure::Verifier { stage, .. } | Failure::Mismatch { stage, .. } | Failure::Hang { stage, .. } => *stage,
        }
    }

    /// The call whose outcome changed (`None` for a verifier failure).
    pub fn call(&self) -> Option<&Call> {
        match self {
            Failure::Verifier { .. } => None,
            Failure::Mismatch { call, .. } | Failure::Hang { call, .. } => Some(call),
        }
    }

    /// A short key that identifies the kind of failure (for bucketing and for
    /// checking that a reduced case still fails the same way).
    pub fn signature(&self) -> String {
        match self {
            Failure::Verifier { stage, .. } => format!("verifier after {}", stage.name()),
            Failure::Mismatch { stage, .. } => format!("mismatch after {}", stage.name()),
            Failure::Hang { stage, .. } => format!("no longer terminates after {}", stage.name()),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Verifier { stage, message } => {
                write!(f, "verifier failed after {}:\n{message}", stage.name())
            }
            Failure::Mismatch {
                stage,
                call,
                schedule,
                before,
                after,
            } => write!(
                f,
                "outcome changed after {} (call {call}, schedule {schedule}):\n--- original ---\n{before}\n--- after {} ---\n{after}",
                stage.name(),
                stage.name()
            ),
            Failure::Hang {
                stage,
                call,
                schedule,
                before,
                steps,
                limit,
            } => write!(
                f,
                "no longer terminates after {} (call {call}, schedule {schedule}): the original finished in {steps} steps, the program after {} had not finished after {limit} ({} x {steps} + {})\n--- original ---\n{before}",
                stage.name(),
                stage.name(),
                interp::HANG_FACTOR,
                interp::HANG_SLACK
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
    /// mem2reg left promotable allocas in memory because of its phi
    /// copy-cost limit (the limit's path ran).
    pub crossed_cost_limit: bool,
    /// Calls besides `main()` compared before and after (one per vector and schedule).
    pub calls: u64,
    /// Calls besides `main()` skipped: the original trapped or ran out of fuel.
    pub calls_skipped: u64,
    /// Functions whose every input was tried.
    pub exhaustive_functions: u64,
}

/// Check settings.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    pub mode: CheckMode,
    pub schedules: Vec<u64>,
    pub fuel: u64,
    /// Which functions besides `main` are called, with which inputs (default: none).
    pub inputs: Inputs,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            mode: CheckMode::Pipeline,
            schedules: vec![0, 1],
            fuel: 200_000,
            inputs: Inputs::OFF,
        }
    }
}

/// One input of the IR fuzz targets: the module `irgen` makes of `data` in
/// `gen` form, checked in `mode` (for alloca-form input, every function is
/// also called with `Inputs::FUZZ` seeded by the bytes). A failure panics
/// with the module as text, ready to save as a `.ir` file for phiopt.
pub fn fuzz_ir_input(data: &[u8], gen: crate::irgen::GenMode, mode: CheckMode) {
    let module = crate::irgen::generate(data, gen);
    let inputs = match gen {
        crate::irgen::GenMode::Alloca => Inputs::FUZZ.seeded_by(data),
        crate::irgen::GenMode::Ssa => Inputs::OFF,
    };
    let cfg = CheckConfig {
        mode,
        inputs,
        ..CheckConfig::default()
    };
    if let Some(failure) = check_module(&module, &cfg).failure {
        panic!("{failure}\n--- module ---\n{}", phicc::ir::text::print_module(&module));
    }
}

/// Run the check on `module`.
pub fn check_module(module: &IrModule, cfg: &CheckConfig) -> Report {
    let mut report = Report::default();
    // The input stays as it is (the passes run on a copy), so the verifier
    // keeps its functions by reference.
    let mut verifier = IncrementalVerifier::new();
    if let Err(e) = verifier.verify_borrowed(module, VerifyMode::Ssa) {
        report.failure = Some(Failure::Verifier {
            stage: Stage::Input,
            message: e.to_string(),
        });
        return report;
    }
    if cfg.mode != CheckMode::PhiElimOnly {
        if let Some(message) = mem2reg_frontier_errors(module) {
            report.failure = Some(Failure::Verifier {
                stage: Stage::Input,
                message,
            });
            return report;
        }
    }
    let original = Program::new(module);
    let run = |p: &Program, seed: u64, fuel: u64| {
        p.run_counting(&RunConfig {
            entry: "main".into(),
            args: vec![],
            schedule_seed: seed,
            fuel,
        })
    };
    let originals: Vec<(Outcome, u64)> = cfg.schedules.iter().map(|&s| run(&original, s, cfg.fuel)).collect();
    report.inconclusive = originals.iter().any(|(o, _)| o.is_inconclusive());
    report.trapped = originals.iter().any(|(o, _)| matches!(o.result, RunResult::Trap(_)));

    // Run every pass with the verifier after it (only the functions a pass
    // changed are verified again).
    let mut pipeline = Pipeline::for_configuration(cfg.mode.configuration());
    pipeline.verify_each = true;
    let mut m = module.clone();
    match pipeline.run_verified(&mut m, &mut |_, _| {}, &mut verifier) {
        Ok(stats) => {
            const KEPT: &str = phicc::passes::KEPT_BY_COST_LIMIT;
            report.crossed_cost_limit =
                stats.get(PassKind::Mem2reg, KEPT) + stats.get(PassKind::Mem2regParams, KEPT) > 0;
        }
        Err(PipelineError::Verify { after, errors }) => {
            let stage = PassKind::from_name(&after).map_or(Stage::Input, Stage::After);
            report.failure = Some(Failure::Verifier { stage, message: errors });
            return report;
        }
        Err(e @ PipelineError::NotSsa { .. }) => {
            // A configuration of the table that cannot run is a table bug.
            panic!("{} cannot run: {e}", cfg.mode.configuration())
        }
    }
    // Interpret the final module; only when it differs, interpret the
    // intermediate ones to name the first stage that changed the meaning.
    // The transformed run gets at least the termination rule's limit, so
    // that running out of fuel is a finding.
    let differs = |p: &Program, stage: Stage| {
        cfg.schedules.iter().zip(&originals).find_map(|(&seed, original)| {
            let (before, _) = original;
            if before.is_inconclusive() {
                return None;
            }
            let (after, _) = run(p, seed, interp::fuel_after(cfg.fuel, original));
            compare(stage, &Call::main(), seed, original, after)
        })
    };
    let stages = cfg.mode.stages();
    let last = stages.last().copied().unwrap_or(Stage::Input);
    let transformed = Program::new(&m);
    if differs(&transformed, last).is_some() {
        for (stage, sm) in Stages::new(module, &stages) {
            if let Some(failure) = differs(&Program::new(&sm), stage) {
                report.failure = Some(failure);
                return report;
            }
        }
        return report;
    }
    if cfg.inputs.every_function {
        if let Some((call, seed, original)) = check_calls(module, &original, &transformed, cfg, &mut report) {
            // The first stage after which this call differs.
            for (stage, sm) in Stages::new(module, &stages) {
                let p = Program::new(&sm);
                let Ok(after) = p.call(
                    &call.function,
                    &call.args,
                    seed,
                    interp::fuel_after(cfg.fuel, &original),
                ) else {
                    continue;
                };
                if let Some(failure) = compare(stage, &call, seed, &original, after.0) {
                    report.failure = Some(failure);
                    return report;
                }
            }
        }
    }
    report
}

/// The module after each pass, in order, made again from the input when a
/// difference has to be placed (the passes are deterministic, so this is the
/// module the checked run verified; keeping a copy after every pass instead
/// costs a module clone per pass on every input).
struct Stages<'a> {
    module: IrModule,
    stages: std::slice::Iter<'a, Stage>,
}

impl<'a> Stages<'a> {
    fn new(input: &IrModule, stages: &'a [Stage]) -> Stages<'a> {
        Stages {
            module: input.clone(),
            stages: stages.iter(),
        }
    }
}

impl Iterator for Stages<'_> {
    type Item = (Stage, IrModule);

    fn next(&mut self) -> Option<(Stage, IrModule)> {
        let stage = *self.stages.find(|s| **s != Stage::Input)?;
        apply(&mut self.module, stage);
        Some((stage, self.module.clone()))
    }
}

/// The failure, if `after` (the transformed run of `call` under `seed`) is
/// not what the conclusive `original` run was.
fn compare(stage: Stage, call: &Call, seed: u64, original: &(Outcome, u64), after: Outcome) -> Option<Failure> {
    let (before, steps) = original;
    if after.is_inconclusive() {
        Some(Failure::Hang {
            stage,
            call: call.clone(),
            schedule: seed,
            before: before.clone(),
            steps: *steps,
            limit: hang_limit(*steps),
        })
    } else {
        (*before != after).then(|| Failure::Mismatch {
            stage,
            call: call.clone(),
            schedule: seed,
            before: before.clone(),
            after,
        })
    }
}

/// Call every function besides `main` with its argument vectors
/// ([`crate::inputs`]) in the original and the final module: the first call
/// whose outcome differs, its schedule and its original run.
fn check_calls(
    module: &IrModule,
    original: &Program,
    transformed: &Program,
    cfg: &CheckConfig,
    report: &mut Report,
) -> Option<(Call, u64, (Outcome, u64))> {
    let asm = crate::inputs::may_run_asm(module);
    for (fi, f) in module.functions.iter().enumerate() {
        if f.name == "main" {
            continue;
        }
        let Ok(types) = interp::scalar_params(f) else {
            continue;
        };
        let (vectors, exhaustive) = crate::inputs::argument_vectors(f, &types, &cfg.inputs);
        report.exhaustive_functions += exhaustive as u64;
        let seeds = if asm[fi] {
            &cfg.schedules[..]
        } else {
            &cfg.schedules[..1.min(cfg.schedules.len())]
        };
        for args in vectors {
            for &seed in seeds {
                let Ok(before) = original.call(&f.name, &args, seed, cfg.fuel) else {
                    continue;
                };
                if matches!(before.0.result, RunResult::Trap(_) | RunResult::OutOfFuel) {
                    report.calls_skipped += 1;
                    continue;
                }
                report.calls += 1;
                // A function the passes removed or re-typed cannot be called: nothing to compare.
                let Ok((after, _)) = transformed.call(&f.name, &args, seed, interp::fuel_after(cfg.fuel, &before))
                else {
                    continue;
                };
                let call = Call {
                    function: f.name.clone(),
                    args: args.clone(),
                    types: types.clone(),
                };
                if compare(Stage::Input, &call, seed, &before, after).is_some() {
                    return Some((call, seed, before));
                }
            }
        }
    }
    None
}

/// The dominance frontiers mem2reg would place phis by, compared with the
/// definition over independently computed dominator sets
/// (`phicc::ir::dominator_sets`) for every function of up to
/// `CROSS_CHECK_MAX_BLOCKS` blocks: the disagreements, if any. (The
/// verifier, run after every stage, compares the dominator tree itself.)
pub fn mem2reg_frontier_errors(module: &IrModule) -> Option<String> {
    use phicc::ir::dominator_sets::{cross_check_frontiers, CROSS_CHECK_MAX_BLOCKS};
    let mut lines = Vec::new();
    for f in module.functions.iter().filter(|f| !f.is_declaration) {
        if f.blocks.len() > CROSS_CHECK_MAX_BLOCKS {
            continue;
        }
        let cfg = phicc::ir::analysis::CfgAnalysis::build(f);
        let df = phicc::passes::mem2reg::placement_frontiers(&cfg);
        for e in cross_check_frontiers(&cfg, &df, |b| f.blocks[b].label.to_string()) {
            lines.push(format!("@{}: mem2reg's {e}", f.name));
        }
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Apply one stage to every defined function of `m` (the input stage and the verifier change nothing).
pub fn apply(m: &mut IrModule, stage: Stage) {
    if let Stage::After(pass) = stage {
        phicc::passes::pipeline::apply(pass, m, &mut vec![0; pass.pass().counters.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stages come from phicc's pass table: every pass some
    /// configuration runs is checked stage by stage, in the configuration's order.
    #[test]
    fn stages_are_the_pass_table() {
        let checked: Vec<Stage> = [CheckMode::Pipeline, CheckMode::PhiElimOnly]
            .iter()
            .flat_map(|m| m.stages())
            .collect();
        for c in Configuration::ALL {
            for &pass in c.passes() {
                assert!(checked.contains(&Stage::After(pass)), "{pass} of {c} is not checked");
            }
        }
        for mode in [CheckMode::Pipeline, CheckMode::Mem2reg, CheckMode::PhiElimOnly] {
            let stages = mode.stages();
            let names: Vec<&str> = stages.iter().map(|s| s.name()).collect();
            println!("ircheck stages of {mode:?}: {names:?}");
            assert_eq!(stages[0], Stage::Input);
            let passes: Vec<PassKind> = stages[1..]
                .iter()
                .map(|s| match s {
                    Stage::After(p) => *p,
                    Stage::Input => panic!("input twice"),
                })
                .collect();
            assert_eq!(passes, mode.configuration().passes());
        }
        // Every pass of the table but the verifier (which runs after every
        // stage) is run by a configuration, so the checks reach it.
        for pass in PassKind::ALL {
            let run = Configuration::ALL.iter().any(|c| c.passes().contains(&pass));
            assert!(
                run || pass == PassKind::Verify,
                "no configuration runs {pass}: nothing checks it"
            );
        }
    }

    /// The termination rule makes no false finding: a loop that needs more
    /// than the configured fuel after the passes but finishes within the rule's
    /// limit passes, and an original that never ends is inconclusive, not a finding.
    #[test]
    fn termination_rule_has_no_false_findings() {
        let count_to = |n: u32| {
            format!(
                "define @main() -> i32 {{\nbb0:\n  %0 = alloca i32, size 4, align 4\n  br bb1\nbb1:\n  %1 = load i32 %0\n  %2 = add i32 %1, 1i32\n  store i32 %2, %0\n  %3 = cmp slt i32 %2, {n}i32\n  condbr %3, bb1, bb2\nbb2:\n  ret %2\n}}\n"
            )
        };
        // About 6 steps per iteration; with 200 fuel the original's 1,000
        // iterations run out, with 10,000 they finish.
        let module = phicc::ir::text::parse_module(&count_to(1000)).unwrap();
        let tight = CheckConfig {
            fuel: 200,
            ..CheckConfig::default()
        };
        let report = check_module(&module, &tight);
        assert!(report.inconclusive && report.failure.is_none(), "{report:?}");
        let report = check_module(&module, &CheckConfig::default());
        assert!(!report.inconclusive && report.failure.is_none(), "{report:?}");
        // A loop far longer than the fuel (2^31 iterations): inconclusive, never "no longer terminates".
        let endless = phicc::ir::text::parse_module(&count_to(0).replace("slt", "sge")).unwrap();
        let report = check_module(&endless, &CheckConfig::default());
        assert!(report.inconclusive && report.failure.is_none(), "{report:?}");
    }

    /// Incremental verification reports what the full verifier reports, after
    /// every stage of both check modes on generated modules (alloca and SSA
    /// form), and it does skip the functions a pass left alone.
    #[test]
    fn incremental_verification_agrees_with_the_full_verifier() {
        use crate::irgen::{generate, input_bytes, GenMode};
        use phicc::ir::verify::verify_module;
        let mut skipped = 0;
        for (mode, gen) in [
            (CheckMode::Pipeline, GenMode::Alloca),
            (CheckMode::Mem2reg, GenMode::Alloca),
            (CheckMode::PhiElimOnly, GenMode::Ssa),
        ] {
            for index in 0..60 {
                let mut m = generate(&input_bytes(11, index), gen);
                let mut v = IncrementalVerifier::new();
                let mut vmode = VerifyMode::Ssa;
                for stage in mode.stages() {
                    apply(&mut m, stage);
                    if matches!(stage, Stage::After(p) if p.pass().leaves_ssa) {
                        vmode = VerifyMode::NonSsa;
                    }
                    let full = verify_module(&m, vmode);
                    assert_eq!(
                        v.verify(&m, vmode),
                        full,
                        "{mode:?} input {index} after {}",
                        stage.name()
                    );
                }
                skipped += v.skipped;
            }
        }
        assert!(skipped > 0, "no function was ever skipped");
    }

    /// Applying the checked stages in order promotes the locals and passes the check.
    #[test]
    fn the_checked_stages_leave_no_alloca() {
        let text = "define @main() -> i32 {\nbb0:\n  %0 = alloca i32, size 4, align 4\n  store i32 7i32, %0\n  %1 = load i32 %0\n  ret %1\n}\n";
        let module = phicc::ir::text::parse_module(text).unwrap();
        let report = check_module(&module, &CheckConfig::default());
        assert!(report.failure.is_none(), "{:?}", report.failure);
        let mut m = module.clone();
        for stage in CheckMode::Pipeline.stages() {
            apply(&mut m, stage);
        }
        assert!(!phicc::ir::text::print_module(&m).contains("alloca"));
    }

    /// Every function is called besides `main`: a call whose original traps
    /// (`@q(0)` divides by zero) is skipped, not a finding; the others
    /// compare equal through a correct pipeline; a function of one byte is
    /// tried on all 256 inputs.
    #[test]
    fn every_function_is_called_and_trapping_calls_are_skipped() {
        let text = "define @q(i32) -> i32 {\nbb0:\n  %0 = alloca i32, size 4, align 4\n  %1 = paramref 0 i32\n  store i32 %1, %0\n  %2 = load i32 %0\n  %3 = sdiv i32 100i32, %2\n  ret %3\n}\ndefine @b(u8) -> u8 {\nbb1:\n  %0 = paramref 0 u8\n  %1 = add u8 %0, 1i8\n  ret %1\n}\ndefine @main() -> i32 {\nbb2:\n  %0 = call i32 @q(i32 5i32)\n  ret %0\n}\n";
        let module = phicc::ir::text::parse_module(text).unwrap();
        let report = check_module(&module, &CheckConfig::default());
        assert_eq!((report.calls, report.calls_skipped), (0, 0), "only main without inputs");
        let cfg = CheckConfig {
            inputs: Inputs::CAMPAIGN,
            ..CheckConfig::default()
        };
        let report = check_module(&module, &cfg);
        assert!(report.failure.is_none(), "{:?}", report.failure);
        assert_eq!(report.calls_skipped, 1);
        assert_eq!(report.exhaustive_functions, 1);
        // No asm: one schedule per call; @b's 256 inputs and @q's vectors but one.
        assert!(report.calls > 256, "{}", report.calls);
    }
}
