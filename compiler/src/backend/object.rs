//! The integrated assembler's target-independent half: it reads the GNU as
//! subset our backends print (labels, the directives of [`super::data`] and
//! function headers, instructions) and builds a relocatable ELF object with
//! [`super::elf`], asking the target's [`InstEncoder`] to encode each
//! instruction. Anything outside the subset (inline asm text, top-level asm,
//! an unknown directive or instruction) is an error, and the driver then
//! falls back to the external assembler, so the subset only has to cover
//! what the backend itself prints.
//!
//! Semantics follow GNU as (as.info, "Pseudo Ops", "Sections and
//! Relocation"): `.L` labels are assembler-local and never enter the symbol
//! table (relocations against them use the section symbol plus the label's
//! offset); a symbol is local unless `.globl`/`.weak`; an undefined symbol is
//! global; a reference to a label in the same section is resolved at the end
//! (forward references included), anything else becomes a relocation;
//! `.set` aliases take the target's section and value; `.comm` makes a common
//! symbol (or, after `.local`, reserves space in `.bss`); `.size sym, .-sym`
//! is evaluated where it stands; each section's alignment is the largest
//! `.p2align` it saw.

use super::elf::{self, Binding, ElfReloc, ElfSection, ElfSymbol, RelocSymbol, SymSection, SymType};
use crate::target::Target;
use rustc_hash::FxHashMap;

/// What a fixup computes, mapped by the target to its relocation types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixupKind {
    /// `S + A` (data addresses).
    Abs,
    /// `S + A - P` (PC-relative data, RIP-relative operands, branches).
    PcRel,
    /// `L + A - P` through the PLT (calls).
    Plt,
    /// The GOT entry's address, PC-relative (`sym@GOTPCREL`).
    GotPcRel,
    /// The GOT entry holding the TLS offset, PC-relative (`sym@gottpoff`).
    GotTpOff,
    /// A target-defined instruction field (a branch displacement scattered
    /// over an instruction word, the page and low-12 halves of an address).
    /// The target resolves it against a label of the same section with
    /// [`InstEncoder::patch_field`], and names its relocation in
    /// [`InstEncoder::reloc_type`].
    Field(u16),
}

/// A value to patch into a section once symbols are known.
#[derive(Clone, Debug)]
pub struct Fixup {
    pub section: usize,
    pub offset: usize,
    /// Bytes of the field (1, 2, 4 or 8).
    pub size: u8,
    pub kind: FixupKind,
    pub symbol: String,
    /// `symbol - minus + addend` (a label difference).
    pub minus: Option<String>,
    pub addend: i64,
}

/// Internal names of [`ObjectBuilder::define_anchor`]'s symbols start with
/// this; the symbol table gets the part before the `\u{1}`.
const ANCHOR: &str = ".L0 \u{1}";

/// The target half: instruction encoding and relocation numbers.
pub trait InstEncoder {
    /// The target whose objects this encoder writes (its ELF machine comes from the target table).
    fn target(&self) -> Target;
    /// Encodes one instruction (mnemonic with any prefixes, and the operand
    /// text) at the end of the current section of `obj`.
    fn encode(&mut self, mnemonic: &str, operands: &str, obj: &mut ObjectBuilder) -> Result<(), String>;
    /// The ELF relocation type for a fixup of `kind` and `size` bytes.
    fn reloc_type(&self, kind: FixupKind, size: u8, instruction_fixup: bool) -> Result<u32, String>;
    /// Padding bytes for alignment inside executable sections.
    fn code_padding(&self, n: usize) -> Vec<u8>;
    /// Whether code sections get the ELF for the Arm Architecture's mapping
    /// symbols (`$x` where instructions start, `$d` where data starts), as
    /// GNU as writes them; the linker's erratum scans walk the code they mark.
    fn mapping_symbols(&self) -> bool {
        false
    }
    /// Writes `value` (`S + A - P`, the label's distance from the field's
    /// instruction) into the `field` bytes of a [`FixupKind::Field`] fixup
    /// whose label lies in the same section. `Ok(false)` keeps the fixup as a
    /// relocation instead (a page-relative field, whose value depends on
    /// where the linker puts the section); `Err` when it does not fit.
    fn patch_field(&self, kind: u16, field: &mut [u8], value: i64) -> Result<bool, String> {
        let _ = (field, value);
        Err(format!("the target has no instruction field {kind}"))
    }
    /// The (add, sub) relocation pair for a `size`-byte difference `a - b`
    /// whose labels lie in different sections, for targets whose assembler
    /// writes such differences as two relocations (RISC-V's
    /// `R_RISCV_ADD32`/`R_RISCV_SUB32`); `None` writes one PC-relative
    /// relocation when `b` is in the field's own section.
    fn difference_relocs(&self, size: u8) -> Option<(u32, u32)> {
        let _ = size;
        None
    }
    /// Whether an instruction that adds no fixup and no symbol always
    /// encodes to the same bytes, wherever it stands and whatever came
    /// before it (no state between instructions), so that
    /// [`ObjectBuilder`] may reuse the bytes of an identical earlier line
    /// instead of encoding it again.
    fn memoizable(&self) -> bool {
        false
    }
}

#[derive(Clone, Debug)]
struct Section {
    name: String,
    sh_type: u32,
    flags: u64,
    align: u64,
    data: Vec<u8>,
    nobits_size: u64,
}

#[derive(Clone, Debug, Default)]
struct Symbol {
    section: Option<usize>,
    value: u64,
    global: bool,
    weak: bool,
    local_decl: bool,
    sym_type: Option<SymType>,
    size: Option<u64>,
    visibility: u8,
    common: Option<(u64, u64)>,
    set_to: Option<String>,
    tls_ref: bool,
    referenced: bool,
    /// Stays in the symbol table, and relocations name it rather than its
    /// section, even when it is a `.L` label (RISC-V `%pcrel_lo` anchors).
    keep: bool,
}

/// The symbols by name, in a list in first-mention order (the order of
/// [`ObjectBuilder`]'s `order`) with a map from name to place.
#[derive(Default)]
struct Symbols {
    index: FxHashMap<String, usize>,
    list: Vec<Symbol>,
}

