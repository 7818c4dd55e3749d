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
//! definition's own segment, the definition must come first).

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

/// Does the definition at (`d`, `j`) reach the use at (`t`, `i`) on every path?
/// `None` when the use is unreachable (the verifier does not check it).
fn brute_force_available(f: &IrFunction, d: usize, j: usize, t: usize, i: usize) -> Option<bool> {
    let segs: Vec<usize> = f
        .blocks
        .iter()
        .map(|b| segment(&b.instructions, usize::MAX) + 1)
        .collect();
    let node = |b: usize, s: usize| segs[..b].iter().sum::<usize>() + s;
    let total: usize = segs.iter().sum();
    // Out-edges of each segment node, tagged fall-through or not.
    let mut edges: Vec<Vec<(usize, bool)>> = vec![Vec::new(); total];
    for (b, block) in f.blocks.iter().enumerate() {
        let mut s = 0;
        for inst in &block.instructions {
            let gotos = inst.asm_goto_targets();
            if !gotos.is_empty() {
                for (_, l) in gotos {
                    edges[node(b, s)].push((node(l.0 as usize, 0), false));
                }
                edges[node(b, s)].push((node(b, s + 1), true));
                s += 1;
            }
        }
        block
            .terminator
            .for_each_successor(|l| edges[node(b, s)].push((node(l.0 as usize, 0), false)));
    }
    let reach = |blocked: Option<(usize, bool)>| {
        let mut seen = vec![false; total];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(u) = stack.pop() {
            for &(w, fall) in &edges[u] {
                let cut = match blocked {
                    Some((bn, only_fall)) => u == bn && (fall || !only_fall),
                    None => false,
                };
                if !cut && !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        seen
    };
    let use_node = node(t, segment(&f.blocks[t].instructions, i));
    if !reach(None)[node(t, 0)] {
        return None;
    }
    let def_inst = &f.blocks[d].instructions[j];
    let is_asm = !def_inst.asm_goto_targets().is_empty();
    let def_node = node(d, segment(&f.blocks[d].instructions, j));
    if def_node == use_node {
        return Some(j < i);
    }
    // An asm output is defined on its fall-through edge only: its goto edges stay.
    Some(!reach(Some((def_node, is_asm)))[use_node])
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
        let (d, mut j, v) = defs[rng.below(defs.len())];
        // Half the uses in the defining block, where order and asm segments matter most.
        let t = if rng.below(2) == 0 {
            d
        } else {
            rng.below(f.blocks.len())
        };
        let i = rng.below(f.blocks[t].instructions.len() + 1);
        let user = Value(10_000);
        f.blocks[t].instructions.insert(
            i,
            Instruction::BinOp {
                dest: user,
                op: IrBinOp::Add,
                lhs: Operand::Value(v),
                rhs: Operand::Const(IrConst::I32(1)),
                ty: I32,
            },
        );
        if t == d && i <= j {
            j += 1;
        }
        let expected = brute_force_available(&f, d, j, t, i);
        let m = IrModule {
            functions: vec![f],
            ..IrModule::default()
        };
        let result = verify_module(&m, VerifyMode::Ssa);
        let text = m.functions[0]
            .blocks
            .iter()
            .map(|b| format!("{:?}", b))
            .collect::<Vec<_>>()
            .join("\n");
        match expected {
            None => {
                unreachable += 1;
                assert!(result.is_ok(), "seed {seed}: use unreachable, got {:?}\n{text}", result);
            }
            Some(true) => {
                valid += 1;
                assert!(
                    result.is_ok(),
                    "seed {seed}: {v} reaches the use, got {:?}\n{text}",
                    result
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
