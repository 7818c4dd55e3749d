//! Lvalues (C11 6.3.2.1): the address of an object, how aligned that
//! address is known to be, and, for a bit-field member, where the field sits
//! in its storage unit. Reading and writing through a place:
//!
//! * an ordinary access is one `load`/`store` of the object's IR type;
//! * an access at an address less aligned than the type (members of packed
//!   structs) goes through an aligned scratch slot with `memcpy`, which has
//!   no alignment requirement (the interpreter traps misaligned accesses, as
//!   strict-alignment hardware may);
//! * a bit-field is a read-modify-write of its storage unit, read as a
//!   little-endian unsigned integer: extraction by shifts (arithmetic for a
//!   signed member type, so the value is sign-extended), insertion by mask.
//!   A unit that would reach past the end of its record (packed records) is
//!   moved back or narrowed to the bytes the field occupies
//!   ([`fit_bitfield`]): an access never touches bytes outside the object.

use super::function::FnLower;
use super::LResult;
use crate::frontend::hir::{BitField, Expr, ExprKind};
use crate::frontend::source::Diagnostic;
use crate::frontend::types::CType;
use crate::ir::constants::IrConst;
use crate::ir::instruction::{Operand, Value};
use crate::ir::ops::IrBinOp;
use crate::ir::types::IrType;

/// Where an lvalue is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Place {
    pub addr: Value,
    /// A power of two the address is known to be a multiple of.
    pub align: u64,
    pub bitfield: Option<BitField>,
    /// For a bit-field whose unit cannot lie inside the object: only this
    /// many bytes of the unit exist (they are copied through a scratch slot).
    pub unit_bytes: Option<u8>,
}

/// Places a bit-field's storage unit inside a container of `container`
/// bytes: `offset` is where sema put the unit. Returns the unit's offset, the
/// field relative to it, and, when no whole unit fits, how many bytes exist.
pub(super) fn fit_bitfield(offset: u64, bf: BitField, container: u64) -> (u64, BitField, Option<u8>) {
    if !bf.unit_size.is_power_of_two() {
        // An exact unit of 3, 5, 6 or 7 bytes: a wider integer of which
        // only `unit_size` bytes exist.
        let n = bf.unit_size.next_power_of_two().min(16);
        let unit = BitField { unit_size: n, ..bf };
        return (offset, unit, Some(bf.unit_size.min(n)));
    }
    if offset + bf.unit_size as u64 <= container || container == 0 {
        return (offset, bf, None);
    }
    let abs = offset * 8 + bf.bit_offset as u64;
    let first = abs / 8;
    let last = (abs + bf.width.max(1) as u64 - 1) / 8;
    let len = last - first + 1;
    let n = len.next_power_of_two().min(16);
    let field = |start: u64, unit: u64| BitField {
        unit_size: unit as u8,
        bit_offset: (abs - start * 8) as u32,
        width: bf.width,
    };
    if n <= container {
        let start = first.min(container - n);
        return (start, field(start, n), None);
    }
    // Only `container - first` bytes exist from the field's first byte.
    (first, field(first, n), Some((container - first).min(n) as u8))
}

/// The largest power of two dividing both (0 counts as any alignment).
pub(super) fn common_align(align: u64, offset: u64) -> u64 {
    if offset == 0 {
        return align.max(1);
    }
    let low = 1u64 << offset.trailing_zeros();
    align.max(1).min(low)
}

fn unit_type(bytes: u8) -> IrType {
    match bytes {
        1 => IrType::U8,
        2 => IrType::U16,
        4 => IrType::U32,
        8 => IrType::U64,
        _ => IrType::U128,
    }
}

