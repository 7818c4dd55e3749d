//! Cross-check of the CFG and dominance analysis against brute force on
//! random control-flow graphs.
//!
//! Each graph is a real `IrFunction` (1 to 40 blocks, shuffled labels) whose
//! edges come from `br`, `condbr`, `switch` (duplicate case targets),
//! `indirectbr` and `asm goto` labels, so `build_cfg` is tested too. The
//! reference is the classic iterative dataflow over dominator sets (bit masks):
//! `Dom(entry) = {entry}`, `Dom(b) = {b} ∪ ⋂ Dom(p)` over reachable
//! predecessors `p`, iterated to the greatest fixed point. From it:
//! - `idom(b)` is the strict dominator of `b` with the largest dominator set;
//! - `a` dominates `b` iff `a ∈ Dom(b)` (both reachable);
//! - `y ∈ DF(x)` iff `x` dominates a reachable predecessor of `y` and does not
//!   strictly dominate `y`.
//!
//! The verifier's independent check (`phicc::ir::dominator_sets`) must agree
//! with both, and its irreducibility test with the retreating-edge count.
//!
//! The generator is seeded, and the test counts irreducible graphs,
//! self-loops, multi-edges, unreachable blocks, blocks whose only predecessors
//! are unreachable and entries with predecessors, and requires each to occur.

#![allow(clippy::needless_range_loop)] // index-based loops mirror the set definitions

use phicc::ir::analysis::{
    build_cfg, build_dom_tree_children, build_label_map, compute_dominance_frontiers, compute_dominators,
    compute_reverse_postorder, CfgAnalysis,
};
use phicc::ir::dominator_sets::{cross_check, cross_check_frontiers, DominatorSets};
use phicc::ir::reexports::*;

/// SplitMix64: a tiny, well-mixed, seedable generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A generated CFG: the function and the expected successor sets (bit masks by block index).
struct Graph {
    func: IrFunction,
    succ: Vec<u64>,
    /// Some block names one successor twice (in its terminator, or in its
    /// terminator and an asm goto).
    has_multi_edge: bool,
}

fn asm_goto(targets: &[BlockId]) -> Instruction {
    Instruction::InlineAsm(Box::new(InlineAsm {
        template: "jmp %l0".into(),
        outputs: vec![],
        inputs: vec![],
        clobbers: vec![],
        operand_types: vec![],
        goto_labels: targets.iter().enumerate().map(|(i, t)| (format!("l{i}"), *t)).collect(),
        input_symbols: vec![],
        seg_overrides: vec![],
    }))
}

fn random_graph(rng: &mut Rng) -> Graph {
    // Bias towards small graphs, where corner cases are dense, but cover 1..=40.
    let n = if rng.chance(30) {
        1 + rng.below(8)
    } else {
        1 + rng.below(40)
    };
    let entry_preds_ok = rng.chance(10);
    let forward_bias = rng.below(80) as u64; // how often a target is the next block
    let exit_rate = 5 + rng.below(20) as u64;
    // Distinct shuffled labels: the entry need not be bb0, labels need not be dense.
    let mut ids: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        ids.swap(i, rng.below(i + 1));
    }
    let label = |i: usize| BlockId(ids[i] * 7 + 3);
    let pick = |rng: &mut Rng, from: usize| -> usize {
        if from + 1 < n && rng.chance(forward_bias) {
            return from + 1;
        }
        loop {
            let t = rng.below(n);
            if t != 0 || entry_preds_ok {
                return t;
            }
            if n == 1 {
                return usize::MAX;
            }
        }
    };
    let mut succ = vec![0u64; n];
    let mut has_multi_edge = false;
    let mut blocks = Vec::with_capacity(n);
    for b in 0..n {
        let k = if rng.chance(exit_rate) {
            0
        } else {
            match rng.below(10) {
                0..=3 => 1,
                4..=7 => 2,
                _ => 3 + rng.below(4),
            }
        };
        let mut targets: Vec<usize> = (0..k).map(|_| pick(rng, b)).filter(|&t| t != usize::MAX).collect();
        if targets.len() >= 2 && rng.chance(10) {
            targets[1] = targets[0]; // a multi-edge
        }
        let tl: Vec<BlockId> = targets.iter().map(|&t| label(t)).collect();
        let terminator = match tl.len() {
            0 if rng.chance(50) => Terminator::Return(None),
            0 => Terminator::Unreachable,
            1 => match rng.below(3) {
                0 => Terminator::Branch(tl[0]),
                1 => Terminator::Switch {
                    val: Operand::Const(IrConst::I32(0)),
                    cases: if rng.chance(50) { vec![] } else { vec![(1, tl[0])] },
                    default: tl[0],
                    ty: IrType::I32,
                },
                _ => Terminator::IndirectBranch {
                    target: Operand::Const(IrConst::I64(0)),
                    possible_targets: tl.clone(),
                },
            },
            2 if rng.chance(60) => Terminator::CondBranch {
                cond: Operand::Const(IrConst::I8(1)),
                true_label: tl[0],
                false_label: tl[1],
            },
            _ if rng.chance(50) => Terminator::IndirectBranch {
                target: Operand::Const(IrConst::I64(0)),
                possible_targets: tl.clone(),
            },
            _ => Terminator::Switch {
                val: Operand::Const(IrConst::I32(0)),
                cases: tl[1..].iter().enumerate().map(|(i, &t)| (i as i64, t)).collect(),
                default: tl[0],
                ty: IrType::I32,
            },
        };
        let mut instructions = Vec::new();
        if rng.chance(15) {
            for _ in 0..1 + rng.below(2) {
                let gs: Vec<usize> = (0..1 + rng.below(2))
                    .map(|_| pick(rng, b))
                    .filter(|&t| t != usize::MAX)
                    .collect();
                let gl: Vec<BlockId> = gs.iter().map(|&t| label(t)).collect();
                instructions.push(asm_goto(&gl));
                targets.extend(gs);
            }
        }
        for (i, &t) in targets.iter().enumerate() {
            if targets[..i].contains(&t) {
                has_multi_edge = true;
            }
            succ[b] |= 1 << t;
        }
        blocks.push(BasicBlock {
            label: label(b),
            instructions,
            terminator,
        });
    }
    let mut func = IrFunction::new("g", IrType::Void, vec![]);
    func.blocks = blocks;
    Graph {
        func,
        succ,
        has_multi_edge,
    }
}

fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |i| mask >> i & 1 == 1)
}

fn mask_of(row: &[u32]) -> u64 {
    row.iter().fold(0, |m, &x| m | 1 << x)
}

/// Brute-force facts about one graph.
struct Reference {
    reachable: u64,
    pred: Vec<u64>,
    /// Dominator sets (meaningful for reachable blocks).
    dom: Vec<u64>,
}

fn reference(succ: &[u64]) -> Reference {
    let n = succ.len();
    let mut pred = vec![0u64; n];
    for (a, &s) in succ.iter().enumerate() {
        for b in bits(s) {
            pred[b] |= 1 << a;
        }
    }
    let mut reachable = 1u64;
    let mut work = vec![0usize];
    while let Some(a) = work.pop() {
        for b in bits(succ[a]) {
            if reachable >> b & 1 == 0 {
                reachable |= 1 << b;
                work.push(b);
            }
        }
    }
    let mut dom = vec![reachable; n];
    dom[0] = 1;
    let mut changed = true;
    while changed {
        changed = false;
        for b in bits(reachable).filter(|&b| b != 0) {
            let mut d = reachable;
            for p in bits(pred[b] & reachable) {
                d &= dom[p];
            }
            d |= 1 << b;
            if d != dom[b] {
                dom[b] = d;
                changed = true;
            }
        }
    }
    Reference { reachable, pred, dom }
}

#[derive(Default, Debug)]
struct Coverage {
    graphs: usize,
    irreducible: usize,
    self_loops: usize,
    multi_edges: usize,
    unreachable: usize,
    only_unreachable_preds: usize,
    entry_preds: usize,
    asm_goto: usize,
    /// Graphs with at least 20 reachable blocks.
    large: usize,
}

