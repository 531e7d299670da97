//! Keizer pairing: neighbours in the current ranking, by exact
//! minimum-cost perfect matching over the present players.
//!
//! The cost of a pairing is a sum over its boards, compared
//! lexicographically by tiers (each tier outweighs everything below it,
//! by construction of the multipliers):
//!
//! 1. director's forbidden pairs (`260` / `XXP`) broken,
//! 2. the rematch rule broken,
//! 3. the bye: its candidate's position in the bye rule's order (0 for the
//!    player the rule names),
//! 4. squared distance in the ranking of the present players: neighbours
//!    first; squaring spreads an unavoidable detour over several boards
//!    (1–3, 2–4 rather than 1–4, 2–3), keeping every board close,
//! 5. a top-down tie-break: distance weighted by how high the board is,
//!    so a detour goes to the lower boards,
//! 6. colours: a board where both players are due the same colour, and
//!    (heavier) where both must change colour after a streak.
//!
//! Round 1 thus pairs 1–2, 3–4, … of the starting list. A rule that cannot
//! be met is relaxed, and the pairing says which ([`Relaxation`]).

use std::fmt;

use tempo_chess::Color;

use super::settings::{ByeRule, ColourBalance, ColourTie, KeizerSettings, RematchRule};
use super::{KeizerError, Ranking, RoundOutcome, Season};
use crate::matching::min_cost_perfect_matching;
use crate::model::PlayerId;

/// One board of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pub white: PlayerId,
    pub black: PlayerId,
}

/// A rule the pairing could not keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Relaxation {
    /// A pair the director forbade had to be paired anyway.
    ForbiddenPair { a: PlayerId, b: PlayerId },
    /// Two players meet again against the rematch rule.
    Rematch {
        rule: RematchRule,
        a: PlayerId,
        b: PlayerId,
        /// Earlier games between them.
        meetings: u32,
        last_round: u32,
    },
    /// The bye went to another player than the bye rule names.
    Bye {
        given_to: PlayerId,
        rule_names: PlayerId,
    },
    /// A player gets the same colour more often in a row than allowed.
    SameColour {
        player: PlayerId,
        colour: Color,
        in_a_row: u32,
    },
}

impl fmt::Display for Relaxation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Relaxation::ForbiddenPair { a, b } => {
                write!(
                    f,
                    "forbidden pair {a}-{b} relaxed: no pairing keeps them apart"
                )
            }
            Relaxation::Rematch {
                rule,
                a,
                b,
                meetings,
                last_round,
            } => write!(
                f,
                "rematch rule '{rule}' relaxed: {a}-{b} meet again ({meetings} earlier game(s), last in round {last_round})"
            ),
            Relaxation::Bye {
                given_to,
                rule_names,
            } => write!(
                f,
                "bye rule relaxed: the bye goes to {given_to}, not {rule_names}, so that the other rules can be kept"
            ),
            Relaxation::SameColour {
                player,
                colour,
                in_a_row,
            } => write!(
                f,
                "colour rule relaxed: {player} gets {} {in_a_row} times in a row",
                match colour {
                    Color::White => "White",
                    Color::Black => "Black",
                }
            ),
        }
    }
}

/// The pairing of the next round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// The round paired.
    pub round: u32,
    /// Boards, top board (best-ranked player) first.
    pub boards: Vec<Board>,
    pub bye: Option<PlayerId>,
    /// Rules that had to give way, empty if all were kept.
    pub relaxed: Vec<Relaxation>,
    /// The ranking the pairing is based on (after the completed rounds).
    pub ranking: Ranking,
}

/// A player's colour history (played games only).
#[derive(Debug, Clone, Default)]
struct ColourHistory {
    whites: u32,
    blacks: u32,
    /// The colour of the last game and how many games in a row had it.
    streak: Option<(Color, u32)>,
}

impl ColourHistory {
    fn of(rounds: &[RoundOutcome]) -> ColourHistory {
        let mut h = ColourHistory::default();
        for o in rounds {
            if let RoundOutcome::Game {
                colour: Some(c), ..
            } = *o
            {
                match c {
                    Color::White => h.whites += 1,
                    Color::Black => h.blacks += 1,
                }
                h.streak = match h.streak {
                    Some((last, n)) if last == c => Some((c, n + 1)),
                    _ => Some((c, 1)),
                };
            }
        }
        h
    }

    /// The colour a streak limit forces, if any.
    fn forced(&self, limit: Option<u32>) -> Option<Color> {
        let limit = limit?;
        match self.streak {
            Some((c, n)) if n >= limit => Some(c.other()),
            _ => None,
        }
    }

