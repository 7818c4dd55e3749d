//! The targets and compiler configurations a differential run crosses.
//!
//! A [`Target`] is phicc's own (`phicc::target`, the one target table): an
//! ISA with its GNU toolchain driver (which assembles and links static
//! binaries) and the QEMU user-mode emulator that runs them when the host is
//! another ISA. A [`Config`] is one way of running phicc's pipeline
//! (docs/architecture.md#configurations): `nomem2reg` keeps
//! every local in memory, `mem2reg` runs mem2reg, copy propagation and phi
//! elimination, `opt` the full pipeline at `-O1`.

pub use phicc::target::Target;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The ISA of the machine oracle runs on (the target of host-reference
/// runs); x86-64 on a host that is none of the targets, where every target's
/// binaries run under QEMU.
pub fn host() -> Target {
    Target::host().unwrap_or(Target::X86_64)
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
    fn targets_serialize_as_their_names() {
        for t in Target::ALL {
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{}\"", t.name()));
            assert_eq!(serde_json::from_str::<Target>(&json).unwrap(), t);
        }
        assert!(serde_json::from_str::<Target>("\"sparc\"").is_err());
    }
}
