//! The clock for simultaneous play (Synchronschach, Fairschach): both
//! players think at once.

use tempo_chess::Color;

use crate::adjust;
use crate::control::TimeControl;
use crate::error::ClockError;
use crate::history::{AdjustReason, ClockEvent, ClockVerdict, FlagFall, History, MoveRecord};
use crate::millis::Millis;
use crate::player::{Player, record};

/// Where a simultaneous clock is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimulState {
    /// Set up, not yet started.
    NotStarted,
    /// A pair is running.
    Running,
    /// Paused by the arbiter.
    Paused {
        /// When the pause began.
        since: u64,
    },
    /// Over on time.
    Over(ClockVerdict),
    /// Stopped by the caller.
    Stopped,
}

/// What a commit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulCommit {
    /// The move's record.
    pub record: MoveRecord,
    /// Whether both have now committed: the pair is complete and the next
    /// pair has started at the same instant.
    pub pair_complete: bool,
}

/// A clock for simultaneous moves.
///
/// A *pair* starts both clocks at once; each stops when its owner commits,
/// with refund, increment and any period bonus credited on commit. When
/// the second player commits, the pair is complete and the next pair
/// starts both clocks at that same instant. With an hourglass each
/// player's thinking time is credited to the other as it passes.
///
/// **Both flags in one pair.** The clock knows each fall instant exactly
/// (pair start plus the time the player had, with delays applied). A flag
/// falls only for a player who has not committed by that instant. If both
/// fall, the *earlier* instant loses — FIDE's digital-clock practice of
/// establishing which flag fell first. If both fall at the very same
/// millisecond, it is impossible to establish which fell first and FIDE
/// Guidelines III.3.1 apply: in the last period (all remaining moves) the
/// game is drawn; in a period with a move quota the game continues and
/// both players receive the next period's time at once (the bonus is not
/// paid again when the quota is reached). That extension is granted once
/// per quota: a second double fall before the same quota is a draw, as is
/// a double fall when no later period grants time. The clock does not see
/// the board: FIDE Article 6.9 (a flag fall is a draw when the opponent
/// cannot checkmate) is for the caller.
///
/// ```
/// use tempo_chess::Color;
/// use tempo_clock::{Millis, SimulClock, TimeControl};
/// let mut clock = SimulClock::new("60+1".parse::<TimeControl>().unwrap()).unwrap();
/// clock.start(0).unwrap();
/// clock.commit(Color::Black, 4_000).unwrap();
/// assert_eq!(clock.reading(Color::Black, 9_000), Millis::seconds(57));
/// assert_eq!(clock.reading(Color::White, 9_000), Millis::seconds(51));
/// let done = clock.commit(Color::White, 10_000).unwrap();
/// assert!(done.pair_complete);
/// assert_eq!(clock.reading(Color::Black, 12_000), Millis::seconds(55));
/// ```
#[derive(Debug, Clone)]
pub struct SimulClock {
    control: TimeControl,
    players: [Player; 2],
    committed: [bool; 2],
    pair: u32,
    state: SimulState,
    last_at: u64,
    history: History,
}

