//! The source's worked Keizer example (J. H. Keizer's documentation, as
//! retold by J. Kehr): both rankings, the round-2 pairing, and method B.

use std::collections::BTreeSet;

use tempo_tourney::Outcome::*;
use tempo_tourney::keizer::{Board, ColourTie, KeizerSettings, Method, Score, Season};

const NAMES: [&str; 10] = [
    "Johnson", "Petersen", "Baker", "Butcher", "Carter", "Harrison", "Smith", "Higgins", "White",
    "Brown",
];

fn id(name: &str) -> u32 {
    NAMES.iter().position(|n| *n == name).unwrap() as u32 + 1
}

fn season_after_round_1() -> Season {
    let mut s = Season::new(NAMES.iter().enumerate().map(|(i, n)| (i as u32 + 1, *n)));
    s.add_round(&[
        (id("Johnson"), id("Petersen"), Win),
        (id("Baker"), id("Butcher"), Draw),
        (id("Carter"), id("Harrison"), Loss),
        (id("Smith"), id("Higgins"), Draw),
        (id("White"), id("Brown"), Loss),
    ])
    .unwrap();
    s
}

fn season_after_round_2() -> Season {
    let mut s = season_after_round_1();
    s.add_round(&[
        (id("Harrison"), id("Johnson"), Win),
        (id("Brown"), id("Baker"), Win),
        (id("Butcher"), id("Smith"), Draw),
        (id("Higgins"), id("Petersen"), Loss),
        (id("Carter"), id("White"), Draw),
    ])
    .unwrap();
    s
}

/// `(name, score)` with scores in halves, as printed in the source.
fn table(season: &Season, settings: &KeizerSettings, round: u32) -> Vec<(String, Score)> {
    season
        .ranking(settings, round)
        .unwrap()
        .standings
        .iter()
        .map(|s| (season.name(s.id).unwrap().to_string(), s.score))
        .collect()
}

fn expect(rows: &[(&str, i64)]) -> Vec<(String, Score)> {
    // Scores given in halves.
    rows.iter()
        .map(|&(n, halves)| (n.to_string(), Score::new(halves, 2)))
        .collect()
}

#[test]
fn ranking_after_round_1() {
    let got = table(&season_after_round_1(), &KeizerSettings::default(), 1);
    let want = expect(&[
        ("Johnson", 198),
        ("Harrison", 182),
        ("Brown", 166),
        ("Baker", 143),
        ("Butcher", 142),
        ("Smith", 131),
        ("Higgins", 130),
        ("Petersen", 98),
        ("Carter", 92),
        ("White", 84),
    ]);
    assert_eq!(got, want);
}

#[test]
fn ranking_after_round_2() {
    let season = season_after_round_2();
    let got = table(&season, &KeizerSettings::default(), 2);
    let want = expect(&[
        ("Harrison", 282),
        ("Brown", 272),
        ("Johnson", 186),
        ("Butcher", 184),
        ("Smith", 180),
        ("Petersen", 174),
        ("Baker", 140),
        ("Higgins", 133),
        ("Carter", 125),
        ("White", 124),
    ]);
    assert_eq!(got, want);
    // Petersen is now worth 43 (8th place), as the source explains.
    let r1 = season.ranking(&KeizerSettings::default(), 1).unwrap();
    assert_eq!(r1.standing(id("Petersen")).unwrap().value, 43);
    let r2 = season.ranking(&KeizerSettings::default(), 2).unwrap();
    assert_eq!(r2.standing(id("Petersen")).unwrap().valued_at, 43);
    assert_eq!(r2.standing(id("Harrison")).unwrap().valued_at, 49);
}

