//! Alloca-form program generator: what the C frontend produces, aimed at every
//! rule of mem2reg and phi elimination.
//!
//! A module has 1 to 8 functions (each calls earlier ones, itself when
//! recursive, sometimes the variadic `@vsum`, and the declared externals
//! `@sink(i64)` and `@escape(ptr)`); the last is `main`. The call graph
//! (small, recursive, `always_inline` and `noinline` functions, cheap leaves
//! called inside loops) is in `callgraph.rs`.
//! A function declares its variables as allocas (parameter allocas first, then
//! `paramref` + `store`), then runs a structured list of statements:
//! assignments (including `i64` constants stored into narrower variables and
//! reads before any write), if/else diamonds (and if-without-else, which makes
//! critical edges), bounded `while` and `do-while` loops, switches with
//! duplicate targets and fallthrough (sparse ones, whose cases are multiples
//! of a stride, after a loop that sweeps every case value and marks a global
//! per case, so the backend's binary search over them is checked), `asm` and
//! `asm goto` with register
//! outputs into variables (and statements after the asm in the same block),
//! memory-constraint asm outputs, computed gotos through `labeladdr`, calls,
//! swaps and rotations, escapes (call argument, GEP base, stored as a value),
//! stores to globals and early returns, and loops over values they never
//! change (invariant expressions for LICM, and a division behind a test of
//! its divisor inside the loop, which LICM must not hoist past the test). Some variables are volatile, wider
//! than 8 bytes, or declared in a non-entry block (as inlined code would).
//! Loops entered at two blocks (irreducible), and `b = a; a = e;` in loops
//! (a header phi reading another phi unchanged on the back edge, in both
//! orders of the two phis). Single-block loops carrying one to three
//! locals only they touch (loaded before stored, rotated among themselves).
//! Type punning as unions lower: a float read as its integer bits, an
//! integer read at another width or partly overwritten by a narrower store,
//! and union cells never accessed at their declared type.
//! One input in [`BIG_MAIN_ONE_IN`] (decided by its first byte) gets a `main`
//! with a dispatch loop over hundreds of variables and a sequence of 100-case
//! switches whose cases assign them all, enough to cross mem2reg's phi cost limit.
//!
//! Each function ends by folding all its variables into a checksum that it
//! stores to a global, passes to `@sink` and returns, so every variable's
//! final value is observable.

use super::{Choices, Emit};
use arbitrary::Unstructured;
use phicc::ir::reexports::*;

/// Scalar types a variable can have (wide ones are never promotable).
const VAR_TYPES: &[IrType] = &[
    IrType::I8,
    IrType::I16,
    IrType::I32,
    IrType::I64,
    IrType::U8,
    IrType::U16,
    IrType::U32,
    IrType::U64,
    IrType::I32,
    IrType::I64,
    IrType::F32,
    IrType::F64,
    IrType::Ptr,
];

/// The size knob: one input in this many gets the big `main` whose dispatch
/// loop crosses mem2reg's phi copy-cost limit.
pub const BIG_MAIN_ONE_IN: u64 = 64;

/// Globals every module has: four observable `i64` cells and a 4-element array.
const GLOBALS: &[(&str, usize)] = &[("g0", 8), ("g1", 8), ("g2", 8), ("g3", 8), ("arr", 32)];

#[derive(Clone, Copy, Debug)]
struct Var {
    ptr: Value,
    ty: IrType,
}

use super::callgraph::{self, Callee, CalleeKind, FnShape};

/// Generate an alloca-form module from `u`. Every input gives a valid module.
pub fn generate(u: &mut Unstructured) -> IrModule {
    let mut c = Choices::new(u);
    let mut module = IrModule::default();
    for (name, size) in GLOBALS {
        module.globals.push(IrGlobal {
            name: name.to_string(),
            ty: IrType::I64,
            size: *size,
            align: 8,
            ..IrGlobal::default()
        });
    }
    let sink = IrFunction {
        is_declaration: true,
        ..IrFunction::new("sink", IrType::I64, vec![IrParam::scalar(IrType::I64)])
    };
    let escape = IrFunction {
        is_declaration: true,
        ..IrFunction::new("escape", IrType::I64, vec![IrParam::scalar(IrType::Ptr)])
    };
    module.functions.push(sink);
    module.functions.push(escape);

    // The size knob, read first so that every input (at least 64 bytes) decides it.
    let big_main = c.chance(1, BIG_MAIN_ONE_IN);
    // The call graph (`callgraph.rs`): a variadic callee now and then, then
    // the generated functions, each calling earlier ones (and itself, when recursive).
    let mut next_block = 0u32;
    let mut callees: Vec<Callee> = Vec::new();
    if c.chance(1, 3) {
        module.functions.push(callgraph::vsum_function(&mut next_block));
        callees.push(Callee::vsum());
    }
    let nfuncs = c.range(1, 8) as usize;
    for i in 0..nfuncs {
        let is_main = i + 1 == nfuncs;
        let shape = if is_main {
            FnShape::default()
        } else {
            FnShape::choose(&mut c)
        };
        let (name, mut params, ret) = if is_main {
            ("main".to_string(), Vec::new(), IrType::I64)
        } else {
            let n = c.range(0, 4) as usize;
            let params: Vec<IrType> = (0..n).map(|_| c.pick(VAR_TYPES)).collect();
            (format!("f{i}"), params, c.pick(&[IrType::I64, IrType::I32, IrType::U8]))
        };
        if shape.recursive {
            // The recursion depth comes first; callers pass 0 to 3.
            params.insert(0, IrType::I32);
        }
        let big = is_main && big_main;
        let me = Callee {
            name: name.clone(),
            params: params.clone(),
            ret,
            kind: if shape.recursive {
                CalleeKind::Recursive
            } else {
                CalleeKind::Plain
            },
            cheap: false,
        };
        let mut gen = FnGen::new(&mut c, &mut next_block, &callees);
        gen.shape = shape;
        let (func, calls_internal) = gen.build(&me, big);
        module.functions.push(func);
        callees.push(Callee {
            cheap: shape.small && !shape.recursive && !calls_internal,
            ..me
        });
    }
    module
}

struct FnGen<'g, 'a, 'b> {
    c: &'g mut Choices<'a, 'b>,
    next_block: &'g mut u32,
    callees: &'g [Callee],
    blocks: Vec<BasicBlock>,
    cur: usize,
    next_value: u32,
    /// Variables in scope; the function-scope ones come first.
    vars: Vec<Var>,
    entry_allocas: Vec<Instruction>,
    stmts_left: usize,
    loop_depth: usize,
    nest: usize,
    ret: IrType,
    shape: FnShape,
    /// The function calls a generated function (it is no leaf).
    calls_internal: bool,
}

impl Emit for FnGen<'_, '_, '_> {
    fn value(&mut self) -> Value {
        let v = Value(self.next_value);
        self.next_value += 1;
        v
    }

    fn emit(&mut self, inst: Instruction) {
        self.blocks[self.cur].instructions.push(inst);
    }
}

impl<'g, 'a, 'b> FnGen<'g, 'a, 'b> {
    fn new(c: &'g mut Choices<'a, 'b>, next_block: &'g mut u32, callees: &'g [Callee]) -> Self {
        FnGen {
            c,
            next_block,
            callees,
            blocks: Vec::new(),
            cur: 0,
            next_value: 0,
            vars: Vec::new(),
            entry_allocas: Vec::new(),
            stmts_left: 0,
            loop_depth: 0,
            nest: 0,
            ret: IrType::I64,
            shape: FnShape::default(),
            calls_internal: false,
        }
    }

