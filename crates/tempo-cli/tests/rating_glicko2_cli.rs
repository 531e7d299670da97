//! `tempo rating glicko2`: one Glicko-2 rating period from the command
//! line, checked against Glickman's worked example, and bad values named
//! in one line with a non-zero exit.

use std::process::{Command, Output};

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run tempo")
}

/// Glickman, "Example of the Glicko-2 system" (glicko2.pdf): 1500 / 200 /
/// 0.06, τ = 0.5, beats 1400/30, loses to 1550/100 and 1700/300 →
/// 1464.06 / 151.52 / 0.05999 as printed there (μ′ rounded to −0.2069
/// before converting; σ′ cut to five places).
#[test]
fn glickmans_example() {
    let out = tempo(&[
        "rating",
        "glicko2",
        "--player",
        "1500,200,0.06",
        "--game",
        "1400,30,1",
        "--game",
        "1550,100,0",
        "--game",
        "1700,300,0",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let value = |name: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} in {text}"))
            .parse()
            .unwrap()
    };
    assert!((value("rating") - 1464.06).abs() < 0.02, "{text}");
    assert!((value("rd") - 151.52).abs() < 0.005, "{text}");
    assert!((value("volatility") - 0.05999).abs() < 0.00001, "{text}");
    // τ is the paper's 0.5 unless given: the same with --tau 0.5.
    let explicit = tempo(&[
        "rating",
        "glicko2",
        "--tau",
        "0.5",
        "--player",
        "1500,200,0.06",
        "--game",
        "1400,30,1",
        "--game",
        "1550,100,0",
        "--game",
        "1700,300,0",
    ]);
    assert_eq!(String::from_utf8(explicit.stdout).unwrap(), text);
}

#[test]
fn bad_values_are_named_in_one_line() {
    for (args, named) in [
        (
            vec!["--player", "1500,-200,0.06", "--game", "1400,30,1"],
            "-200",
        ),
        (
            vec!["--player", "1500,200,0.06", "--game", "1400,30,1.5"],
            "'1.5'",
        ),
        (vec!["--player", "NaN,200,0.06"], "NaN"),
        (vec!["--player", "1500,200"], "1500,200"),
        (vec!["--player", "1500,200,0.06", "--tau", "0"], "tau 0"),
        (
            vec!["--player", "1500,200,0.06", "--game", "x,30,1"],
            "\"x\"",
        ),
    ] {
        let mut all = vec!["rating", "glicko2"];
        all.extend(&args);
        let out = tempo(&all);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
