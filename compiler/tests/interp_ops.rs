//! Reference interpreter: casts, select, switch, atomics, dynamic allocas,
//! second return registers, by-value structs, indirect calls, heap and string
//! shims, vprintf through an interpreted variadic function.

mod common;
use common::*;
use phicc::ir::interp::{RunResult, TrapKind};
use phicc::ir::reexports::*;

fn returns(insts: Vec<Instruction>, r: Operand, ty: IrType) -> RunResult {
    run_main(&module(vec![define("main", ty, &[], vec![block(0, insts, ret(r))])])).result
}

fn cast(dest: u32, src: Operand, from_ty: IrType, to_ty: IrType) -> Instruction {
    Instruction::Cast {
        dest: v(dest),
        src,
        from_ty,
        to_ty,
    }
}

#[test]
fn casts_extend_by_source_signedness_and_convert_floats() {
    use IrType::*;
    let one = |src: Operand, from, to| returns(vec![cast(0, src, from, to)], vo(0), to);
    let r = |x: u128| RunResult::Returned(Some(x));
    assert_eq!(one(Operand::Const(IrConst::I8(-1)), I8, I32), r(0xffff_ffff));
    assert_eq!(one(Operand::Const(IrConst::I8(-1)), U8, I32), r(0xff));
    assert_eq!(one(c64(0x1_2345_6789), I64, U16), r(0x6789));
    assert_eq!(one(c32(-3), I32, F64), r((-3.0f64).to_bits() as u128));
    assert_eq!(one(c32(-1), U32, F64), r(4294967295.0f64.to_bits() as u128));
    assert_eq!(
        one(Operand::Const(IrConst::F64(-2.9)), F64, I32),
        r((-2i32) as u32 as u128)
    );
    assert_eq!(
        one(Operand::Const(IrConst::F64(1.5)), F64, F32),
        r(1.5f32.to_bits() as u128)
    );
    assert_eq!(
        one(Operand::Const(IrConst::F32(0.25)), F32, F64),
        r(0.25f64.to_bits() as u128)
    );
    assert_eq!(one(Operand::Const(IrConst::F64(3e9)), F64, U32), r(3_000_000_000));
}

#[test]
fn select_switch_and_unary_ops() {
    use IrType::*;
    let sel = |c: i32| {
        returns(
            vec![Instruction::Select {
                dest: v(0),
                cond: c32(c),
                true_val: c32(10),
                false_val: c32(20),
                ty: I32,
            }],
            vo(0),
            I32,
        )
    };
    assert_eq!(sel(1), RunResult::Returned(Some(10)));
    assert_eq!(sel(0), RunResult::Returned(Some(20)));
    let sw = |x: i64| {
        run_main(&module(vec![define(
            "main",
            I32,
            &[],
            vec![
                block(
                    0,
                    vec![],
                    Terminator::Switch {
                        val: c64(x),
                        cases: vec![(1, bb(1)), (2, bb(1)), (-1, bb(2))],
                        default: bb(3),
                        ty: I8,
                    },
                ),
                block(1, vec![], ret(c32(1))),
                block(2, vec![], ret(c32(2))),
                block(3, vec![], ret(c32(3))),
            ],
        )]))
        .result
    };
    assert_eq!(sw(2), RunResult::Returned(Some(1)));
    // Compared at the switch type's width: 255 is -1 as an i8.
    assert_eq!(sw(255), RunResult::Returned(Some(2)));
    assert_eq!(sw(7), RunResult::Returned(Some(3)));
    let un = returns(
        vec![Instruction::UnaryOp {
            dest: v(0),
            op: IrUnaryOp::IsConstant,
            src: c32(5),
            ty: I32,
        }],
        vo(0),
        I32,
    );
    assert_eq!(un, RunResult::Returned(Some(1)));
}

