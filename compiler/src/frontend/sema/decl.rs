//! Declarations (C11 6.7) and function definitions (6.9.1).
//!
//! * Linkage (6.2.2) and redeclaration: every declaration of a name with
//!   linkage, at file or block scope, refers to one `hir::Global`; its type
//!   becomes the composite of the declarations (6.2.7p2); conflicting types,
//!   kinds or linkage are errors.
//! * Objects at file scope: definitions with an initializer, tentative
//!   definitions (6.9.2, zero-filled), `extern` declarations.
//! * Block scope: automatic objects (`Decl` statements, VLAs through
//!   `VlaAlloc`), `static` objects as globals named `name.N`, `extern`
//!   declarations, typedefs.
//! * `inline` (6.7.4p7): a function whose file-scope declarations all say
//!   `inline` without `extern` has no out-of-line definition, like `extern
//!   inline` under `gnu_inline`; both set `GlobalAttrs::gnu_inline`.
//! * `_Alignas` and `aligned` raise alignments; `__auto_type` takes the
//!   initializer's type.

use super::super::ast::{AlignSpec, DeclSpecs, Declaration, InitDeclarator, Initializer, StorageClass};
use super::super::hir::{Expr, Global, GlobalAttrs, GlobalId, GlobalKind, Init, Linkage, Stmt, StmtKind};
use super::super::source::{PResult, Span};
use super::super::types::{ArrayLen, CType, QualType};
use super::attrs::Attrs;
use super::scope::{ObjRef, Ordinary};
use super::ty::{self, unqual};
use super::typespec::BaseInfo;
use super::{err, GlobalInfo, Sema};
use std::sync::Arc;

/// Whether an object of this type is read-only (a const object, or an array of them).
fn is_const_object(t: &QualType) -> bool {
    match &*t.ty {
        CType::Array { elem, .. } => t.quals.is_const || is_const_object(elem),
        _ => t.quals.is_const,
    }
}

fn merge_global_attrs(a: &mut GlobalAttrs, b: &GlobalAttrs) {
    a.align = match (a.align, b.align) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    };
    if b.section.is_some() {
        a.section = b.section.clone();
    }
    if b.visibility.is_some() {
        a.visibility = b.visibility.clone();
    }
    if b.alias.is_some() {
        a.alias = b.alias.clone();
    }
    a.weak |= b.weak;
    a.used |= b.used;
    a.thread_local |= b.thread_local;
    a.is_const = b.is_const;
    a.is_inline |= b.is_inline;
    a.gnu_inline |= b.gnu_inline;
    a.always_inline |= b.always_inline;
    a.noinline |= b.noinline;
    a.noreturn |= b.noreturn;
    if b.constructor.is_some() {
        a.constructor = b.constructor;
    }
    if b.destructor.is_some() {
        a.destructor = b.destructor;
    }
}

impl Sema {
    pub(super) fn file_declaration(&mut self, d: &Declaration) -> PResult<()> {
        let mut out = Vec::new();
        self.declaration(d, &mut out)?;
        if let Some(s) = out.first() {
            return Err(err(s.span, "variably modified type at file scope"));
        }
        Ok(())
    }

    pub(super) fn block_declaration(&mut self, d: &Declaration, out: &mut Vec<Stmt>) -> PResult<()> {
        self.declaration(d, out)
    }

    fn declaration(&mut self, d: &Declaration, out: &mut Vec<Stmt>) -> PResult<()> {
        if let Some(sa) = &d.static_assert {
            return self.static_assert(sa);
        }
        let base = self.specs_base(&d.specs, d.declarators.is_empty())?;
        self.flush_pending(out);
        if d.declarators.is_empty() {
            use super::super::ast::BaseType;
            if !matches!(
                d.specs.base,
                BaseType::Struct(_) | BaseType::Union(_) | BaseType::Enum(_)
            ) {
                self.warn(d.span, "useless type name in empty declaration");
            }
            return Ok(());
        }
        let mut sattrs = Attrs::default();
        self.collect_attrs(&d.specs.attrs, &mut sattrs)?;
        let explicit_align = self.alignas(&d.specs)?;
        for id in &d.declarators {
            self.init_declarator(&d.specs, &base, &sattrs, explicit_align, id, out)?;
        }
        Ok(())
    }

