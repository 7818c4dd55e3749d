//! The target's gcc driver, used as assembler and linker
//! (docs/architecture.md#layers-of-the-compiler): the host's `gcc` for the
//! host's ISA, the cross `<triple>-gcc` otherwise ([`Target::gcc`], from the
//! target table).

use crate::target::Target;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(mut cmd: Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    match cmd.output() {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "{} failed ({}):\n{}",
            shown,
            out.status,
            String::from_utf8_lossy(&out.stderr).trim_end()
        )),
        Err(e) => Err(format!("cannot run {}: {e}", shown)),
    }
}

/// Assembles `asm` (a `.s` or `.S` file) into the object `obj`.
pub fn assemble(target: Target, asm: &Path, obj: &Path) -> Result<(), String> {
    let mut cmd = Command::new(target.gcc());
    cmd.arg("-c").arg(asm).arg("-o").arg(obj);
    run(cmd)
}

/// What to link and how.
pub struct LinkJob<'a> {
    pub target: Target,
    pub inputs: &'a [PathBuf],
    pub output: &'a Path,
    pub static_link: bool,
    pub libs: &'a [String],
    pub lib_dirs: &'a [PathBuf],
    /// `-Wl,`/`-Xlinker` arguments, each after the first `n` inputs.
    pub linker_args: &'a [(usize, String)],
    /// gcc link flags (`-pthread`, `-rdynamic`, `-s`, `-pie`, `--sysroot=`).
    pub flags: &'a [String],
    /// `-v`: show the command.
    pub verbose: bool,
}

/// Links objects (and archives) into an executable.
pub fn link(job: &LinkJob<'_>) -> Result<(), String> {
    let mut cmd = Command::new(job.target.gcc());
    if job.static_link {
        cmd.arg("-static");
    }
    cmd.args(job.flags);
    for (i, input) in job.inputs.iter().enumerate() {
        for (_, a) in job.linker_args.iter().filter(|(n, _)| *n == i) {
            cmd.arg("-Xlinker").arg(a);
        }
        cmd.arg(input);
    }
    for (_, a) in job.linker_args.iter().filter(|(n, _)| *n >= job.inputs.len()) {
        cmd.arg("-Xlinker").arg(a);
    }
    cmd.arg("-o").arg(job.output);
    for d in job.lib_dirs {
        cmd.arg("-L").arg(d);
    }
    for l in job.libs {
        cmd.arg(format!("-l{l}"));
    }
    // gcc expands `fabs`, `sqrt` and friends inline, so C programs built by
    // gcc link without -lm; phicc calls them, so libm is always linked.
    cmd.arg("-lm");
    if job.verbose {
        eprintln!("{cmd:?}");
    }
    run(cmd)
}
