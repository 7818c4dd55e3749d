//! SSA passes over the IR and the pipeline that runs them by name.
//!
//! Each pass is `fn(&mut IrFunction) -> usize` (changes made) or, when it
//! needs module-wide state, `fn(&mut IrModule) -> usize`
//! (docs/ir-design.md#pass-interface). [`Pipeline`] parses a comma-separated
//! list of pass names, runs them in order, verifies after each one on request
//! and reports statistics.

pub mod copyprop;
pub mod mem2reg;
pub mod phi_elim;
pub mod pipeline;

pub use pipeline::{PassKind, PassStats, Pipeline, PipelineError};
