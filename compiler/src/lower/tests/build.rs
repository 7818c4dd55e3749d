//! A small builder for typed trees, so lowering can be tested without sema.

use crate::frontend::hir::*;
use crate::frontend::layout::RecordAttrs;
use crate::frontend::source::Span;
use crate::frontend::types::{CType, FloatKind, IntKind, Member, QualType, Qualifiers, TypeContext};
use crate::target::Target;
use std::sync::Arc;

pub fn q(t: CType) -> QualType {
    QualType::new(t)
}
pub fn int() -> QualType {
    q(CType::Int(IntKind::Int))
}
pub fn uint() -> QualType {
    q(CType::Int(IntKind::UInt))
}
pub fn long() -> QualType {
    q(CType::Int(IntKind::Long))
}
pub fn ulong() -> QualType {
    q(CType::Int(IntKind::ULong))
}
pub fn char_() -> QualType {
    q(CType::Int(IntKind::Char))
}
pub fn double() -> QualType {
    q(CType::Float(FloatKind::Double))
}
pub fn float() -> QualType {
    q(CType::Float(FloatKind::Float))
}
pub fn void() -> QualType {
    q(CType::Void)
}
pub fn ptr(t: QualType) -> QualType {
    q(CType::Pointer(t))
}
pub fn array(t: QualType, n: u64) -> QualType {
    q(CType::Array {
        elem: t,
        len: crate::frontend::types::ArrayLen::Fixed(n),
    })
}
pub fn volatile(t: QualType) -> QualType {
    t.with_quals(Qualifiers {
        is_volatile: true,
        ..Qualifiers::default()
    })
}
pub fn fn_type(ret: QualType, params: Vec<QualType>, variadic: bool) -> QualType {
    q(CType::Function {
        ret,
        params,
        variadic,
        prototyped: true,
    })
}

pub fn ex(kind: ExprKind, ty: QualType) -> Expr {
    Expr {
        kind,
        ty,
        span: Span::default(),
    }
}
pub fn lit(v: i128, ty: QualType) -> Expr {
    ex(ExprKind::Int(v), ty)
}
pub fn i(v: i128) -> Expr {
    lit(v, int())
}
pub fn lv(id: LocalId, ty: QualType) -> Expr {
    ex(ExprKind::Local(id), ty)
}
pub fn gv(id: GlobalId, ty: QualType) -> Expr {
    ex(ExprKind::Global(id), ty)
}
/// Lvalue conversion: the value's type is the unqualified object type.
pub fn load(e: Expr) -> Expr {
    let ty = QualType::new((*e.ty.ty).clone());
    ex(ExprKind::Load(Box::new(e)), ty)
}
pub fn bin(op: BinaryOp, l: Expr, r: Expr) -> Expr {
    let ty = match op {
        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => int(),
        _ => l.ty.clone(),
    };
    ex(ExprKind::Binary(op, Box::new(l), Box::new(r)), ty)
}
pub fn assign(l: Expr, r: Expr) -> Expr {
    let ty = QualType::new((*l.ty.ty).clone());
    ex(
        ExprKind::Assign {
            lhs: Box::new(l),
            rhs: Box::new(r),
        },
        ty,
    )
}
pub fn cast(kind: CastKind, e: Expr, ty: QualType) -> Expr {
    ex(ExprKind::Cast(kind, Box::new(e)), ty)
}
pub fn addr(e: Expr) -> Expr {
    let ty = ptr(e.ty.clone());
    ex(ExprKind::AddrOf(Box::new(e)), ty)
}
pub fn deref(p: Expr) -> Expr {
    let CType::Pointer(t) = &*p.ty.ty else {
        panic!("deref of a non-pointer")
    };
    let t = t.clone();
    ex(ExprKind::Deref(Box::new(p)), t)
}
pub fn member(base: Expr, offset: u64, ty: QualType, bitfield: Option<BitField>) -> Expr {
    ex(
        ExprKind::Member {
            base: Box::new(base),
            offset,
            bitfield,
        },
        ty,
    )
}
pub fn call(g: GlobalId, fty: &QualType, args: Vec<Expr>) -> Expr {
    let CType::Function { ret, .. } = &*fty.ty else {
        panic!("call of a non-function")
    };
    let callee = ex(ExprKind::FuncDecay(Box::new(gv(g, fty.clone()))), ptr(fty.clone()));
    ex(
        ExprKind::Call {
            callee: Box::new(callee),
            fn_ty: fty.clone(),
            args,
        },
        ret.clone(),
    )
}
pub fn int_to(e: Expr, ty: QualType) -> Expr {
    cast(CastKind::IntToInt, e, ty)
}

