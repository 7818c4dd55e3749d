//! Phi placement for mem2reg: where does each promoted alloca need a phi?
//!
//! - [`dominance_frontiers`]: the frontier of every block as one CSR table,
//!   by the runner algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
//!   Dominance Algorithm", 2001), de-duplicated with a last-join marker instead
//!   of hash sets, so the work is the total frontier size.
//! - [`Placer::place`]: Cytron et al.'s iterated dominance frontier of an
//!   alloca's definition blocks, then pruned (Choi, Cytron and Ferrante's
//!   pruned SSA, as LLVM's PromoteMemoryToRegister does with
//!   `ComputeLiveInBlocks`; docs/ssa.md#live-in-pruning): a frontier block keeps its phi only
//!   when the alloca is live-in there. Unlike LLVM, liveness is asked only of
//!   the candidate blocks, by a forward search from each that stops at the
//!   first load reached before a definition, and blocks a failed search
//!   explored are remembered as dead; an alloca whose frontier is empty (a
//!   straight line, a single dominating store) costs no liveness work at all.
//!   So the work follows each alloca's definitions, frontier and the distance
//!   from its phis to their uses, not its whole live range or the function's
//!   size. Marker arrays are stamped with a per-alloca epoch and allocated
//!   once per function.
//!
//! `asm goto` makes a block define a value on one edge and not on another: a
//! definition at or after an asm goto (its own outputs included) is not seen
//! along the goto edges. The placer takes the goto targets after which an
//! alloca is redefined as extra seeds (the value reaching them, the snapshot,
//! is a definition distinct from the block's final one) and as phi candidates
//! when they are joins; blocks holding an asm goto never stop the liveness search.
//! Both are over-approximations: a superfluous phi is correct, a missing one is
//! not.

use crate::inject::{enabled, Bug};
use crate::ir::analysis::FlatAdj;

/// Dominance frontiers of all blocks (rows empty for unreachable blocks).
pub(super) fn dominance_frontiers(num_blocks: usize, preds: &FlatAdj, idom: &[usize]) -> FlatAdj {
    const UNREACHABLE: usize = usize::MAX;
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut last_join = vec![u32::MAX; num_blocks];
    for b in 0..num_blocks {
        if idom[b] == UNREACHABLE {
            continue;
        }
        let reachable = || {
            preds
                .row(b)
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| idom[p] != UNREACHABLE)
        };
        if reachable().count() < 2 {
            continue;
        }
        for p in reachable() {
            let mut runner = p;
            // idom[b] dominates every reachable predecessor, so the walk ends;
            // the bound guards against a malformed idom array all the same.
            let mut steps = 0usize;
            while runner != idom[b] && steps <= num_blocks {
                if last_join[runner] != b as u32 {
                    last_join[runner] = b as u32;
                    edges.push((runner as u32, b as u32));
                }
                if runner == idom[runner] {
                    break;
                }
                runner = idom[runner];
                steps += 1;
            }
        }
    }
    FlatAdj::from_edges(num_blocks, &edges)
}

/// What the placer needs to know about one alloca.
pub(super) struct PlacementInput<'a> {
    /// Blocks holding a definition (store, register asm output).
    pub def_blocks: &'a [u32],
    /// Blocks whose first access to the alloca is a load.
    pub upward_exposed: &'a [u32],
    /// Goto targets of asm gotos after which the alloca is redefined in the same block.
    pub goto_seeds: &'a [u32],
}

/// Reusable marker arrays for placing the phis of many allocas in one function.
pub(super) struct Placer<'a> {
    preds: &'a FlatAdj,
    succs: &'a FlatAdj,
    frontiers: &'a FlatAdj,
    has_asm_goto: &'a [bool],
    upward_exposed: Vec<u32>,
    is_def: Vec<u32>,
    dead: Vec<u32>,
    has_phi: Vec<u32>,
    queued: Vec<u32>,
    seen: Vec<u32>,
    search: u32,
    worklist: Vec<u32>,
    visited: Vec<u32>,
}

