//! Runs the Csmith binary (through the runner) to produce one C program per seed.
//!
//! Campaigns run Csmith with its own default options (issue 17: packed
//! structs, `#pragma pack`, included; no `--max-funcs`), as every other Csmith
//! user does; every program carries its options in its header comment.
//! `--csmith-args "--max-funcs 4 --no-packed-struct"` is the set campaigns
//! used before: programs a third the size, about 2.2 times as many
//! per minute (docs/results.md#campaigns), at the price of never making a
//! packed struct. `--csmith-args` picks it, or any other set. Volatile
//! and pointer features stay on either way: volatile and address-taken locals
//! must stay in memory, which is exactly what mem2reg must respect.
//!
//! Programs include `csmith.h`, found in `/usr/include/csmith` (Debian's
//! `libcsmith-dev`); pass that directory with `-I`.
//!
//! Csmith runs with mimalloc preloaded (`LD_PRELOAD`, Debian's
//! `libmimalloc2.0`) when the library is installed: Csmith's own generation
//! is the largest single cost of a Csmith campaign (30% of its CPU time,
//! `perf record -a`), and glibc, mostly malloc and free, was 18% of
//! Csmith's own samples; with mimalloc Csmith takes 13-15% less CPU time
//! (docs/results.md#campaigns). The program is the same byte for byte
//! (a test compares them), so a finding's `csmith --seed N` still makes it.

use std::path::PathBuf;

/// How Csmith is invoked.
#[derive(Clone, Debug)]
pub struct CsmithOptions {
    pub binary: PathBuf,
    pub args: Vec<String>,
    pub include_dir: PathBuf,
}

impl Default for CsmithOptions {
    /// Csmith's own default options.
    fn default() -> CsmithOptions {
        CsmithOptions {
            binary: PathBuf::from("csmith"),
            args: Vec::new(),
            include_dir: PathBuf::from("/usr/include/csmith"),
        }
    }
}

impl CsmithOptions {
    /// The program for `seed`.
    pub fn generate(&self, seed: u64) -> anyhow::Result<String> {
        // Through the runner like every other program: Csmith can loop on rare seeds.
        // Csmith writes `platform.info` into its working directory: each run
        // gets its own, so parallel runs never race on one file.
        let cwd = tempfile::Builder::new().prefix("oracle-csmith-").tempdir()?;
        // A relative path to Csmith names it from our directory, not that one.
        let binary = if self.binary.components().count() > 1 {
            std::path::absolute(&self.binary)?
        } else {
            self.binary.clone()
        };
        let mut job = crate::runner::Job::new(&binary)
            .arg("--seed")
            .arg(seed.to_string())
            .args(&self.args)
            .cwd(cwd.path());
        if let Some(lib) = faster_malloc() {
            job = job.env("LD_PRELOAD", lib);
        }
        let limits = crate::runner::Limits {
            output_cap: 16 << 20,
            ..crate::runner::Limits::with_timeout(std::time::Duration::from_secs(60))
        };
        let out = crate::runner::run(&job, &limits).map_err(|e| {
            anyhow::anyhow!(
                "cannot run {} ({e}); run scripts/setup.sh --campaign",
                self.binary.display()
            )
        })?;
        anyhow::ensure!(
            out.termination == crate::runner::Termination::Exited(0)
                && !out.stdout.bytes.is_empty()
                && !out.stdout.truncated,
            "{} failed ({}): {}",
            self.command(seed),
            out.termination.describe(),
            String::from_utf8_lossy(&out.stderr.bytes)
        );
        Ok(String::from_utf8(out.stdout.bytes)?)
    }

    /// The command line that prints the program for `seed`.
    pub fn command(&self, seed: u64) -> String {
        let mut words = vec![self.binary.display().to_string(), "--seed".into(), seed.to_string()];
        words.extend(self.args.iter().cloned());
        words.join(" ")
    }
}

/// Debian's mimalloc for the host, if installed (`libmimalloc2.0`).
pub fn faster_malloc() -> Option<PathBuf> {
    let lib = PathBuf::from(format!(
        "/usr/lib/{}-linux-gnu/libmimalloc.so.2",
        std::env::consts::ARCH
    ));
    lib.is_file().then_some(lib)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// mimalloc under Csmith changes nothing in the program: the text is
    /// what a plain `csmith --seed N` prints (scripts/setup.sh --campaign
    /// installs both, so neither half of the comparison is skipped).
    #[test]
    fn csmith_with_mimalloc_prints_the_same_program() {
        assert!(
            faster_malloc().is_some(),
            "libmimalloc2.0 is missing: run scripts/setup.sh --campaign"
        );
        let csmith = CsmithOptions::default();
        for seed in 1..=6 {
            let dir = tempfile::tempdir().unwrap();
            let plain = std::process::Command::new("csmith")
                .args(["--seed", &seed.to_string()])
                .env_remove("LD_PRELOAD")
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert!(plain.status.success(), "csmith --seed {seed}");
            let ours = csmith.generate(seed).unwrap();
            assert!(ours.as_bytes() == plain.stdout, "seed {seed}: the programs differ");
        }
    }
}
