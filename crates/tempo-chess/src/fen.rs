//! FEN reading and writing: standard FEN, X-FEN and Shredder-FEN castling
//! fields.

use std::fmt;
use std::str::FromStr;

use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Piece, Position, Rank, Role, Square,
};

/// The FEN of the orthodox start position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A field of a FEN record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// Field 1: piece placement.
    Placement,
    /// Field 2: side to move.
    Turn,
    /// Field 3: castling availability.
    Castling,
    /// Field 4: en-passant target square.
    EnPassant,
    /// Field 5: half-move clock.
    HalfmoveClock,
    /// Field 6: full-move number.
    FullmoveNumber,
}

impl FenField {
    const ALL: [FenField; 6] = [
        FenField::Placement,
        FenField::Turn,
        FenField::Castling,
        FenField::EnPassant,
        FenField::HalfmoveClock,
        FenField::FullmoveNumber,
    ];

    /// The 1-based field number.
    fn number(self) -> usize {
        self as usize + 1
    }

    /// The field's name.
    fn name(self) -> &'static str {
        match self {
            FenField::Placement => "piece placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::HalfmoveClock => "half-move clock",
            FenField::FullmoveNumber => "full-move number",
        }
    }
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.number(), self.name())
    }
}

/// What is wrong with a FEN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenErrorKind {
    /// The input has no fields at all.
    #[error("empty FEN")]
    Empty,
    /// Fewer than the four required fields.
    #[error("missing field (a FEN needs at least 4 fields)")]
    MissingField,
    /// More than six fields.
    #[error("unexpected extra text {0:?} (a FEN has at most 6 fields)")]
    ExtraField(String),
    /// A character that is not a piece letter, digit 1-8 or `/`.
    #[error("invalid piece {0:?}")]
    InvalidPiece(char),
    /// A rank describes more than eight squares.
    #[error("rank {0} has more than 8 squares")]
    RankTooLong(char),
    /// A rank describes fewer than eight squares.
    #[error("rank {0} has fewer than 8 squares")]
    RankTooShort(char),
    /// The placement does not have exactly eight ranks.
    #[error("expected 8 ranks separated by '/', found {0}")]
    WrongRankCount(usize),
    /// The side to move is not `w` or `b`.
    #[error("invalid side to move {0:?} (expected 'w' or 'b')")]
    InvalidTurn(String),
    /// A character that is not `KQkq`, a file letter or `-`.
    #[error("invalid castling character {0:?}")]
    InvalidCastling(char),
    /// The same castling right is given twice.
    #[error("castling right {0:?} given twice for the same side")]
    DuplicateCastling(char),
    /// No king of that colour on its back rank.
    #[error("castling right {0:?} needs exactly one king on its back rank")]
    NoCastlingKing(char),
    /// No rook for the castling right.
    #[error("castling right {0:?} has no rook to castle with")]
    NoCastlingRook(char),
    /// Not `-` and not a square on the right rank.
    #[error(
        "invalid en-passant square {0:?} (expected '-' or a square on rank 6 with White to move, rank 3 with Black)"
    )]
    InvalidEnPassant(String),
    /// An en-passant square that no double step explains: the pawn that
    /// just moved two squares is missing, or a square it crossed is not empty.
    #[error(
        "en-passant square {0} without a pawn that just made a double step past it (the pawn is missing or its path is not empty)"
    )]
    EnPassantWithoutPawn(Square),
    /// Not a non-negative integer.
    #[error("invalid number {0:?}")]
    InvalidNumber(String),
}

/// A FEN that could not be read: the problem and where it is.
///
/// ```
/// use tempo_chess::Position;
/// let err = Position::from_fen("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
/// assert_eq!(err.to_string(), "FEN field 1 (piece placement), character 14: invalid piece 'x'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("FEN field {field}, character {column}: {kind}")]
pub struct FenError {
    /// The field with the problem.
    pub field: FenField,
    /// The 1-based character position in the whole FEN string.
    pub column: usize,
    /// The problem.
    pub kind: FenErrorKind,
}

