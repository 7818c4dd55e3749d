//! The gcc-like driver (`phicc`): options, target selection, C to IR, the
//! pass pipeline, then either the interpreter (`--run-ir`) or assembly and
//! the target's gcc to assemble and link.
//!
//! Configurations (docs/architecture.md#configurations) are rows of the pass table (`passes/mod.rs`):
//! `mem2reg` (the default; SSA construction, copy propagation, SSA
//! destruction) and `-fno-mem2reg` (`nomem2reg`: phi-elim alone, a no-op on
//! alloca form). `PHICC_DISABLE_PASSES=a,b` removes named passes from either,
//! and `--print-ir-after=P` takes `lowering`, any pass of the table, or
//! `all`. `PHICC_INJECT_BUG` / `--inject-bug` switch on injected bugs.
//! `-fopt-bisect-limit=N` runs only the first N pass applications
//! ([`crate::passes::OptBisect`]), numbered across all the files of one compile.
//!
//! Objects: modules without inline asm are assembled by the
//! integrated assembler (`backend::assemble_object`); anything else, or any
//! module when `PHICC_EXTERNAL_AS=1`, by the target's gcc from the `.s` text.
//!
//! Exit status: 0 success; 1 the program is ill-formed (a `file:line:col:
//! error:` diagnostic with the source line and a caret) or the assembler or
//! linker failed, or a gcc flag is unknown (as gcc); 2 bad command line
//! (clap's usage errors); 70 internal compiler error (a caught
//! panic, or IR that fails the verifier under `--verify-each`). `--run-ir`
//! exits with the program's status; a trap exits 134 and running out of fuel
//! 124, each with a message on standard error.
//!
//! gcc's driver flags (see `cli`): `-M`/`-MM` print a make rule instead
//! of compiling, `-MD`/`-MMD` write one beside it (gcc's mkdeps format);
//! `-Wl,`/`-Xlinker`, `-pthread`, `-rdynamic`, `-s`, `-pie`/`-no-pie` and
//! `--sysroot` reach the linking gcc; `-fPIC`/`-fpic` (and `-shared` for
//! the sources it compiles) emit position-independent code, reaching
//! preemptible symbols through the GOT and PLT; `-save-temps` keeps `.i`
//! and `.s`.
//!
//! [`compile_to_ir`] and [`pipeline_for`] are the library entry points the
//! test suites and the harness use to do in process what `phicc --run-ir` does.

pub mod cli;
pub mod toolchain;

use crate::backend::{BackendError, BackendErrorKind};
use crate::exit;
use crate::frontend::preprocess::{self, CmdlineMacro, PreprocessOptions};
use crate::frontend::source::{Diagnostic, SourceMap};
use crate::ir::interp::{self, RunConfig, RunResult};
use crate::ir::module::IrModule;
use crate::ir::text::print_module;
use crate::ir::verify::{verify_module, VerifyMode};
use crate::passes::{Configuration, OptBisect, PassKind, Pipeline};
use crate::target::Target;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What the frontend needs to compile one file.
#[derive(Clone, Debug)]
pub struct FrontendOptions {
    pub target: Target,
    pub include_dirs: Vec<PathBuf>,
    pub macros: Vec<CmdlineMacro>,
    /// `-iquote`, `-isystem`, `-include`, `--sysroot` (see `PreprocessOptions`).
    pub quote_dirs: Vec<PathBuf>,
    pub system_dirs: Vec<PathBuf>,
    pub pre_includes: Vec<PathBuf>,
    pub sysroot: Option<PathBuf>,
    /// Run the IR verifier on the lowered module (tests and the library
    /// default; the `phicc` driver only under `--verify-each`).
    pub verify: bool,
    /// Free the typed tree once lowered (the library default). The `phicc`
    /// driver exits right after compiling and leaves that memory to the
    /// operating system: freeing the trees node by node cost about a tenth
    /// of a compile. (The AST is freed during analysis either way, one
    /// external declaration at a time: the typed tree reuses its memory,
    /// and fresh pages cost more than the frees.)
    pub free_trees: bool,
}

impl FrontendOptions {
    pub fn new(target: Target) -> FrontendOptions {
        FrontendOptions {
            target,
            include_dirs: Vec::new(),
            macros: Vec::new(),
            quote_dirs: Vec::new(),
            system_dirs: Vec::new(),
            pre_includes: Vec::new(),
            sysroot: None,
            verify: true,
            free_trees: true,
        }
    }

