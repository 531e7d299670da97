//! The hosted game through its commands: play, commits and reveals,
//! clocks and flags, draws, aborts, arbiter actions, the log and replay.

use ed25519_dalek::SigningKey;
use tempo_chess::Color;
use tempo_host::chain::{self, verify_log};
use tempo_host::view::Audience;
use tempo_host::{
    ArbiterAction, ClockRestore, Command, Entry, GameSpec, Header, HostError, HostedGame, Variant,
};

fn spec(variant: Variant, clock: Option<&str>) -> GameSpec {
    GameSpec {
        variant,
        clock: clock.map(str::to_string),
        ..GameSpec::default()
    }
}

fn new_game(spec: &GameSpec) -> (HostedGame, Vec<Entry>) {
    let header = Header::new("g1", spec, "anna", "ben").expect("a valid spec");
    let (game, first) = HostedGame::create(header, 1_000).expect("a game");
    (game, vec![first])
}

fn play(game: &mut HostedGame, log: &mut Vec<Entry>, color: Color, choice: &str, at: u64) {
    let entries = game
        .handle(
            Command::Play {
                color,
                choice: choice.into(),
            },
            at,
            [at as u8; 32],
        )
        .unwrap_or_else(|e| panic!("{choice}: {e}"));
    log.extend(entries);
}

fn log_text(log: &[Entry]) -> String {
    log.iter().map(|e| e.public_line() + "\n").collect()
}

