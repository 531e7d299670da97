//! Executing up to one move per colour at the same moment (C4, C5, S1,
//! FSR 3-5). A single move is the same operation with the other colour
//! idle, so first-move sequences (FSR 6), exchange captures (S5) and
//! orthodox moves (FSR 8) share this code.

use tempo_chess::{Bitboard, CastlingSide, Color, Move, Piece, Position, Role, Square};

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
    /// that piece stays (differs from `to` for en passant), or nothing.
    target: Bitboard,
    castling: bool,
}

/// The movements of a step: White's first, then Black's (at most two
/// each).
struct Movements {
    list: [Movement; 4],
    len: usize,
    /// Where Black's movements start.
    black: usize,
}

impl Movements {
    #[inline]
    fn all(&self) -> &[Movement] {
        &self.list[..self.len]
    }

    #[inline]
    fn of(&self, color: Color) -> &[Movement] {
        match color {
            Color::White => &self.list[..self.black],
            Color::Black => &self.list[self.black..self.len],
        }
    }

    #[inline]
    fn push(&mut self, m: Movement) {
        self.list[self.len] = m;
        self.len += 1;
    }
}

impl Movement {
    /// A filler for unused slots.
    const NONE: Movement = Movement {
        color: Color::White,
        role: Role::Pawn,
        from: Square::A1,
        to: Square::A1,
        promotion: None,
        target: Bitboard::EMPTY,
        castling: false,
    };

    /// The squares this movement involves: where it starts, where it
    /// arrives and the opposing piece it would capture.
    #[inline(always)]
    fn squares(&self) -> Bitboard {
        Bitboard::from_square(self.from) | Bitboard::from_square(self.to) | self.target
    }

    /// The event reporting this movement.
    #[inline(always)]
    fn moved_event(&self) -> Event {
        Event::Moved {
            color: self.color,
            role: self.role,
            from: self.from,
            to: self.to,
            promotion: self.promotion,
            castling: self.castling,
        }
    }
}

/// The movement of `mv` (legal for `color` in `pos`) if it is a plain
/// one: starting on a piece of `color` and not arriving on one (so no
/// castling).
#[inline(always)]
fn plain_movement(pos: &Position, color: Color, mv: Move) -> Option<Movement> {
    // One branch for both tests (neither is usually true).
    if !pos.by_color(color).contains(mv.from) | is_castling(pos, color, mv) {
        return None;
    }
    Some(movement(pos, color, mv))
}

/// Whether `mv`, legal for `color` in `pos`, is a castling: the only
/// legal move that arrives on an own piece (a castling is written as the
/// king taking its own rook).
#[inline(always)]
fn is_castling(pos: &Position, color: Color, mv: Move) -> bool {
    pos.by_color(color).contains(mv.to)
}

/// The single movement of `mv`, a move of `color` that is no castling.
#[inline(always)]
fn movement(pos: &Position, color: Color, mv: Move) -> Movement {
    let role = pos.role_on(mv.from);
    let them = pos.by_color(!color);
    // The captured piece's square: en passant (a pawn's diagonal step to
    // an empty square, which is legal only onto an en-passant square)
    // takes the piece beside the pawn. The rarely true test first, the
    // rest without branches (whether a pawn moves is hard to predict).
    let en_passant = pos.en_passant_squares().contains(mv.to)
        && (role == Role::Pawn)
            & (mv.from.file() != mv.to.file())
            & !pos.occupied().contains(mv.to);
    let victim = if en_passant {
        Square::from_coords(mv.to.file(), mv.from.rank())
    } else {
        mv.to
    };
    let target = them & Bitboard::from_square(victim);
    Movement {
        color,
        role,
        from: mv.from,
        to: mv.to,
        promotion: mv.promotion,
        target,
        castling: false,
    }
}

/// Appends the movements of `mv` (legal for `color` in `pos`) to `out`;
/// returns whether `mv` is a castling. A move not starting on a piece of
/// `color` adds nothing.
fn push_movements(pos: &Position, color: Color, mv: Move, out: &mut Movements) -> bool {
    if !pos.by_color(color).contains(mv.from) {
        return false;
    }
    let castling = is_castling(pos, color, mv);
    if castling {
        push_castling(color, mv, out);
    } else {
        out.push(movement(pos, color, mv));
    }
    castling
}

