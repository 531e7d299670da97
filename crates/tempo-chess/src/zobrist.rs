//! Zobrist keys (fixed, generated at compile time by SplitMix64 so hashes
//! are stable across runs and builds).

use crate::{Bitboard, Color, Role, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, key) = splitmix64(state);
        state = next;
        out[i] = key;
        i += 1;
    }
    out
}

/// One key per colour, role and square: index `(color * 6 + role) * 64 + sq`.
static PIECE_KEYS: [u64; 768] = keys(0x7465_6d70_6f01);
/// One key per square for a castling rook there.
static CASTLING_KEYS: [u64; 64] = keys(0x7465_6d70_6f02);
/// One key per square for an en-passant square there.
static EN_PASSANT_KEYS: [u64; 64] = keys(0x7465_6d70_6f03);
/// One key per square for a paused (barred) piece there, then a 0 for
/// "no square" (index 64, a trailing-zero count of an empty set: see
/// [`paused_xor`]).
static PAUSED_KEYS: [u64; 65] = {
    // The first 64 of 65 keys are those of `keys::<64>` (one sequence).
    let mut keys = keys::<65>(0x7465_6d70_6f04);
    keys[64] = 0;
    keys
};
/// XORed in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = keys::<1>(0x7465_6d70_6f05)[0];

#[inline(always)]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[(color.index() * 6 + role.index()) * 64 + sq.index()]
}

#[inline(always)]
pub(crate) fn castling(rook: Square) -> u64 {
    CASTLING_KEYS[rook.index()]
}

#[inline(always)]
pub(crate) fn en_passant(sq: Square) -> u64 {
    EN_PASSANT_KEYS[sq.index()]
}

#[inline(always)]
pub(crate) fn paused(sq: Square) -> u64 {
    PAUSED_KEYS[sq.index()]
}

/// The XOR of the paused keys of `squares`. The first four squares are
/// taken without a loop exit or select (an absent square reads the 0 at
/// index 64), so the few squares by which Fairschach's paused set changes
/// at every pair leave no branch to mispredict.
#[inline(always)]
pub(crate) fn paused_xor(squares: Bitboard) -> u64 {
    let mut bits = squares.0;
    let mut hash = 0;
    for _ in 0..4 {
        hash ^= PAUSED_KEYS[bits.trailing_zeros() as usize];
        bits &= bits.wrapping_sub(1);
    }
    for sq in Bitboard(bits) {
        hash ^= paused(sq);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `paused_xor` equals the square-by-square XOR for sets of every
    /// size (the unrolled first four and the loop after them).
    #[test]
    fn paused_xor_matches_each_square() {
        let mut seed = 7u64;
        for size in 0..=12 {
            for _ in 0..50 {
                let mut squares = Bitboard::EMPTY;
                while squares.count() < size {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    squares |= Square::new_masked((seed >> 58) as u32);
                }
                let expected = squares.into_iter().fold(0, |h, sq| h ^ paused(sq));
                assert_eq!(paused_xor(squares), expected, "{squares:?}");
            }
        }
        let all = Bitboard::FULL.into_iter().fold(0, |h, sq| h ^ paused(sq));
        assert_eq!(paused_xor(Bitboard::FULL), all);
    }
}
