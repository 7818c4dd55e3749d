//! Inline asm: per-target `asm goto` with output operands, and empty-template
//! asm with tied operands (GCC manual, "Extended Asm" and "Goto Labels").
//!
//! Every `asm goto` computes the same function on every target, so a
//! program prints the same checksum on x86-64, AArch64 and RISC-V 64 (and
//! with the plain-C `#else` used by other compilers):
//!
//! - `Not`: out = ~in; jump to the first label when `in` has its sign bit set
//!   (at the operand's width), else to the second label (if any) when
//!   `~in == 0`, else fall through;
//! - `Shl(s)`: out = in << s; jump to the first label when that has its sign
//!   bit set, to the second (if any) when it is 0, else fall through.
//!
//! The templates read every input before writing an output, except that a
//! second output is written first and is therefore early-clobber (`=&r`).
//! On RISC-V, 32-bit values are produced with the `w` instructions so that
//! they stay sign-extended as the LP64 ABI keeps them. Outputs are only
//! defined on the fall-through path (GCC: "outputs are only valid on the
//! fallthrough path" for older compilers): the code at each label assigns
//! every output again before anything can read it, then mixes it into the
//! checksum. The one exception is the first label of a `+r` `Not`, which
//! the template reaches before writing the operand: there it keeps its old
//! value on every compiler, and the label reads it (a definition of the
//! asm leaking onto its goto edge shows). That mix is not only for observability: GCC 12.2 at -O1 and
//! above moves a label block that holds nothing but `x = constant` onto the
//! asm goto edge, in front of the asm, whose output then overwrites it (a
//! reference-compiler bug the programs must not trigger). GCC 12 also
//! deletes an `asm goto` whose outputs are dead unless it is written
//! `volatile`, so every one is.
//!
//! Two shapes aim at mem2reg's asm-goto snapshots: the last label is often
//! also the join of the fall-through path (the fall-through code runs into
//! it), and a variable is often assigned right after the asm, in its block,
//! and read first thing at every label, where it must still hold its value
//! from before the asm.

use super::expr::ExprCtx;
use super::function::FnGen;
use super::types::{CType, Scalar, ASM_SCALARS};
use phicc::target::Target;

#[derive(Clone, Copy)]
enum Sem {
    Not,
    Shl(u32),
}

/// How operands and labels are referred to in the template.
struct Refs {
    named: bool,
    /// Number of output and input operands (labels are numbered after them).
    operands: usize,
    labels: Vec<String>,
}

impl Refs {
    /// Operand `idx` (named `name`) with AArch64 width modifier `w`/`x` if any.
    fn op(&self, idx: usize, name: &str, modifier: &str) -> String {
        if self.named {
            format!("%{modifier}[{name}]")
        } else {
            format!("%{modifier}{idx}")
        }
    }

    fn label(&self, i: usize) -> String {
        if self.named {
            format!("%l[{}]", self.labels[i])
        } else {
            format!("%l{}", self.operands + i)
        }
    }
}

/// One output operand of an `asm goto`: its lvalue and type.
#[derive(Clone)]
struct Output {
    lvalue: String,
    ty: Scalar,
    /// The variable, when the output is one (else the output is `*p`).
    var: Option<usize>,
}

