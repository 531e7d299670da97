//! `tempo pair --system dutch` (owned by the Dutch engine work).

use super::pair::PairArgs;

pub fn run(_args: &PairArgs) -> anyhow::Result<()> {
    anyhow::bail!("the Dutch pairing engine is not built yet")
}
