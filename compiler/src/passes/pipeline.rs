//! The pipeline: names -> passes of the table (`passes/mod.rs`), run in order
//! over a module, with the verifier after each pass on request
//! (`--verify-each`, as QBE re-checks SSA after every pass; only the
//! functions a pass changed are checked again), a hook for
//! `--print-ir-after`, and the passes' counters for `--stats`.
//!
//! A spec names passes and configuration groups (`mem2reg-pipeline`,
//! `nomem2reg-pipeline`). The verifier checks SSA form until a pass that
//! leaves it (`phi-elim`) has run and the non-SSA form after it; a pass that
//! needs SSA input after that is refused: copy propagation, for one, is only
//! valid on SSA form (docs/ssa.md#no-copy-propagation-after-phi-elimination).
//!
//! Bisection ([`OptBisect`], `phicc -fopt-bisect-limit=N`, after LLVM's
//! `-opt-bisect-limit`): the pipeline's applications are numbered 1, 2, ...
//! in the order they run, and only those numbered up to N run; each one is
//! printed on standard error as `BISECT: running pass (K) NAME on function
//! (F)` or `BISECT: NOT running pass (K) ...`. A function pass is one
//! application per defined function (every function for the first pass, then
//! every function for the next); a module pass that is not required is one
//! application `on module`. A required pass (phi-elim: the backend accepts no
//! phi) always runs and is not numbered, like LLVM's required passes; it is
//! printed as `BISECT: running required pass NAME on module`. So a phi-elim
//! bug in function F shows up at the application that first gives F phis
//! (mem2reg on F). The verifier is not a transformation and is never counted.
//!
//! Functions kept out of SSA ([`Pipeline::keep_out_of_ssa`], `phicc
//! -fno-mem2reg=f,g`): the SSA-constructing passes (`mem2reg`,
//! `mem2reg-params`) skip them, so their locals stay in memory while the rest
//! of the module is promoted; such a skipped application is not numbered for
//! bisection. Every other pass still runs on them (alloca form is SSA too).
//! A call to a kept-out function that `inline` copies into another function
//! becomes that function's code and is promoted with it.

use super::{Configuration, PassKind, Run};
use crate::ir::module::IrModule;
use crate::ir::verify::{IncrementalVerifier, VerifyMode};
use std::fmt;

/// An ordered list of passes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pipeline {
    pub passes: Vec<PassKind>,
    /// Run the verifier after every pass.
    pub verify_each: bool,
    /// Run only the first applications (`-fopt-bisect-limit`).
    pub bisect: Option<OptBisect>,
    /// Functions that `mem2reg` and `mem2reg-params` leave alone
    /// (`-fno-mem2reg=f,g`; see the module documentation).
    pub keep_out_of_ssa: Vec<String>,
}

/// LLVM's opt-bisect: only applications numbered up to `limit` run (see the
/// module documentation for what an application is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptBisect {
    /// The last application that runs; `None` runs every one (and still prints them, as LLVM's -1).
    pub limit: Option<u64>,
    /// Applications already numbered by earlier modules of the same compile;
    /// this run numbers from `counted + 1`.
    pub counted: u64,
}

impl OptBisect {
    /// The bisection of `-fopt-bisect-limit=N` (a negative N runs everything).
    pub fn with_limit(n: i64) -> OptBisect {
        OptBisect {
            limit: u64::try_from(n).ok(),
            counted: 0,
        }
    }

    /// Number the next application and say whether it runs, printing the `BISECT:` line.
    fn next(&mut self, pass: PassKind, on: &str) -> bool {
        self.counted += 1;
        let k = self.counted;
        let run = self.limit.is_none_or(|l| k <= l);
        let not = if run { "" } else { "NOT " };
        eprintln!("BISECT: {not}running pass ({k}) {} on {on}", pass.name());
        run
    }
}

/// Counts from one pipeline run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassStats {
    /// Names of the passes run, in order.
    pub passes_run: Vec<&'static str>,
    /// Each pass run that has counters, in order of its first run, with its
    /// counters (parallel to [`Pass::counters`](super::Pass::counters)) summed over its runs.
    pub counters: Vec<(PassKind, Vec<usize>)>,
    /// The number of the last application `-fopt-bisect-limit` numbered, this
    /// run's included (0 without bisection): the next module's `counted`.
    pub bisect_counted: u64,
}

impl PassStats {
    /// The value of `pass`'s counter `name` (0 when the pass did not run).
    pub fn get(&self, pass: PassKind, name: &str) -> usize {
        let slot = pass.pass().counters.iter().position(|c| *c == name);
        let values = self.counters.iter().find(|(k, _)| *k == pass).map(|(_, v)| v);
        match (slot, values) {
            (Some(i), Some(v)) => v[i],
            _ => 0,
        }
    }

