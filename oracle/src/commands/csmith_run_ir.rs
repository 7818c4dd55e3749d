//! `oracle csmith-run-ir`: Csmith programs through phicc's frontend,
//! lowering and IR interpreter (`phicc --run-ir`), against gcc -O0.
//!
//! For each seed N: `csmith --seed N` (Csmith's default options) gives a
//! program; the host's `gcc -O0` binary gives the reference output (a
//! program whose gcc binary runs longer than `--reference-timeout` is
//! skipped and counted); the program must lower and verify for every target
//! (`phicc --emit-ir --target=T`), and `phicc --run-ir` with and without the
//! mem2reg pipeline must print what gcc's binary prints. Prints one line per
//! failure and the counts; exit status 1 when anything failed.

use crate::generator::csmith::CsmithOptions;
use crate::runner::{self, Job, Limits, Termination};
use crate::target::Target;
use crate::toolchain::{default_phicc, Toolchain};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Csmith seeds, `A..B` (inclusive) or a comma-separated list.
    #[arg(long, default_value = "1..300", value_parser = super::campaign::parse_seeds)]
    pub seeds: super::campaign::SeedList,
    /// Parallel seeds (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The phicc binary (default: $PHICC, else phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// Seconds per `phicc --run-ir`.
    #[arg(long, default_value_t = 300.0)]
    pub run_timeout: f64,
    /// Seconds the reference binary may run before the program is skipped.
    #[arg(long, default_value_t = 10.0)]
    pub reference_timeout: f64,
    /// Keep the failing programs in this directory.
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// What one seed came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// The reference binary ran too long.
    Skipped,
    /// csmith, gcc or the gcc binary failed.
    ReferenceProblem(String),
    LowerFailed(String),
    RunIrFailed(String),
    RunIrTimeout(String),
    Mismatch(String),
}

fn first_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .chars()
        .take(300)
        .collect::<String>()
        .replace('\n', " ")
}

fn check_seed(a: &Args, tools: &Toolchain, csmith: &CsmithOptions, seed: u64) -> anyhow::Result<Outcome> {
    let dir = tempfile::Builder::new().prefix("oracle-run-ir-").tempdir()?;
    let src = dir.path().join(format!("{seed}.c"));
    match csmith.generate(seed) {
        Ok(text) => std::fs::write(&src, text)?,
        Err(e) => return Ok(Outcome::ReferenceProblem(format!("csmith: {e}"))),
    }
    let outcome = check_source(a, tools, &src, dir.path())?;
    if outcome != Outcome::Ok {
        if let Some(keep) = &a.keep {
            std::fs::create_dir_all(keep)?;
            std::fs::copy(&src, keep.join(format!("csmith-{seed}.c")))?;
        }
    }
    Ok(outcome)
}

