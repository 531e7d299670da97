//! What happened in a resolution, in order, for a UI to animate and a
//! record to store. Serialised (serde) with `type` as the tag, squares as
//! `"e4"`, colours as `"white"`/`"black"`, roles as `"knight"`, moves in
//! the internal UCI form (castling = king takes own rook).

use serde::Serialize;
use tempo_chess::{Bitboard, Color, Move, Role, Square};

use crate::outcome::{EndReason, Result as GameResult};
use crate::phase::Phase;

/// Why an entered move was not executed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VoidReason {
    /// FSR 3: after the opponent's first move (FSR 6) the move could no
    /// longer be executed.
    NotExecutable,
    /// FSR 7: the opponent's first move gave check and this move does not
    /// parry it; a new parry follows.
    DoesNotParry,
    /// FSR 4 (alternative rule): the weaker piece forgoes its move.
    WeakerStays,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Event {
    /// A piece moved from `from` to `to` (a castling gives two events, the
    /// king's and the rook's, with `castling` set). `promotion` is the new
    /// role of a promoted pawn.
    Moved {
        #[serde(serialize_with = "ser::color")]
        color: Color,
        #[serde(serialize_with = "ser::role")]
        role: Role,
        #[serde(serialize_with = "ser::square")]
        from: Square,
        #[serde(serialize_with = "ser::square")]
        to: Square,
        #[serde(serialize_with = "ser::opt_role")]
        promotion: Option<Role>,
        castling: bool,
    },
    /// The piece of `color` on `square` was captured by the opponent.
    Captured {
        #[serde(serialize_with = "ser::color")]
        color: Color,
        #[serde(serialize_with = "ser::role")]
        role: Role,
        #[serde(serialize_with = "ser::square")]
        square: Square,
    },
    /// Two pieces moved to the same square (S1 / FSR 4); `removed` says
    /// which of them left the board.
    Collision {
        #[serde(serialize_with = "ser::square")]
        square: Square,
        #[serde(serialize_with = "ser::role")]
        white: Role,
        #[serde(serialize_with = "ser::role")]
        black: Role,
        white_removed: bool,
        black_removed: bool,
    },
    /// Two pieces "captured" each other and swapped squares (C5).
    Swap {
        #[serde(serialize_with = "ser::square")]
        white_from: Square,
        #[serde(serialize_with = "ser::square")]
        black_from: Square,
    },
    /// A piece moved onto a square the opponent's piece left in the same
    /// pair: nothing was captured (C5 / FSR 5).
    Evaded {
        #[serde(serialize_with = "ser::color")]
        color: Color,
        #[serde(serialize_with = "ser::square")]
        square: Square,
    },
    /// The entered move of `color` was not executed.
    Voided {
        #[serde(serialize_with = "ser::color")]
        color: Color,
        #[serde(serialize_with = "ser::mv")]
        mv: Move,
        reason: VoidReason,
    },
    /// FSR 6: the move of `color` (in check) was executed first.
    FirstMove {
        #[serde(serialize_with = "ser::color")]
        color: Color,
    },
    /// FSR 9: these pieces of `color` may not move in the next pair.
    Paused {
        #[serde(serialize_with = "ser::color")]
        color: Color,
        #[serde(serialize_with = "ser::squares")]
        squares: Bitboard,
    },
    /// S5: `color` may capture on `square` before the next pair.
    ExchangeRight {
        #[serde(serialize_with = "ser::color")]
        color: Color,
        #[serde(serialize_with = "ser::square")]
        square: Square,
    },
    /// `color` declined (or could no longer make) the capture on `square`;
    /// the exchange there is over.
    ExchangeEnded {
        #[serde(serialize_with = "ser::color")]
        color: Color,
        #[serde(serialize_with = "ser::square")]
        square: Square,
        declined: bool,
    },
    /// FSR 8 / the configured switch: orthodox alternating moves from now
    /// on, `to_move` first.
    SwitchedToOrthodox {
        #[serde(serialize_with = "ser::color")]
        to_move: Color,
    },
    /// The king of `color` is attacked.
    Check {
        #[serde(serialize_with = "ser::color")]
        color: Color,
    },
    /// The phase that follows.
    Phase { phase: Phase },
    /// The game is over.
    GameOver {
        result: GameResult,
        reason: EndReason,
    },
}

