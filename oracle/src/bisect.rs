//! Bisection of a miscompile to one (pass, function) application, after
//! LLVM's opt-bisect (`-opt-bisect-limit` plus a binary search over it, as
//! LLVM's `utils/bisect` drives it): phicc's `--fopt-bisect-limit=N` runs
//! only the first N applications of its pipeline and prints each as a
//! `BISECT:` line, so the smallest N whose build fails names the application
//! that breaks the program.
//!
//! A build is a set of *units*, one per phicc invocation that compiles C
//! sources (`lapi.c -> lapi.o`); every unit numbers its applications from 1.
//! A [`Plan`] gives each unit a limit (-1: every application, 0: only the
//! required phi-elim). The search, given a `trial` that builds and tests one
//! plan ([`bisect`]):
//! 1. every unit at 0 must pass and every unit at -1 must fail (else the
//!    failure is not in the pass pipeline, or does not reproduce);
//! 2. the first failing unit: the smallest k such that units 1..k at -1 and
//!    the rest at 0 fail (binary search over k);
//! 3. the first failing application: units before it at -1, it at N, the rest
//!    at 0; the smallest failing N (binary search).
//!
//! Both ends of each search are trials that ran, so the result is a checked
//! pair: N-1 passes and N fails in the same context, whatever the search
//! assumed about monotonicity. A last trial says whether the unit alone at N
//! (every other unit at 0) fails too.
//!
//! When even limit 0 fails, the backend is bisected instead, if the failure
//! goes away with `PHICC_REGALLOC=off` (one stack slot per value): first the
//! unit, then the function, with `PHICC_REGALLOC_OFF=f,g` switching the
//! allocator off per function.
//!
//! Real builds call phicc through the wrapper `oracle bisect-cc` ([`cc_main`]),
//! which reads the plan from `$ORACLE_BISECT_DIR/plan.json`, adds the limit
//! to each compile, keeps the `BISECT:` lines out of the build's output and
//! caches every object by (command, directory, input contents, limit), so a
//! trial recompiles only the units whose limit changed. The cache assumes a
//! deterministic build from a fresh copy of the same sources.

use crate::util::{append_line, content_hash, read_jsonl, shell_quote};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::Instant;

/// The environment variable naming the bisection's state directory.
pub const STATE_ENV: &str = "ORACLE_BISECT_DIR";

/// How each unit of one trial build is compiled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// The compiler under test.
    pub phicc: PathBuf,
    /// Flags before the build's own (`--target=T`, the configuration's flags).
    pub flags: Vec<String>,
    /// The limit of a unit not in `limits` (-1: all applications).
    pub default_limit: i64,
    /// Per-unit limits.
    pub limits: BTreeMap<String, i64>,
    /// Units compiled with `PHICC_REGALLOC=off`.
    pub regalloc_off: Vec<String>,
    /// Per unit, functions compiled with the register allocator off
    /// (`PHICC_REGALLOC_OFF=f,g`).
    pub regalloc_off_functions: BTreeMap<String, Vec<String>>,
}

impl Plan {
    pub fn limit(&self, unit: &str) -> i64 {
        self.limits.get(unit).copied().unwrap_or(self.default_limit)
    }
}

/// One compile of a unit, as the wrapper records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invocation {
    pub unit: String,
    pub cwd: PathBuf,
    /// The build's arguments (the plan's flags and the limit not included).
    pub args: Vec<String>,
    pub limit: i64,
    /// The `BISECT:` lines of numbered applications, in order.
    pub log: PathBuf,
    pub status: i32,
    pub cached: bool,
}

impl Invocation {
    /// The numbered `BISECT:` lines of this compile.
    pub fn applications(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// An application named by a `BISECT:` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    pub number: u64,
    pub pass: String,
    /// The function, or `None` for a module pass.
    pub function: Option<String>,
}

/// Parse `BISECT: [NOT ]running pass (K) NAME on function (F)` / `on module`.
pub fn parse_bisect_line(line: &str) -> Option<Application> {
    let rest = line.strip_prefix("BISECT: ")?;
    let rest = rest.strip_prefix("NOT ").unwrap_or(rest);
    let rest = rest.strip_prefix("running pass (")?;
    let (number, rest) = rest.split_once(") ")?;
    let (pass, on) = rest.split_once(" on ")?;
    let function = match on {
        "module" => None,
        _ => Some(on.strip_prefix("function (")?.strip_suffix(')')?.to_string()),
    };
    Some(Application {
        number: number.parse().ok()?,
        pass: pass.to_string(),
        function,
    })
}

/// The smallest `n` in `lo+1..=hi` with `fails(n)`, given that `lo` passes
/// and `hi` fails (binary search; each probe is one trial).
pub fn first_failing(lo: u64, hi: u64, mut fails: impl FnMut(u64) -> Result<bool>) -> Result<u64> {
    let (mut good, mut bad) = (lo, hi);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if fails(mid)? {
            bad = mid;
        } else {
            good = mid;
        }
    }
    Ok(bad)
}

