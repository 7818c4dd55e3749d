//! The IR verifier: checks the structural, type and SSA invariants every pass
//! must preserve, and reports each violation with the function, block and
//! instruction it was found at. Tests and `--verify-each` run it after every
//! pass, in the manner of Cranelift's verifier and QBE's SSA checker.
//!
//! Positions: `inst i` is the index of an instruction in its block; the
//! terminator of a block with `n` instructions is reported as `inst n`.
//! [`annotate_function`] and [`VerifyErrors::annotate`] show the errors inline
//! as `; error:` comments in the textual IR of the failing function.
//!
//! Layout: `structure` (labels, targets, edges, phis, definitions), `checks`
//! (value types and per-instruction rules), `ssa` (dominance), `annotate`,
//! `incremental` (re-verify only the functions a pass changed).
//!
//! # Invariants checked in both modes
//!
//! Module:
//! - block labels are unique across the whole module (trampoline blocks take
//!   module-wide fresh ids);
//! - no two function definitions share a name.
//!
//! Structure of each definition (declarations are skipped, but must not have blocks):
//! - it has at least one block, and its block labels are distinct;
//! - every terminator target, `asm goto` label and `labeladdr` label names a
//!   block of the function;
//! - the entry block (`blocks[0]`) has no predecessors;
//! - within a block, no successor is reached from two edge sources (the
//!   terminator and an `asm goto`, or two `asm goto`s), so that a phi's
//!   incoming entry says unambiguously which edge it belongs to;
//! - phis stand only at the start of a block;
//! - the incoming blocks of a phi are exactly the predecessors of its block
//!   (reachable or not), one entry each;
//! - every used value has a definition in the function, and when the function
//!   caches `next_value_id` every defined value is below it.
//!
//! Types (a value's type is its instruction's `result_type()`; a `copy` takes
//! its source's type; `copy zero` gives no type; `asm` outputs take their
//! `operand_types` entry). Two types agree when size and class (integer or
//! pointer vs. float) match: signedness is ignored and `ptr` agrees with 8-byte
//! integers.
//! - each value operand agrees with the type the instruction gives it (the
//!   instruction type, `ptr` for addresses, the argument type of a call, the
//!   parameter type of a `paramref`, the return type of a `ret`, ...);
//! - constants: for `store` values, arithmetic (`binop`, `unop`, `cmp`,
//!   `select`, atomics), `ret` and `switch` a constant is of the class of the
//!   instruction type; a phi incoming constant also has the phi type's width
//!   unless it is `zero` (this exposes a missing constant narrowing in mem2reg);
//! - conditions (`condbr`, `select`), sizes and offsets are integers; `cmp`
//!   yields `i8`, so using its result as a wider integer is an error;
//! - the type of a value-producing instruction (and of a load, store or cast) is
//!   not `void`; a `switch` has an integer type, and every case value fits it
//!   (read signed or unsigned) and no two are equal;
//! - a `call` names a function of the module (definition, declaration or alias) and
//!   passes as many arguments as it has parameters (at least as many for a
//!   variadic callee); `args` and `arg_types` have equal lengths; a call with a
//!   result does not return `void`;
//! - `paramref` indexes an existing parameter and has its type;
//! - `globaladdr` names a global, function, string literal or alias;
//! - an `alloca` is at least as large as its type, and every alignment is a
//!   power of two;
//! - an `asm` lists either no operand types or one per operand; its
//!   non-`is_def` outputs are pointers and its register inputs agree with their
//!   operand types (memory-constraint inputs are not checked); an intrinsic gets
//!   its number of arguments;
//! - `ret` returns a value of the function's return type and never returns a
//!   value from a void function (a bare `ret` in a non-void function is allowed:
//!   C lets control fall off the end of such a function).
//!
//! CFG analysis (both modes, functions of at most 512 blocks): the dominator
//! tree of `analysis.rs`, which mem2reg and the SSA checks below rely on,
//! agrees with an independent computation (`dominator_sets.rs`, iterative
//! data flow over dominator sets), so a wrong tree (say, on an irreducible
//! loop) is an error rather than a blind spot. (The harness's check compares
//! mem2reg's dominance frontiers the same way.)
//!
//! # SSA mode
//! - each value is defined once (an `asm` defines each of its `is_def` outputs);
//! - every use is dominated by its definition: in the same block the
//!   definition comes first; in another block the defining block dominates the
//!   using block. Uses in unreachable blocks are not checked;
//! - the phi operand for predecessor `P` is available at the end of `P`, or,
//!   when the edge is an `asm goto` edge, at that `asm`: a value defined after
//!   the `asm goto`, or an output of that `asm` (outputs are written on the
//!   fall-through path only), does not flow along the goto edge;
//! - more generally, block-level dominance is refined at `asm goto`s: a value
//!   defined in block `D` after (or by) an `asm goto` is not available in a
//!   block that can be reached through that goto edge without passing the
//!   definition.
//!
//! # Non-SSA mode (after phi elimination)
//! - no phi remains;
//! - a value may be defined several times (the copies into a phi's old
//!   destination), but all its definitions agree in type, and every used value
//!   has at least one definition. Dominance is not checked.

