//! The phases of a simultaneous-move game: what each player has to choose.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use tempo_chess::{Bitboard, Color, Square};

use crate::event::ser::{color_name, squares};
use crate::outcome::{EndReason, Result as GameResult};

/// The Synchronschach exchange phase (S5-S7): on each square a player
/// has the right to capture now; the pieces that already moved in this
/// phase (by their current squares) may not move again (S7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Exchange {
    /// The square on which White may capture now.
    pub white: Option<Square>,
    /// The square on which Black may capture now.
    pub black: Option<Square>,
    /// Pieces that have moved in this exchange phase (S7).
    pub moved: Bitboard,
}

impl Exchange {
    /// The square on which `color` may capture now.
    pub(crate) fn square_for(&self, color: Color) -> Option<Square> {
        color.fold(self.white, self.black)
    }

    pub(crate) fn mirrored(&self) -> Exchange {
        Exchange {
            white: self.black.map(Square::flip_rank),
            black: self.white.map(Square::flip_rank),
            moved: self.moved.flip_ranks(),
        }
    }
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Both players choose a move for the same position (C1/C2).
    Pair,
    /// Fairschach FSR 6: both choose a move; `color` is in check and its
    /// (parrying) move is executed first.
    FirstMoveRight { color: Color },
    /// Fairschach FSR 7: the last move of `color` was void because it did
    /// not parry the check the opponent's first move gave; `color` now
    /// enters a new parry, executed first, and the opponent its next move.
    NewParry { color: Color },
    /// Synchronschach S5-S7: captures on the squares just entered.
    Exchange(Exchange),
    /// Orthodox alternating moves (FSR 8 or the configured switch).
    Alternating { to_move: Color },
    /// The game is over.
    GameOver {
        result: GameResult,
        reason: EndReason,
    },
}

impl Phase {
    /// A short name: `pair`, `first-move-right`, `new-parry`, `exchange`,
    /// `alternating`, `game-over`.
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Pair => "pair",
            Phase::FirstMoveRight { .. } => "first-move-right",
            Phase::NewParry { .. } => "new-parry",
            Phase::Exchange(_) => "exchange",
            Phase::Alternating { .. } => "alternating",
            Phase::GameOver { .. } => "game-over",
        }
    }

    /// Whether this phase starts a pair of moves (both choose a move).
    pub fn is_pair(&self) -> bool {
        matches!(
            self,
            Phase::Pair | Phase::FirstMoveRight { .. } | Phase::NewParry { .. }
        )
    }

    /// The same phase with colours swapped (mirror tests).
    pub(crate) fn mirrored(&self) -> Phase {
        match *self {
            Phase::Pair => Phase::Pair,
            Phase::FirstMoveRight { color } => Phase::FirstMoveRight { color: !color },
            Phase::NewParry { color } => Phase::NewParry { color: !color },
            Phase::Exchange(x) => Phase::Exchange(x.mirrored()),
            Phase::Alternating { to_move } => Phase::Alternating { to_move: !to_move },
            Phase::GameOver { result, reason } => Phase::GameOver {
                result: result.mirrored(),
                reason,
            },
        }
    }
}

struct Squares(Bitboard);

impl Serialize for Squares {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        squares(&self.0, s)
    }
}

impl Serialize for Phase {
    /// `{"name": "exchange", "white": "e5", "black": null, "moved": []}`,
    /// `{"name": "first-move-right", "color": "white"}`, ...
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("name", self.name())?;
        match self {
            Phase::Pair => {}
            Phase::FirstMoveRight { color } | Phase::NewParry { color } => {
                map.serialize_entry("color", color_name(*color))?;
            }
            Phase::Exchange(x) => {
                map.serialize_entry("white", &x.white.map(|sq| sq.to_string()))?;
                map.serialize_entry("black", &x.black.map(|sq| sq.to_string()))?;
                map.serialize_entry("moved", &Squares(x.moved))?;
            }
            Phase::Alternating { to_move } => {
                map.serialize_entry("to_move", color_name(*to_move))?;
            }
            Phase::GameOver { result, reason } => {
                map.serialize_entry("result", result)?;
                map.serialize_entry("reason", reason)?;
            }
        }
        map.end()
    }
}