/// The outcome of one trial.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub fails: bool,
    /// Why it fails, or how it passed (one line).
    pub why: String,
    /// The compiles of the trial, in the order they ran.
    pub invocations: Vec<Invocation>,
}

/// What the bisection found.
#[derive(Clone, Debug)]
pub enum Finding {
    /// The failure does not reproduce with the whole pipeline.
    NoFailure { why: String },
    /// The failure remains with only the required passes, and the
    /// register allocator is not the cause either (or could not be isolated).
    NotInPipeline { why: String, backend: Option<String> },
    /// The register allocator, in `unit` (and `function`, when found).
    Backend {
        unit: String,
        function: Option<String>,
        why: String,
    },
    /// Application `application` of `unit` breaks the program.
    Application {
        unit: String,
        /// The unit's invocation (for the IR dump).
        invocation: Invocation,
        application: Application,
        line: String,
        of: u64,
        /// The failure of the trial at N, and the pass of the one at N-1.
        why_bad: String,
        /// Does the unit alone at N (every other unit at 0) fail too?
        alone_fails: Option<bool>,
    },
}

/// Progress lines on standard error.
fn progress(msg: &str) {
    eprintln!("bisect: {msg}");
}

/// Bisect with `trial` (which builds and tests one plan). `base` holds the
/// compiler and flags; its limits are replaced. `check_alone` spends one more
/// trial on whether the unit alone reproduces.
pub fn bisect(
    base: &Plan,
    check_alone: bool,
    trial: &mut dyn FnMut(&Plan, &str) -> Result<Verdict>,
) -> Result<Finding> {
    let with = |default_limit: i64, limits: BTreeMap<String, i64>| Plan {
        default_limit,
        limits,
        ..base.clone()
    };
    // Limit 0 first: its test output is the reference of `--compare-stdout`.
    let none = trial(
        &with(0, BTreeMap::new()),
        "every unit with only required passes (limit 0)",
    )?;
    if none.fails {
        let units = units_of(&none)?;
        let backend = bisect_backend(base, &units, trial)?;
        return Ok(backend.unwrap_or(Finding::NotInPipeline {
            why: none.why,
            backend: None,
        }));
    }
    let full = trial(&with(-1, BTreeMap::new()), "every unit, every application")?;
    if !full.fails {
        return Ok(Finding::NoFailure { why: full.why });
    }
    let units = units_of(&full)?;
    // Units 1..k at -1, the rest at 0.
    let prefix = |k: usize| -> BTreeMap<String, i64> {
        units
            .iter()
            .enumerate()
            .map(|(i, (u, _))| (u.clone(), if i < k { -1 } else { 0 }))
            .collect()
    };
    let k = first_failing(0, units.len() as u64, |k| {
        let label = format!("units 1..{k} of {} whole, the rest at 0", units.len());
        Ok(trial(&with(0, prefix(k as usize)), &label)?.fails)
    })? as usize;
    let (unit, invocation) = units[k - 1].clone();
    let lines = invocation.applications();
    let of = lines.len() as u64;
    progress(&format!("first failing unit: {unit} ({of} applications)"));
    if of == 0 {
        bail!("unit {unit} fails only with its passes, but printed no BISECT line");
    }
    let at = |n: u64| {
        let mut l = prefix(k - 1);
        l.insert(unit.clone(), n as i64);
        l
    };
    let mut why_bad = String::new();
    let n = first_failing(0, of, |n| {
        let v = trial(&with(0, at(n)), &format!("{unit} at limit {n} of {of}"))?;
        if v.fails {
            why_bad = v.why.clone();
        }
        Ok(v.fails)
    })?;
    if why_bad.is_empty() {
        // n == of: the failing end was the unit-stage trial.
        why_bad = trial(&with(0, at(n)), &format!("{unit} at limit {n} of {of}"))?.why;
    }
    let line = lines[(n - 1) as usize].clone();
    let application = parse_bisect_line(&line).with_context(|| format!("unreadable BISECT line `{line}`"))?;
    let alone_fails = if check_alone {
        let mut l = BTreeMap::new();
        l.insert(unit.clone(), n as i64);
        Some(
            trial(
                &with(0, l),
                &format!("{unit} alone at limit {n}, every other unit at 0"),
            )?
            .fails,
        )
    } else {
        None
    };
    Ok(Finding::Application {
        unit,
        invocation,
        application,
        line,
        of,
        why_bad,
        alone_fails,
    })
}

