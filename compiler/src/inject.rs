//! Injected bugs: named, switchable mistakes in mem2reg, phi elimination, SCCP, LICM and DCE,
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

crate::named_enum! {
    /// The injectable bugs.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Bug {
        /// Phi copies emitted sequentially, without temporaries (the lost-copy / swap problem).
        LostCopy = "lost-copy",
        /// Phi copies placed in the predecessor even on critical edges.
        NoCriticalEdgeSplit = "no-critical-edge-split",
        /// Definitions after an asm goto leak along its goto edges.
        NoAsmGotoSnapshot = "no-asm-goto-snapshot",
        /// Constants stored into narrower allocas are not narrowed.
        NoConstantNarrowing = "no-constant-narrowing",
        /// Volatile allocas are promoted.
        PromoteVolatile = "promote-volatile",
        /// Address-taken allocas are promoted.
        PromoteAddressTaken = "promote-address-taken",
        /// Phis only at the direct dominance frontier, not the iterated one.
        DirectDfOnly = "direct-df-only",
        /// A load before any store reads one instead of zero.
        WrongUninitValue = "wrong-uninit-value",
        /// A switch with several cases to one target gets the edge's copies once per case.
        SwitchDupEdge = "switch-dup-edge",
        /// Phis behind an indirect branch with several targets are not isolated:
        /// the copies at its end clobber a phi destination live on another target.
        NoIndirectIsolation = "no-indirect-isolation",
        /// The phi copies of a block's edge to itself (a single-block loop) are
        /// dropped as if they were self-copies: the loop's counter never
        /// changes and a terminating loop runs forever.
        SelfLoopNoCopy = "self-loop-no-copy",
        /// DCE removes an unused load from a volatile alloca (a volatile access is an event).
        DceRemovesVolatile = "dce-removes-volatile",
        /// SCCP folds an unsigned comparison of constants as a signed one.
        SccpSignedUnsignedCmp = "sccp-signed-unsigned-cmp",
        /// The register allocator's liveness stops after one backward round:
        /// a value live around a loop's back edge looks dead at the loop's end.
        RaLivenessOnePass = "ra-liveness-one-pass",
        /// A definition whose value is never read interferes with nothing, so
        /// it may overwrite a live value sharing its register or slot.
        RaDeadDefNoInterference = "ra-dead-def-no-interference",
        /// Coalescing checks only the copy's two values, not the classes they
        /// already belong to (the lost copy, one level down).
        RaCoalesceInterfering = "ra-coalesce-interfering",
        /// Slot sharing forgets one interfering neighbour's slot.
        RaSlotShareOverlap = "ra-slot-share-overlap",
        /// The prologue does not save the last callee-saved register the
        /// allocator used: the caller's value in it is lost.
        RaCalleeSavedNotSaved = "ra-callee-saved-not-saved",
        /// The allocator takes inline asm for an instruction that overwrites
        /// no register: a value live across an asm statement, or one of its
        /// inputs, may sit in a caller-saved register the asm's planner
        /// loads an operand into.
        RaAsmOperandsInRegisters = "ra-asm-operands-in-registers",
        /// The binary search of a sparse switch compares against the middle
        /// case plus one: that case value falls into the half without it.
        SwitchSplitPivotOffByOne = "switch-split-pivot-off-by-one",
        /// Branches skip a block of copies even when the copies are not
        /// coalesced: the phi copies of a critical edge are lost.
        BranchPastCopies = "branch-past-copies",
        /// RISC-V: a compare fused into its branch tests `a > b` as `a < b`
        /// (the operands of `bgt`/`ble` and their unsigned forms not swapped).
        RiscvFusedBranchUnswapped = "riscv-fused-branch-unswapped",
        /// AArch64 and RISC-V: the test for a leaf without a frame record
        /// forgets the locals area, so a leaf with slots or `alloca`s drops
        /// its frame and addresses them from the caller's frame pointer.
        FramelessLeafWithLocals = "frameless-leaf-with-locals",
        /// AArch64: a load or store at a global plus an offset, folded into
        /// `adrp` and a `:lo12:` displacement, names the symbol without the
        /// offset in the displacement: it reaches the global's first bytes
        /// (or, across a 4 KiB page, somewhere else).
        Lo12DropsOffset = "lo12-drops-offset",
        /// RISC-V: a call shortened to `jal` (a `static` callee in reach)
        /// is encoded with `rd = zero` instead of `ra`: the callee returns
        /// to wherever `ra` last pointed.
        RiscvShortCallNoLink = "riscv-short-call-no-link",
        /// RISC-V: a load or store at `global+offset` folded into `auipc`
        /// and a `%pcrel_lo` displacement takes the `%pcrel_hi` of the
        /// global without the offset: it reaches the global's first bytes.
        RiscvPcrelDropsOffset = "riscv-pcrel-drops-offset",
        /// RISC-V: a call passing integer arguments in `a2`..`a7` is taken to
        /// overwrite the caller-saved registers only after reading its
        /// operands, so a value one argument reads may sit in the register
        /// an earlier argument is loaded into.
        RiscvLateClobberArgRegs = "riscv-late-clobber-arg-regs",
        /// AArch64: a call passing integer arguments in `x2`..`x7` is taken
        /// to overwrite them only after reading its operands, so a value
        /// one argument reads may sit in the register an earlier argument
        /// is loaded into.
        Aarch64LateClobberArgRegs = "aarch64-late-clobber-arg-regs",
        /// x86-64: calls are taken to leave the float homes `xmm8..15`
        /// alone, so a `double` kept there across a call is lost when the
        /// callee uses them.
        X86XmmLiveAcrossCall = "x86-xmm-live-across-call",
        /// The emitter leaves out an empty trampoline that only a switch
        /// reaches, taking every branch to it to go past it, so the
        /// switch names a label that is never defined.
        ElideSwitchTarget = "elide-switch-target",
        /// AArch64 and RISC-V: an add or subtract of a constant reads it
        /// sign-extended from 32 bits whatever the type's width, so that the
        /// 64-bit `x + 0xffffffff` becomes `x - 1`.
        ModularImmFrom32Bits = "modular-imm-from-32-bits",
        /// Lowering's read-only image of a constant initializer list
        /// (`lower/init.rs`) holds each number's bytes in big-endian order.
        InitImageByteOrder = "init-image-byte-order",
        /// simplifycfg threads an empty block into a successor its predecessor
        /// already reaches although their phi operands differ: the
        /// predecessor's entry stays and the empty block's value is lost.
        SimplifycfgThreadPhiConflict = "simplifycfg-thread-phi-conflict",
        /// GVN merges two loads of one address across a store to the same memory.
        GvnLoadAcrossStore = "gvn-load-across-store",
        /// GVN looks through a copy to its source itself, not to the
        /// source's leader: when the source was a redundant expression this
        /// walk deleted, the copy's uses name a value nothing defines.
        GvnCopyStaleSource = "gvn-copy-stale-source",
        /// GVN's identity rule takes a zero on the left as an identity of
        /// every operator, so `0 - x` and `0 >> x` become `x`.
        GvnSimplifyLeftIdentity = "gvn-simplify-left-identity",
        /// LICM hoists a division out of the loop, and out of the test of its divisor that guards it.
        LicmHoistsDivision = "licm-hoists-division",
        /// The inliner leaves a phi's incoming edge from the callee's entry
        /// block naming the callee's own entry instead of the copy's.
        InlinePhiNamesCalleeEntry = "inline-phi-names-callee-entry",
        /// The Cooper-Harvey-Kennedy dominator iteration stops after one pass
        /// over the reverse postorder: right on reducible CFGs, wrong on a loop
        /// entered at two blocks (mem2reg then misses phis there).
        DominatorsIrreducible = "dominators-irreducible",
        /// GVN rewrites `x < c` (signed order, small constant `c`) as
        /// `x - c < 0`, as if the subtraction could not wrap: wrong only when
        /// `x` is within 8 of the type's MIN or MAX, values `main` never
        /// passes (found by calling every function with boundary arguments).
        GvnCompareViaSub = "gvn-compare-via-sub",
        /// The integrated assembler reuses the bytes of a repeated
        /// instruction line even when the first one needed a fixup: the
        /// copy gets no relocation, so a second `call f` or `jmp .L` of the
        /// same text lands on the next instruction (x86-64, AArch64).
        AsmMemoKeepsFixups = "asm-memo-keeps-fixups",
    }
}

