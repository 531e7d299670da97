//! ICCF numeric notation: `5254` = e2e4, `57581` = e7e8=Q.
//!
//! Each square is two digits, file (a..h = 1..8) then rank (1..8): first
//! the origin, then the destination. A promotion adds a fifth digit:
//! 1 = queen, 2 = rook, 3 = bishop, 4 = knight.
//!
//! # Castling
//!
//! Castling is written as the king's move, as ICCF prescribes: `5171` for
//! White's O-O, `5131` for O-O-O, `5878` and `5838` for Black.
//!
//! **Chess960 convention (ours; ICCF defines none).** Castling is written
//! as the king's move from its square to its castling destination — the
//! g-file for g-castling (O-O), the c-file for c-castling (O-O-O) — e.g.
//! `2171` for a king on b1 castling g-side. Two cases would then be
//! unclear, and there the castling is written as the king moving onto the
//! castling rook's square (king-takes-rook, as in UCI_Chess960):
//!
//! - the king already stands on its destination (only the rook moves):
//!   king g1, rook h1, O-O is `7181`, not the no-move `7171`;
//! - the destination is next to the king, so the same digits would also
//!   be an ordinary king step: king b1, rook a1, O-O-O is `2111`, because
//!   `2131` is the king's step b1-c1.
//!
//! Reading accepts both forms wherever they are unambiguous: the king
//! moving onto its own castling rook is always castling; the king moving
//! to its castling destination is castling unless that is an ordinary
//! legal king move. Orthodox castling is never affected (the king always
//! moves two files).
//!
//! ```
//! use tempo_chess::{Position, iccf};
//!
//! let pos = Position::new();
//! let mv = iccf::parse(&pos, "5254")?;
//! assert_eq!(mv.to_string(), "e2e4");
//! assert_eq!(iccf::write(&pos, mv), "5254");
//! # Ok::<(), tempo_chess::iccf::IccfError>(())
//! ```

use thiserror::Error;

use crate::{File, Move, Position, Rank, Role, Square};

/// What is wrong with an ICCF numeric move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IccfError {
    /// Not ICCF numeric syntax.
    #[error("invalid ICCF move '{text}': {reason}")]
    Syntax { text: String, reason: String },
    /// Well-formed but not legal here.
    #[error("illegal ICCF move '{text}' in position {fen}")]
    Illegal { text: String, fen: String },
}

/// The digits of a move: origin, destination, promotion.
type Digits = (Square, Square, Option<Role>);

fn promotion_digit(role: Role) -> char {
    match role {
        Role::Queen => '1',
        Role::Rook => '2',
        Role::Bishop => '3',
        _ => '4',
    }
}

fn square_digits(sq: Square) -> String {
    format!("{}{}", sq.file().index() + 1, sq.rank().index() + 1)
}

/// Writes `mv` (legal in `pos`) in ICCF numeric notation (see the module
/// docs for castling).
pub fn write(pos: &Position, mv: Move) -> String {
    let mut to = mv.to;
    if let Some(side) = pos.castling_side(mv) {
        let color = pos.color_at(mv.from).unwrap_or(pos.turn());
        let king_to = side.king_to(color);
        let distance = mv.from.file().index().abs_diff(king_to.file().index());
        if distance >= 2 {
            to = king_to;
        }
    }
    let mut text = square_digits(mv.from) + &square_digits(to);
    if let Some(role) = mv.promotion {
        text.push(promotion_digit(role));
    }
    text
}

/// Reads ICCF digits without a position.
pub fn parse_digits(text: &str) -> Result<(Square, Square, Option<Role>), IccfError> {
    let syntax = |reason: String| IccfError::Syntax {
        text: text.to_string(),
        reason,
    };
    let digits: Vec<char> = text.chars().collect();
    if !(4..=5).contains(&digits.len()) {
        return Err(syntax("expected 4 or 5 digits like 5254 or 57581".into()));
    }
    let coordinate = |i: usize| -> Result<u32, IccfError> {
        match digits[i].to_digit(10) {
            Some(d @ 1..=8) => Ok(d - 1),
            _ => Err(syntax(format!(
                "character {} '{}' is not a digit 1-8",
                i + 1,
                digits[i]
            ))),
        }
    };
    let square = |i: usize| -> Result<Square, IccfError> {
        let file = File::try_new(coordinate(i)?).expect("0..7");
        let rank = Rank::try_new(coordinate(i + 1)?).expect("0..7");
        Ok(Square::from_coords(file, rank))
    };
    let (from, to) = (square(0)?, square(2)?);
    let promotion = match digits.get(4) {
        None => None,
        Some('1') => Some(Role::Queen),
        Some('2') => Some(Role::Rook),
        Some('3') => Some(Role::Bishop),
        Some('4') => Some(Role::Knight),
        Some(c) => {
            return Err(syntax(format!(
                "promotion digit '{c}' (character 5) is not 1-4"
            )));
        }
    };
    Ok((from, to, promotion))
}

/// Reads an ICCF numeric move and finds the legal move it names in `pos`.
pub fn parse(pos: &Position, text: &str) -> Result<Move, IccfError> {
    let (from, to, promotion): Digits = parse_digits(text)?;
    let legal = pos.legal_moves();
    let literal = Move::new(from, to, promotion);
    let found = if legal.contains(&literal) {
        Some(literal)
    } else if promotion.is_none() {
        legal.iter().copied().find(|&mv| {
            mv.from == from
                && pos
                    .castling_side(mv)
                    .is_some_and(|side| side.king_to(pos.turn()) == to)
        })
    } else {
        None
    };
    found.ok_or_else(|| IccfError::Illegal {
        text: text.to_string(),
        fen: pos.to_fen(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orthodox() {
        let pos: Position = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        for (text, uci) in [
            ("5171", "e1h1"),
            ("5131", "e1a1"),
            ("27181", "b7a8q"),
            ("27284", "b7b8n"),
            ("1112", "a1a2"),
        ] {
            let mv = parse(&pos, text).unwrap();
            assert_eq!(mv.to_string(), uci);
            assert_eq!(write(&pos, mv), text);
        }
        for bad in ["", "525", "5259", "0254", "52545", "525412", "ab12"] {
            assert!(
                matches!(parse(&pos, bad), Err(IccfError::Syntax { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            parse(&pos, "5155"),
            Err(IccfError::Illegal { .. })
        ));
    }

    #[test]
    fn chess960_castling_convention() {
        // King g1, rook h1: only the rook moves -> king-takes-rook.
        let pos: Position = "1k6/8/8/8/8/8/8/R5KR w HA - 0 1".parse().unwrap();
        let castle = parse(&pos, "7181").unwrap();
        assert!(pos.is_castling(castle));
        assert_eq!(write(&pos, castle), "7181");
        // O-O-O: king g1 -> c1, written as the king's move.
        let long = parse(&pos, "7131").unwrap();
        assert_eq!(long.to_string(), "g1a1");
        assert_eq!(write(&pos, long), "7131");
        // King b1, rook a1: 2131 is the king's step, 2111 castles.
        let pos: Position = "1k6/8/8/8/8/8/8/RK5R w HA - 0 1".parse().unwrap();
        assert_eq!(parse(&pos, "2131").unwrap().to_string(), "b1c1");
        let castle = parse(&pos, "2111").unwrap();
        assert_eq!(write(&pos, castle), "2111");
    }
}
