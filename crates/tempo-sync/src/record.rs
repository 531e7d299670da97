//! The pair record: one line per step of the game, White's choice then
//! Black's, readable and writable.
//!
//! ```text
//! # Fairschach, orthodox start
//! 1. e2e4 e7e5
//! 2. g1f3 b8c6 {first-move white}
//! 7x. xd4e5 ..          exchange phase (Synchronschach): capture, nothing
//! 8x. - xc6e5           decline, capture
//! 31... e8d7            orthodox alternating play, Black to move
//! 32. a2a4 h7h6         orthodox: White's move then Black's
//! ```
//!
//! Tokens: a UCI move (`e2e4`, `e7e8q`; castling as the king's step
//! `e1g1` or king-takes-rook `e1h1`, the latter written for Chess960); in
//! the exchange phase `x` + the capture (`xd4e5`, the `x` may be left out)
//! or `-` to decline; `..` for a player who has nothing to choose in this
//! step; a SAN move (`Nf3`, `exd5`, `O-O`, `a8=Q`) is read too, so that
//! the SAN record of [`crate::san`] replays. A leading move number (`12.`, `12x.`, `12...`) is optional.
//! `{...}` are comments (the writer puts markers for special cases there:
//! `collision e5`, `swap`, `void black not-executable`, `first-move
//! white`, `new-parry black`, `exchange white e5`, `check white`,
//! `paused white c3 f6`, `orthodox`, the result); `#` starts a comment
//! line. A result token (`1-0`, `0-1`, `1/2-1/2`, `*`) may end the
//! record.

use std::fmt::Write as _;

use tempo_chess::uci::{self, Uci};
use tempo_chess::{Bitboard, Color, Move, Position};

use crate::error::{ChoiceError, RecordError, StepError};
use crate::event::{Event, VoidReason};
use crate::game::{Choice, Expected, SyncGame};
use crate::phase::Phase;

/// Reads a UCI move of `color` in `pos` (either castling spelling), or a
/// SAN move (the SAN record). A
/// well-formed move that is not legal is returned as written, so that the
/// state machine can say why it is illegal.
pub fn parse_move(pos: &Position, color: Color, text: &str) -> Result<Move, ChoiceError> {
    let mut free = pos.clone();
    free.set_paused(Bitboard::EMPTY);
    free.set_turn(color);
    // The SAN record ([`crate::san`]) and PGN written from it read back
    // too; a token that is neither is reported as the UCI it is not.
    let parsed: Uci = match text.parse() {
        Ok(parsed) => parsed,
        Err(err) => {
            return tempo_chess::san::parse(&free, text).map_err(|_| ChoiceError::from(err));
        }
    };
    if let Some(mv) = parsed.to_move(&free) {
        return Ok(mv);
    }
    // An illegal castling written as the king's step: name the castling
    // move itself, so that the reason given is about castling.
    let castling = free
        .pseudo_legal_moves_for(color)
        .iter()
        .copied()
        .find(|&mv| {
            mv.from == parsed.from
                && parsed.promotion.is_none()
                && free
                    .castling_side(mv)
                    .is_some_and(|side| mv.to == parsed.to || side.king_to(color) == parsed.to)
        });
    Ok(castling.unwrap_or(Move::new(parsed.from, parsed.to, parsed.promotion)))
}

/// Writes `mv` of the player to move in `pos` in UCI (king's step for
/// orthodox castling, king-takes-rook in Chess960).
pub(crate) fn write_move(pos: &Position, color: Color, mv: Move) -> String {
    let mut view = pos.clone();
    view.set_turn(color);
    uci::write(&view, mv)
}

/// Writes one choice as a record token.
pub fn write_choice(pos: &Position, color: Color, choice: Option<Choice>) -> String {
    match choice {
        None => "..".to_string(),
        Some(Choice::Decline) => "-".to_string(),
        Some(Choice::Move(mv)) => write_move(pos, color, mv),
        Some(Choice::Capture(mv)) => format!("x{}", write_move(pos, color, mv)),
    }
}

/// The line of one step: `before` is the state the choices were made in,
/// `events` what the resolution reported (for the markers).
pub fn write_step(
    before: &SyncGame,
    white: Option<Choice>,
    black: Option<Choice>,
    events: &[Event],
) -> String {
    let pos = before.position();
    let n = before.pair_number();
    let mut line = match before.phase() {
        Phase::Exchange(_) => format!(
            "{n}x. {} {}",
            write_choice(pos, Color::White, white),
            write_choice(pos, Color::Black, black)
        ),
        Phase::Alternating {
            to_move: Color::Black,
        } => {
            format!("{n}... {}", write_choice(pos, Color::Black, black))
        }
        Phase::Alternating {
            to_move: Color::White,
        } => {
            format!("{n}. {}", write_choice(pos, Color::White, white))
        }
        _ => format!(
            "{n}. {} {}",
            write_choice(pos, Color::White, white),
            write_choice(pos, Color::Black, black)
        ),
    };
    let markers = markers(events);
    if !markers.is_empty() {
        let _ = write!(line, " {{{}}}", markers.join("; "));
    }
    line
}

