//! Campaign robustness: a campaign killed with SIGKILL and resumed loses and
//! duplicates no finding; `--shard 1/2` and `--shard 2/2` cover exactly the
//! unsharded campaign's programs; `oracle merge` deduplicates findings. The
//! C campaigns use the fake compiler (`tests/fake/phicc-gcc`) with a
//! mismatch on about every other program, on the host target only.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn oracle() -> Command {
    Command::new(env!("CARGO_BIN_EXE_oracle"))
}

/// `oracle campaign` over cgen programs with a fake mem2reg bug.
fn c_campaign(out: &Path, count: u64, extra: &[&str]) -> Command {
    let fake = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake/phicc-gcc");
    let mut cmd = oracle();
    cmd.args([
        "campaign",
        "--generator",
        "cgen",
        "--seed",
        "3",
        "--quiet",
        "--jobs",
        "2",
    ])
    .arg(format!("--count={count}"))
    .arg(format!("--out={}", out.display()))
    .arg(format!("--compiler={}", fake.display()))
    .arg(format!("--targets={}", oracle::target::host()))
    .args(extra)
    .env("FAKE_PHICC_BUG", "mismatch")
    .env("FAKE_PHICC_SELECT", "2");
    cmd
}

fn run(mut cmd: Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "tool error: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The index lines of a campaign directory, by finding id, checking that
/// each id appears once and has its directory.
fn indexed(dir: &Path) -> HashMap<String, usize> {
    let text = std::fs::read_to_string(dir.join("findings.jsonl")).unwrap_or_default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("every index line parses");
        let id = v["id"].as_str().unwrap().to_string();
        assert!(
            dir.join(v["dir"].as_str().unwrap()).join("program.c").exists(),
            "{id} has its directory"
        );
        *seen.entry(id).or_default() += 1;
    }
    for (id, n) in &seen {
        assert_eq!(*n, 1, "finding {id} indexed {n} times");
    }
    seen
}

/// The finding ids of a campaign directory: each indexed once, with its
/// directory, and no directory left over.
fn findings(dir: &Path) -> BTreeSet<String> {
    let seen = indexed(dir);
    let dirs = std::fs::read_dir(dir.join("findings")).unwrap().count();
    assert_eq!(dirs, seen.len(), "one directory per finding, no leftovers");
    seen.into_keys().collect()
}

/// After a kill: every indexed finding has its directory (checked by
/// [`indexed`]), and a directory the index does not name yet is
/// either a temporary (`.tmp-*`, removed on resume) or a finished directory
/// whose program is not in the done journal, so that the resumed run redoes
/// the program and appends its index line. Anything else would be lost or
/// duplicated.
fn findings_after_kill(dir: &Path) {
    let indexed = indexed(dir);
    let done = done(dir);
    for e in std::fs::read_dir(dir.join("findings")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(".tmp-") || indexed.contains_key(&name) {
            continue;
        }
        let record: serde_json::Value = serde_json::from_slice(&std::fs::read(e.path().join("record.json")).unwrap())
            .expect("a renamed finding directory is complete");
        let index = record["index"].as_u64().unwrap();
        assert!(!done.contains(&index), "{name} is neither indexed nor redone on resume");
    }
}

/// The program indices of the done journal, checking none is there twice.
fn done(dir: &Path) -> BTreeSet<u64> {
    let text = std::fs::read_to_string(dir.join("done.jsonl")).unwrap_or_default();
    let mut set = BTreeSet::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(set.insert(v["index"].as_u64().unwrap()), "index done twice: {line}");
    }
    set
}

