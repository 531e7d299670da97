//! Writes the stored-log fixtures of `tests/data/logs/` with the hosted
//! game of this commit: one game per way a game ends, in every variant,
//! as the server's stored rows (`*.rows.ndjson`: the `events` table's
//! columns, `body` and `sealed` as the JSON text the server stores) and
//! as the public log that `GET /api/game/{id}/log` hands out and `tempo
//! log verify` reads (`*.log.ndjson`, the last line signed with the key
//! of seed `[0x42; 32]`).
//!
//! Run: `cargo run -p tempo-host --example make_log_fixtures -- DIR`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ed25519_dalek::SigningKey;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tempo_chess::Color;
use tempo_host::chain::{hex, sign_head};
use tempo_host::{
    ArbiterAction, ClockRestore, Command, Entry, GameSpec, Header, HostedGame, Variant,
};
use tempo_sync::{Choice, EndReason, Rules, SyncGame};

/// The first entry's time: 2026-09-21T12:26:40Z.
const T0: u64 = 1_790_000_000_000;

struct Log {
    name: String,
    game: HostedGame,
    entries: Vec<Entry>,
    at: u64,
    nonces: ChaCha8Rng,
}

impl Log {
    fn new(name: &str, spec: GameSpec) -> Log {
        let header = Header::new(name, &spec, "anna", "ben").expect("a valid spec");
        let (game, first) = HostedGame::create(header, T0).expect("a game");
        Log {
            name: name.to_string(),
            game,
            entries: vec![first],
            at: T0,
            nonces: ChaCha8Rng::seed_from_u64(name.len() as u64 * 7919),
        }
    }

    fn command(&mut self, command: Command) -> &mut Log {
        self.at += 1_500;
        let nonce: [u8; 32] = self.nonces.random();
        let entries = self
            .game
            .handle(command.clone(), self.at, nonce)
            .unwrap_or_else(|e| panic!("{}: {command:?}: {e}", self.name));
        self.entries.extend(entries);
        self
    }

    fn play(&mut self, color: Color, choice: &str) -> &mut Log {
        self.command(Command::Play {
            color,
            choice: choice.into(),
        })
    }

    /// Alternating moves from White.
    fn moves(&mut self, moves: &[&str]) -> &mut Log {
        for (i, mv) in moves.iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            self.play(color, mv);
        }
        self
    }

    /// Pairs of simultaneous choices (`..` for none).
    fn pairs(&mut self, pairs: &[(&str, &str)]) -> &mut Log {
        for (white, black) in pairs {
            for (color, choice) in [(Color::White, white), (Color::Black, black)] {
                if *choice != ".." {
                    self.play(color, choice);
                }
            }
        }
        self
    }

    fn arbiter(&mut self, action: ArbiterAction) -> &mut Log {
        self.command(Command::Arbiter {
            arbiter: "clara".into(),
            reason: format!(
                "fixture: {}",
                serde_json::to_value(&action).unwrap()["kind"]
            ),
            action,
        })
    }

    fn tick(&mut self, at: u64) -> &mut Log {
        let entries = self.game.tick(at).expect("settles");
        assert!(!entries.is_empty(), "{}: no flag by {at}", self.name);
        self.entries.extend(entries);
        self
    }

    fn write(&self, dir: &Path, key: &SigningKey) -> (String, String) {
        let end = self.game.end().map(|(r, w)| (r.to_string(), w.to_string()));
        let mut rows = String::new();
        let mut log = String::new();
        let (last, head) = self.game.head();
        for entry in &self.entries {
            let row = json!({
                "seq": entry.seq,
                "prev": hex(&entry.prev),
                "hash": hex(&entry.hash),
                "at": entry.at,
                "body": serde_json::to_string(&entry.body).unwrap(),
                "sealed": entry.sealed.as_ref().map(|s| serde_json::to_string(s).unwrap()),
            });
            rows.push_str(&row.to_string());
            rows.push('\n');
            let mut object = entry.public();
            if entry.seq == last {
                object.insert(
                    "signature".into(),
                    sign_head(key, &self.game.header().id, last, &head).into(),
                );
            }
            log.push_str(&Value::Object(object).to_string());
            log.push('\n');
        }
        std::fs::write(dir.join(format!("{}.rows.ndjson", self.name)), rows).unwrap();
        std::fs::write(dir.join(format!("{}.log.ndjson", self.name)), log).unwrap();
        end.unwrap_or_else(|| ("*".into(), "unterminated".into()))
    }
}

