//! The `oracle` subcommands: each file holds one subcommand's arguments and
//! its entry point; the work is done by the library modules they call. The
//! C-level commands (diff, campaign, reduce, merge) share [`DiffArgs`].

pub mod bench_code;
pub mod bench_compile;
pub mod bench_mem2reg;
pub mod bisect;
pub mod campaign;
pub mod cgen;
pub mod cgen_validity;
pub mod coverage;
pub mod csmith_run_ir;
pub mod diff;
pub mod first_findings;
pub mod ir_campaign;
pub mod localize_check;
pub mod merge;
pub mod native_ir;
pub mod realprogs;
pub mod reduce;
pub mod reduce_ir;
pub mod torture;

use crate::differential::{DiffSpec, ReferenceMode};
use crate::target::{parse_list, Config, Target};
use crate::toolchain::{default_phicc, Linker, Toolchain};
use std::path::PathBuf;
use std::time::Duration;

/// Options shared by every command that compiles and runs C programs.
#[derive(clap::Args, Clone, Debug)]
pub struct DiffArgs {
    /// Targets, comma-separated (x86_64, aarch64, riscv64).
    #[arg(long, default_value = "x86_64,aarch64,riscv64", value_parser = parse_list::<Target>)]
    pub targets: std::vec::Vec<Target>,
    /// Configurations, comma-separated (nomem2reg, mem2reg, opt).
    #[arg(long, default_value = "nomem2reg,mem2reg", value_parser = parse_list::<Config>)]
    pub configs: std::vec::Vec<Config>,
    /// The compiler under test (default: $PHICC, else phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// What the outputs are compared with (default: host; `per-target`
    /// builds each target's own reference, for programs whose output depends
    /// on the target, or to tell a wrong cgen asm template from a phicc bug).
    #[arg(long, value_enum)]
    pub reference: Option<ReferenceMode>,
    /// Wall-clock limit of one binary run, in seconds (raised to 30 times
    /// the reference's run time when that is longer).
    #[arg(long, default_value_t = 5.0)]
    pub run_timeout: f64,
    /// Wall-clock limit of the reference binary's native run, in seconds (30
    /// times more under QEMU); a program that does not finish in it is
    /// discarded as a reference failure (default: 1 s for `diff`, 0.15 s for
    /// campaigns, whose generated programs either end in milliseconds or
    /// run for minutes).
    #[arg(long)]
    pub reference_timeout: Option<f64>,
    /// Wall-clock limit of one compiler invocation, in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub compile_timeout: f64,
    /// Extra include directory for the program (repeatable).
    #[arg(short = 'I', long = "include")]
    pub include_dirs: Vec<PathBuf>,
    /// Switch on injected bugs in the compiler under test (PHICC_INJECT_BUG;
    /// needs a phicc built with --features phicc/inject-bugs).
    #[arg(long)]
    pub inject_bug: Option<String>,
    /// Spawn `phicc` once per configuration even when it is this oracle's
    /// own library (no --compiler, no $PHICC), which otherwise compiles in
    /// a worker process with one frontend run per target.
    #[arg(long)]
    pub spawn_compiler: bool,
    /// What links the binaries: `gcc` (the target's driver), `ld` (its BFD
    /// linker, called directly), `gold` (gold where binutils has it for the
    /// target, x86-64 and AArch64, else `ld`), `fast` (`ld` on the start
    /// files and C library members prelinked once per campaign and set of
    /// undefined symbols; `gold` for a program that defines a C library
    /// symbol).
    #[arg(long, value_enum, default_value_t = Linker::Fast)]
    pub linker: Linker,
    /// Keep reference outcomes (gcc -O0 build and run) in this directory,
    /// keyed by the program, target, gcc version, flags and limits, and
    /// reuse them in later runs, resumes and other shards (default:
    /// ~/.cache/phicc-oracle/reference).
    #[arg(long)]
    pub reference_cache: Option<PathBuf>,
    /// Build and run every reference, without the cache.
    #[arg(long, conflicts_with = "reference_cache")]
    pub no_reference_cache: bool,
}

/// `--reference-timeout` of `oracle diff`, in seconds.
pub const DIFF_REFERENCE_TIMEOUT: f64 = 1.0;

/// `--reference-timeout` of campaigns, in seconds. Generated programs nearly
/// all either end in milliseconds or run for minutes: of 2,521 Csmith
/// programs (default options, seeds 1..1500 and 3001..4021) run natively
/// with a 4 s limit, 13% ran out of it and all others but one ended within
/// 18 ms, start-up included (the one, seed 50, in 0.11 s). The limit only
/// sets how long each endless program costs: 0.15 s instead of 0.3 s took
/// the reference phase of a 60-program 3 x 3 Csmith campaign from 13.6 to
/// 12.5 worker-seconds, with the same 8 programs discarded
/// (docs/results.md#campaigns). A program that runs 0.15 s natively would
/// take 1.5 to 5 s per binary under QEMU.
pub const CAMPAIGN_REFERENCE_TIMEOUT: f64 = 0.15;

impl DiffArgs {
    pub fn toolchain(&self) -> Toolchain {
        let mut t = Toolchain::new(self.compiler.clone().unwrap_or_else(default_phicc));
        t.include_dirs = self.include_dirs.clone();
        t.compile_limits.timeout = Duration::from_secs_f64(self.compile_timeout);
        t.compile_limits.cpu_seconds = self.compile_timeout.ceil() as u64 + 1;
        t.run_limits.timeout = Duration::from_secs_f64(self.run_timeout);
        t.run_limits.cpu_seconds = self.run_timeout.ceil() as u64 + 1;
        let reference_timeout = self.reference_timeout.unwrap_or(DIFF_REFERENCE_TIMEOUT);
        t.reference_limits.timeout = Duration::from_secs_f64(reference_timeout);
        t.reference_limits.cpu_seconds = reference_timeout.ceil() as u64 + 1;
        if let Some(bugs) = &self.inject_bug {
            t.env.push(("PHICC_INJECT_BUG".into(), bugs.clone()));
        }
        if !self.spawn_compiler {
            t.compile_worker = crate::compile_worker::worker_for(self.compiler.as_deref());
        }
        t.linker = self.linker;
        if !self.no_reference_cache {
            t.reference_cache = self
                .reference_cache
                .clone()
                .or_else(crate::toolchain::default_reference_cache);
        }
        t
    }

    pub fn spec(&self, default_reference: ReferenceMode) -> DiffSpec {
        DiffSpec {
            targets: self.targets.clone(),
            configs: self.configs.clone(),
            reference: self.reference.unwrap_or(default_reference),
        }
    }
}

/// `--jobs`, or one worker per core.
pub fn jobs_or_every_core(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}
