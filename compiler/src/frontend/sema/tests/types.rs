//! Types from declarations (6.7.2, 6.7.6) and record layout, with sizes,
//! alignments and offsets checked by each target's gcc: our numbers are
//! written as `_Static_assert`s that `gcc -fsyntax-only` must accept.

use super::support::*;
use crate::frontend::hir::*;
use crate::frontend::types::{ArrayLen, CType, FloatKind, IntKind, QualType};
use crate::target::Target;

/// Records of the program by tag, with the C spelling to name them.
fn tagged_records(p: &Program) -> Vec<(String, crate::frontend::types::RecordId)> {
    p.types
        .records
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let tag = r.tag.as_ref()?;
            let kw = if r.is_union { "union" } else { "struct" };
            Some((format!("{kw} {tag}"), crate::frontend::types::RecordId(i as u32)))
        })
        .collect()
}

/// Writes our size/alignment/offsets of every tagged record as static
/// assertions after `decls` and asks gcc for the target to check them
/// (`__alignof__`: gcc's C11 `_Alignof` caps vector alignment at 16).
fn check_layouts_with_gcc(decls: &str, t: Target) -> usize {
    let (p, _) = analyze_t(&format!("#include <stddef.h>\n{decls}"), t).unwrap_or_else(|e| panic!("{e}"));
    let mut src = format!("#include <stddef.h>\n{decls}\n");
    let mut n = 0;
    for (name, id) in tagged_records(&p) {
        let r = &p.types.records[id.0 as usize];
        let Some(l) = &r.layout else { continue };
        src.push_str(&format!(
            "_Static_assert(sizeof({name}) == {}, \"size {name}\");\n_Static_assert(__alignof__({name}) == {}, \"align {name}\");\n",
            l.size, l.align
        ));
        n += 2;
        for (m, place) in r.members.iter().zip(&l.fields) {
            if let (Some(mname), None) = (&m.name, m.bit_width) {
                src.push_str(&format!(
                    "_Static_assert(offsetof({name}, {mname}) == {}, \"offset {name}.{mname}\");\n",
                    place.offset
                ));
                n += 1;
            }
        }
    }
    match gcc_accepts(t, &src) {
        Some(Ok(())) => n,
        Some(Err(e)) => panic!("{} gcc disagrees with our layout:\n{e}\n{src}", t.name()),
        None => 0,
    }
}

const RECORDS: &str = r#"
struct A { char c; int i; char d; };
struct B { char c; long long l; short s; double d; char e; };
struct C { char a:3; char b:6; int c:20; long long d:40; char e; };
struct D { int a:3; int :0; char b; unsigned c:31; unsigned d:2; };
struct __attribute__((packed)) E { char a; int b; short c; long long d:33; char e; };
struct F { char a; int b __attribute__((aligned(16))); char c; };
struct __attribute__((aligned(32))) G { char a; };
struct H { char c; struct A a; union { int x; char y[7]; } u; };
struct I { int n; char tail[]; };
struct J { char c; _Alignas(8) char d; short e; };
struct K { _Bool b:1; unsigned char u:7; unsigned short s:9; char z; };
struct L { char a; long double ld; __int128 i; float f; };
union M { char a[5]; int b; short c:3; };
struct N { struct { int p, q; }; union { char r; long s; }; int t; };
#pragma pack(push, 2)
struct O { char a; int b; long long c; char d; };
#pragma pack(pop)
#pragma pack(1)
struct P { char a; short b; int c:9; };
#pragma pack()
struct Q { char a; short b; };
typedef int aligned_int __attribute__((aligned(8)));
struct R { char a; aligned_int b; };
struct S { char a; enum { X = 1, Y = 1000000 } e; enum __attribute__((packed)) { Z = 255 } f; char g; };
struct T { char a; __builtin_va_list ap; char b; };
struct U { unsigned long long a:7, b:58; unsigned c:1; char d; };
struct V { char a; int :5; char b; short :0; char c; };
struct W { int x; struct I inner; };
struct X2 { char a; int b[3][2]; char c; void *p; };
struct PK1 { char c;
#pragma pack(1)
int i; char d; long l; };
#pragma pack()
struct PK2 { char c; int i;
#pragma pack(1)
};
#pragma pack()
#pragma pack(1)
struct PK3 { char c;
#pragma pack()
int i; };
"#;

