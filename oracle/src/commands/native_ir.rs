//! `oracle native-ir`: generated (asm-free) IR compiled by one target's
//! backend, run natively or under QEMU, its return value and globals checked
//! against the interpreter, with and without mem2reg; the work is in
//! [`crate::native_ir`]. Exit status: 0 nothing found, 1 findings, 2 tool error.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Campaign seed: input i is derived from (seed, i), as in ir-campaign.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of inputs.
    #[arg(long, default_value_t = 200)]
    pub count: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Directory for finding files.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Interpreter fuel per run.
    #[arg(long, default_value_t = 5_000_000)]
    pub fuel: u64,
    /// The backend checked: x86_64, aarch64 or riscv64 (foreign ones run under QEMU).
    #[arg(long, default_value = "x86_64")]
    pub target: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let target: phicc::target::Target = args.target.parse().map_err(anyhow::Error::msg)?;
    let summary = crate::native_ir::run_campaign_on(
        target,
        args.seed,
        args.count,
        super::jobs_or_every_core(args.jobs),
        args.fuel,
        args.out.as_deref(),
    )?;
    print!("{}", summary.render());
    Ok(if summary.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
