//! Members' events on every instance: an event reaches the member's
//! streams on the instance that made it at once, and on the other
//! instances of the store through a PostgreSQL notification.

use serde::{Deserialize, Serialize};

use crate::service::AppState;
use crate::service::challenge_json;
use crate::service::events::{ShortChallenge, UserEvent};

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
    /// The event, if it fits; else `short`.
    #[serde(default)]
    event: Option<UserEvent>,
    /// A challenge event too long to send: the receiver builds it again.
    #[serde(default)]
    short: Option<ShortChallenge>,
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
        short: None,
        event: Some(event),
    };
    let payload = serde_json::to_string(&note).ok()?;
    if payload.len() <= MAX_NOTE_BYTES {
        return Some(payload);
    }
    let event = note.event.take()?;
    note.short = ShortChallenge::of(&event);
    note.event = event.brief();
    Some(serde_json::to_string(&note).ok()?).filter(|p| p.len() <= MAX_NOTE_BYTES)
}

/// Most notes from other instances waiting to be handled; one beyond is
/// dropped (logged), as a stream that lags drops events.
const MAX_NOTES_WAITING: usize = 1_024;

/// The notes other instances sent, handled one after another in the
/// order they came (one task an instance): a short challenge note reads
/// the store, and a later note must not overtake it (a `challengeCanceled`
/// before its `challenge`).
pub(crate) struct HeardNotes {
    queue: tokio::sync::mpsc::Sender<LobbyNote>,
}

impl HeardNotes {
    /// Starts the task that handles `state`'s notes.
    pub(crate) fn start(state: AppState) -> HeardNotes {
        let (queue, mut notes) = tokio::sync::mpsc::channel(MAX_NOTES_WAITING);
        tokio::spawn(async move {
            while let Some(note) = notes.recv().await {
                handle(&state, note).await;
            }
        });
        HeardNotes { queue }
    }

    /// Another instance told of an event: this instance's streams of its
    /// members hear it, after every note heard before (a note of this
    /// instance's own is skipped: its streams heard it when it was made;
    /// so is one of another store).
    pub(crate) fn heard(&self, state: &AppState, payload: &str) {
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
        if let Err(e) = self.queue.try_send(note) {
            tracing::error!(error = %e, "an event notification dropped");
        }
    }
}

/// Tells this instance's streams what `note` says: a short challenge note
/// built again from the store (dropped if the challenge is gone, or if a
/// `challenge` event's challenge is no longer open).
async fn handle(state: &AppState, note: LobbyNote) {
    if let Some(short) = note.short {
        match challenge_json::expand(state, &short).await {
            Ok(Some(event)) => pass_on(state, note.all, &note.to, &event),
            Ok(None) => {}
            Err(e) => tracing::error!(error = %e, "reading a challenge another instance told of"),
        }
        return;
    }
    if let Some(event) = &note.event {
        pass_on(state, note.all, &note.to, event);
    }
}

/// Tells this instance's streams of `to` (or of everyone) of `event`.
fn pass_on(state: &AppState, all: bool, to: &[String], event: &UserEvent) {
    if all {
        state.hub.notify_everyone(event);
    }
    for user in to {
        state.hub.notify(user, event.clone());
    }
}

#[cfg(test)]
mod tests {
    use tempo_host::GameSpec;

    use super::*;
    use crate::domain::challenges::{Challenge, ChallengeStatus, ColorChoice};
    use crate::service::events::{ChallengeJson, LightUser, PerfJson, VariantJson};

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

    fn member(name: &str) -> LightUser {
        LightUser {
            id: name.into(),
            name: name.into(),
            title: None,
            rating: 1500,
            provisional: true,
        }
    }

    /// The challenge object as the service builds it, without a store.
    fn json(c: &Challenge) -> ChallengeJson {
        ChallengeJson {
            id: c.id.clone(),
            url: format!("http://club.example/challenge/{}", c.id),
            status: "declined".into(),
            challenger: member(&c.challenger),
            dest_user: Some(member(&c.dest)),
            variant: VariantJson {
                key: "standard".into(),
                name: "Standard".into(),
                short: "Std".into(),
            },
            rated: c.rated,
            speed: "classical".into(),
            time_control: serde_json::json!({"type": "clock"}),
            color: c.color,
            final_color: "white".into(),
            perf: PerfJson {
                name: "Classical".into(),
            },
            direction: None,
            initial_fen: None,
            decline_reason: Some("Later.".into()),
            decline_reason_key: Some("later".into()),
            clock: c.spec.clock.clone(),
            fen: None,
            chess960: None,
            rules: Default::default(),
            expires_at: None,
        }
    }

    #[test]
    fn a_note_reads_back_as_the_event_it_carries() {
        let c = challenge("300+3");
        let event = UserEvent::challenge_closed(json(&c), true);
        let payload = note_payload(
            "store",
            "me",
            Audience::Some(&[&c.challenger, &c.dest]),
            event.clone(),
        )
        .unwrap();
        let note: LobbyNote = serde_json::from_str(&payload).unwrap();
        assert_eq!(note.to, [c.challenger.clone(), c.dest.clone()]);
        assert_eq!(note.short, None);
        let line = |e: &UserEvent| serde_json::to_string(e).unwrap();
        assert_eq!(line(&note.event.unwrap()), line(&event));
        let turn = UserEvent::your_turn("g");
        let payload = note_payload("store", "me", Audience::Some(&["x"]), turn.clone()).unwrap();
        let note: LobbyNote = serde_json::from_str(&payload).unwrap();
        assert_eq!(line(&note.event.unwrap()), line(&turn));
    }

    #[test]
    fn a_note_too_long_for_postgresql_carries_the_short_form() {
        // A time control of many periods can be long; the note stays
        // under PostgreSQL's limit by naming the challenge and the
        // decline's reason, which the receiver builds the event from (its
        // page's address too: each stream's own).
        let long_clock = vec!["40/5400"; 2_000].join(":");
        let c = challenge(&long_clock);
        let event = UserEvent::challenge_closed(json(&c), true);
        let payload = note_payload("store", "me", Audience::Some(&["a", "b"]), event).unwrap();
        assert!(payload.len() <= MAX_NOTE_BYTES, "{}", payload.len());
        let note: LobbyNote = serde_json::from_str(&payload).unwrap();
        assert!(note.event.is_none());
        assert_eq!(
            serde_json::to_value(note.short.unwrap()).unwrap(),
            serde_json::json!({"kind": "challengeDeclined", "id": "abcdefghijkl",
                "declineReasonKey": "later"})
        );
        // An open challenge's event loses its clock instead.
        let open = UserEvent::open_challenge_now(&c, "open");
        let payload = note_payload("store", "me", Audience::Everyone, open).unwrap();
        let note: LobbyNote = serde_json::from_str(&payload).unwrap();
        assert!(payload.len() <= MAX_NOTE_BYTES);
        let UserEvent::OpenChallenge { challenge } = note.event.unwrap() else {
            panic!("an open challenge's event");
        };
        assert_eq!(challenge.clock, None);
    }
}
