//! Directive-driven IR file tests (in the manner of Cranelift's filetests).
//!
//! Each `tests/filetests/*.ir` file is a module in the textual IR whose
//! comment lines carry directives:
//!
//! - `; passes: mem2reg-pipeline` — the passes to run (`Pipeline::parse` names);
//! - `; run: @f(1, 2) == 3` — call `f` with these arguments; the result must be
//!   3 before the passes and after each of them; `; run: @main()` only requires
//!   the whole outcome (result, events, stdout, globals) to stay the same;
//! - `; schedules: 0, 1, 2` — the inline-asm schedule seeds each run uses
//!   (default `0`);
//! - `; check: text` — lines of the printed result, matched in order, each
//!   against a later line than the previous one, as substrings;
//! - `; not: text` — text that must appear on no line of the printed result;
//! - `; stats: text` — text that must appear in the pipeline statistics;
//! - `; schedules-differ` — the schedules must not all give the same outcome
//!   (proof that an asm goto really takes both its edges).
//!
//! The verifier runs after every pass (SSA mode, then non-SSA after
//! `phi-elim`). `BLESS=1 cargo test -p phicc --test filetests` rewrites every
//! file's `; check:` lines from the current output (other directives are kept).

use phicc::ir::interp::{self, Outcome, RunConfig, RunResult};
use phicc::ir::module::IrModule;
use phicc::ir::text::{parse_module, print_module};
use phicc::ir::verify::{verify_module, VerifyMode};
use phicc::passes::copyprop::propagate_copies;
use phicc::passes::mem2reg::{promote_with_options, PromoteOptions};
use phicc::passes::phi_elim::eliminate_phis;
use phicc::passes::Pipeline;
use std::path::{Path, PathBuf};

/// One `; run:` line.
struct RunLine {
    entry: String,
    args: Vec<i128>,
    expect: Option<i128>,
}

#[derive(Default)]
struct Directives {
    passes: Option<String>,
    runs: Vec<RunLine>,
    schedules: Vec<u64>,
    checks: Vec<String>,
    nots: Vec<String>,
    stats: Vec<String>,
    schedules_differ: bool,
}

fn parse_run(spec: &str) -> Result<RunLine, String> {
    let spec = spec.trim();
    let (call, expect) = match spec.split_once("==") {
        Some((c, e)) => (
            c.trim(),
            Some(e.trim().parse::<i128>().map_err(|e| format!("`{spec}`: {e}"))?),
        ),
        None => (spec, None),
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
    })
}

