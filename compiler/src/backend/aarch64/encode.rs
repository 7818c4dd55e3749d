//! AArch64 instruction encoding for the integrated assembler: the A64 forms
//! the AArch64 backend prints, encoded as the Arm ARM (DDI 0487, chapter C4
//! "A64 Instruction Set Encoding", and the alias definitions of chapter C6)
//! specifies, choosing between forms as GNU as does: `mov` becomes
//! `movz`/`movn`/`orr` (bitmask immediate) for an immediate, `orr` from
//! `xzr` between general registers, `add #0` when `sp` is involved; `add`
//! and `sub` take the extended-register form (`uxtx`) when `sp` is an
//! operand, negate a negative immediate into the other operation and shift
//! a 4 KiB multiple into `lsl #12`; `ldr`/`str` fall back to the unscaled
//! `ldur`/`stur` when the offset is negative or unaligned.
//!
//! Branches (`b`, `bl`, `b.cond`, `cbz`, `tbz`, `adr`) to a local label of
//! the same section are resolved here, as gas resolves them; anything else
//! becomes a relocation of the AArch64 ELF ABI (IHI 0056, 5.7): `CALL26`,
//! `JUMP26`, `CONDBR19`, `TSTBR14`, `ADR_PREL_LO21`. Page/low-12 pairs
//! (`adrp` + `add :lo12:` / `ldr :lo12:`, `:got:`/`:got_lo12:`,
//! `:gottprel:`/`:gottprel_lo12:`) always stay relocations; GOT and TLS ones
//! name their symbol even when it is local (as gas does). Data is `ABS64`,
//! `ABS32`, `PREL32`/`PREL64`.
//!
//! Deliberate differences from gas: no mapping symbols (`$x`, `$d`; they
//! only steer disassemblers, the linker does not need them on little-endian
//! targets). Anything outside the subset is an error (the driver then uses
//! the external assembler): this is the inverse of our own printer, not a
//! general assembler.

use crate::backend::object::{parse_expr, parse_int, FixupKind, InstEncoder, ObjectBuilder};
use crate::target::Target;

/// The AArch64 relocation types used here (IHI 0056, tables 5-x).
pub const R_AARCH64_ABS64: u32 = 257;
pub const R_AARCH64_ABS32: u32 = 258;
pub const R_AARCH64_ABS16: u32 = 259;
pub const R_AARCH64_PREL64: u32 = 260;
pub const R_AARCH64_PREL32: u32 = 261;
pub const R_AARCH64_PREL16: u32 = 262;
pub const R_AARCH64_ADR_PREL_LO21: u32 = 274;
pub const R_AARCH64_ADR_PREL_PG_HI21: u32 = 275;
pub const R_AARCH64_ADD_ABS_LO12_NC: u32 = 277;
pub const R_AARCH64_LDST8_ABS_LO12_NC: u32 = 278;
pub const R_AARCH64_TSTBR14: u32 = 279;
pub const R_AARCH64_CONDBR19: u32 = 280;
pub const R_AARCH64_JUMP26: u32 = 282;
pub const R_AARCH64_CALL26: u32 = 283;
pub const R_AARCH64_LDST16_ABS_LO12_NC: u32 = 284;
pub const R_AARCH64_LDST32_ABS_LO12_NC: u32 = 285;
pub const R_AARCH64_LDST64_ABS_LO12_NC: u32 = 286;
pub const R_AARCH64_LDST128_ABS_LO12_NC: u32 = 299;
pub const R_AARCH64_ADR_GOT_PAGE: u32 = 311;
pub const R_AARCH64_LD64_GOT_LO12_NC: u32 = 312;
pub const R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21: u32 = 541;
pub const R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC: u32 = 542;
pub const R_AARCH64_TLSLE_ADD_TPREL_HI12: u32 = 549;
pub const R_AARCH64_TLSLE_ADD_TPREL_LO12_NC: u32 = 551;

/// A general register: number (31 is `sp` or `xzr`/`wzr`, see `sp`), 64-bit or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct G {
    n: u32,
    x: bool,
    sp: bool,
}

/// An operand.
#[derive(Clone, Debug, PartialEq)]
enum Op {
    G(G),
    /// A scalar FP/SIMD register: size in bytes (1 `b`, 2 `h`, 4 `s`, 8 `d`, 16 `q`).
    V(u32, u32),
    /// A vector register with an arrangement (`v16.8b`).
    Vec(u32, String),
    /// A vector element (`v3.d[1]`).
    Elem(u32, char, u32),
    Imm(i64),
    FImm(f64),
    /// `lsl #n` and friends: (kind, amount); kinds are shifts (`lsl`,
    /// `lsr`, `asr`, `ror`) and extends (`uxtw`, `sxtw`, ...).
    Shift(String, Option<u32>),
    Mem(Mem),
    /// A symbol expression with an optional `:modifier:`.
    Sym(Option<String>, String, i64),
    Cond(u32),
}

#[derive(Clone, Debug, PartialEq)]
struct Mem {
    base: G,
    off: MemOff,
    /// `[..]!`
    pre: bool,
}

#[derive(Clone, Debug, PartialEq)]
enum MemOff {
    Imm(i64),
    Reg(G, Option<(String, Option<u32>)>),
    Sym(String, String, i64),
}

fn cond_code(s: &str) -> Option<u32> {
    Some(match s {
        "eq" => 0,
        "ne" => 1,
        "hs" | "cs" => 2,
        "lo" | "cc" => 3,
        "mi" => 4,
        "pl" => 5,
        "vs" => 6,
        "vc" => 7,
        "hi" => 8,
        "ls" => 9,
        "ge" => 10,
        "lt" => 11,
        "gt" => 12,
        "le" => 13,
        "al" => 14,
        "nv" => 15,
        _ => return None,
    })
}

fn parse_greg(s: &str) -> Option<G> {
    let g = |n, x, sp| Some(G { n, x, sp });
    match s {
        "sp" => return g(31, true, true),
        "wsp" => return g(31, false, true),
        "xzr" => return g(31, true, false),
        "wzr" => return g(31, false, false),
        "fp" => return g(29, true, false),
        "lr" => return g(30, true, false),
        _ => {}
    }
    let (x, num) = if let Some(n) = s.strip_prefix('x') {
        (true, n)
    } else {
        (false, s.strip_prefix('w')?)
    };
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || (num.len() > 1 && num.starts_with('0')) {
        return None;
    }
    let n: u32 = num.parse().ok()?;
    (n <= 30).then_some(G { n, x, sp: false })
}

fn reg_num(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0')) {
        return None;
    }
    let n: u32 = s.parse().ok()?;
    (n <= 31).then_some(n)
}

fn parse_vreg(s: &str) -> Option<Op> {
    let size = match s.as_bytes().first()? {
        b'b' => 1,
        b'h' => 2,
        b's' => 4,
        b'd' => 8,
        b'q' => 16,
        b'v' => {
            let rest = &s[1..];
            if let Some((n, arr)) = rest.split_once('.') {
                let n = reg_num(n)?;
                if let Some((k, idx)) = arr.split_once('[') {
                    let idx: u32 = idx.strip_suffix(']')?.parse().ok()?;
                    let k = k.chars().next().filter(|_| k.len() == 1)?;
                    return Some(Op::Elem(n, k, idx));
                }
                return Some(Op::Vec(n, arr.to_string()));
            }
            return None;
        }
        _ => return None,
    };
    Some(Op::V(size, reg_num(&s[1..])?))
}

fn parse_imm(s: &str) -> Option<Op> {
    let body = s.strip_prefix('#')?.trim();
    if let Some(v) = parse_int(body) {
        return Some(Op::Imm(v));
    }
    if body.contains('.') || body.contains('e') {
        let v: f64 = body.parse().ok()?;
        return Some(Op::FImm(v));
    }
    None
}

/// `:mod:expr` or `expr`: the modifier and a symbol expression.
fn parse_sym(s: &str) -> Option<(Option<String>, String, i64)> {
    let (modifier, rest) = match s.strip_prefix(':') {
        Some(r) => {
            let (m, e) = r.split_once(':')?;
            (Some(m.to_string()), e)
        }
        None => (None, s),
    };
    let e = parse_expr(rest)?;
    if e.minus.is_some() {
        return None;
    }
    Some((modifier, e.symbol?, e.addend))
}

