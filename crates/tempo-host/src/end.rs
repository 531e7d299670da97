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
use tempo_chess::Outcome;

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

pub use tempo_sync::{EndReason, UnknownReason};

/// How releases before this type wrote the reason, where that
/// differs: the `Debug` name of a [`Termination`], lowercased.
const fn legacy_name(reason: EndReason) -> Option<&'static str> {
    match reason {
        EndReason::InsufficientMaterial => Some("insufficientmaterial"),
        EndReason::Repetition => Some("threefoldrepetition"),
        EndReason::FivefoldRepetition => Some("fivefoldrepetition"),
        EndReason::FiftyMoves => Some("fiftymoves"),
        EndReason::SeventyFiveMoves => Some("seventyfivemoves"),
        _ => None,
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
        let legacy = legacy_name(end.reason).filter(|_| end.legacy);
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
                .find(|r| legacy_name(*r) == Some(written.reason.as_str()))
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
    use tempo_chess::Termination;

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
    fn every_orthodox_end_has_a_reason() {
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