    fn preprocess_options(&self) -> PreprocessOptions {
        PreprocessOptions {
            target: self.target,
            include_dirs: self.include_dirs.clone(),
            macros: self.macros.clone(),
            quote_dirs: self.quote_dirs.clone(),
            system_dirs: self.system_dirs.clone(),
            pre_includes: self.pre_includes.clone(),
            sysroot: self.sysroot.clone(),
        }
    }
}

/// A lowered file and its rendered warnings.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub module: IrModule,
    pub warnings: String,
    pub times: PhaseTimes,
    /// The headers the file read (for `-MD`).
    pub dependencies: Vec<preprocess::Dependency>,
}

/// Wall-clock time of each frontend phase of one file.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseTimes {
    pub preprocess: Duration,
    pub parse: Duration,
    pub sema: Duration,
    pub lower: Duration,
    pub verify: Duration,
}

/// Why a file did not compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The program is ill-formed: the rendered diagnostic (and any warnings before it).
    #[error("{0}")]
    Diagnostic(String),
    /// Lowering produced IR the verifier rejects (a compiler bug).
    #[error("{0}")]
    Internal(String),
}

fn render_all(ds: &[Diagnostic], sm: &SourceMap) -> String {
    ds.iter().map(|d| d.render(sm)).collect()
}

/// Preprocesses, parses, analyzes and lowers the C file at `path`; with
/// `opts.verify`, the IR is checked by the verifier (non-SSA form).
pub fn compile_to_ir(path: &Path, opts: &FrontendOptions) -> Result<Compiled, CompileError> {
    let mut sm = SourceMap::new();
    let mut times = PhaseTimes::default();
    let mut clock = Instant::now();
    let mut lap = |slot: &mut Duration| {
        let now = Instant::now();
        *slot = now - clock;
        clock = now;
    };
    let pp = crate::frontend::preprocess(&mut sm, path, &opts.preprocess_options())
        .map_err(|d| CompileError::Diagnostic(d.render(&sm)))?;
    lap(&mut times.preprocess);
    let mut warnings = pp.warnings;
    let dependencies = pp.dependencies;
    let tu = crate::frontend::parse_tokens(pp.tokens, opts.target)
        .map_err(|d| CompileError::Diagnostic(render_all(&warnings, &sm) + &d.render(&sm)))?;
    lap(&mut times.parse);
    let (program, sema_warnings) = crate::frontend::sema::analyze_consuming(tu, opts.target)
        .map_err(|d| CompileError::Diagnostic(render_all(&warnings, &sm) + &d.render(&sm)))?;
    warnings.extend(sema_warnings);
    lap(&mut times.sema);
    let module = crate::lower::lower_program(&program)
        .map_err(|d| CompileError::Diagnostic(render_all(&warnings, &sm) + &d.render(&sm)))?;
    lap(&mut times.lower);
    if !opts.free_trees {
        std::mem::forget(program);
    }
    if opts.verify {
        if let Err(e) = verify_module(&module, VerifyMode::NonSsa) {
            return Err(CompileError::Internal(format!(
                "lowering produced IR that does not verify:\n{e}"
            )));
        }
    }
    lap(&mut times.verify);
    Ok(Compiled {
        module,
        warnings: render_all(&warnings, &sm),
        times,
        dependencies,
    })
}

/// The pipeline of a configuration (`mem2reg` or `nomem2reg`) without the
/// passes named in `disabled`.
pub fn pipeline_for(mem2reg: bool, disabled: &[String]) -> Result<Pipeline, String> {
    let config = if mem2reg {
        Configuration::Mem2reg
    } else {
        Configuration::Nomem2reg
    };
    pipeline_for_configuration(config, disabled)
}

/// The passes of `config` without those named in `disabled` (each must be a
/// pass of the table).
pub fn pipeline_for_configuration(config: Configuration, disabled: &[String]) -> Result<Pipeline, String> {
    let mut p = Pipeline::for_configuration(config);
    for name in disabled {
        if PassKind::from_name(name).is_none() {
            let valid: Vec<&str> = PassKind::ALL.iter().map(|k| k.name()).collect();
            return Err(format!(
                "unknown pass `{name}` in PHICC_DISABLE_PASSES (valid: {})",
                valid.join(", ")
            ));
        }
    }
    p.passes.retain(|k| !disabled.iter().any(|d| d == k.name()));
    Ok(p)
}

