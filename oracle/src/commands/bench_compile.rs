//! `oracle bench-compile`: phicc's compile time next to `gcc -O0` on the same
//! Csmith programs (`csmith --seed 1..N`, Csmith's default options), in the
//! same run, one process per file for both, files in the page cache. The
//! commands are interleaved (each file through gcc and every phicc
//! configuration before the next file), so that drift in the machine's
//! speed weighs on all of them alike.
//!
//! - default: object files, `phicc -c` (mem2reg, then `-fno-mem2reg`, then
//!   `-O1`, the `opt` configuration) next to `gcc -O0 -c`;
//! - `--syntax-only`: the frontend (preprocess, parse, sema, lower, verify),
//!   `phicc -fsyntax-only` next to `gcc -O0 -fsyntax-only`; a program phicc
//!   rejects is listed (the Csmith sweep of the frontend).
//!
//! phicc runs for each of `--targets` (gcc for the host only). Printed: the
//! total and per-file wall time of each tool, the ratio, the CPU time
//! (user + system of the child processes, from `getrusage(RUSAGE_CHILDREN)`,
//! less sensitive to other load on the machine), and phicc's own per-phase
//! sums from `--time-phases`. `--compiler` (or `PHICC=path`) measures
//! another phicc build, for a before/after table in the same conditions.
//! Every process goes through the runner, whose end-of-run detection has no
//! polling delay. Exit status: 0, or 1 when phicc failed on some program.

use crate::generator::csmith::CsmithOptions;
use crate::runner::{self, Job, Limits, Termination};
use crate::target::{parse_list, Target};
use crate::toolchain::default_phicc;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Programs: Csmith seeds 1..COUNT.
    #[arg(default_value_t = 300)]
    pub count: u64,
    /// Time the frontend only (`-fsyntax-only`) instead of `-c`.
    #[arg(long)]
    pub syntax_only: bool,
    /// Targets phicc compiles for, comma-separated.
    #[arg(long, default_value = "x86_64", value_parser = parse_list::<Target>)]
    pub targets: std::vec::Vec<Target>,
    /// The phicc binary measured (default: $PHICC, else phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// Csmith options (one string, split on spaces; default: Csmith's own defaults).
    #[arg(long, allow_hyphen_values = true, default_value = "")]
    pub csmith_args: String,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Wall and CPU time of one series of runs, with phicc's phase sums.
#[derive(Default)]
struct Series {
    wall: f64,
    cpu: f64,
    failed: Vec<String>,
    phases: BTreeMap<String, f64>,
    phase_reports: usize,
}

/// User + system seconds of the reaped children so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// Add the `phicc: times (s): NAME SECONDS ...` lines of `stderr` to `phases`;
/// returns how many such lines there were.
pub fn add_phase_times(stderr: &str, phases: &mut BTreeMap<String, f64>) -> usize {
    let mut n = 0;
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("phicc: times (s): ") else {
            continue;
        };
        n += 1;
        let words: Vec<&str> = rest.split_whitespace().collect();
        for pair in words.chunks(2) {
            if let [name, secs] = pair {
                *phases.entry(name.to_string()).or_default() += secs.parse::<f64>().unwrap_or(0.0);
            }
        }
    }
    n
}

/// One compiler command (`program args... FILE`) timed over the files.
struct Command<'a> {
    program: &'a str,
    args: Vec<String>,
}

