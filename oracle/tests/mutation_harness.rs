//! The harness check that `scripts/mutation-score.sh` gives cargo-mutants as
//! its test command (mutation testing in the style of PIT and cargo-mutants:
//! every mutant of the SSA code must make this test fail).
//!
//! It is the harness, not the unit tests: a short deterministic IR campaign
//! in both generator modes (alloca form through the whole checked pipeline,
//! SSA form through phi elimination), then a sample of cgen programs, one per
//! emphasis preset in turn, lowered for x86-64 and checked in the interpreter
//! in both check modes. Every stage's output goes through the verifier, whose
//! independent dominator sets (`phicc::ir::dominator_sets`) cross-check the
//! dominator tree, and mem2reg's frontiers are compared with an independent
//! computation. The first finding fails the test, so a caught mutant costs
//! little; the budgets keep a surviving mutant at about 15 s (debug build).
//!
//! On unmutated code the test passes: that is what it asserts in CI, and it
//! is cargo-mutants' baseline.

use oracle::cgen::{generate, CgenConfig, Emphasis};
use oracle::ircampaign::{self, Campaign};
use oracle::ircheck::{CheckConfig, CheckMode};
use oracle::irgen::GenMode;
use phicc::target::Target;

/// IR inputs in alloca mode (the whole checked pipeline; big mains make
/// these the slow ones).
const ALLOCA_INPUTS: u64 = 240;
/// IR inputs in SSA mode (phi elimination only; fast).
const SSA_INPUTS: u64 = 2_000;
/// cgen programs, each checked in both check modes.
const C_PROGRAMS: u64 = 12;

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
    };
    let s = ircampaign::run(&c).expect("IR campaign runs");
    if let Some(f) = s.findings.first() {
        panic!("IR campaign ({mode:?}) input {}: {}", f.index, f.signature);
    }
    assert_eq!(s.inputs, count, "every input ran");
}

fn cgen_sample() {
    let mut conclusive = 0;
    for seed in 1..=C_PROGRAMS {
        let emphasis = Emphasis::ALL[(seed % Emphasis::ALL.len() as u64) as usize];
        let source = generate(seed, &CgenConfig::preset(emphasis));
        for mode in [CheckMode::Pipeline, CheckMode::PhiElimOnly] {
            let cfg = CheckConfig {
                mode,
                ..CheckConfig::default()
            };
            let report = oracle::ccheck::check_c(&source, Target::X86_64, &cfg)
                .unwrap_or_else(|e| panic!("cgen seed {seed} ({emphasis:?}) does not lower: {e}"));
            if let Some(f) = &report.failure {
                panic!("cgen seed {seed} ({emphasis:?}), {mode:?}: {}", f.signature());
            }
            conclusive += usize::from(!report.inconclusive);
        }
    }
    // The sample means something only if most runs finish within the fuel.
    assert!(conclusive as u64 >= C_PROGRAMS, "only {conclusive} conclusive checks");
}

/// One test, cheapest stage first, so that a caught mutant stops early.
#[test]
fn harness_check() {
    ir_campaign(GenMode::Ssa, SSA_INPUTS);
    ir_campaign(GenMode::Alloca, ALLOCA_INPUTS);
    cgen_sample();
}
