//! GNU extended inline asm on AArch64 (gcc manual, "Extended Asm", "Simple
//! Constraints", "Machine Constraints: AArch64 family", "AArch64 Operand
//! Modifiers").
//!
//! Constraints: `r` (a general register), `w` (a SIMD/FP register; `x` and
//! `y` are its `v0..v15` and `v0..v7` subsets), `m` `Q` `o` `V` `Ump`
//! (memory: the address in a general register, rendered `[xN]`, which every
//! memory instruction accepts), `i` `n` (any constant), the immediate
//! classes `I` (ADD immediate), `J` (negated ADD immediate), `K`/`L`
//! (32/64-bit logical immediate), `M`/`N` (32/64-bit MOV immediate), `S`
//! (a symbol), `Z` (the constant zero, rendered as the zero register), `g`
//! and `X` (a constant as an immediate, else a register), digits (tied to
//! that output), `{xN}` (exactly that general register: a local register
//! variable), with the `= + &` prefixes; only the first of
//! comma-separated alternatives counts. A constant that does not fit the
//! immediate class falls back to a register when the constraint allows one.
//!
//! Every register operand gets a distinct register (so early-clobber
//! outputs never share with inputs), a tied input its output's register.
//! Registers come from `x9..x15 x0..x8 x19..x28` and `v16..v31 v0..v7
//! v8..v15`; `x16`/`x17` stay free for the emitter, `x18`, `x29`, `x30`
//! and `sp` are never operands. Registers named in the clobber list are
//! never used; a callee-saved register (`x19..x28`, `d8..d15`) the asm uses
//! or clobbers is saved by the prologue.
//!
//! Emission: load the inputs (vector registers first, since their
//! constants go through `x9`), print the template with operands rendered,
//! then, on the fall-through path only, store the outputs (through `x16`
//! when the destination is a pointer). `asm goto` labels (`%l0`,
//! `%l[name]`) are block labels, so a jump skips the output stores.
//!
//! Modifiers: `w`/`x` (32/64-bit general register name; on the constant 0,
//! `wzr`/`xzr`), `b h s d q` (scalar SIMD register names), `c` (a bare
//! constant), `a` (a memory address), `l` (a goto label).

use super::regs::{is_add_imm, is_logical_imm, is_mov_imm, Mem, Vr, Xr, PTR};
use super::{emit, FnEmitter, HomeReg};
use crate::backend::asm_template::{is_basic_asm, parse_template, AsmError};
use crate::backend::frame::{FrameLayout, Home};
use crate::backend::inline_asm::{
    assign_locations, constraint_of, expand_template, operand_type, parse_constraints, registers_used, ConstraintClass,
    Plan,
};
use crate::backend::isel::EmitterBase;
use crate::backend::BackendError;
use crate::ir::instruction::{InlineAsm, Operand};
use crate::ir::types::IrType;
use std::fmt::Write as _;

/// Where an operand lives while the asm runs.
#[derive(Clone, Debug, PartialEq)]
enum Loc {
    Reg(Xr),
    Vreg(Vr),
    /// Memory whose address is loaded into this register.
    Mem(Xr),
    Imm {
        value: i64,
        symbol: Option<String>,
    },
}

/// What a constraint's AArch64 letters ask for.
#[derive(Clone, Debug, Default)]
struct Wants {
    gpr: bool,
    fpr: bool,
    /// Highest vector register number allowed (`x`: 15, `y`: 7).
    fpr_max: u8,
    mem: bool,
    /// Immediate classes accepted (`i`, `n`, `I`..`N`, `S`, `Z`).
    imm: Vec<char>,
    /// `{xN}`: exactly this general register (a local register variable).
    fixed: Option<Xr>,
}

impl ConstraintClass for Wants {
    fn empty() -> Wants {
        Wants {
            fpr_max: 31,
            ..Wants::default()
        }
    }

    fn letter(&mut self, ch: char, rest: &[char], c: &str) -> Result<usize, String> {
        match ch {
            'r' => self.gpr = true,
            'w' => self.fpr = true,
            'x' => {
                self.fpr = true;
                self.fpr_max = self.fpr_max.min(15);
            }
            'y' => {
                self.fpr = true;
                self.fpr_max = self.fpr_max.min(7);
            }
            'm' | 'Q' | 'o' | 'V' | '<' | '>' => self.mem = true,
            'U' => {
                // Ump, Utv, Utq, Uts, Utf: memory forms; other U classes are SVE/SME registers.
                let sub: String = rest.iter().take(2).collect();
                if !matches!(sub.as_str(), "mp" | "tv" | "tq" | "ts" | "tf") {
                    return Err(format!("unsupported asm constraint '{c}'"));
                }
                self.mem = true;
                return Ok(2);
            }
            'i' | 'n' | 'I' | 'J' | 'K' | 'L' | 'M' | 'N' | 'S' | 'Z' | 's' => self.imm.push(ch),
            'g' => {
                self.gpr = true;
                self.mem = true;
                self.imm.push('i');
            }
            'X' => {
                self.gpr = true;
                self.imm.push('i');
            }
            'k' | 'p' | 'Y' => return Err(format!("unsupported asm constraint '{c}'")),
            _ => return Err(format!("unknown asm constraint '{c}'")),
        }
        Ok(0)
    }

