//! Reference interpreter: traps, fuel, parallel phis, asm schedules, events,
//! globals and address stability (docs/architecture.md#the-interpreter-contract).

mod common;
use common::*;
use phicc::ir::interp::{run, RunConfig, RunResult, TrapKind};
use phicc::ir::reexports::*;

fn main_returning(insts: Vec<Instruction>, r: Operand) -> IrModule {
    module(vec![define("main", IrType::I32, &[], vec![block(0, insts, ret(r))])])
}

fn trap_of(m: &IrModule) -> TrapKind {
    match run_main(m).result {
        RunResult::Trap(t) => t,
        other => panic!("expected a trap, got {other}"),
    }
}

#[test]
fn arithmetic_traps() {
    let div = |a: i32, b: i32, op| main_returning(vec![bin(0, op, c32(a), c32(b), IrType::I32)], vo(0));
    assert_eq!(trap_of(&div(1, 0, IrBinOp::SDiv)), TrapKind::DivByZero);
    assert_eq!(trap_of(&div(1, 0, IrBinOp::URem)), TrapKind::DivByZero);
    assert_eq!(trap_of(&div(i32::MIN, -1, IrBinOp::SDiv)), TrapKind::DivOverflow);
    assert_eq!(trap_of(&div(1, 32, IrBinOp::Shl)), TrapKind::ShiftTooLarge);
    assert_eq!(run_main(&div(7, 2, IrBinOp::SDiv)).result, RunResult::Returned(Some(3)));
    // Wrapping arithmetic at the type width.
    let m = main_returning(vec![bin(0, IrBinOp::Add, c32(i32::MAX), c32(1), IrType::I32)], vo(0));
    assert_eq!(run_main(&m).result, RunResult::Returned(Some(0x8000_0000)));
}

#[test]
fn memory_traps() {
    use IrType::*;
    // One past the end of an i32 alloca.
    let oob = main_returning(vec![alloca(0, I32), gep(1, 0, 4), load(2, 1, I32)], vo(2));
    assert_eq!(trap_of(&oob), TrapKind::OutOfBounds);
    let neg = main_returning(vec![alloca(0, I32), gep(1, 0, -4), load(2, 1, I32)], vo(2));
    assert_eq!(trap_of(&neg), TrapKind::OutOfBounds);
    let mis = main_returning(vec![alloca(0, I64), gep(1, 0, 2), load(2, 1, I32)], vo(2));
    assert_eq!(trap_of(&mis), TrapKind::Misaligned);
    // A 2-byte aligned i16 inside the i64 is fine and reads zero (allocas are zero-filled).
    let ok = main_returning(vec![alloca(0, I64), gep(1, 0, 2), load(2, 1, I16)], vo(2));
    assert_eq!(run_main(&ok).result, RunResult::Returned(Some(0)));
    let null = main_returning(
        vec![
            Instruction::Cast {
                dest: v(0),
                src: c64(8),
                from_ty: I64,
                to_ty: Ptr,
            },
            load(1, 0, I32),
        ],
        vo(1),
    );
    assert_eq!(trap_of(&null), TrapKind::NullDeref);
}

#[test]
fn use_after_return_is_out_of_bounds() {
    use IrType::*;
    let leak = define("leak", Ptr, &[], vec![block(0, vec![alloca(0, I32)], ret(vo(0)))]);
    let main = define(
        "main",
        I32,
        &[],
        vec![block(
            1,
            vec![call(Some(0), "leak", Ptr, &[], 0), load(1, 0, I32)],
            ret(vo(1)),
        )],
    );
    assert_eq!(trap_of(&module(vec![leak, main])), TrapKind::OutOfBounds);
}

