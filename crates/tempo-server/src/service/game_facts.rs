//! What a game's events say of it, read under the game's lock (the hub
//! reads it when a game ends; the events are built from it afterwards,
//! see [`crate::service::game_events`]). Pure: no store, no state.

use tempo_chess::Color;
use tempo_clock::TimeControl;
use tempo_host::view::Audience;
use tempo_host::{EndReason, EndResult, HostedGame, Variant};

use crate::service::events::UserEvent;

/// What a game's events say of it, read under its lock.
#[derive(Debug, Clone)]
pub struct GameFacts {
    pub id: String,
    /// The players' names, White first.
    pub players: [String; 2],
    pub variant: Variant,
    /// An orthodox game from a set-up position (lichess's `fromPosition`).
    pub set_up: bool,
    pub control: Option<TimeControl>,
    /// The position as everyone sees it.
    pub fen: String,
    pub last_move: Option<String>,
    pub moved: [bool; 2],
    pub due: [bool; 2],
    /// Each clock in milliseconds (none untimed).
    pub left: [Option<i64>; 2],
    pub end: Option<(EndResult, EndReason)>,
}

impl GameFacts {
    /// The facts of game `id` at `now`.
    pub(crate) fn of(id: &str, game: &HostedGame, now: u64) -> GameFacts {
        let header = game.header();
        let fen = game.state(Audience::Public, now)["fen"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let each = |f: &dyn Fn(Color) -> bool| [f(Color::White), f(Color::Black)];
        let left = |c| game.reading(c, now).map(|m| m.0.max(0));
        GameFacts {
            id: id.to_string(),
            players: [header.white.clone(), header.black.clone()],
            variant: header.variant,
            set_up: tempo_host::lichess::from_position(header),
            control: header.clock.as_deref().and_then(|c| c.parse().ok()),
            fen,
            last_move: game.last_move(),
            moved: each(&|c| game.has_moved(c)),
            due: each(&|c| game.is_due(c)),
            left: [left(Color::White), left(Color::Black)],
            end: game.ending(),
        }
    }
}

/// An event for a game's players, from a write on this instance.
#[derive(Debug)]
pub enum News {
    /// Tell these players this event.
    Tell(Vec<String>, UserEvent),
    /// The game ended: each player hears it from their seat.
    Finished(Box<GameFacts>),
}

#[cfg(test)]
mod tests {
    use tempo_host::{Command, GameSpec, Header};

    use super::*;

    #[test]
    fn facts_from_each_seat() {
        let spec = GameSpec {
            clock: Some("300+3".into()),
            ..GameSpec::default()
        };
        let header = Header::new("g", &spec, "Anna", "Ben").unwrap();
        let (mut game, _) = HostedGame::create(header, 0).unwrap();
        let play = Command::Play {
            color: Color::White,
            choice: "e2e4".into(),
        };
        game.handle(play, 10, [0; 32]).unwrap();
        let facts = GameFacts::of("g", &game, 20);
        assert_eq!(facts.players, ["Anna".to_string(), "Ben".to_string()]);
        assert_eq!(facts.last_move.as_deref(), Some("e2e4"));
        assert_eq!(facts.moved, [true, false]);
        assert_eq!(facts.due, [false, true]);
        assert!(
            facts.fen.starts_with("rnbqkbnr/pppppppp/8/8/4P3/"),
            "{}",
            facts.fen
        );
        assert!(facts.left[0].is_some_and(|ms| ms > 290_000));
        assert!(!facts.set_up);
        assert_eq!(facts.end, None);
    }
}
