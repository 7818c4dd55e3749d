//! The oracle's in-process compiles (`oracle::compile_worker`) and direct
//! links (`toolchain::Linker`) against what they replace: the worker's
//! assembly and objects must be byte for byte what the `phicc` driver makes
//! (`oracle phicc`, the same driver linked into oracle), on every target and
//! configuration; a rejected program must give phicc's status and message;
//! a worker past the compile limit must be killed and replaced; and every
//! linker must make binaries that run.

use oracle::target::{Config, Target};
use oracle::toolchain::{CompiledConfig, Linker, StepOutcome, Toolchain};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const CONFIGS: [Config; 3] = [Config::Nomem2reg, Config::Mem2reg, Config::Opt];
const TARGETS: [Target; 3] = [Target::X86_64, Target::Aarch64, Target::Riscv64];

fn oracle_exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_oracle"))
}

fn worker_tools() -> Toolchain {
    let mut t = Toolchain::new(PathBuf::from("phicc"));
    t.compile_worker = Some(oracle_exe());
    t
}

/// `oracle phicc ARGS` (phicc's driver): exit status, stderr.
fn driver(args: &[String]) -> (i32, String) {
    let o = Command::new(oracle_exe()).arg("phicc").args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn suite_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../compiler/tests/c")
        .join(name)
}

#[test]
fn the_worker_builds_what_the_driver_builds() {
    let tools = worker_tools();
    let dir = tempfile::tempdir().unwrap();
    let (wdir, ddir) = (dir.path().join("worker"), dir.path().join("driver"));
    std::fs::create_dir_all(&wdir).unwrap();
    std::fs::create_dir_all(&ddir).unwrap();
    // Loops and phis, switches, records and calls, floating point, varargs.
    let files = [
        "control_flow.c",
        "switch_sparse.c",
        "records_and_calls.c",
        "floats.c",
        "varargs.c",
    ];
    let mut compared = 0;
    for f in files {
        let src = suite_file(f);
        assert!(src.exists(), "{} is gone: pick another suite program", src.display());
        for t in TARGETS {
            let built: Vec<CompiledConfig> = tools.compile_configs(t, &CONFIGS, &src, &wdir).unwrap();
            for (c, w) in CONFIGS.iter().zip(&built) {
                assert!(w.step.ok(), "{f} {t} {c}: {}", w.step.stderr);
                let asm = ddir.join(format!("{t}-{c}.s"));
                let (status, err) = driver(&tools.phicc_args(t, *c, "-S", &src, &asm));
                assert_eq!(status, 0, "{f} {t} {c}: {err}");
                assert!(
                    std::fs::read(&w.assembly).unwrap() == std::fs::read(&asm).unwrap(),
                    "{f} {t} {c}: the worker's assembly differs from phicc -S's"
                );
                if let Some(obj) = &w.object {
                    let o = ddir.join(format!("{t}-{c}.o"));
                    let (status, err) = driver(&tools.phicc_args(t, *c, "-c", &src, &o));
                    assert_eq!(status, 0, "{f} {t} {c}: {err}");
                    assert!(
                        std::fs::read(obj).unwrap() == std::fs::read(&o).unwrap(),
                        "{f} {t} {c}: the worker's object differs from phicc -c's"
                    );
                }
                compared += 1;
            }
        }
    }
    assert_eq!(compared, files.len() * 9);
}

/// The worker's count of allocas kept by mem2reg's phi copy-cost limit
/// (what the campaign summary reports) is the in-process count: above zero
/// on switch-cost cgen programs (which reach the limit; cgen_validity.rs
/// checks that on mem2reg itself), zero on a suite program, and absent
/// where mem2reg does not run.
#[test]
fn the_worker_reports_the_copy_cost_limit_as_mem2reg_counts_it() {
    use oracle::cgen::{generate, CgenConfig, Emphasis};
    let mut tools = worker_tools();
    let include = vec![suite_file("")];
    tools.include_dirs = include.clone();
    let dir = tempfile::tempdir().unwrap();
    let cfg = CgenConfig::preset(Emphasis::SwitchCost);
    let mut programs: Vec<(String, bool)> = (1..=2).map(|seed| (generate(seed, &cfg), true)).collect();
    programs.push((std::fs::read_to_string(suite_file("control_flow.c")).unwrap(), false));
    for (i, (text, crosses)) in programs.iter().enumerate() {
        let src = dir.path().join(format!("p{i}.c"));
        std::fs::write(&src, text).unwrap();
        assert_eq!(
            oracle::campaign::crosses_cost_limit(text, &include),
            Some(*crosses),
            "program {i}: the in-process count"
        );
        let built = tools
            .compile_configs(Target::X86_64, &CONFIGS, &src, dir.path())
            .unwrap();
        for (c, b) in CONFIGS.iter().zip(&built) {
            assert!(b.step.ok(), "program {i} {c}: {}", b.step.stderr);
            let expected = (*c != Config::Nomem2reg).then_some(*crosses);
            assert_eq!(b.kept_by_cost_limit.map(|n| n > 0), expected, "program {i} {c}");
        }
    }
}

