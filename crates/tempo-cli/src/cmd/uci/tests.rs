//! The protocol in-process: a [`Session`] fed line by line.

use std::sync::mpsc::Receiver;

use super::*;

fn session() -> (Session, Receiver<String>) {
    let (tx, rx) = channel();
    (Session::new(tx), rx)
}

/// Lines up to and including the first starting with `word` (within
/// 60 s: a loaded machine).
fn until(rx: &Receiver<String>, word: &str) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no '{word}' after {lines:?}"));
        let done = line.split_whitespace().next() == Some(word);
        lines.push(line);
        if done {
            return lines;
        }
    }
}

fn send(s: &mut Session, lines: &[&str]) {
    for line in lines {
        assert_eq!(s.handle(line), Flow::Continue, "{line}");
    }
}

fn bestmove(lines: &[String]) -> &str {
    lines.last().unwrap().strip_prefix("bestmove ").unwrap()
}

#[test]
fn handshake_and_readiness() {
    let (mut s, rx) = session();
    send(&mut s, &["uci"]);
    let lines = until(&rx, "uciok");
    assert!(lines[0].starts_with("id name tempo "), "{lines:?}");
    assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Move Overhead type spin"))
    );
    send(&mut s, &["isready"]);
    assert_eq!(until(&rx, "readyok"), ["readyok"]);
    assert_eq!(s.handle("quit"), Flow::Quit);
}

#[test]
fn go_depth_gives_info_and_a_legal_bestmove() {
    let (mut s, rx) = session();
    send(&mut s, &["position startpos moves e2e4 e7e5", "go depth 2"]);
    let lines = until(&rx, "bestmove");
    let re = |l: &String| {
        let w: Vec<&str> = l.split_whitespace().collect();
        w.len() >= 13
            && w[..2] == ["info", "depth"]
            && w[3] == "score"
            && w[4] == "cp"
            && w[6] == "nodes"
            && w[8] == "nps"
            && w[10] == "time"
            && w[12] == "pv"
    };
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
    assert_eq!(infos.len(), 2, "one a completed iteration: {lines:?}");
    assert!(infos.iter().all(|l| re(l)), "{lines:?}");
    assert!(infos[1].starts_with("info depth 2 "));
    let pos = position(&s.state).clone();
    let mv = tempo_chess::uci::parse(&pos, bestmove(&lines)).expect("a legal move");
    assert!(pos.legal_moves().contains(&mv));
    // The pv starts with the move played.
    assert!(infos[1].contains(&format!(" pv {}", bestmove(&lines))));
}

#[test]
fn a_mate_is_scored_as_mate_and_a_mated_side_has_no_move() {
    let (mut s, rx) = session();
    send(
        &mut s,
        &[
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "go depth 3",
        ],
    );
    let lines = until(&rx, "bestmove");
    assert_eq!(bestmove(&lines), "a1a8");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    send(
        &mut s,
        &[
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8",
            "go depth 3",
        ],
    );
    let lines = until(&rx, "bestmove");
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
}

#[test]
fn castling_is_king_takes_rook_with_uci_chess960() {
    // Castling (king g1, rook h1 → f1) is White's only legal move.
    let fen = "k4r2/8/8/8/4b3/7p/7P/6KR w H - 0 1";
    let (mut s, rx) = session();
    send(
        &mut s,
        &[
            "setoption name UCI_Chess960 value true",
            &format!("position fen {fen}"),
            "go depth 1",
        ],
    );
    assert_eq!(bestmove(&until(&rx, "bestmove")), "g1h1");

    // Orthodox castling in both spellings; written as the option says.
    for (chess960, castle) in [("false", "e1g1"), ("true", "e1h1"), ("false", "e1h1")] {
        send(
            &mut s,
            &[
                &format!("setoption name UCI_Chess960 value {chess960}"),
                &format!("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 {castle}"),
            ],
        );
        let pos = position(&s.state);
        assert_eq!(
            pos.board_fen(),
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1"
        );
        assert_eq!(pos.is_chess960(), chess960 == "true");
    }
    // Black castles in the reply: its notation follows the option.
    let before = "position startpos moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 b1c3";
    send(
        &mut s,
        &[
            "setoption name UCI_Chess960 value true",
            &format!("{before} e8h8"),
        ],
    );
    assert!(position(&s.state).board_fen().starts_with("rnbq1rk1/"));
    assert!(rx.try_iter().all(|l| !l.starts_with("info string")));
}

