//! Moving values: loads and stores of every width with displacements of any
//! size (`t6` carries those beyond 12 bits), immediates (`li`), the
//! addresses of frame objects and symbols (rematerialized where used:
//! `lla` for the module's own symbols, a GOT load through
//! `%got_pcrel_hi`/`%pcrel_lo` otherwise, initial-exec for thread-locals),
//! operands into integer registers (extended as the type or the psABI
//! says), FP registers and register pairs, constants' memory images, and
//! memory-to-memory copies.

use super::regs::{fits_i12, load_op, store_op, Fpr, Gpr, Mem, S0, T0, T1, T2, T6, ZERO};
use super::{emit, FnEmitter, RegHome};
use crate::backend::data::pieces;
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::constants::IrConst;
use crate::ir::instruction::{Operand, Value};
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// What an integer register holds: the extension of its low `.0` bytes by
/// `.1` (signed); `.0 == 8` is any 64-bit value, `.0 == 0` a 0/1 flag
/// (extended every way).
pub(super) type Ext = (usize, bool);

/// A register whose contents are unknown beyond being 64 bits.
pub(super) const FULL: Ext = (8, false);
/// A 0/1 result.
pub(super) const FLAG: Ext = (0, false);
/// The result of a 32-bit `*w` instruction (RV64 keeps those sign-extended).
pub(super) const WORD: Ext = (4, true);

/// How a value of type `t` is kept in a home register. The allocator only
/// promises the low `size` bytes; this backend keeps more so that readers
/// need no extension: a 32-bit value sign-extended (as RV64's `*w`
/// instructions, `lw` and the psABI leave it, whatever its signedness),
/// 8- and 16-bit values extended by their type's signedness, the rest as is.
pub(super) fn canon(t: IrType) -> Ext {
    match t.size() {
        4 => WORD,
        s @ (1 | 2) => (s, t.is_signed()),
        _ => FULL,
    }
}

/// Whether a register holding `have` already is what a reader asking for
/// `want` (its low `want.0` bytes extended by `want.1`) would compute.
pub(super) fn ext_ok(have: Ext, want: Ext) -> bool {
    let ((hs, hsg), (ws, wsg)) = (have, want);
    if ws >= 8 {
        return true;
    }
    match hs.cmp(&ws) {
        std::cmp::Ordering::Equal => hsg == wsg || hs == 0,
        // Extended from fewer bytes: a zero extension is every extension
        // of the wider part, a sign extension only its sign extension.
        std::cmp::Ordering::Less => !hsg || wsg,
        std::cmp::Ordering::Greater => false,
    }
}

impl FnEmitter<'_, '_> {
    /// The memory of a locals-area offset that may lie outside the area.
    pub(super) fn frame_mem(&self, off: i64) -> Mem {
        Mem::new(S0, off - self.area_top)
    }

    /// Puts the address of symbol `name` plus `offset` into `r`: PC-relative
    /// (`lla`) when the module defines it, else from the GOT, or for a
    /// thread-local the initial-exec offset plus `tp`.
    pub(super) fn symbol_address(&mut self, name: &str, offset: i64, r: Gpr) {
        let sym = crate::backend::symbol(name);
        let mut extra = offset;
        if self.cx.thread_local.contains(name) {
            emit!(self, "\tla.tls.ie\t{r}, {sym}");
            emit!(self, "\tadd\t{r}, {r}, tp");
        } else if self.cx.is_defined(name) || name.starts_with(".L") {
            match offset {
                0 => emit!(self, "\tlla\t{r}, {sym}"),
                o => emit!(self, "\tlla\t{r}, {sym}{o:+}"),
            }
            extra = 0;
        } else {
            let l = self.cx.labels.fresh();
            emit!(self, ".Lgot{l}:");
            emit!(self, "\tauipc\t{r}, %got_pcrel_hi({sym})");
            emit!(self, "\tld\t{r}, %pcrel_lo(.Lgot{l})({r})");
        }
        if extra != 0 {
            if fits_i12(extra) || r != T6 {
                self.add_imm(r, r, extra);
            } else {
                // t6 is the target: step with 12-bit immediates (offsets stay below 2^30).
                let mut left = extra;
                while left != 0 {
                    let step = left.clamp(-2048, 2047);
                    emit!(self, "\taddi\t{r}, {r}, {step}");
                    left -= step;
                }
            }
        }
    }

