//! The FIDE Dutch system (C.04.3, edition 1 February 2026) for `tempo
//! check`, which re-pairs recorded rounds, and the reference engines'
//! pairing format `tempo pair` and `tempo check` write.

use tempo_tourney::Tournament;
use tempo_tourney::dutch::{DutchError, DutchPairing, input_for_round, pair};

use super::CodedError;

/// Exit code of `tempo pair --system dutch` when no valid pairing exists.
pub(crate) const NO_VALID_PAIRING: u8 = 3;

/// Pair round `round` of `t`, mapping "no valid pairing" to exit code 3.
pub(crate) fn pair_round(t: &Tournament, round: u32) -> anyhow::Result<DutchPairing> {
    let input = input_for_round(t, round)?;
    pair(&input).map_err(|e| match e {
        DutchError::NoValidPairing => anyhow::Error::new(CodedError {
            code: NO_VALID_PAIRING,
            message: format!("round {round}: {e}"),
        }),
        other => anyhow::Error::new(other),
    })
}

/// The reference engines' pairing format: the number of lines, then
/// `white black` per board in board order, the bye as `id 0`.
pub(crate) fn render(boards: &[(u32, u32)], bye: Option<u32>) -> String {
    let mut out = format!("{}\n", boards.len() + usize::from(bye.is_some()));
    for (white, black) in boards {
        out += &format!("{white} {black}\n");
    }
    if let Some(bye) = bye {
        out += &format!("{bye} 0\n");
    }
    out
}
