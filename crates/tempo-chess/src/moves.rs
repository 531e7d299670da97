//! Moves and fixed-capacity move lists.

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

use crate::{Role, Square};

/// A move: from, to, and the promotion role for a pawn reaching the last
/// rank.
///
/// Castling is encoded as the king capturing its own rook (`e1h1` for
/// orthodox O-O), which is unambiguous in Chess960 too. En passant is the
/// pawn's diagonal step to the en-passant square. Which of these a move is
/// depends on the position: see [`Position::is_castling`](crate::Position::is_castling),
/// [`Position::is_en_passant`](crate::Position::is_en_passant).
///
/// `Display` writes the move in this internal form (the UCI form of
/// Chess960 engines, e.g. `e1h1`, `e7e8q`).
///
/// ```
/// use tempo_chess::{Move, Role, Square};
/// let mv = Move::new(Square::E7, Square::E8, Some(Role::Queen));
/// assert_eq!(mv.to_string(), "e7e8q");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The square the moving piece (the king, for castling) leaves.
    pub from: Square,
    /// The destination (the castling rook's square, for castling).
    pub to: Square,
    /// The role a pawn promotes to.
    pub promotion: Option<Role>,
}

impl Move {
    /// A move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, promotion: Option<Role>) -> Move {
        Move {
            from,
            to,
            promotion,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

/// The capacity of a [`MoveList`].
///
/// A legal orthodox position has at most 218 legal moves, but positions
/// are built leniently (any material). A bound for every placement: a
/// square can be reached by at most 16 pieces (the first piece on each of
/// the 8 rays, 8 knights); promotions add at most 9 per square on the last
/// rank, castling at most 16 (pseudo-legal, several kings). With p own
/// pieces (each with at most 27 moves) that is at most
/// min(16 (64 - p), 27 p) + 72 + 16 <= 731 moves.
pub const MAX_MOVES: usize = 768;

/// A list of at most [`MAX_MOVES`] moves in a fixed array (no heap
/// allocation, no initialisation cost). Dereferences to a slice.
///
/// ```
/// use tempo_chess::Position;
/// let moves = Position::new().legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|mv| mv.to_string() == "g1f3"));
/// ```
#[derive(Clone)]
pub struct MoveList {
    /// `moves[..len]` are initialised.
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves (move generation
    /// never produces that many).
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    /// Appends the moves from `from` to each square of `to` (no
    /// promotion), with one capacity check for all of them.
    ///
    /// # Panics
    /// If they do not fit (move generation never produces that many).
    #[inline(always)]
    pub(crate) fn push_targets(&mut self, from: crate::Square, to: crate::Bitboard) {
        // A set has at most 64 squares: with that much room left (always,
        // but on crowded lenient boards) no count is needed, which saves
        // a population count where the CPU has no instruction for it.
        if self.len + 64 > MAX_MOVES {
            let end = self.len + to.count() as usize;
            assert!(end <= MAX_MOVES, "move list overflow");
        }
        let mut len = self.len;
        for to in to {
            // SAFETY: `len < self.len + to.count() <= MAX_MOVES`, checked
            // above.
            unsafe { self.moves.get_unchecked_mut(len) }.write(Move::new(from, to, None));
            len += 1;
        }
        self.len = len;
    }

    /// Appends the moves to each square of `to` from the square `delta`
    /// below it (no promotion), with one capacity check for all of them.
    ///
    /// # Panics
    /// If they do not fit (move generation never produces that many).
    #[inline(always)]
    pub(crate) fn push_shifted(&mut self, to: crate::Bitboard, delta: i32) {
        if self.len + 64 > MAX_MOVES {
            let end = self.len + to.count() as usize;
            assert!(end <= MAX_MOVES, "move list overflow");
        }
        let mut len = self.len;
        for to in to {
            let from = Square::new_masked((to as i32 - delta) as u32);
            // SAFETY: `len < self.len + to.count() <= MAX_MOVES`, checked
            // above.
            unsafe { self.moves.get_unchecked_mut(len) }.write(Move::new(from, to, None));
            len += 1;
        }
        self.len = len;
    }

    /// Removes all moves.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        // SAFETY: the first `len` elements are initialised (`push` is the
        // only writer and bumps `len` after writing), and
        // `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        // SAFETY: as in `deref`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        **self == **other
    }
}

impl Eq for MoveList {}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Owning iterator over a [`MoveList`].
#[derive(Debug, Clone)]
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        let mv = self.list.get(self.next).copied();
        self.next += 1;
        mv
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for mv in iter {
            self.push(mv);
        }
    }
}