#[test]
fn atomics_are_sequential() {
    use IrType::*;
    let r = returns(
        vec![
            alloca(0, I32),
            store(c32(5), 0, I32),
            Instruction::AtomicRmw {
                dest: v(1),
                op: AtomicRmwOp::Add,
                ptr: v(0),
                val: c32(3),
                ordering: AtomicOrdering::SeqCst,
                ty: I32,
            },
            Instruction::AtomicCmpxchg {
                dest: v(2),
                ptr: v(0),
                expected: c32(8),
                desired: c32(100),
                success_ordering: AtomicOrdering::SeqCst,
                failure_ordering: AtomicOrdering::SeqCst,
                ty: I32,
                returns_bool: true,
            },
            load(3, 0, I32),
            // 5 (old) + 1 (stored) + 100
            bin(4, IrBinOp::Add, vo(1), vo(3), I32),
            Instruction::Cast {
                dest: v(5),
                src: vo(2),
                from_ty: I8,
                to_ty: I32,
            },
            bin(6, IrBinOp::Add, vo(4), vo(5), I32),
        ],
        vo(6),
        I32,
    );
    assert_eq!(r, RunResult::Returned(Some(106)));
}

#[test]
fn dynamic_allocas_die_at_stackrestore() {
    use IrType::*;
    let prog = |use_after: bool| {
        let mut insts = vec![
            Instruction::StackSave { dest: v(0) },
            Instruction::DynAlloca {
                dest: v(1),
                size: c64(16),
                align: 8,
            },
            store(c64(9), 1, I64),
            load(2, 1, I64),
            Instruction::StackRestore { ptr: v(0) },
        ];
        if use_after {
            insts.push(load(3, 1, I64));
        }
        returns(insts, vo(2), I64)
    };
    assert_eq!(prog(false), RunResult::Returned(Some(9)));
    assert_eq!(prog(true), RunResult::Trap(TrapKind::OutOfBounds));
}

#[test]
fn second_return_register_and_intrinsics() {
    use IrType::*;
    let callee = define(
        "pair",
        F64,
        &[],
        vec![block(
            0,
            vec![Instruction::SetReturnF64Second {
                src: Operand::Const(IrConst::F64(16.0)),
            }],
            ret(Operand::Const(IrConst::F64(1.0))),
        )],
    );
    let main = define(
        "main",
        F64,
        &[],
        vec![block(
            1,
            vec![
                call(Some(0), "pair", F64, &[], 0),
                Instruction::GetReturnF64Second { dest: v(1) },
                Instruction::Intrinsic {
                    dest: Some(v(2)),
                    op: IntrinsicOp::SqrtF64,
                    dest_ptr: None,
                    args: vec![vo(1)],
                },
                bin(3, IrBinOp::Add, vo(0), vo(2), F64),
            ],
            ret(vo(3)),
        )],
    );
    let out = run_main(&module(vec![callee, main]));
    assert_eq!(out.result, RunResult::Returned(Some(5.0f64.to_bits() as u128)));
}

#[test]
fn byval_structs_are_copied_into_the_callee() {
    use IrType::*;
    // int get(struct { int a, b; } s) { s.b += 1; return s.b; }
    let get = define(
        "get",
        I32,
        &[Ptr],
        vec![block(
            0,
            vec![
                Instruction::ParamRef {
                    dest: v(0),
                    param_idx: 0,
                    ty: Ptr,
                },
                gep(1, 0, 4),
                load(2, 1, I32),
                bin(3, IrBinOp::Add, vo(2), c32(1), I32),
                store(vo(3), 1, I32),
            ],
            ret(vo(3)),
        )],
    );
    let mut c = call(Some(3), "get", I32, &[(Ptr, vo(0))], 1);
    if let Instruction::Call { info, .. } = &mut c {
        info.struct_arg_sizes = vec![Some(8)];
    }
    let main = define(
        "main",
        I32,
        &[],
        vec![block(
            1,
            vec![
                Instruction::Alloca {
                    dest: v(0),
                    ty: I32,
                    size: 8,
                    align: 4,
                    volatile: false,
                },
                gep(1, 0, 4),
                store(c32(41), 1, I32),
                c,
                load(4, 1, I32),
                // 42 from the callee, the caller's copy still 41
                bin(5, IrBinOp::Mul, vo(3), c32(100), I32),
                bin(6, IrBinOp::Add, vo(5), vo(4), I32),
            ],
            ret(vo(6)),
        )],
    );
    assert_eq!(
        run_main(&module(vec![get, main])).result,
        RunResult::Returned(Some(4241))
    );
}

