//! Structural checks of the verifier: module-wide uniqueness of labels and
//! function names, block labels and branch targets, edge sources of `asm goto`,
//! the entry block, phi placement and phi incoming lists, definitions and uses.

use super::{FnCheck, Site, VerifyError, VerifyMode};
use crate::ir::analysis::CfgAnalysis;
use crate::ir::instruction::{BlockId, Instruction};
use crate::ir::module::IrModule;
use rustc_hash::{FxHashMap, FxHashSet};

/// Module-wide invariants: unique block labels across functions, unique
/// definition names. (Duplicates inside one function are reported by the
/// function's own checks.)
pub(super) fn module_checks(m: &IrModule) -> Vec<VerifyError> {
    let mut errors = Vec::new();
    // Sized up front: this runs after every pass of the checks, and growing
    // the tables showed in the fuzzers' profile.
    let blocks: usize = m.functions.iter().map(|f| f.blocks.len()).sum();
    let mut defined: FxHashSet<&str> = FxHashSet::with_capacity_and_hasher(m.functions.len(), Default::default());
    // The function that first used each label. Labels are module-wide fresh
    // ids, so they nearly always index a table; hashed when they are sparse.
    let max_label = m
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter().map(|b| b.label.0 as usize))
        .max()
        .unwrap_or(0);
    let dense = max_label < 16 * blocks + 1024;
    // Per label: (function index + 1 that owns it, function index + 1 that last saw it).
    let mut table: Vec<(u32, u32)> = if dense { vec![(0, 0); max_label + 1] } else { Vec::new() };
    let mut owner: FxHashMap<BlockId, usize> = FxHashMap::default();
    let mut own: FxHashSet<BlockId> = FxHashSet::default();
    if !dense {
        owner.reserve(blocks);
    }
    for (fi, f) in m.functions.iter().enumerate().filter(|(_, f)| !f.is_declaration) {
        if !defined.insert(f.name.as_str()) {
            errors.push(VerifyError {
                function: f.name.clone(),
                block: None,
                inst: None,
                inst_text: None,
                message: format!("@{} is defined twice in the module", f.name),
            });
        }
        own.clear();
        for b in &f.blocks {
            // Duplicates inside the function are its own checks' to report.
            let other = if dense {
                let (first, seen) = &mut table[b.label.0 as usize];
                if *seen == fi as u32 + 1 {
                    continue;
                }
                *seen = fi as u32 + 1;
                if *first == 0 {
                    *first = fi as u32 + 1;
                    continue;
                }
                *first as usize - 1
            } else {
                if !own.insert(b.label) {
                    continue;
                }
                match owner.get(&b.label) {
                    Some(&other) => other,
                    None => {
                        owner.insert(b.label, fi);
                        continue;
                    }
                }
            };
            errors.push(VerifyError {
                function: f.name.clone(),
                block: Some(b.label),
                inst: None,
                inst_text: None,
                message: format!("block label {} is also used in @{}", b.label, m.functions[other].name),
            });
        }
    }
    errors
}

/// Where a CFG edge of a block comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EdgeSource {
    Terminator,
    /// The `asm goto` at this instruction index.
    Asm(usize),
}

impl<'a> FnCheck<'a> {
    pub(super) fn check_labels(&mut self) {
        let mut first: FxHashMap<BlockId, usize> = FxHashMap::default();
        for b in 0..self.f.blocks.len() {
            let l = self.label(b);
            if let Some(&k) = first.get(&l) {
                self.labels_ok = false;
                self.err_block(b, format!("label {l} is also the label of block index {k}"));
            } else {
                first.insert(l, b);
            }
        }
    }

    /// Terminator targets, `asm goto` labels and `labeladdr` labels exist.
    pub(super) fn check_targets(&mut self, cfg: &CfgAnalysis) {
        let labels = &cfg.label_to_idx;
        let name = self.f.name.clone();
        for b in 0..self.f.blocks.len() {
            let block = &self.f.blocks[b];
            let mut missing: Vec<(usize, String)> = Vec::new();
            for (i, inst) in block.instructions.iter().enumerate() {
                for (cl, t) in inst.asm_goto_targets() {
                    if !labels.contains_key(t) {
                        missing.push((
                            i,
                            format!("asm goto label `{cl}` targets {t}, which is not a block of @{name}"),
                        ));
                    }
                }
                if let Instruction::LabelAddr { label, .. } = inst {
                    if !labels.contains_key(label) {
                        missing.push((i, format!("labeladdr of {label}, which is not a block of @{name}")));
                    }
                }
            }
            let n = block.instructions.len();
            let mut seen = FxHashSet::default();
            block.terminator.for_each_successor(|t| {
                if !labels.contains_key(&t) && seen.insert(t) {
                    missing.push((n, format!("branch target {t} is not a block of @{name}")));
                }
            });
            for (i, msg) in missing {
                self.err_at(b, i, msg);
            }
        }
    }

    /// The edge source of each successor of block `b`, in order (the
    /// terminator's targets first, then each `asm goto`'s), with duplicates
    /// between different sources kept.
    pub(super) fn edge_sources(&self, b: usize) -> Vec<(BlockId, EdgeSource)> {
        let block = &self.f.blocks[b];
        let mut out = Vec::new();
        for t in block.terminator.successors() {
            out.push((t, EdgeSource::Terminator));
        }
        for (i, inst) in block.instructions.iter().enumerate() {
            let mut mine: Vec<BlockId> = Vec::new();
            for (_, t) in inst.asm_goto_targets() {
                if !mine.contains(t) {
                    mine.push(*t);
                    out.push((*t, EdgeSource::Asm(i)));
                }
            }
        }
        out
    }

