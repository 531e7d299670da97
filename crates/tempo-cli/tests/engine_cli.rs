//! `tempo engine analyse | match | bench` and `tempo study fairness` run
//! as the built binary: the JSON shapes and the exact last line of a
//! match, small budgets only.

use std::process::{Command, Output};

use serde_json::Value;

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run tempo")
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn check_strategy(list: &Value) {
    let list = list.as_array().expect("a list of moves");
    assert!(!list.is_empty());
    let mut total = 0.0;
    for entry in list {
        let mv = entry["move"].as_str().expect("move");
        assert!(mv.len() >= 4, "{mv}");
        let p = entry["p"].as_f64().expect("p");
        assert!((0.0..=1.0).contains(&p));
        total += p;
    }
    assert!((total - 1.0).abs() < 0.01, "{total}");
}

#[test]
fn analyse_a_pair_gives_both_strategies() {
    for variant in ["synchronschach", "fairschach"] {
        let out = tempo(&[
            "engine",
            "analyse",
            "--variant",
            variant,
            "--fen",
            "4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1",
            "--depth",
            "1",
        ]);
        let v = json(&out);
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["black", "depth", "nodes", "value", "white"]);
        assert_eq!(v["depth"], 1);
        assert!(v["nodes"].as_u64().unwrap() > 0);
        assert!(v["value"].as_f64().unwrap().abs() <= 1.0);
        check_strategy(&v["white"]);
        check_strategy(&v["black"]);
    }
    let v = json(&tempo(&[
        "engine",
        "analyse",
        "--variant",
        "synchronschach",
        "--chess960",
        "100",
        "--movetime",
        "50",
    ]));
    check_strategy(&v["white"]);
}

#[test]
fn analyse_an_alternating_position_gives_best_and_pv() {
    let v = json(&tempo(&[
        "engine",
        "analyse",
        "--variant",
        "standard",
        "--fen",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--depth",
        "3",
    ]));
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["best", "depth", "nodes", "pv", "value"]);
    // A mate ends the deepening early: at most the depth asked for.
    assert!((1..=3).contains(&v["depth"].as_u64().unwrap()));
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["best"], "a1a8");
    assert_eq!(v["pv"][0], "a1a8");
    assert!(v["value"].as_f64().unwrap() > 0.9);
    let v = json(&tempo(&[
        "engine",
        "analyse",
        "--variant",
        "chess960",
        "--chess960",
        "0",
        "--depth",
        "2",
    ]));
    assert!(v["best"].is_string() && v["pv"].is_array());
}

#[test]
fn match_prints_the_score_line_last() {
    let re = regex::Regex::new(
        r"^(nash|purified|minimax|greedy|random) vs (nash|purified|minimax|greedy|random): score \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] over \d+ games \(\+\d+ =\d+ -\d+\)$",
    )
    .unwrap();
    for (variant, a, b) in [
        ("synchronschach", "nash", "random"),
        ("fairschach", "greedy", "minimax"),
        ("fairschach", "purified", "nash"),
        ("standard", "random", "greedy"),
    ] {
        let out = tempo(&[
            "engine",
            "match",
            "--variant",
            variant,
            "--a",
            a,
            "--b",
            b,
            "--games",
            "2",
            "--seed",
            "3",
            "--depth",
            "1",
            "--jobs",
            "2",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let last = stdout.lines().last().unwrap();
        assert!(re.is_match(last), "{last}");
        assert!(last.starts_with(&format!("{a} vs {b}: score ")));
        assert!(last.contains("over 2 games"));
    }
    // Deterministic for a seed and depth, whatever the number of jobs.
    let run = |jobs: &str| {
        let out = tempo(&[
            "engine",
            "match",
            "--variant",
            "fairschach",
            "--a",
            "nash",
            "--b",
            "greedy",
            "--games",
            "2",
            "--seed",
            "5",
            "--depth",
            "1",
            "--jobs",
            jobs,
            "--chess960",
        ]);
        let stdout = String::from_utf8(out.stdout).unwrap();
        stdout.lines().last().unwrap().to_string()
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn bad_input_is_one_line_and_fails() {
    for args in [
        &[
            "engine",
            "analyse",
            "--variant",
            "standard",
            "--fen",
            "not a fen",
        ][..],
        &["engine", "analyse", "--variant", "losers", "--depth", "1"][..],
        &[
            "engine",
            "match",
            "--variant",
            "fairschach",
            "--a",
            "stockfish",
            "--b",
            "nash",
        ][..],
        &[
            "engine",
            "match",
            "--variant",
            "fairschach",
            "--a",
            "nash",
            "--b",
            "nash",
            "--games",
            "0",
        ][..],
        &[
            "engine",
            "analyse",
            "--variant",
            "standard",
            "--fen",
            "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1",
        ][..],
    ] {
        let out = tempo(args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("tempo: error: "), "{stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

#[test]
fn a_tiny_fairness_study_prints_a_table_json_and_a_plot() {
    let dir = std::env::temp_dir().join(format!("tempo-fairness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("fairness.svg");
    let out = tempo(&[
        "study",
        "fairness",
        "--games",
        "2",
        "--seed",
        "1",
        "--depth",
        "1",
        "--plot",
        svg.to_str().unwrap(),
        "--json",
    ]);
    let v = json(&out);
    let variants = v["variants"].as_array().unwrap();
    let names: Vec<&str> = variants
        .iter()
        .map(|r| r["variant"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["standard", "chess960", "synchronschach", "fairschach"]
    );
    for r in variants {
        assert_eq!(r["games"], 2);
        let s = r["white_score"].as_f64().unwrap();
        let iv = r["white_score_interval"].as_array().unwrap();
        assert!(iv[0].as_f64().unwrap() <= s && s <= iv[1].as_f64().unwrap());
        assert!(r["draw_rate"].is_number());
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("synchronschach"));
    let out = tempo(&[
        "study", "fairness", "--games", "2", "--seed", "1", "--depth", "1",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("White score [95 %]") && text.contains("fairschach"));
    std::fs::remove_dir_all(&dir).unwrap();
}
