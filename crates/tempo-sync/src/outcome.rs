//! How a game ends: the result and the reason.

use std::fmt;

use serde::Serialize;
use tempo_chess::Outcome;

/// The result of a finished game: tempo-chess's [`Outcome`], so that a
/// host combining orthodox and simultaneous-move games has one result type.
pub type Result = Outcome;

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// S3 / orthodox: in check with no parrying move.
    Checkmate,
    /// S3: both players checkmated at the start of the same pair (draw).
    DoubleCheckmate,
    /// No legal move and not in check (draw).
    Stalemate,
    /// S4 (our decision): the king was captured; its owner loses.
    KingCaptured,
    /// S4 (our decision): both kings captured in the same step (draw).
    BothKingsCaptured,
    /// Dead position by material (C7).
    InsufficientMaterial,
    /// The same position (with its phase, paused pieces and en-passant
    /// rights) at the start of a pair for the third time (C7).
    Repetition,
    /// 50 pairs (100 half-moves) without capture or pawn move (C7).
    FiftyMoves,
}

impl EndReason {
    /// The reason's name as in JSON (`checkmate`, `fifty-moves`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::DoubleCheckmate => "double-checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::KingCaptured => "king-captured",
            EndReason::BothKingsCaptured => "both-kings-captured",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::Repetition => "repetition",
            EndReason::FiftyMoves => "fifty-moves",
        }
    }

    /// Reads a name written by [`EndReason::name`].
    pub(crate) fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }

    pub const ALL: [EndReason; 8] = [
        EndReason::Checkmate,
        EndReason::DoubleCheckmate,
        EndReason::Stalemate,
        EndReason::KingCaptured,
        EndReason::BothKingsCaptured,
        EndReason::InsufficientMaterial,
        EndReason::Repetition,
        EndReason::FiftyMoves,
    ];
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
