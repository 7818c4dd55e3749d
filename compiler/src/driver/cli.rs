//! The command line of `phicc` (gcc's spelling where gcc has one).
//!
//! clap reads double-dash long options, so gcc's single-dash long options
//! are rewritten first: `-static` -> `--static`, `-fno-mem2reg` ->
//! `--fno-mem2reg`, `-fno-mem2reg=f,g` -> `--fno-mem2reg-in=f,g`, a bare
//! `-O` -> `-O1`. Flags gcc users pass out of habit and that change nothing
//! here (`-g`, `-W...`, `-std=...`, `-pedantic`,
//! other `-f...` and `-m...`) are accepted and ignored.
//!
//! The gcc flags clap cannot model (`-Wl,`, `-Xlinker`, `-Wp,`, `-x`, the
//! `-M` family, `-include`, `-isystem`, ...) are read first by [`scan`]
//! into [`GccFlags`], with the input files (so each file keeps the `-x`
//! language in force before it, and linker options their place among the
//! inputs). A single-dash flag gcc has and phicc does not know is an error
//! naming it (exit 1, as gcc).

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
    /// Target architecture: x86_64, aarch64 or riscv64 (a link named
    /// `<triple>-phicc`, say `aarch64-linux-gnu-phicc`, defaults to its triple's).
    #[arg(long, value_name = "ARCH", default_value = "x86_64")]
    pub target: String,
    /// Print the target table's facts for TARGET (default: the `--target`) as
    /// `key=value` lines (triple, gcc, qemu, ...) and exit.
    #[arg(long, value_name = "TARGET", num_args = 0..=1, default_missing_value = "", require_equals = true)]
    pub print_target_info: Option<String>,
    /// Skip mem2reg: lowering -> phi elimination -> backend (configuration `nomem2reg`).
    #[arg(long = "fno-mem2reg")]
    pub no_mem2reg: bool,
    /// Keep the named functions out of SSA, spelled `-fno-mem2reg=f,g`:
    /// mem2reg skips them and promotes the rest (every other pass still runs).
    #[arg(long = "fno-mem2reg-in", value_name = "F,G", value_delimiter = ',', action = ArgAction::Append)]
    pub no_mem2reg_in: Vec<String>,
    /// LLVM's opt-bisect-limit: run only the first N (pass, function)
    /// applications of the pipeline, printing each as `BISECT: running pass
    /// (K) ...` or `BISECT: NOT running pass (K) ...` on standard error (a
    /// negative N runs all and prints them; phi-elim is required and always runs).
    #[arg(long = "fopt-bisect-limit", value_name = "N", allow_hyphen_values = true)]
    pub opt_bisect_limit: Option<i64>,
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
    /// The gcc flags [`scan`] reads.
    #[arg(skip)]
    pub gcc: GccFlags,
}

/// The language of an input file (`-x`, else its extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// `-x c` (also `cpp-output`, `c-header`).
    C,
    /// `-x assembler`, `-x assembler-with-cpp`.
    Assembler,
}

/// Which headers a dependency rule lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepHeaders {
    /// `-M`, `-MD`: every header.
    All,
    /// `-MM`, `-MMD`: no system headers.
    User,
}

/// An informational query that replaces compiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    DumpVersion,
    DumpMachine,
    PrintFileName(String),
    PrintProgName(String),
}

/// The gcc flags outside clap's model (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct GccFlags {
    /// `-x` language per input file (parallel to `Cli::files`; `None` is "by extension").
    pub langs: Vec<Option<Lang>>,
    /// Linker arguments (`-Wl,`, `-Xlinker`) with the number of input files before them.
    pub linker_args: Vec<(usize, String)>,
    /// `-pthread`: `_REENTRANT` defined, libpthread linked.
    pub pthread: bool,
    /// `-shared`: link a shared library (sources compiled as with `-fPIC`).
    pub shared: bool,
    /// `-fPIC`/`-fpic`: position-independent code (`-fno-pic` undoes it).
    pub pic: bool,
    pub rdynamic: bool,
    /// `-s`: strip the executable.
    pub strip: bool,
    /// `-pie` (true) or `-no-pie` (false), the last one given.
    pub pie: Option<bool>,
    /// `-M`/`-MM`: print the dependency rule instead of compiling.
    pub dep_only: Option<DepHeaders>,
    /// `-MD`/`-MMD`: write the dependency rule beside compiling.
    pub dep_side: Option<DepHeaders>,
    /// `-MF FILE`.
    pub dep_file: Option<PathBuf>,
    /// `-MT`/`-MQ` targets (already quoted for `-MQ`).
    pub dep_targets: Vec<String>,
    /// `-MP`: a phony rule per header.
    pub dep_phony: bool,
    pub pre_includes: Vec<PathBuf>,
    pub system_dirs: Vec<PathBuf>,
    pub quote_dirs: Vec<PathBuf>,
    pub verbose: bool,
    pub save_temps: bool,
    pub query: Option<Query>,
    pub sysroot: Option<PathBuf>,
}

