//! Shape detectors over IR, to measure what the generators reach: loops
//! entered at more than one block (irreducible, by the retreating-edge test
//! of `phicc::ir::dominator_sets`) and the order of two header phis when one
//! reads the other unchanged on a back edge (the order phi elimination's
//! copy sequencing must get right either way). The generator tests
//! (`oracle/tests/irgen.rs`, `oracle/tests/cgen.rs`) report how often each occurs.

use phicc::ir::analysis::CfgAnalysis;
use phicc::ir::dominator_sets::has_irreducible_loop;
use phicc::ir::instruction::{BlockId, Instruction, Operand, Value};
use phicc::ir::module::{IrFunction, IrModule};

/// Shape counts over some functions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShapeCounts {
    /// Defined functions looked at.
    pub functions: usize,
    /// Functions with a loop entered at two or more blocks.
    pub irreducible: usize,
    /// Functions where a phi reads, on a back edge, another phi of its
    /// block placed before it (a chain, not a swap or rotation).
    pub phi_reads_earlier_phi: usize,
    /// ... placed after it.
    pub phi_reads_later_phi: usize,
}

impl std::ops::AddAssign for ShapeCounts {
    fn add_assign(&mut self, o: ShapeCounts) {
        self.functions += o.functions;
        self.irreducible += o.irreducible;
        self.phi_reads_earlier_phi += o.phi_reads_earlier_phi;
        self.phi_reads_later_phi += o.phi_reads_later_phi;
    }
}

/// The two back-edge phi orders of `f`: (a phi reads an earlier phi, a phi
/// reads a later phi), counting only chains: the phi being read does not
/// itself read, directly or through other phis of the block, the reader on
/// that edge (a swap or rotation needs a temporary whatever the order). A
/// back edge is an edge from a block that the phi's block dominates.
pub fn back_edge_phi_orders(f: &IrFunction, cfg: &CfgAnalysis) -> (bool, bool) {
    let (mut earlier, mut later) = (false, false);
    for (b, block) in f.blocks.iter().enumerate() {
        let phis: Vec<(Value, &Vec<(Operand, BlockId)>)> = block
            .instructions
            .iter()
            .map_while(|i| match i {
                Instruction::Phi { dest, incoming, .. } => Some((*dest, incoming)),
                _ => None,
            })
            .collect();
        if phis.len() < 2 {
            continue;
        }
        let mut preds: Vec<BlockId> = phis[0].1.iter().map(|(_, l)| *l).collect();
        preds.retain(|l| cfg.label_to_idx.get(l).is_some_and(|&p| cfg.dominates(b, p)));
        for pred in preds {
            // reads[j] = index of the phi of this block that phi j reads on this edge.
            let reads: Vec<Option<usize>> = phis
                .iter()
                .map(|(_, inc)| {
                    let (op, _) = inc.iter().find(|(_, l)| *l == pred)?;
                    let Operand::Value(v) = op else { return None };
                    phis.iter().position(|(d, _)| d == v)
                })
                .collect();
            for (j, r) in reads.iter().enumerate() {
                let Some(i) = *r else { continue };
                if i == j {
                    continue;
                }
                // Follow what `i` reads; reaching `j` closes a cycle.
                let (mut k, mut cycle) = (i, false);
                for _ in 0..phis.len() {
                    match reads[k] {
                        Some(next) if next == j => {
                            cycle = true;
                            break;
                        }
                        Some(next) if next != k => k = next,
                        _ => break,
                    }
                }
                if !cycle {
                    if i < j {
                        earlier = true;
                    } else {
                        later = true;
                    }
                }
            }
        }
    }
    (earlier, later)
}

/// Shape counts of every defined function of `m`.
pub fn count(m: &IrModule) -> ShapeCounts {
    let mut s = ShapeCounts::default();
    for f in m.functions.iter().filter(|f| !f.is_declaration && !f.blocks.is_empty()) {
        let cfg = CfgAnalysis::build(f);
        s.functions += 1;
        s.irreducible += has_irreducible_loop(&cfg) as usize;
        let (e, l) = back_edge_phi_orders(f, &cfg);
        s.phi_reads_earlier_phi += e as usize;
        s.phi_reads_later_phi += l as usize;
    }
    s
}
