//! Runs the Csmith binary (`std::process`) to produce one C program per seed.
//!
//! The option set is chosen for a compiler under construction and for
//! throughput; every program also carries it in its header comment:
//! - `--max-funcs 4`: small programs (a few hundred lines) keep the rate up;
//! - `--no-packed-struct`: `#pragma pack` is outside phicc's C subset;
//! - volatile and pointer features stay on: volatile and address-taken
//!   locals must stay in memory, which is exactly what mem2reg must respect.
//!
//! Programs include `csmith.h`, found in `/usr/include/csmith` (Debian's
//! `libcsmith-dev`); pass that directory with `-I`.

use std::path::PathBuf;

/// How Csmith is invoked.
#[derive(Clone, Debug)]
pub struct CsmithOptions {
    pub binary: PathBuf,
    pub args: Vec<String>,
    pub include_dir: PathBuf,
}

impl Default for CsmithOptions {
    fn default() -> CsmithOptions {
        CsmithOptions {
            binary: PathBuf::from("csmith"),
            args: ["--max-funcs", "4", "--no-packed-struct"].map(String::from).to_vec(),
            include_dir: PathBuf::from("/usr/include/csmith"),
        }
    }
}

impl CsmithOptions {
    /// The program for `seed`.
    pub fn generate(&self, seed: u64) -> anyhow::Result<String> {
        let out = std::process::Command::new(&self.binary)
            .arg("--seed")
            .arg(seed.to_string())
            .args(&self.args)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot run {} ({e}); run scripts/setup.sh --campaign",
                    self.binary.display()
                )
            })?;
        anyhow::ensure!(
            out.status.success() && !out.stdout.is_empty(),
            "{} failed: {}",
            self.command(seed),
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(String::from_utf8(out.stdout)?)
    }

    /// The command line that prints the program for `seed`.
    pub fn command(&self, seed: u64) -> String {
        let mut words = vec![self.binary.display().to_string(), "--seed".into(), seed.to_string()];
        words.extend(self.args.iter().cloned());
        words.join(" ")
    }
}
