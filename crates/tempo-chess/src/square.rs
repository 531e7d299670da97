//! Files, ranks and squares.

use std::fmt;
use std::str::FromStr;

use crate::Color;

macro_rules! indexed_enum {
    ($(#[$meta:meta])* $name:ident [$n:expr] { $($variant:ident),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum $name { $($variant),* }

        impl $name {
            /// Every value in index order.
            pub const ALL: [$name; $n] = [$($name::$variant),*];

            /// The value with index `index`, if it is in range.
            #[inline]
            pub(crate) const fn try_new(index: u32) -> Option<$name> {
                if index < $n {
                    Some(Self::ALL[index as usize])
                } else {
                    None
                }
            }

            /// The value with index `index & (N - 1)`: never fails, for
            /// indices known to be in range.
            #[inline]
            pub const fn new_masked(index: u32) -> $name {
                // SAFETY: `$name` is `repr(u8)` with the discriminants
                // 0..$n in order, and the mask keeps the value below $n.
                unsafe { std::mem::transmute::<u8, $name>((index & ($n - 1)) as u8) }
            }

            /// The index of this value.
            #[inline]
            pub const fn index(self) -> usize {
                self as usize
            }
        }
    };
}

indexed_enum! {
    /// A file (column), `a` to `h`.
    File [8] { A, B, C, D, E, F, G, H }
}

indexed_enum! {
    /// A rank (row), `1` to `8`.
    Rank [8] { First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth }
}

indexed_enum! {
    /// A square, `a1` = 0, `b1` = 1, ... `h8` = 63 (rank-major).
    ///
    /// ```
    /// use tempo_chess::{File, Rank, Square};
    /// let e4: Square = "e4".parse()?;
    /// assert_eq!(e4, Square::E4);
    /// assert_eq!(e4, Square::from_coords(File::E, Rank::Fourth));
    /// assert_eq!(e4.to_string(), "e4");
    /// # Ok::<(), tempo_chess::ParseSquareError>(())
    /// ```
    Square [64] {
        A1, B1, C1, D1, E1, F1, G1, H1,
        A2, B2, C2, D2, E2, F2, G2, H2,
        A3, B3, C3, D3, E3, F3, G3, H3,
        A4, B4, C4, D4, E4, F4, G4, H4,
        A5, B5, C5, D5, E5, F5, G5, H5,
        A6, B6, C6, D6, E6, F6, G6, H6,
        A7, B7, C7, D7, E7, F7, G7, H7,
        A8, B8, C8, D8, E8, F8, G8, H8,
    }
}

impl File {
    /// The file letter, `a` to `h`.
    pub(crate) const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The upper-case file letter (Shredder-FEN White castling).
    pub(crate) const fn upper_char(self) -> char {
        (b'A' + self as u8) as char
    }

    /// Parses a lower-case file letter.
    pub(crate) const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => File::try_new(c as u32 - 'a' as u32),
            _ => None,
        }
    }
}

impl Rank {
    /// The rank digit, `1` to `8`.
    pub(crate) const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses a rank digit.
    pub(crate) const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Rank::try_new(c as u32 - '1' as u32),
            _ => None,
        }
    }

    /// The mirror rank (1 <-> 8).
    const fn flip(self) -> Rank {
        Rank::new_masked(7 - self as u32)
    }

    /// This rank seen from `color`'s side: `Rank::First.relative_to(Black)`
    /// is the eighth rank.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }
}

impl Square {
    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new_masked(rank as u32 * 8 + file as u32)
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File::new_masked(self as u32 & 7)
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new_masked(self as u32 >> 3)
    }

    /// The square `files` to the right and `ranks` up, if on the board.
    pub const fn offset(self, files: i32, ranks: i32) -> Option<Square> {
        let file = self.file() as i32 + files;
        let rank = self.rank() as i32 + ranks;
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Square::try_new((rank * 8 + file) as u32)
        } else {
            None
        }
    }

    /// The same square seen from the other side (e2 <-> e7).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square::new_masked(self as u32 ^ 56)
    }

    /// The same square mirrored left-right (a1 <-> h1).
    #[inline]
    #[cfg(test)]
    const fn flip_file(self) -> Square {
        Square::new_masked(self as u32 ^ 7)
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// A string that is not a square name like `e4`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?} (expected a file a-h and a rank 1-8, e.g. \"e4\")")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(file), Some(rank)) => Ok(Square::from_coords(file, rank)),
                _ => Err(ParseSquareError(s.to_owned())),
            },
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::ALL {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.flip_rank().flip_rank(), sq);
        }
        assert_eq!(Square::E2.flip_rank(), Square::E7);
        assert_eq!(Square::A1.flip_file(), Square::H1);
        assert_eq!(Square::H8.offset(1, 0), None);
        assert_eq!(Square::A1.offset(1, 1), Some(Square::B2));
        assert!("i1".parse::<Square>().is_err());
        assert!("e44".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }
}