    /// The function `me` describes, and whether it calls a generated function.
    fn build(mut self, me: &Callee, big: bool) -> (IrFunction, bool) {
        let (name, params, ret) = (me.name.as_str(), me.params.as_slice(), me.ret);
        self.ret = ret;
        let entry = self.new_block();
        self.cur = entry;
        // Parameter allocas are the first N allocas of the entry block.
        for &ty in params {
            let ptr = self.alloca(ty, ty.size(), false);
            self.vars.push(Var { ptr, ty });
        }
        let mut param_stores = Vec::new();
        for (i, &ty) in params.iter().enumerate() {
            let v = self.value();
            param_stores.push(Instruction::ParamRef {
                dest: v,
                param_idx: i,
                ty,
            });
            param_stores.push(Instruction::Store {
                val: Operand::Value(v),
                ptr: self.vars[i].ptr,
                ty,
                seg_override: AddressSpace::Default,
            });
        }
        let nvars = match (big, self.shape.small) {
            (true, _) => 160,
            (false, true) => self.c.range(1, 3) as usize,
            (false, false) => self.c.range(1, 10) as usize,
        };
        for _ in 0..nvars {
            self.declare_var(true);
        }
        // Statements come after the paramref/stores in the entry block.
        self.blocks[entry].instructions.extend(param_stores);
        // Some variables start initialized, others are read before any write.
        for i in params.len()..self.vars.len() {
            if self.c.chance(1, 2) {
                let v = self.vars[i];
                let val = self.constant(v.ty);
                self.store(v, val);
            }
        }
        if me.kind == CalleeKind::Recursive {
            self.recurse(me);
        }
        if big {
            self.dispatch_loop();
        }
        self.stmts_left = if self.shape.small {
            self.c.range(1, 5) as usize
        } else {
            self.c.range(2, 40) as usize
        };
        while self.stmts_left > 0 && !self.c.is_exhausted() {
            self.stmt();
        }
        let sum = self.checksum();
        self.terminate(Terminator::Return(Some(sum)));

        let mut blocks = self.blocks;
        let allocas = std::mem::take(&mut self.entry_allocas);
        blocks[0].instructions.splice(0..0, allocas);
        let mut f = IrFunction::new(name, ret, params.iter().map(|&t| IrParam::scalar(t)).collect());
        f.blocks = blocks;
        f.next_value_id = self.next_value;
        self.shape.apply(&mut f);
        (f, self.calls_internal)
    }

    // ---- emission helpers ----

    fn new_block(&mut self) -> usize {
        let label = BlockId(*self.next_block);
        *self.next_block += 1;
        self.blocks.push(BasicBlock::new(label));
        self.blocks.len() - 1
    }

    fn label(&self, idx: usize) -> BlockId {
        self.blocks[idx].label
    }

    fn terminate(&mut self, t: Terminator) {
        self.blocks[self.cur].terminator = t;
    }

    fn alloca(&mut self, ty: IrType, size: usize, volatile: bool) -> Value {
        let dest = self.value();
        self.entry_allocas.push(Instruction::Alloca {
            dest,
            ty,
            size,
            align: ty.align(),
            volatile,
        });
        dest
    }

    /// A new variable: usually an ordinary promotable scalar; sometimes
    /// volatile, padded past 8 bytes, or 128-bit (none of which mem2reg may
    /// promote); in the entry block, or (`at_entry == false`) in the current block.
    fn declare_var(&mut self, at_entry: bool) -> Var {
        let wide = self.c.chance(1, 16);
        let ty = if wide {
            self.c.pick(&[IrType::I128, IrType::U128])
        } else {
            self.c.pick(VAR_TYPES)
        };
        let volatile = self.c.chance(1, 10);
        let size = match self.c.range(0, 15) {
            0 => 16,
            1 => 8.max(ty.size()),
            _ => ty.size(),
        };
        let ptr = if at_entry {
            self.alloca(ty, size, volatile)
        } else {
            let dest = self.value();
            self.emit(Instruction::Alloca {
                dest,
                ty,
                size,
                align: ty.align(),
                volatile,
            });
            dest
        };
        let var = Var { ptr, ty };
        self.vars.push(var);
        var
    }

    fn load(&mut self, var: Var) -> Operand {
        let dest = self.value();
        self.emit(Instruction::Load {
            dest,
            ptr: var.ptr,
            ty: var.ty,
            seg_override: AddressSpace::Default,
        });
        Operand::Value(dest)
    }

    fn store(&mut self, var: Var, val: Operand) {
        self.emit(Instruction::Store {
            val,
            ptr: var.ptr,
            ty: var.ty,
            seg_override: AddressSpace::Default,
        });
    }

    fn global_addr(&mut self, name: &str) -> Value {
        let dest = self.value();
        self.emit(Instruction::GlobalAddr {
            dest,
            name: name.to_string(),
        });
        dest
    }

    // ---- values ----

    fn constant(&mut self, ty: IrType) -> Operand {
        let raw = self.c.bits();
        let small = (raw % 17) as i64 - 8;
        let c = match ty {
            IrType::F32 => IrConst::F32(small as f32 * 0.5),
            IrType::F64 => IrConst::F64(small as f64 * 0.25),
            IrType::Ptr => IrConst::I64(0),
            t if raw & 0x100 != 0 => IrConst::from_i64(raw as i64 >> 8, t),
            // An i64 literal stored into a narrower integer: mem2reg must narrow it.
            t if raw & 0x200 != 0 && t.size() < 8 => IrConst::I64(small + 0x1_0000_0000),
            t => IrConst::from_i64(small, t),
        };
        Operand::Const(c)
    }

    /// Vars of type `ty` in scope.
    fn vars_of(&self, ty: IrType) -> Vec<Var> {
        self.vars.iter().copied().filter(|v| v.ty == ty).collect()
    }

    /// An expression of type `ty`, evaluated in the current block.
    fn expr(&mut self, ty: IrType, depth: usize) -> Operand {
        if ty == IrType::Ptr {
            return self.pointer_expr();
        }
        match self.c.range(0, if depth == 0 { 3 } else { 6 }) {
            // The untyped `zero` through a copy, as the IR text allows: copy
            // propagation cannot resolve it to a typed constant and keeps it.
            0 if ty == IrType::I64 && self.c.chance(1, 8) => {
                let dest = self.value();
                self.emit(Instruction::Copy {
                    dest,
                    src: Operand::Const(IrConst::Zero),
                });
                Operand::Value(dest)
            }
            0 => self.constant(ty),
            1 | 2 => {
                let same = self.vars_of(ty);
                if !same.is_empty() && self.c.chance(3, 4) {
                    let v = self.c.pick(&same);
                    self.load(v)
                } else {
                    let v = self.c.pick(&self.vars.clone());
                    if v.ty == IrType::Ptr {
                        return self.constant(ty);
                    }
                    let l = self.load(v);
                    self.cast(l, v.ty, ty)
                }
            }
            3 => {
                let v = self.c.pick(&self.vars.clone());
                if v.ty.is_float() || v.ty == IrType::Ptr {
                    return self.constant(ty);
                }
                let l = self.load(v);
                self.cast(l, v.ty, ty)
            }
            _ => {
                let l = self.expr(ty, depth - 1);
                let r = self.expr(ty, depth - 1);
                self.arith(ty, l, r)
            }
        }
    }

