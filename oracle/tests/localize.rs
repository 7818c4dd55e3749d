//! Localization of a mismatch whose pass-free interpretation already differs
//! from the reference, with the phicc linked into this oracle: without inline
//! asm the interpreter is exact, so the lowered IR is wrong and the stage is
//! `frontend` (Csmith `--seed 4091561791`, a bit-field promotion in sema, was
//! put in `backend`); with asm the interpretation is only a stand-in for the
//! hardware, and no pass changing it leaves `backend`.

use oracle::differential::{Class, Execution};
use oracle::localize::first_diverging_stage;
use oracle::runner::Termination;
use oracle::target::{host, Config};
use oracle::toolchain::Toolchain;
use oracle::util::content_hash;

#[path = "support/phicc_script.rs"]
mod phicc_script;
use phicc_script::phicc_script;

/// The stage of a mismatch of `program` in the mem2reg cell, when the
/// reference printed `reference_stdout` (which phicc's lowering never prints).
fn stage(program: &str, reference_stdout: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("program.c");
    std::fs::write(&src, program).unwrap();
    let tools = Toolchain::new(phicc_script(dir.path()));
    let expected = Execution {
        termination: Termination::Exited(0),
        stdout: reference_stdout.into(),
        stdout_hash: content_hash(reference_stdout.as_bytes()),
        stdout_truncated: false,
        stderr: String::new(),
        seconds: 0.0,
        command: "reference".into(),
    };
    first_diverging_stage(
        &tools,
        host(),
        Config::Mem2reg,
        &src,
        Class::Mismatch,
        Some(&expected),
        dir.path(),
    )
}

#[test]
fn a_wrong_lowering_without_asm_is_the_frontend() {
    let program = "#include <stdio.h>\nint main(void) { int x = 6; printf(\"%d\\n\", x * 7); return 0; }\n";
    assert_eq!(stage(program, "41\n"), "frontend");
}

#[test]
fn a_difference_no_pass_makes_with_asm_is_the_backend() {
    let program = "#include <stdio.h>\nint main(void) { int x = 6; __asm__ volatile(\"\" : \"+r\"(x)); printf(\"%d\\n\", x * 7); return 0; }\n";
    assert_eq!(stage(program, "41\n"), "backend");
}
