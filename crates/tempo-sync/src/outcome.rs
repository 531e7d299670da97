//! How a game ends: the result and the reason.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tempo_chess::{Outcome, Termination};

/// The result of a finished game: tempo-chess's [`Outcome`], so that a
/// host combining orthodox and simultaneous-move games has one result type.
pub type Result = Outcome;

/// Why a game ended. Each reason has one name ([`EndReason::name`]), in
/// a hosted game's log, the game state, the game list and the PGN
/// `Termination` tag (docs/server.md lists them). The rules of the
/// simultaneous variants end games by some of them ([`SyncGame::result`]);
/// tempo-host adds the others (resignation, flags, agreements, arbiters).
///
/// [`SyncGame::result`]: crate::SyncGame::result
///
/// ```
/// use tempo_sync::EndReason;
///
/// assert_eq!(EndReason::from(tempo_chess::Termination::FiftyMoves).name(), "fifty-moves");
/// assert_eq!("king-captured".parse::<EndReason>()?, EndReason::KingCaptured);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum EndReason {
    /// In check with no parrying move (orthodox chess; S3).
    Checkmate,
    /// Both players checkmated at the start of one pair: a draw (S3).
    DoubleCheckmate,
    /// No legal move and not in check: a draw.
    Stalemate,
    /// A king captured: its owner loses (S4).
    KingCaptured,
    /// Both kings captured in one step: a draw (S4).
    BothKingsCaptured,
    /// Neither side can mate with its material: a draw (orthodox dead
    /// position by material; C7).
    InsufficientMaterial,
    /// The same position for the third time: a draw (orthodox on a claim;
    /// simultaneous at the start of a pair, by itself, C7).
    Repetition,
    /// The same position for the fifth time (orthodox, by itself).
    FivefoldRepetition,
    /// 50 moves (pairs) each without capture or pawn move: a draw
    /// (orthodox on a claim; simultaneous by itself, C7).
    FiftyMoves,
    /// 75 moves each without capture or pawn move (orthodox, by itself).
    SeventyFiveMoves,
    /// A player resigned.
    Resign,
    /// A flag fell: a loss, or a draw if the opponent cannot mate.
    Timeout,
    /// A draw offer accepted.
    Agreement,
    /// Ended before the first step, without a result.
    Aborted,
    /// An arbiter declared the result.
    Arbiter,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 15] = [
        EndReason::Checkmate,
        EndReason::DoubleCheckmate,
        EndReason::Stalemate,
        EndReason::KingCaptured,
        EndReason::BothKingsCaptured,
        EndReason::InsufficientMaterial,
        EndReason::Repetition,
        EndReason::FivefoldRepetition,
        EndReason::FiftyMoves,
        EndReason::SeventyFiveMoves,
        EndReason::Resign,
        EndReason::Timeout,
        EndReason::Agreement,
        EndReason::Aborted,
        EndReason::Arbiter,
    ];

    /// The reason's one name: `checkmate`, `fifty-moves`, `resign`, …
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::DoubleCheckmate => "double-checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::KingCaptured => "king-captured",
            EndReason::BothKingsCaptured => "both-kings-captured",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::Repetition => "repetition",
            EndReason::FivefoldRepetition => "fivefold-repetition",
            EndReason::FiftyMoves => "fifty-moves",
            EndReason::SeventyFiveMoves => "seventy-five-moves",
            EndReason::Resign => "resign",
            EndReason::Timeout => "timeout",
            EndReason::Agreement => "agreement",
            EndReason::Aborted => "aborted",
            EndReason::Arbiter => "arbiter",
        }
    }
}

impl EndReason {
    /// Reads a name written by [`EndReason::name`].
    pub(crate) fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl From<Termination> for EndReason {
    fn from(termination: Termination) -> EndReason {
        match termination {
            Termination::Checkmate => EndReason::Checkmate,
            Termination::Stalemate => EndReason::Stalemate,
            Termination::InsufficientMaterial => EndReason::InsufficientMaterial,
            Termination::ThreefoldRepetition => EndReason::Repetition,
            Termination::FivefoldRepetition => EndReason::FivefoldRepetition,
            Termination::FiftyMoves => EndReason::FiftyMoves,
            Termination::SeventyFiveMoves => EndReason::SeventyFiveMoves,
        }
    }
}

impl From<EndReason> for &'static str {
    fn from(reason: EndReason) -> &'static str {
        reason.name()
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name no [`EndReason`] has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown end reason '{0}'")]
pub struct UnknownReason(pub String);

impl FromStr for EndReason {
    type Err = UnknownReason;

    /// Reads [`EndReason::name`].
    fn from_str(text: &str) -> std::result::Result<EndReason, UnknownReason> {
        EndReason::ALL
            .into_iter()
            .find(|reason| reason.name() == text)
            .ok_or_else(|| UnknownReason(text.to_string()))
    }
}

impl TryFrom<String> for EndReason {
    type Error = UnknownReason;

    fn try_from(text: String) -> std::result::Result<EndReason, UnknownReason> {
        text.parse()
    }
}
