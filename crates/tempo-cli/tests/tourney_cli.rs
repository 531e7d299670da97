//! `tempo standings`, `tempo berger` and `tempo chess960 rounds` as a
//! director's script would run them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run tempo")
}

fn stdout(args: &[&str]) -> String {
    let out = tempo(args);
    assert!(
        out.status.success(),
        "tempo {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tourney")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn berger_prints_fide_table_with_header() {
    let text = stdout(&["berger", "4"]);
    assert_eq!(
        text,
        "round\tboard\twhite\tblack\n1\t1\t1\t4\n1\t2\t2\t3\n2\t1\t4\t3\n2\t2\t1\t2\n3\t1\t2\t4\n3\t2\t3\t1\n"
    );
    let odd = stdout(&["berger", "5"]);
    let byes: Vec<&str> = odd.lines().filter(|l| l.ends_with("\t0")).collect();
    assert_eq!(byes.len(), 5, "one bye per round:\n{odd}");
    let double = stdout(&["berger", "6", "--double"]);
    assert_eq!(double.lines().count(), 1 + 10 * 3);
    // Round 6 opens the second cycle: round 1 with colours reversed.
    assert!(double.contains("\n6\t1\t6\t1\n"), "{double}");
    assert!(!tempo(&["berger", "1"]).status.success());
}

#[test]
fn swiss_standings_tsv() {
    let file = data("swiss_t000_n19_r7.trf");
    let text = stdout(&[
        "standings",
        "--system",
        "swiss",
        "--trf",
        &file,
        "--format",
        "tsv",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "rank\tstart\tname\tscore\tBH-C1\tBH\tSB\tDE\tWIN\tBWG"
    );
    assert_eq!(lines.len(), 1 + 19);
    assert_eq!(
        lines[1],
        "1\t1\tTest0001 Player0001\t5.5\t26.0\t29.0\t22.75\t0\t4\t3"
    );
    let mut previous = f64::INFINITY;
    for line in &lines[1..] {
        let score: f64 = line.split('\t').nth(3).unwrap().parse().unwrap();
        assert!(score <= previous);
        previous = score;
    }
    let custom = stdout(&[
        "standings",
        "--system",
        "swiss",
        "--trf",
        &file,
        "--format",
        "tsv",
        "--tiebreaks",
        "BH-M1,ARO,TPR",
    ]);
    assert!(custom.starts_with("rank\tstart\tname\tscore\tBH-M1\tARO\tTPR\n"));
}

#[test]
fn round_robin_standings_hand_checked() {
    // 1-4 1-0, 2-3 ½, 4-3 0-1, 1-2 ½, 2-4 forfeit for 2, 3-1 0-1.
    let file = data("round_robin_4.trf");
    let text = stdout(&[
        "standings",
        "--system",
        "round-robin",
        "--trf",
        &file,
        "--format",
        "tsv",
    ]);
    assert_eq!(
        text,
        "rank\tstart\tname\tscore\tDE\tWIN\tSB\tKS\n\
         1\t1\tAdler, Eva\t2.5\t0\t2\t2.5\t1.5\n\
         2\t2\tBerg, Tom\t2.0\t0\t1\t2.0\t1.0\n\
         3\t3\tConti, Lia\t1.5\t0\t1\t1.0\t0.5\n\
         4\t4\tDorn, Max\t0.0\t0\t0\t0.0\t0.0\n"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&[
        "standings",
        "--system",
        "round-robin",
        "--trf",
        &file,
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(json["players"][1]["name"], "Berg, Tom");
    assert_eq!(json["players"][1]["tiebreaks"][2]["name"], "SB");
    assert_eq!(json["players"][1]["tiebreaks"][2]["value"], 2.0);
    let table = stdout(&["standings", "--system", "round-robin", "--trf", &file]);
    assert!(table.lines().next().unwrap().starts_with("Rk  No  Name"));
}

#[test]
fn keizer_standings_from_the_extension_file() {
    let file = data("club_extension.trf");
    let text = stdout(&[
        "standings",
        "--system",
        "keizer",
        "--trf",
        &file,
        "--format",
        "tsv",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "rank\tstart\tname\tscore\tvalue\tgames\twins\tdraws\tlosses"
    );
    // Top value 50 (XTK): Anna 50 + 49 for the win, Bruno his own 49.
    assert_eq!(lines[1], "1\t1\tKeller, Anna\t99.0\t50\t1\t1\t0\t0");
    assert_eq!(lines[2], "2\t2\tMeier, Bruno\t49.0\t49\t1\t0\t0\t1");
}

#[test]
fn chess960_rounds_are_seeded_and_recorded() {
    let text = stdout(&["chess960", "rounds", "--rounds", "5", "--seed", "2024"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(
        text,
        stdout(&["chess960", "rounds", "--rounds", "5", "--seed", "2024"])
    );
    let first: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(first[0], "1");
    let draw = stdout(&["chess960", "draw", "--seed", "2024"]);
    assert!(
        draw.starts_with(&format!("number: {}\n", first[1])),
        "{draw}"
    );
    assert_eq!(draw.lines().last().unwrap(), first[2]);
    // The file's recorded positions win over a new draw.
    let file = data("club_extension.trf");
    let recorded = stdout(&["chess960", "rounds", "--trf", &file]);
    assert!(recorded.starts_with("1\t721\t"), "{recorded}");
    assert!(recorded.lines().nth(1).unwrap().starts_with("2\t160\t"));
    assert_eq!(recorded.lines().count(), 5, "142 5 in the file");
}

#[test]
fn bad_trf_is_one_line_naming_the_place() {
    let dir = std::env::temp_dir().join(format!("tempo-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.trf");
    let line = format!("001    1      A{:>37}{:>28}{:>4}{:>5}", 1800, "", "x.5", 1);
    std::fs::write(&path, line).unwrap();
    let out = tempo(&[
        "standings",
        "--system",
        "swiss",
        "--trf",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("line 1, columns 81-84: points field 'x.5'"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_files_202_line_chooses_the_tie_breaks() {
    let dir = std::env::temp_dir().join(format!("tempo-cli-202-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let players: String = std::fs::read_to_string(data("round_robin_4.trf"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| format!("{l}\n"))
        .collect();
    for (header, expected) in [
        ("202 BH/C1,WIN\n", "rank\tstart\tname\tscore\tBH-C1\tWIN\n"),
        ("212 PTS,SB,KS\n", "rank\tstart\tname\tscore\tSB\tKS\n"),
    ] {
        let path = dir.join("t.trf");
        std::fs::write(&path, format!("{header}{players}")).unwrap();
        let p = path.to_str().unwrap();
        let text = stdout(&[
            "standings",
            "--system",
            "swiss",
            "--trf",
            p,
            "--format",
            "tsv",
        ]);
        assert!(text.starts_with(expected), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
