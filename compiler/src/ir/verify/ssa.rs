//! SSA checks of the verifier: every use is dominated by its definition.
//!
//! Block-level dominance (`CfgAnalysis::dominates`) decides most cases. It is
//! refined at `asm goto`s, which leave a block in the middle: a definition at
//! instruction `j` of block `D` reaches the start of another block `T` iff `D`
//! dominates `T` and `T` is unreachable from the entry in the CFG where `D`'s
//! successors are only the goto targets of its `asm goto`s at indices `<= j`
//! (the edges that leave `D` before the definition has executed; an asm's own
//! outputs are written on its fall-through path only, hence `<=`). That
//! restricted reachability is computed once per (block, number of gotos) and
//! only for definitions that follow an `asm goto` in their block.
//!
//! A phi operand is used on its incoming edge: at the end of the predecessor,
//! or at the `asm goto` that is the edge.

use super::{FnCheck, Site};
use crate::ir::analysis::CfgAnalysis;
use crate::ir::instruction::{Instruction, Operand, Value};
use rustc_hash::FxHashMap;

/// Why a definition does not reach a point.
enum Unavailable {
    /// The defining block does not dominate the using block.
    NotDominating,
    /// The using block is reachable through an `asm goto` of the defining
    /// block taken before the definition.
    BypassedByAsm,
}

/// Reachability from the entry with one block's out-edges restricted,
/// memoized per (block, number of `asm goto`s that stay as edges).
struct Bypass<'c> {
    cfg: &'c CfgAnalysis,
    /// Per block: the instruction index and target blocks of each `asm goto`.
    gotos: Vec<Vec<(usize, Vec<usize>)>>,
    cache: FxHashMap<(usize, usize), Vec<bool>>,
}

impl<'c> Bypass<'c> {
    /// Number of `asm goto`s of block `d` at an index `<= j`.
    fn gotos_up_to(&self, d: usize, j: usize) -> usize {
        self.gotos[d].iter().take_while(|(k, _)| *k <= j).count()
    }

    /// Blocks reachable from the entry when block `d` leaves only through its first `c` gotos.
    fn reachable(&mut self, d: usize, c: usize) -> &Vec<bool> {
        let (cfg, gotos) = (self.cfg, &self.gotos);
        self.cache.entry((d, c)).or_insert_with(|| {
            let mut seen = vec![false; cfg.num_blocks];
            let mut stack = vec![0usize];
            seen[0] = true;
            while let Some(u) = stack.pop() {
                let mut visit = |s: usize| {
                    if !seen[s] {
                        seen[s] = true;
                        stack.push(s);
                    }
                };
                if u == d {
                    for (_, ts) in &gotos[d][..c] {
                        ts.iter().for_each(|&t| visit(t));
                    }
                } else {
                    cfg.succs.row(u).iter().for_each(|&t| visit(t as usize));
                }
            }
            seen
        })
    }

    /// Is the definition at `site` available at the start of block `t` (`t != site.block`)?
    fn available_at_start(&mut self, site: Site, t: usize) -> Result<(), Unavailable> {
        if !self.cfg.dominates(site.block, t) {
            return Err(Unavailable::NotDominating);
        }
        let c = self.gotos_up_to(site.block, site.inst);
        if c > 0 && self.reachable(site.block, c)[t] {
            return Err(Unavailable::BypassedByAsm);
        }
        Ok(())
    }
}

