//! Statements (6.8), declarations at block scope, linkage and
//! redeclarations (6.2.2, 6.2.7), labels, switch, asm.

use super::support::*;
use crate::frontend::hir::*;
use crate::frontend::types::{ArrayLen, CType, IntKind};

fn switch_of(p: &Program, name: &str) -> (Vec<SwitchCase>, Option<CaseId>, String) {
    fn find(s: &Stmt) -> Option<&Stmt> {
        match &s.kind {
            StmtKind::Switch { .. } => Some(s),
            StmtKind::Block(v) => v.iter().find_map(find),
            _ => None,
        }
    }
    let s = body(p, name).iter().find_map(find).expect("a switch");
    let StmtKind::Switch {
        cond, cases, default, ..
    } = &s.kind
    else {
        unreachable!()
    };
    (cases.clone(), *default, sexp(p, Some(func(p, name)), cond))
}

#[test]
fn switch_cases_6_8_4_2() {
    let p = ok("int f(char c) { switch (c) { case 'a': return 1; case 1 ... 5: case 300: break; default: return 2; case -1: ; } return 0; }");
    let (cases, default, cond) = switch_of(&p, "f");
    assert_eq!(cond, "(IntToInt:int (Load c))");
    let ranges: Vec<(i128, i128)> = cases.iter().map(|c| (c.lo, c.hi)).collect();
    assert_eq!(ranges, vec![(97, 97), (1, 5), (300, 300), (-1, -1)]);
    assert!(default.is_some());
    // Case values are converted to the promoted type of the condition.
    let p = ok("int f(unsigned u) { switch (u) { case -1: return 1; } return 0; }");
    assert_eq!(switch_of(&p, "f").0[0].lo, 4294967295);
    let e = error("int f(int x) { switch (x) { case 1: case 2: case 1: break; } return 0; }");
    assert!(e.contains("duplicate case value"), "{e}");
    let e = error("int f(int x) { switch (x) { case 1 ... 10: case 5: break; } return 0; }");
    assert!(e.contains("duplicate case value"), "{e}");
    let e = error("int f(int x) { switch (x) { default: default: break; } return 0; }");
    assert!(e.contains("multiple default labels"), "{e}");
    assert!(error("int f(int x) { case 1: return 0; }").contains("not within a switch"));
    assert!(error("int f(int x) { switch (x) { case x: break; } return 0; }").contains("integer constant expression"));
    assert!(error("int f(double d) { switch (d) { } return 0; }").contains("not an integer"));
}

#[test]
fn jumps_6_8_6() {
    assert!(error("void f(void) { break; }").contains("break statement not within loop or switch"));
    assert!(error("void f(void) { switch (1) { continue; } }").contains("continue statement not within a loop"));
    assert!(error("void f(void) { goto nowhere; }").contains("label 'nowhere' used but not defined"));
    assert!(error("void f(void) { a: a: ; }").contains("duplicate label 'a'"));
    ok("void f(int x) { for (;;) { switch (x) { case 1: continue; default: break; } break; } while (x) { if (x) break; else continue; } do { } while (0); }");
    // Labels are per function; a label and a variable may share a name.
    ok("int f(void) { int a = 0; goto a; a: return a; } int g(void) { a: return 0; }");
    // GNU local labels in nested blocks (macro-style statement expressions).
    let p = ok("int f(void) { int r = ({ __label__ out; goto out; out: 1; }) + ({ __label__ out; goto out; out: 2; }); return r; }");
    assert_eq!(func(&p, "f").labels.len(), 2);
}

#[test]
fn return_statements_6_8_6_4() {
    let p = ok("double f(int x) { return x; } void g(void) { return; } void h(void) { return g(); }");
    assert_eq!(ret_sexp(&p, "f"), "(IntToFloat:double (Load x))");
    assert!(warnings("int f(void) { return; }")
        .iter()
        .any(|w| w.contains("with no value")));
    assert!(warnings("void f(void) { return 1; }")
        .iter()
        .any(|w| w.contains("with a value")));
    assert!(error("struct S { int a; }; int f(struct S s) { return s; }").contains("incompatible types when returning"));
    // main returns 0 when it reaches its closing brace (5.1.2.2.3).
    let p = ok("int main(void) { }");
    assert!(matches!(
        body(&p, "main").last(),
        Some(Stmt {
            kind: StmtKind::Return(Some(Expr {
                kind: ExprKind::Int(0),
                ..
            })),
            ..
        })
    ));
}

