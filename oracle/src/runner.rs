//! The oracle's view of the shared runner (`phicc-runner`): containment of
//! every program and compiler run (process group, rlimits, output caps,
//! wall-clock deadline), plus running a binary of one of our targets
//! natively or under its QEMU user-mode emulator.

pub use phicc_runner::{run, Captured, Job, Limits, Resource, RunResult, Termination, QEMU_ADDRESS_SPACE_OVERHEAD};

use crate::target::Target;
use std::path::Path;

/// Run a static binary built for `target`: natively when the host has its
/// ISA, else under `target.emulator()`.
pub fn run_binary(target: Target, binary: &Path, args: &[&str], limits: &Limits) -> std::io::Result<RunResult> {
    phicc_runner::run_binary(target.emulator(), binary, args, limits)
}
