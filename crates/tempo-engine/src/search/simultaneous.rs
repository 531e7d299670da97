//! Where both choose at once: the matrix game (double oracle over
//! candidate sets, regret matching+ for the restricted games, their cells
//! searched within the node's window, best responses scouted with null
//! windows), and the serialised α-β of the `minimax` baseline.

use tempo_chess::Color;
use tempo_sync::Choice;

use super::alternate::{NULL_WINDOW, captures_or_promotes};
use super::{
    EXACT, Engine, Hints, INNER_ORACLE_EPS, LOWER, ORACLE_EPS, ROOT_TOLERANCE, Root, TOLERANCE,
    UPPER, flag, gives_check, play,
};
use crate::eval::scale;
use crate::matrix::{Matrix, solve};
use crate::order::{strategy, support};
use crate::state::State;

impl Engine {
    /// Both choose, and `seen` is assumed to be seen by the opponent: α-β
    /// with `seen` moving first.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn serialised(
        &mut self,
        state: &State,
        white: &[Choice],
        black: &[Choice],
        seen: Color,
        child_depth: u32,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        ply: u32,
        key: u64,
    ) -> f64 {
        let (alpha0, beta0) = (alpha, beta);
        let first_max = seen == Color::White;
        let (firsts, seconds) = if first_max {
            (white, black)
        } else {
            (black, white)
        };
        let mut best = if first_max { -3.0 } else { 3.0 };
        let mut best_pair = (firsts[0], seconds[0]);
        for &first in firsts {
            let (mut a, mut b) = (alpha, beta);
            let mut inner = if first_max { 3.0 } else { -3.0 };
            let mut reply = seconds[0];
            for &second in seconds {
                let child = if first_max {
                    play(state, Some(first), Some(second), child_depth)
                } else {
                    play(state, Some(second), Some(first), child_depth)
                };
                let v = self.search(&child, child_depth, a, b, ply + 1);
                if self.aborted {
                    return 0.0;
                }
                if first_max {
                    if v < inner {
                        inner = v;
                        reply = second;
                    }
                    b = b.min(v);
                } else {
                    if v > inner {
                        inner = v;
                        reply = second;
                    }
                    a = a.max(v);
                }
                if a >= b {
                    break;
                }
            }
            if (first_max && inner > best) || (!first_max && inner < best) {
                best = inner;
                best_pair = (first, reply);
            }
            if first_max {
                alpha = alpha.max(inner);
            } else {
                beta = beta.min(inner);
            }
            if alpha >= beta {
                break;
            }
        }
        let (w, b) = if first_max {
            best_pair
        } else {
            (best_pair.1, best_pair.0)
        };
        self.store(
            key,
            depth,
            best,
            flag(best, alpha0, beta0),
            [[Some(w), None], [Some(b), None]],
        );
        if ply == 0 {
            self.root = Some(Root {
                white: vec![(w, 1.0)],
                black: vec![(b, 1.0)],
            });
        }
        best
    }

    /// Both choose: the matrix game, by double oracle over candidate sets
    /// with regret matching+ for the restricted games.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn simultaneous(
        &mut self,
        state: &State,
        white: &[Choice],
        black: &[Choice],
        child_depth: u32,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
        key: u64,
        hints: Hints,
    ) -> f64 {
        let (m, n) = (white.len(), black.len());
        let (mut rows, mut cols): (Vec<usize>, Vec<usize>) = if self.config.double_oracle {
            // The hinted choices come first in the lists (see `search`).
            (seeded(white, hints[0]), seeded(black, hints[1]))
        } else {
            ((0..m).collect(), (0..n).collect())
        };
        let (tolerance, iterations) = if ply == 0 {
            (ROOT_TOLERANCE, 20_000)
        } else {
            (TOLERANCE, 400)
        };
        let bounds = self.config.bounds;
        let mut game = Cells {
            state,
            white,
            black,
            known: vec![Known::UNKNOWN; m * n],
            shallow: None,
            // Not where a king is attacked: its escapes are quiet moves
            // whose worth the estimate cannot see.
            futility: self.config.futility && ply > 0 && child_depth == 0 && !gives_check(state),
            evaluation: None,
            alone_white: Vec::new(),
            alone_black: Vec::new(),
            child_depth,
            ply,
        };
        // Inside the tree the restricted game's cells are first searched
        // within the node's window: a cell outside it is known by a bound
        // only, which decides a pure saddle point and is often enough to
        // cut the node off. Where the bounds leave the node's value open,
        // they are searched again with the full window.
        let mut window = if bounds && ply > 0 {
            (alpha, beta)
        } else {
            (-2.0, 2.0)
        };
        loop {
            let (lo, hi) = self.restricted(&mut game, &rows, &cols, window);
            if self.aborted {
                return 0.0;
            }
            let exact = lo.cells == hi.cells;
            let sol = solve(&lo, tolerance, iterations, bounds);
            let (sol_row, sol_col, mut lower, mut upper) = if exact {
                (sol.row, sol.col, sol.value, sol.value)
            } else {
                // White's mixture from the lower bounds guarantees at least
                // its worst column there; Black's from the upper bounds
                // concedes at most its worst row.
                let high = solve(&hi, tolerance, iterations, bounds);
                let lower = lo.col_values(&sol.row).into_iter().fold(2.0, f64::min);
                let upper = hi.row_values(&high.col).into_iter().fold(-2.0, f64::max);
                (sol.row, high.col, lower, upper)
            };
            let (mut add_row, mut add_col) = (None, None);
            if self.config.double_oracle {
                // White's best response to Black's mixture: an upper bound;
                // Black's to White's: a lower bound.
                // Inside the tree only the window matters: a reply that
                // cannot carry the value past α (β) need not be found.
                let cut = bounds && ply > 0;
                let mix = support(&cols, &sol_col);
                let start = if cut { upper.max(alpha) } else { upper };
                let Some((bound, row)) =
                    self.best_response(&mut game, Color::White, &rows, &mix, start, bounds)
                else {
                    return 0.0;
                };
                (upper, add_row) = (bound, row);
                if !(cut && upper <= alpha) {
                    let mix = support(&rows, &sol_row);
                    let start = if cut { lower.min(beta) } else { lower };
                    let Some((bound, col)) =
                        self.best_response(&mut game, Color::Black, &cols, &mix, start, bounds)
                    else {
                        return 0.0;
                    };
                    (lower, add_col) = (bound, col);
                }
            }
            let best = [
                leading(white, &rows, &sol_row),
                leading(black, &cols, &sol_col),
            ];
            if bounds && ply > 0 {
                if lower >= beta {
                    self.store(key, depth, lower, LOWER, best);
                    return lower;
                }
                if upper <= alpha {
                    self.store(key, depth, upper, UPPER, best);
                    return upper;
                }
            }
            if add_row.is_none() && add_col.is_none() {
                if !exact && upper - lower > tolerance {
                    window = (-2.0, 2.0);
                    continue;
                }
                let value = if exact {
                    sol.value
                } else {
                    0.5 * (lower + upper)
                };
                self.store(key, depth, value, EXACT, best);
                if ply == 0 {
                    self.root = Some(Root {
                        white: strategy(white, &rows, &sol_row),
                        black: strategy(black, &cols, &sol_col),
                    });
                }
                return value;
            }
            rows.extend(add_row);
            cols.extend(add_col);
        }
    }

    /// The restricted game's cells, searched within `window`: what is
    /// known of each as two matrices, of lower and of upper bounds (equal
    /// where every cell is exact). A cell known by one bound only takes the
    /// value's limit, ±1, as the other.
    fn restricted(
        &mut self,
        game: &mut Cells<'_>,
        rows: &[usize],
        cols: &[usize],
        (alpha, beta): (f64, f64),
    ) -> (Matrix, Matrix) {
        let mut lo = Matrix::new(rows.len(), cols.len());
        let mut hi = Matrix::new(rows.len(), cols.len());
        for (a, &i) in rows.iter().enumerate() {
            for (b, &j) in cols.iter().enumerate() {
                self.cell(game, i, j, alpha, beta);
                if self.aborted {
                    return (lo, hi);
                }
                let known = game.at(i, j);
                lo.set(a, b, known.lo.max(-1.0));
                hi.set(a, b, known.hi.min(1.0));
            }
        }
        (lo, hi)
    }

    /// A move of `responder` that beats the current `bound` against the
    /// other side's mixture `mix`, among its moves not yet in `have`: the
    /// bound it gives (White's raises the upper bound, Black's lowers the
    /// lower one; `bound` itself where no move beats it) and the move, if
    /// any. `None` when the search was aborted. Values are signed for the
    /// responder, so one loop serves both sides.
    ///
    /// With `bounds` each cell is first scouted with a null window at the
    /// value it needs for its move to beat the bound (even if every later
    /// cell reached its known upper bound, a win where nothing is known),
    /// and a move whose cells all reach their need is proven better by
    /// their lower bounds alone; only a move that fails after a cell known
    /// by a bound alone is looked at again with exact cells. A late quiet
    /// move is first tried one step less deep. Without `bounds`, every
    /// cell of the mixture is searched exactly.
    fn best_response(
        &mut self,
        game: &mut Cells<'_>,
        responder: Color,
        have: &[usize],
        mix: &[(usize, f64)],
        bound: f64,
        bounds: bool,
    ) -> Option<(f64, Option<usize>)> {
        let sign = if responder == Color::White { 1.0 } else { -1.0 };
        let count = if responder == Color::White {
            game.white.len()
        } else {
            game.black.len()
        };
        let eps = if game.ply == 0 {
            ORACLE_EPS
        } else {
            INNER_ORACLE_EPS
        };
        let mut best = sign * bound;
        let mut added = None;
        for k in (0..count).filter(|k| !have.contains(k)) {
            if self.futile(game, responder, k, mix, best + eps) {
                continue;
            }
            // A late quiet move is first tried one step less deep; only if
            // it may beat the bound there is it searched at full depth.
            if self.reducible(game, responder, k)
                && self.shallow(game, responder, k, mix, best + eps, bounds)? == Beats::No
            {
                continue;
            }
            // First by lower bounds alone; a move that then fails after a
            // cell known only by its bound is looked at again with exact
            // cells, since the bound may have asked too much of the rest.
            let mut row = self.beats(game, responder, k, mix, best + eps, bounds, false)?;
            if row == Beats::Unsure {
                row = self.beats(game, responder, k, mix, best + eps, bounds, true)?;
            }
            if let Beats::Yes(sum) = row {
                best = sum;
                added = Some(k);
            }
        }
        Some((sign * best, added))
    }

    /// Whether the responder's `k`-th move may be tried less deep first:
    /// a late quiet move (not among the first in search order, no capture
    /// or promotion) where the cells are at least two steps deep.
    fn reducible(&self, game: &Cells<'_>, responder: Color, k: usize) -> bool {
        game.child_depth >= 2 && late_quiet(game, responder, k).is_some()
    }

    /// Whether the responder's `k`-th move is futile at the frontier: a
    /// late quiet move of a best response where `game.futility` holds,
    /// meeting no move of `mix`, whose row cannot beat `target` (signed)
    /// against `mix` even by an optimistic estimate of its cells. A cell
    /// there is a static evaluation, estimated as the node's evaluation
    /// changed by each side's move alone, plus [`FUTILITY_MARGIN`].
    fn futile(
        &mut self,
        game: &mut Cells<'_>,
        responder: Color,
        k: usize,
        mix: &[(usize, f64)],
        target: f64,
    ) -> bool {
        if !game.futility {
            return false;
        }
        let Some(mv) = late_quiet(game, responder, k) else {
            return false;
        };
        let others = match responder {
            Color::White => game.black,
            Color::Black => game.white,
        };
        if mix.iter().any(|&(l, _)| meet(mv, others[l])) {
            return false;
        }
        let sign = responder.fold(1, -1);
        let own = self.node_evaluation(game) + self.alone(game, responder, k);
        let mut sum = 0.0;
        for &(l, p) in mix {
            let cp = own + self.alone(game, !responder, l) + sign * FUTILITY_MARGIN;
            sum += p * f64::from(sign) * scale(cp);
        }
        sum <= target
    }

    /// The static evaluation of the node (centipawns, White's view), kept
    /// in `game`.
    fn node_evaluation(&mut self, game: &mut Cells<'_>) -> i32 {
        match game.evaluation {
            Some(cp) => cp,
            None => *game
                .evaluation
                .insert(self.evaluate(game.state.position(), true)),
        }
    }

    /// How the evaluation (centipawns, White's view) changes by the `k`-th
    /// choice of `color` alone; kept in `game` for the node's later best
    /// responses.
    fn alone(&mut self, game: &mut Cells<'_>, color: Color, k: usize) -> i32 {
        let base = self.node_evaluation(game);
        let pos = game.state.position();
        let (list, known) = match color {
            Color::White => (game.white, &mut game.alone_white),
            Color::Black => (game.black, &mut game.alone_black),
        };
        if known.is_empty() {
            known.resize(list.len(), None);
        }
        if let Some(cp) = known[k] {
            return cp;
        }
        let cp = match list[k] {
            Choice::Move(mv) | Choice::Capture(mv) => self.evaluate(&pos.played(mv), true) - base,
            Choice::Decline => 0,
        };
        known[k] = Some(cp);
        cp
    }

    /// [`Engine::beats`] one step less deep, with its own record of the
    /// cells (values of another depth must not mix with the real ones).
    fn shallow(
        &mut self,
        game: &mut Cells<'_>,
        responder: Color,
        k: usize,
        mix: &[(usize, f64)],
        target: f64,
        bounds: bool,
    ) -> Option<Beats> {
        let size = game.known.len();
        let mut shallow = game
            .shallow
            .take()
            .unwrap_or_else(|| vec![Known::UNKNOWN; size]);
        std::mem::swap(&mut game.known, &mut shallow);
        game.child_depth -= 1;
        let row = self.beats(game, responder, k, mix, target, bounds, false);
        game.child_depth += 1;
        std::mem::swap(&mut game.known, &mut shallow);
        game.shallow = Some(shallow);
        row
    }

    /// Whether the responder's move `k` beats `target` (signed) against
    /// `mix`: with the lower bound it reaches (`Beats::Yes`), `No`, or
    /// `Unsure` where it failed after a cell known only by a bound. With
    /// `exact`, every cell that reaches its need is searched exactly, so
    /// the answer is never `Unsure`. `None` when aborted.
    #[allow(clippy::too_many_arguments)]
    fn beats(
        &mut self,
        game: &mut Cells<'_>,
        responder: Color,
        k: usize,
        mix: &[(usize, f64)],
        target: f64,
        bounds: bool,
        exact: bool,
    ) -> Option<Beats> {
        let sign = if responder == Color::White { 1.0 } else { -1.0 };
        let cell_of = |l: usize| {
            if responder == Color::White {
                (k, l)
            } else {
                (l, k)
            }
        };
        // The most each cell can bring (signed): its known upper bound;
        // `rest` is what the cells after the current one can.
        let most: Vec<f64> = mix
            .iter()
            .map(|&(l, p)| {
                let (i, j) = cell_of(l);
                let known = game.at(i, j);
                p * (if sign > 0.0 { known.hi } else { -known.lo }).min(1.0)
            })
            .collect();
        let mut rest: f64 = most.iter().sum();
        let (mut sum, mut bounded) = (0.0, false);
        for (&(l, p), most) in mix.iter().zip(&most) {
            let (i, j) = cell_of(l);
            rest -= most;
            let reached = if bounds {
                let need = (target - sum - rest) / p;
                match self.reaches(game, i, j, sign, need) {
                    Some(_) if exact => Some(sign * self.cell(game, i, j, -2.0, 2.0)),
                    r => r,
                }
            } else {
                Some(sign * self.cell(game, i, j, -2.0, 2.0))
            };
            if self.aborted {
                return None;
            }
            let Some(v) = reached else {
                return Some(if bounded { Beats::Unsure } else { Beats::No });
            };
            let known = game.at(i, j);
            bounded |= known.lo != known.hi;
            sum += p * v;
        }
        Some(if sum > target {
            Beats::Yes(sum)
        } else {
            Beats::No
        })
    }

    /// Whether cell (i, j), signed for the responder (`sign`), reaches
    /// `need`: a lower bound of its signed value if so, `None` if not.
    fn reaches(
        &mut self,
        game: &mut Cells<'_>,
        i: usize,
        j: usize,
        sign: f64,
        need: f64,
    ) -> Option<f64> {
        if need > 1.0 {
            return None; // not even a win would do
        }
        let known = game.at(i, j);
        let floor = if sign > 0.0 { known.lo } else { -known.hi };
        if need <= floor && floor >= -1.0 {
            return Some(floor);
        }
        if need <= -1.0 {
            // Any value will do here, but the row's later cells need to
            // know this one's: a bound of -1 would ask them for too much.
            return Some(sign * self.cell(game, i, j, -2.0, 2.0));
        }
        let v = if sign > 0.0 {
            self.cell(game, i, j, need, need + NULL_WINDOW)
        } else {
            -self.cell(game, i, j, -need - NULL_WINDOW, -need)
        };
        (v > need).then_some(v)
    }

    /// The value of White's `i`-th against Black's `j`-th choice, searched
    /// within (α, β) unless what is known of it already answers: exact
    /// inside the window, else a bound outside it (an upper bound ≤ α or
    /// a lower bound ≥ β). What each search finds is kept in `game`.
    fn cell(&mut self, game: &mut Cells<'_>, i: usize, j: usize, alpha: f64, beta: f64) -> f64 {
        let k = i * game.black.len() + j;
        let known = game.known[k];
        if known.lo == known.hi {
            return known.lo;
        }
        if known.hi <= alpha {
            return known.hi;
        }
        if known.lo >= beta {
            return known.lo;
        }
        let child = play(
            game.state,
            Some(game.white[i]),
            Some(game.black[j]),
            game.child_depth,
        );
        let v = self.search(&child, game.child_depth, alpha, beta, game.ply + 1);
        if self.aborted {
            return 0.0;
        }
        let known = &mut game.known[k];
        if v <= alpha {
            known.hi = known.hi.min(v);
        } else if v >= beta {
            known.lo = known.lo.max(v);
        } else {
            *known = Known { lo: v, hi: v };
        }
        if known.lo > known.hi {
            // Searches with different windows disagreed (the table's
            // entries): the latest answer stands.
            *known = Known { lo: v, hi: v };
        }
        v
    }
}

