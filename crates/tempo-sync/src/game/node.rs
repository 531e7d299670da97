//! [`Node`]: a state with both players' moves, for search — engines,
//! random playouts, benchmarks.

use std::borrow::Borrow;

use tempo_chess::{Bitboard, Color, Move, MoveSet};

use super::mobility::{Drawn, PairMoves, Search};
use super::{Choice, SyncGame};
use crate::event::Event;

/// A game state together with both players' legal moves at the start of
/// its pair: the handle a search works with. The moves always belong to
/// the state (a node is only ever made or changed as a whole), so the
/// moves drawn from it need no check, and what their generation found
/// (the squares each side attacks) is reused when the pair is resolved.
///
/// [`Node::play`] resolves any step — a pair, an exchange step, a move
/// under Fairschach's first-move right or in orthodox play — into a
/// [`Successor`]: a bare [`SyncGame`] (a leaf: the new state only), or a
/// `Node`, whose moves are then those of the new state, from the same
/// generation as its mate and stalemate test.
///
/// A node owns its state (`Node`, the default) or borrows it
/// (`Node<&SyncGame>`: a search over states it does not own copies
/// nothing; the borrow keeps the state from changing under its moves).
///
/// The choices are not checked again: they must be among the node's
/// moves (at the start of a pair) or [`SyncGame::choices`] (in other
/// phases). A host that must check its players' choices uses
/// [`SyncGame::step`] or [`SyncGame::resolve`].
///
/// ```
/// use tempo_chess::Color;
/// use tempo_sync::{Choice, Node, Rules, SyncGame, Variant};
///
/// let node = Node::new(SyncGame::new(Rules::new(Variant::Fairschach)));
/// assert_eq!(node.moves(Color::White).len(), 20);
/// // The 4th move of White against the 17th of Black, into a new node:
/// let (white, black) = node.pair(3, 16).unwrap();
/// let mut child = Node::default();
/// let mut events = Vec::new();
/// node.play(Some(Choice::Move(white)), Some(Choice::Move(black)), &mut child, &mut events);
/// assert_eq!(child.game().pair_number(), 2);
/// assert_eq!(child.moves(Color::Black).len(), child.game().legal_moves(Color::Black).len());
/// // The same pair from the checked entry gives the same state.
/// let (checked, _) = node.game().resolve(Some(Choice::Move(white)), Some(Choice::Move(black)))?;
/// assert_eq!(checked.position(), child.game().position());
/// # Ok::<(), tempo_sync::SyncError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Node<G = SyncGame> {
    /// The state: owned, or borrowed (`Node<&SyncGame>`, for a search
    /// over states it does not own; the borrow keeps the state from
    /// changing under its moves).
    game: G,
    /// The moves of `game` when it is at the start of a pair, else empty.
    moves: PairMoves,
}

impl Default for Node {
    /// The orthodox start of a Synchronschach game (a buffer to play into).
    fn default() -> Node {
        Node::new(SyncGame::new(crate::Rules::new(
            crate::Variant::Synchronschach,
        )))
    }
}

impl<G: Borrow<SyncGame>> Node<G> {
    /// The node of `game`: both players' moves generated if it is at the
    /// start of a pair.
    pub fn new(game: G) -> Node<G> {
        let mut moves = PairMoves::new();
        if game.borrow().phase().is_pair() {
            moves.fill(game.borrow().position());
        }
        Node { game, moves }
    }

    /// The state.
    #[inline]
    pub fn game(&self) -> &SyncGame {
        self.game.borrow()
    }

    /// The legal moves of `color` at the start of the pair (in the order
    /// of [`SyncGame::legal_moves`]); empty in other phases.
    #[inline]
    pub fn moves(&self, color: Color) -> &MoveSet {
        self.moves.of(color)
    }

    /// The squares `color`'s pieces attack at the start of the pair
    /// ([`tempo_chess::Position::attacked_squares`], paused pieces
    /// included), found by the generation of the moves; empty in other
    /// phases.
    #[cfg(test)]
    #[inline]
    pub(crate) fn attacks(&self, color: Color) -> Bitboard {
        self.moves.attacks(color)
    }

    /// White's move number `white` and Black's number `black` (counted
    /// from 0 in the order of [`Node::moves`]), both drawn at once;
    /// `None` if either is out of range.
    #[inline]
    pub fn pair(&self, white: usize, black: usize) -> Option<(Move, Move)> {
        match MoveSet::get_pair(
            self.moves.of(Color::White),
            white,
            self.moves.of(Color::Black),
            black,
        ) {
            (Some(w), Some(b)) => Some((w, b)),
            _ => None,
        }
    }