#[test]
fn round_2_pairing_is_the_sources() {
    let season = season_after_round_1();
    let all: Vec<u32> = (1..=10).collect();
    let pairing = season
        .pair_next(&KeizerSettings::default(), &all, &|_, _| false)
        .unwrap();
    assert_eq!(pairing.round, 2);
    assert!(pairing.relaxed.is_empty());
    assert_eq!(pairing.bye, None);
    let as_set: BTreeSet<BTreeSet<u32>> = pairing
        .boards
        .iter()
        .map(|b| [b.white, b.black].into_iter().collect())
        .collect();
    let want: BTreeSet<BTreeSet<u32>> = [
        ("Harrison", "Johnson"),
        ("Brown", "Baker"),
        ("Butcher", "Smith"),
        ("Higgins", "Petersen"),
        ("Carter", "White"),
    ]
    .iter()
    .map(|(a, b)| [id(a), id(b)].into_iter().collect())
    .collect();
    assert_eq!(as_set, want);
}

/// With "higher-ranked gets White on equal colours", the colours are the
/// example's too (Higgins and Carter have White on equal counts).
#[test]
fn round_2_colours_with_the_examples_tie_rule() {
    let season = season_after_round_1();
    let settings = KeizerSettings {
        colour_tie: ColourTie::Higher,
        ..KeizerSettings::default()
    };
    let all: Vec<u32> = (1..=10).collect();
    let pairing = season.pair_next(&settings, &all, &|_, _| false).unwrap();
    let want: Vec<Board> = [
        ("Harrison", "Johnson"),
        ("Brown", "Baker"),
        ("Butcher", "Smith"),
        ("Higgins", "Petersen"),
        ("Carter", "White"),
    ]
    .iter()
    .map(|(w, b)| Board {
        white: id(w),
        black: id(b),
    })
    .collect();
    assert_eq!(pairing.boards, want);
    // The source's text (default): equal counts give the lower-ranked White.
    let pairing = season
        .pair_next(&KeizerSettings::default(), &all, &|_, _| false)
        .unwrap();
    assert_eq!(
        pairing.boards[3],
        Board {
            white: id("Petersen"),
            black: id("Higgins")
        }
    );
}

#[test]
fn round_1_pairing_is_the_sources() {
    let season = Season::new(NAMES.iter().enumerate().map(|(i, n)| (i as u32 + 1, *n)));
    let all: Vec<u32> = (1..=10).collect();
    let example = KeizerSettings::preset("example").unwrap();
    let pairing = season.pair_next(&example, &all, &|_, _| false).unwrap();
    let got: Vec<(u32, u32)> = pairing.boards.iter().map(|b| (b.white, b.black)).collect();
    assert_eq!(got, vec![(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)]);
    // The source's text: the weaker player gets White in round 1.
    let pairing = season
        .pair_next(&KeizerSettings::default(), &all, &|_, _| false)
        .unwrap();
    let got: Vec<(u32, u32)> = pairing.boards.iter().map(|b| (b.white, b.black)).collect();
    assert_eq!(got, vec![(2, 1), (4, 3), (6, 5), (8, 7), (10, 9)]);
}

#[test]
fn method_b_after_round_1() {
    let settings = KeizerSettings {
        method: Method::B,
        ..KeizerSettings::default()
    };
    let season = season_after_round_1();
    let ranking = season.ranking(&settings, 1).unwrap();
    assert!(ranking.converged);
    let scores: Vec<Score> = ranking.standings.iter().map(|s| s.score).collect();
    let want: Vec<Score> = [186, 182, 178, 140, 139, 134, 133, 86, 84, 82]
        .iter()
        .map(|&h| Score::new(h, 2))
        .collect();
    assert_eq!(scores, want);
}

#[test]
fn method_c_keeps_the_starting_values() {
    let settings = KeizerSettings {
        method: Method::C,
        ..KeizerSettings::default()
    };
    let season = season_after_round_2();
    let r = season.ranking(&settings, 2).unwrap();
    // Harrison: own 45 + Carter 46 + Johnson 50.
    assert_eq!(r.standing(id("Harrison")).unwrap().score, Score::whole(141));
    // Johnson: own 50 + Petersen 49.
    assert_eq!(r.standing(id("Johnson")).unwrap().score, Score::whole(99));
}
