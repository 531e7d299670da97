//! Standard Algebraic Notation (SAN): `e4`, `Nbd2`, `exd5`, `e8=Q+`,
//! `O-O`, `Qh4#`.
//!
//! Writing follows the PGN standard: piece letter (none for pawns), the
//! least disambiguation that makes the move unique among the legal moves
//! (file, else rank, else both), `x` for captures (pawn captures always
//! name the pawn's file), `=Q` for promotions, `O-O` / `O-O-O` for
//! castling (in Chess960 too: by side, g-castling and c-castling), and a
//! `+` or `#` suffix.
//!
//! Reading is lenient where that stays unambiguous: the check/mate suffix
//! and annotations (`!`, `?`, `!!`, `!?`, `?!`, `??`) are ignored whether
//! right or wrong; `0-0` and `0-0-0` are castling; the promotion `=` may be
//! left out (`e8Q`), after `=` the letter may be lower case (`e8=q`); the
//! capture `x` may be missing or superfluous (`ed5` for `exd5`); `-` and
//! `:` between squares are accepted; over-specified origins (`Ng1f3`,
//! `e2e4`) are accepted; `P` may name a pawn. Piece letters must be upper
//! case (a lower-case `b` is always the b-file).
//!
//! ```
//! use tempo_chess::{Position, san};
//!
//! let pos = Position::new();
//! let mv = san::parse(&pos, "Nf3")?;
//! assert_eq!(mv.to_string(), "g1f3");
//! assert_eq!(san::write(&pos, mv), "Nf3");
//! # Ok::<(), tempo_chess::san::SanError>(())
//! ```

use std::fmt::{self, Write as _};
use std::str::FromStr;

use thiserror::Error;

use crate::{CastlingSide, File, Move, MoveList, Position, Rank, Role, Square};

/// A move in SAN, without its check suffix: the syntax only, not yet tied
/// to a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
    /// `O-O` (king side, g-castling) or `O-O-O` (queen side, c-castling).
    Castle(CastlingSide),
}

/// The check or mate suffix of a written move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Suffix {
    Check,
    Checkmate,
}

/// A SAN move with its suffix, as written in a game score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct SanPlus {
    pub san: San,
    pub suffix: Option<Suffix>,
}

/// What is wrong with a SAN move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SanErrorKind {
    /// The text is not SAN at all.
    #[error("invalid SAN '{san}': {reason}")]
    Syntax { san: String, reason: String },
    /// Well-formed, but no legal move matches.
    #[error("illegal SAN '{san}' in position {fen}")]
    Illegal { san: String, fen: String },
    /// Several legal moves match.
    #[error("ambiguous SAN '{san}': {candidates}")]
    Ambiguous { san: String, candidates: String },
}