/// The king's and the rook's movements of a castling (king takes own
/// rook) of `color`.
#[cold]
fn push_castling(color: Color, mv: Move, out: &mut Movements) {
    let side = CastlingSide::of_rook(mv.from, mv.to);
    let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
    // A Chess960 king or rook already on its castling square does not
    // move.
    for (role, from, to) in [(Role::King, mv.from, king_to), (Role::Rook, mv.to, rook_to)] {
        if from != to {
            out.push(Movement {
                color,
                role,
                from,
                to,
                promotion: None,
                target: Bitboard::EMPTY,
                castling: true,
            });
        }
    }
}

/// What a step did, beyond its events and the position it changed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
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
/// in `pos`, either may be absent) at the same moment, in place: the
/// board and castling rights of `pos` are updated; turn, clocks, en
/// passant and paused set are untouched.
pub(crate) fn execute(
    pos: &mut Position,
    moves: [Option<Move>; 2],
    rule: SameSquareRule,
    events: &mut Vec<Event>,
) -> Step {
    // The usual steps, one plain movement per moving side, the two
    // sharing no square, are two ordinary moves (C4); everything else
    // (collisions, swaps, evasions, castlings) takes the general way.
    match moves {
        [Some(w), Some(b)] => return execute_pair(pos, w, b, rule, events),
        [Some(w), None] => {
            if let Some(w) = plain_movement(pos, Color::White, w) {
                return execute_apart(pos, [w], events);
            }
        }
        [None, Some(b)] => {
            if let Some(b) = plain_movement(pos, Color::Black, b) {
                return execute_apart(pos, [b], events);
            }
        }
        [None, None] => {}
    }
    execute_general(pos, moves, rule, events)
}

/// [`execute`] with a move of each colour (a pair's usual step), the
/// moves taken as they are rather than as options.
#[inline(never)]
pub(crate) fn execute_pair(
    pos: &mut Position,
    white: Move,
    black: Move,
    rule: SameSquareRule,
    events: &mut Vec<Event>,
) -> Step {
    if let (Some(w), Some(b)) = (
        plain_movement(pos, Color::White, white),
        plain_movement(pos, Color::Black, black),
    ) && (w.squares() & b.squares()).is_empty()
    {
        return execute_apart(pos, [w, b], events);
    }
    execute_general(pos, [Some(white), Some(black)], rule, events)
}

/// Executes plain movements that share no square (a single move, or two
/// moves that neither collide nor meet on a square one of them leaves):
/// each is an ordinary move, capturing the opposing piece on its target.
#[inline(always)]
fn execute_apart<const N: usize>(
    pos: &mut Position,
    all: [Movement; N],
    events: &mut Vec<Event>,
) -> Step {
    let mut step = Step {
        landed: [Bitboard::EMPTY; 2],
        vacated: Bitboard::EMPTY,
        irreversible: false,
        double_steps: Bitboard::EMPTY,
        voided: [false; 2],
    };
    for m in &all {
        step.vacated |= m.from;
    }
    // One capacity check for all of them.
    events.extend(all.map(|m| m.moved_event()));
    let mut captured = Bitboard::EMPTY;
    for m in &all {
        if let Some(target) = m.target.first() {
            let piece = Piece::new(!m.color, pos.role_on(target));
            pos.toggle_piece(piece, target);
            captured |= target;
            events.push(Event::Captured {
                color: piece.color,
                role: piece.role,
                square: target,
            });
        }
        let arriving = m.promotion.unwrap_or(m.role);
        pos.move_piece(m.color, m.role, m.from, m.to, arriving);
        step.landed[m.color.index()] |= m.to;
        let pawn = m.role == Role::Pawn;
        step.irreversible |= pawn;
        if pawn & is_double_step(m.from, m.to) {
            step.double_steps |= m.to;
        }
    }
    step.irreversible |= captured.any();
    if !pos.castling_rights().is_empty() {
        update_castling_rights(pos, kings_moved(&all), step.vacated | captured);
    }
    step
}

/// Which colours move their king in `movements` (they lose their
/// castling rights).
#[inline]
fn kings_moved(movements: &[Movement]) -> [bool; 2] {
    let mut moved = [false; 2];
    for m in movements {
        moved[m.color.index()] |= m.role == Role::King;
    }
    moved
}

