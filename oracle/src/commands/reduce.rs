//! `oracle reduce FINDING_DIR`: minimizes a finding of `oracle campaign`.
//!
//! C findings go through `cvise` (fallback `creduce`) with an
//! interestingness script that oracle writes into `FINDING_DIR/reduced/`. A
//! candidate is kept only when
//! 1. `gcc -Wall -Wextra` with `-Werror=` for uninitialized use, implicit
//!    declarations, implicit int, missing returns, libc functions redeclared
//!    with another type and printf arguments of the wrong type accepts it
//!    (cvise otherwise turns `#include <stdio.h>` into `void printf();` and
//!    passes a union where `%llx` wants an integer), and with `-Werror=` for
//!    incompatible pointer types, pointer/integer conversions and dropped
//!    qualifiers (cvise otherwise writes `int32_t **p = &g` for an `int32_t g`);
//! 2. the reference built with `gcc -fsanitize=undefined,address
//!    -fno-sanitize-recover=all` runs clean to the original exit status;
//! 3. `oracle diff --expect SIGNATURE` sees the same finding: same class,
//!    same cells at fault, and no new timeouts.
//!
//! IR findings go through the IR reducer ([`crate::reduce_ir`]). The output
//! is the repro (`reduced/repro.c` or `reduced/repro.ir`) and `reduced/repro.sh`,
//! the one-line command that shows the bug. The finding's index line gets the
//! reduced program's hash (a bucketing key).

