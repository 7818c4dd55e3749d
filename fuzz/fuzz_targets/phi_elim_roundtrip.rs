//! SSA-form IR (phis reading phis, critical edges) from the fuzzer's bytes,
//! through the `nomem2reg` configuration of the pass table (phi elimination
//! alone), checked like `mem2reg_roundtrip`.
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

fuzz_target!(|data: &[u8]| fuzz_ir_input(data, GenMode::Ssa, CheckMode::PhiElimOnly));
