//! Incremental verification: re-verify only the functions that changed since
//! the last successful verification of the same module.
//!
//! The verifier's per-function checks ([`super::FnCheck`]) are a pure
//! function of three things: the function itself, the mode (SSA or not), and
//! the module's symbols as [`super::Symbols`] reads them (every function's
//! name, whether it is a declaration, its parameter count and variadicity, and
//! the names of globals, string literals and aliases). So after a pass, a
//! function equal (`PartialEq`) to the copy kept at the last successful
//! verification, under the same mode and the same symbols, would pass again
//! and need not be checked. The module-wide checks (block labels unique
//! across functions, no definition twice) are cheap and always re-run. When
//! any symbol changes, or the mode changes back to SSA, everything is
//! verified again; when it changes from SSA to non-SSA (phi elimination),
//! only the functions that changed or hold a phi are (see
//! `IncrementalVerifier::check`).
//!
//! This is what a pass manager that tracks which functions a pass touched
//! would do (LLVM's preserved-analyses sets), without trusting passes to
//! report it: the comparison with the kept copy decides. A function that is
//! verified is copied (or borrowed, from an input that outlives the
//! verifier; nothing is kept after a pipeline's last pass); an unchanged one
//! costs only the comparison, which is far cheaper than the dominance and
//! type checks. `--verify-each` and the
//! harness's per-pass check (`oracle::ircheck`) run through it; the errors it
//! reports are exactly those [`super::verify_module`] reports, since an
//! unchanged function had none.

use super::structure;
use super::{verify_with, Symbols, VerifyErrors, VerifyMode};
use crate::ir::instruction::Instruction;
use crate::ir::module::{IrFunction, IrModule, IrParam};
use crate::ir::types::IrType;
use std::borrow::Cow;

/// What the per-function checks read of the rest of the module.
#[derive(Clone, Debug, PartialEq)]
struct SymbolKey {
    /// Per function: name, declaration, variadic, return type, parameters
    /// (more than the checks read today: a change there re-verifies all).
    functions: Vec<(String, bool, bool, IrType, Vec<IrParam>)>,
    /// Globals, string literals and aliases, by name.
    data: Vec<String>,
}

impl SymbolKey {
    fn of(m: &IrModule) -> SymbolKey {
        let functions = m
            .functions
            .iter()
            .map(|f| {
                (
                    f.name.clone(),
                    f.is_declaration,
                    f.is_variadic,
                    f.return_type,
                    f.params.clone(),
                )
            })
            .collect();
        let mut data: Vec<String> = m.globals.iter().map(|g| g.name.clone()).collect();
        data.extend(m.string_literals.iter().map(|(l, _)| l.clone()));
        data.extend(m.wide_string_literals.iter().map(|(l, _)| l.clone()));
        data.extend(m.char16_string_literals.iter().map(|(l, _)| l.clone()));
        data.extend(m.aliases.iter().map(|(a, _, _)| a.clone()));
        SymbolKey { functions, data }
    }

    /// Equal to `m`'s key, without building it.
    fn matches(&self, m: &IrModule) -> bool {
        self.functions.len() == m.functions.len()
            && self
                .functions
                .iter()
                .zip(&m.functions)
                .all(|((name, decl, var, ret, params), f)| {
                    *name == f.name
                        && *decl == f.is_declaration
                        && *var == f.is_variadic
                        && *ret == f.return_type
                        && *params == f.params
                })
            && {
                let names = m
                    .globals
                    .iter()
                    .map(|g| &g.name)
                    .chain(m.string_literals.iter().map(|(l, _)| l))
                    .chain(m.wide_string_literals.iter().map(|(l, _)| l))
                    .chain(m.char16_string_literals.iter().map(|(l, _)| l))
                    .chain(m.aliases.iter().map(|(a, _, _)| a));
                names.eq(self.data.iter())
            }
    }
}

/// The module as last verified without error: each function borrowed from
/// a module that outlives the verifier (the harness keeps its input) or
/// copied.
#[derive(Clone, Debug)]
struct Verified<'a> {
    mode: VerifyMode,
    symbols: SymbolKey,
    functions: Vec<Cow<'a, IrFunction>>,
}

/// A verifier that remembers the last module it accepted (see the module
/// documentation). Use one per module being transformed.
#[derive(Clone, Debug, Default)]
pub struct IncrementalVerifier<'a> {
    last: Option<Verified<'a>>,
    /// Functions checked and skipped so far (for tests and statistics).
    pub checked: usize,
    pub skipped: usize,
}

/// Which functions a verification checked: every one (nothing was kept, or
/// the kept copies could not be reused), or those at these indices.
enum Checked {
    All,
    Changed(Vec<usize>),
}

