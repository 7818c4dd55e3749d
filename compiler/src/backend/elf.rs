//! ELF64 relocatable objects for every target's integrated assembler: the
//! assembler's sections, symbols and relocations (System V gABI, "Object
//! Files") in a small neutral form, written by the `object` crate's ELF
//! writer (`object::write`). The target only supplies its relocation type
//! numbers; its ELF machine comes from the target table.

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

use crate::target::Target;

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

/// Writes a relocatable object for `target` (its `e_machine` and `object`
/// architecture are in the target table) with the `object` crate's ELF writer. Every
/// section keeps exactly the `sh_type`/`sh_flags` the assembly asked for and
/// every symbol its binding, type and visibility; the crate orders the
/// symbol table (locals first) and lays out the file.
pub fn write_object(target: Target, sections: &[ElfSection], symbols: &[ElfSymbol]) -> Result<Vec<u8>, String> {
    use ::object::write::{Object, Relocation, SectionId, Symbol, SymbolId, SymbolSection as ObjSection};
    use ::object::{
        BinaryFormat, Endianness, RelocationFlags, SectionFlags, SectionKind, SymbolFlags, SymbolKind, SymbolScope,
    };
    let arch = target.info().object_architecture;
    let mut obj = Object::new(BinaryFormat::Elf, arch, Endianness::Little);
    if target == Target::Riscv64 {
        // As GNU as for rv64gc/lp64d: EF_RISCV_RVC | EF_RISCV_FLOAT_ABI_DOUBLE
        // (ld refuses to mix float ABIs, so the flag is not optional).
        obj.flags = ::object::FileFlags::Elf {
            os_abi: ::object::elf::ELFOSABI_NONE,
            abi_version: 0,
            e_flags: ::object::elf::FileFlags(0x5),
        };
    }
    let mut ids: Vec<SectionId> = Vec::with_capacity(sections.len());
    for s in sections {
        let kind = if s.sh_type == SHT_NOBITS {
            if s.flags & SHF_TLS != 0 {
                SectionKind::UninitializedTls
            } else {
                SectionKind::UninitializedData
            }
        } else if s.flags & SHF_STRINGS != 0 {
            // Gives `sh_entsize` 1, as gas does for `"aMS",@progbits,1`.
            SectionKind::ReadOnlyString
        } else if s.flags & SHF_EXECINSTR != 0 {
            SectionKind::Text
        } else {
            SectionKind::Data
        };
        let id = obj.add_section(Vec::new(), s.name.as_bytes().to_vec(), kind);
        obj.section_mut(id).flags = SectionFlags::Elf {
            sh_type: ::object::elf::SectionType(s.sh_type),
            sh_flags: ::object::elf::SectionFlags(s.flags),
        };
        let align = s.align.max(1);
        if s.sh_type == SHT_NOBITS {
            obj.append_section_bss(id, s.nobits_size, align);
        } else {
            obj.set_section_data(id, s.data.as_slice(), align);
        }
        ids.push(id);
    }
    let mut sym_ids: Vec<SymbolId> = Vec::with_capacity(symbols.len());
    for s in symbols {
        let (section, value) = match s.section {
            SymSection::Undefined => (ObjSection::Undefined, s.value),
            SymSection::Section(k) => (ObjSection::Section(ids[k]), s.value),
            SymSection::Common => (ObjSection::Common, s.value),
        };
        let scope = if s.binding == Binding::Local {
            SymbolScope::Compilation
        } else {
            SymbolScope::Linkage
        };
        sym_ids.push(obj.add_symbol(Symbol {
            name: s.name.as_bytes().to_vec(),
            value,
            size: s.size,
            // The kind only matters to the crate for its defaults; the ELF
            // fields are given exactly below.
            kind: SymbolKind::Unknown,
            scope,
            weak: s.binding == Binding::Weak,
            section,
            flags: SymbolFlags::Elf {
                st_info: ::object::elf::SymbolInfo(((s.binding as u8) << 4) | s.sym_type as u8),
                st_other: ::object::elf::SymbolOther(s.visibility & 3),
            },
        }));
    }
    for (k, s) in sections.iter().enumerate() {
        for r in &s.relocs {
            let symbol = match r.symbol {
                RelocSymbol::Symbol(i) => sym_ids[i],
                RelocSymbol::SectionOf(j) => obj.section_symbol(ids[j]),
            };
            obj.add_relocation(
                ids[k],
                Relocation {
                    offset: r.offset,
                    symbol,
                    addend: r.addend,
                    flags: RelocationFlags::Elf {
                        r_type: ::object::elf::RelocationType(r.r_type),
                    },
                },
            )
            .map_err(|e| format!("relocation at {}+{:#x}: {e}", s.name, r.offset))?;
        }
    }
    obj.write().map_err(|e| format!("cannot write the object file: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_carry_the_tables_elf_machine() {
        for t in Target::ALL {
            let bytes = write_object(t, &[], &[]).unwrap();
            assert_eq!(&bytes[..4], b"\x7fELF");
            // e_machine: a little-endian u16 at offset 18 of the ELF header.
            assert_eq!(u16::from_le_bytes([bytes[18], bytes[19]]), t.info().elf_machine, "{t}");
        }
    }
}
