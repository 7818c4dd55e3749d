//! Types from declaration specifiers and declarators (C11 6.7.2, 6.7.6):
//! base types, typedef names, `typeof`, struct/union definitions with their
//! layout (6.7.2.1, through `layout.rs`), enums with their values (6.7.2.2),
//! pointer/array/function derivations, parameter adjustment (6.7.6.3p7-8),
//! variable length arrays (6.7.6.2) and type names (6.7.7).
//!
//! `ast::Declarator::derived[0]` applies to the identifier first, so a type
//! is built by walking the derivations in reverse from the base type.

use super::super::ast::{self, ArraySize, BaseType, DeclSpecs, Declaration, Declarator, Derived, TypeName, TypeQuals};
use super::super::hir::{Expr, ExprKind, LocalId, Stmt, StmtKind};
use super::super::source::{PResult, Span};
use super::super::types::{Arith, ArrayLen, CType, FloatKind, IntKind, QualType, Qualifiers};
use super::attrs::{Attrs, Mode};
use super::scope::{ObjRef, Ordinary};
use super::ty::{self, q, unqual};
use super::{err, Sema, VlaSize};
use std::sync::Arc;

/// The type named by declaration specifiers.
#[derive(Clone, Debug)]
pub(super) struct BaseInfo {
    pub(super) ty: QualType,
    /// Alignment raised by an `aligned` typedef.
    pub(super) align: Option<u64>,
    /// GNU `__auto_type`: the declaration takes its initializer's type.
    pub(super) auto_type: bool,
}

/// A parameter of a function declarator.
#[derive(Clone, Debug)]
pub(super) struct ParamInfo {
    /// The adjusted type (arrays and functions to pointers).
    pub(super) ty: QualType,
    /// For a definition: the parameter's local.
    pub(super) local: Option<LocalId>,
}

/// The deepest chain of derivations (pointer, array, function) sema builds:
/// deeper types are an error, so no later recursion over a type overflows.
const MAX_TYPE_DEPTH: usize = 1024;

/// The number of derivations from `t` down to its base type (capped).
fn type_depth(t: &CType) -> usize {
    let mut cur = t;
    let mut d = 0;
    while d <= MAX_TYPE_DEPTH {
        cur = match cur {
            CType::Pointer(p) => &p.ty,
            CType::Array { elem, .. } => &elem.ty,
            CType::Function { ret, .. } => &ret.ty,
            _ => break,
        };
        d += 1;
    }
    d
}

pub(super) fn quals_of(t: TypeQuals) -> Qualifiers {
    Qualifiers {
        is_const: t.is_const,
        is_volatile: t.is_volatile,
        is_restrict: t.is_restrict,
        is_atomic: t.is_atomic,
    }
}

impl Sema {
    /// Adds qualifiers to a type; qualifiers of an array type apply to its
    /// elements (6.7.3p9).
    pub(super) fn qualify(&self, t: QualType, quals: Qualifiers) -> QualType {
        if quals == Qualifiers::default() {
            return t;
        }
        if let CType::Array { elem, len } = &*t.ty {
            let elem = self.qualify(elem.clone(), quals);
            let arr = CType::Array { elem, len: *len };
            // A VLA keeps its identity (its size lives in `vla_sizes`).
            if *len == ArrayLen::Variable {
                return t;
            }
            return QualType {
                ty: Arc::new(arr),
                quals: t.quals,
            };
        }
        QualType {
            ty: t.ty,
            quals: ty::merge_quals(t.quals, quals),
        }
    }

