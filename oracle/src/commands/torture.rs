//! `oracle torture`: gcc's C torture execute tests (GCC 12.2, from Debian's
//! `gcc-12-source`) compiled by phicc for one target and configuration, run
//! through phicc-runner and compared with the tracked expected-failure list
//! `corpora/torture/expected-failures-TARGET.txt`; the work is in
//! [`crate::torture`]. Writes `results.tsv` and `summary.txt` to `--out`.
//! Exit status: 0 as expected, 1 a test that newly fails, changed how it
//! fails, or passes while listed (each named), 2 tool error.

use crate::target::{Config, Target};
use crate::torture::{self, RunSpec};
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The target: x86_64, aarch64 or riscv64 (foreign ones run under QEMU).
    #[arg(long, default_value = "x86_64")]
    pub target: Target,
    /// The configuration: nomem2reg, mem2reg or opt.
    #[arg(long, default_value = "mem2reg")]
    pub config: Config,
    /// Run N tests spread evenly over the suite sorted by name (every
    /// 1653/N-th), instead of all 1,653.
    #[arg(long)]
    pub sample: Option<usize>,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Where results.tsv and summary.txt go (default: torture-out/TARGET-CONFIG).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The compiler under test (default: $PHICC, else phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// An already extracted `gcc.c-torture/execute` directory (default: extract
    /// it from gcc-12-source's tarball into --cache).
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// The cache of the extracted tests and the reference (gcc -O0) verdicts
    /// (default: $XDG_CACHE_HOME/phicc-torture, else ~/.cache/phicc-torture).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// The expected-failure list (default: corpora/torture/expected-failures-TARGET.txt).
    #[arg(long)]
    pub expected: Option<PathBuf>,
    /// Wall-clock limit of one test run in seconds (three times this under QEMU).
    #[arg(long, default_value_t = 10.0)]
    pub run_timeout: f64,
    /// Wall-clock limit of one compile in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub compile_timeout: f64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn default_cache() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("phicc-torture");
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".cache/phicc-torture")
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let cache = args.cache.clone().unwrap_or_else(default_cache);
    let suite = match &args.suite {
        Some(dir) => dir.clone(),
        None => torture::extract(&cache)?,
    };
    let list_path = args
        .expected
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("corpora/torture/expected-failures-{}.txt", args.target)));
    let list_text = std::fs::read_to_string(&list_path).with_context(|| format!("reading {}", list_path.display()))?;
    let list = torture::ExpectedList::parse(&list_text).map_err(|e| anyhow::anyhow!("{}: {e}", list_path.display()))?;
    let all = torture::discover(&suite)?;
    let tests = torture::sample(&all, args.sample);
    let spec = RunSpec {
        target: args.target,
        config: args.config,
        phicc: args.compiler.clone().unwrap_or_else(crate::toolchain::default_phicc),
        suite,
        cache: cache.clone(),
        jobs: super::jobs_or_every_core(args.jobs),
        run_timeout: Duration::from_secs_f64(args.run_timeout),
        compile_timeout: Duration::from_secs_f64(args.compile_timeout),
        progress: !args.quiet,
    };
    std::fs::create_dir_all(&cache)?;
    let results = torture::run(&spec, &tests)?;
    let full = args.sample.is_none_or(|n| n >= all.len());
    let mismatches = torture::compare(&results, &list, args.config, full);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("torture-out/{}-{}", args.target, args.config)));
    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("results.tsv"), torture::results_tsv(&results))?;
    let mut summary = torture::summary(&spec, &results, &mismatches, &list_path);
    if !full {
        summary.insert_str(
            0,
            &format!(
                "sample of {} of {} tests (evenly spaced by name)\n",
                tests.len(),
                all.len()
            ),
        );
    }
    summary.push_str(&format!(
        "wall time {:.0} s; results in {}\n",
        start.elapsed().as_secs_f64(),
        out.display()
    ));
    std::fs::write(out.join("summary.txt"), &summary)?;
    print!("{summary}");
    Ok(if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
