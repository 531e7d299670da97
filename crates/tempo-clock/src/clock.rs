//! The clock for alternating play: one side runs at a time.

use tempo_chess::Color;

use crate::adjust;
use crate::control::TimeControl;
use crate::error::ClockError;
use crate::history::{ClockEvent, ClockVerdict, FlagFall, History, MoveRecord};
use crate::millis::Millis;
use crate::player::{Player, record};

/// Where a clock is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockState {
    /// Set up, not yet started.
    NotStarted,
    /// Running.
    Running,
    /// Paused by the arbiter.
    Paused {
        /// When the pause began.
        since: u64,
    },
    /// Over on time.
    Over(ClockVerdict),
    /// Stopped by the caller (game over by other means).
    Stopped,
}

/// A chess clock for alternating play, driven by timestamps in
/// milliseconds (see [`crate::TimeSource`]).
///
/// White's clock starts with [`Clock::start`]; each [`Clock::commit`]
/// stops the mover's clock, credits refund, increment and any period
/// bonus, and starts the opponent's. A flag falls at the exact instant the
/// mover's time runs out, checked against the period's move quota (the
/// next period's time arrives only with the move that fills the quota).
///
/// ```
/// use tempo_chess::Color;
/// use tempo_clock::{Clock, Millis, TimeControl};
/// let tc: TimeControl = "300+3".parse().unwrap();
/// let mut clock = Clock::new(tc).unwrap();
/// clock.start(0).unwrap();
/// clock.commit(Color::White, 10_000).unwrap();
/// assert_eq!(clock.reading(Color::White, 10_000), Millis::seconds(293));
/// assert_eq!(clock.reading(Color::Black, 15_000), Millis::seconds(295));
/// ```
#[derive(Debug, Clone)]
pub struct Clock {
    control: TimeControl,
    players: [Player; 2],
    to_move: Color,
    state: ClockState,
    last_at: u64,
    history: History,
}

impl Clock {
    /// A clock for `control`, White to move. Refuses `?` and `-`.
    pub fn new(control: TimeControl) -> Result<Clock, ClockError> {
        let initial = control.initial().ok_or(ClockError::NoTimeLimit)?;
        Ok(Clock {
            control,
            players: [
                Player::new(Color::White, initial),
                Player::new(Color::Black, initial),
            ],
            to_move: Color::White,
            state: ClockState::NotStarted,
            last_at: 0,
            history: History {
                initial: [initial, initial],
                ..History::default()
            },
        })
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The clock's state.
    pub fn state(&self) -> ClockState {
        self.state
    }

    /// Whose clock runs (or would run).
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// `side`'s completed moves.
    pub fn moves(&self, side: Color) -> u32 {
        self.players[side.index()].moves
    }

    /// Every move and event so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    fn tick(&mut self, at: u64) -> Result<(), ClockError> {
        if at < self.last_at {
            return Err(ClockError::TimeWentBackwards {
                at,
                last: self.last_at,
            });
        }
        self.last_at = at;
        Ok(())
    }

    /// Starts White's clock at `at`.
    pub fn start(&mut self, at: u64) -> Result<(), ClockError> {
        if self.state != ClockState::NotStarted {
            return Err(ClockError::AlreadyStarted);
        }
        self.tick(at)?;
        self.players[self.to_move.index()].turn_started = at;
        self.state = ClockState::Running;
        self.history.events.push(ClockEvent::Started { at });
        Ok(())
    }

    fn is_hourglass(&self) -> bool {
        matches!(self.control, TimeControl::Hourglass { .. })
    }

    /// Thinking time of the mover at `at` (frozen while paused).
    fn mover_elapsed(&self, at: u64) -> Millis {
        let mover = &self.players[self.to_move.index()];
        match self.state {
            ClockState::Running => mover.elapsed(at),
            ClockState::Paused { since } => mover.elapsed(since),
            _ => Millis::ZERO,
        }
    }

    /// `side`'s reading at `at`. After a flag fall the loser shows zero.
    pub fn reading(&self, side: Color, at: u64) -> Millis {
        let p = &self.players[side.index()];
        let live = matches!(self.state, ClockState::Running | ClockState::Paused { .. });
        if let ClockState::Over(ClockVerdict::Flag(f)) = self.state
            && f.side == side
        {
            return Millis::ZERO;
        }
        if !live {
            return p.remaining;
        }
        let frozen_at = match self.state {
            ClockState::Paused { since } => since,
            _ => at,
        };
        if side == self.to_move {
            p.thinking_reading(&self.control, frozen_at)
        } else if self.is_hourglass() {
            p.remaining + self.mover_elapsed(at)
        } else {
            p.remaining
        }
    }

    /// When the mover's flag falls if nobody acts (while running).
    pub fn fall_instant(&self) -> Option<u64> {
        (self.state == ClockState::Running)
            .then(|| self.players[self.to_move.index()].fall_instant(&self.control))
    }

    /// Checks for a flag fall at `at`; once fallen, the game is over on
    /// time and every later check returns the same verdict.
    pub fn check_flag(&mut self, at: u64) -> Option<ClockVerdict> {
        if let ClockState::Over(v) = self.state {
            return Some(v);
        }
        let fall = self.fall_instant()?;
        if at < fall {
            return None;
        }
        let mover = &self.players[self.to_move.index()];
        let verdict = ClockVerdict::Flag(FlagFall {
            side: self.to_move,
            at: fall,
            moves_done: mover.moves,
            in_last_period: self.control.in_last_period(mover.moves),
        });
        self.last_at = self.last_at.max(at);
        self.state = ClockState::Over(verdict);
        self.history.events.push(ClockEvent::Ended { verdict });
        Some(verdict)
    }

