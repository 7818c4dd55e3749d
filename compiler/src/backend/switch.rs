//! Lowering decision for `switch`: a jump table when the cases are dense,
//! a chain of compares when they are sparse or few.
//!
//! The rule is the classic one (LLVM's `SwitchLowering` and gcc's
//! `case_values_threshold` in spirit): at least [`MIN_JUMP_TABLE_CASES`]
//! distinct cases, and the table (spanning the smallest to the largest case)
//! at least 40% full and no longer than [`MAX_JUMP_TABLE_ENTRIES`]. Case values
//! are read at the switch type's width and signedness, so `255: ` on an `u8`
//! and `-1: ` on an `i8` are the values the program compares.

use crate::ir::constants::{sext, zext};
use crate::ir::instruction::BlockId;
use crate::ir::types::IrType;

/// Fewer distinct cases than this always use compares.
pub const MIN_JUMP_TABLE_CASES: usize = 4;
/// Longest table considered.
pub const MAX_JUMP_TABLE_ENTRIES: u64 = 1 << 16;

/// How to lower one `switch`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwitchPlan {
    /// `table[value - min]` for `min <= value <= min + table.len() - 1`
    /// (unsigned range check), else `default`. Holes hold `default`.
    JumpTable { min: i128, table: Vec<BlockId> },
    /// Compare against each case, first match wins (`(value, target)`, the
    /// values normalised to the switch width), then branch to `default`.
    CompareChain { cases: Vec<(i128, BlockId)> },
}

/// The case value as the switch compares it: truncated to `ty` and read with
/// its signedness (so the result is what a register holding the extended
/// operand contains).
pub fn normalize_case(v: i64, ty: IrType) -> i128 {
    let bits = ty.bits().clamp(8, 128);
    if ty.is_signed() {
        sext(v as i128 as u128, bits)
    } else {
        zext(v as i128 as u128, bits) as i128
    }
}

/// Decides how to lower a switch over `cases` of type `ty`. Duplicate case
/// values keep their first target (the interpreter's first-match rule).
pub fn plan_switch(cases: &[(i64, BlockId)], default: BlockId, ty: IrType) -> SwitchPlan {
    let mut seen: Vec<(i128, BlockId)> = Vec::with_capacity(cases.len());
    let mut sorted: Vec<(i128, BlockId)> = cases.iter().map(|&(v, b)| (normalize_case(v, ty), b)).collect();
    // Stable sort keeps the first of equal values first.
    sorted.sort_by_key(|&(v, _)| v);
    sorted.dedup_by_key(|&mut (v, _)| v);
    for &(v, b) in cases {
        let n = normalize_case(v, ty);
        if !seen.iter().any(|&(s, _)| s == n) {
            seen.push((n, b));
        }
    }
    if sorted.len() >= MIN_JUMP_TABLE_CASES {
        let min = sorted[0].0;
        let max = sorted[sorted.len() - 1].0;
        let span = (max - min) as u128 + 1;
        if span <= MAX_JUMP_TABLE_ENTRIES as u128 && (sorted.len() as u128) * 10 >= span * 4 {
            let mut table = vec![default; span as usize];
            for &(v, b) in &sorted {
                table[(v - min) as usize] = b;
            }
            return SwitchPlan::JumpTable { min, table };
        }
    }
    SwitchPlan::CompareChain { cases: seen }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(n: u32) -> BlockId {
        BlockId(n)
    }

    #[test]
    fn dense_cases_get_a_table_with_holes_to_default() {
        let cases = [(3, b(1)), (5, b(2)), (4, b(3)), (7, b(4))];
        assert_eq!(
            plan_switch(&cases, b(9), IrType::I32),
            SwitchPlan::JumpTable {
                min: 3,
                table: vec![b(1), b(3), b(2), b(9), b(4)]
            }
        );
    }

    #[test]
    fn sparse_or_few_cases_compare() {
        let sparse = [(1, b(1)), (100, b(2)), (1000, b(3)), (10000, b(4))];
        assert!(matches!(
            plan_switch(&sparse, b(9), IrType::I32),
            SwitchPlan::CompareChain { .. }
        ));
        let few = [(1, b(1)), (2, b(2))];
        assert_eq!(
            plan_switch(&few, b(9), IrType::I32),
            SwitchPlan::CompareChain {
                cases: vec![(1, b(1)), (2, b(2))]
            }
        );
    }

    #[test]
    fn cases_are_read_at_the_switch_width() {
        assert_eq!(normalize_case(255, IrType::I8), -1);
        assert_eq!(normalize_case(-1, IrType::U8), 255);
        assert_eq!(normalize_case(-1, IrType::U64), u64::MAX as i128);
        // 255 and -1 are the same i8 case: the first one wins.
        let cases = [(255, b(1)), (-1, b(2))];
        assert_eq!(
            plan_switch(&cases, b(9), IrType::I8),
            SwitchPlan::CompareChain {
                cases: vec![(-1, b(1))]
            }
        );
    }
}
