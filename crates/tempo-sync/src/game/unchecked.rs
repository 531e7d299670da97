//! Resolution without checking the choices again, for engines, playouts
//! and benchmarks: the choices come from the game's own lists
//! ([`SyncGame::legal_moves`], [`SyncGame::choices`], [`PairMoves`]).

use tempo_chess::Move;

use super::mobility::{Drawn, Mobility, PairMoves, Search};
use super::{Choice, SyncGame};
use crate::event::Event;

impl SyncGame {
    /// Resolves the current step with choices taken from
    /// [`SyncGame::choices`] (or, at the start of a pair, from
    /// [`PairMoves`]), without checking them again, for engines and
    /// playouts; `events` is cleared first. When the new state starts a
    /// pair ([`Phase::is_pair`](crate::Phase::is_pair)), `next` holds both players' moves in it,
    /// as [`SyncGame::resolve_legal_pair_with`] says; after an orthodox
    /// move (FSR 8) or in other phases its content is unspecified.
    ///
    /// Panics if the game is over, if a pair lacks a move, or if the side
    /// to move in orthodox play (FSR 8) has no move.
    pub fn resolve_legal_with(
        &self,
        white: Option<Choice>,
        black: Option<Choice>,
        events: &mut Vec<Event>,
        next: &mut PairMoves,
    ) -> SyncGame {
        events.clear();
        self.resolve_step([white, black], next, events)
    }

    /// Resolves a pair with moves taken from [`SyncGame::legal_moves`],
    /// without checking them again (for engines and benchmarks; a move
    /// that is not legal gives an unspecified but valid state).
    ///
    /// Panics if the phase is not the start of a pair.
    pub fn resolve_legal_pair(&self, white: Move, black: Move) -> (SyncGame, Vec<Event>) {
        let mut events = Vec::with_capacity(8);
        let next = self.resolve_legal_pair_into(white, black, &mut events);
        (next, events)
    }

    /// Like [`SyncGame::resolve_legal_pair`], with the events written into
    /// `events` (cleared first), so that a caller resolving many pairs
    /// reuses one buffer.
    ///
    /// Panics if the phase is not the start of a pair.
    pub fn resolve_legal_pair_into(
        &self,
        white: Move,
        black: Move,
        events: &mut Vec<Event>,
    ) -> SyncGame {
        self.pair_unchecked(white, black, Search, events)
    }

    /// Like [`SyncGame::resolve_legal_pair_into`], and when the new state
    /// starts a pair ([`Phase::is_pair`](crate::Phase::is_pair)), `next` holds both players'
    /// legal moves in it (in other phases its content is unspecified, as
    /// [`SyncGame::resolve_legal_with`] says). The new state's mate and stalemate test
    /// generates them anyway, so a caller that goes on playing (a playout,
    /// an engine) gets the next pair's choices without generating them
    /// again.
    ///
    /// Panics if the phase is not the start of a pair.
    pub fn resolve_legal_pair_with(
        &self,
        white: Move,
        black: Move,
        events: &mut Vec<Event>,
        next: &mut PairMoves,
    ) -> SyncGame {
        self.pair_unchecked(white, black, next, events)
    }

    /// Like [`SyncGame::resolve_legal_pair_into`], for moves drawn from
    /// `drawn`, both players' moves in this state ([`PairMoves::fill`],
    /// or the `next` of the resolution that made this state): the same
    /// state and events, but what the generation of those moves found on
    /// the way is taken over rather than looked up again (the squares
    /// each side attacks, for Synchronschach's exchange rights, S5).
    ///
    /// # Panics
    ///
    /// If the phase is not the start of a pair, or if `drawn` does not
    /// hold this state's moves: it must have been filled for this state's
    /// position, or by the resolution that made this state (checked by
    /// the position's Zobrist hash, recorded with the moves).
    ///
    /// ```
    /// use tempo_chess::Color;
    /// use tempo_sync::{PairMoves, Rules, SyncGame, Variant};
    ///
    /// let game = SyncGame::new(Rules::new(Variant::Synchronschach));
    /// let mut moves = PairMoves::new();
    /// moves.fill(&game);
    /// let (white, black) = (moves.of(Color::White).get(3), moves.of(Color::Black).get(5));
    /// let (white, black) = (white.unwrap(), black.unwrap());
    /// let mut events = Vec::new();
    /// let next = game.resolve_drawn_pair_into(white, black, &moves, &mut events);
    /// let (same, same_events) = game.resolve_legal_pair(white, black);
    /// assert_eq!((next.position(), &events), (same.position(), &same_events));
    /// ```
    pub fn resolve_drawn_pair_into(
        &self,
        white: Move,
        black: Move,
        drawn: &PairMoves,
        events: &mut Vec<Event>,
    ) -> SyncGame {
        let mobility = Drawn::searching(drawn, &self.pos);
        self.pair_unchecked(white, black, mobility, events)
    }

