//! Statement selection and the straight-line statements: assignments,
//! stores through pointers and arrays, pointer retargeting, swaps, k-way
//! rotations and copy chains (the lost-copy and swap problems of phi
//! elimination once copy propagation has run), calls, checksum mixes,
//! declarations without initializer, and conditional jumps.
//!
//! Every statement is charged to the function's work bound (see
//! `function.rs`); compound statements live in `control.rs` and `asm.rs`.

use super::expr::ExprCtx;
use super::function::FnGen;
use super::model::Helper;
use super::types::{CType, Scalar};

#[derive(Clone, Copy, Debug)]
enum Kind {
    Assign,
    Store,
    Retarget,
    IfElse,
    Loop,
    Switch,
    DispatchLoop,
    Swap,
    Rotate,
    CopyChain,
    GotoForward,
    GotoBackward,
    GotoIntoLoop,
    ComputedGoto,
    Call,
    VariadicCall,
    AsmGoto,
    AsmTied,
    UninitDecl,
    Block,
    Mix,
    Jump,
}

impl FnGen<'_, '_, '_> {
    /// Statements until the budget is spent (a function's top level).
    pub fn body_statements(&mut self) {
        while self.stmts_left > 0 && !self.c.is_exhausted() {
            self.stmt();
        }
    }

    /// A nested body in its own scope (the caller writes the braces):
    /// a few statements of the remaining budget, then a mix of its locals.
    pub fn scoped_body(&mut self) {
        self.open_scope();
        self.block_statements();
        self.close_scope();
    }

    /// A few statements of the remaining budget, one nesting level deeper.
    fn block_statements(&mut self) {
        self.nest += 1;
        let n = self.c.range(1, self.cfg.stmts_per_block.max(1) as u64);
        for _ in 0..n {
            if self.stmts_left == 0 || self.c.is_exhausted() {
                break;
            }
            self.stmt();
        }
        self.nest -= 1;
    }

    /// One statement of a kind picked by the configured weights among the
    /// kinds possible here.
    fn stmt(&mut self) {
        self.stmts_left = self.stmts_left.saturating_sub(1);
        let w = self.cfg.weights.clone();
        let compound = self.nest < self.cfg.max_depth;
        let looping = compound && self.max_trip_here() >= 2;
        let jumping = self.loops > 0 || self.breakables > 0 || !self.exit_labels.is_empty() || self.may_return();
        // Swaps and rotations make the lost-copy problem inside loops (a
        // phi reading the phi it feeds): favour them there.
        let copies = |w: u32| if self.loops > 0 { w.saturating_mul(2) } else { w / 2 };
        let mut kinds = vec![
            (w.assign, Kind::Assign),
            (w.store, Kind::Store),
            (w.retarget, Kind::Retarget),
            (copies(w.swap), Kind::Swap),
            (copies(w.rotate), Kind::Rotate),
            (copies(w.copy_chain), Kind::CopyChain),
            (w.call, Kind::Call),
            (w.variadic_call, Kind::VariadicCall),
            (w.asm_tied, Kind::AsmTied),
            (w.mix, Kind::Mix),
            (w.uninit_decl, Kind::UninitDecl),
        ];
        if compound {
            kinds.extend([
                (w.if_else, Kind::IfElse),
                (w.switch, Kind::Switch),
                (w.block, Kind::Block),
                (w.goto_forward, Kind::GotoForward),
                (w.asm_goto, Kind::AsmGoto),
            ]);
        }
        if looping {
            kinds.extend([
                (w.loops, Kind::Loop),
                (w.dispatch_loop, Kind::DispatchLoop),
                (w.goto_backward, Kind::GotoBackward),
                (w.goto_into_loop, Kind::GotoIntoLoop),
                (w.computed_goto, Kind::ComputedGoto),
            ]);
        }
        if jumping {
            kinds.push((w.jump, Kind::Jump));
        }
        let total: u64 = kinds.iter().map(|k| k.0 as u64).sum();
        let kind = if total == 0 {
            Kind::Assign
        } else {
            let mut r = self.c.range(0, total - 1);
            let mut chosen = Kind::Assign;
            for (wt, k) in kinds {
                if r < wt as u64 {
                    chosen = k;
                    break;
                }
                r -= wt as u64;
            }
            chosen
        };
        let done = match kind {
            Kind::Assign => self.assign(),
            Kind::Store => self.store(),
            Kind::Retarget => self.retarget(),
            Kind::IfElse => self.if_else(),
            Kind::Loop => self.loop_stmt(),
            Kind::Switch => self.switch_stmt(),
            Kind::DispatchLoop => self.dispatch_loop(),
            Kind::Swap => self.rotate(2),
            Kind::Rotate => {
                let k = self.c.range(3, 6) as usize;
                self.rotate(k)
            }
            Kind::CopyChain => self.copy_chain(),
            Kind::GotoForward => self.goto_forward(),
            Kind::GotoBackward => self.goto_backward(),
            Kind::GotoIntoLoop => self.goto_into_loop(),
            Kind::ComputedGoto => self.computed_goto(),
            Kind::Call => self.call(),
            Kind::VariadicCall => self.variadic_call(),
            Kind::AsmGoto => self.asm_goto(),
            Kind::AsmTied => self.asm_tied(),
            Kind::UninitDecl => self.uninit_decl(),
            Kind::Block => {
                self.out.open("{");
                self.open_scope();
                self.declare_block_locals();
                self.block_statements();
                self.close_scope();
                self.out.close("}");
                true
            }
            Kind::Mix => {
                let mut ctx = ExprCtx::default();
                if let Some((text, ty)) = self.read_any(&mut ctx) {
                    self.mix_value(&text, ty);
                }
                true
            }
            Kind::Jump => self.jump(),
        };
        if !done {
            self.assign();
        }
    }

    fn may_return(&self) -> bool {
        !self.is_main && self.no_jumps == 0
    }

    /// A few locals at the top of a nested block (some volatile or pointers).
    fn declare_block_locals(&mut self) {
        let n = self.c.range(1, 3);
        for _ in 0..n {
            if self.c.chance(1, 6) {
                let t = self.random_scalar();
                self.declare_pointer(t);
            } else {
                let ty = self.random_scalar();
                let volatile = self.c.range(0, 99) < self.cfg.volatile_percent as u64;
                let name = self.fresh(&format!("{}_", ty.tag()));
                let mut ctx = ExprCtx::default();
                let init = self.store_expr(ty, &mut ctx);
                let qual = if volatile { "volatile " } else { "" };
                self.out.line(&format!("{qual}{} {name} = {init};", ty.name()));
                self.add_var(name, CType::Scalar(ty), volatile, false);
            }
        }
    }

    /// Writable scalar variables in scope satisfying `pred`.
    pub fn writable(&self, pred: impl Fn(Scalar) -> bool) -> Vec<usize> {
        self.in_scope()
            .filter(|&id| {
                let v = &self.vars[id];
                !v.readonly && matches!(v.ty, CType::Scalar(s) if pred(s))
            })
            .collect()
    }

    /// Pick a writable variable, locals and parameters more often than globals.
    pub fn pick_writable(&mut self, pred: impl Fn(Scalar) -> bool) -> Option<usize> {
        let all = self.writable(pred);
        if all.is_empty() {
            return None;
        }
        let locals: Vec<usize> = all.iter().copied().filter(|&id| self.vars[id].depth > 0).collect();
        if !locals.is_empty() && self.c.chance(4, 5) {
            return Some(locals[self.c.index(locals.len())]);
        }
        Some(all[self.c.index(all.len())])
    }

    /// `x = expr;` (or a compound assignment / increment where it cannot overflow).
    pub fn assign(&mut self) -> bool {
        let Some(id) = self.pick_writable(|_| true) else {
            return false;
        };
        let v = self.vars[id].clone();
        let ty = v.scalar().expect("writable vars are scalars");
        let mut ctx = ExprCtx::default();
        let wraps = matches!(ty, Scalar::UInt | Scalar::ULong | Scalar::ULLong);
        if wraps && self.c.chance(1, 4) {
            if self.c.chance(1, 3) {
                let op = self.c.pick(&["++", "--"]);
                self.out.line(&format!("{}{op};", v.name));
            } else {
                let op = self.c.pick(&["+=", "-=", "*=", "^=", "|=", "&="]);
                let e = self.expr(ty, self.cfg.expr_depth, &mut ctx);
                self.out.line(&format!("{} {op} {e};", v.name));
            }
        } else {
            let e = self.store_expr(ty, &mut ctx);
            self.out.line(&format!("{} = {e};", v.name));
        }
        self.charge();
        true
    }

    /// `*p = expr;` or `arr[i] = expr;`.
    fn store(&mut self) -> bool {
        let cands: Vec<usize> = self
            .in_scope()
            .filter(|&id| matches!(self.vars[id].ty, CType::Ptr(_) | CType::Array(_)))
            .collect();
        if cands.is_empty() {
            return false;
        }
        let v = self.vars[cands[self.c.index(cands.len())]].clone();
        let mut ctx = ExprCtx::default();
        let (lhs, ty) = match v.ty {
            CType::Ptr(s) => (format!("*{}", v.name), s),
            CType::Array(s) => {
                let idx = self.array_index(&mut ctx);
                (format!("{}[{idx}]", v.name), s)
            }
            CType::Scalar(_) => unreachable!(),
        };
        let e = self.store_expr(ty, &mut ctx);
        self.out.line(&format!("{lhs} = {e};"));
        self.charge();
        true
    }

    /// `p = &x;` or `p = q;` keeping every pointer pointing to a live object.
    fn retarget(&mut self) -> bool {
        let ptrs: Vec<usize> = self
            .in_scope()
            .filter(|&id| matches!(self.vars[id].ty, CType::Ptr(_)) && !self.vars[id].readonly)
            .collect();
        if ptrs.is_empty() {
            return false;
        }
        let pid = ptrs[self.c.index(ptrs.len())];
        let p = self.vars[pid].clone();
        let CType::Ptr(pointee) = p.ty else { unreachable!() };
        let others: Vec<usize> = ptrs
            .iter()
            .copied()
            .filter(|&q| q != pid && self.vars[q].ty == p.ty && self.vars[q].target_depth <= p.depth)
            .collect();
        let (rhs, depth, array) = if !others.is_empty() && self.c.chance(1, 2) {
            let q = &self.vars[others[self.c.index(others.len())]];
            (q.name.clone(), q.target_depth, q.into_local_array)
        } else {
            let cands = self.address_candidates(pointee, p.depth);
            if cands.is_empty() {
                return false;
            }
            let t = cands[self.c.index(cands.len())].clone();
            (t.addr, t.depth, t.local_array)
        };
        self.out.line(&format!("{} = {rhs};", p.name));
        self.vars[pid].target_depth = self.vars[pid].target_depth.max(depth);
        self.vars[pid].into_local_array |= array;
        self.charge();
        true
    }

    /// A value read from `src` (type `from`) stored into an object of type
    /// `to`: a plain copy when the types agree, else converted (and clamped
    /// when it becomes a float).
    pub fn copy_value(&mut self, src: &str, from: Scalar, to: Scalar) -> String {
        if from == to {
            return src.to_string();
        }
        let e = self.conv(src.to_string(), from, to);
        self.clamped(to, e)
    }

    /// `k` distinct writable variables, of one type when possible.
    fn group(&mut self, k: usize) -> Option<Vec<usize>> {
        let all = self.writable(|_| true);
        if all.len() < k {
            return None;
        }
        let first = all[self.c.index(all.len())];
        let ty = self.vars[first].ty;
        let same: Vec<usize> = all.iter().copied().filter(|&id| self.vars[id].ty == ty).collect();
        let pool = if same.len() >= k && self.c.chance(7, 8) {
            same
        } else {
            all
        };
        let mut chosen = Vec::new();
        let mut pool = pool;
        while chosen.len() < k && !pool.is_empty() {
            let i = self.c.index(pool.len());
            chosen.push(pool.swap_remove(i));
        }
        (chosen.len() == k).then_some(chosen)
    }

    /// `{ T t = a; a = b; b = c; ...; z = t; }`: a swap (k = 2) or a k-way
    /// rotation, the classic lost-copy / swap shape inside loops.
    fn rotate(&mut self, k: usize) -> bool {
        let Some(ids) = self.group(k) else {
            return false;
        };
        let name = self.fresh(if k == 2 { "swap" } else { "rot" });
        let vs: Vec<_> = ids.iter().map(|&id| self.vars[id].clone()).collect();
        let t0 = vs[0].scalar().expect("scalar");
        self.out.open("{");
        self.out.line(&format!("{} {name} = {};", t0.name(), vs[0].name));
        for i in 0..k - 1 {
            let (to, from) = (&vs[i], &vs[i + 1]);
            let e = self.copy_value(&from.name, from.scalar().unwrap(), to.scalar().unwrap());
            self.out.line(&format!("{} = {e};", to.name));
        }
        let last = &vs[k - 1];
        let e = self.copy_value(&name, t0, last.scalar().unwrap());
        self.out.line(&format!("{} = {e};", last.name));
        self.out.close("}");
        for _ in 0..=k {
            self.charge();
        }
        true
    }

    /// `b = a; c = b; d = c;`: a copy chain.
    fn copy_chain(&mut self) -> bool {
        let k = self.c.range(2, 4) as usize;
        let Some(ids) = self.group(k) else {
            return false;
        };
        for i in 1..k {
            let (to, from) = (self.vars[ids[i]].clone(), self.vars[ids[i - 1]].clone());
            let e = self.copy_value(&from.name, from.scalar().unwrap(), to.scalar().unwrap());
            self.out.line(&format!("{} = {e};", to.name));
            self.charge();
        }
        true
    }

    /// `x = f(args);` to an earlier function whose work still fits; pointer
    /// arguments are `&local` (address-taken), pointer variables or `&global`.
    fn call(&mut self) -> bool {
        let room = self.cfg.max_work.saturating_sub(self.work) / self.mult.max(1);
        let fits: Vec<usize> = (0..self.prog.functions.len())
            .filter(|&i| self.prog.functions[i].work < room)
            .collect();
        if fits.is_empty() {
            return false;
        }
        let f = self.prog.functions[fits[self.c.index(fits.len())]].clone();
        let mut args = Vec::new();
        for (i, p) in f.params.iter().enumerate() {
            if f.recursive && i == 0 {
                args.push(self.c.range(0, 3).to_string());
                continue;
            }
            let mut ctx = ExprCtx::default();
            let a = match *p {
                CType::Scalar(s) => self.store_expr(s, &mut ctx),
                CType::Ptr(s) => self.pointer_arg(s),
                CType::Array(_) => unreachable!(),
            };
            args.push(a);
        }
        let call = format!("{}({})", f.name, args.join(", "));
        match f.ret {
            Some(rt) if self.c.chance(5, 6) => {
                let Some(id) = self.pick_writable(|_| true) else {
                    self.out.line(&format!("(void){call};"));
                    return true;
                };
                let v = self.vars[id].clone();
                let to = v.scalar().unwrap();
                let e = self.copy_value(&call, rt, to);
                self.out.line(&format!("{} = {e};", v.name));
            }
            Some(_) => self.out.line(&format!("(void){call};")),
            None => self.out.line(&format!("{call};")),
        }
        self.work = self.work.saturating_add(self.mult.saturating_mul(f.work + 1));
        true
    }

    /// `mix(va_sum(k, (long long)(a), ...));` with 0 to 4 integer arguments.
    fn variadic_call(&mut self) -> bool {
        let k = self.c.range(0, 4);
        let mut args = vec![k.to_string()];
        for _ in 0..k {
            let mut ty = self.random_scalar();
            if ty.is_float() {
                ty = Scalar::Int;
            }
            let mut ctx = ExprCtx::default();
            let e = self.store_expr(ty, &mut ctx);
            args.push(format!("(long long)({e})"));
        }
        self.use_helper(Helper::VaSum);
        self.mix_value(&format!("va_sum({})", args.join(", ")), Scalar::ULLong);
        self.work = self.work.saturating_add(self.mult.saturating_mul(k + 1));
        true
    }

    /// A pointer argument: `&x` for a local or global of type `ty` (any
    /// depth: the callee returns before the block ends), or a pointer variable.
    pub fn pointer_arg(&mut self, ty: Scalar) -> String {
        let ptrs: Vec<String> = self
            .in_scope()
            .filter(|&id| self.vars[id].ty == CType::Ptr(ty))
            .map(|id| self.vars[id].name.clone())
            .collect();
        if !ptrs.is_empty() && self.c.chance(1, 3) {
            return ptrs[self.c.index(ptrs.len())].clone();
        }
        let cands = self.address_candidates(ty, usize::MAX);
        if cands.is_empty() {
            // Every program has a global of each type; this is only reached
            // when there are none in scope, which cannot happen.
            return format!("({} *)0", ty.name());
        }
        let locals: Vec<&str> = cands.iter().filter(|c| c.depth > 0).map(|c| c.addr.as_str()).collect();
        if !locals.is_empty() && self.c.chance(3, 4) {
            return locals[self.c.index(locals.len())].to_string();
        }
        cands[self.c.index(cands.len())].addr.clone()
    }

    /// A declaration without initializer, assigned on every path before any
    /// use: right away, in both branches of an if/else, or in every case of
    /// a switch with a default.
    fn uninit_decl(&mut self) -> bool {
        let ty = self.random_scalar();
        let name = self.fresh(&format!("{}_", ty.tag()));
        self.out.line(&format!("{} {name};", ty.name()));
        self.charge();
        let form = if self.nest < self.cfg.max_depth {
            self.c.index(3)
        } else {
            0
        };
        // The branches must not jump away before the assignment.
        let saved = self.enter_no_jumps();
        match form {
            0 => {
                let mut ctx = ExprCtx::default();
                let e = self.store_expr(ty, &mut ctx);
                self.out.line(&format!("{name} = {e};"));
            }
            1 => {
                let mut ctx = ExprCtx::default();
                let c = self.cond(2, &mut ctx);
                let w0 = self.work;
                self.out.open(&format!("if ({c}) {{"));
                self.assigning_body(&name, ty);
                let w1 = self.work - w0;
                self.work = w0;
                self.out.close("} else {");
                self.out.indent += 1;
                self.assigning_body(&name, ty);
                let w2 = self.work - w0;
                self.out.close("}");
                self.work = w0 + w1.max(w2);
            }
            _ => {
                let mut ctx = ExprCtx::default();
                let sel = self.expr(Scalar::UInt, 1, &mut ctx);
                let n = self.c.range(1, 4);
                self.out.open(&format!("switch ({sel} % {}u) {{", n + 1));
                let w0 = self.work;
                let mut worst = 0;
                for k in 0..=n {
                    if k == n {
                        self.out.open("default: {");
                    } else {
                        self.out.open(&format!("case {k}: {{"));
                    }
                    self.assigning_body(&name, ty);
                    self.out.close("}");
                    self.out.line("    break;");
                    worst = worst.max(self.work - w0);
                    self.work = w0;
                }
                self.out.close("}");
                self.work = w0 + worst;
            }
        }
        self.leave_no_jumps(saved);
        self.add_var(name, CType::Scalar(ty), false, false);
        true
    }

    /// A branch that ends by assigning `name` (not yet readable).
    fn assigning_body(&mut self, name: &str, ty: Scalar) {
        if self.c.chance(1, 2) {
            self.scoped_body();
        }
        let mut ctx = ExprCtx::default();
        let e = self.store_expr(ty, &mut ctx);
        self.out.line(&format!("{name} = {e};"));
        self.charge();
    }

    /// Hide the enclosing loops, switches and goto labels: code generated
    /// until `leave_no_jumps` cannot leave it except by falling through.
    pub fn enter_no_jumps(&mut self) -> (usize, usize, Vec<String>) {
        self.no_jumps += 1;
        let saved = (self.loops, self.breakables, std::mem::take(&mut self.exit_labels));
        self.loops = 0;
        self.breakables = 0;
        saved
    }

    pub fn leave_no_jumps(&mut self, saved: (usize, usize, Vec<String>)) {
        self.no_jumps -= 1;
        self.loops = saved.0;
        self.breakables = saved.1;
        self.exit_labels = saved.2;
    }

    /// `if (c) { break; }`, `continue`, `goto <exit label>` or `return`.
    fn jump(&mut self) -> bool {
        let mut options = Vec::new();
        if self.breakables > 0 {
            options.push(0);
        }
        if self.loops > 0 {
            options.push(1);
        }
        if !self.exit_labels.is_empty() {
            options.push(2);
        }
        if self.may_return() {
            options.push(3);
        }
        if options.is_empty() {
            return false;
        }
        let mut ctx = ExprCtx::default();
        let c = self.cond(2, &mut ctx);
        let what = match self.c.pick(&options) {
            0 => "break;".to_string(),
            1 => "continue;".to_string(),
            2 => {
                let l = self.exit_labels[self.c.index(self.exit_labels.len())].clone();
                format!("goto {l};")
            }
            _ => match self.ret {
                Some(t) => {
                    let mut ctx = ExprCtx::default();
                    let e = self.store_expr(t, &mut ctx);
                    format!("return {e};")
                }
                None => "return;".to_string(),
            },
        };
        self.out.line(&format!("if ({c}) {{ {what} }}"));
        self.charge();
        true
    }
}
