//! One generated function: its parameters and locals, its body, and the
//! epilogue that folds every variable into the checksum.
//!
//! The generator walks the function once, writing C as it goes. It keeps
//! the variables in scope (globals, parameters, block locals) with what may
//! be done to each, and bounds the run time statically: `work` counts the
//! statements a call can execute, `mult` is the product of the trip counts
//! of the enclosing loops, and a construct is only chosen while
//! `work + mult * cost` stays under [`CgenConfig::max_work`].

use super::config::CgenConfig;
use super::model::{AddrCandidate, FnAttr, Helper, ProgramState, Signature, Text, Var};
use super::types::{CType, Scalar, ALL_SCALARS, ARRAY_LEN};
use crate::irgen::Choices;

pub(crate) struct FnGen<'p, 'a, 'b> {
    pub c: &'p mut Choices<'a, 'b>,
    pub cfg: &'p CgenConfig,
    pub prog: &'p mut ProgramState,
    pub out: Text,
    pub vars: Vec<Var>,
    /// Variable indices per open scope: `scopes[0]` the globals, `scopes[1]`
    /// the parameters and top-level locals.
    pub scopes: Vec<Vec<usize>>,
    next_id: usize,
    /// Statements a call of this function can execute so far (bound).
    pub work: u64,
    /// Product of the trip counts of the enclosing loops.
    pub mult: u64,
    /// Statements still to generate (all nesting levels together).
    pub stmts_left: usize,
    /// Compound statements around the current point.
    pub nest: usize,
    /// Enclosing loops (`continue` is possible) and loops or switches (`break`).
    pub loops: usize,
    pub breakables: usize,
    /// Labels just after enclosing forward-goto regions.
    pub exit_labels: Vec<String>,
    pub is_main: bool,
    pub ret: Option<Scalar>,
    /// Whether the function already has its computed goto: GCC assumes any
    /// `goto *` may reach any address-taken label of the function, so with
    /// two dispatch tables it would see paths into the second one that skip
    /// the initialization of its state (-Wmaybe-uninitialized).
    pub has_computed_goto: bool,
    /// Non-zero inside code that must not jump (branches assigning a
    /// variable declared without initializer).
    pub no_jumps: usize,
    /// A small helper (1 to 3 locals, a quarter of the statements).
    pub small: bool,
    /// Parameter 0 is a recursion depth; the body starts with the recursive call.
    pub recursive: bool,
    pub attr: FnAttr,
    /// Existing locals made read-only while a loop keeps a previous value
    /// in them (`control.rs`, `saved_value`), innermost last.
    pub frozen: Vec<usize>,
}

impl<'p, 'a, 'b> FnGen<'p, 'a, 'b> {
    pub fn new(
        c: &'p mut Choices<'a, 'b>,
        cfg: &'p CgenConfig,
        prog: &'p mut ProgramState,
        globals: &[Var],
        is_main: bool,
        ret: Option<Scalar>,
    ) -> Self {
        FnGen {
            c,
            cfg,
            prog,
            out: Text::new(1),
            vars: globals.to_vec(),
            scopes: vec![(0..globals.len()).collect(), Vec::new()],
            next_id: 0,
            work: 0,
            mult: 1,
            stmts_left: 0,
            nest: 0,
            loops: 0,
            breakables: 0,
            exit_labels: Vec::new(),
            is_main,
            ret,
            no_jumps: 0,
            frozen: Vec::new(),
            has_computed_goto: false,
            small: false,
            recursive: false,
            attr: FnAttr::Plain,
        }
    }

