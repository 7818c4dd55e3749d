//! Differential test of conversions and constant folding against gcc:
//! random constant expressions mixing integer types of every rank and
//! signedness, casts, comparisons and (separately) floating types are folded
//! by sema, and gcc folds the same expressions in static initializers of a
//! probe program run on each target (plain `char` signedness differs).
//! Agreement means the usual arithmetic conversions, integer promotions and
//! casts sema inserts are the ones C requires.

use super::support::*;
use crate::frontend::hir::StaticValue;
use crate::target::Target;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

const INT_CASTS: &[&str] = &[
    "(char)",
    "(signed char)",
    "(unsigned char)",
    "(short)",
    "(unsigned short)",
    "(int)",
    "(unsigned)",
    "(long)",
    "(unsigned long)",
    "(long long)",
    "(unsigned long long)",
    "(_Bool)",
];

const INT_LITS: &[&str] = &[
    "0",
    "1",
    "-1",
    "7",
    "-128",
    "255",
    "256",
    "32767",
    "-32768",
    "65535",
    "0x7fffffff",
    "0x80000000",
    "-2147483647",
    "4294967295u",
    "0xffffffffffffffff",
    "0x7fffffffffffffffL",
    "1000000007",
    "'a'",
    "'\\377'",
    "-3L",
    "12345678901ull",
    "100u",
    "0x8000",
    "-5",
];

fn int_expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.next().is_multiple_of(4) {
        return r.pick(INT_LITS).to_string();
    }
    let a = int_expr(r, depth - 1);
    match r.next() % 10 {
        0 => format!("{}({a})", r.pick(INT_CASTS)),
        1 => format!("{}({a})", r.pick(&["-", "~", "!", "+"])),
        2 => format!("(({a}) {} {})", r.pick(&["<<", ">>"]), r.next() % 16),
        3 => {
            let b = int_expr(r, depth - 1);
            format!("(({a}) {} ((({b}) | 1) & 0xff))", r.pick(&["/", "%"]))
        }
        4 => {
            let b = int_expr(r, depth - 1);
            let c = int_expr(r, depth - 1);
            format!("(({a}) ? ({b}) : ({c}))")
        }
        _ => {
            let b = int_expr(r, depth - 1);
            let op = r.pick(&["+", "-", "*", "&", "|", "^", "<", ">=", "==", "!=", "&&", "||"]);
            format!("(({a}) {op} ({b}))")
        }
    }
}

const FLOAT_LITS: &[&str] = &[
    "0.5", "1.0f", "-2.75", "3", "1e10", "-1e-3f", "0.1", "7u", "-9L", "1.5e300", "2.5f",
];

fn float_expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.next().is_multiple_of(4) {
        return r.pick(FLOAT_LITS).to_string();
    }
    let a = float_expr(r, depth - 1);
    match r.next() % 6 {
        0 => format!(
            "{}({a})",
            r.pick(&["(float)", "(double)", "(int)", "(long)", "(unsigned char)"])
        ),
        1 => format!("-({a})"),
        _ => {
            let b = float_expr(r, depth - 1);
            format!("(({a}) {} ({b}))", r.pick(&["+", "-", "*", "/", "<", "==", "&&"]))
        }
    }
}

/// Our value of `long long r = (long long)(e);` (or a double), if sema folds it.
fn ours(t: Target, decl: &str) -> Option<Vec<u8>> {
    let (p, _) = analyze_t(decl, t).ok()?;
    let g = global(&p, "r");
    let bytes = init_bytes(g.init.as_ref()?);
    bytes.into_iter().collect()
}

fn check(t: Target, ty: &str, fmt: &str, exprs: &[String]) -> usize {
    let mut kept = Vec::new();
    for e in exprs {
        let decl = format!("{ty} r = ({ty})({e});");
        if let Some(b) = ours(t, &decl) {
            kept.push((e, b));
        }
    }
    assert!(
        kept.len() * 10 >= exprs.len() * 8,
        "too few expressions folded: {}",
        kept.len()
    );
    let mut probe = String::from("#include <stdio.h>\n#include <string.h>\n");
    for (i, (e, _)) in kept.iter().enumerate() {
        probe.push_str(&format!("{ty} r{i} = ({ty})({e});\n"));
    }
    probe.push_str("int main(void) {\n");
    for i in 0..kept.len() {
        probe.push_str(&format!(
            "  {{ unsigned char b[sizeof r{i}]; memcpy(b, &r{i}, sizeof b); for (unsigned k = 0; k < sizeof b; k++) printf(\"{fmt}\", b[k]); printf(\"\\n\"); }}\n"
        ));
    }
    probe.push_str("  return 0;\n}\n");
    let Some(out) = run_probe(t, &probe) else { return 0 };
    for ((e, b), line) in kept.iter().zip(out.lines()) {
        let gcc: Vec<u8> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let is_nan = |v: &[u8]| v.len() == 8 && f64::from_le_bytes(v.try_into().unwrap()).is_nan();
        if ty == "double" && is_nan(b) && is_nan(&gcc) {
            // The sign of a NaN from folding is not specified; gcc's varies by operation.
            continue;
        }
        assert_eq!(b, &gcc, "{}: ({ty})({e})", t.name());
    }
    kept.len()
}