/// The markers of special cases in `events`.
pub(crate) fn markers(events: &[Event]) -> Vec<String> {
    let name = |c: Color| c.fold("white", "black");
    let mut out = Vec::new();
    for event in events {
        match event {
            Event::Collision { square, .. } => out.push(format!("collision {square}")),
            Event::Swap { .. } => out.push("swap".to_string()),
            Event::Voided { color, reason, .. } => out.push(format!(
                "void {} {}",
                name(*color),
                match reason {
                    VoidReason::NotExecutable => "not-executable",
                    VoidReason::DoesNotParry => "does-not-parry",
                    VoidReason::WeakerStays => "weaker-stays",
                }
            )),
            Event::FirstMove { color } => out.push(format!("first-move {}", name(*color))),
            Event::ExchangeRight { color, square } => {
                out.push(format!("exchange {} {square}", name(*color)))
            }
            Event::Check { color } => out.push(format!("check {}", name(*color))),
            Event::Paused { color, squares } => {
                let list: Vec<String> = squares.into_iter().map(|s| s.to_string()).collect();
                out.push(format!("paused {} {}", name(*color), list.join(" ")))
            }
            Event::SwitchedToOrthodox { .. } => out.push("orthodox".to_string()),
            Event::Phase {
                phase: Phase::NewParry { color },
            } => out.push(format!("new-parry {}", name(*color))),
            Event::GameOver { result, reason } => out.push(format!("{result} {reason}")),
            _ => {}
        }
    }
    out
}

/// One step read from a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordStep {
    /// The 1-based line it came from.
    pub line: usize,
    pub white: Option<Choice>,
    pub black: Option<Choice>,
}

/// Replays the record `text` from `start`: the final state and the steps
/// read. An illegal choice is an error naming the line, the pair, the
/// player and the reason.
pub fn replay(start: &SyncGame, text: &str) -> Result<(SyncGame, Vec<RecordStep>), RecordError> {
    let mut game = start.clone();
    let mut steps = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let tokens = tokens(raw).map_err(|reason| RecordError::Syntax { line, reason })?;
        if let Some(number) = leading_number(raw) {
            check_number(&game, number).map_err(|reason| RecordError::Syntax { line, reason })?;
        }
        let mut queue: std::collections::VecDeque<&str> = tokens.into_iter().collect();
        while let Some(&first) = queue.front() {
            if is_result(first) {
                queue.pop_front();
                if !queue.is_empty() {
                    return Err(RecordError::Syntax {
                        line,
                        reason: format!("text after the result '{first}'"),
                    });
                }
                break;
            }
            if let Some((result, _)) = game.result() {
                return Err(RecordError::AfterEnd {
                    line,
                    result: result.to_string(),
                });
            }
            let (white, black) = take_step(&game, &mut queue, line)?;
            let (next, _) = game
                .resolve(white, black)
                .map_err(|err| illegal(&game, line, err))?;
            steps.push(RecordStep { line, white, black });
            let was_alternating = matches!(game.phase(), Phase::Alternating { .. });
            game = next;
            if !was_alternating && !queue.is_empty() {
                return Err(RecordError::Syntax {
                    line,
                    reason: format!("unexpected '{}' after the step", queue[0]),
                });
            }
        }
    }
    Ok((game, steps))
}

fn illegal(game: &SyncGame, line: usize, err: crate::SyncError) -> RecordError {
    match err {
        crate::SyncError::Illegal {
            color,
            choice,
            reason,
        } => RecordError::Illegal {
            line,
            pair: game.pair_number(),
            player: color.fold("White", "Black"),
            reason: StepError::Illegal { choice, reason },
        },
        crate::SyncError::MissingChoice(color) => RecordError::Illegal {
            line,
            pair: game.pair_number(),
            player: color.fold("White", "Black"),
            reason: StepError::MissingChoice,
        },
        other => RecordError::Syntax {
            line,
            reason: other.to_string(),
        },
    }
}

