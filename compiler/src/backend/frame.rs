//! Value types and frame layout, shared by every target.
//!
//! Every IR value other than an address gets its home from the register
//! allocator ([`super::regalloc`]): a register, or a stack slot (8 bytes, 16
//! for `i128`/`u128`/`f128`) shared with values it does not interfere with.
//! Each `alloca` that something reads is a frame object of its size and
//! alignment; the value an `alloca` defines has no slot, its address is
//! computed when used.
//!
//! The layout is one *locals area* of `size` bytes (a multiple of 16) whose
//! base is 16-byte aligned; every home is an offset into it. The target
//! decides where the area sits relative to its frame pointer (x86-64: just
//! below `%rbp`) and may reserve its own areas (register save area, saved
//! callee-saved registers, parameter homes) with [`FrameLayout::reserve`]
//! before [`FrameLayout::finish`]. Objects aligned to more than 16 bytes get
//! `size + align - 16` bytes and are aligned at run time by the target.
//!
//! Addresses that are cheap to recompute get no slot (rematerialization): a
//! value defined once, by `globaladdr` (`SymbolAddr`), or by a `gep` with a
//! constant offset from such a value or from an `alloca` (`FrameAddr`,
//! `SymbolAddr` plus the offset). The target computes them where they are
//! used, typically folding them into the memory operand of a load or store
//! (`-40(%rbp)`, `sym+8(%rip)`), and emits nothing for their definition.

use super::regalloc::{self, PhysReg, RegBudget};
use super::BackendError;
use crate::ir::instruction::{const_natural_type, BlockId, Instruction, Operand, Terminator, Value};
use crate::ir::module::IrFunction;
use crate::ir::types::IrType;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// Where an IR value lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// Not defined in the function.
    None,
    /// A stack slot holding the value, at this offset in the locals area
    /// (shared with values it does not interfere with: [`super::regalloc`]).
    Slot(u32),
    /// A callee-saved register holding the value for the whole function
    /// (the bits above the type's size are unspecified: readers extend).
    Reg(PhysReg),
    /// The value is the address of an `alloca` object at this offset.
    /// `align > 16` objects must be realigned at run time (the target rounds
    /// the address up to `align`).
    Alloca { offset: u32, align: u32 },
    /// The value is the address at this offset of the locals area (inside
    /// an `alloca` object of alignment at most 16); recomputed where used.
    FrameAddr(i64),
    /// The value is the address of symbol [`FrameLayout::symbol`]`(sym)`
    /// plus `offset`; recomputed where used.
    SymbolAddr { sym: u32, offset: i64 },
}

impl Home {
    /// Whether the value is an address computed where it is used (no slot).
    pub fn is_address(self) -> bool {
        matches!(self, Home::Alloca { .. } | Home::FrameAddr(_) | Home::SymbolAddr { .. })
    }
}

/// The type of every value of a function, indexed by value id.
#[derive(Clone, Debug, Default)]
pub struct ValueTypes {
    types: Vec<IrType>,
}

/// Gives the destinations of the copies of each value in `work` that value's
/// type, and theirs in turn (each value's copies once).
fn propagate(types: &mut Vec<IrType>, copies_of: &mut FxHashMap<Value, Vec<Value>>, work: &mut Vec<Value>) {
    while let Some(src) = work.pop() {
        let t = types[src.0 as usize];
        if let Some(dests) = copies_of.remove(&src) {
            for d in dests {
                if types.get(d.0 as usize) == Some(&IrType::Void) || d.0 as usize >= types.len() {
                    set(types, d, t);
                    work.push(d);
                }
            }
        }
    }
}

