//! Challenges: who asked whom for which game, and the checks a challenge
//! passes before it is stored, so that its accept cannot fail on them.

use serde::{Deserialize, Serialize};
use tempo_host::{GameSpec, Header, HostError, Variant};

/// Most open challenges one member may have sent.
pub const MAX_OPEN_CHALLENGES: i64 = 20;

/// Most open challenges to anyone (the lobby's seeks) one member may have
/// waiting: the lobby lists everyone's, so each member's share is small.
pub const MAX_OPEN_SEEKS: i64 = 5;

/// How long an open challenge to anyone waits for a taker (milliseconds;
/// lichess lets open challenges live a day).
pub const OPEN_CHALLENGE_LIFETIME: i64 = 24 * 60 * 60 * 1000;

/// Where a challenge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeStatus {
    Open,
    Accepted,
    Declined,
    Cancelled,
}

impl ChallengeStatus {
    /// The stored (and shown) name.
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
        }
    }

    /// The status of a stored name.
    pub fn from_name(name: &str) -> Option<ChallengeStatus> {
        [
            ChallengeStatus::Open,
            ChallengeStatus::Accepted,
            ChallengeStatus::Declined,
            ChallengeStatus::Cancelled,
        ]
        .into_iter()
        .find(|s| s.as_str() == name)
    }
}

/// The challenger's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    White,
    Black,
    #[default]
    Random,
}

impl ColorChoice {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    /// The choice of a stored name.
    pub fn from_name(name: &str) -> Option<ColorChoice> {
        [ColorChoice::White, ColorChoice::Black, ColorChoice::Random]
            .into_iter()
            .find(|c| c.as_str() == name)
    }

    /// Whether the challenger plays White; a random choice is settled by
    /// the challenge's `id` (see [`Challenge::challenger_white`]).
    pub fn challenger_white(self, id: &str) -> bool {
        match self {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            // The last character of a random id is odd for 31 of the 62
            // letters and digits: a fair draw, made once, when the
            // challenge is made, and known from then on (lichess's
            // `finalColor`) without a column of its own.
            ColorChoice::Random => id.as_bytes().last().is_some_and(|b| b % 2 == 1),
        }
    }
}

/// Why the challenged player declines (lichess's reasons): the key, as
/// clients send and match it, and the English text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeclineReason {
    #[default]
    Generic,
    Later,
    TooFast,
    TooSlow,
    TimeControl,
    Rated,
    Casual,
    Standard,
    Variant,
    NoBot,
    OnlyBot,
}

impl DeclineReason {
    pub const ALL: [DeclineReason; 11] = [
        DeclineReason::Generic,
        DeclineReason::Later,
        DeclineReason::TooFast,
        DeclineReason::TooSlow,
        DeclineReason::TimeControl,
        DeclineReason::Rated,
        DeclineReason::Casual,
        DeclineReason::Standard,
        DeclineReason::Variant,
        DeclineReason::NoBot,
        DeclineReason::OnlyBot,
    ];

    /// Lichess's key (`generic`, `tooFast`, …).
    pub fn key(self) -> &'static str {
        match self {
            DeclineReason::Generic => "generic",
            DeclineReason::Later => "later",
            DeclineReason::TooFast => "tooFast",
            DeclineReason::TooSlow => "tooSlow",
            DeclineReason::TimeControl => "timeControl",
            DeclineReason::Rated => "rated",
            DeclineReason::Casual => "casual",
            DeclineReason::Standard => "standard",
            DeclineReason::Variant => "variant",
            DeclineReason::NoBot => "noBot",
            DeclineReason::OnlyBot => "onlyBot",
        }
    }

    /// The reason in English, as the challenger reads it.
    pub fn text(self) -> &'static str {
        match self {
            DeclineReason::Generic => "I am not accepting challenges at the moment.",
            DeclineReason::Later => "This is not the right time for me; please ask again later.",
            DeclineReason::TooFast => {
                "This time control is too fast for me; please challenge me to a slower game."
            }
            DeclineReason::TooSlow => {
                "This time control is too slow for me; please challenge me to a faster game."
            }
            DeclineReason::TimeControl => "I am not accepting challenges with this time control.",
            DeclineReason::Rated => "Please send me a rated challenge instead.",
            DeclineReason::Casual => "Please send me a casual challenge instead.",
            DeclineReason::Standard => "I am not accepting variant challenges right now.",
            DeclineReason::Variant => "I am not willing to play this variant right now.",
            DeclineReason::NoBot => "I am not accepting challenges from bots.",
            DeclineReason::OnlyBot => "I am only accepting challenges from bots.",
        }
    }

    /// The reason of a key (as lichess, in any case: `toofast` too).
    pub fn from_key(key: &str) -> Option<DeclineReason> {
        DeclineReason::ALL
            .into_iter()
            .find(|r| r.key().eq_ignore_ascii_case(key))
    }
}

