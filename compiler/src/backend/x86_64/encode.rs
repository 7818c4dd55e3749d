//! x86-64 instruction encoding for the integrated assembler: the AT&T forms
//! the x86-64 backend prints, encoded as the Intel SDM (vol. 2, chapter 2
//! "Instruction Format" and the opcode tables) specifies: legacy prefixes
//! (segment, `lock`, `rep`, operand size, the SSE mandatory prefix), REX,
//! opcode, ModRM/SIB with the shortest displacement (RIP-relative for
//! `sym(%rip)`), immediates in their shortest form, as GNU as chooses them
//! (`imm8` forms of the ALU group, the accumulator forms, `B8+r` moves).
//! Branches to labels always use 32-bit displacements.
//!
//! Anything else is an error (the driver then uses the external assembler):
//! this is not a general assembler, only the inverse of our own printer.

use super::operands::{parse_op, Op, M, R};
use crate::backend::object::{split_operands, FixupKind, InstEncoder, ObjectBuilder};
use crate::target::Target;

/// The x86-64 relocation types (psABI 4.4.1).
pub const R_X86_64_64: u32 = 1;
pub const R_X86_64_PC32: u32 = 2;
pub const R_X86_64_PLT32: u32 = 4;
pub const R_X86_64_GOTPCREL: u32 = 9;
pub const R_X86_64_32S: u32 = 11;
pub const R_X86_64_GOTTPOFF: u32 = 22;
pub const R_X86_64_PC64: u32 = 24;
pub const R_X86_64_REX_GOTPCRELX: u32 = 42;

/// The register or memory operand of a ModRM byte.
enum Rm<'a> {
    Reg(u8),
    Mem(&'a M),
}

/// One encoded instruction under construction.
struct Enc<'a> {
    obj: &'a mut ObjectBuilder,
}

impl Enc<'_> {
    /// Emits `prefixes`, REX (when `w`, any extended register, or `force_rex`),
    /// `opcode`, ModRM for `reg`/`rm`, the displacement, then `imm` of `imm_size` bytes.
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        prefixes: &[u8],
        w: bool,
        opcode: &[u8],
        reg: u8,
        rm: Rm,
        imm: i64,
        imm_size: u8,
        force_rex: bool,
    ) {
        let mut b = [0u8; 16];
        let mut n = 0;
        let mut push = |x: u8| {
            b[n] = x;
            n += 1;
        };
        if let Rm::Mem(m) = &rm {
            if let Some(s) = m.seg {
                push(s);
            }
        }
        for &p in prefixes {
            push(p);
        }
        let (x, bb) = match &rm {
            Rm::Reg(r) => (false, *r >= 8),
            Rm::Mem(m) => (m.index.is_some_and(|i| i >= 8), m.base.is_some_and(|b| b >= 8)),
        };
        let rex = 0x40 | (u8::from(w) << 3) | (u8::from(reg >= 8) << 2) | (u8::from(x) << 1) | u8::from(bb);
        if rex != 0x40 || force_rex {
            push(rex);
        }
        for &o in opcode {
            push(o);
        }
        let r3 = (reg & 7) << 3;
        let mut fixup = None;
        let mut disp: (i64, u8) = (0, 0);
        match rm {
            Rm::Reg(r) => push(0xc0 | r3 | (r & 7)),
            Rm::Mem(m) => {
                if m.rip {
                    push(r3 | 5);
                    match &m.sym {
                        Some((s, kind)) => fixup = Some((s, *kind, m.disp)),
                        None => disp = (m.disp, 4),
                    }
                } else if let Some(base) = m.base {
                    let need_sib = m.index.is_some() || base & 7 == 4;
                    let (md, dsize) = if m.disp == 0 && base & 7 != 5 {
                        (0u8, 0)
                    } else if i8::try_from(m.disp).is_ok() {
                        (1, 1)
                    } else {
                        (2, 4)
                    };
                    if need_sib {
                        push((md << 6) | r3 | 4);
                        let idx = m.index.map_or(4, |i| i & 7);
                        let ss = m.scale.trailing_zeros() as u8;
                        push((ss << 6) | (idx << 3) | (base & 7));
                    } else {
                        push((md << 6) | r3 | (base & 7));
                    }
                    disp = (m.disp, dsize);
                } else {
                    // Absolute: SIB with no base and no index, disp32.
                    push(r3 | 4);
                    let idx = m.index.map_or(4, |i| i & 7);
                    let ss = m.scale.trailing_zeros() as u8;
                    push((ss << 6) | (idx << 3) | 5);
                    disp = (m.disp, 4);
                }
            }
        }
        for k in 0..disp.1 as usize {
            push((disp.0 >> (8 * k)) as u8);
        }
        self.obj.emit(&b[..n]);
        if let Some((sym, kind, d)) = fixup {
            self.obj.emit_fixup(4, kind, sym, None, d - 4 - imm_size as i64);
        }
        if imm_size > 0 {
            self.obj.emit(&imm.to_le_bytes()[..imm_size as usize]);
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.obj.emit(bytes);
    }
}

