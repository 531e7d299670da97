//! Why a game refuses a request.

use tempo_host::HostError;

use crate::storage::StoreError;

/// Longest choice a player may send (a move or a commit).
pub(crate) const MAX_CHOICE: usize = 16;

/// Why a game refuses a request.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("game not found")]
    NotFound,
    #[error("you do not play in this game")]
    NotSeated,
    /// An arbiter's action on a game the arbiter plays in.
    #[error("you play in this game: another arbiter must rule on it")]
    OwnGame,
    #[error("a choice is at most {MAX_CHOICE} characters")]
    ChoiceTooLong,
    /// The rules refuse the command.
    #[error(transparent)]
    Rejected(#[from] HostError),
    #[error("the game cannot be loaded")]
    Unloadable,
    #[error("the game is busy, try again")]
    Busy,
    #[error(transparent)]
    Store(#[from] StoreError),
}
