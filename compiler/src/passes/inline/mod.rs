//! Function inlining (`inline`): a module pass that copies the bodies of small
//! callees into their callers, bottom-up over the call graph. It runs between
//! the two mem2reg invocations, as seed 000 places it.
//!
//! Reference: the bottom-up SCC walk of LLVM's CGSCC inliner (Tarjan's SCCs
//! of the call graph, callees before callers, so a callee is final, with its
//! own calls already inlined, when a caller copies it) with a plain size
//! budget in place of LLVM's cost model; the refusals (variadic, setjmp and
//! other `returns_twice` calls, `noinline`, recursion) follow GCC's
//! `inline_forbidden_p` and LLVM's `isInlineViable`.
//!
//! # Contract
//!
//! Input: alloca-form or SSA IR (the parameters of every function still in
//! their allocas: `paramref` + `store`, which the first mem2reg keeps).
//! Output: verifiable SSA IR with the same outcome under the reference
//! interpreter (docs/ir.md): return value, events, output, globals, traps.
//!
//! A direct `call @g` in `f` is replaced by a copy of `g`'s body when
//! - `g` is defined, not `noinline`, not variadic, not naked, not weak, has
//!   no label whose address a static initializer takes, executes no
//!   `vastart`, no call to a `returns_twice` function ([`RETURNS_TWICE`]),
//!   no complex-return second half and no frame/return-address intrinsic,
//!   and has at least one reachable `ret`;
//! - `g` has at most [`INLINE_BUDGET`] instructions (terminators counted),
//!   or is `always_inline` (any size);
//! - `g` is in another strongly connected component of the call graph than
//!   `f` (recursion, direct or mutual, is never inlined);
//! - the call matches `g`: as many arguments as parameters, each of the
//!   parameter's type, the same sret-ness, the same return type when the
//!   result is used (and then no reachable `ret` without a value, whose
//!   undefined result must stay undefined), and the same by-value struct
//!   sizes;
//! - `f` calls no `returns_twice` function (its values must survive a second
//!   return the way the unoptimized code has them) and stays under
//!   [`MAX_CALLER_SIZE`] instructions (growth cap; `always_inline` ignores it).
//!
//! # The copy
//!
//! The call's block B is split at the call: B keeps its label, its phis and
//! the instructions before the call and branches to the copy of `g`'s entry;
//! a fresh continuation block takes the instructions after the call and B's
//! terminator (the phis of its successors now name the continuation). Every
//! block of the copy gets a fresh module-unique label, and every reference
//! to one is renamed: terminator targets, phi incoming blocks, `asm goto`
//! labels, `labeladdr` and the possible targets of indirect branches. Every
//! value gets a fresh id of the caller. Each `ret v` becomes a branch to the
//! continuation, where a phi of the returned values defines the call's
//! result (a phi rather than a store to a slot: it is SSA already, and the
//! second mem2reg has nothing to do for it).
//!
//! Parameters: a `paramref` of `g` disappears and its uses read the call's
//! argument (a constant argument is fitted to the parameter's type). So the
//! callee's `store %paramref, %param_slot` becomes a store of the argument
//! into the copy's parameter alloca, which stands in the copy's entry block:
//! a non-entry block of the caller, where `mem2reg-params` (and any later
//! promotion) finds it, as seed 000 says ("inlined function bodies introduce
//! new allocas in non-entry blocks").
//!
//! Allocas: all of the copy's allocas are gathered at the top of the copy's
//! entry. An alloca is zero-filled once per frame (the interpreter's rule,
//! which the backends implement by clearing the alloca area in the
//! prologue), while each call of `g` had a fresh frame. So when the call
//! site lies on a cycle of `f`'s CFG, where the copy can run again in the
//! same frame, every copied alloca that the callee's entry block does not
//! overwrite whole before reading it is cleared at the copy's entry: a store
//! of zero for a plain scalar (promotable, so it costs nothing after
//! mem2reg-params), a `memcpy` from a zero-filled, never-written alloca for
//! the rest (aggregates, volatile slots: a memcpy is not a volatile event).
//!
//! Struct arguments by value: lowering passes the address of the caller's
//! object and the callee copies it (`memcpy` from its `paramref`) into its
//! own slot on entry. The copy is inlined only when that is provably all the
//! callee does with the pointer: every use of the `paramref` is the source
//! of a `memcpy` in the entry block before any instruction other than
//! allocas, `paramref`s and stores/memcpys into entry allocas. An sret
//! pointer (argument 0 of an sret call) is an ordinary pointer argument.
//!
//! Dynamic allocas: when `g` has one, the copy saves the stack pointer at
//! its entry (`stacksave`) and restores it before each branch to the
//! continuation (`stackrestore`), so a call in a loop does not grow the
//! caller's stack.
//!
//! Computed goto: the copy's `labeladdr`s name the copy's blocks. A callee
//! is inlined only when its label addresses stay inside one activation:
//! they flow (through copies, selects, phis and loads of allocas that only
//! the callee can reach) only into indirect branches, comparisons and stores
//! into such allocas; a label address that could reach another activation
//! (a global, a call, a return) would name the wrong copy.
//!
//! Functions that become unreferenced are left in place (the backend emits
//! them; removing them would renumber the interpreter's function addresses).

