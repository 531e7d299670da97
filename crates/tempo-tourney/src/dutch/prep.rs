//! Per-player facts the criteria are written in: scores (with acceleration),
//! colour difference and preference (C.04.3 1.7), floats (1.4), PAB
//! eligibility (C2), and the absolute criteria (C1-C3).

use tempo_chess::Color;

use super::input::DutchInput;
use crate::model::Outcome;

/// The float a player received in a past round (C.04.3 1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Float {
    Down,
    Up,
    None,
}

/// Derived data of one player taking part in the round.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    /// Index into [`DutchInput::players`].
    pub index: usize,
    /// Pairing number for the output.
    pub id: u32,
    /// Rank among the players of the tournament (0-based; C.04.3 1.2.2).
    pub rank: usize,
    /// Score with acceleration (tenths), used for all pairing decisions.
    pub score: u32,
    /// Score without acceleration, used for board order.
    pub plain: u32,
    /// Colour preference (1.7): `None` before the first played game.
    pub pref: Option<Color>,
    /// |colour difference|.
    pub imbalance: u32,
    /// The colour of the last two played games when they were the same.
    pub repeated: Option<Color>,
    /// Strong preference (1.7.2): |CD| = 1 and not absolute.
    pub strong: bool,
    /// May receive the pairing-allocated bye (C2).
    pub bye_eligible: bool,
    /// Number of played games (C9 ranks the PAB candidates by it).
    pub played_games: u32,
    /// Float one and two rounds back.
    pub float1: Float,
    pub float2: Float,
    /// Colours of played games, oldest first (5.2.3 looks back through
    /// them).
    pub colours: Vec<Color>,
}

