//! The RISC-V LP64D calling convention (RISC-V ELF psABI, "Integer Calling
//! Convention" and "Hardware Floating-point Calling Convention"), as one
//! function used by both sides of a call: the caller's argument setup and
//! the callee's prologue see the same [`CallLayout`]. Where the psABI leaves
//! a choice, gcc's `riscv_get_arg_info` decides.
//!
//! - Integer scalars take `a0..a7` (narrower ones widened to 64 bits: by
//!   their signedness up to 32 bits, then sign-extended), then 8-byte stack
//!   slots. `__int128` and `long double` (binary128) take two registers, or
//!   the last register and one stack slot, or 16 aligned stack bytes. Only a
//!   *variadic* 16-aligned argument needs an even-numbered register pair
//!   (gcc aligns named ones nowhere).
//! - Fixed `float`/`double` arguments take `fa0..fa7`, then the integer
//!   rules; variadic floating-point arguments always follow the integer rules.
//! - A fixed struct whose flattening lowering recorded ([`crate::abi::lp64d`],
//!   `riscv_float_class`:
//!   one float, two floats, float + integer, integer + float) takes those
//!   FP and integer registers when enough of *both* remain; otherwise, and
//!   for variadic structs, the integer rules: up to 8 bytes in one register,
//!   up to 16 in two (split between `a7` and the stack when only one is
//!   left), larger ones by reference (a pointer to a copy the caller makes).
//! - Stack arguments are laid out left to right, each aligned to
//!   `max(8, min(align, 16))`.
//! - Returns: as the first named argument would travel, in `a0`/`a1` and
//!   `fa0`/`fa1`; a struct that does not fit is returned through the hidden
//!   pointer passed in `a0`.

use crate::ir::instruction::CallInfo;
use crate::ir::module::IrFunction;
use crate::ir::types::{IrType, RiscvFloatClass};

/// Integer (and FP) argument registers of each kind.
pub const NUM_ARG_REGS: u8 = 8;

/// Where one piece of an argument travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Integer argument (or return) register number n (`a<n>`).
    Gpr(u8),
    /// Floating-point argument (or return) register number n (`fa<n>`).
    Fpr(u8),
    /// This offset of the outgoing argument area.
    Stack(u32),
}

/// One piece of an argument: `size` bytes at `offset` of the value (or of
/// the struct) travel in `place`. `float` is the type of a piece in an FP
/// register (`f32` or `f64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub place: Place,
    pub offset: u32,
    pub size: u32,
    pub float: Option<IrType>,
}

/// Where one argument (or parameter) travels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgLoc {
    /// Nothing (an empty struct, or the sret pointer of a struct returned in registers).
    Ignored,
    /// By value, in these pieces (registers and/or stack).
    Parts(Vec<Part>),
    /// A struct larger than 16 bytes: the address of a copy the caller made.
    ByRef(Place),
}

/// Where the return value travels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetLoc {
    Void,
    /// In these pieces (`Gpr(0..2)` = `a0`/`a1`, `Fpr(0..2)` = `fa0`/`fa1`);
    /// for a struct, offsets are into the struct.
    Parts(Vec<Part>),
    /// Through the hidden pointer (argument 0, in `a0`).
    SretMemory,
}

/// One argument as the IR describes it.
#[derive(Clone, Debug)]
pub struct ArgDesc {
    pub ty: IrType,
    pub struct_size: Option<usize>,
    pub struct_align: Option<usize>,
    pub float_class: Option<RiscvFloatClass>,
    pub variadic: bool,
}

/// The whole call: argument locations and the stack area.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallLayout {
    pub args: Vec<ArgLoc>,
    pub ret: RetLoc,
    /// Bytes of the outgoing argument area (a multiple of 16).
    pub stack_size: u32,
    /// Bytes the arguments really use (where `va_start`'s stack part begins).
    pub stack_bytes: u32,
    /// Integer argument registers used by the named arguments (`va_start`).
    pub gprs_used: u8,
}