    /// `l op r` at `ty` with guards: divisors are made nonzero (and positive
    /// for signed ops, so `MIN / -1` cannot happen) and shift amounts masked.
    fn arith(&mut self, ty: IrType, l: Operand, r: Operand) -> Operand {
        if ty.is_float() {
            let op = self.c.pick(&[IrBinOp::Add, IrBinOp::Sub, IrBinOp::Mul, IrBinOp::SDiv]);
            return self.binop(op, l, r, ty);
        }
        let op = self.c.pick(IrBinOp::ALL);
        let one = Operand::Const(IrConst::from_i64(1, ty));
        let r = match op {
            IrBinOp::UDiv | IrBinOp::URem => self.binop(IrBinOp::Or, r, one, ty),
            IrBinOp::SDiv | IrBinOp::SRem => {
                let m = self.binop(IrBinOp::And, r, Operand::Const(IrConst::from_i64(7, ty)), ty);
                self.binop(IrBinOp::Add, m, one, ty)
            }
            IrBinOp::Shl | IrBinOp::AShr | IrBinOp::LShr => {
                let mask = Operand::Const(IrConst::from_i64(ty.bits() as i64 - 1, ty));
                self.binop(IrBinOp::And, r, mask, ty)
            }
            _ => r,
        };
        self.binop(op, l, r, ty)
    }

    /// A pointer value: a global cell (possibly offset within `@arr`) or a
    /// pointer variable (which may be null or point at a local of another type,
    /// so only [`FnGen::global_cell`] results are ever dereferenced).
    fn pointer_expr(&mut self) -> Operand {
        let ptrs = self.vars_of(IrType::Ptr);
        if !ptrs.is_empty() && self.c.chance(1, 3) {
            let v = self.c.pick(&ptrs);
            return self.load(v);
        }
        Operand::Value(self.global_cell())
    }

    /// The address of an `i64` cell of a global: safe to load and store.
    fn global_cell(&mut self) -> Value {
        let (name, size) = self.c.pick(GLOBALS);
        let base = self.global_addr(name);
        if size > 8 && self.c.chance(1, 2) {
            let off = self.c.range(0, (size / 8 - 1) as u64) as i64 * 8;
            let dest = self.value();
            self.emit(Instruction::GetElementPtr {
                dest,
                base,
                offset: Operand::Const(IrConst::I64(off)),
                ty: IrType::I64,
            });
            return dest;
        }
        base
    }

    /// An `i8` 0/1 condition.
    fn condition(&mut self) -> Operand {
        let ty = self
            .c
            .pick(&[IrType::I32, IrType::I64, IrType::U8, IrType::F64, IrType::Ptr]);
        let l = self.expr(ty, 1);
        let r = if ty == IrType::Ptr {
            self.pointer_expr()
        } else {
            self.expr(ty, 0)
        };
        // Pointers may point into different objects, whose order in memory
        // differs between the interpreter and the hardware: only equality
        // means the same on both (the pick consumes the same input either way).
        let op = if ty == IrType::Ptr {
            self.c.pick(&[IrCmpOp::Eq, IrCmpOp::Ne])
        } else {
            self.c.pick(IrCmpOp::ALL)
        };
        let dest = self.value();
        self.emit(Instruction::Cmp {
            dest,
            op,
            lhs: l,
            rhs: r,
            ty,
        });
        Operand::Value(dest)
    }

    /// A small unsigned selector `0..n` as an i32.
    fn selector(&mut self, n: u64) -> Operand {
        let e = self.expr(IrType::U32, 1);
        self.binop(IrBinOp::URem, e, Operand::Const(IrConst::I32(n as i32)), IrType::U32)
    }

    // ---- statements ----

    fn stmts(&mut self, max: u64) {
        let n = self.c.range(0, max);
        for _ in 0..n {
            if self.stmts_left == 0 {
                break;
            }
            self.stmt();
        }
    }

    fn stmt(&mut self) {
        self.stmts_left = self.stmts_left.saturating_sub(1);
        let structured = self.nest < 4;
        match self.c.range(0, 21) {
            0..=3 => self.assign(),
            4 if structured => self.if_else(),
            5 if structured && self.loop_depth < self.shape.max_loop_depth() => self.loop_stmt(),
            6 if structured => self.switch_stmt(),
            7 => self.asm_stmt(),
            8 if structured => self.asm_goto(),
            9 if structured => self.computed_goto(),
            10 => self.call_stmt(),
            11 => self.swap(),
            12 => self.rotate(),
            13 => self.escape(),
            14 => self.store_global(),
            15 if structured => self.early_return(),
            17 if structured && self.loop_depth < 2 => self.irreducible_loop(),
            18 if self.loop_depth > 0 => self.shift(),
            16 if self.loop_depth == 0 && self.nest > 0 => {
                let v = self.declare_var(false);
                let e = self.expr(v.ty, 1);
                self.store(v, e);
            }
            17 if structured && self.loop_depth < 3 => self.invariant_loop(),
            19 => self.pun(),
            20 if structured && self.loop_depth < 2 => self.self_loop(),
            _ => self.assign(),
        }
    }

    fn assign(&mut self) {
        let v = self.c.pick(&self.vars.clone());
        let e = self.expr(v.ty, 2);
        self.store(v, e);
    }

    /// Run `body` as a nested region: variables declared inside go out of scope after it.
    fn region(&mut self, max: u64) {
        let mark = self.vars.len();
        self.nest += 1;
        self.stmts(max);
        self.nest -= 1;
        self.vars.truncate(mark);
    }

    fn if_else(&mut self) {
        let cond = self.condition();
        let then_b = self.new_block();
        let join = self.new_block();
        let else_b = if self.c.chance(1, 2) {
            Some(self.new_block())
        } else {
            None
        };
        let f = self.label(else_b.unwrap_or(join));
        self.terminate(Terminator::CondBranch {
            cond,
            true_label: self.label(then_b),
            false_label: f,
        });
        for b in [Some(then_b), else_b].into_iter().flatten() {
            self.cur = b;
            self.region(4);
            self.terminate(Terminator::Branch(self.label(join)));
        }
        self.cur = join;
    }

    fn loop_stmt(&mut self) {
        let ctr = self.loop_counter();
        let trip = Operand::Const(IrConst::I32(self.c.range(0, 6) as i32));
        let exit = self.new_block();
        let body = self.new_block();
        self.loop_depth += 1;
        if self.c.chance(1, 2) {
            // while (ctr < trip) { body; ctr++; }
            let header = self.new_block();
            self.terminate(Terminator::Branch(self.label(header)));
            self.cur = header;
            let n = self.load(ctr);
            self.branch_if_less(n, trip, body, exit);
            self.cur = body;
            // Every variable is live at the header (the exit is there), so
            // this gives a header phi reading another header phi unchanged.
            if self.c.chance(1, 2) {
                self.shift();
            }
            self.region(5);
            self.increment(ctr);
            self.terminate(Terminator::Branch(self.label(header)));
        } else {
            // do { body; ctr++; } while (ctr < trip): the latch's back edge is critical.
            self.terminate(Terminator::Branch(self.label(body)));
            self.cur = body;
            self.region(5);
            let n = self.increment(ctr);
            if self.c.chance(1, 3) {
                self.computed_branch_if_less(n, trip, body, exit);
            } else {
                self.branch_if_less(n, trip, body, exit);
            }
        }
        self.loop_depth -= 1;
        self.cur = exit;
    }

