//! Verifier tests: for every invariant, one IR function that breaks it (the
//! error must name the right function, block and instruction), and valid
//! functions that must pass. IR is built with the small helpers below.

use phicc::ir::reexports::*;
use phicc::ir::verify::{verify_function, verify_module, VerifyError, VerifyMode};

// ---- builders ----

fn v(n: u32) -> Operand {
    Operand::Value(Value(n))
}
fn i32c(x: i32) -> Operand {
    Operand::Const(IrConst::I32(x))
}
fn i64c(x: i64) -> Operand {
    Operand::Const(IrConst::I64(x))
}
fn zero() -> Operand {
    Operand::Const(IrConst::Zero)
}
fn bb(n: u32) -> BlockId {
    BlockId(n)
}

fn block(label: u32, instructions: Vec<Instruction>, terminator: Terminator) -> BasicBlock {
    BasicBlock {
        label: BlockId(label),
        instructions,
        terminator,
    }
}

fn bin(d: u32, op: IrBinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Instruction {
    Instruction::BinOp {
        dest: Value(d),
        op,
        lhs,
        rhs,
        ty,
    }
}
fn add(d: u32, ty: IrType, lhs: Operand, rhs: Operand) -> Instruction {
    bin(d, IrBinOp::Add, ty, lhs, rhs)
}
fn cmp(d: u32, op: IrCmpOp, ty: IrType, lhs: Operand, rhs: Operand) -> Instruction {
    Instruction::Cmp {
        dest: Value(d),
        op,
        lhs,
        rhs,
        ty,
    }
}
fn phi(d: u32, ty: IrType, incoming: &[(Operand, u32)]) -> Instruction {
    Instruction::Phi {
        dest: Value(d),
        ty,
        incoming: incoming.iter().map(|(o, b)| (*o, BlockId(*b))).collect(),
    }
}
fn copy(d: u32, src: Operand) -> Instruction {
    Instruction::Copy { dest: Value(d), src }
}
fn param(d: u32, idx: usize, ty: IrType) -> Instruction {
    Instruction::ParamRef {
        dest: Value(d),
        param_idx: idx,
        ty,
    }
}
fn alloca(d: u32, ty: IrType, size: usize, align: usize) -> Instruction {
    Instruction::Alloca {
        dest: Value(d),
        ty,
        size,
        align,
        volatile: false,
    }
}
fn store(ty: IrType, val: Operand, ptr: u32) -> Instruction {
    Instruction::Store {
        val,
        ptr: Value(ptr),
        ty,
        seg_override: AddressSpace::Default,
    }
}
fn load(d: u32, ty: IrType, ptr: u32) -> Instruction {
    Instruction::Load {
        dest: Value(d),
        ptr: Value(ptr),
        ty,
        seg_override: AddressSpace::Default,
    }
}
fn call(dest: Option<u32>, func: &str, ret: IrType, args: &[(IrType, Operand)]) -> Instruction {
    Instruction::Call {
        func: func.into(),
        info: CallInfo {
            dest: dest.map(Value),
            args: args.iter().map(|a| a.1).collect(),
            arg_types: args.iter().map(|a| a.0).collect(),
            return_type: ret,
            num_fixed_args: args.len(),
            ..CallInfo::default()
        },
    }
}
/// `asm` with register outputs (`defs`: SSA values it defines, `ptrs`:
/// pointers it writes through) and goto labels.
fn asm(defs: &[u32], ptrs: &[u32], gotos: &[u32]) -> Instruction {
    let mut outputs: Vec<AsmOutput> = ptrs
        .iter()
        .map(|&p| AsmOutput {
            constraint: "=r".into(),
            value: Value(p),
            name: None,
            is_def: false,
        })
        .collect();
    outputs.extend(defs.iter().map(|&d| AsmOutput {
        constraint: "=r".into(),
        value: Value(d),
        name: None,
        is_def: true,
    }));
    let n = outputs.len();
    Instruction::InlineAsm(Box::new(InlineAsm {
        template: String::new(),
        outputs,
        inputs: vec![],
        clobbers: vec![],
        operand_types: vec![IrType::I32; n],
        goto_labels: gotos.iter().map(|&g| (format!("l{g}"), BlockId(g))).collect(),
        input_symbols: vec![],
        seg_overrides: vec![],
    }))
}

fn br(t: u32) -> Terminator {
    Terminator::Branch(BlockId(t))
}
fn condbr(c: Operand, t: u32, f: u32) -> Terminator {
    Terminator::CondBranch {
        cond: c,
        true_label: BlockId(t),
        false_label: BlockId(f),
    }
}
fn ret(o: Operand) -> Terminator {
    Terminator::Return(Some(o))
}

fn func(name: &str, ret: IrType, params: &[IrType], blocks: Vec<BasicBlock>) -> IrFunction {
    let mut f = IrFunction::new(name, ret, params.iter().map(|&t| IrParam::scalar(t)).collect());
    f.blocks = blocks;
    f
}

fn declare(name: &str, ret: IrType, params: &[IrType], variadic: bool) -> IrFunction {
    let mut f = func(name, ret, params, vec![]);
    f.is_declaration = true;
    f.is_variadic = variadic;
    f
}

fn module(functions: Vec<IrFunction>) -> IrModule {
    IrModule {
        functions,
        ..IrModule::default()
    }
}

/// `@main(i32) -> i32` with the given blocks.
fn main_with(blocks: Vec<BasicBlock>) -> IrModule {
    module(vec![func("main", IrType::I32, &[IrType::I32], blocks)])
}

fn errors(m: &IrModule, mode: VerifyMode) -> Vec<VerifyError> {
    match verify_module(m, mode) {
        Ok(()) => vec![],
        Err(e) => e.0,
    }
}

#[track_caller]
fn assert_valid(m: &IrModule, mode: VerifyMode) {
    if let Err(e) = verify_module(m, mode) {
        panic!("expected a valid module, got:\n{e}");
    }
}

/// Exactly one error, at `@main`, `block`, `inst`, whose text contains `needle`.
#[track_caller]
fn assert_error(m: &IrModule, mode: VerifyMode, block: Option<u32>, inst: Option<usize>, needle: &str) -> String {
    assert_error_in(m, mode, "main", block, inst, needle)
}

#[track_caller]
fn assert_error_in(
    m: &IrModule,
    mode: VerifyMode,
    function: &str,
    block: Option<u32>,
    inst: Option<usize>,
    needle: &str,
) -> String {
    let errs = errors(m, mode);
    let all: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert_eq!(errs.len(), 1, "expected one error containing {needle:?}, got {all:#?}");
    let e = &errs[0];
    assert_eq!(e.function, function, "{}", all[0]);
    assert_eq!(e.block, block.map(BlockId), "{}", all[0]);
    assert_eq!(e.inst, inst, "{}", all[0]);
    assert!(all[0].contains(needle), "{:?} does not contain {needle:?}", all[0]);
    all[0].clone()
}

use IrType::{F64, I32, I64, I8};
use VerifyMode::{NonSsa, Ssa};

/// bb0: %0 = paramref; condbr %0 -> bb1 / bb2; bb1: %1 = add; bb2: %2 = mul;
/// bb3: %3 = phi [%1, bb1], [%2, bb2]; ret %3
fn diamond() -> IrModule {
    main_with(vec![
        block(0, vec![param(0, 0, I32)], condbr(v(0), 1, 2)),
        block(1, vec![add(1, I32, v(0), i32c(1))], br(3)),
        block(2, vec![bin(2, IrBinOp::Mul, I32, v(0), i32c(3))], br(3)),
        block(3, vec![phi(3, I32, &[(v(1), 1), (v(2), 2)])], ret(v(3))),
    ])
}

// ---- valid programs ----

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

// ---- structure ----

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

// ---- types ----

#[test]
fn operand_type_mismatch_message() {
    let m = main_with(vec![
        block(0, vec![param(0, 0, I32)], br(3)),
        block(
            3,
            vec![
                Instruction::Cast {
                    dest: Value(4),
                    src: v(0),
                    from_ty: I32,
                    to_ty: I64,
                },
                add(1, I64, v(4), i64c(1)),
                add(5, I32, v(4), i32c(2)),
            ],
            ret(v(5)),
        ),
    ]);
    let t = assert_error(&m, Ssa, Some(3), Some(2), "");
    assert_eq!(
        t,
        "@main: bb3: inst 2 (%5 = add): operand %4 is i64 but the instruction type is i32"
    );
}

#[test]
fn signedness_and_pointers_agree() {
    // u32 operands in an i32 add, a ptr stored as i64, an i64 loaded as a pointer.
    let m = main_with(vec![block(
        0,
        vec![
            param(0, 0, IrType::U32),
            alloca(1, I64, 8, 8),
            add(2, I32, v(0), i32c(1)),
            store(I64, v(1), 1),
            load(3, I64, 1),
            load(4, I32, 3),
        ],
        ret(v(4)),
    )]);
    assert_valid(&m, Ssa);
    // But not a float for an integer.
    let mut m = m;
    m.functions[0].params[0].ty = IrType::F32;
    m.functions[0].blocks[0].instructions[0] = param(0, 0, IrType::F32);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(2),
        "operand %0 is f32 but the instruction type is i32",
    );
}

