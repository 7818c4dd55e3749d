//! An independent dominance analysis, to cross-check [`super::analysis`].
//!
//! mem2reg and the verifier's SSA check both take their dominator tree from
//! `analysis.rs` (Cooper, Harvey and Kennedy's two-finger algorithm), so a
//! mistake there is invisible to the verifier. This module computes dominance
//! the textbook way instead, the iterative data-flow formulation of Allen and
//! Cocke (also Aho, Sethi and Ullman, "Compilers", §10.9):
//!
//! - `Dom(entry) = {entry}`, `Dom(b) = {b} ∪ ⋂ Dom(p)` over the reachable
//!   predecessors `p` of `b`, starting from "all blocks" and iterated to the
//!   greatest fixed point, each set a bit vector;
//! - `idom(b)` is the strict dominator of `b` whose own set is largest (the
//!   strict dominators of `b` form a chain);
//! - `y ∈ DF(x)` iff `x` dominates a reachable predecessor of `y` and does not
//!   strictly dominate `y` (Cytron et al.'s definition, not the runner walk).
//!
//! Reachability and the visiting order come from this module's own DFS. It
//! shares only the CFG (`build_cfg`, tested edge by edge in
//! `compiler/tests/dominators.rs`) with the analysis it checks.
//!
//! [`cross_check`] compares the immediate dominators of every block of one
//! function; the verifier runs it on functions of at most
//! [`CROSS_CHECK_MAX_BLOCKS`] blocks (the sets cost `n²/64` words).
//! [`cross_check_frontiers`] compares frontiers computed elsewhere (the
//! harness's check gives it mem2reg's, once per input function). [`has_irreducible_loop`] says whether a DFS
//! finds a retreating edge whose target does not dominate its source: a loop
//! entered at more than one block, which is where a wrong tree hides.

use super::analysis::{CfgAnalysis, FlatAdj};

/// Functions with more blocks than this are not cross-checked.
pub const CROSS_CHECK_MAX_BLOCKS: usize = 512;

/// Dominator sets of every block, as bit vectors.
#[derive(Clone, Debug)]
pub struct DominatorSets {
    n: usize,
    words: usize,
    /// `n` rows of `words` words; row `b` is `Dom(b)` (all ones for unreachable blocks).
    sets: Vec<u64>,
    reachable: Vec<bool>,
    /// Reachable blocks in DFS preorder and postorder numbers (for retreating edges).
    pre: Vec<usize>,
    post: Vec<usize>,
    /// `|Dom(b)|` per block, counted once the sets are final: `idom` compares
    /// the sizes of a block's dominators, and counting a row's bits on each
    /// query made the cross-check quadratic in the dominator tree's depth.
    sizes: Vec<u32>,
}

