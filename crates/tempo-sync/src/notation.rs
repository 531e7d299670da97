//! The extended position notation: FEN plus what a simultaneous-move
//! state needs beyond the board.
//!
//! ```text
//! <placement> <phase> <castling> <en passant> <paused> <half-moves> <pair>
//! rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR s KQkq - e4e5 0 2
//! ```
//!
//! 1. piece placement, as in FEN;
//! 2. the phase: `s` start of a pair (plain pair, or FSR 6 first-move
//!    right when exactly one king is attacked in Fairschach — derived from
//!    the board), `nw`/`nb` FSR 7 new parry of White/Black, `x:<w>:<b>:<moved>`
//!    exchange phase (the square White resp. Black may capture on, or `-`;
//!    the squares of pieces that already moved in the phase, or `-`),
//!    `aw`/`ab` orthodox alternating play with White/Black to move,
//!    `#<result>:<reason>` game over (e.g. `#1-0:checkmate`);
//! 3. castling rights, as in FEN (X-FEN; Shredder-FEN letters accepted);
//! 4. en-passant squares (Fairschach may have one per colour), e.g. `e3`,
//!    `e3d6`, or `-`;
//! 5. paused pieces (FSR 9) by square, e.g. `c3f6`, or `-`;
//! 6. half-moves since the last capture or pawn move (a pair counts 2);
//! 7. the number of the current pair.
//!
//! A plain FEN (second field `w` or `b`) is read as the start of a pair;
//! its side to move is not used, its en-passant square kept (Fairschach).
//! The repetition history is not part of the notation (as in FEN).

use tempo_chess::{Bitboard, Color, Position, Square};

use crate::error::{NotationError, SyncError};
use crate::game::{SyncGame, start_fresh};
use crate::outcome::{EndReason, Result as GameResult};
use crate::phase::{Exchange, Phase};
use crate::rules::{Rules, Variant};

const NAMES: [&str; 7] = [
    "piece placement",
    "phase",
    "castling",
    "en passant",
    "paused",
    "half-move clock",
    "pair number",
];

fn squares(bb: Bitboard) -> String {
    if bb.is_empty() {
        return "-".to_string();
    }
    bb.into_iter().map(|sq| sq.to_string()).collect()
}

fn opt_square(sq: Option<Square>) -> String {
    sq.map_or("-".to_string(), |sq| sq.to_string())
}

/// The phase field.
pub(crate) fn phase_field(phase: &Phase) -> String {
    match phase {
        Phase::Pair | Phase::FirstMoveRight { .. } => "s".to_string(),
        Phase::NewParry { color } => format!("n{}", color.char()),
        Phase::Exchange(x) => format!(
            "x:{}:{}:{}",
            opt_square(x.white),
            opt_square(x.black),
            squares(x.moved)
        ),
        Phase::Alternating { to_move } => format!("a{}", to_move.char()),
        Phase::GameOver { result, reason } => format!("#{result}:{reason}"),
    }
}

/// Writes the state of `game`.
pub fn write(game: &SyncGame) -> String {
    let pos = game.position();
    let fen = pos.to_fen();
    let castling = fen.split(' ').nth(2).unwrap_or("-");
    format!(
        "{} {} {} {} {} {} {}",
        pos.board_fen(),
        phase_field(&game.phase()),
        castling,
        squares(pos.en_passant_squares()),
        squares(pos.paused()),
        pos.halfmove_clock(),
        pos.fullmove_number()
    )
}

fn field_error(field: usize, reason: impl Into<String>) -> NotationError {
    NotationError::Field {
        field,
        name: NAMES[field - 1],
        reason: reason.into(),
    }
}

