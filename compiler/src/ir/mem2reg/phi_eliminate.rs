//! Phi elimination (seed 000, "Phi Elimination Pass"): every phi becomes
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
//!   whose targets cannot be retargeted (the seed's documented exception); in a
//!   trampoline reached by retargeting the goto label for an `asm goto` edge,
//!   because copies at the end of the block would only run on the fall-through
//!   path. Trampolines are memoized per (predecessor, target) and labelled from
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
    let term_succs = pred.terminator.successors();
    let via_goto = pred
        .instructions
        .iter()
        .any(|i| i.asm_goto_targets().iter().any(|(_, t)| *t == target));
    if via_goto && !term_succs.contains(&target) {
        return Placement::TrampolineViaAsmGoto;
    }
    match pred.terminator {
        Terminator::IndirectBranch { .. } => Placement::EndOfPred,
        _ if term_succs.len() >= 2 && !enabled(Bug::NoCriticalEdgeSplit) => Placement::TrampolineViaTerminator,
        _ => Placement::EndOfPred,
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

        let mut edges: Vec<BlockId> = Vec::new();
        for phi in &phis {
            for (_, l) in &phi.incoming {
                if !edges.contains(l) {
                    edges.push(*l);
                }
            }
        }
        let src_on = |phi: &Phi, edge: BlockId| phi.incoming.iter().find(|(_, l)| *l == edge).map(|(op, _)| *op);

        // Conflicts, over all edges.
        let dest_index: FxHashMap<Value, usize> = phis.iter().enumerate().map(|(i, p)| (p.dest, i)).collect();
        let mut conflicting = vec![false; phis.len()];
        for &edge in &edges {
            for (i, phi) in phis.iter().enumerate() {
                if let Some(Operand::Value(v)) = src_on(phi, edge) {
                    if v != phi.dest {
                        if let Some(&j) = dest_index.get(&v) {
                            conflicting[i] = true;
                            conflicting[j] = true;
                        }
                    }
                }
            }
        }
        if enabled(Bug::LostCopy) {
            conflicting.iter_mut().for_each(|c| *c = false);
        }
        let tmps: Vec<Option<Value>> = conflicting.iter().map(|&c| c.then(|| func.fresh_value())).collect();

        for &edge in &edges {
            let copies: Vec<(Value, Operand)> = phis
                .iter()
                .zip(&tmps)
                .filter_map(|(phi, tmp)| {
                    let src = copy_src(src_on(phi, edge)?, phi.ty);
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
    let mut written: FxHashSet<Value> = copies.iter().map(|(d, _)| *d).collect();
    if enabled(Bug::LostCopy) {
        written.clear();
    }
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
            if written.contains(&v) {
                *src = Operand::Value(save(v, func));
            }
        }
    }
    let mut term = std::mem::replace(&mut func.blocks[p].terminator, Terminator::Unreachable);
    term.for_each_operand_mut(|op| {
        if let Operand::Value(v) = *op {
            if written.contains(&v) {
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
