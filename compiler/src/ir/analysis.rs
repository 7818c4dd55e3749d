//! CFG and dominance analysis shared by mem2reg, the verifier and later passes.
//!
//! - `FlatAdj`: adjacency lists in compressed sparse row form (two allocations).
//! - `build_cfg`: predecessor/successor lists from terminators and `asm goto`
//!   labels, each edge once (a switch with several cases to one block is one
//!   CFG edge, because a phi has one incoming entry per predecessor block).
//! - `compute_reverse_postorder`: iterative DFS, so 100k-block chains do not
//!   overflow the native stack.
//! - `compute_dominators`: Cooper, Harvey, Kennedy, "A Simple, Fast Dominance
//!   Algorithm" (2001): iterate `idom(b) = intersect(processed preds)` over RPO
//!   to a fixed point; correct on irreducible graphs. Unreachable blocks get
//!   `usize::MAX`, the entry is its own idom.
//! - `compute_dominance_frontiers`: the same paper's runner algorithm: from
//!   each predecessor of a join point, walk up the dominator tree to the join's
//!   idom, adding the join to each frontier on the way. The entry block, which
//!   has no strict dominator, gets the walk all the way to itself.
//! - `CfgAnalysis`: all of the above bundled, plus pre/post numbers of the
//!   dominator tree for O(1) dominance queries.

use super::instruction::BlockId;
use super::module::IrFunction;
use rustc_hash::{FxHashMap, FxHashSet};

/// `n` variable-length rows stored as offsets into one flat array.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FlatAdj {
    offsets: Vec<u32>,
    data: Vec<u32>,
}

impl FlatAdj {
    /// Build from a list of rows.
    pub fn from_rows(rows: &[Vec<u32>]) -> FlatAdj {
        let mut offsets = Vec::with_capacity(rows.len() + 1);
        let mut data = Vec::with_capacity(rows.iter().map(|r| r.len()).sum());
        offsets.push(0);
        for r in rows {
            data.extend_from_slice(r);
            offsets.push(data.len() as u32);
        }
        FlatAdj { offsets, data }
    }

