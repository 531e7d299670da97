//! What a game is: its variant, rules, start, time control and players.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tempo_chess::Position;
use tempo_clock::TimeControl;
use tempo_sync::{Rules, SyncGame};

use crate::HostError;

/// The kinds of game a server hosts: tempo-sync's [`tempo_sync::GameKind`]
/// (one type for host, server, engine and command line), under the name
/// the API gives it (`variant`).
pub use tempo_sync::GameKind as Variant;

/// A request for a game, as a challenge states it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    #[serde(default)]
    pub variant: Variant,
    /// A PGN `TimeControl` (`300+3`, `40/5400+30:1800+30`, `1/86400` for
    /// a day per move); `None` for an untimed game.
    pub clock: Option<String>,
    /// A start position (FEN, X-FEN or Shredder-FEN).
    pub fen: Option<String>,
    /// A Chess960 start position, 0-959 (the caller draws one for a
    /// Chess960 game that names none).
    pub chess960: Option<u16>,
    /// The variant's options as `tempo sync` takes them (`fsr8` → `off`,
    /// `pause` → `capturable`, …).
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
}

/// The first entry of a game's log: everything the game is, covered by
/// the first hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub id: String,
    pub variant: Variant,
    /// The variant's options, written out in full (`tempo sync` form).
    pub rules: String,
    /// The start position (FEN).
    pub fen: String,
    pub chess960: Option<u16>,
    /// The time control (PGN form), or `None` for an untimed game.
    pub clock: Option<String>,
    pub white: String,
    pub black: String,
    /// The first-move timer in milliseconds ([`Header::with_first_move_rule`]):
    /// the clocks start only once each side has moved, and a side that
    /// does not make its first move in time aborts the game. Absent in
    /// logs written before the rule (and in games without it), which
    /// replay with the clocks running from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move: Option<u64>,
}

/// Longest game id and player name a header takes.
pub const MAX_NAME: usize = 64;

/// Whether a control that starts at zero still leaves time to move: a
/// simple (US) delay holds the clock for its length each move. Any other
/// clock at zero falls before the first move (an increment comes only
/// after it): a game no one can play.
fn delay_first(control: &TimeControl) -> bool {
    control.periods().is_some_and(|periods| {
        matches!(periods.periods()[0].delay, tempo_clock::Delay::Simple(d) if d > tempo_clock::Millis::ZERO)
    })
}

impl Header {
    /// The header of game `id` between `white` and `black` as `spec`
    /// asks, checked: a readable time control, a valid start, options the
    /// variant knows.
    pub fn new(id: &str, spec: &GameSpec, white: &str, black: &str) -> Result<Header, HostError> {
        for (what, text) in [("game id", id), ("white", white), ("black", black)] {
            if text.is_empty() || text.len() > MAX_NAME {
                return Err(HostError::Spec(format!(
                    "{what} must be 1 to {MAX_NAME} bytes"
                )));
            }
        }
        let clock = match &spec.clock {
            None => None,
            Some(text) => {
                let control: TimeControl = text
                    .parse()
                    .map_err(|e| HostError::Spec(format!("clock '{text}': {e}")))?;
                match control.initial() {
                    None => {
                        return Err(HostError::Spec(format!(
                            "clock '{text}': no time limit; leave the clock out for an untimed game"
                        )));
                    }
                    Some(initial)
                        if initial <= tempo_clock::Millis::ZERO && !delay_first(&control) =>
                    {
                        return Err(HostError::Spec(format!(
                            "clock '{text}': no initial time, so the first flag would fall at once; \
                             give a limit above zero (e.g. 300+5)"
                        )));
                    }
                    Some(_) => {}
                }
                Some(text.clone())
            }
        };
        let rules = variant_rules(spec)?;
        let start = start_position(spec)?;
        let header = Header {
            id: id.to_string(),
            variant: spec.variant,
            rules: rules.map(|r| r.options_string()).unwrap_or_default(),
            fen: start.to_fen(),
            chess960: spec.chess960,
            clock,
            white: white.to_string(),
            black: black.to_string(),
            first_move: None,
        };
        header.board()?;
        Ok(header)
    }

