//! The backends against the interpreter on generated IR: a short
//! deterministic native campaign must find nothing, and must really compare
//! (most runs conclusive). x86-64 is skipped where the host cannot run it;
//! RISC-V 64 runs under QEMU (skipped when QEMU or the cross gcc is missing).

use oracle::irgen::{generate, input_bytes, GenMode};
use oracle::native_ir::{prepare, run_campaign, ENTRY};
use phicc::frontend::target::Target;
use phicc::ir::instruction::Instruction;
use phicc::ir::verify::{verify_module, VerifyMode};

#[test]
fn prepared_modules_are_asm_free_self_contained_and_valid() {
    for i in 0..50 {
        let m = prepare(generate(&input_bytes(3, i), GenMode::Alloca));
        verify_module(&m, VerifyMode::Ssa).unwrap();
        assert!(m.functions.iter().all(|f| !f.is_declaration));
        assert!(m.function(ENTRY).is_some() && m.function("main").is_none());
        let asm = m
            .functions
            .iter()
            .flat_map(|f| f.blocks.iter())
            .flat_map(|b| b.instructions.iter())
            .any(|i| matches!(i, Instruction::InlineAsm(_)));
        assert!(!asm);
    }
}

#[test]
fn native_runs_agree_with_the_interpreter() {
    if !cfg!(target_arch = "x86_64") {
        return;
    }
    let s = run_campaign(11, 24, 2, 5_000_000, None, Target::X86_64).unwrap();
    assert!(s.findings.is_empty(), "{}", s.render());
    assert!(s.agree >= 40, "too few conclusive runs: {}", s.render());
}

/// The same for RISC-V 64, statically linked and run under QEMU user-mode.
#[test]
fn riscv64_runs_agree_with_the_interpreter() {
    let have = |tool: &str| std::process::Command::new(tool).arg("--version").output().is_ok();
    if !have("riscv64-linux-gnu-gcc") || !have("qemu-riscv64") {
        eprintln!("SKIPPED: riscv64-linux-gnu-gcc or qemu-riscv64 missing (scripts/setup.sh --campaign)");
        return;
    }
    let s = run_campaign(11, 24, 2, 5_000_000, None, Target::Riscv64).unwrap();
    assert!(s.findings.is_empty(), "{}", s.render());
    assert!(s.agree >= 40, "too few conclusive runs: {}", s.render());
}
