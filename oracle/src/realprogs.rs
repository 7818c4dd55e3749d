//! Real programs as a project suite (issue 16, item 2): zlib, Lua and SQLite,
//! extracted from the unmodified source snapshots in `<repo>/../shared/realprogs/`,
//! built with phicc through their own build systems (zlib's `configure` +
//! `make`, Lua's `makefile`, SQLite's amalgamation command), run through
//! phicc-runner, and compared with the same build made by the target's
//! `gcc -O0`.
//!
//! A build is one program for one [`Target`] by one [`Compiler`] (phicc in a
//! [`Config`], or gcc at an `-O` level) in its own directory
//! `<work>/<target>/<compiler>/<program>`; [`build`] returns its binaries so
//! that the code benchmark (issue 14, item 5) can reuse the builds and
//! [`run_contained`] to time them. Build tools (`configure`, `make`, `tar`)
//! run as plain processes contained by the runner (process group, deadline);
//! every program binary runs through the runner too, natively or under the
//! target's QEMU user-mode emulator, and its CPU time is read from
//! `getrusage(RUSAGE_CHILDREN)` around the run (runs are sequential). The
//! stack limit is inherited unless [`Setup::stack_mib`] sets one: phicc's
//! frames are many times gcc's (issue 14), so Lua's C-stack-overflow tests
//! need more than the default 8 MiB with phicc's build.
//!
//! The tests:
//! - zlib: what `make test` does (`minigzip` round trip of "hello world",
//!   `example`), plus `minigzip -c` round trips of larger deterministic inputs
//!   at levels 1, 6 and 9. The compressed bytes must equal gcc's build's.
//! - Lua: `testes/all.lua` from `testes/` with `-e_port=true` (and
//!   `-e_soft=true` under QEMU), then `corpora/realprogs/lua-workload.lua`,
//!   whose output must equal gcc's build's.
//! - SQLite: `corpora/realprogs/sqlite-workload.sql` read by the shell,
//!   whose output must equal gcc's build's.

use crate::runner::{self, Job, Limits, RunResult, Termination};
use crate::target::{Config, Target};
use anyhow::{bail, Context, Result};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

/// A program of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Program {
    Zlib,
    Lua,
    Sqlite,
}

impl Program {
    pub const ALL: [Program; 3] = [Program::Zlib, Program::Lua, Program::Sqlite];

    pub fn name(self) -> &'static str {
        match self {
            Program::Zlib => "zlib",
            Program::Lua => "lua",
            Program::Sqlite => "sqlite",
        }
    }

    /// The prefix of its snapshot's file name in the sources directory.
    fn archive_prefix(self) -> &'static str {
        match self {
            Program::Zlib => "zlib-",
            Program::Lua => "lua-",
            Program::Sqlite => "sqlite-autoconf-",
        }
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Program {
    type Err = String;
    fn from_str(s: &str) -> Result<Program, String> {
        Program::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown program `{s}` (expected zlib, lua or sqlite)"))
    }
}

/// The compiler a build uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compiler {
    /// The compiler under test in one configuration.
    Phicc(Config),
    /// The target's gcc at `-O<level>` (0 is the reference).
    Gcc(u8),
}

impl Compiler {
    /// The name of its build directory (`phicc-mem2reg`, `gcc-O0`).
    pub fn name(self) -> String {
        match self {
            Compiler::Phicc(c) => format!("phicc-{c}"),
            Compiler::Gcc(o) => format!("gcc-O{o}"),
        }
    }
}

