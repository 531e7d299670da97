//! What the printouts a director pins to the wall show, as typed views:
//! the pairing list of a round (starting numbers, ratings, points before
//! the round, who has a bye or is away) and the chart of every player's
//! rounds (opponent, colour, result, running total, rank) from which the
//! web app draws the crosstable and the wall chart. Pure: no storage, no
//! HTTP.

use std::collections::BTreeMap;

use serde::Serialize;
use tempo_chess::Color;
use tempo_tourney::{ByeKind, PlayerId, ResultCode};
use utoipa::ToSchema;

use super::view::{Chess960View, SeatLinks, StandingRow, round as round_view, standings_rows};
use super::{Record, RoundMode, System};

/// A player as a printout names them.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SheetPlayer {
    /// The starting number.
    pub player: PlayerId,
    pub name: String,
    pub rating: Option<u16>,
    /// Points before the round (Keizer: the Keizer score then).
    pub points: f64,
}

/// One board of the pairing list.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub(crate) struct SheetBoard {
    pub board: u32,
    pub white: SheetPlayer,
    pub black: SheetPlayer,
    /// `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, or null while it has none.
    pub result: Option<String>,
    /// A table game's display (`/table/{gameId}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display: Option<String>,
    /// A table game's seat links, for the tournament's directors only (the
    /// seat cards of the print).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<SeatLinks>,
}

/// A player of the round without a board: a bye or an absence.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub(crate) struct AwayView {
    #[serde(flatten)]
    pub player: SheetPlayer,
    /// `pairing-bye` (the pairing's bye), `half-point-bye`,
    /// `full-point-bye` (asked for), `excused`, `unexcused`, `club-duty`,
    /// or `absent` (nothing recorded).
    pub status: String,
}

/// The pairing list of a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PairingList {
    pub round: u32,
    pub name: String,
    /// `dutch`, `keizer` or `round-robin`.
    pub system: String,
    pub total_rounds: Option<u32>,
    pub boards: Vec<SheetBoard>,
    /// Byes and absences, by starting number.
    pub away: Vec<AwayView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chess960: Option<Chess960View>,
    /// `table` for a round played at tables (its boards' seat cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<RoundMode>,
}

/// Each player's points before `round`: game points, or for Keizer the
/// Keizer score after the round before (none before round 1).
fn points_before(record: &Record, round: u32) -> BTreeMap<PlayerId, f64> {
    let t = &record.t;
    if record.s.system == System::Keizer {
        if round <= 1 {
            return t.players.iter().map(|p| (p.id, 0.0)).collect();
        }
        if let Ok(view) = standings_rows(record, Some(round - 1)) {
            return view
                .rows
                .iter()
                .map(|row| match row {
                    StandingRow::Keizer(k) => (k.player, k.score),
                    StandingRow::Points(p) => (p.player, p.score),
                })
                .collect();
        }
    }
    t.players
        .iter()
        .map(|p| (p.id, t.score_after(p.id, round.saturating_sub(1)).as_f64()))
        .collect()
}

fn sheet_player(record: &Record, id: PlayerId, before: &BTreeMap<PlayerId, f64>) -> SheetPlayer {
    let p = record.t.player(id);
    SheetPlayer {
        player: id,
        name: p.map_or_else(|| format!("#{id}"), |p| p.name.clone()),
        rating: p.and_then(|p| p.rating),
        points: before.get(&id).copied().unwrap_or(0.0),
    }
}

/// The pairing list of a paired round, or `None` for a round not paired.
pub(crate) fn pairing_list(record: &Record, round: u32) -> Option<PairingList> {
    record.boards(round)?;
    let before = points_before(record, round);
    let view = round_view(record, round);
    let boards = view
        .boards
        .into_iter()
        .map(|b| SheetBoard {
            board: b.board,
            white: sheet_player(record, b.white, &before),
            black: sheet_player(record, b.black, &before),
            result: b.result,
            display: b.display,
            seats: None,
        })
        .collect();
    Some(PairingList {
        round,
        name: record.name(),
        system: record.s.system.as_str().to_string(),
        total_rounds: record.t.total_rounds,
        boards,
        away: view
            .away
            .into_iter()
            .map(|a| AwayView {
                player: sheet_player(record, a.player, &before),
                status: a.status,
            })
            .collect(),
        chess960: view.chess960,
        mode: view.mode,
    })
}

/// One player's round in the chart.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ChartCell {
    pub round: u32,
    /// `game` (played, forfeited, or its result to come), `pairing-bye`,
    /// `half-point-bye`, `full-point-bye`, `absent`, or `open` (not paired
    /// yet).
    pub kind: String,
    pub opponent: Option<PlayerId>,
    /// The opponent's rank in the chart.
    pub opponent_rank: Option<u32>,
    /// `white` or `black`.
    pub colour: Option<String>,
    /// A game's result for this player: `1`, `½`, `0`, `+` (won by
    /// forfeit), `−` (lost by forfeit); null while it has none.
    pub result: Option<String>,
    /// Why the player was away (`excused`, `unexcused`, `club-duty`), for
    /// an absence.
    pub status: Option<String>,
    /// The points a bye or an absence earned in this round (null for a
    /// game: its `result` says).
    pub points: Option<f64>,
    /// Points after this round (null for a round not paired yet or a game
    /// still without its result).
    pub total: Option<f64>,
}

/// One player's line of the chart.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub(crate) struct ChartRow {
    /// The rank in the standings after `after` (null before any complete
    /// round).
    pub rank: Option<u32>,
    pub player: PlayerId,
    pub name: String,
    pub rating: Option<u16>,
    pub club: Option<String>,
    /// Points over the paired rounds.
    pub points: f64,
    pub cells: Vec<ChartCell>,
}

