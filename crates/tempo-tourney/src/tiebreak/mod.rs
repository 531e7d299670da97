//! FIDE tie-breaks (Handbook C.07, the 2023 regulations in force for all
//! FIDE-rated events since 1 April 2024), with the 2023 rules for unplayed
//! rounds and, as an option, the older virtual-opponent rule (2009/2012).
//!
//! Names follow C.07's acronyms: `BH` Buchholz, `SB` Sonneborn-Berger, `DE`
//! direct encounter, `WIN` wins, `WON` games won over the board, `BPG`
//! games with Black, `BWG` wins with Black, `GE` games elected to play (C.07
//! `REP`), `ARO` average rating of opponents, `TPR` tournament performance
//! rating, `PS` progressive score, `KS` Koya. Modifiers follow a `-` or `/`:
//! `C1` (cut the least significant value), `M1` (median: cut the least and
//! the most significant), `P` (forfeits count as games against the
//! scheduled opponent), so `BH-C1`, `BH-M2`, `SB-C1`, `ARO-C1`, `PS-C1`.
//!
//! The unplayed-rounds rules (C.07 article 16, as computed by FIDE TEC's
//! reference tie-break server):
//! - a *voluntarily unplayed round* (VUR) is an unplayed round the player did
//!   not win: half-point and zero-point byes, absences, forfeit losses;
//! - for the opponents' Buchholz a player's score is *adjusted*: the VURs
//!   after the last round that was not a VUR (a withdrawal) count as draws;
//!   all other rounds count as scored;
//! - a player's own unplayed round counts, for BH and SB, as a game against a
//!   dummy opponent whose score is the player's own score;
//! - low cuts (Cut-1, Median) cut VURs first.

mod compute;
mod rating;

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

pub use compute::{Calculator, Options, UnplayedRule};

use crate::model::Tournament;
use crate::system::System;
pub use rating::{average_rating, performance_rating, score_to_dp};

/// How many values a cut removes at the bottom (`low`) and top (`high`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cut {
    pub low: u32,
    pub high: u32,
}

/// A tie-break criterion with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// `BH`: sum of the opponents' (adjusted) scores.
    Buchholz { cut: Cut, forfeits_played: bool },
    /// `SB`: sum of the opponents' scores times the points scored against them.
    SonnebornBerger { cut: Cut, forfeits_played: bool },
    /// `DE`: the result among the tied players.
    DirectEncounter { forfeits_played: bool },
    /// `WIN`: rounds won, played or not (forfeit wins, full-point and
    /// pairing-allocated byes included).
    Wins,
    /// `WON`: games won over the board.
    GamesWon,
    /// `BPG`: games played with Black.
    BlackGames,
    /// `BWG`: games won with Black.
    BlackWins,
    /// `GE` (C.07 `REP`): games played plus rounds won without playing.
    GamesElected,
    /// `ARO`: average rating of the opponents in played games.
    AverageRating { cut: Cut },
    /// `TPR`: tournament performance rating.
    PerformanceRating,
    /// `PS`: sum of the running scores after each round (`cut.low` drops
    /// the first rounds).
    ProgressiveScore { cut: Cut },
    /// `KS`: points scored against opponents with at least half the maximum.
    Koya,
}

impl TieBreak {
    /// Higher is better for every criterion except direct encounter, which
    /// gives places (1 first; 0 when it separates nobody).
    pub(crate) fn higher_is_better(&self) -> bool {
        !matches!(self, TieBreak::DirectEncounter { .. })
    }

    /// Whether values are whole numbers (counts, ratings, places).
    pub fn is_integer(&self) -> bool {
        matches!(
            self,
            TieBreak::DirectEncounter { .. }
                | TieBreak::Wins
                | TieBreak::GamesWon
                | TieBreak::BlackGames
                | TieBreak::BlackWins
                | TieBreak::GamesElected
                | TieBreak::AverageRating { .. }
                | TieBreak::PerformanceRating
        )
    }

