//! How a game ends: [`EndResult`] (who won, or no result) and
//! [`EndReason`] (why), each with one stable name in logs and answers, and
//! [`End`], the `end` entry that carries them.
//!
//! Logs are append-only and hash-chained, so an entry is written back as
//! it was stored. Releases before these types wrote the orthodox rule ends
//! by `Debug` formatting (`insufficientmaterial`, `threefoldrepetition`,
//! …): such an entry still reads, as its reason, and keeps its spelling
//! for its own bytes ([`End::is_legacy`]); everything else, and every new
//! entry, uses [`EndReason::name`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tempo_chess::{Outcome, Termination};

/// The result an `end` entry states: decided (who won, tempo-chess's
/// [`Outcome`]) or no result (`*`: an aborted game, or an arbiter's
/// declaration that the game stands without one). Written as PGN writes
/// results: `1-0`, `0-1`, `1/2-1/2`, `*`.
///
/// ```
/// use tempo_chess::{Color, Outcome};
/// use tempo_host::EndResult;
///
/// let result: EndResult = "0-1".parse()?;
/// assert_eq!(result, EndResult::Decided(Outcome::Win(Color::Black)));
/// assert_eq!(EndResult::NoResult.to_string(), "*");
/// assert_eq!(serde_json::to_string(&result)?, r#""0-1""#);
/// assert!("2-0".parse::<EndResult>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum EndResult {
    /// A win or a draw.
    Decided(Outcome),
    /// `*`: no result.
    NoResult,
}

impl EndResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndResult::Decided(outcome) => outcome.pgn(),
            EndResult::NoResult => "*",
        }
    }
}

impl From<Outcome> for EndResult {
    fn from(outcome: Outcome) -> EndResult {
        EndResult::Decided(outcome)
    }
}

impl From<EndResult> for &'static str {
    fn from(result: EndResult) -> &'static str {
        result.as_str()
    }
}

impl fmt::Display for EndResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A result that is none of `1-0`, `0-1`, `1/2-1/2`, `*`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("result '{0}': 1-0, 0-1, 1/2-1/2 or *")]
pub struct UnknownResult(pub String);

impl FromStr for EndResult {
    type Err = UnknownResult;

    fn from_str(text: &str) -> Result<EndResult, UnknownResult> {
        match text {
            "*" => Ok(EndResult::NoResult),
            _ => Outcome::from_pgn(text)
                .map(EndResult::Decided)
                .ok_or_else(|| UnknownResult(text.to_string())),
        }
    }
}

impl TryFrom<String> for EndResult {
    type Error = UnknownResult;

    fn try_from(text: String) -> Result<EndResult, UnknownResult> {
        text.parse()
    }
}

