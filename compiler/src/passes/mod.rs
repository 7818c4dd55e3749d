//! The pass table: the one list of passes and of the configurations that
//! chain them (as QBE's `main.c` and Cranelift's pass list are).
//!
//! Each row ([`PassKind::pass`]) gives a pass's name, the function that runs
//! it (on the module, or on each defined function), whether its input must be
//! SSA form and whether it leaves SSA form (phi elimination), a one-line
//! description and the names of its statistics counters. [`Configuration`]
//! names the pipelines the compiler runs: `mem2reg` (mem2reg, mem2reg-params,
//! copyprop, phi-elim; the default), `nomem2reg` (phi-elim alone) and `opt`
//! (`-O1`: the mem2reg pipeline with the inliner between its two mem2reg
//! runs, then constant propagation, CFG simplification, value numbering,
//! loop-invariant code motion and dead code elimination before phi-elim).
//!
//! Everything else iterates this table: [`Pipeline::parse`] (phiopt
//! `--passes`, groups `<configuration>-pipeline`), `phiopt --list-passes`,
//! the driver's configurations, `--print-ir-after`, `PHICC_DISABLE_PASSES`,
//! `--stats`, the oracle's in-process check (`ircheck`, the fuzz targets) and
//! its C-level localization. Adding a pass is its own file, a `pub mod` line,
//! a variant, a row and (to run it by default) its place in a configuration,
//! all here.
//!
//! Each pass is `fn(&mut IrFunction) -> stats` or, when it needs module-wide
//! state, `fn(&mut IrModule) -> stats` (docs/ir-design.md#pass-interface); the row's
//! runner adds those stats into the row's counters.

pub mod copyprop;
pub mod dce;
pub mod gvn;
pub mod inline;
pub mod licm;
pub mod mem2reg;
pub mod phi_elim;
pub mod pipeline;
pub mod sccp;
pub mod simplifycfg;

pub use pipeline::{list_passes, OptBisect, PassStats, Pipeline, PipelineError};

use crate::ir::module::{IrFunction, IrModule};
use mem2reg::PromoteStats;

crate::named_enum! {
    /// Every pass, by the name the command lines and the oracle use.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum PassKind {
        Verify = "verify",
        Mem2reg = "mem2reg",
        Inline = "inline",
        Mem2regParams = "mem2reg-params",
        Sccp = "sccp",
        Simplifycfg = "simplifycfg",
        Gvn = "gvn",
        Copyprop = "copyprop",
        Dce = "dce",
        Licm = "licm",
        PhiElim = "phi-elim",
    }
}

/// How a pass runs. The runner adds to the pass's counters, one slot per
/// name in [`Pass::counters`].
#[derive(Clone, Copy, Debug)]
pub enum Run {
    /// The verifier: checks the module (SSA form until phi-elim has run) and changes nothing.
    Verify,
    /// Once over the whole module.
    Module(fn(&mut IrModule, &mut [usize])),
    /// Once over each defined function.
    Function(fn(&mut IrFunction, &mut [usize])),
}

/// One row of the pass table.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    pub kind: PassKind,
    pub run: Run,
    /// The input must be SSA form: refused after a pass that leaves it.
    pub needs_ssa: bool,
    /// The output is no longer SSA form (the verifier checks non-SSA rules after it).
    pub leaves_ssa: bool,
    /// The backend cannot do without it (it accepts no phi): `-fopt-bisect-limit`
    /// never skips it and does not count it (LLVM's required passes).
    pub required: bool,
    /// One line for `phiopt --list-passes`.
    pub about: &'static str,
    /// What the runner counts, for `--stats`.
    pub counters: &'static [&'static str],
}

