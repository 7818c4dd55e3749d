//! The C test suite: every `tests/c/*.c` file (chibicc's style: one file per
//! feature area, `ASSERT(expected, expr)` printing `LINE => value` for each
//! check, `OK` at the end, exit status 0) is run in several modes, and every
//! mode must print exactly what the gcc-compiled program prints:
//!
//! - `gcc`: the host's `gcc -O0`, the reference (proves the test itself right);
//! - `interp`: phicc's frontend and lowering for each target, the pipeline
//!   of each configuration of the pass table (`nomem2reg`, `mem2reg`, `opt`)
//!   with the verifier after every pass, then the IR interpreter with its
//!   libc shim.
//!
//! - `native`: phicc's backend for the target (every configuration), the
//!   object from the integrated assembler (or the assembly, for modules with
//!   inline asm or targets without an encoder) linked by the target's gcc
//!   (`-static` for a foreign target) and run, natively when the host
//!   matches, else under QEMU user-mode.
//!
//! A file restricts its targets with a line `// targets: x86_64 aarch64`
//! (default: all three), and to native runs with `// modes: native` (inline
//! asm, which the interpreter runs as a black box). The files of one mode
//! run in parallel.

#[path = "support/run_target.rs"]
mod run_target;
#[path = "support/skip.rs"]
mod skip;

use phicc::driver::{compile_to_ir, pipeline_for_configuration, FrontendOptions};
use phicc::ir::interp::{run, RunConfig, RunResult};
use phicc::passes::Configuration;
use phicc::target::Target;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// How one test file is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `gcc -O0` on the host: the reference output.
    Gcc,
    /// phicc to IR for `target`, the pipeline, then the interpreter.
    Interp { target: Target, config: Configuration },
    /// phicc to assembly for `target`, linked by its gcc, run.
    Native { target: Target, config: Configuration },
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c")
}

fn test_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite_dir())
        .expect("tests/c exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// Whether the file asks to run natively only (`// modes: native`).
fn native_only(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().any(|l| {
        l.trim()
            .strip_prefix("// modes:")
            .is_some_and(|m| m.split_whitespace().eq(["native"]))
    })
}

/// The targets a file may run on (`// targets: ...`).
fn file_targets(path: &Path) -> Vec<Target> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    for line in text.lines() {
        if let Some(list) = line.trim().strip_prefix("// targets:") {
            return list.split_whitespace().filter_map(Target::from_name).collect();
        }
    }
    Target::ALL.to_vec()
}

/// Runs one file in one mode: its standard output, or why it failed.
fn run_mode(path: &Path, mode: Mode) -> Result<String, String> {
    match mode {
        Mode::Gcc => {
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let exe = dir.path().join("t");
            let out = Command::new("gcc")
                .args(["-O0", "-w", "-o"])
                .arg(&exe)
                .arg(path)
                .arg("-lm")
                .output()
                .map_err(|e| format!("cannot run gcc (scripts/setup.sh installs it): {e}"))?;
            if !out.status.success() {
                return Err(format!("gcc rejected it:\n{}", String::from_utf8_lossy(&out.stderr)));
            }
            let host = Target::host().ok_or("no phicc target for this host")?;
            let run = run_target::run_binary(host, &exe, 60).map_err(|e| e.to_string())?;
            let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
            if !run.success() {
                return Err(format!("exited with {}:\n{stdout}", run.describe()));
            }
            Ok(stdout)
        }
        Mode::Interp { target, config } => {
            let mut opts = FrontendOptions::new(target);
            opts.include_dirs.push(suite_dir());
            let mut module = compile_to_ir(path, &opts).map_err(|e| e.to_string())?.module;
            let mut pipeline = pipeline_for_configuration(config, &[])?;
            pipeline.verify_each = true;
            pipeline.run(&mut module, &mut |_, _| {}).map_err(|e| e.to_string())?;
            let outcome = run(
                &module,
                &RunConfig {
                    fuel: 2_000_000_000,
                    ..RunConfig::default()
                },
            );
            let stdout = String::from_utf8_lossy(&outcome.stdout).into_owned();
            match outcome.result {
                RunResult::Returned(Some(0)) => Ok(stdout),
                other => Err(format!("{other}\n{stdout}")),
            }
        }
        Mode::Native { target, config } => {
            let mut opts = FrontendOptions::new(target);
            opts.include_dirs.push(suite_dir());
            let mut module = compile_to_ir(path, &opts).map_err(|e| e.to_string())?.module;
            let mut pipeline = pipeline_for_configuration(config, &[])?;
            pipeline.verify_each = true;
            pipeline.run(&mut module, &mut |_, _| {}).map_err(|e| e.to_string())?;
            let asm = phicc::backend::emit_assembly(&module, target).map_err(|e| e.to_string())?;
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let exe = dir.path().join("t");
            // As the driver does: the integrated assembler when it can, else gcc.
            let s_path = match phicc::backend::assemble_object(&module, &asm, target) {
                Some(obj) => {
                    let p = dir.path().join("t.o");
                    std::fs::write(&p, obj).map_err(|e| e.to_string())?;
                    p
                }
                None => {
                    // The driver would fall back to gas silently: a gap in
                    // the target's integrated assembler is a failure here.
                    let external = std::env::var_os("PHICC_EXTERNAL_AS").is_some_and(|v| v != "0");
                    if !external && !phicc::backend::has_foreign_asm(&module) {
                        let isa = phicc::backend::target_isa(target).map_err(|e| e.to_string())?;
                        if let Some(Err(e)) = isa.assemble(&asm) {
                            return Err(format!("the integrated assembler fell back to gas: {e}"));
                        }
                    }
                    let p = dir.path().join("t.s");
                    std::fs::write(&p, asm).map_err(|e| e.to_string())?;
                    p
                }
            };
            let gcc = target.gcc();
            let out = run_target::gcc_command(target)
                .arg("-o")
                .arg(&exe)
                .arg(&s_path)
                .arg("-lm")
                .output()
                .map_err(|e| format!("cannot run {gcc}: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "{gcc} rejected the assembly:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            let run = run_target::run_binary(target, &exe, 60).map_err(|e| e.to_string())?;
            let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
            if !run.success() {
                return Err(format!("exited with {}:\n{stdout}", run.describe()));
            }
            Ok(stdout)
        }
    }
}

/// The gcc reference output of every file, computed once per process.
fn references() -> &'static Vec<(PathBuf, Result<String, String>)> {
    static REFS: OnceLock<Vec<(PathBuf, Result<String, String>)>> = OnceLock::new();
    REFS.get_or_init(|| {
        test_files()
            .into_iter()
            .map(|f| (f.clone(), run_mode(&f, Mode::Gcc)))
            .collect()
    })
}

/// The first line where two outputs differ.
fn first_difference(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}: gcc printed `{w}`, phicc `{g}`", i + 1);
        }
    }
    format!(
        "gcc printed {} lines, phicc {} (last: `{}`)",
        want.lines().count(),
        got.lines().count(),
        got.lines().last().unwrap_or("")
    )
}

