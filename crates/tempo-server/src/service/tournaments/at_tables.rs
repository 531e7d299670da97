//! Boards at tables (issue #29): a round paired `at tables` gets a table
//! game ([`crate::service::tables`]) for every board, members and guests
//! alike, linked to its board so that its result enters by itself; the
//! tournament's directors are shown each open board's two seat links.

use crate::domain::accounts::User;
use crate::domain::tournaments::print::PairingList;
use crate::domain::tournaments::view::{DetailView, RoundView, SeatLinks};
use crate::domain::tournaments::{Board, Record};
use crate::service::AppState;
use crate::service::tables::{self, Seating};
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
    let white = seating(state, record, board.white).await?;
    let black = seating(state, record, board.black).await?;
    let table =
        tables::create_seated(state, director, spec.clone(), [white, black], Some(link)).await?;
    Ok(Some(table.game_id))
}

/// How a player sits: as their account (the tournament's username link,
/// if the account still exists), else as a guest by their tournament name
/// — a guest even if a member has that name as username.
async fn seating(
    state: &AppState,
    record: &Record,
    player: PlayerId,
) -> Result<Seating, TournamentError> {
    if let Some(username) = record.s.usernames.get(&player)
        && let Some((user, _)) = state.store.user(username).await?
    {
        return Ok(Seating::Member(user.name));
    }
    Ok(Seating::Guest(record.player(player)?.name.clone()))
}

/// `viewer` if they direct tournaments (the arbiter or admin role, as
/// every change of a tournament needs): only they see seat links.
fn directs(viewer: Option<&User>) -> Option<&User> {
    viewer.filter(|user| user.role.is_arbiter())
}

/// A table game's seat links, if `game` is a table game and `viewer` does
/// not play in it (the other seat's link would show them their opponent's
/// sealed choice).
async fn seats_of(
    state: &AppState,
    viewer: &User,
    game: &str,
) -> Result<Option<SeatLinks>, TournamentError> {
    let Some(table) = tables::table(state, game).await? else {
        return Ok(None);
    };
    if table.finished || table.seated(&viewer.name) {
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
    let Some(viewer) = directs(viewer) else {
        return Ok(());
    };
    for b in &mut view.boards {
        if b.result.is_none()
            && b.display.is_some()
            && let Some(game) = &b.game_id
        {
            b.seats = seats_of(state, viewer, game).await?;
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
    let Some(viewer) = directs(viewer) else {
        return Ok(());
    };
    for b in &mut list.boards {
        if b.result.is_none()
            && let Some(game) = b.display.as_deref().and_then(|d| d.strip_prefix("/table/"))
        {
            b.seats = seats_of(state, viewer, game).await?;
        }
    }
    Ok(())
}
