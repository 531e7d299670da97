//! [`GameKind`]: the four kinds of game tempo plays, and the one reader of
//! their names.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::UnknownKind;
use crate::rules::Variant;

/// The kinds of game tempo plays: orthodox chess from the usual start or a
/// Chess960 start (alternating moves), and the two simultaneous-move
/// variants. Named by [`GameKind::name`] everywhere — in JSON (serde), in
/// logs, on the command line — and read by one parser ([`FromStr`], which
/// serde uses too) that also takes the spellings the command line always
/// took.
///
/// ```
/// use tempo_sync::{GameKind, Variant};
///
/// let kind: GameKind = "Synchron Schach".parse()?;
/// assert_eq!(kind, GameKind::Synchronschach);
/// assert_eq!(kind.to_string(), "synchronschach");
/// assert_eq!(kind.simultaneous(), Some(Variant::Synchronschach));
/// assert_eq!("960".parse::<GameKind>()?, GameKind::Chess960);
/// assert_eq!(serde_json::to_string(&GameKind::Fairschach)?, r#""fairschach""#);
/// assert!("crazyhouse".parse::<GameKind>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum GameKind {
    /// Orthodox chess.
    #[default]
    Standard,
    /// Orthodox chess from a Chess960 (Fischer random) start.
    Chess960,
    /// Synchronschach (Hansmann / Krasowsky): simultaneous moves.
    Synchronschach,
    /// Fairschach (Zühlke): simultaneous moves.
    Fairschach,
}

impl GameKind {
    /// All four, orthodox first.
    pub const ALL: [GameKind; 4] = [
        GameKind::Standard,
        GameKind::Chess960,
        GameKind::Synchronschach,
        GameKind::Fairschach,
    ];

    /// `standard`, `chess960`, `synchronschach`, `fairschach`.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Standard => "standard",
            GameKind::Chess960 => "chess960",
            GameKind::Synchronschach => "synchronschach",
            GameKind::Fairschach => "fairschach",
        }
    }

    /// Whether both players choose at once.
    pub const fn is_simultaneous(self) -> bool {
        self.simultaneous().is_some()
    }

    /// The simultaneous-move variant whose rules this kind plays, if any.
    pub const fn simultaneous(self) -> Option<Variant> {
        match self {
            GameKind::Synchronschach => Some(Variant::Synchronschach),
            GameKind::Fairschach => Some(Variant::Fairschach),
            GameKind::Standard | GameKind::Chess960 => None,
        }
    }
}

impl From<Variant> for GameKind {
    fn from(variant: Variant) -> GameKind {
        match variant {
            Variant::Synchronschach => GameKind::Synchronschach,
            Variant::Fairschach => GameKind::Fairschach,
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = UnknownKind;

    /// Reads a name case-insensitively, ignoring all but letters and
    /// digits: the names of [`GameKind::name`], `chess` and `orthodox`,
    /// `960` and `fischerandom`, `synchron schach`, `synchron`,
    /// `synchronous`, `sync`, `synchronous chess`, `fair` and `fair chess`.
    fn from_str(text: &str) -> Result<GameKind, UnknownKind> {
        let key: String = text
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match key.as_str() {
            "standard" | "chess" | "orthodox" => Ok(GameKind::Standard),
            "chess960" | "960" | "fischerandom" => Ok(GameKind::Chess960),
            "synchronschach" | "synchron" | "synchronous" | "sync" | "synchronouschess" => {
                Ok(GameKind::Synchronschach)
            }
            "fairschach" | "fair" | "fairchess" => Ok(GameKind::Fairschach),
            _ => Err(UnknownKind(text.to_string())),
        }
    }
}

impl Serialize for GameKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for GameKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameKind, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = GameKind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a variant: standard, chess960, synchronschach or fairschach")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<GameKind, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_and_the_old_spellings_still_read() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse(), Ok(kind));
            assert_eq!(kind.name().to_uppercase().parse(), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{kind}\""));
            assert_eq!(serde_json::from_str::<GameKind>(&json).unwrap(), kind);
        }
        for (text, kind) in [
            ("chess", GameKind::Standard),
            ("Orthodox", GameKind::Standard),
            ("960", GameKind::Chess960),
            ("fischerandom", GameKind::Chess960),
            ("synchron schach", GameKind::Synchronschach),
            ("Synchronous-Chess", GameKind::Synchronschach),
            ("sync", GameKind::Synchronschach),
            ("Fair Chess", GameKind::Fairschach),
        ] {
            assert_eq!(text.parse(), Ok(kind), "{text}");
        }
        let err = "crazyhouse".parse::<GameKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant 'crazyhouse' (standard, chess960, synchronschach, fairschach)"
        );
        assert!(serde_json::from_str::<GameKind>("7").is_err());
    }

    #[test]
    fn only_the_simultaneous_kinds_have_sync_rules() {
        for kind in GameKind::ALL {
            assert_eq!(kind.is_simultaneous(), kind.simultaneous().is_some());
            if let Some(variant) = kind.simultaneous() {
                assert_eq!(GameKind::from(variant), kind);
            }
        }
        assert!(!GameKind::Chess960.is_simultaneous());
    }
}
