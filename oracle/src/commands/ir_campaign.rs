//! `oracle ir-campaign`: generated IR programs checked in process (mem2reg,
//! copy propagation and phi elimination must preserve their meaning in the
//! interpreter); the work is in [`crate::ircampaign`].
//! Exit status: 0 nothing found, 1 findings, 2 tool error.

use crate::ircampaign::{self, Campaign};
use crate::irgen::GenMode;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Campaign seed: input i is derived from (seed, i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of inputs.
    #[arg(long, default_value_t = 10_000)]
    pub count: u64,
    /// Generator: alloca-form programs through the whole pipeline, or SSA-form through phi-elim.
    #[arg(long, value_enum, default_value_t = GenMode::Alloca)]
    pub mode: GenMode,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Directory for finding files (one `.ir` per finding, with its replay command).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Interpreter fuel per run.
    #[arg(long, default_value_t = 200_000)]
    pub fuel: u64,
    /// Inline-asm schedules each program is run under.
    #[arg(long, value_delimiter = ',', default_value = "0,1")]
    pub schedules: Vec<u64>,
    /// Call only `main`, not every function with many inputs (issue 17 item 5).
    #[arg(long)]
    pub main_only: bool,
    /// Try every input of a function whose parameters fit in this many bits
    /// in total (0: never; docs/results.md has the cost).
    #[arg(long, default_value_t = crate::inputs::Inputs::CAMPAIGN.exhaustive_bits)]
    pub exhaustive_bits: u32,
    /// Random argument vectors per function (besides the boundary values).
    #[arg(long, default_value_t = crate::inputs::Inputs::CAMPAIGN.random)]
    pub random_inputs: usize,
    /// At most this many argument vectors per function not tried on every
    /// input (0: no cap).
    #[arg(long, default_value_t = crate::inputs::Inputs::CAMPAIGN.max_vectors)]
    pub max_vectors: usize,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let c = Campaign {
        seed: args.seed,
        count: args.count,
        mode: args.mode,
        jobs: super::jobs_or_every_core(args.jobs),
        out: args.out,
        progress: !args.quiet,
        fuel: args.fuel,
        schedules: args.schedules,
        max_findings: None,
        inputs: if args.main_only {
            crate::inputs::Inputs::OFF
        } else {
            crate::inputs::Inputs {
                exhaustive_bits: args.exhaustive_bits,
                random: args.random_inputs,
                max_vectors: args.max_vectors,
                ..crate::inputs::Inputs::CAMPAIGN
            }
        },
    };
    let summary = ircampaign::run(&c)?;
    print!("{}", summary.render());
    Ok(if summary.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
