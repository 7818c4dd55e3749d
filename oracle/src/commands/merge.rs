//! `oracle merge DIR... --out OUT`: puts the directories of campaign shards
//! (or of repeated campaigns) back together. Findings are deduplicated by id
//! (the same program found twice is kept once) and regrouped by bucket in
//! the merged reports; the done journals are united by program index.
//! Exit status: 0 no finding, 1 findings, 2 tool error.

use crate::findings::{load_done, load_findings, FindingRecord};
use crate::util::append_line;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Campaign directories to merge.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The merged directory (created; merging into an existing one adds to it).
    #[arg(long)]
    pub out: PathBuf,
}

/// What a merge did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Merged {
    pub findings: usize,
    pub duplicates: usize,
    pub programs: usize,
}

/// Merge `dirs` into `out`.
pub fn merge_dirs(dirs: &[PathBuf], out: &Path) -> anyhow::Result<Merged> {
    std::fs::create_dir_all(out.join("findings"))?;
    let mut have: HashSet<String> = load_findings(out)?.into_iter().map(|f| f.id).collect();
    let mut done_have: HashSet<u64> = load_done(out)?.into_iter().map(|d| d.index).collect();
    let mut merged = Merged::default();
    let mut specs = Vec::new();
    for dir in dirs {
        anyhow::ensure!(
            dir.join("done.jsonl").exists(),
            "{} is not a campaign directory",
            dir.display()
        );
        if let Ok(spec) = std::fs::read_to_string(dir.join("campaign.json")) {
            specs.push(serde_json::from_str::<serde_json::Value>(&spec)?);
        }
        for f in load_findings(dir)? {
            if have.contains(&f.id) {
                merged.duplicates += 1;
                continue;
            }
            copy_finding(dir, out, &f)?;
            append_line(&out.join("findings.jsonl"), &serde_json::to_string(&f)?)?;
            have.insert(f.id.clone());
            merged.findings += 1;
        }
        for d in load_done(dir)? {
            if done_have.insert(d.index) {
                append_line(&out.join("done.jsonl"), &serde_json::to_string(&d)?)?;
                merged.programs += 1;
            }
        }
    }
    let spec = serde_json::json!({ "merged_from": specs });
    crate::util::write_atomic(
        &out.join("campaign.json"),
        serde_json::to_string_pretty(&spec)?.as_bytes(),
    )?;
    crate::report::write_reports(out)?;
    Ok(merged)
}

fn copy_finding(from: &Path, to: &Path, f: &FindingRecord) -> anyhow::Result<()> {
    let src = from.join(&f.dir);
    let dst = to.join(&f.dir);
    if dst.exists() || !src.exists() {
        return Ok(());
    }
    let tmp = to
        .join("findings")
        .join(format!(".tmp-{}-{}", f.id, std::process::id()));
    copy_tree(&src, &tmp)?;
    std::fs::rename(&tmp, &dst)?;
    Ok(())
}

fn copy_tree(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dst)?;
    for e in std::fs::read_dir(src)?.flatten() {
        let to = dst.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_tree(&e.path(), &to)?;
        } else {
            std::fs::copy(e.path(), &to)?;
        }
    }
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let m = merge_dirs(&args.dirs, &args.out)?;
    let total = load_findings(&args.out)?.len();
    print!(
        "{}",
        std::fs::read_to_string(args.out.join("summary.md")).unwrap_or_default()
    );
    println!(
        "\nmerged {} director{}: {} new finding(s), {} duplicate(s) dropped, {} program(s); {} finding(s) in {}",
        args.dirs.len(),
        if args.dirs.len() == 1 { "y" } else { "ies" },
        m.findings,
        m.duplicates,
        m.programs,
        total,
        args.out.display()
    );
    Ok(if total == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
