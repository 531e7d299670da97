//! The game states the engine searches: orthodox chess and Chess960
//! (alternating moves) and the simultaneous-move variants (a
//! [`tempo_sync::Node`]), behind one interface: the choices of each
//! player now, the step that both choices make, the end of the game.

use std::hash::{Hash, Hasher};

use tempo_chess::{Color, Move, Outcome, Position, Role, is_insufficient_material};
use tempo_sync::{Choice, GameKind, Node, Phase, Rules, SyncGame};

use crate::error::EngineError;

/// The engine's states of a [`GameKind`]: its start, a FEN, a position.
/// (The engine plays all four kinds; Fairschach with the sources' default
/// options.)
// `GameKind::Standard.from_fen(…)`: the kind's state from a FEN, as the
// engine's callers have always written it.
#[allow(clippy::wrong_self_convention)]
pub trait GameStart {
    /// The start state: the orthodox start, or Chess960 start `chess960`
    /// (0..960) if given (always given for [`GameKind::Chess960`]; 518 is
    /// the orthodox set-up).
    fn start(self, chess960: Option<u16>) -> Result<State, EngineError>;

    /// The state of `fen` (for the simultaneous variants also the
    /// extended notation of `tempo sync`).
    fn from_fen(self, fen: &str) -> Result<State, EngineError>;

    /// The state of a game starting in `pos`.
    fn from_position(self, pos: Position) -> Result<State, EngineError>;
}

impl GameStart for GameKind {
    fn start(self, chess960: Option<u16>) -> Result<State, EngineError> {
        let number = match (self, chess960) {
            (GameKind::Chess960, None) => 518,
            (_, n) => n.unwrap_or(518),
        };
        let pos = if chess960.is_some() || self == GameKind::Chess960 {
            tempo_chess::chess960::start_position(number)
                .map_err(|e| EngineError::Start(e.to_string()))?
        } else {
            Position::new()
        };
        self.from_position(pos)
    }

    fn from_fen(self, fen: &str) -> Result<State, EngineError> {
        match self.simultaneous() {
            Some(variant) => {
                let game = tempo_sync::notation::read(Rules::new(variant), fen)
                    .map_err(|e| EngineError::Fen(fen.to_string(), e.to_string()))?;
                Ok(State::Sync(Box::new(Node::new(game))))
            }
            None => {
                let pos = Position::from_fen(fen)
                    .map_err(|e| EngineError::Fen(fen.to_string(), e.to_string()))?;
                pos.validate()
                    .map_err(|e| EngineError::Fen(fen.to_string(), e.to_string()))?;
                self.from_position(pos)
            }
        }
    }

    fn from_position(self, pos: Position) -> Result<State, EngineError> {
        match self.simultaneous() {
            Some(variant) => {
                let game = SyncGame::from_position(Rules::new(variant), pos)
                    .map_err(|e| EngineError::Start(e.to_string()))?;
                Ok(State::Sync(Box::new(Node::new(game))))
            }
            None => Ok(State::Chess(ChessState {
                pos,
                history: Vec::new(),
            })),
        }
    }
}

/// An orthodox position with the hashes of the positions since the last
/// capture or pawn move (for repetitions).
#[derive(Debug, Clone)]
pub struct ChessState {
    pub pos: Position,
    pub history: Vec<u64>,
}

/// A state of any kind.
#[derive(Debug, Clone)]
pub enum State {
    Chess(ChessState),
    /// A simultaneous-move state with both players' moves.
    Sync(Box<Node>),
    /// A simultaneous-move state without its moves (a leaf of the search:
    /// cheaper to make; the search adds the moves where it expands it).
    SyncBare(Box<SyncGame>),
}

/// How a finished game ended (White's view) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: &'static str,
}

impl State {
    /// The board.
    pub(crate) fn position(&self) -> &Position {
        match self {
            State::Chess(c) => &c.pos,
            State::Sync(node) => node.game().position(),
            State::SyncBare(game) => game.position(),
        }
    }

