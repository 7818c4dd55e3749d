//! Linking and running test programs for any target: the target's gcc
//! driver links (`-static` for a foreign target, so that QEMU user-mode
//! needs no sysroot), and the binary runs natively when the host matches,
//! else under `qemu-aarch64` / `qemu-riscv64`, with a wall-clock limit.
#![allow(dead_code)]

use phicc::frontend::target::Target;
use std::path::Path;
use std::process::{Command, Output};

/// The target this test binary runs on.
pub fn host_target() -> Option<Target> {
    Target::from_name(std::env::consts::ARCH)
}

/// Whether binaries for `target` need QEMU here.
pub fn is_foreign(target: Target) -> bool {
    host_target() != Some(target)
}

/// The gcc driver of `target`, with `-static` when its binaries run under QEMU.
pub fn gcc_command(target: Target) -> Command {
    let mut cmd = Command::new(phicc::driver::toolchain::gcc_for(target));
    if is_foreign(target) {
        cmd.arg("-static");
    }
    cmd
}

/// The QEMU user-mode emulator for `target`.
pub fn qemu_for(target: Target) -> &'static str {
    match target {
        Target::X86_64 => "qemu-x86_64",
        Target::Aarch64 => "qemu-aarch64",
        Target::Riscv64 => "qemu-riscv64",
    }
}

/// Whether the toolchain (and emulator) for `target` is installed.
pub fn toolchain_available(target: Target) -> bool {
    let gcc = phicc::driver::toolchain::gcc_for(target);
    let has = |p: &str| Command::new(p).arg("--version").output().is_ok();
    has(gcc) && (!is_foreign(target) || has(qemu_for(target)))
}

/// Runs `exe` (a binary for `target`) with a wall-clock limit of `secs`.
pub fn run_binary(target: Target, exe: &Path, secs: u32) -> std::io::Result<Output> {
    let mut cmd = Command::new("timeout");
    cmd.arg(secs.to_string());
    if is_foreign(target) {
        cmd.arg(qemu_for(target));
    }
    cmd.arg(exe).stdin(std::process::Stdio::null()).output()
}

/// The exit status of a run, `128 + signal` when a signal ended it.
pub fn exit_code(out: &Output) -> i32 {
    out.status.code().unwrap_or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        128 + out.status.signal().unwrap_or(0)
    })
}
