//! Initializers (6.7.9): static initializer bytes compared with what gcc
//! puts in memory (a probe prints every byte of each object, run natively
//! or under qemu), address constants, and the shape of run-time `Init`s.

use super::support::*;
use crate::frontend::hir::*;
use crate::target::Target;

/// Compares our static bytes for `names` with the bytes gcc's program holds
/// at startup (address bytes excepted: those are checked separately).
fn check_bytes_with_gcc(decls: &str, names: &[&str], t: Target) {
    let (p, _) = analyze_t(decls, t).unwrap_or_else(|e| panic!("{e}"));
    let mut probe = format!("#include <stdio.h>\n{decls}\nint main(void) {{\n");
    for n in names {
        probe.push_str(&format!(
            "  {{ const unsigned char *b = (const unsigned char *)&{n}; printf(\"{n}\"); for (unsigned long i = 0; i < sizeof {n}; i++) printf(\" %d\", b[i]); printf(\"\\n\"); }}\n"
        ));
    }
    probe.push_str("  return 0;\n}\n");
    let Some(out) = run_probe(t, &probe) else { return };
    for line in out.lines() {
        let mut it = line.split_whitespace();
        let name = it.next().unwrap();
        let gcc: Vec<u8> = it.map(|x| x.parse().unwrap()).collect();
        let ours = match &global(&p, name).init {
            Some(i) => init_bytes(i),
            None => vec![Some(0); gcc.len()],
        };
        assert_eq!(ours.len(), gcc.len(), "{} {name}: size", t.name());
        for (i, (o, g)) in ours.iter().zip(&gcc).enumerate() {
            if let Some(o) = o {
                assert_eq!(o, g, "{} {name}: byte {i}: ours {ours:?}\ngcc {gcc:?}", t.name());
            }
        }
    }
}

const STATICS: &str = r#"
struct P { char c; int i; short s; };
struct B { unsigned a:3, b:5, c:9; signed d:7; unsigned long long e:40; char f; };
union U { char c[6]; int i; double d; };
struct N { struct P p[2]; union U u; char tail[5]; };
struct F { int n; struct { char x; long y; } inner; float f; double g; };
int scalar = -5;
char chars[] = "hello";
char sized[8] = "hi";
char cut[3] = "abcdef";
int arr[6] = { 1, 2, [4] = 9, 10 };
int unknown[] = { [3] = 7, 1 };
struct P ps[] = { { 'a', 1, 2 }, [2].s = 3, { .i = 4 } };
struct B bits = { 5, 17, 300, -3, 0x123456789aULL, 'z' };
struct B bits2 = { .e = 1, .a = 7, .d = 63 };
union U un = { .i = 0x01020304 };
union U un2 = { .c = "ab", .i = 7 };
struct N nested = { { 1, 2, 3, 4, 5 }, .u.d = 1.5, "xyz" };
struct N elided = { 'q', 70000, 7, { 'r' }, { { 1, 2, 3, 4, 5, 6 } }, { 'k' } };
struct F fl = { 1, { 'x', -2 }, 1.25f, -0.5 };
int range[10] = { [2 ... 5] = 8, [7] = 1 };
double ds[3] = { 1, 2.5f, -1e300 };
long long ll = -1;
_Bool flags[4] = { 0, 2, 0.5, 0 };
unsigned char uc = 511;
signed char sc = 200;
short sh[] = { 1, -1, 32768 };
long double ldv = 2.0;
int over[2] = { [0] = 1, [0] = 2, 3 };
struct { int a[3]; int b; } brace_elision = { 1, 2, 3, 4 };
int matrix[2][3] = { { 1 }, 4, 5 };
char strs[2][4] = { "ab", "cde" };
unsigned short wide[] = u"hi";
__WCHAR_TYPE__ wchars[] = L"xyz";
int zero[4] = {};
struct P from_compound = (struct P){ 1, 2, 3 };
#pragma pack(push, 1)
struct Odd3 { unsigned a : 19; char b; };
struct Odd6 { char c[1]; unsigned short s : 3; unsigned x : 30; signed y : 6; };
struct Odd5 { unsigned a : 7; unsigned b : 32; };
#pragma pack(pop)
struct Odd3 odd3[2] = { { 0x7ffff, 'q' }, { 0x12345, -1 } };
struct Odd6 odd6 = { { 9 }, 5, 0x3ffffffe, -7 };
struct Odd5 odd5[2] = { { 0x55, 0xdeadbeef }, { 1, 2 } };
"#;

#[test]
fn static_initializer_bytes_match_gcc() {
    let names = [
        "scalar",
        "chars",
        "sized",
        "cut",
        "arr",
        "unknown",
        "ps",
        "bits",
        "bits2",
        "un",
        "un2",
        "nested",
        "elided",
        "fl",
        "range",
        "ds",
        "ll",
        "flags",
        "uc",
        "sc",
        "sh",
        "ldv",
        "over",
        "brace_elision",
        "matrix",
        "strs",
        "wide",
        "wchars",
        "zero",
        "from_compound",
        "odd3",
        "odd6",
        "odd5",
    ];
    for t in Target::ALL {
        check_bytes_with_gcc(STATICS, &names, t);
    }
}

