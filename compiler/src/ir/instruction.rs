//! Instructions, terminators and basic blocks of the IR (38 instructions, 6
//! terminators: docs/ir-design.md#instruction-set), plus the canonical
//! visitors every pass uses: `for_each_used_value`, `for_each_def`, `dest()`,
//! `result_type()` and the mutable operand/use visitors that renaming passes
//! need.
//!
//! Value-producing instructions name their result `dest`. Pointer operands that
//! must be SSA values (load/store addresses, memcpy endpoints, GEP bases) are
//! `Value`s; everything else that may be a constant is an `Operand`.

use super::constants::IrConst;
use super::intrinsics::IntrinsicOp;
use super::ops::{AtomicOrdering, AtomicRmwOp, IrBinOp, IrCmpOp, IrUnaryOp};
use super::types::{AddressSpace, EightbyteClass, Hfa, IrType, RiscvFloatClass};
use std::fmt;

/// An SSA value (virtual register), unique within its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// A basic block label, unique within the module (printed `.LBB{n}` in assembly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bb{}", self.0)
    }
}

impl BlockId {
    /// The assembler label of the block.
    pub fn asm_label(self) -> String {
        format!(".LBB{}", self.0)
    }
}

/// An instruction operand: a value or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Value(Value),
    Const(IrConst),
}

impl Operand {
    pub fn as_value(&self) -> Option<Value> {
        match self {
            Operand::Value(v) => Some(*v),
            Operand::Const(_) => None,
        }
    }
    pub fn as_const(&self) -> Option<IrConst> {
        match self {
            Operand::Const(c) => Some(*c),
            Operand::Value(_) => None,
        }
    }
}

impl From<Value> for Operand {
    fn from(v: Value) -> Operand {
        Operand::Value(v)
    }
}

impl From<IrConst> for Operand {
    fn from(c: IrConst) -> Operand {
        Operand::Const(c)
    }
}

/// Call metadata shared by `Call` and `CallIndirect`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CallInfo {
    pub dest: Option<Value>,
    pub args: Vec<Operand>,
    /// Parallel to `args`.
    pub arg_types: Vec<IrType>,
    pub return_type: IrType,
    pub is_variadic: bool,
    pub num_fixed_args: usize,
    /// `Some(size)` for struct arguments passed by value (the operand is a pointer to it).
    pub struct_arg_sizes: Vec<Option<usize>>,
    pub struct_arg_aligns: Vec<Option<usize>>,
    pub struct_arg_classes: Vec<Vec<EightbyteClass>>,
    pub struct_arg_riscv_float_classes: Vec<Option<RiscvFloatClass>>,
    /// AAPCS64 homogeneous floating-point aggregates, parallel to `args` like
    /// the other struct vectors (empty when no argument carries metadata).
    pub struct_arg_hfas: Vec<Option<Hfa>>,
    /// The callee returns a struct through a hidden pointer: `args[0]` is the
    /// caller's result buffer and the struct metadata of argument 0 describes
    /// the returned struct (not a by-value argument: nothing is copied).
    pub is_sret: bool,
    pub is_fastcall: bool,
    pub ret_eightbyte_classes: Vec<EightbyteClass>,
}

/// One output operand of an inline asm statement.
#[derive(Clone, Debug, PartialEq)]
pub struct AsmOutput {
    /// The constraint as written, e.g. `=r`, `+r`, `=&r`, `=m`.
    pub constraint: String,
    /// When `is_def` is false, the pointer the asm result is stored through (in
    /// alloca form: the output variable's alloca). When true, an SSA value the
    /// asm defines (mem2reg promoted the output).
    pub value: Value,
    /// `[name]` of a named operand.
    pub name: Option<String>,
    pub is_def: bool,
}

/// One input operand of an inline asm statement.
#[derive(Clone, Debug, PartialEq)]
pub struct AsmInput {
    pub constraint: String,
    pub value: Operand,
    pub name: Option<String>,
}

