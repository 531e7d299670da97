//! Whether each side can move at the start of a pair — the question
//! behind checkmate, stalemate (S3) and FSR 9's lifted pauses — answered
//! either by a quick search or by generating both players' complete move
//! sets. A caller that goes on playing needs those sets anyway (they are
//! the next pair's choices), so it lets the test generate them once
//! ([`Node::play`](super::Node::play) into a node).
//! The generation also finds the squares each side attacks: the start of
//! the pair reads both checks from them, and the resolution of a pair
//! drawn from the sets takes them over ([`Drawn`]).

use tempo_chess::{Bitboard, Color, MoveSet, PausedInCheck, Position};

use super::check::checks;
use super::end::has_legal_move;
use super::exchange::attacked_before;
use super::fair::effective_pauses;

/// Both players' legal moves at the start of a pair, as compact
/// [`MoveSet`]s: the choices of a pair (and of Fairschach's first-move
/// right and new parry, FSR 6/7, which offer the same moves), with the
/// squares each side attacks. Held by a [`Node`](super::Node) together
/// with the state they belong to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct PairMoves {
    sets: [MoveSet; 2],
    /// The squares each side attacks in the position of the sets, White's
    /// first. Kept here rather than read from the sets: where FSR 9 lifts
    /// the pauses of a side left without a move, its set is made again by
    /// the one-colour generator, which finds no attacks (pauses do not
    /// change them).
    attacks: [Bitboard; 2],
}

impl PairMoves {
    /// Two empty sets.
    pub(super) fn new() -> PairMoves {
        PairMoves::default()
    }

    /// The legal moves of `color`.
    #[inline]
    pub(super) fn of(&self, color: Color) -> &MoveSet {
        &self.sets[color.index()]
    }

    /// The squares `color` attacks (empty if not filled).
    #[cfg(test)]
    #[inline]
    pub(super) fn attacks(&self, color: Color) -> Bitboard {
        self.attacks[color.index()]
    }

    /// Both sides' attacked squares, White's first.
    #[inline(always)]
    pub(super) fn attacks_both(&self) -> [Bitboard; 2] {
        self.attacks
    }

    /// Both colours' legal moves in `pos` (at the start of a pair, its
    /// pauses settled), in one pass, and the squares each attacks.
    #[inline]
    pub(super) fn fill(&mut self, pos: &Position) {
        let [white, black] = &mut self.sets;
        pos.legal_move_sets_into(white, black, PausedInCheck::Stay);
        self.attacks = [kept_attacks(white), kept_attacks(black)];
    }

    /// No moves, no attacks.
    #[inline]
    pub(super) fn clear(&mut self) {
        for set in &mut self.sets {
            set.clear();
        }
        self.attacks = [Bitboard::EMPTY; 2];
    }
}

/// The attacked squares in a set made by a both-colour generator.
#[inline(always)]
fn kept_attacks(set: &MoveSet) -> Bitboard {
    set.attacks().expect("the both-colour generator's attacks")
}

/// How the start of a pair finds out whether each side can move, and
/// how the resolution of a pair learns which squares each side attacked
/// before it (Synchronschach's exchange rights, S5): a type parameter
/// rather than a value, so that each way is compiled on its own and the
/// usual one ([`Search`], looking the attacks up) pays nothing for the
/// others.
pub(super) trait Mobility {
    /// Whether each side's king is attacked in `pos`, at the start of a
    /// pair before its pauses are settled (checks do not depend on
    /// pauses); called before [`Mobility::settle`], which may build on
    /// what this found.
    #[inline(always)]
    fn checks(&mut self, pos: &Position) -> [bool; 2] {
        checks(pos)
    }

    /// Settles the pauses in force at the start of a pair in `pos` (FSR 9:
    /// a side in check, or one whose pauses would leave it no legal move,
    /// has none) and returns which sides have no legal move (`checked`:
    /// which sides are in check, as [`Mobility::checks`] found).
    fn settle(self, pos: &mut Position, checked: &[bool; 2]) -> [bool; 2];

    /// The squares of `squares` that `color` attacks in `pre`, the
    /// position the pair is resolved from: looked up there unless known
    /// ([`Drawn`]).
    #[inline(always)]
    fn attacked_before(&self, pre: &Position, squares: Bitboard, color: Color) -> Bitboard {
        attacked_before(pre, squares, color)
    }
}

