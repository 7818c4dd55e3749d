//! A checker for the conventions of `hir.rs` (what lowering relies on),
//! run over real programs: Csmith, the fuzz seeds and a feature-heavy
//! program. Each violation names the rule and the expression.

use super::support::*;
use crate::frontend::hir::*;
use crate::frontend::types::{CType, IntKind, QualType, TypeContext};
use crate::target::Target;

struct Checker<'a> {
    p: &'a Program,
    f: Option<&'a Function>,
    errors: Vec<String>,
}

fn unq(t: &QualType) -> &CType {
    &t.ty
}

fn is_unqualified(t: &QualType) -> bool {
    t.quals == Default::default()
}

impl<'a> Checker<'a> {
    fn cx(&self) -> &TypeContext {
        &self.p.types
    }

    fn fail(&mut self, rule: &str, e: &Expr) {
        if self.errors.len() < 20 {
            let s = sexp(self.p, self.f, e);
            self.errors.push(format!("{rule}: {}", &s[..s.len().min(300)]));
        }
    }

    fn same(&self, a: &QualType, b: &QualType) -> bool {
        unq(a) == unq(b)
    }

    fn expr(&mut self, e: &Expr) {
        use ExprKind::*;
        if !e.is_lvalue() && !is_unqualified(&e.ty) && !matches!(e.kind, Member { .. }) {
            self.fail("a value has an unqualified type", e);
        }
        match &e.kind {
            Local(id) => {
                if self.f.is_some_and(|f| id.0 as usize >= f.locals.len()) {
                    self.fail("local out of range", e);
                }
            }
            Global(id) => {
                if id.0 as usize >= self.p.globals.len() {
                    self.fail("global out of range", e);
                }
            }
            Str(id) => {
                if id.0 as usize >= self.p.strings.len() {
                    self.fail("string out of range", e);
                }
            }
            Deref(p) => {
                if !matches!(unq(&p.ty), CType::Pointer(_)) || p.is_lvalue() {
                    self.fail("Deref takes a pointer value", e);
                }
                self.expr(p);
            }
            Member { base, .. } => {
                if !matches!(unq(&base.ty), CType::Record(_) | CType::Complex(_)) {
                    self.fail("Member of a record (or a part of a complex)", e);
                }
                self.expr(base);
            }
            CompoundLiteral { init, .. } => self.init(init),
            Load(x) => {
                if !x.is_lvalue() || matches!(unq(&x.ty), CType::Array { .. } | CType::Function { .. } | CType::Void) {
                    self.fail("Load of an object lvalue", e);
                }
                if !self.same(&x.ty, &e.ty) {
                    self.fail("Load keeps the type", e);
                }
                self.expr(x);
            }
            ArrayDecay(x) => {
                if !x.is_lvalue() || !matches!(unq(&x.ty), CType::Array { .. }) {
                    self.fail("ArrayDecay of an array lvalue", e);
                }
                self.expr(x);
            }
            FuncDecay(x) => {
                if !matches!(unq(&x.ty), CType::Function { .. }) {
                    self.fail("FuncDecay of a function", e);
                }
                self.expr(x);
            }
            Cast(k, x) => {
                if x.is_lvalue() {
                    self.fail("Cast of a value", e);
                }
                let ok = match k {
                    CastKind::ToVoid => matches!(unq(&e.ty), CType::Void),
                    CastKind::ToBool => matches!(unq(&e.ty), CType::Int(IntKind::Bool)),
                    CastKind::IntToPtr | CastKind::PtrToPtr => matches!(unq(&e.ty), CType::Pointer(_)),
                    CastKind::PtrToInt => matches!(unq(&x.ty), CType::Pointer(_)),
                    CastKind::IntToFloat | CastKind::FloatToFloat => matches!(unq(&e.ty), CType::Float(_)),
                    CastKind::FloatToInt => matches!(unq(&x.ty), CType::Float(_)),
                    CastKind::ComplexToComplex => {
                        matches!(unq(&e.ty), CType::Complex(_)) && matches!(unq(&x.ty), CType::Complex(_))
                    }
                    CastKind::IntToInt | CastKind::BitPrecision(_) => {
                        super::super::ty::int_kind(unq(&e.ty), self.cx()).is_some()
                            && super::super::ty::int_kind(unq(&x.ty), self.cx()).is_some()
                    }
                };
                if !ok {
                    self.fail("Cast kind matches its types", e);
                }
                self.expr(x);
            }
            Int(_) => {
                if super::super::ty::int_kind(unq(&e.ty), self.cx()).is_none() {
                    self.fail("Int has an integer type", e);
                }
            }
            Float(_) => {
                if !matches!(unq(&e.ty), CType::Float(_)) {
                    self.fail("Float has a floating type", e);
                }
            }
            AddrOf(x) => {
                if !x.is_lvalue() {
                    self.fail("AddrOf an lvalue", e);
                }
                self.expr(x);
            }
            Unary(op, x) => {
                let ok = match op {
                    UnaryOp::LogNot => matches!(unq(&e.ty), CType::Int(IntKind::Int)),
                    _ => self.same(&x.ty, &e.ty),
                };
                if !ok || x.is_lvalue() {
                    self.fail("Unary operand", e);
                }
                self.expr(x);
            }
            Binary(op, a, b) => {
                let cmp = matches!(
                    op,
                    BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
                );
                let shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr);
                // A complex operation may keep one operand of the part type.
                let part_or_same = |x: &Expr| match unq(&e.ty) {
                    CType::Complex(p) => self.same(&x.ty, &e.ty) || self.same(&x.ty, &super::super::ty::arith_type(*p)),
                    _ => self.same(&x.ty, &e.ty),
                };
                let ok = if cmp {
                    self.same(&a.ty, &b.ty) && matches!(unq(&e.ty), CType::Int(IntKind::Int))
                } else if matches!(unq(&e.ty), CType::Complex(_)) {
                    part_or_same(a) && part_or_same(b)
                } else if shift {
                    self.same(&a.ty, &e.ty)
                } else {
                    self.same(&a.ty, &e.ty) && self.same(&b.ty, &e.ty)
                };
                if !ok || a.is_lvalue() || b.is_lvalue() {
                    self.fail("Binary operands have the operation type", e);
                }
                self.expr(a);
                self.expr(b);
            }
            PtrAdd { ptr, index, .. } => {
                if !matches!(unq(&ptr.ty), CType::Pointer(_))
                    || !matches!(unq(&index.ty), CType::Int(IntKind::Long))
                    || !self.same(&ptr.ty, &e.ty)
                {
                    self.fail("PtrAdd: pointer and long index", e);
                }
                self.expr(ptr);
                self.expr(index);
            }
            PtrDiff { lhs, rhs, .. } => {
                if !matches!(unq(&e.ty), CType::Int(IntKind::Long)) {
                    self.fail("PtrDiff is long", e);
                }
                self.expr(lhs);
                self.expr(rhs);
            }
            LogAnd(a, b) | LogOr(a, b) => {
                for x in [a, b] {
                    if !super::super::ty::is_scalar(unq(&x.ty)) || x.is_lvalue() {
                        self.fail("&&/|| operands are scalar values", e);
                    }
                }
                self.expr(a);
                self.expr(b);
            }
            Cond(c, a, b) => {
                let void = matches!(unq(&e.ty), CType::Void);
                if !super::super::ty::is_scalar(unq(&c.ty))
                    || (!void && (!self.same(&a.ty, &e.ty) || !self.same(&b.ty, &e.ty)))
                {
                    self.fail("Cond operands have the result type", e);
                }
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            Comma(a, b) => {
                if !self.same(&b.ty, &e.ty) {
                    self.fail("Comma has its right operand's type", e);
                }
                self.expr(a);
                self.expr(b);
            }
            Assign { lhs, rhs } => {
                if !lhs.is_lvalue() || !self.same(&lhs.ty, &rhs.ty) || !self.same(&lhs.ty, &e.ty) {
                    self.fail("Assign: rhs converted to the lvalue's type", e);
                }
                self.expr(lhs);
                self.expr(rhs);
            }
            CompoundAssign {
                op,
                lhs,
                rhs,
                op_ty,
                ptr_elem_size,
            } => {
                let shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr);
                let ok = lhs.is_lvalue()
                    && match ptr_elem_size {
                        Some(_) => matches!(unq(&rhs.ty), CType::Int(IntKind::Long)),
                        None => shift || self.same(&rhs.ty, op_ty),
                    };
                if !ok {
                    self.fail("CompoundAssign operand types", e);
                }
                self.expr(lhs);
                self.expr(rhs);
            }
            IncDec { lhs, .. } => {
                if !lhs.is_lvalue() {
                    self.fail("IncDec of an lvalue", e);
                }
                self.expr(lhs);
            }
            Call { callee, fn_ty, args } => {
                let CType::Function { params, prototyped, .. } = unq(fn_ty) else {
                    self.fail("Call fn_ty is a function type", e);
                    return;
                };
                if !matches!(unq(&callee.ty), CType::Pointer(p) if matches!(&*p.ty, CType::Function { .. })) {
                    self.fail("Call callee is a function pointer", e);
                }
                if *prototyped {
                    for (a, p) in args.iter().zip(params) {
                        if !self.same(&a.ty, p) {
                            self.fail("Call arguments converted to the parameters", e);
                        }
                    }
                }
                self.expr(callee);
                for a in args {
                    self.expr(a);
                }
            }
            Builtin(_, args) => {
                for a in args {
                    self.expr(a);
                }
            }
            VaArg(x) => self.expr(x),
            Complex(re, im) => {
                let ok = match unq(&e.ty) {
                    CType::Complex(p) => {
                        let pt = super::super::ty::arith_type(*p);
                        self.same(&re.ty, &pt) && self.same(&im.ty, &pt)
                    }
                    _ => false,
                };
                if !ok {
                    self.fail("Complex parts have the part type", e);
                }
                self.expr(re);
                self.expr(im);
            }
            StmtExpr { body, result } => {
                for s in body {
                    self.stmt(s);
                }
                if let Some(r) = result {
                    self.expr(r);
                }
            }
            LabelAddr(l) => {
                if self.f.is_some_and(|f| l.0 as usize >= f.labels.len()) {
                    self.fail("label out of range", e);
                }
            }
        }
    }

    fn init(&mut self, i: &Init) {
        match i {
            Init::Expr(e) => self.expr(e),
            Init::List { stores } => {
                for s in stores {
                    self.init(&s.init);
                }
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Block(v) => v.iter().for_each(|x| self.stmt(x)),
            StmtKind::Decl { init: Some(i), .. } => self.init(i),
            StmtKind::VlaAlloc { count, .. } => self.expr(count),
            StmtKind::If { cond, then, els } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(e) = els {
                    self.stmt(e);
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                if let Some(x) = step {
                    self.expr(x);
                }
                self.stmt(body);
            }
            StmtKind::Switch { cond, body, .. } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::Return(Some(e)) => {
                if let Some(f) = self.f {
                    if let CType::Function { ret, .. } = unq(&self.p.globals[f.global.0 as usize].ty) {
                        if !self.same(ret, &e.ty) {
                            self.fail("Return converted to the return type", e);
                        }
                    }
                }
                self.expr(e);
            }
            StmtKind::GotoIndirect { target, .. } => self.expr(target),
            StmtKind::Asm(a) => {
                for o in &a.outputs {
                    if !o.expr.is_lvalue() {
                        self.fail("asm output is an lvalue", &o.expr);
                    }
                    self.expr(&o.expr);
                }
                for i in &a.inputs {
                    self.expr(&i.expr);
                }
            }
            _ => {}
        }
    }
}

