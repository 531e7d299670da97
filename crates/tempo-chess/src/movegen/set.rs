//! Legal moves as a compact set: one entry per piece (its from-square and
//! the set of its target squares) and a few set-wise entries for pawns,
//! instead of one list element per move.
//!
//! Generating a [`MoveSet`] stores a handful of bitboards where a
//! [`MoveList`](crate::MoveList) writes every move, so it is the cheaper
//! choice where the moves are counted, tested or drawn from rather than
//! all looked at — as simultaneous-move chess does at every pair, picking
//! one move of each player's complete set. Its moves, in [`MoveSet::iter`]
//! order, are those of [`Position::legal_moves_for`] in the same order.

use std::fmt;
use std::iter::FusedIterator;

use super::{PausedInCheck, Sink};
use crate::{Bitboard, Color, Move, Position, Role, Square};

mod nth;

use nth::nth_square_search;

/// One group of moves: targets `to`, each reached from the square
/// `((to & from_mask) + from_offset) mod 64`, each giving `1 << shift`
/// moves (4 for a promotion, one per role). The small fields are packed
/// into one word, written with one store. (The number of moves, `to.count()
/// << shift`, is not stored: the set keeps where each entry's moves start.)
#[derive(Clone, Copy, Debug)]
struct Entry {
    to: Bitboard,
    /// Bits 0..8: `from_offset` (a piece's square: its info is just its
    /// square); 8..16: `from_mask` (0 when every move starts on
    /// `from_offset`, a piece; 63 when each starts a fixed distance from
    /// its target, a pawn set); 16..18: `shift` (2 for promotions).
    info: u64,
}

impl Entry {
    const EMPTY: Entry = Entry {
        to: Bitboard::EMPTY,
        info: 0,
    };

    #[inline(always)]
    fn new(to: Bitboard, from_mask: u8, from_offset: u8, shift: u8) -> Entry {
        Entry {
            to,
            info: u64::from(from_offset) | u64::from(from_mask) << 8 | u64::from(shift) << 16,
        }
    }

    /// The number of moves.
    #[inline(always)]
    fn count(&self) -> usize {
        (self.to.count() as usize) << self.shift()
    }

    #[inline(always)]
    fn shift(&self) -> u32 {
        (self.info >> 16) as u32 & 3
    }

    /// The from-square of the move to `to`.
    #[inline(always)]
    fn from(&self, to: Square) -> Square {
        // The bits above the mask (the shift) meet no bit of a square, and
        // those above the offset none that `new_masked` keeps.
        let (offset, mask) = (self.info as u32, (self.info >> 8) as u32);
        Square::new_masked((to as u32 & mask).wrapping_add(offset))
    }

    /// The move to `to` with the promotion role of number `role` (ignored
    /// unless the entry is one of promotions).
    #[inline(always)]
    fn make(&self, to: Square, role: usize) -> Move {
        let promotion = if self.shift() == 0 {
            None
        } else {
            Some(Role::PROMOTIONS[role & 3])
        };
        Move::new(self.from(to), to, promotion)
    }

    /// The entry's move of number `index` (below `count`), its target
    /// found by `nth_square` (one of the module `nth`'s).
    #[inline(always)]
    fn get(&self, index: usize, nth_square: impl Fn(Bitboard, u32) -> Square) -> Move {
        let to = nth_square(self.to, (index >> self.shift()) as u32);
        self.make(to, index)
    }

    #[inline]
    fn contains(&self, mv: Move) -> bool {
        self.to.contains(mv.to)
            && self.from(mv.to) == mv.from
            && match mv.promotion {
                None => self.shift() == 0,
                Some(role) => self.shift() != 0 && Role::PROMOTIONS.contains(&role),
            }
    }
}

/// Room for entries: more than one colour's generation can write (two
/// per piece, for a queen's diagonal and straight moves, one per king and
/// pinned pawn, eight set-wise pawn entries, two en-passant captures, two
/// castlings: at most 140 with 64 pieces), and as many as a `u8` indexes,
/// so that writing an entry needs no bounds check.
const ENTRY_ROOM: usize = 256;

/// How many entries' starts [`MoveSet::get`] compares at once: a window
/// of 16 bytes (one SSE register) covers the entries of most positions
/// (one per piece and king, four pawn sets), so the search is one pass
/// without a branch on the data.
const START_WINDOW: usize = 16;

