//! The two sides.

use std::fmt;
use std::ops::Not;

/// A side: White or Black.
///
/// ```
/// use tempo_chess::Color;
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::White.other(), Color::Black);
/// assert_eq!(Color::Black.char(), 'b');
/// ```
///
/// Displayed as `white` / `black`; with the `serde` feature it is written
/// and read as the same lowercase words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
#[repr(u8)]
pub enum Color {
    /// The side that starts an orthodox game.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black (for indexing tables).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side (the same as `!self`).
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `white` for White, `black` for Black.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// The FEN letter: `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.fold("white", "black"))
    }
}
