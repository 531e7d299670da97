//! The end-of-game tests at the start of a pair or an orthodox move:
//! checkmate, stalemate, dead position, 50 moves, repetition.

use tempo_chess::{Bitboard, Color, Position, Role, attacks};

use super::history::History;
use crate::outcome::{EndReason, Result as GameResult};

/// Dead position in simultaneous play: only the two kings remain. (With
/// simultaneous moves a lone king can capture a king that came next to it,
/// so king and minor piece against king is not dead; see the docs.)
pub(super) fn dead_simultaneous(pos: &Position) -> bool {
    pos.occupied() == pos.by_role(Role::King)
}

/// Orthodox end of game for the side to move.
pub(super) fn orthodox_end(
    pos: &Position,
    to_move: Color,
    history: &History,
) -> Option<(GameResult, EndReason)> {
    if pos.count_legal_moves_for(to_move) == 0 {
        return Some(if pos.is_in_check(to_move) {
            (GameResult::Win(!to_move), EndReason::Checkmate)
        } else {
            (GameResult::Draw, EndReason::Stalemate)
        });
    }
    if tempo_chess::is_insufficient_material(pos) {
        return Some((GameResult::Draw, EndReason::InsufficientMaterial));
    }
    if pos.halfmove_clock() >= 100 {
        return Some((GameResult::Draw, EndReason::FiftyMoves));
    }
    if history.occurs_thrice(pos.hash()) {
        return Some((GameResult::Draw, EndReason::Repetition));
    }
    None
}

/// S3 / C7 at the start of a pair: checkmate (one or both), stalemate,
/// dead position, 50 pairs, repetition.
pub(super) fn pair_end(
    pos: &Position,
    checked: &[bool; 2],
    mobile: [bool; 2],
    history: &History,
) -> Option<(GameResult, EndReason)> {
    let stuck =
        Color::ALL.map(|c| !mobile[c.index()] && !has_legal_move(pos, c, checked[c.index()]));
    let mated = [stuck[0] && checked[0], stuck[1] && checked[1]];
    match mated {
        [true, true] => return Some((GameResult::Draw, EndReason::DoubleCheckmate)),
        [true, false] => return Some((GameResult::Win(Color::Black), EndReason::Checkmate)),
        [false, true] => return Some((GameResult::Win(Color::White), EndReason::Checkmate)),
        [false, false] => {}
    }
    if stuck[0] || stuck[1] {
        return Some((GameResult::Draw, EndReason::Stalemate));
    }
    if dead_simultaneous(pos) {
        return Some((GameResult::Draw, EndReason::InsufficientMaterial));
    }
    if pos.halfmove_clock() >= 100 {
        return Some((GameResult::Draw, EndReason::FiftyMoves));
    }
    if history.occurs_thrice(pos.hash()) {
        return Some((GameResult::Draw, EndReason::Repetition));
    }
    None
}

/// Whether `color` has a legal move: a quick look for an unpinned knight,
/// slider or pawn with a free square (legal when not in check), then for
/// a king step to a safe square, else a full count.
pub(super) fn has_legal_move(pos: &Position, color: Color, in_check: bool) -> bool {
    let Some(king) = pos.king(color) else {
        return pos.count_legal_moves_for(color) > 0;
    };
    let paused = pos.paused();
    let own = pos.by_color(color);
    if !in_check {
        let movable = own & !paused;
        // Only pieces on a line through the king can be pinned: the
        // others are looked at first, without computing pins.
        let lines = attacks::bishop_rays(king) | attacks::rook_rays(king);
        if can_step(pos, color, movable & !lines)
            || can_step(pos, color, movable & lines & !pos.pinned(color))
        {
            return true;
        }
    }
    // A king step to a square not attacked (the king itself taken off the
    // board) is legal, in check or not.
    if !paused.contains(king) {
        let without_king = pos.occupied().without(king);
        for sq in attacks::king_attacks(king) & !own {
            if !pos.is_attacked(sq, !color, without_king) {
                return true;
            }
        }
    }
    pos.count_legal_moves_for(color) > 0
}

/// Whether a pawn, knight or slider of `color` on `pieces` has a square
/// to go to: a single step onto an empty square, a square not held by an
/// own piece (a legal move when `color` is not in check and none of
/// `pieces` is pinned).
fn can_step(pos: &Position, color: Color, pieces: Bitboard) -> bool {
    let own = pos.by_color(color);
    let occupied = pos.occupied();
    let pawns = pieces & pos.by_role(Role::Pawn);
    if (pawns.forward(color) & !occupied).any() {
        return true;
    }
    for sq in pieces & pos.by_role(Role::Knight) {
        if (attacks::knight_attacks(sq) & !own).any() {
            return true;
        }
    }
    let queens = pos.by_role(Role::Queen);
    for sq in pieces & (pos.by_role(Role::Bishop) | queens) {
        if (attacks::bishop_attacks(sq, occupied) & !own).any() {
            return true;
        }
    }
    for sq in pieces & (pos.by_role(Role::Rook) | queens) {
        if (attacks::rook_attacks(sq, occupied) & !own).any() {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Variant};

    /// The quick test agrees with a full count on playout positions (with
    /// pauses, checks and few pieces).
    #[test]
    fn has_legal_move_agrees_with_count() {
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            for game in crate::playout::sample_pair_states(Rules::new(variant), 4000, 5) {
                let pos = game.position();
                for color in Color::ALL {
                    assert_eq!(
                        has_legal_move(pos, color, pos.is_in_check(color)),
                        pos.count_legal_moves_for(color) > 0,
                        "{}",
                        crate::notation::write(&game)
                    );
                }
            }
        }
    }
}
