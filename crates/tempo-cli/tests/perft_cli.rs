//! `tempo perft`: output contract (last line is the bare total), divide
//! lines, Chess960 castling notation, one-line errors.

use std::process::Command;

fn tempo(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run tempo");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn total_is_the_last_line() {
    let (ok, out, _) = tempo(&["perft", "--depth", "3"]);
    assert!(ok);
    assert_eq!(out, "8902\n");
    let (ok, out, _) = tempo(&[
        "perft",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "--depth",
        "2",
    ]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("2039"));
}

#[test]
fn divide_lists_root_moves_then_the_total() {
    let (ok, out, _) = tempo(&[
        "perft",
        "--fen",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "--depth",
        "2",
        "--divide",
    ]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 15 + 2);
    assert!(lines.contains(&"e1g1: 3"), "{out}");
    assert_eq!(lines[15], "");
    assert_eq!(lines[16], "66");
    let sum: u64 = lines[..15]
        .iter()
        .map(|line| line.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 66);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let (_, out, _) = tempo(&[
        "perft",
        "--fen",
        fen,
        "--depth",
        "1",
        "--divide",
        "--chess960",
    ]);
    assert!(out.contains("e1h1: 1"), "{out}");
    assert!(!out.contains("e1g1"), "{out}");
    // Shredder-FEN letters switch Chess960 on by themselves.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let (ok, out, _) = tempo(&["perft", "--fen", fen, "--depth", "3"]);
    assert!(ok);
    assert_eq!(out, "12189\n");
}

#[test]
fn bad_fen_is_a_one_line_error() {
    let (ok, out, err) = tempo(&[
        "perft",
        "--fen",
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "--depth",
        "1",
    ]);
    assert!(!ok);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("tempo: error: ")
            && err.contains("FEN field 1 (piece placement), character 14: invalid piece 'x'"),
        "{err}"
    );
}

/// `tempo bench perft`: the same columns with or without the cozy-chess
/// reference; without it (the default build) its columns are `-` and one
/// line on standard error says how to get them.
#[test]
fn bench_perft_keeps_its_columns() {
    let (ok, out, err) = tempo(&["bench", "perft", "--rounds", "1"]);
    assert!(ok, "{err}");
    let lines: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines[0],
        [
            "position", "depth", "nodes", "tempo", "nodes/s", "cozy", "nodes/s", "ratio"
        ]
    );
    let names: Vec<&str> = lines[1..].iter().map(|l| l[0]).collect();
    assert_eq!(names, ["start", "kiwipete", "chess960-1", "total"]);
    assert_eq!(lines[4][1], "9277884");
    let reference = cfg!(feature = "cozy-reference");
    for row in &lines[1..] {
        let cozy = &row[row.len() - 2..];
        if reference {
            assert!(
                cozy[0].parse::<f64>().is_ok() && cozy[1].ends_with('x'),
                "{row:?}"
            );
        } else {
            assert_eq!(cozy, ["-", "-"], "{row:?}");
        }
    }
    if reference {
        assert_eq!(err, "");
    } else {
        assert_eq!(
            err,
            "tempo: built without the cozy-chess reference; for its columns run \
             `cargo run --release --features cozy-reference -- bench perft`\n"
        );
    }
}

/// `tempo bench serve` is in the binary only with the `bench` feature;
/// without it the options are still checked, then one line says how to
/// build it.
#[cfg(not(feature = "bench"))]
#[test]
fn bench_serve_names_the_feature_in_a_default_build() {
    let (ok, out, err) = tempo(&["bench", "serve", "--games", "0"]);
    assert!(!ok);
    assert_eq!(out, "");
    assert_eq!(err, "tempo: error: --games 0: from 1 to 5000\n");
    let (ok, out, err) = tempo(&["bench", "serve", "--games", "2", "--pairs", "1"]);
    assert!(!ok);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "tempo: error: `tempo bench serve` is not in this build (the benchmark drivers are a \
         cargo feature): run `cargo run --release --features bench -- bench serve ...`\n"
    );
}