fn float_ty(is_double: bool) -> IrType {
    if is_double {
        IrType::F64
    } else {
        IrType::F32
    }
}

fn fsize(is_double: bool) -> u32 {
    if is_double {
        8
    } else {
        4
    }
}

/// The FP/integer pieces of a flattened struct: (is_fp, offset, size, float type).
fn float_class_fields(c: &RiscvFloatClass) -> Vec<(bool, u32, u32, Option<IrType>)> {
    match *c {
        RiscvFloatClass::OneFloat { is_double } => vec![(true, 0, fsize(is_double), Some(float_ty(is_double)))],
        RiscvFloatClass::TwoFloats { lo_double, hi_double } => {
            // The second member follows the first at its own alignment.
            let hi_size = fsize(hi_double);
            let hi_off = fsize(lo_double).div_ceil(hi_size) * hi_size;
            vec![
                (true, 0, fsize(lo_double), Some(float_ty(lo_double))),
                (true, hi_off, hi_size, Some(float_ty(hi_double))),
            ]
        }
        RiscvFloatClass::FloatInt {
            float_double,
            int_size,
            int_offset,
        } => vec![
            (true, 0, fsize(float_double), Some(float_ty(float_double))),
            (false, int_offset as u32, int_size as u32, None),
        ],
        RiscvFloatClass::IntFloat {
            int_size,
            float_double,
            float_offset,
        } => vec![
            (false, 0, int_size as u32, None),
            (
                true,
                float_offset as u32,
                fsize(float_double),
                Some(float_ty(float_double)),
            ),
        ],
    }
}

/// The allocation state while laying out one call.
struct Alloc {
    gpr: u8,
    fpr: u8,
    stack: u32,
}

impl Alloc {
    fn on_stack(&mut self, size: u32, align: u32) -> u32 {
        let a = align.clamp(8, 16);
        let off = self.stack.div_ceil(a) * a;
        self.stack = off + size.div_ceil(8) * 8;
        off
    }

    /// The integer calling convention for `size` (at most 16) bytes.
    fn int_parts(&mut self, size: u32, align: u32, variadic: bool) -> Vec<Part> {
        let words = size.div_ceil(8).max(1);
        if variadic && words == 2 && align >= 16 {
            self.gpr += self.gpr & 1;
        }
        let word = |k: u32| (8 * k, (size.max(1) - 8 * k).min(8));
        if self.gpr + words as u8 <= NUM_ARG_REGS {
            let parts = (0..words)
                .map(|k| {
                    let (offset, sz) = word(k);
                    Part {
                        place: Place::Gpr(self.gpr + k as u8),
                        offset,
                        size: sz,
                        float: None,
                    }
                })
                .collect();
            self.gpr += words as u8;
            return parts;
        }
        if words == 2 && self.gpr < NUM_ARG_REGS {
            // The low half in the last register, the high half on the stack.
            let lo = Part {
                place: Place::Gpr(self.gpr),
                offset: 0,
                size: 8,
                float: None,
            };
            self.gpr = NUM_ARG_REGS;
            let (offset, sz) = word(1);
            let at = self.on_stack(8, 8);
            return vec![
                lo,
                Part {
                    place: Place::Stack(at),
                    offset,
                    size: sz,
                    float: None,
                },
            ];
        }
        self.gpr = NUM_ARG_REGS;
        let at = self.on_stack(size.max(1), align);
        vec![Part {
            place: Place::Stack(at),
            offset: 0,
            size: size.max(1),
            float: None,
        }]
    }

    /// One integer register or stack slot for a pointer.
    fn pointer_place(&mut self) -> Place {
        match self.int_parts(8, 8, false)[0].place {
            p @ (Place::Gpr(_) | Place::Stack(_)) => p,
            Place::Fpr(_) => unreachable!("the integer convention never uses FP registers"),
        }
    }

