//! The printf format engine of the libc shim, byte-for-byte compatible with
//! glibc for the conversions C programs print with: `d i u o x X c s p n %`
//! and `f F e E g G a A`, with the flags `- + space # 0`, field width and
//! precision (literal or `*`), and the length modifiers `hh h l ll q L j z t`.
//!
//! Floats are formatted with Rust's exact decimal conversion, which rounds
//! ties to even on the exact binary value as glibc does in the default
//! rounding mode; `%g` follows C11 7.21.6.1p8 (choose `%e` or `%f` by the
//! exponent after rounding, then strip trailing zeros unless `#`).
//! Arguments come either from a call's operands or from a `va_list` cursor.

use super::exec::{Machine, Res};
use super::TrapKind;
use crate::ir::constants::{sext, zext};
use crate::ir::types::IrType;

/// Where the variadic arguments of a format come from.
pub(super) enum ArgSrc<'a> {
    Direct {
        vals: &'a [u128],
        types: &'a [IrType],
        next: usize,
    },
    Va {
        cursor: u64,
    },
}

#[derive(Clone, Copy, PartialEq)]
enum Want {
    Int,
    Float,
    LongDouble,
}

#[derive(Default, Clone, Copy)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
    /// Integer width in bits given by the length modifier.
    bits: u32,
    long_double: bool,
}

fn unsupported(what: &str) -> super::exec::Stop {
    TrapKind::Unsupported(what.to_string()).into()
}