#[test]
fn undefined_value_unreachable_and_indirect_targets() {
    use IrType::*;
    // %1 is defined only on the path not taken.
    let m = module(vec![define(
        "main",
        I32,
        &[],
        vec![
            block(
                0,
                vec![],
                Terminator::CondBranch {
                    cond: c32(0),
                    true_label: bb(1),
                    false_label: bb(2),
                },
            ),
            block(
                1,
                vec![bin(1, IrBinOp::Add, c32(1), c32(2), I32)],
                Terminator::Branch(bb(2)),
            ),
            block(2, vec![], ret(vo(1))),
        ],
    )]);
    assert_eq!(trap_of(&m), TrapKind::UseOfUndefinedValue);

    let m = module(vec![define(
        "main",
        I32,
        &[],
        vec![block(0, vec![], Terminator::Unreachable)],
    )]);
    assert_eq!(trap_of(&m), TrapKind::Unreachable);

    // indirectbr to a label outside possible_targets.
    let ib = |target: u32| {
        module(vec![define(
            "main",
            I32,
            &[],
            vec![
                block(
                    0,
                    vec![Instruction::LabelAddr {
                        dest: v(0),
                        label: bb(target),
                    }],
                    Terminator::IndirectBranch {
                        target: vo(0),
                        possible_targets: vec![bb(1)],
                    },
                ),
                block(1, vec![], ret(c32(1))),
                block(2, vec![], ret(c32(2))),
            ],
        )])
    };
    assert_eq!(run_main(&ib(1)).result, RunResult::Returned(Some(1)));
    assert_eq!(trap_of(&ib(2)), TrapKind::BadIndirectTarget);

    // Calling a label address.
    let m = main_returning(
        vec![
            Instruction::LabelAddr {
                dest: v(0),
                label: bb(0),
            },
            Instruction::CallIndirect {
                func_ptr: vo(0),
                info: Box::new(CallInfo {
                    return_type: Void,
                    ..CallInfo::default()
                }),
            },
        ],
        c32(0),
    );
    assert_eq!(trap_of(&m), TrapKind::BadIndirectTarget);
}

#[test]
fn recursion_abort_free_and_unknown_symbols() {
    use IrType::*;
    let f = define(
        "main",
        I32,
        &[],
        vec![block(0, vec![call(Some(0), "main", I32, &[], 0)], ret(vo(0)))],
    );
    assert_eq!(trap_of(&module(vec![f])), TrapKind::StackOverflow);

    let m = module(vec![
        declare("abort", Void, &[], false),
        define(
            "main",
            I32,
            &[],
            vec![block(0, vec![call(None, "abort", Void, &[], 0)], ret(c32(0)))],
        ),
    ]);
    assert_eq!(trap_of(&m), TrapKind::Abort);

    let m = module(vec![
        declare("malloc", Ptr, &[I64], false),
        declare("free", Void, &[Ptr], false),
        define(
            "main",
            I32,
            &[],
            vec![block(
                0,
                vec![
                    call(Some(0), "malloc", Ptr, &[(I64, c64(16))], 1),
                    call(None, "free", Void, &[(Ptr, vo(0))], 1),
                    call(None, "free", Void, &[(Ptr, vo(0))], 1),
                ],
                ret(c32(0)),
            )],
        ),
    ]);
    assert_eq!(trap_of(&m), TrapKind::BadFree);

    let m = main_returning(
        vec![Instruction::GlobalAddr {
            dest: v(0),
            name: "nowhere".into(),
        }],
        c32(0),
    );
    assert!(matches!(trap_of(&m), TrapKind::Unsupported(_)));
    assert_eq!(TrapKind::DivByZero.to_string(), "div-by-zero");
}

#[test]
fn exit_status() {
    use IrType::*;
    let m = module(vec![
        declare("exit", Void, &[I32], false),
        define(
            "main",
            I32,
            &[],
            vec![block(
                0,
                vec![call(None, "exit", Void, &[(I32, c32(3))], 1)],
                ret(c32(0)),
            )],
        ),
    ]);
    assert_eq!(run_main(&m).result, RunResult::Exited(3));
}

/// `while (1) {}`
#[test]
fn fuel_exhaustion_is_inconclusive() {
    let m = module(vec![define(
        "main",
        IrType::I32,
        &[],
        vec![
            block(0, vec![], Terminator::Branch(bb(1))),
            block(1, vec![], Terminator::Branch(bb(1))),
        ],
    )]);
    let out = run(
        &m,
        &RunConfig {
            fuel: 1000,
            ..RunConfig::default()
        },
    );
    assert_eq!(out.result, RunResult::OutOfFuel);
    assert!(out.is_inconclusive());
    assert!(!run_main(&main_returning(vec![], c32(0))).is_inconclusive());
}

