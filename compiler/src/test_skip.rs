//! What the library's unit tests do when a tool they compare against (gcc,
//! a cross gcc, QEMU, Csmith, a target's glibc headers) is missing: the skip
//! is printed, and under CI (`CI=true`) it is a failure, so a machine
//! without the tools cannot pass while comparing nothing. The integration
//! tests have the same rule with a tally (`compiler/tests/support/skip.rs`).

/// Reports that `what` could not run because `reason`; panics under CI.
pub(crate) fn tool_missing(what: &str, reason: &str) {
    eprintln!("SKIPPED {what}: {reason}");
    assert!(
        !std::env::var("CI").is_ok_and(|v| v == "true"),
        "{what}: {reason}; CI=true makes a missing tool a failure"
    );
}
