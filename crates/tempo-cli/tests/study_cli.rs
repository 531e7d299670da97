//! `tempo study fairness --out/--resume/--shard` and `tempo study merge`
//! as the built binary: game records, resuming a killed run, shards
//! merged into the unsharded table, the refusals. Depth 1 and a few games
//! (a depth budget plays the same games every time).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("run tempo")
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The one line of standard error of a failed run.
fn error(out: Output) -> String {
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("tempo: error: "), "{stderr}");
    stderr
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tempo-study-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const GAMES: &str = "4";

/// `tempo study fairness` with the tests' settings and `more`.
fn study(more: &[&str]) -> Output {
    let mut args = vec![
        "study", "fairness", "--games", GAMES, "--seed", "3", "--depth", "1", "--jobs", "2",
    ];
    args.extend_from_slice(more);
    tempo(&args)
}

/// The unsharded run: its standard output and its records.
fn baseline() -> &'static (String, Vec<String>) {
    static RUN: OnceLock<(String, Vec<String>)> = OnceLock::new();
    RUN.get_or_init(|| {
        let d = dir("baseline");
        let file = d.join("all.jsonl");
        let stdout = ok(study(&["--out", s(&file)]));
        let lines = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        (stdout, lines)
    })
}

/// The records of a file without their times, sorted by variant and game.
fn games_of(text: &str) -> Vec<Value> {
    let mut games: Vec<Value> = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("seconds");
            v
        })
        .collect();
    games.sort_by_key(|v| (v["variant"].to_string(), v["game"].as_u64()));
    games
}

/// The table without the study's last line (this run's time).
fn table(stdout: &str) -> String {
    let lines: Vec<&str> = stdout.lines().collect();
    if lines
        .last()
        .is_some_and(|l| l.contains(" games played in "))
    {
        lines[..lines.len() - 1].join("\n")
    } else {
        lines.join("\n")
    }
}

#[test]
fn out_writes_one_record_a_game_with_every_field() {
    let (stdout, lines) = baseline();
    assert_eq!(lines.len(), 4 * 4, "{lines:?}");
    let fields = [
        "variant",
        "seed",
        "game",
        "pair",
        "chess960",
        "start",
        "opening",
        "moves",
        "result",
        "termination",
        "steps",
        "white",
        "black",
        "budget",
        "opening_steps",
        "move_cap",
        "adjudication_cp",
        "games",
        "seconds",
        "engine",
    ];
    for line in lines {
        let v: Value = serde_json::from_str(line).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), fields.len(), "{line}");
        for f in fields {
            assert!(v.get(f).is_some(), "{f} in {line}");
        }
        let variant = v["variant"].as_str().unwrap();
        assert_eq!(
            (v["seed"].as_u64(), v["budget"].as_str()),
            (Some(3), Some("depth 1"))
        );
        assert_eq!(v["pair"].as_u64().unwrap(), v["game"].as_u64().unwrap());
        let engine = v["engine"].as_str().unwrap();
        assert!(
            engine.starts_with("tempo ") && engine.contains(" bench "),
            "{line}"
        );
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&v["result"].as_str().unwrap()));
        assert!(!v["termination"].as_str().unwrap().is_empty());
        assert_eq!(v["chess960"].is_null(), variant != "chess960", "{line}");
        let words = v["moves"].as_str().unwrap().split(' ').count();
        let per_step = if variant.ends_with("schach") { 2 } else { 1 };
        assert_eq!(
            words,
            v["steps"].as_u64().unwrap() as usize * per_step,
            "{line}"
        );
        assert!(v["opening"].as_str().unwrap().split(' ').count() <= 2 * per_step);
    }
    // Every game of every variant once.
    let games = games_of(&lines.join("\n"));
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"].as_u64().unwrap() as usize, i % 4);
    }
    assert!(stdout.contains(
        "Fairness study: identical engines (nash), 4 games per variant, depth 1, seed 3"
    ));
    assert!(stdout.contains("16 games played in "));
}

