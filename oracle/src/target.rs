//! The targets and compiler configurations a differential run crosses.
//!
//! A [`Target`] names an ISA with its GNU toolchain driver (which assembles
//! and links static binaries) and the QEMU user-mode emulator that runs them
//! when the host is another ISA. A [`Config`] is one way of running phicc's
//! pipeline (docs/architecture.md#configurations): `nomem2reg`
//! keeps every local in memory, `mem2reg` runs mem2reg, copy propagation and
//! phi elimination, `opt` the full pipeline at `-O1`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// An ISA phicc compiles for (Linux, glibc, static linking).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    X86_64,
    Aarch64,
    Riscv64,
}

impl Target {
    pub const ALL: [Target; 3] = [Target::X86_64, Target::Aarch64, Target::Riscv64];

    /// The name used by `phicc --target=` and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::X86_64 => "x86_64",
            Target::Aarch64 => "aarch64",
            Target::Riscv64 => "riscv64",
        }
    }

    /// The gcc driver that compiles, assembles and links for this target.
    pub fn gcc(self) -> &'static str {
        if self == Target::host() {
            return "gcc";
        }
        match self {
            Target::X86_64 => "x86_64-linux-gnu-gcc",
            Target::Aarch64 => "aarch64-linux-gnu-gcc",
            Target::Riscv64 => "riscv64-linux-gnu-gcc",
        }
    }

    /// The QEMU user-mode emulator for this target, or `None` when the host runs it natively.
    pub fn emulator(self) -> Option<&'static str> {
        if self == Target::host() {
            return None;
        }
        Some(match self {
            Target::X86_64 => "qemu-x86_64",
            Target::Aarch64 => "qemu-aarch64",
            Target::Riscv64 => "qemu-riscv64",
        })
    }

    /// The ISA of the machine oracle runs on.
    pub fn host() -> Target {
        if cfg!(target_arch = "aarch64") {
            Target::Aarch64
        } else if cfg!(target_arch = "riscv64") {
            Target::Riscv64
        } else {
            Target::X86_64
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        match s {
            "x86_64" | "x86-64" | "amd64" => Ok(Target::X86_64),
            "aarch64" | "arm64" => Ok(Target::Aarch64),
            "riscv64" | "rv64" => Ok(Target::Riscv64),
            _ => Err(format!("unknown target `{s}` (expected x86_64, aarch64 or riscv64)")),
        }
    }
}

/// A configuration of phicc's pipeline that the harness compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Config {
    /// Lowering -> phi elimination (a no-op) -> backend: every local stays in memory.
    Nomem2reg,
    /// Lowering -> mem2reg -> mem2reg-params -> copy propagation -> phi elimination -> backend.
    Mem2reg,
    /// The full optimizing pipeline (`-O1`).
    Opt,
}

impl Config {
    pub const DEFAULT: [Config; 2] = [Config::Nomem2reg, Config::Mem2reg];

    pub fn name(self) -> &'static str {
        match self {
            Config::Nomem2reg => "nomem2reg",
            Config::Mem2reg => "mem2reg",
            Config::Opt => "opt",
        }
    }

    /// The phicc flags that select this configuration.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            Config::Nomem2reg => &["-fno-mem2reg"],
            Config::Mem2reg => &[],
            Config::Opt => &["-O1"],
        }
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Config {
    type Err = String;
    fn from_str(s: &str) -> Result<Config, String> {
        match s {
            "nomem2reg" => Ok(Config::Nomem2reg),
            "mem2reg" => Ok(Config::Mem2reg),
            "opt" => Ok(Config::Opt),
            _ => Err(format!(
                "unknown configuration `{s}` (expected nomem2reg, mem2reg or opt)"
            )),
        }
    }
}

/// Parse a comma-separated list (`x86_64,aarch64`), keeping the given order and dropping repeats.
pub fn parse_list<T: FromStr<Err = String> + PartialEq>(s: &str) -> Result<Vec<T>, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let v = part.parse::<T>()?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err("empty list".to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_in_order_without_repeats() {
        let t: Vec<Target> = parse_list("riscv64,x86_64,riscv64").unwrap();
        assert_eq!(t, vec![Target::Riscv64, Target::X86_64]);
        assert!(parse_list::<Config>("mem2reg,bogus").is_err());
        assert!(parse_list::<Config>("").is_err());
    }

    #[test]
    fn the_host_runs_natively_and_others_under_qemu() {
        assert_eq!(Target::host().emulator(), None);
        assert_eq!(Target::host().gcc(), "gcc");
        let other = Target::ALL.into_iter().find(|t| *t != Target::host()).unwrap();
        assert!(other.emulator().unwrap().starts_with("qemu-"));
    }
}
