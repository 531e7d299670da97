//! The games' chat, as lichess's: two rooms a game, `player` (the two
//! players only) and `spectator` (everyone reads; members write). A line
//! is stored (the newest [`KEPT`] a game and room) and then told to the
//! game's streams: at once on this instance, through a PostgreSQL
//! notification on the others. Chat never goes through a game's lock or
//! its writer, and is no part of its signed log.

mod hub;

use std::time::Instant;

use serde::{Deserialize, Serialize};
use tempo_host::view::Audience;

use crate::domain::accounts::User;
use crate::domain::limits::RetryAfter;
use crate::service::AppState;
use crate::service::lobby::store_id;
use crate::storage::{StoreError, StoredChatLine};

/// The PostgreSQL channel on which instances tell each other's game
/// streams of chat lines.
pub(crate) const CHAT_CHANNEL: &str = "tempo_chat";

/// Lines kept a game and room (older ones go).
pub(crate) const KEPT: i64 = 200;
/// A line's length in characters (as lichess).
pub(crate) const MAX_CHARS: usize = 140;

/// A chat room of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Room {
    Player,
    Spectator,
}

impl Room {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Room::Player => "player",
            Room::Spectator => "spectator",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Room> {
        match text {
            "player" => Some(Room::Player),
            "spectator" => Some(Room::Spectator),
            _ => None,
        }
    }

    /// Whether a reader of `audience` hears this room.
    pub(crate) fn heard_by(self, audience: Audience) -> bool {
        self == Room::Spectator || matches!(audience, Audience::Player(_))
    }
}

/// Why a chat line is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ChatError {
    #[error("room: player or spectator")]
    BadRoom,
    #[error("text: 1 to {MAX_CHARS} characters, no control characters")]
    BadText,
    #[error("game not found")]
    NoSuchGame,
    #[error("only the game's players write in and read the player room")]
    PlayersOnly,
    #[error("too many chat lines: try again in {} s", .0.seconds())]
    TooFast(RetryAfter),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A line as a game stream sends it (`{"type":"chatLine",…}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub(crate) struct ChatLine {
    /// Always `chatLine`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `player` or `spectator`.
    pub room: String,
    pub username: String,
    pub text: String,
}

/// Whether `c` may not be in a line: a control character, a line or
/// paragraph separator (a line is one line), or a bidirectional override,
/// embedding, isolate or mark (they would turn the text shown after them,
/// the next line's name, around).
fn refused_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
        )
}

/// Checks a line's text: trimmed, 1 to [`MAX_CHARS`] characters, none
/// [`refused_char`].
pub(crate) fn check_text(text: &str) -> Result<String, ChatError> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_CHARS || text.chars().any(refused_char) {
        return Err(ChatError::BadText);
    }
    Ok(text.to_string())
}

/// `user` writes `text` in game `id`'s `room`: players in both rooms,
/// other members in the spectator room.
pub(crate) async fn say(
    state: &AppState,
    user: &User,
    id: &str,
    room: &str,
    text: &str,
) -> Result<(), ChatError> {
    let room = Room::parse(room).ok_or(ChatError::BadRoom)?;
    let text = check_text(text)?;
    let (white, black) = state
        .store
        .game_players(id)
        .await?
        .ok_or(ChatError::NoSuchGame)?;
    let me = user.name.to_lowercase();
    if room == Room::Player && me != white && me != black {
        return Err(ChatError::PlayersOnly);
    }
    state
        .chat
        .take(&me, Instant::now())
        .map_err(ChatError::TooFast)?;
    let stored = StoredChatLine {
        room: room.as_str().into(),
        username: user.name.clone(),
        text,
        at: state.clock.now() as i64,
    };
    state.store.add_chat_line(id, &stored, KEPT).await?;
    let line = ChatLine {
        kind: "chatLine".into(),
        room: stored.room,
        username: stored.username,
        text: stored.text,
    };
    state.chat.publish(id, &line);
    tell_other_instances(state, id, line).await;
    Ok(())
}

/// Game `id`'s player room, oldest first, for one of its players.
pub(crate) async fn player_room(
    state: &AppState,
    user: &User,
    id: &str,
) -> Result<Vec<StoredChatLine>, ChatError> {
    let (white, black) = state
        .store
        .game_players(id)
        .await?
        .ok_or(ChatError::NoSuchGame)?;
    let me = user.name.to_lowercase();
    if me != white && me != black {
        return Err(ChatError::PlayersOnly);
    }
    Ok(state
        .store
        .chat_lines(id, Room::Player.as_str(), KEPT)
        .await?)
}

/// A chat line as one instance tells the others.
#[derive(Debug, Serialize, Deserialize)]
struct ChatNote {
    /// The store it was written in (see `service::lobby`).
    store: String,
    /// The instance that wrote it (its streams have it already).
    from: String,
    game: String,
    line: ChatLine,
}

/// Tells the other instances of the store (PostgreSQL) of a line; a
/// notification that cannot be sent is logged (the line is stored).
async fn tell_other_instances(state: &AppState, id: &str, line: ChatLine) {
    if state.store.postgres_url().is_none() {
        return;
    }
    let note = ChatNote {
        store: store_id(state),
        from: state.instance.to_string(),
        game: id.to_string(),
        line,
    };
    // 140 characters of 4 bytes and a name of 32: far below 8,000 bytes.
    let payload = serde_json::to_string(&note).expect("a note serialises");
    if let Err(e) = state.store.notify(CHAT_CHANNEL, &payload).await {
        tracing::error!(error = %e, "telling other instances of a chat line");
    }
}

/// Another instance told of a chat line: this instance's streams of the
/// game hear it.
pub(crate) fn heard(state: &AppState, payload: &str) {
    let note: ChatNote = match serde_json::from_str(payload) {
        Ok(note) => note,
        Err(e) => {
            tracing::error!(error = %e, "an unreadable chat notification");
            return;
        }
    };
    if note.from == *state.instance || note.store != store_id(state) {
        return;
    }
    state.chat.publish(&note.game, &note.line);
}

pub(crate) use hub::{ChatHub, ChatItem};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_one_line_of_1_to_140_characters() {
        assert_eq!(check_text("  good luck ").unwrap(), "good luck");
        assert_eq!(check_text(&"ä".repeat(140)).unwrap().chars().count(), 140);
        // Joiners stay (emoji sequences need them).
        assert!(check_text("👩\u{200D}💻").is_ok());
        for bad in [
            "",
            "   ",
            "a\nb",
            "a\u{7}b",
            "\u{0}",
            "a\u{2028}b",
            "a\u{2029}b",
            "a\u{202E}b",
            "a\u{202A}b",
            "a\u{2066}b",
            "a\u{2069}b",
            "a\u{200F}b",
        ] {
            assert!(
                matches!(check_text(bad), Err(ChatError::BadText)),
                "{bad:?}"
            );
        }
        assert!(check_text(&"a".repeat(141)).is_err());
    }

    #[test]
    fn the_player_room_is_heard_by_the_players_only() {
        let white = Audience::Player(tempo_chess::Color::White);
        assert!(Room::Player.heard_by(white));
        assert!(!Room::Player.heard_by(Audience::Public));
        assert!(Room::Spectator.heard_by(Audience::Public));
        assert!(Room::Spectator.heard_by(white));
    }
}
