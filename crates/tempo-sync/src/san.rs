//! The record as chess players read it: each step on one line in SAN,
//! White's move then Black's, as the sources write a pair ("beide Züge in
//! einer Zeile, schwarzer Zug rechts vom weißen Zug"), special cases as
//! markers behind it.
//!
//! ```text
//! 1. e4 d5 {paused white e4; paused black d5}
//! 2. exd5 Qxd5 {collision d5}
//! 7x. Nxe5 ..
//! 12. Qh5+ g6
//! 31... Kd7
//! ```
//!
//! Each move is written against the position **before** the step, with
//! its own side to move (FSR 1: both moves are chosen in that position);
//! castling is `O-O` / `O-O-O` in every variant. A check comes from the
//! step as a whole, so `+` (or `#` when the step mated) goes on the move
//! of the side giving it, read from the resolution's `Check` events and
//! not from each move alone. The markers are those of the pair record
//! ([`crate::record`]) without `check`. The UCI pair record stays the
//! stored, hashed form; this one is derived for people and the PGN, and
//! [`crate::record::replay`] reads both.

use std::fmt::Write as _;

use tempo_chess::{Bitboard, Color, Position, san};

use crate::event::Event;
use crate::game::{Choice, SyncGame};
use crate::outcome::EndReason;
use crate::phase::Phase;
use crate::record::markers;

/// Writes `choice` of `color` in `pos` in SAN, without suffix.
fn write_choice(pos: &Position, color: Color, choice: Option<Choice>) -> String {
    let mv = match choice {
        None => return "..".to_string(),
        Some(Choice::Decline) => return "-".to_string(),
        Some(Choice::Move(mv) | Choice::Capture(mv)) => mv,
    };
    // FSR 9 pauses do not change how a move is named: its
    // disambiguation is against every piece that could go there.
    let mut view = pos.clone();
    view.set_paused(Bitboard::EMPTY);
    view.set_turn(color);
    san::write_without_suffix(&view, mv)
}

/// The suffix of `color`'s move: `+` when the step left the opponent in
/// check, `#` when it ended the game by checkmate of the opponent.
fn suffix(color: Color, events: &[Event]) -> &'static str {
    let mated = events.iter().any(|e| {
        matches!(e, Event::GameOver { result, reason: EndReason::Checkmate }
            if *result == tempo_chess::Outcome::Win(color))
    });
    let checks = events
        .iter()
        .any(|e| matches!(e, Event::Check { color: c } if *c != color));
    match (mated, checks) {
        (true, _) => "#",
        (false, true) => "+",
        _ => "",
    }
}

