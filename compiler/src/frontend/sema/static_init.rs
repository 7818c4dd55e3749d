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
        let (t, mut leaves, _) = walked?;
        let mut size = self.size_of(&t, span)?;
        // An initialized flexible array member extends the object (GNU).
        if matches!(&*t.ty, CType::Record(_)) {
            for l in &leaves {
                size = size.max(l.offset.saturating_add(self.leaf_extent(l)));
            }
        }
        let mut img = Image::default();
        for l in leaves.drain(..) {
            let extent = self.leaf_extent(&l);
            if l.offset.checked_add(extent).is_none_or(|end| end > size) {
                return Err(err(l.span, "initializer does not fit in the object"));
            }
            self.write_leaf(&mut img, l)?;
        }
        self.give_back_leaves(leaves);
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

/// `f` of the bytes of `v`, if it is plain bytes (not an address).
fn with_value_bytes<R>(v: &StaticValue, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    match v {
        StaticValue::Int { size, bits } => Some(f(&bits.to_le_bytes()[..*size as usize])),
        StaticValue::Bytes(b) => Some(f(b)),
        StaticValue::Float {
            kind: FloatKind::Float,
            value,
        } => Some(f(&value.to_f32().to_le_bytes())),
        StaticValue::Float {
            kind: FloatKind::Double,
            value,
        } => Some(f(&value.to_f64().to_le_bytes())),
        _ => None,
    }
}

/// The bytes of `v` in `[from, to)` (offsets within `v`) as an item.
fn piece(v: &StaticValue, from: u64, to: u64) -> Result<StaticValue, &'static str> {
    with_value_bytes(v, |b| StaticValue::Bytes(b[from as usize..to as usize].to_vec())).ok_or(OVERLAP_MSG)
}

fn is_zero(v: &StaticValue) -> bool {
    match v {
        StaticValue::Int { bits, .. } => *bits == 0,
        StaticValue::Bytes(b) => b.iter().all(|&x| x == 0),
        StaticValue::Float { value, .. } => value.0 == 0,
        _ => false,
    }
}

/// A sparse image of an object's initial bytes: non-overlapping items by
/// offset. Initializers nearly always write in increasing offset order, so
/// the items are first a sorted vector that writes append to (a write that
/// reaches back over the last items, like a bit-field merged into its
/// storage unit, replaces those in place). The first write that lands before
/// the last item moves them to an ordered map, where any write costs
/// O(log n): designators in any order stay linear-logarithmic.
#[derive(Default)]
pub(super) struct Image {
    items: Vec<(u64, StaticValue)>,
    map: Option<BTreeMap<u64, StaticValue>>,
}

const OVERLAP_MSG: &str = "an initializer overwrites part of an address constant";

impl Image {
    /// Writes `v` at `off`, replacing (parts of) what was there.
    fn put(&mut self, off: u64, v: StaticValue) -> Result<(), &'static str> {
        let end = off + value_len(&v);
        if self.map.is_none() {
            let (lo, hi) = self.vec_overlapping(off, end);
            if hi == self.items.len() {
                if lo == hi {
                    if value_len(&v) > 0 {
                        self.items.push((off, v));
                    }
                    return Ok(());
                }
                // Only the lowest item can start before `off`, and only the
                // highest end after `end` (items do not overlap).
                let (s, first) = &self.items[lo];
                let left = if *s < off {
                    Some((*s, piece(first, 0, off - s)?))
                } else {
                    None
                };
                let (s, last) = &self.items[hi - 1];
                let l = value_len(last);
                let right = if s + l > end {
                    Some((end, piece(last, end - s, l)?))
                } else {
                    None
                };
                self.items.truncate(lo);
                self.items.extend(left);
                if value_len(&v) > 0 {
                    self.items.push((off, v));
                }
                self.items.extend(right);
                return Ok(());
            }
            self.map = Some(std::mem::take(&mut self.items).into_iter().collect());
        }
        let map = self.map.as_mut().expect("map mode");
        for s in map_overlapping(map, off, end) {
            let old = map.remove(&s).expect("present");
            let l = value_len(&old);
            if s < off {
                map.insert(s, piece(&old, 0, off - s)?);
            }
            if s + l > end {
                map.insert(end, piece(&old, end - s, l)?);
            }
        }
        if value_len(&v) > 0 {
            map.insert(off, v);
        }
        Ok(())
    }

    /// In vector mode, the index range of the items that overlap `[off, end)`
    /// (the same items [`map_overlapping`] finds).
    fn vec_overlapping(&self, off: u64, end: u64) -> (usize, usize) {
        let hi = self.items.partition_point(|(s, _)| *s < end);
        let mut lo = hi;
        while lo > 0 {
            let (s, x) = &self.items[lo - 1];
            if *s >= off {
                lo -= 1;
                continue;
            }
            if s + value_len(x) > off {
                lo -= 1;
            }
            break;
        }
        (lo, hi)
    }

    /// The current bytes of `[off, off + n)`, `n` at most 16 (a bit-field's
    /// storage unit), zero-extended.
    fn read(&self, off: u64, n: u64) -> Result<[u8; 16], &'static str> {
        let mut out = [0u8; 16];
        let mut copy = |s: u64, v: &StaticValue| {
            with_value_bytes(v, |bytes| {
                for (i, b) in bytes.iter().enumerate() {
                    let at = s + i as u64;
                    if at >= off && at < off + n {
                        out[(at - off) as usize] = *b;
                    }
                }
            })
            .ok_or(OVERLAP_MSG)
        };
        match &self.map {
            Some(map) => {
                for s in map_overlapping(map, off, off + n) {
                    copy(s, &map[&s])?;
                }
            }
            None => {
                let (lo, hi) = self.vec_overlapping(off, off + n);
                for (s, v) in &self.items[lo..hi] {
                    copy(*s, v)?;
                }
            }
        }
        Ok(out)
    }

    /// Merges a bit-field value into its storage unit.
    fn bits(&mut self, off: u64, bf: BitField, value: i128) -> Result<(), &'static str> {
        let unit = bf.unit_size as u64;
        let mask = if bf.width >= 128 {
            u128::MAX
        } else {
            (1u128 << bf.width) - 1
        } << bf.bit_offset;
        let cur = u128::from_le_bytes(self.read(off, unit)?);
        let new = (cur & !mask) | (((value as u128) << bf.bit_offset) & mask);
        if unit.is_power_of_two() {
            self.put(off, int_value(unit, new as i128))
        } else {
            // An odd-sized unit (packed records): its bytes.
            self.put(off, StaticValue::Bytes(new.to_le_bytes()[..unit as usize].to_vec()))
        }
    }

    pub(super) fn finish(self, size: u64) -> StaticInit {
        let keep = |(offset, value): (u64, StaticValue)| (!is_zero(&value)).then_some(StaticItem { offset, value });
        let items = match self.map {
            Some(map) => map.into_iter().filter_map(keep).collect(),
            None => self.items.into_iter().filter_map(keep).collect(),
        };
        StaticInit { size, items }
    }
}