fn check_program(p: &Program) -> Vec<String> {
    let mut c = Checker {
        p,
        f: None,
        errors: Vec::new(),
    };
    for f in &p.functions {
        c.f = Some(f);
        c.stmt(&f.body);
    }
    c.errors
}

const FEATURES: &str = r#"
#include <stdarg.h>
struct B { unsigned a:3; signed b:5; unsigned long long c:40; };
struct S { const int k; int v[3]; struct B b; };
union U { int i; char c[4]; };
struct S mk(void);
int g(int, ...);
int f(int n, ...) {
  va_list ap; va_start(ap, n);
  struct B b = { 1, -2, 3 }; struct S s = mk();
  int a[4] = { [1] = 2 }, *p = a, (*pa)[4] = &a;
  char c = 'x'; unsigned char uc = c; short sh = -1; long l = n; float fl = 1.5f; double d = fl;
  b.a += c; b.b <<= 1; b.c--; uc *= sh; l >>= uc; d /= l; p += n; p -= 1; ++p; p--;
  int r = mk().v[1] + s.v[2] + s.k + (*pa)[1] + p[-1] + (n ? a[0] : b.a) + (p != 0) + !d + ~uc;
  r += n > 0 && l < 0 || fl == 2; r = r ?: g(1, 2.0f, c, b, s);
  union U u = { .c = "ab" }; r += u.i + ({ int t = va_arg(ap, int); t * 2; });
  long diff = p - a; void *vp = p; vp = (char *)vp + 1; r += (int)diff + (vp == p);
  int vla[n]; vla[0] = sizeof vla; r += vla[0];
  va_end(ap);
  return r;
}
"#;

