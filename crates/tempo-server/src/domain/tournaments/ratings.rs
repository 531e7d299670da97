//! Beside the standings: each player's FIDE rating change for the
//! tournament and a preview of their DWZ (tempo_rating's `fide` and `dwz`).
//!
//! Where the inputs come from:
//!
//! - FIDE: the player's rating is the TRF rating (registration's `rating`,
//!   or the imported file's columns 49-52). K is the player's registered
//!   `fide_k`; without it the regulation's K for what is known: 10 from
//!   2400, 40 for a junior (birth year known, 18 or younger this year)
//!   below 2300, else 20 — a player new to the list (fewer than 30 rated
//!   games) cannot be told from the data, so K 40 for them needs `fide_k`.
//! - DWZ: the player's DWZ and index and their opponents' DWZ are
//!   registration fields (TRF has no DWZ); the age is the evaluation year
//!   minus the birth year (registration's `birth_year`, else the TRF birth
//!   date). The evaluation year is the TRF end date's year (`052`), else
//!   its start date's (`042`), else the current year, which the caller
//!   passes in (the server's clock; this module reads no clock).
//!
//! Only games played over the board count: wins, draws and losses with an
//! opponent (TRF `1 = 0`). Forfeits, byes and games of less than one move
//! (`W D L`) are not rated by either regulation; games against an opponent
//! without the rating concerned are left out. A player without a rating,
//! or without a counted game, has no preview (null). A first DWZ (the
//! Wertungsordnung's simultaneous iteration over the whole tournament) is
//! not computed.

use std::collections::BTreeMap;

use serde::Serialize;
use tempo_rating::dwz::{self, Age, Dwz, Index};
use tempo_rating::fide::{self, KFactor, KFacts, Rating};
use tempo_rating::score::Score;
use tempo_tourney::{Player, PlayerId, ResultCode, Tournament};
use utoipa::ToSchema;

use super::rating_facts::RatingFacts;
use super::{Record, Refusal};

impl Record {
    /// Records a player's rating facts (none given: nothing kept).
    pub fn set_rating_facts(&mut self, id: PlayerId, facts: RatingFacts) -> Result<(), Refusal> {
        self.player(id)?;
        if facts.is_empty() {
            self.s.ratings.remove(&id);
        } else {
            self.s.ratings.insert(id, facts);
        }
        Ok(())
    }
}

/// A player's FIDE rating change for the tournament.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct FidePreview {
    /// The K used (after the K × n ≤ 700 rule).
    pub k: u32,
    /// ΣPD from table 8.1(b).
    pub expected: f64,
    /// K × Σ(W − PD), unrounded.
    pub change: f64,
}

/// A player's DWZ preview.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct DwzPreview {
    pub old: u32,
    pub new: i32,
    /// We = ΣP(D), three decimals.
    pub expected: f64,
    /// The development coefficient E.
    pub e: u32,
}

/// Every player's previews after round `round`.
#[derive(Debug, Default)]
pub(crate) struct Previews {
    pub fide: BTreeMap<PlayerId, FidePreview>,
    pub dwz: BTreeMap<PlayerId, DwzPreview>,
}

/// The rated games of `p` up to `round`: opponent and score.
fn rated_games(p: &Player, round: u32) -> impl Iterator<Item = (PlayerId, Score)> + '_ {
    p.rounds.iter().take(round as usize).filter_map(|e| {
        let score = match e.result {
            ResultCode::Win => Score::Win,
            ResultCode::Draw => Score::Draw,
            ResultCode::Loss => Score::Loss,
            _ => return None,
        };
        Some((e.opponent?, score))
    })
}

