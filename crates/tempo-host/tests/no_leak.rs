//! No hidden move leaves the game before its reveal: whatever the first
//! committer of a step chose, everything the opponent and the public can
//! see until the reveal is the same, but for the commitment and the hashes
//! that cover it (which hide the choice behind a 32-byte nonce). Also: a
//! log replays to the same game and verifies.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use tempo_chess::Color;
use tempo_host::chain::verify_log;
use tempo_host::view::Audience;
use tempo_host::{Command, Entry, GameSpec, Header, HostedGame, Variant};

/// `value` with the fields that carry the commitment or hashes over it
/// blanked.
fn masked(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        for key in ["commitment", "hash", "head"] {
            if map.contains_key(key) {
                map.insert(key.into(), Value::Null);
            }
        }
        for (_, v) in map.iter_mut() {
            *v = masked(v.take());
        }
    }
    value
}

fn commit(game: &mut HostedGame, color: Color, choice: &str, at: u64, nonce: u8) -> Vec<Entry> {
    game.handle(
        Command::Play {
            color,
            choice: choice.into(),
        },
        at,
        [nonce; 32],
    )
    .expect("a legal choice")
}

fn check_game(variant: Variant, clock: Option<&str>, seed: u64) {
    let spec = GameSpec {
        variant,
        clock: clock.map(str::to_string),
        chess960: seed.is_multiple_of(3).then_some((seed % 960) as u16),
        ..GameSpec::default()
    };
    let header = Header::new("leak", &spec, "w", "b").expect("valid");
    let (mut game, first) = HostedGame::create(header, 0).expect("a game");
    let mut log = vec![first];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut at = 0u64;
    let mut forks = 0;
    for _ in 0..60 {
        if game.end().is_some() {
            break;
        }
        at += rng.random_range(1..2_000);
        log.extend(game.tick(at).expect("ticks"));
        if game.end().is_some() {
            break;
        }
        let expected: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&c| !game.choices(c).is_empty())
            .collect();
        let first_color = expected[rng.random_range(0..expected.len())];
        let choices = game.choices(first_color);
        let pick = rng.random_range(0..choices.len());
        let nonce = rng.random::<u8>();
        if expected.len() == 2 && choices.len() > 1 {
            let other_pick = (pick + 1 + rng.random_range(0..choices.len() - 1)) % choices.len();
            let mut fork = game.clone();
            let a = commit(&mut game, first_color, &choices[pick], at, nonce);
            let b = commit(&mut fork, first_color, &choices[other_pick], at, nonce);
            assert_eq!(a.len(), 1, "a lone commit is one entry");
            assert_eq!(
                masked(Value::Object(a[0].public())),
                masked(Value::Object(b[0].public()))
            );
            assert_eq!(a[0].public_line().len(), b[0].public_line().len());
            let later = at + rng.random_range(0..500);
            for audience in [Audience::Public, Audience::Player(!first_color)] {
                assert_eq!(
                    masked(game.full(audience, later)),
                    masked(fork.full(audience, later))
                );
            }
            assert_eq!(game.next_deadline(), fork.next_deadline());
            assert_ne!(
                game.state(Audience::Player(first_color), later)["mine"],
                fork.state(Audience::Player(first_color), later)["mine"]
            );
            log.extend(a);
            forks += 1;
            at += rng.random_range(1..2_000);
            log.extend(game.tick(at).expect("ticks"));
            if game.end().is_some() {
                break;
            }
            let second = !first_color;
            let options = game.choices(second);
            let choice = options[rng.random_range(0..options.len())].clone();
            log.extend(commit(&mut game, second, &choice, at, rng.random()));
        } else {
            log.extend(commit(&mut game, first_color, &choices[pick], at, nonce));
        }
    }
    assert!(forks > 0 || game.end().is_some());
    let text: String = log.iter().map(|e| e.public_line() + "\n").collect();
    verify_log(&text, None).expect("the log verifies");
    let replayed = HostedGame::replay(&log).expect("the log replays");
    assert_eq!(replayed.head(), game.head());
    assert_eq!(
        replayed.full(Audience::Public, at),
        game.full(Audience::Public, at)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_hidden_choice_shows_before_its_reveal(
        seed in any::<u64>(),
        fair in any::<bool>(),
        clock in prop::sample::select(vec![None, Some("60+1"), Some("40/120+2:60"), Some("1/86400")]),
    ) {
        let variant = if fair { Variant::Fairschach } else { Variant::Synchronschach };
        check_game(variant, clock, seed);
    }
}
