//! `cgen`: random C programs aimed at SSA construction and destruction,
//! built from an `arbitrary::Unstructured` (so libFuzzer mutations stay
//! meaningful) or from a seed.
//!
//! Every byte string gives a valid, self-contained C11 program (GNU
//! extensions: `asm goto`, computed goto) that is free of undefined
//! behaviour by construction and prints a checksum of its globals and
//! locals at chosen points and at exit. The output is the same on x86-64,
//! AArch64 and RISC-V 64 and at every optimization level (see `expr.rs` for
//! the arithmetic rules and `asm.rs` for the per-target templates).
//!
//! What the programs contain (issue 9): many scalar locals of every width
//! (`_Bool` to `unsigned long long`, `float`, `double`, pointers to locals
//! and globals, small arrays), volatile locals, declarations without
//! initializer assigned before use, bounded `for`/`while`/`do` loops with
//! `break` and `continue`, nested if/else and ternaries, swaps, k-way
//! rotations and copy chains (the lost-copy and swap problems), small
//! switches and dispatch loops over ~100-case switches with fallthrough
//! (mem2reg's phi copy-cost limit), forward and backward `goto`,
//! computed-goto dispatch tables, calls with more arguments than argument
//! registers, parameters modified in the body, address-taken locals passed
//! by pointer, per-target `asm goto` with outputs, and empty-template asm
//! with tied operands. [`CgenConfig`] weighs these; [`Emphasis`] presets.
//!
//! Modules: `config` (knobs and presets), `types` (C scalar types and
//! constants), `model` (variables, signatures, helpers, text), `function`
//! (one function, its declarations and work bound), `expr` (UB-free
//! expressions), `stmt` (statement choice, straight-line statements),
//! `control` (branches, loops, switches, gotos), `asm` (inline asm),
//! `program` (globals, functions, `main`).

mod asm;
pub mod config;
mod control;
mod expr;
mod function;
mod model;
mod program;
mod stmt;
mod types;

pub use config::{CgenConfig, Emphasis, StmtWeights};

use crate::irgen::Choices;
use arbitrary::Unstructured;

/// Bytes of random input behind one seed: enough for the biggest preset, so
/// a seeded program never runs short of choices.
const SEED_BYTES: usize = 1 << 20;

/// The program for `seed` (deterministic).
pub fn generate(seed: u64, cfg: &CgenConfig) -> String {
    let bytes = seed_bytes(seed);
    let mut u = Unstructured::new(&bytes);
    generate_from(&mut u, cfg).expect("generation from bytes never fails")
}

/// The program for the bytes of `u`. Every byte string gives a valid
/// program: once the input is exhausted, every choice takes its first
/// alternative and the program is wrapped up.
pub fn generate_from(u: &mut Unstructured, cfg: &CgenConfig) -> arbitrary::Result<String> {
    let mut c = Choices::new(u);
    Ok(program::program(&mut c, cfg))
}

/// `SEED_BYTES` bytes from a SplitMix64 stream seeded with `seed`.
fn seed_bytes(seed: u64) -> Vec<u8> {
    let mut state = seed ^ 0x243f_6a88_85a3_08d3;
    let mut out = Vec::with_capacity(SEED_BYTES);
    while out.len() < SEED_BYTES {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

/// `oracle cgen`: print (or write to `output`) the program for `seed`.
pub fn run_cli(seed: u64, emphasis: Emphasis, output: Option<&std::path::Path>) -> anyhow::Result<()> {
    let text = generate(seed, &CgenConfig::preset(emphasis));
    match output {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?
        }
        None => print!("{text}"),
    }
    Ok(())
}
