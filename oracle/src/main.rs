//! The `oracle` command line: one subcommand per variant; the C-level
//! commands live in `oracle::commands`, the IR tools below.

use anyhow::Context;
use clap::{Parser, Subcommand};
use oracle::commands;
use oracle::ircampaign::{self, Campaign};
use oracle::ircheck::{CheckConfig, CheckMode};
use oracle::irgen::GenMode;
use oracle::reduce_ir::{body_instruction_count, Reducer};
use phicc::ir::text::{parse_module, print_module};
use std::path::PathBuf;
use std::process::ExitCode;

/// Differential testing and fuzzing harness for phicc's mem2reg and phi elimination.
#[derive(Parser)]
#[command(version, about, args_override_self = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile one C program in every configuration for every target, run the
    /// binaries and compare them with the reference (gcc -O0).
    /// Exit status: 0 all agree, 1 a finding, 2 tool error.
    Diff(commands::diff::Args),
    /// A differential campaign over generated programs (Csmith, cgen or IR),
    /// with findings written to --out as they appear.
    /// Exit status: 0 nothing found, 1 findings, 2 tool error.
    Campaign(commands::campaign::Args),
    /// Minimize a finding of `oracle campaign` (cvise for C, reduce-ir for IR).
    Reduce(commands::reduce::Args),
    /// Merge the output directories of campaign shards, deduplicating findings.
    Merge(commands::merge::Args),
    /// Generate IR programs from seeded random bytes and check that mem2reg,
    /// copy propagation and phi elimination preserve their meaning.
    /// Exit status: 0 nothing found, 1 findings, 2 tool error.
    IrCampaign {
        /// Campaign seed: input i is derived from (seed, i).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of inputs.
        #[arg(long, default_value_t = 10_000)]
        count: u64,
        /// Generator: alloca-form programs through the whole pipeline, or SSA-form through phi-elim.
        #[arg(long, value_enum, default_value_t = GenMode::Alloca)]
        mode: GenMode,
        /// Worker threads (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Directory for finding files (one `.ir` per finding, with its replay command).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Interpreter fuel per run.
        #[arg(long, default_value_t = 200_000)]
        fuel: u64,
        /// Inline-asm schedules each program is run under.
        #[arg(long, value_delimiter = ',', default_value = "0,1")]
        schedules: Vec<u64>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Compile generated (asm-free) IR with a target's backend (--target, default
    /// x86_64), run it natively or under QEMU and check its return value and
    /// globals against the interpreter, with and without mem2reg. Exit status:
    /// 0 nothing found, 1 findings, 2 tool error.
    NativeIr {
        /// Campaign seed: input i is derived from (seed, i), as in ir-campaign.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of inputs.
        #[arg(long, default_value_t = 200)]
        count: u64,
        /// Worker threads (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Directory for finding files.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Interpreter fuel per run.
        #[arg(long, default_value_t = 5_000_000)]
        fuel: u64,
        /// The backend checked: x86_64, aarch64 or riscv64 (foreign ones run under QEMU).
        #[arg(long, default_value = "x86_64")]
        target: String,
    },
    /// Print one generated C program (see `oracle::cgen`).
    Cgen {
        /// The program's seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// What the program concentrates on.
        #[arg(long, value_enum, default_value_t = oracle::cgen::Emphasis::Default)]
        emphasis: oracle::cgen::Emphasis,
        /// Write the program here instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Reduce a failing IR file to a small module that fails the same way.
    /// Prints the reduced IR (or writes it with -o) and the command that shows the failure.
    ReduceIr {
        /// The failing `.ir` file (e.g. a finding of ir-campaign).
        file: PathBuf,
        /// Where to write the reduced IR (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The finding came from SSA-form input: check phi elimination only.
        #[arg(long)]
        ssa: bool,
        /// Interpreter fuel per run.
        #[arg(long, default_value_t = 200_000)]
        fuel: u64,
        /// Inline-asm schedules each candidate is run under.
        #[arg(long, value_delimiter = ',', default_value = "0,1")]
        schedules: Vec<u64>,
        /// Maximum number of candidates to check.
        #[arg(long, default_value_t = 20_000)]
        budget: usize,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("oracle: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Diff(args) => commands::diff::run(args),
        Command::Campaign(args) => commands::campaign::run(args),
        Command::Reduce(args) => commands::reduce::run(args),
        Command::Merge(args) => commands::merge::run(args),
        Command::IrCampaign {
            seed,
            count,
            mode,
            jobs,
            out,
            fuel,
            schedules,
            quiet,
        } => {
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
            let c = Campaign {
                seed,
                count,
                mode,
                jobs,
                out,
                progress: !quiet,
                fuel,
                schedules,
                max_findings: None,
            };
            let summary = ircampaign::run(&c)?;
            print!("{}", summary.render());
            Ok(if summary.findings.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::NativeIr {
            seed,
            count,
            jobs,
            out,
            fuel,
            target,
        } => {
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
            let target = phicc::frontend::target::Target::from_name(&target)
                .ok_or_else(|| anyhow::anyhow!("unknown target '{target}' (x86_64, aarch64, riscv64)"))?;
            let summary = oracle::native_ir::run_campaign_on(target, seed, count, jobs, fuel, out.as_deref())?;
            print!("{}", summary.render());
            Ok(if summary.findings.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Cgen { seed, emphasis, output } => {
            oracle::cgen::run_cli(seed, emphasis, output.as_deref())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::ReduceIr {
            file,
            output,
            ssa,
            fuel,
            schedules,
            budget,
        } => {
            let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let module = parse_module(&text).map_err(|e| anyhow::anyhow!("{}:{e}", file.display()))?;
            let mode = if ssa {
                CheckMode::PhiElimOnly
            } else {
                CheckMode::Pipeline
            };
            let mut reducer = Reducer::new(CheckConfig {
                mode,
                schedules: schedules.clone(),
                fuel,
            });
            reducer.budget = budget;
            let Some((reduced, signature)) = reducer.reduce(&module) else {
                anyhow::bail!("{} does not fail the check; nothing to reduce", file.display());
            };
            let gen_mode = if ssa { GenMode::Ssa } else { GenMode::Alloca };
            let shown = output.clone().unwrap_or_else(|| PathBuf::from("REDUCED.ir"));
            let replay = ircampaign::replay_command(gen_mode, &schedules, fuel, &shown);
            let body = format!(
                "; reduced by oracle reduce-ir: {signature}\n; replay: {replay}\n{}\n",
                print_module(&reduced).trim_end()
            );
            match &output {
                Some(p) => ircampaign::write_atomic(p, &body)?,
                None => print!("{body}"),
            }
            eprintln!(
                "reduced to {} instructions ({} checks): {signature}\nreplay: {replay}",
                body_instruction_count(&reduced),
                reducer.checks
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