/// How to write the castling field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CastlingNotation {
    /// `KQkq` for the outermost rook on a side, the rook's file letter
    /// where that would be ambiguous (X-FEN; plain FEN for orthodox
    /// positions).
    #[default]
    XFen,
    /// Always the rook's file letter (`HAha`).
    Shredder,
}

impl Position {
    /// Reads a FEN. Castling may be given as `KQkq` (outermost rook on that
    /// side), as rook file letters (Shredder-FEN, `HAha`) or mixed (X-FEN).
    /// The position is marked Chess960 if the castling field uses file
    /// letters or names a rook or king off its orthodox square. The clocks
    /// may be left out (default `0 1`).
    ///
    /// Lenient: any number of kings, pawns on back ranks and checks are
    /// accepted (see [`Position::validate`]). An en-passant square is kept
    /// only if the side to move can legally capture there.
    ///
    /// ```
    /// use tempo_chess::Position;
    /// let pos = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")?;
    /// assert!(pos.is_chess960());
    /// assert_eq!(pos.to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    /// assert_eq!(pos.to_shredder_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    /// # Ok::<(), tempo_chess::FenError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields = split_fields(fen);
        let field_at = |i: usize| fields.get(i).copied();
        let Some((_, _)) = field_at(0) else {
            return Err(error(FenField::Placement, 1, FenErrorKind::Empty));
        };
        if fields.len() < 4 {
            let column = fen.chars().count() + 1;
            return Err(error(
                FenField::ALL[fields.len()],
                column,
                FenErrorKind::MissingField,
            ));
        }
        if let Some(&(column, text)) = fields.get(6) {
            return Err(error(
                FenField::FullmoveNumber,
                column,
                FenErrorKind::ExtraField(text.to_owned()),
            ));
        }
        let mut pos = Position::empty();
        let (column, text) = fields[0];
        parse_placement(&mut pos, text, column)?;

        let (column, text) = fields[1];
        let turn = match text {
            "w" => Color::White,
            "b" => Color::Black,
            _ => {
                return Err(error(
                    FenField::Turn,
                    column,
                    FenErrorKind::InvalidTurn(text.to_owned()),
                ));
            }
        };
        pos.set_turn(turn);

        let (column, text) = fields[2];
        let chess960 = parse_castling(&mut pos, text, column)?;
        pos.set_chess960(chess960);

        let (column, text) = fields[3];
        if text != "-" {
            let sq = text
                .parse::<Square>()
                .ok()
                .filter(|sq| sq.rank() == Rank::Sixth.relative_to(turn))
                .ok_or_else(|| {
                    error(
                        FenField::EnPassant,
                        column,
                        FenErrorKind::InvalidEnPassant(text.to_owned()),
                    )
                })?;
            if !double_step_explains(&pos, turn, sq) {
                return Err(error(
                    FenField::EnPassant,
                    column,
                    FenErrorKind::EnPassantWithoutPawn(sq),
                ));
            }
            if pos.en_passant_is_legal_for(turn, sq) {
                pos.set_en_passant_squares(Bitboard::from(sq));
            }
        }