#[test]
fn constant_classes() {
    let f64c = Operand::Const(IrConst::F64(1.5));
    // Store of a float constant into an i32 slot.
    let m = main_with(vec![block(
        0,
        vec![alloca(0, I32, 4, 4), store(I32, f64c, 0)],
        ret(i32c(0)),
    )]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(1),
        "stored value constant 1.5f64 is a float but the instruction type is i32",
    );
    // Arithmetic on an integer constant at float type.
    let m = main_with(vec![block(0, vec![add(0, F64, f64c, i32c(1))], ret(i32c(0)))]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(0),
        "operand constant 1i32 is an integer but the instruction type is f64",
    );
    // Wider integer constants are fine outside phis, and zero fits anything.
    let m = main_with(vec![block(
        0,
        vec![add(0, I32, i64c(5), zero()), add(1, F64, f64c, zero())],
        ret(v(0)),
    )]);
    assert_valid(&m, Ssa);
}

#[test]
fn phi_constants_must_be_narrowed() {
    // mem2reg must narrow the constant stored into an i8 alloca before it
    // becomes a phi operand.
    let mk = |c: Operand| {
        main_with(vec![
            block(0, vec![param(0, 0, I32)], condbr(v(0), 1, 2)),
            block(1, vec![], br(2)),
            block(2, vec![phi(1, I8, &[(c, 0), (c, 1)])], ret(i32c(0))),
        ])
    };
    let t = errors(&mk(i32c(300)), Ssa);
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!(
        t[0].to_string(),
        "@main: bb2: inst 0 (%1 = phi): incoming value from bb0: constant 300i32 is 32-bit but the phi type is i8 \
         (constants must be narrowed to it)"
    );
    assert_valid(&mk(Operand::Const(IrConst::I8(44))), Ssa);
    assert_valid(&mk(zero()), Ssa);
    assert_eq!(errors(&mk(Operand::Const(IrConst::F32(1.0))), Ssa).len(), 2);
}

