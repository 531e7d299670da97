//! The game state machine: what each player may choose now, and the
//! resolution of both choices into a new state and events. Pure and
//! deterministic: no clock, no I/O, no hidden commits (a host keeps those
//! until it resolves the step).

mod check;
mod choice;
mod end;
mod exchange;
mod fair;
mod history;
mod mobility;
mod node;
mod stored;

use tempo_chess::{Bitboard, Color, Move, MoveList, Position, Role};

use check::{checks, push_checks, report_checks};
use choice::diagnose;
pub use choice::{Choice, Expected, Resolution};
use end::{orthodox_end, pair_end};
use exchange::{can_capture_on, exchange_captures, exchange_rights};
use fair::{first_move_sequence, keep_legal_en_passant, pause_set, set_fair_en_passant};
use history::History;
use mobility::{Mobility, Search};
pub use node::{Node, Successor};
pub use stored::{MAX_HISTORY, RestoreError, StoredGame};

use crate::error::{IllegalReason, StartError, SyncError};
use crate::event::Event;
use crate::outcome::{EndReason, Result as GameResult};
use crate::phase::{Exchange, Phase};
use crate::rules::{Rules, SameSquareRule, Variant};
use crate::step::{execute, execute_pair};

/// A simultaneous-move game in progress.
#[derive(Debug)]
pub struct SyncGame {
    rules: Rules,
    pos: Position,
    phase: Phase,
    /// Hashes of the positions at the start of pairs (or orthodox moves)
    /// since the last capture or pawn move, for the repetition rule.
    history: History,
    /// Whether each side's king is attacked in `pos` (found when the
    /// state was made; Fairschach's first-move right asks at every pair).
    checks: [bool; 2],
}

impl Clone for SyncGame {
    fn clone(&self) -> SyncGame {
        SyncGame {
            rules: self.rules,
            pos: self.pos.clone(),
            phase: self.phase,
            history: self.history.clone(),
            checks: self.checks,
        }
    }

    /// Field by field, so that the history reuses what it shares
    /// ([`Node::set`] copies states into one node).
    #[inline]
    fn clone_from(&mut self, source: &SyncGame) {
        self.rules = source.rules;
        self.pos.clone_from(&source.pos);
        self.phase = source.phase;
        self.history.clone_from(&source.history);
        self.checks = source.checks;
    }
}

impl SyncGame {
    /// A game from the orthodox start position.
    pub fn new(rules: Rules) -> SyncGame {
        SyncGame::from_position(rules, Position::new()).expect("the start position is valid")
    }

    /// A game from Chess960 start position `number` (0..960).
    pub fn chess960(rules: Rules, number: u16) -> Result<SyncGame, SyncError> {
        let pos = tempo_chess::chess960::start_position(number)
            .map_err(|e| SyncError::InvalidStart(e.into()))?;
        SyncGame::from_position(rules, pos)
    }

    /// A game whose next pair starts in `pos` (any side to move; the paused
    /// set, en-passant squares and clocks of `pos` are taken over). Needs
    /// exactly one king per colour.
    pub fn from_position(rules: Rules, pos: Position) -> Result<SyncGame, SyncError> {
        for color in Color::ALL {
            let kings = (pos.by_color(color) & pos.by_role(Role::King)).count();
            if kings != 1 {
                return Err(SyncError::InvalidStart(StartError::Kings { color, kings }));
            }
        }
        pos.validate_board()
            .map_err(|err| SyncError::InvalidStart(err.into()))?;
        let mut pos = pos;
        if rules.variant() == Variant::Synchronschach {
            // S2: no en passant; no pauses in this variant.
            pos.set_en_passant_squares(Bitboard::EMPTY);
            pos.set_paused(Bitboard::EMPTY);
        }
        pos.set_turn(Color::White);
        let mut events = Vec::new();
        Ok(start_pair(
            rules,
            pos,
            History::default(),
            None,
            &mut events,
        ))
    }

