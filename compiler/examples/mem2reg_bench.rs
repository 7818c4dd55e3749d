//! Times `promote_allocas_with_params` (every variable, the first one being a
//! parameter alloca) on one synthetic shape (see `benches/shapes/mod.rs`)
//! and optionally writes the same function as LLVM IR, for
//! `scripts/bench-mem2reg`.
//!
//! Usage: `mem2reg_bench SHAPE BLOCKS ALLOCAS [--emit-llvm FILE] [--runs N]`.
//! Prints `ms=<best of N> ... promoted=<allocas> phis=<phis> kept=<kept by cost limit>`, then
//! `all_ms` / `all_phis` for the same run without the cost limit (every alloca promoted).

#[path = "../benches/shapes/mod.rs"]
mod shapes;

use phicc::passes::mem2reg::{promote_allocas_with_params, promote_with_options, PromoteOptions};
use std::time::Instant;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: mem2reg_bench SHAPE BLOCKS ALLOCAS [--emit-llvm FILE] [--runs N]".into());
    }
    let shape = args[0].as_str();
    if !shapes::SHAPES.contains(&shape) {
        return Err(format!("unknown shape {shape} (valid: {})", shapes::SHAPES.join(", ")));
    }
    let blocks: usize = args[1].parse().map_err(|e| format!("BLOCKS: {e}"))?;
    let allocas: usize = args[2].parse().map_err(|e| format!("ALLOCAS: {e}"))?;
    let mut runs = 3;
    let mut emit = None;
    let mut i = 3;
    while i < args.len() {
        match args[i].as_str() {
            "--emit-llvm" => emit = args.get(i + 1).cloned(),
            "--runs" => runs = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(3),
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    let func = shapes::build(shape, blocks, allocas);
    if let Some(path) = emit {
        std::fs::write(&path, shapes::to_llvm(&func)).map_err(|e| format!("{path}: {e}"))?;
    }
    let mut best = f64::MAX;
    let mut stats = Default::default();
    for _ in 0..runs.max(1) {
        let mut f = func.clone();
        let t = Instant::now();
        stats = promote_allocas_with_params(&mut f);
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    let stats: phicc::passes::mem2reg::PromoteStats = stats;
    // The same without the phi copy-cost limit: every alloca promoted, as LLVM does.
    let unlimited = PromoteOptions {
        include_params: true,
        max_phi_copy_cost: usize::MAX,
        ..PromoteOptions::default()
    };
    let mut best_all = f64::MAX;
    let mut all_stats = Default::default();
    for _ in 0..runs.max(1) {
        let mut f = func.clone();
        let t = Instant::now();
        all_stats = promote_with_options(&mut f, &unlimited);
        best_all = best_all.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    let all_stats: phicc::passes::mem2reg::PromoteStats = all_stats;
    println!(
        "ms={best:.3} blocks={} insts={} promoted={} phis={} kept={} all_ms={best_all:.3} all_phis={}",
        func.blocks.len(),
        func.num_instructions(),
        stats.allocas_promoted,
        stats.phis_inserted,
        stats.allocas_kept_by_cost_limit,
        all_stats.phis_inserted
    );
    Ok(())
}