    fn ensure_running(&mut self, at: u64) -> Result<(), ClockError> {
        if let Some(ClockVerdict::Flag(f)) = self.check_flag(at) {
            return Err(ClockError::Flagged(f.side));
        }
        match self.state {
            ClockState::Running => Ok(()),
            ClockState::NotStarted => Err(ClockError::NotStarted),
            ClockState::Paused { .. } => Err(ClockError::Paused),
            ClockState::Over(_) | ClockState::Stopped => Err(ClockError::GameOver),
        }
    }

    /// `side` completes a move at `at`. A commit at or after the fall
    /// instant is too late: the flag has fallen and the error says so.
    pub fn commit(&mut self, side: Color, at: u64) -> Result<&MoveRecord, ClockError> {
        self.ensure_running(at)?;
        if side != self.to_move {
            return Err(ClockError::NotYourMove(side));
        }
        self.tick(at)?;
        let control = self.control.clone();
        let mover = &mut self.players[side.index()];
        let committed = mover.commit(&control, at);
        let number = mover.moves;
        if self.is_hourglass() {
            self.players[side.other().index()].remaining += committed.thinking;
        }
        self.to_move = !side;
        self.players[self.to_move.index()].turn_started = at;
        let readings = [self.players[0].remaining, self.players[1].remaining];
        self.history
            .moves
            .push(record(side, number, None, at, &committed, readings));
        Ok(self.history.moves.last().expect("just pushed"))
    }

    /// The arbiter pauses the clock.
    pub fn pause(&mut self, at: u64) -> Result<(), ClockError> {
        self.ensure_running(at)?;
        self.tick(at)?;
        self.state = ClockState::Paused { since: at };
        self.history.events.push(ClockEvent::Paused { at });
        Ok(())
    }

    /// The arbiter resumes the clock; the pause does not count as thinking.
    pub fn resume(&mut self, at: u64) -> Result<(), ClockError> {
        let ClockState::Paused { since } = self.state else {
            return Err(ClockError::NotPaused);
        };
        self.tick(at)?;
        self.players[self.to_move.index()].turn_started += at - since;
        self.state = ClockState::Running;
        self.history.events.push(ClockEvent::Resumed { at });
        Ok(())
    }

    fn ensure_adjustable(&mut self, at: u64) -> Result<(), ClockError> {
        if self.state == ClockState::Running {
            self.ensure_running(at)?;
        }
        match self.state {
            ClockState::Over(_) | ClockState::Stopped => Err(ClockError::GameOver),
            _ => self.tick(at),
        }
    }

    fn set_reading(&mut self, side: Color, at: u64, to: Millis) {
        let frozen_at = match self.state {
            ClockState::Paused { since } => since,
            _ => at,
        };
        let live = matches!(self.state, ClockState::Running | ClockState::Paused { .. });
        if live && side == self.to_move {
            let control = self.control.clone();
            self.players[side.index()].set_thinking_reading(&control, frozen_at, to);
        } else if live && self.is_hourglass() {
            self.players[side.index()].remaining = to - self.mover_elapsed(at);
        } else {
            self.players[side.index()].remaining = to;
        }
    }

    /// The arbiter sets `side`'s reading to `to` (Article 6.10 and 7).
    pub fn adjust(&mut self, side: Color, to: Millis, at: u64) -> Result<(), ClockError> {
        adjust::adjust(self, side, to, at)
    }

    /// Gives `side` extra time (positive `delta`).
    pub fn add_time(&mut self, side: Color, delta: Millis, at: u64) -> Result<(), ClockError> {
        adjust::add_time(self, side, delta, at)
    }

    /// FIDE Article 7.5.5: after `offender`'s first illegal move the
    /// opponent gets two minutes (standard) or one minute (rapid, blitz).
    /// Returns the time given.
    pub fn penalty(&mut self, offender: Color, at: u64) -> Result<Millis, ClockError> {
        adjust::penalty(self, offender, at)
    }

    /// The arbiter restores an earlier position (Article 7.5.1): both move
    /// counters and readings, and who is to move. The new move starts now.
    pub fn restore(
        &mut self,
        at: u64,
        to_move: Color,
        moves: [u32; 2],
        readings: [Millis; 2],
    ) -> Result<(), ClockError> {
        adjust::restore_counters(self, at, moves, readings)?;
        self.to_move = to_move;
        let start = match self.state {
            ClockState::Paused { since } => since,
            _ => at,
        };
        self.players[to_move.index()].turn_started = start;
        Ok(())
    }

    /// Stops the clock for good (the game ended on the board).
    pub fn stop(&mut self, at: u64) -> Result<(), ClockError> {
        if self.state == ClockState::Running {
            self.ensure_running(at)?;
        }
        if matches!(self.state, ClockState::Running | ClockState::Paused { .. }) {
            self.tick(at)?;
            let readings = Color::ALL.map(|side| self.reading(side, at));
            for side in Color::ALL {
                self.players[side.index()].remaining = readings[side.index()];
            }
        } else if matches!(self.state, ClockState::Over(_) | ClockState::Stopped) {
            return Err(ClockError::GameOver);
        }
        self.state = ClockState::Stopped;
        self.history.events.push(ClockEvent::Stopped { at });
        Ok(())
    }
}

adjust::impl_adjustable!(Clock);
