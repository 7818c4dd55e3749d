//! The IR generators promise valid modules for every input; the verifier
//! checks that promise (and the generators exercise the verifier on large,
//! realistic IR: a false positive here is a verifier bug).

use arbitrary::Unstructured;
use oracle::irgen::{alloca, ssa};
use phicc::ir::reexports::Instruction;
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

fn size(m: &phicc::ir::module::IrModule) -> (usize, usize) {
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