    /// Puts the address an address home stands for into `r` (nothing for
    /// slots and undefined values).
    pub(super) fn materialize(&mut self, home: Home, r: Gpr) {
        match home {
            Home::Alloca { offset, align } => self.alloca_address(offset, align, r),
            Home::FrameAddr(o) => {
                let m = self.frame_mem(o);
                self.add_imm(r, S0, m.disp);
            }
            Home::SymbolAddr { sym, offset } => {
                let name = self.layout.symbol(sym).clone();
                self.symbol_address(&name, offset, r);
            }
            Home::Reg(p) => match super::phys(p) {
                RegHome::G(g) => {
                    if g != r {
                        emit!(self, "\tmv\t{r}, {g}");
                    }
                }
                RegHome::F(f) => emit!(self, "\tfmv.x.d\t{r}, {f}"),
            },
            Home::Slot(_) | Home::None => {}
        }
    }

    /// `to = from`'s low `want.0` bytes extended by `want.1` (a plain move
    /// for 8 bytes; nothing when `from == to` needs no change).
    pub(super) fn extend(&mut self, from: Gpr, want: Ext, to: Gpr) {
        match want {
            (1, false) => emit!(self, "\tandi\t{to}, {from}, 255"),
            (4, true) => emit!(self, "\tsext.w\t{to}, {from}"),
            (s @ (1 | 2 | 4), signed) => {
                let k = 64 - 8 * s;
                emit!(self, "\tslli\t{to}, {from}, {k}");
                emit!(self, "\t{}\t{to}, {to}, {k}", if signed { "srai" } else { "srli" });
            }
            _ => {
                if from != to {
                    emit!(self, "\tmv\t{to}, {from}");
                }
            }
        }
    }

    /// An integer operand of type `ty` in a register, extended to 64 bits by
    /// `signed` (`None`: the reader only looks at the low `ty.size()`
    /// bytes, so any extension will do): its home register when that is
    /// already right, else loaded into `scratch` (the zero register for 0).
    pub(super) fn gpr_operand(
        &mut self,
        op: &Operand,
        ty: IrType,
        signed: Option<bool>,
        scratch: Gpr,
    ) -> Result<Gpr, BackendError> {
        let size = ty.size().clamp(1, 8);
        match op {
            Operand::Const(c) if Self::const_i64(c, ty, signed.unwrap_or(ty.is_signed())) == 0 => return Ok(ZERO),
            Operand::Value(v) => {
                if let Some(g) = self.gpr_of(*v) {
                    let want = match signed {
                        Some(s) => (size, s),
                        None => FULL,
                    };
                    if ext_ok(canon(self.types.of(*v)), want) {
                        return Ok(g);
                    }
                }
            }
            _ => {}
        }
        self.load_int(op, ty, signed.unwrap_or(ty.is_signed()), scratch)?;
        Ok(scratch)
    }

    /// A `float`/`double` operand in an FP register: its home register when
    /// it has the type, else loaded into `scratch`.
    pub(super) fn fpr_operand(&mut self, op: &Operand, ty: IrType, scratch: Fpr) -> Result<Fpr, BackendError> {
        if let Operand::Value(v) = op {
            if let Some(f) = self.fpr_of(*v) {
                if self.types.of(*v) == ty {
                    return Ok(f);
                }
            }
        }
        self.load_f(op, ty, scratch)?;
        Ok(scratch)
    }

    /// Where to compute an integer result for `dest`: its home register, or `scratch`.
    pub(super) fn dest_gpr(&self, dest: Value, scratch: Gpr) -> Gpr {
        self.gpr_of(dest).unwrap_or(scratch)
    }

    /// Where to compute a `ty` FP result for `dest`: its home register (when
    /// it has that type), or `scratch`.
    pub(super) fn dest_fpr(&self, dest: Value, ty: IrType, scratch: Fpr) -> Fpr {
        match self.fpr_of(dest) {
            Some(f) if self.types.of(dest) == ty => f,
            _ => scratch,
        }
    }

    /// The operand text of `m` for a load or store: `disp(base)`, after
    /// adding a displacement beyond 12 bits to the base in `t6`.
    pub(super) fn mem_operand(&mut self, m: Mem) -> String {
        if let Some(l) = m.pcrel {
            return format!("%pcrel_lo(.Lpc{l})({})", m.base);
        }
        if fits_i12(m.disp) {
            format!("{}({})", m.disp, m.base)
        } else {
            debug_assert!(m.base != T6, "t6 is the displacement register");
            emit!(self, "\tli\tt6, {}", m.disp);
            emit!(self, "\tadd\tt6, t6, {}", m.base);
            "0(t6)".to_string()
        }
    }

