//! The arbiter's actions on a hosted game: pause and resume, clocks,
//! penalties, restoring an earlier position with the clock correction,
//! declaring a result.

use tempo_chess::Color;
use tempo_clock::Millis;

use crate::end::{End, EndReason, EndResult};
use crate::entry::{Body, Entry};
use crate::game::{Board, GameClock, Snapshot};
use crate::{ArbiterAction, ClockRestore, HostError, HostedGame};

/// The most an arbiter may set a clock to, or add at once, in a game whose
/// initial time is shorter: a day.
pub const MAX_ARBITER_TIME: Millis = Millis::DAY;

impl HostedGame {
    pub(crate) fn arbiter(
        &mut self,
        arbiter: String,
        reason: String,
        action: ArbiterAction,
        at: u64,
    ) -> Result<Vec<Entry>, HostError> {
        if arbiter.is_empty() || arbiter.len() > 64 || reason.len() > 500 {
            return Err(HostError::Spec(
                "arbiter: a name of 1-64 bytes and a reason of at most 500".into(),
            ));
        }
        self.check_arbiter_time(&action, at)?;
        // Try it on a copy first: an action the clock or board refuses
        // is not logged.
        let set_result = match &action {
            ArbiterAction::SetResult { result } => Some(declared(result)?),
            _ => None,
        };
        let body = Body::Arbiter {
            arbiter,
            reason,
            action,
        };
        let mut trial = self.clone();
        let probe = trial.entry(body.clone(), at, None);
        trial.evolve(&probe)?;
        let mut entries = vec![self.append(body, at, None)?];
        if let Some(result) = set_result {
            let end = End::new(result, EndReason::Arbiter);
            entries.push(self.append(Body::End(end), at, None)?);
        }
        Ok(entries)
    }

    /// The most an arbiter may put on a clock, or add or take at once:
    /// a day, or the game's initial time if that is longer (a
    /// correspondence game's days). Beyond it a typo (or `i64::MAX`) would
    /// decide the game or overflow the clock.
    pub fn arbiter_time_limit(&self) -> Millis {
        let initial = self
            .header()
            .time_control()
            .and_then(|control| control.initial())
            .unwrap_or(Millis::ZERO);
        initial.max(MAX_ARBITER_TIME)
    }

    /// Refuses a clock setting or addition outside
    /// [`HostedGame::arbiter_time_limit`] (checked on a new action only:
    /// a stored log replays as it was written).
    fn check_arbiter_time(&self, action: &ArbiterAction, at: u64) -> Result<(), HostError> {
        let limit = self.arbiter_time_limit();
        let ms = limit.0;
        let refuse = |text: String| Err(HostError::Spec(text));
        match *action {
            ArbiterAction::SetClock { millis, .. } if !(0..=ms).contains(&millis) => {
                refuse(format!(
                    "setClock: millis must be 0 to {ms} ({}), not {millis}",
                    limit.hms()
                ))
            }
            ArbiterAction::AddTime { millis, .. }
                if millis == 0 || millis.unsigned_abs() > ms as u64 =>
            {
                refuse(format!(
                    "addTime: millis must be 1 to {ms} ({}), or as much taken away, not {millis}",
                    limit.hms()
                ))
            }
            ArbiterAction::AddTime { color, millis } => {
                let Some(now) = self.reading(color, at) else {
                    return Ok(()); // No clock: the action is refused as such.
                };
                let after = now.0.saturating_add(millis);
                if (0..=ms).contains(&after) {
                    Ok(())
                } else {
                    refuse(format!(
                        "addTime: the clock would read {} ({after} ms): it must stay 0 to {} ({ms} ms)",
                        Millis(after).hms(),
                        limit.hms()
                    ))
                }
            }
            _ => Ok(()),
        }
    }

