//! A fast sample of `oracle cgen-validity` (issue 9, item 4): generated
//! programs compile without uninitialized / sequence-point / overflow
//! warnings, run clean under UBSan and ASan, print the same at -O0 and -O2,
//! and their asm goto templates agree with their plain-C fallback and (when
//! the cross toolchains and QEMU are installed) across the three targets.
//! Then the same kind of programs through phicc's frontend in process:
//! mem2reg keeps their meaning, and without inline asm (whose outputs the
//! interpreter invents) the interpreter prints exactly what gcc's build does.

#[path = "../../compiler/tests/support/skip.rs"]
mod skip;

use oracle::ccheck::{check_c, lower_c};
use oracle::cgen::{generate, CgenConfig, Emphasis};
use oracle::ircheck::CheckConfig;
use phicc::ir::interp::{run, RunConfig, RunResult};
use phicc::target::Target;
use std::path::Path;
use std::process::Command;

fn emphasis_of(seed: u64) -> Emphasis {
    Emphasis::ALL[(seed % Emphasis::ALL.len() as u64) as usize]
}

/// Compile `src` with `compiler` and `flags`, run the result (through
/// `runner` if any) and return its standard output, or why it failed.
fn build_and_run(
    dir: &Path,
    tag: &str,
    compiler: &str,
    flags: &[&str],
    runner: Option<&str>,
) -> Result<Vec<u8>, String> {
    let exe = dir.join(format!("{tag}.exe"));
    let out = Command::new(compiler)
        .args(flags)
        .arg(dir.join("p.c"))
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("{compiler}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{compiler} {flags:?}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut cmd = match runner {
        Some(r) => {
            let mut c = Command::new(r);
            c.arg(&exe);
            c
        }
        None => Command::new(&exe),
    };
    let run = cmd
        .env("ASAN_OPTIONS", "detect_leaks=0:detect_stack_use_after_return=1")
        .output()
        .map_err(|e| e.to_string())?;
    if !run.status.success() {
        return Err(format!(
            "{tag}: exit {:?}\n{}",
            run.status.code(),
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    Ok(run.stdout)
}

/// gcc with working UBSan and ASan?
fn sanitizers_work(dir: &Path) -> bool {
    std::fs::write(dir.join("p.c"), "int main(void) { return 0; }\n").unwrap();
    build_and_run(dir, "probe", "gcc", &["-fsanitize=undefined,address"], None).is_ok()
}

/// The checks of `oracle cgen-validity` for one seed.
fn check_seed(seed: u64) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let e = emphasis_of(seed);
    std::fs::write(d.join("p.c"), generate(seed, &CgenConfig::preset(e))).unwrap();
    let ctx = |m: String| format!("seed {seed} ({}): {m}", e.name());
    let warned = &[
        "-O2",
        "-Wall",
        "-Wextra",
        "-Werror=uninitialized",
        "-Werror=maybe-uninitialized",
        "-Werror=sequence-point",
        "-Werror=overflow",
    ];
    let o2 = build_and_run(d, "o2", "gcc", warned, None).map_err(ctx)?;
    let san = build_and_run(
        d,
        "san",
        "gcc",
        &["-O0", "-fsanitize=undefined,address", "-fno-sanitize-recover=all"],
        None,
    )
    .map_err(ctx)?;
    if san != o2 {
        return Err(ctx("gcc -O0 (sanitized) and gcc -O2 print different checksums".into()));
    }
    let plain = build_and_run(d, "plain", "gcc", &["-O1", "-w", "-U__x86_64__"], None).map_err(ctx)?;
    if plain != o2 {
        return Err(ctx(
            "the plain-C asm fallback prints something else than the x86-64 asm".into(),
        ));
    }
    Ok(())
}

#[test]
fn generated_programs_are_valid_under_gcc() {
    let probe = tempfile::tempdir().unwrap();
    if !sanitizers_work(probe.path()) {
        skip::skip(
            "generated programs under gcc sanitizers",
            "gcc or its sanitizers (libubsan, libasan) missing; scripts/setup.sh installs them",
        );
        return;
    }
    let seeds: Vec<u64> = (1..=20).collect();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = seeds
            .chunks(10)
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|&seed| check_seed(seed).err())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn asm_goto_templates_agree_across_targets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut ran = 0;
    for t in Target::ALL {
        let (arch, gcc) = (t.name(), t.gcc());
        let Some(qemu) = t.emulator() else { continue };
        let have = |tool: &str| {
            Command::new(tool)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        };
        if !have("gcc") || !have(gcc) || !have(qemu) {
            skip::skip(
                &format!("asm goto templates on {arch}"),
                &format!("{gcc} or {qemu} missing; scripts/setup.sh --campaign installs them"),
            );
            continue;
        }
        for (seed, e) in [(1, Emphasis::AsmGoto), (2, Emphasis::AsmGoto), (3, Emphasis::Default)] {
            std::fs::write(d.join("p.c"), generate(seed, &CgenConfig::preset(e))).unwrap();
            let native = build_and_run(d, "native", "gcc", &["-O2", "-w"], None).unwrap();
            let cross = build_and_run(d, arch, gcc, &["-O2", "-w", "-static"], Some(qemu))
                .unwrap_or_else(|m| panic!("seed {seed} ({}) on {arch}: {m}", e.name()));
            assert_eq!(
                String::from_utf8_lossy(&native),
                String::from_utf8_lossy(&cross),
                "seed {seed} ({}): {arch} prints something else than x86-64",
                e.name()
            );
            ran += 1;
        }
    }
    eprintln!("{ran} cross-target comparisons");
}

#[test]
fn phicc_mem2reg_keeps_the_meaning_of_generated_programs() {
    for seed in 1..=12 {
        let e = emphasis_of(seed);
        let src = generate(seed, &CgenConfig::preset(e));
        let cfg = CheckConfig {
            fuel: 50_000_000,
            ..CheckConfig::default()
        };
        let report = check_c(&src, Target::X86_64, &cfg).unwrap_or_else(|f| panic!("seed {seed} ({e:?}): {f}"));
        if let Some(f) = report.failure {
            panic!("seed {seed} ({e:?}): {f}");
        }
        assert!(
            !report.trapped,
            "seed {seed} ({e:?}): the program traps in the interpreter"
        );
        assert!(!report.inconclusive, "seed {seed} ({e:?}): out of fuel");
    }
}

#[test]
fn without_asm_phiccs_interpreter_prints_what_gcc_prints() {
    let have_gcc = Command::new("gcc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_gcc {
        skip::skip("interpreter against gcc", "gcc missing");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for seed in 1..=8 {
        let e = emphasis_of(seed);
        let mut cfg = CgenConfig::preset(e);
        cfg.weights.asm_goto = 0;
        cfg.weights.asm_tied = 0;
        let src = generate(seed, &cfg);
        std::fs::write(dir.path().join("p.c"), &src).unwrap();
        let expected = build_and_run(dir.path(), "gcc", "gcc", &["-O0", "-w"], None).unwrap();
        let module = lower_c(&src, Target::X86_64).unwrap_or_else(|f| panic!("seed {seed} ({e:?}): {f}"));
        let outcome = run(
            &module,
            &RunConfig {
                entry: "main".into(),
                args: Vec::new(),
                schedule_seed: 0,
                fuel: 50_000_000,
            },
        );
        assert!(
            matches!(outcome.result, RunResult::Returned(Some(0))),
            "seed {seed} ({e:?}): {:?}",
            outcome.result
        );
        assert_eq!(
            String::from_utf8_lossy(&outcome.stdout),
            String::from_utf8_lossy(&expected),
            "seed {seed} ({e:?}): phicc's interpreter and gcc disagree"
        );
    }
}

#[test]
fn switch_cost_programs_reach_the_phi_copy_cost_limit() {
    let cfg = CgenConfig::preset(Emphasis::SwitchCost);
    for seed in 1..=2 {
        let mut module = lower_c(&generate(seed, &cfg), Target::X86_64).unwrap();
        let main = module
            .functions
            .iter_mut()
            .find(|f| f.name == "main")
            .expect("a main function");
        let stats = phicc::passes::mem2reg::promote_allocas(main);
        assert!(
            stats.allocas_kept_by_cost_limit > 0,
            "seed {seed}: no alloca kept by the phi copy-cost limit ({stats:?})"
        );
    }
}