pub(super) fn check_dominance(cx: &mut FnCheck<'_>, cfg: &CfgAnalysis) {
    let f = cx.f;
    let mut gotos: Vec<Vec<(usize, Vec<usize>)>> = vec![Vec::new(); f.blocks.len()];
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            let labels = inst.asm_goto_targets();
            if !labels.is_empty() {
                let ts = labels
                    .iter()
                    .filter_map(|(_, l)| cfg.label_to_idx.get(l).copied())
                    .collect();
                gotos[b].push((i, ts));
            }
        }
    }
    let mut bp = Bypass {
        cfg,
        gotos,
        cache: FxHashMap::default(),
    };
    let mut bad: Vec<(usize, usize, String)> = Vec::new();
    let def_of = |v: Value| cx.defs.get(&v).copied();
    for (t, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            if let Instruction::Phi { incoming, .. } = inst {
                for (op, from) in incoming {
                    let (Operand::Value(v), Some(&p)) = (op, cfg.label_to_idx.get(from)) else {
                        continue;
                    };
                    let Some(site) = def_of(*v) else { continue };
                    if !cfg.is_reachable(p) {
                        continue;
                    }
                    if let Some(msg) = check_edge_use(cx, &mut bp, *v, site, p, t) {
                        bad.push((t, i, msg));
                    }
                }
                continue;
            }
            if !cfg.is_reachable(t) {
                continue;
            }
            inst.for_each_used_value(|v| {
                if let Some(site) = def_of(v) {
                    if let Some(msg) = check_use(cx, &mut bp, v, site, t, i) {
                        bad.push((t, i, msg));
                    }
                }
            });
        }
        if cfg.is_reachable(t) {
            let n = block.instructions.len();
            block.terminator.for_each_used_value(|v| {
                if let Some(site) = def_of(v) {
                    if let Some(msg) = check_use(cx, &mut bp, v, site, t, n) {
                        bad.push((t, n, msg));
                    }
                }
            });
        }
    }
    for (b, i, msg) in bad {
        cx.err_at(b, i, msg);
    }
}

/// A use of `v` at instruction `i` of reachable block `t`.
fn check_use(cx: &FnCheck<'_>, bp: &mut Bypass<'_>, v: Value, site: Site, t: usize, i: usize) -> Option<String> {
    if site.block == t {
        return match site.inst {
            j if j < i => None,
            j if j == i => Some(format!("operand {v} is the instruction's own result")),
            j => Some(format!("operand {v} is used before its definition at inst {j}")),
        };
    }
    match bp.available_at_start(site, t) {
        Ok(()) => None,
        Err(why) => Some(format!("operand {v} {}", unavailable_text(cx, bp, why, site, t))),
    }
}

/// The phi operand `v` flowing along the edge from reachable block `p` into block `t`.
fn check_edge_use(cx: &FnCheck<'_>, bp: &mut Bypass<'_>, v: Value, site: Site, p: usize, t: usize) -> Option<String> {
    let pl = cx.label(p);
    // The edge is an asm goto when one of `p`'s asm gotos targets `t` (the
    // structural checks reject a second edge source, so take the first).
    let asm_at = bp.gotos[p].iter().find(|(_, ts)| ts.contains(&t)).map(|(k, _)| *k);
    // Only a failure is worth formatting: this runs for every phi operand.
    let place = || match asm_at {
        Some(k) => format!("along the asm goto edge (inst {k}) of {pl}"),
        None => format!("at the end of {pl}"),
    };
    if site.block == p {
        return match asm_at {
            Some(k) if site.inst == k => Some(format!(
                "incoming value {v} from {pl} is not available {}: it is an output of that asm goto, \
                 which is written on the fall-through path only",
                place()
            )),
            Some(k) if site.inst > k => Some(format!(
                "incoming value {v} from {pl} is not available {}: it is defined at inst {}, after the asm goto",
                place(),
                site.inst
            )),
            _ => None,
        };
    }
    match bp.available_at_start(site, p) {
        Ok(()) => None,
        Err(why) => Some(format!(
            "incoming value {v} from {pl} is not available {}: it {}",
            place(),
            unavailable_text(cx, bp, why, site, p)
        )),
    }
}

fn unavailable_text(cx: &FnCheck<'_>, bp: &Bypass<'_>, why: Unavailable, site: Site, t: usize) -> String {
    let (dl, tl) = (cx.label(site.block), cx.label(t));
    match why {
        Unavailable::NotDominating if !bp.cfg.is_reachable(site.block) => {
            format!("is defined in {dl}, which is unreachable, so it does not dominate {tl}")
        }
        Unavailable::NotDominating => format!("is defined in {dl}, which does not dominate {tl}"),
        Unavailable::BypassedByAsm => {
            let own = bp.gotos[site.block].iter().any(|(k, _)| *k == site.inst);
            if own {
                format!(
                    "is an output of the asm goto at inst {} of {dl}, which is not written along its goto \
                     edges, and {tl} is reachable through them",
                    site.inst
                )
            } else {
                format!(
                    "is defined at inst {} of {dl}, after an asm goto whose edge reaches {tl} without \
                     passing the definition",
                    site.inst
                )
            }
        }
    }
}
