//! Helpers for the rule scenarios: states from notation, steps from
//! record tokens.

#![allow(dead_code)]

use std::ops::Deref;

use tempo_chess::Color;
use tempo_sync::{
    Choice, Event, Expected, Resolution, Rules, SyncError, SyncGame, notation, record,
};

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

/// A host's hidden commits over the pure step ([`SyncGame::step`]), as a
/// host keeps them: each choice waits until every expected one is in.
pub struct Table {
    game: SyncGame,
    committed: [Option<Choice>; 2],
}

/// Why [`Table::submit`] refused a choice.
#[derive(Debug)]
pub enum Refused {
    AlreadyCommitted,
    Sync(SyncError),
}

impl Table {
    pub fn new(game: SyncGame) -> Table {
        Table {
            game,
            committed: [None, None],
        }
    }

    pub fn has_committed(&self, color: Color) -> bool {
        self.committed[color.index()].is_some()
    }

    /// Commits `color`'s choice (checked now); the step is resolved once
    /// every expected choice is in.
    pub fn submit(&mut self, color: Color, choice: Choice) -> Result<Option<Resolution>, Refused> {
        if self.has_committed(color) {
            return Err(Refused::AlreadyCommitted);
        }
        let choice = self
            .game
            .check_choice(color, choice)
            .map_err(Refused::Sync)?;
        self.committed[color.index()] = Some(choice);
        let ready = Color::ALL
            .iter()
            .all(|&c| self.game.expected(c) == Expected::Nothing || self.has_committed(c));
        if !ready {
            return Ok(None);
        }
        let [white, black] = std::mem::take(&mut self.committed);
        let (next, resolution) = self.game.step(white, black).map_err(Refused::Sync)?;
        self.game = next;
        Ok(Some(resolution))
    }
}

impl Deref for Table {
    type Target = SyncGame;

    fn deref(&self) -> &SyncGame {
        &self.game
    }
}
