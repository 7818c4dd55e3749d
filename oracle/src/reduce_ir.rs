//! `oracle reduce-ir`: a greedy delta reducer over IR modules, in the manner of
//! Cranelift's mutator-based reducer and of C-Reduce's fixpoint of passes.
//!
//! Each round tries every candidate edit of each kind: remove a function;
//! simplify a terminator (condbr to br, drop switch cases, indirectbr to br);
//! drop unreachable blocks; merge a block into its single predecessor; remove an
//! instruction (its uses become a zero constant); replace an operand by a
//! constant; shrink a constant; drop an asm goto label or output. An edit is
//! kept when the edited module still verifies as input and still fails the
//! check with the same signature (same kind, same first failing stage). Rounds
//! repeat until none makes progress or the budget of checks runs out.

use crate::ircheck::{check_module, CheckConfig};
use phicc::ir::analysis::CfgAnalysis;
use phicc::ir::reexports::*;

/// Reduction settings and statistics.
pub struct Reducer {
    pub check: CheckConfig,
    /// Maximum number of candidate checks.
    pub budget: usize,
    pub checks: usize,
}

/// The failure signature of `m`, if it fails.
fn signature(m: &IrModule, cfg: &CheckConfig) -> Option<String> {
    check_module(m, cfg).failure.map(|f| f.signature())
}

/// Number of instructions (terminators included) in the defined functions.
pub fn instruction_count(m: &IrModule) -> usize {
    m.functions
        .iter()
        .filter(|f| !f.is_declaration)
        .map(|f| f.num_instructions())
        .sum()
}

/// Number of instructions excluding terminators.
pub fn body_instruction_count(m: &IrModule) -> usize {
    m.functions
        .iter()
        .filter(|f| !f.is_declaration)
        .flat_map(|f| f.blocks.iter())
        .map(|b| b.instructions.len())
        .sum()
}

type Edit = Box<dyn Fn(&mut IrModule) -> bool>;

impl Reducer {
    pub fn new(check: CheckConfig) -> Reducer {
        Reducer {
            check,
            budget: 20_000,
            checks: 0,
        }
    }

    /// Reduce `m`, which must fail the check. Returns the reduced module and its
    /// signature, or `None` if `m` does not fail.
    pub fn reduce(&mut self, m: &IrModule) -> Option<(IrModule, String)> {
        let target = signature(m, &self.check)?;
        let mut best = m.clone();
        loop {
            let before = instruction_count(&best);
            let mut progress = false;
            for edits in [
                function_edits(&best),
                terminator_edits(&best),
                block_merge_edits(&best),
                instruction_edits(&best),
                operand_edits(&best),
                asm_edits(&best),
            ] {
                for edit in edits {
                    if self.checks >= self.budget {
                        break;
                    }
                    let mut cand = best.clone();
                    if !edit(&mut cand) {
                        continue;
                    }
                    remove_unreachable_blocks(&mut cand);
                    if cand == best {
                        continue;
                    }
                    self.checks += 1;
                    if signature(&cand, &self.check).as_deref() == Some(target.as_str()) {
                        best = cand;
                        progress = true;
                    }
                }
            }
            if !progress || instruction_count(&best) > before {
                break;
            }
        }
        // Let the printer derive `nextvalue` again (max id + 1, or 0 without values).
        for f in &mut best.functions {
            let mut any = false;
            for b in &f.blocks {
                for inst in &b.instructions {
                    inst.for_each_def(|_| any = true);
                    inst.for_each_used_value(|_| any = true);
                }
                b.terminator.for_each_used_value(|_| any = true);
            }
            f.next_value_id = if any { f.scan_max_value_id() + 1 } else { 0 };
        }
        Some((best, target))
    }
}

/// Candidate edits are described by indices into the current best module and
/// applied to a clone; an index that no longer fits makes the edit a no-op.
fn function_edits(m: &IrModule) -> Vec<Edit> {
    let mut edits: Vec<Edit> = (0..m.functions.len())
        .filter(|&i| m.functions[i].name != "main")
        .map(|i| Box::new(move |m: &mut IrModule| remove_function(m, i)) as Edit)
        .collect();
    // Globals and string literals (the verifier rejects the edit if one is still referenced).
    for i in (0..m.globals.len()).rev() {
        edits.push(Box::new(move |m: &mut IrModule| remove_at(&mut m.globals, i)));
    }
    for i in (0..m.string_literals.len()).rev() {
        edits.push(Box::new(move |m: &mut IrModule| remove_at(&mut m.string_literals, i)));
    }
    edits
}

