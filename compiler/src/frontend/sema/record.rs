//! Struct, union and enum specifiers (C11 6.7.2.1-6.7.2.3): tags in their
//! scope (forward declarations, redefinition checks, wrong-kind tags),
//! members with bit-field widths, anonymous members and flexible array
//! members, layout through `TypeContext::complete_record` with `packed`,
//! `aligned`, `_Alignas` and `#pragma pack`, and enumerators with their
//! values and types (gcc: an enumerator that does not fit `int` gets a wider
//! type; `packed` enums take the smallest integer type).

use super::super::ast::{self, BaseType, EnumSpec, StructMember, StructSpec};
use super::super::hir::{BinaryOp, Expr, ExprKind, Stmt, StmtKind};
use super::super::layout::{layout_record, FieldSpec, LayoutError, RecordAttrs};
use super::super::source::{PResult, Span};
use super::super::types::{ArrayLen, CType, EnumId, IntKind, Member, QualType, RecordId};
use super::attrs::Attrs;
use super::expr::mk;
use super::scope::{Ordinary, Tag};
use super::ty;
use super::{err, Sema, VarRecord};
use std::sync::Arc;

impl Sema {
    /// A struct or union specifier (6.7.2.1, 6.7.2.3).
    pub(super) fn record_spec(&mut self, s: &StructSpec, is_union: bool, forward: bool) -> PResult<RecordId> {
        let kw = if is_union { "union" } else { "struct" };
        let check_kind = |this: &Sema, id: RecordId, tag: &str| -> PResult<RecordId> {
            if this.types.records[id.0 as usize].is_union != is_union {
                return Err(err(s.span, format!("'{tag}' defined as wrong kind of tag")));
            }
            Ok(id)
        };
        let id = match (&s.tag, &s.members) {
            (Some(tag), None) => {
                let found = if forward {
                    self.scopes.lookup_tag_current(tag)
                } else {
                    self.scopes.lookup_tag(tag)
                };
                match found {
                    Some(Tag::Record(id)) => check_kind(self, id, tag)?,
                    Some(Tag::Enum(_)) => return Err(err(s.span, format!("'{tag}' defined as wrong kind of tag"))),
                    None => {
                        let id = self.types.new_record(Some(tag.clone()), is_union);
                        self.scopes.declare_tag(tag.clone(), Tag::Record(id));
                        id
                    }
                }
            }
            (Some(tag), Some(_)) => match self.scopes.lookup_tag_current(tag) {
                Some(Tag::Record(id)) => {
                    let id = check_kind(self, id, tag)?;
                    if self.types.records[id.0 as usize].layout.is_some() || self.defining.contains(&id) {
                        return Err(err(s.span, format!("redefinition of '{kw} {tag}'")));
                    }
                    id
                }
                Some(Tag::Enum(_)) => return Err(err(s.span, format!("'{tag}' defined as wrong kind of tag"))),
                None => {
                    let id = self.types.new_record(Some(tag.clone()), is_union);
                    self.scopes.declare_tag(tag.clone(), Tag::Record(id));
                    id
                }
            },
            (None, Some(_)) => self.types.new_record(None, is_union),
            (None, None) => return Err(err(s.span, format!("expected '{{' or tag name after '{kw}'"))),
        };
        if let Some(members) = &s.members {
            let mut rattrs = Attrs::default();
            self.collect_attrs(&s.attrs, &mut rattrs)?;
            self.defining.push(id);
            let r = self.define_record(id, members, is_union, &rattrs, s.span);
            self.defining.retain(|&x| x != id);
            r?;
        }
        Ok(id)
    }

