//! The rules page's example positions (`crates/tempo-server/web/rules-examples.json`,
//! shown as diagrams on `/rules`) resolve as the page says: every step through
//! `tempo sync resolve`, so the page cannot drift from the engine.

use std::process::{Command, Output};

use serde_json::Value;

fn examples() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tempo-server/web/rules-examples.json"
    );
    let text = std::fs::read_to_string(path).expect("rules-examples.json");
    let data: Value = serde_json::from_str(&text).expect("rules-examples.json is JSON");
    data["examples"].as_array().expect("examples").clone()
}

fn resolve(variant: &str, step: &Value) -> Output {
    let text = |k: &str| step[k].as_str().unwrap_or_else(|| panic!("{k} in {step}"));
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args([
            "sync",
            "resolve",
            "--variant",
            variant,
            "--fen",
            text("fen"),
        ])
        .args(["--white", text("white"), "--black", text("black")])
        .output()
        .expect("run tempo")
}

#[test]
fn every_rules_page_example_resolves_as_shown() {
    let examples = examples();
    assert!(examples.len() >= 6, "the page shows the main cases");
    let mut ids = std::collections::HashSet::new();
    for example in &examples {
        let id = example["id"].as_str().expect("id");
        assert!(ids.insert(id), "{id}: ids are unique");
        let variant = example["variant"].as_str().expect("variant");
        let steps = example["steps"].as_array().expect("steps");
        assert!(!steps.is_empty(), "{id}: at least one step");
        let mut previous: Option<&str> = None;
        for (n, step) in steps.iter().enumerate() {
            let fen = step["fen"].as_str().expect("fen");
            if let Some(before) = previous {
                assert_eq!(fen, before, "{id} step {n}: starts where the last ended");
            }
            let out = resolve(variant, step);
            assert!(
                out.status.success(),
                "{id} step {n}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let got: Value = serde_json::from_slice(&out.stdout).expect("resolve prints JSON");
            assert_eq!(
                got["fen"], step["after"],
                "{id} step {n}: the position after"
            );
            assert_eq!(
                got["record"], step["record"],
                "{id} step {n}: the record line"
            );
            let events = got["events"].as_array().expect("events");
            for kind in step["events"].as_array().expect("expected events") {
                assert!(
                    events.iter().any(|e| e["type"] == *kind),
                    "{id} step {n}: no {kind} event in {events:?}"
                );
            }
            let said = serde_json::to_string(events).unwrap();
            for square in step["highlight"].as_array().into_iter().flatten() {
                let square = square.as_str().expect("a square");
                assert!(
                    said.contains(&format!("\"{square}\"")),
                    "{id} step {n}: highlighted {square} is named by no event: {said}"
                );
            }
            previous = step["after"].as_str();
        }
        if let Some(refused) = example.get("refused") {
            let out = resolve(variant, refused);
            assert!(!out.status.success(), "{id}: the refused choice is refused");
            let error = String::from_utf8_lossy(&out.stderr);
            let expected = refused["error"].as_str().expect("error");
            assert!(error.contains(expected), "{id}: {error}");
        }
    }
}
