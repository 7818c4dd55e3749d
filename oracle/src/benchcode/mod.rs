//! The generated-code benchmark (issue 14, item 5; issue 15's `-O1` line):
//! how fast the code phicc produces runs, and how big its stack frames are,
//! next to gcc's.
//!
//! A fixed set of workloads is built by every build of [`DEFAULT_BUILDS`]
//! (gcc -O0, gcc -O1, phicc -fno-mem2reg, phicc, phicc -O1) for each target:
//! - `repro-02`: `../shared/bugs/repro-02.c`, computed-goto dispatch;
//! - `zlib`: `minigzip -c` at -6 and -9 and `minigzip -d -c` round trips of
//!   a text and a binary input ([`realprogs::zlib_inputs`]);
//! - `lua-fib`: `corpora/bench-code/fib.lua`, fib(32);
//! - `lua-testes`: Lua's own `testes/all.lua` (`-e_port=true`, plus
//!   `-e_soft=true` under QEMU and with `--quick`), at an 8 MiB stack: a
//!   run that fails is reported as a failure, not hidden;
//! - `sqlite`: `corpora/realprogs/sqlite-workload.sql` (a 100k-row table,
//!   indices, joins, aggregates, window functions);
//! - `csmith-N` and `cgen-EMPHASIS-N`: generated programs with fixed seeds
//!   ([`CSMITH_SEEDS`], [`CGEN_PROGRAMS`]); a cgen program's `main` is
//!   called many times per run ([`cgen_program`]) so that a run
//!   takes a measurable time.
//!
//! zlib, Lua and SQLite are built by [`realprogs::build`] (their own build
//! systems, as `oracle realprogs` does); a single C file is compiled and
//! linked in one command with the same compiler words ([`realprogs::cc`],
//! [`realprogs::opt_flags`]). Every build adds `-fstack-usage` (phicc
//! ignores it). Builds are cached under `~/.cache/phicc-bench/builds/`,
//! keyed by a hash of the sources, the compiler (the phicc binary's
//! SHA-256; gcc's version and its `cc1`'s SHA-256), the target and the
//! recipe; the two newest builds of each (source, target, compiler) are
//! kept. Builds take a lock on the cache (`flock`), so concurrent runs
//! never build into the same directory.
//!
//! Timing: every repetition runs each workload on every build back to back,
//! in an order rotated by one build per repetition (round-robin), so slow
//! drifts of the machine's load hit every build alike. A run's time is the
//! CPU time (user + system) of its processes, from `getrusage` around the
//! run ([`realprogs::run_contained`]). With one code layout, a build's
//! ratio for a workload is the median, over the repetitions, of its CPU
//! time divided by gcc -O0's in the same repetition. With several, the
//! same layout number puts different code of two builds at the page
//! boundaries, so pairing runs by repetition means nothing: a build's
//! ratio is then its expected time over the layouts (the mean of each
//! layout's median) over gcc -O0's, as Curtsinger and Berger's STABILIZER
//! (ASPLOS 2013) compares programs over random layouts instead of one.
//! Long workloads (Lua's test suite) run `--long-reps` times only. Single-file workloads are built in
//! `--layouts` code layouts ([`layout_step`]) and repetition `r` runs
//! layout `r % layouts` of every build: under QEMU one layout can make the
//! same code 1.5x slower or faster. zlib, Lua and SQLite are built once by
//! their own build systems with a `CC` that records each link
//! ([`LINK_RECORDER`]); each further layout relinks the timed binary from
//! the same objects with the padding first.
//!
//! Correctness: the output of every run (stdout and exit status) must equal
//! the gcc -O0 build's, except Lua's test suite, which prints timings and
//! must print `final OK`; zlib's decompressed output must also equal its
//! input, and SQLite must print nothing on stderr. A difference is a
//! mismatch, reported loudly (the first differing line, both outputs kept
//! under `<cache>/mismatches/`, exit status 1); a crash, timeout or failed
//! build is a failure (exit status 1 too).
//!
//! Frames ([`frames`]): gcc's from `-fstack-usage`, phicc's from the
//! prologues of the binary's machine code; only functions of the program
//! itself (those gcc -O0's `.su` files name) are listed.

pub mod frames;

use crate::cgen::{CgenConfig, Emphasis};
use crate::generator::csmith::CsmithOptions;
use crate::realprogs::{self, Compiler, Program, Setup};
use crate::runner::{self, Job, Limits, Termination};
use crate::target::{Config, Target};
use crate::util::content_hash;
use anyhow::{bail, Context, Result};
use frames::Frames;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Bumped when the way a build is made changes (invalidates the cache).
const RECIPE_VERSION: &str = "bench-code-2";

/// The guest page size the code layouts spread a program's code over.
const PAGE: usize = 4096;

/// How far each extra code layout moves the program's code: a padding
/// object of this many bytes of `.text` per layout is linked first, so
/// that `layouts` layouts cover a page evenly (1 KiB apart for 4). QEMU
/// chains translated blocks directly only within a guest page, so the same
/// code runs up to 2.5x slower (zlib's `longest_match` on RISC-V) when a
/// hot loop straddles a page boundary; repetition `r` times layout `r %
/// layouts`, which spreads that luck over every build alike.
pub fn layout_step(layouts: usize) -> usize {
    (PAGE / layouts.max(1)).max(16) & !15
}

/// The `CC` launcher of a real program's build (`sh` script, `DIR` its
/// directory): it runs the compiler and, for a link (no `-c`, `-S` or
/// `-E`), writes the working directory and the arguments, NUL-separated,
/// to a file of `DIR/links/` named by the time, so that [`relink`] can redo
/// the binary's link at another layout.
const LINK_RECORDER: &str = r#"#!/bin/sh
link=1
for a in "$@"; do
  case "$a" in -c|-S|-E) link=0 ;; esac
done
if [ "$link" = 1 ]; then
  mkdir -p "DIR/links"
  { printf '%s\0' "$PWD"; printf '%s\0' "$@"; } > "DIR/links/$(date +%s%N)-$$"
fi
exec "$@"
"#;

/// Write [`LINK_RECORDER`] for `dir` as the executable `dir/cc-record`.
fn write_link_recorder(dir: &Path) -> Result<PathBuf> {
    let launcher = dir.join("cc-record");
    std::fs::write(&launcher, LINK_RECORDER.replace("DIR", &dir.display().to_string()))?;
    std::fs::set_permissions(&launcher, std::os::unix::fs::PermissionsExt::from_mode(0o755))?;
    Ok(launcher)
}

/// The `.s` source of layout `n`'s padding of `layouts`: `n` x
/// [`layout_step`] bytes of `.text` under a global label.
fn padding_source(n: usize, layouts: usize) -> String {
    format!(
        "\t.text\n\t.globl\tbench_layout_pad_{n}\nbench_layout_pad_{n}:\n\t.skip\t{}\n",
        n * layout_step(layouts)
    )
}

