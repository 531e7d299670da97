//! Computing tie-break values from a tournament.

use std::collections::HashMap;

use tempo_chess::Color;

use super::rating::{average_rating, performance_rating};
use super::{Cut, TieBreak, Value};
use crate::Tournament;
use crate::model::{Outcome, PlayerId, ResultCode, RoundEntry};
use crate::points::Points;

/// How rounds without a game over the board count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnplayedRule {
    /// C.07 as revised for 1 March 2026 (the rules in force): as
    /// [`UnplayedRule::Fide2023`], but the dummy opponent of a player's own
    /// unplayed round scores no more than the scheduled opponent's adjusted
    /// score after a forfeit (article 16.4.1), and no more than half the
    /// maximum possible score in a round without an opponent (16.4.2).
    #[default]
    Fide2026,
    /// C.07 (2023): opponents' scores adjusted for a withdrawal, the
    /// player's own unplayed rounds against a dummy with the player's own
    /// score, VURs cut first.
    Fide2023,
    /// The earlier FIDE rule (2009 congress, C.02 13.15 until 2023): a virtual
    /// opponent with the player's score before the round, the round's result
    /// reversed, and a draw in every later round; opponents' unplayed games
    /// count as draws.
    VirtualOpponent,
    /// No adjustment: unplayed rounds add nothing to BH and SB.
    Ignore,
}

/// Settings for a tie-break calculation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// Count rounds `1..=rounds` (default: the paired rounds of the file).
    pub rounds: Option<u32>,
    /// The unplayed-rounds rule.
    pub unplayed: UnplayedRule,
    /// A round robin: a forfeit counts for BH/SB and for direct encounter
    /// as a game against the scheduled opponent (C.07 15.2), other unplayed
    /// rounds count nothing (no dummy opponent), a withdrawn player's later
    /// rounds count as losses, and direct encounter applies even if not all
    /// tied players have met.
    pub round_robin: bool,
    /// Rating used for unrated opponents in ARO and TPR (`None`: such
    /// games are left out).
    pub unrated_rating: Option<u16>,
}

#[derive(Debug, Clone, Copy)]
struct RoundInfo {
    opponent: Option<PlayerId>,
    played: bool,
    colour: Option<Color>,
    points: Points,
    outcome: Outcome,
    /// A voluntarily unplayed round: unplayed and not won.
    vur: bool,
}

#[derive(Debug, Clone)]
struct Record {
    id: PlayerId,
    rating: Option<u16>,
    score: Points,
    /// Score as the opponents' Buchholz sees it (C.07 2023 article 16).
    adjusted: Points,
    /// Score with every unplayed round as a draw (the 2009 rule).
    legacy_adjusted: Points,
    rounds: Vec<RoundInfo>,
}

/// One round's contribution to BH or SB, for cutting.
#[derive(Debug, Clone, Copy)]
struct Contribution {
    vur: bool,
    /// The opponent's (or dummy's) score, in tenths.
    score: i64,
    /// The value summed, in hundredths.
    value: i64,
}

/// Computes tie-breaks for one tournament.
pub struct Calculator<'a> {
    tournament: &'a Tournament,
    options: Options,
    rounds: u32,
    index: HashMap<PlayerId, usize>,
    records: Vec<Record>,
}

