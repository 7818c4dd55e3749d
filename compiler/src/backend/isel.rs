//! Instruction selection that is the same on every target: the dispatch of
//! one IR instruction to the target's emitter method, the prescan of a
//! function (second return registers, inline asm), the branches that leave
//! a block (falling through to the next block where possible), and small
//! facts every emitter asks (which compares are signed, which atomic sizes
//! exist, the memory image of a constant).
//!
//! The targets follow QBE's split (`isel.c` per target, one driver): the
//! match over [`Instruction`] is written once here, in
//! [`select_instruction!`](crate::backend::isel::select_instruction), and a
//! target supplies the ISA leaves as methods of its function emitter with the
//! names and parameters the macro calls. A macro rather than a generic
//! function, because each target's leaves are inherent methods spread over
//! its files (`ops.rs`, `memory.rs`, ...), which one trait impl could not
//! gather without a forwarding method for each. The common base of every
//! function emitter ([`EmitterBase`]) is a trait: its errors and checks need
//! only the function.

use super::asm_template::AsmError;
use super::{data, BackendError, LongDoubleFormat};
use crate::ir::constants::IrConst;
use crate::ir::instruction::InlineAsm;
use crate::ir::instruction::{BlockId, Instruction, Operand};
use crate::ir::intrinsics::IntrinsicOp;
use crate::ir::module::IrFunction;
use crate::ir::ops::IrCmpOp;
use crate::ir::types::IrType;
use rustc_hash::FxHashMap;

/// What every target's function emitter shares: the function it emits, and
/// the errors and checks that need nothing else.
pub(crate) trait EmitterBase {
    /// How the target stores `long double` (the image of its constants).
    const LONG_DOUBLE: LongDoubleFormat;

    /// A memory operand of the target.
    type Mem;

    /// Where the target keeps a parameter's value.
    type ParamHome: Copy;

    /// The function being emitted.
    fn function(&self) -> &IrFunction;

    /// The memory operand of locals-area offset `off`.
    fn area(&self, off: u32) -> Self::Mem;

    /// The locals-area offsets of the scratch area and the second-return
    /// area, each only when some code of the function uses it.
    fn reserved_areas(&self) -> (Option<u32>, Option<u32>);

    /// Where each parameter's value is kept.
    fn param_homes(&self) -> &[Self::ParamHome];

    /// The scratch area (the address of a parameter that is not passed,
    /// the target's staging of constants).
    fn scratch_area(&self) -> Result<Self::Mem, BackendError> {
        match self.reserved_areas().0 {
            Some(off) => Ok(self.area(off)),
            None => Err(self.internal("the scratch area was not reserved")),
        }
    }

    /// The area of second return values.
    fn ret2_area(&self) -> Result<Self::Mem, BackendError> {
        match self.reserved_areas().1 {
            Some(off) => Ok(self.area(off)),
            None => Err(self.internal("the second-return area was not reserved")),
        }
    }

    /// Where parameter `i` is kept.
    fn param_home(&self, i: usize) -> Result<Self::ParamHome, BackendError> {
        let homes = self.param_homes();
        homes
            .get(i)
            .copied()
            .ok_or_else(|| self.internal(format!("paramref {i} of a function with {} parameters", homes.len())))
    }

    /// The integer value of constant `c` as a `ty`, extended to 64 bits by
    /// `signed` ([`data::const_i64`]).
    fn const_i64(c: &IrConst, ty: IrType, signed: bool) -> i64 {
        data::const_i64(c, ty, signed)
    }

    /// The low and high 8-byte words of constant `c` stored as a `ty`
    /// ([`data::const_words`]).
    fn const_words(c: &IrConst, ty: IrType) -> [u64; 2] {
        data::const_words(c, ty, Self::LONG_DOUBLE)
    }

    /// The `(offset, size, value)` pieces a store of constant `c` as a
    /// `ty` writes ([`data::const_pieces`]).
    fn const_pieces(c: &IrConst, ty: IrType) -> Vec<(usize, usize, u64)> {
        data::const_pieces(c, ty, Self::LONG_DOUBLE)
    }

    /// A broken invariant of the IR in this function (an internal compiler error).
    fn internal(&self, message: impl Into<String>) -> BackendError {
        BackendError::internal(&self.function().name, message)
    }

    /// Input in this function that the backend cannot compile (a diagnostic).
    fn unsupported(&self, message: impl Into<String>) -> BackendError {
        BackendError::unsupported(&self.function().name, message)
    }

    /// An inline-asm error: the program's unless `e` says it is internal.
    fn asm_err(&self, e: impl Into<AsmError>) -> BackendError {
        BackendError::inline_asm(&self.function().name, e.into())
    }

