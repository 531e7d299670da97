//! Random legal play: random choices, random complete games (for tests,
//! the benchmark and `tempo sync random-games`). Seeded and reproducible.

use rand::{Rng, RngExt};
use tempo_chess::Color;

use crate::event::Event;
use crate::game::{Choice, SyncGame};
use crate::outcome::{EndReason, Result as GameResult};
use crate::record::write_step;

/// A uniformly random choice of `color` among [`SyncGame::choices`]
/// (`None` if nothing is to be chosen).
pub fn random_choice<R: Rng + ?Sized>(game: &SyncGame, color: Color, rng: &mut R) -> Option<Choice> {
    let choices = game.choices(color);
    if choices.is_empty() {
        return None;
    }
    Some(choices[rng.random_range(0..choices.len())])
}

/// A finished random game.
#[derive(Debug, Clone)]
pub struct RandomGame {
    pub end: SyncGame,
    pub result: GameResult,
    pub reason: EndReason,
    /// Steps resolved (pairs, exchange steps, orthodox moves).
    pub steps: usize,
    /// Pairs completed (the pair number at the end minus one).
    pub pairs: u32,
    /// The record, one line per step (if asked for).
    pub record: Vec<String>,
}

/// Plays random choices from `start` until the game ends. Termination is
/// guaranteed by the rules (50-move rule, finite exchange phases).
pub fn random_game<R: Rng + ?Sized>(start: &SyncGame, rng: &mut R, keep_record: bool) -> RandomGame {
    let mut game = start.clone();
    let mut steps = 0;
    let mut record = Vec::new();
    loop {
        if let Some((result, reason)) = game.result() {
            return RandomGame {
                pairs: game.pair_number().saturating_sub(start.pair_number()),
                end: game,
                result,
                reason,
                steps,
                record,
            };
        }
        let white = random_choice(&game, Color::White, rng);
        let black = random_choice(&game, Color::Black, rng);
        let (next, events): (SyncGame, Vec<Event>) = game
            .resolve(white, black)
            .expect("random choices are legal choices");
        if keep_record {
            record.push(write_step(&game, white, black, &events));
        }
        game = next;
        steps += 1;
    }
}
