//! The differential oracle for one C program (issue 8, items 1 and 4).
//!
//! The program is compiled by phicc in every configuration for every target
//! (in process, one frontend run per target, or one `phicc` per
//! configuration), assembled and linked into a static binary (the target's
//! gcc, or its linker directly: [`crate::toolchain::Linker`]), and run
//! through the runner; a
//! reference (the target's `gcc -O0`) gives the expected stdout and exit
//! status. When two configurations of one target produce identical assembly
//! the binary is built and run once. The reference runs first under a short
//! limit (a program it cannot finish is useless, and generated programs that
//! do not end quickly rarely end at all); each compiled binary may then take
//! the run limit or 30 times the reference's time, whichever is longer. The
//! cells are then classified, most
//! severe first:
//!
//! 1. *reference failure* (discarded): the reference does not build, or does
//!    not exit normally in time with a bounded output -- the program is bad;
//! 2. *compiler crash*: phicc exited with status 70, died of a signal or hung;
//! 3. *compiler error*: phicc (or the assembler/linker on its output)
//!    rejected a program the reference accepts;
//! 4. *mismatch*: a binary's stdout or exit status differs from the reference;
//! 5. *timeout*: a binary timed out. With a reference this is a finding even
//!    when every binary timed out: the reference finished within its short
//!    limit and each binary had at least ten times that (the run limit, or 30
//!    times the reference's time), so termination is an outcome the compiled
//!    program lost. Only without a reference (`--reference none`) is every
//!    binary timing out discarded as `all-timeout`: the program is merely slow;
//! 6. *agree*.

use crate::runner::{Captured, RunResult, Termination};
use crate::target::{Config, Target};
use crate::toolchain::{Step, StepOutcome, Toolchain};
use crate::util::content_hash;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Which reference the outputs are compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum ReferenceMode {
    /// One host `gcc -O0` run: for target-independent programs such as Csmith's.
    Host,
    /// Each target's own `gcc -O0` (programs with per-target inline asm).
    PerTarget,
    /// No reference: every cell is compared with the first one that ran.
    None,
}

phicc::named_enum! {
    /// The outcome classes of a program.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Class {
        Agree = "agree",
        Mismatch = "mismatch",
        CompilerCrash = "compiler-crash",
        CompilerError = "compiler-error",
        Timeout = "timeout",
        AllTimeout = "all-timeout",
        ReferenceFailure = "reference-failure",
    }
}

impl Class {
    /// Whether the class is a finding (a compiler bug) rather than agreement or a discarded program.
    pub fn is_finding(self) -> bool {
        matches!(
            self,
            Class::Mismatch | Class::CompilerCrash | Class::CompilerError | Class::Timeout
        )
    }
}

/// What one binary did.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Execution {
    pub termination: Termination,
    pub stdout: String,
    pub stdout_hash: String,
    pub stdout_truncated: bool,
    pub stderr: String,
    pub seconds: f64,
    pub command: String,
}

impl Execution {
    fn new(r: &RunResult, command: String) -> Execution {
        let text = |c: &Captured| String::from_utf8_lossy(&c.bytes).into_owned();
        Execution {
            termination: r.termination.clone(),
            stdout: text(&r.stdout),
            stdout_hash: content_hash(&r.stdout.bytes),
            stdout_truncated: r.stdout.truncated,
            stderr: text(&r.stderr),
            seconds: r.elapsed.as_secs_f64(),
            command,
        }
    }

    /// Whether two runs show the same observable behaviour.
    pub fn same_behaviour(&self, other: &Execution) -> bool {
        self.termination == other.termination
            && self.stdout_hash == other.stdout_hash
            && self.stdout_truncated == other.stdout_truncated
    }

    pub fn timed_out(&self) -> bool {
        matches!(
            self.termination,
            Termination::Timeout | Termination::ResourceLimit(crate::runner::Resource::CpuTime)
        )
    }
}

/// One (target, configuration) cell; `config == None` is the reference.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cell {
    pub target: Target,
    pub config: Option<Config>,
    pub compile: Option<Step>,
    pub asm_hash: Option<String>,
    pub link: Option<Step>,
    /// The configuration whose identical assembly was run instead.
    pub same_asm_as: Option<Config>,
    pub execution: Option<Execution>,
    /// This cell's part in the verdict (`agree`, `mismatch`, ...).
    pub verdict: String,
}

