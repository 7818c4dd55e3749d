//! The pipeline: names -> passes of the table (`passes/mod.rs`), run in order
//! over a module, with the verifier after each pass on request
//! (`--verify-each`, as QBE re-checks SSA after every pass), a hook for
//! `--print-ir-after`, and the passes' counters for `--stats`.
//!
//! A spec names passes and configuration groups (`mem2reg-pipeline`,
//! `nomem2reg-pipeline`). The verifier checks SSA form until a pass that
//! leaves it (`phi-elim`) has run and the non-SSA form after it; a pass that
//! needs SSA input after that is refused: copy propagation, for one, is only
//! valid on SSA form (docs/ssa.md#no-copy-propagation-after-phi-elimination).

use super::{Configuration, PassKind, Run};
use crate::ir::module::IrModule;
use crate::ir::verify::{verify_module, VerifyMode};
use std::fmt;

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
    /// Names of the passes run, in order.
    pub passes_run: Vec<&'static str>,
    /// Each pass run that has counters, in order of its first run, with its
    /// counters (parallel to [`Pass::counters`](super::Pass::counters)) summed over its runs.
    pub counters: Vec<(PassKind, Vec<usize>)>,
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
        })
    }

    /// The passes of `config`.
    pub fn for_configuration(config: Configuration) -> Pipeline {
        Pipeline {
            passes: config.passes().to_vec(),
            verify_each: false,
        }
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
        for &kind in &self.passes {
            let pass = kind.pass();
            if pass.needs_ssa && !ssa {
                return Err(PipelineError::NotSsa { pass: kind.name() });
            }
            match pass.run {
                Run::Verify => verify(module, ssa, kind.name())?,
                _ => apply(kind, module, stats.slots(kind)),
            }
            ssa &= !pass.leaves_ssa;
            stats.passes_run.push(kind.name());
            if self.verify_each && !matches!(pass.run, Run::Verify) {
                verify(module, ssa, kind.name())?;
            }
            after_pass(kind.name(), module);
        }
        stats.counters.retain(|(_, v)| !v.is_empty());
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

fn verify(module: &IrModule, ssa: bool, after: &str) -> Result<(), PipelineError> {
    let mode = if ssa { VerifyMode::Ssa } else { VerifyMode::NonSsa };
    verify_module(module, mode).map_err(|e| PipelineError::Verify {
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
        let e = Pipeline::parse("mem2reg,gvn").unwrap_err();
        assert!(e.contains("`gvn`"), "{e}");
        for name in PassKind::ALL.iter().map(|k| k.name()).chain(["mem2reg-pipeline"]) {
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