/// Where things are and how long they may take.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The directory holding the snapshots (`zlib-*.tar.gz`, ...).
    pub sources: PathBuf,
    /// The scratch build directory.
    pub work: PathBuf,
    /// The phicc binary.
    pub phicc: PathBuf,
    /// The repository's `corpora/realprogs/` (the workloads).
    pub corpora: PathBuf,
    /// Wall-clock limit of one build step (configure, make, a compile).
    pub build_timeout: Duration,
    /// Wall-clock limit of one program run (scaled by 10 under QEMU).
    pub run_timeout: Duration,
    /// Parallel jobs of `make`.
    pub make_jobs: usize,
    /// Soft stack limit of program runs in MiB (`ulimit -s`; QEMU sizes the
    /// guest stack from it); `None` inherits the caller's (usually 8 MiB).
    pub stack_mib: Option<u64>,
    /// Flags added to every compile after the optimization flags (the code
    /// benchmark adds `-fstack-usage`, which phicc accepts and ignores).
    pub extra_cflags: Vec<String>,
    /// A program put before the compiler in every `CC` (as ccache is): the
    /// code benchmark's records each link so that it can relink the
    /// binaries at other code layouts.
    pub cc_launcher: Option<PathBuf>,
}

/// One build: its directory, whether it succeeded, its binaries.
#[derive(Clone, Debug)]
pub struct Build {
    pub program: Program,
    pub target: Target,
    pub compiler: Compiler,
    pub dir: PathBuf,
    /// The first error of the failed step (its first `error` line, else its tail).
    pub error: Option<String>,
    /// The commands run, in order.
    pub commands: Vec<String>,
    /// How the build departs from the program's plain build, and why.
    pub notes: Vec<String>,
    /// Wall time of the whole build.
    pub time: Duration,
}

impl Build {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// A binary of the build (`minigzip`, `lua`, `sqlite3`).
    pub fn binary(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

/// One program run through the runner.
#[derive(Clone, Debug)]
pub struct Run {
    pub label: String,
    pub termination: Termination,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub wall: Duration,
    pub cpu: Duration,
}

impl Run {
    pub fn exited_ok(&self) -> bool {
        self.termination == Termination::Exited(0)
    }
}

/// The tests of one build.
#[derive(Clone, Debug, Default)]
pub struct Tested {
    /// Every check failed, with why (empty: the tests pass).
    pub failures: Vec<String>,
    /// What the tests covered (e.g. which Lua test files ran).
    pub notes: Vec<String>,
    /// The deterministic output compared with the reference build.
    pub output: Vec<u8>,
    pub runs: Vec<Run>,
}

impl Tested {
    pub fn wall(&self) -> Duration {
        self.runs.iter().map(|r| r.wall).sum()
    }
    pub fn cpu(&self) -> Duration {
        self.runs.iter().map(|r| r.cpu).sum()
    }
}

/// The build directory of `program` for `target` by `compiler`.
pub fn build_dir(setup: &Setup, program: Program, target: Target, compiler: Compiler) -> PathBuf {
    setup
        .work
        .join(target.name())
        .join(compiler.name())
        .join(program.name())
}

/// The snapshot of `program` in the sources directory.
pub fn archive(sources: &Path, program: Program) -> Result<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(sources).with_context(|| format!("reading {}", sources.display()))? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with(program.archive_prefix()) && name.ends_with(".tar.gz") {
            found.push(path);
        }
    }
    found.sort();
    match found.pop() {
        Some(p) => Ok(p),
        None => bail!("no {}*.tar.gz in {}", program.archive_prefix(), sources.display()),
    }
}

/// The target's binutils tool (`ar`, `ranlib`): the host's for the host
/// target, else the cross toolchain's.
fn binutil(target: Target, tool: &str) -> String {
    if target.is_host() {
        tool.to_string()
    } else {
        format!("{}-{tool}", target.triple())
    }
}

/// The `CC` of a build: the compiler with the target's flags. phicc's
/// configuration flags go in `CFLAGS` (see [`opt_flags`]).
pub fn cc(setup: &Setup, target: Target, compiler: Compiler) -> String {
    let mut words: Vec<String> = setup.cc_launcher.iter().map(|l| l.display().to_string()).collect();
    match compiler {
        Compiler::Phicc(_) => words.extend([setup.phicc.display().to_string(), format!("--target={target}")]),
        Compiler::Gcc(_) => words.push(target.gcc().to_string()),
    };
    if !target.is_host() {
        words.push("-static".into());
    }
    words.join(" ")
}