/// The responder's `k`-th choice if it is a late quiet move: not among
/// the first in search order, no capture or promotion.
fn late_quiet(game: &Cells<'_>, responder: Color, k: usize) -> Option<tempo_chess::Move> {
    if k < LATE_MOVE {
        return None;
    }
    let list = match responder {
        Color::White => game.white,
        Color::Black => game.black,
    };
    match list[k] {
        Choice::Move(mv) | Choice::Capture(mv)
            if !captures_or_promotes(game.state.position(), responder, mv) =>
        {
            Some(mv)
        }
        _ => None,
    }
}

/// Whether a move and the opponent's choice of the same pair touch a
/// common square (one's target is the other's start or target): then the
/// pair's outcome is not the two moves' outcomes added.
fn meet(mv: tempo_chess::Move, other: Choice) -> bool {
    match other {
        Choice::Move(o) | Choice::Capture(o) => mv.to == o.to || mv.to == o.from || mv.from == o.to,
        Choice::Decline => false,
    }
}

/// The first candidates of a side: the hinted choices found in `list`
/// (ordered first), at least one.
fn seeded(list: &[Choice], hints: [Option<Choice>; 2]) -> Vec<usize> {
    let n = hints.iter().flatten().filter(|c| list.contains(c)).count();
    (0..n.max(1)).collect()
}