/// A set of moves of one colour, stored compactly: one entry per piece
/// (its square and the bitboard of its targets) and a few set-wise
/// entries for pawns (a promotion counts once per role). Generating it
/// stores a handful of bitboards where a [`MoveList`](crate::MoveList)
/// writes every move, so it is the cheaper choice where moves are
/// counted, tested or drawn rather than all looked at — as
/// simultaneous-move chess does at every pair, drawing one move from
/// each player's complete set. Counting is free, a move is drawn by its
/// index without listing the others ([`MoveSet::get`]), and iteration
/// yields the moves in the order of [`Position::legal_moves_for`].
///
/// ```
/// use tempo_chess::{Color, MoveSet, Position};
/// let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K2R w K - 0 1")?;
/// let mut white = MoveSet::new();
/// pos.legal_move_set_for_into(Color::White, &mut white);
/// let list = pos.legal_moves_for(Color::White);
/// // The a7 pawn promotes: four moves, one per role.
/// assert_eq!(white.len(), list.len());
/// assert!(white.iter().eq(list.iter().copied()));
/// assert_eq!(white.get(3), Some(list[3]));
/// assert!(white.contains(list[0]));
/// # Ok::<(), tempo_chess::FenError>(())
/// ```
#[derive(Clone)]
pub struct MoveSet {
    /// Entry `i < entry_count` has the targets `targets[i]` and the
    /// small fields `infos[i]` (see [`Entry`]); none is empty. Two arrays
    /// rather than one of entries: an index scaled by 8 addresses each
    /// directly, and drawing a move reads only the `infos`.
    targets: [Bitboard; ENTRY_ROOM],
    infos: [u64; ENTRY_ROOM],
    /// `starts[i]` (`i < entry_count`): the number of moves of the entries
    /// before entry `i`, strictly increasing, as a byte (cut to its low
    /// bits; exact while `len` is below 255, as in every chess position).
    /// The [`START_WINDOW`] bytes from `entry_count` on are 255 (above
    /// every move's number then), so that [`MoveSet::get`] can count the
    /// entries starting at or before a move in whole windows.
    starts: [u8; ENTRY_ROOM + START_WINDOW],
    entry_count: usize,
    len: usize,
    /// The squares the set's colour attacks in the position it was
    /// generated from, where the generator found them (see
    /// [`MoveSet::attacks`]).
    attacks: Option<Bitboard>,
}

impl MoveSet {
    /// An empty set.
    pub fn new() -> MoveSet {
        MoveSet {
            targets: [Bitboard::EMPTY; ENTRY_ROOM],
            infos: [0; ENTRY_ROOM],
            starts: [u8::MAX; ENTRY_ROOM + START_WINDOW],
            entry_count: 0,
            len: 0,
            attacks: None,
        }
    }

    /// Removes all moves (and the attacked squares: see
    /// [`MoveSet::attacks`]).
    #[inline]
    pub fn clear(&mut self) {
        self.entry_count = 0;
        self.len = 0;
        self.attacks = None;
    }

    /// The number of moves (a promotion counts once per role).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every square that the set's colour attacks in the position the set
    /// was generated from ([`Position::attacked_squares`]: the squares
    /// where [`Position::is_attacked`] with the board's occupancy is
    /// true; paused and pinned pieces attack too), for sets made by the
    /// both-colour generator ([`Position::legal_move_sets_into`]), which
    /// finds them on the way. `None` for sets made by the one-colour generators
    /// ([`Position::legal_move_set_for_into`]), new and cleared sets.
    /// Not part of the set's equality, which compares the moves.
    ///
    /// ```
    /// use tempo_chess::{Color, MoveSet, PausedInCheck, Position, Square};
    /// let pos = Position::new();
    /// let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    /// pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
    /// assert_eq!(white.attacks(), Some(pos.attacked_squares(Color::White)));
    /// assert!(black.attacks().is_some_and(|a| a.contains(Square::F6)));
    /// assert_eq!(pos.legal_move_set_for(Color::White).attacks(), None);
    /// ```
    #[inline]
    pub fn attacks(&self) -> Option<Bitboard> {
        self.attacks
    }