/// The SAN line of one step: `before` is the state the choices were made
/// in, `events` what the resolution reported.
pub fn write_step(
    before: &SyncGame,
    white: Option<Choice>,
    black: Option<Choice>,
    events: &[Event],
) -> String {
    let pos = before.position();
    let n = before.pair_number();
    let side = |color: Color, choice: Option<Choice>| {
        let mut text = write_choice(pos, color, choice);
        if choice.is_some_and(|c| c.as_move().is_some()) {
            text.push_str(suffix(color, events));
        }
        text
    };
    let mut line = match before.phase() {
        Phase::Exchange(_) => format!(
            "{n}x. {} {}",
            side(Color::White, white),
            side(Color::Black, black)
        ),
        Phase::Alternating {
            to_move: Color::Black,
        } => format!("{n}... {}", side(Color::Black, black)),
        Phase::Alternating {
            to_move: Color::White,
        } => format!("{n}. {}", side(Color::White, white)),
        _ => format!(
            "{n}. {} {}",
            side(Color::White, white),
            side(Color::Black, black)
        ),
    };
    // A check whose giver made no move this step (an idle side in the
    // exchange phase) has no move to carry the `+`: it stays a marker.
    let carried = |color: Color| {
        [(Color::White, white), (Color::Black, black)]
            .iter()
            .any(|(c, choice)| *c != color && choice.is_some_and(|c| c.as_move().is_some()))
    };
    let kept: Vec<Event> = events
        .iter()
        .filter(|e| !matches!(e, Event::Check { color } if carried(*color)))
        .cloned()
        .collect();
    let markers = markers(&kept);
    if !markers.is_empty() {
        let _ = write!(line, " {{{}}}", markers.join("; "));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation;
    use crate::record::parse_choice;
    use crate::rules::{Rules, Variant};

    /// Plays one step from the extended notation `at` with the UCI
    /// choices and returns the SAN line and the UCI line.
    fn step(rules: Rules, at: &str, white: &str, black: &str) -> (String, String) {
        let game = notation::read(rules, at).unwrap();
        let choose = |color, text: &str| parse_choice(&game, color, text).unwrap();
        let (w, b) = (choose(Color::White, white), choose(Color::Black, black));
        let (_, resolution) = game.step(w, b).unwrap();
        let (_, events) = game.resolve(w, b).unwrap();
        (write_step(&game, w, b, &events), resolution.record)
    }

    fn fair() -> Rules {
        Rules::new(Variant::Fairschach)
    }

    fn sync() -> Rules {
        Rules::new(Variant::Synchronschach)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR s KQkq - - 0 1";

    #[test]
    fn an_opening_pair_reads_as_chess() {
        let (san, uci) = step(sync(), START, "e2e4", "d7d5");
        assert_eq!(san, "1. e4 d5");
        assert_eq!(uci, "1. e2e4 d7d5");
        let (san, _) = step(sync(), START, "g1f3", "b8c6");
        assert_eq!(san, "1. Nf3 Nc6");
    }

    #[test]
    fn the_pause_is_a_marker_not_a_move() {
        let (san, uci) = step(fair(), START, "e2e4", "d7d5");
        assert_eq!(san, "1. e4 d5 {paused white e4; paused black d5}");
        assert!(uci.starts_with("1. e2e4 d7d5 {paused"), "{uci}");
    }

    #[test]
    fn a_capture_is_written_against_the_position_before() {
        let at = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR s KQkq - - 0 2";
        // The pawn on d5 stays: captured, and Black's queen may take
        // back before the next pair (S5).
        let (san, _) = step(sync(), at, "e4d5", "g8f6");
        assert_eq!(san, "2. exd5 Nf6 {exchange black d5}");
        // It leaves: `exd5` still names the capture as it was entered.
        let (san, _) = step(sync(), at, "e4d5", "d5d4");
        assert!(san.starts_with("2. exd5 d4"), "{san}");
    }

    #[test]
    fn a_collision_keeps_both_moves_and_marks_the_square() {
        let at = "rnbqkb1r/pppppppp/5n2/8/8/2N5/PPPPPPPP/R1BQKBNR s KQkq - - 0 3";
        let (san, _) = step(sync(), at, "c3d5", "f6d5");
        assert!(san.starts_with("3. Nd5 Nd5 {collision d5"), "{san}");
    }

    #[test]
    fn castling_is_o_o_in_both_spellings() {
        let at = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R s KQkq - - 0 9";
        let (san, _) = step(sync(), at, "e1g1", "e8h8");
        assert_eq!(san, "9. O-O O-O");
        let (san, _) = step(sync(), at, "e1a1", "e8c8");
        assert_eq!(san, "9. O-O-O O-O-O");
    }

    #[test]
    fn a_promotion_names_the_new_piece() {
        let at = "8/P3k3/8/8/8/8/4K2p/8 s - - - 0 40";
        let (san, _) = step(sync(), at, "a7a8q", "h2h1n");
        assert_eq!(san, "40. a8=Q h1=N");
    }

    #[test]
    fn check_goes_on_the_move_that_gives_it() {
        let at = "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR s KQkq - - 0 2";
        let (san, uci) = step(sync(), at, "d1h5", "h7h6");
        assert_eq!(san, "2. Qh5+ h6");
        assert!(uci.contains("check black"), "{uci}");
    }

    #[test]
    fn the_mating_move_gets_a_hash() {
        let at = "6k1/1p3ppp/8/8/8/8/5PPP/R5K1 s - - - 0 20";
        let (san, uci) = step(sync(), at, "a1a8", "b7b6");
        assert_eq!(san, "20. Ra8# b6 {1-0 checkmate}");
        assert!(uci.contains("check black"), "{uci}");
    }

    #[test]
    fn san_lines_replay_like_uci_lines() {
        let game = notation::read(fair(), START).unwrap();
        let (san, _) = step(fair(), START, "g1f3", "g8f6");
        let (again, steps) = crate::record::replay(&game, &san).unwrap();
        assert_eq!(steps.len(), 1);
        assert_eq!(again.pair_number(), 2);
    }
}
