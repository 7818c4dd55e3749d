//! `oracle ir-campaign`: the IR fuzzing check driven by seeded random bytes
//! instead of libFuzzer: deterministic, parallel, and usable in CI.
//!
//! Input `i` of a campaign with seed `S` is a byte string drawn from a
//! splitmix64 stream keyed by `(S, i)`, so any input can be regenerated alone,
//! any subset of inputs can run on any machine, and the same campaign always
//! finds the same findings. Each finding is written atomically (temporary
//! file, then rename) as a textual `.ir` file whose header says what failed and
//! the exact `phiopt` command that replays it.

use crate::ircheck::{check_module, CheckConfig, CheckMode, Inputs, Report};
use crate::irgen::{generate, input_bytes, GenMode};
use phicc::ir::text::print_module;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Campaign settings.
#[derive(Clone, Debug)]
pub struct Campaign {
    pub seed: u64,
    pub count: u64,
    pub mode: GenMode,
    pub jobs: usize,
    pub out: Option<PathBuf>,
    pub progress: bool,
    pub fuel: u64,
    pub schedules: Vec<u64>,
    /// Stop once this many findings are in (inputs already running still finish).
    pub max_findings: Option<usize>,
    /// Functions besides `main` called with many inputs (issue 17 item 5;
    /// the seed is replaced by a hash of each input's bytes).
    pub inputs: Inputs,
}

/// One failing input.
#[derive(Clone, Debug)]
pub struct Finding {
    pub index: u64,
    pub signature: String,
    pub path: Option<PathBuf>,
}

/// What a campaign saw.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub inputs: u64,
    pub inconclusive: u64,
    pub trapped: u64,
    /// Inputs on which mem2reg's phi copy-cost limit kept allocas in memory.
    pub crossed_cost_limit: u64,
    /// Calls besides `main()` compared, and skipped (the original trapped or ran out of fuel).
    pub calls: u64,
    pub calls_skipped: u64,
    /// Functions whose every input was tried.
    pub exhaustive_functions: u64,
    pub findings: Vec<Finding>,
    pub seconds: f64,
}

impl Summary {
    pub fn render(&self) -> String {
        let pct = |n: u64| {
            if self.inputs == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.inputs as f64
            }
        };
        let mut s = format!(
            "inputs: {}  findings: {}  inconclusive (out of fuel): {} ({:.1}%)  trapped: {} ({:.1}%)  crossed the phi cost limit: {} ({:.1}%)  time: {:.1}s ({:.0} inputs/s)\n",
            self.inputs,
            self.findings.len(),
            self.inconclusive,
            pct(self.inconclusive),
            self.trapped,
            pct(self.trapped),
            self.crossed_cost_limit,
            pct(self.crossed_cost_limit),
            self.seconds,
            self.inputs as f64 / self.seconds.max(1e-9)
        );
        if self.calls + self.calls_skipped > 0 {
            s.push_str(&format!(
                "function calls besides main: {} compared, {} skipped (UB or out of fuel), {} functions tried on every input\n",
                self.calls, self.calls_skipped, self.exhaustive_functions
            ));
        }
        for f in &self.findings {
            let loc = f.path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
            s.push_str(&format!("  input {}: {} {}\n", f.index, f.signature, loc));
        }
        s
    }
}

/// The `phiopt` command that replays a finding file.
pub fn replay_command(mode: GenMode, schedules: &[u64], fuel: u64, file: &Path) -> String {
    let passes = match mode {
        GenMode::Alloca => CheckMode::Pipeline,
        GenMode::Ssa => CheckMode::PhiElimOnly,
    }
    .configuration()
    .group();
    let sched: Vec<String> = schedules.iter().map(|s| s.to_string()).collect();
    // A finding made with injected bugs replays only with the same bugs on.
    let bugs: Vec<&str> = phicc::inject::active().into_iter().map(|b| b.name()).collect();
    let (features, inject) = if bugs.is_empty() {
        (String::new(), String::new())
    } else {
        (
            " --features phicc/inject-bugs".to_string(),
            format!(" --inject-bug={}", bugs.join(",")),
        )
    };
    format!(
        "cargo run -q{features} -p phicc --bin phiopt -- --passes={passes} --verify-each --check --schedule={} --fuel={fuel}{inject} {}",
        sched.join(","),
        file.display()
    )
}