/// Inline assembly. Outputs get values only on the fall-through path: along a
/// goto edge no output is written (docs/architecture.md#the-interpreter-contract).
#[derive(Clone, Debug, PartialEq)]
pub struct InlineAsm {
    pub template: String,
    pub outputs: Vec<AsmOutput>,
    pub inputs: Vec<AsmInput>,
    pub clobbers: Vec<String>,
    /// Types of the outputs followed by the inputs.
    pub operand_types: Vec<IrType>,
    /// `(C label, block)` pairs of `asm goto`; each is a CFG edge.
    pub goto_labels: Vec<(String, BlockId)>,
    /// Symbol names of `"i"` inputs (for `%P`/`%a`), parallel to `inputs`.
    pub input_symbols: Vec<Option<String>>,
    /// Per-operand address spaces (outputs then inputs); empty when all default.
    pub seg_overrides: Vec<AddressSpace>,
}

impl InlineAsm {
    /// True for a memory-only constraint (`m`, `o`, `V`, `p`, possibly with
    /// modifiers such as `=` `+` `&`): the asm gets an address, not a register.
    pub fn is_memory_constraint(constraint: &str) -> bool {
        let body: String = constraint
            .chars()
            .filter(|c| !matches!(c, '=' | '+' | '&' | '%' | '*' | '!' | '?'))
            .collect();
        !body.is_empty() && body.chars().all(|c| matches!(c, 'm' | 'o' | 'V' | 'p' | 'Q'))
    }

    /// The type of output `i`.
    pub fn output_type(&self, i: usize) -> IrType {
        self.operand_types.get(i).copied().unwrap_or(IrType::I64)
    }

    /// The type of input `i`.
    pub fn input_type(&self, i: usize) -> IrType {
        self.operand_types
            .get(self.outputs.len() + i)
            .copied()
            .unwrap_or(IrType::I64)
    }
}

/// The 38 instructions (docs/ir-design.md#instruction-set).
#[derive(Clone, Debug, PartialEq)]
pub enum Instruction {
    // ---- memory (9) ----
    /// A zero-filled stack slot of `size` bytes holding a `ty`.
    Alloca {
        dest: Value,
        ty: IrType,
        size: usize,
        align: usize,
        volatile: bool,
    },
    DynAlloca {
        dest: Value,
        size: Operand,
        align: usize,
    },
    Load {
        dest: Value,
        ptr: Value,
        ty: IrType,
        seg_override: AddressSpace,
    },
    Store {
        val: Operand,
        ptr: Value,
        ty: IrType,
        seg_override: AddressSpace,
    },
    Memcpy {
        dest: Value,
        src: Value,
        size: usize,
    },
    /// `dest = base + offset` in bytes; `ty` is the element type it addresses.
    GetElementPtr {
        dest: Value,
        base: Value,
        offset: Operand,
        ty: IrType,
    },
    GlobalAddr {
        dest: Value,
        name: String,
    },
    StackSave {
        dest: Value,
    },
    StackRestore {
        ptr: Value,
    },
    // ---- arithmetic (6) ----
    BinOp {
        dest: Value,
        op: IrBinOp,
        lhs: Operand,
        rhs: Operand,
        ty: IrType,
    },
    UnaryOp {
        dest: Value,
        op: IrUnaryOp,
        src: Operand,
        ty: IrType,
    },
    /// `ty` is the type of the operands; the result is an `I8` 0 or 1.
    Cmp {
        dest: Value,
        op: IrCmpOp,
        lhs: Operand,
        rhs: Operand,
        ty: IrType,
    },
    Cast {
        dest: Value,
        src: Operand,
        from_ty: IrType,
        to_ty: IrType,
    },
    Copy {
        dest: Value,
        src: Operand,
    },
    Select {
        dest: Value,
        cond: Operand,
        true_val: Operand,
        false_val: Operand,
        ty: IrType,
    },
    // ---- calls (2) ----
    Call {
        func: String,
        info: Box<CallInfo>,
    },
    CallIndirect {
        func_ptr: Operand,
        info: Box<CallInfo>,
    },
    // ---- variadic (5) ----
    VaStart {
        va_list_ptr: Value,
    },
    VaEnd {
        va_list_ptr: Value,
    },
    VaCopy {
        dest_ptr: Value,
        src_ptr: Value,
    },
    VaArg {
        dest: Value,
        va_list_ptr: Value,
        result_ty: IrType,
    },
    /// `va_arg` of a struct: copies the next variadic argument's `size` bytes to
    /// `dest_ptr`. `eightbyte_classes` (x86-64) and `hfa` (AArch64) say where
    /// the target's convention put it.
    VaArgStruct {
        dest_ptr: Value,
        va_list_ptr: Value,
        size: usize,
        eightbyte_classes: Vec<EightbyteClass>,
        hfa: Option<Hfa>,
    },
    // ---- atomics (5) ----
    AtomicRmw {
        dest: Value,
        op: AtomicRmwOp,
        ptr: Value,
        val: Operand,
        ordering: AtomicOrdering,
        ty: IrType,
    },
    AtomicCmpxchg {
        dest: Value,
        ptr: Value,
        expected: Operand,
        desired: Operand,
        success_ordering: AtomicOrdering,
        failure_ordering: AtomicOrdering,
        ty: IrType,
        returns_bool: bool,
    },
    AtomicLoad {
        dest: Value,
        ptr: Value,
        ordering: AtomicOrdering,
        ty: IrType,
    },
    AtomicStore {
        ptr: Value,
        val: Operand,
        ordering: AtomicOrdering,
        ty: IrType,
    },
    Fence {
        ordering: AtomicOrdering,
    },
    // ---- SSA (2) ----
    /// Reads all incoming values at once on entry to the block (parallel semantics).
    Phi {
        dest: Value,
        ty: IrType,
        incoming: Vec<(Operand, BlockId)>,
    },
    ParamRef {
        dest: Value,
        param_idx: usize,
        ty: IrType,
    },
    // ---- complex returns (6) ----
    GetReturnF64Second {
        dest: Value,
    },
    SetReturnF64Second {
        src: Operand,
    },
    GetReturnF32Second {
        dest: Value,
    },
    SetReturnF32Second {
        src: Operand,
    },
    GetReturnF128Second {
        dest: Value,
    },
    SetReturnF128Second {
        src: Operand,
    },
    // ---- inline asm, intrinsics, label addresses (3) ----
    InlineAsm(Box<InlineAsm>),
    Intrinsic {
        dest: Option<Value>,
        op: IntrinsicOp,
        dest_ptr: Option<Value>,
        args: Vec<Operand>,
    },
    LabelAddr {
        dest: Value,
        label: BlockId,
    },
}