    fn define_record(
        &mut self,
        id: RecordId,
        list: &[StructMember],
        is_union: bool,
        rattrs: &Attrs,
        span: Span,
    ) -> PResult<()> {
        let mut members: Vec<Member> = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        for m in list {
            match m {
                StructMember::Pragma(text, pspan) => self.pragma(text, *pspan)?,
                StructMember::StaticAssert(sa) => self.static_assert(sa)?,
                StructMember::Field {
                    specs,
                    declarators,
                    span: fspan,
                } => {
                    let base = self.specs_base(specs, false)?;
                    if base.auto_type {
                        return Err(err(*fspan, "'__auto_type' is not allowed for a member"));
                    }
                    let mut battrs = Attrs::default();
                    self.collect_attrs(&specs.attrs, &mut battrs)?;
                    if let Some(a) = self.alignas(specs)? {
                        battrs.aligned = Some(battrs.aligned.map_or(a, |b| b.max(a)));
                    }
                    if declarators.is_empty() {
                        let anonymous = matches!(&specs.base,
                            BaseType::Struct(s) | BaseType::Union(s) if s.tag.is_none() && s.members.is_some());
                        if anonymous {
                            members.push(Member {
                                name: None,
                                ty: base.ty.clone(),
                                bit_width: None,
                                packed: battrs.packed,
                                aligned: battrs.aligned,
                                type_align: self.typedef_align(specs, &[]),
                            });
                            spans.push(*fspan);
                        } else {
                            self.warn(*fspan, "declaration does not declare anything");
                        }
                        continue;
                    }
                    for fd in declarators {
                        let mut attrs = battrs.clone();
                        let (t, name, nspan) = match &fd.declarator {
                            Some(d) => {
                                let (t, _) = self.declarator_type(base.ty.clone(), d, None)?;
                                self.collect_attrs(&d.attrs, &mut attrs)?;
                                let (n, s) = d.name.clone().map(|(n, s)| (Some(n), s)).unwrap_or((None, d.span));
                                (t, n, s)
                            }
                            None => (base.ty.clone(), None, *fspan),
                        };
                        self.collect_attrs(&fd.attrs, &mut attrs)?;
                        let t = self.apply_mode(t, &attrs)?;
                        let what = name.as_deref().unwrap_or("<unnamed>").to_string();
                        if ty::is_function(&t.ty) {
                            return Err(err(nspan, format!("field '{what}' declared as a function")));
                        }
                        // GNU: in a function, a member whose size is known at
                        // run time (a VLA whose size was computed, or a record
                        // with such a member), or a pointer to a VLA.
                        let runtime_sized = self.func.is_some()
                            && self.types.is_runtime_sized(&t.ty)
                            && self.vla_size_of(&t.ty).is_some();
                        let vla_pointer = self.func.is_some() && ty::is_pointer(&t.ty);
                        if ty::is_variably_modified(&t.ty) && !runtime_sized && !vla_pointer {
                            return Err(err(nspan, format!("field '{what}' has a variably modified type")));
                        }
                        let flexible = matches!(
                            &*t.ty,
                            CType::Array {
                                len: ArrayLen::Unknown,
                                ..
                            }
                        );
                        if !flexible && !runtime_sized && !ty::is_complete(&t.ty, &self.types) {
                            return Err(err(
                                nspan,
                                format!("field '{what}' has incomplete type '{}'", self.type_str(&t)),
                            ));
                        }
                        let bit_width = match &fd.bit_width {
                            Some(w) => Some(self.bit_width(w, &t, name.is_some(), &what)?),
                            None => None,
                        };
                        let derived = fd.declarator.as_ref().map_or(&[][..], |d| &d.derived[..]);
                        members.push(Member {
                            name,
                            ty: t,
                            bit_width,
                            packed: attrs.packed,
                            aligned: attrs.aligned,
                            type_align: self.typedef_align(specs, derived).filter(|_| bit_width.is_none()),
                        });
                        spans.push(nspan);
                    }
                }
            }
        }
        // Flexible array members: last, in a struct with another named member (6.7.2.1p18).
        let last = members.len().saturating_sub(1);
        for (i, m) in members.iter().enumerate() {
            if matches!(
                &*m.ty.ty,
                CType::Array {
                    len: ArrayLen::Unknown,
                    ..
                }
            ) {
                if is_union {
                    return Err(err(spans[i], "flexible array member in a union"));
                }
                if i != last {
                    return Err(err(spans[i], "flexible array member not at end of struct"));
                }
                if i == 0 {
                    return Err(err(spans[i], "flexible array member in a struct with no named members"));
                }
            }
        }
        // Duplicate member names, anonymous members included.
        let mut seen = rustc_hash::FxHashSet::default();
        for (i, m) in members.iter().enumerate() {
            let mut names = Vec::new();
            self.member_names(m, &mut names);
            for n in names {
                if !seen.insert(n.clone()) {
                    return Err(err(spans[i], format!("duplicate member '{n}'")));
                }
            }
        }
        let attrs = RecordAttrs {
            is_union,
            packed: rattrs.packed,
            pack: self.pack,
            aligned: rattrs.aligned,
            unnamed_bitfields_align: false,
        };
        self.types.complete_record(id, members, attrs).map_err(|e| match e {
            super::super::types::TypeError::Layout(LayoutError::BitFieldTooWide { index }) => {
                err(spans[index], "width of bit-field exceeds its type")
            }
            super::super::types::TypeError::Layout(LayoutError::BadAlignment { index }) => err(
                index.map(|i| spans[i]).unwrap_or(span),
                "requested alignment is not a power of 2",
            ),
            _ => err(span, "type is too large"),
        })?;
        if rattrs.transparent_union && is_union {
            self.transparent_unions.push(id);
        }
        if self.types.records[id.0 as usize].variable {
            self.variable_layout(id, &spans, rattrs.packed, span)?;
        }
        Ok(())
    }

