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
//!   [`run_counting`] reports the steps used ([`hang_limit`]: the termination rule);
//! - any defined function with scalar parameters can be the entry
//!   ([`Program::call`]: issue 17 item 5, many inputs per function), and a
//!   [`Program`] resolves a module once for many such runs.
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

use super::module::{IrFunction, IrModule};
use super::types::IrType;
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
    Program::new(module).run_counting(cfg)
}

/// A module resolved once (names, labels, global initializers: `prepare.rs`)
/// for many runs: what a caller that interprets one module under many entries,
/// arguments or schedules uses instead of [`run_counting`], which resolves
/// the module again on every run. Every run starts from fresh memory
/// (globals initialised as for a normal run), so runs are independent.
pub struct Program<'m> {
    prepared: prepare::Prepared<'m>,
}

impl<'m> Program<'m> {
    pub fn new(module: &'m IrModule) -> Program<'m> {
        Program {
            prepared: prepare::Prepared::new(module),
        }
    }

    /// As [`run_counting`].
    pub fn run_counting(&self, cfg: &RunConfig) -> (Outcome, u64) {
        exec::Machine::run(&self.prepared, cfg)
    }

    /// Call the defined function `name` with exactly one argument per
    /// parameter, each a scalar (integer or floating-point, no pointer, no
    /// struct by value): the same run as `main`'s (globals initialised, the
    /// fuel and the asm schedule of `schedule_seed`), whose outcome holds the
    /// return value, the output, the events, the final globals or the trap.
    /// An argument's bits are truncated to its parameter's type (so `-1`
    /// as `u128::MAX` is `-1` at any width). Returns the outcome and the
    /// steps used, or why the call cannot be made.
    pub fn call(&self, name: &str, args: &[u128], schedule_seed: u64, fuel: u64) -> Result<(Outcome, u64), CallError> {
        let module = self.prepared.module;
        let f = self
            .prepared
            .by_name
            .get(name)
            .map(|&i| &module.functions[i as usize])
            .ok_or_else(|| CallError::NoSuchFunction(name.to_string()))?;
        let types = scalar_params(f)?;
        if types.len() != args.len() {
            return Err(CallError::Arity {
                function: name.to_string(),
                expected: types.len(),
                given: args.len(),
            });
        }
        Ok(self.run_counting(&RunConfig {
            entry: name.to_string(),
            args: args.to_vec(),
            schedule_seed,
            fuel,
        }))
    }
}

/// Call `name(args)` of `module`: [`Program::call`] on a program used once.
pub fn call(
    module: &IrModule,
    name: &str,
    args: &[u128],
    schedule_seed: u64,
    fuel: u64,
) -> Result<(Outcome, u64), CallError> {
    Program::new(module).call(name, args, schedule_seed, fuel)
}

/// Why [`Program::call`] cannot call a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    NoSuchFunction(String),
    /// A declaration, or a definition without blocks.
    NotDefined(String),
    Variadic(String),
    /// A parameter that is a pointer, a struct by value, or `void`.
    NotScalar {
        function: String,
        param: usize,
        ty: IrType,
    },
    Arity {
        function: String,
        expected: usize,
        given: usize,
    },
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::NoSuchFunction(n) => write!(f, "no function @{n}"),
            CallError::NotDefined(n) => write!(f, "@{n} is not defined"),
            CallError::Variadic(n) => write!(f, "@{n} is variadic"),
            CallError::NotScalar { function, param, ty } => {
                write!(f, "parameter {param} of @{function} is not a scalar ({ty})")
            }
            CallError::Arity {
                function,
                expected,
                given,
            } => {
                write!(f, "@{function} takes {expected} arguments, {given} given")
            }
        }
    }
}

