//! GNU as data emission shared by every target: globals with their
//! initializers and relocations, string literals, aliases, symbol attributes
//! and constructor/destructor tables.
//!
//! Sections follow the ELF conventions gcc uses: `.data`, `.bss` (zero
//! initialized), `.rodata` (read-only without relocations),
//! `.data.rel.ro` (read-only with address relocations, so that PIE links
//! need no text relocations), `.tdata`/`.tbss` (thread-local, flags `awT`),
//! `.comm` for common symbols, `.init_array`/`.fini_array` for
//! constructors and destructors. An initializer is first flattened into byte
//! runs and relocations ([`DataItem`]), truncated or zero-padded to the
//! object's size, then printed (`.byte`, `.zero`, `.quad sym+off`,
//! `.long a-b`). Long double constants take the target's format.

use super::{push_symbol, LongDoubleFormat, TargetDesc};
use crate::binary128::Binary128;
use crate::ir::constants::IrConst;
use crate::ir::module::{GlobalInit, IrGlobal, IrModule};
use crate::ir::types::IrType;
use std::fmt::Write;

/// One piece of an initializer after flattening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataItem {
    Bytes(Vec<u8>),
    /// An 8-byte address `sym + addend`.
    Address(String, i64),
    /// `a - b` in `size` bytes.
    LabelDiff(String, String, usize),
}

impl DataItem {
    fn len(&self) -> usize {
        match self {
            DataItem::Bytes(b) => b.len(),
            DataItem::Address(..) => 8,
            DataItem::LabelDiff(_, _, n) => *n,
        }
    }
}

/// Flattens an initializer of a global whose element type is `elem`.
pub fn flatten_init(init: &GlobalInit, elem: IrType, ld: LongDoubleFormat) -> Vec<DataItem> {
    let mut items = Vec::new();
    flatten_into(init, elem, ld, &mut items);
    items
}

fn push_bytes(items: &mut Vec<DataItem>, bytes: &[u8]) {
    if let Some(DataItem::Bytes(last)) = items.last_mut() {
        last.extend_from_slice(bytes);
    } else {
        items.push(DataItem::Bytes(bytes.to_vec()));
    }
}

/// The little-endian bytes of constant `c` stored as a `ty`.
pub fn const_bytes(c: &IrConst, ty: IrType, ld: LongDoubleFormat, out: &mut Vec<u8>) {
    let size = ty.size().max(1);
    match ty {
        IrType::F32 => out.extend_from_slice(&(c.to_f64().unwrap_or(0.0) as f32).to_bits().to_le_bytes()),
        IrType::F64 => out.extend_from_slice(&c.to_f64().unwrap_or(0.0).to_bits().to_le_bytes()),
        IrType::F128 => {
            let c = match c {
                IrConst::LongDouble(..) => *c,
                other => IrConst::long_double(other.to_f64().unwrap_or(0.0)),
            };
            match ld {
                LongDoubleFormat::X87 => {
                    if let IrConst::LongDouble(_, b) = c {
                        out.extend_from_slice(&binary128_to_x87(&b));
                        out.extend_from_slice(&[0; 6]);
                    }
                }
                LongDoubleFormat::Binary128 => c.push_le_bytes(out, 16),
            }
        }
        _ => {
            // Integers (and float constants stored as integers: their bits).
            let bits = c.bits_as(if ty == IrType::Void { IrType::I8 } else { ty });
            out.extend_from_slice(&bits.to_le_bytes()[..size.min(16)]);
        }
    }
}

/// The memory image of constant `c` stored as a `ty`: 16 little-endian
/// bytes, zero past the type's size (what a target's code stores or loads
/// for a constant operand).
pub fn const_image(c: &IrConst, ty: IrType, ld: LongDoubleFormat) -> [u8; 16] {
    let mut b = Vec::with_capacity(16);
    const_bytes(c, ty, ld, &mut b);
    b.resize(16, 0);
    b.try_into().unwrap_or([0; 16])
}

/// The integer value of constant `c` as a `ty` (`void`: `i64`), extended
/// to 64 bits by `signed` (a 16-byte type gives its low half).
pub fn const_i64(c: &IrConst, ty: IrType, signed: bool) -> i64 {
    let t = if ty == IrType::Void { IrType::I64 } else { ty };
    let bits = c.bits_as(t);
    let w = (t.size().min(8) * 8) as u32;
    if signed {
        crate::ir::constants::sext(bits, w) as i64
    } else {
        crate::ir::constants::zext(bits, w) as u64 as i64
    }
}