/// Relink `binary` of the real-program build in `program_dir` at `layout`:
/// the last link [`LINK_RECORDER`] recorded under `dir` with `-o` naming
/// it, run again in its directory with `-o BINARY-LAYOUT` and the padding
/// object first among the inputs.
fn relink(
    dir: &Path,
    program_dir: &Path,
    binary: &str,
    layout: usize,
    layouts: usize,
    timeout: Duration,
) -> Result<()> {
    let mut records: Vec<PathBuf> = std::fs::read_dir(dir.join("links"))
        .with_context(|| format!("no links recorded in {}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .collect();
    records.sort();
    let want = std::fs::canonicalize(program_dir)?;
    let mut found = None;
    for r in &records {
        let bytes = std::fs::read(r)?;
        let mut words: Vec<String> = bytes
            .split(|&b| b == 0)
            .map(|w| String::from_utf8_lossy(w).to_string())
            .collect();
        words.pop(); // after the last NUL
        if words.len() < 2 {
            continue;
        }
        let cwd = PathBuf::from(words.remove(0));
        let Some(o) = words.iter().position(|w| w == "-o") else {
            continue;
        };
        let Some(out) = words.get(o + 1).map(|w| cwd.join(w)) else {
            continue;
        };
        let same_dir = out.parent().and_then(|p| std::fs::canonicalize(p).ok()) == Some(want.clone());
        if same_dir && out.file_name() == Some(std::ffi::OsStr::new(binary)) {
            found = Some((cwd, words, o));
        }
    }
    let Some((cwd, mut words, o)) = found else {
        bail!("no recorded link makes {binary}");
    };
    let pad = dir.join(format!("pad{layout}.s"));
    std::fs::write(&pad, padding_source(layout, layouts))?;
    words[o + 1] = format!("{}-{layout}", words[o + 1]);
    words.insert(1, pad.display().to_string());
    let mut job = Job::new(&words[0]).cwd(&cwd);
    for w in &words[1..] {
        job = job.arg(w);
    }
    let limits = Limits {
        address_space: None,
        output_cap: 1 << 20,
        ..Limits::with_timeout(timeout)
    };
    let shown = words.join(" ");
    let r = runner::run(&job, &limits).with_context(|| format!("running `{shown}`"))?;
    if r.termination != Termination::Exited(0) {
        bail!(
            "`{shown}`: {}: {}",
            r.termination.describe(),
            realprogs::first_error(&String::from_utf8_lossy(&r.stderr.bytes))
        );
    }
    Ok(())
}

/// The builds compared, gcc -O0 (the reference) first.
pub const DEFAULT_BUILDS: [Compiler; 5] = [
    Compiler::Gcc(0),
    Compiler::Gcc(1),
    Compiler::Phicc(Config::Nomem2reg),
    Compiler::Phicc(Config::Mem2reg),
    Compiler::Phicc(Config::Opt),
];

/// Csmith seeds of the benchmark, with Csmith's default options. Csmith
/// programs nearly always either end at once (of seeds 1..1500 and
/// 3001..4021, 87% end within 18 ms of gcc -O0's code on x86-64, start-up
/// included) or run for minutes (13% pass 4 s); seed 50 is the one of those
/// 2,521 that ends after a time worth measuring (0.11 s on x86-64, 0.44 s
/// under QEMU for AArch64).
pub const CSMITH_SEEDS: [u64; 1] = [50];

/// The cgen programs: (emphasis, seed, calls of `main` per run), the calls
/// chosen for about 0.2 s of gcc -O0's code on x86-64.
pub const CGEN_PROGRAMS: [(Emphasis, u64, usize); 4] = [
    (Emphasis::Default, 1, 1_000_000),
    (Emphasis::LostCopy, 2, 1_000_000),
    (Emphasis::ComputedGoto, 3, 500_000),
    (Emphasis::SwitchCost, 4, 150_000),
];

/// A build's label in tables: how a user would spell the command.
pub fn label(c: Compiler) -> String {
    match c {
        Compiler::Gcc(o) => format!("gcc -O{o}"),
        Compiler::Phicc(Config::Mem2reg) => "phicc".to_string(),
        Compiler::Phicc(c) => format!("phicc {}", c.flags().join(" ")),
    }
}

/// Parse a build name: `gcc-O0`, `gcc-O1`, `phicc-nomem2reg`, `phicc-mem2reg`, `phicc-opt`.
pub fn parse_build(s: &str) -> Result<Compiler, String> {
    if let Some(o) = s.strip_prefix("gcc-O") {
        return o
            .parse::<u8>()
            .map(Compiler::Gcc)
            .map_err(|_| format!("bad gcc level in `{s}`"));
    }
    if let Some(c) = s.strip_prefix("phicc-") {
        return c.parse::<Config>().map(Compiler::Phicc);
    }
    Err(format!(
        "unknown build `{s}` (expected gcc-O0, gcc-O1, phicc-nomem2reg, phicc-mem2reg or phicc-opt)"
    ))
}

/// The benchmark's version of cgen program `seed` with `emphasis` (the
/// program `oracle cgen --seed SEED --emphasis EMPHASIS` prints): its
/// `main` renamed and called `calls` times, only the last call
/// printing, so that a run takes a measurable time (one call takes
/// microseconds: the conditions of cgen's loops cut most iterations). A
/// cgen program is free of undefined behaviour for any values of its
/// globals (safe arithmetic, masked indices, pointers only to live
/// objects, constant trip counts), so every call is well defined; the
/// checksum accumulates over the calls.
pub fn cgen_program(emphasis: Emphasis, seed: u64, calls: usize) -> String {
    let text = crate::cgen::generate(seed, &CgenConfig::preset(emphasis));
    format!(
        "#include <stdarg.h>
#include <stdio.h>
static int bench_print;
static int bench_printf(const char *fmt, ...) {{
    if (!bench_print)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    int r = vprintf(fmt, ap);
    va_end(ap);
    return r;
}}
#define printf bench_printf
#define main cgen_main
{text}
#undef main
int main(void) {{
    for (int i = 1; i <= {calls}; i++) {{
        bench_print = i == {calls};
        cgen_main();
    }}
    return 0;
}}
"
    )
}

/// What a workload builds.
#[derive(Clone, Debug)]
pub enum Source {
    /// One C file, compiled and linked in one command.
    File {
        name: String,
        text: String,
        flags: Vec<String>,
    },
    /// A program of the real-programs suite, built through its build system.
    Real(Program),
}

impl Source {
    pub fn name(&self) -> String {
        match self {
            Source::File { name, .. } => name.clone(),
            Source::Real(p) => p.name().to_string(),
        }
    }

    /// The binary whose frames are measured.
    fn binary(&self) -> &'static str {
        match self {
            Source::File { .. } => "prog",
            Source::Real(Program::Zlib) => "minigzip",
            Source::Real(Program::Lua) => "lua",
            Source::Real(Program::Sqlite) => "sqlite3",
        }
    }
}

/// What one repetition of a workload runs.
#[derive(Clone, Debug)]
pub enum Kind {
    /// The binary without arguments.
    Plain,
    /// minigzip round trips.
    ZlibRoundTrips,
    /// `lua SCRIPT`.
    LuaScript(PathBuf),
    /// `lua all.lua` in `testes/`.
    LuaTestes,
    /// `sqlite3 -batch :memory: ".read SCRIPT"`.
    Sqlite(PathBuf),
}

#[derive(Clone, Debug)]
pub struct Workload {
    pub name: String,
    /// Index into [`Plan::sources`].
    pub source: usize,
    pub kind: Kind,
    /// Run `--long-reps` times only.
    pub long: bool,
}

/// The sources and the workloads run on them.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub sources: Vec<Source>,
    pub workloads: Vec<Workload>,
}

/// Where the fixed inputs are.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// `repro-02.c`.
    pub repro02: PathBuf,
    /// The repository's `corpora/` directory.
    pub corpora: PathBuf,
    pub csmith: CsmithOptions,
}

/// Whether `name` is selected by `selection` (empty: everything; an entry
/// selects the workload of that name and those whose name starts with it
/// and a dash: `lua` selects `lua-fib` and `lua-testes`).
pub fn selected(name: &str, selection: &[String]) -> bool {
    selection.is_empty()
        || selection
            .iter()
            .any(|s| name == s || name.strip_prefix(s.as_str()).is_some_and(|r| r.starts_with('-')))
}

