//! Typed errors of tempo-sync.

use tempo_chess::{Color, FenError, Square};
use thiserror::Error;

/// A bad variant name or rule option.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    #[error("unknown variant '{0}' (expected synchronschach or fairschach)")]
    UnknownVariant(String),
    #[error("unknown rule option '{0}' (expected same-square, pause, fsr8, orthodox-after)")]
    BadOption(String),
    #[error("invalid value '{value}' for rule option '{key}'")]
    BadValue { key: String, value: String },
    #[error("Synchronschach has no rule option '{0}'")]
    NoOptions(String),
}

/// Why a choice is not allowed now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalReason {
    #[error("the game is over")]
    GameOver,
    #[error("nothing to choose now (waiting for the other player)")]
    NotYourTurn,
    #[error("a choice is already committed")]
    AlreadyCommitted,
    #[error("a move is due, not a capture choice or a decline")]
    MoveExpected,
    #[error("a capture on {0} or a decline is due, not a move")]
    CaptureExpected(Square),
    #[error("no piece on {0}")]
    EmptySquare(Square),
    #[error("the piece on {0} belongs to the opponent")]
    OpponentsPiece(Square),
    #[error("the piece on {0} is paused (FSR 9: it moved in the last pair)")]
    Paused(Square),
    #[error("the king is in check and the move does not parry it")]
    DoesNotParry,
    #[error("castling out of, through or into check is not allowed (C1)")]
    CastlingThroughCheck,
    #[error("the move would leave the own king attacked")]
    LeavesKingAttacked,
    #[error("the piece on {0} cannot move there")]
    NotAMove(Square),
    #[error("only captures on {0} are allowed in the exchange phase")]
    WrongExchangeSquare(Square),
    #[error("the piece on {0} has already moved in this exchange phase (S7)")]
    MovedInExchange(Square),
    #[error("not a legal capture on {0}")]
    NotACapture(Square),
}

/// An error of the state machine.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SyncError {
    #[error("{color:?}: illegal choice {choice}: {reason}")]
    Illegal {
        color: Color,
        choice: String,
        reason: IllegalReason,
    },
    #[error("the game is over: {0}")]
    GameOver(String),
    #[error("{0:?} must make a choice now")]
    MissingChoice(Color),
    #[error("invalid start position: {0}")]
    InvalidStart(String),
}

/// A problem in the extended position notation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("position notation: {0}")]
    Fen(#[from] FenError),
    #[error("position notation field {field} ({name}): {reason}")]
    Field {
        field: usize,
        name: &'static str,
        reason: String,
    },
    #[error("position notation: {0}")]
    Start(String),
}

/// A problem in a pair record, PGN or digit code.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    /// Bad syntax at a line.
    #[error("line {line}: {reason}")]
    Syntax { line: usize, reason: String },
    /// A well-formed choice that is not legal.
    #[error("line {line}, pair {pair}, {player}: {reason}")]
    Illegal {
        line: usize,
        pair: u32,
        player: &'static str,
        reason: String,
    },
    #[error("line {line}: the game is already over ({result})")]
    AfterEnd { line: usize, result: String },
    #[error("{0}")]
    Notation(#[from] NotationError),
    #[error("{0}")]
    Rules(#[from] RulesError),
}
