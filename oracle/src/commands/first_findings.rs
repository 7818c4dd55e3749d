//! `oracle first-findings`: how soon does each generator find each injected
//! bug (`compiler/src/inject.rs`)? For every bug, the first program among
//! seeds 1..N of cgen (emphasis cycling through the presets,
//! `Emphasis::ALL[S % 6]`) and of Csmith (`csmith --seed S`, its default
//! options) that shows it.
//!
//! - native (default): every finding comes from compiling and running.
//!   Per program, the gcc -O0 binary's output is the reference; phicc
//!   without a bug in both configurations must print the same, or the
//!   program is "unusable" (a compiler bug or a generator problem: listed,
//!   kept in `--keep`) and skipped for every bug. Then per bug, `phicc -S`
//!   with `PHICC_INJECT_BUG` (default pipeline): assembly equal to the
//!   bug-free one cannot differ; otherwise it is linked and run. A rejected
//!   compile is a finding too. `--compiler` must be a phicc built with
//!   `--features phicc/inject-bugs`.
//! - `--in-process`: each program lowered by phicc's frontend for x86-64,
//!   then the IR check of [`crate::ircheck`] (interpreted without and with
//!   the mem2reg pipeline under two inline-asm schedules); a run with no bug
//!   first counts false findings. Needs oracle built with `--features
//!   inject-bugs`.
//!
//! Output: one table row per bug, `#k` = the k-th program is the first finding.

use super::cgen_validity::emphasis_of;
use crate::ccheck::lower_c_with_includes;
use crate::cgen::{generate, CgenConfig};
use crate::generator::csmith::CsmithOptions;
use crate::ircheck::{check_module, CheckConfig, CheckMode};
use crate::runner::Termination;
use crate::target::Config;
use crate::toolchain::{default_phicc, Toolchain};
use phicc::inject::Bug;
use phicc::ir::module::IrModule;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Programs per generator: seeds 1..COUNT.
    #[arg(default_value_t = 100)]
    pub count: u64,
    /// Generators, comma-separated (cgen, csmith).
    #[arg(long, default_value = "cgen,csmith")]
    pub generators: String,
    /// Check in process (frontend + IR interpreter) instead of compiling and running.
    #[arg(long)]
    pub in_process: bool,
    /// Only these bugs (comma-separated names; default: every one).
    #[arg(long)]
    pub bugs: Option<String>,
    /// Interpreter steps per run (--in-process).
    #[arg(long, default_value_t = 20_000_000)]
    pub fuel: u64,
    /// phicc built with --features phicc/inject-bugs (default: $PHICC, else
    /// phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// Seconds per binary run.
    #[arg(long, default_value_t = 10.0)]
    pub run_timeout: f64,
    /// Parallel programs (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Directory for unusable programs.
    #[arg(long, default_value = "/tmp/cgen-native-findings")]
    pub keep: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Gen {
    Cgen,
    Csmith,
}

impl Gen {
    fn name(self) -> &'static str {
        match self {
            Gen::Cgen => "cgen",
            Gen::Csmith => "csmith",
        }
    }

    fn source(self, seed: u64, csmith: &CsmithOptions) -> anyhow::Result<String> {
        match self {
            Gen::Cgen => Ok(generate(seed, &CgenConfig::preset(emphasis_of(seed)))),
            Gen::Csmith => csmith.generate(seed),
        }
    }
}

fn parse_generators(s: &str) -> anyhow::Result<Vec<Gen>> {
    s.split(',')
        .map(|g| match g.trim() {
            "cgen" => Ok(Gen::Cgen),
            "csmith" => Ok(Gen::Csmith),
            "both" => Ok(Gen::Cgen),
            other => anyhow::bail!("unknown generator `{other}` (cgen, csmith)"),
        })
        .collect::<anyhow::Result<Vec<_>>>()
        .map(|mut v| {
            if s.trim() == "both" {
                v.push(Gen::Csmith);
            }
            v
        })
}