impl ValueTypes {
    /// Types from each value's definition: the instruction's result type, a
    /// `copy` its source's (propagated along copy chains with a worklist,
    /// since a copy may come before its source's definition in layout
    /// order), an asm output its operand type. Values never defined are `Void`.
    ///
    /// A `copy` of a constant types its destination only when no copy of a
    /// value does: a constant has no signedness (`0i8` stands for a `u8`
    /// too), so the phi copies of `%p = phi u8 [0i8, a], [%x, b]` must take
    /// `u8` from `%x`. Typed `i8` from the constant, `%p` would be
    /// coalesced with `%x` and extended the other way (RISC-V keeps 8- and
    /// 16-bit values extended by their signedness).
    pub fn compute(f: &IrFunction) -> ValueTypes {
        let n = (f.max_value_id() as usize + 1).max(f.next_value_id as usize);
        let mut types = vec![IrType::Void; n];
        // Copies of values, by source: `copies_of[src]` lists their dests.
        let mut copies_of: FxHashMap<Value, Vec<Value>> = FxHashMap::default();
        let mut constant_copies: Vec<(Value, IrType)> = Vec::new();
        for b in &f.blocks {
            for inst in &b.instructions {
                match inst {
                    Instruction::Copy {
                        dest,
                        src: Operand::Const(_),
                    } => {
                        if let Some(t) = inst.result_type() {
                            constant_copies.push((*dest, t));
                        }
                    }
                    Instruction::InlineAsm(asm) => {
                        for (i, o) in asm.outputs.iter().enumerate() {
                            if o.is_def {
                                set(&mut types, o.value, asm.output_type(i));
                            }
                        }
                    }
                    Instruction::Copy {
                        dest,
                        src: Operand::Value(s),
                    } => copies_of.entry(*s).or_default().push(*dest),
                    _ => {
                        if let (Some(d), Some(t)) = (inst.dest(), inst.result_type()) {
                            set(&mut types, d, t);
                        }
                    }
                }
            }
        }
        let mut work: Vec<Value> = copies_of
            .keys()
            .copied()
            .filter(|v| types.get(v.0 as usize).is_some_and(|t| *t != IrType::Void))
            .collect();
        propagate(&mut types, &mut copies_of, &mut work);
        // Then the constants, for the values no copy of a value reached.
        for (d, t) in constant_copies {
            if types.get(d.0 as usize).is_none_or(|x| *x == IrType::Void) {
                set(&mut types, d, t);
                work.push(d);
            }
        }
        propagate(&mut types, &mut copies_of, &mut work);
        ValueTypes { types }
    }

    /// The type of `v` (`Void` when unknown).
    pub fn of(&self, v: Value) -> IrType {
        self.types.get(v.0 as usize).copied().unwrap_or(IrType::Void)
    }

    /// The type of an operand: a value's type, or a constant's natural type.
    pub fn of_operand(&self, op: &Operand) -> IrType {
        match op {
            Operand::Value(v) => self.of(*v),
            Operand::Const(c) => const_natural_type(c),
        }
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}

fn set(types: &mut Vec<IrType>, v: Value, t: IrType) {
    let i = v.0 as usize;
    if i >= types.len() {
        types.resize(i + 1, IrType::Void);
    }
    types[i] = t;
}

/// Size of the slot that holds a value of type `t`.
pub fn slot_size(t: IrType) -> u32 {
    if t.size() > 8 {
        16
    } else {
        8
    }
}

/// The homes of all values of a function and the size of its locals area.
#[derive(Clone, Debug)]
pub struct FrameLayout {
    homes: Vec<Home>,
    symbols: Vec<Rc<str>>,
    /// Bytes used so far (the final size after `finish`).
    size: u32,
    /// Offset and size of the region holding `alloca` objects (zero-filled on entry).
    pub alloca_region: (u32, u32),
    /// Registers the allocator handed out (the prologue saves them).
    used_regs: Vec<PhysReg>,
    /// Copies the allocator made free (both sides share a home).
    pub coalesced_copies: usize,
    finished: bool,
    /// Blocks that emit only a jump, and where that jump leads ([`FrameLayout::branch_target`]).
    through: FxHashMap<BlockId, BlockId>,
}

impl FrameLayout {
    /// Lays out the allocas first (one contiguous region, so a prologue can
    /// zero them at once, as the interpreter's zero-filled allocas require),
    /// then gives every other defined value a register of `budget` or a
    /// stack slot ([`regalloc::allocate`]).
    pub fn compute(f: &IrFunction, types: &ValueTypes, budget: RegBudget) -> Result<FrameLayout, BackendError> {
        Self::compute_with(f, types, budget, regalloc::no_clobbers)
    }

