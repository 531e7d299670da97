//! Keizer scores and rankings, with the three re-valuation methods.
//!
//! Method A (the source's) reads: the ranking after round `r` is the order
//! of the scores of rounds `1..=r`, where every result is valued with the
//! values of the ranking after round `r − 1` (the starting list for round
//! 1), and the own-value bonus is the player's value in that same ranking.
//! This is exactly what the source's worked example computes ("the RWZ of
//! Petersen is now 43, the value of 8th place, so Johnson's round-1 win is
//! worth 43").

use std::cmp::Ordering;

use super::settings::{KeizerSettings, Method, NonGame, OwnValue, TieOrder};
use super::{KeizerError, RoundOutcome, Score, Season};
use crate::model::{AbsenceKind, Outcome, PlayerId};

/// Method B gives up after this many passes (a cycle ends it earlier).
const MAX_PASSES: usize = 100;

/// One line of a ranking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// Place, from 1.
    pub place: usize,
    pub id: PlayerId,
    /// The Keizer score.
    pub score: Score,
    /// The value of this place in this ranking: what a result against this
    /// player is worth when the next ranking is computed (method A).
    pub value: i64,
    /// The value this player's results were counted with for this ranking
    /// (its own-value bonus under "current").
    pub valued_at: i64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A Keizer ranking after some round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranking {
    /// The number of rounds counted (0: the starting list).
    pub after_round: u32,
    /// Best first.
    pub standings: Vec<Standing>,
    /// Method B only: false if the iteration did not settle (it cycled or
    /// hit the pass limit); the last pass is used.
    pub converged: bool,
}

impl Ranking {
    /// The standing of a player.
    pub fn standing(&self, id: PlayerId) -> Option<&Standing> {
        self.standings.iter().find(|s| s.id == id)
    }

    /// The players, best first.
    pub fn order(&self) -> Vec<PlayerId> {
        self.standings.iter().map(|s| s.id).collect()
    }
}

impl Season {
    /// The ranking after `after_round` rounds (0 = the starting list).
    pub fn ranking(
        &self,
        settings: &KeizerSettings,
        after_round: u32,
    ) -> Result<Ranking, KeizerError> {
        if after_round > self.rounds {
            return Err(KeizerError::NoSuchRound {
                asked: after_round,
                played: self.rounds,
            });
        }
        self.validate()?;
        Ok(Ranker::new(self, settings).ranking(after_round))
    }

    /// The rankings after rounds 0, 1, …, [`Season::rounds`].
    pub fn rankings(&self, settings: &KeizerSettings) -> Result<Vec<Ranking>, KeizerError> {
        self.validate()?;
        let ranker = Ranker::new(self, settings);
        Ok((0..=self.rounds).map(|r| ranker.ranking(r)).collect())
    }
}

struct Ranker<'a> {
    season: &'a Season,
    settings: &'a KeizerSettings,
    /// The value of each place.
    series: Vec<i64>,
    /// Opponent ids as indices into `season.players`.
    index: std::collections::HashMap<PlayerId, usize>,
}

/// An order of players (indices), best first, with each one's place.
#[derive(Clone, PartialEq, Eq)]
struct Order {
    by_place: Vec<usize>,
    place_of: Vec<usize>,
}

impl Order {
    fn new(by_place: Vec<usize>) -> Order {
        let mut place_of = vec![0; by_place.len()];
        for (place, &p) in by_place.iter().enumerate() {
            place_of[p] = place;
        }
        Order { by_place, place_of }
    }
}

