//! An ELF64 relocatable object writer (System V gABI, "Object Files":
//! header, section header table, `.symtab`/`.strtab`, `SHT_RELA`
//! sections), shared by every target's integrated assembler: the target only
//! supplies `e_machine` and its relocation type numbers.
//!
//! Layout: the ELF header, the contents of every section in order (each
//! aligned to its alignment), the relocation sections, `.symtab`, `.strtab`,
//! `.shstrtab`, then the section header table. In `.symtab` the null entry,
//! one `STT_SECTION` symbol per section and the other local symbols come
//! first (`sh_info` is the index of the first global), as the gABI requires.

/// `sh_type` values.
pub const SHT_PROGBITS: u32 = 1;
pub const SHT_SYMTAB: u32 = 2;
pub const SHT_STRTAB: u32 = 3;
pub const SHT_RELA: u32 = 4;
pub const SHT_NOBITS: u32 = 8;
pub const SHT_INIT_ARRAY: u32 = 14;
pub const SHT_FINI_ARRAY: u32 = 15;

/// `sh_flags` bits.
pub const SHF_WRITE: u64 = 0x1;
pub const SHF_ALLOC: u64 = 0x2;
pub const SHF_EXECINSTR: u64 = 0x4;
pub const SHF_MERGE: u64 = 0x10;
pub const SHF_STRINGS: u64 = 0x20;
pub const SHF_INFO_LINK: u64 = 0x40;
pub const SHF_TLS: u64 = 0x400;

/// Symbol binding (`st_info >> 4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    Local = 0,
    Global = 1,
    Weak = 2,
}

/// Symbol type (`st_info & 0xf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymType {
    NoType = 0,
    Object = 1,
    Func = 2,
    Section = 3,
    Tls = 6,
}

/// Where a symbol is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymSection {
    Undefined,
    /// Index into the writer's section list.
    Section(usize),
    /// A common symbol: `value` holds its alignment.
    Common,
}

/// A section to write.
#[derive(Clone, Debug)]
pub struct ElfSection {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub align: u64,
    /// Contents (empty for `SHT_NOBITS`, whose size is `nobits_size`).
    pub data: Vec<u8>,
    pub nobits_size: u64,
    pub relocs: Vec<ElfReloc>,
}

/// A relocation of a section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElfReloc {
    pub offset: u64,
    /// Index into the writer's symbol list, or `None` for the section symbol of `section`.
    pub symbol: RelocSymbol,
    pub r_type: u32,
    pub addend: i64,
}

/// What a relocation refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocSymbol {
    Symbol(usize),
    SectionOf(usize),
}

/// A symbol to write.
#[derive(Clone, Debug)]
pub struct ElfSymbol {
    pub name: String,
    pub binding: Binding,
    pub sym_type: SymType,
    /// `STV_*` visibility (0 default, 1 internal, 2 hidden, 3 protected).
    pub visibility: u8,
    pub section: SymSection,
    pub value: u64,
    pub size: u64,
}

struct StrTab {
    bytes: Vec<u8>,
}

impl StrTab {
    fn new() -> StrTab {
        StrTab { bytes: vec![0] }
    }

    fn add(&mut self, s: &str) -> u32 {
        if s.is_empty() {
            return 0;
        }
        let off = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        off
    }
}

fn align_to(buf: &mut Vec<u8>, a: u64) {
    let a = a.max(1) as usize;
    while !buf.len().is_multiple_of(a) {
        buf.push(0);
    }
}

fn put_u16(b: &mut Vec<u8>, v: u16) {
    b.extend_from_slice(&v.to_le_bytes());
}
fn put_u32(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_le_bytes());
}
fn put_u64(b: &mut Vec<u8>, v: u64) {
    b.extend_from_slice(&v.to_le_bytes());
}

#[allow(clippy::too_many_arguments)]
fn section_header(
    b: &mut Vec<u8>,
    name: u32,
    sh_type: u32,
    flags: u64,
    offset: u64,
    size: u64,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
) {
    put_u32(b, name);
    put_u32(b, sh_type);
    put_u64(b, flags);
    put_u64(b, 0);
    put_u64(b, offset);
    put_u64(b, size);
    put_u32(b, link);
    put_u32(b, info);
    put_u64(b, align);
    put_u64(b, entsize);
}

