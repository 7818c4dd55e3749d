//! The command line of `phicc` (gcc's spelling where gcc has one).
//!
//! clap reads double-dash long options, so gcc's single-dash long options
//! are rewritten first: `-static` -> `--static`, `-fno-mem2reg` ->
//! `--fno-mem2reg`, a bare `-O` -> `-O1`. Flags gcc users pass out of habit
//! and that change nothing here (`-g`, `-W...`, `-std=...`, `-pedantic`,
//! other `-f...` and `-m...`) are accepted and ignored.

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};
use std::ffi::OsString;
use std::path::PathBuf;

/// A C compiler for x86-64, AArch64 and RISC-V 64 built around a verified mem2reg.
#[derive(Parser, Debug, Default)]
#[command(name = "phicc", version, about, long_about = None)]
pub struct Cli {
    /// Preprocess only; print the result.
    #[arg(short = 'E')]
    pub preprocess_only: bool,
    /// Compile to assembly (`.s`).
    #[arg(short = 'S')]
    pub assembly_only: bool,
    /// Compile and assemble to an object file (`.o`).
    #[arg(short = 'c')]
    pub compile_only: bool,
    /// Output file.
    #[arg(short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Add a directory to the `#include` search path.
    #[arg(short = 'I', value_name = "DIR", action = ArgAction::Append)]
    pub include: Vec<PathBuf>,
    /// Define a macro (`-D name` or `-D name=value`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]", action = ArgAction::Append)]
    pub define: Vec<String>,
    /// Undefine a macro.
    #[arg(short = 'U', value_name = "NAME", action = ArgAction::Append)]
    pub undef: Vec<String>,
    /// Optimization level: -O0 (or none) runs the `mem2reg` pipeline; -O1,
    /// -O2, -O3, -Os, -Oz, -Og and -Ofast run `opt` (-fno-mem2reg wins over any).
    #[arg(short = 'O', value_name = "LEVEL")]
    pub opt: Option<String>,
    /// Suppress warnings.
    #[arg(short = 'w')]
    pub no_warnings: bool,
    /// Link statically (for binaries run under QEMU).
    #[arg(long = "static")]
    pub static_link: bool,
    /// Link with a library.
    #[arg(short = 'l', value_name = "LIB", action = ArgAction::Append)]
    pub libs: Vec<String>,
    /// Add a library search directory for linking.
    #[arg(short = 'L', value_name = "DIR", action = ArgAction::Append)]
    pub lib_dirs: Vec<PathBuf>,
    /// Target architecture: x86_64, aarch64 or riscv64.
    #[arg(long, value_name = "ARCH", default_value = "x86_64")]
    pub target: String,
    /// Print the target table's facts for TARGET (default: the `--target`) as
    /// `key=value` lines (triple, gcc, qemu, ...) and exit.
    #[arg(long, value_name = "TARGET", num_args = 0..=1, default_missing_value = "", require_equals = true)]
    pub print_target_info: Option<String>,
    /// Skip mem2reg: lowering -> phi elimination -> backend (configuration `nomem2reg`).
    #[arg(long = "fno-mem2reg")]
    pub no_mem2reg: bool,
    /// Print the IR after lowering (to the output file or standard output) and stop.
    #[arg(long)]
    pub emit_ir: bool,
    /// Print the IR to standard error after the named pass (`lowering`, a pass name, or `all`).
    #[arg(long, value_name = "PASS", action = ArgAction::Append)]
    pub print_ir_after: Vec<String>,
    /// Check the program (preprocess, parse, analyze, lower, verify) and stop.
    #[arg(long = "fsyntax-only")]
    pub syntax_only: bool,
    /// Print the time of each frontend phase to standard error.
    #[arg(long)]
    pub time_phases: bool,
    /// Run the verifier after lowering and after every pass (off by default:
    /// the test suites verify; a compile does not pay for it).
    #[arg(long)]
    pub verify_each: bool,
    /// Lower, run the pipeline, and interpret `main` with the libc shim; exit with its status.
    #[arg(long)]
    pub run_ir: bool,
    /// Interpreter fuel for --run-ir (instructions before the run gives up).
    #[arg(long, value_name = "N", default_value_t = 20_000_000_000)]
    pub fuel: u64,
    /// Inline-asm schedule seed for --run-ir.
    #[arg(long, value_name = "SEED", default_value_t = 0)]
    pub schedule: u64,
    /// Switch on injected bugs (needs a build with `--features phicc/inject-bugs`;
    /// the environment variable PHICC_INJECT_BUG does the same).
    #[arg(long, value_name = "BUG,...")]
    pub inject_bug: Option<String>,
    /// Input files: `.c` sources, `.s`/`.S` assembly, `.o`/`.a` objects.
    pub files: Vec<PathBuf>,
    /// `-D` and `-U` in command-line order (filled from the matches).
    #[arg(skip)]
    pub macros_in_order: Vec<(bool, String)>,
}

