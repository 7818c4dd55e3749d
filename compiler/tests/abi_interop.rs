//! ABI interop with gcc (chibicc's habit): `tests/abi/abi_test.c`, compiled
//! by phicc for each target in both configurations, is linked with
//! `tests/abi/abi_helper.c` compiled by the target's gcc. The two call each
//! other with structs of every SysV classification (INTEGER, SSE and mixed
//! eightbytes of sizes 1 to 16, MEMORY structs, a struct of one long double)
//! and of every AAPCS64 one (HFAs of float, double and long double up to 4
//! members and 64 bytes, composites in x registers, a 16-byte aligned
//! composite in an even register pair, composites over 16 bytes by
//! reference), returned and passed by value with registers exhausted,
//! scalars of every class (`__int128`, `long double`), and variadic functions
//! in both directions (va_arg of doubles, `__int128`, `long double` and
//! structs, va_copy). The test checks every value itself and prints `N
//! checks, 0 failures`; the all-gcc build must print the same, proving the
//! test right. Foreign targets are linked `-static` and run under QEMU.

#[path = "support/run_target.rs"]
mod run_target;
#[path = "support/skip.rs"]
mod skip;

use phicc::driver::{compile_to_ir, pipeline_for, FrontendOptions};
use phicc::target::Target;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/abi")
}

fn run(target: Target, exe: &Path) -> String {
    let out = run_target::run_binary(target, exe, 60).expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.success(),
        "{} failed ({}):\n{stdout}",
        exe.display(),
        out.describe()
    );
    stdout
}

/// The interop test on `target`, when its backend and toolchain are here.
fn check_target(target: Target) {
    if let Some(reason) = run_target::cannot_run(target) {
        skip::skip(&format!("abi_interop {}", target.name()), &reason);
        return;
    }
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("abi_interop_{}", target.name()));
    std::fs::create_dir_all(&work).unwrap();
    let helper = work.join("abi_helper.o");
    let st = run_target::gcc_command(target)
        .args(["-O0", "-c", "-o"])
        .arg(&helper)
        .arg(dir().join("abi_helper.c"))
        .status()
        .expect("gcc runs");
    assert!(st.success());
    // The reference: everything compiled by gcc.
    let reference = work.join("reference");
    let st = run_target::gcc_command(target)
        .args(["-O0", "-o"])
        .arg(&reference)
        .arg(dir().join("abi_test.c"))
        .arg(&helper)
        .status()
        .unwrap();
    assert!(st.success());
    let want = run(target, &reference);
    assert!(want.ends_with(" checks, 0 failures\n") && want.len() > 20, "{want}");

    let compiled = compile_to_ir(&dir().join("abi_test.c"), &FrontendOptions::new(target)).expect("compiles");
    for mem2reg in [false, true] {
        let mut m = compiled.module.clone();
        let mut p = pipeline_for(mem2reg, &[]).unwrap();
        p.verify_each = true;
        p.run(&mut m, &mut |_, _| {}).unwrap();
        let name = if mem2reg { "mem2reg" } else { "nomem2reg" };
        // x86-64 and AArch64: the integrated assembler's object; elsewhere the target's assembler.
        let input = match phicc::backend::emit_object(&m, target).unwrap() {
            Some(obj) => {
                let o = work.join(format!("abi_test.{name}.o"));
                std::fs::write(&o, obj).unwrap();
                o
            }
            None => {
                assert!(
                    !matches!(target, Target::X86_64 | Target::Aarch64),
                    "the integrated assembler takes the module"
                );
                let s = work.join(format!("abi_test.{name}.s"));
                std::fs::write(&s, phicc::backend::emit_assembly(&m, target).unwrap()).unwrap();
                s
            }
        };
        let exe = work.join(format!("abi_test.{name}"));
        let st = run_target::gcc_command(target)
            .arg("-o")
            .arg(&exe)
            .arg(&input)
            .arg(&helper)
            .status()
            .unwrap();
        assert!(st.success());
        assert_eq!(run(target, &exe), want, "{name}");
    }
}

#[test]
fn phicc_and_gcc_call_each_other_x86_64() {
    if cfg!(target_arch = "x86_64") {
        check_target(Target::X86_64);
    } else {
        skip::skip("abi_interop x86_64", "not an x86-64 host");
    }
}

#[test]
fn phicc_and_gcc_call_each_other_aarch64() {
    check_target(Target::Aarch64);
}

#[test]
fn phicc_and_gcc_call_each_other_riscv64() {
    check_target(Target::Riscv64);
}
