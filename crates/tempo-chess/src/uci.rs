//! UCI move notation: `e2e4`, `e7e8q`.
//!
//! Castling has two spellings. [`CastlingStyle::Standard`] writes the
//! king's two-square step (`e1g1`, `e8c8`) as UCI engines expect in
//! orthodox chess; [`CastlingStyle::Chess960`] writes the king taking its
//! own rook (`e1h1`, `b1a1`), as `UCI_Chess960` requires — the only
//! unambiguous form in Chess960. [`write()`] picks the style from
//! [`Position::is_chess960`].
//!
//! Reading accepts both spellings in every position, like lichess: a
//! king-takes-rook move is always castling; a king move onto the castling
//! destination is castling only when it is not an ordinary legal king
//! move (in Chess960 `b1c1` with a rook on a1 stays the king's step). The
//! null move `0000` is rejected with its own error.
//!
//! ```
//! use tempo_chess::{Position, uci::{self, CastlingStyle}};
//!
//! let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
//! let castle = uci::parse(&pos, "e1g1")?;
//! assert_eq!(castle, uci::parse(&pos, "e1h1")?);
//! assert_eq!(uci::write_with(&pos, castle, CastlingStyle::Standard), "e1g1");
//! assert_eq!(uci::write_with(&pos, castle, CastlingStyle::Chess960), "e1h1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::{Move, Position, Role, Square};

/// How castling is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingStyle {
    /// King to its destination square (`e1g1`): orthodox UCI.
    Standard,
    /// King takes own rook (`e1h1`): `UCI_Chess960`.
    Chess960,
}

/// A move in UCI syntax, not yet tied to a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Uci {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

/// What is wrong with a UCI move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UciError {
    /// Not UCI syntax.
    #[error("invalid UCI move '{uci}': {reason}")]
    Syntax { uci: String, reason: String },
    /// The null move `0000`, which a position cannot play.
    #[error("null move '0000' is not supported")]
    NullMove,
    /// Well-formed but not legal here.
    #[error("illegal UCI move '{uci}' in position {fen}")]
    Illegal { uci: String, fen: String },
}

/// Reads a UCI move and finds the legal move it names in `pos` (either
/// castling spelling).
pub fn parse(pos: &Position, text: &str) -> Result<Move, UciError> {
    let uci: Uci = text.parse()?;
    uci.to_move(pos).ok_or_else(|| UciError::Illegal {
        uci: text.to_string(),
        fen: pos.to_fen(),
    })
}

/// Writes `mv` (legal in `pos`) in the castling style of the position:
/// king-takes-rook for Chess960 positions, else the king's step.
pub fn write(pos: &Position, mv: Move) -> String {
    let style = if pos.is_chess960() {
        CastlingStyle::Chess960
    } else {
        CastlingStyle::Standard
    };
    write_with(pos, mv, style)
}

/// Writes `mv` (legal in `pos`) with the given castling style.
pub fn write_with(pos: &Position, mv: Move, style: CastlingStyle) -> String {
    Uci::from_move(pos, mv, style).to_string()
}

impl Uci {
    /// The UCI of `mv` in `pos`.
    fn from_move(pos: &Position, mv: Move, style: CastlingStyle) -> Uci {
        let to = match (style, pos.castling_side(mv)) {
            (CastlingStyle::Standard, Some(side)) => {
                side.king_to(pos.color_at(mv.from).unwrap_or(pos.turn()))
            }
            _ => mv.to,
        };
        Uci {
            from: mv.from,
            to,
            promotion: mv.promotion,
        }
    }

    /// The legal move of `pos` this names, if any (see the module docs for
    /// castling).
    pub fn to_move(self, pos: &Position) -> Option<Move> {
        let literal = Move::new(self.from, self.to, self.promotion);
        let legal = pos.legal_moves();
        if legal.contains(&literal) {
            return Some(literal);
        }
        if self.promotion.is_some() || self.from == self.to {
            return None;
        }
        legal.iter().copied().find(|&mv| {
            mv.from == self.from
                && pos
                    .castling_side(mv)
                    .is_some_and(|side| side.king_to(pos.turn()) == self.to)
        })
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(promotion) = self.promotion {
            write!(f, "{}", promotion.char())?;
        }
        Ok(())
    }
}

impl FromStr for Uci {
    type Err = UciError;

    fn from_str(text: &str) -> Result<Uci, UciError> {
        let syntax = |reason: &str| UciError::Syntax {
            uci: text.to_string(),
            reason: reason.to_string(),
        };
        if text == "0000" {
            return Err(UciError::NullMove);
        }
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax("expected 4 or 5 characters like e2e4 or e7e8q"));
        }
        let from: Square = text[0..2]
            .parse()
            .map_err(|_| syntax("invalid origin square (characters 1-2)"))?;
        let to: Square = text[2..4]
            .parse()
            .map_err(|_| syntax("invalid destination square (characters 3-4)"))?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => Some(
                Role::from_char(c)
                    .filter(|r| c.is_ascii_lowercase() && Role::PROMOTIONS.contains(r))
                    .ok_or_else(|| syntax("invalid promotion (character 5: q, r, b or n)"))?,
            ),
        };
        Ok(Uci {
            from,
            to,
            promotion,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_both_styles() {
        // Chess960: king b1, rook a1 — b1c1 is the king's step, b1a1 castles.
        let pos: Position = "1k6/8/8/8/8/8/8/RK5R w HA - 0 1".parse().unwrap();
        assert_eq!(parse(&pos, "b1c1").unwrap().to_string(), "b1c1");
        let castle = parse(&pos, "b1a1").unwrap();
        assert_eq!(
            pos.castling_side(castle),
            Some(crate::CastlingSide::QueenSide)
        );
        assert_eq!(write(&pos, castle), "b1a1");
        assert_eq!(parse(&pos, "b1g1").unwrap().to_string(), "b1h1");
    }

    #[test]
    fn errors() {
        let pos = Position::new();
        assert_eq!(parse(&pos, "0000"), Err(UciError::NullMove));
        assert!(matches!(parse(&pos, "e2e9"), Err(UciError::Syntax { .. })));
        assert!(matches!(parse(&pos, "e7e8k"), Err(UciError::Syntax { .. })));
        assert!(matches!(parse(&pos, "e2é4"), Err(UciError::Syntax { .. })));
        assert_eq!(
            parse(&pos, "e2e5").unwrap_err().to_string(),
            format!(
                "illegal UCI move 'e2e5' in position {}",
                crate::STARTING_FEN
            )
        );
    }
}