fn remove_at<T>(v: &mut Vec<T>, i: usize) -> bool {
    if i < v.len() {
        v.remove(i);
        true
    } else {
        false
    }
}

fn remove_function(m: &mut IrModule, i: usize) -> bool {
    if i >= m.functions.len() || m.functions[i].name == "main" {
        return false;
    }
    let name = m.functions[i].name.clone();
    m.functions.remove(i);
    // Calls to it become their zero result.
    for f in &mut m.functions {
        for b in &mut f.blocks {
            let mut replaced = Vec::new();
            b.instructions.retain(|inst| match inst {
                Instruction::Call { func, info } if *func == name => {
                    if let Some(d) = info.dest {
                        replaced.push((d, info.return_type));
                    }
                    false
                }
                _ => true,
            });
            for (d, ty) in replaced {
                b.instructions.insert(
                    0,
                    Instruction::Copy {
                        dest: d,
                        src: Operand::Const(IrConst::zero(ty)),
                    },
                );
            }
        }
    }
    true
}

fn for_each_block(m: &IrModule, mut f: impl FnMut(usize, usize)) {
    for (fi, func) in m.functions.iter().enumerate() {
        for bi in 0..func.blocks.len() {
            f(fi, bi)
        }
    }
}

fn terminator_edits(m: &IrModule) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    for_each_block(m, |fi, bi| {
        let term = &m.functions[fi].blocks[bi].terminator;
        let n = match term {
            Terminator::CondBranch { .. } => 2,
            Terminator::IndirectBranch { possible_targets, .. } => possible_targets.len(),
            Terminator::Switch { cases, .. } => cases.len() + 1,
            _ => 0,
        };
        for k in 0..n {
            edits.push(Box::new(move |m: &mut IrModule| simplify_terminator(m, fi, bi, k)));
        }
        if let Terminator::Switch { cases, .. } = term {
            for k in 0..cases.len() {
                edits.push(Box::new(move |m: &mut IrModule| drop_switch_case(m, fi, bi, k)));
            }
        }
    });
    edits
}

/// Replace block `bi`'s branching terminator by a branch to its `k`-th target.
fn simplify_terminator(m: &mut IrModule, fi: usize, bi: usize, k: usize) -> bool {
    let Some(block) = m.functions.get_mut(fi).and_then(|f| f.blocks.get_mut(bi)) else {
        return false;
    };
    let target = match &block.terminator {
        Terminator::CondBranch {
            true_label,
            false_label,
            ..
        } => [*true_label, *false_label].get(k).copied(),
        Terminator::IndirectBranch { possible_targets, .. } => possible_targets.get(k).copied(),
        Terminator::Switch { cases, default, .. } => {
            if k < cases.len() {
                Some(cases[k].1)
            } else {
                Some(*default)
            }
        }
        _ => None,
    };
    let Some(target) = target else { return false };
    block.terminator = Terminator::Branch(target);
    fix_phis(&mut m.functions[fi]);
    true
}

fn drop_switch_case(m: &mut IrModule, fi: usize, bi: usize, k: usize) -> bool {
    let Some(block) = m.functions.get_mut(fi).and_then(|f| f.blocks.get_mut(bi)) else {
        return false;
    };
    let Terminator::Switch { cases, .. } = &mut block.terminator else {
        return false;
    };
    if k >= cases.len() {
        return false;
    }
    cases.remove(k);
    fix_phis(&mut m.functions[fi]);
    true
}

/// Make every phi's incoming list match its block's predecessors again:
/// drop entries of blocks that are no longer predecessors.
fn fix_phis(f: &mut IrFunction) {
    let cfg = CfgAnalysis::build(f);
    // Labels of predecessors, computed apart from the mutable pass over blocks.
    let labels: Vec<BlockId> = f.blocks.iter().map(|b| b.label).collect();
    let pred_sets: Vec<Vec<BlockId>> = (0..f.blocks.len())
        .map(|bi| cfg.preds.row(bi).iter().map(|&p| labels[p as usize]).collect())
        .collect();
    for (bi, b) in f.blocks.iter_mut().enumerate() {
        for inst in &mut b.instructions {
            if let Instruction::Phi { incoming, .. } = inst {
                incoming.retain(|(_, from)| pred_sets[bi].contains(from));
            }
        }
    }
}

/// Remove blocks not reachable from the entry, and phi entries from them.
fn remove_unreachable_blocks(m: &mut IrModule) {
    for f in m.functions.iter_mut().filter(|f| !f.is_declaration) {
        let cfg = CfgAnalysis::build(f);
        if (0..f.blocks.len()).all(|b| cfg.is_reachable(b)) {
            continue;
        }
        let mut i = 0;
        f.blocks.retain(|_| {
            let keep = cfg.is_reachable(i);
            i += 1;
            keep
        });
        fix_phis(f);
    }
}

