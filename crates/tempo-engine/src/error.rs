//! The engine's errors.

use thiserror::Error;

/// Bad input to the engine: an unknown player, a position that cannot be
/// read or played.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    #[error("unknown player '{0}' (one of {names})", names = crate::player::PlayerKind::names())]
    UnknownPlayer(String),
    #[error("invalid FEN '{0}': {1}")]
    Fen(String, String),
    #[error("invalid start: {0}")]
    Start(String),
    #[error("the game is already over ({0})")]
    GameOver(String),
}