/// Whether a (legal) pawn move from `from` to `to` is a double step. Of
/// all pawn moves only those keep the file and join the rank indices 1
/// and 3 (6 and 4 for Black), so only their square indices differ in
/// exactly bit 4 (one comparison instead of two rank computations).
#[inline(always)]
fn is_double_step(from: Square, to: Square) -> bool {
    from.index() ^ to.index() == 16
}

/// [`execute`] for any shape: castlings, collisions (where the
/// same-square rule decides, `WeakerStays` voiding a move), swaps and
/// evasions.
#[inline(never)]
fn execute_general(
    pos: &mut Position,
    moves: [Option<Move>; 2],
    rule: SameSquareRule,
    events: &mut Vec<Event>,
) -> Step {
    let mut ms = Movements {
        list: [Movement::NONE; 4],
        len: 0,
        black: 0,
    };
    let mut castled = [false; 2];
    if let Some(mv) = moves[0] {
        castled[0] = push_movements(pos, Color::White, mv, &mut ms);
    }
    ms.black = ms.len;
    if let Some(mv) = moves[1] {
        castled[1] = push_movements(pos, Color::Black, mv, &mut ms);
    }
    let mut voided = [false; 2];
    if rule == SameSquareRule::WeakerStays {
        voided = weaker_stays(&mut ms, moves, events);
    }
    apply(pos, ms.all(), ms.black, castled, voided, rule, events)
}

/// The castling rights after a step: a colour whose king moved (or that
/// castled) loses both, a rook that left its square or was captured
/// loses its own (`left`: the squares emptied by the step's movements
/// and captures).
#[inline(never)]
fn update_castling_rights(pos: &mut Position, lose_all: [bool; 2], left: Bitboard) {
    let before = pos.castling_rights();
    let mut rights = before;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            let lost = before
                .rook(color, side)
                .is_some_and(|rook| lose_all[color.index()] | left.contains(rook));
            if lost {
                rights.set(color, side, None);
            }
        }
    }
    if rights != before {
        pos.set_castling_rights(rights);
    }
}