pub fn st(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        span: Span::default(),
    }
}
pub fn sexpr(e: Expr) -> Stmt {
    st(StmtKind::Expr(e))
}
pub fn ret(e: Expr) -> Stmt {
    st(StmtKind::Return(Some(e)))
}
pub fn block(items: Vec<Stmt>) -> Stmt {
    st(StmtKind::Block(items))
}
pub fn decl(l: LocalId, init: Option<Init>) -> Stmt {
    st(StmtKind::Decl { local: l, init })
}
pub fn while_(cond: Expr, body: Stmt) -> Stmt {
    st(StmtKind::While {
        cond,
        body: Box::new(body),
    })
}
pub fn if_(cond: Expr, then: Stmt, els: Option<Stmt>) -> Stmt {
    st(StmtKind::If {
        cond,
        then: Box::new(then),
        els: els.map(Box::new),
    })
}

/// A program under construction.
pub struct ProgramBuilder {
    pub p: Program,
}

impl ProgramBuilder {
    pub fn new(target: Target) -> ProgramBuilder {
        ProgramBuilder {
            p: Program {
                target,
                types: TypeContext::new(target),
                globals: Vec::new(),
                functions: Vec::new(),
                strings: Vec::new(),
                toplevel_asm: Vec::new(),
            },
        }
    }

    fn add_global(
        &mut self,
        name: &str,
        kind: GlobalKind,
        ty: QualType,
        def: bool,
        init: Option<StaticInit>,
    ) -> GlobalId {
        self.p.globals.push(Global {
            name: name.to_string(),
            kind,
            ty,
            linkage: Linkage::External,
            is_definition: def,
            init,
            attrs: GlobalAttrs::default(),
            span: Span::default(),
        });
        GlobalId(self.p.globals.len() as u32 - 1)
    }

    /// A function (declared; `define` gives it a body).
    pub fn func(&mut self, name: &str, ty: &QualType) -> GlobalId {
        self.add_global(name, GlobalKind::Function, ty.clone(), false, None)
    }

    pub fn var(&mut self, name: &str, ty: QualType, init: Option<StaticInit>) -> GlobalId {
        self.add_global(name, GlobalKind::Object, ty, true, init)
    }

    pub fn string(&mut self, s: &str) -> StrId {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        self.p.strings.push(StringLit { bytes, unit: 1 });
        StrId(self.p.strings.len() as u32 - 1)
    }

    /// A struct (or union) with its members laid out by the target's rules;
    /// returns the type and the member placements.
    pub fn record(
        &mut self,
        union: bool,
        members: &[(&str, QualType, Option<u32>)],
        attrs: RecordAttrs,
    ) -> (QualType, crate::frontend::layout::RecordLayout) {
        let id = self.p.types.new_record(None, union);
        let ms = members
            .iter()
            .map(|(n, t, w)| Member {
                name: Some(Arc::from(*n)),
                ty: t.clone(),
                bit_width: *w,
                packed: false,
                aligned: None,
                type_align: None,
            })
            .collect();
        self.p
            .types
            .complete_record(
                id,
                ms,
                RecordAttrs {
                    is_union: union,
                    ..attrs
                },
            )
            .unwrap();
        let layout = self.p.types.records[id.0 as usize].layout.clone().unwrap();
        (q(CType::Record(id)), layout)
    }

    pub fn define(&mut self, g: GlobalId, f: FnBuilder, body: Vec<Stmt>) {
        self.p.globals[g.0 as usize].is_definition = true;
        let variadic = matches!(
            &*self.p.globals[g.0 as usize].ty.ty,
            CType::Function { variadic: true, .. }
        );
        self.p.functions.push(Function {
            global: g,
            params: f.params,
            locals: f.locals,
            labels: f.labels,
            body: block(body),
            is_variadic: variadic,
            span: Span::default(),
        });
    }
}

/// The locals and labels of one function under construction.
#[derive(Default)]
pub struct FnBuilder {
    pub locals: Vec<Local>,
    pub params: Vec<LocalId>,
    pub labels: Vec<Label>,
}

impl FnBuilder {
    pub fn local(&mut self, name: &str, ty: QualType, cx: &TypeContext) -> LocalId {
        let align = cx.align_of(&ty.ty).unwrap_or(1);
        self.locals.push(Local {
            name: Arc::from(name),
            ty,
            align,
            is_param: false,
            asm_register: None,
            span: Span::default(),
        });
        LocalId(self.locals.len() as u32 - 1)
    }

    pub fn param(&mut self, name: &str, ty: QualType, cx: &TypeContext) -> LocalId {
        let id = self.local(name, ty, cx);
        self.locals[id.0 as usize].is_param = true;
        self.params.push(id);
        id
    }

    pub fn label(&mut self, name: &str, address_taken: bool) -> LabelId {
        self.labels.push(Label {
            name: Arc::from(name),
            address_taken,
        });
        LabelId(self.labels.len() as u32 - 1)
    }
}
