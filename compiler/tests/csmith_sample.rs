//! A CI-sized sample of the Csmith check (`oracle csmith-run-ir` runs
//! seeds 1..300): for a few seeds, the program Csmith generates is compiled
//! by gcc -O0 (the reference checksum) and, in process, lowered for every
//! target (verified) and interpreted for x86-64 with and without the mem2reg
//! pipeline (verifier after each pass); the outputs must equal gcc's.
//! Skipped, with a message, when csmith is not installed
//! (`scripts/setup.sh --campaign` installs it).

use phicc::driver::{compile_to_ir, pipeline_for, FrontendOptions};
use phicc::ir::interp::{run, RunConfig, RunResult};
use phicc::target::Target;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/run_target.rs"]
mod run_target;
#[path = "support/skip.rs"]
mod skip;

/// Seeds checked in CI (the script covers 1..300).
const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;
/// Interpreter fuel per run; a run that needs more is skipped (not failed).
const FUEL: u64 = 300_000_000;

fn csmith_available() -> bool {
    Command::new("csmith").arg("--version").output().is_ok() && Path::new("/usr/include/csmith/csmith.h").exists()
}

/// Runs the host binary `exe` for at most `secs` seconds; `None` when it
/// did not finish (timeout or CPU limit).
fn run_with_timeout(exe: &Path, secs: u32) -> Option<run_target::Ran> {
    let host = Target::host()?;
    let ran = run_target::run_binary(host, exe, secs).ok()?;
    matches!(
        ran.termination,
        phicc_runner::Termination::Exited(_) | phicc_runner::Termination::Signaled(_)
    )
    .then_some(ran)
}

#[test]
fn csmith_sample_matches_gcc() {
    if !csmith_available() {
        skip::skip("csmith sample", "csmith missing (scripts/setup.sh --campaign)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let (mut agreed, mut skipped) = (0, 0);
    for seed in SEEDS {
        let c: PathBuf = dir.path().join(format!("s{seed}.c"));
        let gen = Command::new("csmith")
            .args(["--seed", &seed.to_string()])
            .output()
            .unwrap();
        std::fs::write(&c, &gen.stdout).unwrap();
        let exe = dir.path().join(format!("s{seed}"));
        let gcc = Command::new("gcc")
            .args(["-O0", "-w", "-I/usr/include/csmith", "-o"])
            .arg(&exe)
            .arg(&c)
            .output()
            .unwrap();
        assert!(gcc.status.success(), "gcc failed on seed {seed}");
        // The script allows 10 s; here a program that long is skipped sooner.
        let Some(reference) = run_with_timeout(&exe, 3) else {
            skipped += 1;
            continue;
        };
        let want = String::from_utf8_lossy(&reference.stdout).into_owned();
        let mut ok = true;
        for target in Target::ALL {
            let mut opts = FrontendOptions::new(target);
            opts.include_dirs.push("/usr/include/csmith".into());
            let module = match compile_to_ir(&c, &opts) {
                Ok(m) => m.module,
                Err(e) => {
                    failures.push(format!("seed {seed} [{}]: {e}", target.name()));
                    ok = false;
                    break;
                }
            };
            if target != Target::X86_64 {
                continue;
            }
            for mem2reg in [false, true] {
                let mut m = module.clone();
                let mut p = pipeline_for(mem2reg, &[]).unwrap();
                p.verify_each = true;
                if let Err(e) = p.run(&mut m, &mut |_, _| {}) {
                    failures.push(format!("seed {seed}: pipeline: {e}"));
                    ok = false;
                    continue;
                }
                let o = run(
                    &m,
                    &RunConfig {
                        fuel: FUEL,
                        ..RunConfig::default()
                    },
                );
                let got = String::from_utf8_lossy(&o.stdout).into_owned();
                match o.result {
                    RunResult::OutOfFuel => {
                        skipped += 1;
                        ok = false;
                    }
                    RunResult::Returned(Some(0)) if got == want => {}
                    r => {
                        failures.push(format!(
                            "seed {seed} ({}): {r}: gcc `{}`, phicc `{}`",
                            if mem2reg { "mem2reg" } else { "nomem2reg" },
                            want.trim(),
                            got.trim()
                        ));
                        ok = false;
                    }
                }
            }
        }
        agreed += ok as usize;
    }
    eprintln!(
        "csmith sample: {agreed} agree, {skipped} skipped, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
