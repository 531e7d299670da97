//! [`Side`]: which player's clock.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// The player of the white pieces.
    White,
    /// The player of the black pieces.
    Black,
}

impl Side {
    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Both sides, White first.
    pub const ALL: [Side; 2] = [Side::White, Side::Black];
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}
