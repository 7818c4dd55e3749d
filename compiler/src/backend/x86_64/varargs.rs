//! `va_start`, `va_arg`, `va_copy` in variadic definitions (psABI 3.5.7).
//!
//! `va_list` is `struct { u32 gp_offset; u32 fp_offset; void
//! *overflow_arg_area; void *reg_save_area; }`. The prologue saved `rdi..r9`
//! at offsets 0..48 of the register save area and `xmm0..7` at 48..176;
//! `va_start` points the offsets past the named arguments and the overflow
//! area just past the named stack arguments. `va_arg` takes the next
//! register slot while enough remain for the whole argument (two for
//! `__int128`, a struct's INTEGER and SSE eightbytes together), else the
//! next overflow slot (16-aligned for 16-byte scalars and for a struct of
//! one `long double`); `long double` and MEMORY-class structs always come
//! from the overflow area. A struct aligned to 16 or more is read from a
//! 16-aligned overflow slot; `vaargstruct` carries no alignment, so it is
//! the alignment of its destination, the temporary lowering made for the
//! type.

use super::regs::{Gpr, Mem};
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::types::{AddressSpace, EightbyteClass, Hfa, IrType};
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    pub(super) fn va_start(&mut self, va_list: Value) -> Result<(), BackendError> {
        let Some(rsa) = self.rsa else {
            return Err(self.internal("va_start in a function that is not variadic"));
        };
        let gp = 8 * self.own.gprs_used as u32;
        let fp = 48 + 16 * self.own.sses_used as u32;
        let overflow = 16 + self.own.stack_bytes;
        let p = self.addr_of(va_list, AddressSpace::Default, Gpr::R11)?;
        emit!(self, "\tmovl\t${gp}, {p}");
        emit!(self, "\tmovl\t${fp}, {}", p.at(4));
        emit!(self, "\tleaq\t{overflow}(%rbp), %rax");
        emit!(self, "\tmovq\t%rax, {}", p.at(8));
        let r = self.area(rsa);
        emit!(self, "\tleaq\t{r}, %rax");
        emit!(self, "\tmovq\t%rax, {}", p.at(16));
        Ok(())
    }

    pub(super) fn va_copy(&mut self, dest: Value, src: Value) -> Result<(), BackendError> {
        let d = self.addr_of(dest, AddressSpace::Default, Gpr::R10)?;
        let s = self.addr_of(src, AddressSpace::Default, Gpr::R11)?;
        self.copy_mem(&s, &d, 24);
        Ok(())
    }

    /// Leaves the address of the next argument in `%rax` (`va_list` in `%rcx`).
    fn va_next(&mut self, fp: bool, regs: u32, size: u32, align16: bool, can_use_regs: bool) {
        let (stack, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
        if can_use_regs {
            let (off, limit, step) = if fp {
                (4, 176 - 16 * regs, 16 * regs)
            } else {
                (0, 48 - 8 * regs, 8 * regs)
            };
            emit!(self, "\tmovl\t{off}(%rcx), %eax");
            emit!(self, "\tcmpl\t${limit}, %eax");
            emit!(self, "\tja\t.Ltmp{stack}");
            emit!(self, "\tleal\t{step}(%rax), %edx");
            emit!(self, "\tmovl\t%edx, {off}(%rcx)");
            emit!(self, "\taddq\t16(%rcx), %rax");
            emit!(self, "\tjmp\t.Ltmp{done}");
        }
        emit!(self, ".Ltmp{stack}:");
        emit!(self, "\tmovq\t8(%rcx), %rax");
        if align16 {
            emit!(self, "\taddq\t$15, %rax");
            emit!(self, "\tandq\t$-16, %rax");
        }
        emit!(self, "\tleaq\t{}(%rax), %rdx", size.div_ceil(8) * 8);
        emit!(self, "\tmovq\t%rdx, 8(%rcx)");
        emit!(self, ".Ltmp{done}:");
    }

    pub(super) fn va_arg(&mut self, dest: Value, va_list: Value, ty: IrType) -> Result<(), BackendError> {
        self.load_int(&Operand::Value(va_list), IrType::Ptr, false, Gpr::Rcx)?;
        match ty {
            IrType::F32 | IrType::F64 => self.va_next(true, 1, 8, false, true),
            IrType::F128 => self.va_next(false, 0, 16, true, false),
            IrType::I128 | IrType::U128 => self.va_next(false, 2, 16, true, true),
            IrType::Void => return Err(self.internal("va_arg of void")),
            _ => self.va_next(false, 1, 8, false, true),
        }
        let src = Mem::new(Gpr::Rax, 0);
        if ty.size() > 8 {
            let m = self.slot(dest)?;
            emit!(self, "\tmovq\t8(%rax), %rdx");
            emit!(self, "\tmovq\t(%rax), %rax");
            emit!(self, "\tmovq\t%rax, {m}");
            emit!(self, "\tmovq\t%rdx, {}", m.at(8));
        } else {
            self.load_mem(&src, ty.size(), false, Gpr::Rax);
            self.store_sized(Gpr::Rax, ty.size(), dest)?;
        }
        Ok(())
    }

    pub(super) fn va_arg_struct(
        &mut self,
        dest: Value,
        va_list: Value,
        size: usize,
        classes: &[EightbyteClass],
        _hfa: Option<Hfa>,
    ) -> Result<(), BackendError> {
        self.load_int(&Operand::Value(va_list), IrType::Ptr, false, Gpr::Rcx)?;
        self.load_int(&Operand::Value(dest), IrType::Ptr, false, Gpr::R10)?;
        let size32 = size as u32;
        let in_regs = size > 0 && size <= 16 && !classes.is_empty() && !classes.contains(&EightbyteClass::Memory);
        let (stack, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
        if in_regs {
            let nint = classes.iter().filter(|c| **c == EightbyteClass::Integer).count() as u32;
            let nsse = classes.iter().filter(|c| **c == EightbyteClass::Sse).count() as u32;
            emit!(self, "\tmovl\t(%rcx), %eax");
            emit!(self, "\tmovl\t4(%rcx), %edx");
            if nint > 0 {
                emit!(self, "\tcmpl\t${}, %eax", 48 - 8 * nint);
                emit!(self, "\tja\t.Ltmp{stack}");
            }
            if nsse > 0 {
                emit!(self, "\tcmpl\t${}, %edx", 176 - 16 * nsse);
                emit!(self, "\tja\t.Ltmp{stack}");
            }
            emit!(self, "\tmovq\t16(%rcx), %r11");
            let (mut gi, mut si) = (0i64, 0i64);
            for (k, c) in classes.iter().enumerate() {
                let offset = 8 * k as u32;
                if offset >= size32 {
                    break;
                }
                let part = (size32 - offset).min(8);
                match c {
                    EightbyteClass::Integer => {
                        emit!(self, "\tmovq\t{}(%r11,%rax), %r8", 8 * gi);
                        gi += 1;
                    }
                    EightbyteClass::Sse => {
                        emit!(self, "\tmovq\t{}(%r11,%rdx), %r8", 16 * si);
                        si += 1;
                    }
                    _ => continue,
                }
                self.store_exact(Gpr::R8, part, &Mem::new(Gpr::R10, offset as i64));
            }
            if nint > 0 {
                emit!(self, "\taddl\t${}, (%rcx)", 8 * nint);
            }
            if nsse > 0 {
                emit!(self, "\taddl\t${}, 4(%rcx)", 16 * nsse);
            }
            emit!(self, "\tjmp\t.Ltmp{done}");
        }
        emit!(self, ".Ltmp{stack}:");
        emit!(self, "\tmovq\t8(%rcx), %rsi");
        // psABI 3.5.7, va_arg step 7: a type aligned to more than 8 bytes
        // (a lone long double, a struct with an `aligned(16)` or `__int128`
        // member, ...) sits 16-aligned in the overflow area, as the caller
        // placed it. `vaargstruct` carries no alignment, but its destination
        // is the temporary lowering made with the type's alignment.
        let over_aligned = matches!(self.layout.home(dest), Home::Alloca { align, .. } if align >= 16);
        if over_aligned || classes == [EightbyteClass::Memory, EightbyteClass::NoClass] {
            emit!(self, "\taddq\t$15, %rsi");
            emit!(self, "\tandq\t$-16, %rsi");
        }
        emit!(self, "\tleaq\t{}(%rsi), %rdx", size32.div_ceil(8) * 8);
        emit!(self, "\tmovq\t%rdx, 8(%rcx)");
        self.copy_mem(&Mem::new(Gpr::Rsi, 0), &Mem::new(Gpr::R10, 0), size);
        emit!(self, ".Ltmp{done}:");
        Ok(())
    }
}