impl DominatorSets {
    /// Dominator sets of the graph with entry block 0.
    pub fn compute(num_blocks: usize, preds: &FlatAdj, succs: &FlatAdj) -> DominatorSets {
        let n = num_blocks;
        let words = n.div_ceil(64).max(1);
        let mut ds = DominatorSets {
            n,
            words,
            sets: vec![!0u64; n * words],
            reachable: vec![false; n],
            pre: vec![usize::MAX; n],
            post: vec![usize::MAX; n],
            sizes: Vec::new(),
        };
        if n == 0 {
            return ds;
        }
        // DFS from the entry: reachability, pre- and postorder.
        let mut postorder = Vec::with_capacity(n);
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        ds.reachable[0] = true;
        ds.pre[0] = 0;
        let mut next_pre = 1;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            if let Some(&s) = succs.row(b).get(*i) {
                *i += 1;
                let s = s as usize;
                if !ds.reachable[s] {
                    ds.reachable[s] = true;
                    ds.pre[s] = next_pre;
                    next_pre += 1;
                    stack.push((s, 0));
                }
            } else {
                ds.post[b] = postorder.len();
                postorder.push(b);
                stack.pop();
            }
        }
        // Dom(entry) = {entry}; the others start at "all blocks".
        let row0 = &mut ds.sets[..words];
        row0.fill(0);
        row0[0] = 1;
        let mut scratch = vec![0u64; words];
        let mut changed = true;
        while changed {
            changed = false;
            for &b in postorder.iter().rev() {
                if b == 0 {
                    continue;
                }
                scratch.fill(!0);
                for &p in preds.row(b) {
                    let p = p as usize;
                    if !ds.reachable[p] {
                        continue;
                    }
                    for (w, &x) in scratch.iter_mut().zip(&ds.sets[p * words..(p + 1) * words]) {
                        *w &= x;
                    }
                }
                scratch[b / 64] |= 1 << (b % 64);
                let row = &mut ds.sets[b * words..(b + 1) * words];
                if row != &scratch[..] {
                    row.copy_from_slice(&scratch);
                    changed = true;
                }
            }
        }
        ds.sizes = ds
            .sets
            .chunks(words)
            .map(|row| row.iter().map(|w| w.count_ones()).sum())
            .collect();
        ds
    }

    fn row(&self, b: usize) -> &[u64] {
        &self.sets[b * self.words..(b + 1) * self.words]
    }

    fn size(&self, b: usize) -> u32 {
        self.sizes[b]
    }

    /// The members of a bit-vector row, in increasing order.
    fn members(row: &[u64]) -> impl Iterator<Item = usize> + '_ {
        row.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + i
                })
            })
        })
    }

    pub fn is_reachable(&self, b: usize) -> bool {
        self.reachable.get(b).copied().unwrap_or(false)
    }

    /// Does `a` dominate `b` (reflexively)? False when either is unreachable.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.is_reachable(a) && self.is_reachable(b) && self.row(b)[a / 64] >> (a % 64) & 1 == 1
    }

    /// The immediate dominator of `b`: `None` when unreachable, the entry for
    /// itself. The strict dominators of `b` form a chain, so it is the one
    /// with one dominator fewer than `b`.
    pub fn idom(&self, b: usize) -> Option<usize> {
        if !self.is_reachable(b) {
            return None;
        }
        if b == 0 {
            return Some(0);
        }
        let want = self.size(b) - 1;
        Self::members(self.row(b)).find(|&d| d != b && self.size(d) == want)
    }

    /// `DF(x)` for every block, each sorted: `y` is in the frontier of every
    /// member of the union of its reachable predecessors' sets that is not a
    /// strict dominator of `y`.
    pub fn frontiers(&self, preds: &FlatAdj) -> Vec<Vec<usize>> {
        let mut df = vec![Vec::new(); self.n];
        let mut union = vec![0u64; self.words];
        for y in 0..self.n {
            union.fill(0);
            let mut any = false;
            for &p in preds.row(y) {
                let p = p as usize;
                if self.is_reachable(p) {
                    any = true;
                    for (u, &x) in union.iter_mut().zip(self.row(p)) {
                        *u |= x;
                    }
                }
            }
            if !any {
                continue;
            }
            if self.is_reachable(y) {
                // Remove the strict dominators of y (y itself stays).
                for (u, &d) in union.iter_mut().zip(self.row(y)) {
                    *u &= !d;
                }
                let (w, bit) = (y / 64, 1u64 << (y % 64));
                let y_in_union = preds
                    .row(y)
                    .iter()
                    .any(|&p| self.is_reachable(p as usize) && self.row(p as usize)[w] & bit != 0);
                if y_in_union {
                    union[w] |= bit;
                }
            }
            for x in Self::members(&union) {
                df[x].push(y);
            }
        }
        // Rows are filled in increasing y, so each is sorted.
        df
    }

    /// Is there a retreating edge `u -> v` (in this DFS) whose target does
    /// not dominate its source: a loop entered at two blocks?
    pub fn has_irreducible_loop(&self, succs: &FlatAdj) -> bool {
        (0..self.n).filter(|&u| self.is_reachable(u)).any(|u| {
            succs.row(u).iter().any(|&v| {
                let v = v as usize;
                // Retreating: v is an ancestor of u in the DFS tree (or u itself).
                let retreating = self.pre[v] <= self.pre[u] && self.post[v] >= self.post[u];
                retreating && !self.dominates(v, u)
            })
        })
    }
}

