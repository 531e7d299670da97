//! Sets of squares as 64-bit masks.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::{File, Rank, Square};

/// A set of squares; bit `n` stands for the square with index `n`
/// (a1 = bit 0, h8 = bit 63).
///
/// ```
/// use tempo_chess::{Bitboard, Rank, Square};
/// let second = Bitboard::rank(Rank::Second);
/// assert_eq!(second.count(), 8);
/// assert!(second.contains(Square::E2));
/// let squares: Vec<Square> = (second & Bitboard::from(Square::A2)).into_iter().collect();
/// assert_eq!(squares, [Square::A2]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub(crate) const FULL: Bitboard = Bitboard(!0);
    /// The first and eighth ranks (where pawns promote and may not stand).
    pub const BACK_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

    /// The one-square set `{sq}`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u32)
    }

    /// All squares of `rank`.
    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank as u32))
    }

    /// All squares of `file`.
    #[inline]
    #[cfg(test)]
    const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u32)
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq as u32) != 0
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the set has more than one square.
    #[inline(always)]
    pub(crate) const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square of the set, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_masked(self.0.trailing_zeros()))
        }
    }

    /// The highest square of the set, if any.
    #[inline]
    #[cfg(test)]
    const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_masked(63 - self.0.leading_zeros()))
        }
    }

    /// The only square of the set, if it has exactly one.
    #[inline]
    pub(crate) const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u32)
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u32))
    }

    /// The set mirrored top-bottom (a1 <-> a8).
    #[inline]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// The set moved one rank towards `color`'s opponent (up for White).
    #[inline(always)]
    pub const fn forward(self, color: crate::Color) -> Bitboard {
        match color {
            crate::Color::White => Bitboard(self.0 << 8),
            crate::Color::Black => Bitboard(self.0 >> 8),
        }
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt),*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $trait<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Square) -> Bitboard {
                Bitboard(self.0 $op Bitboard::from_square(rhs).0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
        impl $assign_trait<Square> for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Square) {
                self.0 = self.0 $op Bitboard::from_square(rhs).0;
            }
        }
    )*};
}

bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &,
    BitOr bitor BitOrAssign bitor_assign |,
    BitXor bitxor BitXorAssign bitxor_assign ^
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterates over the squares of a [`Bitboard`] from a1 towards h8.
#[derive(Debug, Clone)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new_masked(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Eight lines, rank 8 first, `X` for members and `.` for the rest.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(0x{:016x})", self.0)?;
        for rank in Rank::ALL.iter().rev() {
            let row: Vec<&str> = File::ALL
                .iter()
                .map(|&file| {
                    if self.contains(Square::from_coords(file, *rank)) {
                        "X"
                    } else {
                        "."
                    }
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let bb = Bitboard::from(Square::A1) | Square::H8;
        assert_eq!(bb.count(), 2);
        assert_eq!(bb.first(), Some(Square::A1));
        assert_eq!(bb.last(), Some(Square::H8));
        assert!(bb.more_than_one());
        assert_eq!(bb.single(), None);
        assert_eq!(bb.without(Square::A1).single(), Some(Square::H8));
        assert_eq!(bb.flip_ranks(), Bitboard::from(Square::A8) | Square::H1);
        assert_eq!(
            Bitboard::file(File::A) & Bitboard::rank(Rank::First),
            bb.without(Square::H8)
        );
        assert_eq!(bb.into_iter().collect::<Bitboard>(), bb);
    }
}