    fn slots(&mut self, pass: PassKind) -> &mut [usize] {
        let i = match self.counters.iter().position(|(k, _)| *k == pass) {
            Some(i) => i,
            None => {
                self.counters.push((pass, vec![0; pass.pass().counters.len()]));
                self.counters.len() - 1
            }
        };
        &mut self.counters[i].1
    }
}

impl fmt::Display for PassStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "passes run: {}", self.passes_run.join(", "))?;
        for (pass, values) in &self.counters {
            let names = pass.pass().counters;
            let parts: Vec<String> = names.iter().zip(values).map(|(n, v)| format!("{v} {n}")).collect();
            if !parts.is_empty() {
                write!(f, "\n{}: {}", pass.name(), parts.join(", "))?;
            }
        }
        Ok(())
    }
}

/// Why a pipeline stopped.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The verifier rejected the module after a pass (or before any, for `verify`).
    #[error("verifier failed after {after}:\n{errors}")]
    Verify { after: String, errors: String },
    /// A pass that needs SSA form was asked to run after one that leaves it.
    #[error("{pass} needs SSA form but phi-elim has already run")]
    NotSsa { pass: &'static str },
}

/// Every name a spec accepts: the passes, then the configuration groups.
pub fn spec_names() -> Vec<&'static str> {
    let passes = PassKind::ALL.iter().map(|k| k.name());
    passes.chain(Configuration::ALL.iter().map(|c| c.group())).collect()
}

impl Pipeline {
    /// Parses `mem2reg,copyprop` (names separated by commas, spaces ignored).
    pub fn parse(spec: &str) -> Result<Pipeline, String> {
        let mut passes = Vec::new();
        for name in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if let Some(c) = Configuration::ALL.iter().find(|c| c.group() == name) {
                passes.extend_from_slice(c.passes());
            } else if let Some(kind) = PassKind::from_name(name) {
                passes.push(kind);
            } else {
                return Err(format!("unknown pass `{name}` (valid: {})", spec_names().join(", ")));
            }
        }
        Ok(Pipeline {
            passes,
            verify_each: false,
            bisect: None,
            keep_out_of_ssa: Vec::new(),
        })
    }

    /// The passes of `config`.
    pub fn for_configuration(config: Configuration) -> Pipeline {
        Pipeline {
            passes: config.passes().to_vec(),
            verify_each: false,
            bisect: None,
            keep_out_of_ssa: Vec::new(),
        }
    }

    /// Does `kind` skip function `name` (it builds SSA, and `name` is kept out)?
    fn skips(&self, kind: PassKind, name: &str) -> bool {
        matches!(kind, PassKind::Mem2reg | PassKind::Mem2regParams) && self.keep_out_of_ssa.iter().any(|n| n == name)
    }

    /// Runs the passes in order over `module`, calling `after_pass(name, module)`
    /// after each one.
    pub fn run(
        &self,
        module: &mut IrModule,
        after_pass: &mut dyn FnMut(&str, &IrModule),
    ) -> Result<PassStats, PipelineError> {
        self.run_verified(module, after_pass, &mut IncrementalVerifier::new())
    }

    /// [`Pipeline::run`] with the caller's verifier: one that has already
    /// accepted `module` re-verifies only what the first pass changes. The
    /// module after the last pass is verified but not kept in the verifier
    /// (what it keeps is still a verified earlier state).
    pub fn run_verified(
        &self,
        module: &mut IrModule,
        after_pass: &mut dyn FnMut(&str, &IrModule),
        verifier: &mut IncrementalVerifier<'_>,
    ) -> Result<PassStats, PipelineError> {
        let mut stats = PassStats::default();
        // The input is taken to be SSA (alloca form is SSA too).
        let mut ssa = true;
        let mut bisect = self.bisect;
        for (k, &kind) in self.passes.iter().enumerate() {
            let pass = kind.pass();
            // After the last pass nothing compares with the module again.
            let last = k + 1 == self.passes.len();
            if pass.needs_ssa && !ssa {
                return Err(PipelineError::NotSsa { pass: kind.name() });
            }
            match (pass.run, bisect.as_mut()) {
                (Run::Verify, _) => verify(verifier, module, ssa, kind.name(), last)?,
                (Run::Function(f), None) => {
                    let counters = stats.slots(kind);
                    for func in module.functions.iter_mut().filter(|f| !f.is_declaration) {
                        if !self.skips(kind, &func.name) {
                            f(func, counters);
                        }
                    }
                }
                (_, None) => apply(kind, module, stats.slots(kind)),
                (_, Some(_)) if pass.required => {
                    eprintln!("BISECT: running required pass {} on module", kind.name());
                    apply(kind, module, stats.slots(kind));
                }
                (Run::Module(f), Some(b)) => {
                    if b.next(kind, "module") {
                        f(module, stats.slots(kind));
                    }
                }
                (Run::Function(f), Some(b)) => {
                    let defined = module.functions.iter_mut().filter(|f| !f.is_declaration);
                    for func in defined.filter(|f| !self.skips(kind, &f.name)) {
                        if b.next(kind, &format!("function ({})", func.name)) {
                            f(func, stats.slots(kind));
                        }
                    }
                }
            }
            ssa &= !pass.leaves_ssa;
            stats.passes_run.push(kind.name());
            if self.verify_each && !matches!(pass.run, Run::Verify) {
                verify(verifier, module, ssa, kind.name(), last)?;
            }
            after_pass(kind.name(), module);
        }
        stats.counters.retain(|(_, v)| !v.is_empty());
        stats.bisect_counted = bisect.map_or(0, |b| b.counted);
        Ok(stats)
    }
}

