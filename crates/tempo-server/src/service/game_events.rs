//! A game from each player's seat, as lichess's `gameStart`, `gameFinish`
//! and `nowPlaying` show it: the player's colour, whether their move is
//! due, their clock, the opponent with their club rating. What the game
//! says is read under its lock ([`GameFacts`]); the rest (ratings, where
//! the game came from) from the store afterwards.
//!
//! Each player gets their own event: the instance that writes the game
//! builds both and tells each player by a notification of their own (a
//! few hundred bytes, well under PostgreSQL's limit), so the receiving
//! instances only pass them on.

use tempo_chess::Color;
use tempo_host::lichess;

use crate::domain::tables::is_guest_key;
use crate::service::AppState;
use crate::service::events::{BoardNote, Compat, GameInfo, Opponent, StatusJson, UserEvent};
pub(crate) use crate::service::game_facts::{GameFacts, News};
use crate::service::lichess::user;
use crate::service::lobby::tell;
use crate::storage::{GameOrigin, StoreError};

fn color_name(color: Color) -> &'static str {
    color.fold("white", "black")
}

/// The game of `facts` from `color`'s seat.
pub(crate) async fn game_info(
    state: &AppState,
    facts: &GameFacts,
    color: Color,
    origin: &GameOrigin,
) -> Result<GameInfo, StoreError> {
    let i = color.index();
    let opponent_name = &facts.players[1 - i];
    let opponent = if is_guest_key(&origin.players[1 - i]) {
        Opponent {
            id: None,
            username: opponent_name.clone(),
            rating: None,
        }
    } else {
        let user = user(state, opponent_name, facts.variant).await?;
        Opponent {
            id: Some(user.id),
            username: user.name,
            rating: Some(user.rating),
        }
    };
    let kind = lichess::variant(facts.variant, facts.set_up);
    let speed = lichess::speed(facts.control.as_ref());
    let status = lichess::status(facts.end);
    let source = match origin {
        GameOrigin { link: Some(_), .. } => "tournament",
        GameOrigin { lobby: true, .. } => "lobby",
        _ => "friend",
    };
    Ok(GameInfo {
        id: facts.id.clone(),
        game_id: facts.id.clone(),
        full_id: facts.id.clone(),
        color: color_name(color).into(),
        fen: facts.fen.clone(),
        has_moved: facts.moved[i],
        is_my_turn: facts.due[i],
        last_move: facts.last_move.clone().unwrap_or_default(),
        opponent,
        perf: lichess::perf_key(kind, speed).into(),
        rated: origin.rated,
        seconds_left: facts.left[i].map(|ms| ms / 1000),
        source: source.into(),
        speed: speed.key().into(),
        variant: kind.into(),
        compat: Compat::BOTH,
        status: StatusJson {
            id: status.id(),
            name: status.name().into(),
        },
        winner: facts
            .end
            .and_then(|(result, _)| lichess::winner(result))
            .map(|c| color_name(c).into()),
        result: facts.end.map(|(result, _)| result.as_str().into()),
        reason: facts.end.map(|(_, reason)| reason.name().into()),
        board: origin.link.as_ref().map(|link| BoardNote {
            tournament: link.tournament.clone(),
            round: link.round,
            board: link.board,
        }),
    })
}

/// The game of `facts` from `color`'s seat, where it came from read now.
pub(crate) async fn game_info_now(
    state: &AppState,
    facts: &GameFacts,
    color: Color,
) -> Result<GameInfo, StoreError> {
    let origin = state.store.game_origin(&facts.id).await?;
    game_info(state, facts, color, &origin).await
}

/// Tells each player of the game of `facts` that it starts (`finish`:
/// ends), from their own seat. A player whose event cannot be built (the
/// store failing) is not told; it is logged (a stream that begins lists
/// the games in play).
pub(crate) async fn tell_players(state: &AppState, facts: &GameFacts, finish: bool) {
    let origin = match state.store.game_origin(&facts.id).await {
        Ok(origin) => origin,
        Err(e) => {
            tracing::error!(game = facts.id, error = %e, "reading where a game came from");
            return;
        }
    };
    for color in Color::ALL {
        // A table game's guest has no account, so no events to hear.
        if is_guest_key(&origin.players[color.index()]) {
            continue;
        }
        let info = match game_info(state, facts, color, &origin).await {
            Ok(info) => Box::new(info),
            Err(e) => {
                tracing::error!(game = facts.id, error = %e, "building a player's game event");
                continue;
            }
        };
        let event = if finish {
            UserEvent::GameFinish { game: info }
        } else {
            UserEvent::GameStart { game: info }
        };
        tell(state, &[&facts.players[color.index()]], event).await;
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
        while let Some(item) = news.recv().await {
            match item {
                News::Tell(players, event) => {
                    let players: Vec<&str> = players.iter().map(String::as_str).collect();
                    tell(&state, &players, event).await;
                }
                News::Finished(facts) => tell_players(&state, &facts, true).await,
            }
        }
    });
}