fn parse_mem(s: &str) -> Option<Mem> {
    let (inner, pre) = match s.strip_suffix('!') {
        Some(r) => (r.trim_end(), true),
        None => (s, false),
    };
    let inner = inner.strip_prefix('[')?.strip_suffix(']')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let base = parse_greg(parts[0])?;
    if !base.x || (base.n == 31 && !base.sp) {
        return None;
    }
    let off = match parts.len() {
        1 => MemOff::Imm(0),
        2 if parts[1].starts_with('#') => match parse_imm(parts[1])? {
            Op::Imm(v) => MemOff::Imm(v),
            _ => return None,
        },
        2 if parts[1].starts_with(':') => {
            let (m, sym, add) = parse_sym(parts[1])?;
            MemOff::Sym(m?, sym, add)
        }
        2 => MemOff::Reg(parse_greg(parts[1])?, None),
        3 => {
            let r = parse_greg(parts[1])?;
            let (kind, amt) = match parts[2].split_once(char::is_whitespace) {
                Some((k, a)) => match parse_imm(a.trim())? {
                    Op::Imm(v) if (0..=4).contains(&v) => (k, Some(v as u32)),
                    _ => return None,
                },
                None => (parts[2], None),
            };
            MemOff::Reg(r, Some((kind.to_string(), amt)))
        }
        _ => return None,
    };
    if let MemOff::Reg(r, _) = &off {
        if r.sp {
            return None;
        }
    }
    Some(Mem { base, off, pre })
}

/// Splits at top-level commas (not inside brackets or braces).
fn split(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    out
}

fn parse_op(s: &str) -> Option<Op> {
    if s.starts_with('[') {
        return parse_mem(s).map(Op::Mem);
    }
    if s.starts_with('#') {
        return parse_imm(s);
    }
    if let Some(g) = parse_greg(s) {
        return Some(Op::G(g));
    }
    if let Some(v) = parse_vreg(s) {
        return Some(v);
    }
    if let Some(c) = cond_code(s) {
        return Some(Op::Cond(c));
    }
    if let Some((k, a)) = s.split_once(char::is_whitespace) {
        if matches!(
            k,
            "lsl" | "lsr" | "asr" | "ror" | "uxtb" | "uxth" | "uxtw" | "uxtx" | "sxtb" | "sxth" | "sxtw" | "sxtx"
        ) {
            return match parse_imm(a.trim())? {
                Op::Imm(v) if (0..64).contains(&v) => Some(Op::Shift(k.to_string(), Some(v as u32))),
                _ => None,
            };
        }
    }
    if matches!(s, "uxtb" | "uxth" | "uxtw" | "uxtx" | "sxtb" | "sxth" | "sxtw" | "sxtx") {
        return Some(Op::Shift(s.to_string(), None));
    }
    let (m, sym, add) = parse_sym(s)?;
    Some(Op::Sym(m, sym, add))
}

/// The `N:immr:imms` encoding of a logical immediate of `bits` bits, if any
/// (the Arm ARM's `DecodeBitMasks`, inverted).
pub fn logical_imm(value: u64, bits: u32) -> Option<u32> {
    let v = if bits == 32 {
        if value >> 32 != 0 && value >> 32 != 0xffff_ffff {
            return None;
        }
        let lo = value & 0xffff_ffff;
        lo | (lo << 32)
    } else {
        value
    };
    if v == 0 || v == u64::MAX {
        return None;
    }
    // The smallest element size whose pattern repeats.
    let mut size = 64u32;
    while size > 2 {
        let half = size / 2;
        let mask = (1u64 << half) - 1;
        if (v & mask) != ((v >> half) & mask) {
            break;
        }
        size = half;
    }
    let mask = if size == 64 { u64::MAX } else { (1u64 << size) - 1 };
    let elem = v & mask;
    let ones = elem.count_ones();
    // Rotate right until the ones are at the bottom: find r with ror(elem, r) = 2^ones - 1.
    let target = (1u64 << ones) - 1;
    let ror = |x: u64, r: u32| {
        if r == 0 {
            x
        } else {
            ((x >> r) | (x << (size - r))) & mask
        }
    };
    let r = (0..size).find(|&r| ror(elem, r) == target)?;
    // elem = rol(target, r), so the decoder's rotate-right amount is (size - r) % size.
    let immr = (size - r) % size;
    let n = u32::from(size == 64);
    let imms = ((!(size * 2 - 1)) & 0x3f) | (ones - 1);
    if bits == 32 && n == 1 {
        return None;
    }
    Some((n << 12) | (immr << 6) | imms)
}

/// An 8-bit FP immediate (`fmov` form), if `v` has one.
fn fp_imm8(v: f64) -> Option<u32> {
    for imm8 in 0u32..256 {
        let sign = if imm8 & 0x80 != 0 { -1.0 } else { 1.0 };
        let exp = ((imm8 >> 4) & 7) as i32;
        let frac = (imm8 & 15) as f64;
        // exponent: NOT(b):c:d with b = bit 6 -> values -3..4.
        let e = if exp & 4 != 0 { (exp & 3) - 3 } else { (exp & 3) + 1 };
        let val = sign * (16.0 + frac) / 16.0 * 2f64.powi(e);
        if val == v {
            return Some(imm8);
        }
    }
    None
}

fn ftype(size: u32) -> Option<u32> {
    match size {
        4 => Some(0),
        8 => Some(1),
        2 => Some(3),
        _ => None,
    }
}

/// The AArch64 encoder.
#[derive(Default)]
pub struct Aarch64Encoder;

/// What one instruction asks of the object: its word, and a relocation field.
struct Word {
    bits: u32,
    fixup: Option<(u32, String, i64)>,
}

fn w(bits: u32) -> Result<Word, String> {
    Ok(Word { bits, fixup: None })
}

fn sf(g: G) -> u32 {
    u32::from(g.x) << 31
}

/// A general register that is not `sp` (`zr` allowed).
fn rz(op: &Op) -> Result<G, String> {
    match op {
        Op::G(g) if !g.sp => Ok(*g),
        _ => Err(format!("expected a general register, got {op:?}")),
    }
}

/// A general register or `sp` (not `zr`).
fn rsp(op: &Op) -> Result<G, String> {
    match op {
        Op::G(g) if g.n != 31 || g.sp => Ok(*g),
        _ => Err(format!("expected a general register or sp, got {op:?}")),
    }
}

fn same_width(gs: &[G]) -> Result<(), String> {
    if gs.windows(2).all(|p| p[0].x == p[1].x) {
        Ok(())
    } else {
        Err("mixed register widths".into())
    }
}

fn vreg(op: &Op) -> Result<(u32, u32), String> {
    match op {
        Op::V(s, n) => Ok((*s, *n)),
        _ => Err(format!("expected an FP register, got {op:?}")),
    }
}

fn imm(op: &Op) -> Result<i64, String> {
    match op {
        Op::Imm(v) => Ok(*v),
        _ => Err(format!("expected an immediate, got {op:?}")),
    }
}

fn shift_kind(k: &str) -> Option<u32> {
    Some(match k {
        "lsl" => 0,
        "lsr" => 1,
        "asr" => 2,
        "ror" => 3,
        _ => return None,
    })
}

fn extend_kind(k: &str) -> Option<u32> {
    Some(match k {
        "uxtb" => 0,
        "uxth" => 1,
        "uxtw" => 2,
        "uxtx" => 3,
        "sxtb" => 4,
        "sxth" => 5,
        "sxtw" => 6,
        "sxtx" => 7,
        _ => return None,
    })
}

fn invert(c: u32) -> u32 {
    c ^ 1
}

fn lo12_reloc(size: u32) -> u32 {
    match size {
        1 => R_AARCH64_LDST8_ABS_LO12_NC,
        2 => R_AARCH64_LDST16_ABS_LO12_NC,
        4 => R_AARCH64_LDST32_ABS_LO12_NC,
        8 => R_AARCH64_LDST64_ABS_LO12_NC,
        _ => R_AARCH64_LDST128_ABS_LO12_NC,
    }
}

