//! Legal moves of both colours from one position in one pass: what
//! simultaneous-move chess needs at every pair.
//!
//! Each colour's piece moves are generated as usual, and the squares its
//! pieces attack are collected on the way (a slider's attack set is the
//! same set its moves come from). A king's moves and castling are then
//! tested against the other colour's whole attack set with one mask,
//! instead of asking for each square near the king which piece attacks
//! it. The lists equal those of [`Position::legal_moves_for`], move
//! for move and in the same order.

use super::{Context, Sink, pawn_attacks_of};
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::{Bitboard, Color, MoveList, Position, Role, Square};

impl Position {
    /// The legal moves of White into `white` and of Black into `black`
    /// (both cleared first), each list the same as
    /// [`Position::legal_moves_for`] gives for its colour, in the
    /// same order; faster than two separate generations.
    ///
    /// ```
    /// use tempo_chess::{Color, MoveList, Position};
    /// let pos = Position::new();
    /// let (mut white, mut black) = (MoveList::new(), MoveList::new());
    /// pos.legal_moves_both_into(&mut white, &mut black);
    /// assert_eq!(&white[..], &pos.legal_moves_for(Color::White)[..]);
    /// assert_eq!(&black[..], &pos.legal_moves_for(Color::Black)[..]);
    /// ```
    pub fn legal_moves_both_into(&self, white: &mut MoveList, black: &mut MoveList) {
        white.clear();
        black.clear();
        let (Some(white_king), Some(black_king)) =
            (self.king(Color::White), self.king(Color::Black))
        else {
            // Without a single king on each side legality is not tested
            // against kings' attacked squares: the general generator.
            self.generate::<true, _>(Color::White, white);
            self.generate::<true, _>(Color::Black, black);
            return;
        };
        self.generate_both_with_kings::<false, _>(white_king, black_king, white, black);
    }

    /// Every square that a piece of `color` attacks, with the board's
    /// occupancy blocking the sliders: the squares where
    /// [`Position::is_attacked`]`(square, color, self.occupied())` is true.
    /// Paused and pinned pieces attack too, as do all kings of the colour
    /// (if it has several); squares of its own pieces count (defended).
    ///
    /// ```
    /// use tempo_chess::{Color, Position, Square};
    /// let pos = Position::new();
    /// let white = pos.attacked_squares(Color::White);
    /// // The second and third ranks, and every back-rank square but the corners.
    /// assert_eq!(white.count(), 8 + 8 + 6);
    /// assert!(white.contains(Square::F3) && !white.contains(Square::A1));
    /// ```
    pub fn attacked_squares(&self, color: Color) -> Bitboard {
        let ours = self.by_color(color);
        let occupied = self.occupied();
        let queens = self.by_role(Role::Queen);
        let mut attacked = pawn_attacks_of(color, ours & self.by_role(Role::Pawn));
        for from in ours & self.by_role(Role::Knight) {
            attacked |= knight_attacks(from);
        }
        for from in ours & self.by_role(Role::King) {
            attacked |= king_attacks(from);
        }
        for from in ours & (self.by_role(Role::Bishop) | queens) {
            attacked |= bishop_attacks(from, occupied);
        }
        for from in ours & (self.by_role(Role::Rook) | queens) {
            attacked |= rook_attacks(from, occupied);
        }
        attacked
    }

    /// Generates the legal moves of White into `white` and of Black into
    /// `black` in one pass, each colour having the single king given (each
    /// sink receives what [`Position::generate`] would give it for its
    /// colour, in the same order). (Nothing here takes the sinks' addresses: they can live in
    /// registers.) Returns the squares each colour attacks, White's first
    /// ([`Position::attacked_squares`] of each, found on the way). With
    /// `UNPAUSE_CHECKED`, a colour in check moves its paused pieces too.
    #[inline(always)]
    pub(super) fn generate_both_with_kings<const UNPAUSE_CHECKED: bool, S: Sink>(
        &self,
        white_king: Square,
        black_king: Square,
        white: &mut S,
        black: &mut S,
    ) -> [Bitboard; 2] {
        let mut cw = self.context_with_king(Color::White, Some(white_king));
        let mut cb = self.context_with_king(Color::Black, Some(black_king));
        if UNPAUSE_CHECKED {
            for ctx in [&mut cw, &mut cb] {
                if ctx.checkers.any() {
                    ctx.movable = ctx.ours;
                }
            }
        }
        let by_white = self.gen_non_king(&cw, white_king, white);
        let by_black = self.gen_non_king(&cb, black_king, black);
        // A king moving away from a slider that checks it stays on the
        // slider's line: those sliders' attacks pass through the king.
        // (The attack maps themselves stay as they are: the callers get
        // them.)
        let by_white_through = by_white | self.attacks_through(cb.checkers, black_king);
        let by_black_through = by_black | self.attacks_through(cw.checkers, white_king);
        self.gen_king_against(&cw, white_king, by_black_through, white);
        self.gen_king_against(&cb, black_king, by_white_through, black);
        [by_white, by_black]
    }

