//! RISC-V 64 instruction encoding for the integrated assembler: the rv64gc
//! instructions and GNU as pseudo-instructions the RISC-V backend prints,
//! encoded as the RISC-V Unprivileged ISA manual (chapters "RV32I/RV64I
//! Base Integer Instruction Set", "M", "A", "F", "D", "C" and the RVC
//! expansion tables) and the psABI's relocations specify, and as GNU as 2.40
//! chooses among the equivalent forms:
//!
//! * pseudo-instructions expand as gas expands them (`li` by gas's
//!   `load_const`: `lui`/`addiw`, or a shorter constant shifted with `slli`
//!   plus `addi`; `call` and `jump` as `auipc`+`jalr` with
//!   `R_RISCV_CALL_PLT`, except a `call` of a `static` function of the same
//!   section within `jal`'s reach (below); `lla` and `la.tls.ie` as `auipc` plus `addi`/`ld`
//!   whose `R_RISCV_PCREL_LO12_I` names a local symbol at the `auipc`, which
//!   gas calls `.L0 `);
//! * every instruction without a relocation that has a compressed (RVC)
//!   form is compressed, with gas's preferences (`addi rd, rs, 0` is `c.mv`,
//!   `addi sp, sp, 16` is `c.addi` rather than `c.addi16sp`, `add` and the
//!   commutative `c.and`/`c.or`/`c.xor`/`c.addw` take either operand order);
//! * a branch or `j` to a label of the same section takes the form gas's
//!   relaxation gives it (`c.beqz`/`c.bnez`/`c.j`, the 4-byte form, or for
//!   a conditional branch the inverted branch, RVC or not, over a `jal`):
//!   the text is assembled once to learn every instruction's size, gas's
//!   frags and passes are replayed on that ([`Riscv64Encoder::gas_relaxation`]:
//!   an estimate with the addresses known so far, then passes that see this
//!   pass's addresses behind and the last pass's ahead, shrinking as well as
//!   growing, which can stop at another fixed point than the least one),
//!   and the text is assembled again with those sizes. When the text has
//!   something that model does not (bytes other than instructions in a
//!   code section), the sizes are the least fixed point instead: every
//!   branch starts at its shortest form and the ones that do not reach grow,
//!   pass after pass, until all reach.
//!
//! Deliberate differences from gas: the object is not relaxable (no
//! `R_RISCV_RELAX`/`R_RISCV_ALIGN`, as gas `-mno-relax`), so the assembler
//! does the one relaxation that matters most itself: a `call` of a local
//! (`static`) function defined in the call's own section, when the section
//! is well under 1 MiB, is a single `jal ra, f`, resolved here (gcc's calls
//! get the same from `ld`'s relaxation; gas `-mno-relax` keeps `auipc`+`jalr`,
//! an indirect jump, which QEMU cannot chain to its target). Branches to
//! labels of the same section are resolved with no relocation (gas keeps
//! `R_RISCV_BRANCH`/`R_RISCV_JAL`/`R_RISCV_RVC_*` for them, and the labels
//! in the symbol table, with the same bytes); differences of labels of one
//! section are resolved (gas writes `R_RISCV_ADD32`/`R_RISCV_SUB32` pairs
//! even then); no `.riscv.attributes` section and no `$x` mapping symbol;
//! the end of a code section is not padded to its alignment.
//!
//! Anything else is an error (the driver then uses the external assembler):
//! this is not a general assembler, only the inverse of our own printer.

use crate::backend::object::{
    lines, mnemonic_key, parse_expr, parse_int, split_operands, trim, trim_start, FixupKind, InstEncoder,
    ObjectBuilder, Operands,
};
use crate::target::Target;

/// The RISC-V relocation types (psABI, "Relocations").
pub const R_RISCV_32: u32 = 1;
pub const R_RISCV_64: u32 = 2;
pub const R_RISCV_BRANCH: u32 = 16;
pub const R_RISCV_JAL: u32 = 17;
pub const R_RISCV_CALL_PLT: u32 = 19;
pub const R_RISCV_GOT_HI20: u32 = 20;
pub const R_RISCV_TLS_GOT_HI20: u32 = 21;
pub const R_RISCV_PCREL_HI20: u32 = 23;
pub const R_RISCV_PCREL_LO12_I: u32 = 24;
pub const R_RISCV_PCREL_LO12_S: u32 = 25;
pub const R_RISCV_ADD16: u32 = 34;
pub const R_RISCV_ADD32: u32 = 35;
pub const R_RISCV_ADD64: u32 = 36;
pub const R_RISCV_SUB16: u32 = 38;
pub const R_RISCV_SUB32: u32 = 39;
pub const R_RISCV_SUB64: u32 = 40;
pub const R_RISCV_RVC_BRANCH: u32 = 44;
pub const R_RISCV_RVC_JUMP: u32 = 45;

/// The instruction fields ([`FixupKind::Field`]).
const F_BRANCH: u16 = 1;
const F_JAL: u16 = 2;
const F_CALL: u16 = 3;
const F_PCREL_HI: u16 = 4;
const F_PCREL_LO_I: u16 = 5;
const F_RVC_BRANCH: u16 = 6;
const F_RVC_JUMP: u16 = 7;
const F_PCREL_LO_S: u16 = 8;

/// A branch to a label whose size the relaxation decides.
struct Branch {
    section: usize,
    offset: u64,
    label: String,
    /// The sizes it may take, shortest first (2: RVC, 4, 6 or 8: the
    /// inverted branch, RVC or not, over a `jal`).
    forms: &'static [u8],
    /// The largest displacement of each form (in `forms`' order).
    reach: &'static [i64],
    /// `j` (not a conditional branch).
    jump: bool,
}

/// The RISC-V encoder. `compress` picks RVC forms (on for rv64gc, as gas).
pub struct Riscv64Encoder {
    pub compress: bool,
    /// Chosen size of the n-th label branch of the text (grows between passes).
    sizes: Vec<u8>,
    branches: Vec<Branch>,
    /// Each instruction of the last pass in order: its size, and which
    /// label branch it was.
    insns: Vec<(u32, Option<usize>)>,
    /// The `call`s of the last pass that name a symbol without `@plt` or
    /// an addend: (section, callee, index in `insns`), in order.
    calls: Vec<(usize, String, usize)>,
    /// Which of those calls are a single `jal ra` (see [`Riscv64Encoder::short_calls`]).
    short: Vec<bool>,
    /// The bytes each instruction of the first pass wrote, when they were
    /// all it did (no fixup, branch or call): where in `cache_bytes` and
    /// how many, 0 for the others. Later passes over the same text copy
    /// them instead of parsing the line again.
    cache: Vec<(u32, u8)>,
    cache_bytes: Vec<u8>,
}

impl Default for Riscv64Encoder {
    fn default() -> Self {
        Riscv64Encoder {
            compress: true,
            sizes: Vec::new(),
            branches: Vec::new(),
            insns: Vec::new(),
            calls: Vec::new(),
            short: Vec::new(),
            cache: Vec::new(),
            cache_bytes: Vec::new(),
        }
    }
}

/// A frag of gas's relaxation (as.info, "Frags"): fixed bytes, then a
/// branch or an alignment whose size the relaxation decides.
#[derive(Default)]
struct Frag {
    address: i64,
    fixed: i64,
    branch: Option<usize>,
    /// `.p2align`: (power, largest padding or 0).
    align: Option<(u32, i64)>,
}

fn relax_align(address: i64, pow: u32, max: i64) -> i64 {
    let a = 1i64 << pow;
    let pad = (a - address.rem_euclid(a)) % a;
    if max != 0 && pad > max {
        0
    } else {
        pad
    }
}

/// An integer register number by ABI or `x` name, decoded from its bytes
/// (every operand goes through here, so no table search).
pub fn gpr(s: &str) -> Option<u32> {
    let s = trim(s);
    let d = |c: u8| u32::from(c - b'0');
    let n = match *s.as_bytes() {
        [b'z', b'e', b'r', b'o'] => 0,
        [b'r', b'a'] => 1,
        [b's', b'p'] => 2,
        [b'g', b'p'] => 3,
        [b't', b'p'] => 4,
        [b'f', b'p'] => 8,
        [b't', c @ b'0'..=b'2'] => 5 + d(c),
        [b't', c @ b'3'..=b'6'] => 28 + d(c) - 3,
        [b's', c @ b'0'..=b'1'] => 8 + d(c),
        [b's', c @ b'2'..=b'9'] => 18 + d(c) - 2,
        [b's', b'1', c @ b'0'..=b'1'] => 26 + d(c),
        [b'a', c @ b'0'..=b'7'] => 10 + d(c),
        [b'x', ..] => return s[1..].parse().ok().filter(|&n| n < 32),
        _ => return None,
    };
    Some(n)
}

/// A floating-point register number by ABI or `f` name, decoded from its bytes.
pub fn fpr(s: &str) -> Option<u32> {
    let s = trim(s);
    let d = |c: u8| u32::from(c - b'0');
    let n = match *s.as_bytes() {
        [b'f', b't', c @ b'0'..=b'7'] => d(c),
        [b'f', b't', c @ b'8'..=b'9'] => 28 + d(c) - 8,
        [b'f', b't', b'1', c @ b'0'..=b'1'] => 30 + d(c),
        [b'f', b's', c @ b'0'..=b'1'] => 8 + d(c),
        [b'f', b's', c @ b'2'..=b'9'] => 18 + d(c) - 2,
        [b'f', b's', b'1', c @ b'0'..=b'1'] => 26 + d(c),
        [b'f', b'a', c @ b'0'..=b'7'] => 10 + d(c),
        [b'f', ..] => return s[1..].parse().ok().filter(|&n| n < 32),
        _ => return None,
    };
    Some(n)
}

fn fits(v: i64, bits: u32) -> bool {
    let h = 1i64 << (bits - 1);
    (-h..h).contains(&v)
}