fn spec(variant: Variant, clock: Option<&str>, fen: Option<&str>) -> GameSpec {
    GameSpec {
        variant,
        clock: clock.map(str::to_string),
        fen: fen.map(str::to_string),
        ..GameSpec::default()
    }
}

/// The first random game from one of `fens` that ends by `reason` within
/// `max_steps` steps: its choices, step by step.
fn random_ending(
    rules: Rules,
    fens: &[&str],
    reason: EndReason,
    max_steps: usize,
) -> (String, Vec<(Option<Choice>, Option<Choice>)>) {
    for seed in 0..2_000_000u64 {
        let fen = fens[(seed % fens.len() as u64) as usize];
        let pos = tempo_chess::Position::from_fen(fen).unwrap();
        let Ok(mut game) = SyncGame::from_position(rules, pos) else {
            continue;
        };
        if game.is_over() {
            continue;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut steps = Vec::new();
        while !game.is_over() && steps.len() < max_steps {
            let white = tempo_sync::playout::random_choice(&game, Color::White, &mut rng);
            let black = tempo_sync::playout::random_choice(&game, Color::Black, &mut rng);
            game = game.resolve(white, black).unwrap().0;
            steps.push((white, black));
        }
        if game.result().is_some_and(|(_, r)| r == reason) {
            return (fen.to_string(), steps);
        }
    }
    panic!("no random game ends by {reason}");
}

fn random_log(
    name: &str,
    variant: Variant,
    clock: Option<&str>,
    fens: &[&str],
    reason: EndReason,
    max: usize,
) -> Log {
    let rules = match variant {
        Variant::Synchronschach => Rules::new(tempo_sync::Variant::Synchronschach),
        _ => Rules::new(tempo_sync::Variant::Fairschach),
    };
    let (fen, steps) = random_ending(rules, fens, reason, max);
    let mut log = Log::new(name, spec(variant, clock, Some(&fen)));
    for (white, black) in steps {
        for (color, choice) in [(Color::White, white), (Color::Black, black)] {
            if let Some(choice) = choice {
                log.play(color, &choice.to_string());
            }
        }
    }
    log
}

fn logs() -> Vec<Log> {
    use Color::{Black, White};
    let std_ = |clock| spec(Variant::Standard, clock, None);
    let mut logs = Vec::new();

    // Orthodox chess.
    let mut l = Log::new("standard-checkmate", std_(Some("60+0")));
    l.moves(&["f2f3", "e7e5", "g2g4", "d8h4"]);
    logs.push(l);
    let mut l = Log::new(
        "standard-stalemate",
        spec(
            Variant::Standard,
            None,
            Some("7k/8/8/6Q1/8/8/8/K7 w - - 0 1"),
        ),
    );
    l.moves(&["g5g6"]);
    logs.push(l);
    let mut l = Log::new(
        "standard-insufficient-material",
        spec(
            Variant::Standard,
            Some("300+2"),
            Some("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"),
        ),
    );
    l.moves(&["e1d2"]);
    logs.push(l);
    let knights = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut l = Log::new("standard-fivefold-repetition", std_(None));
    l.moves(&[knights, knights, knights, knights].concat());
    logs.push(l);
    let mut l = Log::new("standard-threefold-claim", std_(Some("180+2")));
    l.moves(&[knights, knights].concat());
    l.command(Command::OfferDraw { color: White });
    l.command(Command::DeclineDraw { color: Black });
    l.command(Command::ClaimDraw { color: White });
    logs.push(l);
    let mut l = Log::new(
        "standard-fifty-moves-claim",
        spec(
            Variant::Standard,
            None,
            Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 60"),
        ),
    );
    l.moves(&["a1a2"]);
    l.command(Command::ClaimDraw { color: Black });
    logs.push(l);
    let mut l = Log::new(
        "standard-seventy-five-moves",
        spec(
            Variant::Standard,
            None,
            Some("4k3/8/8/8/8/8/8/R3K3 w - - 149 80"),
        ),
    );
    l.moves(&["a1a2"]);
    logs.push(l);
    let mut l = Log::new("standard-resign", std_(Some("600+5")));
    l.moves(&["e2e4", "e7e5", "Nf3", "Nc6", "Bb5"]);
    l.command(Command::Resign { color: Black });
    logs.push(l);
    let mut l = Log::new("standard-timeout", std_(Some("60+0")));
    l.moves(&["e2e4", "e7e5", "d2d4"]);
    let due = l.game.next_deadline().unwrap();
    l.tick(due + 5_000);
    logs.push(l);
    let mut l = Log::new(
        "standard-timeout-draw",
        spec(
            Variant::Standard,
            Some("10+0"),
            Some("4k3/8/8/8/8/8/8/4K2Q w - - 0 1"),
        ),
    );
    l.tick(T0 + 20_000);
    logs.push(l);
    let mut l = Log::new("standard-agreement", std_(None));
    l.moves(&["d2d4", "d7d5"]);
    l.command(Command::OfferDraw { color: Black });
    l.command(Command::OfferDraw { color: White });
    logs.push(l);
    let mut l = Log::new("standard-aborted", std_(Some("300+0")));
    l.command(Command::Abort { color: White });
    logs.push(l);
    let mut l = Log::new("standard-arbiter", std_(Some("300+0")));
    l.moves(&["e2e4", "c7c5", "g1f3"]);
    l.arbiter(ArbiterAction::Pause);
    l.arbiter(ArbiterAction::Resume);
    l.arbiter(ArbiterAction::SetClock {
        color: White,
        millis: 240_000,
    });
    l.arbiter(ArbiterAction::AddTime {
        color: Black,
        millis: -5_000,
    });
    l.arbiter(ArbiterAction::Penalty { offender: Black });
    l.arbiter(ArbiterAction::Restore {
        step: 1,
        clock: ClockRestore::Proportional,
    });
    l.play(Black, "e7e5");
    l.play(White, "g1f3");
    l.arbiter(ArbiterAction::SetResult {
        result: "1/2-1/2".into(),
    });
    logs.push(l);
    let mut l = Log::new("standard-unfinished", std_(Some("86400+0")));
    l.moves(&["e2e4", "e7e6"]);
    logs.push(l);

    // Chess960.
    let mut l = Log::new(
        "chess960-resign",
        GameSpec {
            chess960: Some(518),
            ..spec(Variant::Chess960, Some("300+3"), None)
        },
    );
    // Castling as the king taking its rook.
    l.moves(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1"]);
    l.command(Command::Resign { color: White });
    logs.push(l);
    let mut l = Log::new(
        "chess960-arbiter-no-result",
        GameSpec {
            chess960: Some(959),
            ..spec(Variant::Chess960, Some("120+1"), None)
        },
    );
    l.moves(&["d2d4", "d7d5"]);
    l.arbiter(ArbiterAction::Restore {
        step: 0,
        clock: ClockRestore::Exact,
    });
    l.moves(&["c2c4"]);
    l.arbiter(ArbiterAction::SetResult { result: "*".into() });
    logs.push(l);
    let mut l = Log::new(
        "chess960-checkmate",
        GameSpec {
            chess960: Some(518),
            ..spec(Variant::Chess960, None, None)
        },
    );
    l.moves(&["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]);
    logs.push(l);

    // Synchronschach.
    let sync = |fen: &str, clock| spec(Variant::Synchronschach, clock, Some(fen)).clone();
    let mut l = Log::new(
        "synchronschach-checkmate",
        sync("4k3/8/8/8/8/1P6/r4PPP/6K1 w - - 0 1", Some("300+3")),
    );
    l.pairs(&[("b3b4", "a2a1")]);
    logs.push(l);
    let mut l = Log::new(
        "synchronschach-double-checkmate",
        sync("6k1/5ppp/R7/p7/P7/r7/5PPP/6K1 w - - 0 1", None),
    );
    l.pairs(&[("a6a8", "a3a1")]);
    logs.push(l);
    let mut l = Log::new(
        "synchronschach-king-captured",
        sync("4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1", Some("60+1")),
    );
    l.pairs(&[("b1d2", "b4e1")]);
    logs.push(l);
    let mut l = Log::new(
        "synchronschach-exchange-insufficient-material",
        sync("4k3/5p2/8/2b5/2B5/8/5P2/4K3 w - - 0 1", Some("300+0")),
    );
    l.pairs(&[("c4f7", "c5f2"), ("xe1f2", "xe8f7")]);
    logs.push(l);
    let mut l = Log::new(
        "synchronschach-exchange-decline-resign",
        sync("4k3/p4p2/8/8/2B5/8/8/4K3 w - - 0 1", Some("300+0")),
    );
    l.pairs(&[("c4f7", "a7a6"), ("..", "-")]);
    l.command(Command::Resign { color: White });
    logs.push(l);
    let mut l = Log::new(
        "synchronschach-fifty-moves",
        sync("4k3/8/8/8/8/8/8/R3K3 w - - 98 60", None),
    );
    l.pairs(&[("a1a2", "e8d7")]);
    logs.push(l);
    let mut l = Log::new(
        "synchronschach-repetition",
        spec(Variant::Synchronschach, Some("600+0"), None),
    );
    l.pairs(&[
        ("g1f3", "g8f6"),
        ("f3g1", "f6g8"),
        ("g1f3", "g8f6"),
        ("f3g1", "f6g8"),
    ]);
    logs.push(l);
    logs.push(random_log(
        "synchronschach-stalemate",
        Variant::Synchronschach,
        None,
        &[
            "7k/8/8/6Q1/8/8/8/K7 w - - 0 1",
            "k7/8/1Q6/8/8/8/8/4K3 w - - 0 1",
            "7k/5K2/8/8/8/8/8/6Q1 w - - 0 1",
        ],
        EndReason::Stalemate,
        30,
    ));
    let mut l = Log::new(
        "synchronschach-agreement",
        spec(Variant::Synchronschach, None, None),
    );
    l.pairs(&[("e2e4", "e7e5")]);
    l.command(Command::OfferDraw { color: White });
    l.command(Command::OfferDraw { color: Black });
    logs.push(l);
    let mut l = Log::new(
        "synchronschach-timeout",
        spec(Variant::Synchronschach, Some("60+0"), None),
    );
    l.pairs(&[("d2d4", "d7d5")]);
    l.play(White, "c2c4");
    let due = l.game.next_deadline().unwrap();
    l.tick(due + 1_000);
    logs.push(l);

    // Fairschach.
    let fair = |fen: &str, clock| spec(Variant::Fairschach, clock, Some(fen)).clone();
    let mut l = Log::new(
        "fairschach-checkmate",
        fair("4k3/8/8/8/8/1P6/r4PPP/6K1 w - - 0 1", Some("300+3")),
    );
    l.pairs(&[("b3b4", "a2a1")]);
    logs.push(l);
    let mut l = Log::new(
        "fairschach-fifty-moves",
        fair("4k3/8/8/8/8/8/8/R3K3 w - - 98 60", Some("30+0")),
    );
    l.pairs(&[("a1a2", "e8d7")]);
    logs.push(l);
    logs.push(random_log(
        "fairschach-stalemate",
        Variant::Fairschach,
        Some("300+2"),
        &[
            "7k/8/8/6Q1/8/8/8/K7 w - - 0 1",
            "k7/8/1Q6/8/8/8/8/4K3 w - - 0 1",
            "7k/5K2/8/8/8/8/8/6Q1 w - - 0 1",
        ],
        EndReason::Stalemate,
        30,
    ));
    logs.push(random_log(
        "fairschach-king-captured",
        Variant::Fairschach,
        None,
        &[
            "4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1",
            "4k3/8/8/3q4/3Q4/8/8/4K3 w - - 0 1",
        ],
        EndReason::KingCaptured,
        20,
    ));
    logs.push(random_log(
        "fairschach-insufficient-material",
        Variant::Fairschach,
        Some("120+1"),
        &[
            "4k3/8/8/3q4/3Q4/8/8/4K3 w - - 0 1",
            "4k3/8/8/3n4/3N4/8/8/4K3 w - - 0 1",
        ],
        EndReason::InsufficientMaterial,
        20,
    ));
    logs.push(random_log(
        "fairschach-orthodox-checkmate",
        Variant::Fairschach,
        None,
        &[
            "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
            "r3k3/8/8/8/8/8/8/R3K2R w - - 0 1",
        ],
        EndReason::Checkmate,
        40,
    ));
    let mut l = Log::new(
        "fairschach-repetition",
        GameSpec {
            rules: BTreeMap::from([("pause".to_string(), "none".to_string())]),
            ..spec(Variant::Fairschach, None, None)
        },
    );
    l.pairs(&[
        ("g1f3", "g8f6"),
        ("f3g1", "f6g8"),
        ("g1f3", "g8f6"),
        ("f3g1", "f6g8"),
    ]);
    logs.push(l);
    let mut l = Log::new(
        "fairschach-arbiter",
        GameSpec {
            rules: BTreeMap::from([
                ("pause".to_string(), "capturable".to_string()),
                ("fsr8".to_string(), "off".to_string()),
            ]),
            ..spec(Variant::Fairschach, Some("300+0"), None)
        },
    );
    l.pairs(&[("e2e4", "d7d5")]);
    l.play(White, "g1f3");
    l.arbiter(ArbiterAction::Pause);
    l.arbiter(ArbiterAction::Resume);
    l.arbiter(ArbiterAction::AddTime {
        color: White,
        millis: 30_000,
    });
    l.arbiter(ArbiterAction::SetClock {
        color: Black,
        millis: 100_000,
    });
    l.arbiter(ArbiterAction::Penalty { offender: White });
    l.arbiter(ArbiterAction::Restore {
        step: 0,
        clock: ClockRestore::Exact,
    });
    l.pairs(&[("Nc3", "5755")]);
    l.arbiter(ArbiterAction::SetResult {
        result: "0-1".into(),
    });
    logs.push(l);
    let mut l = Log::new(
        "fairschach-aborted",
        spec(Variant::Fairschach, Some("300+3"), None),
    );
    l.play(White, "e2e4");
    l.command(Command::Abort { color: Black });
    logs.push(l);
    let mut l = Log::new(
        "fairschach-unfinished",
        spec(Variant::Fairschach, Some("300+3"), None),
    );
    l.pairs(&[("e2e4", "e7e5")]);
    l.play(Black, "g8f6");
    logs.push(l);
    logs
}

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).expect("an output directory"));
    std::fs::create_dir_all(&dir).unwrap();
    let key = SigningKey::from_bytes(&[0x42; 32]);
    let mut index = String::new();
    for log in logs() {
        let (result, reason) = log.write(&dir, &key);
        index.push_str(&format!(
            "{}\t{}\t{result}\t{reason}\t{}\n",
            log.name,
            serde_json::to_value(log.game.header().variant)
                .unwrap()
                .as_str()
                .unwrap(),
            log.entries.len()
        ));
    }
    std::fs::write(dir.join("index.tsv"), index).unwrap();
    println!("server key: {}", hex(key.verifying_key().as_bytes()));
}