impl<'a> Calculator<'a> {
    /// Prepares the per-player data.
    pub fn new(tournament: &'a Tournament, options: Options) -> Calculator<'a> {
        let rounds = options.rounds.unwrap_or_else(|| tournament.paired_rounds());
        let system = tournament.point_system;
        let blank = RoundEntry {
            opponent: None,
            colour: None,
            result: ResultCode::Blank,
        };
        let mut records = Vec::with_capacity(tournament.players.len());
        for p in &tournament.players {
            let infos: Vec<RoundInfo> = (1..=rounds)
                .map(|r| {
                    let e = p.entry(r).copied().unwrap_or(blank);
                    let played = e.is_played();
                    let outcome = e.result.outcome();
                    RoundInfo {
                        opponent: e.opponent,
                        played,
                        colour: e.colour,
                        points: system.points_for(e.result),
                        outcome,
                        vur: !played && outcome != Outcome::Win,
                    }
                })
                .collect();
            let score = infos.iter().map(|i| i.points).sum();
            let last_not_vur = infos.iter().rposition(|i| !i.vur).map_or(0, |i| i + 1);
            let adjusted = infos
                .iter()
                .enumerate()
                .map(|(i, info)| {
                    if i < last_not_vur || info.opponent.is_some() {
                        info.points
                    } else if options.round_robin {
                        Points::ZERO
                    } else {
                        system.draw
                    }
                })
                .sum();
            let legacy_adjusted = infos
                .iter()
                .map(|i| if i.played { i.points } else { system.draw })
                .sum();
            records.push(Record {
                id: p.id,
                rating: p.rating.filter(|&r| r > 0),
                score,
                adjusted,
                legacy_adjusted,
                rounds: infos,
            });
        }
        let index = records.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
        Calculator {
            tournament,
            options,
            rounds,
            index,
            records,
        }
    }

    /// The number of rounds counted.
    pub(crate) fn rounds(&self) -> u32 {
        self.rounds
    }

    fn record(&self, id: PlayerId) -> Option<&Record> {
        self.index.get(&id).map(|&i| &self.records[i])
    }

    /// The score over the counted rounds.
    pub fn score(&self, id: PlayerId) -> Points {
        self.record(id).map_or(Points::ZERO, |r| r.score)
    }

    /// The score as the opponents' Buchholz counts it (C.07 2023).
    pub fn adjusted_score(&self, id: PlayerId) -> Points {
        self.record(id).map_or(Points::ZERO, |r| r.adjusted)
    }

    /// The value of a tie-break for one player. Direct encounter depends on
    /// who is tied: use [`Calculator::direct_encounter`]; here it is 0.
    pub fn value(&self, tb: TieBreak, id: PlayerId) -> Value {
        let Some(rec) = self.record(id) else {
            return Value::default();
        };
        let win = self.tournament.point_system.win;
        let count = |f: &dyn Fn(&RoundInfo) -> bool| {
            Value::from_int(rec.rounds.iter().filter(|i| f(i)).count() as i64)
        };
        match tb {
            TieBreak::Buchholz {
                cut,
                forfeits_played,
            } => self.buchholz(rec, cut, forfeits_played, false),
            TieBreak::SonnebornBerger {
                cut,
                forfeits_played,
            } => self.buchholz(rec, cut, forfeits_played, true),
            TieBreak::DirectEncounter { .. } => Value::default(),
            TieBreak::Wins => count(&|i| i.points == win),
            TieBreak::GamesWon => count(&|i| i.played && i.points == win),
            TieBreak::BlackGames => count(&|i| i.played && i.colour == Some(Color::Black)),
            TieBreak::BlackWins => {
                count(&|i| i.played && i.colour == Some(Color::Black) && i.points == win)
            }
            TieBreak::GamesElected => count(&|i| i.played || i.points == win),
            TieBreak::AverageRating { cut } => {
                let (ratings, _) = self.rated_games(rec, cut);
                Value::from_int(average_rating(&ratings))
            }
            TieBreak::PerformanceRating => {
                let (ratings, halves) = self.rated_games(rec, Cut::default());
                Value::from_int(performance_rating(halves, &ratings))
            }
            TieBreak::ProgressiveScore { cut } => {
                let mut running = Points::ZERO;
                let mut total = 0;
                for (i, info) in rec.rounds.iter().enumerate() {
                    running += info.points;
                    if i as u32 >= cut.low {
                        total += i64::from(running.tenths());
                    }
                }
                Value::from_hundredths(total * 10)
            }
            TieBreak::Koya => {
                // Opponents with at least half of the maximum possible score.
                let max_tenths = i64::from(win.tenths()) * i64::from(self.rounds);
                let total: i64 = rec
                    .rounds
                    .iter()
                    .filter(|i| {
                        i.opponent
                            .and_then(|o| self.record(o))
                            .is_some_and(|o| 2 * i64::from(o.score.tenths()) >= max_tenths)
                    })
                    .map(|i| i64::from(i.points.tenths()))
                    .sum();
                Value::from_hundredths(total * 10)
            }
        }
    }

    /// Ratings of the opponents in played games (unrated ones left out or
    /// given `unrated_rating`), after `cut`, and the score against them in
    /// half points. Cuts follow FIDE TEC's server: a cut is spent on an
    /// unrated opponent before the lowest rating is cut.
    fn rated_games(&self, rec: &Record, cut: Cut) -> (Vec<u16>, i64) {
        let mut games: Vec<(u16, i64)> = Vec::new();
        let mut played = 0usize;
        for info in &rec.rounds {
            let Some(opp) = info.opponent.filter(|_| info.played) else {
                continue;
            };
            played += 1;
            let rating = self
                .record(opp)
                .and_then(|o| o.rating)
                .or(self.options.unrated_rating);
            if let Some(r) = rating {
                let halves = match info.outcome {
                    Outcome::Win => 2,
                    Outcome::Draw => 1,
                    Outcome::Loss => 0,
                };
                games.push((r, halves));
            }
        }
        let low = cut.low.min(self.rounds);
        let high = cut.high.min(self.rounds - low);
        games.sort_by_key(|g| g.0);
        for _ in 0..low {
            if played == games.len() && !games.is_empty() {
                games.remove(0);
            }
            played = played.saturating_sub(1);
        }
        for _ in 0..high {
            if played == games.len() {
                games.pop();
            }
            played = played.saturating_sub(1);
        }
        let halves = games.iter().map(|g| g.1).sum();
        (games.into_iter().map(|g| g.0).collect(), halves)
    }

    /// Buchholz (`sb == false`) or Sonneborn-Berger with cuts.
    fn buchholz(&self, rec: &Record, cut: Cut, forfeits_played: bool, sb: bool) -> Value {
        let system = &self.tournament.point_system;
        let rule = self.options.unplayed;
        let rr = self.options.round_robin;
        let mut parts: Vec<Contribution> = Vec::new();
        let mut before = Points::ZERO;
        for (i, info) in rec.rounds.iter().enumerate() {
            let round = i as u32 + 1;
            let opponent = info.opponent.and_then(|o| self.record(o));
            // A round robin's pairings are fixed in advance: a forfeit there
            // counts as a game against the scheduled opponent (C.07's round
            // robin reading, as FIDE's TieBreakServer and its exercises do).
            let counts_as_played =
                info.played || ((forfeits_played || rr) && info.opponent.is_some());
            let entry = match (counts_as_played, opponent) {
                (true, Some(opp)) => Some((
                    false,
                    match rule {
                        UnplayedRule::Fide2026 | UnplayedRule::Fide2023 => opp.adjusted,
                        UnplayedRule::VirtualOpponent => opp.legacy_adjusted,
                        UnplayedRule::Ignore => opp.score,
                    },
                )),
                _ if rr => info.opponent.map(|_| (false, Points::ZERO)),
                _ => match rule {
                    UnplayedRule::Fide2023 => Some((info.vur, rec.score)),
                    UnplayedRule::Fide2026 => {
                        let cap = match opponent {
                            Some(opp) => opp.adjusted,
                            None => system.draw * self.rounds as i32,
                        };
                        Some((info.vur, rec.score.min(cap)))
                    }
                    UnplayedRule::VirtualOpponent => {
                        let later = i64::from(self.rounds - round);
                        let virtual_score =
                            before + (system.win - info.points) + system.draw * later as i32;
                        Some((false, virtual_score))
                    }
                    UnplayedRule::Ignore => None,
                },
            };
            before += info.points;
            if let Some((vur, score)) = entry {
                let score = i64::from(score.tenths());
                let value = if sb {
                    score * i64::from(info.points.tenths())
                } else {
                    score * 10
                };
                parts.push(Contribution { vur, score, value });
            }
        }
        let vur_first = matches!(rule, UnplayedRule::Fide2023 | UnplayedRule::Fide2026);
        let low = cut.low.min(self.rounds);
        let high = cut.high.min(self.rounds - low);
        for _ in 0..low {
            if parts.is_empty() {
                break;
            }
            let least = (0..parts.len())
                .min_by_key(|&i| (parts[i].score, parts[i].value))
                .expect("not empty");
            let least_vur = (0..parts.len())
                .min_by_key(|&i| (!parts[i].vur, parts[i].score, parts[i].value))
                .expect("not empty");
            // As FIDE TEC's server: VURs are cut first unless the least
            // value overall is worth more than the VUR candidate.
            let cut_at = if !vur_first || parts[least].value > parts[least_vur].value {
                least
            } else {
                least_vur
            };
            parts.remove(cut_at);
        }
        for _ in 0..high {
            if parts.is_empty() {
                break;
            }
            let most = (0..parts.len())
                .min_by_key(|&i| (-parts[i].score, -parts[i].value))
                .expect("not empty");
            parts.remove(most);
        }
        Value::from_hundredths(parts.iter().map(|c| c.value).sum())
    }

    /// Direct encounter among `group` (players tied so far): the place of
    /// each within the group (1 first, ties share), or 0 for all when the
    /// games among them separate nobody. Repeats among those still tied, as
    /// C.07 and FIDE TEC's server do. Forfeits count as games with
    /// `forfeits_played` (`DE-P`) and always in a round robin (C.07 15.2).
    /// In a Swiss tournament where not all tied players have met, a player
    /// is placed only if no one below can still catch up with the points of
    /// the missing games.
    pub fn direct_encounter(&self, group: &[PlayerId], forfeits_played: bool) -> Vec<Value> {
        let n = group.len();
        let mut place = vec![0usize; n];
        let mut open = vec![true; n];
        loop {
            let mut changed = false;
            let mut start = 0;
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| (place[i], group[i]));
            while start < n {
                let mut stop = start + 1;
                while stop < n && place[order[stop]] == place[order[start]] {
                    stop += 1;
                }
                let members: Vec<usize> = order[start..stop].to_vec();
                if members.len() > 1 && open[members[0]] {
                    let base = place[members[0]];
                    let sub: Vec<PlayerId> = members.iter().map(|&i| group[i]).collect();
                    let ranks = self.encounter_round(&sub, forfeits_played);
                    let split = ranks.iter().any(|&r| r != 0);
                    for (k, &i) in members.iter().enumerate() {
                        place[i] = base + ranks[k];
                        open[i] = split;
                    }
                    changed |= split;
                }
                start = stop;
            }
            if !changed {
                break;
            }
        }
        if place.iter().all(|&p| p == place[0]) {
            return vec![Value::default(); n];
        }
        place
            .iter()
            .map(|&p| Value::from_int(p as i64 + 1))
            .collect()
    }