    fn fixed(&mut self, name: &str) -> bool {
        match Xr::parse(name) {
            Some(x) if !matches!(x.0, 16..=18 | 29..) => {
                self.fixed = Some(x);
                true
            }
            _ => false,
        }
    }
}

/// Whether constant `v` (an operand of `bits` bits) fits immediate class `class`.
fn fits_class(class: char, v: i64, bits: u32) -> bool {
    match class {
        'i' | 'n' => true,
        'I' => v >= 0 && is_add_imm(v as u64),
        'J' => v < 0 && is_add_imm(v.unsigned_abs()),
        'K' => is_logical_imm(v as u64, 32),
        'L' => is_logical_imm(v as u64, 64),
        'M' => is_mov_imm(v as u64, 32),
        'N' => is_mov_imm(v as u64, 64),
        'Z' => v == 0,
        _ => {
            let _ = bits;
            false
        }
    }
}

fn gpr_pool() -> impl Iterator<Item = Xr> {
    (9..=15).chain(0..=8).chain(19..=28).map(Xr)
}

fn fpr_pool() -> impl Iterator<Item = Vr> {
    (16..=31).chain(0..=7).chain(8..=15).map(Vr)
}

/// Assigns a location to every operand.
fn plan(asm: &InlineAsm, layout: &FrameLayout) -> Result<Plan<Loc>, AsmError> {
    let mut taken_x: Vec<Xr> = vec![Xr(16), Xr(17), Xr(18), Xr(29), Xr(30)];
    let mut taken_v: Vec<Vr> = Vec::new();
    for c in &asm.clobbers {
        if let Some(x) = Xr::parse(c) {
            if x == Xr(29) {
                return Err("the asm clobbers the frame pointer x29".into());
            }
            taken_x.push(x);
        } else if let Some(v) = Vr::parse(c) {
            taken_v.push(v);
        }
    }
    let wants = parse_constraints::<Wants>(asm)?;
    // Fixed registers are reserved first.
    for w in &wants {
        if let Some(x) = w.class.fixed {
            if taken_x.contains(&x) {
                return Err(format!("asm operand in {} which the asm clobbers", x.x()).into());
            }
        }
    }
    taken_x.extend(wants.iter().filter_map(|w| w.class.fixed));
    let fresh_x = |taken: &mut Vec<Xr>| -> Result<Xr, String> {
        let x = gpr_pool()
            .find(|x| !taken.contains(x))
            .ok_or("the asm needs more general registers than are free")?;
        taken.push(x);
        Ok(x)
    };
    assign_locations(asm, &wants, "operand", |o, w, _| {
        let w = &w.class;
        let (k, ty, is_output) = (o.k, o.ty, o.is_output);
        let symbol = o.symbol.clone();
        let int_ty = if ty.is_int_or_ptr() { ty } else { IrType::I64 };
        let value = o.constant.map(|c| FnEmitter::const_i64(&c, int_ty, int_ty.is_signed()));
        let imm_ok = !is_output
            && match (value, &symbol) {
                (_, Some(_)) => w.imm.iter().any(|&c| matches!(c, 'i' | 'S' | 's')),
                (Some(v), None) => w.imm.iter().any(|&c| fits_class(c, v, ty.bits())),
                (None, None) => false,
            };
        let loc = if imm_ok {
            Loc::Imm {
                value: value.unwrap_or(0),
                symbol,
            }
        } else if let Some(x) = w.fixed {
            Loc::Reg(x)
        } else if w.gpr && ty.size() <= 8 {
            Loc::Reg(fresh_x(&mut taken_x)?)
        } else if w.fpr {
            let v = fpr_pool()
                .find(|v| v.0 <= w.fpr_max && !taken_v.contains(v))
                .ok_or("the asm needs more vector registers than are free")?;
            taken_v.push(v);
            Loc::Vreg(v)
        } else if w.mem {
            if is_output && asm.outputs[k].is_def && !matches!(layout.home(asm.outputs[k].value), Home::Slot(_)) {
                return Err(AsmError::internal("memory output without a slot"));
            }
            Loc::Mem(fresh_x(&mut taken_x)?)
        } else if !w.imm.is_empty() {
            return Err(AsmError::from(match value {
                Some(v) => format!(
                    "constant {v} does not fit constraint '{}' of operand {k}",
                    constraint_of(asm, k)
                ),
                None => format!("operand {k} needs a constant ('{}')", constraint_of(asm, k)),
            }));
        } else {
            return Err(format!("impossible constraint '{}' for {ty}", constraint_of(asm, k)).into());
        };
        Ok(loc)
    })
}

