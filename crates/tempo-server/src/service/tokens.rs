//! Tokens recently seen valid.

use crate::domain::accounts::User;

/// Tokens recently seen valid, so that a request needs no query. An
/// entry lives [`TokenCache::TTL`]: a token revoked on another instance
/// stops working here within that time (at once on this one).
#[derive(Debug, Default)]
pub struct TokenCache {
    entries: std::sync::Mutex<std::collections::HashMap<String, (User, std::time::Instant)>>,
}

impl TokenCache {
    pub const TTL: std::time::Duration = std::time::Duration::from_secs(5);
    /// Entries kept at most (the cache is emptied when full).
    const ROOM: usize = 10_000;

    pub(super) fn get(&self, hash: &str) -> Option<User> {
        let entries = self.entries.lock().expect("not poisoned");
        entries
            .get(hash)
            .filter(|(_, at)| at.elapsed() < TokenCache::TTL)
            .map(|(user, _)| user.clone())
    }

    pub(super) fn put(&self, hash: String, user: User) {
        let mut entries = self.entries.lock().expect("not poisoned");
        if entries.len() >= TokenCache::ROOM {
            entries.clear();
        }
        entries.insert(hash, (user, std::time::Instant::now()));
    }

    /// Forgets a token (revoked).
    pub fn forget(&self, hash: &str) {
        self.entries.lock().expect("not poisoned").remove(hash);
    }
}
