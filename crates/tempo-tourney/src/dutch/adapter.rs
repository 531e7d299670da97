//! From the tournament model ([`crate::Tournament`]) to the engine's input
//! for one round.

use std::collections::HashMap;

use tempo_chess::Color;

use crate::model::{ResultCode, RoundEntry, Tournament};

use super::DutchError;
use super::input::{DutchInput, DutchPlayer, PointValues, RoundRecord};

/// The input for pairing round `round` (1-based) of `t`: rounds before it
/// are history; in round `round` itself a player is paired unless an entry
/// or a `240` record says they take a bye or are absent, or they withdrew.
/// Entries of the round that show a pairing (an opponent or `U`) mark the
/// player as one to pair, so a finished tournament can be re-paired round by
/// round.
pub fn input_for_round(t: &Tournament, round: u32) -> Result<DutchInput, DutchError> {
    if round == 0 {
        return Err(DutchError::Invalid("rounds are numbered from 1".into()));
    }
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by_key(|&i| t.players[i].id);
    let index_of: HashMap<u32, usize> = order
        .iter()
        .enumerate()
        .map(|(pos, &i)| (t.players[i].id, pos))
        .collect();
    if index_of.len() != order.len() {
        return Err(DutchError::Invalid("a pairing number is repeated".into()));
    }
    let played = (round - 1) as usize;
    let ps = &t.point_system;
    let points = PointValues {
        win: tenths(ps.win.tenths())?,
        draw: tenths(ps.draw.tenths())?,
        loss: tenths(ps.loss.tenths())?,
        absent: tenths(ps.zero_bye.tenths())?,
        forfeit_loss: tenths(ps.forfeit_loss.tenths())?,
        pab: tenths(ps.pairing_bye_points().tenths())?,
    };
    // Forbidden pairs that apply to this round.
    let mut forbidden: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
    for f in &t.forbidden_pairs {
        if f.rounds.is_some_and(|(a, b)| round < a || round > b) {
            continue;
        }
        let members: Vec<usize> = f
            .players
            .iter()
            .filter_map(|id| index_of.get(id).copied())
            .collect();
        for &a in &members {
            for &b in &members {
                if a != b {
                    forbidden[a].push(b);
                }
            }
        }
    }
    let mut players = Vec::with_capacity(order.len());
    for (pos, &i) in order.iter().enumerate() {
        let p = &t.players[i];
        let mut history = Vec::with_capacity(played);
        for r in 1..round {
            let record = match p.entry(r) {
                Some(e) => record_of(e, &index_of, p.id, r)?,
                None => RoundRecord::absent(),
            };
            history.push(record);
        }
        let accelerations = (1..=round)
            .map(|r| tenths(t.acceleration(p.id, r).tenths()))
            .collect::<Result<Vec<_>, _>>()?;
        let available = match p.entry(round) {
            Some(e) if e.was_paired() => true,
            Some(e) if e.result != ResultCode::Blank || e.opponent.is_some() => false,
            _ => t.requested_bye(p.id, round).is_none() && t.is_active_in(p.id, round),
        };
        players.push(DutchPlayer {
            id: p.id,
            history,
            accelerations,
            forbidden: std::mem::take(&mut forbidden[pos]),
            available,
        });
    }
    let rounds_total = t
        .total_rounds
        .unwrap_or(0)
        .max(t.paired_rounds())
        .max(round) as usize;
    Ok(DutchInput {
        players,
        rounds_played: played,
        rounds_total,
        points,
        initial_colour: t.first_colour().unwrap_or(Color::White),
    })
}

fn tenths(value: i32) -> Result<u32, DutchError> {
    u32::try_from(value).map_err(|_| DutchError::Invalid(format!("negative points value {value}")))
}

fn record_of(
    e: &RoundEntry,
    index_of: &HashMap<u32, usize>,
    id: u32,
    round: u32,
) -> Result<RoundRecord, DutchError> {
    let opponent = match e.opponent {
        Some(o) => Some(*index_of.get(&o).ok_or_else(|| {
            DutchError::Invalid(format!(
                "player {id}, round {round}: opponent {o} does not exist"
            ))
        })?),
        None => None,
    };
    Ok(RoundRecord {
        opponent,
        colour: e.colour,
        played: e.is_played(),
        outcome: e.result.outcome(),
        paired: e.was_paired(),
    })
}