    /// `rd = rs + imm` for any 64-bit `imm`.
    pub(super) fn add_imm(&mut self, rd: Gpr, rs: Gpr, imm: i64) {
        if fits_i12(imm) {
            if imm != 0 || rd != rs {
                emit!(self, "\taddi\t{rd}, {rs}, {imm}");
            }
        } else {
            debug_assert!(rs != T6);
            emit!(self, "\tli\tt6, {imm}");
            emit!(self, "\tadd\t{rd}, {rs}, t6");
        }
    }

    /// `r = imm`.
    pub(super) fn li(&mut self, r: Gpr, imm: i64) {
        if imm == 0 {
            emit!(self, "\tmv\t{r}, zero");
        } else {
            emit!(self, "\tli\t{r}, {imm}");
        }
    }

    /// `r = the size-byte integer at m`, extended to 64 bits.
    pub(super) fn load_mem(&mut self, m: Mem, size: usize, signed: bool, r: Gpr) {
        let op = self.mem_operand(m);
        emit!(self, "\t{}\t{r}, {op}", load_op(size, signed));
    }

    /// Stores the low `size` (1, 2, 4 or 8) bytes of `r` to `m`.
    pub(super) fn store_mem(&mut self, r: Gpr, size: usize, m: Mem) {
        let op = self.mem_operand(m);
        emit!(self, "\t{}\t{r}, {op}", store_op(size));
    }

    /// Loads a `float`/`double` at `m` into `fr`.
    pub(super) fn load_fmem(&mut self, m: Mem, ty: IrType, fr: Fpr) {
        let op = self.mem_operand(m);
        let mn = if ty == IrType::F32 { "flw" } else { "fld" };
        emit!(self, "\t{mn}\t{fr}, {op}");
    }

    /// Stores `fr` as a `float`/`double` to `m`.
    pub(super) fn store_fmem(&mut self, fr: Fpr, ty: IrType, m: Mem) {
        let op = self.mem_operand(m);
        let mn = if ty == IrType::F32 { "fsw" } else { "fsd" };
        emit!(self, "\t{mn}\t{fr}, {op}");
    }

    /// `r = address of the alloca object at offset` (rounded up at run time
    /// when it is aligned beyond 16).
    pub(super) fn alloca_address(&mut self, offset: u32, align: u32, r: Gpr) {
        let m = self.area(offset);
        self.add_imm(r, S0, m.disp);
        if align > 16 {
            self.add_imm(r, r, align as i64 - 16);
            let mask = -(align as i64);
            if fits_i12(mask) {
                emit!(self, "\tandi\t{r}, {r}, {mask}");
            } else {
                emit!(self, "\tli\tt6, {mask}");
                emit!(self, "\tand\t{r}, {r}, t6");
            }
        }
    }

    /// The memory a pointer value addresses: an alloca's object directly,
    /// otherwise the pointer is loaded into `scratch`.
    pub(super) fn addr_of(&mut self, ptr: Value, scratch: Gpr) -> Result<Mem, BackendError> {
        match self.layout.home(ptr) {
            Home::Alloca { offset, align } if align <= 16 => Ok(self.area(offset)),
            Home::FrameAddr(o) => Ok(self.frame_mem(o)),
            home @ (Home::Alloca { .. } | Home::SymbolAddr { .. }) => {
                self.materialize(home, scratch);
                Ok(Mem::new(scratch, 0))
            }
            Home::Slot(off) => {
                let m = self.area(off);
                self.load_mem(m, 8, false, scratch);
                Ok(Mem::new(scratch, 0))
            }
            Home::Reg(p) => match super::phys(p) {
                RegHome::G(g) => Ok(Mem::new(g, 0)),
                RegHome::F(f) => {
                    emit!(self, "\tfmv.x.d\t{scratch}, {f}");
                    Ok(Mem::new(scratch, 0))
                }
            },
            Home::None => Err(self.internal(format!("{ptr} is used but never defined"))),
        }
    }

    /// The pointer value `ptr` in register `r`.
    pub(super) fn load_ptr(&mut self, ptr: &Operand, r: Gpr) -> Result<(), BackendError> {
        self.load_int(ptr, IrType::Ptr, false, r)
    }

