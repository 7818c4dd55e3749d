//! Criterion benchmark of `promote_allocas_with_params` on the synthetic
//! shapes of `shapes/mod.rs` (straight chain, diamonds, loops with swaps, switch
//! dispatch loops) at 1k, 10k and 100k blocks with 10 to 1,000 allocas.
//! `scripts/bench-mem2reg` compares the same shapes with LLVM's mem2reg.
//!
//! `cargo bench -p phicc --bench mem2reg -- chain/10000` runs a subset.

mod shapes;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use phicc::passes::mem2reg::promote_allocas_with_params;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    for shape in shapes::SHAPES {
        let mut group = c.benchmark_group(shape);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_secs(2));
        for blocks in [1_000usize, 10_000, 100_000] {
            for allocas in [10usize, 100, 1_000] {
                let func = shapes::build(shape, blocks, allocas);
                group.bench_with_input(BenchmarkId::new(format!("{blocks}"), allocas), &func, |b, func| {
                    b.iter_batched(
                        || func.clone(),
                        |mut f| promote_allocas_with_params(&mut f),
                        BatchSize::LargeInput,
                    )
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
