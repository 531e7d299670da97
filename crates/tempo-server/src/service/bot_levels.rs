//! What the computer opponents running beside the server say of their
//! strength: each bot's level on a known Elo scale, set once when the bots
//! start (`tempo_bots::start`) and shown with the bot among the members.

use std::collections::BTreeMap;
use std::sync::RwLock;

use serde::Serialize;
use utoipa::ToSchema;

/// A computer opponent's strength on Stockfish's calibrated Elo scale
/// (`UCI_Elo`) in orthodox chess, as measured by `scripts/bench-elo`
/// (docs/engine.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct BotLevel {
    /// The estimate; `null` where only an upper bound is known (the bot
    /// scored no point against the scale's weakest level): `high`.
    pub elo: Option<u32>,
    /// The 95 % interval (`low` 0 where only the bound is known).
    pub low: u32,
    pub high: u32,
}

impl BotLevel {
    /// An estimate with its 95 % interval.
    pub const fn about(elo: u32, low: u32, high: u32) -> BotLevel {
        BotLevel {
            elo: Some(elo),
            low,
            high,
        }
    }

    /// Below `bound` (95 %), where no estimate can be made.
    pub const fn below(bound: u32) -> BotLevel {
        BotLevel {
            elo: None,
            low: 0,
            high: bound,
        }
    }
}

/// `Elo ~1734`, or `Elo <1080` where only the bound is known (as the
/// web app's lobby shows it).
impl std::fmt::Display for BotLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.elo {
            Some(elo) => write!(f, "Elo ~{elo}"),
            None => write!(f, "Elo <{}", self.high),
        }
    }
}

/// The levels by account name (lower case).
#[derive(Debug, Default)]
pub struct BotLevels(RwLock<BTreeMap<String, BotLevel>>);

impl BotLevels {
    /// Names `name`'s level (replacing an earlier one).
    pub fn set(&self, name: &str, level: BotLevel) {
        self.0
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_lowercase(), level);
    }

    /// The level of `name`, if a bot of this server named one.
    pub fn get(&self, name: &str) -> Option<BotLevel> {
        self.0
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&name.to_lowercase())
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_found_by_name_in_any_case() {
        let levels = BotLevels::default();
        levels.set("bot-Nash", BotLevel::about(1800, 1700, 1900));
        levels.set("bot-random", BotLevel::below(1320));
        assert_eq!(
            levels.get("BOT-NASH"),
            Some(BotLevel::about(1800, 1700, 1900))
        );
        assert_eq!(levels.get("bot-random").unwrap().elo, None);
        assert_eq!(levels.get("anna"), None);
    }

    #[test]
    fn a_level_reads_as_the_lobby_shows_it() {
        assert_eq!(BotLevel::about(1734, 1564, 1885).to_string(), "Elo ~1734");
        assert_eq!(BotLevel::below(1080).to_string(), "Elo <1080");
    }
}
