//! GCC builtins ("Other Builtins", "__atomic Builtins", "__sync Builtins",
//! "Integer Overflow Builtins" in the gcc manual).
//!
//! Builtins lowering implements become `hir::ExprKind::Builtin` with their
//! arguments converted to gcc's documented parameter types; constant ones
//! are folded here (`__builtin_constant_p`, `__builtin_choose_expr`,
//! `__builtin_inf`, bit operations on constants, `__builtin_object_size`);
//! a few are rewritten into ordinary expressions (`__builtin_isnan`,
//! `__sync_val_compare_and_swap`, ...); and `__builtin_memcpy` and the other
//! library builtins are calls to the C library function of that name.

use super::super::ast;
use super::super::hir::{BinaryOp, Builtin, CastKind, Expr, ExprKind};
use super::super::source::{PResult, Span};
use super::super::types::{ArrayLen, CType, FloatKind, IntKind, QualType, Qualifiers};
use super::binary::is_pure;
use super::expr::mk;
use super::ty::{self, q};
use super::{const_eval, err, Sema};
use crate::binary128::Binary128;
use std::sync::Arc;

/// Library functions gcc knows as builtins: name and signature (return
/// type, then parameter types; `.` for variadic). Letters: v void, i int,
/// u unsigned, l long, L size_t, x long long, p void *, P const void *,
/// s char *, S const char *, d double, f float, D long double.
const LIBRARY: &[(&str, &str)] = &[
    ("memcpy", "p:pPL"),
    ("memmove", "p:pPL"),
    ("memset", "p:piL"),
    ("memcmp", "i:PPL"),
    ("memchr", "p:PiL"),
    ("strlen", "L:S"),
    ("strnlen", "L:SL"),
    ("strcpy", "s:sS"),
    ("strncpy", "s:sSL"),
    ("strcat", "s:sS"),
    ("strncat", "s:sSL"),
    ("strcmp", "i:SS"),
    ("strncmp", "i:SSL"),
    ("strchr", "s:Si"),
    ("strrchr", "s:Si"),
    ("strstr", "s:SS"),
    ("strdup", "s:S"),
    ("printf", "i:S."),
    ("sprintf", "i:sS."),
    ("snprintf", "i:sLS."),
    ("puts", "i:S"),
    ("putchar", "i:i"),
    ("abort", "v:"),
    ("exit", "v:i"),
    ("_exit", "v:i"),
    ("alloca", "p:L"),
    ("malloc", "p:L"),
    ("_setjmp", "i:p"),
    ("longjmp", "v:pi"),
    ("calloc", "p:LL"),
    ("realloc", "p:pL"),
    ("free", "v:p"),
    ("abs", "i:i"),
    ("labs", "l:l"),
    ("llabs", "x:x"),
    ("fabs", "d:d"),
    ("fabsf", "f:f"),
    ("fabsl", "D:D"),
    ("sqrt", "d:d"),
    ("sqrtf", "f:f"),
    ("sqrtl", "D:D"),
    ("floor", "d:d"),
    ("floorf", "f:f"),
    ("ceil", "d:d"),
    ("ceilf", "f:f"),
    ("trunc", "d:d"),
    ("round", "d:d"),
    ("fmod", "d:dd"),
    ("pow", "d:dd"),
    ("exp", "d:d"),
    ("log", "d:d"),
    ("sin", "d:d"),
    ("cos", "d:d"),
    ("copysign", "d:dd"),
    ("copysignf", "f:ff"),
    ("copysignl", "D:DD"),
    ("fmin", "d:dd"),
    ("fminf", "f:ff"),
    ("fminl", "D:DD"),
    ("fmax", "d:dd"),
    ("fmaxf", "f:ff"),
    ("fmaxl", "D:DD"),
];

fn sig_type(c: char) -> QualType {
    let cst = Qualifiers {
        is_const: true,
        ..Default::default()
    };
    match c {
        'v' => ty::void(),
        'i' => ty::int(),
        'u' => ty::int_ty(IntKind::UInt),
        'l' => ty::long(),
        'L' => ty::size_t(),
        'x' => ty::int_ty(IntKind::LongLong),
        'p' => ty::void_ptr(),
        'P' => ty::ptr_to(ty::void().with_quals(cst)),
        's' => ty::ptr_to(ty::int_ty(IntKind::Char)),
        'S' => ty::ptr_to(ty::int_ty(IntKind::Char).with_quals(cst)),
        'd' => ty::float_ty(FloatKind::Double),
        'f' => ty::float_ty(FloatKind::Float),
        _ => ty::float_ty(FloatKind::LongDouble),
    }
}

/// The prototype gcc gives a known library function.
pub(super) fn library_signature(name: &str) -> Option<QualType> {
    let (_, sig) = LIBRARY.iter().find(|(n, _)| *n == name)?;
    let (ret, params) = sig.split_once(':')?;
    let variadic = params.ends_with('.');
    Some(q(CType::Function {
        ret: sig_type(ret.chars().next()?),
        params: params.chars().filter(|&c| c != '.').map(sig_type).collect(),
        variadic,
        prototyped: true,
    }))
}

