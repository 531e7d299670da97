//! `tempo standings --system keizer` on the source's worked example: both
//! rankings exactly, and method B for round 1.

use std::path::Path;
use std::process::Command;

fn standings(flags: &[&str]) -> Vec<(String, String)> {
    let trf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/keizer_example_r2.trf");
    let out = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args([
            "standings",
            "--system",
            "keizer",
            "--format",
            "tsv",
            "--trf",
        ])
        .arg(&trf)
        .args(flags)
        .output()
        .expect("run tempo");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let name = header.iter().position(|h| *h == "name").unwrap();
    let score = header.iter().position(|h| *h == "score").unwrap();
    lines
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[name].to_string(), cols[score].to_string())
        })
        .collect()
}

fn rows(want: &[(&str, &str)]) -> Vec<(String, String)> {
    want.iter()
        .map(|(n, s)| (n.to_string(), s.to_string()))
        .collect()
}

#[test]
fn ranking_after_round_1() {
    assert_eq!(
        standings(&["--rounds", "1"]),
        rows(&[
            ("Johnson", "99.0"),
            ("Harrison", "91.0"),
            ("Brown", "83.0"),
            ("Baker", "71.5"),
            ("Butcher", "71.0"),
            ("Smith", "65.5"),
            ("Higgins", "65.0"),
            ("Petersen", "49.0"),
            ("Carter", "46.0"),
            ("White", "42.0"),
        ])
    );
}

#[test]
fn ranking_after_round_2() {
    assert_eq!(
        standings(&[]),
        rows(&[
            ("Harrison", "141.0"),
            ("Brown", "136.0"),
            ("Johnson", "93.0"),
            ("Butcher", "92.0"),
            ("Smith", "90.0"),
            ("Petersen", "87.0"),
            ("Baker", "70.0"),
            ("Higgins", "66.5"),
            ("Carter", "62.5"),
            ("White", "62.0"),
        ])
    );
}

#[test]
fn method_b_after_round_1() {
    let scores: Vec<String> = standings(&["--rounds", "1", "--keizer-method", "B"])
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    assert_eq!(
        scores,
        [
            "93.0", "91.0", "89.0", "70.0", "69.5", "67.0", "66.5", "43.0", "42.0", "41.0"
        ]
    );
}