    /// The run-time layout of a record with variably modified members
    /// (GNU C): hidden `size_t` locals receive each member's offset from
    /// the first variable-size member on, and the record's size, when the
    /// definition is reached, by `place_field`'s rule (the next multiple of
    /// the member's alignment). A run of bit-fields after a variable-size
    /// member is placed as a unit (its own layout) and may not be accessed.
    fn variable_layout(&mut self, id: RecordId, spans: &[Span], packed: bool, span: Span) -> PResult<()> {
        let rec = self.types.records[id.0 as usize].clone();
        let layout = rec.layout.clone().expect("completed");
        let first = rec
            .members
            .iter()
            .position(|m| self.types.is_runtime_sized(&m.ty.ty))
            .expect("a variable record has a variable member");
        let size_t = ty::size_t();
        let int = |v: u64| mk(ExprKind::Int(v as i128), ty::size_t(), span);
        let mut offsets = vec![None; rec.members.len()];
        let mut assigns: Vec<Expr> = Vec::new();
        let size_of_member = |this: &mut Sema, m: &Member, i: usize| -> PResult<Expr> {
            if this.types.is_runtime_sized(&m.ty.ty) {
                this.vla_runtime_size(&m.ty, spans[i])
            } else {
                Ok(int(this.size_of(&m.ty, spans[i])?))
            }
        };
        let end = if rec.is_union {
            // Every member at 0; the size is the largest member's.
            let mut max = int(0);
            for (i, m) in rec.members.iter().enumerate() {
                let sz = if let Some(w) = m.bit_width {
                    int((w as u64).div_ceil(8))
                } else {
                    size_of_member(self, m, i)?
                };
                let (setup, sz) = self.reuse(sz, span)?;
                let (msetup, mx) = self.reuse(max, span)?;
                let gt = self.mk_binary(BinaryOp::Gt, sz.clone(), mx.clone(), ty::int(), span);
                let pick = mk(
                    ExprKind::Cond(Box::new(gt), Box::new(sz), Box::new(mx)),
                    size_t.clone(),
                    span,
                );
                max = Self::with_setup(msetup, Self::with_setup(setup, pick));
            }
            max
        } else {
            let mut cur = int(layout.fields[first].offset);
            let mut i = first;
            while i < rec.members.len() {
                let m = &rec.members[i];
                if m.bit_width.is_some() {
                    let j = (i..rec.members.len())
                        .find(|&k| rec.members[k].bit_width.is_none())
                        .unwrap_or(rec.members.len());
                    let specs = rec.members[i..j]
                        .iter()
                        .map(|b| {
                            let size = self.size_of(&b.ty, spans[i])?;
                            Ok(FieldSpec {
                                size,
                                align: b.type_align.map_or_else(|| self.align_of(&b.ty, spans[i]), Ok)?,
                                bit_width: b.bit_width,
                                named: b.name.is_some(),
                                packed: b.packed,
                                aligned: b.aligned,
                            })
                        })
                        .collect::<PResult<Vec<_>>>()?;
                    let run = layout_record(
                        &specs,
                        RecordAttrs {
                            is_union: false,
                            packed,
                            pack: self.pack,
                            aligned: None,
                            unnamed_bitfields_align: false,
                        },
                    )
                    .map_err(|_| err(spans[i], "bit-fields too large"))?;
                    cur = self.align_up_expr(cur, run.align, span);
                    cur = self.mk_binary(BinaryOp::Add, cur, int(run.size), size_t.clone(), span);
                    i = j;
                    continue;
                }
                if m.name.is_none() {
                    return Err(err(
                        spans[i],
                        "an anonymous member after a variable-size member is not supported",
                    ));
                }
                let natural = m.type_align.map_or_else(|| self.align_of(&m.ty, spans[i]), Ok)?;
                let mut fa = if m.packed || packed { 1 } else { natural };
                if let Some(p) = self.pack {
                    fa = fa.min(p);
                }
                if let Some(a) = m.aligned {
                    fa = fa.max(a);
                }
                let at = self.align_up_expr(cur, fa, span);
                let local = self.new_local(Arc::from(".member_offset"), size_t.clone(), 8, false, span)?;
                assigns.push(mk(
                    ExprKind::Assign {
                        lhs: Box::new(mk(ExprKind::Local(local), size_t.clone(), span)),
                        rhs: Box::new(at),
                    },
                    size_t.clone(),
                    span,
                ));
                offsets[i] = Some(local);
                let sz = size_of_member(self, m, i)?;
                let here = self.load_local(local, size_t.clone(), span);
                cur = self.mk_binary(BinaryOp::Add, here, sz, size_t.clone(), span);
                i += 1;
            }
            cur
        };
        let total = self.align_up_expr(end, layout.align, span);
        let size = self.new_local(Arc::from(".record_size"), size_t.clone(), 8, false, span)?;
        assigns.push(mk(
            ExprKind::Assign {
                lhs: Box::new(mk(ExprKind::Local(size), size_t.clone(), span)),
                rhs: Box::new(total),
            },
            size_t,
            span,
        ));
        for a in assigns {
            self.vla_pending.push(Stmt {
                kind: StmtKind::Expr(a),
                span,
            });
        }
        if packed {
            // A packed record is one whose members are all packed (gcc);
            // lowering's unaligned-access analysis reads the members' flag.
            for m in &mut self.types.records[id.0 as usize].members {
                m.packed = true;
            }
        }
        // Union members all sit at 0, where the static layout puts them.
        let first = if rec.is_union { rec.members.len() } else { first };
        self.var_records.insert(id, VarRecord { size, first, offsets });
        Ok(())
    }