/// The flags that select the compiler's optimization: phicc's configuration
/// flags, or gcc's `-O<level>`.
pub fn opt_flags(compiler: Compiler) -> String {
    match compiler {
        Compiler::Phicc(c) => c.flags().join(" "),
        Compiler::Gcc(o) => format!("-O{o}"),
    }
}

/// The first line of a failed step's output worth reporting: the first line
/// naming an error, else the last non-empty line.
pub fn first_error(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    lines
        .iter()
        .find(|l| l.contains("error") || l.contains("unexpected argument"))
        .or_else(|| lines.iter().rev().find(|l| !l.trim().is_empty()))
        .map(|l| l.trim().to_string())
        .unwrap_or_default()
}

/// Run a build step (`sh -c COMMAND` in `dir`) contained by the runner.
fn step(setup: &Setup, build: &mut Build, dir: &Path, env: &[(&str, String)], command: &str) -> Result<bool> {
    let mut shown = String::new();
    for (k, v) in env {
        shown.push_str(&format!("{k}={} ", crate::util::shell_quote(v)));
    }
    shown.push_str(command);
    build.commands.push(format!("(cd {} && {shown})", dir.display()));
    let mut job = Job::new("sh").arg("-c").arg(command).cwd(dir);
    for (k, v) in env {
        job = job.env(k, v);
    }
    let limits = Limits {
        timeout: setup.build_timeout,
        cpu_seconds: setup.build_timeout.as_secs() * 4 + 1,
        address_space: None,
        file_size: 1 << 30,
        output_cap: 4 << 20,
    };
    let r = runner::run(&job, &limits).with_context(|| format!("starting `{command}`"))?;
    if r.termination == Termination::Exited(0) {
        return Ok(true);
    }
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&r.stdout.bytes),
        String::from_utf8_lossy(&r.stderr.bytes)
    );
    let log = dir.join("realprogs-failed-step.log");
    let _ = std::fs::write(&log, &out);
    build.error = Some(format!(
        "`{command}`: {}: {} (log: {})",
        r.termination.describe(),
        first_error(&out),
        log.display()
    ));
    Ok(false)
}

/// Extract `program` afresh and build it for `target` with `compiler`.
pub fn build(setup: &Setup, program: Program, target: Target, compiler: Compiler) -> Result<Build> {
    let start = std::time::Instant::now();
    let dir = build_dir(setup, program, target, compiler);
    let parent = dir.parent().expect("build dir has a parent").to_path_buf();
    std::fs::create_dir_all(&parent)?;
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    let mut b = Build {
        program,
        target,
        compiler,
        dir: dir.clone(),
        error: None,
        commands: Vec::new(),
        notes: Vec::new(),
        time: Duration::ZERO,
    };
    let tarball = archive(&setup.sources, program)?;
    // The snapshot's single top-level directory becomes `<program>/`,
    // whatever it is called (a GitHub archive names it after the full commit).
    let scratch = format!("{}.extract", program.name());
    let extract = format!(
        "rm -rf {scratch} && mkdir {scratch} && tar xzf {} -C {scratch} && mv {scratch}/* {} && rmdir {scratch}",
        crate::util::shell_quote(&tarball.display().to_string()),
        program.name()
    );
    if step(setup, &mut b, &parent, &[], &extract)? {
        match program {
            Program::Zlib => build_zlib(setup, &mut b)?,
            Program::Lua => build_lua(setup, &mut b)?,
            Program::Sqlite => build_sqlite(setup, &mut b)?,
        }
    }
    b.time = start.elapsed();
    Ok(b)
}

/// The `CC` of a build through the program's own build system: [`cc`],
/// plus `-fno-mem2reg` for the `nomem2reg` configuration (it wins over any
/// `-O` level, so the program's own `-O2`/`-O3` may stay) and the setup's
/// extra flags (the program's own flags may override a flag put in `CFLAGS`,
/// but not these).
pub fn build_cc(setup: &Setup, target: Target, compiler: Compiler) -> String {
    let mut words = vec![cc(setup, target, compiler)];
    if compiler == Compiler::Phicc(Config::Nomem2reg) {
        words.push("-fno-mem2reg".into());
    }
    words.extend(setup.extra_cflags.iter().cloned());
    words.join(" ")
}

