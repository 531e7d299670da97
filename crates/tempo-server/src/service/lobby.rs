//! Members' events on every instance: an event reaches the member's
//! streams on the instance that made it at once, and on the other
//! instances of the store through a PostgreSQL notification.

use serde::{Deserialize, Serialize};

use crate::service::AppState;
use crate::service::events::UserEvent;

/// The PostgreSQL channel on which instances tell each other's members'
/// streams of events.
pub(crate) const LOBBY_CHANNEL: &str = "tempo_lobby";

/// Longest notification payload sent (PostgreSQL refuses 8,000 bytes).
pub(crate) const MAX_NOTE_BYTES: usize = 7_900;

/// An event as one instance tells the others.
#[derive(Debug, Serialize, Deserialize)]
struct LobbyNote {
    /// The store it was made in: notifications reach every listener of
    /// the database, also servers on other schemas of it.
    store: String,
    /// The instance that sent it (its own streams have it already).
    from: String,
    /// The members to tell.
    to: Vec<String>,
    /// Every member with a stream is told (`to` is empty then).
    #[serde(default)]
    all: bool,
    event: UserEvent,
}

/// Tells `users`' event streams of `event`: those on this instance at
/// once, those on other instances of the store through a notification
/// (PostgreSQL). A notification that cannot be sent is logged: the event
/// is made already, and a stream that begins lists what is open.
pub(crate) async fn tell(state: &AppState, users: &[&str], event: UserEvent) {
    for user in users {
        state.hub.notify(user, event.clone());
    }
    let note = note_payload(
        &store_id(state),
        &state.instance,
        Audience::Some(users),
        event,
    );
    send_note(state, note).await;
}

/// Tells every member with an event stream of `event` (the lobby's open
/// challenges), on every instance of the store.
pub(crate) async fn tell_everyone(state: &AppState, event: UserEvent) {
    state.hub.notify_everyone(&event);
    let note = note_payload(&store_id(state), &state.instance, Audience::Everyone, event);
    send_note(state, note).await;
}

/// Sends a note to the other instances (PostgreSQL only).
async fn send_note(state: &AppState, payload: Option<String>) {
    if state.store.postgres_url().is_none() {
        return;
    }
    let Some(payload) = payload else {
        tracing::error!("an event too long to tell other instances");
        return;
    };
    if let Err(e) = state.store.notify(LOBBY_CHANNEL, &payload).await {
        tracing::error!(error = %e, "telling other instances of an event");
    }
}

/// Players' news waiting to be told at most (beyond, news is dropped).
const NEWS_QUEUE: usize = 4096;

/// Tells the players of the games written on this instance their news
/// (their turn, the end: see [`Hub::on_news`](crate::service::games::Hub::on_news)),
/// on every instance, in the order the games wrote them.
pub(crate) fn follow_news(state: &AppState) {
    let (sender, mut news) = tokio::sync::mpsc::channel(NEWS_QUEUE);
    state.hub.on_news(sender);
    let state = state.clone();
    tokio::spawn(async move {
        while let Some((players, event)) = news.recv().await {
            let players: Vec<&str> = players.iter().map(String::as_str).collect();
            tell(&state, &players, event).await;
        }
    });
}

/// The store's name in notifications: the start of its server key (one
/// per store, the same for every instance on it).
pub(crate) fn store_id(state: &AppState) -> String {
    let key = state.key.verifying_key().to_bytes();
    key[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Whom a note is for.
#[derive(Clone, Copy)]
enum Audience<'a> {
    Some(&'a [&'a str]),
    Everyone,
}

/// The payload of a notification of `event` to `audience` from `instance`
/// of `store`, in the event's short form if the full one is too long.
fn note_payload(
    store: &str,
    instance: &str,
    audience: Audience<'_>,
    event: UserEvent,
) -> Option<String> {
    let users = match audience {
        Audience::Some(users) => users,
        Audience::Everyone => &[],
    };
    let mut note = LobbyNote {
        store: store.to_string(),
        from: instance.to_string(),
        to: users.iter().map(|u| u.to_lowercase()).collect(),
        all: matches!(audience, Audience::Everyone),
        event,
    };
    let payload = serde_json::to_string(&note).ok()?;
    if payload.len() <= MAX_NOTE_BYTES {
        return Some(payload);
    }
    note.event = note.event.brief();
    Some(serde_json::to_string(&note).ok()?).filter(|p| p.len() <= MAX_NOTE_BYTES)
}

/// Another instance told of an event: this instance's streams of its
/// members hear it (a note of this instance's own is skipped: its streams
/// heard it when it was made; so is one of another store).
pub(crate) fn heard(state: &AppState, payload: &str) {
    let note: LobbyNote = match serde_json::from_str(payload) {
        Ok(note) => note,
        Err(e) => {
            tracing::error!(error = %e, "an unreadable event notification");
            return;
        }
    };
    if note.from == *state.instance || note.store != store_id(state) {
        return;
    }
    if note.all {
        state.hub.notify_everyone(&note.event);
    }
    for user in &note.to {
        state.hub.notify(user, note.event.clone());
    }
}

#[cfg(test)]
mod tests {
    use tempo_host::GameSpec;

    use super::*;
    use crate::domain::challenges::{Challenge, ChallengeStatus, ColorChoice};
    use crate::service::events::BoardNote;

    fn challenge(clock: &str) -> Challenge {
        Challenge {
            id: "abcdefghijkl".into(),
            challenger: "a".repeat(32),
            dest: "b".repeat(32),
            spec: GameSpec {
                clock: Some(clock.into()),
                ..GameSpec::default()
            },
            color: ColorChoice::Random,
            status: ChallengeStatus::Open,
            game_id: None,
            open_until: None,
            rated: false,
        }
    }

    #[test]
    fn a_note_reads_back_as_the_event_it_carries() {
        let c = challenge("300+3");
        let event = UserEvent::new_challenge(&c, &c.challenger, &c.dest);
        let payload = note_payload(
            "store",
            "me",
            Audience::Some(&[&c.challenger, &c.dest]),
            event.clone(),
        )
        .unwrap();
        let note: LobbyNote = serde_json::from_str(&payload).unwrap();
        assert_eq!(note.to, [c.challenger.clone(), c.dest.clone()]);
        let line = |e: &UserEvent| serde_json::to_string(e).unwrap();
        assert_eq!(line(&note.event), line(&event));
        let board = BoardNote {
            tournament: "t".repeat(12),
            round: 3,
            board: 7,
        };
        let start = UserEvent::game_start("g", Some(board));
        let payload = note_payload("store", "me", Audience::Some(&["x"]), start.clone()).unwrap();
        let note: LobbyNote = serde_json::from_str(&payload).unwrap();
        assert_eq!(line(&note.event), line(&start));
    }

    #[test]
    fn a_note_too_long_for_postgresql_carries_the_short_form() {
        // A time control of many periods can be long; the note stays
        // under PostgreSQL's limit by naming the challenge alone.
        let long_clock = vec!["40/5400"; 2_000].join(":");
        let c = challenge(&long_clock);
        let event = UserEvent::new_challenge(&c, &c.challenger, &c.dest);
        let payload = note_payload("store", "me", Audience::Some(&["a", "b"]), event).unwrap();
        assert!(payload.len() <= MAX_NOTE_BYTES, "{}", payload.len());
        let note: LobbyNote = serde_json::from_str(&payload).unwrap();
        assert_eq!(
            serde_json::to_value(&note.event).unwrap(),
            serde_json::json!({"type": "challenge", "challenge": {"id": "abcdefghijkl"}})
        );
    }
}
