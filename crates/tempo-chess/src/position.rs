//! The position: a board plus the state the rules need, including the
//! states that only simultaneous-move variants reach.

use std::fmt;

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Move, Piece, Rank, Role, Square, zobrist,
};

/// A chess position.
///
/// Besides the orthodox state (pieces, side to move, castling rights,
/// en-passant square, half-move clock, full-move number) it can hold what
/// simultaneous-move variants need:
///
/// - a colour without king (or with both kings attacked at once): nothing
///   here assumes a king; move generation for a colour without king has no
///   self-check constraint;
/// - a set of **paused** squares: pieces standing there may not move this
///   turn ([`Position::paused`], Fairschach FSR 9);
/// - en-passant squares for **both** colours at once (both players may
///   have made a double step in the same pair).
///
/// Constructing and editing are lenient; [`Position::validate`] checks the
/// orthodox rules separately.
///
/// The Zobrist hash ([`Position::hash`]) is kept up to date incrementally
/// and covers: every piece on its square, the side to move, the castling
/// rights (by rook square), the en-passant squares that are stored (only
/// squares where an en-passant capture is actually legal are stored after
/// a move, so equal hashes mean equal positions in the sense of the
/// repetition rule) and the paused squares. It does not cover the clocks
/// or the Chess960 flag.
///
/// Moves are played copy-make style or in place with [`Position::play`]:
///
/// ```
/// use tempo_chess::{Move, Position, Square};
/// let mut pos = Position::new();
/// pos.play(Move::new(Square::E2, Square::E4, None));
/// assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// assert_eq!(pos.legal_moves().len(), 20);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    paused: Bitboard,
    en_passant: Bitboard,
    hash: u64,
    halfmove_clock: u32,
    fullmove_number: u32,
    castling: CastlingRights,
    turn: Color,
    chess960: bool,
}