impl Bug {
    /// Whether the bug is in the backend (the register allocator, switch
    /// lowering), which the IR interpreter cannot see: only native runs
    /// (`oracle native-ir`, the C campaigns) find it.
    pub fn in_backend(self) -> bool {
        matches!(
            self,
            Bug::RaLivenessOnePass
                | Bug::RaDeadDefNoInterference
                | Bug::RaCoalesceInterfering
                | Bug::RaSlotShareOverlap
                | Bug::RaCalleeSavedNotSaved
                | Bug::RaAsmOperandsInRegisters
                | Bug::SwitchSplitPivotOffByOne
                | Bug::BranchPastCopies
                | Bug::RiscvFusedBranchUnswapped
                | Bug::FramelessLeafWithLocals
                | Bug::Lo12DropsOffset
                | Bug::RiscvShortCallNoLink
                | Bug::RiscvPcrelDropsOffset
                | Bug::RiscvLateClobberArgRegs
                | Bug::Aarch64LateClobberArgRegs
                | Bug::X86XmmLiveAcrossCall
                | Bug::ElideSwitchTarget
                | Bug::ModularImmFrom32Bits
                | Bug::AsmMemoKeepsFixups
        )
    }

    /// Whether the bug is in lowering from C, which generated IR never
    /// goes through: only C programs (the C campaigns) find it.
    pub fn in_lowering(self) -> bool {
        matches!(self, Bug::InitImageByteOrder)
    }

    #[cfg(feature = "inject-bugs")]
    fn bit(self) -> u64 {
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
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Once;

    static MASK: AtomicU64 = AtomicU64::new(0);
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
