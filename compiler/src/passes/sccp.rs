//! Sparse conditional constant propagation on SSA form.
//!
//! Algorithm: Wegman and Zadeck, "Constant Propagation with Conditional
//! Branches", TOPLAS 13(2), 1991 (SCC). Every SSA value starts at the top of
//! the lattice (no evidence yet: `Top`), may fall to one constant (`Const`)
//! and then to "not a constant" (`Bottom`), never back. Two worklists drive
//! it: CFG edges found executable and values whose lattice cell fell. A block
//! is evaluated when its first incoming edge becomes executable; a phi meets
//! only the operands of its executable incoming edges; a conditional branch
//! or switch whose condition is a constant makes only the edge it takes
//! executable. So a value that is constant on every path that can run is
//! found even when a branch that cannot run would merge another value into
//! it, which neither plain constant propagation nor unreachable-code
//! elimination alone can do. At the fixed point every use of a value whose
//! cell is a constant is replaced by that constant; the dead definitions are
//! left to `dce`, the branches that became constant to CFG simplification.
//!
//! Folding goes through the interpreter's own evaluation (`eval_bits` of
//! `IrBinOp`, `IrUnaryOp` and `IrCmpOp`, compiler/src/ir/ops.rs), so a folded
//! result is bit for bit what the interpreter computes. Trapping and undefined
//! cases are left alone: a division by zero, `MIN / -1` or `MIN % -1`, a shift
//! by at least the width evaluate to a trap, and the value becomes `Bottom`
//! (the instruction stays and traps at run time as before).
//!
//! Contract. Input: SSA form. Output: the same CFG and instructions with some
//! value operands replaced by constants, and the same observable outcome
//! under the reference interpreter. Folded: integer values of at most 64
//! bits (`i8`..`u64`) defined by `BinOp`, `UnaryOp` (not `isconstant`, whose
//! result depends on whether its operand is written as a constant, and no
//! constant is ever substituted into its operand), `Cmp` (on such integers),
//! `Copy`, `Select` and `Phi`. Pointers, floats, 128-bit integers, casts,
//! loads and everything else are `Bottom`. Uses in address slots (which must
//! hold values) are never rewritten.

use crate::ir::reexports::*;
use crate::ir::{analysis::build_label_map, constants::zext};
use rustc_hash::{FxHashMap, FxHashSet};

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SccpStats {
    /// Values proven constant.
    pub constants: usize,
    /// Operands replaced by a constant.
    pub uses_replaced: usize,
}

/// A lattice cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lat {
    Top,
    /// The raw bits of the value as the interpreter holds them, and its type.
    Const(u128, IrType),
    Bottom,
}

fn meet(a: Lat, b: Lat) -> Lat {
    match (a, b) {
        (Lat::Top, x) | (x, Lat::Top) => x,
        (Lat::Const(x, _), Lat::Const(y, t)) if x == y => Lat::Const(x, t),
        _ => Lat::Bottom,
    }
}

/// The types folded: integers of at most 64 bits. Never floats: a `f128`
/// constant's `f64` is only an approximation of its exact bytes (LDBL_MAX's
/// is +inf), so folding through it would change results; see
/// docs/ir-design.md#constants for the rule a float folding would follow.
fn foldable(ty: IrType) -> bool {
    ty.is_integer() && ty.size() <= 8 && ty != IrType::Ptr
}

/// Where a value is read.
#[derive(Clone, Copy, Debug)]
enum Use {
    Inst(usize, usize),
    Term(usize),
}

struct Solver<'f> {
    func: &'f IrFunction,
    lat: Vec<Lat>,
    block_seen: Vec<bool>,
    edge_seen: FxHashSet<(usize, usize)>,
    /// Per block, the predecessors whose edge into it is executable.
    exec_preds: Vec<Vec<usize>>,
    /// Scratch marks over blocks, all false between uses.
    mark: Vec<bool>,
    labels: Labels,
    users: Vec<Vec<Use>>,
    flow: Vec<(usize, usize)>,
    ssa: Vec<Value>,
}

/// Block index by label: a table over the function's label range when the
/// range is compact (labels are numbered per module, so one function's are
/// mostly consecutive), else a hash map.
enum Labels {
    Table { first: u32, index: Vec<usize> },
    Map(FxHashMap<BlockId, usize>),
}