impl Default for Position {
    /// The orthodox start position.
    fn default() -> Position {
        Position::new()
    }
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl Position {
    /// The orthodox start position.
    pub fn new() -> Position {
        let mut pos = Position::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for file in File::ALL {
            let role = back[file.index()];
            pos.put(
                Square::from_coords(file, Rank::First),
                Piece::new(Color::White, role),
            );
            pos.put(
                Square::from_coords(file, Rank::Second),
                Piece::new(Color::White, Role::Pawn),
            );
            pos.put(
                Square::from_coords(file, Rank::Seventh),
                Piece::new(Color::Black, Role::Pawn),
            );
            pos.put(
                Square::from_coords(file, Rank::Eighth),
                Piece::new(Color::Black, role),
            );
        }
        pos.set_castling_rights(CastlingRights::STANDARD);
        pos
    }

    /// An empty board, White to move, no rights, clocks 0 and 1.
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            paused: Bitboard::EMPTY,
            en_passant: Bitboard::EMPTY,
            hash: 0,
            halfmove_clock: 0,
            fullmove_number: 1,
            castling: CastlingRights::NONE,
            turn: Color::White,
            chess960: false,
        }
    }

    // ----- reading the board -----

    /// All squares with a piece.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares with a piece of `color`.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares with a piece of `role` (either colour).
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares with `piece`.
    #[inline(always)]
    pub(crate) fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_color(piece.color) & self.by_role(piece.role)
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|&role| self.by_role(role).contains(sq))
    }

    /// The role of the piece on `sq`, a pawn if the square is empty (for
    /// squares known to be occupied): without a branch per role, the three
    /// bits of the role's index (knight 1, bishop 2, rook 3, queen 4, king
    /// 5) each come from a union of role bitboards.
    #[inline]
    pub fn role_on(&self, sq: Square) -> Role {
        let [_, knights, bishops, rooks, queens, kings] = self.by_role.map(|b| b.0);
        let bit = |b: u64| ((b >> sq.index()) & 1) as usize;
        let index =
            bit(knights | rooks | kings) | bit(bishops | rooks) << 1 | bit(queens | kings) << 2;
        Role::ALL[index.min(5)]
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = self.color_at(sq)?;
        let role = self.role_at(sq)?;
        Some(Piece::new(color, role))
    }

    /// The square of `color`'s king if it has exactly one (variant
    /// positions may have none).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.by_piece(Piece::new(color, Role::King)).single()
    }

    // ----- reading the other state -----

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant square on which the side to move may capture, if any
    /// (the square a pawn skipped with its double step).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square_for(self.turn)
    }

    /// The en-passant square on which `color` may capture, if any.
    #[inline]
    pub fn ep_square_for(&self, color: Color) -> Option<Square> {
        (self.en_passant & Bitboard::rank(Rank::Sixth.relative_to(color))).first()
    }

    /// All stored en-passant squares (at most one per colour: third rank
    /// for a white double step, sixth for a black one).
    #[inline]
    pub fn en_passant_squares(&self) -> Bitboard {
        self.en_passant
    }

    /// Pieces on these squares may not move this turn (simultaneous-move
    /// variants; always empty in orthodox play).
    #[inline(always)]
    pub fn paused(&self) -> Bitboard {
        self.paused
    }

    /// Half-moves since the last capture or pawn move (50/75-move rules).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The number of the current full move, starting at 1.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Whether this is a Chess960 game (affects only notation: FEN castling
    /// field, UCI castling moves; the rules are the same).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The Zobrist hash (see the type's documentation for what it covers).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    // ----- editing (lenient: no rule is checked) -----

    /// Puts `piece` on `sq`, replacing whatever stood there. Castling
    /// rights, en passant and the paused set are not touched.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.remove(sq);
        self.toggle(piece.color, piece.role, sq);
    }

    /// Removes and returns the piece on `sq`, if any. Castling rights, en
    /// passant and the paused set are not touched.
    #[inline]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle(piece.color, piece.role, sq);
        Some(piece)
    }

    /// Takes `piece` off `sq` if it stands there, or puts it on `sq` if
    /// the square is empty (for callers that know the board: nothing is
    /// checked, so any other use leaves an inconsistent position).
    #[inline]
    pub fn toggle_piece(&mut self, piece: Piece, sq: Square) {
        debug_assert!(
            self.piece_at(sq).is_none_or(|p| p == piece),
            "toggle_piece: {sq} holds another piece"
        );
        self.toggle(piece.color, piece.role, sq);
    }

    /// Moves `color`'s `role` on `from` to the empty square `to`, where it
    /// becomes `arriving` (another role for a promotion): the two
    /// [`Position::toggle_piece`] edits in one, for engine code that knows
    /// the board: nothing is checked in release builds (debug builds
    /// assert it), and a wrong call leaves an inconsistent board.
    #[inline(always)]
    pub fn move_piece(
        &mut self,
        color: Color,
        role: Role,
        from: Square,
        to: Square,
        arriving: Role,
    ) {
        debug_assert!(
            self.piece_at(from) == Some(Piece::new(color, role)) && self.piece_at(to).is_none(),
            "move_piece: {from} does not hold the piece or {to} is occupied"
        );
        let (from_bb, to_bb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        self.by_color[color.index()] ^= from_bb | to_bb;
        self.by_role[role.index()] ^= from_bb;
        self.by_role[arriving.index()] ^= to_bb;
        self.hash ^= zobrist::piece(color, role, from) ^ zobrist::piece(color, arriving, to);
    }

    /// Sets the side to move.
    #[inline]
    pub fn set_turn(&mut self, color: Color) {
        if color != self.turn {
            self.turn = color;
            self.hash ^= zobrist::BLACK_TO_MOVE;
        }
    }

    /// Replaces the castling rights (not checked against the board; see
    /// [`Position::validate`]).
    pub fn set_castling_rights(&mut self, rights: CastlingRights) {
        self.hash ^= castling_hash(self.castling) ^ castling_hash(rights);
        self.castling = rights;
    }

    /// Replaces the stored en-passant squares. Move generation offers an
    /// en-passant capture to a colour only where it is legal.
    pub fn set_en_passant_squares(&mut self, squares: Bitboard) {
        for sq in self.en_passant ^ squares {
            self.hash ^= zobrist::en_passant(sq);
        }
        self.en_passant = squares;
    }

    /// Sets the squares whose pieces may not move this turn.
    pub fn set_paused(&mut self, squares: Bitboard) {
        let changed = self.paused ^ squares;
        if changed.any() {
            self.hash ^= zobrist::paused_xor(changed);
        }
        self.paused = squares;
    }

    /// Sets the half-move clock.
    #[inline]
    pub fn set_halfmove_clock(&mut self, n: u32) {
        self.halfmove_clock = n;
    }

    /// Sets the full-move number (0 is stored as 1).
    #[inline]
    pub fn set_fullmove_number(&mut self, n: u32) {
        self.fullmove_number = n.max(1);
    }

    /// Marks the position as Chess960 or not.
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }

    #[inline(always)]
    fn toggle(&mut self, color: Color, role: Role, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_role[role.index()] ^= bb;
        self.by_color[color.index()] ^= bb;
        self.hash ^= zobrist::piece(color, role, sq);
    }

    /// The hash recomputed from scratch (for tests of the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = castling_hash(self.castling);
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                hash ^= zobrist::piece(piece.color, piece.role, sq);
            }
        }
        if self.turn == Color::Black {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        for sq in self.en_passant {
            hash ^= zobrist::en_passant(sq);
        }
        for sq in self.paused {
            hash ^= zobrist::paused(sq);
        }
        hash
    }

    // ----- attacks -----

    /// Pieces of `by` that attack `sq` when `occupied` squares block.
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(by);
        let rook_like = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let bishop_like = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        theirs
            & ((rook_attacks(sq, occupied) & rook_like)
                | (bishop_attacks(sq, occupied) & bishop_like)
                | (knight_attacks(sq) & self.by_role(Role::Knight))
                | (pawn_attacks(!by, sq) & self.by_role(Role::Pawn))
                | (king_attacks(sq) & self.by_role(Role::King)))
    }

    /// Whether a piece of `by` attacks `sq` when `occupied` squares block
    /// (short-circuits; cheaper than [`Position::attackers`]).
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let theirs = self.by_color(by);
        (knight_attacks(sq) & theirs & self.by_role(Role::Knight)).any()
            || (pawn_attacks(!by, sq) & theirs & self.by_role(Role::Pawn)).any()
            || (king_attacks(sq) & theirs & self.by_role(Role::King)).any()
            || {
                // The magic lookup only when a slider stands on a ray.
                let diagonal = theirs & (self.by_role(Role::Bishop) | self.by_role(Role::Queen));
                (bishop_rays(sq) & diagonal).any()
                    && (bishop_attacks(sq, occupied) & diagonal).any()
            }
            || {
                let straight = theirs & (self.by_role(Role::Rook) | self.by_role(Role::Queen));
                (rook_rays(sq) & straight).any() && (rook_attacks(sq, occupied) & straight).any()
            }
    }

    /// The pieces that give check to the side to move.
    pub(crate) fn checkers(&self) -> Bitboard {
        self.checkers_of(self.turn)
    }

    /// The pieces of `!color` attacking `color`'s king (empty without a
    /// single king).
    fn checkers_of(&self, color: Color) -> Bitboard {
        match self.king(color) {
            Some(king) => self.attackers(king, !color, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether `color`'s king is attacked (false without a single king).
    #[inline]
    pub fn is_in_check(&self, color: Color) -> bool {
        // Same answer as `checkers_of(color).any()`, short-circuiting.
        match self.king(color) {
            Some(king) => self.is_attacked(king, !color, self.occupied()),
            None => false,
        }
    }

    /// Checkers of `us`'s king on `king` and our pieces pinned to it, in one
    /// pass over the enemy sliders that see the king on an empty board.
    #[inline(always)]
    pub(crate) fn checkers_and_pinned(&self, us: Color, king: Square) -> (Bitboard, Bitboard) {
        let them = !us;
        let theirs = self.by_color(them);
        let occupied = self.occupied();
        let queens = self.by_role(Role::Queen);
        let snipers = theirs
            & ((rook_rays(king) & (self.by_role(Role::Rook) | queens))
                | (bishop_rays(king) & (self.by_role(Role::Bishop) | queens)));
        let mut checkers = theirs
            & ((knight_attacks(king) & self.by_role(Role::Knight))
                | (pawn_attacks(us, king) & self.by_role(Role::Pawn))
                | (king_attacks(king) & self.by_role(Role::King)));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers |= sniper;
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        (checkers, pinned & self.by_color(us))
    }

    /// The pieces of `color` pinned to its king on `king`. Only enemy
    /// sliders on a line through the king can pin, so the loop runs only
    /// for them. (Move generation needs the checkers as well and gets both
    /// from one loop, the move generator's `checkers_and_pinned`.)
    #[inline(always)]
    pub fn pinned_to(&self, color: Color, king: Square) -> Bitboard {
        let queens = self.by_role(Role::Queen);
        let snipers = self.by_color(!color)
            & ((rook_rays(king) & (self.by_role(Role::Rook) | queens))
                | (bishop_rays(king) & (self.by_role(Role::Bishop) | queens)));
        let occupied = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.by_color(color)
    }

    // ----- move classification -----

    /// Whether `mv` is a castling move here (a king moving onto a rook of
    /// its own colour).
    #[inline]
    pub fn is_castling(&self, mv: Move) -> bool {
        let Some(color) = self.color_at(mv.from) else {
            return false;
        };
        self.by_piece(Piece::new(color, Role::King))
            .contains(mv.from)
            && self.by_piece(Piece::new(color, Role::Rook)).contains(mv.to)
    }

    /// The side of a castling move, if `mv` is one.
    pub fn castling_side(&self, mv: Move) -> Option<CastlingSide> {
        self.is_castling(mv)
            .then(|| CastlingSide::of_rook(mv.from, mv.to))
    }

    /// Whether `mv` is an en-passant capture here (a pawn moving
    /// diagonally onto an empty square).
    #[inline]
    pub fn is_en_passant(&self, mv: Move) -> bool {
        self.by_role(Role::Pawn).contains(mv.from)
            && mv.from.file() != mv.to.file()
            && !self.occupied().contains(mv.to)
    }

    /// Whether `mv` captures a piece (castling does not; en passant does).
    pub fn is_capture(&self, mv: Move) -> bool {
        match self.color_at(mv.from) {
            Some(color) => self.by_color(!color).contains(mv.to) || self.is_en_passant(mv),
            None => false,
        }
    }

    /// The piece that `mv` captures and the square it stands on, if any.
    pub fn captured(&self, mv: Move) -> Option<(Piece, Square)> {
        let color = self.color_at(mv.from)?;
        if self.is_en_passant(mv) {
            let sq = Square::from_coords(mv.to.file(), mv.from.rank());
            return self.piece_at(sq).map(|piece| (piece, sq));
        }
        self.piece_at(mv.to)
            .filter(|piece| piece.color != color)
            .map(|piece| (piece, mv.to))
    }

    // ----- playing moves -----

    /// Plays `mv` in place: the piece on `mv.from` moves (its colour is the
    /// mover; the side to move becomes the other colour), with castling,
    /// promotion, en passant, castling-rights update, clocks and hash.
    ///
    /// `mv` should be legal (see [`Position::legal_moves`] /
    /// [`Position::is_legal`]). An illegal move never panics but leaves an
    /// unspecified board; a move from an empty square changes nothing. The
    /// paused set is not changed (variant rules set it).
    pub fn play(&mut self, mv: Move) {
        let Some(us) = self.color_at(mv.from) else {
            return;
        };
        let Some(role) = self.role_at(mv.from) else {
            return;
        };
        let them = !us;
        let old_castling = self.castling;

        for sq in self.en_passant {
            self.hash ^= zobrist::en_passant(sq);
        }
        self.en_passant = Bitboard::EMPTY;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }

        let ours = self.by_color(us);
        if role == Role::King && (ours & self.by_role(Role::Rook)).contains(mv.to) {
            let side = CastlingSide::of_rook(mv.from, mv.to);
            self.toggle(us, Role::King, mv.from);
            self.toggle(us, Role::Rook, mv.to);
            self.toggle(us, Role::King, side.king_to(us));
            self.toggle(us, Role::Rook, side.rook_to(us));
            self.castling.clear(us);
        } else {
            let captured = self.role_at(mv.to);
            if let Some(captured) = captured {
                if ours.contains(mv.to) {
                    // Not a legal move: keep the board consistent anyway.
                    self.toggle(us, captured, mv.to);
                } else {
                    self.toggle(them, captured, mv.to);
                    if captured == Role::Rook {
                        self.castling.discard_rook(mv.to);
                    }
                }
                self.halfmove_clock = 0;
            }
            self.toggle(us, role, mv.from);
            match role {
                Role::Pawn => self.finish_pawn_move(us, mv, captured.is_some()),
                Role::King => {
                    self.castling.clear(us);
                    self.toggle(us, role, mv.to);
                }
                Role::Rook => {
                    self.castling.discard_rook(mv.from);
                    self.toggle(us, role, mv.to);
                }
                _ => self.toggle(us, role, mv.to),
            }
        }

        if old_castling != self.castling {
            self.hash ^= castling_hash(old_castling) ^ castling_hash(self.castling);
        }
        self.turn = them;
        self.hash ^= zobrist::BLACK_TO_MOVE;
    }

    /// The position after `mv` (copy-make; see [`Position::play`]).
    #[inline]
    pub fn played(&self, mv: Move) -> Position {
        let mut pos = self.clone();
        pos.play(mv);
        pos
    }

    /// Drops the pawn on `mv.to` (promoted if asked), removes a pawn taken
    /// en passant and records a new en-passant square.
    #[inline(always)]
    fn finish_pawn_move(&mut self, us: Color, mv: Move, captured: bool) {
        self.halfmove_clock = 0;
        let them = !us;
        let dropped = match mv.promotion {
            Some(role) if role != Role::Pawn && role != Role::King => role,
            _ => Role::Pawn,
        };
        if !captured && mv.from.file() != mv.to.file() {
            let victim = Square::from_coords(mv.to.file(), mv.from.rank());
            if self.by_piece(Piece::new(them, Role::Pawn)).contains(victim) {
                self.toggle(them, Role::Pawn, victim);
            }
        }
        self.toggle(us, dropped, mv.to);
        if (mv.from as u8).abs_diff(mv.to as u8) == 16 {
            let skipped = Square::new_masked((mv.from as u32 + mv.to as u32) / 2);
            if self.en_passant_is_legal_for(them, skipped) {
                self.en_passant = Bitboard::from(skipped);
                self.hash ^= zobrist::en_passant(skipped);
            }
        }
    }

    /// Whether `color` has a legal en-passant capture onto `target` (a
    /// square just skipped by an enemy pawn).
    pub(crate) fn en_passant_is_legal_for(&self, color: Color, target: Square) -> bool {
        let ours = self.by_color(color);
        let capturers =
            pawn_attacks(!color, target) & ours & self.by_role(Role::Pawn) & !self.paused;
        capturers
            .into_iter()
            .any(|from| self.en_passant_capture_is_legal(color, from, target))
    }

    /// Whether `color`'s pawn on `from` may capture en passant onto
    /// `target`: the enemy pawn is there, `target` is empty, and the own
    /// king (if any) is not attacked afterwards.
    #[inline]
    pub(crate) fn en_passant_capture_is_legal(
        &self,
        color: Color,
        from: Square,
        target: Square,
    ) -> bool {
        let them = !color;
        let victim = Square::from_coords(target.file(), from.rank());
        if !self.by_piece(Piece::new(them, Role::Pawn)).contains(victim)
            || self.occupied().contains(target)
        {
            return false;
        }
        let Some(king) = self.king(color) else {
            return true;
        };
        let occupied = (self.occupied() ^ from ^ victim) | target;
        let theirs = self.by_color(them).without(victim);
        let queens = self.by_role(Role::Queen);
        let attackers = theirs
            & ((rook_attacks(king, occupied) & (self.by_role(Role::Rook) | queens))
                | (bishop_attacks(king, occupied) & (self.by_role(Role::Bishop) | queens))
                | (knight_attacks(king) & self.by_role(Role::Knight))
                | (pawn_attacks(color, king) & self.by_role(Role::Pawn))
                | (king_attacks(king) & self.by_role(Role::King)));
        attackers.is_empty()
    }

    /// The position mirrored top-bottom with colours swapped (White's
    /// pieces become Black's), for colour-symmetry tests.
    pub fn mirrored(&self) -> Position {
        let mut pos = Position::empty();
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                pos.put(sq.flip_rank(), Piece::new(!piece.color, piece.role));
            }
        }
        let mut rights = CastlingRights::NONE;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                rights.set(!color, side, self.castling.rook_file(color, side));
            }
        }
        pos.set_castling_rights(rights);
        pos.set_en_passant_squares(self.en_passant.flip_ranks());
        pos.set_paused(self.paused.flip_ranks());
        pos.set_turn(!self.turn);
        pos.halfmove_clock = self.halfmove_clock;
        pos.fullmove_number = self.fullmove_number;
        pos.chess960 = self.chess960;
        pos
    }
}

