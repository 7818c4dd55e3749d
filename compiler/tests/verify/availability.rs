//! The verifier's dominance rule, refined at `asm goto`s, against a brute-force
//! model on random functions.
//!
//! Model: every block is cut after each `asm goto` into segments; a segment
//! flows into the next (the fall-through) and to its asm's goto targets; the
//! last segment flows to the terminator's targets. A use is valid iff every
//! path from the entry to it passes its definition: an ordinary definition
//! blocks every exit of its segment; an asm output blocks only the asm's
//! fall-through (outputs are not written along goto edges). With that
//! blocking, the use's segment must be unreachable from the entry (or, in the
//! definition's own segment, the definition must come first). A phi operand
//! is checked the same way at the end of the segment its edge leaves from,
//! except that an asm's output never flows along that asm's own goto edge.

use super::builders::*;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

fn asm_goto(def: Option<u32>, target: u32) -> Instruction {
    let outputs: Vec<AsmOutput> = def
        .iter()
        .map(|&d| AsmOutput {
            constraint: "=r".into(),
            value: Value(d),
            name: None,
            is_def: true,
        })
        .collect();
    Instruction::InlineAsm(Box::new(InlineAsm {
        template: String::new(),
        operand_types: vec![I32; outputs.len()],
        outputs,
        inputs: vec![],
        clobbers: vec![],
        goto_labels: vec![("l".into(), BlockId(target))],
        input_symbols: vec![],
        seg_overrides: vec![],
    }))
}

/// A random function of `n` blocks (labels = indices, no edge into the entry,
/// distinct targets per block so every edge has one source) whose
/// instructions define values: `add`s and asm gotos with or without an output.
fn random_function(rng: &mut Rng) -> (IrFunction, Vec<(usize, usize, Value)>) {
    let n = 2 + rng.below(9);
    let mut next = 0u32;
    let mut defs = Vec::new();
    let mut blocks = Vec::new();
    for b in 0..n {
        let mut used: Vec<u32> = Vec::new();
        let fresh_target = |rng: &mut Rng, used: &mut Vec<u32>| {
            let t = 1 + rng.below(n - 1) as u32;
            (!used.contains(&t)).then(|| {
                used.push(t);
                t
            })
        };
        let mut insts = Vec::new();
        for _ in 0..rng.below(7) {
            let i = insts.len();
            if rng.below(3) == 0 {
                if let Some(t) = fresh_target(rng, &mut used) {
                    let def = (rng.below(2) == 0).then_some(next);
                    if let Some(d) = def {
                        defs.push((b, i, Value(d)));
                        next += 1;
                    }
                    insts.push(asm_goto(def, t));
                    continue;
                }
            }
            insts.push(Instruction::BinOp {
                dest: Value(next),
                op: IrBinOp::Add,
                lhs: Operand::Const(IrConst::I32(1)),
                rhs: Operand::Const(IrConst::I32(2)),
                ty: I32,
            });
            defs.push((b, i, Value(next)));
            next += 1;
        }
        let targets: Vec<u32> = (0..rng.below(3)).filter_map(|_| fresh_target(rng, &mut used)).collect();
        let terminator = match targets[..] {
            [] => Terminator::Return(None),
            [t] => Terminator::Branch(BlockId(t)),
            [t, f, ..] => Terminator::CondBranch {
                cond: Operand::Const(IrConst::I8(1)),
                true_label: BlockId(t),
                false_label: BlockId(f),
            },
        };
        blocks.push(BasicBlock {
            label: BlockId(b as u32),
            instructions: insts,
            terminator,
        });
    }
    let mut f = IrFunction::new("main", IrType::Void, vec![]);
    f.blocks = blocks;
    (f, defs)
}

/// Segment of instruction `i` of a block: the number of asm gotos before it.
fn segment(insts: &[Instruction], i: usize) -> usize {
    insts[..i.min(insts.len())]
        .iter()
        .filter(|x| !x.asm_goto_targets().is_empty())
        .count()
}

/// The segment graph of a function.
struct Model {
    /// First node of each block.
    first: Vec<usize>,
    /// Out-edges of each segment node, tagged `true` for a fall-through.
    edges: Vec<Vec<(usize, bool)>>,
}