/// Merge a block into its single predecessor when that predecessor ends in an
/// unconditional branch to it.
fn block_merge_edits(m: &IrModule) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    for_each_block(m, |fi, bi| {
        if matches!(m.functions[fi].blocks[bi].terminator, Terminator::Branch(_)) {
            edits.push(Box::new(move |m: &mut IrModule| merge_into_pred(m, fi, bi)));
        }
    });
    edits
}

fn merge_into_pred(m: &mut IrModule, fi: usize, bi: usize) -> bool {
    let Some(f) = m.functions.get_mut(fi) else { return false };
    let Some(Terminator::Branch(succ)) = f.blocks.get(bi).map(|b| b.terminator.clone()) else {
        return false;
    };
    let Some(si) = f.block_index(succ) else { return false };
    if si == 0 || si == bi {
        return false;
    }
    let cfg = CfgAnalysis::build(f);
    if cfg.preds.len(si) != 1
        || f.blocks[si]
            .instructions
            .iter()
            .any(|i| matches!(i, Instruction::Phi { .. }))
    {
        return false;
    }
    let succ_block = f.blocks.remove(si);
    let bi = if si < bi { bi - 1 } else { bi };
    let from = f.blocks[bi].label;
    f.blocks[bi].instructions.extend(succ_block.instructions);
    f.blocks[bi].terminator = succ_block.terminator;
    // Phis in the successors of the merged block now see `from` as the predecessor.
    let old = succ_block.label;
    for b in &mut f.blocks {
        for inst in &mut b.instructions {
            if let Instruction::Phi { incoming, .. } = inst {
                for (_, l) in incoming.iter_mut() {
                    if *l == old {
                        *l = from;
                    }
                }
            }
        }
    }
    true
}

/// Remove single instructions; the values they defined become zero constants.
fn instruction_edits(m: &IrModule) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    for_each_block(m, |fi, bi| {
        for (ii, inst) in m.functions[fi].blocks[bi].instructions.iter().enumerate() {
            edits.push(Box::new(move |m: &mut IrModule| remove_instruction(m, fi, bi, ii)));
            // Or bypass it: its uses read one of its value operands instead.
            if inst.dest().is_some() {
                for k in 0..inst.used_values().len() {
                    edits.push(Box::new(move |m: &mut IrModule| bypass_instruction(m, fi, bi, ii, k)));
                }
            }
        }
    });
    edits
}

fn remove_instruction(m: &mut IrModule, fi: usize, bi: usize, ii: usize) -> bool {
    let Some(f) = m.functions.get_mut(fi) else { return false };
    let Some(inst) = f.blocks.get(bi).and_then(|b| b.instructions.get(ii)).cloned() else {
        return false;
    };
    f.blocks[bi].instructions.remove(ii);
    let ty = inst.result_type().unwrap_or(IrType::I64);
    let mut defs = Vec::new();
    inst.for_each_def(|d| defs.push(d));
    if !defs.is_empty() {
        replace_uses_with_const(f, &defs, IrConst::zero(ty));
    }
    true
}

/// Remove instruction `ii` and make its uses read its `k`-th used value.
fn bypass_instruction(m: &mut IrModule, fi: usize, bi: usize, ii: usize, k: usize) -> bool {
    let Some(f) = m.functions.get_mut(fi) else { return false };
    let Some(inst) = f.blocks.get(bi).and_then(|b| b.instructions.get(ii)).cloned() else {
        return false;
    };
    let (Some(dest), Some(&with)) = (inst.dest(), inst.used_values().get(k)) else {
        return false;
    };
    if with == dest {
        return false;
    }
    f.blocks[bi].instructions.remove(ii);
    for b in &mut f.blocks {
        for inst in &mut b.instructions {
            inst.for_each_value_use_mut(|v| {
                if *v == dest {
                    *v = with
                }
            });
        }
        b.terminator.for_each_operand_mut(|op| {
            if *op == Operand::Value(dest) {
                *op = Operand::Value(with)
            }
        });
    }
    true
}

/// Replace operand uses of `vals` by `c` (pointer-only slots are left alone;
/// the verifier then rejects the edit if they were used).
fn replace_uses_with_const(f: &mut IrFunction, vals: &[Value], c: IrConst) {
    let fix = |op: &mut Operand| {
        if let Operand::Value(v) = op {
            if vals.contains(v) {
                *op = Operand::Const(c);
            }
        }
    };
    for b in &mut f.blocks {
        for inst in &mut b.instructions {
            inst.for_each_operand_mut(fix);
        }
        b.terminator.for_each_operand_mut(fix);
    }
}