#[test]
fn cmp_result_is_i8() {
    let m = main_with(vec![block(
        0,
        vec![
            param(0, 0, I32),
            cmp(1, IrCmpOp::Eq, I32, v(0), i32c(0)),
            Instruction::Cast {
                dest: Value(2),
                src: v(1),
                from_ty: I8,
                to_ty: I32,
            },
            add(3, I32, v(1), v(2)),
        ],
        ret(v(3)),
    )]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(3),
        "operand %1 is i8 but the instruction type is i32",
    );
}

#[test]
fn condition_must_be_integer() {
    let m = main_with(vec![
        block(0, vec![param(0, 0, F64)], condbr(v(0), 1, 1)),
        block(1, vec![], ret(i32c(0))),
    ]);
    let mut m = m;
    m.functions[0].params[0].ty = F64;
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(1),
        "(condbr): condition %0 is f64 but an integer is expected",
    );
}

#[test]
fn switch_case_values() {
    let mk = |ty: IrType, cases: &[i64]| {
        main_with(vec![
            block(
                0,
                vec![
                    param(0, 0, I32),
                    Instruction::Cast {
                        dest: Value(1),
                        src: v(0),
                        from_ty: I32,
                        to_ty: ty,
                    },
                ],
                Terminator::Switch {
                    val: v(1),
                    cases: cases.iter().map(|&c| (c, bb(1))).collect(),
                    default: bb(1),
                    ty,
                },
            ),
            block(1, vec![], ret(i32c(0))),
        ])
    };
    assert_valid(&mk(I8, &[-128, 127, 0]), Ssa);
    assert_valid(&mk(IrType::U8, &[255, 0]), Ssa);
    assert_error(
        &mk(I8, &[300]),
        Ssa,
        Some(0),
        Some(2),
        "(switch): case value 300 (to bb1) does not fit in i8",
    );
    assert_error(
        &mk(I8, &[-1, 255]),
        Ssa,
        Some(0),
        Some(2),
        "case value 255 (to bb1) appears twice",
    );
    assert_error(
        &mk(I32, &[-(1 << 31) - 1]),
        Ssa,
        Some(0),
        Some(2),
        "does not fit in i32",
    );
    assert_error(
        &mk(F64, &[1]),
        Ssa,
        Some(0),
        Some(2),
        "switch type f64 is not an integer type",
    );
}

