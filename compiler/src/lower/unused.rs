//! Drops internal definitions nothing refers to: `static` (and `static
//! inline`) functions and `static` data that no kept symbol reaches, so an
//! undefined function only they call does not break the link (as gcc: it
//! never emits an unreferenced `static inline` function, and drops
//! unreferenced `static` functions and data from -O1 on).
//!
//! Algorithm: mark-and-sweep over the module's symbol graph. The roots are
//! every definition with external linkage, everything marked `used`, placed
//! in a named section, named by a constructor, destructor or alias, or
//! spelled in the text of any inline or top-level asm (conservatively: every
//! word of the text). Edges are calls, `GlobalAddr`s, asm symbol operands,
//! the symbols of static initializers, and a label a static initializer
//! takes the address of (which keeps the function holding it).

use crate::ir::instruction::{InlineAsm, Instruction};
use crate::ir::module::{IrFunction, IrModule};
use rustc_hash::{FxHashMap, FxHashSet};

/// Removes the internal functions and data no root reaches.
pub fn drop_unreferenced_internals(module: &mut IrModule) {
    let mut asm_words: FxHashSet<String> = FxHashSet::default();
    let add_words = |text: &str, words: &mut FxHashSet<String>| {
        for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))) {
            if !w.is_empty() {
                words.insert(w.to_string());
            }
        }
    };
    for text in &module.toplevel_asm {
        add_words(text, &mut asm_words);
    }
    for f in &module.functions {
        for_each_asm(f, |asm| add_words(&asm.template, &mut asm_words));
    }

    // Which function holds each block label (for label addresses in data).
    let mut label_owner: FxHashMap<String, String> = FxHashMap::default();
    for f in module.functions.iter().filter(|f| !f.is_declaration) {
        for b in &f.blocks {
            label_owner.insert(b.label.asm_label(), f.name.clone());
        }
    }

    let mut reached: FxHashSet<String> = FxHashSet::default();
    let mut work: Vec<String> = Vec::new();
    let reach = |name: &str, reached: &mut FxHashSet<String>, work: &mut Vec<String>| {
        if reached.insert(name.to_string()) {
            work.push(name.to_string());
        }
    };
    for f in module.functions.iter().filter(|f| !f.is_declaration) {
        if !f.is_static || f.is_used || f.section.is_some() || asm_words.contains(&f.name) {
            reach(&f.name, &mut reached, &mut work);
        }
    }
    for g in module.globals.iter().filter(|g| !g.is_extern) {
        if !g.is_static || g.is_used || g.section.is_some() || asm_words.contains(&g.name) {
            reach(&g.name, &mut reached, &mut work);
        }
    }
    for name in module.constructors.iter().chain(&module.destructors) {
        reach(name, &mut reached, &mut work);
    }
    for (alias, target, _) in &module.aliases {
        reach(alias, &mut reached, &mut work);
        reach(target, &mut reached, &mut work);
    }

    let functions: FxHashMap<&str, &IrFunction> = module
        .functions
        .iter()
        .filter(|f| !f.is_declaration)
        .map(|f| (f.name.as_str(), f))
        .collect();
    let globals: FxHashMap<&str, usize> = module
        .globals
        .iter()
        .enumerate()
        .filter(|(_, g)| !g.is_extern)
        .map(|(i, g)| (g.name.as_str(), i))
        .collect();
    while let Some(name) = work.pop() {
        let mut refs: Vec<String> = Vec::new();
        if let Some(f) = functions.get(name.as_str()) {
            for b in &f.blocks {
                for inst in &b.instructions {
                    match inst {
                        Instruction::Call { func, .. } => refs.push(func.clone()),
                        Instruction::GlobalAddr { name, .. } => refs.push(name.clone()),
                        Instruction::InlineAsm(asm) => refs.extend(asm.input_symbols.iter().flatten().cloned()),
                        _ => {}
                    }
                }
            }
        }
        if let Some(&i) = globals.get(name.as_str()) {
            module.globals[i].init.for_each_ref(&mut |r| {
                refs.push(label_owner.get(r).cloned().unwrap_or_else(|| r.to_string()));
            });
        }
        for r in refs {
            reach(&r, &mut reached, &mut work);
        }
    }

    module
        .functions
        .retain(|f| f.is_declaration || !f.is_static || reached.contains(&f.name));
    module
        .globals
        .retain(|g| g.is_extern || !g.is_static || reached.contains(&g.name));
}

/// Runs `f` on every inline asm statement of `func`.
fn for_each_asm(func: &IrFunction, mut f: impl FnMut(&InlineAsm)) {
    for b in &func.blocks {
        for inst in &b.instructions {
            if let Instruction::InlineAsm(asm) = inst {
                f(asm);
            }
        }
    }
}
