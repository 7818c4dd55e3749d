//! Alloca-form IR from the fuzzer's bytes, through the `mem2reg`
//! configuration of phicc's pass table (what `phicc` runs without flags:
//! mem2reg, mem2reg-params, copyprop, phi elimination), verified after each
//! pass and interpreted before and after under the same inline-asm schedules;
//! every function besides `main` is also called with boundary and random
//! arguments (`Inputs::FUZZ`: every input only up to 8 bits of parameters).
//! This is the design card's target: SSA construction and phi elimination
//! alone, so that each input is cheap (docs/results.md has the rates);
//! `opt_roundtrip` runs the whole `opt` pipeline. A verifier failure or an
//! outcome difference panics with both outcomes and the module in textual
//! form (ready to save as a `.ir` file and replay with phiopt).
#![no_main]

#[cfg(asan)]
mod asan_options;

// The fast build's allocator (scripts/fuzz.sh; see fuzz/Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use libfuzzer_sys::fuzz_target;
use oracle::ircheck::{fuzz_ir_input, CheckMode};
use oracle::irgen::GenMode;

fuzz_target!(|data: &[u8]| fuzz_ir_input(data, GenMode::Alloca, CheckMode::Mem2reg));
