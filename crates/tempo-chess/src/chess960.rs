//! Chess960 start positions: the standard numbering 0..959, a seeded
//! random draw that can be replayed, and the one-die procedure.
//!
//! # Numbering
//!
//! The standard (Scharnagl) numbering: with `n` in 0..959,
//! `n mod 4` puts the light-squared bishop on b, d, f or h; the next
//! `mod 4` the dark-squared bishop on a, c, e or g; the next `mod 6` the
//! queen on one of the six free squares (counted from the a-file); the
//! remaining 0..9 picks the two knight squares among the five free ones
//! (in the order (1,2), (1,3), (1,4), (1,5), (2,3), (2,4), (2,5), (3,4),
//! (3,5), (4,5)); rook, king and rook fill the last three squares.
//! 518 is the orthodox set-up, 0 is `BBQNNRKR`, 959 is `RKRNNQBB`.
//!
//! ```
//! use tempo_chess::chess960;
//!
//! let pos = chess960::start_position(518)?;
//! assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
//! assert_eq!(chess960::back_rank_string(0)?, "BBQNNRKR");
//! assert_eq!(chess960::number_of(&chess960::start_position(959)?)?, 959);
//! # Ok::<(), tempo_chess::chess960::Chess960Error>(())
//! ```
//!
//! # Drawing a position
//!
//! [`draw`] picks a number from a seeded ChaCha8 generator: the same seed
//! always gives the same number, so a draw can be replayed by anyone.
//! [`dice`] is the procedure with one ordinary die, written as a function
//! of a roll source so that real rolls (or a test's rolls) can be fed in;
//! [`draw_with_dice`] feeds it rolls from a seeded generator.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::{CastlingRights, CastlingSide, Color, File, Piece, Position, Rank, Role, Square};

/// The number of Chess960 start positions.
pub const COUNT: u16 = 960;

/// Problems with Chess960 numbers, positions and dice rolls.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Chess960Error {
    /// A number outside 0..959.
    #[error("Chess960 number {0} out of range (0..959)")]
    NumberOutOfRange(u32),
    /// A back rank that is not a Chess960 arrangement.
    #[error("'{rank}' is not a Chess960 back rank: {reason}")]
    InvalidBackRank { rank: String, reason: &'static str },
    /// A position that is not a Chess960 start position.
    #[error("not a Chess960 start position: {0}")]
    NotAStartPosition(String),
    /// A die showed something other than 1..6.
    #[error("die roll {0} is not 1..6")]
    InvalidRoll(u8),
    /// The roll source ran out before the position was complete.
    #[error("the die rolls ran out after {0} rolls; the procedure needs more")]
    RollsExhausted(usize),
}

/// The knight pairs for the last factor of the numbering (indices into the
/// five squares left after bishops and queen).
const KNIGHT_PAIRS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The `index`-th empty slot of `rank` (counted from the a-file).
fn nth_empty(rank: &[Option<Role>; 8], index: usize) -> usize {
    rank.iter()
        .enumerate()
        .filter(|(_, slot)| slot.is_none())
        .nth(index)
        .map(|(file, _)| file)
        .expect("callers ask only for existing empty slots")
}

/// Rook, king, rook on the three remaining empty slots.
fn fill_rooks_and_king(rank: &mut [Option<Role>; 8]) {
    let empty: Vec<usize> = (0..8).filter(|&f| rank[f].is_none()).collect();
    debug_assert_eq!(empty.len(), 3);
    rank[empty[0]] = Some(Role::Rook);
    rank[empty[1]] = Some(Role::King);
    rank[empty[2]] = Some(Role::Rook);
}

fn unwrap_rank(rank: [Option<Role>; 8]) -> [Role; 8] {
    rank.map(|slot| slot.expect("all eight slots are filled"))
}

