//! The AAPCS64 calling convention (Procedure Call Standard for the Arm
//! 64-bit Architecture, 2023Q3, 6.8.2 "Parameter passing rules", stages
//! B and C) with its Linux (not Darwin) choices, as one function used by
//! both sides of a call.
//!
//! - Integers up to 64 bits and pointers take the next of `x0..x7` (NGRN);
//!   `float`, `double` and `long double` (binary128) the next of `v0..v7`
//!   (NSRN);
//! - `__int128` takes an even-numbered pair of `x` registers (C.9) or 16
//!   aligned stack bytes, never one register and the stack;
//! - an HFA (docs/abi.md: `aarch64_hfa`, found by [`crate::abi::aapcs64`]) takes `count` consecutive `v`
//!   registers when that many remain, else NSRN becomes 8 and it is copied
//!   to the stack (C.3);
//! - any other composite over 16 bytes is replaced by a pointer to a copy
//!   the caller makes (B.4); one of at most 16 bytes takes one or two `x`
//!   registers (the NGRN rounded up to even when it is 16-byte aligned, C.10),
//!   else NGRN becomes 8 and it goes to the stack (C.13);
//! - stack arguments are laid out left to right, each rounded up to 8 bytes
//!   and aligned to 8 or 16 (C.14, C.16); variadic arguments are passed
//!   exactly like named ones (the Linux variant);
//! - returns: `x0`, `x0:x1`, `v0`, an HFA in `v0..v3`, a composite of at
//!   most 16 bytes in `x0`/`x1`, else into memory whose address the caller
//!   passes in `x8` (B.5; `x8` is not returned).

use crate::abi::aapcs64::is_valid_hfa;
use crate::ir::instruction::CallInfo;
use crate::ir::module::IrFunction;
use crate::ir::types::{Hfa, IrType};

/// Number of argument registers of each bank.
pub const NUM_ARG_REGS: u8 = 8;

/// Where one argument (or parameter) travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgLoc {
    /// Nothing (an empty struct, or the sret buffer of a struct returned in registers).
    Ignored,
    /// `x<n>`.
    Gpr(u8),
    /// `x<n>` (low half) and `x<n+1>`, `n` even.
    GprPair(u8),
    /// `v<n>` (`s`, `d` or `q` by type).
    Fpr(u8),
    /// A composite of at most 16 bytes in `count` registers from `x<first>`.
    StructGprs { first: u8, count: u8 },
    /// An HFA: member `i` in `v<first + i>`.
    StructHfa { first: u8, hfa: Hfa },
    /// A scalar at this offset of the outgoing argument area.
    Stack(u32),
    /// A composite copied to this offset of the outgoing argument area.
    StackStruct { offset: u32, size: u32 },
    /// A large composite passed by reference: the pointer in `x<reg>`, the
    /// caller's copy at offset `copy` of its call area.
    RefGpr { reg: u8, copy: u32 },
    /// As `RefGpr` with the pointer on the stack at `offset`.
    RefStack { offset: u32, copy: u32 },
}

/// Where the return value travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetLoc {
    Void,
    Gpr,
    GprPair,
    Fpr,
    /// A composite of `size` (1..=16) bytes in `x0`/`x1`.
    StructGprs(u32),
    /// An HFA in `v0..v3`.
    StructHfa(Hfa),
    /// Into the buffer whose address the caller passes in `x8`.
    Sret,
}

/// The classification of one argument as the IR describes it.
#[derive(Clone, Copy, Debug)]
pub struct ArgDesc {
    pub ty: IrType,
    pub struct_size: Option<usize>,
    pub struct_align: Option<usize>,
    pub hfa: Option<Hfa>,
}

/// The whole call: argument locations, stack area, register counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallLayout {
    pub args: Vec<ArgLoc>,
    pub ret: RetLoc,
    /// Bytes the stack arguments use (where `va_start`'s `__stack` begins).
    pub stack_bytes: u32,
    /// Bytes of the whole call area pushed by the caller: the stack
    /// arguments, then the copies of by-reference composites (a multiple of 16).
    pub area_size: u32,
    /// `x` registers used (NGRN after the last argument).
    pub gprs_used: u8,
    /// `v` registers used (NSRN after the last argument).
    pub fprs_used: u8,
}