    pub(crate) fn evolve_arbiter(
        &mut self,
        action: &ArbiterAction,
        at: u64,
    ) -> Result<(), HostError> {
        let clock_error = |e: tempo_clock::ClockError| HostError::Clock(e.to_string());
        let no_clock = || HostError::Clock("the game has no clock".into());
        match action {
            ArbiterAction::Pause => {
                if self.paused {
                    return Err(HostError::Paused);
                }
                // Before the first moves the clock stands: the pause
                // holds the first-move timer instead.
                match &mut self.clock {
                    _ if self.first_move.is_some() => {}
                    Some(GameClock::Alternating(c)) => c.pause(at).map_err(clock_error)?,
                    Some(GameClock::Simul(c)) => c.pause(at).map_err(clock_error)?,
                    None => {}
                }
                self.paused = true;
            }
            ArbiterAction::Resume => {
                if !self.paused {
                    return Err(HostError::Clock("the game is not paused".into()));
                }
                match &mut self.clock {
                    // The first-move timer starts afresh after a pause.
                    _ if self.first_move.is_some() => {
                        if let Some(first) = &mut self.first_move {
                            first.since = at;
                        }
                    }
                    Some(GameClock::Alternating(c)) => c.resume(at).map_err(clock_error)?,
                    Some(GameClock::Simul(c)) => c.resume(at).map_err(clock_error)?,
                    None => {}
                }
                self.paused = false;
            }
            ArbiterAction::SetClock { color, millis } => {
                match self.clock.as_mut().ok_or_else(no_clock)? {
                    GameClock::Alternating(c) => {
                        c.adjust(*color, Millis(*millis), at).map_err(clock_error)?
                    }
                    GameClock::Simul(c) => {
                        c.adjust(*color, Millis(*millis), at).map_err(clock_error)?
                    }
                }
            }
            ArbiterAction::AddTime { color, millis } => {
                match self.clock.as_mut().ok_or_else(no_clock)? {
                    GameClock::Alternating(c) => c
                        .add_time(*color, Millis(*millis), at)
                        .map_err(clock_error)?,
                    GameClock::Simul(c) => c
                        .add_time(*color, Millis(*millis), at)
                        .map_err(clock_error)?,
                }
            }
            ArbiterAction::Penalty { offender } => {
                match self.clock.as_mut().ok_or_else(no_clock)? {
                    GameClock::Alternating(c) => c.penalty(*offender, at).map_err(clock_error)?,
                    GameClock::Simul(c) => c.penalty(*offender, at).map_err(clock_error)?,
                };
            }
            ArbiterAction::Restore { step, clock } => self.restore(*step, *clock, at)?,
            ArbiterAction::SetResult { result } => {
                declared(result)?;
            }
        }
        Ok(())
    }

    /// FIDE 7.5.1: the position before step `step`, the clocks by `mode`.
    fn restore(&mut self, step: u32, mode: ClockRestore, at: u64) -> Result<(), HostError> {
        if self.first_move.is_some() {
            return Err(HostError::Spec(
                "restore: the clocks wait for the first moves; abort the game instead".into(),
            ));
        }
        let snapshot = self
            .snapshots
            .get(step as usize)
            .cloned()
            .ok_or_else(|| HostError::Spec(format!("restore: no step {step} in this game")))?;
        let readings = match &self.clock {
            None => None,
            Some(clock) => Some(self.restored_readings(clock, &snapshot, mode, at)?),
        };
        let clock_error = |e: tempo_clock::ClockError| HostError::Clock(e.to_string());
        match (&mut self.clock, readings) {
            (Some(GameClock::Alternating(c)), Some(r)) => {
                let to_move = match &snapshot.board {
                    Board::Orthodox(g) => g.position().turn(),
                    Board::Sync(_) => Color::White,
                };
                c.restore(at, to_move, snapshot.moves, r)
                    .map_err(clock_error)?;
            }
            (Some(GameClock::Simul(c)), Some(r)) => {
                c.restore(at, snapshot.moves, r).map_err(clock_error)?
            }
            _ => {}
        }
        let snapshot_uci_len = snapshot.uci_len;
        self.board = snapshot.board;
        self.snapshots.truncate(step as usize);
        self.record.truncate(step as usize);
        self.uci.truncate(snapshot_uci_len);
        self.step = step;
        self.sealed = [None, None];
        self.draw_offer = None;
        self.begin_step();
        self.commit_idle_sides(at)?;
        Ok(())
    }

    fn restored_readings(
        &self,
        clock: &GameClock,
        snapshot: &Snapshot,
        mode: ClockRestore,
        at: u64,
    ) -> Result<[Millis; 2], HostError> {
        let (history, control) = match clock {
            GameClock::Alternating(c) => (c.history(), c.control()),
            GameClock::Simul(c) => (c.history(), c.control()),
        };
        let now = Color::ALL.map(|c| self.reading(c, at).unwrap_or(Millis(0)));
        let arbiter_error = |e: tempo_clock::ArbiterError| HostError::Clock(e.to_string());
        let mut out = now;
        for color in Color::ALL {
            let i = color.index();
            let legal = snapshot.moves[i];
            out[i] = match mode {
                ClockRestore::Keep => now[i],
                ClockRestore::Exact => tempo_clock::arbiter::restore_exact(history, color, legal)
                    .map_err(arbiter_error)?,
                ClockRestore::Proportional => {
                    let played = match clock {
                        GameClock::Alternating(c) => c.moves(color),
                        GameClock::Simul(c) => c.moves(color),
                    };
                    tempo_clock::arbiter::correct_control(control, played, legal, now[i])
                        .map_err(arbiter_error)?
                        .set_millis()
                }
            };
        }
        Ok(out)
    }
}

/// The result an arbiter declares in `text`.
fn declared(text: &str) -> Result<EndResult, HostError> {
    text.parse()
        .map_err(|e: crate::UnknownResult| HostError::Spec(e.to_string()))
}
