//! What each audience sees of a game: the same public state for the
//! opponent, spectators and the arbiter; a player also sees their own
//! hidden choice. The state and the full game carry lichess's fields
//! (`moves`, `wtime`…`binc`, `status`, the variant object, the clock in
//! ms, …; [`crate::lichess`]) beside tempo's own.

use serde_json::{Value, json};
use tempo_chess::Color;
use tempo_clock::TimeControl;

use crate::HostedGame;
use crate::chain::hex;
use crate::game::{Board, GameClock};
use crate::lichess::{self, NO_CLOCK_MILLIS};

/// Who is looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// The player of `Color`.
    Player(Color),
    /// Anyone else: a spectator, the arbiter, an anonymous visitor.
    Public,
}

impl HostedGame {
    /// The game's state at `at` as `audience` may see it, lichess's
    /// `gameState` extended: the position, the record, the clocks, who has
    /// committed (never what, except one's own), draw offer, status.
    pub fn state(&self, audience: Audience, at: u64) -> Value {
        let (seq, head) = self.head();
        let committed = |c: Color| self.has_committed(c);
        // Lichess's clients read both times as integers, always.
        let clock = |c: Color| {
            self.reading(c, at)
                .map_or(NO_CLOCK_MILLIS, |m| m.0.max(0) as u64)
        };
        let increment = lichess::clock(self.control()).map_or(0, |c| c.increment);
        let (fen, phase) = match &self.board {
            Board::Orthodox(game) if game.is_over() => (game.position().to_fen(), "game-over"),
            Board::Orthodox(game) => (game.position().to_fen(), "alternating"),
            Board::Sync(game) => (tempo_sync::notation::write(game), game.phase().name()),
        };
        // What each side has to choose now: the public part of a step.
        let due = |c: Color| match &self.board {
            _ if self.end.is_some() => Value::Null,
            Board::Orthodox(game) => (game.position().turn() == c).then_some("move").into(),
            Board::Sync(game) => match game.expected(c) {
                tempo_sync::Expected::Nothing => Value::Null,
                tempo_sync::Expected::Move => "move".into(),
                tempo_sync::Expected::CaptureOrDecline(square) => {
                    format!("capture-on-{square}").into()
                }
            },
        };
        let mut state = json!({
            "type": "gameState",
            "fen": fen,
            "phase": phase,
            "due": {"white": due(Color::White), "black": due(Color::Black)},
            "step": self.step,
            "record": self.record,
            // Revealed choices only: a commit shows in `committed`, its
            // choice in `mine` to its player alone.
            "moves": self.uci,
            "wtime": clock(Color::White),
            "btime": clock(Color::Black),
            "winc": increment,
            "binc": increment,
            "committed": {"white": committed(Color::White), "black": committed(Color::Black)},
            "drawOffer": self.draw_offer,
            "wdraw": self.draw_offer == Some(Color::White),
            "bdraw": self.draw_offer == Some(Color::Black),
            // No takebacks in tempo.
            "wtakeback": false,
            "btakeback": false,
            "paused": self.paused,
            "status": lichess::status(self.end).name(),
            "head": hex(&head),
            "seq": seq,
        });
        // What the page offers: Abort only before the first moves, Claim
        // draw only when a claim would be granted.
        state["abortable"] = self.abortable().into();
        state["drawClaimable"] = self.draw_claimable().into();
        // The first-move rule: who owes a first move (null: both sides of
        // a simultaneous step) and the time left for it; the clocks stand
        // meanwhile.
        if self.awaiting_first_move() {
            let left = self.first_move_deadline().map(|d| d.saturating_sub(at));
            state["firstMove"] = json!({
                "color": self.first_move_due(),
                "left": left,
                "deadline": self.first_move_deadline(),
            });
        }
        state["clockRunning"] = self.clock_running().into();
        if let Some((result, reason)) = self.end() {
            state["result"] = result.into();
            state["reason"] = reason.into();
        }
        if let Some(winner) = self.end.and_then(|(result, _)| lichess::winner(result)) {
            state["winner"] = json!(winner);
        }
        if let Audience::Player(color) = audience {
            if let Some(choice) = self.own_commit(color) {
                state["mine"] = choice.to_string().into();
            }
            // One's own legal choices, so that a board can offer them.
            state["legal"] = self.choices(color).into();
        }
        state
    }

    /// The first line of a game stream: the header and the state, as
    /// lichess's `gameFull` (the variant object, `clock` in ms or null,
    /// `daysPerTurn`, `speed`, `perf`, `createdAt`) with tempo's own
    /// fields (`timeControl`: the PGN time control; `rules`, `chess960`,
    /// `head`). The players are `{"name"}` here; the server adds what it
    /// knows of them (ratings, titles) and `rated`.
    pub fn full(&self, audience: Audience, at: u64) -> Value {
        let header = self.header();
        let control = self.control();
        let kind = lichess::game_variant(header);
        let speed = lichess::speed(control);
        let mut full = json!({
            "type": "gameFull",
            "id": header.id,
            "variant": kind,
            "speed": speed.key(),
            "perf": {"name": lichess::perf_name(kind, speed)},
            "clock": lichess::clock(control),
            "timeControl": header.clock,
            "createdAt": self.created_at,
            "rules": header.rules,
            "initialFen": header.fen,
            "chess960": header.chess960,
            "white": {"name": header.white},
            "black": {"name": header.black},
            "state": self.state(audience, at),
            "head": hex(&self.head().1),
        });
        if let Some(days) = lichess::days_per_turn(control) {
            full["daysPerTurn"] = days.into();
        }
        full
    }

    /// The game's time control, if it is timed.
    pub fn control(&self) -> Option<&TimeControl> {
        match self.clock.as_ref()? {
            GameClock::Alternating(clock) => Some(clock.control()),
            GameClock::Simul(clock) => Some(clock.control()),
        }
    }

    /// When the game was created, and when its last move (or reveal) was
    /// logged: ms since the epoch.
    pub fn times(&self) -> (u64, u64) {
        (self.created_at, self.last_move_at)
    }
}
