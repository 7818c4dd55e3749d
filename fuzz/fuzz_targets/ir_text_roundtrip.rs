//! The textual IR round trip: generated modules print and parse back to an
//! equal module; and arbitrary text never makes the parser panic, and whatever
//! it accepts prints to text that parses to the same module.
#![no_main]

#[cfg(asan)]
mod asan_options;

// The fast build's allocator (scripts/fuzz.sh; see fuzz/Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use libfuzzer_sys::fuzz_target;
use oracle::irgen::{generate, GenMode};
use phicc::ir::text::{parse_module, print_module};

fuzz_target!(|data: &[u8]| {
    let mode = if data.first().is_some_and(|b| b & 1 == 1) { GenMode::Ssa } else { GenMode::Alloca };
    let module = generate(data, mode);
    let text = print_module(&module);
    let back = parse_module(&text).unwrap_or_else(|e| panic!("printed module does not parse: {e}\n{text}"));
    assert!(back == module, "round trip changed the module:\n{text}");

    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(m) = parse_module(s) {
            let t = print_module(&m);
            let m2 = parse_module(&t).unwrap_or_else(|e| panic!("reprint does not parse: {e}\n{t}"));
            assert!(m2 == m, "reprint changed the module:\n{t}");
        }
    }
});
