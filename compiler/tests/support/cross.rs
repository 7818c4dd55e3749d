//! Running a target's binaries from the tests: the target's gcc driver
//! links them (statically, except on the host's own target) and a
//! non-native target runs under QEMU user-mode (`qemu-aarch64`,
//! `qemu-riscv64`: static binaries need no sysroot). `scripts/setup.sh
//! --campaign` installs the cross toolchains and QEMU.
#![allow(dead_code)]

use phicc::frontend::target::Target;
use std::path::Path;
use std::process::{Command, Output};

/// The target the tests run natively on.
pub fn host_target() -> Option<Target> {
    if cfg!(target_arch = "x86_64") {
        Some(Target::X86_64)
    } else if cfg!(target_arch = "aarch64") {
        Some(Target::Aarch64)
    } else if cfg!(target_arch = "riscv64") {
        Some(Target::Riscv64)
    } else {
        None
    }
}

/// The emulator that runs `target`'s binaries here (`None`: natively).
pub fn emulator(target: Target) -> Option<&'static str> {
    if host_target() == Some(target) {
        return None;
    }
    Some(match target {
        Target::X86_64 => "qemu-x86_64",
        Target::Aarch64 => "qemu-aarch64",
        Target::Riscv64 => "qemu-riscv64",
    })
}

/// The gcc driver that links for `target`.
pub fn gcc(target: Target) -> &'static str {
    phicc::driver::toolchain::gcc_for(target)
}

/// Link flags for `target` (static binaries for QEMU).
pub fn link_flags(target: Target) -> &'static [&'static str] {
    if emulator(target).is_some() {
        &["-static"]
    } else {
        &[]
    }
}

/// Why `target`'s binaries cannot be built and run here, if they cannot.
pub fn unavailable(target: Target) -> Option<String> {
    let have = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
    if !have(gcc(target)) {
        return Some(format!(
            "{} is not installed (scripts/setup.sh --campaign)",
            gcc(target)
        ));
    }
    match emulator(target) {
        Some(q) if !have(q) => Some(format!("{q} is not installed (scripts/setup.sh --campaign)")),
        _ => None,
    }
}

/// Runs `exe` (natively or under QEMU) with a wall-clock limit in seconds.
pub fn run(target: Target, exe: &Path, timeout_secs: u32) -> std::io::Result<Output> {
    let mut cmd = Command::new("timeout");
    cmd.arg(timeout_secs.to_string());
    if let Some(q) = emulator(target) {
        cmd.arg(q);
    }
    cmd.arg(exe).output()
}

/// The exit status of a run (128 + signal when killed by one).
pub fn exit_code(out: &Output) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    out.status
        .code()
        .unwrap_or_else(|| 128 + out.status.signal().unwrap_or(0))
}
