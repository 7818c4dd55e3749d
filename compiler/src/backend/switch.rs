//! Lowering decision for `switch`: a jump table when the cases are dense,
//! a chain of compares when they are few, and a binary search over the
//! sorted cases when they are many and sparse, each half planned again (so a
//! dense cluster inside a sparse switch still gets its table).
//!
//! The rule is the classic one (LLVM's `SwitchLowering` and gcc's
//! `case_values_threshold` and balanced decision trees in spirit): at least
//! [`MIN_JUMP_TABLE_CASES`] distinct cases, and the table (spanning the
//! smallest to the largest case) at least 40% full and no longer than
//! [`MAX_JUMP_TABLE_ENTRIES`]. Otherwise up to [`MAX_CHAIN_CASES`] cases are
//! compared one by one, and more are split at the middle case: one compare
//! against it (signed or unsigned, as the switch type reads) sends the value
//! to the lower or the upper half, so a sparse switch of `n` cases costs about
//! `log2(n)` compares instead of `n / 2`. Case values are read at the switch
//! type's width and signedness, so `255: ` on an `u8` and `-1: ` on an `i8`
//! are the values the program compares.

use crate::ir::constants::{sext, zext};
use crate::ir::instruction::BlockId;
use crate::ir::types::IrType;

/// Fewer distinct cases than this always use compares.
pub const MIN_JUMP_TABLE_CASES: usize = 4;
/// Longest table considered.
pub const MAX_JUMP_TABLE_ENTRIES: u64 = 1 << 16;
/// More sparse cases than this are split in two by a compare (binary search).
pub const MAX_CHAIN_CASES: usize = 4;

/// How to lower one `switch`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwitchPlan {
    /// `table[value - min]` for `min <= value <= min + table.len() - 1`
    /// (unsigned range check), else `default`. Holes hold `default`.
    JumpTable { min: i128, table: Vec<BlockId> },
    /// Compare against each case, first match wins (`(value, target)`, the
    /// values normalised to the switch width), then branch to `default`.
    CompareChain { cases: Vec<(i128, BlockId)> },
    /// `value < pivot` (signed for a signed switch type, else unsigned) goes
    /// to `below`, every other value to `above`. Each half ends in its own
    /// branch to `default`; the value's register is unchanged by the compare.
    Split {
        pivot: i128,
        below: Box<SwitchPlan>,
        above: Box<SwitchPlan>,
    },
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
    let mut sorted: Vec<(i128, BlockId)> = cases.iter().map(|&(v, b)| (normalize_case(v, ty), b)).collect();
    // Stable sort keeps the first of equal values first.
    sorted.sort_by_key(|&(v, _)| v);
    sorted.dedup_by_key(|&mut (v, _)| v);
    if let Some(table) = jump_table(&sorted, default) {
        return table;
    }
    if sorted.len() <= MAX_CHAIN_CASES {
        // Source order (first match), as written.
        let mut seen: Vec<(i128, BlockId)> = Vec::with_capacity(cases.len());
        for &(v, b) in cases {
            let n = normalize_case(v, ty);
            if !seen.iter().any(|&(s, _)| s == n) {
                seen.push((n, b));
            }
        }
        return SwitchPlan::CompareChain { cases: seen };
    }
    split(&sorted, default)
}

/// A table for the sorted distinct `cases`, when they are many and dense enough.
fn jump_table(sorted: &[(i128, BlockId)], default: BlockId) -> Option<SwitchPlan> {
    if sorted.len() < MIN_JUMP_TABLE_CASES {
        return None;
    }
    let min = sorted[0].0;
    let max = sorted[sorted.len() - 1].0;
    let span = (max - min) as u128 + 1;
    if span > MAX_JUMP_TABLE_ENTRIES as u128 || (sorted.len() as u128) * 10 < span * 4 {
        return None;
    }
    let mut table = vec![default; span as usize];
    for &(v, b) in sorted {
        table[(v - min) as usize] = b;
    }
    Some(SwitchPlan::JumpTable { min, table })
}