/// A quick search per side ([`has_legal_move`]).
pub(super) struct Search;

impl Mobility for Search {
    #[inline(always)]
    fn settle(self, pos: &mut Position, checked: &[bool; 2]) -> [bool; 2] {
        // Without pauses (Synchronschach) nothing to settle, and no call.
        let mobile = if pos.paused().any() {
            effective_pauses(pos, checked)
        } else {
            [false; 2]
        };
        // Written out: `Color::ALL.map` with a closure is not inlined.
        [
            !mobile[0] && !has_legal_move(pos, Color::White, checked[0]),
            !mobile[1] && !has_legal_move(pos, Color::Black, checked[1]),
        ]
    }
}

/// Both players' complete move sets, kept for the caller: generated
/// first, a side in check moving its paused pieces too (FSR 9), the
/// checks found on the way; then settled ([`settle_by_sets`]).
impl Mobility for &mut PairMoves {
    #[inline(always)]
    fn checks(&mut self, pos: &Position) -> [bool; 2] {
        let [white, black] = &mut self.sets;
        let checks = pos.legal_move_sets_into(white, black, PausedInCheck::Move);
        self.attacks = [kept_attacks(white), kept_attacks(black)];
        checks
    }

    #[inline(always)]
    fn settle(self, pos: &mut Position, checked: &[bool; 2]) -> [bool; 2] {
        settle_by_sets(pos, checked, self)
    }
}

/// A pair resolved with moves drawn from [`PairMoves`] of the position it
/// is resolved from: the squares each side attacks there come with the
/// moves (found by their generation), and `mobility` settles the start of
/// the next pair.
pub(super) struct Drawn<M> {
    mobility: M,
    attacks: [Bitboard; 2],
}

impl<M: Mobility> Drawn<M> {
    /// A pair resolved from a position where each side attacks
    /// `attacks` (White's first), the next pair's start settled by
    /// `mobility`.
    #[inline(always)]
    pub(super) fn new(mobility: M, attacks: [Bitboard; 2]) -> Drawn<M> {
        Drawn { mobility, attacks }
    }
}

impl<M: Mobility> Mobility for Drawn<M> {
    #[inline(always)]
    fn checks(&mut self, pos: &Position) -> [bool; 2] {
        self.mobility.checks(pos)
    }

    #[inline(always)]
    fn settle(self, pos: &mut Position, checked: &[bool; 2]) -> [bool; 2] {
        self.mobility.settle(pos, checked)
    }

    #[inline(always)]
    fn attacked_before(&self, _pre: &Position, squares: Bitboard, color: Color) -> Bitboard {
        squares & self.attacks[color.index()]
    }
}

/// [`Mobility::settle`] with both sides' move sets in `moves`, generated
/// in `pos` by [`Mobility::checks`] (a side in check moving its paused
/// pieces too): the same pauses as [`effective_pauses`] (a side in check
/// loses its pauses, as the sets already have it; a side left without a
/// move loses them if that gives it one), so the sets are the choices of
/// the pair that starts.
#[inline(always)]
fn settle_by_sets(pos: &mut Position, checked: &[bool; 2], moves: &mut PairMoves) -> [bool; 2] {
    let mut paused = pos.paused();
    if paused.any() {
        for color in Color::ALL {
            if checked[color.index()] {
                paused &= !pos.by_color(color);
            }
        }
        pos.set_paused(paused);
        for color in Color::ALL {
            let set = &mut moves.sets[color.index()];
            if set.is_empty() && (paused & pos.by_color(color)).any() {
                lift_pauses_if_stuck(pos, color, set);
            }
        }
    }
    [moves.sets[0].is_empty(), moves.sets[1].is_empty()]
}

/// FSR 9 for `color`, left without a move by its pauses in `pos`: its
/// pauses are lifted if that gives it a move (then `set`, empty, gets its
/// moves). A side's moves do not depend on which of the other side's
/// pieces are paused, so only this side's set is made again. Rare, and
/// kept out of line so as not to weigh on the usual path.
#[cold]
#[inline(never)]
fn lift_pauses_if_stuck(pos: &mut Position, color: Color, set: &mut MoveSet) {
    let paused = pos.paused();
    pos.set_paused(paused & !pos.by_color(color));
    pos.legal_move_set_for_into(color, set);
    if set.is_empty() {
        pos.set_paused(paused);
    }
}

