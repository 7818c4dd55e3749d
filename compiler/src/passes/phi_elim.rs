//! Phi elimination (docs/ssa.md#phi-elimination): every phi becomes
//! copies on its incoming edges, so the backend only sees moves.
//!
//! Per block with phis:
//! - Copy graph per incoming edge: phi `i` gets `dest_i := src_i`, self-copies
//!   elided. A phi whose source is another phi's destination on some edge
//!   *conflicts* (the lost-copy / swap problem); as a safety net for chains
//!   and cycles (`a = b, b = c, c = a`) the phi whose destination it reads
//!   conflicts too. A conflicting phi gets one temporary shared by all edges:
//!   phase 1 (on each edge) saves `tmp_i := src_i`, phase 2 (at the top of the
//!   block) restores `dest_i := tmp_i`. On one edge no copy then reads a
//!   destination written before it, so the sequential copies are equivalent to
//!   the phis' parallel reads.
//! - Where the edge copies go: at the end of the predecessor when its
//!   terminator has one distinct successor; in a trampoline block (copies,
//!   then `br target`) when it has several (a critical edge), with the
//!   terminator retargeted — all of a switch's cases to that block at once, as
//!   they are one edge; in the predecessor itself for an `IndirectBranch`,
//!   whose targets cannot be retargeted (docs/ssa.md#indirect-branches); in a
//!   trampoline reached by retargeting the goto label for an `asm goto` edge,
//!   because copies at the end of the block would only run on the fall-through
//!   path. Copies left at the end of an indirect branch with several targets
//!   also run when it jumps elsewhere, so every phi of a block reached that
//!   way goes through temporaries (Boissinot et al.'s phi isolation), which
//!   makes the extra copies dead. Trampolines are memoized per (predecessor, target) and labelled from
//!   a module-wide counter ([`IrModule::next_block_id`]).
//! - Copies gathered at the end of one predecessor for several targets (an
//!   indirect branch) or read by its terminator could read a destination
//!   another copy there overwrites first; such a source is saved into a fresh
//!   value before all the copies.
//!
//! Afterwards no phi remains; the IR is no longer SSA (a destination is
//! assigned on every edge) and copy propagation must not run on it.

use crate::inject::{enabled, Bug};
use crate::ir::reexports::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Eliminates every phi of every defined function; returns how many there were.
pub fn eliminate_phis(module: &mut IrModule) -> usize {
    let mut next_label = module.next_block_id();
    let mut total = 0;
    for func in module.functions.iter_mut().filter(|f| !f.is_declaration) {
        total += eliminate_in_function(func, &mut next_label);
    }
    total
}

struct Phi {
    dest: Value,
    ty: IrType,
    incoming: Vec<(Operand, BlockId)>,
}

/// Where the copies of one edge go.
enum Placement {
    EndOfPred,
    TrampolineViaTerminator,
    TrampolineViaAsmGoto,
}

fn placement(pred: &BasicBlock, target: BlockId) -> Placement {
    // Whether the terminator reaches `target`, and whether it has two or
    // more distinct successors, without collecting them (this runs for
    // every edge into a block with phis).
    let (mut first, mut several, mut to_target) = (None, false, false);
    pred.terminator.for_each_successor(|s| {
        to_target |= s == target;
        match first {
            None => first = Some(s),
            Some(f) => several |= f != s,
        }
    });
    let via_goto = pred
        .instructions
        .iter()
        .any(|i| i.asm_goto_targets().iter().any(|(_, t)| *t == target));
    if via_goto && !to_target {
        return Placement::TrampolineViaAsmGoto;
    }
    match pred.terminator {
        Terminator::IndirectBranch { .. } => Placement::EndOfPred,
        _ if several && !enabled(Bug::NoCriticalEdgeSplit) => Placement::TrampolineViaTerminator,
        _ => Placement::EndOfPred,
    }
}

