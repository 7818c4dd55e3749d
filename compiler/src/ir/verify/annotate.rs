//! Verifier errors shown in context: the failing function in textual IR with
//! each error as a `; error:` comment under the instruction it concerns (as
//! Cranelift prints a function with its verifier errors inline). The output is
//! still valid textual IR, so a reported function can be saved and re-run.

use super::{VerifyError, VerifyErrors};
use crate::ir::module::{IrFunction, IrModule};
use crate::ir::text::print_function;

/// `f` printed with the errors that belong to it (matched by function name)
/// as comments under their instruction, block label or function header.
pub fn annotate_function(f: &IrFunction, errors: &[VerifyError]) -> String {
    let mine: Vec<&VerifyError> = errors.iter().filter(|e| e.function == f.name).collect();
    let text = print_function(f);
    let lines: Vec<&str> = text.lines().collect();
    let body: usize = f.blocks.iter().map(|b| b.instructions.len() + 2).sum();
    let closing = usize::from(!f.blocks.is_empty() || !f.is_declaration);
    let header = lines.len().saturating_sub(body + closing);
    let mut out = String::with_capacity(text.len() + 80 * mine.len());
    let push = |line: &str, out: &mut String| {
        out.push_str(line);
        out.push('\n');
    };
    let comments = |out: &mut String, pick: &dyn Fn(&VerifyError) -> bool| {
        for e in mine.iter().filter(|e| pick(e)) {
            out.push_str("  ; error: ");
            out.push_str(&e.message);
            out.push('\n');
        }
    };
    for line in &lines[..header] {
        push(line, &mut out);
    }
    comments(&mut out, &|e| e.block.is_none());
    let mut at = header;
    for b in &f.blocks {
        let Some(label_line) = lines.get(at) else { break };
        push(label_line, &mut out);
        comments(&mut out, &|e| e.block == Some(b.label) && e.inst.is_none());
        for i in 0..=b.instructions.len() {
            if let Some(line) = lines.get(at + 1 + i) {
                push(line, &mut out);
            }
            comments(&mut out, &|e| e.block == Some(b.label) && e.inst == Some(i));
        }
        at += b.instructions.len() + 2;
    }
    for line in lines.iter().skip(at) {
        push(line, &mut out);
    }
    out
}

impl VerifyErrors {
    /// Every function of `m` that has an error, annotated (see [`annotate_function`]).
    pub fn annotate(&self, m: &IrModule) -> String {
        let mut out = String::new();
        for f in &m.functions {
            if self.0.iter().any(|e| e.function == f.name) {
                out.push_str(&annotate_function(f, &self.0));
            }
        }
        out
    }
}
