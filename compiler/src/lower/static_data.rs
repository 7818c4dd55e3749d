//! Objects with static storage (C11 6.2.4p3) and string literals (6.4.5)
//! as module items (docs/abi.md, "Globals and strings").
//!
//! A scalar object initialized by one number is a global of its own IR type
//! with a `scalar` initializer; every other object is an `i8` global whose
//! initializer is a `compound` of little-endian byte runs, 8-byte address
//! constants (globals, string literals, functions, `.LBBn` block labels) and
//! label differences. All-zero objects get `zero` (`.bss`). `long double`
//! bytes are the target's format (x87 80-bit on x86-64, binary128 elsewhere).
//! Narrow string literals are `string_literals` (`.strN`); wide ones are
//! read-only globals (`.wstrN` with 4-byte units, `.ustrN` with 2-byte units).
//! Declarations of objects defined elsewhere appear only when referenced.

use super::{LResult, ModuleCx};
use crate::binary128::Binary128;
use crate::frontend::hir::{AddrTarget, GlobalKind, Linkage, Program, StaticInit, StaticValue, StrId};
use crate::frontend::source::Diagnostic;
use crate::frontend::types::FloatKind;
use crate::ir::constants::IrConst;
use crate::ir::module::{GlobalInit, IrGlobal, IrModule};
use crate::ir::types::IrType;
use crate::target::{LongDoubleFormat, Target};

/// The symbol of a string literal.
pub fn string_symbol(program: &Program, id: StrId) -> String {
    match program.strings.get(id.0 as usize).map_or(1, |s| s.unit) {
        4 => format!(".wstr{}", id.0),
        2 => format!(".ustr{}", id.0),
        _ => format!(".str{}", id.0),
    }
}

pub(super) fn lower_static_data(cx: &mut ModuleCx<'_>, module: &mut IrModule) -> LResult<()> {
    let program = cx.program;
    for (i, s) in program.strings.iter().enumerate() {
        let name = string_symbol(program, StrId(i as u32));
        let unit = s.unit.max(1) as usize;
        let mut units: Vec<u32> = s
            .bytes
            .chunks(unit)
            .map(|c| c.iter().rev().fold(0u32, |acc, &b| (acc << 8) | b as u32))
            .collect();
        if units.last() == Some(&0) {
            units.pop();
        }
        match unit {
            1 => module
                .string_literals
                .push((name, units.iter().map(|&u| char::from(u as u8)).collect())),
            _ => module.globals.push(IrGlobal {
                name,
                ty: if unit == 2 { IrType::U16 } else { IrType::U32 },
                size: s.bytes.len(),
                align: unit,
                init: if unit == 2 {
                    GlobalInit::Char16String(units.iter().map(|&u| u as u16).collect())
                } else {
                    GlobalInit::WideString(units)
                },
                is_static: true,
                is_const: true,
                ..IrGlobal::default()
            }),
        }
    }
    // Definitions first (their initializers mark what they refer to as used).
    let mut externs = Vec::new();
    for (i, g) in program.globals.iter().enumerate() {
        let id = crate::frontend::hir::GlobalId(i as u32);
        if let Some(target) = &g.attrs.alias {
            module.aliases.push((g.name.clone(), target.clone(), g.attrs.weak));
            continue;
        }
        if g.kind == GlobalKind::Function {
            if g.attrs.constructor.is_some() && cx.defined.contains(&id) {
                module.constructors.push(g.name.clone());
            }
            if g.attrs.destructor.is_some() && cx.defined.contains(&id) {
                module.destructors.push(g.name.clone());
            }
            continue;
        }
        if !g.is_definition {
            externs.push(id);
            continue;
        }
        let size = cx.types.size_of(&g.ty.ty).unwrap_or(0);
        let align = g.attrs.align.unwrap_or(0).max(cx.types.align_of(&g.ty.ty));
        let scalar = cx.types.scalar(&g.ty.ty);
        let (ty, init) = match &g.init {
            None => (scalar.unwrap_or(IrType::I8), GlobalInit::Zero),
            Some(init) => encode(cx, init, scalar, size).map_err(|m| Diagnostic::error(g.span, m))?,
        };
        // A static flexible array member's initializer extends the object.
        let size = size.max(g.init.as_ref().map_or(0, |i| i.size));
        module.globals.push(IrGlobal {
            name: g.name.clone(),
            ty,
            size: size as usize,
            align: align as usize,
            init,
            is_static: g.linkage == Linkage::Internal,
            is_weak: g.attrs.weak,
            section: g.attrs.section.clone(),
            is_const: g.attrs.is_const,
            is_thread_local: g.attrs.thread_local,
            visibility: g.attrs.visibility.clone(),
            is_used: g.attrs.used,
            has_explicit_align: g.attrs.align.is_some(),
            ..IrGlobal::default()
        });
    }
    for id in externs {
        if !cx.used.contains(&id) {
            continue;
        }
        let g = cx.global(id);
        let size = cx.types.size_of(&g.ty.ty).unwrap_or(0);
        module.globals.push(IrGlobal {
            name: g.name.clone(),
            ty: cx.types.scalar(&g.ty.ty).unwrap_or(IrType::I8),
            size: size as usize,
            align: g.attrs.align.unwrap_or(0).max(cx.types.align_of(&g.ty.ty)) as usize,
            is_extern: true,
            is_weak: g.attrs.weak,
            is_thread_local: g.attrs.thread_local,
            visibility: g.attrs.visibility.clone(),
            ..IrGlobal::default()
        });
    }
    Ok(())
}

