//! The lichess fields of a hosted game's views: `state.moves` in lichess's
//! UCI (castling per variant, revealed choices only), kept through
//! replays and restores; the times, statuses and the export.

use tempo_chess::Color;
use tempo_host::view::Audience;
use tempo_host::{
    ArbiterAction, ClockRestore, Command, Entry, GameSpec, Header, HostedGame, Variant,
};

fn game(spec: &GameSpec) -> (HostedGame, Vec<Entry>) {
    let header = Header::new("g1", spec, "Anna", "ben").expect("a valid spec");
    let (game, first) = HostedGame::create(header, 1_000).expect("a game");
    (game, vec![first])
}

fn run(game: &mut HostedGame, log: &mut Vec<Entry>, command: Command, at: u64) {
    let entries = game
        .handle(command.clone(), at, [at as u8; 32])
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    log.extend(entries);
}

/// Plays `moves` alternately (or as pairs in a simultaneous game: White's
/// then Black's choice of each step), one second apart from `at`.
fn play(game: &mut HostedGame, log: &mut Vec<Entry>, moves: &[&str], at: u64) {
    for (i, choice) in moves.iter().enumerate() {
        let color = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let command = Command::Play {
            color,
            choice: choice.to_string(),
        };
        run(game, log, command, at + 1_000 * i as u64);
    }
}

fn moves(game: &HostedGame, audience: Audience) -> String {
    game.state(audience, 100_000)["moves"]
        .as_str()
        .expect("moves is a string")
        .to_string()
}

const ITALIAN_CASTLES: [&str; 8] = [
    "e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1g1", "e8g8",
];

#[test]
fn orthodox_castling_is_the_kings_two_squares() {
    let (mut g, mut log) = game(&GameSpec::default());
    assert_eq!(moves(&g, Audience::Public), "");
    play(&mut g, &mut log, &ITALIAN_CASTLES, 2_000);
    let expected = ITALIAN_CASTLES.join(" ");
    assert_eq!(moves(&g, Audience::Public), expected);
    assert_eq!(
        moves(&HostedGame::replay(&log).unwrap(), Audience::Public),
        expected
    );
    // Castling written king-takes-rook is read, and still shown e1g1.
    let (mut h, mut log) = game(&GameSpec::default());
    let mut kings_rook = ITALIAN_CASTLES;
    kings_rook[6] = "e1h1";
    play(&mut h, &mut log, &kings_rook, 2_000);
    assert_eq!(moves(&h, Audience::Public), expected);
    assert_eq!(g.times(), (1_000, 9_000));
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    // Position 518 is the standard set-up, played as Chess960.
    let spec = GameSpec {
        variant: Variant::Chess960,
        chess960: Some(518),
        ..GameSpec::default()
    };
    let (mut g, mut log) = game(&spec);
    play(&mut g, &mut log, &ITALIAN_CASTLES, 2_000);
    let got = moves(&g, Audience::Public);
    assert!(got.ends_with("f8c5 e1h1 e8h8"), "{got}");
    let full = g.full(Audience::Public, 10_000);
    assert_eq!(full["variant"]["key"], "chess960");
    assert_eq!(g.lichess_export()["initialFen"], full["initialFen"]);
}

