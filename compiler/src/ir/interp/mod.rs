//! The reference interpreter: the oracle of IR-level fuzzing. Its semantics
//! (docs/architecture.md#the-interpreter-contract,
//! docs/ir.md#interpreter-semantics) are the contract that mem2reg and phi
//! elimination must preserve:
//!
//! - values are raw bit patterns per frame; reading a value never defined on
//!   the current path traps;
//! - phis of a block read all their incoming values at once on entry, copies
//!   are sequential;
//! - memory is byte-addressed, allocas are zero-filled, and an address depends
//!   only on the identity of its object (see `memory.rs`), so removing promoted
//!   allocas changes no other pointer value;
//! - calls to declared functions go to a small libc shim or become recorded
//!   events whose return values hash the event history;
//! - inline asm is driven by a seeded schedule; fuel bounds the run, and
//!   [`run_counting`] reports the steps used ([`hang_limit`]: the termination rule).
//!
//! The interpreter never panics: malformed modules end in a trap.
//! Layout: `memory.rs` (objects, addresses), `prepare.rs` (per-run resolution of
//! names and labels), `exec.rs` (the fetch-execute loop), `calls.rs` (argument
//! passing, variadics, events), `schedule.rs` (asm schedule, event hashing),
//! `libc.rs` and `printf.rs` (the C library shim).

mod calls;
mod exec;
mod libc;
mod memory;
mod prepare;
mod printf;
mod schedule;

use super::module::IrModule;
use std::fmt;

/// What to run and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// The function to call.
    pub entry: String,
    /// Raw bit patterns of the entry's parameters (missing ones are 0).
    pub args: Vec<u128>,
    /// Seeds the inline-asm schedule.
    pub schedule_seed: u64,
    /// Instructions and terminators the run may execute.
    pub fuel: u64,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            entry: "main".into(),
            args: Vec::new(),
            schedule_seed: 0,
            fuel: 10_000_000,
        }
    }
}

/// Why a run stopped abnormally.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TrapKind {
    DivByZero,
    /// `MIN / -1` or `MIN % -1`.
    DivOverflow,
    /// Shift amount at least the bit width.
    ShiftTooLarge,
    /// Access outside any live object (includes use after return or free).
    OutOfBounds,
    /// Address not a multiple of `min(access size, 8)`.
    Misaligned,
    /// Access in the null page (addresses below 4096).
    NullDeref,
    /// Store into a string literal.
    ReadOnlyWrite,
    /// Read of a value never defined on this path.
    UseOfUndefinedValue,
    /// An `unreachable` terminator was executed.
    Unreachable,
    /// Indirect call or branch to something that is not a valid target.
    BadIndirectTarget,
    /// Call depth limit exceeded.
    StackOverflow,
    /// `abort()` was called.
    Abort,
    /// `free`/`realloc` of a pointer that is not a live heap block.
    BadFree,
    /// Something the interpreter does not model (the string says what).
    Unsupported(String),
}

impl TrapKind {
    /// The stable short name printed in outcomes.
    pub fn name(&self) -> &str {
        match self {
            TrapKind::DivByZero => "div-by-zero",
            TrapKind::DivOverflow => "div-overflow",
            TrapKind::ShiftTooLarge => "shift-too-large",
            TrapKind::OutOfBounds => "out-of-bounds",
            TrapKind::Misaligned => "misaligned",
            TrapKind::NullDeref => "null-deref",
            TrapKind::ReadOnlyWrite => "read-only-write",
            TrapKind::UseOfUndefinedValue => "undefined-value",
            TrapKind::Unreachable => "unreachable",
            TrapKind::BadIndirectTarget => "bad-indirect-target",
            TrapKind::StackOverflow => "stack-overflow",
            TrapKind::Abort => "abort",
            TrapKind::BadFree => "bad-free",
            TrapKind::Unsupported(_) => "unsupported",
        }
    }
}

impl fmt::Display for TrapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrapKind::Unsupported(what) => write!(f, "unsupported({what})"),
            other => f.write_str(other.name()),
        }
    }
}

