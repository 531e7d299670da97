//! Attack sets of the pieces that do not slide (knight, king, pawn), in
//! tables indexed by the square's number, for
//! [`Position::attackers`](super::Position::attackers).
//!
//! Why not [`crate::attacks`]: cozy-chess's lookups take its own square
//! type, made from our index by a 64-arm `match`. LLVM usually folds that
//! `match` away, but where several lookups share one square it may sink
//! the table loads into the arms and keep a 64-way indirect jump on the
//! square (it did in `Position::attackers`, see docs/performance.md).
//! Indexing a table by the square's
//! number leaves nothing to switch on. The tables are `const`, not
//! `static`: a static of this crate used in another crate's code is
//! reached through the GOT, one more load per lookup. They hold the same
//! sets as cozy-chess's (filled from its `const fn`s; a test compares
//! them).
//!
//! Elsewhere `crate::attacks` stays: in the move generator the switch is
//! either not built or predicted well (the king square rarely changes
//! from one call to the next in perft), and these tables were no faster
//! there or in `Position::is_attacked` / `pinned_to`.

use crate::{Bitboard, Color, Square};

/// A table of 64 sets, one per square, from a cozy-chess lookup.
macro_rules! square_table {
    (|$sq:ident| $set:expr) => {{
        let mut table = [0u64; 64];
        let mut i = 0;
        while i < 64 {
            let $sq = cozy_chess::Square::index_const(i);
            table[i] = $set.0;
            i += 1;
        }
        table
    }};
}

const KNIGHT: [u64; 64] = square_table!(|sq| cozy_chess::get_knight_moves(sq));

const KING: [u64; 64] = square_table!(|sq| cozy_chess::get_king_moves(sq));

/// By colour index: the squares a pawn of that colour attacks.
const PAWN: [[u64; 64]; 2] = [
    square_table!(|sq| cozy_chess::get_pawn_attacks(sq, cozy_chess::Color::White)),
    square_table!(|sq| cozy_chess::get_pawn_attacks(sq, cozy_chess::Color::Black)),
];

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub(super) fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub(super) fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub(super) fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks;

    #[test]
    fn tables_equal_the_attack_functions() {
        for sq in Square::ALL {
            assert_eq!(knight(sq), attacks::knight_attacks(sq), "{sq}");
            assert_eq!(king(sq), attacks::king_attacks(sq), "{sq}");
            for color in Color::ALL {
                assert_eq!(pawn(color, sq), attacks::pawn_attacks(color, sq), "{sq}");
            }
        }
    }
}