    /// As [`FrameLayout::compute`], with caller-saved registers in the
    /// budget that the instructions `clobbers` names overwrite.
    pub fn compute_with(
        f: &IrFunction,
        types: &ValueTypes,
        budget: RegBudget,
        clobbers: regalloc::ClobberFn,
    ) -> Result<FrameLayout, BackendError> {
        let mut layout = FrameLayout {
            homes: vec![Home::None; types.len()],
            symbols: Vec::new(),
            size: 0,
            alloca_region: (0, 0),
            used_regs: Vec::new(),
            coalesced_copies: 0,
            finished: false,
            through: FxHashMap::default(),
        };
        // An alloca nothing reads (a parameter's slot after mem2reg-params,
        // say) gets no frame object.
        let mut used = vec![false; types.len()];
        for b in &f.blocks {
            for inst in &b.instructions {
                inst.for_each_used_value(|v| {
                    if let Some(u) = used.get_mut(v.0 as usize) {
                        *u = true;
                    }
                });
            }
            b.terminator.for_each_used_value(|v| {
                if let Some(u) = used.get_mut(v.0 as usize) {
                    *u = true;
                }
            });
        }
        for b in &f.blocks {
            for inst in &b.instructions {
                if let Instruction::Alloca { dest, size, align, .. } = inst {
                    let align = (*align).max(1);
                    if !align.is_power_of_two() {
                        return Err(BackendError::internal(&f.name, format!("alloca alignment {align}")));
                    }
                    if align > 1 << 16 {
                        return Err(BackendError::unsupported(
                            &f.name,
                            format!("alignment {align} is larger than 65536"),
                        ));
                    }
                    if *size > (1 << 30) {
                        return Err(BackendError::unsupported(
                            &f.name,
                            format!("alloca of {size} bytes is too large"),
                        ));
                    }
                    if !used.get(dest.0 as usize).copied().unwrap_or(true) {
                        continue;
                    }
                    let (bytes, a) = if align > 16 {
                        (*size as u32 + align as u32 - 16, 16)
                    } else {
                        (*size as u32, align as u32)
                    };
                    let offset = layout.reserve(bytes.max(1), a);
                    layout.set(
                        *dest,
                        Home::Alloca {
                            offset,
                            align: align as u32,
                        },
                    );
                }
            }
        }
        // Eightbytes: the prologues zero the region a doubleword at a time.
        layout.size = round_up(layout.size, 8);
        layout.alloca_region = (0, layout.size);
        layout.rematerialize(f);
        for b in &f.blocks {
            for inst in &b.instructions {
                let mut err = None;
                inst.for_each_def(|d| {
                    if layout.home(d) == Home::None && types.of(d) == IrType::Void {
                        err = Some(format!("value {d} has no type"));
                    }
                });
                if let Some(e) = err {
                    return Err(BackendError::internal(&f.name, e));
                }
            }
        }
        let alloc = {
            let preset = |v: Value| layout.home(v) != Home::None;
            regalloc::allocate(f, types, &preset, budget, clobbers)
        };
        let base = layout.reserve(alloc.slot_area, alloc.slot_align);
        for (v, h) in alloc.homes {
            let h = match h {
                Home::Slot(off) => Home::Slot(base + off),
                h => h,
            };
            layout.set(v, h);
        }
        layout.used_regs = alloc.used;
        layout.coalesced_copies = alloc.coalesced;
        layout.through = layout.empty_block_targets(f, types);
        Ok(layout)
    }

    /// Blocks that emit nothing but their jump: no instruction, or only
    /// copies whose two sides got one home and have the same type (the
    /// coalesced phi copies of a critical edge's trampoline), ending in `br
    /// T`. A branch to such a block can go straight to `T` (followed through
    /// chains of them). The types must be equal, not only agree: RISC-V 64
    /// keeps a register extended by its value's type, so a copy from `i16`
    /// to `u16` in one register re-extends it.
    fn empty_block_targets(&self, f: &IrFunction, types: &ValueTypes) -> FxHashMap<BlockId, BlockId> {
        let free = |inst: &Instruction| match inst {
            Instruction::Copy {
                dest,
                src: Operand::Value(src),
            } => {
                let h = self.home(*dest);
                (matches!(h, Home::Reg(_) | Home::Slot(_)) && h == self.home(*src) && types.of(*dest) == types.of(*src))
                    || crate::inject::enabled(crate::inject::Bug::BranchPastCopies)
            }
            _ => false,
        };
        let mut next: FxHashMap<BlockId, BlockId> = FxHashMap::default();
        for b in &f.blocks {
            if let Terminator::Branch(t) = b.terminator {
                if t != b.label && b.instructions.iter().all(free) {
                    next.insert(b.label, t);
                }
            }
        }
        let mut through = FxHashMap::default();
        for &start in next.keys() {
            // Follow the chain; a cycle of empty blocks (an endless loop) stays as it is.
            let mut t = start;
            let mut steps = 0;
            while let Some(&n) = next.get(&t) {
                t = n;
                steps += 1;
                if t == start || steps > next.len() {
                    t = start;
                    break;
                }
            }
            if t != start {
                through.insert(start, t);
            }
        }
        through
    }

    /// Where a branch to `b` may go: past blocks that emit nothing but a jump.
    pub fn branch_target(&self, b: BlockId) -> BlockId {
        self.through.get(&b).copied().unwrap_or(b)
    }