/// The benchmark's workloads (those `selection` names and `skip` does not
/// name, both as in [`selected`]); `quick` keeps one Csmith and one cgen program.
pub fn plan(inputs: &Inputs, selection: &[String], skip: &[String], quick: bool) -> Result<Plan> {
    let selected = |n: &str, sel: &[String]| selected(n, sel) && (skip.is_empty() || !selected(n, skip));
    let mut p = Plan::default();
    let add = |p: &mut Plan, source: Source, works: Vec<(String, Kind, bool)>| {
        let works: Vec<_> = works.into_iter().filter(|(n, ..)| selected(n, selection)).collect();
        if works.is_empty() {
            return;
        }
        p.sources.push(source);
        let source = p.sources.len() - 1;
        for (name, kind, long) in works {
            p.workloads.push(Workload {
                name,
                source,
                kind,
                long,
            });
        }
    };
    let want = |n: &str| selected(n, selection);
    if want("repro-02") {
        let text = std::fs::read_to_string(&inputs.repro02)
            .with_context(|| format!("reading {}", inputs.repro02.display()))?;
        add(
            &mut p,
            Source::File {
                name: "repro-02".into(),
                text,
                flags: vec![],
            },
            vec![("repro-02".into(), Kind::Plain, false)],
        );
    }
    add(
        &mut p,
        Source::Real(Program::Zlib),
        vec![("zlib".into(), Kind::ZlibRoundTrips, false)],
    );
    add(
        &mut p,
        Source::Real(Program::Lua),
        vec![
            (
                "lua-fib".into(),
                Kind::LuaScript(inputs.corpora.join("bench-code/fib.lua")),
                false,
            ),
            ("lua-testes".into(), Kind::LuaTestes, true),
        ],
    );
    add(
        &mut p,
        Source::Real(Program::Sqlite),
        vec![(
            "sqlite".into(),
            Kind::Sqlite(inputs.corpora.join("realprogs/sqlite-workload.sql")),
            false,
        )],
    );
    let csmith_seeds = if quick { &CSMITH_SEEDS[..1] } else { &CSMITH_SEEDS[..] };
    for &seed in csmith_seeds {
        let name = format!("csmith-{seed}");
        if want(&name) {
            let text = inputs.csmith.generate(seed)?;
            let flags = vec![format!("-I{}", inputs.csmith.include_dir.display())];
            add(
                &mut p,
                Source::File {
                    name: name.clone(),
                    text,
                    flags,
                },
                vec![(name, Kind::Plain, false)],
            );
        }
    }
    let cgen = if quick { &CGEN_PROGRAMS[..1] } else { &CGEN_PROGRAMS[..] };
    for &(emphasis, seed, calls) in cgen {
        let name = format!("cgen-{emphasis}-{seed}");
        if want(&name) {
            let text = cgen_program(emphasis, seed, calls);
            add(
                &mut p,
                Source::File {
                    name: name.clone(),
                    text,
                    flags: vec![],
                },
                vec![(name, Kind::Plain, false)],
            );
        }
    }
    Ok(p)
}

/// The outcome of one build, as cached in its `stamp.json`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Built {
    /// The directory holding the binaries.
    pub dir: PathBuf,
    /// Why the build failed.
    pub error: Option<String>,
    /// Frames measured in the binary's machine code (every function).
    pub code_frames: Frames,
    /// Frames from `-fstack-usage` (gcc builds).
    pub su_frames: Frames,
    pub build_secs: f64,
    #[serde(skip)]
    pub cached: bool,
}

impl Built {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// The frames to report: gcc's `.su` numbers for the functions in the
    /// binary, else the machine-code numbers of the functions that the
    /// reference's `.su` files name (the program's own functions).
    pub fn frames(&self, reference: Option<&Built>) -> Frames {
        let mut f = self.program_frames(reference);
        // The benchmark's own wrapper of cgen programs.
        f.remove("bench_printf");
        f
    }

    fn program_frames(&self, reference: Option<&Built>) -> Frames {
        if !self.su_frames.is_empty() {
            return self
                .su_frames
                .iter()
                .filter(|(k, _)| self.code_frames.is_empty() || self.code_frames.contains_key(*k))
                .map(|(k, v)| (k.clone(), *v))
                .collect();
        }
        match reference.filter(|r| !r.su_frames.is_empty()) {
            Some(r) => self
                .code_frames
                .iter()
                .filter(|(k, _)| r.su_frames.contains_key(*k))
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
            None => self.code_frames.clone(),
        }
    }
}

/// SHA-256 of a file, by `sha256sum` (fast on a 50 MB debug phicc).
fn sha256(path: &Path) -> Result<String> {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .context("running sha256sum")?;
    anyhow::ensure!(
        out.status.success(),
        "sha256sum {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string())
}

/// The benchmark's state: the build setup, the cache, the scratch directory.
pub struct Bench {
    /// realprogs' setup (its `work` is replaced per build).
    pub setup: Setup,
    /// The cache root (`~/.cache/phicc-bench`).
    pub cache: PathBuf,
    /// Scratch for the runs' files (zlib's inputs and outputs).
    pub scratch: PathBuf,
    /// Wall-clock limit of one run (a build's runs after the reference's
    /// are limited to 60 times the reference's time plus 10 s, at most this).
    pub run_timeout: Duration,
    /// Code layouts per build ([`layout_step`]): `prog`, then `prog-1`...
    /// with the program's code moved by 1, 2... steps.
    pub layouts: usize,
    ids: HashMap<String, String>,
    archives: HashMap<Program, String>,
}

fn log(msg: &str) {
    eprintln!("bench-code: {msg}");
}

impl Bench {
    pub fn new(setup: Setup, cache: PathBuf, scratch: PathBuf, run_timeout: Duration) -> Bench {
        Bench {
            setup,
            cache,
            scratch,
            run_timeout,
            layouts: 1,
            ids: HashMap::new(),
            archives: HashMap::new(),
        }
    }

    /// What identifies the compiler of a build: the phicc binary's hash, or
    /// the target gcc's version and its `cc1`'s hash.
    fn compiler_id(&mut self, target: Target, compiler: Compiler) -> Result<String> {
        let key = match compiler {
            Compiler::Phicc(_) => "phicc".to_string(),
            Compiler::Gcc(_) => target.gcc().to_string(),
        };
        if let Some(id) = self.ids.get(&key) {
            return Ok(id.clone());
        }
        let id = match compiler {
            Compiler::Phicc(_) => format!("phicc {}", sha256(&self.setup.phicc)?),
            Compiler::Gcc(_) => {
                let gcc = target.gcc();
                let version = std::process::Command::new(gcc)
                    .arg("--version")
                    .output()
                    .with_context(|| format!("running {gcc} --version"))?;
                let cc1 = std::process::Command::new(gcc)
                    .arg("-print-prog-name=cc1")
                    .output()
                    .with_context(|| format!("running {gcc}"))?;
                let cc1 = PathBuf::from(String::from_utf8_lossy(&cc1.stdout).trim());
                let first = String::from_utf8_lossy(&version.stdout)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string();
                format!("{gcc} {first} {}", sha256(&cc1).unwrap_or_default())
            }
        };
        self.ids.insert(key, id.clone());
        Ok(id)
    }

    fn source_digest(&mut self, source: &Source) -> Result<String> {
        Ok(match source {
            Source::File { text, flags, .. } => format!("{} {flags:?}", content_hash(text.as_bytes())),
            Source::Real(p) => {
                if let Some(d) = self.archives.get(p) {
                    return Ok(d.clone());
                }
                let d = sha256(&realprogs::archive(&self.setup.sources, *p)?)?;
                self.archives.insert(*p, d.clone());
                d
            }
        })
    }

    /// Build `source` for `target` with `compiler`, or take it from the cache.
    pub fn build(&mut self, source: &Source, target: Target, compiler: Compiler) -> Result<Built> {
        let id = self.compiler_id(target, compiler)?;
        let digest = self.source_digest(source)?;
        let stem = format!("{}-{}-{}", source.name(), target, compiler.name());
        let layouts = self.layouts.max(1);
        let key = content_hash(format!("{RECIPE_VERSION}\n{stem}\n{digest}\n{id}\nlayouts {layouts}").as_bytes());
        let builds = self.cache.join("builds");
        let dir = builds.join(format!("{stem}-{key}"));
        let stamp = dir.join("stamp.json");
        // One build at a time per cache, whatever process makes it: a
        // concurrent run waits here, then finds the stamp.
        std::fs::create_dir_all(&builds)?;
        let lock = std::fs::File::create(builds.join(".lock"))?;
        // SAFETY: flock on a descriptor we own; released when `lock` is closed.
        if unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) } != 0 {
            bail!("locking {}: {}", builds.display(), std::io::Error::last_os_error());
        }
        if let Ok(text) = std::fs::read_to_string(&stamp) {
            if let Ok(mut b) = serde_json::from_str::<Built>(&text) {
                b.cached = true;
                // Touch the stamp: the newest builds are the ones kept.
                let _ = std::fs::write(&stamp, &text);
                return Ok(b);
            }
        }
        log(&format!(
            "building {} for {target} with {}",
            source.name(),
            label(compiler)
        ));
        if dir.exists() {
            std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir)?;
        let start = Instant::now();
        let mut built = match source {
            Source::File { name, text, flags } => {
                let mut b = self.build_file(&dir, name, text, flags, target, compiler, 0)?;
                for layout in 1..layouts {
                    if b.error.is_some() {
                        break;
                    }
                    b = self.build_file(&dir, name, text, flags, target, compiler, layout)?;
                }
                b
            }
            Source::Real(p) => {
                let launcher = write_link_recorder(&dir)?;
                let setup = Setup {
                    work: dir.clone(),
                    extra_cflags: vec!["-fstack-usage".into()],
                    cc_launcher: Some(launcher),
                    ..self.setup.clone()
                };
                let b = realprogs::build(&setup, *p, target, compiler)?;
                let mut error = b.error.clone();
                for layout in 1..layouts {
                    if error.is_some() {
                        break;
                    }
                    if let Err(e) = relink(&dir, &b.dir, source.binary(), layout, layouts, self.setup.build_timeout) {
                        error = Some(format!("relinking {} at layout {layout}: {e:#}", source.binary()));
                    }
                }
                Built {
                    dir: b.dir.clone(),
                    error,
                    ..Built::default()
                }
            }
        };
        built.build_secs = start.elapsed().as_secs_f64();
        if built.ok() {
            built.su_frames = frames::read_su_dir(&built.dir)?;
            match frames::read_binary(target, &built.dir.join(source.binary())) {
                Ok(f) => built.code_frames = f,
                Err(e) => log(&format!("frames of {}: {e:#}", source.name())),
            }
            prune(source, &built.dir);
        }
        std::fs::write(&stamp, serde_json::to_string(&built)?)?;
        log(&format!(
            "built {} for {target} with {} in {:.1} s{}",
            source.name(),
            label(compiler),
            built.build_secs,
            match &built.error {
                Some(e) => format!(": FAILED: {e}"),
                None => String::new(),
            }
        ));
        forget_older(&builds, &stem, &dir);
        Ok(built)
    }

    /// `CC OPT -fstack-usage -w FLAGS -o prog NAME.c` in `dir`; for
    /// `layout` n > 0, `-o prog-n padn.s NAME.c`, `padn.s` holding n x
    /// [`layout_step`] bytes of `.text`.
    #[allow(clippy::too_many_arguments)]
    fn build_file(
        &self,
        dir: &Path,
        name: &str,
        text: &str,
        flags: &[String],
        target: Target,
        compiler: Compiler,
        layout: usize,
    ) -> Result<Built> {
        let file = format!("{name}.c");
        std::fs::write(dir.join(&file), text)?;
        let (output, pad) = if layout == 0 {
            ("prog".to_string(), String::new())
        } else {
            let pad = format!("pad{layout}.s");
            std::fs::write(dir.join(&pad), padding_source(layout, self.layouts))?;
            (format!("prog-{layout}"), format!("{pad} "))
        };
        let command = format!(
            "{} {} -fstack-usage -w {} -o {output} {pad}{file}",
            realprogs::cc(&self.setup, target, compiler),
            realprogs::opt_flags(compiler),
            flags
                .iter()
                .map(|f| crate::util::shell_quote(f))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let limits = Limits {
            address_space: None,
            output_cap: 1 << 20,
            ..Limits::with_timeout(self.setup.build_timeout)
        };
        let r = runner::run(&Job::new("sh").arg("-c").arg(&command).cwd(dir), &limits)
            .with_context(|| format!("running `{command}`"))?;
        let error = (r.termination != Termination::Exited(0)).then(|| {
            let out = String::from_utf8_lossy(&r.stderr.bytes).to_string();
            let _ = std::fs::write(dir.join("build-failed.log"), &out);
            format!(
                "`{command}`: {}: {}",
                r.termination.describe(),
                realprogs::first_error(&out)
            )
        });
        Ok(Built {
            dir: dir.to_path_buf(),
            error,
            ..Built::default()
        })
    }
}

