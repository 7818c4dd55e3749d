//! GNU extended inline asm on x86-64 (gcc manual, "Extended Asm",
//! "Simple Constraints", "Machine Constraints: x86 family", "x86 Operand
//! Modifiers").
//!
//! Constraints: `r q R l` (any general register), `a b c d S D` (that
//! register), `x v Yz` (an SSE register), `t u` (the x87 stack registers
//! `st(0)` and `st(1)`), `m o V` (memory), `i n I J K L M N
//! e Z s` (immediates, or `sym` for a symbolic input), `g` and `X` (constant
//! as an immediate, else a register), digits (tied to that output), `{reg}`
//! (exactly that general register: a local register variable), with the
//! `= + &` prefixes; only the first of comma-separated alternatives counts.
//! Every operand gets a location: each register operand a distinct register
//! (so early-clobber outputs never share with inputs), a tied input its
//! output's location, a memory operand its frame slot or a register holding
//! its address. Registers named in the clobber list are never used; a
//! callee-saved register the asm uses or clobbers is saved by the prologue.
//!
//! Emission: load the inputs (SSE first, since constants for SSE registers
//! go through `rax`), print the template with operands rendered, then, on
//! the fall-through path only, store the outputs: straight to a slot or an
//! `alloca`, otherwise spilled first and stored through their pointers.
//!
//! x87 operands follow gcc's stack rules ("x86 Floating-Point asm
//! Operands"): the inputs are pushed before the asm (`st(1)`'s first), the
//! asm pops the inputs that are clobbered or tied to an output (they must
//! be the top ones) and pushes the outputs (from `st(0)` down); afterwards
//! the outputs are popped to the spill area (then stored like the others)
//! and the inputs the asm left are discarded, so the stack is empty again
//! between instructions, as the rest of the backend keeps it.
//!
//! Modifiers: `k q w b h` (register width, high byte), `c P` (bare
//! constant or symbol), `a` (address), `l` (goto label), `z` (size suffix),
//! `n` (negated constant), `x`/`t`/`g` (SSE register names).

use super::regs::{Gpr, Mem, CALLEE_SAVED};
use super::{emit, FnEmitter};
use crate::backend::asm_template::{is_basic_asm, parse_template, AsmError};
use crate::backend::frame::{FrameLayout, Home, ValueTypes};
use crate::backend::inline_asm::{
    assign_locations, constraint_of, expand_template, operand_type, parse_constraint, parse_constraints,
    registers_used, ConstraintClass, Plan,
};
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{InlineAsm, Operand};
use crate::ir::types::{AddressSpace, IrType};
use std::fmt::Write as _;

/// Where an operand lives while the asm runs.
#[derive(Clone, Debug, PartialEq)]
enum Loc {
    Reg(Gpr),
    Xmm(u8),
    /// `st(N)` of the x87 register stack.
    X87(u8),
    /// Memory whose address is a frame location.
    Frame(Mem),
    /// Memory whose address is loaded into this register.
    Indirect(Gpr),
    Imm {
        value: i64,
        symbol: Option<String>,
    },
}

/// What a constraint's x86 letters ask for.
#[derive(Clone, Debug, Default)]
struct Wants {
    gpr: bool,
    /// That register: a letter (`a b c d S D A`) or `{reg}` (a local register variable).
    fixed: Option<Gpr>,
    xmm: bool,
    /// `t` (0) or `u` (1): that x87 stack register.
    x87: Option<u8>,
    mem: bool,
    imm: bool,
}

impl ConstraintClass for Wants {
    fn empty() -> Wants {
        Wants::default()
    }

