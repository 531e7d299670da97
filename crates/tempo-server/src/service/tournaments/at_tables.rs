//! Boards at tables (issue #29): a round paired `at tables` gets a table
//! game ([`crate::service::tables`]) for every board, members and guests
//! alike, linked to its board so that its result enters by itself; the
//! tournament's directors are shown each open board's two seat links.

use crate::domain::accounts::User;
use crate::domain::tournaments::print::PairingList;
use crate::domain::tournaments::view::{DetailView, RoundView, SeatLinks};
use crate::domain::tournaments::{Board, Record};
use crate::service::AppState;
use crate::service::tables;
use crate::storage::GameLink;
use tempo_host::GameSpec;
use tempo_tourney::PlayerId;

use super::TournamentError;

/// A table game for `board`, created by `director`: its id.
pub(super) async fn table_game(
    state: &AppState,
    director: &str,
    record: &Record,
    board: &Board,
    spec: &GameSpec,
    link: GameLink,
) -> Result<Option<String>, TournamentError> {
    let white = seat_name(state, record, board.white).await?;
    let black = seat_name(state, record, board.black).await?;
    let table = tables::create(state, director, spec.clone(), &white, &black, Some(link)).await?;
    Ok(Some(table.game_id))
}

/// The name a player sits by: their account (the tournament's username
/// link), else their tournament name (a guest's) — marked as a guest's if
/// it is some member's username, since a table seats the member a name
/// names: a guest called "Anna" must not play as the member `anna`.
async fn seat_name(
    state: &AppState,
    record: &Record,
    player: PlayerId,
) -> Result<String, TournamentError> {
    if let Some(username) = record.s.usernames.get(&player)
        && let Some((user, _)) = state.store.user(username).await?
    {
        return Ok(user.name);
    }
    let name = record.player(player)?.name.clone();
    if state.store.user(&name).await?.is_some() {
        return Ok(format!("{name} {GUEST_MARK}"));
    }
    Ok(name)
}

/// What follows a guest's name that is also a member's username (no
/// username holds a space or brackets).
const GUEST_MARK: &str = "(guest)";

/// Whether `viewer` directs tournaments (the arbiter or admin role, as
/// every change of a tournament needs): only they see seat links.
fn directs(viewer: Option<&User>) -> bool {
    viewer.is_some_and(|user| user.role.is_arbiter())
}

/// A table game's seat links, if `game` is a table game.
async fn seats_of(state: &AppState, game: &str) -> Result<Option<SeatLinks>, TournamentError> {
    let Some(table) = tables::table(state, game).await? else {
        return Ok(None);
    };
    if table.finished {
        return Ok(None);
    }
    // A revoked seat has no link until the director renews it.
    let link = |seat: &tables::SeatPass| seat.live.then(|| seat.url.clone());
    let [white, black] = &table.seats;
    Ok(Some(SeatLinks {
        white: link(white),
        black: link(black),
    }))
}

/// Shows a director the seat links of a round's table boards that have
/// no result yet (a finished game's seats are over); nobody else.
pub(crate) async fn seat_round(
    state: &AppState,
    viewer: Option<&User>,
    view: &mut RoundView,
) -> Result<(), TournamentError> {
    if !directs(viewer) {
        return Ok(());
    }
    for b in &mut view.boards {
        if b.result.is_none()
            && b.display.is_some()
            && let Some(game) = &b.game_id
        {
            b.seats = seats_of(state, game).await?;
        }
    }
    Ok(())
}

/// [`seat_round`] for every round of a tournament's view.
pub(crate) async fn seat_detail(
    state: &AppState,
    viewer: Option<&User>,
    view: &mut DetailView,
) -> Result<(), TournamentError> {
    for round in &mut view.rounds {
        seat_round(state, viewer, round).await?;
    }
    Ok(())
}

/// [`seat_round`] for a round's pairing list (the print's seat cards).
pub(crate) async fn seat_list(
    state: &AppState,
    viewer: Option<&User>,
    list: &mut PairingList,
) -> Result<(), TournamentError> {
    if !directs(viewer) {
        return Ok(());
    }
    for b in &mut list.boards {
        if b.result.is_none()
            && let Some(game) = b.display.as_deref().and_then(|d| d.strip_prefix("/table/"))
        {
            b.seats = seats_of(state, game).await?;
        }
    }
    Ok(())
}
