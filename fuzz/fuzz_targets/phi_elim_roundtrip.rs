//! SSA-form IR (phis reading phis, critical edges) from the fuzzer's bytes,
//! through the `nomem2reg` configuration of the pass table (phi elimination
//! alone), checked like `mem2reg_roundtrip`.
#![no_main]

// The fast build's allocator (scripts/fuzz.sh; see fuzz/Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use libfuzzer_sys::fuzz_target;
use oracle::irgen::{generate, GenMode};
use oracle::ircheck::{check_module, CheckConfig, CheckMode};

fuzz_target!(|data: &[u8]| {
    let module = generate(data, GenMode::Ssa);
    let cfg = CheckConfig { mode: CheckMode::PhiElimOnly, ..CheckConfig::default() };
    if let Some(failure) = check_module(&module, &cfg).failure {
        panic!("{failure}\n--- module ---\n{}", phicc::ir::text::print_module(&module));
    }
});