impl Labels {
    fn new(func: &IrFunction) -> Labels {
        let first = func.blocks.iter().map(|b| b.label.0).min().unwrap_or(0);
        let last = func.blocks.iter().map(|b| b.label.0).max().unwrap_or(0);
        let span = (last - first) as usize + 1;
        if span > 4 * func.blocks.len() + 64 {
            return Labels::Map(build_label_map(func));
        }
        let mut index = vec![usize::MAX; span];
        // The last block of a label wins, as in the map (the verifier
        // rejects a label used twice).
        for (i, b) in func.blocks.iter().enumerate() {
            index[(b.label.0 - first) as usize] = i;
        }
        Labels::Table { first, index }
    }

    fn get(&self, label: BlockId) -> Option<usize> {
        match self {
            Labels::Table { first, index } => {
                let i = *index.get(label.0.checked_sub(*first)? as usize)?;
                (i != usize::MAX).then_some(i)
            }
            Labels::Map(m) => m.get(&label).copied(),
        }
    }
}

/// Propagates constants through `func` (see the module documentation).
pub fn propagate_constants(func: &mut IrFunction) -> SccpStats {
    if func.blocks.is_empty() {
        return SccpStats::default();
    }
    let lat = solve(func);
    let mut stats = SccpStats {
        constants: lat.iter().filter(|l| matches!(l, Lat::Const(..))).count(),
        uses_replaced: 0,
    };
    let constant = |v: Value| match lat.get(v.0 as usize) {
        Some(&Lat::Const(bits, ty)) => Some(IrConst::from_bits(bits, ty)),
        _ => None,
    };
    for block in &mut func.blocks {
        for inst in &mut block.instructions {
            if matches!(
                inst,
                Instruction::UnaryOp {
                    op: IrUnaryOp::IsConstant,
                    ..
                }
            ) {
                continue;
            }
            inst.for_each_operand_mut(|op| {
                if let Some(c) = op.as_value().and_then(constant) {
                    *op = Operand::Const(c);
                    stats.uses_replaced += 1;
                }
            });
        }
        block.terminator.for_each_operand_mut(|op| {
            if let Some(c) = op.as_value().and_then(constant) {
                *op = Operand::Const(c);
                stats.uses_replaced += 1;
            }
        });
    }
    stats
}

fn solve(func: &IrFunction) -> Vec<Lat> {
    let max = func.scan_max_value_id() as usize;
    let mut users: Vec<Vec<Use>> = vec![Vec::new(); max + 1];
    for (b, block) in func.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            inst.for_each_used_value(|v| users[v.0 as usize].push(Use::Inst(b, i)));
        }
        block
            .terminator
            .for_each_used_value(|v| users[v.0 as usize].push(Use::Term(b)));
    }
    let mut s = Solver {
        func,
        lat: vec![Lat::Top; max + 1],
        block_seen: vec![false; func.blocks.len()],
        edge_seen: Default::default(),
        exec_preds: vec![Vec::new(); func.blocks.len()],
        mark: vec![false; func.blocks.len()],
        labels: Labels::new(func),
        users,
        flow: Vec::new(),
        ssa: Vec::new(),
    };
    s.enter_block(0);
    loop {
        if let Some((from, to)) = s.flow.pop() {
            if s.edge_seen.insert((from, to)) {
                s.exec_preds[to].push(from);
                if s.block_seen[to] {
                    s.visit_phis(from, to);
                } else {
                    s.enter_block(to);
                }
            }
        } else if let Some(v) = s.ssa.pop() {
            for k in 0..s.users[v.0 as usize].len() {
                match s.users[v.0 as usize][k] {
                    Use::Inst(b, i) if s.block_seen[b] => s.visit_inst(b, i),
                    Use::Term(b) if s.block_seen[b] => s.visit_term(b),
                    _ => {}
                }
            }
        } else {
            break;
        }
    }
    s.lat
}