mod annotate;
mod checks;
mod incremental;
mod ssa;
mod structure;

pub use annotate::annotate_function;
pub use incremental::IncrementalVerifier;

use super::instruction::{BlockId, Instruction, Terminator, Value};
use super::module::{IrFunction, IrModule};
use super::types::IrType;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// Which invariants apply: SSA form (phis allowed, single definitions,
/// dominance) or the form after phi elimination (no phis, copies may define a
/// value several times).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyMode {
    Ssa,
    NonSsa,
}

/// One violated invariant and where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub function: String,
    pub block: Option<BlockId>,
    /// Index of the instruction in its block; the terminator is `instructions.len()`.
    pub inst: Option<usize>,
    /// Short form of the offending instruction, e.g. `%5 = add` (with `inst`).
    pub inst_text: Option<String>,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}: ", self.function)?;
        if let Some(b) = self.block {
            write!(f, "{b}: ")?;
        }
        if let Some(i) = self.inst {
            write!(f, "inst {i}")?;
            if let Some(t) = &self.inst_text {
                write!(f, " ({t})")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for VerifyError {}

/// Every violation found, in function and block order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyErrors(pub Vec<VerifyError>);

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for VerifyErrors {}

/// Verify every function of the module plus the module-wide invariants.
pub fn verify_module(m: &IrModule, mode: VerifyMode) -> Result<(), VerifyErrors> {
    let syms = Symbols::new(m);
    let mut errors = structure::module_checks(m);
    for f in &m.functions {
        errors.extend(verify_with(&syms, f, mode));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors(errors))
    }
}

/// Verify one function (calls and symbols are resolved against `m`).
pub fn verify_function(m: &IrModule, f: &IrFunction, mode: VerifyMode) -> Result<(), VerifyErrors> {
    let errors = verify_with(&Symbols::new(m), f, mode);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors(errors))
    }
}

/// Names a module defines, built once per module.
pub(crate) struct Symbols<'a> {
    functions: FxHashMap<&'a str, &'a IrFunction>,
    /// Globals, string literals and aliases (functions are in `functions`).
    data: FxHashSet<&'a str>,
}

impl<'a> Symbols<'a> {
    fn new(m: &'a IrModule) -> Symbols<'a> {
        let mut functions = FxHashMap::default();
        for f in &m.functions {
            // Prefer the definition when a declaration shares its name.
            if !f.is_declaration || !functions.contains_key(f.name.as_str()) {
                functions.insert(f.name.as_str(), f);
            }
        }
        let mut data = FxHashSet::default();
        data.extend(m.globals.iter().map(|g| g.name.as_str()));
        data.extend(m.string_literals.iter().map(|(l, _)| l.as_str()));
        data.extend(m.wide_string_literals.iter().map(|(l, _)| l.as_str()));
        data.extend(m.char16_string_literals.iter().map(|(l, _)| l.as_str()));
        data.extend(m.aliases.iter().map(|(a, _, _)| a.as_str()));
        Symbols { functions, data }
    }

    fn is_alias_or_data(&self, name: &str) -> bool {
        self.data.contains(name)
    }
}

fn verify_with(syms: &Symbols<'_>, f: &IrFunction, mode: VerifyMode) -> Vec<VerifyError> {
    let mut cx = FnCheck::new(syms, f, mode);
    cx.run();
    cx.errors
}

/// Where a value is defined: block index and instruction index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Site {
    pub block: usize,
    pub inst: usize,
}

/// The state of verifying one function.
pub(crate) struct FnCheck<'a> {
    syms: &'a Symbols<'a>,
    f: &'a IrFunction,
    mode: VerifyMode,
    errors: Vec<VerifyError>,
    /// Set when block labels are unique, so CFG-based checks are meaningful.
    labels_ok: bool,
    /// The first definition site of every value, in block order.
    defs: ValueMap<Site>,
    /// Inferred type of every value whose type is known.
    types: ValueMap<IrType>,
}

/// A map keyed by value id: dense for the small ids real functions use (the
/// verifier runs on every fuzz input, so no hashing or per-value allocation
/// there), hashed beyond that so a hand-written `%4000000000` costs nothing.
pub(crate) struct ValueMap<T> {
    dense: Vec<Option<T>>,
    sparse: FxHashMap<Value, T>,
}

const DENSE_VALUE_LIMIT: usize = 1 << 22;

