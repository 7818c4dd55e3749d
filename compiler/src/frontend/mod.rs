//! The C frontend (work in progress): source files and diagnostics, lexer,
//! literals.

pub mod lexer;
pub mod literal;
pub mod source;
pub mod token;
