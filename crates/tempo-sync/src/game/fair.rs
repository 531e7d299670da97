//! Fairschach's own steps: the first-move sequence (FSR 6/7), en passant
//! (F-ep) and the pauses (FSR 9).

use tempo_chess::{Bitboard, Color, Move, Position, Role, attacks};

use super::end::has_legal_move_compact;
use crate::event::{Event, VoidReason};
use crate::rules::{PauseRule, SameSquareRule};
use crate::step::{Step, execute};

/// F-ep: a pawn's double step gives the opponent an en-passant capture in
/// the next pair (only if legal there). The usual pair, without a double
/// step now or an en-passant square before, is told apart inline.
#[inline(always)]
pub(super) fn set_fair_en_passant(pos: &mut Position, double_steps: Bitboard) {
    if (double_steps | pos.en_passant_squares()).any() {
        set_en_passant_of(pos, double_steps);
    }
}

/// [`set_fair_en_passant`] when there is something to do.
#[inline(never)]
fn set_en_passant_of(pos: &mut Position, double_steps: Bitboard) {
    let mut ep = Bitboard::EMPTY;
    for sq in double_steps {
        if let Some(color) = pos.color_at(sq)
            && let Some(skipped) = sq.offset(0, color.fold(-1, 1))
            && !pos.occupied().contains(skipped)
        {
            ep = ep.with(skipped);
        }
    }
    pos.set_en_passant_squares(ep);
    keep_legal_en_passant(pos);
}

/// Keeps only en-passant squares on which the capturing side has a legal
/// capture (so that equal positions hash equally).
#[inline]
pub(super) fn keep_legal_en_passant(pos: &mut Position) {
    if pos.en_passant_squares().any() {
        keep_legal_stored_en_passant(pos);
    }
}

/// [`keep_legal_en_passant`] when squares are stored.
#[inline(never)]
fn keep_legal_stored_en_passant(pos: &mut Position) {
    let mut keep = Bitboard::EMPTY;
    for color in Color::ALL {
        // Only a pawn diagonally next to `ep` can capture there (looked
        // at one by one instead of listing every move).
        if let Some(ep) = pos.ep_square_for(color)
            && (attacks::pawn_attacks(!color, ep) & pos.by_color(color) & pos.by_role(Role::Pawn))
                .into_iter()
                .any(|from| {
                    let promotion = Bitboard::BACK_RANKS.contains(ep).then_some(Role::Queen);
                    let mv = Move::new(from, ep, promotion);
                    pos.is_en_passant(mv) && pos.is_legal_for(color, mv)
                })
        {
            keep = keep.with(ep);
        }
    }
    pos.set_en_passant_squares(keep);
}

/// FSR 9: the pieces that must pause in the next pair.
pub(super) fn pause_set(pos: &Position, rule: PauseRule, landed: &[Bitboard; 2]) -> Bitboard {
    let kings = pos.by_role(Role::King);
    let moved = (landed[0] | landed[1]) & pos.occupied() & !kings;
    match rule {
        PauseRule::None => Bitboard::EMPTY,
        PauseRule::EveryMovedPiece => moved,
        PauseRule::OnlyCapturable => {
            let mut free = pos.clone();
            free.set_paused(Bitboard::EMPTY);
            let mut capturable = Bitboard::EMPTY;
            for color in Color::ALL {
                for mv in free.legal_moves_for(color) {
                    if let Some((piece, sq)) = free.captured(mv)
                        && piece.color != color
                    {
                        capturable = capturable.with(sq);
                    }
                }
            }
            moved & capturable
        }
    }
}

/// The paused set in force for a pair: FSR 9 lets every piece of a side
/// in check move; and (our decision) pauses never take away a side's last
/// legal moves.
///
/// `checked` says which sides are in check. Returns which sides were
/// found to have a legal move under the final paused set (their own
/// paused pieces alone decide that), so that the end-of-game test need
/// not look again.
#[inline]
pub(super) fn effective_pauses(pos: &mut Position, checked: &[bool; 2]) -> [bool; 2] {
    let mut mobile = [false; 2];
    let mut paused = pos.paused();
    if paused.is_empty() {
        return mobile;
    }
    for color in Color::ALL {
        let ours = pos.by_color(color);
        if (paused & ours).is_empty() {
            continue;
        }
        if checked[color.index()] {
            paused &= !ours;
            continue;
        }
        if has_legal_move_compact(pos, color, false) {
            mobile[color.index()] = true;
        } else {
            let mut free = pos.clone();
            free.set_paused(paused & !ours);
            if free.count_legal_moves_for(color) > 0 {
                paused &= !ours;
            }
        }
    }
    pos.set_paused(paused);
    mobile
}

/// FSR 6/7: the move of `first` (in check) is executed first, then the
/// opponent's if it is still legal; if not and the opponent is now in
/// check, its move is void and it gets a new parry (returned). Changes
/// `pos` in place, like [`execute`].
pub(super) fn first_move_sequence(
    pos: &mut Position,
    first: Color,
    moves: [Option<Move>; 2],
    rule: SameSquareRule,
    events: &mut Vec<Event>,
) -> (Step, Option<Color>) {
    let second = !first;
    events.push(Event::FirstMove { color: first });
    let ep_before = pos.en_passant_squares();
    // F-ep: the second player's en-passant right survives the first move
    // if the pawn still stands there (the pawn's square and the piece on
    // it before the first move).
    let ep_pawn = pos.ep_square_for(second).map(|ep| {
        let pawn = ep.offset(0, second.fold(-1, 1));
        (ep, pawn, pawn.and_then(|p| pos.piece_at(p)))
    });
    let mut only_first = [None, None];
    only_first[first.index()] = moves[first.index()];
    let step1 = execute(pos, only_first, rule, events);
    let ep = ep_pawn
        .filter(|&(ep, pawn, piece_before)| {
            !pos.occupied().contains(ep)
                && pawn.is_some_and(|p| {
                    piece_before == pos.piece_at(p) && pos.role_at(p) == Some(Role::Pawn)
                })
        })
        .map_or(Bitboard::EMPTY, |(ep, _, _)| Bitboard::from_square(ep));
    pos.set_en_passant_squares(ep);
    let mv2 = moves[second.index()].expect("both moves are entered");
    if pos.is_legal_for(second, mv2) {
        let mut only_second = [None, None];
        only_second[second.index()] = Some(mv2);
        let step2 = execute(pos, only_second, rule, events);
        let landed = [
            (step1.landed[0] | step2.landed[0]) & pos.by_color(Color::White),
            (step1.landed[1] | step2.landed[1]) & pos.by_color(Color::Black),
        ];
        let double_steps = (step1.double_steps | step2.double_steps) & pos.by_role(Role::Pawn);
        let step = Step {
            landed,
            vacated: step1.vacated | step2.vacated,
            irreversible: step1.irreversible || step2.irreversible,
            double_steps,
            voided: [false, false],
        };
        return (step, None);
    }
    let in_check = pos.is_in_check(second);
    events.push(Event::Voided {
        color: second,
        mv: mv2,
        reason: if in_check {
            VoidReason::DoesNotParry
        } else {
            VoidReason::NotExecutable
        },
    });
    // The state after the first move alone, with its en-passant squares.
    pos.set_en_passant_squares(ep_before);
    let mut step = step1;
    step.voided[second.index()] = true;
    (step, in_check.then_some(second))
}
