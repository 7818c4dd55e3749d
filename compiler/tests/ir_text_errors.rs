//! Parse errors of the textual IR: each names its `line:col` and what was
//! expected; references to undefined values and blocks are accepted (the
//! verifier's job); and no input makes the parser panic — checked on
//! thousands of mutated printed modules and random token soups. Whatever
//! mutated text does parse must print canonically and re-parse to itself.

#[path = "support/random_ir.rs"]
mod random_ir;

use phicc::ir::reexports::*;
use phicc::ir::text::{parse_module, print_module, ParseError};
use random_ir::Rng;

fn err(src: &str) -> ParseError {
    match parse_module(src) {
        Ok(m) => panic!("expected an error for:\n{src}\ngot {m:?}"),
        Err(e) => e,
    }
}

fn assert_err(src: &str, line: usize, col: usize, needle: &str) {
    let e = err(src);
    assert_eq!((e.line, e.col), (line, col), "position of '{e}' in:\n{src}");
    assert!(e.message.contains(needle), "message '{}' lacks '{needle}'", e.message);
}

#[test]
fn errors_name_position_and_expectation() {
    let e = err("define @f() -> i32 {\nbb0:\n  %1 = add i32 %0\n  ret 0i32\n}\n");
    assert_eq!(e.to_string(), "3:18: expected ',', found end of line");
    assert_err(
        "define @f() -> void {\nbb0:\n  ret\nbb0:\n  ret\n}\n",
        4,
        1,
        "duplicate block label bb0",
    );
    assert_err(
        "define @f() -> void {\nbb0:\n  %0 = copy 1i32\nbb1:\n  ret\n}\n",
        4,
        1,
        "terminator to end block bb0",
    );
    assert_err(
        "define @f() -> void {\nbb0:\n  frob %1\n  ret\n}\n",
        3,
        3,
        "unknown instruction 'frob'",
    );
    assert_err(
        "define @f() -> void {\nbb0:\n  %2 = store i32 1i32, %0\n  ret\n}\n",
        3,
        8,
        "does not define a value",
    );
    assert_err(
        "define @f() -> void {\nbb0:\n  add i32 1i32, 2i32\n  ret\n}\n",
        3,
        3,
        "'%N = add",
    );
    assert_err(
        "global @g: i32, size 99999999999999999999999, align 4\n",
        1,
        22,
        "out of range",
    );
    assert_err("global @g: i33, size 4, align 4\n", 1, 12, "expected a type");
    assert_err("define @f() -> void\n", 1, 20, "a 'define' needs a body");
    assert_err(
        "define @f() -> void {\nbb0:\n  ret\n",
        4,
        1,
        "expected a block label 'bbN:' or '}'",
    );
    assert_err("string @s = \"abc\n", 1, 13, "unterminated string");
    assert_err("string16 @s = \"\\u{10000}\"\n", 1, 15, "above 0xffff");
    assert_err("frobnicate\n", 1, 1, "expected a top-level item");
    assert_err(
        "define @f() -> void {\nbb0:\n  call void @g(i32 1i32, 2i32)\n  ret\n}\n",
        3,
        26,
        "every argument has a type or none",
    );
    assert_err(
        "define @f() -> void {\nbb0:\n  asm \"\" clobbers(\"cc\") clobbers(\"memory\")\n  ret\n}\n",
        3,
        25,
        "given twice",
    );
}

#[test]
fn undefined_references_are_not_parse_errors() {
    let m = parse_module("define @f() -> i32 {\nbb0:\n  %5 = add i32 %77, %78\n  condbr %5, bb9, bb10\n}\n").unwrap();
    let b = &m.functions[0].blocks[0];
    assert_eq!(
        b.terminator,
        Terminator::CondBranch {
            cond: Operand::Value(Value(5)),
            true_label: BlockId(9),
            false_label: BlockId(10),
        }
    );
    assert_eq!(m.functions[0].next_value_id, 79);
}

