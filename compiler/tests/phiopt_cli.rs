//! The `phiopt` command line: exit statuses, input from a file or stdin,
//! output to stdout or `-o`, `--run`, `--check`, `--stats`, `--list-passes`
//! and clear errors.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn phiopt(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_phiopt"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("phiopt runs");
    if let Some(text) = stdin {
        // phiopt may exit (bad flags) before reading its input: a broken pipe here is fine.
        let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn corpus(name: &str) -> String {
    format!("{}/../corpora/ir/{name}", env!("CARGO_MANIFEST_DIR"))
}

const SWAP: &str = "define @main() -> i32 {
bb0:
  %0 = alloca i32, size 4, align 4
  store i32 41i32, %0
  %1 = load i32 %0
  %2 = add i32 %1, 1i32
  ret %2
}
";

#[test]
fn check_passes_on_the_corpus() {
    for f in ["loop_swap.ir", "asm_goto_outputs.ir", "computed_goto.ir"] {
        let o = phiopt(
            &[
                "--passes=mem2reg-pipeline",
                "--verify-each",
                "--check",
                "--schedule=0,1,2",
                &corpus(f),
            ],
            None,
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{f}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(out.matches("same outcome").count(), 3, "{out}");
    }
}

#[test]
fn reads_stdin_runs_and_prints() {
    let o = phiopt(&["--passes=mem2reg", "--run"], Some(SWAP));
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("42"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // Without --run or --check the transformed IR is printed: no alloca left.
    let o = phiopt(&["--passes=mem2reg-pipeline", "-"], Some(SWAP));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0));
    assert!(out.contains("define @main") && !out.contains("alloca"), "{out}");
}

#[test]
fn writes_output_file_and_stats() {
    let dir = std::env::temp_dir().join(format!("phiopt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.ir");
    let o = phiopt(
        &[
            "--passes=mem2reg",
            "--stats",
            "-o",
            out.to_str().unwrap(),
            &corpus("diamond.ir"),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("phi"), "{text}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("allocas promoted"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_exit_2_with_a_position() {
    let o = phiopt(&["--run"], Some("define @main() -> i32 {\nbb0:\n  ret %\n}\n"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("<stdin>:3:"), "{err}");

    let o = phiopt(&["/nonexistent/file.ir"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));

    let o = phiopt(&["--passes=mem2reg,nosuchpass"], Some(SWAP));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown pass"));

    // Input that parses but does not verify (use of an undefined value).
    let bad = "define @main() -> i32 {\nbb0:\n  ret %7\n}\n";
    let o = phiopt(&["--passes=verify"], Some(bad));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not verify"));
}

/// A terminating single-block loop: the counter %1 runs 0..10 (42 steps).
const COUNT_TO_10: &str = "define @main() -> i32 {
bb0:
  br bb1
bb1:
  %1 = phi i32 [0i32, bb0], [%2, bb1]
  %2 = add i32 %1, 1i32
  %3 = cmp slt i32 %2, 10i32
  condbr %3, bb1, bb2
bb2:
  ret %2
}
";

/// `phiopt --check --against FILE` on a hand-written pair: a program that no
/// longer terminates is a finding (exit 1) even though it only "ran out of
/// fuel"; the transformed run gets at least 8 x the original's steps + 10000
/// whatever `--fuel` says; an original that runs out of fuel is inconclusive.
#[test]
fn check_reports_a_program_that_no_longer_terminates() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let stuck = write("stuck.ir", &COUNT_TO_10.replace("add i32 %1, 1i32", "add i32 %1, 0i32"));
    let o = phiopt(&["--check", "--fuel=100000", "--against", &stuck], Some(COUNT_TO_10));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("NO LONGER TERMINATES"), "{out}");
    assert!(
        out.contains("finished in 42 steps") && out.contains("the limit is 10336"),
        "{out}"
    );

    // Slower but finishing (about 4,000 steps) is no finding, even with 1,000 fuel.
    let slow = write(
        "slow.ir",
        &COUNT_TO_10.replace("10i32", "1000i32").replace("ret %2", "ret 10i32"),
    );
    let o = phiopt(&["--check", "--fuel=1000", "--against", &slow], Some(COUNT_TO_10));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("same outcome (returned 10"), "{out}");

    // The original itself out of fuel: inconclusive, exit 0.
    let o = phiopt(
        &["--check", "--fuel=1000", "--against", &stuck],
        Some(&std::fs::read_to_string(&stuck).unwrap()),
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("inconclusive (the original ran out of fuel)"), "{out}");
}

