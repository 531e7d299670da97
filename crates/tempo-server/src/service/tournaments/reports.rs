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

use super::{TRIES, TournamentError, load, modify, writing};

/// What a report did.
pub(crate) struct Reported {
    /// The tournament as it is after the report.
    pub record: Record,
    /// Whether the board's result entered (both players agree).
    pub entered: bool,
}

/// Stores the report of `result` on `board` of `round` by the account
/// `user`; enters the result when the opponent reported the same.
///
/// The report is stored only over the version of the tournament it was
/// checked against (else checked again from a fresh copy), so that it can
/// never outlive a pairing deleted meanwhile; and it carries the board's
/// players, so that only reports of the board as it is now agree.
pub(crate) async fn report(
    state: &AppState,
    id: &str,
    round: u32,
    board: u32,
    user: &str,
    result: &str,
) -> Result<Reported, TournamentError> {
    let now = state.clock.now();
    let mut stored = None;
    // This instance's changes wait meanwhile (they take the same lock),
    // so only another instance's change can make a try fail; the lock is
    // let go before the agreement's `modify` takes it again.
    let writing = writing().lock().await;
    for _ in 0..TRIES {
        let (record, version) = load(&state.store, id).await?;
        let (b, player) = rules::check(&record, round, board, user, result)?;
        let username = record
            .s
            .usernames
            .get(&player)
            .cloned()
            .unwrap_or_else(|| user.to_string());
        let mine = Report {
            round,
            board,
            player,
            white: b.white,
            black: b.black,
            username,
            result: result.to_string(),
            at: now,
        };
        if state.store.put_report(id, version, &mine).await? {
            stored = Some((record, b));
            break;
        }
    }
    drop(writing);
    let (record, b) = stored.ok_or(TournamentError::Busy)?;
    let reports = state.store.reports(id, round).await?;
    let mut out = Reported {
        record,
        entered: false,
    };
    if let Some((white, black)) = rules::agreement(&b, &reports) {
        let agreed = white.result.as_str();
        let by = format!("reported by {} and {}", white.username, black.username);
        let players = rules::key(&b);
        // As a game's result: it never replaces one the director entered
        // meanwhile, and the log names the players. The board must still
        // be the one reported on: if its pairing was deleted (and made
        // again) meanwhile, nothing enters.
        let (entered, record) = modify(&state.store, id, |r| {
            let still = r
                .boards(round)
                .and_then(|bs| bs.boards.into_iter().find(|x| x.board == board))
                .is_some_and(|x| rules::same_board(&x, players));
            if !still {
                return Ok(None);
            }
            r.set_result(round, board, agreed, &by, now, true).map(Some)
        })
        .await?;
        if let Some(entered) = entered {
            state.store.clear_reports(id, round, Some(board)).await?;
            out = Reported { record, entered };
        } else {
            out.record = record;
        }
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
/// the boards of the round paired again), and round pages are told (as
/// board 0: the whole round).
pub(crate) async fn unpaired(
    state: &AppState,
    id: &str,
    round: u32,
) -> Result<(), TournamentError> {
    state.store.clear_reports(id, round, None).await?;
    super::round_changed(state, id, round).await;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::tournaments::CreateRequest;
    use crate::domain::tournaments::reports::ReportState;

    /// A scratch store, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A Dutch tournament of anna and ben with round 1 paired: the state,
    /// its id and board 1 of round 1.
    async fn paired() -> (AppState, String, Scratch, (u32, u32)) {
        let dir = std::env::temp_dir().join(format!(
            "tempo-reports-test-{}-{:x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open_dir(&dir).await.unwrap();
        let state = AppState::new(store).await.unwrap();
        let req = CreateRequest {
            name: Some("Stale".into()),
            system: Some("dutch".into()),
            rounds: Some(3),
            ..CreateRequest::default()
        };
        let id = super::super::create(&state, &req).await.unwrap();
        modify(&state.store, &id, |r| {
            r.add_player("Anna", Some(2000), Some("anna"), None, false)?;
            r.add_player("Ben", Some(1900), Some("ben"), None, false)?;
            r.pair_next()
        })
        .await
        .unwrap();
        let (record, _) = load(&state.store, &id).await.unwrap();
        let board = &record.boards(1).unwrap().boards[0];
        (state, id, Scratch(dir), (board.white, board.black))
    }

    /// The account of starting rank `p` (Anna registered first).
    fn name(p: u32) -> &'static str {
        if p == 1 { "anna" } else { "ben" }
    }

    /// Changes of this instance that keep saving the tournament (a burst
    /// of results at a round's end) never make a report give up: it is
    /// checked and stored while they wait.
    #[tokio::test]
    async fn a_burst_of_changes_does_not_refuse_a_report() {
        let (state, id, _dir, b) = paired().await;
        let bumps = (0..40).map(|_| {
            let (state, id) = (state.clone(), id.clone());
            tokio::spawn(async move { modify(&state.store, &id, |_| Ok(())).await.map(|_| ()) })
        });
        let reports = [b.0, b.1].map(|p| {
            let (state, id) = (state.clone(), id.clone());
            tokio::spawn(async move { report(&state, &id, 1, 1, name(p), "1-0").await })
        });
        for bump in bumps {
            bump.await.unwrap().unwrap();
        }
        let mut entered = 0;
        for r in reports {
            let done = r
                .await
                .unwrap()
                .expect("a report is never busy on one instance");
            entered += usize::from(done.entered);
        }
        assert_eq!(entered, 1, "the agreed result enters once");
    }

    /// A report checked before the round was unpaired and paired again
    /// (the same board, the same players) is not stored: the opponent's
    /// single report after the new pairing does not enter a result.
    #[tokio::test]
    async fn a_report_checked_before_a_new_pairing_is_not_stored() {
        let (state, id, _dir, b) = paired().await;
        let (_, checked_at) = load(&state.store, &id).await.unwrap();
        let stale = Report {
            round: 1,
            board: 1,
            player: b.0,
            white: b.0,
            black: b.1,
            username: name(b.0).into(),
            result: "1-0".into(),
            at: 0,
        };
        // Meanwhile the director unpairs and pairs again.
        modify(&state.store, &id, |r| r.unpair(1)).await.unwrap();
        unpaired(&state, &id, 1).await.unwrap();
        modify(&state.store, &id, |r| r.pair_next()).await.unwrap();
        let (record, _) = load(&state.store, &id).await.unwrap();
        let again = record.boards(1).unwrap().boards[0].clone();
        assert_eq!((again.white, again.black), (b.0, b.1));
        // The report checked against the old pairing comes too late.
        assert!(
            !state
                .store
                .put_report(&id, checked_at, &stale)
                .await
                .unwrap()
        );
        assert!(state.store.reports(&id, 1).await.unwrap().is_empty());
        let done = report(&state, &id, 1, 1, name(b.1), "1-0").await.unwrap();
        assert!(!done.entered);
        let (record, _) = load(&state.store, &id).await.unwrap();
        assert_eq!(record.result(1, &again), None);
    }

    /// A report left over from another pairing of the board (other
    /// colours) never agrees with a report of the board as it is now.
    #[tokio::test]
    async fn a_report_of_another_pairing_of_the_board_does_not_agree() {
        let (state, id, _dir, b) = paired().await;
        let (_, version) = load(&state.store, &id).await.unwrap();
        let orphan = Report {
            round: 1,
            board: 1,
            player: b.0,
            white: b.1,
            black: b.0,
            username: name(b.0).into(),
            result: "0-1".into(),
            at: 0,
        };
        assert!(state.store.put_report(&id, version, &orphan).await.unwrap());
        let done = report(&state, &id, 1, 1, name(b.1), "0-1").await.unwrap();
        assert!(!done.entered);
        let view = round_view(&state.store, &id, &done.record, 1)
            .await
            .unwrap();
        let shown = view.boards[0].report.as_ref().unwrap();
        assert_eq!(shown.state, ReportState::Reported);
        assert_eq!(shown.white, None);
        assert_eq!(shown.black.as_deref(), Some("0-1"));
        // White's report of the board as it is now agrees.
        let done = report(&state, &id, 1, 1, name(b.0), "0-1").await.unwrap();
        assert!(done.entered);
    }
}
