//! GNU extended inline asm, the part every target shares (gcc manual,
//! "Extended Asm", "Simple Constraints", "Modifiers"): constraint strings
//! parsed into the generic prefixes and a target's letters, the facts of
//! each operand, the assignment of a location to every operand, and the
//! template printed with its operands rendered.
//!
//! A constraint is read as gcc reads a single alternative: only the first
//! of comma-separated alternatives counts; `= % * ? ! #` and spaces carry
//! nothing for this planner, `+` makes an output read-write, `&` marks it
//! early-clobber, digits tie an input to that output, `{reg}` names the
//! exact register of a local register variable. Every other letter is the
//! target's ([`ConstraintClass`]: "Machine Constraints" of its family).
//!
//! Locations are assigned in operand order (outputs, then inputs), each
//! by the target's rule; a tied input takes its output's location once all
//! outputs have one. What a location is, which registers are free, and how
//! an operand is loaded, rendered and stored stay with the target.

use super::asm_template::{is_basic_asm, resolve, AsmError, Resolved, TemplatePiece};
use super::BackendError;
use crate::ir::constants::IrConst;
use crate::ir::instruction::InlineAsm;
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// The target's half of a constraint: what its letters ask for.
pub(crate) trait ConstraintClass: Sized {
    /// A constraint with no letter yet.
    fn empty() -> Self;

    /// Records letter `ch` of constraint `c`, followed by `rest`; returns
    /// how many characters of `rest` the letter used as well (a
    /// multi-letter class such as AArch64's `Ump`), or the error of a letter
    /// the target does not support.
    fn letter(&mut self, ch: char, rest: &[char], c: &str) -> Result<usize, String>;

    /// Records `{name}`, the exact register of a local register variable;
    /// false when `name` is not a register an operand may take.
    fn fixed(&mut self, name: &str) -> bool;
}

/// One parsed constraint: the generic prefixes and the target's letters.
#[derive(Clone, Debug)]
pub(crate) struct Constraint<C> {
    pub class: C,
    /// The output this input is tied to (a digit constraint).
    pub tied: Option<usize>,
    /// `+`: an output read before the asm too.
    pub read_write: bool,
    /// `&`: an output written before the inputs are all read.
    pub early_clobber: bool,
}

/// Parses the first alternative of constraint `c`.
pub(crate) fn parse_constraint<C: ConstraintClass>(c: &str) -> Result<Constraint<C>, String> {
    let mut w = Constraint {
        class: C::empty(),
        tied: None,
        read_write: false,
        early_clobber: false,
    };
    let first = c.split(',').next().unwrap_or("");
    let chars: Vec<char> = first.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '=' | '%' | '*' | '?' | '!' | '#' | ' ' => {}
            '+' => w.read_write = true,
            '&' => w.early_clobber = true,
            '0'..='9' => {
                let start = i;
                while i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
                    i += 1;
                }
                let n: String = chars[start..=i].iter().collect();
                w.tied = Some(n.parse().map_err(|_| format!("bad constraint '{c}'"))?);
            }
            '{' => {
                let end = chars[i..].iter().position(|&c| c == '}').map(|e| i + e);
                let name: String = chars[i + 1..end.unwrap_or(chars.len())].iter().collect();
                match end {
                    Some(e) if w.class.fixed(&name) => i = e,
                    _ => return Err(format!("invalid register name '{name}' for an asm operand")),
                }
            }
            ch => i += w.class.letter(ch, &chars[i + 1..], c)?,
        }
        i += 1;
    }
    Ok(w)
}

/// The constraints of every operand of `asm`: outputs, then inputs.
pub(crate) fn parse_constraints<C: ConstraintClass>(asm: &InlineAsm) -> Result<Vec<Constraint<C>>, String> {
    let outputs = asm.outputs.iter().map(|o| &o.constraint);
    let inputs = asm.inputs.iter().map(|i| &i.constraint);
    outputs.chain(inputs).map(|c| parse_constraint(c)).collect()
}

/// The constraint string of operand `k` (outputs first, then inputs).
pub(crate) fn constraint_of(asm: &InlineAsm, k: usize) -> &str {
    if k < asm.outputs.len() {
        &asm.outputs[k].constraint
    } else {
        &asm.inputs[k - asm.outputs.len()].constraint
    }
}

/// The type of operand `k` (outputs first, then inputs).
pub(crate) fn operand_type(asm: &InlineAsm, k: usize) -> IrType {
    let no = asm.outputs.len();
    if k < no {
        asm.output_type(k)
    } else {
        asm.input_type(k - no)
    }
}