/// The optimization level a build must force on the program's build system,
/// or `None` when the program's own `-O2`/`-O3` already selects the
/// configuration: phicc reads every positive level as `opt`, and
/// `-fno-mem2reg` (in [`build_cc`]) wins over any level. `mem2reg` is phicc
/// at `-O0`; gcc builds use their level.
pub fn forced_level(compiler: Compiler) -> Option<String> {
    match compiler {
        Compiler::Phicc(Config::Opt) | Compiler::Phicc(Config::Nomem2reg) => None,
        Compiler::Phicc(Config::Mem2reg) => Some("-O0".into()),
        Compiler::Gcc(o) => Some(format!("-O{o}")),
    }
}

/// zlib: its own `configure` and `Makefile`: `CC=... ./configure --static &&
/// make static all64` (the static library, `example`, `minigzip` and their
/// 64-bit-offset twins; the tests run them as `make test` does). `CFLAGS` is
/// set only to force an optimization level (unset, configure picks `-O3`);
/// a foreign target's `AR`/`RANLIB` are the cross binutils.
fn build_zlib(setup: &Setup, b: &mut Build) -> Result<()> {
    let mut env = vec![("CC", build_cc(setup, b.target, b.compiler))];
    if let Some(level) = forced_level(b.compiler) {
        env.push(("CFLAGS", level));
    }
    if !b.target.is_host() {
        env.push(("AR", binutil(b.target, "ar")));
        env.push(("RANLIB", binutil(b.target, "ranlib")));
    }
    let dir = b.dir.clone();
    if step(setup, b, &dir, &env, "./configure --static")? {
        step(setup, b, &dir, &[], &format!("make -j{} static all64", setup.make_jobs))?;
    }
    Ok(())
}

/// The `CFLAGS=` assignment of a makefile with its `-O` level replaced by
/// `level` (added when it has none): `None` when the makefile assigns no
/// `CFLAGS`.
pub fn makefile_cflags_at(makefile: &str, level: &str) -> Option<String> {
    let line = makefile.lines().find(|l| {
        let t = l.trim_start();
        t.starts_with("CFLAGS") && t["CFLAGS".len()..].trim_start().starts_with('=')
    })?;
    let value = line.split_once('=')?.1;
    let mut replaced = false;
    let words: Vec<String> = value
        .split_whitespace()
        .map(|w| {
            if w.starts_with("-O") {
                replaced = true;
                level.to_string()
            } else {
                w.to_string()
            }
        })
        .collect();
    let mut words = words;
    if !replaced {
        words.push(level.to_string());
    }
    Some(words.join(" "))
}

/// Lua: its own `makefile`, unchanged: `make CC=...` (with the cross
/// binutils as `AR`/`RANLIB` for a foreign target). The makefile's `-O2`
/// selects `opt`, and with `-fno-mem2reg` in `CC` `nomem2reg`; only a build
/// that must force another level (`mem2reg`, gcc's reference) overrides
/// `CFLAGS`, with the makefile's own value and that level in place of its
/// `-O2`.
fn build_lua(setup: &Setup, b: &mut Build) -> Result<()> {
    let dir = b.dir.clone();
    let q = crate::util::shell_quote;
    let mut make = format!(
        "make -j{} CC={}",
        setup.make_jobs,
        q(&build_cc(setup, b.target, b.compiler))
    );
    if let Some(level) = forced_level(b.compiler) {
        let makefile = std::fs::read_to_string(dir.join("makefile")).context("reading Lua's makefile")?;
        let Some(cflags) = makefile_cflags_at(&makefile, &level) else {
            bail!("Lua's makefile assigns no CFLAGS");
        };
        b.notes
            .push(format!("CFLAGS of the makefile with {level} for its -O level"));
        make.push_str(&format!(" CFLAGS={}", q(&cflags)));
    }
    if !b.target.is_host() {
        make.push_str(&format!(
            " AR={} RANLIB={}",
            q(&format!("{} rc", binutil(b.target, "ar"))),
            q(&binutil(b.target, "ranlib"))
        ));
    }
    step(setup, b, &dir, &[], &make)?;
    Ok(())
}

