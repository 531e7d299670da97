//! Executing up to one move per colour at the same moment (C4, C5, S1,
//! FSR 3-5). A single move is the same operation with the other colour
//! idle, so first-move sequences (FSR 6), exchange captures (S5) and
//! orthodox moves (FSR 8) share this code.

use tempo_chess::{Bitboard, Color, Move, Piece, Position, Role, Square};

use crate::event::{Event, VoidReason};
use crate::rules::{SameSquareRule, strength};

/// One piece going from one square to another (a castling is two).
#[derive(Debug, Clone, Copy)]
struct Movement {
    color: Color,
    role: Role,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    /// The square of the opposing piece this movement would capture if
    /// that piece stays (differs from `to` for en passant).
    target: Option<Square>,
    castling: bool,
}

/// The movements of `mv` (legal for `color` in `pos`).
fn movements(pos: &Position, color: Color, mv: Move) -> [Option<Movement>; 2] {
    let role = pos.role_at(mv.from).unwrap_or(Role::Pawn);
    if let Some(side) = pos.castling_side(mv) {
        let king = Movement {
            color,
            role: Role::King,
            from: mv.from,
            to: side.king_to(color),
            promotion: None,
            target: None,
            castling: true,
        };
        let rook = Movement {
            color,
            role: Role::Rook,
            from: mv.to,
            to: side.rook_to(color),
            promotion: None,
            target: None,
            castling: true,
        };
        // A Chess960 king or rook already on its castling square does
        // not move.
        return [
            (king.from != king.to).then_some(king),
            (rook.from != rook.to).then_some(rook),
        ];
    }
    let target = pos.captured(mv).map(|(_, sq)| sq);
    [
        Some(Movement {
            color,
            role,
            from: mv.from,
            to: mv.to,
            promotion: mv.promotion,
            target,
            castling: false,
        }),
        None,
    ]
}

/// What a step did, beyond its events.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    /// The position after the step: board and castling rights updated;
    /// turn, clocks, en passant and paused set untouched.
    pub pos: Position,
    /// The squares where moved pieces of each colour ended.
    pub landed: [Bitboard; 2],
    /// Squares left by moving pieces.
    pub vacated: Bitboard,
    /// A capture (or collision removal) happened or a pawn moved.
    pub irreversible: bool,
    /// Destinations of pawn double steps that ended there.
    pub double_steps: Bitboard,
    /// The move of this colour was voided (FSR 4 alternative).
    pub voided: [bool; 2],
}

