//! A `phicc` for tests that drive the real compiler through a path: a shell
//! script that runs the phicc linked into this oracle (`oracle phicc`).

use std::path::{Path, PathBuf};

/// Writes the script into `dir` and returns its path.
pub fn phicc_script(dir: &Path) -> PathBuf {
    let script = dir.join("phicc");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nexec '{}' phicc \"$@\"\n", env!("CARGO_BIN_EXE_oracle")),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}