impl<'a> IncrementalVerifier<'a> {
    pub fn new() -> IncrementalVerifier<'a> {
        IncrementalVerifier::default()
    }

    /// Verify `m` in `mode`: the same result as [`super::verify_module`].
    /// The functions it checks are copied for the next call.
    pub fn verify(&mut self, m: &IrModule, mode: VerifyMode) -> Result<(), VerifyErrors> {
        let checked = self.check(m, mode)?;
        self.keep(m, mode, checked, |f| Cow::Owned(f.clone()));
        Ok(())
    }

    /// [`IncrementalVerifier::verify`] of a module that outlives the
    /// verifier and stays unchanged (a pipeline's input, transformed as a
    /// copy): its functions are kept by reference instead of copied.
    pub fn verify_borrowed(&mut self, m: &'a IrModule, mode: VerifyMode) -> Result<(), VerifyErrors> {
        let checked = self.check(m, mode)?;
        self.keep(m, mode, checked, Cow::Borrowed);
        Ok(())
    }

    /// [`IncrementalVerifier::verify`] without keeping `m` (after the last
    /// pass, when no later call will compare with it). What is kept stays
    /// a verified earlier state, so a later call is still exact; it only
    /// checks again what changed since that state.
    pub fn verify_without_keeping(&mut self, m: &IrModule, mode: VerifyMode) -> Result<(), VerifyErrors> {
        self.check(m, mode).map(|_| ())
    }

    fn check(&mut self, m: &IrModule, mode: VerifyMode) -> Result<Checked, VerifyErrors> {
        let syms = Symbols::new(m);
        let mut errors = structure::module_checks(m);
        // A function verified in SSA form that has no phi is valid after
        // phi elimination too: the non-SSA rules are the SSA ones minus
        // single definitions and dominance, plus "no phi" and "all
        // definitions of a value agree in type" (one definition agrees with
        // itself; a copy's destination takes its source's type). So on that
        // change of mode, unchanged phi-free functions are not checked again.
        let leaving_ssa = mode == VerifyMode::NonSsa;
        let reusable = self.last.as_ref().is_some_and(|last| {
            (last.mode == mode || (last.mode == VerifyMode::Ssa && leaving_ssa)) && last.symbols.matches(m)
        });
        if !reusable {
            self.last = None;
        }
        let still_valid = |last: &Verified<'_>, i: usize, f: &IrFunction| {
            *last.functions[i] == *f && (last.mode == mode || !has_phi(f))
        };
        let mut changed = Vec::new();
        for (i, f) in m.functions.iter().enumerate() {
            if self.last.as_ref().is_some_and(|last| still_valid(last, i, f)) {
                self.skipped += 1;
                continue;
            }
            self.checked += 1;
            errors.extend(verify_with(&syms, f, mode));
            changed.push(i);
        }
        if !errors.is_empty() {
            // Keep the last accepted state: the caller stops at an error anyway.
            return Err(VerifyErrors(errors));
        }
        Ok(if self.last.is_some() {
            Checked::Changed(changed)
        } else {
            Checked::All
        })
    }

    /// Remember the verified `m`: `copy` keeps a function.
    fn keep<'m>(
        &mut self,
        m: &'m IrModule,
        mode: VerifyMode,
        checked: Checked,
        copy: impl Fn(&'m IrFunction) -> Cow<'a, IrFunction>,
    ) {
        match (&mut self.last, checked) {
            (Some(last), Checked::Changed(changed)) => {
                for i in changed {
                    last.functions[i] = copy(&m.functions[i]);
                }
                last.mode = mode;
            }
            _ => {
                self.last = Some(Verified {
                    mode,
                    symbols: SymbolKey::of(m),
                    functions: m.functions.iter().map(copy).collect(),
                })
            }
        }
    }
}

