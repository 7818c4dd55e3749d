//! The one runner of file-driven tests, in the manner of Cranelift's
//! filetests: IR test files with `test` and `target` headers, plus the C
//! golden files of lowering and of diagnostics. One test binary
//! (`harness = false`, libtest-compatible through `libtest-mimic`, so
//! `cargo test` filters and `cargo nextest` work) with one trial per file and
//! command, and a summary line that counts and names what was skipped.
//!
//! # IR test files
//!
//! Every `.ir` file under `tests/filetests/` (by habit `pass/` for pass
//! tests, `run/` for executable backend tests, `text/` for format examples,
//! `verify/` for verifier tests) and `corpora/{ir,regressions}/` is a module
//! in the textual IR (so `phiopt` and the reducers read it as is) whose first
//! comment lines are its headers:
//!
//! - `; test verify` — the module verifies (SSA mode);
//! - `; test verify-error` — it does not, and every `; error: text` line is a
//!   substring of the verifier's messages;
//! - `; test roundtrip` — printing the parsed module gives the file back
//!   exactly, without its comment lines;
//! - `; test interpret` — every `; run:` line runs in the reference
//!   interpreter under each schedule: it must end (no out of fuel, no
//!   `unsupported` trap), give the same outcome twice, return the value the
//!   line states and print the `;>` lines when the file has them;
//! - `; test pass <spec>` — the passes `Pipeline::parse(spec)` names run with
//!   the verifier after each one; after each pass every `; run:` outcome must
//!   equal the one before the passes (which must be conclusive); the printed
//!   result must contain the `; check:` lines in order (substrings, each on a
//!   later line), no line with a `; not:` text, and the statistics every
//!   `; stats:` text;
//! - `; test run` — for each target of the `; target` headers (default: all),
//!   the module is compiled to assembly twice (`phi-elim` alone, the IR as
//!   written, and `mem2reg-pipeline`), linked by the target's gcc with the C
//!   driver of the `;|` lines, and run natively or under QEMU; the stdout must
//!   be the `;>` lines and the exit status 0 — or, when the file also says
//!   `test interpret`, both must equal the interpreter's on `@main` (exit
//!   status its return value modulo 256). Each configuration is also built
//!   from the integrated assembler's object, which must give the same run.
//! - `; target x86_64 aarch64 riscv64` — the targets of `test run`.
//!
//! Other directives, anywhere in the comments: `; run: @f(1, 2) == 3`
//! (`== N` optional; a trailing `schedule K` restricts the line to that
//! schedule), `; schedules: 0, 1, 2` or `0..16` (default `0`),
//! `; schedules-differ` (for each run line without its own schedule, the
//! schedules must not all give the same outcome: proof that an asm goto
//! takes both edges).
//!
//! # Golden C files
//!
//! - `tests/lowering/*.c`: the IR after lowering must be exactly the `.ir`
//!   file beside it (a first line `// target: aarch64` picks the target,
//!   default x86_64), and it must survive the mem2reg pipeline with the
//!   verifier after each pass;
//! - `tests/diagnostics/*.c` (named by the C11 clause): compiling must fail
//!   with exactly the text of the `.expected` file beside it.
//!
//! # Blessing, skips and CI
//!
//! `BLESS=1 cargo test -p phicc --test filetests` rewrites the golden files
//! and the `; check:` lines of every IR file that has some, from the current
//! output. A `test run` whose gcc or QEMU is missing is skipped, counted and
//! named in the summary line; under `CI=true` it fails instead. A filter
//! argument selects trials by name: `cargo test -p phicc --test filetests -- abi_scalars`.

#[path = "support/run_target.rs"]
mod run_target;
#[path = "support/skip.rs"]
mod skip;

use libtest_mimic::{Arguments, Failed, Trial};
use phicc::driver::{compile_to_ir, pipeline_for, CompileError, FrontendOptions};
use phicc::ir::interp::{self, Outcome, RunConfig, RunResult, TrapKind};
use phicc::ir::module::IrModule;
use phicc::ir::text::{parse_module, print_module};
use phicc::ir::verify::{verify_module, VerifyMode};
use phicc::passes::mem2reg::{promote_with_options, PromoteOptions};
use phicc::passes::Pipeline;
use phicc::target::Target;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Interpreter fuel for every run.
const FUEL: u64 = 50_000_000;

// ---------------------------------------------------------------------------
// The file format
// ---------------------------------------------------------------------------

/// One `test` header.
#[derive(Clone, Debug, PartialEq)]
enum Command {
    Verify,
    VerifyError,
    Roundtrip,
    Interpret,
    Pass(String),
    Run,
}

impl Command {
    fn parse(s: &str) -> Result<Command, String> {
        let (kind, rest) = s.split_once(' ').unwrap_or((s, ""));
        let rest = rest.trim();
        let cmd = match kind {
            "verify" => Command::Verify,
            "verify-error" => Command::VerifyError,
            "roundtrip" => Command::Roundtrip,
            "interpret" => Command::Interpret,
            "run" => Command::Run,
            "pass" => {
                Pipeline::parse(rest)?;
                if rest.is_empty() {
                    return Err("`test pass` needs a pass list".into());
                }
                return Ok(Command::Pass(rest.to_string()));
            }
            _ => return Err(format!("unknown test command `{s}`")),
        };
        if !rest.is_empty() {
            return Err(format!("`test {kind}` takes no arguments"));
        }
        Ok(cmd)
    }