/// Writes a relocatable object for `e_machine` (62 for x86-64).
pub fn write_object(e_machine: u16, sections: &[ElfSection], symbols: &[ElfSymbol]) -> Vec<u8> {
    let mut out = vec![0u8; 64];
    let mut shstr = StrTab::new();
    let mut strtab = StrTab::new();
    // Section contents.
    let mut offsets = Vec::with_capacity(sections.len());
    for s in sections {
        align_to(&mut out, s.align);
        offsets.push(out.len() as u64);
        if s.sh_type != SHT_NOBITS {
            out.extend_from_slice(&s.data);
        }
    }
    // Symbol table: null, section symbols, locals, then globals.
    let nsec = sections.len();
    let locals: Vec<usize> = (0..symbols.len())
        .filter(|&i| symbols[i].binding == Binding::Local)
        .collect();
    let globals: Vec<usize> = (0..symbols.len())
        .filter(|&i| symbols[i].binding != Binding::Local)
        .collect();
    let mut sym_index = vec![0u32; symbols.len()];
    let first_local = 1 + nsec;
    for (k, &i) in locals.iter().enumerate() {
        sym_index[i] = (first_local + k) as u32;
    }
    let first_global = first_local + locals.len();
    for (k, &i) in globals.iter().enumerate() {
        sym_index[i] = (first_global + k) as u32;
    }
    let mut symtab = vec![0u8; 24];
    for k in 0..nsec {
        put_u32(&mut symtab, 0);
        symtab.push(SymType::Section as u8);
        symtab.push(0);
        put_u16(&mut symtab, (k + 1) as u16);
        put_u64(&mut symtab, 0);
        put_u64(&mut symtab, 0);
    }
    for &i in locals.iter().chain(globals.iter()) {
        let s = &symbols[i];
        put_u32(&mut symtab, strtab.add(&s.name));
        symtab.push(((s.binding as u8) << 4) | s.sym_type as u8);
        symtab.push(s.visibility & 3);
        let shndx: u16 = match s.section {
            SymSection::Undefined => 0,
            SymSection::Section(k) => (k + 1) as u16,
            SymSection::Common => 0xfff2,
        };
        put_u16(&mut symtab, shndx);
        put_u64(&mut symtab, s.value);
        put_u64(&mut symtab, s.size);
    }
    // Relocation sections.
    let mut rela_offsets = Vec::new();
    for s in sections.iter() {
        if s.relocs.is_empty() {
            continue;
        }
        align_to(&mut out, 8);
        rela_offsets.push(out.len() as u64);
        for r in &s.relocs {
            let sym = match r.symbol {
                RelocSymbol::Symbol(i) => sym_index[i] as u64,
                RelocSymbol::SectionOf(k) => (k + 1) as u64,
            };
            put_u64(&mut out, r.offset);
            put_u64(&mut out, (sym << 32) | r.r_type as u64);
            put_u64(&mut out, r.addend as u64);
        }
    }
    align_to(&mut out, 8);
    let symtab_off = out.len() as u64;
    out.extend_from_slice(&symtab);
    let strtab_off = out.len() as u64;
    out.extend_from_slice(&strtab.bytes);
    // Section names.
    let names: Vec<u32> = sections.iter().map(|s| shstr.add(&s.name)).collect();
    let rela_names: Vec<u32> = sections
        .iter()
        .filter(|s| !s.relocs.is_empty())
        .map(|s| shstr.add(&format!(".rela{}", s.name)))
        .collect();
    let symtab_name = shstr.add(".symtab");
    let strtab_name = shstr.add(".strtab");
    let shstrtab_name = shstr.add(".shstrtab");
    let shstr_off = out.len() as u64;
    out.extend_from_slice(&shstr.bytes);
    align_to(&mut out, 8);
    let shoff = out.len() as u64;
    // Section headers.
    let nrela = rela_offsets.len();
    let symtab_index = (1 + nsec + nrela) as u32;
    let mut sh = Vec::new();
    section_header(&mut sh, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    for (k, s) in sections.iter().enumerate() {
        let size = if s.sh_type == SHT_NOBITS {
            s.nobits_size
        } else {
            s.data.len() as u64
        };
        let entsize = if matches!(s.sh_type, SHT_INIT_ARRAY | SHT_FINI_ARRAY) {
            8
        } else {
            0
        };
        section_header(
            &mut sh,
            names[k],
            s.sh_type,
            s.flags,
            offsets[k],
            size,
            0,
            0,
            s.align.max(1),
            entsize,
        );
    }
    let mut r = 0;
    for (k, s) in sections.iter().enumerate() {
        if s.relocs.is_empty() {
            continue;
        }
        section_header(
            &mut sh,
            rela_names[r],
            SHT_RELA,
            SHF_INFO_LINK,
            rela_offsets[r],
            24 * s.relocs.len() as u64,
            symtab_index,
            (k + 1) as u32,
            8,
            24,
        );
        r += 1;
    }
    section_header(
        &mut sh,
        symtab_name,
        SHT_SYMTAB,
        0,
        symtab_off,
        symtab.len() as u64,
        symtab_index + 1,
        first_global as u32,
        8,
        24,
    );
    section_header(
        &mut sh,
        strtab_name,
        SHT_STRTAB,
        0,
        strtab_off,
        strtab.bytes.len() as u64,
        0,
        0,
        1,
        0,
    );
    section_header(
        &mut sh,
        shstrtab_name,
        SHT_STRTAB,
        0,
        shstr_off,
        shstr.bytes.len() as u64,
        0,
        0,
        1,
        0,
    );
    out.extend_from_slice(&sh);
    let shnum = (1 + nsec + nrela + 3) as u16;
    // ELF header.
    let mut h = Vec::with_capacity(64);
    h.extend_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1, 1, 0]);
    h.extend_from_slice(&[0; 8]);
    put_u16(&mut h, 1); // ET_REL
    put_u16(&mut h, e_machine);
    put_u32(&mut h, 1);
    put_u64(&mut h, 0);
    put_u64(&mut h, 0);
    put_u64(&mut h, shoff);
    put_u32(&mut h, 0);
    put_u16(&mut h, 64);
    put_u16(&mut h, 0);
    put_u16(&mut h, 0);
    put_u16(&mut h, 64);
    put_u16(&mut h, shnum);
    put_u16(&mut h, shnum - 1);
    out[..64].copy_from_slice(&h);
    out
}
