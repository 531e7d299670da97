//! Lichess's first-move rule: the clocks wait for every side's first
//! move, a first move not made in time aborts the game, and a game
//! without the rule (every log written before it) runs as before.

use tempo_chess::Color;
use tempo_clock::TimeControl;
use tempo_host::chain::verify_log;
use tempo_host::view::Audience;
use tempo_host::{Body, Command, Entry, GameSpec, Header, HostedGame, Variant, first_move_timer};

const START: u64 = 1_000;

fn header(variant: Variant, clock: &str, rule: bool) -> Header {
    let spec = GameSpec {
        variant,
        clock: Some(clock.into()),
        chess960: (variant == Variant::Chess960).then_some(518),
        ..GameSpec::default()
    };
    let header = Header::new("g1", &spec, "anna", "ben").expect("a valid spec");
    if rule {
        header.with_first_move_rule()
    } else {
        header
    }
}

fn create(header: Header) -> (HostedGame, Vec<Entry>) {
    let (game, first) = HostedGame::create(header, START).expect("a game");
    (game, vec![first])
}

fn play(game: &mut HostedGame, log: &mut Vec<Entry>, color: Color, choice: &str, at: u64) {
    let command = Command::Play {
        color,
        choice: choice.into(),
    };
    let entries = game
        .handle(command, at, [at as u8; 32])
        .unwrap_or_else(|e| panic!("{choice}: {e}"));
    log.extend(entries);
}

fn log_text(log: &[Entry]) -> String {
    log.iter().map(|e| e.public_line() + "\n").collect()
}

fn ms(game: &HostedGame, color: Color, at: u64) -> i64 {
    game.reading(color, at).expect("a timed game").0
}

#[test]
fn the_timer_follows_lichess_speed_classes() {
    let timer = |control: &str, chess960: bool| {
        let control: TimeControl = control.parse().unwrap();
        first_move_timer(&control, chess960).map(|m| m.0 / 1000)
    };
    assert_eq!(timer("15", false), Some(15)); // UltraBullet
    assert_eq!(timer("60+0", false), Some(20)); // Bullet
    assert_eq!(timer("180+2", false), Some(25)); // 3+2 is Blitz
    assert_eq!(timer("600+0", false), Some(30)); // Rapid
    assert_eq!(timer("1800+20", false), Some(35)); // Classical
    assert_eq!(timer("300+3", true), Some(31)); // a quarter more, whole seconds
    assert_eq!(timer("1/86400", false), None); // correspondence
    // Only a timed, non-correspondence game gets it.
    assert_eq!(
        header(Variant::Standard, "300+3", true).first_move,
        Some(25_000)
    );
    assert_eq!(header(Variant::Standard, "1/86400", true).first_move, None);
}

#[test]
fn orthodox_clocks_start_after_blacks_first_move() {
    let (mut game, mut log) = create(header(Variant::Standard, "300+3", true));
    let state = game.state(Audience::Public, 5_000);
    assert_eq!(state["clockRunning"], false);
    assert_eq!(state["abortable"], true);
    assert_eq!(state["firstMove"]["color"], "white");
    assert_eq!(state["firstMove"]["left"], 21_000);
    assert_eq!(game.next_deadline(), Some(START + 25_000));
    // White thinks 20 s: the clock does not move.
    play(&mut game, &mut log, Color::White, "e2e4", 21_000);
    assert_eq!(ms(&game, Color::White, 21_000), 300_000);
    // Black's own 25 s run from White's move.
    assert_eq!(game.next_deadline(), Some(46_000));
    assert_eq!(
        game.state(Audience::Public, 30_000)["firstMove"]["color"],
        "black"
    );
    play(&mut game, &mut log, Color::Black, "e7e5", 40_000);
    // Both moved: the clocks run from Black's move, each first move
    // credited its increment.
    assert!(!game.abortable());
    assert!(!game.awaiting_first_move());
    let state = game.state(Audience::Public, 50_000);
    assert_eq!(state["clockRunning"], true);
    assert!(state.get("firstMove").is_none());
    assert_eq!(ms(&game, Color::White, 50_000), 293_000);
    assert_eq!(ms(&game, Color::Black, 50_000), 303_000);
    assert_eq!(game.next_deadline(), Some(40_000 + 303_000));
    verify_log(&log_text(&log), None).expect("the log verifies");
    // The log replays to the same game.
    let again = HostedGame::replay(&log).expect("replay");
    assert_eq!(again.state(Audience::Public, 50_000), state);
}