/// The 6 terminators.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Return(Option<Operand>),
    Branch(BlockId),
    CondBranch {
        cond: Operand,
        true_label: BlockId,
        false_label: BlockId,
    },
    /// Computed goto; `possible_targets` lists every block it may reach.
    IndirectBranch {
        target: Operand,
        possible_targets: Vec<BlockId>,
    },
    /// `ty` is the type of `val`; case values are compared at that width.
    Switch {
        val: Operand,
        cases: Vec<(i64, BlockId)>,
        default: BlockId,
        ty: IrType,
    },
    Unreachable,
}

/// A labeled straight-line sequence of instructions and its terminator.
#[derive(Clone, Debug, PartialEq)]
pub struct BasicBlock {
    pub label: BlockId,
    pub instructions: Vec<Instruction>,
    pub terminator: Terminator,
}

impl BasicBlock {
    pub fn new(label: BlockId) -> BasicBlock {
        BasicBlock {
            label,
            instructions: Vec::new(),
            terminator: Terminator::Unreachable,
        }
    }
}

#[inline]
fn visit_op(op: &Operand, f: &mut impl FnMut(Value)) {
    if let Operand::Value(v) = op {
        f(*v)
    }
}

impl Instruction {
    /// Calls `f` for every value the instruction reads, in operand order.
    /// (Phi incoming values are included; their edge is in `incoming`.)
    pub fn for_each_used_value(&self, mut f: impl FnMut(Value)) {
        use Instruction::*;
        match self {
            Alloca { .. } | GlobalAddr { .. } | StackSave { .. } | Fence { .. } => {}
            ParamRef { .. } | LabelAddr { .. } => {}
            GetReturnF64Second { .. } | GetReturnF32Second { .. } | GetReturnF128Second { .. } => {}
            DynAlloca { size, .. } => visit_op(size, &mut f),
            Load { ptr, .. } => f(*ptr),
            Store { val, ptr, .. } => {
                visit_op(val, &mut f);
                f(*ptr)
            }
            Memcpy { dest, src, .. } => {
                f(*dest);
                f(*src)
            }
            GetElementPtr { base, offset, .. } => {
                f(*base);
                visit_op(offset, &mut f)
            }
            StackRestore { ptr } => f(*ptr),
            BinOp { lhs, rhs, .. } | Cmp { lhs, rhs, .. } => {
                visit_op(lhs, &mut f);
                visit_op(rhs, &mut f)
            }
            UnaryOp { src, .. } | Cast { src, .. } | Copy { src, .. } => visit_op(src, &mut f),
            Select {
                cond,
                true_val,
                false_val,
                ..
            } => {
                visit_op(cond, &mut f);
                visit_op(true_val, &mut f);
                visit_op(false_val, &mut f)
            }
            Call { info, .. } => info.args.iter().for_each(|a| visit_op(a, &mut f)),
            CallIndirect { func_ptr, info } => {
                visit_op(func_ptr, &mut f);
                info.args.iter().for_each(|a| visit_op(a, &mut f))
            }
            VaStart { va_list_ptr } | VaEnd { va_list_ptr } | VaArg { va_list_ptr, .. } => f(*va_list_ptr),
            VaCopy { dest_ptr, src_ptr } => {
                f(*dest_ptr);
                f(*src_ptr)
            }
            VaArgStruct {
                dest_ptr, va_list_ptr, ..
            } => {
                f(*dest_ptr);
                f(*va_list_ptr)
            }
            AtomicRmw { ptr, val, .. } => {
                f(*ptr);
                visit_op(val, &mut f)
            }
            AtomicCmpxchg {
                ptr, expected, desired, ..
            } => {
                f(*ptr);
                visit_op(expected, &mut f);
                visit_op(desired, &mut f)
            }
            AtomicLoad { ptr, .. } => f(*ptr),
            AtomicStore { ptr, val, .. } => {
                f(*ptr);
                visit_op(val, &mut f)
            }
            Phi { incoming, .. } => incoming.iter().for_each(|(op, _)| visit_op(op, &mut f)),
            SetReturnF64Second { src } | SetReturnF32Second { src } | SetReturnF128Second { src } => {
                visit_op(src, &mut f)
            }
            InlineAsm(asm) => {
                for o in &asm.outputs {
                    if !o.is_def {
                        f(o.value)
                    }
                }
                for i in &asm.inputs {
                    visit_op(&i.value, &mut f)
                }
            }
            Intrinsic { dest_ptr, args, .. } => {
                if let Some(p) = dest_ptr {
                    f(*p)
                }
                args.iter().for_each(|a| visit_op(a, &mut f))
            }
        }
    }

