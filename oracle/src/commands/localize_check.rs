//! `oracle localize-check`: checks the first-diverging-stage bucketing of C
//! campaigns ([`crate::localize`]) against the injected bugs. For each bug
//! of `compiler/src/inject.rs`, a short cgen campaign on x86-64 with the bug
//! switched on (`PHICC_INJECT_BUG`, emphasis chosen to reach it), then the
//! stages of its findings in `x86_64/mem2reg`, or `x86_64/opt` for the bugs
//! of the opt pipeline's own passes (the cell the bug itself breaks), next to
//! the stage the bug lives in.
//!
//! Prints one line per bug: the expected stage, the stages found (with
//! counts), and OK when every such finding landed in the bug's stage. Exit
//! status 1 when a bug's findings land elsewhere (a bug no campaign found is
//! reported, not failed: not every generator reaches every bug). The
//! compiler must be built with `--features phicc/inject-bugs`.

use crate::campaign::{self, Budget, Campaign, CampaignSpec};
use crate::cgen::Emphasis;
use crate::differential::ReferenceMode;
use crate::generator::{Generator, GeneratorKind};
use crate::target::{Config, Target};
use crate::toolchain::{default_phicc, Toolchain};
use phicc::inject::Bug;
use phicc::passes::{Configuration, PassKind};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Programs per bug.
    #[arg(default_value_t = 30)]
    pub count: u64,
    /// phicc built with --features phicc/inject-bugs (default: $PHICC, else
    /// phicc beside oracle, else on PATH).
    #[arg(long)]
    pub compiler: Option<PathBuf>,
    /// Worker threads per campaign (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// The passes a bug's code runs in (a finding may be bucketed under any of
/// them: the promotion code runs as both `mem2reg` and `mem2reg-params`) and
/// the cgen preset that reaches it. The bug shows in the `mem2reg`
/// configuration unless [`config_of`] says otherwise.
pub fn plan(bug: Bug) -> (&'static [PassKind], Emphasis) {
    const PHI_ELIM: &[PassKind] = &[PassKind::PhiElim];
    const PROMOTE: &[PassKind] = &[PassKind::Mem2reg, PassKind::Mem2regParams];
    match bug {
        Bug::LostCopy => (PHI_ELIM, Emphasis::LostCopy),
        Bug::NoCriticalEdgeSplit => (PHI_ELIM, Emphasis::Default),
        Bug::SwitchDupEdge => (PHI_ELIM, Emphasis::SwitchCost),
        Bug::NoIndirectIsolation => (PHI_ELIM, Emphasis::ComputedGoto),
        Bug::SelfLoopNoCopy => (PHI_ELIM, Emphasis::Default),
        Bug::DceRemovesVolatile => (&[PassKind::Dce], Emphasis::Default),
        Bug::SccpSignedUnsignedCmp => (&[PassKind::Sccp], Emphasis::Default),
        Bug::SimplifycfgThreadPhiConflict => (&[PassKind::Simplifycfg], Emphasis::Default),
        Bug::GvnLoadAcrossStore | Bug::GvnCopyStaleSource | Bug::GvnSimplifyLeftIdentity | Bug::GvnCompareViaSub => {
            (&[PassKind::Gvn], Emphasis::Default)
        }
        Bug::LicmHoistsDivision => (&[PassKind::Licm], Emphasis::Default),
        Bug::InlinePhiNamesCalleeEntry => (&[PassKind::Inline], Emphasis::Default),
        Bug::NoAsmGotoSnapshot => (PROMOTE, Emphasis::AsmGoto),
        Bug::NoConstantNarrowing => (PROMOTE, Emphasis::Default),
        Bug::PromoteVolatile => (PROMOTE, Emphasis::Default),
        Bug::PromoteAddressTaken => (PROMOTE, Emphasis::Params),
        Bug::DirectDfOnly => (PROMOTE, Emphasis::Default),
        Bug::WrongUninitValue => (PROMOTE, Emphasis::Default),
        // The allocator runs after every pass: localize names no pass.
        Bug::RaLivenessOnePass
        | Bug::RaDeadDefNoInterference
        | Bug::RaCoalesceInterfering
        | Bug::RaSlotShareOverlap
        | Bug::RaCalleeSavedNotSaved => (&[], Emphasis::Default),
        Bug::RaAsmOperandsInRegisters => (&[], Emphasis::AsmGoto),
        // Switch lowering is the backend's too; sparse switches are cgen's switch-cost shape.
        Bug::SwitchSplitPivotOffByOne | Bug::ElideSwitchTarget => (&[], Emphasis::SwitchCost),
        // Lowering runs before every pass (cgen's arrays are too short to reach it).
        Bug::InitImageByteOrder => (&[], Emphasis::Default),
        Bug::BranchPastCopies => (&[], Emphasis::LostCopy),
        Bug::RiscvFusedBranchUnswapped
        | Bug::FramelessLeafWithLocals
        | Bug::Lo12DropsOffset
        | Bug::RiscvShortCallNoLink
        | Bug::RiscvPcrelDropsOffset
        | Bug::RiscvLateClobberArgRegs
        | Bug::Aarch64LateClobberArgRegs
        | Bug::X86XmmLiveAcrossCall
        | Bug::ModularImmFrom32Bits
        | Bug::AsmMemoKeepsFixups => (&[], Emphasis::Default),
        Bug::DominatorsIrreducible => (PROMOTE, Emphasis::ComputedGoto),
    }
}

