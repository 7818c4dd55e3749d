//! `oracle campaign`: many generated programs through the differential
//! oracle (C) or the in-process IR check (irgen), on every core.
//!
//! Program `i` of a campaign with seed `S` is a pure function of `(S, i)`;
//! `--shard K/N` takes the indices with `i % N == K - 1`, so shards on
//! different machines together run exactly the unsharded campaign and
//! `oracle merge` can put their directories back together. Findings are
//! written as they appear and the campaign resumes after a kill
//! ([`crate::findings`] says how). Worker threads take indices from a shared
//! counter; a progress bar shows programs done, rate, findings and counts per
//! outcome class. At the end `summary.md` and `report.html` are (re)written
//! from the journals, so they cover every run of the campaign directory.

use crate::differential::{diff_program, Class, DiffReport, DiffSpec, Timings};
use crate::findings::{DoneRecord, FindingFiles, FindingRecord, FindingStore};
use crate::generator::{Generator, GeneratorKind, Program};
use crate::ircheck::{check_module, CheckConfig, CheckMode};
use crate::localize::first_diverging_stage;
use crate::toolchain::Toolchain;
use crate::util::{command_line, shell_quote};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The parameters that define a campaign (stored in `campaign.json`; a
/// resumed run must use the same ones).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignSpec {
    pub generator: GeneratorKind,
    /// The `cgen` emphasis preset (only for `--generator cgen`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emphasis: Option<String>,
    pub seed: u64,
    /// Shard `k` of `n` (1-based).
    pub shard: (u64, u64),
    pub targets: Vec<crate::target::Target>,
    pub configs: Vec<crate::target::Config>,
    pub reference: crate::differential::ReferenceMode,
    pub compiler: PathBuf,
    pub inject_bug: Option<String>,
    /// Program `i` is the generator's program for seed `program_seeds[i]`
    /// itself (`csmith --seed N`) rather than for a function of `(seed, i)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_seeds: Option<Vec<u64>>,
}

/// How long a run goes on.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Program indices `0..count` of the unsharded campaign.
    pub count: Option<u64>,
    pub time: Option<Duration>,
}

/// What a run did (this run only; the reports cover the whole directory).
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    pub programs: u64,
    pub skipped_done: u64,
    pub findings_total: usize,
    pub seconds: f64,
}

/// Everything a run needs.
pub struct Campaign {
    pub spec: CampaignSpec,
    pub generator: Generator,
    pub tools: Toolchain,
    pub budget: Budget,
    pub jobs: usize,
    pub out: PathBuf,
    pub progress: bool,
    /// Re-run findings with passes disabled to find the first diverging stage.
    pub localize: bool,
}

impl Campaign {
    fn diff_spec(&self) -> DiffSpec {
        DiffSpec {
            targets: self.spec.targets.clone(),
            configs: self.spec.configs.clone(),
            reference: self.spec.reference,
        }
    }

    /// The `i`-th index of this shard.
    fn index(&self, j: u64) -> u64 {
        j * self.spec.shard.1 + (self.spec.shard.0 - 1)
    }

    /// How many indices this shard has under the count budget.
    fn shard_len(&self) -> Option<u64> {
        let (k, n) = self.spec.shard;
        self.count().map(|c| if c >= k { (c - k) / n + 1 } else { 0 })
    }

