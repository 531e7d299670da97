//! Every attack table against cozy-chess's (an independent implementation,
//! a dev-dependency only): all squares and pairs of squares, and the
//! sliding pieces for many random occupancies per square.

use cozy_chess::{BitBoard, Color as CozyColor, Square as CozySquare};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempo_chess::{Bitboard, Color, Square, attacks};

fn cozy(sq: Square) -> CozySquare {
    CozySquare::index(sq.index())
}

#[test]
fn leapers_and_rays_agree_with_cozy_chess() {
    for sq in Square::ALL {
        let c = cozy(sq);
        assert_eq!(
            attacks::knight_attacks(sq).0,
            cozy_chess::get_knight_moves(c).0,
            "{sq}"
        );
        assert_eq!(
            attacks::king_attacks(sq).0,
            cozy_chess::get_king_moves(c).0,
            "{sq}"
        );
        for (color, cozy_color) in [
            (Color::White, CozyColor::White),
            (Color::Black, CozyColor::Black),
        ] {
            assert_eq!(
                attacks::pawn_attacks(color, sq).0,
                cozy_chess::get_pawn_attacks(c, cozy_color).0,
                "{color:?} {sq}"
            );
        }
        assert_eq!(
            attacks::rook_rays(sq).0,
            cozy_chess::get_rook_rays(c).0,
            "{sq}"
        );
        assert_eq!(
            attacks::bishop_rays(sq).0,
            cozy_chess::get_bishop_rays(c).0,
            "{sq}"
        );
    }
}

#[test]
fn between_and_line_agree_with_cozy_chess() {
    for a in Square::ALL {
        for b in Square::ALL {
            assert_eq!(
                attacks::between(a, b).0,
                cozy_chess::get_between_rays(cozy(a), cozy(b)).0,
                "{a} {b}"
            );
            assert_eq!(
                attacks::line(a, b).0,
                cozy_chess::get_line_rays(cozy(a), cozy(b)).0,
                "{a} {b}"
            );
        }
    }
}

/// Random occupancies of several densities (sparse ones reach the far
/// squares, dense ones the near blockers), 4,000 per square.
#[test]
fn sliders_agree_with_cozy_chess() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x51d3);
    for sq in Square::ALL {
        let c = cozy(sq);
        for i in 0..4000 {
            let occupied = match i % 4 {
                0 => rng.random::<u64>(),
                1 => rng.random::<u64>() & rng.random::<u64>(),
                2 => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
                _ => rng.random::<u64>() | rng.random::<u64>(),
            };
            let ours = Bitboard(occupied);
            let theirs = BitBoard(occupied);
            assert_eq!(
                attacks::rook_attacks(sq, ours).0,
                cozy_chess::get_rook_moves(c, theirs).0,
                "{sq} {occupied:#x}"
            );
            assert_eq!(
                attacks::bishop_attacks(sq, ours).0,
                cozy_chess::get_bishop_moves(c, theirs).0,
                "{sq} {occupied:#x}"
            );
            assert_eq!(
                attacks::queen_attacks(sq, ours).0,
                (cozy_chess::get_rook_moves(c, theirs) | cozy_chess::get_bishop_moves(c, theirs)).0,
                "{sq} {occupied:#x}"
            );
        }
    }
}
