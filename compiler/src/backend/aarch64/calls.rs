//! Prologue, epilogue, parameters, calls and returns under AAPCS64 (the
//! locations come from [`super::abi`]).
//!
//! - Prologue: `sub sp, sp, #frame; stp x29, x30, [sp]; mov x29, sp` (none
//!   in a leaf with an empty frame, [`crate::backend::needs_no_frame_record`]), save
//!   the callee-saved registers the allocator hands out or an inline asm
//!   uses (by pairs when their slots are adjacent), store the register
//!   parameters to their homes (a composite's registers into a frame buffer
//!   the callee owns, the `x8` result pointer of a memory-returned struct),
//!   save `x0..x7` and `q0..q7` of a variadic function into its register
//!   save areas, move the register parameters whose `paramref` opens the
//!   entry block straight into their home registers (a parallel move: a
//!   home may be another parameter's argument register), then zero the
//!   `alloca` region.
//! - Call: the call area (stack arguments, then the caller's copies of
//!   composites passed by reference) is pushed just for the call; copies
//!   and stack arguments are written first, then the argument registers in
//!   argument order, each from its operand's home (an operand never sits in
//!   an argument register loaded before it is read: `clobbers` keeps the
//!   operands of a call out of the argument registers it loads). Composites are
//!   read and written with their exact size so that no byte past them is
//!   touched. Narrow integer arguments are extended to 64 bits as gcc does;
//!   callees never rely on it (a parameter is read back at its own width).
//! - Results: `x0`, `x0:x1`, `s0`/`d0`/`q0`, a composite's registers
//!   stored into the caller's result buffer (`args[0]`), or nothing (the
//!   callee wrote through `x8`).