fn round_up(x: u32, a: u32) -> u32 {
    (x + a - 1) & !(a - 1)
}

/// The first invalid HFA among `hfas`, as an error message.
pub fn check_hfas<'a>(hfas: impl IntoIterator<Item = &'a Option<Hfa>>) -> Result<(), String> {
    match hfas.into_iter().flatten().find(|h| !is_valid_hfa(**h)) {
        Some(h) => Err(format!(
            "invalid homogeneous floating-point aggregate hfa({}, {})",
            h.base, h.count
        )),
        None => Ok(()),
    }
}

/// The size in bytes of one HFA member.
pub fn hfa_member_size(h: Hfa) -> u32 {
    h.base.size().max(4) as u32
}

/// Lays out a call. `sret` says whether argument 0 is the hidden result pointer.
pub fn layout_call(args: &[ArgDesc], ret: IrType, sret: bool) -> CallLayout {
    let mut locs = Vec::with_capacity(args.len());
    let (mut ngrn, mut nsrn) = (0u8, 0u8);
    let mut nsaa = 0u32;
    let mut ret_loc = match ret {
        IrType::Void => RetLoc::Void,
        IrType::F32 | IrType::F64 | IrType::F128 => RetLoc::Fpr,
        IrType::I128 | IrType::U128 => RetLoc::GprPair,
        _ => RetLoc::Gpr,
    };
    let mut stack = |size: u32, align: u32| {
        let off = round_up(nsaa, align.clamp(8, 16));
        nsaa = off + round_up(size.max(1), 8);
        off
    };
    // By-reference copies, placed after the stack arguments once those are known.
    let mut copies: Vec<(usize, u32, u32)> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if sret && i == 0 {
            let size = a.struct_size.unwrap_or(0) as u32;
            ret_loc = if let Some(h) = a.hfa {
                RetLoc::StructHfa(h)
            } else if size == 0 {
                RetLoc::Void
            } else if size <= 16 {
                RetLoc::StructGprs(size)
            } else {
                RetLoc::Sret
            };
            // The pointer travels in x8, outside the argument registers.
            locs.push(ArgLoc::Ignored);
            continue;
        }
        if let Some(size) = a.struct_size {
            let size = size as u32;
            let align = a.struct_align.unwrap_or(8) as u32;
            if let Some(h) = a.hfa {
                if nsrn + h.count <= NUM_ARG_REGS {
                    locs.push(ArgLoc::StructHfa { first: nsrn, hfa: h });
                    nsrn += h.count;
                } else {
                    nsrn = NUM_ARG_REGS;
                    let a16 = if h.base == IrType::F128 { 16 } else { 8 };
                    locs.push(ArgLoc::StackStruct {
                        offset: stack(size, a16),
                        size,
                    });
                }
                continue;
            }
            if size == 0 {
                locs.push(ArgLoc::Ignored);
                continue;
            }
            if size > 16 {
                copies.push((i, size, align));
                if ngrn < NUM_ARG_REGS {
                    locs.push(ArgLoc::RefGpr { reg: ngrn, copy: 0 });
                    ngrn += 1;
                } else {
                    locs.push(ArgLoc::RefStack {
                        offset: stack(8, 8),
                        copy: 0,
                    });
                }
                continue;
            }
            let count = size.div_ceil(8) as u8;
            if align >= 16 {
                ngrn = (ngrn + 1) & !1;
            }
            if ngrn + count <= NUM_ARG_REGS {
                locs.push(ArgLoc::StructGprs { first: ngrn, count });
                ngrn += count;
            } else {
                ngrn = NUM_ARG_REGS;
                locs.push(ArgLoc::StackStruct {
                    offset: stack(size, align),
                    size,
                });
            }
            continue;
        }
        match a.ty {
            IrType::F32 | IrType::F64 | IrType::F128 if nsrn < NUM_ARG_REGS => {
                locs.push(ArgLoc::Fpr(nsrn));
                nsrn += 1;
            }
            IrType::F32 | IrType::F64 => locs.push(ArgLoc::Stack(stack(8, 8))),
            IrType::F128 => locs.push(ArgLoc::Stack(stack(16, 16))),
            IrType::I128 | IrType::U128 => {
                ngrn = (ngrn + 1) & !1;
                if ngrn + 2 <= NUM_ARG_REGS {
                    locs.push(ArgLoc::GprPair(ngrn));
                    ngrn += 2;
                } else {
                    ngrn = NUM_ARG_REGS;
                    locs.push(ArgLoc::Stack(stack(16, 16)));
                }
            }
            _ if ngrn < NUM_ARG_REGS => {
                locs.push(ArgLoc::Gpr(ngrn));
                ngrn += 1;
            }
            _ => locs.push(ArgLoc::Stack(stack(8, 8))),
        }
    }
    let stack_bytes = nsaa;
    let mut area = round_up(stack_bytes, 16);
    for (i, size, _align) in copies {
        let copy = area;
        area = round_up(area + size, 16);
        match &mut locs[i] {
            ArgLoc::RefGpr { copy: c, .. } | ArgLoc::RefStack { copy: c, .. } => *c = copy,
            _ => {}
        }
    }
    CallLayout {
        args: locs,
        ret: ret_loc,
        stack_bytes,
        area_size: round_up(area, 16),
        gprs_used: ngrn,
        fprs_used: nsrn,
    }
}

