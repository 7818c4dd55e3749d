//! The gcc-like driver (`phicc`): options, target selection, the pipeline
//! from C to IR, passes, assembly, and invoking the target's gcc to assemble
//! and link.
//!
//! STUB: the real implementation replaces this file.
