//! RISC-V branches across more than `jal`'s +-1 MiB: a loop whose body is
//! over a megabyte of code, so both the loop exit (a conditional branch)
//! and the back edge must take the far form (`jump label, t6`). The program
//! is linked by the cross gcc (which fails on an out-of-range `jal`) and run
//! under QEMU; its exit status must be the interpreter's.

use phicc::ir::interp::{run, RunConfig, RunResult};
use phicc::ir::text::parse_module;
use phicc::passes::Pipeline;
use phicc::target::Target;
use std::fmt::Write as _;

#[path = "support/run_target.rs"]
mod run_target;
#[path = "support/skip.rs"]
mod skip;

/// A loop running 3 times over `n` additions that add up to 1 (their
/// constants do not fit an immediate, so each takes three instructions
/// even with its values in registers).
fn program(n: u32) -> String {
    let mut s = String::from(
        "define @main() -> i32 {\nbb0:\n  %0 = alloca i64, size 8, align 8\n  store i64 0i64, %0\n  br bb1\nbb1:\n  %1 = load i64 %0\n  %2 = cmp slt i64 %1, 3i64\n  condbr %2, bb2, bb3\nbb2:\n  %3 = add i64 %1, 1i64\n",
    );
    for k in 4..n + 4 {
        let _ = writeln!(
            s,
            "  %{k} = add i64 %{}, {}i64",
            k - 1,
            if k % 2 == 0 { 100_000 } else { -100_000 }
        );
    }
    let last = n + 3;
    let _ = write!(
        s,
        "  store i64 %{last}, %0\n  br bb1\nbb3:\n  %{} = cast i64 -> i32 %1\n  ret %{}\n}}\n",
        n + 4,
        n + 4
    );
    s
}

#[test]
fn branches_reach_across_a_huge_function() {
    if let Some(reason) = run_target::cannot_run(Target::Riscv64) {
        skip::skip("riscv64 far branches", &reason);
        return;
    }
    let mut m = parse_module(&program(100_000)).unwrap();
    let mut p = Pipeline::parse("phi-elim").unwrap();
    p.verify_each = true;
    p.run(&mut m, &mut |_, _| {}).unwrap();
    let want = match run(&m, &RunConfig::default()).result {
        RunResult::Returned(Some(v)) => v as i32,
        other => panic!("interpreter: {other:?}"),
    };
    assert_eq!(want, 3);
    let asm = phicc::backend::emit_assembly(&m, Target::Riscv64).unwrap();
    assert!(asm.contains("\tjump\t.LBB1, t6"), "the back edge is not far");
    let dir = tempfile::tempdir().unwrap();
    let (s_path, exe) = (dir.path().join("far.s"), dir.path().join("far"));
    std::fs::write(&s_path, asm).unwrap();
    let out = run_target::gcc_command(Target::Riscv64)
        .arg("-o")
        .arg(&exe)
        .arg(&s_path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = run_target::run_binary(Target::Riscv64, &exe, 20).unwrap();
    assert_eq!(run_target::exit_code(&run), want);
}