    /// Like [`SyncGame::resolve_legal_pair_with`], for moves drawn from
    /// `moves`, which holds both players' moves in this state on entry
    /// ([`PairMoves::fill`], or the `next` of the resolution that made
    /// this state — a playout passes the same `PairMoves` from pair to
    /// pair) and, when the new state starts a pair, both players' moves
    /// in it on return. The same state and events; what the generation
    /// of the drawn moves found on the way is taken over, as in
    /// [`SyncGame::resolve_drawn_pair_into`].
    ///
    /// # Panics
    ///
    /// If the phase is not the start of a pair, or if `moves` does not
    /// hold this state's moves on entry (checked as in
    /// [`SyncGame::resolve_drawn_pair_into`]).
    ///
    /// ```
    /// use tempo_chess::Color;
    /// use tempo_sync::{PairMoves, Rules, SyncGame, Variant};
    ///
    /// let mut game = SyncGame::new(Rules::new(Variant::Synchronschach));
    /// let mut moves = PairMoves::new();
    /// moves.fill(&game);
    /// let mut events = Vec::new();
    /// // A playout: each pair's moves drawn from the sets the pair before made.
    /// while game.phase().is_pair() && game.pair_number() < 20 {
    ///     let white = moves.of(Color::White).get(0).unwrap();
    ///     let black = moves.of(Color::Black).get(0).unwrap();
    ///     game = game.resolve_drawn_pair_with(white, black, &mut events, &mut moves);
    ///     if game.phase().is_pair() {
    ///         let list = game.legal_moves(Color::White);
    ///         assert!(moves.of(Color::White).iter().eq(list.iter().copied()));
    ///     }
    /// }
    /// ```
    pub fn resolve_drawn_pair_with(
        &self,
        white: Move,
        black: Move,
        events: &mut Vec<Event>,
        moves: &mut PairMoves,
    ) -> SyncGame {
        let mobility = Drawn::generating(moves, &self.pos);
        self.pair_unchecked(white, black, mobility, events)
    }

    /// The pair entries' common part: the pair of `white` and `black`
    /// from this state, `events` cleared first, the start of the next
    /// pair settled by `mobility`. Panics if the phase is not the start of
    /// a pair.
    #[inline(always)]
    fn pair_unchecked(
        &self,
        white: Move,
        black: Move,
        mobility: impl Mobility,
        events: &mut Vec<Event>,
    ) -> SyncGame {
        assert!(self.phase.is_pair(), "not the start of a pair");
        events.clear();
        self.after_pair(white, black, mobility, events)
    }
}

#[cfg(test)]
mod tests {
    use tempo_chess::Color;

    use super::*;
    use crate::playout::{PickRng, random_choice};
    use crate::{Phase, Rules, Variant};