impl FnLower<'_, '_> {
    /// The place an lvalue designates. Record values that are not lvalues
    /// (call results, assignments) are materialized and give their address.
    pub fn place(&mut self, e: &Expr) -> LResult<Place> {
        let plain = |addr: Value, align: u64| Place {
            addr,
            align,
            bitfield: None,
            unit_bytes: None,
        };
        match &e.kind {
            ExprKind::Local(id) => {
                let align = self.local(*id).align.max(self.cx.types.align_of(&e.ty.ty));
                let addr = self.local_addr(*id, e.span)?;
                Ok(plain(addr, align))
            }
            ExprKind::Global(id) => {
                let g = self.cx.global(*id);
                let align = g.attrs.align.unwrap_or(0).max(match &*g.ty.ty {
                    CType::Function { .. } => 1,
                    t => self.cx.types.align_of(t),
                });
                let name = self.cx.use_global(*id);
                let addr = self.b.global_addr(&name);
                Ok(plain(addr, align))
            }
            ExprKind::Deref(p) => {
                let ptr = self.scalar(p)?;
                let addr = self.b.as_value(ptr);
                let align = match &*e.ty.ty {
                    CType::Function { .. } | CType::Void => 1,
                    t if self.cx.unaligned.contains(t) => 1,
                    t => self.cx.types.align_of(t),
                };
                Ok(plain(addr, align))
            }
            ExprKind::Member { base, offset, bitfield } => {
                let base_place = self.place(base)?;
                let (offset, bitfield, unit_bytes) = match bitfield {
                    Some(bf) => {
                        let size = self.cx.types.size_of(&base.ty.ty).unwrap_or(0);
                        let (o, b, n) = fit_bitfield(*offset, *bf, size);
                        (o, Some(b), n)
                    }
                    None => (*offset, None, None),
                };
                let elem = match bitfield {
                    Some(bf) => unit_type(bf.unit_size),
                    None => self.cx.types.scalar(&e.ty.ty).unwrap_or(IrType::I8),
                };
                let addr = self.b.offset(elem, base_place.addr, offset);
                Ok(Place {
                    addr,
                    align: common_align(base_place.align, offset),
                    bitfield,
                    unit_bytes,
                })
            }
            ExprKind::Str(id) => {
                let name = self.cx.string_symbol(*id);
                let addr = self.b.global_addr(&name);
                let unit = self.cx.program.strings.get(id.0 as usize).map_or(1, |s| s.unit as u64);
                Ok(plain(addr, unit))
            }
            ExprKind::CompoundLiteral { local, init } => {
                let l = self.local(*local);
                let addr = self.local_addr(*local, e.span)?;
                self.init_object(addr, &l.ty, init, l.align)?;
                let align = l.align.max(1);
                Ok(plain(addr, align))
            }
            _ => {
                // A record (or array) value that is not an lvalue.
                let addr = self.aggregate(e)?;
                let align = self.cx.types.align_of(&e.ty.ty);
                Ok(plain(addr, align))
            }
        }
    }

    /// Reads a scalar of IR type `ty` from a place.
    pub fn load_place(&mut self, p: Place, ty: IrType, member_signed: bool) -> Operand {
        if let Some(bf) = p.bitfield {
            return self.load_bitfield(p, bf, ty, member_signed);
        }
        self.load_at(p.addr, p.align, ty).into()
    }

    /// A load of `ty` at an address aligned to `align`.
    pub fn load_at(&mut self, addr: Value, align: u64, ty: IrType) -> Value {
        if align >= (ty.size() as u64).min(8) {
            return self.b.load(ty, addr);
        }
        let tmp = self.scratch_slot(ty);
        self.b.memcpy(tmp, addr, ty.size() as u64);
        self.b.load(ty, tmp)
    }

    /// A store of `ty` at an address aligned to `align`.
    pub fn store_at(&mut self, addr: Value, align: u64, ty: IrType, val: Operand) {
        if align >= (ty.size() as u64).min(8) {
            self.b.store(ty, val, addr);
            return;
        }
        let tmp = self.scratch_slot(ty);
        self.b.store(ty, val, tmp);
        self.b.memcpy(addr, tmp, ty.size() as u64);
    }

    /// Writes `val` (of the member's IR type `ty`) to a place. Returns the
    /// value the object now holds (for a bit-field: truncated to its width
    /// and re-extended).
    pub fn store_place(&mut self, p: Place, ty: IrType, val: Operand, member_signed: bool) -> Operand {
        match p.bitfield {
            Some(bf) => self.store_bitfield(p, bf, ty, val, member_signed),
            None => {
                self.store_at(p.addr, p.align, ty, val);
                val
            }
        }
    }

    /// Reads a bit-field's storage unit (only its existing bytes).
    fn load_unit(&mut self, p: Place, ut: IrType) -> Value {
        match p.unit_bytes {
            Some(n) => {
                let tmp = self.scratch_slot(ut);
                self.b.store(ut, Operand::Const(IrConst::zero(ut)), tmp);
                self.b.memcpy(tmp, p.addr, n as u64);
                self.b.load(ut, tmp)
            }
            None => self.load_at(p.addr, p.align, ut),
        }
    }

    /// Writes a bit-field's storage unit (only its existing bytes).
    fn store_unit(&mut self, p: Place, ut: IrType, v: Operand) {
        match p.unit_bytes {
            Some(n) => {
                let tmp = self.scratch_slot(ut);
                self.b.store(ut, v, tmp);
                self.b.memcpy(p.addr, tmp, n as u64);
            }
            None => self.store_at(p.addr, p.align, ut, v),
        }
    }

    fn load_bitfield(&mut self, p: Place, bf: BitField, ty: IrType, signed: bool) -> Operand {
        let ut = unit_type(bf.unit_size);
        let bits = ut.bits();
        let unit = self.load_unit(p, ut);
        let width = bf.width.clamp(1, bits);
        let lo = bf.bit_offset.min(bits - width);
        let field = if signed {
            let st = ut.to_signed();
            let up = bits - lo - width;
            let shifted = self.shift(IrBinOp::Shl, st, unit.into(), up);
            self.shift(IrBinOp::AShr, st, shifted, bits - width)
        } else {
            let shifted = self.shift(IrBinOp::LShr, ut, unit.into(), lo);
            if width < bits {
                self.b
                    .binop(IrBinOp::And, ut, shifted, Operand::Const(mask_const(ut, width, 0)))
                    .into()
            } else {
                shifted
            }
        };
        self.int_resize(field, if signed { ut.to_signed() } else { ut }, ty)
    }