#[test]
fn record_layout_matches_gcc_on_every_target() {
    let mut checks = 0;
    for t in Target::ALL {
        checks += check_layouts_with_gcc(RECORDS, t);
    }
    eprintln!("{checks} layout facts checked by gcc");
}

/// Sizes of the basic types and `va_list`, per target, as gcc sees them.
#[test]
fn scalar_sizes_and_va_list_match_gcc() {
    let types = [
        "char",
        "short",
        "int",
        "long",
        "long long",
        "__int128",
        "float",
        "double",
        "long double",
        "void *",
        "_Bool",
        "__builtin_va_list",
        "wchar_t",
        "size_t",
        "ptrdiff_t",
        "max_align_t",
    ];
    for t in Target::ALL {
        let mut decls = String::from("#include <stddef.h>\n");
        for (i, ty) in types.iter().enumerate() {
            decls.push_str(&format!("{ty} v{i};\n"));
        }
        let (p, _) = analyze_t(&decls, t).unwrap();
        let mut src = decls.clone();
        for (i, ty) in types.iter().enumerate() {
            let g = global(&p, &format!("v{i}"));
            let size = p.types.size_of(&g.ty.ty).unwrap();
            let align = p.types.align_of(&g.ty.ty).unwrap();
            src.push_str(&format!(
                "_Static_assert(sizeof({ty}) == {size} && _Alignof({ty}) == {align}, \"{ty}\");\n"
            ));
        }
        if let Some(Err(e)) = gcc_accepts(t, &src) {
            panic!("{}: {e}", t.name());
        }
    }
}

/// Plain `char` and `wchar_t` signedness per target, against gcc at run time.
#[test]
fn char_signedness_matches_gcc() {
    for t in Target::ALL {
        let src = "int c = (char)-1 < 0; int w = (wchar_t)-1 < 0; int lc = L'\\xffffffff' < 0; int cc = '\\xff';";
        let (p, _) = analyze_t(&format!("#include <stddef.h>\n{src}"), t).unwrap();
        let ours: Vec<i128> = ["c", "w", "lc", "cc"]
            .iter()
            .map(|n| match &init_of(&p, n).items[..] {
                [] => 0,
                [StaticItem {
                    value: StaticValue::Int { bits, .. },
                    ..
                }] => *bits as i32 as i128,
                other => panic!("{other:?}"),
            })
            .collect();
        let probe = format!(
            "#include <stdio.h>\n#include <stddef.h>\n{src}\nint main(void) {{ printf(\"%d %d %d %d\\n\", c, w, lc, cc); return 0; }}\n"
        );
        if let Some(out) = run_probe(t, &probe) {
            let expect: Vec<i128> = out.split_whitespace().map(|x| x.parse().unwrap()).collect();
            assert_eq!(ours, expect, "{}", t.name());
        }
    }
}

fn ty_of(p: &Program, name: &str) -> QualType {
    global(p, name).ty.clone()
}

