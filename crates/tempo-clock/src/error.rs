//! Typed errors of the crate; every message names the problem and where.

use tempo_chess::Color;
use thiserror::Error;

use crate::millis::Millis;

/// A time span could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DurationError {
    /// Nothing to read.
    #[error("empty time")]
    Empty,
    /// A field is not a number.
    #[error("`{field}` in time `{text}` is not a number")]
    BadField {
        /// The offending field.
        field: String,
        /// The whole text.
        text: String,
    },
    /// Minutes or seconds of 60 or more after a colon.
    #[error("`{field}` in time `{text}` must be below 60")]
    FieldOutOfRange {
        /// The offending field.
        field: String,
        /// The whole text.
        text: String,
    },
    /// More than `H:MM:SS`.
    #[error("time `{0}` has more than three colon-separated fields (H:MM:SS)")]
    TooManyFields(String),
    /// A number without a unit.
    #[error("time `{0}` needs a unit (e.g. `20m`, `90m30s`) or the form H:MM:SS / M:SS")]
    MissingUnit(String),
    /// A unit not in `d h m s ms`.
    #[error("unknown unit `{unit}` in time `{text}` (use d, h, m, s or ms)")]
    UnknownUnit {
        /// The unit as written.
        unit: String,
        /// The whole text.
        text: String,
    },
    /// Units repeated or out of order (`30s5m`).
    #[error("units in time `{0}` must go from larger to smaller, each once (e.g. `1h30m`)")]
    UnitOrder(String),
    /// More than 100 years.
    #[error("time `{0}` is too long (at most 100 years)")]
    TooLong(String),
}

/// A list of periods that cannot be a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum InvalidControl {
    /// No period at all.
    #[error("a time control needs at least one period")]
    NoPeriods,
    /// A quota of zero moves.
    #[error("period {period} has a quota of zero moves")]
    ZeroQuota {
        /// 1-based period number.
        period: usize,
    },
    /// A rest-of-game period followed by another period.
    #[error("period {period} is for the rest of the game but is not the last period")]
    RestNotLast {
        /// 1-based period number.
        period: usize,
    },
    /// A negative time.
    #[error("period {period} has a negative time")]
    Negative {
        /// 1-based period number.
        period: usize,
    },
    /// A time over 100 years.
    #[error("period {period} has a time over 100 years")]
    TooLong {
        /// 1-based period number.
        period: usize,
    },
    /// The first period grants no time at all.
    #[error("the first period grants no time (base, increment and delay are all zero)")]
    NoTime,
}

/// A time control could not be read (PGN `TimeControl` or human form).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TimeControlError {
    /// Nothing to read.
    #[error("empty time control")]
    Empty,
    /// One period (or term) is malformed.
    #[error("time control `{text}`, period {period} (`{field}`): {problem}")]
    Field {
        /// The whole text.
        text: String,
        /// 1-based period (or term) number.
        period: usize,
        /// The period's text.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A sandclock among other periods.
    #[error("time control `{0}`: a sandclock (`*N`) must be the only period")]
    SandclockNotAlone(String),
    /// The periods read do not form a valid control.
    #[error("time control `{text}`: {rule}")]
    Invalid {
        /// The whole text.
        text: String,
        /// The rule broken (a field of the message, not an error source, so
        /// that a report of the chain does not repeat it).
        rule: InvalidControl,
    },
    /// The human form could not be understood.
    #[error("time control `{text}`: {problem}")]
    Human {
        /// The whole text.
        text: String,
        /// What is wrong.
        problem: String,
    },
}

/// An arbiter correction that cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ArbiterError {
    /// More legal moves than played moves.
    #[error("legal moves ({legal}) cannot exceed played moves ({played})")]
    LegalExceedsPlayed {
        /// Moves played.
        played: u32,
        /// Moves legal.
        legal: u32,
    },
    /// A change asked although no move was played.
    #[error("no move has been played (played = 0): there is nothing to take back")]
    NothingPlayed,
    /// A negative time given.
    #[error("the {what} time cannot be negative ({value})")]
    NegativeTime {
        /// Which input.
        what: &'static str,
        /// Its value.
        value: Millis,
    },
    /// The move counts are beyond any game.
    #[error("move count {0} is beyond any real game (at most {max})", max = crate::arbiter::MAX_MOVES)]
    TooManyMoves(u32),
    /// The control has no clock, or no fixed allotment to reason from.
    #[error("the clock correction needs a time control with periods (not {0})")]
    UnsupportedControl(String),
    /// The history has no reading after that move.
    #[error("the clock history has no record of {}'s move {moves}", .side.fold("White", "Black"))]
    NotInHistory {
        /// Whose move.
        side: Color,
        /// The move number asked for.
        moves: u32,
    },
}

/// A clock operation refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ClockError {
    /// `?` or `-`: there is no clock to run.
    #[error("the time control has no time limit, so there is no clock to run")]
    NoTimeLimit,
    /// The clock has not been started.
    #[error("the clock has not been started")]
    NotStarted,
    /// The clock was already started.
    #[error("the clock has already been started")]
    AlreadyStarted,
    /// The game is over on time.
    #[error("the game is over: {}'s flag has fallen", .0.fold("White", "Black"))]
    Flagged(Color),
    /// The game is over (both flags, or ended by the caller).
    #[error("the game is over")]
    GameOver,
    /// The wrong player tried to move.
    #[error("it is not {}'s move", .0.fold("White", "Black"))]
    NotYourMove(Color),
    /// A player committed twice in one pair.
    #[error("{} has already committed a move in this pair", .0.fold("White", "Black"))]
    AlreadyCommitted(Color),
    /// Operation needs a running clock.
    #[error("the clock is paused")]
    Paused,
    /// Resume without pause.
    #[error("the clock is not paused")]
    NotPaused,
    /// A timestamp before the previous one.
    #[error("time went backwards: {at} ms is before {last} ms")]
    TimeWentBackwards {
        /// The timestamp given.
        at: u64,
        /// The latest timestamp seen.
        last: u64,
    },
    /// A negative time set by the arbiter.
    #[error("the clock cannot be set to a negative time ({0})")]
    NegativeSetting(Millis),
    /// No penalty time is defined for this control.
    #[error("no FIDE penalty time is defined for this time control")]
    NoPenalty,
}
