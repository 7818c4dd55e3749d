//! `oracle bench-code --quick` on its smallest workload (`repro-02`, here a
//! stand-in computed-goto program passed with `--repro02`), one repetition,
//! with the gcc-based stand-in for phicc (`tests/fake/phicc-gcc`): the
//! report has the time and frame tables, every build's output is compared
//! with gcc -O0's, builds come from the cache on a second run, and a wrong
//! output (the stand-in's `mismatch` bug) is a loud mismatch with exit
//! status 1. No assertion is about timing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A computed-goto dispatch loop like repro-02's, shorter.
const PROGRAM: &str = r#"
#include <stdio.h>
int main(void) {
    static void *tab[4] = {&&a, &&b, &&c, &&end};
    unsigned long x = 1, y = 2, n = 0;
    goto *tab[0];
a:  x += y; n++; goto *tab[1 + (n & 1)];
b:  y = y * 3 + n; goto *tab[n < 200000 ? 0 : 3];
c:  x ^= y >> 2; goto *tab[n < 200000 ? 0 : 3];
end:
    printf("%lu %lu %lu\n", x, y, n);
    return 0;
}
"#;

fn bench(dir: &Path, env: &[(&str, &str)]) -> Output {
    bench_with(dir, env, &[])
}

fn bench_with(dir: &Path, env: &[(&str, &str)], extra: &[&str]) -> Output {
    let fake = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake/phicc-gcc");
    let program = dir.join("dispatch.c");
    std::fs::write(&program, PROGRAM).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oracle"));
    cmd.args([
        "bench-code",
        "--quick",
        "--reps",
        "1",
        "--run-timeout",
        "60",
        "repro-02",
    ])
    .arg(format!("--targets={}", oracle::target::host()))
    .arg(format!("--compiler={}", fake.display()))
    .arg(format!("--repro02={}", program.display()))
    .arg(format!("--cache={}", dir.join("cache").display()))
    .arg(format!("--out={}", dir.join("report.md").display()))
    .args(extra);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("running oracle bench-code")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The cells of the table row that starts with `| NAME |`.
fn row(report: &str, name: &str) -> Vec<String> {
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("| {name} |")))
        .unwrap_or_else(|| panic!("no row `{name}` in:\n{report}"));
    line.trim_matches('|')
        .split('|')
        .skip(1)
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn quick_run_reports_times_frames_and_compares_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = bench(dir.path(), &[]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(std::fs::read_to_string(dir.path().join("report.md")).unwrap(), stdout);

    // The time table: gcc -O0's seconds, then a ratio for each of the four other builds.
    assert!(stdout.contains("| workload | gcc -O0 (CPU s) | gcc -O1 | phicc -fno-mem2reg | phicc | phicc -O1 |"));
    let times = row(&stdout, "repro-02");
    assert_eq!(times.len(), 5, "{times:?}");
    assert!(times[0].ends_with(" s"), "{times:?}");
    for r in &times[1..] {
        let x: f64 = r.trim_end_matches('×').parse().unwrap_or_else(|_| panic!("{times:?}"));
        assert!(x > 0.0, "{times:?}");
    }
    // The frame table names `main`, the only function, in every build.
    let frames = stdout
        .lines()
        .filter(|l| l.starts_with("| repro-02 |"))
        .nth(1)
        .expect("a frame row");
    assert_eq!(frames.matches("`main`").count(), 5, "{frames}");
    // Every build's output was compared with gcc -O0's (its own included).
    assert!(
        stdout.contains("Outputs: 5 runs compared with gcc -O0's, 0 mismatches; 0 failures."),
        "{stdout}"
    );
    assert!(stderr.contains("building repro-02"), "{stderr}");

    // A second run takes every build from the cache.
    let again = bench(dir.path(), &[]);
    let stderr = text(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("building"), "{stderr}");
    assert_eq!(stderr.matches(": cached").count(), 5, "{stderr}");
}

#[test]
fn a_wrong_output_is_a_loud_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    // The stand-in's mem2reg configuration (phicc, and phicc -O1, which it
    // compiles the same way) prints an extra line.
    let out = bench(dir.path(), &[("FAKE_PHICC_BUG", "mismatch")]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "stdout:\n{stdout}\nstderr:\n{stderr}");
    let times = row(&stdout, "repro-02");
    assert_eq!(times[3], "**MISMATCH**", "{times:?}");
    assert!(!times[2].contains("MISMATCH"), "{times:?}");
    let host = oracle::target::host();
    assert!(
        stdout.contains(&format!(
            "MISMATCH {host} repro-02 phicc: repro-02: output differs from gcc -O0's at line 2 (line 1 is the exit status): `miscompiled` instead of"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("Outputs: 5 runs compared with gcc -O0's, 2 mismatches; 0 failures."),
        "{stdout}"
    );
    // Both outputs are kept for a look.
    let saved = dir
        .path()
        .join(format!("cache/mismatches/{host}-repro-02-phicc-mem2reg-step1.out"));
    assert!(std::fs::read_to_string(&saved).unwrap().contains("miscompiled"));
    assert!(stderr.contains("MISMATCH"), "{stderr}");
}

/// The address of `main` in an ELF binary (`nm`).
fn main_address(binary: &Path) -> u64 {
    let out = Command::new("nm").arg(binary).output().unwrap();
    let text = text(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.ends_with(" T main"))
        .unwrap_or_else(|| panic!("no main in {}:\n{text}", binary.display()));
    u64::from_str_radix(line.split(' ').next().unwrap(), 16).unwrap()
}

#[test]
fn single_file_workloads_rotate_through_code_layouts() {
    let dir = tempfile::tempdir().unwrap();
    // The later --reps wins over bench()'s `--reps 1`.
    let out = bench_with(dir.path(), &[], &["--layouts", "3", "--reps", "3"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("; 3 code layouts, 1360 bytes apart"), "{stdout}");
    // Three repetitions of five builds, every output compared.
    assert!(
        stdout.contains("Outputs: 15 runs compared with gcc -O0's, 0 mismatches; 0 failures."),
        "{stdout}"
    );
    // Each build has its layouts, main moved by at least 1 and 2 KiB
    // (steps of 4 KiB / 3, rounded down to 16 bytes).
    let builds = dir.path().join("cache/builds");
    let mut checked = 0;
    for e in std::fs::read_dir(&builds).unwrap() {
        let d = e.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        let base = main_address(&d.join("prog"));
        for (n, at_least) in [(1, 1024), (2, 2048)] {
            let moved = main_address(&d.join(format!("prog-{n}")));
            assert!(
                moved >= base + at_least,
                "{}: main at {base:#x} and {moved:#x}",
                d.display()
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 5, "one directory per build");
}
