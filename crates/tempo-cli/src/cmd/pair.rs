//! `tempo pair --system dutch|keizer --trf FILE [-o OUT] [settings]`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{pair_dutch, pair_keizer};

/// The pairing systems `tempo pair` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PairingSystem {
    /// FIDE Dutch Swiss system (C.04.3, edition 1 February 2026).
    Dutch,
    /// Keizer system for club evenings.
    Keizer,
}

/// Pair the next round of a tournament given as a TRF file.
#[derive(Debug, Args)]
pub struct PairArgs {
    /// Pairing system.
    #[arg(long, value_enum)]
    pub system: PairingSystem,
    /// The tournament so far, as a TRF16 / TRF-2026 file.
    #[arg(long)]
    pub trf: PathBuf,
    /// Also write the pairing to this file.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub keizer: pair_keizer::KeizerFlags,
}

pub fn run(args: &PairArgs) -> anyhow::Result<()> {
    match args.system {
        PairingSystem::Dutch => pair_dutch::run(args),
        PairingSystem::Keizer => pair_keizer::run(args),
    }
}
