//! CFG simplification on SSA form: constant branches folded, unreachable
//! blocks removed, straight-line blocks merged, empty blocks threaded.
//!
//! Reference: LLVM's `SimplifyCFG` (`FoldSingleEntryPHINodes`,
//! `MergeBlockIntoPredecessor`, `TryToSimplifyUncondBranchFromEmptyBlock` and
//! its `CanPropagatePredecessorsForPHIs` rule, `ConstantFoldTerminator`,
//! `removeUnreachableBlocks`), reduced to four local rewrites that run in
//! rounds until none applies. Each rewrite removes a block, a phi or a
//! terminator edge, so the rounds end.
//!
//! 1. **Constant branches.** A `condbr` on a constant, or with both targets
//!    equal, becomes a `br`; so does a `switch` on an integer constant (the
//!    case is chosen exactly as the interpreter chooses it: case values
//!    zero-extended from the switch type's width) or one whose targets are
//!    all the same block. The phis of every successor the block no longer
//!    reaches lose the block's entry.
//! 2. **Unreachable blocks.** Blocks that no path from the entry reaches
//!    (terminator targets, `asm goto` labels and indirect-branch targets are
//!    all edges) are deleted, and the phis of the blocks they reached lose
//!    their entries. A block whose address is taken (`labeladdr`, a static
//!    initializer's label, `initlabels`) is never deleted, because its label
//!    must keep naming a block: when unreachable it is emptied to
//!    `unreachable` instead.
//! 3. **Straight-line blocks.** A block with exactly one predecessor folds
//!    its phis (each has one entry: its uses take the entry's value, or a
//!    `copy` of the constant, since pointer slots cannot hold constants). A
//!    block `B` whose only predecessor `A` ends in `br B` is appended to `A`
//!    (its successors' phis rename `B` to `A`), unless `B`'s address is taken
//!    or `A` has an `asm goto` to one of `B`'s successors (the merged block
//!    would reach that successor from two edge sources, which the verifier
//!    rejects and a phi cannot express).
//! 4. **Empty blocks.** A block `E` with no instruction and a `br S`, whose
//!    address is not taken, is bypassed: each predecessor `P` branches to
//!    `S` directly and `S`'s phis take `E`'s operand for `P`. Only when
//!    every predecessor reaches `E` through a `br`, `condbr` or `switch`
//!    (never an `asm goto` or an indirect branch, whose edges stay as they
//!    are), and when a predecessor that already reaches `S` has the same
//!    operand as `E` in every phi of `S`: a phi has one entry per
//!    predecessor block, so two different values on the two paths could not
//!    both be kept (LLVM's `CanPropagatePredecessorsForPHIs`). `E` then has
//!    no predecessor left and goes.
//!
//! Contract. Input: SSA form that verifies. Output: SSA form that verifies
//! (phis list exactly their block's predecessors, once each; no block
//! reaches a successor from two edge sources; definitions dominate uses) and
//! has the same observable outcome under the reference interpreter. `asm
//! goto` and indirect-branch edges are never redirected, and blocks whose
//! address is taken keep their labels. The entry block stays first.

use crate::ir::analysis::build_label_map;
use crate::ir::constants::zext;
use crate::ir::reexports::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimplifyCfgStats {
    /// `condbr`s and `switch`es turned into `br`.
    pub branches_folded: usize,
    /// Unreachable blocks deleted (or emptied, when their address is taken).
    pub unreachable_removed: usize,
    /// Blocks appended to their only predecessor.
    pub blocks_merged: usize,
    /// Empty blocks bypassed and deleted.
    pub blocks_threaded: usize,
    /// Phis of single-predecessor blocks folded away.
    pub phis_folded: usize,
}

/// Simplifies the CFG of `func` (see the module documentation).
pub fn simplify_cfg(func: &mut IrFunction) -> SimplifyCfgStats {
    let mut stats = SimplifyCfgStats::default();
    if func.blocks.is_empty() {
        return stats;
    }
    loop {
        let mut changed = fold_branches(func, &mut stats);
        changed |= remove_unreachable(func, &mut stats);
        changed |= merge_blocks(func, &mut stats);
        changed |= thread_empty_blocks(func, &mut stats);
        if !changed {
            return stats;
        }
    }
}