/// Rewrites gcc's single-dash long options for clap and drops ignored flags.
pub fn normalize_args(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut out = Vec::new();
    for (i, a) in args.into_iter().enumerate() {
        let Some(s) = a.to_str() else {
            out.push(a);
            continue;
        };
        if i == 0 {
            out.push(a.clone());
            continue;
        }
        match s {
            "-static" => out.push("--static".into()),
            "-fno-mem2reg" => out.push("--fno-mem2reg".into()),
            "-fsyntax-only" => out.push("--fsyntax-only".into()),
            "-O" => out.push("-O1".into()),
            "-pedantic" | "-pedantic-errors" | "-ansi" | "-pipe" => {}
            _ if s.starts_with("-g")
                || (s.starts_with("-W") && !s.starts_with("-Wl,") && !s.starts_with("-Wa,"))
                || s.starts_with("-std=")
                || s.starts_with("-m")
                || (s.starts_with("-f") && s.len() > 2) =>
            {
                if s == "-fmem2reg" {
                    continue;
                }
            }
            _ => out.push(a),
        }
    }
    out
}

/// Whether an `-O` level selects the `opt` configuration: `None` for a
/// level gcc would reject (`-Ox`). Every positive number does (gcc treats
/// levels above 3 as 3), as do `s`, `z`, `g` and `fast`.
pub fn opt_level_optimizes(level: &str) -> Option<bool> {
    match level {
        "s" | "z" | "g" | "fast" => Some(true),
        _ => level.parse::<u32>().ok().map(|n| n > 0),
    }
}

/// Parses a command line (including the program name).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, clap::Error> {
    let matches = Cli::command().try_get_matches_from(normalize_args(args))?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    let mut ordered: Vec<(usize, bool, String)> = Vec::new();
    if let (Some(idx), Some(vals)) = (matches.indices_of("define"), matches.get_many::<String>("define")) {
        ordered.extend(idx.zip(vals).map(|(i, v)| (i, true, v.clone())));
    }
    if let (Some(idx), Some(vals)) = (matches.indices_of("undef"), matches.get_many::<String>("undef")) {
        ordered.extend(idx.zip(vals).map(|(i, v)| (i, false, v.clone())));
    }
    ordered.sort_by_key(|(i, ..)| *i);
    cli.macros_in_order = ordered.into_iter().map(|(_, d, v)| (d, v)).collect();
    Ok(cli)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Cli {
        parse(std::iter::once("phicc").chain(args.iter().copied()).map(OsString::from)).unwrap()
    }

    #[test]
    fn gcc_spellings() {
        let c = p(&[
            "-O0",
            "-static",
            "-fno-mem2reg",
            "-lm",
            "-l",
            "pthread",
            "-o",
            "out",
            "a.c",
            "b.o",
        ]);
        assert_eq!(c.opt.as_deref(), Some("0"));
        assert!(c.static_link && c.no_mem2reg);
        assert_eq!(c.libs, vec!["m", "pthread"]);
        assert_eq!(c.output, Some(PathBuf::from("out")));
        assert_eq!(c.files, vec![PathBuf::from("a.c"), PathBuf::from("b.o")]);
        let c = p(&["-O", "-g", "-Wall", "-std=c11", "-fwrapv", "--target=aarch64", "x.c"]);
        assert_eq!(c.opt.as_deref(), Some("1"));
        assert_eq!(opt_level_optimizes("1"), Some(true));
        assert_eq!(c.target, "aarch64");
        assert_eq!(c.files, vec![PathBuf::from("x.c")]);
    }

    #[test]
    fn opt_levels() {
        for l in ["1", "2", "3", "s", "z", "g", "fast", "4"] {
            assert_eq!(opt_level_optimizes(l), Some(true), "{l}");
        }
        assert_eq!(opt_level_optimizes("0"), Some(false));
        assert_eq!(opt_level_optimizes("x"), None);
        assert_eq!(opt_level_optimizes(""), None);
    }

    #[test]
    fn defines_and_undefs_keep_their_order() {
        let c = p(&["-DA=1", "-U", "A", "-D", "B", "-UC", "f.c"]);
        assert_eq!(
            c.macros_in_order,
            vec![
                (true, "A=1".to_string()),
                (false, "A".to_string()),
                (true, "B".to_string()),
                (false, "C".to_string())
            ]
        );
    }
}