    /// The entries, in order.
    #[inline(always)]
    fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.targets[..self.entry_count]
            .iter()
            .zip(&self.infos[..self.entry_count])
            .map(|(&to, &info)| Entry { to, info })
    }

    /// The move of number `index` in [`MoveSet::iter`] order (`None` from
    /// [`MoveSet::len`] on), found without listing the moves before it:
    /// its entry is the last one starting at or before `index`, found by
    /// counting such starts a window at a time (compares the compiler
    /// vectorises: a loop over the entries would mispredict its exit),
    /// its target by `pdep` where the CPU runs it fast (asked once, see
    /// the module `nth`), else by a binary search.
    #[inline(always)]
    pub fn get(&self, index: usize) -> Option<Move> {
        #[cfg(target_arch = "x86_64")]
        if nth::pdep_is_fast() && self.is_short_index(index) {
            // SAFETY: the CPU has BMI1 and BMI2 (`pdep_is_fast`).
            return Some(unsafe { self.get_short_pdep(index) });
        }
        self.get_portable(index)
    }

    /// Whether `index` is below the length of a set shorter than 255
    /// moves (byte starts exact): an index for [`MoveSet::get_short`].
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn is_short_index(&self, index: usize) -> bool {
        index < self.len && self.len < usize::from(u8::MAX)
    }

    /// [`MoveSet::get`] without `pdep` (on every CPU).
    #[inline(always)]
    fn get_portable(&self, index: usize) -> Option<Move> {
        if index >= self.len {
            return None;
        }
        if self.len >= usize::from(u8::MAX) {
            return Some(self.get_from_long(index));
        }
        Some(self.get_short(index, nth_square_search))
    }

    /// The move of number `i` of `a` and that of number `j` of `b`: what
    /// [`MoveSet::get`] gives for each, in one call where the CPU runs
    /// `pdep` fast (one test of the CPU and one call for both). For drawing
    /// one move of each player, as simultaneous-move chess does at every
    /// pair.
    ///
    /// ```
    /// use tempo_chess::{MoveSet, PausedInCheck, Position};
    /// let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    /// Position::new().legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
    /// let (w, b) = MoveSet::get_pair(&white, 19, &black, 20);
    /// assert_eq!((w, b), (white.get(19), None));
    /// ```
    #[inline(always)]
    pub fn get_pair(a: &MoveSet, i: usize, b: &MoveSet, j: usize) -> (Option<Move>, Option<Move>) {
        #[cfg(target_arch = "x86_64")]
        if nth::pdep_is_fast() {
            if a.is_short_index(i) && b.is_short_index(j) {
                // SAFETY: the CPU has BMI1 and BMI2 (`pdep_is_fast`).
                let (x, y) = unsafe { MoveSet::get_pair_short_pdep(a, i, b, j) };
                return (Some(x), Some(y));
            }
            return (a.get(i), b.get(j));
        }
        // One test of the CPU for both (not one in each `get`).
        (a.get_portable(i), b.get_portable(j))
    }

    /// [`MoveSet::get_pair`] of indices below the lengths of sets shorter
    /// than 255 moves, by `pdep` (only to be called where the CPU has BMI1
    /// and BMI2).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    #[inline(never)]
    fn get_pair_short_pdep(a: &MoveSet, i: usize, b: &MoveSet, j: usize) -> (Move, Move) {
        // (Closures inherit the function's target features: the calls need
        // no `unsafe`, and `pdep` is inlined.)
        (
            a.get_short(i, |set, n| nth::nth_square_pdep(set, n)),
            b.get_short(j, |set, n| nth::nth_square_pdep(set, n)),
        )
    }

    /// [`MoveSet::get`] for an `index` below `len` in a set shorter than
    /// 255 moves (byte starts exact), the target found by `nth_square`.
    #[inline(always)]
    fn get_short(&self, index: usize, nth_square: impl Fn(Bitboard, u32) -> Square) -> Move {
        let key = index as u8;
        let first = MoveSet::starting_at_or_before(&self.starts, 0, key);
        let i = if first < START_WINDOW {
            // Never 0: entry 0 starts at 0.
            first - 1
        } else {
            self.entry_beyond_first_window(key)
        } & (ENTRY_ROOM - 1);
        let entry = Entry {
            to: self.targets[i],
            info: self.infos[i],
        };
        entry.get(index - usize::from(self.starts[i]), nth_square)
    }

    /// [`MoveSet::get_short`] by `pdep`, compiled for BMI1 and BMI2 (only
    /// to be called where the CPU has both).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    #[inline(never)]
    fn get_short_pdep(&self, index: usize) -> Move {
        self.get_short(index, |set, n| nth::nth_square_pdep(set, n))
    }

    /// How many of the [`START_WINDOW`] entries from `base` on start at or
    /// before the move of number `key` (compares the compiler vectorises).
    #[inline(always)]
    fn starting_at_or_before(
        starts: &[u8; ENTRY_ROOM + START_WINDOW],
        base: usize,
        key: u8,
    ) -> usize {
        let window = &starts[base & (ENTRY_ROOM - 1)..][..START_WINDOW];
        window.iter().map(|&start| usize::from(start <= key)).sum()
    }

    /// The entry of the move of number `key` in a set of more than
    /// [`START_WINDOW`] entries whose first window all starts at or before
    /// it (rare: more pieces than a side has in chess).
    #[cold]
    #[inline(never)]
    fn entry_beyond_first_window(&self, key: u8) -> usize {
        let mut base = START_WINDOW;
        loop {
            // `base` stays below `ENTRY_ROOM`: the window holding
            // `entry_count` ends the loop (its starts from there on are
            // 255).
            let at_or_before = MoveSet::starting_at_or_before(&self.starts, base, key);
            if at_or_before < START_WINDOW {
                return base + at_or_before - 1;
            }
            base += START_WINDOW;
        }
    }

    /// [`MoveSet::get`] for an `index` below `len` in a set too long for
    /// byte starts (only boards far more crowded than chess allows):
    /// counted entry by entry.
    #[cold]
    #[inline(never)]
    fn get_from_long(&self, mut index: usize) -> Move {
        for entry in self.entries() {
            match index.checked_sub(entry.count()) {
                Some(rest) => index = rest,
                None => return entry.get(index, nth_square_search),
            }
        }
        unreachable!("a move index below the length {}", self.len)
    }

    /// Whether `mv` is one of the moves.
    pub fn contains(&self, mv: Move) -> bool {
        self.entries().any(|entry| entry.contains(mv))
    }

    /// The moves, in the order of [`Position::legal_moves_for`] for the
    /// sets the generators make.
    pub fn iter(&self) -> MoveSetIter<'_> {
        MoveSetIter {
            targets: self.targets[..self.entry_count].iter(),
            infos: self.infos[..self.entry_count].iter(),
            current: Entry::EMPTY,
            role: 0,
            remaining: self.len,
        }
    }

    /// A filler writing into the set from its start (the set's counts are
    /// set by [`Filler::finish`]).
    #[inline(always)]
    fn filler(&mut self) -> Filler<'_> {
        Filler {
            targets: &mut self.targets,
            infos: &mut self.infos,
            starts: &mut self.starts,
            entry_count: 0,
            len: 0,
        }
    }
}