fn parse_directives(text: &str) -> Result<Directives, String> {
    let mut d = Directives::default();
    for line in text.lines() {
        let Some(body) = line.trim_start().strip_prefix(';') else {
            continue;
        };
        let body = body.trim_start();
        if let Some(v) = body.strip_prefix("passes:") {
            d.passes = Some(v.trim().to_string());
        } else if let Some(v) = body.strip_prefix("run:") {
            d.runs.push(parse_run(v)?);
        } else if let Some(v) = body.strip_prefix("schedules:") {
            for s in v.split(',') {
                d.schedules
                    .push(s.trim().parse().map_err(|e| format!("schedules: {e}"))?);
            }
        } else if let Some(v) = body.strip_prefix("check:") {
            d.checks.push(v.trim().to_string());
        } else if let Some(v) = body.strip_prefix("not:") {
            d.nots.push(v.trim().to_string());
        } else if body.starts_with("schedules-differ") {
            d.schedules_differ = true;
        } else if let Some(v) = body.strip_prefix("stats:") {
            d.stats.push(v.trim().to_string());
        }
    }
    if d.schedules.is_empty() {
        d.schedules.push(0);
    }
    Ok(d)
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

fn run_all(module: &IrModule, d: &Directives) -> Vec<Outcome> {
    let mut out = Vec::new();
    for r in &d.runs {
        for &seed in &d.schedules {
            let cfg = RunConfig {
                entry: r.entry.clone(),
                args: r.args.iter().map(|&a| a as u128).collect(),
                schedule_seed: seed,
                fuel: 5_000_000,
            };
            out.push(interp::run(module, &cfg));
        }
    }
    out
}

/// Runs one test; returns the printed result (for blessing) or every failure.
fn run_test(name: &str, text: &str) -> Result<String, String> {
    let d = parse_directives(text)?;
    let original = parse_module(text).map_err(|e| format!("{name}: parse: {e}"))?;
    verify_module(&original, VerifyMode::Ssa).map_err(|e| format!("{name}: input does not verify:\n{e}"))?;
    let baseline = run_all(&original, &d);
    let mut failures: Vec<String> = Vec::new();
    let labels: Vec<String> = d
        .runs
        .iter()
        .flat_map(|r| {
            d.schedules
                .iter()
                .map(move |s| format!("@{}{:?} schedule {s}", r.entry, r.args))
        })
        .collect();
    let mut i = 0;
    for r in &d.runs {
        for _ in &d.schedules {
            if let Some(want) = r.expect {
                let bits = expected_bits(&original, &r.entry, want);
                if baseline[i].result != RunResult::Returned(Some(bits)) {
                    failures.push(format!(
                        "{}: before passes: expected {want}, got {}",
                        labels[i], baseline[i].result
                    ));
                }
            }
            if baseline[i].is_inconclusive() {
                failures.push(format!("{}: out of fuel before passes", labels[i]));
            }
            i += 1;
        }
    }

    if d.schedules_differ {
        for (k, r) in d.runs.iter().enumerate() {
            let per_run = &baseline[k * d.schedules.len()..(k + 1) * d.schedules.len()];
            if per_run.iter().all(|o| *o == per_run[0]) {
                failures.push(format!("@{}: every schedule gives the same outcome", r.entry));
            }
        }
    }
    let mut module = original.clone();
    let mut pipeline = Pipeline::parse(d.passes.as_deref().unwrap_or("")).map_err(|e| format!("{name}: {e}"))?;
    pipeline.verify_each = true;
    let mut hook = |pass: &str, m: &IrModule| {
        for (k, after) in run_all(m, &d).into_iter().enumerate() {
            if after != baseline[k] {
                failures.push(format!(
                    "{}: outcome changed after {pass}\n--- before ---\n{}--- after ---\n{}--- IR ---\n{}",
                    labels[k],
                    baseline[k],
                    after,
                    print_module(m)
                ));
            }
        }
    };
    let stats = pipeline.run(&mut module, &mut hook);
    let stats = match stats {
        Ok(s) => s.to_string(),
        Err(e) => {
            failures.push(format!("{e}"));
            String::new()
        }
    };
    let printed = print_module(&module);
    let lines: Vec<&str> = printed.lines().collect();
    let mut pos = 0;
    if !blessing() {
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
        Err(format!("{name}:\n{}\n--- result ---\n{printed}", failures.join("\n")))
    }
}

/// `BLESS=1` (any value but empty or `0`) asks to regenerate the check lines.
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

fn test_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/filetests exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    files
}