fn check_graph(g: &Graph, cov: &mut Coverage, seed: u64) {
    let f = &g.func;
    let n = f.blocks.len();
    let ctx = |what: &str| format!("seed {seed}, {n} blocks, succ {:?}: {what}", g.succ);
    let r = reference(&g.succ);
    let reach = |b: usize| r.reachable >> b & 1 == 1;

    // build_cfg: exactly the generated edges, each once.
    let labels = build_label_map(f);
    let (preds, succs) = build_cfg(f, &labels);
    for b in 0..n {
        assert_eq!(mask_of(succs.row(b)), g.succ[b], "{}", ctx(&format!("succs of {b}")));
        assert_eq!(
            succs.len(b),
            g.succ[b].count_ones() as usize,
            "{}",
            ctx("duplicate successor")
        );
        assert_eq!(mask_of(preds.row(b)), r.pred[b], "{}", ctx(&format!("preds of {b}")));
        assert_eq!(
            preds.len(b),
            r.pred[b].count_ones() as usize,
            "{}",
            ctx("duplicate predecessor")
        );
    }

    // Immediate dominators.
    let expected_idom: Vec<usize> = (0..n)
        .map(|b| {
            if !reach(b) {
                usize::MAX
            } else if b == 0 {
                0
            } else {
                bits(r.dom[b] & !(1 << b))
                    .max_by_key(|&d| r.dom[d].count_ones())
                    .expect("a reachable non-entry block has the entry as strict dominator")
            }
        })
        .collect();
    let idom = compute_dominators(n, &preds, &succs);
    assert_eq!(idom, expected_idom, "{}", ctx("idom"));
    let cfg = CfgAnalysis::build(f);
    assert_eq!(cfg.idom, expected_idom, "{}", ctx("CfgAnalysis idom"));
    // The verifier's independent check (data flow over dominator sets) agrees.
    let ds = DominatorSets::compute(n, &preds, &succs);
    for b in 0..n {
        assert_eq!(
            ds.idom(b).unwrap_or(usize::MAX),
            expected_idom[b],
            "{}",
            ctx("DominatorSets idom")
        );
    }
    let disagreements = cross_check(&cfg, |b| b.to_string());
    assert!(disagreements.is_empty(), "{}: {disagreements:?}", ctx("cross_check"));
    let sorted = |sets: Vec<rustc_hash::FxHashSet<usize>>| -> Vec<Vec<usize>> {
        sets.into_iter()
            .map(|s| {
                let mut v: Vec<usize> = s.into_iter().collect();
                v.sort_unstable();
                v
            })
            .collect()
    };
    let analysis_df = sorted(cfg.dominance_frontiers());
    let disagreements = cross_check_frontiers(&cfg, &analysis_df, |b| b.to_string());
    assert!(
        disagreements.is_empty(),
        "{}: {disagreements:?}",
        ctx("analysis.rs frontiers")
    );
    // mem2reg's own frontiers, where it can run: the verifier rejects an
    // entry block with predecessors (the walk then stops short of it).
    if r.pred[0] == 0 {
        let mem2reg_df = phicc::passes::mem2reg::placement_frontiers(&cfg);
        let disagreements = cross_check_frontiers(&cfg, &mem2reg_df, |b| b.to_string());
        assert!(
            disagreements.is_empty(),
            "{}: {disagreements:?}",
            ctx("mem2reg frontiers")
        );
    }

    // Reverse postorder: the reachable blocks, entry first, each after its idom.
    let rpo = compute_reverse_postorder(n, &succs);
    assert_eq!(cfg.rpo, rpo);
    assert_eq!(
        mask_of(&rpo.iter().map(|&b| b as u32).collect::<Vec<_>>()),
        r.reachable,
        "{}",
        ctx("rpo set")
    );
    assert_eq!(rpo.len(), r.reachable.count_ones() as usize, "{}", ctx("rpo repeats"));
    assert_eq!(rpo[0], 0);
    let mut order = vec![usize::MAX; n];
    for (i, &b) in rpo.iter().enumerate() {
        order[b] = i;
    }
    for &b in &rpo[1..] {
        assert!(
            order[expected_idom[b]] < order[b],
            "{}",
            ctx("rpo places a block before its idom")
        );
    }

    // Dominance queries.
    for a in 0..n {
        for b in 0..n {
            let expected = reach(a) && reach(b) && r.dom[b] >> a & 1 == 1;
            assert_eq!(
                cfg.dominates(a, b),
                expected,
                "{}",
                ctx(&format!("dominates({a}, {b})"))
            );
        }
    }

    // Dominance frontiers by definition.
    let mut expected_df = vec![0u64; n];
    for y in 0..n {
        for p in bits(r.pred[y] & r.reachable) {
            for x in bits(r.dom[p]) {
                let strictly_dominates_y = x != y && reach(y) && r.dom[y] >> x & 1 == 1;
                if !strictly_dominates_y {
                    expected_df[x] |= 1 << y;
                }
            }
        }
    }
    let df = compute_dominance_frontiers(n, &preds, &idom);
    let df2 = cfg.dominance_frontiers();
    for x in 0..n {
        let got = df[x].iter().fold(0u64, |m, &y| m | 1 << y);
        assert_eq!(got, expected_df[x], "{}", ctx(&format!("DF({x})")));
        assert_eq!(df2[x], df[x]);
    }

    // Dominator-tree children.
    let children = build_dom_tree_children(n, &idom);
    assert_eq!(cfg.dom_children, children);
    for x in 0..n {
        let expected: u64 = (1..n).filter(|&b| expected_idom[b] == x).fold(0, |m, b| m | 1 << b);
        let got = children[x].iter().fold(0u64, |m, &c| m | 1 << c);
        assert_eq!(got, expected, "{}", ctx(&format!("children of {x}")));
        assert_eq!(
            children[x].len(),
            expected.count_ones() as usize,
            "{}",
            ctx("repeated child")
        );
    }

    // Coverage of the interesting shapes.
    cov.graphs += 1;
    let retreating_non_back = (0..n)
        .filter(|&u| reach(u))
        .any(|u| bits(g.succ[u]).any(|v| order[v] <= order[u] && r.dom[u] >> v & 1 == 0));
    cov.irreducible += retreating_non_back as usize;
    assert_eq!(
        ds.has_irreducible_loop(&succs),
        retreating_non_back,
        "{}",
        ctx("irreducible")
    );
    cov.self_loops += (0..n).any(|b| reach(b) && g.succ[b] >> b & 1 == 1) as usize;
    cov.multi_edges += g.has_multi_edge as usize;
    cov.unreachable += (r.reachable.count_ones() as usize != n) as usize;
    cov.only_unreachable_preds += (0..n).any(|b| !reach(b) && r.pred[b] != 0) as usize;
    cov.entry_preds += (r.pred[0] != 0) as usize;
    cov.asm_goto += f.blocks.iter().any(|b| !b.instructions.is_empty()) as usize;
    cov.large += (r.reachable.count_ones() >= 20) as usize;
}