/// SQLite: the amalgamation's shell, built with the command of the sources'
/// README (the snapshot's autosetup `configure` needs a host `tclsh`-free
/// jimsh bootstrap and libtool-style shared builds, which the amalgamation
/// makes unnecessary), as two compiles and a link so that a link alone can
/// be redone.
fn build_sqlite(setup: &Setup, b: &mut Build) -> Result<()> {
    let dir = b.dir.clone();
    let cc = cc(setup, b.target, b.compiler);
    let opt = [opt_flags(b.compiler)]
        .into_iter()
        .chain(setup.extra_cflags.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    for file in ["shell", "sqlite3"] {
        let command = format!("{cc} {opt} -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -c -o {file}.o {file}.c");
        if !step(setup, b, &dir, &[], &command)? {
            return Ok(());
        }
    }
    step(setup, b, &dir, &[], &format!("{cc} -o sqlite3 shell.o sqlite3.o -lm"))?;
    Ok(())
}

/// CPU time of this process's reaped children so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage fills the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    let tv = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Run `binary` (built for `target`) with `args` in `cwd`, natively or under
/// the target's emulator, contained by the runner; wall and CPU time
/// recorded. Runs must not overlap (the CPU time is a delta of
/// `RUSAGE_CHILDREN`).
pub fn run_contained(
    setup: &Setup,
    target: Target,
    binary: &Path,
    args: &[String],
    cwd: &Path,
    label: &str,
) -> Result<Run> {
    let binary = std::path::absolute(binary)?;
    let mut limits = Limits {
        timeout: setup.run_timeout,
        cpu_seconds: setup.run_timeout.as_secs() + 1,
        address_space: Some(4 << 30),
        file_size: 1 << 30,
        output_cap: 256 << 20,
    };
    let mut argv: Vec<std::ffi::OsString> = Vec::new();
    if let Some(qemu) = runner::emulator(target) {
        limits.timeout *= 10;
        limits.cpu_seconds = limits.timeout.as_secs() + 1;
        limits.address_space = limits.address_space.map(|a| a + runner::QEMU_ADDRESS_SPACE_OVERHEAD);
        argv.push(qemu.into());
    }
    argv.push(binary.into_os_string());
    let job = match setup.stack_mib {
        None => Job::new(argv.remove(0)).args(argv),
        // The runner sets no stack limit: a shell sets it and execs the program.
        Some(mib) => Job::new("sh")
            .arg("-c")
            .arg(format!("ulimit -s {} && exec \"$@\"", mib * 1024))
            .arg("sh")
            .args(argv),
    };
    let before = children_cpu();
    let r: RunResult = runner::run(&job.args(args).cwd(cwd), &limits).with_context(|| format!("running {label}"))?;
    let cpu = children_cpu().saturating_sub(before);
    Ok(Run {
        label: label.to_string(),
        termination: r.termination,
        stdout: r.stdout.bytes,
        stderr: r.stderr.bytes,
        wall: r.elapsed,
        cpu,
    })
}

/// Record a run in `t`; a run that does not exit 0 is a failure.
fn checked(t: &mut Tested, run: Run) -> Run {
    if !run.exited_ok() {
        let err = String::from_utf8_lossy(&run.stderr);
        let out = String::from_utf8_lossy(&run.stdout);
        // The last lines of output, each cut to 160 characters (Lua prints
        // long lines of progress dots).
        let tail: Vec<String> = out
            .lines()
            .chain(err.lines())
            .filter(|l| !l.trim().is_empty())
            .rev()
            .take(3)
            .map(|l| l.chars().take(160).collect())
            .collect();
        t.failures.push(format!(
            "{}: {} ({})",
            run.label,
            run.termination.describe(),
            tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
        ));
    }
    t.runs.push(run.clone());
    run
}

/// Run the tests of a successful build.
pub fn test(setup: &Setup, b: &Build) -> Result<Tested> {
    match b.program {
        Program::Zlib => test_zlib(setup, b),
        Program::Lua => test_lua(setup, b),
        Program::Sqlite => test_sqlite(setup, b),
    }
}

/// Deterministic inputs of the zlib round trips: "hello world" (as
/// `make test`), zlib's own sources concatenated four times (text), and 1 MiB
/// of pseudo-random bytes with runs (binary, poorly compressible parts).
pub fn zlib_inputs(dir: &Path, b: &Build) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let hello = dir.join("hello.txt");
    std::fs::write(&hello, b"hello world\n")?;
    let mut names: Vec<PathBuf> = std::fs::read_dir(&b.dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("c") | Some("h")))
        .collect();
    names.sort();
    let mut text = Vec::new();
    for _ in 0..4 {
        for n in &names {
            text.extend(std::fs::read(n)?);
        }
    }
    let text_path = dir.join("sources.txt");
    std::fs::write(&text_path, &text)?;
    let mut x: u32 = 2463534242;
    let mut bin = Vec::with_capacity(1 << 20);
    while bin.len() < 1 << 20 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let run = (x >> 24) as usize % 8 + 1;
        bin.resize(bin.len() + run, (x & 0xff) as u8);
    }
    bin.truncate(1 << 20);
    let bin_path = dir.join("random.bin");
    std::fs::write(&bin_path, &bin)?;
    Ok(vec![hello, text_path, bin_path])
}

