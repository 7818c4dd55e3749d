//! Type invariants: operand agreement, constants, calls, switch cases, allocas.

use super::builders::*;

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
    let mut asm_input = asm(&[], &[], &[]);
    if let Instruction::InlineAsm(a) = &mut asm_input {
        a.inputs = vec![
            AsmInput {
                constraint: "r".into(),
                value: v(2),
                name: None,
            },
            AsmInput {
                constraint: "m".into(),
                value: v(1),
                name: None,
            },
        ];
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
                info: Box::default(),
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
        (asm_input, "(asm): input 0: %2 is f64 but its operand type is i32"),
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
