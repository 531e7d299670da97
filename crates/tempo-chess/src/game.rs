//! A game: a start position, the moves played, and the game status by the
//! FIDE Laws — checkmate, stalemate, repetition, the 50- and 75-move
//! rules, insufficient material.
//!
//! Automatic endings ([`Game::outcome`]): checkmate, stalemate, fivefold
//! repetition (9.6.1), 75 moves without capture or pawn move (9.6.2; a
//! mate given by the last move wins over it), and dead positions by
//! material ([`is_insufficient_material`]). Draws a player may claim
//! ([`Game::claimable_draw`]): threefold repetition (9.2) and 50 moves
//! (9.3). Repetitions compare the Zobrist hash, which covers the pieces,
//! the side to move, the castling rights and a legal en-passant capture —
//! exactly the FIDE notion of "the same position".
//!
//! ```
//! use tempo_chess::{Game, Outcome, Termination, Color, san};
//!
//! let mut game = Game::default();
//! for text in ["f3", "e5", "g4", "Qh4#"] {
//!     let mv = san::parse(game.position(), text)?;
//!     game.play(mv)?;
//! }
//! assert_eq!(game.outcome(), Some((Outcome::Win(Color::Black), Termination::Checkmate)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use thiserror::Error;

use crate::{Bitboard, Color, Move, Position, Role};

/// Who won: the one result type of orthodox and simultaneous-move games
/// (tempo-sync re-exports it as `GameResult`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Color),
    Draw,
}

impl Outcome {
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Reads `1-0`, `0-1`, `1/2-1/2`.
    ///
    /// ```
    /// use tempo_chess::{Color, Outcome};
    /// assert_eq!(Outcome::from_pgn("0-1"), Some(Outcome::Win(Color::Black)));
    /// assert_eq!(Outcome::from_pgn("*"), None);
    /// ```
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::Win(Color::White)),
            "0-1" => Some(Outcome::Win(Color::Black)),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// The result with colours swapped.
    pub fn mirrored(self) -> Outcome {
        match self {
            Outcome::Win(c) => Outcome::Win(!c),
            Outcome::Draw => Outcome::Draw,
        }
    }
}

/// Written as its PGN result (`1-0`, `0-1`, `1/2-1/2`).
#[cfg(feature = "serde")]
impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.pgn())
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// Why a game ended (or may end on a claim).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    /// No sequence of legal moves can mate (by material; see
    /// [`is_insufficient_material`]).
    InsufficientMaterial,
    /// The same position for the fifth time (automatic draw).
    FivefoldRepetition,
    /// 75 moves by each side without capture or pawn move (automatic).
    SeventyFiveMoves,
    /// The same position for the third time (draw on claim).
    ThreefoldRepetition,
    /// 50 moves by each side without capture or pawn move (on claim).
    FiftyMoves,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoves => "75-move rule",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FiftyMoves => "50-move rule",
        })
    }
}

/// A move that is not legal in the game's current position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {mv} in position {fen}")]
pub struct IllegalMove {
    pub mv: Move,
    pub fen: String,
}

/// A game: start position, moves, and the hashes of all positions so far
/// (for the repetition rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// Hash of the start position and after every move.
    hashes: Vec<u64>,
}

