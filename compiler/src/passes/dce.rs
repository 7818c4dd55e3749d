//! Dead code elimination on SSA form: mark-sweep ("aggressive") DCE that
//! removes dead pure instructions and dead phi cycles.
//!
//! Algorithm (Cytron, Ferrante, Rosen, Wegman and Zadeck, "Efficiently
//! Computing Static Single Assignment Form and the Control Dependence Graph",
//! TOPLAS 1991, section 7.1; LLVM's `ADCE`): assume every instruction dead,
//! mark the *roots* live, then mark live, through a worklist, the definition
//! of every value a live instruction or a terminator reads; sweep what stays
//! unmarked. Because liveness flows only from uses to definitions, a cycle of
//! phis (and arithmetic) that feeds nothing but itself is never marked and
//! goes away whole, which the "delete instructions without uses" kind of DCE
//! cannot do. Unlike Cytron's full algorithm (and LLVM's ADCE with
//! `-adce-remove-control-flow`), every terminator is a root: the pass never
//! changes the CFG (that is CFG simplification's job), so no control
//! dependence is needed. One pass over the instructions to find definitions
//! and roots, one worklist walk, one sweep: O(instructions + uses).
//!
//! Contract. Input: SSA form (each value defined once, definitions dominate
//! uses). Output: the same function with a subset of its instructions, the
//! same CFG, and the same observable outcome under the reference interpreter
//! (docs/ir.md): the same return value, output, external calls, volatile
//! events and traps. An instruction is removed only when its result is dead
//! and it is *removable*:
//! - pure and unable to trap: arithmetic other than division, remainder and
//!   shifts, those three when the constant right operand rules every trap out
//!   (checked with `eval_bits` itself: a nonzero divisor that is not -1 for
//!   signed division, a shift amount below the width), comparisons, casts,
//!   copies, selects, phis, GEPs, global and label addresses, pure intrinsics;
//! - a load whose address is a non-volatile alloca of this function at least
//!   as large as the load (it cannot trap and is not an event);
//! - a non-volatile alloca nothing live uses.
//!
//! A division that may trap is kept even when its result is dead: the trap is
//! an observable outcome of the interpreter (and of the hardware, SIGFPE).
//! Everything else is a root and kept: stores, calls, inline asm (its outputs
//! included), volatile allocas and every load that is not provably from a
//! non-volatile alloca (a volatile access is an event, C11 5.1.2.3p6; a load
//! through an unknown pointer may trap or be volatile, which the IR's loads
//! do not record), atomics, fences, `va_*`, memcpy, dynamic allocas and
//! stack save/restore, parameter references, the complex-return registers,
//! impure intrinsics.

use crate::ir::reexports::*;

/// What one run removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DceStats {
    /// Instructions removed, phis included.
    pub instructions_removed: usize,
    /// Of those, phis.
    pub phis_removed: usize,
}

/// Removes the dead code of `func` (see the module documentation).
pub fn eliminate_dead_code(func: &mut IrFunction) -> DceStats {
    let max = func.scan_max_value_id() as usize;
    // Where each value is defined: (block, instruction).
    let mut def_at: Vec<Option<(usize, usize)>> = vec![None; max + 1];
    // Injected bug `dce-removes-volatile`: volatile allocas count as plain
    // ones, so an unused load from one is removed.
    #[cfg(feature = "inject-bugs")]
    let ignore_volatile = crate::inject::enabled(crate::inject::Bug::DceRemovesVolatile);
    #[cfg(not(feature = "inject-bugs"))]
    let ignore_volatile = false;
    // The non-volatile allocas and their sizes, for loads that cannot trap.
    let mut plain_alloca: Vec<Option<usize>> = vec![None; max + 1];
    for (b, block) in func.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            inst.for_each_def(|v| def_at[v.0 as usize] = Some((b, i)));
            if let Instruction::Alloca {
                dest, size, volatile, ..
            } = inst
            {
                if !*volatile || ignore_volatile {
                    plain_alloca[dest.0 as usize] = Some(*size);
                }
            }
        }
    }

    let mut live: Vec<Vec<bool>> = func.blocks.iter().map(|b| vec![false; b.instructions.len()]).collect();
    let mut work: Vec<Value> = Vec::new();
    for (b, block) in func.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            if !removable(inst, &plain_alloca) {
                live[b][i] = true;
                inst.for_each_used_value(|v| work.push(v));
            }
        }
        block.terminator.for_each_used_value(|v| work.push(v));
    }
    while let Some(v) = work.pop() {
        let Some(&Some((b, i))) = def_at.get(v.0 as usize) else {
            continue; // a value without a definition: the verifier rejects it
        };
        if !live[b][i] {
            live[b][i] = true;
            func.blocks[b].instructions[i].for_each_used_value(|u| work.push(u));
        }
    }

    let mut stats = DceStats::default();
    for (block, live) in func.blocks.iter_mut().zip(&live) {
        let mut keep = live.iter();
        block.instructions.retain(|inst| {
            let kept = *keep.next().unwrap_or(&true);
            if !kept {
                stats.instructions_removed += 1;
                if matches!(inst, Instruction::Phi { .. }) {
                    stats.phis_removed += 1;
                }
            }
            kept
        });
    }
    stats
}

