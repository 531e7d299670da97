//! `tempo serve`'s mail settings as a process sees them: a wrong one
//! stops the start with a message naming the setting (the mails
//! themselves: tempo-server's tests/mail.rs, against an SMTP sink).

mod common;
use common::temp_dir;

/// `tempo serve` with `args` on a fresh store: its error output, once it
/// has stopped (each of these stops at once).
fn refused(name: &str, args: &[&str]) -> String {
    let dir = temp_dir(name);
    let data = dir.join("data");
    let mut all = vec!["serve", "--no-bots", "--listen", "127.0.0.1:0", "--data"];
    all.push(data.to_str().unwrap());
    all.extend_from_slice(args);
    let out = common::tempo_with_stdin(&all, "");
    assert!(!out.status.success(), "{args:?} should stop the start");
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn a_wrong_mail_setting_stops_the_start_and_names_it() {
    let no_from = refused("mail-from", &["--smtp", "smtp://mail.example.org"]);
    assert!(no_from.contains("--smtp-from"), "{no_from}");
    let bad_url = refused(
        "mail-url",
        &[
            "--smtp",
            "mail.example.org",
            "--smtp-from",
            "club@example.org",
        ],
    );
    assert!(bad_url.contains("--smtp"), "{bad_url}");
    let bad_from = refused(
        "mail-sender",
        &[
            "--smtp",
            "smtp://h?tls=none",
            "--smtp-from",
            "not an address",
        ],
    );
    assert!(bad_from.contains("--smtp-from"), "{bad_from}");
    let bad_public = refused(
        "mail-public",
        &[
            "--smtp",
            "smtp://h?tls=none",
            "--smtp-from",
            "club@example.org",
            "--public-url",
            "chess.example.org",
        ],
    );
    assert!(bad_public.contains("--public-url"), "{bad_public}");
}