    fn label(&self) -> String {
        match self {
            Command::Verify => "verify".into(),
            Command::VerifyError => "verify-error".into(),
            Command::Roundtrip => "roundtrip".into(),
            Command::Interpret => "interpret".into(),
            Command::Pass(spec) => format!("pass {spec}"),
            Command::Run => "run".into(),
        }
    }
}

/// One `; run:` line.
#[derive(Clone, Debug)]
struct RunLine {
    entry: String,
    args: Vec<i128>,
    expect: Option<i128>,
    /// Only under this schedule (else under every schedule of the file).
    schedule: Option<u64>,
}

/// Everything a file's comments say.
#[derive(Clone, Debug, Default)]
struct Directives {
    commands: Vec<Command>,
    targets: Option<Vec<Target>>,
    runs: Vec<RunLine>,
    schedules: Vec<u64>,
    schedules_differ: bool,
    checks: Vec<String>,
    nots: Vec<String>,
    stats: Vec<String>,
    errors: Vec<String>,
    driver: String,
    stdout: Option<String>,
}

fn parse_run(spec: &str) -> Result<RunLine, String> {
    let spec = spec.trim();
    let (spec_main, schedule) = match spec.rsplit_once(" schedule ") {
        Some((a, s)) => (
            a.trim(),
            Some(s.trim().parse::<u64>().map_err(|e| format!("`{spec}`: {e}"))?),
        ),
        None => (spec, None),
    };
    let (call, expect) = match spec_main.split_once("==") {
        Some((c, e)) => (
            c.trim(),
            Some(e.trim().parse::<i128>().map_err(|e| format!("`{spec}`: {e}"))?),
        ),
        None => (spec_main, None),
    };
    let call = call
        .strip_prefix('@')
        .ok_or_else(|| format!("`{spec}`: expected @name(args)"))?;
    let (name, rest) = call.split_once('(').ok_or_else(|| format!("`{spec}`: expected ("))?;
    let args = rest.strip_suffix(')').ok_or_else(|| format!("`{spec}`: expected )"))?;
    let args = args
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|a| a.parse::<i128>().map_err(|e| format!("`{spec}`: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RunLine {
        entry: name.trim().to_string(),
        args,
        expect,
        schedule,
    })
}

fn parse_schedules(v: &str) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    for s in v.split(',').map(str::trim) {
        if let Some((a, b)) = s.split_once("..") {
            let a: u64 = a.trim().parse().map_err(|e| format!("schedules: {e}"))?;
            let b: u64 = b.trim().parse().map_err(|e| format!("schedules: {e}"))?;
            out.extend(a..b);
        } else {
            out.push(s.parse().map_err(|e| format!("schedules: {e}"))?);
        }
    }
    Ok(out)
}

fn parse_directives(text: &str) -> Result<Directives, String> {
    let mut d = Directives::default();
    let mut in_header = true;
    let mut stdout = String::new();
    let mut has_stdout = false;
    for line in text.lines() {
        if let Some(c) = line.strip_prefix(";|") {
            d.driver.push_str(c.strip_prefix(' ').unwrap_or(c));
            d.driver.push('\n');
            in_header = false;
            continue;
        }
        if let Some(o) = line.strip_prefix(";>") {
            stdout.push_str(o.strip_prefix(' ').unwrap_or(o));
            stdout.push('\n');
            has_stdout = true;
            in_header = false;
            continue;
        }
        let Some(body) = line.trim_start().strip_prefix(';') else {
            in_header = false;
            continue;
        };
        let body = body.trim();
        // Headers: the file's first lines, `test ...` and `target ...`.
        if in_header {
            if let Some(c) = body.strip_prefix("test ") {
                d.commands.push(Command::parse(c.trim())?);
                continue;
            }
            if let Some(list) = body.strip_prefix("target ") {
                let mut ts = Vec::new();
                for t in list.split_whitespace() {
                    ts.push(Target::from_name(t).ok_or_else(|| format!("unknown target `{t}`"))?);
                }
                d.targets.get_or_insert_with(Vec::new).extend(ts);
                continue;
            }
            in_header = false;
        }
        if let Some(v) = body.strip_prefix("run:") {
            d.runs.push(parse_run(v)?);
        } else if let Some(v) = body.strip_prefix("schedules:") {
            d.schedules.extend(parse_schedules(v)?);
        } else if body == "schedules-differ" {
            d.schedules_differ = true;
        } else if let Some(v) = body.strip_prefix("check:") {
            d.checks.push(v.trim().to_string());
        } else if let Some(v) = body.strip_prefix("not:") {
            d.nots.push(v.trim().to_string());
        } else if let Some(v) = body.strip_prefix("stats:") {
            d.stats.push(v.trim().to_string());
        } else if let Some(v) = body.strip_prefix("error:") {
            d.errors.push(v.trim().to_string());
        }
    }
    if d.schedules.is_empty() {
        d.schedules.push(0);
    }
    d.stdout = has_stdout.then_some(stdout);
    if d.commands.is_empty() {
        return Err("no `; test` header".into());
    }
    if d.commands.iter().filter(|c| matches!(c, Command::Pass(_))).count() > 1 {
        return Err("one `test pass` per file (its `; check:` lines belong to it)".into());
    }
    if d.targets.is_some() && !d.commands.contains(&Command::Run) {
        return Err("`; target` headers without `test run`".into());
    }
    Ok(d)
}

