//! Criterion benchmark of the IR check's parts (issue 17: "the cost of each
//! new check"): the whole in-process check that `oracle ir-campaign` and the
//! cargo-fuzz targets run per input (`ircheck::check_module`; `main` only,
//! and with the argument vectors of the fuzz target and of campaigns), and
//! inside it
//! the verifier, the verifier's independent dominator sets (iterative data
//! flow over dominator sets, cross-checked against the Cooper–Harvey–Kennedy
//! tree), the mem2reg frontier cross-check and one interpreter run of the
//! input.
//!
//! The inputs are the first 64 inputs of campaign seed 0 in each generator
//! mode, generated once; every measurement is one pass over all of them, so
//! the per-input cost is the reported time divided by 64.
//!
//! `cargo bench -p oracle --bench check_cost` runs it; docs/results.md
//! ("Cost of the checks") turns the numbers into shares of the whole check.

use criterion::{criterion_group, criterion_main, Criterion};
use oracle::inputs::Inputs;
use oracle::ircheck::{check_module, mem2reg_frontier_errors, CheckConfig, CheckMode};
use oracle::irgen::{generate, input_bytes, GenMode};
use phicc::ir::analysis::CfgAnalysis;
use phicc::ir::dominator_sets::cross_check;
use phicc::ir::interp::{run_counting, RunConfig};
use phicc::ir::module::IrModule;
use phicc::ir::verify::{verify_module, VerifyMode};
use std::hint::black_box;
use std::time::Duration;

const INPUTS: u64 = 64;

fn modules(mode: GenMode) -> Vec<IrModule> {
    (0..INPUTS).map(|i| generate(&input_bytes(0, i), mode)).collect()
}

fn bench(c: &mut Criterion) {
    for (mode, check_mode, name) in [
        (GenMode::Alloca, CheckMode::Pipeline, "alloca"),
        (GenMode::Alloca, CheckMode::Mem2reg, "alloca-mem2reg"),
        (GenMode::Ssa, CheckMode::PhiElimOnly, "ssa"),
    ] {
        let ms = modules(mode);
        let mut group = c.benchmark_group(name);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(5));
        let cfg = CheckConfig {
            mode: check_mode,
            ..CheckConfig::default()
        };
        group.bench_function("whole check", |b| {
            b.iter(|| {
                for m in &ms {
                    black_box(check_module(m, &cfg));
                }
            })
        });
        for (label, inputs) in [
            ("whole check, fuzz inputs", Inputs::FUZZ),
            ("whole check, campaign inputs", Inputs::CAMPAIGN),
        ] {
            let cfg = CheckConfig { inputs, ..cfg.clone() };
            group.bench_function(label, |b| {
                b.iter(|| {
                    for m in &ms {
                        black_box(check_module(m, &cfg));
                    }
                })
            });
        }
        group.bench_function("verify input", |b| {
            b.iter(|| {
                for m in &ms {
                    black_box(verify_module(m, VerifyMode::Ssa).is_ok());
                }
            })
        });
        group.bench_function("dominator sets cross-check", |b| {
            b.iter(|| {
                for m in &ms {
                    for f in m.functions.iter().filter(|f| !f.blocks.is_empty()) {
                        let cfg = CfgAnalysis::build(f);
                        black_box(cross_check(&cfg, |b| b.to_string()));
                    }
                }
            })
        });
        group.bench_function("cfg analysis alone", |b| {
            b.iter(|| {
                for m in &ms {
                    for f in m.functions.iter().filter(|f| !f.blocks.is_empty()) {
                        black_box(CfgAnalysis::build(f));
                    }
                }
            })
        });
        group.bench_function("frontier cross-check", |b| {
            b.iter(|| {
                for m in &ms {
                    black_box(mem2reg_frontier_errors(m));
                }
            })
        });
        group.bench_function("interpret input once", |b| {
            b.iter(|| {
                for m in &ms {
                    black_box(run_counting(
                        m,
                        &RunConfig {
                            entry: "main".into(),
                            args: vec![],
                            schedule_seed: 0,
                            fuel: cfg.fuel,
                        },
                    ));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