/// The parameter types of `f` when [`Program::call`] can call it: a defined,
/// non-variadic function whose parameters are all integers or floats
/// (no pointer, no struct passed by value).
pub fn scalar_params(f: &IrFunction) -> Result<Vec<IrType>, CallError> {
    if f.is_declaration || f.blocks.is_empty() {
        return Err(CallError::NotDefined(f.name.clone()));
    }
    if f.is_variadic {
        return Err(CallError::Variadic(f.name.clone()));
    }
    f.params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if (p.ty.is_integer() || p.ty.is_float()) && p.struct_size.is_none() {
                Ok(p.ty)
            } else {
                Err(CallError::NotScalar {
                    function: f.name.clone(),
                    param: i,
                    ty: p.ty,
                })
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! [`Program::call`]: a named function with given arguments, run as
    //! `main` would be. Every expected value is worked out by hand from the
    //! IR in the test.

    use super::*;
    use crate::ir::text::parse_module;

    /// `@g` starts at 5. `@f(a: i32, b: i8)` adds `a` to `@g`, prints
    /// nothing, calls the external `@note(a)` and returns `2 * a + b`
    /// (`b` sign-extended). `@q(d: i32)` returns `100 / d`. `@spin(n: i32)`
    /// counts to `n`, 5 steps per round. `@h(x: f64)` returns `x * 2.0`.
    const MODULE: &str = "\
global @g: i32, size 4, align 4 = scalar 5i32
declare @note(i32) -> i32
define @f(i32, i8) -> i32 {
bb0:
  %0 = paramref 0 i32
  %1 = paramref 1 i8
  %2 = globaladdr @g
  %3 = load i32 %2
  %4 = add i32 %3, %0
  store i32 %4, %2
  %5 = call i32 @note(i32 %0)
  %6 = mul i32 %0, 2i32
  %7 = cast i8 -> i32 %1
  %8 = add i32 %6, %7
  ret %8
}
define @q(i32) -> i32 {
bb1:
  %0 = paramref 0 i32
  %1 = sdiv i32 100i32, %0
  ret %1
}
define @spin(i32) -> i32 {
bb2:
  %0 = paramref 0 i32
  br bb3
bb3:
  %1 = phi i32 [0i32, bb2], [%2, bb3]
  %2 = add i32 %1, 1i32
  %3 = cmp slt i32 %2, %0
  condbr %3, bb3, bb4
bb4:
  ret %2
}
define @h(f64) -> f64 {
bb5:
  %0 = paramref 0 f64
  %1 = mul f64 %0, 2.0f64
  ret %1
}
define @p(ptr) -> i32 {
bb6:
  ret 0i32
}
define @va(i32, ...) -> i32 {
bb7:
  ret 0i32
}
define @main() -> i32 {
bb8:
  ret 0i32
}
";

    fn program(text: &str) -> IrModule {
        parse_module(text).expect("the test module parses")
    }

    #[test]
    fn a_call_returns_its_value_with_globals_and_events() {
        let m = program(MODULE);
        // f(3, -1): @g = 5 + 3 = 8, returns 2 * 3 - 1 = 5; the event shows a = 3.
        let (o, steps) = call(&m, "f", &[3, u128::MAX], 0, 1000).unwrap();
        assert_eq!(o.result, RunResult::Returned(Some(5)));
        assert_eq!(o.globals, vec![("g".to_string(), vec![8, 0, 0, 0])]);
        assert_eq!(o.events.len(), 1);
        assert_eq!(o.events[0].to_string(), "note(3)");
        assert!(o.stdout.is_empty());
        // 10 instructions and the `ret`.
        assert_eq!(steps, 11);
    }

    #[test]
    fn arguments_are_truncated_to_their_parameter_types() {
        let m = program(MODULE);
        // b = 0x17f is 0x7f = 127 as an i8; a = 2^32 + 1 is 1 as an i32:
        // 2 * 1 + 127 = 129. a = -2^31 (INT_MIN): 2 * a wraps to 0, and
        // b = 0x80 is -128: the i32 result -128 is returned as its 32 bits.
        let (o, _) = call(&m, "f", &[(1 << 32) + 1, 0x17f], 0, 1000).unwrap();
        assert_eq!(o.result, RunResult::Returned(Some(129)));
        let (o, _) = call(&m, "f", &[0x8000_0000, 0x80], 0, 1000).unwrap();
        assert_eq!(o.result, RunResult::Returned(Some(0xffff_ff80)));
        // @g = 5 + INT_MIN = 0x80000005, little-endian.
        assert_eq!(o.globals[0].1, vec![0x05, 0x00, 0x00, 0x80]);
    }

    #[test]
    fn every_run_of_a_program_starts_from_the_initial_globals() {
        let m = program(MODULE);
        let p = Program::new(&m);
        for _ in 0..3 {
            let (o, _) = p.call("f", &[1, 0], 7, 1000).unwrap();
            assert_eq!(o.globals[0].1, vec![6, 0, 0, 0]);
        }
    }

    #[test]
    fn traps_and_fuel_end_a_call_as_they_end_main() {
        let m = program(MODULE);
        let p = Program::new(&m);
        let result = |f: &str, a: u128, fuel: u64| p.call(f, &[a], 0, fuel).unwrap().0.result;
        assert_eq!(result("q", 7, 100), RunResult::Returned(Some(14)));
        assert_eq!(result("q", u128::MAX, 100), RunResult::Returned(Some(0xffff_ff9c)));
        assert_eq!(result("q", 0, 100), RunResult::Trap(TrapKind::DivByZero));
        // spin(10): `paramref` and `br`, then 10 rounds of phi, add, cmp,
        // condbr (4 steps each), then `ret`: 43 steps.
        let (o, steps) = p.call("spin", &[10], 0, 1000).unwrap();
        assert_eq!((o.result, steps), (RunResult::Returned(Some(10)), 43));
        assert_eq!(result("spin", 10, 42), RunResult::OutOfFuel);
        // spin(INT_MAX) needs about 8.6e9 steps.
        assert_eq!(result("spin", 0x7fff_ffff, 100_000), RunResult::OutOfFuel);
    }

    #[test]
    fn float_arguments_are_bit_patterns() {
        let m = program(MODULE);
        let (o, _) = call(&m, "h", &[1.5f64.to_bits() as u128], 0, 100).unwrap();
        assert_eq!(o.result, RunResult::Returned(Some(3.0f64.to_bits() as u128)));
    }

    #[test]
    fn only_defined_functions_with_scalar_parameters_can_be_called() {
        let m = program(MODULE);
        let err = |f: &str, args: &[u128]| call(&m, f, args, 0, 100).unwrap_err();
        assert_eq!(err("nope", &[]), CallError::NoSuchFunction("nope".into()));
        assert_eq!(err("note", &[1]), CallError::NotDefined("note".into()));
        assert_eq!(err("va", &[1]), CallError::Variadic("va".into()));
        assert_eq!(
            err("p", &[0]),
            CallError::NotScalar {
                function: "p".into(),
                param: 0,
                ty: IrType::Ptr
            }
        );
        assert_eq!(
            err("f", &[1]),
            CallError::Arity {
                function: "f".into(),
                expected: 2,
                given: 1
            }
        );
        assert_eq!(err("f", &[1]).to_string(), "@f takes 2 arguments, 1 given");
        // `main` is a function like any other.
        assert_eq!(
            call(&m, "main", &[], 0, 100).unwrap().0.result,
            RunResult::Returned(Some(0))
        );
    }
}
