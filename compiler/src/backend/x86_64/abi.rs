//! The System V AMD64 psABI calling convention (psABI 1.0, 3.2.3 "Parameter
//! Passing"), as one function used by both sides of a call: the caller's
//! argument setup and the callee's prologue see the same [`CallLayout`].
//!
//! - INTEGER scalars (integers up to 64 bits, pointers) take `rdi rsi rdx
//!   rcx r8 r9`, SSE scalars (`float`, `double`) take `xmm0..7`;
//! - `__int128` takes two INTEGER registers or 16 aligned stack bytes (never
//!   one register and the stack);
//! - `long double` is class X87: always in memory (16 aligned);
//! - a struct comes with the eightbyte classes lowering recorded
//!   ([`crate::abi::sysv`], docs/abi.md):
//!   with a MEMORY class (or larger than 16 bytes) it is copied to the stack;
//!   otherwise each eightbyte takes the next register of its class, and when
//!   the registers of either class run out the whole struct goes to the stack;
//! - stack arguments are laid out left to right at 8-byte granularity (16 for
//!   16-aligned types); registers left over after an argument spilled are
//!   still used by later arguments;
//! - returns: INTEGER in `rax`, `__int128` in `rax:rdx`, SSE in `xmm0`,
//!   `long double` in `st(0)`, a struct by its classes in `rax/rdx` and
//!   `xmm0/xmm1`, a struct of one `long double` (`[mem, none]`, docs/abi.md)
//!   in `st(0)`, or through the hidden pointer (passed in `rdi`, returned in
//!   `rax`) when it is MEMORY class.

use crate::ir::instruction::CallInfo;
use crate::ir::module::IrFunction;
use crate::ir::types::{EightbyteClass, IrType};

/// Number of INTEGER argument registers.
pub const NUM_GPR_ARGS: u8 = 6;
/// Number of SSE argument registers.
pub const NUM_SSE_ARGS: u8 = 8;

/// Where one eightbyte of a struct passed in registers travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StructPart {
    /// `false`: INTEGER register number `reg` (of the argument or return
    /// sequence); `true`: SSE register number `reg`.
    pub sse: bool,
    pub reg: u8,
    /// Byte offset of the eightbyte in the struct.
    pub offset: u32,
    /// Bytes of the struct in this eightbyte (1..=8).
    pub size: u32,
}

/// Where one argument (or parameter) travels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgLoc {
    /// Nothing (an empty struct, or the sret pointer of a struct returned in registers).
    Ignored,
    /// INTEGER argument register `n`.
    Gpr(u8),
    /// Two INTEGER registers, low half first.
    GprPair(u8, u8),
    /// SSE argument register `n`.
    Xmm(u8),
    /// A struct in registers.
    StructRegs(Vec<StructPart>),
    /// A scalar at this offset of the outgoing argument area (8 or 16 bytes).
    Stack(u32),
    /// A struct copied to this offset of the outgoing argument area.
    StackStruct { offset: u32, size: u32 },
}

/// The classes lowering gives `_Complex long double` (COMPLEX_X87).
pub const COMPLEX_X87: [EightbyteClass; 4] = [
    EightbyteClass::Memory,
    EightbyteClass::NoClass,
    EightbyteClass::Memory,
    EightbyteClass::NoClass,
];

/// Where the return value travels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetLoc {
    Void,
    Gpr,
    GprPair,
    Xmm,
    X87,
    /// A struct returned in registers (`rax`/`rdx`, `xmm0`/`xmm1`).
    StructRegs(Vec<StructPart>),
    /// Through the hidden pointer (in `rdi`; the callee returns it in `rax`).
    SretMemory,
    /// A struct holding one `long double` (classes `[mem, none]`), in `st(0)`.
    X87Struct,
    /// `_Complex long double` (psABI class COMPLEX_X87, which lowering spells
    /// `[mem, none, mem, none]`): the real part in `st(0)`, the imaginary
    /// part in `st(1)`.
    X87Pair,
}

/// The classification of one argument as the IR describes it.
#[derive(Clone, Debug)]
pub struct ArgDesc<'a> {
    pub ty: IrType,
    pub struct_size: Option<usize>,
    pub struct_align: Option<usize>,
    pub classes: &'a [EightbyteClass],
}

/// The whole call: argument locations, stack area, register counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallLayout {
    pub args: Vec<ArgLoc>,
    pub ret: RetLoc,
    /// Bytes of the outgoing argument area (a multiple of 16).
    pub stack_size: u32,
    /// Bytes the arguments really use in it (where `va_start`'s overflow area begins).
    pub stack_bytes: u32,
    /// INTEGER registers used (for `va_start`'s `gp_offset`).
    pub gprs_used: u8,
    /// SSE registers used (`%al` of a variadic call, `va_start`'s `fp_offset`).
    pub sses_used: u8,
}