/// The units of a trial's build, in the order they were compiled, each with its invocation.
fn units_of(v: &Verdict) -> Result<Vec<(String, Invocation)>> {
    let mut units: Vec<(String, Invocation)> = Vec::new();
    for inv in &v.invocations {
        if !units.iter().any(|(u, _)| *u == inv.unit) {
            units.push((inv.unit.clone(), inv.clone()));
        }
    }
    if units.is_empty() {
        bail!("the build compiled no C source through the wrapper (does it use $CC?)");
    }
    progress(&format!("{} units: {}", units.len(), summary_of_units(&units)));
    Ok(units)
}

fn summary_of_units(units: &[(String, Invocation)]) -> String {
    let names: Vec<&str> = units.iter().map(|(u, _)| u.as_str()).take(6).collect();
    let more = if units.len() > 6 { ", ..." } else { "" };
    format!("{}{more}", names.join(", "))
}

/// The backend stage: with every unit at limit 0, does switching the
/// register allocator off make the failure go away? Then which unit, and
/// which function of it, needs it off.
fn bisect_backend(
    base: &Plan,
    units: &[(String, Invocation)],
    trial: &mut dyn FnMut(&Plan, &str) -> Result<Verdict>,
) -> Result<Option<Finding>> {
    let names: Vec<String> = units.iter().map(|(u, _)| u.clone()).collect();
    let plan = |off: Vec<String>, functions: BTreeMap<String, Vec<String>>| Plan {
        default_limit: 0,
        limits: BTreeMap::new(),
        regalloc_off: off,
        regalloc_off_functions: functions,
        ..base.clone()
    };
    let off = trial(
        &plan(names.clone(), BTreeMap::new()),
        "limit 0 and the register allocator off everywhere",
    )?;
    if off.fails {
        progress("fails with the register allocator off too: not the allocator");
        return Ok(None);
    }
    // Units 1..k with the allocator on.
    let k = first_failing(0, names.len() as u64, |k| {
        let label = format!("allocator on in units 1..{k} of {}", names.len());
        Ok(trial(&plan(names[k as usize..].to_vec(), BTreeMap::new()), &label)?.fails)
    })? as usize;
    let unit = names[k - 1].clone();
    let before: Vec<String> = names[k..].to_vec();
    // The functions of the unit, from its BISECT lines (one per function for a function pass).
    let mut functions: Vec<String> = Vec::new();
    for l in units[k - 1].1.applications() {
        if let Some(f) = parse_bisect_line(&l).and_then(|a| a.function) {
            if !functions.contains(&f) {
                functions.push(f);
            }
        }
    }
    let mut function = None;
    let mut why = String::from("fails with the allocator on in this unit only");
    if !functions.is_empty() {
        // Functions 1..j of the unit with the allocator on, the rest off.
        let with_on = |j: usize| {
            let mut m = BTreeMap::new();
            m.insert(unit.clone(), functions[j..].to_vec());
            m
        };
        let all_off = trial(
            &plan(before.clone(), with_on(0)),
            "the unit's functions all off by name",
        )?;
        if !all_off.fails {
            let j = first_failing(0, functions.len() as u64, |j| {
                let label = format!("allocator on in functions 1..{j} of {} of {unit}", functions.len());
                let v = trial(&plan(before.clone(), with_on(j as usize)), &label)?;
                if v.fails {
                    why = v.why.clone();
                }
                Ok(v.fails)
            })? as usize;
            function = Some(functions[j - 1].clone());
        } else {
            progress("per-function switch-off did not help (phicc without PHICC_REGALLOC_OFF?)");
        }
    }
    Ok(Some(Finding::Backend { unit, function, why }))
}

