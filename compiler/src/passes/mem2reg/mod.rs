//! SSA construction (docs/ssa.md): alloca promotion.
//!
//! - [`promote_allocas`] / [`promote_allocas_with_params`] (`promote.rs`,
//!   `placement.rs`, `rename.rs`): Cytron et al.'s construction — phis at the
//!   iterated dominance frontier of each promotable alloca's definitions, pruned
//!   to blocks where the alloca is live-in (as LLVM's PromoteMemoryToRegister
//!   does), then renaming by an iterative dominator-tree walk with one
//!   definition stack per alloca.
//!
//! SSA destruction is its own pass, `passes/phi_elim.rs`.

mod placement;
mod promote;
mod rename;

pub use promote::{
    promote_allocas, promote_allocas_with_params, promote_with_options, PromoteOptions, PromoteStats,
    MAX_PHI_COPY_COST, MAX_PROMOTABLE_ALLOCA_SIZE,
};

/// The dominance frontier of every block exactly as phi placement computes
/// it (`placement.rs`), each row sorted: what the harness compares with an
/// independent computation (`ir::dominator_sets::cross_check_frontiers`).
pub fn placement_frontiers(cfg: &crate::ir::analysis::CfgAnalysis) -> Vec<Vec<usize>> {
    let df = placement::dominance_frontiers(cfg.num_blocks, &cfg.preds, &cfg.idom);
    (0..cfg.num_blocks)
        .map(|b| {
            let mut row: Vec<usize> = df.row(b).iter().map(|&y| y as usize).collect();
            row.sort_unstable();
            row
        })
        .collect()
}