/// Every player's rounds, in rank order, for the crosstable and the wall
/// chart.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ChartView {
    pub name: String,
    /// `dutch`, `keizer` or `round-robin`.
    pub system: String,
    /// The paired rounds.
    pub rounds: u32,
    /// The rounds the tournament has (its wall chart's columns).
    pub total_rounds: u32,
    /// The ranks are the standings after this round (0: none yet).
    pub after: u32,
    /// By rank, then starting number.
    pub rows: Vec<ChartRow>,
}

/// A game's result as a printout writes it for the player.
fn result_symbol(code: ResultCode) -> Option<&'static str> {
    use ResultCode::*;
    Some(match code {
        Win | UnratedWin => "1",
        Draw | UnratedDraw => "½",
        Loss | UnratedLoss => "0",
        ForfeitWin => "+",
        ForfeitLoss => "−",
        _ => return None,
    })
}

/// The ranks of the standings after the last complete round.
fn ranks(record: &Record) -> (u32, BTreeMap<PlayerId, u32>) {
    let complete = record.complete_rounds();
    if complete == 0 {
        return (0, BTreeMap::new());
    }
    let Ok(view) = standings_rows(record, Some(complete)) else {
        return (0, BTreeMap::new());
    };
    let ranks = view
        .rows
        .iter()
        .map(|row| match row {
            StandingRow::Keizer(k) => (k.player, k.rank as u32),
            StandingRow::Points(p) => (p.player, p.rank),
        })
        .collect();
    (view.round, ranks)
}

/// Every player's rounds, opponent ranks and running totals.
pub(crate) fn chart(record: &Record) -> ChartView {
    let t = &record.t;
    let paired = t.paired_rounds();
    let total_rounds = t.total_rounds.unwrap_or(paired).max(paired);
    let (after, ranks) = ranks(record);
    // The pairing's bye of each round (a round robin's free round is a
    // zero-point entry that would otherwise read as an absence).
    let byes: BTreeMap<u32, PlayerId> = (1..=paired)
        .filter_map(|r| Some((r, record.boards(r)?.bye?)))
        .collect();
    let mut rows: Vec<ChartRow> = t
        .players
        .iter()
        .map(|p| {
            // The running total after each paired round (index 0: none yet).
            let totals: Vec<f64> = std::iter::once(0.0)
                .chain((1..=paired).scan(0.0, |sum, r| {
                    *sum += t.round_points(p.id, r).as_f64();
                    Some(*sum)
                }))
                .collect();
            let cells = (1..=total_rounds)
                .map(|r| {
                    let entry = p.entry(r).filter(|_| r <= paired);
                    let open = ChartCell {
                        round: r,
                        kind: "open".into(),
                        opponent: None,
                        opponent_rank: None,
                        colour: None,
                        result: None,
                        status: None,
                        points: None,
                        total: None,
                    };
                    if r > paired {
                        return open;
                    }
                    let ri = r as usize;
                    let total = Some(totals[ri]);
                    let earned = totals[ri] - totals[ri - 1];
                    if byes.get(&r) == Some(&p.id) {
                        return ChartCell {
                            kind: "pairing-bye".into(),
                            points: Some(earned),
                            total,
                            ..open
                        };
                    }
                    let status = record.status(p.id, r).map(|s| s.as_str().to_string());
                    let Some(e) = entry else {
                        // Not paired in a paired round: away.
                        let absent = record.t.is_active_in(p.id, r);
                        return ChartCell {
                            kind: if absent { "absent" } else { "open" }.into(),
                            status,
                            total: absent.then_some(total).flatten(),
                            ..open
                        };
                    };
                    if let Some(o) = e.opponent {
                        return ChartCell {
                            kind: "game".into(),
                            opponent: Some(o),
                            opponent_rank: ranks.get(&o).copied(),
                            colour: e.colour.map(|c| {
                                if c == Color::White { "white" } else { "black" }.to_string()
                            }),
                            result: result_symbol(e.result).map(str::to_string),
                            // No total while the game has no result: the
                            // wall chart's cell is filled in later.
                            total: result_symbol(e.result).and(total),
                            ..open
                        };
                    }
                    let kind = match e.bye_kind() {
                        // An imported round's bye (no board order stored).
                        Some(ByeKind::PairingAllocated) => "pairing-bye",
                        Some(ByeKind::HalfPoint) => "half-point-bye",
                        Some(ByeKind::FullPoint) => "full-point-bye",
                        // A forfeit against nobody (a round robin's absent
                        // opponent) reads as its result.
                        _ if result_symbol(e.result).is_some() => "game",
                        _ => "absent",
                    };
                    ChartCell {
                        kind: kind.into(),
                        points: (kind != "game").then_some(earned),
                        result: result_symbol(e.result).map(str::to_string),
                        status: (kind == "absent").then_some(status).flatten(),
                        total,
                        ..open
                    }
                })
                .collect();
            ChartRow {
                rank: ranks.get(&p.id).copied(),
                player: p.id,
                name: p.name.clone(),
                rating: p.rating,
                club: p.club.clone(),
                points: totals[paired as usize],
                cells,
            }
        })
        .collect();
    rows.sort_by_key(|r| (r.rank.unwrap_or(u32::MAX), r.player));
    ChartView {
        name: record.name(),
        system: record.s.system.as_str().to_string(),
        rounds: paired,
        total_rounds,
        after,
        rows,
    }
}
