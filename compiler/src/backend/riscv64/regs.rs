//! RISC-V registers by their ABI names (RISC-V ELF psABI, "Register
//! Convention"), memory operands, and the register roles of this backend.
//!
//! Roles: `s0` is the frame pointer; `a2`..`a7` and `ft3`..`ft11`
//! (caller-saved), then `s1`..`s11` and `fs0`..`fs11` hold the values the
//! register allocator puts in registers; `t0`..`t5` are the
//! emitter's scratch registers (free at every instruction boundary); `t6` materializes displacements that do not fit a
//! 12-bit immediate and otherwise only holds values for the next
//! instruction (an FP constant's bits), so it is never given to an inline
//! asm operand or used as a base that needs a displacement of its own.

use std::fmt;

/// An integer register `x0`..`x31`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Gpr(pub u8);

/// A floating-point register `f0`..`f31`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fpr(pub u8);

const GPR_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2",
    "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
];

const FPR_NAMES: [&str; 32] = [
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
    "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
];

pub const ZERO: Gpr = Gpr(0);
pub const RA: Gpr = Gpr(1);
pub const SP: Gpr = Gpr(2);
pub const GP: Gpr = Gpr(3);
pub const TP: Gpr = Gpr(4);
pub const T0: Gpr = Gpr(5);
pub const T1: Gpr = Gpr(6);
pub const T2: Gpr = Gpr(7);
/// The frame pointer.
pub const S0: Gpr = Gpr(8);
pub const A0: Gpr = Gpr(10);
pub const A1: Gpr = Gpr(11);
pub const A2: Gpr = Gpr(12);
pub const A3: Gpr = Gpr(13);
pub const T3: Gpr = Gpr(28);
pub const T4: Gpr = Gpr(29);
pub const T5: Gpr = Gpr(30);
/// The displacement register (see the module header).
pub const T6: Gpr = Gpr(31);

pub const FT0: Fpr = Fpr(0);
pub const FT1: Fpr = Fpr(1);
pub const FT2: Fpr = Fpr(2);
pub const FA0: Fpr = Fpr(10);
pub const FA1: Fpr = Fpr(11);

/// Integer argument register `a<n>`.
pub fn arg_gpr(n: u8) -> Gpr {
    Gpr(10 + n)
}

/// Floating-point argument register `fa<n>`.
pub fn arg_fpr(n: u8) -> Fpr {
    Fpr(10 + n)
}

/// Callee-saved integer registers (`s0` is the frame pointer and saved by every prologue).
pub fn is_callee_saved_gpr(g: Gpr) -> bool {
    matches!(g.0, 9 | 18..=27)
}

/// Callee-saved floating-point registers `fs0`..`fs11`.
pub fn is_callee_saved_fpr(f: Fpr) -> bool {
    matches!(f.0, 8 | 9 | 18..=27)
}

impl Gpr {
    pub fn name(self) -> &'static str {
        GPR_NAMES[self.0 as usize & 31]
    }

    /// Parses `a0`, `x10`, `fp` ... (clobber lists, with or without `%`).
    pub fn parse(name: &str) -> Option<Gpr> {
        let n = name.trim().trim_start_matches('%');
        if n == "fp" {
            return Some(S0);
        }
        if let Some(i) = GPR_NAMES.iter().position(|x| *x == n) {
            return Some(Gpr(i as u8));
        }
        let k: u8 = n.strip_prefix('x')?.parse().ok()?;
        (k < 32).then_some(Gpr(k))
    }
}

impl Fpr {
    pub fn name(self) -> &'static str {
        FPR_NAMES[self.0 as usize & 31]
    }

    /// Parses `fa0`, `f10` ...
    pub fn parse(name: &str) -> Option<Fpr> {
        let n = name.trim().trim_start_matches('%');
        if let Some(i) = FPR_NAMES.iter().position(|x| *x == n) {
            return Some(Fpr(i as u8));
        }
        let k: u8 = n.strip_prefix('f')?.parse().ok()?;
        (k < 32).then_some(Fpr(k))
    }
}

impl fmt::Display for Gpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Fpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A memory location `disp(base)`; the displacement may exceed 12 bits (the
/// emitter then adds it to the base in `t6`). With `pcrel`, the location is
/// `%pcrel_lo(.Lpc<n>)(base)`: `base` holds the `%pcrel_hi` of a global
/// from the `auipc` at label `.Lpc<n>`, and `disp` is 0 (one access only;
/// see `FnEmitter::global_mem`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mem {
    pub base: Gpr,
    pub disp: i64,
    pub pcrel: Option<u32>,
}

impl Mem {
    pub fn new(base: Gpr, disp: i64) -> Mem {
        Mem {
            base,
            disp,
            pcrel: None,
        }
    }

    /// The same location `d` bytes further.
    pub fn at(self, d: i64) -> Mem {
        debug_assert!(self.pcrel.is_none() || d == 0, "a %pcrel_lo location has no neighbours");
        Mem {
            disp: self.disp + d,
            ..self
        }
    }
}

/// Whether `v` fits a signed 12-bit immediate.
pub fn fits_i12(v: i64) -> bool {
    (-2048..=2047).contains(&v)
}

/// The load mnemonic for `size` bytes (`signed`: sign-extend).
pub fn load_op(size: usize, signed: bool) -> &'static str {
    match (size, signed) {
        (1, true) => "lb",
        (1, false) => "lbu",
        (2, true) => "lh",
        (2, false) => "lhu",
        (4, true) => "lw",
        (4, false) => "lwu",
        _ => "ld",
    }
}

/// The store mnemonic for `size` bytes.
pub fn store_op(size: usize) -> &'static str {
    match size {
        1 => "sb",
        2 => "sh",
        4 => "sw",
        _ => "sd",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_parsing() {
        assert_eq!(arg_gpr(7).name(), "a7");
        assert_eq!(arg_fpr(0).name(), "fa0");
        assert_eq!(T6.name(), "t6");
        assert_eq!(Gpr::parse("x10"), Some(A0));
        assert_eq!(Gpr::parse("fp"), Some(S0));
        assert_eq!(Gpr::parse("s11"), Some(Gpr(27)));
        assert_eq!(Gpr::parse("ft0"), None);
        assert_eq!(Fpr::parse("fs2"), Some(Fpr(18)));
        assert_eq!(Fpr::parse("f31"), Some(Fpr(31)));
        assert!(is_callee_saved_gpr(Gpr::parse("s1").unwrap()));
        assert!(!is_callee_saved_gpr(T0));
        assert!(is_callee_saved_fpr(Fpr::parse("fs11").unwrap()));
        assert!(fits_i12(-2048) && fits_i12(2047) && !fits_i12(2048));
    }
}