#[test]
fn integer_conversions_and_folding_match_gcc() {
    // PHICC_FOLD_EXPRS / PHICC_FOLD_SEED widen the search for a one-off run.
    let n: usize = std::env::var("PHICC_FOLD_EXPRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(250);
    let seed: u64 = std::env::var("PHICC_FOLD_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x1234_5678_9abc);
    let mut r = Rng(seed.max(1));
    let exprs: Vec<String> = (0..n).map(|_| int_expr(&mut r, 4)).collect();
    let mut n = 0;
    for t in Target::ALL {
        n += check(t, "long long", "%u ", &exprs);
    }
    eprintln!("{n} integer expressions agree with gcc");
}

#[test]
fn floating_conversions_and_folding_match_gcc() {
    let n: usize = std::env::var("PHICC_FOLD_EXPRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    let seed: u64 = std::env::var("PHICC_FOLD_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0xfeed_beef);
    let mut r = Rng(seed.max(1));
    let exprs: Vec<String> = (0..n).map(|_| float_expr(&mut r, 3)).collect();
    let n = check(Target::X86_64, "double", "%u ", &exprs);
    eprintln!("{n} floating expressions agree with gcc");
}

#[test]
fn static_value_kinds() {
    // Doubles and floats are kept as floating items (the backend encodes them).
    let p = ok("double d = 1.5; float f = -2.0f;");
    assert!(matches!(
        init_of(&p, "d").items[0].value,
        StaticValue::Float { value, .. } if value.to_f64() == 1.5
    ));
}

#[test]
fn long_double_folds_exactly_per_target() {
    // Expected bits: gcc 12's objects for x86-64 (x87: sign and exponent,
    // significand with its integer bit) and aarch64-linux-gnu (binary128).
    let x87 = |se: u128, m: u128| (se << 112) | ((m & !(1u128 << 63)) << 49);
    let src = "long double a = -__LDBL_MAX__, b = 0.1L * 3, c = (long double)~0ULL, n = 1.0L/0.0L - 1.0L/0.0L;
               double d = (double)1.1L; float f = (float)(1.0000000596046447754L + 4 * __LDBL_EPSILON__);
               int e = !__LDBL_DENORM_MIN__; int l = 1.1L < 1.1;";
    let cases = [
        (
            Target::X86_64,
            [
                x87(0xfffe, 0xffffffffffffffff),
                x87(0x3ffd, 0x999999999999999a),
                x87(0x403e, 0xffffffffffffffff),
                x87(0x7fff, 0xc000000000000000),
            ],
        ),
        (
            Target::Aarch64,
            [
                0xfffeffffffffffffffffffffffffffff,
                0x3ffd3333333333333333333333333334,
                0x403efffffffffffffffe000000000000,
                0x7fff8000000000000000000000000000,
            ],
        ),
    ];
    for (t, want) in cases {
        let (p, _) = analyze_t(src, t).unwrap();
        for (name, w) in ["a", "b", "c", "n"].iter().zip(want) {
            match init_of(&p, name).items[0].value {
                StaticValue::Float { value, .. } => assert_eq!(value.0, w, "{t:?} {name}: {:#x}", value.0),
                ref other => panic!("{name}: {other:?}"),
            }
        }
        let float_bits = |name| match init_of(&p, name).items[0].value {
            StaticValue::Float { value, .. } => value,
            ref other => panic!("{name}: {other:?}"),
        };
        assert_eq!(float_bits("d").to_f64().to_bits(), 0x3ff199999999999a);
        assert_eq!(float_bits("f").to_f32().to_bits(), 0x3f800001);
        assert!(init_of(&p, "e")
            .items
            .iter()
            .all(|i| matches!(i.value, StaticValue::Int { bits: 0, .. })));
        assert!(matches!(
            init_of(&p, "l").items[0].value,
            StaticValue::Int { bits: 1, .. }
        ));
    }
}
