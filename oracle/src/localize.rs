//! Finds the first diverging stage of a C finding, for bucketing: frontend,
//! one of the passes of the cell's configuration by its name in phicc's pass
//! table (`mem2reg`, `mem2reg-params`, `copyprop`, `dce`, `phi-elim`, ...), or backend.
//!
//! The program is re-run through phicc with the passes of the cell's
//! configuration ([`passes_of`]) switched on one at a time
//! (`PHICC_DISABLE_PASSES` disables the rest): for a mismatch, `--run-ir`
//! interprets the IR after that prefix and its output is compared with a
//! baseline; for a crash or a rejection, `-S`
//! is repeated to see which prefix first fails. The first prefix that shows
//! the failure names the stage; none showing it means the backend. A probe
//! phicc cannot run (no `--run-ir`, a diagnostic) gives `unknown`.
//!
//! The baseline of a mismatch is the reference's output when the lowered IR,
//! interpreted with no pass, reproduces it. Otherwise (the interpreter runs
//! inline asm as a schedule-driven black box, docs/ir.md, so a program with
//! asm rarely prints what the hardware prints) the baseline is that
//! pass-free interpretation itself, under several asm schedules: a pass
//! that changes it under any of them changed the program's meaning. A
//! program without asm whose pass-free interpretation differs from the
//! reference is put in the frontend (the interpreter is exact there). A
//! `nomem2reg` cell has no pass to blame ([`blamed_passes`]), so its
//! interpretation differing from the reference means the frontend.

use crate::differential::{Class, Execution};
use crate::runner::{self, Job, Limits, Termination};
use crate::target::{Config, Target};
use crate::toolchain::Toolchain;
use phicc::exit;
use phicc::passes::{Configuration, PassKind};
use std::path::Path;

/// The passes phicc runs in `config`, in order, from its pass table (a
/// configuration the table does not have would be its default; every
/// [`Config`] is one of its rows, which a test pins).
pub fn passes_of(config: Config) -> &'static [PassKind] {
    Configuration::from_name(config.name())
        .unwrap_or(Configuration::DEFAULT)
        .passes()
}

/// The passes of `config` a finding can be put down to: all of them, except
/// in `nomem2reg`, whose phi-elim has no phi to eliminate in alloca-form IR.
pub fn blamed_passes(config: Config) -> &'static [PassKind] {
    match config {
        Config::Nomem2reg => &[],
        Config::Mem2reg | Config::Opt => passes_of(config),
    }
}

/// Every stage a finding in `config` can be put in, in pipeline order.
pub fn stages_of(config: Config) -> Vec<&'static str> {
    let passes = blamed_passes(config).iter().map(|p| p.name());
    std::iter::once("frontend").chain(passes).chain(["backend"]).collect()
}

/// The inline-asm schedules a program with asm is interpreted under.
const ASM_SCHEDULES: [u64; 4] = [0, 1, 2, 3];

/// The stage a prefix of the first `k` of `passes` ends in, when it is the first to fail.
fn stage_of_prefix(passes: &[PassKind], k: usize) -> &'static str {
    match k {
        0 => "frontend",
        _ => passes[k - 1].name(),
    }
}

