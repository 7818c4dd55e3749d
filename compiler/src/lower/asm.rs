//! GNU extended asm (gcc manual, "Extended Asm") to `InlineAsm`
//! (docs/abi.md, "Inline assembly").
//!
//! * Every output is written through the address of its lvalue
//!   (`is_def: false`); its operand type is the lvalue's IR type.
//! * A read-write register output (`+r`, `+&q`, ...) becomes a write-only
//!   output (`=r`) plus an input tied to it (constraint: the output's
//!   number) carrying the current value; tied inputs follow the written
//!   inputs, as gcc numbers them, so `%N` in the template keeps its meaning.
//!   Read-write memory outputs (`+m`) stay as written.
//! * A memory-constraint input gets the address of its lvalue; any other
//!   input its value. A record of 1, 2, 4 or 8 bytes under a register
//!   constraint is that many bytes read as one integer, as gcc gives it an
//!   integer mode (inputs and outputs alike). `"i"`-style inputs that are a global's address carry the
//!   symbol name. A matching constraint naming an output (`"[v]"`) becomes
//!   that output's number.
//! * A local register variable (`register long x asm("r10")`) that is an
//!   operand under a register constraint gets the constraint `{r10}`
//!   (exactly that register; gcc manual, "Specifying Registers for Local
//!   Variables").
//! * `asm goto` labels are CFG edges; the block ends right after the asm
//!   with a branch to the fall-through block.

use super::function::FnLower;
use super::repr::Repr;
use super::LResult;
use crate::frontend::hir::{Asm, Expr, ExprKind};
use crate::frontend::source::Diagnostic;
use crate::ir::instruction::{AsmInput, AsmOutput, InlineAsm, Instruction, Operand};
use crate::ir::types::IrType;

/// The global whose address an expression is, if it is just that.
fn address_symbol(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::FuncDecay(x) | ExprKind::ArrayDecay(x) | ExprKind::AddrOf(x) => match &x.kind {
            ExprKind::Global(_) => Some(x),
            _ => None,
        },
        ExprKind::Cast(_, x) => address_symbol(x),
        _ => None,
    }
}

/// The register a local register variable (`register long x asm("r10")`)
/// names, when `e` is that variable or its value.
fn register_variable(lower: &FnLower<'_, '_>, e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Local(id) => lower.local(*id).asm_register.clone(),
        ExprKind::Load(x) => register_variable(lower, x),
        _ => None,
    }
}

/// A register-class constraint (`r`, `=r`, `+&r`, `g`, ...) narrowed to one
/// register: `{reg}` after the same `= + &` prefix, which every backend reads
/// as "exactly this register". gcc manual, "Specifying Registers for Local
/// Variables": a local register variable that is an asm operand with a
/// register constraint is in its register. Other constraints stay.
fn bind_register(constraint: &str, reg: &str) -> String {
    let body = constraint.trim_start_matches(['=', '+', '&']);
    let prefix = &constraint[..constraint.len() - body.len()];
    let first = body.split(',').next().unwrap_or("");
    if first.chars().any(|c| matches!(c, 'r' | 'g' | 'q' | 'R' | 'l')) {
        format!("{prefix}{{{reg}}}")
    } else {
        constraint.to_string()
    }
}

/// The integer type a record of `size` bytes travels in as a register
/// operand: gcc gives a record of 1, 2, 4 or 8 bytes its integer mode, so
/// `"r"(s)` or `"0"(s)` carries the record's bytes, not its address.
fn record_register_type(size: u64) -> Option<IrType> {
    Some(match size {
        1 => IrType::U8,
        2 => IrType::U16,
        4 => IrType::U32,
        8 => IrType::U64,
        _ => return None,
    })
}

impl FnLower<'_, '_> {
    /// The IR type an asm operand of this C type has under `constraint`.
    fn operand_type(&self, e: &Expr, constraint: &str) -> LResult<IrType> {
        Ok(match self.repr(&e.ty.ty, e.span)? {
            Repr::Scalar(t) => t,
            Repr::Aggregate { size, .. } if !InlineAsm::is_memory_constraint(constraint) => {
                record_register_type(size).unwrap_or(IrType::Ptr)
            }
            _ => IrType::Ptr,
        })
    }