    /// No successor of a block is reached from two edge sources.
    pub(super) fn check_edge_sources(&mut self) {
        for b in 0..self.f.blocks.len() {
            // The terminator's successors are distinct: only an asm goto
            // can add a second source.
            if self.f.blocks[b]
                .instructions
                .iter()
                .all(|i| i.asm_goto_targets().is_empty())
            {
                continue;
            }
            let mut first: FxHashMap<BlockId, EdgeSource> = FxHashMap::default();
            for (t, src) in self.edge_sources(b) {
                match first.get(&t) {
                    None => {
                        first.insert(t, src);
                    }
                    Some(prev) => {
                        let i = match src {
                            EdgeSource::Asm(i) => i,
                            // Not produced: the terminator's targets come first.
                            EdgeSource::Terminator => self.f.blocks[b].instructions.len(),
                        };
                        let what = match prev {
                            EdgeSource::Terminator => "the terminator".to_string(),
                            EdgeSource::Asm(k) => format!("the asm goto at inst {k}"),
                        };
                        self.err_at(
                            b,
                            i,
                            format!("successor {t} is also reached from {what}; a block may reach a successor from one edge source only"),
                        );
                    }
                }
            }
        }
    }

    pub(super) fn check_phi_placement(&mut self) {
        for b in 0..self.f.blocks.len() {
            let mut seen_other = false;
            let mut bad = Vec::new();
            for (i, inst) in self.f.blocks[b].instructions.iter().enumerate() {
                match inst {
                    Instruction::Phi { .. } if self.mode == VerifyMode::NonSsa => {
                        bad.push((i, "a phi remains in non-SSA form (after phi elimination)".to_string()))
                    }
                    Instruction::Phi { .. } if seen_other => bad.push((
                        i,
                        "phi after a non-phi instruction; phis must open the block".to_string(),
                    )),
                    Instruction::Phi { .. } => {}
                    _ => seen_other = true,
                }
            }
            for (i, msg) in bad {
                self.err_at(b, i, msg);
            }
        }
    }

    pub(super) fn check_entry_preds(&mut self, cfg: &CfgAnalysis) {
        if cfg.preds.len(0) > 0 {
            let preds: Vec<String> = cfg
                .preds
                .row(0)
                .iter()
                .map(|&p| self.label(p as usize).to_string())
                .collect();
            self.err_block(0, format!("the entry block has predecessors: {}", preds.join(", ")));
        }
    }

    /// Phi incoming blocks are exactly the predecessors, one entry each.
    /// (Sets, not lists: a block of a computed goto or a large switch has
    /// hundreds of predecessors and as many phis.)
    pub(super) fn check_phi_incoming(&mut self, cfg: &CfgAnalysis) {
        let mut seen: FxHashSet<BlockId> = FxHashSet::default();
        for b in 0..self.f.blocks.len() {
            let phis = &self.f.blocks[b].instructions;
            if !phis.iter().any(|i| matches!(i, Instruction::Phi { .. })) {
                continue;
            }
            let preds: Vec<BlockId> = cfg.preds.row(b).iter().map(|&p| self.label(p as usize)).collect();
            let pred_set: FxHashSet<BlockId> = preds.iter().copied().collect();
            let mut bad = Vec::new();
            for (i, inst) in phis.iter().enumerate() {
                let Instruction::Phi { incoming, .. } = inst else {
                    continue;
                };
                seen.clear();
                for (_, from) in incoming {
                    if !seen.insert(*from) {
                        bad.push((i, format!("{from} appears more than once in the incoming list")));
                    } else if !pred_set.contains(from) {
                        bad.push((
                            i,
                            format!("incoming block {from} is not a predecessor of {}", self.label(b)),
                        ));
                    }
                }
                for p in &preds {
                    if !seen.contains(p) {
                        bad.push((i, format!("no incoming value for predecessor {p}")));
                    }
                }
            }
            for (i, msg) in bad {
                self.err_at(b, i, msg);
            }
        }
    }

    /// Record every definition; in SSA mode a value is defined once. When the
    /// function caches `next_value_id`, every defined value is below it.
    pub(super) fn collect_defs(&mut self) {
        let mut bad = Vec::new();
        let limit = self.f.next_value_id;
        for (b, block) in self.f.blocks.iter().enumerate() {
            for (i, inst) in block.instructions.iter().enumerate() {
                inst.for_each_def(|v| {
                    match self.defs.get(&v) {
                        Some(first) if self.mode == VerifyMode::Ssa => {
                            let l = self.f.blocks[first.block].label;
                            bad.push((b, i, format!("{v} is already defined at {l} inst {}", first.inst)));
                        }
                        Some(_) => {}
                        None => self.defs.insert(v, Site { block: b, inst: i }),
                    }
                    if limit != 0 && v.0 >= limit {
                        bad.push((b, i, format!("{v} is not below the function's next_value_id {limit}")));
                    }
                });
            }
        }
        for (b, i, msg) in bad {
            self.err_at(b, i, msg);
        }
    }

    /// Every used value (instructions, terminators) has a definition.
    pub(super) fn check_uses_defined(&mut self) {
        let mut bad = Vec::new();
        for (b, block) in self.f.blocks.iter().enumerate() {
            for (i, inst) in block.instructions.iter().enumerate() {
                let mut reported = FxHashSet::default();
                inst.for_each_used_value(|v| {
                    if !self.defs.contains_key(&v) && reported.insert(v) {
                        bad.push((b, i, format!("operand {v} is not defined in the function")));
                    }
                });
            }
            let n = block.instructions.len();
            block.terminator.for_each_used_value(|v| {
                if !self.defs.contains_key(&v) {
                    bad.push((b, n, format!("operand {v} is not defined in the function")));
                }
            });
        }
        for (b, i, msg) in bad {
            self.err_at(b, i, msg);
        }
    }
}