    /// The base type of declaration specifiers (6.7.2). `forward` is set for
    /// a declaration without declarators (`struct S;` declares a new tag in
    /// the current scope).
    pub(super) fn specs_base(&mut self, specs: &DeclSpecs, forward: bool) -> PResult<BaseInfo> {
        let mut align = None;
        let mut auto_type = false;
        let t = match &specs.base {
            BaseType::Void => CType::Void,
            BaseType::Bool => CType::Int(IntKind::Bool),
            BaseType::Char => CType::Int(IntKind::Char),
            BaseType::SChar => CType::Int(IntKind::SChar),
            BaseType::UChar => CType::Int(IntKind::UChar),
            BaseType::Short => CType::Int(IntKind::Short),
            BaseType::UShort => CType::Int(IntKind::UShort),
            BaseType::Int => CType::Int(IntKind::Int),
            BaseType::UInt => CType::Int(IntKind::UInt),
            BaseType::Long => CType::Int(IntKind::Long),
            BaseType::ULong => CType::Int(IntKind::ULong),
            BaseType::LongLong => CType::Int(IntKind::LongLong),
            BaseType::ULongLong => CType::Int(IntKind::ULongLong),
            BaseType::Int128 => CType::Int(IntKind::Int128),
            BaseType::UInt128 => CType::Int(IntKind::UInt128),
            BaseType::Float => CType::Float(FloatKind::Float),
            BaseType::Double => CType::Float(FloatKind::Double),
            BaseType::LongDouble => CType::Float(FloatKind::LongDouble),
            BaseType::Float128 => CType::Float(FloatKind::Float128),
            BaseType::Complex(inner) => CType::Complex(match **inner {
                BaseType::Float => Arith::Float(FloatKind::Float),
                BaseType::LongDouble => Arith::Float(FloatKind::LongDouble),
                BaseType::Float128 => Arith::Float(FloatKind::Float128),
                BaseType::Double => Arith::Float(FloatKind::Double),
                BaseType::Char => Arith::Int(IntKind::Char),
                BaseType::SChar => Arith::Int(IntKind::SChar),
                BaseType::UChar => Arith::Int(IntKind::UChar),
                BaseType::Short => Arith::Int(IntKind::Short),
                BaseType::UShort => Arith::Int(IntKind::UShort),
                BaseType::Int => Arith::Int(IntKind::Int),
                BaseType::UInt => Arith::Int(IntKind::UInt),
                BaseType::Long => Arith::Int(IntKind::Long),
                BaseType::ULong => Arith::Int(IntKind::ULong),
                BaseType::LongLong => Arith::Int(IntKind::LongLong),
                BaseType::ULongLong => Arith::Int(IntKind::ULongLong),
                BaseType::Int128 => Arith::Int(IntKind::Int128),
                BaseType::UInt128 => Arith::Int(IntKind::UInt128),
                _ => return Err(err(specs.span, "invalid use of '_Complex' with a non-arithmetic type")),
            }),
            BaseType::Struct(s) => CType::Record(self.record_spec(s, false, forward)?),
            BaseType::Union(s) => CType::Record(self.record_spec(s, true, forward)?),
            BaseType::Enum(e) => CType::Enum(self.enum_spec(e, forward)?),
            BaseType::Typedef(name, span) => match self.scopes.lookup(name) {
                Some(Ordinary::Typedef {
                    ty,
                    align: a,
                    unsupported,
                }) => {
                    if let Some(msg) = unsupported {
                        return Err(err(*span, *msg));
                    }
                    align = *a;
                    let t = ty.clone();
                    let t = self.qualify(t, super::typespec::quals_of(specs.quals));
                    return Ok(BaseInfo {
                        ty: t,
                        align,
                        auto_type,
                    });
                }
                _ => return Err(err(*span, format!("unknown type name '{name}'"))),
            },
            BaseType::TypeofExpr(e) => {
                let x = self.expr(e)?;
                if let ExprKind::Member { bitfield: Some(_), .. } = x.kind {
                    return Err(err(e.span, "'typeof' applied to a bit-field"));
                }
                let t = x.ty;
                let t = self.qualify(t, quals_of(specs.quals));
                return Ok(BaseInfo {
                    ty: t,
                    align,
                    auto_type,
                });
            }
            BaseType::TypeofType(tn) => {
                let t = self.type_name(tn)?;
                let t = self.qualify(t, quals_of(specs.quals));
                return Ok(BaseInfo {
                    ty: t,
                    align,
                    auto_type,
                });
            }
            BaseType::VaList => CType::VaList,
            BaseType::Atomic(tn) => {
                let t = self.type_name(tn)?;
                let mut qs = quals_of(specs.quals);
                qs.is_atomic = true;
                let t = self.qualify(t, qs);
                return Ok(BaseInfo {
                    ty: t,
                    align,
                    auto_type,
                });
            }
            BaseType::AutoType => {
                auto_type = true;
                CType::Int(IntKind::Int)
            }
        };
        Ok(BaseInfo {
            ty: QualType::new(t).with_quals(quals_of(specs.quals)),
            align,
            auto_type,
        })
    }