/// Why a game ended. Each reason has one name ([`EndReason::name`]), in
/// the log, the game state, the game list and the PGN `Termination` tag;
/// docs/server.md lists them.
///
/// ```
/// use tempo_host::EndReason;
///
/// assert_eq!(EndReason::from(tempo_chess::Termination::FiftyMoves).name(), "fifty-moves");
/// assert_eq!(EndReason::from(tempo_sync::EndReason::FiftyMoves), EndReason::FiftyMoves);
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
    pub(crate) const ALL: [EndReason; 15] = [
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

    /// How releases before this type wrote the reason, where that
    /// differs: the `Debug` name of a [`Termination`], lowercased.
    const fn legacy_name(self) -> Option<&'static str> {
        match self {
            EndReason::InsufficientMaterial => Some("insufficientmaterial"),
            EndReason::Repetition => Some("threefoldrepetition"),
            EndReason::FivefoldRepetition => Some("fivefoldrepetition"),
            EndReason::FiftyMoves => Some("fiftymoves"),
            EndReason::SeventyFiveMoves => Some("seventyfivemoves"),
            _ => None,
        }
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

impl From<tempo_sync::EndReason> for EndReason {
    fn from(reason: tempo_sync::EndReason) -> EndReason {
        use tempo_sync::EndReason as Sync;
        match reason {
            Sync::Checkmate => EndReason::Checkmate,
            Sync::DoubleCheckmate => EndReason::DoubleCheckmate,
            Sync::Stalemate => EndReason::Stalemate,
            Sync::KingCaptured => EndReason::KingCaptured,
            Sync::BothKingsCaptured => EndReason::BothKingsCaptured,
            Sync::InsufficientMaterial => EndReason::InsufficientMaterial,
            Sync::Repetition => EndReason::Repetition,
            Sync::FiftyMoves => EndReason::FiftyMoves,
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
    fn from_str(text: &str) -> Result<EndReason, UnknownReason> {
        EndReason::ALL
            .into_iter()
            .find(|reason| reason.name() == text)
            .ok_or_else(|| UnknownReason(text.to_string()))
    }
}

impl TryFrom<String> for EndReason {
    type Error = UnknownReason;

    fn try_from(text: String) -> Result<EndReason, UnknownReason> {
        text.parse()
    }
}

/// The `end` entry of a log: the result and the reason.
///
/// ```
/// use tempo_chess::Outcome;
/// use tempo_host::{End, EndReason, EndResult};
///
/// let end = End::new(Outcome::Draw.into(), EndReason::InsufficientMaterial);
/// assert_eq!(
///     serde_json::to_string(&end)?,
///     r#"{"result":"1/2-1/2","reason":"insufficient-material"}"#
/// );
/// // As an earlier release wrote it: read as the same reason, written back as stored.
/// let old = r#"{"result":"1/2-1/2","reason":"insufficientmaterial"}"#;
/// let stored: End = serde_json::from_str(old)?;
/// assert_eq!((stored.result, stored.reason), (end.result, end.reason));
/// assert!(stored.is_legacy());
/// assert_eq!(serde_json::to_string(&stored)?, old);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Written", try_from = "Written")]
pub struct End {
    pub result: EndResult,
    pub reason: EndReason,
    /// Whether `reason` is spelled as an earlier release wrote it: kept
    /// for that entry's bytes (its hash covers them).
    legacy: bool,
}

impl End {
    /// An end with `result` and `reason`.
    pub fn new(result: EndResult, reason: EndReason) -> End {
        End {
            result,
            reason,
            legacy: false,
        }
    }

    /// Whether this entry spells its reason as a release before
    /// [`EndReason`] did.
    pub fn is_legacy(&self) -> bool {
        self.legacy
    }
}

/// An [`End`] as JSON writes it.
#[derive(Serialize, Deserialize)]
struct Written {
    result: EndResult,
    reason: String,
}

impl From<End> for Written {
    fn from(end: End) -> Written {
        let legacy = end.reason.legacy_name().filter(|_| end.legacy);
        Written {
            result: end.result,
            reason: legacy.unwrap_or(end.reason.name()).to_string(),
        }
    }
}

impl TryFrom<Written> for End {
    type Error = UnknownReason;

    fn try_from(written: Written) -> Result<End, UnknownReason> {
        let (reason, legacy) = match written.reason.parse::<EndReason>() {
            Ok(reason) => (reason, false),
            Err(unknown) => EndReason::ALL
                .into_iter()
                .find(|r| r.legacy_name() == Some(written.reason.as_str()))
                .map(|reason| (reason, true))
                .ok_or(unknown)?,
        };
        Ok(End {
            result: written.result,
            reason,
            legacy,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_is_one_reasons_and_reads_back() {
        let mut names: Vec<&str> = EndReason::ALL.iter().map(|r| r.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), EndReason::ALL.len());
        for reason in EndReason::ALL {
            assert_eq!(reason.name().parse(), Ok(reason));
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{}\"", reason.name()));
            assert_eq!(serde_json::from_str::<EndReason>(&json).unwrap(), reason);
        }
        assert!("insufficientmaterial".parse::<EndReason>().is_err());
    }

    #[test]
    fn results_read_back() {
        for text in ["1-0", "0-1", "1/2-1/2", "*"] {
            let result: EndResult = text.parse().unwrap();
            assert_eq!(result.to_string(), text);
            assert_eq!(
                serde_json::to_string(&result).unwrap(),
                format!("\"{text}\"")
            );
        }
        assert_eq!(
            "½-½".parse::<EndResult>().unwrap_err().to_string(),
            "result '½-½': 1-0, 0-1, 1/2-1/2 or *"
        );
    }

    #[test]
    fn every_old_spelling_reads_and_writes_back() {
        for (old, reason) in [
            ("insufficientmaterial", EndReason::InsufficientMaterial),
            ("threefoldrepetition", EndReason::Repetition),
            ("fivefoldrepetition", EndReason::FivefoldRepetition),
            ("fiftymoves", EndReason::FiftyMoves),
            ("seventyfivemoves", EndReason::SeventyFiveMoves),
        ] {
            let text = format!(r#"{{"result":"1/2-1/2","reason":"{old}"}}"#);
            let end: End = serde_json::from_str(&text).unwrap();
            assert_eq!(end.reason, reason);
            assert!(end.is_legacy());
            assert_eq!(serde_json::to_string(&end).unwrap(), text);
            let new = End::new(end.result, end.reason);
            assert!(!serde_json::to_string(&new).unwrap().contains(old));
        }
        let unknown = r#"{"result":"1-0","reason":"checkmated"}"#;
        assert!(serde_json::from_str::<End>(unknown).is_err());
    }

    #[test]
    fn every_rule_end_has_a_reason() {
        for reason in tempo_sync::EndReason::ALL {
            assert_eq!(EndReason::from(reason).name(), reason.name());
        }
        for (termination, name) in [
            (Termination::Checkmate, "checkmate"),
            (Termination::Stalemate, "stalemate"),
            (Termination::InsufficientMaterial, "insufficient-material"),
            (Termination::ThreefoldRepetition, "repetition"),
            (Termination::FivefoldRepetition, "fivefold-repetition"),
            (Termination::FiftyMoves, "fifty-moves"),
            (Termination::SeventyFiveMoves, "seventy-five-moves"),
        ] {
            assert_eq!(EndReason::from(termination).name(), name);
        }
    }
}