/// A loop whose two phis swap: `a, b = b, a` five times, reporting `a` to
/// `@sink` each time. Parallel semantics give 1 2 1 2 1; sequential would give 1 2 2 2 2.
fn swap_loop(phi_form: bool) -> IrModule {
    use IrType::*;
    let mut header = Vec::new();
    if phi_form {
        header.push(Instruction::Phi {
            dest: v(1),
            ty: I64,
            incoming: vec![(c64(1), bb(0)), (vo(2), bb(1))],
        });
        header.push(Instruction::Phi {
            dest: v(2),
            ty: I64,
            incoming: vec![(c64(2), bb(0)), (vo(1), bb(1))],
        });
        header.push(Instruction::Phi {
            dest: v(3),
            ty: I64,
            incoming: vec![(c64(0), bb(0)), (vo(4), bb(1))],
        });
    }
    header.push(call(None, "sink", I64, &[(I64, vo(1))], 1));
    header.push(bin(4, IrBinOp::Add, vo(3), c64(1), I64));
    header.push(cmp(5, IrCmpOp::Slt, vo(4), c64(5), I64));
    let mut entry = Vec::new();
    let mut exit_copies = Vec::new();
    if !phi_form {
        // After phi elimination: copies with a temporary for the swap.
        entry = vec![
            Instruction::Copy {
                dest: v(1),
                src: c64(1),
            },
            Instruction::Copy {
                dest: v(2),
                src: c64(2),
            },
            Instruction::Copy {
                dest: v(3),
                src: c64(0),
            },
        ];
        exit_copies = vec![
            Instruction::Copy { dest: v(9), src: vo(1) },
            Instruction::Copy { dest: v(1), src: vo(2) },
            Instruction::Copy { dest: v(2), src: vo(9) },
            Instruction::Copy { dest: v(3), src: vo(4) },
        ];
    }
    let latch = if phi_form { 1 } else { 3 };
    module(vec![
        declare("sink", I64, &[I64], false),
        define(
            "main",
            I64,
            &[],
            vec![
                block(0, entry, Terminator::Branch(bb(1))),
                block(
                    1,
                    header,
                    Terminator::CondBranch {
                        cond: vo(5),
                        true_label: bb(latch),
                        false_label: bb(2),
                    },
                ),
                block(2, vec![], ret(vo(1))),
                // The split back edge holding the copies.
                block(3, exit_copies, Terminator::Branch(bb(1))),
            ],
        ),
    ])
}

#[test]
fn phis_swap_in_parallel() {
    let out = run_main(&swap_loop(true));
    let seen: Vec<&str> = out.events.iter().map(|e| e.args[0].as_str()).collect();
    assert_eq!(seen, ["1", "2", "1", "2", "1"]);
    assert_eq!(out.result, RunResult::Returned(Some(1)));
    // The phi-eliminated form with a temporary is equivalent.
    assert_eq!(run_main(&swap_loop(false)), out);
}

/// `x = 7; asm goto ("" : "=r"(x) : : : l1); return x; l1: return 100 + x;`
/// in alloca form (`is_def == false`) or SSA form (`is_def == true`).
fn asm_goto(is_def: bool) -> IrModule {
    use IrType::*;
    let asm = InlineAsm {
        template: "".into(),
        outputs: vec![AsmOutput {
            constraint: "=r".into(),
            value: if is_def { v(5) } else { v(0) },
            name: None,
            is_def,
        }],
        inputs: vec![],
        clobbers: vec![],
        operand_types: vec![I32],
        goto_labels: vec![("l1".into(), bb(2))],
        input_symbols: vec![],
        seg_overrides: vec![],
    };
    let (b0, b1, b2) = if is_def {
        (
            vec![Instruction::InlineAsm(Box::new(asm))],
            vec![],
            vec![bin(6, IrBinOp::Add, c32(100), c32(7), I32)],
        )
    } else {
        (
            vec![
                alloca(0, I32),
                store(c32(7), 0, I32),
                Instruction::InlineAsm(Box::new(asm)),
            ],
            vec![load(5, 0, I32)],
            vec![load(3, 0, I32), bin(6, IrBinOp::Add, c32(100), vo(3), I32)],
        )
    };
    module(vec![define(
        "main",
        I32,
        &[],
        vec![
            block(0, b0, Terminator::Branch(bb(1))),
            block(1, b1, ret(vo(5))),
            block(2, b2, ret(vo(6))),
        ],
    )])
}

