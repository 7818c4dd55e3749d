//! Struct and union layout (C11 6.7.2.1) for the System V AMD64, AAPCS64 and
//! RISC-V ELF psABIs, which agree for C records on these LP64 targets.
//! The rules follow gcc's `place_field`:
//! * an ordinary member goes at the next multiple of its alignment (capped by
//!   `#pragma pack(n)`, 1 under `__attribute__((packed))`, raised by
//!   `aligned(n)`);
//! * a bit-field goes at the next free bit unless it would straddle a unit
//!   of its declared type's alignment, in which case it starts at the next such
//!   unit (no straddle check when packed or under `#pragma pack`);
//! * a zero-width bit-field moves to the next unit of its type's alignment;
//! * named bit-fields raise the record's alignment like members of their
//!   type; unnamed ones do not, except on AArch64, where gcc follows AAPCS64
//!   and lets every bit-field's declared type (zero-width ones included)
//!   raise the alignment (`RecordAttrs::unnamed_bitfields_align`);
//! * the size is rounded up to the alignment; union members all sit at 0.
//!
//! The unit tests here check x86-64 layouts with the host gcc; the sema
//! tests (`sema/tests/types.rs`) check every target with its cross gcc.

/// One member as the layout engine sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    /// Size and alignment of the member's type (for a flexible array: size 0).
    pub size: u64,
    pub align: u64,
    /// `Some(width)` for a bit-field.
    pub bit_width: Option<u32>,
    /// A named member (unnamed bit-fields do not affect the alignment).
    pub named: bool,
    /// `__attribute__((packed))` on the member.
    pub packed: bool,
    /// `__attribute__((aligned(n)))` on the member.
    pub aligned: Option<u64>,
}

impl FieldSpec {
    pub fn plain(size: u64, align: u64) -> FieldSpec {
        FieldSpec {
            size,
            align,
            bit_width: None,
            named: true,
            packed: false,
            aligned: None,
        }
    }

    pub fn bits(size: u64, align: u64, width: u32) -> FieldSpec {
        FieldSpec {
            size,
            align,
            bit_width: Some(width),
            named: width > 0,
            packed: false,
            aligned: None,
        }
    }
}

/// Attributes of the record as a whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordAttrs {
    pub is_union: bool,
    /// `__attribute__((packed))` on the struct.
    pub packed: bool,
    /// `#pragma pack(n)` in effect at the definition.
    pub pack: Option<u64>,
    /// `__attribute__((aligned(n)))` on the struct.
    pub aligned: Option<u64>,
    /// Unnamed bit-fields raise the record's alignment too (AArch64).
    pub unnamed_bitfields_align: bool,
}

/// Where a member landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldPlacement {
    /// Byte offset of the member (for a bit-field: of its first byte).
    pub offset: u64,
    /// For a bit-field: the bit offset within the byte at `offset` (0-7).
    pub bit_offset: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    pub fields: Vec<FieldPlacement>,
    pub size: u64,
    pub align: u64,
}

/// Errors the layout engine reports (the caller attaches a span).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    BitFieldTooWide { index: usize },
    BadAlignment { index: Option<usize> },
    TooLarge,
}

fn align_up(v: u128, a: u128) -> Option<u128> {
    if a <= 1 {
        return Some(v);
    }
    v.checked_add(a - 1).map(|x| x / a * a)
}

/// A byte count of bit positions that are computed in `u128` (a record of
/// 2^61 bytes or more has more bits than a `u64` holds; gcc.c-torture
/// 991014-1), back in `u64`.
fn bytes(bits: u128) -> Result<u64, LayoutError> {
    u64::try_from(bits / 8).map_err(|_| LayoutError::TooLarge)
}