/// Writes the entries of a [`MoveSet`] during generation, its counts kept
/// apart from the entries (in registers) until the end.
struct Filler<'a> {
    targets: &'a mut [Bitboard; ENTRY_ROOM],
    infos: &'a mut [u64; ENTRY_ROOM],
    starts: &'a mut [u8; ENTRY_ROOM + START_WINDOW],
    entry_count: u8,
    len: usize,
}

impl Filler<'_> {
    /// The filled set's counts, for [`MoveSet`]'s fields; marks the end of
    /// the starts (see [`MoveSet::starts`]).
    #[inline(always)]
    fn finish(&mut self) -> (usize, usize) {
        let n = usize::from(self.entry_count);
        self.starts[n..][..START_WINDOW].fill(u8::MAX);
        (n, self.len)
    }

    /// Adds the moves to each square of `to`, from the square
    /// `(to & from_mask) + from_offset`, `1 << shift` per target. Written
    /// without a branch: an empty entry is overwritten by the next one.
    #[inline(always)]
    fn push(&mut self, to: Bitboard, from_mask: u8, from_offset: u8, shift: u8) {
        let entry = Entry::new(to, from_mask, from_offset, shift);
        let n = self.entry_count;
        self.targets[usize::from(n)] = entry.to;
        self.infos[usize::from(n)] = entry.info;
        // Exact while there are fewer than 255 moves (see `MoveSet::starts`).
        self.starts[usize::from(n)] = self.len as u8;
        // Never wraps: see `ENTRY_ROOM`.
        debug_assert!(n < u8::MAX, "move set entries overflow");
        self.entry_count = n.wrapping_add(u8::from(to.any()));
        self.len += entry.count();
    }
}

impl Default for MoveSet {
    fn default() -> MoveSet {
        MoveSet::new()
    }
}

impl fmt::Debug for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for MoveSet {
    /// The same moves in the same order.
    fn eq(&self, other: &MoveSet) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for MoveSet {}

impl<'a> IntoIterator for &'a MoveSet {
    type Item = Move;
    type IntoIter = MoveSetIter<'a>;
    fn into_iter(self) -> MoveSetIter<'a> {
        self.iter()
    }
}

