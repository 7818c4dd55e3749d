//! Run-time initialization of automatic objects and compound literals
//! (C11 6.7.9).
//!
//! A single expression is stored (scalar), copied (record value), or, for a
//! character array initialized by a string literal, copied from the literal
//! (the rest of the array zero-filled). An initializer list means "zero the
//! object, then do each store in order" (6.7.9p10, p19, p21). The list is
//! flattened to leaf stores at absolute offsets; only the bytes no leaf
//! covers are zeroed (bit-field storage units always are), with the widest
//! aligned stores, or a call to `memset` for long runs. The result is the
//! same bytes as zeroing everything first.
//!
//! An object of at least [`MIN_IMAGE`] bytes whose list has at least
//! [`MIN_IMAGE_LEAVES`] constant numbers, mostly constants, constants over
//! at least a quarter of its bytes, and no two leaves over the same bytes,
//! is instead copied from a read-only image of
//! its constant bytes (zeros included), and only the other leaves are
//! stored after it: a `memcpy` from `.rodata` instead of an immediate and a
//! store per element, as gcc and clang do (Csmith's `int16_t l[6][3][10] =
//! {...}` was 180 moves and 180 stores, translated anew by QEMU at every
//! run, where gcc -O0 copies).

use super::function::FnLower;
use super::place::{common_align, fit_bitfield, Place};
use super::repr::Repr;
use super::LResult;
use crate::frontend::hir::{BitField, Expr, ExprKind, Init};
use crate::frontend::types::{CType, QualType};
use crate::ir::constants::IrConst;
use crate::ir::instruction::{CallInfo, Operand, Value};
use crate::ir::module::{GlobalInit, IrGlobal};
use crate::ir::types::IrType;

/// Zero runs longer than this are cleared with `memset`.
const MAX_INLINE_ZERO: u64 = 64;

/// The smallest object initialized from a read-only image.
const MIN_IMAGE: u64 = 64;

/// The fewest constant leaves for an image.
const MIN_IMAGE_LEAVES: usize = 8;

struct Leaf<'e> {
    offset: u64,
    bitfield: Option<BitField>,
    expr: &'e Expr,
}

fn flatten<'e>(init: &'e Init, base: u64, out: &mut Vec<Leaf<'e>>) {
    match init {
        Init::Expr(e) => out.push(Leaf {
            offset: base,
            bitfield: None,
            expr: e,
        }),
        Init::List { stores } => {
            for s in stores {
                match (&s.init, s.bitfield) {
                    (Init::Expr(e), Some(bf)) => out.push(Leaf {
                        offset: base + s.offset,
                        bitfield: Some(bf),
                        expr: e,
                    }),
                    (init, _) => flatten(init, base + s.offset, out),
                }
            }
        }
    }
}

impl FnLower<'_, '_> {
    /// Initializes the object of type `ty` at `addr` (aligned to `align`).
    pub fn init_object(&mut self, addr: Value, ty: &QualType, init: &Init, align: u64) -> LResult<()> {
        let align = align.max(self.cx.types.align_of(&ty.ty));
        if let Init::Expr(e) = init {
            // `struct S s = f();`: the callee writes the new object directly.
            if self.call_into(e, addr)? {
                return Ok(());
            }
        }
        let size = self.cx.types.size_of(&ty.ty);
        let mut leaves = Vec::new();
        flatten(init, 0, &mut leaves);
        let single = matches!(init, Init::Expr(_));
        // Bytes each leaf covers.
        let mut covered: Vec<(u64, u64)> = Vec::new();
        for l in &leaves {
            if l.bitfield.is_some() {
                continue;
            }
            let n = self.leaf_size(l.expr);
            covered.push((l.offset, l.offset + n));
        }
        let end = size.unwrap_or_else(|| covered.iter().map(|c| c.1).max().unwrap_or(0));
        if !single && !ty.quals.is_volatile {
            if let Some(size) = size {
                if let Some(rest) = self.init_from_image(addr, size, &leaves) {
                    leaves = rest;
                    return self.store_leaves(addr, align, end, &leaves);
                }
            }
        }
        if !single || size.is_some_and(|s| covered.iter().map(|c| c.1).max().unwrap_or(0) < s) {
            for (from, to) in gaps(&mut covered, end) {
                self.zero_fill(addr, align, from, to);
            }
        }
        self.store_leaves(addr, align, end, &leaves)
    }

