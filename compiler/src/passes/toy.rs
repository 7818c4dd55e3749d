//! A toy pass (scratch: proves the pass table is the only list): counts the
//! instructions of a function; with `TOY_BREAK` set in the environment it
//! turns every `add` into `sub`, so the checks must blame it.

use crate::ir::reexports::*;

/// Counts the instructions of `func` (and breaks it under `TOY_BREAK`).
pub fn count_instructions(func: &mut IrFunction) -> usize {
    let broken = std::env::var_os("TOY_BREAK").is_some();
    let mut n = 0;
    for block in &mut func.blocks {
        for inst in &mut block.instructions {
            n += 1;
            if let Instruction::BinOp { op, .. } = inst {
                if broken && *op == IrBinOp::Add {
                    *op = IrBinOp::Sub;
                }
            }
        }
    }
    n
}
