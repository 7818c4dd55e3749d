//! The intermediate representation (docs/ir-design.md): types, constants,
//! operators, instructions, modules, CFG/dominance analysis; plus what the
//! harness needs: a textual form, a verifier and a reference interpreter.

pub mod analysis;
pub mod constants;
pub mod dominator_sets;
pub mod instruction;
pub mod interp;
pub mod intrinsics;
pub mod module;
pub mod ops;
pub mod text;
pub mod types;
pub mod verify;

/// Everything a pass needs, in one import: `use phicc::ir::reexports::*`.
pub mod reexports {
    pub use super::constants::{ConstHashKey, IrConst};
    pub use super::instruction::{
        const_natural_type, AsmInput, AsmOutput, BasicBlock, BlockId, CallInfo, InlineAsm, Instruction, Operand,
        Terminator, Value,
    };
    pub use super::intrinsics::IntrinsicOp;
    pub use super::module::{GlobalInit, IrFunction, IrGlobal, IrModule, IrParam};
    pub use super::ops::{AtomicOrdering, AtomicRmwOp, EvalTrap, IrBinOp, IrCmpOp, IrUnaryOp};
    pub use super::types::{AddressSpace, EightbyteClass, Hfa, IrType, RiscvFloatClass};
}