impl<'a> Placer<'a> {
    pub fn new(preds: &'a FlatAdj, succs: &'a FlatAdj, frontiers: &'a FlatAdj, has_asm_goto: &'a [bool]) -> Placer<'a> {
        let n = preds.num_rows();
        Placer {
            preds,
            succs,
            frontiers,
            has_asm_goto,
            upward_exposed: vec![0; n],
            is_def: vec![0; n],
            dead: vec![0; n],
            has_phi: vec![0; n],
            queued: vec![0; n],
            seen: vec![0; n],
            search: 0,
            worklist: Vec::new(),
            visited: Vec::new(),
        }
    }

    /// The blocks (sorted by index) that get a phi for one alloca. `epoch`
    /// must be nonzero and distinct for every call on this placer. Without
    /// `prune`, every block of the iterated frontier gets a phi (minimal SSA);
    /// with it, only those where the alloca is live-in (pruned SSA).
    pub fn place(&mut self, epoch: u32, input: &PlacementInput<'_>, prune: bool) -> Vec<u32> {
        let mut phis = Vec::new();
        self.worklist.clear();
        for &b in input.def_blocks.iter().chain(input.goto_seeds) {
            if self.queued[b as usize] != epoch {
                self.queued[b as usize] = epoch;
                self.worklist.push(b);
            }
        }
        // A goto target that is a join receives the snapshot on one edge and
        // other values on the others: it needs a phi even when it lies inside
        // the region the defining block dominates.
        for &t in input.goto_seeds {
            if self.preds.len(t as usize) >= 2 && self.has_phi[t as usize] != epoch {
                self.has_phi[t as usize] = epoch;
                phis.push(t);
            }
        }
        while let Some(b) = self.worklist.pop() {
            for &y in self.frontiers.row(b as usize) {
                if self.has_phi[y as usize] == epoch {
                    continue;
                }
                self.has_phi[y as usize] = epoch;
                phis.push(y);
                if self.queued[y as usize] != epoch && !enabled(Bug::DirectDfOnly) {
                    self.queued[y as usize] = epoch;
                    self.worklist.push(y);
                }
            }
        }
        if prune && !phis.is_empty() {
            for &b in input.def_blocks {
                self.is_def[b as usize] = epoch;
            }
            for &b in input.upward_exposed {
                self.upward_exposed[b as usize] = epoch;
            }
            phis.retain(|&b| self.live_in(epoch, b));
        }
        phis.sort_unstable();
        phis
    }

    /// Is the alloca live on entry to `start`: does a path lead from there to
    /// a load before any definition? A forward search that stops at the first
    /// such load, so a live phi costs the distance to its nearest use; blocks
    /// a failed search explored are remembered as dead for later searches.
    fn live_in(&mut self, epoch: u32, start: u32) -> bool {
        self.search += 1;
        let stamp = self.search;
        // Breadth first (`visited` doubles as the queue), so the nearest use ends the search.
        self.visited.clear();
        self.visited.push(start);
        self.seen[start as usize] = stamp;
        let mut head = 0;
        while head < self.visited.len() {
            let bi = self.visited[head] as usize;
            head += 1;
            if self.upward_exposed[bi] == epoch {
                return true;
            }
            if self.is_def[bi] == epoch && !self.has_asm_goto[bi] {
                continue;
            }
            for &s in self.succs.row(bi) {
                let si = s as usize;
                if self.seen[si] != stamp && self.dead[si] != epoch {
                    self.seen[si] = stamp;
                    self.visited.push(s);
                }
            }
        }
        for &b in &self.visited {
            self.dead[b as usize] = epoch;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::analysis::compute_dominators;

    fn cfg(n: usize, edges: &[(u32, u32)]) -> (FlatAdj, FlatAdj, Vec<usize>) {
        let succs = FlatAdj::from_edges(n, edges);
        let rev: Vec<_> = edges.iter().map(|&(a, b)| (b, a)).collect();
        let preds = FlatAdj::from_edges(n, &rev);
        let idom = compute_dominators(n, &preds, &succs);
        (preds, succs, idom)
    }

    #[test]
    fn frontiers_match_the_hash_set_version() {
        // Two nested loops with a diamond inside, plus an unreachable block.
        let edges = [
            (0, 1),
            (1, 2),
            (2, 3),
            (2, 4),
            (3, 5),
            (4, 5),
            (5, 2),
            (5, 6),
            (6, 1),
            (6, 7),
            (8, 5),
        ];
        let (preds, _, idom) = cfg(9, &edges);
        let ours = dominance_frontiers(9, &preds, &idom);
        let reference = crate::ir::analysis::compute_dominance_frontiers(9, &preds, &idom);
        for (b, expected) in reference.iter().enumerate() {
            let mut a: Vec<usize> = ours.row(b).iter().map(|&x| x as usize).collect();
            let mut r: Vec<usize> = expected.iter().copied().collect();
            a.sort();
            r.sort();
            assert_eq!(a, r, "block {b}");
        }
    }

    #[test]
    fn pruning_skips_blocks_where_the_alloca_is_dead() {
        // 0 -> 1 | 2 -> 3 ; definitions in 1 and 2, a load only in 1 (after its store).
        let (preds, succs, idom) = cfg(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        let df = dominance_frontiers(4, &preds, &idom);
        let goto = vec![false; 4];
        let mut placer = Placer::new(&preds, &succs, &df, &goto);
        let dead = PlacementInput {
            def_blocks: &[1, 2],
            upward_exposed: &[],
            goto_seeds: &[],
        };
        assert_eq!(placer.place(1, &dead, true), Vec::<u32>::new());
        assert_eq!(placer.place(2, &dead, false), vec![3]);
        let live = PlacementInput {
            def_blocks: &[1, 2],
            upward_exposed: &[3],
            goto_seeds: &[],
        };
        assert_eq!(placer.place(3, &live, true), vec![3]);
    }

    #[test]
    fn loop_header_gets_a_phi_iterated() {
        // 0 -> 1 -> 2 -> 1, 1 -> 3; def in 2, load in 1: the header needs a phi.
        let (preds, succs, idom) = cfg(4, &[(0, 1), (1, 2), (2, 1), (1, 3)]);
        let df = dominance_frontiers(4, &preds, &idom);
        let goto = vec![false; 4];
        let mut placer = Placer::new(&preds, &succs, &df, &goto);
        let input = PlacementInput {
            def_blocks: &[2],
            upward_exposed: &[1],
            goto_seeds: &[],
        };
        assert_eq!(placer.place(1, &input, true), vec![1]);
    }

    #[test]
    fn goto_target_join_inside_the_dominated_region_gets_a_phi() {
        // 0 has an asm goto to 2 and falls through to 1 -> 2. A redefinition
        // after the asm makes 2 a merge of the snapshot and the new value,
        // though 0 dominates 2 (so 2 is in no frontier of a definition block).
        let (preds, succs, idom) = cfg(3, &[(0, 1), (0, 2), (1, 2)]);
        let df = dominance_frontiers(3, &preds, &idom);
        let goto = vec![true, false, false];
        let mut placer = Placer::new(&preds, &succs, &df, &goto);
        let input = PlacementInput {
            def_blocks: &[0],
            upward_exposed: &[2],
            goto_seeds: &[2],
        };
        assert_eq!(placer.place(1, &input, true), vec![2]);
    }
}
