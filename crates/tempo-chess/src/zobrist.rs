//! Zobrist keys (fixed, generated at compile time by SplitMix64 so hashes
//! are stable across runs and builds).

use crate::{Color, Role, Square};

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
/// One key per square for a paused (barred) piece there.
static PAUSED_KEYS: [u64; 64] = keys(0x7465_6d70_6f04);
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
