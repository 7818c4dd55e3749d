//! SSA invariants (dominance, asm-goto edges), non-SSA mode, error display, scale.

use super::builders::*;

#[test]
fn use_not_dominated() {
    // %1 is defined in bb1 and used in the join bb3 (bb1 does not dominate it).
    let mut m = diamond();
    m.functions[0].blocks[3].terminator = ret(v(1));
    let t = assert_error(&m, Ssa, Some(3), Some(1), "");
    assert_eq!(
        t,
        "@main: bb3: inst 1 (ret): operand %1 is defined in bb1, which does not dominate bb3"
    );
    // Not a dominance error in non-SSA mode.
    let mut m2 = m.clone();
    m2.functions[0].blocks[3].instructions.clear();
    m2.functions[0].blocks[3].terminator = ret(v(1));
    assert_valid(&m2, NonSsa);
}

#[test]
fn use_before_definition_in_block() {
    let m = main_with(vec![block(
        0,
        vec![
            add(1, I32, v(2), i32c(1)),
            add(2, I32, i32c(1), i32c(1)),
            add(3, I32, v(3), i32c(1)),
        ],
        ret(v(1)),
    )]);
    let errs: Vec<String> = errors(&m, Ssa).iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errs,
        vec![
            "@main: bb0: inst 0 (%1 = add): operand %2 is used before its definition at inst 1",
            "@main: bb0: inst 2 (%3 = add): operand %3 is the instruction's own result",
        ]
    );
}

#[test]
fn unreachable_definitions_and_uses() {
    // Uses inside the unreachable bb5 are skipped; a reachable use of its value is not.
    let m = main_with(vec![
        block(0, vec![], br(1)),
        block(5, vec![add(1, I32, v(2), i32c(1)), add(2, I32, v(1), i32c(1))], br(1)),
        block(1, vec![phi(3, I32, &[(i32c(0), 0), (v(2), 5)])], ret(v(1))),
    ]);
    let t = assert_error(&m, Ssa, Some(1), Some(1), "");
    assert_eq!(
        t,
        "@main: bb1: inst 1 (ret): operand %1 is defined in bb5, which is unreachable, so it does not dominate bb1"
    );
}

#[test]
fn phi_operand_must_be_available_at_end_of_predecessor() {
    // The bb1 entry reads %2, defined in bb2, which does not dominate bb1.
    let mut m = diamond();
    m.functions[0].blocks[3].instructions[0] = phi(3, I32, &[(v(2), 1), (v(2), 2)]);
    let t = assert_error(&m, Ssa, Some(3), Some(0), "");
    assert_eq!(
        t,
        "@main: bb3: inst 0 (%3 = phi): incoming value %2 from bb1 is not available at the end of bb1: it is \
         defined in bb2, which does not dominate bb1"
    );
    // A loop phi may read a value defined later in its own block (the back edge).
    let m = main_with(vec![
        block(0, vec![], br(1)),
        block(
            1,
            vec![phi(1, I32, &[(i32c(0), 0), (v(2), 1)]), add(2, I32, v(1), i32c(1))],
            condbr(v(2), 1, 2),
        ),
        block(2, vec![], ret(v(2))),
    ]);
    assert_valid(&m, Ssa);
}

/// bb0: %0 = paramref; [extra before]; asm goto(bb2) defining `defs`; [extra after]; br bb1
/// bb1: br bb2;  bb2: %9 = phi [goto_val, bb0], [%0, bb1]; ret %9
fn asm_goto_phi(defs: &[u32], before: Vec<Instruction>, after: Vec<Instruction>, goto_val: Operand) -> IrModule {
    let mut insts = vec![param(0, 0, I32)];
    insts.extend(before);
    insts.push(asm(defs, &[], &[2]));
    insts.extend(after);
    main_with(vec![
        block(0, insts, br(1)),
        block(1, vec![], br(2)),
        block(2, vec![phi(9, I32, &[(goto_val, 0), (v(0), 1)])], ret(v(9))),
    ])
}

#[test]
fn asm_goto_edge_availability() {
    // Defined before the asm goto: available on the goto edge.
    assert_valid(&asm_goto_phi(&[5], vec![add(3, I32, v(0), i32c(1))], vec![], v(3)), Ssa);
    // Defined after the asm goto: not available on the goto edge.
    let m = asm_goto_phi(&[5], vec![], vec![add(3, I32, v(0), i32c(1))], v(3));
    let t = assert_error(&m, Ssa, Some(2), Some(0), "");
    assert_eq!(
        t,
        "@main: bb2: inst 0 (%9 = phi): incoming value %3 from bb0 is not available along the asm goto edge \
         (inst 1) of bb0: it is defined at inst 2, after the asm goto"
    );
    // The asm's own output is not written along its goto edge.
    let m = asm_goto_phi(&[5], vec![], vec![], v(5));
    assert_error(
        &m,
        Ssa,
        Some(2),
        Some(0),
        "it is an output of that asm goto, which is written on the fall-through path only",
    );
}

