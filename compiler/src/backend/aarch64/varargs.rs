//! `va_start`, `va_arg`, `va_copy` in variadic definitions (AAPCS64 Appendix
//! "Variable argument lists", the Linux `va_list`).
//!
//! `va_list` is `struct { void *__stack; void *__gr_top; void *__vr_top;
//! int __gr_offs; int __vr_offs; }` (32 bytes). The prologue saved `x0..x7`
//! in a 64-byte general register save area and `q0..q7` in a 128-byte
//! vector register save area; `__gr_top`/`__vr_top` point just past them and
//! the offsets are negative while registers remain: `__gr_offs = -8 * (8 -
//! NGRN)`, `__vr_offs = -16 * (8 - NSRN)` after the named parameters;
//! `__stack` points past the named stack arguments.
//!
//! `va_arg` of a type that travels in general registers (integers,
//! pointers, `__int128` and 16-byte aligned composites with the offset
//! rounded up to an even register, composites of at most 16 bytes, the
//! pointer to a larger composite) takes
//! `__gr_top + __gr_offs` when the offset stays <= 0 after adding the
//! registers it needs (the offset is updated either way, so that a value
//! that did not fit closes the registers, as in the standard's algorithm);
//! floating-point scalars and HFAs use the vector registers (16 bytes each,
//! an HFA's members gathered from consecutive slots); otherwise the value
//! comes from `__stack` (rounded up to 16 for 16-byte aligned types,
//! advanced by the size rounded up to 8).

use super::abi;
use super::regs::{Mem, Xr, PTR};
use super::{emit, FnEmitter};
use crate::backend::frame::Home;
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::Value;
use crate::ir::types::{EightbyteClass, Hfa, IrType};
use std::fmt::Write as _;

/// Which register save area an argument comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bank {
    Gr,
    Vr,
}

impl FnEmitter<'_, '_> {
    pub(super) fn va_start(&mut self, va_list: Value) -> Result<(), BackendError> {
        let Some(sa) = self.save_area else {
            return Err(self.internal("va_start in a function that is not variadic"));
        };
        let gr_offs = -8 * (8 - self.own.gprs_used.min(8) as i64);
        let vr_offs = -16 * (8 - self.own.fprs_used.min(8) as i64);
        let stack = self.incoming(self.own.stack_bytes);
        let gr_top = self.area(sa).at(64);
        let vr_top = self.area(sa).at(64 + 128);
        self.pointer_into(va_list, PTR)?;
        self.add_imm(Xr(9), stack.base, stack.disp);
        emit!(self, "\tstr\tx9, [x16]");
        self.add_imm(Xr(9), gr_top.base, gr_top.disp);
        emit!(self, "\tstr\tx9, [x16, #8]");
        self.add_imm(Xr(9), vr_top.base, vr_top.disp);
        emit!(self, "\tstr\tx9, [x16, #16]");
        self.mov_imm(Xr(9), gr_offs as u64);
        emit!(self, "\tstr\tw9, [x16, #24]");
        self.mov_imm(Xr(9), vr_offs as u64);
        emit!(self, "\tstr\tw9, [x16, #28]");
        Ok(())
    }

    pub(super) fn va_copy(&mut self, dest: Value, src: Value) -> Result<(), BackendError> {
        let d = self.addr_of(dest, Xr(13))?;
        let s = self.addr_of(src, PTR)?;
        self.copy_mem(s, d, 32);
        Ok(())
    }