    /// The alignment an `aligned` typedef gives a type written with it and
    /// only array derivations (`u64_a4`, `u64_a4 [3]`): gcc's typedef
    /// variant type carries the alignment, which may be lower than the
    /// natural one ("Common Type Attributes", `aligned`: "When used as part
    /// of a typedef, the aligned attribute can both increase and decrease
    /// alignment"). /work/shared/bugs/repro-11.c. Only scalar types are
    /// lowered: for a struct or union phicc cannot tell an `aligned` on the
    /// typedef from one on the record's definition (which only raises), so
    /// there it only raises.
    pub(super) fn typedef_align(&self, specs: &DeclSpecs, derived: &[Derived]) -> Option<u64> {
        if derived.iter().any(|d| !matches!(d, Derived::Array { .. })) {
            return None;
        }
        let BaseType::Typedef(name, _) = &specs.base else {
            return None;
        };
        let Some(Ordinary::Typedef { ty, align: Some(a), .. }) = self.scopes.lookup(name) else {
            return None;
        };
        let mut elem = &ty.ty;
        while let CType::Array { elem: e, .. } = &**elem {
            elem = &e.ty;
        }
        if ty::is_scalar(elem) {
            Some(*a)
        } else {
            Some((*a).max(self.types.align_of(&ty.ty).unwrap_or(1)))
        }
    }

    /// A type name (6.7.7), as in casts, `sizeof` and compound literals.
    pub(super) fn type_name(&mut self, tn: &TypeName) -> PResult<QualType> {
        let base = self.specs_base(&tn.specs, false)?;
        if base.auto_type {
            return Err(err(tn.span, "'__auto_type' is only allowed in a declaration"));
        }
        let (t, _) = self.declarator_type(base.ty, &tn.declarator, None)?;
        let mut attrs = Attrs::default();
        self.collect_attrs(&tn.specs.attrs, &mut attrs)?;
        self.collect_attrs(&tn.declarator.attrs, &mut attrs)?;
        self.apply_mode(t, &attrs)
    }

    /// Applies `__attribute__((mode(M)))` to an arithmetic type, then
    /// `vector_size(N)` (see `vector.rs`).
    pub(super) fn apply_mode(&self, t: QualType, attrs: &Attrs) -> PResult<QualType> {
        let t = self.apply_machine_mode(t, attrs)?;
        match attrs.vector_size {
            Some((size, span)) => self.apply_vector_size(t, size, span),
            None => Ok(t),
        }
    }

    fn apply_machine_mode(&self, t: QualType, attrs: &Attrs) -> PResult<QualType> {
        let Some((mode, span)) = attrs.mode else {
            return Ok(t);
        };
        let new = match (mode, &*t.ty) {
            (Mode::Int(n), CType::Int(_) | CType::Enum(_)) => {
                let signed = ty::int_kind(&t.ty, &self.types).is_some_and(|k| k.is_signed(self.target));
                let k = match (n, signed) {
                    (1, true) => IntKind::SChar,
                    (1, false) => IntKind::UChar,
                    (2, true) => IntKind::Short,
                    (2, false) => IntKind::UShort,
                    (4, true) => IntKind::Int,
                    (4, false) => IntKind::UInt,
                    (8, true) => IntKind::Long,
                    (8, false) => IntKind::ULong,
                    (_, true) => IntKind::Int128,
                    (_, false) => IntKind::UInt128,
                };
                CType::Int(k)
            }
            (Mode::Float(k), CType::Float(_)) => CType::Float(k),
            (Mode::Complex(k), CType::Complex(_)) => CType::Complex(Arith::Float(k)),
            _ => return Err(err(span, "invalid mode for this type")),
        };
        Ok(QualType::new(new).with_quals(t.quals))
    }

    /// The type of a declarator over `base` (walking `derived` in reverse).
    /// With `def` (a function definition: its K&R parameter declarations), the
    /// outermost function derivation declares its parameters as locals in a
    /// new scope that stays open for the body.
    pub(super) fn declarator_type(
        &mut self,
        base: QualType,
        d: &Declarator,
        def: Option<&[Declaration]>,
    ) -> PResult<(QualType, Vec<ParamInfo>)> {
        let mut t = base;
        let mut params_out = Vec::new();
        if d.derived.len() + type_depth(&t.ty) > MAX_TYPE_DEPTH {
            return Err(err(d.span, "type nesting too deep"));
        }
        for (i, der) in d.derived.iter().enumerate().rev() {
            t = match der {
                Derived::Pointer(qs) => QualType {
                    ty: Arc::new(CType::Pointer(t)),
                    quals: quals_of(*qs),
                },
                Derived::Array { size, .. } => self.array_of(t, size, d.span)?,
                Derived::Function(sig) => {
                    let def_here = if i == 0 { def } else { None };
                    let (ft, ps) = self.function_of(t, sig, def_here, d.span)?;
                    if def_here.is_some() {
                        params_out = ps;
                    }
                    ft
                }
            };
        }
        Ok((t, params_out))
    }

