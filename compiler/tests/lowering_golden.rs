//! Golden tests of lowering (cproc's habit: a small `.c` per feature with its
//! expected output beside it).
//!
//! - `tests/lowering/*.c`: the IR after lowering (`phicc --emit-ir`) must be
//!   exactly the `.ir` file beside it. A first line `// target: aarch64`
//!   picks the target (default x86_64). The expected IR must also verify and
//!   survive the mem2reg pipeline with the verifier after each pass.
//! - `tests/lowering/errors/*.c` (named by the C11 clause): compiling must fail
//!   with exactly the diagnostic in the `.expected` file beside it.
//!
//! `PHICC_BLESS=1 cargo test -p phicc --test lowering_golden` rewrites the
//! expected files from the current output.

use phicc::driver::{compile_to_ir, pipeline_for, CompileError, FrontendOptions};
use phicc::ir::text::print_module;
use phicc::target::Target;
use std::path::{Path, PathBuf};

fn bless() -> bool {
    std::env::var("PHICC_BLESS").is_ok_and(|v| v == "1")
}

/// The `.c` files of a directory, as paths relative to the package (so that
/// diagnostics name them the same way on every machine).
fn c_files(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .map(|p| Path::new(dir).join(p.file_name().unwrap()))
        .collect();
    files.sort();
    files
}

fn target_of(text: &str) -> Target {
    text.lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("// target:"))
        .and_then(|t| Target::from_name(t.trim()))
        .unwrap_or(Target::X86_64)
}

/// Compares (or blesses) one expected file; returns a failure message.
fn check(expected_path: &Path, got: &str) -> Option<String> {
    if bless() {
        std::fs::write(expected_path, got).unwrap();
        return None;
    }
    let want = std::fs::read_to_string(expected_path).unwrap_or_default();
    if want == got {
        return None;
    }
    let line = want
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(want.lines().count().min(got.lines().count()));
    Some(format!(
        "{}: differs from line {}:\n--- expected\n{}\n--- got\n{}",
        expected_path.display(),
        line + 1,
        want.lines().skip(line).take(5).collect::<Vec<_>>().join("\n"),
        got.lines().skip(line).take(5).collect::<Vec<_>>().join("\n"),
    ))
}

#[test]
fn c_to_ir() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let files = c_files("tests/lowering");
    assert!(files.len() >= 10);
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let opts = FrontendOptions::new(target_of(&text));
        let module = match compile_to_ir(f, &opts) {
            Ok(c) => c.module,
            Err(e) => {
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let mut after = module.clone();
        let mut p = pipeline_for(true, &[]).unwrap();
        p.verify_each = true;
        if let Err(e) = p.run(&mut after, &mut |_, _| {}) {
            failures.push(format!("{}: mem2reg pipeline: {e}", f.display()));
        }
        failures.extend(check(&f.with_extension("ir"), &print_module(&module)));
    }
    assert!(
        failures.is_empty(),
        "{}\n(run with PHICC_BLESS=1 to accept)",
        failures.join("\n")
    );
}

#[test]
fn c_to_diagnostic() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut failures = Vec::new();
    for f in c_files("tests/lowering/errors") {
        let text = std::fs::read_to_string(&f).unwrap();
        let got = match compile_to_ir(&f, &FrontendOptions::new(target_of(&text))) {
            Ok(_) => "(no error)\n".to_string(),
            Err(CompileError::Diagnostic(d)) => d,
            Err(CompileError::Internal(d)) => format!("internal error: {d}"),
        };
        failures.extend(check(&f.with_extension("expected"), &got));
    }
    assert!(
        failures.is_empty(),
        "{}\n(run with PHICC_BLESS=1 to accept)",
        failures.join("\n")
    );
}