    /// `while (ctr < trip) { x += n op d; if (d != 0) x += n / d; ... }` (entered
    /// in one of three ways, see below) where
    /// `n` and `d` are fresh locals set before the loop and never written in
    /// it: after mem2reg every read of them in the loop is invariant, so
    /// LICM may hoist `n op d` and the test, but not the division, which
    /// traps when `d` is 0 (often: `d` comes from a global cell, zero until
    /// something stores to it, or a local that may be unset). The test is
    /// `d > 0` for signed types, so `MIN / -1` cannot happen either.
    fn invariant_loop(&mut self) {
        let ty = self
            .c
            .pick(&[IrType::I32, IrType::I64, IrType::U32, IrType::U8, IrType::I16]);
        let d = Var {
            ptr: self.alloca(ty, ty.size(), false),
            ty,
        };
        let n = Var {
            ptr: self.alloca(ty, ty.size(), false),
            ty,
        };
        let dv = if self.c.chance(1, 2) {
            let cell = self.global_cell();
            let l = self.load(Var {
                ptr: cell,
                ty: IrType::I64,
            });
            self.cast(l, IrType::I64, ty)
        } else {
            self.expr(ty, 1)
        };
        self.store(d, dv);
        let nv = self.expr(ty, 1);
        self.store(n, nv);
        // The variable the loop accumulates into (part of the checksum).
        let targets: Vec<Var> = self
            .vars
            .iter()
            .copied()
            .filter(|v| v.ty != IrType::Ptr && !v.ty.is_128())
            .collect();
        let target = if targets.is_empty() {
            None
        } else {
            Some(self.c.pick(&targets))
        };

        let ctr = self.loop_counter();
        let trip = Operand::Const(IrConst::I32(self.c.range(0, 6) as i32));
        let header = self.new_block();
        let body = self.new_block();
        let divide = self.new_block();
        let cont = self.new_block();
        let exit = self.new_block();
        self.loop_depth += 1;
        // How the loop is entered: straight, from both arms of an if/else
        // (two entries, which LICM merges in a new preheader, with a phi when
        // an arm assigns), or behind a test that may skip it (an entry with
        // two successors: LICM needs a new preheader too).
        match self.c.range(0, 2) {
            0 => self.terminate(Terminator::Branch(self.label(header))),
            1 => {
                let cond = self.condition();
                let (a, b) = (self.new_block(), self.new_block());
                self.terminate(Terminator::CondBranch {
                    cond,
                    true_label: self.label(a),
                    false_label: self.label(b),
                });
                self.cur = a;
                self.assign();
                self.terminate(Terminator::Branch(self.label(header)));
                self.cur = b;
                if self.c.chance(1, 2) {
                    self.assign();
                }
                self.terminate(Terminator::Branch(self.label(header)));
            }
            _ => {
                let cond = self.condition();
                self.terminate(Terminator::CondBranch {
                    cond,
                    true_label: self.label(header),
                    false_label: self.label(exit),
                });
            }
        }
        self.cur = header;
        let i = self.load(ctr);
        self.branch_if_less(i, trip, body, exit);

        self.cur = body;
        let (ln, ld) = (self.load(n), self.load(d));
        let op = self.c.pick(&[
            IrBinOp::Add,
            IrBinOp::Sub,
            IrBinOp::Mul,
            IrBinOp::Xor,
            IrBinOp::And,
            IrBinOp::Or,
        ]);
        let inv = self.binop(op, ln, ld, ty);
        let k = self.constant(ty);
        let inv = self.binop(IrBinOp::Add, inv, k, ty);
        self.accumulate(target, inv, ty);
        let ld = self.load(d);
        let signed = ty.is_signed();
        let test = self.value();
        self.emit(Instruction::Cmp {
            dest: test,
            op: if signed { IrCmpOp::Sgt } else { IrCmpOp::Ne },
            lhs: ld,
            rhs: Operand::Const(IrConst::from_i64(0, ty)),
            ty,
        });
        self.terminate(Terminator::CondBranch {
            cond: Operand::Value(test),
            true_label: self.label(divide),
            false_label: self.label(cont),
        });

        self.cur = divide;
        let (ln, ld) = (self.load(n), self.load(d));
        let ops = if signed {
            [IrBinOp::SDiv, IrBinOp::SRem]
        } else {
            [IrBinOp::UDiv, IrBinOp::URem]
        };
        let op = self.c.pick(&ops);
        let q = self.binop(op, ln, ld, ty);
        self.accumulate(target, q, ty);
        self.terminate(Terminator::Branch(self.label(cont)));

        self.cur = cont;
        self.region(2);
        self.increment(ctr);
        self.terminate(Terminator::Branch(self.label(header)));
        self.loop_depth -= 1;
        self.cur = exit;
    }

    /// A loop entered at two blocks (an irreducible loop): the loop is a
    /// ring of 2 or 3 segments (each a region; the last counts the trips and
    /// goes back to the first) and the code before it branches either to the
    /// first segment or into the middle, to a later one. Often one of the
    /// two ways goes through a detour region first, so the entries come
    /// from blocks at different depths of the dominator tree (where a
    /// dominator iteration stopped too early gets a block's idom wrong).
    /// Variables assigned in the segments are live around both entries, so
    /// mem2reg puts phis at each.
    fn irreducible_loop(&mut self) {
        let ctr = self.loop_counter();
        let trip = Operand::Const(IrConst::I32(self.c.range(1, 5) as i32));
        let k = self.c.range(2, 3) as usize;
        let segs: Vec<usize> = (0..k).map(|_| self.new_block()).collect();
        let exit = self.new_block();
        let side = 1 + self.c.index(k - 1);
        let cond = self.condition();
        // 0: no detour, 1: a detour before the first segment, 2: before the side entry.
        let detour = self.c.range(0, 2);
        let mut entries = [segs[0], segs[side]];
        let pre = self.cur;
        if detour > 0 {
            let d = self.new_block();
            let to = entries[detour as usize - 1];
            entries[detour as usize - 1] = d;
            self.cur = d;
            self.region(2);
            self.terminate(Terminator::Branch(self.label(to)));
            self.cur = pre;
        }
        if self.c.chance(1, 2) {
            entries.swap(0, 1);
        }
        self.terminate(Terminator::CondBranch {
            cond,
            true_label: self.label(entries[0]),
            false_label: self.label(entries[1]),
        });
        self.loop_depth += 1;
        for i in 0..k {
            self.cur = segs[i];
            self.region(3);
            if i + 1 < k {
                self.terminate(Terminator::Branch(self.label(segs[i + 1])));
            } else {
                let n = self.increment(ctr);
                self.branch_if_less(n, trip, segs[0], exit);
            }
        }
        self.loop_depth -= 1;
        self.cur = exit;
    }

    /// `target += val` (converted to the target's type), or into `@g2` when
    /// there is no target.
    fn accumulate(&mut self, target: Option<Var>, val: Operand, ty: IrType) {
        let target = target.unwrap_or(Var {
            ptr: self.global_addr("g2"),
            ty: IrType::I64,
        });
        let v = self.cast(val, ty, target.ty);
        let old = self.load(target);
        let sum = self.binop(IrBinOp::Add, old, v, target.ty);
        self.store(target, sum);
    }

    /// `b = a; a = expr;` in a loop: at the loop header, `b`'s phi reads
    /// `a`'s phi unchanged on the back edge. Allocas become phis in alloca
    /// order, so half the time the phi being read comes first (its copy, if
    /// sequentialized in phi order, would clobber the value `b` needs).
    fn shift(&mut self) {
        let Some((x, y)) = self.pair() else {
            return self.assign();
        };
        // Order the pair by declaration, then pick which one is read.
        let (first, second) = if x.ptr.0 < y.ptr.0 { (x, y) } else { (y, x) };
        let (read, reader) = if self.c.chance(2, 3) {
            (first, second)
        } else {
            (second, first)
        };
        let l = self.load(read);
        self.store(reader, l);
        let e = self.expr(read.ty, 2);
        self.store(read, e);
    }

