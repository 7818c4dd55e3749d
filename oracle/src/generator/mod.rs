//! Program sources behind one interface: program `index` of a campaign with
//! seed `S` is a pure function of `(S, index)` ([`program_seed`]), whatever
//! the generator, so any program can be regenerated alone and any subset of
//! indices can run on any machine.
//!
//! - `csmith`: the Csmith binary ([`csmith`]), C programs printing a checksum;
//! - `cgen`: our C generator aimed at SSA construction ([`crate::cgen`]), with
//!   one of its emphasis presets;
//! - `irgen`: alloca-form IR ([`crate::irgen`]), checked in process.

pub mod csmith;

use crate::cgen::{CgenConfig, Emphasis};
use crate::irgen::GenMode;
use phicc::ir::module::IrModule;
use serde::{Deserialize, Serialize};

/// Which generator feeds a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum GeneratorKind {
    Csmith,
    Cgen,
    Irgen,
}

impl GeneratorKind {
    pub fn name(self) -> &'static str {
        match self {
            GeneratorKind::Csmith => "csmith",
            GeneratorKind::Cgen => "cgen",
            GeneratorKind::Irgen => "irgen",
        }
    }
}

/// A generated program.
pub enum Program {
    C(String),
    Ir(Box<IrModule>),
}

/// The seed of program `index` of a campaign seeded with `seed` (splitmix64
/// of the pair), kept to 32 bits so every generator accepts it.
pub fn program_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(index)
        .wrapping_add(0x632b_e59b_d9b4_e019);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) & 0xffff_ffff
}

/// A configured program source.
#[derive(Clone, Debug)]
pub struct Generator {
    pub kind: GeneratorKind,
    pub csmith: csmith::CsmithOptions,
    /// The `cgen` preset.
    pub emphasis: Emphasis,
    /// `cgen`: the program of generator seed `s` uses preset
    /// `Emphasis::ALL[s % 6]` instead of [`Generator::emphasis`].
    pub cycle_emphasis: bool,
    pub ir_mode: GenMode,
}

impl Generator {
    pub fn new(kind: GeneratorKind) -> Generator {
        Generator {
            kind,
            csmith: csmith::CsmithOptions::default(),
            emphasis: Emphasis::Default,
            cycle_emphasis: false,
            ir_mode: GenMode::Alloca,
        }
    }

    /// Program `index` of the campaign seeded with `seed`.
    pub fn generate(&self, seed: u64, index: u64) -> anyhow::Result<Program> {
        Ok(match self.kind {
            GeneratorKind::Csmith | GeneratorKind::Cgen => Program::C(self.generate_c(program_seed(seed, index))?),
            GeneratorKind::Irgen => {
                let bytes = crate::irgen::input_bytes(seed, index);
                Program::Ir(Box::new(crate::irgen::generate(&bytes, self.ir_mode)))
            }
        })
    }

    /// The C program of generator seed `s` itself (`csmith --seed s`,
    /// `oracle cgen --seed s`), as `--program-seeds` campaigns use.
    pub fn generate_c(&self, s: u64) -> anyhow::Result<String> {
        match self.kind {
            GeneratorKind::Csmith => self.csmith.generate(s),
            GeneratorKind::Cgen => Ok(crate::cgen::generate(s, &CgenConfig::preset(self.emphasis_of(s)))),
            GeneratorKind::Irgen => anyhow::bail!("irgen programs are not C"),
        }
    }

    /// The `cgen` preset of generator seed `s`.
    pub fn emphasis_of(&self, s: u64) -> Emphasis {
        if self.cycle_emphasis {
            Emphasis::ALL[(s % Emphasis::ALL.len() as u64) as usize]
        } else {
            self.emphasis
        }
    }

    /// The command that prints program `index` on its own.
    pub fn describe(&self, seed: u64, index: u64) -> String {
        match self.kind {
            GeneratorKind::Irgen => format!("irgen input_bytes({seed}, {index}), mode {:?}", self.ir_mode),
            _ => self.describe_c(program_seed(seed, index)),
        }
    }

    /// The command that prints the C program of generator seed `s`.
    pub fn describe_c(&self, s: u64) -> String {
        match self.kind {
            GeneratorKind::Csmith => self.csmith.command(s),
            GeneratorKind::Cgen => format!("oracle cgen --seed {s} --emphasis {}", self.emphasis_of(s).name()),
            GeneratorKind::Irgen => format!("irgen seed {s}"),
        }
    }

    /// Extra `-I` directories the programs need.
    pub fn include_dirs(&self) -> Vec<std::path::PathBuf> {
        match self.kind {
            GeneratorKind::Csmith => vec![self.csmith.include_dir.clone()],
            _ => vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_seeds_are_a_function_of_seed_and_index() {
        assert_eq!(program_seed(1, 2), program_seed(1, 2));
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|i| program_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(program_seed(1, 0), program_seed(2, 0));
    }
}