#[test]
fn asm_goto_outputs_only_on_fall_through() {
    let mut fall = None;
    let mut goto = None;
    for seed in 0..64 {
        let out = run_seed(&asm_goto(false), seed);
        assert_eq!(out, run_seed(&asm_goto(false), seed), "same seed, same outcome");
        match out.result {
            RunResult::Returned(Some(107)) => goto = Some(seed),
            RunResult::Returned(Some(_)) => fall = Some(seed),
            ref r => panic!("unexpected {r}"),
        }
    }
    let (fall, goto) = (fall.expect("a fall-through schedule"), goto.expect("a goto schedule"));
    // On the fall-through the output holds the schedule's value, not 7.
    let f = run_seed(&asm_goto(false), fall);
    assert_ne!(f.result, RunResult::Returned(Some(7)));
    // The SSA form agrees with the alloca form under both schedules.
    assert_eq!(run_seed(&asm_goto(true), fall), f);
    assert_eq!(run_seed(&asm_goto(true), goto).result, RunResult::Returned(Some(107)));
}

#[test]
fn asm_defined_output_is_undefined_along_the_goto_edge() {
    let mut m = asm_goto(true);
    // Make the goto target return the asm's output.
    m.functions[0].blocks[2].terminator = ret(vo(5));
    let results: Vec<RunResult> = (0..32).map(|s| run_seed(&m, s).result).collect();
    assert!(results.contains(&RunResult::Trap(TrapKind::UseOfUndefinedValue)));
    assert!(results.iter().any(|r| matches!(r, RunResult::Returned(Some(_)))));
}

#[test]
fn external_calls_are_events_with_history_derived_results() {
    use IrType::*;
    let m = module(vec![
        declare("sink", I64, &[I64], false),
        declare("escape", I64, &[Ptr], false),
        define(
            "main",
            I64,
            &[],
            vec![block(
                0,
                vec![
                    alloca(0, I32),
                    call(Some(1), "sink", I64, &[(I64, c64(-5))], 1),
                    call(Some(2), "sink", I64, &[(I64, c64(-5))], 1),
                    call(Some(3), "escape", I64, &[(Ptr, vo(0))], 1),
                    bin(4, IrBinOp::Xor, vo(1), vo(2), I64),
                ],
                ret(vo(4)),
            )],
        ),
    ]);
    let out = run_main(&m);
    let shown: Vec<String> = out.events.iter().map(|e| e.to_string()).collect();
    assert_eq!(shown, ["sink(-5)", "sink(-5)", "escape(stack[4]+0)"]);
    // The same call returns differently because the history differs.
    assert_ne!(out.result, RunResult::Returned(Some(0)));
    assert_eq!(run_main(&m), out);
    assert!(out.to_string().contains("escape(stack[4]+0)"));
}

#[test]
fn globals_are_in_the_outcome() {
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
                    name: "g".into(),
                },
                load(1, 0, I32),
                bin(2, IrBinOp::Add, vo(1), c32(1), I32),
                store(vo(2), 0, I32),
            ],
            ret(c32(0)),
        )],
    )]);
    m.globals.push(IrGlobal {
        name: "g".into(),
        ty: I32,
        size: 8,
        align: 4,
        init: GlobalInit::Array(vec![IrConst::I32(41), IrConst::I32(-1)]),
        ..IrGlobal::default()
    });
    m.globals.push(IrGlobal {
        name: "ext".into(),
        ty: I32,
        size: 4,
        is_extern: true,
        ..IrGlobal::default()
    });
    let out = run_main(&m);
    assert_eq!(
        out.globals,
        vec![("g".to_string(), vec![42, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])]
    );
}

/// `printf("%p\n", &b); escape(&b)` with an extra alloca before `b`, which
/// mem2reg would remove.
fn pointer_program(with_extra: bool) -> IrModule {
    use IrType::*;
    let mut insts = Vec::new();
    if with_extra {
        insts.push(alloca(0, I64));
        insts.push(store(c64(3), 0, I64));
    }
    insts.push(alloca(1, I32));
    insts.push(Instruction::GlobalAddr {
        dest: v(2),
        name: ".str0".into(),
    });
    insts.push(call(Some(3), "printf", I32, &[(Ptr, vo(2)), (Ptr, vo(1))], 1));
    insts.push(call(Some(4), "escape", I64, &[(Ptr, vo(1))], 1));
    let mut m = module(vec![
        declare("printf", I32, &[Ptr], true),
        declare("escape", I64, &[Ptr], false),
        define("main", I64, &[], vec![block(0, insts, ret(vo(4)))]),
    ]);
    m.string_literals.push((".str0".into(), "%p\n".into()));
    m
}

