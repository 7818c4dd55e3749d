//! Every backend takes whatever valid IR the generators make (alloca form
//! through the mem2reg pipeline, SSA form through phi elimination, inline
//! asm and asm goto included) and gives assembly or a `BackendError`, never
//! a panic; the target's assembler (when installed) accepts a sample of it.
//! (native_ir.rs checks what the assembly computes.)

#[path = "../../compiler/tests/support/skip.rs"]
mod skip;

use oracle::irgen::{generate, input_bytes, GenMode};
use phicc::passes::Pipeline;
use phicc::target::Target;
use std::process::Command;

/// Assembles `asm` with the target's gcc driver; `None` when it is not installed.
fn assembles(target: Target, asm: &str, dir: &std::path::Path, i: u64) -> Option<Result<(), String>> {
    let gcc = target.gcc();
    let s = dir.join(format!("m{i}.s"));
    std::fs::write(&s, asm).unwrap();
    let out = Command::new(gcc)
        .arg("-c")
        .arg(&s)
        .arg("-o")
        .arg(dir.join(format!("m{i}.o")))
        .output()
        .ok()?;
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

fn check(target: Target, mode: GenMode, passes: &str) {
    if phicc::backend::target_isa(target).is_err() {
        return;
    }
    let mut emitted = 0;
    let mut no_assembler = false;
    let dir = tempfile::tempdir().unwrap();
    for i in 0..150 {
        let mut m = generate(&input_bytes(29, i), mode);
        let mut p = Pipeline::parse(passes).unwrap();
        p.verify_each = true;
        p.run(&mut m, &mut |_, _| {}).unwrap();
        let r = std::panic::catch_unwind(|| phicc::backend::emit_assembly(&m, target));
        match r {
            Ok(Ok(asm)) => {
                assert!(asm.contains(".text"), "input {i}: no code");
                emitted += 1;
                if i < 12 {
                    match assembles(target, &asm, dir.path(), i) {
                        Some(Err(e)) => panic!("the {} assembler rejects input {i} ({passes}):\n{e}", target.name()),
                        Some(Ok(())) => {}
                        None => no_assembler = true,
                    }
                }
            }
            Ok(Err(e)) => eprintln!("input {i}: {e}"),
            Err(_) => panic!("the {} backend panicked on input {i} ({passes})", target.name()),
        }
    }
    assert!(
        emitted >= 140,
        "{} backend: only {emitted} of 150 modules compiled",
        target.name()
    );
    if no_assembler {
        let gcc = target.gcc();
        skip::skip(
            &format!("{} assembler check ({passes})", target.name()),
            &format!("{gcc} missing"),
        );
    }
}

#[test]
fn generated_alloca_ir_compiles_on_every_backend() {
    for t in Target::ALL {
        check(t, GenMode::Alloca, "mem2reg-pipeline");
    }
}

#[test]
fn generated_ssa_ir_compiles_on_every_backend() {
    for t in Target::ALL {
        check(t, GenMode::Ssa, "phi-elim");
    }
}