/// The callee-saved registers an asm statement uses or clobbers (the
/// prologue saves them).
pub(super) fn callee_saved_used(asm: &InlineAsm, layout: &FrameLayout) -> Result<Vec<HomeReg>, AsmError> {
    registers_used(
        asm,
        |c| Xr::parse(c).map(HomeReg::X).or_else(|| Vr::parse(c).map(HomeReg::V)),
        || plan(asm, layout),
        |l| match l {
            Loc::Reg(x) | Loc::Mem(x) => Some(HomeReg::X(*x)),
            Loc::Vreg(v) => Some(HomeReg::V(*v)),
            Loc::Imm { .. } => None,
        },
        |r| match r {
            HomeReg::X(x) => x.is_callee_saved(),
            HomeReg::V(v) => v.is_callee_saved(),
        },
    )
}

impl FnEmitter<'_, '_> {
    /// Loads an input into its location.
    fn asm_load(&mut self, loc: &Loc, op: &Operand, ty: IrType) -> Result<(), BackendError> {
        match loc {
            Loc::Reg(x) => {
                if ty.size() > 8 {
                    return Err(self.asm_err(format!("a {ty} operand does not fit a general register")));
                }
                self.load(op, ty, *x)
            }
            Loc::Vreg(v) => match ty {
                IrType::F32 | IrType::F64 | IrType::F128 => self.load_fp(op, ty, *v),
                t if t.is_128() => {
                    self.load_pair(op, Xr(9), Xr(10))?;
                    emit!(self, "\tfmov\t{}, x9", v.d());
                    emit!(self, "\tfmov\tv{}.d[1], x10", v.0);
                    Ok(())
                }
                _ => {
                    self.load(op, ty, Xr(9))?;
                    emit!(self, "\tfmov\t{}, x9", v.d());
                    Ok(())
                }
            },
            Loc::Mem(x) => self.load_int(op, IrType::Ptr, false, *x),
            Loc::Imm { .. } => Ok(()),
        }
    }

    fn render(&self, loc: &Loc, ty: IrType, modifier: Option<char>) -> Result<String, BackendError> {
        Ok(match (loc, modifier) {
            (Loc::Reg(x), None | Some('x')) => x.x().to_string(),
            (Loc::Reg(x), Some('w')) => x.w().to_string(),
            (Loc::Reg(x), Some('a')) => format!("[{}]", x.x()),
            (Loc::Vreg(v), None) => format!("v{}", v.0),
            (Loc::Vreg(v), Some('b')) => v.sized(1),
            (Loc::Vreg(v), Some('h')) => v.sized(2),
            (Loc::Vreg(v), Some('s')) => v.sized(4),
            (Loc::Vreg(v), Some('d')) => v.sized(8),
            (Loc::Vreg(v), Some('q')) => v.sized(16),
            (Loc::Mem(x), None | Some('a')) => format!("[{}]", x.x()),
            (Loc::Imm { value, symbol }, m) => match (symbol, m) {
                (Some(s), None | Some('c' | 'a')) if *value != 0 => format!("{}{value:+}", crate::backend::symbol(s)),
                (Some(s), None | Some('c' | 'a')) => crate::backend::symbol(s),
                (None, Some('w')) if *value == 0 => "wzr".into(),
                (None, Some('x')) if *value == 0 => "xzr".into(),
                (None, None | Some('c')) => format!("{value}"),
                (_, Some(x)) => return Err(self.asm_err(format!("modifier %{x} on a constant"))),
            },
            (_, Some(x)) => {
                let _ = ty;
                return Err(self.asm_err(format!("unsupported operand modifier %{x}")));
            }
        })
    }

    /// Stores output register `loc` as a `ty` into `m`.
    fn asm_store(&mut self, loc: &Loc, ty: IrType, m: Mem) {
        match loc {
            Loc::Reg(x) => self.store_mem(*x, ty.size().clamp(1, 8), m),
            Loc::Vreg(v) => {
                // The low `size` bytes of the vector register (b, h, s, d or q).
                let size = match ty.size() {
                    0 | 1 => 1,
                    2 => 2,
                    3 | 4 => 4,
                    5..=8 => 8,
                    _ => 16,
                };
                self.mem_op("str", &v.sized(size), size, m);
            }
            _ => {}
        }
    }

