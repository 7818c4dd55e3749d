//! Executable backend tests, QBE style: every `tests/backend/*.ir` file is a
//! module compiled to assembly for each target that has a backend,
//! assembled and linked by the target's gcc (with the file's C driver when it
//! has one; `-static` for a foreign target), run natively or under QEMU
//! user-mode, and checked against what the file says and, when it asks,
//! against the reference interpreter.
//!
//! Each file runs in two configurations, with the verifier after every pass:
//! `phi-elim` alone (the IR as written) and `mem2reg-pipeline`; both must give
//! the same result. Each configuration is built twice, through the external
//! assembler (gcc) and through the integrated one (`emit_object`, which must
//! accept every file without inline asm). Directives are comment lines:
//!
//! - `;| text` — a line of the C driver (linked in; then the IR has no `main`);
//! - `;> text` — a line of the expected standard output;
//! - `;! exit N` — the expected exit status (default 0);
//! - `;! interp` — interpret `main` too: the native stdout and exit status must
//!   equal the interpreter's (its return value modulo 256);
//! - `;! targets: x86_64 aarch64` — the targets the file is written for
//!   (default: every target with a backend). ABI files carry one target's
//!   classification metadata and inline asm files its instructions.
//!
//! Expected output is written by hand from the program's meaning, never
//! produced by the code under test. `BACKEND_TEST=name` runs one file.

#[path = "support/run_target.rs"]
mod run_target;

use phicc::ir::interp::{run, RunConfig, RunResult};
use phicc::ir::text::parse_module;
use phicc::passes::Pipeline;
use phicc::target::Target;
use std::path::{Path, PathBuf};

struct Spec {
    driver: String,
    expect_stdout: Option<String>,
    expect_exit: i32,
    interp: bool,
    /// `None`: every target with a backend.
    targets: Option<Vec<Target>>,
}

fn parse_spec(text: &str) -> Spec {
    let mut driver = String::new();
    let mut stdout = String::new();
    let mut has_stdout = false;
    let mut exit = 0;
    let mut interp = false;
    let mut targets = None;
    for line in text.lines() {
        if let Some(c) = line.strip_prefix(";|") {
            driver.push_str(c.strip_prefix(' ').unwrap_or(c));
            driver.push('\n');
        } else if let Some(o) = line.strip_prefix(";>") {
            stdout.push_str(o.strip_prefix(' ').unwrap_or(o));
            stdout.push('\n');
            has_stdout = true;
        } else if let Some(d) = line.strip_prefix(";!") {
            let d = d.trim();
            if let Some(n) = d.strip_prefix("exit ") {
                exit = n.trim().parse().expect("bad ;! exit");
            } else if d == "interp" {
                interp = true;
            } else if let Some(list) = d.strip_prefix("targets:") {
                let ts = list
                    .split_whitespace()
                    .map(|t| Target::from_name(t).unwrap_or_else(|| panic!("unknown target {t}")))
                    .collect();
                targets = Some(ts);
            } else {
                panic!("unknown directive ;! {d}");
            }
        }
    }
    Spec {
        driver,
        expect_stdout: has_stdout.then_some(stdout),
        expect_exit: exit,
        interp,
        targets,
    }
}

