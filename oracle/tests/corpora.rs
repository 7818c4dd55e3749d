//! Every program of `corpora/ir/` (hand-written) and `corpora/regressions/`
//! (reduced findings) passes the full IR check: the mem2reg pipeline with the
//! verifier after each stage and the same outcome under several schedules.

use oracle::ircheck::{check_module, CheckConfig, CheckMode};
use phicc::ir::text::parse_module;
use std::path::PathBuf;

fn files(dir: &str) -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    v.sort();
    v
}

#[test]
fn corpus_and_regressions_pass_the_pipeline_check() {
    let all: Vec<PathBuf> = files("corpora/ir")
        .into_iter()
        .chain(files("corpora/regressions"))
        .collect();
    assert!(all.len() >= 8, "expected the corpus and the regressions, found {all:?}");
    let cfg = CheckConfig {
        mode: CheckMode::Pipeline,
        schedules: vec![0, 1, 2, 3],
        fuel: 1_000_000,
    };
    for f in all {
        let text = std::fs::read_to_string(&f).unwrap();
        let m = parse_module(&text).unwrap_or_else(|e| panic!("{}:{e}", f.display()));
        let report = check_module(&m, &cfg);
        assert!(report.failure.is_none(), "{}: {}", f.display(), report.failure.unwrap());
        assert!(!report.inconclusive, "{}: ran out of fuel", f.display());
    }
}
