//! Loads, stores, `memcpy`, address arithmetic, global addresses, the
//! dynamic stack (`dynalloca`, `stacksave`/`stackrestore`) and atomics.
//!
//! An access through an `alloca`'s own value addresses the frame object
//! directly (`disp(s0)`); any other pointer is loaded into `t5` (`t4` for
//! the second pointer of a copy). A scalar load or store at a global the
//! module defines is `auipc` plus the access with `%pcrel_lo`
//! ([`FnEmitter::global_mem`]). Global addresses are `lla` (PC-relative,
//! `%pcrel_hi`/`%pcrel_lo`) for symbols defined in the module and a GOT load
//! (`%got_pcrel_hi`) otherwise, so that the output links both statically
//! and as a PIE; thread-locals use the initial-exec model (`la.tls.ie` plus
//! `tp`).
//!
//! Atomics follow the RISC-V mapping of the C11 model (the ISA manual's
//! "Mappings from C/C++ primitives to RISC-V primitives"): loads and
//! stores with fences, AMOs with `.aqrl` for 32- and 64-bit
//! read-modify-writes, LR/SC loops for `nand`, float add/sub and
//! compare-and-swap, and for 8- and 16-bit objects LR/SC loops on the
//! aligned word that contains them, with the other bytes masked through.