/// Iterator over the moves of a [`MoveSet`].
#[derive(Debug, Clone)]
pub struct MoveSetIter<'a> {
    targets: std::slice::Iter<'a, Bitboard>,
    infos: std::slice::Iter<'a, u64>,
    /// The entry being listed, its listed targets removed.
    current: Entry,
    /// The next promotion role's number (in promotion entries).
    role: usize,
    remaining: usize,
}

impl Iterator for MoveSetIter<'_> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        while self.current.to.is_empty() {
            self.current = Entry {
                to: *self.targets.next()?,
                info: *self.infos.next()?,
            };
        }
        let to = Square::new_masked(self.current.to.0.trailing_zeros());
        let mv = self.current.make(to, self.role);
        self.role = (self.role + 1) & ((1 << self.current.shift()) - 1);
        if self.role == 0 {
            self.current.to = self.current.to.without(to);
        }
        self.remaining -= 1;
        Some(mv)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for MoveSetIter<'_> {}

impl FusedIterator for MoveSetIter<'_> {}

impl Sink for Filler<'_> {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bitboard) {
        self.push(to, 0, from as u8, 0);
    }

    #[inline(always)]
    fn pawn_moves(&mut self, from: Square, to: Bitboard) {
        // A pawn's moves all go to one rank but for the double step (which
        // never reaches a back rank): all promotions or none.
        debug_assert!(
            (to & Bitboard::BACK_RANKS).is_empty() || (to & !Bitboard::BACK_RANKS).is_empty()
        );
        let shift = u8::from((to & Bitboard::BACK_RANKS).any()) << 1;
        self.push(to, 0, from as u8, shift);
    }

    #[inline(always)]
    fn pawn_shifted(&mut self, to: Bitboard, delta: i32) {
        let offset = (delta.wrapping_neg() & 63) as u8;
        let promotions = to & Bitboard::BACK_RANKS;
        // In square order, as the move lists have them: Black's
        // promotions (first rank) before its other moves, White's after.
        if delta < 0 && promotions.any() {
            self.push(promotions, 63, offset, 2);
        }
        self.push(to & !Bitboard::BACK_RANKS, 63, offset, 0);
        if delta > 0 && promotions.any() {
            self.push(promotions, 63, offset, 2);
        }
    }

    #[inline(always)]
    fn pawn_sets(
        &mut self,
        single: Bitboard,
        double: Bitboard,
        left: Bitboard,
        right: Bitboard,
        forward: i32,
    ) {
        if ((single | left | right) & Bitboard::BACK_RANKS).any() {
            // Rare: promotions, in entries of their own.
            self.pawn_shifted(single, forward);
            self.pawn_shifted(double, 2 * forward);
            self.pawn_shifted(left, forward - 1);
            self.pawn_shifted(right, forward + 1);
        } else {
            // No target on a back rank (a double step never reaches one).
            for (to, delta) in [
                (single, forward),
                (double, 2 * forward),
                (left, forward - 1),
                (right, forward + 1),
            ] {
                self.push(to, 63, (delta.wrapping_neg() & 63) as u8, 0);
            }
        }
    }
}

impl Position {
    /// The legal moves of White into `white` and of Black into `black`
    /// (both cleared first) as [`MoveSet`]s, in one pass; returns whether
    /// each colour is in check (its king, if it has exactly one, attacked:
    /// [`Position::is_in_check`]), White first.
    ///
    /// Each set holds the moves of [`Position::legal_moves_for`] for its
    /// colour, in the same order — except that with
    /// [`PausedInCheck::Move`] the paused pieces of a colour in check move
    /// too (the position's paused set is not changed). Cheaper than
    /// [`Position::legal_moves_both_into`] where the moves are counted or
    /// drawn by index rather than all listed. Each set also holds the
    /// squares its colour attacks ([`MoveSet::attacks`],
    /// [`Position::attacked_squares`]), found on the way.
    ///
    /// ```
    /// use tempo_chess::{Bitboard, Color, MoveSet, PausedInCheck, Position, Square};
    /// let pos = Position::new();
    /// let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
    /// pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
    /// assert_eq!((white.len(), black.len()), (20, 20));
    /// let black_list = pos.legal_moves_for(Color::Black);
    /// assert_eq!(black.get(7), Some(black_list[7]));
    /// assert!(black.iter().eq(black_list.iter().copied()));
    ///
    /// // Black's queen checks; White's paused rook may block on e2.
    /// let mut pos = Position::from_fen("4k3/4q3/8/8/8/8/R7/4K3 w - - 0 1")?;
    /// pos.set_paused(Bitboard::from_square(Square::A2));
    /// let checks = pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Move);
    /// assert_eq!(checks, [true, false]);
    /// assert!(white.iter().any(|mv| mv.to_string() == "a2e2"));
    /// pos.legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
    /// assert!(!white.iter().any(|mv| mv.to_string() == "a2e2"));
    /// # Ok::<(), tempo_chess::FenError>(())
    /// ```
    #[inline]
    pub fn legal_move_sets_into(
        &self,
        white: &mut MoveSet,
        black: &mut MoveSet,
        paused_in_check: PausedInCheck,
    ) -> [bool; 2] {
        match paused_in_check {
            PausedInCheck::Stay => self.legal_move_sets_paused_staying(white, black),
            PausedInCheck::Move => self.legal_move_sets_paused_moving_in_check(white, black),
        }
    }