/// Operand-size prefix and REX.W for an integer operation of `size` bytes.
fn size_prefix(size: u8) -> (&'static [u8], bool) {
    match size {
        2 => (&[0x66], false),
        8 => (&[], true),
        _ => (&[], false),
    }
}

/// A byte register that needs a REX prefix to be addressed (`%sil` ...).
fn byte_rex(r: R) -> bool {
    r.size == 1 && !r.high && (4..8).contains(&r.n)
}

/// The size suffix of an AT&T mnemonic.
fn suffix_size(c: char) -> Option<u8> {
    match c {
        'b' => Some(1),
        'w' => Some(2),
        'l' => Some(4),
        'q' => Some(8),
        _ => None,
    }
}

/// Condition code numbers (the low nibble of `Jcc`/`SETcc`/`CMOVcc`).
fn cond(cc: &str) -> Option<u8> {
    Some(match cc.as_bytes() {
        b"o" => 0,
        b"no" => 1,
        b"b" | b"c" | b"nae" => 2,
        b"ae" | b"nb" | b"nc" => 3,
        b"e" | b"z" => 4,
        b"ne" | b"nz" => 5,
        b"be" | b"na" => 6,
        b"a" | b"nbe" => 7,
        b"s" => 8,
        b"ns" => 9,
        b"p" | b"pe" => 10,
        b"np" | b"po" => 11,
        b"l" | b"nge" => 12,
        b"ge" | b"nl" => 13,
        b"le" | b"ng" => 14,
        b"g" | b"nle" => 15,
        _ => return None,
    })
}

/// The x86-64 encoder.
#[derive(Default)]
pub struct X86Encoder {
    /// Operand buffer reused across instructions.
    scratch: Vec<Op>,
}

fn rm_of(op: &Op) -> Option<Rm<'_>> {
    match op {
        Op::Reg(r) => Some(Rm::Reg(r.n)),
        Op::Mem(m) => Some(Rm::Mem(m)),
        _ => None,
    }
}

fn need_rex(ops: &[&Op]) -> bool {
    ops.iter().any(|o| matches!(o, Op::Reg(r) if byte_rex(*r)))
}

fn fits_i8(v: i64) -> bool {
    i8::try_from(v).is_ok()
}

impl X86Encoder {
    /// add/or/adc/sbb/and/sub/xor/cmp (`n` is the /digit and opcode row).
    fn alu(e: &mut Enc, n: u8, size: u8, src: &Op, dst: &Op) -> Result<(), String> {
        let (p, w) = size_prefix(size);
        let rex = need_rex(&[src, dst]);
        match (src, dst) {
            (Op::Imm(v), d) => {
                let v = *v;
                let acc = matches!(d, Op::Reg(r) if r.n == 0 && !r.high);
                if size == 1 {
                    if acc {
                        e.raw(&[n * 8 + 4, v as u8]);
                    } else {
                        e.emit(p, w, &[0x80], n, rm_of(d).ok_or("bad operand")?, v, 1, rex);
                    }
                } else if fits_i8(v) {
                    e.emit(p, w, &[0x83], n, rm_of(d).ok_or("bad operand")?, v, 1, rex);
                } else if acc {
                    let mut b = p.to_vec();
                    if w {
                        b.push(0x48);
                    }
                    b.push(n * 8 + 5);
                    b.extend_from_slice(&v.to_le_bytes()[..if size == 2 { 2 } else { 4 }]);
                    e.raw(&b);
                } else {
                    let isz = if size == 2 { 2 } else { 4 };
                    e.emit(p, w, &[0x81], n, rm_of(d).ok_or("bad operand")?, v, isz, rex);
                }
            }
            (Op::Reg(s), d) => {
                let op = n * 8 + if size == 1 { 0 } else { 1 };
                e.emit(p, w, &[op], s.n, rm_of(d).ok_or("bad operand")?, 0, 0, rex);
            }
            (Op::Mem(m), Op::Reg(d)) => {
                let op = n * 8 + if size == 1 { 2 } else { 3 };
                e.emit(p, w, &[op], d.n, Rm::Mem(m), 0, 0, rex);
            }
            _ => return Err("bad operands".into()),
        }
        Ok(())
    }