/// Append `body` with `prefix` (sign, `0x`) to `out`, padded to the width.
fn pad(out: &mut Vec<u8>, s: &Spec, prefix: &[u8], body: &[u8], zero_ok: bool) {
    let len = prefix.len() + body.len();
    let fill = s.width.saturating_sub(len);
    if s.left {
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else if s.zero && zero_ok {
        out.extend_from_slice(prefix);
        out.extend(std::iter::repeat_n(b'0', fill));
        out.extend_from_slice(body);
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

fn format_int(out: &mut Vec<u8>, s: &Spec, conv: u8, raw: u128) {
    let signed = matches!(conv, b'd' | b'i');
    let (neg, mag) = if signed {
        let v = sext(raw, s.bits);
        (v < 0, v.unsigned_abs())
    } else {
        (false, zext(raw, s.bits))
    };
    let mut digits = match conv {
        b'o' => format!("{mag:o}"),
        b'x' => format!("{mag:x}"),
        b'X' => format!("{mag:X}"),
        _ => mag.to_string(),
    }
    .into_bytes();
    if s.prec == Some(0) && mag == 0 {
        digits.clear();
    }
    if let Some(p) = s.prec {
        if digits.len() < p {
            let mut d = vec![b'0'; p - digits.len()];
            d.extend_from_slice(&digits);
            digits = d;
        }
    }
    if conv == b'o' && s.alt && digits.first() != Some(&b'0') {
        digits.insert(0, b'0');
    }
    let prefix: &[u8] = if neg {
        b"-"
    } else if signed && s.plus {
        b"+"
    } else if signed && s.space {
        b" "
    } else if s.alt && mag != 0 && conv == b'x' {
        b"0x"
    } else if s.alt && mag != 0 && conv == b'X' {
        b"0X"
    } else {
        b""
    };
    pad(out, s, prefix, &digits, s.prec.is_none());
}

/// `d.ddd` and the decimal exponent of `x >= 0` with `prec` fraction digits.
fn exp_parts(x: f64, prec: usize) -> (String, i32) {
    let s = format!("{:.*e}", prec, x);
    match s.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse().unwrap_or(0)),
        None => (s, 0),
    }
}

fn exp_suffix(e: i32, upper: bool) -> String {
    let sign = if e < 0 { '-' } else { '+' };
    format!("{}{sign}{:02}", if upper { 'E' } else { 'e' }, e.unsigned_abs())
}

fn strip_zeros(m: &mut String) {
    if m.contains('.') {
        while m.ends_with('0') {
            m.pop();
        }
        if m.ends_with('.') {
            m.pop();
        }
    }
}

/// `%a`: `0xh.hhhp±d`, all significant hex digits or `prec` of them rounded
/// to nearest even (subnormals as `0x0.hhh...p-1022`, like glibc).
fn hex_float(x: f64, prec: Option<usize>, alt: bool, upper: bool) -> String {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = bits & ((1u64 << 52) - 1);
    let (lead, e) = match (exp, mant) {
        (0, 0) => (0u64, 0),
        (0, _) => (0, -1022),
        _ => (1, exp - 1023),
    };
    let (lead, frac) = match prec {
        None => {
            let mut f = format!("{mant:013x}");
            while f.ends_with('0') {
                f.pop();
            }
            (lead, f)
        }
        Some(p) if p >= 13 => (lead, format!("{mant:013x}{}", "0".repeat(p - 13))),
        Some(p) => {
            let shift = (13 - p as u32) * 4;
            let m = (lead << 52) | mant;
            let (mut q, rem, half) = (m >> shift, m & ((1u64 << shift) - 1), 1u64 << (shift - 1));
            if rem > half || (rem == half && q & 1 == 1) {
                q += 1;
            }
            let f = if p == 0 {
                String::new()
            } else {
                format!("{:0w$x}", q & ((1u64 << (p * 4)) - 1), w = p)
            };
            (q >> (p * 4), f)
        }
    };
    let dot = if frac.is_empty() && !alt { "" } else { "." };
    let s = format!(
        "0x{lead}{dot}{frac}p{}{}",
        if e < 0 { '-' } else { '+' },
        e.unsigned_abs()
    );
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

fn format_float(out: &mut Vec<u8>, s: &Spec, conv: u8, x: f64) -> Res<()> {
    let upper = conv.is_ascii_uppercase();
    let prefix: &[u8] = if x.is_sign_negative() {
        b"-"
    } else if s.plus {
        b"+"
    } else if s.space {
        b" "
    } else {
        b""
    };
    let a = x.abs();
    if !a.is_finite() {
        let body = match (a.is_nan(), upper) {
            (true, false) => "nan",
            (true, true) => "NAN",
            (false, false) => "inf",
            (false, true) => "INF",
        };
        pad(out, s, prefix, body.as_bytes(), false);
        return Ok(());
    }
    let prec = s.prec.unwrap_or(6);
    let body = match conv.to_ascii_lowercase() {
        b'f' => {
            let mut b = format!("{:.*}", prec, a);
            if s.alt && prec == 0 {
                b.push('.');
            }
            b
        }
        b'e' => {
            let (mut m, e) = exp_parts(a, prec);
            if s.alt && prec == 0 {
                m.push('.');
            }
            m + &exp_suffix(e, upper)
        }
        b'g' => {
            let p = if prec == 0 { 1 } else { prec };
            let (_, x_exp) = if a == 0.0 {
                (String::new(), 0)
            } else {
                exp_parts(a, p - 1)
            };
            if (x_exp as i64) < p as i64 && x_exp >= -4 {
                let mut b = format!("{:.*}", (p as i64 - 1 - x_exp as i64) as usize, a);
                if !s.alt {
                    strip_zeros(&mut b);
                } else if !b.contains('.') {
                    b.push('.');
                }
                b
            } else {
                let (mut m, e) = exp_parts(a, p - 1);
                if !s.alt {
                    strip_zeros(&mut m);
                } else if !m.contains('.') {
                    m.push('.');
                }
                m + &exp_suffix(e, upper)
            }
        }
        _ => {
            let h = hex_float(a, s.prec, s.alt, upper);
            // The "0x" goes before zero padding.
            let mut p = prefix.to_vec();
            p.extend_from_slice(&h.as_bytes()[..2]);
            pad(out, s, &p, &h.as_bytes()[2..], true);
            return Ok(());
        }
    };
    let body = if upper { body.to_uppercase() } else { body };
    pad(out, s, prefix, body.as_bytes(), true);
    Ok(())
}

/// Whether the conversion ending just before `i` had exactly an `l` modifier.
fn a_is_wide(fmt: &[u8], i: usize) -> bool {
    i >= 2 && fmt[i - 2] == b'l' && (i < 3 || fmt[i - 3] != b'l')
}

impl<'m> Machine<'m> {
    /// A `wchar_t` string as bytes (ASCII only, like glibc in the C locale),
    /// at most `max` bytes.
    fn wide_string(&self, a: u64, max: usize) -> Res<Vec<u8>> {
        let mut out = Vec::new();
        let mut p = a;
        while out.len() < max {
            let c = self.mem.read(p, 4)? as u32;
            if c == 0 {
                break;
            }
            if c >= 0x80 {
                return Err(unsupported("printf %ls of a non-ASCII string"));
            }
            out.push(c as u8);
            p = p.wrapping_add(4);
        }
        Ok(out)
    }

    fn next_arg(&mut self, src: &mut ArgSrc, want: Want) -> Res<u128> {
        match src {
            ArgSrc::Direct { vals, types, next } => {
                let i = *next;
                let Some(&v) = vals.get(i) else {
                    return Err(unsupported("printf: missing argument"));
                };
                *next += 1;
                let ty = types.get(i).copied().unwrap_or(IrType::I64);
                Ok(if want != Want::Int && ty == IrType::F32 {
                    (f32::from_bits(v as u32) as f64).to_bits() as u128
                } else {
                    v
                })
            }
            ArgSrc::Va { cursor } => {
                let ty = match want {
                    Want::Int => IrType::I64,
                    Want::Float => IrType::F64,
                    Want::LongDouble => IrType::F128,
                };
                let mut c = *cursor;
                let v = self.va_next(&mut c, ty)?;
                *cursor = c;
                Ok(v)
            }
        }
    }

    /// Expand `fmt` with arguments from `src`.
    pub(super) fn format(&mut self, fmt: &[u8], src: &mut ArgSrc) -> Res<Vec<u8>> {
        let mut out = Vec::with_capacity(fmt.len() + 16);
        let mut i = 0;
        while i < fmt.len() {
            let c = fmt[i];
            i += 1;
            if c != b'%' {
                out.push(c);
                continue;
            }
            let start = i - 1;
            let mut s = Spec {
                bits: 32,
                ..Spec::default()
            };
            while let Some(&f) = fmt.get(i) {
                match f {
                    b'-' => s.left = true,
                    b'+' => s.plus = true,
                    b' ' => s.space = true,
                    b'#' => s.alt = true,
                    b'0' => s.zero = true,
                    _ => break,
                }
                i += 1;
            }
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let w = self.next_arg(src, Want::Int)? as u32 as i32;
                if w < 0 {
                    s.left = true;
                }
                s.width = w.unsigned_abs() as usize;
            } else {
                while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                    s.width = s.width.saturating_mul(10).saturating_add((d - b'0') as usize);
                    i += 1;
                }
            }
            if fmt.get(i) == Some(&b'.') {
                i += 1;
                if fmt.get(i) == Some(&b'*') {
                    i += 1;
                    let p = self.next_arg(src, Want::Int)? as u32 as i32;
                    s.prec = if p < 0 { None } else { Some(p as usize) };
                } else {
                    let mut p = 0usize;
                    while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                        p = p.saturating_mul(10).saturating_add((d - b'0') as usize);
                        i += 1;
                    }
                    s.prec = Some(p);
                }
            }
            if s.width > 1 << 20 || s.prec.is_some_and(|p| p > 1 << 20) {
                return Err(unsupported("printf: huge width or precision"));
            }
            match fmt.get(i) {
                Some(b'h') if fmt.get(i + 1) == Some(&b'h') => (s.bits, i) = (8, i + 2),
                Some(b'h') => (s.bits, i) = (16, i + 1),
                Some(b'l') if fmt.get(i + 1) == Some(&b'l') => (s.bits, i) = (64, i + 2),
                Some(b'l' | b'q' | b'j' | b'z' | b't') => (s.bits, i) = (64, i + 1),
                Some(b'L') => (s.bits, s.long_double, i) = (64, true, i + 1),
                _ => {}
            }
            let Some(&conv) = fmt.get(i) else {
                out.extend_from_slice(&fmt[start..]);
                break;
            };
            i += 1;
            match conv {
                b'd' | b'i' | b'u' | b'o' | b'x' | b'X' => {
                    let v = self.next_arg(src, Want::Int)?;
                    format_int(&mut out, &s, conv, v);
                }
                b'c' => {
                    let w = self.next_arg(src, Want::Int)?;
                    if s.bits == 64 && a_is_wide(fmt, i) && w as u32 >= 0x80 {
                        return Err(unsupported("printf %lc of a non-ASCII character"));
                    }
                    let v = w as u8;
                    pad(&mut out, &s, b"", &[v], false);
                }
                b's' if s.bits == 64 && a_is_wide(fmt, i) => {
                    let a = self.next_arg(src, Want::Int)? as u64;
                    let body = if a == 0 {
                        if s.prec.is_none_or(|p| p >= 6) {
                            b"(null)".to_vec()
                        } else {
                            Vec::new()
                        }
                    } else {
                        self.wide_string(a, s.prec.unwrap_or(usize::MAX))?
                    };
                    pad(&mut out, &s, b"", &body, false);
                }
                b's' => {
                    let a = self.next_arg(src, Want::Int)? as u64;
                    if a == 0 {
                        let body: &[u8] = if s.prec.is_none_or(|p| p >= 6) { b"(null)" } else { b"" };
                        pad(&mut out, &s, b"", body, false);
                    } else {
                        let body = match s.prec {
                            Some(p) => self.mem.read_cstr_max(a, p)?,
                            None => self.mem.read_cstr(a)?,
                        };
                        let body = body.to_vec();
                        pad(&mut out, &s, b"", &body, false);
                    }
                }
                b'p' => {
                    let a = self.next_arg(src, Want::Int)? as u64;
                    if a == 0 {
                        pad(&mut out, &s, b"", b"(nil)", false);
                    } else {
                        let sp = Spec {
                            alt: true,
                            bits: 64,
                            ..s
                        };
                        let mut tmp = Vec::new();
                        let prefix: &[u8] = if s.plus {
                            b"+0x"
                        } else if s.space {
                            b" 0x"
                        } else {
                            b"0x"
                        };
                        let mut digits = format!("{a:x}").into_bytes();
                        if let Some(p) = sp.prec {
                            while digits.len() < p {
                                digits.insert(0, b'0');
                            }
                        }
                        pad(&mut tmp, &sp, prefix, &digits, sp.prec.is_none());
                        out.extend_from_slice(&tmp);
                    }
                }
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                    let want = if s.long_double { Want::LongDouble } else { Want::Float };
                    let v = self.next_arg(src, want)?;
                    format_float(&mut out, &s, conv, f64::from_bits(v as u64))?;
                }
                b'n' => {
                    let a = self.next_arg(src, Want::Int)? as u64;
                    let size = if s.bits == 32 { 4 } else { (s.bits / 8) as usize };
                    self.mem.write(a, size, out.len() as u128)?;
                }
                b'%' => out.push(b'%'),
                _ => out.extend_from_slice(&fmt[start..i]),
            }
        }
        Ok(out)
    }
}
