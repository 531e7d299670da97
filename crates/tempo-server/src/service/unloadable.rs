//! The games whose logs do not replay, as the public list of games in
//! play has met them: remembered (bounded) so that they are left out
//! without replaying them on every poll, and logged once.

use std::collections::HashSet;
use std::sync::Mutex;

/// Games in play whose stored log does not replay, at most
/// [`UNLOADABLE_ROOM`]: the public list leaves them out without replaying
/// them on every poll, and logs each once.
#[derive(Debug, Default)]
pub(crate) struct Unloadable(Mutex<HashSet<String>>);

/// The bound of [`Unloadable`]; past it a new one is left out all the
/// same, only replayed (and logged by the hub) again on each poll.
const UNLOADABLE_ROOM: usize = 1_000;

impl Unloadable {
    pub(crate) fn known(&self, id: &str) -> bool {
        self.0.lock().expect("not poisoned").contains(id)
    }

    /// Remembers `id`; whether it was new.
    pub(crate) fn note(&self, id: &str) -> bool {
        let mut ids = self.0.lock().expect("not poisoned");
        ids.len() < UNLOADABLE_ROOM && ids.insert(id.to_string())
    }
}