    /// Both drawn entries give the states and events of
    /// `resolve_legal_pair_into` and `resolve_legal_pair_with` (and the
    /// same next moves) over many playout pairs, exchange rights among
    /// them; between pairs the playouts go on as `PlayoutDriver`'s do.
    #[test]
    fn drawn_pairs_resolve_as_legal_pairs() {
        use rand::SeedableRng;
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
            let mut picks = PickRng::new(67);
            let (mut events, mut reference_events) = (Vec::new(), Vec::new());
            let (mut moves, mut reference_moves) = (PairMoves::new(), PairMoves::new());
            let mut game = SyncGame::new(rules);
            moves.fill(&game);
            let (mut pairs, mut exchanges, mut games) = (0, 0, 0);
            while pairs < 20_000 {
                if !game.phase().is_pair() {
                    if let Phase::Exchange(_) = game.phase() {
                        let choices = Color::ALL.map(|c| random_choice(&game, c, &mut rng));
                        game = game.resolve_legal_with(
                            choices[0],
                            choices[1],
                            &mut events,
                            &mut moves,
                        );
                    } else {
                        games += 1;
                        game = SyncGame::chess960(rules, games % 960).expect("0..960");
                        moves.fill(&game);
                    }
                    continue;
                }
                let (i, j) =
                    picks.pick2(moves.of(Color::White).len(), moves.of(Color::Black).len());
                let white = moves
                    .of(Color::White)
                    .get(i)
                    .expect("an index below the length");
                let black = moves
                    .of(Color::Black)
                    .get(j)
                    .expect("an index below the length");
                let reference = game.resolve_legal_pair_into(white, black, &mut reference_events);
                let same = |next: &SyncGame, events: &[Event]| {
                    assert_eq!(format!("{next:?}"), format!("{reference:?}"));
                    assert_eq!(events, &reference_events[..], "{white} {black} in {game:?}");
                };
                let with =
                    game.resolve_legal_pair_with(white, black, &mut events, &mut reference_moves);
                same(&with, &events);
                same(
                    &game.resolve_drawn_pair_into(white, black, &moves, &mut events),
                    &events,
                );
                let next = game.resolve_drawn_pair_with(white, black, &mut events, &mut moves);
                same(&next, &events);
                if next.phase().is_pair() {
                    assert_eq!(moves, reference_moves);
                    for color in Color::ALL {
                        let attacks = next.position().attacked_squares(color);
                        assert_eq!(moves.attacks(color), attacks);
                    }
                }
                exchanges += usize::from(matches!(next.phase(), Phase::Exchange(_)));
                pairs += 1;
                game = next;
            }
            if rules.variant() == Variant::Synchronschach {
                assert!(exchanges > 300, "{exchanges} exchange phases");
            }
            assert!(games > 10, "{games} games");
        }
    }

    /// The first pair of `game`'s moves, White's and Black's first.
    fn first_moves(game: &SyncGame) -> (Move, Move) {
        (
            game.legal_moves(Color::White)[0],
            game.legal_moves(Color::Black)[0],
        )
    }

    /// The moves of the start position, offered with the state after a
    /// pair.
    fn after_a_pair_with_start_moves() -> (SyncGame, PairMoves) {
        let game = SyncGame::new(Rules::new(Variant::Synchronschach));
        let mut moves = PairMoves::new();
        moves.fill(&game);
        let (white, black) = first_moves(&game);
        let (next, _) = game.resolve_legal_pair(white, black);
        assert!(next.phase().is_pair());
        (next, moves)
    }

    #[test]
    #[should_panic(expected = "PairMoves of another position")]
    fn drawn_pair_into_panics_on_another_positions_moves() {
        let (game, moves) = after_a_pair_with_start_moves();
        let (white, black) = first_moves(&game);
        game.resolve_drawn_pair_into(white, black, &moves, &mut Vec::new());
    }

    #[test]
    #[should_panic(expected = "PairMoves of another position")]
    fn drawn_pair_with_panics_on_another_positions_moves() {
        let (game, mut moves) = after_a_pair_with_start_moves();
        let (white, black) = first_moves(&game);
        game.resolve_drawn_pair_with(white, black, &mut Vec::new(), &mut moves);
    }

    #[test]
    #[should_panic(expected = "PairMoves of another position")]
    fn drawn_pair_panics_on_moves_never_filled() {
        let game = SyncGame::new(Rules::new(Variant::Synchronschach));
        let (white, black) = first_moves(&game);
        game.resolve_drawn_pair_into(white, black, &PairMoves::new(), &mut Vec::new());
    }

    /// The same board with other pauses is another position: its moves
    /// differ (FSR 9), and so does the hash the check compares.
    #[test]
    #[should_panic(expected = "PairMoves of another position")]
    fn drawn_pair_panics_on_moves_of_other_pauses() {
        use tempo_chess::{Bitboard, Position, Square};
        let rules = Rules::new(Variant::Fairschach);
        let pos = Position::new();
        let mut paused = pos.clone();
        paused.set_paused(Bitboard::from_square(Square::G1));
        let (game, other) = (
            super::super::start_fresh(rules, pos),
            super::super::start_fresh(rules, paused),
        );
        assert!(other.position().paused().any(), "pauses kept at the start");
        let mut moves = PairMoves::new();
        moves.fill(&other);
        let (white, black) = first_moves(&game);
        game.resolve_drawn_pair_into(white, black, &moves, &mut Vec::new());
    }
}
