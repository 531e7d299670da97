//! Tournaments for chess clubs: the tournament model, TRF16 / TRF-2026
//! interchange (with JaVaFo's and bbpPairings' extensions and tempo's own),
//! the pairing systems — the FIDE Dutch Swiss, Keizer and round robin
//! (Berger tables) — behind one entry point ([`pairing::pair_next`] for a
//! [`System`]), the director's changes to a running tournament and their
//! rules ([`director`]: results, attendance, late entries, withdrawals,
//! taking a pairing back), FIDE tie-breaks (C.07), standings, and one
//! Chess960 start position per round.
//!
//! Colours are tempo-chess's [`Color`](tempo_chess::Color); TRF writes them as
//! its letters `w` / `b` ([`Color::char`](tempo_chess::Color::char)).
//!
//! ```
//! use tempo_chess::Color;
//! use tempo_tourney::{Player, ResultCode, RoundEntry, Tournament};
//! let mut t = Tournament::new();
//! let mut ann = Player::new(1, "Ann", Some(1800));
//! ann.set_entry(1, RoundEntry::game(2, Color::White, ResultCode::Win));
//! let mut bob = Player::new(2, "Bob", Some(1700));
//! bob.set_entry(1, RoundEntry::game(1, Color::Black, ResultCode::Loss));
//! t.players = vec![ann, bob];
//! let text = t.to_trf().unwrap();
//! let back = Tournament::from_trf_str(&text).unwrap();
//! assert_eq!(back.score(1).to_string(), "1.0");
//! assert!(back.entry(2, 1).unwrap().is_played());
//! ```

pub mod chess960;
pub mod director;
pub mod dutch;
pub mod keizer;
pub mod matching;
mod model;
pub mod pairing;
mod points;
pub mod roundrobin;
pub mod standings;
mod system;
pub mod tiebreak;
pub mod trf;

pub use model::{
    Absence, AbsenceKind, Acceleration, ByeKind, ByeRequest, Chess960Rounds, ForbiddenPairs,
    Inconsistency, InfoLine, LateEntry, Outcome, Player, PlayerId, Problem, ResultCode, RoundEntry,
    Tournament, Withdrawal,
};
pub use points::{PointSystem, Points};
pub use system::{System, UnknownSystem};
