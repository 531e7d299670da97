//! Results reported by a board's players (issue #26): a report is stored,
//! and when the opponent's report agrees the result enters the tournament
//! (logged as the players' report); every change tells the members'
//! streams, so that round pages refresh.

use crate::domain::tournaments::Record;
use crate::domain::tournaments::reports::{self as rules, Report};
use crate::domain::tournaments::view::{DetailView, RoundView, round};
use crate::service::AppState;
use crate::service::events::UserEvent;
use crate::service::lobby::tell_everyone;
use crate::storage::Store;

use super::{TournamentError, load, modify};

/// What a report did.
pub(crate) struct Reported {
    /// The tournament as it is after the report.
    pub record: Record,
    /// Whether the board's result entered (both players agree).
    pub entered: bool,
}

/// Stores the report of `result` on `board` of `round` by the account
/// `user`; enters the result when the opponent reported the same.
pub(crate) async fn report(
    state: &AppState,
    id: &str,
    round: u32,
    board: u32,
    user: &str,
    result: &str,
) -> Result<Reported, TournamentError> {
    let (record, _) = load(&state.store, id).await?;
    let (b, player) = rules::check(&record, round, board, user, result)?;
    let username = record
        .s
        .usernames
        .get(&player)
        .cloned()
        .unwrap_or_else(|| user.to_string());
    let now = state.clock.now();
    let mine = Report {
        round,
        board,
        player,
        username,
        result: result.to_string(),
        at: now,
    };
    state.store.put_report(id, &mine).await?;
    let reports = state.store.reports(id, round).await?;
    let mut out = Reported {
        record,
        entered: false,
    };
    if let Some(agreed) = rules::agreed(&b, &reports) {
        let names: Vec<&str> = [b.white, b.black]
            .iter()
            .filter_map(|p| reports.iter().find(|r| r.board == board && r.player == *p))
            .map(|r| r.username.as_str())
            .collect();
        let by = format!("reported by {}", names.join(" and "));
        // As a game's result: it never replaces one the director entered
        // meanwhile, and the log names the players.
        let (entered, record) = modify(&state.store, id, |r| {
            r.set_result(round, board, agreed, &by, now, true)
        })
        .await?;
        state.store.clear_reports(id, round, Some(board)).await?;
        out = Reported { record, entered };
    }
    tell_everyone(state, UserEvent::tournament_board(id, round, board)).await;
    Ok(out)
}

/// A board's result entered by the director settles it: its reports go,
/// and round pages are told.
pub(crate) async fn settled(
    state: &AppState,
    id: &str,
    round: u32,
    board: u32,
) -> Result<(), TournamentError> {
    state.store.clear_reports(id, round, Some(board)).await?;
    tell_everyone(state, UserEvent::tournament_board(id, round, board)).await;
    Ok(())
}

/// A round's pairing deleted: its reports go with it (they must not meet
/// the boards of the round paired again).
pub(crate) async fn unpaired(store: &Store, id: &str, round: u32) -> Result<(), TournamentError> {
    Ok(store.clear_reports(id, round, None).await?)
}

/// A round as shown, the current round's boards with their reports.
pub(crate) async fn round_view(
    store: &Store,
    id: &str,
    record: &Record,
    number: u32,
) -> Result<RoundView, TournamentError> {
    let mut view = round(record, number);
    if number == record.t.paired_rounds() {
        annotate(&mut view, &store.reports(id, number).await?);
    }
    Ok(view)
}

/// The current round of a tournament's view with its reports.
pub(crate) async fn annotate_detail(
    store: &Store,
    record: &Record,
    view: &mut DetailView,
) -> Result<(), TournamentError> {
    let current = record.t.paired_rounds();
    if let Some(last) = view.rounds.last_mut().filter(|r| r.round == current) {
        annotate(last, &store.reports(&view.id, current).await?);
    }
    Ok(())
}

/// Shows the reports on the boards of `view`, the current round's.
fn annotate(view: &mut RoundView, reports: &[Report]) {
    for b in &mut view.boards {
        let key = (b.board, b.white, b.black);
        b.report = Some(rules::board_report(key, b.result.as_deref(), reports));
    }
}
