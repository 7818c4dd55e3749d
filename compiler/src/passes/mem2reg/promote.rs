//! SSA construction: promotes scalar, non-escaping allocas to SSA values
//! (docs/ssa.md, six steps; Cytron et al. 1991, with pruned placement and the
//! single-store / single-block fast paths of LLVM's PromoteMemoryToRegister,
//! docs/ssa.md#fast-paths).
//!
//! 1. Find promotable allocas ([`scan`]): at most
//!    [`MAX_PROMOTABLE_ALLOCA_SIZE`] bytes (allocation and type), not volatile,
//!    used only as the address of loads and stores whose type agrees with the
//!    alloca's (and that name no `%gs`/`%fs` segment), or as the pointer of a register-constraint asm output; in any
//!    block, not only the entry (inlined code). The same scan records, per
//!    alloca, its definition blocks, the blocks where a load comes before any
//!    definition, and the asm-goto targets its later definitions must not reach.
//! 2. to 4. The CFG, Cooper-Harvey-Kennedy dominators (`ir::analysis`) and
//!    dominance frontiers (`placement.rs`).
//! 5. Phis at the pruned iterated dominance frontier (`placement.rs`), then the
//!    copy-cost limit: phis cost one copy per predecessor; while the total
//!    (phis already in the function included) is above [`MAX_PHI_COPY_COST`]
//!    the most expensive alloca stays in memory.
//! 6. Renaming by an iterative dominator-tree walk (`rename.rs`).
//!
//! Semantics kept: an alloca is zero-filled, so a load before any store reads
//! the zero of the alloca's type. An alloca outside the entry block keeps its
//! slot (and value) when it executes again (the interpreter's contract), so it
//! is no definition: its slot starts at zero once, like an entry alloca's.
//! Stored constants are narrowed to the alloca's type.

use super::placement::{dominance_frontiers, PlacementInput, Placer};
use super::rename::{rename, SlotInfo};
use crate::inject::{enabled, Bug};
use crate::ir::analysis::CfgAnalysis;
use crate::ir::reexports::*;
use std::fmt;

/// Largest alloca (allocation and type size, bytes) that is promoted: one register.
pub const MAX_PROMOTABLE_ALLOCA_SIZE: usize = 8;

/// Estimated phi copies (phis x predecessors) above which the most expensive
/// allocas stay in memory.
pub const MAX_PHI_COPY_COST: usize = 50_000;

/// What promotion did, summed over functions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PromoteStats {
    pub allocas_promoted: usize,
    /// Phis left in the IR.
    pub phis_inserted: usize,
    /// Phis placed and then removed because nothing used them.
    pub phis_removed_unused: usize,
    pub loads_removed: usize,
    pub stores_removed: usize,
    /// Register asm outputs turned into SSA definitions.
    pub asm_outputs_promoted: usize,
    /// Promotable allocas left in memory by the phi copy-cost limit.
    pub allocas_kept_by_cost_limit: usize,
}

impl std::ops::AddAssign for PromoteStats {
    fn add_assign(&mut self, o: PromoteStats) {
        self.allocas_promoted += o.allocas_promoted;
        self.phis_inserted += o.phis_inserted;
        self.phis_removed_unused += o.phis_removed_unused;
        self.loads_removed += o.loads_removed;
        self.stores_removed += o.stores_removed;
        self.asm_outputs_promoted += o.asm_outputs_promoted;
        self.allocas_kept_by_cost_limit += o.allocas_kept_by_cost_limit;
    }
}

impl fmt::Display for PromoteStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} allocas promoted, {} phis inserted ({} more removed as unused), {} loads and {} stores removed, \
             {} asm outputs promoted, {} allocas kept by the cost limit",
            self.allocas_promoted,
            self.phis_inserted,
            self.phis_removed_unused,
            self.loads_removed,
            self.stores_removed,
            self.asm_outputs_promoted,
            self.allocas_kept_by_cost_limit
        )
    }
}

/// Knobs of promotion. The defaults are what the compiler runs; the others
/// exist so tests can show that each refinement changes nothing observable.
#[derive(Clone, Copy, Debug)]
pub struct PromoteOptions {
    /// Promote parameter allocas (the first N allocas of the entry block for N
    /// parameters) that have an IR-visible store.
    pub include_params: bool,
    /// Place phis only where the alloca is live-in.
    pub prune: bool,
    /// Skip placement for allocas with one dominating store or all accesses in one block.
    pub fast_paths: bool,
    /// Remove placed phis that nothing uses.
    pub remove_unused_phis: bool,
    pub max_phi_copy_cost: usize,
}

