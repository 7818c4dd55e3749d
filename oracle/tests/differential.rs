//! Outcome classification of the differential oracle, driven by a fake
//! compiler (`tests/fake/phicc-gcc`: gcc behind phicc's flags, with
//! switchable misbehaviour) on small C programs.

use oracle::differential::{diff_program, Class, DiffReport, DiffSpec, ReferenceMode};
use oracle::target::{host, Config, Target};
use oracle::toolchain::Toolchain;
use std::path::PathBuf;
use std::time::Duration;

const SWAP: &str = r#"#include <stdio.h>
int main(void) {
    unsigned a = 1, b = 2, c = 3;
    for (int i = 0; i < 7; i++) { unsigned t = a; a = b; b = c; c = t + i; }
    printf("%u %u %u\n", a, b, c);
    return 0;
}
"#;

fn fake() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake/phicc-gcc")
}

fn diff_with(
    program: &str,
    env: &[(&str, &str)],
    targets: &[Target],
    tweak: impl FnOnce(&mut Toolchain),
) -> DiffReport {
    diff_against(program, env, targets, ReferenceMode::Host, tweak)
}

fn diff_against(
    program: &str,
    env: &[(&str, &str)],
    targets: &[Target],
    reference: ReferenceMode,
    tweak: impl FnOnce(&mut Toolchain),
) -> DiffReport {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("program.c");
    std::fs::write(&src, program).unwrap();
    let mut tools = Toolchain::new(fake());
    tools.env = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    tools.run_limits.timeout = Duration::from_secs(5);
    tweak(&mut tools);
    let spec = DiffSpec {
        targets: targets.to_vec(),
        configs: Config::DEFAULT.to_vec(),
        reference,
    };
    diff_program(&tools, &spec, &src, dir.path()).unwrap()
}

fn diff(program: &str, env: &[(&str, &str)]) -> DiffReport {
    diff_with(program, env, &[host()], |_| {})
}

#[test]
fn a_correct_compiler_agrees() {
    let r = diff(SWAP, &[]);
    assert_eq!(r.class, Class::Agree, "{}", r.table());
    assert!(r.cells_at_fault.is_empty());
    let e = r.expected(host()).unwrap();
    // Worked by hand: (a, b, c) goes (2,3,1) (3,1,3) (1,3,5) (3,5,4) (5,4,7) (4,7,10) (7,10,10).
    assert_eq!(e.stdout, "7 10 10\n", "the reference ran the program");
}

#[test]
fn a_wrong_output_is_a_mismatch_in_the_guilty_cell_on_every_target() {
    let r = diff_with(
        SWAP,
        &[("FAKE_PHICC_BUG", "mismatch")],
        &[Target::X86_64, Target::Aarch64],
        |_| {},
    );
    assert_eq!(r.class, Class::Mismatch, "{}", r.table());
    assert_eq!(r.cells_at_fault, vec!["aarch64/mem2reg", "x86_64/mem2reg"]);
    assert_eq!(r.signature(), "mismatch:aarch64/mem2reg,x86_64/mem2reg");
    let bad = r.cell(Target::Aarch64, Some(Config::Mem2reg)).unwrap();
    assert!(bad.execution.as_ref().unwrap().stdout.starts_with("miscompiled\n"));
    assert_eq!(
        r.cell(Target::Aarch64, Some(Config::Nomem2reg)).unwrap().verdict,
        "agree"
    );
}

#[test]
fn an_internal_compiler_error_or_a_signal_is_a_crash() {
    for bug in ["crash", "signal"] {
        let r = diff(SWAP, &[("FAKE_PHICC_BUG", bug)]);
        assert_eq!(r.class, Class::CompilerCrash, "{bug}: {}", r.table());
        assert_eq!(r.cells_at_fault, vec![format!("{}/mem2reg", host())]);
    }
}

#[test]
fn a_hanging_compiler_is_a_crash_after_its_timeout() {
    let r = diff_with(SWAP, &[("FAKE_PHICC_BUG", "hang")], &[host()], |t| {
        t.compile_limits.timeout = Duration::from_millis(800);
    });
    assert_eq!(r.class, Class::CompilerCrash, "{}", r.table());
    assert!(r.detail.contains("timeout"), "{}", r.detail);
}

#[test]
fn rejecting_a_valid_program_or_emitting_bad_assembly_is_a_compiler_error() {
    for bug in ["error", "bad-asm"] {
        let r = diff(SWAP, &[("FAKE_PHICC_BUG", bug)]);
        assert_eq!(r.class, Class::CompilerError, "{bug}: {}", r.table());
    }
}

/// Termination is an outcome: a binary that times out where the reference
/// finished is a finding, even when every configuration times out; only
/// without a reference is "all timed out" discarded as a slow program.
#[test]
fn a_timeout_is_a_finding_when_the_reference_finished() {
    let quick = |t: &mut Toolchain| t.run_limits.timeout = Duration::from_millis(700);
    let some = diff_with(SWAP, &[("FAKE_PHICC_BUG", "slow")], &[host()], quick);
    assert_eq!(some.class, Class::Timeout, "{}", some.table());
    assert!(some.class.is_finding());
    let everywhere = [("FAKE_PHICC_BUG", "slow"), ("FAKE_PHICC_BUG_EVERYWHERE", "1")];
    let all = diff_with(SWAP, &everywhere, &[host()], quick);
    assert_eq!(all.class, Class::Timeout, "{}", all.table());
    assert!(all.class.is_finding());
    assert_eq!(all.signature(), format!("timeout:{0}/mem2reg,{0}/nomem2reg", host()));
    let unreferenced = diff_against(SWAP, &everywhere, &[host()], ReferenceMode::None, quick);
    assert_eq!(unreferenced.class, Class::AllTimeout, "{}", unreferenced.table());
    assert!(!unreferenced.class.is_finding());
}

