//! Small builders for IR test programs.
#![allow(dead_code)]

use phicc::ir::interp::{run, Outcome, RunConfig};
use phicc::ir::reexports::*;

pub fn v(n: u32) -> Value {
    Value(n)
}
pub fn vo(n: u32) -> Operand {
    Operand::Value(Value(n))
}
pub fn c32(x: i32) -> Operand {
    Operand::Const(IrConst::I32(x))
}
pub fn c64(x: i64) -> Operand {
    Operand::Const(IrConst::I64(x))
}
pub fn bb(n: u32) -> BlockId {
    BlockId(n)
}

pub fn block(n: u32, instructions: Vec<Instruction>, terminator: Terminator) -> BasicBlock {
    BasicBlock {
        label: BlockId(n),
        instructions,
        terminator,
    }
}

pub fn define(name: &str, ret: IrType, params: &[IrType], blocks: Vec<BasicBlock>) -> IrFunction {
    IrFunction {
        blocks,
        ..IrFunction::new(name, ret, params.iter().map(|t| IrParam::scalar(*t)).collect())
    }
}

pub fn declare(name: &str, ret: IrType, params: &[IrType], variadic: bool) -> IrFunction {
    IrFunction {
        is_declaration: true,
        is_variadic: variadic,
        ..IrFunction::new(name, ret, params.iter().map(|t| IrParam::scalar(*t)).collect())
    }
}

pub fn call(dest: Option<u32>, name: &str, ret: IrType, args: &[(IrType, Operand)], nfixed: usize) -> Instruction {
    Instruction::Call {
        func: name.into(),
        info: Box::new(CallInfo {
            dest: dest.map(Value),
            args: args.iter().map(|a| a.1).collect(),
            arg_types: args.iter().map(|a| a.0).collect(),
            return_type: ret,
            is_variadic: nfixed < args.len(),
            num_fixed_args: nfixed,
            ..CallInfo::default()
        }),
    }
}

pub fn alloca(dest: u32, ty: IrType) -> Instruction {
    Instruction::Alloca {
        dest: Value(dest),
        ty,
        size: ty.size(),
        align: ty.align(),
        volatile: false,
    }
}
pub fn load(dest: u32, ptr: u32, ty: IrType) -> Instruction {
    Instruction::Load {
        dest: Value(dest),
        ptr: Value(ptr),
        ty,
        seg_override: AddressSpace::Default,
    }
}
pub fn store(val: Operand, ptr: u32, ty: IrType) -> Instruction {
    Instruction::Store {
        val,
        ptr: Value(ptr),
        ty,
        seg_override: AddressSpace::Default,
    }
}
pub fn bin(dest: u32, op: IrBinOp, lhs: Operand, rhs: Operand, ty: IrType) -> Instruction {
    Instruction::BinOp {
        dest: Value(dest),
        op,
        lhs,
        rhs,
        ty,
    }
}
pub fn cmp(dest: u32, op: IrCmpOp, lhs: Operand, rhs: Operand, ty: IrType) -> Instruction {
    Instruction::Cmp {
        dest: Value(dest),
        op,
        lhs,
        rhs,
        ty,
    }
}
pub fn gep(dest: u32, base: u32, off: i64) -> Instruction {
    Instruction::GetElementPtr {
        dest: Value(dest),
        base: Value(base),
        offset: c64(off),
        ty: IrType::I8,
    }
}
pub fn ret(op: Operand) -> Terminator {
    Terminator::Return(Some(op))
}

pub fn module(functions: Vec<IrFunction>) -> IrModule {
    IrModule {
        functions,
        ..IrModule::default()
    }
}

pub fn run_main(m: &IrModule) -> Outcome {
    run(m, &RunConfig::default())
}

pub fn run_seed(m: &IrModule, seed: u64) -> Outcome {
    run(
        m,
        &RunConfig {
            schedule_seed: seed,
            ..RunConfig::default()
        },
    )
}