fn test_zlib(setup: &Setup, b: &Build) -> Result<Tested> {
    let mut t = Tested::default();
    let work = b.dir.join("realprogs-test");
    let _ = std::fs::remove_dir_all(&work);
    let inputs = zlib_inputs(&work, b)?;
    // `make test`: example and example64 (the 64-bit-offset build).
    for ex in ["example", "example64"] {
        let run = run_contained(setup, b.target, &b.binary(ex), &[format!("tmp_{ex}")], &work, ex)?;
        let run = checked(&mut t, run);
        t.output.extend_from_slice(&run.stdout);
    }
    for mg in ["minigzip", "minigzip64"] {
        for input in &inputs {
            let name = input.file_name().unwrap().to_string_lossy().to_string();
            for level in ["-1", "-6", "-9"] {
                let label = format!("{mg} -c {level} {name}");
                let args = vec!["-c".to_string(), level.to_string(), input.display().to_string()];
                let run = checked(
                    &mut t,
                    run_contained(setup, b.target, &b.binary(mg), &args, &work, &label)?,
                );
                if !run.exited_ok() {
                    continue;
                }
                t.output
                    .extend_from_slice(format!("{label}: {} bytes\n", run.stdout.len()).as_bytes());
                t.output.extend_from_slice(&run.stdout);
                let gz = work.join(format!("{name}{level}.gz"));
                std::fs::write(&gz, &run.stdout)?;
                let dlabel = format!("{mg} -d -c {name}{level}.gz");
                let args = vec!["-d".to_string(), "-c".to_string(), gz.display().to_string()];
                let run = checked(
                    &mut t,
                    run_contained(setup, b.target, &b.binary(mg), &args, &work, &dlabel)?,
                );
                if run.exited_ok() && run.stdout != std::fs::read(input)? {
                    t.failures.push(format!("{dlabel}: the round trip changed the data"));
                }
            }
        }
    }
    t.notes.push(format!(
        "example, example64, and minigzip/minigzip64 -c at -1/-6/-9 round trips of {} inputs",
        inputs.len()
    ));
    Ok(t)
}

fn test_lua(setup: &Setup, b: &Build) -> Result<Tested> {
    let mut t = Tested::default();
    let lua = b.binary("lua");
    let testes = b.dir.join("testes");
    let mut args = vec!["-e_port=true".to_string()];
    if b.target.emulator().is_some() {
        args.push("-e_soft=true".to_string());
    }
    args.push("all.lua".to_string());
    let run = checked(
        &mut t,
        run_contained(setup, b.target, &lua, &args, &testes, "lua testes/all.lua")?,
    );
    let out = String::from_utf8_lossy(&run.stdout);
    if run.exited_ok() && !out.contains("final OK") {
        t.failures
            .push("lua testes/all.lua: exited 0 without `final OK`".into());
    }
    t.notes
        .push(format!("testes/all.lua {}", args[..args.len() - 1].join(" ")));
    let workload = setup.corpora.join("lua-workload.lua");
    let run = checked(
        &mut t,
        run_contained(
            setup,
            b.target,
            &lua,
            &[workload.display().to_string()],
            &testes,
            "lua lua-workload.lua",
        )?,
    );
    t.output = run.stdout;
    Ok(t)
}