#[test]
fn typed_tree_follows_hir_conventions() {
    let mut programs = vec![FEATURES.to_string()];
    programs.push(include_str!("../../../../../corpora/fuzz/frontend/sema_inits.c").to_string());
    programs.push(include_str!("../../../../../corpora/fuzz/frontend/sema_exprs.c").to_string());
    for src in &programs {
        for t in Target::ALL {
            let (p, _) = analyze_t(src, t).unwrap_or_else(|e| panic!("{e}"));
            let errors = check_program(&p);
            assert!(errors.is_empty(), "{}:\n{}", t.name(), errors.join("\n"));
        }
    }
}

#[test]
fn csmith_typed_trees_follow_hir_conventions() {
    let dir = tempdir("csmith_inv");
    for seed in 1..=6 {
        let Some(path) = crate::frontend::preprocess::tests::csmith_program(&dir, seed) else {
            crate::test_skip::tool_missing("Csmith invariants", "csmith not installed");
            return;
        };
        let mut o = crate::frontend::PreprocessOptions::new(Target::X86_64);
        o.include_dirs.push("/usr/include/csmith".into());
        let mut sm = crate::frontend::SourceMap::new();
        let (tu, _) = crate::frontend::parse(&mut sm, &path, &o).unwrap();
        let (p, _) = crate::frontend::sema::analyze(&tu, Target::X86_64).unwrap();
        let errors = check_program(&p);
        assert!(errors.is_empty(), "seed {seed}:\n{}", errors.join("\n"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_checker_catches_a_broken_tree() {
    let mut p = ok("int f(int a, long b) { return a + 1; }");
    assert!(check_program(&p).is_empty());
    // Retype the literal operand: the binary node's operands no longer agree.
    fn retype(s: &mut Stmt) -> bool {
        match &mut s.kind {
            StmtKind::Return(Some(Expr {
                kind: ExprKind::Binary(_, _, b),
                ..
            })) => {
                b.ty = crate::frontend::types::QualType::new(CType::Int(IntKind::Long));
                true
            }
            StmtKind::Block(v) => v.iter_mut().any(retype),
            _ => false,
        }
    }
    assert!(retype(&mut p.functions[0].body));
    let errors = check_program(&p);
    assert!(errors.iter().any(|e| e.starts_with("Binary operands")), "{errors:?}");
}