impl Symbols {
    fn get(&self, name: &str) -> Option<&Symbol> {
        self.index.get(name).map(|&i| &self.list[i])
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Symbol> {
        let i = *self.index.get(name)?;
        Some(&mut self.list[i])
    }
}

impl std::ops::Index<&str> for Symbols {
    type Output = Symbol;
    fn index(&self, name: &str) -> &Symbol {
        self.get(name).expect("a known symbol")
    }
}

/// Appends `n` in decimal (no formatting machinery: anchors are made per
/// RISC-V address pair).
fn push_decimal(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[k..].iter().map(|&d| char::from(d)));
}

/// The object being assembled.
pub struct ObjectBuilder {
    sections: Vec<Section>,
    section_index: FxHashMap<String, usize>,
    current: usize,
    /// Mapping symbols (section, offset, code or data), and the state each section is in.
    mapping: Vec<(usize, u64, bool)>,
    map_state: FxHashMap<usize, bool>,
    symbols: Symbols,
    /// Symbols in first-appearance order (deterministic output).
    order: Vec<String>,
    fixups: Vec<Fixup>,
    /// Fixups that came from instructions (some targets pick other relocation types for them).
    instruction_fixup: Vec<bool>,
    in_instruction: bool,
    /// Anchors made by [`ObjectBuilder::define_anchor`] so far.
    anchors: usize,
    /// The bytes of instruction lines already encoded that needed no fixup
    /// or symbol, by their text (see [`InstEncoder::memoizable`]). Code at
    /// -O0 repeats itself: 60-75% of a Csmith program's instruction lines
    /// are copies of an earlier one.
    memo: FxHashMap<Box<str>, Box<[u8]>>,
}

/// Parses a possibly quoted symbol name at the start of `s`; returns it and the rest.
pub fn parse_symbol(s: &str) -> Option<(String, &str)> {
    let s = trim_start(s);
    if let Some(rest) = s.strip_prefix('"') {
        let mut name = String::new();
        let mut chars = rest.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Some((name, &rest[i + 1..])),
                '\\' => {
                    let (_, n) = chars.next()?;
                    if n.is_ascii_digit() {
                        let mut v = n.to_digit(8)?;
                        for _ in 0..2 {
                            let (_, d) = chars.next()?;
                            v = v * 8 + d.to_digit(8)?;
                        }
                        name.push(char::from_u32(v)?);
                    } else {
                        name.push(n);
                    }
                }
                c => name.push(c),
            }
        }
        return None;
    }
    let end = s
        .bytes()
        .position(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$')))
        .unwrap_or(s.len());
    if end == 0 || s.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    Some((s[..end].to_string(), &s[end..]))
}

/// `s.trim()`, without the Unicode scan when `s` starts and ends with a
/// printable ASCII byte (operands our own printer wrote always do).
pub fn trim(s: &str) -> &str {
    let plain = |c: u8| c > b' ' && c < 0x80;
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) if !(plain(first) && plain(last)) => s.trim(),
        _ => s,
    }
}

/// What `text.lines()` gives (lines end at `\n`, and a `\r` before it
/// goes too), finding each end with `memchr`.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let line = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => {
                let line = &rest[..i];
                rest = &rest[i + 1..];
                line.strip_suffix('\r').unwrap_or(line)
            }
            None => std::mem::take(&mut rest),
        };
        Some(line)
    })
}

/// `s.trim_start()`, skipping tabs and spaces byte by byte first.
pub fn trim_start(s: &str) -> &str {
    let n = s.bytes().take_while(|&c| c == b'\t' || c == b' ').count();
    let rest = &s[n..];
    match rest.as_bytes().first() {
        Some(&c) if c > b' ' && c < 0x80 => rest,
        _ => rest.trim_start(),
    }
}

/// An instruction name of at most 8 bytes as one integer, its bytes in
/// order (a key for the encoders' mnemonic maps: hashing and comparing it
/// costs a few instructions, a string compare a library call). `None` for
/// longer names, and for names ending in a NUL byte, which would share
/// the key of the name without it.
pub fn mnemonic_key(m: &str) -> Option<u64> {
    let b = m.as_bytes();
    if b.len() > 8 || b.last() == Some(&0) {
        return None;
    }
    let mut k = [0u8; 8];
    k[..b.len()].copy_from_slice(b);
    Some(u64::from_le_bytes(k))
}

/// Parses a signed integer (decimal or `0x` hex).
pub fn parse_int(s: &str) -> Option<i64> {
    let s = trim(s);
    // Most operands are short decimals: read those directly (18 digits
    // cannot overflow); everything else takes the general path.
    let (neg, digits) = match s.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        b => (false, b),
    };
    if !digits.is_empty() && digits.len() <= 18 && digits.iter().all(u8::is_ascii_digit) {
        let v = digits.iter().fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
        return Some(if neg { -v } else { v });
    }
    // Nor is anything that starts with neither a digit nor a sign (a symbol).
    if !matches!(s.as_bytes().first(), Some(b'0'..=b'9' | b'+' | b'-')) {
        return None;
    }
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()? as i64
    } else {
        body.parse::<u64>().ok()? as i64
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

/// The operands of a `.byte` line when all are decimal numbers from 0 to
/// 255 without leading zeros (what `data::emit_bytes` prints for an
/// initializer), read in one pass; `None` for anything else (a sign, an
/// octal or hex number, a symbol), which goes through [`ObjectBuilder::data_expr`].
fn plain_byte_list(args: &str) -> Option<Vec<u8>> {
    let b = args.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 2 + 1);
    let blank = |c: u8| c == b' ' || c == b'\t';
    let mut i = 0;
    loop {
        while i < b.len() && blank(b[i]) {
            i += 1;
        }
        let start = i;
        let mut v = 0u32;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 3 {
            v = v * 10 + u32::from(b[i] - b'0');
            i += 1;
        }
        let n = i - start;
        if n == 0 || (n > 1 && b[start] == b'0') {
            return None;
        }
        out.push(u8::try_from(v).ok()?);
        while i < b.len() && blank(b[i]) {
            i += 1;
        }
        match b.get(i) {
            None => return Some(out),
            Some(b',') => i += 1,
            Some(_) => return None,
        }
    }
}

/// A data expression: `N`, `sym`, `sym+N`, `sym-N`, `a-b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub symbol: Option<String>,
    pub minus: Option<String>,
    pub addend: i64,
}

