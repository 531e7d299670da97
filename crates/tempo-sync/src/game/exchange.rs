//! Synchronschach's exchange phase (S5-S7): who may capture on the squares
//! just entered, and with which pieces.

use tempo_chess::{Bitboard, Color, Move, MoveList, Position, Role, Square};

use super::mobility::Mobility;
use crate::phase::Exchange;

/// The legal captures of `color` onto `square` with pieces that have not
/// moved in the exchange phase (S5, S7).
pub(super) fn exchange_captures(
    pos: &Position,
    color: Color,
    square: Square,
    moved: Bitboard,
) -> MoveList {
    let mut list = MoveList::new();
    if pos.color_at(square) != Some(!color) {
        return list;
    }
    // Only pieces attacking the square can capture there (no en passant
    // in Synchronschach); each candidate is checked for legality, the
    // same for every promotion role.
    let candidates = pos.attackers(square, color, pos.occupied()) & !moved & !pos.paused();
    for from in candidates {
        if !capture_is_legal(pos, color, from, square) {
            continue;
        }
        let promotes =
            pos.role_at(from) == Some(Role::Pawn) && Bitboard::BACK_RANKS.contains(square);
        if promotes {
            for role in Role::PROMOTIONS {
                list.push(Move::new(from, square, Some(role)));
            }
        } else {
            list.push(Move::new(from, square, None));
        }
    }
    list
}

/// Whether `color` has a legal capture onto `square` with a piece not in
/// `moved` (without listing them).
#[inline(never)]
pub(super) fn can_capture_on(
    pos: &Position,
    color: Color,
    square: Square,
    moved: Bitboard,
) -> bool {
    if pos.color_at(square) != Some(!color) {
        return false;
    }
    let candidates = pos.attackers(square, color, pos.occupied()) & !moved & !pos.paused();
    candidates
        .into_iter()
        .any(|from| capture_is_legal(pos, color, from, square))
}

/// Whether `color`'s piece on `from`, attacking the opposing piece on
/// `square`, may capture it: whether `color`'s king is safe afterwards
/// (the same answer as [`Position::is_legal_for`] for such a capture,
/// without generating moves).
#[inline]
fn capture_is_legal(pos: &Position, color: Color, from: Square, square: Square) -> bool {
    let Some(king) = pos.king(color) else {
        let promotion = (pos.role_at(from) == Some(Role::Pawn)
            && Bitboard::BACK_RANKS.contains(square))
        .then_some(Role::Queen);
        return pos.is_legal_for(color, Move::new(from, square, promotion));
    };
    // `square` stays occupied (by the capturing piece); the captured
    // piece no longer attacks.
    let occupied = pos.occupied().without(from);
    if king == from {
        pos.attackers(square, !color, occupied).is_empty()
    } else {
        (pos.attackers(king, !color, occupied) & !Bitboard::from_square(square)).is_empty()
    }
}

/// S5/S6: after the pair, each side may capture on the square the
/// opponent's moved piece entered if that square was attacked or defended
/// by the side before the pair (in `pre`, as `mobility` finds out) and a
/// legal capture onto it exists now.
pub(super) fn exchange_rights(
    pre: &Position,
    post: &Position,
    landed: &[Bitboard; 2],
    mobility: &impl Mobility,
) -> Option<Exchange> {
    // First the squares each side attacked before the pair (usually
    // none), so that the usual pair ends here, before any call.
    // Written out: `Color::ALL.map` with a closure is not inlined.
    let contested = [
        mobility.attacked_before(pre, landed[1], Color::White),
        mobility.attacked_before(pre, landed[0], Color::Black),
    ];
    if (contested[0] | contested[1]).is_empty() {
        return None;
    }
    let mut x = Exchange {
        white: None,
        black: None,
        moved: Bitboard::EMPTY,
    };
    for color in Color::ALL {
        for square in contested[color.index()] {
            if can_capture_on(post, color, square, Bitboard::EMPTY) {
                match color {
                    Color::White => x.white = Some(square),
                    Color::Black => x.black = Some(square),
                }
            }
        }
    }
    (x.white.is_some() || x.black.is_some()).then_some(x)
}

/// The squares of `squares` that `color` attacks in `pre`.
#[inline(always)]
pub(super) fn attacked_before(pre: &Position, squares: Bitboard, color: Color) -> Bitboard {
    let occupied = pre.occupied();
    let mut attacked = Bitboard::EMPTY;
    for square in squares {
        if pre.is_attacked(square, color, occupied) {
            attacked |= square;
        }
    }
    attacked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Variant};

    /// The capture legality test agrees with the move generator on
    /// playout positions, for every capture of every piece.
    #[test]
    fn capture_legality_agrees_with_is_legal_for() {
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            for game in crate::playout::sample_pair_states(Rules::new(variant), 3000, 11) {
                let mut pos = game.position().clone();
                pos.set_paused(Bitboard::EMPTY);
                for color in Color::ALL {
                    for square in pos.by_color(!color) {
                        for from in pos.attackers(square, color, pos.occupied()) {
                            let promotion = (pos.role_at(from) == Some(Role::Pawn)
                                && Bitboard::BACK_RANKS.contains(square))
                            .then_some(Role::Queen);
                            assert_eq!(
                                capture_is_legal(&pos, color, from, square),
                                pos.is_legal_for(color, Move::new(from, square, promotion)),
                                "{} {from}{square}",
                                pos.to_fen()
                            );
                        }
                    }
                }
            }
        }
    }
}