    /// A fresh name (unique in the function, so labels may use it too).
    pub fn fresh(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    pub fn depth(&self) -> usize {
        self.scopes.len() - 1
    }

    /// Record a variable in the innermost scope; returns its index.
    pub fn add_var(&mut self, name: String, ty: CType, volatile: bool, readonly: bool) -> usize {
        let depth = self.depth();
        self.vars.push(Var {
            name,
            ty,
            volatile,
            readonly,
            depth,
            target_depth: 0,
            into_local_array: false,
        });
        let id = self.vars.len() - 1;
        self.scopes.last_mut().expect("a scope is open").push(id);
        id
    }

    /// The variables in scope, outermost first.
    pub fn in_scope(&self) -> impl Iterator<Item = usize> + '_ {
        self.scopes.iter().flatten().copied()
    }

    /// Charge one statement executed `mult` times.
    pub fn charge(&mut self) {
        self.work = self.work.saturating_add(self.mult);
    }

    /// Can a loop of `trip` iterations still be afforded here?
    pub fn max_trip_here(&self) -> u32 {
        let room = (self.cfg.max_work / 16) / self.mult.max(1);
        room.min(self.cfg.max_trip as u64) as u32
    }

    pub fn use_helper(&mut self, h: Helper) {
        self.prog.helpers.insert(h);
    }

    pub fn random_scalar(&mut self) -> Scalar {
        // Ints and long longs a little more often than the rest.
        let i = self.c.index(ALL_SCALARS.len() + 3);
        match i {
            13 => Scalar::Int,
            14 => Scalar::LLong,
            15 => Scalar::UInt,
            _ => ALL_SCALARS[i],
        }
    }

    /// Objects a pointer to `ty` declared at `depth` may point to, as C
    /// address expressions with their declaration depth.
    pub fn address_candidates(&self, ty: Scalar, max_depth: usize) -> Vec<AddrCandidate> {
        let mut out = Vec::new();
        for id in self.in_scope() {
            let v = &self.vars[id];
            if v.volatile || v.readonly || v.depth > max_depth {
                continue;
            }
            match v.ty {
                CType::Scalar(s) if s == ty => out.push(AddrCandidate {
                    addr: format!("&{}", v.name),
                    depth: v.depth,
                    local_array: false,
                }),
                CType::Array(s) if s == ty => {
                    let k = out.len() % ARRAY_LEN;
                    out.push(AddrCandidate {
                        addr: format!("&{}[{k}]", v.name),
                        depth: v.depth,
                        local_array: v.depth > 0,
                    });
                }
                _ => {}
            }
        }
        out
    }

    /// Declare the top-level locals of a function body: scalars of every
    /// width (some volatile, some without initializer and assigned right
    /// after), pointers to locals and globals, and small arrays.
    pub fn declare_locals(&mut self, n: usize) {
        let mut pending_assign = Vec::new();
        for _ in 0..n {
            let roll = self.c.range(0, 99) as u32;
            if roll < self.cfg.pointer_percent {
                let pointee = self.random_scalar();
                self.declare_pointer(pointee);
            } else if roll < self.cfg.pointer_percent + 3 {
                let elem = self.random_scalar();
                self.declare_array(elem);
            } else {
                let ty = self.random_scalar();
                let volatile = self.c.range(0, 99) < self.cfg.volatile_percent as u64;
                let name = self.fresh(&format!("{}_", ty.tag()));
                let qual = if volatile { "volatile " } else { "" };
                if !volatile && self.c.range(0, 99) < self.cfg.uninit_percent as u64 {
                    // Declared now, assigned below, readable only after that.
                    self.out.line(&format!("{qual}{} {name};", ty.name()));
                    pending_assign.push((name, ty));
                } else {
                    let init = self.constant(ty);
                    self.out.line(&format!("{qual}{} {name} = {init};", ty.name()));
                    self.add_var(name, CType::Scalar(ty), volatile, false);
                }
            }
        }
        for (name, ty) in pending_assign {
            let mut ctx = super::expr::ExprCtx::default();
            let e = self.store_expr(ty, &mut ctx);
            self.out.line(&format!("{name} = {e};"));
            self.charge();
            self.add_var(name, CType::Scalar(ty), false, false);
        }
    }

