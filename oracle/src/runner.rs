//! The oracle's view of the shared runner (`phicc-runner`): containment of
//! every program and compiler run (process group, rlimits, output caps,
//! wall-clock deadline), plus running a binary of one of our targets
//! natively or under its QEMU user-mode emulator (Debian's statically
//! linked build of it when installed, see [`emulator`]).

pub use phicc_runner::{run, Captured, Job, Limits, Resource, RunResult, Termination, QEMU_ADDRESS_SPACE_OVERHEAD};

use crate::target::Target;
use std::path::Path;
use std::sync::OnceLock;

/// Run a static binary built for `target`: natively when the host has its
/// ISA, else under [`emulator`].
pub fn run_binary(target: Target, binary: &Path, args: &[&str], limits: &Limits) -> std::io::Result<RunResult> {
    phicc_runner::run_binary(emulator(target), binary, args, limits)
}

/// The QEMU program that runs `target`'s binaries here, or `None` when the
/// host runs them natively: `qemu-<arch>-static` (Debian's qemu-user-static,
/// the same QEMU release built without shared libraries) when it is on
/// `PATH`, else the target table's `qemu-<arch>`. The guest sees the same
/// emulator either way; the static one starts in about a third less CPU
/// time (no dynamic linking of glib and QEMU's other libraries: 8 against
/// 13 ms for a static AArch64 hello world, 6.7 against 9.5 ms on RISC-V),
/// and a campaign starts six emulators per program. Findings keep the
/// table's name in their run commands, which behave the same.
pub fn emulator(target: Target) -> Option<&'static str> {
    static FOUND: OnceLock<Vec<Option<&'static str>>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        Target::ALL
            .iter()
            .map(|t| {
                let qemu = t.emulator()?;
                let fast = format!("{qemu}-static");
                Some(if on_path(&fast) {
                    &*Box::leak(fast.into_boxed_str())
                } else {
                    qemu
                })
            })
            .collect()
    });
    let i = Target::ALL
        .iter()
        .position(|&t| t == target)
        .expect("a target of the table");
    found[i]
}

/// Whether `program` is a file in a `PATH` directory.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// `scripts/setup.sh --campaign` installs qemu-user-static; a binary
    /// run through it prints and exits as under the table's emulator.
    #[test]
    fn the_static_emulator_is_chosen_and_runs_what_the_table_one_runs() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("t.c");
        std::fs::write(
            &src,
            "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n  \
             long s = 0; for (int i = 0; i < 100000; i++) s += i % 7;\n  \
             printf(\"%ld %s\\n\", s, getenv(\"HOME\") ? \"home\" : \"none\");\n  return (int)(s % 100);\n}\n",
        )
        .unwrap();
        for target in Target::ALL.into_iter().filter(|t| t.emulator().is_some()) {
            let table = target.emulator().unwrap();
            let chosen = emulator(target).unwrap();
            assert_eq!(chosen, format!("{table}-static"), "qemu-user-static is not installed");
            let bin = dir.path().join(target.name());
            let built = std::process::Command::new(target.gcc())
                .args(["-static", "-O0", "-o"])
                .arg(&bin)
                .arg(&src)
                .status()
                .unwrap();
            assert!(built.success(), "{} failed", target.gcc());
            let limits = Limits::with_timeout(Duration::from_secs(20));
            let run = |q: &str| phicc_runner::run_binary(Some(q), &bin, &[], &limits).unwrap();
            let (a, b) = (run(table), run(chosen));
            assert_eq!(a.termination, Termination::Exited(95), "{target}");
            assert_eq!(a.termination, b.termination, "{target}");
            assert_eq!(a.stdout.bytes, b.stdout.bytes, "{target}");
            assert_eq!(String::from_utf8_lossy(&a.stdout.bytes), "299995 home\n");
        }
    }
}