/// Quotes a make target as `-MQ` does: `$` doubled, spaces and `#` escaped.
pub fn quote_make_target(t: &str) -> String {
    let mut out = String::new();
    for c in t.chars() {
        match c {
            '$' => out.push_str("$$"),
            ' ' | '\t' => {
                out.push('\\');
                out.push(c)
            }
            '#' => out.push_str("\\#"),
            _ => out.push(c),
        }
    }
    out
}

/// Long options of clap that take their value as the next argument.
const LONG_WITH_VALUE: &[&str] = &["--target", "--print-ir-after", "--fuel", "--schedule", "--inject-bug"];

/// Reads the gcc flags clap does not model and the input files; returns the
/// arguments left for clap (program name first), or the error message of an
/// unknown or incomplete flag.
pub fn scan(args: impl IntoIterator<Item = OsString>) -> Result<(Vec<OsString>, Vec<PathBuf>, GccFlags), String> {
    let mut queue: std::collections::VecDeque<OsString> = args.into_iter().collect();
    let mut rest: Vec<OsString> = queue.pop_front().into_iter().collect();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut g = GccFlags::default();
    let mut lang: Option<Lang> = None;
    let mut only_files = false;
    while let Some(a) = queue.pop_front() {
        let Some(s) = a.to_str().map(str::to_string) else {
            files.push(PathBuf::from(a));
            g.langs.push(lang);
            continue;
        };
        if only_files || !s.starts_with('-') || s == "-" {
            files.push(PathBuf::from(&s));
            g.langs.push(lang);
            continue;
        }
        let mut value = |flag: &str, attached: &str| -> Result<String, String> {
            if !attached.is_empty() {
                return Ok(attached.to_string());
            }
            queue
                .pop_front()
                .map(|v| v.to_string_lossy().into_owned())
                .ok_or_else(|| format!("missing argument to '{flag}'"))
        };
        match s.as_str() {
            "--" => only_files = true,
            "-pthread" => {
                g.pthread = true;
                rest.push("-D_REENTRANT".into());
            }
            "-shared" => g.shared = true,
            "-fPIC" | "-fpic" => {
                g.pic = true;
                let level = if s == "-fPIC" { "2" } else { "1" };
                rest.push(format!("-D__PIC__={level}").into());
                rest.push(format!("-D__pic__={level}").into());
            }
            "-fno-PIC" | "-fno-pic" => {
                g.pic = false;
                rest.push("-U__PIC__".into());
                rest.push("-U__pic__".into());
            }
            "-rdynamic" => g.rdynamic = true,
            "-s" => g.strip = true,
            "-pie" => g.pie = Some(true),
            "-no-pie" => g.pie = Some(false),
            "-M" => g.dep_only = Some(DepHeaders::All),
            "-MM" => g.dep_only = Some(DepHeaders::User),
            "-MD" => g.dep_side = Some(DepHeaders::All),
            "-MMD" => g.dep_side = Some(DepHeaders::User),
            "-MP" => g.dep_phony = true,
            "-MG" => {}
            "-v" => g.verbose = true,
            "-save-temps" | "-save-temps=cwd" | "-save-temps=obj" => g.save_temps = true,
            "-dumpversion" | "-dumpfullversion" => g.query = Some(Query::DumpVersion),
            "-dumpmachine" => g.query = Some(Query::DumpMachine),
            "-Xlinker" => {
                let v = value("-Xlinker", "")?;
                g.linker_args.push((files.len(), v));
            }
            "-include" => g.pre_includes.push(value("-include", "")?.into()),
            "-isystem" | "-idirafter" => g.system_dirs.push(value(&s, "")?.into()),
            "-iquote" => g.quote_dirs.push(value("-iquote", "")?.into()),
            "--sysroot" => g.sysroot = Some(value("--sysroot", "")?.into()),
            "-o" | "-I" | "-D" | "-U" | "-l" | "-L" => {
                let v = value(&s, "")?;
                rest.push(a);
                rest.push(v.into());
            }
            _ if s.starts_with("-Wl,") => {
                for part in s[4..].split(',').filter(|p| !p.is_empty()) {
                    g.linker_args.push((files.len(), part.to_string()));
                }
            }
            _ if s.starts_with("-Wp,") => {
                // Preprocessor options, read as if given directly.
                let mut parts: Vec<&str> = s[4..].split(',').filter(|p| !p.is_empty()).collect();
                // `-Wp,-MD,FILE` is `-MD -MF FILE` (gcc's spelling for it).
                if matches!(parts.as_slice(), ["-MD" | "-MMD", _]) {
                    parts.insert(1, "-MF");
                }
                for p in parts.into_iter().rev() {
                    queue.push_front(p.into());
                }
            }
            _ if s.starts_with("-MF") => g.dep_file = Some(value("-MF", &s[3..])?.into()),
            _ if s.starts_with("-MT") => g.dep_targets.push(value("-MT", &s[3..])?),
            _ if s.starts_with("-MQ") => g.dep_targets.push(quote_make_target(&value("-MQ", &s[3..])?)),
            _ if s.starts_with("-x") => {
                let v = value("-x", &s[2..])?;
                lang = match v.as_str() {
                    "c" | "cpp-output" | "c-header" => Some(Lang::C),
                    "assembler" | "assembler-with-cpp" => Some(Lang::Assembler),
                    "none" => None,
                    _ => return Err(format!("language {v} not recognized")),
                };
            }
            _ if s.starts_with("-isystem") => g.system_dirs.push(s[8..].into()),
            _ if s.starts_with("-iquote") => g.quote_dirs.push(s[7..].into()),
            _ if s.starts_with("--sysroot=") => g.sysroot = Some(s[10..].into()),
            _ if s.starts_with("-print-file-name=") => g.query = Some(Query::PrintFileName(s[17..].into())),
            _ if s.starts_with("-print-prog-name=") => g.query = Some(Query::PrintProgName(s[17..].into())),
            _ if s.starts_with("--") => {
                // clap's own long options (`--target x` takes the next argument).
                let takes_value = !s.contains('=') && LONG_WITH_VALUE.contains(&s.as_str());
                rest.push(a);
                if takes_value {
                    if let Some(v) = queue.pop_front() {
                        rest.push(v);
                    }
                }
            }
            _ if is_clap_short(&s) || is_ignored(&s) => rest.push(a),
            _ if s.starts_with("-Wa,") => {
                return Err(format!(
                    "'{s}': assembler options are not supported (phicc assembles itself)"
                ))
            }
            _ => return Err(format!("unrecognized command-line option '{s}'")),
        }
    }
    Ok((rest, files, g))
}

