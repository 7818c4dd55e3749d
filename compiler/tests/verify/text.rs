//! Verifier tests written in the textual IR: the classic mem2reg mistakes,
//! written by hand, are reported with the expected messages. (That the corpus
//! and the format's examples verify is their `test verify` header, run by the
//! filetests runner.)

use super::builders::*;
use phicc::ir::text::parse_module;

fn parse(src: &str) -> IrModule {
    parse_module(src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn messages(src: &str, mode: VerifyMode) -> Vec<String> {
    match verify_module(&parse(src), mode) {
        Ok(()) => vec![],
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

/// mem2reg without the asm-goto snapshot: the value after the asm (its
/// output) leaks into the phi on the goto edge.
#[test]
fn missing_asm_goto_snapshot() {
    let src = "
define @main() -> i32 {
bb0:
  %1 = copy 5i32
  asm \"\" outputs(\"=r\" %2) types(i32) goto(out bb2)
  br bb1
bb1:
  %3 = and i32 %2, 255i32
  br bb2
bb2:
  %4 = phi i32 [%2, bb0], [%3, bb1]
  ret %4
}
";
    assert_eq!(
        messages(src, Ssa),
        vec![
            "@main: bb2: inst 0 (%4 = phi): incoming value %2 from bb0 is not available along the asm goto edge \
             (inst 1) of bb0: it is an output of that asm goto, which is written on the fall-through path only"
        ]
    );
    // With the snapshot (%1, the value before the asm) it verifies.
    assert_eq!(
        messages(&src.replace("[%2, bb0]", "[%1, bb0]"), Ssa),
        Vec::<String>::new()
    );
}

/// mem2reg without constant narrowing: `store i8 300i32` became a phi operand.
#[test]
fn missing_constant_narrowing() {
    let src = "
define @main(i32) -> i8 {
bb0:
  %0 = paramref 0 i32
  condbr %0, bb1, bb2
bb1:
  br bb2
bb2:
  %1 = phi i8 [300i32, bb0], [44i8, bb1]
  ret %1
}
";
    assert_eq!(
        messages(src, Ssa),
        vec![
            "@main: bb2: inst 0 (%1 = phi): incoming value from bb0: constant 300i32 is 32-bit but the phi type is \
             i8 (constants must be narrowed to it)"
        ]
    );
    assert_eq!(messages(&src.replace("300i32", "44i8"), Ssa), Vec::<String>::new());
}

/// A switch with two cases to one block is one edge: one phi entry, not two.
#[test]
fn switch_duplicate_targets_give_one_entry() {
    let src = "
define @main(i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  switch i32 %0, default bb2 [1: bb1, 2: bb1]
bb1:
  br bb2
bb2:
  %1 = phi i32 [%0, bb0], [1i32, bb1], [2i32, bb1]
  ret %1
}
";
    assert_eq!(
        messages(src, Ssa),
        vec!["@main: bb2: inst 0 (%1 = phi): bb1 appears more than once in the incoming list"]
    );
}

/// After phi elimination the swap's copies define each value twice; that is
/// valid non-SSA form but not SSA form.
#[test]
fn phi_eliminated_swap() {
    let src = "
define @main() -> i32 {
bb0:
  %1 = copy 1i32
  %2 = copy 2i32
  %5 = copy 0i32
  br bb1
bb1:
  %3 = add i32 %5, 1i32
  %6 = copy %1
  %1 = copy %2
  %2 = copy %6
  %5 = copy %3
  %4 = cmp slt i32 %3, 10i32
  condbr %4, bb1, bb2
bb2:
  ret %1
}
";
    assert_eq!(messages(src, NonSsa), Vec::<String>::new());
    let ssa = messages(src, Ssa);
    assert_eq!(ssa.len(), 3, "{ssa:#?}");
    assert_eq!(
        ssa[0],
        "@main: bb1: inst 2 (%1 = copy): %1 is already defined at bb0 inst 0"
    );
}

/// Errors shown in context: the function with `; error:` comments under the
/// offending lines, still parseable.
#[test]
fn annotated_function() {
    let src = "
define @main(i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  %4 = cast i32 -> i64 %0
  %5 = add i32 %4, 2i32
  condbr %0, bb1, bb9
bb1:
  %6 = phi i32 [%5, bb0]
  ret %6
}
";
    let m = parse(src);
    let errs = verify_module(&m, Ssa).unwrap_err();
    let text = errs.annotate(&m);
    assert_eq!(
        text,
        "define @main(i32) -> i32 {
bb0:
  %0 = paramref 0 i32
  %4 = cast i32 -> i64 %0
  %5 = add i32 %4, 2i32
  ; error: operand %4 is i64 but the instruction type is i32
  condbr %0, bb1, bb9
  ; error: branch target bb9 is not a block of @main
bb1:
  %6 = phi i32 [%5, bb0]
  ret %6
}
"
    );
    assert_eq!(parse(&text), m);
    // Function-level and block-level errors go under the header and the label.
    let m = parse("define @f() -> void {\n}\ndefine @g() -> void {\nbb0:\n  br bb0\n}\n");
    let errs = verify_module(&m, Ssa).unwrap_err();
    assert_eq!(
        errs.annotate(&m),
        "define @f() -> void {\n  ; error: a function definition has no blocks\n}\n\
         define @g() -> void {\nbb0:\n  ; error: the entry block has predecessors: bb0\n  br bb0\n}\n"
    );
}
