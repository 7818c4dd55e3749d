//! `oracle bisect` on programs an injected bug breaks names the application
//! where the bug fires. The compiler is the phicc driver linked into this
//! build of oracle (`oracle phicc`, with the `inject-bugs` feature), and the
//! bug is `gvn-load-across-store`: GVN's stores forget no earlier load, so a
//! load after a store to the same address takes the value loaded before it
//! (compiler/src/passes/gvn.rs). It fires exactly in the functions with a
//! load, a store and a load of one alloca or global, which the tests check
//! independently: the function's IR after gvn differs with and without the
//! bug at the application bisect names, and not one application earlier.
//!
//! - one C file, compared with gcc -O0 (a second of trials);
//! - a three-file build through `--src/--build/--test` (the unit stage);
//! - a test that fails at limit 0 too ("not in the pass pipeline") and a
//!   build that fails with no failing compile (a tool error);
//! - Lua's `testes/strings.lua` through `--realprog lua` (two to five minutes
//!   of trials: `#[ignore]`d; run it with `cargo test -p oracle --features
//!   inject-bugs --test bisect -- --ignored`; it needs ../shared/realprogs).
#![cfg(feature = "inject-bugs")]

use std::path::Path;
use std::process::{Command, Output};

const BUG: &str = "gvn-load-across-store";

/// The victim: a load, a store and a load of the global `g` (6 when right,
/// 2 when the second load reuses the first).
const VICTIM: &str = r#"
int g;
__attribute__((noinline)) int twice(int x) { int a = g; g = x; int b = g; return a + b; }
"#;

#[path = "support/phicc_script.rs"]
mod phicc_script;
use phicc_script::phicc_script;

