//! Global value numbering on SSA form: dominator-scoped hashing of pure
//! instructions, and redundant loads within a block.
//!
//! Algorithm: the hash-based, dominator-tree-scoped value numbering of
//! Briggs, Cooper and Simpson, "Value Numbering" (Software: Practice and
//! Experience 27(6), 1997, section 3, "dominator-based value numbering").
//! The dominator tree (Cooper-Harvey-Kennedy, `ir/analysis.rs`) is walked in
//! preorder with an explicit stack. Each pure instruction gets a key: its
//! opcode, operator, types and its operands, each value operand replaced by
//! the value that already stands for it (its *leader*; commutative integer
//! operators put their value operands in a fixed order). If a dominating
//! instruction already has the key, the instruction is redundant: its uses
//! take the leader and it is deleted. Otherwise it becomes the key's leader
//! for the blocks it dominates; keys are removed again when the walk leaves
//! the block that added them (the scoped hash table), so a leader only ever
//! replaces values it dominates. The table lives as long as the walk:
//! O(instructions) expected time.
//!
//! Numbered: `BinOp`, `UnaryOp`, `Cmp`, `Cast`, `GetElementPtr`, `Select`,
//! `GlobalAddr`. A division or remainder is numbered too: the leader it
//! would be replaced by computed the same quotient of the same operands
//! earlier on every path (it dominates), so if the second one is reached,
//! the first did not trap. Not numbered: phis, copies (copy propagation's
//! job), calls, asm, allocas and everything with a side effect.
//!
//! `asm goto` leaves a block in the middle: a value defined after one is
//! not available at its goto targets, even those the block dominates
//! (docs/ssa.md). So the keys an instruction after a block's first `asm
//! goto` adds serve only the rest of that block, and are removed before the
//! walk descends to the dominated blocks.
//!
//! Loads take part only inside one block, under a simple alias rule. A load
//! is numbered when its address is based (through `gep`s) on a non-volatile
//! `alloca` of the function or on a `globaladdr`, and has no segment
//! override; its key is the address value and the type. Between two loads
//! of one key, the rule must prove nothing wrote the memory: a `store` whose
//! address is based on another alloca forgets only that alloca's loads (two
//! allocas are disjoint objects); one based on a global forgets every global
//! load (globals may be aliases of each other); a store through any other
//! pointer, a call, asm, atomics, fences, `memcpy`, `va_*`, stack restore and
//! impure intrinsics forget everything. Loads from volatile allocas are never
//! numbered (each one is an event). The IR does not mark volatile globals or
//! volatile accesses through pointers (only volatile allocas), so two loads
//! of a volatile global with nothing in between in one block are merged:
//! a difference only another thread, a signal handler or a device can see.
//!
//! Contract. Input: SSA form. Output: SSA form with some pure instructions
//! and loads deleted and their uses renamed to dominating equivalents; the
//! CFG is unchanged, and the observable outcome under the reference
//! interpreter is the same.

use crate::ir::analysis::CfgAnalysis;
use crate::ir::reexports::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GvnStats {
    /// Pure instructions replaced by a dominating equivalent.
    pub pure_replaced: usize,
    /// Loads replaced by an earlier load of the same block.
    pub loads_replaced: usize,
}

/// The value-number key of a pure instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Bin(IrBinOp, IrType, Operand, Operand),
    Un(IrUnaryOp, IrType, Operand),
    Cmp(IrCmpOp, IrType, Operand, Operand),
    Cast(IrType, IrType, Operand),
    Gep(Value, Operand, IrType),
    Select(IrType, Operand, Operand, Operand),
    Global(String),
}

/// What memory an address is based on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    /// A non-volatile alloca of the function.
    Alloca(Value),
    /// A volatile alloca: never numbered.
    Volatile(Value),
    /// Some global.
    Global,
}

/// Numbers the values of `func` (see the module documentation).
pub fn number_values(func: &mut IrFunction) -> GvnStats {
    let mut stats = GvnStats::default();
    if func.blocks.is_empty() {
        return stats;
    }
    let cfg = CfgAnalysis::build(func);
    let bases = memory_bases(func);
    let mut walk = Walk {
        func,
        bases: &bases,
        table: FxHashMap::default(),
        log: Vec::new(),
        leader: FxHashMap::default(),
        stats: &mut stats,
    };
    // Preorder walk of the dominator tree; `Err(mark)` leaves a block's scope.
    let mut stack: Vec<Result<usize, usize>> = vec![Ok(0)];
    while let Some(item) = stack.pop() {
        match item {
            Ok(b) => {
                let mark = walk.log.len();
                let local = walk.block(b);
                walk.undo(local);
                stack.push(Err(mark));
                stack.extend(cfg.dom_children[b].iter().rev().map(|&c| Ok(c)));
            }
            Err(mark) => walk.undo(mark),
        }
    }
    let leader = walk.leader;
    if leader.is_empty() {
        return stats;
    }
    let gone: FxHashSet<Value> = leader.keys().copied().collect();
    for block in &mut func.blocks {
        block.instructions.retain(
            |inst| !matches!(inst.dest(), Some(d) if gone.contains(&d) && !matches!(inst, Instruction::Phi { .. })),
        );
        for inst in &mut block.instructions {
            inst.for_each_value_use_mut(|v| {
                if let Some(&l) = leader.get(v) {
                    *v = l
                }
            });
        }
        block.terminator.for_each_operand_mut(|op| {
            if let Operand::Value(v) = op {
                if let Some(&l) = leader.get(v) {
                    *v = l
                }
            }
        });
    }
    stats
}

