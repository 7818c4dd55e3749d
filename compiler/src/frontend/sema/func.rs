//! Function definitions (C11 6.9.1) and implicit function declarations:
//! the parameter scope shared with the body, labels checked at the end,
//! `goto *` targets, the implicit `return 0` of `main`, and C99 inline
//! semantics applied once the whole unit is seen.

use super::super::ast::{FunctionDef, StorageClass};
use super::super::hir::{Expr, ExprKind, Function, GlobalAttrs, GlobalId, GlobalKind, Linkage, Stmt, StmtKind};
use super::super::source::{PResult, Span};
use super::super::types::{CType, QualType};
use super::attrs::Attrs;
use super::ty::{self, unqual};
use super::{err, FuncCx, Sema};
use std::sync::Arc;

impl Sema {
    /// A call to an undeclared function declares it (C89 6.3.2.2, a gcc
    /// warning): `int name()`, or the library prototype gcc knows.
    pub(super) fn implicit_function(&mut self, name: &Arc<str>, span: Span) -> PResult<()> {
        self.warn(span, format!("implicit declaration of function '{name}'"));
        let g = match self.linkage.get(name) {
            Some(&g) => g,
            None => {
                let t = super::builtins::library_signature(name).unwrap_or_else(|| {
                    ty::q(CType::Function {
                        ret: ty::int(),
                        params: Vec::new(),
                        variadic: false,
                        prototyped: false,
                    })
                });
                let (g, _) = self.declare_global(
                    name,
                    span,
                    t,
                    GlobalKind::Function,
                    Linkage::External,
                    &GlobalAttrs::default(),
                    None,
                )?;
                self.global_info[g.0 as usize].builtin_decl = true;
                g
            }
        };
        if self.globals[g.0 as usize].kind != GlobalKind::Function {
            return Err(err(span, format!("called object '{name}' is not a function")));
        }
        let entry = self.global_entry(g);
        self.scopes.declare_file(name.clone(), entry);
        Ok(())
    }

    /// The global for a library function used through `__builtin_name`.
    pub(super) fn library_function(&mut self, name: &str, span: Span) -> PResult<Option<GlobalId>> {
        let name: Arc<str> = Arc::from(name);
        if let Some(&g) = self.linkage.get(&name) {
            return Ok((self.globals[g.0 as usize].kind == GlobalKind::Function).then_some(g));
        }
        let Some(t) = super::builtins::library_signature(&name) else {
            return Ok(None);
        };
        let (g, _) = self.declare_global(
            &name,
            span,
            t,
            GlobalKind::Function,
            Linkage::External,
            &GlobalAttrs::default(),
            None,
        )?;
        self.global_info[g.0 as usize].builtin_decl = true;
        Ok(Some(g))
    }

    /// A function definition (6.9.1).
    pub(super) fn function_definition(&mut self, f: &FunctionDef) -> PResult<()> {
        let Some((name, nspan)) = f.declarator.name.clone() else {
            return Err(err(f.declarator.span, "expected function name"));
        };
        if !matches!(
            f.declarator.derived.first(),
            Some(super::super::ast::Derived::Function(_))
        ) {
            return Err(err(nspan, "expected a function declarator"));
        }
        let base = self.specs_base(&f.specs, false)?;
        if base.auto_type {
            return Err(err(nspan, "'__auto_type' used with a function definition"));
        }
        let mut attrs = Attrs::default();
        self.collect_attrs(&f.specs.attrs, &mut attrs)?;
        self.collect_attrs(&f.declarator.attrs, &mut attrs)?;
        if matches!(
            f.specs.storage,
            Some(StorageClass::Typedef | StorageClass::Auto | StorageClass::Register)
        ) {
            return Err(err(nspan, format!("invalid storage class for function '{name}'")));
        }
        self.func = Some(FuncCx::new(name.clone()));
        let (t, params) = self.declarator_type(base.ty, &f.declarator, Some(&f.old_style_params))?;
        // The parameter scope is open now; the body shares it (6.2.1p4).
        let r = self.function_body(f, &name, nspan, t, &attrs, params);
        self.scopes.pop();
        self.func = None;
        r
    }