    /// `_Alignas` (6.7.5): the strictest alignment requested, if any.
    pub(super) fn alignas(&mut self, specs: &DeclSpecs) -> PResult<Option<u64>> {
        let mut best: Option<u64> = None;
        for a in &specs.align {
            let v = match a {
                AlignSpec::Type(tn) => {
                    let t = self.type_name(tn)?;
                    self.align_of(&t, tn.span)?
                }
                AlignSpec::Expr(e) => {
                    let v = self.const_int(e)?;
                    if v == 0 {
                        continue;
                    }
                    if v < 0 || (v as u128).count_ones() != 1 || v > 1 << 28 {
                        return Err(err(e.span, "requested alignment is not a positive power of 2"));
                    }
                    v as u64
                }
            };
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        Ok(best)
    }

    /// The linkage a declaration gets (6.2.2p3-5).
    fn linkage_for(&self, name: &str, storage: Option<StorageClass>, is_function: bool) -> Linkage {
        let prior = self.linkage.get(name).map(|g| self.globals[g.0 as usize].linkage);
        match storage {
            Some(StorageClass::Static) => Linkage::Internal,
            Some(StorageClass::Extern) => prior.unwrap_or(Linkage::External),
            None if is_function => prior.unwrap_or(Linkage::External),
            _ => Linkage::External,
        }
    }

    fn global_attrs(&self, a: &Attrs, specs: &DeclSpecs, t: &QualType, explicit_align: Option<u64>) -> GlobalAttrs {
        let natural = self.types.align_of(&t.ty).unwrap_or(1);
        let align = explicit_align
            .into_iter()
            .chain(a.aligned)
            .max()
            .map(|x| x.max(natural));
        GlobalAttrs {
            align,
            section: a.section.clone(),
            weak: a.weak,
            visibility: a.visibility.clone(),
            used: a.used,
            thread_local: specs.thread_local,
            is_const: is_const_object(t),
            is_inline: specs.is_inline,
            gnu_inline: false,
            always_inline: a.always_inline,
            noinline: a.noinline,
            noreturn: a.noreturn || specs.is_noreturn,
            constructor: a.constructor,
            destructor: a.destructor,
            alias: a.alias.clone(),
        }
    }

    /// Finds or creates the global with linkage named `name` and merges this
    /// declaration into it. Returns the id and whether it is new.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn declare_global(
        &mut self,
        name: &Arc<str>,
        span: Span,
        t: QualType,
        kind: GlobalKind,
        linkage: Linkage,
        attrs: &GlobalAttrs,
        asm_label: Option<&str>,
    ) -> PResult<(GlobalId, bool)> {
        if let Some(&g) = self.linkage.get(name) {
            let old = &self.globals[g.0 as usize];
            if old.kind != kind {
                return Err(err(span, format!("'{name}' redeclared as different kind of symbol")));
            }
            if old.linkage != linkage {
                let msg = if linkage == Linkage::Internal {
                    format!("static declaration of '{name}' follows non-static declaration")
                } else {
                    format!("non-static declaration of '{name}' follows static declaration")
                };
                return Err(err(span, msg));
            }
            let old_ty = old.ty.clone();
            let new_ty = if self.global_info[g.0 as usize].builtin_decl {
                self.global_info[g.0 as usize].builtin_decl = false;
                t
            } else if self.compatible(&old_ty, &t) {
                self.composite(&old_ty, &t)
            } else {
                return Err(err(
                    span,
                    format!(
                        "conflicting types for '{name}'; have '{}', previously '{}'",
                        self.type_str(&t),
                        self.type_str(&old_ty)
                    ),
                ));
            };
            let gl = &mut self.globals[g.0 as usize];
            gl.ty = new_ty;
            merge_global_attrs(&mut gl.attrs, attrs);
            if let Some(l) = asm_label {
                gl.name = l.to_string();
            }
            return Ok((g, false));
        }
        let g = GlobalId(self.globals.len() as u32);
        self.globals.push(Global {
            name: asm_label.map(str::to_string).unwrap_or_else(|| name.to_string()),
            kind,
            ty: t,
            linkage,
            is_definition: false,
            init: None,
            attrs: attrs.clone(),
            span,
        });
        self.global_info.push(GlobalInfo {
            c_name: name.clone(),
            defined: false,
            inline_only: false,
            compound_literal: false,
            builtin_decl: false,
        });
        self.linkage.insert(name.clone(), g);
        Ok((g, true))
    }

