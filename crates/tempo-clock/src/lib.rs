//! Time controls, chess clocks for alternating and simultaneous play, and
//! the arbiter's clock correction.
//!
//! - [`TimeControl`]: periods with move quotas, base time, increment and a
//!   delay (none, simple / FIDE time-delay, Bronstein); hourglass;
//!   correspondence (days per move, ICCF). Read and written as PGN
//!   `TimeControl` ([`pgn`]: `300+3`, `40/5400+30:1800+30`, `*180`, `-`)
//!   and in a human form ([`human`]: `90m/40 + 30m + 30s`, `5+3`).
//! - [`Clock`] (alternating) and [`SimulClock`] (simultaneous moves): pure
//!   state machines fed with timestamps from a [`TimeSource`], with flag
//!   detection against the period's quota, pause and resume, adjustments,
//!   FIDE penalties and a [`History`] of every reading.
//! - [`arbiter`]: the clock correction after a late-discovered illegal
//!   move — formulas (1)-(5) and the multi-period form with `alloc(n)`.
//!
//! The players are tempo-chess's [`Color`](tempo_chess::Color), White and Black.
//!
//! # Decisions
//!
//! **`alloc(n)`** ([`Periods::alloc`]) is all time granted to a player after
//! `n` of their own completed moves: the first base, the base of each later
//! period whose turn has come, and the increment of each move. A period's
//! base is credited with the move that fills the quota before it: with
//! `40/5400+30:1800+30`, `alloc(40)` already includes the 30 minutes. A last
//! period with a quota repeats.
//!
//! **Rounding.** Corrections are exact rationals of milliseconds; they are
//! rounded to the millisecond, or to the nearest second for display, both
//! from the exact value, halves rounded up ([`arbiter::ExactTime`]).
//!
//! **Both flags in one pair** (simultaneous play): the earlier fall instant
//! loses; at the same millisecond the game is drawn in the last period and
//! continues with the next period's time otherwise, once per quota (FIDE
//! Guidelines III.3.1). See [`SimulClock`].
//!
//! **Flags** fall automatically at the exact instant a player's time runs
//! out before the period's quota is reached (as on a server, or with an
//! arbiter watching); a commit at that instant is too late.
//!
//! ```
//! use tempo_clock::{arbiter, Millis, TimeControl};
//! let tc: TimeControl = "40/5400+30:1800+30".parse().unwrap();
//! assert_eq!(tc.human(), "90m/40 + 30m + 30s");
//! let c = arbiter::correct_control(&tc, 45, 38, Millis::minutes(25)).unwrap();
//! assert_eq!(c.set_display().hms(), "0:09:47");
//! ```

mod adjust;
pub mod arbiter;
mod clock;
mod control;
mod error;
mod history;
pub mod human;
mod millis;
pub mod pgn;
mod player;
mod simul;
mod source;

pub use clock::{Clock, ClockState};
pub use control::{Category, Correspondence, Delay, Period, Periods, TimeControl};
pub use error::{ArbiterError, ClockError, DurationError, InvalidControl, TimeControlError};
pub use history::{AdjustReason, ClockEvent, ClockVerdict, FlagFall, History, MoveRecord};
pub use millis::Millis;
pub use simul::{SimulClock, SimulCommit, SimulState};
pub use source::{ManualTime, TimeSource};

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads a PGN `TimeControl` value, or failing that the human form.
    /// Valid PGN wins: `5+3` is PGN for 5 s + 3 s (lichess writes 5
    /// minutes as `300+3`); [`human::parse_human`] alone reads `5+3` as
    /// 5 minutes + 3 seconds. When neither reads, the error of the form the
    /// text looks like is reported (human if it has spaces, `;`, a unit
    /// `h`/`m`/`s`, or starts with a word).
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        match pgn::parse_pgn(text) {
            Ok(tc) => Ok(tc),
            Err(pgn_error) => human::parse_human(text).map_err(|human_error| {
                let t = text.trim();
                let looks_human = t.contains(|c: char| c.is_whitespace() || "hmsHMS;".contains(c))
                    || t.starts_with(|c: char| c.is_ascii_alphabetic());
                if looks_human { human_error } else { pgn_error }
            }),
        }
    }
}

impl std::fmt::Display for TimeControl {
    /// The PGN `TimeControl` value, or the human form for a control PGN
    /// cannot express (ICCF).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match pgn::write_pgn(self) {
            Some(pgn) => f.write_str(&pgn),
            None => f.write_str(&human::write_human(self)),
        }
    }
}

impl TimeControl {
    /// The PGN `TimeControl` value; `None` for a control PGN cannot
    /// express (ICCF's whole days, where a day beyond 20 counts double):
    /// written as periods it would read back as another control.
    pub fn pgn(&self) -> Option<String> {
        pgn::write_pgn(self)
    }

    /// The human form.
    pub fn human(&self) -> String {
        human::write_human(self)
    }
}
