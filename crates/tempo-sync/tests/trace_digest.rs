//! The rules' exact behaviour over many random steps, pinned by digests:
//! every step's events, the extended notation and the repetition history
//! of the new state, for seeded random games of both variants (and other
//! Fairschach option sets), plus the unchecked search path (`Node::play`
//! into a bare state and into a node, whose moves of the next pair are
//! checked against the new state's) on playout states.
//!
//! Speed work on the engine must leave these digests unchanged. A change
//! of the rules on purpose updates the golden file:
//! `TEMPO_BLESS=1 cargo test -p tempo-sync --test trace_digest`, and the
//! commit says why the behaviour changed.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tempo_chess::{Color, MoveList};
use tempo_sync::playout::{random_choice, sample_pair_states};
use tempo_sync::{Choice, Node, Rules, SyncGame, Variant, notation};
use tempo_testkit::PickRng;

const GOLDEN: &str = "tests/data/trace_digests.txt";

/// FNV-1a, 64 bits: stable across Rust versions and platforms.
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, text: &str) {
        for byte in text.bytes().chain([b'\n']) {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn add_state(digest: &mut Digest, game: &SyncGame) {
    digest.add(&notation::write(game));
    digest.add(&format!("{:?} {:?}", game.phase(), game.history()));
}

/// Random games from the orthodox start and Chess960 positions.
fn games_digest(rules: Rules, games: usize, seed: u64) -> (String, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut digest = Digest::new();
    let mut steps = 0;
    for i in 0..games {
        let mut game = if i % 2 == 0 {
            SyncGame::new(rules)
        } else {
            SyncGame::chess960(rules, (i * 7 % 960) as u16).unwrap()
        };
        add_state(&mut digest, &game);
        while !game.is_over() {
            let white = random_choice(&game, Color::White, &mut rng);
            let black = random_choice(&game, Color::Black, &mut rng);
            let (next, events) = game.resolve(white, black).expect("legal choices");
            digest.add(&format!("{white:?} {black:?} {events:?}"));
            add_state(&mut digest, &next);
            game = next;
            steps += 1;
        }
    }
    (format!("{:016x}", digest.0), steps)
}

/// The search handle ([`Node`]), on playout states: both lists in one
/// pass, picks, each pair played unchecked into a bare state and into a
/// node, whose moves must be the new state's.
fn fast_path_digest(rules: Rules, states: usize, seed: u64) -> String {
    let mut digest = Digest::new();
    let mut rng = PickRng::new(seed);
    let (mut white, mut black) = (MoveList::new(), MoveList::new());
    let mut events = Vec::new();
    let (mut node, mut child) = (Node::default(), Node::default());
    let mut leaf = SyncGame::new(rules);
    for game in sample_pair_states(rules, states, seed) {
        game.position()
            .legal_moves_both_into(&mut white, &mut black);
        node.set(&game);
        for k in 0..3 {
            let (i, j) = rng.pick2(white.len(), black.len());
            assert_eq!(node.pair(i, j), Some((white[i], black[j])));
            let (w, b) = (Some(Choice::Move(white[i])), Some(Choice::Move(black[j])));
            let next = if k == 1 {
                node.play(w, b, &mut child, &mut events);
                if child.game().phase().is_pair() {
                    for color in Color::ALL {
                        let set = child.moves(color);
                        assert!(
                            set.iter()
                                .eq(child.game().legal_moves(color).iter().copied())
                        );
                    }
                }
                child.game()
            } else {
                node.play(w, b, &mut leaf, &mut events);
                &leaf
            };
            digest.add(&format!("{} {} {events:?}", white[i], black[j]));
            add_state(&mut digest, next);
        }
    }
    format!("{:016x}", digest.0)
}

fn option_rules(variant: Variant, options: &str) -> Rules {
    let mut rules = Rules::new(variant);
    rules.apply_options(options).unwrap();
    rules
}

fn compute() -> BTreeMap<String, String> {
    let configs = [
        ("synchronschach", Rules::new(Variant::Synchronschach)),
        ("fairschach", Rules::new(Variant::Fairschach)),
        (
            "fairschach same-square=both pause=capturable",
            option_rules(Variant::Fairschach, "same-square=both pause=capturable"),
        ),
        (
            "fairschach same-square=weaker-stays pause=none fsr8=off orthodox-after=12",
            option_rules(
                Variant::Fairschach,
                "same-square=weaker-stays pause=none fsr8=off orthodox-after=12",
            ),
        ),
    ];
    let mut out = BTreeMap::new();
    for (i, (name, rules)) in configs.into_iter().enumerate() {
        let (games, steps) = games_digest(rules, 150, 100 + i as u64);
        assert!(steps > 5_000, "{name}: only {steps} steps");
        out.insert(format!("games {name}"), games);
        out.insert(
            format!("fast-path {name}"),
            fast_path_digest(rules, 1500, 200 + i as u64),
        );
    }
    out
}

#[test]
fn random_steps_match_the_golden_digests() {
    let computed = compute();
    let mut text = String::new();
    for (name, digest) in &computed {
        writeln!(text, "{digest} {name}").unwrap();
    }
    if std::env::var_os("TEMPO_BLESS").is_some() {
        std::fs::create_dir_all("tests/data").unwrap();
        std::fs::write(GOLDEN, &text).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(GOLDEN)
        .unwrap_or_else(|e| panic!("{GOLDEN}: {e} (create it with TEMPO_BLESS=1)"));
    let expected: BTreeMap<String, String> = golden
        .lines()
        .filter_map(|line| line.split_once(' '))
        .map(|(digest, name)| (name.to_string(), digest.to_string()))
        .collect();
    assert_eq!(computed, expected, "the engine's behaviour changed");
}
