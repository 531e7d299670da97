//! Move generation: legal moves (orthodox legality, Chess960 castling) for
//! the side to move or for any colour as if it were its turn, honouring
//! the paused set and positions without a king; bulk move counting.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    rook_attacks, rook_rays,
};
use crate::{Bitboard, CastlingSide, Color, Move, MoveList, Position, Rank, Role, Square};

mod both;
mod set;

pub use set::{MoveSet, MoveSetIter};

/// What the paused pieces ([`Position::paused`]) of a colour in check do
/// in [`Position::legal_move_sets_into`]: stay where they are, as
/// everywhere else, or move like the other pieces (a variant may let a
/// side in check use every piece to answer the check).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PausedInCheck {
    /// Paused pieces do not move, in check or not.
    Stay,
    /// A colour in check moves its paused pieces too.
    Move,
}

/// Receives moves in bulk: a from-square and a set of to-squares.
trait Sink {
    /// Moves of a non-pawn piece (or castling) from `from`.
    fn moves(&mut self, from: Square, to: Bitboard);
    /// Moves of the pawn on `from`; targets on a back rank are promotions.
    fn pawn_moves(&mut self, from: Square, to: Bitboard);
    /// Pawn moves to each square of `to`, from `to - delta`; targets on a
    /// back rank are promotions.
    fn pawn_shifted(&mut self, to: Bitboard, delta: i32);
    /// The set-wise pawn moves of one colour moving `forward` (8 or -8):
    /// single steps, double steps, captures towards the a-file and
    /// towards the h-file, each as [`Sink::pawn_shifted`].
    #[inline(always)]
    fn pawn_sets(
        &mut self,
        single: Bitboard,
        double: Bitboard,
        left: Bitboard,
        right: Bitboard,
        forward: i32,
    ) {
        self.pawn_shifted(single, forward);
        self.pawn_shifted(double, 2 * forward);
        self.pawn_shifted(left, forward - 1);
        self.pawn_shifted(right, forward + 1);
    }
}

/// Counts moves (a promotion counts as four).
struct Counter(usize);

impl Sink for Counter {
    #[inline(always)]
    fn moves(&mut self, _from: Square, to: Bitboard) {
        self.0 += to.count() as usize;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, _from: Square, to: Bitboard) {
        self.0 += (to.count() + 3 * (to & Bitboard::BACK_RANKS).count()) as usize;
    }
    #[inline(always)]
    fn pawn_shifted(&mut self, to: Bitboard, _delta: i32) {
        self.0 += (to.count() + 3 * (to & Bitboard::BACK_RANKS).count()) as usize;
    }
    #[inline(always)]
    fn pawn_sets(
        &mut self,
        single: Bitboard,
        double: Bitboard,
        left: Bitboard,
        right: Bitboard,
        _forward: i32,
    ) {
        // A double step ends on the fourth rank: never a promotion.
        let promotions = (single & Bitboard::BACK_RANKS).count()
            + (left & Bitboard::BACK_RANKS).count()
            + (right & Bitboard::BACK_RANKS).count();
        self.0 += (single.count() + double.count() + left.count() + right.count() + 3 * promotions)
            as usize;
    }
}

/// Looks for one move among the generated ones (without listing them).
struct Finder {
    mv: Move,
    found: bool,
}

impl Finder {
    /// Whether a pawn move to `to` with the finder's promotion is one of
    /// the moves generated for it: all four promotions on a back rank,
    /// none elsewhere.
    #[inline(always)]
    fn pawn_matches(&self, to: Square) -> bool {
        self.mv.to == to
            && if Bitboard::BACK_RANKS.contains(to) {
                self.mv
                    .promotion
                    .is_some_and(|role| Role::PROMOTIONS.contains(&role))
            } else {
                self.mv.promotion.is_none()
            }
    }
}

impl Sink for Finder {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bitboard) {
        if from == self.mv.from && to.contains(self.mv.to) && self.mv.promotion.is_none() {
            self.found = true;
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, from: Square, to: Bitboard) {
        if from == self.mv.from && to.contains(self.mv.to) && self.pawn_matches(self.mv.to) {
            self.found = true;
        }
    }
    #[inline(always)]
    fn pawn_shifted(&mut self, to: Bitboard, delta: i32) {
        if to.contains(self.mv.to)
            && self.mv.from as i32 == self.mv.to as i32 - delta
            && self.pawn_matches(self.mv.to)
        {
            self.found = true;
        }
    }
}

