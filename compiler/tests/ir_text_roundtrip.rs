//! Property test of the textual IR: for 10,000 random modules (every
//! instruction, terminator, attribute and initializer; hostile names, strings
//! and constants) `parse(print(m)) == m` and printing the result again gives
//! the same text. Plus hand-picked edge cases and the examples of
//! docs/ir.md. (The example files, `tests/filetests/text/`, are checked by
//! their `test roundtrip` header in the filetests runner.)

#[path = "support/random_ir.rs"]
mod random_ir;

use phicc::ir::reexports::*;
use phicc::ir::text::{parse_module, print_function, print_instruction, print_module, print_terminator};
use random_ir::Rng;
use std::collections::HashSet;
use std::mem::discriminant;

const MODULES: u64 = 10_000;

/// Spellings every optional or fallback form prints; the random modules must
/// produce each at least once, so the round trip covers the whole syntax.
const SYNTAX_TO_COVER: &[&str] = &[
    " abi",
    "argtypes(",
    " variadic",
    "fixedargs ",
    "sizes [",
    "aligns [",
    "argclasses [",
    "riscvclasses [",
    " sret",
    " fastcall",
    "retclasses [",
    ", ...",
    "(...",
    "size ",
    "classes [",
    "riscv onefloat(",
    "twofloats(",
    "floatint(",
    "intfloat(",
    "symbols(",
    "segs(",
    "goto(",
    "clobbers(",
    "types(",
    "outputs(",
    "inputs(",
    "*%",
    "] \"",
    "nextvalue 0",
    "nextvalue ",
    "destptr ",
    "f128:0x",
    "f64:0x",
    "f32:0x",
    "f128",
    "@\"",
    "\\u{",
    "\\x",
    "\\n",
    "seg gs",
    "seg fs",
    " volatile",
    " bool",
    "paramallocas [",
    "initlabels [",
    "section ",
    "visibility ",
    " static",
    " inline",
    " alwaysinline",
    " noinline",
    " gnuinline",
    " weak",
    " used",
    " naked",
    " inlinedcalls",
    " extern",
    " common",
    " const",
    " threadlocal",
    " explicitalign",
    "symbol @",
    "alias @",
    "constructor @",
    "destructor @",
    "\nasm ",
    "string16 @",
    "wstring @",
    "declare @",
    "define @",
    " = phi",
    "addr @",
    " + ",
    " - ",
    "labeldiff @",
    "compound {",
    "\n}\n",
];

fn assert_round_trip(m: &IrModule, what: &str) {
    let text = print_module(m);
    let parsed = match parse_module(&text) {
        Ok(p) => p,
        Err(e) => panic!("{what}: printed module does not parse: {e}\n--- text ---\n{text}"),
    };
    if parsed != *m {
        // Find the first differing function for a readable failure.
        for (a, b) in m.functions.iter().zip(&parsed.functions) {
            assert_eq!(
                a,
                b,
                "{what}: function differs after round trip\n--- text ---\n{}",
                print_function(a)
            );
        }
        assert_eq!(
            &parsed, m,
            "{what}: module differs after round trip\n--- text ---\n{text}"
        );
    }
    let again = print_module(&parsed);
    assert_eq!(again, text, "{what}: printing the parsed module changes the text");
}

