//! `tempo pair --system keizer` (owned by the Keizer work).

use clap::Args;

use super::pair::PairArgs;

/// Keizer settings given on the command line.
#[derive(Debug, Args, Default)]
pub struct KeizerFlags {}

pub fn run(_args: &PairArgs) -> anyhow::Result<()> {
    anyhow::bail!("the Keizer pairing is not built yet")
}