/// Checks the names given to `--print-ir-after`: `lowering`, a pass of the
/// table, or `all`.
fn check_print_ir_after(names: &[String]) -> Result<(), Failure> {
    let known = |n: &str| n == "lowering" || n == "all" || PassKind::from_name(n).is_some();
    match names.iter().find(|n| !known(n)) {
        None => Ok(()),
        Some(bad) => {
            let valid: Vec<&str> = std::iter::once("lowering")
                .chain(PassKind::ALL.iter().map(|k| k.name()))
                .chain(std::iter::once("all"))
                .collect();
            Err(Failure {
                message: format!("unknown pass `{bad}` in --print-ir-after (valid: {})", valid.join(", ")),
                status: exit::USAGE,
            })
        }
    }
}

/// The pass names in `PHICC_DISABLE_PASSES`.
pub fn disabled_from_env() -> Vec<String> {
    std::env::var("PHICC_DISABLE_PASSES")
        .map(|s| {
            s.split(',')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// A failure that ends the driver: its message and exit status.
struct Failure {
    message: String,
    status: i32,
}

fn fail(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        status: exit::ERROR,
    }
}

fn ice(message: impl Into<String>) -> Failure {
    Failure {
        message: format!("phicc: internal compiler error: {}\n", message.into()),
        status: exit::ICE,
    }
}

/// A backend error while compiling `path`: a diagnostic for input the
/// backend cannot compile (the file is the best location the IR keeps), an
/// internal compiler error for a broken invariant.
fn backend_failure(path: &Path, e: &BackendError) -> Failure {
    match e.kind {
        BackendErrorKind::Unsupported => Failure {
            message: format!("{}: error: {e}\n", path.display()),
            status: e.exit_status(),
        },
        BackendErrorKind::Internal => ice(e.to_string()),
    }
}

/// What [`build_configuration`] made of one module.
#[derive(Clone, Debug)]
pub struct Built {
    /// The assembly `phicc -S` writes.
    pub assembly: String,
    /// The object `phicc -c` writes, when the integrated assembler took the
    /// module (`None`: the target's assembler must assemble `assembly`).
    pub object: Option<Vec<u8>>,
    /// The passes' counters (what `--stats` prints).
    pub stats: crate::passes::pipeline::PassStats,
}

/// A failed build as the `phicc` binary reports it: its exit status
/// ([`exit::ERROR`], [`exit::ICE`], ...) and what it prints on stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildFailure {
    pub status: i32,
    pub message: String,
}

/// The middle and back end of `phicc -S`/`-c` on a C file whose module the
/// frontend already made, for callers that lower a file once and build it in
/// several configurations (the oracle's in-process compiles): `config`'s
/// pipeline without the passes of `PHICC_DISABLE_PASSES`, the verifier after
/// every pass and the backend's precondition when `verify_each`
/// (`--verify-each`), the backend, and the integrated assembler where it
/// applies. It does what `drive` does for one C file without `-fPIC`,
/// `-fopt-bisect-limit` or IR printing; the oracle's tests compare the two.
pub fn build_configuration(
    path: &Path,
    mut m: IrModule,
    config: Configuration,
    verify_each: bool,
    target: Target,
) -> Result<Built, BuildFailure> {
    let to_build = |f: Failure| BuildFailure {
        status: f.status,
        message: f.message,
    };
    let mut p = pipeline_for_configuration(config, &disabled_from_env()).map_err(|e| to_build(fail(e)))?;
    p.verify_each = verify_each;
    let stats = p
        .run(&mut m, &mut |_, _| {})
        .map_err(|e| to_build(ice(e.to_string())))?;
    if verify_each {
        crate::backend::check_precondition(&m).map_err(|e| to_build(ice(e.to_string())))?;
    }
    let assembly = crate::backend::emit_verified_assembly_with(&m, target, crate::backend::EmitOptions { pic: false })
        .map_err(|e| to_build(backend_failure(path, &e)))?;
    let object = crate::backend::assemble_object(&m, &assembly, target);
    Ok(Built {
        assembly,
        object,
        stats,
    })
}

/// A panic's message and place (`msg at file:line`), as an internal
/// compiler error reports it.
pub fn panic_message(info: &std::panic::PanicHookInfo<'_>) -> String {
    let msg = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string());
    let loc = info
        .location()
        .map(|l| format!(" at {}:{}", l.file(), l.line()))
        .unwrap_or_default();
    format!("{msg}{loc}")
}

