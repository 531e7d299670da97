//! Tokens recently seen valid.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use crate::domain::accounts::User;

/// Tokens recently seen valid, so that a request needs no query. An
/// entry lives [`TokenCache::TTL`]: a token revoked on another instance
/// stops working here within that time (at once on this one).
#[derive(Debug, Default)]
pub struct TokenCache {
    entries: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    by_hash: HashMap<String, (User, Instant)>,
    /// Counts revocations, so that a lookup that began before one does
    /// not put back what it revoked.
    revocations: u64,
}

/// When a store lookup began (see [`TokenCache::put`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Lookup(u64);

impl TokenCache {
    pub const TTL: std::time::Duration = std::time::Duration::from_secs(5);
    /// Entries kept at most (the cache is emptied when full).
    const ROOM: usize = 10_000;

    pub(super) fn get(&self, hash: &str) -> Option<User> {
        let entries = self.entries.lock().expect("not poisoned");
        entries
            .by_hash
            .get(hash)
            .filter(|(_, at)| at.elapsed() < TokenCache::TTL)
            .map(|(user, _)| user.clone())
    }

    /// Call before looking a token up in the store.
    pub(super) fn lookup(&self) -> Lookup {
        Lookup(self.entries.lock().expect("not poisoned").revocations)
    }

    /// Keeps a token the store found valid, unless a token was revoked
    /// since the lookup began (the store's answer may predate it).
    pub(super) fn put(&self, lookup: Lookup, hash: String, user: User) {
        let mut entries = self.entries.lock().expect("not poisoned");
        if entries.revocations != lookup.0 {
            return;
        }
        if entries.by_hash.len() >= TokenCache::ROOM {
            entries.by_hash.clear();
        }
        entries.by_hash.insert(hash, (user, Instant::now()));
    }

    /// Forgets a token (revoked).
    pub fn forget(&self, hash: &str) {
        let mut entries = self.entries.lock().expect("not poisoned");
        entries.revocations += 1;
        entries.by_hash.remove(hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::accounts::Role;

    fn anna() -> User {
        User {
            name: "anna".into(),
            role: Role::Player,
        }
    }

    #[test]
    fn a_revoked_token_is_forgotten_at_once_and_not_put_back_by_an_older_lookup() {
        let cache = TokenCache::default();
        let lookup = cache.lookup();
        cache.put(lookup, "h".into(), anna());
        assert_eq!(cache.get("h"), Some(anna()));
        cache.forget("h");
        assert_eq!(cache.get("h"), None);

        // A lookup that read the store before the revocation answers
        // after it: its answer is not kept.
        let before = cache.lookup();
        cache.forget("h");
        cache.put(before, "h".into(), anna());
        assert_eq!(cache.get("h"), None);
        let after = cache.lookup();
        cache.put(after, "other".into(), anna());
        assert_eq!(cache.get("other"), Some(anna()));
    }
}