impl Solver<'_> {
    fn enter_block(&mut self, b: usize) {
        self.block_seen[b] = true;
        for i in 0..self.func.blocks[b].instructions.len() {
            self.visit_inst(b, i);
        }
        self.visit_term(b);
    }

    /// The edge `from -> b` became executable and `b` was already entered:
    /// each phi of `b` meets the operand of that edge. (The rest of its cell
    /// is up to date: a phi is visited in full whenever an operand's cell
    /// falls. Meeting only the new operand keeps a block of a computed goto
    /// with hundreds of predecessors and phis from costing the cube of them.)
    fn visit_phis(&mut self, from: usize, b: usize) {
        let func = self.func;
        let from_label = func.blocks[from].label;
        for (i, inst) in func.blocks[b].instructions.iter().enumerate() {
            match inst {
                Instruction::Phi { dest, ty, incoming } if foldable(*ty) => {
                    for (op, pred) in incoming {
                        if *pred == from_label {
                            let v = self.operand(op, *ty);
                            self.set(*dest, v);
                        }
                    }
                }
                Instruction::Phi { .. } => self.visit_inst(b, i),
                _ => {}
            }
        }
    }

    fn set(&mut self, v: Value, new: Lat) {
        let cell = &mut self.lat[v.0 as usize];
        let merged = meet(*cell, new);
        if merged != *cell {
            *cell = merged;
            self.ssa.push(v);
        }
    }

    /// The cell of an operand read at type `ty`: a constant operand as the
    /// interpreter reads it (`bits_as`), a value's cell when its type has the
    /// width of `ty` (a value of another width is not folded).
    fn operand(&self, op: &Operand, ty: IrType) -> Lat {
        match op {
            Operand::Value(v) => match self.lat.get(v.0 as usize).copied().unwrap_or(Lat::Bottom) {
                Lat::Const(x, t) if t.size() == ty.size() && foldable(ty) => Lat::Const(x, ty),
                Lat::Const(..) => Lat::Bottom,
                other => other,
            },
            Operand::Const(IrConst::Zero) => Lat::Bottom,
            Operand::Const(c) if foldable(ty) && c.to_i128().is_some() => Lat::Const(c.bits_as(ty), ty),
            Operand::Const(_) => Lat::Bottom,
        }
    }

    fn visit_inst(&mut self, b: usize, i: usize) {
        let func = self.func;
        let inst = &func.blocks[b].instructions[i];
        let value = match inst {
            Instruction::BinOp {
                dest, op, lhs, rhs, ty, ..
            } if foldable(*ty) => Some((*dest, self.binop(*op, lhs, rhs, *ty))),
            Instruction::UnaryOp { dest, op, src, ty } if foldable(*ty) && *op != IrUnaryOp::IsConstant => {
                let v = match self.operand(src, *ty) {
                    Lat::Const(x, _) => Lat::Const(zext(op.eval_bits(x, *ty), ty.bits()), *ty),
                    other => other,
                };
                Some((*dest, v))
            }
            Instruction::Cmp {
                dest, op, lhs, rhs, ty, ..
            } if foldable(*ty) => {
                let v = match (self.operand(lhs, *ty), self.operand(rhs, *ty)) {
                    (Lat::Const(l, _), Lat::Const(r, _)) => {
                        Lat::Const(self.compare(*op, l, r, *ty) as u128, IrType::I8)
                    }
                    (Lat::Bottom, _) | (_, Lat::Bottom) => Lat::Bottom,
                    _ => Lat::Top,
                };
                Some((*dest, v))
            }
            Instruction::Copy { dest, src } => {
                let v = match src {
                    Operand::Value(v) => self.lat.get(v.0 as usize).copied().unwrap_or(Lat::Bottom),
                    Operand::Const(c) => self.operand(src, const_natural_type(c)),
                };
                Some((*dest, v))
            }
            Instruction::Select {
                dest,
                cond,
                true_val,
                false_val,
                ty,
            } if foldable(*ty) => {
                let (t, f) = (self.operand(true_val, *ty), self.operand(false_val, *ty));
                let v = match self.condition(cond) {
                    Some(Lat::Top) => Lat::Top,
                    Some(Lat::Const(c, _)) => {
                        if c != 0 {
                            t
                        } else {
                            f
                        }
                    }
                    _ => meet(t, f),
                };
                Some((*dest, v))
            }
            Instruction::Phi { dest, ty, incoming } if foldable(*ty) => {
                // Mark the executable predecessors once instead of looking
                // up every incoming edge in the edge set: a phi is visited
                // again whenever an operand falls, so this is the hot path.
                for &p in &self.exec_preds[b] {
                    self.mark[p] = true;
                }
                let mut v = Lat::Top;
                for (op, pred) in incoming {
                    if self.labels.get(*pred).is_some_and(|p| self.mark[p]) {
                        v = meet(v, self.operand(op, *ty));
                    }
                }
                for &p in &self.exec_preds[b] {
                    self.mark[p] = false;
                }
                Some((*dest, v))
            }
            _ => None,
        };
        match value {
            Some((dest, v)) => self.set(dest, v),
            None => {
                let mut defs = Vec::new();
                inst.for_each_def(|d| defs.push(d));
                for d in defs {
                    self.set(d, Lat::Bottom);
                }
                for (_, target) in inst.asm_goto_targets() {
                    if let Some(t) = self.labels.get(*target) {
                        self.flow.push((b, t));
                    }
                }
            }
        }
    }

    fn binop(&self, op: IrBinOp, lhs: &Operand, rhs: &Operand, ty: IrType) -> Lat {
        match (self.operand(lhs, ty), self.operand(rhs, ty)) {
            (Lat::Const(l, _), Lat::Const(r, _)) => match op.eval_bits(l, r, ty) {
                Ok(v) => Lat::Const(zext(v, ty.bits()), ty),
                Err(_) => Lat::Bottom, // traps at run time: left alone
            },
            (Lat::Bottom, _) | (_, Lat::Bottom) => Lat::Bottom,
            _ => Lat::Top,
        }
    }

    fn compare(&self, op: IrCmpOp, l: u128, r: u128, ty: IrType) -> bool {
        // Injected bug `sccp-signed-unsigned-cmp`: unsigned comparisons folded as signed.
        #[cfg(feature = "inject-bugs")]
        if crate::inject::enabled(crate::inject::Bug::SccpSignedUnsignedCmp) {
            let signed = match op {
                IrCmpOp::Ult => IrCmpOp::Slt,
                IrCmpOp::Ule => IrCmpOp::Sle,
                IrCmpOp::Ugt => IrCmpOp::Sgt,
                IrCmpOp::Uge => IrCmpOp::Sge,
                other => other,
            };
            return signed.eval_bits(l, r, ty);
        }
        op.eval_bits(l, r, ty)
    }

    /// The cell of a branch or select condition (nonzero is true), `None` for "not known".
    fn condition(&self, cond: &Operand) -> Option<Lat> {
        match cond {
            Operand::Const(c) => Some(Lat::Const(c.is_nonzero() as u128, IrType::I8)),
            Operand::Value(v) => match self.lat.get(v.0 as usize) {
                Some(&Lat::Const(x, t)) => Some(Lat::Const((x != 0) as u128, t)),
                Some(&Lat::Top) => Some(Lat::Top),
                _ => None,
            },
        }
    }

    fn visit_term(&mut self, b: usize) {
        let func = self.func;
        let term = &func.blocks[b].terminator;
        let push = |s: &mut Self, label: BlockId| {
            if let Some(t) = s.labels.get(label) {
                s.flow.push((b, t));
            }
        };
        match term {
            Terminator::CondBranch {
                cond,
                true_label,
                false_label,
            } => match self.condition(cond) {
                Some(Lat::Top) => {}
                Some(Lat::Const(c, _)) => push(self, if c != 0 { *true_label } else { *false_label }),
                _ => {
                    push(self, *true_label);
                    push(self, *false_label);
                }
            },
            Terminator::Switch {
                val,
                cases,
                default,
                ty,
            } if foldable(*ty) => match self.operand(val, *ty) {
                Lat::Top => {}
                Lat::Const(x, _) => {
                    let hit = cases.iter().find(|(c, _)| zext(*c as i128 as u128, ty.bits()) == x);
                    push(self, hit.map_or(*default, |(_, t)| *t));
                }
                Lat::Bottom => term.for_each_successor(|t| push(self, t)),
            },
            _ => term.for_each_successor(|t| push(self, t)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::{parse_module, print_module};

    fn run(src: &str) -> (String, SccpStats) {
        let mut m = parse_module(src).unwrap();
        let s = propagate_constants(&mut m.functions[0]);
        (print_module(&m), s)
    }

    /// The branch that cannot run does not spoil the phi: `%3` is 1 on
    /// every path that runs, so the return gets the constant.
    #[test]
    fn a_branch_that_cannot_run_does_not_merge() {
        let (out, s) = run("define @f() -> i32 {
bb0:
  %0 = cmp slt i32 1i32, 2i32
  condbr %0, bb1, bb2
bb1:
  br bb3
bb2:
  br bb3
bb3:
  %3 = phi i32 [1i32, bb1], [2i32, bb2]
  %4 = add i32 %3, 41i32
  ret %4
}
");
        assert!(out.contains("ret 42i32"), "{out}");
        assert!(s.constants >= 3, "{s:?}");
    }

    #[test]
    fn traps_and_unknowns_are_not_folded() {
        let (out, _) = run("define @f(i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  %1 = sdiv i32 7i32, 0i32
  %2 = shl i32 1i32, 40i32
  %3 = add i32 %0, 1i32
  %4 = add i32 %1, %2
  %5 = add i32 %4, %3
  ret %5
}
");
        assert!(out.contains("%1 = sdiv i32 7i32, 0i32"), "{out}");
        assert!(out.contains("%4 = add i32 %1, %2"), "{out}");
        assert!(out.contains("ret %5"), "{out}");
    }
}
