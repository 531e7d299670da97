//! Where one player chooses: principal-variation α-β with null-move
//! pruning and late-move reductions in orthodox positions, killer and
//! history move ordering, and the quiescence search at the horizon.

use tempo_chess::{Bitboard, Color, Position, Role};
use tempo_sync::Choice;

use super::{Engine, Root, flag, play};
use crate::eval::scale;
use crate::state::{ChessState, State, role_value};

/// Width of a null window: values are floats in [-1, 1], and two values
/// closer than this are the same to the search.
pub(super) const NULL_WINDOW: f64 = 1e-7;
/// Plies remembered for killer moves.
pub(super) const KILLER_PLIES: usize = 128;

impl Engine {
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: f64,
        mut beta: f64,
        left: u32,
    ) -> f64 {
        if self.tick() {
            return 0.0;
        }
        let stand = scale(self.evaluate(pos, false));
        let maximise = pos.turn() == Color::White;
        if left == 0 {
            return stand;
        }
        if maximise {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut captures: Vec<(i32, tempo_chess::Move)> = pos
            .legal_moves()
            .iter()
            .filter(|&&mv| pos.is_capture(mv) || mv.promotion.is_some())
            .map(|&mv| (mvv_lva(pos, mv), mv))
            .collect();
        captures.sort_by_key(|c| std::cmp::Reverse(c.0));
        let mut best = stand;
        for (_, mv) in captures {
            let v = self.quiesce(&pos.played(mv), alpha, beta, left - 1);
            if self.aborted {
                return 0.0;
            }
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// One player chooses: principal-variation α-β (the first choice with
    /// the full window, the others with a null window and searched again
    /// only if they beat it).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn alternate(
        &mut self,
        state: &State,
        white: &[Choice],
        black: &[Choice],
        child_depth: u32,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        ply: u32,
        key: u64,
    ) -> f64 {
        let (mover, list) = if white.is_empty() {
            (Color::Black, black)
        } else {
            (Color::White, white)
        };
        let (alpha0, beta0) = (alpha, beta);
        let maximise = mover == Color::White;
        let chess = match state {
            State::Chess(c) => Some(c),
            _ => None,
        };
        let in_check = chess.is_some_and(|c| c.pos.is_check());
        if let Some(c) = chess
            && let Some(v) = self.null_move(c, depth, alpha, beta, ply, in_check)
        {
            return v;
        }
        let mut best = if maximise { -3.0 } else { 3.0 };
        let mut best_choice = list[0];
        for (index, &choice) in list.iter().enumerate() {
            let child = match mover {
                Color::White => play(state, Some(choice), None, child_depth),
                Color::Black => play(state, None, Some(choice), child_depth),
            };
            let v = if index == 0 {
                self.search(&child, child_depth, alpha, beta, ply + 1)
            } else {
                let reduction = match (chess, &child) {
                    (Some(c), State::Chess(after)) if !in_check => {
                        late_move_reduction(&c.pos, &after.pos, choice, index, depth)
                    }
                    _ => 0,
                };
                self.scout(&child, child_depth, reduction, alpha, beta, maximise, ply)
            };
            if self.aborted {
                return 0.0;
            }
            if (maximise && v > best) || (!maximise && v < best) {
                best = v;
                best_choice = choice;
            }
            if maximise {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                if let Some(c) = chess {
                    self.reward_cutoff(&c.pos, mover, choice, depth, ply);
                }
                break;
            }
        }
        let mut hint = [[None, None], [None, None]];
        hint[mover.index()][0] = Some(best_choice);
        self.store(key, depth, best, flag(best, alpha0, beta0), hint);
        if ply == 0 {
            let root = vec![(best_choice, 1.0)];
            self.root = Some(match mover {
                Color::White => Root {
                    white: root,
                    black: Vec::new(),
                },
                Color::Black => Root {
                    white: Vec::new(),
                    black: root,
                },
            });
        }
        best
    }

    /// A later choice: a null-window search (reduced by `reduction`) that
    /// only tells whether it beats the best so far, searched again at full
    /// depth and with the full window where it does.
    #[allow(clippy::too_many_arguments)]
    fn scout(
        &mut self,
        child: &State,
        child_depth: u32,
        reduction: u32,
        alpha: f64,
        beta: f64,
        maximise: bool,
        ply: u32,
    ) -> f64 {
        let (a, b) = if maximise {
            (alpha, alpha + NULL_WINDOW)
        } else {
            (beta - NULL_WINDOW, beta)
        };
        let beats = |v: f64| if maximise { v > alpha } else { v < beta };
        let mut v = self.search(child, child_depth - reduction, a, b, ply + 1);
        if reduction > 0 && beats(v) && !self.aborted {
            v = self.search(child, child_depth, a, b, ply + 1);
        }
        if beats(v) && (if maximise { v < beta } else { v > alpha }) && !self.aborted {
            v = self.search(child, child_depth, alpha, beta, ply + 1);
        }
        v
    }

    /// Null-move pruning: if the side to move could pass and a reduced
    /// search still holds the bound, the position is good enough to cut
    /// off. Not in check, not in a principal-variation node, not with
    /// only pawns (zugzwang), not near a forced result.
    fn null_move(
        &mut self,
        c: &ChessState,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
        in_check: bool,
    ) -> Option<f64> {
        let pos = &c.pos;
        let mover = pos.turn();
        let pieces = pos.by_color(mover) & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King);
        let pv = beta - alpha > 2.0 * NULL_WINDOW;
        if depth < 3 || ply == 0 || in_check || pv || pieces.is_empty() {
            return None;
        }
        if alpha.abs() > 0.9 || beta.abs() > 0.9 {
            return None;
        }
        let stand = scale(self.evaluate(pos, false));
        let maximise = mover == Color::White;
        if (maximise && stand < beta) || (!maximise && stand > alpha) {
            return None;
        }
        let mut passed = pos.clone();
        passed.set_turn(!mover);
        passed.set_en_passant_squares(Bitboard::EMPTY);
        let child = State::Chess(ChessState {
            pos: passed,
            history: Vec::new(),
        });
        let reduced = depth - 1 - if depth >= 6 { 3 } else { 2 };
        let v = self.search(&child, reduced, alpha, beta, ply + 1);
        if self.aborted {
            return None;
        }
        if maximise && v >= beta {
            Some(beta)
        } else if !maximise && v <= alpha {
            Some(alpha)
        } else {
            None
        }
    }

    /// A quiet move that cut off becomes a killer of its ply and gains
    /// history.
    fn reward_cutoff(
        &mut self,
        pos: &Position,
        mover: Color,
        choice: Choice,
        depth: u32,
        ply: u32,
    ) {
        let Choice::Move(mv) = choice else { return };
        if pos.is_capture(mv) || mv.promotion.is_some() {
            return;
        }
        if let Some(k) = self.killers.get_mut(ply as usize)
            && k[0] != Some(choice)
        {
            k[1] = k[0];
            k[0] = Some(choice);
        }
        let h = &mut self.history[mover.index()][mv.from.index()][mv.to.index()];
        *h = (*h + (depth * depth) as i32).min(1 << 20);
    }

    /// The choices in search order: the remembered best first, then
    /// captures and promotions (most valuable victim, least valuable
    /// attacker), the ply's killer moves, and the quiet moves by history.
    pub(super) fn ordered(
        &self,
        pos: &Position,
        color: Color,
        list: Vec<Choice>,
        hint: [Option<Choice>; 2],
        ply: u32,
    ) -> Vec<Choice> {
        let killers = self.killers.get(ply as usize).copied().unwrap_or_default();
        let history = &self.history[color.index()];
        let mut keyed: Vec<(i32, Choice)> = list
            .into_iter()
            .map(|c| {
                let key = match c {
                    _ if Some(c) == hint[0] => i32::MAX,
                    _ if Some(c) == hint[1] => i32::MAX - 1,
                    Choice::Move(mv) | Choice::Capture(mv)
                        if captures_or_promotes(pos, color, mv) =>
                    {
                        (1 << 28) + mvv_lva(pos, mv)
                    }
                    _ if Some(c) == killers[0] => (1 << 27) + 1,
                    _ if Some(c) == killers[1] => 1 << 27,
                    Choice::Move(mv) | Choice::Capture(mv) => {
                        history[mv.from.index()][mv.to.index()]
                    }
                    Choice::Decline => 0,
                };
                (key, c)
            })
            .collect();
        keyed.sort_by_key(|c| std::cmp::Reverse(c.0));
        keyed.into_iter().map(|(_, c)| c).collect()
    }

    /// Forgets the killers and halves the history between searches, so
    /// that old games' moves fade.
    pub(super) fn age_ordering(&mut self) {
        self.killers.fill([None, None]);
        for side in self.history.iter_mut() {
            for from in side.iter_mut() {
                for h in from.iter_mut() {
                    *h /= 2;
                }
            }
        }
    }
}

