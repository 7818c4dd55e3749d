//! Calls: argument passing to interpreted functions (by-value struct copies,
//! the variadic area that `va_list`s walk), external calls recorded as
//! events with history-derived return values, and the symbolic printing of
//! pointers that keeps events stable under mem2reg.
//!
//! A `va_list` is memory: `VaStart` stores in its first 8 bytes a cursor into
//! the frame's variadic area, where every variadic argument occupies an
//! 8-byte slot (16 bytes for 16-byte types; by-value structs their size
//! rounded up to 8). `VaArg` reads at the cursor and advances it; reading
//! past the area traps `OutOfBounds`.

use super::exec::{canon, Flow, Machine, Res};
use super::memory::{decode, Memory, Place, BYVAL_SLOT, VA_SLOT};
use super::prepare::{Callee, Prepared};
use super::schedule::{event_return, mix_event};
use super::{Event, TrapKind};
use crate::ir::constants::sext;
use crate::ir::instruction::{CallInfo, Value};
use crate::ir::types::IrType;

fn round8(n: usize) -> usize {
    (n + 7) & !7
}

/// Size of a scalar's slot in the variadic area.
pub(super) fn va_slot_size(ty: IrType) -> usize {
    if ty.size() > 8 {
        16
    } else {
        8
    }
}

impl<'m> Machine<'m> {
    /// Evaluate the arguments of a call, canonical at their types.
    fn call_args(&self, info: &CallInfo) -> Res<Vec<u128>> {
        info.args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let ty = info.arg_types.get(i).copied().unwrap_or(IrType::I64);
                Ok(canon(self.opnd(a, ty)?, ty))
            })
            .collect()
    }

    pub(super) fn call(&mut self, p: &Prepared<'m>, callee: Callee<'m>, info: &CallInfo) -> Res<Flow> {
        let args = self.call_args(info)?;
        match callee {
            Callee::Defined(fi) => self.call_defined(p, fi, args, info),
            Callee::Shim(s) => {
                let r = self.call_shim(p, s, &args, info)?;
                self.cur.last_ret2 = None;
                self.finish_external(info, r);
                Ok(Flow::Next)
            }
            Callee::External(name) => {
                let r = self.call_external(p, name, &args, info)?;
                self.finish_external(info, Some(r));
                Ok(Flow::Next)
            }
        }
    }

    fn finish_external(&mut self, info: &CallInfo, r: Option<u128>) {
        if let Some(d) = info.dest {
            match r {
                Some(v) if info.return_type != IrType::Void => self.set(d, canon(v, info.return_type)),
                _ => self.undefine(d),
            }
        }
    }

    fn call_defined(&mut self, p: &Prepared<'m>, fi: u32, args: Vec<u128>, info: &CallInfo) -> Res<Flow> {
        let f = &p.module.functions[fi as usize];
        let nfixed = if f.is_variadic {
            f.params.len().min(args.len())
        } else {
            args.len()
        };
        // Gather by-value struct bytes and variadic slots while the caller is current.
        let mut byval: Vec<(usize, Vec<u8>)> = Vec::new();
        let mut area: Vec<u8> = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let struct_size = byval_size(info, i);
            let ty = info.arg_types.get(i).copied().unwrap_or(IrType::I64);
            if let Some(sz) = struct_size {
                let bytes = self.mem.read_bytes(a as u64, sz)?.to_vec();
                if i < nfixed {
                    byval.push((i, bytes));
                } else {
                    let start = area.len();
                    area.extend_from_slice(&bytes);
                    area.resize(start + round8(sz), 0);
                }
            } else if i >= nfixed {
                let n = va_slot_size(ty);
                area.extend_from_slice(&a.to_le_bytes()[..n]);
            }
        }
        let mut fixed: Vec<u128> = args;
        fixed.truncate(nfixed);
        let ret_ty = info.return_type;
        self.push_frame(p, fi, fixed, info.dest, ret_ty)?;
        for (i, bytes) in byval {
            let (addr, obj) = self.mem.frame_object(BYVAL_SLOT + i as u32, bytes.len())?;
            *self.mem.object_data_mut(obj) = bytes;
            self.cur.args[i] = addr as u128;
        }
        if f.is_variadic {
            let (_, obj) = self.mem.frame_object(VA_SLOT, area.len())?;
            *self.mem.object_data_mut(obj) = area;
        }
        Ok(Flow::Switched)
    }

    /// Record an access to a volatile alloca: volatile accesses are
    /// observable behaviour (C11 5.1.2.3p6), so promoting one changes the outcome.
    pub(super) fn volatile_access(&mut self, p: &Prepared<'m>, kind: &str, addr: u64, v: u128, ty: IrType) {
        self.events.push(Event {
            name: kind.to_string(),
            args: vec![
                show_value(p, &self.mem, addr as u128, IrType::Ptr),
                show_value(p, &self.mem, v, ty),
            ],
        });
    }

    /// Record an event for a declared function and derive its return value.
    fn call_external(&mut self, p: &Prepared<'m>, name: &str, args: &[u128], info: &CallInfo) -> Res<u128> {
        let mut shown = Vec::with_capacity(args.len());
        for (i, &a) in args.iter().enumerate() {
            let ty = info.arg_types.get(i).copied().unwrap_or(IrType::I64);
            let s = match byval_size(info, i) {
                Some(sz) => {
                    let bytes = self.mem.read_bytes(a as u64, sz)?;
                    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
                    format!("struct[{}]", hex.join(""))
                }
                None => show_value(p, &self.mem, a, ty),
            };
            shown.push(s);
        }
        let event = Event {
            name: name.to_string(),
            args: shown,
        };
        self.event_state = mix_event(self.event_state, &event);
        self.events.push(event);
        self.cur.last_ret2 = Some(event_return(self.event_state ^ 0x5eed, IrType::F64));
        Ok(event_return(self.event_state, info.return_type))
    }

    pub(super) fn va_start(&mut self, list: Value) -> Res<()> {
        let top = self.mem.frames.len() - 1;
        let fm = &self.mem.frames[top];
        if !fm.others.iter().any(|(s, _)| *s == VA_SLOT) {
            return Err(TrapKind::Unsupported("va_start in a non-variadic function".into()).into());
        }
        let area = super::memory::frame_obj_addr(fm.tag, VA_SLOT);
        self.mem.write(self.addr(list)?, 8, area as u128)?;
        Ok(())
    }

    /// The cursor a `va_list` pointer designates: either the list's memory
    /// (holding the cursor) or, as on RISC-V where `va_list` is itself a
    /// pointer, the cursor directly. Returns (cursor, where to store the next one).
    pub(super) fn va_cursor(&self, list: u64) -> Res<(u64, Option<u64>)> {
        if let (Place::FrameObj { slot: VA_SLOT, .. }, _) = decode(list) {
            return Ok((list, None));
        }
        Ok((self.mem.read(list, 8)? as u64, Some(list)))
    }

    /// Fetch the next variadic scalar of type `ty` through a cursor; returns the bits.
    pub(super) fn va_next(&mut self, cursor: &mut u64, ty: IrType) -> Res<u128> {
        let n = va_slot_size(ty);
        self.mem.read_bytes(*cursor, n)?;
        let v = self.mem.read(*cursor, ty.size().max(1))?;
        *cursor = cursor.wrapping_add(n as u64);
        Ok(v)
    }

    pub(super) fn va_arg(&mut self, list: Value, ty: IrType) -> Res<u128> {
        let l = self.addr(list)?;
        let (mut c, store) = self.va_cursor(l)?;
        let v = self.va_next(&mut c, ty)?;
        if let Some(s) = store {
            self.mem.write(s, 8, c as u128)?;
        }
        Ok(v)
    }

    pub(super) fn va_arg_struct(&mut self, dest: Value, list: Value, size: usize) -> Res<()> {
        let l = self.addr(list)?;
        let (c, store) = self.va_cursor(l)?;
        let d = self.addr(dest)?;
        self.mem.copy(d, c, size)?;
        if let Some(s) = store {
            self.mem.write(s, 8, c.wrapping_add(round8(size) as u64) as u128)?;
        }
        Ok(())
    }
}

