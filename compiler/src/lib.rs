//! phicc: a C compiler for x86-64, AArch64 and RISC-V 64 whose SSA
//! construction (mem2reg) and destruction (phi elimination) are kept honest by
//! the differential harness in the `oracle` crate.
//!
//! The pipeline (docs/architecture.md#layers-of-the-compiler): C source -> frontend -> alloca IR (`ir`) ->
//! mem2reg -> SSA passes -> phi elimination -> backend assembly.

pub mod abi;
pub mod backend;
pub mod binary128;
pub mod driver;
pub mod exit;
pub mod frontend;
pub mod inject;
pub mod ir;
pub mod lower;
pub mod named;
pub mod passes;
pub mod target;
#[cfg(test)]
mod test_skip;