    /// Type punning of a variable, as C unions and `memcpy` lower: its bits
    /// read at another type, or part of it overwritten through a narrower
    /// integer type. mem2reg must keep such a variable in memory (or convert
    /// bit-exactly): a value conversion gives other bits. Only defined
    /// reinterpretations are made (the targets are little-endian, and no
    /// float is ever made from integer bits, so no NaN reaches a cast):
    /// - a float variable read as the unsigned integer of its size;
    /// - an integer variable read at a narrower integer type (its low bytes)
    ///   or at a wider one when its alloca is padded that far (zero-filled);
    /// - a narrower integer stored into the low bytes of an integer variable.
    fn pun(&mut self) {
        if self.c.chance(1, 3) {
            return self.union_cell();
        }
        let v = self.c.pick(&self.vars.clone());
        let mut var_size = 0;
        for inst in self
            .entry_allocas
            .iter()
            .chain(self.blocks.iter().flat_map(|b| b.instructions.iter()))
        {
            if let Instruction::Alloca { dest, size, .. } = inst {
                if *dest == v.ptr {
                    var_size = *size;
                }
            }
        }
        let ints = [
            IrType::U8,
            IrType::I8,
            IrType::U16,
            IrType::I16,
            IrType::U32,
            IrType::I32,
            IrType::U64,
            IrType::I64,
        ];
        let (read_ty, store_ty) = match v.ty {
            IrType::F32 => (Some(IrType::U32), None),
            IrType::F64 => (Some(IrType::U64), None),
            t if t.is_integer() && !t.is_128() => {
                let fits: Vec<IrType> = ints
                    .iter()
                    .copied()
                    .filter(|w| w.size() != t.size() && w.size() <= var_size)
                    .collect();
                let narrower: Vec<IrType> = ints.iter().copied().filter(|w| w.size() < t.size()).collect();
                if fits.is_empty() {
                    return self.assign();
                }
                if !narrower.is_empty() && self.c.chance(1, 2) {
                    (None, Some(self.c.pick(&narrower)))
                } else {
                    (Some(self.c.pick(&fits)), None)
                }
            }
            _ => return self.assign(),
        };
        if let Some(ty) = store_ty {
            let e = self.expr(ty, 1);
            self.emit(Instruction::Store {
                val: e,
                ptr: v.ptr,
                ty,
                seg_override: AddressSpace::Default,
            });
        }
        if let Some(ty) = read_ty {
            let bits = self.load(Var { ptr: v.ptr, ty });
            let target = self.vars_of(IrType::I64).first().copied();
            self.accumulate(target, bits, ty);
        }
    }

    /// A fresh local declared at one type and only ever accessed at others,
    /// as a union whose first member is never used: one or two stores at
    /// types no wider than it, then a load at an integer type (or at the
    /// last store's own type), accumulated into a variable.
    fn union_cell(&mut self) {
        if self.c.chance(1, 3) {
            return self.asm_union_cell();
        }
        let declared = self
            .c
            .pick(&[IrType::I64, IrType::U64, IrType::F64, IrType::I32, IrType::F32]);
        let cell = Var {
            ptr: self.alloca(declared, declared.size(), false),
            ty: declared,
        };
        let all = [
            IrType::U8,
            IrType::I8,
            IrType::U16,
            IrType::I16,
            IrType::U32,
            IrType::I32,
            IrType::F32,
            IrType::U64,
            IrType::I64,
            IrType::F64,
        ];
        let others: Vec<IrType> = all
            .iter()
            .copied()
            .filter(|t| *t != declared && t.size() <= declared.size())
            .collect();
        let mut last = declared;
        for _ in 0..self.c.range(1, 2) {
            last = self.c.pick(&others);
            let e = self.expr(last, 1);
            self.emit(Instruction::Store {
                val: e,
                ptr: cell.ptr,
                ty: last,
                seg_override: AddressSpace::Default,
            });
        }
        let ints: Vec<IrType> = others.iter().copied().filter(|t| !t.is_float()).collect();
        let read = if last.is_float() || self.c.chance(1, 4) {
            last
        } else {
            self.c.pick(&ints)
        };
        let bits = self.load(Var {
            ptr: cell.ptr,
            ty: read,
        });
        let target = self.vars_of(IrType::I64).first().copied();
        self.accumulate(target, bits, read);
    }

    /// `union { int i; unsigned char c; } u; asm("..." : "=r"(u.i)); ... u.c`:
    /// a byte-typed local of 4 or 8 bytes written whole by an asm register
    /// output of the wider integer type, then read at a narrower type (its
    /// low bytes). Only the byte-typed reads agree with the alloca's type, so
    /// mem2reg must see that the asm output does not.
    fn asm_union_cell(&mut self) {
        let (size, out_ty) = if self.c.chance(1, 2) {
            (4, IrType::I32)
        } else {
            (8, IrType::I64)
        };
        let cell = self.alloca(IrType::I8, size, false);
        let input = self.expr(IrType::I64, 1);
        self.asm_write(cell, "=r", out_ty, input);
        let read = self.c.pick(&[IrType::U8, IrType::I8]);
        let bits = self.load(Var { ptr: cell, ty: read });
        let target = self.vars_of(IrType::I64).first().copied();
        self.accumulate(target, bits, read);
    }

    /// A single-block loop (the block branches to itself) carrying one to
    /// three fresh locals that only it touches, each loaded before it is
    /// stored (from its zero start on the first trip), sometimes swapped
    /// or rotated among themselves, plus straight-line assignments to other
    /// variables. The carried values reach the checksum through an
    /// accumulator. mem2reg must give each carried local a phi on the
    /// self-loop edge though all its accesses are in one block, and phi
    /// elimination must sequentialize the swaps on that edge.
    fn self_loop(&mut self) {
        let ctr = self.loop_counter();
        let trip = Operand::Const(IrConst::I32(self.c.range(1, 6) as i32));
        let n = self.c.range(1, 3) as usize;
        let ty = self.c.pick(&[IrType::I32, IrType::I64, IrType::U8, IrType::F64]);
        let carried: Vec<Var> = (0..n)
            .map(|_| Var {
                ptr: self.alloca(ty, ty.size(), false),
                ty,
            })
            .collect();
        let body = self.new_block();
        let exit = self.new_block();
        self.terminate(Terminator::Branch(self.label(body)));
        self.cur = body;
        self.loop_depth += 1;
        let old: Vec<Operand> = carried.iter().map(|&v| self.load(v)).collect();
        let target = self.vars_of(IrType::I64).first().copied();
        for &x in &old {
            self.accumulate(target, x, ty);
        }
        let k = self.c.range(0, 2);
        for _ in 0..k {
            self.assign();
        }
        // New values: each carried local gets another one's old value
        // (a rotation, or a swap when there are two) plus a term.
        let shift = self.c.index(n);
        for i in 0..n {
            let from = old[(i + shift) % n];
            let step = self.expr(ty, 1);
            let new = self.binop(IrBinOp::Add, from, step, ty);
            self.store(carried[i], new);
        }
        let c = self.increment(ctr);
        self.branch_if_less(c, trip, body, exit);
        self.loop_depth -= 1;
        self.cur = exit;
    }