    fn mov(e: &mut Enc, size: u8, src: &Op, dst: &Op) -> Result<(), String> {
        let (p, w) = size_prefix(size);
        let rex = need_rex(&[src, dst]);
        match (src, dst) {
            (Op::Imm(v), Op::Reg(r)) if size != 8 => {
                let mut b = p.to_vec();
                if r.n >= 8 || byte_rex(*r) {
                    b.push(0x40 | u8::from(r.n >= 8));
                }
                if size == 1 {
                    b.push(0xb0 + (r.n & 7));
                    b.push(*v as u8);
                } else {
                    b.push(0xb8 + (r.n & 7));
                    b.extend_from_slice(&v.to_le_bytes()[..size as usize]);
                }
                e.raw(&b);
            }
            (Op::Imm(v), d) => {
                if size == 8 && i32::try_from(*v).is_err() {
                    return Err("immediate does not fit 32 bits".into());
                }
                let (op, isz) = if size == 1 { (0xc6, 1) } else { (0xc7, size.min(4)) };
                e.emit(p, w, &[op], 0, rm_of(d).ok_or("bad operand")?, *v, isz, rex);
            }
            (Op::Reg(s), d) => {
                let op = if size == 1 { 0x88 } else { 0x89 };
                e.emit(p, w, &[op], s.n, rm_of(d).ok_or("bad operand")?, 0, 0, rex);
            }
            (Op::Mem(m), Op::Reg(d)) => {
                let op = if size == 1 { 0x8a } else { 0x8b };
                e.emit(p, w, &[op], d.n, Rm::Mem(m), 0, 0, rex);
            }
            _ => return Err("bad operands".into()),
        }
        Ok(())
    }

    /// One-operand group 3 (`F6`/`F7 /n`): not, neg, mul, div, idiv.
    fn group3(e: &mut Enc, n: u8, size: u8, op: &Op) -> Result<(), String> {
        let (p, w) = size_prefix(size);
        let opc = if size == 1 { 0xf6 } else { 0xf7 };
        e.emit(p, w, &[opc], n, rm_of(op).ok_or("bad operand")?, 0, 0, need_rex(&[op]));
        Ok(())
    }

    /// Shifts and rotates (`C0/C1 /n ib`, `D0/D1 /n`, `D2/D3 /n`).
    fn shift(e: &mut Enc, n: u8, size: u8, ops: &[Op]) -> Result<(), String> {
        let (p, w) = size_prefix(size);
        let byte = size == 1;
        let (count, dst) = match ops {
            [d] => (None, d),
            [c, d] => (Some(c), d),
            _ => return Err("bad operands".into()),
        };
        let rm = rm_of(dst).ok_or("bad operand")?;
        let rex = need_rex(&[dst]);
        match count {
            None | Some(Op::Imm(1)) => e.emit(p, w, &[if byte { 0xd0 } else { 0xd1 }], n, rm, 0, 0, rex),
            Some(Op::Imm(v)) => e.emit(p, w, &[if byte { 0xc0 } else { 0xc1 }], n, rm, *v, 1, rex),
            Some(Op::Reg(R { n: 1, size: 1, .. })) => e.emit(p, w, &[if byte { 0xd2 } else { 0xd3 }], n, rm, 0, 0, rex),
            _ => return Err("bad shift count".into()),
        }
        Ok(())
    }

    /// `movs`/`movz` extensions: `0F BE/BF/B6/B7`, `63` for `movslq`.
    fn extend(e: &mut Enc, mnemonic: &str, src: &Op, dst: &Op) -> Result<(), String> {
        let (opcode, dst_size): (&[u8], u8) = match mnemonic.as_bytes() {
            b"movsbq" => (&[0x0f, 0xbe], 8),
            b"movsbl" => (&[0x0f, 0xbe], 4),
            b"movsbw" => (&[0x0f, 0xbe], 2),
            b"movswq" => (&[0x0f, 0xbf], 8),
            b"movswl" => (&[0x0f, 0xbf], 4),
            b"movzbq" => (&[0x0f, 0xb6], 8),
            b"movzbl" => (&[0x0f, 0xb6], 4),
            b"movzbw" => (&[0x0f, 0xb6], 2),
            b"movzwq" => (&[0x0f, 0xb7], 8),
            b"movzwl" => (&[0x0f, 0xb7], 4),
            b"movslq" => (&[0x63], 8),
            _ => return Err("unknown extension".into()),
        };
        let Op::Reg(d) = dst else {
            return Err("bad destination".into());
        };
        let (p, w) = size_prefix(dst_size);
        e.emit(
            p,
            w,
            opcode,
            d.n,
            rm_of(src).ok_or("bad operand")?,
            0,
            0,
            need_rex(&[src]),
        );
        Ok(())
    }

    /// An SSE instruction `prefix 0F op /r` with `reg` (the ModRM reg field) and `rm`.
    fn sse(e: &mut Enc, prefix: Option<u8>, w: bool, op: u8, reg: u8, rm: Rm) {
        let p: Vec<u8> = prefix.into_iter().collect();
        e.emit(&p, w, &[0x0f, op], reg, rm, 0, 0, false);
    }