impl SimulClock {
    /// A clock for `control`. Refuses `?` and `-`.
    pub fn new(control: TimeControl) -> Result<SimulClock, ClockError> {
        let initial = control.initial().ok_or(ClockError::NoTimeLimit)?;
        Ok(SimulClock {
            control,
            players: [
                Player::new(Color::White, initial),
                Player::new(Color::Black, initial),
            ],
            committed: [false; 2],
            pair: 0,
            state: SimulState::NotStarted,
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
    pub fn state(&self) -> SimulState {
        self.state
    }

    /// The current pair, from 1 (0 before the start).
    pub fn pair(&self) -> u32 {
        self.pair
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

    fn is_hourglass(&self) -> bool {
        matches!(self.control, TimeControl::Hourglass { .. })
    }

    fn start_pair(&mut self, at: u64) {
        self.pair += 1;
        self.committed = [false; 2];
        for p in &mut self.players {
            p.turn_started = at;
        }
        self.history.events.push(ClockEvent::PairStarted {
            pair: self.pair,
            at,
        });
    }

    /// Starts the first pair at `at`.
    pub fn start(&mut self, at: u64) -> Result<(), ClockError> {
        if self.state != SimulState::NotStarted {
            return Err(ClockError::AlreadyStarted);
        }
        self.tick(at)?;
        self.state = SimulState::Running;
        self.history.events.push(ClockEvent::Started { at });
        self.start_pair(at);
        Ok(())
    }

    fn frozen(&self, at: u64) -> u64 {
        match self.state {
            SimulState::Paused { since } => since,
            _ => at,
        }
    }

    fn thinking(&self, side: Color) -> bool {
        matches!(self.state, SimulState::Running | SimulState::Paused { .. })
            && !self.committed[side.index()]
    }

    /// `side`'s reading at `at`. After a flag fall the loser shows zero.
    pub fn reading(&self, side: Color, at: u64) -> Millis {
        match self.state {
            SimulState::Over(ClockVerdict::Flag(f)) if f.side == side => return Millis::ZERO,
            SimulState::Over(ClockVerdict::BothFlagsDraw { .. }) => return Millis::ZERO,
            _ => {}
        }
        let at = self.frozen(at);
        let p = &self.players[side.index()];
        let mut reading = if self.thinking(side) {
            p.thinking_reading(&self.control, at)
        } else {
            p.remaining
        };
        let other = !side;
        if self.is_hourglass() && self.thinking(other) {
            reading += self.players[other.index()].elapsed(at);
        }
        reading
    }

    /// When `side`'s flag falls if nothing happens (while running and not
    /// yet committed); `None` if it cannot fall before the other acts.
    pub fn fall_instant(&self, side: Color) -> Option<u64> {
        if self.state != SimulState::Running || self.committed[side.index()] {
            return None;
        }
        let p = &self.players[side.index()];
        if self.is_hourglass() && !self.committed[side.other().index()] {
            // Both glasses run: each reading is frozen at its pair-start value.
            return (p.remaining <= Millis::ZERO).then_some(p.turn_started);
        }
        Some(p.fall_instant(&self.control))
    }

    /// Checks for flag falls up to `at` and settles them by the both-flags
    /// rule (see the type docs). Returns the verdict once the game is over.
    pub fn check_flags(&mut self, at: u64) -> Option<ClockVerdict> {
        if let SimulState::Over(v) = self.state {
            return Some(v);
        }
        let falls: Vec<(Color, u64)> = Color::ALL
            .into_iter()
            .filter_map(|s| self.fall_instant(s).map(|t| (s, t)))
            .filter(|&(_, t)| t <= at)
            .collect();
        let flag = |clock: &Self, side: Color, t: u64| {
            let p = &clock.players[side.index()];
            FlagFall {
                side,
                at: t,
                moves_done: p.moves,
                in_last_period: clock.control.in_last_period(p.moves),
            }
        };
        let verdict = match falls.as_slice() {
            [] => return None,
            [(side, t)] => ClockVerdict::Flag(flag(self, *side, *t)),
            [(a, ta), (b, tb)] => {
                if ta != tb {
                    let (side, t) = if ta < tb { (*a, *ta) } else { (*b, *tb) };
                    ClockVerdict::Flag(flag(self, side, t))
                } else if Color::ALL
                    .iter()
                    .all(|s| self.control.in_last_period(self.players[s.index()].moves))
                {
                    ClockVerdict::BothFlagsDraw { at: *ta }
                } else if self.continue_after_both_flags(*ta) {
                    return self.check_flags(at);
                } else {
                    // No later period grants time: the game cannot go on.
                    ClockVerdict::BothFlagsDraw { at: *ta }
                }
            }
            _ => unreachable!("two players"),
        };
        self.last_at = self.last_at.max(at);
        self.state = SimulState::Over(verdict);
        self.history.events.push(ClockEvent::Ended { verdict });
        Some(verdict)
    }

    /// FIDE Guidelines III.3.1.1: both flags at once, not in the last
    /// period — the game continues with the next period's time.
    /// Returns whether any time was granted.
    fn continue_after_both_flags(&mut self, at: u64) -> bool {
        let control = self.control.clone();
        let mut any = false;
        for side in Color::ALL {
            let from = self.players[side.index()].thinking_reading(&control, at);
            let granted = self.players[side.index()].grant_next_period(&control);
            any |= granted > Millis::ZERO;
            self.history.events.push(ClockEvent::Adjusted {
                at,
                side,
                from,
                to: from + granted,
                reason: AdjustReason::BothFlagsContinue,
            });
        }
        any
    }

    fn ensure_running(&mut self, at: u64) -> Result<(), ClockError> {
        match self.check_flags(at) {
            Some(ClockVerdict::Flag(f)) => return Err(ClockError::Flagged(f.side)),
            Some(ClockVerdict::BothFlagsDraw { .. }) => return Err(ClockError::GameOver),
            None => {}
        }
        match self.state {
            SimulState::Running => Ok(()),
            SimulState::NotStarted => Err(ClockError::NotStarted),
            SimulState::Paused { .. } => Err(ClockError::Paused),
            SimulState::Over(_) | SimulState::Stopped => Err(ClockError::GameOver),
        }
    }

    /// `side` commits their move for the current pair at `at`.
    pub fn commit(&mut self, side: Color, at: u64) -> Result<SimulCommit, ClockError> {
        self.ensure_running(at)?;
        if self.committed[side.index()] {
            return Err(ClockError::AlreadyCommitted(side));
        }
        self.tick(at)?;
        let control = self.control.clone();
        let committed = self.players[side.index()].commit(&control, at);
        if self.is_hourglass() {
            self.players[side.other().index()].remaining += committed.thinking;
        }
        self.committed[side.index()] = true;
        let readings = Color::ALL.map(|s| self.reading(s, at));
        let number = self.players[side.index()].moves;
        let record = record(side, number, Some(self.pair), at, &committed, readings);
        self.history.moves.push(record.clone());
        let pair_complete = self.committed.iter().all(|&c| c);
        if pair_complete {
            self.start_pair(at);
        }
        Ok(SimulCommit {
            record,
            pair_complete,
        })
    }

    /// The arbiter pauses both clocks.
    pub fn pause(&mut self, at: u64) -> Result<(), ClockError> {
        self.ensure_running(at)?;
        self.tick(at)?;
        self.state = SimulState::Paused { since: at };
        self.history.events.push(ClockEvent::Paused { at });
        Ok(())
    }

    /// The arbiter resumes; the pause counts for nobody.
    pub fn resume(&mut self, at: u64) -> Result<(), ClockError> {
        let SimulState::Paused { since } = self.state else {
            return Err(ClockError::NotPaused);
        };
        self.tick(at)?;
        for side in Color::ALL {
            if !self.committed[side.index()] {
                self.players[side.index()].turn_started += at - since;
            }
        }
        self.state = SimulState::Running;
        self.history.events.push(ClockEvent::Resumed { at });
        Ok(())
    }

    fn ensure_adjustable(&mut self, at: u64) -> Result<(), ClockError> {
        if self.state == SimulState::Running {
            self.ensure_running(at)?;
        }
        match self.state {
            SimulState::Over(_) | SimulState::Stopped => Err(ClockError::GameOver),
            _ => self.tick(at),
        }
    }

    fn set_reading(&mut self, side: Color, at: u64, to: Millis) {
        let at = self.frozen(at);
        let other = !side;
        let gain = if self.is_hourglass() && self.thinking(other) {
            self.players[other.index()].elapsed(at)
        } else {
            Millis::ZERO
        };
        if self.thinking(side) {
            let control = self.control.clone();
            self.players[side.index()].set_thinking_reading(&control, at, to - gain);
        } else {
            self.players[side.index()].remaining = to - gain;
        }
    }

    /// The arbiter sets `side`'s reading.
    pub fn adjust(&mut self, side: Color, to: Millis, at: u64) -> Result<(), ClockError> {
        adjust::adjust(self, side, to, at)
    }

    /// Gives `side` extra time.
    pub fn add_time(&mut self, side: Color, delta: Millis, at: u64) -> Result<(), ClockError> {
        adjust::add_time(self, side, delta, at)
    }

    /// FIDE Article 7.5.5 penalty: the opponent of `offender` gets two
    /// minutes (standard) or one (rapid, blitz). Returns the time given.
    pub fn penalty(&mut self, offender: Color, at: u64) -> Result<Millis, ClockError> {
        adjust::penalty(self, offender, at)
    }

    /// The arbiter restores an earlier pair: both move counters and
    /// readings; a fresh pair starts (now, or at resume when paused).
    pub fn restore(
        &mut self,
        at: u64,
        moves: [u32; 2],
        readings: [Millis; 2],
    ) -> Result<(), ClockError> {
        adjust::restore_counters(self, at, moves, readings)?;
        let start = self.frozen(at);
        self.start_pair(start);
        Ok(())
    }

    /// Stops both clocks for good (the game ended on the board).
    pub fn stop(&mut self, at: u64) -> Result<(), ClockError> {
        if self.state == SimulState::Running {
            self.ensure_running(at)?;
        }
        match self.state {
            SimulState::Running | SimulState::Paused { .. } => {
                self.tick(at)?;
                let readings = Color::ALL.map(|s| self.reading(s, at));
                for side in Color::ALL {
                    self.players[side.index()].remaining = readings[side.index()];
                }
                self.committed = [true; 2];
            }
            SimulState::NotStarted => {}
            _ => return Err(ClockError::GameOver),
        }
        self.state = SimulState::Stopped;
        self.history.events.push(ClockEvent::Stopped { at });
        Ok(())
    }
}

adjust::impl_adjustable!(SimulClock);
