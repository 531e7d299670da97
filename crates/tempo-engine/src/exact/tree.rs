//! The exact game at depth d: the engine's search tree with every node
//! solved exactly, and the engine's root strategies measured against it.

use tempo_chess::Color;
use tempo_sync::Choice;

use super::ExactError;
use super::lp::{Exploitability, ZeroSum, exploitability, solve_zero_sum};
use crate::eval::{evaluate_cp, scale};
use crate::search::{Config, Engine, Limits, gives_check, terminal};
use crate::state::State;

/// Deepest exact game (the tree grows by a matrix a step).
pub const MAX_DEPTH: u32 = 2;

/// Most positions of one exact tree (about 15 s in a release build).
pub const MAX_NODES: u64 = 20_000_000;

/// Deepest ply the engine searches before it evaluates (search.rs).
const MAX_PLY: u32 = 200;

/// The exact game at the root of a position: each side's choices (empty
/// for a side that waits: the matrix then has one row, or one column),
/// the matrix of the children's exact values (White's view) and its
/// solution.
#[derive(Debug, Clone)]
pub struct RootGame {
    pub white: Vec<Choice>,
    pub black: Vec<Choice>,
    /// `matrix[i][j]`: the exact value of the position after White's
    /// `i`-th and Black's `j`-th choice.
    pub matrix: Vec<Vec<f64>>,
    pub solution: ZeroSum,
    /// Positions of the tree (root included).
    pub nodes: u64,
}

/// The engine's root strategies at one depth against the exact game of
/// that depth.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// The size of the root matrix (White's choices × Black's).
    pub rows: usize,
    pub cols: usize,
    /// The value of the exact game, v*.
    pub exact_value: f64,
    /// The engine's root value.
    pub engine_value: f64,
    /// The depth the engine completed (less than asked where it found a
    /// forced result and stopped).
    pub engine_depth: u32,
    /// The engine's root strategies against the exact matrix.
    pub exploitability: Exploitability,
    /// Positions of the exact tree.
    pub nodes: u64,
    /// Nodes the engine searched.
    pub engine_nodes: u64,
}

/// A depth-first walk of the tree with a count of its positions.
struct Tree {
    /// The engine's iteration depth: check extensions reach up to it.
    iteration: u32,
    nodes: u64,
}

impl Tree {
    /// The exact value of `state` searched `depth` steps deep at `ply`:
    /// the engine's `Engine::search` step for step, each node solved
    /// exactly.
    fn value(&mut self, state: &State, depth: u32, ply: u32) -> Result<f64, ExactError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(ExactError::TreeTooLarge {
                depth: self.iteration,
            });
        }
        if state.sync_game().is_none() {
            return Err(ExactError::NotSimultaneous);
        }
        // The check extension, as the engine's: at the horizon, at most
        // as deep as the iteration (so once on a path).
        let depth = if depth == 0 && ply <= self.iteration && gives_check(state) {
            1
        } else {
            depth
        };
        if let Some(end) = state.ending() {
            return Ok(terminal(end, ply));
        }
        if (depth == 0 && state.counts_depth()) || ply > MAX_PLY {
            return Ok(leaf(state));
        }
        let state = state.expanded();
        let child_depth = if state.counts_depth() {
            depth - 1
        } else {
            depth
        };
        let white = state.choices(Color::White);
        let black = state.choices(Color::Black);
        let child = |tree: &mut Tree, w: Option<Choice>, b: Option<Choice>| {
            let next = if child_depth == 0 {
                state.play_leaf(w, b)
            } else {
                state.play(w, b)
            };
            tree.value(&next, child_depth, ply + 1)
        };
        match (white.is_empty(), black.is_empty()) {
            (true, true) => Err(ExactError::NoChoice),
            (false, true) => {
                let mut best = f64::NEG_INFINITY;
                for &w in &white {
                    best = best.max(child(self, Some(w), None)?);
                }
                Ok(best)
            }
            (true, false) => {
                let mut best = f64::INFINITY;
                for &b in &black {
                    best = best.min(child(self, None, Some(b))?);
                }
                Ok(best)
            }
            (false, false) => {
                let mut matrix = Vec::with_capacity(white.len());
                for &w in &white {
                    let mut row = Vec::with_capacity(black.len());
                    for &b in &black {
                        row.push(child(self, Some(w), Some(b))?);
                    }
                    matrix.push(row);
                }
                Ok(solve_zero_sum(&matrix)?.value)
            }
        }
    }
}

