//! A computer opponent for orthodox chess, Chess960 and the
//! simultaneous-move variants Synchronschach and Fairschach.
//!
//! Where one player chooses (orthodox chess, Chess960, Fairschach after
//! its switch to orthodox play, an exchange step in which only one side
//! may capture) the engine searches by principal-variation α-β (with
//! null-move pruning, late-move reductions and a check extension in
//! orthodox positions; killer and history move ordering) and a
//! quiescence search at the horizon. Where both choose at once (a pair; Fairschach's
//! first-move right and new parry, where both still enter a move; an
//! exchange step in which both may capture) the node is a zero-sum
//! **matrix game** (my move × your move) solved for a **mixed** strategy:
//!
//! - **double oracle**: the candidates kept from the last search of the
//!   position to begin with; a move of either side that beats the value
//!   against the other's current mixture is added until neither side
//!   improves, so only a few joint moves are searched exactly; whether a
//!   move beats the value is scouted cell by cell with null windows;
//! - **regret matching+** solves each restricted matrix to a small
//!   exploitability;
//! - **serialised bounds**: max-min and min-max of the matrix; where they
//!   meet the game has a pure saddle point; the best responses give an
//!   upper and a lower bound of the node's value, which cut the node off
//!   when they leave the window (α, β) passed down, and a best-response
//!   row stops as soon as its bound cannot beat the value;
//! - **futility at the frontier**: one step above the horizon a best
//!   response skips a late quiet move whose row cannot beat the value even
//!   by an optimistic estimate (each move's change of the evaluation
//!   alone, plus a margin), unless the moves meet or a king is attacked;
//! - a **transposition table** and **iterative deepening** to a depth or
//!   time budget.
//!
//! The move is **sampled** from the root strategy with the player's
//! seeded ChaCha8 generator, so a game is reproducible for a given seed
//! and depth budget. The evaluation is described below.
//!
//! Baselines ([`PlayerKind`]): `random`, `greedy` (best immediate
//! material) and `minimax` (the same search, assuming the opponent sees
//! one's move: a pure strategy).
//!
//! [`exact`] solves the same trees exactly (linear programming at every
//! matrix game) to measure how exploitable the engine's root strategies
//! are (`tempo engine exploitability`).
//!
//! ```
//! use tempo_chess::Color;
//! use tempo_engine::{Config, Engine, GameStart, Limits};
//! use tempo_sync::GameKind;
//!
//! // Synchronschach: White's queen and Black's rook attack each other.
//! let state = GameKind::Synchronschach.from_fen("4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1")?;
//! let mut engine = Engine::new(Config::default());
//! let analysis = engine.analyse(&state, Limits::depth(1));
//! assert!(analysis.simultaneous);
//! let total: f64 = analysis.white.iter().map(|(_, p)| p).sum();
//! assert!((total - 1.0).abs() < 1e-9);
//! assert!(analysis.value > -1.0 && analysis.value < 1.0);
//!
//! // Orthodox chess: a mate in one is found and played.
//! let state = GameKind::Standard.from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")?;
//! let analysis = engine.analyse(&state, Limits::depth(2));
//! assert_eq!(state.choice_name(Color::White, analysis.pv[0]), "a1a8");
//! # Ok::<(), tempo_engine::EngineError>(())
//! ```
//!
//! # Evaluation
//!
//! The static evaluation is in centipawns from White's view, **tapered**
//! between middlegame and endgame weights by the material left: material
//! and the bishop pair; pawns (advance, centre, passed, isolated,
//! doubled); the mobility of knights, bishops, rooks and queens (squares
//! not attacked by enemy pawns) and their distance from the rim; rooks on
//! open files and the 7th rank; king safety (back rank, pawn shelter,
//! attacked squares around the king) in the middlegame and king activity
//! in the endgame. In the simultaneous variants, where a hanging piece
//! can be taken in the next pair, −⅓ of the most valuable own piece that
//! is attacked and undefended or attacked by a pawn; orthodox positions
//! are searched to quiescence instead. `docs/engine.md` lists the weights.
//!
//! The search scales centipawns `cp` to `cp / (|cp| + 600)`: a pawn is
//! worth about 0.14, a queen 0.6; a won game is 1, a lost one −1, a
//! draw 0 (a win found sooner scores a little higher).

mod error;
mod eval;
pub mod exact;
mod matrix;
mod order;
mod player;
mod search;
mod signature;
mod state;

pub use error::EngineError;
pub use player::{
    ADJUDICATION_CP, GameOutcome, MOVE_CAP, Player, PlayerKind, adjudicate, play_game, wilson,
};
pub use search::{Analysis, Config, Engine, Iteration, Limits, Progress};
pub use signature::signature;
pub use state::{ChessState, Ending, GameStart, NO_CHOICE, State};