/// May `inst` go when nothing live reads its result?
fn removable(inst: &Instruction, plain_alloca: &[Option<usize>]) -> bool {
    use Instruction as I;
    match inst {
        I::BinOp { op, rhs, ty, .. } => !binop_may_trap(*op, rhs, *ty),
        I::UnaryOp { .. }
        | I::Cmp { .. }
        | I::Cast { .. }
        | I::Copy { .. }
        | I::Select { .. }
        | I::Phi { .. }
        | I::GetElementPtr { .. }
        | I::GlobalAddr { .. }
        | I::LabelAddr { .. } => true,
        I::Intrinsic { dest, op, dest_ptr, .. } => dest.is_some() && dest_ptr.is_none() && op.is_pure(),
        I::Alloca { volatile, .. } => !*volatile,
        I::Load { ptr, ty, .. } => plain_alloca
            .get(ptr.0 as usize)
            .copied()
            .flatten()
            .is_some_and(|size| ty.size() <= size),
        _ => false,
    }
}

/// Can `lhs op rhs` at `ty` trap for some `lhs`? Division, remainder and
/// shifts can, unless a constant `rhs` rules it out for every `lhs` (tried
/// with `eval_bits` on 0 and on the type's minimum, the only dividend that
/// overflows).
pub(crate) fn binop_may_trap(op: IrBinOp, rhs: &Operand, ty: IrType) -> bool {
    if !(op.can_trap() || op.is_shift()) || ty.is_float() {
        return false;
    }
    let Operand::Const(c) = rhs else {
        return true;
    };
    let bits = if ty == IrType::Void { 64 } else { ty.bits() };
    let r = c.bits_as(ty);
    let min = 1u128 << (bits - 1);
    op.eval_bits(0, r, ty).is_err() || op.eval_bits(min, r, ty).is_err()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::{parse_module, print_module};

    fn run(src: &str) -> (String, DceStats) {
        let mut m = parse_module(src).unwrap();
        let s = eliminate_dead_code(&mut m.functions[0]);
        (print_module(&m), s)
    }

    #[test]
    fn a_dead_phi_cycle_goes_and_a_live_one_stays() {
        let src = "define @f(i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  br bb1
bb1:
  %1 = phi i32 [0i32, bb0], [%2, bb1]
  %3 = phi i32 [0i32, bb0], [%4, bb1]
  %2 = add i32 %1, 1i32
  %4 = add i32 %3, 1i32
  %5 = cmp slt i32 %4, %0
  condbr %5, bb1, bb2
bb2:
  ret %4
}
";
        let (out, s) = run(src);
        assert_eq!(
            s,
            DceStats {
                instructions_removed: 2,
                phis_removed: 1
            },
            "{out}"
        );
        assert!(!out.contains("%1 ="), "{out}");
        assert!(out.contains("%3 = phi"), "{out}");
    }

    #[test]
    fn trapping_divisions_stay_and_safe_ones_go() {
        let ty = IrType::I32;
        let c = |v: i64| Operand::Const(IrConst::from_i64(v, ty));
        assert!(binop_may_trap(IrBinOp::SDiv, &c(0), ty));
        assert!(binop_may_trap(IrBinOp::SDiv, &c(-1), ty));
        assert!(!binop_may_trap(IrBinOp::UDiv, &c(-1), ty));
        assert!(!binop_may_trap(IrBinOp::SRem, &c(7), ty));
        assert!(binop_may_trap(IrBinOp::Shl, &c(32), ty));
        assert!(!binop_may_trap(IrBinOp::LShr, &c(31), ty));
        assert!(binop_may_trap(IrBinOp::URem, &Operand::Value(Value(1)), ty));
        assert!(!binop_may_trap(IrBinOp::SDiv, &Operand::Value(Value(1)), IrType::F64));
    }
}
