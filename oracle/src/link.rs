//! Static links without the gcc driver: the linker command that
//! `gcc -static` would run, read once per target from `gcc -static -###`,
//! and the fast path the campaigns use, *prelinked start files*.
//!
//! A static link of a small program spends most of its time on the C
//! library: scanning `libc.a` for the members the program needs, then
//! reading and relocating them. Programs from one generator need the same
//! few library functions (Csmith's: `printf` and `strcmp`), so this module
//! links the start files (`crt1.o`, `crti.o`, `crtbeginT.o`) and the archive
//! members that a program's undefined symbols pull in into one relocatable
//! object once (`ld -r -u SYMBOL ...`), keeps it per set of undefined
//! symbols, and links each program as `ld PRELINKED.o PROGRAM.o crtend.o
//! crtn.o`. The binary holds the same code as the driver's link, with the
//! program's sections after the library's instead of before them; the
//! program still sits between `crtbeginT.o` and `crtend.o`, so its
//! `.eh_frame` and `.ctors` entries stay inside the lists those files open
//! and close.
//!
//! The archive members `ld -r` pulls are those the full link pulls, except
//! when the program itself defines a symbol some member defines (its own
//! `malloc`, say: the full link would not have pulled that member for it).
//! That case is detected (the program defines a symbol the prelinked object
//! defines) and such a program takes the full link instead.
//!
//! The final link uses BFD `ld`: gold links the same objects into binaries
//! that crash at start-up (it mishandles the relocatable C library), while
//! BFD on the prelinked object is faster than gold on the archives anyway
//! (Csmith program, per link: x86-64 gold 24 ms vs 11 ms; AArch64 27 vs 16;
//! RISC-V, BFD without relaxation, 66 vs 23).

use crate::target::Target;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// What one word of the driver's linker command is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// An option (emulation, `-static`, `--build-id`, ...).
    Flag,
    /// The output file (after `-o`).
    Output,
    /// A start file before the program (`crt1.o`, `crti.o`, `crtbeginT.o`).
    Head,
    /// The program's object.
    Object,
    /// A library search directory, library or group marker.
    Library,
    /// A start file after the program (`crtend.o`, `crtn.o`).
    Tail,
}

/// The target driver's static link command, word by word.
#[derive(Clone, Debug)]
struct Template {
    /// The target's BFD `ld`.
    bfd: String,
    /// The target's gold, where its binutils have it.
    gold: Option<String>,
    words: Vec<(Role, String)>,
    /// `--no-relax` first (RISC-V; see [`full_command`]).
    no_relax: bool,
}

const OUT: &str = "/oracle-link-output";
const OBJ: &str = "/oracle-link-input.o";

/// The template of `target`, read once per process.
fn template(target: Target) -> Result<Arc<Template>, String> {
    static TEMPLATES: OnceLock<Mutex<HashMap<Target, Arc<Template>>>> = OnceLock::new();
    let templates = TEMPLATES.get_or_init(Default::default);
    if let Some(t) = templates.lock().unwrap().get(&target) {
        return Ok(t.clone());
    }
    let t = Arc::new(read_template(target)?);
    templates.lock().unwrap().insert(target, t.clone());
    Ok(t)
}

