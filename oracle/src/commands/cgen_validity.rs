//! `oracle cgen-validity`: the validity of the C generator (issue 9). For
//! seeds 1..N, the program of `oracle cgen --seed S` (emphasis cycling
//! through the six presets, `Emphasis::ALL[S % 6]`) must
//! 1. compile with `gcc -O2 -Wall -Wextra` with no warning about
//!    uninitialized use, sequence points or overflow (those are errors);
//! 2. run clean under `gcc -O0 -fsanitize=undefined,address
//!    -fno-sanitize-recover=all` (ASan also checking stack use after return);
//! 3. print the same as the `gcc -O2` build, and as the plain-C fallback of
//!    its inline asm (`-U__x86_64__` selects the `#else` branches).
//!
//! Then the first `--cross` seeds are built with each foreign target's gcc
//! (`-static -O2`), run under QEMU, and must print the same as on x86-64:
//! the per-target asm goto templates compute the same thing. Failing
//! programs are copied to `--keep`. Exit status: 0 all valid, 1 some program
//! failed, 2 setup error (gcc's sanitizers do not work).

use crate::cgen::{generate, CgenConfig, Emphasis};
use crate::runner::{self, Job, Limits, Termination};
use crate::target::Target;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Programs: cgen seeds 1..COUNT.
    #[arg(default_value_t = 1000)]
    pub count: u64,
    /// Seeds 1..CROSS are also checked on the foreign targets (0: none).
    #[arg(long, default_value_t = 30)]
    pub cross: u64,
    /// Parallel seeds (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Directory for the failing programs.
    #[arg(long, default_value = "/tmp/cgen-validity-failures")]
    pub keep: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The preset of cgen seed `seed` in validity checks and cycling campaigns.
pub fn emphasis_of(seed: u64) -> Emphasis {
    Emphasis::ALL[(seed % Emphasis::ALL.len() as u64) as usize]
}

const ASAN_OPTIONS: &str = "detect_leaks=0:detect_stack_use_after_return=1";

/// Build `src` with `gcc flags...` into `dir/tag`, run it (for `target`:
/// natively or under QEMU) and return its standard output, or why it failed.
/// The second value is the compiler's stderr (its warnings).
pub fn build_and_run(
    dir: &Path,
    src: &Path,
    tag: &str,
    target: Target,
    flags: &[&str],
) -> Result<(Vec<u8>, String), String> {
    let exe = dir.join(tag);
    let limits = Limits {
        address_space: Some(4 << 30),
        ..Limits::with_timeout(Duration::from_secs(60))
    };
    let gcc = target.gcc();
    let job = Job::new(gcc).args(flags.iter().copied()).arg(src).arg("-o").arg(&exe);
    let r = runner::run(&job, &limits).map_err(|e| format!("{gcc}: {e}"))?;
    let warnings = String::from_utf8_lossy(&r.stderr.bytes).into_owned();
    if r.termination != Termination::Exited(0) {
        let first = warnings.lines().find(|l| l.contains("error")).unwrap_or(&warnings);
        return Err(format!("{gcc} {}: {first}", flags.join(" ")));
    }
    // Sanitizers reserve terabytes of address space: no RLIMIT_AS.
    let run_limits = Limits {
        address_space: None,
        ..Limits::with_timeout(Duration::from_secs(20))
    };
    let run = match target.emulator() {
        None => runner::run(&Job::new(&exe).env("ASAN_OPTIONS", ASAN_OPTIONS), &run_limits),
        Some(_) => runner::run_binary(target, &exe, &[], &run_limits),
    }
    .map_err(|e| format!("{tag}: {e}"))?;
    if run.termination != Termination::Exited(0) {
        return Err(format!(
            "{tag} run: {}: {}",
            run.termination.describe(),
            String::from_utf8_lossy(&run.stderr.bytes)
                .chars()
                .take(300)
                .collect::<String>()
        ));
    }
    Ok((run.stdout.bytes, warnings))
}