    /// Resolves the current step with `white`'s and `black`'s choices
    /// (`None` for a player who has nothing to choose) into `next`, the
    /// events into `events` (cleared first). Unchecked: see [`Node`].
    ///
    /// # Panics
    ///
    /// If the game is over, if a pair lacks a move, or if the player to
    /// move in orthodox play has none.
    #[inline]
    pub fn play<S: Successor>(
        &self,
        white: Option<Choice>,
        black: Option<Choice>,
        next: &mut S,
        events: &mut Vec<Event>,
    ) {
        events.clear();
        let game = self.game.borrow();
        if game.phase().is_pair() {
            let mv = |c: Option<Choice>| c.and_then(|c| c.as_move());
            let (Some(white), Some(black)) = (mv(white), mv(black)) else {
                panic!("a pair needs both players' moves");
            };
            next.receive_pair(game, self.moves.attacks_both(), white, black, events);
        } else {
            next.receive_step(game, [white, black], events);
        }
    }

    /// Makes the moves those of the state (after the state changed).
    fn refill(&mut self) {
        if self.game.borrow().phase().is_pair() {
            self.moves.fill(self.game.borrow().position());
        } else {
            self.moves.clear();
        }
    }
}

impl Node {
    /// Makes this node that of a copy of `game`, reusing its buffers
    /// (as [`Node::new`] without allocating).
    pub fn set(&mut self, game: &SyncGame) {
        self.game.clone_from(game);
        self.refill();
    }

    /// The state, without its moves.
    pub fn into_game(self) -> SyncGame {
        self.game
    }
}

impl<'a> Node<&'a SyncGame> {
    /// Makes this node that of `game`, borrowed, reusing the move buffers.
    ///
    /// ```
    /// use tempo_chess::Color;
    /// use tempo_sync::{Node, Rules, SyncGame, Variant};
    ///
    /// let games = [SyncGame::new(Rules::new(Variant::Fairschach)), SyncGame::chess960(Rules::new(Variant::Fairschach), 5)?];
    /// let mut node = Node::new(&games[0]);
    /// node.set(&games[1]);
    /// assert_eq!(node.moves(Color::White).len(), games[1].legal_moves(Color::White).len());
    /// # Ok::<(), tempo_sync::SyncError>(())
    /// ```
    pub fn set(&mut self, game: &'a SyncGame) {
        self.game = game;
        self.refill();
    }
}

/// What [`Node::play`] resolves into: a [`SyncGame`] (the new state only)
/// or a [`Node`] (the new state and its moves). Sealed.
pub trait Successor: sealed::Receive {}

impl Successor for SyncGame {}
impl Successor for Node {}

mod sealed {
    use tempo_chess::{Bitboard, Move};

    use super::super::SyncGame;
    use crate::Choice;
    use crate::event::Event;

    /// How a successor receives the step resolved from a node's state.
    pub trait Receive {
        /// The pair of `white` and `black` from `from`, at the start of a
        /// pair where each side attacks `attacks`.
        fn receive_pair(
            &mut self,
            from: &SyncGame,
            attacks: [Bitboard; 2],
            white: Move,
            black: Move,
            events: &mut Vec<Event>,
        );
        /// Any other step from `from`.
        fn receive_step(
            &mut self,
            from: &SyncGame,
            choices: [Option<Choice>; 2],
            events: &mut Vec<Event>,
        );
    }
}

// Not generic and not inlined into the caller: the resolution is compiled
// here, in one crate with the rules it calls (across crates they would
// not be inlined).
impl sealed::Receive for SyncGame {
    fn receive_pair(
        &mut self,
        from: &SyncGame,
        attacks: [Bitboard; 2],
        white: Move,
        black: Move,
        events: &mut Vec<Event>,
    ) {
        let mobility = Drawn::new(Search, attacks);
        from.after_pair_into(white, black, mobility, events, self);
    }

    fn receive_step(
        &mut self,
        from: &SyncGame,
        choices: [Option<Choice>; 2],
        events: &mut Vec<Event>,
    ) {
        *self = from.resolve_step(choices, Search, events);
    }
}

