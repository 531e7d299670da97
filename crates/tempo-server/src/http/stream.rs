//! The NDJSON streams: a game's entries as they are stored, and a
//! member's events (challenges, game starts, turns, game ends). A stream opened with a
//! token or a session ends when that credential ends (revoked, logged
//! out, the password changed): a player's stream shows their own hidden
//! choice, which nobody without the credential may see any more.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::StreamExt;
use serde::Serialize;
use serde_json::Value;
use tempo_chess::Color;
use tempo_host::HostedGame;
use tempo_host::view::Audience;
use tokio::sync::broadcast::error::RecvError;

use super::ApiResult;
use super::endpoint::{Access, Endpoint, NDJSON};
use super::extract::{Caller, Viewer, credential};
use super::games::{Decoration, GameView};
use super::origin::Origin;
use crate::domain::accounts::User;
use crate::service::challenge_json::challenge_json;
use crate::service::challenges::ChallengeError;
use crate::service::chat::ChatItem;
use crate::service::events::UserEvent;
use crate::service::game_events::game_info_now;
use crate::service::games::{self, GameError, Line, Player, Slot};
use crate::service::{AppState, accounts, challenges, tables};

/// Keep-alive lines on idle streams (as lichess sends).
const KEEP_ALIVE: Duration = Duration::from_secs(15);

fn ndjson(body: Body) -> Response {
    ([(header::CONTENT_TYPE, NDJSON)], body).into_response()
}

/// A value as one line.
fn line(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string(value).expect("a line serialises");
    text.push('\n');
    text
}

/// Completes when the stream should end: the server stops, or the
/// credential `user` was named by ends.
fn end_of_stream(
    state: &AppState,
    headers: &HeaderMap,
    user: Option<&User>,
) -> impl std::future::Future<Output = ()> + Send + 'static {
    let stopped = state.stopped();
    let ended = user
        .zip(credential(headers))
        .map(|(user, credential)| accounts::until_ended(state, credential, user.name.clone()));
    async move {
        match ended {
            Some(ended) => {
                tokio::select! {
                    () = stopped => {}
                    () = ended => {}
                }
            }
            None => stopped.await,
        }
    }
}

/// Completes when a game stream should end besides its game: as
/// [`end_of_stream`] for a member, or when a seat token is revoked.
fn viewer_ends(
    state: &AppState,
    headers: &HeaderMap,
    viewer: Option<&Player>,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'static>> {
    match viewer {
        Some(Player::Seat(seat)) => {
            let stopped = state.stopped();
            let unseated = tables::until_unseated(state, seat);
            Box::pin(async move {
                tokio::select! {
                    () = stopped => {}
                    () = unseated => {}
                }
            })
        }
        Some(Player::Member(user)) => Box::pin(end_of_stream(state, headers, Some(user))),
        None => Box::pin(end_of_stream(state, headers, None)),
    }
}

/// An entry's line (with the log's `head`), and after anything but a
/// commit (whose line says all that changed) the state as the reader
/// may see it.
async fn entry_lines(slot: &Slot, state: &AppState, reader: Reader, entry: &Line) -> String {
    let mut text = entry.text.clone();
    if entry.changes_state {
        let game = slot.game.lock().await;
        text.push_str(&line(&reader.state(&game, state.clock.now())));
    }
    text
}

/// Who reads a game stream: its view, and the seat if a seat token reads
/// it. A seat sees the public view — no sealed choice, not even its own:
/// a director may hold both seats' tokens — with its own legal choices
/// (`legal`: what the public position allows it, no secret) and, in
/// gameFull, `"seat": "white"|"black"` (lichess's clients ignore it).
#[derive(Debug, Clone, Copy)]
struct Reader {
    audience: Audience,
    seat: Option<Color>,
}

impl Reader {
    fn state(self, game: &HostedGame, now: u64) -> Value {
        let mut state = game.state(self.audience, now);
        if let Some(color) = self.seat {
            state["legal"] = game.choices(color).into();
        }
        state
    }

    fn full(self, game: &HostedGame, now: u64) -> Value {
        let mut full = game.full(self.audience, now);
        if let Some(color) = self.seat {
            full["state"]["legal"] = game.choices(color).into();
            full["seat"] = color.fold("white", "black").into();
        }
        full
    }
}

