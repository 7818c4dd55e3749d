//! AArch64 registers with their GNU as names, memory operands and the
//! encodability tests for immediates (Arm ARM C6: ADD/SUB 12-bit immediates,
//! logical "bitmask" immediates, MOVZ/MOVN 16-bit chunks).
//!
//! Register roles in this backend: `x0..x7`/`v0..v7` carry arguments and
//! results (the register allocator hands out `x2..x7` between calls);
//! `x9..x12` and `v16..v19` are the emitter's value temporaries,
//! `x13..x15` too inside calls, block copies, `va_*` and wide sequences
//! (elsewhere the register allocator hands them out, with `v24..v31`);
//! `x16` holds a loaded pointer and `x17` materializes large immediates and
//! far frame offsets (neither ever holds an inline-asm operand); `x18` (the
//! platform register) is never used; `x29` is the frame pointer, `x30` the
//! link register.

use std::fmt;

/// A general-purpose register `x0..x30`, or `sp` (number 31 as a base).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Xr(pub u8);

pub const SP: Xr = Xr(31);
pub const FP: Xr = Xr(29);
pub const LR: Xr = Xr(30);
/// The pointer temporary.
pub const PTR: Xr = Xr(16);
/// The immediate / far-offset temporary.
pub const IMM: Xr = Xr(17);

const X_NAMES: [&str; 32] = [
    "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17",
    "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "sp",
];
const W_NAMES: [&str; 32] = [
    "w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9", "w10", "w11", "w12", "w13", "w14", "w15", "w16", "w17",
    "w18", "w19", "w20", "w21", "w22", "w23", "w24", "w25", "w26", "w27", "w28", "w29", "w30", "wsp",
];

impl Xr {
    /// The 64-bit name (`x3`, `sp`).
    pub fn x(self) -> &'static str {
        X_NAMES[self.0 as usize & 31]
    }

    /// The 32-bit name (`w3`, `wsp`).
    pub fn w(self) -> &'static str {
        W_NAMES[self.0 as usize & 31]
    }

    /// The name for an access of `size` bytes (`w` up to 4, else `x`).
    pub fn sized(self, size: usize) -> &'static str {
        if size <= 4 {
            self.w()
        } else {
            self.x()
        }
    }

    /// Callee-saved under AAPCS64 (`x19..x28`; `x29`/`x30` are the frame record).
    pub fn is_callee_saved(self) -> bool {
        (19..=28).contains(&self.0)
    }

    /// Parses `x5`, `w5`, `r5` (clobber lists), `lr`, `fp`, `sp`.
    pub fn parse(name: &str) -> Option<Xr> {
        let n = name.trim().trim_start_matches('%').to_ascii_lowercase();
        match n.as_str() {
            "sp" | "wsp" => return Some(SP),
            "lr" => return Some(LR),
            "fp" => return Some(FP),
            _ => {}
        }
        let rest = n.strip_prefix(['x', 'w', 'r'])?;
        let k: u8 = rest.parse().ok()?;
        (k <= 30 && !rest.starts_with('+')).then_some(Xr(k))
    }
}

/// A SIMD/floating-point register `v0..v31`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vr(pub u8);

impl Vr {
    /// The scalar name for a value of `size` bytes: `b h s d q`.
    pub fn sized(self, size: usize) -> String {
        let p = match size {
            1 => 'b',
            2 => 'h',
            4 => 's',
            8 => 'd',
            _ => 'q',
        };
        format!("{p}{}", self.0)
    }

    pub fn s(self) -> String {
        self.sized(4)
    }
    pub fn d(self) -> String {
        self.sized(8)
    }
    pub fn q(self) -> String {
        self.sized(16)
    }

    /// Callee-saved (the low 64 bits of `v8..v15`, AAPCS64 6.1.2).
    pub fn is_callee_saved(self) -> bool {
        (8..=15).contains(&self.0)
    }

    /// Parses `v3`, `q3`, `d3`, `s3`, `h3`, `b3` (clobber lists).
    pub fn parse(name: &str) -> Option<Vr> {
        let n = name.trim().trim_start_matches('%').to_ascii_lowercase();
        let rest = n.strip_prefix(['v', 'q', 'd', 's', 'h', 'b'])?;
        let k: u8 = rest.parse().ok()?;
        (k <= 31 && !rest.starts_with('+')).then_some(Vr(k))
    }
}

