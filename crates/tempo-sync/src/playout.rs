//! Random legal play: random choices, random complete games (for tests,
//! benchmarks and `tempo sync random-games`), and states sampled from
//! random games. Seeded and reproducible.

use rand::{Rng, RngExt};
use tempo_chess::Color;

use crate::event::Event;
use crate::game::{Choice, SyncGame};
use crate::outcome::{EndReason, Result as GameResult};
use crate::record::write_step;
use crate::rules::Rules;

/// A uniformly random choice of `color` among [`SyncGame::choices`]
/// (`None` if nothing is to be chosen).
pub fn random_choice<R: Rng + ?Sized>(
    game: &SyncGame,
    color: Color,
    rng: &mut R,
) -> Option<Choice> {
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
pub fn random_game<R: Rng + ?Sized>(
    start: &SyncGame,
    rng: &mut R,
    keep_record: bool,
) -> RandomGame {
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

/// `count` states at the start of a pair, taken from random playouts
/// (every state of each game, orthodox start and Chess960 alternating),
/// for benchmarks.
pub fn sample_pair_states(rules: Rules, count: usize, seed: u64) -> Vec<SyncGame> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut game_index = 0u16;
    while out.len() < count {
        let mut game = if game_index.is_multiple_of(2) {
            SyncGame::new(rules)
        } else {
            SyncGame::chess960(rules, game_index % 960).expect("0..960")
        };
        game_index = game_index.wrapping_add(1);
        while !game.is_over() && out.len() < count {
            if game.phase().is_pair() {
                out.push(game.clone());
            }
            let white = random_choice(&game, Color::White, &mut rng);
            let black = random_choice(&game, Color::Black, &mut rng);
            game = game.resolve(white, black).expect("legal").0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use tempo_chess::{Color, MoveList, MoveSet, PausedInCheck};

    use super::sample_pair_states;
    use crate::{Rules, Variant};

    /// The one-pass generation of both lists (the path the trace digests
    /// pin) gives each player's
    /// choices exactly (same moves, same order) on playout states, with
    /// their checks, pauses and en-passant squares.
    #[test]
    fn both_lists_in_one_pass_equal_each_players_moves() {
        let (mut white, mut black) = (MoveList::new(), MoveList::new());
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            for game in sample_pair_states(Rules::new(variant), 3000, 17) {
                game.position()
                    .legal_moves_both_into(&mut white, &mut black);
                assert_eq!(&white[..], &game.legal_moves(Color::White)[..]);
                assert_eq!(&black[..], &game.legal_moves(Color::Black)[..]);
            }
        }
    }

    /// The sets of both players' moves hold each player's choices
    /// exactly (same moves, same order, `get` agreeing with the order) on
    /// playout states, with their checks, pauses and en-passant squares.
    #[test]
    fn both_sets_in_one_pass_equal_each_players_moves() {
        let (mut white, mut black) = (MoveSet::new(), MoveSet::new());
        for variant in [Variant::Synchronschach, Variant::Fairschach] {
            for game in sample_pair_states(Rules::new(variant), 3000, 19) {
                game.position()
                    .legal_move_sets_into(&mut white, &mut black, PausedInCheck::Stay);
                for (set, color) in [(&white, Color::White), (&black, Color::Black)] {
                    let list = game.legal_moves(color);
                    assert_eq!(set.len(), list.len());
                    assert!(set.iter().eq(list.iter().copied()));
                    for (i, &mv) in list.iter().enumerate() {
                        assert_eq!(set.get(i), Some(mv));
                    }
                }
            }
        }
    }
}
