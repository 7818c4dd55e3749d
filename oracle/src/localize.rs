//! Finds the first diverging stage of a C finding, for bucketing: frontend,
//! mem2reg (mem2reg, mem2reg-params, copy propagation), phi-elim or backend.
//!
//! The program is re-run through phicc with the passes of the mem2reg
//! pipeline switched on one at a time (`PHICC_DISABLE_PASSES` disables the
//! rest): for a mismatch, `--run-ir` interprets the IR after that prefix and
//! its output is compared with a baseline; for a crash or a rejection, `-S`
//! is repeated to see which prefix first fails. The first prefix that shows
//! the failure names the stage; none showing it means the backend. A probe
//! phicc cannot run (no `--run-ir`, a diagnostic) gives `unknown`.
//!
//! The baseline of a mismatch is the reference's output when the lowered IR,
//! interpreted with no pass, reproduces it. Otherwise (the interpreter runs
//! inline asm as a schedule-driven black box, docs/ir.md, so a program with
//! asm rarely prints what the hardware prints) the baseline is that
//! pass-free interpretation itself, under several asm schedules: a pass
//! that changes it under any of them changed the program's meaning. A `nomem2reg` cell has no pass to blame, so its
//! interpretation differing from the reference means the frontend.

use crate::differential::{Class, Execution};
use crate::runner::{self, Job, Limits, Termination};
use crate::target::{Config, Target};
use crate::toolchain::Toolchain;
use phicc::exit;
use std::path::Path;

/// The mem2reg pipeline's passes, in order, as phicc names them.
pub const PIPELINE: [&str; 4] = ["mem2reg", "mem2reg-params", "copyprop", "phi-elim"];

/// The inline-asm schedules a program with asm is interpreted under.
const ASM_SCHEDULES: [u64; 4] = [0, 1, 2, 3];

/// The stage a prefix of `k` passes ends in, when it is the first to fail.
fn stage_of_prefix(k: usize) -> &'static str {
    match k {
        0 => "frontend",
        1..=3 => "mem2reg",
        _ => "phi-elim",
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
    let max_prefix = if config == Config::Nomem2reg { 0 } else { PIPELINE.len() };
    if matches!(class, Class::Mismatch | Class::Timeout) {
        let Some(exp) = expected else {
            return "unknown".into();
        };
        let expected = (exp.stdout_hash.clone(), exp.termination.clone());
        let Some(unoptimized) = run_ir(tools, target, 0, 0, source) else {
            return "unknown".into();
        };
        let (schedules, baselines): (&[u64], Vec<Outcome>) = if same_outcome(&unoptimized, &expected) {
            (&[0], vec![expected])
        } else if max_prefix == 0 {
            return "frontend".into();
        } else {
            // The interpreter's asm schedule stands in for the hardware: a
            // wrong pass may show under some schedules only.
            let mut baselines = vec![unoptimized];
            for &s in &ASM_SCHEDULES[1..] {
                match run_ir(tools, target, 0, s, source) {
                    Some(o) => baselines.push(o),
                    None => return "unknown".into(),
                }
            }
            (&ASM_SCHEDULES, baselines)
        };
        for k in 1..=max_prefix {
            for (&s, baseline) in schedules.iter().zip(&baselines) {
                match run_ir(tools, target, k, s, source) {
                    None => return "unknown".into(),
                    Some(o) if !same_outcome(&o, baseline) => return stage_of_prefix(k).into(),
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
            Some(true) => return stage_of_prefix(k).into(),
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

fn probe_job(tools: &Toolchain, k: usize) -> Job {
    let mut job = Job::new(&tools.phicc);
    for (key, v) in &tools.env {
        job = job.env(key, v);
    }
    job.env("PHICC_DISABLE_PASSES", PIPELINE[k..].join(","))
}

fn probe_limits(tools: &Toolchain) -> Limits {
    let mut l = tools.run_limits.clone();
    l.timeout = (l.timeout * 3).max(std::time::Duration::from_secs(30));
    l.cpu_seconds = l.timeout.as_secs() + 1;
    l.address_space = tools.compile_limits.address_space;
    l
}

/// The outcome of interpreting the IR after the first `k` passes under asm
/// schedule `schedule` (`None`: the probe could not run).
fn run_ir(tools: &Toolchain, target: Target, k: usize, schedule: u64, source: &Path) -> Option<Outcome> {
    let mut job = probe_job(tools, k)
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
    let r = runner::run(&probe_job(tools, k).args(&args), &tools.compile_limits).ok()?;
    Some(r.termination != Termination::Exited(0))
}

/// Whether lowering alone (`--emit-ir`) fails the way the finding did: a
/// crash for a crash, a diagnostic for a rejection.
fn emit_ir_fails(tools: &Toolchain, target: Target, source: &Path, class: Class) -> Option<bool> {
    let mut job = Job::new(&tools.phicc)
        .arg("--emit-ir")
        .arg(format!("--target={target}"))
        .arg("-w");
    for d in &tools.include_dirs {
        job = job.arg(format!("-I{}", d.display()));
    }
    let r = runner::run(&job.arg(source), &tools.compile_limits).ok()?;
    let crashed = !matches!(r.termination, Termination::Exited(s) if s != exit::ICE);
    let diagnosed = String::from_utf8_lossy(&r.stderr.bytes).contains("error:");
    Some(match class {
        Class::CompilerCrash => crashed,
        _ => !crashed && diagnosed,
    })
}