/// Check one input.
pub fn check_input(c: &Campaign, index: u64) -> (phicc::ir::module::IrModule, Report) {
    let bytes = input_bytes(c.seed, index);
    let module = generate(&bytes, c.mode);
    let cfg = CheckConfig {
        mode: match c.mode {
            GenMode::Alloca => CheckMode::Pipeline,
            GenMode::Ssa => CheckMode::PhiElimOnly,
        },
        schedules: c.schedules.clone(),
        fuel: c.fuel,
        inputs: c.inputs.seeded_by(&bytes),
    };
    let report = check_module(&module, &cfg);
    (module, report)
}

/// Run the campaign.
pub fn run(c: &Campaign) -> anyhow::Result<Summary> {
    if let Some(out) = &c.out {
        std::fs::create_dir_all(out)?;
    }
    let start = std::time::Instant::now();
    let next = AtomicU64::new(0);
    let inconclusive = AtomicU64::new(0);
    let trapped = AtomicU64::new(0);
    let crossed = AtomicU64::new(0);
    let calls = AtomicU64::new(0);
    let calls_skipped = AtomicU64::new(0);
    let exhaustive = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let found = AtomicUsize::new(0);
    let findings: Mutex<Vec<Finding>> = Mutex::new(Vec::new());
    let bar = if c.progress {
        let b = indicatif::ProgressBar::new(c.count);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} inputs ({per_sec}) {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let io_error: Mutex<Option<std::io::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..c.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= c.count || c.max_findings.is_some_and(|m| found.load(Ordering::Relaxed) >= m) {
                    break;
                }
                let (module, report) = check_input(c, i);
                if report.inconclusive {
                    inconclusive.fetch_add(1, Ordering::Relaxed);
                }
                if report.trapped {
                    trapped.fetch_add(1, Ordering::Relaxed);
                }
                if report.crossed_cost_limit {
                    crossed.fetch_add(1, Ordering::Relaxed);
                }
                calls.fetch_add(report.calls, Ordering::Relaxed);
                calls_skipped.fetch_add(report.calls_skipped, Ordering::Relaxed);
                exhaustive.fetch_add(report.exhaustive_functions, Ordering::Relaxed);
                if let Some(failure) = report.failure {
                    found.fetch_add(1, Ordering::Relaxed);
                    let mut path = None;
                    if let Some(out) = &c.out {
                        let file = out.join(format!("finding-{}-{i:06}.ir", c.seed));
                        let mut text = String::new();
                        text.push_str(&format!(
                            "; oracle ir-campaign --seed {} --mode {:?} finding: input {i}\n",
                            c.seed, c.mode
                        ));
                        let call = failure.call().map(|call| call.phiopt_flags()).unwrap_or_default();
                        text.push_str(&format!(
                            "; replay: {}{call}\n",
                            replay_command(c.mode, &c.schedules, c.fuel, &file)
                        ));
                        if c.inputs.every_function {
                            let seed = c.inputs.seeded_by(&input_bytes(c.seed, i)).seed;
                            text.push_str(&format!(
                                "; reduce: oracle reduce-ir --every-function --inputs-seed {seed} FILE\n"
                            ));
                        }
                        for line in failure.to_string().lines() {
                            text.push_str(&format!("; {line}\n"));
                        }
                        text.push_str(&print_module(&module));
                        match crate::util::write_atomic(&file, text.as_bytes()) {
                            Ok(()) => path = Some(file),
                            Err(e) => *io_error.lock().unwrap() = Some(e),
                        }
                    }
                    let mut f = findings.lock().unwrap();
                    f.push(Finding {
                        index: i,
                        signature: failure.signature(),
                        path,
                    });
                    bar.set_message(format!("{} findings", f.len()));
                }
                done.fetch_add(1, Ordering::Relaxed);
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = io_error.into_inner().unwrap() {
        return Err(anyhow::anyhow!("cannot write a finding: {e}"));
    }
    let mut findings = findings.into_inner().unwrap();
    findings.sort_by_key(|f| f.index);
    Ok(Summary {
        inputs: done.load(Ordering::Relaxed) as u64,
        inconclusive: inconclusive.load(Ordering::Relaxed),
        trapped: trapped.load(Ordering::Relaxed),
        crossed_cost_limit: crossed.load(Ordering::Relaxed),
        calls: calls.load(Ordering::Relaxed),
        calls_skipped: calls_skipped.load(Ordering::Relaxed),
        exhaustive_functions: exhaustive.load(Ordering::Relaxed),
        findings,
        seconds: start.elapsed().as_secs_f64(),
    })
}