pub fn parse_expr(s: &str) -> Option<Expr> {
    let s = trim(s);
    if let Some(v) = parse_int(s) {
        return Some(Expr {
            symbol: None,
            minus: None,
            addend: v,
        });
    }
    let (sym, rest) = parse_symbol(s)?;
    let rest = trim(rest);
    if rest.is_empty() {
        return Some(Expr {
            symbol: Some(sym),
            minus: None,
            addend: 0,
        });
    }
    if let Some(v) = parse_int(rest) {
        return Some(Expr {
            symbol: Some(sym),
            minus: None,
            addend: v,
        });
    }
    let r = rest.strip_prefix('-')?;
    let (minus, tail) = parse_symbol(r)?;
    if !tail.trim().is_empty() {
        return None;
    }
    Some(Expr {
        symbol: Some(sym),
        minus: Some(minus),
        addend: 0,
    })
}

/// Splits an operand list at top-level commas (not inside parentheses or quotes).
pub fn split_operands(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    split_operands_with(s, |o| out.push(o));
    out
}

/// [`split_operands`], calling `push` with each operand in order.
fn split_operands_with<'a>(s: &'a str, mut push: impl FnMut(&'a str)) {
    let (mut depth, mut quoted, mut start, mut any) = (0i32, false, 0, false);
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        // Letters, digits, `-` and the like (all above `,`) go by fast;
        // of them only `\\` matters, and only inside quotes.
        if c > b',' {
            if c == b'\\' && quoted {
                i += 1;
            }
        } else {
            match c {
                b'"' => quoted = !quoted,
                b'(' if !quoted => depth += 1,
                b')' if !quoted => depth -= 1,
                b',' if !quoted && depth == 0 => {
                    push(trim(&s[start..i]));
                    any = true;
                    start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    let last = trim(&s[start..]);
    if !last.is_empty() || any {
        push(last);
    }
}

/// An instruction's operands, split as [`split_operands`] splits them,
/// without a heap allocation for up to four.
pub struct Operands<'a> {
    inline: [&'a str; 4],
    len: usize,
    /// All of them, when there are more than four.
    spill: Vec<&'a str>,
}

impl<'a> Operands<'a> {
    pub fn split(s: &'a str) -> Operands<'a> {
        let mut o = Operands::new();
        split_operands_with(s, |x| o.push(x));
        o
    }

    pub fn new() -> Operands<'a> {
        Operands {
            inline: [""; 4],
            len: 0,
            spill: Vec::new(),
        }
    }

    pub fn push(&mut self, x: &'a str) {
        if self.len < 4 {
            self.inline[self.len] = x;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(x);
        }
        self.len += 1;
    }
}

impl Default for Operands<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> std::ops::Deref for Operands<'a> {
    type Target = [&'a str];
    fn deref(&self) -> &[&'a str] {
        if self.len > 4 {
            &self.spill
        } else {
            &self.inline[..self.len]
        }
    }
}

fn decode_string(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    let body = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::with_capacity(body.len());
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            i += 1;
            let c = *b.get(i)?;
            match c {
                b'0'..=b'7' => {
                    let mut v = 0u32;
                    let mut k = 0;
                    while k < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                        v = v * 8 + (b[i] - b'0') as u32;
                        i += 1;
                        k += 1;
                    }
                    out.push(v as u8);
                    continue;
                }
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'\\' => out.push(b'\\'),
                b'"' => out.push(b'"'),
                _ => return None,
            }
            i += 1;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Default type and flags of a section known by name.
fn section_defaults(name: &str) -> (u32, u64) {
    use elf::*;
    if name == ".text" || name.starts_with(".text.") {
        (SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR)
    } else if name == ".bss" || name.starts_with(".bss.") {
        (SHT_NOBITS, SHF_ALLOC | SHF_WRITE)
    } else if name == ".tbss" || name.starts_with(".tbss.") {
        (SHT_NOBITS, SHF_ALLOC | SHF_WRITE | SHF_TLS)
    } else if name == ".tdata" || name.starts_with(".tdata.") {
        (SHT_PROGBITS, SHF_ALLOC | SHF_WRITE | SHF_TLS)
    } else if name == ".rodata" || name.starts_with(".rodata.") {
        (SHT_PROGBITS, SHF_ALLOC)
    } else if name == ".init_array" {
        (SHT_INIT_ARRAY, SHF_ALLOC | SHF_WRITE)
    } else if name == ".fini_array" {
        (SHT_FINI_ARRAY, SHF_ALLOC | SHF_WRITE)
    } else if name.starts_with(".note") || name.starts_with(".comment") {
        (SHT_PROGBITS, 0)
    } else {
        (SHT_PROGBITS, SHF_ALLOC | SHF_WRITE)
    }
}

impl Default for ObjectBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ObjectBuilder {
    pub fn new() -> ObjectBuilder {
        let mut b = ObjectBuilder {
            sections: Vec::new(),
            section_index: FxHashMap::default(),
            current: 0,
            mapping: Vec::new(),
            map_state: FxHashMap::default(),
            symbols: Symbols::default(),
            order: Vec::new(),
            fixups: Vec::new(),
            instruction_fixup: Vec::new(),
            in_instruction: false,
            anchors: 0,
            memo: FxHashMap::default(),
        };
        b.switch_section(".text", None);
        b
    }

    fn switch_section(&mut self, name: &str, spec: Option<(u32, u64)>) {
        if let Some(&i) = self.section_index.get(name) {
            self.current = i;
            return;
        }
        let (sh_type, flags) = spec.unwrap_or_else(|| section_defaults(name));
        self.sections.push(Section {
            name: name.to_string(),
            sh_type,
            flags,
            align: 1,
            data: Vec::new(),
            nobits_size: 0,
        });
        let i = self.sections.len() - 1;
        self.section_index.insert(name.to_string(), i);
        self.current = i;
    }

    /// `name`'s symbol, made on first mention (one map lookup when it exists).
    fn sym(&mut self, name: &str) -> &mut Symbol {
        if let Some(&i) = self.symbols.index.get(name) {
            return &mut self.symbols.list[i];
        }
        self.order.push(name.to_string());
        self.symbols.index.insert(name.to_string(), self.symbols.list.len());
        self.symbols.list.push(Symbol::default());
        self.symbols.list.last_mut().expect("pushed above")
    }

    /// How many fixups the object has so far (an instruction that added
    /// none wrote plain bytes only).
    pub fn fixup_count(&self) -> usize {
        self.fixups.len()
    }

    /// The bytes of the current section from `start` on (none in a
    /// `nobits` section).
    pub fn bytes_from(&self, start: usize) -> &[u8] {
        self.sections[self.current].data.get(start..).unwrap_or(&[])
    }

    /// The current offset in the current section.
    pub fn offset(&self) -> usize {
        let s = &self.sections[self.current];
        if s.sh_type == elf::SHT_NOBITS {
            s.nobits_size as usize
        } else {
            s.data.len()
        }
    }

    /// Appends bytes to the current section.
    pub fn emit(&mut self, bytes: &[u8]) {
        let s = &mut self.sections[self.current];
        if s.sh_type == elf::SHT_NOBITS {
            s.nobits_size += bytes.len() as u64;
        } else {
            s.data.extend_from_slice(bytes);
        }
    }

    /// Appends a `size`-byte field (zero for now) computed from `symbol` at the end.
    pub fn emit_fixup(&mut self, size: u8, kind: FixupKind, symbol: &str, minus: Option<&str>, addend: i64) {
        let offset = self.offset();
        let s = self.sym(symbol);
        s.referenced = true;
        if kind == FixupKind::GotTpOff {
            s.tls_ref = true;
        }
        if let Some(m) = minus {
            self.sym(m);
        }
        self.fixups.push(Fixup {
            section: self.current,
            offset,
            size,
            kind,
            symbol: symbol.to_string(),
            minus: minus.map(str::to_string),
            addend,
        });
        self.instruction_fixup.push(self.in_instruction);
        self.emit(&[0u8; 8][..size as usize]);
    }

    /// Appends `bytes` (an instruction, say) with a fixup of `kind` over them:
    /// the fixup fills its field into the bytes instead of replacing them.
    pub fn emit_field(&mut self, bytes: &[u8], kind: FixupKind, symbol: &str, addend: i64) {
        let start = self.offset();
        self.emit_fixup(bytes.len() as u8, kind, symbol, None, addend);
        let s = &mut self.sections[self.current];
        if s.sh_type != elf::SHT_NOBITS {
            s.data[start..start + bytes.len()].copy_from_slice(bytes);
        }
    }

    /// Keeps `name` in the symbol table even if it is a `.L` label, and has
    /// relocations name it (not its section).
    pub fn keep_symbol(&mut self, name: &str) {
        self.sym(name).keep = true;
    }

    /// Defines a kept local symbol at the current offset, named `.L0 ` in
    /// the symbol table as GNU as names its internal labels (several may
    /// share that name), and returns the name fixups refer to it by.
    pub fn define_anchor(&mut self) -> Result<String, String> {
        let mut name = String::with_capacity(ANCHOR.len() + 8);
        name.push_str(ANCHOR);
        push_decimal(&mut name, self.anchors);
        self.anchors += 1;
        self.define_label(&name)?;
        self.keep_symbol(&name);
        Ok(name)
    }

    /// Defines `name` at the current offset.
    pub fn define_label(&mut self, name: &str) -> Result<(), String> {
        let (section, value) = (self.current, self.offset() as u64);
        let s = self.sym(name);
        if s.section.is_some() || s.set_to.is_some() {
            return Err(format!("symbol `{name}` is already defined"));
        }
        s.section = Some(section);
        s.value = value;
        Ok(())
    }

    /// Marks `name` as a thread-local symbol (a TLS relocation names it).
    pub fn mark_tls(&mut self, name: &str) {
        self.sym(name).tls_ref = true;
    }

    /// Pads to a multiple of `a` (code padding in code sections), unless
    /// that takes more than `max` bytes (gas's third `.p2align` operand).
    fn align(&mut self, a: u64, max: Option<u64>, code: &dyn InstEncoder) {
        let s = &mut self.sections[self.current];
        s.align = s.align.max(a);
        let off = self.offset() as u64;
        let pad = (a - off % a) % a;
        if pad == 0 || max.is_some_and(|m| pad > m) {
            return;
        }
        let exec = self.sections[self.current].flags & elf::SHF_EXECINSTR != 0;
        let bytes = if exec {
            code.code_padding(pad as usize)
        } else {
            vec![0; pad as usize]
        };
        self.emit(&bytes);
    }

    fn align_fill(&mut self, a: u64, max: Option<u64>, fill: u8) {
        let s = &mut self.sections[self.current];
        s.align = s.align.max(a);
        let off = self.offset() as u64;
        let pad = (a - off % a) % a;
        if max.is_some_and(|m| pad > m) {
            return;
        }
        self.emit(&vec![fill; pad as usize]);
    }

    fn data_expr(&mut self, size: u8, e: &str) -> Result<(), String> {
        if let Some(v) = parse_int(e) {
            // A plain number (most data), without building an `Expr`.
            self.emit(&v.to_le_bytes()[..size as usize]);
            return Ok(());
        }
        let x = parse_expr(e).ok_or_else(|| format!("bad data expression `{e}`"))?;
        match (&x.symbol, &x.minus) {
            (None, _) => {
                let b = x.addend.to_le_bytes();
                self.emit(&b[..size as usize]);
            }
            (Some(s), None) => {
                let s = s.clone();
                self.emit_fixup(size, FixupKind::Abs, &s, None, x.addend);
            }
            (Some(s), Some(m)) => {
                let (s, m) = (s.clone(), m.clone());
                self.emit_fixup(size, FixupKind::PcRel, &s, Some(&m), x.addend);
            }
        }
        Ok(())
    }

    /// Records a mapping symbol when the current code section switches
    /// between instructions (`code`) and data.
    fn map(&mut self, code: bool) {
        let k = self.current;
        if self.sections[k].flags & elf::SHF_EXECINSTR != 0 && self.map_state.get(&k) != Some(&code) {
            self.map_state.insert(k, code);
            self.mapping.push((k, self.offset() as u64, code));
        }
    }

    fn directive(&mut self, name: &str, args: &str, code: &dyn InstEncoder) -> Result<(), String> {
        let bad = || format!("unsupported directive `{name} {args}`");
        if code.mapping_symbols()
            && matches!(
                name,
                ".byte"
                    | ".short"
                    | ".value"
                    | ".2byte"
                    | ".long"
                    | ".4byte"
                    | ".quad"
                    | ".8byte"
                    | ".word"
                    | ".zero"
                    | ".skip"
                    | ".string"
                    | ".asciz"
                    | ".ascii"
            )
        {
            self.map(false);
        }
        match name {
            ".text" => self.switch_section(".text", None),
            ".data" => self.switch_section(".data", None),
            ".bss" => self.switch_section(".bss", None),
            ".section" => {
                let parts = split_operands(args);
                // Section names may hold characters symbols may not (`.note.GNU-stack`).
                let first = parts.first().copied().unwrap_or("").trim();
                let sec = if first.starts_with('"') {
                    parse_symbol(first).ok_or_else(bad)?.0
                } else if !first.is_empty() && !first.contains(char::is_whitespace) {
                    first.to_string()
                } else {
                    return Err(bad());
                };
                let spec = if parts.len() >= 2 {
                    let flags_text = decode_string(parts[1]).ok_or_else(bad)?;
                    let mut flags = 0;
                    for f in flags_text {
                        flags |= match f {
                            b'a' => elf::SHF_ALLOC,
                            b'w' => elf::SHF_WRITE,
                            b'x' => elf::SHF_EXECINSTR,
                            b'M' => elf::SHF_MERGE,
                            b'S' => elf::SHF_STRINGS,
                            b'T' => elf::SHF_TLS,
                            _ => return Err(bad()),
                        };
                    }
                    let ty = match parts.get(2).map(|t| t.trim_start_matches(['@', '%'])) {
                        None | Some("progbits") => elf::SHT_PROGBITS,
                        Some("nobits") => elf::SHT_NOBITS,
                        Some("init_array") => elf::SHT_INIT_ARRAY,
                        Some("fini_array") => elf::SHT_FINI_ARRAY,
                        Some(_) => return Err(bad()),
                    };
                    Some((ty, flags))
                } else {
                    None
                };
                self.switch_section(&sec, spec);
            }
            ".globl" | ".global" | ".weak" | ".local" | ".hidden" | ".protected" | ".internal" => {
                let (sym, _) = parse_symbol(args).ok_or_else(bad)?;
                let s = self.sym(&sym);
                match name {
                    ".weak" => s.weak = true,
                    ".local" => s.local_decl = true,
                    ".hidden" => s.visibility = 2,
                    ".protected" => s.visibility = 3,
                    ".internal" => s.visibility = 1,
                    _ => s.global = true,
                }
            }
            ".type" => {
                let parts = split_operands(args);
                let (sym, _) = parse_symbol(parts.first().copied().unwrap_or("")).ok_or_else(bad)?;
                let ty = match parts.get(1).map(|t| t.trim_start_matches(['@', '%'])) {
                    Some("function") => SymType::Func,
                    Some("object") => SymType::Object,
                    Some("tls_object") => SymType::Tls,
                    Some("notype") => SymType::NoType,
                    _ => return Err(bad()),
                };
                self.sym(&sym).sym_type = Some(ty);
            }
            ".size" => {
                let parts = split_operands(args);
                let (sym, _) = parse_symbol(parts.first().copied().unwrap_or("")).ok_or_else(bad)?;
                let e = parts.get(1).copied().unwrap_or("").trim();
                let size = if let Some(v) = parse_int(e) {
                    v as u64
                } else if let Some(rest) = e.strip_prefix(".-") {
                    let (base, _) = parse_symbol(rest).ok_or_else(bad)?;
                    let here = self.offset() as u64;
                    let cur = self.current;
                    let b = self.sym(&base);
                    if b.section != Some(cur) {
                        return Err(bad());
                    }
                    here - b.value
                } else {
                    return Err(bad());
                };
                self.sym(&sym).size = Some(size);
            }
            ".p2align" => {
                let ops = split_operands(args);
                let n = parse_int(ops.first().copied().unwrap_or("")).ok_or_else(bad)?;
                if !(0..=16).contains(&n) {
                    return Err(bad());
                }
                let max = match ops.get(2).filter(|m| !m.trim().is_empty()) {
                    Some(m) => Some(parse_int(m).filter(|m| *m >= 0).ok_or_else(bad)? as u64),
                    None => None,
                };
                match ops.get(1).filter(|f| !f.trim().is_empty()) {
                    // `.p2align n, fill`: the padding is that byte, code or not (as gas).
                    Some(f) => {
                        let fill = parse_int(f).ok_or_else(bad)?;
                        self.align_fill(1 << n, max, fill as u8);
                    }
                    None => self.align(1 << n, max, code),
                }
            }
            ".byte" | ".short" | ".value" | ".2byte" | ".long" | ".4byte" | ".quad" | ".8byte" | ".word" => {
                let size = match name {
                    ".byte" => 1,
                    ".word" if code.target() == Target::X86_64 => 2,
                    ".word" => 4,
                    ".short" | ".value" | ".2byte" => 2,
                    ".long" | ".4byte" => 4,
                    _ => 8,
                };
                if let Some(bytes) = (size == 1).then(|| plain_byte_list(args)).flatten() {
                    self.emit(&bytes);
                } else {
                    let mut r = Ok(());
                    split_operands_with(args, |e| {
                        if r.is_ok() {
                            r = self.data_expr(size, e);
                        }
                    });
                    r?;
                }
            }
            ".zero" | ".skip" => {
                let n = parse_int(args).ok_or_else(bad)?;
                if !(0..=1 << 31).contains(&n) {
                    return Err(bad());
                }
                self.emit(&vec![0; n as usize]);
            }
            ".string" | ".asciz" => {
                let mut b = decode_string(args).ok_or_else(bad)?;
                b.push(0);
                self.emit(&b);
            }
            ".ascii" => {
                let b = decode_string(args).ok_or_else(bad)?;
                self.emit(&b);
            }
            ".comm" => {
                let parts = split_operands(args);
                let (sym, _) = parse_symbol(parts.first().copied().unwrap_or("")).ok_or_else(bad)?;
                let size = parse_int(parts.get(1).copied().unwrap_or("")).ok_or_else(bad)? as u64;
                let align = parts.get(2).and_then(|a| parse_int(a)).unwrap_or(1).max(1) as u64;
                if self.sym(&sym).local_decl {
                    let prev = self.current;
                    self.switch_section(".bss", None);
                    self.align(align, None, code);
                    self.define_label(&sym)?;
                    self.emit(&vec![0; size as usize]);
                    let s = self.sym(&sym);
                    s.size = Some(size);
                    s.sym_type.get_or_insert(SymType::Object);
                    self.current = prev;
                } else {
                    let s = self.sym(&sym);
                    s.common = Some((size, align));
                    s.global = true;
                    s.sym_type.get_or_insert(SymType::Object);
                }
            }
            ".set" | ".equ" => {
                let parts = split_operands(args);
                let (alias, _) = parse_symbol(parts.first().copied().unwrap_or("")).ok_or_else(bad)?;
                let (target, _) = parse_symbol(parts.get(1).copied().unwrap_or("")).ok_or_else(bad)?;
                self.sym(&target).referenced = true;
                self.sym(&alias).set_to = Some(target);
            }
            _ => return Err(bad()),
        }
        Ok(())
    }

    /// Assembles `text` (our backends' GNU as subset) with `code`.
    pub fn assemble(text: &str, code: &mut dyn InstEncoder) -> Result<Vec<u8>, String> {
        Self::parse(text, code)?.finish(code)
    }

    /// Reads all of `text` without resolving anything yet: a target that
    /// picks instruction sizes by distance (RISC-V branch relaxation)
    /// looks at [`ObjectBuilder::symbol_place`] and parses again before it
    /// calls [`ObjectBuilder::finish`].
    pub fn parse(text: &str, code: &mut dyn InstEncoder) -> Result<ObjectBuilder, String> {
        let mut b = ObjectBuilder::new();
        for (n, line) in lines(text).enumerate() {
            b.line(line, code)
                .map_err(|e| format!("line {}: {e}: `{}`", n + 1, line.trim()))?;
        }
        Ok(b)
    }

    /// The current section's index.
    pub fn current_section(&self) -> usize {
        self.current
    }

    /// Where `name` is defined: its section index and offset.
    pub fn symbol_place(&self, name: &str) -> Option<(usize, u64)> {
        let s = self.symbols.get(name)?;
        s.section.map(|k| (k, s.value))
    }

    /// Where `name` is defined when the definition is local (neither
    /// `.globl` nor `.weak`): the one definition every reference binds to,
    /// which the linker can neither replace nor interpose.
    pub fn local_definition(&self, name: &str) -> Option<(usize, u64)> {
        let s = self.symbols.get(name)?;
        if s.global || s.weak {
            return None;
        }
        s.section.map(|k| (k, s.value))
    }

    /// The bytes section `k` holds so far.
    pub fn section_len(&self, k: usize) -> usize {
        self.sections.get(k).map_or(0, |s| s.data.len())
    }

    fn line(&mut self, line: &str, code: &mut dyn InstEncoder) -> Result<(), String> {
        if line.is_empty() {
            return Ok(());
        }
        if !line.starts_with(['\t', ' ']) {
            // A label definition.
            let (name, rest) = parse_symbol(line).ok_or("bad label")?;
            if rest.trim() != ":" {
                return Err("bad label".into());
            }
            return self.define_label(&name);
        }
        let l = trim_start(line);
        let (word, args) = match l.bytes().position(|c| c == b'\t' || c == b' ') {
            Some(i) => (&l[..i], trim(&l[i + 1..])),
            None => (l, ""),
        };
        if word.starts_with('.') {
            return self.directive(word, args, code);
        }
        // Instruction, possibly with prefixes ("rep movsb", "lock xaddl").
        if code.mapping_symbols() {
            self.map(true);
        }
        let memo = code.memoizable() && self.sections[self.current].sh_type != elf::SHT_NOBITS;
        if memo {
            if let Some(bytes) = self.memo.get(l) {
                self.sections[self.current].data.extend_from_slice(bytes);
                return Ok(());
            }
        }
        // What an instruction that needs neither fixup nor symbol leaves alone.
        let untouched = |b: &ObjectBuilder| (b.current, b.fixups.len(), b.symbols.list.len());
        let (before, start) = (untouched(self), self.offset());
        self.in_instruction = true;
        let r = if matches!(word, "rep" | "lock" | "repz" | "repnz") {
            let (m, ops) = match args.find(['\t', ' ']) {
                Some(i) => (&args[..i], args[i + 1..].trim()),
                None => (args, ""),
            };
            code.encode(&format!("{word} {m}"), ops, self)
        } else {
            code.encode(word, args, self)
        };
        self.in_instruction = false;
        let pure = untouched(self) == before;
        if memo && r.is_ok() && (pure || crate::inject::enabled(crate::inject::Bug::AsmMemoKeepsFixups)) {
            let bytes = self.bytes_from(start).into();
            self.memo.insert(l.into(), bytes);
        }
        r
    }

    /// Resolves the fixups and writes the ELF object.
    pub fn finish(mut self, code: &dyn InstEncoder) -> Result<Vec<u8>, String> {
        // Resolve aliases (one level is all `.set` in our output needs).
        let aliases: Vec<(String, String)> = self
            .order
            .iter()
            .filter_map(|n| self.symbols[n.as_str()].set_to.clone().map(|t| (n.clone(), t)))
            .collect();
        for (alias, target) in aliases {
            let t = self.symbols.get(&target).cloned().unwrap_or_default();
            let a = self.sym(&alias);
            a.section = t.section;
            a.value = t.value;
            if a.sym_type.is_none() {
                a.sym_type = t.sym_type;
            }
            if a.size.is_none() {
                a.size = t.size;
            }
            if t.section.is_none() {
                return Err(format!("`.set {alias}` to undefined `{target}`"));
            }
        }
        // A difference written as an add/sub relocation pair names both
        // labels, as gas does (ld 2.40 mishandles a `R_RISCV_SUB32` addend,
        // so the section symbol plus an offset would not do).
        for f in &self.fixups {
            if let Some(m) = &f.minus {
                let sec = |n: &str| self.symbols.get(n).and_then(|s| s.section);
                if sec(&f.symbol) != sec(m) && code.difference_relocs(f.size).is_some() {
                    for n in [f.symbol.clone(), m.clone()] {
                        if let Some(s) = self.symbols.get_mut(&n) {
                            s.keep = true;
                        }
                    }
                }
            }
        }
        // Which symbols go to the table: everything but `.L` labels.
        let temp = |n: &str| n.starts_with(".L");
        let mut elf_syms: Vec<ElfSymbol> = Vec::new();
        let mut elf_index: FxHashMap<&str, usize> = FxHashMap::default();
        for name in &self.order {
            let s = &self.symbols[name.as_str()];
            if temp(name) && s.section.is_some() && !s.keep {
                continue;
            }
            if s.section.is_none() && s.common.is_none() && !s.referenced && !s.global && !s.weak {
                continue; // only mentioned by `.hidden` or `.type`
            }
            let binding = if s.weak {
                Binding::Weak
            } else if s.global || (s.section.is_none() && s.common.is_none()) {
                Binding::Global
            } else {
                Binding::Local
            };
            let in_tls = s.section.is_some_and(|k| self.sections[k].flags & elf::SHF_TLS != 0);
            let sym_type = if in_tls || s.tls_ref {
                SymType::Tls
            } else {
                s.sym_type.unwrap_or(SymType::NoType)
            };
            let (section, value, size) = match (s.section, s.common) {
                (Some(k), _) => (SymSection::Section(k), s.value, s.size.unwrap_or(0)),
                (None, Some((size, align))) => (SymSection::Common, align, size),
                (None, None) => (SymSection::Undefined, 0, 0),
            };
            elf_index.insert(name.as_str(), elf_syms.len());
            elf_syms.push(ElfSymbol {
                name: match name.split_once('\u{1}') {
                    Some((shown, _)) if s.keep => shown.to_string(),
                    _ => name.clone(),
                },
                binding,
                sym_type,
                visibility: s.visibility,
                section,
                value,
                size,
            });
        }
        // Fixups: resolve locally or turn into relocations.
        let mut relocs: Vec<Vec<ElfReloc>> = vec![Vec::new(); self.sections.len()];
        for (fi, f) in self.fixups.iter().enumerate() {
            if self.sections[f.section].sh_type == elf::SHT_NOBITS {
                return Err(format!(
                    "relocation in the no-bits section `{}`",
                    self.sections[f.section].name
                ));
            }
            let s = self
                .symbols
                .get(&f.symbol)
                .ok_or_else(|| format!("unknown symbol `{}`", f.symbol))?;
            let is_insn = self.instruction_fixup[fi];
            let local_def = s.section.is_some() && !s.global && !s.weak;
            let write = |data: &mut Vec<u8>, v: i64| {
                let b = v.to_le_bytes();
                data[f.offset..f.offset + f.size as usize].copy_from_slice(&b[..f.size as usize]);
            };
            if let Some(m) = &f.minus {
                let ms = self.symbols.get(m).ok_or_else(|| format!("unknown symbol `{m}`"))?;
                let msec = ms
                    .section
                    .ok_or_else(|| format!("`{m}` is undefined in a difference"))?;
                if s.section == Some(msec) {
                    let v = s.value as i64 - ms.value as i64 + f.addend;
                    write(&mut self.sections[f.section].data, v);
                    continue;
                }
                if let Some((add, sub)) = code.difference_relocs(f.size) {
                    let named = |s: &Symbol, name: &str, addend: i64| match s.section {
                        Some(k) if !s.global && !s.weak && !s.keep => {
                            Ok((RelocSymbol::SectionOf(k), addend + s.value as i64))
                        }
                        _ => elf_index
                            .get(name)
                            .map(|&i| (RelocSymbol::Symbol(i), addend))
                            .ok_or_else(|| format!("relocation against assembler-local `{name}`")),
                    };
                    for (r_type, (symbol, addend)) in [(add, named(s, &f.symbol, f.addend)?), (sub, named(ms, m, 0)?)] {
                        relocs[f.section].push(ElfReloc {
                            offset: f.offset as u64,
                            symbol,
                            r_type,
                            addend,
                        });
                    }
                    continue;
                }
                if msec != f.section {
                    return Err(format!("cannot express `{} - {m}`", f.symbol));
                }
                // a - b with b in this section: a + (P - b) - P, a PC-relative relocation.
                let addend = f.addend + f.offset as i64 - ms.value as i64;
                let r_type = code.reloc_type(FixupKind::PcRel, f.size, false)?;
                let (symbol, addend) = match (local_def, s.section) {
                    (true, Some(k)) => (RelocSymbol::SectionOf(k), addend + s.value as i64),
                    _ => (RelocSymbol::Symbol(elf_index[f.symbol.as_str()]), addend),
                };
                relocs[f.section].push(ElfReloc {
                    offset: f.offset as u64,
                    symbol,
                    r_type,
                    addend,
                });
                continue;
            }
            let same_section = s.section == Some(f.section);
            if f.kind == FixupKind::PcRel && same_section && local_def {
                let v = s.value as i64 + f.addend - f.offset as i64;
                if f.size == 4 && i32::try_from(v).is_err() {
                    return Err(format!("displacement to `{}` out of range", f.symbol));
                }
                write(&mut self.sections[f.section].data, v);
                continue;
            }
            if let FixupKind::Field(k) = f.kind {
                if same_section && local_def {
                    let v = s.value as i64 + f.addend - f.offset as i64;
                    let field = &mut self.sections[f.section].data[f.offset..f.offset + f.size as usize];
                    if code
                        .patch_field(k, field, v)
                        .map_err(|e| format!("`{}`: {e}", f.symbol))?
                    {
                        continue;
                    }
                }
            }
            let r_type = code.reloc_type(f.kind, f.size, is_insn)?;
            let via_section =
                local_def && !s.keep && matches!(f.kind, FixupKind::Abs | FixupKind::PcRel | FixupKind::Field(_));
            let (symbol, addend) = if via_section {
                (
                    RelocSymbol::SectionOf(s.section.unwrap_or(0)),
                    f.addend + s.value as i64,
                )
            } else {
                let i = *elf_index
                    .get(f.symbol.as_str())
                    .ok_or_else(|| format!("relocation against assembler-local `{}`", f.symbol))?;
                (RelocSymbol::Symbol(i), f.addend)
            };
            relocs[f.section].push(ElfReloc {
                offset: f.offset as u64,
                symbol,
                r_type,
                addend,
            });
        }
        for &(k, offset, is_code) in &self.mapping {
            elf_syms.push(ElfSymbol {
                name: if is_code { "$x" } else { "$d" }.to_string(),
                binding: Binding::Local,
                sym_type: SymType::NoType,
                visibility: 0,
                section: SymSection::Section(k),
                value: offset,
                size: 0,
            });
        }
        let sections: Vec<ElfSection> = self
            .sections
            .into_iter()
            .zip(relocs)
            .map(|(s, relocs)| ElfSection {
                name: s.name,
                sh_type: s.sh_type,
                flags: s.flags,
                align: s.align,
                data: s.data,
                nobits_size: s.nobits_size,
                relocs,
            })
            .collect();
        elf::write_object(code.target(), &sections, &elf_syms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line seen before reuses its bytes only when it needed no fixup: a
    /// repeated register move is copied, a repeated branch or call still gets
    /// its own relocation at its own offset. Expected bytes are the Intel
    /// SDM's (`REX.W 89 /r`, `E8 cd`, `E9 cd`).
    #[test]
    fn repeated_lines_reuse_bytes_but_not_fixups() {
        use object::read::{Object as _, ObjectSection as _};
        let text = "\t.text\nf:\n\tmovq\t%rax, %rbx\n\tcall\tg\n.L1:\n\tmovq\t%rax, %rbx\n\tcall\tg\n\tjmp\t.L1\n\tjmp\t.L1\n\tmovq\t%rax, %rbx\n";
        let obj = crate::backend::x86_64::encode::assemble(text).unwrap();
        let file = object::File::parse(&*obj).unwrap();
        let sec = file.section_by_name(".text").unwrap();
        let call = [0xe8, 0, 0, 0, 0];
        let mut want = vec![0x48, 0x89, 0xc3];
        want.extend(call);
        want.extend([0x48, 0x89, 0xc3]);
        want.extend(call);
        // `jmp .L1` (at 0x10 and 0x15) back to 0x8: rel32 from each end, -13 and -18.
        want.extend([0xe9, 0xf3, 0xff, 0xff, 0xff, 0xe9, 0xee, 0xff, 0xff, 0xff]);
        want.extend([0x48, 0x89, 0xc3]);
        assert_eq!(sec.data().unwrap(), &want[..]);
        let relocs: Vec<u64> = sec.relocations().map(|(at, _)| at).collect();
        assert_eq!(relocs, vec![4, 12], "one relocation per call");
    }

    /// `.byte` lists of plain decimals are read in one pass; anything else
    /// is left to the general path.
    #[test]
    fn plain_byte_lists_and_what_they_decline() {
        assert_eq!(plain_byte_list("7,0,255,100, 10 ,9"), Some(vec![7, 0, 255, 100, 10, 9]));
        assert_eq!(plain_byte_list("0"), Some(vec![0]));
        for declined in ["256", "-1", "010", "0x10", "sym", "1,,2", "", "1+1", "1000"] {
            assert_eq!(plain_byte_list(declined), None, "{declined}");
        }
    }

    /// The fast paths (decimal integers, trims, operand splitting, line
    /// splitting) give what the general library functions give.
    #[test]
    fn fast_paths_agree_with_the_general_ones() {
        let slow_int = |s: &str| -> Option<i64> {
            let s = s.trim();
            let (neg, body) = match s.strip_prefix('-') {
                Some(b) => (true, b),
                None => (false, s.strip_prefix('+').unwrap_or(s)),
            };
            let v = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16).ok()? as i64,
                None => body.parse::<u64>().ok()? as i64,
            };
            Some(if neg { v.wrapping_neg() } else { v })
        };
        for s in [
            "0",
            "-0",
            "7",
            "-7",
            " 12 ",
            "+5",
            "-+5",
            "0x1f",
            "-0X10",
            "123456789012345678",
            "-999999999999999999",
            "18446744073709551615",
            "18446744073709551616",
            "9223372036854775808",
            "",
            "-",
            "1a",
            "1 2",
            "\u{a0}3",
        ] {
            assert_eq!(parse_int(s), slow_int(s), "{s:?}");
        }
        for s in ["", " ", "a", " a ", "\ta\n", "\u{a0}a\u{2003}", "é", "a\u{b}", "\u{1}b"] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
            assert_eq!(trim_start(s), s.trim_start(), "{s:?}");
        }
        for s in ["", "a", "a, b", "a,(b, c), \"d,\\\"e\", f", "1,2,3,4,5,6", ",", " x , "] {
            assert_eq!(&*Operands::split(s), &split_operands(s)[..], "{s:?}");
        }
        for s in ["", "\n", "a", "a\n", "a\r\nb", "a\n\nb\r", "\r\n\r\n", "x\ry\n"] {
            assert_eq!(lines(s).collect::<Vec<_>>(), s.lines().collect::<Vec<_>>(), "{s:?}");
        }
        assert_eq!(mnemonic_key("add"), Some(u64::from_le_bytes(*b"add\0\0\0\0\0")));
        assert_eq!((mnemonic_key("add\0"), mnemonic_key("fcvt.d.lu")), (None, None));
    }

    #[test]
    fn expressions_and_operands() {
        assert_eq!(parse_int("-0x10"), Some(-16));
        assert_eq!(
            parse_expr("arr-4"),
            Some(Expr {
                symbol: Some("arr".into()),
                minus: None,
                addend: -4
            })
        );
        assert_eq!(
            parse_expr(".LBB3-.LJT1"),
            Some(Expr {
                symbol: Some(".LBB3".into()),
                minus: Some(".LJT1".into()),
                addend: 0
            })
        );
        assert_eq!(parse_expr("\"a b\"+8").unwrap().symbol.as_deref(), Some("a b"));
        assert_eq!(split_operands("-8(%rbp,%rax,4), %rcx"), vec!["-8(%rbp,%rax,4)", "%rcx"]);
        assert_eq!(split_operands(""), Vec::<&str>::new());
        assert_eq!(decode_string("\"a\\\"\\012\\\\\"").unwrap(), b"a\"\n\\".to_vec());
    }

    /// `.p2align 4,,10` pads to 16 bytes only when that takes at most 10.
    #[test]
    fn p2align_skips_padding_beyond_its_maximum() {
        use ::object::{Object as _, ObjectSection as _};
        let text_size = |nops: usize| {
            let src = format!("\t.text\n{}\t.p2align\t4,,10\n\tret\n", "\tnop\n".repeat(nops));
            let obj = crate::backend::x86_64::encode::assemble(&src).unwrap();
            let file = ::object::File::parse(&*obj).unwrap();
            let size = file.section_by_name(".text").unwrap().size();
            size
        };
        assert_eq!(text_size(1), 2, "15 bytes of padding is over the maximum");
        assert_eq!(text_size(6), 17, "10 bytes of padding is not");
        assert_eq!(text_size(16), 17, "already aligned");
        let filled = |nops: usize| {
            let src = format!("\t.text\n{}\t.p2align\t4,0xcc,3\n\tret\n", "\tnop\n".repeat(nops));
            let obj = crate::backend::x86_64::encode::assemble(&src).unwrap();
            let file = ::object::File::parse(&*obj).unwrap();
            let data = file.section_by_name(".text").unwrap().data().unwrap().to_vec();
            data
        };
        assert_eq!(filled(13), [vec![0x90; 13], vec![0xcc; 3], vec![0xc3]].concat());
        assert_eq!(filled(12), [vec![0x90; 12], vec![0xc3]].concat());
    }
}
