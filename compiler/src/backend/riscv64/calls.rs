//! Prologue, epilogue, parameters, calls and returns under LP64D (the
//! locations come from [`super::abi`]).
//!
//! - Prologue (none in a leaf with an empty frame,
//!   [`crate::backend::needs_no_frame_record`]): push `ra` and `s0` (below the `a0..a7` save area of a
//!   variadic function, which sits right under the incoming stack
//!   arguments), point `s0` at the incoming `sp`, drop `sp` by the locals
//!   area, save the callee-saved registers the register allocator or an
//!   inline asm uses, move the register parameters whose `paramref` opens
//!   the entry block straight into their home registers
//!   ([`super::direct_params`]), store the other
//!   register parameters to their homes (a struct's pieces into a frame
//!   buffer the callee owns; the stack half of a split argument joins them),
//!   then zero the `alloca` region.
//! - Call: one outgoing area per call holds the stack arguments at `0(sp)`
//!   and, above them, the copies of by-reference structs (the callee may
//!   modify them; the caller's object never changes). Copies and stack
//!   arguments are written first, then the argument registers (all sources
//!   are frame slots, memory or callee-saved home registers, never an
//!   argument register: the caller-saved homes `a2`..`a7` never hold a
//!   call's operand, so no ordering problems arise). Struct
//!   pieces are read and written with their exact size, so no byte past a
//!   struct is touched.
//! - Results: `a0`, `a0:a1`, `fa0`, or a struct's registers stored into the
//!   caller's result buffer (`args[0]`).

use super::abi::{self, ArgLoc, Place, RetLoc};
use super::moves::canon;
use super::regs::{arg_fpr, arg_gpr, Gpr, Mem, A0, A1, FA0, FA1, S0, SP, T0, T4, T5};
use super::{emit, FnEmitter, ParamHome, RegHome, SecondReturn};
use crate::backend::data::chunk_size;
use crate::backend::frame::{slot_size, Home};
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{CallInfo, Operand, Value};
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// The smallest access of 1, 2, 4 or 8 bytes covering `size` bytes.
fn store_width(size: u32) -> usize {
    match size {
        0..=1 => 1,
        2 => 2,
        3..=4 => 4,
        _ => 8,
    }
}

