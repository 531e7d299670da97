//! Random complete games: no panic, every game ends with a legal result,
//! and every record replays to the same final state.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tempo_sync::playout::random_game;
use tempo_sync::{Phase, Rules, SyncGame, Variant, notation, record};

fn run(rules: Rules, games: usize, seed: u64, check_replay_every: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..games {
        let start = if i.is_multiple_of(2) {
            SyncGame::new(rules)
        } else {
            SyncGame::chess960(rules, (i % 960) as u16).unwrap()
        };
        let keep = i % check_replay_every == 0;
        let game = random_game(&start, &mut rng, keep);
        assert!(matches!(game.end.phase(), Phase::GameOver { .. }));
        if keep {
            let text = game.record.join("\n");
            let (end, _) =
                record::replay(&start, &text).unwrap_or_else(|e| panic!("game {i}: {e}\n{text}"));
            assert_eq!(
                notation::write(&end),
                notation::write(&game.end),
                "game {i}:\n{text}"
            );
        }
    }
}

#[test]
fn synchronschach_random_games() {
    run(Rules::new(Variant::Synchronschach), 10_000, 1, 50);
}

#[test]
fn fairschach_random_games() {
    run(Rules::new(Variant::Fairschach), 10_000, 2, 50);
}

/// Other rule options: fewer games, same checks.
#[test]
fn fairschach_option_sets() {
    for (i, options) in [
        "same-square=both pause=capturable",
        "same-square=weaker-stays pause=none fsr8=off orthodox-after=12",
    ]
    .into_iter()
    .enumerate()
    {
        let mut rules = Rules::new(Variant::Fairschach);
        rules.apply_options(options).unwrap();
        run(rules, 1_000, 30 + i as u64, 50);
    }
}
