//! The callee half of the inliner's contract (see `mod.rs`): which
//! functions may be copied ([`analyse`]: attributes, `returns_twice` calls,
//! the size budget, by-value struct parameters, label addresses that stay
//! in one activation, the allocas a re-run must clear) and which calls match
//! their callee ([`site_matches`]).

use super::{for_each_direct_call, is_defined, successors, INLINE_BUDGET, RETURNS_TWICE};
use crate::ir::reexports::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// A callee that may be inlined, analysed once (its body is final by then).
pub(super) struct Body {
    pub func: IrFunction,
    pub size: usize,
    /// `paramref` results per parameter index.
    pub param_defs: Vec<Vec<Value>>,
    /// A `paramref` of the parameter is used where only a value fits (an address operand).
    pub param_in_value_slot: Vec<bool>,
    /// A reachable `ret` without a value in a function with a result.
    pub returns_nothing: bool,
    pub has_dyn_alloca: bool,
    /// Allocas a re-run of the copy must clear: (alloca, type, size, volatile).
    pub to_clear: Vec<(Value, IrType, usize, bool)>,
}

pub(super) fn calls_returns_twice(f: &IrFunction) -> bool {
    let mut found = false;
    for_each_direct_call(f, |name| found |= RETURNS_TWICE.contains(&name));
    found
}

/// Whether `site` may be replaced by a copy of `body` (the call-site half of the contract).
pub(super) fn site_matches(info: &CallInfo, body: &Body) -> bool {
    let g = &body.func;
    if info.is_variadic || info.args.len() != g.params.len() || info.arg_types.len() != info.args.len() {
        return false;
    }
    if info.is_sret != g.uses_sret {
        return false;
    }
    if info.dest.is_some() && (info.return_type != g.return_type || body.returns_nothing) {
        return false;
    }
    for (i, p) in g.params.iter().enumerate() {
        if info.arg_types[i] != p.ty {
            return false;
        }
        let hidden = g.uses_sret && i == 0;
        let call_struct = info.struct_arg_sizes.get(i).copied().flatten();
        if !hidden && call_struct != p.struct_size {
            return false;
        }
        let is_const = matches!(info.args[i], Operand::Const(_));
        if is_const && (body.param_in_value_slot[i] || (!hidden && p.struct_size.is_some())) {
            return false;
        }
    }
    true
}