#[test]
fn unknown_sizes_come_from_the_initializer() {
    let p = ok(STATICS);
    let size = |n: &str| p.types.size_of(&global(&p, n).ty.ty).unwrap();
    assert_eq!(size("chars"), 6);
    assert_eq!(size("unknown"), 20);
    assert_eq!(size("ps"), 48);
    assert_eq!(size("sh"), 6);
    assert_eq!(size("wide"), 6);
    assert_eq!(size("wchars"), 16);
}

#[test]
fn address_constants_6_6p9() {
    let p = ok(
        "int x; int a[10]; struct S { int i; char c[4]; } s; char buf[8]; void f(void);
                int *px = &x; int *pa = &a[3]; int *pa2 = a + 5; char *pc = &s.c[2]; char *pb = (char *)&x + 4;
                void (*pf)(void) = f; void (*pf2)(void) = &f; const char *str = \"lit\" + 1; long asint = (long)&buf;
                int *null = 0; int *fixed = (int *)16; long diff = &a[7] - &a[2]; int *back = &a[4] - 1;
                struct S *ps = &s; char **pp = &(char *){ buf }; _Bool nonnull = &x;",
    );
    let addr = |n: &str| match &init_of(&p, n).items[..] {
        [StaticItem {
            offset: 0,
            value: StaticValue::Addr { target, offset },
        }] => (*target, *offset),
        other => panic!("{n}: {other:?}"),
    };
    let g = |n: &str| AddrTarget::Global(global_id(&p, n));
    assert_eq!(addr("px"), (g("x"), 0));
    assert_eq!(addr("pa"), (g("a"), 12));
    assert_eq!(addr("pa2"), (g("a"), 20));
    assert_eq!(addr("pc"), (g("s"), 6));
    assert_eq!(addr("pb"), (g("x"), 4));
    assert_eq!(addr("pf"), (g("f"), 0));
    assert_eq!(addr("pf2"), (g("f"), 0));
    assert!(matches!(addr("str"), (AddrTarget::Str(_), 1)));
    assert_eq!(addr("asint"), (g("buf"), 0));
    assert_eq!(addr("back"), (g("a"), 12));
    assert_eq!(addr("ps"), (g("s"), 0));
    assert!(matches!(addr("pp"), (AddrTarget::Global(_), 0)));
    assert!(init_of(&p, "null").items.is_empty());
    assert_eq!(init_bytes(init_of(&p, "fixed"))[0], Some(16));
    assert_eq!(init_bytes(init_of(&p, "diff"))[0], Some(5));
    assert_eq!(init_bytes(init_of(&p, "nonnull"))[0], Some(1));
    for bad in [
        "int x; int y = x;",
        "int x; short s = (short)&x;",
        "int f(void); int y = f();",
        "int x; int *p = &x + (x ? 1 : 2);",
    ] {
        let e = error(bad);
        assert!(e.contains("not constant") || e.contains("not computable"), "{bad}: {e}");
    }
}

#[test]
fn label_addresses_in_static_locals() {
    let p = ok(
        "int f(int i) { static void *t[] = { &&a, &&b }; static const int d[] = { &&b - &&a };
                goto *t[i]; a: return 1; b: return d[0]; }",
    );
    let t = p.globals.iter().find(|g| g.name.starts_with("t.")).unwrap();
    let f = global_id(&p, "f");
    let items = &t.init.as_ref().unwrap().items;
    assert!(matches!(
        items[..],
        [
            StaticItem {
                offset: 0,
                value: StaticValue::Addr {
                    target: AddrTarget::Label(g1, LabelId(_)),
                    offset: 0
                }
            },
            StaticItem {
                offset: 8,
                value: StaticValue::Addr {
                    target: AddrTarget::Label(g2, LabelId(_)),
                    offset: 0
                }
            }
        ] if g1 == f && g2 == f
    ));
    let d = p.globals.iter().find(|g| g.name.starts_with("d.")).unwrap();
    assert!(matches!(
        d.init.as_ref().unwrap().items[..],
        [StaticItem {
            value: StaticValue::LabelDiff { size: 4, .. },
            ..
        }]
    ));
    // Both labels are possible targets of the indirect goto.
    let fun = func(&p, "f");
    assert!(fun.labels.iter().all(|l| l.address_taken));
    fn find_targets(s: &Stmt) -> Option<Vec<LabelId>> {
        match &s.kind {
            StmtKind::GotoIndirect { targets, .. } => Some(targets.clone()),
            StmtKind::Block(v) => v.iter().find_map(find_targets),
            _ => None,
        }
    }
    assert_eq!(find_targets(&fun.body).unwrap().len(), 2);
}