impl Event {
    /// The same event with colours swapped and the board mirrored
    /// top-bottom (for colour-symmetry tests).
    pub fn mirrored(&self) -> Event {
        let sq = |s: &Square| s.flip_rank();
        match self {
            Event::Moved {
                color,
                role,
                from,
                to,
                promotion,
                castling,
            } => Event::Moved {
                color: !*color,
                role: *role,
                from: sq(from),
                to: sq(to),
                promotion: *promotion,
                castling: *castling,
            },
            Event::Captured {
                color,
                role,
                square,
            } => Event::Captured {
                color: !*color,
                role: *role,
                square: sq(square),
            },
            Event::Collision {
                square,
                white,
                black,
                white_removed,
                black_removed,
            } => Event::Collision {
                square: sq(square),
                white: *black,
                black: *white,
                white_removed: *black_removed,
                black_removed: *white_removed,
            },
            Event::Swap {
                white_from,
                black_from,
            } => Event::Swap {
                white_from: sq(black_from),
                black_from: sq(white_from),
            },
            Event::Evaded { color, square } => Event::Evaded {
                color: !*color,
                square: sq(square),
            },
            Event::Voided { color, mv, reason } => Event::Voided {
                color: !*color,
                mv: Move::new(mv.from.flip_rank(), mv.to.flip_rank(), mv.promotion),
                reason: *reason,
            },
            Event::FirstMove { color } => Event::FirstMove { color: !*color },
            Event::Paused { color, squares } => Event::Paused {
                color: !*color,
                squares: squares.flip_ranks(),
            },
            Event::ExchangeRight { color, square } => Event::ExchangeRight {
                color: !*color,
                square: sq(square),
            },
            Event::ExchangeEnded {
                color,
                square,
                declined,
            } => Event::ExchangeEnded {
                color: !*color,
                square: sq(square),
                declined: *declined,
            },
            Event::SwitchedToOrthodox { to_move } => {
                Event::SwitchedToOrthodox { to_move: !*to_move }
            }
            Event::Check { color } => Event::Check { color: !*color },
            Event::Phase { phase } => Event::Phase {
                phase: phase.mirrored(),
            },
            Event::GameOver { result, reason } => Event::GameOver {
                result: result.mirrored(),
                reason: *reason,
            },
        }
    }
}

/// serde helpers for tempo-chess types (which carry no serde impls).
pub(crate) mod ser {
    use serde::Serializer;
    use serde::ser::SerializeSeq;
    use tempo_chess::{Bitboard, Color, Move, Role, Square};

    pub(crate) fn color_name(color: Color) -> &'static str {
        color.fold("white", "black")
    }

    pub(crate) fn role_name(role: Role) -> &'static str {
        match role {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    pub(crate) fn color<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color_name(*c))
    }
    pub(crate) fn role<S: Serializer>(r: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(role_name(*r))
    }
    pub(crate) fn opt_role<S: Serializer>(r: &Option<Role>, s: S) -> Result<S::Ok, S::Error> {
        match r {
            Some(r) => s.serialize_str(role_name(*r)),
            None => s.serialize_none(),
        }
    }
    pub(crate) fn square<S: Serializer>(sq: &Square, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(sq)
    }
    pub(crate) fn squares<S: Serializer>(bb: &Bitboard, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(bb.count() as usize))?;
        for sq in *bb {
            seq.serialize_element(&sq.to_string())?;
        }
        seq.end()
    }
    pub(crate) fn mv<S: Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(m)
    }
}