/// Reads a list of squares (`-` for none).
fn parse_squares(field: usize, text: &str) -> Result<Bitboard, NotationError> {
    if text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    if !text.is_ascii() || !text.len().is_multiple_of(2) || text.is_empty() {
        return Err(field_error(
            field,
            format!("'{text}' is not a list of squares like e3d6"),
        ));
    }
    let mut bb = Bitboard::EMPTY;
    for i in (0..text.len()).step_by(2) {
        let sq: Square = text[i..i + 2]
            .parse()
            .map_err(|_| field_error(field, format!("'{}' is not a square", &text[i..i + 2])))?;
        bb = bb.with(sq);
    }
    Ok(bb)
}

fn parse_opt_square(field: usize, text: &str) -> Result<Option<Square>, NotationError> {
    if text == "-" {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| field_error(field, format!("'{text}' is not a square")))
}

fn parse_color(field: usize, c: &str) -> Result<Color, NotationError> {
    match c {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(field_error(
            field,
            format!("'{c}' is not a colour (w or b)"),
        )),
    }
}

fn parse_phase(text: &str) -> Result<Option<Phase>, NotationError> {
    if text == "s" {
        return Ok(None);
    }
    if let Some(rest) = text.strip_prefix('n') {
        return Ok(Some(Phase::NewParry {
            color: parse_color(2, rest)?,
        }));
    }
    if let Some(rest) = text.strip_prefix('a') {
        return Ok(Some(Phase::Alternating {
            to_move: parse_color(2, rest)?,
        }));
    }
    if let Some(rest) = text.strip_prefix("x:") {
        let parts: Vec<&str> = rest.split(':').collect();
        if parts.len() != 3 {
            return Err(field_error(
                2,
                "an exchange phase is x:<white square>:<black square>:<moved>",
            ));
        }
        let x = Exchange {
            white: parse_opt_square(2, parts[0])?,
            black: parse_opt_square(2, parts[1])?,
            moved: parse_squares(2, parts[2])?,
        };
        if x.white.is_none() && x.black.is_none() {
            return Err(field_error(
                2,
                "an exchange phase needs a square for at least one side",
            ));
        }
        return Ok(Some(Phase::Exchange(x)));
    }
    if let Some(rest) = text.strip_prefix('#') {
        let (result, reason) = rest
            .split_once(':')
            .ok_or_else(|| field_error(2, "game over is #<result>:<reason>"))?;
        let result = GameResult::from_pgn(result).ok_or_else(|| {
            field_error(2, format!("'{result}' is not a result (1-0, 0-1, 1/2-1/2)"))
        })?;
        let reason = EndReason::from_name(reason)
            .ok_or_else(|| field_error(2, format!("unknown reason '{reason}'")))?;
        return Ok(Some(Phase::GameOver { result, reason }));
    }
    Err(field_error(
        2,
        format!("'{text}' is not a phase (s, nw, nb, x:..., aw, ab, #...)"),
    ))
}

fn parse_number(field: usize, text: &str) -> Result<u32, NotationError> {
    text.parse()
        .map_err(|_| field_error(field, format!("'{text}' is not a number")))
}