#[test]
fn asm_goto_bypasses_definitions_for_ordinary_uses() {
    // bb2 is reached only through the asm goto of bb0, so bb0 dominates it, but
    // neither the asm's output %5 nor %3 (defined after the asm) reaches it.
    let mk = |use_val: u32| {
        main_with(vec![
            block(
                0,
                vec![param(0, 0, I32), asm(&[5], &[], &[2]), add(3, I32, v(5), i32c(1))],
                ret(v(3)),
            ),
            block(2, vec![add(4, I32, v(use_val), i32c(1))], ret(v(4))),
        ])
    };
    assert_valid(&mk(0), Ssa);
    let t = assert_error(&mk(5), Ssa, Some(2), Some(0), "");
    assert_eq!(
        t,
        "@main: bb2: inst 0 (%4 = add): operand %5 is an output of the asm goto at inst 1 of bb0, which is not \
         written along its goto edges, and bb2 is reachable through them"
    );
    assert_error(
        &mk(3),
        Ssa,
        Some(2),
        Some(0),
        "operand %3 is defined at inst 2 of bb0, after an asm goto whose edge reaches bb2",
    );
}

#[test]
fn asm_output_through_pointer_must_be_pointer() {
    let m = main_with(vec![block(
        0,
        vec![param(0, 0, I32), asm(&[], &[0], &[])],
        ret(i32c(0)),
    )]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(1),
        "output 0 (written through): %0 is i32 but a pointer is expected",
    );
}

#[test]
fn non_ssa_rejects_phis_and_disagreeing_definitions() {
    assert_error(
        &diamond(),
        NonSsa,
        Some(3),
        Some(0),
        "(%3 = phi): a phi remains in non-SSA form",
    );
    let m = main_with(vec![
        block(0, vec![param(0, 0, I32)], condbr(v(0), 1, 2)),
        block(1, vec![add(1, I64, i64c(1), i64c(1)), copy(3, v(1))], br(3)),
        block(2, vec![copy(3, v(0))], br(3)),
        block(3, vec![], ret(v(0))),
    ]);
    let errs: Vec<String> = errors(&m, NonSsa).iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errs,
        vec!["@main: bb2: inst 0 (%3 = copy): copies %0 of type i32 into %3 of type i64"]
    );
}

#[test]
fn errors_display_and_error_trait() {
    let mut m = diamond();
    m.functions[0].blocks[3].terminator = ret(v(1));
    m.functions[0].blocks[1].instructions[0] = add(1, I32, v(8), i32c(1));
    let e = verify_module(&m, Ssa).unwrap_err();
    assert_eq!(e.0.len(), 2);
    let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
    assert_eq!(boxed.to_string().lines().count(), 2);
    assert_eq!(boxed.to_string(), format!("{}\n{}", e.0[0], e.0[1]));
    // verify_function checks one function.
    assert!(verify_function(&m, &m.functions[0], Ssa).is_err());
    assert!(verify_function(&diamond(), &diamond().functions[0], Ssa).is_ok());
}

/// One instruction per rule, appended after `%0 = paramref 0 i32`,
/// `%1 = alloca i64`, `%2 = paramref 1 f64`: each gives exactly one error there.

#[test]
fn non_ssa_definitions_agree_in_type() {
    // %3 defined by an i64 add in one arm and an i32 load in the other.
    let m = main_with(vec![
        block(0, vec![param(0, 0, I32), alloca(1, I32, 4, 4)], condbr(v(0), 1, 2)),
        block(1, vec![add(3, I64, i64c(1), i64c(1))], br(3)),
        block(2, vec![load(3, I32, 1)], br(3)),
        block(3, vec![], ret(v(0))),
    ]);
    let t = assert_error(&m, NonSsa, Some(2), Some(0), "");
    assert_eq!(
        t,
        "@main: bb2: inst 0 (%3 = load): %3 is defined here as i32 but elsewhere as i64"
    );
}

/// A 50,000-block chain (each block adds to the previous block's value, every
/// 100th block joins two paths with a phi): verification is linear and does
/// not recurse.
#[test]
fn large_function() {
    let n = 50_000u32;
    let mut blocks = vec![block(0, vec![param(0, 0, I32)], br(1))];
    for b in 1..n {
        let mut insts = Vec::new();
        let prev = b - 1;
        if b % 100 == 1 && b > 1 {
            // Block b-1 branched here twice (via condbr to b from b-1 and through b+n).
            insts.push(phi(n + b, I32, &[(v(prev), prev), (v(prev), n + b)]));
            insts.push(add(b, I32, v(n + b), i32c(1)));
        } else {
            insts.push(add(b, I32, v(prev), i32c(1)));
        }
        let term = if b + 1 == n {
            ret(v(b))
        } else if (b + 1) % 100 == 1 {
            condbr(v(b), b + 1, n + b + 1)
        } else {
            br(b + 1)
        };
        blocks.push(block(b, insts, term));
        if (b + 1) % 100 == 1 && b + 1 < n {
            blocks.push(block(n + b + 1, vec![], br(b + 1)));
        }
    }
    let m = main_with(blocks);
    let t = std::time::Instant::now();
    assert_valid(&m, Ssa);
    eprintln!("verified {} blocks in {:?}", m.functions[0].blocks.len(), t.elapsed());
}
