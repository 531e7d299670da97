//! Round trips of the record formats over random games: pair record,
//! SAN record, digit code, PGN, extended position notation (every state).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tempo_chess::Color;
use tempo_sync::playout::random_choice;
use tempo_sync::{Rules, SyncGame, Variant, digits, notation, pgn, record, san};

fn games(
    rules: Rules,
    count: usize,
    seed: u64,
    mut check: impl FnMut(&SyncGame, &[String], &[String], &SyncGame),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..count {
        let start = if i.is_multiple_of(2) {
            SyncGame::new(rules)
        } else {
            SyncGame::chess960(rules, (i * 37 % 960) as u16).unwrap()
        };
        let mut game = start.clone();
        let (mut lines, mut codes, mut sans) = (Vec::new(), Vec::new(), Vec::new());
        while !game.is_over() {
            // Every state survives the position notation.
            let text = notation::write(&game);
            let read = notation::read(rules, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(notation::write(&read), text);
            assert_eq!(read.phase(), game.phase(), "{text}");
            let white = random_choice(&game, Color::White, &mut rng);
            let black = random_choice(&game, Color::Black, &mut rng);
            let (next, events) = game.resolve(white, black).unwrap();
            lines.push(record::write_step(&game, white, black, &events));
            codes.push(digits::write_step(&game, white, black, &events));
            sans.push(san::write_step(&game, white, black, &events));
            game = next;
        }
        // The SAN record replays to the same end as the UCI one.
        let (again, _) = record::replay(&start, &sans.join("\n"))
            .unwrap_or_else(|e| panic!("{e}\n{}", sans.join("\n")));
        assert_eq!(notation::write(&again), notation::write(&game));
        check(&start, &lines, &codes, &game);
    }
}

fn round_trips(rules: Rules, count: usize, seed: u64) {
    games(rules, count, seed, |start, lines, codes, end| {
        let (again, _) = record::replay(start, &lines.join("\n")).unwrap();
        assert_eq!(notation::write(&again), notation::write(end));
        let (again, _) = digits::replay(start, &codes.join("\n"))
            .unwrap_or_else(|e| panic!("{e}\n{}", codes.join("\n")));
        assert_eq!(notation::write(&again), notation::write(end));
        let doc = pgn::SyncPgn {
            tags: tempo_chess::pgn::Tags::new(),
            start: start.clone(),
            lines: lines.to_vec(),
        };
        let text = doc.to_pgn(end);
        let (read, again, steps) = pgn::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(steps.len(), lines.len());
        assert_eq!(notation::write(&again), notation::write(end));
        assert_eq!(read.start.rules(), start.rules());
        assert_eq!(read.tags.get("Variant"), Some(rules.variant().name()));
    });
}

#[test]
fn synchronschach_records_round_trip() {
    round_trips(Rules::new(Variant::Synchronschach), 60, 21);
}

#[test]
fn fairschach_records_round_trip() {
    round_trips(Rules::new(Variant::Fairschach), 60, 22);
    let mut rules = Rules::new(Variant::Fairschach);
    rules
        .apply_options("same-square=weaker-stays pause=capturable orthodox-after=12")
        .unwrap();
    round_trips(rules, 30, 23);
}

/// A hand-written record with numbers, comments, exchange lines and a
/// result, and the errors of a bad one.
#[test]
fn record_syntax_and_errors() {
    let rules = Rules::new(Variant::Synchronschach);
    let text = "# a short game\n1. e2e4 d7d5\n2. e4d5 g8f6 {d5 was defended}\n2x. .. xd8d5\n3.b1c3 {Nc3} d5a5\n*\n";
    let start = SyncGame::new(rules);
    let (end, steps) = record::replay(&start, text).unwrap();
    assert_eq!(steps.len(), 4);
    assert_eq!(
        notation::write(&end),
        "rnb1kb1r/ppp1pppp/5n2/q7/8/2N5/PPPP1PPP/R1BQKBNR s KQkq - - 2 4"
    );
    // An illegal choice names the line, the pair, the player and why.
    let fair = SyncGame::new(Rules::new(Variant::Fairschach));
    let err = record::replay(&fair, "1. g1f3 e7e5\n2. f3e5 d7d6\n")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "line 2, pair 2, White: f3e5: the piece on f3 is paused (FSR 9: it moved in the last pair)"
    );
    let err = record::replay(&fair, "1. e2e4\n").unwrap_err().to_string();
    assert_eq!(err, "line 1, pair 1, Black: a choice is missing");
    let err = record::replay(&fair, "1. e2e5 e7e5\n")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("line 1, pair 1, White: e2e5:"), "{err}");
    let err = record::replay(&fair, "1. e2e4 e7e5 {oops\n")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "line 1: unterminated comment: missing '}'");
}

/// The digit code of the source: e2 = 52, f7-f5 = 6765, piece digit in
/// front.
#[test]
fn digit_code_example() {
    let game = SyncGame::new(Rules::new(Variant::Fairschach));
    let (end, steps) = digits::replay(&game, "1 65254 66765\n").unwrap();
    assert_eq!(steps.len(), 1);
    assert_eq!(
        end.position().board_fen(),
        "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR"
    );
    let err = digits::replay(&game, "1 55254 66765\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not match the piece on e2"), "{err}");
}