#[test]
fn declarators_build_types_inside_out_6_7_6() {
    let p = ok(
        "int *a[3]; int (*b)[3]; int (*f(int))(char); void (*signal(int, void (*)(int)))(int);
                char **const *volatile c; int (*(*g)(void))[2];",
    );
    // a: array of 3 pointers to int.
    let CType::Array { elem, len } = &*ty_of(&p, "a").ty else {
        panic!()
    };
    assert_eq!(*len, ArrayLen::Fixed(3));
    assert!(matches!(&*elem.ty, CType::Pointer(x) if matches!(&*x.ty, CType::Int(IntKind::Int))));
    // b: pointer to array of 3 ints.
    let CType::Pointer(x) = &*ty_of(&p, "b").ty else {
        panic!()
    };
    assert!(matches!(
        &*x.ty,
        CType::Array {
            len: ArrayLen::Fixed(3),
            ..
        }
    ));
    // f: function(int) returning pointer to function(char) returning int.
    let CType::Function { ret, params, .. } = &*ty_of(&p, "f").ty else {
        panic!()
    };
    assert!(matches!(&*params[0].ty, CType::Int(IntKind::Int)));
    let CType::Pointer(r) = &*ret.ty else { panic!() };
    assert!(matches!(&*r.ty, CType::Function { params, .. } if matches!(&*params[0].ty, CType::Int(IntKind::Char))));
    // signal: second parameter is a pointer to function.
    let CType::Function { params, .. } = &*ty_of(&p, "signal").ty else {
        panic!()
    };
    assert!(matches!(&*params[1].ty, CType::Pointer(f) if matches!(&*f.ty, CType::Function { .. })));
    // c: volatile pointer to const pointer to pointer to char.
    let c = ty_of(&p, "c");
    assert!(c.quals.is_volatile);
    let CType::Pointer(x) = &*c.ty else { panic!() };
    assert!(x.quals.is_const && !x.quals.is_volatile);
    assert_eq!(
        super::super::ty::type_name(&ty_of(&p, "g"), &p.types),
        "int (*(*)(void))[2]"
    );
}

#[test]
fn typedefs_typeof_and_auto_type() {
    let p = ok("typedef int A[4]; typedef const A CA; CA x = {1};
                typedef struct S { int v; } S; S s; typeof(s) t; __typeof__(int *) ip;
                typeof(x) y = {2}; long l; typeof(l + 1u) ul;
                void f(void) { __auto_type z = 1.5f; __auto_type q = &l; (void)z; (void)q; }");
    // const applies to the array's elements (6.7.3p9).
    let CType::Array { elem, .. } = &*ty_of(&p, "x").ty else {
        panic!()
    };
    assert!(elem.quals.is_const);
    assert!(matches!(&*ty_of(&p, "t").ty, CType::Record(_)));
    assert!(matches!(&*ty_of(&p, "ip").ty, CType::Pointer(_)));
    assert!(matches!(
        &*ty_of(&p, "y").ty,
        CType::Array {
            len: ArrayLen::Fixed(4),
            ..
        }
    ));
    assert!(matches!(&*ty_of(&p, "ul").ty, CType::Int(IntKind::Long)));
    let f = func(&p, "f");
    assert!(matches!(&*f.locals[0].ty.ty, CType::Float(FloatKind::Float)));
    assert!(matches!(&*f.locals[1].ty.ty, CType::Pointer(x) if matches!(&*x.ty, CType::Int(IntKind::Long))));
}

#[test]
fn parameters_are_adjusted_6_7_6_3() {
    let p = ok("void f(int a[10], int b[const 3], int g(void), char c[][4]) {}
                void v(__builtin_va_list ap) {}");
    let CType::Function { params, .. } = &*ty_of(&p, "f").ty else {
        panic!()
    };
    assert!(params.iter().all(|t| matches!(&*t.ty, CType::Pointer(_))));
    let f = func(&p, "f");
    assert_eq!(f.params.len(), 4);
    // `int b[const 3]` is `int *const b`.
    assert!(f.locals[f.params[1].0 as usize].ty.quals.is_const);
    let CType::Pointer(x) = &*params[3].ty else { panic!() };
    assert!(matches!(
        &*x.ty,
        CType::Array {
            len: ArrayLen::Fixed(4),
            ..
        }
    ));
    // x86-64: a va_list parameter is a pointer; elsewhere it is the va_list itself.
    let CType::Function { params, .. } = &*ty_of(&p, "v").ty else {
        panic!()
    };
    assert!(matches!(&*params[0].ty, CType::Pointer(x) if matches!(&*x.ty, CType::VaList)));
    for t in [Target::Aarch64, Target::Riscv64] {
        let (p, _) = analyze_t("void v(__builtin_va_list ap) {}", t).unwrap();
        let CType::Function { params, .. } = &*ty_of(&p, "v").ty else {
            panic!()
        };
        assert!(matches!(&*params[0].ty, CType::VaList));
    }
}

#[test]
fn knr_definitions_receive_promoted_arguments() {
    let p = ok("int f(a, c, x) char c; float x; { return a + c + (int)x; }");
    let CType::Function { params, prototyped, .. } = &*ty_of(&p, "f").ty else {
        panic!()
    };
    assert!(!prototyped);
    // The caller passes int, int, double (default argument promotions).
    assert!(matches!(&*params[0].ty, CType::Int(IntKind::Int)));
    assert!(matches!(&*params[1].ty, CType::Int(IntKind::Int)));
    assert!(matches!(&*params[2].ty, CType::Float(FloatKind::Double)));
    // The body sees `char c` and `float x`, initialized from the slots.
    let decls: Vec<_> = body(&p, "f")
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl {
                local,
                init: Some(Init::Expr(e)),
            } => Some((*local, e)),
            _ => None,
        })
        .collect();
    assert_eq!(decls.len(), 2);
    let f = func(&p, "f");
    assert!(matches!(
        &*f.locals[decls[0].0 .0 as usize].ty.ty,
        CType::Int(IntKind::Char)
    ));
    assert!(matches!(decls[1].1.kind, ExprKind::Cast(CastKind::FloatToFloat, _)));
}

