//! A rate limit on `POST /api/token/test` per address: anyone may ask,
//! up to 1,000 tokens a request, so that without one a caller could try
//! guessed tokens as fast as the store answers.

use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::domain::limits::{KeyedBuckets, Quota, RetryAfter};

/// Requests an address may make at once, then one every [`REFILL`]:
/// twenty a minute (lichess-bot asks once as it starts).
pub(crate) const BURST: u32 = 20;
pub(crate) const REFILL: Duration = Duration::from_secs(3);
/// Addresses remembered at most (the table's bound).
const ROOM: usize = 100_000;

/// One bucket per address.
#[derive(Debug)]
pub(crate) struct TokenTestLimits {
    buckets: Mutex<KeyedBuckets<IpAddr>>,
}

impl Default for TokenTestLimits {
    fn default() -> TokenTestLimits {
        let quota = Quota {
            burst: BURST,
            every: REFILL,
        };
        TokenTestLimits {
            buckets: Mutex::new(KeyedBuckets::new(quota, ROOM)),
        }
    }
}

impl TokenTestLimits {
    /// Takes one for `address` at `now`, or says how long until it may.
    pub(crate) fn take(&self, address: IpAddr, now: Instant) -> Result<(), RetryAfter> {
        let mut buckets = self.buckets.lock().expect("not poisoned");
        buckets.take(&address, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_a_minute_per_address() {
        let limits = TokenTestLimits::default();
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let now = Instant::now();
        for _ in 0..BURST {
            limits.take(a, now).unwrap();
        }
        assert_eq!(limits.take(a, now).unwrap_err().seconds(), 3);
        limits.take(b, now).unwrap();
        limits.take(a, now + REFILL).unwrap();
        assert!(limits.take(a, now + REFILL).is_err());
    }
}
