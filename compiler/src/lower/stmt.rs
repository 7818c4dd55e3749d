//! Statements (C11 6.8): blocks, declarations, selection, iteration and
//! jumps as control flow between basic blocks.
//!
//! Loops use one block for the test, one for the body, one for the step
//! (`continue` target) and one after the loop (`break` target). Labels get
//! their block on first mention, so a `goto` may precede its label. Storage
//! of VLAs is allocated by `dynalloca` after a `stacksave` taken at the first
//! VLA of a block; the block's normal end, and any `break`/`continue`/`goto`
//! that leaves it, restores the stack (a forward `goto` through a block
//! filled in when its label is reached, where the label's VLA depth is known).

use super::function::{FnLower, JumpTarget};
use super::LResult;
use crate::frontend::hir::{Stmt, StmtKind};
use crate::frontend::source::Diagnostic;
use crate::ir::constants::IrConst;
use crate::ir::instruction::{Instruction, Operand, Terminator};
use crate::ir::ops::IrBinOp;
use crate::ir::types::IrType;

impl FnLower<'_, '_> {
    pub fn stmt(&mut self, s: &Stmt) -> LResult<()> {
        match &s.kind {
            StmtKind::Empty => Ok(()),
            StmtKind::Expr(e) => self.effect(e),
            StmtKind::Block(items) => {
                let depth = self.vla_saves.len();
                let saved_base = std::mem::replace(&mut self.vla_base, depth);
                for item in items {
                    self.stmt(item)?;
                }
                self.vla_base = saved_base;
                self.close_vla_scopes(depth);
                Ok(())
            }
            StmtKind::Decl { local, init } => {
                if let Some(init) = init {
                    let l = self.local(*local);
                    let addr = self.local_addr(*local, l.span)?;
                    self.init_object(addr, &l.ty, init, l.align)?;
                }
                Ok(())
            }
            StmtKind::VlaAlloc {
                local,
                count,
                elem_size,
                count_local,
            } => self.vla_alloc(s, *local, count, *elem_size, *count_local),
            StmtKind::If { cond, then, els } => {
                let t = self.b.new_block();
                let end = self.b.new_block();
                let f = if els.is_some() { self.b.new_block() } else { end };
                self.branch_on(cond, t, f)?;
                self.b.start(t);
                self.stmt(then)?;
                self.b.branch(end);
                if let Some(els) = els {
                    self.b.start(f);
                    self.stmt(els)?;
                    self.b.branch(end);
                }
                self.b.start(end);
                Ok(())
            }
            StmtKind::While { cond, body } => {
                let (test, body_bb, end) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.b.start(test);
                self.branch_on(cond, body_bb, end)?;
                self.b.start(body_bb);
                self.loop_body(body, end, test)?;
                self.b.branch(test);
                self.b.start(end);
                Ok(())
            }
            StmtKind::DoWhile { body, cond } => {
                let (body_bb, test, end) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.b.start(body_bb);
                self.loop_body(body, end, test)?;
                self.b.start(test);
                self.branch_on(cond, body_bb, end)?;
                self.b.start(end);
                Ok(())
            }
            StmtKind::For { init, cond, step, body } => {
                // The scope of a declaration in the init clause is the loop.
                let depth = self.vla_saves.len();
                let saved_base = std::mem::replace(&mut self.vla_base, depth);
                if let Some(init) = init {
                    match &init.kind {
                        StmtKind::Block(items) => {
                            for item in items {
                                self.stmt(item)?;
                            }
                        }
                        _ => self.stmt(init)?,
                    }
                }
                let (test, body_bb, step_bb, end) = (
                    self.b.new_block(),
                    self.b.new_block(),
                    self.b.new_block(),
                    self.b.new_block(),
                );
                self.b.start(test);
                match cond {
                    Some(c) => self.branch_on(c, body_bb, end)?,
                    None => self.b.branch(body_bb),
                }
                self.b.start(body_bb);
                self.loop_body(body, end, step_bb)?;
                self.b.start(step_bb);
                if let Some(step) = step {
                    self.effect(step)?;
                }
                self.b.branch(test);
                self.b.start(end);
                self.vla_base = saved_base;
                self.close_vla_scopes(depth);
                Ok(())
            }
            StmtKind::Switch {
                cond,
                body,
                cases,
                default,
            } => self.switch(cond, body, cases, *default),
            StmtKind::Case(id) => {
                let block = self
                    .cases
                    .last()
                    .and_then(|m| m.get(id).copied())
                    .ok_or_else(|| Diagnostic::error(s.span, "'case' label not within a switch statement"))?;
                self.b.start(block);
                Ok(())
            }
            StmtKind::Break => {
                let t = *self
                    .breaks
                    .last()
                    .ok_or_else(|| Diagnostic::error(s.span, "'break' statement not in loop or switch statement"))?;
                self.jump(t);
                Ok(())
            }
            StmtKind::Continue => {
                let t = *self
                    .continues
                    .last()
                    .ok_or_else(|| Diagnostic::error(s.span, "'continue' statement not in loop statement"))?;
                self.jump(t);
                Ok(())
            }
            StmtKind::Return(value) => self.ret(value.as_ref()),
            StmtKind::Label(l) => {
                let block = self.label_block(*l);
                let depth = self.vla_saves.len();
                self.label_vla_depth.insert(*l, depth);
                if let Some(jumps) = self.pending_vla_gotos.remove(l) {
                    self.b.branch(block);
                    for (from, saves) in jumps {
                        self.b.start(from);
                        if let Some(&save) = saves.get(depth) {
                            self.b.emit(Instruction::StackRestore { ptr: save });
                        }
                        self.b.branch(block);
                    }
                }
                self.b.start(block);
                Ok(())
            }
            StmtKind::Goto(l) => {
                // C11 6.8.6.1p1 forbids jumping into the scope of a VLA, so
                // the VLAs live at the label are a prefix of those live here:
                // the others are freed, as when their block ends (a loop
                // made of `goto` must not grow the stack: gcc.c-torture/
                // execute/vla-dealloc-1.c).
                let block = self.label_block(*l);
                if self.vla_saves.is_empty() || !self.b.is_open() {
                    self.b.branch(block);
                } else if let Some(&depth) = self.label_vla_depth.get(l) {
                    if let Some(&save) = self.vla_saves.get(depth) {
                        self.b.emit(Instruction::StackRestore { ptr: save });
                    }
                    self.b.branch(block);
                } else {
                    let from = self.b.new_block();
                    let saves = self.vla_saves.clone();
                    self.pending_vla_gotos.entry(*l).or_default().push((from, saves));
                    self.b.branch(from);
                }
                Ok(())
            }
            StmtKind::GotoIndirect { target, targets } => {
                let v = self.scalar(target)?;
                let mut blocks = Vec::new();
                for l in targets {
                    let b = self.label_block(*l);
                    if !blocks.contains(&b) {
                        blocks.push(b);
                    }
                }
                self.b.terminate(Terminator::IndirectBranch {
                    target: v,
                    possible_targets: blocks,
                });
                Ok(())
            }
            StmtKind::Asm(asm) => self.asm(asm),
        }
    }

