//! Value moves: immediates (`movz`/`movn`/`movk`), address arithmetic,
//! loads and stores between frame slots, memory and registers at every
//! width (the addressing form picked by displacement: scaled 12-bit,
//! unscaled 9-bit, or the address materialized in `x17`), constants,
//! floating-point and 16-byte values (`v` registers, `x` register pairs),
//! and block copies.

use super::regs::{Mem, Vr, Xr, FP, IMM};
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::{BackendError, LongDoubleFormat};
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
            Home::None | Home::Reg(_) => Err(self.internal(format!("{ptr} is used but never defined"))),
        }
    }

    /// `r = the pointer value` (an address in a register, no displacement).
    pub(super) fn pointer_into(&mut self, ptr: Value, r: Xr) -> Result<(), BackendError> {
        self.load_int(&Operand::Value(ptr), IrType::Ptr, false, r)
    }

    /// The integer value of constant `c` as a `ty`, extended to 64 bits by `signed`.
    pub(super) fn const_i64(c: &IrConst, ty: IrType, signed: bool) -> i64 {
        let t = if ty == IrType::Void { IrType::I64 } else { ty };
        let bits = c.bits_as(t);
        let w = (t.size().min(8) * 8) as u32;
        if signed {
            crate::ir::constants::sext(bits, w) as i64
        } else {
            crate::ir::constants::zext(bits, w) as u64 as i64
        }
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
                Home::None | Home::Reg(_) => return Err(self.internal(format!("{v} is used but never defined"))),
            },
        }
        Ok(())
    }

    /// Loads an operand's bits with the extension its type implies.
    pub(super) fn load(&mut self, op: &Operand, ty: IrType, r: Xr) -> Result<(), BackendError> {
        self.load_int(op, ty, ty.is_signed(), r)
    }

    /// Stores `r` into the slot of `v` at the width of `ty`.
    pub(super) fn store(&mut self, r: Xr, ty: IrType, v: Value) -> Result<(), BackendError> {
        let m = self.slot(v)?;
        self.store_mem(r, ty.size().clamp(1, 8), m);
        Ok(())
    }

    /// The memory image of a constant stored as a `ty` (16 bytes, little-endian).
    pub(super) fn const_image(c: &IrConst, ty: IrType) -> [u8; 16] {
        let mut b = Vec::with_capacity(16);
        crate::backend::data::const_bytes(c, ty, LongDoubleFormat::Binary128, &mut b);
        b.resize(16, 0);
        b.try_into().unwrap_or([0; 16])
    }

    /// Stores constant `c` of type `ty` into `m` (through `x9`).
    pub(super) fn store_const(&mut self, c: &IrConst, ty: IrType, m: Mem) {
        let img = Self::const_image(c, ty);
        let size = ty.size().max(1);
        let mut at = 0;
        while at < size {
            let chunk = match size - at {
                8.. => 8,
                4..=7 => 4,
                2..=3 => 2,
                _ => 1,
            };
            let mut v: u64 = 0;
            for k in 0..chunk {
                v |= (img[at + k] as u64) << (8 * k);
            }
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
            at += chunk;
        }
    }

    /// Copies `size` bytes from `src` to `dst` through `x9` (neither based on `x9`).
    pub(super) fn copy_mem(&mut self, src: Mem, dst: Mem, size: usize) {
        let mut at = 0i64;
        let mut left = size;
        while left > 0 {
            let chunk = match left {
                8.. => 8,
                4..=7 => 4,
                2..=3 => 2,
                _ => 1,
            };
            self.load_mem(src.at(at), chunk, false, Xr(9));
            self.store_mem(Xr(9), chunk, dst.at(at));
            at += chunk as i64;
            left -= chunk;
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
                Home::None | Home::Reg(_) => return Err(self.internal(format!("{v} is used but never defined"))),
            },
        }
        Ok(())
    }

    /// Loads operand `op` (a `float`, `double` or `long double`) into `v`.
    pub(super) fn load_fp(&mut self, op: &Operand, ty: IrType, v: Vr) -> Result<(), BackendError> {
        let size = Self::fp_size(ty.size());
        match op {
            Operand::Const(c) => {
                let img = Self::const_image(c, ty);
                let lo = u64::from_le_bytes(img[..8].try_into().unwrap_or([0; 8]));
                let hi = u64::from_le_bytes(img[8..].try_into().unwrap_or([0; 8]));
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
                Home::None | Home::Reg(_) => return Err(self.internal(format!("{val} is used but never defined"))),
            },
        }
        Ok(())
    }

    /// Stores `v` as a value of type `ty` into the slot of `dest`.
    pub(super) fn store_fp(&mut self, v: Vr, ty: IrType, dest: Value) -> Result<(), BackendError> {
        let m = self.slot(dest)?;
        self.store_fp_mem(v, ty.size(), m);
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
                let img = Self::const_image(c, ty);
                self.mov_imm(lo, u64::from_le_bytes(img[..8].try_into().unwrap_or([0; 8])));
                self.mov_imm(hi, u64::from_le_bytes(img[8..].try_into().unwrap_or([0; 8])));
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
                Home::None | Home::Reg(_) => return Err(self.internal(format!("{v} is used but never defined"))),
            },
        }
        Ok(())
    }

    /// Stores `lo:hi` into the 16-byte slot of `dest`.
    pub(super) fn store_pair(&mut self, lo: Xr, hi: Xr, dest: Value) -> Result<(), BackendError> {
        let m = self.slot(dest)?;
        self.store_mem(lo, 8, m);
        self.store_mem(hi, 8, m.at(8));
        Ok(())
    }
}
