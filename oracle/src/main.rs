//! The `oracle` command line: one subcommand per variant, each with its
//! arguments and entry point in `oracle::commands`.

use clap::{Parser, Subcommand};
use oracle::commands;
use std::process::ExitCode;

// mimalloc rather than glibc's malloc: the compile workers (`oracle
// compile-worker`) run phicc's library on program after program, and
// glibc's free-list upkeep (`malloc_consolidate`, `unlink_chunk`) was
// about 4% of their time (docs/results.md#campaigns).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Differential testing and fuzzing harness for phicc's mem2reg and phi elimination.
#[derive(Parser)]
#[command(version, about, args_override_self = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile one C program in every configuration for every target, run the
    /// binaries and compare them with the reference (gcc -O0).
    /// Exit status: 0 all agree, 1 a finding, 2 tool error.
    Diff(commands::diff::Args),
    /// A differential campaign over generated programs (Csmith, cgen or IR),
    /// with findings written to --out as they appear.
    /// Exit status: 0 nothing found, 1 findings, 2 tool error.
    Campaign(commands::campaign::Args),
    /// Minimize a finding of `oracle campaign` (cvise for C, reduce-ir for IR).
    Reduce(commands::reduce::Args),
    /// Merge the output directories of campaign shards, deduplicating findings.
    Merge(commands::merge::Args),
    /// Generate IR programs from seeded random bytes and check that mem2reg,
    /// copy propagation and phi elimination preserve their meaning.
    /// Exit status: 0 nothing found, 1 findings, 2 tool error.
    IrCampaign(commands::ir_campaign::Args),
    /// Compile generated (asm-free) IR with a target's backend (--target, default
    /// x86_64), run it natively or under QEMU and check its return value and
    /// globals against the interpreter, with and without mem2reg. Exit status:
    /// 0 nothing found, 1 findings, 2 tool error.
    NativeIr(commands::native_ir::Args),
    /// Print one generated C program (see `oracle::cgen`).
    Cgen(commands::cgen::Args),
    /// Reduce a failing IR file to a small module that fails the same way.
    /// Prints the reduced IR (or writes it with -o) and the command that shows the failure.
    ReduceIr(commands::reduce_ir::Args),
    /// Compile time of phicc next to gcc -O0 on Csmith programs 1..COUNT
    /// (-c, or --syntax-only for the frontend): wall and CPU time, per-phase sums.
    BenchCompile(commands::bench_compile::Args),
    /// The generated-code benchmark: fixed workloads (repro-02, zlib, Lua,
    /// SQLite, Csmith, cgen) built by gcc -O0/-O1 and phicc in its three
    /// configurations, CPU-time ratios to gcc -O0 and the largest frames.
    /// Exit status: 0 all outputs equal gcc -O0's, 1 a mismatch or failure, 2 tool error.
    BenchCode(commands::bench_code::Args),
    /// Csmith programs through phicc --run-ir (both configurations) and
    /// lowering for every target, against gcc -O0. Exit status 1 on any failure.
    CsmithRunIr(commands::csmith_run_ir::Args),
    /// Validity of cgen programs under gcc: warnings, UBSan+ASan, -O0 == -O2,
    /// the plain-C asm fallback, and the same output on every target.
    CgenValidity(commands::cgen_validity::Args),
    /// Per injected bug: the first program of each generator that shows it
    /// (natively, or --in-process through the IR interpreter).
    FirstFindings(commands::first_findings::Args),
    /// Per injected bug: a short cgen campaign, and whether its findings are
    /// bucketed in the stage the bug lives in. Exit status 1 when not.
    LocalizeCheck(commands::localize_check::Args),
    /// Our mem2reg timed against LLVM's (opt-15) on synthetic shapes.
    BenchMem2reg(commands::bench_mem2reg::Args),
    /// Coverage of compiler/src/passes/mem2reg/ reached by cgen and Csmith
    /// programs (nightly toolchain with llvm-tools).
    Coverage(commands::coverage::Args),
    /// Build zlib, Lua and SQLite with phicc through their own build systems,
    /// run their tests and compare with the target's gcc -O0 build.
    /// Exit status: 0 all pass, 1 a failure, 2 tool error.
    Realprogs(commands::realprogs::Args),
    /// gcc's C torture execute tests compiled by phicc for one target and
    /// configuration, compared with corpora/torture/expected-failures-TARGET.txt.
    /// Exit status: 0 as expected, 1 a difference (named), 2 tool error.
    Torture(commands::torture::Args),
    /// The first (pass, function) application of phicc's pipeline that breaks
    /// a program, by binary search over --fopt-bisect-limit: one C file
    /// (compared with gcc -O0), a real program (--realprog lua --test CMD) or
    /// any build (--src DIR --build CMD --test CMD, compiling with $CC, which
    /// is `oracle bisect-cc`). Exit status: 0 named, 1 not reproduced or not
    /// in the pass pipeline, 2 tool error.
    Bisect(commands::bisect::Args),
}

fn main() -> ExitCode {
    // The compiler wrapper of `oracle bisect` takes a C driver's arguments as they are.
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("bisect-cc") {
        return oracle::bisect::cc_main(argv[2..].to_vec());
    }
    // `oracle phicc ARGS`: the phicc driver linked into oracle, with oracle's
    // features (an `inject-bugs` oracle is a phicc with the injected bugs).
    if argv.get(1).map(String::as_str) == Some("phicc") {
        let args = std::iter::once("phicc".into())
            .chain(std::env::args_os().skip(2))
            .collect();
        return ExitCode::from(oracle::phicc::driver::main(args).clamp(0, 255) as u8);
    }
    // `oracle compile-worker`: the in-process compiles of a differential run
    // (see oracle::compile_worker), started by the oracle itself.
    if argv.get(1).map(String::as_str) == Some("compile-worker") {
        return match oracle::compile_worker::serve() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("oracle compile-worker: {e}");
                ExitCode::from(2)
            }
        };
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Diff(args) => commands::diff::run(args),
        Command::Campaign(args) => commands::campaign::run(args),
        Command::Reduce(args) => commands::reduce::run(args),
        Command::Merge(args) => commands::merge::run(args),
        Command::IrCampaign(args) => commands::ir_campaign::run(args),
        Command::NativeIr(args) => commands::native_ir::run(args),
        Command::Cgen(args) => commands::cgen::run(args),
        Command::ReduceIr(args) => commands::reduce_ir::run(args),
        Command::BenchCompile(args) => commands::bench_compile::run(args),
        Command::BenchCode(args) => commands::bench_code::run(args),
        Command::CsmithRunIr(args) => commands::csmith_run_ir::run(args),
        Command::CgenValidity(args) => commands::cgen_validity::run(args),
        Command::FirstFindings(args) => commands::first_findings::run(args),
        Command::LocalizeCheck(args) => commands::localize_check::run(args),
        Command::BenchMem2reg(args) => commands::bench_mem2reg::run(args),
        Command::Coverage(args) => commands::coverage::run(args),
        Command::Realprogs(args) => commands::realprogs::run(args),
        Command::Torture(args) => commands::torture::run(args),
        Command::Bisect(args) => commands::bisect::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("oracle: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
