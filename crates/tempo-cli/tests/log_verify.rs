//! `tempo log verify`: a saved log verifies, with and without the
//! server's key; a changed entry is named by its seq and exits 1.

use std::process::Command;

use ed25519_dalek::SigningKey;
use tempo_chess::Color;
use tempo_host::chain::{hex, sign_head};
use tempo_host::{Command as GameCommand, GameSpec, Header, HostedGame, Variant};

fn saved_log(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let spec = GameSpec {
        variant: Variant::Fairschach,
        clock: Some("300+3".into()),
        ..GameSpec::default()
    };
    let (mut game, first) =
        HostedGame::create(Header::new("g7", &spec, "anna", "ben").unwrap(), 1_000).unwrap();
    let mut lines = vec![first.public_line()];
    for (color, choice, at) in [
        (Color::White, "e2e4", 2_000),
        (Color::Black, "e7e5", 3_000),
        (Color::Black, "g8f6", 4_000),
    ] {
        let play = GameCommand::Play {
            color,
            choice: choice.into(),
        };
        for entry in game.handle(play, at, [at as u8; 32]).unwrap() {
            lines.push(entry.public_line());
        }
    }
    let key = SigningKey::from_bytes(&[9; 32]);
    let (seq, head) = game.head();
    let signature = sign_head(&key, "g7", seq, &head);
    // As the server hands it out: the last entry carries the signature.
    let last = lines.pop().unwrap();
    lines.push(format!(
        r#"{},"signature":"{signature}"}}"#,
        last.trim_end_matches('}')
    ));
    let path = dir.join("g7.ndjson");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    (path, hex(key.verifying_key().as_bytes()))
}

fn tempo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn a_saved_log_verifies_and_a_changed_one_names_its_seq() {
    let dir = std::env::temp_dir().join(format!("tempo-log-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (path, key) = saved_log(&dir);
    let file = path.to_str().unwrap();
    let out = tempo(&["log", "verify", file, "--key", &key]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("ok: chain intact, 4 entries (seq 0..=3), head "),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "signature valid: the server signed the head at seq 3, which proves entries 0..=3"
        ),
        "{stdout}"
    );
    assert_eq!(stdout.lines().count(), 1);

    // Without the key the chain is checked, the signature is not — and
    // the answer says so, for a rewritten log would pass the same way.
    let out = tempo(&["log", "verify", file]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout
            .trim_end()
            .ends_with("signature NOT checked (no --key)"),
        "{stdout}"
    );
    assert!(!stdout.contains("signature valid"), "{stdout}");

    let text = std::fs::read_to_string(&path).unwrap();
    let forged = dir.join("forged.ndjson");
    std::fs::write(
        &forged,
        text.replace(r#""choice":"e7e5""#, r#""choice":"d7d5""#),
    )
    .unwrap();
    let out = tempo(&["log", "verify", forged.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("seq 2:"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);

    let other = hex(SigningKey::from_bytes(&[1; 32]).verifying_key().as_bytes());
    let out = tempo(&["log", "verify", file, "--key", &other]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("signature"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_signed_head_says_up_to_which_seq_it_proves_the_log() {
    let dir = std::env::temp_dir().join(format!("tempo-log-prefix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (path, key) = saved_log(&dir);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();

    // A log the server signed at seq 1 (as a fetch then would hand it
    // out), with the later entries appended unsigned.
    let signing = SigningKey::from_bytes(&[9; 32]);
    let second: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    let hash = tempo_host::chain::unhex::<32>(second["hash"].as_str().unwrap()).unwrap();
    let signature = sign_head(&signing, "g7", 1, &hash);
    let signed_second = format!(
        r#"{},"signature":"{signature}"}}"#,
        lines[1].trim_end_matches('}')
    );
    let unsigned_last = {
        let mut last: serde_json::Value = serde_json::from_str(lines[3]).unwrap();
        last.as_object_mut().unwrap().remove("signature");
        last.to_string()
    };
    let tail = dir.join("tail.ndjson");
    std::fs::write(
        &tail,
        [lines[0], &signed_second, lines[2], &unsigned_last].join("\n") + "\n",
    )
    .unwrap();
    let out = tempo(&["log", "verify", tail.to_str().unwrap(), "--key", &key]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the signature proves entries 0..=1 only; entries 2..=3 are unsigned"),
        "{stderr}"
    );

    // The signed prefix alone verifies, and says it proves 0..=1 only.
    let prefix = dir.join("prefix.ndjson");
    std::fs::write(&prefix, [lines[0], &signed_second].join("\n") + "\n").unwrap();
    let out = tempo(&["log", "verify", prefix.to_str().unwrap(), "--key", &key]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("2 entries (seq 0..=1)") && stdout.contains("proves entries 0..=1"),
        "{stdout}"
    );

    // A key and no signature at all: refused, and not as a wrong key.
    let bare = dir.join("bare.ndjson");
    std::fs::write(&bare, [lines[0], lines[1]].join("\n") + "\n").unwrap();
    let out = tempo(&["log", "verify", bare.to_str().unwrap(), "--key", &key]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("no signature in the log"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