    /// The colour the balance asks for (more Whites than Blacks: Black).
    fn due(&self) -> Option<Color> {
        match self.whites.cmp(&self.blacks) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The present players in ranking order with what pairing needs.
struct Field<'a> {
    season: &'a Season,
    settings: &'a KeizerSettings,
    round: u32,
    /// Indices into `season.players`, best-ranked first.
    present: Vec<usize>,
    colours: Vec<ColourHistory>,
}

impl Field<'_> {
    fn id(&self, i: usize) -> PlayerId {
        self.season.players[self.present[i]].id
    }

    /// Rounds in which present players `i` and `j` played each other, with
    /// `i`'s colour.
    fn meetings(&self, i: usize, j: usize) -> Vec<(u32, Option<Color>)> {
        let other = self.id(j);
        self.season.players[self.present[i]]
            .rounds
            .iter()
            .enumerate()
            .filter_map(|(r, o)| match *o {
                RoundOutcome::Game {
                    opponent, colour, ..
                } if opponent == other => Some((r as u32 + 1, colour)),
                _ => None,
            })
            .collect()
    }

    fn breaks_rematch_rule(&self, i: usize, j: usize) -> bool {
        let met = self.meetings(i, j);
        match self.settings.rematch {
            RematchRule::Allowed => false,
            RematchRule::Never => !met.is_empty(),
            RematchRule::NotWithin(n) => met.iter().any(|&(r, _)| self.round - r <= n),
            RematchRule::AtMost(k) => met.len() as u32 >= k,
        }
    }

    fn colour_cost(&self, i: usize, j: usize) -> u64 {
        let (a, b) = (&self.colours[i], &self.colours[j]);
        let limit = self.settings.max_same_colour;
        let mut cost = 0;
        if let (Some(x), Some(y)) = (a.forced(limit), b.forced(limit))
            && x == y
        {
            cost += 2;
        }
        if let (Some(x), Some(y)) = (a.due(), b.due())
            && x == y
        {
            cost += 1;
        }
        cost
    }

    /// White for board (i, j), `i` ranked above `j`: a streak limit first,
    /// then reversing a rematch (if set), then the colour balance, then the
    /// tie rule.
    fn white_of(&self, i: usize, j: usize) -> usize {
        let (a, b) = (&self.colours[i], &self.colours[j]);
        let s = self.settings;
        let pick = |c: Color, for_i: bool| match (c, for_i) {
            (Color::White, true) | (Color::Black, false) => i,
            _ => j,
        };
        match (a.forced(s.max_same_colour), b.forced(s.max_same_colour)) {
            (Some(x), None) => return pick(x, true),
            (None, Some(y)) => return pick(y, false),
            (Some(x), Some(y)) if x != y => return pick(x, true),
            _ => {}
        }
        if s.rematch_reverse_colours
            && let Some(&(_, Some(c))) = self.meetings(i, j).last()
        {
            return pick(c.other(), true);
        }
        let (ka, kb) = match s.colour_balance {
            ColourBalance::FewerWhites => (i64::from(a.whites), i64::from(b.whites)),
            ColourBalance::Difference => (
                i64::from(a.whites) - i64::from(a.blacks),
                i64::from(b.whites) - i64::from(b.blacks),
            ),
        };
        match ka.cmp(&kb) {
            std::cmp::Ordering::Less => i,
            std::cmp::Ordering::Greater => j,
            std::cmp::Ordering::Equal => match s.colour_tie {
                ColourTie::Lower => j,
                ColourTie::Higher => i,
            },
        }
    }

    /// Present players in the order the bye rule offers the bye.
    fn bye_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.present.len()).rev().collect();
        if self.settings.bye_rule == ByeRule::FewestByesFirst {
            let byes = |i: usize| {
                self.season.players[self.present[i]]
                    .rounds
                    .iter()
                    .filter(|o| matches!(o, RoundOutcome::Bye))
                    .count()
            };
            order.sort_by_key(|&i| byes(i)); // stable: lowest-ranked first within
        }
        order
    }
}

const TIERS: usize = 6;

impl Season {
    /// Pairs round [`Season::rounds`]` + 1` for the `present` players (in any
    /// order), avoiding pairs for which `forbidden` is true.
    pub fn pair_next(
        &self,
        settings: &KeizerSettings,
        present: &[PlayerId],
        forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
    ) -> Result<Pairing, KeizerError> {
        let ranking = self.ranking(settings, self.rounds)?;
        let mut index = std::collections::HashMap::new();
        for (i, p) in self.players.iter().enumerate() {
            index.insert(p.id, i);
        }
        let mut wanted = std::collections::HashSet::new();
        for &id in present {
            if !index.contains_key(&id) {
                return Err(KeizerError::UnknownPlayer(id));
            }
            wanted.insert(id);
        }
        let present: Vec<usize> = ranking
            .standings
            .iter()
            .filter(|s| wanted.contains(&s.id))
            .map(|s| index[&s.id])
            .collect();
        let colours = present
            .iter()
            .map(|&p| ColourHistory::of(&self.players[p].rounds))
            .collect();
        let field = Field {
            season: self,
            settings,
            round: self.rounds + 1,
            present,
            colours,
        };
        let (boards, bye, relaxed) = pair_field(&field, forbidden)?;
        Ok(Pairing {
            round: field.round,
            boards,
            bye,
            relaxed,
            ranking,
        })
    }
}

