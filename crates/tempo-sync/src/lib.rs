//! Simultaneous-move chess for tempo: Synchronschach (Hansmann /
//! Krasowsky) and Fairschach (Zühlke, FSR 1-9), built on the rules core
//! `tempo-chess`.
//!
//! Both players choose a move for the same position; the choices are
//! resolved together (a host keeps them hidden until then), giving a new
//! state and [`Event`]s. The [`Phase`] says what each player has to choose: a move
//! of a pair, a capture or decline in Synchronschach's exchange phase
//! (S5-S7), a move under Fairschach's first-move right or new parry (FSR
//! 6/7), an orthodox move after the switch (FSR 8), or nothing when the
//! game is over. [`Rules`] carry the variant and its options with the
//! sources' defaults. [`GameKind`] names the four kinds of game tempo
//! plays (orthodox chess and Chess960 besides the two variants), with the
//! one reader of their names.
//!
//! Two ways to run a game, and three entry points that resolve a step:
//!
//! - **Hosts** (a server, a correspondence steward, a replay tool) use a
//!   [`SyncGame`]: what each player must choose now
//!   ([`SyncGame::expected`]), their legal choices
//!   ([`SyncGame::choices`]), a check of one ([`SyncGame::check_choice`]),
//!   and the step once every expected choice is in: [`SyncGame::step`]
//!   gives the next state and a [`Resolution`] with both choices, the
//!   events and the record lines, the bare [`SyncGame::resolve`] the next
//!   state and the events. Keeping choices hidden until then is the
//!   host's part (tempo-host commits, seals and reveals them). Errors are
//!   typed ([`SyncError`]). A game is stored and restored with its
//!   repetition history as a [`StoredGame`] (serde).
//! - **Search** (engines, random playouts, benchmarks) uses a [`Node`]: a
//!   state with both players' move sets, so that the moves always belong
//!   to the state they are played in; [`Node::play`] resolves without
//!   checking again, into a bare state or into a node whose moves come
//!   from the new state's mate and stalemate test. [`playout`] plays
//!   random games.
//!
//! Records: one line per pair ([`record`]), the Fairschach digit code for
//! correspondence ([`digits`]), an extended FEN with phase, paused pieces
//! and counters ([`notation`]) and PGN with a `Variant` tag ([`pgn`]).
//! Every rule and gap decision is documented in `docs/rules/`.
//!
//! Colours and results are tempo-chess's: [`tempo_chess::Color`] and
//! [`tempo_chess::Outcome`] (re-exported here as [`GameResult`]), so a host
//! that also runs orthodox games needs no conversion.
//!
//! ```
//! use tempo_chess::Color;
//! use tempo_sync::{Choice, Phase, Rules, SyncGame, Variant};
//!
//! let game = SyncGame::new(Rules::new(Variant::Synchronschach));
//! let e4 = tempo_sync::record::parse_move(game.position(), Color::White, "e2e4")?;
//! let e5 = tempo_sync::record::parse_move(game.position(), Color::Black, "e7e5")?;
//! let (game, resolution) = game.step(Some(Choice::Move(e4)), Some(Choice::Move(e5)))?;
//! assert_eq!(game.phase(), Phase::Pair);
//! assert_eq!(game.pair_number(), 2);
//! assert_eq!(
//!     tempo_sync::notation::write(&game),
//!     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR s KQkq - - 0 2"
//! );
//! assert_eq!(resolution.record, "1. e2e4 e7e5");
//! assert!(!resolution.events.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod digits;
mod error;
mod event;
mod game;
mod kind;
pub mod notation;
mod outcome;
pub mod pgn;
mod phase;
pub mod playout;
pub mod record;
mod rules;
pub mod san;
mod step;

pub use error::{
    ChoiceError, IllegalReason, NotationError, RecordError, RulesError, StartError, StepError,
    SyncError, UnknownKind,
};
pub use event::{Event, VoidReason};
pub use game::{
    Choice, Expected, MAX_HISTORY, Node, Resolution, RestoreError, StoredGame, Successor, SyncGame,
};
pub use kind::GameKind;
pub use outcome::{EndReason, Result as GameResult, UnknownReason};
pub use phase::{Exchange, Phase};
pub use rules::{
    DEFAULT_ORTHODOX_THRESHOLD, FairRules, PauseRule, Rules, SameSquareRule, Variant, strength,
};