/// The bytes of a float constant (already rounded to `kind`) in the
/// target's memory format.
pub(super) fn float_bytes(kind: FloatKind, v: Binary128, target: Target) -> Vec<u8> {
    match kind {
        FloatKind::Float => v.to_f32().to_le_bytes().to_vec(),
        FloatKind::Double => v.to_f64().to_le_bytes().to_vec(),
        FloatKind::LongDouble => match target.long_double() {
            LongDoubleFormat::X87 => {
                let mut b = v.to_x87_bytes().to_vec();
                b.resize(16, 0);
                b
            }
            LongDoubleFormat::Binary128 => v.to_le_bytes().to_vec(),
        },
        FloatKind::Float128 => v.to_le_bytes().to_vec(),
    }
}

/// The IR element type and initializer of a static object.
fn encode(
    cx: &mut ModuleCx<'_>,
    init: &StaticInit,
    scalar: Option<IrType>,
    size: u64,
) -> Result<(IrType, GlobalInit), String> {
    let size = size.max(init.size);
    if let (Some(ty), [item]) = (scalar, &init.items[..]) {
        if item.offset == 0 {
            match &item.value {
                StaticValue::Int { bits, .. } if !ty.is_float() => {
                    return Ok((ty, GlobalInit::Scalar(IrConst::from_bits(*bits, ty))));
                }
                StaticValue::Float { value, .. } if ty.is_float() => {
                    let c = match ty {
                        IrType::F32 => IrConst::F32(value.to_f32()),
                        IrType::F64 => IrConst::F64(value.to_f64()),
                        _ => IrConst::long_double_exact(*value),
                    };
                    return Ok((ty, GlobalInit::Scalar(c)));
                }
                _ => {}
            }
        }
    }
    let mut parts: Vec<GlobalInit> = Vec::new();
    let mut run: Vec<u8> = Vec::new();
    let mut pos = 0u64;
    let flush = |run: &mut Vec<u8>, parts: &mut Vec<GlobalInit>| {
        if !run.is_empty() {
            parts.push(GlobalInit::Array(run.drain(..).map(|b| IrConst::I8(b as i8)).collect()));
        }
    };
    let mut nonzero = false;
    for item in &init.items {
        if item.offset < pos {
            return Err(format!("overlapping static initializer at offset {}", item.offset));
        }
        run.extend(std::iter::repeat_n(0u8, (item.offset - pos) as usize));
        pos = item.offset;
        match &item.value {
            StaticValue::Int { size, bits } => {
                let n = (*size as usize).min(16);
                run.extend_from_slice(&bits.to_le_bytes()[..n]);
                nonzero |= *bits != 0;
                pos += n as u64;
            }
            StaticValue::Float { kind, value } => {
                let b = float_bytes(*kind, *value, cx.types.target);
                nonzero |= b.iter().any(|&x| x != 0);
                pos += b.len() as u64;
                run.extend(b);
            }
            StaticValue::Bytes(b) => {
                nonzero |= b.iter().any(|&x| x != 0);
                pos += b.len() as u64;
                run.extend_from_slice(b);
            }
            StaticValue::Addr { target, offset } => {
                flush(&mut run, &mut parts);
                let name = match target {
                    AddrTarget::Global(g) => cx.use_global(*g),
                    AddrTarget::Str(s) => cx.string_symbol(*s),
                    AddrTarget::Label(f, l) => cx
                        .static_labels
                        .get(&(*f, *l))
                        .map(|b| b.asm_label())
                        .ok_or("label address of an unknown label")?,
                };
                parts.push(if *offset == 0 {
                    GlobalInit::GlobalAddr(name)
                } else {
                    GlobalInit::GlobalAddrOffset(name, *offset)
                });
                nonzero = true;
                pos += 8;
            }
            StaticValue::LabelDiff { func, a, b, size } => {
                flush(&mut run, &mut parts);
                let label = |l| {
                    cx.static_labels
                        .get(&(*func, l))
                        .map(|b: &crate::ir::instruction::BlockId| b.asm_label())
                };
                let (Some(la), Some(lb)) = (label(*a), label(*b)) else {
                    return Err("label difference of an unknown label".into());
                };
                parts.push(GlobalInit::GlobalLabelDiff(la, lb, *size as usize));
                nonzero = true;
                pos += *size as u64;
            }
        }
    }
    if !nonzero {
        return Ok((scalar.unwrap_or(IrType::I8), GlobalInit::Zero));
    }
    if pos < size {
        run.extend(std::iter::repeat_n(0u8, (size - pos) as usize));
    } else if pos > size {
        // A storage unit of a trailing bit-field may reach past a packed
        // object's end; those bytes are zero and are not part of the object.
        let excess = (pos - size) as usize;
        if excess > run.len() || run[run.len() - excess..].iter().any(|&b| b != 0) {
            return Err(format!("static initializer of {pos} bytes for an object of {size}"));
        }
        run.truncate(run.len() - excess);
    }
    flush(&mut run, &mut parts);
    Ok((IrType::I8, GlobalInit::Compound(parts)))
}
