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
use crate::state::{Ending, State};

mod alternate;
mod simultaneous;

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
    /// Futility at the frontier: one step above the horizon (not at the
    /// root, not where a king is attacked), a best response leaves out a
    /// late quiet move whose row cannot beat the bound even by an
    /// optimistic estimate (each move's change of the evaluation alone,
    /// plus a margin); never a move that meets one of the other side's
    /// mixture.
    pub futility: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            transposition: true,
            double_oracle: true,
            bounds: true,
            futility: true,
        }
    }
}

/// How long to search: a depth, a time per move, a number of nodes, or
/// several (whichever ends first; at least depth 1 is always completed).
///
/// A node budget, unlike a time, makes the same choices on every machine
/// and under any load, as a depth does, while bounding the work of a
/// move as a time does: a search stops before an iteration it cannot
/// finish within the budget, or aborts it where it runs over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }

    /// At most `nodes` nodes a move (all iterations).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
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
    /// White's strategy: choices with probabilities, the most probable
    /// first (one choice with probability 1 where White alone moves;
    /// empty where White waits).
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
    best: Hints,
}

/// Per colour, the choices to try first: the best and, at a matrix game,
/// the second most probable (the candidate sets kept between
/// iterations).
pub(super) type Hints = [[Option<Choice>; 2]; 2];

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
/// Entries of the transposition table (about 6 MB).
const TT_BITS: u32 = 18;
/// Mixed into the evaluation cache's key where the threat term counts.
const THREATS_SALT: u64 = 0x9e37_79b9_7f4a_7c15;
/// Entries of the evaluation cache (1 MB).
const EVAL_BITS: u32 = 16;

/// An entry of the evaluation cache: a position's hash (with the threat
/// term's flag mixed in) and its static evaluation.
#[derive(Debug, Clone, Copy, Default)]
struct Evaluated {
    key: u64,
    filled: bool,
    cp: i32,
}

/// Deepest iteration of a time-limited search.
const MAX_DEPTH: u32 = 64;
/// Exploitability to which matrix games are solved: at the root, inside.
const ROOT_TOLERANCE: f64 = 5e-4;
const TOLERANCE: f64 = 4e-3;
/// Least improvement that adds a best response (double oracle).
const ORACLE_EPS: f64 = 1e-3;
/// The same inside the tree, where a node's value matters less than its
/// cost.
const INNER_ORACLE_EPS: f64 = 4e-3;
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
    /// The node budget of the current search.
    node_limit: u64,
    may_abort: bool,
    aborted: bool,
    /// Serialised (minimax) play: the side that is seen — it commits
    /// first at every simultaneous node, the opponent answers.
    seen: Option<Color>,
    root: Option<Root>,
    /// The depth of the current iteration (check extensions up to it).
    iteration: u32,
    /// Per ply, the two latest quiet moves that cut off (orthodox).
    killers: Vec<[Option<Choice>; 2]>,
    /// Per colour, from and to square: how often a quiet move cut off,
    /// weighted by depth.
    history: Box<[[[i32; 64]; 64]; 2]>,
    /// Static evaluations by position: a leaf is reached again and again
    /// (a cell scouted, then searched exactly; the same pair in several
    /// rows), and the evaluation is most of a leaf's time.
    evals: Vec<Evaluated>,
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
            node_limit: u64::MAX,
            may_abort: false,
            aborted: false,
            seen: None,
            root: None,
            iteration: 1,
            killers: vec![[None, None]; alternate::KILLER_PLIES],
            history: Box::new([[[0; 64]; 64]; 2]),
            evals: vec![Evaluated::default(); 1 << EVAL_BITS],
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
        self.age_ordering();
        self.deadline = limits.movetime.map(|t| start + t);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
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
            // The next iteration takes several times this one.
            let time_out = limits.movetime.is_some_and(|t| start.elapsed() * 3 > t);
            if time_out || self.nodes.saturating_mul(3) > self.node_limit {
                break;
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
            let Some(best) = entry.best[mover.index()][0] else {
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

    fn store(&mut self, key: u64, depth: u32, value: f64, flag: u8, best: Hints) {
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
        if self.may_abort && self.nodes >= self.node_limit {
            self.aborted = true;
        }
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
        // Orthodox positions in check are searched one move deeper (on
        // paths up to twice the iteration's depth): the evasions are few,
        // and the horizon's capture search cannot answer a check.
        let depth = match state {
            State::Chess(c) if ply < 2 * self.iteration && c.pos.is_check() => depth + 1,
            _ => depth,
        };
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
        let mut hint = [[None, None], [None, None]];
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
        let white = self.ordered(pos, Color::White, white, hint[0], ply);
        let black = self.ordered(pos, Color::Black, black, hint[1], ply);
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
                hint,
            )
        }
    }

    /// The horizon: quiescence (captures) in orthodox positions, the
    /// static evaluation with its threat term in the variants.
    fn leaf(&mut self, state: &State, alpha: f64, beta: f64) -> f64 {
        match state {
            State::Chess(c) => self.quiesce(&c.pos, alpha, beta, QUIESCENCE_DEPTH),
            State::Sync(_) | State::SyncBare(_) => scale(self.evaluate(state.position(), true)),
        }
    }

    /// [`evaluate_cp`], through the cache (a pure function of the pieces,
    /// which the position's hash covers).
    pub(super) fn evaluate(&mut self, pos: &Position, threats: bool) -> i32 {
        let key = pos.hash() ^ if threats { THREATS_SALT } else { 0 };
        let slot = &mut self.evals[(key as usize) & ((1 << EVAL_BITS) - 1)];
        if slot.filled && slot.key == key {
            return slot.cp;
        }
        let cp = evaluate_cp(pos, threats);
        *slot = Evaluated {
            key,
            filled: true,
            cp,
        };
        cp
    }
}

/// Whether a king is attacked at the start of a pair of a simultaneous
/// variant.
pub(crate) fn gives_check(state: &State) -> bool {
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

pub(crate) fn terminal(end: Ending, ply: u32) -> f64 {
    let win = 1.0 - 0.001 * f64::from(ply.min(100));
    match end.outcome {
        tempo_chess::Outcome::Win(Color::White) => win,
        tempo_chess::Outcome::Win(Color::Black) => -win,
        tempo_chess::Outcome::Draw => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::GameStart;
    use tempo_sync::GameKind;

    #[test]
    fn the_evaluation_cache_gives_the_evaluation() {
        // Queen and rook attack each other: the threat term counts.
        let state = GameKind::Synchronschach
            .from_fen("4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1")
            .unwrap();
        let mut engine = Engine::new(Config::default());
        let mut positions = vec![state.position().clone()];
        let mut s = GameKind::Fairschach.start(None).unwrap();
        for step in 0..12 {
            let (w, b) = (s.choices(Color::White), s.choices(Color::Black));
            let pick = |list: &[Choice]| (!list.is_empty()).then(|| list[step % list.len()]);
            s = s.play(pick(&w), pick(&b));
            positions.push(s.position().clone());
        }
        assert_ne!(
            evaluate_cp(&positions[0], true),
            evaluate_cp(&positions[0], false)
        );
        for _ in 0..2 {
            for pos in &positions {
                for threats in [true, false] {
                    assert_eq!(engine.evaluate(pos, threats), evaluate_cp(pos, threats));
                }
            }
        }
    }
}