/// Delete what the runs do not need from a finished build (the big sources):
/// SQLite's amalgamation, zlib's subdirectories.
fn prune(source: &Source, dir: &Path) {
    let Source::Real(p) = source else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        let is_dir = path.is_dir();
        let drop = match p {
            Program::Sqlite => name.ends_with(".c") || is_dir,
            Program::Zlib => is_dir,
            Program::Lua => false,
        };
        if drop {
            let _ = if is_dir {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
        }
    }
}

/// Keep the newest other build of the same (source, target, compiler) next
/// to `keep`; delete the older ones.
fn forget_older(builds: &Path, stem: &str, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(builds) else {
        return;
    };
    let mut others: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != keep)
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix(stem))
                .and_then(|r| r.strip_prefix('-'))
                .is_some_and(|k| k.len() == 16 && k.bytes().all(|b| b.is_ascii_hexdigit()))
        })
        .map(|p| {
            let t = std::fs::metadata(p.join("stamp.json"))
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (t, p)
        })
        .collect();
    others.sort();
    others.pop();
    for (_, p) in others {
        let _ = std::fs::remove_dir_all(p);
    }
}

/// How a step's output is checked.
#[derive(Clone, Debug)]
pub enum Check {
    /// stdout and the exit status equal the reference build's.
    SameAsReference,
    /// Exit 0 and stdout contains this.
    Contains(&'static str),
    /// stdout equals this file (and the reference build's).
    EqualsFile(PathBuf),
}

/// One process of a workload's repetition.
#[derive(Clone, Debug)]
pub struct Step {
    pub label: String,
    pub binary: PathBuf,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub check: Check,
    /// Write stdout here (the next step reads it).
    pub save_stdout: Option<PathBuf>,
    /// Anything on stderr is a failure.
    pub quiet_stderr: bool,
}

/// The steps of one repetition of `w` on a build in `dir`; `scratch` is the
/// build's own scratch directory, `zlib_inputs` the round trips' inputs.
#[allow(clippy::too_many_arguments)]
pub fn steps(
    w: &Workload,
    target: Target,
    quick: bool,
    layout: usize,
    dir: &Path,
    scratch: &Path,
    zlib_inputs: &[PathBuf],
) -> Vec<Step> {
    // Layout n > 0 of a build is its binaries linked with n units of padding.
    let step = |label: &str, binary: &str, args: Vec<String>, cwd: &Path, check: Check| Step {
        label: label.to_string(),
        binary: match layout {
            0 => dir.join(binary),
            n => dir.join(format!("{binary}-{n}")),
        },
        args,
        cwd: cwd.to_path_buf(),
        check,
        save_stdout: None,
        quiet_stderr: false,
    };
    match &w.kind {
        Kind::Plain => vec![step(&w.name, "prog", vec![], scratch, Check::SameAsReference)],
        Kind::LuaScript(script) => vec![step(
            &format!("lua {}", script.file_name().unwrap_or_default().to_string_lossy()),
            "lua",
            vec![script.display().to_string()],
            scratch,
            Check::SameAsReference,
        )],
        Kind::LuaTestes => {
            let mut args = vec!["-e_port=true".to_string()];
            if quick || target.emulator().is_some() {
                args.push("-e_soft=true".to_string());
            }
            args.push("all.lua".to_string());
            vec![step(
                &format!("lua {}", args.join(" ")),
                "lua",
                args,
                &dir.join("testes"),
                Check::Contains("final OK"),
            )]
        }
        Kind::Sqlite(script) => {
            let mut s = step(
                "sqlite3 sqlite-workload.sql",
                "sqlite3",
                vec![
                    "-batch".into(),
                    ":memory:".into(),
                    format!(".read {}", script.display()),
                ],
                scratch,
                Check::SameAsReference,
            );
            s.quiet_stderr = true;
            vec![s]
        }
        Kind::ZlibRoundTrips => {
            let mut v = Vec::new();
            for input in zlib_inputs {
                let name = input.file_name().unwrap_or_default().to_string_lossy().to_string();
                for level in ["-6", "-9"] {
                    let gz = scratch.join(format!("{name}{level}.gz"));
                    let mut c = step(
                        &format!("minigzip -c {level} {name}"),
                        "minigzip",
                        vec!["-c".into(), level.into(), input.display().to_string()],
                        scratch,
                        Check::SameAsReference,
                    );
                    c.save_stdout = Some(gz.clone());
                    v.push(c);
                    v.push(step(
                        &format!("minigzip -d -c {name}{level}.gz"),
                        "minigzip",
                        vec!["-d".into(), "-c".into(), gz.display().to_string()],
                        scratch,
                        Check::EqualsFile(input.clone()),
                    ));
                }
            }
            v
        }
    }
}

/// What one repetition of a workload on one build gave.
#[derive(Clone, Debug, Default)]
pub struct Rep {
    pub cpu: f64,
    pub wall: f64,
    /// Per step: its label and a hash of its exit status and stdout
    /// (`None`: not compared with the reference's).
    pub outputs: Vec<(String, Option<String>)>,
    /// Per step: its exit status and stdout (for the account of a mismatch).
    pub stdouts: Vec<Vec<u8>>,
    /// The first failed check (crash, timeout, missing `final OK`, ...).
    pub failure: Option<String>,
}

/// The last lines of a failed run's output, each cut to 160 characters.
fn tail(stdout: &[u8], stderr: &[u8]) -> String {
    let out = String::from_utf8_lossy(stdout);
    let err = String::from_utf8_lossy(stderr);
    let lines: Vec<String> = out
        .lines()
        .chain(err.lines())
        .filter(|l| !l.trim().is_empty())
        .rev()
        .take(2)
        .map(|l| l.chars().take(160).collect())
        .collect();
    lines.into_iter().rev().collect::<Vec<_>>().join(" | ")
}

impl Bench {
    /// Run the steps of one repetition, in order, stopping at the first failure.
    pub fn run_steps(&self, target: Target, steps: &[Step], timeout: Duration) -> Result<Rep> {
        let mut rep = Rep::default();
        let mut setup = self.setup.clone();
        // run_contained scales the limit by 10 under QEMU; `timeout` already
        // comes from runs under the same emulator.
        setup.run_timeout = if target.emulator().is_some() && timeout < self.run_timeout {
            (timeout / 10).max(Duration::from_secs(1))
        } else {
            timeout
        };
        for s in steps {
            let run = realprogs::run_contained(&setup, target, &s.binary, &s.args, &s.cwd, &s.label)?;
            rep.cpu += run.cpu.as_secs_f64();
            rep.wall += run.wall.as_secs_f64();
            // Lua's test suite prints timings: only its `final OK` is checked.
            let compared = !matches!(s.check, Check::Contains(_));
            let mut hashed = format!("{}\n", run.termination.describe()).into_bytes();
            hashed.extend_from_slice(&run.stdout);
            rep.outputs
                .push((s.label.clone(), compared.then(|| content_hash(&hashed))));
            rep.stdouts.push(hashed);
            let problem = match &s.check {
                Check::Contains(what) => (!run.exited_ok() || !String::from_utf8_lossy(&run.stdout).contains(what))
                    .then(|| format!("no `{what}`")),
                Check::EqualsFile(f) => (run.exited_ok() && std::fs::read(f).ok().as_deref() != Some(&run.stdout[..]))
                    .then(|| format!("output differs from {}", f.display())),
                Check::SameAsReference => None,
            };
            let problem = problem
                .or_else(|| (!run.exited_ok()).then(String::new))
                .or_else(|| (s.quiet_stderr && !run.stderr.is_empty()).then(|| "output on stderr".to_string()));
            if let Some(p) = problem {
                let mut why = format!("{}: {}", s.label, run.termination.describe());
                if !p.is_empty() {
                    why.push_str(&format!(", {p}"));
                }
                why.push_str(&format!(" ({})", tail(&run.stdout, &run.stderr)));
                rep.failure = Some(why);
                break;
            }
            if let Some(path) = &s.save_stdout {
                std::fs::write(path, &run.stdout)?;
            }
        }
        Ok(rep)
    }
}

/// The results of one workload on one build, over the repetitions.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    pub cpu: Vec<f64>,
    pub wall: Vec<f64>,
    /// The code layout of each entry of `cpu`.
    pub layouts: Vec<usize>,
    /// CPU time over gcc -O0's in the same repetition.
    pub ratios: Vec<f64>,
    pub failure: Option<String>,
    pub mismatch: Option<String>,
    pub build_error: Option<String>,
    /// Steps whose output was compared with the reference's.
    pub compared: usize,
}

