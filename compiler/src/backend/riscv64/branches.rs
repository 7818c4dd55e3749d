//! Branches to blocks and `switch`: near branches (`j`, `b<cond>`, which the
//! assembler relaxes past a conditional branch's 4 KiB), or in a function
//! beyond `j`'s 1 MiB reach the far form `jump label, t6`; `switch` as a
//! compare chain or a jump table of 32-bit offsets from the table
//! ([`crate::backend::switch`] decides), 128-bit switches compare both halves.

use super::regs::{Gpr, T0, T1, T2};
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::switch::{normalize_case, plan_switch, SwitchPlan};
use crate::backend::{block_label, BackendError};
use crate::ir::instruction::{BlockId, Operand};
use crate::ir::types::IrType;
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    /// An unconditional branch to block `b`.
    pub(super) fn jump(&mut self, b: BlockId) {
        if self.far {
            emit!(self, "\tjump\t{}, t6", block_label(b));
        } else {
            emit!(self, "\tj\t{}", block_label(b));
        }
    }

    /// `if (operands satisfy cond) goto b`, `cond` one of `beqz bnez beq bne
    /// bgtu blt bge bltu bgeu`.
    pub(super) fn branch(&mut self, cond: &str, operands: &str, b: BlockId) {
        if !self.far {
            emit!(self, "\t{cond}\t{operands}, {}", block_label(b));
            return;
        }
        let inverse = match cond {
            "beqz" => "bnez",
            "bnez" => "beqz",
            "beq" => "bne",
            "bne" => "beq",
            "bgtu" => "bleu",
            "blt" => "bge",
            "bge" => "blt",
            "bltu" => "bgeu",
            "bgeu" => "bltu",
            other => other,
        };
        let skip = self.cx.labels.fresh();
        emit!(self, "\t{inverse}\t{operands}, .Lnear{skip}");
        self.jump(b);
        emit!(self, ".Lnear{skip}:");
    }

    /// Emits the body of a `switch`.
    pub(super) fn switch(
        &mut self,
        val: &Operand,
        ty: IrType,
        cases: &[(i64, BlockId)],
        default: BlockId,
    ) -> Result<(), BackendError> {
        if !ty.is_int_or_ptr() {
            return Err(self.internal(format!("switch on {ty}")));
        }
        if ty.is_128() {
            self.load_pair(val, ty, T0, T1)?;
            let mut seen = Vec::new();
            for &(c, b) in cases {
                let v = normalize_case(c, ty);
                if seen.contains(&v) {
                    continue;
                }
                seen.push(v);
                let (lo, hi) = (v as u128 as u64 as i64, ((v as u128) >> 64) as u64 as i64);
                let next = self.cx.labels.fresh();
                self.li(T2, lo);
                emit!(self, "\tbne\tt0, t2, .Ltmp{next}");
                self.li(T2, hi);
                self.branch("beq", "t1, t2", b);
                emit!(self, ".Ltmp{next}:");
            }
            self.jump(default);
            return Ok(());
        }
        self.load(val, ty, T0)?;
        self.switch_plan(plan_switch(cases, default, ty), ty.is_signed(), default);
        Ok(())
    }

    /// The code of a switch plan over the value in `t0` (extended from the
    /// switch type by its signedness); `signed` orders a binary search.
    fn switch_plan(&mut self, plan: SwitchPlan, signed: bool, default: BlockId) {
        match plan {
            SwitchPlan::CompareChain { cases } => {
                for (v, b) in cases {
                    let v = v as u64 as i64;
                    if v == 0 {
                        self.branch("beqz", "t0", b);
                    } else {
                        self.li(T1, v);
                        self.branch("beq", "t0, t1", b);
                    }
                }
                self.jump(default);
            }
            SwitchPlan::Split { pivot, below, above } => {
                let low = self.cx.labels.fresh();
                self.li(T1, pivot as u64 as i64);
                let (lt, ge) = if signed { ("blt", "bge") } else { ("bltu", "bgeu") };
                if self.far {
                    let skip = self.cx.labels.fresh();
                    emit!(self, "\t{ge}\tt0, t1, .Lnear{skip}");
                    emit!(self, "\tjump\t.Lsw{low}, t6");
                    emit!(self, ".Lnear{skip}:");
                } else {
                    emit!(self, "\t{lt}\tt0, t1, .Lsw{low}");
                }
                self.switch_plan(*above, signed, default);
                emit!(self, ".Lsw{low}:");
                self.switch_plan(*below, signed, default);
            }
            SwitchPlan::JumpTable { min, table } => {
                let min = min as u64 as i64;
                if min != 0 {
                    self.li(T1, min);
                    emit!(self, "\tsub\tt0, t0, t1");
                }
                let jt = self.cx.labels.fresh();
                self.li(T1, table.len() as i64 - 1);
                self.branch("bgtu", "t0, t1", default);
                emit!(self, "\tlla\tt1, .LJT{jt}");
                emit!(self, "\tslli\tt0, t0, 2");
                emit!(self, "\tadd\tt0, t0, t1");
                emit!(self, "\tlw\tt0, 0(t0)");
                emit!(self, "\tadd\tt0, t0, t1");
                emit!(self, "\tjr\tt0");
                let ro = &mut self.cx.rodata;
                let _ = writeln!(ro, "\t.p2align\t2\n.LJT{jt}:");
                for b in table {
                    let _ = writeln!(ro, "\t.word\t.LBB{}-.LJT{jt}", b.0);
                }
            }
        }
    }

    /// Puts a branch condition in a register (nonzero = true): its home
    /// register, or `t0`; `Err(value)` for a constant condition.
    pub(super) fn load_cond(&mut self, cond: &Operand) -> Result<Result<Gpr, bool>, BackendError> {
        match cond {
            Operand::Const(c) => Ok(Err(c.is_nonzero())),
            Operand::Value(v) => {
                let ty = self.types.of(*v);
                match self.layout.home(*v) {
                    Home::Alloca { .. } | Home::FrameAddr(_) => Ok(Err(true)),
                    home @ Home::SymbolAddr { .. } => {
                        // A weak symbol's address may be null.
                        self.materialize(home, T0);
                        Ok(Ok(T0))
                    }
                    Home::None => Err(self.internal(format!("{v} is used but never defined"))),
                    Home::Reg(_) => match self.gpr_of(*v) {
                        // Kept extended from its size: nonzero iff its bytes are.
                        Some(g) => Ok(Ok(g)),
                        None => {
                            self.load_int(cond, ty, false, T0)?;
                            Ok(Ok(T0))
                        }
                    },
                    Home::Slot(off) => {
                        let m = self.area(off);
                        if ty.size() > 8 {
                            self.load_mem(m, 8, false, T0);
                            self.load_mem(m.at(8), 8, false, T1);
                            emit!(self, "\tor\tt0, t0, t1");
                        } else {
                            let size = if ty == IrType::Void { 8 } else { ty.size().max(1) };
                            self.load_mem(m, size, false, T0);
                        }
                        Ok(Ok(T0))
                    }
                }
            }
        }
    }
}