#[inline(always)]
fn push_pawn_move(list: &mut MoveList, from: Square, to: Square) {
    if Bitboard::BACK_RANKS.contains(to) {
        for role in Role::PROMOTIONS {
            list.push(Move::new(from, to, Some(role)));
        }
    } else {
        list.push(Move::new(from, to, None));
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn moves(&mut self, from: Square, to: Bitboard) {
        self.push_targets(from, to);
    }
    #[inline(always)]
    fn pawn_moves(&mut self, from: Square, to: Bitboard) {
        for to in to {
            push_pawn_move(self, from, to);
        }
    }
    #[inline(always)]
    fn pawn_shifted(&mut self, to: Bitboard, delta: i32) {
        // In square order, as the other generators list them: Black's
        // promotions (first rank) before its other moves, White's after.
        let promotions = |list: &mut MoveList| {
            for to in to & Bitboard::BACK_RANKS {
                let from = Square::new_masked((to as i32 - delta) as u32);
                push_pawn_move(list, from, to);
            }
        };
        if delta < 0 {
            promotions(self);
        }
        self.push_shifted(to & !Bitboard::BACK_RANKS, delta);
        if delta > 0 {
            promotions(self);
        }
    }
}

const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

/// The squares that `color`'s `pawns` attack.
#[inline(always)]
fn pawn_attacks_of(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => Bitboard(((pawns & NOT_FILE_A).0 << 7) | ((pawns & NOT_FILE_H).0 << 9)),
        Color::Black => Bitboard(((pawns & NOT_FILE_A).0 >> 9) | ((pawns & NOT_FILE_H).0 >> 7)),
    }
}

/// What one colour's move generation works with.
#[derive(Clone, Copy)]
struct Context {
    us: Color,
    occupied: Bitboard,
    ours: Bitboard,
    theirs: Bitboard,
    /// Own pieces that may move (not paused).
    movable: Bitboard,
    /// The own king, when the colour has exactly one and legality is
    /// checked against it.
    king: Option<Square>,
    checkers: Bitboard,
    pinned: Bitboard,
    /// Squares a non-king move may land on (not own pieces; blocking or
    /// capturing the checker when in check).
    target: Bitboard,
}