    /// The simultaneous-move game state, if this is one.
    pub(crate) fn sync_game(&self) -> Option<&SyncGame> {
        match self {
            State::Chess(_) => None,
            State::Sync(node) => Some(node.game()),
            State::SyncBare(game) => Some(game),
        }
    }

    /// The same state with its moves generated (a bare simultaneous state
    /// becomes a node; the others are returned as they are).
    pub(crate) fn expanded(&self) -> State {
        match self {
            State::SyncBare(game) => State::Sync(Box::new(Node::new(SyncGame::clone(game)))),
            other => other.clone(),
        }
    }

    /// The choices of `color` now (empty: nothing to choose).
    pub fn choices(&self, color: Color) -> Vec<Choice> {
        match self {
            State::Chess(c) if c.pos.turn() == color => c
                .pos
                .legal_moves()
                .iter()
                .map(|&m| Choice::Move(m))
                .collect(),
            State::Chess(_) => Vec::new(),
            State::Sync(node) if node.game().phase().is_pair() => {
                node.moves(color).iter().map(Choice::Move).collect()
            }
            State::Sync(node) => node.game().choices(color),
            State::SyncBare(game) => game.choices(color),
        }
    }

    /// Whether a step from here costs a unit of depth (Synchronschach's
    /// exchange steps do not: they are short, and the search follows them
    /// to their end as a quiescence search would).
    pub(crate) fn counts_depth(&self) -> bool {
        !matches!(self.sync_game(), Some(game) if matches!(game.phase(), Phase::Exchange(_)))
    }

    /// The end of the game, if it is over. `moves` are the choices of the
    /// player to move in orthodox chess (the caller has them).
    pub(crate) fn ending_with(&self, mover_has_moves: bool) -> Option<Ending> {
        match self {
            State::Chess(c) => {
                let pos = &c.pos;
                if !mover_has_moves {
                    return Some(if pos.is_check() {
                        Ending {
                            outcome: Outcome::Win(!pos.turn()),
                            reason: "checkmate",
                        }
                    } else {
                        Ending {
                            outcome: Outcome::Draw,
                            reason: "stalemate",
                        }
                    });
                }
                let draw = |reason| {
                    Some(Ending {
                        outcome: Outcome::Draw,
                        reason,
                    })
                };
                if is_insufficient_material(pos) {
                    return draw("insufficient-material");
                }
                if pos.halfmove_clock() >= 100 {
                    return draw("fifty-moves");
                }
                let hash = pos.hash();
                if c.history.iter().filter(|&&h| h == hash).count() >= 2 {
                    return draw("repetition");
                }
                None
            }
            State::Sync(_) | State::SyncBare(_) => {
                let game = self.sync_game().expect("a simultaneous state");
                game.result().map(|(outcome, reason)| Ending {
                    outcome,
                    reason: reason.name(),
                })
            }
        }
    }

    /// The end of the game, if it is over.
    pub fn ending(&self) -> Option<Ending> {
        match self {
            State::Chess(c) => self.ending_with(c.pos.has_legal_moves()),
            State::Sync(_) | State::SyncBare(_) => self.ending_with(true),
        }
    }

    /// The state after `white`'s and `black`'s choices (`None` for a
    /// player with nothing to choose). The choices must be among
    /// [`State::choices`].
    pub fn play(&self, white: Option<Choice>, black: Option<Choice>) -> State {
        match self {
            State::Chess(c) => {
                let mv = match (white, black) {
                    (Some(ch), None) | (None, Some(ch)) => ch.as_move(),
                    _ => None,
                }
                .expect("one orthodox move");
                let mut pos = c.pos.clone();
                pos.play(mv);
                let mut history = if pos.halfmove_clock() == 0 {
                    Vec::new()
                } else {
                    c.history.clone()
                };
                history.push(c.pos.hash());
                State::Chess(ChessState { pos, history })
            }
            State::Sync(node) => {
                let mut next = Node::clone(node);
                let mut events = Vec::new();
                node.play(white, black, &mut next, &mut events);
                State::Sync(Box::new(next))
            }
            State::SyncBare(_) => self.expanded().play(white, black),
        }
    }