#[test]
fn calls() {
    let decls = || {
        vec![
            declare("f2", I32, &[I32, I32], false),
            declare("printf", I32, &[IrType::Ptr], true),
        ]
    };
    let with_call = |c: Instruction| {
        let mut fs = decls();
        fs.push(func(
            "main",
            I32,
            &[I32],
            vec![block(0, vec![param(0, 0, I32), c], ret(i32c(0)))],
        ));
        module(fs)
    };
    assert_valid(
        &with_call(call(Some(1), "f2", I32, &[(I32, v(0)), (I32, i32c(1))])),
        Ssa,
    );
    assert_error(
        &with_call(call(Some(1), "nosuch", I32, &[])),
        Ssa,
        Some(0),
        Some(1),
        "(%1 = call @nosuch): callee @nosuch is not a function of the module",
    );
    assert_error(
        &with_call(call(Some(1), "f2", I32, &[(I32, v(0))])),
        Ssa,
        Some(0),
        Some(1),
        "@f2 takes 2 arguments but the call passes 1",
    );
    assert_error(
        &with_call(call(Some(1), "printf", I32, &[])),
        Ssa,
        Some(0),
        Some(1),
        "@printf takes at least 1 arguments but the call passes 0",
    );
    assert_valid(
        &with_call(call(
            None,
            "printf",
            I32,
            &[(IrType::Ptr, i64c(0)), (I32, v(0)), (I64, i64c(1))],
        )),
        Ssa,
    );
    assert_error(
        &with_call(call(Some(1), "f2", IrType::Void, &[(I32, v(0)), (I32, v(0))])),
        Ssa,
        Some(0),
        Some(1),
        "a call with a result returns void",
    );
    assert_error(
        &with_call(call(None, "f2", I32, &[(I64, v(0)), (I32, v(0))])),
        Ssa,
        Some(0),
        Some(1),
        "argument 0: %0 is i32 but the argument type is i64",
    );
}

#[test]
fn paramref_index_and_type() {
    let m = main_with(vec![block(0, vec![param(0, 1, I32)], ret(v(0)))]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(0),
        "parameter index 1 but @main has 1 parameters",
    );
    let m = main_with(vec![block(0, vec![param(0, 0, I64)], ret(i32c(0)))]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(0),
        "parameter 0 is i32 but the paramref type is i64",
    );
    let m = main_with(vec![block(0, vec![param(0, 0, IrType::U32)], ret(v(0)))]);
    assert_valid(&m, Ssa);
}

#[test]
fn alloca_size_and_alignment() {
    let m = main_with(vec![block(0, vec![alloca(0, I64, 4, 8)], ret(i32c(0)))]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(0),
        "alloca of 4 bytes is smaller than i64 (8 bytes)",
    );
    let m = main_with(vec![block(0, vec![alloca(0, I32, 12, 3)], ret(i32c(0)))]);
    assert_error(&m, Ssa, Some(0), Some(0), "alignment 3 is not a power of two");
    let m = main_with(vec![block(0, vec![alloca(0, I8, 100, 16)], ret(i32c(0)))]);
    assert_valid(&m, Ssa);
}

#[test]
fn return_values() {
    let m = module(vec![func(
        "main",
        IrType::Void,
        &[],
        vec![block(0, vec![], ret(i32c(0)))],
    )]);
    assert_error(&m, Ssa, Some(0), Some(0), "returns a value from a void function");
    let m = main_with(vec![block(0, vec![], ret(Operand::Const(IrConst::F64(0.5))))]);
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(0),
        "returned value constant 0.5f64 is a float but the function returns i32",
    );
    let m = main_with(vec![block(0, vec![], Terminator::Return(None))]);
    assert_valid(&m, Ssa);
}

#[test]
fn global_addresses() {
    let ga = |n: &str| Instruction::GlobalAddr {
        dest: Value(0),
        name: n.into(),
    };
    let mut m = main_with(vec![block(0, vec![ga("g"), ga("s")], ret(i32c(0)))]);
    m.functions[0].blocks[0].instructions[1] = Instruction::GlobalAddr {
        dest: Value(1),
        name: ".str0".into(),
    };
    m.string_literals.push((".str0".into(), "hi".into()));
    assert_error(
        &m,
        Ssa,
        Some(0),
        Some(0),
        "@g is not a global, function or string of the module",
    );
    m.globals.push(IrGlobal {
        name: "g".into(),
        ty: I32,
        size: 4,
        align: 4,
        ..IrGlobal::default()
    });
    assert_valid(&m, Ssa);
}

// ---- SSA dominance ----

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