fn is_multiway_indirect(term: &Terminator) -> bool {
    match term {
        Terminator::IndirectBranch { .. } => term.successors().len() >= 2,
        _ => false,
    }
}

fn copy_src(src: Operand, ty: IrType) -> Operand {
    match src {
        Operand::Const(c) => Operand::Const(c.narrowed_to(ty)),
        v => v,
    }
}

fn eliminate_in_function(func: &mut IrFunction, next_label: &mut u32) -> usize {
    let max = func.scan_max_value_id();
    if func.next_value_id <= max {
        func.next_value_id = max + 1;
    }
    let label_to_idx: FxHashMap<BlockId, usize> = func.blocks.iter().enumerate().map(|(i, b)| (b.label, i)).collect();
    let mut pending: Vec<Vec<(Value, Operand)>> = vec![Vec::new(); func.blocks.len()];
    // (pred, target) -> index in `new_blocks`.
    let mut trampolines: FxHashMap<(BlockId, BlockId), usize> = FxHashMap::default();
    let mut new_blocks: Vec<BasicBlock> = Vec::new();
    let mut eliminated = 0;

    for t in 0..func.blocks.len() {
        if !func.blocks[t]
            .instructions
            .iter()
            .any(|i| matches!(i, Instruction::Phi { .. }))
        {
            continue;
        }
        let target = func.blocks[t].label;
        let mut phis = Vec::new();
        let mut rest = Vec::new();
        for inst in std::mem::take(&mut func.blocks[t].instructions) {
            match inst {
                Instruction::Phi { dest, ty, incoming } => phis.push(Phi { dest, ty, incoming }),
                other => rest.push(other),
            }
        }
        eliminated += phis.len();

        // The incoming edges in order of first appearance, and each phi's
        // operand on each (its first entry for the edge), in a table: a block
        // with P phis and E edges costs P * E, not P * E * E (computed-goto
        // dispatch blocks have hundreds of both).
        let mut edges: Vec<BlockId> = Vec::new();
        let mut edge_index: FxHashMap<BlockId, usize> = FxHashMap::default();
        // A short list is searched, a long one hashed; each phi usually
        // names the edges in the same order, which is checked first.
        let find = |edges: &[BlockId], edge_index: &FxHashMap<BlockId, usize>, k: usize, l: BlockId| {
            if edges.get(k) == Some(&l) {
                Some(k)
            } else if edges.len() <= 16 {
                edges.iter().position(|e| *e == l)
            } else {
                edge_index.get(&l).copied()
            }
        };
        for phi in &phis {
            for (k, (_, l)) in phi.incoming.iter().enumerate() {
                if find(&edges, &edge_index, k, *l).is_none() {
                    edges.push(*l);
                    if edges.len() > 16 {
                        if edge_index.is_empty() {
                            edge_index.extend(edges.iter().enumerate().map(|(i, e)| (*e, i)));
                        } else {
                            edge_index.insert(*l, edges.len() - 1);
                        }
                    }
                }
            }
        }
        let n_edges = edges.len();
        let mut srcs: Vec<Option<Operand>> = vec![None; phis.len() * n_edges];
        for (i, phi) in phis.iter().enumerate() {
            let on_edge = &mut srcs[i * n_edges..(i + 1) * n_edges];
            for (k, (op, l)) in phi.incoming.iter().enumerate() {
                let e = find(&edges, &edge_index, k, *l).expect("every incoming block is an edge");
                if on_edge[e].is_none() {
                    on_edge[e] = Some(*op);
                }
            }
        }
        let src_on = |phi: usize, edge: usize| srcs[phi * n_edges + edge];

        // Conflicts, over all edges.
        let dest_index: FxHashMap<Value, usize> = phis.iter().enumerate().map(|(i, p)| (p.dest, i)).collect();
        let mut conflicting = vec![false; phis.len()];
        for e in 0..edges.len() {
            for (i, phi) in phis.iter().enumerate() {
                if let Some(Operand::Value(v)) = src_on(i, e) {
                    if v != phi.dest {
                        if let Some(&j) = dest_index.get(&v) {
                            conflicting[i] = true;
                            conflicting[j] = true;
                        }
                    }
                }
            }
        }
        // An indirect branch with several targets cannot be split: copies at
        // its end also run when it goes elsewhere, where a phi's destination
        // may still be live (the lost-copy problem without a critical-edge
        // split). Isolating every phi of the block through temporaries makes
        // those copies harmless: a temporary is read only at the top of this
        // block, and every edge into it writes the temporary first.
        if !enabled(Bug::NoIndirectIsolation)
            && edges.iter().any(|e| {
                label_to_idx
                    .get(e)
                    .is_some_and(|&p| is_multiway_indirect(&func.blocks[p].terminator))
            })
        {
            conflicting.iter_mut().for_each(|c| *c = true);
        }
        if enabled(Bug::LostCopy) {
            conflicting.iter_mut().for_each(|c| *c = false);
        }
        let tmps: Vec<Option<Value>> = conflicting.iter().map(|&c| c.then(|| func.fresh_value())).collect();

        for (e, &edge) in edges.iter().enumerate() {
            #[cfg(feature = "inject-bugs")]
            if enabled(Bug::SelfLoopNoCopy) && edge == target {
                // The injected mistake: a self-loop's back edge taken for a self-copy.
                continue;
            }
            let copies: Vec<(Value, Operand)> = phis
                .iter()
                .zip(&tmps)
                .enumerate()
                .filter_map(|(i, (phi, tmp))| {
                    let src = copy_src(src_on(i, e)?, phi.ty);
                    match tmp {
                        Some(tmp) => Some((*tmp, src)),
                        None if src == Operand::Value(phi.dest) => None,
                        None => Some((phi.dest, src)),
                    }
                })
                .collect();
            if copies.is_empty() {
                continue;
            }
            let Some(&p) = label_to_idx.get(&edge) else {
                continue; // not a block: the verifier reports it
            };
            #[cfg(feature = "inject-bugs")]
            if enabled(Bug::SwitchDupEdge) {
                // The injected mistake: each case to the target taken as its own
                // non-critical edge, its copies put in the switch block once per case.
                if let Terminator::Switch { cases, default, .. } = &func.blocks[p].terminator {
                    let n = cases.iter().filter(|(_, t)| *t == target).count() + usize::from(*default == target);
                    if n >= 2 {
                        for _ in 0..n {
                            pending[p].extend(copies.iter().copied());
                        }
                        continue;
                    }
                }
            }
            match placement(&func.blocks[p], target) {
                Placement::EndOfPred => pending[p].extend(copies),
                kind => {
                    let idx = *trampolines.entry((edge, target)).or_insert_with(|| {
                        let label = BlockId(*next_label);
                        *next_label += 1;
                        new_blocks.push(BasicBlock {
                            label,
                            instructions: Vec::new(),
                            terminator: Terminator::Branch(target),
                        });
                        new_blocks.len() - 1
                    });
                    let block = &mut new_blocks[idx];
                    let tramp = block.label;
                    block
                        .instructions
                        .extend(copies.into_iter().map(|(dest, src)| Instruction::Copy { dest, src }));
                    let pred = &mut func.blocks[p];
                    if let Placement::TrampolineViaAsmGoto = kind {
                        for inst in &mut pred.instructions {
                            if let Instruction::InlineAsm(asm) = inst {
                                for (_, l) in asm.goto_labels.iter_mut().filter(|(_, l)| *l == target) {
                                    *l = tramp;
                                }
                            }
                        }
                    } else {
                        pred.terminator.retarget(target, tramp);
                    }
                }
            }
        }

        let mut insts: Vec<Instruction> = phis
            .iter()
            .zip(&tmps)
            .filter_map(|(phi, tmp)| {
                tmp.map(|tmp| Instruction::Copy {
                    dest: phi.dest,
                    src: Operand::Value(tmp),
                })
            })
            .collect();
        insts.extend(rest);
        func.blocks[t].instructions = insts;
    }

    for (p, copies) in pending.into_iter().enumerate() {
        if !copies.is_empty() {
            emit_at_end(func, p, copies);
        }
    }
    func.blocks.extend(new_blocks);
    eliminated
}