    /// A loop body with its `break` and `continue` targets.
    fn loop_body(
        &mut self,
        body: &Stmt,
        brk: crate::ir::instruction::BlockId,
        cont: crate::ir::instruction::BlockId,
    ) -> LResult<()> {
        let depth = self.vla_saves.len();
        self.breaks.push(JumpTarget {
            block: brk,
            vla_depth: depth,
        });
        self.continues.push(JumpTarget {
            block: cont,
            vla_depth: depth,
        });
        let r = self.stmt(body);
        self.breaks.pop();
        self.continues.pop();
        r
    }

    /// A jump to an enclosing loop's or switch's target, freeing the VLAs
    /// allocated since that construct began.
    pub fn jump(&mut self, t: JumpTarget) {
        if self.b.is_open() && self.vla_saves.len() > t.vla_depth {
            let save = self.vla_saves[t.vla_depth];
            self.b.emit(Instruction::StackRestore { ptr: save });
        }
        self.b.branch(t.block);
    }

    /// Ends the VLA scopes opened since `depth` (on the fall-through path).
    fn close_vla_scopes(&mut self, depth: usize) {
        if self.vla_saves.len() > depth {
            let save = self.vla_saves[depth];
            if self.b.is_open() {
                self.b.emit(Instruction::StackRestore { ptr: save });
            }
            self.vla_saves.truncate(depth);
        }
    }

    fn vla_alloc(
        &mut self,
        s: &Stmt,
        local: crate::frontend::hir::LocalId,
        count: &crate::frontend::hir::Expr,
        elem_size: u64,
        count_local: crate::frontend::hir::LocalId,
    ) -> LResult<()> {
        if self.vla_saves.len() == self.vla_base {
            let dest = self.b.value();
            self.b.emit(Instruction::StackSave { dest });
            self.vla_saves.push(dest);
        }
        let cty = self.ir(&count.ty.ty, count.span)?;
        let n = self.scalar(count)?;
        let n = self.int_resize(n, cty, IrType::U64);
        let count_addr = self.local_addr(count_local, s.span)?;
        self.b.store(IrType::U64, n, count_addr);
        let size: Operand = match n {
            Operand::Const(c) => Operand::Const(IrConst::I64(c.to_i64().unwrap_or(0).wrapping_mul(elem_size as i64))),
            v => self
                .b
                .binop(
                    IrBinOp::Mul,
                    IrType::U64,
                    v,
                    Operand::Const(IrConst::I64(elem_size as i64)),
                )
                .into(),
        };
        let align = self.local(local).align.max(16).next_power_of_two();
        let dest = self.b.value();
        self.b.emit(Instruction::DynAlloca {
            dest,
            size,
            align: align as usize,
        });
        match self.locals.get(local.0 as usize).copied().flatten() {
            Some(super::function::LocalSlot::Indirect(slot)) => {
                self.b.store(IrType::Ptr, dest.into(), slot);
                Ok(())
            }
            _ => Err(Diagnostic::error(
                s.span,
                "internal: VLA storage for a local that is not a VLA",
            )),
        }
    }

    fn ret(&mut self, value: Option<&crate::frontend::hir::Expr>) -> LResult<()> {
        let Some(e) = value else {
            self.b.terminate(Terminator::Return(None));
            return Ok(());
        };
        if let Some(slot) = self.sret_slot {
            let src = self.aggregate(e)?;
            let dest = self.b.load(IrType::Ptr, slot);
            let size = self.cx.types.size_of(&e.ty.ty).unwrap_or(0);
            self.b.memcpy(dest, src, size);
            self.b.terminate(Terminator::Return(None));
        } else if self.ret_type == IrType::Void {
            self.effect(e)?;
            self.b.terminate(Terminator::Return(None));
        } else {
            let v = self.scalar(e)?;
            self.b.terminate(Terminator::Return(Some(v)));
        }
        Ok(())
    }
}
