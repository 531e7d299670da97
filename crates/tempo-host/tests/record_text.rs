//! The record's text files (`sources_text`, `digits_text`): one line per
//! pair after the `#` head, the digit code naming the moves played, both
//! replaying to the game's position, nothing of a hidden choice.

use tempo_chess::Color;
use tempo_host::view::Audience;
use tempo_host::{Command, GameSpec, Header, HostedGame, Variant};
use tempo_sync::{Rules, SyncGame, digits, notation, record};

fn new_game(variant: Variant, fen: Option<&str>) -> HostedGame {
    let spec = GameSpec {
        variant,
        fen: fen.map(str::to_string),
        ..GameSpec::default()
    };
    let header = Header::new("g1", &spec, "anna", "ben").expect("a valid spec");
    HostedGame::create(header, 1_000).expect("a game").0
}

fn play(game: &mut HostedGame, color: Color, choice: &str, at: u64) {
    game.handle(
        Command::Play {
            color,
            choice: choice.into(),
        },
        at,
        [at as u8; 32],
    )
    .unwrap_or_else(|e| panic!("{choice}: {e}"));
}

/// The lines after the `#` head.
fn body(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with('#')).collect()
}

#[test]
fn a_fairschach_record_has_a_line_a_pair_in_both_files_and_replays() {
    let mut game = new_game(Variant::Fairschach, None);
    let pairs = [("e2e4", "d7d5"), ("g1f3", "b8c6"), ("e4d5", "g8f6")];
    for (i, (w, b)) in pairs.iter().enumerate() {
        let at = 2_000 + 100 * i as u64;
        play(&mut game, Color::White, w, at);
        play(&mut game, Color::Black, b, at + 10);
    }
    // A commit not revealed yet is in neither file.
    play(&mut game, Color::White, "b1c3", 3_000);

    let sources = game.sources_text();
    assert!(sources.starts_with("# tempo game g1: anna – ben\n# Variant: fairschach\n"));
    let lines = body(&sources);
    assert_eq!(lines.len(), pairs.len(), "{sources}");
    assert_eq!(lines[0], "1. e4 d5 {paused white e4; paused black d5}");
    assert!(lines[1].starts_with("2. Nf3 Nc6"), "{}", lines[1]);
    assert!(lines[2].starts_with("3. exd5 Nf6"), "{}", lines[2]);

    let digits_text = game.digits_text();
    let codes = body(&digits_text);
    assert_eq!(codes.len(), pairs.len(), "{digits_text}");
    let strip = |t: &str| t.split('/').next().unwrap().to_string();
    let moves: Vec<Vec<String>> = codes
        .iter()
        .map(|l| l.split(' ').map(strip).collect())
        .collect();
    assert_eq!(moves[0], ["1", "65254", "64745"]);
    assert_eq!(moves[1], ["2", "57163", "52836"]);
    assert_eq!(moves[2], ["3", "65445", "57866"]);
    assert!(!sources.contains("Nc3") && !digits_text.contains("52133"));

    // Both read back to the position the game shows.
    let start = SyncGame::new(Rules::new(tempo_sync::Variant::Fairschach));
    let shown = game.state(Audience::Public, 4_000)["fen"]
        .as_str()
        .unwrap()
        .to_string();
    let (end, _) = record::replay(&start, &sources).expect("the notation replays");
    assert_eq!(notation::write(&end), shown);
    let (end, _) = digits::replay(&start, &digits_text).expect("the digit code replays");
    assert_eq!(notation::write(&end), shown);
}

#[test]
fn an_orthodox_record_pairs_moves_and_starts_with_black_when_black_begins() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let mut game = new_game(Variant::Standard, Some(fen));
    play(&mut game, Color::Black, "e7e5", 2_000);
    play(&mut game, Color::White, "g1f3", 2_100);
    play(&mut game, Color::Black, "b8c6", 2_200);
    play(&mut game, Color::White, "e1e2", 2_300);
    assert_eq!(
        body(&game.sources_text()),
        ["1... e5", "2. Nf3 Nc6", "3. Ke2"]
    );
    assert_eq!(
        body(&game.digits_text()),
        ["1... 5755", "2. 7163 2836", "3. 5152"]
    );
    assert!(game.sources_text().contains(&format!("# Start: {fen}\n")));
}

#[test]
fn a_game_over_names_its_result_in_the_head() {
    let mut game = new_game(Variant::Standard, None);
    play(&mut game, Color::White, "e2e4", 2_000);
    game.handle(
        Command::Resign {
            color: Color::Black,
        },
        2_100,
        [0; 32],
    )
    .expect("a resignation");
    assert!(game.sources_text().contains("# Result: 1-0 (resign)\n"));
    assert_eq!(body(&game.digits_text()), ["1. 5254"]);
}
