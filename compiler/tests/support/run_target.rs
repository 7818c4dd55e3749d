//! Linking and running test programs for any target: the target's gcc
//! driver links (`-static` for a foreign target, so that QEMU user-mode
//! needs no sysroot), and the binary runs through the shared runner
//! (`phicc-runner`, also the oracle's): natively when the host matches, else
//! under the target's QEMU user-mode emulator, in its own process group with
//! a wall-clock limit, CPU, memory and file-size rlimits and capped output.
//! Tool names come from the target table (`phicc::target`).
#![allow(dead_code)]

use phicc::target::Target;
use phicc_runner::{Limits, RunResult, Termination};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Whether binaries for `target` need QEMU here.
pub fn is_foreign(target: Target) -> bool {
    !target.is_host()
}

/// The gcc driver of `target`, with `-static` when its binaries run under QEMU.
pub fn gcc_command(target: Target) -> Command {
    let mut cmd = Command::new(target.gcc());
    if is_foreign(target) {
        cmd.arg("-static");
    }
    cmd
}

/// Whether the toolchain (and emulator) for `target` is installed.
pub fn toolchain_available(target: Target) -> bool {
    missing_tool(target).is_none()
}

/// Why binaries for `target` cannot be built and run here (no backend, or a
/// tool missing), as a skip reason; `None` when they can.
pub fn cannot_run(target: Target) -> Option<String> {
    if phicc::backend::target_isa(target).is_err() {
        return Some(format!("no {} backend", target.name()));
    }
    missing_tool(target)
}

/// What is missing to build and run binaries for `target` here, as a skip
/// reason (`qemu-riscv64 missing`), or `None` when everything is installed.
pub fn missing_tool(target: Target) -> Option<String> {
    let has = |p: &str| Command::new(p).arg("--version").output().is_ok();
    let gcc = target.gcc();
    if !has(gcc) {
        return Some(format!("{gcc} missing"));
    }
    target
        .emulator()
        .filter(|qemu| !has(qemu))
        .map(|qemu| format!("{qemu} missing"))
}

/// How a test binary's run ended, with what it printed.
pub struct Ran {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub termination: Termination,
}

impl Ran {
    /// Whether the program exited with status 0.
    pub fn success(&self) -> bool {
        self.termination == Termination::Exited(0)
    }

    /// "exit N", "signal N", "timeout", ...
    pub fn describe(&self) -> String {
        self.termination.describe()
    }
}

/// Runs `exe` (a binary for `target`) with a wall-clock limit of `secs`.
/// Output beyond 16 MiB per stream is an error, not a silent truncation.
pub fn run_binary(target: Target, exe: &Path, secs: u32) -> std::io::Result<Ran> {
    let limits = Limits {
        output_cap: 16 << 20,
        address_space: Some(2 << 30),
        ..Limits::with_timeout(Duration::from_secs(secs.into()))
    };
    let emulator = target.emulator();
    let RunResult {
        termination,
        stdout,
        stderr,
        ..
    } = phicc_runner::run_binary(emulator, exe, &[], &limits)?;
    if stdout.truncated || stderr.truncated {
        return Err(std::io::Error::other(format!(
            "{} printed more than 16 MiB",
            exe.display()
        )));
    }
    Ok(Ran {
        stdout: stdout.bytes,
        stderr: stderr.bytes,
        termination,
    })
}

/// The exit status of a run, `128 + signal` when a signal ended it (and
/// -1 for a timeout or a resource limit).
pub fn exit_code(ran: &Ran) -> i32 {
    match ran.termination {
        Termination::Exited(c) => c,
        Termination::Signaled(s) => 128 + s,
        _ => -1,
    }
}