/// The White back rank (a-file first) of start position `number`.
fn back_rank(number: u16) -> Result<[Role; 8], Chess960Error> {
    if number >= COUNT {
        return Err(Chess960Error::NumberOutOfRange(number.into()));
    }
    let mut n = usize::from(number);
    let mut rank: [Option<Role>; 8] = [None; 8];
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    let queen = nth_empty(&rank, n % 6);
    rank[queen] = Some(Role::Queen);
    n /= 6;
    let (first, second) = KNIGHT_PAIRS[n];
    let (first, second) = (nth_empty(&rank, first), nth_empty(&rank, second));
    rank[first] = Some(Role::Knight);
    rank[second] = Some(Role::Knight);
    fill_rooks_and_king(&mut rank);
    Ok(unwrap_rank(rank))
}

/// The White back rank of start position `number` as upper-case letters,
/// e.g. `"RNBQKBNR"` for 518.
pub fn back_rank_string(number: u16) -> Result<String, Chess960Error> {
    Ok(back_rank(number)?.iter().map(|r| r.upper_char()).collect())
}

/// The number of a back rank (a-file first), checking that it is a
/// Chess960 arrangement: two bishops on opposite colours, one queen, two
/// knights, and the king between two rooks.
fn number_of_back_rank(rank: &[Role; 8]) -> Result<u16, Chess960Error> {
    let invalid = |reason| Chess960Error::InvalidBackRank {
        rank: rank.iter().map(|r| r.upper_char()).collect(),
        reason,
    };
    let files_of = |role: Role| -> Vec<usize> { (0..8).filter(|&f| rank[f] == role).collect() };
    let (bishops, queens, knights, rooks, kings) = (
        files_of(Role::Bishop),
        files_of(Role::Queen),
        files_of(Role::Knight),
        files_of(Role::Rook),
        files_of(Role::King),
    );
    if bishops.len() != 2
        || queens.len() != 1
        || knights.len() != 2
        || rooks.len() != 2
        || kings.len() != 1
    {
        return Err(invalid(
            "needs exactly two bishops, two knights, two rooks, one queen and one king",
        ));
    }
    if !(rooks[0] < kings[0] && kings[0] < rooks[1]) {
        return Err(invalid("the king must stand between the rooks"));
    }
    let light = bishops.iter().copied().find(|f| f % 2 == 1);
    let dark = bishops.iter().copied().find(|f| f % 2 == 0);
    let (Some(light), Some(dark)) = (light, dark) else {
        return Err(invalid(
            "the bishops must stand on squares of opposite colours",
        ));
    };
    // Slots still free after the bishops, then after the queen.
    let free_after_bishops: Vec<usize> = (0..8).filter(|&f| f != light && f != dark).collect();
    let queen_index = free_after_bishops
        .iter()
        .position(|&f| f == queens[0])
        .expect("the queen is on a non-bishop square");
    let free_after_queen: Vec<usize> = free_after_bishops
        .into_iter()
        .filter(|&f| f != queens[0])
        .collect();
    let knight_index = |file| free_after_queen.iter().position(|&f| f == file).unwrap();
    let pair = (knight_index(knights[0]), knight_index(knights[1]));
    let knight_code = KNIGHT_PAIRS
        .iter()
        .position(|&p| p == pair)
        .expect("every pair of the five free slots is listed");
    let number = light / 2 + 4 * (dark / 2) + 16 * queen_index + 96 * knight_code;
    Ok(number as u16)
}

/// The number of a back rank written as eight letters (`"RNBQKBNR"`,
/// either case).
pub fn number_of_back_rank_str(text: &str) -> Result<u16, Chess960Error> {
    let invalid = |reason| Chess960Error::InvalidBackRank {
        rank: text.to_string(),
        reason,
    };
    let roles: Vec<Role> = text
        .chars()
        .map(Role::from_char)
        .collect::<Option<Vec<Role>>>()
        .ok_or_else(|| invalid("letters must be K, Q, R, B, N"))?;
    let rank: [Role; 8] = roles
        .try_into()
        .map_err(|_| invalid("needs exactly eight pieces"))?;
    number_of_back_rank(&rank)
}

