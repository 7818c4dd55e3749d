//! `oracle bench-code`: the generated-code benchmark (issue 14, item 5):
//! fixed workloads built by gcc -O0, gcc -O1, phicc -fno-mem2reg, phicc and
//! phicc -O1, run round-robin on the host and under QEMU, with CPU-time
//! ratios to gcc -O0 and the largest stack frames; the work is in
//! [`crate::benchcode`]. Prints a markdown report (also written to `--out`).
//! Exit status: 0 every output equals gcc -O0's and every run and build
//! succeeded, 1 a mismatch or a failure, 2 tool error.

use super::realprogs::{default_sources, repo_root};
use crate::benchcode::{self, Bench, Inputs, RunOptions};
use crate::generator::csmith::CsmithOptions;
use crate::realprogs::{Compiler, Setup};
use crate::target::{parse_list, Target};
use crate::toolchain::default_phicc;
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Workloads (default: all): repro-02, zlib, lua-fib, lua-testes,
    /// sqlite, csmith-SEED, cgen-EMPHASIS-SEED; a prefix before a dash
    /// selects a group (`lua`, `csmith`, `cgen`).
    pub workloads: Vec<String>,
    /// Workloads left out (as for WORKLOADS; repeatable), e.g. `--skip lua-testes`.
    #[arg(long)]
    pub skip: Vec<String>,
    /// Targets, comma-separated (x86_64, aarch64, riscv64).
    #[arg(long, default_value = "x86_64", value_parser = parse_list::<Target>)]
    pub targets: std::vec::Vec<Target>,
    /// Builds, comma-separated (gcc-O0 first): gcc-O0, gcc-O1,
    /// phicc-nomem2reg, phicc-mem2reg, phicc-opt.
    #[arg(long, default_value = "gcc-O0,gcc-O1,phicc-nomem2reg,phicc-mem2reg,phicc-opt")]
    pub builds: String,
    /// Repetitions (round-robin over the builds; default: --layouts, at
    /// least 3); the median is reported.
    #[arg(long)]
    pub reps: Option<usize>,
    /// Repetitions of the long workloads (Lua's test suite).
    #[arg(long, default_value_t = 1)]
    pub long_reps: usize,
    /// Code layouts: layout n links n x 4 KiB / N of padding code before
    /// the program (zlib, Lua and SQLite: their binary relinked from the
    /// same objects), and repetition r runs layout r % N, so that QEMU's
    /// page-bound block chaining does not decide a ratio by one layout's
    /// luck (use --reps N or a multiple). 1: one layout, as built.
    #[arg(long, default_value_t = 4)]
    pub layouts: usize,
    /// A smaller run: 1 repetition, one Csmith and one cgen program, Lua's
    /// test suite with `_soft=true`.
    #[arg(long)]
    pub quick: bool,
    /// The compiler under test (default: $PHICC, else phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// The directory of the source snapshots (default: <repo>/../shared/realprogs).
    #[arg(long)]
    pub sources: Option<PathBuf>,
    /// `repro-02.c` (default: <sources>/../bugs/repro-02.c).
    #[arg(long)]
    pub repro02: Option<PathBuf>,
    /// The build cache (default: ~/.cache/phicc-bench).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Also write the report here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Wall-clock limit of one build step, in seconds.
    #[arg(long, default_value_t = 1800.0)]
    pub build_timeout: f64,
    /// Wall-clock limit of one run, in seconds (10 times more under QEMU);
    /// after gcc -O0's run, a build's run is limited to 60 times its time plus 10 s.
    #[arg(long, default_value_t = 600.0)]
    pub run_timeout: f64,
    /// Parallel jobs of make (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let repo = repo_root();
    let sources = std::path::absolute(args.sources.clone().unwrap_or_else(|| default_sources(&repo)))?;
    let repro02 = args
        .repro02
        .clone()
        .unwrap_or_else(|| sources.join("../bugs/repro-02.c"));
    let cache = match &args.cache {
        Some(c) => c.clone(),
        None => benchcode::default_cache()?,
    };
    std::fs::create_dir_all(&cache).with_context(|| format!("creating {}", cache.display()))?;
    let cache = std::path::absolute(&cache)?;
    let mut builds: Vec<Compiler> = Vec::new();
    for b in args.builds.split(',').map(str::trim).filter(|b| !b.is_empty()) {
        let c = benchcode::parse_build(b).map_err(anyhow::Error::msg)?;
        if !builds.contains(&c) {
            builds.push(c);
        }
    }
    builds.retain(|c| *c != Compiler::Gcc(0));
    builds.insert(0, Compiler::Gcc(0));
    let phicc = std::path::absolute(args.compiler.clone().unwrap_or_else(default_phicc))?;
    anyhow::ensure!(
        phicc.exists(),
        "no phicc at {} (build it, or pass --compiler)",
        phicc.display()
    );
    let setup = Setup {
        sources,
        work: cache.join("builds"),
        phicc,
        corpora: std::path::absolute(repo.join("corpora/realprogs"))?,
        build_timeout: Duration::from_secs_f64(args.build_timeout),
        run_timeout: Duration::from_secs_f64(args.run_timeout),
        make_jobs: super::jobs_or_every_core(args.jobs),
        // Lua's test suite must pass at the default stack (issue 14).
        stack_mib: Some(8),
        extra_cflags: Vec::new(),
        cc_launcher: None,
    };
    let inputs = Inputs {
        repro02,
        corpora: std::path::absolute(repo.join("corpora"))?,
        csmith: CsmithOptions::default(),
    };
    let plan = benchcode::plan(&inputs, &args.workloads, &args.skip, args.quick)?;
    anyhow::ensure!(
        !plan.workloads.is_empty(),
        "no workload selected by {:?}",
        args.workloads
    );
    let scratch = tempfile::Builder::new().prefix("phicc-bench-code-").tempdir()?;
    let mut bench = Bench::new(
        setup,
        cache,
        scratch.path().to_path_buf(),
        Duration::from_secs_f64(args.run_timeout),
    );
    bench.layouts = args.layouts.max(1);
    let opts = RunOptions {
        builds,
        // Every layout once by default.
        reps: args
            .reps
            .unwrap_or(if args.quick { 1 } else { bench.layouts.max(3) })
            .max(1),
        long_reps: args.long_reps.max(1),
        quick: args.quick,
    };
    let command: Vec<String> = std::env::args()
        .enumerate()
        .map(|(i, a)| {
            if i == 0 {
                "oracle".to_string()
            } else {
                crate::util::shell_quote(&a)
            }
        })
        .collect();
    let load = || {
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(String::from))
            .unwrap_or_else(|| "?".into())
    };
    let load_before = load();
    let mut report = format!("## Generated-code benchmark\n\nCommand: `{}`\n\n", command.join(" "));
    let mut failed = false;
    for &target in &args.targets {
        let r = bench.run_target(&plan, target, &opts)?;
        failed |= !r.problems().is_empty();
        report.push_str(&r.report(opts.long_reps.min(opts.reps)));
        report.push('\n');
    }
    report.push_str(&format!(
        "Whole run: {:.0} s wall, load average {load_before} at the start and {} at the end (builds cached in {}).\n",
        start.elapsed().as_secs_f64(),
        load(),
        bench.cache.display()
    ));
    print!("{report}");
    if let Some(out) = &args.out {
        std::fs::write(out, &report).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
