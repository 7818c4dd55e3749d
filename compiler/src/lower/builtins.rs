//! GNU builtins (gcc manual, "Other Builtins", "Integer Overflow Builtins",
//! "__atomic Builtins", "__sync Builtins") and `va_*` (C11 7.16).
//!
//! Argument conventions are hir's (`hir::Builtin`). Memory orders are folded
//! constants (`__ATOMIC_RELAXED` = 0 ... `__ATOMIC_SEQ_CST` = 5; consume is
//! treated as acquire; anything not constant as seq_cst). The overflow
//! builtins compute in 128 bits and compare the truncated result with the
//! exact one, which is exact for operands of up to 64 bits.

use super::expr::RValue;
use super::function::FnLower;
use super::repr::Repr;
use super::LResult;
use crate::frontend::hir::{Builtin, Expr, ExprKind};
use crate::frontend::source::Diagnostic;
use crate::frontend::types::CType;
use crate::ir::constants::IrConst;
use crate::ir::instruction::{CallInfo, Instruction, Operand, Terminator, Value};
use crate::ir::intrinsics::IntrinsicOp;
use crate::ir::ops::{AtomicOrdering, AtomicRmwOp, IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::IrType;

fn ordering(e: Option<&Expr>) -> AtomicOrdering {
    match e.map(|e| &e.kind) {
        Some(ExprKind::Int(0)) => AtomicOrdering::Relaxed,
        Some(ExprKind::Int(1 | 2)) => AtomicOrdering::Acquire,
        Some(ExprKind::Int(3)) => AtomicOrdering::Release,
        Some(ExprKind::Int(4)) => AtomicOrdering::AcqRel,
        _ => AtomicOrdering::SeqCst,
    }
}

impl FnLower<'_, '_> {
    fn arg<'e>(&self, e: &Expr, args: &'e [Expr], i: usize) -> LResult<&'e Expr> {
        args.get(i)
            .ok_or_else(|| Diagnostic::error(e.span, "too few arguments to builtin"))
    }

    fn arg_ptr(&mut self, e: &Expr, args: &[Expr], i: usize) -> LResult<Value> {
        let a = self.arg(e, args, i)?;
        let v = self.scalar(a)?;
        Ok(self.b.as_value(v))
    }

    /// The IR type of the object a pointer argument points to.
    fn pointee(&self, e: &Expr, args: &[Expr], i: usize) -> LResult<IrType> {
        let a = self.arg(e, args, i)?;
        match &*a.ty.ty {
            CType::Pointer(q) => self.ir(&q.ty, a.span),
            _ => Err(Diagnostic::error(a.span, "argument is not a pointer")),
        }
    }

    fn result_as(&mut self, v: Operand, from: IrType, e: &Expr) -> LResult<RValue> {
        match self.repr(&e.ty.ty, e.span)? {
            Repr::Scalar(t) => Ok(RValue::Scalar(self.int_resize(v, from, t))),
            _ => Ok(RValue::Void),
        }
    }

    pub(super) fn builtin(&mut self, e: &Expr, b: Builtin, args: &[Expr]) -> LResult<RValue> {
        match b {
            Builtin::VaStart => {
                let p = self.arg_ptr(e, args, 0)?;
                self.b.emit(Instruction::VaStart { va_list_ptr: p });
                Ok(RValue::Void)
            }
            Builtin::VaEnd => {
                let p = self.arg_ptr(e, args, 0)?;
                self.b.emit(Instruction::VaEnd { va_list_ptr: p });
                Ok(RValue::Void)
            }
            Builtin::VaCopy => {
                let d = self.arg_ptr(e, args, 0)?;
                let s = self.arg_ptr(e, args, 1)?;
                self.b.emit(Instruction::VaCopy {
                    dest_ptr: d,
                    src_ptr: s,
                });
                Ok(RValue::Void)
            }
            Builtin::Expect => {
                let v = self.expr(self.arg(e, args, 0)?)?;
                for a in args.iter().skip(1) {
                    self.effect(a)?;
                }
                Ok(v)
            }
            Builtin::Unreachable => {
                self.b.terminate(Terminator::Unreachable);
                Ok(RValue::Void)
            }
            Builtin::Trap => {
                self.cx.use_runtime("abort", IrType::Void, &[]);
                self.b.call(
                    "abort",
                    CallInfo {
                        return_type: IrType::Void,
                        ..CallInfo::default()
                    },
                );
                self.b.terminate(Terminator::Unreachable);
                Ok(RValue::Void)
            }
            Builtin::Alloca => {
                let a = self.arg(e, args, 0)?;
                let t = self.ir(&a.ty.ty, a.span)?;
                let n = self.scalar(a)?;
                let size = self.int_resize(n, t, IrType::U64);
                let dest = self.b.value();
                self.b.emit(Instruction::DynAlloca { dest, size, align: 16 });
                Ok(RValue::Scalar(dest.into()))
            }
            Builtin::Bswap16 | Builtin::Bswap32 | Builtin::Bswap64 => {
                let ty = match b {
                    Builtin::Bswap16 => IrType::U16,
                    Builtin::Bswap32 => IrType::U32,
                    _ => IrType::U64,
                };
                let a = self.arg(e, args, 0)?;
                let at = self.ir(&a.ty.ty, a.span)?;
                let v = self.scalar(a)?;
                let v = self.int_resize(v, at, ty);
                let r = self.b.unop(IrUnaryOp::Bswap, ty, v);
                self.result_as(r.into(), ty, e)
            }
            Builtin::Clz | Builtin::Ctz | Builtin::Popcount | Builtin::Parity | Builtin::Ffs => {
                let a = self.arg(e, args, 0)?;
                let ty = self.ir(&a.ty.ty, a.span)?;
                let v = self.scalar(a)?;
                let r: Operand = match b {
                    Builtin::Clz => self.b.unop(IrUnaryOp::Clz, ty, v).into(),
                    Builtin::Ctz => self.b.unop(IrUnaryOp::Ctz, ty, v).into(),
                    Builtin::Popcount => self.b.unop(IrUnaryOp::Popcount, ty, v).into(),
                    Builtin::Parity => {
                        let p = self.b.unop(IrUnaryOp::Popcount, ty, v);
                        self.b
                            .binop(IrBinOp::And, ty, p.into(), Operand::Const(IrConst::one(ty)))
                            .into()
                    }
                    _ => {
                        // ffs(x) = x == 0 ? 0 : ctz(x) + 1
                        let c = self.b.unop(IrUnaryOp::Ctz, ty, v);
                        let c1 = self
                            .b
                            .binop(IrBinOp::Add, ty, c.into(), Operand::Const(IrConst::one(ty)));
                        let z = self.b.cmp(IrCmpOp::Eq, ty, v, Operand::Const(IrConst::zero(ty)));
                        let dest = self.b.value();
                        self.b.emit(Instruction::Select {
                            dest,
                            cond: z.into(),
                            true_val: Operand::Const(IrConst::zero(ty)),
                            false_val: c1.into(),
                            ty,
                        });
                        dest.into()
                    }
                };
                self.result_as(r, ty, e)
            }
            Builtin::AddOverflow | Builtin::SubOverflow | Builtin::MulOverflow => self.overflow(e, b, args),
            Builtin::FrameAddress | Builtin::ReturnAddress => {
                for a in args {
                    self.effect(a)?;
                }
                let dest = self.b.value();
                let op = if b == Builtin::FrameAddress {
                    IntrinsicOp::FrameAddress
                } else {
                    IntrinsicOp::ReturnAddress
                };
                self.b.emit(Instruction::Intrinsic {
                    dest: Some(dest),
                    op,
                    dest_ptr: None,
                    args: Vec::new(),
                });
                Ok(RValue::Scalar(dest.into()))
            }
            Builtin::Fence => {
                let ord = ordering(args.first());
                self.b.emit(Instruction::Fence { ordering: ord });
                Ok(RValue::Void)
            }
            Builtin::AtomicLoad => {
                let ty = self.pointee(e, args, 0)?;
                let p = self.arg_ptr(e, args, 0)?;
                let dest = self.b.value();
                self.b.emit(Instruction::AtomicLoad {
                    dest,
                    ptr: p,
                    ordering: ordering(args.get(1)),
                    ty,
                });
                self.result_as(dest.into(), ty, e)
            }
            Builtin::AtomicStore => {
                let ty = self.pointee(e, args, 0)?;
                let p = self.arg_ptr(e, args, 0)?;
                let v = self.atomic_value(e, args, 1, ty)?;
                self.b.emit(Instruction::AtomicStore {
                    ptr: p,
                    val: v,
                    ordering: ordering(args.get(2)),
                    ty,
                });
                Ok(RValue::Void)
            }
            Builtin::AtomicCompareExchange => self.compare_exchange(e, args),
            _ => self.atomic_rmw(e, b, args),
        }
    }

    /// Argument `i` converted to the atomic object's type.
    fn atomic_value(&mut self, e: &Expr, args: &[Expr], i: usize, ty: IrType) -> LResult<Operand> {
        let a = self.arg(e, args, i)?;
        let at = self.ir(&a.ty.ty, a.span)?;
        let v = self.scalar(a)?;
        Ok(if at.is_float() || ty.is_float() {
            v
        } else {
            self.int_resize(v, at, ty)
        })
    }

    fn atomic_rmw(&mut self, e: &Expr, b: Builtin, args: &[Expr]) -> LResult<RValue> {
        use Builtin::*;
        let (op, fetch_first) = match b {
            AtomicExchange => (AtomicRmwOp::Xchg, true),
            AtomicFetchAdd => (AtomicRmwOp::Add, true),
            AtomicFetchSub => (AtomicRmwOp::Sub, true),
            AtomicFetchAnd => (AtomicRmwOp::And, true),
            AtomicFetchOr => (AtomicRmwOp::Or, true),
            AtomicFetchXor => (AtomicRmwOp::Xor, true),
            AtomicFetchNand => (AtomicRmwOp::Nand, true),
            AtomicAddFetch => (AtomicRmwOp::Add, false),
            AtomicSubFetch => (AtomicRmwOp::Sub, false),
            AtomicAndFetch => (AtomicRmwOp::And, false),
            AtomicOrFetch => (AtomicRmwOp::Or, false),
            AtomicXorFetch => (AtomicRmwOp::Xor, false),
            AtomicNandFetch => (AtomicRmwOp::Nand, false),
            _ => return Err(Diagnostic::error(e.span, "unsupported builtin")),
        };
        let ty = self.pointee(e, args, 0)?;
        let p = self.arg_ptr(e, args, 0)?;
        let v = self.atomic_value(e, args, 1, ty)?;
        let old = self.b.value();
        self.b.emit(Instruction::AtomicRmw {
            dest: old,
            op,
            ptr: p,
            val: v,
            ordering: ordering(args.get(2)),
            ty,
        });
        if fetch_first {
            return self.result_as(old.into(), ty, e);
        }
        let new: Operand = match op {
            AtomicRmwOp::Nand => {
                let a = self.b.binop(IrBinOp::And, ty, old.into(), v);
                self.b.unop(IrUnaryOp::Not, ty, a.into()).into()
            }
            _ => {
                let bop = match op {
                    AtomicRmwOp::Add => IrBinOp::Add,
                    AtomicRmwOp::Sub => IrBinOp::Sub,
                    AtomicRmwOp::And => IrBinOp::And,
                    AtomicRmwOp::Or => IrBinOp::Or,
                    _ => IrBinOp::Xor,
                };
                self.b.binop(bop, ty, old.into(), v).into()
            }
        };
        self.result_as(new, ty, e)
    }

    /// `__atomic_compare_exchange_n(ptr, expected_ptr, desired, weak, success, failure)`:
    /// stores the value found into `*expected_ptr`, returns whether it stored `desired`.
    fn compare_exchange(&mut self, e: &Expr, args: &[Expr]) -> LResult<RValue> {
        let ty = self.pointee(e, args, 0)?;
        let p = self.arg_ptr(e, args, 0)?;
        let expected_ptr = self.arg_ptr(e, args, 1)?;
        let desired = self.atomic_value(e, args, 2, ty)?;
        if let Some(weak) = args.get(3) {
            self.effect(weak)?;
        }
        let expected = self.b.load(ty, expected_ptr);
        let old = self.b.value();
        self.b.emit(Instruction::AtomicCmpxchg {
            dest: old,
            ptr: p,
            expected: expected.into(),
            desired,
            success_ordering: ordering(args.get(4)),
            failure_ordering: ordering(args.get(5)),
            ty,
            returns_bool: false,
        });
        self.b.store(ty, old.into(), expected_ptr);
        let ok = self.b.cmp(IrCmpOp::Eq, ty, old.into(), expected.into());
        self.result_as(ok.into(), IrType::I8, e)
    }

    /// `__builtin_{add,sub,mul}_overflow(a, b, res)`.
    fn overflow(&mut self, e: &Expr, b: Builtin, args: &[Expr]) -> LResult<RValue> {
        let wide = IrType::I128;
        let mut ops = Vec::new();
        for i in 0..2 {
            let a = self.arg(e, args, i)?;
            let t = self.ir(&a.ty.ty, a.span)?;
            let v = self.scalar(a)?;
            ops.push(self.int_resize(v, t, wide));
        }
        let res_ty = self.pointee(e, args, 2)?;
        let res = self.arg_ptr(e, args, 2)?;
        let op = match b {
            Builtin::AddOverflow => IrBinOp::Add,
            Builtin::SubOverflow => IrBinOp::Sub,
            _ => IrBinOp::Mul,
        };
        let exact = self.b.binop(op, wide, ops[0], ops[1]);
        let cut = self.int_resize(exact.into(), wide, res_ty);
        let back = self.int_resize(cut, res_ty, wide);
        let ovf = self.b.cmp(IrCmpOp::Ne, wide, back, exact.into());
        self.b.store(res_ty, cut, res);
        self.result_as(ovf.into(), IrType::I8, e)
    }

    /// `va_arg(ap, T)`.
    pub(super) fn va_arg(&mut self, e: &Expr, ap: &Expr) -> LResult<RValue> {
        let list = if ap.is_lvalue() && matches!(&*ap.ty.ty, CType::VaList) {
            self.place(ap)?.addr
        } else {
            let v = self.scalar(ap)?;
            self.b.as_value(v)
        };
        match self.repr(&e.ty.ty, e.span)? {
            Repr::Scalar(ty) => {
                let dest = self.b.value();
                self.b.emit(Instruction::VaArg {
                    dest,
                    va_list_ptr: list,
                    result_ty: ty,
                });
                Ok(RValue::Scalar(dest.into()))
            }
            Repr::Aggregate { size, align } => {
                let abi = self.cx.types.struct_abi(&e.ty.ty);
                let buf = self.temp_object(size, align);
                self.b.emit(Instruction::VaArgStruct {
                    dest_ptr: buf,
                    va_list_ptr: list,
                    size: size as usize,
                    eightbyte_classes: abi.classes,
                    hfa: abi.hfa,
                });
                Ok(RValue::Agg(buf))
            }
            Repr::Void => Err(Diagnostic::error(e.span, "va_arg of type void")),
        }
    }
}
