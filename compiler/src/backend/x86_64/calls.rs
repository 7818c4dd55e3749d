//! Prologue, epilogue, parameters, calls and returns under the SysV AMD64
//! convention (the locations come from [`super::abi`]).
//!
//! - Prologue: `push %rbp; mov %rsp, %rbp; sub $frame, %rsp`, save the
//!   callee-saved registers an inline asm uses, store register parameters to
//!   their homes (a struct's eightbytes into a frame buffer the callee owns),
//!   save the argument registers of a variadic function into its register
//!   save area (`xmm0..7` only when `%al != 0`, psABI 3.5.7), then zero the
//!   `alloca` region.
//! - Call: a 16-aligned outgoing area is pushed for stack arguments (`sub`
//!   before, `add` after), so `%rsp` is aligned at every `call`; stack
//!   arguments are written first, then registers (all sources are frame
//!   slots, so no order problems arise); `%al` holds the number of vector
//!   registers for a variadic call. Struct eightbytes are read and written
//!   with their exact size so that no byte past the struct is touched.
//! - Results: `rax`, `rax:rdx`, `xmm0`, `st(0)` (popped), or a struct's
//!   registers stored into the caller's result buffer (`args[0]`).

use super::abi::{self, ArgLoc, RetLoc, StructPart};
use super::regs::{Gpr, Mem, ARG_GPRS};
use super::{emit, FnEmitter, ParamHome, SecondReturn};
use crate::backend::frame::slot_size;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{CallInfo, Operand, Value};
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// The register holding eightbyte number `reg` of a returned struct.
fn ret_gpr(reg: u8) -> Gpr {
    if reg == 0 {
        Gpr::Rax
    } else {
        Gpr::Rdx
    }
}

