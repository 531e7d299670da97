//! A rate limit on making challenges open to anyone: each is announced
//! on every open event stream, so that without one a member could flood
//! every lobby by making and cancelling them (the cap of waiting ones
//! does not stop that).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::domain::limits::{KeyedBuckets, Quota, RetryAfter};

/// Open challenges a member may make at once, then one every
/// [`REFILL`]: ten a minute.
const BURST: u32 = 10;
const REFILL: Duration = Duration::from_secs(6);
/// Members remembered at most (the table's bound).
const ROOM: usize = 10_000;

/// One bucket per member (by lower-case name).
#[derive(Debug)]
pub(crate) struct SeekLimits {
    buckets: Mutex<KeyedBuckets<String>>,
}

impl Default for SeekLimits {
    fn default() -> SeekLimits {
        let quota = Quota {
            burst: BURST,
            every: REFILL,
        };
        SeekLimits {
            buckets: Mutex::new(KeyedBuckets::new(quota, ROOM)),
        }
    }
}

impl SeekLimits {
    /// Takes one for `member` at `now`, or says how long until it may.
    pub(crate) fn take(&self, member: &str, now: Instant) -> Result<(), RetryAfter> {
        let mut buckets = self.buckets.lock().expect("not poisoned");
        buckets.take(&member.to_lowercase(), now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_a_minute_per_member() {
        let limits = SeekLimits::default();
        let now = Instant::now();
        for _ in 0..BURST {
            limits.take("Anna", now).unwrap();
        }
        let wait = limits.take("anna", now).unwrap_err();
        assert_eq!(wait.seconds(), 6);
        // Another member is not held back; the bucket refills.
        limits.take("ben", now).unwrap();
        limits.take("anna", now + REFILL).unwrap();
        assert!(limits.take("anna", now + REFILL).is_err());
    }
}