    /// Blocks the emitter leaves out: blocks that emit nothing but a jump
    /// ([`FrameLayout::branch_target`]) that no code reaches once every
    /// branch and conditional branch goes past them. Kept are the entry,
    /// the targets of switches (their tables and compare chains name their
    /// blocks), of indirect branches and `asm goto`, and blocks whose
    /// address is taken (`&&label` in code or in a static initializer).
    /// No block falls through into a left-out one: a branch to it goes past
    /// it before the fall-through test ([`super::isel::goto`]).
    pub fn elided_blocks(&self, f: &IrFunction) -> FxHashSet<BlockId> {
        if self.through.is_empty() {
            return FxHashSet::default();
        }
        let mut keep: FxHashSet<BlockId> = f.global_init_label_blocks.iter().copied().collect();
        keep.extend(f.blocks.first().map(|b| b.label));
        // The injected bug forgets that a switch names its blocks itself.
        let switches_name_blocks = !crate::inject::enabled(crate::inject::Bug::ElideSwitchTarget);
        for b in &f.blocks {
            match &b.terminator {
                Terminator::Switch { cases, default, .. } if switches_name_blocks => {
                    keep.extend(cases.iter().map(|&(_, l)| l));
                    keep.insert(*default);
                }
                Terminator::IndirectBranch { possible_targets, .. } => keep.extend(possible_targets.iter().copied()),
                _ => {}
            }
            for inst in &b.instructions {
                match inst {
                    Instruction::LabelAddr { label, .. } => {
                        keep.insert(*label);
                    }
                    Instruction::InlineAsm(asm) => keep.extend(asm.goto_labels.iter().map(|&(_, l)| l)),
                    _ => {}
                }
            }
        }
        self.through.keys().filter(|b| !keep.contains(b)).copied().collect()
    }