    /// A flattened struct in FP (and integer) registers when enough remain.
    fn float_parts(&mut self, class: &RiscvFloatClass) -> Option<Vec<Part>> {
        let fields = float_class_fields(class);
        let nf = fields.iter().filter(|f| f.0).count() as u8;
        let ni = fields.len() as u8 - nf;
        if self.fpr + nf > NUM_ARG_REGS || self.gpr + ni > NUM_ARG_REGS {
            return None;
        }
        let parts = fields
            .into_iter()
            .map(|(fp, offset, size, float)| {
                let place = if fp {
                    self.fpr += 1;
                    Place::Fpr(self.fpr - 1)
                } else {
                    self.gpr += 1;
                    Place::Gpr(self.gpr - 1)
                };
                Part {
                    place,
                    offset,
                    size,
                    float,
                }
            })
            .collect();
        Some(parts)
    }
}

/// Where a scalar of type `ty` is returned.
fn scalar_return(ty: IrType) -> RetLoc {
    let part = |place, offset, size, float| Part {
        place,
        offset,
        size,
        float,
    };
    match ty {
        IrType::Void => RetLoc::Void,
        IrType::F32 | IrType::F64 => RetLoc::Parts(vec![part(Place::Fpr(0), 0, ty.size() as u32, Some(ty))]),
        t if t.size() > 8 => RetLoc::Parts(vec![part(Place::Gpr(0), 0, 8, None), part(Place::Gpr(1), 8, 8, None)]),
        t => RetLoc::Parts(vec![part(Place::Gpr(0), 0, t.size().max(1) as u32, None)]),
    }
}

/// Where a struct of `size` bytes with `class` is returned, or `None` when
/// it goes through the hidden pointer.
pub fn struct_return(size: usize, class: Option<&RiscvFloatClass>) -> Option<Vec<Part>> {
    if let Some(c) = class {
        let mut a = Alloc {
            gpr: 0,
            fpr: 0,
            stack: 0,
        };
        return a.float_parts(c);
    }
    if size == 0 || size > 16 {
        return None;
    }
    let mut a = Alloc {
        gpr: 0,
        fpr: 0,
        stack: 0,
    };
    Some(a.int_parts(size as u32, 8, false))
}

/// Lays out a call. `sret` says whether argument 0 is the hidden result pointer.
pub fn layout_call(args: &[ArgDesc], ret: IrType, sret: bool) -> CallLayout {
    let mut a = Alloc {
        gpr: 0,
        fpr: 0,
        stack: 0,
    };
    let mut ret_loc = scalar_return(ret);
    let mut locs = Vec::with_capacity(args.len());
    let mut gprs_named = 0;
    for (i, d) in args.iter().enumerate() {
        if sret && i == 0 {
            let size = d.struct_size.unwrap_or(0);
            match struct_return(size, d.float_class.as_ref()) {
                Some(parts) => {
                    ret_loc = if parts.is_empty() || size == 0 {
                        RetLoc::Void
                    } else {
                        RetLoc::Parts(parts)
                    };
                    locs.push(ArgLoc::Ignored);
                }
                None if size == 0 => {
                    ret_loc = RetLoc::Void;
                    locs.push(ArgLoc::Ignored);
                }
                None => {
                    ret_loc = RetLoc::SretMemory;
                    locs.push(ArgLoc::Parts(a.int_parts(8, 8, false)));
                }
            }
        } else if let Some(size) = d.struct_size {
            let align = d.struct_align.unwrap_or(8).max(1) as u32;
            if size == 0 {
                locs.push(ArgLoc::Ignored);
            } else if size > 16 {
                locs.push(ArgLoc::ByRef(a.pointer_place()));
            } else {
                let fp = match (&d.float_class, d.variadic) {
                    (Some(c), false) => a.float_parts(c),
                    _ => None,
                };
                let parts = fp.unwrap_or_else(|| a.int_parts(size as u32, align, d.variadic));
                locs.push(ArgLoc::Parts(parts));
            }
        } else {
            let ty = d.ty;
            let size = ty.size().max(1) as u32;
            let parts = match ty {
                IrType::F32 | IrType::F64 if !d.variadic && a.fpr < NUM_ARG_REGS => {
                    a.fpr += 1;
                    vec![Part {
                        place: Place::Fpr(a.fpr - 1),
                        offset: 0,
                        size,
                        float: Some(ty),
                    }]
                }
                _ if size > 8 => a.int_parts(16, 16, d.variadic),
                _ => a.int_parts(8, 8, d.variadic),
            };
            locs.push(ArgLoc::Parts(parts));
        }
        if !d.variadic {
            gprs_named = a.gpr;
        }
    }
    CallLayout {
        args: locs,
        ret: ret_loc,
        stack_size: a.stack.div_ceil(16) * 16,
        stack_bytes: a.stack,
        gprs_used: gprs_named,
    }
}