fn r_type(op: u32, f3: u32, f7: u32, rd: u32, rs1: u32, rs2: u32) -> u32 {
    (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
}

fn i_type(op: u32, f3: u32, rd: u32, rs1: u32, imm: i64) -> u32 {
    (((imm as u32) & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
}

fn s_type(op: u32, f3: u32, rs1: u32, rs2: u32, imm: i64) -> u32 {
    let imm = imm as u32;
    (((imm >> 5) & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 31) << 7) | op
}

fn b_imm(imm: i64) -> u32 {
    let i = imm as u32;
    (((i >> 12) & 1) << 31) | (((i >> 5) & 0x3f) << 25) | (((i >> 1) & 0xf) << 8) | (((i >> 11) & 1) << 7)
}

fn j_imm(imm: i64) -> u32 {
    let i = imm as u32;
    (((i >> 20) & 1) << 31) | (((i >> 1) & 0x3ff) << 21) | (((i >> 11) & 1) << 20) | (((i >> 12) & 0xff) << 12)
}

fn cj_imm(imm: i64) -> u16 {
    let i = imm as u32;
    let bit = |n: u32, at: u32| ((i >> n) & 1) << at;
    (bit(11, 12)
        | bit(4, 11)
        | bit(9, 10)
        | bit(8, 9)
        | bit(10, 8)
        | bit(6, 7)
        | bit(7, 6)
        | bit(3, 5)
        | bit(2, 4)
        | bit(1, 3)
        | bit(5, 2)) as u16
}

fn cb_imm(imm: i64) -> u16 {
    let i = imm as u32;
    let bit = |n: u32, at: u32| ((i >> n) & 1) << at;
    (bit(8, 12) | bit(4, 11) | bit(3, 10) | bit(7, 6) | bit(6, 5) | bit(2, 4) | bit(1, 3) | bit(5, 2)) as u16
}

/// The RVC form of the 32-bit instruction `w`, as gas picks it (see the
/// module doc), if it has one.
pub fn compress(w: u32) -> Option<u16> {
    let op = w & 0x7f;
    let rd = (w >> 7) & 31;
    let f3 = (w >> 12) & 7;
    let rs1 = (w >> 15) & 31;
    let rs2 = (w >> 20) & 31;
    let f7 = w >> 25;
    let imm = ((w as i32) >> 20) as i64;
    let small = |r: u32| (8..16).contains(&r);
    let c3 = |r: u32| r - 8;
    let ci = |f3: u32, rd: u32, imm: i64, op: u32| {
        let i = imm as u32;
        ((f3 << 13) | (((i >> 5) & 1) << 12) | (rd << 7) | ((i & 31) << 2) | op) as u16
    };
    let ca = |f6: u32, rd: u32, f2: u32, rs2: u32| ((f6 << 10) | (c3(rd) << 7) | (f2 << 5) | (c3(rs2) << 2) | 1) as u16;
    // Loads/stores: (sp-relative scale and limit, register-relative limit).
    let store_imm = ((((w >> 25) << 5) | ((w >> 7) & 31)) as i32) << 20 >> 20;
    match op {
        0x13 => match f3 {
            0 => {
                if rd == 0 && rs1 == 0 && imm == 0 {
                    return Some(0x0001);
                }
                if imm == 0 && rd != 0 && rs1 != 0 {
                    return Some((0x8002 | (rd << 7) | (rs1 << 2)) as u16);
                }
                if rs1 == 0 && rd != 0 && fits(imm, 6) {
                    return Some(ci(2, rd, imm, 1));
                }
                if rd == rs1 && rd != 0 && imm != 0 && fits(imm, 6) {
                    return Some(ci(0, rd, imm, 1));
                }
                if rd == 2 && rs1 == 2 && imm != 0 && imm % 16 == 0 && (-512..512).contains(&imm) {
                    let i = imm as u32;
                    let bit = |n: u32, at: u32| ((i >> n) & 1) << at;
                    return Some(
                        ((3 << 13)
                            | bit(9, 12)
                            | (2 << 7)
                            | bit(4, 6)
                            | bit(6, 5)
                            | bit(8, 4)
                            | bit(7, 3)
                            | bit(5, 2)
                            | 1) as u16,
                    );
                }
                if rs1 == 2 && small(rd) && imm > 0 && imm % 4 == 0 && imm < 1024 {
                    let i = imm as u32;
                    let bit = |n: u32, at: u32| ((i >> n) & 1) << at;
                    return Some(
                        (bit(5, 12)
                            | bit(4, 11)
                            | bit(9, 10)
                            | bit(8, 9)
                            | bit(7, 8)
                            | bit(6, 7)
                            | bit(2, 6)
                            | bit(3, 5)
                            | (c3(rd) << 2)) as u16,
                    );
                }
                None
            }
            7 if rd == rs1 && small(rd) && fits(imm, 6) => {
                let i = imm as u32;
                Some(((4 << 13) | (((i >> 5) & 1) << 12) | (2 << 10) | (c3(rd) << 7) | ((i & 31) << 2) | 1) as u16)
            }
            1 if rd == rs1 && rd != 0 && imm > 0 && imm < 64 => Some(ci(0, rd, imm, 2)),
            5 if rd == rs1 && small(rd) && (imm & 63) != 0 && (imm >> 6 == 0 || imm >> 6 == 0x10) => {
                let sh = (imm & 63) as u32;
                let kind = u32::from(imm >> 6 == 0x10);
                Some(((4 << 13) | ((sh >> 5) << 12) | (kind << 10) | (c3(rd) << 7) | ((sh & 31) << 2) | 1) as u16)
            }
            _ => None,
        },
        0x1b if f3 == 0 && rd == rs1 && rd != 0 && fits(imm, 6) => Some(ci(1, rd, imm, 1)),
        0x37 if rd != 0 && rd != 2 => {
            let v = ((w as i32) >> 12) as i64;
            (v != 0 && fits(v, 6)).then(|| ci(3, rd, v, 1))
        }
        0x33 if f3 == 0 && f7 == 0 => {
            if rd == 0 {
                None
            } else if rs1 == 0 && rs2 != 0 {
                Some((0x8002 | (rd << 7) | (rs2 << 2)) as u16)
            } else if rd == rs1 && rs2 != 0 {
                Some((0x9002 | (rd << 7) | (rs2 << 2)) as u16)
            } else if rd == rs2 && rs1 != 0 {
                Some((0x9002 | (rd << 7) | (rs1 << 2)) as u16)
            } else {
                None
            }
        }
        0x33 | 0x3b if small(rd) && small(rs1) && small(rs2) && (rd == rs1 || rd == rs2) => {
            let other = if rd == rs1 { rs2 } else { rs1 };
            let commutative = |ok: bool| (rd == rs1 || ok).then_some(other);
            let (f6, f2, src) = match (op, f3, f7) {
                (0x33, 0, 0x20) => (0x23, 0, commutative(false)?),
                (0x33, 4, 0) => (0x23, 1, commutative(true)?),
                (0x33, 6, 0) => (0x23, 2, commutative(true)?),
                (0x33, 7, 0) => (0x23, 3, commutative(true)?),
                (0x3b, 0, 0x20) => (0x27, 0, commutative(false)?),
                (0x3b, 0, 0) => (0x27, 1, commutative(true)?),
                _ => return None,
            };
            Some(ca(f6, rd, f2, src))
        }
        // ld/lw/fld (and the stores) by sp or a small register.
        0x03 | 0x07 | 0x23 | 0x27 => {
            let store = op & 0x20 != 0;
            let fp = op & 0x04 != 0;
            let (data, off) = if store { (rs2, store_imm as i64) } else { (rd, imm) };
            let (width, c_f3) = match (f3, fp) {
                (3, false) => (8, 3),
                (2, false) => (4, 2),
                (3, true) => (8, 1),
                _ => return None,
            };
            let c_f3 = if store { c_f3 | 4 } else { c_f3 };
            if off < 0 || off % width != 0 {
                return None;
            }
            let o = off as u32;
            if rs1 == 2 && (store || fp || data != 0) && off < width * 64 {
                // c.ldsp/c.lwsp/c.fldsp and the stores.
                let bits = if store {
                    if width == 8 {
                        (((o >> 3) & 7) << 10) | (((o >> 6) & 7) << 7)
                    } else {
                        (((o >> 2) & 15) << 9) | (((o >> 6) & 3) << 7)
                    }
                } else if width == 8 {
                    (((o >> 5) & 1) << 12) | (((o >> 3) & 3) << 5) | (((o >> 6) & 7) << 2)
                } else {
                    (((o >> 5) & 1) << 12) | (((o >> 2) & 7) << 4) | (((o >> 6) & 3) << 2)
                };
                let reg = if store { data << 2 } else { data << 7 };
                return Some(((c_f3 << 13) | bits | reg | 2) as u16);
            }
            if small(rs1) && small(data) && off < width * 32 {
                let bits = if width == 8 {
                    (((o >> 3) & 7) << 10) | (((o >> 6) & 3) << 5)
                } else {
                    (((o >> 3) & 7) << 10) | (((o >> 2) & 1) << 6) | (((o >> 6) & 1) << 5)
                };
                return Some(((c_f3 << 13) | bits | (c3(rs1) << 7) | (c3(data) << 2)) as u16);
            }
            None
        }
        0x67 if f3 == 0 && imm == 0 && rs1 != 0 && rd <= 1 => Some((0x8002 | (rd << 12) | (rs1 << 7)) as u16),
        0x73 if w == 0x0010_0073 => Some(0x9002),
        _ => None,
    }
}

/// A memory operand `off(reg)`, `(reg)`: (offset, base).
fn mem(s: &str) -> Option<(i64, u32)> {
    let s = trim(s);
    let open = s.bytes().rposition(|c| c == b'(')?;
    let base = gpr(s[open + 1..].strip_suffix(')')?)?;
    let off = trim(&s[..open]);
    let off = if off.is_empty() { 0 } else { parse_int(off)? };
    Some((off, base))
}

/// `%pcrel_lo(label)(reg)`: (label, base).
fn pcrel_lo(s: &str) -> Option<(String, u32)> {
    let rest = trim(s).strip_prefix("%pcrel_lo(")?;
    let close = rest.find(')')?;
    let label = rest[..close].trim().to_string();
    let base = gpr(rest[close + 1..].trim().strip_prefix('(')?.strip_suffix(')')?)?;
    Some((label, base))
}

/// A symbol operand with an optional addend and `@plt`.
fn symbol(s: &str) -> Option<(String, i64)> {
    let s = trim(s);
    let s = s.strip_suffix("@plt").unwrap_or(s);
    let e = parse_expr(s)?;
    if e.minus.is_some() {
        return None;
    }
    Some((e.symbol?, e.addend))
}

fn rounding(s: &str) -> Option<u32> {
    Some(match s.trim() {
        "rne" => 0,
        "rtz" => 1,
        "rdn" => 2,
        "rup" => 3,
        "rmm" => 4,
        "dyn" => 7,
        _ => return None,
    })
}

fn fence_set(s: &str) -> Option<u32> {
    let mut v = 0;
    for c in s.trim().chars() {
        v |= match c {
            'i' => 8,
            'o' => 4,
            'r' => 2,
            'w' => 1,
            _ => return None,
        };
    }
    (v != 0).then_some(v)
}

/// `li`'s expansion by gas's `load_const` (tc-riscv.c): a 32-bit value as
/// `lui` and/or `addiw`, a wider one as a shorter constant shifted left
/// (`slli`) plus the low 12 bits (`addi`).
fn load_const(rd: u32, v: i64, out: &mut Vec<u32>) {
    let lower = ((v & 0xfff) ^ 0x800) - 0x800;
    let upper = v.wrapping_sub(lower);
    if v != v as i32 as i64 {
        let mut shift = 12;
        while (upper >> shift) & 1 == 0 {
            shift += 1;
        }
        load_const(rd, upper >> shift, out);
        out.push(i_type(0x13, 1, rd, rd, shift));
        if lower != 0 {
            out.push(i_type(0x13, 0, rd, rd, lower));
        }
    } else {
        let mut hi = 0;
        if upper != 0 {
            out.push((((upper as u32) >> 12) << 12) | (rd << 7) | 0x37);
            hi = rd;
        }
        if lower != 0 || hi == 0 {
            out.push(i_type(0x1b, 0, rd, hi, lower));
        }
    }
}

/// What an instruction of [`MNEMONICS`] is, with its fixed fields.
#[derive(Clone, Copy)]
enum Mn {
    /// R-type `rd, rs1, rs2`: (opcode, funct3, funct7).
    Alu(u32, u32, u32),
    /// I-type `rd, rs1, imm`: (opcode, funct3).
    AluImm(u32, u32),
    /// `rd, rs1, shamt`: (opcode, funct3, high immediate bits, shift limit).
    Shift(u32, u32, i64, i64),
    /// (opcode, funct3, FP register).
    Load(u32, u32, bool),
    Store(u32, u32, bool),
    /// A conditional branch: (funct3, operands swapped).
    Branch(u32, bool),
    /// A comparison with zero: (funct3, operands swapped).
    BranchZero(u32, bool),
    /// `fmv.x.w` and kin: (funct7, to an FP register).
    FmvInt(u32, bool),
    Li,
    /// `lui`, `auipc`: the opcode.
    Upper(u32),
    Mv,
    /// `rd, rs` as an I-type word: (opcode, funct3, immediate).
    Unary(u32, u32, i64),
    /// `rd, rs` as an R-type word on `zero, rs`: (opcode, funct3, funct7).
    FromZero(u32, u32, u32),
    Sltz,
    J,
    Jr,
    Jalr,
    Ret,
    /// `call` (true) or `tail`.
    Call(bool),
    Jump,
    Lla,
    LaTlsIe,
    Fence,
    Fixed(u32),
    FixedRvc(u32),
    Unimp,
}

/// The instructions found by name: every one of at most 8 bytes but the
/// OP-FP ones (which [`encode_fp_atomic`] reads by their parts).
const MNEMONICS: &[(&str, Mn)] = &[
    ("add", Mn::Alu(0x33, 0, 0)),
    ("sub", Mn::Alu(0x33, 0, 0x20)),
    ("sll", Mn::Alu(0x33, 1, 0)),
    ("slt", Mn::Alu(0x33, 2, 0)),
    ("sltu", Mn::Alu(0x33, 3, 0)),
    ("xor", Mn::Alu(0x33, 4, 0)),
    ("srl", Mn::Alu(0x33, 5, 0)),
    ("sra", Mn::Alu(0x33, 5, 0x20)),
    ("or", Mn::Alu(0x33, 6, 0)),
    ("and", Mn::Alu(0x33, 7, 0)),
    ("mul", Mn::Alu(0x33, 0, 1)),
    ("mulh", Mn::Alu(0x33, 1, 1)),
    ("mulhsu", Mn::Alu(0x33, 2, 1)),
    ("mulhu", Mn::Alu(0x33, 3, 1)),
    ("div", Mn::Alu(0x33, 4, 1)),
    ("divu", Mn::Alu(0x33, 5, 1)),
    ("rem", Mn::Alu(0x33, 6, 1)),
    ("remu", Mn::Alu(0x33, 7, 1)),
    ("addw", Mn::Alu(0x3b, 0, 0)),
    ("subw", Mn::Alu(0x3b, 0, 0x20)),
    ("sllw", Mn::Alu(0x3b, 1, 0)),
    ("srlw", Mn::Alu(0x3b, 5, 0)),
    ("sraw", Mn::Alu(0x3b, 5, 0x20)),
    ("mulw", Mn::Alu(0x3b, 0, 1)),
    ("divw", Mn::Alu(0x3b, 4, 1)),
    ("divuw", Mn::Alu(0x3b, 5, 1)),
    ("remw", Mn::Alu(0x3b, 6, 1)),
    ("remuw", Mn::Alu(0x3b, 7, 1)),
    ("addi", Mn::AluImm(0x13, 0)),
    ("slti", Mn::AluImm(0x13, 2)),
    ("sltiu", Mn::AluImm(0x13, 3)),
    ("xori", Mn::AluImm(0x13, 4)),
    ("ori", Mn::AluImm(0x13, 6)),
    ("andi", Mn::AluImm(0x13, 7)),
    ("addiw", Mn::AluImm(0x1b, 0)),
    ("slli", Mn::Shift(0x13, 1, 0, 64)),
    ("srli", Mn::Shift(0x13, 5, 0, 64)),
    ("srai", Mn::Shift(0x13, 5, 0x400, 64)),
    ("slliw", Mn::Shift(0x1b, 1, 0, 32)),
    ("srliw", Mn::Shift(0x1b, 5, 0, 32)),
    ("sraiw", Mn::Shift(0x1b, 5, 0x400, 32)),
    ("lb", Mn::Load(0x03, 0, false)),
    ("lh", Mn::Load(0x03, 1, false)),
    ("lw", Mn::Load(0x03, 2, false)),
    ("ld", Mn::Load(0x03, 3, false)),
    ("lbu", Mn::Load(0x03, 4, false)),
    ("lhu", Mn::Load(0x03, 5, false)),
    ("lwu", Mn::Load(0x03, 6, false)),
    ("flw", Mn::Load(0x07, 2, true)),
    ("fld", Mn::Load(0x07, 3, true)),
    ("sb", Mn::Store(0x23, 0, false)),
    ("sh", Mn::Store(0x23, 1, false)),
    ("sw", Mn::Store(0x23, 2, false)),
    ("sd", Mn::Store(0x23, 3, false)),
    ("fsw", Mn::Store(0x27, 2, true)),
    ("fsd", Mn::Store(0x27, 3, true)),
    ("beq", Mn::Branch(0, false)),
    ("bne", Mn::Branch(1, false)),
    ("blt", Mn::Branch(4, false)),
    ("bge", Mn::Branch(5, false)),
    ("bltu", Mn::Branch(6, false)),
    ("bgeu", Mn::Branch(7, false)),
    ("bgt", Mn::Branch(4, true)),
    ("ble", Mn::Branch(5, true)),
    ("bgtu", Mn::Branch(6, true)),
    ("bleu", Mn::Branch(7, true)),
    ("beqz", Mn::BranchZero(0, false)),
    ("bnez", Mn::BranchZero(1, false)),
    ("bltz", Mn::BranchZero(4, false)),
    ("bgez", Mn::BranchZero(5, false)),
    ("bgtz", Mn::BranchZero(4, true)),
    ("blez", Mn::BranchZero(5, true)),
    ("fmv.x.w", Mn::FmvInt(0x70, false)),
    ("fmv.x.d", Mn::FmvInt(0x71, false)),
    ("fmv.w.x", Mn::FmvInt(0x78, true)),
    ("fmv.d.x", Mn::FmvInt(0x79, true)),
    ("li", Mn::Li),
    ("lui", Mn::Upper(0x37)),
    ("auipc", Mn::Upper(0x17)),
    ("mv", Mn::Mv),
    ("not", Mn::Unary(0x13, 4, -1)),
    ("sext.w", Mn::Unary(0x1b, 0, 0)),
    ("zext.b", Mn::Unary(0x13, 7, 255)),
    ("seqz", Mn::Unary(0x13, 3, 1)),
    ("neg", Mn::FromZero(0x33, 0, 0x20)),
    ("negw", Mn::FromZero(0x3b, 0, 0x20)),
    ("snez", Mn::FromZero(0x33, 3, 0)),
    ("sgtz", Mn::FromZero(0x33, 2, 0)),
    ("sltz", Mn::Sltz),
    ("j", Mn::J),
    ("jr", Mn::Jr),
    ("jalr", Mn::Jalr),
    ("ret", Mn::Ret),
    ("call", Mn::Call(true)),
    ("tail", Mn::Call(false)),
    ("jump", Mn::Jump),
    ("lla", Mn::Lla),
    ("fence", Mn::Fence),
    ("fence.i", Mn::Fixed(0x100f)),
    ("ecall", Mn::Fixed(0x73)),
    ("ebreak", Mn::FixedRvc(0x0010_0073)),
    ("nop", Mn::FixedRvc(0x13)),
    ("unimp", Mn::Unimp),
];

/// `m`'s entry of [`MNEMONICS`] (and `la.tls.ie`, the one longer name),
/// found by its bytes as one integer in a map built once.
fn mnemonic(m: &str) -> Option<Mn> {
    static MAP: std::sync::OnceLock<rustc_hash::FxHashMap<u64, Mn>> = std::sync::OnceLock::new();
    if m == "la.tls.ie" {
        return Some(Mn::LaTlsIe);
    }
    let map = MAP.get_or_init(|| {
        MNEMONICS
            .iter()
            .map(|&(name, mn)| (mnemonic_key(name).expect("short"), mn))
            .collect()
    });
    map.get(&mnemonic_key(m)?).copied()
}

/// Operand `i` as an integer register.
fn int_reg(ops: &[&str], i: usize) -> Result<u32, String> {
    ops.get(i)
        .and_then(|o| gpr(o))
        .ok_or_else(|| format!("operand {} is not an integer register", i + 1))
}

/// Operand `i` as an FP register.
fn fp_reg(ops: &[&str], i: usize) -> Result<u32, String> {
    ops.get(i)
        .and_then(|o| fpr(o))
        .ok_or_else(|| format!("operand {} is not an FP register", i + 1))
}

/// Operand `i` as an integer.
fn immediate(ops: &[&str], i: usize) -> Result<i64, String> {
    ops.get(i)
        .and_then(|o| parse_int(o))
        .ok_or_else(|| format!("operand {} is not an immediate", i + 1))
}

/// That there are `k` operands.
fn count(ops: &[&str], k: usize) -> Result<(), String> {
    if ops.len() == k {
        Ok(())
    } else {
        Err(format!("expected {k} operands"))
    }
}

/// `auipc tmp` then `jalr link, 0(tmp)`: a `call`, `tail` or `jump`.
fn call_pair(link: u32, tmp: u32) -> [u8; 8] {
    let mut b = [0; 8];
    b[..4].copy_from_slice(&(0x17 | (tmp << 7)).to_le_bytes());
    b[4..].copy_from_slice(&i_type(0x67, 0, link, tmp, 0).to_le_bytes());
    b
}

/// The instructions [`MNEMONICS`] leaves out, recognised by their parts:
/// OP-FP with its `.s`/`.d` suffix, `fcvt.*` and the atomics.
fn encode_fp_atomic(m: &str, ops: &[&str], obj: &mut ObjectBuilder) -> Result<(), String> {
    let g = |i: usize| int_reg(ops, i);
    let f = |i: usize| fp_reg(ops, i);
    let n = |k: usize| count(ops, k);
    // OP-FP: (funct7 without the format, rm or funct3, format from the suffix).
    if let Some((name, fmt)) = m.rsplit_once('.').and_then(|(a, b)| match b {
        "s" => Some((a, 0)),
        "d" => Some((a, 1)),
        _ => None,
    }) {
        let three = match name {
            "fadd" => Some((0x00, None)),
            "fsub" => Some((0x04, None)),
            "fmul" => Some((0x08, None)),
            "fdiv" => Some((0x0c, None)),
            "fsgnj" => Some((0x10, Some(0))),
            "fsgnjn" => Some((0x10, Some(1))),
            "fsgnjx" => Some((0x10, Some(2))),
            "fmin" => Some((0x14, Some(0))),
            "fmax" => Some((0x14, Some(1))),
            _ => None,
        };
        if let Some((f5, fixed)) = three {
            let rm = match fixed {
                Some(r) => {
                    n(3)?;
                    r
                }
                None if ops.len() == 4 => rounding(ops[3]).ok_or("bad rounding mode")?,
                None => {
                    n(3)?;
                    7
                }
            };
            let w = r_type(0x53, rm, f5 | fmt, f(0)?, f(1)?, f(2)?);
            obj.emit(&w.to_le_bytes());
            return Ok(());
        }
        let cmp = match name {
            "feq" => Some(2),
            "flt" => Some(1),
            "fle" => Some(0),
            _ => None,
        };
        if let Some(rm) = cmp {
            n(3)?;
            let w = r_type(0x53, rm, 0x50 | fmt, g(0)?, f(1)?, f(2)?);
            obj.emit(&w.to_le_bytes());
            return Ok(());
        }
        let two = match name {
            "fmv" => Some(0),
            "fneg" => Some(1),
            "fabs" => Some(2),
            _ => None,
        };
        if let Some(rm) = two {
            n(2)?;
            let (d, s) = (f(0)?, f(1)?);
            obj.emit(&r_type(0x53, rm, 0x10 | fmt, d, s, s).to_le_bytes());
            return Ok(());
        }
        if name == "fsqrt" {
            let rm = if ops.len() == 3 {
                rounding(ops[2]).ok_or("bad rounding mode")?
            } else {
                n(2)?;
                7
            };
            obj.emit(&r_type(0x53, rm, 0x2c | fmt, f(0)?, f(1)?, 0).to_le_bytes());
            return Ok(());
        }
    }
    if let Some(rest) = m.strip_prefix("fcvt.") {
        let (to, from) = rest.split_once('.').ok_or("bad fcvt")?;
        let int = |t: &str| match t {
            "w" => Some(0),
            "wu" => Some(1),
            "l" => Some(2),
            "lu" => Some(3),
            _ => None,
        };
        let fmt = |t: &str| match t {
            "s" => Some(0),
            "d" => Some(1),
            _ => None,
        };
        // (funct7, rs2, destination is FP, source is FP, gas's default rounding)
        let (f7, rs2, dst_fp, src_fp, default_rm) = match (fmt(to), fmt(from), int(to), int(from)) {
            (Some(1), Some(0), _, _) => (0x21, 0, true, true, 0),
            (Some(0), Some(1), _, _) => (0x20, 1, true, true, 7),
            (None, Some(ff), Some(i), _) => (0x60 | ff, i, false, true, 7),
            // Integer to double with 32-bit sources is exact: gas defaults to rne.
            (Some(tf), None, _, Some(i)) => (0x68 | tf, i, true, false, if tf == 1 && i < 2 { 0 } else { 7 }),
            _ => return Err("unsupported fcvt".into()),
        };
        let rm = if ops.len() == 3 {
            rounding(ops[2]).ok_or("bad rounding mode")?
        } else {
            n(2)?;
            default_rm
        };
        let rd = if dst_fp { f(0)? } else { g(0)? };
        let rs1 = if src_fp { f(1)? } else { g(1)? };
        obj.emit(&r_type(0x53, rm, f7, rd, rs1, rs2).to_le_bytes());
        return Ok(());
    }
    // Atomics: `lr.w.aqrl rd, (rs1)`, `sc.w rd, rs2, (rs1)`, `amoadd.d.aq rd, rs2, (rs1)`.
    if m.starts_with("lr.") || m.starts_with("sc.") || m.starts_with("amo") {
        let mut parts = m.split('.');
        let base = parts.next().unwrap_or("");
        let width = match parts.next() {
            Some("w") => 2,
            Some("d") => 3,
            _ => return Err("bad atomic width".into()),
        };
        let order = match parts.next() {
            None => 0,
            Some("aq") => 2,
            Some("rl") => 1,
            Some("aqrl") => 3,
            Some(_) => return Err("bad atomic ordering".into()),
        };
        let f5 = match base {
            "lr" => 0x02,
            "sc" => 0x03,
            "amoswap" => 0x01,
            "amoadd" => 0x00,
            "amoxor" => 0x04,
            "amoand" => 0x0c,
            "amoor" => 0x08,
            "amomin" => 0x10,
            "amomax" => 0x14,
            "amominu" => 0x18,
            "amomaxu" => 0x1c,
            _ => return Err("unknown atomic".into()),
        };
        let addr = |s: &str| -> Result<u32, String> {
            match mem(s) {
                Some((0, r)) => Ok(r),
                _ => Err("bad atomic address".into()),
            }
        };
        let (rd, rs2, rs1) = if base == "lr" {
            n(2)?;
            (g(0)?, 0, addr(ops[1])?)
        } else {
            n(3)?;
            (g(0)?, g(1)?, addr(ops[2])?)
        };
        obj.emit(&r_type(0x2f, width, (f5 << 2) | order, rd, rs1, rs2).to_le_bytes());
        return Ok(());
    }
    Err(format!("unknown instruction `{m}`"))
}

impl Riscv64Encoder {
    fn put(&self, obj: &mut ObjectBuilder, w: u32) {
        match self.compress.then(|| compress(w)).flatten() {
            Some(c) => obj.emit(&c.to_le_bytes()),
            None => obj.emit(&w.to_le_bytes()),
        }
    }

    /// A branch (`f3` the condition, or `None` for `j`) to `target`.
    fn branch(
        &mut self,
        obj: &mut ObjectBuilder,
        f3: Option<u32>,
        rs1: u32,
        rs2: u32,
        target: &str,
    ) -> Result<(), String> {
        let (label, addend) = symbol(target).ok_or("bad branch target")?;
        if addend != 0 {
            return Err("branch target with an addend".into());
        }
        let rvc = self.compress
            && match f3 {
                None => true,
                Some(f) => f <= 1 && rs2 == 0 && (8..16).contains(&rs1),
            };
        let (forms, reach): (&'static [u8], &'static [i64]) = match (f3.is_some(), rvc) {
            (false, true) => (&[2, 4], &[1 << 11, 1 << 20]),
            (false, false) => (&[4], &[1 << 20]),
            (true, true) => (&[2, 4, 6], &[1 << 8, 1 << 12, 1 << 20]),
            (true, false) => (&[4, 8], &[1 << 12, 1 << 20]),
        };
        let n = self.branches.len();
        if self.sizes.len() <= n {
            self.sizes.push(forms[0]);
        }
        let size = self.sizes[n];
        self.branches.push(Branch {
            section: obj.current_section(),
            offset: obj.offset() as u64,
            label: label.clone(),
            forms,
            reach,
            jump: f3.is_none(),
        });
        match (f3, size) {
            (None, 2) => obj.emit_field(&0xa001u16.to_le_bytes(), FixupKind::Field(F_RVC_JUMP), &label, 0),
            (None, _) => obj.emit_field(&0x6fu32.to_le_bytes(), FixupKind::Field(F_JAL), &label, 0),
            (Some(f), 2) => {
                let w = (0xc001 | ((f as u16) << 13)) | (((rs1 - 8) as u16) << 7);
                obj.emit_field(&w.to_le_bytes(), FixupKind::Field(F_RVC_BRANCH), &label, 0)
            }
            (Some(f), 4) => obj.emit_field(
                &r_type(0x63, f, 0, 0, rs1, rs2).to_le_bytes(),
                FixupKind::Field(F_BRANCH),
                &label,
                0,
            ),
            (Some(f), 6) => {
                // `c.beqz`/`c.bnez` inverted over a `jal` (gas's relaxation of a far branch).
                let w = (0xc001 | (((f ^ 1) as u16) << 13)) | (((rs1 - 8) as u16) << 7) | cb_imm(6);
                obj.emit(&w.to_le_bytes());
                obj.emit_field(&0x6fu32.to_le_bytes(), FixupKind::Field(F_JAL), &label, 0)
            }
            (Some(f), _) => {
                // The inverted condition over a `jal` (gas's relaxation of a far branch).
                obj.emit(&(r_type(0x63, f ^ 1, 0, 0, rs1, rs2) | b_imm(8)).to_le_bytes());
                obj.emit_field(&0x6fu32.to_le_bytes(), FixupKind::Field(F_JAL), &label, 0)
            }
        }
        Ok(())
    }

    /// `auipc rd` with `hi` against `sym`, then `lo` (an I-type word reading
    /// `rd`) against a local symbol at the `auipc`.
    fn pcrel_pair(
        &self,
        obj: &mut ObjectBuilder,
        rd: u32,
        hi: FixupKind,
        sym: &str,
        addend: i64,
        lo: u32,
    ) -> Result<(), String> {
        let anchor = obj.define_anchor()?;
        obj.emit_field(&(0x17 | (rd << 7)).to_le_bytes(), hi, sym, addend);
        obj.emit_field(&lo.to_le_bytes(), FixupKind::Field(F_PCREL_LO_I), &anchor, 0);
        Ok(())
    }

    fn encode_ops(&mut self, m: &str, ops: &[&str], obj: &mut ObjectBuilder) -> Result<(), String> {
        match mnemonic(m) {
            Some(mn) => self.encode_known(mn, ops, obj),
            None => encode_fp_atomic(m, ops, obj),
        }
    }

    /// The instructions of [`MNEMONICS`].
    fn encode_known(&mut self, mn: Mn, ops: &[&str], obj: &mut ObjectBuilder) -> Result<(), String> {
        let g = |i: usize| int_reg(ops, i);
        let imm = |i: usize| immediate(ops, i);
        let n = |k: usize| count(ops, k);
        let imm12 = |i: usize| -> Result<i64, String> {
            let v = imm(i)?;
            if fits(v, 12) {
                Ok(v)
            } else {
                Err("immediate out of range".into())
            }
        };
        match mn {
            Mn::Alu(op, f3, f7) => {
                n(3)?;
                let w = r_type(op, f3, f7, g(0)?, g(1)?, g(2)?);
                self.put(obj, w);
            }
            Mn::AluImm(op, f3) => {
                n(3)?;
                let w = i_type(op, f3, g(0)?, g(1)?, imm12(2)?);
                self.put(obj, w);
            }
            Mn::Shift(op, f3, high, limit) => {
                n(3)?;
                let sh = imm(2)?;
                if !(0..limit).contains(&sh) {
                    return Err("shift amount out of range".into());
                }
                let w = i_type(op, f3, g(0)?, g(1)?, high | sh);
                self.put(obj, w);
            }
            Mn::Load(op, f3, fp) => {
                n(2)?;
                let rd = if fp { fp_reg(ops, 0)? } else { g(0)? };
                if let Some((label, base)) = pcrel_lo(ops[1]) {
                    obj.keep_symbol(&label);
                    let w = i_type(op, f3, rd, base, 0);
                    obj.emit_field(&w.to_le_bytes(), FixupKind::Field(F_PCREL_LO_I), &label, 0);
                    return Ok(());
                }
                let (off, base) = mem(ops[1]).ok_or("bad memory operand")?;
                if !fits(off, 12) {
                    return Err("offset out of range".into());
                }
                let w = i_type(op, f3, rd, base, off);
                self.put(obj, w);
            }
            Mn::Store(op, f3, fp) => {
                n(2)?;
                let rs2 = if fp { fp_reg(ops, 0)? } else { g(0)? };
                if let Some((label, base)) = pcrel_lo(ops[1]) {
                    obj.keep_symbol(&label);
                    let w = s_type(op, f3, base, rs2, 0);
                    obj.emit_field(&w.to_le_bytes(), FixupKind::Field(F_PCREL_LO_S), &label, 0);
                    return Ok(());
                }
                let (off, base) = mem(ops[1]).ok_or("bad memory operand")?;
                if !fits(off, 12) {
                    return Err("offset out of range".into());
                }
                let w = s_type(op, f3, base, rs2, off);
                self.put(obj, w);
            }
            Mn::Branch(f3, swap) => {
                n(3)?;
                let (a, b) = if swap { (g(1)?, g(0)?) } else { (g(0)?, g(1)?) };
                return self.branch(obj, Some(f3), a, b, ops[2]);
            }
            Mn::BranchZero(f3, swap) => {
                n(2)?;
                let (a, b) = if swap { (0, g(0)?) } else { (g(0)?, 0) };
                return self.branch(obj, Some(f3), a, b, ops[1]);
            }
            Mn::FmvInt(f7, to_fp) => {
                n(2)?;
                let (rd, rs1) = if to_fp {
                    (fp_reg(ops, 0)?, g(1)?)
                } else {
                    (g(0)?, fp_reg(ops, 1)?)
                };
                obj.emit(&r_type(0x53, 0, f7, rd, rs1, 0).to_le_bytes());
            }
            Mn::Li => {
                n(2)?;
                let (rd, v) = (g(0)?, imm(1)?);
                if fits(v, 12) {
                    self.put(obj, i_type(0x13, 0, rd, 0, v));
                } else {
                    let mut words = Vec::new();
                    load_const(rd, v, &mut words);
                    for w in words {
                        self.put(obj, w);
                    }
                }
            }
            Mn::Upper(op) => {
                n(2)?;
                let rd = g(0)?;
                if op == 0x17 {
                    if let Some(inner) = trim(ops[1]).strip_prefix("%got_pcrel_hi(") {
                        let (sym, addend) =
                            symbol(inner.strip_suffix(')').ok_or("bad %got_pcrel_hi")?).ok_or("bad %got_pcrel_hi")?;
                        obj.emit_field(&(op | (rd << 7)).to_le_bytes(), FixupKind::GotPcRel, &sym, addend);
                        return Ok(());
                    }
                    if let Some(inner) = trim(ops[1]).strip_prefix("%pcrel_hi(") {
                        let (sym, addend) =
                            symbol(inner.strip_suffix(')').ok_or("bad %pcrel_hi")?).ok_or("bad %pcrel_hi")?;
                        let f = FixupKind::Field(F_PCREL_HI);
                        obj.emit_field(&(op | (rd << 7)).to_le_bytes(), f, &sym, addend);
                        return Ok(());
                    }
                }
                let v = imm(1)?;
                if !(0..1 << 20).contains(&v) {
                    return Err("immediate out of range".into());
                }
                self.put(obj, ((v as u32) << 12) | (rd << 7) | op);
            }
            Mn::Mv => {
                n(2)?;
                let (rd, rs) = (g(0)?, g(1)?);
                let w = i_type(0x13, 0, rd, rs, 0);
                if rs == 0 {
                    // gas has `c.mv` for `mv` (a nonzero source), never `c.li`.
                    obj.emit(&w.to_le_bytes());
                } else {
                    self.put(obj, w);
                }
            }
            // `not`, `sext.w`, `zext.b`, `seqz`: an I-type word on rs.
            Mn::Unary(op, f3, imm) => {
                n(2)?;
                self.put(obj, i_type(op, f3, g(0)?, g(1)?, imm));
            }
            // `neg`, `negw`, `snez`, `sgtz`: an R-type word with zero first.
            Mn::FromZero(op, f3, f7) => {
                n(2)?;
                self.put(obj, r_type(op, f3, f7, g(0)?, 0, g(1)?));
            }
            Mn::Sltz => {
                n(2)?;
                self.put(obj, r_type(0x33, 2, 0, g(0)?, g(1)?, 0));
            }
            Mn::J => {
                n(1)?;
                return self.branch(obj, None, 0, 0, ops[0]);
            }
            Mn::Jr => {
                n(1)?;
                self.put(obj, i_type(0x67, 0, 0, g(0)?, 0));
            }
            Mn::Jalr => {
                // `jalr rs` (link in ra) or `jalr rd, off(rs)`.
                let w = match ops.len() {
                    1 => i_type(0x67, 0, 1, g(0)?, 0),
                    2 => {
                        let (off, base) = mem(ops[1]).ok_or("bad jalr operand")?;
                        i_type(0x67, 0, g(0)?, base, off)
                    }
                    _ => return Err("bad jalr".into()),
                };
                self.put(obj, w);
            }
            Mn::Ret => {
                n(0)?;
                self.put(obj, i_type(0x67, 0, 0, 1, 0));
            }
            Mn::Call(call) => {
                n(1)?;
                let (sym, addend) = symbol(ops[0]).ok_or("bad call target")?;
                if call && addend == 0 && !ops[0].ends_with("@plt") {
                    let k = self.calls.len();
                    self.calls.push((obj.current_section(), sym.clone(), self.insns.len()));
                    if self.short.get(k) == Some(&true) {
                        // `jal ra, sym`, resolved like a branch to a label.
                        #[cfg(feature = "inject-bugs")]
                        let link = if crate::inject::enabled(crate::inject::Bug::RiscvShortCallNoLink) {
                            0
                        } else {
                            1
                        };
                        #[cfg(not(feature = "inject-bugs"))]
                        let link = 1;
                        obj.emit_field(&(0x6fu32 | (link << 7)).to_le_bytes(), FixupKind::Field(F_JAL), &sym, 0);
                        return Ok(());
                    }
                }
                let (link, tmp): (u32, u32) = if call { (1, 1) } else { (0, 6) };
                let b = call_pair(link, tmp);
                obj.emit_field(&b, FixupKind::Field(F_CALL), &sym, addend);
            }
            Mn::Jump => {
                n(2)?;
                let (sym, addend) = symbol(ops[0]).ok_or("bad jump target")?;
                let tmp = g(1)?;
                obj.emit_field(&call_pair(0, tmp), FixupKind::Field(F_CALL), &sym, addend);
            }
            Mn::Lla => {
                n(2)?;
                let rd = g(0)?;
                let (sym, addend) = symbol(ops[1]).ok_or("bad lla operand")?;
                self.pcrel_pair(
                    obj,
                    rd,
                    FixupKind::Field(F_PCREL_HI),
                    &sym,
                    addend,
                    i_type(0x13, 0, rd, rd, 0),
                )?;
            }
            Mn::LaTlsIe => {
                n(2)?;
                let rd = g(0)?;
                let (sym, addend) = symbol(ops[1]).ok_or("bad la.tls.ie operand")?;
                self.pcrel_pair(obj, rd, FixupKind::GotTpOff, &sym, addend, i_type(0x03, 3, rd, rd, 0))?;
            }
            Mn::Fence => {
                let (pred, succ) = match ops.len() {
                    0 => (15, 15),
                    2 => (
                        fence_set(ops[0]).ok_or("bad fence set")?,
                        fence_set(ops[1]).ok_or("bad fence set")?,
                    ),
                    _ => return Err("bad fence".into()),
                };
                obj.emit(&(0x0f | (pred << 24) | (succ << 20)).to_le_bytes());
            }
            // `fence.i`, `ecall`: a fixed word, never compressed.
            Mn::Fixed(w) => {
                n(0)?;
                obj.emit(&w.to_le_bytes());
            }
            // `ebreak`, `nop`: a fixed word, compressed when it can be.
            Mn::FixedRvc(w) => {
                n(0)?;
                self.put(obj, w);
            }
            Mn::Unimp => {
                n(0)?;
                if self.compress {
                    obj.emit(&[0, 0]);
                } else {
                    obj.emit(&0xc000_1073u32.to_le_bytes());
                }
            }
        }
        Ok(())
    }

    /// Assembles `text`, growing the branches that do not reach until
    /// every one does (sizes only grow, so this ends).
    /// The branch sizes gas's relaxation picks (tc-riscv.c
    /// `relaxed_branch_length` driven by write.c `relax_segment`): a first
    /// pass that estimates each branch with the addresses known so far
    /// (0 for frags ahead), then passes that recompute every branch with
    /// this pass's addresses behind it and the last pass's ahead, until
    /// nothing changes. `None` when the text holds what this model does
    /// not (bytes other than instructions in a code section).
    fn gas_relaxation(&self, text: &str) -> Option<Vec<u8>> {
        // Frags per code section, and where each label is: (section, frag, offset).
        let mut sections: Vec<(String, Vec<Frag>)> = Vec::new();
        let mut labels: rustc_hash::FxHashMap<&str, (usize, usize, i64)> = Default::default();
        let mut current: Option<usize> = None;
        let mut insn = 0usize;
        let enter = |name: &str, exec: bool, sections: &mut Vec<(String, Vec<Frag>)>| -> Option<usize> {
            if !exec {
                return None;
            }
            match sections.iter().position(|(n, _)| n == name) {
                Some(i) => Some(i),
                None => {
                    sections.push((name.to_string(), vec![Frag::default()]));
                    Some(sections.len() - 1)
                }
            }
        };
        for line in lines(text) {
            if line.is_empty() {
                continue;
            }
            if !line.starts_with(['\t', ' ']) {
                let name = line.trim_end().strip_suffix(':')?;
                if let Some(c) = current {
                    let frags = &sections[c].1;
                    labels.insert(name, (c, frags.len() - 1, frags.last()?.fixed));
                }
                continue;
            }
            let l = trim_start(line);
            let (word, args) = match l.bytes().position(|c| c == b'\t' || c == b' ') {
                Some(i) => (&l[..i], &l[i + 1..]),
                None => (l, ""),
            };
            if !word.starts_with('.') {
                let (size, branch) = *self.insns.get(insn)?;
                insn += 1;
                let Some(c) = current else { continue };
                let frags = &mut sections[c].1;
                match branch {
                    Some(k) => {
                        frags.last_mut()?.branch = Some(k);
                        frags.push(Frag::default());
                    }
                    None => frags.last_mut()?.fixed += size as i64,
                }
                continue;
            }
            match word {
                ".text" => current = enter(".text", true, &mut sections),
                ".data" | ".bss" => current = None,
                ".section" => {
                    let parts = split_operands(args);
                    let name = parts.first()?.trim().trim_matches('"');
                    let exec = match parts.get(1) {
                        Some(flags) => flags.contains('x'),
                        None => name == ".text" || name.starts_with(".text."),
                    };
                    current = enter(name, exec, &mut sections);
                }
                ".p2align" => {
                    if let Some(c) = current {
                        let ops = split_operands(args);
                        let pow = parse_int(ops.first()?)? as u32;
                        let max = ops.get(2).and_then(|m| parse_int(m)).unwrap_or(0);
                        let frags = &mut sections[c].1;
                        frags.last_mut()?.align = Some((pow, max));
                        frags.push(Frag::default());
                    }
                }
                ".globl" | ".global" | ".weak" | ".local" | ".hidden" | ".protected" | ".internal" | ".type"
                | ".size" | ".set" | ".equ" | ".comm" => {}
                // Anything else may put bytes into a code section.
                _ if current.is_none() => {}
                _ => return None,
            }
        }
        if insn != self.insns.len() {
            return None;
        }
        let mut sizes = self.sizes.clone();
        let length = |k: usize, frags: &[Frag], f: usize, sec: usize| -> u8 {
            let br = &self.branches[k];
            let jump = br.jump;
            let rvc = br.forms[0] == 2;
            match labels.get(br.label.as_str()) {
                Some(&(s, lf, off)) if s == sec => {
                    let val = frags[lf].address + off - (frags[f].address + frags[f].fixed);
                    let rvc_reach = if jump { 1 << 11 } else { 1 << 8 };
                    if rvc && (-rvc_reach..rvc_reach).contains(&val) {
                        2
                    } else if (-(1 << 12)..1 << 12).contains(&val) {
                        4
                    } else if !jump && rvc {
                        6
                    } else if jump {
                        4
                    } else {
                        8
                    }
                }
                _ => br.forms[br.forms.len() - 1].min(4),
            }
        };
        for (sec, (_, frags)) in sections.iter_mut().enumerate() {
            // The estimate.
            let mut address = 0;
            for f in 0..frags.len() {
                frags[f].address = address;
                address += frags[f].fixed;
                if let Some(k) = frags[f].branch {
                    sizes[k] = length(k, frags, f, sec);
                    address += sizes[k] as i64;
                }
                if let Some((pow, max)) = frags[f].align {
                    address += relax_align(address, pow, max);
                }
            }
            // The passes.
            for _ in 0..100 {
                let mut stretch = 0;
                let mut changed = false;
                for f in 0..frags.len() {
                    let was = frags[f].address;
                    frags[f].address += stretch;
                    let mut growth = 0;
                    if let Some(k) = frags[f].branch {
                        let new = length(k, frags, f, sec);
                        growth = new as i64 - sizes[k] as i64;
                        sizes[k] = new;
                    }
                    if let Some((pow, max)) = frags[f].align {
                        let fixed = frags[f].fixed;
                        growth = relax_align(frags[f].address + fixed, pow, max) - relax_align(was + fixed, pow, max);
                    }
                    if growth != 0 {
                        stretch += growth;
                        changed = true;
                    }
                }
                if !changed {
                    return Some(sizes);
                }
            }
        }
        None
    }

    /// Which calls of the pass just made can be a single `jal ra, callee`
    /// (4 bytes, a direct jump) instead of `auipc`+`jalr` with
    /// `R_RISCV_CALL_PLT` (8 bytes, an indirect one): those whose callee is
    /// a local definition (a `static` function: neither global nor weak, so
    /// the linker cannot bind the call elsewhere) in the call's own section,
    /// when that section is small enough that `jal`'s +-1 MiB reaches
    /// across all of it. The size bound is the section with every label
    /// branch at its longest form; shortening calls only brings code
    /// closer. This is what the linker's relaxation gives gcc's calls
    /// (`R_RISCV_RELAX`), which these non-relaxable objects cannot ask for;
    /// unlike gas `-mno-relax`, which keeps every `call` long.
    fn short_calls(&self, b: &ObjectBuilder) -> Vec<bool> {
        const REACH: usize = (1 << 20) - (64 << 10);
        let mut bound: rustc_hash::FxHashMap<usize, usize> = Default::default();
        for (k, br) in self.branches.iter().enumerate() {
            let longest = br.forms[br.forms.len() - 1] as usize;
            *bound.entry(br.section).or_insert(0) += longest - self.sizes[k] as usize;
        }
        self.calls
            .iter()
            .map(|(section, callee, _)| {
                let fits = b.section_len(*section) + bound.get(section).copied().unwrap_or(0) < REACH;
                fits && matches!(b.local_definition(callee), Some((k, _)) if k == *section)
            })
            .collect()
    }

    pub fn assemble(&mut self, text: &str) -> Result<Vec<u8>, String> {
        match self.assemble_with(text, true) {
            // A `jal` that does not reach after all (the bound in
            // `short_calls` leaves 64 KiB for alignment padding): long calls.
            Err(e) if self.short.iter().any(|&s| s) => self.assemble_with(text, false).map_err(|_| e),
            r => r,
        }
    }

    fn assemble_with(&mut self, text: &str, shorten: bool) -> Result<Vec<u8>, String> {
        self.sizes.clear();
        self.short.clear();
        self.cache.clear();
        self.cache_bytes.clear();
        let mut first = true;
        let mut calls_decided = !shorten;
        loop {
            self.branches.clear();
            self.insns.clear();
            self.calls.clear();
            let b = ObjectBuilder::parse(text, self)?;
            if !std::mem::replace(&mut calls_decided, true) {
                let short = self.short_calls(&b);
                if short.iter().any(|&s| s) {
                    // Parse again with them short (the branch sizes are
                    // still the first pass's shortest forms).
                    self.short = short;
                    if std::mem::take(&mut first) && !self.branches.is_empty() {
                        // That pass would only shrink the short calls to 4
                        // bytes, so the relaxation can run on this pass's
                        // sizes with theirs changed, and save a parse.
                        for (k, &(_, _, insn)) in self.calls.iter().enumerate() {
                            if self.short[k] {
                                self.insns[insn].0 = 4;
                            }
                        }
                        if let Some(sizes) = self.gas_relaxation(text) {
                            self.sizes = sizes;
                        } else {
                            first = true;
                        }
                    }
                    continue;
                }
            }
            if std::mem::take(&mut first) && !self.branches.is_empty() {
                if let Some(sizes) = self.gas_relaxation(text) {
                    // Assemble again with gas's sizes (the loop below then
                    // only checks that they reach).
                    self.sizes = sizes;
                    continue;
                }
            }
            let mut grew = false;
            for (k, br) in self.branches.iter().enumerate() {
                let place = b.symbol_place(&br.label);
                let at = br.forms.iter().position(|&s| s == self.sizes[k]).unwrap_or(0);
                let fits_form = |i: usize| match place {
                    Some((sec, v)) if sec == br.section => {
                        // gas measures from the branch, for every form (its
                        // `jal` then reaches 1 MiB from there or not at all).
                        let d = v as i64 - br.offset as i64;
                        (-br.reach[i]..br.reach[i]).contains(&d)
                    }
                    // Another section or undefined: a relocation, which the 4-byte form takes.
                    _ => br.forms[i] >= 4,
                };
                if !fits_form(at) {
                    let next = (at + 1..br.forms.len())
                        .find(|&i| fits_form(i))
                        .ok_or_else(|| format!("branch to `{}` out of range", br.label))?;
                    self.sizes[k] = br.forms[next];
                    grew = true;
                }
            }
            if !grew {
                return b.finish(self);
            }
        }
    }
}

impl InstEncoder for Riscv64Encoder {
    fn target(&self) -> Target {
        Target::Riscv64
    }

    fn encode(&mut self, mnemonic: &str, operands: &str, obj: &mut ObjectBuilder) -> Result<(), String> {
        let k = self.insns.len();
        if let Some(&(at, n)) = self.cache.get(k).filter(|c| c.1 != 0) {
            let at = at as usize;
            obj.emit(&self.cache_bytes[at..at + n as usize]);
            self.insns.push((n.into(), None));
            return Ok(());
        }
        let ops = Operands::split(operands);
        let (start, branches, calls, fixups) = (obj.offset(), self.branches.len(), self.calls.len(), obj.fixup_count());
        self.encode_ops(mnemonic, &ops, obj)?;
        let size = obj.offset() - start;
        let branch = (self.branches.len() > branches).then_some(branches);
        self.insns.push((size as u32, branch));
        if self.cache.len() == k {
            let plain = branch.is_none() && self.calls.len() == calls && obj.fixup_count() == fixups;
            let bytes = obj.bytes_from(start);
            let entry = if plain && bytes.len() == size && size < 256 {
                let at = self.cache_bytes.len() as u32;
                self.cache_bytes.extend_from_slice(bytes);
                (at, size as u8)
            } else {
                (0, 0)
            };
            self.cache.push(entry);
        }
        Ok(())
    }

    fn reloc_type(&self, kind: FixupKind, size: u8, _instruction: bool) -> Result<u32, String> {
        Ok(match (kind, size) {
            (FixupKind::Abs, 8) => R_RISCV_64,
            (FixupKind::Abs, 4) => R_RISCV_32,
            (FixupKind::GotPcRel, 4) => R_RISCV_GOT_HI20,
            (FixupKind::GotTpOff, 4) => R_RISCV_TLS_GOT_HI20,
            (FixupKind::Field(F_BRANCH), 4) => R_RISCV_BRANCH,
            (FixupKind::Field(F_JAL), 4) => R_RISCV_JAL,
            (FixupKind::Field(F_CALL), 8) => R_RISCV_CALL_PLT,
            (FixupKind::Field(F_PCREL_HI), 4) => R_RISCV_PCREL_HI20,
            (FixupKind::Field(F_PCREL_LO_I), 4) => R_RISCV_PCREL_LO12_I,
            (FixupKind::Field(F_PCREL_LO_S), 4) => R_RISCV_PCREL_LO12_S,
            (FixupKind::Field(F_RVC_BRANCH), 2) => R_RISCV_RVC_BRANCH,
            (FixupKind::Field(F_RVC_JUMP), 2) => R_RISCV_RVC_JUMP,
            _ => return Err(format!("no relocation for a {size}-byte {kind:?} field")),
        })
    }

    fn difference_relocs(&self, size: u8) -> Option<(u32, u32)> {
        match size {
            2 => Some((R_RISCV_ADD16, R_RISCV_SUB16)),
            4 => Some((R_RISCV_ADD32, R_RISCV_SUB32)),
            8 => Some((R_RISCV_ADD64, R_RISCV_SUB64)),
            _ => None,
        }
    }

    fn code_padding(&self, n: usize) -> Vec<u8> {
        // As gas (riscv_handle_align): zero bytes up to 2-byte alignment,
        // then a `c.nop` up to 4, then `nop`s.
        let mut out = vec![0u8; n % 2];
        let mut left = n - n % 2;
        if left % 4 == 2 {
            out.extend_from_slice(&0x0001u16.to_le_bytes());
            left -= 2;
        }
        for _ in 0..left / 4 {
            out.extend_from_slice(&0x13u32.to_le_bytes());
        }
        out
    }

    fn patch_field(&self, kind: u16, field: &mut [u8], value: i64) -> Result<bool, String> {
        let (reach, bits): (i64, u32) = match kind {
            F_BRANCH => (1 << 12, b_imm(value)),
            F_JAL => (1 << 20, j_imm(value)),
            F_RVC_BRANCH => (1 << 8, cb_imm(value) as u32),
            F_RVC_JUMP => (1 << 11, cj_imm(value) as u32),
            // Kept as relocations, as gas keeps them.
            _ => return Ok(false),
        };
        if value % 2 != 0 || !(-reach..reach).contains(&value) {
            return Err(format!("displacement {value} out of range"));
        }
        if field.len() == 2 {
            let w = u16::from_le_bytes([field[0], field[1]]) | bits as u16;
            field.copy_from_slice(&w.to_le_bytes());
        } else {
            let w = u32::from_le_bytes([field[0], field[1], field[2], field[3]]) | bits;
            field.copy_from_slice(&w.to_le_bytes());
        }
        Ok(true)
    }
}

/// Assembles RISC-V text printed by our backend into an ELF object.
pub fn assemble(text: &str) -> Result<Vec<u8>, String> {
    Riscv64Encoder::default().assemble(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::object::{Object as _, ObjectSection as _, ObjectSymbol as _};

    fn text_of(src: &str) -> Vec<u8> {
        let obj = assemble(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        let file = ::object::File::parse(&*obj).unwrap();
        let data = file.section_by_name(".text").unwrap().data().unwrap().to_vec();
        data
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// The byte-level register decoders against the psABI's name tables,
    /// in ABI and numeric spelling, and names that are no register.
    #[test]
    fn register_names_decode_to_their_numbers() {
        const GPR: [&str; 32] = [
            "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
            "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
        ];
        const FPR: [&str; 32] = [
            "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4",
            "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9",
            "ft10", "ft11",
        ];
        for n in 0..32u32 {
            assert_eq!(gpr(GPR[n as usize]), Some(n), "{}", GPR[n as usize]);
            assert_eq!(gpr(&format!(" x{n}\t")), Some(n));
            assert_eq!(fpr(FPR[n as usize]), Some(n), "{}", FPR[n as usize]);
            assert_eq!(fpr(&format!("f{n}")), Some(n));
            assert_eq!(gpr(FPR[n as usize]), None);
            assert_eq!(fpr(GPR[n as usize]), None);
        }
        assert_eq!(gpr("fp"), Some(8));
        for bad in [
            "", "x32", "x", "s12", "t7", "a8", "zer", "zeros", "ft12", "fs12", "fa8", "f32", "X1", "é",
        ] {
            assert_eq!((gpr(bad), fpr(bad)), (None, None), "{bad}");
        }
    }

    /// Bad input is an error naming the line, the problem and the text, as
    /// before the mnemonic map: unknown names, wrong registers, counts, ranges.
    #[test]
    fn bad_instructions_are_errors_with_their_line() {
        for (line, message) in [
            ("frob a0, a1", "line 2: unknown instruction `frob`: `frob a0, a1`"),
            (
                "add a0, q1, a2",
                "line 2: operand 2 is not an integer register: `add a0, q1, a2`",
            ),
            ("add a0, a1", "line 2: expected 3 operands: `add a0, a1`"),
            (
                "addi a0, a1, 4096",
                "line 2: immediate out of range: `addi a0, a1, 4096`",
            ),
            (
                "slli a0, a1, 64",
                "line 2: shift amount out of range: `slli a0, a1, 64`",
            ),
            (
                "fadd.d fa0, a1, fa2",
                "line 2: operand 2 is not an FP register: `fadd.d fa0, a1, fa2`",
            ),
            ("ld a0, 8[a1]", "line 2: bad memory operand: `ld a0, 8[a1]`"),
            (
                "amoadd.q a0, a1, (a2)",
                "line 2: bad atomic width: `amoadd.q a0, a1, (a2)`",
            ),
            (
                "add\0 a0, a1, a2",
                "line 2: unknown instruction `add\0`: `add\0 a0, a1, a2`",
            ),
        ] {
            assert_eq!(
                assemble(&format!("\t.text\n\t{line}\n")).err().as_deref(),
                Some(message),
                "{line}"
            );
        }
    }

    /// Each line against the `.text` bytes `riscv64-linux-gnu-as -march=rv64gc
    /// -mabi=lp64d -mno-relax` (binutils 2.40) wrote for it alone: every
    /// instruction class, the pseudo-instructions, and the RVC forms gas picks.
    #[test]
    fn single_instructions_match_gas() {
        const GAS: &[(&str, &str)] = &[
            ("add a0, a1, a2", "3385c500"),
            ("sub t0, t1, t2", "b3027340"),
            ("sll s2, s3, s4", "33994901"),
            ("slt a0, a1, a2", "33a5c500"),
            ("sltu a0, zero, a2", "3335c000"),
            ("xor t3, t4, t5", "33ceee01"),
            ("srl a0, a1, a2", "33d5c500"),
            ("sra a0, a1, a2", "33d5c540"),
            ("or a0, a1, a2", "33e5c500"),
            ("and a0, a1, a2", "33f5c500"),
            ("mul a0, a1, a2", "3385c502"),
            ("mulhu t0, t1, t2", "b3327302"),
            ("div a0, a1, a2", "33c5c502"),
            ("divu a0, a1, a2", "33d5c502"),
            ("rem a0, a1, a2", "33e5c502"),
            ("remu a0, a1, a2", "33f5c502"),
            ("addw a0, a1, a2", "3b85c500"),
            ("subw a0, a1, a2", "3b85c540"),
            ("sllw a0, a1, a2", "3b95c500"),
            ("srlw a0, a1, a2", "3bd5c500"),
            ("sraw a0, a1, a2", "3bd5c540"),
            ("mulw a0, a1, a2", "3b85c502"),
            ("divw a0, a1, a2", "3bc5c502"),
            ("divuw a0, a1, a2", "3bd5c502"),
            ("remw a0, a1, a2", "3be5c502"),
            ("remuw a0, a1, a2", "3bf5c502"),
            ("addi a0, a1, -2048", "13850580"),
            ("addi t0, t1, 2047", "9302f37f"),
            ("slti a0, a1, -5", "13a5b5ff"),
            ("sltiu a0, a1, 1", "13b51500"),
            ("xori a0, a1, -1", "13c5f5ff"),
            ("ori a0, a1, 255", "13e5f50f"),
            ("andi a0, a1, 255", "13f5f50f"),
            ("addiw a0, a1, 100", "1b854506"),
            ("slli a0, a1, 63", "1395f503"),
            ("srli a0, a1, 1", "13d51500"),
            ("srai a0, a1, 40", "13d58542"),
            ("slliw a0, a1, 31", "1b95f501"),
            ("srliw a0, a1, 5", "1bd55500"),
            ("sraiw a0, a1, 7", "1bd57540"),
            ("lb a0, -1(a1)", "0385f5ff"),
            ("lh a0, 2(a1)", "03952500"),
            ("lw a0, 2044(a1)", "03a5c57f"),
            ("ld t0, -2048(s0)", "83320480"),
            ("lbu a0, 0(t1)", "03450300"),
            ("lhu a0, 6(t1)", "03556300"),
            ("lwu a0, 8(t1)", "03658300"),
            ("flw ft0, 4(t1)", "07204300"),
            ("fld ft1, -8(s0)", "873084ff"),
            ("sb a0, -1(a1)", "a38fa5fe"),
            ("sh a0, 2(a1)", "2391a500"),
            ("sw t0, 1000(t1)", "2324533e"),
            ("sd t0, -2048(s0)", "23305480"),
            ("fsw ft0, 4(t1)", "27220300"),
            ("fsd fs1, -16(s0)", "273894fe"),
            ("lui a0, 74565", "37553412"),
            ("auipc t1, 1", "17130000"),
            ("li t0, 2047", "9302f07f"),
            ("li t0, -2048", "93020080"),
            ("li t0, 4096", "8562"),
            ("li t0, 2147483647", "b7020080fd32"),
            ("li t0, -2147483648", "b7020080"),
            ("li t0, 4294967295", "9b0210008212fd12"),
            (
                "li t0, 0x123456789abcdef0",
                "b77224009b82d28aba029382d2c4b2029382725eb602938202ef",
            ),
            ("li t0, -9223372036854775808", "9b02f0fffe12"),
            ("mv t0, t1", "9a82"),
            ("mv a0, zero", "13050000"),
            ("not t0, t1", "9342f3ff"),
            ("neg t0, t1", "b3026040"),
            ("negw t0, t1", "bb026040"),
            ("sext.w t0, t1", "9b020300"),
            ("seqz t0, t1", "93321300"),
            ("snez t0, t1", "b3326000"),
            ("sltz t0, t1", "b3220300"),
            ("sgtz t0, t1", "b3226000"),
            ("fadd.d ft0, ft1, ft2", "53f02002"),
            ("fsub.s fa0, fa1, fa2", "53f5c508"),
            ("fmul.d fs0, fs1, fs2", "53f42413"),
            ("fdiv.s ft8, ft9, ft10", "53feee19"),
            ("fsqrt.d ft0, ft1", "53f0005a"),
            ("fmv.d ft0, ft1", "53801022"),
            ("fmv.s fa0, fa1", "5385b520"),
            ("fneg.d ft0, ft1", "53901022"),
            ("fneg.s ft0, ft1", "53901020"),
            ("fabs.d ft0, ft1", "53a01022"),
            ("feq.d t0, ft0, ft1", "d32210a2"),
            ("flt.s t0, ft0, ft1", "d31210a0"),
            ("fle.d t0, ft0, ft1", "d30210a2"),
            ("fmin.d ft0, ft1, ft2", "5380202a"),
            ("fmax.s ft0, ft1, ft2", "53902028"),
            ("fcvt.l.d t0, ft0, rtz", "d31220c2"),
            ("fcvt.w.s t0, ft0, rtz", "d31200c0"),
            ("fcvt.lu.d t0, ft0, rtz", "d31230c2"),
            ("fcvt.wu.d t0, ft0", "d37210c2"),
            ("fcvt.d.l ft0, t0", "53f022d2"),
            ("fcvt.d.lu ft0, t0", "53f032d2"),
            ("fcvt.d.w ft0, t0", "538002d2"),
            ("fcvt.d.wu ft0, t0", "538012d2"),
            ("fcvt.s.l ft0, t0", "53f022d0"),
            ("fcvt.s.lu ft0, t0", "53f032d0"),
            ("fcvt.s.w ft0, t0", "53f002d0"),
            ("fcvt.d.s ft0, ft1", "53800042"),
            ("fcvt.s.d ft0, ft1", "53f01040"),
            ("fmv.x.d t0, ft0", "d30200e2"),
            ("fmv.x.w t0, ft0", "d30200e0"),
            ("fmv.d.x ft0, t0", "538002f2"),
            ("fmv.w.x ft0, t0", "538002f0"),
            ("lr.w.aqrl t0, (t5)", "af220f16"),
            ("sc.w.aqrl a0, t1, (t5)", "2f256f1e"),
            ("lr.d t0, (t5)", "af320f10"),
            ("sc.d.rl a0, t1, (t5)", "2f356f1a"),
            ("amoadd.w.aqrl t0, t1, (t5)", "af226f06"),
            ("amoswap.d.aq t0, t1, (t5)", "af326f0c"),
            ("amoxor.d.aqrl t0, t1, (t5)", "af326f26"),
            ("amoand.w.aqrl t0, t1, (t5)", "af226f66"),
            ("amoor.d.aqrl t0, t1, (t5)", "af326f46"),
            ("fence rw, rw", "0f003003"),
            ("fence r, rw", "0f003002"),
            ("fence rw, w", "0f001003"),
            ("fence", "0f00f00f"),
            ("ecall", "73000000"),
            ("ebreak", "0290"),
            ("nop", "0100"),
            ("unimp", "0000"),
            ("ret", "8280"),
            ("jr t0", "8282"),
            ("jalr t0", "8292"),
            ("jalr ra, 16(t0)", "e7800201"),
            ("addi sp, sp, -32", "0111"),
            ("addi sp, sp, -1024", "130101c0"),
            ("addi sp, sp, 496", "7d61"),
            ("addi s0, sp, 64", "8000"),
            ("addi a0, a0, 1", "0505"),
            ("addi a0, a0, 0", "2a85"),
            ("addi a0, zero, 0", "0145"),
            ("li a0, 31", "7d45"),
            ("li a0, -32", "0155"),
            ("li a0, 32", "13050002"),
            ("lui a0, 31", "7d65"),
            ("lui a0, 1048575", "7d75"),
            ("lui sp, 1", "37110000"),
            ("andi s0, s0, -32", "0198"),
            ("slli s2, s2, 32", "0219"),
            ("srli a5, a5, 63", "fd93"),
            ("srai a5, a5, 1", "8587"),
            ("addiw a0, a0, -1", "7d35"),
            ("add a0, a0, s2", "4a95"),
            ("add a0, s2, a0", "4a95"),
            ("and s0, s0, s1", "658c"),
            ("or s0, s1, s0", "458c"),
            ("xor a0, a0, a1", "2d8d"),
            ("sub a0, a1, a0", "3385a540"),
            ("sub a0, a0, a1", "0d8d"),
            ("subw a0, a0, a1", "0d9d"),
            ("addw a0, a1, a0", "2d9d"),
            ("ld ra, 504(sp)", "fe70"),
            ("ld ra, 512(sp)", "83300120"),
            ("sd s11, 0(sp)", "6ee0"),
            ("lw a0, 252(sp)", "7e55"),
            ("sw a0, 124(sp)", "aade"),
            ("fld fs0, 8(sp)", "2224"),
            ("fsd fs0, 504(sp)", "a2bf"),
            ("ld a0, 248(a5)", "e87f"),
            ("ld a0, 256(a5)", "03b50710"),
            ("sd a0, 8(s1)", "88e4"),
            ("lw a0, 124(a5)", "e85f"),
            ("sw a4, 64(a5)", "b8c3"),
            ("fld fa0, 8(a5)", "8827"),
            ("fsd fa5, 16(s0)", "1ca8"),
            ("flw fa0, 8(sp)", "07258100"),
        ];
        let mut bad = Vec::new();
        for (line, bytes) in GAS {
            let ours = hex(&text_of(&format!("\t.text\n\t{line}\n")));
            if ours != *bytes {
                bad.push(format!("{line}: ours {ours}, gas {bytes}"));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// Branches to a label take gas's sizes: `c.beqz`/`c.bnez`/`c.j` when
    /// they reach, the 4-byte forms, and beyond 4 KiB the inverted branch
    /// over a `jal` (`c.bnez` for a `c.beqz`). Expected bytes from gas.
    #[test]
    fn calls_of_static_functions_in_reach_are_one_jal() {
        // Bytes from gas -mno-relax with the first call written `jal ra, f`.
        let src = "\t.text\nf:\n\tret\n\t.globl g\ng:\n\tret\n\t.weak w\nw:\n\tret\nmain:\n\tcall f\n\
                   \tcall g\n\tcall w\n\tcall f@plt\n\tcall ext\n";
        let t = text_of(src);
        let long = "97000000e7800000";
        assert_eq!(hex(&t), format!("828082808280eff0bfff{}", long.repeat(4)));
        // A static function beyond jal's reach (1 MiB) keeps the long call.
        let far = "\t.text\nf:\n\tret\n\t.zero 1100000\nmain:\n\tcall f\n";
        let t = text_of(far);
        assert_eq!(hex(&t[t.len() - 8..]), long);
    }

    #[test]
    fn branches_relax_as_gas() {
        let src = "\t.text\n.L1:\n\tnop\n\tbeqz s0, .L1\n\tbnez a0, .L1\n\tbeq a0, a1, .L1\n\tbgt a0, a1, .L1\n\
                   \tble a0, a1, .L1\n\tbgtu a0, a1, .L1\n\tbleu a0, a1, .L1\n\tbltz a0, .L1\n\tbgez a0, .L1\n\
                   \tblez a0, .L1\n\tbgtz a0, .L1\n\tj .L1\n\t.zero 3000\n\tj .L1\n\tbeqz s0, .L1\n\
                   \tbeq a0, a1, .L1\n\t.zero 5000\n\tbeqz s0, .L1\n\tbne a0, a1, .L1\n";
        let t = text_of(src);
        assert_eq!(t.len(), 8070);
        assert_eq!(
            hex(&t[..0x2c]),
            "01007ddc75fde30db5fee3cba5fee3d9a5fee3e7a5fee3f5a5fee34305fee35105fee35fa0fce34da0fcd9bf"
        );
        assert_eq!(hex(&t[0xbe4..0xbf0]), "6ff0cfc1630c04c0630ab5c0");
        assert_eq!(hex(&t[0xbf0 + 5000..]), "19e06fe06f886304b5006fe0ef87");
    }

    /// `lla`, `call`, `jump`, `la.tls.ie` and the GOT load: gas's bytes and
    /// relocations (`readelf -r` of gas's object), with the `%pcrel_lo`
    /// relocations naming a local symbol at their `auipc`.
    #[test]
    fn pc_relative_forms_match_gas_relocations() {
        let src = "\t.text\n\t.globl f\nf:\n\tlla t0, g+8\n.Lgot1:\n\tauipc a0, %got_pcrel_hi(ext)\n\
                   \tld a0, %pcrel_lo(.Lgot1)(a0)\n\tla.tls.ie t1, tv\n\tcall ext\n\tcall ext@plt\n\
                   \tjump ext2, t6\n\t.data\ng:\n\t.quad 0\n";
        let obj = assemble(src).unwrap();
        let file = ::object::File::parse(&*obj).unwrap();
        let text = file.section_by_name(".text").unwrap();
        assert_eq!(
            hex(text.data().unwrap()),
            "97020000938202001705000003350500170300000333030097000000e780000097000000e7800000970f000067800f00"
        );
        let relocs: Vec<String> = text
            .relocations()
            .map(|(off, r)| {
                let ::object::RelocationFlags::Elf { r_type } = r.flags() else {
                    unreachable!()
                };
                let ::object::RelocationTarget::Symbol(i) = r.target() else {
                    unreachable!()
                };
                let s = file.symbol_by_index(i).unwrap();
                let name = match s.kind() {
                    ::object::SymbolKind::Section => "section".to_string(),
                    _ => format!("{}@{:#x}", s.name().unwrap(), s.address()),
                };
                format!("{off:#x} {r_type} {name}{:+}", r.addend())
            })
            .collect();
        // gas: PCREL_HI20 (23) against `g` (a local: here its section), the
        // LO12_I (24) against `.L0 ` at 0; GOT_HI20 (20), LO12_I against
        // `.Lgot1`; TLS_GOT_HI20 (21), LO12_I against `.L0 ` at 0x10;
        // CALL_PLT (19).
        assert_eq!(
            relocs,
            [
                "0x0 23 section+8",
                "0x4 24 .L0 @0x0+0",
                "0x8 20 ext@0x0+0",
                "0xc 24 .Lgot1@0x8+0",
                "0x10 21 tv@0x0+0",
                "0x14 24 .L0 @0x10+0",
                "0x18 19 ext@0x0+0",
                "0x20 19 ext@0x0+0",
                "0x28 19 ext2@0x0+0",
            ]
        );
        let flags = match file.flags() {
            ::object::FileFlags::Elf { e_flags, .. } => e_flags.0,
            _ => 0,
        };
        assert_eq!(flags, 0x5, "RVC, double-float ABI");
    }
}
