//! Online boards: a round's games on the play server, with the round's
//! variant, clock and Chess960 position; each game's result enters the
//! tournament by itself when the game ends.

use std::sync::atomic::Ordering::Relaxed;

use tempo_host::{EndResult, GameSpec, Header, HostedGame};

use super::{TournamentError, load, modify};
use crate::domain::random_id;
use crate::domain::ratings::RatingGroup;
use crate::domain::tournaments::{Board, Record, RoundMode};
use crate::service::AppState;
use crate::service::events::UserEvent;
use crate::service::game_events::{GameFacts, tell_players};
use crate::service::lobby;
use crate::service::tables::TableError;
use crate::storage::GameLink;

/// Creates the games of round `round` for its boards without a game (or
/// whose game was aborted) and without a result: at tables (the round's
/// mode `table`) every board gets a table game that `director` creates;
/// otherwise the boards whose two players have accounts get a game. The
/// tournament as stored afterwards.
pub(crate) async fn create_games(
    state: &AppState,
    id: &str,
    round: u32,
    director: &str,
) -> Result<Record, TournamentError> {
    // Two requests at once must not both give a board a game: creation is
    // one at a time, from the record as stored when its turn comes.
    static CREATING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _turn = CREATING.lock().await;
    let (record, _) = load(&state.store, id).await?;
    let boards = record.boards(round).map(|b| b.boards).unwrap_or_default();
    let spec = record.game_spec(round);
    let at_tables = record.mode(round) == Some(RoundMode::Table);
    let mut made = Vec::new();
    let mut failed = None;
    for board in boards {
        if record.result(round, &board).is_some() {
            continue;
        }
        // A board gets a new game only if it has none or its game was aborted.
        if let Some(old) = &board.game_id {
            match end_result(state, old).await {
                Ok(Some(EndResult::NoResult)) => {}
                Ok(_) => continue,
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        let link = GameLink {
            tournament: id.to_string(),
            round,
            board: board.board,
        };
        let game = if at_tables {
            super::at_tables::table_game(state, director, &record, &board, &spec, link).await
        } else {
            online_game(state, &record, &board, &spec, link).await
        };
        match game {
            Ok(Some(game)) => made.push((board.board, game)),
            Ok(None) => {}
            // The store failing fails the rest too: stop and say so.
            Err(e @ (TournamentError::Store(_) | TournamentError::Table(TableError::Store(_)))) => {
                failed = Some(e);
                break;
            }
            // A board whose game cannot be made (its players' names, a
            // member gone) is left without one, for the director to see;
            // the other boards are played.
            Err(e) => {
                tracing::warn!(tournament = id, round, board = board.board, error = %e, "a board's game could not be made");
            }
        }
    }
    // The games made are the boards' even if a later one failed: each is
    // linked to its board already, and must not be made twice.
    let record = if made.is_empty() {
        record
    } else {
        let (_, record) = modify(&state.store, id, |r| {
            for (board, game) in &made {
                r.set_game(round, *board, game);
            }
            Ok(())
        })
        .await?;
        record
    };
    match failed {
        Some(e) => Err(e),
        None => Ok(record),
    }
}

/// A board's game between its two members' accounts, if both have one.
async fn online_game(
    state: &AppState,
    record: &Record,
    board: &Board,
    spec: &GameSpec,
    link: GameLink,
) -> Result<Option<String>, TournamentError> {
    let names = (
        record.s.usernames.get(&board.white),
        record.s.usernames.get(&board.black),
    );
    let (Some(white), Some(black)) = names else {
        return Ok(None);
    };
    let (Some((white, _)), Some((black, _))) = (
        state.store.user(white).await?,
        state.store.user(black).await?,
    ) else {
        return Ok(None);
    };
    let game = random_id();
    let header = Header::new(&game, spec, &white.name, &black.name)?;
    let now = state.clock.now();
    let (hosted, first) = HostedGame::create(header, now)?;
    let facts = GameFacts::of(&game, &hosted, now);
    state
        .store
        .add_board_game(
            &game,
            (&white.name, &black.name),
            &first,
            &link,
            RatingGroup::of(spec.variant),
        )
        .await?;
    state.hub.insert(
        &game,
        white.name.to_lowercase(),
        black.name.to_lowercase(),
        hosted,
    );
    state.metrics.games_created.fetch_add(1, Relaxed);
    tell_players(state, &facts, false).await;
    Ok(Some(game))
}

/// The result a game ended with (`*` if aborted), if it ended.
pub(super) async fn end_result(
    state: &AppState,
    game: &str,
) -> Result<Option<EndResult>, TournamentError> {
    Ok(state.store.game_end(game).await?.map(|(result, _)| result))
}

/// Enters the result of `game` into its tournament, if it is a finished
/// tournament game (an aborted game leaves the board to the director).
pub(super) async fn take_result(state: &AppState, game: &str) -> Result<(), TournamentError> {
    let Some(link) = state.store.game_link(game).await? else {
        return Ok(());
    };
    let Some(EndResult::Decided(outcome)) = end_result(state, game).await? else {
        return Ok(());
    };
    let result = outcome.pgn();
    let (record, _) = load(&state.store, &link.tournament).await?;
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
    let (entered, _) = modify(&state.store, &link.tournament, |r| {
        r.set_result(link.round, link.board, result, &by, now, true)
    })
    .await?;
    if entered {
        let event = UserEvent::tournament_board(&link.tournament, link.round, link.board);
        lobby::tell_everyone(state, event).await;
    }
    Ok(())
}

/// Follows the games that end on this instance (and, once at start, the
/// finished tournament games whose results may not have entered).
pub(crate) fn follow_game_ends(state: &AppState) {
    let (sender, mut ended) = tokio::sync::mpsc::unbounded_channel::<String>();
    state.hub.on_end(sender);
    let state = state.clone();
    tokio::spawn(async move {
        match state.store.finished_tournament_games(1000).await {
            Ok(games) => {
                for game in games {
                    if let Err(e) = take_result(&state, &game).await {
                        tracing::error!(game, error = %e, "a tournament game's result");
                    }
                }
            }
            Err(e) => tracing::error!(error = %e, "finding finished tournament games"),
        }
        while let Some(game) = ended.recv().await {
            if let Err(e) = take_result(&state, &game).await {
                tracing::error!(game, error = %e, "a tournament game's result");
            }
        }
    });
}