/// The hidden setjmp buffer behind a `__builtin_setjmp` (glibc's `jmp_buf`
/// is 200 bytes on x86-64, 312 on AArch64 and 344 on RISC-V 64).
const JMP_BUF_BYTES: u64 = 512;

/// Folds a bit builtin on a constant of `bits` bits.
fn fold_bits(b: Builtin, v: i128, bits: u32) -> Option<i128> {
    let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let u = (v as u128) & mask;
    Some(match b {
        Builtin::Clz if u != 0 => (u.leading_zeros() - (128 - bits)) as i128,
        Builtin::Ctz if u != 0 => u.trailing_zeros() as i128,
        Builtin::Popcount => u.count_ones() as i128,
        Builtin::Parity => (u.count_ones() & 1) as i128,
        Builtin::Ffs => {
            if u == 0 {
                0
            } else {
                u.trailing_zeros() as i128 + 1
            }
        }
        Builtin::Bswap16 => (u as u16).swap_bytes() as i128,
        Builtin::Bswap32 => (u as u32).swap_bytes() as i128,
        Builtin::Bswap64 => (u as u64).swap_bytes() as i128,
        _ => return None,
    })
}

impl Sema {
    pub(super) fn nargs(&self, name: &str, args: &[ast::Expr], n: usize, span: Span) -> PResult<()> {
        if args.len() != n {
            return Err(err(
                span,
                format!(
                    "wrong number of arguments to '{name}' (expected {n}, have {})",
                    args.len()
                ),
            ));
        }
        Ok(())
    }

    /// An argument converted to type `t` (as by assignment).
    pub(super) fn arg_as(&mut self, a: &ast::Expr, t: &QualType, name: &str, n: usize) -> PResult<Expr> {
        let v = self.rvalue_of(a)?;
        self.assign_convert(v, t, super::conv::AssignCtx::Arg(n, name.to_string()), a.span)
    }

    pub(super) fn builtin(b: Builtin, args: Vec<Expr>, t: QualType, span: Span) -> Expr {
        mk(ExprKind::Builtin(b, args), t, span)
    }

    /// Evaluates `v` once for several uses: the set-up expression (if a
    /// temporary is needed) and the expression reading the value.
    pub(super) fn reuse(&mut self, v: Expr, span: Span) -> PResult<(Option<Expr>, Expr)> {
        if is_pure(&v) {
            return Ok((None, v));
        }
        let t = v.ty.clone();
        let tmp = self.new_temp(t.clone(), span)?;
        let lhs = mk(ExprKind::Local(tmp), t.clone(), span);
        let set = mk(
            ExprKind::Assign {
                lhs: Box::new(lhs),
                rhs: Box::new(v),
            },
            t.clone(),
            span,
        );
        Ok((Some(set), self.load_local(tmp, t, span)))
    }

    pub(super) fn with_setup(setup: Option<Expr>, e: Expr) -> Expr {
        match setup {
            None => e,
            Some(s) => {
                let (t, span) = (e.ty.clone(), e.span);
                mk(ExprKind::Comma(Box::new(s), Box::new(e)), t, span)
            }
        }
    }