use super::regs::{Gpr, Mem, T0, T1, T2, T4, T5, ZERO};
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::ops::{AtomicOrdering, AtomicRmwOp};
use crate::ir::types::{AddressSpace, IrType};
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    /// `load` (`_seg`, an x86 segment override, means nothing here).
    pub(super) fn load_inst(
        &mut self,
        dest: Value,
        ptr: Value,
        ty: IrType,
        _seg: AddressSpace,
    ) -> Result<(), BackendError> {
        if matches!(ty.size(), 1 | 2 | 4 | 8) && self.reg_of(dest).is_some() {
            if let Some(src) = self.global_mem(ptr) {
                // One load straight into the home register.
                return self.write_mem(src, ty.size(), dest);
            }
        }
        let src = self.addr_of(ptr, T5)?;
        if ty.size() > 8 {
            let m = self.slot(dest)?;
            self.copy_mem(src, m, 16);
        } else if self.reg_of(dest).is_some() {
            // Straight into the home register.
            self.write_mem(src, ty.size().max(1), dest)?;
        } else {
            let m = self.slot(dest)?;
            let size = ty.size().max(1);
            self.load_mem(src, size, false, T0);
            self.store_mem(T0, size, m);
        }
        Ok(())
    }

    /// `store` (`_seg`, an x86 segment override, means nothing here).
    pub(super) fn store_inst(
        &mut self,
        val: &Operand,
        ptr: Value,
        ty: IrType,
        _seg: AddressSpace,
    ) -> Result<(), BackendError> {
        let in_reg = val.as_value().is_some_and(|v| self.reg_of(v).is_some());
        if in_reg && matches!(ty.size(), 1 | 2 | 4 | 8) {
            if let Some(dst) = self.global_mem(ptr) {
                // One store from the home register.
                return self.store_operand(val, ty, dst);
            }
        }
        let dst = self.addr_of(ptr, T5)?;
        self.store_operand(val, ty, dst)
    }

    /// For a scalar load or store at `ptr` when `ptr` is a global the
    /// module defines (not thread-local) plus a constant offset: `.Lpc<n>:
    /// auipc t5, %pcrel_hi(g+off)`, and the access's location
    /// `%pcrel_lo(.Lpc<n>)(t5)`, one instruction less than `lla t5, g+off`
    /// and `0(t5)` (unlike AArch64's `:lo12:` there is no alignment
    /// condition: the low part is a plain 12-bit displacement). The caller
    /// makes exactly one access there. `None`, with nothing emitted, for
    /// anything else.
    pub(super) fn global_mem(&mut self, ptr: Value) -> Option<Mem> {
        let Home::SymbolAddr { sym, offset } = self.layout.home(ptr) else {
            return None;
        };
        let name = self.layout.symbol(sym).clone();
        if self.cx.thread_local.contains(&*name) || !(self.cx.is_defined(&name) || name.starts_with(".L")) {
            return None;
        }
        let s = crate::backend::symbol(&name);
        let l = self.cx.labels.fresh();
        emit!(self, ".Lpc{l}:");
        #[cfg(feature = "inject-bugs")]
        let offset = if crate::inject::enabled(crate::inject::Bug::RiscvPcrelDropsOffset) {
            0
        } else {
            offset
        };
        match offset {
            0 => emit!(self, "\tauipc\tt5, %pcrel_hi({s})"),
            o => emit!(self, "\tauipc\tt5, %pcrel_hi({s}{o:+})"),
        }
        Some(Mem {
            base: T5,
            disp: 0,
            pcrel: Some(l),
        })
    }

    /// The address a pointer value holds, in `r`.
    fn pointer_in(&mut self, ptr: Value, r: Gpr) -> Result<(), BackendError> {
        self.load_ptr(&Operand::Value(ptr), r)
    }

    pub(super) fn memcpy(&mut self, dest: Value, src: Value, size: usize) -> Result<(), BackendError> {
        if size == 0 {
            return Ok(());
        }
        if size <= 64 {
            let d = self.addr_of(dest, T4)?;
            let s = self.addr_of(src, T5)?;
            self.copy_mem(s, d, size);
        } else {
            self.pointer_in(src, T5)?;
            self.pointer_in(dest, T4)?;
            self.copy_bytes(T5, T4, size);
        }
        Ok(())
    }

    pub(super) fn gep(&mut self, dest: Value, base: Value, offset: &Operand) -> Result<(), BackendError> {
        if self.layout.home(dest).is_address() {
            return Ok(()); // recomputed where used
        }
        let off_ty = self.types.of_operand(offset);
        let off_ty = if off_ty.is_int_or_ptr() && !off_ty.is_128() {
            off_ty
        } else {
            IrType::I64
        };
        let b = self.gpr_operand(&Operand::Value(base), IrType::Ptr, Some(false), T0)?;
        let d = self.dest_gpr(dest, T0);
        match offset.as_const() {
            Some(c) => {
                let k = Self::const_i64(&c, off_ty, off_ty.is_signed());
                if k == 0 && b == ZERO {
                    self.li(d, 0);
                } else {
                    self.add_imm(d, b, k);
                }
            }
            None => {
                let o = self.gpr_operand(offset, off_ty, Some(off_ty.is_signed()), T1)?;
                emit!(self, "\tadd\t{d}, {b}, {o}");
            }
        }
        self.store(d, IrType::Ptr, dest)
    }

    pub(super) fn global_addr(&mut self, dest: Value, name: &str) -> Result<(), BackendError> {
        if self.layout.home(dest).is_address() {
            return Ok(()); // recomputed where used
        }
        self.symbol_address(name, 0, T0);
        self.store(T0, IrType::Ptr, dest)
    }

    pub(super) fn dyn_alloca(&mut self, dest: Value, size: &Operand, align: usize) -> Result<(), BackendError> {
        let ty = self.types.of_operand(size);
        let ty = if ty.is_int_or_ptr() && !ty.is_128() {
            ty
        } else {
            IrType::U64
        };
        if align > 16 && (!align.is_power_of_two() || align > 1 << 16) {
            return Err(if align.is_power_of_two() {
                self.unsupported(format!("alignment {align} is larger than 65536"))
            } else {
                self.internal(format!("dynalloca alignment {align}"))
            });
        }
        self.load_int(size, ty, false, T0)?;
        emit!(self, "\taddi\tt0, t0, 15");
        emit!(self, "\tandi\tt0, t0, -16");
        emit!(self, "\tsub\tsp, sp, t0");
        if align > 16 {
            self.li(T1, -(align as i64));
            emit!(self, "\tand\tsp, sp, t1");
        }
        emit!(self, "\tmv\tt0, sp");
        self.store(T0, IrType::Ptr, dest)
    }

    /// The address of an atomic object in `t5`.
    fn atomic_address(&mut self, ptr: Value) -> Result<(), BackendError> {
        self.pointer_in(ptr, T5)
    }

    pub(super) fn atomic_load(
        &mut self,
        dest: Value,
        ptr: Value,
        ty: IrType,
        ordering: AtomicOrdering,
    ) -> Result<(), BackendError> {
        let size = self.atomic_size(ty)?;
        self.atomic_address(ptr)?;
        if ordering == AtomicOrdering::SeqCst {
            emit!(self, "\tfence\trw, rw");
        }
        self.load_mem(Mem::new(T5, 0), size, false, T0);
        if ordering != AtomicOrdering::Relaxed {
            emit!(self, "\tfence\tr, rw");
        }
        self.store(T0, ty, dest)
    }

    pub(super) fn atomic_store(
        &mut self,
        ptr: Value,
        val: &Operand,
        ordering: AtomicOrdering,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let size = self.atomic_size(ty)?;
        self.load_int(val, ty, false, T0)?;
        self.atomic_address(ptr)?;
        if ordering != AtomicOrdering::Relaxed {
            emit!(self, "\tfence\trw, w");
        }
        self.store_mem(T0, size, Mem::new(T5, 0));
        if ordering == AtomicOrdering::SeqCst {
            emit!(self, "\tfence\trw, rw");
        }
        Ok(())
    }

    /// For a 1- or 2-byte object at `t5`: `t5` = the aligned word, `t3` =
    /// the bit shift of the object in it, `t4` = the object's mask there.
    fn subword_setup(&mut self, size: usize) {
        emit!(self, "\tandi\tt3, t5, 3");
        emit!(self, "\tslli\tt3, t3, 3");
        emit!(self, "\tandi\tt5, t5, -4");
        self.li(T4, if size == 1 { 0xff } else { 0xffff });
        emit!(self, "\tsll\tt4, t4, t3");
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
        self.load_int(val, ty, false, T1)?;
        if op == AtomicRmwOp::TestAndSet {
            self.li(T1, 1);
        }
        self.atomic_address(ptr)?;
        if size < 4 {
            if ty.is_float() {
                return Err(self.unsupported(format!("atomic {} on {ty}", op.name())));
            }
            self.subword_setup(size);
            emit!(self, "\tsll\tt1, t1, t3");
            emit!(self, "\tand\tt1, t1, t4");
            let again = self.cx.labels.fresh();
            emit!(self, ".Ltmp{again}:");
            emit!(self, "\tlr.w.aqrl\tt0, (t5)");
            match op {
                AtomicRmwOp::Add => emit!(self, "\tadd\tt2, t0, t1"),
                AtomicRmwOp::Sub => emit!(self, "\tsub\tt2, t0, t1"),
                AtomicRmwOp::And => emit!(self, "\tand\tt2, t0, t1"),
                AtomicRmwOp::Or => emit!(self, "\tor\tt2, t0, t1"),
                AtomicRmwOp::Xor => emit!(self, "\txor\tt2, t0, t1"),
                AtomicRmwOp::Nand => {
                    emit!(self, "\tand\tt2, t0, t1");
                    emit!(self, "\tnot\tt2, t2");
                }
                AtomicRmwOp::Xchg | AtomicRmwOp::TestAndSet => emit!(self, "\tmv\tt2, t1"),
            }
            // new = old ^ ((tmp ^ old) & mask): only the object's bytes change.
            emit!(self, "\txor\tt2, t2, t0");
            emit!(self, "\tand\tt2, t2, t4");
            emit!(self, "\txor\tt2, t2, t0");
            emit!(self, "\tsc.w.aqrl\ta0, t2, (t5)");
            emit!(self, "\tbnez\ta0, .Ltmp{again}");
            emit!(self, "\tsrl\tt0, t0, t3");
            return self.store(T0, ty, dest);
        }
        let w = if size == 4 { "w" } else { "d" };
        if ty.is_float() {
            let (f, mv_in, mv_out) = if size == 4 {
                ("s", "fmv.w.x", "fmv.x.w")
            } else {
                ("d", "fmv.d.x", "fmv.x.d")
            };
            let mn = match op {
                AtomicRmwOp::Add => "fadd",
                AtomicRmwOp::Sub => "fsub",
                AtomicRmwOp::Xchg => "",
                _ => return Err(self.unsupported(format!("atomic {} on {ty}", op.name()))),
            };
            let again = self.cx.labels.fresh();
            emit!(self, "\t{mv_in}\tft1, t1");
            emit!(self, ".Ltmp{again}:");
            emit!(self, "\tlr.{w}.aqrl\tt0, (t5)");
            if mn.is_empty() {
                emit!(self, "\tmv\tt2, t1");
            } else {
                emit!(self, "\t{mv_in}\tft0, t0");
                emit!(self, "\t{mn}.{f}\tft0, ft0, ft1");
                emit!(self, "\t{mv_out}\tt2, ft0");
            }
            emit!(self, "\tsc.{w}.aqrl\ta0, t2, (t5)");
            emit!(self, "\tbnez\ta0, .Ltmp{again}");
            return self.store(T0, ty, dest);
        }
        match op {
            AtomicRmwOp::Nand => {
                let again = self.cx.labels.fresh();
                emit!(self, ".Ltmp{again}:");
                emit!(self, "\tlr.{w}.aqrl\tt0, (t5)");
                emit!(self, "\tand\tt2, t0, t1");
                emit!(self, "\tnot\tt2, t2");
                emit!(self, "\tsc.{w}.aqrl\ta0, t2, (t5)");
                emit!(self, "\tbnez\ta0, .Ltmp{again}");
            }
            _ => {
                let amo = match op {
                    AtomicRmwOp::Add => "amoadd",
                    AtomicRmwOp::Sub => {
                        emit!(self, "\tneg\tt1, t1");
                        "amoadd"
                    }
                    AtomicRmwOp::And => "amoand",
                    AtomicRmwOp::Or => "amoor",
                    AtomicRmwOp::Xor => "amoxor",
                    _ => "amoswap",
                };
                emit!(self, "\t{amo}.{w}.aqrl\tt0, t1, (t5)");
            }
        }
        self.store(T0, ty, dest)
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
        // lr.w sign-extends, so a 32-bit expected value is compared sign-extended.
        self.load_int(expected, ty, size == 4, T1)?;
        self.load_int(desired, ty, false, T2)?;
        self.atomic_address(ptr)?;
        let (again, fail) = (self.cx.labels.fresh(), self.cx.labels.fresh());
        if size < 4 {
            self.subword_setup(size);
            emit!(self, "\tsll\tt1, t1, t3");
            emit!(self, "\tand\tt1, t1, t4");
            emit!(self, "\tsll\tt2, t2, t3");
            emit!(self, "\tand\tt2, t2, t4");
            emit!(self, ".Ltmp{again}:");
            emit!(self, "\tlr.w.aqrl\tt0, (t5)");
            emit!(self, "\tand\ta1, t0, t4");
            emit!(self, "\tbne\ta1, t1, .Ltmp{fail}");
            emit!(self, "\tnot\ta1, t4");
            emit!(self, "\tand\ta1, t0, a1");
            emit!(self, "\tor\ta1, a1, t2");
            emit!(self, "\tsc.w.aqrl\ta0, a1, (t5)");
            emit!(self, "\tbnez\ta0, .Ltmp{again}");
            emit!(self, ".Ltmp{fail}:");
            if returns_bool {
                emit!(self, "\tand\tt0, t0, t4");
                emit!(self, "\txor\tt0, t0, t1");
                emit!(self, "\tseqz\tt0, t0");
                return self.store(T0, IrType::I8, dest);
            }
            emit!(self, "\tsrl\tt0, t0, t3");
            return self.store(T0, ty, dest);
        }
        let w = if size == 4 { "w" } else { "d" };
        emit!(self, ".Ltmp{again}:");
        emit!(self, "\tlr.{w}.aqrl\tt0, (t5)");
        emit!(self, "\tbne\tt0, t1, .Ltmp{fail}");
        emit!(self, "\tsc.{w}.aqrl\ta0, t2, (t5)");
        emit!(self, "\tbnez\ta0, .Ltmp{again}");
        emit!(self, ".Ltmp{fail}:");
        if returns_bool {
            emit!(self, "\txor\tt0, t0, t1");
            emit!(self, "\tseqz\tt0, t0");
            return self.store(T0, IrType::I8, dest);
        }
        self.store(T0, ty, dest)
    }
}