    /// `T *p = &x;` for some `x` of type `T` in scope (a global always exists).
    pub fn declare_pointer(&mut self, pointee: Scalar) {
        let depth = self.depth();
        let cands = self.address_candidates(pointee, depth);
        if cands.is_empty() {
            return;
        }
        let target = cands[self.c.index(cands.len())].clone();
        let name = self.fresh(&format!("p{}_", pointee.tag()));
        self.out.line(&format!("{} *{name} = {};", pointee.name(), target.addr));
        let id = self.add_var(name, CType::Ptr(pointee), false, false);
        self.vars[id].target_depth = target.depth;
        self.vars[id].into_local_array = target.local_array;
    }

    /// `T arr[4] = {...};`
    pub fn declare_array(&mut self, elem: Scalar) {
        let name = self.fresh(&format!("arr_{}_", elem.tag()));
        let inits: Vec<String> = (0..ARRAY_LEN).map(|_| self.constant(elem)).collect();
        self.out.line(&format!(
            "{} {name}[{ARRAY_LEN}] = {{{}}};",
            elem.name(),
            inits.join(", ")
        ));
        self.add_var(name, CType::Array(elem), false, false);
    }

    /// `mix(...)` calls for every value of variable `id` (pointers: the pointee).
    pub fn mix_var(&mut self, id: usize) {
        let v = self.vars[id].clone();
        match v.ty {
            CType::Scalar(s) => self.mix_value(&v.name, s),
            CType::Ptr(s) => self.mix_value(&format!("*{}", v.name), s),
            CType::Array(s) => {
                for k in 0..ARRAY_LEN {
                    self.mix_value(&format!("{}[{k}]", v.name), s);
                }
            }
        }
    }

    /// `mix(value)` for a value of type `ty`.
    pub fn mix_value(&mut self, value: &str, ty: Scalar) {
        self.use_helper(Helper::Mix);
        if ty.is_float() {
            self.use_helper(Helper::MixF64);
            self.out.line(&format!("mix_f64({value});"));
        } else {
            self.out.line(&format!("mix((unsigned long long){value});"));
        }
        self.charge();
    }

    /// Open a nested scope (the caller writes the brace).
    pub fn open_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    /// Close the innermost scope, mixing its variables first so that every
    /// local is used and its final value observable.
    pub fn close_scope(&mut self) {
        let ids = self.scopes.last().cloned().unwrap_or_default();
        for id in ids {
            self.mix_var(id);
        }
        self.scopes.pop();
    }

    /// A helper function's body and signature: parameters, locals,
    /// statements, epilogue.
    pub fn build_function(mut self, name: &str, params: &[CType]) -> (String, Signature) {
        let mut decls = Vec::new();
        for (i, &p) in params.iter().enumerate() {
            let (pname, text) = match p {
                CType::Scalar(s) => {
                    let n = format!("arg{i}_{}", s.tag());
                    (n.clone(), format!("{} {n}", s.name()))
                }
                CType::Ptr(s) => {
                    let n = format!("parg{i}_{}", s.tag());
                    (n.clone(), format!("{} *{n}", s.name()))
                }
                CType::Array(_) => unreachable!("array parameter"),
            };
            decls.push(text);
            // The recursion depth is never written.
            let readonly = self.recursive && i == 0;
            let id = self.add_var(pname, p, false, readonly);
            if matches!(p, CType::Ptr(_)) {
                // The caller's object lives as long as this call: a global
                // pointer must not keep it. It could be an array element.
                self.vars[id].target_depth = 1;
                self.vars[id].into_local_array = true;
            }
        }
        let max_locals = if self.small { 3 } else { self.cfg.max_locals.max(1) };
        let nlocals = self.c.range(1, max_locals as u64) as usize;
        self.declare_locals(nlocals);
        if self.recursive {
            self.recursive_call(name, params);
        }
        self.stmts_left = if self.small {
            (self.cfg.stmts_per_function / 4).max(1)
        } else {
            self.cfg.stmts_per_function
        };
        self.body_statements();
        let ids: Vec<usize> = self.scopes[1].clone();
        for id in ids {
            self.mix_var(id);
        }
        let ret = match self.ret {
            Some(t) => {
                let mut ctx = super::expr::ExprCtx::default();
                let e = self.store_expr(t, &mut ctx);
                format!("    return {e};\n")
            }
            None => String::new(),
        };
        // gcc refuses to inline a function with a computed goto, or a
        // recursive one, even when told to.
        let attr = match self.attr {
            FnAttr::AlwaysInline if self.has_computed_goto || self.recursive => FnAttr::Static,
            a => a,
        };
        let head = format!(
            "{}{} {name}({})",
            attr.prefix(),
            self.ret.map_or("void", |t| t.name()),
            if decls.is_empty() {
                "void".to_string()
            } else {
                decls.join(", ")
            }
        );
        let text = format!("{head} {{\n{}{ret}}}\n", self.out.buf);
        // A recursive call chain runs the body at most 4 times (depth 3 to 0).
        let runs = if self.recursive { 4 } else { 1 };
        let sig = Signature {
            name: name.to_string(),
            params: params.to_vec(),
            ret: self.ret,
            work: (self.work + 1).saturating_mul(runs),
            recursive: self.recursive,
        };
        (text, sig)
    }