    fn function_body(
        &mut self,
        f: &FunctionDef,
        name: &Arc<str>,
        nspan: Span,
        t: QualType,
        attrs: &Attrs,
        params: Vec<super::typespec::ParamInfo>,
    ) -> PResult<()> {
        let CType::Function { ret, variadic, .. } = &*t.ty else {
            return Err(err(nspan, "expected a function type"));
        };
        let (ret, variadic) = (ret.clone(), *variadic);
        if !ty::is_void(&ret.ty) && !ty::is_complete(&ret.ty, &self.types) {
            return Err(err(nspan, "return type is an incomplete type"));
        }
        if !self.linkage.contains_key(name) && self.scopes.lookup_file(name).is_some() {
            return Err(err(nspan, format!("'{name}' redeclared as different kind of symbol")));
        }
        let g = self.declare_function(name, nspan, t, &f.specs, attrs, None, true)?;
        if self.global_info[g.0 as usize].defined {
            return Err(err(nspan, format!("redefinition of '{name}'")));
        }
        self.global_info[g.0 as usize].defined = true;
        self.globals[g.0 as usize].is_definition = true;
        self.globals[g.0 as usize].span = nspan;
        let entry = self.global_entry(g);
        self.scopes.declare_file(name.clone(), entry);
        let fcx = self.fcx(nspan)?;
        fcx.global = g;
        fcx.ret = unqual(&ret);
        fcx.is_variadic = variadic;
        let mut body = std::mem::take(&mut fcx.prologue);
        let mut sizes = std::mem::take(&mut self.vla_pending);
        // VLA parameter sizes come first, then K&R conversions.
        sizes.append(&mut body);
        let mut body = sizes;
        self.block_items(&f.body.items, &mut body)?;
        let fcx = self.func.as_ref().expect("in a function");
        for (i, d) in fcx.label_defined.iter().enumerate() {
            if d.is_none() {
                return Err(err(
                    fcx.label_first_use[i],
                    format!("label '{}' used but not defined", fcx.labels[i].name),
                ));
            }
        }
        if &**name == "main" && matches!(&*ret.ty, CType::Int(super::super::types::IntKind::Int)) {
            // Reaching the } of main returns 0 (5.1.2.2.3).
            body.push(Stmt {
                kind: StmtKind::Return(Some(Expr {
                    kind: ExprKind::Int(0),
                    ty: ty::int(),
                    span: f.body.span,
                })),
                span: f.body.span,
            });
        }
        let mut fcx = self.func.take().expect("in a function");
        if fcx.calls_builtin_setjmp {
            // gcc's `__builtin_setjmp` receiver sees the values the locals
            // had at the `__builtin_longjmp`: none may live in a register.
            for l in &mut fcx.locals {
                l.ty.quals.is_volatile = true;
            }
        }
        let mut body = Stmt {
            kind: StmtKind::Block(body),
            span: f.body.span,
        };
        if fcx.has_indirect_goto {
            let targets: Vec<_> = fcx
                .labels
                .iter()
                .enumerate()
                .filter(|(_, l)| l.address_taken)
                .map(|(i, _)| super::super::hir::LabelId(i as u32))
                .collect();
            super::stmt::fill_indirect_targets(&mut body, &targets);
        }
        self.functions.push(Function {
            global: g,
            params: params.iter().filter_map(|p| p.local).collect(),
            locals: fcx.locals,
            labels: fcx.labels,
            body,
            is_variadic: variadic,
            span: f.span,
        });
        Ok(())
    }

    /// Applies C99 inline semantics once every declaration has been seen.
    pub(super) fn finish_inline(&mut self) {
        for (g, info) in self.globals.iter_mut().zip(&self.global_info) {
            if g.kind == GlobalKind::Function
                && info.inline_only
                && g.is_definition
                && g.linkage == Linkage::External
                && &*info.c_name != "main"
            {
                if g.attrs.always_inline {
                    // gcc inlines every call of it, at -O0 too, so no
                    // out-of-line definition is referenced: a local copy
                    // serves the calls the same way (stdarg-4).
                    g.linkage = Linkage::Internal;
                } else {
                    g.attrs.gnu_inline = true;
                }
            }
        }
    }
}
