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
    assert!(stdout.starts_with("ok: 4 entries, head "), "{stdout}");
    assert!(stdout.contains("signature valid"));

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