/// The base of every address the function computes from an alloca or a
/// global, through any chain of `gep`s.
fn memory_bases(func: &IrFunction) -> FxHashMap<Value, Base> {
    let mut bases: FxHashMap<Value, Base> = FxHashMap::default();
    let mut geps: Vec<(Value, Value)> = Vec::new();
    for block in &func.blocks {
        for inst in &block.instructions {
            match inst {
                Instruction::Alloca { dest, volatile, .. } => {
                    let base = if *volatile {
                        Base::Volatile(*dest)
                    } else {
                        Base::Alloca(*dest)
                    };
                    bases.insert(*dest, base);
                }
                Instruction::GlobalAddr { dest, .. } => {
                    bases.insert(*dest, Base::Global);
                }
                Instruction::GetElementPtr { dest, base, .. } => geps.push((*dest, *base)),
                _ => {}
            }
        }
    }
    // Definitions dominate uses but blocks are in any order: iterate to a fixed point.
    loop {
        let before = bases.len();
        geps.retain(|(dest, base)| match bases.get(base).copied() {
            Some(b) => {
                bases.insert(*dest, b);
                false
            }
            None => true,
        });
        if bases.len() == before {
            return bases;
        }
    }
}

/// Does `inst` leave memory alone (for the load rule)? Stores are handled apart.
fn writes_no_memory(inst: &Instruction) -> bool {
    use Instruction as I;
    match inst {
        I::Alloca { .. }
        | I::Load { .. }
        | I::GetElementPtr { .. }
        | I::GlobalAddr { .. }
        | I::StackSave { .. }
        | I::BinOp { .. }
        | I::UnaryOp { .. }
        | I::Cmp { .. }
        | I::Cast { .. }
        | I::Copy { .. }
        | I::Select { .. }
        | I::Phi { .. }
        | I::ParamRef { .. }
        | I::GetReturnF64Second { .. }
        | I::GetReturnF32Second { .. }
        | I::GetReturnF128Second { .. }
        | I::SetReturnF64Second { .. }
        | I::SetReturnF32Second { .. }
        | I::SetReturnF128Second { .. }
        | I::LabelAddr { .. } => true,
        I::Intrinsic { op, dest_ptr, .. } => dest_ptr.is_none() && op.is_pure(),
        _ => false,
    }
}

struct Walk<'a> {
    func: &'a IrFunction,
    bases: &'a FxHashMap<Value, Base>,
    /// Key -> the value that stands for it in the current scope.
    table: FxHashMap<Key, Value>,
    /// Keys added, in order, so leaving a scope removes them.
    log: Vec<Key>,
    /// Replaced value -> its leader.
    leader: FxHashMap<Value, Value>,
    stats: &'a mut GvnStats,
}