use crate::differential::DiffReport;
use crate::findings::FindingRecord;
use crate::ircheck::{CheckConfig, CheckMode};
use crate::reduce_ir::{body_instruction_count, Reducer};
use crate::runner::Termination;
use crate::util::{append_line, content_hash, shell_quote, write_atomic};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A finding directory (`DIR/findings/<id>`).
    pub finding: PathBuf,
    /// Parallel cvise jobs.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// cvise's per-candidate time limit, in seconds.
    #[arg(long, default_value_t = 120)]
    pub candidate_timeout: u64,
    /// Write the script and check the original, but do not run cvise.
    #[arg(long)]
    pub script_only: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dir = &args.finding;
    let record: FindingRecord = serde_json::from_str(
        &std::fs::read_to_string(dir.join("record.json"))
            .with_context(|| format!("{} is not a finding directory", dir.display()))?,
    )?;
    let out = dir.join("reduced");
    std::fs::create_dir_all(&out)?;
    let (repro, command, hash) = if dir.join("program.ir").exists() {
        reduce_ir_finding(dir, &out)?
    } else {
        match reduce_c_finding(dir, &out, &args)? {
            Some(r) => r,
            None => return Ok(ExitCode::SUCCESS),
        }
    };
    write_atomic(
        &out.join("repro.sh"),
        format!("#!/bin/sh\ncd \"$(dirname \"$0\")\" && {command}\n").as_bytes(),
    )?;
    // Record the reduced hash in the campaign's index (a later line supersedes).
    let campaign_dir = dir.parent().and_then(Path::parent);
    if let Some(cd) = campaign_dir.filter(|d| d.join("findings.jsonl").exists()) {
        let updated = FindingRecord {
            reduced_hash: Some(hash.clone()),
            ..record
        };
        append_line(&cd.join("findings.jsonl"), &serde_json::to_string(&updated)?)?;
        let _ = crate::report::write_reports(cd);
    }
    println!(
        "repro: {}\nshows the bug: {command}\nreduced hash: {hash}",
        repro.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn reduce_ir_finding(dir: &Path, out: &Path) -> anyhow::Result<(PathBuf, String, String)> {
    let text = std::fs::read_to_string(dir.join("program.ir"))?;
    let module = phicc::ir::text::parse_module(&text).map_err(|e| anyhow::anyhow!("program.ir:{e}"))?;
    // Findings made since issue 17 item 5 record the seed of their argument
    // vectors; older ones were checked through `main` alone.
    let inputs_seed = text.lines().take_while(|l| l.starts_with(';')).find_map(|l| {
        l.strip_prefix("; ")?
            .strip_prefix(crate::campaign::INPUTS_SEED_TAG)?
            .trim()
            .parse()
            .ok()
    });
    let cfg = CheckConfig {
        mode: CheckMode::Pipeline,
        schedules: vec![0, 1],
        fuel: 200_000,
        inputs: match inputs_seed {
            Some(seed) => crate::inputs::Inputs {
                seed,
                ..crate::inputs::Inputs::CAMPAIGN
            },
            None => crate::inputs::Inputs::OFF,
        },
    };
    let mut reducer = Reducer::new(cfg.clone());
    let (reduced, signature) = reducer
        .reduce(&module)
        .ok_or_else(|| anyhow::anyhow!("{} does not fail the IR check any more", dir.display()))?;
    let repro = out.join("repro.ir");
    // A failing call of a function besides `main` is replayed with its arguments.
    let call = crate::ircheck::check_module(&reduced, &cfg)
        .failure
        .and_then(|f| f.call().map(|c| c.phiopt_flags()))
        .unwrap_or_default();
    let command = crate::ircampaign::replay_command(
        crate::irgen::GenMode::Alloca,
        &cfg.schedules,
        cfg.fuel,
        Path::new("repro.ir"),
    ) + &call;
    let body = phicc::ir::text::print_module(&reduced);
    write_atomic(
        &repro,
        format!("; reduced by oracle reduce: {signature}\n; replay: {command}\n{body}").as_bytes(),
    )?;
    eprintln!("reduced to {} instructions", body_instruction_count(&reduced));
    Ok((repro, command, content_hash(body.as_bytes())))
}

/// The reference's exit status, which the sanitized build must reproduce.
fn expected_status(report: &DiffReport) -> i32 {
    report
        .cells
        .iter()
        .find(|c| c.config.is_none())
        .and_then(|c| c.execution.as_ref())
        .and_then(|e| match e.termination {
            Termination::Exited(s) => Some(s),
            _ => None,
        })
        .unwrap_or(0)
}

fn reduce_c_finding(dir: &Path, out: &Path, args: &Args) -> anyhow::Result<Option<(PathBuf, String, String)>> {
    let details: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("finding.json"))?)?;
    let report: DiffReport = serde_json::from_value(details["report"].clone())?;
    let replay = details["replay"].as_str().unwrap_or_default().to_string();
    let oracle = std::env::current_exe()?;
    // The replay line starts `oracle diff program.c`: run it on repro.c with this oracle.
    let diff_args = replay
        .strip_prefix("oracle diff program.c")
        .ok_or_else(|| anyhow::anyhow!("finding.json has no replay command"))?
        .to_string();
    let includes: String = diff_args
        .split_whitespace()
        .filter(|w| w.starts_with("-I"))
        .map(|w| format!(" {w}"))
        .collect();
    let signature = report.signature();
    let status = expected_status(&report);
    let repro = out.join("repro.c");
    if !repro.exists() {
        std::fs::copy(dir.join("program.c"), &repro)?;
    }
    let script = format!(
        r#"#!/bin/sh
# Interestingness test written by `oracle reduce`: exit 0 iff repro.c still
# shows {signature} and is still a defined C program.
f=repro.c
# 1. no uninitialized use, implicit declaration, implicit int, missing return,
#    libc function redeclared (`void printf();`), printf argument of the wrong type,
#    pointer of the wrong type or pointer/integer mix-up
gcc -std=gnu11 -O1 -c -o /dev/null -Wall -Wextra -Werror=uninitialized -Werror=maybe-uninitialized \
    -Werror=implicit-function-declaration -Werror=implicit-int -Werror=return-type \
    -Werror=builtin-declaration-mismatch -Werror=format -Werror=incompatible-pointer-types \
    -Werror=int-conversion -Werror=discarded-qualifiers{includes} "$f" >/dev/null 2>&1 || exit 1
# 2. the sanitized reference runs clean to the original exit status ({status})
gcc -O0 -fsanitize=undefined,address -fno-sanitize-recover=all -w{includes} -o ./ub-check "$f" >/dev/null 2>&1 || exit 1
timeout 10 ./ub-check >/dev/null 2>&1
[ $? -eq {status} ] || exit 1
# 3. the same finding: class, cells at fault, no new timeouts
exec {oracle} diff "$f"{diff_args} --expect {sig} >/dev/null 2>&1
"#,
        oracle = shell_quote(&oracle.display().to_string()),
        sig = shell_quote(&signature),
    );
    let script_path = out.join("interesting.sh");
    write_atomic(&script_path, script.as_bytes())?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script_path, std::fs::Permissions::from_mode(0o755))?;
    }
    // The original must pass its own test, or cvise has nothing to keep.
    let check = std::process::Command::new("sh")
        .arg(std::path::absolute(&script_path)?)
        .current_dir(out)
        .status()?;
    anyhow::ensure!(
        check.success(),
        "the finding does not pass its interestingness test ({}): not reproducible, or the program trips the UB checks",
        script_path.display()
    );
    if args.script_only {
        println!("{} passes on the original program", script_path.display());
        return Ok(None);
    }
    let reducer = ["cvise", "creduce"]
        .into_iter()
        .find(|r| {
            std::process::Command::new(r)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .ok_or_else(|| anyhow::anyhow!("neither cvise nor creduce is installed (scripts/setup.sh --campaign)"))?;
    let st = std::process::Command::new(reducer)
        .args([
            "--n",
            &args.jobs.to_string(),
            "--timeout",
            &args.candidate_timeout.to_string(),
        ])
        .arg(std::path::absolute(&script_path)?)
        .arg("repro.c")
        .current_dir(out)
        .status()
        .with_context(|| format!("cannot run {reducer}"))?;
    anyhow::ensure!(st.success(), "{reducer} failed");
    let _ = std::fs::remove_file(out.join("ub-check"));
    let text = std::fs::read_to_string(&repro)?;
    // Best effort: the reduced program's IR after lowering, beside it.
    let compiler = diff_args
        .split_whitespace()
        .find_map(|w| w.strip_prefix("--compiler="))
        .unwrap_or("phicc")
        .to_string();
    if let Ok(o) = std::process::Command::new(&compiler)
        .args(["--emit-ir", "-w", "repro.c"])
        .current_dir(out)
        .output()
    {
        if o.status.success() {
            write_atomic(&out.join("repro.ir"), &o.stdout)?;
        }
    }
    let normalized: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let command = format!("oracle diff repro.c{diff_args}");
    eprintln!("reduced to {} lines", text.lines().count());
    Ok(Some((repro, command, content_hash(normalized.as_bytes()))))
}
