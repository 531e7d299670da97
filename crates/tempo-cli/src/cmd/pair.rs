//! `tempo pair --system dutch|keizer --trf FILE [-o OUT] [settings]`: the
//! next round through [`tempo_tourney::pairing::pair_next`], the entry point
//! the server uses too.
//!
//! Output (the reference engines' format): the number of pairs, then one
//! `white black` line per board in board order, the bye as `id 0`. When no
//! pairing satisfies the absolute criteria, the command prints one line and
//! exits with code 3 ([`NO_VALID_PAIRING`]).

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use tempo_tourney::System;
use tempo_tourney::dutch::DutchError;
use tempo_tourney::pairing::{self, Options, PairingError};

use super::pair_dutch::{NO_VALID_PAIRING, render};
use super::{CodedError, pair_keizer, system_parser};

/// The systems `tempo pair` knows.
const SYSTEMS: [(System, &str); 2] = [
    (System::Dutch, super::generate::DUTCH_HELP),
    (System::Keizer, "Keizer system for club evenings"),
];

/// Pair the next round of a tournament given as a TRF file.
#[derive(Debug, Args)]
pub(crate) struct PairArgs {
    /// Pairing system.
    #[arg(long, value_parser = system_parser(&SYSTEMS))]
    pub system: System,
    /// The tournament so far, as a TRF16 / TRF-2026 file.
    #[arg(long)]
    pub trf: PathBuf,
    /// Also write the pairing to this file.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub keizer: pair_keizer::KeizerFlags,
}

pub(crate) fn run(args: &PairArgs) -> anyhow::Result<()> {
    let t = super::read_tournament(&args.trf)?;
    let options = Options {
        keizer: match args.system {
            System::Keizer => Some(args.keizer.settings_for(&t)?),
            _ => None,
        },
        ..Options::default()
    };
    let pairing = pairing::pair_next(&t, args.system, &options)
        .map_err(|error| command_error(error, &args.trf))?;
    for warning in &pairing.warnings {
        eprintln!("tempo: warning: {warning}");
    }
    let text = render(&pairing.boards, pairing.bye.map(|bye| bye.player));
    print!("{text}");
    if let Some(out) = &args.output {
        std::fs::write(out, &text).with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

/// "No valid pairing" ends with exit code 3; what is to be fixed in the
/// file (a result, the Keizer season) is named with the file.
fn command_error(error: PairingError, trf: &Path) -> anyhow::Error {
    match error {
        PairingError::Dutch {
            error: DutchError::NoValidPairing,
            ..
        } => CodedError {
            code: NO_VALID_PAIRING,
            message: error.to_string(),
        }
        .into(),
        PairingError::MissingResult(_) | PairingError::Keizer(_) => {
            anyhow::Error::new(error).context(trf.display().to_string())
        }
        other => other.into(),
    }
}