/// Struct eightbytes in registers, or `None` when it goes to memory.
fn struct_parts(size: usize, classes: &[EightbyteClass], gpr: u8, sse: u8) -> Option<(Vec<StructPart>, u8, u8)> {
    if size == 0 || size > 16 || classes.is_empty() || classes.contains(&EightbyteClass::Memory) {
        return None;
    }
    let (mut g, mut s) = (gpr, sse);
    let mut parts = Vec::with_capacity(2);
    for (k, c) in classes.iter().enumerate() {
        let offset = 8 * k as u32;
        if offset as usize >= size {
            break;
        }
        let bytes = (size as u32 - offset).min(8);
        match c {
            EightbyteClass::Integer => {
                parts.push(StructPart {
                    sse: false,
                    reg: g,
                    offset,
                    size: bytes,
                });
                g += 1;
            }
            EightbyteClass::Sse => {
                parts.push(StructPart {
                    sse: true,
                    reg: s,
                    offset,
                    size: bytes,
                });
                s += 1;
            }
            EightbyteClass::NoClass | EightbyteClass::Memory => {}
        }
    }
    Some((parts, g, s))
}

/// Whether a struct of `size` with `classes` is returned in registers.
pub fn struct_in_registers(size: usize, classes: &[EightbyteClass]) -> bool {
    struct_parts(size, classes, 0, 0).is_some()
}