    /// End the current block with `if (n < trip) goto yes; else goto no;`.
    fn branch_if_less(&mut self, n: Operand, trip: Operand, yes: usize, no: usize) {
        let t = self.value();
        self.emit(Instruction::Cmp {
            dest: t,
            op: IrCmpOp::Slt,
            lhs: n,
            rhs: trip,
            ty: IrType::I32,
        });
        self.terminate(Terminator::CondBranch {
            cond: Operand::Value(t),
            true_label: self.label(yes),
            false_label: self.label(no),
        });
    }

    /// `goto *(n < trip ? &&yes : &&no)`: a latch whose edges cannot be split,
    /// so phi copies for `yes` also run on the way to `no`.
    fn computed_branch_if_less(&mut self, n: Operand, trip: Operand, yes: usize, no: usize) {
        let t = self.value();
        self.emit(Instruction::Cmp {
            dest: t,
            op: IrCmpOp::Slt,
            lhs: n,
            rhs: trip,
            ty: IrType::I32,
        });
        let (a, b, target) = (self.value(), self.value(), self.value());
        self.emit(Instruction::LabelAddr {
            dest: a,
            label: self.label(yes),
        });
        self.emit(Instruction::LabelAddr {
            dest: b,
            label: self.label(no),
        });
        self.emit(Instruction::Select {
            dest: target,
            cond: Operand::Value(t),
            true_val: Operand::Value(a),
            false_val: Operand::Value(b),
            ty: IrType::Ptr,
        });
        self.terminate(Terminator::IndirectBranch {
            target: Operand::Value(target),
            possible_targets: vec![self.label(yes), self.label(no)],
        });
    }

    /// A fresh `i32` trip counter (an entry alloca), set to 0 here.
    fn loop_counter(&mut self) -> Var {
        let ctr = Var {
            ptr: self.alloca(IrType::I32, 4, false),
            ty: IrType::I32,
        };
        self.store(ctr, Operand::Const(IrConst::I32(0)));
        ctr
    }

    fn increment(&mut self, ctr: Var) -> Operand {
        let n = self.load(ctr);
        let n1 = self.binop(IrBinOp::Add, n, Operand::Const(IrConst::I32(1)), IrType::I32);
        self.store(ctr, n1);
        n1
    }

    /// `for (i = 0; i <= k; i++) switch (i * stride) { case v * stride: g3 =
    /// g3 * 3 + v + 1; ... default: g3 *= 3; }`: every case value of a sparse
    /// switch and one beyond, each leaving its own mark on a global, so a
    /// value the backend's search sends to the wrong case (or to the default)
    /// shows in the outcome. Draws nothing from the input.
    fn sparse_sweep(&mut self, k: i64, stride: i64) {
        let ctr = self.loop_counter();
        let header = self.new_block();
        let latch = self.new_block();
        let exit = self.new_block();
        let dflt = self.new_block();
        self.terminate(Terminator::Branch(self.label(header)));
        self.cur = header;
        let n = self.load(ctr);
        let sel = self.binop(
            IrBinOp::Mul,
            n,
            Operand::Const(IrConst::I32(stride as i32)),
            IrType::U32,
        );
        let blocks: Vec<usize> = (0..k).map(|_| self.new_block()).collect();
        let cases = (0..k).map(|v| (v * stride, self.label(blocks[v as usize]))).collect();
        self.terminate(Terminator::Switch {
            val: sel,
            cases,
            default: self.label(dflt),
            ty: IrType::U32,
        });
        let marks = blocks.iter().zip(1..).map(|(&b, m)| (b, m)).chain([(dflt, 0)]);
        for (b, mark) in marks.collect::<Vec<_>>() {
            self.cur = b;
            let g = Var {
                ptr: self.global_addr("g3"),
                ty: IrType::I64,
            };
            let old = self.load(g);
            let t = self.binop(IrBinOp::Mul, old, Operand::Const(IrConst::I64(3)), IrType::I64);
            let new = self.binop(IrBinOp::Add, t, Operand::Const(IrConst::I64(mark)), IrType::I64);
            self.store(g, new);
            self.terminate(Terminator::Branch(self.label(latch)));
        }
        self.cur = latch;
        let c = self.increment(ctr);
        self.branch_if_less(c, Operand::Const(IrConst::I32(k as i32 + 1)), header, exit);
        self.cur = exit;
    }

    fn switch_stmt(&mut self) {
        let k = if self.c.chance(1, 8) {
            self.c.range(2, 100)
        } else {
            self.c.range(1, 8)
        };
        let sel = self.selector(k + 1);
        // An odd count of five or more cases is spread out to multiples of a
        // stride (a sparse switch, which the backends lower as a binary search
        // over the cases), without drawing from the input bytes, so every
        // other choice stays as it was.
        let stride: i64 = if k >= 5 && k % 2 == 1 {
            [3, 7, 100, 1000][(k / 2 % 4) as usize]
        } else {
            1
        };
        let sel = if stride > 1 {
            self.sparse_sweep(k as i64, stride);
            self.binop(
                IrBinOp::Mul,
                sel,
                Operand::Const(IrConst::I32(stride as i32)),
                IrType::U32,
            )
        } else {
            sel
        };
        let nblocks = self.c.range(1, k.min(6)) as usize;
        let targets: Vec<usize> = (0..nblocks).map(|_| self.new_block()).collect();
        let join = self.new_block();
        let mut cases: Vec<(i64, BlockId)> = Vec::new();
        // Some cases go straight to the join (`case 4: break;`), several of them
        // to the same block: one CFG edge that carries several cases.
        let to_join = self.c.chance(1, 3);
        for v in 0..k as i64 {
            let t = if to_join && self.c.chance(1, 3) {
                join
            } else {
                targets[self.c.index(nblocks)]
            };
            cases.push((v * stride, self.label(t)));
        }
        let default = if self.c.chance(1, 2) {
            self.label(join)
        } else {
            self.label(targets[0])
        };
        self.terminate(Terminator::Switch {
            val: sel,
            cases,
            default,
            ty: IrType::U32,
        });
        for (i, &b) in targets.iter().enumerate() {
            self.cur = b;
            self.region(3);
            // C fallthrough into the next case block now and then.
            let next = if i + 1 < targets.len() && self.c.chance(1, 4) {
                targets[i + 1]
            } else {
                join
            };
            self.terminate(Terminator::Branch(self.label(next)));
        }
        self.cur = join;
    }

    /// Plain asm writing one variable: a register output (promotable) or a
    /// memory output (which keeps the variable in memory).
    fn asm_stmt(&mut self) {
        let v = self.c.pick(&self.vars.clone());
        if v.ty.is_128() || v.ty == IrType::Ptr {
            return self.assign();
        }
        let constraint = if self.c.chance(1, 5) { "=m" } else { "=r" };
        let input = self.expr(IrType::I64, 1);
        self.asm_write(v.ptr, constraint, v.ty, input);
    }

    /// `asm("..." : CONSTRAINT(*ptr) : "r"(input))` with the output at `out_ty`.
    fn asm_write(&mut self, ptr: Value, constraint: &str, out_ty: IrType, input: Operand) {
        self.emit(Instruction::InlineAsm(Box::new(InlineAsm {
            template: "# asm %0, %1".into(),
            outputs: vec![AsmOutput {
                constraint: constraint.into(),
                value: ptr,
                name: None,
                is_def: false,
            }],
            inputs: vec![AsmInput {
                constraint: "r".into(),
                value: input,
                name: None,
            }],
            clobbers: vec![],
            operand_types: vec![out_ty, IrType::I64],
            goto_labels: vec![],
            input_symbols: vec![None],
            seg_overrides: vec![],
        })));
    }

