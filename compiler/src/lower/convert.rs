//! Conversions between scalar types (C11 6.3.1 and 6.3.2.3), as sema made
//! them explicit (`hir::CastKind`): integer resizing by the source's
//! signedness, conversion to `_Bool` by comparison with zero (6.3.1.2),
//! integer/floating conversions, and pointer/integer reinterpretation.
//! Casts of constants are folded; casts between IR types of one width and
//! class need no instruction (the IR reads signedness from each
//! instruction's type, not from the value).

use super::function::FnLower;
use super::LResult;
use crate::frontend::hir::{CastKind, Expr};
use crate::frontend::source::Diagnostic;
use crate::ir::constants::IrConst;
use crate::ir::instruction::Operand;
use crate::ir::ops::{IrBinOp, IrCmpOp};
use crate::ir::types::IrType;

/// Whether integer constant `c` of IR type `from` converts to `f64` exactly.
fn int_const_exact_in_f64(c: &IrConst, from: IrType) -> bool {
    let Some(v) = c.to_i128() else { return true };
    let bits = from.bits();
    let v = if from.is_unsigned() && bits < 128 {
        v & ((1i128 << bits) - 1)
    } else {
        v
    };
    let f = if from == IrType::U128 {
        v as u128 as f64
    } else {
        v as f64
    };
    f.is_finite() && f.abs() < 2f64.powi(127) && f as i128 == v
}

impl FnLower<'_, '_> {
    /// Lowers `(to) operand` for a scalar cast; `None` for `(void)`.
    pub fn cast_expr(&mut self, kind: CastKind, operand: &Expr, to: &Expr) -> LResult<Option<Operand>> {
        if kind == CastKind::ToVoid {
            self.effect(operand)?;
            return Ok(None);
        }
        if kind == CastKind::ToBool && super::complex::is_complex(&operand.ty.ty) {
            return self.complex_nonzero(operand).map(Some);
        }
        let from_ty = self.ir(&operand.ty.ty, operand.span)?;
        let to_ty = self.ir(&to.ty.ty, to.span)?;
        let v = self.scalar(operand)?;
        Ok(Some(
            self.convert(kind, v, from_ty, to_ty)
                .map_err(|m| Diagnostic::error(to.span, m))?,
        ))
    }

    /// Converts a value between IR types as `kind` says.
    pub fn convert(&mut self, kind: CastKind, v: Operand, from: IrType, to: IrType) -> Result<Operand, String> {
        Ok(match kind {
            CastKind::ToVoid => v,
            CastKind::ComplexToComplex => return Err("internal: a complex conversion of a scalar".into()),
            CastKind::ToBool => self.bool_of(v, from),
            CastKind::PtrToPtr => v,
            CastKind::BitPrecision(bits) => {
                let width = (to.size() * 8) as u32;
                if from != to || !to.is_integer() || bits == 0 || bits >= width {
                    return Err(format!("invalid {bits}-bit reduction from {from} to {to}"));
                }
                if to.is_signed() {
                    let k = Operand::Const(IrConst::from_i64(i64::from(width - bits), to));
                    let up = self.b.binop(IrBinOp::Shl, to, v, k);
                    self.b.binop(IrBinOp::AShr, to, up.into(), k).into()
                } else {
                    let mask = (u128::MAX >> (128 - bits)) as i128;
                    let m = Operand::Const(IrConst::from_i128(mask, to));
                    self.b.binop(IrBinOp::And, to, v, m).into()
                }
            }
            CastKind::IntToInt | CastKind::IntToPtr | CastKind::PtrToInt => {
                if from.is_float() || to.is_float() {
                    return Err(format!("invalid integer conversion from {from} to {to}"));
                }
                self.int_resize(v, from, to)
            }
            CastKind::IntToFloat | CastKind::FloatToInt | CastKind::FloatToFloat => {
                if from == to {
                    return Ok(v);
                }
                match v {
                    // Constants are f64: an integer that a long double holds
                    // exactly but a double does not is converted at run time.
                    Operand::Const(c)
                        if kind != CastKind::FloatToInt
                            && !(kind == CastKind::IntToFloat
                                && to == IrType::F128
                                && !int_const_exact_in_f64(&c, from)) =>
                    {
                        Operand::Const(c.coerce_to_with_src(to, Some(from)))
                    }
                    v => self.b.cast(from, to, v).into(),
                }
            }
        })
    }

    /// A scalar converted to `_Bool` (`u8` 0 or 1).
    pub fn bool_of(&mut self, v: Operand, from: IrType) -> Operand {
        if let Operand::Const(c) = v {
            return Operand::Const(IrConst::I8(c.is_nonzero() as i8));
        }
        let c = self.b.cmp(IrCmpOp::Ne, from, v, Operand::Const(IrConst::zero(from)));
        // A comparison is an `i8` 0/1: the same bits as a `u8` `_Bool`.
        c.into()
    }

    /// A comparison result (`i8` 0/1) as a C `int`.
    pub fn bool_to_int(&mut self, flag: Operand) -> Operand {
        match flag {
            Operand::Const(c) => Operand::Const(IrConst::I32(c.is_nonzero() as i32)),
            v => self.b.cast(IrType::I8, IrType::I32, v).into(),
        }
    }
}