/// The hash contribution of castling rights: one key per castling rook's
/// square.
fn castling_hash(rights: CastlingRights) -> u64 {
    rights
        .rook_squares()
        .into_iter()
        .fold(0, |hash, sq| hash ^ zobrist::castling(sq))
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl fmt::Display for Position {
    /// The FEN (X-FEN castling for Chess960 positions).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: Square, to: Square) -> Move {
        Move::new(from, to, None)
    }

    /// `role_on` agrees with `role_at` on every occupied square (and says
    /// pawn on empty ones); `pinned_to` with the pins of
    /// `checkers_and_pinned`.
    #[test]
    fn role_on_and_pinned_to_agree_with_the_general_lookups() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/4r3/8/1b6/8/3N4/4B3/r2RK2q w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            for sq in Square::ALL {
                assert_eq!(
                    pos.role_on(sq),
                    pos.role_at(sq).unwrap_or(Role::Pawn),
                    "{fen} {sq}"
                );
            }
            for color in Color::ALL {
                let king = pos.king(color).unwrap();
                let expected = pos.checkers_and_pinned(color, king).1;
                assert_eq!(pos.pinned_to(color, king), expected, "{fen}");
            }
        }
    }

    #[test]
    fn play_updates_rights_clocks_and_hash() {
        let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/6p1/R3K2R b KQkq - 3 10").unwrap();
        // The g2 pawn takes the h1 rook and promotes: White loses the K right.
        pos.play(Move::new(Square::G2, Square::H1, Some(Role::Queen)));
        assert_eq!(pos.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2q w Qkq - 0 11");
        assert_eq!(pos.hash(), pos.compute_hash());
        // Castling (king takes rook) is not a capture: the clock runs on.
        pos.play(mv(Square::E1, Square::A1));
        assert_eq!(pos.to_fen(), "r3k2r/8/8/8/8/8/8/2KR3q b kq - 1 11");
        pos.play(mv(Square::H8, Square::H1));
        assert_eq!(pos.to_fen(), "r3k3/8/8/8/8/8/8/2KR3r w q - 0 12");
        assert_eq!(pos.hash(), pos.compute_hash());
    }

    #[test]
    fn double_step_records_only_capturable_en_passant() {
        let mut pos = Position::new();
        pos.play(mv(Square::E2, Square::E4));
        assert_eq!(pos.ep_square(), None);
        let mut pos = Position::from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1").unwrap();
        pos.play(mv(Square::E2, Square::E4));
        assert_eq!(pos.ep_square(), Some(Square::E3));
        assert_eq!(pos.hash(), pos.compute_hash());
        pos.play(mv(Square::D4, Square::E3));
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
    }

    #[test]
    fn editing_keeps_the_hash() {
        let mut pos = Position::empty();
        pos.put(Square::E1, Piece::new(Color::White, Role::King));
        pos.put(Square::E1, Piece::new(Color::White, Role::Queen));
        assert_eq!(
            pos.piece_at(Square::E1),
            Some(Piece::new(Color::White, Role::Queen))
        );
        assert_eq!(pos.king(Color::White), None);
        pos.set_turn(Color::Black);
        pos.set_en_passant_squares(Bitboard::from(Square::D3) | Square::E6);
        pos.set_paused(Bitboard::from(Square::E1));
        assert_eq!(pos.hash(), pos.compute_hash());
        assert_eq!(pos.ep_square_for(Color::White), Some(Square::E6));
        assert_eq!(pos.ep_square_for(Color::Black), Some(Square::D3));
        assert_eq!(
            pos.remove(Square::E1),
            Some(Piece::new(Color::White, Role::Queen))
        );
        assert_eq!(pos.remove(Square::E1), None);
        assert_eq!(pos.hash(), pos.compute_hash());
    }

    #[test]
    fn mirror_swaps_colours() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/6p1/R3K2R b Kq - 3 10").unwrap();
        assert_eq!(
            pos.mirrored().to_fen(),
            "r3k2r/6P1/8/8/8/8/8/R3K2R w Qk - 3 10"
        );
        assert_eq!(pos.mirrored().mirrored(), pos);
    }
}