    /// The used values, collected.
    pub fn used_values(&self) -> Vec<Value> {
        let mut v = Vec::new();
        self.for_each_used_value(|x| v.push(x));
        v
    }

    /// Calls `f` on every operand slot that may hold a value or constant
    /// (value-only pointer slots are visited through [`Instruction::for_each_value_use_mut`]).
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        use Instruction::*;
        match self {
            DynAlloca { size, .. } => f(size),
            Store { val, .. } => f(val),
            GetElementPtr { offset, .. } => f(offset),
            BinOp { lhs, rhs, .. } | Cmp { lhs, rhs, .. } => {
                f(lhs);
                f(rhs)
            }
            UnaryOp { src, .. } | Cast { src, .. } | Copy { src, .. } => f(src),
            Select {
                cond,
                true_val,
                false_val,
                ..
            } => {
                f(cond);
                f(true_val);
                f(false_val)
            }
            Call { info, .. } => info.args.iter_mut().for_each(f),
            CallIndirect { func_ptr, info } => {
                f(func_ptr);
                info.args.iter_mut().for_each(f)
            }
            AtomicRmw { val, .. } | AtomicStore { val, .. } => f(val),
            AtomicCmpxchg { expected, desired, .. } => {
                f(expected);
                f(desired)
            }
            Phi { incoming, .. } => incoming.iter_mut().for_each(|(op, _)| f(op)),
            SetReturnF64Second { src } | SetReturnF32Second { src } | SetReturnF128Second { src } => f(src),
            InlineAsm(asm) => asm.inputs.iter_mut().for_each(|i| f(&mut i.value)),
            Intrinsic { args, .. } => args.iter_mut().for_each(f),
            _ => {}
        }
    }

    /// Calls `f` on every used value slot, operand or pointer alike. Renaming
    /// passes use this to substitute values.
    pub fn for_each_value_use_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        use Instruction::*;
        match self {
            Load { ptr, .. } | StackRestore { ptr } | AtomicLoad { ptr, .. } => f(ptr),
            Store { ptr, .. } | AtomicStore { ptr, .. } | AtomicRmw { ptr, .. } | AtomicCmpxchg { ptr, .. } => f(ptr),
            Memcpy { dest, src, .. } => {
                f(dest);
                f(src)
            }
            GetElementPtr { base, .. } => f(base),
            VaStart { va_list_ptr } | VaEnd { va_list_ptr } | VaArg { va_list_ptr, .. } => f(va_list_ptr),
            VaCopy { dest_ptr, src_ptr } => {
                f(dest_ptr);
                f(src_ptr)
            }
            VaArgStruct {
                dest_ptr, va_list_ptr, ..
            } => {
                f(dest_ptr);
                f(va_list_ptr)
            }
            InlineAsm(asm) => {
                for o in asm.outputs.iter_mut().filter(|o| !o.is_def) {
                    f(&mut o.value)
                }
            }
            Intrinsic { dest_ptr: Some(p), .. } => f(p),
            _ => {}
        }
        self.for_each_operand_mut(|op| {
            if let Operand::Value(v) = op {
                f(v)
            }
        });
    }

    /// The single value this instruction defines, if it defines exactly one
    /// through a `dest` field. Inline asm may define several: see [`Instruction::for_each_def`].
    pub fn dest(&self) -> Option<Value> {
        use Instruction::*;
        match self {
            Alloca { dest, .. }
            | DynAlloca { dest, .. }
            | Load { dest, .. }
            | GetElementPtr { dest, .. }
            | GlobalAddr { dest, .. }
            | StackSave { dest }
            | BinOp { dest, .. }
            | UnaryOp { dest, .. }
            | Cmp { dest, .. }
            | Cast { dest, .. }
            | Copy { dest, .. }
            | Select { dest, .. }
            | VaArg { dest, .. }
            | AtomicRmw { dest, .. }
            | AtomicCmpxchg { dest, .. }
            | AtomicLoad { dest, .. }
            | Phi { dest, .. }
            | ParamRef { dest, .. }
            | GetReturnF64Second { dest }
            | GetReturnF32Second { dest }
            | GetReturnF128Second { dest }
            | LabelAddr { dest, .. } => Some(*dest),
            Call { info, .. } | CallIndirect { info, .. } => info.dest,
            Intrinsic { dest, .. } => *dest,
            _ => None,
        }
    }

    /// Calls `f` for every value defined here (`dest`, or each promoted asm output).
    pub fn for_each_def(&self, mut f: impl FnMut(Value)) {
        if let Instruction::InlineAsm(asm) = self {
            for o in asm.outputs.iter().filter(|o| o.is_def) {
                f(o.value)
            }
        } else if let Some(d) = self.dest() {
            f(d)
        }
    }

    /// Calls `f` on every slot that defines a value (`dest`, or each promoted
    /// asm output): the mutable counterpart of [`Instruction::for_each_def`],
    /// for passes that renumber definitions (the inliner).
    pub fn for_each_def_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        use Instruction::*;
        match self {
            Alloca { dest, .. }
            | DynAlloca { dest, .. }
            | Load { dest, .. }
            | GetElementPtr { dest, .. }
            | GlobalAddr { dest, .. }
            | StackSave { dest }
            | BinOp { dest, .. }
            | UnaryOp { dest, .. }
            | Cmp { dest, .. }
            | Cast { dest, .. }
            | Copy { dest, .. }
            | Select { dest, .. }
            | VaArg { dest, .. }
            | AtomicRmw { dest, .. }
            | AtomicCmpxchg { dest, .. }
            | AtomicLoad { dest, .. }
            | Phi { dest, .. }
            | ParamRef { dest, .. }
            | GetReturnF64Second { dest }
            | GetReturnF32Second { dest }
            | GetReturnF128Second { dest }
            | LabelAddr { dest, .. } => f(dest),
            Call { info, .. } | CallIndirect { info, .. } => {
                if let Some(d) = info.dest.as_mut() {
                    f(d)
                }
            }
            Intrinsic { dest: Some(d), .. } => f(d),
            InlineAsm(asm) => asm
                .outputs
                .iter_mut()
                .filter(|o| o.is_def)
                .for_each(|o| f(&mut o.value)),
            _ => {}
        }
    }

    /// The type of the value defined through `dest`, when the instruction
    /// alone determines it. `Copy` takes its source's type and returns `None`
    /// here unless the source is a constant.
    pub fn result_type(&self) -> Option<IrType> {
        use Instruction::*;
        Some(match self {
            Alloca { .. } | DynAlloca { .. } | GetElementPtr { .. } | GlobalAddr { .. } | StackSave { .. } => {
                IrType::Ptr
            }
            LabelAddr { .. } => IrType::Ptr,
            Load { ty, .. } | BinOp { ty, .. } | UnaryOp { ty, .. } | Select { ty, .. } => *ty,
            Cmp { .. } => IrType::I8,
            Cast { to_ty, .. } => *to_ty,
            Copy {
                src: Operand::Const(c), ..
            } => const_natural_type(c),
            Copy { .. } => return None,
            Call { info, .. } | CallIndirect { info, .. } => {
                info.dest?;
                info.return_type
            }
            VaArg { result_ty, .. } => *result_ty,
            AtomicRmw { ty, .. } | AtomicLoad { ty, .. } => *ty,
            AtomicCmpxchg { ty, returns_bool, .. } => {
                if *returns_bool {
                    IrType::I8
                } else {
                    *ty
                }
            }
            Phi { ty, .. } | ParamRef { ty, .. } => *ty,
            GetReturnF64Second { .. } => IrType::F64,
            GetReturnF32Second { .. } => IrType::F32,
            GetReturnF128Second { .. } => IrType::F128,
            Intrinsic { dest, op, .. } => {
                dest.as_ref()?;
                op.result_type().unwrap_or(IrType::I64)
            }
            _ => return None,
        })
    }

    /// The short mnemonic used in the textual form and in diagnostics.
    pub fn mnemonic(&self) -> &'static str {
        use Instruction::*;
        match self {
            Alloca { .. } => "alloca",
            DynAlloca { .. } => "dynalloca",
            Load { .. } => "load",
            Store { .. } => "store",
            Memcpy { .. } => "memcpy",
            GetElementPtr { .. } => "gep",
            GlobalAddr { .. } => "globaladdr",
            StackSave { .. } => "stacksave",
            StackRestore { .. } => "stackrestore",
            BinOp { .. } => "binop",
            UnaryOp { .. } => "unop",
            Cmp { .. } => "cmp",
            Cast { .. } => "cast",
            Copy { .. } => "copy",
            Select { .. } => "select",
            Call { .. } => "call",
            CallIndirect { .. } => "callind",
            VaStart { .. } => "vastart",
            VaEnd { .. } => "vaend",
            VaCopy { .. } => "vacopy",
            VaArg { .. } => "vaarg",
            VaArgStruct { .. } => "vaargstruct",
            AtomicRmw { .. } => "atomicrmw",
            AtomicCmpxchg { .. } => "cmpxchg",
            AtomicLoad { .. } => "atomicload",
            AtomicStore { .. } => "atomicstore",
            Fence { .. } => "fence",
            Phi { .. } => "phi",
            ParamRef { .. } => "paramref",
            GetReturnF64Second { .. } => "getretf64second",
            SetReturnF64Second { .. } => "setretf64second",
            GetReturnF32Second { .. } => "getretf32second",
            SetReturnF32Second { .. } => "setretf32second",
            GetReturnF128Second { .. } => "getretf128second",
            SetReturnF128Second { .. } => "setretf128second",
            InlineAsm(_) => "asm",
            Intrinsic { .. } => "intrinsic",
            LabelAddr { .. } => "labeladdr",
        }
    }

    /// Goto labels of an `asm goto`, else empty.
    pub fn asm_goto_targets(&self) -> &[(String, BlockId)] {
        match self {
            Instruction::InlineAsm(asm) => &asm.goto_labels,
            _ => &[],
        }
    }
}

