//! Injected time: the clocks are pure state machines that take timestamps;
//! a [`TimeSource`] supplies them, in tests a [`ManualTime`], so tests are
//! exact to the millisecond.

use std::cell::Cell;

/// A monotonic source of timestamps in milliseconds on its own scale.
pub trait TimeSource {
    /// The current timestamp, in milliseconds; never decreases.
    fn now(&self) -> u64;
}

/// A hand-driven source for tests and replays.
///
/// ```
/// use tempo_clock::{ManualTime, TimeSource};
/// let t = ManualTime::new(0);
/// t.advance_secs(5);
/// assert_eq!(t.now(), 5_000);
/// ```
#[derive(Debug, Default)]
pub struct ManualTime {
    now: Cell<u64>,
}

impl ManualTime {
    /// A source standing at `start` milliseconds.
    pub fn new(start: u64) -> ManualTime {
        ManualTime {
            now: Cell::new(start),
        }
    }

    /// Moves time forward by `ms` milliseconds.
    fn advance(&self, ms: u64) {
        self.now.set(self.now.get() + ms);
    }

    /// Moves time forward by whole seconds.
    pub fn advance_secs(&self, secs: u64) {
        self.advance(secs * 1_000);
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> u64 {
        self.now.get()
    }
}