#[test]
fn a_first_move_not_made_in_time_aborts_the_game() {
    // White does not move.
    let (mut game, mut log) = create(header(Variant::Standard, "60+0", true));
    assert!(game.tick(START + 19_999).unwrap().is_empty());
    let ended = game.tick(START + 30_000).unwrap();
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].at, START + 20_000, "ended at the deadline");
    assert_eq!(game.end(), Some(("*", "aborted")));
    // A move after the deadline is refused until the tick settles it.
    let (mut game, _) = create(header(Variant::Standard, "60+0", true));
    let late = Command::Play {
        color: Color::White,
        choice: "e2e4".into(),
    };
    assert_eq!(
        game.handle(late, START + 20_000, [0; 32]).unwrap_err(),
        tempo_host::HostError::FlagDue
    );
    // Black does not answer.
    let (mut game2, _) = create(header(Variant::Standard, "60+0", true));
    play(&mut game2, &mut log, Color::White, "d2d4", 5_000);
    assert!(game2.tick(24_999).unwrap().is_empty());
    game2.tick(25_000).unwrap();
    assert_eq!(game2.end(), Some(("*", "aborted")));
}

#[test]
fn simultaneous_clocks_start_at_the_first_reveal() {
    let (mut game, mut log) = create(header(Variant::Fairschach, "300+3", true));
    let state = game.state(Audience::Player(Color::White), 3_000);
    assert!(state["firstMove"]["color"].is_null(), "both sides owe it");
    play(&mut game, &mut log, Color::White, "e2e4", 10_000);
    assert_eq!(game.next_deadline(), Some(START + 25_000));
    play(&mut game, &mut log, Color::Black, "e7e5", 20_000);
    assert_eq!(ms(&game, Color::White, 20_000), 303_000);
    assert_eq!(ms(&game, Color::Black, 30_000), 293_000);
    assert!(!game.abortable());
    assert_eq!(game.state(Audience::Public, 30_000)["clockRunning"], true);
    verify_log(&log_text(&log), None).expect("the log verifies");
    // One side commits, the other lets the timer run out.
    let (mut game, _) = create(header(Variant::Synchronschach, "300+3", true));
    play(&mut game, &mut log, Color::White, "e2e4", 2_000);
    game.tick(START + 25_000).unwrap();
    assert_eq!(game.end(), Some(("*", "aborted")));
}

#[test]
fn a_pause_holds_the_timer_and_a_resume_restarts_it() {
    let (mut game, _) = create(header(Variant::Standard, "300+3", true));
    let arbiter = |action| Command::Arbiter {
        arbiter: "ida".into(),
        reason: "a disturbance".into(),
        action,
    };
    game.handle(arbiter(tempo_host::ArbiterAction::Pause), 10_000, [0; 32])
        .unwrap();
    assert_eq!(game.next_deadline(), None);
    assert!(game.tick(100_000).unwrap().is_empty());
    game.handle(arbiter(tempo_host::ArbiterAction::Resume), 100_000, [0; 32])
        .unwrap();
    assert_eq!(game.next_deadline(), Some(125_000));
}

#[test]
fn a_game_without_the_rule_runs_its_clock_from_the_start() {
    let header = header(Variant::Standard, "300+3", false);
    let text = serde_json::to_string(&Body::GameCreated(header.clone())).unwrap();
    // Its header writes as before the rule (the hash covers it).
    assert!(!text.contains("first_move"), "{text}");
    let (mut game, mut log) = create(header);
    assert_eq!(game.state(Audience::Public, 2_000)["clockRunning"], true);
    assert_eq!(ms(&game, Color::White, 11_000), 290_000);
    assert_eq!(game.next_deadline(), Some(START + 300_000));
    play(&mut game, &mut log, Color::White, "e2e4", 11_000);
    assert_eq!(ms(&game, Color::White, 11_000), 293_000);
    // A game with the rule names it in its header, and replays with it.
    let ruled = header_with_rule();
    let text = serde_json::to_string(&Body::GameCreated(ruled)).unwrap();
    assert!(text.contains(r#""first_move":25000"#), "{text}");
}

#[test]
fn only_the_rule_lets_a_game_abort_after_whites_first_move() {
    // With the rule: until both have moved.
    let (mut game, mut log) = create(header_with_rule());
    play(&mut game, &mut log, Color::White, "e2e4", 2_000);
    assert!(game.abortable());
    assert_eq!(game.state(Audience::Public, 2_000)["abortable"], true);
    // Without it (an old game, a tournament board): only before the first.
    let (mut game, mut log) = create(header(Variant::Standard, "300+3", false));
    assert!(game.abortable());
    play(&mut game, &mut log, Color::White, "e2e4", 2_000);
    assert!(!game.abortable());
    let abort = Command::Abort {
        color: Color::Black,
    };
    assert_eq!(
        game.handle(abort, 3_000, [0; 32]).unwrap_err(),
        tempo_host::HostError::TooLateToAbort
    );
}

fn header_with_rule() -> Header {
    header(Variant::Standard, "300+3", true)
}