fn has_phi(f: &IrFunction) -> bool {
    f.blocks
        .iter()
        .any(|b| b.instructions.iter().any(|i| matches!(i, Instruction::Phi { .. })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;
    use crate::ir::verify::verify_module;

    const TWO: &str = "define @g(i32) -> i32 {\nbb0:\n  %0 = paramref 0 i32\n  ret %0\n}\ndefine @main() -> i32 {\nbb1:\n  %0 = call i32 @g(i32 5i32)\n  ret %0\n}\n";

    /// An unchanged module is not checked again; a function changed into an
    /// invalid one is found with the same errors as the full verifier.
    #[test]
    fn only_changed_functions_are_checked_and_errors_are_the_full_ones() {
        let mut m = parse_module(TWO).unwrap();
        let mut v = IncrementalVerifier::new();
        v.verify(&m, VerifyMode::Ssa).unwrap();
        assert_eq!((v.checked, v.skipped), (2, 0));
        v.verify(&m, VerifyMode::Ssa).unwrap();
        assert_eq!((v.checked, v.skipped), (2, 2));
        // @g returns an undefined value.
        let bad = parse_module("define @g(i32) -> i32 {\nbb0:\n  ret %7\n}\n").unwrap();
        m.functions[0].blocks[0].terminator = bad.functions[0].blocks[0].terminator.clone();
        let full = verify_module(&m, VerifyMode::Ssa).unwrap_err();
        let inc = v.verify(&m, VerifyMode::Ssa).unwrap_err();
        assert_eq!(inc, full);
        assert_eq!((v.checked, v.skipped), (3, 3));
    }

    /// A change to a callee's signature re-verifies its unchanged callers: a
    /// call that no longer passes as many arguments as @g takes is found.
    #[test]
    fn a_signature_change_reverifies_every_function() {
        let mut m = parse_module(TWO).unwrap();
        let mut v = IncrementalVerifier::new();
        v.verify(&m, VerifyMode::Ssa).unwrap();
        let p = m.functions[0].params[0].clone();
        m.functions[0].params.push(p);
        let full = verify_module(&m, VerifyMode::Ssa).unwrap_err();
        assert!(full.to_string().contains("takes 2 arguments"), "{full}");
        assert_eq!(v.verify(&m, VerifyMode::Ssa).unwrap_err(), full);
    }

    /// A mode change re-verifies everything: a module with a phi passes in SSA
    /// mode and fails after it, though no function changed.
    #[test]
    fn a_mode_change_reverifies_every_function() {
        let text = "define @main() -> i32 {\nbb0:\n  condbr 1i8, bb1, bb2\nbb1:\n  br bb2\nbb2:\n  %0 = phi i32 [1i32, bb0], [2i32, bb1]\n  ret %0\n}\n";
        let m = parse_module(text).unwrap();
        let mut v = IncrementalVerifier::new();
        v.verify(&m, VerifyMode::Ssa).unwrap();
        let full = verify_module(&m, VerifyMode::NonSsa).unwrap_err();
        assert_eq!(v.verify(&m, VerifyMode::NonSsa).unwrap_err(), full);
    }

    /// Leaving SSA form skips an unchanged function without phis (valid in
    /// both modes) but checks one that still holds a phi, which fails.
    #[test]
    fn leaving_ssa_rechecks_only_functions_with_phis() {
        let text = "define @g() -> i32 {\nbb0:\n  ret 1i32\n}\ndefine @main() -> i32 {\nbb1:\n  condbr 1i8, bb2, bb3\nbb2:\n  br bb3\nbb3:\n  %0 = phi i32 [1i32, bb1], [2i32, bb2]\n  ret %0\n}\n";
        let m = parse_module(text).unwrap();
        let mut v = IncrementalVerifier::new();
        v.verify(&m, VerifyMode::Ssa).unwrap();
        assert_eq!((v.checked, v.skipped), (2, 0));
        let full = verify_module(&m, VerifyMode::NonSsa).unwrap_err();
        assert_eq!(v.verify(&m, VerifyMode::NonSsa).unwrap_err(), full);
        assert_eq!((v.checked, v.skipped), (3, 1), "@g skipped, @main checked");
        // Back to SSA form: nothing verified in non-SSA form is reused.
        let g_only = parse_module("define @g() -> i32 {\nbb0:\n  ret 1i32\n}\n").unwrap();
        let mut v = IncrementalVerifier::new();
        v.verify(&g_only, VerifyMode::NonSsa).unwrap();
        v.verify(&g_only, VerifyMode::Ssa).unwrap();
        assert_eq!((v.checked, v.skipped), (2, 0));
    }

    /// A borrowed module is kept like a copied one, and a verification that
    /// keeps nothing leaves the earlier state in place: a later call still
    /// finds a function changed since that state.
    #[test]
    fn borrowed_and_unkept_verifications_stay_exact() {
        let input = parse_module(TWO).unwrap();
        let mut v = IncrementalVerifier::new();
        v.verify_borrowed(&input, VerifyMode::Ssa).unwrap();
        let mut m = input.clone();
        v.verify_without_keeping(&m, VerifyMode::Ssa).unwrap();
        assert_eq!((v.checked, v.skipped), (2, 2));
        let bad = parse_module("define @g(i32) -> i32 {\nbb0:\n  ret %7\n}\n").unwrap();
        m.functions[0].blocks[0].terminator = bad.functions[0].blocks[0].terminator.clone();
        let full = verify_module(&m, VerifyMode::Ssa).unwrap_err();
        assert_eq!(v.verify_without_keeping(&m, VerifyMode::Ssa).unwrap_err(), full);
        assert_eq!((v.checked, v.skipped), (3, 3));
    }

    /// Renaming a global a function refers to is a symbol change: the
    /// unchanged function's `globaladdr` is checked again and found dangling.
    #[test]
    fn a_data_symbol_change_reverifies_every_function() {
        let text = "global @x: i32, size 4, align 4\ndefine @main() -> i32 {\nbb0:\n  %0 = globaladdr @x\n  %1 = load i32 %0\n  ret %1\n}\n";
        let mut m = parse_module(text).unwrap();
        let mut v = IncrementalVerifier::new();
        v.verify(&m, VerifyMode::Ssa).unwrap();
        m.globals[0].name = "y".into();
        let full = verify_module(&m, VerifyMode::Ssa).unwrap_err();
        assert_eq!(v.verify(&m, VerifyMode::Ssa).unwrap_err(), full);
    }
}