    /// Gives `SymbolAddr`/`FrameAddr` homes to the addresses defined once
    /// by `globaladdr` or by a constant-offset `gep` of an address (a few
    /// rounds, since a `gep` may come before its base in layout order).
    fn rematerialize(&mut self, f: &IrFunction) {
        let mut defs: Vec<u8> = vec![0; self.homes.len()];
        for b in &f.blocks {
            for inst in &b.instructions {
                inst.for_each_def(|d| {
                    if let Some(c) = defs.get_mut(d.0 as usize) {
                        *c = c.saturating_add(1);
                    }
                });
            }
        }
        let once = |v: Value| defs.get(v.0 as usize) == Some(&1);
        let mut interned: FxHashMap<&str, u32> = FxHashMap::default();
        const LIMIT: i64 = 1 << 30;
        // Each round resolves geps whose base was resolved before; a few
        // rounds cover any real program (the rest simply keep their slots).
        for _ in 0..8 {
            let mut changed = false;
            for b in &f.blocks {
                for inst in &b.instructions {
                    let (dest, home) = match inst {
                        Instruction::GlobalAddr { dest, name } if once(*dest) && self.home(*dest) == Home::None => {
                            let sym = match interned.get(name.as_str()) {
                                Some(&k) => k,
                                None => {
                                    self.symbols.push(Rc::from(name.as_str()));
                                    let k = (self.symbols.len() - 1) as u32;
                                    interned.insert(name, k);
                                    k
                                }
                            };
                            (*dest, Home::SymbolAddr { sym, offset: 0 })
                        }
                        Instruction::GetElementPtr {
                            dest,
                            base,
                            offset: Operand::Const(c),
                            ..
                        } if once(*dest) && self.home(*dest) == Home::None => {
                            let Some(k) = c.to_i64().filter(|k| k.abs() < LIMIT) else {
                                continue;
                            };
                            match self.home(*base) {
                                Home::Alloca { offset, align } if align <= 16 => {
                                    (*dest, Home::FrameAddr(offset as i64 + k))
                                }
                                Home::FrameAddr(o) if (o + k).abs() < LIMIT => (*dest, Home::FrameAddr(o + k)),
                                Home::SymbolAddr { sym, offset } if (offset + k).abs() < LIMIT => (
                                    *dest,
                                    Home::SymbolAddr {
                                        sym,
                                        offset: offset + k,
                                    },
                                ),
                                _ => continue,
                            }
                        }
                        _ => continue,
                    };
                    self.set(dest, home);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The name of symbol number `sym` of a `SymbolAddr` home.
    pub fn symbol(&self, sym: u32) -> &Rc<str> {
        &self.symbols[sym as usize]
    }

    fn set(&mut self, v: Value, h: Home) {
        let i = v.0 as usize;
        if i >= self.homes.len() {
            self.homes.resize(i + 1, Home::None);
        }
        self.homes[i] = h;
    }

    /// Reserves `size` bytes aligned to `align` (at most 16) in the locals
    /// area and returns their offset.
    pub fn reserve(&mut self, size: u32, align: u32) -> u32 {
        debug_assert!(!self.finished && align <= 16);
        let off = round_up(self.size, align.max(1));
        self.size = off + size;
        off
    }

    /// Rounds the area up to 16 bytes; no reservation may follow.
    pub fn finish(&mut self) {
        self.size = round_up(self.size, 16);
        self.finished = true;
    }

    /// Size of the locals area (a multiple of 16 after `finish`).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The registers the allocator handed out, sorted (the prologue saves them).
    pub fn used_regs(&self) -> &[PhysReg] {
        &self.used_regs
    }

    pub fn home(&self, v: Value) -> Home {
        self.homes.get(v.0 as usize).copied().unwrap_or(Home::None)
    }
}

/// `x` rounded up to a multiple of `a` (a power of two).
pub fn round_up(x: u32, a: u32) -> u32 {
    (x + a - 1) & !(a - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    #[test]
    fn copies_take_their_source_type_even_before_it_in_layout() {
        let m = parse_module(
            "define @f(i64) -> i64 {\nbb0:\n  br bb2\nbb1:\n  %3 = copy %2\n  ret %3\nbb2:\n  %1 = paramref 0 i64\n  %2 = cast i64 -> i16 %1\n  br bb1\n}\n",
        )
        .unwrap();
        let t = ValueTypes::compute(&m.functions[0]);
        assert_eq!(t.of(Value(3)), IrType::I16);
        assert_eq!(t.of(Value(1)), IrType::I64);
        assert_eq!(t.of(Value(7)), IrType::Void);
    }

    #[test]
    fn allocas_come_first_and_values_get_aligned_slots() {
        let m = parse_module(
            "define @f() -> i128 {\nbb0:\n  %0 = alloca i8, size 3, align 1\n  %1 = add i32 1i32, 2i32\n  %2 = alloca i64, size 40, align 64\n  %3 = cast i32 -> i128 %1\n  store i8 0i8, %0\n  store i64 0i64, %2\n  ret %3\n}\n",
        )
        .unwrap();
        let f = &m.functions[0];
        let t = ValueTypes::compute(f);
        let mut l = FrameLayout::compute(f, &t, RegBudget::NONE).unwrap();
        assert_eq!(l.home(Value(0)), Home::Alloca { offset: 0, align: 1 });
        // 64-aligned: 40 + 64 - 16 bytes at a 16-aligned offset, realigned at run time.
        assert_eq!(l.home(Value(2)), Home::Alloca { offset: 16, align: 64 });
        // The region ends at a multiple of 8 (16 + 88 bytes).
        assert_eq!(l.alloca_region, (0, 104));
        // The value slots follow, 16-byte slots first; %3 is computed from %1
        // (they interfere), so the two do not share.
        assert_eq!(l.home(Value(3)), Home::Slot(112));
        assert_eq!(l.home(Value(1)), Home::Slot(128));
        let extra = l.reserve(176, 16);
        assert_eq!(extra, 144);
        l.finish();
        assert_eq!(l.size(), 320);
    }

    #[test]
    fn single_definition_addresses_are_rematerialized() {
        let m = parse_module(
            "global @g: i64, size 16, align 8\ndefine @f(i64) -> i64 {\nbb0:\n  %0 = alloca i64, size 16, align 8\n  %1 = gep i64 %3, 8i64\n  %2 = gep i64 %0, 8i64\n  %3 = globaladdr @g\n  %4 = paramref 0 i64\n  %5 = gep i64 %0, %4\n  %6 = load i64 %1\n  ret %6\n}\n",
        )
        .unwrap();
        let f = &m.functions[0];
        let l = FrameLayout::compute(f, &ValueTypes::compute(f), RegBudget::NONE).unwrap();
        // A gep before its base in layout order still gets the symbol's home.
        assert_eq!(l.home(Value(1)), Home::SymbolAddr { sym: 0, offset: 8 });
        assert_eq!(&**l.symbol(0), "g");
        assert_eq!(l.home(Value(2)), Home::FrameAddr(8));
        assert_eq!(l.home(Value(3)), Home::SymbolAddr { sym: 0, offset: 0 });
        // A variable offset needs a slot.
        assert!(matches!(l.home(Value(5)), Home::Slot(_)));
    }
}
