//! What each audience sees of a game: the same public state for the
//! opponent, spectators and the arbiter; a player also sees their own
//! hidden choice.

use serde_json::{Value, json};
use tempo_chess::Color;

use crate::HostedGame;
use crate::chain::hex;
use crate::game::Board;

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
        let clock = |c: Color| self.reading(c, at).map(|m| m.0.max(0));
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
            "wtime": clock(Color::White),
            "btime": clock(Color::Black),
            "committed": {"white": committed(Color::White), "black": committed(Color::Black)},
            "drawOffer": self.draw_offer,
            "paused": self.paused,
            "status": self.end().map_or("started", |_| "over"),
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
        if let Audience::Player(color) = audience {
            if let Some(choice) = self.own_commit(color) {
                state["mine"] = choice.to_string().into();
            }
            // One's own legal choices, so that a board can offer them.
            state["legal"] = self.choices(color).into();
        }
        state
    }

    /// The first line of a game stream: the header and the state.
    pub fn full(&self, audience: Audience, at: u64) -> Value {
        let header = self.header();
        json!({
            "type": "gameFull",
            "id": header.id,
            "variant": header.variant,
            "rules": header.rules,
            "initialFen": header.fen,
            "chess960": header.chess960,
            "clock": header.clock,
            "white": {"name": header.white},
            "black": {"name": header.black},
            "state": self.state(audience, at),
            "head": hex(&self.head().1),
        })
    }
}