impl Default for PromoteOptions {
    fn default() -> Self {
        PromoteOptions {
            include_params: false,
            prune: true,
            fast_paths: true,
            remove_unused_phis: true,
            max_phi_copy_cost: MAX_PHI_COPY_COST,
        }
    }
}

/// First invocation (before inlining): promotes every promotable alloca except
/// parameter allocas.
pub fn promote_allocas(func: &mut IrFunction) -> PromoteStats {
    promote_with_options(func, &PromoteOptions::default())
}

/// Second invocation (after inlining): parameter allocas too, when a store
/// makes their initial value visible in the IR.
pub fn promote_allocas_with_params(func: &mut IrFunction) -> PromoteStats {
    promote_with_options(
        func,
        &PromoteOptions {
            include_params: true,
            ..PromoteOptions::default()
        },
    )
}

/// Promotion with explicit options.
pub fn promote_with_options(func: &mut IrFunction, opts: &PromoteOptions) -> PromoteStats {
    let mut stats = PromoteStats::default();
    if func.is_declaration || func.blocks.is_empty() {
        return stats;
    }
    // Make `fresh_value` safe even when the cached bound is stale.
    let max = func.scan_max_value_id();
    if func.next_value_id <= max {
        func.next_value_id = max + 1;
    }
    let cfg = CfgAnalysis::build(func);
    let mut cands = scan(func, &cfg, opts.include_params, max);
    if cands.iter().all(|c| !c.ok) {
        return stats;
    }

    // Step 5: placement, per alloca.
    let frontiers = dominance_frontiers(cfg.num_blocks, &cfg.preds, &cfg.idom);
    let has_asm_goto = asm_goto_blocks(func);
    let mut placer = Placer::new(&cfg.preds, &cfg.succs, &frontiers, &has_asm_goto);
    let mut phi_blocks: Vec<Vec<u32>> = vec![Vec::new(); cands.len()];
    let mut costs = vec![0usize; cands.len()];
    for (i, c) in cands.iter().enumerate() {
        if !c.ok || (opts.fast_paths && c.needs_no_phis(&cfg, &has_asm_goto)) || c.def_blocks.is_empty() {
            continue;
        }
        let input = PlacementInput {
            def_blocks: &c.def_blocks,
            upward_exposed: &c.upward_exposed,
            goto_seeds: &c.goto_seeds,
        };
        phi_blocks[i] = placer.place(i as u32 + 1, &input, opts.prune);
        costs[i] = phi_blocks[i].iter().map(|&b| cfg.preds.len(b as usize)).sum();
    }

    // Cost limit: drop the most expensive allocas first. Phis already in the
    // function (from an earlier invocation) count against the same budget,
    // so the second invocation does not undo the first one's limit.
    let existing: usize = func
        .blocks
        .iter()
        .flat_map(|b| &b.instructions)
        .map(|i| match i {
            Instruction::Phi { incoming, .. } => incoming.len(),
            _ => 0,
        })
        .sum();
    let mut total: usize = existing + costs.iter().sum::<usize>();
    if total > opts.max_phi_copy_cost {
        let mut order: Vec<usize> = (0..cands.len()).filter(|&i| cands[i].ok && costs[i] > 0).collect();
        order.sort_by(|&a, &b| costs[b].cmp(&costs[a]).then(a.cmp(&b)));
        for i in order {
            if total <= opts.max_phi_copy_cost {
                break;
            }
            total -= costs[i];
            cands[i].ok = false;
            stats.allocas_kept_by_cost_limit += 1;
        }
    }

    // Step 6: renaming.
    let mut slot_of = vec![0u32; max as usize + 1];
    let mut slots = Vec::new();
    let mut phis_per_slot = Vec::new();
    for (i, c) in cands.iter().enumerate() {
        if !c.ok {
            continue;
        }
        slots.push(SlotInfo {
            ty: c.ty,
            keep_alloca: c.is_param,
        });
        slot_of[c.value.0 as usize] = slots.len() as u32;
        phis_per_slot.push(std::mem::take(&mut phi_blocks[i]));
    }
    stats.allocas_promoted = slots.len();
    let outcome = rename(func, &cfg, &slot_of, &slots, &phis_per_slot, opts.remove_unused_phis);
    stats.phis_inserted = outcome.phis_kept;
    stats.phis_removed_unused = outcome.phis_removed;
    stats.loads_removed = outcome.loads_removed;
    stats.stores_removed = outcome.stores_removed;
    stats.asm_outputs_promoted = outcome.asm_outputs_promoted;
    stats
}

