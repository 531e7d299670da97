//! A game's result for one player, as both the FIDE and the DWZ
//! regulations count it: 1 for a win, ½ for a draw, 0 for a loss.
//!
//! Only games played over the board are rated (FIDE B.02 and the DSB's
//! Wertungsordnung alike leave forfeits and byes out); which games those
//! are is for the caller to decide, this type only holds the points.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The points one player scored in one game.
///
/// ```
/// use tempo_rating::score::Score;
///
/// assert_eq!("1".parse::<Score>().unwrap(), Score::Win);
/// assert_eq!("½".parse::<Score>().unwrap(), Score::Draw);
/// assert_eq!("0.5".parse::<Score>().unwrap().points(), 0.5);
/// assert!("2".parse::<Score>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// 1, 0.5 or 0.
    #[must_use]
    pub fn points(self) -> f64 {
        f64::from(self.halves()) / 2.0
    }

    /// The opponent's score of the same game.
    #[must_use]
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    /// The points in half points (2, 1, 0): exact arithmetic for sums.
    #[must_use]
    pub fn halves(self) -> u32 {
        match self {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        }
    }
}

/// A score that is not 1, ½ or 0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("score '{0}': 1, 0.5 (or ½, 1/2, =) or 0")]
pub struct BadScore(pub String);

impl FromStr for Score {
    type Err = BadScore;

    fn from_str(text: &str) -> Result<Score, BadScore> {
        match text.trim() {
            "1" | "1.0" => Ok(Score::Win),
            "0.5" | ".5" | "½" | "1/2" | "=" => Ok(Score::Draw),
            "0" | "0.0" => Ok(Score::Loss),
            other => Err(BadScore(other.chars().take(20).collect())),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Score::Win => "1",
            Score::Draw => "0.5",
            Score::Loss => "0",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_usual_spellings() {
        for (text, score) in [
            ("1", Score::Win),
            ("0.5", Score::Draw),
            ("1/2", Score::Draw),
            ("=", Score::Draw),
            ("0", Score::Loss),
        ] {
            assert_eq!(text.parse::<Score>().unwrap(), score, "{text}");
        }
        assert_eq!(
            "0.7".parse::<Score>().unwrap_err().to_string(),
            "score '0.7': 1, 0.5 (or ½, 1/2, =) or 0"
        );
    }
}