/// An argument as an event shows it: signed or unsigned decimal, a float, or a
/// symbolic pointer.
pub(super) fn show_value(p: &Prepared, mem: &Memory, v: u128, ty: IrType) -> String {
    match ty {
        IrType::Ptr => show_pointer(p, mem, v as u64),
        IrType::F32 => format!("{:?}", f32::from_bits(v as u32)),
        IrType::F64 | IrType::F128 => format!("{:?}", f64::from_bits(v as u64)),
        t if t.is_signed() => sext(v, t.bits()).to_string(),
        _ => v.to_string(),
    }
}

/// A pointer by the identity of what it points into (`&g+4`, `heap(2)+0`).
/// A pointer into a frame shows the size of its object, not the frame and
/// value id (`stack[4]+0`, `frame[16]+8`): which frame and which `alloca`
/// hold a local is the inliner's business (it moves the callee's allocas
/// into the caller's frame), and a local's identity means nothing beyond
/// its lifetime, so events do not depend on it.
pub(super) fn show_pointer(p: &Prepared, mem: &Memory, a: u64) -> String {
    let (place, off) = decode(a);
    let f_name = |i: u32| {
        p.module
            .functions
            .get(i as usize)
            .map(|f| f.name.as_str())
            .unwrap_or("?")
    };
    match place {
        Place::Null if a == 0 => "null".into(),
        Place::Stack { .. } => format!("stack[{}]+{off}", object_size(mem, a)),
        Place::Global(i) => match p.module.globals.get(i as usize) {
            Some(g) => format!("&{}+{off}", g.name),
            None => format!("{a:#x}"),
        },
        Place::Str(i) => match p.literals.get(i as usize) {
            Some((label, _)) => format!("&{label}+{off}"),
            None => format!("{a:#x}"),
        },
        Place::Heap(n) => format!("heap({n})+{off}"),
        Place::FrameObj { .. } => format!("frame[{}]+{off}", object_size(mem, a)),
        Place::Function(i) => format!("&{}", f_name(i)),
        Place::Label { func, label } => format!("label({},bb{label})", f_name(func)),
        Place::File(n) => format!("file({n})"),
        Place::Null | Place::Wild => format!("{a:#x}"),
    }
}

/// The size of the frame object `a` points into (`?` when it is gone).
fn object_size(mem: &Memory, a: u64) -> String {
    mem.object_len(a).map_or_else(|| "?".to_string(), |n| n.to_string())
}

/// The size of argument `i` when it is a struct passed by value. The hidden
/// result pointer of an sret call carries the returned struct's metadata but is
/// a plain pointer.
fn byval_size(info: &CallInfo, i: usize) -> Option<usize> {
    if info.is_sret && i == 0 {
        return None;
    }
    info.struct_arg_sizes.get(i).copied().flatten()
}
