//! Random IR programs for fuzzing mem2reg and phi elimination, built from an
//! `arbitrary::Unstructured` so that libFuzzer's byte mutations stay meaningful.
//!
//! Every byte string gives a valid module (no rejection loop): choices read
//! from exhausted input fall back to the first alternative, and generation is
//! correct by construction in the manner of Cranelift's fuzzgen:
//!
//! - control flow is structured (a spine of statements; if/else diamonds,
//!   bounded loops, switches, asm goto, computed goto), so every block is
//!   reachable and every loop runs a bounded number of times;
//! - each SSA value is used only in the block that defines it (alloca form
//!   reloads variables), so dominance holds trivially;
//! - division and shift operands are masked so traps stay rare.
//!
//! Two modes: [`alloca`] (what the C frontend produces; exercises mem2reg,
//! copy propagation and phi elimination) and [`ssa`] (phis reading phis,
//! critical edges; exercises phi elimination alone).

pub mod alloca;
mod callgraph;
pub mod ssa;

use arbitrary::Unstructured;

/// Which generator feeds the campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GenMode {
    /// Alloca-form programs through the whole mem2reg pipeline.
    Alloca,
    /// SSA-form programs through phi elimination only.
    Ssa,
}

/// The bytes of input `index` of a campaign seeded with `seed`.
pub fn input_bytes(seed: u64, index: u64) -> Vec<u8> {
    let mut state = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5851_f42d_4c95_7f2d;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let len = 64 + (next() % 4032) as usize;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        out.extend_from_slice(&next().to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Generate the module for `bytes` in `mode`.
pub fn generate(bytes: &[u8], mode: GenMode) -> phicc::ir::module::IrModule {
    let mut u = Unstructured::new(bytes);
    match mode {
        GenMode::Alloca => alloca::generate(&mut u),
        GenMode::Ssa => ssa::generate(&mut u),
    }
}

/// Instruction emission shared by the generators: an implementor provides
/// fresh values and appends to its current block; the helpers build on that.
pub(crate) trait Emit {
    fn value(&mut self) -> phicc::ir::instruction::Value;
    fn emit(&mut self, inst: phicc::ir::instruction::Instruction);

    /// `dest = lhs op rhs` at `ty`.
    fn binop(
        &mut self,
        op: phicc::ir::ops::IrBinOp,
        lhs: phicc::ir::instruction::Operand,
        rhs: phicc::ir::instruction::Operand,
        ty: phicc::ir::types::IrType,
    ) -> phicc::ir::instruction::Operand {
        let dest = self.value();
        self.emit(phicc::ir::instruction::Instruction::BinOp { dest, op, lhs, rhs, ty });
        phicc::ir::instruction::Operand::Value(dest)
    }

    /// `src` converted from `from_ty` to `to_ty` (no instruction when they are equal).
    fn cast(
        &mut self,
        src: phicc::ir::instruction::Operand,
        from_ty: phicc::ir::types::IrType,
        to_ty: phicc::ir::types::IrType,
    ) -> phicc::ir::instruction::Operand {
        if from_ty == to_ty {
            return src;
        }
        let dest = self.value();
        self.emit(phicc::ir::instruction::Instruction::Cast {
            dest,
            src,
            from_ty,
            to_ty,
        });
        phicc::ir::instruction::Operand::Value(dest)
    }
}

/// Total choice helpers over `Unstructured` that never fail: when the input
/// is exhausted they return the smallest alternative.
pub(crate) struct Choices<'a, 'b> {
    pub u: &'a mut Unstructured<'b>,
}

impl<'a, 'b> Choices<'a, 'b> {
    pub fn new(u: &'a mut Unstructured<'b>) -> Self {
        Choices { u }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    /// An index below `n` (`n > 0`).
    pub fn index(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.range(0, n as u64 - 1) as usize
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.index(xs.len())]
    }

    /// True with probability about `num / den`; false once the input is
    /// exhausted (so short inputs give small programs).
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.range(0, den - 1) >= den - num
    }

    /// Raw random bits for constants.
    pub fn bits(&mut self) -> u64 {
        let mut b = [0u8; 8];
        let _ = self.u.fill_buffer(&mut b);
        u64::from_le_bytes(b)
    }

    pub fn is_exhausted(&self) -> bool {
        self.u.is_empty()
    }
}