/// The most probable choice of a restricted strategy, and the second
/// if it has a real share.
fn leading(list: &[Choice], index: &[usize], p: &[f64]) -> [Option<Choice>; 2] {
    let mut order: Vec<usize> = (0..index.len()).collect();
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]));
    let second = order
        .get(1)
        .filter(|&&k| p[k] >= SECOND_HINT)
        .map(|&k| list[index[k]]);
    [Some(list[index[order[0]]]), second]
}

/// Moves in search order before the first that a best response tries one
/// step less deep first, or leaves out at the frontier where futile.
const LATE_MOVE: usize = 3;

/// What two moves that do not meet may still add to the sum of their
/// changes alone (a line one opens for the other, a piece one attacks
/// that the other defends), in centipawns: futility's margin.
const FUTILITY_MARGIN: i32 = 50;

/// Least probability for a second candidate to be kept.
const SECOND_HINT: f64 = 0.1;

/// Whether a move beats the bound (see `Engine::beats`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Beats {
    Yes(f64),
    No,
    Unsure,
}

/// What is known of a cell's value: an interval, exact where `lo == hi`.
#[derive(Debug, Clone, Copy)]
struct Known {
    lo: f64,
    hi: f64,
}

impl Known {
    const UNKNOWN: Known = Known { lo: -2.0, hi: 2.0 };
}

impl Cells<'_> {
    /// What is known of White's `i`-th against Black's `j`-th choice.
    fn at(&self, i: usize, j: usize) -> Known {
        self.known[i * self.black.len() + j]
    }
}

/// A matrix game's fixed inputs and what is known of its cells.
struct Cells<'a> {
    state: &'a State,
    white: &'a [Choice],
    black: &'a [Choice],
    known: Vec<Known>,
    /// What is known of the cells one step less deep (late moves' first
    /// look), made when first needed.
    shallow: Option<Vec<Known>>,
    /// Whether futility at the frontier applies here: one step above the
    /// horizon, not the root, no king attacked.
    futility: bool,
    /// The node's static evaluation and, per choice, how each side's
    /// choice alone changes it (futility at the frontier), made when
    /// first needed.
    evaluation: Option<i32>,
    alone_white: Vec<Option<i32>>,
    alone_black: Vec<Option<i32>>,
    child_depth: u32,
    ply: u32,
}
