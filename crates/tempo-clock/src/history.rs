//! What a clock remembers: every move with its readings, and every
//! arbiter action — enough for an exact restore.

use serde::{Deserialize, Serialize};
use tempo_chess::Color;

use crate::millis::Millis;

/// One completed move and the clock readings it produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Who moved.
    pub side: Color,
    /// That player's move number (1 for their first move).
    pub number: u32,
    /// For simultaneous play, the pair (from 1); `None` when alternating.
    pub pair: Option<u32>,
    /// Timestamp at which the move was committed.
    pub committed_at: u64,
    /// Thinking time on the move, pauses excluded.
    pub thinking: Millis,
    /// Main time charged for it (after delay rules, before any refund).
    pub charged: Millis,
    /// Time given back (Bronstein delay).
    pub refund: Millis,
    /// Increment credited.
    pub increment: Millis,
    /// Period bonus credited (the next period's base).
    pub bonus: Millis,
    /// The clock readings right after the move: `[White, Black]`.
    pub readings: [Millis; 2],
}

/// Why the arbiter changed a clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AdjustReason {
    /// An arbiter's setting (for example after a clock malfunction).
    Arbiter,
    /// Extra time given to a player (FIDE Article 7.5.5 penalty, or any other).
    Penalty,
    /// A restore to an earlier position (Article 7.5.1).
    Restore,
    /// Both flags fell at once in a period with a move quota: the game
    /// continues with the next period's time (FIDE Guidelines III.3.1.1).
    BothFlagsContinue,
}

/// A game ending on time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagFall {
    /// Whose flag fell.
    pub side: Color,
    /// Exactly when (timestamp).
    pub at: u64,
    /// Moves the player had completed.
    pub moves_done: u32,
    /// Whether the player was in the last period (all remaining moves).
    pub in_last_period: bool,
}

/// How a game ended on the clock. The clock does not see the board: the
/// caller applies FIDE Article 6.9 (a flag fall is a draw if the opponent
/// cannot checkmate by any series of legal moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockVerdict {
    /// One flag fell first: that player loses on time (subject to 6.9).
    Flag(FlagFall),
    /// Both flags fell at the same millisecond in the last period: it is
    /// impossible to establish which fell first, so the game is drawn
    /// (FIDE Guidelines III.3.1.2).
    BothFlagsDraw {
        /// When.
        at: u64,
    },
}

/// Something that happened to a clock besides a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockEvent {
    /// The clock was started.
    Started {
        /// When.
        at: u64,
    },
    /// A pair of simultaneous moves began.
    PairStarted {
        /// Pair number, from 1.
        pair: u32,
        /// When.
        at: u64,
    },
    /// The arbiter paused the clock.
    Paused {
        /// When.
        at: u64,
    },
    /// The arbiter resumed the clock.
    Resumed {
        /// When.
        at: u64,
    },
    /// A reading was changed.
    Adjusted {
        /// When.
        at: u64,
        /// Whose clock.
        side: Color,
        /// Reading before.
        from: Millis,
        /// Reading after.
        to: Millis,
        /// Why.
        reason: AdjustReason,
    },
    /// A move counter was changed by the arbiter.
    MovesSet {
        /// When.
        at: u64,
        /// Whose counter.
        side: Color,
        /// New number of completed moves.
        moves: u32,
    },
    /// The game ended on the clock.
    Ended {
        /// How.
        verdict: ClockVerdict,
    },
    /// The caller stopped the clock (game over by other means).
    Stopped {
        /// When.
        at: u64,
    },
}

/// Every move and event of one clock.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct History {
    /// Readings at the start: `[White, Black]`.
    pub initial: [Millis; 2],
    /// Moves in the order committed.
    pub moves: Vec<MoveRecord>,
    /// Other events in order.
    pub events: Vec<ClockEvent>,
}

impl History {
    /// `side`'s reading right after their `n`-th move (`n = 0`: at the
    /// start), as recorded. When a move number was recorded more than once
    /// (after a restore), the latest record counts.
    pub fn reading_after(&self, side: Color, n: u32) -> Option<Millis> {
        if n == 0 {
            return Some(self.initial[side.index()]);
        }
        self.moves
            .iter()
            .rev()
            .find(|m| m.side == side && m.number == n)
            .map(|m| m.readings[side.index()])
    }

    /// The moves of one player.
    pub fn moves_of(&self, side: Color) -> impl Iterator<Item = &MoveRecord> {
        self.moves.iter().filter(move |m| m.side == side)
    }
}