#[test]
fn a_program_the_reference_cannot_build_or_finish_is_discarded() {
    let r = diff("int main(void) { return undeclared; }\n", &[]);
    assert_eq!(r.class, Class::ReferenceFailure, "{}", r.table());
    let r = diff_with(
        "int main(void) { for (volatile int i = 1; i; ) ; }\n",
        &[],
        &[host()],
        |t| t.reference_limits.timeout = Duration::from_millis(500),
    );
    assert_eq!(r.class, Class::ReferenceFailure, "{}", r.table());
    assert!(!r.class.is_finding());
    // Nothing was compiled with the compiler under test.
    assert!(r.cells.iter().all(|c| c.config.is_none()));
}

#[test]
fn a_slow_reference_stretches_the_limit_of_the_compiled_binaries() {
    // The reference sleeps 300 ms; the compiled binaries' own limit is 100 ms
    // but may stretch to 30 times the reference's time.
    let sleepy =
        "#include <stdio.h>\n#include <unistd.h>\nint main(void) { usleep(300000); puts(\"awake\"); return 0; }\n";
    let r = diff_with(sleepy, &[], &[host()], |t| {
        t.run_limits.timeout = Duration::from_millis(100)
    });
    assert_eq!(r.class, Class::Agree, "{}", r.table());
    // A reference slower than its own limit is discarded.
    let r = diff_with(sleepy, &[], &[host()], |t| {
        t.reference_limits.timeout = Duration::from_millis(100)
    });
    assert_eq!(r.class, Class::ReferenceFailure, "{}", r.table());
}

#[test]
fn identical_assembly_is_run_once() {
    let r = diff(SWAP, &[("FAKE_PHICC_OPT", "-O0")]);
    assert_eq!(r.class, Class::Agree, "{}", r.table());
    let m = r.cell(host(), Some(Config::Mem2reg)).unwrap();
    let n = r.cell(host(), Some(Config::Nomem2reg)).unwrap();
    assert_eq!(m.asm_hash, n.asm_hash);
    assert_eq!(m.same_asm_as, Some(Config::Nomem2reg));
    assert!(
        m.link.is_some() && m.execution.is_some(),
        "the first run's result is shared"
    );
    let differs = diff(SWAP, &[]);
    assert_eq!(differs.cell(host(), Some(Config::Mem2reg)).unwrap().same_asm_as, None);
}

#[test]
fn oracle_diff_exit_status_and_expect() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("p.c");
    std::fs::write(&src, SWAP).unwrap();
    let run = |bug: &str, extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_oracle"))
            .args(["diff", src.to_str().unwrap(), "--targets", host().name()])
            .arg(format!("--compiler={}", fake().display()))
            .args(extra)
            .env("FAKE_PHICC_BUG", bug)
            .output()
            .unwrap()
    };
    let ok = run("", &[]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("verdict: agree"));
    assert_eq!(run("mismatch", &[]).status.code(), Some(1));
    let sig = format!("mismatch:{}/mem2reg", host());
    assert_eq!(run("mismatch", &["--expect", &sig]).status.code(), Some(0));
    assert_eq!(run("crash", &["--expect", &sig]).status.code(), Some(1));
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_oracle"))
        .args(["diff", "/nonexistent.c", "--compiler=/nonexistent/phicc"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn references_come_from_the_cache_on_a_second_run_with_the_same_key() {
    let cache = tempfile::tempdir().unwrap();
    let with_cache = |t: &mut Toolchain| t.reference_cache = Some(cache.path().to_path_buf());
    let first = diff_with(SWAP, &[], &[host()], with_cache);
    assert_eq!(first.timings.references_cached, 0);
    assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 1, "one entry stored");
    let second = diff_with(SWAP, &[], &[host()], with_cache);
    assert_eq!(second.class, Class::Agree, "{}", second.table());
    assert_eq!(second.timings.references_cached, 1);
    assert_eq!(second.timings.reference, 0.0, "nothing built or run");
    assert_eq!(second.expected(host()).unwrap().stdout, "7 10 10\n");
    // Another program, or another reference limit, is another key.
    let other = diff_with(&SWAP.replace("i < 7", "i < 8"), &[], &[host()], with_cache);
    assert_eq!(other.timings.references_cached, 0);
    let limit = diff_with(SWAP, &[], &[host()], |t| {
        with_cache(t);
        t.reference_limits.timeout = Duration::from_secs(2);
    });
    assert_eq!(limit.timings.references_cached, 0);
    // A cached reference gives the same verdicts: the mismatch is still found.
    let bug = diff_with(SWAP, &[("FAKE_PHICC_BUG", "mismatch")], &[host()], with_cache);
    assert_eq!(bug.timings.references_cached, 1);
    assert_eq!(bug.class, Class::Mismatch, "{}", bug.table());
}
