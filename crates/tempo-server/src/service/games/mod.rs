//! The games in play: the hub that holds them, the group-commit writer
//! that stores their entries, the flags that fall; and what a player or
//! a reader asks of a game.

mod error;
mod hub;
mod writer;

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

use tempo_chess::Color;
use tempo_host::chain::sign_head;
use tempo_host::{Command, Entry};

pub(crate) use error::{GameError, MAX_CHOICE};
pub(crate) use hub::{Hub, Line, Slot};
pub use writer::Writer;

use crate::domain::Page;
use crate::domain::accounts::User;
use crate::service::AppState;
use crate::service::game_facts::GameFacts;
use crate::service::tables::SeatCaller;

/// Who plays a game's move: a member from their account, or the holder of
/// a table game's seat token.
#[derive(Debug, Clone)]
pub(crate) enum Player {
    Member(User),
    Seat(SeatCaller),
}

impl Player {
    /// The colour this player plays in the game of `slot`, if any.
    pub(crate) fn seat_in(&self, slot: &Slot) -> Option<Color> {
        match self {
            Player::Member(user) => slot.seat(&user.name),
            Player::Seat(seat) => (seat.game == slot.id).then_some(seat.color),
        }
    }
}

/// Game `id` and the seat of `player` in it.
pub(crate) async fn seated(
    state: &AppState,
    id: &str,
    player: &Player,
) -> Result<(Arc<Slot>, Color), GameError> {
    let slot = state.hub.slot(&state.store, id).await?;
    let color = player.seat_in(&slot).ok_or(GameError::NotSeated)?;
    Ok((slot, color))
}

/// Runs a command on a game now, counted in the metrics.
pub(crate) async fn run(state: &AppState, slot: &Slot, command: Command) -> Result<(), GameError> {
    state.metrics.commands.fetch_add(1, Relaxed);
    let result = state
        .hub
        .command(
            &state.store,
            &state.writer,
            slot,
            command,
            state.clock.now(),
        )
        .await;
    if result.is_err() {
        state.metrics.commands_refused.fetch_add(1, Relaxed);
    }
    result
}

/// A player's move or hidden commit in game `id`.
pub(crate) async fn play(
    state: &AppState,
    player: &Player,
    id: &str,
    choice: String,
) -> Result<(), GameError> {
    let (slot, color) = seated(state, id, player).await?;
    if choice.len() > MAX_CHOICE {
        return Err(GameError::ChoiceTooLong);
    }
    run(state, &slot, Command::Play { color, choice }).await
}

/// The seat's command `make(color)` in game `id`.
pub(crate) async fn act(
    state: &AppState,
    player: &Player,
    id: &str,
    make: impl FnOnce(Color) -> Command,
) -> Result<(), GameError> {
    let (slot, color) = seated(state, id, player).await?;
    run(state, &slot, make(color)).await
}

/// An arbiter's action on game `id`: `make(arbiter's name)`. Refused to
/// the game's own players, whatever their role — no one rules on their
/// own game.
pub(crate) async fn arbitrate(
    state: &AppState,
    arbiter: &User,
    id: &str,
    make: impl FnOnce(String) -> Command,
) -> Result<(), GameError> {
    let slot = state.hub.slot(&state.store, id).await?;
    if slot.seat(&arbiter.name).is_some() {
        return Err(GameError::OwnGame);
    }
    run(state, &slot, make(arbiter.name.clone())).await
}

/// A game's stored entries up to the head a reader sees, and the server's
/// signature on that head.
pub(crate) struct SignedLog {
    pub entries: Vec<Entry>,
    /// The signature on the last entry's hash.
    pub signature: String,
}

/// Game `id`'s log, signed at its head.
pub(crate) async fn signed_log(state: &AppState, id: &str) -> Result<SignedLog, GameError> {
    let slot = state.hub.slot(&state.store, id).await?;
    // The head as the lock's holder left it: a command stores its entries
    // before it lets go, so the store has every entry up to this head, and
    // the store is read without holding up the game's moves.
    let (seq, head) = slot.game.lock().await.head();
    let mut entries = state.store.entries(id).await?;
    entries.retain(|e| e.seq <= seq);
    Ok(SignedLog {
        entries,
        signature: sign_head(&state.key, id, seq, &head),
    })
}

/// A game of the caller's in play, for a correspondence player's list.
#[derive(Debug, Clone)]
pub(crate) struct PlayingGame {
    pub facts: GameFacts,
    pub color: Color,
    pub my_turn: bool,
    /// Milliseconds since the epoch by which the caller must move.
    pub deadline: Option<u64>,
}

/// A page of the caller's unfinished games, those where a move is due
/// from the caller first, then by deadline; and whether more follow. The
/// order needs every game's state: all of the caller's are read (they
/// are in memory while in play), one page is answered.
pub(crate) async fn playing(
    state: &AppState,
    user: &User,
    page: Page,
) -> Result<(Vec<PlayingGame>, bool), GameError> {
    let now = state.clock.now();
    let mut games = Vec::new();
    for id in state.store.unfinished_games(Some(&user.name)).await? {
        let slot = state.hub.slot(&state.store, &id).await?;
        let Some(color) = slot.seat(&user.name) else {
            continue;
        };
        let game = slot.game.lock().await;
        if game.end().is_some() {
            continue;
        }
        let my_turn = !game.choices(color).is_empty();
        let deadline = game
            .reading(color, now)
            .filter(|_| my_turn)
            .map(|left| now.saturating_add(left.0.max(0) as u64));
        games.push(PlayingGame {
            facts: GameFacts::of(&id, &game, now),
            my_turn,
            deadline,
            color,
        });
    }
    // The id last: one order for every page.
    games.sort_by(|a, b| {
        (!a.my_turn, a.deadline, &a.facts.id).cmp(&(!b.my_turn, b.deadline, &b.facts.id))
    });
    Ok(page.of(games))
}

/// Games an event stream announces at its start at most (the newest).
const MAX_IN_PLAY: usize = 500;

/// The caller's games in play and the caller's seat in each (for an event
/// stream's start).
pub(crate) async fn in_play(
    state: &AppState,
    user: &User,
) -> Result<Vec<(GameFacts, Color)>, GameError> {
    let now = state.clock.now();
    let mut games = Vec::new();
    let mut newest = state.store.unfinished_games(Some(&user.name)).await?;
    newest.truncate(MAX_IN_PLAY);
    for id in newest {
        let slot = state.hub.slot(&state.store, &id).await?;
        let Some(color) = slot.seat(&user.name) else {
            continue;
        };
        let game = slot.game.lock().await;
        if game.end().is_none() {
            games.push((GameFacts::of(&id, &game, now), color));
        }
    }
    Ok(games)
}