/// A memory operand `[base, #disp]`; the emitter picks the addressing form
/// (scaled, unscaled, or the address materialized in `x17`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mem {
    pub base: Xr,
    pub disp: i64,
}

impl Mem {
    pub fn new(base: Xr, disp: i64) -> Mem {
        Mem { base, disp }
    }

    /// The same location `d` bytes further.
    pub fn at(self, d: i64) -> Mem {
        Mem {
            disp: self.disp + d,
            ..self
        }
    }
}

impl fmt::Display for Mem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Piece by piece, as x86-64's memory operands: no nested `write!`.
        f.write_str("[")?;
        f.write_str(self.base.x())?;
        if self.disp != 0 {
            f.write_str(", #")?;
            f.write_str(itoa::Buffer::new().format(self.disp))?;
        }
        f.write_str("]")
    }
}

/// `ADD`/`SUB` immediate: 12 bits, optionally shifted left by 12.
pub fn is_add_imm(v: u64) -> bool {
    v < 4096 || (v & 0xfff == 0 && v < (1 << 24))
}

/// A logical ("bitmask") immediate of a `bits`-wide operation (32 or 64):
/// a rotated run of ones replicated in elements of 2, 4, ..., `bits` bits;
/// exactly what the encoder can encode ([`super::encode::logical_imm`]).
pub fn is_logical_imm(v: u64, bits: u32) -> bool {
    let v = if bits == 32 { v & 0xffff_ffff } else { v };
    super::encode::logical_imm(v, bits).is_some()
}

/// A single `MOVZ` or `MOVN` of `bits` width (32 or 64) builds `v`.
pub fn is_mov_imm(v: u64, bits: u32) -> bool {
    let v = if bits == 32 { v & 0xffff_ffff } else { v };
    let all = if bits == 32 { 0xffff_ffffu64 } else { u64::MAX };
    let one_chunk = |x: u64| (0..bits / 16).any(|k| x & !(0xffffu64 << (16 * k)) == 0);
    one_chunk(v) || one_chunk(!v & all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_parsing() {
        assert_eq!(Xr(3).x(), "x3");
        assert_eq!(Xr(3).w(), "w3");
        assert_eq!(SP.x(), "sp");
        assert_eq!(Xr::parse("w19"), Some(Xr(19)));
        assert_eq!(Xr::parse("x30"), Some(LR));
        assert_eq!(Xr::parse("lr"), Some(LR));
        assert_eq!(Xr::parse("x31"), None);
        assert_eq!(Xr::parse("v1"), None);
        assert_eq!(Vr::parse("d9"), Some(Vr(9)));
        assert_eq!(Vr::parse("v31"), Some(Vr(31)));
        assert_eq!(Vr::parse("x1"), None);
        assert_eq!(Vr(2).sized(4), "s2");
        assert_eq!(Vr(2).q(), "q2");
        assert_eq!(Mem::new(FP, 24).to_string(), "[x29, #24]");
        assert_eq!(Mem::new(PTR, 0).to_string(), "[x16]");
    }

    #[test]
    fn immediate_classes() {
        assert!(is_add_imm(4095) && is_add_imm(4096) && is_add_imm(0xfff000));
        assert!(!is_add_imm(4097) && !is_add_imm(1 << 24));
        // Bitmask immediates: runs of ones, rotated and replicated.
        assert!(is_logical_imm(0xff, 64));
        assert!(is_logical_imm(0xffff_0000_0000_0000, 64));
        assert!(is_logical_imm(0x5555_5555_5555_5555, 64));
        assert!(is_logical_imm(0x0f0f_0f0f, 32));
        assert!(is_logical_imm(!15u64, 64)); // -16: and x, x, #-16
        assert!(is_logical_imm(0x8000_0000_0000_0001, 64)); // rotated run
        assert!(!is_logical_imm(0, 64) && !is_logical_imm(u64::MAX, 64));
        assert!(!is_logical_imm(0x1234, 64));
        assert!(!is_logical_imm(0xffff_ffff, 32));
        assert!(is_mov_imm(0x1234_0000, 32) && is_mov_imm(0xffff_ffff_ffff_1234, 64));
        assert!(is_mov_imm(0xffff_1234, 32));
        assert!(!is_mov_imm(0x1234_5678, 32));
    }
}