/// Runs `phicc` with these arguments (program name first) and returns the
/// exit status. Panics are caught and reported as internal compiler errors;
/// the work runs on a thread with a large stack, so deep nesting in a
/// program is not a crash.
pub fn main(args: Vec<OsString>) -> i32 {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("phicc: internal compiler error: {}", panic_message(info));
    }));
    let worker = std::thread::Builder::new()
        .name("phicc".into())
        .stack_size(1 << 30)
        .spawn(move || real_main(args));
    match worker.map(|h| h.join()) {
        Ok(Ok(status)) => status,
        Ok(Err(_)) => exit::ICE,
        Err(e) => {
            eprintln!("phicc: internal compiler error: cannot start the compiler thread: {e}");
            exit::ICE
        }
    }
}

fn real_main(args: Vec<OsString>) -> i32 {
    let cli = match cli::parse(args) {
        Ok(c) => c,
        Err(cli::CliError::Usage(e)) => {
            let _ = e.print();
            return if e.use_stderr() { exit::USAGE } else { exit::SUCCESS };
        }
        Err(cli::CliError::Flag(m)) => {
            eprintln!("phicc: error: {m}");
            return exit::ERROR;
        }
    };
    match drive(&cli) {
        Ok(status) => status,
        Err(f) => {
            let m = &f.message;
            if !m.is_empty() {
                if m.ends_with('\n') {
                    eprint!("{m}");
                } else if m.starts_with("phicc:") {
                    eprintln!("{m}");
                } else {
                    eprintln!("phicc: error: {m}");
                }
            }
            f.status
        }
    }
}

fn frontend_options(cli: &cli::Cli, target: Target) -> FrontendOptions {
    let macros = cli
        .macros_in_order
        .iter()
        .map(|(is_define, v)| {
            if *is_define {
                match v.split_once('=') {
                    Some((n, val)) => CmdlineMacro::Define(n.to_string(), val.to_string()),
                    None => CmdlineMacro::Define(v.clone(), "1".to_string()),
                }
            } else {
                CmdlineMacro::Undef(v.clone())
            }
        })
        .collect();
    FrontendOptions {
        target,
        include_dirs: cli.include.clone(),
        macros,
        quote_dirs: cli.gcc.quote_dirs.clone(),
        system_dirs: cli.gcc.system_dirs.clone(),
        pre_includes: cli.gcc.pre_includes.clone(),
        sysroot: cli.gcc.sysroot.clone(),
        verify: cli.verify_each || cli.syntax_only,
        free_trees: false,
    }
}

fn is_c_source(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "c" || e == "i")
}

fn is_asm_source(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "s" || e == "S")
}

/// The language of input `i`: its `-x`, else its extension.
fn lang_of(cli: &cli::Cli, i: usize) -> Option<cli::Lang> {
    let f = &cli.files[i];
    match cli.gcc.langs.get(i).copied().flatten() {
        Some(l) => Some(l),
        None if is_c_source(f) => Some(cli::Lang::C),
        None if is_asm_source(f) => Some(cli::Lang::Assembler),
        None => None,
    }
}

/// The make rule `-M` and `-MD` write, as gcc's mkdeps does: targets, `:`,
/// the source and its headers, lines broken before 72 columns, then with
/// `-MP` an empty rule per header.
fn dependency_rule(
    targets: &[String],
    source: &Path,
    deps: &[preprocess::Dependency],
    headers: cli::DepHeaders,
    phony: bool,
) -> String {
    const COLMAX: usize = 72;
    let mut out = String::new();
    let mut col = 0;
    let write = |out: &mut String, name: &str, col: &mut usize| {
        if *col > 0 {
            if *col + name.len() > COLMAX {
                out.push_str(" \\\n");
                *col = 0;
            }
            *col += 1;
            out.push(' ');
        }
        *col += name.len();
        out.push_str(name);
    };
    for t in targets {
        write(&mut out, t, &mut col);
    }
    out.push(':');
    col += 1;
    let names: Vec<String> = std::iter::once(source.to_string_lossy().into_owned())
        .chain(
            deps.iter()
                .filter(|d| headers == cli::DepHeaders::All || !d.system)
                .map(|d| d.path.to_string_lossy().into_owned()),
        )
        .map(|n| cli::quote_make_target(&n))
        .collect();
    for n in &names {
        write(&mut out, n, &mut col);
    }
    out.push('\n');
    if phony {
        for n in &names[1..] {
            out.push_str(n);
            out.push_str(":\n");
        }
    }
    out
}