    pub(super) fn asm(&mut self, a: &Asm) -> LResult<()> {
        let mut outputs = Vec::new();
        let mut out_types = Vec::new();
        let mut tied: Vec<(usize, Operand, IrType, Option<String>)> = Vec::new();
        for (i, o) in a.outputs.iter().enumerate() {
            if !o.expr.is_lvalue() {
                return Err(Diagnostic::error(o.expr.span, "asm output operand is not an lvalue"));
            }
            let ty = self.operand_type(&o.expr, &o.constraint)?;
            let p = self.place(&o.expr)?;
            if p.bitfield.is_some() {
                return Err(Diagnostic::error(o.expr.span, "asm output operand is a bit-field"));
            }
            let mut constraint = match register_variable(self, &o.expr) {
                Some(reg) => bind_register(&o.constraint, &reg),
                None => o.constraint.clone(),
            };
            if let Some(rest) = constraint.clone().strip_prefix('+') {
                if !InlineAsm::is_memory_constraint(&constraint) {
                    constraint = format!("={rest}");
                    let cur = self.load_at(p.addr, p.align, ty);
                    tied.push((i, cur.into(), ty, None));
                }
            }
            outputs.push(AsmOutput {
                constraint,
                value: p.addr,
                name: o.name.clone(),
                is_def: false,
            });
            out_types.push(ty);
        }
        let mut inputs = Vec::new();
        let mut in_types = Vec::new();
        let mut symbols = Vec::new();
        for inp in &a.inputs {
            let memory = InlineAsm::is_memory_constraint(&inp.constraint);
            let ty = self.operand_type(&inp.expr, &inp.constraint)?;
            let small_record = match self.repr(&inp.expr.ty.ty, inp.expr.span)? {
                Repr::Aggregate { size, align } if !memory && record_register_type(size).is_some() => Some(align),
                _ => None,
            };
            let value: Operand = if memory && inp.expr.is_lvalue() {
                self.place(&inp.expr)?.addr.into()
            } else if let Some(align) = small_record {
                // The record's bytes, read as one integer.
                let Operand::Value(addr) = self.scalar(&inp.expr)? else {
                    return Err(Diagnostic::error(inp.expr.span, "asm input record has no address"));
                };
                self.load_at(addr, align, ty).into()
            } else {
                self.scalar(&inp.expr)?
            };
            let sym = match address_symbol(&inp.expr).map(|g| &g.kind) {
                Some(ExprKind::Global(id)) => Some(self.cx.global(*id).name.clone()),
                _ => None,
            };
            symbols.push(sym);
            // A matching constraint may name the output (`[v] "=r"(x) : "[v]"(y)`):
            // the backends and the IR know tied operands by number only.
            let constraint = match inp.constraint.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
                Some(n) => match a.outputs.iter().position(|o| o.name.as_deref() == Some(n)) {
                    Some(k) => k.to_string(),
                    None => {
                        return Err(Diagnostic::error(
                            inp.expr.span,
                            format!("asm input constraint '[{n}]' names no output operand"),
                        ))
                    }
                },
                None => match register_variable(self, &inp.expr) {
                    Some(reg) => bind_register(&inp.constraint, &reg),
                    None => inp.constraint.clone(),
                },
            };
            inputs.push(AsmInput {
                constraint,
                value,
                name: inp.name.clone(),
            });
            in_types.push(ty);
        }
        for (i, cur, ty, name) in tied {
            inputs.push(AsmInput {
                constraint: i.to_string(),
                value: cur,
                name,
            });
            in_types.push(ty);
            symbols.push(None);
        }
        let mut goto_labels = Vec::new();
        for l in &a.labels {
            let name = self
                .func
                .labels
                .get(l.0 as usize)
                .map_or_else(|| format!("l{}", l.0), |x| x.name.to_string());
            let block = self.label_block(*l);
            if !goto_labels.iter().any(|(_, b)| *b == block) {
                goto_labels.push((name, block));
            }
        }
        if symbols.iter().all(Option::is_none) {
            symbols.clear();
        }
        let mut operand_types = out_types;
        operand_types.extend(in_types);
        let is_goto = !goto_labels.is_empty();
        self.b.emit(Instruction::InlineAsm(Box::new(InlineAsm {
            template: a.template.clone(),
            outputs,
            inputs,
            clobbers: a.clobbers.clone(),
            operand_types,
            goto_labels,
            input_symbols: symbols,
            seg_overrides: Vec::new(),
        })));
        if is_goto {
            let next = self.b.new_block();
            self.b.start(next);
        }
        Ok(())
    }
}