/// The collect2 line of `gcc -static -### -o OUT OBJ -lm`, with the LTO
/// plugin options left out and every word classified.
fn read_template(target: Target) -> Result<Template, String> {
    let gcc = target.gcc();
    let o = std::process::Command::new(gcc)
        .args(["-static", "-###", "-o", OUT, OBJ, "-lm"])
        .output()
        .map_err(|e| format!("cannot run {gcc}: {e}"))?;
    let text = String::from_utf8_lossy(&o.stderr);
    let line = text
        .lines()
        .find(|l| l.contains("collect2") && !l.starts_with("COLLECT"))
        .ok_or_else(|| format!("`{gcc} -static -###` shows no link command"))?;
    let mut words = line.split_whitespace().map(|w| w.trim_matches('"').to_string());
    words.next(); // collect2 itself
    let mut out = Vec::new();
    let mut seen_object = false;
    let mut skip_next = false;
    for w in words {
        if skip_next {
            skip_next = false;
            continue;
        }
        if w == "-plugin" {
            skip_next = true;
            continue;
        }
        if w.starts_with("-plugin-opt") {
            continue;
        }
        let role = if w == OUT {
            Role::Output
        } else if w == OBJ {
            seen_object = true;
            Role::Object
        } else if w.starts_with("-L") || w.starts_with("-l") || w == "--start-group" || w == "--end-group" {
            Role::Library
        } else if !w.starts_with('-') && w.ends_with(".o") {
            if seen_object {
                Role::Tail
            } else {
                Role::Head
            }
        } else {
            Role::Flag
        };
        out.push((role, w));
    }
    if !seen_object {
        return Err(format!("`{gcc} -static -###` does not link the object"));
    }
    let prefix = gcc.strip_suffix("gcc").unwrap_or("");
    let gold = format!("{prefix}ld.gold");
    Ok(Template {
        bfd: format!("{prefix}ld"),
        gold: crate::runner::on_path(&gold).then_some(gold),
        words: out,
        no_relax: target == Target::Riscv64,
    })
}

/// Whether the target's binutils have gold.
pub fn has_gold(target: Target) -> bool {
    template(target).is_ok_and(|t| t.gold.is_some())
}

/// The driver's link of `object` into `out`, run by gold when `gold` and
/// the target has it, else by BFD `ld`. On RISC-V `--no-relax` comes first:
/// BFD's relaxation passes are a third of a static link (95 vs 62 ms for a
/// Csmith program), and phicc's integrated assembler leaves nothing to
/// relax, so this changes only libc's code, which keeps its unrelaxed
/// (equally correct) call and address sequences.
pub fn full_command(target: Target, gold: bool, object: &Path, out: &Path) -> Result<(String, Vec<String>), String> {
    let t = template(target)?;
    let program = match (&t.gold, gold) {
        (Some(g), true) => g.clone(),
        _ => t.bfd.clone(),
    };
    let mut args: Vec<String> = Vec::new();
    if t.no_relax {
        args.push("--no-relax".into());
    }
    args.extend(t.words.iter().map(|(role, w)| match role {
        Role::Output => out.display().to_string(),
        Role::Object => object.display().to_string(),
        _ => w.clone(),
    }));
    Ok((program, args))
}

/// The symbols of an ELF object that matter for archive resolution.
struct Symbols {
    /// Global, non-weak undefined symbols: each pulls an archive member.
    undefined: Vec<String>,
    /// Global or weak definitions, common symbols included.
    defined: HashSet<String>,
}

fn symbols(path: &Path) -> Result<Symbols, String> {
    use object::read::elf::ElfFile64;
    use object::{Endianness, Object, ObjectSymbol};
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = ElfFile64::<Endianness>::parse(&*data).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut undefined = Vec::new();
    let mut defined = HashSet::new();
    for s in file.symbols() {
        let Ok(name) = s.name() else { continue };
        if name.is_empty() || s.is_local() {
            continue;
        }
        if s.is_undefined() {
            if !s.is_weak() {
                undefined.push(name.to_string());
            }
        } else {
            defined.insert(name.to_string());
        }
    }
    undefined.sort();
    undefined.dedup();
    Ok(Symbols { undefined, defined })
}

/// One prelinked object: the start files and the archive members a set of
/// undefined symbols pulls.
#[derive(Debug)]
struct Prelinked {
    path: PathBuf,
    defined: HashSet<String>,
}

