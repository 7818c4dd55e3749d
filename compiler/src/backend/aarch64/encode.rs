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
//! Code sections get gas's mapping symbols (AAELF64 5.7.2: `$x` where
//! instructions start, `$d` where data such as a jump table starts): ld's
//! Cortex-A53 erratum 843419 and 835769 scans only walk the code they mark.
//! Data sections get none (gas adds a `$d` to some of them; nothing reads it).
//! Anything outside the subset is an error (the driver then uses the
//! external assembler): this is the inverse of our own printer, not a
//! general assembler.

use crate::backend::object::{parse_expr, parse_int, trim, FixupKind, InstEncoder, ObjectBuilder, Operands};
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

/// A general register, decoded from its bytes (most operands are one).
fn parse_greg(s: &str) -> Option<G> {
    let g = |n, x, sp| Some(G { n, x, sp });
    let (x, num) = match *s.as_bytes() {
        [b's', b'p'] => return g(31, true, true),
        [b'w', b's', b'p'] => return g(31, false, true),
        [b'x', b'z', b'r'] => return g(31, true, false),
        [b'w', b'z', b'r'] => return g(31, false, false),
        [b'f', b'p'] => return g(29, true, false),
        [b'l', b'r'] => return g(30, true, false),
        [b'x', ref num @ ..] => (true, num),
        [b'w', ref num @ ..] => (false, num),
        _ => return None,
    };
    let n = reg_digits(num)?;
    (n <= 30).then_some(G { n, x, sp: false })
}

/// A register number of one or two decimal digits, without a leading zero.
fn reg_digits(num: &[u8]) -> Option<u32> {
    let d = |c: u8| c.is_ascii_digit().then(|| u32::from(c - b'0'));
    match *num {
        [a] => d(a),
        [a, b] if a != b'0' => Some(d(a)? * 10 + d(b)?),
        _ => None,
    }
}