impl PassKind {
    /// The pass's row of the table.
    pub fn pass(self) -> Pass {
        let kind = self;
        match self {
            PassKind::Verify => Pass {
                kind,
                run: Run::Verify,
                needs_ssa: false,
                leaves_ssa: false,
                required: false,
                about: "run the IR verifier (SSA rules until phi-elim has run, non-SSA rules after)",
                counters: &[],
            },
            PassKind::Mem2reg => Pass {
                kind,
                run: Run::Function(run_mem2reg),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about: "promote allocas to SSA values with pruned phis (parameters excluded)",
                counters: &PROMOTE_COUNTERS,
            },
            PassKind::Inline => Pass {
                kind,
                run: Run::Module(run_inline),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about: "inline small callees bottom-up over the call graph's SCCs (never recursion, variadics, setjmp callers)",
                counters: &["calls inlined"],
            },
            PassKind::Mem2regParams => Pass {
                kind,
                run: Run::Function(run_mem2reg_params),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about: "promote allocas, parameter allocas with a visible store included",
                counters: &PROMOTE_COUNTERS,
            },
            PassKind::Copyprop => Pass {
                kind,
                run: Run::Function(run_copyprop),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about: "replace uses of copies by their sources and delete dead copies",
                counters: &["changes"],
            },
            PassKind::Sccp => Pass {
                kind,
                run: Run::Function(run_sccp),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about:
                    "sparse conditional constant propagation (Wegman-Zadeck), folding with the interpreter's evaluation",
                counters: &["constants found", "uses replaced"],
            },
            PassKind::Simplifycfg => Pass {
                kind,
                run: Run::Function(run_simplifycfg),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about:
                    "fold constant branches, remove unreachable blocks, merge straight-line blocks, thread empty ones",
                counters: &[
                    "branches folded",
                    "unreachable blocks removed",
                    "blocks merged",
                    "empty blocks threaded",
                    "single-entry phis folded",
                ],
            },
            PassKind::Gvn => Pass {
                kind,
                run: Run::Function(run_gvn),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about: "dominator-scoped value numbering of pure instructions, and of loads within a block",
                counters: &[
                    "pure instructions replaced",
                    "loads replaced",
                    "copies looked through",
                    "instructions simplified",
                ],
            },
            PassKind::Dce => Pass {
                kind,
                run: Run::Function(run_dce),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about: "remove dead pure instructions and dead phi cycles (mark-sweep from the side effects)",
                counters: &["instructions removed", "phis removed"],
            },
            PassKind::Licm => Pass {
                kind,
                run: Run::Module(run_licm),
                needs_ssa: true,
                leaves_ssa: false,
                required: false,
                about: "hoist loop-invariant pure instructions into loop preheaders it creates (natural loops)",
                counters: &["loops", "preheaders created", "instructions hoisted"],
            },
            PassKind::PhiElim => Pass {
                kind,
                run: Run::Module(run_phi_elim),
                needs_ssa: false,
                leaves_ssa: true,
                required: true,
                about: "replace phis by copies on their incoming edges (leaves SSA form)",
                counters: &["phis eliminated"],
            },
        }
    }
}

crate::named_enum! {
    /// The pipelines the compiler runs (docs/architecture.md#configurations), each
    /// also a `--passes` group named `<configuration>-pipeline`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Configuration {
        Nomem2reg = "nomem2reg",
        Mem2reg = "mem2reg",
        Opt = "opt",
    }
}

impl Configuration {
    /// What `phicc` runs without flags.
    pub const DEFAULT: Configuration = Configuration::Mem2reg;

    /// What the in-process check (the oracle's `ircheck`, the fuzz targets)
    /// runs over alloca-form IR, stage by stage: the configuration with the
    /// most passes, `opt` (its passes are a superset of `mem2reg`'s, in the
    /// same order, so every bug of the mem2reg pipeline is still in reach;
    /// `oracle/tests/injected_bugs.rs` shows each is still found).
    pub const CHECKED: Configuration = Configuration::Opt;

    /// The passes, in order.
    pub fn passes(self) -> &'static [PassKind] {
        match self {
            Configuration::Nomem2reg => &[PassKind::PhiElim],
            Configuration::Mem2reg => &[
                PassKind::Mem2reg,
                PassKind::Mem2regParams,
                PassKind::Copyprop,
                PassKind::PhiElim,
            ],
            Configuration::Opt => &[
                PassKind::Mem2reg,
                PassKind::Inline,
                PassKind::Mem2regParams,
                PassKind::Sccp,
                PassKind::Simplifycfg,
                PassKind::Gvn,
                PassKind::Licm,
                PassKind::Copyprop,
                PassKind::Dce,
                PassKind::PhiElim,
            ],
        }
    }

    /// The name of the `--passes` group that runs the whole configuration.
    pub fn group(self) -> &'static str {
        match self {
            Configuration::Nomem2reg => "nomem2reg-pipeline",
            Configuration::Mem2reg => "mem2reg-pipeline",
            Configuration::Opt => "opt-pipeline",
        }
    }

    /// One line for `phiopt --list-passes`.
    pub fn about(self) -> &'static str {
        match self {
            Configuration::Nomem2reg => "`-fno-mem2reg`: every local stays in memory (phi-elim is a no-op)",
            Configuration::Mem2reg => "the default: SSA construction, copy propagation, SSA destruction",
            Configuration::Opt => "`-O1` (`-O2`, `-O3`, `-Os`): the default pipeline plus the SSA optimizations",
        }
    }
}