/// Every successor of a block, each once: terminator targets, then `asm goto` labels.
fn all_successors(block: &BasicBlock) -> Vec<BlockId> {
    let mut out = block.terminator.successors();
    for inst in &block.instructions {
        for (_, t) in inst.asm_goto_targets() {
            if !out.contains(t) {
                out.push(*t);
            }
        }
    }
    out
}

/// The `asm goto` labels of a block.
fn asm_goto_targets(block: &BasicBlock) -> FxHashSet<BlockId> {
    block
        .instructions
        .iter()
        .flat_map(|i| i.asm_goto_targets().iter().map(|(_, t)| *t))
        .collect()
}

/// Blocks whose address is taken: `labeladdr` anywhere, static initializers.
fn address_taken(func: &IrFunction) -> FxHashSet<BlockId> {
    let mut out: FxHashSet<BlockId> = func.global_init_label_blocks.iter().copied().collect();
    for block in &func.blocks {
        for inst in &block.instructions {
            if let Instruction::LabelAddr { label, .. } = inst {
                out.insert(*label);
            }
        }
    }
    out
}

fn phis_mut(block: &mut BasicBlock) -> impl Iterator<Item = &mut Vec<(Operand, BlockId)>> {
    block.instructions.iter_mut().map_while(|i| match i {
        Instruction::Phi { incoming, .. } => Some(incoming),
        _ => None,
    })
}

fn has_phis(block: &BasicBlock) -> bool {
    matches!(block.instructions.first(), Some(Instruction::Phi { .. }))
}

/// Drops the entries for `pred` from the phis of `block`.
fn remove_phi_entries(block: &mut BasicBlock, pred: BlockId) {
    for incoming in phis_mut(block) {
        incoming.retain(|(_, p)| *p != pred);
    }
}

/// The operand the phi takes from `pred`.
fn phi_operand(incoming: &[(Operand, BlockId)], pred: BlockId) -> Option<Operand> {
    incoming.iter().find(|(_, p)| *p == pred).map(|(op, _)| *op)
}

/// Deletes the blocks marked in `removed`, keeping the order of the rest.
fn compact(func: &mut IrFunction, removed: &[bool]) {
    let mut k = 0;
    func.blocks.retain(|_| {
        k += 1;
        !removed[k - 1]
    });
}

/// Distinct predecessor blocks of every block, over all edge sources.
fn predecessors(func: &IrFunction, idx: &FxHashMap<BlockId, usize>) -> Vec<Vec<usize>> {
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); func.blocks.len()];
    for (b, block) in func.blocks.iter().enumerate() {
        for s in all_successors(block) {
            if let Some(&s) = idx.get(&s) {
                preds[s].push(b);
            }
        }
    }
    preds
}

