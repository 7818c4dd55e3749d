//! A campaign's output directory, written so that a `SIGKILL` at any moment
//! loses nothing and a resumed (or repeated) run duplicates nothing:
//!
//! ```text
//! DIR/campaign.json        the campaign's parameters (a resume must match them)
//! DIR/done.jsonl           one line per finished program index (the resume journal)
//! DIR/findings.jsonl       one line per finding (the index); a later line for the
//!                          same id (e.g. after reduction) supersedes an earlier one
//! DIR/findings/<id>/       one directory per finding: program, finding.json,
//!                          commands.sh, outputs/, asm/
//! DIR/summary.md, DIR/report.html
//! ```
//!
//! Order of writes for a finding: its directory is built under a temporary
//! name and renamed into place (an existing directory is never rewritten),
//! then its index line is appended, then the program's done line. Each
//! journal line is one `write` plus `fsync` ([`crate::util::append_line`]).
//! A kill between any two steps leaves the index not done, so the resumed
//! campaign redoes it, finds the directory in place, and appends only what is
//! missing. Finding ids are deterministic (`generator-seed-index`).

use crate::differential::{Class, Timings};
use crate::util::{append_line, read_jsonl};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One line of `findings.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingRecord {
    pub id: String,
    pub generator: String,
    pub seed: u64,
    pub index: u64,
    pub class: Class,
    /// First diverging stage: frontend, a pass of phicc's pass table (mem2reg,
    /// mem2reg-params, copyprop, phi-elim, ...), backend (or unknown).
    pub stage: String,
    /// The (target/config) cells at fault.
    pub cells: Vec<String>,
    /// Directory of the finding, relative to the campaign directory.
    pub dir: String,
    /// Hash of the reduced program, once `oracle reduce` has run.
    #[serde(default)]
    pub reduced_hash: Option<String>,
}

impl FindingRecord {
    /// The bucket: one bug should give one bucket. Class, first diverging
    /// stage, the configurations and the targets that disagree, and the
    /// reduced program's hash when there is one.
    pub fn bucket(&self) -> String {
        let mut targets: Vec<&str> = self.cells.iter().filter_map(|c| c.split('/').next()).collect();
        let mut configs: Vec<&str> = self.cells.iter().filter_map(|c| c.split('/').nth(1)).collect();
        targets.sort();
        targets.dedup();
        configs.sort();
        configs.dedup();
        let mut b = format!(
            "{} | {} | {} | {}",
            self.class.name(),
            self.stage,
            configs.join(","),
            targets.join(",")
        );
        if let Some(h) = &self.reduced_hash {
            b.push_str(&format!(" | reduced {h}"));
        }
        b
    }
}

/// One line of `done.jsonl`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DoneRecord {
    pub index: u64,
    pub class: Class,
    /// Seconds since the start of the run that did this program.
    pub at: f64,
    pub seconds: f64,
    #[serde(default)]
    pub timings: Timings,
    #[serde(default)]
    pub finding: Option<String>,
    /// The `cgen` preset of the program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emphasis: Option<String>,
    /// Whether mem2reg's phi copy-cost limit kept allocas in memory (when known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crossed_cost_limit: Option<bool>,
}

/// The files of a finding directory, by name relative to it.
pub type FindingFiles = Vec<(String, Vec<u8>)>;

/// An open campaign directory.
pub struct FindingStore {
    pub dir: PathBuf,
    done: Mutex<HashSet<u64>>,
    indexed: Mutex<HashSet<String>>,
}

impl FindingStore {
    /// Open (creating it if needed) a campaign directory, loading its journals
    /// and removing temporaries a killed run left behind.
    pub fn open(dir: &Path) -> std::io::Result<FindingStore> {
        std::fs::create_dir_all(dir.join("findings"))?;
        for e in std::fs::read_dir(dir.join("findings"))?.flatten() {
            if e.file_name().to_string_lossy().starts_with(".tmp-") {
                std::fs::remove_dir_all(e.path())?;
            }
        }
        let done = load_done(dir)?.into_iter().map(|d| d.index).collect();
        let indexed = read_jsonl::<FindingRecord>(&dir.join("findings.jsonl"))?
            .into_iter()
            .map(|f| f.id)
            .collect();
        Ok(FindingStore {
            dir: dir.to_path_buf(),
            done: Mutex::new(done),
            indexed: Mutex::new(indexed),
        })
    }

    pub fn is_done(&self, index: u64) -> bool {
        self.done.lock().unwrap().contains(&index)
    }

    pub fn done_count(&self) -> usize {
        self.done.lock().unwrap().len()
    }

    /// Record a finding: its directory (unless already there), then its index line (unless already there).
    pub fn record_finding(&self, record: &FindingRecord, files: &FindingFiles) -> std::io::Result<()> {
        let target = self.dir.join(&record.dir);
        if !target.exists() {
            let tmp = self
                .dir
                .join("findings")
                .join(format!(".tmp-{}-{}", record.id, std::process::id()));
            if tmp.exists() {
                std::fs::remove_dir_all(&tmp)?;
            }
            for (name, bytes) in files {
                let p = tmp.join(name);
                std::fs::create_dir_all(p.parent().unwrap())?;
                std::fs::write(&p, bytes)?;
                if name.ends_with(".sh") {
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))?;
                }
            }
            std::fs::write(tmp.join("record.json"), serde_json::to_vec_pretty(record)?)?;
            sync_tree(&tmp)?;
            match std::fs::rename(&tmp, &target) {
                Ok(()) => {}
                // Another process renamed the same finding into place first.
                Err(_) if target.exists() => std::fs::remove_dir_all(&tmp)?,
                Err(e) => return Err(e),
            }
            std::fs::File::open(self.dir.join("findings"))?.sync_all()?;
        }
        let mut indexed = self.indexed.lock().unwrap();
        if !indexed.contains(&record.id) {
            append_line(&self.dir.join("findings.jsonl"), &serde_json::to_string(record)?)?;
            indexed.insert(record.id.clone());
        }
        Ok(())
    }

    /// Mark a program index as finished.
    pub fn record_done(&self, done: &DoneRecord) -> std::io::Result<()> {
        let mut set = self.done.lock().unwrap();
        if set.insert(done.index) {
            append_line(&self.dir.join("done.jsonl"), &serde_json::to_string(done)?)?;
        }
        Ok(())
    }
}

fn sync_tree(dir: &Path) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)?.flatten() {
        let p = e.path();
        if p.is_dir() {
            sync_tree(&p)?;
        } else {
            std::fs::File::open(&p)?.sync_all()?;
        }
    }
    std::fs::File::open(dir)?.sync_all()
}

/// The done journal, one record per index (the first wins).
pub fn load_done(dir: &Path) -> std::io::Result<Vec<DoneRecord>> {
    let mut seen = HashSet::new();
    Ok(read_jsonl::<DoneRecord>(&dir.join("done.jsonl"))?
        .into_iter()
        .filter(|d| seen.insert(d.index))
        .collect())
}

/// The finding index, one record per id (the last line for an id wins), in index order.
pub fn load_findings(dir: &Path) -> std::io::Result<Vec<FindingRecord>> {
    let mut by_id: BTreeMap<String, FindingRecord> = BTreeMap::new();
    for f in read_jsonl::<FindingRecord>(&dir.join("findings.jsonl"))? {
        by_id.insert(f.id.clone(), f);
    }
    let mut v: Vec<FindingRecord> = by_id.into_values().collect();
    v.sort_by(|a, b| (a.seed, a.index, &a.id).cmp(&(b.seed, b.index, &b.id)));
    Ok(v)
}