#[test]
fn a_fairschach_pair_is_committed_hidden_and_revealed_at_once() {
    let (mut game, mut log) = new_game(&spec(Variant::Fairschach, Some("300+3")));
    play(&mut game, &mut log, Color::White, "e2e4", 2_000);
    let mut committed = log.last().unwrap().public();
    assert_eq!(committed["type"], "committed");
    // What is left besides the hashes (hex, where any two letters may
    // stand) names no square.
    for key in ["commitment", "hash", "prev"] {
        committed.remove(key);
    }
    let rest = serde_json::Value::Object(committed).to_string();
    assert!(!rest.contains("e2") && !rest.contains("e4"), "{rest}");
    assert!(game.has_committed(Color::White));
    let public = game.state(Audience::Public, 2_500);
    assert_eq!(public["phase"], "pair");
    assert_eq!(
        public["due"],
        serde_json::json!({"white": "move", "black": "move"})
    );
    assert_eq!(
        game.state(Audience::Player(Color::White), 2_500)["mine"],
        "e2e4"
    );
    assert!(
        game.state(Audience::Player(Color::Black), 2_500)
            .get("mine")
            .is_none()
    );
    assert!(game.state(Audience::Public, 2_500).get("mine").is_none());
    play(&mut game, &mut log, Color::Black, "e7e5", 4_000);
    let reveal = log.last().unwrap().public_line();
    assert!(reveal.contains(r#""type":"reveal""#));
    assert!(reveal.contains(r#""choice":"e2e4""#) && reveal.contains(r#""choice":"e7e5""#));
    // Clocks: White used 1 s and Black 3 s of the pair, each +3 s.
    assert_eq!(game.reading(Color::White, 4_000).unwrap().0, 302_000);
    assert_eq!(game.reading(Color::Black, 4_000).unwrap().0, 300_000);
    let head = verify_log(&log_text(&log), None).expect("the log verifies");
    assert_eq!(head.seq, 2);
}

#[test]
fn a_changed_entry_is_named_by_its_seq() {
    let (mut game, mut log) = new_game(&spec(Variant::Synchronschach, None));
    play(&mut game, &mut log, Color::White, "d2d4", 2_000);
    play(&mut game, &mut log, Color::Black, "d7d5", 3_000);
    play(&mut game, &mut log, Color::White, "c2c4", 4_000);
    let text = log_text(&log);
    assert!(verify_log(&text, None).is_ok());
    // A later rewrite of the move is caught at the reveal.
    let forged = text.replace(r#""choice":"d2d4""#, r#""choice":"e2e4""#);
    assert_eq!(verify_log(&forged, None).unwrap_err().seq(), Some(2));
    // So is a changed arrival time, and a dropped entry.
    let lines: Vec<&str> = text.lines().collect();
    let late = [lines[0].to_string(), lines[1].replace(".000Z", ".001Z")].join("\n");
    assert_eq!(verify_log(&late, None).unwrap_err().seq(), Some(1));
    let dropped = [lines[0], lines[2], lines[3]].join("\n");
    assert_eq!(verify_log(&dropped, None).unwrap_err().seq(), Some(2));
}

#[test]
fn the_server_signature_on_the_head_is_checked() {
    let (mut game, mut log) = new_game(&spec(Variant::Standard, None));
    play(&mut game, &mut log, Color::White, "e2e4", 2_000);
    let key = SigningKey::from_bytes(&[5; 32]);
    let (seq, head) = game.head();
    let signature = chain::sign_head(&key, "g1", seq, &head);
    // As the server hands a log out: its last entry carries the signature.
    let mut last = log.last().unwrap().public();
    last.insert("signature".into(), signature.into());
    let signed = format!(
        "{}{}\n",
        log_text(&log[..log.len() - 1]),
        serde_json::Value::Object(last)
    );
    let verified = verify_log(&signed, Some(&key.verifying_key())).expect("signed by the key");
    assert!(verified.signed);
    assert_eq!(verified.signed_through, Some(seq));
    let other = SigningKey::from_bytes(&[6; 32]).verifying_key();
    assert!(verify_log(&signed, Some(&other)).is_err());
    assert_eq!(
        verify_log(&log_text(&log), Some(&key.verifying_key())),
        Err(chain::VerifyError::Unsigned { seq })
    );
    // Without a key nothing is proven by a signature.
    let unkeyed = verify_log(&signed, None).expect("the chain holds");
    assert_eq!((unkeyed.signed, unkeyed.signed_through), (false, None));

    // Entries after the signed head: the chain holds, the signature
    // proves only the prefix, and the answer says up to which seq.
    play(&mut game, &mut log, Color::Black, "e7e5", 3_000);
    let longer = format!("{signed}{}", log_text(&log[seq as usize + 1..]));
    let err = verify_log(&longer, Some(&key.verifying_key())).unwrap_err();
    let last = game.head().0;
    assert_eq!(err, chain::VerifyError::UnsignedTail { signed: seq, last });
    assert_eq!(err.seq(), Some(seq + 1));
    assert_eq!(
        err.to_string(),
        format!(
            "the signature proves entries 0..={seq} only; entries {}..={last} are unsigned",
            seq + 1
        )
    );
}

#[test]
fn an_orthodox_game_ends_in_mate_and_refuses_moves_after() {
    let (mut game, mut log) = new_game(&spec(Variant::Standard, Some("60+0")));
    for (i, mv) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        let color = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        play(&mut game, &mut log, color, mv, 2_000 + i as u64 * 1000);
    }
    assert_eq!(game.end(), Some(("0-1", "checkmate")));
    let err = game
        .handle(
            Command::Play {
                color: Color::White,
                choice: "a2a3".into(),
            },
            9_000,
            [0; 32],
        )
        .unwrap_err();
    assert!(matches!(err, HostError::GameOver { .. }));
    assert!(verify_log(&log_text(&log), None).is_ok());
}

#[test]
fn turns_commits_and_illegal_choices_are_refused() {
    let (mut game, _) = new_game(&spec(Variant::Standard, None));
    let cmd = |color, choice: &str| Command::Play {
        color,
        choice: choice.into(),
    };
    assert_eq!(
        game.handle(cmd(Color::Black, "e7e5"), 2, [0; 32])
            .unwrap_err(),
        HostError::NotYourTurn
    );
    assert!(matches!(
        game.handle(cmd(Color::White, "e2e5"), 2, [0; 32])
            .unwrap_err(),
        HostError::Illegal(_)
    ));
    let (mut sync, _) = new_game(&spec(Variant::Fairschach, None));
    sync.handle(cmd(Color::White, "e2e4"), 2, [0; 32]).unwrap();
    assert_eq!(
        sync.handle(cmd(Color::White, "d2d4"), 3, [0; 32])
            .unwrap_err(),
        HostError::AlreadyCommitted
    );
    assert!(matches!(
        sync.handle(cmd(Color::Black, "xe7e5"), 3, [0; 32])
            .unwrap_err(),
        HostError::Illegal(_)
    ));
}

#[test]
fn a_flag_falls_at_its_instant_and_insufficient_material_draws() {
    let (mut game, mut log) = new_game(&spec(Variant::Fairschach, Some("60+0")));
    play(&mut game, &mut log, Color::White, "e2e4", 11_000);
    assert_eq!(game.next_deadline(), Some(61_000));
    assert!(game.tick(60_000).unwrap().is_empty());
    let fall = game.tick(90_000).unwrap();
    assert_eq!(fall[0].at, 61_000);
    assert_eq!(game.end(), Some(("1-0", "timeout")));
    log.extend(fall);
    assert!(verify_log(&log_text(&log), None).is_ok());

    let lone = GameSpec {
        fen: Some("4k3/8/8/8/8/8/8/4K2Q w - - 0 1".into()),
        ..spec(Variant::Standard, Some("10+0"))
    };
    let (mut game, _) = new_game(&lone);
    game.tick(20_000).unwrap();
    // White's flag fell, but Black's lone king cannot mate.
    assert_eq!(game.end(), Some(("1/2-1/2", "timeout")));
}

#[test]
fn draws_by_agreement_and_abort_before_the_first_move() {
    let (mut game, _) = new_game(&spec(Variant::Synchronschach, None));
    game.handle(
        Command::OfferDraw {
            color: Color::White,
        },
        2,
        [0; 32],
    )
    .unwrap();
    assert_eq!(
        game.handle(
            Command::DeclineDraw {
                color: Color::White
            },
            3,
            [0; 32]
        )
        .unwrap_err(),
        HostError::NoDrawOffer
    );
    game.handle(
        Command::OfferDraw {
            color: Color::Black,
        },
        4,
        [0; 32],
    )
    .unwrap();
    assert_eq!(game.end(), Some(("1/2-1/2", "agreement")));

    let (mut game, _) = new_game(&spec(Variant::Standard, None));
    game.handle(
        Command::Abort {
            color: Color::Black,
        },
        2,
        [0; 32],
    )
    .unwrap();
    assert_eq!(game.end(), Some(("*", "aborted")));
    // Without the first-move rule (an untimed game here), only before
    // the first move, as before the rule existed.
    let (mut game, mut log) = new_game(&spec(Variant::Standard, None));
    assert!(game.abortable());
    play(&mut game, &mut log, Color::White, "e2e4", 3);
    assert!(!game.abortable());
    assert_eq!(
        game.handle(
            Command::Abort {
                color: Color::Black
            },
            4,
            [0; 32]
        )
        .unwrap_err(),
        HostError::TooLateToAbort
    );
}

fn arbiter(action: ArbiterAction) -> Command {
    Command::Arbiter {
        arbiter: "arbiter".into(),
        reason: "test".into(),
        action,
    }
}

#[test]
fn arbiter_actions_are_logged_and_take_effect() {
    let (mut game, mut log) = new_game(&spec(Variant::Fairschach, Some("300+0")));
    play(&mut game, &mut log, Color::White, "e2e4", 11_000);
    play(&mut game, &mut log, Color::Black, "d7d5", 21_000);
    log.extend(
        game.handle(arbiter(ArbiterAction::Pause), 30_000, [0; 32])
            .unwrap(),
    );
    let refused = game.handle(
        Command::Play {
            color: Color::White,
            choice: "e4d5".into(),
        },
        31_000,
        [0; 32],
    );
    assert_eq!(refused.unwrap_err(), HostError::Paused);
    log.extend(
        game.handle(arbiter(ArbiterAction::Resume), 90_000, [0; 32])
            .unwrap(),
    );
    // The pause counted for nobody: White has 300 - 10 - 9 = 281 s.
    assert_eq!(game.reading(Color::White, 90_000).unwrap().0, 281_000);
    log.extend(
        game.handle(
            arbiter(ArbiterAction::Restore {
                step: 0,
                clock: ClockRestore::Exact,
            }),
            95_000,
            [0; 32],
        )
        .unwrap(),
    );
    assert_eq!(
        game.position().to_fen(),
        tempo_chess::Position::new().to_fen()
    );
    assert_eq!(game.reading(Color::White, 95_000).unwrap().0, 300_000);
    let line = log.last().unwrap().public_line();
    assert!(line.contains(r#""arbiter":"arbiter""#) && line.contains(r#""kind":"restore""#));
    log.extend(
        game.handle(
            arbiter(ArbiterAction::SetResult {
                result: "1-0".into(),
            }),
            96_000,
            [0; 32],
        )
        .unwrap(),
    );
    assert_eq!(game.end(), Some(("1-0", "arbiter")));
    let replayed = HostedGame::replay(&log).expect("the log replays");
    assert_eq!(replayed.head(), game.head());
    assert!(verify_log(&log_text(&log), None).is_ok());
}

#[test]
fn bad_specs_are_refused_with_the_reason() {
    let bad = [
        (spec(Variant::Standard, Some("banana")), "clock"),
        (spec(Variant::Standard, Some("-")), "no time limit"),
        (spec(Variant::Standard, Some("0+5")), "no initial time"),
        (
            GameSpec {
                rules: [("pause".to_string(), "sometimes".to_string())].into(),
                ..spec(Variant::Fairschach, None)
            },
            "rules",
        ),
        (
            GameSpec {
                rules: [("pause".to_string(), "none".to_string())].into(),
                ..spec(Variant::Standard, None)
            },
            "takes no options",
        ),
        (spec(Variant::Chess960, None), "chess960"),
        (
            GameSpec {
                fen: Some("8/8/8/8/8/8/8/8 w - - 0 1".into()),
                ..spec(Variant::Standard, None)
            },
            "fen",
        ),
    ];
    for (spec, needle) in bad {
        let err = Header::new("g", &spec, "a", "b").unwrap_err().to_string();
        assert!(err.contains(needle), "{err}");
    }
}

#[test]
fn exports_read_back_as_the_game() {
    // Simultaneous: the record lines, the rules, the result of a resignation.
    let (mut game, mut log) = new_game(&GameSpec {
        rules: [("pause".to_string(), "capturable".to_string())].into(),
        ..spec(Variant::Fairschach, Some("300+3"))
    });
    play(&mut game, &mut log, Color::White, "e2e4", 2_000);
    play(&mut game, &mut log, Color::Black, "d7d5", 3_000);
    game.handle(
        Command::Resign {
            color: Color::Black,
        },
        4_000,
        [0; 32],
    )
    .unwrap();
    let pgn = game.pgn();
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("[Termination \"resign\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[VariantRules \"") && pgn.contains("pause=capturable"),
        "{pgn}"
    );
    assert!(pgn.contains("[TimeControl \"300+3\"]"));
    let (_, _, steps) = tempo_sync::pgn::read(&pgn).expect("our PGN reads back");
    assert_eq!(steps.len(), 1);

    // Alternating, from a FEN.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let (mut game, mut log) = new_game(&GameSpec {
        fen: Some(fen.into()),
        ..spec(Variant::Standard, None)
    });
    play(&mut game, &mut log, Color::White, "e2e4", 2_000);
    let pgn = game.pgn();
    let read = tempo_chess::pgn::read_game(&pgn).expect("reads");
    assert_eq!(read.start.to_fen(), fen);
    assert_eq!(read.moves.len(), 1);
    assert!(pgn.contains("[Result \"*\"]"));
}

#[test]
fn the_game_shows_its_record_in_san_and_the_log_keeps_uci() {
    let (mut game, mut log) = new_game(&spec(Variant::Fairschach, Some("300+3")));
    play(&mut game, &mut log, Color::White, "e2e4", 2_000);
    play(&mut game, &mut log, Color::Black, "d7d5", 3_000);
    let reveal = log.last().unwrap().public_line();
    let marks = "{paused white e4; paused black d5}";
    assert!(
        reveal.contains(&format!(r#""record":"1. e2e4 d7d5 {marks}""#)),
        "{reveal}"
    );
    let line = format!("1. e4 d5 {marks}");
    assert_eq!(game.state(Audience::Public, 3_000)["record"][0], line);
    let replayed = HostedGame::replay(&log).expect("the log replays");
    assert_eq!(replayed.state(Audience::Public, 3_000)["record"][0], line);
    let pgn = game.pgn();
    assert!(pgn.contains(&line), "{pgn}");
    let (_, end, _) = tempo_sync::pgn::read(&pgn).expect("the SAN PGN reads back");
    assert_eq!(end.pair_number(), 2);
}

#[test]
fn moves_may_be_written_in_san_or_iccf_digits() {
    let (mut game, mut log) = new_game(&spec(Variant::Fairschach, None));
    play(&mut game, &mut log, Color::White, "Nf3", 2_000);
    play(&mut game, &mut log, Color::Black, "5755", 3_000);
    let reveal = log.last().unwrap().public_line();
    assert!(
        reveal.contains(r#""choice":"g1f3""#) && reveal.contains(r#""choice":"e7e5""#),
        "{reveal}"
    );
    let (mut game, mut log) = new_game(&spec(Variant::Standard, None));
    play(&mut game, &mut log, Color::White, "e4", 2_000);
    play(&mut game, &mut log, Color::Black, "Nc6", 3_000);
    assert_eq!(
        game.position().to_fen(),
        "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
    );
}

#[test]
fn an_arbiters_times_are_bounded_by_a_day_or_the_games_initial_time() {
    let day = tempo_host::MAX_ARBITER_TIME.0;
    for (clock, limit) in [("300+3", day), ("259200+0", 3 * day)] {
        let (mut game, _) = new_game(&spec(Variant::Standard, Some(clock)));
        assert_eq!(game.arbiter_time_limit().0, limit, "{clock}");
        let set = |millis| {
            arbiter(ArbiterAction::SetClock {
                color: Color::White,
                millis,
            })
        };
        for refused in [limit + 1, -1, i64::MAX] {
            let err = game.handle(set(refused), 2_000, [0; 32]).unwrap_err();
            assert!(err.to_string().starts_with("setClock: "), "{clock}: {err}");
        }
        game.handle(set(limit), 2_000, [0; 32])
            .expect("the limit itself");
        let add = |millis| {
            arbiter(ArbiterAction::AddTime {
                color: Color::White,
                millis,
            })
        };
        // At the limit (the same instant: White's clock runs): nothing
        // more, but time may be taken away.
        assert!(game.handle(add(1), 2_000, [0; 32]).is_err());
        assert!(game.handle(add(i64::MIN), 2_000, [0; 32]).is_err());
        game.handle(add(-60_000), 2_000, [0; 32])
            .expect("taken away");
        assert_eq!(game.end(), None, "{clock}");
    }
}

#[test]
fn a_simple_delay_alone_leaves_time_to_move() {
    // `0d5`: no time on the clock, five seconds' delay a move — accepted,
    // since the clock waits out the delay before it runs.
    let (mut game, mut log) = new_game(&spec(Variant::Standard, Some("0d5")));
    play(&mut game, &mut log, Color::White, "e2e4", 4_000);
    play(&mut game, &mut log, Color::Black, "e7e5", 8_000);
    assert_eq!(game.end(), None);
    assert!(
        game.tick(20_000)
            .unwrap()
            .iter()
            .any(|e| e.public_line().contains("\"end\""))
    );
}
