//! `va_start`, `va_arg`, `va_copy` in variadic definitions (RISC-V psABI,
//! "va_list, va_start, and va_arg").
//!
//! `va_list` is a `void *` walking one contiguous area: the prologue saved
//! `a0..a7` in the 64 bytes just below the incoming stack arguments, so the
//! variadic arguments passed in registers and those passed on the stack
//! follow each other in memory. `va_start` points it past the named
//! arguments (their registers, then their stack bytes). Every argument takes
//! 8-byte slots; a 16-aligned one of at most 16 bytes (`__int128`,
//! `long double`, a 16-aligned struct) starts at a 16-aligned address,
//! which is the even register pair the caller used; a struct larger than
//! 16 bytes is a pointer to the caller's copy.

use super::regs::{Mem, T0, T1, T4, T5};
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{Operand, Value};
use crate::ir::types::{EightbyteClass, Hfa, IrType};
use std::fmt::Write as _;

impl FnEmitter<'_, '_> {
    pub(super) fn va_start(&mut self, va_list: Value) -> Result<(), BackendError> {
        if !self.f.is_variadic {
            return Err(self.internal("va_start in a function that is not variadic"));
        }
        let first = -self.vararg_save + 8 * self.own.gprs_used as i64 + self.own.stack_bytes as i64;
        self.add_imm(T0, super::regs::S0, first);
        let p = self.addr_of(va_list, T5)?;
        self.store_mem(T0, 8, p);
        Ok(())
    }

    pub(super) fn va_copy(&mut self, dest: Value, src: Value) -> Result<(), BackendError> {
        let d = self.addr_of(dest, T4)?;
        let s = self.addr_of(src, T5)?;
        self.copy_mem(s, d, 8);
        Ok(())
    }

    /// `t1` = the next argument's address (aligned to `align`), and the
    /// cursor at `t5` advanced by `size` rounded up to 8.
    fn va_next(&mut self, va_list: Value, size: usize, align: usize) -> Result<(), BackendError> {
        self.load_ptr(&Operand::Value(va_list), T5)?;
        self.load_mem(Mem::new(T5, 0), 8, false, T1);
        if align > 8 {
            emit!(self, "\taddi\tt1, t1, {}", align - 1);
            emit!(self, "\tandi\tt1, t1, -{align}");
        }
        emit!(self, "\taddi\tt0, t1, {}", size.div_ceil(8) * 8);
        self.store_mem(T0, 8, Mem::new(T5, 0));
        Ok(())
    }

    pub(super) fn va_arg(&mut self, dest: Value, va_list: Value, ty: IrType) -> Result<(), BackendError> {
        if ty == IrType::Void {
            return Err(self.internal("va_arg of void"));
        }
        let size = ty.size().max(1);
        self.va_next(va_list, size.max(8), if size > 8 { 16 } else { 8 })?;
        self.write_mem(Mem::new(T1, 0), if size > 8 { 16 } else { size }, dest)
    }

    /// `va_arg` of a struct (the x86-64 and AArch64 classifications mean nothing here).
    pub(super) fn va_arg_struct(
        &mut self,
        dest: Value,
        va_list: Value,
        size: usize,
        _classes: &[EightbyteClass],
        _hfa: Option<Hfa>,
    ) -> Result<(), BackendError> {
        if size > 16 {
            // The slot holds the address of the caller's copy.
            self.va_next(va_list, 8, 8)?;
            self.load_mem(Mem::new(T1, 0), 8, false, T4);
        } else {
            // The alignment is the destination buffer's (lowering makes it the struct's).
            let align = match self.layout.home(dest) {
                Home::Alloca { align, .. } if align >= 16 && size > 8 => 16,
                _ => 8,
            };
            self.va_next(va_list, size, align)?;
            emit!(self, "\tmv\tt4, t1");
        }
        self.load_ptr(&Operand::Value(dest), T5)?;
        self.copy_bytes(T4, T5, size);
        Ok(())
    }
}
