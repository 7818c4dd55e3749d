//! Function calls (C11 6.5.2.2): the callee is a pointer to a function;
//! arguments are converted as if by assignment to the prototype's parameter
//! types (GNU `transparent_union` parameters take any member's type), or
//! get the default argument promotions for `...` and unprototyped calls.
//! Undeclared functions are declared implicitly, builtins are recognised
//! first (`builtins.rs`). Also the `va_list` operands of the varargs builtins.

use super::super::ast;
use super::super::hir::{Expr, ExprKind, GlobalKind};
use super::super::source::{PResult, Span};
use super::super::types::{CType, QualType};
use super::conv::AssignCtx;
use super::expr::mk;
use super::scope::{ObjRef, Ordinary};
use super::ty::{self, unqual};
use super::{err, Sema};
use std::sync::Arc;

impl Sema {
    /// A `va_list` operand: an lvalue of type `va_list`, or (for a `va_list`
    /// parameter on x86-64) a pointer to one. With `as_pointer`, the result
    /// is always a pointer to the `va_list` object.
    pub(super) fn va_list_operand(&mut self, a: &ast::Expr, as_pointer: bool) -> PResult<Expr> {
        let e = self.expr(a)?;
        if matches!(&*e.ty.ty, CType::VaList) && e.is_lvalue() {
            if !as_pointer {
                return Ok(e);
            }
            let t = ty::ptr_to(unqual(&e.ty));
            let span = e.span;
            return Ok(mk(ExprKind::AddrOf(Box::new(e)), t, span));
        }
        let v = self.value(e)?;
        if matches!(ty::pointee(&v.ty.ty), Some(p) if matches!(&*p.ty, CType::VaList)) {
            return Ok(v);
        }
        Err(err(
            a.span,
            format!("expected a 'va_list', not '{}'", self.type_str(&v.ty)),
        ))
    }

    /// A call (6.5.2.2).
    pub(super) fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> PResult<Expr> {
        let mut fname = "function".to_string();
        if let ast::ExprKind::Ident(name) = &callee.kind {
            fname = name.to_string();
            if let Some(builtin) = self.declared_builtin(name) {
                // gcc knows `alloca` by name: declaring it by hand does not
                // make it a library call.
                if let Some(r) = self.builtin_call(&builtin, args, span)? {
                    return Ok(r);
                }
            }
            if self.scopes.lookup(name).is_none() {
                if let Some(r) = self.builtin_call(name, args, span)? {
                    return Ok(r);
                }
                if !matches!(&**name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__") {
                    self.implicit_function(name, callee.span)?;
                    // An undeclared `alloca` is gcc's implicit builtin too.
                    if let Some(builtin) = self.declared_builtin(name) {
                        if let Some(r) = self.builtin_call(&builtin, args, span)? {
                            return Ok(r);
                        }
                    }
                }
            }
        }
        let f = self.rvalue_of(callee)?;
        self.finish_call(f, &fname, args, span)
    }

    /// The builtin a call of `name` means when `name` is declared as a
    /// function the unit does not define: `alloca` and `__builtin_alloca`
    /// are `__builtin_alloca` (there is no library function of either name).
    fn declared_builtin(&self, name: &str) -> Option<Arc<str>> {
        let builtin: Arc<str> = match name {
            "alloca" | "__builtin_alloca" => "__builtin_alloca".into(),
            _ => return None,
        };
        match self.scopes.lookup(name)? {
            Ordinary::Object {
                obj: ObjRef::Global(g), ..
            } => {
                let g = &self.globals[g.0 as usize];
                (g.kind == GlobalKind::Function && !g.is_definition).then_some(builtin)
            }
            _ => None,
        }
    }

    /// A call of the function pointer value `f` with arguments converted by
    /// its prototype (6.5.2.2p7) or promoted (6.5.2.2p6).
    pub(super) fn finish_call(&mut self, f: Expr, fname: &str, args: &[ast::Expr], span: Span) -> PResult<Expr> {
        let fname = fname.to_string();
        let fn_ty = match ty::pointee(&f.ty.ty) {
            Some(p) if ty::is_function(&p.ty) => unqual(p),
            _ => {
                return Err(err(
                    span,
                    format!(
                        "called object of type '{}' is not a function or function pointer",
                        self.type_str(&f.ty)
                    ),
                ))
            }
        };
        let CType::Function {
            ret,
            params,
            variadic,
            prototyped,
        } = &*fn_ty.ty
        else {
            unreachable!("checked above")
        };
        if !ty::is_void(&ret.ty) && !ty::is_complete(&ret.ty, &self.types) {
            return Err(err(
                span,
                format!("calling '{fname}' with incomplete return type '{}'", self.type_str(ret)),
            ));
        }
        if *prototyped {
            if args.len() < params.len() {
                return Err(err(span, format!("too few arguments to function '{fname}'")));
            }
            if args.len() > params.len() && !variadic {
                return Err(err(span, format!("too many arguments to function '{fname}'")));
            }
        }
        let mut out = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let v = self.rvalue_of(a)?;
            let v = if *prototyped && i < params.len() {
                let p = &params[i];
                if let Some(u) = self.transparent_union_arg(p, &v) {
                    let conv = self.convert(v, &u);
                    self.union_value(p.clone(), conv, a.span)?
                } else {
                    self.assign_convert(v, p, AssignCtx::Arg(i + 1, fname.clone()), a.span)?
                }
            } else {
                if ty::is_void(&v.ty.ty) {
                    return Err(err(a.span, "void value not ignored as it ought to be"));
                }
                if ty::is_record(&v.ty.ty) && !ty::is_complete(&v.ty.ty, &self.types) {
                    return Err(err(a.span, "argument has incomplete type"));
                }
                self.default_arg_promote(v)
            };
            out.push(v);
        }
        let rt = unqual(ret);
        Ok(mk(
            ExprKind::Call {
                callee: Box::new(f),
                fn_ty,
                args: out,
            },
            rt,
            span,
        ))
    }

    /// For a `transparent_union` parameter and an argument that is not the
    /// union: the member type the argument converts to.
    fn transparent_union_arg(&self, p: &QualType, v: &Expr) -> Option<QualType> {
        let CType::Record(id) = &*p.ty else { return None };
        if !self.transparent_unions.contains(id) || matches!(&*v.ty.ty, CType::Record(x) if x == id) {
            return None;
        }
        let members = &self.types.records[id.0 as usize].members;
        members
            .iter()
            .find(|m| {
                self.compatible_unqual(&m.ty.ty, &v.ty.ty)
                    || (ty::is_pointer(&m.ty.ty) && (self.is_null_pointer_constant(v) || ty::is_pointer(&v.ty.ty)))
            })
            .map(|m| unqual(&m.ty))
    }
}
