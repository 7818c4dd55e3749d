//! Alloca-form IR from the fuzzer's bytes, through every pass of the checked
//! configuration of phicc's pass table (`Configuration::CHECKED`, `opt`:
//! mem2reg, the inliner, SCCP, simplifycfg, GVN, LICM, DCE and phi
//! elimination), checked like `mem2reg_roundtrip`: verified after each pass,
//! interpreted before and after, every function called with `Inputs::FUZZ`.
//! Ten passes instead of four, so each input costs about twice as much.
#![no_main]

// The fast build's allocator (scripts/fuzz.sh; see fuzz/Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use libfuzzer_sys::fuzz_target;
use oracle::irgen::{generate, GenMode};
use oracle::ircheck::{check_module, CheckConfig, CheckMode, Inputs};

fuzz_target!(|data: &[u8]| {
    let module = generate(data, GenMode::Alloca);
    let cfg = CheckConfig { mode: CheckMode::Pipeline, inputs: Inputs::FUZZ.seeded_by(data), ..CheckConfig::default() };
    if let Some(failure) = check_module(&module, &cfg).failure {
        panic!("{failure}\n--- module ---\n{}", phicc::ir::text::print_module(&module));
    }
});
