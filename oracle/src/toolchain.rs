//! The tools a differential run invokes, each through the runner with limits:
//! the compiler under test (phicc, or any command that accepts phicc's
//! driver flags), the target's gcc driver that assembles and links its
//! assembly, and the reference compiler (the target's `gcc -O0`).
//!
//! phicc's driver contract (exit 0 success; 1 ill-formed program or rejected
//! assembly; 70 internal compiler error; a signal is a crash) decides how a
//! compiler step ended, see [`StepOutcome`].

use crate::runner::{self, Job, Limits, RunResult, Termination};
use crate::target::{Config, Target};
use crate::util::{command_line, content_hash};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The tools and their limits.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// The compiler under test.
    pub phicc: PathBuf,
    /// Extra environment for the compiler under test (e.g. `PHICC_INJECT_BUG`).
    pub env: Vec<(String, String)>,
    /// `-I` directories for the program (Csmith's headers).
    pub include_dirs: Vec<PathBuf>,
    /// Pass `--verify-each` to phicc (the default; see [`Toolchain::phicc_args`]).
    pub verify_each: bool,
    pub compile_limits: Limits,
    /// Limits of a binary built by phicc; its timeout is raised for slow
    /// programs, see [`Toolchain::run_timeout_after`].
    pub run_limits: Limits,
    /// Limits of a reference binary's run, natively (scaled by
    /// [`EMULATION_SLOWDOWN`] under QEMU). A program the reference cannot
    /// finish within them is discarded, so they are kept short: a Csmith
    /// program either ends within a few hundred milliseconds or (about one in
    /// six) loops for far longer than any campaign can wait.
    pub reference_limits: Limits,
    /// Compile with the phicc library in a worker process
    /// ([`crate::compile_worker`]), this executable running `EXE
    /// compile-worker` (an `oracle`), instead of spawning `phicc` per
    /// configuration; `phicc` is then only named in the recorded commands.
    pub compile_worker: Option<PathBuf>,
    /// What links phicc's output into a static binary.
    pub linker: Linker,
    /// Where reference outcomes are kept between runs
    /// ([`Toolchain::cached_reference`]); `None`: always build and run.
    pub reference_cache: Option<PathBuf>,
    /// The prelinked start files of [`Linker::Fast`], shared by the clones.
    pub prelinks: std::sync::Arc<crate::link::PrelinkCache>,
}

/// What links a compiled program into a static binary (`--linker`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Linker {
    /// The target's gcc driver (`gcc -static x.s -lm`): assembles and links.
    Gcc,
    /// The target's BFD `ld`, called directly with the start files, library
    /// directories and libraries the gcc driver passes (read once per target
    /// from `gcc -static -###`).
    Ld,
    /// gold where the target's binutils have it (x86-64, AArch64), the BFD
    /// `ld` elsewhere (RISC-V, with `--no-relax`), called directly like `ld`.
    Gold,
    /// BFD `ld` on start files and C library members prelinked once per set
    /// of undefined symbols ([`crate::link`]); the full link (as `gold`) for a
    /// program that defines a symbol the C library defines.
    #[default]
    Fast,
}

/// One compiled configuration: the step, its assembly, and its object when
/// the compiler assembled it itself.
#[derive(Clone, Debug)]
pub struct CompiledConfig {
    pub step: Step,
    pub assembly: PathBuf,
    pub object: Option<PathBuf>,
    /// Allocas mem2reg's phi copy-cost limit kept in memory, when the
    /// compile worker built it and mem2reg ran (a spawned phicc does not say).
    pub kept_by_cost_limit: Option<usize>,
}

/// How much slower than a reference run a binary may be before it counts as
/// timing out: QEMU user-mode costs up to ~10x, phicc's `nomem2reg` code up
/// to ~3x over `gcc -O0`.
pub const EMULATION_SLOWDOWN: u32 = 30;