    /// `elem[size]` (6.7.6.2).
    fn array_of(&mut self, elem: QualType, size: &ArraySize, span: Span) -> PResult<QualType> {
        match &*elem.ty {
            CType::Function { .. } => return Err(err(span, "declaration of an array of functions")),
            CType::Void => return Err(err(span, "declaration of an array of 'void'")),
            // An array of VLAs (6.7.6.2p4): its size is known at run time.
            t if !ty::is_complete(t, &self.types) && !self.types.is_runtime_sized(t) => {
                return Err(err(
                    span,
                    format!("array type has incomplete element type '{}'", self.type_str(&elem)),
                ))
            }
            _ => {}
        }
        let len =
            match size {
                ArraySize::Unknown => ArrayLen::Unknown,
                ArraySize::Star => ArrayLen::Variable,
                ArraySize::Expr(e) => {
                    let x = self.rvalue_of(e)?;
                    if ty::int_kind(&x.ty.ty, &self.types).is_none() {
                        return Err(err(e.span, "size of array has non-integer type"));
                    }
                    match x.kind {
                        // A constant number of VLAs is itself a VLA.
                        ExprKind::Int(v) if v >= 0 && self.types.is_runtime_sized(&elem.ty) => {
                            if self.in_prototype > 0 || self.vla_size_of(&elem.ty).is_none() {
                                ArrayLen::Variable
                            } else {
                                return self.make_vla(elem, x, span);
                            }
                        }
                        ExprKind::Int(v) => {
                            if v < 0 {
                                return Err(err(e.span, "size of array is negative"));
                            }
                            if v > u64::MAX as i128 {
                                return Err(err(e.span, "size of array is too large"));
                            }
                            ArrayLen::Fixed(v as u64)
                        }
                        _ if self.in_prototype > 0 => ArrayLen::Variable,
                        _ if self.func.is_some() => return self.make_vla(elem, x, span),
                        _ => return Err(err(
                            e.span,
                            "array size is not an integer constant expression (variably modified type at file scope)",
                        )),
                    }
                }
            };
        let t = q(CType::Array { elem, len });
        if let ArrayLen::Fixed(_) = len {
            if !ty::is_variably_modified(&t.ty) {
                self.size_of(&t, span)
                    .map_err(|_| err(span, "size of array is too large"))?;
            }
        }
        Ok(t)
    }

    /// A variable length array: a hidden `size_t` local receives the number of
    /// innermost fixed-size units when the declaration is reached.
    fn make_vla(&mut self, elem: QualType, count: Expr, span: Span) -> PResult<QualType> {
        let count = self.convert(count, &ty::size_t());
        let (unit, total) = match self.vla_size_of(&elem.ty) {
            Some(inner) => {
                let inner_count = self.load_local(inner.count, ty::size_t(), span);
                let total = self.mk_binary(super::super::hir::BinaryOp::Mul, count, inner_count, ty::size_t(), span);
                (inner.unit, total)
            }
            None => (self.size_of(&elem, span)?, count),
        };
        let count_local = self.new_local(Arc::from(".vla_count"), ty::size_t(), 8, false, span)?;
        let lhs = Expr {
            kind: ExprKind::Local(count_local),
            ty: ty::size_t(),
            span,
        };
        let assign = Expr {
            kind: ExprKind::Assign {
                lhs: Box::new(lhs),
                rhs: Box::new(total),
            },
            ty: ty::size_t(),
            span,
        };
        self.vla_pending.push(Stmt {
            kind: StmtKind::Expr(assign),
            span,
        });
        let arc = Arc::new(CType::Array {
            elem,
            len: ArrayLen::Variable,
        });
        self.vla_sizes.insert(
            Arc::as_ptr(&arc) as usize,
            VlaSize {
                keep: arc.clone(),
                count: count_local,
                unit,
            },
        );
        Ok(QualType {
            ty: arc,
            quals: Qualifiers::default(),
        })
    }

