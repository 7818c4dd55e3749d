//! Injected bugs: named, switchable mistakes in mem2reg and phi elimination,
//! compiled in only with the `inject-bugs` cargo feature. They measure the
//! power of the harness: every one must be found by a short deterministic
//! campaign and reduced to a small repro (docs/architecture.md#injected-bugs;
//! the rule each one breaks: docs/ssa.md#injected-bugs).
//!
//! A bug is switched on by the environment (`PHICC_INJECT_BUG=lost-copy`, a
//! comma-separated list, read once) or by [`set_injected`] (the `phiopt
//! --inject-bug` flag, tests). Pass code asks [`enabled`]; without the feature
//! it is a constant `false` and the call sites guard the buggy code with
//! `#[cfg(feature = "inject-bugs")]`, so none of it is compiled.

/// The injectable bugs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    /// Phi copies emitted sequentially, without temporaries (the lost-copy / swap problem).
    LostCopy,
    /// Phi copies placed in the predecessor even on critical edges.
    NoCriticalEdgeSplit,
    /// Definitions after an asm goto leak along its goto edges.
    NoAsmGotoSnapshot,
    /// Constants stored into narrower allocas are not narrowed.
    NoConstantNarrowing,
    /// Volatile allocas are promoted.
    PromoteVolatile,
    /// Address-taken allocas are promoted.
    PromoteAddressTaken,
    /// Phis only at the direct dominance frontier, not the iterated one.
    DirectDfOnly,
    /// A load before any store reads one instead of zero.
    WrongUninitValue,
    /// A switch with several cases to one target gets the edge's copies once per case.
    SwitchDupEdge,
    /// Phis behind an indirect branch with several targets are not isolated:
    /// the copies at its end clobber a phi destination live on another target.
    NoIndirectIsolation,
}

impl Bug {
    pub const ALL: [Bug; 10] = [
        Bug::LostCopy,
        Bug::NoCriticalEdgeSplit,
        Bug::NoAsmGotoSnapshot,
        Bug::NoConstantNarrowing,
        Bug::PromoteVolatile,
        Bug::PromoteAddressTaken,
        Bug::DirectDfOnly,
        Bug::WrongUninitValue,
        Bug::SwitchDupEdge,
        Bug::NoIndirectIsolation,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Bug::LostCopy => "lost-copy",
            Bug::NoCriticalEdgeSplit => "no-critical-edge-split",
            Bug::NoAsmGotoSnapshot => "no-asm-goto-snapshot",
            Bug::NoConstantNarrowing => "no-constant-narrowing",
            Bug::PromoteVolatile => "promote-volatile",
            Bug::PromoteAddressTaken => "promote-address-taken",
            Bug::DirectDfOnly => "direct-df-only",
            Bug::WrongUninitValue => "wrong-uninit-value",
            Bug::SwitchDupEdge => "switch-dup-edge",
            Bug::NoIndirectIsolation => "no-indirect-isolation",
        }
    }

    pub fn from_name(s: &str) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.name() == s)
    }

    #[cfg(feature = "inject-bugs")]
    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// Parse a comma-separated list of bug names.
pub fn parse_bug_list(s: &str) -> Result<Vec<Bug>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| {
            Bug::from_name(n).ok_or_else(|| {
                let names: Vec<&str> = Bug::ALL.iter().map(|b| b.name()).collect();
                format!("unknown injected bug `{n}` (known: {})", names.join(", "))
            })
        })
        .collect()
}

#[cfg(feature = "inject-bugs")]
mod state {
    use super::Bug;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Once;

    static MASK: AtomicU32 = AtomicU32::new(0);
    static FROM_ENV: Once = Once::new();

    fn init_from_env() {
        FROM_ENV.call_once(|| {
            if let Ok(s) = std::env::var("PHICC_INJECT_BUG") {
                match super::parse_bug_list(&s) {
                    Ok(bugs) => {
                        let m = bugs.iter().fold(0, |m, b| m | b.bit());
                        MASK.fetch_or(m, Ordering::SeqCst);
                    }
                    Err(e) => eprintln!("phicc: PHICC_INJECT_BUG: {e}"),
                }
            }
        });
    }

    pub fn enabled(bug: Bug) -> bool {
        init_from_env();
        MASK.load(Ordering::Relaxed) & bug.bit() != 0
    }

    pub fn set_injected(bugs: &[Bug]) {
        init_from_env();
        MASK.store(bugs.iter().fold(0, |m, b| m | b.bit()), Ordering::SeqCst);
    }
}

/// Is `bug` switched on? Always false without the `inject-bugs` feature.
#[inline(always)]
pub fn enabled(bug: Bug) -> bool {
    #[cfg(feature = "inject-bugs")]
    {
        state::enabled(bug)
    }
    #[cfg(not(feature = "inject-bugs"))]
    {
        let _ = bug;
        false
    }
}

/// Switch exactly `bugs` on (replacing the environment's choice). Returns an
/// error without the `inject-bugs` feature, unless `bugs` is empty.
pub fn set_injected(bugs: &[Bug]) -> Result<(), String> {
    #[cfg(feature = "inject-bugs")]
    {
        state::set_injected(bugs);
        Ok(())
    }
    #[cfg(not(feature = "inject-bugs"))]
    {
        if bugs.is_empty() {
            Ok(())
        } else {
            Err("bug injection needs a build with `--features phicc/inject-bugs`".to_string())
        }
    }
}

/// The bugs switched on now (always empty without the feature).
pub fn active() -> Vec<Bug> {
    Bug::ALL.into_iter().filter(|&b| enabled(b)).collect()
}

/// True when this build can inject bugs.
pub const AVAILABLE: bool = cfg!(feature = "inject-bugs");
