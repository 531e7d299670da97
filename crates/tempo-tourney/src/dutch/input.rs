//! What the Dutch engine needs to know about a tournament, independent of the
//! TRF model: per player the history of the rounds played so far, the
//! accelerations, forbidden opponents, and whether the player is to be paired.

use tempo_chess::Color;

use crate::model::Outcome;

/// One player's record of one past round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundRecord {
    /// The scheduled opponent (index into [`DutchInput::players`]), if any.
    pub opponent: Option<usize>,
    /// The colour, for a game with an opponent.
    pub colour: Option<Color>,
    /// Whether the game was played over the board (forfeits and byes were
    /// not). Only played games count for rematches (C1) and colours.
    pub played: bool,
    /// Win, draw or loss (a half-point bye is a draw, a full-point or
    /// pairing-allocated bye or a forfeit win is a win).
    pub outcome: Outcome,
    /// The player took part in the pairing of the round: had an opponent or
    /// the pairing-allocated bye (C.04.1: requested byes and absences do
    /// not count).
    pub paired: bool,
}

impl RoundRecord {
    /// An absence without points (`Z`, or a round missing from the file).
    pub(crate) fn absent() -> RoundRecord {
        RoundRecord {
            opponent: None,
            colour: None,
            played: false,
            outcome: Outcome::Loss,
            paired: false,
        }
    }
}

/// Points per kind of result, in tenths (`10` = one point).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointValues {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    /// Zero-point bye / absence.
    pub absent: u32,
    pub forfeit_loss: u32,
    /// Pairing-allocated bye.
    pub pab: u32,
}

impl Default for PointValues {
    fn default() -> Self {
        PointValues {
            win: 10,
            draw: 5,
            loss: 0,
            absent: 0,
            forfeit_loss: 0,
            pab: 10,
        }
    }
}

impl PointValues {
    /// Points a record is worth.
    pub(crate) fn of(&self, record: &RoundRecord) -> u32 {
        match record.outcome {
            Outcome::Loss if !record.paired => self.absent,
            Outcome::Loss if record.played => self.loss,
            Outcome::Loss => self.forfeit_loss,
            Outcome::Win if record.opponent.is_none() && record.paired => self.pab,
            Outcome::Win => self.win,
            Outcome::Draw => self.draw,
        }
    }
}

/// One player as the Dutch engine sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DutchPlayer {
    /// The pairing number printed in the output (TRF starting rank).
    pub id: u32,
    /// One record per round played so far (index 0 = round 1).
    pub history: Vec<RoundRecord>,
    /// Acceleration points in tenths per round (index 0 = round 1); missing
    /// entries are zero.
    pub accelerations: Vec<u32>,
    /// Players (indices) this player must not meet this round, besides
    /// previous opponents (C1 is applied by the engine).
    pub forbidden: Vec<usize>,
    /// Whether the player is to be paired this round (not absent, no bye
    /// requested, not withdrawn).
    pub available: bool,
}

/// The input for pairing one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DutchInput {
    /// All players, in pairing-number order (C.04.2 initial ranking list).
    pub players: Vec<DutchPlayer>,
    /// Number of rounds already paired (the round to pair is this + 1).
    pub rounds_played: usize,
    /// Total number of rounds of the tournament.
    pub rounds_total: usize,
    /// Point values.
    pub points: PointValues,
    /// Colour of the top-ranked player in round 1 (C.04.3 5.2.5 uses it for
    /// pairs without any other criterion).
    pub initial_colour: Color,
}
