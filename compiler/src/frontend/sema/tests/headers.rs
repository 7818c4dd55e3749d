//! Real inputs: the glibc headers of every target and Csmith programs must
//! analyze without error.

use super::support::analyze_t;
use crate::frontend::preprocess::tests::{csmith_program, target_available};
use crate::frontend::source::SourceMap;
use crate::frontend::PreprocessOptions;
use crate::target::Target;

const HEADERS: &[&str] = &[
    "stdio.h",
    "stdlib.h",
    "string.h",
    "stdint.h",
    "math.h",
    "stdarg.h",
    "limits.h",
    "stddef.h",
    "stdbool.h",
    "float.h",
    "inttypes.h",
    "ctype.h",
    "errno.h",
    "assert.h",
    "wchar.h",
    "signal.h",
    "setjmp.h",
    "time.h",
    "unistd.h",
    "stdalign.h",
    "stdnoreturn.h",
    "fcntl.h",
    "sys/types.h",
    "sys/stat.h",
    "locale.h",
];

#[test]
fn glibc_headers_analyze_for_every_target() {
    let mut n = 0;
    for t in Target::ALL {
        if !target_available(t) {
            continue;
        }
        let mut all = String::new();
        for h in HEADERS {
            all.push_str(&format!("#include <{h}>\n"));
        }
        all.push_str(
            "int main(int argc, char **argv) {
                printf(\"%d %s\\n\", argc, strchr(argv[0], '/'));
                va_list ap; (void)ap;
                uint64_t u = UINT64_MAX; int8_t s = INT8_MIN;
                assert(argc > 0);
                if (isdigit(argv[0][0])) return 1;
                return (int)sqrt(4.0) + INT_MAX / 2 + (int)strlen(\"x\") + (int)(u >> 63) + s + errno;
            }\n",
        );
        if let Err(e) = analyze_t(&all, t) {
            panic!("{}: {e}", t.name());
        }
        n += 1;
    }
    eprintln!("analyzed the headers for {n} targets");
}

/// Preprocesses, parses and analyzes a file; the rendered error on failure.
pub(crate) fn analyze_file(path: &std::path::Path, t: Target, include: &[&str]) -> Result<usize, String> {
    analyze_file_timed(path, t, include).map(|(n, _, _)| n)
}

/// Like `analyze_file`, also giving the time of preprocess + parse and of analysis.
fn analyze_file_timed(
    path: &std::path::Path,
    t: Target,
    include: &[&str],
) -> Result<(usize, std::time::Duration, std::time::Duration), String> {
    let mut o = PreprocessOptions::new(t);
    for i in include {
        o.include_dirs.push((*i).into());
    }
    let mut sm = SourceMap::new();
    let start = std::time::Instant::now();
    let (tu, _) = crate::frontend::parse(&mut sm, path, &o).map_err(|d| d.render(&sm))?;
    let parsed = start.elapsed();
    let (p, _) = crate::frontend::sema::analyze(&tu, t).map_err(|d| d.render(&sm))?;
    Ok((p.functions.len(), parsed, start.elapsed() - parsed))
}

/// A sample of Csmith programs (the full 1..300 sweep, as separate phicc processes, is
/// `oracle bench-compile 300 --syntax-only --targets x86_64,aarch64,riscv64`).
#[test]
fn csmith_programs_analyze_for_every_target() {
    let dir = super::support::tempdir("csmith");
    let mut n = 0;
    for seed in 1..=20 {
        let Some(path) = csmith_program(&dir, seed) else {
            crate::test_skip::tool_missing("the Csmith sample", "csmith or its headers are not installed");
            return;
        };
        for t in Target::ALL {
            if !target_available(t) {
                continue;
            }
            if let Err(e) = analyze_file(&path, t, &["/usr/include/csmith"]) {
                panic!("csmith seed {seed} {}: {e}", t.name());
            }
            n += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("analyzed {n} csmith program/target combinations");
}

/// Ad-hoc: `PHICC_SEMA_FILES=a.c:b.c cargo test -p phicc --lib sema_files_from_env -- --ignored --nocapture`
/// (targets from `PHICC_SEMA_TARGETS`, default x86_64; include dirs from `PHICC_SEMA_INCLUDE`).
#[test]
#[ignore]
fn sema_files_from_env() {
    let list = std::env::var("PHICC_SEMA_FILES").unwrap_or_default();
    let targets: Vec<Target> = std::env::var("PHICC_SEMA_TARGETS")
        .unwrap_or_else(|_| "x86_64".into())
        .split(',')
        .filter_map(Target::from_name)
        .collect();
    let inc = std::env::var("PHICC_SEMA_INCLUDE").unwrap_or_default();
    let inc: Vec<&str> = inc.split(':').filter(|s| !s.is_empty()).collect();
    let (mut good, mut bad) = (0, 0);
    for f in list.split(':').filter(|f| !f.is_empty()) {
        for &t in &targets {
            match analyze_file(std::path::Path::new(f), t, &inc) {
                Ok(_) => good += 1,
                Err(e) => {
                    bad += 1;
                    eprintln!("{f} ({}): {e}", t.name());
                }
            }
        }
    }
    eprintln!("{good} analyzed, {bad} failed");
}

/// Ad-hoc: time of each phase on a tiny program (fuzzing throughput).
/// `cargo test --release -p phicc --lib tiny_program_phase_times -- --ignored --nocapture`
#[test]
#[ignore]
fn tiny_program_phase_times() {
    let src = b"int f(int x) { return x + 1; }";
    let n = 300;
    let (mut pp, mut parse, mut sema) = (
        std::time::Duration::ZERO,
        std::time::Duration::ZERO,
        std::time::Duration::ZERO,
    );
    for _ in 0..n {
        let mut sm = SourceMap::new();
        let t0 = std::time::Instant::now();
        let p = crate::frontend::preprocess::preprocess_source(
            &mut sm,
            "t.c",
            src.to_vec(),
            &PreprocessOptions::new(Target::X86_64),
        )
        .unwrap();
        let t1 = std::time::Instant::now();
        let tu = crate::frontend::parse_tokens(p.tokens, Target::X86_64).unwrap();
        let t2 = std::time::Instant::now();
        crate::frontend::sema::analyze(&tu, Target::X86_64).unwrap();
        let t3 = std::time::Instant::now();
        pp += t1 - t0;
        parse += t2 - t1;
        sema += t3 - t2;
    }
    println!(
        "per run: preprocess {:?}, parse {:?}, analyze {:?}",
        pp / n,
        parse / n,
        sema / n
    );
}