/// What the location rule of a target sees of one operand.
#[derive(Clone, Debug)]
pub(crate) struct OperandFacts {
    /// The operand's number (outputs first, then inputs).
    pub k: usize,
    pub is_output: bool,
    pub ty: IrType,
    /// An input's constant value.
    pub constant: Option<IrConst>,
    /// An input's symbol (the address of a global, `"i"(&x)`).
    pub symbol: Option<String>,
}

/// The location plan of one asm statement.
#[derive(Clone, Debug)]
pub(crate) struct Plan<L> {
    /// Where each operand lives while the asm runs: outputs, then inputs.
    pub locs: Vec<L>,
    /// Whether each output is read-write (`+`), loaded before the asm.
    pub read_write: Vec<bool>,
}

/// Assigns a location to every operand of `asm`: `place` for each that is
/// not tied, in order (it sees the locations given so far), then each tied
/// input its output's. `noun` is how the target's messages name an operand.
pub(crate) fn assign_locations<C, L: Clone>(
    asm: &InlineAsm,
    wants: &[Constraint<C>],
    noun: &str,
    mut place: impl FnMut(&OperandFacts, &Constraint<C>, &[Option<L>]) -> Result<L, AsmError>,
) -> Result<Plan<L>, AsmError> {
    let no = asm.outputs.len();
    let n = no + asm.inputs.len();
    let mut locs: Vec<Option<L>> = vec![None; n];
    for k in 0..n {
        let w = &wants[k];
        let is_output = k < no;
        if let Some(t) = w.tied {
            if is_output || t >= no {
                return Err(format!("{noun} {k} is tied to {t}, which is not an output").into());
            }
            continue; // resolved after the outputs
        }
        let facts = OperandFacts {
            k,
            is_output,
            ty: operand_type(asm, k),
            constant: if is_output {
                None
            } else {
                asm.inputs[k - no].value.as_const()
            },
            symbol: if is_output {
                None
            } else {
                asm.input_symbols.get(k - no).cloned().flatten()
            },
        };
        locs[k] = Some(place(&facts, w, &locs)?);
    }
    for k in no..n {
        if let Some(t) = wants[k].tied {
            locs[k] = locs[t].clone();
        }
    }
    let locs = locs
        .into_iter()
        .enumerate()
        .map(|(k, l)| l.ok_or_else(|| AsmError::internal(format!("{noun} {k} has no location"))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Plan {
        locs,
        read_write: wants[..no].iter().map(|w| w.read_write).collect(),
    })
}

/// The registers `keep` selects (a target's callee-saved ones, which its
/// prologue saves) among those `asm` clobbers (`clobber` reads a clobber
/// as a register) and those its operands take (`operand` reads a location
/// of `plan`, which a basic asm has none of), each once, clobbers first.
pub(crate) fn registers_used<R: PartialEq, L>(
    asm: &InlineAsm,
    clobber: impl Fn(&str) -> Option<R>,
    plan: impl FnOnce() -> Result<Plan<L>, AsmError>,
    operand: impl Fn(&L) -> Option<R>,
    keep: impl Fn(&R) -> bool,
) -> Result<Vec<R>, AsmError> {
    let mut used = Vec::new();
    let mut add = |r: R| {
        if keep(&r) && !used.contains(&r) {
            used.push(r);
        }
    };
    asm.clobbers.iter().filter_map(|c| clobber(c)).for_each(&mut add);
    if !is_basic_asm(asm) {
        plan()?.locs.iter().filter_map(operand).for_each(&mut add);
    }
    Ok(used)
}

/// The text of extended asm `asm` for the output: its template's `pieces`
/// (parsed first, so that a malformed template is the first error) with
/// `%=` as `uid` and each operand reference as `render(k, modifier)` gives
/// it (`k` counting outputs first, then inputs); goto labels are block
/// labels. Errors name function `f`.
pub(crate) fn expand_template(
    f: &str,
    asm: &InlineAsm,
    pieces: &[TemplatePiece],
    uid: u32,
    mut render: impl FnMut(usize, Option<char>) -> Result<String, BackendError>,
) -> Result<String, BackendError> {
    let no = asm.outputs.len();
    let mut text = String::with_capacity(asm.template.len() + 16);
    for piece in pieces {
        match piece {
            TemplatePiece::Text(t) => text.push_str(t),
            TemplatePiece::UniqueId => {
                let _ = write!(text, "{uid}");
            }
            TemplatePiece::Operand { modifier, operand } => {
                let r =
                    resolve(asm, operand, *modifier == Some('l')).map_err(|m| BackendError::inline_asm(f, m.into()))?;
                match r {
                    Resolved::Label(k) => {
                        let _ = write!(text, ".LBB{}", asm.goto_labels[k].1 .0);
                    }
                    Resolved::Output(k) => text.push_str(&render(k, *modifier)?),
                    Resolved::Input(k) => text.push_str(&render(no + k, *modifier)?),
                }
            }
        }
    }
    Ok(text)
}