/// With the injected bug `self-loop-no-copy`, phi elimination turns the
/// committed regression (a terminating single-block loop) into one that runs
/// forever, and `phiopt --check` exits 1; without the bug it passes. Runs in a
/// build with the feature: `cargo test -p phicc --features inject-bugs --test phiopt_cli`.
#[cfg(feature = "inject-bugs")]
#[test]
fn check_finds_the_injected_self_loop_hang() {
    let file = format!(
        "{}/../corpora/regressions/self-loop-no-copy.ir",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = ["--passes=phi-elim", "--verify-each", "--check", "--schedule=0,1", &file];
    let o = phiopt(&args, None);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let mut buggy = args.to_vec();
    buggy.push("--inject-bug=self-loop-no-copy");
    let o = phiopt(&buggy, None);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("schedule 0: NO LONGER TERMINATES"), "{out}");
}

#[test]
fn inject_bug_needs_the_feature() {
    let o = phiopt(&["--inject-bug=lost-copy", "--passes=phi-elim"], Some(SWAP));
    if cfg!(feature = "inject-bugs") {
        assert_eq!(o.status.code(), Some(0));
    } else {
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("inject-bugs"));
    }
    let o = phiopt(&["--inject-bug=no-such-bug"], Some(SWAP));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown injected bug"));
}

/// IR that breaks an invariant of the backend is an internal compiler error
/// (exit 70) even without `--verify-each`; asm the backend cannot compile is
/// bad input (exit 2), as any other input phiopt cannot use.
#[test]
fn backend_errors_by_kind() {
    let undefined = "define @main() -> i32 {\nbb0:\n  ret %2\n}\n";
    // Verifies, but no C program lowers to it: va_start outside a variadic function.
    let va_start = "define @main() -> i32 {\nbb0:\n  %0 = alloca i8, size 32, align 8\n  vastart %0\n  ret 0i32\n}\n";
    let asm = "define @main() -> i32 {\nbb0:\n  %0 = alloca i32, size 4, align 4\n  \
               asm \"fld %1\" outputs(\"=t\" *%0) inputs(\"r\" 1i32) types(i32, i32)\n  \
               %1 = load i32 %0\n  ret %1\n}\n";
    for target in ["x86_64", "aarch64", "riscv64"] {
        let flag = format!("--emit-asm={target}");
        for (ir, what) in [(undefined, "%2"), (va_start, "not variadic")] {
            let o = phiopt(&[&flag], Some(ir));
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(phicc::exit::ICE), "{target}: {err}");
            assert!(
                err.contains("internal compiler error") && err.contains(what),
                "{target}: {err}"
            );
        }
        let o = phiopt(&[&flag], Some(asm));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(phicc::exit::USAGE), "{target}: {err}");
        assert!(
            err.contains("in function 'main': inline asm: ") && err.contains("'=t'"),
            "{target}: {err}"
        );
    }
}

/// `--list-passes` prints the pass table, and `--passes` and
/// `--print-ir-after` take each of its passes and configuration groups.
#[test]
fn the_pass_table_is_listed_and_every_row_runs() {
    use phicc::passes::{Configuration, PassKind};
    let o = phiopt(&["--list-passes"], None);
    assert_eq!(o.status.code(), Some(0));
    let listing = String::from_utf8_lossy(&o.stdout);
    for pass in PassKind::ALL {
        assert!(
            listing.contains(pass.name()) && listing.contains(pass.pass().about),
            "{pass}: {listing}"
        );
        let spec = format!("--passes={pass}");
        let after = format!("--print-ir-after={pass}");
        let o = phiopt(&[&spec, &after, "--stats", "-"], Some(SWAP));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{pass}: {err}");
        assert!(err.contains(&format!("; *** IR after {pass} ***")), "{pass}: {err}");
        for counter in pass.pass().counters {
            assert!(
                err.contains(&format!("{pass}: ")) && err.contains(counter),
                "{pass}: {err}"
            );
        }
    }
    for c in Configuration::ALL {
        assert!(listing.contains(c.group()), "{listing}");
        let spec = format!("--passes={}", c.group());
        let o = phiopt(&[&spec, "--verify-each", "-"], Some(SWAP));
        assert_eq!(o.status.code(), Some(0), "{c}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let o = phiopt(&["--passes=phi-elim", "--print-ir-after=pre", "-"], Some(SWAP));
    assert_eq!(o.status.code(), Some(2));
}
