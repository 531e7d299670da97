//! The arbiter's clock operations shared by [`Clock`](crate::Clock) and
//! [`SimulClock`](crate::SimulClock): setting a reading, adding time, the
//! illegal-move penalty and restoring move counters with readings.
//!
//! Both clocks differ only in how a reading is frozen and set (who is
//! thinking, hourglass transfer); the bookkeeping and the checks are the
//! same, so they live here once behind the small [`Adjustable`] trait.

use tempo_chess::Color;

use crate::error::ClockError;
use crate::history::{AdjustReason, ClockEvent};
use crate::millis::Millis;
use crate::player::Player;

/// What the shared operations need of a clock.
pub(crate) trait Adjustable {
    /// `side`'s reading at time `at`.
    fn reading_at(&self, side: Color, at: u64) -> Millis;
    /// Brings the clock up to `at`; refuses a finished game.
    fn prepare_adjustment(&mut self, at: u64) -> Result<(), ClockError>;
    /// Makes `side`'s reading at `at` equal `to`.
    fn store_reading(&mut self, side: Color, at: u64, to: Millis);
    /// The time the FIDE 7.5.5 penalty gives, if the control has one.
    fn penalty_time(&self) -> Option<Millis>;
    /// Both players' clock state.
    fn players_mut(&mut self) -> &mut [Player; 2];
    /// The event history.
    fn events_mut(&mut self) -> &mut Vec<ClockEvent>;
}

/// Implements [`Adjustable`] for a clock type with the fields `control`,
/// `players` and `history` and the methods `reading`, `ensure_adjustable`
/// and `set_reading` (both clocks have them).
macro_rules! impl_adjustable {
    ($clock:ty) => {
        impl $crate::adjust::Adjustable for $clock {
            fn reading_at(&self, side: Color, at: u64) -> Millis {
                self.reading(side, at)
            }

            fn prepare_adjustment(&mut self, at: u64) -> Result<(), ClockError> {
                self.ensure_adjustable(at)
            }

            fn store_reading(&mut self, side: Color, at: u64, to: Millis) {
                self.set_reading(side, at, to);
            }

            fn penalty_time(&self) -> Option<Millis> {
                self.control.penalty_time()
            }

            fn players_mut(&mut self) -> &mut [Player; 2] {
                &mut self.players
            }

            fn events_mut(&mut self) -> &mut Vec<ClockEvent> {
                &mut self.history.events
            }
        }
    };
}
pub(crate) use impl_adjustable;

/// Sets `side`'s reading to `to`, recording why; the clock is already
/// brought up to `at`.
fn set_recorded<C: Adjustable>(
    clock: &mut C,
    side: Color,
    to: Millis,
    at: u64,
    reason: AdjustReason,
) -> Result<(), ClockError> {
    if to.is_negative() {
        return Err(ClockError::NegativeSetting(to));
    }
    let from = clock.reading_at(side, at);
    clock.store_reading(side, at, to);
    clock.events_mut().push(ClockEvent::Adjusted {
        at,
        side,
        from,
        to,
        reason,
    });
    Ok(())
}

/// The arbiter sets `side`'s reading to `to`.
pub(crate) fn adjust<C: Adjustable>(
    clock: &mut C,
    side: Color,
    to: Millis,
    at: u64,
) -> Result<(), ClockError> {
    if to.is_negative() {
        return Err(ClockError::NegativeSetting(to));
    }
    clock.prepare_adjustment(at)?;
    set_recorded(clock, side, to, at, AdjustReason::Arbiter)
}

/// Gives `side` `delta` more time.
pub(crate) fn add_time<C: Adjustable>(
    clock: &mut C,
    side: Color,
    delta: Millis,
    at: u64,
) -> Result<(), ClockError> {
    clock.prepare_adjustment(at)?;
    let to = clock.reading_at(side, at) + delta;
    set_recorded(clock, side, to, at, AdjustReason::Penalty)
}

/// FIDE Article 7.5.5: the opponent of `offender` gets two minutes
/// (standard) or one (rapid, blitz). Returns the time given.
pub(crate) fn penalty<C: Adjustable>(
    clock: &mut C,
    offender: Color,
    at: u64,
) -> Result<Millis, ClockError> {
    let time = clock.penalty_time().ok_or(ClockError::NoPenalty)?;
    add_time(clock, !offender, time, at)?;
    Ok(time)
}

/// Sets both move counters and readings (Article 7.5.1), recording both.
/// The caller then starts the new move or pair.
pub(crate) fn restore_counters<C: Adjustable>(
    clock: &mut C,
    at: u64,
    moves: [u32; 2],
    readings: [Millis; 2],
) -> Result<(), ClockError> {
    if let Some(&bad) = readings.iter().find(|r| r.is_negative()) {
        return Err(ClockError::NegativeSetting(bad));
    }
    clock.prepare_adjustment(at)?;
    for side in Color::ALL {
        let from = clock.reading_at(side, at);
        let player = &mut clock.players_mut()[side.index()];
        player.moves = moves[side.index()];
        player.remaining = readings[side.index()];
        player.bonus_granted_at = None;
        let events = clock.events_mut();
        events.push(ClockEvent::MovesSet {
            at,
            side,
            moves: moves[side.index()],
        });
        events.push(ClockEvent::Adjusted {
            at,
            side,
            from,
            to: readings[side.index()],
            reason: AdjustReason::Restore,
        });
    }
    Ok(())
}
