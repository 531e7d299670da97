//! Perft: counting the leaves of the legal move tree, the standard test of
//! move generation.

use crate::{Move, Position};

/// The number of leaf nodes of the legal move tree of `pos` to `depth`
/// plies. The last ply is counted in bulk (moves are counted, not played).
///
/// ```
/// use tempo_chess::{perft, Position};
/// assert_eq!(perft(&Position::new(), 3), 8902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &mv in moves.iter() {
                let mut child = pos.clone();
                child.play(mv);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// Perft split by root move: each legal move with the number of leaves
/// below it (`depth - 1` plies after it), in move-generation order.
///
/// ```
/// use tempo_chess::{divide, Position};
/// let split = divide(&Position::new(), 2);
/// assert_eq!(split.len(), 20);
/// assert!(split.iter().all(|&(_, nodes)| nodes == 20));
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| (mv, perft(&pos.played(mv), depth - 1)))
        .collect()
}