    /// tempo's default for individual Swiss tournaments: Buchholz Cut-1 and
    /// Buchholz first, as FIDE has long recommended, then SB, DE, WIN, BWG.
    pub fn swiss_default() -> Vec<TieBreak> {
        ["BH-C1", "BH", "SB", "DE", "WIN", "BWG"]
            .iter()
            .map(|s| s.parse().expect("valid"))
            .collect()
    }

    /// tempo's default for round robins: direct encounter, wins,
    /// Sonneborn-Berger, Koya (FIDE's long-standing round-robin order).
    pub fn round_robin_default() -> Vec<TieBreak> {
        ["DE", "WIN", "SB", "KS"]
            .iter()
            .map(|s| s.parse().expect("valid"))
            .collect()
    }
}

/// Why a text is not a tie-break.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseTieBreakError {
    #[error("unknown tie-break '{0}' (known: BH SB DE WIN WON BPG BWG GE ARO TPR PS KS)")]
    Unknown(String),
    #[error("modifier '{modifier}' does not apply to {name}")]
    BadModifier { name: String, modifier: String },
}

impl FromStr for TieBreak {
    type Err = ParseTieBreakError;

    fn from_str(text: &str) -> Result<TieBreak, ParseTieBreakError> {
        let upper = text.trim().to_ascii_uppercase();
        let mut parts = upper.split(['-', '/']);
        let name = parts.next().unwrap_or_default().to_string();
        let mut cut = Cut::default();
        let mut forfeits_played = false;
        let mut modifiers = Vec::new();
        for m in parts {
            let bad = || ParseTieBreakError::BadModifier {
                name: name.clone(),
                modifier: m.to_string(),
            };
            let number = |s: &str| s.parse::<u32>().map_err(|_| bad());
            if let Some(n) = m.strip_prefix('C') {
                cut.low += number(n)?;
            } else if let Some(n) = m.strip_prefix('M') {
                let n = number(n)?;
                cut.low += n;
                cut.high += n;
            } else if m == "P" {
                forfeits_played = true;
            } else {
                return Err(bad());
            }
            modifiers.push(m.to_string());
        }
        let reject = |allowed: &[char]| -> Result<(), ParseTieBreakError> {
            match modifiers
                .iter()
                .find(|m| !allowed.contains(&m.chars().next().unwrap_or(' ')))
            {
                Some(m) => Err(ParseTieBreakError::BadModifier {
                    name: name.clone(),
                    modifier: m.clone(),
                }),
                None => Ok(()),
            }
        };
        let tb = match name.as_str() {
            "BH" => TieBreak::Buchholz {
                cut,
                forfeits_played,
            },
            "SB" => TieBreak::SonnebornBerger {
                cut,
                forfeits_played,
            },
            "DE" => {
                reject(&['P'])?;
                TieBreak::DirectEncounter { forfeits_played }
            }
            "ARO" => {
                reject(&['C', 'M'])?;
                TieBreak::AverageRating { cut }
            }
            "PS" => {
                reject(&['C'])?;
                TieBreak::ProgressiveScore { cut }
            }
            simple => {
                reject(&[])?;
                match simple {
                    "WIN" => TieBreak::Wins,
                    "WON" => TieBreak::GamesWon,
                    "BPG" => TieBreak::BlackGames,
                    "BWG" => TieBreak::BlackWins,
                    "GE" | "REP" => TieBreak::GamesElected,
                    "TPR" => TieBreak::PerformanceRating,
                    "KS" => TieBreak::Koya,
                    _ => return Err(ParseTieBreakError::Unknown(text.trim().to_string())),
                }
            }
        };
        Ok(tb)
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, cut, p) = match *self {
            TieBreak::Buchholz {
                cut,
                forfeits_played,
            } => ("BH", cut, forfeits_played),
            TieBreak::SonnebornBerger {
                cut,
                forfeits_played,
            } => ("SB", cut, forfeits_played),
            TieBreak::DirectEncounter { forfeits_played } => {
                ("DE", Cut::default(), forfeits_played)
            }
            TieBreak::Wins => ("WIN", Cut::default(), false),
            TieBreak::GamesWon => ("WON", Cut::default(), false),
            TieBreak::BlackGames => ("BPG", Cut::default(), false),
            TieBreak::BlackWins => ("BWG", Cut::default(), false),
            TieBreak::GamesElected => ("GE", Cut::default(), false),
            TieBreak::AverageRating { cut } => ("ARO", cut, false),
            TieBreak::PerformanceRating => ("TPR", Cut::default(), false),
            TieBreak::ProgressiveScore { cut } => ("PS", cut, false),
            TieBreak::Koya => ("KS", Cut::default(), false),
        };
        f.write_str(name)?;
        if cut.high > 0 && cut.high == cut.low {
            write!(f, "-M{}", cut.high)?;
        } else {
            if cut.low > 0 {
                write!(f, "-C{}", cut.low)?;
            }
            if cut.high > 0 {
                write!(f, "-H{}", cut.high)?;
            }
        }
        if p {
            f.write_str("-P")?;
        }
        Ok(())
    }
}