/// Replace value operands by zero, and shrink constants toward zero.
fn operand_edits(m: &IrModule) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    for_each_block(m, |fi, bi| {
        let b = &m.functions[fi].blocks[bi];
        for ii in 0..=b.instructions.len() {
            let mut nops = 0;
            if ii < b.instructions.len() {
                b.instructions[ii].clone().for_each_operand_mut(|_| nops += 1);
            } else {
                b.terminator.clone().for_each_operand_mut(|_| nops += 1);
            }
            for k in 0..nops {
                for shrink in [0u8, 1, 2] {
                    edits.push(Box::new(move |m: &mut IrModule| edit_operand(m, fi, bi, ii, k, shrink)));
                }
            }
        }
    });
    edits
}

/// Operand `k` of instruction `ii` (or the terminator when `ii` is past the
/// end): `shrink` 0 = zero, 1 = one, 2 = halve a constant.
fn edit_operand(m: &mut IrModule, fi: usize, bi: usize, ii: usize, k: usize, shrink: u8) -> bool {
    let Some(b) = m.functions.get_mut(fi).and_then(|f| f.blocks.get_mut(bi)) else {
        return false;
    };
    let ty = b.instructions.get(ii).and_then(operand_type);
    let mut changed = false;
    let mut idx = 0;
    let mut apply = |op: &mut Operand| {
        if idx == k {
            let new = match (*op, shrink) {
                (Operand::Value(_), 0) => ty.map(|t| Operand::Const(IrConst::zero(t))),
                (Operand::Const(c), 0) if !c.is_zero() => Some(Operand::Const(like(&c, 0))),
                (Operand::Const(c), 1) if !c.is_one() && !c.is_zero() => Some(Operand::Const(like(&c, 1))),
                (Operand::Const(c), 2) => c
                    .to_i128()
                    .filter(|v| v.unsigned_abs() > 1)
                    .map(|v| Operand::Const(like(&c, v / 2))),
                _ => None,
            };
            if let Some(n) = new {
                *op = n;
                changed = true;
            }
        }
        idx += 1;
    };
    if ii < b.instructions.len() {
        b.instructions[ii].for_each_operand_mut(&mut apply);
    } else {
        b.terminator.for_each_operand_mut(&mut apply);
    }
    changed
}

/// A constant with value `v` in the same variant as `c`.
fn like(c: &IrConst, v: i128) -> IrConst {
    IrConst::from_i128(v, const_natural_type(c))
}

/// The type operands of `inst` have, where a single one applies.
fn operand_type(inst: &Instruction) -> Option<IrType> {
    match inst {
        Instruction::BinOp { ty, .. }
        | Instruction::Cmp { ty, .. }
        | Instruction::Store { ty, .. }
        | Instruction::Phi { ty, .. }
        | Instruction::UnaryOp { ty, .. } => Some(*ty),
        Instruction::Cast { from_ty, .. } => Some(*from_ty),
        _ => None,
    }
}

/// Drop asm goto labels and asm outputs one at a time.
fn asm_edits(m: &IrModule) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    for_each_block(m, |fi, bi| {
        for (ii, inst) in m.functions[fi].blocks[bi].instructions.iter().enumerate() {
            if let Instruction::InlineAsm(asm) = inst {
                for k in 0..asm.goto_labels.len() {
                    edits.push(Box::new(move |m: &mut IrModule| edit_asm(m, fi, bi, ii, Some(k), None)));
                }
                for k in 0..asm.outputs.len() {
                    edits.push(Box::new(move |m: &mut IrModule| edit_asm(m, fi, bi, ii, None, Some(k))));
                }
            }
        }
    });
    edits
}

fn edit_asm(m: &mut IrModule, fi: usize, bi: usize, ii: usize, label: Option<usize>, output: Option<usize>) -> bool {
    let Some(f) = m.functions.get_mut(fi) else { return false };
    let Some(Instruction::InlineAsm(asm)) = f.blocks.get_mut(bi).and_then(|b| b.instructions.get_mut(ii)) else {
        return false;
    };
    if let Some(k) = label {
        if k >= asm.goto_labels.len() {
            return false;
        }
        asm.goto_labels.remove(k);
    }
    if let Some(k) = output {
        if k >= asm.outputs.len() {
            return false;
        }
        asm.outputs.remove(k);
        if k < asm.operand_types.len() {
            asm.operand_types.remove(k);
        }
    }
    fix_phis(f);
    true
}