#[test]
fn bad_lines_are_info_strings_and_keep_the_state() {
    let (mut s, rx) = session();
    let start = position(&s.state).to_fen();
    let expect = |s: &mut Session, line: &str, wanted: &str| {
        assert_eq!(s.handle(line), Flow::Continue);
        let got = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(
            got.starts_with("info string ") && got.contains(wanted),
            "{line}: {got}"
        );
    };
    expect(&mut s, "frobnicate now", "unknown command 'frobnicate'");
    expect(&mut s, "position", "expected 'position startpos|fen");
    expect(
        &mut s,
        "position fen 8/8/8 w - - 0 1",
        "position: invalid FEN",
    );
    expect(
        &mut s,
        "position fen 4k3/8/8/8/8/8/8/4K2K w - - 0 1",
        "position unchanged",
    );
    assert_eq!(position(&s.state).to_fen(), start);
    expect(
        &mut s,
        "position startpos moves e2e4 e7e6 e2e4 d7d5",
        "move 3 'e2e4'",
    );
    assert_eq!(
        position(&s.state).to_fen(),
        "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    expect(&mut s, "position startpos moves e2e4 0000", "null move");
    expect(
        &mut s,
        "position startpos moves e2",
        "invalid UCI move 'e2'",
    );
    expect(
        &mut s,
        "setoption name Hash value 16",
        "unknown option 'Hash'",
    );
    expect(
        &mut s,
        "setoption name UCI_Chess960 value maybe",
        "not true or false",
    );
    expect(
        &mut s,
        "setoption name Move Overhead value -3",
        "Move Overhead",
    );
    expect(&mut s, "setoption UCI_Chess960", "expected 'setoption name");
    assert!(!s.chess960);
    expect(&mut s, "go depth x", "'depth' needs a whole number");
    // The search ran anyway (no limit left: an infinite one): stop it.
    assert_eq!(s.handle("stop"), Flow::Continue);
    let lines = until(&rx, "bestmove");
    assert!(tempo_chess::uci::parse(position(&s.state), bestmove(&lines)).is_ok());
    expect(
        &mut s,
        "go depth 1 searchmoves e2e4 d2d4 frob",
        "'searchmoves' is not supported",
    );
    let lines = until(&rx, "bestmove");
    assert!(
        lines.iter().any(|l| l.contains("unknown 'frob'")),
        "{lines:?}"
    );
    let long = "x".repeat(200);
    expect(&mut s, &long, "…");
    expect(&mut s, "ponderhit", "does not ponder");
}

#[test]
fn stop_ends_an_infinite_search_with_a_bestmove_and_isready_is_answered_meanwhile() {
    let (mut s, rx) = session();
    send(&mut s, &["position startpos", "go infinite"]);
    std::thread::sleep(Duration::from_millis(300));
    send(&mut s, &["isready"]);
    let lines = until(&rx, "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    // An infinite search waits for stop even once it is done.
    std::thread::sleep(Duration::from_millis(200));
    assert!(rx.try_iter().all(|l| !l.starts_with("bestmove")));
    send(&mut s, &["stop"]);
    // stop returns after the bestmove has been sent.
    let rest: Vec<String> = rx.try_iter().collect();
    let last = rest.last().expect("a bestmove after stop");
    let mv = last.strip_prefix("bestmove ").expect("bestmove");
    assert!(tempo_chess::uci::parse(&Position::new(), mv).is_ok());
    // And the engine is back for the next search.
    send(&mut s, &["go depth 1"]);
    until(&rx, "bestmove");
}

#[test]
fn clocks_give_a_budget() {
    // 60 s + 1 s: 60000 / 30 + 750 = 2750, less 10 overhead.
    assert_eq!(clock_budget(60_000, 1_000, None, 10), 2_740);
    // One move to go: at most a quarter of the rest.
    assert_eq!(clock_budget(1_000, 0, Some(1), 10), 240);
    assert_eq!(clock_budget(0, 0, None, 10), 1);
    let (s, _rx) = session();
    let (limits, infinite) = s.limits(
        &["wtime", "60000", "btime", "1000", "winc", "1000"],
        Color::Black,
    );
    assert_eq!(limits.movetime, Some(Duration::from_millis(1000 / 30 - 10)));
    assert!(!infinite);
    let (limits, infinite) = s.limits(&["movetime", "500", "depth", "99"], Color::White);
    assert_eq!(
        (limits.movetime, limits.depth),
        (Some(Duration::from_millis(490)), Some(64))
    );
    assert!(!infinite);
    let (limits, infinite) = s.limits(&["nodes", "5000"], Color::White);
    assert_eq!((limits.nodes, limits.movetime), (Some(5000), None));
    assert!(!infinite);
    assert!(s.limits(&["infinite"], Color::White).1);
    assert!(s.limits(&[], Color::White).1);
}

#[test]
fn values_become_centipawns_or_mates_from_the_mover() {
    assert_eq!(score(0.0, Color::White), "cp 0");
    assert_eq!(score(100.0 / 700.0, Color::White), "cp 100");
    assert_eq!(score(100.0 / 700.0, Color::Black), "cp -100");
    assert_eq!(score(0.999, Color::White), "mate 1");
    assert_eq!(score(-0.998, Color::White), "mate -1");
    assert_eq!(score(-0.997, Color::Black), "mate 2");
    assert_eq!(score(0.996, Color::Black), "mate -2");
}

#[test]
fn serve_reads_to_the_end_and_skips_overlong_lines() {
    let long = "x".repeat(MAX_LINE + 10);
    let input = format!("uci\n{long}\nisready\nposition startpos\ngo depth 2\n");
    let (tx, rx) = channel();
    serve(std::io::Cursor::new(input), tx).unwrap();
    let lines: Vec<String> = rx.try_iter().collect();
    assert!(lines.contains(&format!(
        "info string input line longer than {MAX_LINE} bytes; ignored"
    )));
    assert!(lines.contains(&"readyok".to_string()));
    // The end of the input waits for the search with a limit.
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 2 ")));
}
