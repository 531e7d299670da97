//! `tempo pair --system keizer` end to end, on the source's worked example
//! (tests/data/keizer_example_r*.trf: the starting list, and after rounds 1
//! and 2).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A copy of a fixture with extra lines appended, in a temporary file.
fn with_lines(fixture: &str, extra: &str, tag: &str) -> PathBuf {
    let mut text = std::fs::read_to_string(data(fixture)).unwrap();
    text.push_str(extra);
    let path = std::env::temp_dir().join(format!("tempo-keizer-{}-{tag}.trf", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run tempo")
}

fn pair(trf: &Path, flags: &[&str]) -> (String, String, bool) {
    let mut args = vec!["pair", "--system", "keizer", "--trf", trf.to_str().unwrap()];
    args.extend_from_slice(flags);
    let out = tempo(&args);
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

fn pairs_of(stdout: &str) -> Vec<(u32, u32)> {
    let mut lines = stdout.lines();
    let count: usize = lines.next().unwrap().parse().unwrap();
    let pairs: Vec<(u32, u32)> = lines
        .map(|l| {
            let mut it = l.split(' ').map(|x| x.parse::<u32>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    assert_eq!(pairs.len(), count, "first line counts the lines: {stdout}");
    pairs
}

#[test]
fn round_1_pairs_the_starting_list() {
    let (out, err, ok) = pair(&data("keizer_example_r0.trf"), &[]);
    assert!(ok, "{err}");
    // The source's text: the weaker player has White in round 1.
    assert_eq!(out, "5\n2 1\n4 3\n6 5\n8 7\n10 9\n");
    let (out, _, _) = pair(
        &data("keizer_example_r0.trf"),
        &["--keizer-colour-tie", "higher"],
    );
    assert_eq!(out, "5\n1 2\n3 4\n5 6\n7 8\n9 10\n");
}

#[test]
fn round_2_is_the_sources_pairing() {
    let (out, err, ok) = pair(
        &data("keizer_example_r1.trf"),
        &["--keizer-colour-tie", "higher"],
    );
    assert!(ok, "{err}");
    assert!(err.is_empty(), "{err}");
    // Harrison-Johnson, Brown-Baker, Butcher-Smith, Higgins-Petersen,
    // Carter-White: the example's boards, colours included.
    assert_eq!(out, "5\n6 1\n10 3\n4 7\n8 2\n5 9\n");
    let (out, _, _) = pair(&data("keizer_example_r1.trf"), &[]);
    assert_eq!(out, "5\n6 1\n10 3\n4 7\n2 8\n9 5\n");
}

#[test]
fn rematch_rule_never_avoids_earlier_opponents() {
    let trf = data("keizer_example_r2.trf");
    let (out, _, _) = pair(&trf, &[]);
    // Allowed (the default): Carter and White meet again on the last board.
    assert!(pairs_of(&out).contains(&(9, 5)), "{out}");
    let (out, err, ok) = pair(&trf, &["--keizer-rematch", "never"]);
    assert!(ok && err.is_empty(), "{err}");
    let earlier = [
        (1, 2),
        (3, 4),
        (5, 6),
        (7, 8),
        (9, 10),
        (6, 1),
        (10, 3),
        (4, 7),
        (8, 2),
        (5, 9),
    ];
    for (a, b) in pairs_of(&out) {
        assert!(
            !earlier.contains(&(a, b)) && !earlier.contains(&(b, a)),
            "{a}-{b} is a rematch: {out}"
        );
    }
}

#[test]
fn odd_attendance_gives_the_lowest_ranked_present_player_the_bye() {
    // White (9) is excused in round 3; Carter (5) is the lowest-ranked present.
    let trf = with_lines("keizer_example_r2.trf", "XTA E 3 9\n", "bye");
    let (out, err, ok) = pair(&trf, &[]);
    assert!(ok, "{err}");
    let pairs = pairs_of(&out);
    assert_eq!(pairs.len(), 5);
    assert_eq!(pairs.last(), Some(&(5, 0)));
    assert!(pairs.iter().all(|&(a, b)| a != 9 && b != 9));
}

#[test]
fn absence_marked_in_the_rounds_column() {
    // White (9) has `0000 - Z` (or `0000 - -`) in the round-3 column.
    for mark in ["Z", "-", "H"] {
        let text = std::fs::read_to_string(data("keizer_example_r2.trf")).unwrap();
        let text: String = text
            .lines()
            .map(|l| {
                if l.starts_with("001    9 ") {
                    format!("{l}  0000 - {mark}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let path = std::env::temp_dir().join(format!(
            "tempo-keizer-{}-mark{}.trf",
            std::process::id(),
            if mark == "-" { "dash" } else { mark }
        ));
        std::fs::write(&path, text).unwrap();
        let (out, err, ok) = pair(&path, &[]);
        assert!(ok, "{err}");
        let pairs = pairs_of(&out);
        assert_eq!(pairs.last(), Some(&(5, 0)), "{mark}: {out}");
        assert!(
            pairs.iter().all(|&(a, b)| a != 9 && b != 9),
            "{mark}: {out}"
        );
    }
}

#[test]
fn a_rule_that_cannot_be_kept_is_named() {
    // Only Johnson and Petersen are present in round 2; they met in round 1.
    let trf = with_lines(
        "keizer_example_r1.trf",
        "XTA E 2 3 4 5 6 7 8 9 10\n",
        "relax",
    );
    let (out, err, ok) = pair(&trf, &["--keizer-rematch", "never"]);
    assert!(ok, "{err}");
    assert_eq!(out, "1\n2 1\n");
    assert!(
        err.contains("rematch rule 'never' relaxed: 1-2 meet again"),
        "{err}"
    );
}

#[test]
fn stored_settings_apply_and_flags_override_them() {
    let trf = with_lines("keizer_example_r0.trf", "XTK colour-tie higher\n", "xtk");
    let (out, _, _) = pair(&trf, &[]);
    assert_eq!(out.lines().nth(1), Some("1 2"));
    let (out, _, _) = pair(&trf, &["--keizer-colour-tie", "lower"]);
    assert_eq!(out.lines().nth(1), Some("2 1"));
    // A preset replaces the stored settings.
    let (out, _, _) = pair(&trf, &["--keizer-preset", "source"]);
    assert_eq!(out.lines().nth(1), Some("2 1"));
}

#[test]
fn output_file_gets_the_same_text() {
    let path = std::env::temp_dir().join(format!("tempo-keizer-{}-out.txt", std::process::id()));
    let (out, _, ok) = pair(
        &data("keizer_example_r1.trf"),
        &["-o", path.to_str().unwrap()],
    );
    assert!(ok);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), out);
}

#[test]
fn bad_settings_fail_in_one_line() {
    for (flags, needle) in [
        (vec!["--keizer-ratio", "x"], "ratio"),
        (vec!["--keizer-rematch", "sometimes"], "rematch"),
        (vec!["--keizer-bye", "1/0"], "bye"),
    ] {
        let (out, err, ok) = pair(&data("keizer_example_r1.trf"), &flags);
        assert!(!ok, "{flags:?} should fail");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("tempo: error: ") && err.contains(needle),
            "{err}"
        );
    }
    let trf = with_lines("keizer_example_r1.trf", "XTK method D\n", "badxtk");
    let (_, err, ok) = pair(&trf, &[]);
    assert!(!ok);
    assert!(err.contains("'method'") && err.contains("XTK"), "{err}");
}

/// A whole club season through the CLI: each round some players are
/// excused (XTA), `tempo pair` pairs the rest, the results go back into the
/// TRF, and `tempo standings` ranks them. Every present player is paired
/// exactly once, the bye only for an odd count, never twice in a row to the
/// same player while others have none (fewest byes first), and no rematch
/// while one can be avoided.
#[test]
fn a_season_from_trf_files() {
    let n = 9u32;
    let mut lines: Vec<String> = (1..=n)
        .map(|id| {
            format!(
                "001 {id:>4}      {:<33}{:>37}",
                format!("Player {id}"),
                "0.0"
            )
        })
        .map(|l| format!("{l:<89}"))
        .collect();
    let mut extra = String::from("XTK rematch never\nXTK bye-rule fewest\n");
    let path = std::env::temp_dir().join(format!("tempo-keizer-{}-season.trf", std::process::id()));
    let mut met = std::collections::HashSet::new();
    let mut byes = vec![0u32; n as usize + 1];
    for round in 1..=6u32 {
        // In odd rounds player (round % n) + 1 is excused; even rounds
        // have all nine, so someone gets the bye.
        let absent = if round % 2 == 1 { round % n + 1 } else { 0 };
        if absent != 0 {
            extra.push_str(&format!("XTA E {round} {absent}\n"));
        }
        let text = format!("012 Club season\n{}\n{extra}", lines.join("\n"));
        std::fs::write(&path, text).unwrap();
        let (out, err, ok) = pair(&path, &[]);
        assert!(ok, "round {round}: {err}");
        assert!(!err.contains("rematch"), "round {round}: {err}");
        let pairs = pairs_of(&out);
        let mut seen = Vec::new();
        let mut blocks = vec![String::new(); n as usize + 1];
        for &(w, b) in &pairs {
            if b == 0 {
                blocks[w as usize] = "  0000 - U".into();
                byes[w as usize] += 1;
                seen.push(w);
                continue;
            }
            assert!(
                met.insert((w.min(b), w.max(b))),
                "round {round}: {w}-{b} again"
            );
            // The lower starting rank wins; every third board is drawn.
            let (rw, rb) = match (w + b + round) % 3 {
                0 => ("=", "="),
                _ if w < b => ("1", "0"),
                _ => ("0", "1"),
            };
            blocks[w as usize] = format!("  {b:>4} w {rw}");
            blocks[b as usize] = format!("  {w:>4} b {rb}");
            seen.extend([w, b]);
        }
        if absent != 0 {
            blocks[absent as usize] = "  0000 - Z".into();
        }
        seen.sort_unstable();
        let present: Vec<u32> = (1..=n).filter(|&i| i != absent).collect();
        assert_eq!(seen, present, "round {round}");
        for id in 1..=n {
            lines[id as usize - 1].push_str(&blocks[id as usize]);
        }
        // Fewest byes first: nobody has two byes while a present player has none.
        let most = byes.iter().max().unwrap();
        assert!(
            *most <= 1 || byes[1..].iter().all(|&b| b > 0),
            "round {round}: {byes:?}"
        );
    }
    let text = format!("012 Club season\n{}\n{extra}", lines.join("\n"));
    std::fs::write(&path, text).unwrap();
    let out = tempo(&[
        "standings",
        "--system",
        "keizer",
        "--format",
        "tsv",
        "--trf",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert_eq!(table.lines().count(), n as usize + 1, "{table}");
}

#[test]
fn a_round_without_results_is_named() {
    // Round 3 paired (1-2) but not played: the result column is blank.
    let text = std::fs::read_to_string(data("keizer_example_r2.trf")).unwrap();
    let text: String = text
        .lines()
        .map(|l| {
            if l.starts_with("001    1 ") {
                format!("{l}     2 w  \n")
            } else if l.starts_with("001    2 ") {
                format!("{l}     1 b  \n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let path =
        std::env::temp_dir().join(format!("tempo-keizer-{}-noresult.trf", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let (out, err, ok) = pair(&path, &[]);
    assert!(!ok && out.is_empty());
    assert!(
        err.contains("round 3: the game of player 1 has no result yet"),
        "{err}"
    );
}