/// Where `analysis.rs`'s immediate dominators disagree with the data-flow
/// sets on `cfg`'s function: one line per disagreement (at most four), empty
/// when they agree. Block names are `label(index)`. The verifier runs this.
pub fn cross_check(cfg: &CfgAnalysis, label: impl Fn(usize) -> String) -> Vec<String> {
    let n = cfg.num_blocks;
    let ds = DominatorSets::compute(n, &cfg.preds, &cfg.succs);
    let name = |b: Option<usize>| b.map_or("none (unreachable)".to_string(), &label);
    let mut out = Vec::new();
    for b in 0..n {
        let chk = (cfg.idom[b] != usize::MAX).then_some(cfg.idom[b]);
        let expected = ds.idom(b);
        if chk != expected {
            out.push(format!(
                "dominator analysis is wrong: idom({}) is {}, but the dominator sets say {}",
                label(b),
                name(chk),
                name(expected)
            ));
            if out.len() == 4 {
                break;
            }
        }
    }
    out
}

/// Where the dominance frontiers `got` (row `x` = `DF(x)`, sorted), computed
/// from `cfg`'s tree by some other code, disagree with the definition over
/// the data-flow sets: at most four lines, empty when they agree. The
/// harness checks mem2reg's frontiers (`passes::mem2reg::placement_frontiers`)
/// and the tests `analysis.rs`'s this way.
pub fn cross_check_frontiers(cfg: &CfgAnalysis, got: &[Vec<usize>], label: impl Fn(usize) -> String) -> Vec<String> {
    let ds = DominatorSets::compute(cfg.num_blocks, &cfg.preds, &cfg.succs);
    let expected = ds.frontiers(&cfg.preds);
    let list = |v: &[usize]| v.iter().map(|&b| label(b)).collect::<Vec<_>>().join(", ");
    let mut out = Vec::new();
    for (x, (g, e)) in got.iter().zip(&expected).enumerate() {
        if g != e {
            out.push(format!(
                "dominance frontier is wrong: DF({}) is {{{}}}, but by definition {{{}}}",
                label(x),
                list(g),
                list(e)
            ));
            if out.len() == 4 {
                break;
            }
        }
    }
    out
}

/// Does `cfg`'s function have a loop entered at more than one block?
pub fn has_irreducible_loop(cfg: &CfgAnalysis) -> bool {
    DominatorSets::compute(cfg.num_blocks, &cfg.preds, &cfg.succs).has_irreducible_loop(&cfg.succs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adj(n: usize, edges: &[(u32, u32)]) -> (FlatAdj, FlatAdj) {
        let succs = FlatAdj::from_edges(n, edges);
        let rev: Vec<_> = edges.iter().map(|&(a, b)| (b, a)).collect();
        (FlatAdj::from_edges(n, &rev), succs)
    }

    /// A loop {2, 3} entered at 2 from 1 and at 3 from 0: both have idom 0.
    #[test]
    fn two_entry_loop() {
        let (p, s) = adj(5, &[(0, 1), (0, 3), (1, 2), (2, 3), (3, 2), (3, 4)]);
        let ds = DominatorSets::compute(5, &p, &s);
        let idoms: Vec<_> = (0..5).map(|b| ds.idom(b)).collect();
        assert_eq!(idoms, vec![Some(0), Some(0), Some(0), Some(0), Some(3)]);
        assert!(ds.has_irreducible_loop(&s));
        let df = ds.frontiers(&p);
        assert_eq!(df[1], vec![2]);
        assert_eq!(df[2], vec![3]);
        assert_eq!(df[3], vec![2]);
        assert!(df[0].is_empty() && df[4].is_empty());
    }

    /// A natural loop with a self-loop inside and an unreachable block is reducible.
    #[test]
    fn natural_loop_is_reducible() {
        let (p, s) = adj(5, &[(0, 1), (1, 2), (2, 2), (2, 1), (1, 3), (4, 2)]);
        let ds = DominatorSets::compute(5, &p, &s);
        assert!(!ds.has_irreducible_loop(&s));
        assert_eq!(ds.idom(2), Some(1));
        assert_eq!(ds.idom(4), None);
        assert!(!ds.dominates(4, 2) && !ds.dominates(2, 4));
    }

    /// Sets wider than one word.
    #[test]
    fn long_chain() {
        let n = 300;
        let edges: Vec<_> = (0..n as u32 - 1).map(|i| (i, i + 1)).collect();
        let (p, s) = adj(n, &edges);
        let ds = DominatorSets::compute(n, &p, &s);
        assert_eq!(ds.idom(n - 1), Some(n - 2));
        assert!(ds.dominates(70, 200) && !ds.dominates(200, 70));
    }
}