impl sealed::Receive for Node {
    fn receive_pair(
        &mut self,
        from: &SyncGame,
        attacks: [Bitboard; 2],
        white: Move,
        black: Move,
        events: &mut Vec<Event>,
    ) {
        let mobility = Drawn::new(&mut self.moves, attacks);
        from.after_pair_into(white, black, mobility, events, &mut self.game);
        self.forget_moves_unless_pair();
    }

    fn receive_step(
        &mut self,
        from: &SyncGame,
        choices: [Option<Choice>; 2],
        events: &mut Vec<Event>,
    ) {
        self.game = from.resolve_step(choices, &mut self.moves, events);
        self.forget_moves_unless_pair();
    }
}

impl Node {
    /// Keeps the moves only where they are the choices: the generation
    /// runs only for a new pair (and a switch to orthodox play leaves
    /// those of the pair it made no more).
    #[inline(always)]
    fn forget_moves_unless_pair(&mut self) {
        if !self.game.phase().is_pair() {
            self.moves.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use tempo_chess::Color;

    use super::*;
    use crate::playout::random_choice;
    use crate::{Phase, Rules, Variant};

    /// Played into a bare state and into a node, a step gives the state
    /// and events of the checked [`SyncGame::resolve`], and the node's
    /// moves and attacks are the new state's, over many playout steps of
    /// both variants (exchange steps, first-move rights and new games
    /// among them).
    #[test]
    fn play_resolves_as_the_checked_entry() {
        let mut rules = Rules::new(Variant::Fairschach);
        rules
            .apply_options("same-square=both pause=capturable")
            .expect("valid options");
        for rules in [
            Rules::new(Variant::Synchronschach),
            Rules::new(Variant::Fairschach),
            rules,
        ] {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(61);
            let mut events = Vec::new();
            let mut node = Node::new(SyncGame::new(rules));
            let (mut child, mut leaf) = (Node::default(), SyncGame::new(rules));
            let (mut steps, mut exchanges, mut games) = (0, 0, 0);
            while steps < 20_000 {
                if node.game().is_over() {
                    games += 1;
                    node.set(&SyncGame::chess960(rules, games % 960).expect("0..960"));
                    continue;
                }
                let [white, black] = if node.game().phase().is_pair() {
                    let (w, b) = (node.moves(Color::White), node.moves(Color::Black));
                    let i = rng.random_range(0..w.len());
                    let j = rng.random_range(0..b.len());
                    let (w, b) = node.pair(i, j).expect("indices below the lengths");
                    [Some(Choice::Move(w)), Some(Choice::Move(b))]
                } else {
                    Color::ALL.map(|c| random_choice(node.game(), c, &mut rng))
                };
                let (reference, reference_events) =
                    node.game().resolve(white, black).expect("legal choices");
                node.play(white, black, &mut leaf, &mut events);
                assert_eq!(format!("{leaf:?}"), format!("{reference:?}"));
                assert_eq!(events, reference_events);
                node.play(white, black, &mut child, &mut events);
                assert_eq!(format!("{:?}", child.game()), format!("{reference:?}"));
                assert_eq!(events, reference_events);
                for color in Color::ALL {
                    if reference.phase().is_pair() {
                        let list = reference.legal_moves(color);
                        assert!(child.moves(color).iter().eq(list.iter().copied()));
                        let attacks = reference.position().attacked_squares(color);
                        assert_eq!(child.attacks(color), attacks);
                    } else {
                        assert!(child.moves(color).is_empty());
                    }
                }
                exchanges += usize::from(matches!(reference.phase(), Phase::Exchange(_)));
                std::mem::swap(&mut node, &mut child);
                steps += 1;
            }
            if rules.variant() == Variant::Synchronschach {
                assert!(exchanges > 300, "{exchanges} exchange phases");
            }
            assert!(games > 10, "{games} games");
        }
    }

    /// `set` gives the node `new` gives, also over a node of another
    /// phase, and a node outside a pair has no moves.
    #[test]
    fn set_equals_new() {
        let rules = Rules::new(Variant::Synchronschach);
        let mut node = Node::new(SyncGame::new(rules));
        for game in crate::playout::sample_pair_states(rules, 50, 3) {
            node.set(&game);
            let fresh = Node::new(game);
            assert_eq!(node.moves, fresh.moves);
            assert_eq!(format!("{:?}", node.game), format!("{:?}", fresh.game));
        }
        assert_eq!(node.pair(200, 0), None);
    }
}