// ---- non-SSA mode ----

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
fn operand_rules_table() {
    let ptr = IrType::Ptr;
    let intrinsic = |op: IntrinsicOp, args: Vec<Operand>| Instruction::Intrinsic {
        dest: None,
        op,
        dest_ptr: None,
        args,
    };
    let mut asm_types = asm(&[8], &[], &[]);
    if let Instruction::InlineAsm(a) = &mut asm_types {
        a.operand_types = vec![I32, I32];
    }
    let mut call_len = call(None, "main", I32, &[(I32, v(0)), (F64, v(2))]);
    if let Instruction::Call { info, .. } = &mut call_len {
        info.arg_types.pop();
    }
    let cases: Vec<(Instruction, &str)> = vec![
        (
            load(8, I32, 0),
            "(%8 = load): pointer %0 is i32 but a pointer is expected",
        ),
        (load(8, IrType::Void, 1), "(%8 = load): the instruction type is void"),
        (
            Instruction::Memcpy {
                dest: Value(1),
                src: Value(2),
                size: 8,
            },
            "(memcpy): source %2 is f64 but a pointer is expected",
        ),
        (
            Instruction::GetElementPtr {
                dest: Value(8),
                base: Value(1),
                offset: v(2),
                ty: I8,
            },
            "(%8 = gep): offset %2 is f64 but an integer is expected",
        ),
        (
            Instruction::DynAlloca {
                dest: Value(8),
                size: v(0),
                align: 6,
            },
            "(%8 = dynalloca): alignment 6 is not a power of two",
        ),
        (
            Instruction::Cast {
                dest: Value(8),
                src: v(2),
                from_ty: I32,
                to_ty: I64,
            },
            "(%8 = cast): operand %2 is f64 but the cast is from i32",
        ),
        (
            Instruction::Select {
                dest: Value(8),
                cond: v(2),
                true_val: v(0),
                false_val: i32c(1),
                ty: I32,
            },
            "(%8 = select): condition %2 is f64 but an integer is expected",
        ),
        (
            Instruction::CallIndirect {
                func_ptr: v(2),
                info: CallInfo::default(),
            },
            "(callind): callee %2 is f64 but a pointer is expected",
        ),
        (call_len, "(call @main): 2 arguments but 1 argument types"),
        (
            Instruction::AtomicRmw {
                dest: Value(8),
                op: AtomicRmwOp::Add,
                ptr: Value(1),
                val: v(2),
                ordering: AtomicOrdering::SeqCst,
                ty: I64,
            },
            "(%8 = atomicrmw): operand %2 is f64 but the instruction type is i64",
        ),
        (
            Instruction::SetReturnF64Second { src: v(0) },
            "(setretf64second): operand %0 is i32 but the instruction type is f64",
        ),
        (asm_types, "(%8 = asm): 2 operand types for 1 operands"),
        (
            intrinsic(IntrinsicOp::SqrtF64, vec![]),
            "(intrinsic): intrinsic sqrtf64 takes 1 arguments, not 0",
        ),
        (
            Instruction::VaStart { va_list_ptr: Value(0) },
            "(vastart): va_list %0 is i32 but a pointer is expected",
        ),
        (
            Instruction::StackRestore { ptr: Value(2) },
            "(stackrestore): pointer %2 is f64 but a pointer is expected",
        ),
        (
            store(ptr, v(2), 1),
            "(store): stored value %2 is f64 but the instruction type is ptr",
        ),
    ];
    for (inst, needle) in cases {
        let m = module(vec![func(
            "main",
            I32,
            &[I32, F64],
            vec![block(
                0,
                vec![param(0, 0, I32), alloca(1, I64, 8, 8), param(2, 1, F64), inst],
                ret(i32c(0)),
            )],
        )]);
        assert_error(&m, Ssa, Some(0), Some(3), needle);
    }
}

#[test]
fn declarations_have_no_body() {
    let mut d = declare("ext", I32, &[], false);
    d.blocks.push(block(0, vec![], ret(i32c(0))));
    assert_error_in(&module(vec![d]), Ssa, "ext", None, None, "a declaration has a body");
}

#[test]
fn indirect_branch_target_is_a_pointer() {
    let m = main_with(vec![
        block(0, vec![], br(1)),
        block(
            1,
            vec![Instruction::Cast {
                dest: Value(0),
                src: i32c(0),
                from_ty: I32,
                to_ty: F64,
            }],
            Terminator::IndirectBranch {
                target: v(0),
                possible_targets: vec![bb(1)],
            },
        ),
    ]);
    assert_error(
        &m,
        Ssa,
        Some(1),
        Some(1),
        "(indirectbr): target %0 is f64 but a pointer is expected",
    );
}

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