    /// `asm goto` with register outputs into variables; on the goto edge the
    /// outputs (and any store after the asm in its block) are not visible.
    fn asm_goto(&mut self) {
        let nout = self.c.range(0, 2) as usize;
        let candidates: Vec<Var> = self
            .vars
            .iter()
            .copied()
            .filter(|v| !v.ty.is_128() && v.ty != IrType::Ptr)
            .collect();
        let outs: Vec<Var> = (0..nout.min(candidates.len()))
            .map(|_| self.c.pick(&candidates))
            .collect();
        let fall = self.new_block();
        let join = self.new_block();
        let nlabels = self.c.range(1, 2) as usize;
        let mut label_blocks = Vec::new();
        for _ in 0..nlabels {
            // A label straight to the join makes the goto edge a critical edge.
            if self.c.chance(1, 3) && !label_blocks.contains(&join) {
                label_blocks.push(join);
            } else {
                label_blocks.push(self.new_block());
            }
        }
        let mut outputs = Vec::new();
        let mut types = Vec::new();
        for v in &outs {
            outputs.push(AsmOutput {
                constraint: "=r".into(),
                value: v.ptr,
                name: None,
                is_def: false,
            });
            types.push(v.ty);
        }
        let goto_labels = label_blocks
            .iter()
            .enumerate()
            .map(|(i, &b)| (format!("l{i}"), self.label(b)))
            .collect();
        self.emit(Instruction::InlineAsm(Box::new(InlineAsm {
            template: "# asm goto".into(),
            outputs,
            inputs: vec![],
            clobbers: vec!["memory".into()],
            operand_types: types,
            goto_labels,
            input_symbols: vec![],
            seg_overrides: vec![],
        })));
        // Definitions after the asm in the same block.
        for _ in 0..self.c.range(0, 2) {
            self.assign();
        }
        // A fresh variable whose only store follows the asm: it dominates
        // every later load, yet along the goto edges the variable still
        // holds its zero start (mem2reg's single-store fast path must not
        // apply in an asm-goto block).
        if self.c.chance(1, 3) {
            let v = self.declare_var(true);
            let e = self.expr(v.ty, 1);
            self.store(v, e);
        }
        self.terminate(Terminator::Branch(self.label(fall)));
        let mut bodies = vec![fall];
        bodies.extend(label_blocks.iter().copied().filter(|&b| b != join));
        bodies.dedup();
        for b in bodies {
            self.cur = b;
            self.region(3);
            self.terminate(Terminator::Branch(self.label(join)));
        }
        self.cur = join;
    }

    /// `goto *table[sel]` over 2 to 4 targets, through a chain of selects.
    fn computed_goto(&mut self) {
        let k = self.c.range(2, 4) as usize;
        let targets: Vec<usize> = (0..k).map(|_| self.new_block()).collect();
        let join = self.new_block();
        let sel = self.selector(k as u64);
        let mut addr = {
            let dest = self.value();
            self.emit(Instruction::LabelAddr {
                dest,
                label: self.label(targets[k - 1]),
            });
            Operand::Value(dest)
        };
        for i in (0..k - 1).rev() {
            let a = self.value();
            self.emit(Instruction::LabelAddr {
                dest: a,
                label: self.label(targets[i]),
            });
            let is = self.value();
            self.emit(Instruction::Cmp {
                dest: is,
                op: IrCmpOp::Eq,
                lhs: sel,
                rhs: Operand::Const(IrConst::I32(i as i32)),
                ty: IrType::U32,
            });
            let dest = self.value();
            self.emit(Instruction::Select {
                dest,
                cond: Operand::Value(is),
                true_val: Operand::Value(a),
                false_val: addr,
                ty: IrType::Ptr,
            });
            addr = Operand::Value(dest);
        }
        let possible_targets = targets.iter().map(|&b| self.label(b)).collect();
        self.terminate(Terminator::IndirectBranch {
            target: addr,
            possible_targets,
        });
        for &b in &targets {
            self.cur = b;
            self.region(3);
            self.terminate(Terminator::Branch(self.label(join)));
        }
        self.cur = join;
    }

    /// A call: to a generated function (outside loops any of them; inside a
    /// loop only a cheap leaf, so run time stays bounded: the function called
    /// often) or to the external `@sink`. A recursive callee gets a depth of
    /// 0 to 3, the variadic `@vsum` 0 to 3 extra `i64` arguments.
    fn call_stmt(&mut self) {
        let in_loop = self.loop_depth > 0;
        let allowed: Vec<usize> = (0..self.callees.len())
            .filter(|&i| !in_loop || (self.callees[i].cheap && self.loop_depth <= 2))
            .collect();
        let pick_internal = !allowed.is_empty() && self.c.chance(2, 3);
        let callee = if pick_internal {
            self.calls_internal = true;
            self.callees[allowed[self.c.index(allowed.len())]].clone()
        } else {
            Callee::sink()
        };
        let mut args: Vec<Operand> = Vec::new();
        let mut arg_types = callee.params.clone();
        for (i, &t) in callee.params.iter().enumerate() {
            let a = match callee.kind {
                CalleeKind::Recursive | CalleeKind::Variadic if i == 0 => {
                    Operand::Const(IrConst::I32(self.c.range(0, 3) as i32))
                }
                _ => self.expr(t, 1),
            };
            args.push(a);
        }
        if callee.kind == CalleeKind::Variadic {
            let n = args[0].as_const().and_then(|c| c.to_i64()).unwrap_or(0);
            for _ in 0..n {
                let e = self.expr(IrType::I64, 1);
                args.push(e);
                arg_types.push(IrType::I64);
            }
        }
        let dest = self.value();
        self.emit(Instruction::Call {
            func: callee.name.clone(),
            info: Box::new(CallInfo {
                dest: Some(dest),
                args,
                arg_types,
                return_type: callee.ret,
                is_variadic: callee.kind == CalleeKind::Variadic,
                num_fixed_args: callee.params.len(),
                ..CallInfo::default()
            }),
        });
        let v = self.c.pick(&self.vars.clone());
        if v.ty != IrType::Ptr {
            let r = self.cast(Operand::Value(dest), callee.ret, v.ty);
            self.store(v, r);
        }
    }

    /// `if (depth > 0) x = me(depth - 1, ...);` at the top of a recursive
    /// function, before any statement can change the depth.
    fn recurse(&mut self, me: &Callee) {
        let depth = self.vars[0];
        let d = self.load(depth);
        let pos = self.value();
        self.emit(Instruction::Cmp {
            dest: pos,
            op: IrCmpOp::Sgt,
            lhs: d,
            rhs: Operand::Const(IrConst::I32(0)),
            ty: IrType::I32,
        });
        let then_b = self.new_block();
        let join = self.new_block();
        self.terminate(Terminator::CondBranch {
            cond: Operand::Value(pos),
            true_label: self.label(then_b),
            false_label: self.label(join),
        });
        self.cur = then_b;
        let d = self.load(depth);
        let d1 = self.binop(IrBinOp::Sub, d, Operand::Const(IrConst::I32(1)), IrType::I32);
        let mut args = vec![d1];
        for &t in &me.params[1..] {
            let a = self.expr(t, 1);
            args.push(a);
        }
        let dest = self.value();
        self.emit(Instruction::Call {
            func: me.name.clone(),
            info: Box::new(CallInfo {
                dest: Some(dest),
                args,
                arg_types: me.params.clone(),
                return_type: me.ret,
                num_fixed_args: me.params.len(),
                ..CallInfo::default()
            }),
        });
        let v = self.c.pick(&self.vars.clone());
        if v.ty != IrType::Ptr && v.ptr != depth.ptr {
            let r = self.cast(Operand::Value(dest), me.ret, v.ty);
            self.store(v, r);
        }
        self.terminate(Terminator::Branch(self.label(join)));
        self.cur = join;
    }

