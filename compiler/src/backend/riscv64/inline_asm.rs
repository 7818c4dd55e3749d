//! GNU extended inline asm on RISC-V (gcc manual, "Extended Asm", "Simple
//! Constraints", "Machine Constraints: RISC-V", and gcc's
//! `riscv_print_operand` for the modifiers).
//!
//! Constraints: `r` (an integer register), `f` (an FP register), `m` (a
//! memory operand `disp(reg)`), `A` (memory addressed by a register alone,
//! printed `0(reg)`, for AMOs and LR/SC), `i`/`n`/`s` (any constant or
//! symbol), `I` (a 12-bit signed constant), `J` (zero), `K` (a 5-bit
//! unsigned constant), `g` (constant, else register), digits (tied to that
//! output), `{reg}` (exactly that integer register: a local register
//! variable), with the `= + &` prefixes. Letters of one alternative combine
//! (`rJ`: zero as an immediate, anything else in a register); only the
//! first of comma-separated alternatives counts. Every register operand gets
//! a distinct register (so early-clobber outputs never share with inputs),
//! a tied input its output's register, a memory operand a frame address or a
//! register holding its address. Registers named in the clobber list are
//! never used; callee-saved registers the asm uses or clobbers are saved by
//! the prologue. `t6` (the displacement register), `s0`, `sp`, `gp`, `tp`
//! and `ra` are never allocated.
//!
//! Emission: load the inputs, print the template with operands rendered,
//! then, on the fall-through path only (an `asm goto` jumps away from inside
//! the template), store the outputs: straight to a slot or an `alloca`,
//! otherwise spilled first and stored through their pointers.
//!
//! Modifiers: `z` (the `zero` register for a constant 0), `i` (the letter
//! `i` when the operand is a constant, for `add%i2`), `l` (a goto label).

use super::regs::{fits_i12, is_callee_saved_fpr, is_callee_saved_gpr, Fpr, Gpr, Mem, S0, T0};
use super::{emit, FnEmitter, RegHome};
use crate::backend::asm_template::{is_basic_asm, parse_template, AsmError};
use crate::backend::frame::{FrameLayout, Home};
use crate::backend::inline_asm::{
    assign_locations, constraint_of, expand_template, parse_constraints, registers_used, ConstraintClass, Plan,
};
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{InlineAsm, Operand};
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// Where an operand lives while the asm runs.
#[derive(Clone, Debug, PartialEq)]
enum Loc {
    Reg(Gpr),
    Freg(Fpr),
    /// Memory at a frame location (`disp(s0)`, a 12-bit displacement).
    Frame(i64),
    /// Memory whose address is loaded into this register.
    Indirect(Gpr),
    Imm {
        value: i64,
        symbol: Option<String>,
    },
}

/// What a constraint's RISC-V letters ask for.
#[derive(Clone, Debug, Default)]
struct Wants {
    gpr: bool,
    fpr: bool,
    mem: bool,
    /// Register-addressed memory only (`A`).
    mem_reg: bool,
    /// Which constants are accepted as immediates.
    imm_any: bool,
    imm_i: bool,
    imm_j: bool,
    imm_k: bool,
    /// `{reg}`: exactly this integer register (a local register variable).
    fixed: Option<Gpr>,
}

impl Wants {
    fn accepts_imm(&self, v: i64, symbolic: bool) -> bool {
        if symbolic {
            return self.imm_any;
        }
        self.imm_any || (self.imm_i && fits_i12(v)) || (self.imm_j && v == 0) || (self.imm_k && (0..32).contains(&v))
    }

    fn any_imm(&self) -> bool {
        self.imm_any || self.imm_i || self.imm_j || self.imm_k
    }
}

impl ConstraintClass for Wants {
    fn empty() -> Wants {
        Wants::default()
    }

    fn letter(&mut self, ch: char, rest: &[char], c: &str) -> Result<usize, String> {
        match ch {
            'r' | 'p' => self.gpr = true,
            'f' => self.fpr = true,
            'm' | 'o' | 'V' | '<' | '>' => self.mem = true,
            'A' => {
                self.mem = true;
                self.mem_reg = true;
            }
            'i' | 'n' | 's' | 'E' | 'F' => self.imm_any = true,
            'I' => self.imm_i = true,
            'J' => self.imm_j = true,
            'K' => self.imm_k = true,
            'g' | 'X' => {
                self.gpr = true;
                self.mem = true;
                self.imm_any = true;
            }
            'c' if rest.first().is_some_and(|x| *x == 'r' || *x == 'f') => {
                // `cr`/`cf`: the registers of compressed instructions (x8..x15, f8..f15).
                return Err(format!("unsupported asm constraint '{c}'"));
            }
            _ => return Err(format!("unknown asm constraint '{c}'")),
        }
        Ok(0)
    }