    fn letter(&mut self, ch: char, _rest: &[char], c: &str) -> Result<usize, String> {
        match ch {
            'r' | 'q' | 'R' | 'l' | 'p' | 'U' => self.gpr = true,
            'a' => self.fixed = Some(Gpr::Rax),
            'b' => self.fixed = Some(Gpr::Rbx),
            'c' => self.fixed = Some(Gpr::Rcx),
            'd' => self.fixed = Some(Gpr::Rdx),
            'S' => self.fixed = Some(Gpr::Rsi),
            'D' => self.fixed = Some(Gpr::Rdi),
            'A' => self.fixed = Some(Gpr::Rax),
            'x' | 'v' => self.xmm = true,
            'Y' => {
                self.xmm = true;
                return Ok(1); // Yz, Yi, ... name a register subclass
            }
            'm' | 'o' | 'V' | '<' | '>' | 'Q' => self.mem = true,
            'i' | 'n' | 'I' | 'J' | 'K' | 'L' | 'M' | 'N' | 'e' | 'Z' | 'E' | 'F' | 's' | 'G' | 'C' | 'W' => {
                self.imm = true
            }
            'g' | 'X' => {
                self.gpr = true;
                self.mem = true;
                self.imm = true;
            }
            't' => self.x87 = Some(0),
            'u' => self.x87 = Some(1),
            'f' | 'y' | 'k' => return Err(format!("unsupported asm constraint '{c}'")),
            _ => return Err(format!("unknown asm constraint '{c}'")),
        }
        Ok(0)
    }

    fn fixed(&mut self, name: &str) -> bool {
        match Gpr::parse(name) {
            Some(g) if g != Gpr::Rsp && g != Gpr::Rbp => {
                self.fixed = Some(g);
                true
            }
            _ => false,
        }
    }
}

const GPR_POOL: [Gpr; 14] = [
    Gpr::Rax,
    Gpr::Rcx,
    Gpr::Rdx,
    Gpr::Rsi,
    Gpr::Rdi,
    Gpr::R8,
    Gpr::R9,
    Gpr::R10,
    Gpr::R11,
    Gpr::Rbx,
    Gpr::R12,
    Gpr::R13,
    Gpr::R14,
    Gpr::R15,
];

fn clobbered_xmm(name: &str) -> Option<u8> {
    let n = name.trim_start_matches('%');
    let rest = n
        .strip_prefix("xmm")
        .or_else(|| n.strip_prefix("ymm"))
        .or_else(|| n.strip_prefix("zmm"))?;
    rest.parse().ok().filter(|&k: &u8| k < 16)
}

fn seg_of(asm: &InlineAsm, k: usize) -> AddressSpace {
    asm.seg_overrides.get(k).copied().unwrap_or_default()
}

