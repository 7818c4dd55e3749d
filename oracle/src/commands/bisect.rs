//! `oracle bisect`: the first (pass, function) application of phicc's
//! pipeline that breaks a program, by binary search over
//! `--fopt-bisect-limit` (the search and the compiler wrapper are in
//! [`crate::bisect`]). Three ways to name the program:
//! - `oracle bisect prog.c [-- ARGS]`: one C file, whose run (standard
//!   output and exit status) must equal the target's gcc -O0 build's
//!   (`--reference gcc`, the default) or phicc's limit-0 build's
//!   (`--reference limit0`);
//! - `oracle bisect --realprog lua|sqlite|zlib [--test CMD]`: a real program
//!   from `../shared/realprogs` built through its own build system;
//! - `oracle bisect --src DIR --build CMD --test CMD`: any build that
//!   compiles with `$CC`.
//!
//! Exit status: 0 an application (or the register allocator in a function)
//! was named, 1 the failure does not reproduce or is not in the pass
//! pipeline, 2 tool error (the build cannot be set up, the reference fails).

use crate::bisect::{self, BuildSpec, BuildTrials, Finding, Plan};
use crate::realprogs::{self, Program};
use crate::target::{Config, Target};
use crate::toolchain::default_phicc;
use crate::util::shell_quote;
use anyhow::{bail, ensure, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// What a program run is compared with in single-file mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Reference {
    /// The target's gcc -O0 build.
    Gcc,
    /// phicc's build with only the required passes (`--fopt-bisect-limit=0`).
    Limit0,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A C program to bisect (single-file mode).
    pub file: Option<PathBuf>,
    /// A real program (zlib, lua, sqlite) built through its own build system
    /// from the snapshot in --sources (--build replaces its build command);
    /// --test picks the test (default: Lua's testes/all.lua, SQLite's workload
    /// compared with the limit-0 build's output, zlib's `example` and a
    /// `minigzip` round trip).
    #[arg(long, conflicts_with = "file")]
    pub realprog: Option<Program>,
    /// A source tree, copied afresh for every trial (with --build and --test).
    #[arg(long, conflicts_with_all = ["file", "realprog"])]
    pub src: Option<PathBuf>,
    /// The build command, run by `sh -c` in the copy; it must compile with
    /// `$CC` (the wrapper that calls phicc with the configuration and the limits).
    #[arg(long)]
    pub build: Option<String>,
    /// The test command, run by `sh -c` in the built copy: exit 0 passes.
    /// `$RUN` is the target's emulator (empty on the host).
    #[arg(long)]
    pub test: Option<String>,
    /// A test also fails when its standard output differs from the limit-0 build's.
    #[arg(long)]
    pub compare_stdout: bool,
    /// Single-file mode: what the program's run is compared with.
    #[arg(long, value_enum, default_value = "gcc")]
    pub reference: Reference,
    /// The target.
    #[arg(long, default_value = "x86_64")]
    pub target: Target,
    /// The configuration whose pipeline is bisected (mem2reg or opt).
    #[arg(long, default_value = "opt")]
    pub config: Config,
    /// The compiler under test (default: $PHICC, else phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// Scratch directory: the trial tree, the object cache, the IR dumps
    /// (default: a new directory under $TMPDIR, removed afterwards unless --keep).
    #[arg(long)]
    pub work: Option<PathBuf>,
    /// Keep the scratch directory.
    #[arg(long)]
    pub keep: bool,
    /// The directory of the real programs' snapshots (default: <repo>/../shared/realprogs).
    #[arg(long)]
    pub sources: Option<PathBuf>,
    /// Wall-clock limit of one build, in seconds.
    #[arg(long, default_value_t = 900.0)]
    pub build_timeout: f64,
    /// Wall-clock limit of one test run, in seconds (a timeout fails the
    /// test). Default: 300 until the limit-0 build's test has passed, then
    /// ten times its time plus 10.
    #[arg(long)]
    pub test_timeout: Option<f64>,
    /// Parallel jobs of make in --realprog builds.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Compile without `--verify-each`. By default the verifier runs after
    /// every pass, so a pass that leaves invalid IR fails the build at its own
    /// application, instead of at a later one whose change merely exposes it.
    #[arg(long)]
    pub no_verify: bool,
    /// Skip the last trial (does the unit alone, every other unit at limit 0, fail?).
    #[arg(long)]
    pub no_alone: bool,
    /// Arguments of the program in single-file mode.
    #[arg(last = true)]
    pub args: Vec<String>,
}

