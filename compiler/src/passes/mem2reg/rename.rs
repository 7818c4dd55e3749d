//! Step 6 of mem2reg: renaming (Cytron et al.; docs/ssa.md#renaming), written
//! as an explicit task stack so a 100,000-block chain cannot overflow the
//! native stack (as LLVM's RenamePassWorkList).
//!
//! Each promoted alloca ("slot") has a definition stack whose bottom is the
//! zero of its type. Entering a block pushes its phis; a store pushes its
//! (narrowed) value and disappears; a load becomes a `Copy` of the top; a
//! register asm output becomes a fresh SSA definition (`is_def: true`) and is
//! pushed. The block then fills the phis of its CFG successors and schedules
//! its dominator-tree children; leaving it pops what it pushed.
//!
//! Asm-goto snapshots: every pushed entry carries a sequence number, and an
//! asm goto records the number current before its outputs. Along its goto
//! edges the value of a slot is its topmost entry older than that number, both
//! for the phis of goto targets and for dominator-tree children that are goto
//! targets (which enter with those snapshot values pushed).
//!
//! Blocks the walk never reaches keep no access to a promoted alloca: their
//! loads read zero, their stores vanish, and phis get a zero for each
//! unreachable predecessor. Finally phis that no load reaches, directly or
//! through other phis, are dropped before the rest are inserted at the top of
//! their blocks.

use crate::inject::{enabled, Bug};
use crate::ir::analysis::CfgAnalysis;
use crate::ir::reexports::*;
use rustc_hash::FxHashMap;

/// A promoted alloca.
pub(super) struct SlotInfo {
    pub ty: IrType,
    /// Parameter allocas stay in place (the backend finds them by position).
    pub keep_alloca: bool,
}

/// Counts reported back to the statistics.
#[derive(Default)]
pub(super) struct RenameOutcome {
    pub phis_kept: usize,
    pub phis_removed: usize,
    pub loads_removed: usize,
    pub stores_removed: usize,
    pub asm_outputs_promoted: usize,
}

const NO_PHI: u32 = u32::MAX;

/// One entry of a definition stack.
#[derive(Clone, Copy)]
struct Def {
    op: Operand,
    seq: u32,
    /// The placed phi whose result `op` is, or `NO_PHI`.
    phi: u32,
}

struct PlacedPhi {
    block: u32,
    slot: u32,
    dest: Value,
    incoming: Vec<(Operand, BlockId)>,
    /// Placed phis this one reads.
    reads: Vec<u32>,
    used: bool,
}

/// Definitions made in a block with asm gotos, kept until the walk leaves it.
#[derive(Default)]
struct BlockLog {
    /// (slot, seq) of every push in the block, in order.
    defs: Vec<(u32, u32)>,
    /// (seq before the asm's outputs, its goto targets).
    gotos: Vec<(u32, Vec<BlockId>)>,
}

impl BlockLog {
    fn snapshot_for(&self, target: BlockId) -> Option<u32> {
        if enabled(Bug::NoAsmGotoSnapshot) {
            return None;
        }
        self.gotos.iter().find(|(_, ts)| ts.contains(&target)).map(|(s, _)| *s)
    }
}

enum Task {
    /// Enter a block; `Some((parent, seq))` when reached along a goto edge of the parent.
    Enter(u32, Option<(u32, u32)>),
    /// Leave a block, popping the pushes from this index of the push log on.
    Exit(u32, usize),
}

struct Renamer<'a> {
    slots: &'a [SlotInfo],
    slot_of: &'a [u32],
    stacks: Vec<Vec<Def>>,
    seq: u32,
    pushed: Vec<u32>,
    phis: Vec<PlacedPhi>,
    phi_at: Vec<Vec<u32>>,
    logs: FxHashMap<u32, BlockLog>,
    out: RenameOutcome,
}

