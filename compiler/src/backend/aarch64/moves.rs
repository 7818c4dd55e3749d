//! Value moves: immediates (`movz`/`movn`/`movk`), address arithmetic,
//! loads and stores between homes (frame slots and allocator registers),
//! memory and registers at every width (the addressing form picked by
//! displacement: scaled 12-bit, unscaled 9-bit, or the address materialized
//! in `x17`), constants, floating-point and 16-byte values (`v` registers,
//! `x` register pairs), and block copies.
//!
//! A home register holds a value's bits in its low `size` bytes (the rest
//! is unspecified, as in a slot where only `size` bytes are stored): a
//! reader that needs a 64-bit value extends it (`sxtb`, `uxth`, `mov w`...);
//! an operation whose result's low bytes depend only on its operands' low
//! bytes reads the register as it is ([`FnEmitter::int_operand`]).

use super::regs::{Mem, Vr, Xr, FP, IMM};
use super::{emit, FnEmitter, HomeReg};
use crate::backend::data::pieces;
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::constants::IrConst;
use crate::ir::instruction::{Operand, Value};
use crate::ir::types::IrType;
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    /// `r = v` (64 bits) with `movz`/`movn` and `movk`.
    pub(super) fn mov_imm(&mut self, r: Xr, v: u64) {
        if v == 0 {
            emit!(self, "\tmov\t{}, xzr", r.x());
            return;
        }
        let chunks: [u64; 4] = [v & 0xffff, (v >> 16) & 0xffff, (v >> 32) & 0xffff, v >> 48];
        let zeros = chunks.iter().filter(|&&c| c == 0).count();
        let ones = chunks.iter().filter(|&&c| c == 0xffff).count();
        let mut first = true;
        if ones > zeros {
            for (k, &c) in chunks.iter().enumerate() {
                if c == 0xffff {
                    continue;
                }
                if first {
                    emit!(self, "\tmovn\t{}, #{}, lsl #{}", r.x(), !c & 0xffff, 16 * k);
                    first = false;
                } else {
                    emit!(self, "\tmovk\t{}, #{c}, lsl #{}", r.x(), 16 * k);
                }
            }
            if first {
                emit!(self, "\tmovn\t{}, #0", r.x());
            }
        } else {
            for (k, &c) in chunks.iter().enumerate() {
                if c == 0 {
                    continue;
                }
                if first {
                    emit!(self, "\tmovz\t{}, #{c}, lsl #{}", r.x(), 16 * k);
                    first = false;
                } else {
                    emit!(self, "\tmovk\t{}, #{c}, lsl #{}", r.x(), 16 * k);
                }
            }
        }
    }

    /// `dst = src + imm` (either may be `sp`; `src` is never `x17`).
    pub(super) fn add_imm(&mut self, dst: Xr, src: Xr, imm: i64) {
        let (mn, mag) = if imm < 0 {
            ("sub", imm.unsigned_abs())
        } else {
            ("add", imm as u64)
        };
        if mag == 0 {
            if dst != src {
                emit!(self, "\tmov\t{}, {}", dst.x(), src.x());
            }
        } else if mag < 4096 {
            emit!(self, "\t{mn}\t{}, {}, #{mag}", dst.x(), src.x());
        } else if mag < (1 << 24) {
            emit!(self, "\t{mn}\t{}, {}, #{}, lsl #12", dst.x(), src.x(), mag >> 12);
            if mag & 0xfff != 0 {
                emit!(self, "\t{mn}\t{}, {}, #{}", dst.x(), dst.x(), mag & 0xfff);
            }
        } else {
            debug_assert!(src != IMM);
            self.mov_imm(IMM, mag);
            emit!(self, "\t{mn}\t{}, {}, {}", dst.x(), src.x(), IMM.x());
        }
    }

    /// A load or store `op reg, m` of an access of `size` bytes: the scaled
    /// form when the displacement allows it, else the unscaled one, else the
    /// address materialized in `x17`.
    pub(super) fn mem_op(&mut self, op: &str, reg: &str, size: usize, m: Mem) {
        let size = size.max(1) as i64;
        let d = m.disp;
        if d >= 0 && d % size == 0 && d / size < 4096 {
            emit!(self, "\t{op}\t{reg}, {m}");
        } else if (-256..256).contains(&d) {
            let unscaled = if let Some(rest) = op.strip_prefix("ldr") {
                format!("ldur{rest}")
            } else if let Some(rest) = op.strip_prefix("str") {
                format!("stur{rest}")
            } else {
                op.to_string()
            };
            emit!(self, "\t{unscaled}\t{reg}, {m}");
        } else {
            debug_assert!(m.base != IMM);
            self.mov_imm(IMM, d as u64);
            emit!(self, "\tadd\t{}, {}, {}", IMM.x(), m.base.x(), IMM.x());
            emit!(self, "\t{op}\t{reg}, [{}]", IMM.x());
        }
    }

    /// `r = the size-byte integer at m`, extended to 64 bits.
    pub(super) fn load_mem(&mut self, m: Mem, size: usize, signed: bool, r: Xr) {
        match (size, signed) {
            (1, true) => self.mem_op("ldrsb", r.x(), 1, m),
            (1, false) => self.mem_op("ldrb", r.w(), 1, m),
            (2, true) => self.mem_op("ldrsh", r.x(), 2, m),
            (2, false) => self.mem_op("ldrh", r.w(), 2, m),
            (4, true) => self.mem_op("ldrsw", r.x(), 4, m),
            (4, false) => self.mem_op("ldr", r.w(), 4, m),
            _ => self.mem_op("ldr", r.x(), 8, m),
        }
    }

    /// Stores the low `size` bytes (1, 2, 4 or 8) of `r` to `m`.
    pub(super) fn store_mem(&mut self, r: Xr, size: usize, m: Mem) {
        match size {
            1 => self.mem_op("strb", r.w(), 1, m),
            2 => self.mem_op("strh", r.w(), 2, m),
            4 => self.mem_op("str", r.w(), 4, m),
            _ => self.mem_op("str", r.x(), 8, m),
        }
    }

    /// `v = the size-byte (4, 8 or 16) floating-point value at m`.
    pub(super) fn load_fp_mem(&mut self, m: Mem, size: usize, v: Vr) {
        let size = Self::fp_size(size);
        self.mem_op("ldr", &v.sized(size), size, m);
    }

    pub(super) fn store_fp_mem(&mut self, v: Vr, size: usize, m: Mem) {
        let size = Self::fp_size(size);
        self.mem_op("str", &v.sized(size), size, m);
    }

    pub(super) fn fp_size(size: usize) -> usize {
        match size {
            0..=4 => 4,
            5..=8 => 8,
            _ => 16,
        }
    }

    /// `r = address of the alloca object at offset`, realigned when `align > 16`.
    pub(super) fn alloca_address(&mut self, offset: u32, align: u32, r: Xr) {
        let m = self.area(offset);
        self.add_imm(r, m.base, m.disp);
        if align > 16 {
            self.add_imm(r, r, align as i64 - 16);
            emit!(self, "\tand\t{}, {}, #{}", r.x(), r.x(), -(align as i64));
        }
    }

    /// Puts the address an address home stands for (an `alloca`, a frame
    /// address, a symbol plus offset) into `r`.
    pub(super) fn materialize(&mut self, home: Home, r: Xr) -> Result<(), BackendError> {
        match home {
            Home::Alloca { offset, align } => self.alloca_address(offset, align, r),
            Home::FrameAddr(o) => self.add_imm(r, FP, 16 + o),
            Home::SymbolAddr { sym, offset } => {
                let name = self.layout.symbol(sym).clone();
                self.symbol_address(&name, offset, r)?;
            }
            Home::Slot(_) | Home::None | Home::Reg(_) => return Err(self.internal("not an address home")),
        }
        Ok(())
    }

    /// The memory a pointer value addresses: a frame object directly, a
    /// symbol through its address in `scratch`, otherwise the pointer is
    /// loaded into `scratch`.
    pub(super) fn addr_of(&mut self, ptr: Value, scratch: Xr) -> Result<Mem, BackendError> {
        match self.layout.home(ptr) {
            Home::Alloca { offset, align } if align <= 16 => Ok(self.area(offset)),
            Home::FrameAddr(o) => Ok(Mem::new(FP, 16 + o)),
            Home::SymbolAddr { sym, offset } => {
                let name = self.layout.symbol(sym).clone();
                self.symbol_address(&name, 0, scratch)?;
                Ok(Mem::new(scratch, offset))
            }
            h @ Home::Alloca { .. } => {
                self.materialize(h, scratch)?;
                Ok(Mem::new(scratch, 0))
            }
            Home::Slot(off) => {
                let m = self.area(off);
                self.mem_op("ldr", scratch.x(), 8, m);
                Ok(Mem::new(scratch, 0))
            }
            Home::Reg(p) => match super::phys(p) {
                HomeReg::X(x) => Ok(Mem::new(x, 0)),
                HomeReg::V(v) => {
                    emit!(self, "\tfmov\t{}, {}", scratch.x(), v.d());
                    Ok(Mem::new(scratch, 0))
                }
            },
            Home::None => Err(self.internal(format!("{ptr} is used but never defined"))),
        }
    }

    /// `r = the pointer value` (an address in a register, no displacement).
    pub(super) fn pointer_into(&mut self, ptr: Value, r: Xr) -> Result<(), BackendError> {
        self.load_int(&Operand::Value(ptr), IrType::Ptr, false, r)
    }

    /// Loads an integer-class operand of type `ty` into `r`, extended to 64
    /// bits (sign-extended when `signed`). An alloca's value is its address;
    /// a 16-byte value gives its low half; a float gives its bits.
    pub(super) fn load_int(&mut self, op: &Operand, ty: IrType, signed: bool, r: Xr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let imm = Self::const_i64(c, ty, signed);
                self.mov_imm(r, imm as u64);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    let size = if ty.size() == 0 || ty.size() > 8 { 8 } else { ty.size() };
                    self.load_mem(m, size, signed, r);
                }
                h @ (Home::Alloca { .. } | Home::FrameAddr(_) | Home::SymbolAddr { .. }) => self.materialize(h, r)?,
                Home::Reg(p) => {
                    let size = if ty.size() == 0 || ty.size() > 8 { 8 } else { ty.size() };
                    match super::phys(p) {
                        HomeReg::X(x) => self.extend_reg(x, size, signed, r),
                        HomeReg::V(v) => {
                            // The float's bits (an `f32` zero-extended).
                            if size <= 4 {
                                emit!(self, "\tfmov\t{}, {}", r.w(), v.s());
                                if size < 4 {
                                    self.extend_reg(r, size, signed, r);
                                }
                            } else {
                                emit!(self, "\tfmov\t{}, {}", r.x(), v.d());
                            }
                        }
                    }
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
            },
        }
        Ok(())
    }

    /// `r = the low size bytes of from`, extended to 64 bits (nothing when
    /// `r` is `from` and the value is 8 bytes).
    pub(super) fn extend_reg(&mut self, from: Xr, size: usize, signed: bool, r: Xr) {
        match (size, signed) {
            (1, true) => emit!(self, "\tsxtb\t{}, {}", r.x(), from.w()),
            (1, false) => emit!(self, "\tuxtb\t{}, {}", r.w(), from.w()),
            (2, true) => emit!(self, "\tsxth\t{}, {}", r.x(), from.w()),
            (2, false) => emit!(self, "\tuxth\t{}, {}", r.w(), from.w()),
            (4, true) => emit!(self, "\tsxtw\t{}, {}", r.x(), from.w()),
            (4, false) => emit!(self, "\tmov\t{}, {}", r.w(), from.w()),
            _ if from == r => {}
            _ => emit!(self, "\tmov\t{}, {}", r.x(), from.x()),
        }
    }

    /// An integer operand of type `ty` in a register: its home register as
    /// it is when it has one and `raw` (the caller reads only the low
    /// `ty.size()` bytes, or uses the `w` form on a 4-byte value), else
    /// loaded into `scratch` extended to 64 bits by `signed`.
    pub(super) fn int_operand(
        &mut self,
        op: &Operand,
        ty: IrType,
        signed: bool,
        scratch: Xr,
        raw: bool,
    ) -> Result<Xr, BackendError> {
        if let Operand::Value(v) = op {
            if let Some(x) = self.xreg_of(*v) {
                if raw || ty.size() >= 8 {
                    return Ok(x);
                }
            }
        }
        self.load_int(op, ty, signed, scratch)?;
        Ok(scratch)
    }

    /// A `float`/`double` operand in a SIMD/FP register: its home register
    /// when it has one, else loaded into `scratch`.
    pub(super) fn fp_operand(&mut self, op: &Operand, ty: IrType, scratch: Vr) -> Result<Vr, BackendError> {
        if let Operand::Value(v) = op {
            if let Some(r) = self.vreg_of(*v) {
                if ty.size() <= 8 {
                    return Ok(r);
                }
            }
        }
        self.load_fp(op, ty, scratch)?;
        Ok(scratch)
    }

    /// Where to compute an integer result for `dest`: its home register,
    /// else `scratch` (then [`FnEmitter::store`] it).
    pub(super) fn int_dest(&self, dest: Value, scratch: Xr) -> Xr {
        self.xreg_of(dest).unwrap_or(scratch)
    }

    /// As [`FnEmitter::int_dest`] for a `float`/`double` result.
    pub(super) fn fp_dest(&self, dest: Value, scratch: Vr) -> Vr {
        self.vreg_of(dest).unwrap_or(scratch)
    }

    /// `dest = op` (all bytes of a `ty`): the generic value move, into a
    /// register or a slot. Nothing when both already share a home (a copy
    /// the allocator coalesced).
    pub(super) fn move_value(&mut self, dest: Value, op: &Operand, ty: IrType) -> Result<(), BackendError> {
        if let Operand::Value(s) = op {
            let h = self.layout.home(dest);
            if self.layout.home(*s) == h && !h.is_address() {
                return Ok(());
            }
        }
        match self.reg_of(dest) {
            Some(HomeReg::X(x)) => match op {
                Operand::Value(s) if self.xreg_of(*s).is_some() => {
                    let from = self.xreg_of(*s).unwrap_or(x);
                    emit!(self, "\tmov\t{}, {}", x.x(), from.x());
                    Ok(())
                }
                _ => self.load_int(op, ty, false, x),
            },
            Some(HomeReg::V(v)) => match op {
                Operand::Value(s) if self.vreg_of(*s).is_some() => {
                    let from = self.vreg_of(*s).unwrap_or(v);
                    emit!(self, "\tfmov\t{}, {}", v.d(), from.d());
                    Ok(())
                }
                _ if ty.is_float() => self.load_fp(op, ty, v),
                _ => {
                    self.load_int(op, ty, false, Xr(9))?;
                    emit!(self, "\tfmov\t{}, x9", v.d());
                    Ok(())
                }
            },
            None => {
                let m = self.slot(dest)?;
                self.store_operand(op, ty, m)
            }
        }
    }

    /// Loads an operand's bits with the extension its type implies.
    pub(super) fn load(&mut self, op: &Operand, ty: IrType, r: Xr) -> Result<(), BackendError> {
        self.load_int(op, ty, ty.is_signed(), r)
    }

    /// Stores `r` into the home of `v` at the width of `ty` (a home
    /// register takes all of `r`; nothing when `r` is the home).
    pub(super) fn store(&mut self, r: Xr, ty: IrType, v: Value) -> Result<(), BackendError> {
        self.store_sized(r, ty.size().clamp(1, 8), v)
    }

    /// As [`FnEmitter::store`] for a value of `size` bytes (1..=8).
    pub(super) fn store_sized(&mut self, r: Xr, size: usize, v: Value) -> Result<(), BackendError> {
        match self.reg_of(v) {
            Some(HomeReg::X(x)) => {
                if x != r {
                    emit!(self, "\tmov\t{}, {}", x.x(), r.x());
                }
            }
            Some(HomeReg::V(d)) => {
                if size <= 4 {
                    emit!(self, "\tfmov\t{}, {}", d.s(), r.w());
                } else {
                    emit!(self, "\tfmov\t{}, {}", d.d(), r.x());
                }
            }
            None => {
                let m = self.slot(v)?;
                self.store_mem(r, size, m);
            }
        }
        Ok(())
    }

    /// Stores constant `c` of type `ty` into `m` (through `x9`).
    pub(super) fn store_const(&mut self, c: &IrConst, ty: IrType, m: Mem) {
        for (at, chunk, v) in Self::const_pieces(c, ty) {
            let dst = m.at(at as i64);
            if v == 0 {
                match chunk {
                    1 => self.mem_op("strb", "wzr", 1, dst),
                    2 => self.mem_op("strh", "wzr", 2, dst),
                    4 => self.mem_op("str", "wzr", 4, dst),
                    _ => self.mem_op("str", "xzr", 8, dst),
                }
            } else {
                self.mov_imm(Xr(9), v);
                self.store_mem(Xr(9), chunk, dst);
            }
        }
    }

    /// Copies `size` bytes from `src` to `dst` through `x9` (neither based on `x9`).
    pub(super) fn copy_mem(&mut self, src: Mem, dst: Mem, size: usize) {
        self.copy_mem_through(src, dst, size, Xr(9));
    }

    /// Copies `size` bytes from `src` to `dst` through `tmp` (neither based on it).
    pub(super) fn copy_mem_through(&mut self, src: Mem, dst: Mem, size: usize, tmp: Xr) {
        for (at, chunk) in pieces(size) {
            self.load_mem(src.at(at as i64), chunk, false, tmp);
            self.store_mem(tmp, chunk, dst.at(at as i64));
        }
    }

    /// Copies `size` bytes from `[src]` to `[dst]` (registers other than
    /// `x9..x12`), with a 16-byte loop for large sizes. Clobbers `src`/`dst`
    /// when it loops.
    pub(super) fn copy_block(&mut self, src: Xr, dst: Xr, size: usize) {
        if size <= 128 {
            self.copy_mem(Mem::new(src, 0), Mem::new(dst, 0), size);
            return;
        }
        let again = self.cx.labels.fresh();
        self.mov_imm(Xr(12), (size / 16) as u64);
        emit!(self, ".Ltmp{again}:");
        emit!(self, "\tldp\tx10, x11, [{}], #16", src.x());
        emit!(self, "\tstp\tx10, x11, [{}], #16", dst.x());
        emit!(self, "\tsubs\tx12, x12, #1");
        emit!(self, "\tb.ne\t.Ltmp{again}");
        let rest = size % 16;
        if rest > 0 {
            self.copy_mem(Mem::new(src, 0), Mem::new(dst, 0), rest);
        }
    }

    /// Stores operand `op` of type `ty` (all its bytes) into `m`: the generic value move.
    pub(super) fn store_operand(&mut self, op: &Operand, ty: IrType, m: Mem) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => self.store_const(c, ty, m),
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let src = self.area(off);
                    let size = if ty.size() > 8 { 16 } else { ty.size().max(1) };
                    self.copy_mem(src, m, size);
                }
                h @ (Home::Alloca { .. } | Home::FrameAddr(_) | Home::SymbolAddr { .. }) => {
                    self.materialize(h, Xr(9))?;
                    self.store_mem(Xr(9), ty.size().clamp(1, 8), m);
                }
                Home::Reg(p) => match super::phys(p) {
                    HomeReg::X(x) => self.store_mem(x, ty.size().clamp(1, 8), m),
                    HomeReg::V(r) => self.store_fp_mem(r, ty.size().clamp(1, 8), m),
                },
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
            },
        }
        Ok(())
    }

    /// Loads operand `op` (a `float`, `double` or `long double`) into `v`.
    pub(super) fn load_fp(&mut self, op: &Operand, ty: IrType, v: Vr) -> Result<(), BackendError> {
        let size = Self::fp_size(ty.size());
        match op {
            Operand::Const(c) => {
                let [lo, hi] = Self::const_words(c, ty);
                let lo = if size == 4 { lo & 0xffff_ffff } else { lo };
                if lo == 0 && (size < 16 || hi == 0) {
                    emit!(self, "\tmovi\t{}, #0", v.d());
                } else {
                    self.mov_imm(Xr(9), lo);
                    emit!(self, "\tfmov\t{}, x9", v.d());
                }
                if size == 16 && hi != 0 {
                    self.mov_imm(Xr(9), hi);
                    emit!(self, "\tfmov\tv{}.d[1], x9", v.0);
                }
            }
            Operand::Value(val) => match self.layout.home(*val) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    self.load_fp_mem(m, size, v);
                }
                h @ (Home::Alloca { .. } | Home::FrameAddr(_) | Home::SymbolAddr { .. }) => {
                    self.materialize(h, Xr(9))?;
                    emit!(self, "\tfmov\t{}, x9", v.d());
                }
                Home::Reg(p) => match super::phys(p) {
                    HomeReg::V(r) => {
                        if r != v {
                            emit!(self, "\tfmov\t{}, {}", v.d(), r.d());
                        }
                    }
                    HomeReg::X(x) => {
                        if size <= 4 {
                            emit!(self, "\tfmov\t{}, {}", v.s(), x.w());
                        } else {
                            emit!(self, "\tfmov\t{}, {}", v.d(), x.x());
                        }
                    }
                },
                Home::None => return Err(self.internal(format!("{val} is used but never defined"))),
            },
        }
        Ok(())
    }

    /// Stores `v` as a value of type `ty` into the home of `dest` (nothing
    /// when `v` is the home).
    pub(super) fn store_fp(&mut self, v: Vr, ty: IrType, dest: Value) -> Result<(), BackendError> {
        match self.reg_of(dest) {
            Some(HomeReg::V(r)) => {
                if r != v {
                    emit!(self, "\tfmov\t{}, {}", r.d(), v.d());
                }
            }
            Some(HomeReg::X(x)) => {
                if ty.size() <= 4 {
                    emit!(self, "\tfmov\t{}, {}", x.w(), v.s());
                } else {
                    emit!(self, "\tfmov\t{}, {}", x.x(), v.d());
                }
            }
            None => {
                let m = self.slot(dest)?;
                self.store_fp_mem(v, ty.size(), m);
            }
        }
        Ok(())
    }

    /// Loads a 16-byte operand into `lo:hi` (a narrower value is read as
    /// its slot's two halves, which callers never rely on).
    pub(super) fn load_pair(&mut self, op: &Operand, lo: Xr, hi: Xr) -> Result<(), BackendError> {
        self.load_pair_as(op, IrType::I128, lo, hi)
    }

    /// As [`FnEmitter::load_pair`] for a value of type `ty` (a constant takes that type's memory image).
    pub(super) fn load_pair_as(&mut self, op: &Operand, ty: IrType, lo: Xr, hi: Xr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let [l, h] = Self::const_words(c, ty);
                self.mov_imm(lo, l);
                self.mov_imm(hi, h);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off);
                    self.load_mem(m, 8, false, lo);
                    self.load_mem(m.at(8), 8, false, hi);
                }
                h @ (Home::Alloca { .. } | Home::FrameAddr(_) | Home::SymbolAddr { .. }) => {
                    self.materialize(h, lo)?;
                    emit!(self, "\tmov\t{}, xzr", hi.x());
                }
                Home::Reg(p) => {
                    match super::phys(p) {
                        HomeReg::X(x) => emit!(self, "\tmov\t{}, {}", lo.x(), x.x()),
                        HomeReg::V(r) => emit!(self, "\tfmov\t{}, {}", lo.x(), r.d()),
                    }
                    emit!(self, "\tmov\t{}, xzr", hi.x());
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
            },
        }
        Ok(())
    }

    /// Stores `lo:hi` into the 16-byte slot of `dest` (a home register,
    /// which only a value of at most 8 bytes has, takes `lo`).
    pub(super) fn store_pair(&mut self, lo: Xr, hi: Xr, dest: Value) -> Result<(), BackendError> {
        if self.reg_of(dest).is_some() {
            return self.store_sized(lo, 8, dest);
        }
        let m = self.slot(dest)?;
        self.store_mem(lo, 8, m);
        self.store_mem(hi, 8, m.at(8));
        Ok(())
    }
}