/// Takes the tokens of one step from `queue`.
fn take_step(
    game: &SyncGame,
    queue: &mut std::collections::VecDeque<&str>,
    line: usize,
) -> Result<(Option<Choice>, Option<Choice>), RecordError> {
    let expected = Color::ALL.map(|c| game.expected(c));
    let wanted = expected.iter().filter(|e| **e != Expected::Nothing).count();
    let mut out = [None, None];
    let alternating = matches!(game.phase(), Phase::Alternating { .. });
    // The tokens of this step: both (White, Black) in a pair; in other
    // steps '..' stands for the idle player and may be left out.
    let mut slots: Vec<(Color, &str)> = Vec::new();
    if wanted == 2 {
        for color in Color::ALL {
            let Some(token) = queue.pop_front() else {
                return Err(RecordError::Illegal {
                    line,
                    pair: game.pair_number(),
                    player: color.fold("White", "Black"),
                    reason: StepError::MissingChoice,
                });
            };
            slots.push((color, token));
        }
    } else {
        let active = if expected[0] != Expected::Nothing {
            Color::White
        } else {
            Color::Black
        };
        while queue.front() == Some(&"..") {
            queue.pop_front();
        }
        let token = queue.pop_front().ok_or_else(|| RecordError::Illegal {
            line,
            pair: game.pair_number(),
            player: active.fold("White", "Black"),
            reason: StepError::MissingChoice,
        })?;
        slots.push((active, token));
        if !alternating && queue.front() == Some(&"..") {
            queue.pop_front();
        }
    }
    for (color, token) in slots {
        let choice = parse_choice(game, color, token).map_err(|reason| RecordError::Illegal {
            line,
            pair: game.pair_number(),
            player: color.fold("White", "Black"),
            reason: reason.into(),
        })?;
        out[color.index()] = choice;
    }
    Ok((out[0], out[1]))
}

/// Reads one token as `color`'s choice in `game`.
pub fn parse_choice(
    game: &SyncGame,
    color: Color,
    token: &str,
) -> Result<Option<Choice>, ChoiceError> {
    let pos = game.position();
    match (token, game.expected(color)) {
        ("..", Expected::Nothing) => Ok(None),
        ("..", _) => Err(ChoiceError::ChoiceDue),
        ("-", Expected::CaptureOrDecline(_)) => Ok(Some(Choice::Decline)),
        ("-", _) => Err(ChoiceError::DeclineOutsideExchange),
        (_, Expected::Nothing) => Err(ChoiceError::NothingDue(token.to_string())),
        (_, Expected::CaptureOrDecline(_)) => {
            let text = token.strip_prefix('x').unwrap_or(token);
            Ok(Some(Choice::Capture(parse_move(pos, color, text)?)))
        }
        (_, Expected::Move) => {
            if token.starts_with('x') {
                return Err(ChoiceError::CaptureOutsideExchange(token.to_string()));
            }
            Ok(Some(Choice::Move(parse_move(pos, color, token)?)))
        }
    }
}

fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// The choice tokens of a line: comments and move numbers removed.
fn tokens(line: &str) -> Result<Vec<&str>, String> {
    let line = line.trim();
    if line.starts_with('#') {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        out.extend(rest[..open].split_whitespace());
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| "unterminated comment: missing '}'".to_string())?;
        rest = &rest[open + close + 1..];
    }
    if rest.contains('}') {
        return Err("'}' without '{'".to_string());
    }
    out.extend(rest.split_whitespace());
    let mut tokens = Vec::new();
    for token in out {
        let bare = strip_number(token);
        if !bare.is_empty() {
            tokens.push(bare);
        }
    }
    Ok(tokens)
}

/// A move number written before a step: `12.`, `12x.` (an exchange step) or
/// `12...` (Black's ply in orthodox play).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct StepNumber {
    number: u32,
    exchange: bool,
}

/// The move number a line starts with, if it has one.
fn leading_number(line: &str) -> Option<StepNumber> {
    let token = line.split_whitespace().next()?;
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &token[digits..];
    let (exchange, rest) = match rest.strip_prefix('x') {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    if digits == 0 || !rest.starts_with('.') {
        return None;
    }
    // An over-long number is no pair number at all: it cannot match.
    let number = token[..digits].parse().unwrap_or(u32::MAX);
    Some(StepNumber { number, exchange })
}

/// A written move number must name the step that is due: the pair being
/// played, and `x` exactly when Synchronschach's exchange step is due.
fn check_number(game: &SyncGame, written: StepNumber) -> Result<(), String> {
    let due = game.pair_number();
    match game.phase() {
        Phase::Exchange(_) if !written.exchange => Err(format!(
            "'{}.' written, but the exchange step '{due}x.' of pair {due} is due",
            written.number
        )),
        Phase::Exchange(_)
        | Phase::Pair
        | Phase::FirstMoveRight { .. }
        | Phase::NewParry { .. }
            if written.number != due =>
        {
            Err(format!(
                "move number {} written, but pair {due} is due",
                written.number
            ))
        }
        Phase::Pair | Phase::FirstMoveRight { .. } | Phase::NewParry { .. } if written.exchange => {
            Err(format!(
                "'{}x.' written, but no exchange step is due",
                written.number
            ))
        }
        _ => Ok(()),
    }
}

/// `12.`, `12x.`, `12...` or `12.e2e4` without the number part.
fn strip_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return token;
    }
    let rest = &token[digits..];
    let rest = rest.strip_prefix('x').unwrap_or(rest);
    if rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        token
    }
}