impl Aarch64Encoder {
    /// Add/sub: `add`, `adds`, `sub`, `subs` (op: 0 add, 1 sub; s: flags).
    fn addsub(&self, op: u32, s: u32, d: &Op, n: &Op, m: &Op, shift: Option<&Op>) -> Result<Word, String> {
        match m {
            Op::Imm(v) => {
                let d = if s == 1 { rz(d)? } else { rsp(d)? };
                let n = rsp(n)?;
                same_width(&[d, n])?;
                let (mut op, mut v) = (op, *v);
                let mut sh = match shift {
                    None => 0,
                    Some(Op::Shift(k, Some(12))) if k == "lsl" => 1,
                    Some(Op::Shift(k, Some(0))) if k == "lsl" => 0,
                    Some(x) => return Err(format!("bad shift {x:?}")),
                };
                if v < 0 && !(sh == 0 && v == 0) {
                    op ^= 1;
                    v = -v;
                }
                if sh == 0 && v >= 4096 && v & 0xfff == 0 && v >> 12 < 4096 {
                    sh = 1;
                    v >>= 12;
                }
                if !(0..4096).contains(&v) {
                    return Err(format!("immediate {v} out of range"));
                }
                w(sf(d) | op << 30 | s << 29 | 0x1100_0000 | sh << 22 | (v as u32) << 10 | n.n << 5 | d.n)
            }
            Op::Sym(Some(m), sym, add) => {
                let d = rsp(d)?;
                let n = rsp(n)?;
                let (kind, sh) = match (m.as_str(), shift) {
                    ("lo12", None) => (R_AARCH64_ADD_ABS_LO12_NC, 0),
                    ("tprel_lo12_nc", None) => (R_AARCH64_TLSLE_ADD_TPREL_LO12_NC, 0),
                    ("tprel_hi12", Some(Op::Shift(k, Some(12)))) if k == "lsl" => (R_AARCH64_TLSLE_ADD_TPREL_HI12, 1),
                    _ => return Err(format!("unsupported modifier :{m}:")),
                };
                if op != 0 || s != 0 || !d.x || !n.x {
                    return Err("relocated immediate outside `add`".into());
                }
                Ok(Word {
                    bits: 0x9100_0000 | sh << 22 | n.n << 5 | d.n,
                    fixup: Some((kind, sym.clone(), *add)),
                })
            }
            Op::G(mg) => {
                let dg = if s == 1 { rz(d)? } else { rsp(d)? };
                let mg = rz(&Op::G(*mg))?;
                let extended = matches!(shift, Some(Op::Shift(k, _)) if extend_kind(k).is_some());
                if dg.sp || matches!(n, Op::G(g) if g.sp) || extended {
                    let ng = rsp(n)?;
                    // Extended register: the default extend is uxtx (uxtw for 32-bit).
                    let (opt, amt) = match shift {
                        None => (if dg.x { 3 } else { 2 }, 0),
                        Some(Op::Shift(k, a)) => {
                            let opt = match extend_kind(k) {
                                Some(o) => o,
                                None if k == "lsl" => {
                                    if dg.x {
                                        3
                                    } else {
                                        2
                                    }
                                }
                                None => return Err(format!("bad extend {k}")),
                            };
                            (opt, a.unwrap_or(0))
                        }
                        Some(x) => return Err(format!("bad extend {x:?}")),
                    };
                    if amt > 4 {
                        return Err("extend amount out of range".into());
                    }
                    // The source width follows the extend: x for uxtx/sxtx.
                    if (opt & 3 == 3) != mg.x && dg.x {
                        return Err("extend does not match the register".into());
                    }
                    same_width(&[dg, ng])?;
                    return w(sf(dg)
                        | op << 30
                        | s << 29
                        | 0x0b20_0000
                        | mg.n << 16
                        | opt << 13
                        | amt << 10
                        | ng.n << 5
                        | dg.n);
                }
                let ng = rz(n)?;
                same_width(&[dg, ng, mg])?;
                let (k, a) = match shift {
                    None => (0, 0),
                    Some(Op::Shift(k, Some(a))) => match shift_kind(k) {
                        Some(k) if k != 3 => (k, *a),
                        _ => return Err(format!("bad shift {k}")),
                    },
                    Some(x) => return Err(format!("bad shift {x:?}")),
                };
                if a >= if dg.x { 64 } else { 32 } {
                    return Err("shift out of range".into());
                }
                w(sf(dg) | op << 30 | s << 29 | 0x0b00_0000 | k << 22 | mg.n << 16 | a << 10 | ng.n << 5 | dg.n)
            }
            _ => Err(format!("bad operand {m:?}")),
        }
    }

    /// Logical: opc 0 and, 1 orr, 2 eor, 3 ands; `neg` inverts the register operand (bic, orn, eon, bics).
    fn logical(&self, opc: u32, neg: bool, d: &Op, n: &Op, m: &Op, shift: Option<&Op>) -> Result<Word, String> {
        match m {
            Op::Imm(v) => {
                if neg || shift.is_some() {
                    return Err("bad logical immediate form".into());
                }
                let d = if opc == 3 { rz(d)? } else { rsp(d)? };
                let n = rz(n)?;
                same_width(&[d, n])?;
                let enc = logical_imm(*v as u64, if d.x { 64 } else { 32 })
                    .ok_or_else(|| format!("{v:#x} is not a logical immediate"))?;
                w(sf(d) | opc << 29 | 0x1200_0000 | enc << 10 | n.n << 5 | d.n)
            }
            Op::G(_) => {
                let (d, n, m) = (rz(d)?, rz(n)?, rz(m)?);
                same_width(&[d, n, m])?;
                let (k, a) = match shift {
                    None => (0, 0),
                    Some(Op::Shift(k, Some(a))) => (shift_kind(k).ok_or("bad shift")?, *a),
                    Some(x) => return Err(format!("bad shift {x:?}")),
                };
                if a >= if d.x { 64 } else { 32 } {
                    return Err("shift out of range".into());
                }
                w(sf(d)
                    | opc << 29
                    | 0x0a00_0000
                    | k << 22
                    | u32::from(neg) << 21
                    | m.n << 16
                    | a << 10
                    | n.n << 5
                    | d.n)
            }
            _ => Err(format!("bad operand {m:?}")),
        }
    }

    /// `mov Rd, #imm` as gas picks it: movz, movn, then orr with a bitmask.
    fn mov_imm(&self, d: G, v: i64) -> Result<Word, String> {
        let bits = if d.x { 64 } else { 32 };
        let u = if d.x { v as u64 } else { v as u64 & 0xffff_ffff };
        if !d.x && (v >> 32) != 0 && (v >> 32) != -1 {
            return Err("immediate out of range".into());
        }
        let wide = |x: u64| -> Option<(u32, u32)> {
            (0..bits / 16).find_map(|hw| {
                let mask = 0xffffu64 << (16 * hw);
                (x & !mask == 0).then(|| (((x & mask) >> (16 * hw)) as u32, hw))
            })
        };
        if !d.sp {
            if let Some((i, hw)) = wide(u) {
                return w(sf(d) | 0x5280_0000 | hw << 21 | i << 5 | d.n);
            }
            let inv = if d.x { !u } else { !u & 0xffff_ffff };
            if let Some((i, hw)) = wide(inv) {
                return w(sf(d) | 0x1280_0000 | hw << 21 | i << 5 | d.n);
            }
        }
        let enc = logical_imm(u, bits).ok_or_else(|| format!("cannot move {v:#x} in one instruction"))?;
        w(sf(d) | 0x3200_0000 | enc << 10 | 31 << 5 | d.n)
    }

    /// Unsigned/unscaled/pre/post/register-offset loads and stores. `base`
    /// is the unsigned-offset opcode (bit 24 set); `size` the access size.
    fn ldst(
        &self,
        base: u32,
        size: u32,
        t: u32,
        m: &Mem,
        post: Option<i64>,
        unscaled_only: bool,
    ) -> Result<Word, String> {
        let rn = m.base.n;
        let family = base & !0x0100_0000; // the unscaled/indexed/register family
        if let Some(p) = post {
            if m.pre || m.off != MemOff::Imm(0) || !(-256..256).contains(&p) || unscaled_only {
                return Err("bad post-index".into());
            }
            return w(family | ((p as u32) & 0x1ff) << 12 | 1 << 10 | rn << 5 | t);
        }
        match &m.off {
            MemOff::Imm(d) => {
                let d = *d;
                if m.pre {
                    if !(-256..256).contains(&d) || unscaled_only {
                        return Err("bad pre-index".into());
                    }
                    return w(family | ((d as u32) & 0x1ff) << 12 | 3 << 10 | rn << 5 | t);
                }
                if !unscaled_only && d >= 0 && d % i64::from(size) == 0 && d / i64::from(size) < 4096 {
                    return w(base | ((d / i64::from(size)) as u32) << 10 | rn << 5 | t);
                }
                if (-256..256).contains(&d) {
                    return w(family | ((d as u32) & 0x1ff) << 12 | rn << 5 | t);
                }
                Err(format!("offset {d} out of range"))
            }
            MemOff::Reg(r, ext) => {
                if m.pre || unscaled_only {
                    return Err("bad register offset".into());
                }
                let (opt, s) = match ext {
                    None => (3, 0),
                    Some((k, amt)) => {
                        let opt = match k.as_str() {
                            "lsl" => 3,
                            k => match extend_kind(k) {
                                Some(o @ (2 | 3 | 6 | 7)) => o,
                                _ => return Err(format!("bad extend {k}")),
                            },
                        };
                        let log = size.trailing_zeros();
                        let s = match amt {
                            None => 0,
                            Some(a) if *a == log => 1,
                            Some(0) if size == 1 => 1,
                            Some(0) => 0,
                            _ => return Err("bad shift amount".into()),
                        };
                        if k == "lsl" && amt.is_none() {
                            return Err("lsl needs an amount".into());
                        }
                        (opt, s)
                    }
                };
                if (opt & 1 == 1) != r.x {
                    return Err("index register width".into());
                }
                w(family | 1 << 21 | r.n << 16 | opt << 13 | s << 12 | 2 << 10 | rn << 5 | t)
            }
            MemOff::Sym(modifier, sym, add) => {
                if m.pre || unscaled_only {
                    return Err("bad relocated offset".into());
                }
                let kind = match modifier.as_str() {
                    "lo12" => lo12_reloc(size),
                    "got_lo12" if base == 0xf940_0000 => R_AARCH64_LD64_GOT_LO12_NC,
                    "gottprel_lo12" if base == 0xf940_0000 => R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC,
                    _ => return Err(format!("unsupported modifier :{modifier}:")),
                };
                Ok(Word {
                    bits: base | rn << 5 | t,
                    fixup: Some((kind, sym.clone(), *add)),
                })
            }
        }
    }

