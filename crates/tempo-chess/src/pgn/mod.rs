//! PGN (Portable Game Notation): reading many games from a file and
//! writing the standard export format.
//!
//! Reading ([`Reader`], [`read_games`], [`read_game`]) follows the import
//! format and is tolerant: comments (`{...}`, `;...`), NAGs (`$n`) and
//! suffix annotations (`!`, `?!`, ... kept as NAGs 1..6), `%` escape
//! lines, move numbers with any number of periods, a missing result. Every
//! move is replayed (SAN, read leniently, see [`crate::san`]), in
//! variations `( ... )` too, which are kept ([`PgnMove::variations`],
//! nested to any depth). The tags `SetUp`/`FEN` give the start position (X-FEN
//! or Shredder-FEN castling); `Variant "Chess960"` (also `Fischerandom`,
//! `Chess 960`, `FRC`, ...) marks a Chess960 game, `Standard`/`From
//! Position` an orthodox one; other variants are an error. Every error
//! names its line and column ([`PgnError`]); after an error the reader
//! skips to the end of that game (its result, or the next tag section)
//! and goes on with the next game.
//!
//! Writing ([`PgnGame::to_pgn`]) produces export format: the Seven Tag
//! Roster in order (missing ones as `?`), then the other tags in ASCII
//! order, a blank line, the movetext in canonical SAN with move numbers,
//! NAGs and comments on lines of at most 79 characters, the result, a
//! blank line. A start position other than the orthodox one gets
//! `SetUp "1"` and `FEN` (X-FEN); a Chess960 game gets `Variant
//! "Chess960"`.
//!
//! ```
//! use tempo_chess::pgn;
//!
//! let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 {best by test} e5 2. Nf3 $1 Nc6 *\n";
//! let game = pgn::read_game(text)?;
//! assert_eq!(game.moves.len(), 4);
//! assert_eq!(game.tags.get("White"), Some("A"));
//! assert!(game.to_pgn().contains("1. e4 {best by test} 1... e5 2. Nf3 $1 Nc6 *"));
//! # Ok::<(), tempo_chess::pgn::PgnError>(())
//! ```

mod lexer;
mod reader;
mod writer;

use thiserror::Error;

use crate::san::SanError;
use crate::{FenError, Game, Move, Position};

pub use reader::{MAX_VARIATION_DEPTH, Reader, read_game, read_games};

/// The tags of a game in the order read (names are case-sensitive).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// The value of tag `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing its value, or appending it).
    pub fn set(&mut self, name: &str, value: &str) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.0.push((name.to_string(), value.to_string())),
        }
    }

    /// The tags in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The number of tags.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no tags.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One move with its annotations and the variations that replace it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnMove {
    pub mv: Move,
    /// Numeric annotation glyphs after the move (`!` is 1, `?` is 2, ...).
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Alternatives to this move (`( ... )` after it), each starting from
    /// the position before it.
    pub variations: Vec<Variation>,
}

/// A variation (recursive annotation variation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variation {
    /// Comments before its first move.
    pub comments: Vec<String>,
    pub moves: Vec<PgnMove>,
}

impl PgnMove {
    /// A move without annotations.
    pub fn new(mv: Move) -> PgnMove {
        PgnMove {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A game read from or to be written as PGN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Tags,
    /// The start position (from `FEN`, marked Chess960 by `Variant`).
    pub start: Position,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The main line (with its variations).
    pub moves: Vec<PgnMove>,
    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// What the reader repaired to accept the game, as python-chess does.
    pub warnings: Vec<PgnWarning>,
}

/// Something a game's text got wrong that the reader repaired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnWarning {
    /// A castling right of the FEN tag that no king and rook support.
    #[error(
        "line {line}, column {column}: castling right '{right}' of the FEN tag has no king and rook to castle with; dropped"
    )]
    DroppedCastlingRight {
        /// Where the FEN tag's value starts.
        line: usize,
        /// Where the FEN tag's value starts.
        column: usize,
        /// The dropped letter.
        right: char,
    },
}

impl PgnGame {
    /// A game from `start` with the moves of `game` and the result `*`.
    pub fn from_game(game: &Game) -> PgnGame {
        PgnGame {
            tags: Tags::new(),
            start: game.start().clone(),
            comments: Vec::new(),
            moves: game.moves().iter().copied().map(PgnMove::new).collect(),
            result: "*".to_string(),
            warnings: Vec::new(),
        }
    }

    /// The game with the main line replayed (for status and repetition
    /// rules). The moves were checked on reading.
    pub fn to_game(&self) -> Game {
        let mut game = Game::new(self.start.clone());
        for m in &self.moves {
            game.play_unchecked(m.mv);
        }
        game
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.play(m.mv);
        }
        pos
    }

    /// The game in PGN export format (ends with a blank line).
    pub fn to_pgn(&self) -> String {
        writer::write_game(self)
    }
}

/// Where and what: a problem in PGN input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct PgnError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub kind: PgnErrorKind,
}

/// The problems PGN input can have.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PgnErrorKind {
    #[error("read error: {0}")]
    Io(String),
    #[error("unexpected character '{0}'")]
    UnexpectedChar(char),
    #[error("unterminated string (a tag value must end on its line)")]
    UnterminatedString,
    #[error("unterminated comment: missing '}}'")]
    UnterminatedComment,
    #[error("invalid NAG '{0}' (must be $0..$255)")]
    InvalidNag(String),
    #[error("invalid annotation '{0}'")]
    InvalidAnnotation(String),
    /// A token where another was expected, e.g. "expected tag value, found ']'".
    #[error("expected {expected}, found {found}")]
    Unexpected {
        expected: &'static str,
        found: String,
    },
    #[error("invalid FEN tag: {0}")]
    Fen(FenError),
    /// A FEN tag whose position cannot arise in chess.
    #[error("FEN tag is not a legal chess position: {0}")]
    InvalidPosition(crate::PositionError),
    #[error("unsupported variant '{0}'")]
    UnsupportedVariant(String),
    /// A move that cannot be read or played here; `number` is e.g.
    /// `5, White` or `12, Black`.
    #[error("{error} (move {number})")]
    Move { number: String, error: SanError },
    #[error("null move '{0}' is not supported")]
    NullMove(String),
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    #[error("variations nested deeper than {} levels", MAX_VARIATION_DEPTH)]
    VariationTooDeep,
    #[error("')' without a variation to close")]
    UnmatchedParenthesis,
    #[error("variation opened at line {line}, column {column} is not closed")]
    UnclosedVariation { line: usize, column: usize },
    #[error("a variation needs a move before it")]
    VariationWithoutMove,
    #[error("game result '{0}' inside a variation")]
    ResultInVariation(String),
}