impl Cell {
    pub fn label(&self) -> String {
        format!("{}/{}", self.target, self.config.map_or("reference", |c| c.name()))
    }
}

/// Seconds spent per phase of a differential run.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Timings {
    /// Making the program (Csmith, cgen, irgen); the campaign sets it.
    #[serde(default)]
    pub generate: f64,
    pub compile: f64,
    pub link: f64,
    pub run: f64,
    pub reference: f64,
    /// References taken from the reference cache instead of built and run.
    #[serde(default)]
    pub references_cached: u64,
}

impl Timings {
    pub fn add(&mut self, o: &Timings) {
        self.generate += o.generate;
        self.compile += o.compile;
        self.link += o.link;
        self.run += o.run;
        self.reference += o.reference;
        self.references_cached += o.references_cached;
    }
}

/// The verdict on one program.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DiffReport {
    pub class: Class,
    /// The cells responsible for the class (`aarch64/mem2reg`, ...), sorted.
    pub cells_at_fault: Vec<String>,
    pub detail: String,
    pub cells: Vec<Cell>,
    pub timings: Timings,
    /// Whether mem2reg's phi copy-cost limit kept an alloca in memory, as
    /// the compile worker reported it for the first target's first
    /// configuration that ran mem2reg (`None`: no such compile, or phicc
    /// was spawned).
    #[serde(default)]
    pub crossed_cost_limit: Option<bool>,
}

impl DiffReport {
    /// What makes two findings the same bug at this level: the class and the cells at fault.
    pub fn signature(&self) -> String {
        format!("{}:{}", self.class.name(), self.cells_at_fault.join(","))
    }

    pub fn cell(&self, target: Target, config: Option<Config>) -> Option<&Cell> {
        self.cells.iter().find(|c| c.target == target && c.config == config)
    }

    /// The expected behaviour the cells of `target` were compared with.
    pub fn expected(&self, target: Target) -> Option<&Execution> {
        self.cell(target, None)
            .or_else(|| self.cells.iter().find(|c| c.config.is_none()))
            .and_then(|c| c.execution.as_ref())
    }

    /// The table `oracle diff` prints: one row per cell.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<8} {:<10} {:<18} {:<16} {:<16} {:>8}",
            "target", "config", "outcome", "status", "stdout hash", "time"
        );
        for c in &self.cells {
            let (status, hash, secs) = match (&c.execution, &c.compile, &c.link) {
                (Some(e), _, _) => (e.termination.describe(), e.stdout_hash.clone(), e.seconds),
                (None, Some(step), _) if !step.ok() => (step.outcome.describe(), "-".into(), step.seconds),
                (None, _, Some(step)) if !step.ok() => {
                    (format!("link {}", step.outcome.describe()), "-".into(), step.seconds)
                }
                _ => ("-".into(), "-".into(), 0.0),
            };
            let mut verdict = c.verdict.clone();
            if let Some(other) = c.same_asm_as {
                verdict.push_str(&format!(" (=asm {other})"));
            }
            let _ = writeln!(
                s,
                "{:<8} {:<10} {:<18} {:<16} {:<16} {:>7.2}s",
                c.target.name(),
                c.config.map_or("reference", |c| c.name()),
                verdict,
                status,
                hash,
                secs
            );
        }
        let _ = writeln!(s, "verdict: {} {}", self.class.name(), self.detail);
        s
    }
}

/// What to compare.
#[derive(Clone, Debug)]
pub struct DiffSpec {
    pub targets: Vec<Target>,
    pub configs: Vec<Config>,
    pub reference: ReferenceMode,
}

