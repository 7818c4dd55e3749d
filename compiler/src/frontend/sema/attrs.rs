//! GNU attributes (gcc manual, "Attribute Syntax", "Common Function/Variable/
//! Type Attributes") and `#pragma pack` ("Structure-Layout Pragmas").
//!
//! Attributes that change the meaning of a program are honoured: `aligned`,
//! `packed`, `mode`, `section`, `weak`, `visibility`, `used`, `noreturn`,
//! `always_inline`, `noinline`, `gnu_inline`, `constructor`, `destructor`,
//! `alias`, `transparent_union`, `vector_size` (see `vector.rs`). Those we
//! cannot implement and whose absence would silently change behaviour
//! (`cleanup`, `scalar_storage_order("big-endian")`) are errors. Every other attribute (format,
//! nonnull, unused, deprecated, ...) only affects diagnostics and is ignored.

use super::super::ast::{Attribute, ExprKind};
use super::super::source::{PResult, Span};
use super::super::types::FloatKind;
use super::{err, Sema};

/// `__attribute__((mode(M)))`: the machine mode replacing an integer or
/// floating type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// An integer of this many bytes (QI, HI, SI, DI, TI, word, pointer).
    Int(u64),
    Float(FloatKind),
    Complex(FloatKind),
}

/// The attributes of one declaration, merged from every list that applies.
#[derive(Clone, Debug, Default)]
pub(super) struct Attrs {
    pub(super) aligned: Option<u64>,
    pub(super) packed: bool,
    pub(super) section: Option<String>,
    pub(super) weak: bool,
    pub(super) visibility: Option<String>,
    pub(super) used: bool,
    pub(super) always_inline: bool,
    pub(super) noinline: bool,
    pub(super) noreturn: bool,
    pub(super) gnu_inline: bool,
    pub(super) constructor: Option<Option<u32>>,
    pub(super) destructor: Option<Option<u32>>,
    pub(super) alias: Option<String>,
    pub(super) mode: Option<(Mode, Span)>,
    /// `vector_size(N)`: N (checked against the element type when applied).
    pub(super) vector_size: Option<(i128, Span)>,
    pub(super) transparent_union: bool,
}

/// The largest alignment `aligned` without an argument gives (`__BIGGEST_ALIGNMENT__`).
pub(super) const BIGGEST_ALIGNMENT: u64 = 16;

fn string_arg(a: &Attribute) -> Option<String> {
    match a.args.first().map(|e| &e.kind) {
        Some(ExprKind::Str { units, .. }) => {
            let bytes: Vec<u8> = units.iter().map(|&u| u as u8).collect();
            Some(String::from_utf8_lossy(&bytes).into_owned())
        }
        _ => None,
    }
}

impl Sema {
    /// Adds the meaning of `list` to `out`.
    pub(super) fn collect_attrs(&mut self, list: &[Attribute], out: &mut Attrs) -> PResult<()> {
        for a in list {
            self.attribute(a, out)?;
        }
        Ok(())
    }

