//! What a test does when a tool it needs (a cross gcc, QEMU, csmith) is
//! missing: the skip is counted and named in the test's summary line, and
//! under CI (`CI=true`) it is a failure, so that a machine without the tools
//! cannot pass while testing nothing native.
//!
//! Lines go to the process's real stderr, past the test harness's capture of
//! `eprintln!`, so that a skip is visible in a plain `cargo test` run.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Write;

/// Whether this run is CI's (`CI=true`), where a missing tool fails the test.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Writes one line to the real stderr (not captured by the test harness).
pub fn report(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Skips all of `what` because of `reason` (say `qemu-riscv64 missing`):
/// reports it with a summary line of 0 passed and 1 skipped, and panics
/// under CI.
pub fn skip(what: &str, reason: &str) {
    let mut t = Tally::default();
    t.skip(reason);
    t.finish(what, &[]);
}

/// The cases of one test: passed, failed, and skipped with their reasons.
#[derive(Default)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    skipped: BTreeMap<String, usize>,
}

impl Tally {
    /// Counts one case that could not run because of `reason`.
    pub fn skip(&mut self, reason: &str) {
        *self.skipped.entry(reason.to_string()).or_default() += 1;
    }

    /// The number of skipped cases.
    pub fn skipped(&self) -> usize {
        self.skipped.values().sum()
    }

    /// `12 passed, 0 failed, 3 skipped (qemu-riscv64 missing)`.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} passed, {} failed, {} skipped",
            self.passed,
            self.failed,
            self.skipped()
        );
        if !self.skipped.is_empty() {
            let reasons: Vec<&str> = self.skipped.keys().map(String::as_str).collect();
            s.push_str(&format!(" ({})", reasons.join("; ")));
        }
        s
    }

    /// Prints `what: <summary>`, then panics when a case failed (with the
    /// failure messages) or, under CI, when one was skipped.
    pub fn finish(&self, what: &str, failures: &[String]) {
        report(&format!("{what}: {}", self.summary()));
        assert!(
            failures.is_empty() && self.failed == 0,
            "{what}: {}\n{}",
            self.summary(),
            failures.join("\n\n")
        );
        assert!(
            self.skipped.is_empty() || !under_ci(),
            "{what}: {}; CI=true makes a missing tool a failure",
            self.summary()
        );
    }
}
