//! `oracle reduce-ir FILE`: shrink a failing IR module (a finding of
//! ir-campaign) to a small one that fails the same way, with
//! [`crate::reduce_ir::Reducer`]; prints the reduced IR (or writes it with
//! `-o`) and the command that shows the failure.

use crate::ircampaign;
use crate::ircheck::{CheckConfig, CheckMode};
use crate::irgen::GenMode;
use crate::reduce_ir::{body_instruction_count, Reducer};
use anyhow::Context;
use phicc::ir::text::{parse_module, print_module};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The failing `.ir` file (e.g. a finding of ir-campaign).
    pub file: PathBuf,
    /// Where to write the reduced IR (default: standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The finding came from SSA-form input: check phi elimination only.
    #[arg(long)]
    pub ssa: bool,
    /// Interpreter fuel per run.
    #[arg(long, default_value_t = 200_000)]
    pub fuel: u64,
    /// Inline-asm schedules each candidate is run under.
    #[arg(long, value_delimiter = ',', default_value = "0,1")]
    pub schedules: Vec<u64>,
    /// The finding came from a call of a function besides `main` (ir-campaign's
    /// many inputs per function): call every function, as the campaign does.
    #[arg(long)]
    pub every_function: bool,
    /// With `--every-function`: the seed of the random argument vectors (the
    /// `inputs seed` a finding file's header names).
    #[arg(long, default_value_t = 0)]
    pub inputs_seed: u64,
    /// Maximum number of candidates to check.
    #[arg(long, default_value_t = 20_000)]
    pub budget: usize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let file = &args.file;
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let module = parse_module(&text).map_err(|e| anyhow::anyhow!("{}:{e}", file.display()))?;
    let mode = if args.ssa {
        CheckMode::PhiElimOnly
    } else {
        CheckMode::Pipeline
    };
    let cfg = CheckConfig {
        mode,
        schedules: args.schedules.clone(),
        fuel: args.fuel,
        inputs: if args.every_function {
            crate::inputs::Inputs {
                seed: args.inputs_seed,
                ..crate::inputs::Inputs::CAMPAIGN
            }
        } else {
            crate::inputs::Inputs::OFF
        },
    };
    let mut reducer = Reducer::new(cfg.clone());
    reducer.budget = args.budget;
    let Some((reduced, signature)) = reducer.reduce(&module) else {
        anyhow::bail!("{} does not fail the check; nothing to reduce", file.display());
    };
    let gen_mode = if args.ssa { GenMode::Ssa } else { GenMode::Alloca };
    let shown = args.output.clone().unwrap_or_else(|| PathBuf::from("REDUCED.ir"));
    // A failing call of a function besides `main` is replayed with its arguments.
    let call = crate::ircheck::check_module(&reduced, &cfg)
        .failure
        .and_then(|f| f.call().map(|c| c.phiopt_flags()))
        .unwrap_or_default();
    let replay = ircampaign::replay_command(gen_mode, &args.schedules, args.fuel, &shown) + &call;
    let body = format!(
        "; reduced by oracle reduce-ir: {signature}\n; replay: {replay}\n{}\n",
        print_module(&reduced).trim_end()
    );
    match &args.output {
        Some(p) => crate::util::write_atomic(p, body.as_bytes())?,
        None => print!("{body}"),
    }
    eprintln!(
        "reduced to {} instructions ({} checks): {signature}\nreplay: {replay}",
        body_instruction_count(&reduced),
        reducer.checks
    );
    Ok(ExitCode::SUCCESS)
}