/// Executes `moves[White]` and `moves[Black]` (each legal for its colour
/// in `pos`, either may be absent) at the same moment.
pub(crate) fn execute(
    pos: &Position,
    moves: [Option<Move>; 2],
    rule: SameSquareRule,
    events: &mut Vec<Event>,
) -> Step {
    let mut ms = [[None; 2]; 2];
    for color in Color::ALL {
        if let Some(mv) = moves[color.index()] {
            ms[color.index()] = movements(pos, color, mv);
        }
    }
    let mut voided = [false; 2];
    if rule == SameSquareRule::WeakerStays
        && let Some((w, b)) = collision(&ms)
        && strength(w.role) != strength(b.role)
    {
        // FSR 4, alternative: the weaker piece forgoes its whole move.
        let weaker = if strength(w.role) < strength(b.role) {
            Color::White
        } else {
            Color::Black
        };
        if let Some(mv) = moves[weaker.index()] {
            events.push(Event::Voided {
                color: weaker,
                mv,
                reason: VoidReason::WeakerStays,
            });
        }
        ms[weaker.index()] = [None, None];
        voided[weaker.index()] = true;
    }
    // The movements in one flat array (White's first), walked several
    // times below.
    let mut flat = [None::<Movement>; 4];
    let mut count = 0;
    for m in ms.iter().flatten().flatten() {
        flat[count] = Some(*m);
        count += 1;
    }
    let all = || flat[..count].iter().flatten();
    let vacated: Bitboard = all().map(|m| m.from).collect();

    for m in all() {
        events.push(Event::Moved {
            color: m.color,
            role: m.role,
            from: m.from,
            to: m.to,
            promotion: m.promotion,
            castling: m.castling,
        });
    }

    // Same-square collisions (S1 / FSR 4): at most one, since the only
    // two-piece move, castling, stays on its own back rank.
    let mut removed_by_color = [Bitboard::EMPTY; 2];
    let mut irreversible = false;
    if let Some((w, b)) = collision(&ms) {
        let (white_removed, black_removed) = match rule {
            SameSquareRule::BothCaptured => (true, true),
            _ => {
                let (sw, sb) = (strength(w.role), strength(b.role));
                (sw <= sb, sb <= sw)
            }
        };
        if white_removed {
            removed_by_color[0] = removed_by_color[0].with(w.to);
        }
        if black_removed {
            removed_by_color[1] = removed_by_color[1].with(b.to);
        }
        irreversible = true;
        events.push(Event::Collision {
            square: w.to,
            white: w.role,
            black: b.role,
            white_removed,
            black_removed,
        });
    }

    let mut next = pos.clone();
    for m in all() {
        next.remove(m.from);
    }

    // Swaps (C5): two pieces each moving onto the other's square.
    let mut swapped = Bitboard::EMPTY;
    for w in ms[0].iter().flatten() {
        for b in ms[1].iter().flatten() {
            if w.to == b.from && b.to == w.from {
                swapped = swapped.with(w.from).with(b.from);
                events.push(Event::Swap {
                    white_from: w.from,
                    black_from: b.from,
                });
            }
        }
    }

    let mut landed = [Bitboard::EMPTY; 2];
    let mut double_steps = Bitboard::EMPTY;
    let mut captured_squares = Bitboard::EMPTY;
    for m in all() {
        if m.role == Role::Pawn {
            irreversible = true;
        }
        if removed_by_color[m.color.index()].contains(m.to) {
            continue;
        }
        if let Some(target) = m.target
            && pos.color_at(target) == Some(!m.color)
        {
            if vacated.contains(target) {
                // The opposing piece left: nothing is captured (C5).
                if !swapped.contains(target) {
                    events.push(Event::Evaded {
                        color: m.color,
                        square: target,
                    });
                }
            } else if let Some(piece) = next.remove(target) {
                irreversible = true;
                captured_squares = captured_squares.with(target);
                events.push(Event::Captured {
                    color: piece.color,
                    role: piece.role,
                    square: target,
                });
            }
        }
        next.put(m.to, Piece::new(m.color, m.promotion.unwrap_or(m.role)));
        landed[m.color.index()] = landed[m.color.index()].with(m.to);
        if m.role == Role::Pawn && m.from.rank().index().abs_diff(m.to.rank().index()) == 2 {
            double_steps = double_steps.with(m.to);
        }
    }

    let mut rights = pos.castling_rights();
    for m in all() {
        if m.role == Role::King {
            rights.clear(m.color);
        }
    }
    for color in Color::ALL {
        if let Some(mv) = moves[color.index()]
            && !voided[color.index()]
            && pos.is_castling(mv)
        {
            rights.clear(color);
        }
    }
    for sq in vacated | captured_squares {
        rights.discard_rook(sq);
    }
    next.set_castling_rights(rights);

    Step {
        pos: next,
        landed,
        vacated,
        irreversible,
        double_steps,
        voided,
    }
}

/// The White and Black movements that end on the same square, if any.
fn collision(ms: &[[Option<Movement>; 2]; 2]) -> Option<(Movement, Movement)> {
    for w in ms[0].iter().flatten() {
        for b in ms[1].iter().flatten() {
            if w.to == b.to {
                return Some((*w, *b));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    fn mv(text: &str) -> Move {
        let from: Square = text[0..2].parse().unwrap();
        let to: Square = text[2..4].parse().unwrap();
        let promotion = text[4..].chars().next().and_then(Role::from_char);
        Move::new(from, to, promotion)
    }

    #[test]
    fn swap_keeps_both_pieces() {
        let p = pos("4k3/8/8/3b4/4B3/8/8/4K3 w - - 0 1");
        let mut events = Vec::new();
        let step = execute(
            &p,
            [Some(mv("e4d5")), Some(mv("d5e4"))],
            SameSquareRule::BothCaptured,
            &mut events,
        );
        assert_eq!(step.pos.board_fen(), "4k3/8/8/3B4/4b3/8/8/4K3");
        assert!(!step.irreversible);
        assert!(events.iter().any(|e| matches!(e, Event::Swap { .. })));
    }

    #[test]
    fn capture_of_leaving_piece_captures_nothing() {
        let p = pos("4k3/8/8/3n4/4B3/8/8/4K3 w - - 0 1");
        let mut events = Vec::new();
        let step = execute(
            &p,
            [Some(mv("e4d5")), Some(mv("d5b4"))],
            SameSquareRule::BothCaptured,
            &mut events,
        );
        assert_eq!(step.pos.board_fen(), "4k3/8/8/3B4/1n6/8/8/4K3");
        assert!(events.contains(&Event::Evaded {
            color: Color::White,
            square: Square::D5
        }));
    }
}
