//! Results reported by the players of a board from their phones (issue
//! #26): who may report, which reports a board takes, and the state the
//! round page shows. Pure: the reports themselves are stored beside the
//! tournament (storage/reports.rs), not in its TRF.
//!
//! The rules:
//! - only the board's two players report, linked to their accounts by the
//!   username given at registration; a director who is no player of the
//!   board enters the result through the result route instead;
//! - only the current round (the last paired one), only boards without a
//!   result and not played on the server (an online game gives its own);
//! - only `1-0`, `0-1` and `1/2-1/2`: a forfeit is the director's to
//!   enter;
//! - each player keeps one report a board, which they may change while the
//!   board has no result; the result enters when both reports agree (or
//!   the director enters one), and the board's reports go then.

use serde::Serialize;
use tempo_tourney::PlayerId;
use utoipa::ToSchema;

use super::model::{Board, Record};

/// The results a player may report, exactly as the API takes them.
pub(crate) const REPORTABLE: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];

/// One player's report of their board's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub round: u32,
    pub board: u32,
    /// The reporting player's starting rank.
    pub player: PlayerId,
    /// The board's White and Black when the report was made: a report
    /// counts only while the board still has these players, so that one
    /// left over from a pairing deleted and made again never meets the
    /// new board's reports.
    pub white: PlayerId,
    pub black: PlayerId,
    /// The account that reported, as registered.
    pub username: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Milliseconds since the epoch.
    pub at: u64,
}

/// Why a report is refused; each has its own code in the API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportRefusal {
    /// The caller plays on no side of the board.
    #[error("only the two players of board {board} report its result")]
    NotYourBoard { board: u32 },
    /// The round is not the last paired one.
    #[error("round {round}: results are reported for the current round only ({current})")]
    RoundNotCurrent { round: u32, current: u32 },
    /// The round has no such board.
    #[error("board {board} of round {round} not found")]
    BoardNotFound { round: u32, board: u32 },
    /// The board has its result already.
    #[error("board {board} has its result already ({result}): the director corrects it")]
    BoardHasResult { board: u32, result: String },
    /// The board is played on the server: its game gives the result.
    #[error("board {board} is played on the server: its game gives the result")]
    OnlineBoard { board: u32 },
    /// A forfeit is the director's to enter.
    #[error("result '{0}': a forfeit is entered by the director")]
    Forfeit(String),
    /// Not one of the results a player reports.
    #[error("result '{0}': 1-0, 0-1 or 1/2-1/2")]
    BadResult(String),
}

/// Checks a report of `result` by account `user` on `board` of `round`:
/// the board and the reporting player's starting rank.
pub(crate) fn check(
    record: &Record,
    round: u32,
    board: u32,
    user: &str,
    result: &str,
) -> Result<(Board, PlayerId), ReportRefusal> {
    if !REPORTABLE.contains(&result) {
        let shown: String = result.chars().take(12).collect();
        return Err(
            if matches!(result, "+-" | "-+" | "--" | "+-+" | "=-" | "-=") {
                ReportRefusal::Forfeit(shown)
            } else {
                ReportRefusal::BadResult(shown)
            },
        );
    }
    let current = record.t.paired_rounds();
    if round != current || current == 0 {
        return Err(ReportRefusal::RoundNotCurrent { round, current });
    }
    let boards = record
        .boards(round)
        .ok_or(ReportRefusal::RoundNotCurrent { round, current })?;
    let b = boards
        .boards
        .into_iter()
        .find(|b| b.board == board)
        .ok_or(ReportRefusal::BoardNotFound { round, board })?;
    let player = [b.white, b.black]
        .into_iter()
        .find(|&p| {
            record
                .s
                .usernames
                .get(&p)
                .is_some_and(|name| name.eq_ignore_ascii_case(user))
        })
        .ok_or(ReportRefusal::NotYourBoard { board })?;
    if let Some(result) = record.result(round, &b) {
        return Err(ReportRefusal::BoardHasResult { board, result });
    }
    if b.game_id.is_some() {
        return Err(ReportRefusal::OnlineBoard { board });
    }
    Ok((b, player))
}

/// Whether `report` was made on board `board` with these players.
pub(crate) fn of_board(report: &Report, (board, white, black): (u32, PlayerId, PlayerId)) -> bool {
    report.board == board && report.white == white && report.black == black
}

/// A board's number, White and Black: what a report is made on.
pub(crate) fn key(board: &Board) -> (u32, PlayerId, PlayerId) {
    (board.board, board.white, board.black)
}