/// [`const_image`] as its low and high 8-byte words.
pub fn const_words(c: &IrConst, ty: IrType, ld: LongDoubleFormat) -> [u64; 2] {
    let img = const_image(c, ty, ld);
    [0, 8].map(|at| u64::from_le_bytes(img[at..at + 8].try_into().unwrap_or([0; 8])))
}

/// The widest access of at most `left` bytes: 8, 4, 2 or 1 (how the
/// targets copy and store memory of any size piece by piece).
pub fn chunk_size(left: usize) -> usize {
    match left {
        8.. => 8,
        4..=7 => 4,
        2..=3 => 2,
        _ => 1,
    }
}

/// The `(offset, size)` pieces of `size` bytes of memory, in order, each as
/// wide as [`chunk_size`] allows.
pub fn pieces(size: usize) -> impl Iterator<Item = (usize, usize)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        (at < size).then(|| {
            let piece = (at, chunk_size(size - at));
            at += piece.1;
            piece
        })
    })
}

/// The pieces a store of constant `c` as a `ty` writes, in order:
/// `(offset, size, value)` with sizes from [`chunk_size`] and each value
/// the piece's bytes, little-endian.
pub fn const_pieces(c: &IrConst, ty: IrType, ld: LongDoubleFormat) -> Vec<(usize, usize, u64)> {
    let img = const_image(c, ty, ld);
    pieces(ty.size().max(1))
        .map(|(at, chunk)| {
            let v = (0..chunk).fold(0u64, |v, k| v | (img[at + k] as u64) << (8 * k));
            (at, chunk, v)
        })
        .collect()
}

/// Converts IEEE binary128 bytes to x87 80-bit extended bytes, rounding the
/// significand to x87's 64 bits (to nearest, ties to even; exact for the
/// x87-precision constants the frontend makes), x87 denormals included.
pub fn binary128_to_x87(b: &[u8; 16]) -> [u8; 10] {
    Binary128::from_le_bytes(*b).to_x87_bytes()
}

fn flatten_into(init: &GlobalInit, elem: IrType, ld: LongDoubleFormat, items: &mut Vec<DataItem>) {
    match init {
        GlobalInit::Zero => push_bytes(items, &vec![0; elem.size().max(1)]),
        GlobalInit::Scalar(c) => {
            let mut b = Vec::with_capacity(16);
            const_bytes(c, elem, ld, &mut b);
            push_bytes(items, &b);
        }
        GlobalInit::Array(cs) => {
            let mut b = Vec::with_capacity(cs.len() * elem.size().max(1));
            for c in cs {
                const_bytes(c, elem, ld, &mut b);
            }
            push_bytes(items, &b);
        }
        GlobalInit::String(s) => {
            let mut b: Vec<u8> = s.chars().map(|c| c as u32 as u8).collect();
            b.push(0);
            push_bytes(items, &b);
        }
        GlobalInit::WideString(units) => {
            let mut b = Vec::with_capacity(units.len() * 4 + 4);
            for u in units.iter().chain(std::iter::once(&0)) {
                b.extend_from_slice(&u.to_le_bytes());
            }
            push_bytes(items, &b);
        }
        GlobalInit::Char16String(units) => {
            let mut b = Vec::with_capacity(units.len() * 2 + 2);
            for u in units.iter().chain(std::iter::once(&0)) {
                b.extend_from_slice(&u.to_le_bytes());
            }
            push_bytes(items, &b);
        }
        GlobalInit::GlobalAddr(name) => items.push(DataItem::Address(name.clone(), 0)),
        GlobalInit::GlobalAddrOffset(name, off) => items.push(DataItem::Address(name.clone(), *off)),
        GlobalInit::Compound(parts) => {
            for p in parts {
                flatten_into(p, elem, ld, items);
            }
        }
        GlobalInit::GlobalLabelDiff(a, b, n) => items.push(DataItem::LabelDiff(a.clone(), b.clone(), *n)),
    }
}