    fn fixed(&mut self, name: &str) -> bool {
        match Gpr::parse(name) {
            Some(g) if GPR_POOL.contains(&g.0) => {
                self.fixed = Some(g);
                true
            }
            _ => false,
        }
    }
}

/// Integer registers handed to operands, in order of preference.
const GPR_POOL: [u8; 25] = [
    10, 11, 12, 13, 14, 15, 16, 17, // a0..a7
    5, 6, 7, 28, 29, 30, // t0..t5
    9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, // s1..s11
];

/// FP registers handed to operands, in order of preference.
const FPR_POOL: [u8; 32] = [
    10, 11, 12, 13, 14, 15, 16, 17, 0, 1, 2, 3, 4, 5, 6, 7, 28, 29, 30, 31, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26,
    27,
];

/// Assigns a location to every operand. `area_top` converts frame offsets
/// to `s0` displacements.
fn plan(asm: &InlineAsm, layout: &FrameLayout, area_top: i64) -> Result<Plan<Loc>, AsmError> {
    let no = asm.outputs.len();
    let mut taken: Vec<Gpr> = Vec::new();
    let mut ftaken: Vec<Fpr> = Vec::new();
    for c in &asm.clobbers {
        if let Some(g) = Gpr::parse(c) {
            if matches!(g.0, 2 | 8) {
                return Err(format!("inline asm clobbers {}, which the frame needs", g.name()).into());
            }
            taken.push(g);
        } else if let Some(f) = Fpr::parse(c) {
            ftaken.push(f);
        }
    }
    let wants = parse_constraints::<Wants>(asm)?;
    // Fixed registers are reserved first.
    for w in &wants {
        if let Some(g) = w.class.fixed {
            if taken.contains(&g) {
                return Err(format!("asm operand in {} which the asm clobbers", g.name()).into());
            }
        }
    }
    taken.extend(wants.iter().filter_map(|w| w.class.fixed));
    let fresh_gpr = |taken: &mut Vec<Gpr>| -> Result<Gpr, String> {
        let g = GPR_POOL
            .iter()
            .map(|&k| Gpr(k))
            .find(|g| !taken.contains(g))
            .ok_or("inline asm needs more registers than are free")?;
        taken.push(g);
        Ok(g)
    };
    assign_locations(asm, &wants, "asm operand", |o, w, _| {
        let w = &w.class;
        let (k, ty, is_output, symbol) = (o.k, o.ty, o.is_output, o.symbol.clone());
        let const_value = o
            .constant
            .map(|c| FnEmitter::const_i64(&c, if ty.is_int_or_ptr() { ty } else { IrType::I64 }, ty.is_signed()));
        let loc = if !is_output
            && w.any_imm()
            && (const_value.is_some() || symbol.is_some())
            && w.accepts_imm(const_value.unwrap_or(0), symbol.is_some())
        {
            Loc::Imm {
                value: const_value.unwrap_or(0),
                symbol,
            }
        } else if let Some(g) = w.fixed {
            Loc::Reg(g)
        } else if w.gpr && ty.size() <= 8 {
            Loc::Reg(fresh_gpr(&mut taken)?)
        } else if w.fpr {
            let f = FPR_POOL
                .iter()
                .map(|&k| Fpr(k))
                .find(|f| !ftaken.contains(f))
                .ok_or("inline asm needs more FP registers than are free")?;
            ftaken.push(f);
            Loc::Freg(f)
        } else if w.mem {
            // The operand is an address (alloca form), or for a promoted
            // output the value's own slot.
            let home = if is_output {
                let o = &asm.outputs[k];
                if o.is_def {
                    match layout.home(o.value) {
                        Home::Slot(off) => Some(Home::Alloca { offset: off, align: 8 }),
                        _ => return Err(AsmError::internal("memory output without a slot")),
                    }
                } else {
                    Some(layout.home(o.value))
                }
            } else {
                asm.inputs[k - no].value.as_value().map(|v| layout.home(v))
            };
            match home {
                Some(Home::Alloca { offset, align })
                    if align <= 16 && !w.mem_reg && fits_i12(offset as i64 - area_top) =>
                {
                    Loc::Frame(offset as i64 - area_top)
                }
                Some(Home::FrameAddr(o)) if !w.mem_reg && fits_i12(o - area_top) => Loc::Frame(o - area_top),
                _ => Loc::Indirect(fresh_gpr(&mut taken)?),
            }
        } else if w.any_imm() {
            return Err(format!("asm operand {k} needs a constant that fits '{}'", constraint_of(asm, k)).into());
        } else {
            return Err(format!("impossible asm constraint '{}' for {ty}", constraint_of(asm, k)).into());
        };
        Ok(loc)
    })
}