impl Toolchain {
    /// The compiler under test at `phicc`, with default limits (compile 60 s,
    /// run 10 s, reference run 1 s).
    pub fn new(phicc: PathBuf) -> Toolchain {
        Toolchain {
            phicc,
            env: Vec::new(),
            include_dirs: Vec::new(),
            verify_each: true,
            compile_limits: Limits {
                address_space: Some(4 << 30),
                ..Limits::with_timeout(Duration::from_secs(60))
            },
            run_limits: Limits::with_timeout(Duration::from_secs(10)),
            reference_limits: Limits::with_timeout(Duration::from_secs(1)),
            compile_worker: None,
            linker: Linker::Gcc,
            reference_cache: None,
            prelinks: Default::default(),
        }
    }

    /// phicc's arguments for compiling `source` to assembly `out`.
    pub fn phicc_args(&self, target: Target, config: Config, mode: &str, source: &Path, out: &Path) -> Vec<String> {
        let mut args = vec![mode.to_string(), format!("--target={target}")];
        args.extend(config.flags().iter().map(|s| s.to_string()));
        // The verifier after lowering and after every pass: IR a pass breaks
        // is a compiler crash (exit 70) naming the pass, not code that may
        // happen to print the right checksum (about 5% of a compile).
        if self.verify_each {
            args.push("--verify-each".into());
        }
        args.push("-w".into());
        for dir in &self.include_dirs {
            args.push(format!("-I{}", dir.display()));
        }
        args.extend([
            "-o".to_string(),
            out.display().to_string(),
            source.display().to_string(),
        ]);
        args
    }

    /// Compile `source` with phicc to assembly at `out`.
    pub fn compile(&self, target: Target, config: Config, source: &Path, out: &Path) -> std::io::Result<Step> {
        let args = self.phicc_args(target, config, "-S", source, out);
        let phicc = self.phicc.display().to_string();
        let mut job = Job::new(&phicc).args(&args);
        for (k, v) in &self.env {
            job = job.env(k, v);
        }
        let result = runner::run(&job, &self.compile_limits)?;
        let mut outcome = StepOutcome::of(&result, phicc::exit::ICE);
        if outcome == StepOutcome::Ok && !out.exists() {
            outcome = StepOutcome::Rejected { status: 0 };
        }
        Ok(Step::new(command_line(&self.env, &phicc, &args), outcome, &result))
    }

    /// Compile `source` for `target` in each of `configs`, the assembly of
    /// configuration `c` going to `work/{target}-{c}.s`: in the compile worker
    /// (one frontend run for all of them) with [`Toolchain::compile_worker`],
    /// else one `phicc -S` each.
    pub fn compile_configs(
        &self,
        target: Target,
        configs: &[Config],
        source: &Path,
        work: &Path,
    ) -> std::io::Result<Vec<CompiledConfig>> {
        let outputs: Vec<PathBuf> = configs.iter().map(|c| work.join(format!("{target}-{c}.s"))).collect();
        for o in &outputs {
            // A stale object from an earlier run in the same directory must not be linked.
            let _ = std::fs::remove_file(crate::compile_worker::object_path(o));
        }
        let steps = if let Some(exe) = &self.compile_worker {
            let req = crate::compile_worker::Request {
                source: source.to_path_buf(),
                target,
                configs: configs.to_vec(),
                include_dirs: self.include_dirs.clone(),
                verify_each: self.verify_each,
                outputs: outputs.clone(),
            };
            let phicc = self.phicc.display().to_string();
            let command = |i: usize| {
                command_line(
                    &self.env,
                    &phicc,
                    &self.phicc_args(target, configs[i], "-S", source, &outputs[i]),
                )
            };
            crate::compile_worker::compile(exe, &req, &self.env, &self.compile_limits, &command)?
        } else {
            let mut v = Vec::new();
            for (i, &c) in configs.iter().enumerate() {
                v.push((self.compile(target, c, source, &outputs[i])?, None));
            }
            v
        };
        Ok(steps
            .into_iter()
            .zip(outputs)
            .map(|((step, kept_by_cost_limit), assembly)| {
                let obj = crate::compile_worker::object_path(&assembly);
                let object = (step.ok() && obj.exists()).then_some(obj);
                CompiledConfig {
                    step,
                    assembly,
                    object,
                    kept_by_cost_limit,
                }
            })
            .collect())
    }