/// The build and default test of a real program.
fn realprog_commands(program: Program, target: Target, corpora: &Path, jobs: usize) -> (String, String, bool) {
    let tool = |t: &str| {
        if target.is_host() {
            t.to_string()
        } else {
            format!("{}-{t}", target.triple())
        }
    };
    match program {
        Program::Lua => (
            format!(
                "make -j{jobs} CC=\"$CC\" CFLAGS='-Wall $(MYCFLAGS) -fno-stack-protector -fno-common' MYLDFLAGS= AR='{} rc' RANLIB={}",
                tool("ar"),
                tool("ranlib")
            ),
            if target.is_host() {
                "cd testes && ../lua -e_port=true all.lua".to_string()
            } else {
                "cd testes && $RUN ../lua -e_port=true -e_soft=true all.lua".to_string()
            },
            false,
        ),
        Program::Sqlite => {
            let defs = "-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION";
            (
                format!(
                    "$CC {defs} -c -o sqlite3.o sqlite3.c && $CC {defs} -c -o shell.o shell.c && $CC -o sqlite3 shell.o sqlite3.o -lm"
                ),
                format!(
                    "$RUN ./sqlite3 -batch :memory: {}",
                    shell_quote(&format!(".read {}", corpora.join("sqlite-workload.sql").display()))
                ),
                true,
            )
        }
        Program::Zlib => (
            format!(
                "AR={} RANLIB={} ./configure --static && make -j{jobs} static all64",
                tool("ar"),
                tool("ranlib")
            ),
            "$RUN ./example tmp_example && $RUN ./minigzip -c test/minigzip.c > t.gz && $RUN ./minigzip -d -c t.gz | cmp - test/minigzip.c"
                .to_string(),
            false,
        ),
    }
}

/// Extract `program`'s snapshot into `dir` (once).
fn extract(sources: &Path, program: Program, dir: &Path) -> Result<()> {
    if dir.join(".extracted").exists() {
        return Ok(());
    }
    let tarball = realprogs::archive(sources, program)?;
    let _ = std::fs::remove_dir_all(dir);
    let scratch = dir.with_extension("extract");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch)?;
    let ok = std::process::Command::new("tar")
        .arg("xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(&scratch)
        .status()?
        .success();
    ensure!(ok, "cannot extract {}", tarball.display());
    let top = std::fs::read_dir(&scratch)?.next().context("empty snapshot")??.path();
    std::fs::rename(&top, dir)?;
    std::fs::remove_dir_all(&scratch)?;
    std::fs::write(dir.join(".extracted"), b"")?;
    Ok(())
}

