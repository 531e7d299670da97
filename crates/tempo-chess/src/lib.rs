//! Chess rules core of tempo: positions that can also hold the states of
//! simultaneous-move variants, legal move generation for orthodox chess
//! and Chess960, FEN (with X-FEN and Shredder-FEN castling), perft.
//!
//! Small, strong types, one module per concept: [`Color`], [`Role`],
//! [`Piece`], [`File`], [`Rank`], [`Square`], [`Bitboard`],
//! [`CastlingSide`], [`CastlingRights`], [`Move`], [`MoveList`],
//! [`MoveSet`], [`Position`]. The attack tables ([`attacks`]) are built at
//! compile time (magic bitboards for the sliding pieces, see `build.rs`).
//!
//! Castling moves are encoded as the king capturing its own rook, so the
//! same encoding serves orthodox chess and every Chess960 set-up.
//!
//! The crate root holds the types and the game record ([`Game`],
//! [`Outcome`], [`Termination`]); each notation is a module of its own:
//! [`san`], [`uci`], [`iccf`], [`pgn`], and [`chess960`] for the start
//! positions and their numbers.
//!
//! ```
//! use tempo_chess::{perft, Position};
//!
//! // A Chess960 position with Shredder-FEN castling rights.
//! let pos: Position = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9".parse()?;
//! assert!(pos.is_chess960());
//! assert_eq!(pos.legal_moves().len(), 21);
//! assert_eq!(perft(&pos, 3), 12189);
//!
//! // Play a move and write the FEN (X-FEN for Chess960 positions).
//! let mv = pos.legal_moves().iter().copied().find(|mv| mv.to_string() == "f4f5").unwrap();
//! let after = pos.played(mv);
//! assert_eq!(after.to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p2P2/8/P2P4/NPP1P1PP/BQ1BNRKR b KQkq - 0 9");
//! # Ok::<(), tempo_chess::FenError>(())
//! ```
//!
//! Variant positions (no king, both kings attacked, paused pieces) are
//! built leniently; [`Position::validate`] checks orthodox legality
//! separately, and [`Position::legal_moves_for`] gives either colour's
//! moves from the same position.

pub mod attacks;
mod bitboard;
mod castling;
pub mod chess960;
mod color;
mod fen;
mod game;
pub mod iccf;
mod movegen;
mod moves;
mod perft;
pub mod pgn;
mod piece;
mod position;
mod role;
pub mod san;
mod square;
pub mod uci;
mod validate;
mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use castling::{CastlingRights, CastlingSide};
pub use color::Color;
pub use fen::{CastlingNotation, FenError, FenErrorKind, FenField, STARTING_FEN};
pub use game::{
    Game, IllegalMove, Outcome, Termination, has_insufficient_material, is_insufficient_material,
};
pub use movegen::{MoveSet, MoveSetIter, PausedInCheck};
pub use moves::{MAX_MOVES, Move, MoveList, MoveListIntoIter};
pub use perft::{divide, perft};
pub use piece::Piece;
pub use position::Position;
pub use role::Role;
pub use square::{File, ParseSquareError, Rank, Square};
pub use validate::PositionError;