/// Carries out the movements `all` (White's, then Black's from index
/// `black`) on `pos`: the events, collisions, swaps, captures, castling
/// rights.
fn apply(
    pos: &mut Position,
    all: &[Movement],
    black: usize,
    castled: [bool; 2],
    voided: [bool; 2],
    rule: SameSquareRule,
    events: &mut Vec<Event>,
) -> Step {
    let (whites, blacks) = all.split_at(black);
    // The pieces of each colour before the step (captures are decided on
    // them).
    let before = [pos.by_color(Color::White), pos.by_color(Color::Black)];
    let mut vacated = Bitboard::EMPTY;
    for m in all {
        vacated |= m.from;
        events.push(m.moved_event());
    }

    // Same-square collisions (S1 / FSR 4): at most one, since the only
    // two-piece move, castling, stays on its own back rank.
    let mut removed_by_color = [Bitboard::EMPTY; 2];
    let mut irreversible = false;
    let both_move = !whites.is_empty() && !blacks.is_empty();
    if both_move && let Some((w, b)) = collision(whites, blacks) {
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

    for m in all {
        pos.toggle_piece(Piece::new(m.color, m.role), m.from);
    }

    // Swaps (C5): two pieces each moving onto the other's square.
    let mut swapped = Bitboard::EMPTY;
    if both_move {
        for w in whites {
            for b in blacks {
                if w.to == b.from && b.to == w.from {
                    swapped = swapped.with(w.from).with(b.from);
                    events.push(Event::Swap {
                        white_from: w.from,
                        black_from: b.from,
                    });
                }
            }
        }
    }

    let mut landing = Landing {
        before,
        vacated,
        swapped,
        removed_by_color,
        landed: [Bitboard::EMPTY; 2],
        double_steps: Bitboard::EMPTY,
        captured_squares: Bitboard::EMPTY,
        irreversible,
    };
    for m in all {
        landing.land(pos, m, events);
    }
    let Landing {
        landed,
        double_steps,
        captured_squares,
        irreversible,
        ..
    } = landing;

    let mut lose_all = kings_moved(all);
    for color in Color::ALL {
        lose_all[color.index()] |= castled[color.index()] && !voided[color.index()];
    }
    if !pos.castling_rights().is_empty() {
        update_castling_rights(pos, lose_all, vacated | captured_squares);
    }

    Step {
        landed,
        vacated,
        irreversible,
        double_steps,
        voided,
    }
}

/// The movements' arrival, one after the other: captures (or evasions)
/// and what the step records.
struct Landing {
    /// The pieces of each colour before the step.
    before: [Bitboard; 2],
    vacated: Bitboard,
    swapped: Bitboard,
    /// Pieces removed by a collision (they do not arrive).
    removed_by_color: [Bitboard; 2],
    landed: [Bitboard; 2],
    double_steps: Bitboard,
    captured_squares: Bitboard,
    irreversible: bool,
}

impl Landing {
    /// Puts the piece of `m` on its square (the pieces of every movement
    /// already taken off their squares), capturing the opposing piece it
    /// targets unless that one left.
    #[inline(always)]
    fn land(&mut self, pos: &mut Position, m: &Movement, events: &mut Vec<Event>) {
        if m.role == Role::Pawn {
            self.irreversible = true;
        }
        if self.removed_by_color[m.color.index()].contains(m.to) {
            return;
        }
        if let Some(target) = (m.target & self.before[(!m.color).index()]).first() {
            if self.vacated.contains(target) {
                // The opposing piece left: nothing is captured (C5).
                if !self.swapped.contains(target) {
                    events.push(Event::Evaded {
                        color: m.color,
                        square: target,
                    });
                }
            } else if let Some(piece) = pos.remove(target) {
                self.irreversible = true;
                self.captured_squares = self.captured_squares.with(target);
                events.push(Event::Captured {
                    color: piece.color,
                    role: piece.role,
                    square: target,
                });
            }
        }
        if pos.occupied().contains(m.to) {
            pos.remove(m.to);
        }
        pos.toggle_piece(Piece::new(m.color, m.promotion.unwrap_or(m.role)), m.to);
        self.landed[m.color.index()] = self.landed[m.color.index()].with(m.to);
        if m.role == Role::Pawn && is_double_step(m.from, m.to) {
            self.double_steps = self.double_steps.with(m.to);
        }
    }
}

/// FSR 4, alternative: in a collision of unequally strong pieces the
/// weaker piece forgoes its whole move (its movements are dropped).
/// Returns which colour's move was voided.
#[cold]
fn weaker_stays(
    ms: &mut Movements,
    moves: [Option<Move>; 2],
    events: &mut Vec<Event>,
) -> [bool; 2] {
    let mut voided = [false; 2];
    let Some((w, b)) = collision(ms.of(Color::White), ms.of(Color::Black)) else {
        return voided;
    };
    if strength(w.role) == strength(b.role) {
        return voided;
    }
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
    let kept: [Movement; 4] = ms.list;
    let (start, end) = match weaker {
        Color::White => (0, ms.black),
        Color::Black => (ms.black, ms.len),
    };
    let mut len = 0;
    for (i, m) in kept[..ms.len].iter().enumerate() {
        if i < start || i >= end {
            ms.list[len] = *m;
            len += 1;
        }
    }
    ms.black = if weaker == Color::White { 0 } else { ms.black };
    ms.len = len;
    voided[weaker.index()] = true;
    voided
}

/// The White and Black movements that end on the same square, if any.
#[inline]
fn collision(whites: &[Movement], blacks: &[Movement]) -> Option<(Movement, Movement)> {
    for w in whites {
        for b in blacks {
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
        let mut p = pos("4k3/8/8/3b4/4B3/8/8/4K3 w - - 0 1");
        let mut events = Vec::new();
        let step = execute(
            &mut p,
            [Some(mv("e4d5")), Some(mv("d5e4"))],
            SameSquareRule::BothCaptured,
            &mut events,
        );
        assert_eq!(p.board_fen(), "4k3/8/8/3B4/4b3/8/8/4K3");
        assert!(!step.irreversible);
        assert!(events.iter().any(|e| matches!(e, Event::Swap { .. })));
    }

    #[test]
    fn capture_of_leaving_piece_captures_nothing() {
        let mut p = pos("4k3/8/8/3n4/4B3/8/8/4K3 w - - 0 1");
        let mut events = Vec::new();
        execute(
            &mut p,
            [Some(mv("e4d5")), Some(mv("d5b4"))],
            SameSquareRule::BothCaptured,
            &mut events,
        );
        assert_eq!(p.board_fen(), "4k3/8/8/3B4/1n6/8/8/4K3");
        assert!(events.contains(&Event::Evaded {
            color: Color::White,
            square: Square::D5
        }));
    }
}
