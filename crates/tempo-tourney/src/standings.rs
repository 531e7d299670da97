//! Standings: players ordered by score, then by a list of tie-breaks.
//!
//! Each tie-break only orders players still tied on the score and every
//! earlier tie-break; direct encounter is computed within those groups.
//! Players tied on everything share a rank and are listed by starting rank.
//!
//! ```
//! use tempo_tourney::standings::{standings, StandingsOptions};
//! use tempo_chess::Color;
//! use tempo_tourney::{Player, ResultCode, RoundEntry, Tournament};
//! let mut t = Tournament::new();
//! let mut a = Player::new(1, "A", Some(1800));
//! a.set_entry(1, RoundEntry::game(2, Color::White, ResultCode::Loss));
//! let mut b = Player::new(2, "B", Some(1700));
//! b.set_entry(1, RoundEntry::game(1, Color::Black, ResultCode::Win));
//! t.players = vec![a, b];
//! let s = standings(&t, &StandingsOptions::swiss());
//! assert_eq!(s.rows[0].id, 2);
//! assert_eq!(s.rows[0].rank, 1);
//! ```

use serde::Serialize;

use crate::Tournament;
use crate::model::PlayerId;
use crate::points::Points;
use crate::tiebreak::{self, Calculator, TieBreak, Value};

/// What to rank by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingsOptions {
    pub tiebreaks: Vec<TieBreak>,
    pub tiebreak_options: tiebreak::Options,
}

impl StandingsOptions {
    /// A Swiss tournament with tempo's default tie-breaks.
    pub fn swiss() -> StandingsOptions {
        StandingsOptions {
            tiebreaks: TieBreak::swiss_default(),
            tiebreak_options: tiebreak::Options::default(),
        }
    }

    /// A round robin with tempo's default tie-breaks.
    pub fn round_robin() -> StandingsOptions {
        StandingsOptions {
            tiebreaks: TieBreak::round_robin_default(),
            tiebreak_options: tiebreak::Options {
                round_robin: true,
                ..tiebreak::Options::default()
            },
        }
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Place; players tied on everything share it.
    pub rank: u32,
    /// Starting rank.
    pub id: PlayerId,
    pub name: String,
    pub rating: Option<u16>,
    #[serde(serialize_with = "points_as_number")]
    pub score: Points,
    /// One value per tie-break, in the order of [`Standings::tiebreaks`].
    pub values: Vec<Value>,
}

fn points_as_number<S: serde::Serializer>(p: &Points, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(p.as_f64())
}

/// The ranked players.
#[derive(Debug, Clone, PartialEq)]
pub struct Standings {
    /// The rounds counted.
    pub rounds: u32,
    pub tiebreaks: Vec<TieBreak>,
    pub rows: Vec<Row>,
}

/// Ranks the players of a tournament.
pub fn standings(t: &Tournament, options: &StandingsOptions) -> Standings {
    let calc = Calculator::new(t, options.tiebreak_options);
    let tbs = &options.tiebreaks;
    let mut rows: Vec<Row> = t
        .players
        .iter()
        .map(|p| Row {
            rank: 0,
            id: p.id,
            name: p.name.clone(),
            rating: p.rating,
            score: calc.score(p.id),
            values: tbs.iter().map(|&tb| calc.value(tb, p.id)).collect(),
        })
        .collect();
    rows.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    // Groups of players still tied, as index ranges into `rows`.
    let mut groups = split(&rows, 0..rows.len(), |r| r.score.tenths().into());
    for (k, &tb) in tbs.iter().enumerate() {
        let mut next = Vec::new();
        for range in groups {
            if range.len() < 2 {
                next.push(range);
                continue;
            }
            if let TieBreak::DirectEncounter { forfeits_played } = tb {
                let ids: Vec<PlayerId> = rows[range.clone()].iter().map(|r| r.id).collect();
                let values = calc.direct_encounter(&ids, forfeits_played);
                for (row, v) in rows[range.clone()].iter_mut().zip(values) {
                    row.values[k] = v;
                }
            }
            let sign = if tb.higher_is_better() { -1 } else { 1 };
            rows[range.clone()].sort_by_key(|r| (sign * r.values[k].hundredths(), r.id));
            next.extend(split(&rows, range, |r| r.values[k].hundredths()));
        }
        groups = next;
    }
    for range in groups {
        let rank = range.start as u32 + 1;
        for row in &mut rows[range] {
            row.rank = rank;
        }
    }
    Standings {
        rounds: calc.rounds(),
        tiebreaks: tbs.clone(),
        rows,
    }
}

/// Splits a sorted range into runs with equal keys.
fn split(
    rows: &[Row],
    range: std::ops::Range<usize>,
    key: impl Fn(&Row) -> i64,
) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = range.start;
    for i in range.start + 1..=range.end {
        if i == range.end || key(&rows[i]) != key(&rows[start]) {
            out.push(start..i);
            start = i;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, ResultCode, RoundEntry};
    use tempo_chess::Color;

    /// Four players, three rounds, a round robin: 1 and 2 tie on 2.0,
    /// 1 beat 2.
    fn small_round_robin() -> Tournament {
        let mut players: Vec<Player> = (1..=4)
            .map(|i| Player::new(i, format!("P{i}"), Some(2000 - 100 * i as u16)))
            .collect();
        let mut game = |r: u32, w: u32, b: u32, res: ResultCode| {
            let back = match res {
                ResultCode::Win => ResultCode::Loss,
                ResultCode::Loss => ResultCode::Win,
                other => other,
            };
            players[w as usize - 1].set_entry(r, RoundEntry::game(b, Color::White, res));
            players[b as usize - 1].set_entry(r, RoundEntry::game(w, Color::Black, back));
        };
        // Berger 4: 1-4 2-3 / 4-3 1-2 / 2-4 3-1
        game(1, 1, 4, ResultCode::Loss);
        game(1, 2, 3, ResultCode::Win);
        game(2, 4, 3, ResultCode::Loss);
        game(2, 1, 2, ResultCode::Win);
        game(3, 2, 4, ResultCode::Win);
        game(3, 3, 1, ResultCode::Loss);
        let mut t = Tournament::new();
        t.players = players;
        t
    }

    #[test]
    fn direct_encounter_decides_a_round_robin_tie() {
        let t = small_round_robin();
        let s = standings(&t, &StandingsOptions::round_robin());
        let order: Vec<(u32, PlayerId, String)> = s
            .rows
            .iter()
            .map(|r| (r.rank, r.id, r.score.to_string()))
            .collect();
        // Scores: 1: 2 (beat 2, 3), 2: 2 (beat 3, 4), 3: 1 (beat 4), 4: 1 (beat 1).
        assert_eq!(
            order,
            [
                (1, 1, "2.0".into()),
                (2, 2, "2.0".into()),
                (3, 3, "1.0".into()),
                (4, 4, "1.0".into())
            ]
        );
        // DE: 1 first of {1, 2}; 4 beat... no: 3 beat 4 in round 2.
        assert_eq!(s.rows[0].values[0], Value::from_int(1));
        assert_eq!(s.rows[1].values[0], Value::from_int(2));
    }

    #[test]
    fn full_ties_share_the_rank() {
        let mut t = Tournament::new();
        t.players = vec![Player::new(1, "A", None), Player::new(2, "B", None)];
        let s = standings(&t, &StandingsOptions::swiss());
        assert_eq!(s.rows.iter().map(|r| r.rank).collect::<Vec<_>>(), [1, 1]);
    }
}
