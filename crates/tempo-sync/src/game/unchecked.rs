//! Resolution without checking the choices again, for engines, playouts
//! and benchmarks: the choices come from the game's own lists
//! ([`SyncGame::legal_moves`], [`SyncGame::choices`], [`PairMoves`]).

use tempo_chess::Move;

use super::mobility::{PairMoves, Search};
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
        assert!(self.phase.is_pair(), "not the start of a pair");
        events.clear();
        self.after_pair(white, black, Search, events)
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
        assert!(self.phase.is_pair(), "not the start of a pair");
        events.clear();
        self.after_pair(white, black, next, events)
    }

    /// [`SyncGame::resolve_legal_pair_with`] in place: this state becomes
    /// the new one (no state of 256 bytes returned and moved: the loop of
    /// a playout or an engine's search that goes on from the new state).
    ///
    /// Panics if the phase is not the start of a pair.
    pub fn play_legal_pair_with(
        &mut self,
        white: Move,
        black: Move,
        events: &mut Vec<Event>,
        next: &mut PairMoves,
    ) {
        assert!(self.phase.is_pair(), "not the start of a pair");
        events.clear();
        let mut pos = self.pos.clone();
        let (phase, history, checks) = self.resolve_pair(&mut pos, white, black, next, events);
        self.pos = pos;
        self.phase = phase;
        self.history = history;
        self.committed = [None, None];
        self.checks = checks;
    }
}
