//! `tempo engine uci` as a process, and external UCI engines in `tempo
//! engine match`: tempo's own UCI mode as the opponent, fake engines that
//! fail, and Stockfish where it is installed (required with
//! `TEMPO_REQUIRE_STOCKFISH=1`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

const TEMPO: &str = env!("CARGO_BIN_EXE_tempo");
const STOCKFISH: &str = "/usr/games/stockfish";

fn tempo(args: &[&str]) -> Output {
    Command::new(TEMPO).args(args).output().expect("run tempo")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_scripted_session_ends_with_a_legal_bestmove() {
    let mut child = Command::new(TEMPO)
        .args(["engine", "uci"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start tempo engine uci");
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let until = |word: &str| -> Vec<String> {
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
    };
    writeln!(stdin, "uci").unwrap();
    let lines = until("uciok");
    assert!(lines[0].starts_with("id name tempo "), "{lines:?}");
    writeln!(stdin, "isready").unwrap();
    until("readyok");
    writeln!(
        stdin,
        "ucinewgame\nposition startpos moves e2e4 c7c5\ngo depth 2"
    )
    .unwrap();
    let lines = until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 2 score cp ")),
        "{lines:?}"
    );
    // An infinite search ends with stop.
    writeln!(stdin, "go infinite").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    writeln!(stdin, "stop").unwrap();
    let lines = until("bestmove");
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert_eq!(mv.len(), 4, "{mv}");
    writeln!(stdin, "nonsense\nquit").unwrap();
    let lines = until("info");
    assert_eq!(lines, ["info string unknown command 'nonsense'"]);
    assert!(child.wait().unwrap().success());
}

#[test]
fn piped_input_is_answered_to_its_end() {
    let mut child = Command::new(TEMPO)
        .args(["engine", "uci"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nposition fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().last(), Some("bestmove a1a8"), "{stdout}");
    assert!(stdout.contains("score mate 1"), "{stdout}");
}

/// `tempo engine match` with `args`, standard output and error.
fn play(args: &[&str]) -> (bool, String, String) {
    let out = tempo(args);
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

fn last_line(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or("")
}

#[test]
fn tempo_plays_its_own_uci_mode_in_a_match() {
    // The command is split at spaces: program, then its arguments.
    let external = format!("uci:{TEMPO} engine uci");
    for variant in ["standard", "chess960"] {
        let (ok, stdout, stderr) = play(&[
            "engine",
            "match",
            "--variant",
            variant,
            "--a",
            "nash",
            "--b",
            &external,
            "--games",
            "2",
            "--depth",
            "1",
            "--seed",
            "3",
        ]);
        assert!(ok, "{variant}: {stderr}");
        assert!(!stderr.contains("engine error"), "{variant}: {stderr}");
        assert!(
            stdout.starts_with(&format!("tempo: uci:{TEMPO} engine uci\n")),
            "{stdout}"
        );
        let last = last_line(&stdout);
        assert!(last.starts_with("nash vs tempo: score "), "{last}");
        assert!(last.contains(" over 2 games "), "{last}");
    }
}

/// A fake engine: a shell script that answers the handshake and then
/// `mode`: an illegal move, or exits when asked to move.
fn fake_engine(mode: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("tempo-uci-fake-{}-{mode}.sh", std::process::id()));
    let go = match mode {
        "illegal" => "echo 'bestmove e2e5'",
        "dies" => "exit 3",
        _ => unreachable!(),
    };
    let script = format!(
        "while read -r line; do case \"$line\" in\n\
         uci) echo 'id name fake'; echo 'option name Hash type spin default 1 min 1 max 8'; echo uciok;;\n\
         isready) echo readyok;;\n\
         go*) {go};;\n\
         quit) exit 0;;\n\
         esac; done\n"
    );
    std::fs::write(&path, script).unwrap();
    path
}

#[test]
fn an_engine_that_fails_loses_its_games_and_the_match_goes_on() {
    for (mode, why) in [("illegal", "'bestmove e2e5'"), ("dies", "exited")] {
        let script = fake_engine(mode);
        let external = format!("uci:/bin/sh {}", script.display());
        let (ok, stdout, stderr) = play(&[
            "engine",
            "match",
            "--variant",
            "standard",
            "--a",
            "nash",
            "--b",
            &external,
            "--b-option",
            "Hash=4",
            "--games",
            "2",
            "--depth",
            "1",
        ]);
        std::fs::remove_file(&script).ok();
        assert!(ok, "{mode}: {stderr}");
        assert!(
            stdout.contains("endings: nash by engine error 2"),
            "{mode}: {stdout}"
        );
        assert!(
            last_line(&stdout).ends_with("score 1.000 [0.342, 1.000] over 2 games (+2 =0 -0)"),
            "{stdout}"
        );
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("engine error"))
            .collect();
        assert_eq!(errors.len(), 2, "one line a game: {stderr}");
        assert!(
            errors
                .iter()
                .all(|l| l.starts_with("tempo: sh (") && l.contains(why)),
            "{stderr}"
        );
    }
}

#[test]
fn an_engine_that_cannot_start_or_lacks_an_option_is_an_error_up_front() {
    let (ok, _, stderr) = play(&[
        "engine",
        "match",
        "--variant",
        "standard",
        "--a",
        "nash",
        "--b",
        "uci:/nonexistent/engine",
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("--b uci:/nonexistent/engine: cannot start"),
        "{stderr}"
    );
    let external = format!("uci:{TEMPO} engine uci");
    let (ok, _, stderr) = play(&[
        "engine",
        "match",
        "--variant",
        "standard",
        "--a",
        &external,
        "--a-option",
        "Hash=16",
        "--b",
        "nash",
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("--a-option Hash: tempo has no such option"),
        "{stderr}"
    );
    let (ok, _, stderr) = play(&[
        "engine",
        "match",
        "--variant",
        "synchronschach",
        "--a",
        "nash",
        "--b",
        &external,
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(!ok);
    assert!(stderr.contains("only standard and chess960"), "{stderr}");
}

#[test]
fn stockfish_plays_a_short_match_where_installed() {
    if !Path::new(STOCKFISH).exists() {
        assert!(
            std::env::var_os("TEMPO_REQUIRE_STOCKFISH").is_none_or(|v| v != "1"),
            "TEMPO_REQUIRE_STOCKFISH=1 but {STOCKFISH} is missing (apt-get install stockfish)"
        );
        eprintln!("skipped: {STOCKFISH} is not installed (scripts/bench-elo installs it)");
        return;
    }
    let (ok, stdout, stderr) = play(&[
        "engine",
        "match",
        "--variant",
        "standard",
        "--a",
        "nash",
        "--b",
        &format!("uci:{STOCKFISH}"),
        "--b-option",
        "Threads=1",
        "--b-option",
        "Hash=16",
        "--b-option",
        "UCI_LimitStrength=true",
        "--b-option",
        "UCI_Elo=1350",
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("engine error"), "{stderr}");
    assert!(
        last_line(&stdout).starts_with("nash vs stockfish: score "),
        "{stdout}"
    );
}