/// Appends `copies` before the terminator of block `p`, first saving any
/// source (or terminator operand) that one of the copies overwrites.
fn emit_at_end(func: &mut IrFunction, p: usize, mut copies: Vec<(Value, Operand)>) {
    // The destinations written here: a search of the copies when they are
    // few (nearly always), a set when a block gathers many.
    let set: FxHashSet<Value> = if copies.len() > 16 {
        copies.iter().map(|(d, _)| *d).collect()
    } else {
        FxHashSet::default()
    };
    let dests: Vec<Value> = if copies.len() > 16 {
        Vec::new()
    } else {
        copies.iter().map(|(d, _)| *d).collect()
    };
    let lost = enabled(Bug::LostCopy);
    let written = |v: &Value| !lost && (dests.contains(v) || set.contains(v));
    let mut saved: FxHashMap<Value, Value> = FxHashMap::default();
    let mut saves: Vec<Instruction> = Vec::new();
    let mut save = |v: Value, func: &mut IrFunction| -> Value {
        *saved.entry(v).or_insert_with(|| {
            let s = func.fresh_value();
            saves.push(Instruction::Copy {
                dest: s,
                src: Operand::Value(v),
            });
            s
        })
    };
    for (_, src) in copies.iter_mut() {
        if let Operand::Value(v) = *src {
            if written(&v) {
                *src = Operand::Value(save(v, func));
            }
        }
    }
    let mut term = std::mem::replace(&mut func.blocks[p].terminator, Terminator::Unreachable);
    term.for_each_operand_mut(|op| {
        if let Operand::Value(v) = *op {
            if written(&v) {
                *op = Operand::Value(save(v, func));
            }
        }
    });
    let block = &mut func.blocks[p];
    block.terminator = term;
    block.instructions.extend(saves);
    block
        .instructions
        .extend(copies.into_iter().map(|(dest, src)| Instruction::Copy { dest, src }));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: u32) -> Operand {
        Operand::Value(Value(n))
    }

    fn phi(dest: u32, incoming: &[(Operand, u32)]) -> Instruction {
        Instruction::Phi {
            dest: Value(dest),
            ty: IrType::I32,
            incoming: incoming.iter().map(|&(o, b)| (o, BlockId(b))).collect(),
        }
    }

    fn block(label: u32, instructions: Vec<Instruction>, terminator: Terminator) -> BasicBlock {
        BasicBlock {
            label: BlockId(label),
            instructions,
            terminator,
        }
    }

    fn module(blocks: Vec<BasicBlock>) -> IrModule {
        let mut f = IrFunction::new("f", IrType::I32, vec![IrParam::scalar(IrType::I32)]);
        f.blocks = blocks;
        IrModule {
            functions: vec![f],
            ..IrModule::default()
        }
    }

    fn copies(b: &BasicBlock) -> Vec<(u32, Operand)> {
        b.instructions
            .iter()
            .filter_map(|i| match i {
                Instruction::Copy { dest, src } => Some((dest.0, *src)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn swap_on_a_critical_back_edge_uses_temporaries_and_a_trampoline() {
        // bb1: %1 = phi [1, bb0], [%2, bb1]; %2 = phi [2, bb0], [%1, bb1]; condbr %0, bb1, bb2
        let cond = Instruction::ParamRef {
            dest: Value(0),
            param_idx: 0,
            ty: IrType::I32,
        };
        let mut m = module(vec![
            block(0, vec![cond], Terminator::Branch(BlockId(1))),
            block(
                1,
                vec![
                    phi(1, &[(Operand::Const(IrConst::I32(1)), 0), (v(2), 1)]),
                    phi(2, &[(Operand::Const(IrConst::I32(2)), 0), (v(1), 1)]),
                ],
                Terminator::CondBranch {
                    cond: v(0),
                    true_label: BlockId(1),
                    false_label: BlockId(2),
                },
            ),
            block(2, vec![], Terminator::Return(Some(v(1)))),
        ]);
        assert_eq!(eliminate_phis(&mut m), 2);
        let f = &m.functions[0];
        assert_eq!(f.blocks.len(), 4, "one trampoline");
        let tramp = &f.blocks[3];
        assert_eq!(tramp.label, BlockId(3));
        assert_eq!(tramp.terminator, Terminator::Branch(BlockId(1)));
        assert!(matches!(
            f.blocks[1].terminator,
            Terminator::CondBranch {
                true_label: BlockId(3),
                ..
            }
        ));
        // Phase 1 saves both sources into temporaries; phase 2 restores at the top of bb1.
        let saved = copies(tramp);
        assert_eq!(saved.len(), 2);
        assert_eq!(saved.iter().map(|c| c.1).collect::<Vec<_>>(), vec![v(2), v(1)]);
        let restored = copies(&f.blocks[1]);
        assert_eq!(restored, vec![(1, v(saved[0].0)), (2, v(saved[1].0))]);
        // The entry edge is not critical: copies into the temporaries at the end of bb0.
        let entry = copies(&f.blocks[0]);
        assert_eq!(
            entry.iter().map(|c| c.0).collect::<Vec<_>>(),
            vec![saved[0].0, saved[1].0]
        );
        assert!(f
            .blocks
            .iter()
            .all(|b| !b.instructions.iter().any(|i| matches!(i, Instruction::Phi { .. }))));
    }

    #[test]
    fn switch_cases_to_one_target_share_one_trampoline() {
        let mut m = module(vec![
            block(
                0,
                vec![],
                Terminator::Switch {
                    val: Operand::Const(IrConst::I32(0)),
                    cases: vec![(0, BlockId(2)), (1, BlockId(1)), (2, BlockId(2))],
                    default: BlockId(2),
                    ty: IrType::I32,
                },
            ),
            block(1, vec![], Terminator::Branch(BlockId(2))),
            block(
                2,
                vec![phi(
                    5,
                    &[
                        (Operand::Const(IrConst::I64(300)), 0),
                        (Operand::Const(IrConst::I32(7)), 1),
                    ],
                )],
                Terminator::Return(Some(v(5))),
            ),
        ]);
        eliminate_phis(&mut m);
        let f = &m.functions[0];
        assert_eq!(f.blocks.len(), 4);
        assert_eq!(
            f.blocks[0].terminator,
            Terminator::Switch {
                val: Operand::Const(IrConst::I32(0)),
                cases: vec![(0, BlockId(3)), (1, BlockId(1)), (2, BlockId(3))],
                default: BlockId(3),
                ty: IrType::I32,
            }
        );
        // The constant is narrowed to the phi's type.
        assert_eq!(copies(&f.blocks[3]), vec![(5, Operand::Const(IrConst::I32(300)))]);
        assert_eq!(copies(&f.blocks[1]), vec![(5, Operand::Const(IrConst::I32(7)))]);
    }

    #[test]
    fn indirect_branch_copies_stay_in_the_predecessor_and_protect_its_target() {
        // bb0 jumps through %1 to its only target bb1, whose phis %1 and %3
        // take %9 from bb0: the copy overwrites the branch target, which must
        // be saved first.
        let mut m = module(vec![
            block(
                0,
                vec![
                    Instruction::LabelAddr {
                        dest: Value(1),
                        label: BlockId(1),
                    },
                    Instruction::LabelAddr {
                        dest: Value(9),
                        label: BlockId(1),
                    },
                ],
                Terminator::IndirectBranch {
                    target: v(1),
                    possible_targets: vec![BlockId(1)],
                },
            ),
            block(
                1,
                vec![phi(3, &[(v(9), 0)]), phi(1, &[(v(9), 0)])],
                Terminator::Return(None),
            ),
        ]);
        eliminate_phis(&mut m);
        let f = &m.functions[0];
        assert_eq!(f.blocks.len(), 2, "no trampoline for an indirect branch");
        let b0 = &f.blocks[0];
        let Terminator::IndirectBranch { target, .. } = &b0.terminator else {
            panic!("terminator changed")
        };
        let saved = target.as_value().unwrap();
        assert_ne!(saved, Value(1));
        let c = copies(b0);
        assert_eq!(c[0], (saved.0, v(1)), "the target is saved before the copies");
        assert!(c.contains(&(1, v(9))) && c.contains(&(3, v(9))));
    }

    #[test]
    fn phis_behind_a_multiway_indirect_branch_are_isolated() {
        // bb0 jumps to bb1 or bb2; bb1's phi %3 takes %9. The copy at the end
        // of bb0 also runs when it goes to bb2, so it must write a temporary
        // that only bb1 reads, never %3 itself.
        let mut m = module(vec![
            block(
                0,
                vec![
                    Instruction::LabelAddr {
                        dest: Value(1),
                        label: BlockId(1),
                    },
                    Instruction::LabelAddr {
                        dest: Value(9),
                        label: BlockId(2),
                    },
                ],
                Terminator::IndirectBranch {
                    target: v(1),
                    possible_targets: vec![BlockId(1), BlockId(2)],
                },
            ),
            block(1, vec![phi(3, &[(v(9), 0)])], Terminator::Return(None)),
            block(2, vec![], Terminator::Return(None)),
        ]);
        eliminate_phis(&mut m);
        let f = &m.functions[0];
        assert_eq!(f.blocks.len(), 3, "no trampoline for an indirect branch");
        let c0 = copies(&f.blocks[0]);
        assert_eq!(c0.len(), 1);
        let (tmp, src) = c0[0];
        assert_eq!(src, v(9));
        assert!(
            tmp != 3 && tmp != 1 && tmp != 9,
            "the edge copy writes a fresh temporary"
        );
        assert_eq!(copies(&f.blocks[1]), vec![(3, v(tmp))]);
    }

    #[test]
    fn asm_goto_edge_gets_a_trampoline_through_its_label() {
        let asm = InlineAsm {
            template: String::new(),
            outputs: vec![],
            inputs: vec![],
            clobbers: vec![],
            operand_types: vec![],
            goto_labels: vec![("out".into(), BlockId(2))],
            input_symbols: vec![],
            seg_overrides: vec![],
        };
        let mut m = module(vec![
            block(
                0,
                vec![Instruction::InlineAsm(Box::new(asm))],
                Terminator::Branch(BlockId(1)),
            ),
            block(1, vec![], Terminator::Branch(BlockId(2))),
            block(
                2,
                vec![phi(
                    4,
                    &[
                        (Operand::Const(IrConst::I32(5)), 0),
                        (Operand::Const(IrConst::I32(6)), 1),
                    ],
                )],
                Terminator::Return(Some(v(4))),
            ),
        ]);
        eliminate_phis(&mut m);
        let f = &m.functions[0];
        assert_eq!(f.blocks[0].instructions[0].asm_goto_targets()[0].1, BlockId(3));
        assert_eq!(f.blocks[0].terminator, Terminator::Branch(BlockId(1)));
        assert!(copies(&f.blocks[0]).is_empty(), "no copy on the fall-through path");
        assert_eq!(copies(&f.blocks[3]), vec![(4, Operand::Const(IrConst::I32(5)))]);
        assert_eq!(f.blocks[3].terminator, Terminator::Branch(BlockId(2)));
    }
}
