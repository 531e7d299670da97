//! Lichess's first-move rule, for a game whose header carries a
//! first-move timer ([`crate::Header::first_move`]): the clocks do not run
//! from the start. Each side has the timer for its first move (in
//! alternating play White's from the start, Black's from White's move; in
//! a simultaneous game both from the start, for the first step's
//! commits); a side that lets it run out aborts the game, which ends
//! without a result. The clocks start when every side has moved:
//! after Black's first move, or at the first reveal.

use tempo_chess::Color;

use crate::end::{End, EndReason, EndResult};
use crate::entry::{Body, Entry};
use crate::game::{Board, GameClock};
use crate::{HostError, HostedGame};

/// The first-move timer while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FirstMove {
    /// Its length, milliseconds.
    pub(crate) timer: u64,
    /// When the wait for the pending first move began (the start, or
    /// White's first move; an arbiter's resume starts it afresh).
    pub(crate) since: u64,
}

impl HostedGame {
    /// Steps that hold every side's first move: two moves in alternating
    /// play, the first step in a simultaneous game.
    fn first_steps(&self) -> u32 {
        match self.board {
            Board::Orthodox(_) => 2,
            Board::Sync(_) => 1,
        }
    }

    /// Whether the game still waits for a first move (its clocks stand).
    pub fn awaiting_first_move(&self) -> bool {
        self.first_move.is_some() && self.end.is_none()
    }

    /// When the pending first move is due, if the rule holds and the game
    /// is not paused.
    pub fn first_move_deadline(&self) -> Option<u64> {
        if self.paused || self.end.is_some() {
            return None;
        }
        self.first_move.map(|f| f.since.saturating_add(f.timer))
    }

    /// Who owes a first move now: one colour in alternating play, `None`
    /// for both sides of a simultaneous first step (or no rule pending).
    pub fn first_move_due(&self) -> Option<Color> {
        match &self.board {
            Board::Orthodox(game) if self.awaiting_first_move() => Some(game.position().turn()),
            _ => None,
        }
    }

    /// Whether the clocks run now: timed, started, not paused, not over.
    pub fn clock_running(&self) -> bool {
        self.clock.is_some() && self.first_move.is_none() && !self.paused && self.end.is_none()
    }

    /// Whether a player may abort now. Under the first-move rule, until
    /// every side has moved (lichess); a game without it (written before
    /// the rule, a tournament board — online or at a table —, an untimed
    /// game) keeps the older rule: only before the first step, so a stored
    /// or paired game does not gain a new way to end without a result.
    pub fn abortable(&self) -> bool {
        let steps = if self.header().first_move.is_some() {
            self.first_steps()
        } else {
            1
        };
        self.end.is_none() && self.step < steps
    }

    /// The end by the first-move rule, at the deadline, if it has passed
    /// by `at`; `None` while the rule is not pending or time is left.
    pub(crate) fn first_move_expired(&mut self, at: u64) -> Option<Result<Vec<Entry>, HostError>> {
        let deadline = self.first_move_deadline()?;
        if deadline > at {
            return None;
        }
        let body = Body::End(End::new(EndResult::NoResult, EndReason::Aborted));
        Some(self.append(body, deadline, None).map(|entry| vec![entry]))
    }

    /// After a step: the next side's timer, or, once every side has
    /// moved, the clocks start at `at` with each side's first move
    /// counted as a move that took no time (its increment credited, so
    /// that a period's quota counts every move).
    pub(crate) fn first_move_made(&mut self, at: u64) -> Result<(), HostError> {
        let pending = self.step < self.first_steps();
        let Some(first) = &mut self.first_move else {
            return Ok(());
        };
        if pending {
            first.since = at;
            return Ok(());
        }
        self.first_move = None;
        let clock_error = |e: tempo_clock::ClockError| HostError::Clock(e.to_string());
        match &mut self.clock {
            Some(GameClock::Alternating(c)) => {
                c.start(at).map_err(clock_error)?;
                let mover = c.to_move();
                c.commit(mover, at).map_err(clock_error)?;
                c.commit(!mover, at).map_err(clock_error)?;
            }
            Some(GameClock::Simul(c)) => {
                c.start(at).map_err(clock_error)?;
                for color in Color::ALL {
                    c.commit(color, at).map_err(clock_error)?;
                }
            }
            None => {}
        }
        Ok(())
    }
}
