//! `tempo sync resolve | replay | random-games` run as the built binary.

use std::process::Output;

use serde_json::Value;

mod common;

fn tempo(args: &[&str], stdin: &str) -> Output {
    common::tempo_with_stdin(args, stdin)
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn resolve_prints_fen_phase_events() {
    let out = tempo(
        &[
            "sync",
            "resolve",
            "--variant",
            "synchronschach",
            "--fen",
            "4k3/p7/2n5/8/8/8/P3N3/4K3 w - - 0 1",
            "--white",
            "e2d4",
            "--black",
            "c6d4",
        ],
        "",
    );
    let v = json(&out);
    assert_eq!(v["fen"], "4k3/p7/8/8/8/8/P7/4K3 s - - - 0 2");
    assert_eq!(
        v["fen"].as_str().unwrap().split(' ').next().unwrap(),
        "4k3/p7/8/8/8/8/P7/4K3"
    );
    assert_eq!(v["phase"]["name"], "pair");
    let events = v["events"].as_array().unwrap();
    assert!(events.iter().any(|e| e["type"] == "collision"
        && e["square"] == "d4"
        && e["white_removed"] == true
        && e["black_removed"] == true));
}

#[test]
fn resolve_exchange_phase_choice() {
    let out = tempo(
        &[
            "sync",
            "resolve",
            "--variant",
            "synchronschach",
            "--fen",
            "4k3/5B2/p7/8/8/8/8/4K3 x:-:f7:- - - - 0 1",
            "--black",
            "xe8f7",
        ],
        "",
    );
    let v = json(&out);
    assert_eq!(v["fen"], "8/5k2/p7/8/8/8/8/4K3 s - - - 0 2");
}

#[test]
fn resolve_rejects_bad_input_in_one_line() {
    let out = tempo(
        &[
            "sync",
            "resolve",
            "--variant",
            "fairschach",
            "--fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "--white",
            "e2e4",
            "--black",
            "e7e5",
        ],
        "",
    );
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("tempo: error: invalid --fen"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let out = tempo(
        &[
            "sync",
            "resolve",
            "--variant",
            "chess",
            "--fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ],
        "",
    );
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("unknown variant 'chess'")
    );
}

#[test]
fn replay_file_and_stdin() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sync/exchange.txt");
    let v = json(&tempo(
        &["sync", "replay", "--variant", "synchronschach", file],
        "",
    ));
    assert_eq!(
        v["fen"],
        "rnb1kb1r/ppp1pppp/5n2/q7/8/2N5/PPPP1PPP/R1BQKBNR s KQkq - - 2 4"
    );
    assert_eq!(v["steps"], 4);
    let v = json(&tempo(
        &["sync", "replay", "--variant", "fairschach"],
        "e2e4 e7e5\ng1f3 b8c6\n",
    ));
    assert_eq!(v["pair"], 3);
}

#[test]
fn replay_error_names_pair_player_and_reason() {
    let out = tempo(
        &["sync", "replay", "--variant", "fairschach"],
        "1. g1f3 e7e5\n2. f3e5 d7d6\n",
    );
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "tempo: error: <stdin>: line 2, pair 2, White: f3e5: the piece on f3 is paused (FSR 9: it moved in the last pair)\n"
    );
}

#[test]
fn pgn_export_reads_back() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sync/exchange.txt");
    let out = tempo(
        &[
            "sync",
            "replay",
            "--variant",
            "synchronschach",
            "--export",
            "pgn",
            file,
        ],
        "",
    );
    assert!(out.status.success());
    let pgn = String::from_utf8(out.stdout).unwrap();
    assert!(pgn.contains("[Variant \"Synchronschach\"]"));
    // The movetext is the SAN record, and it reads back.
    assert!(
        pgn.contains("2. exd5 Nf6 {exchange black d5}") && pgn.contains("2x. .. Qxd5"),
        "{pgn}"
    );
    let v = json(&tempo(
        &["sync", "replay", "--variant", "synchronschach"],
        &pgn,
    ));
    assert_eq!(
        v["fen"],
        "rnb1kb1r/ppp1pppp/5n2/q7/8/2N5/PPPP1PPP/R1BQKBNR s KQkq - - 2 4"
    );
    let out = tempo(&["sync", "replay", "--variant", "fairschach"], &pgn);
    assert!(!out.status.success());
}

#[test]
fn random_games_report() {
    let out = tempo(
        &[
            "sync",
            "random-games",
            "--variant",
            "fairschach",
            "--games",
            "50",
            "--seed",
            "3",
            "--json",
        ],
        "",
    );
    let v = json(&out);
    assert_eq!(v["games"], 50);
    let total: u64 = v["results"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|reasons| reasons.as_object().unwrap().values())
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(total, 50);
    assert!(v["mean_pairs"].as_f64().unwrap() > 0.0);
    let text = tempo(
        &[
            "sync",
            "random-games",
            "--variant",
            "synchronschach",
            "--games",
            "20",
            "--seed",
            "3",
        ],
        "",
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("White wins: ") && text.contains("Draws: ") && text.contains("mean length: ")
    );
}

/// `sync bench` prints each figure with its unit, the perft rate of the
/// same run beside them (a short run: only the report is checked here).
/// Its drivers are in the binary only with the `bench` feature.
#[cfg(feature = "bench")]
#[test]
fn bench_reports_pairs_and_perft() {
    let out = tempo(
        &[
            "sync",
            "bench",
            "--variant",
            "synchronschach",
            "--seconds",
            "0.05",
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rates: Vec<f64> = text
        .lines()
        .filter_map(|line| line.split_once(": ")?.1.split(" M ").next()?.parse().ok())
        .collect();
    assert_eq!(rates.len(), 4, "{text}");
    assert!(rates.iter().all(|&r| r > 0.0), "{text}");
    assert!(text.contains("pair resolutions/s") && text.contains("perft"));
}

/// Without the `bench` feature, `sync bench` checks its options and then
/// says how to build it, on one line, failing.
#[cfg(not(feature = "bench"))]
#[test]
fn bench_names_the_feature_in_a_default_build() {
    let out = tempo(
        &[
            "sync",
            "bench",
            "--variant",
            "synchronschach",
            "--seconds",
            "0.05",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "tempo: error: `tempo sync bench` is not in this build (the benchmark drivers are a \
         cargo feature): run `cargo run --release --features bench -- sync bench ...`\n"
    );
}