#[test]
fn a_rejected_program_gets_the_drivers_status_and_message() {
    let tools = worker_tools();
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.c");
    std::fs::write(&src, "int main(void) {\n  return undeclared_name;\n}\n").unwrap();
    let built = tools
        .compile_configs(Target::X86_64, &CONFIGS, &src, dir.path())
        .unwrap();
    let (status, err) = driver(&tools.phicc_args(Target::X86_64, Config::Mem2reg, "-S", &src, &dir.path().join("d.s")));
    assert_eq!(status, 1);
    assert!(err.contains("bad.c:2:"), "{err}");
    for b in &built {
        assert_eq!(b.step.outcome, StepOutcome::Rejected { status: 1 });
        assert_eq!(b.step.stderr, err);
        assert!(b.object.is_none());
    }
}

#[test]
fn a_worker_past_the_limit_is_killed_and_the_next_one_works() {
    let mut tools = worker_tools();
    let dir = tempfile::tempdir().unwrap();
    let src = suite_file("control_flow.c");
    // No compile finishes in a microsecond: each configuration times out,
    // and each gets a fresh worker.
    tools.compile_limits.timeout = Duration::from_micros(1);
    let built = tools
        .compile_configs(Target::X86_64, &CONFIGS, &src, dir.path())
        .unwrap();
    assert_eq!(built.len(), 3);
    for b in &built {
        assert_eq!(b.step.outcome, StepOutcome::Timeout);
    }
    tools.compile_limits.timeout = Duration::from_secs(60);
    let built = tools
        .compile_configs(Target::X86_64, &CONFIGS, &src, dir.path())
        .unwrap();
    assert!(built.iter().all(|b| b.step.ok()));
}

#[test]
fn every_linker_makes_binaries_that_run() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("swap.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include <math.h>\nint main(void) {\n  unsigned a = 1, b = 2, c = 3;\n  \
         for (int i = 0; i < 7; i++) { unsigned t = a; a = b; b = c; c = t + i; }\n  \
         volatile double x = 2.0;\n  printf(\"%u %u %u %.3f\\n\", a, b, c, sqrt(x));\n  return 0;\n}\n",
    )
    .unwrap();
    let mut tools = worker_tools();
    for t in TARGETS {
        let built = tools.compile_configs(t, &[Config::Mem2reg], &src, dir.path()).unwrap();
        for linker in [Linker::Gcc, Linker::Ld, Linker::Gold, Linker::Fast] {
            tools.linker = linker;
            // Through the object where the integrated assembler made one, and through the assembly.
            for c in [
                built[0].clone(),
                CompiledConfig {
                    object: None,
                    ..built[0].clone()
                },
            ] {
                let bin = dir.path().join(format!("{t}-{linker:?}-{}", c.object.is_some()));
                let step = tools.link_compiled(t, &c, &bin).unwrap();
                assert!(step.ok(), "{t} {linker:?}: {}\n{}", step.command, step.stderr);
                let r = tools.run(t, &bin, Duration::from_secs(20)).unwrap();
                // Worked by hand: (a, b, c) ends at (7, 10, 10); sqrt(2) = 1.41421...
                assert_eq!(
                    String::from_utf8_lossy(&r.stdout.bytes),
                    "7 10 10 1.414\n",
                    "{t} {linker:?}: {}",
                    step.command
                );
            }
        }
    }
}

/// The fast link puts the program on start files and C library members
/// prelinked for its undefined symbols; a program that defines a symbol
/// those members define (here its own `strcmp`, which the driver's link
/// takes instead of libc's) must take the full link, and still call its own.
#[test]
fn fast_link_prelinks_and_falls_back_for_a_program_defining_a_libc_symbol() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.c");
    std::fs::write(
        &plain,
        "#include <stdio.h>\n#include <string.h>\nint main(void) {\n  const char *volatile p = \"ab\";\n  \
         printf(\"%d\\n\", strcmp(p, \"ab\") == 0);\n  return 0;\n}\n",
    )
    .unwrap();
    let own = dir.path().join("own.c");
    std::fs::write(
        &own,
        "#include <stdio.h>\nint strcmp(const char *a, const char *b) { (void)a; (void)b; return 7; }\n\
         int main(void) {\n  const char *volatile p = \"ab\";\n  printf(\"%d\\n\", strcmp(p, p));\n  return 0;\n}\n",
    )
    .unwrap();
    let mut tools = worker_tools();
    tools.linker = Linker::Fast;
    for t in TARGETS {
        for (src, prelinked, expected) in [(&plain, true, "1\n"), (&own, false, "7\n")] {
            let built = tools.compile_configs(t, &[Config::Mem2reg], src, dir.path()).unwrap();
            let obj = built[0]
                .object
                .clone()
                .expect("the integrated assembler made an object");
            let bin = dir
                .path()
                .join(format!("{t}-{}", src.file_stem().unwrap().to_string_lossy()));
            assert_eq!(
                tools.prelinks.command(t, &obj, &bin).is_some(),
                prelinked,
                "{t} {}",
                src.display()
            );
            let step = tools.link_compiled(t, &built[0], &bin).unwrap();
            assert!(step.ok(), "{t}: {}\n{}", step.command, step.stderr);
            let r = tools.run(t, &bin, Duration::from_secs(20)).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&r.stdout.bytes),
                expected,
                "{t}: {}",
                step.command
            );
        }
    }
}
