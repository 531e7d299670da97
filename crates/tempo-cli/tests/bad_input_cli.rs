//! Bad input is refused with one line naming the problem and a non-zero exit,
//! never answered wrongly: one test per class of input found to be accepted.

use std::process::Output;

mod common;
use common::tempo_with_stdin;

fn tempo(args: &[&str]) -> Output {
    tempo_with_stdin(args, "")
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
    // Found by fuzzing: `1/86400` would read back as days per move.
    let out = tempo(&["clock", "parse", "--human", "1d/1"]);
    assert!(stdout(&out).starts_with("pgn: none ("), "{}", stdout(&out));
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

const SWISS: &str = include_str!("data/tourney/swiss_3_of_5.trf");

/// Writes `text` to a fresh file in the temporary directory.
fn temp_trf(name: &str, text: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("tempo-bad-input-{}-{name}.trf", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// The Swiss file with one line's text replaced.
fn swiss_with(line_start: &str, from: &str, to: &str) -> String {
    SWISS
        .lines()
        .map(|l| {
            if l.starts_with(line_start) {
                l.replacen(from, to, 1)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn contradicting_game_lines_stop_every_command() {
    // Player 7 lost to player 1 in round 1; now both won.
    let both_won = temp_trf("both-won", &swiss_with("001    7", "   1 b 0", "   1 b 1"));
    let file = both_won.to_str().unwrap();
    for args in [
        vec!["pair", "--system", "dutch", "--trf", file],
        vec!["pair", "--system", "keizer", "--trf", file],
        vec!["check", "--system", "dutch", "--trf", file],
        vec!["standings", "--system", "swiss", "--trf", file],
        vec!["chess960", "rounds", "--trf", file, "--seed", "1"],
    ] {
        assert_refused(
            &tempo(&args),
            "line 3, columns 92-99: round 1: player 1 (Player 0001) has result '1' and player 7 (Player 0007) has '1': the results contradict each other",
        );
    }
    let same_colour = temp_trf(
        "same-colour",
        &swiss_with("001    7", "   1 b 0", "   1 w 0"),
    );
    assert_refused(
        &tempo(&[
            "standings",
            "--system",
            "swiss",
            "--trf",
            same_colour.to_str().unwrap(),
        ]),
        "both have the same colour",
    );
    let other_opponent = temp_trf(
        "other-opponent",
        &swiss_with("001    7", "   1 b 0", "   2 b 0"),
    );
    assert_refused(
        &tempo(&[
            "pair",
            "--system",
            "dutch",
            "--trf",
            other_opponent.to_str().unwrap(),
        ]),
        "lists player 7 (Player 0007) as opponent, but player 7 (Player 0007) lists 2",
    );
}

#[test]
fn dutch_pairing_waits_for_every_result() {
    let pending =
        swiss_with("001    1", "   4 w 1", "   4 w  ").replacen("3.0    1", "2.0    1", 1);
    let pending = pending.replacen(
        "001    4      Player 0004                       2022                             1.5    6    10 b =     8 w 1     1 b 0",
        "001    4      Player 0004                       2022                             1.5    6    10 b =     8 w 1     1 b  ",
        1,
    );
    let path = temp_trf("pending", &pending);
    assert_refused(
        &tempo(&["pair", "--system", "dutch", "--trf", path.to_str().unwrap()]),
        "round 3: the game of player 1 and player 4 has no result; enter it before pairing the next round",
    );
}

#[test]
fn garbage_is_not_a_tournament() {
    let path = temp_trf("garbage", "GIF89a\u{1}\u{2} this is no TRF\n\u{7f}\u{0}\n");
    for args in [
        vec![
            "standings",
            "--system",
            "swiss",
            "--trf",
            path.to_str().unwrap(),
        ],
        vec!["pair", "--system", "dutch", "--trf", path.to_str().unwrap()],
        vec![
            "check",
            "--system",
            "dutch",
            "--trf",
            path.to_str().unwrap(),
        ],
    ] {
        assert_refused(
            &tempo(&args),
            "no player line ('001'): this is not a tournament file",
        );
    }
}

#[test]
fn questions_outside_the_data_and_counts_beyond_limits_are_refused() {
    let path = temp_trf("rounds", SWISS);
    assert_refused(
        &tempo(&[
            "standings",
            "--system",
            "swiss",
            "--trf",
            path.to_str().unwrap(),
            "--rounds",
            "99",
        ]),
        "--rounds 99:",
    );
    assert_refused(
        &tempo(&["chess960", "rounds", "--rounds", "961", "--seed", "1"]),
        "961 rounds are too many: at most 960, so that no position repeats",
    );
    assert_refused(
        &tempo(&[
            "chess960",
            "rounds",
            "--rounds",
            "4000000000",
            "--seed",
            "1",
        ]),
        "at most 960",
    );
    assert_refused(
        &tempo(&[
            "generate",
            "--system",
            "dutch",
            "--players",
            "100000",
            "--rounds",
            "5",
            "-o",
            "/dev/null",
        ]),
        "100000 players are too many for the pairing engine (at most 5000)",
    );
    assert_refused(
        &tempo(&[
            "check", "--system", "dutch", "--corpus", ".", "--jobs", "100000",
        ]),
        "--jobs 100000: must be from 1 to 64",
    );
}

#[test]
fn a_points_column_the_results_do_not_give_is_named() {
    let path = temp_trf("points", &swiss_with("001    2", "2.0", "9.5"));
    let out = tempo(&[
        "standings",
        "--system",
        "swiss",
        "--trf",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("line 4, columns 81-84: player 2 (Player 0002) has 9.5 points in the file, but the results give 2.0"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_tie_break_edition_comes_from_the_flag_or_the_file() {
    let standings = |path: &std::path::Path, extra: &[&str]| {
        let mut args = vec![
            "standings",
            "--system",
            "swiss",
            "--trf",
            path.to_str().unwrap(),
            "--tiebreaks",
            "BH",
        ];
        args.extend_from_slice(extra);
        let out = tempo(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let plain = temp_trf("edition-none", SWISS);
    let old = temp_trf("edition-2023", &format!("{SWISS}XTE 2023\n"));
    let default = standings(&plain, &[]);
    assert_eq!(default, standings(&plain, &["--unplayed", "fide2026"]));
    // Player 11 had a pairing-allocated bye: the 2023 dummy is not capped.
    assert_ne!(default, standings(&plain, &["--unplayed", "fide2023"]));
    assert_eq!(
        standings(&old, &[]),
        standings(&plain, &["--unplayed", "fide2023"])
    );
    assert_eq!(standings(&old, &["--unplayed", "fide2026"]), default);
    let bad = temp_trf("edition-bad", &format!("{SWISS}XTE 2019\n"));
    assert_refused(
        &tempo(&[
            "standings",
            "--system",
            "swiss",
            "--trf",
            bad.to_str().unwrap(),
        ]),
        "tie-break edition '2019' is not 2023 or 2026",
    );
}

#[test]
fn an_oversized_tournament_file_is_refused_before_reading() {
    let path = temp_trf("oversized", "");
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(65 * 1024 * 1024)
        .unwrap();
    assert_refused(
        &tempo(&[
            "standings",
            "--system",
            "swiss",
            "--trf",
            path.to_str().unwrap(),
        ]),
        "bytes is too large for a tournament file (at most 67108864",
    );
    std::fs::remove_file(path).unwrap();
}