/// The first diverging stage of a finding of `class` in cell (`target`, `config`).
pub fn first_diverging_stage(
    tools: &Toolchain,
    target: Target,
    config: Config,
    source: &Path,
    class: Class,
    expected: Option<&Execution>,
    work: &Path,
) -> String {
    let passes = blamed_passes(config);
    let max_prefix = passes.len();
    if matches!(class, Class::Mismatch | Class::Timeout) {
        let Some(exp) = expected else {
            return "unknown".into();
        };
        let expected = (exp.stdout_hash.clone(), exp.termination.clone());
        let Some(unoptimized) = run_ir(tools, target, config, 0, 0, source) else {
            return "unknown".into();
        };
        let (schedules, baselines): (&[u64], Vec<Outcome>) = if same_outcome(&unoptimized, &expected) {
            (&[0], vec![expected])
        } else if max_prefix == 0 {
            return "frontend".into();
        } else if has_inline_asm(tools, target, source, work) == Some(false) {
            // Without asm the interpreter is exact: the lowered IR already
            // computes something else than the reference.
            return "frontend".into();
        } else {
            // The interpreter's asm schedule stands in for the hardware: a
            // wrong pass may show under some schedules only.
            let mut baselines = vec![unoptimized];
            for &s in &ASM_SCHEDULES[1..] {
                match run_ir(tools, target, config, 0, s, source) {
                    Some(o) => baselines.push(o),
                    None => return "unknown".into(),
                }
            }
            (&ASM_SCHEDULES, baselines)
        };
        for k in 1..=max_prefix {
            for (&s, baseline) in schedules.iter().zip(&baselines) {
                match run_ir(tools, target, config, k, s, source) {
                    None => return "unknown".into(),
                    Some(o) if !same_outcome(&o, baseline) => return stage_of_prefix(passes, k).into(),
                    Some(_) => {}
                }
            }
        }
        return "backend".into();
    }
    for k in 0..=max_prefix {
        match compile_fails(tools, target, config, k, source, work) {
            None => return "unknown".into(),
            Some(true) if k == 0 => {
                // -S fails with no pass at all: the frontend if lowering alone fails too.
                return match emit_ir_fails(tools, target, source, class) {
                    Some(true) => "frontend".into(),
                    Some(false) => "backend".into(),
                    None => "unknown".into(),
                };
            }
            Some(true) => return stage_of_prefix(passes, k).into(),
            Some(false) => {}
        }
    }
    "backend".into()
}

/// What a run printed and how it ended, as far as findings compare them.
type Outcome = (String, Termination);

/// Two outcomes agree: same stdout and termination, where any running out
/// of time or resources counts as a timeout.
fn same_outcome(a: &Outcome, b: &Outcome) -> bool {
    let stuck = |t: &Termination| matches!(t, Termination::Timeout | Termination::ResourceLimit(_));
    if stuck(&a.1) || stuck(&b.1) {
        return stuck(&a.1) && stuck(&b.1);
    }
    a == b
}

/// phicc with only the first `k` passes of `config` switched on.
fn probe_job(tools: &Toolchain, config: Config, k: usize) -> Job {
    let mut job = Job::new(&tools.phicc);
    for (key, v) in &tools.env {
        job = job.env(key, v);
    }
    let rest: Vec<&str> = passes_of(config)[k..].iter().map(|p| p.name()).collect();
    job.env("PHICC_DISABLE_PASSES", rest.join(","))
}

fn probe_limits(tools: &Toolchain) -> Limits {
    let mut l = tools.run_limits.clone();
    l.timeout = (l.timeout * 3).max(std::time::Duration::from_secs(30));
    l.cpu_seconds = l.timeout.as_secs() + 1;
    l.address_space = tools.compile_limits.address_space;
    l
}

/// The outcome of interpreting the IR after the first `k` passes of
/// `config` under asm schedule `schedule` (`None`: the probe could not run).
fn run_ir(
    tools: &Toolchain,
    target: Target,
    config: Config,
    k: usize,
    schedule: u64,
    source: &Path,
) -> Option<Outcome> {
    let mut job = probe_job(tools, config, k)
        .args(config.flags().iter().copied())
        .arg("--run-ir")
        .arg(format!("--schedule={schedule}"))
        .arg(format!("--target={target}"))
        .arg("-w");
    for d in &tools.include_dirs {
        job = job.arg(format!("-I{}", d.display()));
    }
    let r = runner::run(&job.arg(source), &probe_limits(tools)).ok()?;
    let stderr = String::from_utf8_lossy(&r.stderr.bytes);
    match r.termination {
        Termination::Exited(exit::ICE) => None,
        // A diagnostic or a driver without --run-ir: the probe says nothing.
        Termination::Exited(s) if s != 0 && (stderr.contains("error") || stderr.contains("phicc")) => None,
        Termination::Signaled(_) => None,
        t => Some((crate::util::content_hash(&r.stdout.bytes), t)),
    }
}