    /// The run-time size record of a VLA type, if `t` is one sema created.
    pub(super) fn vla_size_of(&self, t: &Arc<CType>) -> Option<VlaSize> {
        if let CType::Record(id) = &**t {
            // A record with variably modified members: its size in bytes.
            return self.var_records.get(id).map(|v| VlaSize {
                keep: t.clone(),
                count: v.size,
                unit: 1,
            });
        }
        if !ty::is_vla(t) {
            return None;
        }
        self.vla_sizes.get(&(Arc::as_ptr(t) as usize)).cloned()
    }

    /// A function derivation (6.7.6.3).
    fn function_of(
        &mut self,
        ret: QualType,
        sig: &ast::FunctionSig,
        def: Option<&[Declaration]>,
        span: Span,
    ) -> PResult<(QualType, Vec<ParamInfo>)> {
        match &*ret.ty {
            CType::Function { .. } => return Err(err(span, "function cannot return a function")),
            CType::Array { .. } => return Err(err(span, "function cannot return an array")),
            _ => {}
        }
        let ret = unqual(&ret);
        if sig.unprototyped || !sig.identifiers.is_empty() {
            if let Some(decls) = def {
                return self.knr_params(ret, sig, decls, span);
            }
            if !sig.identifiers.is_empty() {
                self.warn(span, "parameter names (without types) in function declaration");
            }
            let t = q(CType::Function {
                ret,
                params: Vec::new(),
                variadic: false,
                prototyped: false,
            });
            return Ok((t, Vec::new()));
        }
        let is_def = def.is_some();
        self.scopes.push();
        if !is_def {
            self.in_prototype += 1;
        }
        let r = self.prototype_params(sig, is_def);
        if !is_def {
            self.in_prototype -= 1;
            self.scopes.pop();
        }
        let params = r?;
        let t = q(CType::Function {
            ret,
            params: params.iter().map(|p| unqual(&p.ty)).collect(),
            variadic: sig.variadic,
            prototyped: true,
        });
        Ok((t, params))
    }

    fn prototype_params(&mut self, sig: &ast::FunctionSig, is_def: bool) -> PResult<Vec<ParamInfo>> {
        let mut out = Vec::new();
        for p in &sig.params {
            if let Some(sc) = p.specs.storage {
                if sc != ast::StorageClass::Register {
                    return Err(err(p.span, "storage class specified for parameter"));
                }
            }
            let base = self.specs_base(&p.specs, false)?;
            if base.auto_type {
                return Err(err(p.span, "'__auto_type' is not allowed for a parameter"));
            }
            let (t, _) = self.declarator_type(base.ty, &p.declarator, None)?;
            let mut attrs = Attrs::default();
            self.collect_attrs(&p.specs.attrs, &mut attrs)?;
            self.collect_attrs(&p.declarator.attrs, &mut attrs)?;
            let t = self.apply_mode(t, &attrs)?;
            if ty::is_void(&t.ty) {
                return Err(err(p.span, "parameter has type 'void'"));
            }
            let t = self.adjust_param(t, &p.declarator);
            let name = p.declarator.name.clone();
            let mut local = None;
            if let Some((n, nspan)) = &name {
                if self.scopes.lookup_current(n).is_some() {
                    return Err(err(*nspan, format!("redefinition of parameter '{n}'")));
                }
                let obj = if is_def {
                    if !ty::is_complete(&t.ty, &self.types) {
                        return Err(err(*nspan, format!("parameter '{n}' has incomplete type")));
                    }
                    let align = self.align_of(&t, *nspan)?;
                    let id = self.new_local(n.clone(), t.clone(), align, true, *nspan)?;
                    local = Some(id);
                    ObjRef::Local(id)
                } else {
                    ObjRef::ProtoParam
                };
                self.scopes.declare(n.clone(), Ordinary::Object { obj, ty: t.clone() });
            } else if is_def {
                // An unnamed parameter of a definition still occupies a slot.
                if !ty::is_complete(&t.ty, &self.types) {
                    return Err(err(p.span, "parameter has incomplete type"));
                }
                let align = self.align_of(&t, p.span)?;
                local = Some(self.new_local(Arc::from(""), t.clone(), align, true, p.span)?);
            }
            out.push(ParamInfo { ty: t, local });
        }
        Ok(out)
    }

