//! Injected time: the clocks are pure state machines that take timestamps;
//! a [`TimeSource`] supplies them in production ([`SystemTimeSource`]) and
//! in tests ([`ManualTime`]), so tests are exact to the millisecond.

use std::cell::Cell;
use std::time::Instant;

/// A monotonic source of timestamps in milliseconds on its own scale.
pub trait TimeSource {
    /// The current timestamp, in milliseconds; never decreases.
    fn now(&self) -> u64;
}

/// Real time: milliseconds since the source was created (monotonic).
#[derive(Debug, Clone, Copy)]
pub struct SystemTimeSource {
    origin: Instant,
}

impl SystemTimeSource {
    /// A source whose zero is now.
    pub fn new() -> SystemTimeSource {
        SystemTimeSource {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemTimeSource {
    fn default() -> Self {
        SystemTimeSource::new()
    }
}

impl TimeSource for SystemTimeSource {
    fn now(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
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
    pub fn advance(&self, ms: u64) {
        self.now.set(self.now.get() + ms);
    }

    /// Moves time forward by whole seconds.
    pub fn advance_secs(&self, secs: u64) {
        self.advance(secs * 1_000);
    }

    /// Sets the time; it may not go back.
    pub fn set(&self, ms: u64) {
        assert!(ms >= self.now.get(), "ManualTime cannot go back");
        self.now.set(ms);
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> u64 {
        self.now.get()
    }
}
