//! Where the session's shared material is (`../shared/` beside the clone:
//! the bug reports, the real programs' snapshots): `<repo>/../shared/NAME`,
//! or, from a linked git worktree, the one beside the main checkout (the
//! worktree's `--git-common-dir` is `<main>/.git`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `<repo>/../shared/<name>`, else the main checkout's; the first when neither
/// exists (so that the caller's error names the expected place).
pub fn shared_dir(name: &str) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let own = repo.join("../shared").join(name);
    if own.is_dir() {
        return own;
    }
    let common = Command::new("git")
        .args(["rev-parse", "--path-format=absolute", "--git-common-dir"])
        .current_dir(&repo)
        .output();
    if let Ok(o) = common {
        if o.status.success() {
            let git_dir = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
            if let Some(main) = git_dir.parent() {
                let theirs = main.join("../shared").join(name);
                if theirs.is_dir() {
                    return theirs;
                }
            }
        }
    }
    own
}