    // The two cases compiled here, each on its own (not in the caller's
    // crate, where the generator's helpers would not be inlined).
    fn legal_move_sets_paused_staying(
        &self,
        white: &mut MoveSet,
        black: &mut MoveSet,
    ) -> [bool; 2] {
        self.legal_move_sets_both_with::<false>(white, black)
    }

    fn legal_move_sets_paused_moving_in_check(
        &self,
        white: &mut MoveSet,
        black: &mut MoveSet,
    ) -> [bool; 2] {
        self.legal_move_sets_both_with::<true>(white, black)
    }

    /// Both colours' sets, with `UNPAUSE_CHECKED` a colour in check
    /// moving its paused pieces too; returns which colours are in check.
    #[inline(always)]
    fn legal_move_sets_both_with<const UNPAUSE_CHECKED: bool>(
        &self,
        white: &mut MoveSet,
        black: &mut MoveSet,
    ) -> [bool; 2] {
        let (Some(white_king), Some(black_king)) =
            (self.king(Color::White), self.king(Color::Black))
        else {
            // Without a single king on each side: the general generator
            // (apart, so that the fillers below stay in registers).
            return self.legal_move_sets_both_apart(UNPAUSE_CHECKED, white, black);
        };
        let mut white_filler = white.filler();
        let mut black_filler = black.filler();
        let [by_white, by_black] = self.generate_both_with_kings::<UNPAUSE_CHECKED, _>(
            white_king,
            black_king,
            &mut white_filler,
            &mut black_filler,
        );
        let (white_counts, black_counts) = (white_filler.finish(), black_filler.finish());
        (white.entry_count, white.len) = white_counts;
        (black.entry_count, black.len) = black_counts;
        (white.attacks, black.attacks) = (Some(by_white), Some(by_black));
        [by_black.contains(white_king), by_white.contains(black_king)]
    }

    /// [`Position::legal_move_sets_both_with`] for positions without a
    /// single king on each side: each colour on its own.
    #[cold]
    #[inline(never)]
    fn legal_move_sets_both_apart(
        &self,
        unpause_checked: bool,
        white: &mut MoveSet,
        black: &mut MoveSet,
    ) -> [bool; 2] {
        let attacks = Color::ALL.map(|color| self.attacked_squares(color));
        let checks = Color::ALL.map(|color| {
            self.king(color)
                .is_some_and(|king| attacks[(!color).index()].contains(king))
        });
        for (color, set) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
            if unpause_checked && checks[color.index()] {
                let mut unpaused = self.clone();
                unpaused.set_paused(self.paused() & !self.by_color(color));
                unpaused.legal_move_set_for_into(color, set);
            } else {
                self.legal_move_set_for_into(color, set);
            }
            set.attacks = Some(attacks[color.index()]);
        }
        checks
    }

    /// The legal moves of `color` into `set` (cleared first): the moves of
    /// [`Position::legal_moves_for`], in the same order. Leaves no
    /// attacked squares in the set ([`MoveSet::attacks`] is `None`).
    #[inline]
    pub fn legal_move_set_for_into(&self, color: Color, set: &mut MoveSet) {
        let mut filler = set.filler();
        self.generate::<true, _>(color, &mut filler);
        (set.entry_count, set.len) = filler.finish();
        set.attacks = None;
    }

    /// The legal moves of `color` as a [`MoveSet`] (see
    /// [`Position::legal_moves_for`]).
    pub fn legal_move_set_for(&self, color: Color) -> MoveSet {
        let mut set = MoveSet::new();
        self.legal_move_set_for_into(color, &mut set);
        set
    }
}

#[cfg(test)]
mod tests;
