//! Attack sets of the pieces, from tables built at compile time.
//!
//! Knight, king and pawn attacks, rays, `between` and `line` are `const`
//! tables computed by the `const fn`s of `geometry` (shared with the build
//! script). Rook and bishop attacks use magic bitboards: the build script
//! searches the multipliers and writes the attack table (`build.rs`), so
//! no lookup initialises anything at run time.
//!
//! The tables of one set per square and the magic entries are `const`,
//! not `static`: each codegen unit that uses a `const` gets its own copy,
//! addressed directly, while a `static` used from another codegen unit (or
//! crate) is reached through the GOT, one more load per lookup. The larger
//! tables are `static`, so the binary holds them once: `between` and
//! `line` (32 KB each) and the sliding table (about 860 KB), into which
//! the magic entries point (see `Magic`). docs/performance.md has the
//! measurements.

mod geometry;

use geometry::{
    BISHOP_DIRECTIONS, BLACK_PAWN_STEPS, KING_STEPS, KNIGHT_STEPS, PerSquare, ROOK_DIRECTIONS,
    WHITE_PAWN_STEPS, per_pair, per_square,
};

use crate::{Bitboard, Color, Square};

const KNIGHT: [u64; 64] = per_square(PerSquare::Leaps(&KNIGHT_STEPS));
const KING: [u64; 64] = per_square(PerSquare::Leaps(&KING_STEPS));
/// By colour index.
const PAWN: [[u64; 64]; 2] = [
    per_square(PerSquare::Leaps(&WHITE_PAWN_STEPS)),
    per_square(PerSquare::Leaps(&BLACK_PAWN_STEPS)),
];
const ROOK_RAYS: [u64; 64] = per_square(PerSquare::Rays(&ROOK_DIRECTIONS));
const BISHOP_RAYS: [u64; 64] = per_square(PerSquare::Rays(&BISHOP_DIRECTIONS));
static BETWEEN: [[u64; 64]; 64] = per_pair(false);
static LINE: [[u64; 64]; 64] = per_pair(true);

/// One square's entry of a magic table: the attacks of a slider on it are
/// `attacks[((occupied & mask) * magic >> SHIFT) & index_mask]`, with
/// `SHIFT` fixed per piece (a shift by a constant leaves `rcx` free, which
/// a shift by a variable amount takes on x86-64).
///
/// The entry points into the table instead of holding an offset into it:
/// the entries are `const`, so the pointer comes with them, and no lookup
/// loads the table's address from the GOT.
struct Magic {
    mask: u64,
    magic: u64,
    attacks: *const u64,
    index_mask: usize,
}

/// Where an entry's part of `SLIDER_ATTACKS` starts (`Magic::attacks`).
const fn table(offset: usize) -> *const u64 {
    SLIDER_ATTACKS.as_ptr().wrapping_add(offset)
}

// `ROOK_SHIFT`, `BISHOP_SHIFT`, `ROOK_MAGICS`, `BISHOP_MAGICS` and
// `SLIDER_ATTACKS`.
include!(concat!(env!("OUT_DIR"), "/sliders.rs"));

#[inline(always)]
fn slider_attacks<const SHIFT: u32>(
    magics: &[Magic; 64],
    sq: Square,
    occupied: Bitboard,
) -> Bitboard {
    let m = &magics[sq.index()];
    let index = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> SHIFT) as usize & m.index_mask;
    // SAFETY: `index` is at most `index_mask`, and the build script asserts
    // that `offset + index_mask` is below the table's length for the offset
    // of every entry.
    Bitboard(unsafe { *m.attacks.add(index) })
}

/// Squares a rook on `sq` attacks when `occupied` squares block.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider_attacks::<ROOK_SHIFT>(&ROOK_MAGICS, sq, occupied)
}

/// Squares a bishop on `sq` attacks when `occupied` squares block.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider_attacks::<BISHOP_SHIFT>(&BISHOP_MAGICS, sq, occupied)
}

/// Squares a queen on `sq` attacks when `occupied` squares block.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares a rook attacks from `sq` on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Squares a bishop attacks from `sq` on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// Squares strictly between `a` and `b` if they share a line (rank, file
/// or diagonal), else the empty set.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole line (edge to edge) through `a` and `b` if they share one,
/// else the empty set.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index()][b.index()])
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

    /// The magic lookups against walking the rays, on every subset of the
    /// relevant blockers plus random other pieces (which must not matter).
    #[test]
    fn magic_lookups_equal_ray_walking() {
        use rand::RngExt;
        use rand::SeedableRng;

        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        for sq in Square::ALL {
            let i = sq.index();
            for (magics, directions, lookup) in [
                (
                    &ROOK_MAGICS,
                    &ROOK_DIRECTIONS,
                    rook_attacks as fn(_, _) -> _,
                ),
                (&BISHOP_MAGICS, &BISHOP_DIRECTIONS, bishop_attacks),
            ] {
                let mask = geometry::relevant_blockers(i, directions);
                assert_eq!(magics[i].mask, mask, "{sq}");
                let mut subset = 0u64;
                loop {
                    let noise = rng.random::<u64>() & !mask;
                    let occupied = Bitboard(subset | noise);
                    let expected = geometry::slide(i, directions, occupied.0);
                    assert_eq!(lookup(sq, occupied).0, expected, "{sq} {occupied:?}");
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }
}
