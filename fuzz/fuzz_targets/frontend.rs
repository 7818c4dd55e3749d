//! Arbitrary bytes through the C frontend (preprocessor, parser and semantic
//! analysis; lowering joins when it exists) for each target: any input must
//! give a typed program or a diagnostic, never a panic, a hang or a stack
//! overflow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phicc::frontend::preprocess::PreprocessOptions;
use phicc::frontend::source::SourceMap;
use phicc::frontend::target::Target;

fuzz_target!(|data: &[u8]| {
    let target = match data.first().map(|b| b % 3) {
        Some(1) => Target::Aarch64,
        Some(2) => Target::Riscv64,
        _ => Target::X86_64,
    };
    let mut sm = SourceMap::new();
    let opts = PreprocessOptions::new(target);
    match phicc::frontend::parse_source(&mut sm, "fuzz.c", data, &opts) {
        // Rendering the diagnostic is part of the contract too.
        Err(d) => {
            let _ = d.render(&sm);
        }
        Ok(tu) => match phicc::frontend::sema::analyze(&tu, target) {
            Err(d) => {
                let _ = d.render(&sm);
            }
            Ok((_program, warnings)) => {
                for w in &warnings {
                    let _ = w.render(&sm);
                }
            }
        },
    }
});
