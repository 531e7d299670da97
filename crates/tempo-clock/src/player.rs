//! One player's side of a clock: the rules shared by the alternating and
//! the simultaneous clock.

use tempo_chess::Color;

use crate::control::{Charging, TimeControl};
use crate::history::MoveRecord;
use crate::millis::Millis;

/// One player's clock state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Player {
    pub side: Color,
    /// Main time at the start of the current move (all credits included).
    pub remaining: Millis,
    /// Completed moves.
    pub moves: u32,
    /// Timestamp from which the current move's thinking time counts;
    /// pauses move it forward by their length.
    pub turn_started: u64,
    /// A quota end whose bonus was already granted early (both flags fell
    /// at once and the game continued): no second bonus there.
    pub bonus_granted_at: Option<u32>,
}

/// What a commit produced before the clock adds the readings.
pub(crate) struct Committed {
    pub thinking: Millis,
    pub charged: Millis,
    pub refund: Millis,
    pub increment: Millis,
    pub bonus: Millis,
}

impl Player {
    pub(crate) fn new(side: Color, initial: Millis) -> Player {
        Player {
            side,
            remaining: initial,
            moves: 0,
            turn_started: 0,
            bonus_granted_at: None,
        }
    }

    fn charging(&self, control: &TimeControl) -> Charging {
        control
            .charging(self.moves.saturating_add(1))
            .expect("clocks are only built for controls with a limit")
    }

    pub(crate) fn elapsed(&self, at: u64) -> Millis {
        Millis(at.saturating_sub(self.turn_started) as i64)
    }

    /// The reading while this player is thinking.
    pub(crate) fn thinking_reading(&self, control: &TimeControl, at: u64) -> Millis {
        self.remaining - self.charging(control).consumed(self.elapsed(at))
    }

    /// The timestamp at which this player's flag falls if they keep
    /// thinking.
    pub(crate) fn fall_instant(&self, control: &TimeControl) -> u64 {
        let after = self.charging(control).fall_after(self.remaining);
        self.turn_started
            .saturating_add(after.as_millis().max(0) as u64)
    }

    /// Sets the thinking reading to `to` at `at`, keeping the move's
    /// elapsed time (so delays and refunds stay consistent).
    pub(crate) fn set_thinking_reading(&mut self, control: &TimeControl, at: u64, to: Millis) {
        self.remaining = to + self.charging(control).consumed(self.elapsed(at));
    }

    /// Completes a move at `at` and credits increment, refund and bonus.
    pub(crate) fn commit(&mut self, control: &TimeControl, at: u64) -> Committed {
        let charging = self.charging(control);
        let thinking = self.elapsed(at);
        let charged = charging.consumed(thinking);
        let refund = charging.refund(thinking);
        self.moves += 1;
        let (increment, mut bonus) = control.credit_after(self.moves);
        if self.bonus_granted_at == Some(self.moves) {
            bonus = Millis::ZERO;
            self.bonus_granted_at = None;
        }
        self.remaining = match charging {
            Charging::PerMove(limit) => limit,
            _ => self.remaining - charged + refund + increment + bonus,
        };
        Committed {
            thinking,
            charged,
            refund,
            increment,
            bonus,
        }
    }

    /// Grants the next period's time at once (both flags fell in a period
    /// with a quota and the game continues). Returns the time granted.
    pub(crate) fn grant_next_period(&mut self, control: &TimeControl) -> Millis {
        let Some(periods) = control.periods() else {
            return Millis::ZERO;
        };
        let Some(end) = periods.next_quota_end(self.moves) else {
            return Millis::ZERO;
        };
        if self.bonus_granted_at == Some(end) {
            // One early grant per quota: a second double fall before the
            // quota is reached cannot be continued.
            return Millis::ZERO;
        }
        let bonus = periods.bonus_after(end);
        self.remaining += bonus;
        self.bonus_granted_at = Some(end);
        bonus
    }
}

pub(crate) fn record(
    side: Color,
    number: u32,
    pair: Option<u32>,
    at: u64,
    c: &Committed,
    readings: [Millis; 2],
) -> MoveRecord {
    MoveRecord {
        side,
        number,
        pair,
        committed_at: at,
        thinking: c.thinking,
        charged: c.charged,
        refund: c.refund,
        increment: c.increment,
        bonus: c.bonus,
        readings,
    }
}