impl Cell {
    fn usable(&self) -> bool {
        self.failure.is_none() && self.mismatch.is_none() && self.build_error.is_none()
    }
}

/// Median of a non-empty list.
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let n = s.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// Geometric mean of a non-empty list of positive numbers.
pub fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

/// The results for one target.
#[derive(Clone, Debug)]
pub struct TargetResults {
    pub target: Target,
    pub builds: Vec<Compiler>,
    pub workloads: Vec<String>,
    /// `cells[workload][build]`.
    pub cells: Vec<Vec<Cell>>,
    /// Per source: its name and per build its frames (`None`: build failed).
    pub frames: Vec<(String, Vec<Option<Frames>>)>,
    pub reps: usize,
    /// Code layouts ([`layout_step`]).
    pub layouts: usize,
}

/// Options of one run of the benchmark.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub builds: Vec<Compiler>,
    pub reps: usize,
    pub long_reps: usize,
    pub quick: bool,
}

impl Bench {
    /// Build every source and run every workload on `target`.
    pub fn run_target(&mut self, plan: &Plan, target: Target, opts: &RunOptions) -> Result<TargetResults> {
        let builds = &opts.builds;
        anyhow::ensure!(
            builds.first() == Some(&Compiler::Gcc(0)),
            "gcc -O0 must be the first build"
        );
        // Build everything first (sequentially: builds use every core).
        let mut built: Vec<Vec<Built>> = Vec::new();
        for s in &plan.sources {
            let mut row = Vec::new();
            for &c in builds {
                let b = self.build(s, target, c)?;
                if b.cached {
                    log(&format!("{} for {target} with {}: cached", s.name(), label(c)));
                }
                row.push(b);
            }
            built.push(row);
        }
        let frames = plan
            .sources
            .iter()
            .zip(&built)
            .map(|(s, row)| {
                let reference = row.first().filter(|b| b.ok());
                (
                    s.name(),
                    row.iter().map(|b| b.ok().then(|| b.frames(reference))).collect(),
                )
            })
            .collect();

        // Inputs and per-build scratch directories.
        let tdir = self.scratch.join(target.name());
        std::fs::create_dir_all(&tdir)?;
        let mut zlib_inputs = Vec::new();
        if let Some(i) = plan
            .sources
            .iter()
            .position(|s| matches!(s, Source::Real(Program::Zlib)))
        {
            let b = &built[i][0];
            if b.ok() {
                let rb = realprogs::Build {
                    program: Program::Zlib,
                    target,
                    compiler: Compiler::Gcc(0),
                    dir: b.dir.clone(),
                    error: None,
                    commands: vec![],
                    notes: vec![],
                    time: Duration::ZERO,
                };
                // "hello world" is too short to time: the text and binary inputs.
                zlib_inputs = realprogs::zlib_inputs(&tdir.join("zlib-inputs"), &rb)?
                    .into_iter()
                    .skip(1)
                    .collect();
            }
        }

        let mut cells: Vec<Vec<Cell>> = plan
            .workloads
            .iter()
            .map(|w| {
                builds
                    .iter()
                    .enumerate()
                    .map(|(bi, _)| Cell {
                        build_error: built[w.source][bi].error.clone(),
                        ..Cell::default()
                    })
                    .collect()
            })
            .collect();
        let mut reference: Vec<Option<Rep>> = vec![None; plan.workloads.len()];
        let mut reference_time: Vec<Option<f64>> = vec![None; plan.workloads.len()];
        let n = builds.len();
        for rep in 0..opts.reps {
            for (wi, w) in plan.workloads.iter().enumerate() {
                if w.long && rep >= opts.long_reps {
                    continue;
                }
                let mut gcc_cpu = None;
                let mut this_rep: Vec<Option<f64>> = vec![None; n];
                for k in 0..n {
                    let bi = (k + rep) % n;
                    let b = &built[w.source][bi];
                    if !cells[wi][bi].usable() || (bi != 0 && cells[wi][0].failure.is_some()) {
                        continue;
                    }
                    if !b.ok() {
                        continue;
                    }
                    let bdir = tdir.join(format!("{}-{}", w.name, builds[bi].name()));
                    std::fs::create_dir_all(&bdir)?;
                    let layout = rep % self.layouts.max(1);
                    let st = steps(w, target, opts.quick, layout, &b.dir, &bdir, &zlib_inputs);
                    let timeout = match reference_time[wi] {
                        Some(t) if bi != 0 => Duration::from_secs_f64(60.0 * t + 10.0).min(self.run_timeout),
                        _ => self.run_timeout,
                    };
                    let r = self.run_steps(target, &st, timeout)?;
                    let cell = &mut cells[wi][bi];
                    let lbl = label(builds[bi]);
                    if let Some(f) = &r.failure {
                        log(&format!("[{}/{}] {} {lbl}: FAILED: {f}", rep + 1, opts.reps, w.name));
                        cell.failure = Some(f.clone());
                        continue;
                    }
                    if bi == 0 && reference[wi].is_none() {
                        reference[wi] = Some(r.clone());
                        reference_time[wi] = Some(r.wall);
                    }
                    if let Some(refs) = &reference[wi] {
                        cell.compared += r.outputs.iter().filter(|(_, h)| h.is_some()).count();
                        if let Some(k) =
                            (0..r.outputs.len()).find(|&k| refs.outputs.get(k).is_none_or(|o| *o != r.outputs[k]))
                        {
                            let m = self.mismatch(target, w, builds[bi], &r, refs, k)?;
                            log(&format!("[{}/{}] {} {lbl}: MISMATCH: {m}", rep + 1, opts.reps, w.name));
                            cell.mismatch = Some(m);
                            continue;
                        }
                    }
                    log(&format!(
                        "[{}/{}] {} {lbl}: {:.2} s cpu",
                        rep + 1,
                        opts.reps,
                        w.name,
                        r.cpu
                    ));
                    cell.cpu.push(r.cpu);
                    cell.layouts.push(layout);
                    cell.wall.push(r.wall);
                    this_rep[bi] = Some(r.cpu);
                    if bi == 0 {
                        gcc_cpu = Some(r.cpu);
                    }
                }
                if let Some(g) = gcc_cpu.filter(|g| *g > 0.0) {
                    for bi in 0..n {
                        if let Some(c) = this_rep[bi] {
                            cells[wi][bi].ratios.push(c / g);
                        }
                    }
                }
            }
        }
        Ok(TargetResults {
            target,
            builds: builds.clone(),
            workloads: plan.workloads.iter().map(|w| w.name.clone()).collect(),
            cells,
            frames,
            reps: opts.reps,
            layouts: self.layouts.max(1),
        })
    }
}

