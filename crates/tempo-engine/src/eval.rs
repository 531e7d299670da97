//! The static evaluation, in centipawns from White's view, and its scale
//! to the search's values in [-1, 1]; the crate docs (*Evaluation*) list
//! its terms.
//!
//! The evaluation is **tapered**: every term has a middlegame and an
//! endgame weight, blended by the material left on the board (the phase:
//! knight and bishop 1, rook 2, queen 4; 24 at the start).

use tempo_chess::{Bitboard, Color, File, Position, Rank, Role, Square, attacks};

use crate::state::role_value;

/// A term's middlegame and endgame weight.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Score {
    mg: i32,
    eg: i32,
}

const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        *self = *self + o;
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        s(self.mg * k, self.eg * k)
    }
}

/// The phase at the start: 4 minor pieces, 4 rooks (2 each), 2 queens (4).
const FULL_PHASE: i32 = 24;

/// Material of a role, middlegame and endgame.
fn material(role: Role) -> Score {
    match role {
        Role::Pawn => s(90, 115),
        Role::Knight => s(325, 300),
        Role::Bishop => s(335, 315),
        Role::Rook => s(480, 530),
        Role::Queen => s(960, 950),
        Role::King => s(0, 0),
    }
}

/// Mobility per reachable square (not own-occupied, not attacked by an
/// enemy pawn), counted from a typical number so that the term is 0
/// near usual values.
fn mobility(role: Role) -> (Score, i32) {
    match role {
        Role::Knight => (s(4, 4), 4),
        Role::Bishop => (s(5, 5), 6),
        Role::Rook => (s(2, 4), 7),
        Role::Queen => (s(1, 2), 13),
        _ => (s(0, 0), 0),
    }
}

/// Evaluation of `pos` in centipawns, White's view. `threats` adds the
/// hanging-piece term of the simultaneous variants.
pub(crate) fn evaluate_cp(pos: &Position, threats: bool) -> i32 {
    let attacked = [
        pos.attacked_squares(Color::White),
        pos.attacked_squares(Color::Black),
    ];
    let mut score = Score::default();
    let mut phase = 0;
    for color in Color::ALL {
        let sign = color.fold(1, -1);
        score += side_score(pos, color, attacked[(!color).index()]) * sign;
        for (role, weight) in [(Role::Knight, 1), (Role::Bishop, 1), (Role::Rook, 2)] {
            phase += weight * (pos.by_color(color) & pos.by_role(role)).count() as i32;
        }
        phase += 4 * (pos.by_color(color) & pos.by_role(Role::Queen)).count() as i32;
    }
    let phase = phase.min(FULL_PHASE);
    let mut cp = (score.mg * phase + score.eg * (FULL_PHASE - phase)) / FULL_PHASE;
    if threats {
        for color in Color::ALL {
            let (ours, theirs) = (attacked[color.index()], attacked[(!color).index()]);
            cp -= color.fold(1, -1) * hanging_penalty(pos, color, ours, theirs);
        }
    }
    cp
}

/// The material of both sides, White's view, in centipawns (the fixed
/// values of adjudication: pawn 100, knight 320, bishop 330, rook 500,
/// queen 900).
pub(crate) fn material_cp(pos: &Position) -> i32 {
    let mut score = 0;
    for color in Color::ALL {
        let sign = color.fold(1, -1);
        for role in Role::ALL {
            score +=
                sign * role_value(role) * (pos.by_color(color) & pos.by_role(role)).count() as i32;
        }
    }
    score
}

/// Centipawns to a search value in (-1, 1).
pub(crate) fn scale(cp: i32) -> f64 {
    let cp = f64::from(cp);
    cp / (cp.abs() + 600.0)
}

/// Steps from the rim: 0 on the edge, 3 on the four centre squares.
fn centrality(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    f.min(7 - f).min(r.min(7 - r))
}

/// The squares of a file.
fn file_mask(file: usize) -> Bitboard {
    Bitboard(0x0101_0101_0101_0101 << file)
}