/// The function `name`'s text in printed IR (`define @name(` up to its `}`).
pub fn function_ir(ir: &str, name: &str) -> Option<String> {
    let head = format!("define @{name}(");
    let start = ir.lines().position(|l| l.starts_with(&head))?;
    let mut out = String::new();
    for l in ir.lines().skip(start) {
        out.push_str(l);
        out.push('\n');
        if l == "}" {
            return Some(out);
        }
    }
    Some(out)
}

/// The IR printed by `--print-ir-after PASS` in `stderr` (the last dump).
pub fn ir_after(stderr: &str) -> String {
    let start = stderr.rfind("; *** IR after").unwrap_or(stderr.len());
    stderr[start..]
        .lines()
        .filter(|l| !l.starts_with("BISECT: "))
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------------------
// The compiler wrapper.

/// Options of the C driver that take the next argument as their value.
const VALUE_OPTIONS: [&str; 14] = [
    "-o",
    "-I",
    "-D",
    "-U",
    "-l",
    "-L",
    "-include",
    "-MF",
    "-MT",
    "-MQ",
    "-x",
    "-isystem",
    "-idirafter",
    "--target",
];

/// The parts of a compile command the wrapper needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The C sources it compiles.
    pub sources: Vec<String>,
    /// The files it writes (`-o`, else `NAME.o`/`NAME.s` per source with
    /// `-c`/`-S`, else `a.out`); empty for `-E`.
    pub outputs: Vec<String>,
    /// The other operands (objects, archives: inputs of a link).
    pub inputs: Vec<String>,
    /// Preprocessing or dependency generation only: no pass runs.
    pub no_passes: bool,
}

/// Split a C driver command line.
pub fn parse_command(args: &[String]) -> Command {
    let (mut sources, mut inputs, mut output) = (Vec::new(), Vec::new(), None);
    let (mut c, mut s, mut e) = (false, false, false);
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if VALUE_OPTIONS.contains(&a.as_str()) {
            if a == "-o" {
                output = args.get(i + 1).cloned();
            }
            i += 2;
            continue;
        }
        match a.as_str() {
            "-c" => c = true,
            "-S" => s = true,
            "-E" | "-M" | "-MM" => e = true,
            _ if a.starts_with("-o") && a.len() > 2 => output = Some(a[2..].to_string()),
            _ if a.starts_with('-') => {}
            _ if a.ends_with(".c") => sources.push(a.clone()),
            _ => inputs.push(a.clone()),
        }
        i += 1;
    }
    let stem = |src: &str, ext: &str| {
        let name = Path::new(src).file_stem().map(|s| s.to_string_lossy().to_string());
        format!("{}.{ext}", name.unwrap_or_default())
    };
    let outputs = match (output, e) {
        (_, true) => Vec::new(),
        (Some(o), _) => vec![o],
        (None, _) if c => sources.iter().map(|src| stem(src, "o")).collect(),
        (None, _) if s => sources.iter().map(|src| stem(src, "s")).collect(),
        (None, _) => vec!["a.out".to_string()],
    };
    Command {
        no_passes: e || sources.is_empty(),
        sources,
        outputs,
        inputs,
    }
}

impl Command {
    /// The unit's name: its sources and outputs (`lapi.c -> lapi.o`).
    pub fn unit(&self) -> String {
        format!("{} -> {}", self.sources.join(" "), self.outputs.join(" "))
    }
}

