//! Acceptance: every round of the Dutch corpus (150 tournaments paired by
//! bbpPairings v6.0.0, FIDE Dutch 2026) is re-paired identically: pairs,
//! colours and board order.
//!
//! The default run checks a deterministic subset (every tournament's first
//! rounds and all rounds of the smaller tournaments); the full corpus is
//! `cargo test -p tempo-tourney --release --test dutch_corpus -- --ignored`
//! (or `tempo check --system dutch --corpus DIR`).

use std::path::Path;

use tempo_chess::Color;
use tempo_tourney::Tournament;
use tempo_tourney::dutch::{DutchPairing, input_for_round, pair};

struct Case {
    name: String,
    players: usize,
    rounds: u32,
    initial: Color,
}

fn data() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/swiss"))
}

fn manifest() -> Vec<Case> {
    let text = std::fs::read_to_string(data().join("manifest.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (file, players, rounds, initial) = (
        col("file"),
        col("players"),
        col("rounds"),
        col("initial_color"),
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let name = Path::new(f[file])
                .file_stem()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            Case {
                name,
                players: f[players].parse().unwrap(),
                rounds: f[rounds].parse().unwrap(),
                initial: if f[initial] == "w" {
                    Color::White
                } else {
                    Color::Black
                },
            }
        })
        .collect()
}

fn render(p: &DutchPairing) -> String {
    let mut out = format!("{}\n", p.boards.len() + p.bye.is_some() as usize);
    for (w, b) in &p.boards {
        out += &format!("{w} {b}\n");
    }
    if let Some(b) = p.bye {
        out += &format!("{b} 0\n");
    }
    out
}

/// Pair the given rounds; returns the names of rounds that differ.
fn check(case: &Case, rounds: impl Iterator<Item = u32>) -> Vec<String> {
    let bytes = std::fs::read(data().join("trf").join(format!("{}.trf", case.name))).unwrap();
    let mut t = Tournament::from_trf_bytes(&bytes).unwrap();
    t.total_rounds = Some(case.rounds);
    t.initial_colour = Some(case.initial);
    let mut bad = Vec::new();
    for k in rounds {
        let expected = std::fs::read_to_string(
            data()
                .join("pairs")
                .join(&case.name)
                .join(format!("{}.r{k:02}.pairs", case.name)),
        )
        .unwrap()
        .replace("\r\n", "\n");
        let input = input_for_round(&t, k).unwrap();
        let got = pair(&input)
            .map(|p| render(&p))
            .unwrap_or_else(|e| format!("error: {e}\n"));
        if got.trim() != expected.trim() {
            if std::env::var("DUTCH_VERBOSE").is_ok() {
                eprintln!(
                    "{} round {k}\n got:\n{got}\n expected:\n{expected}",
                    case.name
                );
            }
            bad.push(format!("{} round {k}", case.name));
        }
    }
    bad
}

#[test]
fn corpus_subset_is_identical() {
    let mut bad = Vec::new();
    let mut total = 0;
    for case in manifest() {
        let last = if case.players <= 60 { case.rounds } else { 2 };
        total += last;
        bad.extend(check(&case, 1..=last));
    }
    assert!(
        bad.is_empty(),
        "{} of {total} rounds differ: {bad:?}",
        bad.len()
    );
}

/// Rounds where tempo and the reference differ, with the analysis so far.
///
/// Empty: every round of the corpus is identical. The last one to go was
/// `t158_n171_r13` round 13, where 163 and 170 (both 3.0) float into the
/// last bracket (2.5) and one of them gets the PAB. C9 (the PAB receiver
/// has as few unplayed games as possible) decides it before the float
/// criteria: 163 has a forfeit, 170 none, so 170 gets the PAB. C9 applies
/// in every bracket whose downfloater becomes the PAB receiver, which
/// includes a bracket below the PAB score whose lower players all pair
/// among themselves, not only the bracket of the PAB score.
const KNOWN_DIFFERENCES: &[&str] = &[];

#[test]
#[ignore = "full corpus: run with --release -- --ignored"]
fn corpus_full_is_identical() {
    let mut bad = Vec::new();
    let mut total = 0;
    let only = std::env::var("DUTCH_ONLY").ok();
    for case in manifest() {
        if only.as_deref().is_some_and(|o| !case.name.contains(o)) {
            continue;
        }
        total += case.rounds;
        let b = check(&case, 1..=case.rounds);
        for x in &b {
            eprintln!("DIFF {x}");
        }
        bad.extend(b);
    }
    eprintln!("{} of {total} rounds identical", total as usize - bad.len());
    let unexpected: Vec<&String> = bad
        .iter()
        .filter(|b| !KNOWN_DIFFERENCES.contains(&b.as_str()))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} of {total} rounds differ: {unexpected:?}",
        unexpected.len()
    );
    if only.is_none() {
        assert_eq!(
            bad.len(),
            KNOWN_DIFFERENCES.len(),
            "a known difference is gone: update the list"
        );
    }
}