/// Start position `number`: White pieces on the first rank, pawns on the
/// second and seventh, Black mirroring White, all four castling rights
/// (rooks named by file), White to move, marked as Chess960.
pub fn start_position(number: u16) -> Result<Position, Chess960Error> {
    let rank = back_rank(number)?;
    Ok(position_from_back_rank(&rank))
}

/// The start position with `rank` (a-file first) as White's back rank;
/// the caller has checked the arrangement.
fn position_from_back_rank(rank: &[Role; 8]) -> Position {
    let mut pos = Position::empty();
    let mut rights = CastlingRights::NONE;
    for (file, &role) in File::ALL.into_iter().zip(rank) {
        for color in Color::ALL {
            let back = Square::from_coords(file, Rank::First.relative_to(color));
            let pawns = Square::from_coords(file, Rank::Second.relative_to(color));
            pos.put(back, Piece::new(color, role));
            pos.put(pawns, Piece::new(color, Role::Pawn));
        }
    }
    let king = rank.iter().position(|&r| r == Role::King).unwrap_or(4);
    for (file, &role) in File::ALL.into_iter().zip(rank) {
        if role == Role::Rook {
            let side = if file.index() > king {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            for color in Color::ALL {
                rights.set(color, side, Some(file));
            }
        }
    }
    pos.set_castling_rights(rights);
    pos.set_chess960(true);
    pos
}

/// The number of a Chess960 start position. The board must be a start
/// set-up: a Chess960 back rank for White on rank 1, its mirror for Black
/// on rank 8, eight pawns of each colour on ranks 2 and 7 and nothing
/// else. Side to move, castling rights and clocks are not looked at.
pub fn number_of(pos: &Position) -> Result<u16, Chess960Error> {
    let mut rank = [Role::Pawn; 8];
    for (file, slot) in File::ALL.into_iter().zip(rank.iter_mut()) {
        let sq = Square::from_coords(file, Rank::First);
        match pos.piece_at(sq) {
            Some(piece) if piece.color == Color::White && piece.role != Role::Pawn => {
                *slot = piece.role
            }
            _ => {
                return Err(Chess960Error::NotAStartPosition(format!(
                    "{sq} holds no White piece"
                )));
            }
        }
    }
    let number = number_of_back_rank(&rank)?;
    let expected = position_from_back_rank(&rank);
    if expected.board_fen() != pos.board_fen() {
        return Err(Chess960Error::NotAStartPosition(format!(
            "the board {} differs from the set-up {}",
            pos.board_fen(),
            expected.board_fen()
        )));
    }
    Ok(number)
}

/// The result of a seeded draw: the number and the seed that replays it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// The start position drawn (0..959).
    pub number: u16,
    /// The seed: drawing again with it gives the same number.
    pub seed: u64,
    /// The die rolls used (empty unless drawn with the dice procedure),
    /// including the re-rolled ones.
    pub rolls: Vec<u8>,
}

/// Draws a start position uniformly from 0..959 with a ChaCha8 generator
/// seeded by `seed` (`ChaCha8Rng::seed_from_u64`).
pub fn draw(seed: u64) -> Draw {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Draw {
        number: rng.random_range(0..COUNT),
        seed,
        rolls: Vec::new(),
    }
}

/// Draws a start position by the dice procedure ([`dice`]), the rolls
/// coming from a ChaCha8 generator seeded by `seed`.
pub fn draw_with_dice(seed: u64) -> Draw {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rolls = Vec::new();
    let number = dice(|| {
        let roll = rng.random_range(1..=6u8);
        rolls.push(roll);
        Some(roll)
    })
    .expect("a fair die source never runs out and rolls only 1..6");
    Draw {
        number,
        seed,
        rolls,
    }
}

