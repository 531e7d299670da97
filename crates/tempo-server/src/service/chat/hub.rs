//! The chat channels of the games with streams on this instance, and the
//! members' rate limit (kept apart from the chat's service: the state
//! holds it).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use super::{ChatLine, Room};
use crate::domain::limits::{KeyedBuckets, Quota, RetryAfter};

/// Lines a member may write at once, then one every [`REFILL`].
const BURST: u32 = 10;
const REFILL: Duration = Duration::from_secs(2);
/// Members the rate limit remembers at most.
const ROOM: usize = 10_000;
/// Lines waiting in a game's channel before a slow reader misses some.
const CHANNEL_ROOM: usize = 64;
/// Games with a chat channel before those without readers are dropped.
const CHANNELS: usize = 1024;

/// A line as a game's channel carries it: its room (the reader's stream
/// filters by it) and its JSON line, newline included.
pub(crate) type ChatItem = Arc<(Room, String)>;

/// The chat channels of the games with streams on this instance, and
/// the members' rate limit.
#[derive(Debug)]
pub(crate) struct ChatHub {
    channels: Mutex<HashMap<String, broadcast::Sender<ChatItem>>>,
    limits: Mutex<KeyedBuckets<String>>,
}

impl Default for ChatHub {
    fn default() -> ChatHub {
        let quota = Quota {
            burst: BURST,
            every: REFILL,
        };
        ChatHub {
            channels: Mutex::default(),
            limits: Mutex::new(KeyedBuckets::new(quota, ROOM)),
        }
    }
}

impl ChatHub {
    /// Takes one of `member`'s (lowercase) lines at `now`, or says how
    /// long until they may write.
    pub(super) fn take(&self, member: &str, now: Instant) -> Result<(), RetryAfter> {
        let mut limits = self.limits.lock().expect("not poisoned");
        limits.take(&member.to_string(), now)
    }

    /// A new reader of game `id`'s chat: each line's room and its JSON
    /// line (newline included).
    pub(crate) fn subscribe(&self, id: &str) -> broadcast::Receiver<ChatItem> {
        let mut channels = self.channels.lock().expect("not poisoned");
        if channels.len() >= CHANNELS {
            channels.retain(|_, sender| sender.receiver_count() > 0);
        }
        channels
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(CHANNEL_ROOM).0)
            .subscribe()
    }

    /// Tells this instance's streams of game `id` of a line.
    pub(super) fn publish(&self, id: &str, line: &ChatLine) {
        let Some(room) = Room::parse(&line.room) else {
            return;
        };
        let mut channels = self.channels.lock().expect("not poisoned");
        let Some(sender) = channels.get(id) else {
            return;
        };
        if sender.receiver_count() == 0 {
            channels.remove(id);
            return;
        }
        let mut text = serde_json::to_string(line).expect("a line serialises");
        text.push('\n');
        let _ = sender.send(Arc::new((room, text)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_without_readers_goes() {
        let hub = ChatHub::default();
        let mut reader = hub.subscribe("g");
        let line = ChatLine {
            kind: "chatLine".into(),
            room: "spectator".into(),
            username: "anna".into(),
            text: "hi".into(),
        };
        hub.publish("g", &line);
        let got = reader.try_recv().unwrap();
        assert_eq!(got.0, Room::Spectator);
        assert!(got.1.ends_with("\"text\":\"hi\"}\n"), "{}", got.1);
        drop(reader);
        hub.publish("g", &line);
        assert!(hub.channels.lock().unwrap().is_empty());
    }
}