/// The engine's leaf: the static evaluation with the threat term of the
/// simultaneous variants (search.rs `Engine::leaf`).
fn leaf(state: &State) -> f64 {
    scale(evaluate_cp(state.position(), true))
}

/// The exact game of `state` at `depth` (1..=[`MAX_DEPTH`]): the root's
/// matrix over both sides' choices, each entry the exact value of the
/// child in the tree the engine searches at that depth (see the module
/// docs), and its LP solution.
pub fn root_game(state: &State, depth: u32) -> Result<RootGame, ExactError> {
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(ExactError::Depth(depth));
    }
    if state.sync_game().is_none() {
        return Err(ExactError::NotSimultaneous);
    }
    if state.ending().is_some() {
        return Err(ExactError::GameOver);
    }
    let state = state.expanded();
    let white = state.choices(Color::White);
    let black = state.choices(Color::Black);
    if white.is_empty() && black.is_empty() {
        return Err(ExactError::NoChoice);
    }
    let child_depth = if state.counts_depth() {
        depth - 1
    } else {
        depth
    };
    // A side that waits has one action: to wait.
    let options = |list: &[Choice]| -> Vec<Option<Choice>> {
        if list.is_empty() {
            vec![None]
        } else {
            list.iter().copied().map(Some).collect()
        }
    };
    let (rows, cols) = (options(&white), options(&black));
    if rows.len() > super::MAX_ACTIONS || cols.len() > super::MAX_ACTIONS {
        return Err(ExactError::TooLarge {
            rows: rows.len(),
            cols: cols.len(),
        });
    }
    let mut tree = Tree {
        iteration: depth,
        nodes: 1,
    };
    let mut matrix = Vec::with_capacity(rows.len());
    for &w in &rows {
        let mut row = Vec::with_capacity(cols.len());
        for &b in &cols {
            let child = if child_depth == 0 {
                state.play_leaf(w, b)
            } else {
                state.play(w, b)
            };
            row.push(tree.value(&child, child_depth, 1)?);
        }
        matrix.push(row);
    }
    let solution = solve_zero_sum(&matrix)?;
    Ok(RootGame {
        white,
        black,
        matrix,
        solution,
        nodes: tree.nodes,
    })
}

/// A strategy over `list` (one action for an empty list) from the
/// engine's choices with probabilities.
fn strategy_vector(
    list: &[Choice],
    strategy: &[(Choice, f64)],
    side: &'static str,
) -> Result<Vec<f64>, ExactError> {
    if list.is_empty() {
        return Ok(vec![1.0]);
    }
    let mut p = vec![0.0; list.len()];
    for &(choice, q) in strategy {
        let k = list
            .iter()
            .position(|&c| c == choice)
            .ok_or(ExactError::UnknownChoice { side })?;
        p[k] += q;
    }
    Ok(p)
}

