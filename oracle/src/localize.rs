//! Finds the first diverging stage of a C finding, for bucketing: frontend,
//! mem2reg (mem2reg, mem2reg-params, copy propagation), phi-elim or backend.
//!
//! The program is re-run through phicc with the passes of the mem2reg
//! pipeline switched on one at a time (`PHICC_DISABLE_PASSES` disables the
//! rest): for a mismatch, `--run-ir` interprets the IR after that prefix and
//! its output is compared with the reference's; for a crash or a rejection,
//! `-S` is repeated to see which prefix first fails. The first prefix that
//! shows the failure names the stage; none showing it means the backend.
//! A probe phicc cannot run (no `--run-ir`, a diagnostic) gives `unknown`.

use crate::differential::{Class, Execution};
use crate::runner::{self, Job, Limits, Termination};
use crate::target::{Config, Target};
use crate::toolchain::{Toolchain, ICE_STATUS};
use std::path::Path;

/// The mem2reg pipeline's passes, in order, as phicc names them.
pub const PIPELINE: [&str; 4] = ["mem2reg", "mem2reg-params", "copyprop", "phi-elim"];

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
    for k in 0..=max_prefix {
        let shows = match class {
            Class::Mismatch | Class::Timeout => match expected {
                Some(exp) => run_ir_differs(tools, target, k, source, exp),
                None => None,
            },
            _ => compile_fails(tools, target, config, k, source, work),
        };
        match shows {
            None => return "unknown".into(),
            Some(true) if k == 0 && !matches!(class, Class::Mismatch | Class::Timeout) => {
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

/// Whether interpreting the IR after the first `k` passes differs from the
/// reference (`None`: the probe could not run).
fn run_ir_differs(tools: &Toolchain, target: Target, k: usize, source: &Path, expected: &Execution) -> Option<bool> {
    let mut job = probe_job(tools, k)
        .arg("--run-ir")
        .arg(format!("--target={target}"))
        .arg("-w");
    for d in &tools.include_dirs {
        job = job.arg(format!("-I{}", d.display()));
    }
    let r = runner::run(&job.arg(source), &probe_limits(tools)).ok()?;
    let stderr = String::from_utf8_lossy(&r.stderr.bytes);
    match r.termination {
        Termination::Exited(ICE_STATUS) => None,
        // A diagnostic or a driver without --run-ir: the probe says nothing.
        Termination::Exited(s) if s != 0 && (stderr.contains("error") || stderr.contains("phicc")) => None,
        Termination::Exited(_) => {
            let got = crate::util::content_hash(&r.stdout.bytes);
            Some(got != expected.stdout_hash || r.termination != expected.termination)
        }
        Termination::Timeout | Termination::ResourceLimit(_) => {
            Some(!matches!(expected.termination, Termination::Timeout))
        }
        Termination::Signaled(_) => None,
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
    let crashed = !matches!(r.termination, Termination::Exited(s) if s != ICE_STATUS);
    let diagnosed = String::from_utf8_lossy(&r.stderr.bytes).contains("error:");
    Some(match class {
        Class::CompilerCrash => crashed,
        _ => !crashed && diagnosed,
    })
}