impl FnEmitter<'_, '_> {
    pub(super) fn emit_prologue(&mut self) -> Result<(), BackendError> {
        if !self.frameless {
            let top = self.vararg_save + 16;
            emit!(self, "\taddi\tsp, sp, -{top}");
            emit!(self, "\tsd\tra, 8(sp)");
            emit!(self, "\tsd\ts0, 0(sp)");
            emit!(self, "\taddi\ts0, sp, {top}");
        }
        if self.vararg_save > 0 {
            for k in 0..8 {
                emit!(self, "\tsd\ta{k}, {}(s0)", -self.vararg_save + 8 * k);
            }
        }
        let frame = self.layout.size() as i64;
        if frame > 0 {
            self.add_imm(SP, SP, -frame);
        }
        for (g, off) in self.saved_gprs.clone() {
            let m = self.area(off);
            self.store_mem(g, 8, m);
        }
        for (r, off) in self.saved_fprs.clone() {
            let m = self.area(off);
            self.store_fmem(r, IrType::F64, m);
        }
        for (i, dest) in self.direct_params.clone() {
            let parts = match self.own.args.get(i) {
                Some(ArgLoc::Parts(parts)) => parts.as_slice(),
                _ => &[],
            };
            let ty = self.types.of(dest);
            match (parts, self.reg_of(dest)) {
                ([p], Some(RegHome::G(g))) if matches!(p.place, Place::Gpr(_)) => {
                    let Place::Gpr(n) = p.place else { unreachable!() };
                    // The psABI widens narrow arguments as a home register
                    // holds them; extend anyway (a caller need not).
                    self.extend(arg_gpr(n), canon(ty), g);
                }
                ([p], Some(RegHome::F(r))) if matches!(p.place, Place::Fpr(_)) => {
                    let Place::Fpr(n) = p.place else { unreachable!() };
                    emit!(self, "\tfmv.d\t{r}, {}", arg_fpr(n));
                }
                _ => return Err(self.internal(format!("paramref {i} is not a register move"))),
            }
        }
        let args = self.own.args.clone();
        for (i, loc) in args.iter().enumerate() {
            let home = self.params[i];
            match (loc, home) {
                (ArgLoc::ByRef(Place::Gpr(n)), ParamHome::Slot(off)) => {
                    let m = self.area(off);
                    self.store_mem(arg_gpr(*n), 8, m);
                }
                (ArgLoc::Parts(parts), ParamHome::Slot(off) | ParamHome::Buffer(off)) => {
                    let exact = matches!(home, ParamHome::Buffer(_));
                    let base = self.area(off);
                    for p in parts {
                        let m = base.at(p.offset as i64);
                        match p.place {
                            Place::Gpr(n) => {
                                let w = if exact { store_width(p.size) } else { 8 };
                                self.store_mem(arg_gpr(n), w, m);
                            }
                            Place::Fpr(n) => {
                                let ty = p.float.unwrap_or(IrType::F64);
                                self.store_fmem(arg_fpr(n), ty, m);
                            }
                            Place::Stack(o) => {
                                let size = (p.size.div_ceil(8) * 8) as usize;
                                self.copy_mem(Mem::new(S0, o as i64), m, size);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        let (start, len) = self.layout.alloca_region;
        if len > 0 {
            let m = self.area(start);
            if len <= 256 {
                for k in (0..len as i64).step_by(8) {
                    self.store_mem(super::regs::ZERO, 8, m.at(k));
                }
            } else {
                let l = self.cx.labels.fresh();
                self.add_imm(T0, S0, m.disp);
                self.add_imm(super::regs::T1, T0, len as i64);
                emit!(self, ".Lzero{l}:");
                emit!(self, "\tsd\tzero, 0(t0)");
                emit!(self, "\taddi\tt0, t0, 8");
                emit!(self, "\tbltu\tt0, t1, .Lzero{l}");
            }
        }
        Ok(())
    }

    /// Restores what the prologue saved and returns.
    fn emit_epilogue(&mut self) {
        for (g, off) in self.saved_gprs.clone() {
            let m = self.area(off);
            self.load_mem(m, 8, false, g);
        }
        for (r, off) in self.saved_fprs.clone() {
            let m = self.area(off);
            self.load_fmem(m, IrType::F64, r);
        }
        if self.frameless {
            emit!(self, "\tret");
            return;
        }
        let top = self.vararg_save + 16;
        emit!(self, "\taddi\tsp, s0, -{top}");
        emit!(self, "\tld\tra, 8(sp)");
        emit!(self, "\tld\ts0, 0(sp)");
        emit!(self, "\taddi\tsp, sp, {top}");
        emit!(self, "\tret");
    }

    pub(super) fn emit_return(&mut self, val: Option<&Operand>) -> Result<(), BackendError> {
        let ty = self.f.return_type;
        match self.own.ret.clone() {
            RetLoc::Void => {}
            RetLoc::SretMemory => {
                // Not required by the psABI, but harmless: a0 = the result buffer.
                if let Some(ParamHome::Slot(off)) = self.params.first().copied() {
                    let m = self.area(off);
                    self.load_mem(m, 8, false, A0);
                }
            }
            RetLoc::Parts(parts) if self.f.uses_sret => {
                let Some(ParamHome::Buffer(off)) = self.params.first().copied() else {
                    return Err(self.internal("struct return without its buffer"));
                };
                let buf = self.area(off);
                for p in &parts {
                    let m = buf.at(p.offset as i64);
                    match p.place {
                        Place::Gpr(n) => {
                            let w = store_width(p.size);
                            self.load_mem(m, w, w == 4, arg_gpr(n));
                        }
                        Place::Fpr(n) => self.load_fmem(m, p.float.unwrap_or(IrType::F64), arg_fpr(n)),
                        Place::Stack(_) => return Err(self.internal("struct return on the stack")),
                    }
                }
            }
            RetLoc::Parts(parts) => {
                if let Some(v) = val {
                    match parts.first().map(|p| p.place) {
                        Some(Place::Fpr(_)) => self.load_f(v, ty, FA0)?,
                        _ if parts.len() == 2 => self.load_pair(v, ty, A0, A1)?,
                        _ => self.load_abi(v, ty, A0)?,
                    }
                }
            }
        }
        if let Some(kind) = self.sets_second {
            let m = self.ret2_area()?;
            match kind {
                SecondReturn::F64 => self.load_fmem(m, IrType::F64, FA1),
                SecondReturn::F32 => self.load_fmem(m, IrType::F32, FA1),
                // Refused by the prescan (LP64D has no such register).
                SecondReturn::F128 => return Err(self.internal("no second binary128 return register under LP64D")),
            }
        }
        self.emit_epilogue();
        Ok(())
    }

    pub(super) fn param_ref(&mut self, dest: Value, idx: usize, ty: IrType) -> Result<(), BackendError> {
        if self.direct_params.contains(&(idx, dest)) {
            return Ok(()); // moved by the prologue
        }
        match self.param_home(idx)? {
            ParamHome::Direct => return Err(self.internal(format!("paramref {idx} read twice"))),
            ParamHome::Slot(off) => {
                let src = self.area(off);
                self.write_mem(src, slot_size(ty) as usize, dest)?;
            }
            ParamHome::Incoming(d) => {
                self.write_mem(Mem::new(S0, d), slot_size(ty) as usize, dest)?;
            }
            ParamHome::Buffer(off) => {
                let b = self.area(off);
                self.add_imm(T0, S0, b.disp);
                self.store(T0, IrType::Ptr, dest)?;
            }
            ParamHome::IncomingAddr(d) => {
                self.add_imm(T0, S0, d);
                self.store(T0, IrType::Ptr, dest)?;
            }
            ParamHome::None => {
                let s = self.scratch_area()?;
                self.add_imm(T0, S0, s.disp);
                self.store(T0, IrType::Ptr, dest)?;
            }
        }
        Ok(())
    }

    /// Loads `size` bytes (1..=8) at `src` into `r`, zero-extended, without
    /// reading past them (`src`'s base must not be `t0`).
    pub(super) fn load_exact(&mut self, src: Mem, size: u32, r: Gpr) {
        let size = size as usize;
        let first = chunk_size(size);
        self.load_mem(src, first, false, r);
        let mut at = first;
        while at < size {
            let c = chunk_size(size - at);
            self.load_mem(src.at(at as i64), c, false, T0);
            emit!(self, "\tslli\tt0, t0, {}", 8 * at);
            emit!(self, "\tor\t{r}, {r}, t0");
            at += c;
        }
    }

    /// Stores the low `size` bytes (1..=8) of `r` to `dst` (clobbers `r`).
    pub(super) fn store_exact(&mut self, r: Gpr, size: u32, dst: Mem) {
        let size = size as usize;
        let mut at = 0;
        while at < size {
            let c = chunk_size(size - at);
            self.store_mem(r, c, dst.at(at as i64));
            at += c;
            if at < size {
                emit!(self, "\tsrli\t{r}, {r}, {}", 8 * c);
            }
        }
    }

    /// Loads 8-byte word `k` (0 or 1) of a 16-byte operand into `r`.
    fn load_word(&mut self, op: &Operand, ty: IrType, k: u32, r: Gpr) -> Result<(), BackendError> {
        match op {
            Operand::Const(c) => {
                let w = Self::const_words(c, ty)[k as usize];
                self.li(r, w as i64);
            }
            Operand::Value(v) => match self.layout.home(*v) {
                Home::Slot(off) => {
                    let m = self.area(off).at(8 * k as i64);
                    self.load_mem(m, 8, false, r);
                }
                Home::Reg(_) if k == 0 => {
                    let t = self.types.of(*v);
                    self.load_int(op, t, t.is_signed(), r)?;
                }
                Home::None => return Err(self.internal(format!("{v} is used but never defined"))),
                home if k == 0 => self.materialize(home, r),
                _ => self.li(r, 0),
            },
        }
        Ok(())
    }

    pub(super) fn call(
        &mut self,
        func: Option<&String>,
        ptr: Option<&Operand>,
        info: &CallInfo,
    ) -> Result<(), BackendError> {
        let lay = abi::layout_of_call(info);
        let arg_ty = |i: usize| info.arg_types.get(i).copied().unwrap_or(IrType::I64);
        let is_struct =
            |i: usize| info.struct_arg_sizes.get(i).copied().flatten().is_some() && !(info.is_sret && i == 0);
        if lay.args.len() != info.args.len() {
            return Err(self.internal("call with mismatched argument metadata"));
        }
        // By-reference copies live above the stack arguments.
        let mut byref_at = Vec::with_capacity(lay.args.len());
        let mut byref_total = 0u32;
        for (i, loc) in lay.args.iter().enumerate() {
            if matches!(loc, ArgLoc::ByRef(_)) {
                let size = info.struct_arg_sizes.get(i).copied().flatten().unwrap_or(0) as u32;
                byref_at.push(Some(lay.stack_size + byref_total));
                byref_total += size.div_ceil(16) * 16;
            } else {
                byref_at.push(None);
            }
        }
        let total = lay.stack_size as i64 + byref_total as i64;
        if total > 0 {
            self.add_imm(SP, SP, -total);
        }
        // Copies and stack pieces first.
        for (i, loc) in lay.args.iter().enumerate() {
            let arg = &info.args[i];
            let ty = arg_ty(i);
            match loc {
                ArgLoc::ByRef(place) => {
                    let size = info.struct_arg_sizes.get(i).copied().flatten().unwrap_or(0);
                    let at = byref_at[i].unwrap_or(0) as i64;
                    self.load_ptr(arg, T4)?;
                    self.add_imm(T5, SP, at);
                    self.copy_bytes(T4, T5, size);
                    if let Place::Stack(o) = place {
                        self.store_mem(T5, 8, Mem::new(SP, *o as i64));
                    }
                }
                ArgLoc::Parts(parts) => {
                    for p in parts {
                        let Place::Stack(o) = p.place else { continue };
                        let dst = Mem::new(SP, o as i64);
                        if is_struct(i) {
                            self.load_ptr(arg, T4)?;
                            self.copy_mem(Mem::new(T4, p.offset as i64), dst, p.size as usize);
                        } else if ty.size() > 8 && p.size == 8 {
                            self.load_word(arg, ty, p.offset / 8, T4)?;
                            self.store_mem(T4, 8, dst);
                        } else if ty.size() > 8 {
                            self.store_operand(arg, ty, dst)?;
                        } else {
                            self.load_abi(arg, ty, T4)?;
                            self.store_mem(T4, 8, dst);
                        }
                    }
                }
                ArgLoc::Ignored => {}
            }
        }
        // Then the registers.
        for (i, loc) in lay.args.iter().enumerate() {
            let arg = &info.args[i];
            let ty = arg_ty(i);
            match loc {
                ArgLoc::ByRef(Place::Gpr(n)) => {
                    let at = byref_at[i].unwrap_or(0) as i64;
                    self.add_imm(arg_gpr(*n), SP, at);
                }
                ArgLoc::Parts(parts) if is_struct(i) => {
                    if parts.iter().all(|p| matches!(p.place, Place::Stack(_))) {
                        continue;
                    }
                    self.load_ptr(arg, T5)?;
                    for p in parts {
                        let m = Mem::new(T5, p.offset as i64);
                        match p.place {
                            Place::Gpr(n) => {
                                if p.size == 4 && p.float.is_none() {
                                    // A 32-bit piece is sign-extended like an int.
                                    self.load_mem(m, 4, true, arg_gpr(n));
                                } else {
                                    self.load_exact(m, p.size, arg_gpr(n));
                                }
                            }
                            Place::Fpr(n) => self.load_fmem(m, p.float.unwrap_or(IrType::F64), arg_fpr(n)),
                            Place::Stack(_) => {}
                        }
                    }
                }
                ArgLoc::Parts(parts) => {
                    for p in parts {
                        match p.place {
                            Place::Gpr(n) if ty.size() > 8 => self.load_word(arg, ty, p.offset / 8, arg_gpr(n))?,
                            Place::Gpr(n) => self.load_abi(arg, ty, arg_gpr(n))?,
                            Place::Fpr(n) => self.load_f(arg, ty, arg_fpr(n))?,
                            Place::Stack(_) => {}
                        }
                    }
                }
                _ => {}
            }
        }
        match (func, ptr) {
            (Some(name), _) => {
                self.out.push_str("\tcall\t");
                crate::backend::push_symbol(self.out, name);
                if !self.cx.is_defined(name) {
                    self.out.push_str("@plt");
                }
                self.out.push('\n');
            }
            (None, Some(p)) => {
                self.load_ptr(p, T5)?;
                emit!(self, "\tjalr\tt5");
            }
            (None, None) => return Err(self.internal("call without a callee")),
        }
        if total > 0 {
            self.add_imm(SP, SP, total);
        }
        let second = self.second_returns.get(&(self.block_index, self.inst_index)).copied();
        let ret_ty = info.return_type;
        match &lay.ret {
            RetLoc::Void | RetLoc::SretMemory => {}
            RetLoc::Parts(parts) if info.is_sret => {
                let Some(buf) = info.args.first() else {
                    return Err(self.internal("sret call without a result buffer"));
                };
                self.load_ptr(buf, T5)?;
                for p in parts {
                    let m = Mem::new(T5, p.offset as i64);
                    match p.place {
                        Place::Gpr(n) => self.store_exact(arg_gpr(n), p.size, m),
                        Place::Fpr(n) => self.store_fmem(arg_fpr(n), p.float.unwrap_or(IrType::F64), m),
                        Place::Stack(_) => return Err(self.internal("struct return on the stack")),
                    }
                }
            }
            RetLoc::Parts(parts) => {
                if let Some(d) = info.dest {
                    match parts.first().map(|p| p.place) {
                        Some(Place::Fpr(_)) => self.store_f(FA0, ret_ty, d)?,
                        _ if parts.len() == 2 => self.store_pair(A0, A1, d)?,
                        // The psABI sign-extends 32-bit results.
                        _ if ret_ty.size() == 4 => self.store_ext(A0, ret_ty, d, super::moves::WORD)?,
                        _ => self.store(A0, ret_ty, d)?,
                    }
                }
            }
        }
        if let Some(kind) = second {
            let m = self.ret2_area()?;
            match kind {
                SecondReturn::F64 => self.store_fmem(FA1, IrType::F64, m),
                SecondReturn::F32 => self.store_fmem(FA1, IrType::F32, m),
                // Refused by the prescan (LP64D has no such register).
                SecondReturn::F128 => return Err(self.internal("no second binary128 return register under LP64D")),
            }
        }
        Ok(())
    }
}
