//! Compound statements: nested if/else, bounded `for`/`while`/`do` loops,
//! switches with fallthrough, dispatch loops over big switches, forward and
//! backward `goto`, loops entered at two blocks by a `goto` into their
//! middle, and computed-goto dispatch tables.
//!
//! Every loop is bounded by a counter that only the loop writes (variables
//! marked read-only), so `break`, `continue` and `goto` out of any body are
//! always safe. Work bounds: a branch costs its most expensive arm, a loop
//! multiplies its body by the trip count, and a switch costs its most
//! expensive chain of cases falling through into each other (case bodies
//! are generated last to first so that each knows the chain it falls into).

use super::expr::ExprCtx;
use super::function::FnGen;
use super::model::Text;
use super::types::{CType, Scalar};

/// How a case of a switch ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CaseEnd {
    Break,
    Continue,
    Fallthrough,
}

/// What goes into the cases of a switch.
enum CaseBodies {
    /// Random statements.
    Random,
    /// Case `i` assigns the variables `slices[i]` (covering dispatch loops).
    Assign(Vec<Vec<usize>>),
}

/// The usual 32-bit LCG step for dispatch states.
const LCG: &str = "1103515245u + 12345u";

impl FnGen<'_, '_, '_> {
    /// `if (c) {...} [else if (c) {...}] [else {...}]`.
    pub fn if_else(&mut self) -> bool {
        let mut ctx = ExprCtx::default();
        let c = self.cond(self.cfg.expr_depth, &mut ctx);
        let w0 = self.work;
        self.out.open(&format!("if ({c}) {{"));
        self.scoped_body();
        let mut worst = self.work - w0;
        while self.c.chance(1, 4) {
            self.work = w0;
            let mut ctx = ExprCtx::default();
            let c = self.cond(self.cfg.expr_depth, &mut ctx);
            self.out.reopen(&format!("}} else if ({c}) {{"));
            self.scoped_body();
            worst = worst.max(self.work - w0);
        }
        if self.c.chance(2, 3) {
            self.work = w0;
            self.out.reopen("} else {");
            self.scoped_body();
            worst = worst.max(self.work - w0);
        }
        self.out.close("}");
        self.work = w0 + worst;
        self.charge();
        true
    }

    /// A type for a loop counter.
    fn counter_type(&mut self) -> Scalar {
        self.c.pick(&[
            Scalar::Int,
            Scalar::UInt,
            Scalar::LLong,
            Scalar::UChar,
            Scalar::Short,
            Scalar::ULLong,
            Scalar::SChar,
            Scalar::Int,
        ])
    }

    /// An optional data-dependent extra exit test (`&& cond`).
    fn extra_exit(&mut self) -> String {
        if self.c.chance(1, 4) {
            let mut ctx = ExprCtx::default();
            format!(" && {}", self.cond(1, &mut ctx))
        } else {
            String::new()
        }
    }

    /// Run `body` as the body of a loop of `trip` iterations.
    fn in_loop(&mut self, trip: u64, is_switch_only: bool, body: impl FnOnce(&mut Self)) {
        let saved = self.mult;
        self.mult = self.mult.saturating_mul(trip);
        if !is_switch_only {
            self.loops += 1;
        }
        self.breakables += 1;
        body(self);
        self.breakables -= 1;
        if !is_switch_only {
            self.loops -= 1;
        }
        // One test and increment per iteration.
        self.charge();
        self.mult = saved;
    }

    /// Now and then a loop keeps the previous value of a variable: `T last
    /// = x;` before the loop, then `last = x;` first in the body and `x =
    /// ...;` last. `last` is dead at the loop header, so mem2reg gives it no
    /// phi and, after copy propagation, the code after the loop reads `x`'s
    /// header phi: the lost-copy problem of Briggs et al., wrong unless the
    /// latch edge of a `do`/backward-goto loop is split. Returns `(last, x)`.
    fn saved_value(&mut self, percent: u32) -> Option<(String, usize)> {
        if !self.c.chance(percent as u64, 100) {
            return None;
        }
        let cands: Vec<usize> = self
            .writable(|_| true)
            .into_iter()
            // Locals: globals stay in memory anyway.
            .filter(|&id| !self.vars[id].volatile && self.vars[id].depth > 0)
            .collect();
        if cands.is_empty() {
            return None;
        }
        let x = cands[self.c.index(cands.len())];
        let v = self.vars[x].clone();
        let ty = v.scalar().expect("scalar");
        // Three times in four the keeper is an existing local of `x`'s type
        // declared before `x`, read-only until [`Self::thaw`]: where both
        // are live at a loop header, its phi (which reads `x`'s unchanged
        // on the back edge) then comes first, the other order of the two phis.
        let earlier: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&id| id < x && self.vars[id].ty == v.ty)
            .collect();
        if !earlier.is_empty() && self.c.chance(3, 4) {
            let y = earlier[self.c.index(earlier.len())];
            let keeper = self.vars[y].name.clone();
            self.out.line(&format!("{keeper} = {};", v.name));
            self.charge();
            self.vars[y].readonly = true;
            self.frozen.push(y);
            return Some((keeper, x));
        }
        let last = self.fresh("last");
        self.out.line(&format!("{} {last} = {};", ty.name(), v.name));
        self.add_var(last.clone(), CType::Scalar(ty), false, true);
        Some((last, x))
    }

    /// After the loop: an existing local that [`Self::saved_value`] made the
    /// keeper is writable again.
    fn thaw(&mut self, saved: &Option<(String, usize)>) {
        if let (Some((name, _)), Some(&y)) = (saved, self.frozen.last()) {
            if self.vars[y].name == *name {
                self.vars[y].readonly = false;
                self.frozen.pop();
            }
        }
    }

    /// A loop body, with the two ends of [`Self::saved_value`]'s pattern.
    fn loop_body(&mut self, saved: &Option<(String, usize)>) {
        if let Some((last, x)) = saved {
            let name = self.vars[*x].name.clone();
            self.out.line(&format!("{last} = {name};"));
            self.charge();
        }
        self.scoped_body();
        if let Some((_, x)) = saved {
            self.assign_var(*x, 2);
        }
    }

    /// A bounded `for`, `while` or `do` loop.
    pub fn loop_stmt(&mut self) -> bool {
        let max = self.max_trip_here();
        if max < 1 {
            return false;
        }
        let trip = self.c.range(1, max as u64);
        let ty = self.counter_type();
        let saved = self.saved_value(50);
        match self.c.index(3) {
            0 => {
                let i = self.fresh("i");
                self.open_scope();
                self.add_var(i.clone(), CType::Scalar(ty), false, true);
                let extra = self.extra_exit();
                let t = ty.name();
                let head = match self.c.index(3) {
                    0 => format!("for ({t} {i} = 0; {i} < {trip}{extra}; {i}++) {{"),
                    1 => format!("for ({t} {i} = {trip}; {i} > 0{extra}; {i}--) {{"),
                    _ => format!("for ({t} {i} = 0; {i} < {}{extra}; {i} += 2) {{", 2 * trip),
                };
                self.out.open(&head);
                self.in_loop(trip, false, |g| g.loop_body(&saved));
                self.out.close("}");
                // The counter lives in the `for` only: nothing to mix.
                self.scopes.pop();
            }
            form => {
                let k = self.fresh("k");
                self.out.line(&format!("{} {k} = 0;", ty.name()));
                self.add_var(k.clone(), CType::Scalar(ty), false, true);
                let extra = self.extra_exit();
                if form == 1 {
                    self.out.open(&format!("while ({k} < {trip}{extra}) {{"));
                } else {
                    self.out.open("do {");
                }
                self.out.line(&format!("{k}++;"));
                self.in_loop(trip, false, |g| g.loop_body(&saved));
                if form == 1 {
                    self.out.close("}");
                } else {
                    self.out.close(&format!("}} while ({k} < {trip}{extra});"));
                }
            }
        }
        self.thaw(&saved);
        true
    }

    /// The cases of a switch, `labels[i]` being `case N:` or `default:`.
    fn switch_cases(&mut self, labels: &[String], bodies: CaseBodies) {
        // Now and then several labels on one body (`case 3: case 7: {...}`):
        // a switch with several edges to one block.
        let mut stacked: Vec<String> = Vec::with_capacity(labels.len());
        for l in labels {
            match stacked.last_mut() {
                Some(prev) if matches!(bodies, CaseBodies::Random) && self.c.chance(1, 5) => {
                    prev.push(' ');
                    prev.push_str(l);
                }
                _ => stacked.push(l.clone()),
            }
        }
        let labels = &stacked[..];
        let n = labels.len();
        let w0 = self.work;
        let indent = self.out.indent;
        let mut texts = vec![String::new(); n];
        let mut chain = vec![0u64; n + 1];
        for i in (0..n).rev() {
            // Covering switches mostly break: every case that does is one more
            // predecessor of the join, so one more copy per phi there.
            let breaks = if matches!(bodies, CaseBodies::Assign(_)) { 6 } else { 2 };
            let mut ends = vec![CaseEnd::Break; breaks];
            if self.loops > 0 {
                ends.push(CaseEnd::Continue);
            }
            if i + 1 < n {
                ends.push(CaseEnd::Fallthrough);
            }
            let end = self.c.pick(&ends);
            self.work = w0 + if end == CaseEnd::Fallthrough { chain[i + 1] } else { 0 };
            let saved = std::mem::replace(&mut self.out, Text::new(indent));
            let ending = match end {
                CaseEnd::Break => "break;",
                CaseEnd::Continue => "continue;",
                CaseEnd::Fallthrough => "/* fallthrough */",
            };
            match &bodies {
                CaseBodies::Random => {
                    self.out.open(&format!("{} {{", labels[i]));
                    self.scoped_body();
                    self.out.close("}");
                    self.out.line(&format!("    {ending}"));
                }
                CaseBodies::Assign(slices) => {
                    // One line per case: these switches have ~100 cases.
                    self.out.indent = 0;
                    for &id in &slices[i] {
                        self.assign_var(id, 1);
                    }
                    let body: Vec<&str> = self.out.buf.lines().collect();
                    let line = format!("{} {{ {} }} {ending}", labels[i], body.join(" "));
                    self.out = Text::new(indent);
                    self.out.line(&line);
                }
            }
            chain[i] = self.work - w0;
            texts[i] = std::mem::replace(&mut self.out, saved).buf;
        }
        for t in texts {
            self.out.buf.push_str(&t);
        }
        self.work = w0 + chain.iter().copied().max().unwrap_or(0);
    }

    /// `x = expr;` for variable `id` with an expression of depth `depth`.
    pub fn assign_var(&mut self, id: usize, depth: usize) {
        let v = self.vars[id].clone();
        let ty = v.scalar().expect("scalar");
        let mut ctx = ExprCtx::default();
        let e = self.expr(ty, depth, &mut ctx);
        let e = self.clamped(ty, e);
        self.out.line(&format!("{} = {e};", v.name));
        self.charge();
    }

    /// Case labels: `n` values of a dense range (`% modulus`) or spread over
    /// `& mask`, plus maybe `default:`. Returns the controlling expression
    /// and the labels.
    fn case_labels(&mut self, n: usize, state: &str) -> (String, Vec<String>) {
        let with_default = self.c.chance(2, 3);
        if self.c.chance(2, 3) {
            // Dense: every value of `% m` has a case unless it falls to default.
            let m = n + usize::from(with_default && self.c.chance(1, 2)) * self.c.range(1, 4) as usize;
            let mut vals: Vec<usize> = (0..m).collect();
            // Drop values (they go to default) until `n` remain.
            while vals.len() > n {
                let i = self.c.index(vals.len());
                vals.remove(i);
            }
            let mut labels: Vec<String> = vals.iter().map(|v| format!("case {v}:")).collect();
            if with_default {
                let at = self.c.index(labels.len() + 1);
                labels.insert(at, "default:".to_string());
            }
            (format!("({state} >> 16) % {m}u"), labels)
        } else {
            let mask: u64 = if n > 60 { 1023 } else { 255 };
            let mut vals: Vec<u64> = Vec::new();
            while vals.len() < n {
                let v = self.c.range(0, mask);
                if vals.contains(&v) {
                    // Exhausted input gives the same value again: take the next free one.
                    let mut v = v;
                    while vals.contains(&v) {
                        v = (v + 1) & mask;
                    }
                    vals.push(v);
                } else {
                    vals.push(v);
                }
            }
            let mut labels: Vec<String> = vals.iter().map(|v| format!("case {v}:")).collect();
            labels.push("default:".to_string());
            (format!("({state} >> 8) & {mask}u"), labels)
        }
    }

    /// A small switch on an expression (2 to 8 cases).
    pub fn switch_stmt(&mut self) -> bool {
        let n = self.c.range(2, 8) as usize;
        let mut ctx = ExprCtx::default();
        let (ctrl, labels) = if self.c.chance(1, 3) {
            // On a signed value: negative cases too.
            let sel = self.expr(Scalar::Int, 2, &mut ctx);
            let m = n as i64;
            let mut labels: Vec<String> = (-(m / 2)..=(m / 2)).map(|v| format!("case {v}:")).collect();
            labels.truncate(n);
            labels.push("default:".to_string());
            (format!("{sel} % {m}"), labels)
        } else {
            let sel = self.expr(Scalar::UInt, 2, &mut ctx);
            self.case_labels(n, &format!("({sel})"))
        };
        self.out.open(&format!("switch ({ctrl}) {{"));
        self.breakables += 1;
        self.switch_cases(&labels, CaseBodies::Random);
        self.breakables -= 1;
        self.out.close("}");
        self.charge();
        true
    }

    /// `{ unsigned state = e; for (step...) { state = lcg; switch (state...) {...} } }`:
    /// an interpreter-style dispatch loop over a big switch.
    pub fn dispatch_loop(&mut self) -> bool {
        let room = (self.cfg.max_work / 16) / self.mult.max(1);
        if room < 2 {
            return false;
        }
        let steps = self.c.range(2, room.min(48));
        let (lo, hi) = self.cfg.dispatch_cases;
        let n = self.c.range(lo.max(1) as u64, hi.max(lo).max(1) as u64) as usize;
        self.dispatch_loop_with(steps, n, None);
        true
    }

    /// The dispatch loops of `main` that assign every local of `main` in
    /// their cases: each adds about (locals x cases) phi copies.
    pub fn covering_dispatch_loop(&mut self) {
        let targets: Vec<usize> = self.scopes[1]
            .iter()
            .copied()
            .filter(|&id| {
                let v = &self.vars[id];
                !v.readonly && !v.volatile && matches!(v.ty, CType::Scalar(_))
            })
            .collect();
        let (lo, hi) = self.cfg.dispatch_cases;
        let n = self.c.range(lo.max(1) as u64, hi.max(lo).max(1) as u64) as usize;
        let steps = self.c.range(8, 24);
        self.dispatch_loop_with(steps, n, Some(targets));
    }

    /// A dispatch loop of `steps` iterations over `n` cases; with `covering`,
    /// the cases assign those variables (spread over the cases) and nothing else.
    fn dispatch_loop_with(&mut self, steps: u64, n: usize, covering: Option<Vec<usize>>) {
        let state = self.fresh("state");
        let step = self.fresh("step");
        self.out.open("{");
        self.open_scope();
        let mut ctx = ExprCtx::default();
        let init = self.expr(Scalar::UInt, 1, &mut ctx);
        self.out.line(&format!("unsigned {state} = {init};"));
        self.add_var(state.clone(), CType::Scalar(Scalar::UInt), false, true);
        self.out
            .open(&format!("for (unsigned {step} = 0; {step} < {steps}u; {step}++) {{"));
        let mut update = format!("{state} = {state} * {LCG}");
        if self.c.chance(1, 2) {
            let mut ctx = ExprCtx::default();
            let e = self.leaf(Scalar::UInt, &mut ctx);
            update = format!("{state} = ({state} * {LCG}) ^ ({e} & 0xffu)");
        }
        self.out.line(&format!("{update};"));
        let (ctrl, labels) = self.case_labels(n, &state);
        let bodies = match covering {
            Some(targets) => {
                let mut slices = vec![Vec::new(); labels.len()];
                for (j, id) in targets.into_iter().enumerate() {
                    slices[j % labels.len()].push(id);
                }
                CaseBodies::Assign(slices)
            }
            None => CaseBodies::Random,
        };
        self.out.open(&format!("switch ({ctrl}) {{"));
        self.in_loop(steps, false, |g| g.switch_cases(&labels, bodies));
        self.out.close("}");
        self.out.close("}");
        self.close_scope();
        self.out.close("}");
    }

    /// `{ if (c) goto skip; ... } skip: ;`: a forward goto over a block;
    /// statements inside may also `goto skip`.
    pub fn goto_forward(&mut self) -> bool {
        let label = self.fresh("skip");
        let mut ctx = ExprCtx::default();
        let c = self.cond(2, &mut ctx);
        self.out.open("{");
        self.out.line(&format!("if ({c}) {{ goto {label}; }}"));
        self.exit_labels.push(label.clone());
        self.scoped_body();
        self.exit_labels.pop();
        self.out.close("}");
        self.out.line(&format!("{label}: ;"));
        self.charge();
        true
    }

    /// A loop made of a backward goto and a counter, as `do`/`while` shapes.
    pub fn goto_backward(&mut self) -> bool {
        let max = self.max_trip_here();
        if max < 1 {
            return false;
        }
        let trip = self.c.range(1, max as u64);
        let again = self.fresh("again");
        let count = format!("{again}_count");
        self.out.open("{");
        self.open_scope();
        let saved = self.saved_value(50);
        self.out.line(&format!("unsigned {count} = 0;"));
        self.add_var(count.clone(), CType::Scalar(Scalar::UInt), false, true);
        let outer_mult = self.mult;
        self.mult = self.mult.saturating_mul(trip);
        if self.c.chance(1, 2) {
            self.out.label(&again);
            self.out.open("{");
            self.loop_body(&saved);
            self.out.close("}");
            self.out.line(&format!("{count} = {count} + 1u;"));
            self.out.line(&format!("if ({count} < {trip}u) {{ goto {again}; }}"));
        } else {
            let done = format!("{again}_done");
            self.out.label(&again);
            self.out.line(&format!("if ({count} >= {trip}u) {{ goto {done}; }}"));
            self.out.line(&format!("{count} = {count} + 1u;"));
            self.out.open("{");
            self.exit_labels.push(done.clone());
            self.loop_body(&saved);
            self.exit_labels.pop();
            self.out.close("}");
            self.out.line(&format!("goto {again};"));
            self.out.label(&done);
        }
        self.charge();
        self.mult = outer_mult;
        self.thaw(&saved);
        self.close_scope();
        self.out.close("}");
        true
    }

    /// A loop entered at two blocks (irreducible): a backward-goto loop of
    /// two parts, `top: {...} mid: {...}`, and before it `if (c) goto mid;`,
    /// often from inside a branch with statements of its own (so the two
    /// entries come from different depths of the dominator tree). Jumping
    /// to `mid` skips no declaration in scope there: each part is its own
    /// block. The variables the parts assign are live around both entries.
    pub fn goto_into_loop(&mut self) -> bool {
        let max = self.max_trip_here();
        if max < 1 {
            return false;
        }
        let trip = self.c.range(1, max as u64);
        let irr = self.fresh("irr");
        let (top, mid, count) = (format!("{irr}_top"), format!("{irr}_mid"), format!("{irr}_count"));
        self.out.open("{");
        self.open_scope();
        self.out.line(&format!("unsigned {count} = 0;"));
        self.add_var(count.clone(), CType::Scalar(Scalar::UInt), false, true);
        let mut ctx = ExprCtx::default();
        let c = self.cond(2, &mut ctx);
        if self.c.chance(1, 2) {
            self.out.open(&format!("if ({c}) {{"));
            self.scoped_body();
            self.out.line(&format!("goto {mid};"));
            self.out.close("}");
        } else {
            self.out.line(&format!("if ({c}) {{ goto {mid}; }}"));
        }
        let outer_mult = self.mult;
        self.mult = self.mult.saturating_mul(trip);
        for label in [&top, &mid] {
            self.out.label(label);
            self.out.open("{");
            self.scoped_body();
            self.out.close("}");
        }
        self.out.line(&format!("{count} = {count} + 1u;"));
        self.out.line(&format!("if ({count} < {trip}u) {{ goto {top}; }}"));
        self.charge();
        self.mult = outer_mult;
        self.close_scope();
        self.out.close("}");
        true
    }

    /// A computed-goto dispatch: a table of label addresses, a state, and
    /// `goto *table[state % k]` either after every block (threaded code), in
    /// one shared dispatch block, or at the end of the first label only (a
    /// loop whose other labels go back to it).
    pub fn computed_goto(&mut self) -> bool {
        let room = (self.cfg.max_work / 16) / self.mult.max(1);
        if room < 2 || self.has_computed_goto {
            return false;
        }
        self.has_computed_goto = true;
        let steps = self.c.range(2, room.min(32));
        let k = self.c.range(2, self.cfg.computed_goto_labels.max(2) as u64) as usize;
        let cg = self.fresh("cg");
        let table = format!("{cg}_table");
        let step = format!("{cg}_step");
        let state = format!("{cg}_state");
        let done = format!("{cg}_done");
        let next = format!("{cg}_next");
        let labels: Vec<String> = (0..k).map(|i| format!("{cg}_l{i}")).collect();
        let addrs: Vec<String> = labels.iter().map(|l| format!("&&{l}")).collect();
        self.out.open("{");
        self.open_scope();
        let decl = if self.c.chance(3, 4) {
            "static void *const"
        } else {
            "void *"
        };
        let sep = if decl.ends_with('*') { "" } else { " " };
        self.out
            .line(&format!("{decl}{sep}{table}[{k}] = {{{}}};", addrs.join(", ")));
        let mut ctx = ExprCtx::default();
        let init = self.expr(Scalar::UInt, 1, &mut ctx);
        self.out.line(&format!("unsigned {step} = 0;"));
        self.out.line(&format!("unsigned {state} = {init};"));
        self.add_var(step.clone(), CType::Scalar(Scalar::UInt), false, true);
        self.add_var(state.clone(), CType::Scalar(Scalar::UInt), false, true);
        let threaded = self.c.chance(1, 2);
        let via_var = self.c.chance(1, 3);
        let dispatch = |g: &mut Self| {
            let mut ctx = ExprCtx::default();
            let mix = if g.c.chance(1, 2) {
                let e = g.leaf(Scalar::UInt, &mut ctx);
                format!(" + ({e} & 7u)")
            } else {
                String::new()
            };
            g.out.line(&format!("{step} = {step} + 1u;"));
            g.out.line(&format!("if ({step} >= {steps}u) {{ goto {done}; }}"));
            g.out.line(&format!("{state} = {state} * {LCG}{mix};"));
            if via_var {
                g.out.line(&format!(
                    "{{ void *target = {table}[({state} >> 16) % {k}u]; goto *target; }}"
                ));
            } else {
                g.out.line(&format!("goto *{table}[({state} >> 16) % {k}u];"));
            }
        };
        // A headed dispatch is a loop: its first label is entered by falling
        // through, ends in the dispatch, and is the only way to the other
        // labels, which go back to it. It keeps a variable's previous value
        // (`last = x; ... x = ...;`) and the other labels read `last`: after
        // copy propagation they read `x`'s phi at the head, which the
        // head's copies before the `goto *` (an edge that cannot be split)
        // overwrite unless they go through temporaries. Otherwise some
        // labels keep `last` and the others read it (phis of `last` take
        // `x`'s phis at other labels).
        let headed = self.c.chance(1, 3);
        let kept = self.saved_value(if headed { 100 } else { 60 });
        if !headed {
            self.out.line(&format!("goto *{table}[({state} >> 16) % {k}u];"));
        }
        let saved = self.mult;
        self.mult = self.mult.saturating_mul(steps);
        self.exit_labels.push(done.clone());
        let w0 = self.work;
        let mut worst = 0;
        let mut head_work = 0;
        for (i, l) in labels.iter().enumerate() {
            self.work = w0;
            self.out.label(l);
            self.out.open("{");
            match &kept {
                Some(_) if headed && i == 0 => self.loop_body(&kept),
                Some((last, _)) if headed || self.c.chance(1, 2) => {
                    let last = self.vars.iter().rposition(|v| &v.name == last).expect("declared");
                    self.mix_var(last);
                    self.scoped_body();
                }
                Some(_) => self.loop_body(&kept),
                None => self.scoped_body(),
            }
            self.out.close("}");
            if headed && i == 0 {
                dispatch(self);
                head_work = self.work - w0;
                continue;
            } else if headed {
                self.out.line(&format!("goto {};", labels[0]));
            } else if threaded {
                dispatch(self);
            } else {
                self.out.line(&format!("goto {next};"));
            }
            worst = worst.max(self.work - w0);
        }
        self.work = w0 + head_work + worst;
        if !threaded && !headed {
            self.out.label(&next);
            dispatch(self);
        }
        self.exit_labels.pop();
        for _ in 0..4 {
            self.charge();
        }
        self.mult = saved;
        self.thaw(&kept);
        self.out.label(&done);
        self.close_scope();
        self.out.close("}");
        true
    }
}
