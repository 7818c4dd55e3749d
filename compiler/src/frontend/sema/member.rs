//! Structure and union members (C11 6.5.2.3): lookup through anonymous
//! struct/union members, the qualifiers of the object applied to the member,
//! bit-field storage units, and `__builtin_offsetof` (7.19p3).

use super::super::ast;
use super::super::hir::{BinaryOp, BitField, CastKind, Expr, ExprKind};
use super::super::source::{PResult, Span};
use super::super::types::{CType, QualType, RecordId};
use super::expr::mk;
use super::ty::{self, unqual};
use super::{err, Sema};

/// Where a bit-field is read and written: a storage unit containing the
/// field and lying inside the record. Preferred, in order: the smallest
/// naturally aligned unit (1, 2, 4, 8 or 16 bytes) no wider than the record's
/// alignment; any naturally aligned unit; an unaligned unit of those sizes
/// moved back to end inside the record (packed records); and, when the
/// record is smaller than every such unit that could hold the field, the
/// exact bytes the field spans (3, 5, 6 or 7 bytes). `bit_pos` is the field's
/// first bit counted from the record's start.
pub(super) fn bitfield_unit(bit_pos: u64, width: u32, rec_size: u64, rec_align: u64) -> (u64, BitField) {
    let end = bit_pos + width.max(1) as u64;
    let mk = |start: u64, unit: u64| {
        (
            start,
            BitField {
                unit_size: unit as u8,
                bit_offset: (bit_pos - start * 8) as u32,
                width,
            },
        )
    };
    const UNITS: [u64; 5] = [1, 2, 4, 8, 16];
    for pass in 0..2 {
        for unit in UNITS {
            if pass == 0 && unit > rec_align.max(1) {
                break;
            }
            let start = bit_pos / (unit * 8) * unit;
            if end <= (start + unit) * 8 && start + unit <= rec_size {
                return mk(start, unit);
            }
        }
    }
    let first = bit_pos / 8;
    let span = (end - 1) / 8 - first + 1;
    for unit in UNITS {
        if unit >= span && unit <= rec_size {
            return mk(first.min(rec_size - unit), unit);
        }
    }
    mk(first, span)
}