#[test]
fn ten_thousand_random_modules_round_trip() {
    let mut inst_kinds = HashSet::new();
    let mut term_kinds = HashSet::new();
    let mut init_kinds = HashSet::new();
    let mut covered = [false; SYNTAX_TO_COVER.len()];
    for seed in 0..MODULES {
        let mut rng = Rng::new(seed);
        let m = random_ir::module(&mut rng);
        for f in &m.functions {
            for b in &f.blocks {
                inst_kinds.extend(b.instructions.iter().map(discriminant));
                term_kinds.insert(discriminant(&b.terminator));
            }
        }
        init_kinds.extend(m.globals.iter().map(|g| discriminant(&g.init)));
        assert_round_trip(&m, &format!("seed {seed}"));
        let text = print_module(&m);
        for (i, word) in SYNTAX_TO_COVER.iter().enumerate() {
            if text.contains(word) {
                covered[i] = true;
            }
        }
    }
    let missing: Vec<_> = SYNTAX_TO_COVER
        .iter()
        .zip(&covered)
        .filter(|(_, c)| !**c)
        .map(|(w, _)| w)
        .collect();
    assert!(missing.is_empty(), "the generator never produced {missing:?}");
    // The generator really exercised every variant.
    assert_eq!(inst_kinds.len(), random_ir::INSTRUCTION_KINDS);
    assert_eq!(term_kinds.len(), random_ir::TERMINATOR_KINDS);
    assert_eq!(init_kinds.len(), 10);
}

fn one_block_function(name: &str, insts: Vec<Instruction>, term: Terminator) -> IrFunction {
    let mut f = IrFunction::new(name, IrType::I32, vec![]);
    f.blocks.push(BasicBlock {
        label: BlockId(0),
        instructions: insts,
        terminator: term,
    });
    f.next_value_id = f.scan_max_value_id() + 1;
    f
}

#[test]
fn float_and_integer_extremes_are_bit_exact() {
    let consts = [
        IrConst::F64(f64::from_bits(0x7ff8_0000_0000_0001)),
        IrConst::F64(f64::from_bits(0xfff0_0000_dead_beef)),
        IrConst::F64(-0.0),
        IrConst::F64(f64::INFINITY),
        IrConst::F64(f64::MIN_POSITIVE / 4.0),
        IrConst::F64(0.1 + 0.2),
        IrConst::F32(f32::from_bits(0x7fc0_0001)),
        IrConst::F32(-0.0),
        IrConst::F32(f32::from_bits(1)),
        IrConst::F32(3.4028235e38),
        IrConst::long_double(1.5),
        IrConst::long_double(-0.0),
        IrConst::LongDouble(1.5, [0xab; 16]),
        IrConst::LongDouble(f64::NAN, [0; 16]),
        IrConst::I128(i128::MIN),
        IrConst::I128(i128::MAX),
        IrConst::I64(i64::MIN),
        IrConst::I8(-128),
        IrConst::Zero,
    ];
    let insts = consts
        .iter()
        .enumerate()
        .map(|(i, c)| Instruction::Copy {
            dest: Value(i as u32),
            src: Operand::Const(*c),
        })
        .collect();
    let m = IrModule {
        functions: vec![one_block_function("consts", insts, Terminator::Return(None))],
        ..IrModule::default()
    };
    assert_round_trip(&m, "constants");
    let text = print_module(&m);
    assert!(text.contains("%0 = copy f64:0x7ff8000000000001"), "{text}");
    assert!(text.contains("%2 = copy -0.0f64"), "{text}");
    assert!(text.contains("%5 = copy 0.30000000000000004f64"), "{text}");
    assert!(text.contains("%10 = copy 1.5f128"), "{text}");
    assert!(
        text.contains("%14 = copy -170141183460469231731687303715884105728i128"),
        "{text}"
    );
}

#[test]
fn next_value_id_is_implicit_when_it_is_max_plus_one() {
    let mut f = one_block_function(
        "f",
        vec![Instruction::Copy {
            dest: Value(7),
            src: Operand::Const(IrConst::I32(1)),
        }],
        Terminator::Return(Some(Operand::Value(Value(7)))),
    );
    assert_eq!(f.next_value_id, 8);
    let m = |f: &IrFunction| IrModule {
        functions: vec![f.clone()],
        ..IrModule::default()
    };
    assert!(!print_module(&m(&f)).contains("nextvalue"));
    f.next_value_id = 20;
    assert!(print_module(&m(&f)).contains("nextvalue 20"));
    assert_round_trip(&m(&f), "nextvalue 20");
    f.next_value_id = 0;
    assert!(print_module(&m(&f)).contains("nextvalue 0"));
    assert_round_trip(&m(&f), "nextvalue 0");
    // A hand-written function without `nextvalue` gets max + 1.
    let parsed = parse_module("define @g() -> void {\nbb0:\n  %41 = copy 1i32\n  ret\n}\n").unwrap();
    assert_eq!(parsed.functions[0].next_value_id, 42);
}