/// A SAN move that could not be read. Display names the move and the
/// problem, e.g. `ambiguous SAN 'Nd2': Nb1d2, Nf3d2`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(transparent)]
pub struct SanError(#[from] pub SanErrorKind);

impl SanError {
    fn syntax(san: &str, reason: impl Into<String>) -> SanError {
        SanError(SanErrorKind::Syntax {
            san: san.to_string(),
            reason: reason.into(),
        })
    }

    /// What went wrong.
    #[cfg(test)]
    fn kind(&self) -> &SanErrorKind {
        &self.0
    }
}

/// Reads `text` as SAN and finds the legal move it names in `pos`.
pub fn parse(pos: &Position, text: &str) -> Result<Move, SanError> {
    let san_plus: SanPlus = text.parse()?;
    san_plus.san.to_move_named(pos, text)
}

/// Writes `mv` (legal in `pos`) as SAN with its `+` / `#` suffix.
pub fn write(pos: &Position, mv: Move) -> String {
    SanPlus::from_move(pos, mv).to_string()
}

/// Writes `mv` (legal in `pos`) as SAN without a suffix (cheaper: the
/// move is not played).
pub fn write_without_suffix(pos: &Position, mv: Move) -> String {
    San::from_move(pos, mv).to_string()
}

impl San {
    /// The SAN of `mv`, which must be legal in `pos` (otherwise the
    /// result names the move as well as it can).
    fn from_move(pos: &Position, mv: Move) -> San {
        let moves = pos.legal_moves();
        San::from_move_in(pos, mv, &moves)
    }

    /// Like [`San::from_move`], with the legal moves of `pos` given
    /// (saves generating them when writing many moves of one position).
    fn from_move_in(pos: &Position, mv: Move, legal: &MoveList) -> San {
        if let Some(side) = pos.castling_side(mv) {
            return San::Castle(side);
        }
        let role = pos.role_at(mv.from).unwrap_or(Role::Pawn);
        let capture = pos.is_capture(mv);
        if role == Role::Pawn {
            return San::Normal {
                role,
                file: capture.then(|| mv.from.file()),
                rank: None,
                capture,
                to: mv.to,
                promotion: mv.promotion,
            };
        }
        // Other pieces of the same role that can go to the same square.
        let others = legal.iter().filter(|other| {
            other.to == mv.to
                && other.from != mv.from
                && pos.role_at(other.from) == Some(role)
                && !pos.is_castling(**other)
        });
        let (mut file, mut rank) = (None, None);
        let mut rivals = false;
        let (mut same_file, mut same_rank) = (false, false);
        for other in others {
            rivals = true;
            same_file |= other.from.file() == mv.from.file();
            same_rank |= other.from.rank() == mv.from.rank();
        }
        if rivals {
            if !same_file {
                file = Some(mv.from.file());
            } else if !same_rank {
                rank = Some(mv.from.rank());
            } else {
                file = Some(mv.from.file());
                rank = Some(mv.from.rank());
            }
        }
        San::Normal {
            role,
            file,
            rank,
            capture,
            to: mv.to,
            promotion: None,
        }
    }

    /// Whether `mv` (a legal move of `pos`) fits this SAN.
    fn matches(self, pos: &Position, mv: Move) -> bool {
        match self {
            San::Castle(side) => pos.castling_side(mv) == Some(side),
            San::Normal {
                role,
                file,
                rank,
                capture: _,
                to,
                promotion,
            } => {
                mv.to == to
                    && pos.role_at(mv.from) == Some(role)
                    && !pos.is_castling(mv)
                    && mv.promotion == promotion
                    && file.is_none_or(|f| mv.from.file() == f)
                    && rank.is_none_or(|r| mv.from.rank() == r)
                    // A pawn move without an origin file is a push.
                    && (role != Role::Pawn || file.is_some() || mv.from.file() == to.file())
            }
        }
    }

    fn to_move_named(self, pos: &Position, text: &str) -> Result<Move, SanError> {
        let legal = pos.legal_moves();
        let mut found = legal.iter().copied().filter(|&mv| self.matches(pos, mv));
        let Some(first) = found.next() else {
            return Err(SanError(SanErrorKind::Illegal {
                san: text.to_string(),
                fen: pos.to_fen(),
            }));
        };
        let rest: Vec<Move> = found.collect();
        if rest.is_empty() {
            return Ok(first);
        }
        let candidates = std::iter::once(first)
            .chain(rest)
            .map(|mv| {
                let letter = match pos.role_at(mv.from) {
                    Some(Role::Pawn) | None => String::new(),
                    Some(role) => role.upper_char().to_string(),
                };
                format!("{letter}{mv}")
            })
            .collect::<Vec<_>>()
            .join(", ");
        Err(SanError(SanErrorKind::Ambiguous {
            san: text.to_string(),
            candidates,
        }))
    }
}

impl SanPlus {
    /// The SAN of `mv` (legal in `pos`) with its suffix (plays the move
    /// to see whether it checks or mates).
    fn from_move(pos: &Position, mv: Move) -> SanPlus {
        let san = San::from_move(pos, mv);
        let after = pos.played(mv);
        SanPlus {
            san,
            suffix: suffix_after(&after),
        }
    }
}

/// The suffix a move leading to `after` gets.
fn suffix_after(after: &Position) -> Option<Suffix> {
    if !after.is_check() {
        None
    } else if after.has_legal_moves() {
        Some(Suffix::Check)
    } else {
        Some(Suffix::Checkmate)
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Castle(CastlingSide::KingSide) => f.write_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => f.write_str("O-O-O"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    f.write_char(role.upper_char())?;
                }
                if let Some(file) = file {
                    f.write_char(file.char())?;
                }
                if let Some(rank) = rank {
                    f.write_char(rank.char())?;
                }
                if capture {
                    f.write_char('x')?;
                }
                write!(f, "{to}")?;
                if let Some(promotion) = promotion {
                    write!(f, "={}", promotion.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Suffix::Check => "+",
            Suffix::Checkmate => "#",
        })
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.san)?;
        if let Some(suffix) = self.suffix {
            write!(f, "{suffix}")?;
        }
        Ok(())
    }
}

