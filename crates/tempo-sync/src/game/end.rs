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
    counted_draw(pos, history)
}

/// S3 / C7 at the start of a pair: checkmate (one or both), stalemate,
/// dead position, 50 pairs, repetition. `stuck` says which sides have no legal move
/// ([`Mobility::settle`](super::mobility::Mobility::settle)).
pub(super) fn pair_end(
    pos: &Position,
    checked: &[bool; 2],
    stuck: [bool; 2],
    history: &History,
) -> Option<(GameResult, EndReason)> {
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
    counted_draw(pos, history)
}

/// The draws both kinds of play share (C7): 50 moves (100 half-moves, or
/// 50 pairs counted two each) and threefold repetition.
fn counted_draw(pos: &Position, history: &History) -> Option<(GameResult, EndReason)> {
    if pos.halfmove_clock() >= 100 {
        return Some((GameResult::Draw, EndReason::FiftyMoves));
    }
    history
        .occurs_thrice(pos.hash())
        .then_some((GameResult::Draw, EndReason::Repetition))
}

/// Whether `color` has a legal move: a quick look for an unpinned knight,
/// slider or pawn with a free square (legal when not in check), then for
/// a king step to a safe square, else a full count. All inline but the
/// count: at the start of a pair, a lone king (common late in a game)
/// usually finds its first step safe.
#[inline(always)]
pub(super) fn has_legal_move(pos: &Position, color: Color, in_check: bool) -> bool {
    piece_can_step(pos, color, in_check) || king_can_step(pos, color)
}

/// [`has_legal_move`] with the king's steps out of line, for FSR 9's
/// pause test (in Fairschach's every pair, for each side with paused
/// pieces), so as not to grow its caller. Two entries because each
/// caller is measurably faster with its own (docs/performance.md, "One
/// function, two inlinings").
#[inline(always)]
pub(super) fn has_legal_move_compact(pos: &Position, color: Color, in_check: bool) -> bool {
    piece_can_step(pos, color, in_check) || king_can_step_outlined(pos, color)
}

/// The usual answer, found inline: an unpinned piece that can step, when
/// not in check.
#[inline(always)]
fn piece_can_step(pos: &Position, color: Color, in_check: bool) -> bool {
    if !in_check && let Some(king) = pos.king(color) {
        let movable = pos.by_color(color) & !pos.paused();
        return can_step(pos, color, movable & !pos.pinned_to(color, king));
    }
    false
}

/// [`king_can_step`] out of line.
#[inline(never)]
fn king_can_step_outlined(pos: &Position, color: Color) -> bool {
    king_can_step(pos, color)
}

/// [`has_legal_move`] when no pawn, knight or slider can step (or the
/// side is in check): a king step to a square not attacked (the king
/// itself taken off the board) is legal, in check or not; else a full
/// count.
#[inline(always)]
fn king_can_step(pos: &Position, color: Color) -> bool {
    let Some(king) = pos.king(color) else {
        return can_move_by_count(pos, color);
    };
    if !pos.paused().contains(king) {
        let without_king = pos.occupied().without(king);
        for sq in attacks::king_attacks(king) & !pos.by_color(color) {
            if !pos.is_attacked(sq, !color, without_king) {
                return true;
            }
        }
    }
    can_move_by_count(pos, color)
}

/// Whether `color` has a legal move, by the full count (rare: out of
/// line).
#[inline(never)]
fn can_move_by_count(pos: &Position, color: Color) -> bool {
    pos.count_legal_moves_for(color) > 0
}

/// Whether a pawn, knight or slider of `color` on `pieces` has a square
/// to go to: a single step onto an empty square, a square not held by an
/// own piece (a legal move when `color` is not in check and none of
/// `pieces` is pinned). A slider has one exactly if a neighbouring square
/// in one of its directions is not its side's, so the test is a few
/// shifts, without a loop over the pieces.
#[inline]
fn can_step(pos: &Position, color: Color, pieces: Bitboard) -> bool {
    let own = pos.by_color(color).0;
    let occupied = pos.occupied().0;
    let pieces = pieces.0;
    // The cheapest test first: a pawn push.
    let pawns = pieces & pos.by_role(Role::Pawn).0;
    if Bitboard(pawns).forward(color).0 & !occupied != 0 {
        return true;
    }
    let knights = pieces & pos.by_role(Role::Knight).0;
    if knights != 0 && knight_jumps(knights) & !own != 0 {
        return true;
    }
    let queens = pos.by_role(Role::Queen).0;
    let steps = diagonal_steps(pieces & (pos.by_role(Role::Bishop).0 | queens))
        | straight_steps(pieces & (pos.by_role(Role::Rook).0 | queens));
    steps & !own != 0
}

/// All squares but the a-file / the h-file.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The squares one step east / west of `b` (none off the board).
#[inline(always)]
fn east_west(b: u64) -> u64 {
    ((b << 1) & NOT_A) | ((b >> 1) & NOT_H)
}

/// The squares one rank or file away from a square of `b`.
#[inline(always)]
fn straight_steps(b: u64) -> u64 {
    (b << 8) | (b >> 8) | east_west(b)
}

/// The squares diagonally next to a square of `b`.
#[inline(always)]
fn diagonal_steps(b: u64) -> u64 {
    let sides = east_west(b);
    (sides << 8) | (sides >> 8)
}

/// The squares a knight on a square of `b` jumps to.
#[inline(always)]
fn knight_jumps(b: u64) -> u64 {
    let one = east_west(b);
    let two = ((b << 2) & 0xfcfc_fcfc_fcfc_fcfc) | ((b >> 2) & 0x3f3f_3f3f_3f3f_3f3f);
    (one << 16) | (one >> 16) | (two << 8) | (two >> 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_chess::Square;

    use crate::{Rules, Variant};

    /// The shift fills equal the attack tables square by square.
    #[test]
    fn step_fills_match_the_attack_tables() {
        for index in 0..64u32 {
            let sq = Square::new_masked(index);
            let b = Bitboard::from_square(sq).0;
            let king = attacks::king_attacks(sq).0;
            let diagonal = attacks::bishop_rays(sq).0 & king;
            assert_eq!(knight_jumps(b), attacks::knight_attacks(sq).0, "{sq}");
            assert_eq!(diagonal_steps(b), diagonal, "{sq}");
            assert_eq!(straight_steps(b), king & !diagonal, "{sq}");
        }
    }

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
