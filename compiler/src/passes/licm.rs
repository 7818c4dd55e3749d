//! Loop-invariant code motion on SSA form: find the natural loops, give each a
//! preheader, and hoist the loop-invariant pure instructions into it.
//!
//! Algorithm: the classic natural-loop LICM (Aho, Lam, Sethi and Ullman,
//! *Compilers: Principles, Techniques, and Tools*, 2nd ed., sections 9.6.6
//! (natural loops) and 9.5 (loop-invariant computations, code motion); LLVM's
//! `LoopSimplify` for the preheader and `LICM` for the hoisting).
//!
//! 1. **Loops.** An edge `t -> h` whose target dominates its source is a back
//!    edge; the natural loop of `h` is `h` plus every block that reaches one
//!    of its back edges' sources without passing through `h` (all back edges
//!    to one header make one loop). A cycle entered at two blocks, neither of
//!    which dominates the other (an irreducible region), has no back edge and
//!    is no loop: it is left alone. Two loops with different headers are
//!    disjoint or nested; inner loops are processed first (smaller bodies
//!    first), so what an inner loop hoists can leave the outer loop too.
//! 2. **Preheaders.** The single predecessor of `h` outside the loop serves
//!    when its only successor is `h` and it has no `asm goto`. Otherwise a new
//!    block `P` (a fresh module-wide label, laid out just before `h`) ending in
//!    `br h` takes over the edges from outside: those predecessors' branches,
//!    conditional branches and switches are retargeted from `h` to `P`. Each
//!    phi of `h` gets one entry for `P`: the outside value when there is one
//!    (or all outside entries agree), else a new phi in `P` over the outside
//!    entries. A loop is skipped when that would have to retarget an
//!    `asm goto` label or an indirect branch (their edges name the block
//!    itself), or when its header is the entry block (the entry can have no
//!    predecessor, so it cannot get one).
//! 3. **Hoisting.** The blocks of a loop are walked in reverse postorder (a
//!    dominance order; an inner loop's preheader just before its header). An
//!    instruction moves to the end of the preheader when it is of a
//!    hoistable kind and each value it reads is *invariant*: defined outside
//!    the loop in reachable code (so its definition dominates the header,
//!    hence the preheader) by an instruction whose result is always defined
//!    once it has run, or already hoisted. Moved instructions keep their
//!    relative order, so the preheader stays in dominance order.
//!
//! Hoisting runs an instruction on every entry to the loop, even when the
//! original ran it only behind a condition, or never (a loop that runs zero
//! times). So only instructions that cannot trap and have no effect move:
//! `binop` (except a division, remainder or shift that may trap: a non-constant
//! right operand, or a constant that traps for some left operand; the rule of
//! `dce`), `unop`, `cmp`, `cast`, `copy`, `select`, `gep` and `globaladdr` of
//! a symbol the module names; the cheap ones (a `gep` by a constant offset, a
//! `globaladdr`) only from blocks that run on every iteration (see
//! `rematerializable`). Loads, divisions by a possibly-zero value, calls,
//! stores and everything with an effect stay where they are. Operands that may
//! be *undefined* when their definition has run (a call's result, when the
//! callee returns no value; an asm output, on the asm's goto edges; an
//! intrinsic's result) do not count as invariant: the reference interpreter
//! traps on reading an undefined value, so reading one earlier than the
//! original did could turn a run that never read it into a trap.
//!
//! Contract. Input: SSA form. Output: SSA form with the same observable
//! outcome under the reference interpreter (docs/ir.md); the CFG gains at most
//! one block per loop (the preheader). Block labels are unique in the module,
//! so the pass runs over the whole module (`next_block_id`).

use crate::ir::analysis::CfgAnalysis;
use crate::ir::reexports::*;
use crate::passes::dce::binop_may_trap;
use rustc_hash::{FxHashMap, FxHashSet};

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LicmStats {
    /// Natural loops found (one per header).
    pub loops: usize,
    /// Preheader blocks created.
    pub preheaders_created: usize,
    /// Instructions moved into a preheader (an instruction hoisted out of an
    /// inner loop and then out of its outer loop counts twice).
    pub hoisted: usize,
}

