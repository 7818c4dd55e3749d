//! Static initializers (C11 6.7.9p4, 6.6p7-9): the leaves of an initializer
//! are evaluated as constant expressions (`const_eval.rs`) and written into
//! a sparse image of the object: later writes replace (parts of) earlier ones,
//! bit-fields are merged into their storage units, zero items are dropped.

use super::super::ast::Initializer;
use super::super::hir::{BitField, Expr, ExprKind, StaticInit, StaticItem, StaticValue};
use super::super::source::{PResult, Span};
use super::super::types::{CType, FloatKind, QualType};
use super::const_eval::SVal;
use super::conv::AssignCtx;
use super::init::{Leaf, LeafValue};
use super::ty;
use super::{err, Sema};
use std::collections::BTreeMap;

impl Sema {
    /// A static initializer (6.7.9p4: every element a constant expression).
    pub(super) fn static_initializer(
        &mut self,
        t: &QualType,
        init: &Initializer,
        span: Span,
    ) -> PResult<(QualType, StaticInit)> {
        let saved = std::mem::replace(&mut self.static_fam, true);
        let walked = self.leaves(t, init, span);
        self.static_fam = saved;
        let (t, leaves, _) = walked?;
        let mut size = self.size_of(&t, span)?;
        // An initialized flexible array member extends the object (GNU).
        if matches!(&*t.ty, CType::Record(_)) {
            for l in &leaves {
                size = size.max(l.offset.saturating_add(self.leaf_extent(l)));
            }
        }
        let mut img = Image::default();
        for l in leaves {
            let extent = self.leaf_extent(&l);
            if l.offset.checked_add(extent).is_none_or(|end| end > size) {
                return Err(err(l.span, "initializer does not fit in the object"));
            }
            self.write_leaf(&mut img, l)?;
        }
        Ok((t, img.finish(size)))
    }

    /// The bytes one leaf writes (a bit-field: its storage unit).
    fn leaf_extent(&self, l: &Leaf) -> u64 {
        match &l.value {
            LeafValue::Bytes(b) => b.len() as u64,
            LeafValue::Expr(_) => l
                .bitfield
                .map_or_else(|| self.types.size_of(&l.ty.ty).unwrap_or(0), |bf| bf.unit_size as u64),
        }
    }

    /// A static object initialized by one analyzed value (`__auto_type`).
    pub(super) fn static_from_value(&mut self, t: &QualType, v: Expr, span: Span) -> PResult<StaticInit> {
        let size = self.size_of(t, span)?;
        let v = self.assign_convert(v, t, AssignCtx::Init, span)?;
        let mut img = Image::default();
        let leaf = Leaf {
            offset: 0,
            bitfield: None,
            ty: t.clone(),
            value: LeafValue::Expr(v),
            span,
        };
        self.write_leaf(&mut img, leaf)?;
        Ok(img.finish(size))
    }

    /// Writes one leaf of a static initializer.
    pub(super) fn write_leaf(&mut self, img: &mut Image, l: Leaf) -> PResult<()> {
        let span = l.span;
        let bad = |m: &str| err(span, m.to_string());
        let e = match l.value {
            LeafValue::Bytes(b) => return img.put(l.offset, StaticValue::Bytes(b)).map_err(bad),
            LeafValue::Expr(e) => e,
        };
        if let CType::Complex(p) = &*l.ty.ty {
            // The two parts, each a constant of the part type.
            let ExprKind::Complex(re, im) = e.kind else {
                return Err(bad("initializer element is not constant"));
            };
            let pt = ty::arith_type(*p);
            for (off, part) in [(0, re), (p.size(), im)] {
                let leaf = Leaf {
                    offset: l.offset + off,
                    bitfield: None,
                    ty: pt.clone(),
                    value: LeafValue::Expr(*part),
                    span,
                };
                self.write_leaf(img, leaf)?;
            }
            return Ok(());
        }
        if ty::is_record(&l.ty.ty) || super::vector::vector_parts(&l.ty.ty).is_some() {
            // gcc accepts a file-scope compound literal of the same type.
            if let ExprKind::Load(inner) = &e.kind {
                if let ExprKind::Global(g) = inner.kind {
                    if self.global_info[g.0 as usize].compound_literal {
                        let items = self.globals[g.0 as usize]
                            .init
                            .as_ref()
                            .map(|i| i.items.clone())
                            .unwrap_or_default();
                        for it in items {
                            img.put(l.offset + it.offset, it.value).map_err(bad)?;
                        }
                        return Ok(());
                    }
                }
            }
            return Err(bad("initializer element is not constant"));
        }
        let Some(v) = self.static_eval(&e) else {
            return Err(bad("initializer element is not constant"));
        };
        if let Some(bf) = l.bitfield {
            let SVal::Int(n) = v else {
                return Err(bad("initializer element is not constant"));
            };
            return img.bits(l.offset, bf, n).map_err(bad);
        }
        let size = self.types.size_of(&l.ty.ty).unwrap_or(0);
        let value = match (&*l.ty.ty, v) {
            (CType::Float(k), SVal::Float(f)) => StaticValue::Float { kind: *k, value: f },
            (CType::Float(k), SVal::Int(n)) => StaticValue::Float {
                kind: *k,
                value: crate::binary128::Binary128::from_int(
                    n < 0,
                    n.unsigned_abs(),
                    super::const_eval::float_format(*k, self.target),
                ),
            },
            (_, SVal::Int(n)) if size <= 16 && size > 0 => int_value(size, n),
            (_, SVal::Addr { base: None, offset }) if size == 8 => int_value(8, offset as i128),
            (_, SVal::Addr { base: Some(t), offset }) if size == 8 => StaticValue::Addr { target: t, offset },
            (_, SVal::LabelDiff { func, a, b }) if size <= 8 => StaticValue::LabelDiff {
                func,
                a,
                b,
                size: size as u8,
            },
            (_, SVal::Addr { .. }) => return Err(bad("initializer element is not computable at load time")),
            _ => return Err(bad("initializer element is not constant")),
        };
        img.put(l.offset, value).map_err(bad)
    }
}