/// Parses a comma-separated list such as `BH-C1,BH,SB,DE,WIN`.
pub fn parse_list(text: &str) -> Result<Vec<TieBreak>, ParseTieBreakError> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect()
}

/// A tie-break line of a tournament file that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the {tag} line '{text}'")]
pub struct DeclaredTieBreakError {
    /// The line's tag: `202` (the tie-breaks) or `212` (the standings'
    /// criteria).
    pub tag: &'static str,
    /// The line's text.
    pub text: String,
    #[source]
    pub error: ParseTieBreakError,
}

/// The tie-breaks a tournament is ranked by: its `202` line, else its
/// `212` line without the score (`PTS`), else the system's default
/// ([`TieBreak::swiss_default`], [`TieBreak::round_robin_default`]); none
/// for Keizer, which ranks by its own score.
///
/// ```
/// use tempo_tourney::tiebreak::{TieBreak, for_tournament};
/// use tempo_tourney::{InfoLine, System, Tournament};
/// let mut t = Tournament::new();
/// assert_eq!(for_tournament(&t, System::Dutch), Ok(TieBreak::swiss_default()));
/// t.info.push(InfoLine { tag: "212".into(), text: "PTS, SB, DE".into() });
/// let list = for_tournament(&t, System::Dutch).unwrap();
/// assert_eq!(list.iter().map(ToString::to_string).collect::<Vec<_>>(), ["SB", "DE"]);
/// assert_eq!(for_tournament(&t, System::Keizer), Ok(Vec::new()));
/// ```
pub fn for_tournament(
    t: &Tournament,
    system: System,
) -> Result<Vec<TieBreak>, DeclaredTieBreakError> {
    if system == System::Keizer {
        return Ok(Vec::new());
    }
    let declared = |tag| t.info_text(tag).filter(|text| !text.is_empty());
    let read = |tag: &'static str, text: &str, list: &str| {
        parse_list(list).map_err(|error| DeclaredTieBreakError {
            tag,
            text: text.to_string(),
            error,
        })
    };
    if let Some(text) = declared("202") {
        return read("202", text, text);
    }
    if let Some(text) = declared("212") {
        let without_score: Vec<&str> = text
            .split(',')
            .map(str::trim)
            .filter(|c| !c.eq_ignore_ascii_case("PTS"))
            .collect();
        return read("212", text, &without_score.join(","));
    }
    Ok(match system {
        System::RoundRobin => TieBreak::round_robin_default(),
        _ => TieBreak::swiss_default(),
    })
}

/// A tie-break value, exact in hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Value(i64);

