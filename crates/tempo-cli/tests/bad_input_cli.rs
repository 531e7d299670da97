//! Bad input is refused with one line naming the problem and a non-zero exit,
//! never answered wrongly: one test per class of input found to be accepted.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tempo(args: &[&str]) -> Output {
    tempo_with_stdin(args, "")
}

fn tempo_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().expect("finishes")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// The command fails with exactly one error line containing `needle`.
fn assert_refused(out: &Output, needle: &str) {
    let err = stderr(out);
    assert!(!out.status.success(), "accepted: {}", stdout(out));
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("tempo: error: "), "{err}");
    assert!(err.contains(needle), "{err:?} lacks {needle:?}");
}

#[test]
fn orthodox_commands_refuse_impossible_positions() {
    let cases = [
        ("8/8/8/8/8/8/8/8 w - - 0 1", "white has no king"),
        (
            "4k3/8/8/8/8/8/8/KKKKK3 w - - 0 1",
            "white has more than one king",
        ),
        (
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            "black is not to move but in check",
        ),
        (
            "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
            "pawn on the back rank at h8",
        ),
        (
            "4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1",
            "white has more pieces than promotions can explain",
        ),
        // Two knights cannot give check together: a double check needs a line piece.
        (
            "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1",
            "black is in a check no move can give",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "en-passant square e6 without a pawn",
        ),
    ];
    for (fen, needle) in cases {
        assert_refused(&tempo(&["perft", "--fen", fen, "--depth", "2"]), needle);
        assert_refused(&tempo(&["moves", "--fen", fen]), needle);
    }
}

#[test]
fn moves_cannot_capture_a_king() {
    let out = tempo(&["moves", "--fen", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "Rxe8"]);
    assert_refused(&out, "not a legal chess position");
    assert!(stdout(&out).is_empty());
}

#[test]
fn pgn_check_refuses_games_from_impossible_positions() {
    let pgn = "[FEN \"4k3/8/8/8/8/8/8/KKKKK3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kb2 *\n";
    let out = tempo_with_stdin(&["pgn", "check", "-"], pgn);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("game 1 (line 1, column 6): FEN tag is not a legal chess position: white has more than one king"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn pgn_check_drops_castling_rights_without_rook_with_a_warning() {
    let pgn = "[FEN \"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O *\n";
    let out = tempo_with_stdin(&["pgn", "check", "-"], pgn);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "1 games, 1 ok, 0 with errors\n");
    assert_eq!(
        stderr(&out),
        "tempo: warning: game 1: line 1, column 6: castling right 'Q' of the FEN tag has no king and rook to castle with; dropped\n"
    );
}

#[test]
fn variants_keep_the_positions_their_rules_need_and_refuse_the_rest() {
    // A start with a pawn on the first rank is no position of either variant.
    let out = tempo(&[
        "sync",
        "replay",
        "--variant",
        "synchronschach",
        "--fen",
        "4k3/8/8/8/8/8/8/K2P4 w - - 0 1",
    ]);
    assert_refused(&out, "pawn on the back rank at d1");
    // A finished game whose king was captured is a position of the variant.
    let out = tempo(&[
        "sync",
        "replay",
        "--variant",
        "synchronschach",
        "--fen",
        "4k3/8/8/8/8/8/8/8 #0-1:king-captured - - - 0 9",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("\"reason\": \"king-captured\""));
    // Both kings in check at the start of a pair is allowed (simultaneous moves).
    let out = tempo(&[
        "sync",
        "replay",
        "--variant",
        "fairschach",
        "--fen",
        "4k3/4R3/8/8/8/8/4r3/4K3 w - - 0 1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn pgn_check_bounds_nested_variations() {
    let deep = format!(
        "1. e4 {}{} e5 *\n",
        "(1. d4 ".repeat(50_000),
        ")".repeat(50_000)
    );
    let out = tempo_with_stdin(&["pgn", "check", "-"], &deep);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("variations nested deeper than 100 levels"));
    let fine = format!("1. e4 {}{} e5 *\n", "(1. d4 ".repeat(100), ")".repeat(100));
    let out = tempo_with_stdin(&["pgn", "check", "-"], &fine);
    assert!(out.status.success(), "{}", stdout(&out));
}

#[test]
fn clock_parse_keeps_meaning_and_says_what_is_wrong_once() {
    let out = tempo(&["clock", "parse", "ICCF 50d/10"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).starts_with("pgn: none (PGN's TimeControl cannot express this control)\n"),
        "{}",
        stdout(&out)
    );
    let out = tempo(&["clock", "parse", "0+0"]);
    assert_refused(&out, "the first period grants no time");
    assert_eq!(
        stderr(&out).matches("grants no time").count(),
        1,
        "{}",
        stderr(&out)
    );
    assert_refused(
        &tempo(&["clock", "parse", "99999999999999999999+0"]),
        "seconds is too large (at most 3162240000 seconds)",
    );
    assert_refused(
        &tempo(&["clock", "parse", "--human", "99999999999999999h + 3s"]),
        "is too long (at most 100 years)",
    );
}

#[test]
fn sync_counts_must_be_meaningful() {
    assert_refused(
        &tempo(&["sync", "bench", "--variant", "fairschach", "--seconds", "0"]),
        "--seconds 0: must be more than 0",
    );
    assert_refused(
        &tempo(&[
            "sync",
            "random-games",
            "--variant",
            "fairschach",
            "--games",
            "0",
        ]),
        "--games 0: must be from 1 to 10000000",
    );
}

#[test]
fn sync_replay_checks_the_written_move_number() {
    let replay = |text: &str, digits: bool| {
        let mut args = vec!["sync", "replay", "--variant", "synchronschach"];
        if digits {
            args.push("--digits");
        }
        tempo_with_stdin(&args, text)
    };
    // After 2. exd5 Nf6 Black may take back on d5: the exchange step 2x. is due.
    let out = replay("1. e2e4 d7d5\n2. e4d5 g8f6\n3. b1c3 d8d5\n", false);
    assert_refused(
        &out,
        "line 3: '3.' written, but the exchange step '2x.' of pair 2 is due",
    );
    let out = replay("1 65254 64745\n2 65445 57866\n3 52133 0\n", true);
    assert_refused(
        &out,
        "line 3: pair number 3 written, but the exchange step of pair 2 is due",
    );
    let out = replay("1. e2e4 d7d5\n2x. e4d5 g8f6\n", false);
    assert_refused(&out, "'2x.' written, but no exchange step is due");
    let out = replay("1. e2e4 d7d5\n5. e4d5 g8f6\n", false);
    assert_refused(&out, "move number 5 written, but pair 2 is due");
    // Numbers stay optional.
    let out = replay("e2e4 d7d5\ne4d5 g8f6\n.. xd8d5\n", false);
    assert!(out.status.success(), "{}", stderr(&out));
}