/// Run the differential oracle on `source`, building into `work` (which must exist).
/// An error is a tool failure (a command that could not be started).
pub fn diff_program(tools: &Toolchain, spec: &DiffSpec, source: &Path, work: &Path) -> std::io::Result<DiffReport> {
    let mut cells = Vec::new();
    let mut timings = Timings::default();
    let ref_targets: Vec<Target> = match spec.reference {
        ReferenceMode::Host => vec![crate::target::host()],
        ReferenceMode::PerTarget => spec.targets.clone(),
        ReferenceMode::None => vec![],
    };
    for &t in &ref_targets {
        let bin = work.join(format!("ref-{t}"));
        let (step, execution) = match tools.cached_reference(t, source) {
            Some(hit) => {
                timings.references_cached += 1;
                hit
            }
            None => {
                let step = tools.reference(t, source, &bin)?;
                timings.reference += step.seconds;
                let execution = if step.ok() {
                    let r = tools.run_reference(t, &bin)?;
                    timings.reference += r.elapsed.as_secs_f64();
                    Some(Execution::new(&r, Toolchain::run_command(t, &bin)))
                } else {
                    None
                };
                tools.store_reference(t, source, &step, &execution);
                (step, execution)
            }
        };
        cells.push(Cell {
            target: t,
            config: None,
            compile: Some(step),
            asm_hash: None,
            link: None,
            same_asm_as: None,
            execution,
            verdict: "reference".into(),
        });
    }
    // A bad reference makes the program useless: stop before compiling it with phicc.
    if let Some(bad) = cells.iter().find(|c| !reference_usable(c)) {
        let detail = match (&bad.execution, &bad.compile) {
            (Some(e), _) => format!("{}: the reference {}", bad.label(), describe_bad_run(e)),
            (None, Some(step)) => format!("{}: gcc {}", bad.label(), step.outcome.describe()),
            _ => String::new(),
        };
        return Ok(DiffReport {
            class: Class::ReferenceFailure,
            cells_at_fault: vec![bad.label()],
            detail,
            cells,
            timings,
            crossed_cost_limit: None,
        });
    }

    let mut crossed_cost_limit = None;
    for &t in &spec.targets {
        // A slow but finished reference stretches the limit of the binaries compared with it.
        let reference_time = cells
            .iter()
            .find(|c| c.config.is_none() && (c.target == t || spec.reference == ReferenceMode::Host))
            .and_then(|c| c.execution.as_ref())
            .map_or(Duration::ZERO, |e| Duration::from_secs_f64(e.seconds));
        let run_timeout = tools.run_timeout_after(reference_time);
        let mut built: Vec<(Config, String, usize)> = Vec::new(); // (config, asm hash, cell index)
        let compiled = tools.compile_configs(t, &spec.configs, source, work)?;
        for (&c, compiled) in spec.configs.iter().zip(compiled) {
            timings.compile += compiled.step.seconds;
            if crossed_cost_limit.is_none() {
                crossed_cost_limit = compiled.kept_by_cost_limit.map(|n| n > 0);
            }
            let mut cell = Cell {
                target: t,
                config: Some(c),
                compile: None,
                asm_hash: None,
                link: None,
                same_asm_as: None,
                execution: None,
                verdict: String::new(),
            };
            if compiled.step.ok() {
                let hash = content_hash(&std::fs::read(&compiled.assembly)?);
                cell.asm_hash = Some(hash.clone());
                if let Some((other, _, idx)) = built.iter().find(|(_, h, _)| *h == hash) {
                    let prev: &Cell = &cells[*idx];
                    cell.same_asm_as = Some(*other);
                    cell.link = prev.link.clone();
                    cell.execution = prev.execution.clone();
                } else {
                    let bin = work.join(format!("{t}-{c}"));
                    let link = tools.link_compiled(t, &compiled, &bin)?;
                    timings.link += link.seconds;
                    if link.ok() {
                        let r = tools.run(t, &bin, run_timeout)?;
                        timings.run += r.elapsed.as_secs_f64();
                        cell.execution = Some(Execution::new(&r, Toolchain::run_command(t, &bin)));
                    }
                    cell.link = Some(link);
                    built.push((c, hash, cells.len()));
                }
            }
            cell.compile = Some(compiled.step);
            cells.push(cell);
        }
    }
    let mut report = classify(cells, timings, spec.reference);
    report.crossed_cost_limit = crossed_cost_limit;
    Ok(report)
}

fn reference_usable(c: &Cell) -> bool {
    match &c.execution {
        Some(e) => matches!(e.termination, Termination::Exited(_)) && !e.stdout_truncated,
        None => false,
    }
}

