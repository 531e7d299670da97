//! Logs written by an earlier release (`tests/data/logs/`, see its
//! README) still read, replay, verify and write back byte for byte: the
//! stored rows as the server keeps them and the public log as it hands
//! it out.

use std::path::{Path, PathBuf};

use ed25519_dalek::VerifyingKey;
use serde_json::{Map, Value};
use tempo_host::chain::{unhex, verify_log};
use tempo_host::{Body, EndReason, EndResult, Entry, HostedGame, Sealed};

/// The public key of the fixtures' server key (seed `[0x42; 32]`).
const SERVER_KEY: &str = "2152f8d19b791d24453242e15f2eab6cb7cffa7b6a5ed30097960e069881db12";

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/logs")
}

/// The games of `index.tsv`: name, result and reason (`unterminated`
/// while running).
fn index() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(data().join("index.tsv")).expect("the index");
    let games: Vec<_> = text
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            (fields[0].into(), fields[2].into(), fields[3].into())
        })
        .collect();
    assert!(games.len() >= 36, "{} games", games.len());
    games
}

/// The reason a stored name stands for: its name now, or (the orthodox
/// rule ends, written by `Debug` formatting then) the earlier spelling.
fn reason(stored: &str) -> (EndReason, bool) {
    let legacy = match stored {
        "insufficientmaterial" => EndReason::InsufficientMaterial,
        "threefoldrepetition" => EndReason::Repetition,
        "fivefoldrepetition" => EndReason::FivefoldRepetition,
        "fiftymoves" => EndReason::FiftyMoves,
        "seventyfivemoves" => EndReason::SeventyFiveMoves,
        name => return (name.parse().expect("a reason's name"), false),
    };
    (legacy, true)
}

fn text_field<'a>(row: &'a Map<String, Value>, name: &str) -> &'a str {
    row[name].as_str().unwrap_or_else(|| panic!("{name}"))
}

/// One stored row as an entry; its body and sealed choice must write back
/// as the very text stored.
fn entry(game: &str, line: &str) -> Entry {
    let Value::Object(row) = serde_json::from_str(line).expect("a row") else {
        panic!("{game}: a row is an object");
    };
    let body_text = text_field(&row, "body");
    let body: Body =
        serde_json::from_str(body_text).unwrap_or_else(|e| panic!("{game}: {body_text}: {e}"));
    assert_eq!(serde_json::to_string(&body).unwrap(), body_text, "{game}");
    let sealed = row["sealed"].as_str().map(|text| {
        let sealed: Sealed =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("{game}: {text}: {e}"));
        assert_eq!(serde_json::to_string(&sealed).unwrap(), text, "{game}");
        sealed
    });
    Entry {
        seq: row["seq"].as_u64().unwrap(),
        prev: unhex::<32>(text_field(&row, "prev")).unwrap(),
        hash: unhex::<32>(text_field(&row, "hash")).unwrap(),
        at: row["at"].as_u64().unwrap(),
        body,
        sealed,
    }
}

/// `e2e4`, `xd8d5`, `e7e8q`: a UCI move, not SAN.
fn is_uci(token: &str) -> bool {
    let t = token.strip_prefix('x').unwrap_or(token).as_bytes();
    t.len() >= 4
        && (b'a'..=b'h').contains(&t[0])
        && (b'1'..=b'8').contains(&t[1])
        && (b'a'..=b'h').contains(&t[2])
        && (b'1'..=b'8').contains(&t[3])
}

#[test]
fn every_stored_log_replays_and_writes_back_byte_for_byte() {
    let key = VerifyingKey::from_bytes(&unhex::<32>(SERVER_KEY).unwrap()).unwrap();
    for (name, result, reason) in index() {
        let read = |ext: &str| {
            std::fs::read_to_string(data().join(format!("{name}.{ext}.ndjson")))
                .unwrap_or_else(|e| panic!("{name}.{ext}: {e}"))
        };
        let entries: Vec<Entry> = read("rows").lines().map(|l| entry(&name, l)).collect();
        let game = HostedGame::replay(&entries).unwrap_or_else(|e| panic!("{name}: {e}"));
        let last = entries.last().unwrap();
        // The log keeps its UCI pair record; the game shows it in SAN.
        let state = game.state(tempo_host::view::Audience::Public, last.at);
        for line in state["record"].as_array().unwrap() {
            let line = line.as_str().unwrap();
            let moves = line.split('{').next().unwrap();
            assert!(!moves.split_whitespace().any(is_uci), "{name}: {line}");
        }
        assert_eq!(game.head(), (last.seq, last.hash), "{name}");
        match (game.ending(), &last.body) {
            (None, _) => assert_eq!(reason, "unterminated", "{name}"),
            (Some(ending), Body::End(end)) => {
                let (stored, legacy) = self::reason(&reason);
                let read: EndResult = result.parse().unwrap();
                assert_eq!(ending, (read, stored), "{name}");
                assert_eq!(end.is_legacy(), legacy, "{name}");
                assert_eq!(game.end(), Some((result.as_str(), stored.name())), "{name}");
            }
            (Some(_), body) => panic!("{name}: over, but the last entry is {body:?}"),
        }

        let log = read("log");
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), entries.len(), "{name}");
        for (entry, line) in entries.iter().zip(&lines) {
            let mut public = entry.public();
            if entry.seq == last.seq {
                // The handed-out log signs its head on the last line.
                let Value::Object(stored) = serde_json::from_str(line).unwrap() else {
                    panic!("{name}: a log line is an object");
                };
                public.insert("signature".into(), stored["signature"].clone());
            }
            assert_eq!(&Value::Object(public).to_string(), line, "{name}");
        }
        let head = verify_log(&log, Some(&key)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((head.seq, head.signed), (last.seq, true), "{name}");
    }
}

#[test]
fn a_new_game_names_its_end_by_the_one_name() {
    use tempo_chess::Color;
    use tempo_host::{Command, GameSpec, Header, Variant};
    // The game of `standard-insufficient-material`, played again.
    let spec = GameSpec {
        variant: Variant::Standard,
        fen: Some("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1".into()),
        ..GameSpec::default()
    };
    let header = Header::new("g1", &spec, "anna", "ben").unwrap();
    let (mut game, _) = HostedGame::create(header, 1_000).unwrap();
    let play = Command::Play {
        color: Color::White,
        choice: "e1d2".into(),
    };
    let entries = game.handle(play, 2_000, [0; 32]).unwrap();
    let end = entries.last().unwrap().public_line();
    assert!(
        end.contains(r#""reason":"insufficient-material""#)
            && end.contains(r#""result":"1/2-1/2""#),
        "{end}"
    );
    assert_eq!(
        game.ending(),
        Some((
            EndResult::Decided(tempo_chess::Outcome::Draw),
            EndReason::InsufficientMaterial
        ))
    );
}