impl<'a> Ranker<'a> {
    fn new(season: &'a Season, settings: &'a KeizerSettings) -> Ranker<'a> {
        Ranker {
            season,
            settings,
            series: settings.values.values(season.players.len()),
            index: season
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| (p.id, i))
                .collect(),
        }
    }

    fn start(&self) -> Order {
        Order::new((0..self.season.players.len()).collect())
    }

    /// Scores of rounds `1..=rounds`, valued with the places of `valuation`.
    fn scores(&self, rounds: u32, valuation: &Order) -> Vec<Score> {
        let value = |p: usize| self.series[valuation.place_of[p]];
        self.season
            .players
            .iter()
            .enumerate()
            .map(|(p, entrant)| {
                let own = value(p);
                let bonus = match self.settings.own_value {
                    OwnValue::Current => own,
                    OwnValue::Start => self.series[p],
                    OwnValue::None => 0,
                };
                let mut counted = Counts::default();
                let rounds = entrant.rounds.iter().take(rounds as usize);
                Score::whole(bonus)
                    + rounds
                        .map(|o| self.round_score(o, own, &value, &mut counted))
                        .sum::<Score>()
            })
            .collect()
    }

    fn round_score(
        &self,
        outcome: &RoundOutcome,
        own: i64,
        value: &dyn Fn(usize) -> i64,
        counted: &mut Counts,
    ) -> Score {
        let s = self.settings;
        match *outcome {
            RoundOutcome::Game {
                opponent, result, ..
            } => {
                let v = value(self.index[&opponent]);
                match result {
                    Outcome::Win => Score::whole(v),
                    Outcome::Draw => Score::half(v),
                    Outcome::Loss => Score::ZERO,
                }
            }
            RoundOutcome::ForfeitWin { .. } => s.bye.fraction.of(own),
            RoundOutcome::ForfeitLoss { .. } => s.unexcused.fraction.of(own),
            RoundOutcome::Bye => counted.take(BYE, s.bye, s, own),
            RoundOutcome::Absent(AbsenceKind::Excused) => counted.take(EXCUSED, s.excused, s, own),
            RoundOutcome::Absent(AbsenceKind::Unexcused) => {
                counted.take(UNEXCUSED, s.unexcused, s, own)
            }
            RoundOutcome::Absent(AbsenceKind::ClubDuty) => {
                counted.take(CLUB_DUTY, s.club_duty, s, own)
            }
            RoundOutcome::NotEntered => s.late_entry.of(own),
        }
    }

    fn sort(&self, scores: &[Score], previous: &Order) -> Order {
        let players = &self.season.players;
        let mut by_place: Vec<usize> = (0..players.len()).collect();
        by_place.sort_by(|&a, &b| {
            scores[b]
                .cmp(&scores[a])
                .then_with(|| match self.settings.tie_order {
                    TieOrder::StartingRank => a.cmp(&b),
                    TieOrder::PreviousRanking => previous.place_of[a]
                        .cmp(&previous.place_of[b])
                        .then(a.cmp(&b)),
                    TieOrder::Rating => match (players[a].rating, players[b].rating) {
                        (Some(x), Some(y)) => y.cmp(&x),
                        (Some(_), None) => Ordering::Less,
                        (None, Some(_)) => Ordering::Greater,
                        (None, None) => Ordering::Equal,
                    }
                    .then(a.cmp(&b)),
                })
        });
        Order::new(by_place)
    }

    /// (order, scores, valuation, converged) after `rounds` rounds.
    fn compute(&self, rounds: u32) -> (Order, Vec<Score>, Order, bool) {
        let start = self.start();
        if rounds == 0 {
            let scores = self.scores(0, &start);
            let order = self.sort(&scores, &start);
            return (order, scores, start, true);
        }
        let (previous, ..) = self.compute(rounds - 1);
        match self.settings.method {
            Method::A => {
                let scores = self.scores(rounds, &previous);
                (self.sort(&scores, &previous), scores, previous, true)
            }
            Method::C => {
                let scores = self.scores(rounds, &start);
                (self.sort(&scores, &previous), scores, start, true)
            }
            Method::B => {
                let mut valuation = previous.clone();
                let mut seen = vec![valuation.clone()];
                for _ in 0..MAX_PASSES {
                    let scores = self.scores(rounds, &valuation);
                    let order = self.sort(&scores, &previous);
                    if order == valuation {
                        return (order, scores, valuation, true);
                    }
                    if seen.contains(&order) {
                        return (order, scores, valuation, false);
                    }
                    seen.push(order.clone());
                    valuation = order;
                }
                let scores = self.scores(rounds, &valuation);
                (self.sort(&scores, &previous), scores, valuation, false)
            }
        }
    }

    fn ranking(&self, rounds: u32) -> Ranking {
        let (order, scores, valuation, converged) = self.compute(rounds);
        let standings = order
            .by_place
            .iter()
            .enumerate()
            .map(|(place, &p)| {
                let entrant = &self.season.players[p];
                let mut st = Standing {
                    place: place + 1,
                    id: entrant.id,
                    score: scores[p],
                    value: self.series[place],
                    valued_at: self.series[valuation.place_of[p]],
                    games: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                };
                for o in entrant.rounds.iter().take(rounds as usize) {
                    if let RoundOutcome::Game { result, .. } = o {
                        st.games += 1;
                        match result {
                            Outcome::Win => st.wins += 1,
                            Outcome::Draw => st.draws += 1,
                            Outcome::Loss => st.losses += 1,
                        }
                    }
                }
                st
            })
            .collect();
        Ranking {
            after_round: rounds,
            standings,
            converged,
        }
    }
}

const BYE: usize = 0;
const EXCUSED: usize = 1;
const UNEXCUSED: usize = 2;
const CLUB_DUTY: usize = 3;

/// How often each capped kind of round was used so far (bye, excused,
/// unexcused, club duty).
#[derive(Default)]
struct Counts([u32; 4]);

impl Counts {
    /// Scores one round of kind `*kind` under `rule`; beyond the cap it
    /// scores like an unexcused absence, and beyond that cap, zero.
    fn take(&mut self, kind: usize, rule: NonGame, s: &KeizerSettings, own: i64) -> Score {
        self.0[kind] += 1;
        if rule.cap.is_none_or(|cap| self.0[kind] <= cap) {
            rule.fraction.of(own)
        } else if kind == UNEXCUSED {
            Score::ZERO
        } else {
            self.take(UNEXCUSED, s.unexcused, s, own)
        }
    }
}