#[test]
fn runtime_initializers_are_flat_stores() {
    let p = ok("struct P { char c; int i; short s:4, t:4; }; int g(void);
                void f(void) { int x = g(); struct P p = { 'a', .s = 3, g() }; int a[] = { [2] = 1, g() };
                char s[6] = \"ab\"; char u[] = \"xyz\"; struct P q = p; int sc = { 5 }; struct P z = {}; }");
    let decls: Vec<(&Local, &Option<Init>)> = body(&p, "f")
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl { local, init } => Some((&func(&p, "f").locals[local.0 as usize], init)),
            _ => None,
        })
        .collect();
    let f = func(&p, "f");
    let shape = |i: &Option<Init>| match i {
        Some(Init::Expr(e)) => format!("= {}", sexp(&p, Some(f), e)),
        Some(Init::List { stores }) => stores
            .iter()
            .map(|s| {
                let Init::Expr(e) = &s.init else { panic!("nested list") };
                format!(
                    "[{}{}] {}",
                    s.offset,
                    s.bitfield
                        .map(|b| format!(" bf{}:{}:{}", b.unit_size, b.bit_offset, b.width))
                        .unwrap_or_default(),
                    sexp(&p, Some(f), e)
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
        None => "none".into(),
    };
    let got: Vec<String> = decls.iter().map(|(l, i)| format!("{}: {}", l.name, shape(i))).collect();
    assert_eq!(
        got,
        vec![
            "x: = (Call:int (FuncDecay @g))",
            "p: [0] 97:char, [8 bf1:0:4] 3:short, [8 bf1:4:4] (IntToInt:short (Call:int (FuncDecay @g)))",
            "a: [8] 1:int, [12] (Call:int (FuncDecay @g))",
            "s: = str0",
            "u: = str1",
            "q: = (Load p)",
            "sc: = 5:int",
            "z: ",
        ]
    );
    assert_eq!(f.locals.iter().find(|l| &*l.name == "a").unwrap().ty.ty.to_owned(), {
        use crate::frontend::types::*;
        std::sync::Arc::new(CType::Array {
            elem: QualType::new(CType::Int(IntKind::Int)),
            len: ArrayLen::Fixed(4),
        })
    });
    // The string objects are sized to the arrays they initialize.
    assert_eq!(p.strings[0].bytes, b"ab\0\0\0\0");
    assert_eq!(p.strings[1].bytes, b"xyz\0");
}

#[test]
fn initializer_errors_and_warnings() {
    assert!(error("int a[2] = 3;").contains("brace-enclosed"));
    assert!(error("struct S { int x; } s = { .y = 1 };").contains("unknown field 'y'"));
    assert!(error("int a[2] = { [5] = 1 };").contains("exceeds array bounds"));
    assert!(error("struct S; struct S s = { 1 };").contains("incomplete type"));
    assert!(error("void f(int n) { int a[n] = { 1 }; }").contains("variable-sized object"));
    assert!(error("int x = { .a = 1 };").contains("designator"));
    // A flexible array member is initialized statically only (GNU).
    let e = error("struct I { int n; char tail[]; }; void f(void) { struct I x = { 1, { 'a' } }; }");
    assert!(e.contains("flexible array member is not supported"), "{e}");
    let e = error("struct I { int n; char tail[]; }; void f(void) { struct I x = { .tail = \"ab\" }; }");
    assert!(e.contains("flexible array member is not supported"), "{e}");
    ok("struct I { int n; char tail[]; } x = { 1 }; struct I y = { .n = 2 };");
    assert!(warnings("int a[2] = { 1, 2, 3 };")
        .iter()
        .any(|w| w.contains("excess elements")));
    assert!(warnings("char s[2] = \"abc\";").iter().any(|w| w.contains("too long")));
    assert!(warnings("int x = { 1, 2 };")
        .iter()
        .any(|w| w.contains("excess elements in scalar")));
}

#[test]
fn static_flexible_array_members_extend_the_object() {
    // repro-06: gcc sizes the object by the initializer (sizeof stays the type's).
    let p = ok("struct I { int n; int v[]; } x = { 3, { 10, 20, 30 } };
                struct C { short n; char s[]; } y = { .s = \"abc\", .n = 2 };
                struct I z = { 1 };
                int size_x = sizeof x;");
    let x = init_of(&p, "x");
    assert_eq!(x.size, 16);
    assert_eq!(init_bytes(x)[4..8], [Some(10), Some(0), Some(0), Some(0)]);
    assert_eq!(init_bytes(x)[12], Some(30));
    let y = init_of(&p, "y");
    assert_eq!(y.size, 6);
    assert_eq!(init_bytes(y)[2..6], [Some(b'a'), Some(b'b'), Some(b'c'), Some(0)]);
    assert_eq!(init_of(&p, "z").size, 4);
    assert_eq!(init_bytes(init_of(&p, "size_x"))[0], Some(4));
}
