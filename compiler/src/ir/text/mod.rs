//! The textual form of the IR: a printer and a parser that round-trip
//! exactly (`parse_module(&print_module(m)) == Ok(m)` for every module) and
//! a format a person can read and edit. docs/ir.md has the grammar and an
//! example of every instruction.
//!
//! Layout: `lexer` (tokens with line:col), `printer` (canonical output),
//! `parser` (module level: items, globals, functions, blocks) and
//! `parse_inst` (instructions and terminators). The design follows
//! Cranelift's reader/writer pair: the printer is the single source of the
//! syntax, and the parser accepts exactly what it prints plus the defaults a
//! hand-written file leaves out (e.g. `nextvalue`, the call ABI lists).

mod lexer;
mod parse_inst;
mod parser;
mod printer;

use crate::ir::module::IrModule;
use std::fmt;

pub use printer::{print_function, print_instruction, print_module, print_terminator};

/// A syntax error with its 1-based position (columns count characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a whole module. Undefined values and blocks are accepted (the
/// verifier reports them); unrepresentable input (bad syntax, out-of-range
/// numbers, duplicate block labels in a function) is an error.
pub fn parse_module(src: &str) -> Result<IrModule, ParseError> {
    let toks = lexer::tokenize(src)?;
    parser::Parser::new(toks).module()
}