#[test]
fn random_cfgs_match_brute_force() {
    let mut cov = Coverage::default();
    for seed in 0..12_000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed);
        let g = random_graph(&mut rng);
        check_graph(&g, &mut cov, seed);
    }
    eprintln!("{cov:?}");
    assert_eq!(cov.graphs, 12_000);
    for (name, count) in [
        ("irreducible", cov.irreducible),
        ("self-loops", cov.self_loops),
        ("multi-edges", cov.multi_edges),
        ("unreachable blocks", cov.unreachable),
        ("blocks with only unreachable predecessors", cov.only_unreachable_preds),
        ("entry with predecessors", cov.entry_preds),
        ("asm goto", cov.asm_goto),
        ("at least 20 reachable blocks", cov.large),
    ] {
        assert!(count >= 300, "only {count} graphs with {name}: {cov:?}");
    }
}

/// Hand-picked shapes, checked the same way.
#[test]
fn classic_shapes_match_brute_force() {
    let shapes: &[&[(usize, usize)]] = &[
        // Irreducible: two entries into the loop {1, 2}.
        &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 3)],
        // Nested irreducible regions.
        &[(0, 1), (0, 3), (1, 2), (2, 3), (3, 4), (4, 1), (4, 5), (5, 3)],
        // Self-loop on the only successor of the entry and an unreachable chain 3 -> 4 -> 2.
        &[(0, 1), (1, 1), (1, 2), (3, 4), (4, 2)],
        // The entry inside a loop.
        &[(0, 1), (1, 0), (1, 2)],
    ];
    let mut cov = Coverage::default();
    for (k, edges) in shapes.iter().enumerate() {
        let n = edges.iter().map(|&(a, b)| a.max(b)).max().unwrap() + 1;
        let mut succ = vec![0u64; n];
        let mut targets = vec![Vec::new(); n];
        for &(a, b) in edges.iter() {
            succ[a] |= 1 << b;
            targets[a].push(BlockId(b as u32));
        }
        let mut func = IrFunction::new("g", IrType::Void, vec![]);
        func.blocks = targets
            .into_iter()
            .enumerate()
            .map(|(b, ts)| BasicBlock {
                label: BlockId(b as u32),
                instructions: vec![],
                terminator: Terminator::IndirectBranch {
                    target: Operand::Const(IrConst::I64(0)),
                    possible_targets: ts,
                },
            })
            .collect();
        check_graph(
            &Graph {
                func,
                succ,
                has_multi_edge: false,
            },
            &mut cov,
            k as u64,
        );
    }
    assert_eq!(cov.irreducible, 2);
    assert_eq!(cov.self_loops, 1);
    assert_eq!(cov.only_unreachable_preds, 1);
    assert_eq!(cov.entry_preds, 1);
}