/// A seed for a draw when the user gives none: from the operating
/// system's per-process random hash keys and the clock. Print it, so that
/// the draw can be replayed with [`draw`].
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(now.as_nanos());
    }
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// The one-die procedure: each call of `roll` is one throw of an ordinary
/// die (1..6; `None` = no more rolls).
///
/// 1. The dark-squared bishop goes to a1, c1, e1, g1 for 1..4 (5 and 6
///    are re-rolled).
/// 2. The light-squared bishop goes to b1, d1, f1, h1 for 1..4 (5 and 6
///    are re-rolled).
/// 3. The queen goes to the n-th of the six free squares, counted from
///    the a-file.
/// 4. The first knight goes to the n-th of the five free squares (6 is
///    re-rolled), the second to the n-th of the remaining four (5 and 6
///    are re-rolled).
/// 5. The king goes to the middle of the three free squares, the rooks to
///    the other two.
///
/// Every start position has the same probability 1/960. Returns its
/// number.
///
/// ```
/// use tempo_chess::chess960;
/// // c1, f1, queen d1, knights b1 and g1: the orthodox set-up.
/// let mut rolls = [2, 3, 3, 2, 3].into_iter();
/// assert_eq!(chess960::dice(|| rolls.next()), Ok(518));
/// ```
pub fn dice(mut roll: impl FnMut() -> Option<u8>) -> Result<u16, Chess960Error> {
    let mut used = 0usize;
    // One roll accepted if it is at most `max`; higher valid rolls are
    // thrown again.
    let mut roll_up_to = |max: u8| -> Result<usize, Chess960Error> {
        loop {
            let value = roll().ok_or(Chess960Error::RollsExhausted(used))?;
            used += 1;
            if !(1..=6).contains(&value) {
                return Err(Chess960Error::InvalidRoll(value));
            }
            if value <= max {
                return Ok(usize::from(value - 1));
            }
        }
    };
    let mut rank: [Option<Role>; 8] = [None; 8];
    rank[2 * roll_up_to(4)?] = Some(Role::Bishop);
    rank[2 * roll_up_to(4)? + 1] = Some(Role::Bishop);
    let queen = nth_empty(&rank, roll_up_to(6)?);
    rank[queen] = Some(Role::Queen);
    let knight = nth_empty(&rank, roll_up_to(5)?);
    rank[knight] = Some(Role::Knight);
    let knight = nth_empty(&rank, roll_up_to(4)?);
    rank[knight] = Some(Role::Knight);
    fill_rooks_and_king(&mut rank);
    number_of_back_rank(&unwrap_rank(rank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_numbers() {
        assert_eq!(back_rank_string(0).unwrap(), "BBQNNRKR");
        assert_eq!(back_rank_string(518).unwrap(), "RNBQKBNR");
        assert_eq!(back_rank_string(959).unwrap(), "RKRNNQBB");
        assert_eq!(back_rank(960), Err(Chess960Error::NumberOutOfRange(960)));
    }

    #[test]
    fn numbering_is_a_bijection() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..COUNT {
            let rank = back_rank(n).unwrap();
            assert_eq!(number_of_back_rank(&rank), Ok(n));
            assert!(seen.insert(rank));
        }
    }

    #[test]
    fn dice_rerolls() {
        // 5 and 6 re-rolled for the bishops, 6 for the first knight, 5 and
        // 6 for the second.
        let mut rolls = [5, 6, 2, 6, 3, 3, 6, 2, 5, 6, 3].into_iter();
        assert_eq!(dice(|| rolls.next()), Ok(518));
        let mut short = [1, 1].into_iter();
        assert_eq!(dice(|| short.next()), Err(Chess960Error::RollsExhausted(2)));
        let mut bad = [7].into_iter();
        assert_eq!(dice(|| bad.next()), Err(Chess960Error::InvalidRoll(7)));
    }

    #[test]
    fn draws_replay() {
        assert_eq!(draw(42), draw(42));
        assert_eq!(draw_with_dice(7), draw_with_dice(7));
        assert!(draw(1).number < COUNT);
    }
}