/// Blocks (by index) holding at least one `asm goto`.
fn asm_goto_blocks(func: &IrFunction) -> Vec<bool> {
    func.blocks
        .iter()
        .map(|b| b.instructions.iter().any(|i| !i.asm_goto_targets().is_empty()))
        .collect()
}

/// Do two types hold the same bits the same way (size and integer/float class)?
fn agrees(a: IrType, b: IrType) -> bool {
    a.size() == b.size() && a.is_float() == b.is_float()
}

/// One alloca considered for promotion, and its accesses.
struct Candidate {
    value: Value,
    ty: IrType,
    is_param: bool,
    ok: bool,
    /// Distinct blocks with a definition, in scan order.
    def_blocks: Vec<u32>,
    /// Blocks whose first access is a load.
    upward_exposed: Vec<u32>,
    /// Distinct blocks with a load.
    load_blocks: Vec<u32>,
    goto_seeds: Vec<u32>,
    num_defs: usize,
    num_stores: usize,
    last_block: u32,
    last_block_has_def: bool,
    last_load_block: u32,
    multi_block: bool,
}

impl Candidate {
    fn new(value: Value, ty: IrType, is_param: bool) -> Candidate {
        Candidate {
            value,
            ty,
            is_param,
            ok: true,
            def_blocks: Vec::new(),
            upward_exposed: Vec::new(),
            load_blocks: Vec::new(),
            goto_seeds: Vec::new(),
            num_defs: 0,
            num_stores: 0,
            last_block: u32::MAX,
            last_block_has_def: false,
            last_load_block: u32::MAX,
            multi_block: false,
        }
    }

    fn touch(&mut self, b: u32) {
        if self.last_block != b {
            if self.last_block != u32::MAX {
                self.multi_block = true;
            }
            self.last_block = b;
            self.last_block_has_def = false;
        }
    }

    fn record_def(&mut self, b: u32, gotos_so_far: &[u32]) {
        self.touch(b);
        self.num_defs += 1;
        if !self.last_block_has_def {
            self.last_block_has_def = true;
            if self.def_blocks.last() != Some(&b) {
                self.def_blocks.push(b);
            }
        }
        self.goto_seeds.extend_from_slice(gotos_so_far);
    }

    fn record_load(&mut self, b: u32) {
        let first_access = self.last_block != b;
        self.touch(b);
        if first_access {
            self.upward_exposed.push(b);
        }
        if self.last_load_block != b {
            self.last_load_block = b;
            self.load_blocks.push(b);
        }
    }

    /// LLVM's fast paths: all accesses in one block with no load before the
    /// first definition, or a single store that dominates every load (in a
    /// block without asm goto, whose goto edges would not see the store).
    /// Either way the placer would find nothing, so it is not asked.
    fn needs_no_phis(&self, cfg: &CfgAnalysis, has_asm_goto: &[bool]) -> bool {
        if !self.multi_block && self.upward_exposed.is_empty() {
            return true;
        }
        if self.num_defs != 1 || self.num_stores != 1 {
            return false;
        }
        let s = self.def_blocks[0] as usize;
        if !cfg.is_reachable(s) || has_asm_goto[s] || self.upward_exposed.contains(&(s as u32)) {
            return false;
        }
        self.load_blocks.iter().all(|&b| cfg.dominates(s, b as usize))
    }
}