/// Assigns a location to every operand.
fn plan(asm: &InlineAsm, _types: &ValueTypes, layout: &FrameLayout, frame: i64) -> Result<Plan<Loc>, AsmError> {
    let no = asm.outputs.len();
    let mut taken: Vec<Gpr> = vec![Gpr::Rsp, Gpr::Rbp];
    let mut xmm_taken: Vec<u8> = Vec::new();
    for c in &asm.clobbers {
        if let Some(g) = Gpr::parse(c) {
            if g == Gpr::Rbp {
                return Err("inline asm clobbers the frame pointer %rbp".into());
            }
            taken.push(g);
        } else if let Some(x) = clobbered_xmm(c) {
            xmm_taken.push(x);
        }
    }
    let wants = parse_constraints::<Wants>(asm)?;
    // Fixed registers are reserved first.
    for w in &wants {
        if let Some(g) = w.class.fixed {
            if !taken.contains(&g) {
                taken.push(g);
            } else if asm.clobbers.iter().any(|c| Gpr::parse(c) == Some(g)) {
                return Err(format!("asm operand in {} which the asm clobbers", g.q()).into());
            }
        }
    }
    let frame_mem = |off: u32| Mem::new(Gpr::Rbp, off as i64 - frame);
    let fresh_gpr = |taken: &mut Vec<Gpr>| -> Result<Gpr, String> {
        let g = GPR_POOL
            .iter()
            .copied()
            .find(|g| !taken.contains(g))
            .ok_or("inline asm needs more registers than are free")?;
        taken.push(g);
        Ok(g)
    };
    assign_locations(asm, &wants, "asm operand", |o, w, locs| {
        let w = &w.class;
        let (k, ty, is_output, constant, symbol) = (o.k, o.ty, o.is_output, o.constant, o.symbol.clone());
        let loc = if !is_output && w.imm && (constant.is_some() || symbol.is_some()) {
            let value = constant
                .map(|c| FnEmitter::const_i64(&c, if ty.is_int_or_ptr() { ty } else { IrType::I64 }, ty.is_signed()))
                .unwrap_or(0);
            Loc::Imm { value, symbol }
        } else if let Some(r) = w.x87 {
            if !ty.is_float() {
                return Err(format!(
                    "x87 asm operand {k} ('{}') is not floating-point",
                    constraint_of(asm, k)
                )
                .into());
            }
            let clash = (0..k).any(|j| (j < no) == is_output && locs[j] == Some(Loc::X87(r)));
            if clash {
                return Err(format!("two asm {} in %st({r})", if is_output { "outputs" } else { "inputs" }).into());
            }
            Loc::X87(r)
        } else if let Some(g) = w.fixed {
            Loc::Reg(g)
        } else if w.gpr && ty.size() <= 8 {
            Loc::Reg(fresh_gpr(&mut taken)?)
        } else if w.xmm {
            let x = (0..16u8)
                .find(|x| !xmm_taken.contains(x))
                .ok_or("inline asm needs more SSE registers than are free")?;
            xmm_taken.push(x);
            Loc::Xmm(x)
        } else if w.mem {
            // The operand is an address (alloca form), or for a promoted
            // output the value's own slot.
            let seg = seg_of(asm, k);
            let addr_value = if is_output {
                let o = &asm.outputs[k];
                if o.is_def {
                    match layout.home(o.value) {
                        Home::Slot(off) => return Ok(Loc::Frame(frame_mem(off))),
                        _ => return Err(AsmError::internal("memory output without a slot")),
                    }
                }
                Some(o.value)
            } else {
                asm.inputs[k - no].value.as_value()
            };
            match addr_value.map(|v| layout.home(v)) {
                Some(Home::Alloca { offset, align }) if align <= 16 && seg == AddressSpace::Default => {
                    Loc::Frame(frame_mem(offset))
                }
                Some(Home::FrameAddr(o)) if seg == AddressSpace::Default => Loc::Frame(Mem::new(Gpr::Rbp, o - frame)),
                _ => Loc::Indirect(fresh_gpr(&mut taken)?),
            }
        } else if w.imm {
            return Err(format!("asm operand {k} needs a constant ('{}')", constraint_of(asm, k)).into());
        } else {
            return Err(format!("impossible asm constraint '{}' for {ty}", constraint_of(asm, k)).into());
        };
        Ok(loc)
    })
}

/// The callee-saved registers an asm statement uses or clobbers (the
/// prologue saves them). `frame` only shifts frame offsets, so 0 will do.
pub(super) fn callee_saved_used(
    asm: &InlineAsm,
    types: &ValueTypes,
    layout: &FrameLayout,
) -> Result<Vec<Gpr>, AsmError> {
    registers_used(
        asm,
        Gpr::parse,
        || plan(asm, types, layout, 0),
        |l| match l {
            Loc::Reg(g) | Loc::Indirect(g) => Some(*g),
            _ => None,
        },
        |g| CALLEE_SAVED.contains(g),
    )
}

fn size_suffix(ty: IrType) -> char {
    match ty.size() {
        1 => 'b',
        2 => 'w',
        4 => 'l',
        _ => 'q',
    }
}

impl FnEmitter<'_, '_> {
    /// Loads input (or read-write output) `k` into its location.
    fn asm_load(&mut self, loc: &Loc, op: &Operand, ty: IrType, seg: AddressSpace) -> Result<(), BackendError> {
        match loc {
            Loc::Reg(g) => {
                if ty.size() > 8 {
                    return Err(self.asm_err(format!("a {ty} operand does not fit a register")));
                }
                self.load(op, ty, *g)
            }
            Loc::Xmm(x) => match ty {
                IrType::F32 | IrType::F64 => self.load_xmm(op, ty, *x),
                _ => {
                    self.load(op, ty, Gpr::Rax)?;
                    emit!(self, "\tmovq\t%rax, %xmm{x}");
                    Ok(())
                }
            },
            Loc::Indirect(g) => {
                let _ = seg;
                self.load_int(op, IrType::Ptr, false, *g)
            }
            Loc::Frame(_) | Loc::Imm { .. } | Loc::X87(_) => Ok(()),
        }
    }