    /// `ldr`/`str` family by mnemonic and transfer register.
    fn load_store(&self, mn: &str, ops: &[Op]) -> Result<Word, String> {
        let (unscaled, stem) = match mn.strip_prefix("ldur").or_else(|| mn.strip_prefix("stur")) {
            Some(rest) => (true, format!("{}r{rest}", &mn[..2])),
            None => (false, mn.to_string()),
        };
        let Some(Op::Mem(m)) = ops.get(1) else {
            return Err("expected a memory operand".into());
        };
        let post = match ops.get(2) {
            None => None,
            Some(Op::Imm(p)) if ops.len() == 3 => Some(*p),
            Some(x) => return Err(format!("bad operand {x:?}")),
        };
        let (base, size, t) = match (stem.as_str(), &ops[0]) {
            ("ldr" | "str", Op::G(g)) if !g.sp => {
                let load = stem == "ldr";
                let b = match (g.x, load) {
                    (true, true) => 0xf940_0000,
                    (true, false) => 0xf900_0000,
                    (false, true) => 0xb940_0000,
                    (false, false) => 0xb900_0000,
                };
                (b, if g.x { 8 } else { 4 }, g.n)
            }
            ("ldr" | "str", Op::V(s, n)) => {
                let load = u32::from(stem == "ldr");
                let b = match s {
                    1 => 0x3d00_0000,
                    2 => 0x7d00_0000,
                    4 => 0xbd00_0000,
                    8 => 0xfd00_0000,
                    _ => 0x3d80_0000,
                };
                (b | load << 22, *s, *n)
            }
            ("ldrb" | "strb" | "ldrh" | "strh", Op::G(g)) if !g.sp && !g.x => {
                let b = match stem.as_str() {
                    "ldrb" => 0x3940_0000,
                    "strb" => 0x3900_0000,
                    "ldrh" => 0x7940_0000,
                    _ => 0x7900_0000,
                };
                (b, if stem.ends_with('b') { 1 } else { 2 }, g.n)
            }
            ("ldrsb" | "ldrsh", Op::G(g)) if !g.sp => {
                let b = if stem == "ldrsb" { 0x3980_0000 } else { 0x7980_0000 };
                (b | u32::from(!g.x) << 22, if stem == "ldrsb" { 1 } else { 2 }, g.n)
            }
            ("ldrsw", Op::G(g)) if !g.sp && g.x => (0xb980_0000, 4, g.n),
            _ => return Err(format!("unsupported {mn} form")),
        };
        self.ldst(base, size, t, m, post, unscaled)
    }

    fn pair(&self, mn: &str, ops: &[Op]) -> Result<Word, String> {
        let load = u32::from(mn == "ldp");
        let (opc_v, size, t1, t2) = match (&ops[0], &ops[1]) {
            (Op::G(a), Op::G(b)) if !a.sp && !b.sp && a.x == b.x => {
                (if a.x { 0x8000_0000 } else { 0 }, if a.x { 8 } else { 4 }, a.n, b.n)
            }
            (Op::V(s1, a), Op::V(s2, b)) if s1 == s2 => {
                let opc = match s1 {
                    4 => 0,
                    8 => 0x4000_0000,
                    16 => 0x8000_0000,
                    _ => return Err("bad pair size".into()),
                };
                (opc | 0x0400_0000, *s1, *a, *b)
            }
            _ => return Err("bad pair registers".into()),
        };
        let Some(Op::Mem(m)) = ops.get(2) else {
            return Err("expected a memory operand".into());
        };
        let (mode, off) = match (ops.get(3), &m.off, m.pre) {
            (None, MemOff::Imm(d), false) => (2, *d),
            (None, MemOff::Imm(d), true) => (3, *d),
            (Some(Op::Imm(p)), MemOff::Imm(0), false) if ops.len() == 4 => (1, *p),
            _ => return Err("bad pair addressing".into()),
        };
        let size = i64::from(size);
        if off % size != 0 || !(-64..64).contains(&(off / size)) {
            return Err(format!("pair offset {off} out of range"));
        }
        let imm7 = ((off / size) as u32) & 0x7f;
        w(opc_v | 0x2800_0000 | mode << 23 | load << 22 | imm7 << 15 | t2 << 10 | m.base.n << 5 | t1)
    }

    fn branch_target(op: &Op) -> Result<(String, i64), String> {
        match op {
            Op::Sym(None, s, a) => Ok((s.clone(), *a)),
            _ => Err(format!("expected a label, got {op:?}")),
        }
    }