/// The layout of a call instruction.
pub fn layout_of_call(info: &CallInfo) -> CallLayout {
    let descs: Vec<ArgDesc> = (0..info.args.len())
        .map(|i| ArgDesc {
            ty: info.arg_types.get(i).copied().unwrap_or(IrType::I64),
            struct_size: info.struct_arg_sizes.get(i).copied().flatten(),
            struct_align: info.struct_arg_aligns.get(i).copied().flatten(),
            float_class: info.struct_arg_riscv_float_classes.get(i).copied().flatten(),
            variadic: info.is_variadic && i >= info.num_fixed_args,
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
            float_class: p.riscv_float_class,
            variadic: false,
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
            float_class: None,
            variadic: false,
        }
    }

    fn vararg(ty: IrType) -> ArgDesc {
        ArgDesc {
            variadic: true,
            ..scalar(ty)
        }
    }

    fn strukt(size: usize, align: usize, class: Option<RiscvFloatClass>) -> ArgDesc {
        ArgDesc {
            ty: IrType::Ptr,
            struct_size: Some(size),
            struct_align: Some(align),
            float_class: class,
            variadic: false,
        }
    }

    fn places(l: &ArgLoc) -> Vec<Place> {
        match l {
            ArgLoc::Parts(p) => p.iter().map(|p| p.place).collect(),
            ArgLoc::ByRef(p) => vec![*p],
            ArgLoc::Ignored => vec![],
        }
    }

    #[test]
    fn named_wide_scalars_take_the_next_registers_unaligned() {
        // gcc: f(int, __int128) gets the __int128 in a1:a2; f(int, long double) too.
        let l = layout_call(&[scalar(IrType::I32), scalar(IrType::I128)], IrType::I128, false);
        assert_eq!(places(&l.args[1]), vec![Place::Gpr(1), Place::Gpr(2)]);
        let l = layout_call(&[scalar(IrType::I32), scalar(IrType::F128)], IrType::F128, false);
        assert_eq!(places(&l.args[1]), vec![Place::Gpr(1), Place::Gpr(2)]);
        assert!(matches!(l.ret, RetLoc::Parts(ref p) if p.len() == 2));
    }

    #[test]
    fn variadic_wide_scalars_take_an_even_pair_and_floats_go_to_integer_registers() {
        // gcc: g(1, (__int128)5, 2.0, 3.0L) -> a0, a2:a3, a4, a6:a7.
        let args = [
            scalar(IrType::I32),
            vararg(IrType::I128),
            vararg(IrType::F64),
            vararg(IrType::F128),
        ];
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(places(&l.args[1]), vec![Place::Gpr(2), Place::Gpr(3)]);
        assert_eq!(places(&l.args[2]), vec![Place::Gpr(4)]);
        assert_eq!(places(&l.args[3]), vec![Place::Gpr(6), Place::Gpr(7)]);
        assert_eq!(l.gprs_used, 1);
        // With a7 left, a variadic __int128 skips it and goes to the stack.
        let mut args: Vec<ArgDesc> = (0..7).map(|_| scalar(IrType::I64)).collect();
        args.push(vararg(IrType::I128));
        args.push(vararg(IrType::I64));
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(places(&l.args[7]), vec![Place::Stack(0)]);
        assert_eq!(places(&l.args[8]), vec![Place::Stack(16)]);
        assert_eq!(l.stack_size, 32);
    }

    #[test]
    fn floats_spill_to_integer_registers_then_the_stack() {
        let mut args: Vec<ArgDesc> = (0..9).map(|_| scalar(IrType::F64)).collect();
        args.push(scalar(IrType::F32));
        let l = layout_call(&args, IrType::F64, false);
        assert_eq!(places(&l.args[7]), vec![Place::Fpr(7)]);
        assert_eq!(places(&l.args[8]), vec![Place::Gpr(0)]);
        assert_eq!(places(&l.args[9]), vec![Place::Gpr(1)]);
    }

    #[test]
    fn wide_scalar_splits_between_a7_and_the_stack() {
        let mut args: Vec<ArgDesc> = (0..7).map(|_| scalar(IrType::I64)).collect();
        args.push(scalar(IrType::I128));
        args.push(scalar(IrType::I64));
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(places(&l.args[7]), vec![Place::Gpr(7), Place::Stack(0)]);
        assert_eq!(places(&l.args[8]), vec![Place::Stack(8)]);
        assert_eq!(l.stack_size, 16);
    }

    #[test]
    fn structs_flatten_into_fp_registers_while_both_kinds_remain() {
        let fi = RiscvFloatClass::FloatInt {
            float_double: true,
            int_size: 4,
            int_offset: 8,
        };
        let ff = RiscvFloatClass::TwoFloats {
            lo_double: false,
            hi_double: true,
        };
        let l = layout_call(&[strukt(16, 8, Some(fi)), strukt(16, 8, Some(ff))], IrType::Void, false);
        let ArgLoc::Parts(p) = &l.args[0] else { panic!() };
        assert_eq!((p[0].place, p[0].float), (Place::Fpr(0), Some(IrType::F64)));
        assert_eq!((p[1].place, p[1].offset, p[1].size), (Place::Gpr(0), 8, 4));
        let ArgLoc::Parts(p) = &l.args[1] else { panic!() };
        assert_eq!((p[1].place, p[1].offset), (Place::Fpr(2), 8));
        // No integer register left: float + int follows the integer rules.
        let mut args: Vec<ArgDesc> = (0..8).map(|_| scalar(IrType::I64)).collect();
        args.push(strukt(16, 8, Some(fi)));
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(places(&l.args[8]), vec![Place::Stack(0)]);
    }

    #[test]
    fn integer_structs_by_size_and_big_ones_by_reference() {
        let mut args = vec![strukt(12, 4, None), strukt(24, 8, None)];
        args.extend((0..4).map(|_| scalar(IrType::I64)));
        args.push(strukt(16, 8, None));
        let l = layout_call(&args, IrType::Void, false);
        assert_eq!(places(&l.args[0]), vec![Place::Gpr(0), Place::Gpr(1)]);
        let ArgLoc::Parts(p) = &l.args[0] else { panic!() };
        assert_eq!(p[1].size, 4);
        assert_eq!(l.args[1], ArgLoc::ByRef(Place::Gpr(2)));
        assert_eq!(places(&l.args[6]), vec![Place::Gpr(7), Place::Stack(0)]);
    }

    #[test]
    fn struct_returns() {
        let one = RiscvFloatClass::OneFloat { is_double: false };
        let l = layout_call(&[strukt(4, 4, Some(one)), scalar(IrType::I32)], IrType::Void, true);
        assert_eq!(l.args[0], ArgLoc::Ignored);
        assert_eq!(places(&l.args[1]), vec![Place::Gpr(0)]);
        assert!(matches!(l.ret, RetLoc::Parts(ref p) if p[0].place == Place::Fpr(0)));
        let l = layout_call(&[strukt(32, 8, None), scalar(IrType::I32)], IrType::Void, true);
        assert_eq!(l.ret, RetLoc::SretMemory);
        assert_eq!(places(&l.args[0]), vec![Place::Gpr(0)]);
        assert_eq!(places(&l.args[1]), vec![Place::Gpr(1)]);
    }
}
