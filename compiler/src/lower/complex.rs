//! `_Complex` values (C11 6.2.5p11, G.5.1) and GNU complex integers.
//!
//! A complex value is an aggregate (docs/abi.md): two parts in memory, real
//! then imaginary, handled through its address like a record, so loads,
//! stores, copies, arguments and returns are the record paths, classified as
//! an array of two parts (SysV: `_Complex float` one SSE eightbyte,
//! `_Complex double` SSE+SSE; AAPCS64: an HFA of two; LP64D: two FP
//! registers). Arithmetic loads the parts, computes on scalars and stores
//! the result parts into a fresh temporary:
//! * `+ -` and negation part-wise; `~z` (GNU) the conjugate;
//! * `*` and `/` of floating types call libgcc's `__mulXc3`/`__divXc3`
//!   (`X` = s, d, x on x86-64 or t for `long double`), as gcc -O0 does
//!   (C11 Annex G's infinities and NaNs); their two-part result comes back
//!   in two FP registers (`GetReturn*Second`) or, for RISC-V's 32-byte
//!   `_Complex long double`, through a hidden result pointer;
//! * integer `*` is `(ac-bd, ad+bc)` and integer `/` is gcc's
//!   `expand_complex_div_wide` (Smith's algorithm in integer arithmetic);
//! * a real operand (sema keeps `z * r`, `r + z` real) is combined with
//!   each part as gcc's front end does;
//! * `==`/`!=` compare both parts; conversion to `_Bool` and conditions
//!   test either part against zero.

