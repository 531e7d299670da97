//! The two variants and their rule options, with the sources' defaults.

use std::fmt;
use std::str::FromStr;

use tempo_chess::Role;

use crate::error::RulesError;
use crate::kind::GameKind;

/// Which simultaneous-move variant is played: the rules of the two
/// simultaneous [`GameKind`]s ([`GameKind::simultaneous`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Synchron Schach (Hansmann / Krasowsky): collisions remove both
    /// pieces, no en passant, an exchange phase after the pair.
    Synchronschach,
    /// Fairschach (Zühlke, FSR 1-9): stronger piece wins a collision,
    /// first-move right when in check, pauses, late switch to orthodox.
    Fairschach,
}

impl Variant {
    /// The name used in records, PGN `Variant` tags and the CLI.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Synchronschach => "Synchronschach",
            Variant::Fairschach => "Fairschach",
        }
    }

    /// The kind of game these rules play.
    pub(crate) fn kind(self) -> GameKind {
        GameKind::from(self)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = RulesError;

    /// Reads the name of a simultaneous [`GameKind`] (its one parser:
    /// case-insensitive; `synchron schach`, `synchronous`, `fair` and
    /// `fairchess` are accepted as well); other kinds are no variant.
    fn from_str(s: &str) -> Result<Variant, RulesError> {
        s.parse::<GameKind>()
            .ok()
            .and_then(GameKind::simultaneous)
            .ok_or_else(|| RulesError::UnknownVariant(s.to_string()))
    }
}

/// FSR 4: what happens when two pieces move to the same square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SameSquareRule {
    /// The stronger piece captures the weaker; equally strong pieces
    /// capture each other (FSR 4, the default).
    #[default]
    StrongerCaptures,
    /// Both pieces are always captured (the author's first alternative;
    /// also Synchronschach's S1).
    BothCaptured,
    /// The weaker piece forgoes its move and stays on its square; equally
    /// strong pieces capture each other (the author's second alternative).
    WeakerStays,
}

/// FSR 9: which pieces must pause for one pair after moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PauseRule {
    /// Every piece that has just moved, except the king (FSR 9, default).
    #[default]
    EveryMovedPiece,
    /// Only a piece that moved onto a square where the opponent can
    /// capture it (the milder rule of the later tests).
    OnlyCapturable,
    /// No pauses.
    None,
}

/// The settings of Fairschach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FairRules {
    pub same_square: SameSquareRule,
    pub pause: PauseRule,
    /// FSR 8: with at most this many pieces on the board (kings and pawns
    /// counted), the next check switches the game to orthodox alternating
    /// moves. `None` turns FSR 8 off.
    pub orthodox_threshold: Option<u32>,
    /// Switch to orthodox alternating moves once this many pairs have been
    /// played — at the first check from then on, like FSR 8 (off by
    /// default; the source suggests 12-16 for beginners).
    pub orthodox_after_pairs: Option<u32>,
}

/// The default FSR 8 threshold: six pieces, kings and pawns included.
pub const DEFAULT_ORTHODOX_THRESHOLD: u32 = 6;

impl Default for FairRules {
    fn default() -> FairRules {
        FairRules {
            same_square: SameSquareRule::StrongerCaptures,
            pause: PauseRule::EveryMovedPiece,
            orthodox_threshold: Some(DEFAULT_ORTHODOX_THRESHOLD),
            orthodox_after_pairs: None,
        }
    }
}

/// A variant with its settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Synchronschach has no options: its gap decisions are fixed and
    /// documented in `docs/rules/synchronschach.md`.
    Synchronschach,
    Fairschach(FairRules),
}

impl Rules {
    /// The variant with the sources' default settings.
    pub fn new(variant: Variant) -> Rules {
        match variant {
            Variant::Synchronschach => Rules::Synchronschach,
            Variant::Fairschach => Rules::Fairschach(FairRules::default()),
        }
    }

    pub fn variant(&self) -> Variant {
        match self {
            Rules::Synchronschach => Variant::Synchronschach,
            Rules::Fairschach(_) => Variant::Fairschach,
        }
    }

    /// The Fairschach settings, if this is Fairschach.
    pub(crate) fn fair(&self) -> Option<&FairRules> {
        match self {
            Rules::Fairschach(fair) => Some(fair),
            Rules::Synchronschach => None,
        }
    }

    /// The same-square rule in force (Synchronschach: both captured, S1).
    pub(crate) fn same_square(&self) -> SameSquareRule {
        match self {
            Rules::Synchronschach => SameSquareRule::BothCaptured,
            Rules::Fairschach(fair) => fair.same_square,
        }
    }

