//! Parser tests: constructs by clause, GNU extensions, typedef scoping,
//! diagnostics, glibc headers for every target, Csmith programs, and
//! robustness on random and mutated input.

use super::super::ast::*;
use super::super::preprocess::PreprocessOptions;
use super::super::source::SourceMap;
use super::super::{parse_source, preprocess};
use crate::target::Target;

fn parse_t(src: &str, t: Target) -> Result<TranslationUnit, String> {
    let mut sm = SourceMap::new();
    parse_source(&mut sm, "t.c", src.as_bytes(), &PreprocessOptions::new(t)).map_err(|d| d.render(&sm))
}

fn parse_ok(src: &str) -> TranslationUnit {
    parse_t(src, Target::X86_64).unwrap_or_else(|e| panic!("{e}\nsource:\n{src}"))
}

fn parse_err(src: &str) -> String {
    parse_t(src, Target::X86_64).expect_err("expected a parse error")
}

fn first_decl(tu: &TranslationUnit) -> &Declaration {
    tu.items
        .iter()
        .find_map(|i| if let ExternalDecl::Decl(d) = i { Some(d) } else { None })
        .expect("a declaration")
}

fn func<'a>(tu: &'a TranslationUnit, name: &str) -> &'a FunctionDef {
    tu.items
        .iter()
        .find_map(|i| match i {
            ExternalDecl::Function(f) if f.declarator.name.as_ref().is_some_and(|(n, _)| &**n == name) => Some(f),
            _ => None,
        })
        .expect("function")
}