/// `oracle bisect-cc ARGS...`: compile as phicc would, under the plan in
/// `$ORACLE_BISECT_DIR`. Exit status: phicc's, or 2 when the wrapper itself fails.
pub fn cc_main(args: Vec<String>) -> ExitCode {
    match cc(args) {
        Ok(status) => ExitCode::from(status.clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("oracle bisect-cc: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn cc(args: Vec<String>) -> Result<i32> {
    let dir = PathBuf::from(
        std::env::var_os(STATE_ENV).with_context(|| format!("{STATE_ENV} is not set (oracle bisect sets it)"))?,
    );
    let plan: Plan = serde_json::from_slice(&std::fs::read(dir.join("plan.json")).context("reading plan.json")?)?;
    let command = parse_command(&args);
    let mut full: Vec<String> = plan.flags.clone();
    full.extend(args.iter().cloned());
    if command.no_passes {
        let status = std::process::Command::new(&plan.phicc)
            .args(&full)
            .status()
            .with_context(|| format!("running {}", plan.phicc.display()))?;
        return Ok(status.code().unwrap_or(2));
    }
    let unit = command.unit();
    let limit = plan.limit(&unit);
    full.push(format!("--fopt-bisect-limit={limit}"));
    let regalloc_off = plan.regalloc_off.contains(&unit);
    let off_functions = plan.regalloc_off_functions.get(&unit).map(|f| f.join(","));
    let cwd = std::env::current_dir()?;
    // The cache key: everything that decides the output.
    let mut key = String::new();
    let meta = std::fs::metadata(&plan.phicc)?;
    key.push_str(&format!(
        "{}\0{}\0{:?}\0",
        plan.phicc.display(),
        meta.len(),
        meta.modified().ok()
    ));
    key.push_str(&format!("{}\0{regalloc_off}\0{off_functions:?}\0", cwd.display()));
    key.push_str(&format!("{:?}\0", std::env::var("PHICC_INJECT_BUG").ok()));
    for a in &full {
        key.push_str(a);
        key.push('\0');
    }
    let mut contents = Vec::new();
    for f in command.sources.iter().chain(&command.inputs) {
        if let Ok(bytes) = std::fs::read(cwd.join(f)) {
            contents.extend_from_slice(content_hash(&bytes).as_bytes());
        }
    }
    key.push_str(&String::from_utf8_lossy(&contents));
    let key = content_hash(key.as_bytes());
    let cache = dir.join("cache").join(&key);
    let log = dir.join("logs").join(format!("{key}.bisect"));
    let mut record = Invocation {
        unit,
        cwd: cwd.clone(),
        args: args.clone(),
        limit,
        log: log.clone(),
        status: 0,
        cached: false,
    };
    let hit = cache.join("done").exists()
        && command
            .outputs
            .iter()
            .enumerate()
            .all(|(i, _)| cache.join(i.to_string()).exists());
    if hit {
        for (i, o) in command.outputs.iter().enumerate() {
            std::fs::copy(cache.join(i.to_string()), cwd.join(o))?;
        }
        record.cached = true;
    } else {
        let mut cmd = std::process::Command::new(&plan.phicc);
        cmd.args(&full).stderr(Stdio::piped());
        if regalloc_off {
            cmd.env("PHICC_REGALLOC", "off");
        }
        if let Some(f) = &off_functions {
            cmd.env("PHICC_REGALLOC_OFF", f);
        }
        let out = cmd
            .output()
            .with_context(|| format!("running {}", plan.phicc.display()))?;
        std::io::stdout().write_all(&out.stdout)?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut bisect_lines = String::new();
        let mut rest = String::new();
        for l in stderr.lines() {
            if l.starts_with("BISECT: ") {
                if parse_bisect_line(l).is_some() {
                    bisect_lines.push_str(l);
                    bisect_lines.push('\n');
                }
            } else {
                rest.push_str(l);
                rest.push('\n');
            }
        }
        eprint!("{rest}");
        record.status = out.status.code().unwrap_or(128 + 9);
        std::fs::create_dir_all(log.parent().unwrap())?;
        std::fs::write(&log, bisect_lines)?;
        if record.status == 0 {
            std::fs::create_dir_all(&cache)?;
            for (i, o) in command.outputs.iter().enumerate() {
                std::fs::copy(cwd.join(o), cache.join(i.to_string()))?;
            }
            std::fs::write(cache.join("done"), b"")?;
        }
    }
    append_line(&dir.join("invocations.jsonl"), &serde_json::to_string(&record)?)?;
    Ok(record.status)
}

/// The compiles recorded since `invocations.jsonl` was last cleared.
pub fn read_invocations(dir: &Path) -> Result<Vec<Invocation>> {
    Ok(read_jsonl(&dir.join("invocations.jsonl"))?)
}

// ---------------------------------------------------------------------------
// Build-and-test trials.

/// A build to bisect: a source tree copied afresh for every trial, a build
/// command run in the copy with `$CC` naming the wrapper, and a test
/// command run there after it.
#[derive(Clone, Debug)]
pub struct BuildSpec {
    pub src: PathBuf,
    pub build: String,
    pub test: String,
    /// Also compare the test's standard output with the limit-0 build's.
    pub compare_stdout: bool,
    pub build_timeout: std::time::Duration,
    /// The test's wall-clock limit. A timeout fails the test (the program
    /// no longer terminates).
    pub test_timeout: std::time::Duration,
    /// Lower the limit, once the limit-0 build's test has passed, to ten
    /// times its time plus ten seconds (a pass that makes the program loop
    /// costs one such wait per trial, not the full limit).
    pub adaptive_timeout: bool,
    /// Extra environment of the build and test (`RUN`: the emulator prefix).
    pub env: Vec<(String, String)>,
}

/// The trials of one build bisection, in `work` (`trial/` the build tree,
/// `plan.json`, `cache/`, `logs/`).
pub struct BuildTrials {
    pub spec: BuildSpec,
    pub work: PathBuf,
    /// The wrapper script (`work/cc`).
    pub cc: PathBuf,
    pub count: usize,
    /// The limit-0 build's test output, once known.
    pub reference_stdout: Option<Vec<u8>>,
    /// The test's limit now (see [`BuildSpec::adaptive_timeout`]).
    pub test_timeout: std::time::Duration,
    pub started: Instant,
}

impl BuildTrials {
    /// Set up `work`: the wrapper script calling `oracle` (this executable) `bisect-cc`.
    pub fn new(spec: BuildSpec, work: PathBuf, oracle: &Path) -> Result<BuildTrials> {
        std::fs::create_dir_all(&work)?;
        let cc = work.join("cc");
        std::fs::write(
            &cc,
            format!(
                "#!/bin/sh\n# phicc under `oracle bisect` (see oracle/src/bisect.rs)\nexec {} bisect-cc \"$@\"\n",
                shell_quote(&oracle.display().to_string())
            ),
        )?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&cc, std::fs::Permissions::from_mode(0o755))?;
        Ok(BuildTrials {
            test_timeout: spec.test_timeout,
            spec,
            work,
            cc,
            count: 0,
            reference_stdout: None,
            started: Instant::now(),
        })
    }

    pub fn tree(&self) -> PathBuf {
        self.work.join("trial")
    }

    fn sh(&self, command: &str, timeout: std::time::Duration) -> Result<crate::runner::RunResult> {
        use crate::runner::{run, Job, Limits};
        let mut job = Job::new("sh")
            .arg("-c")
            .arg(command)
            .cwd(&self.tree())
            .env(STATE_ENV, self.work.display().to_string())
            .env("CC", self.cc.display().to_string());
        for (k, v) in &self.spec.env {
            job = job.env(k, v);
        }
        let limits = Limits {
            timeout,
            cpu_seconds: timeout.as_secs() * 4 + 1,
            address_space: None,
            file_size: 1 << 30,
            output_cap: 64 << 20,
        };
        run(&job, &limits).with_context(|| format!("running `{command}`"))
    }

    /// Build and test under `plan`.
    pub fn run(&mut self, plan: &Plan, label: &str) -> Result<Verdict> {
        use crate::runner::Termination;
        self.count += 1;
        let t0 = Instant::now();
        crate::util::write_atomic(&self.work.join("plan.json"), &serde_json::to_vec_pretty(plan)?)?;
        let _ = std::fs::remove_file(self.work.join("invocations.jsonl"));
        let tree = self.tree();
        if tree.exists() {
            std::fs::remove_dir_all(&tree)?;
        }
        let copy = std::process::Command::new("cp")
            .arg("-a")
            .arg(&self.spec.src)
            .arg(&tree)
            .status()?;
        if !copy.success() {
            bail!("cannot copy {} to {}", self.spec.src.display(), tree.display());
        }
        let b = self.sh(&self.spec.build, self.spec.build_timeout)?;
        let invocations = read_invocations(&self.work)?;
        let compiled = invocations.iter().filter(|i| !i.cached).count();
        let verdict = if b.termination != Termination::Exited(0) {
            let out = format!(
                "{}{}",
                String::from_utf8_lossy(&b.stdout.bytes),
                String::from_utf8_lossy(&b.stderr.bytes)
            );
            let log = self.work.join("failed-build.log");
            std::fs::write(&log, &out)?;
            // A build that fails with no failing compile is broken by
            // something else (a missing tool, a full disk): not a verdict.
            if invocations.iter().all(|i| i.status == 0) {
                bail!(
                    "the build fails ({}) with no failing phicc compile: {} (log: {})",
                    b.termination.describe(),
                    build_error(&out),
                    log.display()
                );
            }
            Verdict {
                fails: true,
                why: format!("the build fails ({}): {}", b.termination.describe(), build_error(&out)),
                invocations,
            }
        } else {
            let t = self.sh(&self.spec.test, self.test_timeout)?;
            let (fails, why) = if t.termination != Termination::Exited(0) {
                let text = format!(
                    "{}{}",
                    String::from_utf8_lossy(&t.stdout.bytes),
                    String::from_utf8_lossy(&t.stderr.bytes)
                );
                let last = text
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty() && !l.starts_with('\t') && !l.starts_with("stack traceback"))
                    .unwrap_or("")
                    .chars()
                    .take(160)
                    .collect::<String>();
                (true, format!("the test {}: {last}", t.termination.describe()))
            } else if self.spec.compare_stdout && self.reference_stdout.as_ref().is_some_and(|r| *r != t.stdout.bytes) {
                let reference = self.reference_stdout.as_deref().unwrap_or_default();
                (true, first_difference(reference, &t.stdout.bytes))
            } else {
                (false, "the test passes".to_string())
            };
            if !fails && plan.default_limit == 0 && plan.limits.is_empty() && self.reference_stdout.is_none() {
                self.reference_stdout = Some(t.stdout.bytes.clone());
                if self.spec.adaptive_timeout {
                    let limit = t.elapsed * 10 + std::time::Duration::from_secs(10);
                    if limit < self.test_timeout {
                        self.test_timeout = limit;
                        progress(&format!(
                            "the test took {:.1} s: later tests time out after {:.0} s",
                            t.elapsed.as_secs_f64(),
                            limit.as_secs_f64()
                        ));
                    }
                }
            }
            Verdict {
                fails,
                why,
                invocations,
            }
        };
        progress(&format!(
            "trial {}: {label}: {} ({} compiles, {} cached; {:.1} s)",
            self.count,
            if verdict.fails { "FAILS" } else { "passes" },
            compiled,
            verdict.invocations.len() - compiled,
            t0.elapsed().as_secs_f64()
        ));
        if verdict.fails {
            progress(&format!("  {}", verdict.why));
        }
        Ok(verdict)
    }
}

/// The line of a failed build worth reporting: the first diagnostic
/// (`error:`; make echoes commands with `-Wfatal-errors`), else the
/// realprogs choice.
fn build_error(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    match lines.iter().position(|l| l.contains("error:")) {
        Some(i) => {
            let mut l = lines[i].trim().to_string();
            // "verifier failed after inline:" is followed by what failed.
            if l.ends_with(':') {
                if let Some(next) = lines.get(i + 1) {
                    l = format!("{l} {}", next.trim());
                }
            }
            l.chars().take(240).collect()
        }
        None => crate::realprogs::first_error(output),
    }
}

/// The function a compiler diagnostic names: the verifier's `@f: ...` or
/// `in function 'f'`.
pub fn function_in_diagnostic(why: &str) -> Option<String> {
    if let Some(rest) = why.split("in function '").nth(1) {
        return rest.split('\'').next().map(str::to_string);
    }
    let at = why.split(" @").nth(1).or_else(|| why.strip_prefix('@'))?;
    let name = at.split(':').next()?;
    (!name.is_empty() && !name.contains(' ')).then(|| name.to_string())
}

/// Where a test's output departs from the limit-0 build's: the first line that differs.
pub fn first_difference(reference: &[u8], output: &[u8]) -> String {
    let (r, o) = (String::from_utf8_lossy(reference), String::from_utf8_lossy(output));
    let (mut rl, mut ol) = (r.lines(), o.lines());
    let mut n = 1;
    loop {
        match (rl.next(), ol.next()) {
            (Some(a), Some(b)) if a == b => n += 1,
            (a, b) => {
                let cut = |l: Option<&str>| match l {
                    Some(l) => format!("`{}`", l.chars().take(80).collect::<String>()),
                    None => "the end".to_string(),
                };
                return format!(
                    "the test's output differs from the limit-0 build's at line {n}: {} instead of {}",
                    cut(b),
                    cut(a)
                );
            }
        }
    }
}

/// Re-run `inv` with `--print-ir-after PASS` at `limit`, returning the IR
/// printed (the whole module).
pub fn dump_ir(plan: &Plan, inv: &Invocation, pass: &str, limit: u64, out: &Path) -> Result<String> {
    let mut args = inv.args.clone();
    // The output goes to a scratch file, not the build's.
    let mut i = 0;
    while i < args.len() {
        if args[i] == "-o" && i + 1 < args.len() {
            args[i + 1] = out.display().to_string();
            i += 1;
        } else if args[i].starts_with("-o") && args[i].len() > 2 {
            args[i] = format!("-o{}", out.display());
        }
        i += 1;
    }
    let mut cmd = std::process::Command::new(&plan.phicc);
    cmd.args(&plan.flags)
        .args(&args)
        .arg(format!("--fopt-bisect-limit={limit}"))
        .arg("--print-ir-after")
        .arg(pass)
        .current_dir(&inv.cwd);
    let o = cmd.output()?;
    let _ = std::fs::remove_file(out);
    Ok(ir_after(&String::from_utf8_lossy(&o.stderr)))
}

/// A unified diff of two texts (`diff -u`), at most `max_lines` lines.
pub fn unified_diff(before: &Path, after: &Path, max_lines: usize) -> String {
    let o = std::process::Command::new("diff")
        .arg("-u")
        .arg(before)
        .arg(after)
        .output();
    match o {
        Ok(o) => {
            let text = String::from_utf8_lossy(&o.stdout);
            let lines: Vec<&str> = text.lines().collect();
            let mut s = lines.iter().take(max_lines).copied().collect::<Vec<_>>().join("\n");
            if lines.len() > max_lines {
                s.push_str(&format!("\n... ({} more lines)", lines.len() - max_lines));
            }
            s
        }
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bisect_lines_parse() {
        assert_eq!(
            parse_bisect_line("BISECT: running pass (12) gvn on function (luaV_execute)"),
            Some(Application {
                number: 12,
                pass: "gvn".into(),
                function: Some("luaV_execute".into())
            })
        );
        assert_eq!(
            parse_bisect_line("BISECT: NOT running pass (4) inline on module"),
            Some(Application {
                number: 4,
                pass: "inline".into(),
                function: None
            })
        );
        assert_eq!(
            parse_bisect_line("BISECT: running required pass phi-elim on module"),
            None
        );
    }

    #[test]
    fn binary_search_finds_the_first_failing_probe() {
        for culprit in 1..=40u64 {
            let mut probes = 0;
            let n = first_failing(0, 40, |n| {
                probes += 1;
                Ok(n >= culprit)
            })
            .unwrap();
            assert_eq!(n, culprit);
            assert!(probes <= 6, "{probes} probes for 40");
        }
    }

    #[test]
    fn commands_split_into_sources_and_outputs() {
        let words = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        let c = parse_command(&words("-std=c99 -O2 -Wall -DLUA_USE_LINUX -c -o lapi.o lapi.c"));
        assert_eq!(c.unit(), "lapi.c -> lapi.o");
        assert!(!c.no_passes);
        let c = parse_command(&words("-c -I include x.c y.c"));
        assert_eq!(c.outputs, ["x.o", "y.o"]);
        let c = parse_command(&words("-o lua lua.o liblua.a -lm"));
        assert!(c.no_passes);
        assert_eq!(c.inputs, ["lua.o", "liblua.a"]);
        assert!(parse_command(&words("-E x.c")).no_passes);
    }

    #[test]
    fn diagnostics_name_their_function() {
        let why = "the build fails (exit 2): phicc: internal compiler error: verifier failed after inline: @luaK_finish: bb1468: inst 0";
        assert_eq!(function_in_diagnostic(why).as_deref(), Some("luaK_finish"));
        let why = "phicc: internal compiler error: in function 'forbody': %153 is used but never defined";
        assert_eq!(function_in_diagnostic(why).as_deref(), Some("forbody"));
        assert_eq!(function_in_diagnostic("the test exit 1: x.lua:3: @ failed"), None);
    }

    #[test]
    fn output_differences_name_the_first_line() {
        assert_eq!(
            first_difference(b"a\nb\nc\n", b"a\nx\nc\n"),
            "the test's output differs from the limit-0 build's at line 2: `x` instead of `b`"
        );
        assert_eq!(
            first_difference(b"a\nb\n", b"a\n"),
            "the test's output differs from the limit-0 build's at line 2: the end instead of `b`"
        );
    }

    #[test]
    fn function_text_is_cut_from_a_module() {
        let ir = "global @g: i32\n\ndefine @f(i32) -> i32 {\nbb0:\n  ret 0i32\n}\n\ndefine @main() -> i32 {\nbb0:\n  ret 1i32\n}\n";
        assert_eq!(
            function_ir(ir, "main").unwrap(),
            "define @main() -> i32 {\nbb0:\n  ret 1i32\n}\n"
        );
        assert!(function_ir(ir, "fx").is_none());
    }
}