    /// `if (arg0_i32 > 0) mix(name(arg0_i32 - 1, ...));` at the top of a
    /// recursive function (parameter 0 is the depth, which nothing writes).
    fn recursive_call(&mut self, name: &str, params: &[CType]) {
        let depth = format!("arg0_{}", Scalar::Int.tag());
        let mut args = vec![format!("{depth} - 1")];
        for p in &params[1..] {
            let mut ctx = super::expr::ExprCtx::default();
            let a = match *p {
                CType::Scalar(s) => self.store_expr(s, &mut ctx),
                CType::Ptr(s) => self.pointer_arg(s),
                CType::Array(_) => unreachable!("array parameter"),
            };
            args.push(a);
        }
        let call = format!("{name}({})", args.join(", "));
        self.out.open(&format!("if ({depth} > 0) {{"));
        match self.ret {
            Some(_) => {
                self.use_helper(Helper::Mix);
                self.out.line(&format!("mix((unsigned long long){call});"));
            }
            None => self.out.line(&format!("{call};")),
        }
        self.out.close("}");
        self.charge();
    }

    /// `main`: many locals, statements with printed checkpoints, and the
    /// final checksum of all locals and globals.
    pub fn build_main(mut self, nlocals: usize) -> String {
        self.declare_locals(nlocals);
        for _ in 0..self.cfg.covering_dispatch_loops {
            self.covering_dispatch_loop();
        }
        let checkpoints = self.cfg.checkpoints;
        let per_part = (self.cfg.stmts_per_function / (checkpoints + 1)).max(1);
        for k in 0..=checkpoints {
            self.stmts_left = per_part;
            self.body_statements();
            if k < checkpoints {
                self.checkpoint(k);
            }
        }
        let ids: Vec<usize> = self.scopes[1].clone();
        for id in ids {
            self.mix_var(id);
        }
        let globals: Vec<usize> = self.scopes[0].clone();
        for id in globals {
            self.mix_var(id);
        }
        self.out.line("printf(\"checksum %016llx\\n\", checksum);");
        self.out.line("return 0;");
        format!("int main(void) {{\n{}}}\n", self.out.buf)
    }

    /// Mix a few locals and print the checksum so far.
    fn checkpoint(&mut self, k: usize) {
        let ids: Vec<usize> = self.scopes[1].clone();
        for id in ids {
            if self.c.chance(1, 3) {
                self.mix_var(id);
            }
        }
        self.use_helper(Helper::Mix);
        self.out
            .line(&format!("printf(\"checkpoint {k}: %016llx\\n\", checksum);"));
    }
}