/// The engine's root strategies for `state` at `depth` (a fresh engine,
/// default configuration) against the exact game of that depth: both
/// values and the exploitability of the engine's strategies.
pub fn measure(state: &State, depth: u32) -> Result<Measurement, ExactError> {
    let game = root_game(state, depth)?;
    let analysis = Engine::new(Config::default()).analyse(state, Limits::depth(depth));
    let x = strategy_vector(&game.white, &analysis.white, "white")?;
    let y = strategy_vector(&game.black, &analysis.black, "black")?;
    let exploitability = exploitability(&game.matrix, game.solution.value, &x, &y)?;
    Ok(Measurement {
        rows: game.matrix.len(),
        cols: game.matrix[0].len(),
        exact_value: game.solution.value,
        engine_value: analysis.value,
        engine_depth: analysis.depth,
        exploitability,
        nodes: game.nodes,
        engine_nodes: analysis.nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameStart;
    use tempo_sync::GameKind;

    #[test]
    fn bad_requests_are_typed_errors() {
        let pair = GameKind::Synchronschach
            .from_fen("4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1")
            .unwrap();
        assert_eq!(root_game(&pair, 0).unwrap_err(), ExactError::Depth(0));
        assert_eq!(
            root_game(&pair, MAX_DEPTH + 1).unwrap_err(),
            ExactError::Depth(MAX_DEPTH + 1)
        );
        let orthodox = GameKind::Standard.start(None).unwrap();
        assert_eq!(
            root_game(&orthodox, 1).unwrap_err(),
            ExactError::NotSimultaneous
        );
        let over = GameKind::Synchronschach
            .from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
            .unwrap();
        assert_eq!(root_game(&over, 1).unwrap_err(), ExactError::GameOver);
    }

    /// The exact tree is the engine's: a root cell the engine evaluates
    /// (a leaf, a finished game) is the same number; a cell it searches
    /// further (check extension, exchange steps) is within its tolerance.
    #[test]
    fn the_exact_tree_is_the_engines_tree() {
        let mut searched = 0;
        for &(kind, fen) in super::super::POSITIONS {
            let state = kind.from_fen(fen).unwrap();
            let game = root_game(&state, 1).unwrap();
            let mut engine = Engine::new(Config::default());
            for (i, &w) in game.white.iter().enumerate() {
                for (j, &b) in game.black.iter().enumerate() {
                    let child = state.play(Some(w), Some(b));
                    let (v, exact) = (engine.child_value(&child, 0), game.matrix[i][j]);
                    if child.ending().is_some() || (child.counts_depth() && !gives_check(&child)) {
                        assert_eq!(v, exact, "{fen} cell ({i}, {j})");
                    } else {
                        searched += 1;
                        assert!((v - exact).abs() <= 0.01, "{fen} ({i}, {j}): {v} {exact}");
                    }
                }
            }
        }
        assert!(searched > 0, "some cells are searched beyond the leaf");
    }

    /// Where one side alone chooses the engine's α-β is exact: its value
    /// is the exact game's (to the f32 of its transposition table), at
    /// both depths.
    #[test]
    fn where_one_side_chooses_the_engine_is_exact() {
        for fen in [
            "4k3/8/8/3r4/8/8/3Q4/4K3 aw - - - 0 10",
            "4k3/4r3/p7/1p6/8/P7/1P1B4/4K2R ab - - - 0 10",
        ] {
            let state = GameKind::Fairschach.from_fen(fen).unwrap();
            for depth in 1..=MAX_DEPTH {
                let exact = root_game(&state, depth).unwrap().solution.value;
                let engine = Engine::new(Config::default()).analyse(&state, Limits::depth(depth));
                assert_eq!(engine.depth, depth);
                assert!((engine.value - exact).abs() < 1e-6, "{fen} depth {depth}");
            }
        }
    }

    #[test]
    fn a_side_that_waits_has_one_action() {
        // Fairschach after its switch to orthodox play, White to move:
        // one column, and the value is White's best move.
        let state = GameKind::Fairschach
            .from_fen("4k3/8/8/3r4/8/8/3Q4/4K3 aw - - - 0 10")
            .unwrap();
        let game = root_game(&state, 1).unwrap();
        assert!(game.black.is_empty() && game.matrix[0].len() == 1);
        let best = game
            .matrix
            .iter()
            .map(|r| r[0])
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(game.solution.value, best);
    }
}