impl FnGen<'_, '_, '_> {
    /// An lvalue of an asm operand type: a writable variable or `*p`.
    fn asm_output(&mut self, wide_only: bool, avoid: Option<usize>) -> Option<Output> {
        let ok = |s: Scalar| ASM_SCALARS.contains(&s) && (!wide_only || s.bits() == 64);
        let vars: Vec<usize> = self
            .writable(ok)
            .into_iter()
            .filter(|&id| !self.vars[id].volatile && Some(id) != avoid)
            .collect();
        let ptrs: Vec<usize> = self
            .in_scope()
            .filter(|&id| matches!(self.vars[id].ty, CType::Ptr(s) if ok(s)) && !self.vars[id].into_local_array)
            .collect();
        if !ptrs.is_empty() && avoid.is_none() && (vars.is_empty() || self.c.chance(1, 6)) {
            let v = self.vars[ptrs[self.c.index(ptrs.len())]].clone();
            let CType::Ptr(ty) = v.ty else { unreachable!() };
            return Some(Output {
                lvalue: format!("*{}", v.name),
                ty,
                var: None,
            });
        }
        if vars.is_empty() {
            return None;
        }
        let id = vars[self.c.index(vars.len())];
        Some(Output {
            lvalue: self.vars[id].name.clone(),
            ty: self.vars[id].scalar().unwrap(),
            var: Some(id),
        })
    }

    /// An `asm goto` statement with per-target templates, its fall-through
    /// code and the code at each label.
    pub fn asm_goto(&mut self) -> bool {
        // Forms: 0 and 1 outputs, 2 and 4 one `+r` operand, 3 no output.
        let form = self.c.index(5);
        let nlabels = if self.c.chance(1, 3) { 2 } else { 1 };
        let named = self.c.chance(1, 3);
        // A `+r` `Not` jumps to its first label before writing the operand,
        // whose value from before the asm the label then reads: the shape
        // that shows an asm definition leaking onto a goto edge. Favour it.
        let sem = if (form == 2 || form == 4) && self.c.chance(3, 4) || self.c.chance(1, 2) {
            Sem::Not
        } else {
            Sem::Shl(self.c.range(1, 7) as u32)
        };
        let id = self.fresh("asm");
        let labels: Vec<String> = (0..nlabels).map(|i| format!("{id}_to{i}")).collect();
        let done = format!("{id}_done");
        let mut ctx = ExprCtx::default();
        // (outputs, inputs with their types, in-out?)
        let (outs, ins, inout): (Vec<Output>, Vec<(String, Scalar)>, bool) = match form {
            0 | 1 => {
                let Some(o) = self.asm_output(false, None) else {
                    return false;
                };
                let i = self.expr(o.ty, 2, &mut ctx);
                let mut outs = vec![o.clone()];
                let mut ins = vec![(i, o.ty)];
                // Two outputs are two distinct variables: were the first `*p`
                // it might alias the second, and the order in which the asm's
                // outputs are stored is unspecified.
                if form == 1 && o.var.is_some() {
                    if let Some(o2) = self.asm_output(false, o.var).filter(|o2| o2.var.is_some()) {
                        let i2 = self.expr(o2.ty, 1, &mut ctx);
                        ins.push((i2, o2.ty));
                        outs.push(o2);
                    }
                }
                (outs, ins, false)
            }
            2 | 4 => {
                let Some(o) = self.asm_output(true, None) else {
                    return false;
                };
                (vec![o], Vec::new(), true)
            }
            _ => {
                let ty = self.c.pick(&[Scalar::LLong, Scalar::ULLong, Scalar::Long]);
                let i = self.expr(ty, 2, &mut ctx);
                (Vec::new(), vec![(i, ty)], false)
            }
        };
        let refs = Refs {
            named,
            // A `+r` operand counts as an output and an input.
            operands: outs.len() + ins.len() + if inout { outs.len() } else { 0 },
            labels: labels.clone(),
        };
        // `asm goto` is volatile by definition, but GCC 12 deletes one whose
        // outputs are dead unless it says so (then its jumps are lost too).
        let keyword = self.c.pick(&["__asm__ __volatile__ goto", "asm volatile goto"]);
        self.out.open("{");
        // One branch per target, selected by its ISA macro (from the target table).
        for (k, arch) in Target::ALL.into_iter().enumerate() {
            let cpp = format!("#{} defined({})", if k == 0 { "if" } else { "elif" }, arch.arch_macro());
            self.out.directive(&cpp);
            let template = asm_template(arch, sem, &refs, &outs, &ins, inout);
            let outputs: Vec<String> = outs
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    let cons = if inout {
                        "+r"
                    } else if k == 1 {
                        "=&r"
                    } else {
                        "=r"
                    };
                    let name = if named { format!("[o{k}] ") } else { String::new() };
                    format!("{name}\"{cons}\"({})", o.lvalue)
                })
                .collect();
            let inputs: Vec<String> = ins
                .iter()
                .enumerate()
                .map(|(k, (e, _))| {
                    let name = if named { format!("[i{k}] ") } else { String::new() };
                    format!("{name}\"r\"({e})")
                })
                .collect();
            let clobbers = match arch {
                Target::X86_64 => "\"cc\"",
                // AArch64 tests a bit with `tst` (flags) and branches with `b.ne`
                // (±1 MiB): `tbnz` reaches only ±32 KiB, which a large function
                // at -O1 (inlining) can exceed.
                Target::Aarch64 => "\"cc\"",
                Target::Riscv64 => "",
            };
            self.out.line(&format!(
                "{keyword}(\"{template}\" : {} : {} : {clobbers} : {});",
                outputs.join(", "),
                inputs.join(", "),
                labels.join(", ")
            ));
        }
        self.out.directive("#else");
        let fallback = c_fallback(sem, &labels, &outs, &ins, inout);
        self.out.line(&fallback);
        self.out.directive("#endif");
        self.charge();

        // Now and then a variable (neither an output nor of the type of a
        // `*p` output, which could alias it) is assigned right after the
        // asm, in its block, and every label reads it first: along a goto
        // edge it still holds its value from before the asm.
        let pre_asm = if self.c.chance(1, 2) {
            let taken: Vec<usize> = outs.iter().filter_map(|o| o.var).collect();
            let aliased: Vec<Scalar> = outs.iter().filter(|o| o.var.is_none()).map(|o| o.ty).collect();
            let cands = self.writable(|t| !aliased.contains(&t));
            // Locals and parameters: globals stay in memory.
            let cands: Vec<usize> = cands
                .into_iter()
                .filter(|&v| !taken.contains(&v) && self.vars[v].depth > 0 && !self.vars[v].volatile)
                .collect();
            (!cands.is_empty()).then(|| cands[self.c.index(cands.len())])
        } else {
            None
        };
        if let Some(y) = pre_asm {
            self.assign_var(y, 2);
        }
        // Now and then the last label is also the join of the fall-through
        // path: the fall-through code runs into it.
        let join = self.c.chance(1, 2);
        let order: Vec<usize> = if join {
            std::iter::once(nlabels - 1).chain(0..nlabels - 1).collect()
        } else {
            (0..nlabels).collect()
        };

        // The fall-through path, then each label's path, which first assigns
        // every output again.
        let w0 = self.work;
        self.out.open("{");
        self.scoped_body();
        self.out.close("}");
        if !join {
            self.out.line(&format!("goto {done};"));
        }
        let mut worst = self.work - w0;
        // A `+r` output of `Not` still holds its old value on the edge to the
        // first label (the template jumps before writing it): under GCC's
        // rule (outputs are valid on every edge) and phicc's (no output is
        // written along a goto edge) alike, so that label reads it as it is.
        let keeps_old = inout && matches!(sem, Sem::Not);
        for (pos, &i) in order.iter().enumerate() {
            let l = &labels[i];
            // The join also runs after the fall-through path.
            if !(join && pos == 0) {
                self.work = w0;
            }
            self.out.label(l);
            if let Some(y) = pre_asm {
                self.mix_var(y);
            }
            for o in outs.iter().filter(|_| !(keeps_old && i == 0)) {
                let mut ctx = match o.var {
                    Some(v) => ExprCtx::without(v),
                    None => ExprCtx {
                        no_memory: true,
                        // A `*p` output may be any variable of its type.
                        exclude: self
                            .in_scope()
                            .filter(|&v| self.vars[v].ty == CType::Scalar(o.ty))
                            .collect(),
                        ..ExprCtx::default()
                    },
                };
                for other in &outs {
                    if let Some(v) = other.var {
                        ctx.exclude.push(v);
                    }
                }
                let e = self.expr(o.ty, 2, &mut ctx);
                self.out.line(&format!("{} = {e};", o.lvalue));
                self.charge();
            }
            // Never leave a label's block with nothing but constant
            // assignments: GCC 12 then moves them onto the asm goto edge,
            // before the asm, whose outputs overwrite them.
            for o in &outs {
                self.mix_value(&o.lvalue, o.ty);
            }
            self.out.open("{");
            self.scoped_body();
            self.out.close("}");
            if pos + 1 < order.len() {
                self.out.line(&format!("goto {done};"));
            }
            worst = worst.max(self.work - w0);
        }
        self.work = w0 + worst;
        // With one label, the join is the only one: nothing jumps to `done`.
        if !(join && nlabels == 1) {
            self.out.label(&done);
        }
        self.out.close("}");
        true
    }

    /// Empty-template asm: `"=r"(x) : "0"(e)` (or tied by name), `"+r"(x)`,
    /// or a swap through two tied pairs: copies the compiler cannot see
    /// through. Only integers: phicc's interpreter gives asm outputs values
    /// of its own choosing, which a pointer could not survive.
    pub fn asm_tied(&mut self) -> bool {
        let int_ok = |s: Scalar| s != Scalar::Bool && !s.is_float();
        let kw = self.c.pick(&["__asm__", "asm", "__asm__ __volatile__"]);
        let mut ctx = ExprCtx::default();
        match self.c.index(4) {
            0 => {
                let Some(id) = self.pick_writable(int_ok) else {
                    return false;
                };
                let v = self.vars[id].clone();
                let e = self.expr(v.scalar().unwrap(), 2, &mut ctx);
                self.out.line(&format!("{kw}(\"\" : \"=r\"({}) : \"0\"({e}));", v.name));
            }
            1 => {
                let Some(id) = self.pick_writable(int_ok) else {
                    return false;
                };
                let name = self.vars[id].name.clone();
                self.out.line(&format!("{kw}(\"\" : \"+r\"({name}));"));
            }
            2 => {
                let Some(a) = self.pick_writable(int_ok) else {
                    return false;
                };
                let ta = self.vars[a].scalar().unwrap();
                let same: Vec<usize> = self.writable(|s| s == ta).into_iter().filter(|&b| b != a).collect();
                if same.is_empty() {
                    return false;
                }
                let b = same[self.c.index(same.len())];
                let (na, nb) = (self.vars[a].name.clone(), self.vars[b].name.clone());
                // Inputs are read before outputs are written: a swap.
                self.out.line(&format!(
                    "{kw}(\"\" : \"=r\"({na}), \"=r\"({nb}) : \"0\"({nb}), \"1\"({na}));"
                ));
            }
            _ => {
                let Some(id) = self.pick_writable(int_ok) else {
                    return false;
                };
                let v = self.vars[id].clone();
                let e = self.expr(v.scalar().unwrap(), 2, &mut ctx);
                let name = if self.c.chance(1, 2) { "[v] " } else { "" };
                let tie = if name.is_empty() { "0" } else { "[v]" };
                self.out
                    .line(&format!("{kw}(\"\" : {name}\"=r\"({}) : \"{tie}\"({e}));", v.name));
            }
        }
        self.charge();
        true
    }
}