fn describe_bad_run(e: &Execution) -> String {
    if e.stdout_truncated {
        "printed more than the output cap".into()
    } else {
        format!("ended with {}", e.termination.describe())
    }
}

/// Give every cell its verdict and the program its class.
fn classify(mut cells: Vec<Cell>, timings: Timings, mode: ReferenceMode) -> DiffReport {
    let host_ref = cells
        .iter()
        .find(|c| c.config.is_none())
        .and_then(|c| c.execution.clone());
    let first_run = cells
        .iter()
        .filter(|c| c.config.is_some())
        .filter_map(|c| c.execution.clone())
        .find(|e| !e.timed_out());
    let mut at_fault: Vec<(Class, String, String)> = Vec::new();
    let mut tested = 0;
    let mut timeouts = 0;
    for i in 0..cells.len() {
        let Some(config) = cells[i].config else { continue };
        tested += 1;
        let expected = match mode {
            ReferenceMode::PerTarget => cells
                .iter()
                .find(|c| c.config.is_none() && c.target == cells[i].target)
                .and_then(|c| c.execution.clone()),
            ReferenceMode::Host => host_ref.clone(),
            ReferenceMode::None => first_run.clone(),
        };
        let cell = &mut cells[i];
        let label = cell.label();
        let (class, why) = match (&cell.compile, &cell.link, &cell.execution) {
            (Some(step), _, _) if !step.ok() => match &step.outcome {
                StepOutcome::Rejected { .. } => (Class::CompilerError, first_line(&step.stderr)),
                other => (Class::CompilerCrash, other.describe()),
            },
            (_, Some(step), _) if !step.ok() => (
                Class::CompilerError,
                format!("the assembler/linker rejected the output: {}", first_line(&step.stderr)),
            ),
            (_, _, Some(e)) if e.timed_out() => {
                timeouts += 1;
                (Class::Timeout, e.termination.describe())
            }
            (_, _, Some(e)) => match &expected {
                Some(exp) if !exp.same_behaviour(e) => (
                    Class::Mismatch,
                    format!(
                        "{} with stdout {} where the reference gives {} with stdout {}",
                        e.termination.describe(),
                        e.stdout_hash,
                        exp.termination.describe(),
                        exp.stdout_hash
                    ),
                ),
                _ => (Class::Agree, String::new()),
            },
            _ => (Class::CompilerError, "no binary".into()),
        };
        let _ = config;
        cell.verdict = class.name().to_string();
        if class != Class::Agree {
            at_fault.push((class, label, why));
        }
    }
    let order = [
        Class::CompilerCrash,
        Class::CompilerError,
        Class::Mismatch,
        Class::Timeout,
    ];
    let class = order
        .into_iter()
        .find(|k| at_fault.iter().any(|(c, _, _)| c == k))
        .unwrap_or(Class::Agree);
    let class = if class == Class::Timeout && timeouts == tested && mode == ReferenceMode::None {
        Class::AllTimeout
    } else {
        class
    };
    let mut faulty: Vec<&(Class, String, String)> = at_fault
        .iter()
        .filter(|(c, _, _)| *c == class || (class == Class::AllTimeout && *c == Class::Timeout))
        .collect();
    faulty.sort_by(|a, b| a.1.cmp(&b.1));
    let detail = faulty
        .first()
        .map(|(_, label, why)| format!("({label}: {why})"))
        .unwrap_or_default();
    DiffReport {
        class,
        cells_at_fault: faulty.iter().map(|(_, l, _)| l.clone()).collect(),
        detail,
        cells,
        timings,
        crossed_cost_limit: None,
    }
}

fn first_line(s: &str) -> String {
    s.lines()
        .find(|l| l.contains("error"))
        .or_else(|| s.lines().next())
        .unwrap_or("")
        .chars()
        .take(200)
        .collect()
}

/// Copy of a program's build products worth keeping in a finding: the
/// assembly of every configuration.
pub fn assembly_files(work: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(work)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::Class;

    /// The name table and serde spell each class the same way.
    #[test]
    fn class_names_match_serde() {
        for c in Class::ALL {
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{}\"", c.name()));
            assert_eq!(Class::from_name(c.name()), Some(c));
        }
    }
}