/// Hoists the loop invariants of every defined function of `module`.
pub fn hoist_loop_invariants(module: &mut IrModule) -> LicmStats {
    let symbols = known_symbols(module);
    let mut next_label = module.next_block_id();
    let mut stats = LicmStats::default();
    for func in module.functions.iter_mut().filter(|f| !f.is_declaration) {
        hoist_in_function(func, &symbols, &mut next_label, &mut stats);
    }
    stats
}

/// The names a `globaladdr` can take without failing: functions, globals,
/// string literals and aliases of those (as the interpreter resolves them).
fn known_symbols(m: &IrModule) -> FxHashSet<String> {
    let mut s: FxHashSet<String> = FxHashSet::default();
    s.extend(m.functions.iter().map(|f| f.name.clone()));
    s.extend(m.globals.iter().map(|g| g.name.clone()));
    s.extend(m.string_literals.iter().map(|(l, _)| l.clone()));
    s.extend(m.wide_string_literals.iter().map(|(l, _)| l.clone()));
    s.extend(m.char16_string_literals.iter().map(|(l, _)| l.clone()));
    let aliases: Vec<String> = m
        .aliases
        .iter()
        .filter(|(_, target, _)| s.contains(target))
        .map(|(a, _, _)| a.clone())
        .collect();
    s.extend(aliases);
    s
}

/// One natural loop, by block labels.
struct Loop {
    header: BlockId,
    /// The header and every block of the body.
    blocks: FxHashSet<BlockId>,
    /// Where hoisted instructions go; `None` when the loop is skipped.
    preheader: Option<BlockId>,
}

/// A preheader to create: its label, the header, and the header's predecessors outside the loop.
struct NewPreheader {
    label: BlockId,
    header: BlockId,
    outside: Vec<BlockId>,
}

