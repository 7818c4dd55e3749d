//! The exit statuses of `phicc` and `phiopt`, defined once; the oracle
//! classifies a compiler run by the same constants.
//!
//! They follow the BSD sysexits convention where one applies (70 is
//! `EX_SOFTWARE`, an internal software error) and `timeout(1)`/the shell for
//! the `--run-ir` outcomes.

/// Success.
pub const SUCCESS: i32 = 0;
/// The program is ill-formed or uses something phicc cannot compile (a
/// `file:line:col: error:` diagnostic was printed). For `phiopt`: the passes
/// changed the program's behaviour (`--check`) or broke the verifier.
pub const ERROR: i32 = 1;
/// Bad command line (or, for `phiopt`, unreadable or invalid input IR).
pub const USAGE: i32 = 2;
/// Internal compiler error (`EX_SOFTWARE`): a caught panic, or IR that breaks
/// an invariant of a pass or the backend. Never the program's fault.
pub const ICE: i32 = 70;
/// `phicc --run-ir`: the interpreted program ran out of fuel (as `timeout(1)`).
pub const OUT_OF_FUEL: i32 = 124;
/// `phicc --run-ir`: the interpreted program trapped (as a SIGABRT death, 128 + 6).
pub const TRAP: i32 = 134;