#[cfg(test)]
mod tests {
    use tempo_chess::{Bitboard, Role};

    use super::*;
    use crate::playout::sample_pair_states;
    use crate::{Rules, Variant};

    /// Both ways of settling give the same pauses and the same answer,
    /// and the sets are each side's moves under the settled pauses — also
    /// where pauses leave a side stuck (every piece but the king paused,
    /// the side in check or not), so that FSR 9's lifting is exercised.
    #[test]
    fn sets_settle_as_the_search_does() {
        let mut moves = PairMoves::new();
        let (mut lifted, mut stuck_seen) = (0, 0);
        let stuck_sides = [
            "k7/8/1Q6/8/8/8/8/2K5 w - - 0 1",
            "k7/1Q6/2K5/8/8/8/8/8 w - - 0 1",
        ]
        .map(|fen| Position::from_fen(fen).expect("a valid FEN"));
        let playout = sample_pair_states(Rules::new(Variant::Fairschach), 3000, 23);
        for base in stuck_sides
            .into_iter()
            .chain(playout.iter().map(|game| game.position().clone()))
        {
            let kings = base.by_role(Role::King);
            for paused in [
                base.paused(),
                base.by_color(Color::White) & !kings,
                base.by_color(Color::Black) & !kings,
                base.occupied() & !kings,
            ] {
                let mut pos = base.clone();
                pos.set_paused(paused);
                let checked = Color::ALL.map(|c| pos.is_in_check(c));
                let (mut searched, mut generated) = (pos.clone(), pos.clone());
                let stuck = Search.settle(&mut searched, &checked);
                let mut sets = &mut moves;
                assert_eq!(sets.checks(&generated), checked);
                assert_eq!(sets.settle(&mut generated, &checked), stuck);
                assert_eq!(generated.paused(), searched.paused());
                for color in Color::ALL {
                    let list = generated.legal_moves_for(color);
                    assert!(moves.of(color).iter().eq(list.iter().copied()));
                }
                lifted +=
                    usize::from(generated.paused() != paused & !checked_pieces(&pos, &checked));
                stuck_seen += usize::from(stuck != [false, false]);
            }
        }
        assert!(
            lifted > 20,
            "pauses lifted for lack of moves {lifted} times"
        );
        assert!(stuck_seen >= 8, "{stuck_seen} positions with a side stuck");
    }

    /// The attacked squares kept with the moves are those `is_attacked`
    /// names with the board's occupancy, on playout positions of both
    /// variants (paused pieces attack too), from `fill` and from the
    /// start of a pair (`checks`, also after FSR 9 lifts pauses), and the
    /// checks read from them are the kings' attacks.
    #[test]
    fn kept_attacks_equal_is_attacked_on_playout_positions() {
        let mut moves = PairMoves::new();
        let mut paused_seen = 0;
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            for game in sample_pair_states(Rules::new(variant), 2000, 31) {
                let pos = game.position();
                paused_seen += usize::from(pos.paused().any());
                moves.fill(pos);
                assert_attacks(pos, &moves);
                let mut settled = pos.clone();
                let mut sets = &mut moves;
                let checked = sets.checks(&settled);
                assert_eq!(checked, Color::ALL.map(|c| pos.is_in_check(c)));
                sets.settle(&mut settled, &checked);
                assert_attacks(pos, &moves);
            }
        }
        assert!(paused_seen > 1000, "{paused_seen} positions with pauses");
    }

    fn assert_attacks(pos: &Position, moves: &PairMoves) {
        for color in Color::ALL {
            for sq in tempo_chess::Square::ALL {
                assert_eq!(
                    moves.attacks(color).contains(sq),
                    pos.is_attacked(sq, color, pos.occupied()),
                    "{sq} by {color:?} in {}",
                    pos.to_fen()
                );
            }
        }
    }

    /// The pieces of the sides in check.
    fn checked_pieces(pos: &Position, checked: &[bool; 2]) -> Bitboard {
        Color::ALL
            .into_iter()
            .filter(|c| checked[c.index()])
            .map(|c| pos.by_color(c))
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }
}