fn hoist_in_function(func: &mut IrFunction, symbols: &FxHashSet<String>, next_label: &mut u32, stats: &mut LicmStats) {
    if func.blocks.is_empty() {
        return;
    }
    let cfg = CfgAnalysis::build(func);
    // The labels of the analysed CFG's blocks (preheaders shift the indices later).
    let cfg_labels: Vec<BlockId> = func.blocks.iter().map(|b| b.label).collect();
    let mut loops = find_loops(func, &cfg);
    if loops.is_empty() {
        return;
    }
    stats.loops += loops.len();
    // Inner loops first: a loop nested in another has fewer blocks.
    loops.sort_by_key(|l| l.blocks.len());

    // Dominance order: reverse postorder of the original CFG, each new
    // preheader (added below) just before its header.
    let mut order: FxHashMap<BlockId, (usize, u8)> = FxHashMap::default();
    for (k, &b) in cfg.rpo.iter().enumerate() {
        order.insert(func.blocks[b].label, (k, 1));
    }

    // Preheaders: reuse the single outside predecessor or plan a new block.
    let label = |i: usize| func.blocks[i].label;
    let mut created: Vec<NewPreheader> = Vec::new();
    for lp in loops.iter_mut() {
        let h = cfg.label_to_idx[&lp.header];
        if h == 0 {
            continue;
        }
        let outside: Vec<usize> = cfg
            .preds
            .row(h)
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| !lp.blocks.contains(&label(p)))
            .collect();
        if let [p] = outside[..] {
            let has_asm_goto = func.blocks[p]
                .instructions
                .iter()
                .any(|i| !i.asm_goto_targets().is_empty());
            if cfg.succs.len(p) == 1 && !has_asm_goto && cfg.is_reachable(p) {
                lp.preheader = Some(label(p));
                continue;
            }
        }
        let retargetable = outside.iter().all(|&p| {
            let block = &func.blocks[p];
            let by_asm = block
                .instructions
                .iter()
                .any(|i| i.asm_goto_targets().iter().any(|(_, t)| *t == lp.header));
            !by_asm && !matches!(block.terminator, Terminator::IndirectBranch { .. })
        });
        if outside.is_empty() || !retargetable {
            continue;
        }
        let p = BlockId(*next_label);
        *next_label += 1;
        lp.preheader = Some(p);
        created.push(NewPreheader {
            label: p,
            header: lp.header,
            outside: outside.iter().map(|&o| label(o)).collect(),
        });
    }
    // A new preheader belongs to every loop that strictly contains its loop
    // (all predecessors of a header inside an outer loop are in that loop).
    for ph in &created {
        for lp in loops.iter_mut() {
            if lp.header != ph.header && lp.blocks.contains(&ph.header) {
                lp.blocks.insert(ph.label);
            }
        }
    }
    for ph in &created {
        let (k, _) = order[&ph.header];
        order.insert(ph.label, (k, 0));
    }
    stats.preheaders_created += created.len();
    if !created.is_empty() {
        insert_preheaders(func, &cfg, &created);
    }

    // Where each value is defined (a block that is reachable or a new
    // preheader), and whether its result is always defined once it has run.
    let max = func.scan_max_value_id() as usize;
    let mut def_block: Vec<Option<BlockId>> = vec![None; max + 1];
    let mut maybe_undef = vec![false; max + 1];
    for block in &func.blocks {
        if !order.contains_key(&block.label) {
            continue; // unreachable
        }
        for inst in &block.instructions {
            let undef = matches!(
                inst,
                Instruction::Call { .. }
                    | Instruction::CallIndirect { .. }
                    | Instruction::InlineAsm(_)
                    | Instruction::Intrinsic { .. }
            );
            inst.for_each_def(|v| {
                def_block[v.0 as usize] = Some(block.label);
                maybe_undef[v.0 as usize] = undef;
            });
        }
    }

    let index: FxHashMap<BlockId, usize> = func.blocks.iter().enumerate().map(|(i, b)| (b.label, i)).collect();
    // A new preheader runs whenever its header is entered from outside.
    let header_of_new: FxHashMap<BlockId, BlockId> = created.iter().map(|p| (p.label, p.header)).collect();
    for lp in &loops {
        let Some(pre) = lp.preheader else { continue };
        let mut blocks: Vec<BlockId> = lp.blocks.iter().copied().collect();
        blocks.sort_by_key(|b| order.get(b).copied().unwrap_or((usize::MAX, 0)));
        // The latches (in the CFG analysed above): a block that dominates
        // them all runs on every iteration.
        let h = cfg.label_to_idx[&lp.header];
        let latches: Vec<usize> = cfg
            .preds
            .row(h)
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| lp.blocks.contains(&cfg_labels[p]))
            .collect();
        let every_iteration = |b: BlockId| {
            let b = header_of_new.get(&b).copied().unwrap_or(b);
            cfg.label_to_idx
                .get(&b)
                .is_some_and(|&bi| latches.iter().all(|&t| cfg.dominates(bi, t)))
        };
        let mut moved: Vec<Instruction> = Vec::new();
        for b in blocks {
            let Some(&bi) = index.get(&b) else { continue };
            // Cheap instructions move only from blocks that run on every
            // iteration (see `rematerializable`).
            let cheap_too = every_iteration(b);
            let insts = std::mem::take(&mut func.blocks[bi].instructions);
            let mut kept = Vec::with_capacity(insts.len());
            for inst in insts {
                let invariant = hoistable(&inst, symbols) && (cheap_too || !rematerializable(&inst)) && {
                    let mut all = true;
                    inst.for_each_used_value(|v| {
                        let i = v.0 as usize;
                        let outside = def_block
                            .get(i)
                            .copied()
                            .flatten()
                            .is_some_and(|d| !lp.blocks.contains(&d));
                        all &= outside && !maybe_undef[i];
                    });
                    all
                };
                if invariant {
                    inst.for_each_def(|v| def_block[v.0 as usize] = Some(pre));
                    moved.push(inst);
                } else {
                    kept.push(inst);
                }
            }
            func.blocks[bi].instructions = kept;
        }
        stats.hoisted += moved.len();
        if let Some(&pi) = index.get(&pre) {
            func.blocks[pi].instructions.extend(moved);
        }
    }
}

/// The natural loops of the reachable CFG, one per header.
fn find_loops(func: &IrFunction, cfg: &CfgAnalysis) -> Vec<Loop> {
    let mut latches: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    let mut headers: Vec<usize> = Vec::new();
    for &t in &cfg.rpo {
        for &h in cfg.succs.row(t) {
            let h = h as usize;
            if cfg.dominates(h, t) {
                let e = latches.entry(h).or_default();
                if e.is_empty() {
                    headers.push(h);
                }
                e.push(t);
            }
        }
    }
    headers
        .into_iter()
        .map(|h| {
            let mut blocks: FxHashSet<BlockId> = FxHashSet::default();
            blocks.insert(func.blocks[h].label);
            let mut work: Vec<usize> = Vec::new();
            for &t in &latches[&h] {
                if blocks.insert(func.blocks[t].label) {
                    work.push(t);
                }
            }
            while let Some(b) = work.pop() {
                for &p in cfg.preds.row(b) {
                    let p = p as usize;
                    if cfg.is_reachable(p) && blocks.insert(func.blocks[p].label) {
                        work.push(p);
                    }
                }
            }
            Loop {
                header: func.blocks[h].label,
                blocks,
                preheader: None,
            }
        })
        .collect()
}