impl Renamer<'_> {
    /// The slot (promoted alloca) a pointer names, if any.
    fn slot(&self, v: Value) -> Option<u32> {
        self.slot_of
            .get(v.0 as usize)
            .copied()
            .filter(|&s| s != 0)
            .map(|s| s - 1)
    }

    fn push(&mut self, slot: u32, op: Operand, phi: u32, log: Option<&mut BlockLog>) {
        self.seq += 1;
        self.stacks[slot as usize].push(Def { op, seq: self.seq, phi });
        self.pushed.push(slot);
        if let Some(log) = log {
            log.defs.push((slot, self.seq));
        }
    }

    fn top(&self, slot: u32) -> Def {
        *self.stacks[slot as usize]
            .last()
            .expect("definition stacks keep their zero")
    }

    /// The value of `slot` as of sequence number `seq` (before later pushes).
    fn at_snapshot(&self, slot: u32, seq: u32) -> Def {
        let stack = &self.stacks[slot as usize];
        *stack.iter().rev().find(|d| d.seq < seq).unwrap_or(&stack[0])
    }

    /// Rewrites the accesses of one block. `reachable` is false for blocks the
    /// walk does not reach: every load there reads zero.
    fn rewrite_block(&mut self, func: &mut IrFunction, b: u32, reachable: bool, mut log: Option<&mut BlockLog>) {
        let block = &mut func.blocks[b as usize];
        let old = std::mem::take(&mut block.instructions);
        let mut new = Vec::with_capacity(old.len());
        let mut fresh: Vec<Value> = Vec::new();
        let mut next_value = func.next_value_id;
        for inst in old {
            match inst {
                Instruction::Alloca { dest, .. } if self.slot(dest).is_some() => {
                    let slot = self.slot(dest).unwrap_or(0);
                    if self.slots[slot as usize].keep_alloca {
                        new.push(inst);
                    }
                }
                Instruction::Load { dest, ptr, .. } if self.slot(ptr).is_some() => {
                    let slot = self.slot(ptr).unwrap_or(0);
                    let src = if reachable {
                        let d = self.top(slot);
                        if d.phi != NO_PHI {
                            self.phis[d.phi as usize].used = true;
                        }
                        d.op
                    } else {
                        Operand::Const(IrConst::zero(self.slots[slot as usize].ty))
                    };
                    self.out.loads_removed += 1;
                    new.push(Instruction::Copy { dest, src });
                }
                Instruction::Store { val, ptr, .. } if self.slot(ptr).is_some() => {
                    let slot = self.slot(ptr).unwrap_or(0);
                    let val = match val {
                        Operand::Const(c) if !enabled(Bug::NoConstantNarrowing) => {
                            Operand::Const(c.narrowed_to(self.slots[slot as usize].ty))
                        }
                        v => v,
                    };
                    if reachable {
                        self.push(slot, val, NO_PHI, log.as_deref_mut());
                    }
                    self.out.stores_removed += 1;
                }
                Instruction::InlineAsm(mut asm) => {
                    if !asm.goto_labels.is_empty() {
                        if let Some(l) = log.as_deref_mut() {
                            l.gotos
                                .push((self.seq + 1, asm.goto_labels.iter().map(|(_, t)| *t).collect()));
                        }
                    }
                    for out in asm.outputs.iter_mut() {
                        if out.is_def {
                            continue;
                        }
                        if let Some(slot) = self.slot(out.value) {
                            let v = Value(next_value);
                            next_value += 1;
                            fresh.push(v);
                            out.is_def = true;
                            out.value = v;
                            self.out.asm_outputs_promoted += 1;
                            if reachable {
                                self.push(slot, Operand::Value(v), NO_PHI, log.as_deref_mut());
                            }
                        }
                    }
                    new.push(Instruction::InlineAsm(asm));
                }
                other => new.push(other),
            }
        }
        func.blocks[b as usize].instructions = new;
        func.next_value_id = next_value;
    }

    /// Appends this block's incoming entry to the placed phis of its successors.
    fn fill_successors(&mut self, func: &IrFunction, cfg: &CfgAnalysis, b: u32, log: Option<&BlockLog>) {
        let label = func.blocks[b as usize].label;
        for &s in cfg.succs.row(b as usize) {
            if self.phi_at[s as usize].is_empty() {
                continue;
            }
            let snap = log.and_then(|l| l.snapshot_for(func.blocks[s as usize].label));
            for k in 0..self.phi_at[s as usize].len() {
                let p = self.phi_at[s as usize][k];
                let slot = self.phis[p as usize].slot;
                let d = match snap {
                    Some(seq) => self.at_snapshot(slot, seq),
                    None => self.top(slot),
                };
                let phi = &mut self.phis[p as usize];
                phi.incoming.push((d.op, label));
                if d.phi != NO_PHI {
                    phi.reads.push(d.phi);
                }
            }
        }
    }
}