/// A challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub id: String,
    /// The challenger's name, lowercase.
    pub challenger: String,
    /// The challenged player's name, lowercase.
    pub dest: String,
    pub spec: GameSpec,
    pub color: ColorChoice,
    pub status: ChallengeStatus,
    pub game_id: Option<String>,
    /// An open challenge to anyone: until when (ms) it may be accepted.
    /// Its `dest` is the challenger until a member accepts it (the column
    /// must name a member), then the one who accepted.
    pub open_until: Option<i64>,
    /// Whether its game counts for the club ratings.
    pub rated: bool,
}

impl Challenge {
    /// `out` if `me` sent the challenge, else `in`.
    pub fn direction(&self, me: &str) -> &'static str {
        if self.challenger.eq_ignore_ascii_case(me) {
            "out"
        } else {
            "in"
        }
    }

    /// Whether anyone may accept it (an open challenge), not only `dest`.
    pub fn is_open_to_all(&self) -> bool {
        self.open_until.is_some()
    }

    /// Whether the challenger plays White (a random colour is settled
    /// when the challenge is made: lichess's `finalColor`).
    pub fn challenger_white(&self) -> bool {
        self.color.challenger_white(&self.id)
    }

    /// The players of the game against `opponent`, White first.
    pub fn seats(&self, opponent: &str) -> (String, String) {
        if self.challenger_white() {
            (self.challenger.clone(), opponent.to_string())
        } else {
            (opponent.to_string(), self.challenger.clone())
        }
    }
}

/// Checks a challenge's spec as its game will be made, so that an accept
/// cannot fail on it.
pub(crate) fn check_spec(spec: &GameSpec) -> Result<(), HostError> {
    let mut checked = spec.clone();
    if checked.variant == Variant::Chess960 && checked.chess960.is_none() && checked.fen.is_none() {
        checked.chess960 = Some(0);
    }
    Header::new("check", &checked, "a", "b").map(|_| ())
}

/// The spec a game is made from: a Chess960 game that names no position
/// gets one drawn.
pub(crate) fn game_spec(spec: &GameSpec) -> GameSpec {
    let mut spec = spec.clone();
    if spec.variant == Variant::Chess960 && spec.chess960.is_none() && spec.fen.is_none() {
        spec.chess960 = Some(rand::random_range(0..960));
    }
    spec
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_colour_is_settled_by_the_id_fairly() {
        let alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let white = alphabet
            .chars()
            .filter(|c| ColorChoice::Random.challenger_white(&format!("abcdefghijk{c}")))
            .count();
        assert_eq!(white * 2, alphabet.len());
        // The same id, the same colour, every time it is asked.
        assert!(ColorChoice::Random.challenger_white("x1"));
        assert!(ColorChoice::Random.challenger_white("x1"));
        assert!(!ColorChoice::Random.challenger_white("x2"));
        assert!(ColorChoice::White.challenger_white("x2"));
        assert!(!ColorChoice::Black.challenger_white("x1"));
    }

    #[test]
    fn decline_reasons_by_key() {
        for reason in DeclineReason::ALL {
            assert_eq!(DeclineReason::from_key(reason.key()), Some(reason));
            assert!(reason.text().ends_with('.'));
        }
        assert_eq!(
            DeclineReason::from_key("toofast"),
            Some(DeclineReason::TooFast)
        );
        assert_eq!(DeclineReason::from_key("nonsense"), None);
        assert_eq!(DeclineReason::default().key(), "generic");
    }
}