impl FromStr for San {
    type Err = SanError;

    /// Reads SAN leniently (see the module docs); a suffix is ignored.
    fn from_str(text: &str) -> Result<San, SanError> {
        Ok(text.parse::<SanPlus>()?.san)
    }
}

impl FromStr for SanPlus {
    type Err = SanError;

    fn from_str(text: &str) -> Result<SanPlus, SanError> {
        parse_san_plus(text)
    }
}

fn parse_san_plus(text: &str) -> Result<SanPlus, SanError> {
    if text.is_empty() {
        return Err(SanError::syntax(text, "empty move"));
    }
    // Annotations and the suffix, in any order at the end.
    let body = text.trim_end_matches(['!', '?']);
    let suffix = if body.ends_with('#') {
        Some(Suffix::Checkmate)
    } else if body.ends_with('+') {
        Some(Suffix::Check)
    } else {
        None
    };
    let body = body.trim_end_matches(['+', '#', '!', '?']);
    if body.is_empty() {
        return Err(SanError::syntax(text, "no move before the annotation"));
    }
    let san = match body {
        "O-O" | "0-0" => San::Castle(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => San::Castle(CastlingSide::QueenSide),
        _ => parse_normal(text, body)?,
    };
    Ok(SanPlus { san, suffix })
}

/// Reads `[Piece][file][rank][x|-|:]square[[=]Promotion]`.
fn parse_normal(text: &str, body: &str) -> Result<San, SanError> {
    if !body.is_ascii() {
        return Err(SanError::syntax(text, "unexpected non-ASCII character"));
    }
    let bytes = body.as_bytes();
    let letter = match bytes[0] {
        b'K' => Some(Role::King),
        b'Q' => Some(Role::Queen),
        b'R' => Some(Role::Rook),
        b'B' => Some(Role::Bishop),
        b'N' => Some(Role::Knight),
        b'P' => Some(Role::Pawn),
        _ => None,
    };
    let role = letter.unwrap_or(Role::Pawn);
    let mut i = usize::from(letter.is_some());
    // Collect squares/coordinates: up to two files and two ranks.
    let mut coords: Vec<(Option<File>, Option<Rank>)> = Vec::new();
    let mut capture = false;
    let mut promotion = None;
    while i < bytes.len() {
        let c = bytes[i] as char;
        match c {
            'a'..='h' => {
                let file = File::from_char(c);
                let rank = bytes.get(i + 1).and_then(|&r| Rank::from_char(r as char));
                i += 1 + usize::from(rank.is_some());
                coords.push((file, rank));
            }
            '1'..='8' => {
                coords.push((None, Rank::from_char(c)));
                i += 1;
            }
            'x' | ':' | '-' => {
                let misplaced = if c == '-' {
                    coords.len() != 1
                } else {
                    coords.len() > 1
                };
                if misplaced || capture {
                    return Err(SanError::syntax(
                        text,
                        format!("unexpected '{c}' at character {}", i + 1),
                    ));
                }
                capture |= c != '-';
                i += 1;
            }
            '=' | 'Q' | 'R' | 'B' | 'N' | '(' | '/' => {
                let rest = &body[i..];
                let letter = rest
                    .trim_start_matches(['=', '(', '/'])
                    .trim_end_matches(')');
                let mut chars = letter.chars();
                let promo = match (chars.next(), chars.next()) {
                    // Lower case only after '=' (a bare `b` is a file).
                    (Some(l), None) => Role::from_char(l).filter(|r| {
                        (l.is_ascii_uppercase() || c != 'Q' && c != 'R' && c != 'B' && c != 'N')
                            && Role::PROMOTIONS.contains(r)
                    }),
                    _ => None,
                };
                let Some(promo) = promo else {
                    return Err(SanError::syntax(
                        text,
                        format!("invalid promotion '{rest}' at character {}", i + 1),
                    ));
                };
                promotion = Some(promo);
                i = bytes.len();
            }
            _ => {
                return Err(SanError::syntax(
                    text,
                    format!("unexpected '{c}' at character {}", i + 1),
                ));
            }
        }
    }
    let Some(&(Some(to_file), Some(to_rank))) = coords.last() else {
        return Err(SanError::syntax(text, "no destination square"));
    };
    let (file, rank) = match coords.len() {
        1 => (None, None),
        2 => coords[0],
        _ => return Err(SanError::syntax(text, "too many squares")),
    };
    if role == Role::Pawn && promotion.is_none() && file.is_none() && rank.is_none() && capture {
        return Err(SanError::syntax(
            text,
            "a pawn capture needs the pawn's file",
        ));
    }
    if role != Role::Pawn && promotion.is_some() {
        return Err(SanError::syntax(text, "only pawns promote"));
    }
    Ok(San::Normal {
        role,
        file,
        rank,
        capture,
        to: Square::from_coords(to_file, to_rank),
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn writes_disambiguation() {
        let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        let mv = parse(&p, "Nbd2").unwrap();
        assert_eq!(write(&p, mv), "Nbd2");
        let err = parse(&p, "Nd2").unwrap_err();
        assert_eq!(err.to_string(), "ambiguous SAN 'Nd2': Nb1d2, Nf3d2");
        // Rank disambiguation and both.
        let p = pos("8/8/7k/8/Q7/8/8/Q2QK3 w - - 0 1");
        let mv = Move::new(Square::A4, Square::D4, None);
        assert_eq!(write(&p, mv), "Q4d4");
        let mv = Move::new(Square::A1, Square::D4, None);
        assert_eq!(write(&p, mv), "Qa1d4");
        let mv = Move::new(Square::D1, Square::D4, None);
        assert_eq!(write(&p, mv), "Qdd4");
        assert_eq!(
            parse(&p, "Qa1d4").unwrap(),
            Move::new(Square::A1, Square::D4, None)
        );
    }

    #[test]
    fn lenient_reading() {
        let p = pos("r3k3/1P6/8/3p4/4P3/8/8/4K2R w Kq - 0 1");
        for (text, uci) in [
            ("exd5", "e4d5"),
            ("ed5", "e4d5"),
            ("e4xd5!?", "e4d5"),
            ("bxa8=Q+", "b7a8q"),
            ("bxa8Q", "b7a8q"),
            ("b8=N", "b7b8n"),
            ("b8=n", "b7b8n"),
            ("bxa8(Q)", "b7a8q"),
            ("O-O", "e1h1"),
            ("0-0+", "e1h1"),
            ("Rh1-h7", "h1h7"),
            ("Pe5", "e4e5"),
        ] {
            assert_eq!(parse(&p, text).unwrap().to_string(), uci, "{text}");
        }
        for bad in ["", "e9", "Xe4", "exd", "Nb1d2d3", "Ke=Q", "x", "e8=K", "+"] {
            assert!(matches!(
                parse(&p, bad).unwrap_err().kind(),
                SanErrorKind::Syntax { .. }
            ));
        }
        let err = parse(&p, "Ke3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "illegal SAN 'Ke3' in position r3k3/1P6/8/3p4/4P3/8/8/4K2R w Kq - 0 1"
        );
    }

    #[test]
    fn suffixes() {
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let mv = parse(&p, "Ra8").unwrap();
        assert_eq!(write(&p, mv), "Ra8#");
        let mv = parse(&p, "Ra7").unwrap();
        assert_eq!(write(&p, mv), "Ra7");
    }
}
