//! The C frontend (work in progress): source files and diagnostics, lexer,
//! literals.

pub mod lexer;
pub mod literal;
pub mod preprocess;
pub mod source;
pub mod target;
pub mod token;