    /// The header with lichess's first-move rule for a timed game played
    /// over the board's clock (not correspondence): [`first_move_timer`].
    /// Unchanged for an untimed or correspondence game.
    pub fn with_first_move_rule(mut self) -> Header {
        self.first_move = self
            .time_control()
            .and_then(|control| first_move_timer(&control, self.chess960.is_some()))
            .map(|timer| timer.0 as u64);
        self
    }

    /// The time control, if the game is timed.
    pub(crate) fn time_control(&self) -> Option<TimeControl> {
        self.clock.as_ref().and_then(|text| text.parse().ok())
    }

    /// The variant's rules (simultaneous variants only).
    pub(crate) fn sync_rules(&self) -> Option<Rules> {
        let variant = self.variant.simultaneous()?;
        let mut rules = Rules::new(variant);
        rules.apply_options(&self.rules).ok()?;
        Some(rules)
    }

    /// The board at the start.
    pub(crate) fn board(&self) -> Result<crate::game::Board, HostError> {
        let pos = Position::from_fen(&self.fen)
            .map_err(|e| HostError::Spec(format!("fen '{}': {e}", self.fen)))?;
        match self.sync_rules() {
            Some(rules) => SyncGame::from_position(rules, pos)
                .map(crate::game::Board::Sync)
                .map_err(|e| HostError::Spec(e.to_string())),
            None => {
                pos.validate()
                    .map_err(|e| HostError::Spec(format!("fen '{}': {e}", self.fen)))?;
                if pos.legal_moves().is_empty() {
                    return Err(HostError::Spec(
                        "the start position has no legal move".into(),
                    ));
                }
                Ok(crate::game::Board::Orthodox(tempo_chess::Game::new(pos)))
            }
        }
    }
}

/// Lichess's time for the first move of a casual game (lila,
/// `Game.timeForFirstMove`): by the speed class of the control's
/// estimated duration, initial time + 40 increments (lichess's own
/// formula; here `alloc(40)`, which also counts period bonuses):
/// UltraBullet (< 30 s) 15 s, Bullet (< 3 min) 20 s, Blitz (< 8 min)
/// 25 s, Rapid (< 25 min) 30 s, Classical 35 s; a quarter more from a
/// Chess960 position. `None` for correspondence (days per move): there
/// the first move has its own days.
pub fn first_move_timer(control: &TimeControl, chess960: bool) -> Option<tempo_clock::Millis> {
    let estimate = match control {
        TimeControl::Periods(periods) => periods.alloc(40),
        TimeControl::Hourglass { total } => *total,
        _ => return None,
    };
    let seconds = match estimate.0 / 1000 {
        ..30 => 15,
        30..180 => 20,
        180..480 => 25,
        480..1500 => 30,
        _ => 35,
    };
    let seconds = if chess960 { seconds * 5 / 4 } else { seconds };
    Some(tempo_clock::Millis::seconds(seconds))
}

/// The rules of a simultaneous variant with `spec`'s options; options for
/// another variant are an error.
fn variant_rules(spec: &GameSpec) -> Result<Option<Rules>, HostError> {
    let variant = match spec.variant.simultaneous() {
        Some(variant) => variant,
        None if spec.rules.is_empty() => return Ok(None),
        None => {
            return Err(HostError::Spec(format!(
                "rules: {} takes no options",
                spec.variant
            )));
        }
    };
    let mut rules = Rules::new(variant);
    for (key, value) in &spec.rules {
        rules
            .set_option(key, value)
            .map_err(|e| HostError::Spec(format!("rules: {e}")))?;
    }
    Ok(Some(rules))
}

/// The start position: a FEN, a Chess960 number, or the orthodox set-up.
fn start_position(spec: &GameSpec) -> Result<Position, HostError> {
    match (&spec.fen, spec.chess960) {
        (Some(_), Some(_)) => Err(HostError::Spec(
            "give a fen or a chess960 number, not both".into(),
        )),
        (Some(fen), None) => {
            Position::from_fen(fen).map_err(|e| HostError::Spec(format!("fen '{fen}': {e}")))
        }
        (None, Some(n)) => tempo_chess::chess960::start_position(n)
            .map_err(|e| HostError::Spec(format!("chess960: {e}"))),
        (None, None) if spec.variant == Variant::Chess960 => Err(HostError::Spec(
            "chess960: a position number 0-959 is needed".into(),
        )),
        (None, None) => Ok(Position::new()),
    }
}