/// Reads the extended notation (or a plain FEN) as a state of `rules`.
pub fn read(rules: Rules, text: &str) -> Result<SyncGame, NotationError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() >= 2 && matches!(fields[1], "w" | "b") {
        let pos = Position::from_fen(text)?;
        return SyncGame::from_position(rules, pos).map_err(NotationError::Start);
    }
    if fields.len() != 7 {
        return Err(NotationError::FieldCount(fields.len()));
    }
    let phase = parse_phase(fields[1])?;
    let fen = format!("{} w {} - 0 1", fields[0], fields[2]);
    let mut pos = Position::from_fen(&fen).map_err(|mut e| {
        // Report the column in the extended notation: only the second
        // field differs in length before the castling field.
        if e.column > fields[0].len() + 2 {
            e.column = e.column + fields[1].len() - 1;
        }
        NotationError::Fen(e)
    })?;
    let ep = parse_squares(4, fields[3])?;
    for sq in ep {
        if !matches!(sq.rank().index(), 2 | 5) {
            return Err(field_error(
                4,
                format!("{sq} is not on the third or sixth rank"),
            ));
        }
    }
    let paused = parse_squares(5, fields[4])?;
    if !(paused & !pos.occupied()).is_empty() {
        return Err(field_error(5, "a paused square is empty"));
    }
    pos.set_en_passant_squares(ep);
    pos.set_paused(paused);
    pos.set_halfmove_clock(parse_number(6, fields[5])?);
    pos.set_fullmove_number(parse_number(7, fields[6])?);
    let start = |pos: Position| -> Result<SyncGame, NotationError> {
        SyncGame::from_position(rules, pos.clone()).map_err(NotationError::Start)?;
        Ok(start_fresh(rules, pos))
    };
    let Some(phase) = phase else {
        let mut pos = pos;
        if rules.variant() == Variant::Synchronschach {
            pos.set_en_passant_squares(Bitboard::EMPTY);
            pos.set_paused(Bitboard::EMPTY);
        }
        return start(pos);
    };
    if let Phase::GameOver { .. } = phase {
        // A king may be gone: it was captured, which ended the game.
        pos.validate_board()
            .map_err(|e| NotationError::Start(SyncError::InvalidStart(e.into())))?;
        return Ok(SyncGame::from_parts(rules, pos, phase));
    }
    // Check the kings as for a start position.
    SyncGame::from_position(rules, pos.clone()).map_err(NotationError::Start)?;
    match phase {
        Phase::NewParry { color } => {
            if rules.variant() != Variant::Fairschach {
                return Err(field_error(
                    2,
                    "a new parry (FSR 7) exists only in Fairschach",
                ));
            }
            if !pos.is_in_check(color) {
                return Err(field_error(
                    2,
                    "the player with a new parry must be in check",
                ));
            }
            let mut game = start(pos)?;
            if !game.is_over() {
                game = SyncGame::from_parts(rules, game.position().clone(), phase);
            }
            Ok(game)
        }
        Phase::Exchange(_) => {
            if rules.variant() != Variant::Synchronschach {
                return Err(field_error(
                    2,
                    "an exchange phase exists only in Synchronschach",
                ));
            }
            Ok(SyncGame::from_parts(rules, pos, phase))
        }
        Phase::Alternating { to_move } => {
            if rules.variant() != Variant::Fairschach {
                return Err(field_error(
                    2,
                    "orthodox alternating play (FSR 8) exists only in Fairschach",
                ));
            }
            pos.set_turn(to_move);
            pos.set_paused(Bitboard::EMPTY);
            Ok(SyncGame::from_parts(rules, pos, phase))
        }
        Phase::GameOver { .. } | Phase::Pair | Phase::FirstMoveRight { .. } => {
            Ok(SyncGame::from_parts(rules, pos, phase))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trip() {
        let game = SyncGame::new(Rules::new(Variant::Fairschach));
        let text = write(&game);
        assert_eq!(
            text,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR s KQkq - - 0 1"
        );
        let again = read(Rules::new(Variant::Fairschach), &text).unwrap();
        assert_eq!(write(&again), text);
    }

    #[test]
    fn errors_name_the_field() {
        let rules = Rules::new(Variant::Fairschach);
        let err = read(rules, "8/8/8/8/8/8/8/K6k s - - z9 0 1").unwrap_err();
        assert!(err.to_string().contains("field 5 (paused)"), "{err}");
        let err = read(rules, "8/8/8/8/8/8/8/K6k q - - - 0 1").unwrap_err();
        assert!(err.to_string().contains("field 2 (phase)"), "{err}");
        let err = read(rules, "8/8/8/8/8/8/8/K6k s - - - x 1").unwrap_err();
        assert!(err.to_string().contains("field 6"), "{err}");
        assert!(read(rules, "8/8/8/8/8/8/8/K7 s - - - 0 1").is_err());
    }
}