#[test]
fn a_killed_run_resumes_to_the_same_records() {
    let (stdout, lines) = baseline();
    let d = dir("resume");
    let file = d.join("run.jsonl");
    // Killed: the last 5 games missing, the 6th last cut in the middle of
    // its line.
    let keep = lines.len() - 6;
    let cut = &lines[keep][..lines[keep].len() / 2];
    std::fs::write(&file, format!("{}\n{cut}", lines[..keep].join("\n"))).unwrap();
    let out = study(&["--out", s(&file), "--resume"]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let resumed = ok(out);
    assert!(
        stderr.contains(&format!("line {}: an incomplete last line", keep + 1)),
        "{stderr}"
    );
    assert_eq!(table(&resumed), table(stdout));
    assert!(resumed.contains("6 games played in "), "{resumed}");
    assert!(resumed.contains(&format!("{keep} read from ")), "{resumed}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.ends_with('\n'));
    assert_eq!(text.lines().count(), lines.len());
    assert_eq!(games_of(&text), games_of(&lines.join("\n")));
    // A finished file: nothing more to play, the same table.
    let again = ok(study(&["--out", s(&file), "--resume"]));
    assert_eq!(table(&again), table(stdout));
    assert!(again.contains("0 games played in "), "{again}");
    // Without --resume an existing file is refused and left as it is.
    let err = error(study(&["--out", s(&file)]));
    assert!(
        err.contains("the file exists and is not empty; add --resume"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    // Another setting cannot continue it: the error names file and line.
    let err = error(tempo(&[
        "study",
        "fairness",
        "--games",
        GAMES,
        "--seed",
        "4",
        "--depth",
        "1",
        "--out",
        s(&file),
        "--resume",
    ]));
    assert!(
        err.contains("run.jsonl line 1: played with --seed 3; this run has --seed 4"),
        "{err}"
    );
    let err = error(study(&["--out", s(&file), "--resume", "--shard", "2/2"]));
    assert!(err.contains("is not in this run's --shard 2/2"), "{err}");
    // Records of another engine (or of one that did not record itself)
    // are not continued: the same settings would play other games.
    let engine = serde_json::from_str::<Value>(&lines[0]).unwrap()["engine"]
        .as_str()
        .unwrap()
        .to_string();
    for (other, says) in [
        (
            "\"tempo 0.0.1 bench 1\"",
            ", engine tempo 0.0.1 bench 1; this run has",
        ),
        ("null", ", engine not recorded; this run has"),
    ] {
        let foreign = d.join("foreign.jsonl");
        let quoted = format!("\"{engine}\"");
        std::fs::write(&foreign, lines[0].replace(&quoted, other) + "\n").unwrap();
        let err = error(study(&["--out", s(&foreign), "--resume"]));
        assert!(err.contains("foreign.jsonl line 1: played with "), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(err.contains(&format!("engine {engine}")), "{err}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn shards_merge_into_the_unsharded_table() {
    let (stdout, lines) = baseline();
    let d = dir("shards");
    let mut files = Vec::new();
    for k in ["1/2", "2/2"] {
        let file = d.join(format!("shard-{}.jsonl", &k[..1]));
        let out = ok(study(&["--shard", k, "--out", s(&file)]));
        assert!(out.contains("games per variant"), "{out}");
        files.push(file);
    }
    let merged = ok(tempo(&["study", "merge", s(&files[0]), s(&files[1])]));
    assert_eq!(merged, table(stdout) + "\n");
    let both = format!(
        "{}{}",
        std::fs::read_to_string(&files[0]).unwrap(),
        std::fs::read_to_string(&files[1]).unwrap()
    );
    assert_eq!(games_of(&both), games_of(&lines.join("\n")));
    // The whole run again beside the shards: duplicates, counted once.
    let all = d.join("all.jsonl");
    std::fs::write(&all, lines.join("\n") + "\n").unwrap();
    let out = tempo(&["study", "merge", s(&all), s(&files[0]), s(&files[1])]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("16 records were exact duplicates"));
    assert_eq!(ok(out), merged);
    // JSON and the plot.
    let svg = d.join("plot.svg");
    let json: Value = serde_json::from_str(&ok(tempo(&[
        "study",
        "merge",
        s(&all),
        "--json",
        "--plot",
        s(&svg),
    ])))
    .unwrap();
    assert_eq!(
        (json["seed"].as_u64(), json["games_per_variant"].as_u64()),
        (Some(3), Some(4))
    );
    assert_eq!(json["variants"].as_array().unwrap().len(), 4);
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("fairschach")
    );
    // A study with --json has the same shape.
    let study_json: Value = serde_json::from_str(&ok(study(&["--json"]))).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&study_json), keys(&json));
    assert_eq!(
        study_json["variants"][2]["white_score"],
        json["variants"][2]["white_score"]
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn merge_refuses_mixed_settings_and_conflicting_games() {
    let (_, lines) = baseline();
    let d = dir("refuse");
    let all = d.join("all.jsonl");
    std::fs::write(&all, lines.join("\n") + "\n").unwrap();
    // Another opening, played; another budget, written in.
    let shorter = d.join("shorter.jsonl");
    ok(tempo(&[
        "study",
        "fairness",
        "--games",
        "2",
        "--seed",
        "9",
        "--depth",
        "1",
        "--opening",
        "1",
        "--out",
        s(&shorter),
    ]));
    let err = error(tempo(&["study", "merge", s(&all), s(&shorter)]));
    assert!(err.contains("mixed settings: "), "{err}");
    assert!(
        err.contains("all.jsonl line 1 has nash vs nash, depth 1, opening 2"),
        "{err}"
    );
    assert!(
        err.contains("shorter.jsonl line 1 has nash vs nash, depth 1, opening 1"),
        "{err}"
    );
    let deeper = d.join("deeper.jsonl");
    let line = lines[1].replacen("\"budget\":\"depth 1\"", "\"budget\":\"depth 2\"", 1);
    assert_ne!(line, lines[1]);
    std::fs::write(&deeper, format!("{line}\n")).unwrap();
    let err = error(tempo(&["study", "merge", s(&all), s(&deeper)]));
    assert!(
        err.contains("deeper.jsonl line 1 has nash vs nash, depth 2"),
        "{err}"
    );
    // The same game with another result.
    let first: Value = serde_json::from_str(&lines[0]).unwrap();
    let flipped = match first["result"].as_str().unwrap() {
        "1-0" => "0-1",
        _ => "1-0",
    };
    let other = lines[0].replacen(
        &format!("\"result\":{}", first["result"]),
        &format!("\"result\":\"{flipped}\""),
        1,
    );
    assert_ne!(other, lines[0]);
    let changed = d.join("changed.jsonl");
    std::fs::write(&changed, format!("{other}\n")).unwrap();
    let err = error(tempo(&["study", "merge", s(&all), s(&changed)]));
    assert!(
        err.contains(&format!(
            "conflicting records of {} seed 3 game {}",
            first["variant"].as_str().unwrap(),
            first["game"]
        )),
        "{err}"
    );
    assert!(
        err.contains("all.jsonl line 1 and ") && err.contains("changed.jsonl line 1"),
        "{err}"
    );
    // A bad line: file and line named.
    let bad = d.join("bad.jsonl");
    std::fs::write(&bad, format!("{}\nnot json\n{}\n", lines[0], lines[1])).unwrap();
    let err = error(tempo(&["study", "merge", s(&bad)]));
    assert!(err.contains("bad.jsonl line 2: not a game record"), "{err}");
    let err = error(tempo(&["study", "merge", s(&d.join("missing.jsonl"))]));
    assert!(
        err.contains("cannot read ") && err.contains("missing.jsonl"),
        "{err}"
    );
    let empty = d.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    assert!(error(tempo(&["study", "merge", s(&empty)])).contains("no game records in "));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn merge_reads_gzip_files() {
    let (stdout, lines) = baseline();
    let d = dir("gzip");
    let gz = d.join("all.jsonl.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut enc, (lines.join("\n") + "\n").as_bytes()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    assert_eq!(ok(tempo(&["study", "merge", s(&gz)])), table(stdout) + "\n");
    // Cut short: an error naming the file, not a panic.
    let bytes = std::fs::read(&gz).unwrap();
    std::fs::write(&gz, &bytes[..bytes.len() / 2]).unwrap();
    let err = error(tempo(&["study", "merge", s(&gz)]));
    assert!(err.contains("all.jsonl.gz"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_shards_and_options_are_one_line() {
    for (args, says) in [
        (
            &["--shard", "3/2"][..],
            "--shard 3/2: K must be from 1 to N",
        ),
        (
            &["--shard", "1/1001"][..],
            "--shard 1/1001: N must be from 1 to 1000",
        ),
        (&["--shard", "two"][..], "--shard two: expected K/N"),
        (
            &["--shard", "5/8"][..],
            "--shard 5/8: no games in this shard (--games 4)",
        ),
        (&["--resume"][..], "--resume needs --out FILE"),
    ] {
        let err = error(study(args));
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn variants_limit_the_run_to_those_named() {
    let out = study(&["--variants", "fairschach,standard"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| ["standard", "chess960", "synchronschach", "fairschach"].contains(w))
        .collect();
    assert_eq!(rows, ["standard", "fairschach"], "{text}");
    // A name clap refuses: its usage error, exit status 2.
    let out = study(&["--variants", "losers"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("unknown variant 'losers'"), "{err}");
}