    /// Link a compiled configuration into the static binary `out` with
    /// [`Toolchain::linker`]: its object if the compiler made one, else its
    /// assembly (assembled first by the target's gcc for a direct link).
    pub fn link_compiled(&self, target: Target, c: &CompiledConfig, out: &Path) -> std::io::Result<Step> {
        if self.linker == Linker::Gcc {
            return self.link(target, c.object.as_ref().unwrap_or(&c.assembly), out);
        }
        let mut seconds = 0.0;
        let object = match &c.object {
            Some(o) => o.clone(),
            None => {
                let o = out.with_extension("o");
                let step = self.gcc(
                    target,
                    vec![
                        "-c".into(),
                        "-o".into(),
                        o.display().to_string(),
                        c.assembly.display().to_string(),
                    ],
                )?;
                if !step.ok() {
                    return Ok(step);
                }
                seconds = step.seconds;
                o
            }
        };
        let prelinked = match self.linker {
            Linker::Fast => self.prelinks.command(target, &object, out),
            _ => None,
        };
        let (program, args) = match prelinked {
            Some(x) => x,
            None => crate::link::full_command(target, self.linker != Linker::Ld, &object, out)
                .map_err(std::io::Error::other)?,
        };
        let result = runner::run(&Job::new(&program).args(&args), &self.compile_limits)?;
        let mut step = Step::new(
            command_line(&[], &program, &args),
            StepOutcome::of(&result, i32::MIN),
            &result,
        );
        step.seconds += seconds;
        Ok(step)
    }

    /// The target gcc's arguments that assemble and link `asm` into a static
    /// binary `out`. `-lm` comes last: phicc calls libm for what gcc expands
    /// inline (`fabs`, `sqrt`, `fmod`).
    pub fn link_args(asm: &Path, out: &Path) -> Vec<String> {
        vec![
            "-static".to_string(),
            "-o".to_string(),
            out.display().to_string(),
            asm.display().to_string(),
            "-lm".to_string(),
        ]
    }

    /// Assemble and link phicc's assembly `asm` into a static binary `out`.
    pub fn link(&self, target: Target, asm: &Path, out: &Path) -> std::io::Result<Step> {
        self.gcc(target, Self::link_args(asm, out))
    }

    /// The cache key of `source`'s reference on `target`: the program's
    /// bytes, the target, the reference compiler's version, its arguments
    /// (include directories included) and the reference run's limits.
    fn reference_key(&self, target: Target, source: &Path) -> Option<String> {
        let bytes = std::fs::read(source).ok()?;
        let mut key = Vec::new();
        key.extend_from_slice(&bytes);
        let args = self.reference_args(target, Path::new("SOURCE"), Path::new("OUT"));
        let limits = &self.reference_limits;
        let meta = format!(
            "\0{target}\0{}\0{args:?}\0{:?}\0{:?}\0{:?}\0{EMULATION_SLOWDOWN}",
            gcc_version(target)?,
            limits.timeout,
            limits.cpu_seconds,
            limits.output_cap
        );
        key.extend_from_slice(meta.as_bytes());
        // Two independent 64-bit hashes: a collision would silently give a
        // program another program's expected output.
        let mut salted = b"phicc-oracle reference".to_vec();
        salted.extend_from_slice(&key);
        Some(format!("{}{}", content_hash(&key), content_hash(&salted)))
    }

    /// The reference build and run of `source` on `target` from an earlier
    /// run with the same key ([`Toolchain::reference_cache`]), if any. A
    /// cached reference failure (including a timeout under the reference
    /// limit) is reused like any other outcome; delete the cache directory
    /// (or pass `--no-reference-cache`) to rebuild.
    pub fn cached_reference(
        &self,
        target: Target,
        source: &Path,
    ) -> Option<(Step, Option<crate::differential::Execution>)> {
        let dir = self.reference_cache.as_ref()?;
        let key = self.reference_key(target, source)?;
        let text = std::fs::read(dir.join(format!("{key}.json"))).ok()?;
        serde_json::from_slice(&text).ok()
    }

