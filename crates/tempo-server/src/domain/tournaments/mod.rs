//! Club tournaments: Dutch Swiss, Keizer and round robin, run by a
//! director (issue #17).
//!
//! A tournament is kept as its TRF text (the tournament itself: players,
//! rounds, results, absences, withdrawals, late entries, Keizer settings,
//! Chess960 positions, tie-breaks) and a small JSON of what TRF cannot say
//! (the system, the games' variant and clock, usernames, board order,
//! online games, the log of corrections). Everything else is recomputed by
//! [`tempo_tourney`] on each request, with the functions `tempo pair` and
//! `tempo standings` use, so that the export pairs and scores the same
//! there.

mod away;
mod create;
mod model;
mod pairing;
pub(crate) mod print;
mod rating_facts;
mod ratings;
pub(crate) mod reports;
#[cfg(test)]
mod tests;
pub(crate) mod view;

pub(crate) use create::CreateRequest;
pub(crate) use model::{Board, LogEntry, Record, RoundMode, System};
pub(crate) use rating_facts::RatingFacts;
pub(crate) use ratings::year_at;
pub(crate) use reports::{Report, ReportRefusal};
pub(crate) use tempo_tourney::director::Attendance;

/// Players in one tournament at most.
pub(crate) const MAX_PLAYERS: usize = 1000;
/// Rounds in one tournament at most.
pub(crate) const MAX_ROUNDS: u32 = 99;
/// Tournaments on one server at most.
pub(crate) const MAX_TOURNAMENTS: i64 = 10_000;
/// Entries of a tournament's log at most (the oldest go first).
pub(crate) const MAX_LOG: usize = 10_000;
/// Characters of a tournament's name at most.
pub(crate) const MAX_NAME: usize = 100;
/// Characters of a player's name at most (TRF columns 15-47).
pub(crate) const MAX_PLAYER_NAME: usize = 33;
/// Characters of a club's name at most.
pub(crate) const MAX_CLUB: usize = 40;

/// Why a tournament refuses a change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The request is malformed or names impossible values.
    #[error("{0}")]
    Invalid(String),
    /// The request does not fit the tournament's state.
    #[error("{0}")]
    Conflict(String),
    /// Something named does not exist.
    #[error("{0} not found")]
    NotFound(String),
    /// The director may not make this change (a result on their own board).
    #[error("{0}")]
    Forbidden(String),
}

/// The attendance statuses `system` accepts, in the order a page lists
/// them (Keizer has no requested byes).
pub(crate) fn attendance_statuses(system: System) -> Vec<&'static str> {
    Attendance::ALL
        .into_iter()
        .filter(|a| a.is_known_to(system))
        .map(Attendance::as_str)
        .collect()
}

/// A director's attendance status, as the API takes it.
pub(crate) fn parse_attendance(text: &str) -> Result<Attendance, Refusal> {
    text.parse()
        .map_err(|e: tempo_tourney::director::UnknownAttendance| invalid(e.to_string()))
}

fn invalid(message: impl Into<String>) -> Refusal {
    Refusal::Invalid(message.into())
}

fn conflict(message: impl Into<String>) -> Refusal {
    Refusal::Conflict(message.into())
}