/// Truncates or zero-pads `items` to exactly `size` bytes. A relocation cut
/// by the end is dropped and replaced by zero bytes.
pub fn fit_to_size(items: &mut Vec<DataItem>, size: usize) {
    let mut at = 0;
    let mut keep = 0;
    for it in items.iter_mut() {
        let len = it.len();
        if at + len <= size {
            at += len;
            keep += 1;
            continue;
        }
        if let DataItem::Bytes(b) = it {
            b.truncate(size - at);
            at = size;
            keep += 1;
        }
        break;
    }
    items.truncate(keep);
    if at < size {
        push_bytes(items, &vec![0; size - at]);
    }
}

/// Prints flattened data items.
pub fn emit_items(items: &[DataItem], out: &mut String) {
    for it in items {
        match it {
            DataItem::Bytes(b) => emit_bytes(b, out),
            DataItem::Address(sym, off) => {
                out.push_str("\t.quad\t");
                push_symbol(out, sym);
                if *off != 0 {
                    let _ = write!(out, "{off:+}");
                }
                out.push('\n');
            }
            DataItem::LabelDiff(a, b, n) => {
                let dir = match n {
                    1 => ".byte",
                    2 => ".short",
                    8 => ".quad",
                    _ => ".long",
                };
                let _ = write!(out, "\t{dir}\t");
                push_symbol(out, a);
                out.push('-');
                push_symbol(out, b);
                out.push('\n');
            }
        }
    }
}

/// Bytes as `.zero` for runs of 16 or more zeros and `.byte` lines otherwise.
pub fn emit_bytes(b: &[u8], out: &mut String) {
    let mut i = 0;
    while i < b.len() {
        let zeros = b[i..].iter().take_while(|&&x| x == 0).count();
        if zeros >= 16 || (zeros > 0 && i + zeros == b.len()) {
            let _ = writeln!(out, "\t.zero\t{zeros}");
            i += zeros;
            continue;
        }
        // A `.byte` line up to the next long zero run (at most 16 bytes).
        let mut end = i;
        while end < b.len() && end - i < 16 {
            let z = b[end..].iter().take_while(|&&x| x == 0).count();
            if z >= 16 {
                break;
            }
            end += 1;
        }
        out.push_str("\t.byte\t");
        for (k, &x) in b[i..end].iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            push_decimal_u8(out, x);
        }
        out.push('\n');
        i = end;
    }
}

/// `x` in decimal, as `{x}` would print it, without the formatting
/// machinery (a large initialized array is mostly `.byte` lists, and
/// `write!` per byte was a tenth of the backend on such a program).
fn push_decimal_u8(out: &mut String, x: u8) {
    if x >= 100 {
        out.push((b'0' + x / 100) as char);
    }
    if x >= 10 {
        out.push((b'0' + x / 10 % 10) as char);
    }
    out.push((b'0' + x % 10) as char);
}

/// `.string "..."` with GNU as escapes (the NUL is implied).
pub fn emit_string(bytes: impl Iterator<Item = u8>, out: &mut String) {
    out.push_str("\t.string\t\"");
    for b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push_str("\"\n");
}

/// `.hidden`/`.protected`/`.internal` for a visibility attribute.
pub fn emit_visibility(out: &mut String, name: &str, vis: &str) {
    let dir = match vis {
        "hidden" => ".hidden",
        "protected" => ".protected",
        "internal" => ".internal",
        _ => return,
    };
    let _ = write!(out, "\t{dir}\t");
    push_symbol(out, name);
    out.push('\n');
}

fn has_relocations(items: &[DataItem]) -> bool {
    items.iter().any(|i| !matches!(i, DataItem::Bytes(_)))
}

fn linkage(out: &mut String, name: &str, is_static: bool, is_weak: bool, vis: &Option<String>) {
    if is_weak {
        out.push_str("\t.weak\t");
        push_symbol(out, name);
        out.push('\n');
    } else if !is_static {
        out.push_str("\t.globl\t");
        push_symbol(out, name);
        out.push('\n');
    }
    if let Some(v) = vis {
        emit_visibility(out, name, v);
    }
}

