//! Orthodox validation of a (leniently built) position.

use crate::{Bitboard, CastlingSide, Color, Piece, Position, Rank, Role, Square};

/// Why a position is not a legal orthodox chess position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A colour has no king.
    #[error("{0} has no king")]
    NoKing(Color),
    /// A colour has more than one king.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// A colour has more than 16 pieces or more than 8 pawns.
    #[error("{0} has too many pieces (at most 16, of them at most 8 pawns)")]
    TooManyPieces(Color),
    /// More promoted pieces than missing pawns: extra queens, rooks, bishops
    /// and knights beyond the starting set need one missing pawn each.
    #[error("{0} has more pieces than promotions can explain")]
    ImpossibleMaterial(Color),
    /// A pawn stands on the first or eighth rank.
    #[error("pawn on the back rank at {0}")]
    PawnOnBackRank(Square),
    /// The side that is not to move is in check.
    #[error("{0} is not to move but in check")]
    OppositeCheck(Color),
    /// A check no move can give: more than two checkers, or two checkers
    /// of which none is a slider (a double check is a move plus a
    /// discovered line).
    #[error("{0} is in a check no move can give")]
    ImpossibleCheck(Color),
    /// A castling right without the king on its back rank or without its
    /// rook on the named square on that side of the king.
    #[error("castling right of {0} does not match king and rook")]
    InvalidCastlingRights(Color),
    /// An en-passant square for the side that is not to move.
    #[error("en-passant square for the side not to move")]
    InvalidEnPassant,
    /// Paused pieces exist only in simultaneous-move variants.
    #[error("paused pieces are not part of orthodox chess")]
    PausedPieces,
}

impl Position {
    /// Checks the rules of orthodox chess: exactly one king each, at most
    /// 16 pieces and 8 pawns each, no pawn on a back rank, the side not to
    /// move not in check, at most two checkers, castling rights matching
    /// king and rook, no paused pieces. Variant positions that break these
    /// can still be built and used; this is a separate step.
    ///
    /// ```
    /// use tempo_chess::{Color, Position, PositionError};
    /// assert_eq!(Position::new().validate(), Ok(()));
    /// let pos = Position::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1")?;
    /// assert_eq!(pos.validate(), Err(PositionError::NoKing(Color::Black)));
    /// # Ok::<(), tempo_chess::FenError>(())
    /// ```
    pub fn validate(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            if self.by_piece(Piece::new(color, Role::King)).is_empty() {
                return Err(PositionError::NoKing(color));
            }
        }
        self.validate_board()?;
        let waiting = !self.turn();
        if self.is_in_check(waiting) {
            return Err(PositionError::OppositeCheck(waiting));
        }
        let checkers = self.checkers();
        let sliders =
            self.by_role(Role::Bishop) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if checkers.count() > 2 || (checkers.more_than_one() && (checkers & sliders).is_empty()) {
            return Err(PositionError::ImpossibleCheck(self.turn()));
        }
        for color in Color::ALL {
            self.validate_castling(color)?;
        }
        if self.ep_square_for(waiting).is_some() {
            return Err(PositionError::InvalidEnPassant);
        }
        if self.paused().any() {
            return Err(PositionError::PausedPieces);
        }
        Ok(())
    }

    /// Checks what holds in every variant tempo plays, whose positions may
    /// lack a king (captured) or have both kings in check: at most one king
    /// each, at most 16 pieces and 8 pawns each, no more promoted pieces than
    /// missing pawns, no pawn on a back rank.
    ///
    /// ```
    /// use tempo_chess::{Position, PositionError, Square};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/3PK3 w - - 0 1")?;
    /// assert_eq!(pos.validate_board(), Err(PositionError::PawnOnBackRank(Square::D1)));
    /// let no_black_king = Position::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1")?;
    /// assert_eq!(no_black_king.validate_board(), Ok(()));
    /// # Ok::<(), tempo_chess::FenError>(())
    /// ```
    pub fn validate_board(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            if self.by_piece(Piece::new(color, Role::King)).more_than_one() {
                return Err(PositionError::TooManyKings(color));
            }
            let pawns = self.by_piece(Piece::new(color, Role::Pawn)).count();
            if self.by_color(color).count() > 16 || pawns > 8 {
                return Err(PositionError::TooManyPieces(color));
            }
            if self.promotions_needed(color) > 8 - pawns {
                return Err(PositionError::ImpossibleMaterial(color));
            }
        }
        if let Some(sq) = (self.by_role(Role::Pawn) & Bitboard::BACK_RANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        Ok(())
    }

    /// Pieces beyond the starting set (1 queen, 2 rooks, 2 bishops,
    /// 2 knights) of `color`: each needs a promoted pawn.
    fn promotions_needed(&self, color: Color) -> u32 {
        [
            (Role::Queen, 1),
            (Role::Rook, 2),
            (Role::Bishop, 2),
            (Role::Knight, 2),
        ]
        .into_iter()
        .map(|(role, start)| {
            self.by_piece(Piece::new(color, role))
                .count()
                .saturating_sub(start)
        })
        .sum()
    }

    fn validate_castling(&self, color: Color) -> Result<(), PositionError> {
        let rights = self.castling_rights();
        if !rights.has_any(color) {
            return Ok(());
        }
        let invalid = PositionError::InvalidCastlingRights(color);
        let king = self.king(color).ok_or(invalid.clone())?;
        if king.rank() != Rank::First.relative_to(color) {
            return Err(invalid);
        }
        for side in CastlingSide::ALL {
            if let Some(rook) = rights.rook(color, side)
                && (!self.by_piece(Piece::new(color, Role::Rook)).contains(rook)
                    || CastlingSide::of_rook(king, rook) != side)
            {
                return Err(invalid);
            }
        }
        Ok(())
    }
}
