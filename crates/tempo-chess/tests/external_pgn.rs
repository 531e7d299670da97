//! Real PGN files written by others (`tests/data/external/`, sources in its
//! `SOURCES.md`) are read as python-chess reads them: every game python-chess
//! accepts is accepted, with the same main line. `python-chess.tsv` holds
//! python-chess's reading (made by `scripts/pgn_oracle.py`); the few
//! disagreements judged to be quirks of the data or of python-chess are listed
//! with a reason in `KNOWN-DIFFERENCES.tsv`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use tempo_chess::pgn::Reader;
use tempo_chess::uci;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/external")
}

/// (status, moves, digest) per game, as the oracle file writes it.
type Reading = (bool, usize, String);

fn tempo_reading(path: &Path) -> Vec<Reading> {
    let file = fs::File::open(path).expect("readable");
    Reader::new(BufReader::new(file))
        .map(|game| match game {
            Ok(game) => {
                let mut pos = game.start.clone();
                let mut moves = Vec::new();
                for m in &game.moves {
                    moves.push(uci::write(&pos, m.mv));
                    pos.play(m.mv);
                }
                let digest = hex(&Sha256::digest(moves.join(" ").as_bytes()));
                (true, moves.len(), digest)
            }
            Err(_) => (false, 0, String::new()),
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn oracle() -> BTreeMap<String, Vec<Reading>> {
    let text = fs::read_to_string(data_dir().join("python-chess.tsv")).expect("oracle");
    let mut files: BTreeMap<String, Vec<Reading>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let game = files.entry(f[0].to_string()).or_default();
        assert_eq!(game.len() + 1, f[1].parse::<usize>().unwrap(), "{line}");
        game.push((f[2] == "ok", f[3].parse().unwrap(), f[4].to_string()));
    }
    files
}

/// (file, game number or "count") pairs whose disagreement is explained.
fn known_differences() -> BTreeSet<(String, String)> {
    let text = fs::read_to_string(data_dir().join("KNOWN-DIFFERENCES.tsv")).expect("known");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "file, game or 'count', reason: {l}");
            (f[0].to_string(), f[1].to_string())
        })
        .collect()
}

/// Every game python-chess accepts with at least one move is among tempo's
/// games of the same file, with the same main line. Games are matched by
/// their moves, not their number: the readers split some malformed files
/// differently (python-chess also counts stray text between games as empty
/// games), which `KNOWN-DIFFERENCES.tsv` explains where it matters.
#[test]
fn every_game_python_chess_accepts_is_read_with_the_same_moves() {
    let known = known_differences();
    let mut failures = Vec::new();
    let mut compared = 0;
    for (file, expected) in oracle() {
        let actual = tempo_reading(&data_dir().join(&file));
        let mut read: Vec<&Reading> = actual.iter().filter(|r| r.0).collect();
        for (i, want) in expected.iter().enumerate() {
            let number = (i + 1).to_string();
            if !want.0 || want.1 == 0 || known.contains(&(file.clone(), number.clone())) {
                continue;
            }
            compared += 1;
            match read.iter().position(|got| *got == want) {
                Some(found) => {
                    read.remove(found);
                }
                None => failures.push(format!(
                    "{file} game {number}: python-chess reads {} moves; tempo reads no game with them",
                    want.1
                )),
            }
        }
    }
    assert!(compared > 7900, "only {compared} games compared");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Both readers find the same number of games in every file, except where
/// `KNOWN-DIFFERENCES.tsv` explains (line `FILE<TAB>count`) why the game
/// boundaries differ.
#[test]
fn every_file_splits_into_as_many_games_as_python_chess_reads() {
    let known = known_differences();
    let mut failures = Vec::new();
    for (file, expected) in oracle() {
        if known.contains(&(file.clone(), "count".to_string())) {
            continue;
        }
        let actual = tempo_reading(&data_dir().join(&file));
        if actual.len() != expected.len() {
            failures.push(format!(
                "{file}: python-chess reads {} games, tempo {}",
                expected.len(),
                actual.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} files split differently:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