/// Emits every data item of `m`: symbol attributes, string literals,
/// globals, aliases, constructors and destructors.
pub fn emit_data(m: &IrModule, desc: &TargetDesc, out: &mut String) {
    let p = desc.type_prefix;
    for (name, weak, vis) in &m.symbol_attrs {
        if *weak {
            out.push_str("\t.weak\t");
            push_symbol(out, name);
            out.push('\n');
        }
        if let Some(v) = vis {
            emit_visibility(out, name, v);
        }
    }
    if !m.string_literals.is_empty() || !m.wide_string_literals.is_empty() || !m.char16_string_literals.is_empty() {
        out.push_str("\t.section\t.rodata\n");
        for (name, s) in &m.string_literals {
            push_symbol(out, name);
            out.push_str(":\n");
            emit_string(s.chars().map(|c| c as u32 as u8), out);
        }
        for (name, units) in &m.wide_string_literals {
            out.push_str("\t.p2align\t2\n");
            push_symbol(out, name);
            out.push_str(":\n");
            let mut b = Vec::new();
            for u in units.iter().chain(std::iter::once(&0)) {
                b.extend_from_slice(&u.to_le_bytes());
            }
            emit_bytes(&b, out);
        }
        for (name, units) in &m.char16_string_literals {
            out.push_str("\t.p2align\t1\n");
            push_symbol(out, name);
            out.push_str(":\n");
            let mut b = Vec::new();
            for u in units.iter().chain(std::iter::once(&0)) {
                b.extend_from_slice(&u.to_le_bytes());
            }
            emit_bytes(&b, out);
        }
    }
    for g in &m.globals {
        emit_global(g, desc, out);
    }
    for (alias, target, weak) in &m.aliases {
        linkage(out, alias, false, *weak, &None);
        out.push_str("\t.set\t");
        push_symbol(out, alias);
        out.push_str(", ");
        push_symbol(out, target);
        out.push('\n');
    }
    for (section, names) in [(".init_array", &m.constructors), (".fini_array", &m.destructors)] {
        if names.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\t.section\t{section},\"aw\",{p}init_array");
        out.push_str("\t.p2align\t3\n");
        for n in names.iter() {
            out.push_str("\t.quad\t");
            push_symbol(out, n);
            out.push('\n');
        }
    }
}

