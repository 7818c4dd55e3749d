//! The call graph of an alloca-form module (issue 15, for the inliner):
//! what a generated function is to its callers, the shapes a function can
//! take, and the variadic callee `@vsum`.
//!
//! Functions call earlier ones, so the graph is acyclic except for
//! self-recursion: a *recursive* function takes a depth (callers pass 0 to
//! 3) and calls itself with depth - 1 first thing, before any statement
//! could change the depth. A *small* function (1 to 3 variables, 1 to 5
//! statements, loops at most one deep) fits the inliner's budget; one that
//! is also a leaf is *cheap* and may be called inside loops, so some
//! functions are called once and others often. Some functions are
//! `always_inline` (inlined at any size), `noinline` or `static`. `@vsum(n,
//! ...)` folds its `n` variadic `i64` arguments with `va_arg`: the inliner
//! must leave its calls alone.

use super::Choices;
use phicc::ir::reexports::*;

/// How a callee is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CalleeKind {
    Plain,
    /// Parameter 0 is the recursion depth (0 to 3).
    Recursive,
    /// `@vsum`: parameter 0 counts the variadic `i64` arguments that follow (0 to 3).
    Variadic,
}

/// A function the generated code may call.
#[derive(Clone, Debug)]
pub(super) struct Callee {
    pub name: String,
    pub params: Vec<IrType>,
    pub ret: IrType,
    pub kind: CalleeKind,
    /// Bounded, small work: callable inside loops.
    pub cheap: bool,
}

impl Callee {
    /// The external `@sink(i64) -> i64`.
    pub fn sink() -> Callee {
        Callee {
            name: "sink".into(),
            params: vec![IrType::I64],
            ret: IrType::I64,
            kind: CalleeKind::Plain,
            cheap: true,
        }
    }

    pub fn vsum() -> Callee {
        Callee {
            name: "vsum".into(),
            params: vec![IrType::I32],
            ret: IrType::I64,
            kind: CalleeKind::Variadic,
            cheap: true,
        }
    }
}

/// The shape of one generated function other than `main`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct FnShape {
    pub small: bool,
    pub recursive: bool,
    pub always_inline: bool,
    pub noinline: bool,
    pub is_static: bool,
}

impl FnShape {
    pub fn choose(c: &mut Choices) -> FnShape {
        let small = c.chance(1, 3);
        let recursive = !small && c.chance(1, 5);
        let attr = c.range(0, 7);
        FnShape {
            small,
            recursive,
            always_inline: attr == 1,
            noinline: attr == 2,
            is_static: c.chance(1, 2),
        }
    }

    /// Loops may nest this deep.
    pub fn max_loop_depth(&self) -> usize {
        if self.small {
            1
        } else {
            3
        }
    }

    /// Put the attributes on `f`.
    pub fn apply(&self, f: &mut IrFunction) {
        f.is_always_inline = self.always_inline;
        f.is_inline = self.always_inline;
        f.is_noinline = self.noinline;
        f.is_static = self.is_static;
    }
}

/// `i64 vsum(i32 n, ...)`: `s = 17; for (i = 0; i < n; i++) s = s * 31 ^ va_arg(ap, i64); return s;`
pub(super) fn vsum_function(next_block: &mut u32) -> IrFunction {
    let mut label = || {
        let b = BlockId(*next_block);
        *next_block += 1;
        b
    };
    let (entry, head, body, exit) = (label(), label(), label(), label());
    let v = Value;
    let alloca = |dest: u32, ty: IrType, size: usize| Instruction::Alloca {
        dest: v(dest),
        ty,
        size,
        align: 8,
        volatile: false,
    };
    let store = |val: Operand, ptr: u32, ty: IrType| Instruction::Store {
        val,
        ptr: v(ptr),
        ty,
        seg_override: AddressSpace::Default,
    };
    let load = |dest: u32, ptr: u32, ty: IrType| Instruction::Load {
        dest: v(dest),
        ptr: v(ptr),
        ty,
        seg_override: AddressSpace::Default,
    };
    let binop = |dest: u32, op: IrBinOp, lhs: Operand, rhs: Operand, ty: IrType| Instruction::BinOp {
        dest: v(dest),
        op,
        lhs,
        rhs,
        ty,
    };
    let val = |n: u32| Operand::Value(v(n));
    let blocks = vec![
        BasicBlock {
            label: entry,
            instructions: vec![
                alloca(0, IrType::I32, 4),
                alloca(1, IrType::I8, 32),
                alloca(2, IrType::I64, 8),
                alloca(3, IrType::I32, 4),
                Instruction::ParamRef {
                    dest: v(4),
                    param_idx: 0,
                    ty: IrType::I32,
                },
                store(val(4), 0, IrType::I32),
                Instruction::VaStart { va_list_ptr: v(1) },
                store(Operand::Const(IrConst::I64(17)), 2, IrType::I64),
                store(Operand::Const(IrConst::I32(0)), 3, IrType::I32),
            ],
            terminator: Terminator::Branch(head),
        },
        BasicBlock {
            label: head,
            instructions: vec![
                load(5, 3, IrType::I32),
                load(6, 0, IrType::I32),
                Instruction::Cmp {
                    dest: v(7),
                    op: IrCmpOp::Slt,
                    lhs: val(5),
                    rhs: val(6),
                    ty: IrType::I32,
                },
            ],
            terminator: Terminator::CondBranch {
                cond: val(7),
                true_label: body,
                false_label: exit,
            },
        },
        BasicBlock {
            label: body,
            instructions: vec![
                Instruction::VaArg {
                    dest: v(8),
                    va_list_ptr: v(1),
                    result_ty: IrType::I64,
                },
                load(9, 2, IrType::I64),
                binop(10, IrBinOp::Mul, val(9), Operand::Const(IrConst::I64(31)), IrType::I64),
                binop(11, IrBinOp::Xor, val(10), val(8), IrType::I64),
                store(val(11), 2, IrType::I64),
                load(12, 3, IrType::I32),
                binop(13, IrBinOp::Add, val(12), Operand::Const(IrConst::I32(1)), IrType::I32),
                store(val(13), 3, IrType::I32),
            ],
            terminator: Terminator::Branch(head),
        },
        BasicBlock {
            label: exit,
            instructions: vec![Instruction::VaEnd { va_list_ptr: v(1) }, load(14, 2, IrType::I64)],
            terminator: Terminator::Return(Some(val(14))),
        },
    ];
    let mut f = IrFunction::new("vsum", IrType::I64, vec![IrParam::scalar(IrType::I32)]);
    f.is_variadic = true;
    f.blocks = blocks;
    f.next_value_id = 15;
    f
}