mod callee;

use crate::inject::{enabled, Bug};
use crate::ir::reexports::*;
use callee::{analyse, calls_returns_twice, site_matches, Body};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// Largest callee (instructions and terminators) inlined without `always_inline`.
pub const INLINE_BUDGET: usize = 60;

/// A caller stops growing by inlining (except `always_inline` callees) at this size.
pub const MAX_CALLER_SIZE: usize = 20_000;

/// Functions that may return twice: a function calling one is never inlined
/// (nor inlined into).
pub const RETURNS_TWICE: &[&str] = &[
    "setjmp",
    "_setjmp",
    "sigsetjmp",
    "__sigsetjmp",
    "vfork",
    "getcontext",
    "savectx",
    "__builtin_setjmp",
];

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InlineStats {
    pub calls_inlined: usize,
}

/// Inline calls of `m` (see the module documentation).
pub fn inline_calls(m: &mut IrModule) -> InlineStats {
    let mut stats = InlineStats::default();
    let n = m.functions.len();
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    for (i, f) in m.functions.iter().enumerate() {
        if is_defined(f) {
            index.insert(f.name.clone(), i);
        }
    }
    if index.is_empty() {
        return stats;
    }
    let succs: Vec<Vec<usize>> = m
        .functions
        .iter()
        .map(|f| {
            let mut out: Vec<usize> = Vec::new();
            if is_defined(f) {
                for_each_direct_call(f, |name| {
                    if let Some(&c) = index.get(name) {
                        if !out.contains(&c) {
                            out.push(c);
                        }
                    }
                });
            }
            out
        })
        .collect();
    let comps = strongly_connected(n, |v| &succs[v]);
    let mut comp_of = vec![usize::MAX; n];
    for (ci, comp) in comps.iter().enumerate() {
        for &v in comp {
            comp_of[v] = ci;
        }
    }
    let weak: FxHashSet<String> = m
        .symbol_attrs
        .iter()
        .filter(|(_, w, _)| *w)
        .map(|(name, _, _)| name.clone())
        .collect();
    let mut cx = Context {
        index,
        comp_of,
        weak,
        bodies: vec![None; n],
        next_block: m.next_block_id(),
    };
    // Tarjan's algorithm emits components callees first.
    for comp in &comps {
        for &fi in comp {
            if !is_defined(&m.functions[fi]) {
                continue;
            }
            let mut caller = std::mem::take(&mut m.functions[fi]);
            stats.calls_inlined += cx.inline_into(m, fi, &mut caller);
            m.functions[fi] = caller;
        }
    }
    stats
}

fn is_defined(f: &IrFunction) -> bool {
    !f.is_declaration && !f.blocks.is_empty()
}