/// The template of one `asm goto` for `arch` (see the module header).
fn asm_template(arch: Target, sem: Sem, refs: &Refs, outs: &[Output], ins: &[(String, Scalar)], inout: bool) -> String {
    let wide = |ty: Scalar| ty.bits() == 64;
    let modifier = |ty: Scalar| match arch {
        Target::Aarch64 if wide(ty) => "x",
        Target::Aarch64 => "w",
        Target::X86_64 | Target::Riscv64 => "",
    };
    let msb = |ty: Scalar| if wide(ty) { 63 } else { 31 };
    let l1 = refs.label(0);
    let l2 = (refs.labels.len() > 1).then(|| refs.label(1));
    let mut lines: Vec<String> = Vec::new();
    if outs.is_empty() {
        // Input only (64-bit): jump on sign, then on zero.
        let ty = ins[0].1;
        let i = refs.op(0, "i0", modifier(ty));
        match arch {
            Target::X86_64 => {
                lines.push(format!("test {i}, {i}"));
                lines.push(format!("js {l1}"));
                if let Some(l2) = &l2 {
                    lines.push(format!("jz {l2}"));
                }
            }
            Target::Aarch64 => {
                lines.push(format!("tst {i}, #{:#x}", 1u64 << 63));
                lines.push(format!("b.ne {l1}"));
                if let Some(l2) = &l2 {
                    lines.push(format!("cbz {i}, {l2}"));
                }
            }
            Target::Riscv64 => {
                lines.push(format!("bltz {i}, {l1}"));
                if let Some(l2) = &l2 {
                    lines.push(format!("beqz {i}, {l2}"));
                }
            }
        }
        return lines.join("\\n\\t");
    }
    let ty = outs[0].ty;
    let m = modifier(ty);
    let o = refs.op(0, "o0", m);
    let n_out = outs.len();
    let i = if inout { o.clone() } else { refs.op(n_out, "i0", m) };
    // A second output is a copy of the second input, written first.
    if n_out == 2 {
        let t2 = outs[1].ty;
        let o2 = refs.op(1, "o1", modifier(t2));
        let i2 = refs.op(n_out + 1, "i1", modifier(t2));
        lines.push(match arch {
            Target::X86_64 => format!("mov {i2}, {o2}"),
            Target::Aarch64 => format!("mov {o2}, {i2}"),
            Target::Riscv64 if wide(t2) => format!("mv {o2}, {i2}"),
            Target::Riscv64 => format!("addiw {o2}, {i2}, 0"),
        });
    }
    match (arch, sem) {
        (Target::X86_64, Sem::Not) => {
            if !inout {
                lines.push(format!("mov {i}, {o}"));
            }
            lines.push(format!("test {o}, {o}"));
            lines.push(format!("js {l1}"));
            lines.push(format!("not {o}"));
            if let Some(l2) = &l2 {
                lines.push(format!("test {o}, {o}"));
                lines.push(format!("jz {l2}"));
            }
        }
        (Target::X86_64, Sem::Shl(s)) => {
            if !inout {
                lines.push(format!("mov {i}, {o}"));
            }
            lines.push(format!("shl ${s}, {o}"));
            lines.push(format!("js {l1}"));
            if let Some(l2) = &l2 {
                lines.push(format!("jz {l2}"));
            }
        }
        (Target::Aarch64, Sem::Not) => {
            if !inout {
                lines.push(format!("mov {o}, {i}"));
            }
            lines.push(format!("tst {o}, #{:#x}", 1u64 << msb(ty)));
            lines.push(format!("b.ne {l1}"));
            lines.push(format!("mvn {o}, {o}"));
            if let Some(l2) = &l2 {
                lines.push(format!("cbz {o}, {l2}"));
            }
        }
        (Target::Aarch64, Sem::Shl(s)) => {
            lines.push(format!("lsl {o}, {i}, #{s}"));
            lines.push(format!("tst {o}, #{:#x}", 1u64 << msb(ty)));
            lines.push(format!("b.ne {l1}"));
            if let Some(l2) = &l2 {
                lines.push(format!("cbz {o}, {l2}"));
            }
        }
        (Target::Riscv64, Sem::Not) => {
            if !inout {
                lines.push(if wide(ty) {
                    format!("mv {o}, {i}")
                } else {
                    format!("addiw {o}, {i}, 0")
                });
            }
            lines.push(format!("bltz {o}, {l1}"));
            lines.push(format!("not {o}, {o}"));
            if let Some(l2) = &l2 {
                lines.push(format!("beqz {o}, {l2}"));
            }
        }
        (Target::Riscv64, Sem::Shl(s)) => {
            let op = if wide(ty) { "slli" } else { "slliw" };
            lines.push(format!("{op} {o}, {i}, {s}"));
            lines.push(format!("bltz {o}, {l1}"));
            if let Some(l2) = &l2 {
                lines.push(format!("beqz {o}, {l2}"));
            }
        }
    }
    lines.join("\\n\\t")
}