impl Default for Game {
    /// A game from the orthodox start position.
    fn default() -> Game {
        Game::new(Position::new())
    }
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Position) -> Game {
        let hashes = vec![start.hash()];
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            hashes,
        }
    }

    /// The position the game started from.
    pub(crate) fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `mv` if it is legal in the current position.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.position.is_legal(mv) {
            return Err(IllegalMove {
                mv,
                fen: self.position.to_fen(),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv`, which the caller knows to be legal (e.g. taken from
    /// [`Position::legal_moves`]).
    pub fn play_unchecked(&mut self, mv: Move) {
        self.position.play(mv);
        self.moves.push(mv);
        self.hashes.push(self.position.hash());
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.hashes.pop();
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.play(mv);
        }
        self.position = pos;
        Some(mv)
    }

    /// How often the current position has occurred in the game (1 the
    /// first time). Only positions since the last capture or pawn move can
    /// repeat it; castling rights and en passant are part of the hash.
    pub fn repetitions(&self) -> usize {
        let current = self.position.hash();
        let window = (self.position.halfmove_clock() as usize).min(self.hashes.len() - 1);
        self.hashes[self.hashes.len() - 1 - window..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == current)
            .count()
    }

    /// The result if the game is over by rule without a claim: checkmate,
    /// stalemate, insufficient material, fivefold repetition, 75-move rule
    /// (checkmate first: a mate on the 150th half-move wins).
    pub fn outcome(&self) -> Option<(Outcome, Termination)> {
        let pos = &self.position;
        if !pos.has_legal_moves() {
            return Some(if pos.is_check() {
                (Outcome::Win(!pos.turn()), Termination::Checkmate)
            } else {
                (Outcome::Draw, Termination::Stalemate)
            });
        }
        if is_insufficient_material(pos) {
            return Some((Outcome::Draw, Termination::InsufficientMaterial));
        }
        if self.repetitions() >= 5 {
            return Some((Outcome::Draw, Termination::FivefoldRepetition));
        }
        if pos.halfmove_clock() >= 150 {
            return Some((Outcome::Draw, Termination::SeventyFiveMoves));
        }
        None
    }

    /// A draw the player to move may claim now: threefold repetition of
    /// the current position, or the 50-move rule. (FIDE also allows a
    /// claim with a move that would create them: see
    /// [`Game::claimable_draw_with`].)
    pub fn claimable_draw(&self) -> Option<Termination> {
        if self.repetitions() >= 3 {
            Some(Termination::ThreefoldRepetition)
        } else if self.position.halfmove_clock() >= 100 {
            Some(Termination::FiftyMoves)
        } else {
            None
        }
    }

    /// A draw the player to move may claim by announcing `mv` (FIDE 9.2.1.1,
    /// 9.3.1): the claim that holds now or after the move.
    pub fn claimable_draw_with(&self, mv: Move) -> Option<Termination> {
        if let Some(claim) = self.claimable_draw() {
            return Some(claim);
        }
        let mut after = self.clone();
        after.play(mv).ok()?;
        after.claimable_draw()
    }

    /// Whether the game is over without claims ([`Game::outcome`]).
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
}

/// Squares of the dark colour (a1 is dark).
const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

/// Whether `color` cannot possibly mate with its material, following
/// python-chess: only a king; or king and one knight while the opponent
/// has nothing but king and queens (no own piece that could be trapped
/// to help a mate); or king and bishops that all stand on one colour of square, with no
/// knights or pawns on the board. Useful for the flag-fall rule (6.9).
pub fn has_insufficient_material(pos: &Position, color: Color) -> bool {
    let ours = pos.by_color(color);
    let heavy = pos.by_role(Role::Pawn) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    if (ours & heavy).any() {
        return false;
    }
    if (ours & pos.by_role(Role::Knight)).any() {
        let others = pos.by_color(!color) & !pos.by_role(Role::King) & !pos.by_role(Role::Queen);
        return ours.count() <= 2 && others.is_empty();
    }
    if (ours & pos.by_role(Role::Bishop)).any() {
        let bishops = pos.by_role(Role::Bishop);
        let one_colour =
            (bishops & DARK_SQUARES).is_empty() || (bishops & !DARK_SQUARES).is_empty();
        return one_colour
            && pos.by_role(Role::Pawn).is_empty()
            && pos.by_role(Role::Knight).is_empty();
    }
    true
}

/// Whether neither side can mate by any sequence of legal moves, judged
/// by material alone (a dead position, FIDE 5.2.2 / 9.6): king against
/// king; king and one minor piece against king; kings and any number of
/// bishops all on squares of one colour (both sides). Other dead
/// positions (locked pawn chains, forced-stalemate structures) are NOT
/// detected.
pub fn is_insufficient_material(pos: &Position) -> bool {
    has_insufficient_material(pos, Color::White) && has_insufficient_material(pos, Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn material() {
        for fen in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/6b1 w - - 0 1",
            "8/8/4k3/8/1b6/3K4/8/2B3b1 w - - 0 1",
        ] {
            assert!(is_insufficient_material(&pos(fen)), "{fen}");
        }
        for fen in [
            "8/8/4k3/8/8/3K4/8/5NN1 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/5Bb1 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/5nN1 w - - 0 1",
            "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1",
            "8/8/4k3/8/8/3K4/8/4R3 w - - 0 1",
        ] {
            assert!(!is_insufficient_material(&pos(fen)), "{fen}");
        }
    }
}
