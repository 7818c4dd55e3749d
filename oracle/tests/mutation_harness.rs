//! The harness check that `scripts/mutation-score.sh` gives cargo-mutants as
//! its test command (mutation testing in the style of PIT and cargo-mutants:
//! every mutant of the SSA code must make this test fail).
//!
//! It is the harness, not the unit tests: a short deterministic IR campaign
//! in both generator modes (alloca form through the whole checked pipeline,
//! SSA form through phi elimination), then a sample of cgen programs, one per
//! emphasis preset in turn, lowered for x86-64 and checked in the interpreter
//! in both check modes, and last a few generated modules compiled by the
//! x86-64 backend and run natively against the interpreter (`oracle
//! native-ir`: the backend's side of the contract, such as where parameters
//! live). Every stage's output goes through the verifier, whose
//! independent dominator sets (`phicc::ir::dominator_sets`) cross-check the
//! dominator tree, and mem2reg's frontiers are compared with an independent
//! computation. The first finding fails the test, so a caught mutant costs
//! little; the budgets keep a surviving mutant at about 8 s of CPU (debug).
//! An input whose check has not finished after 20 s fails the test too: a
//! mutant that makes a pass loop forever is caught there, not by
//! cargo-mutants' much longer timeout.
//!
//! On unmutated code the test passes: that is what it asserts in CI, and it
//! is cargo-mutants' baseline.

use oracle::cgen::{generate, CgenConfig, Emphasis};
use oracle::ircampaign::{check_input, Campaign};
use oracle::ircheck::{CheckConfig, CheckMode, Report};
use oracle::irgen::GenMode;
use phicc::target::Target;
use std::sync::mpsc;
use std::time::Duration;

/// IR inputs in alloca mode (the whole checked pipeline; big mains make
/// these the slow ones).
const ALLOCA_INPUTS: u64 = 120;
/// IR inputs in SSA mode (phi elimination only; fast).
const SSA_INPUTS: u64 = 800;
/// cgen programs, each checked in both check modes.
const C_PROGRAMS: u64 = 8;
/// Generated modules compiled natively (x86-64 host) and run in each
/// configuration, compared with the interpreter.
const NATIVE_INPUTS: u64 = 40;
/// One input's check takes well under a second; a pass that has not
/// finished after this long hangs (a mutant that loops in the compiler).
const PER_INPUT: Duration = Duration::from_secs(20);

/// Run `check(i)` for `i` in `0..n` on a worker thread, failing at the first
/// finding, and failing if one input takes longer than [`PER_INPUT`] (the
/// worker is left behind; the test process ends with the test).
fn watched(what: &str, n: u64, check: impl Fn(u64) -> Result<Report, String> + Send + 'static) -> usize {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for i in 0..n {
            if tx.send((i, check(i))).is_err() {
                return;
            }
        }
    });
    let mut conclusive = 0;
    for expected in 0..n {
        match rx.recv_timeout(PER_INPUT) {
            Ok((i, Ok(report))) => {
                if let Some(f) = &report.failure {
                    panic!("{what} {i}: {}", f.signature());
                }
                conclusive += usize::from(!report.inconclusive);
            }
            Ok((i, Err(e))) => panic!("{what} {i}: {e}"),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("{what} {expected}: not checked after {PER_INPUT:?} (the compiler hangs)")
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("{what} {expected}: the check panicked (see above)")
            }
        }
    }
    conclusive
}

fn ir_campaign(mode: GenMode, count: u64) {
    let c = Campaign {
        seed: 17,
        count,
        mode,
        jobs: 1,
        out: None,
        progress: false,
        fuel: 200_000,
        schedules: vec![0, 1],
        max_findings: Some(1),
        inputs: oracle::inputs::Inputs::OFF,
    };
    watched(&format!("IR campaign ({mode:?}) input"), count, move |i| {
        Ok(check_input(&c, i).1)
    });
}

fn cgen_sample() {
    let modes = [CheckMode::Pipeline, CheckMode::PhiElimOnly];
    let conclusive = watched("cgen check", C_PROGRAMS * 2, move |i| {
        let seed = 1 + i / 2;
        let emphasis = Emphasis::ALL[(seed % Emphasis::ALL.len() as u64) as usize];
        let source = generate(seed, &CgenConfig::preset(emphasis));
        let cfg = CheckConfig {
            mode: modes[(i % 2) as usize],
            ..CheckConfig::default()
        };
        oracle::ccheck::check_c(&source, Target::X86_64, &cfg)
            .map_err(|e| format!("cgen seed {seed} ({emphasis:?}) does not lower: {e}"))
    });
    // The sample means something only if most runs finish within the fuel.
    assert!(conclusive as u64 >= C_PROGRAMS, "only {conclusive} conclusive checks");
}

/// Native runs of generated IR on the x86-64 host (`oracle native-ir`): the
/// backend compiles each module as generated and after the mem2reg pipeline,
/// and the runs must agree with the interpreter. This is what sees a mutant
/// that breaks only the backend's contract, such as parameter allocas told
/// apart wrongly (the backend finds parameter homes by position), which the
/// interpreter cannot.
fn native_sample() {
    assert!(cfg!(target_arch = "x86_64"), "native runs need an x86-64 host");
    let first = oracle::native_ir::first_finding_on(Target::X86_64, 1, NATIVE_INPUTS, 2, 5_000_000)
        .unwrap_or_else(|e| panic!("native runs could not be made: {e}"));
    assert_eq!(
        first, None,
        "native run of input {first:?} disagrees with the interpreter"
    );
}

/// One test, cheapest stage first, so that a caught mutant stops early.
#[test]
fn harness_check() {
    ir_campaign(GenMode::Ssa, SSA_INPUTS);
    ir_campaign(GenMode::Alloca, ALLOCA_INPUTS);
    cgen_sample();
    native_sample();
}