#[test]
fn filetests() {
    let bless = blessing();
    let mut failures = Vec::new();
    let files = test_files();
    assert!(files.len() >= 10, "expected the file tests, found {}", files.len());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        match run_test(&name, &text) {
            Ok(printed) if bless => std::fs::write(&path, blessed(&text, &printed)).unwrap(),
            Ok(_) => {}
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} file tests failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The seed's motivating case: a VM-style dispatch loop, a switch of 84 cases
/// in a loop, each case updating every one of `vars` variables. Every variable
/// needs a phi of 85 entries at the loop header, so 600 variables exceed
/// `MAX_PHI_COPY_COST` and the most expensive ones stay in memory.
fn dispatch_loop(vars: usize) -> String {
    let cases = 84;
    let mut s = String::from("; passes: mem2reg-pipeline\n; run: @main()\n");
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

#[test]
fn switch_dispatch_loop_hits_the_cost_limit() {
    let text = dispatch_loop(600);
    let printed = run_test("dispatch_loop(600)", &text).unwrap_or_else(|e| panic!("{e}"));
    // Some variables were kept in memory: their allocas and loads remain.
    assert!(printed.contains("alloca i64"), "no alloca kept:\n{printed}");
    let module = parse_module(&text).unwrap();
    let mut promoted = module.clone();
    let stats = Pipeline::parse("mem2reg")
        .unwrap()
        .run(&mut promoted, &mut |_, _| {})
        .unwrap();
    let kept = stats.get(phicc::passes::PassKind::Mem2reg, "allocas kept by the cost limit");
    assert!(kept > 0 && kept < 600, "kept {kept}");
    let copies: usize = promoted.functions[0]
        .blocks
        .iter()
        .flat_map(|b| &b.instructions)
        .map(|i| match i {
            phicc::ir::reexports::Instruction::Phi { incoming, .. } => incoming.len(),
            _ => 0,
        })
        .sum();
    assert!(
        copies <= phicc::passes::mem2reg::MAX_PHI_COPY_COST,
        "phi copies {copies}"
    );
    // A small version of the same loop is promoted entirely.
    let small = dispatch_loop(20);
    let printed = run_test("dispatch_loop(20)", &small).unwrap_or_else(|e| panic!("{e}"));
    assert!(!printed.contains("alloca"), "{printed}");
}

/// Promotes every defined function with `opts` (parameters excluded, then
/// included), then copy propagation and phi elimination.
fn pipeline_with(module: &IrModule, opts: PromoteOptions) -> IrModule {
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
    verify_module(&m, VerifyMode::Ssa).unwrap_or_else(|e| panic!("{opts:?}: {e}"));
    m.for_each_function(propagate_copies);
    eliminate_phis(&mut m);
    verify_module(&m, VerifyMode::NonSsa).unwrap_or_else(|e| panic!("{opts:?}: {e}"));
    m
}

/// Pruned placement, the fast paths and the removal of unused phis are
/// refinements: switching any of them off changes no outcome of any file
/// test, and the fast paths do not even change the IR.
#[test]
fn promotion_refinements_change_nothing_observable() {
    let mut checked = 0;
    for path in test_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let d = parse_directives(&text).unwrap();
        if !d.passes.as_deref().unwrap_or("").contains("mem2reg") {
            continue;
        }
        let module = parse_module(&text).unwrap();
        let baseline = run_all(&module, &d);
        let reference = pipeline_with(&module, PromoteOptions::default());
        for prune in [false, true] {
            for fast_paths in [false, true] {
                for remove_unused_phis in [false, true] {
                    let opts = PromoteOptions {
                        prune,
                        fast_paths,
                        remove_unused_phis,
                        ..PromoteOptions::default()
                    };
                    let m = pipeline_with(&module, opts);
                    assert_eq!(run_all(&m, &d), baseline, "{}: {opts:?}", path.display());
                    if prune && remove_unused_phis {
                        assert_eq!(
                            print_module(&m),
                            print_module(&reference),
                            "{}: {opts:?}",
                            path.display()
                        );
                    }
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} files");
}

/// Renaming walks the dominator tree with an explicit stack: a chain of
/// 100,000 blocks (each loading, updating and storing two variables) must not
/// overflow the native stack, and must compute the same result.
#[test]
fn hundred_thousand_block_chain() {
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
    let module = parse_module(&s).unwrap();
    let cfg = RunConfig::default();
    let before = interp::run(&module, &cfg);
    let mut m = module.clone();
    let mut pipeline = Pipeline::parse("mem2reg-pipeline").unwrap();
    pipeline.verify_each = true;
    let stats = pipeline.run(&mut m, &mut |_, _| {}).unwrap();
    assert_eq!(stats.get(phicc::passes::PassKind::Mem2reg, "loads removed"), 2 * n + 1);
    assert_eq!(interp::run(&m, &cfg), before);
    assert!(!print_module(&m).contains("load"));
}

/// What `phiopt --passes=mem2reg-pipeline --verify-each --check` checks, over
/// every file of `corpora/ir/` and `corpora/regressions/`: the pipeline
/// verifies after each pass and `@main` behaves the same under several
/// inline-asm schedules.
#[test]
fn corpus_files_survive_the_pipeline() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("corpora");
    let mut checked = 0;
    for sub in ["ir", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(sub)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ir"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let original = parse_module(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut module = original.clone();
            let mut pipeline = Pipeline::parse("mem2reg-pipeline").unwrap();
            pipeline.verify_each = true;
            pipeline
                .run(&mut module, &mut |_, _| {})
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if original.function("main").is_some() {
                for seed in 0..4 {
                    let cfg = RunConfig {
                        schedule_seed: seed,
                        ..RunConfig::default()
                    };
                    let (before, after) = (interp::run(&original, &cfg), interp::run(&module, &cfg));
                    if !before.is_inconclusive() && !after.is_inconclusive() {
                        assert_eq!(before, after, "{} schedule {seed}", path.display());
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no corpus files found");
}
