//! A computer opponent for orthodox chess, Chess960 and the
//! simultaneous-move variants Synchronschach and Fairschach.
//!
//! Where one player chooses (orthodox chess, Chess960, Fairschach after
//! its switch to orthodox play, an exchange step in which only one side
//! may capture) the engine searches by α-β with a quiescence search at
//! the horizon. Where both choose at once (a pair; Fairschach's
//! first-move right and new parry, where both still enter a move; an
//! exchange step in which both may capture) the node is a zero-sum
//! **matrix game** (my move × your move) solved for a **mixed** strategy:
//!
//! - **double oracle**: one candidate move a side to begin with; each
//!   side's best response to the other's current mixture is added until
//!   neither improves, so only a few joint moves are searched deeply;
//! - **regret matching+** solves each restricted matrix to a small
//!   exploitability;
//! - **serialised bounds**: max-min and min-max of the matrix; where they
//!   meet the game has a pure saddle point; the best responses give an
//!   upper and a lower bound of the node's value, which cut the node off
//!   when they leave the window (α, β) passed down, and a best-response
//!   row stops as soon as its bound cannot beat the value;
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
//! The static evaluation is material and a few positional terms, in
//! centipawns from White's view, scaled to the search's values in
//! [-1, 1].
//!
//! Terms (each for White minus the same for Black):
//!
//! - **material**: pawn 100, knight 320, bishop 330, rook 500, queen 900;
//! - **pawns**: 6 per rank advanced beyond the start rank, 20 more on the
//!   6th and 40 more on the 7th rank (relative);
//! - **knights and bishops**: 8 per step closer to the centre (0 on the
//!   rim, 24 on the four centre squares), bishops half of that;
//! - **king**: while the opponent has a queen or two rooks, −15 per
//!   rank the king has left its back rank; otherwise (endgame) 6 per
//!   step closer to the centre;
//! - **threats** (simultaneous variants only, where the side to move does
//!   not exist and a hanging piece can be taken in the next pair): −⅓ of
//!   the value of the most valuable own piece that is attacked and
//!   undefended or attacked by a pawn. Orthodox positions are instead
//!   searched to quiescence (captures only) at the horizon.
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
mod state;

pub use error::EngineError;
pub use player::{ADJUDICATION_CP, GameOutcome, MOVE_CAP, Player, PlayerKind, play_game, wilson};
pub use search::{Analysis, Config, Engine, Limits};
pub use state::{ChessState, Ending, GameStart, State};
