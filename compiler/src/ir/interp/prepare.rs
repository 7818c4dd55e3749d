//! Per-run resolution done once before interpretation, so the hot loop never
//! looks a name or a label up: block labels become block indices (per
//! terminator successor and asm-goto label), callee names become function
//! indices or libc shims, `GlobalAddr` names become addresses, and every
//! global initializer becomes its bytes.

use super::libc::Shim;
use super::memory::{function_addr, global_addr, label_addr, string_addr, NONE};
use crate::ir::constants::zext;
use crate::ir::instruction::Instruction;
use crate::ir::module::{GlobalInit, IrFunction, IrGlobal, IrModule};
use crate::ir::types::IrType;
use rustc_hash::FxHashMap;

/// What a call resolves to.
#[derive(Clone, Copy, Debug)]
pub(super) enum Callee<'m> {
    Defined(u32),
    Shim(Shim),
    /// A declared (or unknown) function: recorded as an event.
    External(&'m str),
}

/// Pre-resolved side data of one instruction.
#[derive(Clone, Debug)]
pub(super) enum Aux<'m> {
    None,
    Call(Callee<'m>),
    /// `GlobalAddr`: the address, or `None` for an unknown symbol.
    Addr(Option<u64>),
    /// Asm goto labels as block indices (`NONE` when missing).
    Goto(Vec<u32>),
}

pub(super) struct PBlock<'m> {
    /// Number of leading phis (evaluated in parallel on entry).
    pub nphis: u32,
    /// Successor block indices in `Terminator::for_each_successor` order (`NONE` when missing).
    pub succ: Vec<u32>,
    pub aux: Vec<Aux<'m>>,
}

pub(super) struct PFunc<'m> {
    pub f: &'m IrFunction,
    pub index: u32,
    /// One more than the largest value id used or defined.
    pub nvalues: usize,
    pub blocks: Vec<PBlock<'m>>,
    pub label_index: FxHashMap<u32, u32>,
}

pub(super) struct Prepared<'m> {
    pub module: &'m IrModule,
    pub funcs: Vec<PFunc<'m>>,
    /// Function name -> index (a definition wins over a declaration).
    pub by_name: FxHashMap<&'m str, u32>,
    /// What calling function `i` through a pointer means.
    pub callee_of: Vec<Callee<'m>>,
    pub symbols: FxHashMap<&'m str, u64>,
    /// Strings of all three literal tables, in address-index order, with their label and bytes.
    pub literals: Vec<(&'m str, Vec<u8>)>,
}

fn is_defined(f: &IrFunction) -> bool {
    !f.is_declaration && !f.blocks.is_empty()
}

fn resolve_name<'m>(by_name: &FxHashMap<&'m str, u32>, module: &'m IrModule, name: &'m str) -> Callee<'m> {
    if let Some(&i) = by_name.get(name) {
        if is_defined(&module.functions[i as usize]) {
            return Callee::Defined(i);
        }
    }
    match Shim::from_name(name) {
        Some(s) => Callee::Shim(s),
        None => Callee::External(name),
    }
}

impl<'m> Prepared<'m> {
    pub fn new(module: &'m IrModule) -> Prepared<'m> {
        let mut by_name: FxHashMap<&str, u32> = FxHashMap::default();
        for (i, f) in module.functions.iter().enumerate() {
            let keep = match by_name.get(f.name.as_str()) {
                Some(&j) => !is_defined(&module.functions[j as usize]) && is_defined(f),
                None => true,
            };
            if keep {
                by_name.insert(&f.name, i as u32);
            }
        }
        let callee_of = module
            .functions
            .iter()
            .map(|f| resolve_name(&by_name, module, &f.name))
            .collect();

        let mut symbols: FxHashMap<&str, u64> = FxHashMap::default();
        let mut literals = Vec::new();
        for (label, s) in &module.string_literals {
            let mut b: Vec<u8> = s.chars().map(|c| c as u32 as u8).collect();
            b.push(0);
            literals.push((label.as_str(), b));
        }
        for (label, s) in &module.wide_string_literals {
            let mut b: Vec<u8> = s.iter().flat_map(|c| c.to_le_bytes()).collect();
            b.extend_from_slice(&[0; 4]);
            literals.push((label.as_str(), b));
        }
        for (label, s) in &module.char16_string_literals {
            let mut b: Vec<u8> = s.iter().flat_map(|c| c.to_le_bytes()).collect();
            b.extend_from_slice(&[0; 2]);
            literals.push((label.as_str(), b));
        }
        for (i, (label, _)) in literals.iter().enumerate() {
            symbols.entry(label).or_insert(string_addr(i as u32));
        }
        for (name, &i) in &by_name {
            symbols.entry(name).or_insert(function_addr(i));
        }
        // Globals last so that they win over anything else of the same name;
        // a definition wins over an extern declaration.
        for (i, g) in module.globals.iter().enumerate() {
            if !g.is_extern {
                symbols.insert(&g.name, global_addr(i as u32));
            }
        }
        let defined: rustc_hash::FxHashSet<&str> = module
            .globals
            .iter()
            .filter(|g| !g.is_extern)
            .map(|g| g.name.as_str())
            .collect();
        for (i, g) in module.globals.iter().enumerate() {
            if g.is_extern && !defined.contains(g.name.as_str()) {
                symbols.insert(&g.name, global_addr(i as u32));
            }
        }
        for (alias, target, _) in &module.aliases {
            if let Some(&a) = symbols.get(target.as_str()) {
                symbols.entry(alias).or_insert(a);
            }
        }

        let funcs = module
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| prepare_function(f, i as u32, &by_name, module, &symbols))
            .collect();
        Prepared {
            module,
            funcs,
            by_name,
            callee_of,
            symbols,
            literals,
        }
    }