fn for_each_direct_call(f: &IrFunction, mut g: impl FnMut(&str)) {
    for b in &f.blocks {
        for inst in &b.instructions {
            if let Instruction::Call { func, .. } = inst {
                g(func)
            }
        }
    }
}

/// Tarjan's strongly connected components (iterative), in reverse
/// topological order: a component comes after every component it reaches.
fn strongly_connected<'a>(n: usize, succ: impl Fn(usize) -> &'a [usize]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let mut num = vec![UNSEEN; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut counter = 0usize;
    for root in 0..n {
        if num[root] != UNSEEN {
            continue;
        }
        // (node, next successor index)
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        num[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            let s = succ(v);
            if *i < s.len() {
                let w = s[*i];
                *i += 1;
                if num[w] == UNSEEN {
                    num[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(num[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == num[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

struct Context {
    index: FxHashMap<String, usize>,
    comp_of: Vec<usize>,
    weak: FxHashSet<String>,
    /// Per function: not analysed yet, or the analysis (None: never inlined).
    bodies: Vec<Option<Option<Rc<Body>>>>,
    next_block: u32,
}

impl Context {
    fn fresh_block(&mut self) -> BlockId {
        let b = BlockId(self.next_block);
        self.next_block += 1;
        b
    }

    fn body(&mut self, m: &IrModule, fi: usize) -> Option<Rc<Body>> {
        if self.bodies[fi].is_none() {
            let b = analyse(&m.functions[fi], &self.weak).map(Rc::new);
            self.bodies[fi] = Some(b);
        }
        self.bodies[fi].clone().flatten()
    }

    /// Inline what may be inlined into `caller` (function `fi`, taken out of `m`).
    fn inline_into(&mut self, m: &IrModule, fi: usize, caller: &mut IrFunction) -> usize {
        if calls_returns_twice(caller) {
            return 0;
        }
        // `fresh_value` trusts the cached bound: make sure it is one.
        let max = caller.scan_max_value_id();
        if caller.next_value_id <= max {
            caller.next_value_id = max + 1;
        }
        let mut in_cycle = blocks_on_cycles(caller);
        // Where each label's block is: a splice rewrites the phis of the
        // call block's successors, found here instead of by a walk over all
        // blocks (which made inlining quadratic in a large caller).
        let mut position: FxHashMap<BlockId, usize> =
            caller.blocks.iter().enumerate().map(|(i, b)| (b.label, i)).collect();
        let mut size = caller.num_instructions();
        let mut count = 0;
        let mut queue: std::collections::VecDeque<usize> = (0..caller.blocks.len()).collect();
        while let Some(bi) = queue.pop_front() {
            let mut site = None;
            for (k, inst) in caller.blocks[bi].instructions.iter().enumerate() {
                let Instruction::Call { func, info } = inst else {
                    continue;
                };
                let Some(&ci) = self.index.get(func.as_str()) else {
                    continue;
                };
                if ci == fi || self.comp_of[ci] == self.comp_of[fi] {
                    continue;
                }
                let Some(body) = self.body(m, ci) else {
                    continue;
                };
                if !body.func.is_always_inline && size + body.size > MAX_CALLER_SIZE {
                    continue;
                }
                if site_matches(info, &body) {
                    site = Some((k, body));
                    break;
                }
            }
            let Some((k, body)) = site else {
                continue;
            };
            let label = caller.blocks[bi].label;
            let clear = in_cycle.contains(&label);
            let first_new = caller.blocks.len();
            let cont = self.splice(caller, bi, k, &body, clear, &position);
            for (i, b) in caller.blocks.iter().enumerate().skip(first_new) {
                position.insert(b.label, i);
            }
            if clear {
                in_cycle.insert(caller.blocks[cont].label);
            }
            size += body.size + 2;
            count += 1;
            caller.has_inlined_calls = true;
            queue.push_back(cont);
        }
        count
    }

    /// Replace the call at `blocks[bi].instructions[k]` by a copy of `body`
    /// (`position` maps each of the caller's labels to its block's index; the
    /// copy's blocks are appended); returns the index of the continuation block.
    fn splice(
        &mut self,
        caller: &mut IrFunction,
        bi: usize,
        k: usize,
        body: &Body,
        clear: bool,
        position: &FxHashMap<BlockId, usize>,
    ) -> usize {
        let g = &body.func;
        let head_label = caller.blocks[bi].label;
        let tail = caller.blocks[bi].instructions.split_off(k + 1);
        let Some(Instruction::Call { info, .. }) = caller.blocks[bi].instructions.pop() else {
            unreachable!("the site is a call")
        };
        // Labels of the copy.
        let label_map: FxHashMap<BlockId, BlockId> = g.blocks.iter().map(|b| (b.label, self.fresh_block())).collect();
        let cont_label = self.fresh_block();
        let new_entry = label_map[&g.blocks[0].label];
        let old_term = std::mem::replace(&mut caller.blocks[bi].terminator, Terminator::Branch(new_entry));
        // The successors of the tail now see the continuation as their predecessor.
        let mut tail_succs: FxHashSet<BlockId> = old_term.successors().into_iter().collect();
        for inst in &tail {
            tail_succs.extend(inst.asm_goto_targets().iter().map(|(_, t)| *t));
        }
        for label in tail_succs {
            let Some(&i) = position.get(&label) else { continue };
            for inst in &mut caller.blocks[i].instructions {
                let Instruction::Phi { incoming, .. } = inst else {
                    break;
                };
                for (_, from) in incoming.iter_mut() {
                    if *from == head_label {
                        *from = cont_label;
                    }
                }
            }
        }

        // Values of the copy: fresh ids; parameters read the arguments.
        let max = g.scan_max_value_id().max(g.max_value_id()) as usize;
        let mut vmap: Vec<Option<Value>> = vec![None; max + 1];
        let mut consts: FxHashMap<Value, IrConst> = FxHashMap::default();
        for (i, defs) in body.param_defs.iter().enumerate() {
            for &d in defs {
                let v = match info.args[i] {
                    Operand::Value(a) => a,
                    Operand::Const(c) => {
                        let t = caller.fresh_value();
                        consts.insert(t, fit_const(c, g.params[i].ty));
                        t
                    }
                };
                vmap[d.0 as usize] = Some(v);
            }
        }
        let mut map = |v: Value, caller: &mut IrFunction| -> Value {
            match vmap.get(v.0 as usize).copied() {
                Some(Some(n)) => n,
                Some(None) => {
                    let n = caller.fresh_value();
                    vmap[v.0 as usize] = Some(n);
                    n
                }
                None => caller.fresh_value(),
            }
        };
        let relabel = |b: BlockId| label_map.get(&b).copied().unwrap_or(b);

        let mut allocas: Vec<Instruction> = Vec::new();
        let mut blocks: Vec<BasicBlock> = Vec::with_capacity(g.blocks.len() + 1);
        let mut returns: Vec<(Option<Operand>, BlockId)> = Vec::new();
        let ret_ty = g.return_type;
        let mut save: Option<Value> = None;
        if body.has_dyn_alloca {
            save = Some(caller.fresh_value());
        }
        for b in &g.blocks {
            let label = relabel(b.label);
            let mut insts: Vec<Instruction> = Vec::with_capacity(b.instructions.len());
            for inst in &b.instructions {
                if matches!(inst, Instruction::ParamRef { .. }) {
                    continue;
                }
                let mut inst = inst.clone();
                inst.for_each_def_mut(|d| *d = map(*d, caller));
                inst.for_each_value_use_mut(|v| *v = map(*v, caller));
                if !consts.is_empty() {
                    inst.for_each_operand_mut(|op| {
                        if let Operand::Value(v) = op {
                            if let Some(&c) = consts.get(v) {
                                *op = Operand::Const(c);
                            }
                        }
                    });
                }
                match &mut inst {
                    Instruction::Phi { incoming, .. } => {
                        for (_, from) in incoming.iter_mut() {
                            // Injected bug `inline-phi-names-callee-entry`: an
                            // edge from the callee's entry keeps its old label.
                            if *from == g.blocks[0].label && enabled(Bug::InlinePhiNamesCalleeEntry) {
                                continue;
                            }
                            *from = relabel(*from);
                        }
                    }
                    Instruction::InlineAsm(asm) => {
                        for (_, t) in asm.goto_labels.iter_mut() {
                            *t = relabel(*t);
                        }
                    }
                    Instruction::LabelAddr { label, .. } => *label = relabel(*label),
                    _ => {}
                }
                if matches!(inst, Instruction::Alloca { .. }) {
                    allocas.push(inst);
                } else {
                    insts.push(inst);
                }
            }
            let mut term = b.terminator.clone();
            term.for_each_operand_mut(|op| {
                if let Operand::Value(v) = op {
                    let n = map(*v, caller);
                    *op = match consts.get(&n) {
                        Some(&c) => Operand::Const(c),
                        None => Operand::Value(n),
                    };
                }
            });
            let term = match term {
                Terminator::Return(op) => {
                    if let Some(s) = save {
                        insts.push(Instruction::StackRestore { ptr: s });
                    }
                    returns.push((op, label));
                    Terminator::Branch(cont_label)
                }
                other => relabel_terminator(other, &relabel),
            };
            blocks.push(BasicBlock {
                label,
                instructions: insts,
                terminator: term,
            });
        }

        // The copy's entry: its allocas, the clearing of re-run slots, the stack save.
        let mut prologue = allocas;
        if clear {
            let mut zero_src: Option<Value> = None;
            let mut zero_size = 0usize;
            let mut clears = Vec::new();
            for &(a, ty, sz, volatile) in &body.to_clear {
                let a = map(a, caller);
                if !volatile && is_plain_scalar(ty, sz) {
                    clears.push(Instruction::Store {
                        val: Operand::Const(IrConst::zero(ty)),
                        ptr: a,
                        ty,
                        seg_override: AddressSpace::Default,
                    });
                } else if sz > 0 {
                    let z = *zero_src.get_or_insert_with(|| caller.fresh_value());
                    zero_size = zero_size.max(sz);
                    clears.push(Instruction::Memcpy {
                        dest: a,
                        src: z,
                        size: sz,
                    });
                }
            }
            if let Some(z) = zero_src {
                prologue.push(Instruction::Alloca {
                    dest: z,
                    ty: IrType::I8,
                    size: zero_size,
                    align: 16,
                    volatile: false,
                });
            }
            prologue.extend(clears);
        }
        if let Some(s) = save {
            prologue.push(Instruction::StackSave { dest: s });
        }
        let entry = &mut blocks[0].instructions;
        prologue.append(entry);
        *entry = prologue;

        // The continuation: the result phi, the rest of the block, its terminator.
        let mut cont_insts = Vec::with_capacity(tail.len() + 1);
        if let Some(dest) = info.dest {
            let incoming = returns
                .iter()
                .map(|(op, from)| {
                    let op = match op {
                        Some(Operand::Const(c)) => Operand::Const(fit_const(*c, ret_ty)),
                        Some(v) => *v,
                        None => Operand::Const(IrConst::zero(ret_ty)),
                    };
                    (op, *from)
                })
                .collect();
            cont_insts.push(Instruction::Phi {
                dest,
                ty: ret_ty,
                incoming,
            });
        }
        cont_insts.extend(tail);
        blocks.push(BasicBlock {
            label: cont_label,
            instructions: cont_insts,
            terminator: old_term,
        });
        caller.blocks.extend(blocks);
        caller.blocks.len() - 1
    }
}

/// A constant as an operand of type `ty` (the verifier wants phi constants at the phi's width).
fn fit_const(c: IrConst, ty: IrType) -> IrConst {
    let natural = const_natural_type(&c);
    if natural.size() == ty.size() && natural.is_float() == ty.is_float() {
        c
    } else {
        c.narrowed_to(ty)
    }
}

/// A scalar slot that a store of zero clears whole.
fn is_plain_scalar(ty: IrType, size: usize) -> bool {
    ty != IrType::Void && ty.size() == size && size > 0 && !(ty == IrType::I8 && size != 1)
}

fn relabel_terminator(t: Terminator, relabel: &impl Fn(BlockId) -> BlockId) -> Terminator {
    match t {
        Terminator::Branch(b) => Terminator::Branch(relabel(b)),
        Terminator::CondBranch {
            cond,
            true_label,
            false_label,
        } => Terminator::CondBranch {
            cond,
            true_label: relabel(true_label),
            false_label: relabel(false_label),
        },
        Terminator::IndirectBranch {
            target,
            possible_targets,
        } => Terminator::IndirectBranch {
            target,
            possible_targets: possible_targets.into_iter().map(relabel).collect(),
        },
        Terminator::Switch {
            val,
            cases,
            default,
            ty,
        } => Terminator::Switch {
            val,
            cases: cases.into_iter().map(|(v, b)| (v, relabel(b))).collect(),
            default: relabel(default),
            ty,
        },
        other @ (Terminator::Return(_) | Terminator::Unreachable) => other,
    }
}

/// Labels of the blocks that lie on a cycle of `f`'s CFG (terminator and
/// `asm goto` edges): the blocks that can run twice in one frame.
fn blocks_on_cycles(f: &IrFunction) -> FxHashSet<BlockId> {
    let idx: FxHashMap<BlockId, usize> = f.blocks.iter().enumerate().map(|(i, b)| (b.label, i)).collect();
    let succs: Vec<Vec<usize>> = f.blocks.iter().map(|b| successors(b, &idx)).collect();
    let mut out = FxHashSet::default();
    for comp in strongly_connected(f.blocks.len(), |v| &succs[v]) {
        if comp.len() > 1 || succs[comp[0]].contains(&comp[0]) {
            out.extend(comp.iter().map(|&b| f.blocks[b].label));
        }
    }
    out
}

fn successors(b: &BasicBlock, idx: &FxHashMap<BlockId, usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut add = |t: BlockId| {
        if let Some(&i) = idx.get(&t) {
            if !out.contains(&i) {
                out.push(i)
            }
        }
    };
    b.terminator.for_each_successor(&mut add);
    for inst in &b.instructions {
        for (_, t) in inst.asm_goto_targets() {
            add(*t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    #[test]
    fn components_come_callees_first() {
        // 0 -> 1 -> 2 -> 1, 0 -> 3
        let succ: Vec<Vec<usize>> = vec![vec![1, 3], vec![2], vec![1], vec![]];
        let comps = strongly_connected(4, |v| &succ[v]);
        let pos = |x: usize| comps.iter().position(|c| c.contains(&x)).unwrap();
        assert_eq!(comps.len(), 3);
        assert_eq!(pos(1), pos(2));
        assert!(pos(1) < pos(0) && pos(3) < pos(0));
    }

    #[test]
    fn recursion_and_noinline_stay_calls() {
        let text = "define @rec(i32) -> i32 {\nbb0:\n  %0 = paramref 0 i32\n  %1 = call i32 @rec(i32 %0)\n  ret %1\n}\n\
                    define @no(i32) -> i32 noinline {\nbb1:\n  %0 = paramref 0 i32\n  ret %0\n}\n\
                    define @main() -> i32 {\nbb2:\n  %0 = call i32 @rec(i32 1i32)\n  %1 = call i32 @no(i32 2i32)\n  ret %1\n}\n";
        let mut m = parse_module(text).unwrap();
        let s = inline_calls(&mut m);
        // @rec is inlined into @main once (its own recursive call stays a call).
        assert_eq!(s.calls_inlined, 1);
        let main = m.function("main").unwrap();
        let calls: Vec<&str> = main
            .blocks
            .iter()
            .flat_map(|b| &b.instructions)
            .filter_map(|i| match i {
                Instruction::Call { func, .. } => Some(func.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(calls, ["rec", "no"]);
        let rec = m.function("rec").unwrap();
        assert_eq!(rec.blocks.len(), 1, "a recursive function is not inlined into itself");
    }
}
