//! The digit code for correspondence play (Fairschach source, "Verschlüsselung";
//! ICCF numeric notation with a piece digit in front and a marker digit behind).
//!
//! One line per step: the pair number, then White's and Black's choice.
//!
//! ```text
//! 1 65254 65755
//! 2 55163 45768/2
//! ```
//!
//! A choice is `<piece><from><to>[<promotion>][/<marker>]`:
//! - piece digit (strength order of FSR 4): 1 king, 2 queen, 3 rook,
//!   4 bishop, 5 knight, 6 pawn;
//! - from and to as ICCF squares (file digit a=1..h=8, rank digit), e.g.
//!   e2 = 52; castling as the king's move (`15171` = O-O), see
//!   `tempo_chess::iccf` for Chess960;
//! - promotion digit 1 queen, 2 rook, 3 bishop, 4 knight (ICCF);
//! - marker digit after `/` (written, not needed for reading): 1 void,
//!   2 first-move right, 3 collision, 4 swap, 5 exchange right, 6 check,
//!   7 game over;
//! - `0` declines an exchange capture, `-` stands for a player with
//!   nothing to choose. Exchange captures use the move code.

use tempo_chess::{Color, Position, Role};

use crate::error::{ChoiceError, RecordError, StepError};
use crate::event::Event;
use crate::game::{Choice, SyncGame};
use crate::record::{RecordStep, parse_choice};

fn piece_digit(role: Role) -> char {
    match role {
        Role::King => '1',
        Role::Queen => '2',
        Role::Rook => '3',
        Role::Bishop => '4',
        Role::Knight => '5',
        Role::Pawn => '6',
    }
}

fn digit_role(d: char) -> Option<Role> {
    Some(match d {
        '1' => Role::King,
        '2' => Role::Queen,
        '3' => Role::Rook,
        '4' => Role::Bishop,
        '5' => Role::Knight,
        '6' => Role::Pawn,
        _ => return None,
    })
}

/// The marker digit of `color`'s choice from the events of its step.
fn marker(events: &[Event], color: Color) -> Option<char> {
    let mut best = None;
    for event in events {
        let digit = match event {
            Event::Voided { color: c, .. } if *c == color => '1',
            Event::FirstMove { color: c } if *c == color => '2',
            Event::Collision { .. } => '3',
            Event::Swap { .. } => '4',
            Event::ExchangeRight { color: c, .. } if *c != color => '5',
            Event::Check { color: c } if *c != color => '6',
            Event::GameOver { .. } => '7',
            _ => continue,
        };
        best = Some(best.map_or(digit, |b: char| b.min(digit)));
    }
    best
}

/// Writes one choice in digit code.
pub(crate) fn write_choice(pos: &Position, choice: Option<Choice>) -> String {
    match choice {
        None => "-".to_string(),
        Some(Choice::Decline) => "0".to_string(),
        Some(Choice::Move(mv) | Choice::Capture(mv)) => {
            let role = pos.role_at(mv.from).unwrap_or(Role::Pawn);
            format!("{}{}", piece_digit(role), tempo_chess::iccf::write(pos, mv))
        }
    }
}

/// The digit-code line of one step (see [`crate::record::write_step`]).
pub fn write_step(
    before: &SyncGame,
    white: Option<Choice>,
    black: Option<Choice>,
    events: &[Event],
) -> String {
    let pos = before.position();
    let mut parts = vec![before.pair_number().to_string()];
    for (color, choice) in [(Color::White, white), (Color::Black, black)] {
        let mut code = write_choice(pos, choice);
        if choice.is_some()
            && let Some(m) = marker(events, color)
        {
            code.push('/');
            code.push(m);
        }
        parts.push(code);
    }
    parts.join(" ")
}

/// Reads one digit-code token as `color`'s choice in `game`.
pub(crate) fn parse_choice_code(
    game: &SyncGame,
    color: Color,
    token: &str,
) -> Result<Option<Choice>, ChoiceError> {
    let code = match token.split_once('/') {
        Some((code, m)) => {
            if !(m.len() == 1 && matches!(m.as_bytes()[0], b'1'..=b'7')) {
                return Err(ChoiceError::BadMarker(token.to_string()));
            }
            code
        }
        None => token,
    };
    match code {
        "-" => return parse_choice(game, color, ".."),
        "0" => return parse_choice(game, color, "-"),
        _ => {}
    }
    let mut chars = code.chars();
    let role = chars
        .next()
        .and_then(digit_role)
        .ok_or_else(|| ChoiceError::BadPieceDigit(token.to_string()))?;
    let (from, to, promotion) = tempo_chess::iccf::parse_digits(chars.as_str())?;
    let pos = game.position();
    if pos.role_at(from) != Some(role) || pos.color_at(from) != Some(color) {
        return Err(ChoiceError::WrongPiece {
            token: token.to_string(),
            digit: piece_digit(role),
            square: from,
        });
    }
    let uci = format!(
        "{from}{to}{}",
        promotion.map_or(String::new(), |r| r.char().to_string())
    );
    parse_choice(game, color, &uci)
}

/// Replays a digit-code record from `start` (one step per line; empty
/// lines and lines starting with `#` are skipped).
pub fn replay(start: &SyncGame, text: &str) -> Result<(SyncGame, Vec<RecordStep>), RecordError> {
    let mut game = start.clone();
    let mut steps = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let tokens: Vec<&str> = raw.split_whitespace().collect();
        if tokens.len() != 3 {
            return Err(RecordError::Syntax {
                line,
                reason: "expected '<pair> <white> <black>'".to_string(),
            });
        }
        let Ok(number) = tokens[0].parse::<u32>() else {
            return Err(RecordError::Syntax {
                line,
                reason: format!("'{}' is not a pair number", tokens[0]),
            });
        };
        if game.result().is_none() && number != game.pair_number() {
            let due = game.pair_number();
            let step = if matches!(game.phase(), crate::Phase::Exchange(_)) {
                format!("the exchange step of pair {due}")
            } else {
                format!("pair {due}")
            };
            return Err(RecordError::Syntax {
                line,
                reason: format!("pair number {number} written, but {step} is due"),
            });
        }
        if let Some((result, _)) = game.result() {
            return Err(RecordError::AfterEnd {
                line,
                result: result.to_string(),
            });
        }
        let mut choices = [None, None];
        for color in Color::ALL {
            choices[color.index()] = parse_choice_code(&game, color, tokens[1 + color.index()])
                .map_err(|reason| RecordError::Illegal {
                    line,
                    pair: game.pair_number(),
                    player: color.fold("White", "Black"),
                    reason: reason.into(),
                })?;
        }
        let (next, _) = game
            .resolve(choices[0], choices[1])
            .map_err(|e| RecordError::Illegal {
                line,
                pair: game.pair_number(),
                player: match &e {
                    crate::SyncError::Illegal { color, .. }
                    | crate::SyncError::MissingChoice(color) => color.fold("White", "Black"),
                    _ => "-",
                },
                reason: StepError::Game(e),
            })?;
        steps.push(RecordStep {
            line,
            white: choices[0],
            black: choices[1],
        });
        game = next;
    }
    Ok((game, steps))
}