/// The targets of a dependency rule: `-MT`/`-MQ`, else `default`.
fn dependency_targets(cli: &cli::Cli, default: &Path) -> Vec<String> {
    if cli.gcc.dep_targets.is_empty() {
        vec![cli::quote_make_target(&default.to_string_lossy())]
    } else {
        cli.gcc.dep_targets.clone()
    }
}

/// `-MD`/`-MMD`: writes the rule of source `src` whose output is `out`
/// to `-MF`, else `out` with its extension replaced by `.d`.
fn write_side_dependencies(
    cli: &cli::Cli,
    src: &Path,
    out: &Path,
    deps: &[preprocess::Dependency],
) -> Result<(), Failure> {
    let Some(headers) = cli.gcc.dep_side else {
        return Ok(());
    };
    let file = cli.gcc.dep_file.clone().unwrap_or_else(|| out.with_extension("d"));
    let rule = dependency_rule(&dependency_targets(cli, out), src, deps, headers, cli.gcc.dep_phony);
    std::fs::write(&file, rule).map_err(|e| fail(format!("cannot write {}: {e}", file.display())))
}

/// `-dumpversion`, `-dumpmachine`, `-print-file-name=`, `-print-prog-name=`.
fn answer_query(q: &cli::Query, target: Target, sysroot: Option<&Path>) -> Result<i32, Failure> {
    let text = match q {
        cli::Query::DumpVersion => format!(
            "{}.{}.0",
            crate::frontend::predefined::GNUC,
            crate::frontend::predefined::GNUC_MINOR
        ),
        cli::Query::DumpMachine => target.triple().to_string(),
        // Libraries and programs are the target's gcc's: ask it.
        cli::Query::PrintFileName(name) | cli::Query::PrintProgName(name) => {
            let flag = match q {
                cli::Query::PrintFileName(_) => "-print-file-name=",
                _ => "-print-prog-name=",
            };
            let mut cmd = std::process::Command::new(target.gcc());
            if let Some(root) = sysroot {
                cmd.arg(format!("--sysroot={}", root.display()));
            }
            let out = cmd
                .arg(format!("{flag}{name}"))
                .output()
                .map_err(|e| fail(format!("cannot run {}: {e}", target.gcc())))?;
            String::from_utf8_lossy(&out.stdout).trim_end().to_string()
        }
    };
    write_output(None, &format!("{text}\n"))?;
    Ok(0)
}

fn write_output(path: Option<&Path>, text: &str) -> Result<(), Failure> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::write(p, text).map_err(|e| fail(format!("cannot write {}: {e}", p.display())))
        }
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| fail(format!("cannot write standard output: {e}")))
        }
    }
}

