//! Reading a Keizer season from a TRF [`Tournament`].
//!
//! Each player's round entry becomes a [`RoundOutcome`]:
//!
//! | TRF entry | Keizer |
//! |---|---|
//! | game `1 = 0 W D L` with an opponent | a game |
//! | `+` / `-` with an opponent | forfeit win (scored like a bye) / forfeit loss (like an unexcused absence) |
//! | `0000 - U` | the pairing-allocated bye |
//! | an `XTA` absence record for the round | that kind: excused, unexcused, club duty |
//! | otherwise `H` | excused absence |
//! | otherwise `F` | club duty |
//! | otherwise `Z`, `-`, blank or no entry | unexcused absence |
//! | a round before the player's late entry (`XTL`) | not entered |
//! | a round after the player's withdrawal (`XTW`) | unexcused absence |
//!
//! The starting list is the players ordered by starting rank (TRF id).

use super::Entrant;
use super::{KeizerError, KeizerSettings, Pairing, Ranking, RoundOutcome, Season};
use crate::model::{AbsenceKind, PlayerId, ResultCode, Tournament};

/// The season recorded in `t`: its completed rounds are the paired ones
/// ([`Tournament::paired_rounds`]).
pub fn season_from_tournament(t: &Tournament) -> Result<Season, KeizerError> {
    let rounds = t.paired_rounds();
    let mut players: Vec<_> = t.players.iter().collect();
    players.sort_by_key(|p| p.id);
    let mut season = Season {
        players: Vec::with_capacity(players.len()),
        rounds,
    };
    for p in players {
        let mut entrant = Entrant {
            id: p.id,
            name: p.name.clone(),
            rating: p.rating,
            rounds: Vec::with_capacity(rounds as usize),
        };
        for r in 1..=rounds {
            entrant.rounds.push(outcome(t, p.id, r)?);
        }
        season.players.push(entrant);
    }
    season.validate()?;
    Ok(season)
}

fn outcome(t: &Tournament, id: PlayerId, round: u32) -> Result<RoundOutcome, KeizerError> {
    let joined = t
        .late_entries
        .iter()
        .filter(|l| l.player == id)
        .all(|l| l.first_round <= round);
    if !joined {
        return Ok(RoundOutcome::NotEntered);
    }
    if !t.is_active_in(id, round) {
        return Ok(RoundOutcome::Absent(AbsenceKind::Unexcused));
    }
    let entry = t.entry(id, round);
    if let Some(e) = entry {
        if let Some(opponent) = e.opponent {
            return match e.result {
                ResultCode::ForfeitWin => Ok(RoundOutcome::ForfeitWin { opponent }),
                ResultCode::ForfeitLoss => Ok(RoundOutcome::ForfeitLoss { opponent }),
                r if r.is_over_the_board() => Ok(RoundOutcome::Game {
                    opponent,
                    colour: e.colour,
                    result: r.outcome(),
                }),
                _ => Err(KeizerError::MissingResult { round, player: id }),
            };
        }
        if e.result == ResultCode::PairingBye {
            return Ok(RoundOutcome::Bye);
        }
    }
    if let Some(kind) = t.absence_kind(id, round) {
        return Ok(RoundOutcome::Absent(kind));
    }
    Ok(RoundOutcome::Absent(match entry.map(|e| e.result) {
        Some(ResultCode::HalfPointBye) => AbsenceKind::Excused,
        Some(ResultCode::FullPointBye) => AbsenceKind::ClubDuty,
        _ => AbsenceKind::Unexcused,
    }))
}

/// The Keizer settings stored in `t` (`XTK key value` lines, applied in
/// file order to the defaults).
pub fn settings_from_tournament(t: &Tournament) -> Result<KeizerSettings, KeizerError> {
    let mut s = KeizerSettings::default();
    for (k, v) in &t.keizer_settings {
        s.apply(k, v)?;
    }
    Ok(s)
}

/// The players to pair in `round`: in the tournament then (entered, not
/// withdrawn) and not marked absent for it: an entry without opponent
/// (`0000 - H`, `F`, `Z`, `-`), a `240` bye request, or an `XTA` absence.
pub fn present_players(t: &Tournament, round: u32) -> Vec<PlayerId> {
    let marked_absent = |id: PlayerId| {
        t.entry(id, round).is_some_and(|e| {
            e.opponent.is_none() && !matches!(e.result, ResultCode::Blank | ResultCode::PairingBye)
        })
    };
    let mut ids: Vec<PlayerId> = t
        .players
        .iter()
        .map(|p| p.id)
        .filter(|&id| {
            t.is_active_in(id, round)
                && !marked_absent(id)
                && t.requested_bye(id, round).is_none()
                && t.absence_kind(id, round).is_none()
        })
        .collect();
    ids.sort_unstable();
    ids
}

/// The Keizer ranking of `t` after `after_round` rounds (default: all
/// paired rounds).
pub fn standings(
    t: &Tournament,
    settings: &KeizerSettings,
    after_round: Option<u32>,
) -> Result<Ranking, KeizerError> {
    let season = season_from_tournament(t)?;
    season.ranking(settings, after_round.unwrap_or(season.rounds))
}

/// Pairs the next round of `t` for its present players, keeping the
/// director's forbidden pairs (`260` / `XXP`) apart where possible.
pub fn pair_tournament(t: &Tournament, settings: &KeizerSettings) -> Result<Pairing, KeizerError> {
    let season = season_from_tournament(t)?;
    let round = season.rounds + 1;
    let present = present_players(t, round);
    season.pair_next(settings, &present, &|a, b| t.is_forbidden_pair(a, b, round))
}