    /// A call to a builtin, or `None` when `name` is not one.
    pub(super) fn builtin_call(&mut self, name: &Arc<str>, args: &[ast::Expr], span: Span) -> PResult<Option<Expr>> {
        let n: &str = name;
        if n.starts_with("__atomic_") || n.starts_with("__sync_") {
            return self.atomic_builtin(n, args, span).map(Some);
        }
        let Some(base) = n.strip_prefix("__builtin_") else {
            return Ok(None);
        };
        if base == "complex" {
            self.nargs(n, args, 2, span)?;
            let re = self.rvalue_of(&args[0])?;
            let im = self.rvalue_of(&args[1])?;
            return self.builtin_complex(re, im, span).map(Some);
        }
        if ["creal", "cimag", "conj"].iter().any(|p| base.starts_with(p)) && args.len() == 1 {
            let v = self.rvalue_of(&args[0])?;
            if let Some(e) = self.complex_builtin(n, v, span)? {
                return Ok(Some(e));
            }
        }
        let e = match base {
            "shuffle" => return self.vector_shuffle(args, span).map(Some),
            "va_start" => {
                if args.is_empty() {
                    return Err(err(span, "too few arguments to '__builtin_va_start'"));
                }
                let f = self.fcx(span)?;
                if !f.is_variadic {
                    return Err(err(span, "'va_start' used in function with fixed arguments"));
                }
                let ap = self.va_list_operand(&args[0], true)?;
                for a in &args[1..] {
                    self.expr(a)?;
                }
                Self::builtin(Builtin::VaStart, vec![ap], ty::void(), span)
            }
            "va_end" => {
                self.nargs(n, args, 1, span)?;
                let ap = self.va_list_operand(&args[0], true)?;
                Self::builtin(Builtin::VaEnd, vec![ap], ty::void(), span)
            }
            "va_copy" => {
                self.nargs(n, args, 2, span)?;
                let d = self.va_list_operand(&args[0], true)?;
                let s = self.va_list_operand(&args[1], true)?;
                Self::builtin(Builtin::VaCopy, vec![d, s], ty::void(), span)
            }
            "expect" | "expect_with_probability" => {
                self.nargs(n, args, if base == "expect" { 2 } else { 3 }, span)?;
                let e = self.arg_as(&args[0], &ty::long(), n, 1)?;
                let c = self.arg_as(&args[1], &ty::long(), n, 2)?;
                if let Some(p) = args.get(2) {
                    self.rvalue_of(p)?;
                }
                if matches!(e.kind, ExprKind::Int(_)) && matches!(c.kind, ExprKind::Int(_)) {
                    e
                } else {
                    Self::builtin(Builtin::Expect, vec![e, c], ty::long(), span)
                }
            }
            "unreachable" => {
                self.nargs(n, args, 0, span)?;
                Self::builtin(Builtin::Unreachable, vec![], ty::void(), span)
            }
            "trap" => {
                self.nargs(n, args, 0, span)?;
                Self::builtin(Builtin::Trap, vec![], ty::void(), span)
            }
            "alloca" => {
                self.nargs(n, args, 1, span)?;
                let s = self.arg_as(&args[0], &ty::size_t(), n, 1)?;
                self.fcx(span)?;
                Self::builtin(Builtin::Alloca, vec![s], ty::void_ptr(), span)
            }
            "bswap16" | "bswap32" | "bswap64" => {
                self.nargs(n, args, 1, span)?;
                let (b, k) = match base {
                    "bswap16" => (Builtin::Bswap16, IntKind::UShort),
                    "bswap32" => (Builtin::Bswap32, IntKind::UInt),
                    _ => (Builtin::Bswap64, IntKind::ULong),
                };
                let t = ty::int_ty(k);
                let v = self.arg_as(&args[0], &t, n, 1)?;
                if let ExprKind::Int(x) = v.kind {
                    if let Some(r) = fold_bits(b, x, (k.size() * 8) as u32) {
                        return Ok(Some(mk(ExprKind::Int(r), t, span)));
                    }
                }
                Self::builtin(b, vec![v], t, span)
            }
            "clz" | "clzl" | "clzll" | "ctz" | "ctzl" | "ctzll" | "popcount" | "popcountl" | "popcountll"
            | "parity" | "parityl" | "parityll" | "ffs" | "ffsl" | "ffsll" | "clrsb" | "clrsbl" | "clrsbll" => {
                self.nargs(n, args, 1, span)?;
                let stem = base.trim_end_matches('l');
                let width = &base[stem.len()..];
                let signed = matches!(stem, "ffs" | "clrsb");
                let k = match (width, signed) {
                    ("", false) => IntKind::UInt,
                    ("", true) => IntKind::Int,
                    ("l", false) => IntKind::ULong,
                    ("l", true) => IntKind::Long,
                    (_, false) => IntKind::ULongLong,
                    (_, true) => IntKind::LongLong,
                };
                let t = ty::int_ty(k);
                let v = self.arg_as(&args[0], &t, n, 1)?;
                let bits = (k.size() * 8) as u32;
                if stem == "clrsb" {
                    return self.clrsb(v, k, span).map(Some);
                }
                let b = match stem {
                    "clz" => Builtin::Clz,
                    "ctz" => Builtin::Ctz,
                    "popcount" => Builtin::Popcount,
                    "parity" => Builtin::Parity,
                    _ => Builtin::Ffs,
                };
                if let ExprKind::Int(x) = v.kind {
                    if let Some(r) = fold_bits(b, x, bits) {
                        return Ok(Some(mk(ExprKind::Int(r), ty::int(), span)));
                    }
                }
                Self::builtin(b, vec![v], ty::int(), span)
            }
            "add_overflow" | "sub_overflow" | "mul_overflow" => {
                self.nargs(n, args, 3, span)?;
                let b = match base {
                    "add_overflow" => Builtin::AddOverflow,
                    "sub_overflow" => Builtin::SubOverflow,
                    _ => Builtin::MulOverflow,
                };
                let a = self.rvalue_of(&args[0])?;
                let c = self.rvalue_of(&args[1])?;
                let r = self.rvalue_of(&args[2])?;
                for x in [&a, &c] {
                    if !matches!(&*x.ty.ty, CType::Int(k) if *k != IntKind::Bool)
                        && !matches!(&*x.ty.ty, CType::Enum(_))
                    {
                        return Err(err(x.span, format!("argument to '{n}' is not an integer")));
                    }
                }
                let ok = matches!(ty::pointee(&r.ty.ty), Some(p) if matches!(&*p.ty, CType::Int(k) if *k != IntKind::Bool) && !p.quals.is_const);
                if !ok {
                    return Err(err(
                        r.span,
                        format!("argument 3 of '{n}' is not a pointer to an integer"),
                    ));
                }
                Self::builtin(b, vec![a, c, r], ty::bool_ty(), span)
            }
            "sadd_overflow" | "saddl_overflow" | "saddll_overflow" | "uadd_overflow" | "uaddl_overflow"
            | "uaddll_overflow" | "ssub_overflow" | "ssubl_overflow" | "ssubll_overflow" | "usub_overflow"
            | "usubl_overflow" | "usubll_overflow" | "smul_overflow" | "smull_overflow" | "smulll_overflow"
            | "umul_overflow" | "umull_overflow" | "umulll_overflow" => {
                self.nargs(n, args, 3, span)?;
                let signed = base.starts_with('s');
                let op = &base[1..4];
                let width = base[4..].trim_end_matches("_overflow");
                let k = match (width, signed) {
                    ("", true) => IntKind::Int,
                    ("", false) => IntKind::UInt,
                    ("l", true) => IntKind::Long,
                    ("l", false) => IntKind::ULong,
                    (_, true) => IntKind::LongLong,
                    (_, false) => IntKind::ULongLong,
                };
                let t = ty::int_ty(k);
                let a = self.arg_as(&args[0], &t, n, 1)?;
                let c = self.arg_as(&args[1], &t, n, 2)?;
                let r = self.arg_as(&args[2], &ty::ptr_to(t), n, 3)?;
                let b = match op {
                    "add" => Builtin::AddOverflow,
                    "sub" => Builtin::SubOverflow,
                    _ => Builtin::MulOverflow,
                };
                Self::builtin(b, vec![a, c, r], ty::bool_ty(), span)
            }
            "frame_address" | "return_address" => {
                self.nargs(n, args, 1, span)?;
                let level = self.const_int(&args[0])?;
                if level < 0 {
                    return Err(err(args[0].span, format!("invalid argument to '__builtin_{base}'")));
                }
                if level > 0 && base == "return_address" && self.target != crate::target::Target::X86_64 {
                    // gcc's AArch64 and RISC-V backends give a null pointer
                    // for the return address of an outer frame.
                    self.fcx(span)?;
                    return Ok(Some(mk(ExprKind::Int(0), ty::void_ptr(), span)));
                }
                if level > 0 && self.target == crate::target::Target::X86_64 {
                    // Walk the frame-pointer chain, as gcc does on x86-64:
                    // each frame's saved %rbp is at 0(%rbp), its return
                    // address at 8(%rbp).
                    self.fcx(span)?;
                    let zero = mk(ExprKind::Int(0), ty::int_ty(IntKind::UInt), span);
                    let mut fp = Self::builtin(Builtin::FrameAddress, vec![zero], ty::void_ptr(), span);
                    let slots = ty::ptr_to(ty::void_ptr());
                    let word = |fp: Expr, i: i128| {
                        let p = mk(ExprKind::Cast(CastKind::PtrToPtr, Box::new(fp)), slots.clone(), span);
                        let p = if i == 0 {
                            p
                        } else {
                            let idx = mk(ExprKind::Int(i), ty::long(), span);
                            mk(
                                ExprKind::PtrAdd {
                                    ptr: Box::new(p),
                                    index: Box::new(idx),
                                    elem_size: 8,
                                },
                                slots.clone(),
                                span,
                            )
                        };
                        let lv = mk(ExprKind::Deref(Box::new(p)), ty::void_ptr(), span);
                        mk(ExprKind::Load(Box::new(lv)), ty::void_ptr(), span)
                    };
                    for _ in 0..level {
                        fp = word(fp, 0);
                    }
                    return Ok(Some(if base == "frame_address" { fp } else { word(fp, 1) }));
                }
                // Levels above 0 of `__builtin_frame_address` on AArch64 and
                // RISC-V would walk frames whose layout phicc does not fix
                // (RISC-V's depends on the variadic save area): an error,
                // never a silently wrong address.
                if level != 0 {
                    return Err(err(
                        args[0].span,
                        format!("'__builtin_{base}' with a nonzero level is not supported on this target"),
                    ));
                }
                let b = if base == "frame_address" {
                    Builtin::FrameAddress
                } else {
                    Builtin::ReturnAddress
                };
                self.fcx(span)?;
                let l = mk(ExprKind::Int(level), ty::int_ty(IntKind::UInt), span);
                Self::builtin(b, vec![l], ty::void_ptr(), span)
            }
            "constant_p" => {
                self.nargs(n, args, 1, span)?;
                let v = self.rvalue_of(&args[0])?;
                let c = matches!(v.kind, ExprKind::Int(_) | ExprKind::Float(_))
                    || matches!(&v.kind, ExprKind::ArrayDecay(s) if matches!(s.kind, ExprKind::Str(_)));
                mk(ExprKind::Int(c as i128), ty::int(), span)
            }
            "choose_expr" => {
                self.nargs(n, args, 3, span)?;
                let c = self.const_int(&args[0])?;
                return self.expr(if c != 0 { &args[1] } else { &args[2] }).map(Some);
            }
            "object_size" | "dynamic_object_size" => {
                self.nargs(n, args, 2, span)?;
                self.rvalue_of(&args[0])?;
                let kind = self.const_int(&args[1])?;
                let v = if kind & 2 == 0 { u64::MAX as i128 } else { 0 };
                mk(ExprKind::Int(v), ty::size_t(), span)
            }
            "assume_aligned" => {
                if args.len() < 2 {
                    return Err(err(span, format!("too few arguments to '{n}'")));
                }
                let p = self.arg_as(&args[0], &ty::void_ptr(), n, 1)?;
                for a in &args[1..] {
                    self.rvalue_of(a)?;
                }
                p
            }
            "prefetch" => {
                let mut acc = mk(ExprKind::Int(0), ty::int(), span);
                for a in args.iter().rev() {
                    let v = self.rvalue_of(a)?;
                    acc = mk(ExprKind::Comma(Box::new(v), Box::new(acc)), ty::int(), span);
                }
                mk(ExprKind::Cast(CastKind::ToVoid, Box::new(acc)), ty::void(), span)
            }
            "inf" | "inff" | "infl" | "huge_val" | "huge_valf" | "huge_vall" | "nan" | "nanf" | "nanl" | "nans"
            | "nansf" | "nansl" => {
                let k = if base.ends_with('f') {
                    FloatKind::Float
                } else if base.ends_with('l') {
                    FloatKind::LongDouble
                } else {
                    FloatKind::Double
                };
                let is_nan = base.starts_with("nan");
                self.nargs(n, args, is_nan as usize, span)?;
                let v = if is_nan { f64::NAN } else { f64::INFINITY };
                mk(ExprKind::Float(Binary128::from_f64(v)), ty::float_ty(k), span)
            }
            "isgreater" | "isgreaterequal" | "isless" | "islessequal" | "islessgreater" | "isunordered" => {
                self.nargs(n, args, 2, span)?;
                let a = self.rvalue_of(&args[0])?;
                let b = self.rvalue_of(&args[1])?;
                if !ty::is_float(&a.ty.ty) && !ty::is_float(&b.ty.ty) {
                    return Err(err(span, format!("non-floating-point arguments in call to '{n}'")));
                }
                if ty::arith(&a.ty.ty, &self.types).is_none() || ty::arith(&b.ty.ty, &self.types).is_none() {
                    return Err(err(span, format!("non-floating-point argument in call to '{n}'")));
                }
                let (a, b, _) = self.usual_arith(a, b);
                let cmp = |op, x: Expr, y: Expr| mk(ExprKind::Binary(op, Box::new(x), Box::new(y)), ty::int(), span);
                match base {
                    "isgreater" => cmp(BinaryOp::Gt, a, b),
                    "isgreaterequal" => cmp(BinaryOp::Ge, a, b),
                    "isless" => cmp(BinaryOp::Lt, a, b),
                    "islessequal" => cmp(BinaryOp::Le, a, b),
                    _ => {
                        let (sa, a) = self.reuse(a, span)?;
                        let (sb, b) = self.reuse(b, span)?;
                        let body = if base == "islessgreater" {
                            mk(
                                ExprKind::LogOr(
                                    Box::new(cmp(BinaryOp::Lt, a.clone(), b.clone())),
                                    Box::new(cmp(BinaryOp::Gt, a, b)),
                                ),
                                ty::int(),
                                span,
                            )
                        } else {
                            mk(
                                ExprKind::LogOr(
                                    Box::new(cmp(BinaryOp::Ne, a.clone(), a)),
                                    Box::new(cmp(BinaryOp::Ne, b.clone(), b)),
                                ),
                                ty::int(),
                                span,
                            )
                        };
                        Self::with_setup(sa, Self::with_setup(sb, body))
                    }
                }
            }
            "isnormal" | "fpclassify" => {
                let nfixed = if base == "fpclassify" { 5 } else { 0 };
                self.nargs(n, args, nfixed + 1, span)?;
                let mut classes = Vec::new();
                for a in &args[..nfixed] {
                    classes.push(self.arg_as(a, &ty::int(), n, classes.len() + 1)?);
                }
                let v = self.rvalue_of(&args[nfixed])?;
                let CType::Float(k) = *v.ty.ty else {
                    return Err(err(
                        args[nfixed].span,
                        format!("non-floating-point argument in call to '{n}'"),
                    ));
                };
                let t = v.ty.clone();
                let (setup, x) = self.reuse(v, span)?;
                let fl = |f: f64| mk(ExprKind::Float(Binary128::from_f64(f)), t.clone(), span);
                let cmp = |op, a: Expr, b: Expr| mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty::int(), span);
                // |x| without a library call.
                let neg = mk(
                    ExprKind::Unary(super::super::hir::UnaryOp::Neg, Box::new(x.clone())),
                    t.clone(),
                    span,
                );
                let abs = mk(
                    ExprKind::Cond(
                        Box::new(cmp(BinaryOp::Lt, x.clone(), fl(0.0))),
                        Box::new(neg),
                        Box::new(x.clone()),
                    ),
                    t.clone(),
                    span,
                );
                // The smallest normal number of the type, 2^emin.
                let emin = const_eval::float_format(k, self.target).emin;
                let min_normal = mk(
                    ExprKind::Float(Binary128(((16383 + emin) as u128) << 112)),
                    t.clone(),
                    span,
                );
                let normal = mk(
                    ExprKind::LogAnd(
                        Box::new(cmp(BinaryOp::Ge, abs.clone(), min_normal.clone())),
                        Box::new(cmp(BinaryOp::Ne, abs.clone(), fl(f64::INFINITY))),
                    ),
                    ty::int(),
                    span,
                );
                let body = if base == "isnormal" {
                    normal
                } else {
                    let [c_nan, c_inf, c_norm, c_sub, c_zero]: [Expr; 5] = classes.try_into().expect("five classes");
                    let cond = |c: Expr, a: Expr, b: Expr| {
                        mk(ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), ty::int(), span)
                    };
                    let zero_or_sub = cond(cmp(BinaryOp::Eq, x.clone(), fl(0.0)), c_zero, c_sub);
                    let norm = cond(cmp(BinaryOp::Ge, abs.clone(), min_normal), c_norm, zero_or_sub);
                    let inf = cond(cmp(BinaryOp::Eq, abs, fl(f64::INFINITY)), c_inf, norm);
                    cond(cmp(BinaryOp::Ne, x.clone(), x), c_nan, inf)
                };
                Self::with_setup(setup, body)
            }
            "signbit" | "signbitf" | "signbitl" | "signbitf128" => {
                self.nargs(n, args, 1, span)?;
                let v = self.rvalue_of(&args[0])?;
                let CType::Float(k) = *v.ty.ty else {
                    return Err(err(
                        args[0].span,
                        format!("non-floating-point argument in call to '{n}'"),
                    ));
                };
                if let ExprKind::Float(f) = v.kind {
                    return Ok(Some(mk(ExprKind::Int(f.is_sign_negative() as i128), ty::int(), span)));
                }
                self.sign_bit(v, k, span)?
            }
            "setjmp" => {
                // gcc's buffer is 5 words; glibc's `jmp_buf` is bigger. The
                // setjmp buffer is a hidden local of this frame (which
                // `__builtin_longjmp` may only return to) and the first word
                // of the caller's buffer points to it.
                self.nargs(n, args, 1, span)?;
                let buf = self.arg_as(&args[0], &ty::void_ptr(), n, 1)?;
                let jb_ty = q(CType::Array {
                    elem: ty::int_ty(IntKind::Char),
                    len: ArrayLen::Fixed(JMP_BUF_BYTES),
                });
                let jb = self.new_local(Arc::from(".jmp_buf"), jb_ty.clone(), 16, false, span)?;
                self.fcx(span)?.calls_builtin_setjmp = true;
                let jb_addr = || {
                    let lv = mk(ExprKind::Local(jb), jb_ty.clone(), span);
                    mk(ExprKind::AddrOf(Box::new(lv)), ty::ptr_to(jb_ty.clone()), span)
                };
                let slot_ty = ty::ptr_to(ty::void_ptr());
                let slot = mk(
                    ExprKind::Deref(Box::new(mk(
                        ExprKind::Cast(CastKind::PtrToPtr, Box::new(buf)),
                        slot_ty,
                        span,
                    ))),
                    ty::void_ptr(),
                    span,
                );
                let link = mk(
                    ExprKind::Assign {
                        lhs: Box::new(slot),
                        rhs: Box::new(mk(
                            ExprKind::Cast(CastKind::PtrToPtr, Box::new(jb_addr())),
                            ty::void_ptr(),
                            span,
                        )),
                    },
                    ty::void_ptr(),
                    span,
                );
                let jb_void = mk(
                    ExprKind::Cast(CastKind::PtrToPtr, Box::new(jb_addr())),
                    ty::void_ptr(),
                    span,
                );
                let call = self.library_call("_setjmp", vec![jb_void], span)?;
                mk(ExprKind::Comma(Box::new(link), Box::new(call)), ty::int(), span)
            }
            "longjmp" => {
                self.nargs(n, args, 2, span)?;
                let buf = self.arg_as(&args[0], &ty::void_ptr(), n, 1)?;
                if self.const_int(&args[1])? != 1 {
                    return Err(err(args[1].span, "'__builtin_longjmp' second argument must be 1"));
                }
                let slot_ty = ty::ptr_to(ty::void_ptr());
                let slot = mk(
                    ExprKind::Deref(Box::new(mk(
                        ExprKind::Cast(CastKind::PtrToPtr, Box::new(buf)),
                        slot_ty,
                        span,
                    ))),
                    ty::void_ptr(),
                    span,
                );
                let jb = mk(ExprKind::Load(Box::new(slot)), ty::void_ptr(), span);
                let one = mk(ExprKind::Int(1), ty::int(), span);
                self.library_call("longjmp", vec![jb, one], span)?
            }
            "classify_type" => {
                // gcc's `enum type_class` of the argument after the default
                // argument promotions (the argument is not evaluated).
                self.nargs(n, args, 1, span)?;
                let v = self.rvalue_of(&args[0])?;
                if ty::is_void(&v.ty.ty) {
                    return Err(err(args[0].span, "invalid use of void expression"));
                }
                let v = self.default_arg_promote(v);
                let class = match &*v.ty.ty {
                    CType::Int(_) | CType::Enum(_) => 1,
                    CType::Pointer(_) => 5,
                    CType::Float(_) => 8,
                    CType::Complex(_) => 9,
                    CType::Record(r) if self.types.records[r.0 as usize].is_union => 13,
                    CType::Record(_) => 12,
                    _ => -1,
                };
                mk(ExprKind::Int(class), ty::int(), span)
            }
            "isnan" | "isinf" | "isinf_sign" | "isfinite" | "isnanf" | "isnanl" | "isinff" | "isinfl" | "finite"
            | "finitef" | "finitel" => {
                self.nargs(n, args, 1, span)?;
                let v = self.rvalue_of(&args[0])?;
                // The typed forms convert their argument (`isinff(float)`).
                let (base, kind) = match base {
                    "isnanf" | "isinff" | "finitef" => (&base[..base.len() - 1], Some(FloatKind::Float)),
                    "isnanl" | "isinfl" | "finitel" => (&base[..base.len() - 1], Some(FloatKind::LongDouble)),
                    "finite" => ("finite", Some(FloatKind::Double)),
                    _ => (base, None),
                };
                let base = if base == "finite" { "isfinite" } else { base };
                let v = match kind {
                    Some(k) if v.ty.ty.is_arithmetic() => self.convert(v, &ty::float_ty(k)),
                    _ => v,
                };
                if !ty::is_float(&v.ty.ty) {
                    return Err(err(
                        args[0].span,
                        format!("non-floating-point argument in call to '{n}'"),
                    ));
                }
                let t = v.ty.clone();
                let (setup, x) = self.reuse(v, span)?;
                let inf = mk(ExprKind::Float(Binary128::from_f64(f64::INFINITY)), t.clone(), span);
                let ninf = mk(ExprKind::Float(Binary128::from_f64(f64::NEG_INFINITY)), t.clone(), span);
                let eq = |a: Expr, b: Expr| {
                    mk(
                        ExprKind::Binary(BinaryOp::Eq, Box::new(a), Box::new(b)),
                        ty::int(),
                        span,
                    )
                };
                let body = match base {
                    "isnan" => mk(
                        ExprKind::Binary(BinaryOp::Ne, Box::new(x.clone()), Box::new(x)),
                        ty::int(),
                        span,
                    ),
                    "isinf" => mk(
                        ExprKind::LogOr(Box::new(eq(x.clone(), inf)), Box::new(eq(x, ninf))),
                        ty::int(),
                        span,
                    ),
                    "isinf_sign" => {
                        let one = mk(ExprKind::Int(1), ty::int(), span);
                        let minus = mk(ExprKind::Int(-1), ty::int(), span);
                        let zero = mk(ExprKind::Int(0), ty::int(), span);
                        let inner = mk(
                            ExprKind::Cond(Box::new(eq(x.clone(), ninf)), Box::new(minus), Box::new(zero)),
                            ty::int(),
                            span,
                        );
                        mk(
                            ExprKind::Cond(Box::new(eq(x, inf)), Box::new(one), Box::new(inner)),
                            ty::int(),
                            span,
                        )
                    }
                    _ => {
                        let diff = mk(
                            ExprKind::Binary(BinaryOp::Sub, Box::new(x.clone()), Box::new(x)),
                            t.clone(),
                            span,
                        );
                        eq(diff, mk(ExprKind::Float(Binary128::ZERO), t, span))
                    }
                };
                Self::with_setup(setup, body)
            }
            _ => {
                if let Some(g) = self.library_function(base, span)? {
                    let gt = self.globals[g.0 as usize].ty.clone();
                    let lv = mk(ExprKind::Global(g), gt, span);
                    let f = self.value(lv)?;
                    return self.finish_call(f, base, args, span).map(Some);
                }
                return Err(err(span, format!("unsupported builtin '{n}'")));
            }
        };
        Ok(Some(e))
    }

    /// A call of the C library function `name` (declared as gcc knows it, or
    /// as the program did) with already converted argument values.
    pub(super) fn library_call(&mut self, name: &str, args: Vec<Expr>, span: Span) -> PResult<Expr> {
        let Some(g) = self.library_function(name, span)? else {
            return Err(err(span, format!("'{name}' is not a function")));
        };
        let gt = self.globals[g.0 as usize].ty.clone();
        let f = self.value(mk(ExprKind::Global(g), gt.clone(), span))?;
        let CType::Function { ret, params, .. } = &*gt.ty else {
            return Err(err(span, format!("'{name}' is not a function")));
        };
        if params.len() > args.len() {
            return Err(err(span, format!("'{name}' is declared with another type")));
        }
        let mut out = Vec::new();
        for (i, a) in args.into_iter().enumerate() {
            out.push(match params.get(i) {
                Some(p) => self.assign_convert(a, p, super::conv::AssignCtx::Arg(i + 1, name.to_string()), span)?,
                None => self.default_arg_promote(a),
            });
        }
        Ok(mk(
            ExprKind::Call {
                callee: Box::new(f),
                fn_ty: ty::unqual(&gt),
                args: out,
            },
            ty::unqual(ret),
            span,
        ))
    }

    /// The sign bit of a floating value, read from the bytes of its value
    /// converted to `double` (conversions keep the sign, also of `-0.0` and
    /// NaNs; the in-memory format of `long double` is the backend's).
    fn sign_bit(&mut self, v: Expr, k: FloatKind, span: Span) -> PResult<Expr> {
        let v = if k == FloatKind::Double {
            v
        } else {
            self.convert(v, &ty::float_ty(FloatKind::Double))
        };
        let byte = 7;
        let t = v.ty.clone();
        let tmp = self.new_temp(t.clone(), span)?;
        let lv = mk(ExprKind::Local(tmp), t.clone(), span);
        let set = mk(
            ExprKind::Assign {
                lhs: Box::new(lv.clone()),
                rhs: Box::new(v),
            },
            t.clone(),
            span,
        );
        let uc = ty::int_ty(IntKind::UChar);
        let addr = mk(ExprKind::AddrOf(Box::new(lv)), ty::ptr_to(t), span);
        let bytes = mk(
            ExprKind::Cast(CastKind::PtrToPtr, Box::new(addr)),
            ty::ptr_to(uc.clone()),
            span,
        );
        let at = mk(
            ExprKind::PtrAdd {
                ptr: Box::new(bytes),
                index: Box::new(mk(ExprKind::Int(byte), ty::long(), span)),
                elem_size: 1,
            },
            ty::ptr_to(uc.clone()),
            span,
        );
        let b = mk(
            ExprKind::Load(Box::new(mk(ExprKind::Deref(Box::new(at)), uc.clone(), span))),
            uc,
            span,
        );
        let b = self.promote(b);
        let seven = mk(ExprKind::Int(7), ty::int(), span);
        let bit = self.mk_binary(BinaryOp::Shr, b, seven, ty::int(), span);
        Ok(mk(ExprKind::Comma(Box::new(set), Box::new(bit)), ty::int(), span))
    }

    /// `__builtin_clrsb`: the number of redundant sign bits,
    /// `clz(x ^ (x >> (w-1))) - 1`, or `w - 1` when that is all of them.
    fn clrsb(&mut self, v: Expr, k: IntKind, span: Span) -> PResult<Expr> {
        let bits = (k.size() * 8) as i128;
        let t = v.ty.clone();
        let (setup, x) = self.reuse(v, span)?;
        let shift = mk(ExprKind::Int(bits - 1), ty::int(), span);
        let sign = self.mk_binary(BinaryOp::Shr, x.clone(), shift, t.clone(), span);
        let y = self.mk_binary(BinaryOp::BitXor, x, sign, t.clone(), span);
        let ut = ty::int_ty(k.to_unsigned());
        let y = self.convert(y, &ut);
        let (setup2, y) = self.reuse(y, span)?;
        let zero = mk(ExprKind::Int(0), ut, span);
        let is_zero = self.mk_binary(BinaryOp::Eq, y.clone(), zero, ty::int(), span);
        let clz = Self::builtin(Builtin::Clz, vec![y], ty::int(), span);
        let one = mk(ExprKind::Int(1), ty::int(), span);
        let clz1 = self.mk_binary(BinaryOp::Sub, clz, one, ty::int(), span);
        let all = mk(ExprKind::Int(bits - 1), ty::int(), span);
        let body = mk(
            ExprKind::Cond(Box::new(is_zero), Box::new(all), Box::new(clz1)),
            ty::int(),
            span,
        );
        Ok(Self::with_setup(setup, Self::with_setup(setup2, body)))
    }
}
