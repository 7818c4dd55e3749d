//! Lowering tests on typed trees built by hand (the C-level tests, through
//! sema, are `tests/c_suite.rs` and the golden files). Every lowered module
//! is verified (non-SSA and SSA form), run in the interpreter, then run again
//! after the mem2reg pipeline with the verifier after each pass; both runs
//! must agree, and the test checks the result against the value C gives.

mod abi;
mod build;
mod programs;

use crate::frontend::hir::Program;
use crate::ir::interp::{run, Outcome, RunConfig, RunResult};
use crate::ir::module::IrModule;
use crate::ir::text::print_module;
use crate::ir::verify::{verify_module, VerifyMode};
use crate::passes::Pipeline;

/// Lowers, verifies, and returns the module.
pub(super) fn lower_ok(p: &Program) -> IrModule {
    let m = super::lower_program(p).unwrap_or_else(|d| panic!("lowering failed: {}", d.message));
    if let Err(e) = verify_module(&m, VerifyMode::NonSsa) {
        panic!("lowered module does not verify:\n{e}\n{}", print_module(&m));
    }
    if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
        panic!("lowered module does not verify as SSA:\n{e}\n{}", print_module(&m));
    }
    m
}

/// Runs `entry(args)` before and after the mem2reg pipeline; both must agree.
pub(super) fn run_both(m: &IrModule, entry: &str, args: &[i128]) -> Outcome {
    let cfg = RunConfig {
        entry: entry.to_string(),
        args: args.iter().map(|&a| a as u128).collect(),
        ..RunConfig::default()
    };
    let before = run(m, &cfg);
    let mut after_m = m.clone();
    let mut pipeline = Pipeline::parse("mem2reg-pipeline").unwrap();
    pipeline.verify_each = true;
    if let Err(e) = pipeline.run(&mut after_m, &mut |_, _| {}) {
        panic!("pipeline failed: {e}\n{}", print_module(m));
    }
    let after = run(&after_m, &cfg);
    assert_eq!(
        before,
        after,
        "outcome changed by mem2reg\n{}\n--- after ---\n{}",
        print_module(m),
        print_module(&after_m)
    );
    before
}

/// The value `entry(args)` returns, sign-extended from `bits`.
pub(super) fn returns(m: &IrModule, entry: &str, args: &[i128]) -> i128 {
    let o = run_both(m, entry, args);
    let bits = m.function(entry).map_or(64, |f| f.return_type.bits());
    match o.result {
        RunResult::Returned(Some(v)) => crate::ir::constants::sext(v, bits),
        other => panic!("{entry} did not return a value: {other}\n{}", print_module(m)),
    }
}
