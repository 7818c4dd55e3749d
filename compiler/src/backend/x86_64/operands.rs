//! AT&T operand syntax for the integrated assembler: general-purpose
//! registers at every width (`%rax %eax %ax %al %ah`, `%r8 .. %r15` with
//! `d w b`), SSE and x87 registers, immediates (`$N`), memory operands
//! `seg:disp(base,index,scale)` with RIP-relative symbols and their
//! relocation operators (`sym(%rip)`, `sym@GOTPCREL(%rip)`,
//! `sym@gottpoff(%rip)`), and branch targets (`label`, `sym@PLT`, `*%reg`).

use crate::backend::object::{parse_int, parse_symbol, FixupKind};

/// A general-purpose register operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct R {
    /// Encoding number 0..15.
    pub(super) n: u8,
    /// Width in bytes.
    pub(super) size: u8,
    /// `%ah %ch %dh %bh` (encoded as 4..7 without REX).
    pub(super) high: bool,
}

/// A memory operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct M {
    pub(super) seg: Option<u8>,
    /// `None` with `rip: false` is an absolute address.
    pub(super) base: Option<u8>,
    pub(super) rip: bool,
    pub(super) index: Option<u8>,
    pub(super) scale: u8,
    pub(super) disp: i64,
    /// A symbolic displacement (RIP-relative only) and its fixup kind.
    pub(super) sym: Option<(String, FixupKind)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Op {
    Imm(i64),
    Reg(R),
    Xmm(u8),
    St(u8),
    Mem(M),
    /// A branch or call target.
    Target(String, FixupKind),
    /// `*%reg` (indirect branch or call).
    Indirect(R),
}

pub(super) fn gpr(name: &str) -> Option<R> {
    let r = |n: u8, size: u8| Some(R { n, size, high: false });
    let b = name.as_bytes();
    // r8..r15 with an optional width letter.
    if b.len() >= 2 && b[0] == b'r' && b[1].is_ascii_digit() {
        let (digits, size) = match b[b.len() - 1] {
            b'd' => (&b[1..b.len() - 1], 4),
            b'w' => (&b[1..b.len() - 1], 2),
            b'b' => (&b[1..b.len() - 1], 1),
            _ => (&b[1..], 8),
        };
        let n = match digits {
            b"8" => 8,
            b"9" => 9,
            b"10" => 10,
            b"11" => 11,
            b"12" => 12,
            b"13" => 13,
            b"14" => 14,
            b"15" => 15,
            _ => return None,
        };
        return r(n, size);
    }
    match b {
        b"rax" => r(0, 8),
        b"rcx" => r(1, 8),
        b"rdx" => r(2, 8),
        b"rbx" => r(3, 8),
        b"rsp" => r(4, 8),
        b"rbp" => r(5, 8),
        b"rsi" => r(6, 8),
        b"rdi" => r(7, 8),
        b"eax" => r(0, 4),
        b"ecx" => r(1, 4),
        b"edx" => r(2, 4),
        b"ebx" => r(3, 4),
        b"esp" => r(4, 4),
        b"ebp" => r(5, 4),
        b"esi" => r(6, 4),
        b"edi" => r(7, 4),
        b"ax" => r(0, 2),
        b"cx" => r(1, 2),
        b"dx" => r(2, 2),
        b"bx" => r(3, 2),
        b"sp" => r(4, 2),
        b"bp" => r(5, 2),
        b"si" => r(6, 2),
        b"di" => r(7, 2),
        b"al" => r(0, 1),
        b"cl" => r(1, 1),
        b"dl" => r(2, 1),
        b"bl" => r(3, 1),
        b"spl" => r(4, 1),
        b"bpl" => r(5, 1),
        b"sil" => r(6, 1),
        b"dil" => r(7, 1),
        b"ah" | b"ch" | b"dh" | b"bh" => Some(R {
            n: match b[0] {
                b'a' => 4,
                b'c' => 5,
                b'd' => 6,
                _ => 7,
            },
            size: 1,
            high: true,
        }),
        _ => None,
    }
}