impl Bench {
    /// Account for a mismatch in step `k` of `r` against the reference's
    /// run: the first differing line of each, and both outputs saved under
    /// `<cache>/mismatches/`.
    fn mismatch(
        &self,
        target: Target,
        w: &Workload,
        build: Compiler,
        r: &Rep,
        reference: &Rep,
        k: usize,
    ) -> Result<String> {
        let empty = Vec::new();
        let got = &r.stdouts[k];
        let want = reference.stdouts.get(k).unwrap_or(&empty);
        let line = |b: &[u8], n: usize| -> String {
            String::from_utf8_lossy(b)
                .lines()
                .nth(n)
                .unwrap_or("(end of output)")
                .chars()
                .take(120)
                .collect()
        };
        let (gl, wl): (Vec<&[u8]>, Vec<&[u8]>) = (
            got.split(|&c| c == b'\n').collect(),
            want.split(|&c| c == b'\n').collect(),
        );
        let n = (0..gl.len().max(wl.len()))
            .find(|&i| gl.get(i) != wl.get(i))
            .unwrap_or(0);
        let dir = self.cache.join("mismatches");
        std::fs::create_dir_all(&dir)?;
        let stem = format!("{}-{}-{}-step{}", target, w.name, build.name(), k + 1);
        std::fs::write(dir.join(format!("{stem}.gcc-O0.out")), want)?;
        std::fs::write(dir.join(format!("{stem}.out")), got)?;
        Ok(format!(
            "{}: output differs from gcc -O0's at line {} (line 1 is the exit status): `{}` instead of `{}` (both in {}/{stem}.*)",
            r.outputs[k].0,
            n + 1,
            line(got, n),
            line(want, n),
            dir.display()
        ))
    }
}

impl TargetResults {
    /// Mismatches and failures (runs and builds), one line each.
    pub fn problems(&self) -> Vec<String> {
        let mut v = Vec::new();
        for (wi, w) in self.workloads.iter().enumerate() {
            for (bi, c) in self.cells[wi].iter().enumerate() {
                let who = format!("{} {w} {}", self.target, label(self.builds[bi]));
                if let Some(m) = &c.mismatch {
                    v.push(format!("MISMATCH {who}: {m}"));
                }
                if let Some(f) = &c.failure {
                    v.push(format!("FAIL {who}: {f}"));
                }
                if let Some(e) = &c.build_error {
                    // Once per source is enough, but per workload is clearer.
                    v.push(format!("BUILD FAILED {who}: {e}"));
                }
            }
        }
        v
    }

    pub fn mismatches(&self) -> usize {
        self.cells.iter().flatten().filter(|c| c.mismatch.is_some()).count()
    }

    pub fn compared(&self) -> usize {
        self.cells.iter().flatten().map(|c| c.compared).sum()
    }

    fn cell_text(&self, wi: usize, bi: usize) -> String {
        let c = &self.cells[wi][bi];
        if c.build_error.is_some() {
            return "build failed".into();
        }
        if c.mismatch.is_some() {
            return "**MISMATCH**".into();
        }
        if let Some(f) = &c.failure {
            let how = f.split(": ").nth(1).unwrap_or("failed");
            let how = how.split([',', '(']).next().unwrap_or(how).trim();
            return format!("FAIL ({how})");
        }
        if bi == 0 {
            if c.cpu.is_empty() {
                return "-".into();
            }
            return format!("{:.2} s", median(&c.cpu));
        }
        match self.ratio_of(wi, bi) {
            Some(r) => format!("{r:.2}×"),
            None => "-".into(),
        }
    }

    /// A build's CPU time on a workload as a multiple of gcc -O0's: the
    /// median of the per-repetition ratios with one layout; with several,
    /// the mean over the layouts both ran of each layout's median time,
    /// over gcc -O0's (see the module's doc).
    fn ratio_of(&self, wi: usize, bi: usize) -> Option<f64> {
        let c = &self.cells[wi][bi];
        if c.ratios.is_empty() {
            return None;
        }
        let g = &self.cells[wi][0];
        if self.layouts <= 1 || c.layouts.len() != c.cpu.len() || g.layouts.len() != g.cpu.len() {
            return Some(median(&c.ratios));
        }
        let at = |cell: &Cell, l: usize| -> Vec<f64> {
            cell.cpu
                .iter()
                .zip(&cell.layouts)
                .filter(|(_, &x)| x == l)
                .map(|(t, _)| *t)
                .collect()
        };
        let (mut num, mut den) = (0.0, 0.0);
        for l in 0..self.layouts {
            let (a, b) = (at(c, l), at(g, l));
            if !a.is_empty() && !b.is_empty() {
                num += median(&a);
                den += median(&b);
            }
        }
        (den > 0.0).then(|| num / den)
    }

