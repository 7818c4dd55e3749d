//! The hand-written IR corpus (`corpora/ir/*.ir`, textual form) runs in the
//! interpreter: no `unsupported` trap, the same outcome twice per seed, and
//! the documented results of the swap loop and the asm goto example.

use phicc::ir::interp::{run, Outcome, RunConfig, RunResult, TrapKind};
use phicc::ir::text::parse_module;
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpora/ir")
}

fn run_file(name: &str, seed: u64) -> Outcome {
    let src = std::fs::read_to_string(corpus_dir().join(name)).unwrap();
    let m = parse_module(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
    run(
        &m,
        &RunConfig {
            schedule_seed: seed,
            ..RunConfig::default()
        },
    )
}

#[test]
fn every_corpus_program_runs_deterministically() {
    let mut n = 0;
    for entry in std::fs::read_dir(corpus_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ir") {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        for seed in 0..4 {
            let out = run_file(&name, seed);
            assert!(
                !matches!(
                    out.result,
                    RunResult::Trap(TrapKind::Unsupported(_)) | RunResult::OutOfFuel
                ),
                "{name}: {out}"
            );
            assert_eq!(out, run_file(&name, seed), "{name}");
        }
        n += 1;
    }
    assert!(n >= 6, "only {n} corpus files");
}

#[test]
fn swap_loop_prints_the_swapped_pair() {
    let out = run_file("loop_swap.ir", 0);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a=2 b=1\n");
    assert_eq!(out.result, RunResult::Returned(Some(21)));
}

#[test]
fn asm_goto_example_takes_both_edges() {
    let results: Vec<RunResult> = (0..16).map(|s| run_file("asm_goto_outputs.ir", s).result).collect();
    assert!(results.contains(&RunResult::Returned(Some(5))), "{results:?}");
    assert!(results
        .iter()
        .any(|r| matches!(r, RunResult::Returned(Some(v)) if (1000..1256).contains(v))));
}