#[test]
fn a_game_from_a_set_up_position_is_from_position() {
    let spec = GameSpec {
        fen: Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into()),
        ..GameSpec::default()
    };
    let (g, _) = game(&spec);
    let full = g.full(Audience::Public, 2_000);
    assert_eq!(full["variant"]["key"], "fromPosition");
    assert_eq!(full["perf"]["name"], "Correspondence");
    let export = g.lichess_export();
    assert_eq!(export["variant"], "fromPosition");
    assert_eq!(export["initialFen"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    // The standard start with other move counters is the standard start.
    let spec = GameSpec {
        fen: Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 7".into()),
        ..GameSpec::default()
    };
    let (g, _) = game(&spec);
    assert_eq!(
        g.full(Audience::Public, 2_000)["variant"]["key"],
        "standard"
    );
    assert!(g.lichess_export().get("initialFen").is_none());
}

#[test]
fn a_simultaneous_game_shows_revealed_choices_only() {
    let spec = GameSpec {
        variant: Variant::Synchronschach,
        clock: Some("300+2".into()),
        ..GameSpec::default()
    };
    let (mut g, mut log) = game(&spec);
    play(&mut g, &mut log, &["e2e4", "e7e5", "g1f3"], 2_000);
    // White's third choice is committed, not revealed: in nobody's
    // `moves`, White's own included (`mine` says it to White alone).
    for audience in [
        Audience::Public,
        Audience::Player(Color::Black),
        Audience::Player(Color::White),
    ] {
        assert_eq!(moves(&g, audience), "e2e4 e7e5", "{audience:?}");
    }
    assert_eq!(
        g.state(Audience::Player(Color::White), 9_000)["mine"],
        "g1f3"
    );
    let black = Command::Play {
        color: Color::Black,
        choice: "b8c6".into(),
    };
    run(&mut g, &mut log, black, 5_000);
    assert_eq!(moves(&g, Audience::Public), "e2e4 e7e5 g1f3 b8c6");
    let state = g.state(Audience::Public, 9_000);
    assert_eq!(
        (state["winc"].as_u64(), state["binc"].as_u64()),
        (Some(2_000), Some(2_000))
    );
    assert_eq!(state["status"], "started");
    // The arbiter takes the last step back: its choices leave `moves`.
    let restore = Command::Arbiter {
        arbiter: "arb".into(),
        reason: "a mistake".into(),
        action: ArbiterAction::Restore {
            step: 1,
            clock: ClockRestore::Keep,
        },
    };
    run(&mut g, &mut log, restore, 6_000);
    assert_eq!(moves(&g, Audience::Public), "e2e4 e7e5");
    assert_eq!(
        moves(&HostedGame::replay(&log).unwrap(), Audience::Public),
        "e2e4 e7e5"
    );
}

#[test]
fn simultaneous_castling_is_the_kings_two_squares() {
    let spec = GameSpec {
        variant: Variant::Synchronschach,
        ..GameSpec::default()
    };
    let (mut g, mut log) = game(&spec);
    play(&mut g, &mut log, &ITALIAN_CASTLES, 2_000);
    assert_eq!(moves(&g, Audience::Public), ITALIAN_CASTLES.join(" "));
    assert_eq!(g.lichess_export()["variant"], "synchronschach");
}

#[test]
fn untimed_and_ended_states_in_lichess_terms() {
    let (mut g, mut log) = game(&GameSpec::default());
    let state = g.state(Audience::Public, 2_000);
    assert_eq!(state["wtime"], 2_147_483_647u64);
    assert_eq!(state["btime"], 2_147_483_647u64);
    assert_eq!(
        (state["winc"].as_u64(), state["binc"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(state["wtakeback"], false);
    let full = g.full(Audience::Public, 2_000);
    assert!(full["clock"].is_null(), "{full}");
    assert!(full["timeControl"].is_null(), "{full}");
    assert_eq!(full["speed"], "correspondence");
    run(
        &mut g,
        &mut log,
        Command::OfferDraw {
            color: Color::Black,
        },
        3_000,
    );
    let state = g.state(Audience::Public, 3_000);
    assert_eq!(
        (state["wdraw"].as_bool(), state["bdraw"].as_bool()),
        (Some(false), Some(true))
    );
    run(
        &mut g,
        &mut log,
        Command::Resign {
            color: Color::White,
        },
        4_000,
    );
    let state = g.state(Audience::Public, 4_000);
    assert_eq!(state["status"], "resign");
    assert_eq!(state["winner"], "black");
    assert_eq!(state["result"], "0-1");
    let export = g.lichess_export();
    assert_eq!(export["status"], "resign");
    assert_eq!(export["winner"], "black");
    assert_eq!(export["players"]["white"]["user"]["id"], "anna");
    assert_eq!(export["lastMoveAt"], 1_000, "no move was made");
}

#[test]
fn every_simultaneous_step_gives_two_words_white_then_black() {
    let spec = GameSpec {
        variant: Variant::Synchronschach,
        ..GameSpec::default()
    };
    let (mut g, mut log) = game(&spec);
    // (White's choice, Black's): `None` where the step expects nothing of
    // that side — the exchange steps after a capture on d5 and on a2.
    let steps: [(Option<&str>, Option<&str>); 5] = [
        (Some("e2e4"), Some("d7d5")),
        (Some("e4d5"), Some("g8f6")),
        (None, Some("xd8d5")),
        (Some("g1f3"), Some("d5a2")),
        (Some("-"), None),
    ];
    let mut at = 2_000;
    for (white, black) in steps {
        for (color, choice) in [(Color::White, white), (Color::Black, black)] {
            if let Some(choice) = choice {
                let command = Command::Play {
                    color,
                    choice: choice.to_string(),
                };
                run(&mut g, &mut log, command, at);
                at += 1_000;
            }
        }
    }
    let expected = "e2e4 d7d5 e4d5 g8f6 0000 xd8d5 g1f3 d5a2 - 0000";
    assert_eq!(moves(&g, Audience::Public), expected);
    assert_eq!(
        moves(&HostedGame::replay(&log).unwrap(), Audience::Public),
        expected
    );
    let words = expected.split(' ').count();
    assert_eq!(
        words,
        2 * g.state(Audience::Public, at)["step"].as_u64().unwrap() as usize
    );
}
