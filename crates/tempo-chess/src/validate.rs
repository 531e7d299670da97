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
    /// A pawn stands on the first or eighth rank.
    #[error("pawn on the back rank at {0}")]
    PawnOnBackRank(Square),
    /// The side that is not to move is in check.
    #[error("{0} is not to move but in check")]
    OppositeCheck(Color),
    /// More than two pieces give check at once (impossible after a move).
    #[error("{0} is in check by more than two pieces")]
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
            let kings = self.by_piece(Piece::new(color, Role::King));
            if kings.is_empty() {
                return Err(PositionError::NoKing(color));
            }
            if kings.more_than_one() {
                return Err(PositionError::TooManyKings(color));
            }
            if self.by_color(color).count() > 16
                || self.by_piece(Piece::new(color, Role::Pawn)).count() > 8
            {
                return Err(PositionError::TooManyPieces(color));
            }
        }
        if let Some(sq) = (self.by_role(Role::Pawn) & Bitboard::BACK_RANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        let waiting = !self.turn();
        if self.is_in_check(waiting) {
            return Err(PositionError::OppositeCheck(waiting));
        }
        if self.checkers().count() > 2 {
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