    fn word(&self, mn: &str, ops: &[Op]) -> Result<Word, String> {
        let n = ops.len();
        let arity = |k: usize| -> Result<(), String> {
            if n == k {
                Ok(())
            } else {
                Err(format!("{mn} takes {k} operands"))
            }
        };
        if let Some(c) = mn.strip_prefix("b.") {
            arity(1)?;
            let c = cond_code(c).ok_or("bad condition")?;
            let (s, a) = Self::branch_target(&ops[0])?;
            return Ok(Word {
                bits: 0x5400_0000 | c,
                fixup: Some((R_AARCH64_CONDBR19, s, a)),
            });
        }
        match mn {
            "add" | "adds" | "sub" | "subs" => {
                if !(3..=4).contains(&n) {
                    return Err("bad operand count".into());
                }
                let op = u32::from(mn.starts_with("sub"));
                let s = u32::from(mn.ends_with('s'));
                self.addsub(op, s, &ops[0], &ops[1], &ops[2], ops.get(3))
            }
            "cmp" | "cmn" => {
                if !(2..=3).contains(&n) {
                    return Err("bad operand count".into());
                }
                let zr = Op::G(G {
                    n: 31,
                    x: matches!(&ops[0], Op::G(g) if g.x),
                    sp: false,
                });
                self.addsub(u32::from(mn == "cmp"), 1, &zr, &ops[0], &ops[1], ops.get(2))
            }
            "neg" | "negs" => {
                if !(2..=3).contains(&n) {
                    return Err("bad operand count".into());
                }
                let d = rz(&ops[0])?;
                let zr = Op::G(G {
                    n: 31,
                    x: d.x,
                    sp: false,
                });
                if !matches!(ops[1], Op::G(_)) {
                    return Err("neg takes a register".into());
                }
                self.addsub(1, u32::from(mn == "negs"), &ops[0], &zr, &ops[1], ops.get(2))
            }
            "and" | "orr" | "eor" | "ands" | "bic" | "orn" | "eon" | "bics" => {
                if !(3..=4).contains(&n) {
                    return Err("bad operand count".into());
                }
                let (opc, neg) = match mn {
                    "and" => (0, false),
                    "orr" => (1, false),
                    "eor" => (2, false),
                    "ands" => (3, false),
                    "bic" => (0, true),
                    "orn" => (1, true),
                    "eon" => (2, true),
                    _ => (3, true),
                };
                self.logical(opc, neg, &ops[0], &ops[1], &ops[2], ops.get(3))
            }
            "tst" => {
                if !(2..=3).contains(&n) {
                    return Err("bad operand count".into());
                }
                let x = matches!(&ops[0], Op::G(g) if g.x);
                let zr = Op::G(G { n: 31, x, sp: false });
                self.logical(3, false, &zr, &ops[0], &ops[1], ops.get(2))
            }
            "mvn" => {
                if !(2..=3).contains(&n) {
                    return Err("bad operand count".into());
                }
                let d = rz(&ops[0])?;
                let zr = Op::G(G {
                    n: 31,
                    x: d.x,
                    sp: false,
                });
                self.logical(1, true, &ops[0], &zr, &ops[1], ops.get(2))
            }
            "mov" => {
                arity(2)?;
                match (&ops[0], &ops[1]) {
                    (Op::G(d), Op::G(s)) if d.sp || s.sp => {
                        let (d, s) = (rsp(&ops[0])?, rsp(&ops[1])?);
                        same_width(&[d, s])?;
                        w(sf(d) | 0x1100_0000 | s.n << 5 | d.n)
                    }
                    (Op::G(d), Op::G(s)) => {
                        same_width(&[*d, *s])?;
                        w(sf(*d) | 0x2a00_0000 | s.n << 16 | 31 << 5 | d.n)
                    }
                    (Op::G(d), Op::Imm(v)) => self.mov_imm(*d, *v),
                    (Op::V(8, d), Op::V(8, s)) | (Op::V(4, d), Op::V(4, s)) => {
                        // mov between scalar FP registers is not an alias; refuse.
                        let _ = (d, s);
                        Err("mov between FP registers".into())
                    }
                    _ => Err("unsupported mov form".into()),
                }
            }
            "movz" | "movn" | "movk" => {
                if !(2..=3).contains(&n) {
                    return Err("bad operand count".into());
                }
                let d = rz(&ops[0])?;
                let v = imm(&ops[1])?;
                let sh = match ops.get(2) {
                    None => 0,
                    Some(Op::Shift(k, Some(a))) if k == "lsl" && a % 16 == 0 && *a < if d.x { 64 } else { 32 } => *a,
                    Some(x) => return Err(format!("bad shift {x:?}")),
                };
                if !(0..=0xffff).contains(&v) {
                    return Err("immediate out of range".into());
                }
                let opc = match mn {
                    "movn" => 0,
                    "movz" => 2,
                    _ => 3,
                };
                w(sf(d) | opc << 29 | 0x1280_0000 | (sh / 16) << 21 | (v as u32) << 5 | d.n)
            }
            "lsl" | "lsr" | "asr" | "ror" => {
                arity(3)?;
                let (d, s) = (rz(&ops[0])?, rz(&ops[1])?);
                same_width(&[d, s])?;
                let size = if d.x { 64 } else { 32 };
                let nbit = if d.x { 0x8040_0000 } else { 0 };
                match &ops[2] {
                    Op::G(m) => {
                        let m = rz(&Op::G(*m))?;
                        same_width(&[d, m])?;
                        let op2 = match mn {
                            "lsl" => 0,
                            "lsr" => 1,
                            "asr" => 2,
                            _ => 3,
                        };
                        w(sf(d) | 0x1ac0_2000 | m.n << 16 | op2 << 10 | s.n << 5 | d.n)
                    }
                    Op::Imm(v) if (0..i64::from(size)).contains(v) => {
                        let v = *v as u32;
                        match mn {
                            "lsl" => w(nbit
                                | 0x5300_0000
                                | ((size - v) % size) << 16
                                | (size - 1 - v) << 10
                                | s.n << 5
                                | d.n),
                            "lsr" => w(nbit | 0x5300_0000 | v << 16 | (size - 1) << 10 | s.n << 5 | d.n),
                            "asr" => w(nbit | 0x1300_0000 | v << 16 | (size - 1) << 10 | s.n << 5 | d.n),
                            // ror #n is extr Rd, Rs, Rs, #n.
                            _ => w(sf(d) | (nbit & 0x0040_0000) | 0x1380_0000 | s.n << 16 | v << 10 | s.n << 5 | d.n),
                        }
                    }
                    x => Err(format!("bad shift operand {x:?}")),
                }
            }
            "sxtb" | "sxth" | "sxtw" | "uxtb" | "uxth" => {
                arity(2)?;
                let (d, s) = (rz(&ops[0])?, rz(&ops[1])?);
                if s.x || (mn.starts_with('u') && d.x) || (mn == "sxtw" && !d.x) {
                    return Err(format!("bad {mn} registers"));
                }
                let imms = match &mn[3..] {
                    "b" => 7,
                    "h" => 15,
                    _ => 31,
                };
                let base = if mn.starts_with('s') { 0x1300_0000 } else { 0x5300_0000 };
                let nbit = if d.x { 0x8040_0000 } else { 0 };
                w(nbit | base | imms << 10 | s.n << 5 | d.n)
            }
            "ubfx" | "sbfx" | "ubfiz" | "sbfiz" | "bfi" | "bfxil" => {
                arity(4)?;
                let (d, s) = (rz(&ops[0])?, rz(&ops[1])?);
                same_width(&[d, s])?;
                let (lsb, width) = (imm(&ops[2])?, imm(&ops[3])?);
                let size = if d.x { 64 } else { 32 };
                if lsb < 0 || width < 1 || lsb + width > size {
                    return Err("bad bitfield".into());
                }
                let (lsb, width, size) = (lsb as u32, width as u32, size as u32);
                let base = match mn {
                    "sbfx" | "sbfiz" => 0x1300_0000,
                    "bfi" | "bfxil" => 0x3300_0000,
                    _ => 0x5300_0000,
                };
                let (immr, imms) = if mn.ends_with("iz") || mn == "bfi" {
                    ((size - lsb) % size, width - 1)
                } else {
                    (lsb, lsb + width - 1)
                };
                let nbit = if d.x { 0x8040_0000 } else { 0 };
                w(nbit | base | immr << 16 | imms << 10 | s.n << 5 | d.n)
            }
            "sdiv" | "udiv" => {
                arity(3)?;
                let (d, a, b) = (rz(&ops[0])?, rz(&ops[1])?, rz(&ops[2])?);
                same_width(&[d, a, b])?;
                let o = if mn == "sdiv" { 0xc00 } else { 0x800 };
                w(sf(d) | 0x1ac0_0000 | o | b.n << 16 | a.n << 5 | d.n)
            }
            "mul" | "mneg" | "madd" | "msub" => {
                let (d, a, b) = (rz(&ops[0])?, rz(&ops[1])?, rz(&ops[2])?);
                let (acc, o0) = match mn {
                    "mul" => {
                        arity(3)?;
                        (31, 0)
                    }
                    "mneg" => {
                        arity(3)?;
                        (31, 1)
                    }
                    _ => {
                        arity(4)?;
                        let c = rz(&ops[3])?;
                        same_width(&[d, c])?;
                        (c.n, u32::from(mn == "msub"))
                    }
                };
                same_width(&[d, a, b])?;
                w(sf(d) | 0x1b00_0000 | b.n << 16 | o0 << 15 | acc << 10 | a.n << 5 | d.n)
            }
            "umulh" | "smulh" => {
                arity(3)?;
                let (d, a, b) = (rz(&ops[0])?, rz(&ops[1])?, rz(&ops[2])?);
                if !(d.x && a.x && b.x) {
                    return Err("umulh takes x registers".into());
                }
                let base = if mn == "umulh" { 0x9bc0_7c00 } else { 0x9b40_7c00 };
                w(base | b.n << 16 | a.n << 5 | d.n)
            }
            "smull" | "umull" => {
                arity(3)?;
                let (d, a, b) = (rz(&ops[0])?, rz(&ops[1])?, rz(&ops[2])?);
                if !d.x || a.x || b.x {
                    return Err("bad long multiply registers".into());
                }
                let base = if mn == "umull" { 0x9ba0_7c00 } else { 0x9b20_7c00 };
                w(base | b.n << 16 | a.n << 5 | d.n)
            }
            "rbit" | "rev16" | "rev" | "rev32" | "clz" | "cls" => {
                arity(2)?;
                let (d, s) = (rz(&ops[0])?, rz(&ops[1])?);
                same_width(&[d, s])?;
                let opc = match (mn, d.x) {
                    ("rbit", _) => 0x000,
                    ("rev16", _) => 0x400,
                    ("rev32", true) => 0x800,
                    ("rev", false) => 0x800,
                    ("rev", true) => 0xc00,
                    ("clz", _) => 0x1000,
                    ("cls", _) => 0x1400,
                    _ => return Err("bad rev form".into()),
                };
                w(sf(d) | 0x5ac0_0000 | opc | s.n << 5 | d.n)
            }
            "adc" | "adcs" | "sbc" | "sbcs" => {
                arity(3)?;
                let (d, a, b) = (rz(&ops[0])?, rz(&ops[1])?, rz(&ops[2])?);
                same_width(&[d, a, b])?;
                let op = u32::from(mn.starts_with("sbc")) << 30 | u32::from(mn.ends_with('s')) << 29;
                w(sf(d) | op | 0x1a00_0000 | b.n << 16 | a.n << 5 | d.n)
            }
            "ngc" | "ngcs" => {
                arity(2)?;
                let (d, b) = (rz(&ops[0])?, rz(&ops[1])?);
                same_width(&[d, b])?;
                w(sf(d) | 1 << 30 | u32::from(mn == "ngcs") << 29 | 0x1a00_0000 | b.n << 16 | 31 << 5 | d.n)
            }
            "csel" | "csinc" | "csinv" | "csneg" => {
                arity(4)?;
                let (d, a, b) = (rz(&ops[0])?, rz(&ops[1])?, rz(&ops[2])?);
                same_width(&[d, a, b])?;
                let Op::Cond(c) = ops[3] else {
                    return Err("expected a condition".into());
                };
                let base = match mn {
                    "csel" => 0x1a80_0000,
                    "csinc" => 0x1a80_0400,
                    "csinv" => 0x5a80_0000,
                    _ => 0x5a80_0400,
                };
                w(sf(d) | base | b.n << 16 | c << 12 | a.n << 5 | d.n)
            }
            "cset" | "csetm" => {
                arity(2)?;
                let d = rz(&ops[0])?;
                let Op::Cond(c) = ops[1] else {
                    return Err("expected a condition".into());
                };
                if c >= 14 {
                    return Err("cset with al/nv".into());
                }
                let base = if mn == "cset" { 0x1a80_0400 } else { 0x5a80_0000 };
                w(sf(d) | base | 31 << 16 | invert(c) << 12 | 31 << 5 | d.n)
            }
            "cinc" | "cneg" | "cinv" => {
                arity(3)?;
                let (d, a) = (rz(&ops[0])?, rz(&ops[1])?);
                same_width(&[d, a])?;
                let Op::Cond(c) = ops[2] else {
                    return Err("expected a condition".into());
                };
                if c >= 14 {
                    return Err("condition al/nv".into());
                }
                let base = match mn {
                    "cinc" => 0x1a80_0400,
                    "cinv" => 0x5a80_0000,
                    _ => 0x5a80_0400,
                };
                w(sf(d) | base | a.n << 16 | invert(c) << 12 | a.n << 5 | d.n)
            }
            "ccmp" | "ccmn" => {
                arity(4)?;
                let a = rz(&ops[0])?;
                let nzcv = imm(&ops[2])?;
                let Op::Cond(c) = ops[3] else {
                    return Err("expected a condition".into());
                };
                if !(0..16).contains(&nzcv) {
                    return Err("bad nzcv".into());
                }
                let op = if mn == "ccmp" { 0x7a40_0000 } else { 0x3a40_0000 };
                let (rm, immf) = match &ops[1] {
                    Op::G(b) => {
                        let b = rz(&Op::G(*b))?;
                        same_width(&[a, b])?;
                        (b.n, 0)
                    }
                    Op::Imm(v) if (0..32).contains(v) => (*v as u32, 0x800),
                    x => return Err(format!("bad ccmp operand {x:?}")),
                };
                w(sf(a) | op | immf | rm << 16 | c << 12 | a.n << 5 | nzcv as u32)
            }
            "b" | "bl" => {
                arity(1)?;
                let (s, a) = Self::branch_target(&ops[0])?;
                let (bits, kind) = if mn == "b" {
                    (0x1400_0000, R_AARCH64_JUMP26)
                } else {
                    (0x9400_0000, R_AARCH64_CALL26)
                };
                Ok(Word {
                    bits,
                    fixup: Some((kind, s, a)),
                })
            }
            "cbz" | "cbnz" => {
                arity(2)?;
                let t = rz(&ops[0])?;
                let (s, a) = Self::branch_target(&ops[1])?;
                Ok(Word {
                    bits: sf(t) | 0x3400_0000 | u32::from(mn == "cbnz") << 24 | t.n,
                    fixup: Some((R_AARCH64_CONDBR19, s, a)),
                })
            }
            "tbz" | "tbnz" => {
                arity(3)?;
                let t = rz(&ops[0])?;
                let bit = imm(&ops[1])?;
                if !(0..if t.x { 64 } else { 32 }).contains(&bit) {
                    return Err("bit out of range".into());
                }
                let bit = bit as u32;
                let (s, a) = Self::branch_target(&ops[2])?;
                Ok(Word {
                    bits: (bit >> 5) << 31 | 0x3600_0000 | u32::from(mn == "tbnz") << 24 | (bit & 31) << 19 | t.n,
                    fixup: Some((R_AARCH64_TSTBR14, s, a)),
                })
            }
            "br" | "blr" => {
                arity(1)?;
                let r = rz(&ops[0])?;
                if !r.x {
                    return Err("branch register must be x".into());
                }
                w(if mn == "br" { 0xd61f_0000 } else { 0xd63f_0000 } | r.n << 5)
            }
            "ret" => {
                let r = match ops.first() {
                    None => 30,
                    Some(o) => {
                        let r = rz(o)?;
                        if !r.x {
                            return Err("ret takes an x register".into());
                        }
                        r.n
                    }
                };
                if n > 1 {
                    return Err("bad ret".into());
                }
                w(0xd65f_0000 | r << 5)
            }
            "adr" | "adrp" => {
                arity(2)?;
                let d = rz(&ops[0])?;
                if !d.x {
                    return Err("adr takes an x register".into());
                }
                let (kind, s, a) = match (&ops[1], mn) {
                    (Op::Sym(None, s, a), "adr") => (R_AARCH64_ADR_PREL_LO21, s, a),
                    (Op::Sym(None, s, a), _) => (R_AARCH64_ADR_PREL_PG_HI21, s, a),
                    (Op::Sym(Some(m), s, a), "adrp") if m == "got" => (R_AARCH64_ADR_GOT_PAGE, s, a),
                    (Op::Sym(Some(m), s, a), "adrp") if m == "gottprel" => (R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21, s, a),
                    _ => return Err("bad adr operand".into()),
                };
                Ok(Word {
                    bits: if mn == "adr" { 0x1000_0000 } else { 0x9000_0000 } | d.n,
                    fixup: Some((kind, s.clone(), *a)),
                })
            }
            "ldr" | "str" | "ldrb" | "strb" | "ldrh" | "strh" | "ldrsb" | "ldrsh" | "ldrsw" | "ldur" | "stur"
            | "ldurb" | "sturb" | "ldurh" | "sturh" | "ldursb" | "ldursh" | "ldursw" => {
                if !(2..=3).contains(&n) {
                    return Err("bad operand count".into());
                }
                self.load_store(mn, ops)
            }
            "ldp" | "stp" => {
                if !(3..=4).contains(&n) {
                    return Err("bad operand count".into());
                }
                self.pair(mn, ops)
            }
            "ldaxr" | "ldxr" | "ldar" | "ldaxrb" | "ldxrb" | "ldarb" | "ldaxrh" | "ldxrh" | "ldarh" | "stlr"
            | "stlrb" | "stlrh" => {
                arity(2)?;
                let t = rz(&ops[0])?;
                let Op::Mem(m) = &ops[1] else {
                    return Err("expected [Xn]".into());
                };
                if m.off != MemOff::Imm(0) || m.pre {
                    return Err("exclusive access takes [Xn]".into());
                }
                let (stem, size) = match mn.strip_suffix('b') {
                    Some(s) => (s, 0u32),
                    None => match mn.strip_suffix('h') {
                        Some(s) => (s, 1),
                        None => (mn, if t.x { 3 } else { 2 }),
                    },
                };
                if size < 2 && t.x {
                    return Err("byte/half exclusives take w registers".into());
                }
                let base = match stem {
                    "ldaxr" => 0x085f_fc00,
                    "ldxr" => 0x085f_7c00,
                    "ldar" => 0x08df_fc00,
                    _ => 0x089f_fc00,
                };
                w(size << 30 | base | m.base.n << 5 | t.n)
            }
            "stlxr" | "stxr" | "stlxrb" | "stxrb" | "stlxrh" | "stxrh" => {
                arity(3)?;
                let s = rz(&ops[0])?;
                let t = rz(&ops[1])?;
                let Op::Mem(m) = &ops[2] else {
                    return Err("expected [Xn]".into());
                };
                if s.x || m.off != MemOff::Imm(0) || m.pre {
                    return Err("bad store-exclusive".into());
                }
                let (stem, size) = match mn.strip_suffix('b') {
                    Some(x) => (x, 0u32),
                    None => match mn.strip_suffix('h') {
                        Some(x) => (x, 1),
                        None => (mn, if t.x { 3 } else { 2 }),
                    },
                };
                if size < 2 && t.x {
                    return Err("byte/half exclusives take w registers".into());
                }
                let base = if stem == "stlxr" { 0x0800_fc00 } else { 0x0800_7c00 };
                w(size << 30 | base | s.n << 16 | m.base.n << 5 | t.n)
            }
            "clrex" => {
                arity(0)?;
                w(0xd503_3f5f)
            }
            "nop" => {
                arity(0)?;
                w(0xd503_201f)
            }
            "yield" => {
                arity(0)?;
                w(0xd503_203f)
            }
            "isb" => {
                arity(0)?;
                w(0xd503_3fdf)
            }
            "dmb" | "dsb" => {
                arity(1)?;
                let Op::Sym(None, opt, 0) = &ops[0] else {
                    return Err("bad barrier option".into());
                };
                let crm = match opt.as_str() {
                    "sy" => 15,
                    "st" => 14,
                    "ld" => 13,
                    "ish" => 11,
                    "ishst" => 10,
                    "ishld" => 9,
                    "nsh" => 7,
                    "osh" => 3,
                    _ => return Err("bad barrier option".into()),
                };
                w(if mn == "dmb" { 0xd503_30bf } else { 0xd503_309f } | crm << 8)
            }
            "brk" | "svc" => {
                arity(1)?;
                let v = imm(&ops[0])?;
                if !(0..=0xffff).contains(&v) {
                    return Err("immediate out of range".into());
                }
                w(if mn == "brk" { 0xd420_0000 } else { 0xd400_0001 } | (v as u32) << 5)
            }
            "mrs" => {
                arity(2)?;
                let t = rz(&ops[0])?;
                match &ops[1] {
                    Op::Sym(None, r, 0) if r == "tpidr_el0" && t.x => w(0xd53b_d040 | t.n),
                    _ => Err("unsupported system register".into()),
                }
            }
            "msr" => {
                arity(2)?;
                let t = rz(&ops[1])?;
                match &ops[0] {
                    Op::Sym(None, r, 0) if r == "tpidr_el0" && t.x => w(0xd51b_d040 | t.n),
                    _ => Err("unsupported system register".into()),
                }
            }
            "dc" => {
                arity(2)?;
                let t = rz(&ops[1])?;
                match &ops[0] {
                    Op::Sym(None, r, 0) if r == "civac" && t.x => w(0xd50b_7e20 | t.n),
                    Op::Sym(None, r, 0) if r == "cvau" && t.x => w(0xd50b_7b20 | t.n),
                    _ => Err("unsupported dc operation".into()),
                }
            }
            "ic" => {
                arity(2)?;
                let t = rz(&ops[1])?;
                match &ops[0] {
                    Op::Sym(None, r, 0) if r == "ivau" && t.x => w(0xd50b_7520 | t.n),
                    _ => Err("unsupported ic operation".into()),
                }
            }
            "fadd" | "fsub" | "fmul" | "fdiv" | "fmax" | "fmin" | "fmaxnm" | "fminnm" | "fnmul" => {
                arity(3)?;
                let (d, a, b) = (vreg(&ops[0])?, vreg(&ops[1])?, vreg(&ops[2])?);
                if d.0 != a.0 || d.0 != b.0 {
                    return Err("mixed FP sizes".into());
                }
                let t = ftype(d.0).ok_or("bad FP size")?;
                let opc = match mn {
                    "fmul" => 0,
                    "fdiv" => 1,
                    "fadd" => 2,
                    "fsub" => 3,
                    "fmax" => 4,
                    "fmin" => 5,
                    "fmaxnm" => 6,
                    "fminnm" => 7,
                    _ => 8,
                };
                w(0x1e20_0800 | t << 22 | b.1 << 16 | opc << 12 | a.1 << 5 | d.1)
            }
            "fmadd" | "fmsub" | "fnmadd" | "fnmsub" => {
                arity(4)?;
                let (d, a, b, c) = (vreg(&ops[0])?, vreg(&ops[1])?, vreg(&ops[2])?, vreg(&ops[3])?);
                if d.0 != a.0 || d.0 != b.0 || d.0 != c.0 {
                    return Err("mixed FP sizes".into());
                }
                let t = ftype(d.0).ok_or("bad FP size")?;
                let o = match mn {
                    "fmadd" => 0,
                    "fmsub" => 0x8000,
                    "fnmadd" => 0x20_0000,
                    _ => 0x20_8000,
                };
                w(0x1f00_0000 | o | t << 22 | b.1 << 16 | c.1 << 10 | a.1 << 5 | d.1)
            }
            "fabs" | "fneg" | "fsqrt" | "frintz" | "frintm" | "frintp" | "frintn" | "frinta" | "frintx" | "frinti" => {
                arity(2)?;
                let (d, s) = (vreg(&ops[0])?, vreg(&ops[1])?);
                if d.0 != s.0 {
                    return Err("mixed FP sizes".into());
                }
                let t = ftype(d.0).ok_or("bad FP size")?;
                let opc = match mn {
                    "fabs" => 1,
                    "fneg" => 2,
                    "fsqrt" => 3,
                    "frintn" => 8,
                    "frintp" => 9,
                    "frintm" => 10,
                    "frintz" => 11,
                    "frinta" => 12,
                    "frintx" => 14,
                    _ => 15,
                };
                w(0x1e20_4000 | t << 22 | opc << 15 | s.1 << 5 | d.1)
            }
            "fcvt" => {
                arity(2)?;
                let (d, s) = (vreg(&ops[0])?, vreg(&ops[1])?);
                let (td, ts) = (ftype(d.0).ok_or("bad FP size")?, ftype(s.0).ok_or("bad FP size")?);
                if td == ts {
                    return Err("fcvt to the same size".into());
                }
                w(0x1e22_4000 | ts << 22 | td << 15 | s.1 << 5 | d.1)
            }
            "fcmp" | "fcmpe" => {
                arity(2)?;
                let a = vreg(&ops[0])?;
                let t = ftype(a.0).ok_or("bad FP size")?;
                let e = if mn == "fcmpe" { 0x10 } else { 0 };
                match &ops[1] {
                    Op::V(..) => {
                        let b = vreg(&ops[1])?;
                        if a.0 != b.0 {
                            return Err("mixed FP sizes".into());
                        }
                        w(0x1e20_2000 | t << 22 | b.1 << 16 | a.1 << 5 | e)
                    }
                    Op::FImm(z) if *z == 0.0 => w(0x1e20_2008 | t << 22 | a.1 << 5 | e),
                    Op::Imm(0) => w(0x1e20_2008 | t << 22 | a.1 << 5 | e),
                    x => Err(format!("bad fcmp operand {x:?}")),
                }
            }
            "fcsel" => {
                arity(4)?;
                let (d, a, b) = (vreg(&ops[0])?, vreg(&ops[1])?, vreg(&ops[2])?);
                if d.0 != a.0 || d.0 != b.0 {
                    return Err("mixed FP sizes".into());
                }
                let t = ftype(d.0).ok_or("bad FP size")?;
                let Op::Cond(c) = ops[3] else {
                    return Err("expected a condition".into());
                };
                w(0x1e20_0c00 | t << 22 | b.1 << 16 | c << 12 | a.1 << 5 | d.1)
            }
            "scvtf" | "ucvtf" => {
                arity(2)?;
                let d = vreg(&ops[0])?;
                let s = rz(&ops[1])?;
                let t = ftype(d.0).ok_or("bad FP size")?;
                let o = if mn == "scvtf" { 0x2_0000 } else { 0x3_0000 };
                w(sf(s) | 0x1e20_0000 | t << 22 | o | s.n << 5 | d.1)
            }
            "fcvtzs" | "fcvtzu" | "fcvtas" | "fcvtau" | "fcvtns" | "fcvtnu" | "fcvtms" | "fcvtmu" | "fcvtps"
            | "fcvtpu" => {
                arity(2)?;
                let d = rz(&ops[0])?;
                let s = vreg(&ops[1])?;
                let t = ftype(s.0).ok_or("bad FP size")?;
                let (rmode, opc) = match mn {
                    "fcvtns" => (0, 0),
                    "fcvtnu" => (0, 1),
                    "fcvtas" => (0, 4),
                    "fcvtau" => (0, 5),
                    "fcvtps" => (1, 0),
                    "fcvtpu" => (1, 1),
                    "fcvtms" => (2, 0),
                    "fcvtmu" => (2, 1),
                    "fcvtzs" => (3, 0),
                    _ => (3, 1),
                };
                w(sf(d) | 0x1e20_0000 | t << 22 | rmode << 19 | opc << 16 | s.1 << 5 | d.n)
            }
            "fmov" => {
                arity(2)?;
                match (&ops[0], &ops[1]) {
                    (Op::V(a, d), Op::V(b, s)) if a == b => {
                        let t = ftype(*a).ok_or("bad FP size")?;
                        w(0x1e20_4000 | t << 22 | s << 5 | d)
                    }
                    (Op::V(a, d), Op::G(g)) if !g.sp => match (a, g.x) {
                        (4, false) => w(0x1e27_0000 | g.n << 5 | d),
                        (8, true) => w(0x9e67_0000 | g.n << 5 | d),
                        (2, false) => w(0x1ee7_0000 | g.n << 5 | d),
                        (2, true) => w(0x9ee7_0000 | g.n << 5 | d),
                        _ => Err("bad fmov sizes".into()),
                    },
                    (Op::G(g), Op::V(a, s)) if !g.sp => match (a, g.x) {
                        (4, false) => w(0x1e26_0000 | s << 5 | g.n),
                        (8, true) => w(0x9e66_0000 | s << 5 | g.n),
                        (2, false) => w(0x1ee6_0000 | s << 5 | g.n),
                        (2, true) => w(0x9ee6_0000 | s << 5 | g.n),
                        _ => Err("bad fmov sizes".into()),
                    },
                    (Op::Elem(d, 'd', 1), Op::G(g)) if g.x && !g.sp => w(0x9eaf_0000 | g.n << 5 | d),
                    (Op::G(g), Op::Elem(s, 'd', 1)) if g.x && !g.sp => w(0x9eae_0000 | s << 5 | g.n),
                    (Op::V(a, d), Op::FImm(v)) => {
                        let t = ftype(*a).ok_or("bad FP size")?;
                        let i = fp_imm8(*v).ok_or_else(|| format!("{v} is not an FP immediate"))?;
                        w(0x1e20_1000 | t << 22 | i << 13 | d)
                    }
                    _ => Err("unsupported fmov form".into()),
                }
            }
            "movi" => {
                arity(2)?;
                let v = imm(&ops[1])?;
                // Each byte of the 64-bit immediate is 0x00 or 0xff.
                let u = v as u64;
                let mut abcdefgh = 0u32;
                for k in 0..8 {
                    match (u >> (8 * k)) & 0xff {
                        0 => {}
                        0xff => abcdefgh |= 1 << k,
                        _ => return Err("movi immediate is not a byte mask".into()),
                    }
                }
                let enc = (abcdefgh >> 5) << 16 | (abcdefgh & 31) << 5;
                match &ops[0] {
                    Op::V(8, d) => w(0x2f00_e400 | enc | d),
                    Op::Vec(d, arr) if arr == "2d" => w(0x6f00_e400 | enc | d),
                    _ => Err("unsupported movi form".into()),
                }
            }
            "cnt" => {
                arity(2)?;
                match (&ops[0], &ops[1]) {
                    (Op::Vec(d, a), Op::Vec(s, b)) if a == b && (a == "8b" || a == "16b") => {
                        w(u32::from(a == "16b") << 30 | 0x0e20_5800 | s << 5 | d)
                    }
                    _ => Err("unsupported cnt form".into()),
                }
            }
            "addv" => {
                arity(2)?;
                match (&ops[0], &ops[1]) {
                    (Op::V(1, d), Op::Vec(s, a)) if a == "8b" || a == "16b" => {
                        w(u32::from(a == "16b") << 30 | 0x0e31_b800 | s << 5 | d)
                    }
                    _ => Err("unsupported addv form".into()),
                }
            }
            _ => Err(format!("unsupported instruction `{mn}`")),
        }
    }
}