    /// Keep a reference outcome for [`Toolchain::cached_reference`]; a
    /// cache that cannot be written is skipped (the run goes on).
    pub fn store_reference(
        &self,
        target: Target,
        source: &Path,
        step: &Step,
        execution: &Option<crate::differential::Execution>,
    ) {
        let (Some(dir), Some(key)) = (&self.reference_cache, self.reference_key(target, source)) else {
            return;
        };
        if let Ok(json) = serde_json::to_vec(&(step, execution)) {
            let _ = std::fs::create_dir_all(dir);
            let _ = crate::util::write_atomic(&dir.join(format!("{key}.json")), &json);
        }
    }

    /// Build the reference binary: the target's `gcc -O0`, static. With
    /// [`Linker::Fast`], gcc compiles to an object that is linked like
    /// phicc's (on the prelinked start files), which is the same code in
    /// about 20 ms less per build.
    pub fn reference(&self, target: Target, source: &Path, out: &Path) -> std::io::Result<Step> {
        if self.linker != Linker::Fast {
            return self.gcc(target, self.reference_args(target, source, out));
        }
        let object = out.with_extension("ref.o");
        let mut args = self.reference_args(target, source, &object);
        args.retain(|a| a != "-lm" && a != "-static" && !a.starts_with("-fuse-ld"));
        args.insert(0, "-c".into());
        let step = self.gcc(target, args)?;
        if !step.ok() {
            return Ok(step);
        }
        let compiled = CompiledConfig {
            step: step.clone(),
            assembly: source.to_path_buf(),
            object: Some(object),
            kept_by_cost_limit: None,
        };
        let mut link = self.link_compiled(target, &compiled, out)?;
        link.command = format!("{} && {}", step.command, link.command);
        link.stderr = format!("{}{}", step.stderr, link.stderr);
        link.seconds += step.seconds;
        Ok(link)
    }

    /// The target gcc's arguments that build the reference binary `out` from `source`.
    pub fn reference_args(&self, target: Target, source: &Path, out: &Path) -> Vec<String> {
        let mut args = vec!["-O0".to_string(), "-static".to_string(), "-w".to_string()];
        // The same linker as phicc's binaries (gold links in about half of
        // BFD's time; [`Toolchain::reference`] links `fast` builds itself);
        // the code is gcc -O0's either way.
        if matches!(self.linker, Linker::Fast | Linker::Gold) && crate::link::has_gold(target) {
            args.push("-fuse-ld=gold".to_string());
        }
        for dir in &self.include_dirs {
            args.push(format!("-I{}", dir.display()));
        }
        args.extend([
            "-o".to_string(),
            out.display().to_string(),
            source.display().to_string(),
            "-lm".to_string(),
        ]);
        args
    }

    fn gcc(&self, target: Target, args: Vec<String>) -> std::io::Result<Step> {
        let result = runner::run(&Job::new(target.gcc()).args(&args), &self.compile_limits)?;
        // gcc has no ICE status of its own worth separating here.
        Ok(Step::new(
            command_line(&[], target.gcc(), &args),
            StepOutcome::of(&result, i32::MIN),
            &result,
        ))
    }

    /// Run a binary built for `target` under the run limits, with a wall-clock
    /// limit of at least `timeout`.
    pub fn run(&self, target: Target, binary: &Path, timeout: Duration) -> std::io::Result<RunResult> {
        let mut limits = self.run_limits.clone();
        if timeout > limits.timeout {
            limits.timeout = timeout;
            limits.cpu_seconds = timeout.as_secs() + 1;
        }
        runner::run_binary(target, binary, &[], &limits)
    }

    /// The wall-clock limit of a phicc-built binary whose reference ran for
    /// `reference` (on the host, or under QEMU for a per-target reference):
    /// the run limit, or [`EMULATION_SLOWDOWN`] times the reference's time
    /// when that is longer.
    pub fn run_timeout_after(&self, reference: Duration) -> Duration {
        self.run_limits.timeout.max(reference * EMULATION_SLOWDOWN)
    }