#[test]
fn enums_get_values_and_types() {
    let p = ok("enum E { A, B = 5, C, D = -2, E2 }; int a[C]; int b[E2 + 2];
                enum Big { L = 0x100000000 }; enum Big big; enum E e;
                enum __attribute__((packed)) Small { S1 = 200 } small;");
    assert!(matches!(
        &*ty_of(&p, "a").ty,
        CType::Array {
            len: ArrayLen::Fixed(6),
            ..
        }
    ));
    assert!(matches!(
        &*ty_of(&p, "b").ty,
        CType::Array {
            len: ArrayLen::Fixed(1),
            ..
        }
    ));
    assert_eq!(p.types.size_of(&ty_of(&p, "big").ty), Ok(8));
    assert_eq!(p.types.size_of(&ty_of(&p, "e").ty), Ok(4));
    assert_eq!(p.types.size_of(&ty_of(&p, "small").ty), Ok(1));
    let CType::Enum(id) = &*ty_of(&p, "e").ty else { panic!() };
    // A negative enumerator makes the underlying type `int` (gcc's choice).
    assert_eq!(p.types.enums[id.0 as usize].underlying, IntKind::Int);
}

#[test]
fn attributes_and_alignas() {
    let p = ok("_Alignas(32) int x; int y __attribute__((aligned(64))); char z __attribute__((aligned));
                typedef int di __attribute__((mode(DI))); di d; typedef unsigned uqi __attribute__((__mode__(__QI__))); uqi q;
                __attribute__((section(\".mysec\"), used)) int s = 1; __attribute__((weak)) void w(void) {}
                __attribute__((visibility(\"hidden\"), noinline)) void h(void) {} _Noreturn void nr(void);
                __attribute__((constructor(101))) void ctor(void) {} __attribute__((destructor)) void dtor(void) {}
                static int real = 0; extern int alias_ __attribute__((alias(\"real\")));
                int renamed __asm__(\"other_name\") = 3; __thread int tls; const int ci = 1;
                static inline int si(void) { return 1; } inline int only_inline(void) { return 2; }
                extern inline __attribute__((gnu_inline)) int gi(void) { return 3; }");
    assert_eq!(global(&p, "x").attrs.align, Some(32));
    assert_eq!(global(&p, "y").attrs.align, Some(64));
    assert_eq!(global(&p, "z").attrs.align, Some(16));
    assert_eq!(p.types.size_of(&ty_of(&p, "d").ty), Ok(8));
    assert!(matches!(&*ty_of(&p, "q").ty, CType::Int(IntKind::UChar)));
    let s = global(&p, "s");
    assert_eq!(s.attrs.section.as_deref(), Some(".mysec"));
    assert!(s.attrs.used);
    assert!(global(&p, "w").attrs.weak);
    let h = global(&p, "h");
    assert_eq!(h.attrs.visibility.as_deref(), Some("hidden"));
    assert!(h.attrs.noinline);
    assert!(global(&p, "nr").attrs.noreturn);
    assert_eq!(global(&p, "ctor").attrs.constructor, Some(Some(101)));
    assert_eq!(global(&p, "dtor").attrs.destructor, Some(None));
    assert_eq!(global(&p, "alias_").attrs.alias.as_deref(), Some("real"));
    assert!(p.globals.iter().any(|g| g.name == "other_name"));
    assert!(global(&p, "tls").attrs.thread_local);
    assert!(global(&p, "ci").attrs.is_const);
    assert!(!global(&p, "si").attrs.gnu_inline && global(&p, "si").attrs.is_inline);
    // C99 6.7.4p7: only `inline` declarations give an inline definition, no external one.
    assert!(global(&p, "only_inline").attrs.gnu_inline);
    assert!(global(&p, "gi").attrs.gnu_inline);
}

const VECTOR_RECORDS: &str = r#"
typedef char v1c __attribute__((vector_size(1)));
typedef short v2s __attribute__((vector_size(4)));
typedef int v2i __attribute__((vector_size(8)));
typedef float v4f __attribute__((vector_size(16)));
typedef double v4d __attribute__((__vector_size__(32)));
typedef unsigned char v64c __attribute__((vector_size(64)));
typedef long v16l __attribute__((vector_size(128)));
struct VA { char c; v1c a; v2s b; char d; v2i e; };
struct VB { char c; v4f f; char d; v4d g; short h; };
struct VC { v64c a; char b; v16l c[2]; };
union VU { v4f f; int i[4]; char c; };
struct VD { char c; int __attribute__((vector_size(16))) v; long __attribute__((vector_size(8))) w[3]; };
"#;

#[test]
fn vector_layout_matches_gcc_on_every_target() {
    let mut checks = 0;
    for t in Target::ALL {
        checks += check_layouts_with_gcc(VECTOR_RECORDS, t);
    }
    eprintln!("{checks} vector layout facts checked by gcc");
    let p = ok("typedef float v4 __attribute__((vector_size(16))); v4 x; int __attribute__((vector_size(8))) *p;");
    assert_eq!(
        *global(&p, "x").ty.ty,
        CType::Vector {
            elem: crate::frontend::types::Arith::Float(FloatKind::Float),
            len: 4
        }
    );
    // `vector_size` applies to the innermost type of a derivation (gcc).
    let CType::Pointer(pointee) = &*global(&p, "p").ty.ty else {
        panic!("a pointer")
    };
    assert!(matches!(&*pointee.ty, CType::Vector { len: 2, .. }));
}

/// Each program is rejected by phicc with gcc's wording, and by gcc.
#[test]
fn vector_misuse_is_an_error_like_gccs() {
    let cases = [
        (
            "typedef int v __attribute__((vector_size(6)));",
            "not an integral multiple of component size",
        ),
        (
            "typedef int v __attribute__((vector_size(12)));",
            "number of vector components 3 not a power of two",
        ),
        ("typedef int v __attribute__((vector_size(0)));", "zero vector size"),
        (
            "struct s { int a; }; typedef struct s v __attribute__((vector_size(16)));",
            "invalid vector type",
        ),
        (
            "typedef _Bool v __attribute__((vector_size(16)));",
            "invalid vector type",
        ),
        (
            "typedef short v __attribute__((vector_size(16))); v f(v a, int x) { return a + x; }",
            "conversion of scalar 'int' to vector '__vector(8) short' involves truncation",
        ),
        (
            "typedef short v __attribute__((vector_size(16))); v f(v a) { return a + 100000; }",
            "involves truncation",
        ),
        (
            "typedef float v __attribute__((vector_size(16))); v f(v a, double d) { return a * d; }",
            "involves truncation",
        ),
        (
            "typedef float v __attribute__((vector_size(16))); v f(v a, int i) { return a * i; }",
            "involves truncation",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); v f(v a) { return a + 1.5; }",
            "invalid operands to binary +",
        ),
        (
            "typedef float v __attribute__((vector_size(16))); v f(v a, v b) { return a % b; }",
            "invalid operands to binary %",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); typedef int w __attribute__((vector_size(8))); \
             v f(v a, w b) { return a + b; }",
            "invalid operands to binary +",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); typedef float w __attribute__((vector_size(16))); \
             v f(v a, w b) { return a - b; }",
            "invalid operands to binary -",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); long f(v a) { return (long)a; }",
            "which has different size",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); v f(double d) { return (v)d; }",
            "cannot convert",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); typedef float w __attribute__((vector_size(16))); \
             void f(v a, w b) { a = b; }",
            "incompatible types",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); int f(v a) { return !a; }",
            "scalar is required",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); int f(v a) { if (a) return 1; return 0; }",
            "",
        ),
        (
            "typedef float v __attribute__((vector_size(16))); v f(v a) { return ~a; }",
            "bit-complement",
        ),
        (
            "typedef int v __attribute__((vector_size(16))); int f(v a) { return a + 1; }",
            "incompatible types",
        ),
    ];
    for (src, want) in cases {
        let e = error(src);
        assert!(e.contains("error:") && e.contains(want), "{src}\n{e}");
        if let Some(Ok(())) = gcc_accepts(Target::X86_64, src) {
            panic!("gcc accepts what phicc rejects:\n{src}");
        }
    }
    // Accepted, as by gcc: a sign change of a constant, a narrower variable,
    // an exactly representable constant, a vector shifted by any integer.
    ok(
        "typedef unsigned v __attribute__((vector_size(16))); v f(v a, short s, long n) \
        { return (a + -1) * s + (a << n); }",
    );
    ok("typedef float v __attribute__((vector_size(16))); v f(v a, short s) { return a * 2 + 0.5 + s + 16777216; }");
    ok("typedef short v __attribute__((vector_size(16))); v f(v a, signed char c) { return a + (int)c + (long)(short)c; }");
}

#[test]
fn complex_types_compute_but_have_no_order() {
    ok("_Complex double z; double _Complex f(double _Complex); typedef _Complex float cf;");
    ok("_Complex double z; _Complex double g(void) { return z + 1; }");
    ok("_Complex int a = 1 + 2i; __complex__ unsigned char b; int h(void) { return a == b; }");
    ok("double z2; double h(_Complex float w) { __real__ w = 2; return __imag__ w + ~w; }");
    let e = error("_Complex double z; int g(void) { return z < 1; }");
    assert!(e.contains("invalid operands to binary <"), "{e}");
    let e = error("_Complex _Bool b;");
    assert!(e.contains("non-arithmetic type"), "{e}");
    let e = error("struct s { int a; } v; double g(void) { return __imag__ v; }");
    assert!(e.contains("wrong type argument to '__imag__'"), "{e}");
}

#[test]
fn variable_length_arrays() {
    let p = ok(
        "int f(int n, int m) { int a[n][m]; a[1][2] = 3; return sizeof a + sizeof(int[n]) + sizeof a[0]; }
                void g(int n, int (*p)[n]) { p[1][0] = 1; }",
    );
    let b = body(&p, "f");
    assert!(b
        .iter()
        .any(|s| matches!(&s.kind, StmtKind::VlaAlloc { elem_size: 4, .. })));
    // `sizeof a` reads the hidden count local: not a constant.
    let r = returned(&p, "f");
    assert!(int_of(r).is_none());
    let e = error("int n = 3; int a[n];");
    assert!(e.contains("file scope"), "{e}");
}
