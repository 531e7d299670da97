//! Who has no board in a paired round, and why: the pairing's bye, byes
//! asked for, absences. The round view lists them beside the boards (a
//! requested half-point bye was shown only in the check-in), the pairing
//! list below them. Pure.

use serde::Serialize;
use tempo_tourney::PlayerId;
use utoipa::ToSchema;

use super::Record;

/// A player of a round without a board, as the round view lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub(crate) struct RoundAway {
    pub player: PlayerId,
    pub name: String,
    /// `pairing-bye`, `half-point-bye`, `full-point-bye`, `excused`,
    /// `unexcused`, `club-duty`, or `absent` (nothing recorded).
    pub status: String,
}

/// The players of a paired round who have no board, with why: the
/// pairing's bye, byes asked for, absences (so that a requested half-point
/// bye shows beside the boards, not only in the check-in).
pub(crate) fn away(record: &Record, round: u32) -> Vec<RoundAway> {
    away_ids(record, round)
        .into_iter()
        .map(|(id, status)| RoundAway {
            player: id,
            name: record
                .t
                .player(id)
                .map_or_else(|| format!("#{id}"), |p| p.name.clone()),
            status,
        })
        .collect()
}

/// The unseated players of a round and their status, by starting number.
fn away_ids(record: &Record, round: u32) -> Vec<(PlayerId, String)> {
    let t = &record.t;
    let Some(boards) = record.boards(round) else {
        return Vec::new();
    };
    let seated = |id| boards.boards.iter().any(|b| b.white == id || b.black == id);
    t.players
        .iter()
        .filter(|p| !seated(p.id))
        // A withdrawn or not yet entered player is not away, just not in.
        .filter(|p| boards.bye == Some(p.id) || record.t.is_active_in(p.id, round))
        .map(|p| {
            let status = if boards.bye == Some(p.id) {
                "pairing-bye".to_string()
            } else {
                record
                    .status(p.id, round)
                    .map_or_else(|| "absent".to_string(), |s| s.as_str().to_string())
            };
            (p.id, status)
        })
        .collect()
}