    /// Program indices `0..count` of the unsharded campaign (`--count`, at
    /// most the number of `--program-seeds`).
    fn count(&self) -> Option<u64> {
        let listed = self.spec.program_seeds.as_ref().map(|v| v.len() as u64);
        match (self.budget.count, listed) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Program `i`.
    fn generate(&self, i: u64) -> anyhow::Result<Program> {
        match &self.spec.program_seeds {
            Some(seeds) => Ok(Program::C(self.generator.generate_c(seeds[i as usize])?)),
            None => self.generator.generate(self.spec.seed, i),
        }
    }

    /// The `cgen` preset of program `i` (`None` for other generators).
    fn emphasis(&self, i: u64) -> Option<crate::cgen::Emphasis> {
        if self.generator.kind != GeneratorKind::Cgen {
            return None;
        }
        let s = match &self.spec.program_seeds {
            Some(seeds) => seeds[i as usize],
            None => crate::generator::program_seed(self.spec.seed, i),
        };
        Some(self.generator.emphasis_of(s))
    }

    /// The command that prints program `i` on its own.
    fn describe(&self, i: u64) -> String {
        match &self.spec.program_seeds {
            Some(seeds) => self.generator.describe_c(seeds[i as usize]),
            None => self.generator.describe(self.spec.seed, i),
        }
    }
}

/// Run (or resume) a campaign.
pub fn run(c: &Campaign) -> anyhow::Result<RunStats> {
    let (k, n) = c.spec.shard;
    anyhow::ensure!(n >= 1 && (1..=n).contains(&k), "--shard {k}/{n}: expected 1 <= K <= N");
    anyhow::ensure!(
        c.count().is_some() || c.budget.time.is_some(),
        "give --count, --minutes or --program-seeds"
    );
    std::fs::create_dir_all(&c.out)?;
    check_spec(&c.out, &c.spec)?;
    let store = FindingStore::open(&c.out)?;
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let counts: [AtomicU64; Class::ALL.len()] = Default::default();
    let programs = AtomicU64::new(0);
    let skipped = AtomicU64::new(0);
    let findings = AtomicU64::new(crate::findings::load_findings(&c.out)?.len() as u64);
    let bar = progress_bar(c);

    std::thread::scope(|s| {
        for _ in 0..c.jobs.max(1) {
            s.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let j = next.fetch_add(1, Ordering::Relaxed);
                let i = c.index(j);
                if c.count().is_some_and(|cnt| i >= cnt) || c.budget.time.is_some_and(|t| start.elapsed() >= t) {
                    break;
                }
                if store.is_done(i) {
                    skipped.fetch_add(1, Ordering::Relaxed);
                    bar.inc(1);
                    continue;
                }
                let t0 = Instant::now();
                match check_program(c, i) {
                    Ok((class, timings, crossed_cost_limit, finding)) => {
                        let mut done = DoneRecord {
                            index: i,
                            class,
                            at: start.elapsed().as_secs_f64(),
                            seconds: t0.elapsed().as_secs_f64(),
                            timings,
                            finding: None,
                            emphasis: c.emphasis(i).map(|e| e.name().to_string()),
                            crossed_cost_limit,
                        };
                        let written = finding.map_or(Ok(()), |(rec, files)| {
                            done.finding = Some(rec.id.clone());
                            findings.fetch_add(1, Ordering::Relaxed);
                            store.record_finding(&rec, &files)
                        });
                        if let Err(e) = written.and_then(|()| store.record_done(&done)) {
                            *error.lock().unwrap() = Some(anyhow::anyhow!("cannot write to {}: {e}", c.out.display()));
                            stop.store(true, Ordering::Relaxed);
                        }
                        counts[Class::ALL.iter().position(|k| *k == class).unwrap()].fetch_add(1, Ordering::Relaxed);
                        programs.fetch_add(1, Ordering::Relaxed);
                        bar.set_message(progress_message(&counts, findings.load(Ordering::Relaxed)));
                        bar.inc(1);
                    }
                    Err(e) => {
                        *error.lock().unwrap() = Some(e.context(format!("program {i}")));
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    let stats = RunStats {
        programs: programs.load(Ordering::Relaxed),
        skipped_done: skipped.load(Ordering::Relaxed),
        findings_total: crate::findings::load_findings(&c.out)?.len(),
        seconds: start.elapsed().as_secs_f64(),
    };
    crate::report::write_reports(&c.out)?;
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    Ok(stats)
}

/// A campaign directory holds one campaign: refuse to mix parameters.
fn check_spec(out: &Path, spec: &CampaignSpec) -> anyhow::Result<()> {
    let path = out.join("campaign.json");
    if let Ok(text) = std::fs::read_to_string(&path) {
        let old: CampaignSpec = serde_json::from_str(&text)?;
        anyhow::ensure!(
            old == *spec,
            "{} holds a different campaign ({}); use another --out",
            out.display(),
            text.trim()
        );
        return Ok(());
    }
    crate::util::write_atomic(&path, serde_json::to_string_pretty(spec)?.as_bytes())?;
    Ok(())
}

fn progress_bar(c: &Campaign) -> indicatif::ProgressBar {
    if !c.progress {
        return indicatif::ProgressBar::hidden();
    }
    let b = match c.shard_len() {
        Some(len) => indicatif::ProgressBar::new(len),
        None => indicatif::ProgressBar::new_spinner(),
    };
    b.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:25}] {pos}/{len} programs ({per_sec}) {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    b.enable_steady_tick(Duration::from_millis(500));
    b
}

fn progress_message(counts: &[AtomicU64], findings: u64) -> String {
    let mut parts = vec![format!("findings {findings}")];
    for (k, n) in Class::ALL.iter().zip(counts) {
        let n = n.load(Ordering::Relaxed);
        if n > 0 {
            parts.push(format!("{} {n}", k.name()));
        }
    }
    parts.join(" | ")
}

/// A program's outcome class, timings, whether mem2reg's phi copy-cost
/// limit kept allocas in memory (when known), and its finding.
type Checked = (Class, Timings, Option<bool>, Option<(FindingRecord, FindingFiles)>);

/// Does mem2reg (run in-process on the program lowered for x86-64) keep
/// allocas in memory because of its phi copy-cost limit? `None` when the
/// frontend rejects the program.
pub fn crosses_cost_limit(source: &str, include_dirs: &[PathBuf]) -> Option<bool> {
    use phicc::passes::PassKind;
    let mut m = crate::ccheck::lower_c_with_includes(source, phicc::target::Target::X86_64, include_dirs).ok()?;
    let pass = PassKind::Mem2reg;
    let slot = pass
        .pass()
        .counters
        .iter()
        .position(|n| *n == phicc::passes::KEPT_BY_COST_LIMIT)?;
    let mut counters = vec![0; pass.pass().counters.len()];
    phicc::passes::pipeline::apply(pass, &mut m, &mut counters);
    Some(counters[slot] > 0)
}

/// The header line of an irgen finding's `program.ir` that records the seed
/// of its random argument vectors, so that `oracle reduce` checks the same
/// calls (`; inputs-seed: N`).
pub const INPUTS_SEED_TAG: &str = "inputs-seed: ";

/// Generate and check program `i`.
fn check_program(c: &Campaign, i: u64) -> anyhow::Result<Checked> {
    let gen = c.spec.generator.name();
    let id = format!("{gen}-{}-{i}", c.spec.seed);
    let record = |class: Class, stage: String, cells: Vec<String>| FindingRecord {
        id: id.clone(),
        generator: gen.to_string(),
        seed: c.spec.seed,
        index: i,
        class,
        stage,
        cells,
        dir: format!("findings/{id}"),
        reduced_hash: None,
    };
    let t_gen = Instant::now();
    let program = c.generate(i)?;
    let generate = t_gen.elapsed().as_secs_f64();
    match program {
        Program::Ir(module) => {
            let t0 = Instant::now();
            // Every function on many argument vectors, as `oracle
            // ir-campaign` checks (the random ones keyed by the input's bytes).
            let inputs = crate::inputs::Inputs::CAMPAIGN.seeded_by(&crate::irgen::input_bytes(c.spec.seed, i));
            let cfg = CheckConfig {
                mode: CheckMode::Pipeline,
                schedules: vec![0, 1],
                fuel: 200_000,
                inputs,
            };
            let report = check_module(&module, &cfg);
            let timings = Timings {
                generate,
                run: t0.elapsed().as_secs_f64(),
                ..Timings::default()
            };
            let crossed = Some(report.crossed_cost_limit);
            let Some(failure) = report.failure else {
                return Ok((Class::Agree, timings, crossed, None));
            };
            // A program that no longer terminates is bucketed apart from a wrong outcome.
            let class = match failure {
                crate::ircheck::Failure::Hang { .. } => Class::Timeout,
                _ => Class::Mismatch,
            };
            let rec = record(class, failure.stage().name().to_string(), vec!["ir/mem2reg".into()]);
            let replay = crate::ircampaign::replay_command(
                crate::irgen::GenMode::Alloca,
                &cfg.schedules,
                cfg.fuel,
                Path::new("program.ir"),
            );
            let call = failure.call().map(|call| call.phiopt_flags()).unwrap_or_default();
            let replay = format!("{replay}{call}");
            let mut text = format!(
                "; {}\n; replay: {replay}\n; {INPUTS_SEED_TAG}{}\n",
                failure.signature(),
                inputs.seed
            );
            for line in failure.to_string().lines() {
                text.push_str(&format!("; {line}\n"));
            }
            text.push_str(&phicc::ir::text::print_module(&module));
            let files = vec![
                ("program.ir".to_string(), text.into_bytes()),
                (
                    "commands.sh".to_string(),
                    format!("#!/bin/sh\ncd \"$(dirname \"$0\")\"\n{replay}\n").into_bytes(),
                ),
                ("report.txt".to_string(), failure.to_string().into_bytes()),
            ];
            Ok((class, timings, crossed, Some((rec, files))))
        }
        Program::C(text) => {
            let work = tempfile::Builder::new().prefix("oracle-prog-").tempdir()?;
            let source = work.path().join("program.c");
            std::fs::write(&source, &text)?;
            let mut report = diff_program(&c.tools, &c.diff_spec(), &source, work.path())?;
            report.timings.generate = generate;
            // The compile worker's count; a compiled program it did not
            // cover (a spawned phicc, no mem2reg configuration) gets a
            // frontend and mem2reg run here. A discarded program, and one
            // that crashed or hung phicc (which could do the same here),
            // stay unknown.
            let crossed = report.crossed_cost_limit.or_else(|| {
                (!matches!(report.class, Class::ReferenceFailure | Class::CompilerCrash))
                    .then(|| crosses_cost_limit(&text, &c.generator.include_dirs()))
                    .flatten()
            });
            if !report.class.is_finding() {
                return Ok((report.class, report.timings, crossed, None));
            }
            let stage = if c.localize {
                stage_of(c, &report, &source, work.path())
            } else {
                "unknown".into()
            };
            let rec = record(report.class, stage, report.cells_at_fault.clone());
            let files = finding_files(c, &rec, &report, &text, work.path());
            Ok((report.class, report.timings, crossed, Some((rec, files))))
        }
    }
}

fn stage_of(c: &Campaign, report: &DiffReport, source: &Path, work: &Path) -> String {
    let Some(cell) = report
        .cells
        .iter()
        .find(|x| report.cells_at_fault.first() == Some(&x.label()))
    else {
        return "unknown".into();
    };
    let Some(config) = cell.config else {
        return "unknown".into();
    };
    first_diverging_stage(
        &c.tools,
        cell.target,
        config,
        source,
        report.class,
        report.expected(cell.target),
        work,
    )
}

/// The one-line command that shows a C finding again.
pub fn replay_command(c: &Campaign, rec: &FindingRecord) -> String {
    let mut words = vec![
        "oracle".to_string(),
        "diff".into(),
        "program.c".into(),
        format!(
            "--targets={}",
            c.spec.targets.iter().map(|t| t.name()).collect::<Vec<_>>().join(",")
        ),
        format!(
            "--configs={}",
            c.spec.configs.iter().map(|x| x.name()).collect::<Vec<_>>().join(",")
        ),
        format!(
            "--reference={}",
            match c.spec.reference {
                crate::differential::ReferenceMode::Host => "host",
                crate::differential::ReferenceMode::PerTarget => "per-target",
                crate::differential::ReferenceMode::None => "none",
            }
        ),
        format!("--compiler={}", c.tools.phicc.display()),
        format!("--run-timeout={}", c.tools.run_limits.timeout.as_secs_f64()),
        format!("--reference-timeout={}", c.tools.reference_limits.timeout.as_secs_f64()),
    ];
    for d in &c.tools.include_dirs {
        words.push(format!("-I{}", d.display()));
    }
    if let Some(b) = &c.spec.inject_bug {
        words.push(format!("--inject-bug={b}"));
    }
    let _ = rec;
    words.iter().map(|w| shell_quote(w)).collect::<Vec<_>>().join(" ")
}

/// The files of a C finding's directory.
fn finding_files(c: &Campaign, rec: &FindingRecord, report: &DiffReport, text: &str, work: &Path) -> FindingFiles {
    let mut files: FindingFiles = vec![("program.c".into(), text.as_bytes().to_vec())];
    let replay = replay_command(c, rec);
    let details = serde_json::json!({
        "record": rec,
        "bucket": rec.bucket(),
        "generated_by": c.describe(rec.index),
        "replay": replay,
        "report": report,
    });
    files.push((
        "finding.json".into(),
        serde_json::to_vec_pretty(&details).unwrap_or_default(),
    ));
    files.push(("table.txt".into(), report.table().into_bytes()));
    // commands.sh: every step of every cell, with paths inside the finding directory.
    let mut sh = String::from("#!/bin/sh\n");
    sh.push_str(&format!(
        "# {}: {} at {} (stage {})\n",
        rec.id,
        rec.class.name(),
        rec.cells.join(", "),
        rec.stage
    ));
    sh.push_str(&format!("# one line: {replay}\n"));
    sh.push_str("# Each step below, run from a scratch copy of this directory:\nset -x\ncd \"$(dirname \"$0\")\"\n");
    let src = Path::new("program.c");
    for cell in &report.cells {
        let t = cell.target;
        match cell.config {
            None => {
                let bin = format!("ref-{t}");
                let args = c.tools.reference_args(t, src, Path::new(&bin));
                sh.push_str(&format!("{}\n", command_line(&[], t.gcc(), &args)));
                sh.push_str(&format!(
                    "{}\n",
                    Toolchain::run_command(t, Path::new(&format!("./{bin}")))
                ));
            }
            Some(cfg) => {
                let asm = PathBuf::from(format!("{t}-{cfg}.s"));
                let args = c.tools.phicc_args(t, cfg, "-S", src, &asm);
                sh.push_str(&format!(
                    "{}\n",
                    command_line(&c.tools.env, &c.tools.phicc.display().to_string(), &args)
                ));
                let bin = format!("{t}-{cfg}");
                let link = Toolchain::link_args(&asm, Path::new(&bin));
                sh.push_str(&format!("{}\n", command_line(&[], t.gcc(), &link)));
                sh.push_str(&format!(
                    "{}\n",
                    Toolchain::run_command(t, Path::new(&format!("./{bin}")))
                ));
            }
        }
    }
    files.push(("commands.sh".into(), sh.into_bytes()));
    for cell in &report.cells {
        let name = cell.label().replace('/', "-");
        if let Some(e) = &cell.execution {
            files.push((format!("outputs/{name}.stdout"), e.stdout.clone().into_bytes()));
            files.push((format!("outputs/{name}.stderr"), e.stderr.clone().into_bytes()));
        }
        for (what, step) in [("compile", &cell.compile), ("link", &cell.link)] {
            if let Some(s) = step {
                if !s.stderr.is_empty() {
                    files.push((format!("outputs/{name}.{what}.stderr"), s.stderr.clone().into_bytes()));
                }
            }
        }
    }
    for asm in crate::differential::assembly_files(work) {
        if let (Some(name), Ok(bytes)) = (asm.file_name(), std::fs::read(&asm)) {
            files.push((format!("asm/{}", name.to_string_lossy()), bytes));
        }
    }
    files
}