impl InstEncoder for Aarch64Encoder {
    fn target(&self) -> Target {
        Target::Aarch64
    }

    fn encode(&mut self, mnemonic: &str, operands: &str, obj: &mut ObjectBuilder) -> Result<(), String> {
        let mut ops = Vec::new();
        let parts = split(operands);
        // A branch's label may be spelled like a condition (`bl hi`).
        let label_last = mnemonic.starts_with("b.")
            || matches!(mnemonic, "b" | "bl" | "cbz" | "cbnz" | "tbz" | "tbnz" | "adr" | "adrp");
        for (i, s) in parts.iter().enumerate() {
            let op = if label_last && i + 1 == parts.len() && parse_greg(s).is_none() {
                parse_sym(s).map(|(m, sym, a)| Op::Sym(m, sym, a))
            } else {
                parse_op(s)
            };
            ops.push(op.ok_or_else(|| format!("unsupported operand `{s}`"))?);
        }
        let wd = self.word(mnemonic, &ops)?;
        let bytes = wd.bits.to_le_bytes();
        match wd.fixup {
            None => obj.emit(&bytes),
            Some((kind, sym, addend)) => {
                obj.emit_field(&bytes, FixupKind::Field(kind as u16), &sym, addend);
                if matches!(
                    kind,
                    R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21
                        | R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC
                        | R_AARCH64_TLSLE_ADD_TPREL_HI12
                        | R_AARCH64_TLSLE_ADD_TPREL_LO12_NC
                ) {
                    obj.mark_tls(&sym);
                }
            }
        }
        Ok(())
    }

