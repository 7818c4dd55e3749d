//! Loads, stores, `memcpy`, address arithmetic, global addresses, the
//! dynamic stack (`dynalloca`, `stacksave`/`stackrestore`) and atomics.
//!
//! An access through an `alloca`'s own value addresses the frame object
//! directly (`-N(%rbp)`); any other pointer is loaded into `r11` (`r10` for
//! the second pointer of a copy). Global addresses are `lea sym(%rip)` for
//! symbols defined in the module, a GOT load (`sym@GOTPCREL`) otherwise, and
//! for thread-locals the initial-exec sequence (`%fs:0` + `sym@gottpoff`),
//! which the linker relaxes in executables.
//!
//! Atomics follow the x86 mapping of the C11 model (x86 is TSO): loads and
//! non-`seq_cst` stores are plain moves, `seq_cst` stores use `xchg`,
//! `add`/`sub` are `lock xadd`, `xchg` is implicitly locked, the other
//! read-modify-writes (and float add/sub) are `lock cmpxchg` loops.

use super::regs::{suffix, Gpr};
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::ops::{AtomicOrdering, AtomicRmwOp};
use crate::ir::types::{AddressSpace, IrType};
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    pub(super) fn load_inst(
        &mut self,
        dest: Value,
        ptr: Value,
        ty: IrType,
        seg: AddressSpace,
    ) -> Result<(), BackendError> {
        let src = self.addr_of(ptr, seg, Gpr::R11)?;
        if ty.size() > 8 {
            let m = self.slot(dest)?;
            emit!(self, "\tmovq\t{src}, %rax");
            emit!(self, "\tmovq\t{}, %rdx", src.at(8));
            emit!(self, "\tmovq\t%rax, {m}");
            emit!(self, "\tmovq\t%rdx, {}", m.at(8));
        } else if let (Some(x), IrType::F32 | IrType::F64) = (self.xmm_of(dest), ty) {
            let mv = if ty == IrType::F32 { "movss" } else { "movsd" };
            emit!(self, "\t{mv}\t{src}, %xmm{x}");
        } else {
            let size = ty.size().max(1);
            let into = self.reg_of(dest).unwrap_or(Gpr::Rax);
            self.load_mem(&src, size, false, into);
            self.store_sized(into, size, dest)?;
        }
        Ok(())
    }

    pub(super) fn store_inst(
        &mut self,
        val: &Operand,
        ptr: Value,
        ty: IrType,
        seg: AddressSpace,
    ) -> Result<(), BackendError> {
        let dst = self.addr_of(ptr, seg, Gpr::R11)?;
        self.store_operand(val, ty, &dst)
    }

    pub(super) fn memcpy(&mut self, dest: Value, src: Value, size: usize) -> Result<(), BackendError> {
        if size == 0 {
            return Ok(());
        }
        if size <= 64 {
            let d = self.addr_of(dest, AddressSpace::Default, Gpr::R10)?;
            let s = self.addr_of(src, AddressSpace::Default, Gpr::R11)?;
            self.copy_mem(&s, &d, size);
        } else {
            self.load_int(&Operand::Value(src), IrType::Ptr, false, Gpr::Rsi)?;
            self.load_int(&Operand::Value(dest), IrType::Ptr, false, Gpr::Rdi)?;
            self.mov_imm(size as i64, Gpr::Rcx);
            emit!(self, "\trep movsb");
        }
        Ok(())
    }

    pub(super) fn gep(&mut self, dest: Value, base: Value, offset: &Operand) -> Result<(), BackendError> {
        if self.layout.home(dest).is_address() {
            return Ok(()); // recomputed where used
        }
        let off_ty = self.types.of_operand(offset);
        let off_ty = if off_ty.is_int_or_ptr() { off_ty } else { IrType::I64 };
        let konst = offset
            .as_const()
            .map(|c| Self::const_i64(&c, off_ty, off_ty.is_signed()));
        match (self.layout.home(base), konst) {
            (Home::Alloca { offset: o, align }, Some(k)) if align <= 16 => {
                let a = self.area(o).at(k);
                if i32::try_from(a.disp).is_ok() {
                    emit!(self, "\tleaq\t{a}, %rax");
                } else {
                    emit!(self, "\tleaq\t{}, %rax", self.area(o));
                    self.mov_imm(k, Gpr::Rcx);
                    emit!(self, "\taddq\t%rcx, %rax");
                }
            }
            (_, Some(k)) => {
                // Straight into the destination's register when it has one.
                let into = self.reg_of(dest).unwrap_or(Gpr::Rax);
                self.load_int(&Operand::Value(base), IrType::Ptr, false, into)?;
                if k != 0 {
                    if i32::try_from(k).is_ok() {
                        emit!(self, "\taddq\t${k}, {}", into.q());
                    } else {
                        self.mov_imm(k, Gpr::Rcx);
                        emit!(self, "\taddq\t%rcx, {}", into.q());
                    }
                }
                return self.store_sized(into, 8, dest);
            }
            (_, None) if off_ty.size() == 8 => {
                // base + offset, reading a register offset in place and
                // computing in the destination's register when it has one.
                let off_reg = offset.as_value().and_then(|v| self.reg_of(v));
                match (self.reg_of(dest), off_reg) {
                    (Some(g), Some(o)) if g == o => {
                        self.load_int(&Operand::Value(base), IrType::Ptr, false, Gpr::Rax)?;
                        emit!(self, "\taddq\t%rax, {}", g.q());
                        return self.store_sized(g, 8, dest);
                    }
                    (into, off_reg) => {
                        let into = into.unwrap_or(Gpr::Rax);
                        self.load_int(&Operand::Value(base), IrType::Ptr, false, into)?;
                        let off = match off_reg {
                            Some(o) => o,
                            None => {
                                self.load(offset, off_ty, Gpr::Rcx)?;
                                Gpr::Rcx
                            }
                        };
                        emit!(self, "\taddq\t{}, {}", off.q(), into.q());
                        return self.store_sized(into, 8, dest);
                    }
                }
            }
            (_, None) => {
                self.load_int(&Operand::Value(base), IrType::Ptr, false, Gpr::Rax)?;
                self.load(offset, off_ty, Gpr::Rcx)?;
                emit!(self, "\taddq\t%rcx, %rax");
            }
        }
        self.store_sized(Gpr::Rax, 8, dest)
    }

    pub(super) fn global_addr(&mut self, dest: Value, name: &str) -> Result<(), BackendError> {
        if self.layout.home(dest).is_address() {
            return Ok(()); // recomputed where used
        }
        let kind = self.symbol_kind(name);
        self.symbol_base(name, kind, Gpr::Rax);
        self.store_sized(Gpr::Rax, 8, dest)
    }

    pub(super) fn dyn_alloca(&mut self, dest: Value, size: &Operand, align: usize) -> Result<(), BackendError> {
        let ty = self.types.of_operand(size);
        let ty = if ty.is_int_or_ptr() && !ty.is_128() {
            ty
        } else {
            IrType::U64
        };
        self.load_int(size, ty, false, Gpr::Rax)?;
        emit!(self, "\taddq\t$15, %rax");
        emit!(self, "\tandq\t$-16, %rax");
        emit!(self, "\tsubq\t%rax, %rsp");
        if align > 16 {
            if !align.is_power_of_two() || align > 1 << 16 {
                return Err(if align.is_power_of_two() {
                    self.unsupported(format!("alignment {align} is larger than 65536"))
                } else {
                    self.internal(format!("dynalloca alignment {align}"))
                });
            }
            emit!(self, "\tandq\t${}, %rsp", -(align as i64));
        }
        emit!(self, "\tmovq\t%rsp, %rax");
        self.store_sized(Gpr::Rax, 8, dest)
    }

    pub(super) fn atomic_load(
        &mut self,
        dest: Value,
        ptr: Value,
        ty: IrType,
        _ordering: AtomicOrdering,
    ) -> Result<(), BackendError> {
        let size = self.atomic_size(ty)?;
        let src = self.addr_of(ptr, AddressSpace::Default, Gpr::R11)?;
        self.load_mem(&src, size, false, Gpr::Rax);
        self.store_sized(Gpr::Rax, size, dest)
    }

    pub(super) fn atomic_store(
        &mut self,
        ptr: Value,
        val: &Operand,
        ordering: AtomicOrdering,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let size = self.atomic_size(ty)?;
        self.load_int(val, ty, false, Gpr::Rax)?;
        let dst = self.addr_of(ptr, AddressSpace::Default, Gpr::R11)?;
        let s = suffix(size);
        let mn = if ordering == AtomicOrdering::SeqCst {
            "xchg"
        } else {
            "mov"
        };
        emit!(self, "\t{mn}{s}\t{}, {dst}", Gpr::Rax.name(size));
        Ok(())
    }

    pub(super) fn atomic_rmw(
        &mut self,
        dest: Value,
        op: AtomicRmwOp,
        ptr: Value,
        val: &Operand,
        ty: IrType,
        _ordering: AtomicOrdering,
    ) -> Result<(), BackendError> {
        let size = self.atomic_size(ty)?;
        let s = suffix(size);
        let (a, d) = (Gpr::Rax.name(size), Gpr::Rdx.name(size));
        self.load_int(val, ty, false, Gpr::Rcx)?;
        let mem = self.addr_of(ptr, AddressSpace::Default, Gpr::R11)?;
        match op {
            AtomicRmwOp::Add | AtomicRmwOp::Sub if !ty.is_float() => {
                emit!(self, "\tmovq\t%rcx, %rax");
                if op == AtomicRmwOp::Sub {
                    emit!(self, "\tneg{s}\t{a}");
                }
                emit!(self, "\tlock xadd{s}\t{a}, {mem}");
            }
            AtomicRmwOp::Xchg => {
                emit!(self, "\tmovq\t%rcx, %rax");
                emit!(self, "\txchg{s}\t{a}, {mem}");
            }
            AtomicRmwOp::TestAndSet => {
                emit!(self, "\tmovl\t$1, %eax");
                emit!(self, "\txchg{s}\t{a}, {mem}");
            }
            _ => {
                let again = self.cx.labels.fresh();
                emit!(self, "\tmov{s}\t{mem}, {a}");
                emit!(self, ".Ltmp{again}:");
                if ty.is_float() {
                    let (f, mv) = if ty == IrType::F32 {
                        ("ss", "movd")
                    } else {
                        ("sd", "movq")
                    };
                    let (ar, cr, dr) = (Gpr::Rax.name(size), Gpr::Rcx.name(size), Gpr::Rdx.name(size));
                    emit!(self, "\t{mv}\t{ar}, %xmm0");
                    emit!(self, "\t{mv}\t{cr}, %xmm1");
                    let mn = match op {
                        AtomicRmwOp::Add => "add",
                        AtomicRmwOp::Sub => "sub",
                        _ => return Err(self.unsupported(format!("atomic {} on {ty}", op.name()))),
                    };
                    emit!(self, "\t{mn}{f}\t%xmm1, %xmm0");
                    emit!(self, "\t{mv}\t%xmm0, {dr}");
                } else {
                    emit!(self, "\tmovq\t%rax, %rdx");
                    let mn = match op {
                        AtomicRmwOp::And | AtomicRmwOp::Nand => "andq",
                        AtomicRmwOp::Or => "orq",
                        _ => "xorq",
                    };
                    emit!(self, "\t{mn}\t%rcx, %rdx");
                    if op == AtomicRmwOp::Nand {
                        emit!(self, "\tnotq\t%rdx");
                    }
                }
                emit!(self, "\tlock cmpxchg{s}\t{d}, {mem}");
                emit!(self, "\tjne\t.Ltmp{again}");
            }
        }
        self.store_sized(Gpr::Rax, size, dest)
    }

    pub(super) fn atomic_cmpxchg(
        &mut self,
        dest: Value,
        ptr: Value,
        expected: &Operand,
        desired: &Operand,
        ty: IrType,
        returns_bool: bool,
    ) -> Result<(), BackendError> {
        let size = self.atomic_size(ty)?;
        let s = suffix(size);
        self.load_int(expected, ty, false, Gpr::Rax)?;
        self.load_int(desired, ty, false, Gpr::Rcx)?;
        let mem = self.addr_of(ptr, AddressSpace::Default, Gpr::R11)?;
        emit!(self, "\tlock cmpxchg{s}\t{}, {mem}", Gpr::Rcx.name(size));
        if returns_bool {
            emit!(self, "\tsete\t%al");
            self.store_sized(Gpr::Rax, 1, dest)
        } else {
            self.store_sized(Gpr::Rax, size, dest)
        }
    }
}
