//! Copy propagation on SSA form: every use of a `Copy` result is replaced by
//! the copy's ultimate source (chains `c = copy b; b = copy a` resolve to `a`),
//! and copies left without uses are deleted.
//!
//! Requires: SSA (each value defined once, definitions dominate uses). Under
//! that rule a copy's source holds the same value wherever the copy's result
//! is used. As a guard the pass leaves alone any copy whose destination or
//! source value is defined more than once (IR after phi elimination), and any
//! cycle of copies (only possible in unreachable code).
//!
//! In the `mem2reg` configuration it runs between mem2reg and phi elimination:
//! it turns the loads mem2reg rewrote into copies back into direct uses, which
//! is what makes phis read each other and exposes the swap and lost-copy
//! problems to phi elimination. A constant source is substituted only into
//! operand slots; a slot that must hold a value (an address) keeps its copy.

use crate::ir::reexports::*;

/// Propagates copies in `func`; returns uses rewritten plus copies deleted.
pub fn propagate_copies(func: &mut IrFunction) -> usize {
    let max = func.scan_max_value_id() as usize;
    let mut def_count = vec![0u8; max + 1];
    let mut copy_src: Vec<Option<Operand>> = vec![None; max + 1];
    for block in &func.blocks {
        for inst in &block.instructions {
            inst.for_each_def(|v| {
                let c = &mut def_count[v.0 as usize];
                *c = c.saturating_add(1);
            });
        }
    }
    for block in &func.blocks {
        for inst in &block.instructions {
            if let Instruction::Copy { dest, src } = inst {
                let single_src = match src {
                    Operand::Value(v) => def_count.get(v.0 as usize).is_some_and(|&c| c <= 1),
                    Operand::Const(IrConst::Zero) => false, // untyped: keep the copy
                    Operand::Const(_) => true,
                };
                if def_count[dest.0 as usize] == 1 && single_src && *src != Operand::Value(*dest) {
                    copy_src[dest.0 as usize] = Some(*src);
                }
            }
        }
    }
    // Resolve chains, path-compressing; cycles resolve to nothing.
    let mut resolved: Vec<Option<Operand>> = vec![None; max + 1];
    let mut state = vec![0u8; max + 1]; // 0 new, 1 on the current chain, 2 done
    let mut chain: Vec<usize> = Vec::new();
    for start in 0..=max {
        if copy_src[start].is_none() || state[start] == 2 {
            continue;
        }
        chain.clear();
        let mut cur = start;
        let end: Option<Operand> = loop {
            if state[cur] == 2 {
                break resolved[cur].or(Some(Operand::Value(Value(cur as u32))));
            }
            if state[cur] == 1 {
                break None; // cycle
            }
            match copy_src[cur] {
                Some(Operand::Value(v)) => {
                    state[cur] = 1;
                    chain.push(cur);
                    cur = v.0 as usize;
                }
                Some(c) => {
                    state[cur] = 1;
                    chain.push(cur);
                    break Some(c);
                }
                None => break Some(Operand::Value(Value(cur as u32))),
            }
        };
        for &v in &chain {
            resolved[v] = end;
            state[v] = 2;
        }
    }

    let mut changes = 0;
    let mut still_used = vec![false; max + 1];
    let lookup = |v: Value| resolved.get(v.0 as usize).copied().flatten();
    let rewrite_inst = |inst: &mut Instruction, changes: &mut usize, still_used: &mut Vec<bool>| {
        inst.for_each_operand_mut(|op| {
            if let Operand::Value(v) = *op {
                if let Some(r) = lookup(v) {
                    *op = r;
                    *changes += 1;
                }
            }
        });
        inst.for_each_value_use_mut(|v| match lookup(*v) {
            Some(Operand::Value(r)) => {
                *v = r;
                *changes += 1;
            }
            Some(Operand::Const(_)) => still_used[v.0 as usize] = true,
            None => {}
        });
    };
    for block in &mut func.blocks {
        for inst in &mut block.instructions {
            if !matches!(inst, Instruction::Copy { dest, .. } if resolved[dest.0 as usize].is_some()) {
                rewrite_inst(inst, &mut changes, &mut still_used);
            }
        }
        block.terminator.for_each_operand_mut(|op| {
            if let Operand::Value(v) = *op {
                if let Some(r) = lookup(v) {
                    *op = r;
                    changes += 1;
                }
            }
        });
    }
    for block in &mut func.blocks {
        let before = block.instructions.len();
        block.instructions.retain(|inst| match inst {
            Instruction::Copy { dest, .. } => resolved[dest.0 as usize].is_none() || still_used[dest.0 as usize],
            _ => true,
        });
        changes += before - block.instructions.len();
    }
    // A kept copy (its result needed as an address) may read another removed copy.
    for block in &mut func.blocks {
        for inst in &mut block.instructions {
            if let Instruction::Copy { dest, src } = inst {
                if still_used[dest.0 as usize] {
                    if let Some(r) = resolved[dest.0 as usize] {
                        *src = r;
                    }
                }
            }
        }
    }
    changes
}