impl Value {
    /// From hundredths.
    pub(crate) const fn from_hundredths(h: i64) -> Value {
        Value(h)
    }

    /// From a whole number.
    pub const fn from_int(i: i64) -> Value {
        Value(i * 100)
    }

    /// The number of hundredths.
    pub const fn hundredths(self) -> i64 {
        self.0
    }

    /// As a float.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// Text with a dot: whole numbers for integer criteria, else one or two
    /// decimals (`12.5`, `10.75`, `3.0`).
    pub fn format(self, integer: bool) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        if integer {
            return format!("{sign}{}", abs / 100);
        }
        let (whole, frac) = (abs / 100, abs % 100);
        if frac % 10 == 0 {
            format!("{sign}{whole}.{}", frac / 10)
        } else {
            format!("{sign}{whole}.{frac:02}")
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.format(false))
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.as_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "BH", "BH-C1", "BH-M1", "BH-C2", "SB", "SB-C1", "DE", "WIN", "WON", "BPG", "BWG", "GE",
            "ARO", "ARO-C1", "TPR", "PS", "PS-C1", "KS", "BH-P",
        ] {
            let tb: TieBreak = name.parse().unwrap();
            assert_eq!(tb.to_string(), name);
        }
        assert_eq!("bh/c1".parse::<TieBreak>().unwrap().to_string(), "BH-C1");
        assert_eq!("REP".parse::<TieBreak>().unwrap(), TieBreak::GamesElected);
        assert!("XX".parse::<TieBreak>().is_err());
        assert!("WIN-C1".parse::<TieBreak>().is_err());
        assert!("BH-Q".parse::<TieBreak>().is_err());
        assert_eq!(parse_list("BH-C1, BH,SB").unwrap().len(), 3);
    }

    #[test]
    fn values_print_with_a_dot() {
        assert_eq!(Value::from_hundredths(1250).format(false), "12.5");
        assert_eq!(Value::from_hundredths(1075).format(false), "10.75");
        assert_eq!(Value::from_hundredths(300).format(false), "3.0");
        assert_eq!(Value::from_int(1893).format(true), "1893");
        assert_eq!(Value::from_hundredths(-50).format(false), "-0.5");
    }

    fn with_line(tag: &str, text: &str) -> Tournament {
        let mut t = Tournament::new();
        t.info.push(crate::InfoLine {
            tag: tag.into(),
            text: text.into(),
        });
        t
    }

    fn names(list: Vec<TieBreak>) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_tournament_is_ranked_by_its_202_line_then_212_then_the_default() {
        let t = with_line("202", "DE, BH");
        assert_eq!(
            names(for_tournament(&t, System::Dutch).unwrap()),
            ["DE", "BH"]
        );
        let mut both = with_line("212", "PTS,SB");
        both.info.extend(t.info.clone());
        assert_eq!(
            names(for_tournament(&both, System::RoundRobin).unwrap()),
            ["DE", "BH"]
        );
        let t = with_line("212", "pts, SB");
        assert_eq!(names(for_tournament(&t, System::Dutch).unwrap()), ["SB"]);
        let empty = with_line("202", "");
        assert_eq!(
            for_tournament(&empty, System::RoundRobin).unwrap(),
            TieBreak::round_robin_default()
        );
        assert_eq!(for_tournament(&t, System::Keizer).unwrap(), []);
    }

    #[test]
    fn a_bad_line_is_named_with_its_text() {
        let t = with_line("212", "PTS,XX");
        let error = for_tournament(&t, System::Dutch).unwrap_err();
        assert_eq!(error.tag, "212");
        assert_eq!(error.text, "PTS,XX");
        assert_eq!(error.error, ParseTieBreakError::Unknown("XX".into()));
        assert_eq!(error.to_string(), "the 212 line 'PTS,XX'");
        let t = with_line("202", "BH-Q");
        assert_eq!(for_tournament(&t, System::Dutch).unwrap_err().tag, "202");
    }
}
