//! Castling sides and castling rights (Chess960-ready: rights name the rook).

use crate::{Bitboard, Color, File, Rank, Square};

/// Which way a king castles.
///
/// In Chess960 terms: [`CastlingSide::KingSide`] is "g-castling" with the
/// rook nearer the h-file (O-O), [`CastlingSide::QueenSide`] is
/// "c-castling" with the rook nearer the a-file (O-O-O).
///
/// ```
/// use tempo_chess::{CastlingSide, Color, Square};
/// assert_eq!(CastlingSide::KingSide.king_to(Color::White), Square::G1);
/// assert_eq!(CastlingSide::QueenSide.rook_to(Color::Black), Square::D8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum CastlingSide {
    /// Towards the h-file: king to g, rook to f.
    KingSide = 0,
    /// Towards the a-file: king to c, rook to d.
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// 0 for king side, 1 for queen side.
    #[inline]
    const fn index(self) -> usize {
        self as usize
    }

    /// The file the king ends on (g or c).
    #[inline]
    const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on (f or d).
    #[inline]
    const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The square the king of `color` ends on.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::First.relative_to(color))
    }

    /// The square the rook of `color` ends on.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::First.relative_to(color))
    }

    /// The side a rook on `rook` is on, seen from a king on `king` (same
    /// rank assumed).
    #[inline]
    pub fn of_rook(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }
}

/// Which castlings are still allowed, stored as the file of the rook that
/// castles, per colour and side. This represents every Chess960 set-up
/// (orthodox chess is the case of rooks on a and h).
///
/// The rights say only that king and rook have not moved; whether castling
/// is possible now (empty squares, no attacked squares) is for move
/// generation.
///
/// ```
/// use tempo_chess::{CastlingRights, CastlingSide, Color, File, Square};
/// let mut rights = CastlingRights::NONE;
/// rights.set(Color::White, CastlingSide::KingSide, Some(File::H));
/// assert_eq!(rights.rook(Color::White, CastlingSide::KingSide), Some(Square::H1));
/// assert!(!rights.has(Color::Black, CastlingSide::QueenSide));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights {
    rooks: [[Option<File>; 2]; 2],
}

impl CastlingRights {
    /// No castling rights at all.
    pub const NONE: CastlingRights = CastlingRights {
        rooks: [[None; 2]; 2],
    };

    /// The orthodox start rights (rooks on a and h, `KQkq`).
    pub(crate) const STANDARD: CastlingRights = CastlingRights {
        rooks: [[Some(File::H), Some(File::A)]; 2],
    };

    /// The file of the rook that may castle on `side`, if any.
    #[inline]
    pub(crate) const fn rook_file(self, color: Color, side: CastlingSide) -> Option<File> {
        self.rooks[color as usize][side as usize]
    }

    /// The square of the rook that may castle on `side`, if any.
    #[inline]
    pub const fn rook(self, color: Color, side: CastlingSide) -> Option<Square> {
        match self.rook_file(color, side) {
            Some(file) => Some(Square::from_coords(file, Rank::First.relative_to(color))),
            None => None,
        }
    }

    /// Whether `color` may still castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.rook_file(color, side).is_some()
    }

    /// Whether `color` has any right left.
    #[inline]
    pub(crate) const fn has_any(self, color: Color) -> bool {
        self.has(color, CastlingSide::KingSide) || self.has(color, CastlingSide::QueenSide)
    }

    /// Whether nobody may castle.
    #[inline]
    pub fn is_empty(self) -> bool {
        // Written so that it compiles to one 4-byte comparison (the
        // derived `==` tests the four rights one by one).
        self.rooks.as_flattened().iter().all(Option::is_none)
    }

    /// Sets (or with `None` removes) the right of `color` on `side`.
    #[inline]
    pub fn set(&mut self, color: Color, side: CastlingSide, rook_file: Option<File>) {
        self.rooks[color.index()][side.index()] = rook_file;
    }

    /// Removes both rights of `color` (its king moved).
    #[inline]
    pub(crate) fn clear(&mut self, color: Color) {
        self.rooks[color.index()] = [None; 2];
    }

    /// The squares of all rooks that still may castle.
    pub(crate) fn rook_squares(self) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(sq) = self.rook(color, side) {
                    bb |= sq;
                }
            }
        }
        bb
    }

    /// Removes any right whose rook stands on `sq` (the rook moved or was
    /// captured).
    #[inline]
    pub(crate) fn discard_rook(&mut self, sq: Square) {
        for color in Color::ALL {
            if sq.rank() == Rank::First.relative_to(color) {
                for side in CastlingSide::ALL {
                    if self.rook_file(color, side) == Some(sq.file()) {
                        self.set(color, side, None);
                    }
                }
            }
        }
    }
}