use super::abi::{self, ArgLoc, RetLoc};
use super::regs::{Mem, Vr, Xr, PTR, SP};
use super::{emit, FnEmitter, HomeReg, ParamHome, SecondReturn};
use crate::backend::frame::slot_size;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{CallInfo, Operand, Value};
use crate::ir::types::{Hfa, IrType};
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    /// `sp = sp - n` (`n` may be large).
    fn sub_sp(&mut self, n: u32) {
        if n > 0 {
            self.add_imm(SP, SP, -(n as i64));
        }
    }

    fn add_sp(&mut self, n: u32) {
        if n > 0 {
            self.add_imm(SP, SP, n as i64);
        }
    }

    pub(super) fn emit_prologue(&mut self) -> Result<(), BackendError> {
        if !self.frameless {
            let frame = self.frame_size();
            self.sub_sp(frame);
            emit!(self, "\tstp\tx29, x30, [sp]");
            emit!(self, "\tmov\tx29, sp");
        }
        self.save_restore(true);
        let args = self.own.args.clone();
        for (i, loc) in args.iter().enumerate() {
            if self.direct_params.iter().any(|&(k, _)| k == i) {
                continue;
            }
            let home = self.params[i];
            match (*loc, home) {
                (ArgLoc::Gpr(n), ParamHome::Slot(off)) | (ArgLoc::RefGpr { reg: n, .. }, ParamHome::RefSlot(off)) => {
                    let m = self.area(off);
                    self.store_mem(Xr(n), 8, m);
                }
                (ArgLoc::GprPair(n), ParamHome::Slot(off)) => {
                    let m = self.area(off);
                    self.store_mem(Xr(n), 8, m);
                    self.store_mem(Xr(n + 1), 8, m.at(8));
                }
                (ArgLoc::Fpr(n), ParamHome::Slot(off)) => {
                    let m = self.area(off);
                    let size = self.f.params[i].ty.size();
                    self.store_fp_mem(Vr(n), size, m);
                }
                (ArgLoc::StructGprs { first, count }, ParamHome::Buffer(off)) => {
                    let m = self.area(off);
                    for k in 0..count {
                        self.store_mem(Xr(first + k), 8, m.at(8 * k as i64));
                    }
                }
                (ArgLoc::StructHfa { first, hfa }, ParamHome::Buffer(off)) => {
                    let m = self.area(off);
                    let es = abi::hfa_member_size(hfa);
                    for k in 0..hfa.count {
                        self.store_fp_mem(Vr(first + k), es as usize, m.at((es * k as u32) as i64));
                    }
                }
                (ArgLoc::Ignored, ParamHome::Slot(off)) if i == 0 && self.f.uses_sret => {
                    let m = self.area(off);
                    self.store_mem(Xr(8), 8, m);
                }
                _ => {}
            }
        }
        if let Some(sa) = self.save_area {
            // General registers at [sa, sa+64), vector registers at [sa+64, sa+192).
            let m = self.area(sa);
            for k in (0..8).step_by(2) {
                let at = m.at(8 * k as i64);
                self.add_imm(PTR, at.base, at.disp);
                emit!(self, "\tstp\tx{}, x{}, [x16]", k, k + 1);
            }
            let v = m.at(64);
            self.add_imm(PTR, v.base, v.disp);
            for k in (0..8).step_by(2) {
                emit!(self, "\tstp\tq{}, q{}, [x16, #{}]", k, k + 1, 16 * k);
            }
        }
        // Last the moves into home registers, which may be argument
        // registers that the stores above still read.
        self.move_direct_params()?;
        let (start, len) = self.layout.alloca_region;
        if len > 0 {
            let m = self.area(start);
            // Pairs of doublewords, then a last one when the region (a
            // multiple of 8 bytes) is not a multiple of 16.
            let pairs = len / 16;
            if len <= 256 {
                self.add_imm(PTR, m.base, m.disp);
                for k in (0..pairs * 16).step_by(16) {
                    emit!(self, "\tstp\txzr, xzr, [x16, #{k}]");
                }
                if len % 16 != 0 {
                    emit!(self, "\tstr\txzr, [x16, #{}]", pairs * 16);
                }
            } else {
                let again = self.cx.labels.fresh();
                self.add_imm(PTR, m.base, m.disp);
                self.mov_imm(Xr(9), pairs as u64);
                emit!(self, ".Ltmp{again}:");
                emit!(self, "\tstp\txzr, xzr, [x16], #16");
                emit!(self, "\tsubs\tx9, x9, #1");
                emit!(self, "\tb.ne\t.Ltmp{again}");
                if len % 16 != 0 {
                    emit!(self, "\tstr\txzr, [x16]");
                }
            }
        }
        Ok(())
    }

    /// Moves the parameters of [`super::direct_params`] from their
    /// argument registers into their home registers, as one parallel move:
    /// a home may be an argument register (`x2..x7`) that another parameter
    /// arrives in. A move goes once its destination is no pending move's
    /// source; when every destination is (a cycle), one source is first
    /// copied to `x9` and read from there.
    fn move_direct_params(&mut self) -> Result<(), BackendError> {
        let mut pending: Vec<(HomeReg, HomeReg)> = Vec::new();
        for (i, dest) in self.direct_params.clone() {
            if self.unread_params.contains(&dest) {
                continue;
            }
            let src = match self.own.args.get(i).copied() {
                Some(ArgLoc::Gpr(n)) => HomeReg::X(Xr(n)),
                Some(ArgLoc::Fpr(n)) => HomeReg::V(Vr(n)),
                _ => return Err(self.internal(format!("paramref {i} is not a register move"))),
            };
            let Some(dst) = self.reg_of(dest) else {
                return Err(self.internal(format!("paramref {i} is not a register move")));
            };
            if src != dst {
                pending.push((src, dst));
            }
        }
        while !pending.is_empty() {
            let ready = (0..pending.len()).find(|&k| pending.iter().all(|&(src, _)| src != pending[k].1));
            let k = match ready {
                Some(k) => k,
                None => {
                    // Every destination is still to be read: free the first one.
                    let HomeReg::X(blocked) = pending[0].1 else {
                        return Err(self.internal("cycle of float parameter moves"));
                    };
                    emit!(self, "\tmov\tx9, {}", blocked.x());
                    for p in &mut pending {
                        if p.0 == HomeReg::X(blocked) {
                            p.0 = HomeReg::X(Xr(9));
                        }
                    }
                    0
                }
            };
            let (src, dst) = pending.remove(k);
            match (src, dst) {
                (HomeReg::X(a), HomeReg::X(x)) => emit!(self, "\tmov\t{}, {}", x.x(), a.x()),
                (HomeReg::X(a), HomeReg::V(v)) => emit!(self, "\tfmov\t{}, {}", v.d(), a.x()),
                (HomeReg::V(a), HomeReg::V(v)) => emit!(self, "\tfmov\t{}, {}", v.d(), a.d()),
                (HomeReg::V(a), HomeReg::X(x)) => emit!(self, "\tfmov\t{}, {}", x.x(), a.d()),
            }
        }
        Ok(())
    }

    /// Saves (`save`) or restores the callee-saved registers of
    /// `saved_x`/`saved_v`: `stp`/`ldp` for two registers of a kind in
    /// adjacent slots within the pair instructions' reach, else one by one.
    fn save_restore(&mut self, save: bool) {
        let regs: Vec<(String, u32)> = self
            .saved_x
            .iter()
            .map(|&(x, off)| (x.x().to_string(), off))
            .chain(self.saved_v.iter().map(|&(v, off)| (v.d(), off)))
            .collect();
        let (pair, single) = if save { ("stp", "str") } else { ("ldp", "ldr") };
        let mut k = 0;
        while k < regs.len() {
            let (r, off) = &regs[k];
            let m = self.area(*off);
            let pairs_with_next = regs.get(k + 1).is_some_and(|(r2, off2)| {
                *off2 == off + 8 && r2.as_bytes()[0] == r.as_bytes()[0] && (-512..=504).contains(&m.disp)
            });
            if pairs_with_next {
                emit!(self, "\t{pair}\t{}, {}, {m}", r, regs[k + 1].0);
                k += 2;
            } else {
                self.mem_op(single, r, 8, m);
                k += 1;
            }
        }
    }

    /// Restores what the prologue saved and returns.
    fn emit_epilogue(&mut self) {
        self.save_restore(false);
        if !self.frameless {
            emit!(self, "\tmov\tsp, x29");
            emit!(self, "\tldp\tx29, x30, [sp]");
            let frame = self.frame_size();
            self.add_sp(frame);
        }
        emit!(self, "\tret");
    }

    pub(super) fn emit_return(&mut self, val: Option<&Operand>) -> Result<(), BackendError> {
        let ty = self.f.return_type;
        match self.own.ret {
            RetLoc::Void | RetLoc::Sret => {}
            RetLoc::Gpr => {
                if let Some(v) = val {
                    self.load(v, ty, Xr(0))?;
                }
            }
            RetLoc::GprPair => {
                if let Some(v) = val {
                    self.load_pair(v, Xr(0), Xr(1))?;
                }
            }
            RetLoc::Fpr => {
                if let Some(v) = val {
                    self.load_fp(v, ty, Vr(0))?;
                }
                if let Some(kind) = self.sets_second {
                    let m = self.ret2_area()?;
                    match kind {
                        SecondReturn::F32 => self.load_fp_mem(m, 4, Vr(1)),
                        SecondReturn::F64 => self.load_fp_mem(m, 8, Vr(1)),
                        SecondReturn::F128 => self.load_fp_mem(m, 16, Vr(1)),
                    }
                }
            }
            RetLoc::StructGprs(size) => {
                let Some(ParamHome::Buffer(off)) = self.params.first().copied() else {
                    return Err(self.internal("struct return without its buffer"));
                };
                let m = self.area(off);
                self.load_mem(m, 8, false, Xr(0));
                if size > 8 {
                    self.load_mem(m.at(8), 8, false, Xr(1));
                }
            }
            RetLoc::StructHfa(hfa) => {
                let Some(ParamHome::Buffer(off)) = self.params.first().copied() else {
                    return Err(self.internal("struct return without its buffer"));
                };
                let m = self.area(off);
                let es = abi::hfa_member_size(hfa);
                for k in 0..hfa.count {
                    self.load_fp_mem(m.at((es * k as u32) as i64), es as usize, Vr(k));
                }
            }
        }
        self.emit_epilogue();
        Ok(())
    }

    pub(super) fn param_ref(&mut self, dest: Value, idx: usize, ty: IrType) -> Result<(), BackendError> {
        if self.direct_params.contains(&(idx, dest)) {
            return Ok(()); // moved by the prologue
        }
        if let Some(h) = self.reg_of(dest) {
            // The parameter's bits, read at its own width.
            let size = ty.size().clamp(1, 8);
            let at = match self.param_home(idx)? {
                ParamHome::Slot(off) | ParamHome::RefSlot(off) => Some(self.area(off)),
                ParamHome::Incoming(off) | ParamHome::RefIncoming(off) => Some(self.incoming(off)),
                ParamHome::Buffer(off) => {
                    let b = self.area(off);
                    self.add_imm(Xr(9), b.base, b.disp);
                    None
                }
                ParamHome::IncomingAddr(off) => {
                    let b = self.incoming(off);
                    self.add_imm(Xr(9), b.base, b.disp);
                    None
                }
                ParamHome::None => {
                    let s = self.scratch_area()?;
                    self.add_imm(Xr(9), s.base, s.disp);
                    None
                }
                ParamHome::Direct => return Err(self.internal(format!("paramref {idx} read twice"))),
            };
            let is_ref = matches!(self.param_home(idx)?, ParamHome::RefSlot(_) | ParamHome::RefIncoming(_));
            return match (h, at) {
                (HomeReg::X(x), Some(m)) => {
                    self.load_mem(m, if is_ref { 8 } else { size }, false, x);
                    Ok(())
                }
                (HomeReg::V(v), Some(m)) if !is_ref => {
                    self.load_fp_mem(m, size, v);
                    Ok(())
                }
                (_, Some(m)) => {
                    self.load_mem(m, 8, false, Xr(9));
                    self.store_sized(Xr(9), 8, dest)
                }
                (_, None) => self.store_sized(Xr(9), 8, dest),
            };
        }
        let m = self.slot(dest)?;
        match self.param_home(idx)? {
            ParamHome::Slot(off) => {
                let src = self.area(off);
                self.copy_mem(src, m, slot_size(ty) as usize);
            }
            ParamHome::Incoming(off) => {
                let src = self.incoming(off);
                self.copy_mem(src, m, slot_size(ty) as usize);
            }
            ParamHome::Buffer(off) => {
                let b = self.area(off);
                self.add_imm(Xr(9), b.base, b.disp);
                self.store_mem(Xr(9), 8, m);
            }
            ParamHome::IncomingAddr(off) => {
                let b = self.incoming(off);
                self.add_imm(Xr(9), b.base, b.disp);
                self.store_mem(Xr(9), 8, m);
            }
            ParamHome::RefSlot(off) => {
                let src = self.area(off);
                self.copy_mem(src, m, 8);
            }
            ParamHome::RefIncoming(off) => {
                let src = self.incoming(off);
                self.copy_mem(src, m, 8);
            }
            ParamHome::None => {
                let s = self.scratch_area()?;
                self.add_imm(Xr(9), s.base, s.disp);
                self.store_mem(Xr(9), 8, m);
            }
            ParamHome::Direct => return Err(self.internal(format!("paramref {idx} read twice"))),
        }
        Ok(())
    }

    /// Loads `size` bytes (1..=8) at `src` into `r` without reading past them (uses `x15`).
    pub(super) fn load_exact(&mut self, src: Mem, size: u32, r: Xr) {
        match size {
            8 | 4 | 2 | 1 => self.load_mem(src, size as usize, false, r),
            _ => {
                let mut at = 0;
                let mut first = true;
                for chunk in [4u32, 2, 1] {
                    if size - at >= chunk {
                        if first {
                            self.load_mem(src, chunk as usize, false, r);
                            first = false;
                        } else {
                            self.load_mem(src.at(at as i64), chunk as usize, false, Xr(15));
                            emit!(self, "\torr\t{}, {}, x15, lsl #{}", r.x(), r.x(), 8 * at);
                        }
                        at += chunk;
                    }
                }
            }
        }
    }

    /// Stores the low `size` bytes (1..=8) of `r` to `dst` (clobbers `r`).
    pub(super) fn store_exact(&mut self, r: Xr, size: u32, dst: Mem) {
        let mut at = 0i64;
        let mut left = size;
        for chunk in [8u32, 4, 2, 1] {
            if left >= chunk {
                self.store_mem(r, chunk as usize, dst.at(at));
                at += chunk as i64;
                left -= chunk;
                if left > 0 {
                    emit!(self, "\tlsr\t{}, {}, #{}", r.x(), r.x(), 8 * chunk);
                }
            }
        }
    }

    /// Loads HFA members from `[base]` into `v<first>...`.
    fn load_hfa(&mut self, base: Mem, first: u8, hfa: Hfa) {
        let es = abi::hfa_member_size(hfa);
        for k in 0..hfa.count {
            self.load_fp_mem(base.at((es * k as u32) as i64), es as usize, Vr(first + k));
        }
    }

    pub(super) fn call(
        &mut self,
        func: Option<&String>,
        ptr: Option<&Operand>,
        info: &CallInfo,
    ) -> Result<(), BackendError> {
        abi::check_hfas(&info.struct_arg_hfas).map_err(|m| self.internal(m))?;
        let lay = abi::layout_of_call(info);
        if lay.args.len() != info.args.len() {
            return Err(self.internal("call with inconsistent argument metadata"));
        }
        let arg_ty = |i: usize| info.arg_types.get(i).copied().unwrap_or(IrType::I64);
        let struct_size = |i: usize| info.struct_arg_sizes.get(i).copied().flatten().unwrap_or(0);
        self.sub_sp(lay.area_size);
        // Copies of by-reference composites and stack arguments first
        // (x9..x12 and x16 are free: no argument register is loaded yet).
        for (i, loc) in lay.args.iter().enumerate() {
            let arg = &info.args[i];
            let ty = arg_ty(i);
            match *loc {
                ArgLoc::Stack(off) => {
                    let dst = Mem::new(SP, off as i64);
                    if ty.size() > 8 {
                        self.load_pair_as(arg, ty, Xr(10), Xr(11))?;
                        self.store_mem(Xr(10), 8, dst);
                        self.store_mem(Xr(11), 8, dst.at(8));
                    } else {
                        self.load(arg, ty, Xr(10))?;
                        self.store_mem(Xr(10), 8, dst);
                    }
                }
                ArgLoc::StackStruct { offset, size } => {
                    self.load_int(arg, IrType::Ptr, false, PTR)?;
                    self.copy_mem(Mem::new(PTR, 0), Mem::new(SP, offset as i64), size as usize);
                }
                ArgLoc::RefGpr { copy, .. } | ArgLoc::RefStack { copy, .. } => {
                    self.load_int(arg, IrType::Ptr, false, PTR)?;
                    self.add_imm(Xr(13), SP, copy as i64);
                    if let ArgLoc::RefStack { offset, .. } = *loc {
                        self.store_mem(Xr(13), 8, Mem::new(SP, offset as i64));
                    }
                    self.copy_block(PTR, Xr(13), struct_size(i));
                }
                _ => {}
            }
        }
        // Then registers.
        for (i, loc) in lay.args.iter().enumerate() {
            let arg = &info.args[i];
            let ty = arg_ty(i);
            match *loc {
                ArgLoc::Gpr(n) => self.load(arg, ty, Xr(n))?,
                ArgLoc::GprPair(n) => self.load_pair_as(arg, ty, Xr(n), Xr(n + 1))?,
                ArgLoc::Fpr(n) => self.load_fp(arg, ty, Vr(n))?,
                ArgLoc::StructGprs { first, count } => {
                    self.load_int(arg, IrType::Ptr, false, PTR)?;
                    let size = struct_size(i) as u32;
                    for k in 0..count as u32 {
                        let part = (size - 8 * k).min(8);
                        self.load_exact(Mem::new(PTR, 8 * k as i64), part, Xr(first + k as u8));
                    }
                }
                ArgLoc::StructHfa { first, hfa } => {
                    self.load_int(arg, IrType::Ptr, false, PTR)?;
                    self.load_hfa(Mem::new(PTR, 0), first, hfa);
                }
                ArgLoc::RefGpr { reg, copy } => self.add_imm(Xr(reg), SP, copy as i64),
                _ => {}
            }
        }
        if lay.ret == RetLoc::Sret {
            let Some(buf) = info.args.first() else {
                return Err(self.internal("sret call without a result buffer"));
            };
            self.load_int(buf, IrType::Ptr, false, Xr(8))?;
        }
        match (func, ptr) {
            (Some(name), _) => {
                self.out.push_str("\tbl\t");
                crate::backend::push_symbol(self.out, name);
                self.out.push('\n');
            }
            (None, Some(p)) => {
                self.load_int(p, IrType::Ptr, false, PTR)?;
                emit!(self, "\tblr\tx16");
            }
            (None, None) => return Err(self.internal("call without a callee")),
        }
        self.add_sp(lay.area_size);
        let second = self.second_returns.get(&(self.block_index, self.inst_index)).copied();
        if let Some(kind) = second {
            let m = self.ret2_area()?;
            match kind {
                SecondReturn::F32 => self.store_fp_mem(Vr(1), 4, m),
                SecondReturn::F64 => self.store_fp_mem(Vr(1), 8, m),
                SecondReturn::F128 => self.store_fp_mem(Vr(1), 16, m),
            }
        }
        let ret_ty = info.return_type;
        match lay.ret {
            RetLoc::Void | RetLoc::Sret => {}
            RetLoc::Gpr => {
                if let Some(d) = info.dest {
                    self.store(Xr(0), ret_ty, d)?;
                }
            }
            RetLoc::GprPair => {
                if let Some(d) = info.dest {
                    self.store_pair(Xr(0), Xr(1), d)?;
                }
            }
            RetLoc::Fpr => {
                if let Some(d) = info.dest {
                    self.store_fp(Vr(0), ret_ty, d)?;
                }
            }
            RetLoc::StructGprs(size) => {
                let Some(buf) = info.args.first() else {
                    return Err(self.internal("sret call without a result buffer"));
                };
                self.load_int(buf, IrType::Ptr, false, PTR)?;
                self.store_exact(Xr(0), size.min(8), Mem::new(PTR, 0));
                if size > 8 {
                    self.store_exact(Xr(1), size - 8, Mem::new(PTR, 8));
                }
            }
            RetLoc::StructHfa(hfa) => {
                let Some(buf) = info.args.first() else {
                    return Err(self.internal("sret call without a result buffer"));
                };
                self.load_int(buf, IrType::Ptr, false, PTR)?;
                let es = abi::hfa_member_size(hfa);
                for k in 0..hfa.count {
                    self.store_fp_mem(Vr(k), es as usize, Mem::new(PTR, (es * k as u32) as i64));
                }
            }
        }
        Ok(())
    }
}