#[test]
fn indirect_calls_reach_defined_and_declared_functions() {
    use IrType::*;
    let callind = |dest: u32, fp: u32, args: &[(IrType, Operand)]| Instruction::CallIndirect {
        func_ptr: vo(fp),
        info: Box::new(CallInfo {
            dest: Some(v(dest)),
            args: args.iter().map(|a| a.1).collect(),
            arg_types: args.iter().map(|a| a.0).collect(),
            return_type: I32,
            ..CallInfo::default()
        }),
    };
    let twice = define(
        "twice",
        I32,
        &[I32],
        vec![block(
            0,
            vec![
                Instruction::ParamRef {
                    dest: v(0),
                    param_idx: 0,
                    ty: I32,
                },
                bin(1, IrBinOp::Mul, vo(0), c32(2), I32),
            ],
            ret(vo(1)),
        )],
    );
    let main = define(
        "main",
        I32,
        &[],
        vec![block(
            1,
            vec![
                Instruction::GlobalAddr {
                    dest: v(0),
                    name: "twice".into(),
                },
                callind(1, 0, &[(I32, c32(21))]),
                Instruction::GlobalAddr {
                    dest: v(2),
                    name: "ext".into(),
                },
                callind(3, 2, &[(I32, vo(1))]),
            ],
            ret(vo(1)),
        )],
    );
    let out = run_main(&module(vec![twice, declare("ext", I32, &[I32], false), main]));
    assert_eq!(out.result, RunResult::Returned(Some(42)));
    assert_eq!(out.events[0].to_string(), "ext(42)");
}

#[test]
fn heap_and_string_shims() {
    use IrType::*;
    let mut m = module(vec![
        declare("calloc", Ptr, &[I64, I64], false),
        declare("realloc", Ptr, &[Ptr, I64], false),
        declare("free", Void, &[Ptr], false),
        declare("strcpy", Ptr, &[Ptr, Ptr], false),
        declare("strcmp", I32, &[Ptr, Ptr], false),
        declare("memcmp", I32, &[Ptr, Ptr, I64], false),
    ]);
    m.string_literals.push((".a".into(), "abc".into()));
    m.string_literals.push((".b".into(), "abd".into()));
    let insts = vec![
        call(Some(0), "calloc", Ptr, &[(I64, c64(2)), (I64, c64(2))], 2),
        Instruction::GlobalAddr {
            dest: v(1),
            name: ".a".into(),
        },
        Instruction::GlobalAddr {
            dest: v(2),
            name: ".b".into(),
        },
        call(Some(3), "strcpy", Ptr, &[(Ptr, vo(0)), (Ptr, vo(1))], 2),
        call(Some(4), "realloc", Ptr, &[(Ptr, vo(0)), (I64, c64(64))], 2),
        call(Some(5), "strcmp", I32, &[(Ptr, vo(4)), (Ptr, vo(2))], 2),
        call(Some(6), "memcmp", I32, &[(Ptr, vo(4)), (Ptr, vo(1)), (I64, c64(4))], 3),
        call(None, "free", Void, &[(Ptr, vo(4))], 1),
        // strcmp < 0, memcmp == 0
        cmp(7, IrCmpOp::Slt, vo(5), c32(0), I32),
        cmp(8, IrCmpOp::Eq, vo(6), c32(0), I32),
        bin(9, IrBinOp::And, vo(7), vo(8), I8),
    ];
    m.functions
        .push(define("main", I8, &[], vec![block(0, insts, ret(vo(9)))]));
    assert_eq!(run_main(&m).result, RunResult::Returned(Some(1)));
    // The old block is gone after realloc moved it.
    let f = m.functions.last_mut().unwrap();
    f.blocks[0].instructions.push(load(10, 0, I8));
    assert_eq!(run_main(&m).result, RunResult::Trap(TrapKind::OutOfBounds));
}