    /// `x` rounded up to a multiple of `align` (a power of two), as `size_t`.
    fn align_up_expr(&self, x: Expr, align: u64, span: Span) -> Expr {
        if align <= 1 {
            return x;
        }
        let t = ty::size_t();
        let bump = mk(ExprKind::Int((align - 1) as i128), t.clone(), span);
        let mask = mk(ExprKind::Int((!(align - 1)) as i128), t.clone(), span);
        let x = self.mk_binary(BinaryOp::Add, x, bump, t.clone(), span);
        self.mk_binary(BinaryOp::BitAnd, x, mask, t, span)
    }

    fn member_names(&self, m: &Member, out: &mut Vec<Arc<str>>) {
        match &m.name {
            Some(n) => out.push(n.clone()),
            None if m.bit_width.is_none() => {
                if let CType::Record(id) = &*m.ty.ty {
                    for sub in &self.types.records[id.0 as usize].members {
                        self.member_names(sub, out);
                    }
                }
            }
            None => {}
        }
    }

    /// The width of a bit-field (6.7.2.1p4): an integer constant expression,
    /// no larger than the type, zero only for unnamed bit-fields.
    fn bit_width(&mut self, w: &ast::Expr, t: &QualType, named: bool, what: &str) -> PResult<u32> {
        let Some(k) = ty::int_kind(&t.ty, &self.types) else {
            return Err(err(w.span, format!("bit-field '{what}' has invalid type")));
        };
        let v = self.const_int(w)?;
        if v < 0 {
            return Err(err(w.span, format!("negative width in bit-field '{what}'")));
        }
        let max = if k == IntKind::Bool { 1 } else { k.size() * 8 };
        if v as u128 > max as u128 {
            return Err(err(w.span, format!("width of '{what}' exceeds its type")));
        }
        if v == 0 && named {
            return Err(err(w.span, format!("zero width for bit-field '{what}'")));
        }
        Ok(v as u32)
    }