fn drive(cli: &cli::Cli) -> Result<i32, Failure> {
    let target: Target = cli.target.parse().map_err(fail)?;
    configuration(cli)?;
    if let Some(name) = &cli.print_target_info {
        let t = if name.is_empty() {
            target
        } else {
            name.parse().map_err(fail)?
        };
        write_output(None, &t.describe())?;
        return Ok(0);
    }
    if let Some(list) = &cli.inject_bug {
        let bugs = crate::inject::parse_bug_list(list).map_err(fail)?;
        crate::inject::set_injected(&bugs).map_err(fail)?;
    }
    if let Some(q) = &cli.gcc.query {
        return answer_query(q, target, cli.gcc.sysroot.as_deref());
    }
    if cli.gcc.verbose {
        eprintln!(
            "phicc version {} (gcc {}.{} compatible)\nTarget: {}",
            env!("CARGO_PKG_VERSION"),
            crate::frontend::predefined::GNUC,
            crate::frontend::predefined::GNUC_MINOR,
            target.triple()
        );
        if cli.files.is_empty() {
            return Ok(0);
        }
    }
    check_print_ir_after(&cli.print_ir_after)?;
    if cli.files.is_empty() {
        return Err(fail("no input files"));
    }
    let fe = frontend_options(cli, target);
    let c_files: Vec<&PathBuf> = (0..cli.files.len())
        .filter(|&i| lang_of(cli, i) == Some(cli::Lang::C))
        .map(|i| &cli.files[i])
        .collect();

    if let Some(headers) = cli.gcc.dep_only {
        // -M / -MM: the rule instead of the preprocessed text.
        let mut all = String::new();
        for f in &c_files {
            let mut sm = SourceMap::new();
            let pp =
                preprocess::preprocess_file(&mut sm, f, &fe.preprocess_options()).map_err(|d| fail(d.render(&sm)))?;
            let stem = f
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let targets = dependency_targets(cli, Path::new(&format!("{stem}.o")));
            all.push_str(&dependency_rule(
                &targets,
                f,
                &pp.dependencies,
                headers,
                cli.gcc.dep_phony,
            ));
        }
        let out = cli.gcc.dep_file.as_deref().or(cli.output.as_deref());
        write_output(out, &all)?;
        return Ok(0);
    }
    let single_output = cli.preprocess_only || cli.emit_ir || cli.assembly_only || cli.compile_only;
    if cli.output.is_some() && single_output && cli.files.len() > 1 && !cli.preprocess_only {
        return Err(fail("cannot specify -o with -c, -S or --emit-ir and multiple files"));
    }

    if cli.preprocess_only {
        let mut all = String::new();
        for f in &cli.files {
            let mut sm = SourceMap::new();
            let pp =
                preprocess::preprocess_file(&mut sm, f, &fe.preprocess_options()).map_err(|d| fail(d.render(&sm)))?;
            if !cli.no_warnings {
                eprint!("{}", render_all(&pp.warnings, &sm));
            }
            all.push_str(&preprocess::print_tokens(&pp.tokens));
            if !all.ends_with('\n') {
                all.push('\n');
            }
        }
        write_output(cli.output.as_deref(), &all)?;
        return Ok(exit::SUCCESS);
    }

    if cli.syntax_only {
        for f in &c_files {
            compile_one(cli, f, &fe)?;
        }
        return Ok(exit::SUCCESS);
    }

    if cli.run_ir || cli.emit_ir {
        if c_files.len() != 1 || cli.files.len() != 1 {
            return Err(fail("--run-ir and --emit-ir take exactly one C file"));
        }
        let mut m = compile_one(cli, c_files[0], &fe)?;
        if cli.emit_ir {
            write_output(cli.output.as_deref(), &print_module(&m))?;
            return Ok(exit::SUCCESS);
        }
        run_pipeline(cli, &mut m, &mut 0)?;
        return run_ir(cli, &m);
    }

    // Compile to assembly, objects, or an executable.
    let temp = tempfile::Builder::new()
        .prefix("phicc")
        .tempdir()
        .map_err(|e| fail(format!("cannot create a temporary directory: {e}")))?;
    let mut objects: Vec<PathBuf> = Vec::new();
    // -fopt-bisect-limit numbers the applications across all files of the compile.
    let mut bisect_counted = 0;
    for (i, f) in cli.files.iter().enumerate() {
        let stem = f
            .file_stem()
            .map_or_else(|| format!("in{i}"), |s| s.to_string_lossy().into_owned());
        let lang = lang_of(cli, i);
        if lang == Some(cli::Lang::C) {
            if cli.gcc.save_temps {
                let mut sm = SourceMap::new();
                let pp = preprocess::preprocess_file(&mut sm, f, &fe.preprocess_options())
                    .map_err(|d| fail(d.render(&sm)))?;
                write_output(
                    Some(Path::new(&format!("{stem}.i"))),
                    &preprocess::print_tokens(&pp.tokens),
                )?;
            }
            let (mut m, deps) = compile_one_with_deps(cli, f, &fe)?;
            let dep_out = match &cli.output {
                Some(o) if cli.files.len() == 1 || cli.assembly_only || cli.compile_only => o.clone(),
                _ => PathBuf::from(format!("{stem}.o")),
            };
            write_side_dependencies(cli, f, &dep_out, &deps)?;
            let t0 = Instant::now();
            run_pipeline(cli, &mut m, &mut bisect_counted)?;
            let t1 = Instant::now();
            // Under --verify-each the backend's precondition (verified, phi-free
            // IR) is checked too; IR our own passes broke is an internal error,
            // not a property of the program. Without it the test suites verify,
            // and the backend's own invariant checks still report an ICE.
            if cli.verify_each {
                crate::backend::check_precondition(&m).map_err(|e| ice(e.to_string()))?;
            }
            let emit = crate::backend::EmitOptions {
                pic: cli.gcc.pic || cli.gcc.shared,
            };
            let asm =
                crate::backend::emit_verified_assembly_with(&m, target, emit).map_err(|e| backend_failure(f, &e))?;
            let t2 = Instant::now();
            let report = |assemble: Duration| {
                if cli.time_phases {
                    eprintln!(
                        "phicc: times (s): passes {:.6} backend {:.6} assemble {:.6}",
                        (t1 - t0).as_secs_f64(),
                        (t2 - t1).as_secs_f64(),
                        assemble.as_secs_f64()
                    );
                }
            };
            if cli.assembly_only {
                let out = cli.output.clone().unwrap_or_else(|| PathBuf::from(format!("{stem}.s")));
                write_output(Some(&out), &asm)?;
                report(Duration::ZERO);
                continue;
            }
            if cli.gcc.save_temps {
                write_output(Some(Path::new(&format!("{stem}.s"))), &asm)?;
            }
            let obj = if cli.compile_only {
                cli.output.clone().unwrap_or_else(|| PathBuf::from(format!("{stem}.o")))
            } else {
                temp.path().join(format!("{i}-{stem}.o"))
            };
            let t3 = Instant::now();
            // The integrated assembler when it can; the target's gcc otherwise.
            match crate::backend::assemble_object(&m, &asm, target) {
                Some(bytes) => {
                    std::fs::write(&obj, bytes).map_err(|e| fail(format!("cannot write {}: {e}", obj.display())))?
                }
                None => {
                    let s_path = temp.path().join(format!("{i}-{stem}.s"));
                    std::fs::write(&s_path, &asm)
                        .map_err(|e| fail(format!("cannot write {}: {e}", s_path.display())))?;
                    toolchain::assemble(target, &s_path, &obj).map_err(fail)?;
                }
            }
            report(t3.elapsed());
            objects.push(obj);
        } else if lang == Some(cli::Lang::Assembler) {
            if cli.assembly_only {
                continue;
            }
            let obj = if cli.compile_only {
                cli.output.clone().unwrap_or_else(|| PathBuf::from(format!("{stem}.o")))
            } else {
                temp.path().join(format!("{i}-{stem}.o"))
            };
            toolchain::assemble(target, f, &obj).map_err(fail)?;
            objects.push(obj);
        } else {
            // Objects and archives go to the linker.
            objects.push(f.clone());
        }
    }
    if cli.assembly_only || cli.compile_only {
        return Ok(exit::SUCCESS);
    }
    let output = cli.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
    let mut flags: Vec<String> = Vec::new();
    for (on, flag) in [
        (cli.gcc.shared, "-shared"),
        (cli.gcc.pthread, "-pthread"),
        (cli.gcc.rdynamic, "-rdynamic"),
        (cli.gcc.strip, "-s"),
        (cli.gcc.pie == Some(true), "-pie"),
        (cli.gcc.pie == Some(false), "-no-pie"),
    ] {
        if on {
            flags.push(flag.to_string());
        }
    }
    if let Some(root) = &cli.gcc.sysroot {
        flags.push(format!("--sysroot={}", root.display()));
    }
    toolchain::link(&toolchain::LinkJob {
        target,
        inputs: &objects,
        output: &output,
        static_link: cli.static_link,
        libs: &cli.libs,
        lib_dirs: &cli.lib_dirs,
        linker_args: &cli.gcc.linker_args,
        flags: &flags,
        verbose: cli.gcc.verbose,
    })
    .map_err(fail)?;
    Ok(exit::SUCCESS)
}

