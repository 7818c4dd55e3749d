//! `oracle diff FILE.c`: the differential oracle on one program, printed as a
//! table (target x configuration: outcome, exit status, output hash, time).
//! Exit status: 0 all agree (or the program was discarded), 1 a finding, 2 a
//! tool error.

use super::DiffArgs;
use crate::differential::{diff_program, ReferenceMode};
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The C program.
    pub file: PathBuf,
    #[command(flatten)]
    pub diff: DiffArgs,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Exit 0 only when the verdict's signature (`class:cells`, e.g.
    /// `mismatch:x86_64/mem2reg`) is exactly this, 1 otherwise: the test of
    /// an interestingness script. Any timeout also fails it, unless the
    /// expected class is `timeout`.
    #[arg(long)]
    pub expect: Option<String>,
    /// Keep the build directory (binaries, assembly) here.
    #[arg(long)]
    pub keep: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tools = args.diff.toolchain();
    let spec = args.diff.spec(ReferenceMode::Host);
    let tmp = tempfile::Builder::new().prefix("oracle-diff-").tempdir()?;
    let work = match &args.keep {
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            dir.clone()
        }
        None => tmp.path().to_path_buf(),
    };
    anyhow::ensure!(args.file.exists(), "{}: no such file", args.file.display());
    let source = std::path::absolute(&args.file)?;
    let report = diff_program(&tools, &spec, &source, &work).context("cannot run a tool")?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else if args.expect.is_none() {
        print!("{}", report.table());
    }
    let ok = match &args.expect {
        // The interestingness test of a reduction: the same finding and no new timeouts.
        Some(sig) => {
            let timeouts = report
                .cells
                .iter()
                .any(|c| c.execution.as_ref().is_some_and(|e| e.timed_out()));
            report.signature() == *sig && (report.class == crate::differential::Class::Timeout || !timeouts)
        }
        None => !report.class.is_finding(),
    };
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