    /// An enum specifier (6.7.2.2): enumerators are integer constant
    /// expressions, each one more than the previous by default.
    pub(super) fn enum_spec(&mut self, s: &EnumSpec, forward: bool) -> PResult<EnumId> {
        let Some(list) = &s.enumerators else {
            let Some(tag) = &s.tag else {
                return Err(err(s.span, "expected '{' or tag name after 'enum'"));
            };
            let found = if forward {
                self.scopes.lookup_tag_current(tag)
            } else {
                self.scopes.lookup_tag(tag)
            };
            return match found {
                Some(Tag::Enum(id)) => Ok(id),
                Some(Tag::Record(_)) => Err(err(s.span, format!("'{tag}' defined as wrong kind of tag"))),
                None => {
                    let id = self.types.new_enum(Some(tag.clone()));
                    self.scopes.declare_tag(tag.clone(), Tag::Enum(id));
                    Ok(id)
                }
            };
        };
        let id = match &s.tag {
            Some(tag) => match self.scopes.lookup_tag_current(tag) {
                Some(Tag::Enum(id)) if !self.types.enums[id.0 as usize].complete => id,
                Some(Tag::Enum(_)) => return Err(err(s.span, format!("redefinition of 'enum {tag}'"))),
                Some(Tag::Record(_)) => return Err(err(s.span, format!("'{tag}' defined as wrong kind of tag"))),
                None => {
                    let id = self.types.new_enum(Some(tag.clone()));
                    self.scopes.declare_tag(tag.clone(), Tag::Enum(id));
                    id
                }
            },
            None => self.types.new_enum(None),
        };
        let mut values = Vec::with_capacity(list.len());
        let mut next: i128 = 0;
        for e in list {
            let v = match &e.value {
                Some(x) => self.const_int(x)?,
                None => next,
            };
            if v < i64::MIN as i128 || v > u64::MAX as i128 {
                return Err(err(e.span, format!("enumerator value for '{}' is too large", e.name)));
            }
            if self.scopes.lookup_current(&e.name).is_some() {
                return Err(err(e.span, format!("redeclaration of '{}'", e.name)));
            }
            let ty = if v >= i32::MIN as i128 && v <= i32::MAX as i128 {
                ty::int()
            } else if v >= 0 && v <= u32::MAX as i128 {
                ty::int_ty(IntKind::UInt)
            } else if v >= i64::MIN as i128 && v <= i64::MAX as i128 {
                ty::long()
            } else {
                ty::int_ty(IntKind::ULong)
            };
            self.scopes
                .declare(e.name.clone(), Ordinary::EnumConst { value: v, ty });
            values.push(v);
            next = v + 1;
        }
        self.types.complete_enum(id, &values);
        let mut attrs = Attrs::default();
        self.collect_attrs(&s.attrs, &mut attrs)?;
        if attrs.packed {
            // The smallest integer type that holds every value (gcc's packed enums).
            let min = values.iter().copied().min().unwrap_or(0);
            let max = values.iter().copied().max().unwrap_or(0);
            let k = if min >= 0 {
                [IntKind::UChar, IntKind::UShort, IntKind::UInt, IntKind::ULong]
                    .into_iter()
                    .find(|k| max < 1i128 << (k.size() * 8))
                    .unwrap_or(IntKind::ULong)
            } else {
                [IntKind::SChar, IntKind::Short, IntKind::Int, IntKind::Long]
                    .into_iter()
                    .find(|k| min >= -(1i128 << (k.size() * 8 - 1)) && max < 1i128 << (k.size() * 8 - 1))
                    .unwrap_or(IntKind::Long)
            };
            self.types.enums[id.0 as usize].underlying = k;
        }
        Ok(id)
    }
}