    /// Rebuilds a game from its parts (position notation reader).
    pub(crate) fn from_parts(rules: Rules, pos: Position, phase: Phase) -> SyncGame {
        SyncGame {
            rules,
            checks: checks(&pos),
            pos,
            phase,
            history: History::default(),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position (board, castling rights, en-passant squares, paused
    /// pieces, half-move clock in plies, pair number as full-move number).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The result, if the game is over.
    pub fn result(&self) -> Option<(GameResult, EndReason)> {
        match self.phase {
            Phase::GameOver { result, reason } => Some((result, reason)),
            _ => None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// The number of the current pair (the full-move number).
    pub fn pair_number(&self) -> u32 {
        self.pos.fullmove_number()
    }

    /// The repetition history (hashes), oldest first.
    pub fn history(&self) -> Vec<u64> {
        let mut out: Vec<u64> = self.history.iter().collect();
        out.reverse();
        out
    }

    /// What `color` has to choose now.
    pub fn expected(&self, color: Color) -> Expected {
        match self.phase {
            Phase::GameOver { .. } => Expected::Nothing,
            Phase::Pair | Phase::FirstMoveRight { .. } | Phase::NewParry { .. } => Expected::Move,
            Phase::Exchange(x) => match x.square_for(color) {
                Some(sq) => Expected::CaptureOrDecline(sq),
                None => Expected::Nothing,
            },
            Phase::Alternating { to_move } if to_move == color => Expected::Move,
            Phase::Alternating { .. } => Expected::Nothing,
        }
    }

    /// The moves `color` may choose now (captures onto the exchange square
    /// in an exchange phase; empty when nothing is expected).
    pub fn legal_moves(&self, color: Color) -> MoveList {
        match (self.expected(color), self.phase) {
            (Expected::Nothing, _) => MoveList::new(),
            (Expected::Move, _) => self.pos.legal_moves_for(color),
            (Expected::CaptureOrDecline(sq), Phase::Exchange(x)) => {
                exchange_captures(&self.pos, color, sq, x.moved)
            }
            (Expected::CaptureOrDecline(_), _) => MoveList::new(),
        }
    }

    /// Every choice `color` may make now.
    pub fn choices(&self, color: Color) -> Vec<Choice> {
        match self.expected(color) {
            Expected::Nothing => Vec::new(),
            Expected::Move => self
                .legal_moves(color)
                .iter()
                .map(|&mv| Choice::Move(mv))
                .collect(),
            Expected::CaptureOrDecline(_) => self
                .legal_moves(color)
                .iter()
                .map(|&mv| Choice::Capture(mv))
                .chain([Choice::Decline])
                .collect(),
        }
    }

    /// Checks `choice` for `color` now; a `Move` in an exchange phase is
    /// taken as the capture it names.
    pub fn check_choice(&self, color: Color, choice: Choice) -> Result<Choice, SyncError> {
        let illegal = |reason| SyncError::Illegal {
            color,
            choice: choice.to_string(),
            reason,
        };
        match (self.expected(color), choice) {
            (Expected::Nothing, _) => Err(illegal(if self.is_over() {
                IllegalReason::GameOver
            } else {
                IllegalReason::NotYourTurn
            })),
            (Expected::Move, Choice::Move(mv)) => {
                if self.pos.is_legal_for(color, mv) {
                    Ok(choice)
                } else {
                    Err(illegal(diagnose(&self.pos, color, mv)))
                }
            }
            (Expected::Move, _) => Err(illegal(IllegalReason::MoveExpected)),
            (Expected::CaptureOrDecline(_), Choice::Decline) => Ok(choice),
            (Expected::CaptureOrDecline(sq), Choice::Move(mv) | Choice::Capture(mv)) => {
                if self.legal_moves(color).contains(&mv) {
                    return Ok(Choice::Capture(mv));
                }
                let Phase::Exchange(x) = self.phase else {
                    unreachable!("capture choices only in exchange phases")
                };
                let reason = if mv.to != sq {
                    IllegalReason::WrongExchangeSquare(sq)
                } else if x.moved.contains(mv.from) {
                    IllegalReason::MovedInExchange(mv.from)
                } else if !self.pos.is_legal_for(color, mv) {
                    diagnose(&self.pos, color, mv)
                } else {
                    IllegalReason::NotACapture(sq)
                };
                Err(illegal(reason))
            }
        }
    }

    /// Resolves the current step with both players' choices as
    /// [`SyncGame::resolve`] does, and writes the step's lines of the pair
    /// record and the digit code (from this state, which a host may drop
    /// afterwards): the next state and the [`Resolution`], whose choices
    /// are the checked ones (a `Move` in an exchange step is the capture it
    /// names).
    pub fn step(
        &self,
        white: Option<Choice>,
        black: Option<Choice>,
    ) -> Result<(SyncGame, Resolution), SyncError> {
        let [white, black] = self.checked(white, black)?;
        let mut events = Vec::new();
        let next = self.resolve_step([white, black], Search, &mut events);
        let record = crate::record::write_step(self, white, black, &events);
        let digits = crate::digits::write_step(self, white, black, &events);
        let resolution = Resolution {
            white,
            black,
            events,
            record,
            digits,
        };
        Ok((next, resolution))
    }

    /// Resolves the current step with both players' choices (`None` for a
    /// player who has nothing to choose): the new state and what happened.
    pub fn resolve(
        &self,
        white: Option<Choice>,
        black: Option<Choice>,
    ) -> Result<(SyncGame, Vec<Event>), SyncError> {
        let choices = self.checked(white, black)?;
        let mut events = Vec::new();
        let next = self.resolve_step(choices, Search, &mut events);
        Ok((next, events))
    }

    /// Both choices checked for this step ([`SyncGame::check_choice`]); a
    /// player who has to choose must have a choice, one who has not must
    /// have none.
    fn checked(
        &self,
        white: Option<Choice>,
        black: Option<Choice>,
    ) -> Result<[Option<Choice>; 2], SyncError> {
        if let Some((result, reason)) = self.result() {
            return Err(SyncError::GameOver { result, reason });
        }
        let mut choices = [None, None];
        for (color, choice) in [(Color::White, white), (Color::Black, black)] {
            choices[color.index()] = match (self.expected(color), choice) {
                (Expected::Nothing, None) => None,
                (_, Some(choice)) => Some(self.check_choice(color, choice)?),
                (_, None) => return Err(SyncError::MissingChoice(color)),
            };
        }
        Ok(choices)
    }

    /// Resolves the current step with `choices` (checked, or taken from
    /// the choices offered), the end-of-pair test made by `mobility`.
    fn resolve_step(
        &self,
        choices: [Option<Choice>; 2],
        mobility: impl Mobility,
        events: &mut Vec<Event>,
    ) -> SyncGame {
        let mv = |c: Option<Choice>| c.and_then(|c| c.as_move());
        match self.phase {
            Phase::GameOver { .. } => panic!("no choice is expected after the end"),
            Phase::Pair | Phase::FirstMoveRight { .. } | Phase::NewParry { .. } => {
                let (Some(white), Some(black)) = (mv(choices[0]), mv(choices[1])) else {
                    panic!("a pair needs both players' moves");
                };
                self.after_pair(white, black, mobility, events)
            }
            Phase::Exchange(x) => {
                self.resolve_exchange(x, [mv(choices[0]), mv(choices[1])], mobility, events)
            }
            Phase::Alternating { to_move } => {
                let mv = mv(choices[to_move.index()]).expect("the player to move has a move");
                self.resolve_orthodox(to_move, mv, events)
            }
        }
    }

    /// The state with colours swapped and the board mirrored (symmetry
    /// tests). The repetition history is mirrored as far as it can be:
    /// it is dropped.
    pub fn mirrored(&self) -> SyncGame {
        let mut pos = self.pos.mirrored();
        let phase = self.phase.mirrored();
        pos.set_turn(match phase {
            Phase::Alternating { to_move } => to_move,
            _ => Color::White,
        });
        SyncGame {
            rules: self.rules,
            pos,
            phase,
            history: History::default(),
            checks: [self.checks[1], self.checks[0]],
        }
    }

    // ----- resolution -----

    /// A state with the position of this one, no history and phase
    /// `Pair`, for a resolution to change in place.
    fn successor(&self) -> SyncGame {
        SyncGame {
            rules: self.rules,
            pos: self.pos.clone(),
            phase: Phase::Pair,
            history: History::default(),
            checks: [false; 2],
        }
    }

    /// Resolves the pair of `white` and `black`: the new state.
    fn after_pair(
        &self,
        white: Move,
        black: Move,
        mobility: impl Mobility,
        events: &mut Vec<Event>,
    ) -> SyncGame {
        let mut next = self.successor();
        self.after_pair_into(white, black, mobility, events, &mut next);
        next
    }

    /// Resolves the pair of `white` and `black` into `out`: the new
    /// state, written once at the end from the position (a copy of this
    /// state's, changed in place), the phase, the history and the checks
    /// (no temporary state to copy in).
    #[inline(never)]
    fn after_pair_into(
        &self,
        white: Move,
        black: Move,
        mobility: impl Mobility,
        events: &mut Vec<Event>,
        out: &mut SyncGame,
    ) {
        let mut pos = self.pos.clone();
        self.resolve_pair(&mut pos, white, black, mobility, events, out);
    }

    /// Writes the state of these rules with `pos`, `phase`, `history` and
    /// `checks` into `out`.
    #[inline(always)]
    fn write_state(
        &self,
        out: &mut SyncGame,
        pos: &Position,
        phase: Phase,
        history: History,
        checks: [bool; 2],
    ) {
        out.rules = self.rules;
        out.pos = pos.clone();
        out.phase = phase;
        out.history = history;
        out.checks = checks;
    }

    /// [`SyncGame::after_pair_into`] on `pos`, each way out writing the
    /// new state from its own parts (one copy of the history each).
    #[inline(always)]
    fn resolve_pair(
        &self,
        pos: &mut Position,
        white: Move,
        black: Move,
        mobility: impl Mobility,
        events: &mut Vec<Event>,
        out: &mut SyncGame,
    ) {
        let rules = &self.rules;
        let pre = &self.pos;
        let moves = [Some(white), Some(black)];
        // FSR 6: in Fairschach a side alone in check moves first (checks
        // are looked at only there).
        let first_mover = match rules {
            Rules::Fairschach(_) => match self.checks {
                [true, false] => Some(Color::White),
                [false, true] => Some(Color::Black),
                _ => None,
            },
            Rules::Synchronschach => None,
        };
        let mut new_parry = None;
        let step = match (rules, first_mover) {
            (Rules::Fairschach(fair), Some(first)) => {
                let (step, void) = first_move_sequence(pos, first, moves, fair.same_square, events);
                new_parry = void;
                step
            }
            _ => execute_pair(pos, white, black, rules.same_square(), events),
        };
        if let Some(over) = kings_lost(pos) {
            let (phase, checks) = end_phase(pos, over, events);
            return self.write_state(out, pos, phase, self.history.clone(), checks);
        }
        pos.set_halfmove_clock(if step.irreversible {
            0
        } else {
            pre.halfmove_clock().saturating_add(2)
        });
        if rules.variant() == Variant::Synchronschach
            && let Some(x) = exchange_rights(pre, pos, &step.landed, &mobility)
        {
            for color in Color::ALL {
                if let Some(square) = x.square_for(color) {
                    events.push(Event::ExchangeRight { color, square });
                }
            }
            let checks = push_checks(pos, events);
            let phase = Phase::Exchange(x);
            events.push(Event::Phase { phase });
            return self.write_state(out, pos, phase, self.history.clone(), checks);
        }
        pos.set_fullmove_number(pre.fullmove_number().saturating_add(1));
        if let Rules::Fairschach(fair) = rules {
            set_fair_en_passant(pos, step.double_steps);
            let paused = pause_set(pos, fair.pause, &step.landed);
            pos.set_paused(paused);
        }
        let mut history = self.history.carried(pos.halfmove_clock());
        let (phase, checks) = begin_pair(rules, pos, &mut history, new_parry, mobility, events);
        self.write_state(out, pos, phase, history, checks);
    }

    fn resolve_exchange(
        &self,
        x: Exchange,
        captures: [Option<Move>; 2],
        mobility: impl Mobility,
        events: &mut Vec<Event>,
    ) -> SyncGame {
        for color in Color::ALL {
            if let (Some(square), None) = (x.square_for(color), captures[color.index()]) {
                events.push(Event::ExchangeEnded {
                    color,
                    square,
                    declined: true,
                });
            }
        }
        let mut next = self.successor();
        next.history = self.history.clone();
        let step = execute(
            &mut next.pos,
            captures,
            SameSquareRule::BothCaptured,
            events,
        );
        if let Some(over) = kings_lost(&next.pos) {
            next.end(over, events);
            return next;
        }
        let pos = &mut next.pos;
        if step.irreversible {
            pos.set_halfmove_clock(0);
        }
        let moved = (x.moved & !step.vacated) | step.landed[0] | step.landed[1];
        let mut after = Exchange {
            white: None,
            black: None,
            moved,
        };
        // After a capture on its square, the exchange there goes on with
        // the other side's recapture (S5), if it has one (S7: unmoved
        // pieces only).
        for color in Color::ALL {
            let (Some(square), Some(_)) = (x.square_for(color), captures[color.index()]) else {
                continue;
            };
            let them = !color;
            if pos.color_at(square) == Some(color) && can_capture_on(pos, them, square, moved) {
                match them {
                    Color::White => after.white = Some(square),
                    Color::Black => after.black = Some(square),
                }
            } else {
                events.push(Event::ExchangeEnded {
                    color: them,
                    square,
                    declined: false,
                });
            }
        }
        if after.white.is_some() || after.black.is_some() {
            next.checks = push_checks(&next.pos, events);
            next.phase = Phase::Exchange(after);
            events.push(Event::Phase { phase: next.phase });
            return next;
        }
        pos.set_fullmove_number(pos.fullmove_number().saturating_add(1));
        next.history = self.history.carried(pos.halfmove_clock());
        next.begin_pair(None, mobility, events);
        next
    }

    fn resolve_orthodox(&self, color: Color, mv: Move, events: &mut Vec<Event>) -> SyncGame {
        let pre = &self.pos;
        let moves = match color {
            Color::White => [Some(mv), None],
            Color::Black => [None, Some(mv)],
        };
        let mut next = self.successor();
        let step = execute(&mut next.pos, moves, SameSquareRule::BothCaptured, events);
        let pos = &mut next.pos;
        pos.set_halfmove_clock(if step.irreversible {
            0
        } else {
            pre.halfmove_clock().saturating_add(1)
        });
        if color == Color::Black {
            pos.set_fullmove_number(pre.fullmove_number().saturating_add(1));
        }
        pos.set_turn(!color);
        let ep = step
            .double_steps
            .into_iter()
            .filter_map(|sq| sq.offset(0, color.fold(-1, 1)))
            .collect::<Bitboard>();
        pos.set_en_passant_squares(ep);
        keep_legal_en_passant(pos);
        next.history = self.history.carried(pos.halfmove_clock());
        next.history.push(next.pos.hash());
        next.checks = push_checks(&next.pos, events);
        let to_move = !color;
        next.phase = match orthodox_end(&next.pos, to_move, &next.history) {
            Some((result, reason)) => Phase::GameOver { result, reason },
            None => Phase::Alternating { to_move },
        };
        push_phase(next.phase, events);
        next
    }

    /// Ends the game in this state with `over` (the checks are those of
    /// the final position).
    fn end(&mut self, over: (GameResult, EndReason), events: &mut Vec<Event>) {
        (self.phase, self.checks) = end_phase(&self.pos, over, events);
    }
}

/// The phase and checks of a game ended with `over` in `pos`.
fn end_phase(
    pos: &Position,
    over: (GameResult, EndReason),
    events: &mut Vec<Event>,
) -> (Phase, [bool; 2]) {
    let phase = Phase::GameOver {
        result: over.0,
        reason: over.1,
    };
    push_phase(phase, events);
    (phase, checks(pos))
}

/// Closes the event list of a step with the new phase (and the result).
fn push_phase(phase: Phase, events: &mut Vec<Event>) {
    events.push(Event::Phase { phase });
    if let Phase::GameOver { result, reason } = phase {
        events.push(Event::GameOver { result, reason });
    }
}

/// S4 (our decision): a side without its king has lost; both: draw.
#[inline]
fn kings_lost(pos: &Position) -> Option<(GameResult, EndReason)> {
    let kings = pos.by_role(Role::King);
    let lost = Color::ALL.map(|c| (pos.by_color(c) & kings).is_empty());
    if lost == [false, false] {
        return None;
    }
    match lost {
        [true, true] => Some((GameResult::Draw, EndReason::BothKingsCaptured)),
        [true, false] => Some((GameResult::Win(Color::Black), EndReason::KingCaptured)),
        [false, true] => Some((GameResult::Win(Color::White), EndReason::KingCaptured)),
        [false, false] => None,
    }
}

/// The start of a pair in `pos` without history (notation reader).
pub(crate) fn start_fresh(rules: Rules, pos: Position) -> SyncGame {
    start_pair(rules, pos, History::default(), None, &mut Vec::new())
}

/// Sets up the start of a pair after `pos` (board, clocks, en passant and
/// the FSR 9 pause set already updated): switch to orthodox play (FSR 8),
/// pauses in force, end of game (S3, C7), the phase.
fn start_pair(
    rules: Rules,
    pos: Position,
    history: History,
    new_parry: Option<Color>,
    events: &mut Vec<Event>,
) -> SyncGame {
    // Built once and then updated in place (the position is not copied
    // again on the way out).
    let mut game = SyncGame {
        rules,
        pos,
        phase: Phase::Pair,
        history,
        checks: [false; 2],
    };
    game.begin_pair(new_parry, Search, events);
    game
}

impl SyncGame {
    /// [`start_pair`] on a state whose position and history are set.
    fn begin_pair(
        &mut self,
        new_parry: Option<Color>,
        mobility: impl Mobility,
        events: &mut Vec<Event>,
    ) {
        let (phase, checks) = begin_pair(
            &self.rules,
            &mut self.pos,
            &mut self.history,
            new_parry,
            mobility,
            events,
        );
        self.phase = phase;
        self.checks = checks;
    }
}

/// The start of a pair in `pos` with `history` (both updated; the
/// history as carried to `pos` by [`History::carried`]): the phase and
/// the checks of the new state.
fn begin_pair(
    rules: &Rules,
    pos: &mut Position,
    history: &mut History,
    new_parry: Option<Color>,
    mut mobility: impl Mobility,
    events: &mut Vec<Event>,
) -> (Phase, [bool; 2]) {
    debug_assert!(pos.halfmove_clock() != 0 || history.iter().next().is_none());
    pos.set_turn(Color::White);
    // The checks inline here (every pair; by the generation itself when
    // the next pair's sets are made), out of line elsewhere.
    let checked = mobility.checks(pos);
    report_checks(checked, events);
    if let Rules::Fairschach(fair) = rules
        && checked[0] != checked[1]
    {
        let pieces = pos.occupied().count();
        let pairs_played = pos.fullmove_number().saturating_sub(1);
        let by_count = fair.orthodox_threshold.is_some_and(|n| pieces <= n);
        let by_pairs = fair.orthodox_after_pairs.is_some_and(|n| pairs_played >= n);
        if by_count || by_pairs {
            let to_move = if checked[0] {
                Color::White
            } else {
                Color::Black
            };
            pos.set_turn(to_move);
            pos.set_paused(Bitboard::EMPTY);
            let ep = pos
                .ep_square_for(to_move)
                .map_or(Bitboard::EMPTY, Bitboard::from_square);
            pos.set_en_passant_squares(ep);
            *history = History::single(pos.hash());
            events.push(Event::SwitchedToOrthodox { to_move });
            let phase = match orthodox_end(pos, to_move, history) {
                Some((result, reason)) => Phase::GameOver { result, reason },
                None => Phase::Alternating { to_move },
            };
            push_phase(phase, events);
            return (phase, checked);
        }
    }
    let stuck = mobility.settle(pos, &checked);
    for color in Color::ALL {
        let paused = pos.paused() & pos.by_color(color);
        if paused.any() {
            events.push(Event::Paused {
                color,
                squares: paused,
            });
        }
    }
    history.push(pos.hash());
    let over = pair_end(pos, &checked, stuck, history);
    let phase = match over {
        Some((result, reason)) => Phase::GameOver { result, reason },
        None => match (rules, new_parry) {
            (Rules::Fairschach(_), Some(color)) => Phase::NewParry { color },
            (Rules::Fairschach(_), None) if checked[0] != checked[1] => Phase::FirstMoveRight {
                color: if checked[0] {
                    Color::White
                } else {
                    Color::Black
                },
            },
            _ => Phase::Pair,
        },
    };
    push_phase(phase, events);
    (phase, checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// S4 / G1: a side without king loses; both kings gone: draw.
    #[test]
    fn kings_lost_decides() {
        let pos = |fen: &str| Position::from_fen(fen).unwrap();
        assert_eq!(
            kings_lost(&pos("8/8/8/8/8/8/8/8 w - - 0 1")),
            Some((GameResult::Draw, EndReason::BothKingsCaptured))
        );
        assert_eq!(
            kings_lost(&pos("4k3/8/8/8/8/8/8/8 w - - 0 1")),
            Some((GameResult::Win(Color::Black), EndReason::KingCaptured))
        );
        assert_eq!(
            kings_lost(&pos("8/8/8/8/8/8/8/4K3 w - - 0 1")),
            Some((GameResult::Win(Color::White), EndReason::KingCaptured))
        );
        assert_eq!(kings_lost(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), None);
    }
}