/// The host checks of one seed; `Ok` holds how many other -Wall -Wextra warnings gcc gave.
pub fn check_seed(seed: u64, dir: &Path) -> Result<usize, String> {
    let src = dir.join("p.c");
    std::fs::write(&src, generate(seed, &CgenConfig::preset(emphasis_of(seed)))).map_err(|e| e.to_string())?;
    let host = crate::target::host();
    let warned = [
        "-O2",
        "-Wall",
        "-Wextra",
        "-Werror=uninitialized",
        "-Werror=maybe-uninitialized",
        "-Werror=sequence-point",
        "-Werror=overflow",
    ];
    let (o2, warnings) = build_and_run(dir, &src, "o2", host, &warned)?;
    let sanitized = ["-O0", "-fsanitize=undefined,address", "-fno-sanitize-recover=all"];
    let (san, _) = build_and_run(dir, &src, "san", host, &sanitized)?;
    if san != o2 {
        return Err("gcc -O0 (sanitized) and gcc -O2 print different checksums".into());
    }
    let (plain, _) = build_and_run(dir, &src, "plain", host, &["-O1", "-w", "-U__x86_64__"])?;
    if plain != o2 {
        return Err("the plain-C asm fallback prints something else than the x86-64 asm".into());
    }
    Ok(warnings.matches("warning:").count())
}

/// Seed `seed` prints the same on `target` (its gcc, under QEMU) as on the host.
pub fn check_cross(seed: u64, target: Target, dir: &Path) -> Result<(), String> {
    let src = dir.join("x.c");
    std::fs::write(&src, generate(seed, &CgenConfig::preset(emphasis_of(seed)))).map_err(|e| e.to_string())?;
    let (native, _) = build_and_run(dir, &src, "native", crate::target::host(), &["-O2", "-w"])?;
    let (cross, _) = build_and_run(dir, &src, "cross", target, &["-static", "-O2", "-w"])?;
    if native != cross {
        return Err(format!(
            "prints something else on {target} than on {}",
            crate::target::host()
        ));
    }
    Ok(())
}

fn keep(keep: &Path, seed: u64, suffix: &str) {
    let _ = std::fs::create_dir_all(keep);
    let src = generate(seed, &CgenConfig::preset(emphasis_of(seed)));
    let _ = std::fs::write(
        keep.join(format!("cgen-{seed}-{}{suffix}.c", emphasis_of(seed).name())),
        src,
    );
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let probe = tempfile::tempdir()?;
    let probe_src = probe.path().join("p.c");
    std::fs::write(&probe_src, "int main(void) { return 0; }\n")?;
    if let Err(e) = build_and_run(
        probe.path(),
        &probe_src,
        "probe",
        crate::target::host(),
        &["-fsanitize=undefined,address"],
    ) {
        eprintln!("cgen-validity: gcc's sanitizers do not work here (libasan/libubsan missing?): {e}");
        return Ok(ExitCode::from(2));
    }
    let jobs = super::jobs_or_every_core(a.jobs);
    println!("== cgen validity: {} programs, {jobs} jobs", a.count);
    let seeds: Vec<u64> = (1..=a.count).collect();
    let results = crate::sweep::map(&seeds, jobs, "programs", a.quiet, |seed| {
        let dir = tempfile::Builder::new()
            .prefix("oracle-cgen-valid-")
            .tempdir()
            .map_err(|e| e.to_string())?;
        check_seed(seed, dir.path())
    });
    let mut fails = 0;
    let mut warned = 0;
    for (&seed, r) in seeds.iter().zip(&results) {
        match r {
            Ok(n) => warned += usize::from(*n > 0),
            Err(why) => {
                fails += 1;
                println!("FAIL {seed} {}: {why}", emphasis_of(seed).name());
                keep(&a.keep, seed, "");
            }
        }
    }
    println!(
        "valid: {} of {} ({warned} with other -Wall -Wextra warnings); failing programs in {}",
        a.count - fails,
        a.count,
        a.keep.display()
    );
    let mut cross_fails = 0;
    if a.cross > 0 {
        let cross: Vec<u64> = (1..=a.cross).collect();
        for t in Target::ALL.into_iter().filter(|t| *t != crate::target::host()) {
            let results = crate::sweep::map(&cross, jobs, &format!("programs on {t}"), a.quiet, |seed| {
                let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
                check_cross(seed, t, dir.path())
            });
            let mut ok = 0;
            for (&seed, r) in cross.iter().zip(&results) {
                match r {
                    Ok(()) => ok += 1,
                    Err(why) => {
                        cross_fails += 1;
                        println!("FAIL cross {t} seed {seed} ({}): {why}", emphasis_of(seed).name());
                        keep(&a.keep, seed, &format!("-{t}"));
                    }
                }
            }
            println!(
                "cross {t}: {ok} of {} print the same as {}",
                a.cross,
                crate::target::host()
            );
        }
    }
    Ok(if fails == 0 && cross_fails == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