/// Lays out a struct or union (see the module doc for the rules).
pub fn layout_record(fields: &[FieldSpec], attrs: RecordAttrs) -> Result<RecordLayout, LayoutError> {
    let mut bit: u128 = 0; // next free bit (structs)
    let mut max_bits: u128 = 0; // size in bits (unions)
    let mut align: u64 = 1;
    let mut out = Vec::with_capacity(fields.len());
    for (i, f) in fields.iter().enumerate() {
        if !f.align.is_power_of_two() || f.aligned.is_some_and(|a| !a.is_power_of_two()) {
            return Err(LayoutError::BadAlignment { index: Some(i) });
        }
        let packed = attrs.packed || f.packed;
        // Alignment the member's position must honour.
        let mut field_align = if packed { 1 } else { f.align };
        if let Some(p) = attrs.pack {
            field_align = field_align.min(p);
        }
        if let Some(a) = f.aligned {
            field_align = field_align.max(a);
        }
        let start = if attrs.is_union { 0 } else { bit };
        match f.bit_width {
            None => {
                let at = align_up(start, field_align as u128 * 8).ok_or(LayoutError::TooLarge)?;
                let end = at + f.size as u128 * 8;
                out.push(FieldPlacement {
                    offset: bytes(at)?,
                    bit_offset: 0,
                });
                if attrs.is_union {
                    max_bits = max_bits.max(end);
                } else {
                    bit = end;
                }
                align = align.max(field_align);
            }
            Some(w) => {
                let type_bits = f.size as u128 * 8;
                if w as u128 > type_bits {
                    return Err(LayoutError::BitFieldTooWide { index: i });
                }
                let unit = f.align as u128 * 8;
                let at = if w == 0 {
                    let unit = match attrs.pack {
                        Some(p) => p.min(f.align) as u128 * 8,
                        None => unit,
                    };
                    align_up(start, unit).ok_or(LayoutError::TooLarge)?
                } else if !packed && attrs.pack.is_none() && (start % unit) + w as u128 > type_bits {
                    align_up(start, unit).ok_or(LayoutError::TooLarge)?
                } else if let Some(a) = f.aligned {
                    align_up(start, a as u128 * 8).ok_or(LayoutError::TooLarge)?
                } else {
                    start
                };
                out.push(FieldPlacement {
                    offset: bytes(at)?,
                    bit_offset: (at % 8) as u32,
                });
                let end = at + w as u128;
                if attrs.is_union {
                    max_bits = max_bits.max(end);
                } else {
                    bit = end;
                }
                if f.named || attrs.unnamed_bitfields_align {
                    align = align.max(field_align);
                }
            }
        }
    }
    if let Some(a) = attrs.aligned {
        if !a.is_power_of_two() {
            return Err(LayoutError::BadAlignment { index: None });
        }
        align = align.max(a);
    }
    let bits = if attrs.is_union { max_bits } else { bit };
    let size = align_up(bits.div_ceil(8), align as u128).ok_or(LayoutError::TooLarge)?;
    Ok(RecordLayout {
        fields: out,
        size: u64::try_from(size).map_err(|_| LayoutError::TooLarge)?,
        align,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    const CHAR: (u64, u64) = (1, 1);
    const SHORT: (u64, u64) = (2, 2);
    const INT: (u64, u64) = (4, 4);
    const LL: (u64, u64) = (8, 8);

    fn p((s, a): (u64, u64)) -> FieldSpec {
        FieldSpec::plain(s, a)
    }
    fn b((s, a): (u64, u64), w: u32) -> FieldSpec {
        FieldSpec::bits(s, a, w)
    }

    struct Case {
        decl: &'static str,
        fields: Vec<FieldSpec>,
        attrs: RecordAttrs,
        /// Names of members whose offsetof we check (non-bit-fields), with their index.
        members: Vec<(&'static str, usize)>,
    }

    fn cases() -> Vec<Case> {
        let s = RecordAttrs::default();
        let packed = RecordAttrs { packed: true, ..s };
        let pack2 = RecordAttrs { pack: Some(2), ..s };
        let union = RecordAttrs { is_union: true, ..s };
        vec![
            Case {
                decl: "struct A { char a; int :0; char b; }",
                fields: vec![p(CHAR), b(INT, 0), p(CHAR)],
                attrs: s,
                members: vec![("b", 2)],
            },
            Case {
                decl: "struct B { char a; int b:4; char c; }",
                fields: vec![p(CHAR), b(INT, 4), p(CHAR)],
                attrs: s,
                members: vec![("c", 2)],
            },
            Case {
                decl: "struct C { char a:3; char b:6; }",
                fields: vec![b(CHAR, 3), b(CHAR, 6)],
                attrs: s,
                members: vec![],
            },
            Case {
                decl: "struct D { int a:3; long long b:40; char c; }",
                fields: vec![b(INT, 3), b(LL, 40), p(CHAR)],
                attrs: s,
                members: vec![("c", 2)],
            },
            Case {
                decl: "struct __attribute__((packed)) E { char a; int b:20; char c; }",
                fields: vec![p(CHAR), b(INT, 20), p(CHAR)],
                attrs: packed,
                members: vec![("c", 2)],
            },
            Case {
                decl: "struct G { char a; short :0; char b; }",
                fields: vec![p(CHAR), b(SHORT, 0), p(CHAR)],
                attrs: s,
                members: vec![("b", 2)],
            },
            Case {
                decl: "struct H { char a; long long :0; }",
                fields: vec![p(CHAR), b(LL, 0)],
                attrs: s,
                members: vec![],
            },
            Case {
                decl: "union U { char a; int b:3; long long c:40; }",
                fields: vec![p(CHAR), b(INT, 3), b(LL, 40)],
                attrs: union,
                members: vec![],
            },
            Case {
                decl: "struct I { char a; int b:31; int c:2; }",
                fields: vec![p(CHAR), b(INT, 31), b(INT, 2)],
                attrs: s,
                members: vec![],
            },
            Case {
                decl: "struct J { char a; long long b; short c; }",
                fields: vec![p(CHAR), p(LL), p(SHORT)],
                attrs: s,
                members: vec![("b", 1), ("c", 2)],
            },
            Case {
                decl: "struct K { char a; int b[]; }",
                fields: vec![p(CHAR), p((0, 4))],
                attrs: s,
                members: vec![("b", 1)],
            },
            Case {
                decl: "struct L { char a; long double d; __int128 i; }",
                fields: vec![p(CHAR), p((16, 16)), p((16, 16))],
                attrs: s,
                members: vec![("d", 1), ("i", 2)],
            },
            Case {
                decl: "struct M { char a; int b __attribute__((aligned(16))); }",
                fields: vec![
                    p(CHAR),
                    FieldSpec {
                        aligned: Some(16),
                        ..p(INT)
                    },
                ],
                attrs: s,
                members: vec![("b", 1)],
            },
            Case {
                decl: "struct __attribute__((aligned(32))) N { char a; }",
                fields: vec![p(CHAR)],
                attrs: RecordAttrs { aligned: Some(32), ..s },
                members: vec![],
            },
            Case {
                decl: "struct O { char a; unsigned long long b:7, c:58; unsigned d:1; }",
                fields: vec![p(CHAR), b(LL, 7), b(LL, 58), b(INT, 1)],
                attrs: s,
                members: vec![],
            },
            Case {
                decl: "#pragma pack(2)\nstruct F { char a; int b; long long c:33; };\n#pragma pack()\nstruct F",
                fields: vec![p(CHAR), p(INT), b(LL, 33)],
                attrs: pack2,
                members: vec![("b", 1)],
            },
        ]
    }

    #[test]
    fn layouts_match_gcc_on_x86_64() {
        let mut src = String::from("#include <stddef.h>\n");
        let mut checks = 0;
        for (n, c) in cases().iter().enumerate() {
            let l = layout_record(&c.fields, c.attrs).unwrap();
            let (decl, ty) = match c.decl.rfind("\nstruct ") {
                Some(i) => (c.decl[..i].to_string(), c.decl[i + 1..].to_string()),
                None => (format!("{};", c.decl), {
                    let kw = if c.decl.starts_with("union") { "union" } else { "struct" };
                    let name = c
                        .decl
                        .split_whitespace()
                        .find(|w| w.len() == 1 && w.chars().all(|ch| ch.is_ascii_uppercase()))
                        .unwrap();
                    format!("{kw} {name}")
                }),
            };
            src.push_str(&decl);
            src.push('\n');
            src.push_str(&format!("_Static_assert(sizeof({ty}) == {}, \"size {n}\");\n", l.size));
            src.push_str(&format!(
                "_Static_assert(_Alignof({ty}) == {}, \"align {n}\");\n",
                l.align
            ));
            for (m, idx) in &c.members {
                src.push_str(&format!(
                    "_Static_assert(offsetof({ty}, {m}) == {}, \"offset {n} {m}\");\n",
                    l.fields[*idx].offset
                ));
            }
            checks += 2 + c.members.len();
        }
        let dir = std::env::temp_dir().join(format!("phicc_layout_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("layout.c");
        std::fs::write(&file, &src).unwrap();
        match Command::new("gcc")
            .args(["-fsyntax-only", "-std=gnu11"])
            .arg(&file)
            .output()
        {
            Ok(out) => assert!(
                out.status.success(),
                "gcc disagrees:\n{}\n{src}",
                String::from_utf8_lossy(&out.stderr)
            ),
            Err(_) => crate::test_skip::tool_missing(&format!("{checks} layout checks"), "gcc not available"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bit_positions() {
        // struct B: b sits at bits 8..12, i.e. byte 1 bit 0.
        let l = layout_record(&[p(CHAR), b(INT, 4), p(CHAR)], RecordAttrs::default()).unwrap();
        assert_eq!(
            l.fields[1],
            FieldPlacement {
                offset: 1,
                bit_offset: 0
            }
        );
        // struct D: b at bit 3.
        let l = layout_record(&[b(INT, 3), b(LL, 40), p(CHAR)], RecordAttrs::default()).unwrap();
        assert_eq!(
            l.fields[1],
            FieldPlacement {
                offset: 0,
                bit_offset: 3
            }
        );
        assert_eq!(l.fields[2].offset, 6);
        assert_eq!(
            layout_record(&[b(INT, 33)], RecordAttrs::default()),
            Err(LayoutError::BitFieldTooWide { index: 0 })
        );
        assert_eq!(
            layout_record(&[p((4, 3))], RecordAttrs::default()),
            Err(LayoutError::BadAlignment { index: Some(0) })
        );
        // More bits than a u64 holds, still bytes that do (991014-1).
        let huge = (1u64 << 63) - 512;
        let l = layout_record(&[p((huge, 2)), p(INT), p(INT)], RecordAttrs::default()).unwrap();
        assert_eq!(l.fields[2].offset, huge + 4);
        assert_eq!(l.size, huge + 8);
        assert_eq!(
            layout_record(&[p((1 << 63, 1)), p((1 << 63, 1))], RecordAttrs::default()),
            Err(LayoutError::TooLarge)
        );
    }
}
