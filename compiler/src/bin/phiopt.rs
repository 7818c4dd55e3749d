//! `phiopt`: LLVM's `opt` and `lli` in one, for phicc's textual IR.
//!
//! Reads a module (a file, or stdin when the path is `-` or absent), runs the
//! passes named by `--passes` (with the verifier after each one under
//! `--verify-each`), and then either prints the resulting IR, interprets it
//! (`--run`), or interprets it before and after the passes and compares the
//! outcomes (`--check`), which is how every repro of the harness is replayed.
//! `--emit-asm` prints the backend's assembly instead of the IR.
//! `--list-passes` prints the pass table (`phicc::passes`): every pass and
//! configuration `--passes` and `--print-ir-after` accept.
//!
//! `--check` follows the termination rule of `phicc::ir::interp::hang_limit`:
//! when the original finishes in S steps, the transformed program runs with
//! at least 8·S + 10,000 fuel, and running out of it is a finding ("no longer
//! terminates"). `--against FILE` checks FILE (after `--passes`) against the
//! input instead of the input after the passes: a hand-written pair.
//!
//! Exit status (the constants of `phicc::exit`): 0 on success (and when
//! `--check` finds the outcomes equal, or the original itself runs out of
//! fuel), 1 when `--check` finds a difference, a program that no longer
//! terminates, or a verifier failure after a pass, 2 for unreadable or
//! invalid input, bad flags, and IR the backend cannot compile
//! (`--emit-asm`), 70 when the IR breaks an invariant of the backend (an
//! internal compiler error, as in `phicc`).

use clap::{CommandFactory, FromArgMatches, Parser};
use phicc::exit;
use phicc::ir::interp::{self, Outcome, RunConfig};
use phicc::ir::module::IrModule;
use phicc::ir::text::{parse_module, print_module};
use phicc::ir::verify::{verify_module, VerifyMode};
use phicc::passes::{list_passes, PassKind, Pipeline};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Run passes over phicc IR, interpret it, and check that passes preserve its meaning.
#[derive(Parser, Debug)]
#[command(name = "phiopt", version, about, long_about = None)]
struct Cli {
    /// Input IR file (`-` or absent: standard input).
    input: Option<PathBuf>,

    /// Comma-separated passes to run, in order (the names are filled in from the pass table).
    #[arg(long, value_name = "P1,P2,...", default_value = "")]
    passes: String,

    /// Print every pass (what it runs on, SSA form in and out, counters) and configuration, and exit.
    #[arg(long)]
    list_passes: bool,

    /// Run the IR verifier after every pass.
    #[arg(long)]
    verify_each: bool,

    /// Write the resulting IR here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Interpret the (transformed) module, calling FUNC (default `main`), and print the outcome.
    #[arg(long, value_name = "FUNC", num_args = 0..=1, default_missing_value = "main")]
    run: Option<String>,

    /// Function that `--check` interprets (default `main`).
    #[arg(long, value_name = "FUNC", default_value = "main")]
    entry: String,

    /// Integer arguments for the interpreted function, comma-separated (e.g. `--args=1,-2`).
    #[arg(long, value_name = "N,...", allow_hyphen_values = true)]
    args: Option<String>,

    /// Inline-asm schedule seed(s); several comma-separated seeds are each checked.
    #[arg(long, value_name = "SEED,...", default_value = "0")]
    schedule: String,

    /// Interpreter fuel (instructions executed before the run is called inconclusive).
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    fuel: u64,

    /// Interpret before and after the passes and exit 1 if the outcomes differ
    /// or the program no longer terminates (8 x the original's steps + 10000).
    #[arg(long)]
    check: bool,

    /// With `--check`: the transformed program is FILE (after `--passes`),
    /// not the input after the passes.
    #[arg(long, value_name = "FILE", requires = "check")]
    against: Option<PathBuf>,

    /// Print pass statistics to standard error.
    #[arg(long)]
    stats: bool,

    /// Print the IR to standard error after the named pass (or `all`).
    #[arg(long, value_name = "PASS")]
    print_ir_after: Vec<String>,