fn int_value(size: u64, n: i128) -> StaticValue {
    let bits = if size >= 16 {
        n as u128
    } else {
        (n as u128) & ((1u128 << (size * 8)) - 1)
    };
    StaticValue::Int { size: size as u8, bits }
}

fn value_len(v: &StaticValue) -> u64 {
    match v {
        StaticValue::Int { size, .. } | StaticValue::LabelDiff { size, .. } => *size as u64,
        StaticValue::Float { kind, .. } => kind.size(),
        StaticValue::Bytes(b) => b.len() as u64,
        StaticValue::Addr { .. } => 8,
    }
}

fn value_bytes(v: &StaticValue) -> Option<Vec<u8>> {
    match v {
        StaticValue::Int { size, bits } => Some(bits.to_le_bytes()[..*size as usize].to_vec()),
        StaticValue::Bytes(b) => Some(b.clone()),
        StaticValue::Float {
            kind: FloatKind::Float,
            value,
        } => Some(value.to_f32().to_le_bytes().to_vec()),
        StaticValue::Float {
            kind: FloatKind::Double,
            value,
        } => Some(value.to_f64().to_le_bytes().to_vec()),
        _ => None,
    }
}

fn is_zero(v: &StaticValue) -> bool {
    match v {
        StaticValue::Int { bits, .. } => *bits == 0,
        StaticValue::Bytes(b) => b.iter().all(|&x| x == 0),
        StaticValue::Float { value, .. } => value.0 == 0,
        _ => false,
    }
}

/// A sparse image of an object's initial bytes: non-overlapping items by offset.
#[derive(Default)]
pub(super) struct Image {
    items: BTreeMap<u64, StaticValue>,
}

const OVERLAP_MSG: &str = "an initializer overwrites part of an address constant";

impl Image {
    /// Writes `v` at `off`, replacing (parts of) what was there.
    fn put(&mut self, off: u64, v: StaticValue) -> Result<(), &'static str> {
        let end = off + value_len(&v);
        let overlapping = self.overlapping(off, end);
        for s in overlapping {
            let old = self.items.remove(&s).expect("present");
            let l = value_len(&old);
            if s < off || s + l > end {
                let bytes = value_bytes(&old).ok_or(OVERLAP_MSG)?;
                if s < off {
                    self.items
                        .insert(s, StaticValue::Bytes(bytes[..(off - s) as usize].to_vec()));
                }
                if s + l > end {
                    self.items
                        .insert(end, StaticValue::Bytes(bytes[(end - s) as usize..].to_vec()));
                }
            }
        }
        if value_len(&v) > 0 {
            self.items.insert(off, v);
        }
        Ok(())
    }

    /// The offsets of the items that overlap `[off, end)`, highest first.
    /// Items do not overlap each other, so walking down from `end` can stop
    /// at the first item that starts before `off`: everything below it ends
    /// where it starts or earlier (a whole initializer is linear, not
    /// quadratic, in its number of items).
    fn overlapping(&self, off: u64, end: u64) -> Vec<u64> {
        let mut found = Vec::new();
        for (&s, x) in self.items.range(..end).rev() {
            if s >= off {
                found.push(s);
                continue;
            }
            if s + value_len(x) > off {
                found.push(s);
            }
            break;
        }
        found
    }

    /// The current bytes of `[off, off + n)`.
    fn read(&self, off: u64, n: u64) -> Result<Vec<u8>, &'static str> {
        let mut out = vec![0u8; n as usize];
        for s in self.overlapping(off, off + n) {
            let v = &self.items[&s];
            let bytes = value_bytes(v).ok_or(OVERLAP_MSG)?;
            for (i, b) in bytes.iter().enumerate() {
                let at = s + i as u64;
                if at >= off && at < off + n {
                    out[(at - off) as usize] = *b;
                }
            }
        }
        Ok(out)
    }

    /// Merges a bit-field value into its storage unit.
    fn bits(&mut self, off: u64, bf: BitField, value: i128) -> Result<(), &'static str> {
        let unit = bf.unit_size as u64;
        let cur = self.read(off, unit)?;
        let mut buf = [0u8; 16];
        buf[..unit as usize].copy_from_slice(&cur);
        let cur = u128::from_le_bytes(buf);
        let mask = if bf.width >= 128 {
            u128::MAX
        } else {
            (1u128 << bf.width) - 1
        } << bf.bit_offset;
        let new = (cur & !mask) | (((value as u128) << bf.bit_offset) & mask);
        if unit.is_power_of_two() {
            self.put(off, int_value(unit, new as i128))
        } else {
            // An odd-sized unit (packed records): its bytes.
            self.put(off, StaticValue::Bytes(new.to_le_bytes()[..unit as usize].to_vec()))
        }
    }

    pub(super) fn finish(self, size: u64) -> StaticInit {
        let items = self
            .items
            .into_iter()
            .filter(|(_, v)| !is_zero(v))
            .map(|(offset, value)| StaticItem { offset, value })
            .collect();
        StaticInit { size, items }
    }
}