/// C file to IR, printing warnings and `--print-ir-after=lowering`.
fn compile_one(cli: &cli::Cli, path: &Path, fe: &FrontendOptions) -> Result<IrModule, Failure> {
    compile_one_with_deps(cli, path, fe).map(|(m, _)| m)
}

/// [`compile_one`], also returning the headers the file read.
fn compile_one_with_deps(
    cli: &cli::Cli,
    path: &Path,
    fe: &FrontendOptions,
) -> Result<(IrModule, Vec<preprocess::Dependency>), Failure> {
    match compile_to_ir(path, fe) {
        Ok(c) => {
            if !cli.no_warnings {
                eprint!("{}", c.warnings);
            }
            if cli.time_phases {
                let t = c.times;
                eprintln!(
                    "phicc: times (s): preprocess {:.6} parse {:.6} sema {:.6} lower {:.6} verify {:.6}",
                    t.preprocess.as_secs_f64(),
                    t.parse.as_secs_f64(),
                    t.sema.as_secs_f64(),
                    t.lower.as_secs_f64(),
                    t.verify.as_secs_f64()
                );
            }
            if cli.print_ir_after.iter().any(|p| p == "lowering" || p == "all") {
                eprintln!("; *** IR after lowering ***\n{}", print_module(&c.module));
            }
            Ok((c.module, c.dependencies))
        }
        Err(CompileError::Diagnostic(text)) => Err(Failure {
            message: text,
            status: exit::ERROR,
        }),
        Err(CompileError::Internal(text)) => Err(ice(text)),
    }
}