    /// Generates the pawn and piece moves of the context's colour (as
    /// [`Position::generate_from`] does, in the same order) and returns
    /// every square its pieces attack, paused and pinned ones included.
    #[inline(always)]
    fn gen_non_king<S: Sink>(&self, ctx: &Context, king: Square, sink: &mut S) -> Bitboard {
        let ours = ctx.ours;
        let pawns = ours & self.by_role(Role::Pawn);
        let mut attacked = king_attacks(king) | pawn_attacks_of(ctx.us, pawns);
        // Pieces that move now: none in double check; pinned ones only
        // when not in check, and along the pin line.
        let movers = if ctx.checkers.more_than_one() {
            Bitboard::EMPTY
        } else {
            self.gen_pawns(ctx, ctx.movable, sink);
            ctx.movable
        };
        let free = movers & !ctx.pinned;
        let pinned_movers = if ctx.checkers.is_empty() {
            movers & ctx.pinned
        } else {
            Bitboard::EMPTY
        };
        // Every piece attacks; the free ones move there too, the pinned
        // ones below along their pin line, idle ones (paused, or pinned in
        // check, or all in double check) not at all. One loop over free
        // and idle pieces (masking the idle ones' moves away) instead of
        // two: fewer loop exits to mispredict.
        let free_only = |from: Square| Bitboard(0u64.wrapping_sub((free.0 >> from as u32) & 1));
        let queens = self.by_role(Role::Queen);
        let knights = ours & self.by_role(Role::Knight);
        for from in knights {
            let to = knight_attacks(from);
            attacked |= to;
            sink.moves(from, to & ctx.target & free_only(from));
        }
        let diagonal = ours & (self.by_role(Role::Bishop) | queens);
        let straight = ours & (self.by_role(Role::Rook) | queens);
        for from in diagonal & !pinned_movers {
            let to = bishop_attacks(from, ctx.occupied);
            attacked |= to;
            sink.moves(from, to & ctx.target & free_only(from));
        }
        for from in straight & !pinned_movers {
            let to = rook_attacks(from, ctx.occupied);
            attacked |= to;
            sink.moves(from, to & ctx.target & free_only(from));
        }
        // Pinned sliders that can move: rare, one test for both loops.
        if ((diagonal | straight) & pinned_movers).any() {
            for from in diagonal & pinned_movers {
                let to = bishop_attacks(from, ctx.occupied);
                attacked |= to;
                sink.moves(from, to & ctx.target & crate::attacks::line(king, from));
            }
            for from in straight & pinned_movers {
                let to = rook_attacks(from, ctx.occupied);
                attacked |= to;
                sink.moves(from, to & ctx.target & crate::attacks::line(king, from));
            }
        }
        attacked
    }

    /// The squares the sliders among `checkers` attack with `king` taken
    /// off the board.
    #[inline(always)]
    fn attacks_through(&self, checkers: Bitboard, king: Square) -> Bitboard {
        let mut attacked = Bitboard::EMPTY;
        let queens = self.by_role(Role::Queen);
        let sliders = checkers & (self.by_role(Role::Bishop) | self.by_role(Role::Rook) | queens);
        // Most positions: no check, nothing to look up; one mask decides,
        // the two below are built only past it (see docs/performance.md).
        if sliders.is_empty() {
            return attacked;
        }
        let occupied = self.occupied().without(king);
        for from in checkers & (self.by_role(Role::Bishop) | queens) {
            attacked |= bishop_attacks(from, occupied);
        }
        for from in checkers & (self.by_role(Role::Rook) | queens) {
            attacked |= rook_attacks(from, occupied);
        }
        attacked
    }