// ---------------------------------------------------------------------------
// Running modules in the interpreter
// ---------------------------------------------------------------------------

/// One interpreter run of a file: a `; run:` line under one schedule.
struct Case<'a> {
    run: &'a RunLine,
    schedule: u64,
}

impl Case<'_> {
    fn label(&self) -> String {
        format!("@{}{:?} schedule {}", self.run.entry, self.run.args, self.schedule)
    }

    fn config(&self) -> RunConfig {
        RunConfig {
            entry: self.run.entry.clone(),
            args: self.run.args.iter().map(|&a| a as u128).collect(),
            schedule_seed: self.schedule,
            fuel: FUEL,
        }
    }
}

fn cases(d: &Directives) -> Vec<Case<'_>> {
    let mut out = Vec::new();
    for run in &d.runs {
        match run.schedule {
            Some(schedule) => out.push(Case { run, schedule }),
            None => out.extend(d.schedules.iter().map(|&schedule| Case { run, schedule })),
        }
    }
    out
}

fn run_all(module: &IrModule, d: &Directives) -> Vec<Outcome> {
    cases(d).iter().map(|c| interp::run(module, &c.config())).collect()
}

/// The bits an expected result has as a value of the entry's return type.
fn expected_bits(module: &IrModule, entry: &str, v: i128) -> u128 {
    let bits = module.function(entry).map_or(64, |f| f.return_type.bits());
    if bits >= 128 {
        v as u128
    } else {
        (v as u128) & ((1u128 << bits) - 1)
    }
}

// ---------------------------------------------------------------------------
// The commands
// ---------------------------------------------------------------------------

fn parse(name: &str, text: &str) -> Result<IrModule, String> {
    parse_module(text).map_err(|e| format!("{name}:{e}"))
}

fn test_verify(name: &str, text: &str) -> Result<(), String> {
    verify_module(&parse(name, text)?, VerifyMode::Ssa).map_err(|e| format!("does not verify:\n{e}"))
}

fn test_verify_error(name: &str, text: &str, d: &Directives) -> Result<(), String> {
    if d.errors.is_empty() {
        return Err("`test verify-error` needs `; error:` lines".into());
    }
    let Err(e) = verify_module(&parse(name, text)?, VerifyMode::Ssa) else {
        return Err("verifies, but the file expects verifier errors".into());
    };
    let messages = e.to_string();
    let missing: Vec<&String> = d.errors.iter().filter(|x| !messages.contains(x.as_str())).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("verifier messages lack {missing:?}:\n{messages}"))
    }
}

fn test_roundtrip(name: &str, text: &str) -> Result<(), String> {
    let m = parse(name, text)?;
    if m.functions.is_empty() {
        return Err("defines no function".into());
    }
    // Comments are not kept; compare against the file without its comment lines.
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with(';'))
        .map(|l| format!("{l}\n"))
        .collect();
    let printed = print_module(&m);
    if printed != body.trim_start() {
        return Err(format!("not in canonical form; it prints as\n{printed}"));
    }
    Ok(())
}