impl Prepared {
    /// |CD| > 1 (1.7.1).
    pub(crate) fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// Absolute colour preference (1.7.1).
    pub(crate) fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// Score (tenths) of player `index` before round `round_index` (0-based)
/// was paired, including that round's acceleration.
pub(crate) fn score_before(input: &DutchInput, index: usize, round_index: usize) -> u32 {
    let p = &input.players[index];
    let plain: u32 = p.history[..round_index]
        .iter()
        .map(|r| input.points.of(r))
        .sum();
    plain + p.accelerations.get(round_index).copied().unwrap_or(0)
}

fn plain_score(input: &DutchInput, index: usize) -> u32 {
    let p = &input.players[index];
    p.history[..input.rounds_played]
        .iter()
        .map(|r| input.points.of(r))
        .sum()
}

/// The float received `back` rounds ago (1.4): a player who got more than a
/// loss without playing floated down; in a played game compare the scores
/// the two players had before that round.
fn float_of(input: &DutchInput, index: usize, back: usize) -> Float {
    let round = input.rounds_played - back;
    let record = &input.players[index].history[round];
    if !record.played {
        // 1.4: more than a loss without playing is a downfloat; other
        // unplayed rounds (absences, forfeit losses) are no float.
        return if input.points.of(record) > input.points.loss {
            Float::Down
        } else {
            Float::None
        };
    }
    let own = score_before(input, index, round);
    let other = score_before(input, record.opponent.unwrap_or(index), round);
    match own.cmp(&other) {
        std::cmp::Ordering::Greater => Float::Down,
        std::cmp::Ordering::Less => Float::Up,
        std::cmp::Ordering::Equal => Float::None,
    }
}

/// Prepare one player.
pub(crate) fn prepare(input: &DutchInput, index: usize, rank: usize) -> Prepared {
    let p = &input.players[index];
    let played = input.rounds_played;
    let mut white = 0u32;
    let mut black = 0u32;
    let mut streak = 0u32;
    let mut last: Option<Color> = None;
    let mut colours = Vec::new();
    let mut played_games = 0;
    for r in &p.history[..played] {
        if !r.played {
            continue;
        }
        let Some(c) = r.colour else { continue };
        played_games += 1;
        colours.push(c);
        match c {
            Color::White => white += 1,
            Color::Black => black += 1,
        }
        if last == Some(c) {
            streak += 1;
        } else {
            streak = 1;
        }
        last = Some(c);
    }
    let lower = if white > black {
        Color::Black
    } else {
        Color::White
    };
    let imbalance = white.abs_diff(black);
    let pref = if imbalance > 1 {
        Some(lower)
    } else if streak > 1 {
        last.map(Color::other)
    } else if imbalance > 0 {
        Some(lower)
    } else {
        last.map(Color::other)
    };
    let repeated = if streak > 1 { last } else { None };
    let absolute = imbalance > 1 || repeated.is_some();
    // C2: no PAB for whoever already had one or scored a win without playing
    // in a round they were paired for (requested byes do not count).
    let bye_eligible = !p
        .history
        .iter()
        .any(|r| !r.played && r.paired && r.outcome == Outcome::Win);
    Prepared {
        index,
        id: p.id,
        rank,
        score: score_before(input, index, played),
        plain: plain_score(input, index),
        pref,
        imbalance,
        repeated,
        strong: !absolute && imbalance > 0,
        bye_eligible,
        played_games,
        float1: if played >= 1 {
            float_of(input, index, 1)
        } else {
            Float::None
        },
        float2: if played >= 2 {
            float_of(input, index, 2)
        } else {
            Float::None
        },
        colours,
    }
}

/// Whether two preferences can both be met (different, or one is none).
pub(crate) fn prefs_compatible(a: Option<Color>, b: Option<Color>) -> bool {
    a != b || a.is_none() || b.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dutch::input::{DutchPlayer, PointValues, RoundRecord};

    fn game(opponent: usize, colour: Color, outcome: Outcome) -> RoundRecord {
        RoundRecord {
            opponent: Some(opponent),
            colour: Some(colour),
            played: true,
            outcome,
            paired: true,
        }
    }

    fn input(histories: Vec<Vec<RoundRecord>>) -> DutchInput {
        let rounds = histories[0].len();
        DutchInput {
            players: histories
                .into_iter()
                .enumerate()
                .map(|(i, history)| DutchPlayer {
                    id: i as u32 + 1,
                    history,
                    accelerations: vec![],
                    forbidden: vec![],
                    available: true,
                })
                .collect(),
            rounds_played: rounds,
            rounds_total: 9,
            points: PointValues::default(),
            initial_colour: Color::White,
        }
    }

    #[test]
    fn colour_preferences_follow_1_7() {
        use Color::*;
        use Outcome::*;
        let i = input(vec![
            vec![game(1, White, Win), game(1, White, Win)],
            vec![game(0, Black, Loss), game(0, Black, Loss)],
            vec![game(3, White, Draw), game(3, Black, Draw)],
            vec![game(2, Black, Draw), game(2, White, Draw)],
        ]);
        let p0 = prepare(&i, 0, 0);
        assert_eq!(
            (p0.pref, p0.absolute(), p0.imbalance),
            (Some(Black), true, 2)
        );
        let p2 = prepare(&i, 2, 2);
        assert_eq!(
            (p2.pref, p2.absolute(), p2.strong),
            (Some(White), false, false)
        );
        assert_eq!(p2.float1, Float::None);
    }

    #[test]
    fn unplayed_rounds_float_only_with_points() {
        use Outcome::*;
        let forfeit_loss = RoundRecord {
            opponent: Some(1),
            colour: Some(Color::White),
            played: false,
            outcome: Loss,
            paired: true,
        };
        let forfeit_win = RoundRecord {
            opponent: Some(0),
            colour: Some(Color::Black),
            played: false,
            outcome: Win,
            paired: true,
        };
        let pab = RoundRecord {
            opponent: None,
            colour: None,
            played: false,
            outcome: Win,
            paired: true,
        };
        let i = input(vec![
            vec![forfeit_loss],
            vec![forfeit_win],
            vec![pab],
            vec![RoundRecord::absent()],
        ]);
        assert_eq!(prepare(&i, 0, 0).float1, Float::None);
        assert_eq!(prepare(&i, 1, 1).float1, Float::Down);
        assert_eq!(prepare(&i, 2, 2).float1, Float::Down);
        assert_eq!(prepare(&i, 3, 3).float1, Float::None);
        // C2: a forfeit win or a PAB rules out another PAB; an absence does not.
        assert!(prepare(&i, 0, 0).bye_eligible);
        assert!(!prepare(&i, 1, 1).bye_eligible);
        assert!(!prepare(&i, 2, 2).bye_eligible);
        assert!(prepare(&i, 3, 3).bye_eligible);
    }
}
