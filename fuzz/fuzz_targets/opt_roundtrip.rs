//! Alloca-form IR from the fuzzer's bytes, through every pass of the checked
//! configuration of phicc's pass table (`Configuration::CHECKED`, `opt`:
//! mem2reg, the inliner, SCCP, simplifycfg, GVN, LICM, DCE and phi
//! elimination), checked like `mem2reg_roundtrip`: verified after each pass,
//! interpreted before and after, every function called with `Inputs::FUZZ`.
//! Ten passes instead of four, so each input costs about twice as much.
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

fuzz_target!(|data: &[u8]| fuzz_ir_input(data, GenMode::Alloca, CheckMode::Pipeline));