    /// The type in scope for a global after a declaration.
    pub(super) fn global_entry(&self, g: GlobalId) -> Ordinary {
        Ordinary::Object {
            obj: ObjRef::Global(g),
            ty: self.globals[g.0 as usize].ty.clone(),
        }
    }

    /// An ordinary identifier already declared in this scope may only be
    /// redeclared when both declarations have linkage (6.7p3).
    fn check_redeclaration(&self, name: &str, span: Span, with_linkage: bool) -> PResult<()> {
        match self.scopes.lookup_current(name) {
            None => Ok(()),
            Some(Ordinary::Object {
                obj: ObjRef::Global(g), ..
            }) if with_linkage && self.linkage.get(name) == Some(g) => Ok(()),
            Some(Ordinary::Object { .. }) if with_linkage => Err(err(
                span,
                format!("'{name}' redeclared with linkage after a declaration with none"),
            )),
            Some(Ordinary::Object { .. }) => Err(err(span, format!("redeclaration of '{name}' with no linkage"))),
            Some(_) => Err(err(span, format!("'{name}' redeclared as different kind of symbol"))),
        }
    }

    fn init_declarator(
        &mut self,
        specs: &DeclSpecs,
        base: &BaseInfo,
        sattrs: &Attrs,
        explicit_align: Option<u64>,
        id: &InitDeclarator,
        out: &mut Vec<Stmt>,
    ) -> PResult<()> {
        let Some((name, nspan)) = id.declarator.name.clone() else {
            return Err(err(id.declarator.span, "expected identifier in declarator"));
        };
        let (t, _) = self.declarator_type(base.ty.clone(), &id.declarator, None)?;
        let mut attrs = sattrs.clone();
        self.collect_attrs(&id.declarator.attrs, &mut attrs)?;
        let storage = specs.storage;
        let file = self.scopes.at_file_scope();
        if storage == Some(StorageClass::Typedef) {
            if let Some(init) = &id.init {
                let at = match init {
                    Initializer::Expr(e) => e.span,
                    Initializer::List(_, s) => *s,
                };
                return Err(err(at, format!("typedef '{name}' is initialized")));
            }
            let t = self.apply_mode(t, &attrs)?;
            match self.scopes.lookup_current(&name) {
                Some(Ordinary::Typedef { ty: old, .. }) if !self.compatible(old, &t) => {
                    return Err(err(nspan, format!("conflicting types for typedef '{name}'")));
                }
                Some(Ordinary::Typedef { .. }) => {}
                Some(_) => return Err(err(nspan, format!("'{name}' redeclared as different kind of symbol"))),
                None => {}
            }
            self.flush_pending(out);
            self.scopes.declare(
                name,
                Ordinary::Typedef {
                    ty: t,
                    align: attrs.aligned.or(base.align),
                    unsupported: None,
                },
            );
            return Ok(());
        }
        let t = self.apply_mode(t, &attrs)?;
        if ty::is_function(&t.ty) {
            if id.init.is_some() {
                return Err(err(nspan, format!("function '{name}' is initialized like a variable")));
            }
            if base.auto_type {
                return Err(err(nspan, "'__auto_type' used with a function declarator"));
            }
            match storage {
                Some(StorageClass::Static) if !file => {
                    return Err(err(nspan, format!("invalid storage class for function '{name}'")))
                }
                Some(StorageClass::Auto | StorageClass::Register) => {
                    return Err(err(nspan, format!("invalid storage class for function '{name}'")))
                }
                _ => {}
            }
            self.check_redeclaration(&name, nspan, true)?;
            let g = self.declare_function(&name, nspan, t, specs, &attrs, id.asm_label.as_deref(), file)?;
            let entry = self.global_entry(g);
            self.scopes.declare(name, entry);
            return Ok(());
        }
        if ty::is_void(&t.ty) {
            return Err(err(nspan, format!("variable '{name}' declared void")));
        }
        let align = explicit_align.into_iter().chain(attrs.aligned).chain(base.align).max();
        if file {
            return self.file_object(&name, nspan, t, specs, &attrs, align, id, base.auto_type);
        }
        match storage {
            Some(StorageClass::Extern) => {
                if id.init.is_some() {
                    return Err(err(nspan, format!("'{name}' has both 'extern' and initializer")));
                }
                if base.auto_type {
                    return Err(err(nspan, "'__auto_type' needs an initializer"));
                }
                self.check_redeclaration(&name, nspan, true)?;
                let linkage = self.linkage_for(&name, storage, false);
                let ga = self.global_attrs(&attrs, specs, &t, align);
                let (g, _) = self.declare_global(
                    &name,
                    nspan,
                    t,
                    GlobalKind::Object,
                    linkage,
                    &ga,
                    id.asm_label.as_deref(),
                )?;
                let entry = self.global_entry(g);
                self.scopes.declare(name, entry);
                Ok(())
            }
            Some(StorageClass::Static) => self.static_local(&name, nspan, t, specs, &attrs, align, id, base.auto_type),
            _ => {
                if specs.thread_local {
                    return Err(err(
                        nspan,
                        format!("'{name}' is thread-local but has automatic storage"),
                    ));
                }
                self.auto_local(
                    &name,
                    nspan,
                    t,
                    storage == Some(StorageClass::Register),
                    align,
                    id,
                    base.auto_type,
                    out,
                )
            }
        }
    }