/// The plain-C meaning of an `asm goto` (the `#else` branch): inputs are
/// evaluated first, as the asm does.
fn c_fallback(sem: Sem, labels: &[String], outs: &[Output], ins: &[(String, Scalar)], inout: bool) -> String {
    let mut s = String::from("{ ");
    let (ty, src) = match (outs.first(), ins.first()) {
        (Some(o), _) if inout => (o.ty, o.lvalue.clone()),
        (Some(o), Some((e, _))) => (o.ty, e.clone()),
        (None, Some((e, t))) => (*t, e.clone()),
        _ => unreachable!("an asm goto has an output or an input"),
    };
    let u = ty.unsigned_arith();
    let w = u.bits() - 1;
    let un = u.name();
    s.push_str(&format!("{un} asm_t = ({un})({src}); "));
    if let (Some(o2), Some((e2, t2))) = (outs.get(1), ins.get(1)) {
        s.push_str(&format!("{} asm_t2 = {e2}; {} = asm_t2; ", t2.name(), o2.lvalue));
    }
    if outs.is_empty() {
        s.push_str(&format!("if ((asm_t >> {w}) != 0) goto {}; ", labels[0]));
        if let Some(l2) = labels.get(1) {
            s.push_str(&format!("if (asm_t == 0) goto {l2}; "));
        }
        s.push('}');
        return s;
    }
    match sem {
        Sem::Not => {
            s.push_str(&format!("if ((asm_t >> {w}) != 0) goto {}; ", labels[0]));
            s.push_str("asm_t = ~asm_t; ");
        }
        Sem::Shl(k) => {
            s.push_str(&format!("asm_t = asm_t << {k}; "));
            s.push_str(&format!("if ((asm_t >> {w}) != 0) goto {}; ", labels[0]));
        }
    }
    if let Some(l2) = labels.get(1) {
        s.push_str(&format!("if (asm_t == 0) goto {l2}; "));
    }
    s.push_str(&format!("{} = ({})asm_t; }}", outs[0].lvalue, ty.name()));
    s
}
