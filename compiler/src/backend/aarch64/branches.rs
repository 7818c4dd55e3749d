//! Branches: conditions, far conditional branches, and `switch` as a
//! compare chain or a jump table of 32-bit offsets placed right after the
//! indirect branch (so the label differences resolve at assembly time).

use super::regs::Xr;
use super::{emit, FnEmitter, HomeReg};
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::switch::{normalize_case, plan_switch, SwitchPlan};
use crate::backend::{block_label, BackendError};
use crate::ir::instruction::{BlockId, Operand};
use crate::ir::types::IrType;
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    /// `b.<cc> target`, through an inverted branch over `b` in far mode.
    pub(super) fn branch_if(&mut self, cc: &str, target: &str) {
        if self.far_branches {
            let skip = self.cx.labels.fresh();
            emit!(self, "\tb.{}\t.Ltmp{skip}", invert_cc(cc));
            emit!(self, "\tb\t{target}");
            emit!(self, ".Ltmp{skip}:");
        } else {
            emit!(self, "\tb.{cc}\t{target}");
        }
    }

    /// `cmp x9, #v` for a 64-bit value `v` (through `x10` when no immediate form fits).
    pub(super) fn cmp_x9_imm(&mut self, v: i64) {
        if (0..4096).contains(&v) {
            emit!(self, "\tcmp\tx9, #{v}");
        } else if (-4095..0).contains(&v) {
            emit!(self, "\tcmn\tx9, #{}", -v);
        } else {
            self.mov_imm(Xr(10), v as u64);
            emit!(self, "\tcmp\tx9, x10");
        }
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
            self.load_pair(val, Xr(9), Xr(10))?;
            let mut seen = Vec::new();
            for &(c, b) in cases {
                let v = normalize_case(c, ty);
                if seen.contains(&v) {
                    continue;
                }
                seen.push(v);
                let (lo, hi) = (v as u128 as u64, ((v as u128) >> 64) as u64);
                self.mov_imm(Xr(11), lo);
                self.mov_imm(Xr(12), hi);
                emit!(self, "\tcmp\tx9, x11");
                emit!(self, "\tccmp\tx10, x12, #0, eq");
                self.branch_if("eq", &block_label(b));
            }
            emit!(self, "\tb\t{}", block_label(default));
            return Ok(());
        }
        self.load(val, ty, Xr(9))?;
        self.switch_plan(plan_switch(cases, default, ty), ty.is_signed(), default);
        Ok(())
    }

    /// The code of a switch plan over the value in `x9` (extended from the
    /// switch type by its signedness); `signed` orders a binary search.
    fn switch_plan(&mut self, plan: SwitchPlan, signed: bool, default: BlockId) {
        match plan {
            SwitchPlan::CompareChain { cases } => {
                for (v, b) in cases {
                    self.cmp_x9_imm(v as u64 as i64);
                    self.branch_if("eq", &block_label(b));
                }
                emit!(self, "\tb\t{}", block_label(default));
            }
            SwitchPlan::Split { pivot, below, above } => {
                let low = self.cx.labels.fresh();
                self.cmp_x9_imm(pivot as u64 as i64);
                self.branch_if(if signed { "lt" } else { "lo" }, &format!(".Lsw{low}"));
                self.switch_plan(*above, signed, default);
                emit!(self, ".Lsw{low}:");
                self.switch_plan(*below, signed, default);
            }
            SwitchPlan::JumpTable { min, table } => {
                let min = min as u64 as i64;
                if min != 0 {
                    if (-4095..4096).contains(&min) {
                        self.add_imm(Xr(9), Xr(9), -min);
                    } else {
                        self.mov_imm(Xr(10), min as u64);
                        emit!(self, "\tsub\tx9, x9, x10");
                    }
                }
                let jt = self.cx.labels.fresh();
                self.cmp_x9_imm(table.len() as i64 - 1);
                self.branch_if("hi", &block_label(default));
                emit!(self, "\tadr\tx10, .LJT{jt}");
                emit!(self, "\tldrsw\tx11, [x10, x9, lsl #2]");
                emit!(self, "\tadd\tx10, x10, x11");
                emit!(self, "\tbr\tx10");
                // The table follows the branch in the text section, so the
                // label differences resolve at assembly time.
                emit!(self, "\t.p2align\t2\n.LJT{jt}:");
                for b in table {
                    emit!(self, "\t.word\t.LBB{}-.LJT{jt}", b.0);
                }
            }
        }
    }

    /// Sets the flags so that `ne` holds when the condition is true (a
    /// value in memory through `x9`/`x10`); `Some(value)` for a condition
    /// known at compile time.
    pub(super) fn load_cond(&mut self, cond: &Operand) -> Result<Option<bool>, BackendError> {
        match cond {
            Operand::Const(c) => Ok(Some(c.is_nonzero())),
            Operand::Value(v) => {
                let ty = self.types.of(*v);
                match self.layout.home(*v) {
                    Home::Alloca { .. } | Home::FrameAddr(_) => Ok(Some(true)),
                    Home::None => Err(self.internal(format!("{v} is used but never defined"))),
                    Home::Reg(p) => {
                        let size = if ty == IrType::Void { 8 } else { ty.size().clamp(1, 8) };
                        match super::phys(p) {
                            HomeReg::X(x) => match size {
                                1 => emit!(self, "\ttst\t{}, #0xff", x.w()),
                                2 => emit!(self, "\ttst\t{}, #0xffff", x.w()),
                                3 | 4 => emit!(self, "\tcmp\t{}, #0", x.w()),
                                _ => emit!(self, "\tcmp\t{}, #0", x.x()),
                            },
                            HomeReg::V(r) => {
                                // The value's bits, as from a slot.
                                if size <= 4 {
                                    emit!(self, "\tfmov\tw9, {}", r.s());
                                } else {
                                    emit!(self, "\tfmov\tx9, {}", r.d());
                                }
                                emit!(self, "\tcmp\tx9, #0");
                            }
                        }
                        Ok(None)
                    }
                    h @ Home::SymbolAddr { sym, .. } => {
                        // A weak undefined symbol's address may be null.
                        let name = self.layout.symbol(sym).clone();
                        if self.cx.is_defined(&name) {
                            return Ok(Some(true));
                        }
                        self.materialize(h, Xr(9))?;
                        emit!(self, "\tcmp\tx9, #0");
                        Ok(None)
                    }
                    Home::Slot(off) => {
                        let m = self.area(off);
                        if ty.size() > 8 {
                            self.load_mem(m, 8, false, Xr(9));
                            self.load_mem(m.at(8), 8, false, Xr(10));
                            emit!(self, "\torr\tx9, x9, x10");
                        } else {
                            let size = if ty == IrType::Void { 8 } else { ty.size() };
                            self.load_mem(m, size, false, Xr(9));
                        }
                        emit!(self, "\tcmp\tx9, #0");
                        Ok(None)
                    }
                }
            }
        }
    }
}

/// The inverse of a condition code.
pub(super) fn invert_cc(cc: &str) -> &'static str {
    match cc {
        "eq" => "ne",
        "ne" => "eq",
        "lt" => "ge",
        "ge" => "lt",
        "gt" => "le",
        "le" => "gt",
        "lo" => "hs",
        "hs" => "lo",
        "hi" => "ls",
        "ls" => "hi",
        "mi" => "pl",
        "pl" => "mi",
        "vs" => "vc",
        _ => "vs",
    }
}
