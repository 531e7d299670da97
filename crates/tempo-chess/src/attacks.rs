//! Attack sets of the pieces, taken from cozy-chess's tables.
//!
//! The functions convert our [`Square`] and [`Bitboard`] to cozy-chess's at
//! no cost (same index layout) and back.

use crate::{Bitboard, Color, Role, Square};

/// Squares a rook on `sq` attacks when `occupied` squares block.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard::from_cozy(cozy_chess::get_rook_moves(sq.cozy(), occupied.cozy()))
}

/// Squares a bishop on `sq` attacks when `occupied` squares block.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard::from_cozy(cozy_chess::get_bishop_moves(sq.cozy(), occupied.cozy()))
}

/// Squares a queen on `sq` attacks when `occupied` squares block.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard::from_cozy(cozy_chess::get_knight_moves(sq.cozy()))
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard::from_cozy(cozy_chess::get_king_moves(sq.cozy()))
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    let color = match color {
        Color::White => cozy_chess::Color::White,
        Color::Black => cozy_chess::Color::Black,
    };
    Bitboard::from_cozy(cozy_chess::get_pawn_attacks(sq.cozy(), color))
}

/// Squares a rook attacks from `sq` on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard::from_cozy(cozy_chess::get_rook_rays(sq.cozy()))
}

/// Squares a bishop attacks from `sq` on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard::from_cozy(cozy_chess::get_bishop_rays(sq.cozy()))
}

/// Squares strictly between `a` and `b` if they share a line (rank, file
/// or diagonal), else the empty set.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard::from_cozy(cozy_chess::get_between_rays(a.cozy(), b.cozy()))
}

/// The whole line (edge to edge) through `a` and `b` if they share one,
/// else the empty set.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard::from_cozy(cozy_chess::get_line_rays(a.cozy(), b.cozy()))
}

/// Squares a piece of `color` and `role` on `sq` attacks.
pub fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_geometry() {
        assert_eq!(
            knight_attacks(Square::A1),
            Bitboard::from(Square::B3) | Square::C2
        );
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from(Square::D5) | Square::F5
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::E4),
            Bitboard::from(Square::D3) | Square::F3
        );
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from(Square::B2) | Square::C3
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert!(line(Square::A1, Square::C3).contains(Square::H8));
        let blockers = Bitboard::from(Square::E4);
        assert!(rook_attacks(Square::E1, blockers).contains(Square::E4));
        assert!(!rook_attacks(Square::E1, blockers).contains(Square::E5));
        assert_eq!(king_attacks(Square::A1).count(), 3);
    }
}
