//! IR builders and assertions shared by the verifier tests.

pub use phicc::ir::reexports::*;
pub use phicc::ir::verify::{verify_function, verify_module, VerifyError, VerifyMode};

pub fn v(n: u32) -> Operand {
    Operand::Value(Value(n))
}
pub fn i32c(x: i32) -> Operand {
    Operand::Const(IrConst::I32(x))
}
pub fn i64c(x: i64) -> Operand {
    Operand::Const(IrConst::I64(x))
}
pub fn zero() -> Operand {
    Operand::Const(IrConst::Zero)
}
pub fn bb(n: u32) -> BlockId {
    BlockId(n)
}

pub fn block(label: u32, instructions: Vec<Instruction>, terminator: Terminator) -> BasicBlock {
    BasicBlock {
        label: BlockId(label),
        instructions,
        terminator,
    }
}

pub fn bin(d: u32, op: IrBinOp, ty: IrType, lhs: Operand, rhs: Operand) -> Instruction {
    Instruction::BinOp {
        dest: Value(d),
        op,
        lhs,
        rhs,
        ty,
    }
}
pub fn add(d: u32, ty: IrType, lhs: Operand, rhs: Operand) -> Instruction {
    bin(d, IrBinOp::Add, ty, lhs, rhs)
}
pub fn cmp(d: u32, op: IrCmpOp, ty: IrType, lhs: Operand, rhs: Operand) -> Instruction {
    Instruction::Cmp {
        dest: Value(d),
        op,
        lhs,
        rhs,
        ty,
    }
}
pub fn phi(d: u32, ty: IrType, incoming: &[(Operand, u32)]) -> Instruction {
    Instruction::Phi {
        dest: Value(d),
        ty,
        incoming: incoming.iter().map(|(o, b)| (*o, BlockId(*b))).collect(),
    }
}
pub fn copy(d: u32, src: Operand) -> Instruction {
    Instruction::Copy { dest: Value(d), src }
}
pub fn param(d: u32, idx: usize, ty: IrType) -> Instruction {
    Instruction::ParamRef {
        dest: Value(d),
        param_idx: idx,
        ty,
    }
}
pub fn alloca(d: u32, ty: IrType, size: usize, align: usize) -> Instruction {
    Instruction::Alloca {
        dest: Value(d),
        ty,
        size,
        align,
        volatile: false,
    }
}
pub fn store(ty: IrType, val: Operand, ptr: u32) -> Instruction {
    Instruction::Store {
        val,
        ptr: Value(ptr),
        ty,
        seg_override: AddressSpace::Default,
    }
}
pub fn load(d: u32, ty: IrType, ptr: u32) -> Instruction {
    Instruction::Load {
        dest: Value(d),
        ptr: Value(ptr),
        ty,
        seg_override: AddressSpace::Default,
    }
}
pub fn call(dest: Option<u32>, func: &str, ret: IrType, args: &[(IrType, Operand)]) -> Instruction {
    Instruction::Call {
        func: func.into(),
        info: Box::new(CallInfo {
            dest: dest.map(Value),
            args: args.iter().map(|a| a.1).collect(),
            arg_types: args.iter().map(|a| a.0).collect(),
            return_type: ret,
            num_fixed_args: args.len(),
            ..CallInfo::default()
        }),
    }
}
/// `asm` with register outputs (`defs`: SSA values it defines, `ptrs`:
/// pointers it writes through) and goto labels.
pub fn asm(defs: &[u32], ptrs: &[u32], gotos: &[u32]) -> Instruction {
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

pub fn br(t: u32) -> Terminator {
    Terminator::Branch(BlockId(t))
}
pub fn condbr(c: Operand, t: u32, f: u32) -> Terminator {
    Terminator::CondBranch {
        cond: c,
        true_label: BlockId(t),
        false_label: BlockId(f),
    }
}
pub fn ret(o: Operand) -> Terminator {
    Terminator::Return(Some(o))
}

pub fn func(name: &str, ret: IrType, params: &[IrType], blocks: Vec<BasicBlock>) -> IrFunction {
    let mut f = IrFunction::new(name, ret, params.iter().map(|&t| IrParam::scalar(t)).collect());
    f.blocks = blocks;
    f
}

pub fn declare(name: &str, ret: IrType, params: &[IrType], variadic: bool) -> IrFunction {
    let mut f = func(name, ret, params, vec![]);
    f.is_declaration = true;
    f.is_variadic = variadic;
    f
}

pub fn module(functions: Vec<IrFunction>) -> IrModule {
    IrModule {
        functions,
        ..IrModule::default()
    }
}

/// `@main(i32) -> i32` with the given blocks.
pub fn main_with(blocks: Vec<BasicBlock>) -> IrModule {
    module(vec![func("main", IrType::I32, &[IrType::I32], blocks)])
}

pub fn errors(m: &IrModule, mode: VerifyMode) -> Vec<VerifyError> {
    match verify_module(m, mode) {
        Ok(()) => vec![],
        Err(e) => e.0,
    }
}

#[track_caller]
pub fn assert_valid(m: &IrModule, mode: VerifyMode) {
    if let Err(e) = verify_module(m, mode) {
        panic!("expected a valid module, got:\n{e}");
    }
}

/// Exactly one error, at `@main`, `block`, `inst`, whose text contains `needle`.
#[track_caller]
pub fn assert_error(m: &IrModule, mode: VerifyMode, block: Option<u32>, inst: Option<usize>, needle: &str) -> String {
    assert_error_in(m, mode, "main", block, inst, needle)
}

#[track_caller]
pub fn assert_error_in(
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

pub use IrType::{F64, I32, I64, I8};
pub use VerifyMode::{NonSsa, Ssa};

/// bb0: %0 = paramref; condbr %0 -> bb1 / bb2; bb1: %1 = add; bb2: %2 = mul;
/// bb3: %3 = phi [%1, bb1], [%2, bb2]; ret %3
pub fn diamond() -> IrModule {
    main_with(vec![
        block(0, vec![param(0, 0, I32)], condbr(v(0), 1, 2)),
        block(1, vec![add(1, I32, v(0), i32c(1))], br(3)),
        block(2, vec![bin(2, IrBinOp::Mul, I32, v(0), i32c(3))], br(3)),
        block(3, vec![phi(3, I32, &[(v(1), 1), (v(2), 2)])], ret(v(3))),
    ])
}