    /// Run a reference binary built for `target` under the reference limits
    /// (scaled by [`EMULATION_SLOWDOWN`] for a target run under QEMU).
    pub fn run_reference(&self, target: Target, binary: &Path) -> std::io::Result<RunResult> {
        let mut limits = self.reference_limits.clone();
        if target.emulator().is_some() {
            limits.timeout *= EMULATION_SLOWDOWN;
            limits.cpu_seconds = limits.timeout.as_secs() + 1;
        }
        runner::run_binary(target, binary, &[], &limits)
    }

    /// The command that runs `binary` for `target`, for a finding's record.
    pub fn run_command(target: Target, binary: &Path) -> String {
        match target.emulator() {
            None => binary.display().to_string(),
            Some(q) => format!("{q} {}", binary.display()),
        }
    }
}

/// How a compile or link step ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum StepOutcome {
    Ok,
    /// A diagnostic and a failure status (phicc: 1).
    Rejected {
        status: i32,
    },
    /// An internal compiler error, a signal or a resource limit.
    Crashed {
        how: String,
    },
    Timeout,
}

impl StepOutcome {
    fn of(r: &RunResult, ice_status: i32) -> StepOutcome {
        match &r.termination {
            Termination::Exited(0) => StepOutcome::Ok,
            Termination::Exited(s) if *s == ice_status => StepOutcome::Crashed {
                how: "internal compiler error".into(),
            },
            Termination::Exited(s) => StepOutcome::Rejected { status: *s },
            Termination::Timeout => StepOutcome::Timeout,
            t => StepOutcome::Crashed { how: t.describe() },
        }
    }

    pub fn describe(&self) -> String {
        match self {
            StepOutcome::Ok => "ok".into(),
            StepOutcome::Rejected { status } => format!("rejected (exit {status})"),
            StepOutcome::Crashed { how } => format!("crashed ({how})"),
            StepOutcome::Timeout => "timeout".into(),
        }
    }
}

/// One compile or link step: the exact command, how it ended, its diagnostics.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    pub command: String,
    pub outcome: StepOutcome,
    pub stderr: String,
    pub seconds: f64,
}

impl Step {
    fn new(command: String, outcome: StepOutcome, r: &RunResult) -> Step {
        Step {
            command,
            outcome,
            stderr: String::from_utf8_lossy(&r.stderr.bytes).into_owned(),
            seconds: r.elapsed.as_secs_f64(),
        }
    }

    pub fn ok(&self) -> bool {
        self.outcome == StepOutcome::Ok
    }
}

/// Where `phicc` is when `--compiler` is not given: `$PHICC`, else
/// `target/release/phicc` beside the running oracle binary, else `phicc` on `PATH`.
pub fn default_phicc() -> PathBuf {
    if let Some(p) = std::env::var_os("PHICC") {
        return PathBuf::from(p);
    }
    if let Ok(exe) = std::env::current_exe() {
        if let Some(dir) = exe.parent() {
            let beside = dir.join("phicc");
            if beside.exists() {
                return beside;
            }
        }
    }
    PathBuf::from("phicc")
}

/// The reference compiler's identity for the reference cache: the target
/// gcc's `--version` line and `-dumpmachine`, read once per target.
fn gcc_version(target: Target) -> Option<String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static VERSIONS: OnceLock<Mutex<HashMap<Target, Option<String>>>> = OnceLock::new();
    let versions = VERSIONS.get_or_init(Default::default);
    if let Some(v) = versions.lock().unwrap().get(&target) {
        return v.clone();
    }
    let ask = |flag: &str| {
        std::process::Command::new(target.gcc())
            .arg(flag)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
    };
    let v = ask("--version")
        .zip(ask("-dumpmachine"))
        .map(|(a, b)| format!("{a} {b}"));
    versions.lock().unwrap().insert(target, v.clone());
    v
}

/// The default reference cache: `$XDG_CACHE_HOME/phicc-oracle/reference`,
/// else `~/.cache/phicc-oracle/reference`.
pub fn default_reference_cache() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("phicc-oracle").join("reference"))
}