impl Walk<'_> {
    fn undo(&mut self, mark: usize) {
        for key in self.log.drain(mark..) {
            self.table.remove(&key);
        }
    }

    fn op(&self, op: &Operand) -> Operand {
        match op {
            Operand::Value(v) => Operand::Value(self.val(*v)),
            c => *c,
        }
    }

    fn val(&self, v: Value) -> Value {
        self.leader.get(&v).copied().unwrap_or(v)
    }

    /// The key and result of a numbered pure instruction.
    fn key(&self, inst: &Instruction) -> Option<(Key, Value)> {
        use Instruction as I;
        Some(match inst {
            I::BinOp {
                dest, op, lhs, rhs, ty, ..
            } => {
                let (mut l, mut r) = (self.op(lhs), self.op(rhs));
                if op.is_commutative() && !ty.is_float() {
                    if let (Operand::Value(a), Operand::Value(b)) = (l, r) {
                        if a > b {
                            std::mem::swap(&mut l, &mut r);
                        }
                    }
                }
                (Key::Bin(*op, *ty, l, r), *dest)
            }
            I::UnaryOp { dest, op, src, ty } => (Key::Un(*op, *ty, self.op(src)), *dest),
            I::Cmp {
                dest, op, lhs, rhs, ty, ..
            } => (Key::Cmp(*op, *ty, self.op(lhs), self.op(rhs)), *dest),
            I::Cast {
                dest,
                src,
                from_ty,
                to_ty,
            } => (Key::Cast(*from_ty, *to_ty, self.op(src)), *dest),
            I::GetElementPtr { dest, base, offset, ty } => (Key::Gep(self.val(*base), self.op(offset), *ty), *dest),
            I::Select {
                dest,
                cond,
                true_val,
                false_val,
                ty,
            } => (
                Key::Select(*ty, self.op(cond), self.op(true_val), self.op(false_val)),
                *dest,
            ),
            I::GlobalAddr { dest, name } => (Key::Global(name.clone()), *dest),
            _ => return None,
        })
    }

    /// Numbers block `b`; returns the log mark after which keys are local to
    /// the block (those added after its first `asm goto`).
    fn block(&mut self, b: usize) -> usize {
        let func = self.func;
        let mut local: Option<usize> = None;
        // The block's loads: (address, type) -> (leader, base of the address).
        let mut loads: FxHashMap<(Value, IrType), (Value, Base)> = FxHashMap::default();
        for inst in &func.blocks[b].instructions {
            if let Some((key, dest)) = self.key(inst) {
                if let Some(&l) = self.table.get(&key) {
                    self.leader.insert(dest, l);
                    self.stats.pure_replaced += 1;
                } else {
                    self.table.insert(key.clone(), dest);
                    self.log.push(key);
                }
                continue;
            }
            match inst {
                Instruction::Load {
                    dest,
                    ptr,
                    ty,
                    seg_override: AddressSpace::Default,
                } => {
                    let ptr = self.val(*ptr);
                    if let Some(&base @ (Base::Alloca(_) | Base::Global)) = self.bases.get(&ptr) {
                        match loads.get(&(ptr, *ty)) {
                            Some(&(l, _)) => {
                                self.leader.insert(*dest, l);
                                self.stats.loads_replaced += 1;
                            }
                            None => {
                                loads.insert((ptr, *ty), (*dest, base));
                            }
                        }
                    }
                }
                Instruction::Load { .. } => {}
                Instruction::Store { ptr, seg_override, .. } => {
                    // Injected bug `gvn-load-across-store`: stores forget nothing.
                    #[cfg(feature = "inject-bugs")]
                    if crate::inject::enabled(crate::inject::Bug::GvnLoadAcrossStore) {
                        continue;
                    }
                    match self.bases.get(&self.val(*ptr)) {
                        Some(&Base::Alloca(a) | &Base::Volatile(a)) if *seg_override == AddressSpace::Default => {
                            loads.retain(|_, (_, base)| *base != Base::Alloca(a))
                        }
                        Some(Base::Global) if *seg_override == AddressSpace::Default => {
                            loads.retain(|_, (_, base)| *base != Base::Global)
                        }
                        _ => loads.clear(),
                    }
                }
                other => {
                    if !writes_no_memory(other) {
                        loads.clear();
                    }
                    if !other.asm_goto_targets().is_empty() && local.is_none() {
                        local = Some(self.log.len());
                    }
                }
            }
        }
        local.unwrap_or(self.log.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::{parse_module, print_module};
    use crate::ir::verify::{verify_module, VerifyMode};

    fn run(src: &str) -> (String, GvnStats) {
        let mut m = parse_module(src).unwrap();
        let s = number_values(&mut m.functions[0]);
        let out = print_module(&m);
        if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
            panic!("{e}\n{out}");
        }
        (out, s)
    }

    /// A dominating expression replaces its copies; one in a sibling arm
    /// (which it does not dominate) stays.
    #[test]
    fn only_dominating_expressions_replace() {
        let (out, s) = run("define @f(i32, i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  %1 = paramref 1 i32
  %2 = cmp slt i32 %0, %1
  condbr %2, bb1, bb2
bb1:
  %3 = mul i32 %0, %1
  br bb3
bb2:
  %4 = mul i32 %1, %0
  %5 = mul i32 %0, %1
  %6 = add i32 %4, %5
  br bb3
bb3:
  %7 = phi i32 [%3, bb1], [%6, bb2]
  %8 = cmp slt i32 %0, %1
  %9 = select i32 %8, %7, %0
  ret %9
}
");
        assert_eq!(s.pure_replaced, 2, "{out}");
        assert!(out.contains("%3 = mul"), "{out}");
        assert!(out.contains("%6 = add i32 %4, %4"), "{out}");
        assert!(out.contains("%9 = select i32 %2, %7, %0"), "{out}");
    }

    #[test]
    fn loads_merge_until_a_store_to_their_object() {
        let (out, s) = run("define @f() -> i32 {
bb0:
  %0 = alloca i32, size 4, align 4
  %1 = alloca i32, size 4, align 4
  store i32 1i32, %0
  %2 = load i32 %0
  store i32 2i32, %1
  %3 = load i32 %0
  store i32 3i32, %0
  %4 = load i32 %0
  %5 = add i32 %2, %3
  %6 = add i32 %5, %4
  ret %6
}
");
        assert_eq!(s.loads_replaced, 1, "{out}");
        assert!(out.contains("%5 = add i32 %2, %2"), "{out}");
        assert!(out.contains("%4 = load"), "{out}");
    }
}