impl Model {
    fn new(f: &IrFunction) -> Model {
        let mut first = Vec::new();
        let mut total = 0;
        for b in &f.blocks {
            first.push(total);
            total += segment(&b.instructions, usize::MAX) + 1;
        }
        let mut edges: Vec<Vec<(usize, bool)>> = vec![Vec::new(); total];
        for (b, block) in f.blocks.iter().enumerate() {
            let mut s = first[b];
            for inst in &block.instructions {
                let gotos = inst.asm_goto_targets();
                if !gotos.is_empty() {
                    for (_, l) in gotos {
                        edges[s].push((first[l.0 as usize], false));
                    }
                    edges[s].push((s + 1, true));
                    s += 1;
                }
            }
            block
                .terminator
                .for_each_successor(|l| edges[s].push((first[l.0 as usize], false)));
        }
        Model { first, edges }
    }

    fn node(&self, f: &IrFunction, b: usize, i: usize) -> usize {
        self.first[b] + segment(&f.blocks[b].instructions, i)
    }

    /// Nodes reachable from the entry; `blocked = (node, only_fall_through)`
    /// removes that node's exits (or only its fall-through).
    fn reach(&self, blocked: Option<(usize, bool)>) -> Vec<bool> {
        let mut seen = vec![false; self.edges.len()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(u) = stack.pop() {
            for &(w, fall) in &self.edges[u] {
                let cut = blocked.is_some_and(|(bn, only_fall)| u == bn && (fall || !only_fall));
                if !cut && !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        seen
    }

    /// The def node and what it blocks: an ordinary definition every exit of
    /// its segment, an asm output only the asm's fall-through.
    fn blocking(&self, f: &IrFunction, d: usize, j: usize) -> (usize, bool) {
        let is_asm = !f.blocks[d].instructions[j].asm_goto_targets().is_empty();
        (self.node(f, d, j), is_asm)
    }

    /// Does the definition at (`d`, `j`) reach the use at (`t`, `i`) on every
    /// path? `None` when the use is unreachable (the verifier does not check it).
    fn use_available(&self, f: &IrFunction, d: usize, j: usize, t: usize, i: usize) -> Option<bool> {
        if !self.reach(None)[self.first[t]] {
            return None;
        }
        let use_node = self.node(f, t, i);
        let (def_node, only_fall) = self.blocking(f, d, j);
        if def_node == use_node {
            return Some(j < i);
        }
        Some(!self.reach(Some((def_node, only_fall)))[use_node])
    }

    /// Is the definition at (`d`, `j`) available on the edge from block `p`
    /// to block `t` (a phi operand)? `None` when `p` is unreachable.
    fn edge_available(&self, f: &IrFunction, d: usize, j: usize, p: usize, t: usize) -> Option<bool> {
        if !self.reach(None)[self.first[p]] {
            return None;
        }
        let insts = &f.blocks[p].instructions;
        let asm_edge = insts
            .iter()
            .position(|x| x.asm_goto_targets().iter().any(|(_, l)| l.0 as usize == t));
        let from = self.node(f, p, asm_edge.unwrap_or(usize::MAX));
        let (def_node, only_fall) = self.blocking(f, d, j);
        if def_node == from {
            // Defined in the edge's own segment: before its end, unless it is
            // the output of the very asm goto that is the edge.
            return Some(asm_edge != Some(j) || d != p);
        }
        Some(!self.reach(Some((def_node, only_fall)))[from])
    }
}

fn find_def(f: &IrFunction, v: Value) -> (usize, usize) {
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.instructions.iter().enumerate() {
            let mut hit = false;
            inst.for_each_def(|d| hit |= d == v);
            if hit {
                return (b, i);
            }
        }
    }
    panic!("{v} is not defined")
}

fn preds_of(f: &IrFunction, t: usize) -> Vec<usize> {
    (0..f.blocks.len())
        .filter(|&p| {
            let b = &f.blocks[p];
            b.terminator.successors().contains(&BlockId(t as u32))
                || b.instructions
                    .iter()
                    .any(|x| x.asm_goto_targets().iter().any(|(_, l)| l.0 as usize == t))
        })
        .collect()
}

#[test]
fn asm_goto_refined_dominance_matches_brute_force() {
    let (mut valid, mut invalid, mut via_asm, mut unreachable) = (0, 0, 0, 0);
    for seed in 0..10_000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9) ^ 0xa5a5);
        let (mut f, defs) = random_function(&mut rng);
        if defs.is_empty() {
            continue;
        }
        let (d, _, v) = defs[rng.below(defs.len())];
        // Half the uses in the defining block, where order and asm segments matter most.
        let t = if rng.below(2) == 0 {
            d
        } else {
            rng.below(f.blocks.len())
        };
        let i = rng.below(f.blocks[t].instructions.len() + 1);
        f.blocks[t]
            .instructions
            .insert(i, add(10_000, I32, Operand::Value(v), i32c(1)));
        let (d, j) = find_def(&f, v);
        let expected = Model::new(&f).use_available(&f, d, j, t, i);
        let m = IrModule {
            functions: vec![f],
            ..IrModule::default()
        };
        let result = verify_module(&m, VerifyMode::Ssa);
        let text = format!("{:#?}", m.functions[0].blocks);
        match expected {
            None => {
                unreachable += 1;
                assert!(result.is_ok(), "seed {seed}: use unreachable, got {result:?}\n{text}");
            }
            Some(true) => {
                valid += 1;
                assert!(
                    result.is_ok(),
                    "seed {seed}: {v} reaches the use, got {result:?}\n{text}"
                );
            }
            Some(false) => {
                invalid += 1;
                let errs = result.expect_err("an unavailable operand").0;
                assert_eq!(errs.len(), 1, "seed {seed}: {errs:?}\n{text}");
                let e = &errs[0];
                assert_eq!(
                    (e.block, e.inst),
                    (Some(BlockId(t as u32)), Some(i)),
                    "seed {seed}: {e}"
                );
                assert!(e.message.starts_with(&format!("operand {v} ")), "seed {seed}: {e}");
                via_asm += e.message.contains("asm goto") as usize;
            }
        }
    }
    eprintln!("valid {valid}, invalid {invalid} ({via_asm} through asm goto edges), unreachable {unreachable}");
    assert!(valid > 1000 && invalid > 1000 && via_asm > 200 && unreachable > 200);
}