use super::expr::{arith_cast_kind, RValue};
use super::function::FnLower;
use super::LResult;
use crate::frontend::hir::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::frontend::source::Diagnostic;
use crate::frontend::types::{Arith, CType, FloatKind};
use crate::ir::constants::IrConst;
use crate::ir::instruction::{BlockId, CallInfo, Instruction, Operand, Value};
use crate::ir::ops::{IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::IrType;
use crate::target::Target;

/// The two parts of a complex value and their IR type.
#[derive(Clone, Copy, Debug)]
pub(super) struct Parts {
    pub re: Operand,
    pub im: Operand,
    pub ty: IrType,
}

pub(super) fn is_complex(t: &CType) -> bool {
    matches!(t, CType::Complex(_))
}

impl FnLower<'_, '_> {
    /// The part type of complex type `t`: its C arithmetic type and IR type.
    fn part_of(&self, t: &CType, span: crate::frontend::source::Span) -> LResult<(Arith, IrType)> {
        let CType::Complex(a) = t else {
            return Err(Diagnostic::error(span, "internal: a complex operation on a real type"));
        };
        let ct = match a {
            Arith::Int(k) => CType::Int(*k),
            Arith::Float(k) => CType::Float(*k),
        };
        Ok((*a, self.ir(&ct, span)?))
    }

    /// The parts of a complex-valued expression.
    pub(super) fn complex_parts(&mut self, e: &Expr) -> LResult<Parts> {
        let (_, ty) = self.part_of(&e.ty.ty, e.span)?;
        if let ExprKind::Complex(re, im) = &e.kind {
            let re = self.scalar(re)?;
            let im = self.scalar(im)?;
            return Ok(Parts { re, im, ty });
        }
        // Read lvalues in place, at their (possibly packed) alignment.
        let (addr, align) = match &e.kind {
            ExprKind::Load(lv) => {
                let p = self.place(lv)?;
                (p.addr, p.align)
            }
            _ => (self.aggregate(e)?, ty.size() as u64),
        };
        let re = self.load_at(addr, align, ty);
        let at = self.b.offset(ty, addr, ty.size() as u64);
        let im = self.load_at(at, align.min(ty.size() as u64), ty);
        Ok(Parts {
            re: re.into(),
            im: im.into(),
            ty,
        })
    }

    /// A fresh complex object holding `p`.
    pub(super) fn make_complex(&mut self, p: Parts) -> RValue {
        let n = p.ty.size() as u64;
        let tmp = self.temp_object(2 * n, n);
        self.b.store(p.ty, p.re, tmp);
        let at = self.b.offset(p.ty, tmp, n);
        self.b.store(p.ty, p.im, at);
        RValue::Agg(tmp)
    }

    /// `ExprKind::Complex(re, im)`.
    pub(super) fn complex_value(&mut self, e: &Expr) -> LResult<RValue> {
        let p = self.complex_parts(e)?;
        Ok(self.make_complex(p))
    }

    /// `CastKind::ComplexToComplex`.
    pub(super) fn complex_cast(&mut self, x: &Expr, to: &Expr) -> LResult<RValue> {
        let p = self.complex_parts(x)?;
        let (_, ty) = self.part_of(&to.ty.ty, to.span)?;
        let err = |m: String| Diagnostic::error(to.span, m);
        let re = self.convert(arith_cast_kind(p.ty, ty), p.re, p.ty, ty).map_err(err)?;
        let im = self.convert(arith_cast_kind(p.ty, ty), p.im, p.ty, ty).map_err(err)?;
        Ok(self.make_complex(Parts { re, im, ty }))
    }

    /// An `i8` flag: whether either part of complex `e` is nonzero.
    pub(super) fn complex_nonzero(&mut self, e: &Expr) -> LResult<Operand> {
        let p = self.complex_parts(e)?;
        let zero = Operand::Const(IrConst::zero(p.ty));
        let a = self.b.cmp(IrCmpOp::Ne, p.ty, p.re, zero);
        let b = self.b.cmp(IrCmpOp::Ne, p.ty, p.im, zero);
        Ok(self.b.binop(IrBinOp::Or, IrType::I8, a.into(), b.into()).into())
    }

    /// `l == r` / `l != r` on complex operands of one type: an `i8` flag.
    pub(super) fn complex_compare(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> LResult<Value> {
        let a = self.complex_parts(l)?;
        let b = self.complex_parts(r)?;
        let (cop, join) = match op {
            BinaryOp::Eq => (IrCmpOp::Eq, IrBinOp::And),
            BinaryOp::Ne => (IrCmpOp::Ne, IrBinOp::Or),
            _ => return Err(Diagnostic::error(l.span, "invalid comparison of complex values")),
        };
        let x = self.b.cmp(cop, a.ty, a.re, b.re);
        let y = self.b.cmp(cop, a.ty, a.im, b.im);
        Ok(self.b.binop(join, IrType::I8, x.into(), y.into()))
    }

    /// Branches on a complex condition.
    pub(super) fn branch_on_complex(&mut self, e: &Expr, t: BlockId, f: BlockId) -> LResult<()> {
        let flag = self.complex_nonzero(e)?;
        self.b.cond_branch(flag, t, f);
        Ok(())
    }

    /// `-z` and `~z` (the conjugate).
    pub(super) fn complex_unary(&mut self, op: UnaryOp, x: &Expr) -> LResult<RValue> {
        let p = self.complex_parts(x)?;
        let re = match op {
            UnaryOp::Neg => self.b.unop(IrUnaryOp::Neg, p.ty, p.re).into(),
            _ => p.re,
        };
        let im = self.b.unop(IrUnaryOp::Neg, p.ty, p.im).into();
        Ok(self.make_complex(Parts { re, im, ty: p.ty }))
    }

    /// `l op r` with a complex result (`+ - * /`); one operand may be real.
    pub(super) fn complex_binary(&mut self, op: BinaryOp, l: &Expr, r: &Expr, e: &Expr) -> LResult<RValue> {
        let (part, ty) = self.part_of(&e.ty.ty, e.span)?;
        let signed = match part {
            Arith::Int(k) => k.is_signed(self.cx.types.target),
            Arith::Float(_) => true,
        };
        let side = |s: &mut Self, x: &Expr| -> LResult<(Operand, Option<Operand>)> {
            if is_complex(&x.ty.ty) {
                let p = s.complex_parts(x)?;
                Ok((p.re, Some(p.im)))
            } else {
                Ok((s.scalar(x)?, None))
            }
        };
        let (a, ai) = side(self, l)?;
        let (c, ci) = side(self, r)?;
        let bin = |s: &mut Self, op: IrBinOp, x: Operand, y: Operand| -> Operand { s.b.binop(op, ty, x, y).into() };
        let div = if signed || ty.is_float() {
            IrBinOp::SDiv
        } else {
            IrBinOp::UDiv
        };
        let (re, im) = match (op, ai, ci) {
            (BinaryOp::Add, Some(b), Some(d)) => (bin(self, IrBinOp::Add, a, c), bin(self, IrBinOp::Add, b, d)),
            (BinaryOp::Sub, Some(b), Some(d)) => (bin(self, IrBinOp::Sub, a, c), bin(self, IrBinOp::Sub, b, d)),
            (BinaryOp::Add, Some(b), None) => (bin(self, IrBinOp::Add, a, c), b),
            (BinaryOp::Sub, Some(b), None) => (bin(self, IrBinOp::Sub, a, c), b),
            (BinaryOp::Add, None, Some(d)) => (bin(self, IrBinOp::Add, a, c), d),
            (BinaryOp::Sub, None, Some(d)) => {
                (bin(self, IrBinOp::Sub, a, c), self.b.unop(IrUnaryOp::Neg, ty, d).into())
            }
            (BinaryOp::Mul, Some(b), None) => (bin(self, IrBinOp::Mul, a, c), bin(self, IrBinOp::Mul, b, c)),
            (BinaryOp::Mul, None, Some(d)) => (bin(self, IrBinOp::Mul, a, c), bin(self, IrBinOp::Mul, a, d)),
            (BinaryOp::Div, Some(b), None) => (bin(self, div, a, c), bin(self, div, b, c)),
            (BinaryOp::Mul | BinaryOp::Div, Some(b), Some(d)) => match part {
                Arith::Float(k) => return self.complex_libcall(op, k, ty, [a, b, c, d], e),
                Arith::Int(_) if op == BinaryOp::Mul => {
                    let ac = bin(self, IrBinOp::Mul, a, c);
                    let bd = bin(self, IrBinOp::Mul, b, d);
                    let ad = bin(self, IrBinOp::Mul, a, d);
                    let bc = bin(self, IrBinOp::Mul, b, c);
                    (bin(self, IrBinOp::Sub, ac, bd), bin(self, IrBinOp::Add, ad, bc))
                }
                Arith::Int(_) => return Ok(self.complex_int_div(ty, signed, [a, b, c, d])),
            },
            _ => return Err(Diagnostic::error(e.span, "invalid operands to a complex operation")),
        };
        Ok(self.make_complex(Parts { re, im, ty }))
    }

    /// gcc's `expand_complex_div_wide` for integer parts: `(a+bi)/(c+di)`
    /// by Smith's method, choosing the branch on `|c| < |d|`.
    fn complex_int_div(&mut self, ty: IrType, signed: bool, [a, b, c, d]: [Operand; 4]) -> RValue {
        let div = if signed { IrBinOp::SDiv } else { IrBinOp::UDiv };
        let abs = |s: &mut Self, x: Operand| -> Operand {
            if !signed {
                return x;
            }
            // (x ^ m) - m with m = x >> (bits - 1): no branch, no select.
            let bits = Operand::Const(IrConst::from_i64(ty.bits() as i64 - 1, ty));
            let m = s.b.binop(IrBinOp::AShr, ty, x, bits);
            let flipped = s.b.binop(IrBinOp::Xor, ty, x, m.into());
            s.b.binop(IrBinOp::Sub, ty, flipped.into(), m.into()).into()
        };
        let ac = abs(self, c);
        let ad = abs(self, d);
        let lt = if signed { IrCmpOp::Slt } else { IrCmpOp::Ult };
        let cond = self.b.cmp(lt, ty, ac, ad);
        let n = ty.size() as u64;
        let out = self.temp_object(2 * n, n);
        let (small, big, end) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.b.cond_branch(cond.into(), small, big);
        let bin = |s: &mut Self, op: IrBinOp, x: Operand, y: Operand| -> Operand { s.b.binop(op, ty, x, y).into() };
        // |c| < |d|: ratio = c/d; den = c*ratio + d; re = (a*ratio + b)/den; im = (b*ratio - a)/den.
        self.b.start(small);
        let ratio = bin(self, div, c, d);
        let t = bin(self, IrBinOp::Mul, c, ratio);
        let den = bin(self, IrBinOp::Add, t, d);
        let t = bin(self, IrBinOp::Mul, a, ratio);
        let tr = bin(self, IrBinOp::Add, t, b);
        let t = bin(self, IrBinOp::Mul, b, ratio);
        let ti = bin(self, IrBinOp::Sub, t, a);
        let re = bin(self, div, tr, den);
        let im = bin(self, div, ti, den);
        self.store_parts(out, Parts { re, im, ty });
        self.b.branch(end);
        // Otherwise: ratio = d/c; den = d*ratio + c; re = (b*ratio + a)/den; im = (b - a*ratio)/den.
        self.b.start(big);
        let ratio = bin(self, div, d, c);
        let t = bin(self, IrBinOp::Mul, d, ratio);
        let den = bin(self, IrBinOp::Add, t, c);
        let t = bin(self, IrBinOp::Mul, b, ratio);
        let tr = bin(self, IrBinOp::Add, t, a);
        let t = bin(self, IrBinOp::Mul, a, ratio);
        let ti = bin(self, IrBinOp::Sub, b, t);
        let re = bin(self, div, tr, den);
        let im = bin(self, div, ti, den);
        self.store_parts(out, Parts { re, im, ty });
        self.b.branch(end);
        self.b.start(end);
        RValue::Agg(out)
    }

    fn store_parts(&mut self, addr: Value, p: Parts) {
        self.b.store(p.ty, p.re, addr);
        let at = self.b.offset(p.ty, addr, p.ty.size() as u64);
        self.b.store(p.ty, p.im, at);
    }

    /// `__mulXc3(a, b, c, d)` / `__divXc3(a, b, c, d)`: libgcc's C99 Annex G
    /// complex multiplication and division.
    fn complex_libcall(
        &mut self,
        op: BinaryOp,
        k: FloatKind,
        ty: IrType,
        args: [Operand; 4],
        e: &Expr,
    ) -> LResult<RValue> {
        let target = self.cx.types.target;
        let mode = match k {
            FloatKind::Float => "sc3",
            FloatKind::Double => "dc3",
            FloatKind::LongDouble if target == Target::X86_64 => "xc3",
            FloatKind::LongDouble | FloatKind::Float128 => "tc3",
        };
        let name: &'static str = match (op, mode) {
            (BinaryOp::Mul, "sc3") => "__mulsc3",
            (BinaryOp::Mul, "dc3") => "__muldc3",
            (BinaryOp::Mul, "xc3") => "__mulxc3",
            (BinaryOp::Mul, _) => "__multc3",
            (_, "sc3") => "__divsc3",
            (_, "dc3") => "__divdc3",
            (_, "xc3") => "__divxc3",
            _ => "__divtc3",
        };
        if k == FloatKind::Float128 && target == Target::X86_64 {
            return Err(Diagnostic::error(
                e.span,
                "'_Complex __float128' multiplication and division are not supported on x86-64",
            ));
        }
        // RISC-V returns a 32-byte `_Complex long double` through memory.
        if ty == IrType::F128 && target == Target::Riscv64 {
            let abi = self.cx.types.struct_abi(&e.ty.ty);
            let buf = self.temp_object(abi.size, abi.align);
            let mut info = CallInfo {
                dest: None,
                return_type: IrType::Void,
                num_fixed_args: 5,
                is_sret: true,
                ret_eightbyte_classes: abi.classes.clone(),
                ..CallInfo::default()
            };
            info.args.push(buf.into());
            info.arg_types.push(IrType::Ptr);
            info.struct_arg_sizes.push(Some(abi.size as usize));
            info.struct_arg_aligns.push(Some(abi.align as usize));
            info.struct_arg_classes.push(abi.classes.clone());
            info.struct_arg_riscv_float_classes.push(abi.riscv);
            info.struct_arg_hfas.push(abi.hfa);
            for a in args {
                info.args.push(a);
                info.arg_types.push(ty);
                info.struct_arg_sizes.push(None);
                info.struct_arg_aligns.push(None);
                info.struct_arg_classes.push(Vec::new());
                info.struct_arg_riscv_float_classes.push(None);
                info.struct_arg_hfas.push(None);
            }
            self.cx.use_runtime_sret(name, super::struct_param(&abi), &[ty; 4]);
            self.b.call(name, info);
            return Ok(RValue::Agg(buf));
        }
        self.cx.use_runtime(name, ty, &[ty; 4]);
        let re = self.b.value();
        let info = CallInfo {
            dest: Some(re),
            args: args.to_vec(),
            arg_types: vec![ty; 4],
            return_type: ty,
            num_fixed_args: 4,
            ..CallInfo::default()
        };
        self.b.call(name, info);
        let im = self.b.value();
        self.b.emit(match ty {
            IrType::F32 => Instruction::GetReturnF32Second { dest: im },
            IrType::F64 => Instruction::GetReturnF64Second { dest: im },
            _ => Instruction::GetReturnF128Second { dest: im },
        });
        Ok(self.make_complex(Parts {
            re: re.into(),
            im: im.into(),
            ty,
        }))
    }
}