/// The files beside `file`.
fn adjacent_files(file: usize) -> Bitboard {
    let mut m = Bitboard::EMPTY;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// The squares in front of `sq` (from `color`'s view) on its file and the
/// files beside it: where an enemy pawn would stop or capture a pawn.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = sq.file().index();
    let rank = sq.rank().index();
    let files = file_mask(file) | adjacent_files(file);
    let ahead = match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black if rank > 0 => !0u64 >> (8 * (8 - rank)),
        _ => 0,
    };
    files & Bitboard(ahead)
}

/// `color`'s terms; `attacked` are the squares the opponent attacks.
fn side_score(pos: &Position, color: Color, attacked: Bitboard) -> Score {
    let ours = pos.by_color(color);
    let mut score = Score::default();
    for role in Role::ALL {
        score += material(role) * (ours & pos.by_role(role)).count() as i32;
    }
    if (ours & pos.by_role(Role::Bishop)).count() >= 2 {
        score += s(30, 50);
    }
    score += pawns(pos, color) + pieces(pos, color) + king(pos, color, attacked);
    score
}

/// Advance, passed, doubled and isolated pawns.
fn pawns(pos: &Position, color: Color) -> Score {
    let our_pawns = pos.by_color(color) & pos.by_role(Role::Pawn);
    let their_pawns = pos.by_color(!color) & pos.by_role(Role::Pawn);
    let mut score = Score::default();
    for sq in our_pawns {
        let rank = sq.rank().relative_to(color).index() as i32;
        let file = sq.file().index();
        let centre = matches!(file, 3 | 4);
        score += s(3 * (rank - 1) + if centre { 8 } else { 0 }, 6 * (rank - 1));
        if (front_span(color, sq) & their_pawns).is_empty() {
            let r = (rank - 1).max(0);
            score += s(4 * r * r / 2 + 5, 6 * r * r + 10);
        }
        if (adjacent_files(file) & our_pawns).is_empty() {
            score += s(-10, -15);
        }
    }
    for file in 0..8 {
        let n = (file_mask(file) & our_pawns).count() as i32;
        if n > 1 {
            score += s(-12, -22) * (n - 1);
        }
    }
    score
}

/// Mobility and placement of knights, bishops, rooks and queens.
fn pieces(pos: &Position, color: Color) -> Score {
    let ours = pos.by_color(color);
    let occupied = pos.occupied();
    let our_pawns = ours & pos.by_role(Role::Pawn);
    let their_pawns = pos.by_color(!color) & pos.by_role(Role::Pawn);
    let mut pawn_attacked = Bitboard::EMPTY;
    for sq in their_pawns {
        pawn_attacked |= attacks::pawn_attacks(!color, sq);
    }
    let safe = !ours & !pawn_attacked;
    let mut score = Score::default();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let (weight, typical) = mobility(role);
        for sq in ours & pos.by_role(role) {
            let reach = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occupied),
                Role::Rook => attacks::rook_attacks(sq, occupied),
                _ => attacks::queen_attacks(sq, occupied),
            };
            score += weight * ((reach & safe).count() as i32 - typical);
            let c = centrality(sq);
            score += match role {
                Role::Knight => s(10 * c - 10, 8 * c - 8),
                Role::Bishop => s(4 * c, 4 * c),
                Role::Queen => s(2 * c, 4 * c),
                _ => s(0, 0),
            };
            if role == Role::Rook {
                let file = file_mask(sq.file().index());
                if (file & our_pawns).is_empty() {
                    score += if (file & their_pawns).is_empty() {
                        s(25, 10)
                    } else {
                        s(12, 6)
                    };
                }
                if sq.rank().relative_to(color) == Rank::Seventh {
                    score += s(15, 25);
                }
            }
        }
    }
    score
}