    /// The type of `__auto_type x = e`: the type of `e`'s value.
    fn auto_type_of(&mut self, name: &str, id: &InitDeclarator, span: Span) -> PResult<Expr> {
        match &id.init {
            Some(Initializer::Expr(e)) => {
                let v = self.rvalue_of(e)?;
                if ty::is_void(&v.ty.ty) {
                    return Err(err(e.span, format!("variable '{name}' declared void")));
                }
                Ok(v)
            }
            _ => Err(err(
                span,
                format!("'__auto_type' variable '{name}' needs a plain initializer"),
            )),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn file_object(
        &mut self,
        name: &Arc<str>,
        nspan: Span,
        t: QualType,
        specs: &DeclSpecs,
        attrs: &Attrs,
        align: Option<u64>,
        id: &InitDeclarator,
        auto_type: bool,
    ) -> PResult<()> {
        let storage = specs.storage;
        if matches!(storage, Some(StorageClass::Auto | StorageClass::Register)) {
            return Err(err(
                nspan,
                format!("file-scope declaration of '{name}' specifies 'auto' or 'register'"),
            ));
        }
        let auto_value = if auto_type {
            Some(self.auto_type_of(name, id, nspan)?)
        } else {
            None
        };
        let t = match &auto_value {
            Some(v) => unqual(&v.ty).with_quals(t.quals),
            None => t,
        };
        self.check_redeclaration(name, nspan, true)?;
        let linkage = self.linkage_for(name, storage, false);
        let ga = self.global_attrs(attrs, specs, &t, align);
        let (g, _) = self.declare_global(
            name,
            nspan,
            t,
            GlobalKind::Object,
            linkage,
            &ga,
            id.asm_label.as_deref(),
        )?;
        let entry = self.global_entry(g);
        self.scopes.declare(name.clone(), entry);
        let gi = g.0 as usize;
        if let Some(init) = &id.init {
            if self.global_info[gi].defined {
                return Err(err(nspan, format!("redefinition of '{name}'")));
            }
            if storage == Some(StorageClass::Extern) {
                self.warn(nspan, format!("'{name}' initialized and declared 'extern'"));
            }
            let gty = self.globals[gi].ty.clone();
            let (t2, si) = match auto_value {
                Some(v) => {
                    let si = self.static_from_value(&gty, v, nspan)?;
                    (gty, si)
                }
                None => self.static_initializer(&gty, init, nspan)?,
            };
            let gl = &mut self.globals[gi];
            gl.ty = t2;
            gl.init = Some(si);
            gl.is_definition = true;
            gl.attrs.is_const = is_const_object(&gl.ty);
            self.global_info[gi].defined = true;
            let entry = self.global_entry(g);
            self.scopes.declare(name.clone(), entry);
        } else if storage != Some(StorageClass::Extern) {
            self.globals[gi].is_definition = true;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn static_local(
        &mut self,
        name: &Arc<str>,
        nspan: Span,
        t: QualType,
        specs: &DeclSpecs,
        attrs: &Attrs,
        align: Option<u64>,
        id: &InitDeclarator,
        auto_type: bool,
    ) -> PResult<()> {
        self.check_redeclaration(name, nspan, false)?;
        // A static object may not be a VLA; a pointer to one is fine (6.7.6.2p2).
        if matches!(&*t.ty, CType::Array { .. }) && ty::is_variably_modified(&t.ty) {
            return Err(err(nspan, format!("storage size of '{name}' isn't constant")));
        }
        let auto_value = if auto_type {
            Some(self.auto_type_of(name, id, nspan)?)
        } else {
            None
        };
        let t = match &auto_value {
            Some(v) => unqual(&v.ty).with_quals(t.quals),
            None => t,
        };
        let n = self.unique_suffix();
        let asm_name = id.asm_label.clone().unwrap_or_else(|| format!("{name}.{n}"));
        let g = GlobalId(self.globals.len() as u32);
        let ga = self.global_attrs(attrs, specs, &t, align);
        self.globals.push(Global {
            name: asm_name,
            kind: GlobalKind::Object,
            ty: t.clone(),
            linkage: Linkage::Internal,
            is_definition: true,
            init: None,
            attrs: ga,
            span: nspan,
        });
        self.global_info.push(GlobalInfo {
            c_name: name.clone(),
            defined: true,
            inline_only: false,
            compound_literal: false,
            builtin_decl: false,
        });
        self.scopes.declare(name.clone(), self.global_entry(g));
        let gi = g.0 as usize;
        if let Some(init) = &id.init {
            let (t2, si) = match auto_value {
                Some(v) => {
                    let si = self.static_from_value(&t, v, nspan)?;
                    (t, si)
                }
                None => self.static_initializer(&t, init, nspan)?,
            };
            self.globals[gi].ty = t2;
            self.globals[gi].init = Some(si);
            self.scopes.declare(name.clone(), self.global_entry(g));
        } else if !ty::is_complete(&t.ty, &self.types) {
            return Err(err(nspan, format!("storage size of '{name}' isn't known")));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn auto_local(
        &mut self,
        name: &Arc<str>,
        nspan: Span,
        t: QualType,
        is_register: bool,
        align: Option<u64>,
        id: &InitDeclarator,
        auto_type: bool,
        out: &mut Vec<Stmt>,
    ) -> PResult<()> {
        self.check_redeclaration(name, nspan, false)?;
        let auto_value = if auto_type {
            Some(self.auto_type_of(name, id, nspan)?)
        } else {
            None
        };
        let t = match &auto_value {
            Some(v) => unqual(&v.ty).with_quals(t.quals),
            None => t,
        };
        let natural = if self.types.is_runtime_sized(&t.ty) {
            let mut e = &t;
            while let CType::Array { elem, .. } = &*e.ty {
                e = elem;
            }
            self.align_of(e, nspan)?
        } else {
            self.types.align_of(&t.ty).unwrap_or(1)
        };
        let local_align = align.map_or(natural, |a| a.max(natural));
        let declare = |this: &mut Sema, local, ty: QualType| {
            this.scopes.declare(
                name.clone(),
                Ordinary::Object {
                    obj: ObjRef::Local(local),
                    ty,
                },
            );
        };
        if self.types.is_runtime_sized(&t.ty) {
            if id.init.is_some() {
                return Err(err(nspan, "variable-sized object may not be initialized"));
            }
            self.flush_pending(out);
            let Some(vs) = self.vla_size_of(&t.ty) else {
                return Err(err(nspan, format!("the size of '{name}' is not known")));
            };
            let local = self.new_local(name.clone(), t.clone(), local_align, false, nspan)?;
            declare(self, local, t);
            let count = self.load_local(vs.count, ty::size_t(), nspan);
            out.push(Stmt {
                kind: StmtKind::VlaAlloc {
                    local,
                    count,
                    elem_size: vs.unit,
                    count_local: vs.count,
                },
                span: nspan,
            });
            return Ok(());
        }
        let incomplete_array = matches!(
            &*t.ty,
            CType::Array {
                len: ArrayLen::Unknown,
                ..
            }
        );
        if !incomplete_array && !ty::is_complete(&t.ty, &self.types) {
            return Err(err(nspan, format!("storage size of '{name}' isn't known")));
        }
        if incomplete_array && id.init.is_none() {
            return Err(err(nspan, format!("array size missing in '{name}'")));
        }
        let local = self.new_local(name.clone(), t.clone(), local_align, false, nspan)?;
        if is_register {
            let f = self.fcx(nspan)?;
            f.register_locals.push(local);
            f.locals[local.0 as usize].asm_register = id.asm_label.clone();
        }
        declare(self, local, t.clone());
        let init = match (&id.init, auto_value) {
            (_, Some(v)) => Some(Init::Expr(v)),
            (Some(init), None) => {
                let (t2, init) = self.local_initializer(&t, init, nspan)?;
                if t2 != t {
                    let align = self.types.align_of(&t2.ty).unwrap_or(1);
                    if let Some(f) = self.func.as_mut() {
                        let l = &mut f.locals[local.0 as usize];
                        l.ty = t2.clone();
                        l.align = l.align.max(align);
                    }
                    declare(self, local, t2);
                }
                Some(init)
            }
            (None, None) => None,
        };
        self.flush_pending(out);
        out.push(Stmt {
            kind: StmtKind::Decl { local, init },
            span: nspan,
        });
        Ok(())
    }

    /// A function declaration (not a definition); returns its global.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn declare_function(
        &mut self,
        name: &Arc<str>,
        span: Span,
        t: QualType,
        specs: &DeclSpecs,
        attrs: &Attrs,
        asm_label: Option<&str>,
        file_scope: bool,
    ) -> PResult<GlobalId> {
        let linkage = self.linkage_for(name, specs.storage, true);
        let ga = self.global_attrs(attrs, specs, &t, None);
        let ga = GlobalAttrs {
            align: attrs.aligned,
            ..ga
        };
        let (g, new) = self.declare_global(name, span, t, GlobalKind::Function, linkage, &ga, asm_label)?;
        let is_extern = specs.storage == Some(StorageClass::Extern);
        if file_scope {
            let plain_inline = specs.is_inline && !is_extern;
            let info = &mut self.global_info[g.0 as usize];
            info.inline_only = if new {
                plain_inline
            } else {
                info.inline_only && plain_inline
            };
        }
        if attrs.gnu_inline && specs.is_inline && is_extern {
            self.globals[g.0 as usize].attrs.gnu_inline = true;
        }
        Ok(g)
    }
}