    /// The address of a symbol, including block labels named `bbN` / `.LBBN`.
    pub fn symbol(&self, name: &str) -> Option<u64> {
        if let Some(&a) = self.symbols.get(name) {
            return Some(a);
        }
        let id: u32 = name
            .strip_prefix(".LBB")
            .or_else(|| name.strip_prefix("bb"))?
            .parse()
            .ok()?;
        self.funcs
            .iter()
            .find(|pf| pf.label_index.contains_key(&id))
            .map(|pf| label_addr(pf.index, id))
    }

    /// The bytes of a global's initial value, exactly `size` long.
    pub fn global_bytes(&self, g: &IrGlobal) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_init(&g.init, g.ty, &mut out);
        let size = if g.size > 0 { g.size } else { out.len() };
        out.resize(size, 0);
        out
    }

    fn encode_init(&self, init: &GlobalInit, ty: IrType, out: &mut Vec<u8>) {
        let elem = ty.size().max(1);
        let push_scalar = |c: &crate::ir::constants::IrConst, out: &mut Vec<u8>| {
            out.extend_from_slice(&c.bits_as(ty).to_le_bytes()[..elem.min(16)]);
        };
        match init {
            GlobalInit::Zero => out.extend(std::iter::repeat_n(0, elem)),
            GlobalInit::Scalar(c) => push_scalar(c, out),
            GlobalInit::Array(cs) => cs.iter().for_each(|c| push_scalar(c, out)),
            GlobalInit::String(s) => {
                out.extend(s.chars().map(|c| c as u32 as u8));
                out.push(0)
            }
            GlobalInit::WideString(v) => {
                v.iter().for_each(|c| out.extend_from_slice(&c.to_le_bytes()));
                out.extend_from_slice(&[0; 4])
            }
            GlobalInit::Char16String(v) => {
                v.iter().for_each(|c| out.extend_from_slice(&c.to_le_bytes()));
                out.extend_from_slice(&[0; 2])
            }
            GlobalInit::GlobalAddr(n) => {
                out.extend_from_slice(&self.symbol(n).unwrap_or(0).to_le_bytes());
            }
            GlobalInit::GlobalAddrOffset(n, off) => {
                let a = self.symbol(n).unwrap_or(0).wrapping_add(*off as u64);
                out.extend_from_slice(&a.to_le_bytes());
            }
            GlobalInit::Compound(items) => items.iter().for_each(|i| self.encode_init(i, ty, out)),
            GlobalInit::GlobalLabelDiff(a, b, n) => {
                let d = match (self.symbol(a), self.symbol(b)) {
                    (Some(x), Some(y)) => x.wrapping_sub(y) as u128,
                    _ => 0,
                };
                let n = (*n).min(16);
                out.extend_from_slice(&zext(d, n as u32 * 8).to_le_bytes()[..n]);
            }
        }
    }
}

fn prepare_function<'m>(
    f: &'m IrFunction,
    index: u32,
    by_name: &FxHashMap<&'m str, u32>,
    module: &'m IrModule,
    symbols: &FxHashMap<&'m str, u64>,
) -> PFunc<'m> {
    let mut label_index: FxHashMap<u32, u32> = FxHashMap::default();
    for (i, b) in f.blocks.iter().enumerate() {
        label_index.entry(b.label.0).or_insert(i as u32);
    }
    let idx = |l: crate::ir::instruction::BlockId| label_index.get(&l.0).copied().unwrap_or(NONE);
    let blocks = f
        .blocks
        .iter()
        .map(|b| {
            let nphis = b
                .instructions
                .iter()
                .take_while(|i| matches!(i, Instruction::Phi { .. }))
                .count() as u32;
            let mut succ = Vec::new();
            b.terminator.for_each_successor(|s| succ.push(idx(s)));
            let aux = b
                .instructions
                .iter()
                .map(|inst| match inst {
                    Instruction::Call { func, .. } => Aux::Call(resolve_name(by_name, module, func)),
                    Instruction::GlobalAddr { name, .. } => Aux::Addr(symbols.get(name.as_str()).copied()),
                    Instruction::InlineAsm(asm) if !asm.goto_labels.is_empty() => {
                        Aux::Goto(asm.goto_labels.iter().map(|(_, l)| idx(*l)).collect())
                    }
                    _ => Aux::None,
                })
                .collect();
            PBlock { nphis, succ, aux }
        })
        .collect();
    let nvalues = f.scan_max_value_id() as usize + 1;
    PFunc {
        f,
        index,
        nvalues,
        blocks,
        label_index,
    }
}
