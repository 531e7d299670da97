//! The generator's tournaments pass the checker: written as TRF, read back,
//! every round re-paired from the file gives the recorded pairs and colours.

use std::collections::BTreeSet;

use tempo_chess::Color;
use tempo_tourney::dutch::{GeneratorConfig, generate, input_for_round, pair};
use tempo_tourney::{ResultCode, Tournament};

fn recorded(t: &Tournament, round: u32) -> (BTreeSet<(u32, u32)>, Option<u32>) {
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for p in &t.players {
        let e = p.entry(round).expect("every round has an entry");
        if let (Some(opponent), Some(Color::White)) = (e.opponent, e.colour) {
            pairs.insert((p.id, opponent));
        }
        if e.result == ResultCode::PairingBye {
            bye = Some(p.id);
        }
    }
    (pairs, bye)
}

#[test]
fn generated_tournaments_pass_the_check() {
    for (seed, players, rounds) in [(1, 17, 7), (2, 30, 9), (3, 64, 7), (4, 11, 5)] {
        let cfg = GeneratorConfig {
            players,
            rounds,
            seed,
            draw_rate: 0.35,
            forfeit_rate: 0.05,
            bye_rate: 0.05,
        };
        let generated = generate(&cfg).expect("a valid pairing every round");
        let text = generated.to_trf().unwrap();
        let t = Tournament::from_trf_str(&text).unwrap();
        assert_eq!(t.total_rounds, Some(rounds));
        assert_eq!(t.paired_rounds(), rounds);
        for round in 1..=rounds {
            let ours = pair(&input_for_round(&t, round).unwrap()).unwrap();
            let (pairs, bye) = recorded(&t, round);
            let ours_set: BTreeSet<(u32, u32)> = ours.boards.iter().copied().collect();
            assert_eq!(ours_set, pairs, "seed {seed} round {round}");
            assert_eq!(ours.bye, bye, "seed {seed} round {round}");
        }
    }
}

#[test]
fn same_seed_same_tournament() {
    let cfg = GeneratorConfig::default();
    let a = generate(&cfg).unwrap().to_trf().unwrap();
    let b = generate(&cfg).unwrap().to_trf().unwrap();
    assert_eq!(a, b);
}
