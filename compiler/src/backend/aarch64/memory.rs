//! Loads, stores, `memcpy`, address arithmetic, global addresses, the
//! dynamic stack (`dynalloca`, `stacksave`/`stackrestore`) and atomics.
//!
//! An access through an `alloca`'s own value addresses the frame object
//! directly (`[x29, #16 + off]`); any other pointer is loaded into `x16`.
//! Global addresses are `adrp` + `add :lo12:` for symbols defined in the
//! module and a GOT load (`:got:` / `:got_lo12:`) otherwise, so that both
//! static and PIE links work; a scalar load or store at a suitably aligned
//! global of the module folds the `:lo12:` part into its displacement; thread-locals use the initial-exec sequence
//! (`tpidr_el0` + `:gottprel:`), which the linker relaxes in executables.
//!
//! Atomics follow the Arm mapping of the C11 model without requiring the
//! LSE extension: loads are `ldar` (acquire or stronger) or `ldr`, stores
//! `stlr` (release or stronger) or `str`, read-modify-writes and
//! compare-exchange are `ldaxr`/`stlxr` retry loops (acquire-release, which
//! also gives sequential consistency between such operations), fences are
//! `dmb ish` (`dmb ishld` for acquire).

use super::regs::{Mem, Xr, PTR};
use super::{emit, FnEmitter, HomeReg};
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
        if let Some((op, reg)) = self.scalar_access(dest, ty, true) {
            if self.global_access(ptr, ty.size().max(1), op, &reg) {
                return Ok(());
            }
        }
        let src = self.addr_of(ptr, PTR)?;
        match self.reg_of(dest) {
            // Straight into the home register (an integer zero-extended).
            Some(HomeReg::X(x)) if ty.size() <= 8 => {
                self.load_mem(src, ty.size().max(1), false, x);
                return Ok(());
            }
            Some(HomeReg::V(v)) if ty.is_float() && ty.size() <= 8 => {
                self.load_fp_mem(src, ty.size(), v);
                return Ok(());
            }
            Some(_) if ty.size() <= 8 => {
                let size = ty.size().max(1);
                self.load_mem(src, size, false, Xr(9));
                return self.store_sized(Xr(9), size, dest);
            }
            _ => {}
        }
        let m = self.slot(dest)?;
        if ty.size() > 8 {
            self.load_mem(src, 8, false, Xr(9));
            self.load_mem(src.at(8), 8, false, Xr(10));
            self.store_mem(Xr(9), 8, m);
            self.store_mem(Xr(10), 8, m.at(8));
        } else {
            let size = ty.size().max(1);
            self.load_mem(src, size, false, Xr(9));
            self.store_mem(Xr(9), size, m);
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
        if let Some((op, reg)) = val.as_value().and_then(|v| self.scalar_access(v, ty, false)) {
            if self.global_access(ptr, ty.size().max(1), op, &reg) {
                return Ok(());
            }
        }
        let dst = self.addr_of(ptr, PTR)?;
        self.store_operand(val, ty, dst)
    }

    /// The instruction and register of a load (`load`) or store of `v`, a
    /// scalar of type `ty` (at most 8 bytes) in a home register: `ldrb`,
    /// `ldrh`, `ldr` of a `w`/`x` register, or `ldr` of an `s`/`d` one for a
    /// float (`str...` for a store); `None` for a value in memory.
    fn scalar_access(&self, v: Value, ty: IrType, load: bool) -> Option<(&'static str, String)> {
        let size = ty.size().max(1);
        if size > 8 {
            return None;
        }
        let (b, h, w) = if load {
            ("ldrb", "ldrh", "ldr")
        } else {
            ("strb", "strh", "str")
        };
        match self.reg_of(v)? {
            HomeReg::X(x) => Some((
                match size {
                    1 => b,
                    2 => h,
                    _ => w,
                },
                if size == 8 { x.x() } else { x.w() }.to_string(),
            )),
            HomeReg::V(r) if ty.is_float() => Some((w, r.sized(Self::fp_size(size)))),
            HomeReg::V(_) => None,
        }
    }

    /// A load or store (`op reg`) of `size` bytes at `ptr`, when `ptr` is a
    /// global this module surely defines (`ModuleContext::global_align`)
    /// plus an offset, and the symbol's alignment and the offset are
    /// multiples of `size`: `adrp x16, g+off` and the access with the low 12
    /// bits as its scaled displacement (`[x16, :lo12:g+off]`), one
    /// instruction less than materializing the address. Anything else (an
    /// unaligned offset, a weak or external symbol): `false`, nothing emitted.
    fn global_access(&mut self, ptr: Value, size: usize, op: &str, reg: &str) -> bool {
        let Home::SymbolAddr { sym, offset } = self.layout.home(ptr) else {
            return false;
        };
        let name = self.layout.symbol(sym).clone();
        let Some(&align) = self.cx.global_align.get(&*name) else {
            return false;
        };
        if align % size != 0 || offset.rem_euclid(size as i64) != 0 {
            return false;
        }
        let sym = crate::backend::symbol(&name);
        let target = if offset == 0 { sym } else { format!("{sym}{offset:+}") };
        emit!(self, "\tadrp\tx16, {target}");
        // The injected bug: the low part names the symbol without its offset.
        let low = if crate::inject::enabled(crate::inject::Bug::Lo12DropsOffset) {
            crate::backend::symbol(&name)
        } else {
            target
        };
        emit!(self, "\t{op}\t{reg}, [x16, :lo12:{low}]");
        true
    }

    pub(super) fn memcpy(&mut self, dest: Value, src: Value, size: usize) -> Result<(), BackendError> {
        if size == 0 {
            return Ok(());
        }
        if size <= 64 {
            let d = self.addr_of(dest, Xr(13))?;
            let s = self.addr_of(src, PTR)?;
            self.copy_mem(s, d, size);
        } else {
            self.pointer_into(src, PTR)?;
            self.pointer_into(dest, Xr(13))?;
            self.copy_block(PTR, Xr(13), size);
        }
        Ok(())
    }

    pub(super) fn gep(&mut self, dest: Value, base: Value, offset: &Operand) -> Result<(), BackendError> {
        if self.layout.home(dest).is_address() {
            return Ok(()); // rematerialized where used
        }
        let off_ty = self.types.of_operand(offset);
        let off_ty = if off_ty.is_int_or_ptr() { off_ty } else { IrType::I64 };
        let konst = offset
            .as_const()
            .map(|c| Self::const_i64(&c, off_ty, off_ty.is_signed()));
        let d = self.int_dest(dest, Xr(9));
        match (self.layout.home(base), konst) {
            (Home::Alloca { offset: o, align }, Some(k)) if align <= 16 => {
                let a = self.area(o).at(k);
                self.add_imm(d, a.base, a.disp);
            }
            (_, Some(k)) => {
                let b = self.int_operand(&Operand::Value(base), IrType::Ptr, false, Xr(9), true)?;
                self.add_imm(d, b, k);
            }
            (_, None) => {
                let b = self.int_operand(&Operand::Value(base), IrType::Ptr, false, Xr(9), true)?;
                let o = self.int_operand(offset, off_ty, off_ty.is_signed(), Xr(10), false)?;
                emit!(self, "\tadd\t{}, {}, {}", d.x(), b.x(), o.x());
            }
        }
        self.store(d, IrType::Ptr, dest)
    }

    /// `r = &name + offset`: `adrp`/`add :lo12:` for a symbol defined in
    /// the module, a GOT load for any other, the initial-exec sequence for a
    /// thread-local.
    pub(super) fn symbol_address(&mut self, name: &str, offset: i64, r: Xr) -> Result<(), BackendError> {
        let sym = crate::backend::symbol(name);
        let x = r.x();
        if self.cx.thread_local.contains(name) {
            emit!(self, "\tmrs\t{x}, tpidr_el0");
            emit!(self, "\tadrp\tx17, :gottprel:{sym}");
            emit!(self, "\tldr\tx17, [x17, :gottprel_lo12:{sym}]");
            emit!(self, "\tadd\t{x}, {x}, x17");
            self.add_imm(r, r, offset);
        } else if self.cx.is_defined(name) || name.starts_with(".L") {
            let target = if offset == 0 { sym } else { format!("{sym}{offset:+}") };
            emit!(self, "\tadrp\t{x}, {target}");
            emit!(self, "\tadd\t{x}, {x}, :lo12:{target}");
        } else {
            emit!(self, "\tadrp\t{x}, :got:{sym}");
            emit!(self, "\tldr\t{x}, [{x}, :got_lo12:{sym}]");
            self.add_imm(r, r, offset);
        }
        Ok(())
    }

    /// `globaladdr`: nothing when the value is rematerialized where used.
    pub(super) fn global_addr(&mut self, dest: Value, name: &str) -> Result<(), BackendError> {
        if self.layout.home(dest).is_address() {
            return Ok(());
        }
        self.symbol_address(name, 0, Xr(9))?;
        self.store(Xr(9), IrType::Ptr, dest)
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
        self.load_int(size, ty, false, Xr(9))?;
        emit!(self, "\tadd\tx9, x9, #15");
        emit!(self, "\tand\tx9, x9, #-16");
        emit!(self, "\tsub\tsp, sp, x9");
        if align > 16 {
            emit!(self, "\tmov\tx9, sp");
            emit!(self, "\tand\tx9, x9, #{}", -(align as i64));
            emit!(self, "\tmov\tsp, x9");
        }
        emit!(self, "\tmov\tx9, sp");
        self.store(Xr(9), IrType::Ptr, dest)
    }

    /// The access-size suffix of exclusive and acquire/release instructions.
    fn excl_suffix(size: usize) -> &'static str {
        match size {
            1 => "b",
            2 => "h",
            _ => "",
        }
    }

    /// The address of an atomic's object in `x16` (exclusive and
    /// acquire/release instructions take no displacement).
    fn atomic_address(&mut self, ptr: Value) -> Result<(), BackendError> {
        let m = self.addr_of(ptr, PTR)?;
        if m != Mem::new(PTR, 0) {
            self.add_imm(PTR, m.base, m.disp);
        }
        Ok(())
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
        let s = Self::excl_suffix(size);
        let r = Xr(9).sized(size);
        if ordering == AtomicOrdering::Relaxed {
            self.load_mem(Mem::new(PTR, 0), size, false, Xr(9));
        } else {
            emit!(self, "\tldar{s}\t{r}, [x16]");
        }
        self.store(Xr(9), ty, dest)
    }

    pub(super) fn atomic_store(
        &mut self,
        ptr: Value,
        val: &Operand,
        ordering: AtomicOrdering,
        ty: IrType,
    ) -> Result<(), BackendError> {
        let size = self.atomic_size(ty)?;
        self.load_int(val, ty, false, Xr(9))?;
        self.atomic_address(ptr)?;
        let s = Self::excl_suffix(size);
        let r = Xr(9).sized(size);
        if ordering == AtomicOrdering::Relaxed {
            self.store_mem(Xr(9), size, Mem::new(PTR, 0));
        } else {
            emit!(self, "\tstlr{s}\t{r}, [x16]");
        }
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
        let s = Self::excl_suffix(size);
        self.load_int(val, ty, false, Xr(11))?;
        self.atomic_address(ptr)?;
        let (old, new) = (Xr(9).sized(size), Xr(10).sized(size));
        let again = self.cx.labels.fresh();
        emit!(self, ".Ltmp{again}:");
        emit!(self, "\tldaxr{s}\t{old}, [x16]");
        match op {
            AtomicRmwOp::Add | AtomicRmwOp::Sub if ty.is_float() => {
                let f = if ty == IrType::F32 {
                    ("s16", "s17", "w")
                } else {
                    ("d16", "d17", "x")
                };
                emit!(self, "\tfmov\t{}, {}9", f.0, f.2);
                emit!(self, "\tfmov\t{}, {}11", f.1, f.2);
                let mn = if op == AtomicRmwOp::Add { "fadd" } else { "fsub" };
                emit!(self, "\t{mn}\t{}, {}, {}", f.0, f.0, f.1);
                emit!(self, "\tfmov\t{}10, {}", f.2, f.0);
            }
            _ if ty.is_float() => return Err(self.unsupported(format!("atomic {} on {ty}", op.name()))),
            AtomicRmwOp::Add => emit!(self, "\tadd\tx10, x9, x11"),
            AtomicRmwOp::Sub => emit!(self, "\tsub\tx10, x9, x11"),
            AtomicRmwOp::And => emit!(self, "\tand\tx10, x9, x11"),
            AtomicRmwOp::Or => emit!(self, "\torr\tx10, x9, x11"),
            AtomicRmwOp::Xor => emit!(self, "\teor\tx10, x9, x11"),
            AtomicRmwOp::Nand => {
                emit!(self, "\tand\tx10, x9, x11");
                emit!(self, "\tmvn\tx10, x10");
            }
            AtomicRmwOp::Xchg => emit!(self, "\tmov\tx10, x11"),
            AtomicRmwOp::TestAndSet => emit!(self, "\tmov\tx10, #1"),
        }
        emit!(self, "\tstlxr{s}\tw12, {new}, [x16]");
        emit!(self, "\tcbnz\tw12, .Ltmp{again}");
        self.store(Xr(9), ty, dest)
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
        let s = Self::excl_suffix(size);
        // Zero-extended, as the exclusive load gives the old value.
        self.load_int(expected, ty, false, Xr(10))?;
        self.load_int(desired, ty, false, Xr(11))?;
        self.atomic_address(ptr)?;
        let (again, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
        let w = if size == 8 { "x" } else { "w" };
        emit!(self, ".Ltmp{again}:");
        emit!(self, "\tldaxr{s}\t{w}9, [x16]");
        emit!(self, "\tcmp\t{w}9, {w}10");
        emit!(self, "\tb.ne\t.Ltmp{done}");
        emit!(self, "\tstlxr{s}\tw12, {w}11, [x16]");
        emit!(self, "\tcbnz\tw12, .Ltmp{again}");
        emit!(self, ".Ltmp{done}:");
        if returns_bool {
            // The flags still hold the comparison: equal means stored.
            emit!(self, "\tcset\tw9, eq");
            self.store_sized(Xr(9), 1, dest)?;
            // A failed compare leaves the exclusive monitor set: clear it.
            emit!(self, "\tclrex");
        } else {
            emit!(self, "\tclrex");
            self.store(Xr(9), ty, dest)?;
        }
        Ok(())
    }

    pub(super) fn fence(&mut self, ordering: AtomicOrdering) {
        match ordering {
            AtomicOrdering::Relaxed => {}
            AtomicOrdering::Acquire => emit!(self, "\tdmb\tishld"),
            _ => emit!(self, "\tdmb\tish"),
        }
    }
}