fn emit_global(g: &IrGlobal, desc: &TargetDesc, out: &mut String) {
    let p = desc.type_prefix;
    if g.is_extern {
        if g.is_weak {
            out.push_str("\t.weak\t");
            push_symbol(out, &g.name);
            out.push('\n');
        }
        if let Some(v) = &g.visibility {
            emit_visibility(out, &g.name, v);
        }
        return;
    }
    let align = g.align.max(1);
    let zero = matches!(g.init, GlobalInit::Zero);
    if g.is_common && zero && g.section.is_none() && !g.is_thread_local {
        if g.is_static {
            out.push_str("\t.local\t");
            push_symbol(out, &g.name);
            out.push('\n');
        }
        if let Some(v) = &g.visibility {
            emit_visibility(out, &g.name, v);
        }
        out.push_str("\t.comm\t");
        push_symbol(out, &g.name);
        let _ = writeln!(out, ",{},{}", g.size, align);
        return;
    }
    let mut items = if zero {
        Vec::new()
    } else {
        flatten_init(&g.init, g.ty, desc.target.long_double())
    };
    if !zero {
        fit_to_size(&mut items, g.size);
    }
    let relocs = has_relocations(&items);
    match &g.section {
        Some(s) => {
            let nobits = zero && (s.starts_with(".bss") || s.starts_with(".tbss"));
            let mut flags = String::from("a");
            if !g.is_const || relocs || !(s.starts_with(".rodata")) {
                flags.push('w');
            }
            if g.is_thread_local {
                flags.push('T');
            }
            let kind = if nobits { "nobits" } else { "progbits" };
            let _ = writeln!(out, "\t.section\t{s},\"{flags}\",{p}{kind}");
        }
        None if g.is_thread_local => {
            if zero {
                let _ = writeln!(out, "\t.section\t.tbss,\"awT\",{p}nobits");
            } else {
                let _ = writeln!(out, "\t.section\t.tdata,\"awT\",{p}progbits");
            }
        }
        None if zero => out.push_str("\t.bss\n"),
        None if g.is_const && relocs => {
            let _ = writeln!(out, "\t.section\t.data.rel.ro,\"aw\",{p}progbits");
        }
        None if g.is_const => out.push_str("\t.section\t.rodata\n"),
        None => out.push_str("\t.data\n"),
    }
    linkage(out, &g.name, g.is_static, g.is_weak, &g.visibility);
    let _ = writeln!(out, "\t.p2align\t{}", align.trailing_zeros());
    out.push_str("\t.type\t");
    push_symbol(out, &g.name);
    let _ = writeln!(out, ", {p}object");
    out.push_str("\t.size\t");
    push_symbol(out, &g.name);
    let _ = writeln!(out, ", {}", g.size);
    push_symbol(out, &g.name);
    out.push_str(":\n");
    if zero {
        if g.size > 0 {
            let _ = writeln!(out, "\t.zero\t{}", g.size);
        }
    } else {
        emit_items(&items, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_print_in_decimal_as_format_does() {
        for x in 0..=255u8 {
            let mut s = String::new();
            push_decimal_u8(&mut s, x);
            assert_eq!(s, x.to_string());
        }
        let mut s = String::new();
        emit_bytes(&[7, 0, 255, 100, 10, 9], &mut s);
        assert_eq!(s, "\t.byte\t7,0,255,100,10,9\n");
    }

    #[test]
    fn compound_initializers_flatten_to_bytes_and_relocations() {
        let init = GlobalInit::Compound(vec![
            GlobalInit::Array(vec![IrConst::I8(1), IrConst::I8(-1)]),
            GlobalInit::Zero,
            GlobalInit::GlobalAddrOffset("arr".into(), -4),
            GlobalInit::String("hi".into()),
        ]);
        let mut items = flatten_init(&init, IrType::I8, LongDoubleFormat::X87);
        assert_eq!(
            items,
            vec![
                DataItem::Bytes(vec![1, 255, 0]),
                DataItem::Address("arr".into(), -4),
                DataItem::Bytes(vec![b'h', b'i', 0]),
            ]
        );
        // `char s[2] = "hi"` keeps no NUL; a bigger object is zero-padded.
        fit_to_size(&mut items, 13);
        assert_eq!(items[2], DataItem::Bytes(vec![b'h', b'i']));
        fit_to_size(&mut items, 16);
        assert_eq!(items[2], DataItem::Bytes(vec![b'h', b'i', 0, 0, 0]));
        let mut out = String::new();
        emit_items(&items, &mut out);
        assert_eq!(out, "\t.byte\t1,255,0\n\t.quad\tarr-4\n\t.byte\t104,105,0,0,0\n");
    }

    #[test]
    fn long_double_constants_in_both_formats() {
        let mut b = Vec::new();
        const_bytes(&IrConst::long_double(1.5), IrType::F128, LongDoubleFormat::X87, &mut b);
        // x87: explicit integer bit + .1 fraction, exponent 0x3fff, 6 bytes of padding.
        assert_eq!(&b[..8], &0xc000_0000_0000_0000u64.to_le_bytes());
        assert_eq!(&b[8..10], &0x3fffu16.to_le_bytes());
        assert_eq!(&b[10..], &[0; 6]);
        let mut q = Vec::new();
        const_bytes(
            &IrConst::long_double(1.5),
            IrType::F128,
            LongDoubleFormat::Binary128,
            &mut q,
        );
        assert_eq!(u128::from_le_bytes(q.try_into().unwrap()), 0x0003_fff8_u128 << 108);
    }

    #[test]
    fn binary128_rounds_to_64_significant_bits() {
        // 1 + 2^-64 + 2^-65 (above the halfway point) rounds up to 1 + 2^-63.
        let q: u128 = (0x3fffu128 << 112) | (1u128 << (112 - 64)) | (1u128 << (112 - 65));
        let x = binary128_to_x87(&q.to_le_bytes());
        assert_eq!(u64::from_le_bytes(x[..8].try_into().unwrap()), (1u64 << 63) | 1);
        // Infinity stays infinite.
        let inf: u128 = 0x7fffu128 << 112;
        let x = binary128_to_x87(&inf.to_le_bytes());
        assert_eq!(u16::from_le_bytes([x[8], x[9]]), 0x7fff);
        assert_eq!(u64::from_le_bytes(x[..8].try_into().unwrap()), 1u64 << 63);
    }

    #[test]
    fn zero_runs_become_zero_directives() {
        let mut b = vec![7u8];
        b.extend_from_slice(&[0; 20]);
        b.push(9);
        let mut out = String::new();
        emit_bytes(&b, &mut out);
        assert_eq!(out, "\t.byte\t7\n\t.zero\t20\n\t.byte\t9\n");
    }
}