/// `GET /api/board/game/stream/{id}`: NDJSON, the full game first (with
/// the players as lichess's users, read once as the stream opens), then
/// every entry as it is stored, each with the log's `head`, and the
/// state after it as the caller may see it; and the game's chat lines
/// the caller may read. The Bot API's stream is this one too.
pub(super) async fn game_stream(
    State(state): State<AppState>,
    headers: HeaderMap,
    Viewer(viewer): Viewer,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let slot = state.hub.slot(&state.store, &id).await?;
    let color = viewer.as_ref().and_then(|player| player.seat_in(&slot));
    // A seat token's stream is the public view ([`Reader`]).
    let seat = match &viewer {
        Some(Player::Seat(_)) => color,
        _ => None,
    };
    let audience = match seat {
        Some(_) => Audience::Public,
        None => color.map_or(Audience::Public, Audience::Player),
    };
    let reader = Reader { audience, seat };
    // The chat's player room is no sealed choice: a seat hears it.
    let hears = color.map_or(Audience::Public, Audience::Player);
    let decoration = Decoration::of(&state, &slot).await?;
    let receiver = slot.lines.subscribe();
    let chat = state.chat.subscribe(&id);
    let stopped = viewer_ends(&state, &headers, viewer.as_ref());
    let (first, over) = {
        let game = slot.game.lock().await;
        let full = decoration.full(reader.full(&game, state.clock.now()));
        (full, game.end().is_some())
    };
    state
        .metrics
        .streams_opened
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // As lichess's, the stream ends with the game: after its end entry,
    // or at once after the first line for a game already over.
    let entries = futures_util::stream::unfold(
        (receiver, slot, state, reader, decoration, over),
        |(mut receiver, slot, state, reader, decoration, over)| async move {
            if over {
                return None;
            }
            let (text, over) = match tokio::time::timeout(KEEP_ALIVE, receiver.recv()).await {
                Err(_) => ("\n".to_string(), false),
                Ok(Ok(entry)) => (
                    entry_lines(&slot, &state, reader, &entry).await,
                    entry.ends_game,
                ),
                Ok(Err(RecvError::Lagged(_))) => {
                    let game = slot.game.lock().await;
                    let full = decoration.full(reader.full(&game, state.clock.now()));
                    (line(&full), game.end().is_some())
                }
                Ok(Err(RecvError::Closed)) => return None,
            };
            Some((text, (receiver, slot, state, reader, decoration, over)))
        },
    );
    let game = futures_util::stream::once(async move { line(&first) }).chain(entries);
    let stream = with_chat(game, chat, hears).take_until(stopped);
    Ok(ndjson(Body::from_stream(stream)))
}

/// A game stream with the chat lines its reader may read (the player
/// room for the players only) merged in; the game's own lines first when
/// both have one. It ends when the game's lines end.
fn with_chat<S>(
    game: S,
    chat: tokio::sync::broadcast::Receiver<ChatItem>,
    audience: Audience,
) -> impl futures_util::Stream<Item = Result<String, std::convert::Infallible>>
where
    S: futures_util::Stream<Item = String>,
{
    let chat = futures_util::stream::unfold(chat, move |mut chat| async move {
        loop {
            match chat.recv().await {
                Ok(line) if line.0.heard_by(audience) => {
                    return Some((Some(line.1.clone()), chat));
                }
                // A line of the other room, or lines a slow reader missed.
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
        }
    });
    // `None` marks the end of the game's lines: the merged stream stops
    // there, chat or not.
    let game = game
        .map(Some)
        .chain(futures_util::stream::once(async { None }));
    futures_util::stream::select_with_strategy(game, chat, |_: &mut ()| {
        futures_util::stream::PollNext::Left
    })
    .take_while(|text| std::future::ready(text.is_some()))
    .map(|text| Ok(text.unwrap_or_default()))
}

/// `GET /api/stream/event`: the caller's challenges and games. It begins
/// with what is open, in full as lichess's clients read it: a
/// `challenge` for each pending challenge, a `gameStart` for each game
/// in play.
async fn event_stream(
    State(state): State<AppState>,
    headers: HeaderMap,
    Origin(origin): Origin,
    Caller(user): Caller,
) -> ApiResult<Response> {
    let receiver = state.hub.subscribe(&user.name);
    let stopped = end_of_stream(&state, &headers, Some(&user));
    let mut first = String::new();
    for challenge in challenges::pending(&state.store, &user).await? {
        let json = challenge_json(&state, &challenge, &origin)
            .await
            .map_err(ChallengeError::from)?;
        first.push_str(&line(&UserEvent::challenge(json)));
    }
    for (facts, color) in games::in_play(&state, &user).await? {
        let game = game_info_now(&state, &facts, color)
            .await
            .map_err(GameError::from)?;
        first.push_str(&line(&UserEvent::GameStart {
            game: Box::new(game),
        }));
    }
    let stream =
        futures_util::stream::once(async move { Ok::<_, std::convert::Infallible>(first) })
            .chain(futures_util::stream::unfold(
                (receiver, origin),
                |(mut receiver, origin)| async move {
                    let text = match tokio::time::timeout(KEEP_ALIVE, receiver.recv()).await {
                        Err(_) | Ok(Err(RecvError::Lagged(_))) => "\n".to_string(),
                        Ok(Ok(event)) => line(&event.with_origin(&origin)),
                        Ok(Err(RecvError::Closed)) => return None,
                    };
                    Some((Ok(text), (receiver, origin)))
                },
            ))
            .take_until(stopped);
    Ok(ndjson(Body::from_stream(stream)))
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/api/board/game/stream/{id}",
            "The game as NDJSON: gameFull, then each entry with the log's head and the state after it",
            Optional,
            || get(game_stream),
        )
        .seat()
        .ndjson::<GameView>(),
        e(
            "get",
            "/api/stream/event",
            "The caller's challenges, game starts, turns and game ends as NDJSON",
            Token,
            || get(event_stream),
        )
        .ndjson::<UserEvent>(),
    ]
}
