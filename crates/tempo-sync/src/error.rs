//! Typed errors of tempo-sync.

use tempo_chess::chess960::Chess960Error;
use tempo_chess::iccf::IccfError;
use tempo_chess::uci::UciError;
use tempo_chess::{Color, FenError, PositionError, Square};

use crate::outcome::{EndReason, Result as GameResult};
use thiserror::Error;

/// A name no [`crate::GameKind`] has.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown variant '{0}' (standard, chess960, synchronschach, fairschach)")]
pub struct UnknownKind(pub String);

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
    #[error("{}: illegal choice {choice}: {reason}", .color.fold("White", "Black"))]
    Illegal {
        color: Color,
        choice: String,
        reason: IllegalReason,
    },
    #[error("the game is over: {result} ({reason})")]
    GameOver {
        result: GameResult,
        reason: EndReason,
    },
    #[error("{} must make a choice now", .0.fold("White", "Black"))]
    MissingChoice(Color),
    #[error("invalid start position: {0}")]
    InvalidStart(StartError),
}

/// Why a position cannot start a game of simultaneous moves.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StartError {
    /// Not exactly one king of a colour.
    #[error("{} has {kings} kings (exactly one is needed)", .color.fold("White", "Black"))]
    Kings { color: Color, kings: u32 },
    /// A board no variant position has.
    #[error("{0}")]
    Board(#[from] PositionError),
    /// No Chess960 start position of that number.
    #[error("{0}")]
    Chess960(#[from] Chess960Error),
}

/// A choice written in a record that cannot be read as one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChoiceError {
    /// Not a UCI move.
    #[error("{0}")]
    Uci(#[from] UciError),
    /// `..` where a choice is due.
    #[error("'..' given, but a choice is due")]
    ChoiceDue,
    /// A decline outside Synchronschach's exchange phase.
    #[error("'-' (decline) is only possible in the exchange phase")]
    DeclineOutsideExchange,
    /// A choice from a player who has nothing to choose.
    #[error("'{0}' given, but nothing is to be chosen now")]
    NothingDue(String),
    /// A capture choice (`xd8d5`) where a move is due.
    #[error("'{0}': a capture choice outside the exchange phase")]
    CaptureOutsideExchange(String),
    /// A digit-code marker that is not one digit 1-7.
    #[error("'{0}': marker after '/' must be one digit 1-7")]
    BadMarker(String),
    /// A digit code whose first digit names no piece.
    #[error("'{0}': the first digit must name a piece (1-6)")]
    BadPieceDigit(String),
    /// Digits that are no ICCF move.
    #[error("{0}")]
    Iccf(#[from] IccfError),
    /// The piece digit differs from the piece on the square.
    #[error("'{token}': piece digit {digit} does not match the piece on {square}")]
    WrongPiece {
        token: String,
        digit: char,
        square: Square,
    },
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
    Start(SyncError),
    /// Neither the seven fields of the notation nor a FEN.
    #[error(
        "position notation: expected 7 fields (placement phase castling en-passant paused half-moves pair) or a FEN, found {0}"
    )]
    FieldCount(usize),
}

/// Why a step of a record cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StepError {
    /// The written choice cannot be read.
    #[error("{0}")]
    Choice(#[from] ChoiceError),
    /// The choice is read but not allowed.
    #[error("{choice}: {reason}")]
    Illegal {
        choice: String,
        reason: IllegalReason,
    },
    /// A player who must choose has no choice on the line.
    #[error("a choice is missing")]
    MissingChoice,
    /// The state machine refused the step.
    #[error("{0}")]
    Game(SyncError),
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
        reason: StepError,
    },
    #[error("line {line}: the game is already over ({result})")]
    AfterEnd { line: usize, result: String },
    #[error("{0}")]
    Notation(#[from] NotationError),
    #[error("{0}")]
    Rules(#[from] RulesError),
}
