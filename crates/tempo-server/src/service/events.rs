//! What a member's event stream (`GET /api/stream/event`) tells: a
//! challenge to or from them, a game of theirs that starts; and how an
//! event reaches the member's streams on every instance.

use serde::{Deserialize, Serialize};
use tempo_host::Variant;
use utoipa::ToSchema;

use crate::domain::challenges::{Challenge, ColorChoice};
use crate::service::AppState;

/// One event, a line of the stream.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum UserEvent {
    /// A challenge to or from the member.
    Challenge { challenge: ChallengeNote },
    /// A game of the member's starts.
    GameStart { game: GameNote },
}

/// A challenge as an event names it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ChallengeNote {
    /// A challenge just made.
    New(NewChallengeNote),
    /// A challenge already open when the stream began.
    Open { id: String },
}

/// A challenge just made: who, whom, and which game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewChallengeNote {
    pub id: String,
    pub challenger: String,
    pub dest_user: String,
    #[schema(value_type = String)]
    pub variant: Variant,
    pub clock: Option<String>,
    pub color: ColorChoice,
}

/// A game that starts.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GameNote {
    pub id: String,
    pub game_id: String,
    /// The tournament board the game is played for, if any.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardNote>,
}

/// A tournament board.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BoardNote {
    pub tournament: String,
    pub round: u32,
    pub board: u32,
}

impl UserEvent {
    /// A challenge just made, between `challenger` and `dest` (names as
    /// registered).
    pub fn new_challenge(challenge: &Challenge, challenger: &str, dest: &str) -> UserEvent {
        UserEvent::Challenge {
            challenge: ChallengeNote::New(NewChallengeNote {
                id: challenge.id.clone(),
                challenger: challenger.to_string(),
                dest_user: dest.to_string(),
                variant: challenge.spec.variant,
                clock: challenge.spec.clock.clone(),
                color: challenge.color,
            }),
        }
    }

    /// A challenge open when a stream begins.
    pub fn open_challenge(id: &str) -> UserEvent {
        UserEvent::Challenge {
            challenge: ChallengeNote::Open { id: id.to_string() },
        }
    }

    /// A game that starts (for a tournament `board`, if given).
    pub fn game_start(id: &str, board: Option<BoardNote>) -> UserEvent {
        UserEvent::GameStart {
            game: GameNote {
                id: id.to_string(),
                game_id: id.to_string(),
                board,
            },
        }
    }
}

impl UserEvent {
    /// The event in its short form, which fits any notification: a new
    /// challenge by its id alone (a reader asks for the rest).
    fn brief(&self) -> UserEvent {
        match self {
            UserEvent::Challenge {
                challenge: ChallengeNote::New(note),
            } => UserEvent::open_challenge(&note.id),
            other => other.clone(),
        }
    }
}

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
    if state.store.postgres_url().is_none() {
        return;
    }
    let Some(payload) = note_payload(&store_id(state), &state.instance, users, event) else {
        tracing::error!("an event too long to tell other instances");
        return;
    };
    if let Err(e) = state.store.notify(LOBBY_CHANNEL, &payload).await {
        tracing::error!(error = %e, "telling other instances of an event");
    }
}

/// The store's name in notifications: the start of its server key (one
/// per store, the same for every instance on it).
fn store_id(state: &AppState) -> String {
    let key = state.key.verifying_key().to_bytes();
    key[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The payload of a notification of `event` to `users` from `instance` of
/// `store`, in the event's short form if the full one is too long.
fn note_payload(store: &str, instance: &str, users: &[&str], event: UserEvent) -> Option<String> {
    let mut note = LobbyNote {
        store: store.to_string(),
        from: instance.to_string(),
        to: users.iter().map(|u| u.to_lowercase()).collect(),
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
    for user in &note.to {
        state.hub.notify(user, note.event.clone());
    }
}

#[cfg(test)]
mod tests {
    use tempo_host::GameSpec;

    use super::*;
    use crate::domain::challenges::ChallengeStatus;

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
        }
    }

    #[test]
    fn a_note_reads_back_as_the_event_it_carries() {
        let c = challenge("300+3");
        let event = UserEvent::new_challenge(&c, &c.challenger, &c.dest);
        let payload =
            note_payload("store", "me", &[&c.challenger, &c.dest], event.clone()).unwrap();
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
        let payload = note_payload("store", "me", &["x"], start.clone()).unwrap();
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
        let payload = note_payload("store", "me", &["a", "b"], event).unwrap();
        assert!(payload.len() <= MAX_NOTE_BYTES, "{}", payload.len());
        let note: LobbyNote = serde_json::from_str(&payload).unwrap();
        assert_eq!(
            serde_json::to_value(&note.event).unwrap(),
            serde_json::json!({"type": "challenge", "challenge": {"id": "abcdefghijkl"}})
        );
    }
}
