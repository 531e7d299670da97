//! The chess commands end to end: `tempo chess960 ...`, `tempo pgn check`,
//! `tempo moves` — output shapes, exit codes, one-line errors.

use std::process::{Command, Output};

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn last_line(out: &Output) -> String {
    stdout(out).lines().last().unwrap_or("").to_string()
}

fn pgn_data(name: &str) -> String {
    format!(
        "{}/../tempo-chess/tests/data/pgn/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn chess960_show_and_number() {
    for (n, fen) in [
        (
            "518",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            "0",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        ),
        (
            "959",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
        ),
    ] {
        let out = tempo(&["chess960", "show", n]);
        assert!(out.status.success());
        assert_eq!(last_line(&out), fen);
        let out = tempo(&["chess960", "number", fen]);
        assert!(out.status.success());
        assert_eq!(stdout(&out), format!("{n}\n"));
    }
    let out = tempo(&["chess960", "number", "RNBQKBNR"]);
    assert_eq!(stdout(&out), "518\n");
}

#[test]
fn chess960_errors_are_one_line() {
    for args in [
        &["chess960", "show", "960"][..],
        &[
            "chess960",
            "number",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ],
        &[
            "chess960",
            "number",
            "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ],
        &["chess960", "number", "KNBQRBNR"],
        &["chess960", "dice", "1", "2"],
        &["chess960", "dice", "1", "2", "3", "4", "4", "1"],
    ] {
        let out = tempo(args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("tempo: error: "), "{err}");
    }
}

#[test]
fn chess960_draw_replays() {
    let a = tempo(&["chess960", "draw", "--seed", "2024"]);
    let b = tempo(&["chess960", "draw", "--seed", "2024"]);
    assert_eq!(stdout(&a), stdout(&b));
    let text = stdout(&a);
    assert!(text.starts_with("number: "));
    assert!(text.contains("\nseed: 2024\n"));
    let number: u16 = text.lines().next().unwrap()["number: ".len()..]
        .parse()
        .unwrap();
    let shown = tempo(&["chess960", "show", &number.to_string()]);
    assert_eq!(last_line(&a), last_line(&shown));

    // Without --seed the printed seed replays the draw.
    let fresh = tempo(&["chess960", "draw", "--dice"]);
    let text = stdout(&fresh);
    let seed = text.lines().find_map(|l| l.strip_prefix("seed: ")).unwrap();
    let again = tempo(&["chess960", "draw", "--dice", "--seed", seed]);
    assert_eq!(stdout(&again), text);
    // The printed rolls give the same position by hand.
    let rolls: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("dice: "))
        .unwrap()
        .split(' ')
        .collect();
    let mut args = vec!["chess960", "dice"];
    args.extend(rolls);
    assert_eq!(last_line(&tempo(&args)), last_line(&fresh));
}

#[test]
fn pgn_check_reports_bad_games() {
    let out = tempo(&["pgn", "check", &pgn_data("games.pgn")]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "4 games, 4 ok, 0 with errors\n");

    let out = tempo(&["pgn", "check", &pgn_data("errors.pgn")]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(
        lines[0],
        "game 2 (line 9, column 47): illegal SAN 'Ke3' in position \
         r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5 (move 5, White)"
    );
    assert_eq!(lines[8], "10 games, 2 ok, 8 with errors");
    assert_eq!(stderr(&out), "tempo: error: 8 of 10 games have errors\n");

    let out = tempo(&["pgn", "check", "/nonexistent/file.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1);
}

#[test]
fn moves_in_every_notation() {
    let out = tempo(&["moves", "f3", "e7e5", "7274", "Qh4"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "ply\tsan\tuci\ticcf\n1\tf3\tf2f3\t6263\n2\te5\te7e5\t5755\n3\tg4\tg2g4\t7274\n\
         4\tQh4#\td8h4\t4884\n\
         fen: rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n\
         status: checkmate, 0-1\n"
    );
    for bad in ["Ke3", "e2e9", "0000", "52545", "Nd2x"] {
        let out = tempo(&["moves", "e4", "e5", bad]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("move 3 '{bad}'")), "{err}");
    }
}