#[test]
fn block_scope_declarations() {
    let p = ok("int g;
                int f(int n) {
                    int x = 1;
                    { int x = 2; g += x; }
                    static int count = 5; count++;
                    extern int g; g = x;
                    typedef long L; L y = n;
                    int vla[n];
                    for (int i = 0; i < n; i++) vla[i] = i;
                    return x + (int)y + count;
                }");
    let f = func(&p, "f");
    let names: Vec<&str> = f.locals.iter().map(|l| &*l.name).collect();
    assert!(names.contains(&"x") && names.contains(&"y") && names.contains(&"i") && names.contains(&"vla"));
    assert_eq!(names.iter().filter(|n| **n == "x").count(), 2);
    // The block-scope static is a global with a unique name and its initializer.
    let count = p.globals.iter().find(|g| g.name.starts_with("count.")).unwrap();
    assert_eq!(count.linkage, Linkage::Internal);
    assert!(count.is_definition);
    // `extern int g` in the block refers to the file-scope g: one global.
    assert_eq!(p.globals.iter().filter(|g| g.name == "g").count(), 1);
    let vla = f.locals.iter().find(|l| &*l.name == "vla").unwrap();
    assert!(matches!(
        &*vla.ty.ty,
        CType::Array {
            len: ArrayLen::Variable,
            ..
        }
    ));
    assert!(error("void f(void) { int x; int x; }").contains("redeclaration of 'x'"));
    assert!(error("void f(int a) { int a; }").contains("redeclaration of 'a'"));
    assert!(error("void f(void) { int a[]; }").contains("array size missing"));
    assert!(error("void f(void) { struct S s; }").contains("storage size of 's' isn't known"));
}

#[test]
fn linkage_and_redeclarations_6_2_2() {
    let p = ok("extern int a[]; int a[10]; int a[10];
                int f(); int f(int x) { return x; } int f(int);
                static int s; extern int s; static int h(void); int h(void) { return 1; }
                int t; int t; int t = 3;
                int later(void) { extern int e; return e; } int e = 4;");
    let a = global(&p, "a");
    assert!(matches!(
        &*a.ty.ty,
        CType::Array {
            len: ArrayLen::Fixed(10),
            ..
        }
    ));
    assert_eq!(p.globals.iter().filter(|g| g.name == "a").count(), 1);
    let CType::Function { prototyped, .. } = &*global(&p, "f").ty.ty else {
        panic!()
    };
    assert!(prototyped);
    assert_eq!(global(&p, "s").linkage, Linkage::Internal);
    assert_eq!(global(&p, "h").linkage, Linkage::Internal);
    assert!(global(&p, "t").init.is_some());
    assert_eq!(p.globals.iter().filter(|g| g.name == "e").count(), 1);
    // Tentative definitions are definitions without initializer; extern ones are not.
    let p = ok("int tent; extern int decl; int arr[];");
    assert!(global(&p, "tent").is_definition && global(&p, "tent").init.is_none());
    assert!(!global(&p, "decl").is_definition);
    assert!(matches!(
        &*global(&p, "arr").ty.ty,
        CType::Array {
            len: ArrayLen::Fixed(1),
            ..
        }
    ));
    for (src, msg) in [
        ("int x; long x;", "conflicting types for 'x'"),
        ("int f(int); int f(long);", "conflicting types for 'f'"),
        ("int x; static int x;", "static declaration of 'x' follows non-static"),
        ("static int y; int y;", "non-static declaration of 'y' follows static"),
        ("int x = 1; int x = 2;", "redefinition of 'x'"),
        (
            "int f(void) { return 0; } int f(void) { return 1; }",
            "redefinition of 'f'",
        ),
        ("int x; void x(void);", "redeclared as different kind of symbol"),
        ("typedef int T; typedef long T;", "conflicting types for typedef 'T'"),
        (
            "struct S { int a; }; struct S { int a; };",
            "redefinition of 'struct S'",
        ),
        ("struct S; union S *p;", "wrong kind of tag"),
        ("struct S s;", "storage size of 's' isn't known"),
    ] {
        let e = error(src);
        assert!(e.contains(msg), "{src}: {e}");
    }
}

#[test]
fn tags_and_scopes_6_2_1() {
    let p = ok(
        "struct S { int a; }; void f(void) { struct S { char c; } inner; inner.c = 1; } struct S outer;
                struct L; struct L *lp; struct L { struct L *next; int v; };
                int g(void) { return lp->v + sizeof(struct L); }",
    );
    assert_eq!(p.types.size_of(&global(&p, "outer").ty.ty), Ok(4));
    assert!(ret_sexp(&p, "g").contains(" 16:unsigned long)"));
    // An enumerator is an ordinary identifier of the scope it is declared in.
    ok("enum { A = 1 }; void f(void) { enum { A = 2 } x = A; (void)x; } int b[A];");
    assert!(error("enum { A }; int A;").contains("redeclared as different kind"));
}

#[test]
fn inline_asm() {
    let p = ok(
        "int f(int x) { int y, z; asm volatile(\"mov %1, %0\" : \"=r\"(y) : \"r\"(x + 1) : \"cc\");
                asm(\"\" : [out] \"+m\"(z) : [in] \"m\"(x), \"i\"(42));
                asm goto(\"jmp %l0\" : : : : done); return y;
                done: asm(\"nop\"); return z; }",
    );
    let asms: Vec<&Asm> = body(&p, "f")
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Asm(a) => Some(a),
            StmtKind::Block(v) => v.iter().find_map(|s| match &s.kind {
                StmtKind::Asm(a) => Some(a),
                _ => None,
            }),
            _ => None,
        })
        .collect();
    assert_eq!(asms.len(), 4);
    let f = func(&p, "f");
    assert!(asms[0].outputs[0].expr.is_lvalue());
    assert_eq!(sexp(&p, Some(f), &asms[0].inputs[0].expr), "(Add:int (Load x) 1:int)");
    assert_eq!(asms[0].clobbers, vec!["cc"]);
    // Memory inputs stay lvalues; other constraints take values.
    assert!(asms[1].inputs[0].expr.is_lvalue());
    assert_eq!(asms[1].inputs[0].name.as_deref(), Some("in"));
    assert!(!asms[1].inputs[1].expr.is_lvalue());
    assert!(asms[2].is_goto && asms[2].is_volatile);
    assert_eq!(asms[2].labels.len(), 1);
    assert!(asms[3].is_volatile, "basic asm without outputs is volatile");
    assert!(error("void f(void) { asm(\"\" : \"=r\"(1)); }").contains("invalid lvalue in asm output"));
    assert!(error("void f(int x) { asm(\"\" : \"r\"(x)); }").contains("lacks '='"));
    assert!(error("void f(void) { asm(\"\" : : \"m\"(1)); }").contains("not directly addressable"));
    assert!(error("void f(void) { asm goto(\"\" : : : : nope); }").contains("label 'nope' used but not defined"));
}

#[test]
fn static_assert_6_7_10() {
    ok(
        "_Static_assert(sizeof(int) == 4, \"int\"); struct S { int a; _Static_assert(1, \"in struct\"); };
        void f(void) { _Static_assert(sizeof(long) == 8, \"long\"); }",
    );
    let e = error("_Static_assert(sizeof(int) == 8, \"int is not 8 bytes\");");
    assert!(e.contains("static assertion failed: \"int is not 8 bytes\""), "{e}");
    assert!(error("int x; _Static_assert(x, \"\");").contains("integer constant expression"));
}

#[test]
fn computed_goto_targets() {
    let p = ok("int f(int i) { void *t[] = { &&a, &&b }; goto *t[i]; a: return 1; b: return 2; c: return 3; }");
    let f = func(&p, "f");
    let taken: Vec<&str> = f.labels.iter().filter(|l| l.address_taken).map(|l| &*l.name).collect();
    assert_eq!(taken, vec!["a", "b"]);
    assert!(error("void *p = &&x;").contains("outside of any function"));
    let p = ok("int f(int i) { static int n; n = i; return n; }");
    assert!(matches!(
        &*global(&p, &p.globals.iter().find(|g| g.name.starts_with("n.")).unwrap().name)
            .ty
            .ty,
        CType::Int(IntKind::Int)
    ));
}