impl FnEmitter<'_, '_> {
    pub(super) fn emit_prologue(&mut self) -> Result<(), BackendError> {
        emit!(self, "\tpushq\t%rbp");
        emit!(self, "\tmovq\t%rsp, %rbp");
        let frame = self.layout.size();
        if frame > 0 {
            emit!(self, "\tsubq\t${frame}, %rsp");
        }
        for (g, off) in self.saved.clone() {
            let m = self.area(off);
            emit!(self, "\tmovq\t{}, {m}", g.q());
        }
        let args = self.own.args.clone();
        let mut reg_moves: Vec<(Gpr, Gpr)> = Vec::new();
        for (i, loc) in args.iter().enumerate() {
            let home = self.params[i];
            match (loc, home) {
                (ArgLoc::Gpr(n), ParamHome::Slot(off)) => {
                    let m = self.area(off);
                    emit!(self, "\tmovq\t{}, {m}", ARG_GPRS[*n as usize].q());
                }
                (ArgLoc::GprPair(a, b), ParamHome::Slot(off)) => {
                    let m = self.area(off);
                    emit!(self, "\tmovq\t{}, {m}", ARG_GPRS[*a as usize].q());
                    emit!(self, "\tmovq\t{}, {}", ARG_GPRS[*b as usize].q(), m.at(8));
                }
                (ArgLoc::Xmm(n), ParamHome::Slot(off)) => {
                    let m = self.area(off);
                    emit!(self, "\tmovsd\t%xmm{n}, {m}");
                }
                (ArgLoc::Gpr(n), ParamHome::Direct(v)) => {
                    let src = ARG_GPRS[*n as usize];
                    match self.reg_of(v) {
                        // A caller-saved home may be another argument's
                        // register: those moves wait for the others.
                        Some(g) if ARG_GPRS.contains(&g) => reg_moves.push((src, g)),
                        Some(g) => emit!(self, "\tmovq\t{}, {}", src.q(), g.q()),
                        None => {
                            let m = self.slot(v)?;
                            emit!(self, "\tmovq\t{}, {m}", src.q());
                        }
                    }
                }
                (ArgLoc::Xmm(n), ParamHome::Direct(v)) => match self.xmm_of(v) {
                    // The homes xmm8..15 are no argument registers.
                    Some(x) => emit!(self, "\tmovaps\t%xmm{n}, %xmm{x}"),
                    None => {
                        let m = self.slot(v)?;
                        emit!(self, "\tmovsd\t%xmm{n}, {m}");
                    }
                },
                (ArgLoc::StructRegs(parts), ParamHome::Buffer(off)) => {
                    let buf = self.area(off);
                    for p in parts {
                        let m = buf.at(p.offset as i64);
                        if p.sse {
                            emit!(self, "\tmovsd\t%xmm{}, {m}", p.reg);
                        } else {
                            emit!(self, "\tmovq\t{}, {m}", ARG_GPRS[p.reg as usize].q());
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(rsa) = self.rsa {
            let m = self.area(rsa);
            for (k, r) in ARG_GPRS.iter().enumerate() {
                emit!(self, "\tmovq\t{}, {}", r.q(), m.at(8 * k as i64));
            }
            let skip = self.cx.labels.fresh();
            emit!(self, "\ttestb\t%al, %al");
            emit!(self, "\tje\t.Ltmp{skip}");
            for k in 0..8 {
                emit!(self, "\tmovaps\t%xmm{k}, {}", m.at(48 + 16 * k));
            }
            emit!(self, ".Ltmp{skip}:");
        }
        let (start, len) = self.layout.alloca_region;
        if len > 0 {
            let m = self.area(start);
            if len <= super::ZERO_BY_STORES {
                for k in (0..len as i64).step_by(8) {
                    emit!(self, "\tmovq\t$0, {}", m.at(k));
                }
            } else {
                emit!(self, "\tleaq\t{m}, %rdi");
                emit!(self, "\tmovl\t${}, %ecx", len / 8);
                emit!(self, "\txorl\t%eax, %eax");
                emit!(self, "\trep stosq");
            }
        }
        if !reg_moves.is_empty() && len > super::ZERO_BY_STORES {
            return Err(self.internal("a parameter moved into an argument register after rep stosq"));
        }
        self.parallel_move(&mut reg_moves);
        Ok(())
    }

    /// Performs the register moves `(src, dest)` as if all at once (each
    /// destination distinct): a move whose destination no pending move still
    /// reads goes first; what remains are cycles, each broken through `%r11`.
    fn parallel_move(&mut self, moves: &mut Vec<(Gpr, Gpr)>) {
        moves.retain(|(s, d)| s != d);
        while !moves.is_empty() {
            if let Some(k) = (0..moves.len()).find(|&k| moves.iter().all(|(s, _)| *s != moves[k].1)) {
                let (s, d) = moves.remove(k);
                emit!(self, "\tmovq\t{}, {}", s.q(), d.q());
                continue;
            }
            // Every destination is still read: a cycle. Save one source's
            // destination in %r11 and let its readers take it from there.
            let (s, d) = moves.remove(0);
            emit!(self, "\tmovq\t{}, %r11", d.q());
            for m in moves.iter_mut() {
                if m.0 == d {
                    m.0 = Gpr::R11;
                }
            }
            emit!(self, "\tmovq\t{}, {}", s.q(), d.q());
        }
    }

    /// Restores what the prologue saved and returns.
    fn emit_epilogue(&mut self) {
        for (g, off) in self.saved.clone() {
            let m = self.area(off);
            emit!(self, "\tmovq\t{m}, {}", g.q());
        }
        emit!(self, "\tleave");
        emit!(self, "\tret");
    }

    pub(super) fn emit_return(&mut self, val: Option<&Operand>) -> Result<(), BackendError> {
        let ty = self.f.return_type;
        match self.own.ret.clone() {
            RetLoc::Void => {}
            RetLoc::Gpr => {
                if let Some(v) = val {
                    self.load(v, ty, Gpr::Rax)?;
                }
            }
            RetLoc::GprPair => {
                if let Some(v) = val {
                    self.load_wide(v, Gpr::Rax, Gpr::Rdx)?;
                }
            }
            RetLoc::Xmm => {
                if let Some(v) = val {
                    self.load_xmm(v, ty, 0)?;
                }
                match self.sets_second {
                    Some(SecondReturn::F64) => {
                        let m = self.ret2_area()?;
                        emit!(self, "\tmovsd\t{m}, %xmm1")
                    }
                    Some(SecondReturn::F32) => {
                        let m = self.ret2_area()?;
                        // `_Complex float` travels packed in xmm0.
                        emit!(self, "\tmovss\t{m}, %xmm1");
                        emit!(self, "\tunpcklps\t%xmm1, %xmm0");
                    }
                    _ => {}
                }
            }
            RetLoc::X87 => {
                if self.sets_second == Some(SecondReturn::F128) {
                    let m = self.ret2_area()?;
                    emit!(self, "\tfldt\t{m}");
                }
                match val {
                    Some(v) => self.fld(v)?,
                    None => emit!(self, "\tfldz"),
                }
            }
            RetLoc::StructRegs(parts) => {
                let Some(ParamHome::Buffer(off)) = self.params.first().copied() else {
                    return Err(self.internal("struct return without its buffer"));
                };
                let buf = self.area(off);
                for p in &parts {
                    let m = buf.at(p.offset as i64);
                    if p.sse {
                        emit!(self, "\tmovsd\t{m}, %xmm{}", p.reg);
                    } else {
                        emit!(self, "\tmovq\t{m}, {}", ret_gpr(p.reg).q());
                    }
                }
            }
            RetLoc::X87Struct => {
                let Some(ParamHome::Buffer(off)) = self.params.first().copied() else {
                    return Err(self.internal("struct return without its buffer"));
                };
                let m = self.area(off);
                emit!(self, "\tfldt\t{m}");
            }
            RetLoc::X87Pair => {
                let Some(ParamHome::Buffer(off)) = self.params.first().copied() else {
                    return Err(self.internal("struct return without its buffer"));
                };
                let m = self.area(off);
                emit!(self, "\tfldt\t{}", m.at(16));
                emit!(self, "\tfldt\t{m}");
            }
            RetLoc::SretMemory => {
                if let Some(ParamHome::Slot(off)) = self.params.first().copied() {
                    let m = self.area(off);
                    emit!(self, "\tmovq\t{m}, %rax");
                }
            }
        }
        self.emit_epilogue();
        Ok(())
    }

    pub(super) fn param_ref(&mut self, dest: Value, idx: usize, ty: IrType) -> Result<(), BackendError> {
        if let ParamHome::Direct(v) = self.param_home(idx)? {
            // The prologue wrote it.
            return if v == dest {
                Ok(())
            } else {
                Err(self.internal(format!("paramref {idx} defines {dest}, the prologue wrote {v}")))
            };
        }
        if let Some(x) = self.xmm_of(dest) {
            let mv = if ty.size() <= 4 { "movss" } else { "movsd" };
            let src = match self.param_home(idx)? {
                ParamHome::Slot(off) => self.area(off),
                ParamHome::Incoming(d) => Mem::new(Gpr::Rbp, d),
                _ => return Err(self.internal(format!("float parameter {idx} passed by address"))),
            };
            emit!(self, "\t{mv}\t{src}, %xmm{x}");
            return Ok(());
        }
        if let Some(g) = self.reg_of(dest) {
            // The parameter's bits, read at its own width.
            let size = ty.size().clamp(1, 8);
            match self.param_home(idx)? {
                ParamHome::Slot(off) => {
                    let src = self.area(off);
                    self.load_mem(&src, size, false, g);
                }
                ParamHome::Incoming(d) => self.load_mem(&Mem::new(Gpr::Rbp, d), size, false, g),
                ParamHome::Buffer(off) => {
                    let b = self.area(off);
                    emit!(self, "\tleaq\t{b}, {}", g.q());
                }
                ParamHome::IncomingAddr(d) => emit!(self, "\tleaq\t{d}(%rbp), {}", g.q()),
                ParamHome::None => {
                    let s = self.scratch_area()?;
                    emit!(self, "\tleaq\t{s}, {}", g.q());
                }
                ParamHome::Direct(_) => return Err(self.internal("a direct parameter read twice")),
            }
            return Ok(());
        }
        let m = self.slot(dest)?;
        match self.param_home(idx)? {
            ParamHome::Slot(off) => {
                let src = self.area(off);
                self.copy_mem(&src, &m, slot_size(ty) as usize);
            }
            ParamHome::Incoming(d) => {
                let size = slot_size(ty) as usize;
                self.copy_mem(&Mem::new(Gpr::Rbp, d), &m, size);
            }
            ParamHome::Buffer(off) => {
                let b = self.area(off);
                emit!(self, "\tleaq\t{b}, %rax");
                emit!(self, "\tmovq\t%rax, {m}");
            }
            ParamHome::IncomingAddr(d) => {
                emit!(self, "\tleaq\t{d}(%rbp), %rax");
                emit!(self, "\tmovq\t%rax, {m}");
            }
            ParamHome::None => {
                let s = self.scratch_area()?;
                emit!(self, "\tleaq\t{s}, %rax");
                emit!(self, "\tmovq\t%rax, {m}");
            }
            ParamHome::Direct(_) => return Err(self.internal("a direct parameter read twice")),
        }
        Ok(())
    }

    /// Loads `size` bytes (1..=8) at `src` into `r` without reading past them.
    pub(super) fn load_exact(&mut self, src: &Mem, size: u32, r: Gpr, tmp: Gpr) {
        match size {
            8 => emit!(self, "\tmovq\t{src}, {}", r.q()),
            4 => emit!(self, "\tmovl\t{src}, {}", r.l()),
            2 => emit!(self, "\tmovzwl\t{src}, {}", r.l()),
            1 => emit!(self, "\tmovzbl\t{src}, {}", r.l()),
            _ => {
                // 3, 5, 6, 7: the low part, then the rest shifted into place.
                let low = if size > 4 { 4 } else { 2 };
                self.load_exact(src, low, r, tmp);
                self.load_exact(&src.at(low as i64), size - low, tmp, Gpr::Rax);
                emit!(self, "\tshlq\t${}, {}", 8 * low, tmp.q());
                emit!(self, "\torq\t{}, {}", tmp.q(), r.q());
            }
        }
    }

    /// Stores the low `size` bytes (1..=8) of `r` to `dst` (clobbers `r`).
    pub(super) fn store_exact(&mut self, r: Gpr, size: u32, dst: &Mem) {
        let mut at = 0i64;
        let mut left = size;
        for chunk in [8u32, 4, 2, 1] {
            if left >= chunk {
                self.store_mem(r, chunk as usize, &dst.at(at));
                at += chunk as i64;
                left -= chunk;
                if left > 0 {
                    emit!(self, "\tshrq\t${}, {}", 8 * chunk, r.q());
                }
            }
        }
    }

    /// Loads a struct's eightbytes (at `ptr`) into argument registers.
    fn load_struct_parts(&mut self, ptr: &Operand, parts: &[StructPart]) -> Result<(), BackendError> {
        self.load_int(ptr, IrType::Ptr, false, Gpr::R10)?;
        let base = Mem::new(Gpr::R10, 0);
        for p in parts {
            let m = base.at(p.offset as i64);
            if p.sse {
                if p.size <= 4 {
                    emit!(self, "\tmovss\t{m}, %xmm{}", p.reg);
                } else {
                    emit!(self, "\tmovsd\t{m}, %xmm{}", p.reg);
                }
            } else {
                self.load_exact(&m, p.size, ARG_GPRS[p.reg as usize], Gpr::R11);
            }
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
        if lay.stack_size > 0 {
            emit!(self, "\tsubq\t${}, %rsp", lay.stack_size);
        }
        // Stack arguments first.
        for (i, loc) in lay.args.iter().enumerate() {
            let arg = &info.args[i];
            let ty = arg_ty(i);
            match loc {
                ArgLoc::Stack(off) => {
                    let dst = Mem::new(Gpr::Rsp, *off as i64);
                    if ty.size() > 8 {
                        self.store_operand(arg, ty, &dst)?;
                    } else {
                        self.load(arg, ty, Gpr::Rax)?;
                        emit!(self, "\tmovq\t%rax, {dst}");
                    }
                }
                ArgLoc::StackStruct { offset, size } => {
                    self.load_int(arg, IrType::Ptr, false, Gpr::Rsi)?;
                    self.copy_mem(
                        &Mem::new(Gpr::Rsi, 0),
                        &Mem::new(Gpr::Rsp, *offset as i64),
                        *size as usize,
                    );
                }
                _ => {}
            }
        }
        // Then registers.
        for (i, loc) in lay.args.iter().enumerate() {
            let arg = &info.args[i];
            let ty = arg_ty(i);
            match loc {
                ArgLoc::Gpr(n) => self.load(arg, ty, ARG_GPRS[*n as usize])?,
                ArgLoc::GprPair(a, b) => self.load_wide(arg, ARG_GPRS[*a as usize], ARG_GPRS[*b as usize])?,
                ArgLoc::Xmm(n) => self.load_xmm(arg, ty, *n)?,
                ArgLoc::StructRegs(parts) => self.load_struct_parts(arg, parts)?,
                _ => {}
            }
        }
        match (func, ptr) {
            (Some(name), _) => {
                if info.is_variadic {
                    emit!(self, "\tmovl\t${}, %eax", lay.sses_used);
                }
                let local = self.cx.is_defined(name);
                self.flush();
                self.out.push_str("\tcall\t");
                crate::backend::push_symbol(self.out, name);
                if !local {
                    self.out.push_str("@PLT");
                }
                self.out.push('\n');
            }
            (None, Some(p)) => {
                self.load_int(p, IrType::Ptr, false, Gpr::R11)?;
                if info.is_variadic {
                    emit!(self, "\tmovl\t${}, %eax", lay.sses_used);
                }
                emit!(self, "\tcall\t*%r11");
            }
            (None, None) => return Err(self.internal("call without a callee")),
        }
        if lay.stack_size > 0 {
            emit!(self, "\taddq\t${}, %rsp", lay.stack_size);
        }
        let second = self.second_returns.get(&(self.block_index, self.inst_index)).copied();
        let ret_ty = info.return_type;
        match &lay.ret {
            RetLoc::Void | RetLoc::SretMemory => {}
            RetLoc::Gpr => {
                if let Some(d) = info.dest {
                    self.store(Gpr::Rax, ret_ty, d)?;
                }
            }
            RetLoc::GprPair => {
                if let Some(d) = info.dest {
                    let m = self.slot(d)?;
                    emit!(self, "\tmovq\t%rax, {m}");
                    emit!(self, "\tmovq\t%rdx, {}", m.at(8));
                }
            }
            RetLoc::Xmm => {
                if let Some(d) = info.dest {
                    self.store_xmm_to(0, ret_ty, d)?;
                }
            }
            RetLoc::X87 => match info.dest {
                Some(d) => {
                    let m = self.slot(d)?;
                    emit!(self, "\tfstpt\t{m}");
                }
                None => emit!(self, "\tfstp\t%st(0)"),
            },
            RetLoc::X87Struct => {
                let Some(buf) = info.args.first() else {
                    return Err(self.internal("sret call without a result buffer"));
                };
                self.load_int(buf, IrType::Ptr, false, Gpr::R10)?;
                emit!(self, "\tfstpt\t(%r10)");
            }
            RetLoc::X87Pair => {
                let Some(buf) = info.args.first() else {
                    return Err(self.internal("sret call without a result buffer"));
                };
                self.load_int(buf, IrType::Ptr, false, Gpr::R10)?;
                emit!(self, "\tfstpt\t(%r10)");
                emit!(self, "\tfstpt\t16(%r10)");
            }
            RetLoc::StructRegs(parts) => {
                let Some(buf) = info.args.first() else {
                    return Err(self.internal("sret call without a result buffer"));
                };
                // Park the returned registers, then store them with exact sizes.
                let s = self.scratch_area()?;
                emit!(self, "\tmovq\t%rax, {s}");
                emit!(self, "\tmovq\t%rdx, {}", s.at(8));
                self.load_int(buf, IrType::Ptr, false, Gpr::R10)?;
                let base = Mem::new(Gpr::R10, 0);
                for p in parts {
                    let m = base.at(p.offset as i64);
                    if p.sse {
                        if p.size <= 4 {
                            emit!(self, "\tmovss\t%xmm{}, {m}", p.reg);
                        } else {
                            emit!(self, "\tmovsd\t%xmm{}, {m}", p.reg);
                        }
                    } else {
                        emit!(self, "\tmovq\t{}, %rax", s.at(8 * p.reg as i64));
                        self.store_exact(Gpr::Rax, p.size, &m);
                    }
                }
            }
        }
        if let Some(kind) = second {
            let m = self.ret2_area()?;
            match kind {
                SecondReturn::F64 => emit!(self, "\tmovsd\t%xmm1, {m}"),
                SecondReturn::F32 => {
                    emit!(self, "\tmovq\t%xmm0, %rax");
                    emit!(self, "\tshrq\t$32, %rax");
                    emit!(self, "\tmovl\t%eax, {m}");
                }
                SecondReturn::F128 => {
                    if lay.ret == RetLoc::X87 {
                        emit!(self, "\tfstpt\t{m}");
                    }
                }
            }
        }
        Ok(())
    }
}