#[test]
fn addresses_are_stable_when_other_allocas_disappear() {
    let a = run_main(&pointer_program(true));
    let b = run_main(&pointer_program(false));
    assert_eq!(a, b);
    assert!(a.stdout.starts_with(b"0x"));
}

#[test]
fn malformed_modules_trap_instead_of_panicking() {
    use IrType::*;
    let cases = vec![
        module(vec![]),
        module(vec![define("main", I32, &[], vec![])]),
        module(vec![define(
            "main",
            I32,
            &[],
            vec![block(0, vec![], Terminator::Branch(bb(9)))],
        )]),
        module(vec![define(
            "main",
            I32,
            &[],
            vec![block(
                0,
                vec![Instruction::Phi {
                    dest: v(0),
                    ty: I32,
                    incoming: vec![],
                }],
                ret(vo(0)),
            )],
        )]),
        main_returning(vec![call(Some(0), "nosuch", I32, &[], 0)], vo(0)),
        main_returning(
            vec![Instruction::ParamRef {
                dest: v(0),
                param_idx: 3,
                ty: I32,
            }],
            vo(0),
        ),
    ];
    for m in &cases {
        let out = run_main(m);
        assert!(
            matches!(out.result, RunResult::Trap(_) | RunResult::Returned(_)),
            "{out}"
        );
    }
}

#[test]
fn variadic_functions_walk_their_arguments() {
    use IrType::*;
    // long sum(int n, ...) { va_list ap; va_start(ap, n); s = 0; while (n--) s += va_arg(ap, long); return s; }
    let sum = IrFunction {
        is_variadic: true,
        ..define(
            "sum",
            I64,
            &[I32],
            vec![
                block(
                    0,
                    vec![
                        Instruction::Alloca {
                            dest: v(0),
                            ty: I8,
                            size: 24,
                            align: 8,
                            volatile: false,
                        },
                        Instruction::VaStart { va_list_ptr: v(0) },
                        Instruction::ParamRef {
                            dest: v(1),
                            param_idx: 0,
                            ty: I32,
                        },
                    ],
                    Terminator::Branch(bb(1)),
                ),
                block(
                    1,
                    vec![
                        Instruction::Phi {
                            dest: v(2),
                            ty: I32,
                            incoming: vec![(vo(1), bb(0)), (vo(5), bb(2))],
                        },
                        Instruction::Phi {
                            dest: v(3),
                            ty: I64,
                            incoming: vec![(c64(0), bb(0)), (vo(6), bb(2))],
                        },
                        cmp(4, IrCmpOp::Sgt, vo(2), c32(0), I32),
                    ],
                    Terminator::CondBranch {
                        cond: vo(4),
                        true_label: bb(2),
                        false_label: bb(3),
                    },
                ),
                block(
                    2,
                    vec![
                        bin(5, IrBinOp::Sub, vo(2), c32(1), I32),
                        Instruction::VaArg {
                            dest: v(7),
                            va_list_ptr: v(0),
                            result_ty: I64,
                        },
                        bin(6, IrBinOp::Add, vo(3), vo(7), I64),
                    ],
                    Terminator::Branch(bb(1)),
                ),
                block(3, vec![Instruction::VaEnd { va_list_ptr: v(0) }], ret(vo(3))),
            ],
        )
    };
    let main = define(
        "main",
        I64,
        &[],
        vec![block(
            10,
            vec![call(
                Some(0),
                "sum",
                I64,
                &[(I32, c32(3)), (I64, c64(10)), (I64, c64(20)), (I64, c64(-5))],
                1,
            )],
            ret(vo(0)),
        )],
    );
    assert_eq!(
        run_main(&module(vec![sum.clone(), main])).result,
        RunResult::Returned(Some(25))
    );
    // Asking for more arguments than were passed runs off the variadic area.
    let main = define(
        "main",
        I64,
        &[],
        vec![block(
            10,
            vec![call(Some(0), "sum", I64, &[(I32, c32(2)), (I64, c64(1))], 1)],
            ret(vo(0)),
        )],
    );
    assert_eq!(trap_of(&module(vec![sum, main])), TrapKind::OutOfBounds);
}