/// The year of a TRF date (`YYYY/MM/DD`, `YYYY-MM-DD`, `YYYY.MM.DD`).
fn year_of(text: &str) -> Option<i32> {
    let digits: String = text.trim().chars().take(4).collect();
    (digits.len() == 4 && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// The evaluation year: the TRF end date's, else its start date's, else
/// `this_year`.
fn evaluation_year(t: &Tournament, this_year: i32) -> i32 {
    ["052", "042"]
        .iter()
        .find_map(|tag| {
            t.info
                .iter()
                .find(|l| l.tag == *tag)
                .and_then(|l| year_of(&l.text))
        })
        .unwrap_or(this_year)
}

/// The year (UTC) of `millis` since the epoch: the current year for a
/// clock's reading.
pub(crate) fn year_at(millis: u64) -> i32 {
    year_of(&tempo_host::chain::rfc3339_millis(millis)).unwrap_or(1970)
}

/// The FIDE changes and DWZ previews of every player after `round`;
/// `this_year` is the evaluation year of a TRF without dates.
pub(crate) fn previews(record: &Record, t: &Tournament, round: u32, this_year: i32) -> Previews {
    let year = evaluation_year(t, this_year);
    let facts = |id: PlayerId| record.s.ratings.get(&id);
    let age = |p: &Player| {
        let born = facts(p.id)
            .and_then(|f| f.birth_year.map(i32::from))
            .or_else(|| p.birth_date.as_deref().and_then(year_of))?;
        Age::in_year(year, born)
    };
    let mut out = Previews::default();
    for p in &t.players {
        if let Some(view) = fide_preview(record, t, p, round, age(p)) {
            out.fide.insert(p.id, view);
        }
        if let Some(view) = dwz_preview(record, p, round, age(p)) {
            out.dwz.insert(p.id, view);
        }
    }
    out
}

fn fide_preview(
    record: &Record,
    t: &Tournament,
    p: &Player,
    round: u32,
    age: Option<Age>,
) -> Option<FidePreview> {
    let own = Rating::new(u32::from(p.rating?)).ok()?;
    let games: Vec<fide::Game> = rated_games(p, round)
        .filter_map(|(opponent, score)| {
            let rating = t.player(opponent)?.rating?;
            Some(fide::Game {
                opponent: Rating::new(u32::from(rating)).ok()?,
                score,
            })
        })
        .collect();
    if games.is_empty() {
        return None;
    }
    let k = record
        .s
        .ratings
        .get(&p.id)
        .and_then(|f| f.fide_k)
        .and_then(|k| KFactor::new(u32::from(k)).ok())
        .unwrap_or_else(|| {
            KFactor::by_regulation(
                own,
                KFacts {
                    age_this_year: age.map(Age::value),
                    ..KFacts::default()
                },
            )
        });
    let change = fide::rating_change(own, k, &games).ok()?;
    Some(FidePreview {
        k: change.k.value(),
        expected: change.expected(),
        change: change.change(),
    })
}

fn dwz_preview(record: &Record, p: &Player, round: u32, age: Option<Age>) -> Option<DwzPreview> {
    let dwz_of = |id: PlayerId| {
        let value = record.s.ratings.get(&id)?.dwz?;
        Dwz::new(u32::from(value)).ok()
    };
    let facts = record.s.ratings.get(&p.id)?;
    let player = dwz::Player {
        dwz: dwz_of(p.id)?,
        index: facts.dwz_index.and_then(|i| Index::new(u32::from(i)).ok()),
        age,
    };
    let games: Vec<dwz::Game> = rated_games(p, round)
        .filter_map(|(opponent, score)| {
            Some(dwz::Game {
                opponent: dwz_of(opponent)?,
                score,
            })
        })
        .collect();
    let e = dwz::evaluate(&player, &games).ok()?;
    Some(DwzPreview {
        old: e.old.value(),
        new: e.new,
        expected: (e.expected * 1000.0).round() / 1000.0,
        e: e.coefficient.e,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_checked() {
        assert!(RatingFacts::new(Some(2010), Some(1500), Some(12), Some(20)).is_ok());
        let err = |r: Result<RatingFacts, Refusal>| r.unwrap_err().to_string();
        assert_eq!(
            err(RatingFacts::new(Some(1800), None, None, None)),
            "birth_year 1800: 1900 to 2100"
        );
        assert_eq!(
            err(RatingFacts::new(None, Some(0), None, None)),
            "dwz: DWZ 0: 1 to 3500"
        );
        assert_eq!(
            err(RatingFacts::new(None, None, None, Some(50))),
            "fide_k: K 50: 1 to 40 (the regulation's values are 40, 20 and 10)"
        );
    }

    /// The inputs a TRF gives: the rating column, the birth date and the
    /// start date (`042`). A player born 2008 is 18 in 2026: a junior's
    /// K 40 below 2300 (FIDE B.02 8.56); a year later, 20. The figures:
    /// 1800 against 1900, a win, PD 0.36 (table 8.1(b)); a forfeit and a
    /// "game of less than one move" (`W`) do not count.
    #[test]
    fn a_trf_gives_rating_birth_date_and_year() {
        use tempo_chess::Color;
        use tempo_tourney::{InfoLine, RoundEntry};

        let mut record = Record::create(
            &super::super::CreateRequest {
                name: Some("T".into()),
                system: Some("round-robin".into()),
                rounds: Some(3),
                ..Default::default()
            },
            1,
        )
        .unwrap();
        for (name, rating) in [("A", 1800), ("B", 1900)] {
            record
                .add_player(name, Some(rating), None, None, false)
                .unwrap();
        }
        let t = &mut record.t;
        t.players[0].birth_date = Some("2008/05/01".into());
        t.players[0].rounds = vec![
            RoundEntry::game(2, Color::White, ResultCode::Win),
            RoundEntry::game(2, Color::Black, ResultCode::ForfeitWin),
            RoundEntry::game(2, Color::White, ResultCode::UnratedWin),
        ];
        t.players[1].rounds = vec![
            RoundEntry::game(1, Color::Black, ResultCode::Loss),
            RoundEntry::game(1, Color::White, ResultCode::ForfeitLoss),
            RoundEntry::game(1, Color::Black, ResultCode::UnratedLoss),
        ];
        t.info.push(InfoLine {
            tag: "042".into(),
            text: "2026/01/10".into(),
        });
        let p = previews(&record, &record.t, 3, 2026);
        let a = &p.fide[&1];
        assert_eq!((a.k, a.expected, a.change), (40, 0.36, 25.6));
        let b = &p.fide[&2];
        assert_eq!((b.k, b.change), (20, -12.8));
        assert!(p.dwz.is_empty());

        record.t.info.last_mut().unwrap().text = "2027/01/10".into();
        assert_eq!(previews(&record, &record.t, 3, 2026).fide[&1].k, 20);

        // Without a date the caller's year decides: 18 in 2026, 19 in 2027.
        record.t.info.retain(|l| l.tag != "042");
        assert_eq!(previews(&record, &record.t, 3, 2026).fide[&1].k, 40);
        assert_eq!(previews(&record, &record.t, 3, 2027).fide[&1].k, 20);
    }

    #[test]
    fn years_of_trf_dates() {
        assert_eq!(year_of("2026/11/26"), Some(2026));
        assert_eq!(year_of("2026-11-26"), Some(2026));
        assert_eq!(year_of("26/11/26"), None);
        // 2026-11-26 and the first millisecond of 2027 (UTC).
        assert_eq!(year_at(1_795_651_200_000), 2026);
        assert_eq!(year_at(1_798_761_600_000), 2027);
        assert_eq!(year_at(1_798_761_599_999), 2026);
    }
}
