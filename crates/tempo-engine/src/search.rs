//! The search: α-β where one player chooses, a matrix game where both
//! do, iterative deepening to a depth or time budget, a transposition
//! table.
//!
//! Values are White's view in [-1, 1] (see [`crate::eval`]). A depth unit
//! is one step: a pair, or one orthodox move; Synchronschach's exchange
//! steps cost none.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tempo_chess::{Color, Position};
use tempo_sync::Choice;

use crate::eval::{evaluate_cp, scale};
use crate::matrix::{Matrix, solve};
use crate::order::{argmax, ordered, strategy, support};
use crate::state::{Ending, State, immediate_gain};

/// Which ideas the search uses (all on by default; `tempo engine bench`
/// switches each off in turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The transposition table (values and best moves by position).
    pub transposition: bool,
    /// Double oracle at simultaneous nodes: start from one candidate move
    /// a side and add best responses until neither side improves; off,
    /// every pair of moves is searched.
    pub double_oracle: bool,
    /// Serialised bounds: a pure saddle point (max-min = min-max) ends the
    /// solution at once, best-response rows stop as soon as their bound
    /// cannot beat the value, and a simultaneous node whose bounds leave
    /// the window (α, β) is cut off.
    pub bounds: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            transposition: true,
            double_oracle: true,
            bounds: true,
        }
    }
}

/// How long to search: a depth, a time per move, or both (whichever ends
/// first; at least depth 1 is always completed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            movetime: None,
        }
    }

    pub fn movetime(ms: u64) -> Limits {
        Limits {
            depth: None,
            movetime: Some(Duration::from_millis(ms)),
        }
    }
}

/// The result of [`Engine::analyse`].
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The value of the position, White's view, in [-1, 1].
    pub value: f64,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (all iterations; quiescence nodes included).
    pub nodes: u64,
    pub elapsed: Duration,
    /// Whether both players choose now (a matrix game at the root).
    pub simultaneous: bool,
    /// White's strategy: choices with probabilities (one choice with
    /// probability 1 where White alone moves; empty where White waits).
    pub white: Vec<(Choice, f64)>,
    /// Black's strategy.
    pub black: Vec<(Choice, f64)>,
    /// The principal variation where one player alone moves (from the
    /// transposition table), starting with the best move.
    pub pv: Vec<Choice>,
}

