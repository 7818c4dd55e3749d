//! Atomic builtins (gcc manual, "__atomic Builtins" and "Legacy __sync
//! Builtins"): the `_n` forms map to `hir::Builtin::Atomic*` with the memory
//! orders folded to constants (a non-constant order is sequentially
//! consistent); the generic forms that pass values through pointers are
//! rewritten with loads and stores; `__sync_*` use sequential consistency,
//! and the compare-and-swap forms are built on `AtomicCompareExchange` with a
//! temporary holding the expected value.

use super::super::ast;
use super::super::hir::{Builtin, CastKind, Expr, ExprKind};
use super::super::source::{PResult, Span};
use super::super::types::{IntKind, QualType};
use super::expr::mk;
use super::ty::{self, unqual};
use super::{err, Sema};

impl Sema {
    /// The pointer operand of an atomic builtin and the type it points to.
    fn atomic_ptr(&mut self, a: &ast::Expr, name: &str) -> PResult<(Expr, QualType)> {
        let p = self.rvalue_of(a)?;
        let Some(t) = ty::pointee(&p.ty.ty).cloned() else {
            return Err(err(a.span, format!("argument 1 of '{name}' must be a pointer")));
        };
        let size = self.types.size_of(&t.ty).unwrap_or(0);
        let ok =
            (ty::int_kind(&t.ty, &self.types).is_some() || ty::is_pointer(&t.ty)) && matches!(size, 1 | 2 | 4 | 8 | 16);
        if !ok {
            return Err(err(
                a.span,
                format!("argument 1 of '{name}' must be a pointer to an integer or pointer type"),
            ));
        }
        Ok((p, unqual(&t)))
    }

    /// A memory order: a constant (non-constant orders are sequentially consistent).
    fn order(&mut self, a: &ast::Expr) -> PResult<Expr> {
        let v = self.rvalue_of(a)?;
        let n = match v.kind {
            ExprKind::Int(n) if (0..=5).contains(&n) => n,
            _ => 5,
        };
        Ok(mk(ExprKind::Int(n), ty::int(), a.span))
    }

    fn seq_cst(span: Span) -> Expr {
        mk(ExprKind::Int(5), ty::int(), span)
    }

    /// The value operand of an atomic operation on `t` (pointers take integers).
    fn atomic_value(&mut self, a: &ast::Expr, t: &QualType, name: &str, n: usize) -> PResult<Expr> {
        if ty::is_pointer(&t.ty) {
            let v = self.rvalue_of(a)?;
            if ty::int_kind(&v.ty.ty, &self.types).is_some() {
                return Ok(self.convert(v, &ty::long()));
            }
            return self.assign_convert(v, t, super::conv::AssignCtx::Arg(n, name.to_string()), a.span);
        }
        self.arg_as(a, t, name, n)
    }

