//! Preprocessor tests: tricky macro cases compared token by token with
//! `gcc -E -P` (skipped when gcc is absent), the C99 6.10.3.5 examples,
//! directives, diagnostics, and real glibc headers for every target.

use super::*;
use crate::frontend::lexer::tokenize;
use std::io::Write;
use std::process::{Command, Stdio};

fn opts() -> PreprocessOptions {
    PreprocessOptions::new(Target::X86_64)
}

/// Preprocesses `src` and returns the token spellings.
fn pp_with(src: &str, o: &PreprocessOptions) -> Result<Vec<String>, String> {
    let mut sm = SourceMap::new();
    match preprocess_source(&mut sm, "t.c", src.as_bytes().to_vec(), o) {
        Ok(p) => Ok(p
            .tokens
            .iter()
            .filter(|t| t.kind != TokenKind::Eof)
            .map(|t| t.str().into_owned())
            .collect()),
        Err(d) => Err(d.render(&sm)),
    }
}

fn pp(src: &str) -> Vec<String> {
    pp_with(src, &opts()).unwrap_or_else(|e| panic!("{e}"))
}

fn pp_err(src: &str) -> String {
    pp_with(src, &opts()).expect_err("expected a preprocessing error")
}

fn joined(src: &str) -> String {
    pp(src).join(" ")
}