    fn attribute(&mut self, a: &Attribute, out: &mut Attrs) -> PResult<()> {
        match &*a.name {
            "aligned" => {
                let n = match a.args.first() {
                    None => BIGGEST_ALIGNMENT,
                    Some(e) => {
                        let v = self.const_int(e)?;
                        if v <= 0 || (v as u128).count_ones() != 1 || v > (1 << 28) {
                            return Err(err(a.span, "requested alignment is not a positive power of 2"));
                        }
                        v as u64
                    }
                };
                out.aligned = Some(out.aligned.map_or(n, |m| m.max(n)));
            }
            "packed" => out.packed = true,
            "section" => {
                out.section = Some(string_arg(a).ok_or_else(|| err(a.span, "section attribute needs a string"))?)
            }
            "weak" => out.weak = true,
            "visibility" => {
                let v = string_arg(a).ok_or_else(|| err(a.span, "visibility attribute needs a string"))?;
                if !matches!(v.as_str(), "default" | "hidden" | "protected" | "internal") {
                    return Err(err(a.span, format!("unknown visibility '{v}'")));
                }
                out.visibility = Some(v);
            }
            "used" => out.used = true,
            "always_inline" => out.always_inline = true,
            "noinline" => out.noinline = true,
            "noreturn" => out.noreturn = true,
            "gnu_inline" => out.gnu_inline = true,
            "constructor" | "destructor" => {
                let prio = match a.args.first() {
                    Some(e) => {
                        let v = self.const_int(e)?;
                        if !(0..=65535).contains(&v) {
                            return Err(err(a.span, "priority out of range"));
                        }
                        Some(v as u32)
                    }
                    None => None,
                };
                if &*a.name == "constructor" {
                    out.constructor = Some(prio);
                } else {
                    out.destructor = Some(prio);
                }
            }
            "alias" => out.alias = Some(string_arg(a).ok_or_else(|| err(a.span, "alias attribute needs a string"))?),
            "mode" => {
                let name = match a.args.first().map(|e| &e.kind) {
                    Some(ExprKind::Ident(n)) => n.to_string(),
                    _ => return Err(err(a.span, "mode attribute needs a mode name")),
                };
                let m = name.trim_start_matches("__").trim_end_matches("__");
                let mode = match m {
                    "QI" | "byte" => Mode::Int(1),
                    "HI" => Mode::Int(2),
                    "SI" => Mode::Int(4),
                    "DI" | "word" | "pointer" => Mode::Int(8),
                    "TI" => Mode::Int(16),
                    "SF" => Mode::Float(FloatKind::Float),
                    "DF" => Mode::Float(FloatKind::Double),
                    "TF" | "XF" => Mode::Float(FloatKind::LongDouble),
                    "SC" => Mode::Complex(FloatKind::Float),
                    "DC" => Mode::Complex(FloatKind::Double),
                    "XC" => Mode::Complex(FloatKind::LongDouble),
                    "TC" => Mode::Complex(FloatKind::Float128),
                    _ => return Err(err(a.span, format!("unknown machine mode '{name}'"))),
                };
                out.mode = Some((mode, a.span));
            }
            "vector_size" => {
                let Some(e) = a.args.first() else {
                    return Err(err(a.span, "'vector_size' attribute needs a size"));
                };
                out.vector_size = Some((self.const_int(e)?, a.span));
            }
            "transparent_union" => out.transparent_union = true,
            "cleanup" => return Err(err(a.span, "the 'cleanup' attribute is not supported")),
            // The targets are little-endian: "little-endian" is their own
            // order; byte-swapped (big-endian) fields are not implemented.
            "scalar_storage_order" => match string_arg(a).as_deref() {
                Some("little-endian") => {}
                Some("big-endian") => {
                    return Err(err(
                        a.span,
                        "the 'scalar_storage_order(\"big-endian\")' attribute is not supported",
                    ))
                }
                _ => {
                    return Err(err(
                        a.span,
                        "'scalar_storage_order' argument must be one of \"big-endian\" or \"little-endian\"",
                    ))
                }
            },
            _ => {}
        }
        Ok(())
    }

    /// `#pragma` lines: `pack` changes the layout of the records defined
    /// after it; everything else is ignored (as gcc ignores unknown pragmas).
    pub(super) fn pragma(&mut self, text: &str, span: Span) -> PResult<()> {
        let text = text.trim();
        let Some(rest) = text.strip_prefix("pack") else {
            return Ok(());
        };
        let rest = rest.trim();
        let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
            self.warn(span, "malformed '#pragma pack' ignored");
            return Ok(());
        };
        let args: Vec<&str> = inner.split(',').map(|s| s.trim()).filter(|s| !s.is_empty()).collect();
        let parse_n = |s: &str| -> Option<u64> {
            let n: u64 = s.parse().ok()?;
            (n == 0 || (n.is_power_of_two() && n <= 16)).then_some(n)
        };
        let value = |n: u64| if n == 0 { None } else { Some(n) };
        match args.as_slice() {
            [] => self.pack = None,
            ["push", rest @ ..] => {
                self.pack_stack.push(self.pack);
                // `push, n` or `push, ident, n` or `push, ident`.
                if let Some(n) = rest.iter().rev().find_map(|s| parse_n(s)) {
                    self.pack = value(n);
                }
            }
            ["pop", ..] => {
                if let Some(p) = self.pack_stack.pop() {
                    self.pack = p;
                } else {
                    self.warn(span, "'#pragma pack(pop)' without a matching push");
                }
            }
            [n] => match parse_n(n) {
                Some(n) => self.pack = value(n),
                None => self.warn(span, format!("alignment must be a small power of two, not '{n}'")),
            },
            _ => self.warn(span, "malformed '#pragma pack' ignored"),
        }
        Ok(())
    }
}
