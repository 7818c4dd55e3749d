//! `oracle coverage`: line, region and branch coverage of
//! `compiler/src/passes/mem2reg/` reached by N cgen programs next to N
//! Csmith programs (issue 9).
//!
//! Builds the `mem2reg_coverage` example (`oracle/examples/`) with
//! `-C instrument-coverage -Z coverage-options=branch` (the nightly
//! toolchain) into `target/coverage`, runs it once per generator with
//! `LLVM_PROFILE_FILE` set, merges the profiles with `llvm-profdata` and
//! prints `llvm-cov report`'s summary of the mem2reg files for each. Needs
//! the nightly toolchain with `llvm-tools` (`rustup component add
//! llvm-tools --toolchain nightly`) and Csmith.

use crate::runner::{self, Job, Limits, Termination};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Programs per generator: seeds 1..COUNT.
    #[arg(default_value_t = 500)]
    pub count: u64,
    /// Generators, comma-separated (cgen, csmith).
    #[arg(long, value_delimiter = ',', default_values_t = ["cgen".to_string(), "csmith".to_string()])]
    pub generators: Vec<String>,
    /// The toolchain that builds the instrumented example.
    #[arg(long, default_value = "nightly")]
    pub toolchain: String,
}

/// The workspace this oracle was built from.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Run a tool to its end (no practical time limit), failing with its
/// stderr; returns its stdout and stderr.
fn tool(job: Job, what: &str) -> anyhow::Result<(String, String)> {
    let limits = Limits {
        address_space: None,
        output_cap: 16 << 20,
        ..Limits::with_timeout(Duration::from_secs(4 * 3600))
    };
    let r = runner::run(&job, &limits)?;
    anyhow::ensure!(
        r.termination == Termination::Exited(0),
        "{what}: {}: {}",
        r.termination.describe(),
        String::from_utf8_lossy(&r.stderr.bytes)
    );
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    Ok((text(&r.stdout.bytes), text(&r.stderr.bytes)))
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let root = std::fs::canonicalize(workspace())?;
    let toolchain = format!("+{}", a.toolchain);
    let (sysroot, _) = tool(
        Job::new("rustc").args([toolchain.as_str(), "--print", "sysroot"]),
        "rustc --print sysroot",
    )?;
    let rustlib = Path::new(sysroot.trim()).join("lib/rustlib");
    let bin = std::fs::read_dir(&rustlib)?
        .flatten()
        .map(|e| e.path().join("bin"))
        .find(|b| b.join("llvm-profdata").exists())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "no llvm-profdata under {}: rustup component add llvm-tools --toolchain {}",
                rustlib.display(),
                a.toolchain
            )
        })?;
    let target_dir = root.join("target/coverage");
    eprintln!(
        "coverage: building the instrumented mem2reg_coverage example in {}",
        target_dir.display()
    );
    tool(
        Job::new("cargo")
            .args([
                toolchain.as_str(),
                "build",
                "-q",
                "--release",
                "-p",
                "oracle",
                "--example",
                "mem2reg_coverage",
            ])
            .env("CARGO_TARGET_DIR", &target_dir)
            .env("RUSTFLAGS", "-C instrument-coverage -Z coverage-options=branch")
            .cwd(&root),
        "cargo build (coverage)",
    )?;
    let exe = target_dir.join("release/examples/mem2reg_coverage");
    let work = tempfile::tempdir()?;
    for generator in &a.generators {
        let profraw = work.path().join(format!("{generator}-%p.profraw"));
        let (_, lowered) = tool(
            Job::new(&exe)
                .args([generator.clone(), a.count.to_string()])
                .env("LLVM_PROFILE_FILE", &profraw),
            "mem2reg_coverage",
        )?;
        let raws: Vec<PathBuf> = std::fs::read_dir(work.path())?
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(&format!("{generator}-")))
                    && p.extension().is_some_and(|e| e == "profraw")
            })
            .collect();
        let profdata = work.path().join(format!("{generator}.profdata"));
        tool(
            Job::new(bin.join("llvm-profdata"))
                .args(["merge", "-sparse"])
                .args(&raws)
                .arg("-o")
                .arg(&profdata),
            "llvm-profdata merge",
        )?;
        let (report, _) = tool(
            Job::new(bin.join("llvm-cov"))
                .arg("report")
                .arg(&exe)
                .arg(format!("-instr-profile={}", profdata.display()))
                .arg("--show-branch-summary")
                .arg(root.join("compiler/src/passes/mem2reg/")),
            "llvm-cov report",
        )?;
        println!("== {generator}: {} programs ({})", a.count, lowered.trim());
        print!("{}", report.replace(&format!("{}/", root.display()), ""));
    }
    Ok(ExitCode::SUCCESS)
}
