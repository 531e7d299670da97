//! `tempo pair --system dutch --trf FILE [-o OUT]`: the next round by the
//! FIDE Dutch system (C.04.3, edition 1 February 2026).
//!
//! Output (the reference engines' format): the number of pairs, then one
//! `white black` line per board in board order, the pairing-allocated bye
//! as `id 0`. When no pairing satisfies the absolute criteria, the command
//! prints one line and exits with code 3 ([`NO_VALID_PAIRING`]).

use anyhow::Context;
use tempo_tourney::Tournament;
use tempo_tourney::dutch::{DutchError, DutchPairing, input_for_round, pair};

use super::CodedError;
use super::pair::PairArgs;

/// Exit code of `tempo pair --system dutch` when no valid pairing exists.
pub const NO_VALID_PAIRING: u8 = 3;

pub fn run(args: &PairArgs) -> anyhow::Result<()> {
    let t = super::read_tournament(&args.trf)?;
    let round = t.paired_rounds() + 1;
    let total = t
        .total_rounds
        .context("the total number of rounds is not given: add an 'XXR <rounds>' or '142' line")?;
    if round > total {
        anyhow::bail!("all {total} rounds are paired already");
    }
    t.check_results_entered(round - 1)
        .with_context(|| args.trf.display().to_string())?;
    let pairing = pair_round(&t, round)?;
    let text = render(&pairing);
    print!("{text}");
    if let Some(out) = &args.output {
        std::fs::write(out, &text).with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

/// Pair round `round` of `t`, mapping "no valid pairing" to exit code 3.
pub fn pair_round(t: &Tournament, round: u32) -> anyhow::Result<DutchPairing> {
    let input = input_for_round(t, round)?;
    pair(&input).map_err(|e| match e {
        DutchError::NoValidPairing => anyhow::Error::new(CodedError {
            code: NO_VALID_PAIRING,
            message: format!("round {round}: {e}"),
        }),
        other => anyhow::Error::new(other),
    })
}

/// The reference engines' pairing format.
pub fn render(p: &DutchPairing) -> String {
    let mut out = format!("{}\n", p.boards.len() + usize::from(p.bye.is_some()));
    for (white, black) in &p.boards {
        out += &format!("{white} {black}\n");
    }
    if let Some(bye) = p.bye {
        out += &format!("{bye} 0\n");
    }
    out
}
