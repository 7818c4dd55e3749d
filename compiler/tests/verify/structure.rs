//! Structural invariants: blocks, labels, targets, edges, phis, definitions.

use super::builders::*;

#[test]
fn valid_diamond_loop_switch_and_asm_goto() {
    assert_valid(&diamond(), Ssa);

    // A loop whose phis swap (%1, %2) each iteration; the exit uses both.
    let swap = main_with(vec![
        block(0, vec![param(0, 0, I32)], br(1)),
        block(
            1,
            vec![
                phi(1, I32, &[(i32c(1), 0), (v(2), 1)]),
                phi(2, I32, &[(i32c(2), 0), (v(1), 1)]),
                phi(3, I32, &[(zero(), 0), (v(4), 1)]),
                add(4, I32, v(3), i32c(1)),
                cmp(5, IrCmpOp::Slt, I32, v(4), v(0)),
            ],
            condbr(v(5), 1, 2),
        ),
        block(2, vec![bin(6, IrBinOp::Sub, I32, v(1), v(2))], ret(v(6))),
    ]);
    assert_valid(&swap, Ssa);

    // A switch with two cases to one block: one CFG edge, one phi entry.
    let sw = main_with(vec![
        block(
            0,
            vec![param(0, 0, I32)],
            Terminator::Switch {
                val: v(0),
                cases: vec![(1, bb(1)), (2, bb(1)), (3, bb(2))],
                default: bb(2),
                ty: I32,
            },
        ),
        block(1, vec![], br(2)),
        block(2, vec![phi(1, I32, &[(i32c(7), 0), (v(0), 1)])], ret(v(1))),
    ]);
    assert_valid(&sw, Ssa);

    // asm goto: its output %1 flows to the fall-through successor; along the
    // goto edge bb2 receives %0, defined before the asm.
    let ag = main_with(vec![
        block(0, vec![param(0, 0, I32), asm(&[1], &[], &[2])], br(1)),
        block(1, vec![], br(2)),
        block(2, vec![phi(2, I32, &[(v(0), 0), (v(1), 1)])], ret(v(2))),
    ]);
    assert_valid(&ag, Ssa);
}

#[test]
fn valid_unreachable_code_and_declarations() {
    // bb9 is unreachable; its uses are not dominance-checked, but it is a
    // predecessor of bb2 and needs a phi entry.
    let m = module(vec![
        declare("printf", I32, &[IrType::Ptr], true),
        declare("abs", I32, &[I32], false),
        func(
            "main",
            I32,
            &[I32],
            vec![
                block(
                    0,
                    vec![
                        param(0, 0, I32),
                        call(Some(1), "abs", I32, &[(I32, v(0))]),
                        call(None, "printf", I32, &[(IrType::Ptr, i64c(0)), (I32, v(1)), (F64, v(0))]),
                    ],
                    br(2),
                ),
                block(9, vec![add(5, I32, v(6), i32c(1)), add(6, I32, v(5), i32c(1))], br(2)),
                block(2, vec![phi(3, I32, &[(v(1), 0), (v(5), 9)])], ret(v(3))),
            ],
        ),
    ]);
    // printf's F64 argument with an i32 value is a type error: remove it first.
    let errs = errors(&m, Ssa);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0]
        .to_string()
        .contains("argument 2: %0 is i32 but the argument type is f64"));
    let mut m = m;
    if let Instruction::Call { info, .. } = &mut m.functions[2].blocks[0].instructions[2] {
        info.arg_types[2] = I32;
    }
    assert_valid(&m, Ssa);
}

#[test]
fn valid_after_phi_elimination() {
    // The diamond after phi elimination: %3 is defined by a copy in each arm.
    let m = main_with(vec![
        block(0, vec![param(0, 0, I32)], condbr(v(0), 1, 2)),
        block(1, vec![add(1, I32, v(0), i32c(1)), copy(3, v(1))], br(3)),
        block(2, vec![copy(3, i32c(5))], br(3)),
        block(3, vec![], ret(v(3))),
    ]);
    assert_valid(&m, NonSsa);
    // The same IR is not SSA: %3 has two definitions, neither dominating the use.
    let errs: Vec<String> = errors(&m, Ssa).iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errs,
        vec![
            "@main: bb2: inst 0 (%3 = copy): %3 is already defined at bb1 inst 1",
            "@main: bb3: inst 0 (ret): operand %3 is defined in bb1, which does not dominate bb3",
        ]
    );
}

