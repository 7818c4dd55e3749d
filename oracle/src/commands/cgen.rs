//! `oracle cgen`: print one generated C program (see [`crate::cgen`]).

use crate::cgen::Emphasis;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The program's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// What the program concentrates on.
    #[arg(long, value_enum, default_value_t = Emphasis::Default)]
    pub emphasis: Emphasis,
    /// Write the program here instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cgen::run_cli(args.seed, args.emphasis, args.output.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