#[test]
fn names_and_strings_with_any_characters() {
    let weird = "a \"q\" \\ \n\t\0 é \u{10ffff} ;@%";
    let mut f = one_block_function(
        weird,
        vec![Instruction::GlobalAddr {
            dest: Value(0),
            name: String::new(),
        }],
        Terminator::Unreachable,
    );
    f.section = Some(weird.into());
    let m = IrModule {
        functions: vec![f],
        string_literals: vec![(weird.into(), weird.into()), ("".into(), "".into())],
        wide_string_literals: vec![("w".into(), vec![0xd800, u32::MAX, 0x41])],
        char16_string_literals: vec![("u".into(), vec![0xffff, 0])],
        toplevel_asm: vec![weird.into()],
        ..IrModule::default()
    };
    assert_round_trip(&m, "weird names");
    let text = print_module(&m);
    assert!(text.contains(r#"string @"" = """#), "{text}");
    assert!(text.contains(r#"wstring @w = "\u{d800}\u{ffffffff}A""#), "{text}");
    // The printer writes ASCII only.
    assert!(text.is_ascii());
}

#[test]
fn one_line_printers_match_the_documented_syntax() {
    let phi = Instruction::Phi {
        dest: Value(6),
        ty: IrType::I32,
        incoming: vec![
            (Operand::Value(Value(4)), BlockId(0)),
            (Operand::Value(Value(7)), BlockId(1)),
        ],
    };
    assert_eq!(print_instruction(&phi), "%6 = phi i32 [%4, bb0], [%7, bb1]");
    let store = Instruction::Store {
        val: Operand::Value(Value(2)),
        ptr: Value(0),
        ty: IrType::I32,
        seg_override: AddressSpace::Default,
    };
    assert_eq!(print_instruction(&store), "store i32 %2, %0");
    let sw = Terminator::Switch {
        val: Operand::Value(Value(9)),
        cases: vec![(1, BlockId(1)), (2, BlockId(1))],
        default: BlockId(3),
        ty: IrType::I32,
    };
    assert_eq!(print_terminator(&sw), "switch i32 %9, default bb3 [1: bb1, 2: bb1]");
    let asm = Instruction::InlineAsm(Box::new(InlineAsm {
        template: "tmpl".into(),
        outputs: vec![AsmOutput {
            constraint: "=r".into(),
            value: Value(1),
            name: None,
            is_def: false,
        }],
        inputs: vec![AsmInput {
            constraint: "r".into(),
            value: Operand::Value(Value(2)),
            name: None,
        }],
        clobbers: vec!["memory".into()],
        operand_types: vec![IrType::I32, IrType::I32],
        goto_labels: vec![("l1".into(), BlockId(3))],
        input_symbols: vec![],
        seg_overrides: vec![],
    }));
    assert_eq!(
        print_instruction(&asm),
        r#"asm "tmpl" outputs("=r" *%1) inputs("r" %2) clobbers("memory") types(i32, i32) goto(l1 bb3)"#
    );
}

/// The examples in docs/ir.md parse: the worked example is canonical, and
/// every instruction or terminator snippet in the tables parses as one line.
#[test]
fn documentation_examples_parse() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ir.md")).unwrap();
    let start = doc.find("## Worked example").unwrap();
    let block = doc[start..].split("```").nth(1).unwrap().trim_start_matches('\n');
    let m = parse_module(block).unwrap_or_else(|e| panic!("worked example: {e}"));
    let body: String = block
        .lines()
        .filter(|l| !l.starts_with(';'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(print_module(&m), body);

    const NO_DEST: &[&str] = &[
        "store",
        "memcpy",
        "stackrestore",
        "vastart",
        "vaend",
        "vacopy",
        "vaargstruct",
        "atomicstore",
        "fence",
        "setretf64second",
        "setretf32second",
        "setretf128second",
        "asm",
        "intrinsic",
        "call",
        "ret",
        "br",
        "condbr",
        "switch",
        "indirectbr",
        "unreachable",
    ];
    let mut checked = 0;
    for line in doc.lines().filter(|l| l.starts_with("| ")) {
        for (i, span) in line.split('`').enumerate() {
            let first = span.split(' ').next().unwrap_or("");
            let is_code = i % 2 == 1 && (span.starts_with('%') && span.contains(" = ") || NO_DEST.contains(&first));
            if !is_code {
                continue;
            }
            let src = format!("define @f() -> void {{\nbb0:\n  {span}\n  unreachable\n}}\n");
            let src = if ["ret", "br", "condbr", "switch", "indirectbr", "unreachable"].contains(&first) {
                format!("define @f() -> void {{\nbb0:\n  {span}\n}}\n")
            } else {
                src
            };
            let m = parse_module(&src).unwrap_or_else(|e| panic!("doc snippet `{span}`: {e}"));
            let b = &m.functions[0].blocks[0];
            let printed = match b.instructions.first() {
                Some(inst) => print_instruction(inst),
                None => print_terminator(&b.terminator),
            };
            assert_eq!(printed, span, "doc snippet is not canonical");
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} snippets checked");

    // Module items and global initializers: the spans of each table's text column.
    let items = &doc[doc.find("## Module items").unwrap()..doc.find("## Functions").unwrap()];
    let mut checked = 0;
    for line in items.lines().filter(|l| l.starts_with("| ")) {
        let Some(column) = line.split(" | ").nth(1) else {
            continue;
        };
        for span in column.split('`').skip(1).step_by(2) {
            if span.contains("...") || span.starts_with('+') || span == "zero" {
                continue;
            }
            let first = span.split(' ').next().unwrap_or("");
            let item = ["asm", "symbol", "global", "alias", "constructor", "destructor"].contains(&first)
                || (["string", "wstring", "string16"].contains(&first) && span.contains(" = "));
            let src = if item {
                format!("{span}\n")
            } else {
                format!("global @x: i32, size 4, align 4 = {span}\n")
            };
            let m = parse_module(&src).unwrap_or_else(|e| panic!("doc snippet `{span}`: {e}"));
            assert_eq!(print_module(&m), src, "doc snippet is not canonical");
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} module snippets checked");
}

/// Every hand-written IR file of the repository's corpora parses, and its
/// canonical printing parses back to the same module.
#[test]
fn corpus_files_parse_and_round_trip() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpora");
    let mut seen = 0;
    for dir in ["ir", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("ir") {
                continue;
            }
            let src = std::fs::read_to_string(&path).unwrap();
            let m = parse_module(&src).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
            assert_round_trip(&m, &path.display().to_string());
            seen += 1;
        }
    }
    // The corpus may not be merged yet in every branch; when it is, it is not empty.
    if root.join("ir").is_dir() {
        assert!(seen > 0);
    }
}

/// Comments at the end of any line, blank lines and extra indentation do not
/// change the parsed module.
#[test]
fn comments_blank_lines_and_indentation_are_ignored() {
    for seed in 0..500 {
        let m = random_ir::module(&mut Rng::new(seed));
        let text = print_module(&m);
        let noisy: String = text
            .lines()
            .map(|l| format!("\t {l}  ; note \"{seed}\" @%\n\n"))
            .collect();
        let parsed = parse_module(&noisy).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{noisy}"));
        assert_eq!(parsed, m, "seed {seed}");
    }
}