/// Rewrite 1: constant and single-target `condbr`/`switch` become `br`.
fn fold_branches(func: &mut IrFunction, stats: &mut SimplifyCfgStats) -> bool {
    let mut dropped: Vec<(BlockId, BlockId)> = Vec::new();
    let mut changed = false;
    for block in &mut func.blocks {
        let target = match &block.terminator {
            Terminator::CondBranch {
                cond,
                true_label,
                false_label,
            } => {
                if true_label == false_label {
                    Some(*true_label)
                } else if let Operand::Const(c) = cond {
                    Some(if c.is_nonzero() { *true_label } else { *false_label })
                } else {
                    None
                }
            }
            Terminator::Switch {
                val,
                cases,
                default,
                ty,
            } => {
                let succs = block.terminator.successors();
                match val {
                    _ if succs.len() == 1 => Some(succs[0]),
                    Operand::Const(c) if ty.is_integer() && c.to_i128().is_some() => {
                        let bits = ty.bits();
                        let v = zext(c.bits_as(*ty), bits);
                        let hit = cases.iter().find(|(k, _)| zext(*k as i128 as u128, bits) == v);
                        Some(hit.map_or(*default, |(_, t)| *t))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(t) = target {
            for s in block.terminator.successors() {
                if s != t {
                    dropped.push((s, block.label));
                }
            }
            block.terminator = Terminator::Branch(t);
            stats.branches_folded += 1;
            changed = true;
        }
    }
    let idx = build_label_map(func);
    for (succ, pred) in &dropped {
        if let Some(&s) = idx.get(succ) {
            remove_phi_entries(&mut func.blocks[s], *pred);
        }
    }
    changed
}

/// Rewrite 2: blocks no path from the entry reaches go (or are emptied when
/// their address is taken); their successors' phis lose their entries.
fn remove_unreachable(func: &mut IrFunction, stats: &mut SimplifyCfgStats) -> bool {
    let idx = build_label_map(func);
    let n = func.blocks.len();
    let mut seen = vec![false; n];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(b) = stack.pop() {
        for s in all_successors(&func.blocks[b]) {
            if let Some(&s) = idx.get(&s) {
                if !seen[s] {
                    seen[s] = true;
                    stack.push(s);
                }
            }
        }
    }
    if seen.iter().all(|&s| s) {
        return false;
    }
    let pinned = address_taken(func);
    let mut dropped: Vec<(usize, BlockId)> = Vec::new();
    for b in (0..n).filter(|&b| !seen[b]) {
        for s in all_successors(&func.blocks[b]) {
            if let Some(&s) = idx.get(&s) {
                dropped.push((s, func.blocks[b].label));
            }
        }
    }
    for (s, pred) in dropped {
        remove_phi_entries(&mut func.blocks[s], pred);
    }
    let mut removed = vec![false; n];
    let mut changed = false;
    for b in (0..n).filter(|&b| !seen[b]) {
        let block = &mut func.blocks[b];
        if pinned.contains(&block.label) {
            if !block.instructions.is_empty() || block.terminator != Terminator::Unreachable {
                block.instructions.clear();
                block.terminator = Terminator::Unreachable;
                stats.unreachable_removed += 1;
                changed = true;
            }
        } else {
            removed[b] = true;
            stats.unreachable_removed += 1;
            changed = true;
        }
    }
    compact(func, &removed);
    changed
}

/// Rewrite 3: phis of single-predecessor blocks fold; a block that is the
/// only successor of its only predecessor is appended to it.
fn merge_blocks(func: &mut IrFunction, stats: &mut SimplifyCfgStats) -> bool {
    let idx = build_label_map(func);
    let n = func.blocks.len();
    let mut preds = predecessors(func, &idx);
    let pinned = address_taken(func);
    let mut repl: FxHashMap<Value, Value> = FxHashMap::default();
    let mut changed = false;

    for (b, ps) in preds.iter().enumerate().skip(1) {
        if let [p] = ps[..] {
            if p != b && has_phis(&func.blocks[b]) {
                let pred = func.blocks[p].label;
                changed |= fold_single_entry_phis(&mut func.blocks[b], pred, &mut repl, stats);
            }
        }
    }

    let mut removed = vec![false; n];
    for a in 0..n {
        if removed[a] {
            continue;
        }
        // `a`'s asm goto labels, grown as blocks are appended (not rescanned:
        // a long chain merges in linear time).
        let mut gotos: Option<FxHashSet<BlockId>> = None;
        while let Terminator::Branch(bl) = func.blocks[a].terminator {
            let Some(&b) = idx.get(&bl) else { break };
            if b == a || b == 0 || removed[b] || preds[b].len() != 1 || pinned.contains(&bl) {
                break;
            }
            let gotos = gotos.get_or_insert_with(|| asm_goto_targets(&func.blocks[a]));
            let b_succs = all_successors(&func.blocks[b]);
            if b_succs.iter().any(|s| gotos.contains(s)) {
                break;
            }
            let al = func.blocks[a].label;
            // Its phis are single-entry (one predecessor): folded above, or now.
            if has_phis(&func.blocks[b]) {
                fold_single_entry_phis(&mut func.blocks[b], al, &mut repl, stats);
                if has_phis(&func.blocks[b]) {
                    break;
                }
            }
            let mut moved = std::mem::replace(&mut func.blocks[b], BasicBlock::new(bl));
            gotos.extend(asm_goto_targets(&moved));
            let block_a = &mut func.blocks[a];
            block_a.instructions.append(&mut moved.instructions);
            block_a.terminator = moved.terminator;
            for s in &b_succs {
                let Some(&s) = idx.get(s) else { continue };
                for incoming in phis_mut(&mut func.blocks[s]) {
                    for (_, p) in incoming.iter_mut() {
                        if *p == bl {
                            *p = al;
                        }
                    }
                }
                preds[s].retain(|&p| p != b);
                if !preds[s].contains(&a) {
                    preds[s].push(a);
                }
            }
            removed[b] = true;
            stats.blocks_merged += 1;
            changed = true;
        }
    }
    if !repl.is_empty() {
        substitute(func, &repl);
    }
    compact(func, &removed);
    changed
}

/// Folds the phis of `block`, whose only predecessor is `pred`: a value
/// operand replaces the phi's uses, a constant one becomes a `copy` (placed
/// where the phis were, so it still opens the block).
fn fold_single_entry_phis(
    block: &mut BasicBlock,
    pred: BlockId,
    repl: &mut FxHashMap<Value, Value>,
    stats: &mut SimplifyCfgStats,
) -> bool {
    let nphis = block
        .instructions
        .iter()
        .take_while(|i| matches!(i, Instruction::Phi { .. }))
        .count();
    let foldable = block.instructions[..nphis].iter().all(|i| match i {
        Instruction::Phi { dest, incoming, .. } => {
            incoming.len() == 1 && incoming[0].1 == pred && incoming[0].0 != Operand::Value(*dest)
        }
        _ => false,
    });
    if nphis == 0 || !foldable {
        return false;
    }
    let mut copies = Vec::new();
    for inst in block.instructions.drain(..nphis) {
        if let Instruction::Phi { dest, incoming, .. } = inst {
            match incoming[0].0 {
                Operand::Value(v) => {
                    repl.insert(dest, v);
                }
                Operand::Const(c) => copies.push(Instruction::Copy {
                    dest,
                    src: Operand::Const(c),
                }),
            }
            stats.phis_folded += 1;
        }
    }
    block.instructions.splice(0..0, copies);
    true
}

/// Replaces every use of a key of `repl` by its value (chains followed).
fn substitute(func: &mut IrFunction, repl: &FxHashMap<Value, Value>) {
    let resolve = |v: &mut Value| {
        let mut steps = 0;
        while let Some(&w) = repl.get(v) {
            if w == *v || steps > repl.len() {
                break;
            }
            *v = w;
            steps += 1;
        }
    };
    for block in &mut func.blocks {
        for inst in &mut block.instructions {
            inst.for_each_value_use_mut(resolve);
        }
        block.terminator.for_each_operand_mut(|op| {
            if let Operand::Value(v) = op {
                resolve(v)
            }
        });
    }
}

/// Rewrite 4: empty blocks ending in `br` are bypassed when every
/// predecessor can branch to the successor directly.
fn thread_empty_blocks(func: &mut IrFunction, stats: &mut SimplifyCfgStats) -> bool {
    let idx = build_label_map(func);
    let n = func.blocks.len();
    let pinned = address_taken(func);
    // Per block: distinct predecessors, and whether every edge from each is
    // a plain terminator edge (`br`, `condbr`, `switch`) that may be redirected.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut fixed_edge: Vec<bool> = vec![false; n];
    // `asm goto` edges (from, to): a block that reaches `s` through one
    // cannot also branch there (two edge sources).
    let mut asm_edges: FxHashSet<(usize, usize)> = FxHashSet::default();
    for (p, block) in func.blocks.iter().enumerate() {
        let indirect = matches!(block.terminator, Terminator::IndirectBranch { .. });
        for s in block.terminator.successors() {
            if let Some(&s) = idx.get(&s) {
                preds[s].push(p);
                fixed_edge[s] |= indirect;
            }
        }
        for s in asm_goto_targets(block) {
            if let Some(&s) = idx.get(&s) {
                if !preds[s].contains(&p) {
                    preds[s].push(p);
                }
                fixed_edge[s] = true;
                asm_edges.insert((p, s));
            }
        }
    }
    let mut removed = vec![false; n];
    let mut changed = false;
    for e in 1..n {
        let block = &func.blocks[e];
        let Terminator::Branch(sl) = block.terminator else {
            continue;
        };
        if !block.instructions.is_empty() || pinned.contains(&block.label) || fixed_edge[e] || preds[e].is_empty() {
            continue;
        }
        let Some(&s) = idx.get(&sl) else { continue };
        if s == e {
            continue;
        }
        let el = block.label;
        let ps = preds[e].clone();
        // A predecessor that already reaches `s` keeps one phi entry: only
        // when its operand equals `e`'s in every phi of `s`.
        let agree = |p: usize| {
            let pl = func.blocks[p].label;
            func.blocks[s].instructions.iter().all(|i| match i {
                Instruction::Phi { incoming, .. } => phi_operand(incoming, pl) == phi_operand(incoming, el),
                _ => true,
            })
        };
        // Injected bug `simplifycfg-thread-phi-conflict`: the check is
        // skipped, so the predecessor's own entry stays and `e`'s value is lost.
        #[cfg(feature = "inject-bugs")]
        let skip_check = crate::inject::enabled(crate::inject::Bug::SimplifycfgThreadPhiConflict);
        #[cfg(not(feature = "inject-bugs"))]
        let skip_check = false;
        if ps.iter().any(|&p| asm_edges.contains(&(p, s)))
            || !skip_check && ps.iter().any(|&p| preds[s].contains(&p) && !agree(p))
        {
            continue;
        }
        for &p in &ps {
            func.blocks[p].terminator.retarget(el, sl);
        }
        let new_preds: Vec<BlockId> = ps
            .iter()
            .filter(|p| !preds[s].contains(p))
            .map(|&p| func.blocks[p].label)
            .collect();
        for incoming in phis_mut(&mut func.blocks[s]) {
            if let Some(v) = phi_operand(incoming, el) {
                incoming.retain(|(_, p)| *p != el);
                incoming.extend(new_preds.iter().map(|&p| (v, p)));
            }
        }
        preds[s].retain(|&p| p != e);
        for &p in &ps {
            if !preds[s].contains(&p) {
                preds[s].push(p);
            }
        }
        // `e` was a predecessor of `s` only: nothing else changes.
        preds[e].clear();
        removed[e] = true;
        stats.blocks_threaded += 1;
        changed = true;
    }
    compact(func, &removed);
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::{parse_module, print_module};
    use crate::ir::verify::{verify_module, VerifyMode};

    fn run(src: &str) -> (String, SimplifyCfgStats) {
        let mut m = parse_module(src).unwrap();
        let s = simplify_cfg(&mut m.functions[0]);
        let out = print_module(&m);
        if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
            panic!("{e}\n{out}");
        }
        (out, s)
    }

    #[test]
    fn a_constant_branch_folds_and_the_dead_arm_goes() {
        let (out, s) = run("define @f(i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  condbr 1i8, bb1, bb2
bb1:
  br bb3
bb2:
  br bb3
bb3:
  %1 = phi i32 [%0, bb1], [7i32, bb2]
  ret %1
}
");
        assert_eq!(s.branches_folded, 1, "{out}");
        assert!(!out.contains("bb2"), "{out}");
        assert!(out.contains("ret %0"), "{out}");
        assert!(!out.contains("phi"), "{out}");
    }

    /// A 100,000-block chain merges into one block, in linear time, and
    /// value numbering then walks its one block (no recursion anywhere).
    #[test]
    fn a_long_chain_merges_into_one_block() {
        let n = 100_000u32;
        let mut f = IrFunction::new("f", IrType::I32, vec![IrParam::scalar(IrType::I32)]);
        for i in 0..n {
            let mut b = BasicBlock::new(BlockId(i));
            let src = if i == 0 {
                b.instructions.push(Instruction::ParamRef {
                    dest: Value(0),
                    param_idx: 0,
                    ty: IrType::I32,
                });
                Value(0)
            } else {
                Value(i)
            };
            b.instructions.push(Instruction::BinOp {
                dest: Value(i + 1),
                op: IrBinOp::Add,
                lhs: Operand::Value(src),
                rhs: Operand::Const(IrConst::I32(1)),
                ty: IrType::I32,
            });
            b.terminator = if i + 1 == n {
                Terminator::Return(Some(Operand::Value(Value(n))))
            } else {
                Terminator::Branch(BlockId(i + 1))
            };
            f.blocks.push(b);
        }
        let s = simplify_cfg(&mut f);
        assert_eq!(s.blocks_merged, n as usize - 1);
        assert_eq!(f.blocks.len(), 1);
        assert_eq!(f.blocks[0].instructions.len(), n as usize + 1);
        crate::passes::gvn::number_values(&mut f);
    }

    /// The predecessor already reaches the join with another value: the empty
    /// block stays (one phi entry per predecessor block).
    #[test]
    fn an_empty_block_whose_value_conflicts_stays() {
        let (out, s) = run("define @f(i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  condbr %0, bb1, bb2
bb1:
  br bb2
bb2:
  %1 = phi i32 [1i32, bb0], [2i32, bb1]
  ret %1
}
");
        assert_eq!(s.blocks_threaded, 0, "{out}");
        assert!(out.contains("[1i32, bb0], [2i32, bb1]"), "{out}");
    }
}