/// Whether `color`'s move takes an opponent's piece on its target square
/// or promotes (what move ordering puts first and reductions spare; read
/// from the board, so it holds for both sides of a pair).
pub(super) fn captures_or_promotes(pos: &Position, color: Color, mv: tempo_chess::Move) -> bool {
    pos.piece_at(mv.to).is_some_and(|p| p.color != color) || mv.promotion.is_some()
}

/// Captures by the value of the victim, then the cheapest attacker
/// (a king capture in the variants first of all); promotions by the new
/// piece.
fn mvv_lva(pos: &Position, mv: tempo_chess::Move) -> i32 {
    let victim = match pos.piece_at(mv.to) {
        Some(p) if p.role == Role::King => 20_000,
        Some(p) if Some(p.color) != pos.color_at(mv.from) => role_value(p.role),
        _ if pos.is_en_passant(mv) => role_value(Role::Pawn),
        _ => 0,
    };
    let attacker = pos.role_at(mv.from).map_or(0, role_value);
    let promotion = mv.promotion.map_or(0, role_value);
    16 * (victim + promotion) - attacker / 10
}

/// Plies by which a late quiet move of an orthodox position is searched
/// less deep (again at full depth if it turns out to beat the best).
fn late_move_reduction(
    pos: &Position,
    after: &Position,
    choice: Choice,
    index: usize,
    depth: u32,
) -> u32 {
    let Choice::Move(mv) = choice else { return 0 };
    if depth < 3 || index < 3 || pos.is_capture(mv) || mv.promotion.is_some() || after.is_check() {
        return 0;
    }
    let r = if index >= 8 && depth >= 5 { 2 } else { 1 };
    r.min(depth - 2)
}