    /// Stores `leaves` in order into the object at `addr` of `end` bytes.
    fn store_leaves(&mut self, addr: Value, align: u64, end: u64, leaves: &[Leaf<'_>]) -> LResult<()> {
        for l in leaves {
            let (offset, bitfield, unit_bytes) = match l.bitfield {
                Some(bf) => {
                    let (o, b, n) = fit_bitfield(l.offset, bf, end);
                    (o, Some(b), n)
                }
                None => (l.offset, None, None),
            };
            let at = self.b.offset(IrType::I8, addr, offset);
            let place = Place {
                addr: at,
                align: common_align(align, offset),
                bitfield,
                unit_bytes,
            };
            self.store_leaf(place, l.expr)?;
        }
        Ok(())
    }

    /// Copies the constant bytes of an initializer list (and the zeros
    /// between them) from a read-only image into the object at `addr` of
    /// `size` bytes, when that pays (see the module comment); returns the
    /// leaves still to store, in order. `None`: nothing was emitted.
    fn init_from_image<'e>(&mut self, addr: Value, size: u64, leaves: &[Leaf<'e>]) -> Option<Vec<Leaf<'e>>> {
        if size < MIN_IMAGE {
            return None;
        }
        // Each leaf's size and, for a constant number, its bytes; decided on
        // before allocating anything the size of the object. Mostly zeros
        // (`int t[1024] = {1, 2, ...}`): `memset` and stores beat a
        // kilobytes-long image of zeros in `.rodata`.
        let info: Vec<(u64, Option<Vec<u8>>)> = leaves
            .iter()
            .map(|l| {
                let n = self.leaf_size(l.expr);
                let bytes = match l.bitfield {
                    None => self.constant_bytes(l.expr).filter(|b| b.len() as u64 == n),
                    Some(_) => None,
                };
                (n, bytes)
            })
            .collect();
        let constants = info.iter().filter(|(_, b)| b.is_some()).count();
        let constant_bytes: u64 = info.iter().filter(|(_, b)| b.is_some()).map(|(n, _)| n).sum();
        if constants < MIN_IMAGE_LEAVES || constants < leaves.len() - constants || constant_bytes * 4 < size {
            return None;
        }
        let mut image = vec![0u8; usize::try_from(size).ok()?];
        let mut written = vec![false; image.len()];
        let mut rest = Vec::new();
        for (l, (n, bytes)) in leaves.iter().zip(info) {
            let (from, to) = (usize::try_from(l.offset).ok()?, usize::try_from(l.offset + n).ok()?);
            if l.bitfield.is_some() {
                // Stored after the copy, into zeros of the image; its unit is its own.
                rest.push(Leaf { ..*l });
                continue;
            }
            if to > image.len() || written[from..to].iter().any(|&w| w) {
                return None; // a later leaf over an earlier one: keep the order of stores
            }
            written[from..to].iter_mut().for_each(|w| *w = true);
            match bytes {
                Some(b) => image[from..to].copy_from_slice(&b),
                None => rest.push(Leaf { ..*l }),
            }
        }
        let name = format!(".init{}", self.cx.init_images.len());
        let align = self
            .cx
            .types
            .align_of(&CType::Int(crate::frontend::types::IntKind::Long));
        self.cx.init_images.push(IrGlobal {
            name: name.clone(),
            ty: IrType::I8,
            size: image.len(),
            align: align as usize,
            init: GlobalInit::Array(image.into_iter().map(|b| IrConst::I8(b as i8)).collect()),
            is_static: true,
            is_const: true,
            ..IrGlobal::default()
        });
        let src = self.b.global_addr(&name);
        self.b.memcpy(addr, src, size);
        Some(rest)
    }

    /// The bytes a constant number initializer stores (little-endian, as
    /// on every target), or `None` for anything else.
    fn constant_bytes(&self, e: &Expr) -> Option<Vec<u8>> {
        match (&e.kind, &*e.ty.ty) {
            (ExprKind::Float(v), CType::Float(kind)) => {
                Some(super::static_data::float_bytes(*kind, *v, self.cx.types.target))
            }
            (ExprKind::Int(v), _) => match self.cx.types.repr(&e.ty.ty) {
                Ok(Repr::Scalar(t)) if !t.is_float() && t.size() <= 16 => {
                    let mut b = v.to_le_bytes()[..t.size()].to_vec();
                    // The injected bug writes the number big-endian.
                    if crate::inject::enabled(crate::inject::Bug::InitImageByteOrder) {
                        b.reverse();
                    }
                    Some(b)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// How many bytes an initializer expression writes.
    fn leaf_size(&self, e: &Expr) -> u64 {
        if let ExprKind::Str(id) = &e.kind {
            let lit = self
                .cx
                .program
                .strings
                .get(id.0 as usize)
                .map_or(0, |s| s.bytes.len() as u64);
            return self.cx.types.size_of(&e.ty.ty).unwrap_or(lit).min(lit.max(1));
        }
        match self.cx.types.repr(&e.ty.ty) {
            Ok(Repr::Scalar(t)) => t.size() as u64,
            Ok(Repr::Aggregate { size, .. }) => size,
            _ => 0,
        }
    }

    fn store_leaf(&mut self, p: Place, e: &Expr) -> LResult<()> {
        match self.repr(&e.ty.ty, e.span)? {
            Repr::Scalar(ty) => {
                let v = self.scalar(e)?;
                let signed = self.cx.types.is_signed(&e.ty.ty);
                self.store_place(p, ty, v, signed);
            }
            Repr::Aggregate { .. } => {
                let n = self.leaf_size(e);
                let src = if e.is_lvalue() {
                    self.place(e)?.addr
                } else {
                    self.aggregate(e)?
                };
                self.b.memcpy(p.addr, src, n);
            }
            Repr::Void => self.effect(e)?,
        }
        Ok(())
    }

    /// Zeroes bytes `from..to` of the object at `addr`.
    pub fn zero_fill(&mut self, addr: Value, align: u64, from: u64, to: u64) {
        if to <= from {
            return;
        }
        if to - from > MAX_INLINE_ZERO {
            let at = self.b.offset(IrType::I8, addr, from);
            self.cx
                .use_runtime("memset", IrType::Ptr, &[IrType::Ptr, IrType::I32, IrType::U64]);
            self.b.call(
                "memset",
                CallInfo {
                    dest: None,
                    args: vec![
                        at.into(),
                        Operand::Const(IrConst::I32(0)),
                        Operand::Const(IrConst::I64((to - from) as i64)),
                    ],
                    arg_types: vec![IrType::Ptr, IrType::I32, IrType::U64],
                    return_type: IrType::Ptr,
                    num_fixed_args: 3,
                    ..CallInfo::default()
                },
            );
            return;
        }
        let mut pos = from;
        while pos < to {
            let a = common_align(align, pos);
            let w = [8u64, 4, 2, 1]
                .into_iter()
                .find(|&w| w <= to - pos && a >= w)
                .unwrap_or(1);
            let ty = match w {
                8 => IrType::I64,
                4 => IrType::I32,
                2 => IrType::I16,
                _ => IrType::I8,
            };
            let at = self.b.offset(ty, addr, pos);
            self.b.store(ty, Operand::Const(IrConst::zero(ty)), at);
            pos += w;
        }
    }
}

/// The sub-ranges of `0..end` that no range of `covered` contains.
fn gaps(covered: &mut [(u64, u64)], end: u64) -> Vec<(u64, u64)> {
    covered.sort();
    let mut out = Vec::new();
    let mut pos = 0;
    for &(a, b) in covered.iter() {
        if a > pos {
            out.push((pos, a.min(end)));
        }
        pos = pos.max(b);
    }
    if pos < end {
        out.push((pos, end));
    }
    out.retain(|(a, b)| a < b);
    out
}

#[cfg(test)]
mod tests {
    use super::gaps;

    #[test]
    fn gaps_between_and_around_covered_ranges() {
        assert_eq!(gaps(&mut [(4, 8), (0, 2)], 12), vec![(2, 4), (8, 12)]);
        assert_eq!(gaps(&mut [(0, 4), (2, 12)], 12), vec![]);
        assert_eq!(gaps(&mut [], 3), vec![(0, 3)]);
        assert_eq!(gaps(&mut [(0, 16)], 8), vec![]);
    }
}