impl<T: Copy> ValueMap<T> {
    /// A map for the values of `f`: sized for its ids up front when the
    /// function records its next free id (growing the table showed in the
    /// fuzz check's profile).
    fn for_function(f: &IrFunction) -> Self {
        let ids = f.next_value_id as usize;
        ValueMap {
            dense: Vec::with_capacity(if ids < DENSE_VALUE_LIMIT { ids } else { 0 }),
            sparse: FxHashMap::default(),
        }
    }
    pub(crate) fn get(&self, v: &Value) -> Option<&T> {
        let i = v.0 as usize;
        if i < DENSE_VALUE_LIMIT {
            self.dense.get(i).and_then(|x| x.as_ref())
        } else {
            self.sparse.get(v)
        }
    }
    pub(crate) fn contains_key(&self, v: &Value) -> bool {
        self.get(v).is_some()
    }
    pub(crate) fn insert(&mut self, v: Value, t: T) {
        let i = v.0 as usize;
        if i >= DENSE_VALUE_LIMIT {
            self.sparse.insert(v, t);
            return;
        }
        if i >= self.dense.len() {
            self.dense.resize(i + 1, None);
        }
        self.dense[i] = Some(t);
    }
}

impl<'a> FnCheck<'a> {
    fn new(syms: &'a Symbols<'a>, f: &'a IrFunction, mode: VerifyMode) -> FnCheck<'a> {
        FnCheck {
            syms,
            f,
            mode,
            errors: Vec::new(),
            labels_ok: true,
            defs: ValueMap::for_function(f),
            types: ValueMap::for_function(f),
        }
    }

    fn run(&mut self) {
        if self.f.is_declaration {
            if !self.f.blocks.is_empty() {
                self.err_fn("a declaration has a body".into());
            }
            return;
        }
        if self.f.blocks.is_empty() {
            self.err_fn("a function definition has no blocks".into());
            return;
        }
        let cfg = super::analysis::CfgAnalysis::build(self.f);
        // The CFG's label map has one entry per distinct label: only when
        // some label repeats are the blocks searched for which.
        if cfg.label_to_idx.len() != self.f.blocks.len() {
            self.check_labels();
        }
        self.check_targets(&cfg);
        self.check_edge_sources();
        self.check_phi_placement();
        if self.labels_ok {
            self.check_entry_preds(&cfg);
            self.check_phi_incoming(&cfg);
        }
        self.collect_defs();
        self.check_uses_defined();
        self.infer_types();
        self.check_instructions();
        if self.labels_ok && cfg.num_blocks <= super::dominator_sets::CROSS_CHECK_MAX_BLOCKS {
            for msg in super::dominator_sets::cross_check(&cfg, |b| self.label(b).to_string()) {
                self.err_fn(msg);
            }
        }
        if self.mode == VerifyMode::Ssa && self.labels_ok {
            ssa::check_dominance(self, &cfg);
        }
    }

    // ---- error reporting ----

    fn err_fn(&mut self, message: String) {
        self.errors.push(VerifyError {
            function: self.f.name.clone(),
            block: None,
            inst: None,
            inst_text: None,
            message,
        });
    }

    fn err_block(&mut self, b: usize, message: String) {
        self.errors.push(VerifyError {
            function: self.f.name.clone(),
            block: Some(self.f.blocks[b].label),
            inst: None,
            inst_text: None,
            message,
        });
    }

    /// An error at instruction `i` of block `b` (`i == len` is the terminator).
    fn err_at(&mut self, b: usize, i: usize, message: String) {
        let block = &self.f.blocks[b];
        let inst_text = match block.instructions.get(i) {
            Some(inst) => describe_instruction(inst),
            None => describe_terminator(&block.terminator),
        };
        self.errors.push(VerifyError {
            function: self.f.name.clone(),
            block: Some(block.label),
            inst: Some(i),
            inst_text: Some(inst_text),
            message,
        });
    }

    /// The label of block `b`.
    fn label(&self, b: usize) -> BlockId {
        self.f.blocks[b].label
    }
}

/// `%5 = add`, `store`, `%1, %2 = asm`: the instruction's results and mnemonic.
pub fn describe_instruction(inst: &Instruction) -> String {
    let name = match inst {
        Instruction::BinOp { op, .. } => op.name().to_string(),
        Instruction::UnaryOp { op, .. } => op.name().to_string(),
        Instruction::Cmp { op, .. } => format!("cmp {}", op.name()),
        Instruction::Call { func, .. } => format!("call @{func}"),
        _ => inst.mnemonic().to_string(),
    };
    let mut defs = Vec::new();
    inst.for_each_def(|v| defs.push(v.to_string()));
    if defs.is_empty() {
        name
    } else {
        format!("{} = {name}", defs.join(", "))
    }
}

/// The mnemonic of a terminator.
pub fn describe_terminator(t: &Terminator) -> String {
    t.mnemonic().to_string()
}

/// Do two types agree (same size and class, signedness ignored, `ptr` as an 8-byte integer)?
pub fn types_agree(a: IrType, b: IrType) -> bool {
    a.size() == b.size() && a.is_float() == b.is_float()
}