    /// The CPU-time table (markdown).
    pub fn time_table(&self) -> String {
        let mut s = String::new();
        let head: Vec<String> = self
            .builds
            .iter()
            .enumerate()
            .map(|(i, b)| {
                if i == 0 {
                    format!("{} (CPU s)", label(*b))
                } else {
                    label(*b)
                }
            })
            .collect();
        let _ = writeln!(s, "| workload | {} |", head.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(head.len()));
        for (wi, w) in self.workloads.iter().enumerate() {
            let cells: Vec<String> = (0..self.builds.len()).map(|bi| self.cell_text(wi, bi)).collect();
            let _ = writeln!(s, "| {w} | {} |", cells.join(" | "));
        }
        // Geometric mean over the workloads every build ran.
        let all: Vec<usize> = (0..self.workloads.len())
            .filter(|&wi| {
                self.cells[wi]
                    .iter()
                    .skip(1)
                    .all(|c| c.usable() && !c.ratios.is_empty())
            })
            .collect();
        if self.workloads.len() > 1 && !all.is_empty() {
            let g: Vec<String> = (0..self.builds.len())
                .map(|bi| {
                    if bi == 0 {
                        "1".to_string()
                    } else {
                        let v: Vec<f64> = all.iter().filter_map(|&wi| self.ratio_of(wi, bi)).collect();
                        format!("{:.2}×", geomean(&v))
                    }
                })
                .collect();
            let _ = writeln!(
                s,
                "| geometric mean ({} of {} workloads) | {} |",
                all.len(),
                self.workloads.len(),
                g.join(" | ")
            );
        }
        s
    }

    /// The frame table (markdown): per program, each build's largest frame
    /// and its ratio to gcc -O0's largest.
    pub fn frame_table(&self) -> String {
        let mut s = String::new();
        let head: Vec<String> = self.builds.iter().map(|b| label(*b)).collect();
        let _ = writeln!(s, "| program: largest frame (bytes) | {} |", head.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(head.len()));
        for (name, per_build) in &self.frames {
            let reference = per_build
                .first()
                .and_then(|f| f.as_ref())
                .and_then(|f| frames::top(f, None, 1).first().map(|t| t.1));
            let cells: Vec<String> = per_build
                .iter()
                .enumerate()
                .map(
                    |(bi, f)| match f.as_ref().and_then(|f| frames::top(f, None, 1).first().cloned()) {
                        None => "-".to_string(),
                        Some((func, bytes)) => match reference {
                            Some(r) if bi > 0 && r > 0 => {
                                format!("{bytes} `{func}` ({:.1}×)", bytes as f64 / r as f64)
                            }
                            _ => format!("{bytes} `{func}`"),
                        },
                    },
                )
                .collect();
            let _ = writeln!(s, "| {name} | {} |", cells.join(" | "));
        }
        s
    }