/// Whether `board` is still the board with `players` (number, White and
/// Black), the board the reports were made on.
pub(crate) fn same_board(board: &Board, players: (u32, PlayerId, PlayerId)) -> bool {
    key(board) == players
}

/// `player`'s report on the board `key`, if they made one.
fn report_of(
    reports: &[Report],
    key: (u32, PlayerId, PlayerId),
    player: PlayerId,
) -> Option<&Report> {
    reports
        .iter()
        .find(|r| of_board(r, key) && r.player == player)
}

/// White's and Black's reports of `board` if they agree; only reports
/// made on the board with its present players count.
pub(crate) fn agreement<'a>(
    board: &Board,
    reports: &'a [Report],
) -> Option<(&'a Report, &'a Report)> {
    let key = key(board);
    match (
        report_of(reports, key, board.white),
        report_of(reports, key, board.black),
    ) {
        (Some(w), Some(b)) if w.result == b.result => Some((w, b)),
        _ => None,
    }
}

/// A board's state on the round page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) enum ReportState {
    /// No result and no report yet.
    Open,
    /// One player reported; the other's report (or the director) is due.
    Reported,
    /// The two players reported different results: the director decides.
    Disputed,
    /// The result is entered.
    Confirmed,
}

/// The reports of one board as the round page shows them.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BoardReport {
    pub state: ReportState,
    /// What White reported, while the board waits for its result.
    pub white: Option<String>,
    /// What Black reported.
    pub black: Option<String>,
}

/// The state of a board (its number, White and Black) with `result` (if
/// entered) and the round's reports (those made on another pairing of
/// the board do not count).
pub(crate) fn board_report(
    key: (u32, PlayerId, PlayerId),
    result: Option<&str>,
    reports: &[Report],
) -> BoardReport {
    let (_, white, black) = key;
    let of = |p| report_of(reports, key, p).map(|r| r.result.clone());
    if result.is_some() {
        return BoardReport {
            state: ReportState::Confirmed,
            white: None,
            black: None,
        };
    }
    let (white, black) = (of(white), of(black));
    let state = match (&white, &black) {
        (Some(w), Some(b)) if w != b => ReportState::Disputed,
        (None, None) => ReportState::Open,
        // Both alike without a result: entering it failed or is under way.
        _ => ReportState::Reported,
    };
    BoardReport {
        state,
        white,
        black,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result both players of `board` reported alike, if they did.
    fn agreed<'a>(board: &Board, reports: &'a [Report]) -> Option<&'a str> {
        agreement(board, reports).map(|(w, _)| w.result.as_str())
    }

    fn report(board: u32, player: PlayerId, result: &str) -> Report {
        Report {
            round: 1,
            board,
            player,
            white: 3,
            black: 4,
            username: format!("p{player}"),
            result: result.into(),
            at: 0,
        }
    }

    fn board() -> Board {
        Board {
            board: 2,
            white: 3,
            black: 4,
            game_id: None,
        }
    }

    #[test]
    fn states_follow_the_reports() {
        let b = board();
        let key = (b.board, b.white, b.black);
        assert_eq!(board_report(key, None, &[]).state, ReportState::Open);
        let one = [report(2, 3, "1-0"), report(1, 4, "0-1")];
        let r = board_report(key, None, &one);
        assert_eq!(r.state, ReportState::Reported);
        assert_eq!((r.white.as_deref(), r.black), (Some("1-0"), None));
        let two = [report(2, 3, "1-0"), report(2, 4, "1/2-1/2")];
        assert_eq!(board_report(key, None, &two).state, ReportState::Disputed);
        assert_eq!(agreed(&b, &two), None);
        let same = [report(2, 4, "1-0"), report(2, 3, "1-0")];
        assert_eq!(agreed(&b, &same), Some("1-0"));
        let done = board_report(key, Some("1-0"), &two);
        assert_eq!(done.state, ReportState::Confirmed);
        assert_eq!(done.white, None);
    }

    #[test]
    fn reports_of_another_pairing_of_the_board_do_not_count() {
        let b = board();
        let key = (b.board, b.white, b.black);
        // Black's report was made when board 2 had White 5 (a pairing
        // deleted since): it must not agree with White's.
        let mut stale = report(2, 4, "1-0");
        stale.white = 5;
        let reports = [report(2, 3, "1-0"), stale];
        assert_eq!(agreed(&b, &reports), None);
        let shown = board_report(key, None, &reports);
        assert_eq!(shown.state, ReportState::Reported);
        assert_eq!(shown.black, None);
        assert!(same_board(&b, key));
        assert!(!same_board(&b, (2, 5, 4)));
    }
}
