//! Helpers for the rule scenarios: states from notation, steps from
//! record tokens.

#![allow(dead_code)]

use tempo_chess::Color;
use tempo_sync::{Event, Rules, SyncGame, notation, record};

pub fn state(rules: Rules, text: &str) -> SyncGame {
    notation::read(rules, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn token(game: &SyncGame, color: Color, text: &str) -> Option<tempo_sync::Choice> {
    record::parse_choice(game, color, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Resolves one step given as record tokens (`..` for nothing).
pub fn step(game: &SyncGame, white: &str, black: &str) -> (SyncGame, Vec<Event>) {
    let w = token(game, Color::White, white);
    let b = token(game, Color::Black, black);
    game.resolve(w, b)
        .unwrap_or_else(|e| panic!("{} {white} {black}: {e}", notation::write(game)))
}

/// The error of an illegal step.
pub fn error(game: &SyncGame, white: &str, black: &str) -> String {
    let w = token(game, Color::White, white);
    let b = token(game, Color::Black, black);
    game.resolve(w, b).expect_err("illegal").to_string()
}

pub fn fen(game: &SyncGame) -> String {
    notation::write(game)
}

pub fn board(game: &SyncGame) -> String {
    game.position().board_fen()
}

pub fn has(events: &[Event], wanted: &Event) -> bool {
    events.contains(wanted)
}
