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
    /// What `--generator cgen` programs concentrate on. Without it, the
    /// program of generator seed s uses preset s % 6 of the emphasis list
    /// (default, lost-copy, asm-goto, switch-cost, computed-goto, params), a
    /// function of (seed, index): every shape, the phi cost limit included,
    /// without flags; the summary counts programs per preset.
    #[arg(long, value_enum)]
    pub emphasis: Option<Emphasis>,
    /// The presets in turn, as without `--emphasis` (kept for old scripts).
    #[arg(long, conflicts_with = "emphasis")]
    pub cycle_emphasis: bool,
    /// Campaign seed: program i is a function of (seed, i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Generator seeds used as they are, program i being the generator's
    /// program for the i-th of them (`csmith --seed N`, `oracle cgen --seed
    /// N`): `1..300` (inclusive, as `seq 1 300`) or `3,17,250`. The count is
    /// their number unless --count is smaller; --seed is then only a label.
    #[arg(long, value_parser = parse_seeds)]
    pub program_seeds: Option<SeedList>,
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
    /// Csmith options (one string, split on spaces; default: Csmith's own
    /// defaults, packed structs included). `--csmith-args "--max-funcs 4
    /// --no-packed-struct"` makes smaller programs, about 2.2 times as many
    /// per minute.
    #[arg(long, allow_hyphen_values = true)]
    pub csmith_args: Option<String>,
    /// Do not re-run findings to find the first diverging stage.
    #[arg(long)]
    pub no_localize: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// First check that the compiler builds a trivial program for every
    /// target (a tool error, exit 2, with its diagnostics when it does not).
    #[arg(long)]
    pub probe: bool,
}

/// phicc compiles and the campaign's linker links `int main(void) { return 0; }` for every target.
pub fn probe(tools: &crate::toolchain::Toolchain, targets: &[crate::target::Target]) -> anyhow::Result<()> {
    let dir = tempfile::Builder::new().prefix("oracle-probe-").tempdir()?;
    let src = dir.path().join("p.c");
    std::fs::write(&src, "int main(void) { return 0; }\n")?;
    for &t in targets {
        let built = tools.compile_configs(t, &[crate::target::Config::Mem2reg], &src, dir.path())?;
        let c = &built[0];
        let step = if c.step.ok() {
            tools.link_compiled(t, c, &dir.path().join(format!("p-{t}")))?
        } else {
            c.step.clone()
        };
        anyhow::ensure!(
            step.ok(),
            "campaign: cannot build a trivial program for {t} ({}): {}\n{}",
            step.outcome.describe(),
            step.command,
            step.stderr
        );
    }
    Ok(())
}

/// A list of generator seeds (`--program-seeds`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedList(pub Vec<u64>);

/// Parse `A..B` (inclusive), `A..=B`, or a comma-separated list of seeds and ranges.
pub fn parse_seeds(s: &str) -> Result<SeedList, String> {
    let mut v = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let num = |x: &str| x.trim().parse::<u64>().map_err(|_| format!("`{x}` is not a seed"));
        match part.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?);
                if a > b {
                    return Err(format!("{part}: empty range"));
                }
                v.extend(a..=b);
            }
            None => v.push(num(part)?),
        }
    }
    if v.is_empty() {
        return Err("no seeds".into());
    }
    Ok(SeedList(v))
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
    let cycle = args.cycle_emphasis || args.emphasis.is_none();
    generator.emphasis = args.emphasis.unwrap_or(Emphasis::Default);
    generator.cycle_emphasis = cycle;
    anyhow::ensure!(
        args.program_seeds.is_none() || args.generator != GeneratorKind::Irgen,
        "--program-seeds takes C generators (csmith, cgen)"
    );
    if let Some(a) = &args.csmith_args {
        generator.csmith.args = a.split_whitespace().map(String::from).collect();
    }
    let mut diff = args.diff.clone();
    diff.include_dirs.extend(generator.include_dirs());
    diff.reference_timeout.get_or_insert(super::CAMPAIGN_REFERENCE_TIMEOUT);
    let mut tools = diff.toolchain();
    if args.generator != GeneratorKind::Irgen {
        tools.phicc = resolve(&tools.phicc);
    }
    if args.probe && args.generator != GeneratorKind::Irgen {
        probe(&tools, &diff.targets)?;
    }
    // Csmith and cgen programs print the same on every target (cgen's
    // per-target asm templates compute the same values, see oracle::cgen),
    // so one host reference serves all targets: a per-target reference
    // cost cgen campaigns 14% more time for the same outcomes.
    let spec_diff = diff.spec(ReferenceMode::Host);
    let spec = CampaignSpec {
        generator: args.generator,
        emphasis: (args.generator == GeneratorKind::Cgen).then(|| match args.emphasis {
            Some(e) if !cycle => e.name().to_string(),
            _ => "cycle".to_string(),
        }),
        seed: args.seed,
        shard: args.shard,
        targets: spec_diff.targets,
        configs: spec_diff.configs,
        reference: spec_diff.reference,
        compiler: tools.phicc.clone(),
        inject_bug: diff.inject_bug.clone(),
        program_seeds: args.program_seeds.clone().map(|s| s.0),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_lists_are_inclusive_ranges_and_lists() {
        assert_eq!(parse_seeds("1..3").unwrap().0, vec![1, 2, 3]);
        assert_eq!(parse_seeds("1..=2,7").unwrap().0, vec![1, 2, 7]);
        assert_eq!(parse_seeds("5").unwrap().0, vec![5]);
        assert!(parse_seeds("3..1").is_err());
        assert!(parse_seeds("x").is_err());
        assert!(parse_seeds("").is_err());
    }
}
