//! `oracle campaign`: arguments and entry point (the work is in
//! [`crate::campaign`]). Exit status: 0 the campaign directory holds no
//! finding, 1 it holds findings, 2 a tool error.

use super::DiffArgs;
use crate::campaign::{self, Budget, Campaign, CampaignSpec};
use crate::cgen::Emphasis;
use crate::differential::ReferenceMode;
use crate::generator::{Generator, GeneratorKind};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Program source.
    #[arg(long, value_enum, default_value_t = GeneratorKind::Csmith)]
    pub generator: GeneratorKind,
    /// What `--generator cgen` programs concentrate on.
    #[arg(long, value_enum, default_value_t = Emphasis::Default)]
    pub emphasis: Emphasis,
    /// Campaign seed: program i is a function of (seed, i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Programs 0..N of the (unsharded) campaign.
    #[arg(long)]
    pub count: Option<u64>,
    /// Stop after this many minutes (with --count: whichever comes first).
    #[arg(long)]
    pub minutes: Option<f64>,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Run only shard K of N (1-based): the indices i with i % N == K - 1.
    #[arg(long, value_parser = parse_shard, default_value = "1/1")]
    pub shard: (u64, u64),
    /// Campaign directory (findings, journals, summary.md, report.html); a
    /// directory holding the same campaign is resumed.
    #[arg(long, default_value = "findings")]
    pub out: PathBuf,
    #[command(flatten)]
    pub diff: DiffArgs,
    /// Csmith options replacing the default set (one string, split on spaces).
    #[arg(long, allow_hyphen_values = true)]
    pub csmith_args: Option<String>,
    /// Do not re-run findings to find the first diverging stage.
    #[arg(long)]
    pub no_localize: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or("expected K/N")?;
    let k: u64 = k.parse().map_err(|_| "K is not a number")?;
    let n: u64 = n.parse().map_err(|_| "N is not a number")?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("{s}: expected 1 <= K <= N"));
    }
    Ok((k, n))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut generator = Generator::new(args.generator);
    generator.emphasis = args.emphasis;
    if let Some(a) = &args.csmith_args {
        generator.csmith.args = a.split_whitespace().map(String::from).collect();
    }
    let mut diff = args.diff.clone();
    diff.include_dirs.extend(generator.include_dirs());
    let mut tools = diff.toolchain();
    if args.generator != GeneratorKind::Irgen {
        tools.phicc = resolve(&tools.phicc);
    }
    // Csmith and cgen programs print the same on every target (cgen's
    // per-target asm templates compute the same values, see oracle::cgen),
    // so one host reference serves all targets: a per-target reference
    // cost cgen campaigns 14% more time for the same outcomes.
    let spec_diff = diff.spec(ReferenceMode::Host);
    let spec = CampaignSpec {
        generator: args.generator,
        emphasis: (args.generator == GeneratorKind::Cgen).then(|| args.emphasis.name().to_string()),
        seed: args.seed,
        shard: args.shard,
        targets: spec_diff.targets,
        configs: spec_diff.configs,
        reference: spec_diff.reference,
        compiler: tools.phicc.clone(),
        inject_bug: diff.inject_bug.clone(),
    };
    let c = Campaign {
        spec,
        generator,
        tools,
        budget: Budget {
            count: args.count,
            time: args.minutes.map(|m| Duration::from_secs_f64(m * 60.0)),
        },
        jobs: super::jobs_or_every_core(args.jobs),
        out: args.out.clone(),
        progress: !args.quiet,
        localize: !args.no_localize,
    };
    let stats = campaign::run(&c)?;
    let summary = std::fs::read_to_string(args.out.join("summary.md")).unwrap_or_default();
    print!("{summary}");
    let per_minute = if stats.seconds > 0.0 {
        stats.programs as f64 * 60.0 / stats.seconds
    } else {
        0.0
    };
    // The machine's load says how far the rate is from what the jobs alone would get.
    let load = std::fs::read_to_string("/proc/loadavg")
        .map(|l| {
            format!(
                ", load average {}",
                l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
            )
        })
        .unwrap_or_default();
    println!(
        "\nthis run: {} programs in {:.1}s ({per_minute:.1} per minute with {} jobs{load}; {} already done); reports: {}/summary.md, {}/report.html",
        stats.programs,
        stats.seconds,
        c.jobs,
        stats.skipped_done,
        args.out.display(),
        args.out.display()
    );
    Ok(if stats.findings_total == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// An absolute path for the compiler, so recorded commands work from anywhere.
fn resolve(p: &std::path::Path) -> PathBuf {
    if p.components().count() > 1 {
        return std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    }
    p.to_path_buf()
}