    /// The settings as `key=value` words (empty for defaults), for records.
    pub fn options_string(&self) -> String {
        let Some(fair) = self.fair() else {
            return String::new();
        };
        let d = FairRules::default();
        let mut words = Vec::new();
        if fair.same_square != d.same_square {
            words.push(format!(
                "same-square={}",
                match fair.same_square {
                    SameSquareRule::StrongerCaptures => "stronger",
                    SameSquareRule::BothCaptured => "both",
                    SameSquareRule::WeakerStays => "weaker-stays",
                }
            ));
        }
        if fair.pause != d.pause {
            words.push(format!(
                "pause={}",
                match fair.pause {
                    PauseRule::EveryMovedPiece => "moved",
                    PauseRule::OnlyCapturable => "capturable",
                    PauseRule::None => "none",
                }
            ));
        }
        if fair.orthodox_threshold != d.orthodox_threshold {
            words.push(format!(
                "fsr8={}",
                fair.orthodox_threshold
                    .map_or("off".to_string(), |n| n.to_string())
            ));
        }
        if let Some(n) = fair.orthodox_after_pairs {
            words.push(format!("orthodox-after={n}"));
        }
        words.join(" ")
    }

    /// Applies `key=value` words (as written by [`Rules::options_string`]).
    pub fn apply_options(&mut self, text: &str) -> Result<(), RulesError> {
        for word in text.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| RulesError::BadOption(word.to_string()))?;
            self.set_option(key, value)?;
        }
        Ok(())
    }

    /// Sets one option by name: `same-square` (stronger|both|weaker-stays),
    /// `pause` (moved|capturable|none), `fsr8` (off|N), `orthodox-after`
    /// (off|N). Only Fairschach has options.
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
        };
        let Rules::Fairschach(fair) = self else {
            return Err(RulesError::NoOptions(key.to_string()));
        };
        let count = |v: &str| -> Result<Option<u32>, RulesError> {
            if v == "off" {
                Ok(None)
            } else {
                v.parse().map(Some).map_err(|_| bad())
            }
        };
        match key {
            "same-square" => {
                fair.same_square = match value {
                    "stronger" => SameSquareRule::StrongerCaptures,
                    "both" => SameSquareRule::BothCaptured,
                    "weaker-stays" => SameSquareRule::WeakerStays,
                    _ => return Err(bad()),
                }
            }
            "pause" => {
                fair.pause = match value {
                    "moved" => PauseRule::EveryMovedPiece,
                    "capturable" => PauseRule::OnlyCapturable,
                    "none" => PauseRule::None,
                    _ => return Err(bad()),
                }
            }
            "fsr8" => fair.orthodox_threshold = count(value)?,
            "orthodox-after" => fair.orthodox_after_pairs = count(value)?,
            _ => return Err(RulesError::BadOption(key.to_string())),
        }
        Ok(())
    }
}

/// FSR 4's strength scale: King > Queen > Rook > Bishop = Knight > Pawn.
pub fn strength(role: Role) -> u8 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_round_trip() {
        let mut rules = Rules::new(Variant::Fairschach);
        assert_eq!(rules.options_string(), "");
        rules
            .apply_options("same-square=weaker-stays pause=capturable fsr8=off orthodox-after=12")
            .unwrap();
        let text = rules.options_string();
        let mut again = Rules::new(Variant::Fairschach);
        again.apply_options(&text).unwrap();
        assert_eq!(again, rules);
        assert!(
            Rules::Synchronschach
                .clone()
                .set_option("pause", "none")
                .is_err()
        );
        assert!(rules.set_option("pause", "sometimes").is_err());
    }

    #[test]
    fn strength_scale_fsr4() {
        assert!(strength(Role::King) > strength(Role::Queen));
        assert!(strength(Role::Queen) > strength(Role::Rook));
        assert!(strength(Role::Rook) > strength(Role::Bishop));
        assert_eq!(strength(Role::Bishop), strength(Role::Knight));
        assert!(strength(Role::Knight) > strength(Role::Pawn));
    }

    #[test]
    fn variant_names() {
        assert_eq!(
            "fairschach".parse::<Variant>().unwrap(),
            Variant::Fairschach
        );
        assert_eq!(
            "Synchron Schach".parse::<Variant>().unwrap(),
            Variant::Synchronschach
        );
        assert!("crazyhouse".parse::<Variant>().is_err());
    }
}