    /// Leaves in `x9` the address of the next argument (`va_list` in `x16`):
    /// from the save area of `bank` when `regs` registers remain, else from
    /// the stack (`stack_size` bytes, 16-aligned when `align16`). With
    /// `regs == 0` the argument always comes from the stack.
    fn va_next(&mut self, bank: Bank, regs: u32, even: bool, stack_size: u32, align16: bool) {
        let (stack, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
        if regs > 0 {
            let (offs, top, step) = match bank {
                Bank::Gr => (24, 8, 8 * regs),
                Bank::Vr => (28, 16, 16 * regs),
            };
            emit!(self, "\tldrsw\tx9, [x16, #{offs}]");
            emit!(self, "\ttbz\tx9, #63, .Ltmp{stack}"); // offs >= 0: registers exhausted
            if even {
                emit!(self, "\tadd\tx9, x9, #15");
                emit!(self, "\tand\tx9, x9, #-16");
            }
            emit!(self, "\tadd\tx10, x9, #{step}");
            emit!(self, "\tstr\tw10, [x16, #{offs}]");
            emit!(self, "\tcmp\tx10, #0");
            emit!(self, "\tb.gt\t.Ltmp{stack}");
            emit!(self, "\tldr\tx10, [x16, #{top}]");
            emit!(self, "\tadd\tx9, x10, x9");
            emit!(self, "\tb\t.Ltmp{done}");
        }
        emit!(self, ".Ltmp{stack}:");
        emit!(self, "\tldr\tx9, [x16]");
        if align16 {
            emit!(self, "\tadd\tx9, x9, #15");
            emit!(self, "\tand\tx9, x9, #-16");
        }
        emit!(self, "\tadd\tx10, x9, #{}", stack_size.div_ceil(8) * 8);
        emit!(self, "\tstr\tx10, [x16]");
        emit!(self, ".Ltmp{done}:");
    }

    pub(super) fn va_arg(&mut self, dest: Value, va_list: Value, ty: IrType) -> Result<(), BackendError> {
        self.pointer_into(va_list, PTR)?;
        match ty {
            IrType::F32 | IrType::F64 => self.va_next(Bank::Vr, 1, false, 8, false),
            IrType::F128 => self.va_next(Bank::Vr, 1, false, 16, true),
            IrType::I128 | IrType::U128 => self.va_next(Bank::Gr, 2, true, 16, true),
            IrType::Void => return Err(self.internal("va_arg of void")),
            _ => self.va_next(Bank::Gr, 1, false, 8, false),
        }
        let src = Mem::new(Xr(9), 0);
        if ty.size() > 8 {
            let m = self.slot(dest)?;
            self.load_mem(src.at(8), 8, false, Xr(11));
            self.load_mem(src, 8, false, Xr(10));
            self.store_mem(Xr(10), 8, m);
            self.store_mem(Xr(11), 8, m.at(8));
        } else {
            self.load_mem(src, ty.size(), false, Xr(10));
            self.store_sized(Xr(10), ty.size(), dest)?;
        }
        Ok(())
    }

    pub(super) fn va_arg_struct(
        &mut self,
        dest: Value,
        va_list: Value,
        size: usize,
        _classes: &[EightbyteClass],
        hfa: Option<Hfa>,
    ) -> Result<(), BackendError> {
        let size32 = size as u32;
        abi::check_hfas(&[hfa]).map_err(|m| self.internal(m))?;
        if let Some(h) = hfa {
            // Members are 16 bytes apart in the vector save area, packed on the stack.
            let es = abi::hfa_member_size(h);
            let (stack, done) = (self.cx.labels.fresh(), self.cx.labels.fresh());
            self.pointer_into(va_list, PTR)?;
            self.pointer_into(dest, Xr(13))?;
            emit!(self, "\tldrsw\tx9, [x16, #28]");
            emit!(self, "\ttbz\tx9, #63, .Ltmp{stack}");
            emit!(self, "\tadd\tx10, x9, #{}", 16 * h.count as u32);
            emit!(self, "\tstr\tw10, [x16, #28]");
            emit!(self, "\tcmp\tx10, #0");
            emit!(self, "\tb.gt\t.Ltmp{stack}");
            emit!(self, "\tldr\tx10, [x16, #16]");
            emit!(self, "\tadd\tx9, x10, x9");
            for k in 0..h.count as u32 {
                self.copy_mem_via_x10(
                    Mem::new(Xr(9), 16 * k as i64),
                    Mem::new(Xr(13), (es * k) as i64),
                    es as usize,
                );
            }
            emit!(self, "\tb\t.Ltmp{done}");
            emit!(self, ".Ltmp{stack}:");
            emit!(self, "\tldr\tx9, [x16]");
            if h.base == IrType::F128 {
                emit!(self, "\tadd\tx9, x9, #15");
                emit!(self, "\tand\tx9, x9, #-16");
            }
            emit!(self, "\tadd\tx10, x9, #{}", size32.div_ceil(8) * 8);
            emit!(self, "\tstr\tx10, [x16]");
            self.copy_mem_via_x10(Mem::new(Xr(9), 0), Mem::new(Xr(13), 0), size);
            emit!(self, ".Ltmp{done}:");
            return Ok(());
        }
        if size == 0 {
            return Ok(());
        }
        self.pointer_into(va_list, PTR)?;
        if size > 16 {
            // By reference: the next general argument is a pointer to the copy.
            self.va_next(Bank::Gr, 1, false, 8, false);
            emit!(self, "\tldr\tx9, [x9]");
        } else {
            // A 16-byte aligned composite takes an even register pair or a
            // 16-aligned stack slot. VaArgStruct carries no alignment; the
            // lowering allocates the destination with the type's alignment
            // (docs/abi.md), so the destination alloca tells.
            let align16 = matches!(self.layout.home(dest), Home::Alloca { align, .. } if align >= 16);
            self.va_next(Bank::Gr, size32.div_ceil(8), align16, size32, align16);
        }
        self.pointer_into(dest, Xr(13))?;
        self.copy_mem_via_x10(Mem::new(Xr(9), 0), Mem::new(Xr(13), 0), size);
        Ok(())
    }

    /// Copies `size` bytes from `src` to `dst` through `x10` (keeps `x9`).
    fn copy_mem_via_x10(&mut self, src: Mem, dst: Mem, size: usize) {
        self.copy_mem_through(src, dst, size, Xr(10));
    }
}