    fn reloc_type(&self, kind: FixupKind, size: u8, _instruction: bool) -> Result<u32, String> {
        Ok(match (kind, size) {
            (FixupKind::Abs, 8) => R_AARCH64_ABS64,
            (FixupKind::Abs, 4) => R_AARCH64_ABS32,
            (FixupKind::Abs, 2) => R_AARCH64_ABS16,
            (FixupKind::PcRel, 8) => R_AARCH64_PREL64,
            (FixupKind::PcRel, 4) => R_AARCH64_PREL32,
            (FixupKind::PcRel, 2) => R_AARCH64_PREL16,
            (FixupKind::Field(k), 4) => u32::from(k),
            _ => return Err(format!("no relocation for a {size}-byte {kind:?} field")),
        })
    }

    fn code_padding(&self, n: usize) -> Vec<u8> {
        // Zeros up to a word boundary, then NOPs (as gas pads code).
        let mut out = vec![0u8; n % 4];
        for _ in 0..n / 4 {
            out.extend_from_slice(&0xd503_201fu32.to_le_bytes());
        }
        out
    }

    fn patch_field(&self, kind: u16, field: &mut [u8], value: i64) -> Result<bool, String> {
        let mut word = u32::from_le_bytes([field[0], field[1], field[2], field[3]]);
        let fits = |bits: u32| value % 4 == 0 && (-(1i64 << (bits + 1))..(1i64 << (bits + 1))).contains(&value);
        match u32::from(kind) {
            R_AARCH64_JUMP26 | R_AARCH64_CALL26 => {
                if !fits(26) {
                    return Err(format!("branch displacement {value} out of range"));
                }
                word |= ((value >> 2) as u32) & 0x03ff_ffff;
            }
            R_AARCH64_CONDBR19 => {
                if !fits(19) {
                    return Err(format!("branch displacement {value} out of range"));
                }
                word |= (((value >> 2) as u32) & 0x7_ffff) << 5;
            }
            R_AARCH64_TSTBR14 => {
                if !fits(14) {
                    return Err(format!("branch displacement {value} out of range"));
                }
                word |= (((value >> 2) as u32) & 0x3fff) << 5;
            }
            R_AARCH64_ADR_PREL_LO21 => {
                if !(-(1i64 << 20)..(1i64 << 20)).contains(&value) {
                    return Err(format!("adr displacement {value} out of range"));
                }
                let v = value as u32;
                word |= (v & 3) << 29 | ((v >> 2) & 0x7_ffff) << 5;
            }
            _ => return Ok(false),
        }
        field.copy_from_slice(&word.to_le_bytes());
        Ok(true)
    }

    fn field_keeps_symbol(&self, kind: u16) -> bool {
        matches!(
            u32::from(kind),
            R_AARCH64_ADR_GOT_PAGE
                | R_AARCH64_LD64_GOT_LO12_NC
                | R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21
                | R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC
                | R_AARCH64_TLSLE_ADD_TPREL_HI12
                | R_AARCH64_TLSLE_ADD_TPREL_LO12_NC
        )
    }
}

/// Assembles AArch64 text printed by our backend into an ELF object.
pub fn assemble(text: &str) -> Result<Vec<u8>, String> {
    ObjectBuilder::assemble(text, &mut Aarch64Encoder)
}
