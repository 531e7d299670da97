//! The static evaluation, in centipawns from White's view, and its scale
//! to the search's values in [-1, 1]; the crate docs (*Evaluation*) list
//! its terms.

use tempo_chess::{Bitboard, Color, Position, Role, attacks};

use crate::state::role_value;

/// Evaluation of `pos` in centipawns, White's view. `threats` adds the
/// hanging-piece term of the simultaneous variants.
pub(crate) fn evaluate_cp(pos: &Position, threats: bool) -> i32 {
    let mut score = 0;
    for color in Color::ALL {
        let sign = color.fold(1, -1);
        score += sign * side_score(pos, color);
        if threats {
            score -= sign * hanging_penalty(pos, color);
        }
    }
    score
}

/// The material of both sides, White's view, in centipawns.
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
fn centrality(sq: tempo_chess::Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    let df = f.min(7 - f);
    let dr = r.min(7 - r);
    df.min(dr)
}

fn side_score(pos: &Position, color: Color) -> i32 {
    let ours = pos.by_color(color);
    let theirs = pos.by_color(!color);
    let mut score = 0;
    for role in Role::ALL {
        score += role_value(role) * (ours & pos.by_role(role)).count() as i32;
    }
    for sq in ours & pos.by_role(Role::Pawn) {
        let rank = sq.rank().relative_to(color).index() as i32;
        score += 6 * (rank - 1).max(0);
        if rank == 5 {
            score += 20;
        } else if rank == 6 {
            score += 40;
        }
    }
    for sq in ours & pos.by_role(Role::Knight) {
        score += 8 * centrality(sq);
    }
    for sq in ours & pos.by_role(Role::Bishop) {
        score += 4 * centrality(sq);
    }
    let heavy = (theirs & pos.by_role(Role::Queen)).count() * 2
        + (theirs & pos.by_role(Role::Rook)).count();
    for sq in ours & pos.by_role(Role::King) {
        if heavy >= 2 {
            let rank = sq.rank().relative_to(color).index() as i32;
            score -= 15 * rank;
        } else {
            score += 6 * centrality(sq);
        }
    }
    score
}

/// −⅓ of the most valuable piece of `color` that is attacked and either
/// undefended or attacked by a pawn.
fn hanging_penalty(pos: &Position, color: Color) -> i32 {
    let ours = pos.by_color(color);
    let their_attacks = pos.attacked_squares(!color);
    let our_attacks = pos.attacked_squares(color);
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

    #[test]
    fn start_is_balanced_and_mirror_symmetric() {
        let pos = Position::new();
        assert_eq!(evaluate_cp(&pos, true), 0);
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(evaluate_cp(&pos, true), -evaluate_cp(&pos.mirrored(), true));
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
}