    fn store_bitfield(&mut self, p: Place, bf: BitField, ty: IrType, val: Operand, signed: bool) -> Operand {
        let ut = unit_type(bf.unit_size);
        let bits = ut.bits();
        let width = bf.width.clamp(1, bits);
        let lo = bf.bit_offset.min(bits - width);
        let v = self.int_resize(val, ty, ut);
        let shifted = self.shift(IrBinOp::Shl, ut, v, lo);
        let new_unit = if width == bits {
            shifted
        } else {
            let old = self.load_unit(p, ut);
            let keep = self.b.binop(
                IrBinOp::And,
                ut,
                old.into(),
                Operand::Const(mask_const(ut, width, lo).not_bits(ut)),
            );
            let part = self
                .b
                .binop(IrBinOp::And, ut, shifted, Operand::Const(mask_const(ut, width, lo)));
            self.b.binop(IrBinOp::Or, ut, keep.into(), part.into()).into()
        };
        self.store_unit(p, ut, new_unit);
        // The value of the assignment: `val` cut to the field's width.
        let tb = ty.bits();
        if width >= tb {
            return val;
        }
        if signed {
            let st = ty.to_signed();
            let up = self.shift(IrBinOp::Shl, st, val, tb - width);
            self.shift(IrBinOp::AShr, st, up, tb - width)
        } else {
            self.b
                .binop(IrBinOp::And, ty, val, Operand::Const(mask_const(ty, width, 0)))
                .into()
        }
    }

    /// A shift by a constant amount (no instruction for 0).
    fn shift(&mut self, op: IrBinOp, ty: IrType, v: Operand, by: u32) -> Operand {
        if by == 0 {
            return v;
        }
        self.b
            .binop(op, ty, v, Operand::Const(IrConst::from_i128(by as i128, ty)))
            .into()
    }

    /// An integer conversion between IR types by the source's signedness
    /// (no instruction when the widths agree).
    pub fn int_resize(&mut self, v: Operand, from: IrType, to: IrType) -> Operand {
        if from.size() == to.size() {
            return match v {
                Operand::Const(c) => Operand::Const(IrConst::from_bits(c.bits_as(from), to)),
                v => v,
            };
        }
        if let Operand::Const(c) = v {
            return Operand::Const(c.coerce_to_with_src(to, Some(from)));
        }
        self.b.cast(from, to, v).into()
    }

    /// An lvalue's place for reading or writing, with the member's IR type
    /// and signedness.
    pub fn scalar_place(&mut self, e: &Expr) -> LResult<(Place, IrType, bool)> {
        let ty = self.ir(&e.ty.ty, e.span)?;
        let signed = self.cx.types.is_signed(&e.ty.ty);
        let p = self.place(e)?;
        if p.bitfield.is_some() && !ty.is_integer() {
            return Err(Diagnostic::error(e.span, "bit-field of non-integer type"));
        }
        Ok((p, ty, signed))
    }
}

/// `width` one bits starting at bit `lo`, as a constant of `ty`.
fn mask_const(ty: IrType, width: u32, lo: u32) -> IrConst {
    let ones: u128 = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
    IrConst::from_bits(ones << lo, ty)
}

trait NotBits {
    fn not_bits(self, ty: IrType) -> IrConst;
}

impl NotBits for IrConst {
    fn not_bits(self, ty: IrType) -> IrConst {
        IrConst::from_bits(!self.bits_as(ty), ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bf(unit_size: u8, bit_offset: u32, width: u32) -> BitField {
        BitField {
            unit_size,
            bit_offset,
            width,
        }
    }

    #[test]
    fn units_stay_inside_their_container() {
        // Fits: unchanged.
        assert_eq!(fit_bitfield(4, bf(4, 3, 7), 8), (4, bf(4, 3, 7), None));
        // A 16-byte unit at 0 of a 9-byte packed record, field at bits 53..68:
        // moved to the 4 bytes 5..9.
        assert_eq!(fit_bitfield(0, bf(16, 53, 15), 9), (5, bf(4, 13, 15), None));
        // A 3-byte record whose 20-bit field needs 4 bytes: only 3 exist.
        assert_eq!(fit_bitfield(0, bf(4, 0, 20), 3), (0, bf(4, 0, 20), Some(3)));
        // Sema's exact odd-sized units.
        assert_eq!(fit_bitfield(2, bf(3, 1, 20), 5), (2, bf(4, 1, 20), Some(3)));
        assert_eq!(fit_bitfield(0, bf(7, 0, 50), 7), (0, bf(8, 0, 50), Some(7)));
    }
}