    /// Argument `i` of intrinsic `op` (a missing one is an internal error).
    fn intrinsic_arg(&self, op: IntrinsicOp, args: &[Operand], i: usize) -> Result<Operand, BackendError> {
        args.get(i)
            .copied()
            .ok_or_else(|| self.internal(format!("intrinsic {} needs an argument", op.name())))
    }

    /// The access size of an atomic operation on `ty`: 1, 2, 4 or 8 bytes
    /// (what all three targets do lock-free), else a diagnostic.
    fn atomic_size(&self, ty: IrType) -> Result<usize, BackendError> {
        match ty.size() {
            1 | 2 | 4 | 8 => Ok(ty.size()),
            _ => Err(self.unsupported(format!("atomic operation on {ty} (only 1, 2, 4 and 8 bytes)"))),
        }
    }
}

/// Whether the comparison reads its operands as signed.
pub(crate) fn cmp_is_signed(op: IrCmpOp, ty: IrType) -> bool {
    match op {
        IrCmpOp::Slt | IrCmpOp::Sle | IrCmpOp::Sgt | IrCmpOp::Sge => true,
        IrCmpOp::Ult | IrCmpOp::Ule | IrCmpOp::Ugt | IrCmpOp::Uge => false,
        IrCmpOp::Eq | IrCmpOp::Ne => ty.is_signed(),
    }
}

/// Which second return register a call's result is read from afterwards,
/// or a function sets before it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SecondReturn {
    F32,
    F64,
    F128,
}

/// What a target learns from one walk over a function before emitting it.
#[derive(Debug, Default)]
pub(crate) struct Prescan {
    /// Calls followed by a `getret*second`, by (block index, instruction
    /// index), with the register it reads.
    pub second_returns: FxHashMap<(usize, usize), SecondReturn>,
    /// The second return register this function sets (`setret*second`).
    pub sets_second: Option<SecondReturn>,
    /// The most outputs of any inline asm.
    pub max_asm_outputs: usize,
}

/// Walks `f` in layout order, calling `each_asm` for every inline asm and
/// `check` for every instruction first (a target rejects what it cannot
/// compile there), and records the second-return facts.
pub(crate) fn prescan(
    f: &IrFunction,
    mut check: impl FnMut(&Instruction) -> Result<(), BackendError>,
    mut each_asm: impl FnMut(&InlineAsm) -> Result<(), BackendError>,
) -> Result<Prescan, BackendError> {
    let mut p = Prescan::default();
    for (bi, b) in f.blocks.iter().enumerate() {
        let mut last_call = None;
        for (ii, inst) in b.instructions.iter().enumerate() {
            check(inst)?;
            let read = match inst {
                Instruction::InlineAsm(asm) => {
                    p.max_asm_outputs = p.max_asm_outputs.max(asm.outputs.len());
                    each_asm(asm)?;
                    None
                }
                Instruction::Call { .. } | Instruction::CallIndirect { .. } => {
                    last_call = Some((bi, ii));
                    None
                }
                Instruction::GetReturnF32Second { .. } => Some(SecondReturn::F32),
                Instruction::GetReturnF64Second { .. } => Some(SecondReturn::F64),
                Instruction::GetReturnF128Second { .. } => Some(SecondReturn::F128),
                Instruction::SetReturnF32Second { .. } => {
                    p.sets_second = Some(SecondReturn::F32);
                    None
                }
                Instruction::SetReturnF64Second { .. } => {
                    p.sets_second = Some(SecondReturn::F64);
                    None
                }
                Instruction::SetReturnF128Second { .. } => {
                    p.sets_second = Some(SecondReturn::F128);
                    None
                }
                _ => None,
            };
            if let (Some(kind), Some(c)) = (read, last_call) {
                p.second_returns.insert(c, kind);
            }
        }
    }
    Ok(p)
}

/// How a target branches to blocks: the leaves of [`two_way`] and [`goto`].
pub(crate) trait BlockBranches {
    /// A branch condition: a flags condition code, or a register test.
    type Cond: Copy;
    /// An unconditional branch to `b`.
    fn jump_to(&mut self, b: BlockId);
    /// A branch to `b`, taken when `cond` holds.
    fn branch_to(&mut self, cond: Self::Cond, b: BlockId);
    /// Where a branch to `b` may go instead: past blocks that emit nothing
    /// but a jump ([`FrameLayout::branch_target`](super::frame::FrameLayout::branch_target)).
    fn branch_target(&self, b: BlockId) -> BlockId;
}

/// Leaves a block for `b`: a branch, unless `b` is the block laid out
/// next (`next`), which the code falls through to. A branch to a block that
/// emits only a jump goes to where that jump leads.
pub(crate) fn goto<E: BlockBranches>(e: &mut E, b: BlockId, next: Option<BlockId>) {
    let b = e.branch_target(b);
    if next != Some(b) {
        e.jump_to(b);
    }
}