/// The counter of `mem2reg` and `mem2reg-params` that the harness reads:
/// allocas the phi copy-cost limit kept in memory.
pub const KEPT_BY_COST_LIMIT: &str = "allocas kept by the cost limit";

/// The counters of `mem2reg` and `mem2reg-params`, in [`add_promote`]'s order.
const PROMOTE_COUNTERS: [&str; 7] = [
    "allocas promoted",
    "phis inserted",
    "phis removed as unused",
    "loads removed",
    "stores removed",
    "asm outputs promoted",
    KEPT_BY_COST_LIMIT,
];

fn add_promote(counters: &mut [usize], s: PromoteStats) {
    let values = [
        s.allocas_promoted,
        s.phis_inserted,
        s.phis_removed_unused,
        s.loads_removed,
        s.stores_removed,
        s.asm_outputs_promoted,
        s.allocas_kept_by_cost_limit,
    ];
    for (c, v) in counters.iter_mut().zip(values) {
        *c += v;
    }
}

fn run_mem2reg(f: &mut IrFunction, c: &mut [usize]) {
    add_promote(c, mem2reg::promote_allocas(f));
}

fn run_mem2reg_params(f: &mut IrFunction, c: &mut [usize]) {
    add_promote(c, mem2reg::promote_allocas_with_params(f));
}

fn run_inline(m: &mut IrModule, c: &mut [usize]) {
    c[0] += inline::inline_calls(m).calls_inlined;
}

fn run_copyprop(f: &mut IrFunction, c: &mut [usize]) {
    c[0] += copyprop::propagate_copies(f);
}

fn run_sccp(f: &mut IrFunction, c: &mut [usize]) {
    let s = sccp::propagate_constants(f);
    c[0] += s.constants;
    c[1] += s.uses_replaced;
}

fn run_simplifycfg(f: &mut IrFunction, c: &mut [usize]) {
    let s = simplifycfg::simplify_cfg(f);
    c[0] += s.branches_folded;
    c[1] += s.unreachable_removed;
    c[2] += s.blocks_merged;
    c[3] += s.blocks_threaded;
    c[4] += s.phis_folded;
}

fn run_gvn(f: &mut IrFunction, c: &mut [usize]) {
    let s = gvn::number_values(f);
    c[0] += s.pure_replaced;
    c[1] += s.loads_replaced;
    c[2] += s.copies_looked_through;
    c[3] += s.simplified;
}

fn run_dce(f: &mut IrFunction, c: &mut [usize]) {
    let s = dce::eliminate_dead_code(f);
    c[0] += s.instructions_removed;
    c[1] += s.phis_removed;
}

fn run_licm(m: &mut IrModule, c: &mut [usize]) {
    let s = licm::hoist_loop_invariants(m);
    c[0] += s.loops;
    c[1] += s.preheaders_created;
    c[2] += s.hoisted;
}

fn run_phi_elim(m: &mut IrModule, c: &mut [usize]) {
    c[0] += phi_elim::eliminate_phis(m);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The configurations run exactly these passes in this order (docs/architecture.md#configurations):
    /// changing one changes the generated code.
    #[test]
    fn the_configurations_are_pinned() {
        let names = |c: Configuration| c.passes().iter().map(|p| p.name()).collect::<Vec<_>>();
        assert_eq!(
            names(Configuration::Mem2reg),
            ["mem2reg", "mem2reg-params", "copyprop", "phi-elim"]
        );
        assert_eq!(names(Configuration::Nomem2reg), ["phi-elim"]);
        assert_eq!(
            names(Configuration::Opt),
            [
                "mem2reg",
                "inline",
                "mem2reg-params",
                "sccp",
                "simplifycfg",
                "gvn",
                "licm",
                "copyprop",
                "dce",
                "phi-elim"
            ]
        );
        assert_eq!(Configuration::DEFAULT, Configuration::Mem2reg);
    }
}
