//! `tempo rating fide` and `tempo rating dwz`: the published figures the
//! library is checked against (docs/ratings.md, "Sources"), through the
//! command line, and bad input refused on one line naming the value.

use std::process::Output;

mod common;
use common::tempo_with_stdin;

fn tempo(args: &[&str]) -> Output {
    tempo_with_stdin(args, "")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The value of `key` in the `key  value` lines.
fn field(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
        .unwrap_or_else(|| panic!("no {key} in {text}"))
}

fn refused(args: &[&str], needle: &str) {
    let out = tempo(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "accepted {args:?}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("tempo: error: "), "{err}");
    assert!(err.contains(needle), "{err:?} lacks {needle:?}");
}

/// The issue's example (/work/shared/spec/ratings.md; FIDE B.02 table
/// 8.1(b)): 1800 with K 20 beats a 1900 and draws a 1700 → +10.0.
#[test]
fn fide_the_issues_example() {
    let text = stdout(&tempo(&[
        "rating", "fide", "--rating", "1800", "--k", "20", "--game", "1900,1", "--game", "1700,0.5",
    ]));
    assert_eq!(field(&text, "expected"), "1.00");
    assert_eq!(field(&text, "change"), "+10.0");
    assert_eq!(field(&text, "K"), "20");
}

/// elo-calculator.chesselo.com/rule.html: rated 2200 against 1000 or
/// 1600, the expected result is 0.92 for each game (the 400-point rule).
#[test]
fn fide_four_hundred_point_rule() {
    let text = stdout(&tempo(&[
        "rating", "fide", "--rating", "2200", "--k", "10", "--game", "1000,1", "1600,1",
    ]));
    assert_eq!(field(&text, "expected"), "1.84");
    // 10 × (2 − 1.84).
    assert_eq!(field(&text, "change"), "+1.6");
}

/// sk-troisdorf.de/index.php?id=125: DWZ 1000 against 1200 — 1101, 1035,
/// 985 for the 1000 after a win, draw, loss; 1132, 1177, 1232 for the
/// 1200 after a loss, draw, win (both up to 20 years, see the library's
/// test for the age and index taken).
#[test]
fn dwz_sk_troisdorf_example() {
    let cases = [
        ("1000", "1200,1", "1101 (+101)"),
        ("1000", "1200,0.5", "1035 (+35)"),
        ("1000", "1200,0", "985 (-15)"),
        ("1200", "1000,0", "1132 (-68)"),
        ("1200", "1000,0.5", "1177 (-23)"),
        ("1200", "1000,1", "1232 (+32)"),
    ];
    for (own, game, new) in cases {
        let text = stdout(&tempo(&[
            "rating", "dwz", "--rating", own, "--index", "10", "--age", "15", "--game", game,
        ]));
        assert_eq!(field(&text, "new"), new, "{own} {game}");
    }
}

/// Without `--index` the rating counts as established (E at most 30), as
/// beside a tournament's standings; with index 2, E is at most 10. An
/// adult at 2000: E0 = (2000/1000)^4 + 15 = 31 (the Wertungsordnung's
/// formula; no published figure for this case).
#[test]
fn dwz_without_an_index_is_an_established_rating() {
    let e = |extra: &[&str]| {
        let mut args = vec!["rating", "dwz", "--rating", "2000", "--game", "2000,0.5"];
        args.extend_from_slice(extra);
        field(&stdout(&tempo(&args)), "E")
    };
    assert_eq!(e(&[]), "30");
    assert_eq!(e(&["--index", "2"]), "10");
    assert_eq!(e(&["--index", "6"]), "30");
}

#[test]
fn bad_values_are_named_on_one_line() {
    refused(
        &[
            "rating", "fide", "--rating", "18oo", "--k", "20", "--game", "1900,1",
        ],
        "--rating '18oo': a whole number",
    );
    refused(
        &[
            "rating", "fide", "--rating", "1800", "--k", "50", "--game", "1900,1",
        ],
        "K 50: 1 to 40",
    );
    refused(
        &[
            "rating", "fide", "--rating", "1800", "--k", "20", "--game", "1900;1",
        ],
        "--game '1900;1'",
    );
    refused(
        &[
            "rating", "fide", "--rating", "1800", "--k", "20", "--game", "1900,2",
        ],
        "--game '1900,2'",
    );
    refused(
        &[
            "rating", "fide", "--rating", "1800", "--k", "20", "--game", "0,1",
        ],
        "rating 0: 1 to 3500",
    );
    refused(
        &[
            "rating", "dwz", "--rating", "1500", "--index", "x1", "--game", "1500,1",
        ],
        "--index 'x1'",
    );
    refused(
        &[
            "rating", "dwz", "--rating", "1500", "--index", "3", "--age", "200", "--game", "1500,1",
        ],
        "age 200: 0 to 120",
    );
}
