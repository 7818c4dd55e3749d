//! The GNU inline-asm template language (gcc manual, "Extended Asm":
//! "AssemblerTemplate", "Input Operands", "Goto Labels"), parsed once for
//! every target; the target renders operands and interprets modifiers.
//!
//! - `%N` / `%[name]`: operand N (outputs first, then inputs, then goto
//!   labels) or the operand named `name`;
//! - `%XN` / `%X[name]`: the same with modifier letter `X` (`k q w b h c P a
//!   l z` on x86, others on other targets: dispatched to the target);
//! - `%lN` / `%l[name]`: an `asm goto` label, by number or by C label name;
//! - `%%` a literal `%`, `%=` a number unique to this asm instance;
//! - on x86 (`dialects`), `{att|intel}` alternatives keep the first one and
//!   `%{ %| %}` are literal braces and bar.
//!
//! A *basic* asm (no operands, clobbers or labels) is not a template: its
//! text is copied as written, `%` included, as gcc does.

use crate::backend::BackendErrorKind;
use crate::ir::instruction::InlineAsm;

/// Why a target could not plan an inline asm statement, before the error
/// knows its function: most are the program's (a constraint, modifier or
/// register demand the target cannot meet, an ill-formed template), a few
/// are broken invariants of the IR lowering produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub kind: BackendErrorKind,
    pub message: String,
}

impl AsmError {
    /// A broken invariant (an internal compiler error).
    pub fn internal(message: impl Into<String>) -> AsmError {
        AsmError {
            kind: BackendErrorKind::Internal,
            message: message.into(),
        }
    }
}

impl From<String> for AsmError {
    /// Asm the target cannot compile.
    fn from(message: String) -> AsmError {
        AsmError {
            kind: BackendErrorKind::Unsupported,
            message,
        }
    }
}

impl From<&str> for AsmError {
    fn from(message: &str) -> AsmError {
        AsmError::from(message.to_string())
    }
}

/// Which operand a `%` reference names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OperandRef {
    Index(usize),
    Name(String),
}

/// One piece of a parsed template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplatePiece {
    Text(String),
    Operand {
        modifier: Option<char>,
        operand: OperandRef,
    },
    /// `%=`.
    UniqueId,
}

/// An operand reference resolved against an asm statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    Output(usize),
    Input(usize),
    Label(usize),
}

/// Is `asm` basic asm (its template is copied verbatim)?
pub fn is_basic_asm(asm: &InlineAsm) -> bool {
    asm.outputs.is_empty() && asm.inputs.is_empty() && asm.clobbers.is_empty() && asm.goto_labels.is_empty()
}

/// Parses `template`. Errors name the problem (`%` at the end, an
/// unterminated `%[`, a missing operand number).
pub fn parse_template(template: &str, dialects: bool) -> Result<Vec<TemplatePiece>, String> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let chars: Vec<char> = template.chars().collect();
    let mut i = 0;
    // Dialect state: 0 outside braces, 1 in the first alternative, 2 skipping the others.
    let mut dialect = 0;
    while i < chars.len() {
        let c = chars[i];
        if dialects {
            match (c, dialect) {
                ('{', 0) => {
                    dialect = 1;
                    i += 1;
                    continue;
                }
                ('|', 1) => {
                    dialect = 2;
                    i += 1;
                    continue;
                }
                ('}', 1 | 2) => {
                    dialect = 0;
                    i += 1;
                    continue;
                }
                (_, 2) => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
        }
        if c != '%' {
            text.push(c);
            i += 1;
            continue;
        }
        let Some(&n) = chars.get(i + 1) else {
            return Err("'%' at the end of the asm template".into());
        };
        match n {
            '%' => {
                text.push('%');
                i += 2;
                continue;
            }
            '{' | '|' | '}' if dialects => {
                text.push(n);
                i += 2;
                continue;
            }
            '=' => {
                flush(&mut text, &mut pieces);
                pieces.push(TemplatePiece::UniqueId);
                i += 2;
                continue;
            }
            _ => {}
        }
        flush(&mut text, &mut pieces);
        let mut j = i + 1;
        let mut modifier = None;
        if chars[j].is_ascii_alphabetic() {
            modifier = Some(chars[j]);
            j += 1;
        }
        let operand = match chars.get(j) {
            Some('[') => {
                let close = chars[j..]
                    .iter()
                    .position(|&c| c == ']')
                    .ok_or("unterminated '%[' in the asm template")?;
                let name: String = chars[j + 1..j + close].iter().collect();
                j += close + 1;
                OperandRef::Name(name)
            }
            Some(d) if d.is_ascii_digit() => {
                let start = j;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                let s: String = chars[start..j].iter().collect();
                OperandRef::Index(s.parse().map_err(|_| "operand number too large".to_string())?)
            }
            _ => {
                return Err(format!(
                    "operand number missing after %{}",
                    modifier.map(String::from).unwrap_or_default()
                ))
            }
        };
        pieces.push(TemplatePiece::Operand { modifier, operand });
        i = j;
    }
    flush(&mut text, &mut pieces);
    Ok(pieces)
}