    /// The three largest frames of every program and build.
    pub fn frame_details(&self) -> String {
        let mut s = String::new();
        for (name, per_build) in &self.frames {
            let _ = writeln!(s, "- {name}:");
            for (bi, f) in per_build.iter().enumerate() {
                let list = match f {
                    None => "build failed".to_string(),
                    Some(f) => frames::top(f, None, 3)
                        .iter()
                        .map(|(n, b)| format!("`{n}` {b}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                let _ = writeln!(s, "  - {}: {list}", label(self.builds[bi]));
            }
        }
        s
    }

    /// Per cell: every repetition's CPU time and ratio.
    pub fn time_details(&self) -> String {
        let mut s = String::new();
        for (wi, w) in self.workloads.iter().enumerate() {
            let parts: Vec<String> = self.cells[wi]
                .iter()
                .enumerate()
                .map(|(bi, c)| {
                    let cpu: Vec<String> = c.cpu.iter().map(|x| format!("{x:.2}")).collect();
                    format!("{} [{}]", label(self.builds[bi]), cpu.join(" "))
                })
                .collect();
            let _ = writeln!(s, "- {w}: CPU s per repetition: {}", parts.join("; "));
        }
        s
    }

    /// The ratio of a build (by index) on a workload ([`Self::ratio_of`]),
    /// if it ran.
    fn ratio(&self, wi: usize, bi: usize) -> Option<f64> {
        if !self.cells[wi][bi].usable() {
            return None;
        }
        self.ratio_of(wi, bi)
    }

    /// How the builds compare with the goals of issues 14 and 15, over the
    /// workloads: `a` against `b` with `limit` as the largest
    /// ratio a/b that meets the goal; workloads where either did not run
    /// count as missed.
    pub fn goals(&self) -> Vec<String> {
        let find = |c: Compiler| self.builds.iter().position(|b| *b == c);
        let Some(mem) = find(Compiler::Phicc(Config::Mem2reg)) else {
            return Vec::new();
        };
        let gcc0 = 0;
        let check = |what: &str, a: usize, b: usize, limit: f64, strict: bool| -> String {
            let mut met = Vec::new();
            let mut missed = Vec::new();
            for w in 0..self.workloads.len() {
                let ra = self.ratio(w, a);
                let rb = if b == 0 {
                    self.cells[w][0].usable().then_some(1.0)
                } else {
                    self.ratio(w, b)
                };
                let ok = match (ra, rb) {
                    (Some(x), Some(y)) if strict => x / y < limit,
                    (Some(x), Some(y)) => x / y <= limit,
                    _ => false,
                };
                if ok {
                    met.push(self.workloads[w].as_str());
                } else {
                    missed.push(self.workloads[w].as_str());
                }
            }
            format!(
                "{what}: {} of {}{}",
                met.len(),
                self.workloads.len(),
                if missed.is_empty() {
                    String::new()
                } else {
                    format!(" (not: {})", missed.join(", "))
                }
            )
        };
        let mut v = vec![check("phicc faster than gcc -O0", mem, gcc0, 1.0, true)];
        if let Some(nom) = find(Compiler::Phicc(Config::Nomem2reg)) {
            v.push(check("phicc not slower than phicc -fno-mem2reg", mem, nom, 1.0, false));
        }
        if let Some(g1) = find(Compiler::Gcc(1)) {
            v.push(check("phicc within 1.5× of gcc -O1", mem, g1, 1.5, false));
            if let Some(opt) = find(Compiler::Phicc(Config::Opt)) {
                v.push(check("phicc -O1 within 1.2× of gcc -O1", opt, g1, 1.2, false));
            }
        }
        if let Some(opt) = find(Compiler::Phicc(Config::Opt)) {
            v.push(check("phicc -O1 faster than phicc", opt, mem, 1.0, true));
        }
        v
    }

    /// The whole report for this target (markdown).
    pub fn report(&self, long_reps: usize) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "### {}: CPU time as a multiple of gcc -O0's ({} of {} round-robin repetitions{}{})\n",
            self.target.describe_short(),
            if self.layouts > 1 {
                "mean over the layouts of each layout's median"
            } else {
                "median"
            },
            self.reps,
            if long_reps < self.reps {
                format!(", {long_reps} for lua-testes")
            } else {
                String::new()
            },
            if self.layouts > 1 {
                format!(
                    "; {} code layouts, {} bytes apart, one per repetition (zlib, Lua, SQLite: relinked)",
                    self.layouts,
                    layout_step(self.layouts)
                )
            } else {
                String::new()
            }
        );
        s.push_str(&self.time_table());
        let goals = self.goals();
        if !goals.is_empty() {
            let _ = writeln!(s, "\nIssue 14 and 15 goals (the ratios above):\n");
            for g in goals {
                let _ = writeln!(s, "- {g}");
            }
        }
        let _ = writeln!(s, "\n### {}: largest stack frame\n", self.target.describe_short());
        s.push_str(&self.frame_table());
        let _ = writeln!(s, "\nThree largest frames per build:\n");
        s.push_str(&self.frame_details());
        let _ = writeln!(s, "\nCPU times:\n");
        s.push_str(&self.time_details());
        let problems = self.problems();
        let _ = writeln!(
            s,
            "\nOutputs: {} runs compared with gcc -O0's, {} mismatches; {} failures.",
            self.compared(),
            self.mismatches(),
            problems.len() - self.mismatches()
        );
        for p in problems {
            let _ = writeln!(s, "- {p}");
        }
        s
    }
}

/// A short name of the target for headings: `x86_64 (native)`, `aarch64 (QEMU)`.
trait DescribeShort {
    fn describe_short(self) -> String;
}

impl DescribeShort for Target {
    fn describe_short(self) -> String {
        match crate::runner::emulator(self) {
            None => format!("{} (native)", self.name()),
            Some(q) => format!("{} ({q})", self.name()),
        }
    }
}

/// `$XDG_CACHE_HOME/phicc-bench`, else `~/.cache/phicc-bench`.
pub fn default_cache() -> Result<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Ok(PathBuf::from(x).join("phicc-bench"));
    }
    match std::env::var_os("HOME") {
        Some(h) => Ok(PathBuf::from(h).join(".cache/phicc-bench")),
        None => bail!("neither XDG_CACHE_HOME nor HOME is set: pass --cache"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The address of `main` in an ELF binary (`nm`).
    fn main_address(binary: &Path) -> u64 {
        let out = std::process::Command::new("nm").arg(binary).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let line = text.lines().find(|l| l.ends_with(" T main")).expect("main");
        u64::from_str_radix(line.split(' ').next().unwrap(), 16).unwrap()
    }

    #[test]
    fn a_recorded_link_is_redone_with_padding_first() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let src = dir.join("src");
        std::fs::create_dir(&src).unwrap();
        std::fs::write(src.join("a.c"), "int main(void) { return 7; }\n").unwrap();
        let launcher = write_link_recorder(dir).unwrap();
        // A compile (not recorded), a link of another binary, the link.
        for args in [
            &["-c", "-o", "a.o", "a.c"][..],
            &["-o", "other", "a.o"],
            &["-o", "prog", "a.o"],
        ] {
            let st = std::process::Command::new(&launcher)
                .arg("gcc")
                .args(args)
                .current_dir(&src)
                .status()
                .unwrap();
            assert!(st.success());
        }
        assert_eq!(std::fs::read_dir(dir.join("links")).unwrap().count(), 2);
        relink(dir, &src, "prog", 2, 4, Duration::from_secs(60)).unwrap();
        let base = main_address(&src.join("prog"));
        let moved = main_address(&src.join("prog-2"));
        assert!(moved >= base + 2048, "main at {base:#x} and {moved:#x}");
        let st = std::process::Command::new(src.join("prog-2")).status().unwrap();
        assert_eq!(st.code(), Some(7));
        assert!(!src.join("other-2").exists());
        let err = relink(dir, &src, "missing", 1, 4, Duration::from_secs(60)).unwrap_err();
        assert!(format!("{err:#}").contains("no recorded link makes missing"), "{err:#}");
    }

    #[test]
    fn selection_by_name_and_prefix() {
        let sel = vec!["lua".to_string(), "csmith-7".to_string()];
        assert!(selected("lua-fib", &sel));
        assert!(selected("lua-testes", &sel));
        assert!(selected("csmith-7", &sel));
        assert!(!selected("csmith-70", &sel));
        assert!(!selected("luax", &sel));
        assert!(!selected("zlib", &sel));
        assert!(selected("zlib", &[]));
    }

    #[test]
    fn builds_parse_and_label() {
        let b: Vec<Compiler> = ["gcc-O0", "gcc-O1", "phicc-nomem2reg", "phicc-mem2reg", "phicc-opt"]
            .iter()
            .map(|s| parse_build(s).unwrap())
            .collect();
        assert_eq!(b, DEFAULT_BUILDS.to_vec());
        let labels: Vec<String> = b.iter().map(|c| label(*c)).collect();
        assert_eq!(
            labels,
            ["gcc -O0", "gcc -O1", "phicc -fno-mem2reg", "phicc", "phicc -O1"]
        );
        assert!(parse_build("clang-O2").is_err());
        for c in DEFAULT_BUILDS {
            assert_eq!(parse_build(&c.name()).unwrap(), c);
        }
    }

    #[test]
    fn goals_count_the_timed_workloads_that_meet_them() {
        let cell = |ratios: &[f64]| Cell {
            ratios: ratios.to_vec(),
            cpu: ratios.to_vec(),
            ..Cell::default()
        };
        let failed = Cell {
            failure: Some("lua: signal 11".into()),
            ..Cell::default()
        };
        // Builds: gcc -O0, gcc -O1, nomem2reg, mem2reg, opt.
        let r = TargetResults {
            target: Target::X86_64,
            builds: DEFAULT_BUILDS.to_vec(),
            workloads: vec!["fast".into(), "slow".into(), "crash".into()],
            cells: vec![
                vec![
                    cell(&[1.0]),
                    cell(&[0.5]),
                    cell(&[0.9]),
                    cell(&[0.7, 0.6, 0.8]),
                    cell(&[0.65]),
                ],
                vec![cell(&[1.0]), cell(&[0.5]), cell(&[2.0]), cell(&[3.0]), cell(&[3.0])],
                vec![cell(&[1.0]), cell(&[0.5]), failed.clone(), failed.clone(), failed],
            ],
            frames: vec![],
            reps: 3,
            layouts: 1,
        };
        assert_eq!(
            r.goals(),
            vec![
                "phicc faster than gcc -O0: 1 of 3 (not: slow, crash)",
                "phicc not slower than phicc -fno-mem2reg: 1 of 3 (not: slow, crash)",
                "phicc within 1.5× of gcc -O1: 1 of 3 (not: slow, crash)",
                "phicc -O1 within 1.2× of gcc -O1: 0 of 3 (not: fast, slow, crash)",
                "phicc -O1 faster than phicc: 1 of 3 (not: slow, crash)",
            ]
        );
    }

    #[test]
    fn with_layouts_a_ratio_compares_expected_times_not_paired_runs() {
        // gcc -O0 is slow at layout 1, phicc at layout 0: paired by
        // repetition the ratios are 2, 1/4, 4 and 1/3 (median 7/6); over
        // the layouts both take 5 s on average.
        let cell = |cpu: &[f64], ratios: &[f64]| Cell {
            cpu: cpu.to_vec(),
            layouts: vec![0, 1, 0, 1],
            ratios: ratios.to_vec(),
            ..Cell::default()
        };
        let mut r = TargetResults {
            target: Target::X86_64,
            builds: vec![Compiler::Gcc(0), Compiler::Phicc(Config::Mem2reg)],
            workloads: vec!["zlib".into()],
            cells: vec![vec![
                cell(&[4.0, 8.0, 2.0, 6.0], &[1.0; 4]),
                cell(&[8.0, 2.0, 8.0, 2.0], &[2.0, 0.25, 4.0, 1.0 / 3.0]),
            ]],
            frames: vec![],
            reps: 4,
            layouts: 2,
        };
        // Layout medians: gcc 3 and 7, phicc 8 and 2: 10 / 10.
        assert_eq!(r.ratio(0, 1), Some(1.0));
        r.layouts = 1;
        assert_eq!(r.ratio(0, 1), Some((1.0 / 3.0 + 2.0) / 2.0));
    }

    #[test]
    fn medians_and_means() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!((geomean(&[1.0, 4.0]) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn zlib_round_trips_check_every_decompression_against_its_input() {
        let w = Workload {
            name: "zlib".into(),
            source: 0,
            kind: Kind::ZlibRoundTrips,
            long: false,
        };
        let inputs = vec![PathBuf::from("/in/a.txt"), PathBuf::from("/in/b.bin")];
        let s = steps(&w, Target::X86_64, false, 0, Path::new("/b"), Path::new("/s"), &inputs);
        assert_eq!(s.len(), 8);
        for pair in s.chunks(2) {
            let gz = pair[0].save_stdout.clone().unwrap();
            assert_eq!(pair[1].args.last().unwrap(), &gz.display().to_string());
            assert!(matches!(&pair[1].check, Check::EqualsFile(f) if f.starts_with("/in")));
        }
    }
}