fn test_sqlite(setup: &Setup, b: &Build) -> Result<Tested> {
    let mut t = Tested::default();
    let workload = setup.corpora.join("sqlite-workload.sql");
    let args = vec![
        "-batch".to_string(),
        ":memory:".to_string(),
        format!(".read {}", workload.display()),
    ];
    let run = checked(
        &mut t,
        run_contained(
            setup,
            b.target,
            &b.binary("sqlite3"),
            &args,
            &b.dir,
            "sqlite3 sqlite-workload.sql",
        )?,
    );
    if run.exited_ok() && !run.stderr.is_empty() {
        t.failures.push(format!(
            "sqlite3 sqlite-workload.sql: {}",
            first_error(&String::from_utf8_lossy(&run.stderr))
        ));
    }
    t.output = run.stdout;
    Ok(t)
}

/// The outcome of one program for one target and configuration.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub program: Program,
    pub target: Target,
    pub config: Config,
    pub phicc: Build,
    pub tested: Option<Tested>,
    pub reference: Build,
    pub reference_tested: Option<Tested>,
}

impl Outcome {
    /// The phicc build's deterministic output equals gcc's (`None`: one side has none).
    pub fn output_equal(&self) -> Option<bool> {
        match (&self.tested, &self.reference_tested) {
            (Some(a), Some(b)) if !b.output.is_empty() => Some(a.output == b.output),
            _ => None,
        }
    }

    /// Build ok, tests pass and output equal to gcc's.
    pub fn passed(&self) -> bool {
        self.phicc.ok()
            && self.tested.as_ref().is_some_and(|t| t.failures.is_empty())
            && self.output_equal() == Some(true)
    }
}

/// Build and test `program` for `target` with phicc in `config` and with
/// the target's gcc -O0 (the reference, built once per target by the caller
/// passing it in, or here when `reference` is `None`).
pub fn run_program(
    setup: &Setup,
    program: Program,
    target: Target,
    config: Config,
    reference: Option<(Build, Option<Tested>)>,
) -> Result<Outcome> {
    let (reference, reference_tested) = match reference {
        Some(r) => r,
        None => {
            let b = build(setup, program, target, Compiler::Gcc(0))?;
            let t = if b.ok() { Some(test(setup, &b)?) } else { None };
            (b, t)
        }
    };
    let phicc = build(setup, program, target, Compiler::Phicc(config))?;
    let tested = if phicc.ok() { Some(test(setup, &phicc)?) } else { None };
    Ok(Outcome {
        program,
        target,
        config,
        phicc,
        tested,
        reference,
        reference_tested,
    })
}

fn secs(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

/// One tab-separated line of `results.tsv` (see [`TSV_HEADER`]).
pub fn tsv_line(o: &Outcome) -> String {
    let tests = match &o.tested {
        None => "-".to_string(),
        Some(t) if t.failures.is_empty() => "pass".to_string(),
        Some(t) => format!("fail({})", t.failures.len()),
    };
    let equal = match o.output_equal() {
        None => "-",
        Some(true) => "equal",
        Some(false) => "differ",
    };
    let time = |t: &Option<Tested>| match t {
        Some(t) => (secs(t.wall()), secs(t.cpu())),
        None => ("-".into(), "-".into()),
    };
    let (wall, cpu) = time(&o.tested);
    let (gwall, gcpu) = time(&o.reference_tested);
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        o.program,
        o.target,
        o.config,
        if o.phicc.ok() { "ok" } else { "failed" },
        tests,
        equal,
        wall,
        cpu,
        gwall,
        gcpu,
        secs(o.phicc.time),
        o.phicc.error.as_deref().unwrap_or("").replace('\t', " "),
    )
}