pub(super) fn parse_mem(s: &str) -> Result<M, String> {
    let bad = || format!("bad memory operand `{s}`");
    let (seg, s) = if let Some(r) = s.strip_prefix("%fs:") {
        (Some(0x64), r)
    } else if let Some(r) = s.strip_prefix("%gs:") {
        (Some(0x65), r)
    } else {
        (None, s)
    };
    let (disp_text, inner) = match s.find('(') {
        Some(i) => (&s[..i], Some(s[i + 1..].strip_suffix(')').ok_or_else(bad)?)),
        None => (s, None),
    };
    let mut m = M {
        seg,
        base: None,
        rip: false,
        index: None,
        scale: 1,
        disp: 0,
        sym: None,
    };
    let dt = disp_text.trim();
    if !dt.is_empty() {
        if let Some(v) = parse_int(dt) {
            m.disp = v;
        } else {
            let (sym, rest) = parse_symbol(dt).ok_or_else(bad)?;
            let (kind, rest) = if let Some(r) = rest.strip_prefix("@GOTPCREL") {
                (FixupKind::GotPcRel, r)
            } else if let Some(r) = rest.strip_prefix("@gottpoff") {
                (FixupKind::GotTpOff, r)
            } else {
                (FixupKind::PcRel, rest)
            };
            let rest = rest.trim();
            if !rest.is_empty() {
                m.disp = parse_int(rest).ok_or_else(bad)?;
            }
            m.sym = Some((sym, kind));
        }
    }
    if let Some(inner) = inner {
        let mut parts = inner.split(',').map(str::trim);
        let base = parts.next().unwrap_or("");
        if base == "%rip" {
            m.rip = true;
        } else if !base.is_empty() {
            let r = gpr(base.strip_prefix('%').ok_or_else(bad)?).ok_or_else(bad)?;
            if r.size != 8 {
                return Err(bad());
            }
            m.base = Some(r.n);
        }
        if let Some(ix) = parts.next() {
            let r = gpr(ix.strip_prefix('%').ok_or_else(bad)?).ok_or_else(bad)?;
            if r.size != 8 || r.n == 4 {
                return Err(bad());
            }
            m.index = Some(r.n);
            m.scale = match parts.next() {
                Some(sc) => parse_int(sc).ok_or_else(bad)? as u8,
                None => 1,
            };
            if !matches!(m.scale, 1 | 2 | 4 | 8) {
                return Err(bad());
            }
        }
    }
    if m.sym.is_some() && !m.rip {
        return Err(format!("symbolic displacement without %rip in `{s}`"));
    }
    Ok(m)
}

pub(super) fn parse_op(s: &str) -> Result<Op, String> {
    let s = s.trim();
    if let Some(imm) = s.strip_prefix('$') {
        return parse_int(imm)
            .map(Op::Imm)
            .ok_or_else(|| format!("bad immediate `{s}`"));
    }
    if let Some(r) = s.strip_prefix("*%") {
        return gpr(r).map(Op::Indirect).ok_or_else(|| format!("bad register `{s}`"));
    }
    if let Some(r) = s.strip_prefix('%') {
        if let Some(g) = gpr(r) {
            return Ok(Op::Reg(g));
        }
        if let Some(x) = r
            .strip_prefix("xmm")
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|&n| n < 16)
        {
            return Ok(Op::Xmm(x));
        }
        if r == "st" || r == "st(0)" {
            return Ok(Op::St(0));
        }
        if let Some(k) = r
            .strip_prefix("st(")
            .and_then(|n| n.strip_suffix(')'))
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|&n| n < 8)
        {
            return Ok(Op::St(k));
        }
        if !(r.starts_with("fs:") || r.starts_with("gs:")) {
            return Err(format!("unknown register `{s}`"));
        }
    }
    if s.contains('(') || s.starts_with("%fs:") || s.starts_with("%gs:") {
        return parse_mem(s).map(Op::Mem);
    }
    // A bare symbol: a branch target.
    let (sym, rest) = parse_symbol(s).ok_or_else(|| format!("bad operand `{s}`"))?;
    match rest.trim() {
        "" => Ok(Op::Target(sym, FixupKind::PcRel)),
        "@PLT" => Ok(Op::Target(sym, FixupKind::Plt)),
        _ => Err(format!("bad operand `{s}`")),
    }
}