    /// King moves and castling of the context's colour, `attacked` being
    /// every square the opponent attacks with this king off the board.
    #[inline(always)]
    fn gen_king_against<S: Sink>(
        &self,
        ctx: &Context,
        king: Square,
        attacked: Bitboard,
        sink: &mut S,
    ) {
        if !ctx.movable.contains(king) {
            return;
        }
        sink.moves(king, king_attacks(king) & !ctx.ours & !attacked);
        // The rights tested here too: most positions have none left, and
        // the castling generator is not inlined.
        if ctx.checkers.is_empty() && self.castling_rights().has_any(ctx.us) {
            // The (not inlined) castling generator gets a copy of the
            // context and a sink of its own, made only here: the context
            // and `sink` stay in registers.
            let ctx = *ctx;
            let mut castlings = Castlings::default();
            self.gen_castling_with::<true, _>(&ctx, king, &mut castlings, |path| {
                (path & attacked).any()
            });
            for rook in &castlings.rooks[..castlings.len] {
                sink.moves(king, *rook);
            }
        }
    }
}

/// Collects the castling moves (a king's one or two moves to own rooks),
/// each as a one-square target set, in the order generated.
#[derive(Default)]
struct Castlings {
    rooks: [Bitboard; 2],
    len: usize,
}

impl Sink for Castlings {
    #[inline]
    fn moves(&mut self, _king: Square, to: Bitboard) {
        self.rooks[self.len] = to;
        self.len += 1;
    }
    fn pawn_moves(&mut self, _from: Square, _to: Bitboard) {
        unreachable!("castling generates no pawn moves");
    }
    fn pawn_shifted(&mut self, _to: Bitboard, _delta: i32) {
        unreachable!("castling generates no pawn moves");
    }
}