/// A phi whose incoming values are random definitions: the verifier reports
/// exactly the entries the model finds unavailable on their edge.
#[test]
fn phi_edge_availability_matches_brute_force() {
    let (mut entries, mut bad_entries, mut bad_asm_edges) = (0, 0, 0);
    for seed in 0..10_000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x51_7cc1_b727) ^ 0x5a5a);
        let (mut f, defs) = random_function(&mut rng);
        let t = 1 + rng.below(f.blocks.len() - 1);
        let preds = preds_of(&f, t);
        if defs.is_empty() || preds.is_empty() {
            continue;
        }
        let incoming: Vec<(Operand, u32)> = preds
            .iter()
            .map(|&p| (Operand::Value(defs[rng.below(defs.len())].2), p as u32))
            .collect();
        f.blocks[t].instructions.insert(0, phi(20_000, I32, &incoming));
        let model = Model::new(&f);
        let mut expected: Vec<String> = Vec::new();
        for &(op, p) in &incoming {
            let Operand::Value(v) = op else { unreachable!() };
            let (d, j) = find_def(&f, v);
            entries += 1;
            if model.edge_available(&f, d, j, p as usize, t) == Some(false) {
                expected.push(format!("incoming value {v} from bb{p} "));
            }
        }
        let m = IrModule {
            functions: vec![f],
            ..IrModule::default()
        };
        let errs = verify_module(&m, VerifyMode::Ssa)
            .err()
            .map(|e| e.0)
            .unwrap_or_default();
        let text = format!("{:#?}", m.functions[0].blocks);
        assert_eq!(
            errs.len(),
            expected.len(),
            "seed {seed}: expected {expected:?}, got {errs:?}\n{text}"
        );
        for (e, want) in errs.iter().zip(&expected) {
            assert_eq!(
                (e.block, e.inst),
                (Some(BlockId(t as u32)), Some(0)),
                "seed {seed}: {e}"
            );
            assert!(e.message.starts_with(want), "seed {seed}: {e} (expected {want:?})");
            bad_asm_edges += e.message.contains("asm goto") as usize;
        }
        bad_entries += expected.len();
    }
    eprintln!("{entries} phi entries, {bad_entries} unavailable ({bad_asm_edges} on or through asm goto edges)");
    assert!(entries > 5000 && bad_entries > 1000 && bad_asm_edges > 200);
}
