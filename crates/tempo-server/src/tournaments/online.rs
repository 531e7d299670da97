//! Online boards: a round's games on the play server, with the round's
//! variant, clock and Chess960 position; each game's result enters the
//! tournament by itself when the game ends.

use serde_json::json;
use tempo_host::{Body, EndResult, Header, HostedGame};

use super::{Record, db};
use crate::error::ApiError;
use crate::state::AppState;

/// Game ids as the challenges make them: 12 URL-safe characters.
fn game_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..12)
        .map(|_| char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]))
        .collect()
}

/// Creates the games of round `round` for its boards without a game and
/// without a result whose two players have accounts; the tournament as
/// stored afterwards.
pub async fn create_games(
    state: &AppState,
    id: &str,
    round: u32,
    record: Record,
) -> Result<Record, ApiError> {
    // Two requests at once must not both give a board a game: creation is
    // one at a time, from the record as stored when its turn comes.
    static CREATING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _turn = CREATING.lock().await;
    drop(record);
    let (record, _) = db::load(&state.store, id).await?;
    let boards = record.boards(round).map(|b| b.boards).unwrap_or_default();
    let spec = record.game_spec(round);
    let mut made = Vec::new();
    for board in boards {
        if record.result(round, &board).is_some() {
            continue;
        }
        // A board gets a new game only if it has none or its game was aborted.
        if let Some(old) = &board.game_id
            && end_result(state, old).await? != Some(EndResult::NoResult)
        {
            continue;
        }
        let names = (
            record.s.usernames.get(&board.white),
            record.s.usernames.get(&board.black),
        );
        let (Some(white), Some(black)) = names else {
            continue;
        };
        let (Some((white, _)), Some((black, _))) = (
            state.store.user(white).await?,
            state.store.user(black).await?,
        ) else {
            continue;
        };
        let game = game_id();
        let header = Header::new(&game, &spec, &white.name, &black.name)?;
        let (hosted, first) = HostedGame::create(header, state.clock.now())?;
        state
            .store
            .add_game(&white.name, &black.name, &first, &game)
            .await?;
        db::link_game(&state.store, &game, id, round, board.board).await?;
        state.hub.insert(
            &game,
            white.name.to_lowercase(),
            black.name.to_lowercase(),
            hosted,
        );
        state
            .metrics
            .games_created
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let event = json!({"type": "gameStart", "game": {"id": game, "gameId": game,
            "tournament": id, "round": round, "board": board.board}});
        state.hub.notify(&white.name, event.clone());
        state.hub.notify(&black.name, event);
        made.push((board.board, game));
    }
    if made.is_empty() {
        return Ok(record);
    }
    let (_, record) = db::modify(&state.store, id, |r| {
        for (board, game) in &made {
            r.set_game(round, *board, game);
        }
        Ok(())
    })
    .await?;
    Ok(record)
}

/// The result a game ended with (`*` if aborted), if it ended.
async fn end_result(state: &AppState, game: &str) -> Result<Option<EndResult>, ApiError> {
    let entries = state.store.entries(game).await?;
    Ok(entries.iter().rev().find_map(|e| match &e.body {
        Body::End(end) => Some(end.result),
        _ => None,
    }))
}

/// Enters the result of `game` into its tournament, if it is a finished
/// tournament game (an aborted game leaves the board to the director).
pub async fn take_result(state: &AppState, game: &str) -> Result<(), ApiError> {
    let Some(link) = db::game_link(&state.store, game).await? else {
        return Ok(());
    };
    let Some(EndResult::Decided(outcome)) = end_result(state, game).await? else {
        return Ok(());
    };
    let result = outcome.pgn();
    let (record, _) = db::load(&state.store, &link.tournament).await?;
    let board = record
        .boards(link.round)
        .and_then(|b| b.boards.into_iter().find(|b| b.board == link.board));
    // Only the board's own game, and only while the board has no result.
    let taken = board.is_none_or(|b| {
        record.result(link.round, &b).is_some() || b.game_id.as_deref() != Some(game)
    });
    if taken {
        return Ok(());
    }
    let by = format!("game {game}");
    let now = state.clock.now();
    db::modify(&state.store, &link.tournament, |r| {
        r.set_result(link.round, link.board, result, &by, now, true)
    })
    .await?;
    Ok(())
}

/// Follows the games that end on this instance (and, once at start, the
/// finished tournament games whose results may not have entered).
pub fn follow_game_ends(state: &AppState) {
    let (sender, mut ended) = tokio::sync::mpsc::unbounded_channel::<String>();
    state.hub.on_end(sender);
    let state = state.clone();
    tokio::spawn(async move {
        match db::finished_games(&state.store, 1000).await {
            Ok(games) => {
                for game in games {
                    if let Err(e) = take_result(&state, &game).await {
                        tracing::error!(game, error = e.message, "a tournament game's result");
                    }
                }
            }
            Err(e) => tracing::error!(error = %e, "finding finished tournament games"),
        }
        while let Some(game) = ended.recv().await {
            if let Err(e) = take_result(&state, &game).await {
                tracing::error!(game, error = e.message, "a tournament game's result");
            }
        }
    });
}