    pub(super) fn atomic_builtin(&mut self, name: &str, args: &[ast::Expr], span: Span) -> PResult<Expr> {
        let fetch = |op: &str| -> Option<Builtin> {
            Some(match op {
                "fetch_add" => Builtin::AtomicFetchAdd,
                "fetch_sub" => Builtin::AtomicFetchSub,
                "fetch_and" => Builtin::AtomicFetchAnd,
                "fetch_or" => Builtin::AtomicFetchOr,
                "fetch_xor" => Builtin::AtomicFetchXor,
                "fetch_nand" => Builtin::AtomicFetchNand,
                "add_fetch" => Builtin::AtomicAddFetch,
                "sub_fetch" => Builtin::AtomicSubFetch,
                "and_fetch" => Builtin::AtomicAndFetch,
                "or_fetch" => Builtin::AtomicOrFetch,
                "xor_fetch" => Builtin::AtomicXorFetch,
                "nand_fetch" => Builtin::AtomicNandFetch,
                _ => return None,
            })
        };
        if let Some(op) = name.strip_prefix("__atomic_") {
            match op {
                "load_n" => {
                    self.nargs(name, args, 2, span)?;
                    let (p, t) = self.atomic_ptr(&args[0], name)?;
                    let o = self.order(&args[1])?;
                    return Ok(Self::builtin(Builtin::AtomicLoad, vec![p, o], t, span));
                }
                "store_n" => {
                    self.nargs(name, args, 3, span)?;
                    let (p, t) = self.atomic_ptr(&args[0], name)?;
                    let v = self.atomic_value(&args[1], &t, name, 2)?;
                    let o = self.order(&args[2])?;
                    return Ok(Self::builtin(Builtin::AtomicStore, vec![p, v, o], ty::void(), span));
                }
                "exchange_n" => {
                    self.nargs(name, args, 3, span)?;
                    let (p, t) = self.atomic_ptr(&args[0], name)?;
                    let v = self.atomic_value(&args[1], &t, name, 2)?;
                    let o = self.order(&args[2])?;
                    return Ok(Self::builtin(Builtin::AtomicExchange, vec![p, v, o], t, span));
                }
                "compare_exchange_n" => {
                    self.nargs(name, args, 6, span)?;
                    let (p, t) = self.atomic_ptr(&args[0], name)?;
                    let e = self.arg_as(&args[1], &ty::ptr_to(t.clone()), name, 2)?;
                    let d = self.atomic_value(&args[2], &t, name, 3)?;
                    let w = self.arg_as(&args[3], &ty::bool_ty(), name, 4)?;
                    let s = self.order(&args[4])?;
                    let f = self.order(&args[5])?;
                    return Ok(Self::builtin(
                        Builtin::AtomicCompareExchange,
                        vec![p, e, d, w, s, f],
                        ty::bool_ty(),
                        span,
                    ));
                }
                "load" | "store" | "exchange" | "compare_exchange" => {
                    // The generic forms pass values through pointers.
                    let want = match op {
                        "load" | "store" => 3,
                        "exchange" => 4,
                        _ => 6,
                    };
                    self.nargs(name, args, want, span)?;
                    let (p, t) = self.atomic_ptr(&args[0], name)?;
                    let pt = ty::ptr_to(t.clone());
                    let deref_load = |this: &mut Sema, a: &ast::Expr, n: usize| -> PResult<Expr> {
                        let ptr = this.arg_as(a, &pt, name, n)?;
                        let lv = this.deref(ptr, a.span)?;
                        this.value(lv)
                    };
                    return Ok(match op {
                        "load" => {
                            let ret = self.arg_as(&args[1], &pt, name, 2)?;
                            let o = self.order(&args[2])?;
                            let v = Self::builtin(Builtin::AtomicLoad, vec![p, o], t.clone(), span);
                            let lv = self.deref(ret, span)?;
                            mk(
                                ExprKind::Assign {
                                    lhs: Box::new(lv),
                                    rhs: Box::new(v),
                                },
                                t,
                                span,
                            )
                        }
                        "store" => {
                            let v = deref_load(self, &args[1], 2)?;
                            let o = self.order(&args[2])?;
                            Self::builtin(Builtin::AtomicStore, vec![p, v, o], ty::void(), span)
                        }
                        "exchange" => {
                            let v = deref_load(self, &args[1], 2)?;
                            let ret = self.arg_as(&args[2], &pt, name, 3)?;
                            let o = self.order(&args[3])?;
                            let x = Self::builtin(Builtin::AtomicExchange, vec![p, v, o], t.clone(), span);
                            let lv = self.deref(ret, span)?;
                            mk(
                                ExprKind::Assign {
                                    lhs: Box::new(lv),
                                    rhs: Box::new(x),
                                },
                                t,
                                span,
                            )
                        }
                        _ => {
                            let e = self.arg_as(&args[1], &pt, name, 2)?;
                            let d = deref_load(self, &args[2], 3)?;
                            let w = self.arg_as(&args[3], &ty::bool_ty(), name, 4)?;
                            let s = self.order(&args[4])?;
                            let f = self.order(&args[5])?;
                            Self::builtin(
                                Builtin::AtomicCompareExchange,
                                vec![p, e, d, w, s, f],
                                ty::bool_ty(),
                                span,
                            )
                        }
                    });
                }
                "thread_fence" | "signal_fence" => {
                    self.nargs(name, args, 1, span)?;
                    let o = self.order(&args[0])?;
                    return Ok(Self::builtin(Builtin::Fence, vec![o], ty::void(), span));
                }
                "test_and_set" | "clear" => {
                    self.nargs(name, args, 2, span)?;
                    let uc = ty::int_ty(IntKind::UChar);
                    let p = self.rvalue_of(&args[0])?;
                    if !ty::is_pointer(&p.ty.ty) {
                        return Err(err(args[0].span, format!("argument 1 of '{name}' must be a pointer")));
                    }
                    let p = self.convert(p, &ty::ptr_to(uc.clone()));
                    let o = self.order(&args[1])?;
                    if op == "clear" {
                        let zero = mk(ExprKind::Int(0), uc, span);
                        return Ok(Self::builtin(Builtin::AtomicStore, vec![p, zero, o], ty::void(), span));
                    }
                    let one = mk(ExprKind::Int(1), uc.clone(), span);
                    let x = Self::builtin(Builtin::AtomicExchange, vec![p, one, o], uc, span);
                    return Ok(self.convert(x, &ty::bool_ty()));
                }
                "always_lock_free" | "is_lock_free" => {
                    self.nargs(name, args, 2, span)?;
                    let size = self.const_int(&args[0])?;
                    self.rvalue_of(&args[1])?;
                    let v = matches!(size, 1 | 2 | 4 | 8);
                    return Ok(mk(ExprKind::Int(v as i128), ty::bool_ty(), span));
                }
                _ => {
                    if let Some(b) = fetch(op) {
                        self.nargs(name, args, 3, span)?;
                        let (p, t) = self.atomic_ptr(&args[0], name)?;
                        let v = self.atomic_value(&args[1], &t, name, 2)?;
                        let o = self.order(&args[2])?;
                        return Ok(Self::builtin(b, vec![p, v, o], t, span));
                    }
                }
            }
            return Err(err(span, format!("unsupported builtin '{name}'")));
        }
        let op = name.strip_prefix("__sync_").unwrap_or(name);
        let legacy = |op: &str| -> Option<Builtin> {
            Some(match op {
                "fetch_and_add" => Builtin::AtomicFetchAdd,
                "fetch_and_sub" => Builtin::AtomicFetchSub,
                "fetch_and_and" => Builtin::AtomicFetchAnd,
                "fetch_and_or" => Builtin::AtomicFetchOr,
                "fetch_and_xor" => Builtin::AtomicFetchXor,
                "fetch_and_nand" => Builtin::AtomicFetchNand,
                "add_and_fetch" => Builtin::AtomicAddFetch,
                "sub_and_fetch" => Builtin::AtomicSubFetch,
                "and_and_fetch" => Builtin::AtomicAndFetch,
                "or_and_fetch" => Builtin::AtomicOrFetch,
                "xor_and_fetch" => Builtin::AtomicXorFetch,
                "nand_and_fetch" => Builtin::AtomicNandFetch,
                _ => return None,
            })
        };
        match op {
            "synchronize" => {
                self.nargs(name, args, 0, span)?;
                Ok(Self::builtin(
                    Builtin::Fence,
                    vec![Self::seq_cst(span)],
                    ty::void(),
                    span,
                ))
            }
            "lock_test_and_set" => {
                if args.len() < 2 {
                    return Err(err(span, format!("too few arguments to '{name}'")));
                }
                let (p, t) = self.atomic_ptr(&args[0], name)?;
                let v = self.atomic_value(&args[1], &t, name, 2)?;
                let acquire = mk(ExprKind::Int(2), ty::int(), span);
                Ok(Self::builtin(Builtin::AtomicExchange, vec![p, v, acquire], t, span))
            }
            "lock_release" => {
                if args.is_empty() {
                    return Err(err(span, format!("too few arguments to '{name}'")));
                }
                let (p, t) = self.atomic_ptr(&args[0], name)?;
                let zero = self.convert(mk(ExprKind::Int(0), ty::int(), span), &t);
                let release = mk(ExprKind::Int(3), ty::int(), span);
                Ok(Self::builtin(
                    Builtin::AtomicStore,
                    vec![p, zero, release],
                    ty::void(),
                    span,
                ))
            }
            "bool_compare_and_swap" | "val_compare_and_swap" => {
                if args.len() < 3 {
                    return Err(err(span, format!("too few arguments to '{name}'")));
                }
                let (p, t) = self.atomic_ptr(&args[0], name)?;
                let old = self.atomic_value(&args[1], &t, name, 2)?;
                let new = self.atomic_value(&args[2], &t, name, 3)?;
                // `({ T tmp = old; __atomic_compare_exchange_n(p, &tmp, new, 0, 5, 5) })`
                let tmp = self.new_temp(t.clone(), span)?;
                let tmp_lv = mk(ExprKind::Local(tmp), t.clone(), span);
                let set = mk(
                    ExprKind::Assign {
                        lhs: Box::new(tmp_lv.clone()),
                        rhs: Box::new(old),
                    },
                    t.clone(),
                    span,
                );
                let addr = mk(ExprKind::AddrOf(Box::new(tmp_lv)), ty::ptr_to(t.clone()), span);
                let zero = mk(ExprKind::Int(0), ty::bool_ty(), span);
                let cas = Self::builtin(
                    Builtin::AtomicCompareExchange,
                    vec![p, addr, new, zero, Self::seq_cst(span), Self::seq_cst(span)],
                    ty::bool_ty(),
                    span,
                );
                let result = if op == "bool_compare_and_swap" {
                    cas
                } else {
                    let ignore = mk(ExprKind::Cast(CastKind::ToVoid, Box::new(cas)), ty::void(), span);
                    let read = self.load_local(tmp, t.clone(), span);
                    mk(ExprKind::Comma(Box::new(ignore), Box::new(read)), t.clone(), span)
                };
                let rt = result.ty.clone();
                Ok(mk(ExprKind::Comma(Box::new(set), Box::new(result)), rt, span))
            }
            _ => match legacy(op) {
                Some(b) => {
                    if args.len() < 2 {
                        return Err(err(span, format!("too few arguments to '{name}'")));
                    }
                    let (p, t) = self.atomic_ptr(&args[0], name)?;
                    let v = self.atomic_value(&args[1], &t, name, 2)?;
                    Ok(Self::builtin(b, vec![p, v, Self::seq_cst(span)], t, span))
                }
                None => Err(err(span, format!("unsupported builtin '{name}'"))),
            },
        }
    }
}