type Paired = (Vec<Board>, Option<PlayerId>, Vec<Relaxation>);

fn pair_field(
    field: &Field,
    forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
) -> Result<Paired, KeizerError> {
    let m = field.present.len();
    let odd = m % 2 == 1;
    let vertices = m + usize::from(odd);
    let dummy = m; // the bye, when odd
    let bye_order = field.bye_order();
    let mut tiers: Vec<(usize, usize, [u64; TIERS])> = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            let d = (j - i) as u64;
            tiers.push((
                i,
                j,
                [
                    u64::from(forbidden(field.id(i), field.id(j))),
                    u64::from(field.breaks_rematch_rule(i, j)),
                    0,
                    d * d,
                    d * (m - i) as u64,
                    field.colour_cost(i, j),
                ],
            ));
        }
    }
    if odd {
        for (position, &i) in bye_order.iter().enumerate() {
            tiers.push((i, dummy, [0, 0, position as u64, 0, 0, 0]));
        }
    }
    let edges = scalarise(&tiers, vertices / 2).ok_or(KeizerError::TooManyPlayers(m))?;
    let matching = min_cost_perfect_matching(vertices, &edges)
        .expect("edges are within range and loop-free")
        .expect("a complete graph on an even number of vertices has a perfect matching");

    let mut boards = Vec::new();
    let mut bye = None;
    let mut relaxed = Vec::new();
    for (i, j) in matching.pairs() {
        if j == dummy && odd {
            bye = Some(field.id(i));
            if i != bye_order[0] {
                relaxed.push(Relaxation::Bye {
                    given_to: field.id(i),
                    rule_names: field.id(bye_order[0]),
                });
            }
            continue;
        }
        let (a, b) = (field.id(i), field.id(j));
        if forbidden(a, b) {
            relaxed.push(Relaxation::ForbiddenPair { a, b });
        }
        if field.breaks_rematch_rule(i, j) {
            let met = field.meetings(i, j);
            relaxed.push(Relaxation::Rematch {
                rule: field.settings.rematch,
                a,
                b,
                meetings: met.len() as u32,
                last_round: met.last().map_or(0, |m| m.0),
            });
        }
        let white = field.white_of(i, j);
        let black = if white == i { j } else { i };
        if let Some(limit) = field.settings.max_same_colour {
            for (p, colour) in [(white, Color::White), (black, Color::Black)] {
                if let Some((c, n)) = field.colours[p].streak
                    && c == colour
                    && n >= limit
                {
                    relaxed.push(Relaxation::SameColour {
                        player: field.id(p),
                        colour,
                        in_a_row: n + 1,
                    });
                }
            }
        }
        boards.push((
            i,
            Board {
                white: field.id(white),
                black: field.id(black),
            },
        ));
    }
    boards.sort_by_key(|&(top, _)| top);
    Ok((boards.into_iter().map(|(_, b)| b).collect(), bye, relaxed))
}

/// Turns tiered costs into one exact integer cost per edge: tier `k`'s
/// multiplier exceeds the largest possible total of all lower tiers over a
/// matching of `pairs` edges. `None` on overflow.
fn scalarise(
    tiers: &[(usize, usize, [u64; TIERS])],
    pairs: usize,
) -> Option<Vec<(usize, usize, i128)>> {
    let mut max = [0u64; TIERS];
    for (_, _, t) in tiers {
        for k in 0..TIERS {
            max[k] = max[k].max(t[k]);
        }
    }
    let mut mult = [0i128; TIERS];
    let mut below: i128 = 0; // largest total of the lower tiers
    for k in (0..TIERS).rev() {
        mult[k] = below.checked_add(1)?;
        let tier_total = mult[k]
            .checked_mul(i128::from(max[k]))?
            .checked_mul(pairs as i128)?;
        below = below.checked_add(tier_total)?;
    }
    // Costs are negated into weights by the matching; keep headroom.
    if below > i128::MAX / 4 {
        return None;
    }
    Some(
        tiers
            .iter()
            .map(|&(i, j, t)| {
                let cost = (0..TIERS).map(|k| mult[k] * i128::from(t[k])).sum();
                (i, j, cost)
            })
            .collect(),
    )
}
