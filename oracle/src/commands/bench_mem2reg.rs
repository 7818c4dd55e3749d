//! `oracle bench-mem2reg`: our mem2reg timed against LLVM's on the same
//! synthetic functions.
//!
//! For each shape (chain, diamonds, loops, switch, from
//! `compiler/benches/shapes/mod.rs`) and size (blocks x allocas), the
//! alloca-form function is built, `promote_allocas_with_params` timed in
//! process (best of `--runs`), and the same function written as LLVM IR;
//! `opt-15 -passes=mem2reg -time-passes` then times LLVM's PromotePass plus
//! the dominator tree it needs (user + system seconds). One table row per
//! configuration: `ours_ms` is the default promotion (with the phi
//! copy-cost limit, which keeps allocas in memory on the large shapes, see
//! `kept`); `all_ms` promotes every alloca as LLVM does, and `ratio` is LLVM
//! over that. Run it from a release build.

#[path = "../../../compiler/benches/shapes/mod.rs"]
mod shapes;

use crate::runner::{self, Job, Limits, Termination};
use phicc::passes::mem2reg::{promote_allocas_with_params, promote_with_options, PromoteOptions, PromoteStats};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Block counts.
    #[arg(default_values_t = [1000, 10000, 100000])]
    pub blocks: Vec<usize>,
    /// Alloca counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [10, 100, 1000])]
    pub allocas: Vec<usize>,
    /// Shapes, comma-separated (chain, diamonds, loops, switch).
    #[arg(long, value_delimiter = ',', default_values_t = shapes::SHAPES.map(String::from))]
    pub shapes: Vec<String>,
    /// Timed runs of our promotion; the best counts.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// The LLVM optimizer.
    #[arg(long, default_value = "opt-15")]
    pub opt: String,
}

/// Best time in milliseconds of `runs` promotions of copies of `f` and the last stats.
fn time_promotion(
    f: &phicc::ir::reexports::IrFunction,
    runs: usize,
    promote: impl Fn(&mut phicc::ir::reexports::IrFunction) -> PromoteStats,
) -> (f64, PromoteStats) {
    let mut best = f64::MAX;
    let mut stats = PromoteStats::default();
    for _ in 0..runs.max(1) {
        let mut g = f.clone();
        let t = Instant::now();
        stats = promote(&mut g);
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    (best, stats)
}

/// LLVM's milliseconds in PromotePass and DominatorTreeAnalysis (user +
/// system) from `-time-passes` output: with the percentages removed, the
/// columns end "user+system wall name".
pub fn llvm_ms(time_passes: &str) -> f64 {
    let mut sum = 0.0;
    for line in time_passes
        .lines()
        .filter(|l| l.contains("PromotePass") || l.contains("DominatorTreeAnalysis"))
    {
        let mut cleaned = String::new();
        let mut depth = 0;
        for ch in line.chars() {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                c if depth == 0 => cleaned.push(c),
                _ => {}
            }
        }
        let cols: Vec<&str> = cleaned.split_whitespace().collect();
        if cols.len() >= 3 {
            sum += cols[cols.len() - 3].parse::<f64>().unwrap_or(0.0);
        }
    }
    sum * 1000.0
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    for s in &a.shapes {
        anyhow::ensure!(
            shapes::SHAPES.contains(&s.as_str()),
            "unknown shape {s} (valid: {})",
            shapes::SHAPES.join(", ")
        );
    }
    let dir = tempfile::tempdir()?;
    println!(
        "{:<9} {:>7} {:>7} {:>9} {:>7} {:>6} {:>10} {:>8} {:>10} {:>11} {:>7}",
        "shape", "blocks", "allocas", "insts", "phis", "kept", "ours_ms", "all_phis", "all_ms", "llvm_ms", "ratio"
    );
    let unlimited = PromoteOptions {
        include_params: true,
        max_phi_copy_cost: usize::MAX,
        ..PromoteOptions::default()
    };
    let limits = Limits {
        address_space: None,
        ..Limits::with_timeout(Duration::from_secs(600))
    };
    for shape in &a.shapes {
        for &blocks in &a.blocks {
            for &allocas in &a.allocas {
                let func = shapes::build(shape, blocks, allocas);
                let ll = dir.path().join(format!("{shape}-{blocks}-{allocas}.ll"));
                std::fs::write(&ll, shapes::to_llvm(&func))?;
                let (ours, stats) = time_promotion(&func, a.runs, promote_allocas_with_params);
                let (all, all_stats) = time_promotion(&func, a.runs, |f| promote_with_options(f, &unlimited));
                let job = Job::new(&a.opt)
                    .args(["-passes=mem2reg", "-disable-output", "-time-passes"])
                    .arg(&ll);
                let r = runner::run(&job, &limits).map_err(|e| {
                    anyhow::anyhow!("cannot run {} ({e}); scripts/bench-mem2reg installs llvm-15", a.opt)
                })?;
                anyhow::ensure!(
                    r.termination == Termination::Exited(0),
                    "{} failed on {}: {}",
                    a.opt,
                    ll.display(),
                    String::from_utf8_lossy(&r.stderr.bytes)
                );
                let text = format!(
                    "{}{}",
                    String::from_utf8_lossy(&r.stdout.bytes),
                    String::from_utf8_lossy(&r.stderr.bytes)
                );
                let llvm = llvm_ms(&text);
                let ratio = if all > 0.0 {
                    format!("{:.1}", llvm / all)
                } else {
                    "-".into()
                };
                println!(
                    "{shape:<9} {blocks:>7} {allocas:>7} {:>9} {:>7} {:>6} {ours:>10.3} {:>8} {all:>10.3} {llvm:>11.3} {ratio:>7}",
                    func.num_instructions(),
                    stats.phis_inserted,
                    stats.allocas_kept_by_cost_limit,
                    all_stats.phis_inserted
                );
                std::fs::remove_file(&ll)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    #[test]
    fn llvm_time_sums_promote_and_domtree_user_system() {
        let out = "   0.0100 ( 50.0%)   0.0020 ( 40.0%)   0.0120 ( 48.0%)   0.0125 ( 47.0%)  PromotePass\n\
                   0.0010 ( 5.0%)   0.0000 ( 0.0%)   0.0010 ( 4.0%)   0.0011 ( 4.0%)  DominatorTreeAnalysis\n\
                   0.5 ( 1.0%) 0.5 (1.0%) 1.0 (1.0%) 1.0 (1.0%) Total\n";
        assert!((super::llvm_ms(out) - 13.0).abs() < 1e-9);
    }
}