        if let Some((column, text)) = field_at(4) {
            pos.set_halfmove_clock(parse_number(FenField::HalfmoveClock, column, text)?);
        }
        if let Some((column, text)) = field_at(5) {
            pos.set_fullmove_number(parse_number(FenField::FullmoveNumber, column, text)?);
        }
        Ok(pos)
    }

    /// The FEN, with X-FEN castling (which is plain FEN for orthodox
    /// positions).
    pub fn to_fen(&self) -> String {
        self.fen_with(CastlingNotation::XFen)
    }

    /// The FEN with Shredder-FEN castling (rook file letters, `HAha`).
    pub fn to_shredder_fen(&self) -> String {
        self.fen_with(CastlingNotation::Shredder)
    }

    /// The FEN with the castling field written as asked.
    pub fn fen_with(&self, notation: CastlingNotation) -> String {
        let mut fen = String::with_capacity(90);
        self.write_placement(&mut fen);
        fen.push(' ');
        fen.push(self.turn().char());
        fen.push(' ');
        self.write_castling(&mut fen, notation);
        fen.push(' ');
        match self.ep_square() {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        fen
    }

    /// The piece-placement field alone.
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(72);
        self.write_placement(&mut out);
        out
    }

    fn write_placement(&self, out: &mut String) {
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0u8;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if *rank != Rank::First {
                out.push('/');
            }
        }
    }

    fn write_castling(&self, out: &mut String, notation: CastlingNotation) {
        let rights = self.castling_rights();
        let start = out.len();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(rook) = rights.rook(color, side) else {
                    continue;
                };
                let letter = if notation == CastlingNotation::XFen
                    && self.is_outermost_rook(color, side, rook)
                {
                    match side {
                        CastlingSide::KingSide => 'K',
                        CastlingSide::QueenSide => 'Q',
                    }
                } else {
                    rook.file().upper_char()
                };
                out.push(match color {
                    Color::White => letter,
                    Color::Black => letter.to_ascii_lowercase(),
                });
            }
        }
        if out.len() == start {
            out.push('-');
        }
    }

    /// Whether no other rook of `color` stands beyond `rook` towards the
    /// edge of `side` on the back rank (so `K`/`Q` names it unambiguously).
    fn is_outermost_rook(&self, color: Color, side: CastlingSide, rook: Square) -> bool {
        let back = Bitboard::rank(Rank::First.relative_to(color));
        let rooks = self.by_piece(Piece::new(color, Role::Rook)) & back;
        let beyond = rooks.into_iter().any(|sq| match side {
            CastlingSide::KingSide => sq.file() > rook.file(),
            CastlingSide::QueenSide => sq.file() < rook.file(),
        });
        !beyond
    }
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

/// Whether the opponent of `turn` can just have stepped a pawn two squares
/// across `sq`: its pawn stands in front of `sq`, and `sq` and the square
/// the pawn came from are empty.
fn double_step_explains(pos: &Position, turn: Color, sq: Square) -> bool {
    let forward = if turn == Color::White { -1 } else { 1 };
    let (Some(pawn), Some(origin)) = (sq.offset(0, forward), sq.offset(0, -forward)) else {
        return false;
    };
    pos.piece_at(pawn) == Some(Piece::new(!turn, Role::Pawn))
        && pos.piece_at(sq).is_none()
        && pos.piece_at(origin).is_none()
}

fn error(field: FenField, column: usize, kind: FenErrorKind) -> FenError {
    FenError {
        field,
        column,
        kind,
    }
}

/// The whitespace-separated fields with their 1-based character columns.
fn split_fields(fen: &str) -> Vec<(usize, &str)> {
    let mut fields = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut column = 0;
    for (byte, c) in fen.char_indices() {
        column += 1;
        if c.is_whitespace() {
            if let Some((field_column, field_byte)) = start.take() {
                fields.push((field_column, &fen[field_byte..byte]));
            }
        } else if start.is_none() {
            start = Some((column, byte));
        }
    }
    if let Some((field_column, field_byte)) = start {
        fields.push((field_column, &fen[field_byte..]));
    }
    fields
}