pub const TSV_HEADER: &str =
    "program\ttarget\tconfig\tbuild\ttests\toutput_vs_gcc\twall_s\tcpu_s\tgcc_wall_s\tgcc_cpu_s\tbuild_s\tfirst_error";

/// A human-readable account of one outcome: the build, every failure, the notes.
pub fn describe(o: &Outcome) -> String {
    let mut s = format!("== {} {} {}\n", o.program, o.target, o.config);
    for (who, b, t) in [
        ("phicc", &o.phicc, &o.tested),
        ("gcc -O0", &o.reference, &o.reference_tested),
    ] {
        s.push_str(&format!(
            "  {who}: build {} in {}s ({})\n",
            if b.ok() { "ok" } else { "FAILED" },
            secs(b.time),
            b.dir.display()
        ));
        if let Some(e) = &b.error {
            s.push_str(&format!("    first error: {e}\n"));
        }
        for n in &b.notes {
            s.push_str(&format!("    note: {n}\n"));
        }
        if let Some(t) = t {
            s.push_str(&format!(
                "    tests: {} ({} runs, wall {}s, cpu {}s)\n",
                if t.failures.is_empty() { "pass" } else { "FAIL" },
                t.runs.len(),
                secs(t.wall()),
                secs(t.cpu())
            ));
            for f in &t.failures {
                s.push_str(&format!("    failure: {f}\n"));
            }
            for n in &t.notes {
                s.push_str(&format!("    covered: {n}\n"));
            }
            for r in &t.runs {
                if r.wall > Duration::from_secs(1) {
                    s.push_str(&format!(
                        "    run {}: wall {}s cpu {}s\n",
                        r.label,
                        secs(r.wall),
                        secs(r.cpu)
                    ));
                }
            }
        }
    }
    s.push_str(&format!(
        "  output vs gcc -O0: {}\n",
        match o.output_equal() {
            None => "not compared",
            Some(true) => "equal",
            Some(false) => "DIFFERENT",
        }
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_error_prefers_error_lines() {
        assert_eq!(
            first_error("cc -c x.c\nx.c:1:2: error: bad\nmake: *** [x.o] Error 1\n"),
            "x.c:1:2: error: bad"
        );
        assert_eq!(first_error("one\ntwo\n\n"), "two");
    }

    #[test]
    fn makefile_cflags_get_the_forced_level() {
        let mk = "CC= gcc\nCFLAGS= -Wall -O2 $(MYCFLAGS) -fno-common\nAR= ar rc\n";
        assert_eq!(
            makefile_cflags_at(mk, "-O0").as_deref(),
            Some("-Wall -O0 $(MYCFLAGS) -fno-common")
        );
        assert_eq!(makefile_cflags_at("CFLAGS = -g\n", "-O1").as_deref(), Some("-g -O1"));
        assert_eq!(makefile_cflags_at("MYCFLAGS= -O2\n", "-O0"), None);
    }

    #[test]
    fn only_mem2reg_and_gcc_force_a_level() {
        assert_eq!(forced_level(Compiler::Phicc(Config::Opt)), None);
        assert_eq!(forced_level(Compiler::Phicc(Config::Nomem2reg)), None);
        assert_eq!(forced_level(Compiler::Phicc(Config::Mem2reg)).as_deref(), Some("-O0"));
        assert_eq!(forced_level(Compiler::Gcc(1)).as_deref(), Some("-O1"));
    }

    #[test]
    fn programs_parse_by_name() {
        for p in Program::ALL {
            assert_eq!(p.name().parse::<Program>().unwrap(), p);
        }
        assert!("quickjs".parse::<Program>().is_err());
    }

    #[test]
    fn archives_are_found_by_prefix() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("zlib-abc.tar.gz"), b"").unwrap();
        std::fs::write(d.path().join("README.md"), b"").unwrap();
        assert_eq!(
            archive(d.path(), Program::Zlib).unwrap(),
            d.path().join("zlib-abc.tar.gz")
        );
        assert!(archive(d.path(), Program::Lua).is_err());
    }
}