/// Whether the lowered IR of `source` has inline asm, the one thing the
/// interpreter runs as a schedule-driven black box (`None`: no IR to look at).
fn has_inline_asm(tools: &Toolchain, target: Target, source: &Path, work: &Path) -> Option<bool> {
    let ir = work.join("probe.ir");
    let job = emit_ir_job(tools, target).arg("-o").arg(&ir).arg(source);
    let r = runner::run(&job, &tools.compile_limits).ok()?;
    if r.termination != Termination::Exited(0) {
        return None;
    }
    let text = std::fs::read_to_string(&ir).ok()?;
    let _ = std::fs::remove_file(&ir);
    let module = phicc::ir::text::parse_module(&text).ok()?;
    Some(
        !module.toplevel_asm.is_empty()
            || module.functions.iter().any(|f| {
                f.blocks.iter().any(|b| {
                    b.instructions
                        .iter()
                        .any(|i| matches!(i, phicc::ir::instruction::Instruction::InlineAsm(_)))
                })
            }),
    )
}

/// Whether `phicc -S` fails (crash or rejection) with only the first `k` passes.
fn compile_fails(
    tools: &Toolchain,
    target: Target,
    config: Config,
    k: usize,
    source: &Path,
    work: &Path,
) -> Option<bool> {
    let out = work.join(format!("probe-{k}.s"));
    let args = tools.phicc_args(target, config, "-S", source, &out);
    let r = runner::run(&probe_job(tools, config, k).args(&args), &tools.compile_limits).ok()?;
    Some(r.termination != Termination::Exited(0))
}

/// `phicc --emit-ir` for `target` with the program's include directories
/// (the source and `-o` to add).
fn emit_ir_job(tools: &Toolchain, target: Target) -> Job {
    let mut job = Job::new(&tools.phicc)
        .arg("--emit-ir")
        .arg(format!("--target={target}"))
        .arg("-w");
    for d in &tools.include_dirs {
        job = job.arg(format!("-I{}", d.display()));
    }
    job
}

/// Whether lowering alone (`--emit-ir`) fails the way the finding did: a
/// crash for a crash, a diagnostic for a rejection.
fn emit_ir_fails(tools: &Toolchain, target: Target, source: &Path, class: Class) -> Option<bool> {
    let r = runner::run(&emit_ir_job(tools, target).arg(source), &tools.compile_limits).ok()?;
    let crashed = !matches!(r.termination, Termination::Exited(s) if s != exit::ICE);
    let diagnosed = String::from_utf8_lossy(&r.stderr.bytes).contains("error:");
    Some(match class {
        Class::CompilerCrash => crashed,
        _ => !crashed && diagnosed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Localization names every pass of a configuration, copyprop included,
    /// from phicc's pass table, and knows every configuration of the table.
    #[test]
    fn stages_are_the_pass_table() {
        for c in Configuration::ALL {
            let config: Config = c.name().parse().expect("the oracle compares every configuration");
            assert_eq!(passes_of(config), c.passes());
        }
        let stages = stages_of(Config::Mem2reg);
        println!("localize stages of mem2reg: {stages:?}");
        for &pass in Configuration::Mem2reg.passes() {
            assert!(stages.contains(&pass.name()), "{pass} missing from {stages:?}");
        }
        assert!(stages.contains(&"copyprop"), "{stages:?}");
        assert_eq!(stages.first(), Some(&"frontend"));
        assert_eq!(stages.last(), Some(&"backend"));
        let passes = passes_of(Config::Mem2reg);
        for (k, stage) in stages.iter().enumerate().take(passes.len() + 1) {
            assert_eq!(stage_of_prefix(passes, k), *stage);
        }
        assert_eq!(stages_of(Config::Nomem2reg), ["frontend", "backend"]);
        // `opt` is the table's row, not the default's: its stages name sccp and dce.
        assert_eq!(
            stages_of(Config::Opt),
            [
                "frontend",
                "mem2reg",
                "inline",
                "mem2reg-params",
                "sccp",
                "simplifycfg",
                "gvn",
                "licm",
                "copyprop",
                "dce",
                "phi-elim",
                "backend"
            ]
        );
        for c in [Config::Nomem2reg, Config::Mem2reg, Config::Opt] {
            assert!(
                Configuration::from_name(c.name()).is_some(),
                "{c} is not a row of the table"
            );
        }
    }
}