    pub(super) fn inline_asm(&mut self, asm: &InlineAsm) -> Result<(), BackendError> {
        if is_basic_asm(asm) {
            self.out.push('\t');
            self.out.push_str(&asm.template);
            self.out.push('\n');
            return Ok(());
        }
        let pieces = parse_template(&asm.template, false).map_err(|m| self.asm_err(m))?;
        let p = plan(asm, &self.layout).map_err(|m| self.asm_err(m))?;
        let no = asm.outputs.len();
        // Inputs and read-write outputs: vector registers first (their
        // constants go through x9), then general registers and addresses.
        for pass in 0..2 {
            for (i, inp) in asm.inputs.iter().enumerate() {
                let loc = p.locs[no + i].clone();
                if matches!(loc, Loc::Vreg(_)) != (pass == 0) {
                    continue;
                }
                self.asm_load(&loc, &inp.value, asm.input_type(i))?;
            }
            for (k, o) in asm.outputs.iter().enumerate() {
                let loc = p.locs[k].clone();
                if matches!(loc, Loc::Vreg(_)) != (pass == 0) {
                    continue;
                }
                let ty = asm.output_type(k);
                match &loc {
                    Loc::Mem(x) if o.is_def => {
                        let m = self.slot(o.value)?;
                        self.add_imm(*x, m.base, m.disp);
                    }
                    Loc::Mem(x) => self.pointer_into(o.value, *x)?,
                    Loc::Reg(x) if p.read_write[k] && !o.is_def => {
                        // `+r` not split by lowering: read the current value through the pointer.
                        let src = self.addr_of(o.value, PTR)?;
                        self.load_mem(src, ty.size().clamp(1, 8), false, *x);
                    }
                    Loc::Vreg(v) if p.read_write[k] && !o.is_def => {
                        let src = self.addr_of(o.value, PTR)?;
                        let size = match ty.size() {
                            0 | 1 => 1,
                            2 => 2,
                            3 | 4 => 4,
                            5..=8 => 8,
                            _ => 16,
                        };
                        self.mem_op("ldr", &v.sized(size), size, src);
                    }
                    _ => {}
                }
            }
        }
        // The template.
        let uid = self.cx.labels.fresh();
        let text = expand_template(&self.f.name, asm, &pieces, uid, |k, modifier| {
            self.render(&p.locs[k], operand_type(asm, k), modifier)
        })?;
        self.out.push('\t');
        self.out.push_str(&text);
        self.out.push('\n');
        // Outputs, on the fall-through path only.
        for (k, o) in asm.outputs.iter().enumerate() {
            let ty = asm.output_type(k);
            let loc = p.locs[k].clone();
            if !matches!(loc, Loc::Reg(_) | Loc::Vreg(_)) {
                continue;
            }
            let dst = if o.is_def {
                self.slot(o.value)?
            } else {
                self.addr_of(o.value, PTR)?
            };
            self.asm_store(&loc, ty, dst);
        }
        Ok(())
    }
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
        assert!(w.class.gpr && !w.read_write);
        assert!(parse_constraint("+w").unwrap().read_write);
        assert_eq!(parse_constraint("0").unwrap().tied, Some(0));
        assert_eq!(parse_constraint("12").unwrap().tied, Some(12));
        let g = parse_constraint("rZ").unwrap();
        assert!(g.class.gpr && g.class.imm == vec!['Z']);
        assert!(parse_constraint("Q").unwrap().class.mem);
        assert!(parse_constraint("Ump").unwrap().class.mem);
        assert_eq!(parse_constraint("x").unwrap().class.fpr_max, 15);
        assert!(parse_constraint("r,m").unwrap().class.gpr);
        assert!(!parse_constraint("m,r").unwrap().class.gpr);
        assert!(parse_constraint("Upa").is_err()); // an SVE predicate register
        assert!(parse_constraint("k").is_err());
        assert!(parse_constraint("t").is_err());
        assert_eq!(parse_constraint("{x3}").unwrap().class.fixed, Some(Xr(3)));
        assert!(parse_constraint("{x29}").is_err());
    }

    #[test]
    fn immediate_classes() {
        assert!(fits_class('I', 4095, 64) && fits_class('I', 4096, 64) && !fits_class('I', 4097, 64));
        assert!(fits_class('J', -1, 64) && !fits_class('J', 1, 64));
        assert!(fits_class('K', 0xff00, 32) && !fits_class('K', 0x1234, 32));
        assert!(fits_class('L', 0x00ff_00ff_00ff_00ff, 64));
        assert!(fits_class('M', 0xffff_0000, 32) && !fits_class('M', 0x1_0001, 32));
        assert!(fits_class('N', -2, 64));
        assert!(fits_class('Z', 0, 64) && !fits_class('Z', 1, 64));
    }
}