/// The IR type a constant has on its own (integers signed, long double `F128`).
pub fn const_natural_type(c: &IrConst) -> IrType {
    match c {
        IrConst::I8(_) => IrType::I8,
        IrConst::I16(_) => IrType::I16,
        IrConst::I32(_) => IrType::I32,
        IrConst::I64(_) | IrConst::Zero => IrType::I64,
        IrConst::I128(_) => IrType::I128,
        IrConst::F32(_) => IrType::F32,
        IrConst::F64(_) => IrType::F64,
        IrConst::LongDouble(..) => IrType::F128,
    }
}

impl Terminator {
    pub fn for_each_used_value(&self, mut f: impl FnMut(Value)) {
        match self {
            Terminator::Return(Some(op)) => visit_op(op, &mut f),
            Terminator::CondBranch { cond, .. } => visit_op(cond, &mut f),
            Terminator::IndirectBranch { target, .. } => visit_op(target, &mut f),
            Terminator::Switch { val, .. } => visit_op(val, &mut f),
            _ => {}
        }
    }

    pub fn used_values(&self) -> Vec<Value> {
        let mut v = Vec::new();
        self.for_each_used_value(|x| v.push(x));
        v
    }

    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        match self {
            Terminator::Return(Some(op)) => f(op),
            Terminator::CondBranch { cond, .. } => f(cond),
            Terminator::IndirectBranch { target, .. } => f(target),
            Terminator::Switch { val, .. } => f(val),
            _ => {}
        }
    }

    /// Calls `f` for every successor edge, in order, duplicates included (a
    /// switch with two cases to one block yields that block twice).
    pub fn for_each_successor(&self, mut f: impl FnMut(BlockId)) {
        match self {
            Terminator::Return(_) | Terminator::Unreachable => {}
            Terminator::Branch(b) => f(*b),
            Terminator::CondBranch {
                true_label,
                false_label,
                ..
            } => {
                f(*true_label);
                f(*false_label)
            }
            Terminator::IndirectBranch { possible_targets, .. } => possible_targets.iter().for_each(|b| f(*b)),
            Terminator::Switch { cases, default, .. } => {
                cases.iter().for_each(|(_, b)| f(*b));
                f(*default)
            }
        }
    }

    /// The distinct successor blocks, in first-appearance order.
    pub fn successors(&self) -> Vec<BlockId> {
        let mut out: Vec<BlockId> = Vec::new();
        self.for_each_successor(|b| {
            if !out.contains(&b) {
                out.push(b)
            }
        });
        out
    }

    /// Rewrites every edge to `from` into an edge to `to`.
    pub fn retarget(&mut self, from: BlockId, to: BlockId) {
        let fix = |b: &mut BlockId| {
            if *b == from {
                *b = to
            }
        };
        match self {
            Terminator::Branch(b) => fix(b),
            Terminator::CondBranch {
                true_label,
                false_label,
                ..
            } => {
                fix(true_label);
                fix(false_label)
            }
            Terminator::IndirectBranch { possible_targets, .. } => possible_targets.iter_mut().for_each(fix),
            Terminator::Switch { cases, default, .. } => {
                cases.iter_mut().for_each(|(_, b)| fix(b));
                fix(default)
            }
            Terminator::Return(_) | Terminator::Unreachable => {}
        }
    }

    pub fn mnemonic(&self) -> &'static str {
        match self {
            Terminator::Return(_) => "ret",
            Terminator::Branch(_) => "br",
            Terminator::CondBranch { .. } => "condbr",
            Terminator::IndirectBranch { .. } => "indirectbr",
            Terminator::Switch { .. } => "switch",
            Terminator::Unreachable => "unreachable",
        }
    }
}

#[cfg(test)]
mod tests {
    /// Instructions are stored by value in every block, cloned by the
    /// harness's snapshots and walked by every pass: their size is compile
    /// time (issue 18). A call's ABI metadata is boxed for that reason; a new
    /// large variant should be boxed too, not grow them all.
    #[test]
    fn instructions_stay_small() {
        assert!(std::mem::size_of::<super::Instruction>() <= 112);
    }
}