/// Creates the planned preheaders: retargets the outside edges, moves the
/// outside entries of the header's phis, and lays each block out before its header.
fn insert_preheaders(func: &mut IrFunction, cfg: &CfgAnalysis, created: &[NewPreheader]) {
    let mut before: FxHashMap<BlockId, BasicBlock> = FxHashMap::default();
    for ph in created {
        for o in &ph.outside {
            let oi = cfg.label_to_idx[o];
            func.blocks[oi].terminator.retarget(ph.header, ph.label);
        }
        let mut pre = BasicBlock::new(ph.label);
        pre.terminator = Terminator::Branch(ph.header);
        let hi = cfg.label_to_idx[&ph.header];
        let mut phis = std::mem::take(&mut func.blocks[hi].instructions);
        for inst in phis.iter_mut() {
            let Instruction::Phi { ty, incoming, .. } = inst else {
                break; // phis come first
            };
            let (out, inside): (Vec<_>, Vec<_>) = incoming.iter().cloned().partition(|(_, b)| ph.outside.contains(b));
            let op = match out[..] {
                [] => continue,
                [(op, _)] => op,
                [(first, _), ..] if out.iter().all(|(op, _)| *op == first) => first,
                _ => {
                    let dest = func.fresh_value();
                    pre.instructions.push(Instruction::Phi {
                        dest,
                        ty: *ty,
                        incoming: out,
                    });
                    Operand::Value(dest)
                }
            };
            let mut new = Vec::with_capacity(inside.len() + 1);
            new.push((op, ph.label));
            new.extend(inside);
            *incoming = new;
        }
        func.blocks[hi].instructions = phis;
        before.insert(ph.header, pre);
    }
    let old = std::mem::take(&mut func.blocks);
    for block in old {
        if let Some(pre) = before.remove(&block.label) {
            func.blocks.push(pre);
        }
        func.blocks.push(block);
    }
}

/// Is `inst` as cheap to compute where it stands as to keep in a home across
/// the loop: a `gep` by a constant offset (one add, or none when the target
/// folds it into an address) or a `globaladdr` (one address computation)?
/// Such an instruction moves only from a block that dominates every latch of
/// the loop (it runs on every iteration, so hoisting saves one instruction
/// per iteration). From a conditional block it stays (rematerialization
/// instead of hoisting, as register allocators do for constants): hoisted,
/// it would be a value live across the whole loop, which takes a register
/// from the loop's own values or gets a stack slot whose reload costs as
/// much as the instruction, and it would run on every entry to the loop
/// although the original sat on a path rarely or never taken (an
/// interpreter's error paths put dozens of them in front of its dispatch
/// loop, and the interpreter is entered once per call). Not hoisting is
/// always correct, so this is a cost rule, not a legality one.
fn rematerializable(inst: &Instruction) -> bool {
    matches!(
        inst,
        Instruction::GetElementPtr {
            offset: Operand::Const(_),
            ..
        } | Instruction::GlobalAddr { .. }
    )
}

/// Can `inst` run where and as often as the preheader runs (pure, no trap)?
fn hoistable(inst: &Instruction, symbols: &FxHashSet<String>) -> bool {
    use Instruction as I;
    match inst {
        I::BinOp { op, rhs, ty, .. } => {
            // Injected bug `licm-hoists-division`: divisions and remainders
            // count as unable to trap, so one guarded by a test of its
            // divisor runs before the test.
            #[cfg(feature = "inject-bugs")]
            if op.can_trap() && crate::inject::enabled(crate::inject::Bug::LicmHoistsDivision) {
                return true;
            }
            !binop_may_trap(*op, rhs, *ty)
        }
        I::UnaryOp { .. } | I::Cmp { .. } | I::Cast { .. } | I::Copy { .. } | I::Select { .. } => true,
        I::GetElementPtr { .. } => true,
        I::GlobalAddr { name, .. } => symbols.contains(name),
        _ => false,
    }
}