/// The callee-saved registers an asm statement uses or clobbers (the
/// prologue saves them).
pub(super) fn callee_saved_used(asm: &InlineAsm, layout: &FrameLayout) -> Result<Vec<RegHome>, AsmError> {
    registers_used(
        asm,
        |c| Gpr::parse(c).map(RegHome::G).or_else(|| Fpr::parse(c).map(RegHome::F)),
        || plan(asm, layout, 0),
        |l| match l {
            Loc::Reg(r) | Loc::Indirect(r) => Some(RegHome::G(*r)),
            Loc::Freg(r) => Some(RegHome::F(*r)),
            Loc::Frame(_) | Loc::Imm { .. } => None,
        },
        |r| match r {
            RegHome::G(g) => is_callee_saved_gpr(*g),
            RegHome::F(f) => is_callee_saved_fpr(*f),
        },
    )
}

impl FnEmitter<'_, '_> {
    /// Loads an input (or a tied read-write value) into its location.
    fn asm_load(&mut self, loc: &Loc, op: &Operand, ty: IrType) -> Result<(), BackendError> {
        match loc {
            Loc::Reg(g) => {
                if ty.size() > 8 {
                    return Err(self.asm_err(format!("a {ty} operand does not fit a register")));
                }
                self.load_abi(op, ty, *g)
            }
            Loc::Freg(f) => match ty {
                IrType::F32 | IrType::F64 => self.load_f(op, ty, *f),
                _ if ty.size() <= 8 => {
                    self.load_int(op, ty, false, super::regs::T6)?;
                    emit!(self, "\tfmv.d.x\t{f}, t6");
                    Ok(())
                }
                _ => Err(self.asm_err(format!("a {ty} operand does not fit an FP register"))),
            },
            Loc::Indirect(g) => self.load_ptr(op, *g),
            Loc::Frame(_) | Loc::Imm { .. } => Ok(()),
        }
    }

    fn render(&self, loc: &Loc, modifier: Option<char>) -> Result<String, BackendError> {
        Ok(match (loc, modifier) {
            (Loc::Imm { value, .. }, Some('z')) if *value == 0 => "zero".to_string(),
            (Loc::Imm { .. }, Some('i')) => "i".to_string(),
            (_, Some('i')) => String::new(),
            (Loc::Reg(g), None | Some('z')) => g.name().to_string(),
            (Loc::Freg(f), None) => f.name().to_string(),
            (Loc::Frame(d), None) => format!("{d}(s0)"),
            (Loc::Indirect(g), None) => format!("0({g})"),
            (Loc::Imm { value, symbol }, None | Some('z')) => match symbol {
                Some(s) if *value != 0 => format!("{}{value:+}", crate::backend::symbol(s)),
                Some(s) => crate::backend::symbol(s),
                None => format!("{value}"),
            },
            (_, Some(x)) => return Err(self.asm_err(format!("unsupported operand modifier %{x}"))),
        })
    }