fn reg_num(s: &str) -> Option<u32> {
    let n = reg_digits(s.as_bytes())?;
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
    let mut parts = Operands::new();
    for p in inner.split(',') {
        parts.push(trim(p));
    }
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
fn split(s: &str) -> Operands<'_> {
    let mut out = Operands::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, &c) in s.as_bytes().iter().enumerate() {
        match c {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(trim(&s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = trim(&s[start..]);
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
                    if (dg.x && (opt & 3 == 3) != mg.x) || (!dg.x && mg.x) {
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
        let parts = split(operands);
        let mut ops = Vec::with_capacity(parts.len());
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
                // GOT and TLS relocations name their symbol even when it is
                // local (gas does not turn them into section-relative ones).
                if matches!(
                    kind,
                    R_AARCH64_ADR_GOT_PAGE
                        | R_AARCH64_LD64_GOT_LO12_NC
                        | R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21
                        | R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC
                        | R_AARCH64_TLSLE_ADD_TPREL_HI12
                        | R_AARCH64_TLSLE_ADD_TPREL_LO12_NC
                ) {
                    obj.keep_symbol(&sym);
                }
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

    fn mapping_symbols(&self) -> bool {
        true
    }

    /// The encoder keeps nothing between instructions, and an instruction's
    /// only position-dependent part is a label or symbol, which is a fixup.
    fn memoizable(&self) -> bool {
        true
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
}

/// Assembles AArch64 text printed by our backend into an ELF object.
pub fn assemble(text: &str) -> Result<Vec<u8>, String> {
    ObjectBuilder::assemble(text, &mut Aarch64Encoder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::object::{Object as _, ObjectSection as _};

    /// Marks where the table defines `.Lhere` (the branch targets).
    const LABEL: u32 = u32::MAX;

    /// One line per instruction class and operand form the backend prints,
    /// with the word `aarch64-linux-gnu-as` (binutils 2.40) assembled it to
    /// (`objdump -d`, pasted): the encoder must give the same word.
    const GAS: &[(&str, u32)] = &[
        ("movz x9, #51200, lsl #0", 0xd299_0009),
        ("movz x9, #16388, lsl #48", 0xd2e8_0089),
        ("movk x9, #49517, lsl #32", 0xf2d8_2da9),
        ("movk w9, #1, lsl #16", 0x72a0_0029),
        ("movn x9, #0", 0x9280_0009),
        ("movn x9, #5, lsl #16", 0x92a0_00a9),
        ("movn w3, #7", 0x1280_00e3),
        ("mov x0, #0", 0xd280_0000),
        ("mov x0, #-1", 0x9280_0000),
        ("mov w0, #-1", 0x1280_0000),
        ("mov x0, #0x10000", 0xd2a0_0020),
        ("mov x0, #0xffffffffffff1234", 0x929d_b960),
        ("mov w0, #0xffff1234", 0x129d_b960),
        ("mov x0, #0x5555555555555555", 0xb200_f3e0),
        ("mov w1, #0x0f0f0f0f", 0x3200_cfe1),
        ("mov x9, x10", 0xaa0a_03e9),
        ("mov w9, wzr", 0x2a1f_03e9),
        ("mov x10, xzr", 0xaa1f_03ea),
        ("mov sp, x9", 0x9100_013f),
        ("mov x29, sp", 0x9100_03fd),
        ("mov x9, sp", 0x9100_03e9),
        ("add x9, x9, #15", 0x9100_3d29),
        ("add x9, x9, #4095", 0x913f_fd29),
        ("add x9, x9, #1, lsl #12", 0x9140_0529),
        ("add x9, x9, #8192", 0x9140_0929),
        ("add x9, x9, #-16", 0xd100_4129),
        ("sub sp, sp, #16", 0xd100_43ff),
        ("add sp, sp, #2, lsl #12", 0x9140_0bff),
        ("add x9, x10, x11", 0x8b0b_0149),
        ("add w9, w10, w11", 0x0b0b_0149),
        ("add x9, x10, x11, lsl #3", 0x8b0b_0d49),
        ("sub x9, x10, x11, asr #2", 0xcb8b_0949),
        ("sub sp, sp, x9", 0xcb29_63ff),
        ("add x17, sp, x17", 0x8b31_63f1),
        ("add x9, x10, w11, sxtw", 0x8b2b_c149),
        ("add x9, x10, w11, uxtw #2", 0x8b2b_4949),
        ("adds x9, x9, x11", 0xab0b_0129),
        ("subs x9, x9, #1", 0xf100_0529),
        ("subs w12, w12, #1", 0x7100_058c),
        ("cmp x9, #0", 0xf100_013f),
        ("cmp w9, #4095", 0x713f_fd3f),
        ("cmp x9, x11", 0xeb0b_013f),
        ("cmp w9, w10", 0x6b0a_013f),
        ("cmn x9, #1", 0xb100_053f),
        ("cmn w9, #42", 0x3100_a93f),
        ("neg x9, x9", 0xcb09_03e9),
        ("neg w13, w13", 0x4b0d_03ed),
        ("negs x9, x9", 0xeb09_03e9),
        ("ngc x10, x10", 0xda0a_03ea),
        ("adc x10, x10, x12", 0x9a0c_014a),
        ("sbc x10, x10, x12", 0xda0c_014a),
        ("sbcs xzr, x10, x12", 0xfa0c_015f),
        ("and x9, x9, #-16", 0x927c_ed29),
        ("and w9, w9, #0xff", 0x1200_1d29),
        ("and x9, x9, #0xffffffff", 0x9240_7d29),
        ("and x9, x9, #0x7ffffffffffffffe", 0x927f_f529),
        ("orr x9, x9, #0x8000000000000000", 0xb241_0129),
        ("eor x10, x10, #0x8000000000000000", 0xd241_014a),
        ("eor w9, w9, #1", 0x5200_0129),
        ("tst x11, #64", 0xf27a_017f),
        ("tst w9, #0xffff", 0x7200_3d3f),
        ("tst x9, x10", 0xea0a_013f),
        ("and x9, x9, x10", 0x8a0a_0129),
        ("orr x13, x13, x15", 0xaa0f_01ad),
        ("orr x9, x9, x15, lsl #32", 0xaa0f_8129),
        ("eor w9, w10, w11", 0x4a0b_0149),
        ("mvn x10, x10", 0xaa2a_03ea),
        ("mvn w14, w11", 0x2a2b_03ee),
        ("bic x9, x9, x10", 0x8a2a_0129),
        ("lsl x9, x9, #3", 0xd37d_f129),
        ("lsl w9, w9, #31", 0x5301_0129),
        ("lsr x9, x9, #63", 0xd37f_fd29),
        ("lsr w9, w9, #1", 0x5301_7d29),
        ("asr x10, x9, #63", 0x937f_fd2a),
        ("asr w10, w9, #4", 0x1304_7d2a),
        ("lsl x9, x9, x11", 0x9acb_2129),
        ("lsr w9, w9, w11", 0x1acb_2529),
        ("asr x9, x9, x11", 0x9acb_2929),
        ("ror x9, x9, #7", 0x93c9_1d29),
        ("sxtb x9, w9", 0x9340_1d29),
        ("sxth w9, w9", 0x1300_3d29),
        ("sxtw x9, w9", 0x9340_7d29),
        ("uxtb w9, w9", 0x5300_1d29),
        ("uxth w9, w10", 0x5300_3d49),
        ("ubfx x9, x9, #3, #5", 0xd343_1d29),
        ("sbfx w9, w9, #1, #7", 0x1301_1d29),
        ("bfi x9, x10, #8, #4", 0xb378_0d49),
        ("ubfiz x9, x10, #2, #30", 0xd37e_7549),
        ("sdiv x9, x9, x10", 0x9aca_0d29),
        ("udiv w9, w9, w10", 0x1aca_0929),
        ("mul x9, x9, x11", 0x9b0b_7d29),
        ("mul w9, w9, w11", 0x1b0b_7d29),
        ("madd x13, x9, x12, x13", 0x9b0c_352d),
        ("msub x9, x10, x11, x12", 0x9b0b_b149),
        ("msub w9, w10, w11, w12", 0x1b0b_b149),
        ("umulh x13, x9, x11", 0x9bcb_7d2d),
        ("smulh x13, x9, x11", 0x9b4b_7d2d),
        ("rev x9, x10", 0xdac0_0d49),
        ("rev w9, w10", 0x5ac0_0949),
        ("rev16 w9, w10", 0x5ac0_0549),
        ("rbit x9, x9", 0xdac0_0129),
        ("clz x12, x9", 0xdac0_112c),
        ("clz w12, w9", 0x5ac0_112c),
        ("cset w9, eq", 0x1a9f_17e9),
        ("cset x9, ne", 0x9a9f_07e9),
        ("cset w9, lo", 0x1a9f_27e9),
        ("csel x9, x11, x12, ne", 0x9a8c_1169),
        ("csel w9, w11, w12, ge", 0x1a8c_a169),
        ("ccmp x10, x12, #0, eq", 0xfa4c_0140),
        ("ccmp w10, #3, #4, ne", 0x7a43_1944),
        ("ldr x9, [x16]", 0xf940_0209),
        ("ldr x9, [x29, #8]", 0xf940_07a9),
        ("ldr x9, [x29, #32760]", 0xf97f_ffa9),
        ("ldr w9, [x29, #20]", 0xb940_17a9),
        ("ldr x9, [sp, #16]", 0xf940_0be9),
        ("ldr x9, [x9, #-8]", 0xf85f_8129),
        ("ldr x9, [x9, #3]", 0xf840_3129),
        ("ldur x9, [x9, #-8]", 0xf85f_8129),
        ("ldur w9, [x9, #4]", 0xb840_4129),
        ("ldurh w9, [x29, #-2]", 0x785f_e3a9),
        ("stur x9, [x29, #-16]", 0xf81f_03a9),
        ("sturh w9, [x29, #-6]", 0x781f_a3a9),
        ("str x9, [x16, #8]", 0xf900_0609),
        ("str w9, [x16, #28]", 0xb900_1e09),
        ("str xzr, [x16]", 0xf900_021f),
        ("str wzr, [x29, #24]", 0xb900_1bbf),
        ("strb w9, [x29, #17]", 0x3900_47a9),
        ("strb wzr, [x29, #17]", 0x3900_47bf),
        ("strh w9, [x29, #18]", 0x7900_27a9),
        ("ldrb w9, [x29, #17]", 0x3940_47a9),
        ("ldrh w9, [x29, #18]", 0x7940_27a9),
        ("ldrsb x9, [x29, #17]", 0x3980_47a9),
        ("ldrsb w9, [x29, #17]", 0x39c0_47a9),
        ("ldrsh x9, [x29, #18]", 0x7980_27a9),
        ("ldrsw x9, [x16, #28]", 0xb980_1e09),
        ("ldrsw x11, [x10, x9, lsl #2]", 0xb8a9_794b),
        ("ldr x9, [x10, x11]", 0xf86b_6949),
        ("ldr x9, [x10, x11, lsl #3]", 0xf86b_7949),
        ("ldrb w9, [x10, x11]", 0x386b_6949),
        ("ldr w9, [x10, w11, sxtw #2]", 0xb86b_d949),
        ("ldr d16, [x29, #24]", 0xfd40_0fb0),
        ("ldr s16, [x29, #20]", 0xbd40_17b0),
        ("ldr q0, [x29, #32]", 0x3dc0_0ba0),
        ("str q1, [x16]", 0x3d80_0201),
        ("str d8, [x29, #40]", 0xfd00_17a8),
        ("str s17, [x29, #-4]", 0xbc1f_c3b1),
        ("ldr h0, [x9]", 0x7d40_0120),
        ("ldr b0, [x9]", 0x3d40_0120),
        ("stp x29, x30, [sp]", 0xa900_7bfd),
        ("ldp x29, x30, [sp]", 0xa940_7bfd),
        ("stp x29, x30, [sp, #-16]!", 0xa9bf_7bfd),
        ("ldp x29, x30, [sp], #16", 0xa8c1_7bfd),
        ("stp x19, x20, [x29, #32]", 0xa902_53b3),
        ("stp xzr, xzr, [x16], #16", 0xa881_7e1f),
        ("stp xzr, xzr, [x16, #48]", 0xa903_7e1f),
        ("stp x10, x11, [x9], #16", 0xa881_2d2a),
        ("ldp x10, x11, [x9], #16", 0xa8c1_2d2a),
        ("stp d8, d9, [x29, #64]", 0x6d04_27a8),
        ("ldp d8, d9, [x29, #64]", 0x6d44_27a8),
        ("stp q0, q1, [x16, #32]", 0xad01_0600),
        ("ldp q2, q3, [x16, #-32]", 0xad7f_0e02),
        ("stp w9, w10, [x16, #8]", 0x2901_2a09),
        ("str x9, [sp, #-16]!", 0xf81f_0fe9),
        ("ldr x9, [sp], #16", 0xf841_07e9),
        ("ldaxr x9, [x16]", 0xc85f_fe09),
        ("ldaxr w9, [x16]", 0x885f_fe09),
        ("ldaxrb w9, [x16]", 0x085f_fe09),
        ("ldaxrh w9, [x16]", 0x485f_fe09),
        ("stlxr w12, x11, [x16]", 0xc80c_fe0b),
        ("stlxr w12, w11, [x16]", 0x880c_fe0b),
        ("stlxrb w12, w11, [x16]", 0x080c_fe0b),
        ("stlxrh w12, w11, [x16]", 0x480c_fe0b),
        ("ldar x9, [x16]", 0xc8df_fe09),
        ("ldarb w9, [x16]", 0x08df_fe09),
        ("stlr x9, [x16]", 0xc89f_fe09),
        ("stlrh w9, [x16]", 0x489f_fe09),
        ("ldxr x9, [x16]", 0xc85f_7e09),
        ("stxr w12, x11, [x16]", 0xc80c_7e0b),
        ("clrex", 0xd503_3f5f),
        ("dmb ish", 0xd503_3bbf),
        ("dmb ishld", 0xd503_39bf),
        ("dmb ishst", 0xd503_3abf),
        ("yield", 0xd503_203f),
        ("nop", 0xd503_201f),
        ("brk #1000", 0xd420_7d00),
        ("svc #0", 0xd400_0001),
        ("mrs x9, tpidr_el0", 0xd53b_d049),
        ("dc civac, x9", 0xd50b_7e29),
        ("br x9", 0xd61f_0120),
        ("blr x16", 0xd63f_0200),
        ("ret", 0xd65f_03c0),
        ("fmov d16, x9", 0x9e67_0130),
        ("fmov x9, d16", 0x9e66_0209),
        ("fmov s16, w9", 0x1e27_0130),
        ("fmov w9, s16", 0x1e26_0209),
        ("fmov d0, d16", 0x1e60_4200),
        ("fmov s0, s16", 0x1e20_4200),
        ("fmov v16.d[1], x10", 0x9eaf_0150),
        ("fmov x10, v16.d[1]", 0x9eae_020a),
        ("fmov d0, #1.0", 0x1e6e_1000),
        ("fmov s0, #-2.5", 0x1e30_9000),
        ("fmov d1, #0.125", 0x1e68_1001),
        ("fmov d2, #31.0", 0x1e67_f002),
        ("fadd d0, d1, d2", 0x1e62_2820),
        ("fadd s0, s1, s2", 0x1e22_2820),
        ("fsub d0, d1, d2", 0x1e62_3820),
        ("fmul s0, s1, s2", 0x1e22_0820),
        ("fdiv d0, d1, d2", 0x1e62_1820),
        ("fneg d0, d1", 0x1e61_4020),
        ("fneg s0, s1", 0x1e21_4020),
        ("fabs d0, d1", 0x1e60_c020),
        ("fsqrt s0, s1", 0x1e21_c020),
        ("fcmp d0, d1", 0x1e61_2000),
        ("fcmp s0, s1", 0x1e21_2000),
        ("fcmp d0, #0.0", 0x1e60_2008),
        ("fcmpe d0, d1", 0x1e61_2010),
        ("fcsel d0, d1, d2, ne", 0x1e62_1c20),
        ("fcvt d0, s1", 0x1e22_c020),
        ("fcvt s0, d1", 0x1e62_4020),
        ("fcvtzs x9, d0", 0x9e78_0009),
        ("fcvtzs w9, s0", 0x1e38_0009),
        ("fcvtzu x10, d0", 0x9e79_000a),
        ("fcvtzu w10, s0", 0x1e39_000a),
        ("scvtf d0, x9", 0x9e62_0120),
        ("scvtf s0, w9", 0x1e22_0120),
        ("ucvtf d0, w9", 0x1e63_0120),
        ("ucvtf s0, x9", 0x9e23_0120),
        ("fmadd d0, d1, d2, d3", 0x1f42_0c20),
        ("movi d17, #0", 0x2f00_e411),
        ("movi v0.2d, #0", 0x6f00_e400),
        ("cnt v16.8b, v16.8b", 0x0e20_5a10),
        ("cnt v16.16b, v16.16b", 0x4e20_5a10),
        ("addv b16, v16.8b", 0x0e31_ba10),
        ("addv b16, v16.16b", 0x4e31_ba10),
        ("cbz x9, .Lhere", 0xb400_0129),
        ("cbnz w12, .Lhere", 0x3500_010c),
        ("tbz x9, #63, .Lhere", 0xb6f8_00e9),
        ("tbnz w9, #3, .Lhere", 0x3718_00c9),
        ("b.ne .Lhere", 0x5400_00a1),
        ("b.hs .Lhere", 0x5400_0082),
        ("b .Lhere", 0x1400_0003),
        ("bl .Lhere", 0x9400_0002),
        ("adr x10, .Lhere", 0x1000_002a),
        (".Lhere:", LABEL),
        ("cbz x9, .Lhere", 0xb400_0009),
        ("tbz x9, #5, .Lhere", 0x362f_ffe9),
        ("b.gt .Lhere", 0x54ff_ffcc),
        ("b .Lhere", 0x17ff_fffd),
        ("bl .Lhere", 0x97ff_fffc),
        ("adr x10, .Lhere", 0x10ff_ff6a),
    ];

    #[test]
    fn words_match_gnu_as() {
        let mut text = String::from("\t.text\n");
        for (line, _) in GAS {
            if line.ends_with(':') {
                text.push_str(line);
            } else {
                text.push('\t');
                text.push_str(line);
            }
            text.push('\n');
        }
        let obj = assemble(&text).unwrap();
        let file = ::object::File::parse(&*obj).unwrap();
        let code = file.section_by_name(".text").unwrap().data().unwrap().to_vec();
        let want: Vec<(&str, u32)> = GAS.iter().copied().filter(|(_, w)| *w != LABEL).collect();
        assert_eq!(code.len(), 4 * want.len());
        let mut bad = Vec::new();
        for ((line, word), got) in want.iter().zip(code.chunks(4)) {
            let got = u32::from_le_bytes([got[0], got[1], got[2], got[3]]);
            if got != *word {
                bad.push(format!("{line}: got {got:08x}, gas {word:08x}"));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// Relocations as `aarch64-linux-gnu-as` writes them for the same text
    /// (`readelf -r`, pasted): (section, offset, type, symbol, addend), a
    /// local symbol through its section except for GOT and TLS relocations.
    #[test]
    fn relocations_match_gnu_as() {
        let src = "\t.text\nf:\n\tadrp\tx9, n.0+8\n\tadd\tx9, x9, :lo12:n.0+8\n\tadrp\tx0, :got:ext\n\
                   \tldr\tx0, [x0, :got_lo12:ext]\n\tadrp\tx17, :gottprel:tv\n\tldr\tx17, [x17, :gottprel_lo12:tv]\n\
                   \tbl\text\n\tb\text\n\tb.eq\text\n\tcbz\tx0, ext\n\ttbz\tw0, #1, ext\n\
                   \tldr\tq0, [x9, :lo12:n.0]\n\tldrh\tw0, [x9, :lo12:n.0]\n\tbl\tf\n\
                   \t.data\nn.0:\n\t.quad\tf\n\t.word\tf-n.0\n\
                   \t.section\t.tbss,\"awT\",@nobits\ntv:\n\t.zero\t8\n";
        let obj = assemble(src).unwrap();
        let file = ::object::File::parse(&*obj).unwrap();
        let mut got = Vec::new();
        for s in file.sections() {
            for (off, r) in s.relocations() {
                let ::object::RelocationFlags::Elf { r_type } = r.flags() else {
                    panic!("not an ELF relocation")
                };
                let ::object::RelocationTarget::Symbol(i) = r.target() else {
                    panic!("no symbol")
                };
                let sym = ::object::ObjectSymbol::name(&file.symbol_by_index(i).unwrap())
                    .unwrap()
                    .to_string();
                let sym = if sym.is_empty() {
                    let k = ::object::ObjectSymbol::section_index(&file.symbol_by_index(i).unwrap()).unwrap();
                    file.section_by_index(k).unwrap().name().unwrap().to_string()
                } else {
                    sym
                };
                got.push((s.name().unwrap().to_string(), off, r_type.0, sym, r.addend()));
            }
        }
        let want: Vec<(&str, u64, u32, &str, i64)> = vec![
            (".text", 0x00, 275, ".data", 8),
            (".text", 0x04, 277, ".data", 8),
            (".text", 0x08, 311, "ext", 0),
            (".text", 0x0c, 312, "ext", 0),
            (".text", 0x10, 541, "tv", 0),
            (".text", 0x14, 542, "tv", 0),
            (".text", 0x18, 283, "ext", 0),
            (".text", 0x1c, 282, "ext", 0),
            (".text", 0x20, 280, "ext", 0),
            (".text", 0x24, 280, "ext", 0),
            (".text", 0x28, 279, "ext", 0),
            (".text", 0x2c, 299, ".data", 0),
            (".text", 0x30, 284, ".data", 0),
            (".data", 0x00, 257, ".text", 0),
            (".data", 0x08, 261, ".text", 8),
        ];
        let want: Vec<_> = want
            .into_iter()
            .map(|(s, o, t, y, a)| (s.to_string(), o, t, y.to_string(), a))
            .collect();
        assert_eq!(got, want);
        // `bl f` back to the start: resolved, as gas does (0x97fffff3 at 0x34).
        let text = file.section_by_name(".text").unwrap().data().unwrap().to_vec();
        assert_eq!(u32::from_le_bytes(text[0x34..0x38].try_into().unwrap()), 0x97ff_fff3);
        let tv = file
            .symbols()
            .find(|s| ::object::ObjectSymbol::name(s) == Ok("tv"))
            .unwrap();
        assert_eq!(::object::ObjectSymbol::kind(&tv), ::object::SymbolKind::Tls);
    }

    /// Alignment in code is NOP padding, as gas pads (`objdump -s`, pasted).
    #[test]
    fn code_alignment_pads_with_nops() {
        let obj = assemble("\t.text\nf:\n\tret\n\t.p2align 4\ng:\n\tret\n\t.p2align 3,,4\n\tret\n").unwrap();
        let file = ::object::File::parse(&*obj).unwrap();
        let text = file.section_by_name(".text").unwrap().data().unwrap().to_vec();
        let gas: Vec<u32> = vec![
            0xd65f03c0, 0xd503201f, 0xd503201f, 0xd503201f, 0xd65f03c0, 0xd503201f, 0xd65f03c0,
        ];
        let got: Vec<u32> = text
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(got, gas);
    }

    /// Mapping symbols in code where gas puts them (`readelf -s`, pasted):
    /// `$x` at 0, `$d` at the table (8), `$x` after it (0x10); none in `.data`.
    #[test]
    fn mapping_symbols_mark_code_and_data() {
        let src =
            "\t.text\nf:\n\tadr\tx0, .LJ\n\tret\n.LJ:\n\t.word\t.LJ-.LJ\n\t.word\t4\n\tret\n\t.data\n\t.quad\t1\n";
        let obj = assemble(src).unwrap();
        let file = ::object::File::parse(&*obj).unwrap();
        let mut got: Vec<(String, u64, String)> = file
            .symbols()
            .filter(|s| ::object::ObjectSymbol::name(s).is_ok_and(|n| n.starts_with('$')))
            .map(|s| {
                let k = ::object::ObjectSymbol::section_index(&s).unwrap();
                (
                    ::object::ObjectSymbol::name(&s).unwrap().to_string(),
                    ::object::ObjectSymbol::address(&s),
                    file.section_by_index(k).unwrap().name().unwrap().to_string(),
                )
            })
            .collect();
        got.sort_by_key(|g| g.1);
        let want = [("$x", 0, ".text"), ("$d", 8, ".text"), ("$x", 0x10, ".text")];
        let want: Vec<(String, u64, String)> = want
            .iter()
            .map(|(n, v, s)| (n.to_string(), *v, s.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    /// Forms outside the subset, or values no encoding holds, are errors
    /// (the driver then runs gas), never wrong bytes.
    #[test]
    fn unencodable_forms_are_errors() {
        for line in [
            "add x0, x1, #5000",
            "and x0, x1, #0",
            "and w0, w1, #0x123",
            "mov x0, #0x123456789",
            "ldr x0, [x1, #-300]",
            "ldp x0, x1, [x2, #4]",
            "movz x0, #65536",
            "lsl x0, x1, #64",
            "fmov d0, #0.1",
            "frecpe d0, d1",
            "ldr x0, =sym",
            "add x0, w1, x2",
            "add w0, w1, x2, uxtw",
            "add x0, sp, w1",
        ] {
            assert!(assemble(&format!("\t{line}\n")).is_err(), "{line}");
        }
        // A branch out of range is an error too (tbz reaches 32 KiB).
        let far = "\ttbz\tx0, #1, .Lfar\n\t.zero\t40000\n.Lfar:\n\tret\n";
        assert!(assemble(far).is_err());
    }

    /// The bitmask immediates against the Arm ARM's `DecodeBitMasks`
    /// (an independent decoder): every encoding decodes to a value the
    /// encoder maps back to that encoding.
    #[test]
    fn logical_immediates_round_trip() {
        fn decode(n: u32, immr: u32, imms: u32, bits: u32) -> Option<u64> {
            let len = 31 - ((n << 6) | (!imms & 0x3f)).leading_zeros() as i32;
            if len < 1 {
                return None;
            }
            let esize = 1u32 << len;
            if esize > bits {
                return None;
            }
            let levels = esize - 1;
            let s = imms & levels;
            let r = immr & levels;
            // Only the canonical spelling (higher immr bits clear) is unique.
            if s == levels || immr > levels {
                return None;
            }
            let welem: u64 = (1u64 << (s + 1)) - 1;
            let mask = if esize == 64 { u64::MAX } else { (1u64 << esize) - 1 };
            let rot = if r == 0 {
                welem
            } else {
                ((welem >> r) | (welem << (esize - r))) & mask
            };
            let mut v = 0u64;
            let mut k = 0;
            while k < bits {
                v |= rot << k;
                k += esize;
            }
            Some(v)
        }
        let mut count = 0;
        for bits in [32u32, 64] {
            for n in 0..=u32::from(bits == 64) {
                for immr in 0..64 {
                    for imms in 0..64 {
                        if let Some(v) = decode(n, immr, imms, bits) {
                            count += 1;
                            assert_eq!(
                                logical_imm(v, bits),
                                Some((n << 12) | (immr << 6) | imms),
                                "{v:#x}/{bits}"
                            );
                        }
                    }
                }
            }
        }
        assert_eq!(count, 5334 + 1302, "the A64 bitmask immediates (64-bit and 32-bit)");
    }
}
