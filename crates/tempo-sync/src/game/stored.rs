//! [`StoredGame`]: a game's state as data, with the repetition history the
//! extended position notation leaves out, so that a host can store a game
//! and restore it exactly (a later threefold repetition is still seen).

use serde::{Deserialize, Serialize};

use super::SyncGame;
use super::history::History;
use crate::error::{NotationError, RulesError};
use crate::notation;
use crate::rules::{Rules, Variant};

/// The most history entries a stored game may hold: the repetition history
/// starts again at every capture or pawn move, and the 50-move rule ends a
/// game long before this.
pub const MAX_HISTORY: usize = 1_000;

/// A game between two steps, as data (serde). Choices committed for the
/// next step are not part of it: a host keeps those itself until the step
/// is resolved.
///
/// ```
/// use tempo_sync::{Rules, StoredGame, SyncGame, Variant};
/// let game = SyncGame::new(Rules::new(Variant::Fairschach));
/// let stored = game.stored();
/// let json = serde_json::to_string(&stored)?;
/// let back: StoredGame = serde_json::from_str(&json)?;
/// assert_eq!(SyncGame::restore(&back)?.stored(), stored);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredGame {
    /// `synchronschach` or `fairschach`.
    pub variant: String,
    /// The rule options as `tempo sync` writes them (`key=value ...`;
    /// empty for the sources' defaults).
    pub options: String,
    /// The state in the extended position notation.
    pub position: String,
    /// Hashes of the positions at the start of pairs (or orthodox moves)
    /// since the last capture or pawn move, oldest first.
    pub history: Vec<u64>,
}

/// Why a stored game cannot be restored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    #[error("stored game: {0}")]
    Rules(#[from] RulesError),
    #[error("stored game: {0}")]
    Position(#[from] NotationError),
    #[error("stored game: {0} history entries are too many (at most {MAX_HISTORY})")]
    HistoryTooLong(usize),
}

impl SyncGame {
    /// This game as data, to be restored by [`SyncGame::restore`].
    pub fn stored(&self) -> StoredGame {
        StoredGame {
            variant: self.rules.variant().kind().name().to_string(),
            options: self.rules.options_string(),
            position: notation::write(self),
            history: self.history(),
        }
    }

    /// The game `stored` holds, with its repetition history.
    pub fn restore(stored: &StoredGame) -> Result<SyncGame, RestoreError> {
        if stored.history.len() > MAX_HISTORY {
            return Err(RestoreError::HistoryTooLong(stored.history.len()));
        }
        let variant: Variant = stored.variant.parse()?;
        let mut rules = Rules::new(variant);
        rules.apply_options(&stored.options)?;
        let mut game = notation::read(rules, &stored.position)?;
        let mut history = History::default();
        for &hash in &stored.history {
            history.push(hash);
        }
        game.history = history;
        Ok(game)
    }
}