#[test]
fn string_literals_are_read_only() {
    use IrType::*;
    let mut m = module(vec![define(
        "main",
        I32,
        &[],
        vec![block(
            0,
            vec![
                Instruction::GlobalAddr {
                    dest: v(0),
                    name: ".s".into(),
                },
                store(Operand::Const(IrConst::I8(0)), 0, I8),
            ],
            ret(c32(0)),
        )],
    )]);
    m.string_literals.push((".s".into(), "x".into()));
    assert_eq!(run_main(&m).result, RunResult::Trap(TrapKind::ReadOnlyWrite));
}

/// `void say(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vprintf(fmt, ap); }`
/// and `fprintf(stderr, ...)` becoming an event.
#[test]
fn vprintf_from_an_interpreted_variadic_function_and_stderr() {
    use IrType::*;
    let say = IrFunction {
        is_variadic: true,
        ..define(
            "say",
            Void,
            &[Ptr],
            vec![block(
                0,
                vec![
                    Instruction::Alloca {
                        dest: v(0),
                        ty: I8,
                        size: 24,
                        align: 8,
                        volatile: false,
                    },
                    Instruction::ParamRef {
                        dest: v(1),
                        param_idx: 0,
                        ty: Ptr,
                    },
                    Instruction::VaStart { va_list_ptr: v(0) },
                    call(Some(2), "vprintf", I32, &[(Ptr, vo(1)), (Ptr, vo(0))], 2),
                ],
                Terminator::Return(None),
            )],
        )
    };
    let mut m = module(vec![
        declare("vprintf", I32, &[Ptr, Ptr], false),
        declare("fprintf", I32, &[Ptr, Ptr], true),
        say,
    ]);
    m.string_literals.push((".f".into(), "%d %s %.1f|".into()));
    m.string_literals.push((".w".into(), "ok".into()));
    m.globals.push(IrGlobal {
        name: "stderr".into(),
        ty: Ptr,
        size: 8,
        is_extern: true,
        ..IrGlobal::default()
    });
    let insts = vec![
        Instruction::GlobalAddr {
            dest: v(0),
            name: ".f".into(),
        },
        Instruction::GlobalAddr {
            dest: v(1),
            name: ".w".into(),
        },
        call(
            None,
            "say",
            Void,
            &[
                (Ptr, vo(0)),
                (I32, c32(-4)),
                (Ptr, vo(1)),
                (F64, Operand::Const(IrConst::F64(2.25))),
            ],
            1,
        ),
        Instruction::GlobalAddr {
            dest: v(2),
            name: "stderr".into(),
        },
        load(3, 2, Ptr),
        call(Some(4), "fprintf", I32, &[(Ptr, vo(3)), (Ptr, vo(1))], 2),
    ];
    m.functions
        .push(define("main", I32, &[], vec![block(10, insts, ret(c32(0)))]));
    let out = run_main(&m);
    assert_eq!(out.result, RunResult::Returned(Some(0)), "{out}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "-4 ok 2.2|");
    assert_eq!(out.events.len(), 1);
    assert_eq!(out.events[0].to_string(), "stderr(\"ok\")");
    // No extern global in the outcome.
    assert!(out.globals.is_empty());
}

/// An alloca executed again in the same frame keeps its object and contents
/// (mem2reg treats allocas as function-scoped).
#[test]
fn re_executed_alloca_keeps_its_contents() {
    use IrType::*;
    let m = module(vec![define(
        "main",
        I32,
        &[],
        vec![
            block(0, vec![], Terminator::Branch(bb(1))),
            block(
                1,
                vec![
                    alloca(0, I32),
                    load(1, 0, I32),
                    bin(2, IrBinOp::Add, vo(1), c32(1), I32),
                    store(vo(2), 0, I32),
                    cmp(3, IrCmpOp::Slt, vo(2), c32(5), I32),
                ],
                Terminator::CondBranch {
                    cond: vo(3),
                    true_label: bb(1),
                    false_label: bb(2),
                },
            ),
            block(2, vec![], ret(vo(2))),
        ],
    )]);
    assert_eq!(run_main(&m).result, RunResult::Returned(Some(5)));
}
