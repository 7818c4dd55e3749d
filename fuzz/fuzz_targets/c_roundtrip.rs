//! Generated C through phicc's frontend into the interpreter, with and
//! without the passes of the pass table's checked configuration: the
//! fuzzer's first byte picks the emphasis and the target, the rest drives `oracle::cgen` (every byte string is a
//! UB-free program). The program is lowered in process (no assembler, no
//! QEMU), checked like `mem2reg_roundtrip` (verifier after every pass,
//! interpreted before and after under the same inline-asm schedules), and a
//! frontend rejection, a verifier failure or an outcome difference panics
//! with the C program, ready to save and replay with `phicc --run-ir`.
#![no_main]

#[cfg(asan)]
mod asan_options;

// The fast build's allocator (scripts/fuzz.sh; see fuzz/Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use oracle::ccheck::lower_c;
use oracle::cgen::{generate_from, CgenConfig, Emphasis};
use oracle::ircheck::{check_module, CheckConfig, CheckMode, Inputs};
use phicc::target::Target;

fuzz_target!(|data: &[u8]| {
    let (&head, rest) = data.split_first().unwrap_or((&0, &[]));
    let emphasis = Emphasis::ALL[head as usize % Emphasis::ALL.len()];
    let target = Target::ALL[(head as usize / Emphasis::ALL.len()) % Target::ALL.len()];
    let src = generate_from(&mut Unstructured::new(rest), &CgenConfig::preset(emphasis))
        .expect("generation never fails");
    let module = lower_c(&src, target).unwrap_or_else(|f| panic!("{f}\n--- program ({target:?}) ---\n{src}"));
    // Only `main`: a C function called with arbitrary arguments may loop for
    // the whole 20M-step fuel (the many-inputs check is for generated IR).
    let cfg = CheckConfig { mode: CheckMode::Pipeline, schedules: vec![0, 1], fuel: 20_000_000, inputs: Inputs::OFF };
    if let Some(failure) = check_module(&module, &cfg).failure {
        panic!("{failure}\n--- program ({target:?}, {}) ---\n{src}", emphasis.name());
    }
});