fn flush(text: &mut String, pieces: &mut Vec<TemplatePiece>) {
    if !text.is_empty() {
        pieces.push(TemplatePiece::Text(std::mem::take(text)));
    }
}

/// Resolves `r` against `asm`: numbers count outputs, then inputs, then goto
/// labels; a name is an operand name or (with `%l`) a C label name.
pub fn resolve(asm: &InlineAsm, r: &OperandRef, is_label: bool) -> Result<Resolved, String> {
    let (no, ni) = (asm.outputs.len(), asm.inputs.len());
    match r {
        OperandRef::Index(n) => {
            let n = *n;
            if n < no && !is_label {
                Ok(Resolved::Output(n))
            } else if n < no + ni && !is_label {
                Ok(Resolved::Input(n - no))
            } else if n >= no + ni && n < no + ni + asm.goto_labels.len() {
                Ok(Resolved::Label(n - no - ni))
            } else {
                Err(format!("asm operand number {n} out of range"))
            }
        }
        OperandRef::Name(name) => {
            if is_label {
                if let Some(k) = asm.goto_labels.iter().position(|(l, _)| l == name) {
                    return Ok(Resolved::Label(k));
                }
            }
            if let Some(k) = asm.outputs.iter().position(|o| o.name.as_deref() == Some(name)) {
                return Ok(Resolved::Output(k));
            }
            if let Some(k) = asm.inputs.iter().position(|o| o.name.as_deref() == Some(name)) {
                return Ok(Resolved::Input(k));
            }
            if let Some(k) = asm.goto_labels.iter().position(|(l, _)| l == name) {
                return Ok(Resolved::Label(k));
            }
            Err(format!("undefined named asm operand '{name}'"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TemplatePiece::*;

    fn op(m: Option<char>, n: usize) -> TemplatePiece {
        Operand {
            modifier: m,
            operand: OperandRef::Index(n),
        }
    }

    #[test]
    fn operands_modifiers_names_and_escapes() {
        let p = parse_template("movl %1, %k0; %%eax %= %[out] %h[x] %l12", false).unwrap();
        assert_eq!(
            p,
            vec![
                Text("movl ".into()),
                op(None, 1),
                Text(", ".into()),
                op(Some('k'), 0),
                Text("; %eax ".into()),
                UniqueId,
                Text(" ".into()),
                Operand {
                    modifier: None,
                    operand: OperandRef::Name("out".into())
                },
                Text(" ".into()),
                Operand {
                    modifier: Some('h'),
                    operand: OperandRef::Name("x".into())
                },
                Text(" ".into()),
                op(Some('l'), 12),
            ]
        );
    }

    #[test]
    fn dialect_alternatives_keep_the_first() {
        let p = parse_template("{movl %1, %0|mov %0, %1} %{x%}", true).unwrap();
        assert_eq!(
            p,
            vec![
                Text("movl ".into()),
                op(None, 1),
                Text(", ".into()),
                op(None, 0),
                Text(" {x}".into())
            ]
        );
        // Without dialects braces are text (AArch64 register lists).
        let p = parse_template("ld1 {v0.16b}, [%0]", false).unwrap();
        assert_eq!(p[0], Text("ld1 {v0.16b}, [".into()));
    }

    #[test]
    fn malformed_templates_are_errors() {
        assert!(parse_template("mov %", false).is_err());
        assert!(parse_template("mov %[abc", false).is_err());
        assert!(parse_template("mov %k", false).is_err());
    }
}