    pub(super) fn inline_asm(&mut self, asm: &InlineAsm) -> Result<(), BackendError> {
        if is_basic_asm(asm) {
            self.out.push('\t');
            self.out.push_str(&asm.template);
            self.out.push('\n');
            return Ok(());
        }
        let pieces = parse_template(&asm.template, false).map_err(|m| self.asm_err(m))?;
        let p = plan(asm, &self.layout, self.area_top).map_err(|m| self.asm_err(m))?;
        let no = asm.outputs.len();
        for (i, inp) in asm.inputs.iter().enumerate() {
            let loc = p.locs[no + i].clone();
            self.asm_load(&loc, &inp.value, asm.input_type(i))?;
        }
        // Indirect memory outputs need their address, read-write outputs
        // not split by lowering their current value.
        for (k, o) in asm.outputs.iter().enumerate() {
            let loc = p.locs[k].clone();
            let ty = asm.output_type(k);
            match &loc {
                Loc::Indirect(g) if !o.is_def => self.load_ptr(&Operand::Value(o.value), *g)?,
                Loc::Indirect(g) => {
                    // A promoted memory output: the address of its slot.
                    let m = self.slot(o.value)?;
                    self.add_imm(*g, S0, m.disp);
                }
                Loc::Reg(_) | Loc::Freg(_) if p.read_write[k] && !o.is_def => {
                    let scratch = match loc {
                        Loc::Reg(g) => g,
                        _ => super::regs::T6,
                    };
                    let src = self.addr_of(o.value, scratch)?;
                    match loc {
                        Loc::Reg(g) => self.load_mem(src, ty.size().clamp(1, 8), ty.is_signed(), g),
                        Loc::Freg(f) => self.load_fmem(src, ty, f),
                        _ => unreachable!(),
                    }
                }
                _ => {}
            }
        }
        // The template.
        let uid = self.cx.labels.fresh();
        let text = expand_template(&self.f.name, asm, &pieces, uid, |k, modifier| {
            self.render(&p.locs[k], modifier)
        })?;
        self.out.push('\t');
        self.out.push_str(&text);
        self.out.push('\n');
        // Outputs, on the fall-through path: direct stores first, then
        // spill the rest and store them through their pointers.
        let mut indirect = Vec::new();
        for (k, o) in asm.outputs.iter().enumerate() {
            let ty = asm.output_type(k);
            let loc = p.locs[k].clone();
            if !matches!(loc, Loc::Reg(_) | Loc::Freg(_)) {
                continue;
            }
            let direct = if o.is_def {
                Some(self.slot(o.value)?)
            } else {
                match self.layout.home(o.value) {
                    Home::Alloca { offset, align } if align <= 16 => Some(self.area(offset)),
                    Home::FrameAddr(off) => Some(self.frame_mem(off)),
                    _ => None,
                }
            };
            match direct {
                Some(m) => self.asm_store(&loc, ty, m),
                None => {
                    let s = self.area(self.asm_spill).at(16 * k as i64);
                    self.asm_store(&loc, if loc_is_f(&loc) { IrType::F64 } else { IrType::I64 }, s);
                    indirect.push((k, s));
                }
            }
        }
        for (k, spill) in indirect {
            let ty = asm.output_type(k);
            let o = &asm.outputs[k];
            self.load_mem(spill, 8, false, T0);
            let dst = self.addr_of(o.value, super::regs::T5)?;
            self.store_mem(T0, ty.size().clamp(1, 8), dst);
        }
        Ok(())
    }

    fn asm_store(&mut self, loc: &Loc, ty: IrType, m: Mem) {
        match loc {
            Loc::Reg(g) => self.store_mem(*g, ty.size().clamp(1, 8), m),
            Loc::Freg(f) => match ty {
                IrType::F32 | IrType::F64 => self.store_fmem(*f, ty, m),
                _ => {
                    emit!(self, "\tfmv.x.d\tt6, {f}");
                    self.store_mem(super::regs::T6, ty.size().clamp(1, 8), m);
                }
            },
            _ => {}
        }
    }
}

fn loc_is_f(l: &Loc) -> bool {
    matches!(l, Loc::Freg(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_constraint(c: &str) -> Result<crate::backend::inline_asm::Constraint<Wants>, String> {
        crate::backend::inline_asm::parse_constraint(c)
    }

    #[test]
    fn constraints() {
        let w = parse_constraint("=&r").unwrap();
        assert!(w.class.gpr && w.early_clobber && !w.read_write);
        assert_eq!(parse_constraint("0").unwrap().tied, Some(0));
        assert_eq!(parse_constraint("12").unwrap().tied, Some(12));
        let rj = parse_constraint("rJ").unwrap().class;
        assert!(rj.gpr && rj.accepts_imm(0, false) && !rj.accepts_imm(5, false));
        let i = parse_constraint("I").unwrap().class;
        assert!(i.accepts_imm(-2048, false) && !i.accepts_imm(2048, false) && !i.accepts_imm(0, true));
        assert!(parse_constraint("K").unwrap().class.accepts_imm(31, false));
        assert!(!parse_constraint("K").unwrap().class.accepts_imm(32, false));
        let a = parse_constraint("+A").unwrap();
        assert!(a.class.mem && a.class.mem_reg && a.read_write);
        assert!(parse_constraint("f").unwrap().class.fpr);
        assert!(parse_constraint("q").is_err());
        assert!(parse_constraint("cr").is_err());
    }
}
