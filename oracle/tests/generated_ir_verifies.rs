//! The IR generators promise valid modules for every input; the verifier
//! checks that promise (and the generators exercise the verifier on large,
//! realistic IR: a false positive here is a verifier bug).

use arbitrary::Unstructured;
use oracle::irgen::{alloca, ssa};
use phicc::ir::reexports::*;
use phicc::ir::verify::{verify_module, VerifyMode};

/// Deterministic pseudo-random bytes (SplitMix64) for one seed.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

fn size(m: &IrModule) -> (usize, usize) {
    let blocks = m.functions.iter().map(|f| f.blocks.len()).sum();
    let insts = m.functions.iter().map(|f| f.num_instructions()).sum();
    (blocks, insts)
}

#[test]
fn generated_modules_verify() {
    let (mut blocks, mut insts, mut phis) = (0, 0, 0);
    for seed in 0..600u64 {
        let data = bytes(seed, 64 + (seed as usize * 37) % 4000);
        let m = alloca::generate(&mut Unstructured::new(&data));
        if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
            panic!("alloca-form module of seed {seed} does not verify:\n{e}\n{m:#?}");
        }
        let (b, i) = size(&m);
        (blocks, insts) = (blocks + b, insts + i);
        let m = ssa::generate(&mut Unstructured::new(&data));
        if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
            panic!("SSA-form module of seed {seed} does not verify:\n{e}\n{m:#?}");
        }
        let f = m.functions.iter().find(|f| !f.is_declaration).expect("a definition");
        phis += f
            .blocks
            .iter()
            .flat_map(|b| &b.instructions)
            .filter(|i| matches!(i, Instruction::Phi { .. }))
            .count();
    }
    // The check is only worth something on non-trivial programs.
    eprintln!("alloca form: {blocks} blocks, {insts} instructions; SSA form: {phis} phis");
    assert!(blocks > 600 * 5 && insts > 600 * 30 && phis > 600 * 2);
}

/// A tiny seeded generator for choosing mutations.
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        let b = bytes(self.0, 8);
        self.0 = self.0.wrapping_add(1);
        (u64::from_le_bytes(b.try_into().unwrap()) % n.max(1) as u64) as usize
    }
}

/// Positions `(function, block, inst)` of instructions that use a value.
fn uses(m: &IrModule) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (fi, f) in m.functions.iter().enumerate() {
        for (bi, b) in f.blocks.iter().enumerate() {
            for (ii, inst) in b.instructions.iter().enumerate() {
                if !inst.used_values().is_empty() {
                    out.push((fi, bi, ii));
                }
            }
        }
    }
    out
}

/// Breaking a generated module in a known way must give an error at the
/// place of the damage; random damage must never make the verifier panic.
#[test]
fn mutated_modules_are_rejected_where_broken() {
    let mut checked = [0usize; 3];
    for seed in 0..300u64 {
        let data = bytes(seed, 64 + (seed as usize * 53) % 3000);
        let mut pick = Pick(seed);
        for m in [
            alloca::generate(&mut Unstructured::new(&data)),
            ssa::generate(&mut Unstructured::new(&data)),
        ] {
            // 1. A use of a value that is defined nowhere.
            let sites = uses(&m);
            if !sites.is_empty() {
                let (fi, bi, ii) = sites[pick.below(sites.len())];
                let mut bad = m.clone();
                let ghost = Value(bad.functions[fi].scan_max_value_id() + 1000);
                let inst = &mut bad.functions[fi].blocks[bi].instructions[ii];
                let mut done = false;
                inst.for_each_value_use_mut(|v| {
                    if !done {
                        *v = ghost;
                        done = true;
                    }
                });
                let errs = verify_module(&bad, VerifyMode::Ssa).expect_err("undefined operand").0;
                let label = bad.functions[fi].blocks[bi].label;
                assert!(
                    errs.iter().any(|e| e.block == Some(label)
                        && e.inst == Some(ii)
                        && e.message.contains(&format!("operand {ghost} is not defined"))),
                    "seed {seed}: {errs:?}"
                );
                checked[0] += 1;
            }
            // 2. A branch to a block that does not exist.
            let (fi, f) = m.functions.iter().enumerate().find(|(_, f)| !f.is_declaration).unwrap();
            let bi = pick.below(f.blocks.len());
            if !f.blocks[bi].terminator.successors().is_empty() {
                let mut bad = m.clone();
                let old = bad.functions[fi].blocks[bi].terminator.successors()[0];
                let nowhere = BlockId(bad.next_block_id() + 5);
                bad.functions[fi].blocks[bi].terminator.retarget(old, nowhere);
                let errs = verify_module(&bad, VerifyMode::Ssa).expect_err("missing target").0;
                assert!(
                    errs.iter().any(|e| e.block == Some(bad.functions[fi].blocks[bi].label)
                        && e.message == format!("branch target {nowhere} is not a block of @{}", f.name)),
                    "seed {seed}: {errs:?}"
                );
                checked[1] += 1;
            }
            // 3. Random damage: operands replaced by arbitrary small value ids,
            // instructions moved. Any verdict is fine; a panic is not.
            let mut bad = m.clone();
            for _ in 0..8 {
                let sites = uses(&bad);
                if sites.is_empty() {
                    break;
                }
                let (fi, bi, ii) = sites[pick.below(sites.len())];
                let r = pick.below(64) as u32;
                bad.functions[fi].blocks[bi].instructions[ii].for_each_value_use_mut(|v| *v = Value(r));
                let nb = bad.functions[fi].blocks.len();
                let to = pick.below(nb);
                let inst = bad.functions[fi].blocks[bi].instructions.remove(ii);
                let at = pick.below(bad.functions[fi].blocks[to].instructions.len() + 1);
                bad.functions[fi].blocks[to].instructions.insert(at, inst);
            }
            let _ = verify_module(&bad, VerifyMode::Ssa);
            let _ = verify_module(&bad, VerifyMode::NonSsa);
            checked[2] += 1;
        }
    }
    assert!(checked.iter().all(|&c| c >= 300), "{checked:?}");
}
