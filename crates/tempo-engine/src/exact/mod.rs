//! Exact reference solutions of the engine's search trees, to measure how
//! far the engine's root strategies are from optimal.
//!
//! - [`solve_zero_sum`]: a matrix game's value and optimal strategies by
//!   linear programming (simplex, Bland's rule), checked against the
//!   matrix;
//! - [`exploitability`]: how much a strategy pair loses against best
//!   responses, compared with the game's value;
//! - [`root_game`]: the **exact game at depth d** of a simultaneous-move
//!   position — the same tree the engine searches to depth d, every node
//!   solved exactly (a maximum or minimum where one side chooses, the LP
//!   where both do) instead of by double oracle and regret matching+;
//! - [`measure`]: the engine's root strategies at depth d against that
//!   game; [`POSITIONS`]: the fixed positions of `tempo engine
//!   exploitability`.
//!
//! **The tree** is the engine's, step for step (`search.rs`): a step
//! (pair, first-move right, new parry, orthodox move) costs one unit of
//! depth, Synchronschach's exchange steps cost none; a position at depth
//! 0 is a leaf with the static evaluation (threat term included); a pair
//! at depth 0 in which a king is attacked is searched one step further
//! if it is reached at a ply no deeper than d (the check extension); a
//! finished game is worth ±(1 − 0.001 × ply) or 0. So the exact game
//! differs from the engine's only where the engine approximates: matrix
//! games solved to a tolerance, best responses added only when they gain
//! 0.001, bounds cutting nodes off, futility at the frontier (late quiet
//! moves left out of best responses one step above the horizon), the
//! transposition table.
//!
//! ```
//! use tempo_engine::exact::{POSITIONS, measure};
//! use tempo_engine::GameStart;
//!
//! let (kind, fen) = POSITIONS[0];
//! let m = measure(&kind.from_fen(fen)?, 1)?;
//! assert!(m.exploitability.sum() < 0.01);
//! assert!((m.engine_value - m.exact_value).abs() < 0.01);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod lp;
mod simplex;
mod tree;

use thiserror::Error;

pub use lp::{Exploitability, MAX_ACTIONS, ZeroSum, exploitability, solve_zero_sum};
pub use tree::{MAX_DEPTH, MAX_NODES, Measurement, RootGame, measure, root_game};

use tempo_sync::GameKind;

/// A matrix or a tree the exact solution cannot take, or bad strategies.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ExactError {
    #[error("the matrix is empty ({rows} × {cols})")]
    Empty { rows: usize, cols: usize },
    #[error("row {row} of the matrix has {len} entries, the first has {cols}")]
    Ragged { row: usize, len: usize, cols: usize },
    #[error("entry ({row}, {col}) of the matrix is not a finite number")]
    NotFinite { row: usize, col: usize },
    #[error("a {rows} × {cols} matrix is too large (at most {MAX_ACTIONS} actions a side)")]
    TooLarge { rows: usize, cols: usize },
    #[error("the simplex failed numerically on a {rows} × {cols} matrix")]
    Numerical { rows: usize, cols: usize },
    #[error("{side}'s strategy has {len} entries, the matrix {expected}")]
    StrategyLength {
        side: &'static str,
        len: usize,
        expected: usize,
    },
    #[error("{side}'s probability {index} is {value}")]
    BadProbability {
        side: &'static str,
        index: usize,
        value: f64,
    },
    #[error("{side}'s probabilities sum to {total}, not 1")]
    NotDistribution { side: &'static str, total: f64 },
    #[error("depth {0}: must be from 1 to {MAX_DEPTH}")]
    Depth(u32),
    #[error("not a simultaneous-move game (Synchronschach or Fairschach)")]
    NotSimultaneous,
    #[error("the game is already over")]
    GameOver,
    #[error("neither side has a choice in a game that is not over")]
    NoChoice,
    #[error("the tree has more than {MAX_NODES} positions at depth {depth}")]
    TreeTooLarge { depth: u32 },
    #[error("the engine's {side} strategy names a choice that is not legal here")]
    UnknownChoice { side: &'static str },
}

/// The fixed positions of `tempo engine exploitability`: small endings of
/// both variants (a first-move right among them) where every matrix is
/// small, then middlegame-like positions with more pieces whose depth-2
/// tree is still solved exactly in seconds.
pub const POSITIONS: &[(GameKind, &str)] = &[
    (
        GameKind::Synchronschach,
        "4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1",
    ),
    (
        GameKind::Synchronschach,
        "4k3/8/2n5/8/3P4/8/8/R3K3 w - - 0 1",
    ),
    (
        GameKind::Synchronschach,
        "r3k3/8/8/8/4N3/8/8/4K2R w - - 0 1",
    ),
    (
        GameKind::Synchronschach,
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ),
    (GameKind::Fairschach, "4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1"),
    (GameKind::Fairschach, "4k3/8/2n5/8/3P4/8/8/R3K3 w - - 0 1"),
    (
        GameKind::Fairschach,
        "4k3/4r3/p7/1p6/8/P7/1P1B4/4K2R w - - 0 1",
    ),
    (GameKind::Fairschach, "3qk3/8/8/8/8/8/3PP3/3QK3 w - - 0 1"),
    // Middlegames with something to decide at once (knights attacking
    // each other, a pin, pawns in contact, a queen a knight can chase):
    // mixed strategies, and 25-49 moves a side.
    (
        GameKind::Synchronschach,
        "r1b2rk1/pp3ppp/2n5/8/3N4/8/PP3PPP/R1B2RK1 w - - 0 20",
    ),
    (
        GameKind::Synchronschach,
        "r4rk1/pp3ppp/2n5/3b4/3B4/2N5/PP3PPP/R4RK1 w - - 0 20",
    ),
    (
        GameKind::Fairschach,
        "r1bq1rk1/ppp2ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPP1BPPP/R1BQ1RK1 w - - 0 7",
    ),
    (
        GameKind::Fairschach,
        "r3k2r/ppp2ppp/2n1bn2/3qp3/3P4/2N1BN2/PPP1QPPP/R3K2R w KQkq - 0 9",
    ),
];