/// A plain asm (no goto labels) always falls through; its output value comes
/// from the schedule, so different seeds give different values, and an
/// undefined input traps.
#[test]
fn plain_asm_outputs_follow_the_schedule() {
    use IrType::*;
    let prog = |input: Operand| {
        let asm = InlineAsm {
            template: "".into(),
            outputs: vec![AsmOutput {
                constraint: "=r".into(),
                value: v(1),
                name: None,
                is_def: true,
            }],
            inputs: vec![AsmInput {
                constraint: "r".into(),
                value: input,
                name: None,
            }],
            clobbers: vec![],
            operand_types: vec![I64, I64],
            goto_labels: vec![],
            input_symbols: vec![None],
            seg_overrides: vec![],
        };
        main_returning(vec![Instruction::InlineAsm(Box::new(asm))], vo(1))
    };
    let m = prog(c64(1));
    let values: std::collections::BTreeSet<String> = (0..8).map(|s| run_seed(&m, s).result.to_string()).collect();
    assert_eq!(values.len(), 8, "{values:?}");
    assert_eq!(trap_of(&prog(vo(7))), TrapKind::UseOfUndefinedValue);
}

#[test]
fn outcome_display_is_readable() {
    let out = run_main(&pointer_program(true));
    let text = out.to_string();
    println!("{text}");
    assert!(text.starts_with("result: returned "));
    assert!(text.contains("events: 1\n  escape(stack[4]+0)\n"));
    assert!(text.contains("stdout: 19 bytes\n  | 0x8000000001000000\n"));
}

#[test]
fn volatile_accesses_are_observable_events() {
    let src = "define @main() -> i32 {
bb0:
  %0 = alloca i32, size 4, align 4 volatile
  %1 = alloca i32, size 4, align 4
  store i32 7i32, %0
  store i32 8i32, %1
  %2 = load i32 %0
  %3 = load i32 %1
  %4 = add i32 %2, %3
  ret %4
}";
    let m = phicc::ir::text::parse_module(src).unwrap();
    let o = run_main(&m);
    assert_eq!(o.result, RunResult::Returned(Some(15)));
    let shown: Vec<String> = o
        .events
        .iter()
        .map(|e| format!("{}({})", e.name, e.args.join(", ")))
        .collect();
    // Only the volatile slot's store and load are recorded, in order.
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(
        shown[0].starts_with("volatile-store(") && shown[0].ends_with(", 7)"),
        "{shown:?}"
    );
    assert!(
        shown[1].starts_with("volatile-load(") && shown[1].ends_with(", 7)"),
        "{shown:?}"
    );
}

/// The hidden result pointer of an sret call carries the returned struct's
/// metadata but is passed as a plain pointer: the callee writes into the
/// caller's buffer, and a by-value argument next to it is still copied.
#[test]
fn sret_pointer_is_not_copied_but_byval_is() {
    let src = r#"
define @make(ptr size 16 align 8 classes [int, int], ptr size 8 align 8 classes [int]) -> void sret {
bb0:
  %0 = paramref 0 ptr
  %1 = paramref 1 ptr
  %2 = load i64 %1
  store i64 %2, %0
  store i64 99i64, %1
  %3 = gep i64 %0, 8i64
  store i64 7i64, %3
  ret
}

define @main() -> i64 {
bb0:
  %0 = alloca i64, size 16, align 8
  %1 = alloca i64, size 8, align 8
  store i64 5i64, %1
  call void @make(ptr %0 size 16 align 8 classes [int, int], ptr %1 size 8 align 8 classes [int]) sret
  %2 = load i64 %0
  %3 = gep i64 %0, 8i64
  %4 = load i64 %3
  %5 = load i64 %1
  %6 = mul i64 %2, 10000i64
  %7 = mul i64 %4, 100i64
  %8 = add i64 %6, %7
  %9 = add i64 %8, %5
  ret %9
}
"#;
    let m = phicc::ir::text::parse_module(src).unwrap();
    // 5 copied into the result, 7 in its second half, and the caller's
    // by-value argument still 5 (the callee's store went to its copy).
    assert_eq!(run_main(&m).result, RunResult::Returned(Some(5 * 10000 + 7 * 100 + 5)));
}