    /// Build from `(from, to)` edges over `n` nodes, keeping edge order per row.
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> FlatAdj {
        let mut offsets = vec![0u32; n + 1];
        for &(a, _) in edges {
            offsets[a as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut data = vec![0u32; edges.len()];
        for &(a, b) in edges {
            data[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
        }
        FlatAdj { offsets, data }
    }

    pub fn num_rows(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    #[inline]
    pub fn row(&self, i: usize) -> &[u32] {
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    #[inline]
    pub fn len(&self, i: usize) -> usize {
        (self.offsets[i + 1] - self.offsets[i]) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// Map from block label to block index.
pub fn build_label_map(func: &IrFunction) -> FxHashMap<BlockId, usize> {
    let mut m = FxHashMap::with_capacity_and_hasher(func.blocks.len(), Default::default());
    for (i, b) in func.blocks.iter().enumerate() {
        m.insert(b.label, i);
    }
    m
}

/// Predecessor and successor lists (by block index). Successors of a block are
/// its terminator targets followed by its `asm goto` labels, each distinct
/// block once; labels that name no block are skipped (the verifier reports them).
pub fn build_cfg(func: &IrFunction, label_to_idx: &FxHashMap<BlockId, usize>) -> (FlatAdj, FlatAdj) {
    let n = func.blocks.len();
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(n * 2);
    // `last_from[j] == i + 1`: block i already has the edge to j. A switch
    // names the same block many times; searching the block's edges for each
    // target was quadratic in its cases (5% of the fuzz target's time).
    let mut last_from: Vec<u32> = vec![0; n];
    for (i, b) in func.blocks.iter().enumerate() {
        let mut push = |t: BlockId| {
            if let Some(&j) = label_to_idx.get(&t) {
                if last_from[j] != i as u32 + 1 {
                    last_from[j] = i as u32 + 1;
                    edges.push((i as u32, j as u32));
                }
            }
        };
        b.terminator.for_each_successor(&mut push);
        for inst in &b.instructions {
            for (_, t) in inst.asm_goto_targets() {
                push(*t);
            }
        }
    }
    let succs = FlatAdj::from_edges(n, &edges);
    let rev: Vec<(u32, u32)> = edges.iter().map(|&(a, b)| (b, a)).collect();
    let preds = FlatAdj::from_edges(n, &rev);
    (preds, succs)
}

/// Reverse postorder of the blocks reachable from block 0.
pub fn compute_reverse_postorder(num_blocks: usize, succs: &FlatAdj) -> Vec<usize> {
    if num_blocks == 0 {
        return Vec::new();
    }
    let mut visited = vec![false; num_blocks];
    let mut post = Vec::with_capacity(num_blocks);
    // Stack of (block, index of the next successor to visit).
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    visited[0] = true;
    while let Some(top) = stack.last_mut() {
        let (b, i) = *top;
        let row = succs.row(b);
        if i < row.len() {
            top.1 += 1;
            let s = row[i] as usize;
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Immediate dominators by Cooper-Harvey-Kennedy. `idom[0] == 0`; unreachable
/// blocks get `usize::MAX`.
pub fn compute_dominators(num_blocks: usize, preds: &FlatAdj, succs: &FlatAdj) -> Vec<usize> {
    let rpo = compute_reverse_postorder(num_blocks, succs);
    dominators_from_rpo(num_blocks, preds, &rpo)
}

fn dominators_from_rpo(num_blocks: usize, preds: &FlatAdj, rpo: &[usize]) -> Vec<usize> {
    const UNDEF: usize = usize::MAX;
    let mut idom = vec![UNDEF; num_blocks];
    if num_blocks == 0 {
        return idom;
    }
    let mut order = vec![usize::MAX; num_blocks];
    for (i, &b) in rpo.iter().enumerate() {
        order[b] = i;
    }
    idom[0] = 0;
    let intersect = |idom: &[usize], mut a: usize, mut b: usize| {
        while a != b {
            while order[a] > order[b] {
                a = idom[a];
            }
            while order[b] > order[a] {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new_idom = UNDEF;
            for &p in preds.row(b) {
                let p = p as usize;
                if idom[p] == UNDEF {
                    continue; // unprocessed or unreachable
                }
                new_idom = if new_idom == UNDEF {
                    p
                } else {
                    intersect(&idom, p, new_idom)
                };
            }
            if new_idom != UNDEF && idom[b] != new_idom {
                idom[b] = new_idom;
                changed = !crate::inject::enabled(crate::inject::Bug::DominatorsIrreducible);
            }
        }
    }
    idom
}

/// Dominance frontier of every block (empty for unreachable blocks).
pub fn compute_dominance_frontiers(num_blocks: usize, preds: &FlatAdj, idom: &[usize]) -> Vec<FxHashSet<usize>> {
    let mut df: Vec<FxHashSet<usize>> = vec![FxHashSet::default(); num_blocks];
    for b in 0..num_blocks {
        if idom[b] == usize::MAX {
            continue;
        }
        let reachable_preds = preds.row(b).iter().filter(|&&p| idom[p as usize] != usize::MAX);
        let is_join = b == 0 || preds.row(b).iter().filter(|&&p| idom[p as usize] != usize::MAX).count() >= 2;
        if !is_join {
            // One predecessor p: idom[b] == p, the walk would stop at once.
            continue;
        }
        for &p in reachable_preds {
            let mut runner = p as usize;
            loop {
                if b != 0 && runner == idom[b] {
                    break;
                }
                df[runner].insert(b);
                if runner == 0 {
                    break;
                }
                runner = idom[runner];
            }
        }
    }
    df
}

/// Children lists of the dominator tree (unreachable blocks have no parent).
pub fn build_dom_tree_children(num_blocks: usize, idom: &[usize]) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); num_blocks];
    for b in 1..num_blocks {
        if idom[b] != usize::MAX && idom[b] != b {
            children[idom[b]].push(b);
        }
    }
    children
}

/// CFG, dominator tree and dominance numbering of one function.
#[derive(Clone, Debug)]
pub struct CfgAnalysis {
    pub preds: FlatAdj,
    pub succs: FlatAdj,
    pub idom: Vec<usize>,
    pub dom_children: Vec<Vec<usize>>,
    pub num_blocks: usize,
    pub label_to_idx: FxHashMap<BlockId, usize>,
    /// Reachable blocks in reverse postorder.
    pub rpo: Vec<usize>,
    /// Preorder and postorder numbers in the dominator tree (u32::MAX when unreachable).
    pub dom_pre: Vec<u32>,
    pub dom_post: Vec<u32>,
}

impl CfgAnalysis {
    pub fn build(func: &IrFunction) -> CfgAnalysis {
        let label_to_idx = build_label_map(func);
        let (preds, succs) = build_cfg(func, &label_to_idx);
        let n = func.blocks.len();
        let rpo = compute_reverse_postorder(n, &succs);
        let idom = dominators_from_rpo(n, &preds, &rpo);
        let dom_children = build_dom_tree_children(n, &idom);
        let (dom_pre, dom_post) = number_dom_tree(n, &dom_children);
        CfgAnalysis {
            preds,
            succs,
            idom,
            dom_children,
            num_blocks: n,
            label_to_idx,
            rpo,
            dom_pre,
            dom_post,
        }
    }

    pub fn is_reachable(&self, b: usize) -> bool {
        self.idom.get(b).is_some_and(|&d| d != usize::MAX)
    }

    /// Does block `a` dominate block `b` (reflexively)? False if either is unreachable.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.is_reachable(a)
            && self.is_reachable(b)
            && self.dom_pre[a] <= self.dom_pre[b]
            && self.dom_post[b] <= self.dom_post[a]
    }

    pub fn dominance_frontiers(&self) -> Vec<FxHashSet<usize>> {
        compute_dominance_frontiers(self.num_blocks, &self.preds, &self.idom)
    }
}

fn number_dom_tree(n: usize, children: &[Vec<usize>]) -> (Vec<u32>, Vec<u32>) {
    let mut pre = vec![u32::MAX; n];
    let mut post = vec![u32::MAX; n];
    if n == 0 {
        return (pre, post);
    }
    let (mut c_pre, mut c_post) = (0u32, 0u32);
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    pre[0] = c_pre;
    c_pre += 1;
    while let Some(top) = stack.last_mut() {
        let (b, i) = *top;
        if i < children[b].len() {
            top.1 += 1;
            let c = children[b][i];
            pre[c] = c_pre;
            c_pre += 1;
            stack.push((c, 0));
        } else {
            post[b] = c_post;
            c_post += 1;
            stack.pop();
        }
    }
    (pre, post)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adj(n: usize, edges: &[(u32, u32)]) -> (FlatAdj, FlatAdj) {
        let succs = FlatAdj::from_edges(n, edges);
        let rev: Vec<_> = edges.iter().map(|&(a, b)| (b, a)).collect();
        (FlatAdj::from_edges(n, &rev), succs)
    }

    #[test]
    fn diamond_dominators_and_frontiers() {
        // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3
        let (p, s) = adj(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        let idom = compute_dominators(4, &p, &s);
        assert_eq!(idom, vec![0, 0, 0, 0]);
        let df = compute_dominance_frontiers(4, &p, &idom);
        assert!(df[1].contains(&3) && df[2].contains(&3));
        assert!(df[0].is_empty() && df[3].is_empty());
    }

    #[test]
    fn loop_and_unreachable() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3; block 4 unreachable -> 1
        let (p, s) = adj(5, &[(0, 1), (1, 2), (2, 1), (2, 3), (4, 1)]);
        let idom = compute_dominators(5, &p, &s);
        assert_eq!(idom, vec![0, 0, 1, 2, usize::MAX]);
        let df = compute_dominance_frontiers(5, &p, &idom);
        assert_eq!(df[2].iter().copied().collect::<Vec<_>>(), vec![1]);
        assert_eq!(df[1].iter().copied().collect::<Vec<_>>(), vec![1]);
        assert!(df[4].is_empty());
    }

    #[test]
    fn long_chain_does_not_overflow() {
        let n = 200_000;
        let edges: Vec<_> = (0..n as u32 - 1).map(|i| (i, i + 1)).collect();
        let (p, s) = adj(n, &edges);
        let idom = compute_dominators(n, &p, &s);
        assert_eq!(idom[n - 1], n - 2);
        let children = build_dom_tree_children(n, &idom);
        let (pre, post) = number_dom_tree(n, &children);
        assert_eq!(pre[n - 1], (n - 1) as u32);
        assert_eq!(post[0], (n - 1) as u32);
    }
}