pub fn run(args: Args) -> Result<ExitCode> {
    ensure!(
        matches!(args.config, Config::Mem2reg | Config::Opt),
        "--config {}: only mem2reg and opt have passes to bisect",
        args.config
    );
    let phicc = std::path::absolute(args.compiler.clone().unwrap_or_else(default_phicc))?;
    ensure!(
        phicc.exists() || args.compiler.is_none(),
        "{}: no such compiler",
        phicc.display()
    );
    let oracle = std::env::current_exe().context("locating the oracle executable")?;
    let tmp = tempfile::Builder::new().prefix("oracle-bisect-").tempdir()?;
    let work = match &args.work {
        Some(w) => {
            std::fs::create_dir_all(w)?;
            std::path::absolute(w)?
        }
        None => tmp.path().to_path_buf(),
    };
    let mut flags = vec![format!("--target={}", args.target)];
    if !args.target.is_host() {
        flags.push("-static".into());
    }
    flags.extend(args.config.flags().iter().map(|s| s.to_string()));
    if !args.no_verify {
        flags.push("--verify-each".into());
    }
    let base = Plan {
        phicc: phicc.clone(),
        flags,
        ..Plan::default()
    };
    let repo = super::realprogs::repo_root();
    let mut env = vec![("RUN".to_string(), args.target.emulator().unwrap_or("").to_string())];
    let (src, build, test, compare_stdout) = if let Some(file) = &args.file {
        ensure!(file.exists(), "{}: no such file", file.display());
        let src = work.join("program");
        std::fs::create_dir_all(&src)?;
        let name = file.file_name().context("file name")?.to_string_lossy().to_string();
        std::fs::copy(file, src.join(&name))?;
        let run_args: String = args.args.iter().map(|a| format!(" {}", shell_quote(a))).collect();
        let run = format!("{{ $RUN ./prog{run_args}; echo \"exit status $?\"; }} 2>/dev/null");
        let build = format!("$CC -w -o prog {} -lm", shell_quote(&name));
        match args.reference {
            Reference::Limit0 => (src, build, run, true),
            Reference::Gcc => {
                let expected = src.join("expected.txt");
                let mut gcc_args = vec!["-O0".to_string(), "-w".into()];
                if !args.target.is_host() {
                    gcc_args.push("-static".into());
                }
                gcc_args.extend(["-o".into(), "ref".into(), name.clone(), "-lm".into()]);
                let ok = std::process::Command::new(args.target.gcc())
                    .args(&gcc_args)
                    .current_dir(&src)
                    .status()
                    .with_context(|| format!("running {}", args.target.gcc()))?
                    .success();
                ensure!(
                    ok,
                    "the reference build (`{} {}`) fails",
                    args.target.gcc(),
                    gcc_args.join(" ")
                );
                let reference_run = run.replace("./prog", "./ref");
                let o = crate::runner::run(
                    &crate::runner::Job::new("sh")
                        .arg("-c")
                        .arg(&reference_run)
                        .cwd(&src)
                        .env("RUN", args.target.emulator().unwrap_or("")),
                    &crate::runner::Limits::with_timeout(Duration::from_secs_f64(args.test_timeout.unwrap_or(300.0))),
                )?;
                ensure!(
                    o.termination == crate::runner::Termination::Exited(0),
                    "the gcc -O0 build's run {}",
                    o.termination.describe()
                );
                std::fs::write(&expected, &o.stdout.bytes)?;
                std::fs::remove_file(src.join("ref"))?;
                // cmp's message ("out.txt expected.txt differ: byte 3, line 1") is the failure's.
                let test = format!("{run} > out.txt; cmp out.txt expected.txt");
                (src, build, test, false)
            }
        }
    } else if let Some(program) = args.realprog {
        let sources = args
            .sources
            .clone()
            .unwrap_or_else(|| super::realprogs::default_sources(&repo));
        let corpora = std::path::absolute(repo.join("corpora/realprogs"))?;
        let jobs = super::jobs_or_every_core(args.jobs);
        let (build, default_test, compare) = realprog_commands(program, args.target, &corpora, jobs);
        // Shared by every bisection of the program (the snapshot is read-only).
        let src = work.join(format!("{program}-src"));
        extract(&sources, program, &src)?;
        if program == Program::Zlib {
            env.push(("CFLAGS".into(), String::new()));
        }
        let test = args.test.clone().unwrap_or(default_test);
        (
            src,
            args.build.clone().unwrap_or(build),
            test,
            args.compare_stdout || (compare && args.test.is_none()),
        )
    } else {
        let (Some(src), Some(build), Some(test)) = (&args.src, &args.build, &args.test) else {
            bail!("name a program: FILE.c, --realprog NAME, or --src DIR --build CMD --test CMD");
        };
        ensure!(src.is_dir(), "{}: not a directory", src.display());
        (
            std::path::absolute(src)?,
            build.clone(),
            test.clone(),
            args.compare_stdout,
        )
    };
    let spec = BuildSpec {
        src,
        build,
        test,
        compare_stdout,
        build_timeout: Duration::from_secs_f64(args.build_timeout),
        test_timeout: Duration::from_secs_f64(args.test_timeout.unwrap_or(300.0)),
        adaptive_timeout: args.test_timeout.is_none(),
        env,
    };
    eprintln!(
        "bisect: phicc {} ({} {}); build `{}`; test `{}`",
        phicc.display(),
        args.target,
        args.config,
        spec.build,
        spec.test
    );
    let mut trials = BuildTrials::new(spec, work.clone(), &oracle)?;
    let finding = bisect::bisect(&base, !args.no_alone, &mut |p, l| trials.run(p, l))?;
    let report = report(&base, &finding, &trials, &work)?;
    print!("{report}");
    if args.keep || args.work.is_some() {
        println!("work directory: {}", work.display());
    }
    if args.keep {
        let _ = tmp.keep();
    }
    Ok(match finding {
        Finding::Application { .. } | Finding::Backend { .. } => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// The account of a finding, with the IR of the function before and after
/// the application (written to `work/before.ir` and `work/after.ir`).
fn report(base: &Plan, finding: &Finding, trials: &BuildTrials, work: &Path) -> Result<String> {
    let mut s = String::new();
    let time = format!(
        "{} trials in {:.0} s",
        trials.count,
        trials.started.elapsed().as_secs_f64()
    );
    match finding {
        Finding::NoFailure { why } => {
            s.push_str(&format!(
                "bisect: the failure does not reproduce: with every pass, {why} ({time})\n"
            ));
        }
        Finding::NotInPipeline { why, .. } => {
            s.push_str(&format!(
                "bisect: not in the pass pipeline: with only the required passes (--fopt-bisect-limit=0 everywhere) {why}; and not the register allocator (it fails with PHICC_REGALLOC=off too): the frontend, phi-elim or the rest of the backend, unless the test fails with any compiler (try it on a gcc build) ({time})\n"
            ));
        }
        Finding::Backend { unit, function, why } => {
            s.push_str(&format!(
                "bisect: not in the pass pipeline (it fails with only the required passes), but in the register allocator: {why}\n  unit:     {unit}\n  function: {}\n  ({time})\n",
                function.as_deref().unwrap_or("(not isolated: PHICC_REGALLOC_OFF did not help)")
            ));
        }
        Finding::Application {
            unit,
            invocation,
            application,
            line,
            of,
            why_bad,
            alone_fails,
        } => {
            let n = application.number;
            s.push_str(&format!(
                "bisect: first failing application {n} of {of} in unit {unit}\n  pass:     {}\n  function: {}\n  line:     {line}\n  at limit {n}: {why_bad}; at limit {}: the test passes\n",
                application.pass,
                match (&application.function, bisect::function_in_diagnostic(why_bad)) {
                    (Some(f), _) => f.clone(),
                    (None, Some(f)) => format!("(module pass) {f}, as the failure names it"),
                    (None, None) => "(module pass)".to_string(),
                },
                n - 1
            ));
            if let Some(alone) = alone_fails {
                s.push_str(&format!(
                    "  the unit alone at limit {n} (every other unit at 0): {}\n",
                    if *alone {
                        "fails too"
                    } else {
                        "passes (the failure needs other units' passes)"
                    }
                ));
            }
            s.push_str(&format!(
                "  reproduce: (cd {} && {} {} {} --fopt-bisect-limit={n})\n",
                invocation.cwd.display(),
                base.phicc.display(),
                base.flags.join(" "),
                invocation
                    .args
                    .iter()
                    .map(|a| shell_quote(a))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
            s.push_str(&format!("  ({time})\n"));
            if let Some(f) = &application.function {
                let probe = work.join("ir-probe.o");
                let before = bisect::dump_ir(base, invocation, &application.pass, n - 1, &probe)?;
                let after = bisect::dump_ir(base, invocation, &application.pass, n, &probe)?;
                match (bisect::function_ir(&before, f), bisect::function_ir(&after, f)) {
                    (Some(b), Some(a)) => {
                        let (bp, ap) = (work.join("before.ir"), work.join("after.ir"));
                        std::fs::write(&bp, &b)?;
                        std::fs::write(&ap, &a)?;
                        s.push_str(&format!(
                            "IR of {f} before and after {} ({} and {} lines):\n{}\n",
                            application.pass,
                            b.lines().count(),
                            a.lines().count(),
                            bisect::unified_diff(&bp, &ap, 80)
                        ));
                    }
                    _ => s.push_str(&format!(
                        "(no IR of {f}: --print-ir-after {} printed none)\n",
                        application.pass
                    )),
                }
            } else {
                s.push_str(&format!(
                    "(a module pass: compare the module printed by `--print-ir-after {}` at limits {} and {n})\n",
                    application.pass,
                    n - 1
                ));
            }
        }
    }
    Ok(s)
}