/// The plan for the sorted distinct `cases`: a table, a chain, or a split at
/// the middle case with each half planned the same way.
fn split(sorted: &[(i128, BlockId)], default: BlockId) -> SwitchPlan {
    if let Some(table) = jump_table(sorted, default) {
        return table;
    }
    if sorted.len() <= MAX_CHAIN_CASES {
        return SwitchPlan::CompareChain { cases: sorted.to_vec() };
    }
    let mid = sorted.len() / 2;
    let mut pivot = sorted[mid].0;
    if crate::inject::enabled(crate::inject::Bug::SwitchSplitPivotOffByOne) {
        // The middle case itself is sent to the lower half, where it is not.
        pivot += 1;
    }
    SwitchPlan::Split {
        pivot,
        below: Box::new(split(&sorted[..mid], default)),
        above: Box::new(split(&sorted[mid..], default)),
    }
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

    /// Many sparse cases become a binary search: every case value reaches
    /// its own block, and values between or beyond the cases reach `default`
    /// (walked here the way the backends' code walks the plan); the depth is
    /// logarithmic; a dense cluster inside gets a table.
    #[test]
    fn many_sparse_cases_are_searched_in_halves() {
        fn walk(plan: &SwitchPlan, v: i128, signed_order: bool, default: BlockId) -> BlockId {
            match plan {
                SwitchPlan::JumpTable { min, table } => {
                    let i = (v - min) as u128;
                    if v < *min || i >= table.len() as u128 {
                        default
                    } else {
                        table[i as usize]
                    }
                }
                SwitchPlan::CompareChain { cases } => cases.iter().find(|&&(c, _)| c == v).map_or(default, |&(_, b)| b),
                SwitchPlan::Split { pivot, below, above } => {
                    let lt = if signed_order {
                        v < *pivot
                    } else {
                        (v as u128) < (*pivot as u128)
                    };
                    walk(if lt { below } else { above }, v, signed_order, default)
                }
            }
        }
        fn depth(plan: &SwitchPlan) -> usize {
            match plan {
                SwitchPlan::Split { below, above, .. } => 1 + depth(below).max(depth(above)),
                _ => 0,
            }
        }
        // 100 cases spread over 0..1024 in an unsigned switch, and signed ones around zero.
        let sparse: Vec<(i64, BlockId)> = (0..100).map(|i| ((i * 977) % 1021, b(i as u32))).collect();
        let plan = plan_switch(&sparse, b(999), IrType::U32);
        assert!(matches!(plan, SwitchPlan::Split { .. }), "{plan:?}");
        assert!(depth(&plan) <= 6, "depth {}", depth(&plan));
        for v in -3..1100i128 {
            let want = sparse
                .iter()
                .find(|&&(c, _)| c as i128 == v)
                .map_or(b(999), |&(_, t)| t);
            let v = normalize_case(v as i64, IrType::U32);
            assert_eq!(walk(&plan, v, false, b(999)), want, "value {v}");
        }
        let signed: Vec<(i64, BlockId)> = (0..40).map(|i| ((i - 20) * 1000, b(i as u32))).collect();
        let plan = plan_switch(&signed, b(999), IrType::I64);
        for v in -30_000..30_000i128 {
            let want = signed
                .iter()
                .find(|&&(c, _)| c as i128 == v)
                .map_or(b(999), |&(_, t)| t);
            assert_eq!(walk(&plan, v, true, b(999)), want, "value {v}");
        }
        // A dense run of 20 cases among sparse ones: that half is a table.
        let mut mixed: Vec<(i64, BlockId)> = (0..20).map(|i| (i, b(i as u32))).collect();
        mixed.extend((1..20).map(|i| (i * 100_000, b(100 + i as u32))));
        fn has_table(p: &SwitchPlan) -> bool {
            match p {
                SwitchPlan::JumpTable { .. } => true,
                SwitchPlan::Split { below, above, .. } => has_table(below) || has_table(above),
                SwitchPlan::CompareChain { .. } => false,
            }
        }
        assert!(has_table(&plan_switch(&mixed, b(999), IrType::I32)));
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