/// The prelinked objects of one campaign, in a directory removed with the
/// last [`crate::toolchain::Toolchain`] that shares it.
#[derive(Default)]
pub struct PrelinkCache {
    dir: OnceLock<Result<tempfile::TempDir, String>>,
    #[allow(clippy::type_complexity)]
    made: Mutex<HashMap<(Target, Vec<String>), Result<Arc<Prelinked>, String>>>,
}

impl std::fmt::Debug for PrelinkCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.made.lock().map(|m| m.len()).unwrap_or(0);
        write!(f, "PrelinkCache({n} objects)")
    }
}

impl PrelinkCache {
    /// The prelinked object for `target` and these undefined symbols, made
    /// on first use (under the lock: two workers never make the same one).
    fn get(&self, target: Target, undefined: &[String]) -> Result<Arc<Prelinked>, String> {
        let key = (target, undefined.to_vec());
        let mut made = self.made.lock().unwrap();
        if let Some(p) = made.get(&key) {
            return p.clone();
        }
        let result = self.make(target, undefined, made.len()).map(Arc::new);
        made.insert(key, result.clone());
        result
    }

    fn make(&self, target: Target, undefined: &[String], index: usize) -> Result<Prelinked, String> {
        let t = template(target)?;
        let dir = self
            .dir
            .get_or_init(|| {
                tempfile::Builder::new()
                    .prefix("phicc-prelink-")
                    .tempdir()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| e.clone())?;
        let path = dir.path().join(format!("{target}-{index}.o"));
        // Only the options `ld -r` needs: the emulation and endianness, and
        // -static/-Bstatic so that -lc finds libc.a.
        let mut args = vec!["-r".to_string(), "-o".to_string(), path.display().to_string()];
        let mut words = t.words.iter().peekable();
        while let Some((role, w)) = words.next() {
            match role {
                Role::Flag if w == "-m" => {
                    args.push(w.clone());
                    if let Some((_, v)) = words.next() {
                        args.push(v.clone());
                    }
                }
                Role::Flag if (w.starts_with("-m") && !w.starts_with("-mllvm")) || w == "-EL" || w == "-EB" => {
                    args.push(w.clone())
                }
                Role::Flag if w == "-static" || w == "-Bstatic" || w.starts_with("--sysroot") => args.push(w.clone()),
                Role::Head | Role::Library => args.push(w.clone()),
                _ => {}
            }
        }
        let mut command = vec![];
        for u in undefined {
            command.push("-u".to_string());
            command.push(u.clone());
        }
        command.extend(args);
        let o = std::process::Command::new(&t.bfd)
            .args(&command)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", t.bfd))?;
        if !o.status.success() {
            return Err(format!(
                "{} -r failed: {}",
                t.bfd,
                String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or("")
            ));
        }
        let defined = symbols(&path)?.defined;
        Ok(Prelinked { path, defined })
    }

    /// The link of `object` into `out` on the prelinked start files, or
    /// `None` where it would not be the driver's link (the program defines
    /// a symbol the prelinked object defines) or no prelinked object could
    /// be made: then the caller links in full.
    pub fn command(&self, target: Target, object: &Path, out: &Path) -> Option<(String, Vec<String>)> {
        let t = template(target).ok()?;
        let syms = symbols(object).ok()?;
        let pre = self.get(target, &syms.undefined).ok()?;
        if syms.defined.iter().any(|s| pre.defined.contains(s)) {
            return None;
        }
        let mut args: Vec<String> = Vec::new();
        if t.no_relax {
            args.push("--no-relax".into());
        }
        let mut placed = false;
        for (role, w) in &t.words {
            match role {
                Role::Output => args.push(out.display().to_string()),
                Role::Object => args.push(object.display().to_string()),
                Role::Head if !placed => {
                    placed = true;
                    args.push(pre.path.display().to_string());
                }
                Role::Head => {}
                Role::Library if !w.starts_with("-L") => {}
                _ => args.push(w.clone()),
            }
        }
        Some((t.bfd.clone(), args))
    }
}
