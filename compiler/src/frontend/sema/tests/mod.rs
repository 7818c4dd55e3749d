//! Tests of semantic analysis, split by construct. Expected values come from
//! the C standard's rules or from gcc (probes compiled and run with the
//! target's gcc), never from the code under test.

mod support;

mod exprs;
mod folding;
mod headers;
mod inits;
mod invariants;
mod robust;
mod stmts;
mod types;
