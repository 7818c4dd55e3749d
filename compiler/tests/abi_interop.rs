//! ABI interop with gcc (chibicc's habit): `tests/abi/abi_test.c`, compiled
//! by phicc for x86-64 in both configurations, is linked with
//! `tests/abi/abi_helper.c` compiled by gcc. The two call each other with
//! structs of every SysV classification (INTEGER, SSE and mixed eightbytes of
//! sizes 1 to 16, MEMORY structs, a struct of one long double), returned and
//! passed by value with registers exhausted, scalars of every class
//! (`__int128`, `long double`), and variadic functions in both directions
//! (va_arg of doubles, `__int128`, `long double` and structs, va_copy). The
//! test checks every value itself and prints `N checks, 0 failures`; the
//! all-gcc build must print the same, proving the test right.

use phicc::driver::{compile_to_ir, pipeline_for, FrontendOptions};
use phicc::frontend::target::Target;
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/abi")
}

fn run(exe: &Path) -> String {
    let out = Command::new(exe).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} failed ({}):\n{stdout}",
        exe.display(),
        out.status
    );
    stdout
}

#[test]
fn phicc_and_gcc_call_each_other() {
    if !cfg!(target_arch = "x86_64") {
        return;
    }
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abi_interop");
    std::fs::create_dir_all(&work).unwrap();
    let helper = work.join("abi_helper.o");
    let st = Command::new("gcc")
        .args(["-O0", "-c", "-o"])
        .arg(&helper)
        .arg(dir().join("abi_helper.c"))
        .status()
        .expect("gcc runs");
    assert!(st.success());
    // The reference: everything compiled by gcc.
    let reference = work.join("reference");
    let st = Command::new("gcc")
        .args(["-O0", "-o"])
        .arg(&reference)
        .arg(dir().join("abi_test.c"))
        .arg(&helper)
        .status()
        .unwrap();
    assert!(st.success());
    let want = run(&reference);
    assert!(want.ends_with(" checks, 0 failures\n") && want.len() > 20, "{want}");

    let compiled = compile_to_ir(&dir().join("abi_test.c"), &FrontendOptions::new(Target::X86_64)).expect("compiles");
    for mem2reg in [false, true] {
        let mut m = compiled.module.clone();
        let mut p = pipeline_for(mem2reg, &[]).unwrap();
        p.verify_each = true;
        p.run(&mut m, &mut |_, _| {}).unwrap();
        let obj = phicc::backend::emit_object(&m, Target::X86_64)
            .unwrap()
            .expect("the integrated assembler takes the module");
        let name = if mem2reg { "mem2reg" } else { "nomem2reg" };
        let o = work.join(format!("abi_test.{name}.o"));
        std::fs::write(&o, obj).unwrap();
        let exe = work.join(format!("abi_test.{name}"));
        let st = Command::new("gcc")
            .arg("-o")
            .arg(&exe)
            .arg(&o)
            .arg(&helper)
            .status()
            .unwrap();
        assert!(st.success());
        assert_eq!(run(&exe), want, "{name}");
    }
}
