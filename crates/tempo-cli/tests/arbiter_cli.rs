//! `tempo arbiter clock-reset` and `tempo clock parse`, run as the built
//! binary: the spec's worked examples are golden.

use std::process::{Command, Output};

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run tempo")
}

fn last_line(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn pure_fischer_example() {
    let out = tempo(&[
        "arbiter",
        "clock-reset",
        "--control",
        "5400+30",
        "--played",
        "40",
        "--legal",
        "35",
        "--displayed",
        "20:00",
    ]);
    assert_eq!(last_line(&out), "0:28:45");
}

#[test]
fn two_period_example() {
    let out = tempo(&[
        "arbiter",
        "clock-reset",
        "--control",
        "40/5400+30:1800+30",
        "--played",
        "45",
        "--legal",
        "38",
        "--displayed",
        "25:00",
    ]);
    assert_eq!(last_line(&out), "0:09:47");
    // The same control in human form and the display with units.
    let out = tempo(&[
        "arbiter",
        "clock-reset",
        "--control",
        "90m/40 + 30m + 30s",
        "--played",
        "45",
        "--legal",
        "38",
        "--displayed",
        "25m",
    ]);
    assert_eq!(last_line(&out), "0:09:47");
}

#[test]
fn explain_shows_the_steps_and_alloc() {
    let out = tempo(&[
        "arbiter",
        "clock-reset",
        "--control",
        "40/5400+30:1800+30",
        "--played",
        "45",
        "--legal",
        "38",
        "--displayed",
        "25:00",
        "--explain",
    ]);
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    for needle in [
        "alloc(45) = 2:22:30",
        "alloc(38) = 1:49:00",
        "(2) used = alloc(45) - displayed = 2:22:30 - 0:25:00 = 1:57:30",
        "(3) legal used = 38/45 × used = 38/45 × 1:57:30 = 1:39:13.333",
        "(4) set = alloc(38) - legal used = 1:49:00 - 1:39:13.333 = 0:09:46.667",
        "(5) set = initial - 38/45 × (initial - displayed) = 0:35:06.667",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    assert_eq!(last_line(&out), "0:09:47");

    let out = tempo(&[
        "arbiter",
        "clock-reset",
        "--control",
        "5400+30",
        "--played",
        "40",
        "--legal",
        "35",
        "--displayed",
        "20:00",
        "--explain",
    ]);
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        text.contains(
            "(2) used = initial + 40 × increment - displayed = 1:50:00 - 0:20:00 = 1:30:00"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "(4) set = initial + 35 × increment - legal used = 1:47:30 - 1:18:45 = 0:28:45"
        ),
        "{text}"
    );
    assert!(text.contains("(the same as (4))"), "{text}");
    assert!(!text.contains("alloc("), "{text}");
}

#[test]
fn both_players_at_once() {
    let out = tempo(&[
        "arbiter",
        "clock-reset",
        "--control",
        "5400+30",
        "--white",
        "40,35,20:00",
        "--black",
        "40,35,1:00:00",
    ]);
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(text, "white 0:28:45\nblack 1:03:45\n");
}

#[test]
fn analogue_clock_formula_1() {
    let out = tempo(&[
        "arbiter",
        "clock-reset",
        "--played",
        "40",
        "--legal",
        "30",
        "--used",
        "1:40:00",
    ]);
    assert_eq!(last_line(&out), "1:15:00");
}

#[test]
fn bad_input_gives_one_line_errors() {
    for (args, needle) in [
        (
            vec![
                "--control",
                "5400+30",
                "--played",
                "30",
                "--legal",
                "35",
                "--displayed",
                "20:00",
            ],
            "cannot exceed played",
        ),
        (
            vec![
                "--control",
                "5400+30",
                "--played",
                "30",
                "--legal",
                "25",
                "--displayed",
                "20",
            ],
            "needs a unit",
        ),
        (
            vec![
                "--control",
                "5400+30",
                "--played",
                "30",
                "--legal",
                "25",
                "--displayed",
                "-20m",
            ],
            "cannot be negative",
        ),
        (
            vec![
                "--control",
                "40/5400+x",
                "--played",
                "30",
                "--legal",
                "25",
                "--displayed",
                "20m",
            ],
            "increment",
        ),
    ] {
        let mut full = vec!["arbiter", "clock-reset"];
        full.extend(args);
        let out = tempo(&full);
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with("tempo: error: ") && err.contains(needle),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn warns_when_the_display_exceeds_the_allotment() {
    let out = tempo(&[
        "arbiter",
        "clock-reset",
        "--control",
        "5400",
        "--played",
        "10",
        "--legal",
        "5",
        "--displayed",
        "1:35:00",
    ]);
    assert_eq!(last_line(&out), "1:32:30");
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning"));
}

#[test]
fn clock_parse_normalises() {
    let out = tempo(&["clock", "parse", "90m/40 + 30m + 30s"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("pgn: 40/5400+30:1800+30"), "{text}");
    assert!(text.contains("category: standard"), "{text}");
    let out = tempo(&["clock", "parse", "--human", "5+3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("pgn: 300+3") && text.contains("category: blitz"),
        "{text}"
    );
    assert!(text.contains("0:01:00 to the opponent"), "{text}");
}