#[test]
fn definition_without_blocks() {
    let m = main_with(vec![]);
    let text = assert_error(&m, Ssa, None, None, "has no blocks");
    assert_eq!(text, "@main: a function definition has no blocks");
}

#[test]
fn duplicate_block_labels() {
    let other = func(
        "other",
        IrType::Void,
        &[],
        vec![block(1, vec![], Terminator::Return(None))],
    );
    let m = module(vec![diamond().functions.remove(0), other]);
    assert_error_in(&m, Ssa, "other", Some(1), None, "block label bb1 is also used in @main");

    // Sparse labels (the module check hashes them instead of indexing a
    // table): the same finding, once per function however often it repeats.
    let far = 4_000_000_000;
    let f = func(
        "f",
        IrType::Void,
        &[],
        vec![block(far, vec![], Terminator::Return(None))],
    );
    let g = func(
        "g",
        IrType::Void,
        &[],
        vec![
            block(7, vec![], br(far)),
            block(far, vec![], br(far)),
            block(far, vec![], Terminator::Return(None)),
        ],
    );
    let across: Vec<String> = errors(&module(vec![f.clone(), g.clone()]), Ssa)
        .iter()
        .map(|e| e.to_string())
        .filter(|e| e.contains("also used in"))
        .collect();
    assert_eq!(
        across,
        vec![format!("@g: bb{far}: block label bb{far} is also used in @f")]
    );
    // The same two functions with small labels go through the table.
    let relabel = |mut f: IrFunction| {
        for b in &mut f.blocks {
            if b.label.0 == far {
                b.label.0 = 3;
            }
            b.terminator.retarget(BlockId(far), BlockId(3));
        }
        f
    };
    let across: Vec<String> = errors(&module(vec![relabel(f), relabel(g)]), Ssa)
        .iter()
        .map(|e| e.to_string())
        .filter(|e| e.contains("also used in"))
        .collect();
    assert_eq!(across, vec!["@g: bb3: block label bb3 is also used in @f".to_string()]);

    let m = main_with(vec![
        block(0, vec![], br(1)),
        block(1, vec![], br(1)),
        block(1, vec![], ret(i32c(0))),
    ]);
    assert_error(&m, Ssa, Some(1), None, "label bb1 is also the label of block index 1");
}

#[test]
fn duplicate_function_definitions() {
    let a = func("f", IrType::Void, &[], vec![block(0, vec![], Terminator::Return(None))]);
    let b = func("f", IrType::Void, &[], vec![block(1, vec![], Terminator::Return(None))]);
    assert_error_in(&module(vec![a, b]), Ssa, "f", None, None, "@f is defined twice");
}

#[test]
fn missing_targets() {
    let m = main_with(vec![block(0, vec![param(0, 0, I32)], condbr(v(0), 0, 7))]);
    let errs = errors(&m, Ssa);
    // bb0 -> bb0 also gives the entry a predecessor.
    assert!(errs
        .iter()
        .any(|e| e.to_string() == "@main: bb0: inst 1 (condbr): branch target bb7 is not a block of @main"));

    let m = main_with(vec![block(0, vec![asm(&[], &[], &[4])], ret(i32c(0)))]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(0),
        "asm goto label `l4` targets bb4, which is not a block",
    );

    let m = main_with(vec![block(
        0,
        vec![Instruction::LabelAddr {
            dest: Value(0),
            label: bb(5),
        }],
        ret(i32c(0)),
    )]);
    assert_error(&m, Ssa, Some(0), Some(0), "labeladdr of bb5");

    let m = main_with(vec![
        block(
            0,
            vec![Instruction::LabelAddr {
                dest: Value(0),
                label: bb(1),
            }],
            br(1),
        ),
        block(
            1,
            vec![],
            Terminator::IndirectBranch {
                target: v(0),
                possible_targets: vec![bb(1), bb(3)],
            },
        ),
    ]);
    assert_error(&m, Ssa, Some(1), Some(0), "branch target bb3 is not a block");
}

#[test]
fn entry_block_with_predecessors() {
    let m = main_with(vec![
        block(0, vec![param(0, 0, I32)], br(1)),
        block(1, vec![], condbr(v(0), 0, 2)),
        block(2, vec![], ret(i32c(0))),
    ]);
    assert_error(&m, Ssa, Some(0), None, "the entry block has predecessors: bb1");
}