/// Token spellings of `gcc -E -P` on `src`, or None without gcc.
fn gcc_tokens(src: &str) -> Option<Vec<String>> {
    let mut child = Command::new("gcc")
        .args(["-E", "-P", "-std=gnu11", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(src.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        return None;
    }
    let toks = tokenize(&out.stdout, FileId(0)).ok()?;
    Some(
        toks.iter()
            .filter(|t| t.kind != TokenKind::Eof)
            .map(|t| t.str().into_owned())
            .collect(),
    )
}

fn same_as_gcc(src: &str) {
    let ours = pp(src);
    match gcc_tokens(src) {
        Some(theirs) => assert_eq!(ours, theirs, "for:\n{src}"),
        None => crate::test_skip::tool_missing("comparison with gcc -E", "gcc not available"),
    }
}

#[test]
fn c99_6_10_3_5_example_3() {
    let src = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    assert_eq!(
        joined(src),
        "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
         f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ; \
         int i [ ] = { 1 , 23 , 4 , 5 , } ; char c [ 2 ] [ 6 ] = { \"hello\" , \"\" } ;"
    );
    same_as_gcc(src);
}

#[test]
fn c99_6_10_3_5_example_4() {
    let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let out = pp(src);
    assert!(
        out.contains(&r#""strncmp(\"abc\\0d\", \"abc\", '\\4') == 0""#.to_string()),
        "{out:?}"
    );
    assert!(out.contains(&r#""vers2.h""#.to_string()));
    assert!(out.contains(&r#"", world""#.to_string()));
    same_as_gcc(src);
}

#[test]
fn c99_6_10_3_5_examples_5_and_7() {
    same_as_gcc(
        "#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n\
         t(10,,), t(,11,), t(,,12), t(,,) };\n",
    );
    let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test): printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    assert!(joined(src).contains(r#"puts ( "The first, second, and third items." )"#));
    same_as_gcc(src);
}

#[test]
fn rescanning_and_hidesets_match_gcc() {
    for src in [
        "#define foo foo\nfoo\n",
        "#define a b\n#define b a\na b\n",
        "#define f(x) x f\nf(1)(2)(3)\n",
        "#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)\n",
        "#define AA BB\n#define BB AA\n#define CC(x) x\nCC(AA) CC(BB)\n",
        "#define obj(x) [x]\n#define fn obj\nfn(1) fn (2) fn\n(3) fn\n",
        "#define LPAREN (\n#define F(x) <x>\nF LPAREN 1)\n",
        "#define cat(a,b) a##b\n#define xcat(a,b) cat(a,b)\ncat(1,cat(2,3)) xcat(1,xcat(2,3))\n",
        "#define e(...) f(0, ## __VA_ARGS__)\ne() e(1) e(1,2)\n",
        "#define g(fmt, args...) p(fmt , ## args)\ng(a) g(a,b,c)\n",
        "#define h(x, ...) [x|__VA_ARGS__]\nh(1) h(1,) h(1,2,3) h((a,b),c)\n",
        "#define EMPTY\n#define f(x) (x)\nf(EMPTY) f( EMPTY ) f() EMPTY f(1)\n",
        "#define s(x) #x\ns( a  +   b ) s(\"q\\n\") s('\"') s(  ) s(a\n b)\n",
        "#define str(x) #x\n#define xstr(x) str(x)\nxstr(__LINE__) str(__LINE__)\n",
        "#define paste(a, b) a ## b\npaste(+, =) paste(<<, =) paste(., 5) paste(x, 1e3) paste(L, 'a')\n",
        "#define m() 1\n#define n(x) x\nm() n() n(m()) n(n(n(m)))()\n",
        "#define i(x) x\n#define j i(j)\nj i(j)\n",
        "#define NIL(x) x\n#define G_0(arg) NIL(G_1)(arg)\n#define G_1(arg) NIL(arg)\nG_0(42)\n",
        "#define f(x, y) x + y\n#define ELLIP_FUNC(...) __VA_ARGS__\nELLIP_FUNC(f, 1, 2)\n",
        "#define F(a, ...) f(a __VA_OPT__(,) __VA_ARGS__)\nF(1) F(1, 2, 3) F(1,)\n",
        "#define G(X, ...) X __VA_OPT__(- (X) __VA_ARGS__ -) end\nG(a) G(a, b c)\n",
        "#define hash_hash # ## #\n#define mkstr(a) # a\n#define in_between(a) mkstr(a)\n#define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);\n",
        "#define s(x) #x\ns(/* c */ a /* d */ b /**/) s(\"\\\\\" '\\'') s(a\\\nb) s( ( a , b ) )\n",
        "#define f(a, b) a b\nf(,) f( , x) f((,),[])\n",
        "#define EMPTY()\n#define DEFER(id) id EMPTY()\n#define A() 123\nDEFER(A)() A EMPTY() ()\n",
        // An argument is expanded once however often it is used.
        "#define F(x) x x\n#define G(a, b) a b a b\nF(__COUNTER__) G(__LINE__, __COUNTER__)\n",
        "#define X defined(Y)\n#define Y\n#if X && defined Y\nyes\n#endif\n",
        "#if '\\0' == 0 && '\\x7f' == 127 && (2 > 1 ? 3 : 4) == 3\nok\n#endif\n",
        "#define q(x) x\nq(q)(1) q(q(q))(2)\n",
        "#define p(a) a##a a ## & a##=\np(&)\n#define lt(a) a##a a##= a##a##=\nlt(<) lt(>)\n",
        "a __LINE__ \\\n b __LINE__\n__LINE__\n",
    ] {
        same_as_gcc(src);
    }
    // Prosser: f(2)(9) is 2*9*g.
    assert_eq!(joined("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)\n"), "2 * 9 * g");
}

#[test]
fn conditionals() {
    let src = "#if 1\na\n#elif 1\nb\n#else\nc\n#endif\n\
               #if 0\nd\n#elif 2 > 1\ne\n#else\nf\n#endif\n\
               #ifdef X\ng\n#else\nh\n#endif\n\
               #define X\n#ifndef X\ni\n#elif defined(X) && defined X\nj\n#endif\n\
               #if 0\n#if garbage (\n#error no\n#endif\n#elif 0\nk\n#else\nl\n#endif\n\
               #if 0\n'unterminated\n#endif\nm\n";
    assert_eq!(joined(src), "a e h j l m");
    assert_eq!(
        joined("#if -1 > 0u\nyes\n#endif\n#if (2 || 1/0) && !defined(Q)\nok\n#endif\n"),
        "yes ok"
    );
    assert_eq!(
        joined("#define A 2\n#define B A + 1\n#if B * 2 == 4\nprec\n#endif\n"),
        "prec"
    );
}

#[test]
fn builtin_macros() {
    let out =
        pp("__LINE__\n#line 100\n__LINE__ __FILE__\n#line 7 \"x.c\"\n__FILE__ __LINE__\n__COUNTER__ __COUNTER__\n");
    assert_eq!(out, ["1", "100", "\"t.c\"", "\"x.c\"", "7", "0", "1"]);
    let d = pp("__DATE__ __TIME__ __STDC_VERSION__ __x86_64__ __LP64__ __GNUC__ __CHAR_BIT__");
    assert_eq!(d[0].len(), 13);
    assert_eq!(d[1].len(), 10);
    assert_eq!(&d[2..], ["201112L", "1", "1", "4", "8"]);
    // Macro spanning lines: __LINE__ is the invocation's.
    assert_eq!(pp("#define L __LINE__\n\nL\n"), ["3"]);
}

#[test]
fn targets_differ_in_predefined_macros() {
    let src = "#ifdef __CHAR_UNSIGNED__\nunsigned_char\n#endif\n__riscv_xlen __aarch64__ __x86_64__\n\
               #if '\\377' < 0\nsigned_char_const\n#endif\n";
    let t = |target| pp_with(src, &PreprocessOptions::new(target)).unwrap().join(" ");
    assert_eq!(t(Target::X86_64), "__riscv_xlen __aarch64__ 1 signed_char_const");
    assert_eq!(t(Target::Aarch64), "unsigned_char __riscv_xlen 1 __x86_64__");
    assert_eq!(t(Target::Riscv64), "unsigned_char 64 __aarch64__ __x86_64__");
}

#[test]
fn command_line_macros() {
    let mut o = opts();
    o.macros = vec![
        CmdlineMacro::Define("A".into(), "1".into()),
        CmdlineMacro::Define("B".into(), "x y".into()),
        CmdlineMacro::Undef("__x86_64__".into()),
    ];
    assert_eq!(pp_with("A B __x86_64__", &o).unwrap(), ["1", "x", "y", "__x86_64__"]);
}

#[test]
fn has_queries_and_pragmas() {
    let src = "#if __has_include(<stdio.h>) && !__has_include(\"nope.h\")\nhi\n#endif\n\
               #if __has_attribute(packed) && !__has_attribute(no_such) && __has_builtin(__builtin_expect)\nha\n#endif\n\
               #ifdef __has_include\nhd\n#endif\n\
               #pragma pack(push, 1)\nx\n_Pragma(\"pack(pop)\") y\n#pragma once\n";
    let mut sm = SourceMap::new();
    let p = preprocess_source(&mut sm, "t.c", src.as_bytes().to_vec(), &opts()).unwrap();
    let kinds: Vec<(TokenKind, String)> = p.tokens.iter().map(|t| (t.kind, t.str().into_owned())).collect();
    assert_eq!(kinds[0].1, "hi");
    assert_eq!(kinds[1].1, "ha");
    assert_eq!(kinds[2].1, "hd");
    assert_eq!(kinds[3], (TokenKind::Pragma, "pack(push, 1)".into()));
    assert_eq!(kinds[4].1, "x");
    assert_eq!(kinds[5], (TokenKind::Pragma, "pack(pop)".into()));
    assert_eq!(kinds[6].1, "y");
    assert!(print_tokens(&p.tokens).contains("\n#pragma pack(push, 1)\nx\n#pragma pack(pop)\ny"));
}

#[test]
fn errors_have_locations() {
    let e = pp_err("int x;\n#error stop here\n");
    assert!(
        e.starts_with("t.c:2:1: error: #error stop here\n#error stop here\n^"),
        "{e}"
    );
    for (src, msg) in [
        ("#if 1\n", "unterminated conditional"),
        ("#endif\n", "#endif without #if"),
        ("#else\n", "#else without #if"),
        ("#if 1\n#else\n#elif 1\n#endif\n", "#elif after #else"),
        ("#if 1/0\n#endif\n", "division by zero"),
        ("#define f(x) #y\n", "'#' is not followed by a macro parameter"),
        ("#define f(x) ## x\n", "'##' cannot appear"),
        ("#define f(x,x) x\n", "duplicate macro parameter"),
        ("#define f(x) x\nf(1,2)\n", "passed 2 arguments"),
        ("#define f(x,y) x\nf(1)\n", "requires 2 arguments"),
        ("#define f(x) x\nf(1\n", "unterminated argument list"),
        ("#include <no_such_header_phicc.h>\n", "No such file"),
        ("#include\n", "#include expects"),
        ("#foo\n", "invalid preprocessing directive #foo"),
        ("#define 3 x\n", "macro names must be identifiers"),
        ("#define\n", "no macro name"),
        (
            "#define p(a,b) a##b\np(+,/)\n",
            "does not give a valid preprocessing token",
        ),
        ("#if\n#endif\n", "#if with no expression"),
        ("#line x\n", "#line directive requires"),
        ("#define defined\n", "\"defined\" cannot be used"),
    ] {
        let e = pp_err(src);
        assert!(e.contains(msg), "{src:?}: {e}");
        assert!(e.starts_with("t.c:"), "{src:?}: {e}");
    }
    let w = {
        let mut sm = SourceMap::new();
        preprocess_source(&mut sm, "t.c", b"#warning careful\nx\n".to_vec(), &opts())
            .unwrap()
            .warnings
    };
    assert_eq!(w.len(), 1);
    let w = {
        let mut sm = SourceMap::new();
        let src = b"#define A 1\n#define A 1\n#define B(x) x\n#define B(x)  x\n#define C 1\n#define C 2\n";
        preprocess_source(&mut sm, "t.c", src.to_vec(), &opts())
            .unwrap()
            .warnings
    };
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].message.contains("\"C\" redefined"));
}

#[test]
fn recursive_include_is_an_error_not_a_hang() {
    let dir = std::env::temp_dir().join(format!("phicc_pp_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("self.h");
    std::fs::write(&f, "#include \"self.h\"\n").unwrap();
    let mut sm = SourceMap::new();
    let e = preprocess_file(&mut sm, &f, &opts()).unwrap_err();
    assert!(e.message.contains("nested too deeply"));
    std::fs::write(dir.join("once.h"), "#pragma once\nonce\n").unwrap();
    std::fs::write(dir.join("guard.h"), "#ifndef G\n#define G\nguard\n#endif\n").unwrap();
    let main = dir.join("main.c");
    std::fs::write(
        &main,
        "#include \"once.h\"\n#include \"once.h\"\n#include \"guard.h\"\n#include \"guard.h\"\n",
    )
    .unwrap();
    let mut sm = SourceMap::new();
    let p = preprocess_file(&mut sm, &main, &opts()).unwrap();
    assert_eq!(p.tokens.len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Headers a typical program includes, for every target whose glibc headers are installed.
pub(crate) const STD_HEADERS: &[&str] = &[
    "stdio.h",
    "stdlib.h",
    "string.h",
    "stdint.h",
    "limits.h",
    "math.h",
    "stdarg.h",
    "stddef.h",
    "stdbool.h",
    "float.h",
    "inttypes.h",
    "ctype.h",
    "errno.h",
    "assert.h",
    "stdalign.h",
    "stdnoreturn.h",
    "wchar.h",
    "signal.h",
    "setjmp.h",
    "time.h",
    "unistd.h",
];

pub(crate) fn target_available(t: Target) -> bool {
    let ok = t
        .system_include_dirs()
        .iter()
        .any(|d| Path::new(d).join("stdio.h").exists());
    if !ok {
        crate::test_skip::tool_missing(&format!("{} headers", t.name()), "glibc headers not installed");
    }
    ok
}

#[test]
fn real_glibc_headers_preprocess_for_every_target() {
    for t in Target::ALL {
        if !target_available(t) {
            continue;
        }
        for h in STD_HEADERS {
            let src = format!("#include <{h}>\nint main(void) {{ return 0; }}\n");
            let mut sm = SourceMap::new();
            match preprocess_source(&mut sm, "t.c", src.into_bytes(), &PreprocessOptions::new(t)) {
                Ok(p) => assert!(p.warnings.is_empty(), "{} <{h}>: {:?}", t.name(), p.warnings),
                Err(e) => panic!("{} <{h}>: {}", t.name(), e.render(&sm)),
            }
        }
        // Values that come from glibc + our headers.
        let src = "#include <limits.h>\n#include <stdint.h>\nINT_MAX CHAR_MIN UINT64_MAX SIZE_MAX PATH_MAX";
        let out = pp_with(src, &PreprocessOptions::new(t)).unwrap().join(" ");
        let char_min = if t.char_is_signed() { "( - 0x7f - 1 )" } else { "0" };
        assert!(
            out.contains(&format!("uintmax_t ; 0x7fffffff {char_min} (")),
            "{}: {out}",
            t.name()
        );
        assert!(out.ends_with("4096"), "{out}");
    }
}

/// Generates Csmith program `seed` into `dir`, or None when csmith is not installed.
pub(crate) fn csmith_program(dir: &Path, seed: u32) -> Option<PathBuf> {
    if !Path::new("/usr/include/csmith/csmith.h").exists() {
        return None;
    }
    let out = Command::new("csmith")
        .args(["--seed", &seed.to_string()])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    std::fs::create_dir_all(dir).ok()?;
    let p = dir.join(format!("csmith_{seed}.c"));
    std::fs::write(&p, out.stdout).ok()?;
    Some(p)
}

#[test]
fn csmith_programs_preprocess() {
    let dir = std::env::temp_dir().join(format!("phicc_csmith_pp_{}", std::process::id()));
    let mut done = 0;
    for seed in 1..=5 {
        let Some(path) = csmith_program(&dir, seed) else {
            crate::test_skip::tool_missing("Csmith preprocess", "csmith or its headers not installed");
            return;
        };
        for t in Target::ALL {
            if !target_available(t) {
                continue;
            }
            let mut o = PreprocessOptions::new(t);
            o.include_dirs.push("/usr/include/csmith".into());
            let mut sm = SourceMap::new();
            let r = preprocess_file(&mut sm, &path, &o);
            assert!(
                r.is_ok(),
                "seed {seed} {}: {}",
                t.name(),
                r.err().map(|e| e.render(&sm)).unwrap_or_default()
            );
            done += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(done >= 5);
}

#[test]
fn deep_macro_nesting_is_an_error_not_a_crash() {
    let src = format!("#define f(x) x\n{}1{}\n", "f(".repeat(20000), ")".repeat(20000));
    assert!(pp_err(&src).contains("nested too deeply"));
    let src = format!("#define f(x) x\n{}1{}\n", "f(".repeat(50), ")".repeat(50));
    assert_eq!(pp(&src), ["1"]);
    let src = format!("#if {}1{}\n#endif\n", "(".repeat(100000), ")".repeat(100000));
    assert!(pp_err(&src).contains("nested too deeply"));
    // Exponential expansion hits the token budget, not memory exhaustion... keep it small here:
    let src = "#define a b b\n#define b c c\n#define c d d\n#define d e e\na\n";
    assert_eq!(pp(src).len(), 16);
}

#[test]
fn include_guards_are_detected_exactly() {
    let g = |src: &str| {
        let toks = tokenize(src.as_bytes(), FileId(0)).unwrap();
        find_include_guard(&toks).map(|t| String::from_utf8_lossy(&t).into_owned())
    };
    assert_eq!(g("#ifndef G\n#define G\nint x;\n#endif\n").as_deref(), Some("G"));
    assert_eq!(
        g("#if !defined(G)\n#define G\n#if 1\n#endif\n#endif /* G */\n").as_deref(),
        Some("G")
    );
    assert_eq!(g("#ifndef G\n#define G\n#endif\nint trailing;\n"), None);
    assert_eq!(g("#ifndef G\n#else\n#endif\n"), None);
    assert_eq!(g("int x;\n#ifndef G\n#endif\n"), None);
    assert_eq!(g("#ifdef G\n#endif\n"), None);
    assert_eq!(g("#ifndef G\n"), None);
}

#[test]
fn printed_output_relexes_to_the_same_tokens() {
    let src = "#define P +\n#define E\n#define CAT(a,b) a##b\nP+ -P x E y 1 E .5 CAT(L, x)'c' a+++b f(1,2)\n#define ID(x) x\nID(-)-ID(.)5\n";
    let mut sm = SourceMap::new();
    let p = preprocess_source(&mut sm, "t.c", src.as_bytes().to_vec(), &opts()).unwrap();
    let printed = print_tokens(&p.tokens);
    let relexed = tokenize(printed.as_bytes(), FileId(0)).unwrap();
    let a: Vec<String> = p.tokens.iter().map(|t| t.str().into_owned()).collect();
    let b: Vec<String> = relexed.iter().map(|t| t.str().into_owned()).collect();
    assert_eq!(a, b, "{printed}");
    assert!(printed.starts_with("+ + -+ x y"), "{printed}");
    assert!(printed.contains("\n- -. 5"), "{printed}");
}

#[test]
fn printed_glibc_headers_relex_identically() {
    if !target_available(Target::X86_64) {
        return;
    }
    let src = "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <inttypes.h>\n";
    let mut sm = SourceMap::new();
    let p = preprocess_source(&mut sm, "t.c", src.as_bytes().to_vec(), &opts()).unwrap();
    let printed = print_tokens(&p.tokens);
    let relexed = tokenize(printed.as_bytes(), FileId(0)).unwrap();
    let a: Vec<&[u8]> = p
        .tokens
        .iter()
        .filter(|t| t.kind != TokenKind::Pragma)
        .map(|t| &*t.text)
        .collect();
    let b: Vec<&[u8]> = relexed
        .iter()
        .filter(|t| !t.at_bol || !t.is_punct(Punct::Hash))
        .map(|t| &*t.text)
        .collect();
    assert!(a.len() > 1000);
    assert_eq!(a.len(), b.len());
    assert!(a == b);
}

#[test]
fn computed_include_joins_expansions_without_their_invocation_space() {
    // gcc takes each token's spacing from the macro body when it glues a
    // `< ... >` header name, so the first token of an expansion has none.
    let dir = std::env::temp_dir().join(format!("phicc_pp_computed_{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/42test.h"), "found\n").unwrap();
    let main = dir.join("main.c");
    std::fs::write(
        &main,
        "#define funnyname 42test.h\n#define incdir sub/\n#define incname < incdir funnyname >\n#include incname\ny incdir x\n",
    )
    .unwrap();
    let mut o = opts();
    o.include_dirs.push(dir.clone());
    let mut sm = SourceMap::new();
    let p = preprocess_file(&mut sm, &main, &o).unwrap_or_else(|e| panic!("{}", e.render(&sm)));
    let toks: Vec<String> = p.tokens.iter().map(|t| t.str().into_owned()).collect();
    assert_eq!(toks[..5], ["found", "y", "sub", "/", "x"]);
    // Outside an #include line the invocation's spacing is kept.
    assert!(p.tokens[2].has_space);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `gcc -dM -E` macros gcc's and glibc's headers read (repro-13), with
/// the value each target's gcc gives them.
#[test]
fn predefined_macros_match_each_targets_gcc() {
    let mut names: Vec<String> = Vec::new();
    for kind in ["LEAST", "FAST"] {
        for bits in [8, 16, 32, 64] {
            for what in ["TYPE", "MAX"] {
                names.push(format!("__INT_{kind}{bits}_{what}__"));
                names.push(format!("__UINT_{kind}{bits}_{what}__"));
            }
            names.push(format!("__INT_{kind}{bits}_WIDTH__"));
        }
    }
    for t in [
        "BOOL", "CHAR", "CHAR16_T", "CHAR32_T", "WCHAR_T", "SHORT", "INT", "LONG", "LLONG", "POINTER",
    ] {
        names.push(format!("__GCC_ATOMIC_{t}_LOCK_FREE"));
    }
    for n in [
        "__GCC_ATOMIC_TEST_AND_SET_TRUEVAL",
        "__GCC_IEC_559",
        "__FLT_EVAL_METHOD_TS_18661_3__",
        "__FINITE_MATH_ONLY__",
        "__STDC_ISO_10646__",
        "__STDC_IEC_60559_BFP__",
        "__GNUC_EXECUTION_CHARSET_NAME",
        "__SIZE_TYPE__",
        "__INT64_TYPE__",
        "__ATOMIC_SEQ_CST",
    ] {
        names.push(n.to_string());
    }
    for target in Target::ALL {
        let gcc = target.gcc();
        let out = Command::new(gcc)
            .args(["-dM", "-E", "-x", "c", "/dev/null"])
            .output()
            .unwrap_or_else(|e| panic!("{gcc}: {e}"));
        assert!(out.status.success(), "{gcc} -dM -E failed");
        let defs: std::collections::HashMap<String, String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| {
                let rest = l.strip_prefix("#define ")?;
                let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
                Some((name.to_string(), value.to_string()))
            })
            .collect();
        let src: String = names.iter().map(|n| format!("{n}\n")).collect();
        let mut sm = SourceMap::new();
        let p = preprocess_source(&mut sm, "t.c", src.into_bytes(), &PreprocessOptions::new(target)).unwrap();
        let mut lines: Vec<Vec<String>> = Vec::new();
        for tok in p.tokens.iter().filter(|t| t.kind != TokenKind::Eof) {
            if tok.at_bol || lines.is_empty() {
                lines.push(Vec::new());
            }
            lines.last_mut().unwrap().push(tok.str().into_owned());
        }
        assert_eq!(lines.len(), names.len(), "{target:?}: {lines:?}");
        for (name, ours) in names.iter().zip(&lines) {
            let theirs = defs.get(name).unwrap_or_else(|| panic!("{gcc} does not define {name}"));
            assert_eq!(
                ours.join(" "),
                theirs.split_whitespace().collect::<Vec<_>>().join(" "),
                "{target:?} {name}"
            );
        }
    }
}

#[test]
fn stddef_replaces_a_programs_offsetof_silently() {
    // As gcc's <stddef.h>, which #undefs offsetof first (repro-13).
    let mut sm = SourceMap::new();
    let src = b"#define offsetof(t, m) ((unsigned long)&((t *)0)->m)\n#include <stddef.h>\noffsetof(S, f)\n";
    let p = preprocess_source(&mut sm, "t.c", src.to_vec(), &opts()).unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let toks: Vec<String> = p.tokens.iter().map(|t| t.str().into_owned()).collect();
    assert!(toks.join(" ").contains("__builtin_offsetof ( S , f )"), "{toks:?}");
}

/// Hidesets formed again and again (the memoized unions): the same macros
/// nested and recursive in many invocations must stop expanding exactly
/// where gcc stops, every time, not only the first.
#[test]
fn repeated_nested_and_recursive_expansions_keep_their_hidesets() {
    let src = r#"#define f(a) a + f(a)
#define g(a) f(a) * g
#define h g(h) f(g)
#define AA BB
#define BB AA
#define id(x) x
#define call(m, x) m(x)
h; h; h;
AA BB AA;
id(id(AA)) id(BB) call(f, h) call(g, call(f, 1));
id(f)(id(g)(2)); id(f)(id(g)(2));
"#;
    let out = pp(src);
    let first = out.iter().position(|t| t == ";").unwrap();
    assert_eq!(out[..first], out[first + 1..2 * first + 1], "{out:?}");
    same_as_gcc(src);
}

/// Arguments without macros in them are taken as they are; arguments with
/// macros (hidden or not, object- or function-like, `_Pragma` aside) are
/// expanded; `#` and `##` see the raw argument either way.
#[test]
fn arguments_with_and_without_macros() {
    let src = r#"#define ONE 1
#define F(x) (x)
#define twice(a) a a
#define str(a) #a
#define xstr(a) str(a)
#define cat(a, b) a ## b
#define xcat(a, b) cat(a, b)
twice(x y) twice(ONE) twice(F) twice(F(2)) twice(F (ONE))
str(ONE F(x)) xstr(ONE F(x)) cat(ON, E) xcat(ON, E) cat(ONE, 2) xcat(ONE, 2)
"#;
    assert_eq!(
        joined(src),
        "x y x y 1 1 F F ( 2 ) ( 2 ) ( 1 ) ( 1 ) \"ONE F(x)\" \"1 (x)\" 1 1 ONE2 12"
    );
    same_as_gcc(src);
}

/// Argument collection into one vector: empty arguments, nested parentheses,
/// commas inside the variable arguments, omitted variable arguments, GNU
/// `, ## __VA_ARGS__` and `__VA_OPT__`, and an invocation spanning lines.
#[test]
fn argument_lists_and_variable_arguments() {
    let src = r#"#define P(a, b, c) [a|b|c]
#define V(fmt, ...) f(fmt, ## __VA_ARGS__)
#define W(x, ...) g(x __VA_OPT__(,) __VA_ARGS__)
#define N(...) n(__VA_ARGS__)
P(,,) P((1, 2), [3 4], {5 6}) P(a
, b,
c)
V("s") V("s", 1) V("s", 1, (2, 3))
W(1) W(1, 2, 3) N() N(a, b) N((a, b))
"#;
    same_as_gcc(src);
    assert!(pp_err("#define P(a, b) a b\nP(1)\n").contains("requires 2 arguments"));
    assert!(pp_err("#define P(a) a\nP(1, 2)\n").contains("passed 2 arguments"));
    assert!(pp_err("#define P(a) a\nP(1, 2\n").contains("unterminated argument list"));
}

/// The input's layers: included files between lines of the including
/// file, skipped groups (nested ones too) read past without being taken,
/// an invocation in an included file, the same header read twice.
#[test]
fn included_files_and_skipped_groups_interleave_with_expansions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("inner.h"),
        "#if 0\nskipped one\n#if 1\nskipped nested\n#endif\n#elif 1\ninner_a\n#else\nskipped two\n#endif\nWRAP(inner_b)\n",
    )
    .unwrap();
    let mut o = opts();
    o.include_dirs.push(dir.path().to_path_buf());
    // Computed include, then a line of the including file.
    let src = "#define WRAP(x) <x>\n#define HDR \"inner.h\"\nbefore\n#include HDR\nafter\n";
    assert_eq!(pp_with(src, &o).unwrap().join(" "), "before inner_a < inner_b > after");
    // Tokens given back in front of a file's next token (an object-like
    // macro at the end of the included file, then the including file).
    std::fs::write(dir.path().join("tail.h"), "#define T tail\nT\n").unwrap();
    let src = "#include \"tail.h\"\nT T\n#include \"tail.h\"\n";
    assert_eq!(pp_with(src, &o).unwrap().join(" "), "tail tail tail tail");
    let src = "#define WRAP(x) <x>\nbefore\n#include \"inner.h\"\nafter WRAP(last)\n";
    assert_eq!(
        pp_with(src, &o).unwrap().join(" "),
        "before inner_a < inner_b > after < last >"
    );
}

/// Macro names are looked up by the identity of their interned spelling:
/// names made by `##`, by `_Pragma`'s and `push_macro`'s strings and by
/// the built-in macros must be found as the lexed ones are. An argument is
/// expanded in front of the rest of the input behind an end marker: a
/// function-like name at its end takes no `(` from beyond it.
#[test]
fn names_made_by_pasting_and_strings_find_their_macros() {
    let src = r#"#define foo 1
#define cat(a, b) a ## b
#define xcat(a, b) cat(a, b)
#define f(x) x
#define g(x) [x]
#define h(x) x(2)
cat(fo, o) cat(f, oo) xcat(__LI, NE__) cat(_, _LINE__) cat(f, )(3) cat(, g)(4)
h(g) f(g)(3) f(f)(1) f(f(f))(g)(5) cat(foo, foo) cat(c, at)(f, oo)
"#;
    assert!(
        joined(src).starts_with("1 1 7 7 3 [ 4 ] [ 2 ] [ 3 ]"),
        "{}",
        joined(src)
    );
    same_as_gcc(src);
    let pushed = "#define X 1\n#pragma push_macro(\"X\")\n#undef X\nX\n#define X 2\nX\n\
                  #pragma pop_macro(\"X\")\nX\n#pragma push_macro(\"Y\")\n#define Y 3\nY\n\
                  #pragma pop_macro(\"Y\")\nY __LINE__ __FILE__\n";
    let out: Vec<String> = pp(pushed).into_iter().filter(|t| !t.contains("_macro")).collect();
    // As `gcc -E` gives them.
    assert_eq!(out, ["X", "2", "1", "3", "Y", "13", "\"t.c\""]);
    assert!(pp_err("#define f(x) x\n#define g(x) x\nf(g(1)\n").contains("unterminated argument list"));
}