#[test]
fn hand_written_defaults_are_sensible() {
    // No `-> TYPE` means void; a block may share its line with its first instruction.
    let m = parse_module("declare @exit(i32)\ndefine @g() {\nbb7: ret\n}\n").unwrap();
    assert_eq!(m.functions[0].return_type, IrType::Void);
    assert!(m.functions[0].is_declaration && m.functions[0].blocks.is_empty());
    assert_eq!(m.functions[1].blocks[0].label, BlockId(7));
    // `{}` is an empty definition, the same as the printed `{` newline `}`.
    let m = parse_module("define @e() -> i32 {}\n").unwrap();
    assert!(!m.functions[0].is_declaration && m.functions[0].blocks.is_empty());
    assert_eq!(print_module(&m), "define @e() -> i32 {\n}\n");
    // A call without annotations has no ABI lists; `...` marks the fixed-argument count.
    let m = parse_module("define @h() -> void {\nbb0:\n  call i32 @printf(ptr %1, ..., i32 2i32)\n  ret\n}\n").unwrap();
    let Instruction::Call { info, .. } = &m.functions[0].blocks[0].instructions[0] else {
        panic!("not a call")
    };
    assert_eq!(info.args.len(), 2);
    assert_eq!(info.arg_types, vec![IrType::Ptr, IrType::I32]);
    assert!(info.is_variadic && info.num_fixed_args == 1 && info.dest.is_none());
    assert!(info.struct_arg_sizes.is_empty() && info.struct_arg_classes.is_empty());
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let src = format!("global @g: i8, size 1, align 1 = {}\n", "compound {".repeat(100_000));
    assert!(err(&src).message.contains("nested too deeply"));
}

/// Pieces of syntax the mutator splices in.
const FRAGMENTS: &[&str] = &[
    "%",
    "%1",
    "@",
    "@\"",
    "\"",
    "\\",
    "\\u{",
    "\\x",
    "bb",
    "bb0",
    "bb4294967296",
    ":",
    ",",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "=",
    "->",
    "...",
    "*",
    "+",
    "-",
    "\n",
    " ",
    ";",
    "i32",
    "ptr",
    "f64:",
    "f128:0x1:",
    "0x",
    "1e-",
    "99999999999",
    "-",
    "zero",
    "call",
    "phi",
    "asm",
    "define",
    "declare",
    "global",
    "compound {",
    "ret",
    "switch",
    "é",
    "\u{0}",
    "size",
    "align",
    "...",
    "abi",
    "sizes [",
    "riscv onefloat(",
    "nextvalue",
];

fn mutate(r: &mut Rng, src: &str) -> String {
    let mut chars: Vec<char> = src.chars().collect();
    for _ in 0..1 + r.below(4) {
        let len = chars.len();
        let at = if len == 0 { 0 } else { r.below(len + 1) };
        match r.below(5) {
            0 if len > 0 => {
                let end = (at + 1 + r.below(8)).min(len);
                chars.drain(at.min(len)..end);
            }
            1 => {
                let frag = r.pick(FRAGMENTS);
                chars.splice(at..at, frag.chars());
            }
            2 if len > 0 => {
                let from = r.below(len);
                let end = (from + 1 + r.below(20)).min(len);
                let piece: Vec<char> = chars[from..end].to_vec();
                chars.splice(at..at, piece);
            }
            3 => chars.truncate(at),
            _ => chars.insert(at, char::from_u32(r.below(0x80) as u32).unwrap_or('?')),
        }
    }
    chars.into_iter().collect()
}

/// Parsing never panics; when mutated text parses, the result round-trips.
fn check(src: &str) -> bool {
    match parse_module(src) {
        Err(e) => {
            assert!(e.line >= 1 && e.col >= 1 && !e.message.is_empty());
            false
        }
        Ok(m) => {
            let text = print_module(&m);
            let again = parse_module(&text).unwrap_or_else(|e| panic!("reprint does not parse: {e}\n{text}"));
            assert_eq!(again, m, "re-parse differs for:\n{src}");
            assert_eq!(print_module(&again), text);
            true
        }
    }
}

#[test]
fn mutated_and_random_inputs_never_panic() {
    let mut r = Rng::new(0x5eed);
    let (mut ok, mut total) = (0, 0);
    for seed in 0..3000 {
        let mut g = Rng::new(seed);
        let text = print_module(&random_ir::module(&mut g));
        for _ in 0..3 {
            ok += check(&mutate(&mut r, &text)) as usize;
            total += 1;
        }
    }
    for _ in 0..3000 {
        let soup: String = (0..r.below(40)).map(|_| r.pick(FRAGMENTS)).collect();
        ok += check(&soup) as usize;
        total += 1;
    }
    eprintln!("{ok} of {total} mutated inputs parsed");
    // Some mutations (in comments, strings, names) keep the text valid; most break it.
    assert!(ok > 0 && ok < total, "{ok} of {total} parsed");
}