/// What one program showed natively.
enum Native {
    /// The reference could not be built or ran too long.
    Skipped,
    Unusable(String),
    /// Checked against every bug not found earlier.
    Usable,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let gens = parse_generators(&a.generators)?;
    let csmith = CsmithOptions::default();
    if a.in_process {
        return in_process(&a, &gens, &csmith);
    }
    let mut tools = Toolchain::new(a.compiler.clone().unwrap_or_else(default_phicc));
    tools.verify_each = false;
    tools.run_limits = crate::runner::Limits::with_timeout(Duration::from_secs_f64(a.run_timeout));
    tools.reference_limits = tools.run_limits.clone();
    let jobs = super::jobs_or_every_core(a.jobs);
    let seeds: Vec<u64> = (1..=a.count).collect();
    let start = Instant::now();
    let mut firsts: Vec<HashMap<Bug, u64>> = Vec::new();
    for &g in &gens {
        let t0 = Instant::now();
        let mut tools = tools.clone();
        if g == Gen::Csmith {
            tools.include_dirs.push(csmith.include_dir.clone());
        }
        // The first seed that found each bug so far: later seeds skip it.
        let found: Mutex<HashMap<Bug, u64>> = Mutex::new(HashMap::new());
        let results = crate::sweep::map(&seeds, jobs, &format!("{} programs", g.name()), a.quiet, |seed| {
            native_program(&tools, g, seed, &csmith, &found)
        });
        let (mut usable, mut unusable, mut skipped) = (0, Vec::new(), Vec::new());
        for (&seed, r) in seeds.iter().zip(results) {
            match r? {
                Native::Usable => usable += 1,
                Native::Unusable(why) => {
                    let _ = std::fs::create_dir_all(&a.keep);
                    let _ = std::fs::write(a.keep.join(format!("{}-{seed}.c", g.name())), g.source(seed, &csmith)?);
                    unusable.push(format!("unusable {} {seed} {why}", g.name()));
                }
                Native::Skipped => skipped.push(format!("skipped {} {seed} (gcc build fails or times out)", g.name())),
            }
        }
        println!(
            "== {}: {} programs in {} s: {usable} usable, {} unusable, {} skipped",
            g.name(),
            a.count,
            t0.elapsed().as_secs(),
            unusable.len(),
            skipped.len()
        );
        for line in unusable.iter().chain(&skipped) {
            println!("{line}");
        }
        firsts.push(found.into_inner().unwrap());
    }
    print!("\n{:<24}", "injected bug");
    for g in &gens {
        print!(" {:>23}", format!("{}: first finding", g.name()));
    }
    println!();
    for bug in Bug::ALL {
        print!("{:<24}", bug.name());
        for f in &firsts {
            let cell = f.get(&bug).map_or(format!("none in {}", a.count), |s| format!("#{s}"));
            print!(" {cell:>23}");
        }
        println!();
    }
    println!(
        "(total {} s; unusable programs in {})",
        start.elapsed().as_secs(),
        a.keep.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn native_program(
    tools: &Toolchain,
    g: Gen,
    seed: u64,
    csmith: &CsmithOptions,
    found: &Mutex<HashMap<Bug, u64>>,
) -> anyhow::Result<Native> {
    let dir = tempfile::Builder::new().prefix("oracle-first-").tempdir()?;
    let d = dir.path();
    let src = d.join("p.c");
    std::fs::write(&src, g.source(seed, csmith)?)?;
    let host = crate::target::host();
    let gcc_bin = d.join("gcc");
    if !tools.reference(host, &src, &gcc_bin)?.ok() {
        return Ok(Native::Skipped);
    }
    let reference = tools.run_reference(host, &gcc_bin)?;
    if reference.termination != Termination::Exited(0) {
        return Ok(Native::Skipped);
    }
    // The program's output when built from `asm`, or None when it does not build or run.
    let output_of = |asm: &Path, tag: &str| -> anyhow::Result<Option<Vec<u8>>> {
        let bin = d.join(tag);
        if !tools.link(host, asm, &bin)?.ok() {
            return Ok(None);
        }
        let r = tools.run(host, &bin, Duration::ZERO)?;
        Ok((r.termination == Termination::Exited(0)).then_some(r.stdout.bytes))
    };
    let mut clean_asm = Vec::new();
    for config in [Config::Mem2reg, Config::Nomem2reg] {
        let asm = d.join(format!("{config}.s"));
        let step = tools.compile(host, config, &src, &asm)?;
        if !step.ok() {
            let why: String = step.stderr.chars().take(200).collect();
            return Ok(Native::Unusable(format!("phicc {config}: {}", why.replace('\n', " "))));
        }
        if output_of(&asm, config.name())?.as_ref() != Some(&reference.stdout.bytes) {
            return Ok(Native::Unusable(format!(
                "phicc {config} (no injected bug) differs from gcc -O0"
            )));
        }
        clean_asm.push(std::fs::read(&asm)?);
    }
    for bug in Bug::ALL {
        if found.lock().unwrap().get(&bug).is_some_and(|&s| s < seed) {
            continue;
        }
        let mut bugged = tools.clone();
        bugged.env.push(("PHICC_INJECT_BUG".into(), bug.name().into()));
        let asm = d.join("bug.s");
        let step = bugged.compile(host, Config::Mem2reg, &src, &asm)?;
        let shows = if step.ok() {
            std::fs::read(&asm)? != clean_asm[0] && output_of(&asm, "bug")?.as_ref() != Some(&reference.stdout.bytes)
        } else {
            true
        };
        if shows {
            let mut f = found.lock().unwrap();
            let first = f.entry(bug).or_insert(seed);
            *first = (*first).min(seed);
        }
    }
    Ok(Native::Usable)
}

/// Lowered modules of one generator (None: did not lower).
fn lowered(g: Gen, count: u64, csmith: &CsmithOptions) -> (Vec<Option<IrModule>>, usize) {
    let inc = match g {
        Gen::Csmith => vec![csmith.include_dir.clone()],
        Gen::Cgen => vec![],
    };
    let modules: Vec<Option<IrModule>> = (1..=count)
        .map(|seed| {
            g.source(seed, csmith)
                .ok()
                .and_then(|src| lower_c_with_includes(&src, phicc::target::Target::X86_64, &inc).ok())
        })
        .collect();
    let failures = modules.iter().filter(|m| m.is_none()).count();
    (modules, failures)
}

/// Programs checked until the first finding (1-based), the number of
/// findings, the time, and the inconclusive (out of fuel) runs on the way.
fn hunt(
    modules: &[Option<IrModule>],
    cfg: &CheckConfig,
    stop_at_first: bool,
) -> (Option<usize>, usize, Duration, usize) {
    let start = Instant::now();
    let (mut found, mut findings, mut inconclusive) = (None, 0, 0);
    for (i, m) in modules.iter().enumerate() {
        let Some(m) = m else { continue };
        let r = check_module(m, cfg);
        inconclusive += usize::from(r.inconclusive);
        if r.failure.is_some() {
            findings += 1;
            found.get_or_insert(i + 1);
            if stop_at_first {
                break;
            }
        }
    }
    (found, findings, start.elapsed(), inconclusive)
}

fn in_process(a: &Args, gens: &[Gen], csmith: &CsmithOptions) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        phicc::inject::AVAILABLE,
        "--in-process needs oracle built with --features inject-bugs"
    );
    let cfg = CheckConfig {
        mode: CheckMode::Pipeline,
        schedules: vec![0, 1],
        fuel: a.fuel,
        inputs: crate::inputs::Inputs::OFF,
    };
    let t = Instant::now();
    let corpora: Vec<(Gen, Vec<Option<IrModule>>, usize)> = gens
        .iter()
        .map(|&g| {
            let (m, f) = lowered(g, a.count, csmith);
            (g, m, f)
        })
        .collect();
    println!("{} programs per generator, lowered in {:.1?}", a.count, t.elapsed());
    for (g, _, failures) in &corpora {
        println!("  {}: {failures} did not lower", g.name());
    }
    phicc::inject::set_injected(&[]).map_err(|e| anyhow::anyhow!("{e}"))?;
    println!("\nno injected bug (false findings, cost of the whole corpus):");
    for (g, modules, _) in &corpora {
        let (_, findings, time, inconclusive) = hunt(modules, &cfg, false);
        println!(
            "  {:7} {findings} findings, {inconclusive} out of fuel, {time:.1?}",
            g.name()
        );
    }
    print!("\n{:24}", "injected bug");
    for (g, _, _) in &corpora {
        print!(" {:>24}", format!("{}: first finding", g.name()));
    }
    println!();
    for bug in selected_bugs(a)? {
        phicc::inject::set_injected(&[bug]).map_err(|e| anyhow::anyhow!("{e}"))?;
        print!("{:24}", bug.name());
        for (_, modules, _) in &corpora {
            let (found, _, time, _) = hunt(modules, &cfg, true);
            let cell = match found {
                Some(k) => format!("#{k} ({time:.1?})"),
                None => format!("none in {} ({time:.0?})", a.count),
            };
            print!(" {cell:>24}");
        }
        println!();
    }
    phicc::inject::set_injected(&[]).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// The bugs `--bugs` names (every one without it).
fn selected_bugs(a: &Args) -> anyhow::Result<Vec<Bug>> {
    match &a.bugs {
        Some(list) => phicc::inject::parse_bug_list(list).map_err(|e| anyhow::anyhow!("{e}")),
        None => Ok(Bug::ALL.to_vec()),
    }
}