/// The layout of a call instruction.
pub fn layout_of_call(info: &CallInfo) -> CallLayout {
    let descs: Vec<ArgDesc> = (0..info.args.len())
        .map(|i| ArgDesc {
            ty: info.arg_types.get(i).copied().unwrap_or(IrType::I64),
            struct_size: info.struct_arg_sizes.get(i).copied().flatten(),
            struct_align: info.struct_arg_aligns.get(i).copied().flatten(),
            hfa: info.struct_arg_hfas.get(i).copied().flatten(),
        })
        .collect();
    layout_call(&descs, info.return_type, info.is_sret)
}

/// The layout of a function's own parameters (what its prologue receives).
pub fn layout_of_function(f: &IrFunction) -> CallLayout {
    let descs: Vec<ArgDesc> = f
        .params
        .iter()
        .map(|p| ArgDesc {
            ty: p.ty,
            struct_size: p.struct_size,
            struct_align: p.struct_align,
            hfa: p.aarch64_hfa,
        })
        .collect();
    layout_call(&descs, f.return_type, f.uses_sret)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(ty: IrType) -> ArgDesc {
        ArgDesc {
            ty,
            struct_size: None,
            struct_align: None,
            hfa: None,
        }
    }

    fn strukt(size: usize, align: usize, hfa: Option<Hfa>) -> ArgDesc {
        ArgDesc {
            ty: IrType::Ptr,
            struct_size: Some(size),
            struct_align: Some(align),
            hfa,
        }
    }

    fn hfa(base: IrType, count: u8) -> Option<Hfa> {
        Some(Hfa { base, count })
    }

    #[test]
    fn scalars_fill_both_banks_then_the_stack() {
        let mut args = vec![scalar(IrType::I32); 9];
        args.extend([scalar(IrType::F64); 9]);
        args.push(scalar(IrType::F128));
        args.push(scalar(IrType::I8));
        let l = layout_call(&args, IrType::F64, false);
        assert_eq!(l.args[7], ArgLoc::Gpr(7));
        assert_eq!(l.args[8], ArgLoc::Stack(0));
        assert_eq!(l.args[9], ArgLoc::Fpr(0));
        assert_eq!(l.args[16], ArgLoc::Fpr(7));
        assert_eq!(l.args[17], ArgLoc::Stack(8));
        assert_eq!(l.args[18], ArgLoc::Stack(16)); // long double: 16-aligned, 16 bytes
        assert_eq!(l.args[19], ArgLoc::Stack(32));
        assert_eq!((l.stack_bytes, l.area_size), (40, 48));
        assert_eq!((l.gprs_used, l.fprs_used), (8, 8));
        assert_eq!(l.ret, RetLoc::Fpr);
    }

    #[test]
    fn int128_takes_an_even_pair_or_the_stack() {
        let args = [scalar(IrType::I32), scalar(IrType::I128), scalar(IrType::I64)];
        let l = layout_call(&args, IrType::I128, false);
        assert_eq!(l.args, vec![ArgLoc::Gpr(0), ArgLoc::GprPair(2), ArgLoc::Gpr(4)]);
        assert_eq!(l.ret, RetLoc::GprPair);
        // x7 free but not a pair: the __int128 goes to the stack, NGRN becomes 8.
        let mut args = vec![scalar(IrType::I64); 7];
        args.push(scalar(IrType::I128));
        args.push(scalar(IrType::I32));
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(l.args[7], ArgLoc::Stack(0));
        assert_eq!(l.args[8], ArgLoc::Stack(16));
    }

    #[test]
    fn hfas_take_vector_registers_or_go_whole_to_the_stack() {
        let args = [
            strukt(16, 4, hfa(IrType::F32, 4)),
            strukt(24, 8, hfa(IrType::F64, 3)),
            strukt(16, 8, hfa(IrType::F64, 2)),
            scalar(IrType::F32),
        ];
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(
            l.args[0],
            ArgLoc::StructHfa {
                first: 0,
                hfa: Hfa {
                    base: IrType::F32,
                    count: 4
                }
            }
        );
        assert!(matches!(l.args[1], ArgLoc::StructHfa { first: 4, .. }));
        // Only one register left for a two-member HFA: it goes to the stack
        // and no later float argument uses a register either.
        assert_eq!(l.args[2], ArgLoc::StackStruct { offset: 0, size: 16 });
        assert_eq!(l.args[3], ArgLoc::Stack(16));
        assert_eq!(l.fprs_used, 8);
    }

    #[test]
    fn composites_in_registers_by_reference_and_on_the_stack() {
        let args = [
            strukt(12, 4, None),
            strukt(40, 8, None),
            scalar(IrType::I32),
            strukt(16, 16, None),
            strukt(24, 8, None),
        ];
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(l.args[0], ArgLoc::StructGprs { first: 0, count: 2 });
        assert_eq!(l.args[1], ArgLoc::RefGpr { reg: 2, copy: 0 });
        assert_eq!(l.args[2], ArgLoc::Gpr(3));
        // 16-byte aligned: starts at an even register.
        assert_eq!(l.args[3], ArgLoc::StructGprs { first: 4, count: 2 });
        assert_eq!(l.args[4], ArgLoc::RefGpr { reg: 6, copy: 48 });
        assert_eq!(l.area_size, 80);
        // Registers exhausted: a small composite goes whole to the stack.
        let mut args = vec![scalar(IrType::I64); 7];
        args.push(strukt(16, 8, None));
        args.push(scalar(IrType::I64));
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(l.args[7], ArgLoc::StackStruct { offset: 0, size: 16 });
        assert_eq!(l.args[8], ArgLoc::Stack(16));
    }

    #[test]
    fn struct_returns() {
        let l = layout_call(&[strukt(32, 8, None), scalar(IrType::I32)], IrType::Void, true);
        assert_eq!(l.ret, RetLoc::Sret);
        assert_eq!(l.args, vec![ArgLoc::Ignored, ArgLoc::Gpr(0)]);
        let l = layout_call(&[strukt(12, 4, None)], IrType::Void, true);
        assert_eq!(l.ret, RetLoc::StructGprs(12));
        let l = layout_call(&[strukt(32, 8, hfa(IrType::F64, 4))], IrType::Void, true);
        assert!(matches!(l.ret, RetLoc::StructHfa(h) if h.count == 4));
    }
}