/// Runs `kind` once over `module` (the verifier changes nothing and checks
/// nothing here), adding to `counters`.
pub fn apply(kind: PassKind, module: &mut IrModule, counters: &mut [usize]) {
    match kind.pass().run {
        Run::Verify => {}
        Run::Module(f) => f(module, counters),
        Run::Function(f) => {
            for func in module.functions.iter_mut().filter(|f| !f.is_declaration) {
                f(func, counters);
            }
        }
    }
}

/// Verifies `module` after the pass `after`; only the functions changed since
/// the verifier last accepted the module are checked again
/// (`ir::verify::incremental`).
fn verify(
    verifier: &mut IncrementalVerifier<'_>,
    module: &IrModule,
    ssa: bool,
    after: &str,
    last: bool,
) -> Result<(), PipelineError> {
    let mode = if ssa { VerifyMode::Ssa } else { VerifyMode::NonSsa };
    let result = if last {
        verifier.verify_without_keeping(module, mode)
    } else {
        verifier.verify(module, mode)
    };
    result.map_err(|e| PipelineError::Verify {
        after: after.to_string(),
        errors: e.to_string(),
    })
}

/// The pass table and the configurations as text (`phiopt --list-passes`).
pub fn list_passes() -> String {
    let mut s = String::from("passes:\n");
    let width = PassKind::ALL.iter().map(|k| k.name().len()).max().unwrap_or(0);
    for kind in PassKind::ALL {
        let p = kind.pass();
        let scope = match p.run {
            Run::Verify => "check",
            Run::Module(_) => "module",
            Run::Function(_) => "function",
        };
        let form = match (p.needs_ssa, p.leaves_ssa) {
            (true, true) => "SSA -> non-SSA",
            (true, false) => "SSA -> SSA",
            (false, true) => "any -> non-SSA",
            (false, false) => "any -> same",
        };
        s.push_str(&format!(
            "  {:width$}  {scope:8}  {form:14}  {}\n",
            kind.name(),
            p.about
        ));
        if !p.counters.is_empty() {
            s.push_str(&format!("  {:width$}  counters: {}\n", "", p.counters.join(", ")));
        }
    }
    s.push_str("configurations:\n");
    for c in Configuration::ALL {
        let names: Vec<&str> = c.passes().iter().map(|k| k.name()).collect();
        let default = if c == Configuration::DEFAULT {
            ", the default"
        } else {
            ""
        };
        s.push_str(&format!(
            "  {} (--passes={}{default}): {}\n",
            c.name(),
            c.group(),
            names.join(", ")
        ));
        s.push_str(&format!("      {}\n", c.about()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_the_groups() {
        let p = Pipeline::parse("verify, mem2reg-pipeline").unwrap();
        let mut want = vec![PassKind::Verify];
        want.extend_from_slice(Configuration::Mem2reg.passes());
        assert_eq!(p.passes, want);
        assert_eq!(Pipeline::parse("").unwrap().passes, vec![]);
        assert_eq!(
            Pipeline::parse("mem2reg, phi-elim").unwrap().passes,
            vec![PassKind::Mem2reg, PassKind::PhiElim]
        );
    }

    /// The table is the single source: every row and every configuration
    /// is reachable by name, and `--list-passes` shows each.
    #[test]
    fn every_row_is_parsed_and_listed() {
        let listing = list_passes();
        for kind in PassKind::ALL {
            assert_eq!(Pipeline::parse(kind.name()).unwrap().passes, vec![kind]);
            assert_eq!(kind.pass().kind, kind, "row of {kind} names another pass");
            assert!(listing.contains(kind.name()), "{listing}");
            assert!(listing.contains(kind.pass().about), "{listing}");
        }
        for c in Configuration::ALL {
            assert_eq!(Pipeline::parse(c.group()).unwrap(), Pipeline::for_configuration(c));
            assert!(listing.contains(c.group()), "{listing}");
            // A configuration must be runnable: no SSA-only pass after one that leaves SSA.
            let mut m = IrModule::default();
            Pipeline::for_configuration(c).run(&mut m, &mut |_, _| {}).unwrap();
        }
    }

    #[test]
    fn unknown_name_lists_the_valid_ones() {
        let e = Pipeline::parse("mem2reg,pre").unwrap_err();
        assert!(e.contains("`pre`"), "{e}");
        for name in PassKind::ALL.iter().map(|k| k.name()).chain(["mem2reg-pipeline"]) {
            assert!(e.contains(name), "{e}");
        }
    }

    /// `-fopt-bisect-limit`: function passes count once per defined function,
    /// in pipeline order; phi-elim is required and uncounted; the numbering
    /// continues from `counted`.
    #[test]
    fn bisect_runs_only_the_first_applications() {
        let text = "define @f() -> i32 {\nbb0:\n  %0 = alloca i32, size 4, align 4\n  store i32 7i32, %0\n  %1 = load i32 %0\n  ret %1\n}\ndefine @g() -> i32 {\nbb1:\n  %0 = alloca i32, size 4, align 4\n  store i32 8i32, %0\n  %1 = load i32 %0\n  ret %1\n}\n";
        let run = |limit: i64, counted: u64| {
            let mut m = crate::ir::text::parse_module(text).unwrap();
            let mut p = Pipeline::for_configuration(Configuration::Mem2reg);
            p.bisect = Some(OptBisect {
                counted,
                ..OptBisect::with_limit(limit)
            });
            let stats = p.run(&mut m, &mut |_, _| {}).unwrap();
            let promoted: Vec<bool> = m
                .functions
                .iter()
                .map(|f| {
                    !crate::ir::text::print_module(&IrModule {
                        functions: vec![f.clone()],
                        ..IrModule::default()
                    })
                    .contains("alloca")
                })
                .collect();
            (promoted, stats.bisect_counted)
        };
        // mem2reg (f) = 1, mem2reg (g) = 2, then mem2reg-params and copyprop on each: 6 in all.
        assert_eq!(run(0, 0), (vec![false, false], 6));
        assert_eq!(run(1, 0), (vec![true, false], 6));
        assert_eq!(run(2, 0), (vec![true, true], 6));
        assert_eq!(run(-1, 0), (vec![true, true], 6));
        // Numbering from an earlier file's 10: application 11 runs, 12 does not.
        assert_eq!(run(11, 10), (vec![true, false], 16));
    }

    #[test]
    fn copyprop_after_phi_elim_is_refused() {
        let p = Pipeline::parse("phi-elim,copyprop").unwrap();
        let mut m = IrModule::default();
        let err = p.run(&mut m, &mut |_, _| {}).unwrap_err();
        assert!(matches!(err, PipelineError::NotSsa { pass: "copyprop" }));
    }

    #[test]
    fn stats_count_per_pass() {
        let text = "define @main() -> i32 {\nbb0:\n  %0 = alloca i32, size 4, align 4\n  store i32 7i32, %0\n  %1 = load i32 %0\n  ret %1\n}\n";
        let mut m = crate::ir::text::parse_module(text).unwrap();
        let stats = Pipeline::parse("mem2reg,mem2reg-params,phi-elim")
            .unwrap()
            .run(&mut m, &mut |_, _| {})
            .unwrap();
        assert_eq!(stats.get(PassKind::Mem2reg, "allocas promoted"), 1);
        assert_eq!(stats.get(PassKind::Mem2reg, "loads removed"), 1);
        assert_eq!(stats.get(PassKind::Mem2regParams, "allocas promoted"), 0);
        assert_eq!(stats.get(PassKind::Verify, "anything"), 0);
        let shown = stats.to_string();
        assert!(
            shown.starts_with("passes run: mem2reg, mem2reg-params, phi-elim\n"),
            "{shown}"
        );
        assert!(shown.contains("\nmem2reg: 1 allocas promoted, "), "{shown}");
        assert!(shown.contains("\nphi-elim: 0 phis eliminated"), "{shown}");
    }
}