    /// Same-typed variables: `(a, b) = (b, a)` directly or through a temporary.
    fn swap(&mut self) {
        let Some((a, b)) = self.pair() else {
            return self.assign();
        };
        let la = self.load(a);
        let lb = self.load(b);
        if self.c.chance(1, 2) {
            self.store(a, lb);
            self.store(b, la);
        } else {
            let t = self.alloca(a.ty, a.ty.size(), false);
            let t = Var { ptr: t, ty: a.ty };
            self.store(t, la);
            self.store(a, lb);
            let lt = self.load(t);
            self.store(b, lt);
        }
    }

    fn pair(&mut self) -> Option<(Var, Var)> {
        let v = self.c.pick(&self.vars.clone());
        let same: Vec<Var> = self.vars_of(v.ty).into_iter().filter(|w| w.ptr != v.ptr).collect();
        if same.is_empty() {
            None
        } else {
            Some((v, self.c.pick(&same)))
        }
    }

    /// `a, b, c = b, c, a` over 3 or 4 variables of one type.
    fn rotate(&mut self) {
        let v = self.c.pick(&self.vars.clone());
        let same = self.vars_of(v.ty);
        if same.len() < 3 {
            return self.swap();
        }
        let k = self.c.range(3, same.len().min(4) as u64) as usize;
        let mut chosen: Vec<Var> = Vec::new();
        for w in same {
            if chosen.len() < k && !chosen.iter().any(|x| x.ptr == w.ptr) {
                chosen.push(w);
            }
        }
        let loaded: Vec<Operand> = chosen.clone().into_iter().map(|w| self.load(w)).collect();
        for i in 0..chosen.len() {
            self.store(chosen[i], loaded[(i + 1) % chosen.len()]);
        }
    }

    /// Take a variable's address: pass it to a call, use it as a GEP base and
    /// store through the result, or store it as a value into a pointer variable.
    fn escape(&mut self) {
        let v = self.c.pick(&self.vars.clone());
        match self.c.range(0, 2) {
            0 => {
                let dest = self.value();
                self.emit(Instruction::Call {
                    func: "escape".into(),
                    info: Box::new(CallInfo {
                        dest: Some(dest),
                        args: vec![Operand::Value(v.ptr)],
                        arg_types: vec![IrType::Ptr],
                        return_type: IrType::I64,
                        num_fixed_args: 1,
                        ..CallInfo::default()
                    }),
                });
            }
            1 => {
                let dest = self.value();
                self.emit(Instruction::GetElementPtr {
                    dest,
                    base: v.ptr,
                    offset: Operand::Const(IrConst::I64(0)),
                    ty: v.ty,
                });
                let e = self.expr(v.ty, 1);
                self.emit(Instruction::Store {
                    val: e,
                    ptr: dest,
                    ty: v.ty,
                    seg_override: AddressSpace::Default,
                });
            }
            _ => {
                let ptrs = self.vars_of(IrType::Ptr);
                if ptrs.is_empty() {
                    return self.assign();
                }
                let p = self.c.pick(&ptrs);
                if p.ptr != v.ptr {
                    self.store(p, Operand::Value(v.ptr));
                }
            }
        }
    }

    fn store_global(&mut self) {
        let p = self.global_cell();
        let e = self.expr(IrType::I64, 2);
        self.emit(Instruction::Store {
            val: e,
            ptr: p,
            ty: IrType::I64,
            seg_override: AddressSpace::Default,
        });
    }

    /// `if (cond) return checksum;`
    fn early_return(&mut self) {
        let cond = self.condition();
        let ret_b = self.new_block();
        let cont = self.new_block();
        self.terminate(Terminator::CondBranch {
            cond,
            true_label: self.label(ret_b),
            false_label: self.label(cont),
        });
        self.cur = ret_b;
        let sum = self.checksum();
        self.terminate(Terminator::Return(Some(sum)));
        self.cur = cont;
    }

    /// The phi-cost stress: a loop over six 100-case switches whose cases each
    /// assign two of the (many) variables.
    fn dispatch_loop(&mut self) {
        let ctr = self.loop_counter();
        let header = self.new_block();
        let exit = self.new_block();
        self.terminate(Terminator::Branch(self.label(header)));
        self.cur = header;
        let n = self.load(ctr);
        let body = self.new_block();
        self.branch_if_less(n, Operand::Const(IrConst::I32(2)), body, exit);
        self.cur = body;
        for sw in 0..6 {
            let sel = self.selector(100);
            let join = self.new_block();
            let mut cases = Vec::new();
            let case_blocks: Vec<usize> = (0..100).map(|_| self.new_block()).collect();
            for (i, &b) in case_blocks.iter().enumerate() {
                cases.push((i as i64, self.label(b)));
            }
            self.terminate(Terminator::Switch {
                val: sel,
                cases,
                default: self.label(join),
                ty: IrType::U32,
            });
            for (i, &b) in case_blocks.iter().enumerate() {
                self.cur = b;
                // The variables assigned do not depend on the input, so the
                // phis (and the limit) are there even once it runs out.
                for j in 0..2 {
                    let v = self.vars[(sw * 200 + i * 2 + j) % self.vars.len()];
                    let e = self.expr(v.ty, 0);
                    self.store(v, e);
                }
                self.terminate(Terminator::Branch(self.label(join)));
            }
            self.cur = join;
        }
        self.increment(ctr);
        self.terminate(Terminator::Branch(self.label(header)));
        self.cur = exit;
    }

    /// Fold every function-scope variable into an `i64`, store it to `@g0`,
    /// report it to `@sink`, and return it at the function's return type.
    fn checksum(&mut self) -> Operand {
        let mut acc = Operand::Const(IrConst::I64(0x9e37_79b9));
        for v in self.vars.clone() {
            let x = if v.ty == IrType::Ptr {
                // Pointer identity as a 0/1 comparison with a fixed global, stable
                // under any renumbering of objects.
                let l = self.load(v);
                let g = self.global_addr("g1");
                let dest = self.value();
                self.emit(Instruction::Cmp {
                    dest,
                    op: IrCmpOp::Eq,
                    lhs: l,
                    rhs: Operand::Value(g),
                    ty: IrType::Ptr,
                });
                self.cast(Operand::Value(dest), IrType::I8, IrType::I64)
            } else {
                let l = self.load(v);
                self.cast(l, v.ty, IrType::I64)
            };
            let m = self.binop(IrBinOp::Mul, acc, Operand::Const(IrConst::I64(31)), IrType::I64);
            acc = self.binop(IrBinOp::Xor, m, x, IrType::I64);
        }
        let g0 = self.global_addr("g0");
        self.emit(Instruction::Store {
            val: acc,
            ptr: g0,
            ty: IrType::I64,
            seg_override: AddressSpace::Default,
        });
        let dest = self.value();
        self.emit(Instruction::Call {
            func: "sink".into(),
            info: Box::new(CallInfo {
                dest: Some(dest),
                args: vec![acc],
                arg_types: vec![IrType::I64],
                return_type: IrType::I64,
                num_fixed_args: 1,
                ..CallInfo::default()
            }),
        });
        let ret = self.ret;
        self.cast(acc, IrType::I64, ret)
    }
}