#[test]
fn sigkill_and_resume_lose_and_duplicate_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let out = run(c_campaign(&whole, 14, &[]));
    assert_eq!(out.status.code(), Some(1), "the fake bug is found");
    let expected = findings(&whole);
    assert!(expected.len() >= 2, "{expected:?}");
    assert_eq!(done(&whole), (0..14).collect());

    // Kill the same campaign at several moments, then let it finish.
    let killed = tmp.path().join("killed");
    for (round, delay_ms) in [300u64, 900, 1500].into_iter().enumerate() {
        let mut child = c_campaign(&killed, 14, &[])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_millis(delay_ms);
        while Instant::now() < deadline && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: plain syscall on our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
        child.wait().unwrap();
        findings_after_kill(&killed);
        eprintln!("round {round}: {} programs done", done(&killed).len());
    }
    let out = run(c_campaign(&killed, 14, &[]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(findings(&killed), expected);
    assert_eq!(done(&killed), (0..14).collect());
    assert!(killed.join("summary.md").exists() && killed.join("report.html").exists());
}

#[test]
fn shards_cover_exactly_the_unsharded_programs_and_merge_deduplicates() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, s1, s2) = (tmp.path().join("whole"), tmp.path().join("s1"), tmp.path().join("s2"));
    run(c_campaign(&whole, 9, &[]));
    run(c_campaign(&s1, 9, &["--shard=1/2"]));
    run(c_campaign(&s2, 9, &["--shard=2/2"]));
    let (d1, d2) = (done(&s1), done(&s2));
    assert!(d1.is_disjoint(&d2));
    assert_eq!(d1.iter().chain(&d2).copied().collect::<BTreeSet<_>>(), done(&whole));
    assert!(d1.iter().all(|i| i % 2 == 0) && d2.iter().all(|i| i % 2 == 1));
    let (f1, f2) = (findings(&s1), findings(&s2));
    assert_eq!(f1.union(&f2).cloned().collect::<BTreeSet<_>>(), findings(&whole));

    // Merging the shards and the whole campaign keeps each finding once.
    let merged = tmp.path().join("merged");
    let out = oracle()
        .args([
            "merge",
            s1.to_str().unwrap(),
            s2.to_str().unwrap(),
            whole.to_str().unwrap(),
        ])
        .arg(format!("--out={}", merged.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(findings(&merged), findings(&whole));
    assert_eq!(done(&merged), done(&whole));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("{} duplicate(s) dropped", findings(&whole).len())),
        "{stdout}"
    );
    let summary = std::fs::read_to_string(merged.join("summary.md")).unwrap();
    assert!(
        summary.contains(&format!("findings: {}", findings(&whole).len())),
        "{summary}"
    );
}

#[test]
fn ir_shards_cover_exactly_the_unsharded_programs() {
    let tmp = tempfile::tempdir().unwrap();
    let ir = |dir: &Path, shard: &str| {
        let mut c = oracle();
        c.args(["campaign", "--generator=irgen", "--seed=5", "--count=40", "--quiet"])
            .arg(format!("--shard={shard}"))
            .arg(format!("--out={}", dir.display()));
        assert_eq!(run(c).status.code(), Some(0));
        done(dir)
    };
    let whole = ir(&tmp.path().join("w"), "1/1");
    let parts: Vec<BTreeSet<u64>> = (1..=3)
        .map(|k| ir(&tmp.path().join(format!("p{k}")), &format!("{k}/3")))
        .collect();
    assert_eq!(whole, (0..40).collect());
    let mut union = BTreeSet::new();
    for p in &parts {
        assert!(p.is_disjoint(&union));
        union.extend(p);
    }
    assert_eq!(union, whole);
}

#[test]
fn a_directory_holding_another_campaign_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let mut a = oracle();
    a.args(["campaign", "--generator=irgen", "--seed=1", "--count=3", "--quiet"])
        .arg(format!("--out={}", dir.display()));
    run(a);
    let out = oracle()
        .args(["campaign", "--generator=irgen", "--seed=2", "--count=3", "--quiet"])
        .arg(format!("--out={}", dir.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("different campaign"));
}

#[test]
fn program_seeds_are_the_generator_seeds_themselves() {
    use oracle::cgen::{generate, CgenConfig, Emphasis};
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("seeds");
    // --count 100 is capped by the three listed seeds; every program is a finding.
    let mut cmd = c_campaign(&out, 100, &["--program-seeds=4,9..10", "--cycle-emphasis"]);
    cmd.env("FAKE_PHICC_SELECT", "1");
    run(cmd);
    assert_eq!(done(&out), BTreeSet::from([0, 1, 2]));
    let text = std::fs::read_to_string(out.join("findings.jsonl")).unwrap();
    let mut seeds = BTreeSet::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let index = v["index"].as_u64().unwrap();
        let seed = [4, 9, 10][index as usize];
        let emphasis = Emphasis::ALL[(seed % 6) as usize];
        let dir = out.join(v["dir"].as_str().unwrap());
        let program = std::fs::read_to_string(dir.join("program.c")).unwrap();
        assert_eq!(
            program,
            generate(seed, &CgenConfig::preset(emphasis)),
            "program {index}"
        );
        let details: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("finding.json")).unwrap()).unwrap();
        assert_eq!(
            details["generated_by"],
            format!("oracle cgen --seed {seed} --emphasis {}", emphasis.name())
        );
        seeds.insert(seed);
    }
    assert_eq!(seeds, BTreeSet::from([4, 9, 10]));
}