impl Analysis {
    /// The strategy of `color`.
    pub fn strategy(&self, color: Color) -> &[(Choice, f64)] {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// A completed iteration of the deepening, as [`Engine::set_progress`]
/// reports it (for the `info` lines of a UCI front end).
#[derive(Debug, Clone)]
pub struct Iteration {
    pub depth: u32,
    /// White's view, in [-1, 1].
    pub value: f64,
    /// Nodes so far in this search.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation (empty where both players choose).
    pub pv: Vec<Choice>,
}

/// Called after each completed iteration.
pub type Progress = Box<dyn FnMut(&Iteration) + Send>;

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: f32,
    depth: u8,
    /// 0 empty, 1 exact, 2 lower bound, 3 upper bound.
    flag: u8,
    best: [Option<Choice>; 2],
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
/// Entries of the transposition table (about 6 MB).
const TT_BITS: u32 = 18;
/// Deepest iteration of a time-limited search.
const MAX_DEPTH: u32 = 64;
/// Exploitability to which matrix games are solved: at the root, inside.
const ROOT_TOLERANCE: f64 = 5e-4;
const TOLERANCE: f64 = 4e-3;
/// Least improvement that adds a best response (double oracle).
const ORACLE_EPS: f64 = 1e-3;
/// Captures followed at most at the horizon of orthodox positions.
const QUIESCENCE_DEPTH: u32 = 8;

struct Root {
    white: Vec<(Choice, f64)>,
    black: Vec<(Choice, f64)>,
}

/// A searcher with its transposition table.
pub struct Engine {
    config: Config,
    table: Vec<Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    may_abort: bool,
    aborted: bool,
    /// Serialised (minimax) play: the side that is seen — it commits
    /// first at every simultaneous node, the opponent answers.
    seen: Option<Color>,
    root: Option<Root>,
    /// The depth of the current iteration (check extensions up to it).
    iteration: u32,
    /// Set from outside (a UCI `stop`): ends the search like the deadline.
    stop: Option<Arc<AtomicBool>>,
    progress: Option<Progress>,
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        let size = if config.transposition {
            1usize << TT_BITS
        } else {
            0
        };
        Engine {
            config,
            table: vec![Entry::default(); size],
            nodes: 0,
            deadline: None,
            may_abort: false,
            aborted: false,
            seen: None,
            root: None,
            iteration: 1,
            stop: None,
            progress: None,
        }
    }

    /// A flag that, once set, ends the current search as its deadline
    /// would (the last completed iteration counts; depth 1 is always
    /// completed). The caller clears it before the next search.
    pub fn set_stop(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop = flag;
    }

    /// A callback for each completed iteration of [`Engine::analyse`].
    pub fn set_progress(&mut self, progress: Option<Progress>) {
        self.progress = progress;
    }

    /// Analyses `state` for mixed strategies (the Nash engine).
    pub fn analyse(&mut self, state: &State, limits: Limits) -> Analysis {
        self.run(state, limits, None)
    }

    /// Analyses `state` as the serialised minimax player `seen`: at every
    /// simultaneous node `seen` chooses first and the opponent answers
    /// knowing the choice (a pure strategy: max-min for White, min-max
    /// for Black).
    pub(crate) fn analyse_serialised(
        &mut self,
        state: &State,
        limits: Limits,
        seen: Color,
    ) -> Analysis {
        self.run(state, limits, Some(seen))
    }

    /// The value the search gives a child of the root searched `depth`
    /// steps deep (full window, mixed strategies): the entries of the
    /// root's matrix game at depth `depth + 1`.
    pub fn child_value(&mut self, state: &State, depth: u32) -> f64 {
        self.seen = None;
        self.aborted = false;
        self.may_abort = false;
        self.iteration = depth + 1;
        self.search(state, depth, -2.0, 2.0, 1)
    }

    fn run(&mut self, state: &State, limits: Limits, seen: Option<Color>) -> Analysis {
        let start = Instant::now();
        if self.seen != seen {
            self.table.fill(Entry::default());
            self.seen = seen;
        }
        self.nodes = 0;
        self.aborted = false;
        self.deadline = limits.movetime.map(|t| start + t);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut done: Option<(f64, u32, Root)> = None;
        for depth in 1..=max_depth {
            self.may_abort = depth > 1;
            self.iteration = depth;
            self.root = None;
            let value = self.search(state, depth, -2.0, 2.0, 0);
            if self.aborted {
                break;
            }
            let root = self.root.take().unwrap_or(Root {
                white: Vec::new(),
                black: Vec::new(),
            });
            done = Some((value, depth, root));
            if self.progress.is_some() {
                let it = Iteration {
                    depth,
                    value,
                    nodes: self.nodes,
                    elapsed: start.elapsed(),
                    pv: self.principal_variation(state, depth),
                };
                if let Some(progress) = self.progress.as_mut() {
                    progress(&it);
                }
            }
            if value.abs() > 0.9 {
                break; // a forced result: deeper will not change it
            }
            if let Some(t) = limits.movetime {
                // The next iteration takes several times this one.
                if start.elapsed() * 3 > t {
                    break;
                }
            }
        }
        let (value, depth, root) = done.expect("depth 1 always completes");
        let simultaneous = !root.white.is_empty() && !root.black.is_empty();
        let pv = if simultaneous {
            Vec::new()
        } else {
            self.principal_variation(state, depth)
        };
        Analysis {
            value,
            depth,
            nodes: self.nodes,
            elapsed: start.elapsed(),
            simultaneous,
            white: root.white,
            black: root.black,
            pv,
        }
    }

    fn principal_variation(&self, state: &State, depth: u32) -> Vec<Choice> {
        let mut pv = Vec::new();
        let mut s = state.clone();
        for _ in 0..depth.max(1) {
            let (w, b) = (s.choices(Color::White), s.choices(Color::Black));
            if (w.is_empty() == b.is_empty()) || s.ending().is_some() {
                break;
            }
            let Some(entry) = self.probe(s.key()) else {
                break;
            };
            let mover = if w.is_empty() {
                Color::Black
            } else {
                Color::White
            };
            let Some(best) = entry.best[mover.index()] else {
                break;
            };
            let list = if w.is_empty() { &b } else { &w };
            if !list.contains(&best) {
                break;
            }
            pv.push(best);
            s = match mover {
                Color::White => s.play(Some(best), None),
                Color::Black => s.play(None, Some(best)),
            };
        }
        pv
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        if self.table.is_empty() {
            return None;
        }
        let e = self.table[(key as usize) & (self.table.len() - 1)];
        (e.flag != 0 && e.key == key).then_some(e)
    }

    fn store(&mut self, key: u64, depth: u32, value: f64, flag: u8, best: [Option<Choice>; 2]) {
        if self.table.is_empty() || self.aborted {
            return;
        }
        let len = self.table.len();
        let slot = &mut self.table[(key as usize) & (len - 1)];
        if slot.flag == 0 || slot.key != key || slot.depth as u32 <= depth {
            *slot = Entry {
                key,
                value: value as f32,
                depth: depth.min(255) as u8,
                flag,
                best,
            };
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.may_abort
            && self.nodes & 511 == 0
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The value of `state` searched `depth` steps deep within (α, β).
    fn search(&mut self, state: &State, depth: u32, alpha: f64, beta: f64, ply: u32) -> f64 {
        if self.tick() {
            return 0.0;
        }
        // Check extension in the variants (once on a path, at the
        // horizon of the iteration): a check there is often a king capture
        // in the next pair, which the static evaluation cannot see.
        let extend = depth == 0 && ply <= self.iteration && gives_check(state);
        let depth = if extend { 1 } else { depth };
        if state.sync_game().is_some() {
            if let Some(end) = state.ending() {
                return terminal(end, ply);
            }
            if (depth == 0 && state.counts_depth()) || ply > 200 {
                return self.leaf(state, alpha, beta);
            }
            if let State::SyncBare(_) = state {
                self.nodes -= 1; // counted again as the expanded state
                return self.search(&state.expanded(), depth, alpha, beta, ply);
            }
        }
        let white = state.choices(Color::White);
        let black = state.choices(Color::Black);
        if let Some(end) = state.ending_with(!white.is_empty() || !black.is_empty()) {
            return terminal(end, ply);
        }
        if (depth == 0 && state.counts_depth()) || ply > 200 {
            return self.leaf(state, alpha, beta);
        }
        let child_depth = if state.counts_depth() {
            depth - 1
        } else {
            depth
        };
        let key = state.key();
        let mut hint = [None, None];
        if let Some(e) = self.probe(key) {
            hint = e.best;
            if ply > 0 && u32::from(e.depth) >= depth {
                let v = f64::from(e.value);
                let usable = match e.flag {
                    EXACT => true,
                    LOWER => v >= beta,
                    UPPER => v <= alpha,
                    _ => false,
                };
                if usable {
                    return v;
                }
            }
        }
        let pos = state.position();
        let white = ordered(pos, Color::White, white, hint[0]);
        let black = ordered(pos, Color::Black, black, hint[1]);
        if white.is_empty() || black.is_empty() {
            self.alternate(
                state,
                &white,
                &black,
                child_depth,
                depth,
                alpha,
                beta,
                ply,
                key,
            )
        } else if let Some(seen) = self.seen {
            self.serialised(
                state,
                &white,
                &black,
                seen,
                child_depth,
                depth,
                alpha,
                beta,
                ply,
                key,
            )
        } else {
            self.simultaneous(
                state,
                &white,
                &black,
                child_depth,
                depth,
                alpha,
                beta,
                ply,
                key,
            )
        }
    }

    /// The horizon: quiescence (captures) in orthodox positions, the
    /// static evaluation with its threat term in the variants.
    fn leaf(&mut self, state: &State, alpha: f64, beta: f64) -> f64 {
        match state {
            State::Chess(c) => self.quiesce(&c.pos, alpha, beta, QUIESCENCE_DEPTH),
            State::Sync(_) | State::SyncBare(_) => scale(evaluate_cp(state.position(), true)),
        }
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: f64, mut beta: f64, left: u32) -> f64 {
        if self.tick() {
            return 0.0;
        }
        let stand = scale(evaluate_cp(pos, false));
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
        let mover = pos.turn();
        let mut captures: Vec<(i32, tempo_chess::Move)> = pos
            .legal_moves()
            .iter()
            .filter(|&&mv| pos.is_capture(mv) || mv.promotion.is_some())
            .map(|&mv| (immediate_gain(pos, mover, mv), mv))
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

    /// One player chooses: α-β.
    #[allow(clippy::too_many_arguments)]
    fn alternate(
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
        let mut best = if maximise { -3.0 } else { 3.0 };
        let mut best_choice = list[0];
        for &choice in list {
            let child = match mover {
                Color::White => play(state, Some(choice), None, child_depth),
                Color::Black => play(state, None, Some(choice), child_depth),
            };
            let v = self.search(&child, child_depth, alpha, beta, ply + 1);
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
                break;
            }
        }
        let mut hint = [None, None];
        hint[mover.index()] = Some(best_choice);
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

    /// Both choose, and `seen` is assumed to be seen by the opponent: α-β
    /// with `seen` moving first.
    #[allow(clippy::too_many_arguments)]
    fn serialised(
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
            [Some(w), Some(b)],
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
    fn simultaneous(
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
    ) -> f64 {
        let (m, n) = (white.len(), black.len());
        let mut cells = vec![f64::NAN; m * n];
        let (mut rows, mut cols): (Vec<usize>, Vec<usize>) = if self.config.double_oracle {
            (vec![0], vec![0])
        } else {
            ((0..m).collect(), (0..n).collect())
        };
        let (tolerance, iterations) = if ply == 0 {
            (ROOT_TOLERANCE, 20_000)
        } else {
            (TOLERANCE, 400)
        };
        let bounds = self.config.bounds;
        loop {
            let mut restricted = Matrix::new(rows.len(), cols.len());
            for (a, &i) in rows.iter().enumerate() {
                for (b, &j) in cols.iter().enumerate() {
                    let v = self.cell(state, white, black, &mut cells, i, j, child_depth, ply);
                    if self.aborted {
                        return 0.0;
                    }
                    restricted.set(a, b, v);
                }
            }
            let sol = solve(&restricted, tolerance, iterations, bounds);
            let (mut upper, mut lower) = (sol.value, sol.value);
            let (mut add_row, mut add_col) = (None, None);
            if self.config.double_oracle {
                let mut game = Cells {
                    state,
                    white,
                    black,
                    cells: &mut cells,
                    child_depth,
                    ply,
                };
                // White's best response to Black's mixture: an upper bound;
                // Black's to White's: a lower bound.
                let mix = support(&cols, &sol.col);
                let Some((bound, row)) =
                    self.best_response(&mut game, Color::White, &rows, &mix, upper, bounds)
                else {
                    return 0.0;
                };
                (upper, add_row) = (bound, row);
                let mix = support(&rows, &sol.row);
                let Some((bound, col)) =
                    self.best_response(&mut game, Color::Black, &cols, &mix, lower, bounds)
                else {
                    return 0.0;
                };
                (lower, add_col) = (bound, col);
            }
            let best = [
                Some(white[rows[argmax(&sol.row)]]),
                Some(black[cols[argmax(&sol.col)]]),
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
                self.store(key, depth, sol.value, EXACT, best);
                if ply == 0 {
                    self.root = Some(Root {
                        white: strategy(white, &rows, &sol.row),
                        black: strategy(black, &cols, &sol.col),
                    });
                }
                return sol.value;
            }
            rows.extend(add_row);
            cols.extend(add_col);
        }
    }

    /// The value of White's `i`-th against Black's `j`-th choice (searched
    /// once, then remembered in `cells`).
    /// The best response of `responder` to the other side's mixture `mix`
    /// among its moves not yet in `have`: the bound it gives (White's is
    /// an upper bound, Black's a lower one; `bound` is the current one) and
    /// the move that improves on it, if any. `None` when the search was
    /// aborted. Values are signed for the responder, so one loop serves
    /// both sides; with `bounds`, a row stops as soon as even the best
    /// remaining cells could not beat the bound.
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
        let mut best = sign * bound;
        let mut added = None;
        for k in (0..count).filter(|k| !have.contains(k)) {
            let (mut sum, mut rest, mut pruned) = (0.0, 1.0_f64, false);
            for &(l, p) in mix {
                let (i, j) = if responder == Color::White {
                    (k, l)
                } else {
                    (l, k)
                };
                sum += p
                    * sign
                    * self.cell(
                        game.state,
                        game.white,
                        game.black,
                        game.cells,
                        i,
                        j,
                        game.child_depth,
                        game.ply,
                    );
                if self.aborted {
                    return None;
                }
                rest -= p;
                if bounds && sum + rest.max(0.0) <= best + ORACLE_EPS {
                    pruned = true;
                    break;
                }
            }
            if !pruned && sum > best + ORACLE_EPS {
                best = sum;
                added = Some(k);
            }
        }
        Some((sign * best, added))
    }

    #[allow(clippy::too_many_arguments)]
    fn cell(
        &mut self,
        state: &State,
        white: &[Choice],
        black: &[Choice],
        cells: &mut [f64],
        i: usize,
        j: usize,
        child_depth: u32,
        ply: u32,
    ) -> f64 {
        let n = black.len();
        if cells[i * n + j].is_nan() {
            let child = play(state, Some(white[i]), Some(black[j]), child_depth);
            let v = self.search(&child, child_depth, -2.0, 2.0, ply + 1);
            if self.aborted {
                return 0.0;
            }
            cells[i * n + j] = v;
        }
        cells[i * n + j]
    }
}

/// Whether a king is attacked at the start of a pair of a simultaneous
/// variant.
fn gives_check(state: &State) -> bool {
    match state.sync_game() {
        Some(game) if game.phase().is_pair() => {
            let pos = game.position();
            pos.is_in_check(Color::White) || pos.is_in_check(Color::Black)
        }
        _ => false,
    }
}

/// The child after a step: without its moves where it will probably
/// only be evaluated.
fn play(state: &State, white: Option<Choice>, black: Option<Choice>, child_depth: u32) -> State {
    if child_depth == 0 {
        state.play_leaf(white, black)
    } else {
        state.play(white, black)
    }
}

fn flag(best: f64, alpha: f64, beta: f64) -> u8 {
    if best <= alpha {
        UPPER
    } else if best >= beta {
        LOWER
    } else {
        EXACT
    }
}

fn terminal(end: Ending, ply: u32) -> f64 {
    let win = 1.0 - 0.001 * f64::from(ply.min(100));
    match end.outcome {
        tempo_chess::Outcome::Win(Color::White) => win,
        tempo_chess::Outcome::Win(Color::Black) => -win,
        tempo_chess::Outcome::Draw => 0.0,
    }
}

/// A matrix game's fixed inputs and its cache of cell values (for
/// `Engine::best_response`).
struct Cells<'a> {
    state: &'a State,
    white: &'a [Choice],
    black: &'a [Choice],
    cells: &'a mut [f64],
    child_depth: u32,
    ply: u32,
}