    /// Pushes a floating-point operand of type `ty` onto the x87 stack.
    fn asm_fld(&mut self, op: &Operand, ty: IrType) -> Result<(), BackendError> {
        match ty {
            IrType::F128 => self.fld(op),
            _ => {
                // A float or double may live in an SSE register: through
                // the scratch register xmm0 and the scratch area.
                let s = self.scratch_area()?;
                self.load_xmm(op, ty, 0)?;
                let (mov, ld) = if ty == IrType::F32 {
                    ("movss", "flds")
                } else {
                    ("movsd", "fldl")
                };
                emit!(self, "\t{mov}\t%xmm0, {s}");
                emit!(self, "\t{ld}\t{s}");
                Ok(())
            }
        }
    }

    /// Pushes the x87 inputs, `st(1)`'s first, and returns how many inputs
    /// the asm pops (those clobbered or tied to an output, which must be on
    /// top) and how many it leaves.
    fn asm_x87_inputs(&mut self, asm: &InlineAsm, p: &Plan<Loc>) -> Result<(usize, usize), BackendError> {
        let no = asm.outputs.len();
        let clobbered = |r: u8| {
            asm.clobbers.iter().any(|c| {
                let c = c.trim_start_matches('%');
                c == format!("st({r})") || (r == 0 && c == "st")
            })
        };
        let input_in = |r: u8| (0..asm.inputs.len()).find(|&i| p.locs[no + i] == Loc::X87(r));
        if input_in(1).is_some() && input_in(0).is_none() {
            return Err(self.asm_err("an x87 asm input in %st(1) without one in %st(0)"));
        }
        // (register, whether the asm pops it), deepest first.
        let mut popped = Vec::new();
        for r in [1u8, 0] {
            let Some(i) = input_in(r) else { continue };
            let tied = parse_constraint::<Wants>(&asm.inputs[i].constraint).is_ok_and(|w| w.tied.is_some());
            popped.push(tied || clobbered(r));
            self.asm_fld(&asm.inputs[i].value, asm.input_type(i))?;
        }
        if popped == [true, false] {
            return Err(self.asm_err("an x87 asm input popped below one that is not"));
        }
        let n_popped = popped.iter().filter(|&&x| x).count();
        Ok((n_popped, popped.len() - n_popped))
    }

    fn render(&self, loc: &Loc, ty: IrType, modifier: Option<char>, seg: AddressSpace) -> Result<String, BackendError> {
        let size = ty.size().clamp(1, 8);
        Ok(match (loc, modifier) {
            (_, Some('z')) => size_suffix(ty).to_string(),
            (Loc::Reg(g), None | Some('c' | 'P' | 'p')) => g.name(size).to_string(),
            (Loc::Reg(g), Some('k')) => g.name(4).to_string(),
            (Loc::Reg(g), Some('q')) => g.name(8).to_string(),
            (Loc::Reg(g), Some('w')) => g.name(2).to_string(),
            (Loc::Reg(g), Some('b')) => g.name(1).to_string(),
            (Loc::Reg(g), Some('h')) => g
                .high_byte()
                .ok_or_else(|| self.asm_err(format!("%h of {} (no high byte register)", g.q())))?
                .to_string(),
            (Loc::Reg(g), Some('a')) => format!("({})", g.q()),
            (Loc::Reg(g), Some('V')) => g.name(size)[1..].to_string(),
            (Loc::Xmm(x), None | Some('x' | 't' | 'g' | 'c' | 'P')) => format!("%xmm{x}"),
            (Loc::X87(0), None) => "%st".to_string(),
            (Loc::X87(r), None) => format!("%st({r})"),
            (Loc::Frame(m), None | Some('a' | 'c' | 'P' | 'k' | 'q' | 'w' | 'b' | 'h')) => {
                Mem { seg, ..m.clone() }.to_string()
            }
            (Loc::Indirect(g), None | Some('a' | 'c' | 'P' | 'k' | 'q' | 'w' | 'b' | 'h')) => {
                Mem { seg, ..Mem::new(*g, 0) }.to_string()
            }
            (Loc::Imm { value, symbol }, m) => {
                let bare = match symbol {
                    Some(s) if *value != 0 => format!("{}{value:+}", crate::backend::symbol(s)),
                    Some(s) => crate::backend::symbol(s),
                    None if m == Some('n') => format!("{}", value.wrapping_neg()),
                    None => format!("{value}"),
                };
                match m {
                    Some('c' | 'P' | 'p' | 'a' | 'n') => bare,
                    None | Some('k' | 'q' | 'w' | 'b' | 'h') => format!("${bare}"),
                    Some(x) => return Err(self.asm_err(format!("modifier %{x} on an immediate"))),
                }
            }
            (_, Some(x)) => return Err(self.asm_err(format!("unsupported operand modifier %{x}"))),
        })
    }

