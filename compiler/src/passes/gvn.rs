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
//! the first did not trap. Not numbered: phis, calls, asm, allocas and
//! everything with a side effect. A copy of a value is looked through: the
//! copy is deleted and its uses take the leader of its source, so that
//! `gep (copy p), 8` and `gep p, 8` get one key (lowering and the inliner
//! make many copies, and copy propagation runs after GVN). Copies of
//! constants stay (SCCP's and copy propagation's job).
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
use crate::ir::constants::zext;
use crate::ir::reexports::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GvnStats {
    /// Pure instructions replaced by a dominating equivalent.
    pub pure_replaced: usize,
    /// Loads replaced by an earlier load of the same block.
    pub loads_replaced: usize,
    /// Copies of values looked through (their uses take the source's leader).
    pub copies_looked_through: usize,
    /// Instructions simplified to one of their operands (an algebraic
    /// identity, or the test of a comparison's widened result).
    pub simplified: usize,
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
    #[cfg(feature = "inject-bugs")]
    if crate::inject::enabled(crate::inject::Bug::GvnCompareViaSub) {
        compare_via_sub(func);
    }
    let cfg = CfgAnalysis::build(func);
    let bases = memory_bases(func);
    let defs = definitions(func);
    let mut walk = Walk {
        func,
        bases: &bases,
        defs: &defs,
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

/// Injected bug `gvn-compare-via-sub`: `cmp P x, c` with a signed order
/// `P`, a signed integer type and a small constant `0 < |c| <= 8` becomes
/// `cmp P (sub x, c), 0`, the canonical compare-with-zero form that is right
/// only when the subtraction cannot wrap (LLVM's `sub nsw`). IR `sub` wraps,
/// so the rewrite is wrong exactly for `x` within 8 of the type's MIN or
/// MAX: values the generated `main` practically never passes, the boundary
/// arguments of the IR check's calls do.
#[cfg(feature = "inject-bugs")]
fn compare_via_sub(func: &mut IrFunction) {
    use crate::ir::constants::sext;
    let mut next = func.next_value_id.max(func.scan_max_value_id() + 1);
    for block in &mut func.blocks {
        let mut i = 0;
        while i < block.instructions.len() {
            if let Instruction::Cmp { op, lhs, rhs, ty, .. } = &mut block.instructions[i] {
                let signed_order = matches!(op, IrCmpOp::Slt | IrCmpOp::Sle | IrCmpOp::Sgt | IrCmpOp::Sge);
                if let (true, Operand::Value(x), Operand::Const(c)) =
                    (signed_order && ty.is_signed() && !ty.is_128(), *lhs, *rhs)
                {
                    let v = sext(c.bits_as(*ty), ty.bits());
                    if c.to_i128().is_some() && v != 0 && (-8..=8).contains(&v) {
                        let t = Value(next);
                        next += 1;
                        let ty = *ty;
                        *lhs = Operand::Value(t);
                        *rhs = Operand::Const(IrConst::from_i128(0, ty));
                        let sub = Instruction::BinOp {
                            dest: t,
                            op: IrBinOp::Sub,
                            lhs: Operand::Value(x),
                            rhs: Operand::Const(c),
                            ty,
                        };
                        block.instructions.insert(i, sub);
                        i += 1;
                    }
                }
            }
            i += 1;
        }
    }
    func.next_value_id = next;
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

/// The definition site of every value the function defines.
fn definitions(func: &IrFunction) -> FxHashMap<Value, (usize, usize)> {
    let mut defs: FxHashMap<Value, (usize, usize)> = FxHashMap::default();
    for (bi, block) in func.blocks.iter().enumerate() {
        for (ii, inst) in block.instructions.iter().enumerate() {
            inst.for_each_def(|v| {
                defs.insert(v, (bi, ii));
            });
        }
    }
    defs
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
    /// Where each value is defined: `(block, index)`.
    defs: &'a FxHashMap<Value, (usize, usize)>,
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

    /// The instruction defining `v`, if the function defines it once.
    fn def_of(&self, v: Value) -> Option<&Instruction> {
        let &(b, i) = self.defs.get(&v)?;
        self.func.blocks[b].instructions.get(i)
    }

    /// The type of `v` when its definition alone says it.
    fn type_of(&self, v: Value) -> Option<IrType> {
        self.def_of(v).and_then(|d| d.result_type())
    }

    /// `(dest, v)` when `inst` always computes the value `v` (a leader) already
    /// holds (LLVM's InstSimplify, the part that needs no new instruction):
    /// - `x + 0`, `x - 0`, `x | 0`, `x ^ 0`, `x << 0`, `x >> 0`, `x * 1`,
    ///   `x & -1`, and `0 + x`, `0 | x`, `0 ^ x`, `1 * x`, `-1 & x`, on
    ///   integers whose type is the operator's (floats are left alone:
    ///   `-0.0 + 0.0` is `+0.0`);
    /// - `ne (cast* c), 0` where `c` is a comparison and the casts are
    ///   integer conversions: a comparison is 0 or 1, which every integer
    ///   conversion keeps, so the test is `c` itself (lowering makes this of
    ///   every `if (a < b)` whose condition went through an `int`).
    fn simplify(&self, inst: &Instruction) -> Option<(Value, Value)> {
        match inst {
            Instruction::BinOp {
                dest, op, lhs, rhs, ty, ..
            } if ty.is_integer() => {
                let ones = |c: &IrConst| c.to_i128().is_some() && c.bits_as(*ty) == zext(u128::MAX, ty.bits());
                let right_identity = |c: &IrConst| {
                    c.to_i128().is_some()
                        && match op {
                            IrBinOp::Add
                            | IrBinOp::Sub
                            | IrBinOp::Or
                            | IrBinOp::Xor
                            | IrBinOp::Shl
                            | IrBinOp::AShr
                            | IrBinOp::LShr => c.is_zero(),
                            IrBinOp::Mul => c.is_one(),
                            IrBinOp::And => ones(c),
                            _ => false,
                        }
                };
                // Injected bug `gvn-simplify-left-identity`: a zero on the
                // left is an identity of every operator, not only of the
                // commutative ones (`0 - x` and `0 >> x` become `x`).
                let left_any = crate::inject::enabled(crate::inject::Bug::GvnSimplifyLeftIdentity);
                let x = match (self.op(lhs), self.op(rhs)) {
                    (Operand::Value(x), Operand::Const(c)) if right_identity(&c) => x,
                    (Operand::Const(c), Operand::Value(x))
                        if (op.is_commutative() && right_identity(&c))
                            || (left_any && c.is_zero() && c.to_i128().is_some()) =>
                    {
                        x
                    }
                    _ => return None,
                };
                (self.type_of(x) == Some(*ty)).then_some((*dest, x))
            }
            Instruction::Cmp {
                dest,
                op: IrCmpOp::Ne,
                lhs,
                rhs,
                ty,
            } if ty.is_integer() => {
                let mut v = match (self.op(lhs), self.op(rhs)) {
                    (Operand::Value(v), Operand::Const(c)) | (Operand::Const(c), Operand::Value(v))
                        if c.is_zero() && c.to_i128().is_some() =>
                    {
                        v
                    }
                    _ => return None,
                };
                loop {
                    match self.def_of(v)? {
                        Instruction::Cast {
                            src: Operand::Value(s),
                            from_ty,
                            to_ty,
                            ..
                        } if from_ty.is_integer() && to_ty.is_integer() => v = self.val(*s),
                        Instruction::Cmp { .. } => return Some((*dest, v)),
                        _ => return None,
                    }
                }
            }
            _ => None,
        }
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
            // A copy of a value stands for its source: its uses take the
            // source's leader, so that expressions over copies of one value
            // (lowering and inlining make many, and copy propagation runs
            // later) get one key.
            if let Instruction::Copy {
                dest,
                src: Operand::Value(s),
            } = inst
            {
                // Injected bug `gvn-copy-stale-source`: the copy's uses take
                // its source itself, not the source's leader, which may be
                // an instruction this walk deleted.
                let stale = crate::inject::enabled(crate::inject::Bug::GvnCopyStaleSource);
                let l = if stale { *s } else { self.val(*s) };
                self.leader.insert(*dest, l);
                self.stats.copies_looked_through += 1;
                continue;
            }
            if let Some((dest, v)) = self.simplify(inst) {
                self.leader.insert(dest, v);
                self.stats.simplified += 1;
                continue;
            }
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

    /// Expressions over copies of one value get one number: the copies are
    /// looked through.
    #[test]
    fn copies_of_one_value_share_its_expressions() {
        let (out, s) = run("define @f(ptr) -> i32 {
bb0:
  %0 = paramref 0 ptr
  %1 = copy %0
  %2 = gep i32 %1, 8i64
  %3 = copy %0
  %4 = gep i32 %3, 8i64
  %5 = load i32 %2
  %6 = load i32 %4
  %7 = add i32 %5, %6
  ret %7
}
");
        assert_eq!(s.copies_looked_through, 2, "{out}");
        assert_eq!(s.pure_replaced, 1, "{out}");
        assert!(out.contains("%2 = gep i32 %0, 8i64"), "{out}");
        assert!(out.contains("%6 = load i32 %2"), "{out}");
        assert!(!out.contains("copy"), "{out}");
    }

    /// Identities on the right (and on the left of commutative operators)
    /// go; `0 - x`, float additions and mismatched types stay.
    #[test]
    fn identities_simplify_to_their_operand() {
        let (out, s) = run("define @f(i32, f64, i64) -> i32 {
bb0:
  %0 = paramref 0 i32
  %1 = paramref 1 f64
  %9 = paramref 2 i64
  %2 = lshr i32 %0, 0i32
  %3 = add i32 0i32, %2
  %4 = and i32 %3, -1i32
  %5 = sub i32 0i32, %4
  %6 = add f64 %1, 0.0f64
  %7 = mul i32 %5, 1i32
  %8 = and i32 %7, 65535i32
  ret %8
}
");
        assert_eq!(s.simplified, 4, "{out}");
        assert!(out.contains("%5 = sub i32 0i32, %0"), "{out}");
        assert!(out.contains("%6 = add f64 %1, 0.0f64"), "{out}");
        assert!(out.contains("%8 = and i32 %5, 65535i32"), "{out}");
    }

    /// `ne (cast (cmp)), 0` is the comparison itself; `eq` and a test of a
    /// value that is not a comparison stay.
    #[test]
    fn a_test_of_a_widened_comparison_is_the_comparison() {
        let (out, s) = run("define @f(i32, i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  %1 = paramref 1 i32
  %2 = cmp slt i32 %0, %1
  %3 = cast i8 -> i32 %2
  %4 = cast i32 -> i64 %3
  %5 = cmp ne i64 %4, 0i64
  %6 = cmp eq i64 %4, 0i64
  %7 = cmp ne i32 %0, 0i32
  %8 = cast i8 -> i32 %5
  %9 = cast i8 -> i32 %6
  %10 = cast i8 -> i32 %7
  %11 = add i32 %8, %9
  %12 = add i32 %11, %10
  ret %12
}
");
        assert_eq!(s.simplified, 1, "{out}");
        // `%8 = cast %5` became `cast %2`, the same expression as `%3`.
        assert!(out.contains("%11 = add i32 %3, %9"), "{out}");
        assert!(out.contains("%6 = cmp eq i64 %4, 0i64"), "{out}");
        assert!(out.contains("%7 = cmp ne i32 %0, 0i32"), "{out}");
    }
}