fn test_interpret(name: &str, text: &str, d: &Directives) -> Result<(), String> {
    if d.runs.is_empty() {
        return Err("`test interpret` needs `; run:` lines".into());
    }
    let module = parse(name, text)?;
    let mut failures = Vec::new();
    let cases = cases(d);
    let outcomes: Vec<Outcome> = cases.iter().map(|c| interp::run(&module, &c.config())).collect();
    for (c, o) in cases.iter().zip(&outcomes) {
        let label = c.label();
        match &o.result {
            RunResult::OutOfFuel => failures.push(format!("{label}: out of fuel")),
            RunResult::Trap(TrapKind::Unsupported(_)) => failures.push(format!("{label}: {}", o.result)),
            _ => {}
        }
        if &interp::run(&module, &c.config()) != o {
            failures.push(format!("{label}: two runs differ"));
        }
        if let Some(want) = c.run.expect {
            let bits = expected_bits(&module, &c.run.entry, want);
            if o.result != RunResult::Returned(Some(bits)) {
                failures.push(format!("{label}: expected {want}, got {}", o.result));
            }
        }
        if let Some(want) = &d.stdout {
            let got = String::from_utf8_lossy(&o.stdout);
            if got != *want {
                failures.push(format!("{label}: stdout\n{got}expected\n{want}"));
            }
        }
    }
    if d.schedules_differ {
        for run in d.runs.iter().filter(|r| r.schedule.is_none()) {
            let per_run: Vec<&Outcome> = cases
                .iter()
                .zip(&outcomes)
                .filter(|(c, _)| std::ptr::eq(c.run, run))
                .map(|(_, o)| o)
                .collect();
            if per_run.iter().all(|o| *o == per_run[0]) {
                failures.push(format!("@{}: every schedule gives the same outcome", run.entry));
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// Runs `test pass`; returns the printed result (for blessing).
fn test_pass(name: &str, text: &str, spec: &str, d: &Directives) -> Result<String, String> {
    let original = parse(name, text)?;
    let cases = cases(d);
    let baseline = run_all(&original, d);
    let mut failures: Vec<String> = Vec::new();
    for (c, o) in cases.iter().zip(&baseline) {
        if o.is_inconclusive() {
            failures.push(format!("{}: out of fuel before the passes", c.label()));
        }
    }
    let mut module = original.clone();
    let mut pipeline = Pipeline::parse(spec)?;
    pipeline.verify_each = true;
    let mut hook = |pass: &str, m: &IrModule| {
        for (k, after) in run_all(m, d).into_iter().enumerate() {
            if after != baseline[k] {
                failures.push(format!(
                    "{}: outcome changed after {pass}\n--- before ---\n{}--- after ---\n{}--- IR ---\n{}",
                    cases[k].label(),
                    baseline[k],
                    after,
                    print_module(m)
                ));
            }
        }
    };
    let stats = match pipeline.run(&mut module, &mut hook) {
        Ok(s) => s.to_string(),
        Err(e) => {
            failures.push(format!("{e}"));
            String::new()
        }
    };
    let printed = print_module(&module);
    let lines: Vec<&str> = printed.lines().collect();
    if !blessing() {
        let mut pos = 0;
        for c in &d.checks {
            match lines[pos..].iter().position(|l| l.contains(c.as_str())) {
                Some(k) => pos += k + 1,
                None => {
                    failures.push(format!("check not found (in order): `{c}`"));
                    break;
                }
            }
        }
    }
    for n in &d.nots {
        if let Some(l) = lines.iter().find(|l| l.contains(n.as_str())) {
            failures.push(format!("`{n}` must not appear, found: `{l}`"));
        }
    }
    for s in &d.stats {
        if !stats.contains(s.as_str()) {
            failures.push(format!("stats lack `{s}`:\n{stats}"));
        }
    }
    if failures.is_empty() {
        Ok(printed)
    } else {
        Err(format!("{}\n--- result ---\n{printed}", failures.join("\n")))
    }
}

/// `BLESS=1` (any value but empty or `0`) asks to regenerate expected output.
fn blessing() -> bool {
    std::env::var("BLESS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The file with its `; check:` lines replaced by the printed result.
fn blessed(text: &str, printed: &str) -> String {
    let mut out: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("; check:"))
        .map(|l| format!("{l}\n"))
        .collect();
    while out.ends_with("\n\n") {
        out.pop();
    }
    out.push('\n');
    for l in printed
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with(';'))
    {
        out.push_str(&format!("; check: {}\n", l.trim()));
    }
    out
}

fn work_dir(target: Target) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("filetests_{}", target.name()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Links and runs one configuration from assembly text (`.s`) or an object
/// file (`.o`); returns (stdout, exit status).
fn build_and_run(target: Target, stem: &str, code: &[u8], ext: &str, driver: &str) -> Result<(String, i32), String> {
    let dir = work_dir(target);
    let stem = format!("{stem}.{ext}");
    let s_path = dir.join(format!("{stem}.{ext}"));
    let exe = dir.join(&stem);
    std::fs::write(&s_path, code).map_err(|e| e.to_string())?;
    let mut cmd = run_target::gcc_command(target);
    cmd.arg("-o").arg(&exe).arg(&s_path);
    if !driver.is_empty() {
        let c_path = dir.join(format!("{stem}.driver.c"));
        std::fs::write(&c_path, driver).map_err(|e| e.to_string())?;
        cmd.arg(&c_path);
    }
    cmd.arg("-lm");
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run the {} gcc: {e}", target.name()))?;
    if !out.status.success() {
        return Err(format!(
            "gcc failed on {}:\n{}",
            s_path.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let out = run_target::run_binary(target, &exe, 20).map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        run_target::exit_code(&out),
    ))
}

fn test_run(name: &str, stem: &str, text: &str, d: &Directives, target: Target) -> Result<(), String> {
    let module = parse(name, text)?;
    let mut results = Vec::new();
    for (config, passes) in [("asis", "phi-elim"), ("mem2reg", "mem2reg-pipeline")] {
        let mut m = module.clone();
        let mut p = Pipeline::parse(passes)?;
        p.verify_each = true;
        p.run(&mut m, &mut |_, _| {}).map_err(|e| format!("{config}: {e}"))?;
        let asm = phicc::backend::emit_assembly(&m, target).map_err(|e| format!("{config}: {e}"))?;
        let stem = format!("{stem}.{config}");
        let (stdout, code) = build_and_run(target, &stem, asm.as_bytes(), "s", &d.driver)?;
        match phicc::backend::emit_object(&m, target).map_err(|e| format!("{config}: {e}"))? {
            Some(obj) => {
                let integrated = build_and_run(target, &stem, &obj, "o", &d.driver)?;
                if integrated != (stdout.clone(), code) {
                    return Err(format!(
                        "{config}: the integrated assembler's binary gives {integrated:?}, gcc's ({stdout:?}, {code})"
                    ));
                }
            }
            // A target with an encoder must never need gas for backend-printed code.
            None if !phicc::backend::has_foreign_asm(&m) => {
                let isa = phicc::backend::target_isa(target).map_err(|e| format!("{config}: {e}"))?;
                if let Some(Err(err)) = isa.assemble(&asm) {
                    return Err(format!("{config}: the integrated assembler declined: {err}"));
                }
            }
            None => {}
        }
        if let Some(want) = &d.stdout {
            if &stdout != want {
                return Err(format!("{config}: stdout\n{stdout}\nexpected\n{want}"));
            }
        }
        if d.commands.contains(&Command::Interpret) {
            let o = interp::run(
                &m,
                &RunConfig {
                    entry: "main".into(),
                    args: Vec::new(),
                    schedule_seed: 0,
                    fuel: FUEL,
                },
            );
            let want_code = match o.result {
                RunResult::Returned(Some(bits)) => (bits & 0xff) as i32,
                RunResult::Returned(None) => 0,
                RunResult::Exited(s) => s & 0xff,
                ref other => return Err(format!("{config}: the interpreter gave {other:?}")),
            };
            let want_out = String::from_utf8_lossy(&o.stdout).into_owned();
            if stdout != want_out || code != want_code {
                return Err(format!(
                    "{config}: native (exit {code}) stdout\n{stdout}\ninterpreter (exit {want_code}) stdout\n{want_out}"
                ));
            }
        } else if code != 0 {
            return Err(format!("{config}: exit status {code}, expected 0\n{stdout}"));
        }
        results.push((stdout, code));
    }
    if results[0] != results[1] {
        return Err(format!("configurations differ: {:?} vs {:?}", results[0], results[1]));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Golden C files
// ---------------------------------------------------------------------------

fn target_of(text: &str) -> Target {
    text.lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("// target:"))
        .and_then(|t| Target::from_name(t.trim()))
        .unwrap_or(Target::X86_64)
}

/// Compares (or blesses) one expected file.
fn check_golden(expected_path: &Path, got: &str) -> Result<(), String> {
    if blessing() {
        return std::fs::write(expected_path, got).map_err(|e| e.to_string());
    }
    let want = std::fs::read_to_string(expected_path).unwrap_or_default();
    if want == got {
        return Ok(());
    }
    let line = want
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(want.lines().count().min(got.lines().count()));
    Err(format!(
        "{}: differs from line {} (BLESS=1 accepts the new output):\n--- expected\n{}\n--- got\n{}",
        expected_path.display(),
        line + 1,
        want.lines().skip(line).take(5).collect::<Vec<_>>().join("\n"),
        got.lines().skip(line).take(5).collect::<Vec<_>>().join("\n"),
    ))
}

/// `tests/lowering/NAME.c` against `NAME.ir`.
fn lowering_golden(c_file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(c_file).map_err(|e| e.to_string())?;
    let module = compile_to_ir(c_file, &FrontendOptions::new(target_of(&text)))
        .map_err(|e| e.to_string())?
        .module;
    let mut after = module.clone();
    let mut p = pipeline_for(true, &[])?;
    p.verify_each = true;
    p.run(&mut after, &mut |_, _| {})
        .map_err(|e| format!("mem2reg pipeline: {e}"))?;
    check_golden(&c_file.with_extension("ir"), &print_module(&module))
}

/// `tests/diagnostics/NAME.c` against `NAME.expected`. Compiled by its bare
/// name, the current directory being `tests/diagnostics` (set by `main`), so
/// that the diagnostics name the file the same way on every machine.
fn diagnostic_golden(c_file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(c_file).map_err(|e| e.to_string())?;
    let bare = Path::new(c_file.file_name().unwrap());
    let got = match compile_to_ir(bare, &FrontendOptions::new(target_of(&text))) {
        Ok(_) => "(no error)\n".to_string(),
        Err(CompileError::Diagnostic(d)) => d,
        Err(CompileError::Internal(d)) => format!("internal error: {d}"),
    };
    check_golden(&c_file.with_extension("expected"), &got)
}

// ---------------------------------------------------------------------------
// Tests written in Rust over generated modules and the pass files
// ---------------------------------------------------------------------------

/// The motivating case of docs/ssa.md#phi-copy-cost-limit: a VM-style dispatch loop, a switch of 84 cases
/// in a loop, each case updating every one of `vars` variables. Every variable
/// needs a phi of 85 entries at the loop header, so 600 variables exceed
/// `MAX_PHI_COPY_COST` and the most expensive ones stay in memory.
fn dispatch_loop(vars: usize) -> String {
    let cases = 84;
    let mut s = String::from("; test pass mem2reg-pipeline\n; run: @main()\n");
    s.push_str("define @main() -> i64 {\nbb0:\n");
    let mut v = 0u32;
    let mut fresh = || {
        v += 1;
        v + 1000
    };
    for i in 0..vars {
        s.push_str(&format!("  %{i} = alloca i64, size 8, align 8\n"));
    }
    let counter = vars;
    s.push_str(&format!("  %{counter} = alloca i32, size 4, align 4\n  br bb1\n"));
    // bb1: header, dispatch on counter % cases.
    let c = fresh();
    let m = fresh();
    s.push_str(&format!(
        "bb1:\n  %{c} = load i32 %{counter}\n  %{m} = urem i32 %{c}, {cases}i32\n  switch i32 %{m}, default bb{} [",
        cases + 2
    ));
    let arms: Vec<String> = (0..cases).map(|k| format!("{k}: bb{}", k + 2)).collect();
    s.push_str(&arms.join(", "));
    s.push_str("]\n");
    for k in 0..cases {
        s.push_str(&format!("bb{}:\n", k + 2));
        // Case k adds k to a few variables (all of them over the cases).
        for i in (k % 7..vars).step_by(7) {
            let l = fresh();
            let a = fresh();
            s.push_str(&format!(
                "  %{l} = load i64 %{i}\n  %{a} = add i64 %{l}, {}i64\n  store i64 %{a}, %{i}\n",
                k + 1
            ));
        }
        s.push_str(&format!("  br bb{}\n", cases + 2));
    }
    // Latch: counter += 1, loop 200 times, then sum everything.
    let (l, a, cmp) = (fresh(), fresh(), fresh());
    s.push_str(&format!(
        "bb{}:\n  %{l} = load i32 %{counter}\n  %{a} = add i32 %{l}, 1i32\n  store i32 %{a}, %{counter}\n  \
         %{cmp} = cmp slt i32 %{a}, 200i32\n  condbr %{cmp}, bb1, bb{}\n",
        cases + 2,
        cases + 3
    ));
    s.push_str(&format!("bb{}:\n", cases + 3));
    let mut acc: Option<u32> = None;
    for i in 0..vars {
        let l = fresh();
        s.push_str(&format!("  %{l} = load i64 %{i}\n"));
        acc = Some(match acc {
            None => l,
            Some(prev) => {
                let x = fresh();
                let y = fresh();
                s.push_str(&format!(
                    "  %{x} = mul i64 %{prev}, 31i64\n  %{y} = xor i64 %{x}, %{l}\n"
                ));
                y
            }
        });
    }
    s.push_str(&format!("  ret %{}\n}}\n", acc.unwrap()));
    s
}

fn switch_dispatch_loop_hits_the_cost_limit() -> Result<(), String> {
    let text = dispatch_loop(600);
    let d = parse_directives(&text)?;
    let printed = test_pass("dispatch_loop(600)", &text, "mem2reg-pipeline", &d)?;
    // Some variables were kept in memory: their allocas and loads remain.
    if !printed.contains("alloca i64") {
        return Err(format!("no alloca kept:\n{printed}"));
    }
    let mut promoted = parse("dispatch_loop(600)", &text)?;
    let stats = Pipeline::parse("mem2reg")?
        .run(&mut promoted, &mut |_, _| {})
        .map_err(|e| e.to_string())?;
    let kept = stats.get(phicc::passes::PassKind::Mem2reg, phicc::passes::KEPT_BY_COST_LIMIT);
    if !(kept > 0 && kept < 600) {
        return Err(format!("kept {kept}"));
    }
    let copies: usize = promoted.functions[0]
        .blocks
        .iter()
        .flat_map(|b| &b.instructions)
        .map(|i| match i {
            phicc::ir::reexports::Instruction::Phi { incoming, .. } => incoming.len(),
            _ => 0,
        })
        .sum();
    if copies > phicc::passes::mem2reg::MAX_PHI_COPY_COST {
        return Err(format!("phi copies {copies}"));
    }
    // A small version of the same loop is promoted entirely.
    let small = dispatch_loop(20);
    let printed = test_pass(
        "dispatch_loop(20)",
        &small,
        "mem2reg-pipeline",
        &parse_directives(&small)?,
    )?;
    if printed.contains("alloca") {
        return Err(printed);
    }
    Ok(())
}

/// Renaming walks the dominator tree with an explicit stack: a chain of
/// 100,000 blocks (each loading, updating and storing two variables) must not
/// overflow the native stack, and must compute the same result.
fn hundred_thousand_block_chain() -> Result<(), String> {
    let n = 100_000;
    let mut s = String::from("define @main() -> i64 {\nbb0:\n  %0 = alloca i64, size 8, align 8\n  %1 = alloca i64, size 8, align 8\n  br bb1\n");
    let mut v = 2;
    for b in 1..=n {
        s.push_str(&format!(
            "bb{b}:\n  %{} = load i64 %0\n  %{} = load i64 %1\n  %{} = add i64 %{}, {b}i64\n  %{} = xor i64 %{}, %{}\n  store i64 %{}, %0\n  store i64 %{}, %1\n  br bb{}\n",
            v, v + 1, v + 2, v, v + 3, v + 1, v + 2, v + 2, v + 3, b + 1
        ));
        v += 4;
    }
    s.push_str(&format!("bb{}:\n  %{v} = load i64 %1\n  ret %{v}\n}}\n", n + 1));
    let module = parse("chain", &s)?;
    let cfg = RunConfig::default();
    let before = interp::run(&module, &cfg);
    let mut m = module.clone();
    let mut pipeline = Pipeline::parse("mem2reg-pipeline")?;
    pipeline.verify_each = true;
    let stats = pipeline.run(&mut m, &mut |_, _| {}).map_err(|e| e.to_string())?;
    if stats.get(phicc::passes::PassKind::Mem2reg, "loads removed") != 2 * n + 1 {
        return Err(format!(
            "{} loads removed",
            stats.get(phicc::passes::PassKind::Mem2reg, "loads removed")
        ));
    }
    if interp::run(&m, &cfg) != before {
        return Err("the outcome changed".into());
    }
    if print_module(&m).contains("load") {
        return Err("a load is left".into());
    }
    Ok(())
}

/// Promotes every defined function with `opts` (parameters excluded, then
/// included: the options are what is under test, so this calls mem2reg
/// itself), then runs `copyprop,phi-elim` through the pipeline.
fn pipeline_with(module: &IrModule, opts: PromoteOptions) -> Result<IrModule, String> {
    let mut m = module.clone();
    for f in m.functions.iter_mut().filter(|f| !f.is_declaration) {
        promote_with_options(f, &opts);
        promote_with_options(
            f,
            &PromoteOptions {
                include_params: true,
                ..opts
            },
        );
    }
    verify_module(&m, VerifyMode::Ssa).map_err(|e| format!("{opts:?}: {e}"))?;
    let mut rest = Pipeline::parse("copyprop,phi-elim")?;
    rest.verify_each = true;
    rest.run(&mut m, &mut |_, _| {}).map_err(|e| format!("{opts:?}: {e}"))?;
    Ok(m)
}

/// Pruned placement, the fast paths and the removal of unused phis are
/// refinements: switching any of them off changes no outcome of any pass
/// file that runs mem2reg, and the fast paths do not even change the IR.
fn promotion_refinements_change_nothing_observable(files: &[TestFile]) -> Result<(), String> {
    let mut checked = 0;
    for f in files {
        let Ok(d) = &f.directives else { continue };
        let runs_mem2reg = d
            .commands
            .iter()
            .any(|c| matches!(c, Command::Pass(spec) if spec.contains("mem2reg")));
        if !runs_mem2reg {
            continue;
        }
        let module = parse(&f.name, &f.text)?;
        let baseline = run_all(&module, d);
        let reference = pipeline_with(&module, PromoteOptions::default())?;
        for prune in [false, true] {
            for fast_paths in [false, true] {
                for remove_unused_phis in [false, true] {
                    let opts = PromoteOptions {
                        prune,
                        fast_paths,
                        remove_unused_phis,
                        ..PromoteOptions::default()
                    };
                    let m = pipeline_with(&module, opts)?;
                    if run_all(&m, d) != baseline {
                        return Err(format!("{}: {opts:?} changes an outcome", f.name));
                    }
                    if prune && remove_unused_phis && print_module(&m) != print_module(&reference) {
                        return Err(format!("{}: {opts:?} changes the IR", f.name));
                    }
                }
            }
        }
        checked += 1;
    }
    if checked < 10 {
        return Err(format!("only {checked} files"));
    }
    Ok(())
}

/// A second binary128 return value exists on x86-64 (st(1)) and AArch64
/// (q1) only: RISC-V returns `_Complex long double` in memory, and its
/// backend says so instead of inventing registers gcc would not read.
fn riscv64_rejects_a_second_binary128_return() -> Result<(), String> {
    for text in [
        "define @f(f128) -> f128 {\nbb0:\n  %0 = paramref 0 f128\n  setretf128second %0\n  ret %0\n}\n",
        "declare @g() -> f128\ndefine @f() -> f128 {\nbb0:\n  %0 = call f128 @g()\n  %1 = getretf128second\n  ret %1\n}\n",
    ] {
        let m = parse("inline", text)?;
        match phicc::backend::emit_assembly(&m, Target::Riscv64) {
            Err(e) if e.to_string().contains("second binary128 return") => {}
            other => return Err(format!("riscv64: {:?}", other.map(|_| "accepted"))),
        }
        for target in [Target::X86_64, Target::Aarch64] {
            phicc::backend::emit_assembly(&m, target).map_err(|e| format!("{}: {e}", target.name()))?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Discovery and the trials
// ---------------------------------------------------------------------------

struct TestFile {
    path: PathBuf,
    /// As shown in trial names: relative to `compiler/tests` or the repository.
    name: String,
    text: String,
    directives: Result<Directives, String>,
}

fn files_with_ext(dir: &Path, ext: &str, recursive: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() && recursive {
            out.extend(files_with_ext(&p, ext, true));
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn ir_test_files() -> Vec<TestFile> {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths: Vec<(PathBuf, String)> = Vec::new();
    for p in files_with_ext(&tests.join("filetests"), "ir", true) {
        let name = p.strip_prefix(&tests).unwrap().display().to_string();
        paths.push((p, name));
    }
    for sub in ["corpora/ir", "corpora/regressions"] {
        for p in files_with_ext(&repo.join(sub), "ir", false) {
            let name = format!("{sub}/{}", p.file_name().unwrap().to_string_lossy());
            paths.push((p, name));
        }
    }
    paths
        .into_iter()
        .map(|(path, name)| {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let directives = parse_directives(&text);
            TestFile {
                path,
                name,
                text,
                directives,
            }
        })
        .collect()
}

fn failed(r: Result<(), String>) -> Result<(), Failed> {
    r.map_err(Failed::from)
}

/// The trials of one IR file; `skips` collects the reasons of skipped ones.
fn ir_trials(f: &TestFile, skips: &mut Vec<(String, String)>) -> Vec<Trial> {
    let d = match &f.directives {
        Ok(d) => d.clone(),
        Err(e) => {
            let msg = format!("{}: {e}", f.name);
            return vec![Trial::test(f.name.clone(), move || Err(msg.into()))];
        }
    };
    let mut trials = Vec::new();
    for cmd in &d.commands {
        let (name, text, path, d2) = (f.name.clone(), f.text.clone(), f.path.clone(), d.clone());
        let trial_name = format!("{}: {}", f.name, cmd.label());
        match cmd.clone() {
            Command::Verify => trials.push(Trial::test(trial_name, move || failed(test_verify(&name, &text)))),
            Command::VerifyError => trials.push(Trial::test(trial_name, move || {
                failed(test_verify_error(&name, &text, &d2))
            })),
            Command::Roundtrip => trials.push(Trial::test(trial_name, move || failed(test_roundtrip(&name, &text)))),
            Command::Interpret => trials.push(Trial::test(trial_name, move || {
                failed(test_interpret(&name, &text, &d2))
            })),
            Command::Pass(spec) => trials.push(Trial::test(trial_name, move || {
                let printed = test_pass(&name, &text, &spec, &d2)?;
                if blessing() && !d2.checks.is_empty() {
                    std::fs::write(&path, blessed(&text, &printed)).map_err(|e| e.to_string())?;
                }
                Ok(())
            })),
            Command::Run => {
                let targets = d.targets.clone().unwrap_or_else(|| Target::ALL.to_vec());
                for target in targets {
                    let (name, text, d2) = (f.name.clone(), f.text.clone(), d.clone());
                    let trial_name = format!("{}: run {}", f.name, target.name());
                    // Unique per file: the build products of trials running in parallel.
                    let stem = f.name.trim_end_matches(".ir").replace('/', "_");
                    match run_target::cannot_run(target) {
                        Some(reason) if skip::under_ci() => trials.push(Trial::test(trial_name, move || {
                            Err(format!("{reason}, and CI=true makes a missing tool a failure").into())
                        })),
                        Some(reason) => {
                            skips.push((trial_name.clone(), reason));
                            trials.push(Trial::test(trial_name, || Ok(())).with_ignored_flag(true));
                        }
                        None => trials.push(Trial::test(trial_name, move || {
                            failed(test_run(&name, &stem, &text, &d2, target))
                        })),
                    }
                }
            }
        }
    }
    trials
}

fn main() {
    let args = Arguments::from_args();
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    // Diagnostics name their file relative to the current directory.
    std::env::set_current_dir(tests.join("diagnostics")).expect("tests/diagnostics exists");

    let files = ir_test_files();
    let mut trials = Vec::new();
    let mut skips = Vec::new();
    for f in &files {
        trials.extend(ir_trials(f, &mut skips));
    }
    for c in files_with_ext(&tests.join("lowering"), "c", false) {
        let name = format!("lowering/{}", c.file_name().unwrap().to_string_lossy());
        trials.push(Trial::test(name, move || failed(lowering_golden(&c))));
    }
    for c in files_with_ext(&tests.join("diagnostics"), "c", false) {
        let name = format!("diagnostics/{}", c.file_name().unwrap().to_string_lossy());
        trials.push(Trial::test(name, move || failed(diagnostic_golden(&c))));
    }
    let pass_files: Vec<TestFile> = files.into_iter().filter(|f| f.name.starts_with("filetests/")).collect();
    trials.push(Trial::test("mem2reg: switch dispatch loop hits the cost limit", || {
        failed(switch_dispatch_loop_hits_the_cost_limit())
    }));
    trials.push(Trial::test(
        "backend: riscv64 rejects a second binary128 return",
        || failed(riscv64_rejects_a_second_binary128_return()),
    ));
    trials.push(Trial::test("mem2reg: hundred thousand block chain", || {
        failed(hundred_thousand_block_chain())
    }));
    trials.push(Trial::test(
        "mem2reg: promotion refinements change nothing observable",
        move || failed(promotion_refinements_change_nothing_observable(&pass_files)),
    ));

    // The file counts are assertions too: a moved directory must not empty the run.
    let mut discovery = Vec::new();
    for (prefix, min) in [
        ("filetests/pass/", 27),
        ("filetests/run/", 21),
        ("filetests/text/", 4),
        ("corpora/ir/", 6),
        ("corpora/regressions/", 3),
        ("lowering/", 14),
        ("diagnostics/", 42),
    ] {
        let n = trials.iter().filter(|t| t.name().starts_with(prefix)).count();
        discovery.push(Trial::test(format!("discovery: {prefix}"), move || {
            if n < min {
                Err(format!("{n} trials under {prefix}, expected at least {min}").into())
            } else {
                Ok(())
            }
        }));
    }
    trials.extend(discovery);

    let list = args.list;
    let shown: BTreeSet<String> = skips
        .iter()
        .filter(|(name, _)| args.filter.as_ref().is_none_or(|f| name.contains(f.as_str())))
        .map(|(_, reason)| reason.clone())
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    if !list {
        let reasons = if shown.is_empty() {
            String::new()
        } else {
            format!(" ({})", shown.into_iter().collect::<Vec<_>>().join("; "))
        };
        skip::report(&format!(
            "filetests: {} passed, {} failed, {} skipped{reasons}",
            conclusion.num_passed, conclusion.num_failed, conclusion.num_ignored
        ));
    }
    conclusion.exit();
}