/// Leaves a block for `t` when `cond` holds (`inverse` is its negation),
/// else for `f`, with one branch fewer when either is the next block, and
/// none but a jump when both lead to the same block.
pub(crate) fn two_way<E: BlockBranches>(
    e: &mut E,
    cond: E::Cond,
    inverse: E::Cond,
    t: BlockId,
    f: BlockId,
    next: Option<BlockId>,
) {
    let (t, f) = (e.branch_target(t), e.branch_target(f));
    if t == f {
        // Both ways lead to one block (past empty trampolines): no test.
        goto(e, t, next);
    } else if next == Some(t) {
        e.branch_to(inverse, f);
    } else {
        e.branch_to(cond, t);
        goto(e, f, next);
    }
}

/// Appends each of `items` to `set` that it does not hold yet (keeping the
/// order of first appearance).
pub(crate) fn push_new<T: PartialEq>(set: &mut Vec<T>, items: impl IntoIterator<Item = T>) {
    for x in items {
        if !set.contains(&x) {
            set.push(x);
        }
    }
}

/// Emits the code of one instruction through the target's function emitter
/// `$e` (a `FnEmitter` with a `types: ValueTypes` field and an
/// `inst_index` counter, advanced here) and returns from the enclosing
/// function on error. The target supplies these methods, each returning
/// `Result<(), BackendError>` unless said otherwise:
///
/// - memory: `dyn_alloca(dest, &size, align)`, `load_inst(dest, ptr, ty, seg)`,
///   `store_inst(&val, ptr, ty, seg)` (`seg` the x86 segment override, which
///   other targets ignore), `memcpy(dest, src, size)`, `gep(dest, base, &offset)`,
///   `global_addr(dest, &name)`, `stack_save(dest)`, `stack_restore(ptr)`,
///   `label_addr(dest, label)`;
/// - arithmetic: `binop`, `unop`, `cmp`, `cast`, `select`, `move_value(dest, &src, ty)`,
///   with 128-bit integers routed to `binop_wide(dest, op, &lhs, &rhs)`,
///   `unop_wide(dest, op, &src)` and `long double` to `binop_f128`,
///   `unop_f128` (`is_constant` stays with `unop`), a cast with either
///   side wide ([`wide::is_wide`](crate::backend::wide::is_wide)) to
///   `cast_wide(dest, &src, from, to)`, and a `select` on a constant to
///   `move_value`; a cast from or to `void` is an internal error;
/// - calls: `call(func, func_ptr, &info)`, `param_ref(dest, idx, ty)`,
///   `get_second_return(dest, reg)` and `set_second_return(&src, reg)`
///   (`reg` the type of the second return register named by the instruction);
/// - `va_start`, `va_copy`, `va_arg`, `va_arg_struct(dest, va_list, size,
///   &eightbyte_classes, hfa)`;
/// - atomics: `atomic_rmw(dest, op, ptr, &val, ty, ordering)`,
///   `atomic_cmpxchg(dest, ptr, &expected, &desired, ty, returns_bool)`,
///   `atomic_load(dest, ptr, ty, ordering)`, `atomic_store(ptr, &val,
///   ordering, ty)`, `fence(ordering)` (returns `()`);
/// - `inline_asm(&asm)`, `intrinsic(dest, op, &args)`, and `internal(message)`
///   for the error of a phi left in the IR.
macro_rules! select_instruction {
    ($e:expr, $inst:expr) => {{
        use $crate::ir::instruction::Instruction::*;
        use $crate::ir::ops::IrUnaryOp;
        use $crate::ir::types::IrType;
        match $inst {
            Alloca { .. } => {}
            DynAlloca { dest, size, align } => $e.dyn_alloca(*dest, size, *align)?,
            Load {
                dest,
                ptr,
                ty,
                seg_override,
            } => $e.load_inst(*dest, *ptr, *ty, *seg_override)?,
            Store {
                val,
                ptr,
                ty,
                seg_override,
            } => $e.store_inst(val, *ptr, *ty, *seg_override)?,
            Memcpy { dest, src, size } => $e.memcpy(*dest, *src, *size)?,
            GetElementPtr { dest, base, offset, .. } => $e.gep(*dest, *base, offset)?,
            GlobalAddr { dest, name } => $e.global_addr(*dest, name)?,
            StackSave { dest } => $e.stack_save(*dest)?,
            StackRestore { ptr } => $e.stack_restore(*ptr)?,
            BinOp { dest, op, lhs, rhs, ty } if ty.is_128() => $e.binop_wide(*dest, *op, lhs, rhs)?,
            BinOp { dest, op, lhs, rhs, ty } if *ty == IrType::F128 => $e.binop_f128(*dest, *op, lhs, rhs)?,
            BinOp { dest, op, lhs, rhs, ty } => $e.binop(*dest, *op, lhs, rhs, *ty)?,
            UnaryOp { dest, op, src, ty } if *op != IrUnaryOp::IsConstant && ty.is_128() => {
                $e.unop_wide(*dest, *op, src)?
            }
            UnaryOp { dest, op, src, ty } if *op != IrUnaryOp::IsConstant && *ty == IrType::F128 => {
                $e.unop_f128(*dest, *op, src)?
            }
            UnaryOp { dest, op, src, ty } => $e.unop(*dest, *op, src, *ty)?,
            Cmp { dest, op, lhs, rhs, ty } => $e.cmp(*dest, *op, lhs, rhs, *ty)?,
            Cast { from_ty, to_ty, .. } if *from_ty == IrType::Void || *to_ty == IrType::Void => {
                return Err($e.internal("cast from or to void"))
            }
            Cast {
                dest,
                src,
                from_ty,
                to_ty,
            } if $crate::backend::wide::is_wide(*from_ty) || $crate::backend::wide::is_wide(*to_ty) => {
                $e.cast_wide(*dest, src, *from_ty, *to_ty)?
            }
            Cast {
                dest,
                src,
                from_ty,
                to_ty,
            } => $e.cast(*dest, src, *from_ty, *to_ty)?,
            Copy { dest, src } => {
                let ty = $e.types.of(*dest);
                $e.move_value(*dest, src, ty)?;
            }
            Select {
                dest,
                cond: $crate::ir::instruction::Operand::Const(c),
                true_val,
                false_val,
                ty,
            } => $e.move_value(*dest, if c.is_nonzero() { true_val } else { false_val }, *ty)?,
            Select {
                dest,
                cond,
                true_val,
                false_val,
                ty,
            } => $e.select(*dest, cond, true_val, false_val, *ty)?,
            Call { func, info } => $e.call(Some(func), None, info)?,
            CallIndirect { func_ptr, info } => $e.call(None, Some(func_ptr), info)?,
            VaStart { va_list_ptr } => $e.va_start(*va_list_ptr)?,
            VaEnd { .. } => {}
            VaCopy { dest_ptr, src_ptr } => $e.va_copy(*dest_ptr, *src_ptr)?,
            VaArg {
                dest,
                va_list_ptr,
                result_ty,
            } => $e.va_arg(*dest, *va_list_ptr, *result_ty)?,
            VaArgStruct {
                dest_ptr,
                va_list_ptr,
                size,
                eightbyte_classes,
                hfa,
            } => $e.va_arg_struct(*dest_ptr, *va_list_ptr, *size, eightbyte_classes, *hfa)?,
            AtomicRmw {
                dest,
                op,
                ptr,
                val,
                ordering,
                ty,
            } => $e.atomic_rmw(*dest, *op, *ptr, val, *ty, *ordering)?,
            AtomicCmpxchg {
                dest,
                ptr,
                expected,
                desired,
                ty,
                returns_bool,
                ..
            } => $e.atomic_cmpxchg(*dest, *ptr, expected, desired, *ty, *returns_bool)?,
            AtomicLoad {
                dest,
                ptr,
                ordering,
                ty,
            } => $e.atomic_load(*dest, *ptr, *ty, *ordering)?,
            AtomicStore { ptr, val, ordering, ty } => $e.atomic_store(*ptr, val, *ordering, *ty)?,
            Fence { ordering } => $e.fence(*ordering),
            Phi { .. } => return Err($e.internal("phi in the backend (phi elimination has not run)")),
            ParamRef { dest, param_idx, ty } => $e.param_ref(*dest, *param_idx, *ty)?,
            GetReturnF64Second { dest } => $e.get_second_return(*dest, IrType::F64)?,
            GetReturnF32Second { dest } => $e.get_second_return(*dest, IrType::F32)?,
            GetReturnF128Second { dest } => $e.get_second_return(*dest, IrType::F128)?,
            SetReturnF64Second { src } => $e.set_second_return(src, IrType::F64)?,
            SetReturnF32Second { src } => $e.set_second_return(src, IrType::F32)?,
            SetReturnF128Second { src } => $e.set_second_return(src, IrType::F128)?,
            InlineAsm(asm) => $e.inline_asm(asm)?,
            Intrinsic { dest, op, args, .. } => $e.intrinsic(*dest, *op, args)?,
            LabelAddr { dest, label } => $e.label_addr(*dest, *label)?,
        }
        $e.inst_index += 1;
    }};
}
pub(crate) use select_instruction;