fn parse_placement(pos: &mut Position, text: &str, column: usize) -> Result<(), FenError> {
    let placement = |offset: usize, kind| error(FenField::Placement, column + offset, kind);
    let mut rank_index = 0usize;
    let mut file = 0u32;
    for (offset, c) in text.chars().enumerate() {
        let rank_char = (b'8'.saturating_sub(rank_index as u8)) as char;
        match c {
            '/' => {
                if file < 8 {
                    return Err(placement(offset, FenErrorKind::RankTooShort(rank_char)));
                }
                rank_index += 1;
                file = 0;
                if rank_index > 7 {
                    return Err(placement(
                        offset,
                        FenErrorKind::WrongRankCount(text.split('/').count()),
                    ));
                }
            }
            '1'..='8' => {
                file += c as u32 - '0' as u32;
                if file > 8 {
                    return Err(placement(offset, FenErrorKind::RankTooLong(rank_char)));
                }
            }
            _ => {
                let piece = Piece::from_char(c)
                    .ok_or_else(|| placement(offset, FenErrorKind::InvalidPiece(c)))?;
                if file >= 8 {
                    return Err(placement(offset, FenErrorKind::RankTooLong(rank_char)));
                }
                let rank = Rank::new_masked(7 - rank_index as u32);
                pos.put(Square::from_coords(File::new_masked(file), rank), piece);
                file += 1;
            }
        }
    }
    let end = text.chars().count();
    if rank_index != 7 {
        return Err(placement(end, FenErrorKind::WrongRankCount(rank_index + 1)));
    }
    if file < 8 {
        return Err(placement(end, FenErrorKind::RankTooShort('1')));
    }
    Ok(())
}

/// Parses the castling field into `pos`; returns whether it implies
/// Chess960 (file letters, or rook/king off the orthodox squares).
fn parse_castling(pos: &mut Position, text: &str, column: usize) -> Result<bool, FenError> {
    if text == "-" {
        return Ok(false);
    }
    let mut rights = CastlingRights::NONE;
    let mut chess960 = false;
    for (offset, c) in text.chars().enumerate() {
        let fail = |kind| error(FenField::Castling, column + offset, kind);
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let lower = c.to_ascii_lowercase();
        if !matches!(lower, 'k' | 'q' | 'a'..='h') {
            return Err(fail(FenErrorKind::InvalidCastling(c)));
        }
        let back = Bitboard::rank(Rank::First.relative_to(color));
        let king = (pos.by_piece(Piece::new(color, Role::King)) & back)
            .single()
            .ok_or_else(|| fail(FenErrorKind::NoCastlingKing(c)))?;
        let rooks = pos.by_piece(Piece::new(color, Role::Rook)) & back;
        let (side, rook) = match lower {
            'k' => {
                let rook = rooks
                    .into_iter()
                    .filter(|sq| sq.file() > king.file())
                    .last()
                    .ok_or_else(|| fail(FenErrorKind::NoCastlingRook(c)))?;
                chess960 |= rook.file() != File::H;
                (CastlingSide::KingSide, rook)
            }
            'q' => {
                let rook = rooks
                    .into_iter()
                    .find(|sq| sq.file() < king.file())
                    .ok_or_else(|| fail(FenErrorKind::NoCastlingRook(c)))?;
                chess960 |= rook.file() != File::A;
                (CastlingSide::QueenSide, rook)
            }
            _ => {
                let file =
                    File::from_char(lower).ok_or_else(|| fail(FenErrorKind::InvalidCastling(c)))?;
                let rook = Square::from_coords(file, Rank::First.relative_to(color));
                if !rooks.contains(rook) {
                    return Err(fail(FenErrorKind::NoCastlingRook(c)));
                }
                chess960 = true;
                (CastlingSide::of_rook(king, rook), rook)
            }
        };
        chess960 |= king.file() != File::E;
        if rights.has(color, side) {
            return Err(fail(FenErrorKind::DuplicateCastling(c)));
        }
        rights.set(color, side, Some(rook.file()));
    }
    pos.set_castling_rights(rights);
    Ok(chess960)
}