fn work_dir(target: Target) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("backend_ir_{}", target.name()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles and runs one configuration from assembly text (`.s`) or an
/// object file (`.o`); returns (stdout, exit status).
fn build_and_run(
    target: Target,
    name: &str,
    config: &str,
    code: &[u8],
    ext: &str,
    driver: &str,
) -> Result<(String, i32), String> {
    let dir = work_dir(target);
    let stem = format!("{name}.{config}.{ext}");
    let s_path = dir.join(format!("{stem}.{ext}"));
    let exe = dir.join(&stem);
    std::fs::write(&s_path, code).unwrap();
    let mut cmd = run_target::gcc_command(target);
    cmd.arg("-o").arg(&exe).arg(&s_path);
    if !driver.is_empty() {
        let c_path = dir.join(format!("{stem}.driver.c"));
        std::fs::write(&c_path, driver).unwrap();
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

/// Whether `path` is written for `target` (`;! targets:`, default all).
fn file_is_for(path: &Path, target: Target) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    parse_spec(&text).targets.is_none_or(|ts| ts.contains(&target))
}

fn check_file(path: &Path, target: Target) -> Result<(), String> {
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let spec = parse_spec(&text);
    let module = parse_module(&text).map_err(|e| format!("{}:{e}", path.display()))?;
    let mut results = Vec::new();
    for (config, passes) in [("asis", "phi-elim"), ("mem2reg", "mem2reg-pipeline")] {
        let mut m = module.clone();
        let mut p = Pipeline::parse(passes).unwrap();
        p.verify_each = true;
        p.run(&mut m, &mut |_, _| {}).map_err(|e| format!("{config}: {e}"))?;
        let asm = phicc::backend::emit_assembly(&m, target).map_err(|e| format!("{config}: {e}"))?;
        let (stdout, code) = build_and_run(target, &name, config, asm.as_bytes(), "s", &spec.driver)?;
        match phicc::backend::emit_object(&m, target).map_err(|e| format!("{config}: {e}"))? {
            Some(obj) => {
                let integrated = build_and_run(target, &name, config, &obj, "o", &spec.driver)?;
                if integrated != (stdout.clone(), code) {
                    return Err(format!(
                        "{config}: the integrated assembler's binary gives {integrated:?}, gcc's ({stdout:?}, {code})"
                    ));
                }
            }
            None if target == Target::X86_64 && !phicc::backend::has_foreign_asm(&m) => {
                let err = phicc::backend::x86_64::encode::assemble(&asm).unwrap_err();
                return Err(format!("{config}: the integrated assembler declined: {err}"));
            }
            None => {}
        }
        if let Some(want) = &spec.expect_stdout {
            if &stdout != want {
                return Err(format!("{config}: stdout\n{stdout}\nexpected\n{want}"));
            }
        }
        if spec.interp {
            let o = run(
                &m,
                &RunConfig {
                    entry: "main".into(),
                    args: Vec::new(),
                    schedule_seed: 0,
                    fuel: 50_000_000,
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
        } else if code != spec.expect_exit {
            return Err(format!(
                "{config}: exit status {code}, expected {}\n{stdout}",
                spec.expect_exit
            ));
        }
        results.push((stdout, code));
    }
    if results[0] != results[1] {
        return Err(format!("configurations differ: {:?} vs {:?}", results[0], results[1]));
    }
    Ok(())
}

/// Every file written for `target`, when it has a backend and a toolchain here.
fn check_target(target: Target) {
    if phicc::backend::target_isa(target).is_err() {
        eprintln!("SKIPPED: no {} backend yet", target.name());
        return;
    }
    if !run_target::toolchain_available(target) {
        eprintln!(
            "SKIPPED: the {} toolchain or QEMU is missing (scripts/setup.sh --campaign)",
            target.name()
        );
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/backend");
    let only = std::env::var("BACKEND_TEST").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ir"))
        .filter(|p| only.as_deref().is_none_or(|o| p.file_stem().is_some_and(|s| s == o)))
        .filter(|p| file_is_for(p, target))
        .collect();
    files.sort();
    assert!(only.is_some() || !files.is_empty(), "no backend tests found");
    let mut failures = Vec::new();
    for f in &files {
        if let Err(e) = check_file(f, target) {
            failures.push(format!("{} [{}]: {e}", f.display(), target.name()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn backend_ir_files_x86_64() {
    check_target(Target::X86_64);
}

#[test]
fn backend_ir_files_aarch64() {
    check_target(Target::Aarch64);
}

#[test]
fn backend_ir_files_riscv64() {
    check_target(Target::Riscv64);
}

/// A second binary128 return value exists on x86-64 (st(1)) and AArch64
/// (q1) only: RISC-V returns `_Complex long double` in memory, and its
/// backend says so instead of inventing registers gcc would not read.
#[test]
fn riscv64_rejects_a_second_binary128_return() {
    for text in [
        "define @f(f128) -> f128 {\nbb0:\n  %0 = paramref 0 f128\n  setretf128second %0\n  ret %0\n}\n",
        "declare @g() -> f128\ndefine @f() -> f128 {\nbb0:\n  %0 = call f128 @g()\n  %1 = getretf128second\n  ret %1\n}\n",
    ] {
        let m = parse_module(text).unwrap();
        let err = phicc::backend::emit_assembly(&m, Target::Riscv64).unwrap_err().to_string();
        assert!(err.contains("second binary128 return"), "{err}");
        for target in [Target::X86_64, Target::Aarch64] {
            phicc::backend::emit_assembly(&m, target).unwrap();
        }
    }
}