    pub(super) fn inline_asm(&mut self, asm: &InlineAsm) -> Result<(), BackendError> {
        if is_basic_asm(asm) {
            self.flush();
            self.out.push('\t');
            self.out.push_str(&asm.template);
            self.out.push('\n');
            return Ok(());
        }
        let pieces = parse_template(&asm.template, true).map_err(|m| self.asm_err(m))?;
        let frame = self.layout.size() as i64;
        let p = plan(asm, &self.types, &self.layout, frame).map_err(|m| self.asm_err(m))?;
        let no = asm.outputs.len();
        // x87 inputs first: pushing a constant goes through memory only,
        // a float or double through xmm0.
        let (_, x87_kept) = self.asm_x87_inputs(asm, &p)?;
        if (0..no).any(|k| matches!(p.locs[k], Loc::X87(_)) && p.read_write[k]) {
            return Err(self.asm_err("read-write x87 asm output ('+t') not split into an output and a tied input"));
        }
        // Inputs: SSE registers first (their constants go through rax).
        for pass in 0..2 {
            for (i, inp) in asm.inputs.iter().enumerate() {
                let loc = p.locs[no + i].clone();
                if matches!(loc, Loc::Xmm(_)) != (pass == 0) {
                    continue;
                }
                let ty = asm.input_type(i);
                self.asm_load(&loc, &inp.value, ty, seg_of(asm, no + i))?;
            }
            // Read-write outputs and indirect memory outputs need their address/value too.
            for (k, o) in asm.outputs.iter().enumerate() {
                let loc = p.locs[k].clone();
                if matches!(loc, Loc::Xmm(_)) != (pass == 0) {
                    continue;
                }
                match &loc {
                    Loc::Indirect(g) if !o.is_def => {
                        self.load_int(&Operand::Value(o.value), IrType::Ptr, false, *g)?;
                    }
                    Loc::Reg(g) if p.read_write[k] && !o.is_def => {
                        // `+r` not split by lowering: read the current value through the pointer.
                        let ty = asm.output_type(k);
                        let seg = seg_of(asm, k);
                        let src = match self.layout.home(o.value) {
                            Home::Alloca { offset, align } if align <= 16 && seg == AddressSpace::Default => {
                                self.area(offset)
                            }
                            _ => {
                                self.load_int(&Operand::Value(o.value), IrType::Ptr, false, *g)?;
                                Mem { seg, ..Mem::new(*g, 0) }
                            }
                        };
                        self.load_mem(&src, ty.size().clamp(1, 8), false, *g);
                    }
                    Loc::Xmm(_) if p.read_write[k] && !o.is_def => {
                        return Err(self.asm_err(AsmError::internal(
                            "read-write SSE output ('+x') not split into an output and a tied input",
                        )));
                    }
                    _ => {}
                }
            }
        }
        // The template.
        let uid = self.cx.labels.fresh();
        let text = expand_template(&self.f.name, asm, &pieces, uid, |k, modifier| {
            self.render(&p.locs[k], operand_type(asm, k), modifier, seg_of(asm, k))
        })?;
        self.flush();
        self.out.push('\t');
        self.out.push_str(&text);
        self.out.push('\n');
        // The x87 outputs (st(0) first) popped to their spill slots, then
        // the inputs the asm left popped and dropped.
        let output_in = |r: u8| (0..no).find(|&k| p.locs[k] == Loc::X87(r));
        if output_in(1).is_some() && output_in(0).is_none() {
            return Err(self.asm_err("an x87 asm output in %st(1) without one in %st(0)"));
        }
        let mut x87_out = Vec::new();
        for k in [output_in(0), output_in(1)].into_iter().flatten() {
            let s = self.area(self.asm_spill).at(16 * k as i64);
            emit!(self, "\tfstpt\t{s}");
            x87_out.push((k, s));
        }
        for _ in 0..x87_kept {
            emit!(self, "\tfstp\t%st(0)");
        }
        // Outputs, on the fall-through path: direct stores first, then
        // spill the rest and store them through their pointers.
        let mut indirect = Vec::new();
        for (k, o) in asm.outputs.iter().enumerate() {
            let ty = asm.output_type(k);
            let loc = p.locs[k].clone();
            if !matches!(loc, Loc::Reg(_) | Loc::Xmm(_)) {
                continue;
            }
            let direct = if o.is_def {
                Some(self.slot(o.value)?)
            } else {
                match self.layout.home(o.value) {
                    Home::Alloca { offset, align } if align <= 16 && seg_of(asm, k) == AddressSpace::Default => {
                        Some(self.area(offset))
                    }
                    _ => None,
                }
            };
            match direct {
                Some(m) => self.asm_store(&loc, ty, &m),
                None => {
                    let s = self.area(self.asm_spill).at(16 * k as i64);
                    self.asm_store(&loc, IrType::I64, &s);
                    indirect.push((k, s));
                }
            }
        }
        for (k, spill) in indirect {
            let ty = asm.output_type(k);
            let o = &asm.outputs[k];
            emit!(self, "\tmovq\t{spill}, %rax");
            let dst = self.addr_of(o.value, seg_of(asm, k), Gpr::R11)?;
            self.store_mem(Gpr::Rax, ty.size().clamp(1, 8), &dst);
        }
        for (k, spill) in x87_out {
            let o = &asm.outputs[k];
            let dst = if o.is_def {
                self.slot(o.value)?
            } else {
                self.addr_of(o.value, seg_of(asm, k), Gpr::R11)?
            };
            emit!(self, "\tfldt\t{spill}");
            let st = match asm.output_type(k) {
                IrType::F32 => "fstps",
                IrType::F64 => "fstpl",
                _ => "fstpt",
            };
            emit!(self, "\t{st}\t{dst}");
        }
        Ok(())
    }