    fn xmm_or_mem<'o>(op: &'o Op) -> Option<Rm<'o>> {
        match op {
            Op::Xmm(x) => Some(Rm::Reg(*x)),
            Op::Mem(m) => Some(Rm::Mem(m)),
            _ => None,
        }
    }

    fn branch(e: &mut Enc, opcode: &[u8], target: &Op) -> Result<(), String> {
        match target {
            Op::Target(sym, kind) => {
                e.raw(opcode);
                e.obj.emit_fixup(4, *kind, sym, None, -4);
                Ok(())
            }
            _ => Err("bad branch target".into()),
        }
    }

    fn encode_ops(&mut self, mnemonic: &str, ops: &[Op], obj: &mut ObjectBuilder) -> Result<(), String> {
        let mut e = Enc { obj };
        let e = &mut e;
        let two = || -> Result<(&Op, &Op), String> {
            match ops {
                [a, b] => Ok((a, b)),
                _ => Err("expected two operands".into()),
            }
        };
        let one = || -> Result<&Op, String> {
            match ops {
                [a] => Ok(a),
                _ => Err("expected one operand".into()),
            }
        };
        match mnemonic.as_bytes() {
            b"ret" => e.raw(&[0xc3]),
            b"leave" => e.raw(&[0xc9]),
            b"ud2" => e.raw(&[0x0f, 0x0b]),
            b"cltd" => e.raw(&[0x99]),
            b"cqto" => e.raw(&[0x48, 0x99]),
            b"cltq" => e.raw(&[0x48, 0x98]),
            b"mfence" => e.raw(&[0x0f, 0xae, 0xf0]),
            b"lfence" => e.raw(&[0x0f, 0xae, 0xe8]),
            b"sfence" => e.raw(&[0x0f, 0xae, 0xf8]),
            b"pause" => e.raw(&[0xf3, 0x90]),
            b"nop" => e.raw(&[0x90]),
            b"rep movsb" => e.raw(&[0xf3, 0xa4]),
            b"rep stosq" => e.raw(&[0xf3, 0x48, 0xab]),
            b"rep stosb" => e.raw(&[0xf3, 0xaa]),
            b"pushq" | b"popq" => {
                let Op::Reg(r) = one()? else {
                    return Err("bad operand".into());
                };
                let base = if mnemonic == "pushq" { 0x50 } else { 0x58 };
                if r.n >= 8 {
                    e.raw(&[0x41, base + (r.n & 7)]);
                } else {
                    e.raw(&[base + r.n]);
                }
            }
            b"jmp" => match one()? {
                Op::Indirect(r) => e.emit(&[], false, &[0xff], 4, Rm::Reg(r.n), 0, 0, false),
                t => Self::branch(e, &[0xe9], t)?,
            },
            b"call" => match one()? {
                Op::Indirect(r) => e.emit(&[], false, &[0xff], 2, Rm::Reg(r.n), 0, 0, false),
                Op::Target(sym, _) => {
                    e.raw(&[0xe8]);
                    e.obj.emit_fixup(4, FixupKind::Plt, sym, None, -4);
                }
                _ => return Err("bad call target".into()),
            },
            b"movabsq" => {
                let (Op::Imm(v), Op::Reg(r)) = two()? else {
                    return Err("bad operands".into());
                };
                let mut b = vec![0x48 | u8::from(r.n >= 8), 0xb8 + (r.n & 7)];
                b.extend_from_slice(&v.to_le_bytes());
                e.raw(&b);
            }
            b"leaq" | b"leal" => {
                let (Op::Mem(m), Op::Reg(r)) = two()? else {
                    return Err("bad operands".into());
                };
                e.emit(&[], mnemonic == "leaq", &[0x8d], r.n, Rm::Mem(m), 0, 0, false);
            }
            b"movsbq" | b"movsbl" | b"movsbw" | b"movswq" | b"movswl" | b"movzbq" | b"movzbl" | b"movzbw"
            | b"movzwq" | b"movzwl" | b"movslq" => {
                let (s, d) = two()?;
                Self::extend(e, mnemonic, s, d)?;
            }
            b"movss" | b"movsd" => {
                let (s, d) = two()?;
                let pre = if mnemonic == "movss" { 0xf3 } else { 0xf2 };
                match (s, d) {
                    (Op::Xmm(x), dst) => Self::sse(
                        e,
                        Some(pre),
                        false,
                        0x11,
                        *x,
                        Self::xmm_or_mem(dst).ok_or("bad operand")?,
                    ),
                    (src, Op::Xmm(x)) => Self::sse(
                        e,
                        Some(pre),
                        false,
                        0x10,
                        *x,
                        Self::xmm_or_mem(src).ok_or("bad operand")?,
                    ),
                    _ => return Err("bad operands".into()),
                }
            }
            b"movd" | b"movq" if ops.iter().any(|o| matches!(o, Op::Xmm(_))) => {
                let (s, d) = two()?;
                let w = mnemonic == "movq";
                match (s, d) {
                    (Op::Reg(r), Op::Xmm(x)) => Self::sse(e, Some(0x66), w, 0x6e, *x, Rm::Reg(r.n)),
                    (Op::Xmm(x), Op::Reg(r)) => Self::sse(e, Some(0x66), w, 0x7e, *x, Rm::Reg(r.n)),
                    (Op::Mem(m), Op::Xmm(x)) if w => Self::sse(e, Some(0xf3), false, 0x7e, *x, Rm::Mem(m)),
                    (Op::Xmm(x), Op::Mem(m)) if w => Self::sse(e, Some(0x66), false, 0xd6, *x, Rm::Mem(m)),
                    _ => return Err("bad operands".into()),
                }
            }
            b"movaps" => {
                let (s, d) = two()?;
                match (s, d) {
                    (Op::Xmm(x), dst) => {
                        Self::sse(e, None, false, 0x29, *x, Self::xmm_or_mem(dst).ok_or("bad operand")?)
                    }
                    (src, Op::Xmm(x)) => {
                        Self::sse(e, None, false, 0x28, *x, Self::xmm_or_mem(src).ok_or("bad operand")?)
                    }
                    _ => return Err("bad operands".into()),
                }
            }
            b"xorps" | b"unpcklps" | b"ucomiss" | b"ucomisd" | b"addss" | b"addsd" | b"subss" | b"subsd" | b"mulss"
            | b"mulsd" | b"divss" | b"divsd" | b"sqrtss" | b"sqrtsd" | b"cvtss2sd" | b"cvtsd2ss" | b"andps"
            | b"andpd" | b"xorpd" => {
                let (s, d) = two()?;
                let Op::Xmm(x) = d else {
                    return Err("bad destination".into());
                };
                let (pre, op) = match mnemonic.as_bytes() {
                    b"xorps" => (None, 0x57),
                    b"xorpd" => (Some(0x66), 0x57),
                    b"andps" => (None, 0x54),
                    b"andpd" => (Some(0x66), 0x54),
                    b"unpcklps" => (None, 0x14),
                    b"ucomiss" => (None, 0x2e),
                    b"ucomisd" => (Some(0x66), 0x2e),
                    b"addss" => (Some(0xf3), 0x58),
                    b"addsd" => (Some(0xf2), 0x58),
                    b"subss" => (Some(0xf3), 0x5c),
                    b"subsd" => (Some(0xf2), 0x5c),
                    b"mulss" => (Some(0xf3), 0x59),
                    b"mulsd" => (Some(0xf2), 0x59),
                    b"divss" => (Some(0xf3), 0x5e),
                    b"divsd" => (Some(0xf2), 0x5e),
                    b"sqrtss" => (Some(0xf3), 0x51),
                    b"sqrtsd" => (Some(0xf2), 0x51),
                    b"cvtss2sd" => (Some(0xf3), 0x5a),
                    _ => (Some(0xf2), 0x5a),
                };
                Self::sse(e, pre, false, op, *x, Self::xmm_or_mem(s).ok_or("bad operand")?);
            }
            b"cvtsi2sdq" | b"cvtsi2ssq" | b"cvtsi2sdl" | b"cvtsi2ssl" => {
                let (s, d) = two()?;
                let Op::Xmm(x) = d else {
                    return Err("bad destination".into());
                };
                let pre = if mnemonic.starts_with("cvtsi2sd") { 0xf2 } else { 0xf3 };
                Self::sse(
                    e,
                    Some(pre),
                    mnemonic.ends_with('q'),
                    0x2a,
                    *x,
                    rm_of(s).ok_or("bad operand")?,
                );
            }
            b"cvttsd2si" | b"cvttss2si" => {
                let (s, d) = two()?;
                let Op::Reg(r) = d else {
                    return Err("bad destination".into());
                };
                let pre = if mnemonic == "cvttsd2si" { 0xf2 } else { 0xf3 };
                Self::sse(
                    e,
                    Some(pre),
                    r.size == 8,
                    0x2c,
                    r.n,
                    Self::xmm_or_mem(s).ok_or("bad operand")?,
                );
            }
            b"imulq" | b"imull" | b"imulw" => {
                let size = suffix_size(mnemonic.chars().last().unwrap_or('q')).unwrap_or(8);
                let (p, w) = size_prefix(size);
                match ops {
                    [Op::Imm(v), src, Op::Reg(d)] => {
                        let rm = rm_of(src).ok_or("bad operand")?;
                        if fits_i8(*v) {
                            e.emit(p, w, &[0x6b], d.n, rm, *v, 1, false);
                        } else {
                            e.emit(p, w, &[0x69], d.n, rm, *v, if size == 2 { 2 } else { 4 }, false);
                        }
                    }
                    [src, Op::Reg(d)] => {
                        e.emit(p, w, &[0x0f, 0xaf], d.n, rm_of(src).ok_or("bad operand")?, 0, 0, false)
                    }
                    [src] => Self::group3(e, 5, size, src)?,
                    _ => return Err("bad operands".into()),
                }
            }
            b"shldq" | b"shrdq" | b"shldl" | b"shrdl" => {
                let [Op::Reg(R { n: 1, size: 1, .. }), Op::Reg(s), d] = ops else {
                    return Err("bad operands".into());
                };
                let op = if mnemonic.starts_with("shld") { 0xa5 } else { 0xad };
                e.emit(
                    &[],
                    mnemonic.ends_with('q'),
                    &[0x0f, op],
                    s.n,
                    rm_of(d).ok_or("bad operand")?,
                    0,
                    0,
                    false,
                );
            }
            b"bswapl" | b"bswapq" => {
                let Op::Reg(r) = one()? else {
                    return Err("bad operand".into());
                };
                let w = mnemonic == "bswapq";
                let rex = 0x40 | (u8::from(w) << 3) | u8::from(r.n >= 8);
                let mut b = Vec::new();
                if rex != 0x40 {
                    b.push(rex);
                }
                b.extend_from_slice(&[0x0f, 0xc8 + (r.n & 7)]);
                e.raw(&b);
            }
            b"bsrq" | b"bsfq" | b"bsrl" | b"bsfl" => {
                let (s, Op::Reg(d)) = two()? else {
                    return Err("bad operands".into());
                };
                let op = if mnemonic.starts_with("bsr") { 0xbd } else { 0xbc };
                e.emit(
                    &[],
                    mnemonic.ends_with('q'),
                    &[0x0f, op],
                    d.n,
                    rm_of(s).ok_or("bad operand")?,
                    0,
                    0,
                    false,
                );
            }
            b"btcq" | b"btrq" | b"btsq" | b"btq" => {
                let (Op::Imm(v), d) = two()? else {
                    return Err("bad operands".into());
                };
                let n = match mnemonic.as_bytes() {
                    b"btq" => 4,
                    b"btsq" => 5,
                    b"btrq" => 6,
                    _ => 7,
                };
                e.emit(
                    &[],
                    true,
                    &[0x0f, 0xba],
                    n,
                    rm_of(d).ok_or("bad operand")?,
                    *v,
                    1,
                    false,
                );
            }
            b"clflush" => {
                let Op::Mem(m) = one()? else {
                    return Err("bad operand".into());
                };
                e.emit(&[], false, &[0x0f, 0xae], 7, Rm::Mem(m), 0, 0, false);
            }
            b"fldt" | b"fstpt" | b"flds" | b"fldl" | b"fstps" | b"fstpl" | b"fildll" | b"fistpll" | b"fadds"
            | b"fsubs" | b"fnstcw" | b"fldcw" => {
                let Op::Mem(m) = one()? else {
                    return Err("bad operand".into());
                };
                let (op, n) = match mnemonic.as_bytes() {
                    b"fldt" => (0xdb, 5),
                    b"fstpt" => (0xdb, 7),
                    b"flds" => (0xd9, 0),
                    b"fldl" => (0xdd, 0),
                    b"fstps" => (0xd9, 3),
                    b"fstpl" => (0xdd, 3),
                    b"fildll" => (0xdf, 5),
                    b"fistpll" => (0xdf, 7),
                    b"fadds" => (0xd8, 0),
                    b"fsubs" => (0xd8, 4),
                    b"fnstcw" => (0xd9, 7),
                    _ => (0xd9, 5),
                };
                e.emit(&[], false, &[op], n, Rm::Mem(m), 0, 0, false);
            }
            b"fadd" | b"fsub" | b"fmul" | b"fdiv" => {
                let [Op::St(i), Op::St(0)] = ops else {
                    return Err("bad operands".into());
                };
                let base = match mnemonic.as_bytes() {
                    b"fadd" => 0xc0,
                    b"fmul" => 0xc8,
                    b"fsub" => 0xe0,
                    _ => 0xf0,
                };
                e.raw(&[0xd8, base + i]);
            }
            b"fucomip" => {
                let [Op::St(i), Op::St(0)] = ops else {
                    return Err("bad operands".into());
                };
                e.raw(&[0xdf, 0xe8 + i]);
            }
            b"fstp" => {
                let Op::St(i) = one()? else {
                    return Err("bad operand".into());
                };
                e.raw(&[0xdd, 0xd8 + i]);
            }
            b"fldz" => e.raw(&[0xd9, 0xee]),
            b"fchs" => e.raw(&[0xd9, 0xe0]),
            b"fprem" => e.raw(&[0xd9, 0xf8]),
            b"fnstsw" => {
                let Op::Reg(R { n: 0, size: 2, .. }) = one()? else {
                    return Err("bad operand".into());
                };
                e.raw(&[0xdf, 0xe0]);
            }
            _ => return self.encode_sized(mnemonic, ops, e),
        }
        Ok(())
    }

    /// Mnemonics made of a base and a size suffix, and the condition-code families.
    fn encode_sized(&mut self, mnemonic: &str, ops: &[Op], e: &mut Enc) -> Result<(), String> {
        let unknown = || format!("unsupported instruction `{mnemonic}`");
        if let Some(cc) = mnemonic.strip_prefix('j').and_then(cond) {
            let [t] = ops else { return Err("bad operands".into()) };
            return Self::branch(e, &[0x0f, 0x80 + cc], t);
        }
        if let Some(cc) = mnemonic.strip_prefix("set").and_then(cond) {
            let [d] = ops else { return Err("bad operands".into()) };
            e.emit(
                &[],
                false,
                &[0x0f, 0x90 + cc],
                0,
                rm_of(d).ok_or("bad operand")?,
                0,
                0,
                need_rex(&[d]),
            );
            return Ok(());
        }
        if let Some(rest) = mnemonic.strip_prefix("cmov") {
            let (cc, size) = rest.split_at(rest.len() - 1);
            let (c, size) = (
                cond(cc).ok_or_else(unknown)?,
                suffix_size(size.chars().next().unwrap_or(' ')).ok_or_else(unknown)?,
            );
            let [s, Op::Reg(d)] = ops else {
                return Err("bad operands".into());
            };
            let (p, w) = size_prefix(size);
            e.emit(
                p,
                w,
                &[0x0f, 0x40 + c],
                d.n,
                rm_of(s).ok_or("bad operand")?,
                0,
                0,
                false,
            );
            return Ok(());
        }
        let (lock, body) = match mnemonic.strip_prefix("lock ") {
            Some(b) => (true, b),
            None => (false, mnemonic),
        };
        let size = suffix_size(body.chars().last().ok_or_else(unknown)?).ok_or_else(unknown)?;
        let base = &body[..body.len() - 1];
        if lock {
            e.raw(&[0xf0]);
        }
        let two = || -> Result<(&Op, &Op), String> {
            match ops {
                [a, b] => Ok((a, b)),
                _ => Err("expected two operands".into()),
            }
        };
        let (p, w) = size_prefix(size);
        let byte = size == 1;
        match base.as_bytes() {
            b"mov" => {
                let (s, d) = two()?;
                Self::mov(e, size, s, d)?;
            }
            b"add" | b"or" | b"adc" | b"sbb" | b"and" | b"sub" | b"xor" | b"cmp" => {
                let n = ["add", "or", "adc", "sbb", "and", "sub", "xor", "cmp"]
                    .iter()
                    .position(|x| *x == base)
                    .unwrap_or(0) as u8;
                let (s, d) = two()?;
                Self::alu(e, n, size, s, d)?;
            }
            b"test" => {
                let (s, d) = two()?;
                let rex = need_rex(&[s, d]);
                match (s, d) {
                    (Op::Imm(v), Op::Reg(r)) if r.n == 0 && !r.high => {
                        let mut b = p.to_vec();
                        if w {
                            b.push(0x48);
                        }
                        b.push(if byte { 0xa8 } else { 0xa9 });
                        b.extend_from_slice(&v.to_le_bytes()[..size.min(4) as usize]);
                        e.raw(&b);
                    }
                    (Op::Imm(v), d) => e.emit(
                        p,
                        w,
                        &[if byte { 0xf6 } else { 0xf7 }],
                        0,
                        rm_of(d).ok_or("bad operand")?,
                        *v,
                        size.min(4),
                        rex,
                    ),
                    (Op::Reg(r), d) => e.emit(
                        p,
                        w,
                        &[if byte { 0x84 } else { 0x85 }],
                        r.n,
                        rm_of(d).ok_or("bad operand")?,
                        0,
                        0,
                        rex,
                    ),
                    _ => return Err("bad operands".into()),
                }
            }
            b"not" | b"neg" | b"mul" | b"div" | b"idiv" => {
                let n = match base.as_bytes() {
                    b"not" => 2,
                    b"neg" => 3,
                    b"mul" => 4,
                    b"div" => 6,
                    _ => 7,
                };
                let [o] = ops else { return Err("bad operands".into()) };
                Self::group3(e, n, size, o)?;
            }
            b"shl" | b"sal" | b"shr" | b"sar" | b"rol" | b"ror" => {
                let n = match base.as_bytes() {
                    b"rol" => 0,
                    b"ror" => 1,
                    b"shl" | b"sal" => 4,
                    b"shr" => 5,
                    _ => 7,
                };
                Self::shift(e, n, size, ops)?;
            }
            b"xchg" => {
                let (s, d) = two()?;
                let Op::Reg(r) = s else {
                    return Err("bad operands".into());
                };
                e.emit(
                    p,
                    w,
                    &[if byte { 0x86 } else { 0x87 }],
                    r.n,
                    rm_of(d).ok_or("bad operand")?,
                    0,
                    0,
                    need_rex(&[s, d]),
                );
            }
            b"xadd" | b"cmpxchg" => {
                let (s, d) = two()?;
                let Op::Reg(r) = s else {
                    return Err("bad operands".into());
                };
                let op = match (base, byte) {
                    ("xadd", true) => 0xc0,
                    ("xadd", false) => 0xc1,
                    (_, true) => 0xb0,
                    _ => 0xb1,
                };
                e.emit(
                    p,
                    w,
                    &[0x0f, op],
                    r.n,
                    rm_of(d).ok_or("bad operand")?,
                    0,
                    0,
                    need_rex(&[s, d]),
                );
            }
            _ => return Err(unknown()),
        }
        Ok(())
    }
}