    /// Loads an integer-class operand of type `ty` into `r`, extended to 64
    /// bits (sign-extended when `signed`). An alloca's value is its address;
    /// a 16-byte value gives its low half; a float gives its bits.
    pub(super) fn load_int(&mut self, op: &Operand, ty: IrType, signed: bool, r: Gpr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let imm = Self::const_i64(c, ty, signed);
                self.li(r, imm);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    self.load_mem(m, ty.size().clamp(1, 8), signed, r);
                }
                Home::Reg(p) => {
                    let want = (ty.size().clamp(1, 8), signed);
                    let (from, have) = match super::phys(p) {
                        RegHome::G(g) => (g, canon(self.types.of(*v))),
                        RegHome::F(f) => {
                            // The float's bits (`fmv.x.w` sign-extends them).
                            if self.types.of(*v) == IrType::F32 {
                                emit!(self, "\tfmv.x.w\t{r}, {f}");
                                (r, WORD)
                            } else {
                                emit!(self, "\tfmv.x.d\t{r}, {f}");
                                (r, FULL)
                            }
                        }
                    };
                    if ext_ok(have, want) {
                        self.extend(from, FULL, r);
                    } else {
                        self.extend(from, want, r);
                    }
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                home => self.materialize(home, r),
            },
        }
        Ok(())
    }

    /// Loads an operand's bits with the extension its type implies.
    pub(super) fn load(&mut self, op: &Operand, ty: IrType, r: Gpr) -> Result<(), BackendError> {
        self.load_int(op, ty, ty.is_signed(), r)
    }

    /// Loads an operand as the psABI wants it in an integer register:
    /// narrower integers widened by their signedness to 32 bits, then
    /// sign-extended to 64 (so `u32` is sign-extended too).
    pub(super) fn load_abi(&mut self, op: &Operand, ty: IrType, r: Gpr) -> Result<(), BackendError> {
        let signed = ty.is_signed() || ty.size() == 4;
        self.load_int(op, ty, signed, r)
    }

    /// Loads a `float`/`double` operand into `fr`.
    pub(super) fn load_f(&mut self, op: &Operand, ty: IrType, fr: Fpr) -> Result<(), BackendError> {
        let ty = if ty == IrType::F32 { IrType::F32 } else { IrType::F64 };
        let mv = if ty == IrType::F32 { "fmv.w.x" } else { "fmv.d.x" };
        match op {
            Operand::Const(c) => {
                let bits = c.bits_as(ty) as u64;
                if bits == 0 {
                    emit!(self, "\t{mv}\t{fr}, zero");
                } else {
                    self.li(T6, bits as i64);
                    emit!(self, "\t{mv}\t{fr}, t6");
                }
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    self.load_fmem(m, ty, fr);
                }
                Home::Reg(p) => {
                    let vt = self.types.of(*v);
                    match super::phys(p) {
                        RegHome::F(f) if vt == ty || vt == IrType::F32 => {
                            if f != fr {
                                emit!(self, "\tfmv.{}\t{fr}, {f}", if ty == IrType::F32 { "s" } else { "d" });
                            }
                        }
                        RegHome::F(f) => {
                            // A double's low half read as a float (as from its slot).
                            emit!(self, "\tfmv.x.d\tt6, {f}");
                            emit!(self, "\t{mv}\t{fr}, t6");
                        }
                        RegHome::G(g) => emit!(self, "\t{mv}\t{fr}, {g}"),
                    }
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                home => {
                    self.materialize(home, T6);
                    emit!(self, "\t{mv}\t{fr}, t6");
                }
            },
        }
        Ok(())
    }

    /// Loads a 16-byte operand (of type `ty`: `i128`, `u128` or `f128`)
    /// into `lo:hi`. A narrower value gives its bits and a zero high half.
    pub(super) fn load_pair(&mut self, op: &Operand, ty: IrType, lo: Gpr, hi: Gpr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let [l, h] = Self::const_words(c, ty);
                self.li(lo, l as i64);
                self.li(hi, h as i64);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    if self.types.of(*v).size() > 8 {
                        self.load_mem(m, 8, false, lo);
                        self.load_mem(m.at(8), 8, false, hi);
                    } else {
                        let t = self.types.of(*v);
                        self.load_mem(m, t.size().clamp(1, 8), t.is_signed(), lo);
                        self.li(hi, 0);
                    }
                }
                Home::Reg(_) => {
                    let t = self.types.of(*v);
                    self.load_int(op, t, t.is_signed(), lo)?;
                    self.li(hi, 0);
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                home => {
                    self.materialize(home, lo);
                    self.li(hi, 0);
                }
            },
        }
        Ok(())
    }

    /// Stores `lo:hi` into the 16-byte slot of `dest`.
    pub(super) fn store_pair(&mut self, lo: Gpr, hi: Gpr, dest: Value) -> Result<(), BackendError> {
        let m = self.slot(dest)?;
        self.store_mem(lo, 8, m);
        self.store_mem(hi, 8, m.at(8));
        Ok(())
    }

    /// Stores `r` into the home of `v` at the width of `ty`.
    pub(super) fn store(&mut self, r: Gpr, ty: IrType, v: Value) -> Result<(), BackendError> {
        self.store_ext(r, ty, v, FULL)
    }

    /// Stores `r`, known to hold `have`, into the home of `v` at the width
    /// of `ty`: a slot, or its register (extended as [`canon`] keeps it,
    /// nothing when `r` is that register and already right).
    pub(super) fn store_ext(&mut self, r: Gpr, ty: IrType, v: Value, have: Ext) -> Result<(), BackendError> {
        match self.reg_of(v) {
            Some(RegHome::G(g)) => {
                let want = canon(self.types.of(v));
                if ext_ok(have, want) {
                    self.extend(r, FULL, g);
                } else {
                    self.extend(r, want, g);
                }
                Ok(())
            }
            Some(RegHome::F(f)) => {
                let mv = if self.types.of(v) == IrType::F32 {
                    "fmv.w.x"
                } else {
                    "fmv.d.x"
                };
                emit!(self, "\t{mv}\t{f}, {r}");
                Ok(())
            }
            None => {
                let m = self.slot(v)?;
                self.store_mem(r, ty.size().clamp(1, 8), m);
                Ok(())
            }
        }
    }

    /// Stores the `float`/`double` `fr` (of type `ty`) into the home of `v`.
    pub(super) fn store_f(&mut self, fr: Fpr, ty: IrType, v: Value) -> Result<(), BackendError> {
        let vt = self.types.of(v);
        let bits = if ty == IrType::F32 { "fmv.x.w" } else { "fmv.x.d" };
        let have = if ty == IrType::F32 { WORD } else { FULL };
        match self.reg_of(v) {
            Some(RegHome::F(f)) if vt == ty => {
                if f != fr {
                    emit!(self, "\tfmv.{}\t{f}, {fr}", if ty == IrType::F32 { "s" } else { "d" });
                }
                Ok(())
            }
            Some(RegHome::F(_)) => {
                // Another width: through its bits, as through a slot.
                emit!(self, "\t{bits}\tt6, {fr}");
                self.store_ext(T6, ty, v, have)
            }
            Some(RegHome::G(g)) => {
                emit!(self, "\t{bits}\t{g}, {fr}");
                self.store_ext(g, ty, v, have)
            }
            None => {
                let m = self.slot(v)?;
                self.store_fmem(fr, ty, m);
                Ok(())
            }
        }
    }

    /// Copies `size` bytes at `src` (at most 16; `src`'s base is not `t0`)
    /// into the home of `v`.
    pub(super) fn write_mem(&mut self, src: Mem, size: usize, v: Value) -> Result<(), BackendError> {
        let vt = self.types.of(v);
        match self.reg_of(v) {
            Some(RegHome::G(g)) => {
                let want = canon(vt);
                let n = size.min(vt.size()).clamp(1, 8);
                self.load_mem(src, n, want.1, g);
                if !ext_ok((n, want.1), want) {
                    self.extend(g, want, g);
                }
                Ok(())
            }
            Some(RegHome::F(f)) => {
                let t = if vt == IrType::F32 || size < 8 {
                    IrType::F32
                } else {
                    IrType::F64
                };
                self.load_fmem(src, t, f);
                Ok(())
            }
            None => {
                let m = self.slot(v)?;
                self.copy_mem(src, m, size);
                Ok(())
            }
        }
    }

    /// `dest = op` (all bytes of a `ty`): the generic value move, into a
    /// register or a slot. Nothing when both already share a home (a copy
    /// the allocator coalesced).
    pub(super) fn move_value(&mut self, dest: Value, op: &Operand, ty: IrType) -> Result<(), BackendError> {
        let dh = self.layout.home(dest);
        if let Operand::Value(s) = op {
            if self.layout.home(*s) == dh && !dh.is_address() {
                if let Some(g) = self.gpr_of(dest) {
                    // Values of one home kept alike unless their types differ.
                    let (have, want) = (canon(self.types.of(*s)), canon(self.types.of(dest)));
                    if !ext_ok(have, want) {
                        self.extend(g, want, g);
                    }
                }
                return Ok(());
            }
        }
        match self.reg_of(dest) {
            Some(RegHome::G(g)) => {
                let want = canon(self.types.of(dest));
                let t = if ty == IrType::Void { self.types.of(dest) } else { ty };
                let have = (t.size().clamp(1, 8), want.1);
                self.load_int(op, t, want.1, g)?;
                if !ext_ok(have, want) {
                    self.extend(g, want, g);
                }
                Ok(())
            }
            Some(RegHome::F(f)) => {
                let vt = self.types.of(dest);
                if matches!(ty, IrType::F32 | IrType::F64) {
                    self.load_f(op, vt, f)
                } else {
                    self.load_int(op, ty, false, T0)?;
                    self.store(T0, ty, dest)
                }
            }
            None => {
                let m = self.slot(dest)?;
                self.store_operand(op, ty, m)
            }
        }
    }

    /// Stores constant `c` of type `ty` into `m` (through `t0`).
    pub(super) fn store_const(&mut self, c: &IrConst, ty: IrType, m: Mem) {
        for (at, chunk, v) in Self::const_pieces(c, ty) {
            if v == 0 {
                self.store_mem(ZERO, chunk, m.at(at as i64));
            } else {
                self.li(T0, v as i64);
                self.store_mem(T0, chunk, m.at(at as i64));
            }
        }
    }

    /// Copies `size` bytes from `src` to `dst` through `t0`, in chunks of
    /// 8, 4, 2 and 1 bytes (the bases must not be `t0` or `t6`).
    pub(super) fn copy_mem(&mut self, src: Mem, dst: Mem, size: usize) {
        for (at, chunk) in pieces(size) {
            self.load_mem(src.at(at as i64), chunk, false, T0);
            self.store_mem(T0, chunk, dst.at(at as i64));
        }
    }

    /// Copies `size` bytes from the address in `src` to the address in
    /// `dst` (neither `t0`, `t1`, `t2` nor `t6`): unrolled when short, else a
    /// loop of 8-byte moves and the tail. Advances neither register.
    pub(super) fn copy_bytes(&mut self, src: Gpr, dst: Gpr, size: usize) {
        if size <= 64 {
            self.copy_mem(Mem::new(src, 0), Mem::new(dst, 0), size);
            return;
        }
        let words = size / 8;
        let l = self.cx.labels.fresh();
        emit!(self, "\tmv\tt1, {src}");
        emit!(self, "\tmv\tt2, {dst}");
        self.li(T0, words as i64);
        emit!(self, ".Lcopy{l}:");
        emit!(self, "\tld\tt6, 0(t1)");
        emit!(self, "\tsd\tt6, 0(t2)");
        emit!(self, "\taddi\tt1, t1, 8");
        emit!(self, "\taddi\tt2, t2, 8");
        emit!(self, "\taddi\tt0, t0, -1");
        emit!(self, "\tbnez\tt0, .Lcopy{l}");
        self.copy_mem(Mem::new(T1, 0), Mem::new(T2, 0), size - 8 * words);
    }

    /// Stores operand `op` of type `ty` (all its bytes) into `m`: the generic
    /// value move (through `t0`; `m`'s base must not be `t0`).
    pub(super) fn store_operand(&mut self, op: &Operand, ty: IrType, m: Mem) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => self.store_const(c, ty, m),
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let src = self.area(off);
                    let size = if ty.size() > 8 { 16 } else { ty.size().max(1) };
                    self.copy_mem(src, m, size);
                }
                Home::Reg(p) => {
                    let size = ty.size().max(1);
                    let r = match super::phys(p) {
                        RegHome::G(g) => g,
                        RegHome::F(f) if size == 4 || size == 8 => {
                            let t = if size == 4 { IrType::F32 } else { IrType::F64 };
                            self.store_fmem(f, t, m);
                            return Ok(());
                        }
                        RegHome::F(f) => {
                            emit!(self, "\tfmv.x.d\tt0, {f}");
                            T0
                        }
                    };
                    self.store_mem(r, size.min(8), m);
                    if size > 8 {
                        self.store_mem(ZERO, 8, m.at(8));
                    }
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                home => {
                    self.materialize(home, T0);
                    self.store_mem(T0, ty.size().clamp(1, 8), m);
                }
            },
        }
        Ok(())
    }
}
