//! Building one function's blocks: fresh values, module-unique block ids,
//! an insertion point, entry-block allocas and the final clean-up.
//!
//! The insertion point is the *open* block. Starting a new block while one is
//! open ends the open one with a branch to it (C's fall-through into a label
//! or a loop header). A terminator closes the open block; code emitted while
//! no block is open (after `return`, `break`, `goto`) goes to a fresh block
//! that nothing branches to, and [`FnBuilder::finish`] deletes every block
//! that cannot be reached from the entry, from a `labeladdr`, or from a static
//! initializer's label address. Allocas all go to the start of the entry
//! block, in creation order (parameters first: mem2reg-params relies on the
//! first N allocas being the N parameters' slots).

use crate::ir::constants::IrConst;
use crate::ir::instruction::{BasicBlock, BlockId, CallInfo, Instruction, Operand, Terminator, Value};
use crate::ir::ops::{IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::{AddressSpace, IrType};
use rustc_hash::{FxHashMap, FxHashSet};

pub struct FnBuilder {
    blocks: Vec<BasicBlock>,
    open: Option<usize>,
    allocas: Vec<Instruction>,
    next_value: u32,
    /// The next module-wide block id.
    pub next_block: u32,
    entry: BlockId,
}

impl FnBuilder {
    /// A builder whose entry block is open; block ids start at `first_block`.
    pub fn new(first_block: u32) -> FnBuilder {
        let mut b = FnBuilder {
            blocks: Vec::new(),
            open: None,
            allocas: Vec::new(),
            next_value: 0,
            next_block: first_block,
            entry: BlockId(first_block),
        };
        let entry = b.new_block();
        b.start(entry);
        b
    }

    pub fn value(&mut self) -> Value {
        let v = Value(self.next_value);
        self.next_value += 1;
        v
    }

    pub fn new_block(&mut self) -> BlockId {
        let id = BlockId(self.next_block);
        self.next_block += 1;
        id
    }

    /// Whether block `id` has been started.
    pub fn has_block(&self, id: BlockId) -> bool {
        self.blocks.iter().any(|b| b.label == id)
    }

    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Makes `id` the insertion point, falling through into it from the open block.
    pub fn start(&mut self, id: BlockId) {
        if self.open.is_some() {
            self.terminate(Terminator::Branch(id));
        }
        self.blocks.push(BasicBlock::new(id));
        self.open = Some(self.blocks.len() - 1);
    }

    /// Ends the open block (nothing happens when no block is open: the code
    /// is unreachable).
    pub fn terminate(&mut self, term: Terminator) {
        if let Some(i) = self.open.take() {
            self.blocks[i].terminator = term;
        }
    }

    pub fn branch(&mut self, to: BlockId) {
        self.terminate(Terminator::Branch(to));
    }

    pub fn cond_branch(&mut self, cond: Operand, t: BlockId, f: BlockId) {
        self.terminate(Terminator::CondBranch {
            cond,
            true_label: t,
            false_label: f,
        });
    }

    /// Appends an instruction at the insertion point.
    pub fn emit(&mut self, inst: Instruction) {
        let i = match self.open {
            Some(i) => i,
            None => {
                let dead = self.new_block();
                self.start(dead);
                self.blocks.len() - 1
            }
        };
        self.blocks[i].instructions.push(inst);
    }

    /// A stack slot in the entry block.
    pub fn alloca(&mut self, ty: IrType, size: u64, align: u64, volatile: bool) -> Value {
        let dest = self.value();
        let size = size.max(ty.size() as u64).max(1);
        self.allocas.push(Instruction::Alloca {
            dest,
            ty,
            size: size as usize,
            align: align.max(1).next_power_of_two() as usize,
            volatile,
        });
        dest
    }

    // ---- instruction helpers ----

    pub fn load(&mut self, ty: IrType, ptr: Value) -> Value {
        let dest = self.value();
        self.emit(Instruction::Load {
            dest,
            ptr,
            ty,
            seg_override: AddressSpace::Default,
        });
        dest
    }

    pub fn store(&mut self, ty: IrType, val: Operand, ptr: Value) {
        self.emit(Instruction::Store {
            val,
            ptr,
            ty,
            seg_override: AddressSpace::Default,
        });
    }

    pub fn memcpy(&mut self, dest: Value, src: Value, size: u64) {
        if size > 0 {
            self.emit(Instruction::Memcpy {
                dest,
                src,
                size: size as usize,
            });
        }
    }

    pub fn binop(&mut self, op: IrBinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Value {
        let dest = self.value();
        self.emit(Instruction::BinOp { dest, op, lhs, rhs, ty });
        dest
    }

    pub fn unop(&mut self, op: IrUnaryOp, ty: IrType, src: Operand) -> Value {
        let dest = self.value();
        self.emit(Instruction::UnaryOp { dest, op, src, ty });
        dest
    }

    /// A comparison: an `i8` 0/1.
    pub fn cmp(&mut self, op: IrCmpOp, ty: IrType, lhs: Operand, rhs: Operand) -> Value {
        let dest = self.value();
        self.emit(Instruction::Cmp { dest, op, lhs, rhs, ty });
        dest
    }

    pub fn cast(&mut self, from: IrType, to: IrType, src: Operand) -> Value {
        let dest = self.value();
        self.emit(Instruction::Cast {
            dest,
            src,
            from_ty: from,
            to_ty: to,
        });
        dest
    }

    /// `base + offset` (bytes); `ty` is the type addressed.
    pub fn gep(&mut self, ty: IrType, base: Value, offset: Operand) -> Value {
        let dest = self.value();
        self.emit(Instruction::GetElementPtr { dest, base, offset, ty });
        dest
    }

    /// `base + offset` for a constant offset (no instruction for 0).
    pub fn offset(&mut self, ty: IrType, base: Value, offset: u64) -> Value {
        if offset == 0 {
            base
        } else {
            self.gep(ty, base, Operand::Const(IrConst::I64(offset as i64)))
        }
    }

    pub fn global_addr(&mut self, name: &str) -> Value {
        let dest = self.value();
        self.emit(Instruction::GlobalAddr {
            dest,
            name: name.to_string(),
        });
        dest
    }

    pub fn call(&mut self, func: &str, info: CallInfo) {
        self.emit(Instruction::Call {
            func: func.to_string(),
            info: Box::new(info),
        });
    }

    /// An operand as a value (constants are materialized with a `copy`).
    pub fn as_value(&mut self, op: Operand) -> Value {
        match op {
            Operand::Value(v) => v,
            Operand::Const(c) => {
                let dest = self.value();
                self.emit(Instruction::Copy {
                    dest,
                    src: Operand::Const(c),
                });
                dest
            }
        }
    }

    /// Closes the function: the open block gets `fallthrough`, the allocas
    /// go to the entry, unreachable blocks are deleted (`roots` are kept
    /// alive besides the entry and `labeladdr` targets), and any branch
    /// target that was never started becomes an `unreachable` block.
    pub fn finish(mut self, fallthrough: Terminator, roots: &[BlockId]) -> (Vec<BasicBlock>, u32, u32) {
        if self.open.is_some() {
            self.terminate(fallthrough);
        }
        let mut blocks = std::mem::take(&mut self.blocks);
        if let Some(entry) = blocks.first_mut() {
            let mut insts = std::mem::take(&mut self.allocas);
            insts.append(&mut entry.instructions);
            entry.instructions = insts;
        }
        // Targets never started (cannot happen for well-formed input, but the
        // verifier must still accept the function).
        let present: FxHashSet<BlockId> = blocks.iter().map(|b| b.label).collect();
        let mut missing: Vec<BlockId> = Vec::new();
        for b in &blocks {
            let mut note = |t: BlockId| {
                if !present.contains(&t) && !missing.contains(&t) {
                    missing.push(t)
                }
            };
            b.terminator.for_each_successor(&mut note);
            for inst in &b.instructions {
                for (_, t) in inst.asm_goto_targets() {
                    note(*t);
                }
                if let Instruction::LabelAddr { label, .. } = inst {
                    note(*label);
                }
            }
        }
        for &r in roots {
            if !present.contains(&r) && !missing.contains(&r) {
                missing.push(r);
            }
        }
        blocks.extend(missing.into_iter().map(BasicBlock::new));
        let blocks = prune_unreachable(blocks, self.entry, roots);
        (blocks, self.next_value, self.next_block)
    }
}

/// Keeps the blocks reachable from the entry, from `roots`, or from the target
/// of any `labeladdr` in a kept block.
fn prune_unreachable(blocks: Vec<BasicBlock>, entry: BlockId, roots: &[BlockId]) -> Vec<BasicBlock> {
    let index: FxHashMap<BlockId, usize> = blocks.iter().enumerate().map(|(i, b)| (b.label, i)).collect();
    let mut keep = vec![false; blocks.len()];
    let mut work: Vec<BlockId> = vec![entry];
    work.extend_from_slice(roots);
    // Label addresses taken anywhere keep their block: an indirect branch
    // may reach it even when the taking block itself is dead.
    for b in &blocks {
        for inst in &b.instructions {
            if let Instruction::LabelAddr { label, .. } = inst {
                work.push(*label);
            }
        }
    }
    while let Some(id) = work.pop() {
        let Some(&i) = index.get(&id) else { continue };
        if keep[i] {
            continue;
        }
        keep[i] = true;
        let b = &blocks[i];
        b.terminator.for_each_successor(|s| work.push(s));
        for inst in &b.instructions {
            for (_, t) in inst.asm_goto_targets() {
                work.push(*t);
            }
        }
    }
    blocks
        .into_iter()
        .zip(keep)
        .filter_map(|(b, k)| k.then_some(b))
        .collect()
}