impl InstEncoder for X86Encoder {
    fn target(&self) -> Target {
        Target::X86_64
    }

    fn encode(&mut self, mnemonic: &str, operands: &str, obj: &mut ObjectBuilder) -> Result<(), String> {
        let mut ops = std::mem::take(&mut self.scratch);
        ops.clear();
        let r = (|| {
            if !operands.is_empty() {
                if operands.contains('"') {
                    for o in split_operands(operands) {
                        ops.push(parse_op(o)?);
                    }
                } else {
                    // Commas inside parentheses belong to a memory operand.
                    let (mut depth, mut start) = (0, 0);
                    for (i, c) in operands.bytes().enumerate() {
                        match c {
                            b'(' => depth += 1,
                            b')' => depth -= 1,
                            b',' if depth == 0 => {
                                ops.push(parse_op(&operands[start..i])?);
                                start = i + 1;
                            }
                            _ => {}
                        }
                    }
                    ops.push(parse_op(&operands[start..])?);
                }
            }
            self.encode_ops(mnemonic, &ops, obj)
        })();
        self.scratch = ops;
        r
    }

    fn reloc_type(&self, kind: FixupKind, size: u8, instruction: bool) -> Result<u32, String> {
        Ok(match (kind, size) {
            (FixupKind::Abs, 8) => R_X86_64_64,
            (FixupKind::Abs, 4) => R_X86_64_32S,
            (FixupKind::PcRel, 4) => R_X86_64_PC32,
            (FixupKind::PcRel, 8) => R_X86_64_PC64,
            (FixupKind::Plt, 4) => R_X86_64_PLT32,
            (FixupKind::GotPcRel, 4) if instruction => R_X86_64_REX_GOTPCRELX,
            (FixupKind::GotPcRel, 4) => R_X86_64_GOTPCREL,
            (FixupKind::GotTpOff, 4) => R_X86_64_GOTTPOFF,
            _ => return Err(format!("no relocation for a {size}-byte {kind:?} field")),
        })
    }

    /// Nothing carries over between instructions (the operand buffer is
    /// scratch), and a branch or RIP-relative symbol is always a fixup.
    fn memoizable(&self) -> bool {
        true
    }

    fn code_padding(&self, n: usize) -> Vec<u8> {
        // The recommended multi-byte NOPs (SDM vol. 2B, NOP), longest first.
        const NOPS: [&[u8]; 9] = [
            &[0x90],
            &[0x66, 0x90],
            &[0x0f, 0x1f, 0x00],
            &[0x0f, 0x1f, 0x40, 0x00],
            &[0x0f, 0x1f, 0x44, 0x00, 0x00],
            &[0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00],
            &[0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00],
            &[0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
            &[0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
        ];
        let mut out = Vec::with_capacity(n);
        let mut left = n;
        while left > 0 {
            let k = left.min(9);
            out.extend_from_slice(NOPS[k - 1]);
            left -= k;
        }
        out
    }
}

/// Assembles x86-64 text printed by our backend into an ELF object.
pub fn assemble(text: &str) -> Result<Vec<u8>, String> {
    ObjectBuilder::assemble(text, &mut X86Encoder::default())
}
