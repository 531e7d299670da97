//! What players choose, what they are expected to choose, and why a
//! choice is refused.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tempo_chess::uci::Uci;
use tempo_chess::{Bitboard, Color, Move, Position, Square};

use crate::error::{ChoiceError, IllegalReason};
use crate::event::Event;

/// One player's choice.
///
/// Written (and serialised) as `e2e4`, `xd4e5` for an exchange capture,
/// `-` for a decline: the move's own squares, castling as the king taking
/// its rook. [`FromStr`] reads exactly that back without a position — a
/// host stores choices it has checked, and checks a choice it reads
/// against the game it plays in ([`crate::SyncGame::check_choice`]); a
/// player's text in a position is read by [`crate::record::parse_choice`].
///
/// ```
/// use tempo_sync::Choice;
///
/// for text in ["e2e4", "xd8d5", "-", "e7e8q", "e1h1"] {
///     let choice: Choice = text.parse()?;
///     assert_eq!(choice.to_string(), text);
///     assert_eq!(serde_json::to_string(&choice)?, format!("\"{text}\""));
/// }
/// assert!("e2".parse::<Choice>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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

impl FromStr for Choice {
    type Err = ChoiceError;

    /// Reads what [`Choice`]'s `Display` writes.
    fn from_str(text: &str) -> Result<Choice, ChoiceError> {
        let uci_move = |text: &str| -> Result<Move, ChoiceError> {
            let uci: Uci = text.parse()?;
            Ok(Move::new(uci.from, uci.to, uci.promotion))
        };
        match text.strip_prefix('x') {
            _ if text == "-" => Ok(Choice::Decline),
            Some(capture) => Ok(Choice::Capture(uci_move(capture)?)),
            None => Ok(Choice::Move(uci_move(text)?)),
        }
    }
}

impl Serialize for Choice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Choice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Choice, D::Error> {
        struct Text;
        impl serde::de::Visitor<'_> for Text {
            type Value = Choice;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a choice: a UCI move, x and a UCI move, or -")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Choice, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Text)
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
