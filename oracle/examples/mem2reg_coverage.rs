//! Drives mem2reg and phi elimination over generated programs so that a
//! coverage build (`-C instrument-coverage`) can measure how much of
//! `compiler/src/passes/mem2reg/` they reach: each program is lowered by
//! phicc's frontend for x86-64 and run through every pass of the checked
//! configuration of phicc's pass table (no interpretation). Built with
//! coverage instrumentation and run by `oracle coverage`.
//!
//! Usage: mem2reg_coverage cgen|csmith COUNT

use oracle::ccheck::lower_c_with_includes;
use oracle::cgen::{generate, CgenConfig, Emphasis};
use oracle::ircheck::{apply, CheckMode};
use phicc::target::Target;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let mut args = std::env::args().skip(1);
    let generator = args.next().unwrap_or_else(|| "cgen".into());
    let count: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(500);
    let inc = [PathBuf::from("/usr/include/csmith")];
    let (mut lowered, mut failed) = (0, 0);
    for seed in 1..=count {
        let src = match generator.as_str() {
            "cgen" => {
                let e = Emphasis::ALL[(seed % Emphasis::ALL.len() as u64) as usize];
                generate(seed, &CgenConfig::preset(e))
            }
            "csmith" => match Command::new("csmith").args(["--seed", &seed.to_string()]).output() {
                Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
                _ => {
                    failed += 1;
                    continue;
                }
            },
            other => panic!("unknown generator {other} (cgen or csmith)"),
        };
        let Ok(mut m) = lower_c_with_includes(&src, Target::X86_64, &inc) else {
            failed += 1;
            continue;
        };
        for stage in CheckMode::Pipeline.stages() {
            apply(&mut m, stage);
        }
        lowered += 1;
    }
    eprintln!("{generator}: {lowered} programs through the pipeline, {failed} not lowered");
}