#[cfg(test)]
pub(super) mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::{
        Bitboard, CastlingRights, CastlingSide, Color, MoveList, Piece, Position, Rank, Role,
        Square,
    };

    fn assert_same(pos: &Position) {
        let (mut white, mut black) = (MoveList::new(), MoveList::new());
        pos.legal_moves_both_into(&mut white, &mut black);
        assert_eq!(
            &white[..],
            &pos.legal_moves_for(Color::White)[..],
            "White in {pos:?} paused {:?}",
            pos.paused()
        );
        assert_eq!(
            &black[..],
            &pos.legal_moves_for(Color::Black)[..],
            "Black in {pos:?} paused {:?}",
            pos.paused()
        );
    }

    /// Every move from a piece of `color` in `pos` to any square, with
    /// every promotion role and none (kings and pawns as promotion roles
    /// too): the candidates that membership tests are checked on.
    pub(crate) fn moves_from_own_pieces(
        pos: &Position,
        color: Color,
    ) -> impl Iterator<Item = crate::Move> + '_ {
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Rook),
            Some(Role::Bishop),
            Some(Role::Knight),
            Some(Role::King),
            Some(Role::Pawn),
        ];
        pos.by_color(color).into_iter().flat_map(move |from| {
            Square::ALL.into_iter().flat_map(move |to| {
                promotions
                    .into_iter()
                    .map(move |promotion| crate::Move::new(from, to, promotion))
            })
        })
    }

    /// A lenient random position: random pieces (kings usually one per
    /// side, sometimes none or two), castling rights where rooks stand
    /// beside a back-rank king, random paused squares and en-passant
    /// squares for both colours.
    pub(crate) fn random_position(rng: &mut ChaCha8Rng) -> Position {
        let mut pos = Position::empty();
        let roles = [
            Role::Pawn,
            Role::Pawn,
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ];
        for color in Color::ALL {
            let kings = match rng.random_range(0..20) {
                0 => 0,
                1 => 2,
                _ => 1,
            };
            for _ in 0..kings {
                let sq = if rng.random_bool(0.5) {
                    Square::from_coords(
                        crate::File::ALL[rng.random_range(1..7)],
                        Rank::First.relative_to(color),
                    )
                } else {
                    Square::ALL[rng.random_range(0..64)]
                };
                pos.put(sq, Piece::new(color, Role::King));
            }
            for file in [crate::File::A, crate::File::H] {
                if rng.random_bool(0.5) {
                    let sq = Square::from_coords(file, Rank::First.relative_to(color));
                    if pos.piece_at(sq).is_none() {
                        pos.put(sq, Piece::new(color, Role::Rook));
                    }
                }
            }
            for _ in 0..rng.random_range(0..14) {
                let sq = Square::ALL[rng.random_range(0..64)];
                let role = roles[rng.random_range(0..roles.len())];
                if pos.piece_at(sq).is_some()
                    || (role == Role::Pawn && Bitboard::BACK_RANKS.contains(sq))
                {
                    continue;
                }
                pos.put(sq, Piece::new(color, role));
            }
        }
        let mut rights = CastlingRights::NONE;
        for color in Color::ALL {
            let Some(king) = pos.king(color) else {
                continue;
            };
            if king.rank() != Rank::First.relative_to(color) {
                continue;
            }
            for rook in pos.by_piece(Piece::new(color, Role::Rook)) {
                if rook.rank() == king.rank() && rng.random_bool(0.8) {
                    rights.set(color, CastlingSide::of_rook(king, rook), Some(rook.file()));
                }
            }
        }
        pos.set_castling_rights(rights);
        let mut paused = Bitboard::EMPTY;
        if rng.random_bool(0.5) {
            for sq in pos.occupied() {
                if rng.random_bool(0.3) {
                    paused = paused.with(sq);
                }
            }
        }
        pos.set_paused(paused);
        let mut ep = Bitboard::EMPTY;
        for color in Color::ALL {
            // A pawn of the other colour that just made a double step.
            let pawns = pos.by_piece(Piece::new(!color, Role::Pawn))
                & Bitboard::rank(Rank::Fifth.relative_to(color));
            if let Some(pawn) = pawns.first()
                && rng.random_bool(0.7)
                && let Some(skipped) = pawn.offset(0, color.fold(1, -1))
                && pos.piece_at(skipped).is_none()
            {
                ep = ep.with(skipped);
            }
        }
        pos.set_en_passant_squares(ep);
        pos
    }

    #[test]
    fn both_colours_equal_single_generation_on_random_positions() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..100_000 {
            assert_same(&random_position(&mut rng));
        }
    }

    /// `is_legal_for` says yes exactly to the generated moves, for every
    /// move from an own piece (promotions of every role included).
    #[test]
    fn is_legal_for_equals_membership_in_the_generated_list() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for _ in 0..2_000 {
            let pos = random_position(&mut rng);
            for color in Color::ALL {
                let legal = pos.legal_moves_for(color);
                for mv in moves_from_own_pieces(&pos, color) {
                    assert_eq!(
                        pos.is_legal_for(color, mv),
                        legal.contains(&mv),
                        "{mv} for {color:?} in {pos:?}"
                    );
                }
            }
        }
    }

    /// Calls `check` on every position of `games` random games (up to 200
    /// plies each, from the orthodox start and Chess960 positions in
    /// turn), seeded with `seed`.
    pub(crate) fn for_random_game_positions(
        seed: u64,
        games: u16,
        mut check: impl FnMut(&Position),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for game in 0..games {
            let mut pos = if game % 2 == 0 {
                Position::new()
            } else {
                crate::chess960::start_position(game % 960).unwrap()
            };
            for _ in 0..200 {
                check(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn both_colours_equal_single_generation_in_random_games() {
        for_random_game_positions(11, 300, assert_same);
    }

    /// `attacked` holds exactly the squares that `is_attacked` names for
    /// `color` in `pos` with the board's occupancy.
    pub(crate) fn assert_attack_map(pos: &Position, color: Color, attacked: Bitboard) {
        for sq in Square::ALL {
            assert_eq!(
                attacked.contains(sq),
                pos.is_attacked(sq, color, pos.occupied()),
                "{sq} by {color:?} in {pos:?} paused {:?}",
                pos.paused()
            );
        }
    }

    /// `attacked_squares` is the attack map of both colours.
    fn assert_attacked_squares(pos: &Position) {
        for color in Color::ALL {
            assert_attack_map(pos, color, pos.attacked_squares(color));
        }
    }

    /// On random positions (some with no king or two kings of a colour,
    /// paused pieces) and in random games.
    #[test]
    fn attacked_squares_equal_is_attacked() {
        let mut rng = ChaCha8Rng::seed_from_u64(43);
        for _ in 0..20_000 {
            assert_attacked_squares(&random_position(&mut rng));
        }
        for_random_game_positions(47, 50, assert_attacked_squares);
    }
}
