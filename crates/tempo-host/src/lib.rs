//! A hosted game of tempo's play server as a deterministic state machine:
//! commands and the time go in, hash-chained log entries come out. No
//! I/O: the server feeds it, stores its entries and delivers them.
//!
//! - [`HostedGame`]: orthodox chess, Chess960, Synchronschach and
//!   Fairschach ([`Variant`], tempo-sync's `GameKind`) with every option
//!   of `tempo_sync`, from the start or a FEN, timed by `tempo_clock`
//!   (every control it knows) or untimed.
//!   Commands ([`Command`]): a move or a hidden commit, resignation, draw
//!   offers and claims, abort, arbiter actions ([`ArbiterAction`]); flags
//!   fall by the time passed in ([`HostedGame::tick`]). A header with a
//!   first-move timer ([`Header::with_first_move_rule`], lichess's rule)
//!   holds the clocks until both sides have moved and aborts the game
//!   when a first move comes too late, by the same tick.
//! - **Commit and reveal** are this crate's (tempo-sync only resolves a
//!   step). In a simultaneous step a commit is checked at once, sealed as
//!   the parsed choice ([`Sealed`], stored with its [`Entry`], outside the
//!   public log) and logged as a `committed` entry carrying only the
//!   colour, the step and a commitment (SHA-256 over the game, step, colour,
//!   choice and a [`Nonce`]; [`chain::verify_log`] checks each reveal
//!   against it); a second commit for
//!   the step is refused ([`HostError::AlreadyCommitted`]). When every
//!   expected choice is in, the sealed choices resolve the step as they
//!   are, and one `reveal` entry gives all choices and their nonces.
//! - **The log** ([`chain`]): every entry is hash-chained; its public form
//!   is the same for every audience. What a player alone may see is their
//!   own sealed choice ([`view`]). A game ends with an [`End`] entry: an
//!   [`EndResult`] and an [`EndReason`], each with one stable name.
//!
//! ```
//! use tempo_chess::Color;
//! use tempo_host::{Command, GameSpec, Header, HostedGame, Variant};
//!
//! let spec = GameSpec { variant: Variant::Fairschach, clock: Some("300+3".into()), ..GameSpec::default() };
//! let header = Header::new("g1", &spec, "anna", "ben")?;
//! let (mut game, first) = HostedGame::create(header, 1_000)?;
//! assert_eq!(first.seq, 0);
//! let white = game.handle(Command::Play { color: Color::White, choice: "e2e4".into() }, 2_000, [1; 32])?;
//! // The public entry says that White committed, never what.
//! assert_eq!(white[0].public()["type"], "committed");
//! assert!(white[0].public().get("choice").is_none());
//! let black = game.handle(Command::Play { color: Color::Black, choice: "e7e5".into() }, 3_000, [2; 32])?;
//! assert!(black[0].public_line().contains(r#""choice":"e2e4""#));
//! # Ok::<(), tempo_host::HostError>(())
//! ```

mod arbiter;
pub mod chain;
mod commit;
mod end;
mod entry;
mod export;
mod first;
mod game;
mod header;
pub mod lichess;
mod pov;
mod record_text;
pub mod view;

use serde::{Deserialize, Serialize};
use tempo_chess::Color;

pub use arbiter::MAX_ARBITER_TIME;
pub use commit::Nonce;
pub use end::{End, EndReason, EndResult, UnknownReason, UnknownResult};
pub use entry::{Body, Entry, Revealed, Sealed};
pub use game::HostedGame;
pub use header::{GameSpec, Header, MAX_NAME, Variant, first_move_timer};

/// What a player or an arbiter asks of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A move in alternating play, or the hidden commit of a step: UCI;
    /// in an exchange step `x` + UCI or `-` to decline, as in
    /// `tempo sync replay`.
    Play {
        color: Color,
        choice: String,
    },
    Resign {
        color: Color,
    },
    /// Offers a draw, or accepts the opponent's offer.
    OfferDraw {
        color: Color,
    },
    DeclineDraw {
        color: Color,
    },
    /// Claims a draw by repetition or the 50-move rule (alternating play;
    /// simultaneous games end by those rules themselves).
    ClaimDraw {
        color: Color,
    },
    /// Ends the game without a result, before the first move.
    Abort {
        color: Color,
    },
    /// An arbiter's action, logged with the arbiter's name and reason.
    Arbiter {
        arbiter: String,
        reason: String,
        action: ArbiterAction,
    },
}

/// What an arbiter may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ArbiterAction {
    Pause,
    Resume,
    /// Sets `color`'s clock to `millis`.
    SetClock {
        color: Color,
        millis: i64,
    },
    /// Gives `color` `millis` more (or less, if negative).
    AddTime {
        color: Color,
        millis: i64,
    },
    /// FIDE 7.5.5: the offender's opponent gets two minutes (one in rapid
    /// and blitz).
    Penalty {
        offender: Color,
    },
    /// FIDE 7.5.1: back to the position before step `step` (0 = the
    /// start), the clocks as `clock` says.
    Restore {
        step: u32,
        clock: ClockRestore,
    },
    /// Declares the result (`1-0`, `0-1`, `1/2-1/2`, `*`): the text of the
    /// request, as logged; the `end` entry after it has it read
    /// ([`EndResult`]).
    SetResult {
        result: String,
    },
}

/// The clocks after a restore (FIDE 7.1 and the sources' formula).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockRestore {
    /// Each reading as the clock's history recorded it then.
    Exact,
    /// The sources' proportional formula (`tempo_clock::arbiter`).
    Proportional,
    /// The readings as they are.
    Keep,
}

/// Why a command or an entry was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    #[error("{0}")]
    Spec(String),
    #[error("the game is over ({result}, {reason})")]
    GameOver {
        result: EndResult,
        reason: EndReason,
    },
    #[error("a flag has fallen: settle the clock first")]
    FlagDue,
    #[error("the game is paused")]
    Paused,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("already committed for this step")]
    AlreadyCommitted,
    #[error("illegal: {0}")]
    Illegal(String),
    #[error("too late to abort: the game has begun")]
    TooLateToAbort,
    #[error("a draw offer is already open")]
    DrawAlreadyOffered,
    #[error("no draw offer to decline")]
    NoDrawOffer,
    #[error("no draw to claim")]
    NoDrawToClaim,
    #[error("clock: {0}")]
    Clock(String),
    #[error("log entry {seq}: {reason}")]
    Replay { seq: u64, reason: String },
}
