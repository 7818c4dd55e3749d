//! Function calls (C11 6.5.2.2) with their ABI metadata (docs/abi.md).
//!
//! Arguments are evaluated left to right. A scalar argument is passed at its
//! own IR type; a struct or union argument as the address of its bytes with
//! its size, alignment and the target's classification; a record result
//! through a temporary the caller allocates (`is_sret`, argument 0, carrying
//! the returned struct's metadata). A call names its callee directly when the
//! callee is a function designator whose IR signature takes that many
//! arguments; otherwise (function pointers, or an unprototyped function
//! called with another arity) it calls through the address.

use super::expr::RValue;
use super::function::FnLower;
use super::repr::Repr;
use super::{LResult, StructAbi};
use crate::frontend::hir::{Expr, ExprKind};
use crate::frontend::source::Diagnostic;
use crate::frontend::types::QualType;
use crate::ir::instruction::{CallInfo, Instruction, Operand, Value};
use crate::ir::types::IrType;

/// One lowered argument.
struct Arg {
    value: Operand,
    ty: IrType,
    abi: Option<StructAbi>,
}

impl FnLower<'_, '_> {
    pub(super) fn call(&mut self, e: &Expr, callee: &Expr, fn_ty: &QualType, args: &[Expr]) -> LResult<RValue> {
        self.call_to(e, callee, fn_ty, args, None)
    }

    /// A call whose record result, if any, goes straight into `result_buf`
    /// (a fresh object being initialized: nothing else can see it yet).
    pub(super) fn call_into(&mut self, e: &Expr, result_buf: Value) -> LResult<bool> {
        match &e.kind {
            ExprKind::Call { callee, fn_ty, args } if self.cx.signature(&fn_ty.ty, e.span)?.sret => {
                self.call_to(e, callee, fn_ty, args, Some(result_buf))?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn call_to(
        &mut self,
        e: &Expr,
        callee: &Expr,
        fn_ty: &QualType,
        args: &[Expr],
        result_buf: Option<Value>,
    ) -> LResult<RValue> {
        let sig = self.cx.signature(&fn_ty.ty, e.span)?;
        // A direct callee.
        let direct = match &callee.kind {
            ExprKind::FuncDecay(f) | ExprKind::AddrOf(f) => match &f.kind {
                ExprKind::Global(g) => Some(*g),
                _ => None,
            },
            _ => None,
        };
        let func_ptr: Option<Operand> = match direct {
            Some(_) => None,
            None => Some(self.scalar(callee)?),
        };
        let mut lowered = Vec::with_capacity(args.len() + 1);
        for a in args {
            lowered.push(self.argument(a)?);
        }
        // The result buffer of a record-returning call.
        let mut result = RValue::Void;
        if sig.sret {
            let ret_ty = match &*fn_ty.ty {
                crate::frontend::types::CType::Function { ret, .. } => ret.ty.clone(),
                _ => return Err(Diagnostic::error(e.span, "called object is not a function")),
            };
            let abi = self.cx.types.struct_abi(&ret_ty);
            let buf = match result_buf {
                Some(b) => b,
                None => self.temp_object(abi.size, abi.align),
            };
            result = RValue::Agg(buf);
            lowered.insert(
                0,
                Arg {
                    value: buf.into(),
                    ty: IrType::Ptr,
                    abi: Some(abi),
                },
            );
        }
        let dest = if sig.ret != IrType::Void {
            let d = self.b.value();
            result = RValue::Scalar(d.into());
            Some(d)
        } else {
            None
        };
        let n = lowered.len();
        let mut info = CallInfo {
            dest,
            return_type: sig.ret,
            is_variadic: sig.variadic,
            num_fixed_args: if sig.variadic { sig.params.len().min(n) } else { n },
            is_sret: sig.sret,
            ret_eightbyte_classes: sig.ret_classes.clone(),
            ..CallInfo::default()
        };
        let any_struct = lowered.iter().any(|a| a.abi.is_some());
        for a in lowered {
            info.args.push(a.value);
            info.arg_types.push(a.ty);
            if any_struct {
                let is_struct = a.abi.is_some();
                let abi = a.abi.unwrap_or_default();
                info.struct_arg_sizes.push(is_struct.then_some(abi.size as usize));
                info.struct_arg_aligns.push(is_struct.then_some(abi.align as usize));
                info.struct_arg_classes.push(abi.classes);
                info.struct_arg_riscv_float_classes.push(abi.riscv);
                info.struct_arg_hfas.push(abi.hfa);
            }
        }
        match direct {
            Some(g) => {
                let name = self.cx.use_global(g);
                let decl = self.cx.signature(&self.cx.global(g).ty.ty, e.span)?;
                let arity_ok = if decl.variadic {
                    n >= decl.params.len()
                } else {
                    n == decl.params.len()
                };
                if arity_ok && decl.sret == sig.sret {
                    self.b.call(&name, info);
                } else {
                    let addr = self.b.global_addr(&name);
                    self.b.emit(Instruction::CallIndirect {
                        func_ptr: addr.into(),
                        info: Box::new(info),
                    });
                }
            }
            None => {
                let fp = func_ptr.unwrap_or(Operand::Const(crate::ir::constants::IrConst::I64(0)));
                self.b.emit(Instruction::CallIndirect {
                    func_ptr: fp,
                    info: Box::new(info),
                });
            }
        }
        Ok(result)
    }

    fn argument(&mut self, a: &Expr) -> LResult<Arg> {
        match self.repr(&a.ty.ty, a.span)? {
            Repr::Scalar(ty) => Ok(Arg {
                value: self.scalar(a)?,
                ty,
                abi: None,
            }),
            Repr::Aggregate { .. } if self.cx.va_list_is_array(&a.ty.ty) => Ok(Arg {
                value: self.aggregate(a)?.into(),
                ty: IrType::Ptr,
                abi: None,
            }),
            Repr::Aggregate { .. } => {
                let addr = self.aggregate(a)?;
                Ok(Arg {
                    value: addr.into(),
                    ty: IrType::Ptr,
                    abi: Some(self.cx.types.struct_abi(&a.ty.ty)),
                })
            }
            Repr::Void => Err(Diagnostic::error(a.span, "argument of type void")),
        }
    }
}
