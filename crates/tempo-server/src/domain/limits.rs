//! Rate limits: a token bucket per key (a client's address, an account's
//! name), kept as one instant per key (the generic cell rate algorithm),
//! in a table of bounded size. Time comes in as an argument, so the rules
//! are tested without waiting.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// How much a key may do: `burst` at once, then one more every `every`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    pub burst: u32,
    pub every: Duration,
}

impl Quota {
    /// How far ahead of now a key's next free instant may run before it
    /// is refused: the burst, less the one being taken.
    fn tolerance(self) -> Duration {
        self.every * self.burst.saturating_sub(1)
    }

    /// Takes one from a bucket that is full again at `full_at` (an
    /// instant already past: full now): the bucket's new full-again
    /// instant, or how long until one may be taken.
    pub fn take(self, full_at: Instant, now: Instant) -> Result<Instant, RetryAfter> {
        let full_at = full_at.max(now);
        let ahead = full_at - now;
        let tolerance = self.tolerance();
        if ahead > tolerance {
            return Err(RetryAfter(ahead - tolerance));
        }
        Ok(full_at + self.every)
    }

    /// Gives back one taken from a bucket full again at `full_at`: its new
    /// full-again instant.
    pub fn give_back(self, full_at: Instant, now: Instant) -> Instant {
        full_at.checked_sub(self.every).unwrap_or(now)
    }
}

/// A refusal: try again after this long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub Duration);

impl RetryAfter {
    /// Whole seconds, rounded up (the `Retry-After` header's unit), at
    /// least one.
    pub fn seconds(self) -> u64 {
        let millis = self.0.as_millis() as u64;
        millis.div_ceil(1000).max(1)
    }
}

/// A token bucket per key, at most `room` keys.
///
/// A key's bucket is the instant from which it is full again (its
/// "theoretical arrival time"); a key absent from the table is full. When
/// the table is full, the keys whose buckets are full again go first, and
/// if none has, the key nearest to full (its loss costs the least).
#[derive(Debug)]
pub struct KeyedBuckets<K> {
    quota: Quota,
    room: usize,
    full_at: HashMap<K, Instant>,
}

impl<K: Hash + Eq + Clone> KeyedBuckets<K> {
    pub fn new(quota: Quota, room: usize) -> KeyedBuckets<K> {
        KeyedBuckets {
            quota,
            room: room.max(1),
            full_at: HashMap::new(),
        }
    }

    /// Keys held (their buckets not known to be full).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.full_at.len()
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.full_at.is_empty()
    }

    /// Whether `key` could take one now, without taking it.
    #[cfg(test)]
    fn check(&self, key: &K, now: Instant) -> Result<(), RetryAfter> {
        let full_at = self.full_at.get(key).copied().unwrap_or(now);
        self.quota.take(full_at, now).map(|_| ())
    }

    /// Takes one for `key`, or says how long until it may.
    pub fn take(&mut self, key: &K, now: Instant) -> Result<(), RetryAfter> {
        let full_at = self.full_at.get(key).copied().unwrap_or(now);
        let full_at = self.quota.take(full_at, now)?;
        if !self.full_at.contains_key(key) {
            self.make_room(now);
        }
        self.full_at.insert(key.clone(), full_at);
        Ok(())
    }

    /// Gives back one that `key` took (it turned out not to count).
    pub fn give_back(&mut self, key: &K, now: Instant) {
        if let Some(full_at) = self.full_at.get_mut(key) {
            *full_at = self.quota.give_back(*full_at, now);
            if *full_at <= now {
                self.full_at.remove(key);
            }
        }
    }

    /// Room for one more key.
    fn make_room(&mut self, now: Instant) {
        if self.full_at.len() < self.room {
            return;
        }
        self.full_at.retain(|_, full_at| *full_at > now);
        if self.full_at.len() < self.room {
            return;
        }
        let nearest = self
            .full_at
            .iter()
            .min_by_key(|(_, full_at)| **full_at)
            .map(|(key, _)| key.clone());
        if let Some(key) = nearest {
            self.full_at.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUOTA: Quota = Quota {
        burst: 3,
        every: Duration::from_secs(10),
    };

    #[test]
    fn a_burst_then_one_every_period() {
        let mut buckets = KeyedBuckets::new(QUOTA, 100);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(buckets.take(&"a", t0), Ok(()));
        }
        assert_eq!(
            buckets.take(&"a", t0),
            Err(RetryAfter(Duration::from_secs(10)))
        );
        // Another key has its own bucket.
        assert_eq!(buckets.take(&"b", t0), Ok(()));
        let later = t0 + Duration::from_secs(4);
        assert_eq!(
            buckets.take(&"a", later),
            Err(RetryAfter(Duration::from_secs(6)))
        );
        assert_eq!(RetryAfter(Duration::from_secs(6)).seconds(), 6);
        assert_eq!(RetryAfter(Duration::from_millis(1)).seconds(), 1);
        // One comes back each period, not more.
        let refilled = t0 + Duration::from_secs(10);
        assert_eq!(buckets.take(&"a", refilled), Ok(()));
        assert!(buckets.take(&"a", refilled).is_err());
        // After burst × period of quiet the bucket is full again.
        let quiet = refilled + Duration::from_secs(30);
        for _ in 0..3 {
            assert_eq!(buckets.take(&"a", quiet), Ok(()));
        }
        assert!(buckets.take(&"a", quiet).is_err());
    }

    #[test]
    fn what_is_given_back_does_not_count() {
        let mut buckets = KeyedBuckets::new(QUOTA, 100);
        let t0 = Instant::now();
        for _ in 0..10 {
            buckets.take(&"a", t0).unwrap();
            buckets.give_back(&"a", t0);
        }
        assert!(buckets.is_empty());
        for _ in 0..3 {
            buckets.take(&"a", t0).unwrap();
        }
        assert!(buckets.check(&"a", t0).is_err());
    }

    #[test]
    fn the_table_stays_within_its_room() {
        let mut buckets = KeyedBuckets::new(QUOTA, 50);
        let t0 = Instant::now();
        // A limited key survives a flood of new keys as long as others
        // are nearer to full.
        for _ in 0..3 {
            buckets.take(&u32::MAX, t0).unwrap();
        }
        for key in 0..10_000u32 {
            buckets.take(&key, t0).unwrap();
            assert!(buckets.len() <= 50);
        }
        assert!(buckets.check(&u32::MAX, t0).is_err());
        // Keys full again go first.
        let later = t0 + Duration::from_secs(11);
        buckets.take(&20_000, later).unwrap();
        assert_eq!(buckets.len(), 2, "only the limited key and the new one");
    }
}
