//! How soon does each generator find each injected bug? For every injected
//! bug, the number of programs (and the time) until the first finding, for
//! cgen programs (seed i, emphasis cycling through the presets) and for
//! Csmith programs (`csmith --seed i`), both checked in process: lowered by
//! phicc's frontend for x86-64, then the IR check of `oracle::ircheck`
//! (interpreted without and with the mem2reg pipeline under two inline-asm
//! schedules). A run with no bug first counts false findings and the cost of
//! the programs. Run by `scripts/cgen-vs-csmith.sh`.
//!
//! Usage: first_findings [COUNT] [FUEL] [cgen|csmith|both]
//! (default 500 programs, 20,000,000 fuel, both generators)

use oracle::ccheck::lower_c_with_includes;
use oracle::cgen::{generate, CgenConfig, Emphasis};
use oracle::ircheck::{check_module, CheckConfig, CheckMode};
use phicc::inject::{set_injected, Bug};
use phicc::ir::module::IrModule;
use phicc::target::Target;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

struct Corpus {
    name: &'static str,
    modules: Vec<Option<IrModule>>,
    lower_failures: usize,
}

fn cgen_corpus(count: u64) -> Corpus {
    let mut c = Corpus {
        name: "cgen",
        modules: Vec::new(),
        lower_failures: 0,
    };
    for seed in 1..=count {
        let e = Emphasis::ALL[(seed % Emphasis::ALL.len() as u64) as usize];
        let src = generate(seed, &CgenConfig::preset(e));
        let m = lower_c_with_includes(&src, Target::X86_64, &[]).ok();
        c.lower_failures += usize::from(m.is_none());
        c.modules.push(m);
    }
    c
}

fn csmith_corpus(count: u64) -> Corpus {
    let mut c = Corpus {
        name: "csmith",
        modules: Vec::new(),
        lower_failures: 0,
    };
    let inc = [PathBuf::from("/usr/include/csmith")];
    for seed in 1..=count {
        let out = Command::new("csmith").args(["--seed", &seed.to_string()]).output();
        let m = out
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| lower_c_with_includes(&String::from_utf8_lossy(&o.stdout), Target::X86_64, &inc).ok());
        c.lower_failures += usize::from(m.is_none());
        c.modules.push(m);
    }
    c
}

/// Programs checked until the first finding (1-based), the time it took,
/// and the inconclusive (out of fuel) runs on the way.
fn hunt(corpus: &Corpus, cfg: &CheckConfig, stop_at_first: bool) -> (Option<usize>, usize, Duration, usize) {
    let start = Instant::now();
    let (mut found, mut findings, mut inconclusive) = (None, 0, 0);
    for (i, m) in corpus.modules.iter().enumerate() {
        let Some(m) = m else { continue };
        let r = check_module(m, cfg);
        inconclusive += usize::from(r.inconclusive);
        if r.failure.is_some() {
            findings += 1;
            found.get_or_insert(i + 1);
            if stop_at_first {
                break;
            }
        }
    }
    (found, findings, start.elapsed(), inconclusive)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(500);
    let fuel: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000_000);
    let cfg = CheckConfig {
        mode: CheckMode::Pipeline,
        schedules: vec![0, 1],
        fuel,
    };
    let which = args.next().unwrap_or_else(|| "both".into());
    let t = Instant::now();
    let mut corpora = Vec::new();
    if which != "csmith" {
        corpora.push(cgen_corpus(count));
    }
    if which != "cgen" {
        corpora.push(csmith_corpus(count));
    }
    println!("{count} programs per generator, lowered in {:.1?}", t.elapsed());
    for c in &corpora {
        println!("  {}: {} did not lower", c.name, c.lower_failures);
    }
    set_injected(&[]).unwrap();
    println!("\nno injected bug (false findings, cost of the whole corpus):");
    for c in &corpora {
        let (_, findings, time, inconclusive) = hunt(c, &cfg, false);
        println!(
            "  {:7} {findings} findings, {inconclusive} out of fuel, {time:.1?}",
            c.name
        );
    }
    let heads: Vec<String> = corpora.iter().map(|c| format!("{}: first finding", c.name)).collect();
    let head2 = heads.get(1).cloned().unwrap_or_default();
    println!("\n{:24} {:>24} {:>24}", "injected bug", heads[0], head2);
    for bug in Bug::ALL {
        set_injected(&[bug]).unwrap();
        let mut cells = Vec::new();
        for c in &corpora {
            let (found, _, time, _) = hunt(c, &cfg, true);
            cells.push(match found {
                Some(k) => format!("#{k} ({time:.1?})"),
                None => format!("none in {count} ({time:.0?})"),
            });
        }
        println!(
            "{:24} {:>24} {:>24}",
            bug.name(),
            cells[0],
            cells.get(1).cloned().unwrap_or_default()
        );
    }
    set_injected(&[]).unwrap();
}
