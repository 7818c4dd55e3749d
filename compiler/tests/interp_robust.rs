//! The interpreter never panics: thousands of random, mostly invalid modules
//! (undefined values, wrong types, missing blocks and callees, wild
//! pointers) must each end in an outcome, and twice the same outcome.

mod common;
use common::*;
use phicc::ir::interp::{run, RunConfig};
use phicc::ir::reexports::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn ty(&mut self) -> IrType {
        IrType::ALL[self.below(IrType::ALL.len() as u64) as usize]
    }
    fn val(&mut self) -> u32 {
        self.below(12) as u32
    }
    fn op(&mut self) -> Operand {
        match self.below(4) {
            0 => Operand::Const(IrConst::I64(self.next() as i64 % 64)),
            1 => Operand::Const(IrConst::F64(self.below(100) as f64 / 3.0)),
            _ => vo(self.val()),
        }
    }
    fn blk(&mut self) -> BlockId {
        bb(self.below(5) as u32)
    }
}

fn random_inst(r: &mut Rng) -> Instruction {
    let d = v(r.val());
    match r.below(16) {
        0 => Instruction::Alloca {
            dest: d,
            ty: r.ty(),
            size: r.below(40) as usize,
            align: 8,
            volatile: false,
        },
        1 => load(d.0, r.val(), r.ty()),
        2 => store(r.op(), r.val(), r.ty()),
        3 => Instruction::BinOp {
            dest: d,
            op: IrBinOp::ALL[r.below(IrBinOp::ALL.len() as u64) as usize],
            lhs: r.op(),
            rhs: r.op(),
            ty: r.ty(),
        },
        4 => Instruction::Cast {
            dest: d,
            src: r.op(),
            from_ty: r.ty(),
            to_ty: r.ty(),
        },
        5 => Instruction::GetElementPtr {
            dest: d,
            base: v(r.val()),
            offset: r.op(),
            ty: IrType::I8,
        },
        6 => Instruction::Phi {
            dest: d,
            ty: r.ty(),
            incoming: vec![(r.op(), r.blk()), (r.op(), r.blk())],
        },
        7 => call(
            Some(d.0),
            ["main", "f", "ext", "printf", "free", "memcpy"][r.below(6) as usize],
            r.ty(),
            &[(IrType::Ptr, r.op()), (r.ty(), r.op())],
            1,
        ),
        8 => Instruction::CallIndirect {
            func_ptr: r.op(),
            info: Box::new(CallInfo {
                dest: Some(d),
                return_type: r.ty(),
                ..CallInfo::default()
            }),
        },
        9 => Instruction::Copy { dest: d, src: r.op() },
        10 => Instruction::VaArg {
            dest: d,
            va_list_ptr: v(r.val()),
            result_ty: r.ty(),
        },
        11 => Instruction::LabelAddr {
            dest: d,
            label: r.blk(),
        },
        12 => Instruction::GlobalAddr {
            dest: d,
            name: ["g", "f", ".s", "zz"][r.below(4) as usize].into(),
        },
        13 => Instruction::InlineAsm(Box::new(InlineAsm {
            template: String::new(),
            outputs: vec![AsmOutput {
                constraint: "=r".into(),
                value: v(r.val()),
                name: None,
                is_def: r.below(2) == 0,
            }],
            inputs: vec![AsmInput {
                constraint: "r".into(),
                value: r.op(),
                name: None,
            }],
            clobbers: vec![],
            operand_types: vec![r.ty()],
            goto_labels: vec![("l".into(), r.blk())],
            input_symbols: vec![],
            seg_overrides: vec![],
        })),
        14 => Instruction::Memcpy {
            dest: v(r.val()),
            src: v(r.val()),
            size: r.below(20) as usize,
        },
        _ => Instruction::StackRestore { ptr: v(r.val()) },
    }
}

fn random_term(r: &mut Rng) -> Terminator {
    match r.below(6) {
        0 => Terminator::Return(Some(r.op())),
        1 => Terminator::Branch(r.blk()),
        2 => Terminator::CondBranch {
            cond: r.op(),
            true_label: r.blk(),
            false_label: r.blk(),
        },
        3 => Terminator::Switch {
            val: r.op(),
            cases: vec![(0, r.blk()), (1, r.blk())],
            default: r.blk(),
            ty: r.ty(),
        },
        4 => Terminator::IndirectBranch {
            target: r.op(),
            possible_targets: vec![r.blk(), r.blk()],
        },
        _ => Terminator::Unreachable,
    }
}

fn random_function(r: &mut Rng, name: &str) -> IrFunction {
    let blocks = (0..r.below(5) + 1)
        .map(|b| {
            let insts = (0..r.below(8)).map(|_| random_inst(r)).collect();
            block(b as u32, insts, random_term(r))
        })
        .collect();
    IrFunction {
        is_variadic: r.below(2) == 0,
        ..define(name, r.ty(), &[IrType::I32], blocks)
    }
}

#[test]
fn random_modules_never_panic_and_are_deterministic() {
    let mut r = Rng(7);
    for _ in 0..3000 {
        let mut m = module(vec![random_function(&mut r, "main"), random_function(&mut r, "f")]);
        m.functions.push(declare("ext", IrType::I64, &[], false));
        m.globals.push(IrGlobal {
            name: "g".into(),
            ty: IrType::I32,
            size: 8,
            ..IrGlobal::default()
        });
        m.string_literals.push((".s".into(), "%d %s %p".into()));
        let cfg = RunConfig {
            fuel: 2000,
            schedule_seed: r.next(),
            ..RunConfig::default()
        };
        let a = run(&m, &cfg);
        assert_eq!(a, run(&m, &cfg));
        let _ = a.to_string();
    }
}