impl Position {
    /// Legal moves of the side to move.
    ///
    /// ```
    /// use tempo_chess::Position;
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// let moves = pos.legal_moves();
    /// assert_eq!(moves.len(), 15);
    /// // Castling is the king taking its own rook.
    /// assert!(moves.iter().any(|mv| mv.to_string() == "e1h1"));
    /// # Ok::<(), tempo_chess::FenError>(())
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        self.legal_moves_for(self.turn())
    }

    /// Legal moves of `color` as if it were its turn, the rest of the
    /// position unchanged: orthodox legality against `color`'s king (none
    /// if it has no king or several), pieces on paused squares do not
    /// move, en passant only where [`Position::ep_square_for`] `color` is
    /// set.
    pub fn legal_moves_for(&self, color: Color) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<true, _>(color, &mut list);
        list
    }

    /// Moves of `color` that obey how pieces move but ignore whether the
    /// own king is left attacked (a king may step onto an attacked square,
    /// pinned pieces move freely, castling needs only the rights and empty
    /// squares). Paused pieces do not move.
    pub fn pseudo_legal_moves_for(&self, color: Color) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<false, _>(color, &mut list);
        list
    }

    /// The number of legal moves of the side to move, counted in bulk
    /// without listing them (fast; used by perft at the last ply).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        self.count_legal_moves_for(self.turn())
    }

    /// The number of legal moves of `color` (see [`Position::legal_moves_for`]).
    pub fn count_legal_moves_for(&self, color: Color) -> usize {
        let mut counter = Counter(0);
        self.generate::<true, _>(color, &mut counter);
        counter.0
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Whether `mv` is legal for the side to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_for(self.turn(), mv)
    }

    /// Whether `mv` is legal for `color` (see [`Position::legal_moves_for`]).
    pub fn is_legal_for(&self, color: Color, mv: Move) -> bool {
        if !self.by_color(color).contains(mv.from) {
            return false;
        }
        let mut finder = Finder { mv, found: false };
        let ctx = self.context::<true>(color);
        self.generate_from::<true, _>(&ctx, Bitboard::from(mv.from), &mut finder);
        finder.found
    }

    #[inline(always)]
    fn context<const LEGAL: bool>(&self, us: Color) -> Context {
        let king = if LEGAL {
            (self.by_color(us) & self.by_role(Role::King)).single()
        } else {
            None
        };
        self.context_with_king(us, king)
    }

    /// The context of `us` with legality checked against `king` (none:
    /// no legality), for callers that have found the king already.
    #[inline(always)]
    fn context_with_king(&self, us: Color, king: Option<Square>) -> Context {
        let ours = self.by_color(us);
        let theirs = self.by_color(!us);
        let (checkers, pinned) = match king {
            Some(king) => self.checkers_and_pinned(us, king),
            None => (Bitboard::EMPTY, Bitboard::EMPTY),
        };
        let target = match (king, checkers.single()) {
            (Some(king), Some(checker)) => between(king, checker) | checker,
            (Some(_), None) if checkers.any() => Bitboard::EMPTY,
            _ => Bitboard::FULL,
        } & !ours;
        Context {
            us,
            occupied: ours | theirs,
            ours,
            theirs,
            movable: ours & !self.paused(),
            king,
            checkers,
            pinned,
            target,
        }
    }

    #[inline(always)]
    fn generate<const LEGAL: bool, S: Sink>(&self, us: Color, sink: &mut S) {
        let ctx = self.context::<LEGAL>(us);
        self.generate_from::<LEGAL, S>(&ctx, Bitboard::FULL, sink);
    }

    /// Generates the moves of the pieces on `mask`.
    #[inline(always)]
    fn generate_from<const LEGAL: bool, S: Sink>(
        &self,
        ctx: &Context,
        mask: Bitboard,
        sink: &mut S,
    ) {
        let movable = ctx.movable & mask;
        if !ctx.checkers.more_than_one() {
            self.gen_pawns(ctx, movable, sink);
            self.gen_pieces(ctx, movable, sink);
        }
        match ctx.king {
            Some(king) => {
                if movable.contains(king) {
                    self.gen_king(ctx, king, sink);
                }
            }
            None => {
                let kings = movable & self.by_role(Role::King);
                for king in kings {
                    sink.moves(king, king_attacks(king) & !ctx.ours);
                }
                if !LEGAL {
                    for king in kings {
                        self.gen_castling::<false, S>(ctx, king, sink);
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn gen_pieces<S: Sink>(&self, ctx: &Context, movable: Bitboard, sink: &mut S) {
        let free = movable & !ctx.pinned;
        let queens = self.by_role(Role::Queen);
        for from in free & self.by_role(Role::Knight) {
            sink.moves(from, knight_attacks(from) & ctx.target);
        }
        let diagonal = movable & (self.by_role(Role::Bishop) | queens);
        let straight = movable & (self.by_role(Role::Rook) | queens);
        for from in diagonal & !ctx.pinned {
            sink.moves(from, bishop_attacks(from, ctx.occupied) & ctx.target);
        }
        for from in straight & !ctx.pinned {
            sink.moves(from, rook_attacks(from, ctx.occupied) & ctx.target);
        }
        if let Some(king) = ctx.king
            && ctx.checkers.is_empty()
        {
            for from in diagonal & ctx.pinned {
                let to = bishop_attacks(from, ctx.occupied) & ctx.target & line(king, from);
                sink.moves(from, to);
            }
            for from in straight & ctx.pinned {
                let to = rook_attacks(from, ctx.occupied) & ctx.target & line(king, from);
                sink.moves(from, to);
            }
        }
    }

    #[inline(always)]
    fn gen_pawns<S: Sink>(&self, ctx: &Context, movable: Bitboard, sink: &mut S) {
        let us = ctx.us;
        let pawns = movable & self.by_role(Role::Pawn);
        if pawns.is_empty() {
            // Common in endgames: none of the eight pawn move sets below.
            return;
        }
        let empty = !ctx.occupied;
        let third = Bitboard::rank(Rank::Third.relative_to(us));
        let free = pawns & !ctx.pinned;

        let single = free.forward(us) & empty;
        let double = (single & third).forward(us) & empty & ctx.target;
        let (left, right, forward) = match us {
            Color::White => (
                Bitboard((free & NOT_FILE_A).0 << 7),
                Bitboard((free & NOT_FILE_H).0 << 9),
                8,
            ),
            Color::Black => (
                Bitboard((free & NOT_FILE_A).0 >> 9),
                Bitboard((free & NOT_FILE_H).0 >> 7),
                -8,
            ),
        };
        sink.pawn_sets(
            single & ctx.target,
            double,
            left & ctx.theirs & ctx.target,
            right & ctx.theirs & ctx.target,
            forward,
        );

        if let Some(king) = ctx.king {
            for from in pawns & ctx.pinned {
                let one = Bitboard::from(from).forward(us) & empty;
                let two = (one & third).forward(us) & empty;
                let captures = pawn_attacks(us, from) & ctx.theirs;
                sink.pawn_moves(from, (one | two | captures) & ctx.target & line(king, from));
            }
        }

        if let Some(target) = self.ep_square_for(us) {
            for from in pawn_attacks(!us, target) & pawns {
                if self.en_passant_capture_is_legal_in(ctx, from, target) {
                    sink.pawn_moves(from, Bitboard::from(target));
                }
            }
        }
    }

    /// En-passant legality within a generation context (the king used for
    /// legality is the context's, so pseudo-legal generation ignores it).
    #[inline]
    fn en_passant_capture_is_legal_in(&self, ctx: &Context, from: Square, target: Square) -> bool {
        match ctx.king {
            Some(_) => self.en_passant_capture_is_legal(ctx.us, from, target),
            None => {
                let victim = Square::from_coords(target.file(), from.rank());
                (ctx.theirs & self.by_role(Role::Pawn)).contains(victim)
                    && !ctx.occupied.contains(target)
            }
        }
    }

    #[inline(always)]
    fn gen_king<S: Sink>(&self, ctx: &Context, king: Square, sink: &mut S) {
        let them = !ctx.us;
        let occupied = ctx.occupied.without(king);
        // Squares attacked by their leapers, as whole sets; then only the
        // sliders are asked about each remaining square.
        let pawns = ctx.theirs & self.by_role(Role::Pawn);
        let mut leaped = pawn_attacks_of(them, pawns);
        for sq in ctx.theirs & self.by_role(Role::King) {
            leaped |= king_attacks(sq);
        }
        let near = king_attacks(king) & !ctx.ours & !leaped;
        for sq in ctx.theirs & self.by_role(Role::Knight) {
            leaped |= knight_attacks(sq) & near;
        }
        let queens = self.by_role(Role::Queen);
        let diagonal = ctx.theirs & (self.by_role(Role::Bishop) | queens);
        let straight = ctx.theirs & (self.by_role(Role::Rook) | queens);
        let mut to = Bitboard::EMPTY;
        for sq in near & !leaped {
            let attacked = ((bishop_rays(sq) & diagonal).any()
                && (bishop_attacks(sq, occupied) & diagonal).any())
                || ((rook_rays(sq) & straight).any()
                    && (rook_attacks(sq, occupied) & straight).any());
            if !attacked {
                to |= sq;
            }
        }
        sink.moves(king, to);
        if ctx.checkers.is_empty() {
            self.gen_castling::<true, S>(ctx, king, sink);
        }
    }

    /// Castling (king takes own rook): the rook has the right and is not
    /// paused; all squares between and including the king's and rook's
    /// start and target squares are empty except for those two; with
    /// `LEGAL`, the king is not in check (checked by the caller), passes
    /// and lands on no attacked square, and the rook is not pinned (its
    /// leaving would expose the king's target square).
    #[inline]
    fn gen_castling<const LEGAL: bool, S: Sink>(&self, ctx: &Context, king: Square, sink: &mut S) {
        // Rarely called: most positions have no castling right left.
        let path_attacked = |path: Bitboard| {
            let occupied = ctx.occupied.without(king);
            path.into_iter()
                .any(|sq| self.is_attacked(sq, !ctx.us, occupied))
        };
        self.gen_castling_with::<LEGAL, S>(ctx, king, sink, path_attacked)
    }

    /// [`Position::gen_castling`] with the test whether a king path is
    /// attacked (the king taken off the board) given by the caller.
    #[inline]
    fn gen_castling_with<const LEGAL: bool, S: Sink>(
        &self,
        ctx: &Context,
        king: Square,
        sink: &mut S,
        path_attacked: impl Fn(Bitboard) -> bool,
    ) {
        let us = ctx.us;
        let rights = self.castling_rights();
        if !rights.has_any(us) || king.rank() != Rank::First.relative_to(us) {
            return;
        }
        let rooks = ctx.movable & self.by_role(Role::Rook);
        for side in CastlingSide::ALL {
            let Some(rook) = rights.rook(us, side) else {
                continue;
            };
            if !rooks.contains(rook) || CastlingSide::of_rook(king, rook) != side {
                continue;
            }
            let king_to = side.king_to(us);
            let rook_to = side.rook_to(us);
            let king_path = between(king, king_to) | king_to;
            let must_be_empty = king_path | between(king, rook) | rook_to;
            if (ctx.occupied.without(king).without(rook) & must_be_empty).any() {
                continue;
            }
            if LEGAL {
                if ctx.pinned.contains(rook) {
                    continue;
                }
                if path_attacked(king_path) {
                    continue;
                }
            }
            sink.moves(king, Bitboard::from(rook));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Bitboard, Color, Move, Position, Role, Square};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn names(moves: &[Move]) -> Vec<String> {
        let mut names: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
        names.sort();
        names
    }

    #[test]
    fn both_colours_move_from_the_same_position() {
        let start = Position::new();
        assert_eq!(start.legal_moves_for(Color::White).len(), 20);
        assert_eq!(start.legal_moves_for(Color::Black).len(), 20);
        assert_eq!(start.count_legal_moves_for(Color::Black), 20);
        assert!(start.is_legal_for(Color::Black, Move::new(Square::G8, Square::F6, None)));
        assert!(!start.is_legal(Move::new(Square::G8, Square::F6, None)));
    }

    #[test]
    fn colour_without_king_has_no_self_check_constraint() {
        // White has no king: the rook may leave the bishop's diagonal.
        let p = pos("7k/8/8/8/3b4/8/1R6/8 w - - 0 1");
        assert_eq!(p.king(Color::White), None);
        assert_eq!(p.legal_moves().len(), 14);
        assert_eq!(p.legal_moves_for(Color::Black).len(), 3 + 11);
        // With a king on a1 the rook is pinned and only the king moves.
        let p = pos("7k/8/8/8/3b4/8/1R6/K7 w - - 0 1");
        assert_eq!(names(&p.legal_moves()), ["a1a2", "a1b1"]);
    }

    #[test]
    fn both_kings_attacked_each_must_parry() {
        // White king e1 attacked by the e8 rook... and Black king a8 by the a1 rook.
        let p = pos("k3r3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert!(p.is_in_check(Color::White) && p.is_in_check(Color::Black));
        let white = names(&p.legal_moves_for(Color::White));
        assert_eq!(white, ["e1d1", "e1d2", "e1f1", "e1f2"]);
        let black = names(&p.legal_moves_for(Color::Black));
        assert_eq!(black, ["a8b7", "a8b8"]);
    }

    #[test]
    fn paused_pieces_do_not_move() {
        let mut p = Position::new();
        p.set_paused(p.by_role(Role::Knight));
        assert_eq!(p.legal_moves().len(), 16);
        assert_eq!(p.legal_moves_for(Color::Black).len(), 16);
        // A paused king cannot castle or move; a paused rook cannot castle.
        let mut p = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(p.legal_moves().len(), 26);
        p.set_paused(Bitboard::from(Square::H1));
        assert!(
            !p.legal_moves()
                .contains(&Move::new(Square::E1, Square::H1, None))
        );
        assert!(
            p.legal_moves()
                .contains(&Move::new(Square::E1, Square::A1, None))
        );
        p.set_paused(Bitboard::from(Square::E1));
        assert!(p.legal_moves().iter().all(|mv| mv.from != Square::E1));
        assert_eq!(p.hash(), p.compute_hash());
    }

    #[test]
    fn pseudo_legal_ignores_pins_and_attacked_squares() {
        // The e2 rook is pinned by the e8 rook; the king may not go to d1? it may.
        let p = pos("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1");
        let legal = p.legal_moves();
        let pseudo = p.pseudo_legal_moves_for(Color::White);
        assert!(!legal.contains(&Move::new(Square::E2, Square::A2, None)));
        assert!(pseudo.contains(&Move::new(Square::E2, Square::A2, None)));
        assert!(legal.iter().all(|mv| pseudo.contains(mv)));
    }

    #[test]
    fn en_passant_discovered_check_is_illegal() {
        let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
        // The FEN's ep square is dropped: the capture would expose the king.
        assert_eq!(p.ep_square(), None);
        let p = pos("8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
        assert_eq!(p.ep_square(), Some(Square::D6));
        assert!(
            p.legal_moves()
                .contains(&Move::new(Square::E5, Square::D6, None))
        );
    }

    #[test]
    fn chess960_castling_rules() {
        // King b1, rook a1: c-castling moves both; d1 must be empty.
        let p = pos("1k6/8/8/8/8/8/8/RK6 w A - 0 1");
        assert!(
            p.legal_moves()
                .contains(&Move::new(Square::B1, Square::A1, None))
        );
        let after = p.played(Move::new(Square::B1, Square::A1, None));
        assert_eq!(after.board_fen(), "1k6/8/8/8/8/8/8/2KR4");
        // King f1, rook g1: g-castling swaps them.
        let p = pos("1k6/8/8/8/8/8/8/5KR1 w G - 0 1");
        let after = p.played(Move::new(Square::F1, Square::G1, None));
        assert_eq!(after.board_fen(), "1k6/8/8/8/8/8/8/5RK1");
        assert!(!after.castling_rights().has_any(Color::White));
        // The castling rook shields the king's target: b1 rook pinned by a1 queen.
        let p = pos("1k6/8/8/8/8/8/8/qR2K3 w B - 0 1");
        assert!(
            !p.legal_moves()
                .contains(&Move::new(Square::E1, Square::B1, None))
        );
        // Attacked square on the king's path.
        let p = pos("1k3r2/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(
            !p.legal_moves()
                .contains(&Move::new(Square::E1, Square::H1, None))
        );
    }
}

#[cfg(test)]
mod crowded_tests {
    use crate::moves::MAX_MOVES;
    use crate::{Bitboard, Color, Piece, Position, Role, Square};

    /// Lenient positions with far more material than chess allows stay
    /// within the move list's capacity.
    #[test]
    fn crowded_boards_fit_the_move_list() {
        for pattern in 0..8u32 {
            let mut pos = Position::empty();
            for sq in Square::ALL {
                let (f, r) = (sq.file() as u32, sq.rank() as u32);
                if (f * 3 + r * (pattern + 1)) % 5 == 0 {
                    pos.put(sq, Piece::new(Color::White, Role::Queen));
                } else if r == 6 && f % 2 == pattern % 2 {
                    pos.put(sq, Piece::new(Color::White, Role::Pawn));
                } else if r == 7 && (f + pattern) % 3 == 0 {
                    pos.put(sq, Piece::new(Color::Black, Role::Knight));
                }
            }
            let legal = pos.legal_moves();
            assert_eq!(legal.len(), pos.count_legal_moves());
            assert!(legal.len() <= MAX_MOVES);
            assert!(pos.pseudo_legal_moves_for(Color::White).len() >= legal.len());
            pos.set_paused(Bitboard::FULL);
            assert_eq!(pos.count_legal_moves(), 0);
        }
    }
}