/// The configuration whose pipeline runs the bug's code: `opt` for the bugs
/// of its own passes, `mem2reg` for the rest.
pub fn config_of(bug: Bug) -> Config {
    let (passes, _) = plan(bug);
    if passes.iter().all(|p| Configuration::Mem2reg.passes().contains(p)) {
        Config::Mem2reg
    } else {
        Config::Opt
    }
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let phicc = std::path::absolute(a.compiler.clone().unwrap_or_else(default_phicc))?;
    let out = tempfile::Builder::new().prefix("oracle-localize-").tempdir()?;
    let mut status = ExitCode::SUCCESS;
    for bug in Bug::ALL.into_iter().filter(|b| !b.in_backend() && !b.in_lowering()) {
        let (stage, emphasis) = plan(bug);
        let config = config_of(bug);
        let cell = format!("x86_64/{config}");
        let mut tools = Toolchain::new(phicc.clone());
        tools.run_limits.timeout = Duration::from_secs(5);
        tools.run_limits.cpu_seconds = 6;
        tools.env.push(("PHICC_INJECT_BUG".into(), bug.name().into()));
        let mut generator = Generator::new(GeneratorKind::Cgen);
        generator.emphasis = emphasis;
        let dir = out.path().join(bug.name());
        let c = Campaign {
            spec: CampaignSpec {
                generator: GeneratorKind::Cgen,
                emphasis: Some(emphasis.name().to_string()),
                seed: 1,
                shard: (1, 1),
                targets: vec![Target::X86_64],
                configs: vec![Config::Nomem2reg, config],
                reference: ReferenceMode::Host,
                compiler: phicc.clone(),
                inject_bug: Some(bug.name().to_string()),
                program_seeds: None,
            },
            generator,
            tools,
            budget: Budget {
                count: Some(a.count),
                time: None,
            },
            jobs: super::jobs_or_every_core(a.jobs),
            out: dir.clone(),
            progress: false,
            localize: true,
        };
        campaign::run(&c)?;
        // Findings the bug itself causes: in its configuration only.
        let mut stages: BTreeMap<String, usize> = BTreeMap::new();
        for f in crate::findings::load_findings(&dir)? {
            if f.cells == [cell.as_str()] {
                *stages.entry(f.stage).or_default() += 1;
            }
        }
        let found: Vec<String> = stages.iter().map(|(s, n)| format!("{s} x{n}")).collect();
        let verdict = if stages.is_empty() {
            format!("not found in {} programs", a.count)
        } else if stages.keys().any(|s| !stage.iter().any(|p| p.name() == s)) {
            status = ExitCode::from(1);
            "MISPLACED".to_string()
        } else {
            "OK".to_string()
        };
        let found = if found.is_empty() {
            "-".to_string()
        } else {
            found.join(", ")
        };
        let expected: Vec<&str> = stage.iter().map(|p| p.name()).collect();
        println!(
            "{:<24} expected {:<22} found: {found:<40} {verdict}",
            bug.name(),
            expected.join("|")
        );
    }
    Ok(status)
}