/// The configuration the command line selects (docs/architecture.md#configurations):
/// `-fno-mem2reg` gives `nomem2reg` whatever the `-O` level; `-O1` and above
/// (`-O2`, `-O3`, `-Os`, ...) give `opt`; none or `-O0` the default, `mem2reg`.
fn configuration(cli: &cli::Cli) -> Result<Configuration, Failure> {
    let optimize = match cli.opt.as_deref() {
        None => false,
        Some(level) => cli::opt_level_optimizes(level).ok_or_else(|| {
            fail(format!(
                "argument to '-O' should be a non-negative integer, 's', 'z', 'g' or 'fast', not `{level}`"
            ))
        })?,
    };
    Ok(if cli.no_mem2reg {
        Configuration::Nomem2reg
    } else if optimize {
        Configuration::Opt
    } else {
        Configuration::DEFAULT
    })
}

/// Runs the configuration's passes over `m`; `bisect_counted` carries the
/// `-fopt-bisect-limit` numbering from one file to the next.
fn run_pipeline(cli: &cli::Cli, m: &mut IrModule, bisect_counted: &mut u64) -> Result<(), Failure> {
    let config = configuration(cli)?;
    let mut p = pipeline_for_configuration(config, &disabled_from_env()).map_err(fail)?;
    p.verify_each = cli.verify_each;
    if cli.no_mem2reg_in.iter().any(|n| n.is_empty()) {
        return Err(fail("-fno-mem2reg=: expected a comma-separated list of function names"));
    }
    p.keep_out_of_ssa = cli.no_mem2reg_in.clone();
    p.bisect = cli.opt_bisect_limit.map(|n| OptBisect {
        counted: *bisect_counted,
        ..OptBisect::with_limit(n)
    });
    let print_after = &cli.print_ir_after;
    let mut hook = |pass: &str, m: &IrModule| {
        if print_after.iter().any(|p| p == pass || p == "all") {
            eprintln!("; *** IR after {pass} ***\n{}", print_module(m));
        }
    };
    let stats = p.run(m, &mut hook).map_err(|e| ice(e.to_string()))?;
    *bisect_counted = stats.bisect_counted;
    Ok(())
}

fn run_ir(cli: &cli::Cli, m: &IrModule) -> Result<i32, Failure> {
    if m.function("main").is_none_or(|f| f.is_declaration) {
        return Err(fail("--run-ir: the program has no definition of main"));
    }
    let outcome = interp::run(
        m,
        &RunConfig {
            entry: "main".into(),
            args: Vec::new(),
            schedule_seed: cli.schedule,
            fuel: cli.fuel,
        },
    );
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&outcome.stdout);
    let _ = out.flush();
    for e in &outcome.events {
        if e.name == "stderr" {
            if let Some(text) = e.args.first() {
                eprint!("{}", unquote(text));
            }
        }
    }
    let ret_bits = m.function("main").map_or(32, |f| f.return_type.bits().max(1));
    Ok(match outcome.result {
        RunResult::Returned(Some(v)) => (crate::ir::constants::sext(v, ret_bits) as i32) & 0xff,
        RunResult::Returned(None) => 0,
        RunResult::Exited(s) => s & 0xff,
        RunResult::Trap(t) => {
            eprintln!("phicc: --run-ir: the program trapped: {t}");
            exit::TRAP
        }
        RunResult::OutOfFuel => {
            eprintln!(
                "phicc: --run-ir: out of fuel after {} instructions (see --fuel)",
                cli.fuel
            );
            exit::OUT_OF_FUEL
        }
    })
}

/// The text of a `stderr("...")` event argument (Rust `Debug` quoting).
fn unquote(s: &str) -> String {
    let inner = s.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(s);
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(o) => out.push(o),
            None => {}
        }
    }
    out
}
