//! What players choose, what they are expected to choose, and why a
//! choice is refused.

use std::fmt;

use tempo_chess::{Bitboard, Color, Move, Position, Square};

use crate::error::IllegalReason;
use crate::event::Event;

/// One player's choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// A move in a pair (or in orthodox alternating play).
    Move(Move),
    /// A capture on the exchange square (Synchronschach S5-S7).
    Capture(Move),
    /// Declining the capture right of the exchange phase.
    Decline,
}

impl Choice {
    /// The move of a `Move` or `Capture`.
    pub fn as_move(&self) -> Option<Move> {
        match *self {
            Choice::Move(mv) | Choice::Capture(mv) => Some(mv),
            Choice::Decline => None,
        }
    }

    /// The same choice on the colour-mirrored board.
    pub fn mirrored(&self) -> Choice {
        let flip = |mv: Move| Move::new(mv.from.flip_rank(), mv.to.flip_rank(), mv.promotion);
        match *self {
            Choice::Move(mv) => Choice::Move(flip(mv)),
            Choice::Capture(mv) => Choice::Capture(flip(mv)),
            Choice::Decline => Choice::Decline,
        }
    }
}

impl fmt::Display for Choice {
    /// `e2e4`, `xd4e5` (exchange capture), `-` (decline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Move(mv) => write!(f, "{mv}"),
            Choice::Capture(mv) => write!(f, "x{mv}"),
            Choice::Decline => f.write_str("-"),
        }
    }
}

/// What a player has to choose now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expected {
    /// Nothing: the player waits (or the game is over).
    Nothing,
    /// A move.
    Move,
    /// A capture on this square, or a decline (exchange phase).
    CaptureOrDecline(Square),
}

/// A resolved step: both choices as played, what happened, and the step's
/// lines in the pair record and the digit code (written from the state
/// before the step, which the host no longer has).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub white: Option<Choice>,
    pub black: Option<Choice>,
    pub events: Vec<Event>,
    /// The line of [`crate::record`], e.g. `2x. .. xd8d5`.
    pub record: String,
    /// The line of [`crate::digits`], e.g. `1 65254 66765`.
    pub digits: String,
}

/// Why `mv` is not legal for `color` in `pos`.
pub(super) fn diagnose(pos: &Position, color: Color, mv: Move) -> IllegalReason {
    match pos.color_at(mv.from) {
        None => return IllegalReason::EmptySquare(mv.from),
        Some(c) if c != color => return IllegalReason::OpponentsPiece(mv.from),
        _ => {}
    }
    let mut free = pos.clone();
    free.set_paused(Bitboard::EMPTY);
    if pos.paused().contains(mv.from) && free.is_legal_for(color, mv) {
        return IllegalReason::Paused(mv.from);
    }
    if free.pseudo_legal_moves_for(color).contains(&mv) {
        if pos.is_castling(mv) {
            IllegalReason::CastlingThroughCheck
        } else if pos.is_in_check(color) {
            IllegalReason::DoesNotParry
        } else {
            IllegalReason::LeavesKingAttacked
        }
    } else {
        IllegalReason::NotAMove(mv.from)
    }
}