#[test]
fn suite_has_enough_assertions() {
    let n: usize = test_files()
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap().matches("ASSERT(").count())
        .sum();
    assert!(n >= 400, "only {n} assertions");
}

#[test]
fn gcc_reference_passes() {
    let mut failures = Vec::new();
    for (f, r) in references() {
        match r {
            Ok(out) if out.ends_with("OK\n") => {}
            Ok(out) => failures.push(format!("{}: no OK at the end:\n{out}", f.display())),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every file through phicc for `target`, every configuration, against gcc.
fn check_target(target: Target) {
    check_mode(target, false)
}

/// As [`check_target`], interpreted (`native: false`) or compiled and run.
/// The (file, configuration) runs are spread over the available cores.
fn check_mode(target: Target, native: bool) {
    let mut jobs = Vec::new();
    for (file, reference) in references() {
        let Ok(want) = reference else { continue };
        if !file_targets(file).contains(&target) || (!native && native_only(file)) {
            continue;
        }
        for config in Configuration::ALL {
            jobs.push((file, want, config));
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&(file, want, config)) = jobs.get(k) else {
                    break;
                };
                let mode = if native {
                    Mode::Native { target, config }
                } else {
                    Mode::Interp { target, config }
                };
                let name = format!(
                    "{} [{} {}{}]",
                    file.file_name().unwrap().to_string_lossy(),
                    target.name(),
                    config.name(),
                    if native { " native" } else { "" }
                );
                let failure = match run_mode(file, mode) {
                    Ok(got) if &got == want => None,
                    Ok(got) => Some(format!("{name}: {}", first_difference(want, &got))),
                    Err(e) => Some(format!("{name}: {}", e.lines().take(12).collect::<Vec<_>>().join("\n"))),
                };
                if let Some(f) = failure {
                    failures.lock().unwrap().push(f);
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn interpreted_x86_64() {
    check_target(Target::X86_64);
}

#[test]
fn interpreted_aarch64() {
    check_target(Target::Aarch64);
}

#[test]
fn interpreted_riscv64() {
    check_target(Target::Riscv64);
}

/// Every file compiled by phicc for `target` and run (under QEMU when
/// foreign), when the toolchain is installed.
fn check_native(target: Target) {
    if let Some(reason) = run_target::cannot_run(target) {
        skip::skip(&format!("c_suite native {}", target.name()), &reason);
        return;
    }
    check_mode(target, true);
}

#[test]
fn native_x86_64() {
    if cfg!(target_arch = "x86_64") {
        check_native(Target::X86_64);
    } else {
        skip::skip("c_suite native x86_64", "not an x86-64 host");
    }
}

#[test]
fn native_aarch64() {
    check_native(Target::Aarch64);
}

#[test]
fn native_riscv64() {
    check_native(Target::Riscv64);
}