    /// One pass of direct encounter: offsets 0.. of each member (sharing
    /// offsets when tied).
    fn encounter_round(&self, members: &[PlayerId], forfeits_played: bool) -> Vec<usize> {
        let win = i64::from(self.tournament.point_system.win.tenths());
        let m = members.len();
        // For each member: points against the others (averaged per opponent
        // when they met more than once), opponents met.
        let mut stats: Vec<(i64, i64, PlayerId)> = Vec::with_capacity(m);
        let mut all_met = true;
        // C.07 6.1.1 leaves out forfeits "not covered by Article 15.2" unless
        // the tournament says otherwise (`DE-P`); 15.2 treats the forfeits
        // of a tournament with pre-determined pairings (a round robin) as
        // regular games, so there they count as met, with their result.
        let forfeits_count = forfeits_played || self.options.round_robin;
        for &id in members {
            let mut per_opponent: HashMap<PlayerId, (i64, i64)> = HashMap::new();
            if let Some(rec) = self.record(id) {
                for info in &rec.rounds {
                    let Some(o) = info.opponent else { continue };
                    let counts = info.played || forfeits_count;
                    if counts && o != id && members.contains(&o) {
                        let e = per_opponent.entry(o).or_insert((0, 0));
                        e.0 += i64::from(info.points.tenths());
                        e.1 += 1;
                    }
                }
            }
            // Scores in 1/(10 * games) would be exact; averages of repeated
            // meetings are kept in hundredths, rounded down.
            let value: i64 = per_opponent.values().map(|(s, c)| s * 10 / c).sum();
            let met = per_opponent.len();
            if met < m - 1 {
                all_met = false;
            }
            let max = value + (m - 1 - met) as i64 * win * 10;
            stats.push((value, max, id));
        }
        let all_met = all_met || self.options.round_robin;
        let mut order: Vec<usize> = (0..m).collect();
        if all_met {
            order.sort_by_key(|&i| (-stats[i].0, stats[i].2));
        } else {
            order.sort_by_key(|&i| (-stats[i].0, -stats[i].1, stats[i].2));
        }
        let mut ranks = vec![0usize; m];
        let mut current = 0;
        let mut unique = true;
        for pos in 1..m {
            let (prev, this) = (order[pos - 1], order[pos]);
            let separated = if all_met {
                stats[prev].0 != stats[this].0
            } else {
                let best_below = order[pos..].iter().map(|&i| stats[i].1).max().unwrap_or(0);
                let ok = unique && stats[prev].0 > best_below;
                unique &= ok;
                ok
            };
            if separated {
                current = pos;
            }
            ranks[this] = current;
        }
        ranks
    }
}
