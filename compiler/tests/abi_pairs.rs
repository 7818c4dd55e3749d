//! ABI interop against each target's gcc, both call directions: every
//! `tests/abi_pairs/*.c` file has two halves, `SIDE_MAIN` (with `main`) and
//! `SIDE_LIB`, each calling functions of the other (arguments, returns,
//! callbacks, variadics, a `va_list` handed across). For every target with
//! a backend (and its cross gcc and QEMU installed):
//!
//! - the reference: both halves compiled by the target's `gcc -O1` (at -O1
//!   gcc's code relies on what the ABI promises, e.g. extended narrow
//!   integers), linked and run;
//! - in both configurations (`nomem2reg`, `mem2reg`): `SIDE_MAIN` by phicc
//!   with `SIDE_LIB` by gcc, then `SIDE_MAIN` by gcc with `SIDE_LIB` by
//!   phicc; each must print exactly what the reference printed.
//!
//! A file restricts its targets with `// targets: x86_64 riscv64`.
//! `ABI_TEST=name` runs one file. (`abi_interop.rs` is the other ABI test: one
//! phicc-compiled file against one gcc-compiled helper.)

use phicc::target::Target;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/run_target.rs"]
mod run_target;
#[path = "support/skip.rs"]
mod skip;

/// The targets that have a backend.
const BACKEND_TARGETS: [Target; 3] = [Target::X86_64, Target::Riscv64, Target::Aarch64];

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/abi_pairs");
    let only = std::env::var("ABI_TEST").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| only.as_deref().is_none_or(|o| p.file_stem().is_some_and(|s| s == o)))
        .collect();
    files.sort();
    files
}

fn file_targets(path: &Path) -> Vec<Target> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    for line in text.lines() {
        if let Some(list) = line.trim().strip_prefix("// targets:") {
            return list.split_whitespace().filter_map(Target::from_name).collect();
        }
    }
    BACKEND_TARGETS.to_vec()
}

fn run_tool(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    let out = cmd.output().map_err(|e| format!("cannot run {shown}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed:\n{}", String::from_utf8_lossy(&out.stderr)))
    }
}

/// Compiles one half with gcc.
fn gcc_half(target: Target, src: &Path, side: &str, obj: &Path) -> Result<(), String> {
    run_tool(
        run_target::gcc_command(target)
            .args(["-O1", "-w", "-c", &format!("-D{side}")])
            .arg(src)
            .arg("-o")
            .arg(obj),
    )
}

/// Compiles one half with phicc.
fn phicc_half(target: Target, mem2reg: bool, src: &Path, side: &str, obj: &Path) -> Result<(), String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_phicc"));
    cmd.arg(format!("--target={}", target.name()))
        .args(["-w", "-c", &format!("-D{side}")]);
    if !mem2reg {
        cmd.arg("-fno-mem2reg");
    }
    run_tool(cmd.arg(src).arg("-o").arg(obj))
}

/// Links two objects and runs the program: its stdout, or why it failed.
fn link_and_run(target: Target, objs: [&Path; 2], exe: &Path) -> Result<String, String> {
    run_tool(run_target::gcc_command(target).args(objs).arg("-o").arg(exe))?;
    let out = run_target::run_binary(target, exe, 20).map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.success() {
        return Err(format!("exited with {}:\n{stdout}", out.describe()));
    }
    Ok(stdout)
}

fn first_difference(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}: gcc `{w}`, with phicc `{g}`", i + 1);
        }
    }
    format!(
        "gcc printed {} lines, with phicc {}",
        want.lines().count(),
        got.lines().count()
    )
}

/// Checks one file on one target; returns the failures.
fn check(src: &Path, target: Target) -> Vec<String> {
    let name = src.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = tempfile::tempdir().unwrap();
    let obj = |n: &str| dir.path().join(format!("{n}.o"));
    let tag = |what: &str| format!("{name} [{}] {what}", target.name());
    let reference = gcc_half(target, src, "SIDE_MAIN", &obj("gcc_main"))
        .and_then(|_| gcc_half(target, src, "SIDE_LIB", &obj("gcc_lib")))
        .and_then(|_| link_and_run(target, [&obj("gcc_main"), &obj("gcc_lib")], &dir.path().join("ref")));
    let want = match reference {
        Ok(w) => w,
        Err(e) => return vec![format!("{}: {e}", tag("gcc reference"))],
    };
    let mut failures = Vec::new();
    for mem2reg in [false, true] {
        let config = if mem2reg { "mem2reg" } else { "nomem2reg" };
        for (side, phicc_obj, other) in [
            ("SIDE_MAIN", "phicc_main", "gcc_lib"),
            ("SIDE_LIB", "phicc_lib", "gcc_main"),
        ] {
            let what = format!("{config}, {side} by phicc");
            let got = phicc_half(target, mem2reg, src, side, &obj(phicc_obj)).and_then(|_| {
                let objs = if side == "SIDE_MAIN" {
                    [obj(phicc_obj), obj(other)]
                } else {
                    [obj(other), obj(phicc_obj)]
                };
                link_and_run(target, [&objs[0], &objs[1]], &dir.path().join(phicc_obj))
            });
            match got {
                Ok(g) if g == want => {}
                Ok(g) => failures.push(format!("{}: {}", tag(&what), first_difference(&want, &g))),
                Err(e) => failures.push(format!("{}: {e}", tag(&what))),
            }
        }
    }
    failures
}

fn check_target(target: Target) {
    if let Some(reason) = run_target::cannot_run(target) {
        skip::skip(&format!("abi_pairs {}", target.name()), &reason);
        return;
    }
    let files: Vec<PathBuf> = files()
        .into_iter()
        .filter(|f| file_targets(f).contains(&target))
        .collect();
    assert!(
        !files.is_empty() || std::env::var("ABI_TEST").is_ok(),
        "no ABI tests found"
    );
    let failures: Vec<String> = files.iter().flat_map(|f| check(f, target)).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn abi_pairs_x86_64() {
    if Target::X86_64.is_host() {
        check_target(Target::X86_64);
    } else {
        skip::skip("abi_pairs x86_64", "not an x86-64 host");
    }
}

#[test]
fn abi_pairs_riscv64() {
    check_target(Target::Riscv64);
}

#[test]
fn abi_pairs_aarch64() {
    check_target(Target::Aarch64);
}