/// The offsets of the items of `map` that overlap `[off, end)`, highest
/// first. Items do not overlap each other, so walking down from `end` can
/// stop at the first item that starts before `off`: everything below it ends
/// where it starts or earlier (a whole initializer is linear, not quadratic,
/// in its number of items).
fn map_overlapping(map: &BTreeMap<u64, StaticValue>, off: u64, end: u64) -> Vec<u64> {
    let mut found = Vec::new();
    for (&s, x) in map.range(..end).rev() {
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

#[cfg(test)]
mod tests {
    use super::super::super::hir::AddrTarget;
    use super::*;

    fn int(size: u8, bits: u128) -> StaticValue {
        StaticValue::Int { size, bits }
    }

    fn items(img: Image) -> Vec<(u64, StaticValue)> {
        img.finish(64).items.into_iter().map(|i| (i.offset, i.value)).collect()
    }

    #[test]
    fn writes_in_order_append() {
        let mut img = Image::default();
        img.put(0, int(4, 1)).unwrap();
        img.put(4, int(4, 0)).unwrap();
        img.put(8, int(8, 3)).unwrap();
        assert!(img.map.is_none());
        // The zero item is dropped at the end.
        assert_eq!(items(img), [(0, int(4, 1)), (8, int(8, 3))]);
    }

    #[test]
    fn a_later_write_splits_an_earlier_one() {
        for in_map in [false, true] {
            let mut img = Image::default();
            if in_map {
                // An item written after one below it switches to the map.
                img.put(32, int(1, 7)).unwrap();
            }
            img.put(0, int(8, 0x1122_3344_5566_7788)).unwrap();
            assert_eq!(img.map.is_some(), in_map);
            img.put(2, int(2, 0xaaaa)).unwrap();
            let mut want = vec![
                (0, StaticValue::Bytes(vec![0x88, 0x77])),
                (2, int(2, 0xaaaa)),
                (4, StaticValue::Bytes(vec![0x44, 0x33, 0x22, 0x11])),
            ];
            if in_map {
                want.push((32, int(1, 7)));
            }
            assert_eq!(items(img), want);
        }
    }

    #[test]
    fn writes_out_of_order_end_sorted() {
        let mut img = Image::default();
        img.put(8, int(4, 2)).unwrap();
        img.put(0, int(4, 1)).unwrap();
        img.put(4, int(8, 9)).unwrap();
        img.put(12, int(4, 5)).unwrap();
        assert_eq!(items(img), [(0, int(4, 1)), (4, int(8, 9)), (12, int(4, 5))]);
    }

    #[test]
    fn bit_fields_merge_into_their_unit() {
        let bf = |bit_offset, width| BitField {
            unit_size: 4,
            bit_offset,
            width,
        };
        let mut img = Image::default();
        img.put(0, int(4, 0xffff_ffff)).unwrap();
        img.bits(4, bf(0, 3), 5).unwrap();
        img.bits(4, bf(3, 4), 9).unwrap();
        img.bits(4, bf(0, 1), 0).unwrap();
        assert!(img.map.is_none());
        assert_eq!(items(img), [(0, int(4, 0xffff_ffff)), (4, int(4, 4 | (9 << 3)))]);
    }

    #[test]
    fn an_address_constant_cannot_be_split() {
        for first_below in [false, true] {
            let mut img = Image::default();
            if first_below {
                img.put(16, int(1, 1)).unwrap();
            }
            let addr = StaticValue::Addr {
                target: AddrTarget::Global(crate::frontend::hir::GlobalId(0)),
                offset: 0,
            };
            img.put(0, addr).unwrap();
            assert_eq!(img.put(4, int(1, 1)), Err(OVERLAP_MSG));
        }
    }
}