    /// Parameter adjustment (6.7.6.3p7-8): arrays become pointers (with the
    /// qualifiers inside `[]`), functions pointers to functions; a
    /// `va_list` parameter is a pointer on x86-64, where `va_list` is an array.
    pub(super) fn adjust_param(&self, t: QualType, d: &Declarator) -> QualType {
        match &*t.ty {
            CType::Array { elem, .. } => {
                let quals = match d.derived.first() {
                    Some(Derived::Array { quals, .. }) => quals_of(*quals),
                    _ => Qualifiers::default(),
                };
                QualType::new(CType::Pointer(elem.clone())).with_quals(quals)
            }
            CType::Function { .. } => ty::ptr_to(t),
            CType::VaList if self.va_list_is_array() => QualType::new(CType::Pointer(unqual(&t))).with_quals(t.quals),
            _ => t,
        }
    }

    /// Whether `__builtin_va_list` is an array type (decays to a pointer): x86-64 only.
    pub(super) fn va_list_is_array(&self) -> bool {
        self.target.va_list().is_array()
    }

    /// K&R parameters of a definition (6.9.1p6): each identifier gets its type
    /// from the declaration list (default `int`). The caller passes default
    /// argument promotions, so the parameter slot has the promoted type and a
    /// separate local of the declared type receives the converted value.
    fn knr_params(
        &mut self,
        ret: QualType,
        sig: &ast::FunctionSig,
        decls: &[Declaration],
        span: Span,
    ) -> PResult<(QualType, Vec<ParamInfo>)> {
        self.scopes.push();
        // Check that every declared name is a parameter.
        for d in decls {
            for id in &d.declarators {
                if let Some((n, s)) = &id.declarator.name {
                    if !sig.identifiers.iter().any(|(m, _)| m == n) {
                        return Err(err(
                            *s,
                            format!("declaration for parameter '{n}' but no such parameter"),
                        ));
                    }
                }
            }
        }
        let mut out = Vec::new();
        let mut abi_types = Vec::new();
        for (name, nspan) in &sig.identifiers {
            let mut declared = None;
            for d in decls {
                for id in &d.declarators {
                    if id.declarator.name.as_ref().is_some_and(|(n, _)| n == name) {
                        let base = self.specs_base(&d.specs, false)?;
                        let (t, _) = self.declarator_type(base.ty, &id.declarator, None)?;
                        declared = Some(self.adjust_param(t, &id.declarator));
                    }
                }
            }
            let declared = match declared {
                Some(t) => t,
                None => {
                    self.warn(*nspan, format!("type of '{name}' defaults to 'int'"));
                    ty::int()
                }
            };
            if !ty::is_complete(&declared.ty, &self.types) {
                return Err(err(*nspan, format!("parameter '{name}' has incomplete type")));
            }
            let abi = self.default_promoted_type(&declared);
            let align = self.align_of(&abi, *nspan)?;
            let slot = self.new_local(name.clone(), abi.clone(), align, true, *nspan)?;
            let visible = if unqual(&abi) != unqual(&declared) {
                let align = self.align_of(&declared, *nspan)?;
                let local = self.new_local(name.clone(), declared.clone(), align, false, *nspan)?;
                let value = self.load_local(slot, abi.clone(), *nspan);
                let value = self.convert(value, &declared);
                let f = self.fcx(span)?;
                f.prologue.push(Stmt {
                    kind: StmtKind::Decl {
                        local,
                        init: Some(super::super::hir::Init::Expr(value)),
                    },
                    span: *nspan,
                });
                local
            } else {
                slot
            };
            self.scopes.declare(
                name.clone(),
                Ordinary::Object {
                    obj: ObjRef::Local(visible),
                    ty: declared.clone(),
                },
            );
            abi_types.push(unqual(&abi));
            out.push(ParamInfo {
                ty: abi,
                local: Some(slot),
            });
        }
        let t = q(CType::Function {
            ret,
            params: abi_types,
            variadic: false,
            prototyped: false,
        });
        Ok((t, out))
    }

    /// Reads a local of type `t` (used for hidden locals).
    pub(super) fn load_local(&self, id: LocalId, t: QualType, span: Span) -> Expr {
        let lv = Expr {
            kind: ExprKind::Local(id),
            ty: t.clone(),
            span,
        };
        Expr {
            kind: ExprKind::Load(Box::new(lv)),
            ty: unqual(&t),
            span,
        }
    }
}