fn check_source(a: &Args, tools: &Toolchain, src: &Path, dir: &Path) -> anyhow::Result<Outcome> {
    let host = crate::target::host();
    let bin = dir.join("gcc");
    let step = tools.reference(host, src, &bin)?;
    if !step.ok() {
        return Ok(Outcome::ReferenceProblem(format!("gcc {}", step.outcome.describe())));
    }
    let r = tools.run_reference(host, &bin)?;
    match r.termination {
        Termination::Exited(0) => {}
        Termination::Timeout | Termination::ResourceLimit(_) => return Ok(Outcome::Skipped),
        t => return Ok(Outcome::ReferenceProblem(format!("gcc binary: {}", t.describe()))),
    }
    let want = r.stdout.bytes;
    let phicc = tools.phicc.display().to_string();
    let include: Vec<String> = tools
        .include_dirs
        .iter()
        .map(|d| format!("-I{}", d.display()))
        .collect();
    for t in Target::ALL {
        let job = Job::new(&phicc)
            .args([format!("--target={t}"), "--emit-ir".into(), "-w".into()])
            .args(&include)
            .args(["-o", "/dev/null"])
            .arg(src);
        let r = runner::run(&job, &tools.compile_limits)?;
        if r.termination != Termination::Exited(0) {
            return Ok(Outcome::LowerFailed(format!("on {t}: {}", first_line(&r.stderr.bytes))));
        }
    }
    let limits = Limits {
        address_space: Some(4 << 30),
        ..Limits::with_timeout(Duration::from_secs_f64(a.run_timeout))
    };
    for (cfg, flags) in [("mem2reg", &[][..]), ("nomem2reg", &["-fno-mem2reg"][..])] {
        let job = Job::new(&phicc)
            .arg("--run-ir")
            .args(flags.iter().copied())
            .arg("-w")
            .args(&include)
            .arg(src);
        let r = runner::run(&job, &limits)?;
        match r.termination {
            Termination::Exited(0) => {}
            Termination::Timeout | Termination::ResourceLimit(_) => return Ok(Outcome::RunIrTimeout(cfg.into())),
            t => {
                return Ok(Outcome::RunIrFailed(format!(
                    "{cfg}, {}: {}",
                    t.describe(),
                    first_line(&r.stderr.bytes)
                )))
            }
        }
        if r.stdout.bytes != want {
            let last = |b: &[u8]| String::from_utf8_lossy(b).lines().last().unwrap_or("").to_string();
            return Ok(Outcome::Mismatch(format!(
                "{cfg}: gcc {}, phicc {}",
                last(&want),
                last(&r.stdout.bytes)
            )));
        }
    }
    Ok(Outcome::Ok)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let csmith = CsmithOptions::default();
    let mut tools = Toolchain::new(a.compiler.clone().unwrap_or_else(default_phicc));
    tools.include_dirs.push(csmith.include_dir.clone());
    tools.reference_limits = Limits::with_timeout(Duration::from_secs_f64(a.reference_timeout));
    let start = Instant::now();
    let seeds = &a.seeds.0;
    let jobs = super::jobs_or_every_core(a.jobs);
    let results = crate::sweep::map(seeds, jobs, "programs", a.quiet, |s| check_seed(&a, &tools, &csmith, s));
    let mut outcomes = Vec::new();
    for (seed, r) in seeds.iter().zip(results) {
        let o = r?;
        if o != Outcome::Ok {
            println!("seed {seed}: {o:?}");
        }
        outcomes.push(o);
    }
    let count = |f: fn(&Outcome) -> bool| outcomes.iter().filter(|o| f(o)).count();
    let ok = count(|o| *o == Outcome::Ok);
    let skipped = count(|o| *o == Outcome::Skipped);
    println!(
        "csmith seeds {}: {} programs in {} s",
        describe_seeds(seeds),
        outcomes.len(),
        start.elapsed().as_secs()
    );
    println!("  agree with gcc (mem2reg and nomem2reg, all targets lower+verify): {ok}");
    println!("  skipped (gcc binary > {} s): {skipped}", a.reference_timeout);
    println!("  mismatches: {}", count(|o| matches!(o, Outcome::Mismatch(_))));
    println!(
        "  lowering/verification failures: {}",
        count(|o| matches!(o, Outcome::LowerFailed(_)))
    );
    println!(
        "  run-ir failures: {}   run-ir timeouts: {}",
        count(|o| matches!(o, Outcome::RunIrFailed(_))),
        count(|o| matches!(o, Outcome::RunIrTimeout(_)))
    );
    println!(
        "  reference problems (csmith/gcc): {}",
        count(|o| matches!(o, Outcome::ReferenceProblem(_)))
    );
    Ok(if ok + skipped == outcomes.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `1..300` for a contiguous list, else the count.
pub fn describe_seeds(seeds: &[u64]) -> String {
    match (seeds.first(), seeds.last()) {
        (Some(a), Some(b)) if seeds.windows(2).all(|w| w[1] == w[0] + 1) => format!("{a}..{b}"),
        _ => format!("({} listed)", seeds.len()),
    }
}
