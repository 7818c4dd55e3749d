//! Arbitrary bytes through the C frontend and lowering (preprocessor, parser,
//! semantic analysis, lowering to IR, verifier) for each target, then the
//! target's backend and integrated assembler when it has one: any input
//! must give verified IR (and an object) or a diagnostic, never a panic, a
//! hang or a stack overflow. IR that fails the verifier is a lowering bug
//! and panics.
#![no_main]

#[cfg(asan)]
mod asan_options;

// The fast build's allocator (scripts/fuzz.sh; see fuzz/Cargo.toml).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use libfuzzer_sys::fuzz_target;
use phicc::frontend::preprocess::PreprocessOptions;
use phicc::frontend::source::SourceMap;
use phicc::target::Target;
use phicc::ir::verify::{verify_module, VerifyMode};

fuzz_target!(|data: &[u8]| {
    let target = Target::ALL[data.first().map_or(0, |&b| b as usize % Target::ALL.len())];
    let mut sm = SourceMap::new();
    let opts = PreprocessOptions::new(target);
    let tu = match phicc::frontend::parse_source(&mut sm, "fuzz.c", data, &opts) {
        Ok(tu) => tu,
        Err(d) => {
            // Rendering the diagnostic is part of the contract too.
            let _ = d.render(&sm);
            return;
        }
    };
    let program = match phicc::frontend::sema::analyze(&tu, target) {
        Ok((p, warnings)) => {
            for w in &warnings {
                let _ = w.render(&sm);
            }
            p
        }
        Err(d) => {
            let _ = d.render(&sm);
            return;
        }
    };
    match phicc::lower::lower_program(&program) {
        Ok(m) => {
            if let Err(e) = verify_module(&m, VerifyMode::NonSsa) {
                panic!("lowered IR does not verify:\n{e}");
            }
            // The backends (and the integrated assembler) take any verified
            // module: assembly, an object, or a BackendError, never a panic.
            if phicc::backend::target_isa(target).is_ok() {
                let _ = phicc::backend::emit_object(&m, target);
            }
        }
        Err(d) => {
            let _ = d.render(&sm);
        }
    }
});