/// Run every command on every file, interleaved: for each file, each
/// command once, in order. The machine's speed drifts over a run (CPU
/// frequency, other guests of the host); interleaving spreads that drift
/// over all commands alike, so their ratio is steadier than when each runs
/// its whole series in turn. Each process's CPU time is the growth of the
/// reaped children's `getrusage` between its start and its end.
fn interleaved(
    commands: &[Command],
    files: &[(u64, PathBuf)],
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<Vec<Series>> {
    let limits = Limits {
        address_space: Some(4 << 30),
        ..Limits::with_timeout(Duration::from_secs(120))
    };
    let mut all: Vec<Series> = commands.iter().map(|_| Series::default()).collect();
    for (seed, f) in files {
        for (c, s) in commands.iter().zip(&mut all) {
            let (t0, c0) = (Instant::now(), children_cpu());
            let r = runner::run(&Job::new(c.program).args(&c.args).arg(f), &limits)?;
            s.wall += t0.elapsed().as_secs_f64();
            s.cpu += children_cpu() - c0;
            let stderr = String::from_utf8_lossy(&r.stderr.bytes);
            s.phase_reports += add_phase_times(&stderr, &mut s.phases);
            if r.termination != Termination::Exited(0) {
                let why = stderr
                    .lines()
                    .find(|l| l.contains("error"))
                    .or(stderr.lines().next())
                    .unwrap_or("");
                s.failed
                    .push(format!("seed {seed}: {}: {why}", r.termination.describe()));
            }
            bar.inc(1);
        }
    }
    Ok(all)
}

/// `csmith --seed N` for every seed into `dir`, each file read once so all are in the page cache.
pub fn csmith_files(csmith: &CsmithOptions, seeds: &[u64], dir: &Path) -> anyhow::Result<Vec<(u64, PathBuf)>> {
    let files: Vec<anyhow::Result<(u64, PathBuf)>> = crate::sweep::map(seeds, 2, "programs generated", true, |seed| {
        let path = dir.join(format!("{seed}.c"));
        std::fs::write(&path, csmith.generate(seed)?)?;
        Ok((seed, path))
    });
    files.into_iter().collect()
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let phicc = args
        .compiler
        .clone()
        .unwrap_or_else(default_phicc)
        .display()
        .to_string();
    let csmith = CsmithOptions {
        args: args.csmith_args.split_whitespace().map(String::from).collect(),
        ..CsmithOptions::default()
    };
    let dir = tempfile::Builder::new().prefix("oracle-bench-").tempdir()?;
    let seeds: Vec<u64> = (1..=args.count).collect();
    let files = csmith_files(&csmith, &seeds, dir.path())?;
    anyhow::ensure!(!files.is_empty(), "no programs (COUNT is 0)");
    let include = format!("-I{}", csmith.include_dir.display());
    let out = dir.path().join("out.o").display().to_string();
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mode: Vec<String> = if args.syntax_only {
        words(&["-fsyntax-only"])
    } else {
        words(&["-c", "-o", &out])
    };
    let gcc_args: Vec<String> = [words(&["-O0", "-w", &include]), mode.clone()].concat();
    let phicc_args = |t: Target, extra: &[&str]| -> Vec<String> {
        [
            words(&[&format!("--target={t}"), "-w", &include]),
            words(extra),
            mode.clone(),
        ]
        .concat()
    };
    let configs: Vec<(&str, Vec<&str>)> = if args.syntax_only {
        vec![("", vec!["--time-phases"])]
    } else {
        vec![
            ("mem2reg", vec!["--time-phases"]),
            ("nomem2reg", vec!["-fno-mem2reg"]),
            ("opt", vec!["-O1"]),
        ]
    };

    let mut commands = vec![Command {
        program: "gcc",
        args: gcc_args,
    }];
    let mut labels = Vec::new();
    for &t in &args.targets {
        for (name, extra) in &configs {
            commands.push(Command {
                program: &phicc,
                args: phicc_args(t, extra),
            });
            labels.push((t, *name));
        }
    }
    // Warm up every command once (page cache, the dynamic loader's).
    interleaved(&commands, &files[..1], &indicatif::ProgressBar::hidden())?;

    let total = (files.len() * commands.len()) as u64;
    let bar = crate::sweep::progress_bar(total, "compiles", args.quiet);
    let mut all = interleaved(&commands, &files, &bar)?.into_iter();
    let gcc = all.next().expect("gcc's series");
    let runs: Vec<(Target, &str, Series)> = labels.into_iter().zip(all).map(|((t, n), s)| (t, n, s)).collect();
    bar.finish_and_clear();

    let n = files.len() as f64;
    let failed: usize = runs.iter().map(|(_, _, s)| s.failed.len()).sum();
    let what = if args.syntax_only { "-fsyntax-only" } else { "-c" };
    println!("files: {} (phicc failed on {failed})", files.len());
    let row = |label: String, s: &Series, tail: String| {
        println!(
            "{label:<30}: {:8.3} s total, {:7.2} ms per file{tail}",
            s.wall,
            1000.0 * s.wall / n
        );
    };
    row(format!("gcc -O0 {what}"), &gcc, String::new());
    let many = args.targets.len() > 1;
    for (t, name, s) in &runs {
        let mut label = format!("phicc {what}");
        if !name.is_empty() {
            label.push_str(&format!(" ({name})"));
        }
        if many {
            label.push_str(&format!(" [{t}]"));
        }
        let tail = if args.syntax_only {
            format!(" ({:.2}x gcc)", s.wall / gcc.wall)
        } else {
            format!(", {:.2}x faster than gcc", gcc.wall / s.wall)
        };
        row(label, s, tail);
    }
    let cpu: Vec<String> = runs
        .iter()
        .map(|(t, name, s)| {
            let tag = [*name, if many { t.name() } else { "" }].join(" ");
            format!("phicc {} {:.2} s ({:.2}x)", tag.trim(), s.cpu, gcc.cpu / s.cpu)
        })
        .collect();
    println!("CPU time (user+sys): gcc {:.2} s, {}", gcc.cpu, cpu.join(", "));
    for (t, name, s) in runs.iter().filter(|(_, _, s)| s.phase_reports > 0) {
        let p = |k: &str| s.phases.get(k).copied().unwrap_or(0.0);
        let tag = [*name, if many { t.name() } else { "" }].join(", ");
        let tag = tag.trim_matches([',', ' ']);
        let tag = if tag.is_empty() {
            String::new()
        } else {
            format!(" ({tag})")
        };
        println!(
            "phicc{tag} phases, sums over {} files:",
            if args.syntax_only {
                s.phase_reports
            } else {
                s.phase_reports / 2
            }
        );
        println!(
            "  preprocess {:.3} s, parse {:.3} s, sema {:.3} s, lower {:.3} s, verify {:.3} s",
            p("preprocess"),
            p("parse"),
            p("sema"),
            p("lower"),
            p("verify")
        );
        if !args.syntax_only {
            println!(
                "  passes {:.3} s, backend {:.3} s, assembler {:.3} s",
                p("passes"),
                p("backend"),
                p("assemble")
            );
        }
        let sum: f64 = s.phases.values().sum();
        println!("  rest (process start, reading, writing): {:.3} s", s.wall - sum);
    }
    for (t, name, s) in &runs {
        for f in &s.failed {
            println!("FAIL {t} {name} {f}");
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_lines_are_summed_by_name() {
        let mut m = BTreeMap::new();
        let err = "warning: x\nphicc: times (s): preprocess 0.5 parse 0.25\nphicc: times (s): passes 1 assemble 2\n";
        assert_eq!(add_phase_times(err, &mut m), 2);
        assert_eq!(add_phase_times("phicc: times (s): parse 0.25\n", &mut m), 1);
        assert_eq!(m["parse"], 0.5);
        assert_eq!(m["assemble"], 2.0);
        assert_eq!(m.len(), 4);
    }
}