impl Sema {
    /// Finds a member by name, looking into anonymous struct/union members:
    /// (byte offset of the member or of its bit-field unit, type, bit-field).
    pub(super) fn find_member(&self, id: RecordId, name: &str) -> Option<(u64, QualType, Option<BitField>)> {
        let rec = self.types.records.get(id.0 as usize)?;
        let layout = rec.layout.as_ref()?;
        for (i, m) in rec.members.iter().enumerate() {
            let place = layout.fields.get(i)?;
            match &m.name {
                Some(n) if &**n == name => {
                    if let Some(w) = m.bit_width {
                        let bit_pos = place.offset * 8 + place.bit_offset as u64;
                        let (off, bf) = bitfield_unit(bit_pos, w, layout.size, layout.align);
                        return Some((off, m.ty.clone(), Some(bf)));
                    }
                    return Some((place.offset, m.ty.clone(), None));
                }
                None if m.bit_width.is_none() => {
                    if let CType::Record(sub) = &*m.ty.ty {
                        if let Some((o, t, bf)) = self.find_member(*sub, name) {
                            let t = self.qualify(t, m.ty.quals);
                            return Some((place.offset + o, t, bf));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The alignment of member `name`'s declaration (gcc's `DECL_ALIGN` of
    /// the field, which `__alignof__(s.m)` reports): its type's (or its
    /// `aligned` typedef's), lowered by `packed` and record packing, raised
    /// by `aligned` on the member.
    pub(super) fn member_decl_align(&self, id: RecordId, name: &str) -> Option<u64> {
        let rec = self.types.records.get(id.0 as usize)?;
        let layout = rec.layout.as_ref()?;
        for m in &rec.members {
            match &m.name {
                Some(n) if &**n == name => {
                    let natural = m.type_align.map_or_else(|| self.types.align_of(&m.ty.ty).ok(), Some)?;
                    let packed = if m.packed { 1 } else { natural.min(layout.align) };
                    return Some(m.aligned.map_or(packed, |a| a.max(packed)));
                }
                None if m.bit_width.is_none() => {
                    if let CType::Record(sub) = &*m.ty.ty {
                        if let Some(a) = self.member_decl_align(*sub, name) {
                            return Some(a);
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// `base.name` (6.5.2.3); `base` is a record lvalue or value.
    pub(super) fn member(&mut self, base: Expr, name: &str, span: Span) -> PResult<Expr> {
        let CType::Record(id) = &*base.ty.ty else {
            return Err(err(
                span,
                format!("request for member '{name}' in something not a structure or union"),
            ));
        };
        if self.types.records[id.0 as usize].layout.is_none() {
            return Err(err(
                span,
                format!("invalid use of incomplete type '{}'", self.type_str(&base.ty)),
            ));
        }
        if let Some(e) = self.variable_member(*id, &base, name, span)? {
            return Ok(e);
        }
        let Some((offset, t, bitfield)) = self.find_member(*id, name) else {
            return Err(err(
                span,
                format!("'{}' has no member named '{name}'", self.type_str(&unqual(&base.ty))),
            ));
        };
        // A member of an lvalue has the object's qualifiers too; a member
        // of a value is a value, so unqualified.
        let t = if base.is_lvalue() {
            self.qualify(t, base.ty.quals)
        } else {
            unqual(&t)
        };
        Ok(mk(
            ExprKind::Member {
                base: Box::new(base),
                offset,
                bitfield,
            },
            t,
            span,
        ))
    }

    /// A member at a run-time offset of a record with variably modified
    /// members (see `Sema::variable_layout`): `*(T *)((char *)&base + off)`.
    /// `None` for the members before the first variable-size one, which
    /// are where the record's static layout puts them.
    fn variable_member(&mut self, id: RecordId, base: &Expr, name: &str, span: Span) -> PResult<Option<Expr>> {
        let Some(vr) = self.var_records.get(&id) else {
            return Ok(None);
        };
        let rec = &self.types.records[id.0 as usize];
        let Some(i) = rec.members.iter().position(|m| m.name.as_deref() == Some(name)) else {
            return Ok(None);
        };
        if i < vr.first {
            return Ok(None);
        }
        let Some(off) = vr.offsets[i] else {
            return Err(err(
                span,
                format!("bit-field '{name}' after a variable-size member is not supported"),
            ));
        };
        let mt = rec.members[i].ty.clone();
        if !base.is_lvalue() {
            return Err(err(
                span,
                "a member of a value of a struct with variable-size members is not supported",
            ));
        }
        let t = self.qualify(mt, base.ty.quals);
        let addr = self.address_of(base.clone(), span)?;
        let bytes = ty::ptr_to(ty::int_ty(super::super::types::IntKind::Char));
        let addr = mk(ExprKind::Cast(CastKind::PtrToPtr, Box::new(addr)), bytes.clone(), span);
        let off = self.load_local(off, ty::size_t(), span);
        let off = self.convert(off, &ty::long());
        let at = mk(
            ExprKind::PtrAdd {
                ptr: Box::new(addr),
                index: Box::new(off),
                elem_size: 1,
            },
            bytes,
            span,
        );
        let p = mk(
            ExprKind::Cast(CastKind::PtrToPtr, Box::new(at)),
            ty::ptr_to(t.clone()),
            span,
        );
        Ok(Some(mk(ExprKind::Deref(Box::new(p)), t, span)))
    }

    /// `__builtin_offsetof(type, designator)` (7.19p3). GNU: an index
    /// need not be constant, and with a variably modified member on the
    /// path, the offset is a run-time value.
    pub(super) fn offsetof(&mut self, tn: &ast::TypeName, path: &[ast::Designator], span: Span) -> PResult<Expr> {
        let mut cur = self.type_name(tn)?;
        self.vla_pending.clear();
        let mut off: i128 = 0;
        // The run-time part of the offset (a `size_t` value), if any.
        let mut dynamic: Option<Expr> = None;
        let size_t = ty::size_t();
        for d in path {
            let term = match d {
                ast::Designator::Field(name, fspan) => {
                    let CType::Record(id) = &*cur.ty else {
                        return Err(err(
                            *fspan,
                            format!("request for member '{name}' in something not a structure or union"),
                        ));
                    };
                    let id = *id;
                    if let Some(vr) = self.var_records.get(&id) {
                        let rec = &self.types.records[id.0 as usize];
                        let at = rec.members.iter().position(|m| m.name.as_deref() == Some(&**name));
                        if let Some(i) = at.filter(|&i| i >= vr.first) {
                            let Some(local) = vr.offsets[i] else {
                                return Err(err(*fspan, "cannot apply 'offsetof' to a bit-field"));
                            };
                            cur = rec.members[i].ty.clone();
                            let o = self.load_local(local, size_t.clone(), *fspan);
                            dynamic = Some(match dynamic.take() {
                                Some(d) => self.mk_binary(BinaryOp::Add, d, o, size_t.clone(), span),
                                None => o,
                            });
                            continue;
                        }
                    }
                    let Some((o, t, bf)) = self.find_member(id, name) else {
                        return Err(err(
                            *fspan,
                            format!("'{}' has no member named '{name}'", self.type_str(&cur)),
                        ));
                    };
                    if bf.is_some() {
                        return Err(err(*fspan, "cannot apply 'offsetof' to a bit-field"));
                    }
                    off += o as i128;
                    cur = t;
                    continue;
                }
                ast::Designator::Index(e) => {
                    let CType::Array { elem, .. } = &*cur.ty else {
                        return Err(err(e.span, "subscripted value in 'offsetof' is not an array"));
                    };
                    let elem = elem.clone();
                    let i = self.rvalue_of(e)?;
                    if ty::int_kind(&i.ty.ty, &self.types).is_none() {
                        return Err(err(e.span, "array subscript is not an integer"));
                    }
                    let runtime = self.types.is_runtime_sized(&elem.ty);
                    cur = elem.clone();
                    match i.kind {
                        ExprKind::Int(v) if !runtime => {
                            off += v * self.size_of(&elem, e.span)? as i128;
                            continue;
                        }
                        _ => {
                            let size = if runtime {
                                self.vla_runtime_size(&elem, e.span)?
                            } else {
                                mk(
                                    ExprKind::Int(self.size_of(&elem, e.span)? as i128),
                                    size_t.clone(),
                                    span,
                                )
                            };
                            let i = self.convert(i, &size_t);
                            self.mk_binary(BinaryOp::Mul, i, size, size_t.clone(), span)
                        }
                    }
                }
                ast::Designator::Range(lo, _) => return Err(err(lo.span, "a range is not allowed in 'offsetof'")),
            };
            dynamic = Some(match dynamic.take() {
                Some(d) => self.mk_binary(BinaryOp::Add, d, term, size_t.clone(), span),
                None => term,
            });
        }
        let fixed = mk(ExprKind::Int(off), size_t.clone(), span);
        Ok(match dynamic {
            Some(d) => self.mk_binary(BinaryOp::Add, d, fixed, size_t, span),
            None => fixed,
        })
    }
}
