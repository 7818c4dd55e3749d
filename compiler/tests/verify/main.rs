//! Verifier tests: for every invariant, one IR function that breaks it (the
//! error must name the right function, block and instruction), and valid
//! functions that must pass. IR is built with the helpers of `builders`.

mod availability;
mod builders;
mod ssa;
mod structure;
mod text;
mod types;