    /// Print the assembly the backend emits for TARGET (default x86_64)
    /// instead of the IR, like `llc` (the module must be phi-free: run
    /// `phi-elim` first).
    #[arg(long, value_name = "TARGET", num_args = 0..=1, default_missing_value = "x86_64")]
    emit_asm: Option<String>,

    /// Switch on injected bugs (comma-separated names; needs a build with
    /// `--features phicc/inject-bugs`; the environment variable PHICC_INJECT_BUG does the same).
    #[arg(long, value_name = "BUG,...")]
    inject_bug: Option<String>,
}

/// A failure that ends the run: bad input or flags (exit status 2), or an
/// internal compiler error (70).
enum Failure {
    Usage(String),
    Internal(String),
}

/// `code` as a process exit status.
fn status(code: i32) -> ExitCode {
    ExitCode::from(code as u8)
}

/// The command line, with the pass names of `--passes` and `--print-ir-after` read from the table.
fn parse_cli() -> Cli {
    let names = phicc::passes::pipeline::spec_names().join(", ");
    let passes: Vec<&str> = PassKind::ALL.iter().map(|k| k.name()).collect();
    let matches = Cli::command()
        .mut_arg("passes", |a| {
            a.help(format!(
                "Comma-separated passes to run, in order: {names} (see --list-passes)"
            ))
        })
        .mut_arg("print_ir_after", |a| {
            a.help(format!(
                "Print the IR to standard error after the named pass ({} or all)",
                passes.join(", ")
            ))
        })
        .get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

fn main() -> ExitCode {
    let cli = parse_cli();
    if cli.list_passes {
        print!("{}", list_passes());
        return ExitCode::SUCCESS;
    }
    match real_main(&cli) {
        Ok(code) => code,
        Err(Failure::Usage(msg)) => {
            eprintln!("phiopt: error: {msg}");
            status(exit::USAGE)
        }
        Err(Failure::Internal(msg)) => {
            eprintln!("phiopt: internal compiler error: {msg}");
            status(exit::ICE)
        }
    }
}

fn real_main(cli: &Cli) -> Result<ExitCode, Failure> {
    if let Some(list) = &cli.inject_bug {
        let bugs = phicc::inject::parse_bug_list(list).map_err(Failure::Usage)?;
        phicc::inject::set_injected(&bugs).map_err(Failure::Usage)?;
    }
    let (name, text) = read_input(cli.input.as_deref())?;
    let module = parse_module(&text).map_err(|e| Failure::Usage(format!("{name}:{e}")))?;
    let mut pipeline = Pipeline::parse(&cli.passes).map_err(Failure::Usage)?;
    pipeline.verify_each = cli.verify_each;
    if let Some(bad) = cli
        .print_ir_after
        .iter()
        .find(|p| *p != "all" && PassKind::from_name(p).is_none())
    {
        return Err(Failure::Usage(format!("--print-ir-after: unknown pass `{bad}`")));
    }
    // Invalid input is the user's error (exit 2); a verifier failure after a
    // pass is a finding (exit 1). So the input is verified first when any
    // verification was asked for.
    if cli.verify_each || cli.check || pipeline.passes.contains(&PassKind::Verify) {
        if let Err(e) = verify_module(&module, VerifyMode::Ssa) {
            return Err(Failure::Usage(format!("{name}: the input does not verify:\n{e}")));
        }
    }
    let schedules = parse_list::<u64>(&cli.schedule, "--schedule")?;
    let args: Vec<u128> = match &cli.args {
        Some(a) => parse_list::<i128>(a, "--args")?
            .into_iter()
            .map(|v| v as u128)
            .collect(),
        None => Vec::new(),
    };

    let config = |entry: &str, seed: u64| RunConfig {
        entry: entry.to_string(),
        args: args.clone(),
        schedule_seed: seed,
        fuel: cli.fuel,
    };
    let before: Vec<(Outcome, u64)> = if cli.check {
        schedules
            .iter()
            .map(|&s| interp::run_counting(&module, &config(&cli.entry, s)))
            .collect()
    } else {
        Vec::new()
    };

    let mut transformed = match &cli.against {
        Some(path) => {
            let (other, text) = read_input(Some(path))?;
            let m = parse_module(&text).map_err(|e| Failure::Usage(format!("{other}:{e}")))?;
            if let Err(e) = verify_module(&m, VerifyMode::Ssa) {
                return Err(Failure::Usage(format!("{other}: the input does not verify:\n{e}")));
            }
            m
        }
        None => module,
    };
    let print_after = &cli.print_ir_after;
    let mut hook = |pass: &str, m: &IrModule| {
        if print_after.iter().any(|p| p == pass || p == "all") {
            eprintln!("; *** IR after {pass} ***\n{}", print_module(m));
        }
    };
    let stats = match pipeline.run(&mut transformed, &mut hook) {
        Ok(stats) => stats,
        Err(e) => {
            eprintln!("phiopt: {name}: {e}");
            // A verifier failure after a pass is a finding, not bad input.
            return Ok(status(exit::ERROR));
        }
    };
    if cli.stats {
        eprintln!("{stats}");
    }

    let mut code = ExitCode::SUCCESS;
    if cli.check {
        for (seed, original) in schedules.iter().zip(&before) {
            let (before, steps) = original;
            let mut after_config = config(&cli.entry, *seed);
            after_config.fuel = interp::fuel_after(cli.fuel, original);
            let after = interp::run(&transformed, &after_config);
            if before.is_inconclusive() {
                println!("{name}: schedule {seed}: inconclusive (the original ran out of fuel)");
            } else if after.is_inconclusive() {
                println!(
                    "{name}: schedule {seed}: NO LONGER TERMINATES: the original finished in {steps} steps; after the passes the program had not finished after {} steps (the limit is {} = {} x {steps} + {})",
                    after_config.fuel,
                    interp::hang_limit(*steps),
                    interp::HANG_FACTOR,
                    interp::HANG_SLACK
                );
                println!("--- before passes ---\n{before}");
                code = status(exit::ERROR);
            } else if *before != after {
                println!("{name}: schedule {seed}: MISMATCH");
                println!("--- before passes ---\n{before}\n--- after passes ---\n{after}");
                code = status(exit::ERROR);
            } else {
                println!("{name}: schedule {seed}: same outcome ({})", before.result);
            }
        }
    }
    if let Some(func) = &cli.run {
        for &seed in &schedules {
            let outcome = interp::run(&transformed, &config(func, seed));
            if schedules.len() > 1 {
                println!("; schedule {seed}");
            }
            std::io::stdout().write_all(&outcome.stdout).ok();
            println!("{outcome}");
        }
    }
    if cli.output.is_some() || (cli.run.is_none() && !cli.check) {
        let text = match &cli.emit_asm {
            Some(t) => {
                let target = phicc::target::Target::from_name(t)
                    .ok_or_else(|| Failure::Usage(format!("unknown target `{t}`")))?;
                phicc::backend::emit_assembly(&transformed, target).map_err(|e| {
                    let message = format!("{name}: {e}");
                    if e.is_internal() {
                        Failure::Internal(message)
                    } else {
                        Failure::Usage(message)
                    }
                })?
            }
            None => print_module(&transformed),
        };
        match &cli.output {
            Some(path) => std::fs::write(path, text)
                .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?,
            None => {
                print!("{text}");
                if !text.ends_with('\n') {
                    println!();
                }
            }
        }
    }
    Ok(code)
}

fn read_input(path: Option<&std::path::Path>) -> Result<(String, String), Failure> {
    match path {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => std::fs::read_to_string(p)
            .map(|t| (p.display().to_string(), t))
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", p.display()))),
    }
}

fn read_stdin() -> Result<(String, String), Failure> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
    Ok(("<stdin>".to_string(), text))
}

fn parse_list<T: std::str::FromStr>(s: &str, flag: &str) -> Result<Vec<T>, Failure> {
    s.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            p.trim()
                .parse::<T>()
                .map_err(|_| Failure::Usage(format!("{flag}: `{}` is not a number", p.trim())))
        })
        .collect()
}
