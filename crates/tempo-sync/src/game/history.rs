//! The repetition history of a game: the hashes of the positions at the
//! start of pairs (or orthodox moves) since the last capture or pawn move.

use std::sync::Arc;

/// The hashes of the positions at the start of pairs (or orthodox moves)
/// since the last capture or pawn move. The newest few are held inline,
/// older ones in a shared persistent list of chunks: a resolution copies
/// a few words and allocates only at every [`RECENT`]-th entry.
#[derive(Debug, Default)]
pub(super) struct History {
    /// The newest entries, oldest first (`recent[..len]`).
    recent: [u64; RECENT],
    len: usize,
    /// A summary of all entries: for each of 64 buckets (a hash's top six
    /// bits) whether it holds at least one, two, three hashes. A hash
    /// occurs three times only if its bucket holds three, so the entries
    /// are looked at only then.
    buckets: [u64; 3],
    older: Option<Arc<HistoryChunk>>,
}

/// How many entries a [`History`] holds inline (and a chunk holds).
/// Eight rather than four: fewer states share chunks, so fewer
/// resolutions pay the shared list's reference count (two atomic
/// operations) and an allocation at every chunk (the comparison:
/// docs/performance.md).
const RECENT: usize = 8;

impl Clone for History {
    #[inline]
    fn clone(&self) -> History {
        History {
            recent: self.recent,
            len: self.len,
            buckets: self.buckets,
            older: self.older.clone(),
        }
    }

    /// Leaves the shared chunks alone where both hold the same ones (a
    /// search copies states of one game into one buffer): no reference
    /// counting then.
    #[inline]
    fn clone_from(&mut self, source: &History) {
        self.recent = source.recent;
        self.len = source.len;
        self.buckets = source.buckets;
        let same = match (&self.older, &source.older) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.older.clone_from(&source.older);
        }
    }
}

#[derive(Debug)]
struct HistoryChunk {
    /// Oldest first.
    hashes: [u64; RECENT],
    prev: Option<Arc<HistoryChunk>>,
}

impl History {
    #[inline]
    pub(super) fn push(&mut self, hash: u64) {
        let bit = bucket(hash);
        let [one, two, three] = self.buckets;
        self.buckets = [one | bit, two | (one & bit), three | (two & bit)];
        if self.len == RECENT {
            self.spill();
        }
        self.recent[self.len] = hash;
        self.len += 1;
    }

    /// Moves the full inline part into a new shared chunk (out of line:
    /// one push in [`RECENT`]).
    #[inline(never)]
    fn spill(&mut self) {
        self.older = Some(Arc::new(HistoryChunk {
            hashes: self.recent,
            prev: self.older.take(),
        }));
        self.len = 0;
    }

    /// The history a new position with `halfmove_clock` carries on: this
    /// one, or an empty one after a capture or pawn move (the clock is 0
    /// exactly then; repetitions cannot reach across those).
    #[inline]
    pub(super) fn carried(&self, halfmove_clock: u32) -> History {
        if halfmove_clock == 0 {
            History::default()
        } else {
            self.clone()
        }
    }

    /// A history holding only `hash`.
    pub(super) fn single(hash: u64) -> History {
        let mut history = History::default();
        history.push(hash);
        history
    }

    /// The entries, newest first.
    pub(super) fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let chunks = std::iter::successors(self.older.as_deref(), |chunk| chunk.prev.as_deref());
        self.recent[..self.len]
            .iter()
            .rev()
            .chain(chunks.flat_map(|chunk| chunk.hashes.iter().rev()))
            .copied()
    }

    /// Whether `hash` occurs at least three times (repetition rule).
    #[inline]
    pub(super) fn occurs_thrice(&self, hash: u64) -> bool {
        self.buckets[2] & bucket(hash) != 0 && self.count_reaches_three(hash)
    }

    /// The entries looked at one by one (the bucket summary allows three).
    #[inline(never)]
    fn count_reaches_three(&self, hash: u64) -> bool {
        self.iter().filter(|&h| h == hash).nth(2).is_some()
    }
}

/// The summary bit of `hash` (see [`History::buckets`]).
#[inline]
fn bucket(hash: u64) -> u64 {
    1 << (hash >> 58)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entries come back newest first across the inline part and the
    /// chunks, and the bucket summary never hides a third occurrence.
    #[test]
    fn history_finds_threefold_occurrences() {
        let mut history = History::default();
        let mut seed = 1u64;
        let mut seen = Vec::new();
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            // Few distinct hashes (some sharing a bucket), many repeats.
            let hash = ((seed >> 61) << 58) | ((seed >> 40) % 3);
            history.push(hash);
            seen.push(hash);
            let newest_first: Vec<u64> = seen.iter().rev().copied().collect();
            assert_eq!(history.iter().collect::<Vec<_>>(), newest_first);
            for &h in &seen {
                let count = seen.iter().filter(|&&x| x == h).count();
                assert_eq!(history.occurs_thrice(h), count >= 3);
            }
            if seen.len() == 40 {
                history = History::default();
                seen.clear();
            }
        }
        assert!(!History::default().occurs_thrice(0));
    }
}