/// The king: sheltered behind its pawns and away from the centre while
/// the opponent has pieces to attack it; active in the endgame.
fn king(pos: &Position, color: Color, attacked: Bitboard) -> Score {
    let Some(sq) = pos.king(color) else {
        return Score::default();
    };
    let rank = sq.rank().relative_to(color).index() as i32;
    let file = sq.file().index();
    let mut mg = -15 * rank;
    if matches!(sq.file(), File::A | File::B | File::C | File::G | File::H) && rank == 0 {
        mg += 20;
    }
    let our_pawns = pos.by_color(color) & pos.by_role(Role::Pawn);
    let shelter = front_span(color, sq) & (file_mask(file) | adjacent_files(file));
    let near = shelter
        & Bitboard(match color {
            Color::White => 0x0000_0000_00ff_ff00u64 << (8 * rank.min(5)),
            Color::Black => 0x00ff_ff00_0000_0000u64 >> (8 * rank.min(5)),
        });
    mg += 12 * (near & our_pawns).count() as i32;
    mg -= 8 * (attacks::king_attacks(sq) & attacked).count() as i32;
    s(mg, 12 * centrality(sq) - 12)
}

/// −⅓ of the most valuable piece of `color` that is attacked and either
/// undefended or attacked by a pawn.
fn hanging_penalty(
    pos: &Position,
    color: Color,
    our_attacks: Bitboard,
    their_attacks: Bitboard,
) -> i32 {
    let ours = pos.by_color(color);
    let their_pawns = pos.by_color(!color) & pos.by_role(Role::Pawn);
    let mut worst = 0;
    for sq in ours & their_attacks & !pos.by_role(Role::King) {
        let role = pos.role_on(sq);
        let value = role_value(role);
        let by_pawn = role != Role::Pawn
            && (attacks::pawn_attacks(color, sq) & their_pawns) != Bitboard::EMPTY;
        if !our_attacks.contains(sq) || by_pawn {
            worst = worst.max(value);
        }
    }
    worst / 3
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate_cp(&Position::from_fen(fen).unwrap(), false)
    }

    #[test]
    fn start_is_balanced_and_mirror_symmetric() {
        let pos = Position::new();
        assert_eq!(evaluate_cp(&pos, true), 0);
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r4rk1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/R4RK1 w - - 0 15",
            "8/5k2/3p4/1p1P4/1P6/4K3/8/8 w - - 0 50",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate_cp(&pos, true), -evaluate_cp(&pos.mirrored(), true));
        }
    }

    #[test]
    fn material_counts_and_scale_is_bounded() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap();
        assert_eq!(material_cp(&pos), 900);
        assert!(evaluate_cp(&pos, false) > 850);
        assert!(scale(100_000) < 1.0 && scale(-100_000) > -1.0);
        assert_eq!(scale(0), 0.0);
    }

    #[test]
    fn a_hanging_piece_costs_in_the_variants() {
        // The black knight on e5 is attacked by the pawn on d4.
        let pos = Position::from_fen("4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1").unwrap();
        assert!(evaluate_cp(&pos, true) > evaluate_cp(&pos, false));
    }

    #[test]
    fn positional_terms_point_the_right_way() {
        // A passed pawn on the 6th beats one blocked by an enemy pawn.
        assert!(
            eval("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1")
                > eval("4k3/3p4/3P4/8/8/8/8/4K3 w - - 0 1") + 100
        );
        // Doubled, isolated pawns are worse than two connected ones.
        assert!(
            eval("4k3/8/8/8/8/3P4/3P4/4K3 w - - 0 1") < eval("4k3/8/8/8/8/3P4/4P3/4K3 w - - 0 1")
        );
        // A castled king behind its pawns beats one in the centre.
        let castled = "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R4RK1 w kq - 0 1";
        let centre = "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3KR2 w kq - 0 1";
        assert!(eval(castled) > eval(centre));
        // A rook on an open file beats one behind its own pawn.
        assert!(
            eval("4k3/1p6/8/8/8/8/1P6/R3K3 w - - 0 1") > eval("4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1")
        );
        // In the endgame the king belongs in the centre.
        assert!(eval("8/8/8/8/3K4/8/8/k7 w - - 0 1") > 0);
        assert!(eval("K7/8/8/8/3k4/8/8/8 w - - 0 1") < 0);
    }
}
