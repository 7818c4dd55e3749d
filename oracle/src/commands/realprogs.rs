//! `oracle realprogs`: zlib, Lua and SQLite built by phicc through their own
//! build systems, tested, and compared with the target's gcc -O0 build; the
//! work is in [`crate::realprogs`]. Writes `results.tsv` and `summary.txt`
//! to `--out`. Exit status: 0 every program passes, 1 a build, test or
//! comparison failed, 2 tool error.

use crate::realprogs::{self, Compiler, Program, Setup};
use crate::target::{parse_list, Config, Target};
use crate::toolchain::default_phicc;
use anyhow::Context;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Programs (zlib, lua, sqlite; default: all three).
    pub programs: Vec<Program>,
    /// Targets, comma-separated (x86_64, aarch64, riscv64).
    #[arg(long, default_value = "x86_64", value_parser = parse_list::<Target>)]
    pub targets: std::vec::Vec<Target>,
    /// Configurations, comma-separated (nomem2reg, mem2reg, opt).
    #[arg(long, default_value = "nomem2reg,mem2reg", value_parser = parse_list::<Config>)]
    pub configs: std::vec::Vec<Config>,
    /// The directory of the source snapshots (default: <repo>/../shared/realprogs,
    /// from a git worktree the main checkout's).
    #[arg(long)]
    pub sources: Option<PathBuf>,
    /// Scratch build directory (default: $TMPDIR/phicc-realprogs).
    #[arg(long)]
    pub work: Option<PathBuf>,
    /// Where results.tsv and summary.txt go (default: the work directory).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The compiler under test (default: $PHICC, else phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// Wall-clock limit of one build step (configure, make, a compile), in seconds.
    #[arg(long, default_value_t = 900.0)]
    pub build_timeout: f64,
    /// Wall-clock limit of one program run, in seconds (10 times more under QEMU).
    #[arg(long, default_value_t = 300.0)]
    pub run_timeout: f64,
    /// Parallel jobs of make (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Stack limit of program runs in MiB (default: inherited, usually 8).
    /// phicc's frames are many times gcc's (issue 14), so Lua's deep-recursion
    /// tests need more than gcc's build does; the verdict at the default stack
    /// is the one that counts.
    #[arg(long)]
    pub stack_mib: Option<u64>,
    /// Keep the build directories (default: delete a build once it passed).
    #[arg(long)]
    pub keep: bool,
}

/// The repository's root, from this crate's manifest directory.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `<repo>/../shared/realprogs`; from a linked git worktree, the main
/// checkout's (the worktree's `--git-common-dir` is `<main>/.git`).
pub fn default_sources(repo: &std::path::Path) -> PathBuf {
    let own = repo.join("../shared/realprogs");
    if own.is_dir() {
        return own;
    }
    let common = std::process::Command::new("git")
        .args(["rev-parse", "--path-format=absolute", "--git-common-dir"])
        .current_dir(repo)
        .output();
    match common {
        Ok(o) if o.status.success() => {
            let git_dir = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
            match git_dir.parent() {
                Some(main) if main.join("../shared/realprogs").is_dir() => main.join("../shared/realprogs"),
                _ => own,
            }
        }
        _ => own,
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let repo = repo_root();
    let work = args
        .work
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join("phicc-realprogs"));
    std::fs::create_dir_all(&work).with_context(|| format!("creating {}", work.display()))?;
    let work = std::path::absolute(&work)?;
    let phicc = std::path::absolute(args.compiler.clone().unwrap_or_else(default_phicc))?;
    let setup = Setup {
        sources: std::path::absolute(args.sources.clone().unwrap_or_else(|| default_sources(&repo)))?,
        work: work.clone(),
        phicc,
        corpora: std::path::absolute(repo.join("corpora/realprogs"))?,
        build_timeout: Duration::from_secs_f64(args.build_timeout),
        run_timeout: Duration::from_secs_f64(args.run_timeout),
        make_jobs: super::jobs_or_every_core(args.jobs),
        stack_mib: args.stack_mib,
        extra_cflags: Vec::new(),
        cc_launcher: None,
    };
    let programs = if args.programs.is_empty() {
        Program::ALL.to_vec()
    } else {
        args.programs.clone()
    };
    let out = args.out.clone().unwrap_or(work);
    std::fs::create_dir_all(&out)?;
    let tsv_path = out.join("results.tsv");
    let mut tsv = std::fs::File::create(&tsv_path)?;
    writeln!(tsv, "{}", realprogs::TSV_HEADER)?;
    let mut summary = String::new();
    let mut failed = 0;
    let mut total = 0;
    for &target in &args.targets {
        for &program in &programs {
            eprintln!("realprogs: {program} {target} gcc -O0 (reference)");
            let reference = realprogs::build(&setup, program, target, Compiler::Gcc(0))?;
            let reference_tested = if reference.ok() {
                Some(realprogs::test(&setup, &reference)?)
            } else {
                None
            };
            for &config in &args.configs {
                eprintln!("realprogs: {program} {target} phicc {config}");
                let o = realprogs::run_program(
                    &setup,
                    program,
                    target,
                    config,
                    Some((reference.clone(), reference_tested.clone())),
                )?;
                total += 1;
                let text = realprogs::describe(&o);
                eprint!("{text}");
                summary.push_str(&text);
                writeln!(tsv, "{}", realprogs::tsv_line(&o))?;
                tsv.flush()?;
                if o.passed() {
                    if !args.keep {
                        let _ = std::fs::remove_dir_all(&o.phicc.dir);
                    }
                } else {
                    failed += 1;
                }
            }
            if !args.keep {
                let _ = std::fs::remove_dir_all(&reference.dir);
            }
        }
    }
    summary.push_str(&format!(
        "realprogs: {} of {total} passed (build ok, tests pass, output equal to gcc -O0's); results in {}\n",
        total - failed,
        tsv_path.display()
    ));
    std::fs::write(out.join("summary.txt"), &summary)?;
    print!("{}", std::fs::read_to_string(&tsv_path)?);
    println!(
        "realprogs: {} of {total} passed; summary in {}",
        total - failed,
        out.join("summary.txt").display()
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