    fn asm_store(&mut self, loc: &Loc, ty: IrType, m: &Mem) {
        match loc {
            Loc::Reg(g) => self.store_mem(*g, ty.size().clamp(1, 8), m),
            Loc::Xmm(x) => match ty {
                IrType::F32 => emit!(self, "\tmovss\t%xmm{x}, {m}"),
                _ => emit!(self, "\tmovsd\t%xmm{x}, {m}"),
            },
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(c: &str) -> Result<crate::backend::inline_asm::Constraint<Wants>, String> {
        parse_constraint(c)
    }

    #[test]
    fn constraints() {
        let w = parse("=&r").unwrap();
        assert!(w.class.gpr && w.early_clobber && !w.read_write);
        assert_eq!(parse("+a").unwrap().class.fixed, Some(Gpr::Rax));
        assert_eq!(parse("0").unwrap().tied, Some(0));
        assert_eq!(parse("12").unwrap().tied, Some(12));
        let g = parse("g").unwrap().class;
        assert!(g.gpr && g.mem && g.imm);
        assert!(parse("r,m").unwrap().class.gpr);
        assert!(!parse("m,r").unwrap().class.gpr);
        assert!(parse("Yz").unwrap().class.xmm);
        assert_eq!(parse("=t").unwrap().class.x87, Some(0));
        assert_eq!(parse("u").unwrap().class.x87, Some(1));
        assert!(parse("f").is_err());
        assert_eq!(parse("{r10}").unwrap().class.fixed, Some(Gpr::R10));
        assert!(parse("{rsp}").is_err());
    }
}
