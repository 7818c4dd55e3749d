//! The `oracle` command line. Subcommands arrive with the IR fuzzing and
//! differential issues; today it only reports its version.

use clap::Parser;

/// Differential testing and fuzzing harness for phicc's mem2reg and phi elimination.
#[derive(Parser)]
#[command(version, about)]
struct Cli {}

fn main() {
    let _ = Cli::parse();
    eprintln!("oracle: no subcommands yet (see the IR fuzzing and differential oracle issues)");
    std::process::exit(2);
}