fn bisect(dir: &Path, bug: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oracle"));
    cmd.arg("bisect")
        .arg(format!("--compiler={}", phicc_script(dir).display()))
        .args(args)
        .env_remove("PHICC_INJECT_BUG");
    if let Some(b) = bug {
        cmd.env("PHICC_INJECT_BUG", b);
    }
    cmd.output().expect("running oracle bisect")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The value of `  KEY: value` in the report.
fn field(report: &str, key: &str) -> String {
    report
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no `{key}:` in the report:\n{report}"))
        .trim()
        .to_string()
}

/// N of "first failing application N of M".
fn application_number(report: &str) -> u64 {
    let rest = report
        .split("first failing application ")
        .nth(1)
        .unwrap_or_else(|| panic!("no application named:\n{report}"));
    rest.split(' ').next().unwrap().parse().unwrap()
}

/// The IR of `function` after gvn, compiling `args` in `cwd` at `limit`, with or without the bug.
fn ir_after_gvn(dir: &Path, cwd: &Path, args: &[&str], limit: u64, bug: bool, function: &str) -> String {
    let mut cmd = Command::new(phicc_script(dir));
    cmd.args(args)
        .arg(format!("--fopt-bisect-limit={limit}"))
        .args(["--print-ir-after", "gvn", "-o"])
        .arg(dir.join("probe.o"))
        .current_dir(cwd)
        .env_remove("PHICC_INJECT_BUG");
    if bug {
        cmd.env("PHICC_INJECT_BUG", BUG);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ir = oracle::bisect::ir_after(&text(&out.stderr));
    oracle::bisect::function_ir(&ir, function).unwrap_or_else(|| panic!("no {function} in\n{ir}"))
}

/// The bug fires in `function` at application `n` and not before: its IR
/// after gvn is the same with and without the bug at `n - 1` and differs at `n`.
fn assert_fires_at(dir: &Path, cwd: &Path, args: &[&str], n: u64, function: &str) {
    let at = |limit, bug| ir_after_gvn(dir, cwd, args, limit, bug, function);
    assert_eq!(
        at(n - 1, false),
        at(n - 1, true),
        "the bug changed {function} before {n}"
    );
    assert_ne!(at(n, false), at(n, true), "the bug does not change {function} at {n}");
}

#[test]
fn one_file_is_bisected_to_the_function_the_bug_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("gvn.c");
    std::fs::write(
        &program,
        format!(
            "#include <stdio.h>\n{VICTIM}\nstatic int sq(int x) {{ return x * x; }}\n\
             int main(void) {{ g = 1; int s = 0; for (int i = 0; i < 4; i++) s += sq(i); printf(\"%d %d\\n\", s, twice(5)); return 0; }}\n"
        ),
    )
    .unwrap();
    let file = program.display().to_string();
    let out = bisect(dir.path(), Some(BUG), &[&file]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}\n{}", text(&out.stderr));
    assert_eq!(field(&report, "pass"), "gvn", "{report}");
    assert_eq!(field(&report, "function"), "twice", "{report}");
    assert!(
        report.contains("differ: "),
        "the failure is cmp's against gcc -O0:\n{report}"
    );
    assert!(report.contains("-  %"), "no IR diff:\n{report}");
    let n = application_number(&report);
    assert_fires_at(dir.path(), dir.path(), &["-O1", "-c", "gvn.c"], n, "twice");

    // Without the bug the program agrees with gcc -O0: nothing to bisect.
    let out = bisect(dir.path(), None, &[&file]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("does not reproduce"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_build_is_bisected_to_its_unit_then_its_application() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("a.c"),
        "int sq(int x) { int t[2]; t[0] = x; t[1] = t[0] * x; return t[1]; }\n",
    )
    .unwrap();
    std::fs::write(src.join("b.c"), VICTIM).unwrap();
    std::fs::write(
        src.join("c.c"),
        "int sq(int); int twice(int); extern int g;\n\
         int main(void) { g = 1; int s = 0; for (int i = 0; i < 4; i++) s += sq(i); return s == 14 && twice(5) == 6 ? 0 : 1; }\n",
    )
    .unwrap();
    let build = "$CC -c -o a.o a.c && $CC -c -o b.o b.c && $CC -c -o c.o c.c && $CC -o prog a.o b.o c.o";
    let src_arg = src.display().to_string();
    let out = bisect(
        dir.path(),
        Some(BUG),
        &["--src", &src_arg, "--build", build, "--test", "./prog"],
    );
    let report = text(&out.stdout);
    let progress = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{report}\n{progress}");
    assert!(report.contains("in unit b.c -> b.o"), "{report}");
    assert_eq!(field(&report, "pass"), "gvn", "{report}");
    assert_eq!(field(&report, "function"), "twice", "{report}");
    assert!(report.contains("(every other unit at 0): fails too"), "{report}");
    // The unit stage reused the objects of the first two trials.
    assert!(progress.contains("0 compiles, 3 cached"), "{progress}");
    let n = application_number(&report);
    assert_fires_at(dir.path(), &src, &["-O1", "-c", "b.c"], n, "twice");
}

/// Lua's `testes/strings.lua` fails with the bug (`attempt to call a number
/// value`); bisect names GVN on `luaV_execute` in `lvm.c`.
#[test]
#[ignore = "two to five minutes: 17 trial builds of Lua"]
fn lua_is_bisected_to_gvn_on_luav_execute() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let work_arg = work.display().to_string();
    let out = bisect(
        dir.path(),
        Some(BUG),
        &[
            "--realprog",
            "lua",
            "--test",
            "cd testes && ../lua -e_port=true strings.lua",
            "--work",
            &work_arg,
        ],
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}\n{}", text(&out.stderr));
    assert!(report.contains("in unit lvm.c -> lvm.o"), "{report}");
    assert_eq!(field(&report, "pass"), "gvn", "{report}");
    assert_eq!(field(&report, "function"), "luaV_execute", "{report}");
    assert!(report.contains("strings.lua"), "{report}");
    let n = application_number(&report);
    assert_fires_at(
        dir.path(),
        &work.join("trial"),
        &["-O1", "-std=c99", "-DLUA_USE_LINUX", "-c", "lvm.c"],
        n,
        "luaV_execute",
    );
}

/// A test that fails whatever the compiler does is "not in the pass
/// pipeline" (exit 1), after the allocator stage also finds nothing; a build
/// that fails without a failing compile is a tool error (exit 2).
#[test]
fn failures_outside_the_pipeline_are_reported_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("m.c"), "int main(void) { return 0; }\n").unwrap();
    let src_arg = src.display().to_string();
    let build = "$CC -o prog m.c";
    let out = bisect(
        dir.path(),
        None,
        &["--src", &src_arg, "--build", build, "--test", "false"],
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}\n{}", text(&out.stderr));
    assert!(report.contains("not in the pass pipeline"), "{report}");
    assert!(
        text(&out.stderr).contains("the register allocator off everywhere: FAILS"),
        "{}",
        text(&out.stderr)
    );

    let out = bisect(
        dir.path(),
        None,
        &["--src", &src_arg, "--build", "exit 3", "--test", "true"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("with no failing phicc compile"),
        "{}",
        text(&out.stderr)
    );
}