#[test]
fn phi_after_non_phi() {
    let mut m = diamond();
    m.functions[0].blocks[3]
        .instructions
        .insert(0, add(9, I32, i32c(1), i32c(2)));
    assert_error(&m, Ssa, Some(3), Some(1), "phi after a non-phi instruction");
}

#[test]
fn phi_incoming_must_equal_predecessors() {
    // Missing predecessor bb2.
    let mut m = diamond();
    m.functions[0].blocks[3].instructions[0] = phi(3, I32, &[(v(1), 1)]);
    assert_error(&m, Ssa, Some(3), Some(0), "no incoming value for predecessor bb2");
    // A block that is not a predecessor.
    m.functions[0].blocks[3].instructions[0] = phi(3, I32, &[(v(1), 1), (v(2), 2), (v(0), 0)]);
    assert_error(
        &m,
        Ssa,
        Some(3),
        Some(0),
        "incoming block bb0 is not a predecessor of bb3",
    );
    // Two entries for one predecessor.
    m.functions[0].blocks[3].instructions[0] = phi(3, I32, &[(v(1), 1), (v(2), 2), (v(1), 1)]);
    assert_error(&m, Ssa, Some(3), Some(0), "bb1 appears more than once");
    // An unreachable predecessor needs its entry too.
    let m = main_with(vec![
        block(0, vec![], br(2)),
        block(1, vec![], br(2)),
        block(2, vec![phi(0, I32, &[(i32c(1), 0)])], ret(v(0))),
    ]);
    assert_error(&m, Ssa, Some(2), Some(0), "no incoming value for predecessor bb1");
}

#[test]
fn duplicate_definitions_in_ssa() {
    let mut m = diamond();
    m.functions[0].blocks[2].instructions[0] = bin(1, IrBinOp::Mul, I32, v(0), i32c(3));
    let errs = errors(&m, Ssa);
    let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.starts_with("@main: bb2: inst 0 (%1 = mul): %1 is already defined at bb1 inst 0")),
        "{text:#?}"
    );

    // An asm is_def output counts as a definition.
    let m = main_with(vec![block(0, vec![param(0, 0, I32), asm(&[0], &[], &[])], ret(v(0)))]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(1),
        "(%0 = asm): %0 is already defined at bb0 inst 0",
    );
}

#[test]
fn undefined_operand() {
    let m = main_with(vec![block(0, vec![add(1, I32, v(7), i32c(1))], ret(v(1)))]);
    let t = assert_error(&m, Ssa, Some(0), Some(0), "operand %7 is not defined");
    assert_eq!(
        t,
        "@main: bb0: inst 0 (%1 = add): operand %7 is not defined in the function"
    );
    let m = main_with(vec![block(0, vec![], ret(v(3)))]);
    assert_error(&m, NonSsa, Some(0), Some(0), "(ret): operand %3 is not defined");
}

#[test]
fn next_value_id_bounds_definitions() {
    let mut m = diamond();
    m.functions[0].next_value_id = 3;
    assert_error(
        &m,
        Ssa,
        Some(3),
        Some(0),
        "%3 is not below the function's next_value_id 3",
    );
    m.functions[0].next_value_id = 4;
    assert_valid(&m, Ssa);
}

#[test]
fn asm_goto_edge_sources_are_unique() {
    let m = main_with(vec![
        block(0, vec![asm(&[], &[], &[1])], br(1)),
        block(1, vec![], ret(i32c(0))),
    ]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(0),
        "successor bb1 is also reached from the terminator",
    );
    let m = main_with(vec![
        block(0, vec![asm(&[], &[], &[1]), asm(&[], &[], &[2, 1])], br(2)),
        block(1, vec![], ret(i32c(0))),
        block(2, vec![], ret(i32c(1))),
    ]);
    let errs: Vec<String> = errors(&m, Ssa).iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errs,
        vec![
            "@main: bb0: inst 1 (asm): successor bb2 is also reached from the terminator; a block may reach a \
             successor from one edge source only",
            "@main: bb0: inst 1 (asm): successor bb1 is also reached from the asm goto at inst 0; a block may \
             reach a successor from one edge source only",
        ]
    );
}

#[test]
fn declarations_have_no_body() {
    let mut d = declare("ext", I32, &[], false);
    d.blocks.push(block(0, vec![], ret(i32c(0))));
    assert_error_in(&module(vec![d]), Ssa, "ext", None, None, "a declaration has a body");
}