/// Renames the promoted slots of `func`. `slot_of[value id]` is slot + 1 for a
/// promoted alloca (0 otherwise); `phi_blocks[slot]` are the blocks that get a
/// phi for it.
pub(super) fn rename(
    func: &mut IrFunction,
    cfg: &CfgAnalysis,
    slot_of: &[u32],
    slots: &[SlotInfo],
    phi_blocks: &[Vec<u32>],
    remove_unused: bool,
) -> RenameOutcome {
    let n = func.blocks.len();
    let mut r = Renamer {
        slots,
        slot_of,
        stacks: slots
            .iter()
            .map(|s| {
                vec![Def {
                    op: Operand::Const(if enabled(Bug::WrongUninitValue) {
                        IrConst::one(s.ty)
                    } else {
                        IrConst::zero(s.ty)
                    }),
                    seq: 0,
                    phi: NO_PHI,
                }]
            })
            .collect(),
        seq: 0,
        pushed: Vec::new(),
        phis: Vec::new(),
        phi_at: vec![Vec::new(); n],
        logs: FxHashMap::default(),
        out: RenameOutcome::default(),
    };
    for (slot, blocks) in phi_blocks.iter().enumerate() {
        for &b in blocks {
            let dest = func.fresh_value();
            r.phi_at[b as usize].push(r.phis.len() as u32);
            r.phis.push(PlacedPhi {
                block: b,
                slot: slot as u32,
                dest,
                incoming: Vec::new(),
                reads: Vec::new(),
                used: false,
            });
        }
    }
    let has_goto: Vec<bool> = func
        .blocks
        .iter()
        .map(|b| b.instructions.iter().any(|i| !i.asm_goto_targets().is_empty()))
        .collect();

    let mut tasks = vec![Task::Enter(0, None)];
    while let Some(task) = tasks.pop() {
        match task {
            Task::Exit(b, start) => {
                for &slot in &r.pushed[start..] {
                    r.stacks[slot as usize].pop();
                }
                r.pushed.truncate(start);
                r.logs.remove(&b);
            }
            Task::Enter(b, via_goto) => {
                let start = r.pushed.len();
                tasks.push(Task::Exit(b, start));
                if let Some((parent, seq)) = via_goto {
                    // Enter with the parent's definitions from `seq` on undone.
                    let mut later: Vec<u32> = r.logs.get(&parent).map_or(Vec::new(), |l| {
                        l.defs
                            .iter()
                            .filter(|(_, s)| *s >= seq)
                            .map(|(slot, _)| *slot)
                            .collect()
                    });
                    later.sort_unstable();
                    later.dedup();
                    for slot in later {
                        let d = r.at_snapshot(slot, seq);
                        r.push(slot, d.op, d.phi, None);
                    }
                }
                for k in 0..r.phi_at[b as usize].len() {
                    let p = r.phi_at[b as usize][k];
                    let (slot, dest) = (r.phis[p as usize].slot, r.phis[p as usize].dest);
                    r.push(slot, Operand::Value(dest), p, None);
                }
                let mut log = has_goto[b as usize].then(BlockLog::default);
                r.rewrite_block(func, b, true, log.as_mut());
                r.fill_successors(func, cfg, b, log.as_ref());
                for &c in cfg.dom_children[b as usize].iter().rev() {
                    let label = func.blocks[c].label;
                    let snap = log.as_ref().and_then(|l| l.snapshot_for(label)).map(|s| (b, s));
                    tasks.push(Task::Enter(c as u32, snap));
                }
                if let Some(log) = log {
                    r.logs.insert(b, log);
                }
            }
        }
    }

    for b in 0..n {
        if !cfg.is_reachable(b) {
            r.rewrite_block(func, b as u32, false, None);
        }
    }
    finish_phis(func, cfg, r, remove_unused)
}

/// Completes, prunes and inserts the placed phis.
fn finish_phis(func: &mut IrFunction, cfg: &CfgAnalysis, mut r: Renamer<'_>, remove_unused: bool) -> RenameOutcome {
    // Liveness: used by a load, or read by a live phi.
    let mut work: Vec<u32> = (0..r.phis.len() as u32).filter(|&p| r.phis[p as usize].used).collect();
    if !remove_unused {
        r.phis.iter_mut().for_each(|p| p.used = true);
        work.clear();
    }
    while let Some(p) = work.pop() {
        for k in 0..r.phis[p as usize].reads.len() {
            let q = r.phis[p as usize].reads[k] as usize;
            if !r.phis[q].used {
                r.phis[q].used = true;
                work.push(q as u32);
            }
        }
    }
    let mut per_block: Vec<Vec<Instruction>> = vec![Vec::new(); func.blocks.len()];
    let mut positions: FxHashMap<usize, FxHashMap<BlockId, usize>> = FxHashMap::default();
    for phi in r.phis.drain(..) {
        if !phi.used {
            r.out.phis_removed += 1;
            continue;
        }
        r.out.phis_kept += 1;
        let b = phi.block as usize;
        let ty = r.slots[phi.slot as usize].ty;
        // One entry per predecessor, in predecessor order; zero from unreachable ones.
        let preds = cfg.preds.row(b);
        let pos = positions.entry(b).or_insert_with(|| {
            preds
                .iter()
                .enumerate()
                .map(|(k, &p)| (func.blocks[p as usize].label, k))
                .collect()
        });
        let mut slots: Vec<Option<Operand>> = vec![None; preds.len()];
        for (op, label) in phi.incoming {
            if let Some(&k) = pos.get(&label) {
                slots[k].get_or_insert(op);
            }
        }
        let incoming: Vec<(Operand, BlockId)> = slots
            .into_iter()
            .zip(preds)
            .map(|(op, &p)| {
                (
                    op.unwrap_or(Operand::Const(IrConst::zero(ty))),
                    func.blocks[p as usize].label,
                )
            })
            .collect();
        per_block[b].push(Instruction::Phi {
            dest: phi.dest,
            ty,
            incoming,
        });
    }
    for (b, phis) in per_block.into_iter().enumerate() {
        if !phis.is_empty() {
            let block = &mut func.blocks[b];
            let rest = std::mem::take(&mut block.instructions);
            block.instructions = phis;
            block.instructions.extend(rest);
        }
    }
    r.out
}