#[test]
fn declarator_derivations_6_7_6() {
    let tu = parse_ok("int *a[3]; int (*b)[3]; int *const *c; int (*f(void))(int); char g[2][3];");
    let ds: Vec<&Declaration> = tu
        .items
        .iter()
        .filter_map(|i| if let ExternalDecl::Decl(d) = i { Some(d) } else { None })
        .collect();
    let shape = |d: &Declaration| -> String {
        d.declarators[0]
            .declarator
            .derived
            .iter()
            .map(|x| match x {
                Derived::Pointer(q) if q.is_const => "P(const)".to_string(),
                Derived::Pointer(_) => "P".to_string(),
                Derived::Array {
                    size: ArraySize::Expr(_),
                    ..
                } => "A".to_string(),
                Derived::Array { .. } => "A?".to_string(),
                Derived::Function(f) => format!("F{}", f.params.len()),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(shape(ds[0]), "A P");
    assert_eq!(shape(ds[1]), "P A");
    assert_eq!(shape(ds[2]), "P P(const)");
    assert_eq!(shape(ds[3]), "F0 P F1");
    assert_eq!(shape(ds[4]), "A A");
}

#[test]
fn type_specifier_multisets_6_7_2() {
    let cases = [
        ("unsigned long long int x;", "ULongLong"),
        ("long unsigned x;", "ULong"),
        ("signed char x;", "SChar"),
        ("char x;", "Char"),
        ("short unsigned int x;", "UShort"),
        ("long double x;", "LongDouble"),
        ("unsigned __int128 x;", "UInt128"),
        ("__uint128_t x;", "UInt128"),
        ("_Bool x;", "Bool"),
        ("const x;", "Int"),
        ("long long x;", "LongLong"),
        ("double _Complex x;", "Complex"),
    ];
    for (src, want) in cases {
        let tu = parse_ok(src);
        let got = format!("{:?}", first_decl(&tu).specs.base);
        assert!(got.starts_with(want), "{src}: {got}");
    }
    for bad in [
        "long long long x;",
        "signed unsigned x;",
        "int char x;",
        "double float x;",
        "struct s int x;",
        "unsigned float x;",
    ] {
        assert!(parse_err(bad).contains("error"), "{bad}");
    }
}

#[test]
fn typedef_names_and_scopes_6_2_1() {
    // T is a type at file scope, an object inside f, a type again after.
    let src = "typedef int T; T a; int f(void) { T b; { int T; T = 1; T * 2; } T *c = &b; return 0; } T d;";
    let tu = parse_ok(src);
    let f = func(&tu, "f");
    let BlockItem::Stmt(Stmt {
        kind: StmtKind::Block(inner),
        ..
    }) = &f.body.items[1]
    else {
        panic!()
    };
    // `T * 2;` inside is an expression statement, not a declaration.
    assert!(matches!(inner.items[2], BlockItem::Stmt(_)));
    assert!(matches!(f.body.items[2], BlockItem::Decl(_)));
    // A parameter named like a typedef hides it in the body.
    parse_ok("typedef int T; int g(int T) { return T * 2; }");
    // Enumerators hide typedefs too.
    parse_ok("typedef int E; void h(void) { enum { E = 3 }; int x = E * 2; }");
}

#[test]
fn expressions_6_5() {
    let tu = parse_ok("int x = 1 + 2 * 3 - (4 << 1) / 2 % 3;");
    let Some(Initializer::Expr(e)) = &first_decl(&tu).declarators[0].init else {
        panic!()
    };
    let ExprKind::Binary(BinaryOp::Sub, l, _) = &e.kind else {
        panic!("{e:?}")
    };
    assert!(matches!(l.kind, ExprKind::Binary(BinaryOp::Add, _, _)));
    parse_ok(
        "struct S { int a[4]; struct S *n; } s; int *p; int main(void) {
           int a = 0, b = 1; a += b -= 2; a = a ? b : a ?: 3; p = &s.a[1]; (*p)++; --*p;
           a = sizeof s + sizeof(struct S) + _Alignof(int) + sizeof(int[3]) + sizeof (int){1};
           a = (int)(long)(char)a; a = s.n->n->a[0]; a = !a && ~a || -a; a = (a, b);
           a = _Generic(a, int: 1, default: 2); a = ((struct S){ .a = {1} }).a[0];
           a = \"abc\" \"def\"[1] + L'x' + u8\"s\"[0]; return a; }",
    );
}

#[test]
fn string_concatenation_6_4_5() {
    let tu = parse_ok("const int *w = L\"a\" \"b\"; const char *s = \"x\\n\" \"y\";");
    let d = |i: usize| match &tu.items[i] {
        ExternalDecl::Decl(d) => match &d.declarators[0].init {
            Some(Initializer::Expr(Expr {
                kind: ExprKind::Str { prefix, units },
                ..
            })) => (*prefix, units.clone()),
            other => panic!("{other:?}"),
        },
        _ => panic!(),
    };
    assert_eq!(d(0), (super::super::literal::Prefix::Wide, vec![97, 98]));
    assert_eq!(d(1).1, vec![b'x' as u32, 10, b'y' as u32]);
    assert!(parse_err("void *p = L\"a\" u\"b\";").contains("different prefixes"));
}

#[test]
fn char_constants_follow_target_signedness() {
    let val = |t| {
        let tu = parse_t("int c = '\\xff';", t).unwrap();
        match &first_decl(&tu).declarators[0].init {
            Some(Initializer::Expr(Expr {
                kind: ExprKind::Char { value, .. },
                ..
            })) => *value,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(val(Target::X86_64), -1);
    assert_eq!(val(Target::Aarch64), 255);
    assert_eq!(val(Target::Riscv64), 255);
}

#[test]
fn statements_6_8() {
    let tu = parse_ok(
        "int f(int n) {
           int s = 0;
           for (int i = 0; i < n; i++) { if (i & 1) continue; else s += i; }
           while (n--) s++;
           do { s--; } while (s > 100);
           switch (n) { case 1: s = 1; break; case 2 ... 5: s = 2; default: ; }
           goto out;
         out:
           return s;
         }",
    );
    let f = func(&tu, "f");
    assert_eq!(f.body.items.len(), 7);
    let BlockItem::Stmt(Stmt {
        kind: StmtKind::Labeled(name, _, _),
        ..
    }) = &f.body.items[6]
    else {
        panic!()
    };
    assert_eq!(&**name, "out");
}

#[test]
fn gnu_extensions() {
    parse_ok(
        "typedef struct { int x; } __attribute__((packed, aligned(4))) P;
         static inline __attribute__((always_inline)) int g(void) { return 1; }
         extern int h(void) __asm__(\"\" \"real_h\") __attribute__((__nothrow__, __leaf__));
         __extension__ typedef long long ll;
         int f(int x) {
           __label__ done;
           void *tbl[] = { &&l1, &&done };
           int y = ({ int t = x; t * 2; });
           __typeof__(y) z = y;
           typeof(int *) q = &z;
           goto *tbl[x & 1];
         l1: __attribute__((unused));
           asm volatile(\"nop\" ::: \"memory\");
           asm goto(\"jmp %l0\" : : \"r\"(x) : \"cc\" : done);
           asm(\"mov %1, %0\" : [out] \"=r\"(y) : [in] \"r\"(x));
           __builtin_va_list ap;
           z = __builtin_offsetof(P, x) + __builtin_types_compatible_p(int, long);
           _Static_assert(sizeof(int) == 4, \"int\");
         done:
           return *q + __real__ z;
         }
         int arr[10] = { [0 ... 4] = 1, [5] = 2, 3 };
         struct pt { int x, y; } p1 = { .y = 1, .x = 2 }, p2 = { x: 1, y: 2 };
         struct anon { union { int a; float b; }; struct { int c; }; int flex[]; };
         struct bits { unsigned a : 3, : 0, b : 5; int c : 1 __attribute__((packed)); };
         _Alignas(16) char buf[16]; _Thread_local int tl; _Noreturn void die(void);
         __int128 big; _Atomic int at; _Atomic(long) at2;
         int vla(int n, int a[static n], int b[*]);
         int knr(a, b) int a; char *b; { return a; }
         int outs(int x) { __auto_type y = x; asm goto(\"\" : \"=r\"(y) : \"r\"(x) : : out); out: return y; }",
    );
}

#[test]
fn pragmas_reach_the_tree() {
    let tu = parse_ok("#pragma pack(push, 1)\nstruct s {\n#pragma pack(2)\n char c; int i; };\n#pragma pack(pop)\n");
    assert!(matches!(&tu.items[0], ExternalDecl::Pragma(t, _) if t == "pack(push, 1)"));
    let d = first_decl(&tu);
    let BaseType::Struct(s) = &d.specs.base else { panic!() };
    assert!(matches!(&s.members.as_ref().unwrap()[0], StructMember::Pragma(t, _) if t == "pack(2)"));
    assert!(matches!(tu.items.last(), Some(ExternalDecl::Pragma(t, _)) if t == "pack(pop)"));
}

#[test]
fn errors_are_positioned() {
    let e = parse_err("int main(void) {\n  int x = 1\n  return x;\n}\n");
    assert!(
        e.starts_with("t.c:3:3: error: expected ';' after declaration before 'return'"),
        "{e}"
    );
    for (src, msg) in [
        ("int f( { }", "expected"),
        ("int x = ;", "expected expression"),
        ("foo bar;", "unknown type name 'foo'"),
        ("int f(void) { return 1 }", "expected ';'"),
        ("struct { int a; } = 3;", "expected identifier"),
        ("int f(void) { int a[3; }", "expected ']'"),
        ("int f(void) {", "expected '}' at end of input"),
        ("int x = 'a;", "missing terminating ' character"),
        ("int x = @;", "stray '@'"),
        ("enum {};", "empty enum"),
        ("int (*)(void);", "expected identifier"),
        ("typedef static int t;", "multiple storage classes"),
        ("int x = 0x;", "invalid integer constant"),
        ("int f(void) { asm(\"\" : : : : l); }", "without 'goto'"),
    ] {
        let e = parse_err(src);
        assert!(e.contains(msg), "{src}: {e}");
        assert!(e.starts_with("t.c:1:"), "{src}: {e}");
    }
}

#[test]
fn deep_parens_are_an_error_not_a_crash() {
    let src = format!("int x = {}1{};", "(".repeat(50000), ")".repeat(50000));
    assert!(parse_err(&src).contains("nesting too deep"));
    // C11 5.2.4.1 asks for 63 levels; we take well over that.
    parse_ok(&format!("int x = {}1{};", "(".repeat(500), ")".repeat(500)));
}

#[test]
fn deep_blocks_are_an_error_not_a_crash() {
    let src = format!("int f(void) {{ {} }}", "{".repeat(30000));
    assert!(parse_err(&src).contains("nesting too deep"));
    parse_ok(&format!("int f(void) {{ {} {} }}", "{".repeat(1000), "}".repeat(1000)));
}

#[test]
fn deep_declarators_are_an_error_not_a_crash() {
    let src = format!("int {}x;", "*".repeat(100000));
    parse_ok(&src);
    let src = format!("int {}x{};", "(".repeat(50000), ")".repeat(50000));
    assert!(parse_err(&src).contains("nesting too deep"));
    let src = format!("int x = {}1{};", "{".repeat(50000), "}".repeat(5000));
    assert!(parse_err(&src).contains("nesting too deep"));
    let src = format!("int x = {}1;", "-".repeat(50000));
    assert!(parse_err(&src).contains("nesting too deep"));
    let src = format!("{} int x; {};", "struct a {".repeat(50000), "}".repeat(50000));
    assert!(parse_err(&src).contains("nesting too deep"));
}

const PARSE_HEADERS: &[&str] = &[
    "stdio.h",
    "stdlib.h",
    "string.h",
    "stdint.h",
    "math.h",
    "stdarg.h",
    "limits.h",
    "stddef.h",
    "stdbool.h",
    "float.h",
    "inttypes.h",
    "ctype.h",
    "errno.h",
    "assert.h",
    "wchar.h",
    "signal.h",
    "setjmp.h",
    "time.h",
    "unistd.h",
    "stdalign.h",
    "stdnoreturn.h",
];

#[test]
fn glibc_headers_parse_for_every_target() {
    let mut parsed = 0;
    for t in Target::ALL {
        if !super::super::preprocess::tests::target_available(t) {
            continue;
        }
        let mut all = String::new();
        for h in PARSE_HEADERS {
            let src = format!("#include <{h}>\nint main(void) {{ return 0; }}\n");
            if let Err(e) = parse_t(&src, t) {
                panic!("{} <{h}>: {e}", t.name());
            }
            all.push_str(&format!("#include <{h}>\n"));
            parsed += 1;
        }
        all.push_str(
            "int main(int argc, char **argv) { printf(\"%d %s\\n\", argc, strchr(argv[0], '/')); \
                      va_list ap; (void)ap; return (int)sqrt(4.0) + INT_MAX / 2 + (int)strlen(\"x\"); }\n",
        );
        parse_t(&all, t).unwrap_or_else(|e| panic!("{}: all headers: {e}", t.name()));
    }
    eprintln!("parsed {parsed} header/target combinations");
}

#[test]
fn csmith_programs_parse_for_every_target() {
    let dir = std::env::temp_dir().join(format!("phicc_csmith_parse_{}", std::process::id()));
    let mut n = 0;
    for seed in 1..=8 {
        let Some(path) = super::super::preprocess::tests::csmith_program(&dir, seed) else {
            crate::test_skip::tool_missing("Csmith parse", "csmith not installed");
            return;
        };
        for t in Target::ALL {
            if !super::super::preprocess::tests::target_available(t) {
                continue;
            }
            let mut o = PreprocessOptions::new(t);
            o.include_dirs.push("/usr/include/csmith".into());
            let mut sm = SourceMap::new();
            let r = super::super::parse(&mut sm, &path, &o);
            if let Err(e) = r {
                panic!("seed {seed} {}: {}", t.name(), e.render(&sm));
            }
            n += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("parsed {n} csmith program/target combinations");
    assert!(n >= 8);
}

/// A tiny deterministic generator (xorshift) so the robustness tests need no crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut r = Rng(0x9e3779b97f4a7c15);
    for _ in 0..3000 {
        let len = (r.next() % 200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
        let mut sm = SourceMap::new();
        let res = parse_source(&mut sm, "r.c", &bytes, &PreprocessOptions::new(Target::X86_64));
        if let Err(d) = res {
            let text = d.render(&sm);
            assert!(
                text.starts_with("r.c:") || text.starts_with("<built-in>") || text.starts_with("phicc"),
                "{text}"
            );
        }
    }
}

#[test]
fn mutated_c_never_panics() {
    let seed_src = r#"#define F(x, ...) ((x) + f(0, ##__VA_ARGS__))
#define S(x) #x
#if defined(F) && 1 << 3 == 8
typedef struct node { int v : 4; struct node *next; } node;
#endif
static int f(int a, ...) { return a; }
int g(node *n, int k) {
  int s = F(k, 1, 2) + sizeof(S(a b));
  switch (k) { case 0 ... 3: s++; break; default: s--; }
  for (node *p = n; p; p = p->next) s += p->v ? p->v : -1;
  void *l = &&done; goto *l;
done:
  return ({ int t = s; t; });
}
"#;
    let pieces: Vec<&str> = vec![
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ";",
        ",",
        "#",
        "##",
        "\n#if 1\n",
        "\n#endif\n",
        "\"",
        "'",
        "*",
        "int",
        "typedef",
        "...",
        "F(",
        "\\\n",
        "/*",
        "0x",
        "1e",
        "struct",
        ":",
        "?",
        "=",
        "&&",
        "__attribute__((",
        "asm goto(",
    ];
    let bytes = seed_src.as_bytes();
    // PHICC_FUZZ_ITERS / PHICC_FUZZ_SEED widen the search for a one-off campaign.
    let iters: usize = std::env::var("PHICC_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let seed: u64 = std::env::var("PHICC_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12345);
    let mut r = Rng(seed.max(1));
    for _ in 0..iters {
        let mut m = bytes.to_vec();
        for _ in 0..(1 + r.next() % 4) {
            let pos = (r.next() as usize) % (m.len() + 1);
            match r.next() % 3 {
                0 => {
                    let end = (pos + (r.next() % 8) as usize).min(m.len());
                    m.drain(pos..end);
                }
                1 => {
                    let p = pieces[(r.next() as usize) % pieces.len()];
                    m.splice(pos..pos, p.bytes());
                }
                _ => {
                    if pos < m.len() {
                        m[pos] = r.next() as u8;
                    }
                }
            }
        }
        for t in Target::ALL {
            let mut sm = SourceMap::new();
            let _ = parse_source(&mut sm, "m.c", &m, &PreprocessOptions::new(t)).map_err(|d| d.render(&sm));
        }
    }
    // The unmutated program parses for every target.
    for t in Target::ALL {
        parse_t(seed_src, t).unwrap();
    }
    let _ = preprocess;
}

/// Sweep: `PHICC_CSMITH_SEEDS=1-300 cargo test -p phicc --lib csmith_sweep -- --ignored --nocapture`
/// preprocesses and parses Csmith programs for every target and reports the
/// time next to `gcc -fsyntax-only` on the same files.
#[test]
#[ignore]
fn csmith_sweep() {
    let range = std::env::var("PHICC_CSMITH_SEEDS").unwrap_or_else(|_| "1-50".into());
    let (lo, hi) = range
        .split_once('-')
        .map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap()))
        .unwrap_or((1, 50));
    let dir = std::env::temp_dir().join(format!("phicc_csmith_sweep_{}", std::process::id()));
    let mut paths = Vec::new();
    for seed in lo..=hi {
        match super::super::preprocess::tests::csmith_program(&dir, seed) {
            Some(p) => paths.push((seed, p)),
            None => {
                crate::test_skip::tool_missing("Csmith parse", "csmith not installed");
                return;
            }
        }
    }
    let mut failures = Vec::new();
    let mut ours = std::time::Duration::ZERO;
    for t in Target::ALL {
        if !super::super::preprocess::tests::target_available(t) {
            continue;
        }
        for (seed, path) in &paths {
            let mut o = PreprocessOptions::new(t);
            o.include_dirs.push("/usr/include/csmith".into());
            let mut sm = SourceMap::new();
            let start = std::time::Instant::now();
            let r = super::super::parse(&mut sm, path, &o);
            if t.is_host() {
                ours += start.elapsed();
            }
            if let Err(e) = r {
                failures.push(format!("seed {seed} {}: {}", t.name(), e.render(&sm)));
            }
        }
    }
    let start = std::time::Instant::now();
    for (_, path) in &paths {
        let _ = std::process::Command::new("gcc")
            .args(["-fsyntax-only", "-w", "-I/usr/include/csmith"])
            .arg(path)
            .status();
    }
    let gcc = start.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{} programs x {} targets: {} failures; x86_64 preprocess+parse {:.2}s, gcc -fsyntax-only {:.2}s",
        paths.len(),
        Target::ALL.len(),
        failures.len(),
        ours.as_secs_f64(),
        gcc.as_secs_f64()
    );
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(failures.is_empty());
}

#[test]
fn tricky_declarators_and_casts() {
    let tu = parse_ok(
        "typedef int F(int); F *fp; typedef int (*PF)(int);
         int (*g(int))(int);
         void (*signal(int, void (*)(int)))(int);
         struct s; struct s { int x; } *ps;
         int h(void) {
           int (*q)(int) = (int (*)(int))0;
           long n = sizeof(int (*)[3]) + sizeof(PF) + sizeof(F *);
           PF r = (PF)q; int v = (int)n; int w = (v) + 1; (void)(r);
           struct s t = (struct s){ 1 };
           return w + t.x + ((int (*)(int))q)(2);
         }",
    );
    let sig = tu
        .items
        .iter()
        .find_map(|i| match i {
            ExternalDecl::Decl(d)
                if d.declarators
                    .first()
                    .and_then(|x| x.declarator.name.as_ref())
                    .is_some_and(|n| &*n.0 == "signal") =>
            {
                Some(d.declarators[0].declarator.derived.clone())
            }
            _ => None,
        })
        .unwrap();
    // signal: function(int, pointer to function) returning pointer to function(int).
    assert!(
        matches!(&sig[..], [Derived::Function(f), Derived::Pointer(_), Derived::Function(g)] if f.params.len() == 2 && g.params.len() == 1)
    );
    // `(v) + 1` is an addition, `(PF)q` a cast.
    let h = func(&tu, "h");
    let BlockItem::Decl(d) = &h.body.items[2] else { panic!() };
    assert!(matches!(
        &d.declarators[0].init,
        Some(Initializer::Expr(Expr {
            kind: ExprKind::Cast(..),
            ..
        }))
    ));
    let BlockItem::Decl(d) = &h.body.items[4] else { panic!() };
    assert!(matches!(
        &d.declarators[0].init,
        Some(Initializer::Expr(Expr {
            kind: ExprKind::Binary(BinaryOp::Add, ..),
            ..
        }))
    ));
}

#[test]
fn typedef_redeclaration_and_shadowing() {
    parse_ok("typedef int T; typedef int T; T x;");
    // C89 implicit int at file scope (vim's maze.c style).
    let tu = parse_ok("char*M,A;main(C){for(;C;C--)A++;return A;}");
    assert!(matches!(func(&tu, "main").specs.base, BaseType::Int));
    parse_ok("typedef int T; void f(void) { T T = 1; (void)T; }");
    parse_ok("typedef int T; struct S { T T; int U: 3; } s;");
    parse_ok("typedef int T; void f(void) { T: goto T; }");
    parse_ok("typedef char C; void f(void) { for (int C = 0; C < 3; C++) ; C c = 0; (void)c; }");
    assert!(parse_err("typedef int T; void f(int T, T x);").contains("error"));
}

#[test]
fn initializers_6_7_9() {
    let tu = parse_ok(
        "struct P { int x, y; } a[3] = { [1].y = 4, [2] = { .x = 1 }, { 5 } , }; int m[2][2] = { 1, 2, { 3 } };",
    );
    let d = first_decl(&tu);
    let Some(Initializer::List(items, _)) = &d.declarators[0].init else {
        panic!()
    };
    assert_eq!(items.len(), 3);
    assert!(matches!(&items[0].designators[..], [Designator::Index(_), Designator::Field(f, _)] if &**f == "y"));
    assert!(matches!(&items[1].init, Initializer::List(..)));
    assert!(items[2].designators.is_empty());
    assert!(parse_err("int a[] = { [0] 1 };").contains("expected '='"));
}

#[test]
fn random_token_soup_never_panics() {
    const VOCAB: &[&str] = &[
        "int",
        "char",
        "struct",
        "union",
        "enum",
        "typedef",
        "T",
        "x",
        "y",
        "f",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ";",
        ",",
        "*",
        "&",
        "=",
        "+",
        "-",
        "?",
        ":",
        "...",
        "1",
        "'a'",
        "\"s\"",
        "sizeof",
        "_Alignof",
        "__attribute__",
        "((",
        "))",
        "asm",
        "goto",
        "&&",
        "return",
        "if",
        "else",
        "for",
        "while",
        "do",
        "switch",
        "case",
        "default",
        "break",
        "static",
        "const",
        "volatile",
        "__typeof__",
        "_Static_assert",
        "_Generic",
        ".",
        "->",
        "++",
        "__extension__",
        "__builtin_va_arg",
        "__builtin_offsetof",
        "_Atomic",
        "long",
        "unsigned",
        "double",
        "\n#pragma pack(1)\n",
    ];
    let mut r = Rng(0xdeadbeef);
    for i in 0..4000 {
        let n = 1 + (r.next() % 40) as usize;
        let mut src = String::from(if i % 2 == 0 { "typedef int T;\n" } else { "" });
        for _ in 0..n {
            src.push_str(VOCAB[(r.next() as usize) % VOCAB.len()]);
            src.push(' ');
        }
        let _ = parse_t(&src, Target::X86_64);
    }
}

/// Ad-hoc: `PHICC_PARSE_FILES=a.c:b.c cargo test -p phicc --lib parse_files_from_env -- --ignored --nocapture`
/// preprocesses and parses each file for x86-64 and prints the first error of each.
#[test]
#[ignore]
fn parse_files_from_env() {
    let list = std::env::var("PHICC_PARSE_FILES").unwrap_or_default();
    let (mut ok, mut bad) = (0, 0);
    for f in list.split(':').filter(|f| !f.is_empty()) {
        let mut sm = SourceMap::new();
        match super::super::parse(
            &mut sm,
            std::path::Path::new(f),
            &PreprocessOptions::new(Target::X86_64),
        ) {
            Ok(_) => ok += 1,
            Err(e) => {
                bad += 1;
                eprintln!("{}", e.render(&sm));
            }
        }
    }
    eprintln!("{ok} parsed, {bad} failed");
}
