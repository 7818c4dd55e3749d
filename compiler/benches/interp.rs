//! Interpreter speed on a loop-heavy alloca-form function: two nested loops
//! doing arithmetic and loads/stores to allocas and an 8-element array.
//! Prints IR instructions executed per second besides criterion's timing.

use criterion::{criterion_group, criterion_main, Criterion};
use phicc::ir::interp::{run_counting, RunConfig, RunResult};
use phicc::ir::reexports::*;
use std::time::Instant;

fn vo(n: u32) -> Operand {
    Operand::Value(Value(n))
}
fn c64(x: i64) -> Operand {
    Operand::Const(IrConst::I64(x))
}
fn alloca(d: u32, size: usize) -> Instruction {
    Instruction::Alloca {
        dest: Value(d),
        ty: IrType::I64,
        size,
        align: 8,
        volatile: false,
    }
}
fn load(d: u32, p: u32) -> Instruction {
    Instruction::Load {
        dest: Value(d),
        ptr: Value(p),
        ty: IrType::I64,
        seg_override: AddressSpace::Default,
    }
}
fn store(v: Operand, p: u32) -> Instruction {
    Instruction::Store {
        val: v,
        ptr: Value(p),
        ty: IrType::I64,
        seg_override: AddressSpace::Default,
    }
}
fn bin(d: u32, op: IrBinOp, l: Operand, r: Operand) -> Instruction {
    Instruction::BinOp {
        dest: Value(d),
        op,
        lhs: l,
        rhs: r,
        ty: IrType::I64,
    }
}
fn cmp_lt(d: u32, l: Operand, r: Operand) -> Instruction {
    Instruction::Cmp {
        dest: Value(d),
        op: IrCmpOp::Slt,
        lhs: l,
        rhs: r,
        ty: IrType::I64,
    }
}
fn blk(n: u32, instructions: Vec<Instruction>, terminator: Terminator) -> BasicBlock {
    BasicBlock {
        label: BlockId(n),
        instructions,
        terminator,
    }
}

/// ```c
/// long i, j, sum = 0, a[8] = {0};
/// for (i = 0; i < outer; i++)
///   for (j = 0; j < 1000; j++) { a[j & 7] += i * j; sum ^= a[(j + 3) & 7] + j; }
/// return sum;
/// ```
fn nested_loops(outer: i64) -> IrModule {
    use IrBinOp::*;
    let (i, j, sum, a) = (0, 1, 2, 3);
    let blocks = vec![
        blk(
            0,
            vec![
                alloca(i, 8),
                alloca(j, 8),
                alloca(sum, 8),
                alloca(a, 64),
                store(c64(0), i),
            ],
            Terminator::Branch(BlockId(1)),
        ),
        // outer header
        blk(
            1,
            vec![load(10, i), cmp_lt(11, vo(10), c64(outer))],
            Terminator::CondBranch {
                cond: vo(11),
                true_label: BlockId(2),
                false_label: BlockId(5),
            },
        ),
        blk(2, vec![store(c64(0), j)], Terminator::Branch(BlockId(3))),
        // inner header + body
        blk(
            3,
            vec![
                load(20, j),
                load(21, i),
                bin(22, And, vo(20), c64(7)),
                bin(23, Mul, vo(22), c64(8)),
                Instruction::GetElementPtr {
                    dest: Value(24),
                    base: Value(a),
                    offset: vo(23),
                    ty: IrType::I64,
                },
                load(25, 24),
                bin(26, Mul, vo(21), vo(20)),
                bin(27, Add, vo(25), vo(26)),
                store(vo(27), 24),
                bin(28, Add, vo(20), c64(3)),
                bin(29, And, vo(28), c64(7)),
                bin(30, Shl, vo(29), c64(3)),
                Instruction::GetElementPtr {
                    dest: Value(31),
                    base: Value(a),
                    offset: vo(30),
                    ty: IrType::I64,
                },
                load(32, 31),
                bin(33, Add, vo(32), vo(20)),
                load(34, sum),
                bin(35, Xor, vo(34), vo(33)),
                store(vo(35), sum),
                bin(36, Add, vo(20), c64(1)),
                store(vo(36), j),
                cmp_lt(37, vo(36), c64(1000)),
            ],
            Terminator::CondBranch {
                cond: vo(37),
                true_label: BlockId(3),
                false_label: BlockId(4),
            },
        ),
        blk(
            4,
            vec![load(40, i), bin(41, Add, vo(40), c64(1)), store(vo(41), i)],
            Terminator::Branch(BlockId(1)),
        ),
        blk(5, vec![load(50, sum)], Terminator::Return(Some(vo(50)))),
    ];
    let main = IrFunction {
        blocks,
        ..IrFunction::new("main", IrType::I64, vec![])
    };
    IrModule {
        functions: vec![main],
        ..IrModule::default()
    }
}

/// User plus system CPU time of this process, from /proc (Linux only).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn bench(c: &mut Criterion) {
    let m = nested_loops(200);
    let cfg = RunConfig::default();
    let (out, steps) = run_counting(&m, &cfg);
    assert!(matches!(out.result, RunResult::Returned(Some(_))), "{out}");
    // A direct measurement of the rate, printed for the report: by wall clock
    // and by this process's CPU time (robust when the machine is shared).
    let reps = 20;
    let (t, cpu) = (Instant::now(), cpu_seconds());
    for _ in 0..reps {
        std::hint::black_box(run_counting(&m, &cfg));
    }
    let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds().map(|c0| cpu.map(|c| c0 - c)));
    let total = (steps * reps) as f64 / 1e6;
    print!(
        "interp: {steps} IR instructions per run, {:.1} M instructions/s (wall)",
        total / wall
    );
    match cpu.flatten() {
        Some(c) if c > 0.0 => println!(", {:.1} M instructions/s (cpu)", total / c),
        _ => println!(),
    }
    c.bench_function("interp_nested_loops_4M", |b| b.iter(|| run_counting(&m, &cfg)));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