impl From<super::ops::EvalTrap> for TrapKind {
    fn from(t: super::ops::EvalTrap) -> TrapKind {
        match t {
            super::ops::EvalTrap::DivByZero => TrapKind::DivByZero,
            super::ops::EvalTrap::DivOverflow => TrapKind::DivOverflow,
            super::ops::EvalTrap::ShiftTooLarge => TrapKind::ShiftTooLarge,
        }
    }
}

/// How the run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunResult {
    /// The entry returned (the value truncated to its return type; `None` for void).
    Returned(Option<u128>),
    /// `exit(status)` was called.
    Exited(i32),
    Trap(TrapKind),
    /// Fuel ran out: inconclusive when the original program did this too;
    /// after a transformation whose original finished, see [`HANG_FACTOR`].
    OutOfFuel,
}

impl fmt::Display for RunResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunResult::Returned(None) => f.write_str("returned void"),
            RunResult::Returned(Some(v)) => write!(f, "returned {v} ({v:#x})"),
            RunResult::Exited(s) => write!(f, "exited {s}"),
            RunResult::Trap(t) => write!(f, "trap {t}"),
            RunResult::OutOfFuel => f.write_str("out of fuel"),
        }
    }
}

/// A call to a declared function without a shim: its name and arguments,
/// printed (integers in decimal, floats as numbers, pointers symbolically).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    pub name: String,
    pub args: Vec<String>,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.name, self.args.join(", "))
    }
}

/// Everything a run can observe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: RunResult,
    pub events: Vec<Event>,
    pub stdout: Vec<u8>,
    /// Final bytes of every defined (non-extern) global, in module order.
    pub globals: Vec<(String, Vec<u8>)>,
}

impl Outcome {
    /// Out of fuel: says nothing about the program.
    pub fn is_inconclusive(&self) -> bool {
        self.result == RunResult::OutOfFuel
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "result: {}", self.result)?;
        writeln!(f, "events: {}", self.events.len())?;
        for e in &self.events {
            writeln!(f, "  {e}")?;
        }
        writeln!(f, "stdout: {} bytes", self.stdout.len())?;
        for line in String::from_utf8_lossy(&self.stdout).lines() {
            writeln!(f, "  | {line}")?;
        }
        writeln!(f, "globals: {}", self.globals.len())?;
        for (name, bytes) in &self.globals {
            let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(f, "  @{name} = [{}]", hex.join(" "))?;
        }
        Ok(())
    }
}

/// The termination rule of every before/after check (ircheck, `phiopt
/// --check`): a transformed program may take [`HANG_FACTOR`] times the steps
/// its original took, plus [`HANG_SLACK`]; one that has not finished by then
/// while the original finished "no longer terminates" — a finding, not an
/// inconclusive run. Passes remove loads and stores and phi elimination adds at
/// most a copy or two per phi read (plus a branch per split edge), so a correct
/// pipeline stays far below 8x; the slack covers tiny programs.
pub const HANG_FACTOR: u64 = 8;
/// See [`HANG_FACTOR`].
pub const HANG_SLACK: u64 = 10_000;

/// The steps a transformed program may take when its original finished in
/// `original_steps`: `HANG_FACTOR * original_steps + HANG_SLACK`.
pub fn hang_limit(original_steps: u64) -> u64 {
    original_steps.saturating_mul(HANG_FACTOR).saturating_add(HANG_SLACK)
}

/// The fuel to give the transformed run, given the configured `fuel` and the
/// original's `(outcome, steps)`: at least [`hang_limit`] when the original
/// finished, so that running out of it proves the termination rule broken.
pub fn fuel_after(fuel: u64, original: &(Outcome, u64)) -> u64 {
    if original.0.is_inconclusive() {
        fuel
    } else {
        fuel.max(hang_limit(original.1))
    }
}

/// Run `cfg.entry` of `module`.
pub fn run(module: &IrModule, cfg: &RunConfig) -> Outcome {
    run_counting(module, cfg).0
}

/// As [`run`], also returning the number of instructions and terminators executed.
pub fn run_counting(module: &IrModule, cfg: &RunConfig) -> (Outcome, u64) {
    exec::Machine::run(module, cfg)
}