/// The callee half of the contract: `None` when `f` is never inlined.
pub(super) fn analyse(f: &IrFunction, weak: &FxHashSet<String>) -> Option<Body> {
    if !is_defined(f) || f.is_noinline || f.is_variadic || f.is_naked || f.is_weak || weak.contains(&f.name) {
        return None;
    }
    if !f.global_init_label_blocks.is_empty() {
        return None;
    }
    let size = f.num_instructions();
    if !f.is_always_inline && size > INLINE_BUDGET {
        return None;
    }
    let nparams = f.params.len();
    let mut param_defs: Vec<Vec<Value>> = vec![Vec::new(); nparams];
    let mut has_dyn_alloca = false;
    for b in &f.blocks {
        for inst in &b.instructions {
            match inst {
                Instruction::VaStart { .. }
                | Instruction::SetReturnF32Second { .. }
                | Instruction::SetReturnF64Second { .. }
                | Instruction::SetReturnF128Second { .. } => return None,
                Instruction::Intrinsic {
                    op: IntrinsicOp::FrameAddress | IntrinsicOp::ReturnAddress,
                    ..
                } => return None,
                Instruction::Call { func, .. } if RETURNS_TWICE.contains(&func.as_str()) => return None,
                Instruction::ParamRef { dest, param_idx, ty } => {
                    if *param_idx >= nparams || *ty != f.params[*param_idx].ty {
                        return None;
                    }
                    param_defs[*param_idx].push(*dest);
                }
                Instruction::DynAlloca { .. } => has_dyn_alloca = true,
                _ => {}
            }
        }
    }
    // Returns reachable from the entry.
    let idx: FxHashMap<BlockId, usize> = f.blocks.iter().enumerate().map(|(i, b)| (b.label, i)).collect();
    let mut seen = vec![false; f.blocks.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    let (mut any_return, mut returns_nothing) = (false, false);
    while let Some(b) = stack.pop() {
        let block = &f.blocks[b];
        if let Terminator::Return(op) = &block.terminator {
            any_return = true;
            returns_nothing |= op.is_none() && f.return_type != IrType::Void;
        }
        for s in successors(block, &idx) {
            if !seen[s] {
                seen[s] = true;
                stack.push(s);
            }
        }
    }
    if !any_return || !label_addresses_stay_local(f) {
        return None;
    }
    let mut func = f.clone();
    let max = func.scan_max_value_id() as usize;
    // Where the paramrefs are used: address slots, and uses in all.
    let mut param_of: Vec<Option<usize>> = vec![None; max + 1];
    for (i, defs) in param_defs.iter().enumerate() {
        for d in defs {
            param_of[d.0 as usize] = Some(i);
        }
    }
    let mut all_uses = vec![0usize; max + 1];
    let mut operand_uses = vec![0usize; max + 1];
    for b in &mut func.blocks {
        for inst in &mut b.instructions {
            inst.for_each_used_value(|v| all_uses[v.0 as usize] += 1);
            inst.for_each_operand_mut(|op| {
                if let Operand::Value(v) = op {
                    operand_uses[v.0 as usize] += 1;
                }
            });
        }
        b.terminator.for_each_used_value(|v| {
            all_uses[v.0 as usize] += 1;
            operand_uses[v.0 as usize] += 1;
        });
    }
    let mut param_in_value_slot = vec![false; nparams];
    for (v, p) in param_of.iter().enumerate() {
        if let Some(i) = p {
            if all_uses[v] != operand_uses[v] {
                param_in_value_slot[*i] = true;
            }
        }
    }
    // By-value structs: the paramref only feeds the entry's copy-in.
    let struct_params: Vec<usize> = (0..nparams)
        .filter(|&i| f.params[i].struct_size.is_some() && !(f.uses_sret && i == 0))
        .collect();
    if !struct_params.is_empty() {
        let mut copy_in = vec![0usize; max + 1];
        let mut entry_allocas: FxHashSet<Value> = FxHashSet::default();
        for inst in &f.blocks[0].instructions {
            let arrival = match inst {
                Instruction::Alloca { dest, .. } => {
                    entry_allocas.insert(*dest);
                    true
                }
                Instruction::ParamRef { .. } => true,
                Instruction::Store { ptr, .. } => entry_allocas.contains(ptr),
                Instruction::Memcpy { dest, src, .. } => {
                    let ok = entry_allocas.contains(dest) && param_of.get(src.0 as usize).copied().flatten().is_some();
                    if ok {
                        copy_in[src.0 as usize] += 1;
                    }
                    ok
                }
                _ => false,
            };
            if !arrival {
                break;
            }
        }
        for &i in &struct_params {
            for d in &param_defs[i] {
                if all_uses[d.0 as usize] != copy_in[d.0 as usize] {
                    return None;
                }
            }
        }
    }
    let to_clear = allocas_to_clear(f);
    Some(Body {
        func,
        size,
        param_defs,
        param_in_value_slot,
        returns_nothing,
        has_dyn_alloca,
        to_clear,
    })
}

/// The allocas of `f` that its entry block does not overwrite whole before
/// anything else reads or takes them, and before any `asm goto` that could
/// leave the block (a fresh frame would have them zero).
fn allocas_to_clear(f: &IrFunction) -> Vec<(Value, IrType, usize, bool)> {
    let mut all: Vec<(Value, IrType, usize, bool)> = Vec::new();
    for b in &f.blocks {
        for inst in &b.instructions {
            if let Instruction::Alloca {
                dest,
                ty,
                size,
                volatile,
                ..
            } = inst
            {
                all.push((*dest, *ty, *size, *volatile));
            }
        }
    }
    let size_of: FxHashMap<Value, usize> = all.iter().map(|&(v, _, s, _)| (v, s)).collect();
    let mut decided: FxHashSet<Value> = FxHashSet::default();
    let mut written: FxHashSet<Value> = FxHashSet::default();
    for inst in &f.blocks[0].instructions {
        let covers = match inst {
            Instruction::Store { val, ptr, ty, .. } if val.as_value() != Some(*ptr) => {
                Some(*ptr).filter(|p| size_of.get(p) == Some(&ty.size()))
            }
            Instruction::Memcpy { dest, src, size } if dest != src => {
                Some(*dest).filter(|d| size_of.get(d) == Some(size))
            }
            _ => None,
        };
        if let Some(a) = covers {
            if decided.insert(a) {
                written.insert(a);
            }
        }
        inst.for_each_used_value(|v| {
            if size_of.contains_key(&v) {
                decided.insert(v);
            }
        });
        if !inst.asm_goto_targets().is_empty() {
            // Control may leave the block here: a later store covers only
            // the fall-through path.
            break;
        }
    }
    all.retain(|(v, ..)| !written.contains(v));
    all
}

/// Do the label addresses of `f` stay inside one activation? They may flow
/// through copies, selects, phis and allocas only `f` can reach, into
/// indirect branches and comparisons; anything else (a call, a return, a
/// store to memory others can see, arithmetic) lets one escape.
fn label_addresses_stay_local(f: &IrFunction) -> bool {
    let insts = || f.blocks.iter().flat_map(|b| b.instructions.iter());
    if !insts().any(|i| matches!(i, Instruction::LabelAddr { .. })) {
        return true;
    }
    // Pointers into allocas: alloca -> itself, gep of one -> its alloca.
    let mut root: FxHashMap<Value, Value> = FxHashMap::default();
    loop {
        let before = root.len();
        for inst in insts() {
            match inst {
                Instruction::Alloca { dest, .. } => {
                    root.insert(*dest, *dest);
                }
                Instruction::GetElementPtr { dest, base, .. } => {
                    if let Some(&r) = root.get(base) {
                        root.insert(*dest, r);
                    }
                }
                _ => {}
            }
        }
        if root.len() == before {
            break;
        }
    }
    // Allocas whose pointers are only load/store addresses and gep bases.
    let mut private: FxHashSet<Value> = root.values().copied().collect();
    let shared = |v: Value, private: &mut FxHashSet<Value>| {
        if let Some(r) = root.get(&v) {
            private.remove(r);
        }
    };
    for inst in insts() {
        match inst {
            Instruction::Load { .. } => {}
            Instruction::Store { val, .. } => {
                if let Some(v) = val.as_value() {
                    shared(v, &mut private);
                }
            }
            Instruction::GetElementPtr { offset, .. } => {
                if let Some(v) = offset.as_value() {
                    shared(v, &mut private);
                }
            }
            other => other.for_each_used_value(|v| shared(v, &mut private)),
        }
    }
    for b in &f.blocks {
        b.terminator.for_each_used_value(|v| shared(v, &mut private));
    }
    // Values that may hold a label address, and the private allocas storing one.
    let mut tainted: FxHashSet<Value> = FxHashSet::default();
    let mut tainted_slots: FxHashSet<Value> = FxHashSet::default();
    loop {
        let before = tainted.len() + tainted_slots.len();
        for inst in insts() {
            let mut uses_tainted = false;
            inst.for_each_used_value(|v| uses_tainted |= tainted.contains(&v));
            match inst {
                Instruction::LabelAddr { dest, .. } => {
                    tainted.insert(*dest);
                }
                Instruction::Copy { dest, .. } | Instruction::Select { dest, .. } | Instruction::Phi { dest, .. }
                    if uses_tainted =>
                {
                    tainted.insert(*dest);
                }
                Instruction::Load { dest, ptr, .. } if root.get(ptr).is_some_and(|r| tainted_slots.contains(r)) => {
                    tainted.insert(*dest);
                }
                Instruction::Store {
                    val: Operand::Value(v),
                    ptr,
                    ..
                } if tainted.contains(v) => match root.get(ptr) {
                    Some(r) if private.contains(r) => {
                        tainted_slots.insert(*r);
                    }
                    _ => return false,
                },
                _ => {}
            }
        }
        if tainted.len() + tainted_slots.len() == before {
            break;
        }
    }
    // Every use of a tainted value is one of the allowed sinks.
    for b in &f.blocks {
        for inst in &b.instructions {
            let ok = match inst {
                Instruction::Copy { .. }
                | Instruction::Select { .. }
                | Instruction::Phi { .. }
                | Instruction::Cmp { .. }
                | Instruction::LabelAddr { .. } => true,
                Instruction::Store { ptr, .. } => !tainted.contains(ptr),
                _ => false,
            };
            if !ok {
                let mut bad = false;
                inst.for_each_used_value(|v| bad |= tainted.contains(&v));
                if bad {
                    return false;
                }
            }
        }
        let bad = match &b.terminator {
            Terminator::IndirectBranch { .. } => false,
            t => t.used_values().iter().any(|v| tainted.contains(v)),
        };
        if bad {
            return false;
        }
    }
    true
}