/// Single-dash flags clap reads (`-E`, `-O2`, `-Iinclude`, ...).
fn is_clap_short(s: &str) -> bool {
    matches!(s, "-E" | "-S" | "-c" | "-w" | "-h" | "-V" | "-static" | "-O")
        || ["-O", "-o", "-I", "-D", "-U", "-l", "-L"]
            .iter()
            .any(|p| s.starts_with(p) && s.len() > 2)
}

/// Flags accepted and ignored (see the module doc).
fn is_ignored(s: &str) -> bool {
    matches!(s, "-pedantic" | "-pedantic-errors" | "-ansi" | "-pipe")
        || s.starts_with("-g")
        || (s.starts_with("-W") && !s.starts_with("-Wa,"))
        || s.starts_with("-std=")
        || s.starts_with("-m")
        || (s.starts_with("-f") && s.len() > 2)
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
            _ if s.starts_with("-fno-mem2reg=") => out.push(format!("--fno-mem2reg-in={}", &s[13..]).into()),
            _ if s.starts_with("-fopt-bisect-limit=") => out.push(format!("-{s}").into()),
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

/// Why a command line was rejected.
#[derive(Debug)]
pub enum CliError {
    /// clap's usage error (exit 2; `--help` and `--version` print through it).
    Usage(clap::Error),
    /// An unknown or incomplete gcc flag (exit 1, as gcc).
    Flag(String),
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

/// The target a cross driver's name selects, as gcc's and clang's do:
/// `aarch64-linux-gnu-phicc` (a link to phicc) compiles for AArch64 unless
/// `--target` says otherwise. `None` for plain `phicc` or an unknown prefix.
pub fn target_of_program_name(program: &std::ffi::OsStr) -> Option<String> {
    let name = std::path::Path::new(program).file_name()?.to_str()?;
    let prefix = name.strip_suffix("-phicc")?;
    crate::target::Target::from_name(prefix).map(|t| t.name().to_string())
}

/// Parses a command line (including the program name).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, CliError> {
    let (rest, files, gcc) = scan(args).map_err(CliError::Flag)?;
    let named_target = rest.first().and_then(|p| target_of_program_name(p));
    let matches = Cli::command()
        .try_get_matches_from(normalize_args(rest))
        .map_err(CliError::Usage)?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(CliError::Usage)?;
    cli.files = files;
    cli.gcc = gcc;
    if matches.value_source("target") == Some(clap::parser::ValueSource::DefaultValue) {
        if let Some(t) = named_target {
            cli.target = t;
        }
    }
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
    fn gcc_flags_are_scanned_in_place() {
        let c = p(&[
            "-Wp,-DX=1,-UY,-Iinc",
            "a.o",
            "-Wl,--start-group,-lfoo",
            "-x",
            "c",
            "b.txt",
            "-xnone",
            "c.c",
            "-Xlinker",
            "--end-group",
            "-MMD",
            "-MQ",
            "$@ x",
            "-isystemsys",
            "-include",
            "pre.h",
            "--target",
            "aarch64",
        ]);
        assert_eq!(c.files, ["a.o", "b.txt", "c.c"].map(PathBuf::from));
        assert_eq!(c.gcc.langs, vec![None, Some(Lang::C), None]);
        assert_eq!(
            c.gcc.linker_args,
            vec![
                (1, "--start-group".into()),
                (1, "-lfoo".into()),
                (3, "--end-group".into())
            ]
        );
        assert_eq!(c.macros_in_order, vec![(true, "X=1".into()), (false, "Y".into())]);
        assert_eq!(c.include, vec![PathBuf::from("inc")]);
        assert_eq!(c.gcc.dep_side, Some(DepHeaders::User));
        assert_eq!(c.gcc.dep_targets, vec!["$$@\\ x".to_string()]);
        assert_eq!(c.gcc.system_dirs, vec![PathBuf::from("sys")]);
        assert_eq!(c.gcc.pre_includes, vec![PathBuf::from("pre.h")]);
        assert_eq!(c.target, "aarch64");
        let err = |args: &[&str]| match parse(std::iter::once("phicc").chain(args.iter().copied()).map(OsString::from))
        {
            Err(CliError::Flag(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(err(&["-Q", "a.c"]), "unrecognized command-line option '-Q'");
        assert_eq!(err(&["a.c", "-include"]), "missing argument to '-include'");
        assert_eq!(err(&["-x", "fortran", "a.f"]), "language fortran not recognized");
    }

    #[test]
    fn a_cross_driver_name_selects_its_target() {
        let parse_as = |argv: &[&str]| parse(argv.iter().copied().map(OsString::from)).unwrap();
        assert_eq!(parse_as(&["/usr/bin/aarch64-linux-gnu-phicc", "x.c"]).target, "aarch64");
        assert_eq!(parse_as(&["riscv64-linux-gnu-phicc", "x.c"]).target, "riscv64");
        assert_eq!(
            parse_as(&["aarch64-linux-gnu-phicc", "--target=riscv64", "x.c"]).target,
            "riscv64"
        );
        assert_eq!(parse_as(&["phicc", "x.c"]).target, "x86_64");
        assert_eq!(parse_as(&["sparc-linux-gnu-phicc", "x.c"]).target, "x86_64");
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
