//! The server's time.

/// Server time: milliseconds since the epoch, read from a monotonic clock
/// anchored at start (a wall-clock jump does not move the games' clocks).
#[derive(Debug, Clone, Copy)]
pub struct ServerClock {
    epoch_at_start: u64,
    start: std::time::Instant,
}

impl Default for ServerClock {
    fn default() -> ServerClock {
        let epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        ServerClock {
            epoch_at_start: epoch,
            start: std::time::Instant::now(),
        }
    }
}

impl ServerClock {
    /// Milliseconds since the epoch.
    pub fn now(&self) -> u64 {
        self.epoch_at_start + self.start.elapsed().as_millis() as u64
    }
}
