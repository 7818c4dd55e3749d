//! Hostile input: mutated programs and deep nesting must give a diagnostic,
//! never a panic or a stack overflow.

use crate::frontend::source::SourceMap;
use crate::frontend::{parse_source, PreprocessOptions};
use crate::target::Target;

/// xorshift, so the test needs no crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const SEEDS: &[&str] = &[
    include_str!("../../../../../corpora/fuzz/frontend/sema_inits.c"),
    include_str!("../../../../../corpora/fuzz/frontend/sema_exprs.c"),
];

const PIECES: &[&str] = &[
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
    "int",
    "char",
    "void",
    "struct S",
    "union U",
    "enum E",
    "const",
    "static",
    "extern",
    "typedef",
    "...",
    ":",
    "?",
    "=",
    "+=",
    "&&",
    "->",
    ".",
    "0",
    "1",
    "-1",
    "'a'",
    "\"s\"",
    "sizeof",
    "_Alignof",
    "(int)",
    "(void *)",
    "__builtin_va_arg(ap, int)",
    "({",
    "})",
    "goto *",
    "&&l1",
    "[3 ... 5] =",
    ".x =",
    "__attribute__((aligned(8)))",
    "__attribute__((packed))",
    "asm(\"\" : \"=r\"(",
    "case 1:",
    "default:",
    "break;",
    "return",
    "_Static_assert(",
    "__typeof__(",
    "__auto_type",
    "register",
    "float",
    "double",
    "long",
    "unsigned",
    "[]",
    "[n]",
    "f(",
    "s.",
    "sp->",
    "u.v",
    "a[1]",
    "~",
    "!",
    "<<",
    ">>",
    "%",
    "/",
    "0.5",
];

fn run(src: &[u8]) {
    for t in Target::ALL {
        let mut sm = SourceMap::new();
        let Ok(tu) = parse_source(&mut sm, "m.c", src, &PreprocessOptions::new(t)) else {
            continue;
        };
        if let Err(d) = crate::frontend::sema::analyze(&tu, t) {
            let text = d.render(&sm);
            assert!(text.contains(": error: "), "{text}");
        }
    }
}

#[test]
fn mutated_programs_never_panic() {
    for s in SEEDS {
        for t in Target::ALL {
            let mut sm = SourceMap::new();
            let tu = parse_source(&mut sm, "seed.c", s.as_bytes(), &PreprocessOptions::new(t)).unwrap();
            if let Err(d) = crate::frontend::sema::analyze(&tu, t) {
                panic!("{} seed: {}", t.name(), d.render(&sm));
            }
        }
    }
    let iters: usize = std::env::var("PHICC_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::var("PHICC_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5e4a);
    let mut r = Rng(seed.max(1));
    for i in 0..iters {
        let mut m = SEEDS[i % SEEDS.len()].as_bytes().to_vec();
        for _ in 0..(1 + r.next() % 4) {
            let pos = (r.next() as usize) % (m.len() + 1);
            match r.next() % 3 {
                0 => {
                    let end = (pos + (r.next() % 8) as usize).min(m.len());
                    m.drain(pos..end);
                }
                1 => {
                    let p = PIECES[(r.next() as usize) % PIECES.len()];
                    m.splice(pos..pos, p.bytes());
                }
                _ => {
                    if pos < m.len() {
                        m[pos] = b"(){}[];,*&=+-<>!~?:.0123456789abcxyz"[(r.next() % 36) as usize];
                    }
                }
            }
        }
        run(&m);
    }
}

#[test]
fn deep_nesting_is_an_error_or_fine_never_a_crash() {
    let n = 1500;
    run(format!("int x = {}1{};", "(".repeat(n), ")".repeat(n)).as_bytes());
    run(format!("int f(int a) {{ return {}a{}; }}", "-".repeat(n), "").as_bytes());
    run(format!("int f(int a) {{ {} return a; {} }}", "{".repeat(n), "}".repeat(n)).as_bytes());
    run(format!("int f(int a) {{ return {} 1 {}; }}", "a ? ".repeat(n), " : 0".repeat(n)).as_bytes());
    run(format!("int x = {}1{};", "{".repeat(200), "}".repeat(200)).as_bytes());
    run(format!("struct S {} int x; {};", "struct {".repeat(300), "} s;".repeat(300)).as_bytes());
    run(format!("int {}p;", "*".repeat(20000)).as_bytes());
    run(format!("int a{};", "[2]".repeat(200)).as_bytes());
    run(format!("int f(int a) {{ return a{}; }}", " + a".repeat(100000)).as_bytes());
    run(format!("int f(int a) {{ return 1{}; }}", " + 1".repeat(100000)).as_bytes());
    let mut e = String::from("1");
    for _ in 0..3000 {
        e = format!("({e} + 1)");
    }
    run(format!("int x = {e};").as_bytes());
    run(format!(
        "int f(void) {{ return {}; }}",
        "({ ".repeat(300) + "1;" + &" })".repeat(300)
    )
    .as_bytes());
}

#[test]
fn huge_sizes_are_errors() {
    run(b"char a[0x7fffffffffffffff][4];");
    run(b"char big[1000000000000]; int x = sizeof big;");
    run(b"struct S { char a[0x7fffffffffffffff]; char b[0x7fffffffffffffff]; } s;");
    run(b"int a[] = { [1000000000] = 1 };");
    run(b"int a[3] = { [0 ... 100000000] = 1 };");
    run(b"char s[100000000000] = \"x\";");
    run(b"enum { A = 0x7fffffffffffffff, B };");
    run(b"int x = 1 << 1000; long y = -9223372036854775807L - 2;");
}