    /// As [`State::play`], for a state that will probably only be
    /// evaluated: a simultaneous state comes without its moves.
    pub(crate) fn play_leaf(&self, white: Option<Choice>, black: Option<Choice>) -> State {
        match self {
            State::Sync(node) => {
                let mut next = SyncGame::clone(node.game());
                let mut events = Vec::new();
                node.play(white, black, &mut next, &mut events);
                State::SyncBare(Box::new(next))
            }
            _ => self.play(white, black),
        }
    }

    /// A key for the transposition table: the position's hash with the
    /// phase of a simultaneous game mixed in.
    pub(crate) fn key(&self) -> u64 {
        match self {
            State::Chess(c) => c.pos.hash(),
            State::Sync(_) | State::SyncBare(_) => {
                let game = self.sync_game().expect("a simultaneous state");
                let mut h = std::collections::hash_map::DefaultHasher::new();
                game.phase().hash(&mut h);
                game.position().hash().hash(&mut h);
                game.position().halfmove_clock().min(90).hash(&mut h);
                h.finish()
            }
        }
    }

    /// The number of the current move (pair) of the game.
    pub(crate) fn move_number(&self) -> u32 {
        self.position().fullmove_number()
    }

    /// The words of the step `white`, `black` played from here, appended
    /// to `out`: one (the mover's) in orthodox chess, two in the variants
    /// (White's then Black's, [`NO_CHOICE`] for a side with nothing to
    /// choose), as the server's lichess `moves` writes them.
    pub fn step_words(&self, white: Option<Choice>, black: Option<Choice>, out: &mut Vec<String>) {
        match self {
            State::Chess(_) => {
                let (color, choice) = match (white, black) {
                    (Some(c), _) => (Color::White, c),
                    (None, Some(c)) => (Color::Black, c),
                    (None, None) => return,
                };
                out.push(self.choice_name(color, choice));
            }
            State::Sync(_) | State::SyncBare(_) => {
                for (color, choice) in [(Color::White, white), (Color::Black, black)] {
                    out.push(
                        choice
                            .map_or_else(|| NO_CHOICE.to_string(), |c| self.choice_name(color, c)),
                    );
                }
            }
        }
    }

    /// The state as text that [`GameStart::from_fen`] reads back: the FEN
    /// (X-FEN castling) in orthodox chess, the extended notation of
    /// `tempo sync` (with the phase of the step) in the variants. An
    /// orthodox state's repetition history is not part of it.
    pub fn fen(&self) -> String {
        match self {
            State::Chess(c) => c.pos.to_fen(),
            State::Sync(node) => tempo_sync::notation::write(node.game()),
            State::SyncBare(game) => tempo_sync::notation::write(game),
        }
    }

    /// The choice written for a record or the JSON of `tempo engine`:
    /// UCI (the king's step for orthodox castling), `x…` for an
    /// exchange capture, `-` for a decline.
    pub fn choice_name(&self, color: Color, choice: Choice) -> String {
        match self {
            State::Chess(c) => tempo_chess::uci::write(&c.pos, choice.as_move().expect("move")),
            State::Sync(_) | State::SyncBare(_) => {
                tempo_sync::record::write_choice(self.position(), color, Some(choice))
            }
        }
    }
}

/// The word of a side with nothing to choose in a simultaneous step
/// (lichess's null move), in [`State::step_words`].
pub const NO_CHOICE: &str = "0000";

/// The material value of a role in centipawns (the king counts 0).
pub(crate) fn role_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

/// What `mv` of `color` wins at once in `pos`: the value of the
/// opposing piece on its destination (it is taken if it stays) plus the
/// gain of a promotion.
pub(crate) fn immediate_gain(pos: &Position, color: Color, mv: Move) -> i32 {
    let taken = match pos.piece_at(mv.to) {
        Some(p) if p.color != color => {
            if p.role == Role::King {
                10_000
            } else {
                role_value(p.role)
            }
        }
        _ => 0,
    };
    let promotion = mv.promotion.map_or(0, |r| role_value(r) - 100);
    taken + promotion
}