fn parse_number(field: FenField, column: usize, text: &str) -> Result<u32, FenError> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error(
            field,
            column,
            FenErrorKind::InvalidNumber(text.to_owned()),
        ));
    }
    text.parse::<u32>()
        .map_err(|_| error(field, column, FenErrorKind::InvalidNumber(text.to_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(STARTING_FEN).unwrap();
        assert_eq!(pos, Position::new());
        assert_eq!(pos.to_fen(), STARTING_FEN);
        assert!(!pos.is_chess960());
        assert_eq!(
            pos.to_shredder_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn errors_name_field_and_character() {
        let cases = [
            ("", "FEN field 1 (piece placement), character 1: empty FEN"),
            (
                "8/8/8/8/8/8/8/8 w",
                "FEN field 3 (castling), character 18: missing field (a FEN needs at least 4 fields)",
            ),
            (
                "8/8/8/8/8/8/8/44P w - - 0 1",
                "FEN field 1 (piece placement), character 17: rank 1 has more than 8 squares",
            ),
            (
                "8/8/8/8/8/8/8/54 w - - 0 1",
                "FEN field 1 (piece placement), character 16: rank 1 has more than 8 squares",
            ),
            (
                "8/8/8/8/8/8/8 w - - 0 1",
                "FEN field 1 (piece placement), character 14: expected 8 ranks separated by '/', found 7",
            ),
            (
                "8/8/8/8/8/8/8/8/8 w - - 0 1",
                "FEN field 1 (piece placement), character 16: expected 8 ranks separated by '/', found 9",
            ),
            (
                "7/8/8/8/8/8/8/8 w - - 0 1",
                "FEN field 1 (piece placement), character 2: rank 8 has fewer than 8 squares",
            ),
            (
                "8/8/8/8/8/8/8/8 x - - 0 1",
                "FEN field 2 (side to move), character 17: invalid side to move \"x\" (expected 'w' or 'b')",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                "FEN field 3 (castling), character 23: castling right 'K' has no rook to castle with",
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w KX - 0 1",
                "FEN field 3 (castling), character 25: invalid castling character 'X'",
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w KH - 0 1",
                "FEN field 3 (castling), character 25: castling right 'H' given twice for the same side",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
                "FEN field 4 (en passant), character 25: invalid en-passant square \"e4\" (expected '-' or a square on rank 6 with White to move, rank 3 with Black)",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - x 1",
                "FEN field 5 (half-move clock), character 27: invalid number \"x\"",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 -1",
                "FEN field 6 (full-move number), character 29: invalid number \"-1\"",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1 x",
                "FEN field 6 (full-move number), character 31: unexpected extra text \"x\" (a FEN has at most 6 fields)",
            ),
        ];
        for (fen, message) in cases {
            assert_eq!(
                Position::from_fen(fen).unwrap_err().to_string(),
                message,
                "{fen}"
            );
        }
    }

    #[test]
    fn x_fen_uses_letters_only_when_ambiguous() {
        // Two white rooks on the king side: the inner one castles.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3KRR1 w FA - 0 1").unwrap();
        assert!(pos.is_chess960());
        assert_eq!(
            pos.castling_rights()
                .rook(Color::White, CastlingSide::KingSide),
            Some(Square::F1)
        );
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/R3KRR1 w FQ - 0 1");
        assert_eq!(pos.to_shredder_fen(), "4k3/8/8/8/8/8/8/R3KRR1 w FA - 0 1");
        // KQkq means the outermost rook.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3KRR1 w K - 0 1").unwrap();
        assert_eq!(
            pos.castling_rights()
                .rook(Color::White, CastlingSide::KingSide),
            Some(Square::G1)
        );
    }

    #[test]
    fn en_passant_kept_only_when_capturable() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        assert_eq!(Position::from_fen(fen).unwrap().ep_square(), None);
        let fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.ep_square(), Some(Square::E3));
        assert_eq!(pos.to_fen(), fen);
    }

    #[test]
    fn clocks_are_optional() {
        let pos =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
        assert_eq!(pos.to_fen(), STARTING_FEN);
    }
}