/// Step 1: the promotable allocas of `func` and their accesses. `max` is the
/// largest value id in the function.
fn scan(func: &IrFunction, cfg: &CfgAnalysis, include_params: bool, max: u32) -> Vec<Candidate> {
    let mut cand_of = vec![u32::MAX; max as usize + 1];
    let mut cands: Vec<Candidate> = Vec::new();
    let num_params = func.params.len();
    let mut entry_allocas = 0usize;
    for (bi, block) in func.blocks.iter().enumerate() {
        for inst in &block.instructions {
            if let Instruction::Alloca {
                dest,
                ty,
                size,
                volatile,
                ..
            } = inst
            {
                let is_param = bi == 0 && entry_allocas < num_params;
                if bi == 0 {
                    entry_allocas += 1;
                }
                if is_param && !include_params {
                    continue;
                }
                let shape_ok = (!*volatile || enabled(Bug::PromoteVolatile))
                    && *ty != IrType::Void
                    && *size <= MAX_PROMOTABLE_ALLOCA_SIZE
                    && ty.size() <= MAX_PROMOTABLE_ALLOCA_SIZE
                    && *size >= ty.size();
                if shape_ok && cand_of[dest.0 as usize] == u32::MAX {
                    cand_of[dest.0 as usize] = cands.len() as u32;
                    cands.push(Candidate::new(*dest, *ty, is_param));
                } else if let Some(&c) = cand_of.get(dest.0 as usize).filter(|&&c| c != u32::MAX) {
                    // Defined twice: not SSA, leave it alone.
                    cands[c as usize].ok = false;
                }
            }
        }
    }
    if cands.is_empty() {
        return cands;
    }
    let lookup = |v: Value| cand_of.get(v.0 as usize).copied().filter(|&c| c != u32::MAX);

    let mut gotos_so_far: Vec<u32> = Vec::new();
    for (bi, block) in func.blocks.iter().enumerate() {
        let b = bi as u32;
        gotos_so_far.clear();
        for inst in &block.instructions {
            match inst {
                Instruction::Load {
                    ptr, ty, seg_override, ..
                } => {
                    if let Some(c) = lookup(*ptr) {
                        let cand = &mut cands[c as usize];
                        if agrees(*ty, cand.ty) && *seg_override == AddressSpace::Default {
                            cand.record_load(b);
                        } else {
                            cand.ok = false;
                        }
                    }
                }
                Instruction::Store {
                    val,
                    ptr,
                    ty,
                    seg_override,
                } => {
                    if let Some(c) = val.as_value().and_then(lookup) {
                        cands[c as usize].ok = false;
                    }
                    if let Some(c) = lookup(*ptr) {
                        let cand = &mut cands[c as usize];
                        if agrees(*ty, cand.ty) && *seg_override == AddressSpace::Default {
                            cand.num_stores += 1;
                            cand.record_def(b, &gotos_so_far);
                        } else {
                            cand.ok = false;
                        }
                    }
                }
                Instruction::InlineAsm(asm) => {
                    for input in &asm.inputs {
                        if let Some(c) = input.value.as_value().and_then(lookup) {
                            cands[c as usize].ok = false;
                        }
                    }
                    // The asm's own outputs come after its goto edges.
                    for (_, target) in &asm.goto_labels {
                        if let Some(&t) = cfg.label_to_idx.get(target) {
                            gotos_so_far.push(t as u32);
                        }
                    }
                    for (i, out) in asm.outputs.iter().enumerate() {
                        if out.is_def {
                            continue;
                        }
                        if let Some(c) = lookup(out.value) {
                            let cand = &mut cands[c as usize];
                            // A read-write output left whole (`+r`: lowering
                            // splits it into `=r` and a tied input, hand-written
                            // IR may not) reads the slot too: it stays.
                            if InlineAsm::is_memory_constraint(&out.constraint)
                                || out.constraint.contains('+')
                                || !agrees(asm.output_type(i), cand.ty)
                            {
                                cand.ok = false;
                            } else {
                                cand.record_def(b, &gotos_so_far);
                            }
                        }
                    }
                }
                other => other.for_each_used_value(|v| {
                    if let Some(c) = lookup(v) {
                        cands[c as usize].ok = enabled(Bug::PromoteAddressTaken);
                    }
                }),
            }
        }
        block.terminator.for_each_used_value(|v| {
            if let Some(c) = lookup(v) {
                cands[c as usize].ok = false;
            }
        });
    }

    let ambiguous = ambiguous_blocks(func, cfg);
    for c in &mut cands {
        if c.is_param && c.num_stores == 0 {
            c.ok = false; // its value is set outside the IR (sret, struct params)
        }
        if c.def_blocks.iter().any(|&b| ambiguous[b as usize]) {
            c.ok = false;
        }
        c.goto_seeds.sort_unstable();
        c.goto_seeds.dedup();
    }
    cands
}

/// Blocks where one successor is reached both from an asm goto and from the
/// terminator (or from two asm gotos): one phi entry could not tell the two
/// reaching definitions apart, so allocas defined there stay in memory.
fn ambiguous_blocks(func: &IrFunction, cfg: &CfgAnalysis) -> Vec<bool> {
    func.blocks
        .iter()
        .map(|block| {
            let mut targets: Vec<BlockId> = block.terminator.successors();
            for inst in &block.instructions {
                let mut mine: Vec<BlockId> = inst.asm_goto_targets().iter().map(|(_, t)| *t).collect();
                mine.sort_unstable();
                mine.dedup();
                for t in mine {
                    if !cfg.label_to_idx.contains_key(&t) {
                        continue;
                    }
                    if targets.contains(&t) {
                        return true;
                    }
                    targets.push(t);
                }
            }
            false
        })
        .collect()
}
