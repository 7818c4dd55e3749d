//! `switch` (C11 6.8.4.2) to the `Switch` terminator.
//!
//! Each `case`/`default` position gets a block. Case values (already of the
//! promoted controlling type) become `i64` entries holding the value's bits
//! at the switch type's width, which the terminator compares at that width.
//! GNU case ranges `lo ... hi` are expanded into one entry per value when
//! they have at most [`MAX_EXPANDED_RANGE`] values; larger ranges, and
//! values of a 128-bit switch that no `i64` holds, are tested by a chain of
//! compare blocks reached from the switch's default edge: `(x - lo) <=u
//! (hi - lo)` for a range, `x == v` for a single value.

use super::function::{FnLower, JumpTarget};
use super::LResult;
use crate::frontend::hir::{CaseId, Expr, Stmt, SwitchCase};
use crate::ir::constants::{sext, zext, IrConst};
use crate::ir::instruction::{BlockId, Operand, Terminator};
use crate::ir::ops::{IrBinOp, IrCmpOp};
use crate::ir::types::IrType;
use rustc_hash::FxHashMap;

/// Ranges with more values than this become compare chains.
pub const MAX_EXPANDED_RANGE: i128 = 64;

impl FnLower<'_, '_> {
    pub(super) fn switch(
        &mut self,
        cond: &Expr,
        body: &Stmt,
        cases: &[SwitchCase],
        default: Option<CaseId>,
    ) -> LResult<()> {
        let ty = self.ir(&cond.ty.ty, cond.span)?;
        let v = self.scalar(cond)?;
        let end = self.b.new_block();
        let mut blocks: FxHashMap<CaseId, BlockId> = FxHashMap::default();
        for c in cases {
            if let std::collections::hash_map::Entry::Vacant(slot) = blocks.entry(c.id) {
                slot.insert(self.b.new_block());
            }
        }
        let default_block = match default {
            Some(id) => {
                let b = self.b.new_block();
                blocks.insert(id, b);
                b
            }
            None => end,
        };
        let bits = ty.bits();
        let mut entries: Vec<(i64, BlockId)> = Vec::new();
        let mut chain: Vec<(i128, i128, BlockId)> = Vec::new();
        for c in cases {
            let target = blocks[&c.id];
            let fits = |x: i128| bits <= 64 || (x >= i64::MIN as i128 && x <= i64::MAX as i128);
            let span = c.hi.wrapping_sub(c.lo);
            if (0..MAX_EXPANDED_RANGE).contains(&span) && fits(c.lo) && fits(c.hi) {
                let mut x = c.lo;
                loop {
                    entries.push((case_bits(x, bits), target));
                    if x == c.hi {
                        break;
                    }
                    x += 1;
                }
            } else {
                chain.push((c.lo, c.hi, target));
            }
        }
        let mut seen = rustc_hash::FxHashSet::default();
        entries.retain(|(x, _)| seen.insert(*x));
        let chain_head = if chain.is_empty() {
            default_block
        } else {
            self.b.new_block()
        };
        self.b.terminate(Terminator::Switch {
            val: v,
            cases: entries,
            default: chain_head,
            ty,
        });
        if !chain.is_empty() {
            self.b.start(chain_head);
            let n = chain.len();
            for (i, (lo, hi, target)) in chain.into_iter().enumerate() {
                let next = if i + 1 == n { default_block } else { self.b.new_block() };
                let flag = if lo == hi {
                    self.b.cmp(IrCmpOp::Eq, ty, v, Operand::Const(int_const(lo, ty)))
                } else {
                    let d = self.b.binop(IrBinOp::Sub, ty, v, Operand::Const(int_const(lo, ty)));
                    let width = hi.wrapping_sub(lo);
                    self.b.cmp(
                        IrCmpOp::Ule,
                        ty.to_unsigned(),
                        d.into(),
                        Operand::Const(int_const(width, ty)),
                    )
                };
                self.b.cond_branch(flag.into(), target, next);
                if i + 1 < n {
                    self.b.start(next);
                }
            }
        }
        self.cases.push(blocks);
        self.breaks.push(JumpTarget {
            block: end,
            vla_depth: self.vla_saves.len(),
        });
        let r = self.stmt(body);
        self.breaks.pop();
        let blocks = self.cases.pop().unwrap_or_default();
        r?;
        // A `case` whose statement was never reached in the body still needs
        // its block (it falls to the end).
        for (_, b) in blocks {
            if b != end && !self.b_started(b) {
                self.b.start(b);
                self.b.branch(end);
            }
        }
        self.b.start(end);
        Ok(())
    }

    fn b_started(&self, b: BlockId) -> bool {
        self.b.has_block(b)
    }
}

/// The `i64` case entry for value `x` of a switch of `bits` width.
fn case_bits(x: i128, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        sext(zext(x as u128, bits), bits) as i64
    }
}

fn int_const(x: i128, ty: IrType) -> IrConst {
    IrConst::from_i128(x, ty)
}