/// Lays out a call. `sret` says whether argument 0 is the hidden result pointer.
pub fn layout_call(args: &[ArgDesc<'_>], ret: IrType, sret: bool) -> CallLayout {
    let mut locs = Vec::with_capacity(args.len());
    let (mut gpr, mut sse) = (0u8, 0u8);
    let mut stack = 0u32;
    let mut ret_loc = match ret {
        IrType::Void => RetLoc::Void,
        IrType::F32 | IrType::F64 => RetLoc::Xmm,
        IrType::F128 => RetLoc::X87,
        IrType::I128 | IrType::U128 => RetLoc::GprPair,
        _ => RetLoc::Gpr,
    };
    let mut on_stack = |size: u32, align: u32| {
        let a = align.clamp(8, 16);
        let off = (stack + a - 1) & !(a - 1);
        stack = off + size.div_ceil(8) * 8;
        off
    };
    for (i, a) in args.iter().enumerate() {
        if sret && i == 0 {
            let size = a.struct_size.unwrap_or(0);
            if a.classes == [EightbyteClass::Memory, EightbyteClass::NoClass] && size == 16 {
                ret_loc = RetLoc::X87Struct;
                locs.push(ArgLoc::Ignored);
                continue;
            }
            if a.classes == COMPLEX_X87 && size == 32 {
                ret_loc = RetLoc::X87Pair;
                locs.push(ArgLoc::Ignored);
                continue;
            }
            if let Some((parts, _, _)) = struct_parts(size, a.classes, 0, 0) {
                ret_loc = RetLoc::StructRegs(parts);
                locs.push(ArgLoc::Ignored);
                continue;
            }
            ret_loc = RetLoc::SretMemory;
            locs.push(ArgLoc::Gpr(gpr));
            gpr += 1;
            continue;
        }
        if let Some(size) = a.struct_size {
            if size == 0 {
                locs.push(ArgLoc::Ignored);
                continue;
            }
            if let Some((parts, g, s)) = struct_parts(size, a.classes, gpr, sse) {
                if g <= NUM_GPR_ARGS && s <= NUM_SSE_ARGS {
                    gpr = g;
                    sse = s;
                    locs.push(ArgLoc::StructRegs(parts));
                    continue;
                }
            }
            let align = a.struct_align.unwrap_or(8) as u32;
            let offset = on_stack(size as u32, align);
            locs.push(ArgLoc::StackStruct {
                offset,
                size: size as u32,
            });
            continue;
        }
        match a.ty {
            IrType::F32 | IrType::F64 if sse < NUM_SSE_ARGS => {
                locs.push(ArgLoc::Xmm(sse));
                sse += 1;
            }
            IrType::I128 | IrType::U128 if gpr + 2 <= NUM_GPR_ARGS => {
                locs.push(ArgLoc::GprPair(gpr, gpr + 1));
                gpr += 2;
            }
            IrType::I128 | IrType::U128 | IrType::F128 => locs.push(ArgLoc::Stack(on_stack(16, 16))),
            IrType::F32 | IrType::F64 => locs.push(ArgLoc::Stack(on_stack(8, 8))),
            _ if gpr < NUM_GPR_ARGS => {
                locs.push(ArgLoc::Gpr(gpr));
                gpr += 1;
            }
            _ => locs.push(ArgLoc::Stack(on_stack(8, 8))),
        }
    }
    CallLayout {
        args: locs,
        ret: ret_loc,
        stack_size: (stack + 15) & !15,
        stack_bytes: stack,
        gprs_used: gpr,
        sses_used: sse,
    }
}

/// The layout of a call instruction.
pub fn layout_of_call(info: &CallInfo) -> CallLayout {
    let descs: Vec<ArgDesc<'_>> = (0..info.args.len())
        .map(|i| ArgDesc {
            ty: info.arg_types.get(i).copied().unwrap_or(IrType::I64),
            struct_size: info.struct_arg_sizes.get(i).copied().flatten(),
            struct_align: info.struct_arg_aligns.get(i).copied().flatten(),
            classes: info.struct_arg_classes.get(i).map(|v| v.as_slice()).unwrap_or(&[]),
        })
        .collect();
    layout_call(&descs, info.return_type, info.is_sret)
}

/// The layout of a function's own parameters (what its prologue receives).
pub fn layout_of_function(f: &IrFunction) -> CallLayout {
    let descs: Vec<ArgDesc<'_>> = f
        .params
        .iter()
        .map(|p| ArgDesc {
            ty: p.ty,
            struct_size: p.struct_size,
            struct_align: p.struct_align,
            classes: &p.struct_eightbyte_classes,
        })
        .collect();
    layout_call(&descs, f.return_type, f.uses_sret)
}

#[cfg(test)]
mod tests {
    use super::*;
    use EightbyteClass::*;

    fn scalar(ty: IrType) -> ArgDesc<'static> {
        ArgDesc {
            ty,
            struct_size: None,
            struct_align: None,
            classes: &[],
        }
    }

    fn strukt(size: usize, align: usize, classes: &'static [EightbyteClass]) -> ArgDesc<'static> {
        ArgDesc {
            ty: IrType::Ptr,
            struct_size: Some(size),
            struct_align: Some(align),
            classes,
        }
    }

    #[test]
    fn scalars_fill_registers_then_the_stack() {
        let mut args = vec![scalar(IrType::I32); 7];
        args.push(scalar(IrType::F64));
        args.push(scalar(IrType::F128));
        args.push(scalar(IrType::I64));
        let l = layout_call(&args, IrType::I32, false);
        assert_eq!(l.args[5], ArgLoc::Gpr(5));
        assert_eq!(l.args[6], ArgLoc::Stack(0));
        assert_eq!(l.args[7], ArgLoc::Xmm(0));
        assert_eq!(l.args[8], ArgLoc::Stack(16)); // long double: 16-aligned memory
        assert_eq!(l.args[9], ArgLoc::Stack(32));
        assert_eq!(l.stack_size, 48);
        assert_eq!((l.gprs_used, l.sses_used), (6, 1));
    }

    #[test]
    fn int128_never_splits_between_registers_and_stack() {
        let args = vec![
            scalar(IrType::I64),
            scalar(IrType::I64),
            scalar(IrType::I64),
            scalar(IrType::I64),
            scalar(IrType::I64),
            scalar(IrType::I128),
            scalar(IrType::I32),
        ];
        let l = layout_call(&args, IrType::I128, false);
        assert_eq!(l.args[5], ArgLoc::Stack(0));
        // The sixth register is still free for a later INTEGER argument.
        assert_eq!(l.args[6], ArgLoc::Gpr(5));
        assert_eq!(l.ret, RetLoc::GprPair);
    }

    #[test]
    fn structs_by_class_and_whole_struct_spill() {
        // struct { double d; long l; } -> xmm0 + rdi; struct { char c[24]; } -> memory.
        let args = vec![strukt(16, 8, &[Sse, Integer]), strukt(24, 8, &[Memory])];
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(
            l.args[0],
            ArgLoc::StructRegs(vec![
                StructPart {
                    sse: true,
                    reg: 0,
                    offset: 0,
                    size: 8
                },
                StructPart {
                    sse: false,
                    reg: 0,
                    offset: 8,
                    size: 8
                }
            ])
        );
        assert_eq!(l.args[1], ArgLoc::StackStruct { offset: 0, size: 24 });
        // Five INTEGER registers used: a two-INTEGER struct no longer fits and
        // goes whole to the stack.
        let mut args = vec![scalar(IrType::I64); 5];
        args.push(strukt(12, 4, &[Integer, Integer]));
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(l.args[5], ArgLoc::StackStruct { offset: 0, size: 12 });
        assert_eq!(l.stack_size, 16);
    }

    #[test]
    fn sret_in_memory_takes_rdi_and_small_structs_come_back_in_registers() {
        let args = vec![strukt(32, 8, &[Memory]), scalar(IrType::I32)];
        let l = layout_call(&args, IrType::Void, true);
        assert_eq!(l.ret, RetLoc::SretMemory);
        assert_eq!(l.args, vec![ArgLoc::Gpr(0), ArgLoc::Gpr(1)]);
        let args = vec![strukt(12, 4, &[Sse, Integer]), scalar(IrType::I32)];
        let l = layout_call(&args, IrType::Void, true);
        assert!(matches!(l.ret, RetLoc::StructRegs(ref p) if p.len() == 2 && p[1].size == 4 && !p[1].sse));
        assert_eq!(l.args, vec![ArgLoc::Ignored, ArgLoc::Gpr(0)]);
    }
}
