//! E-mail for correspondence, against an SMTP sink in the test: a
//! challenge mail, your turn, the reminder before the deadline (the
//! sweep driven with a later time), the end; nothing without `--smtp` or
//! without an address; an unreachable mail server does not hold up play.
//! On SQLite, and on PostgreSQL with `TEMPO_TEST_DATABASE_URL`.

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::TestServer;
use tempo_server::mail::{MailSettings, REMIND_BEFORE, remind_once};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// One message the sink took.
#[derive(Debug)]
struct Received {
    from: String,
    to: String,
    /// Headers and body, dot-stuffing undone, CRLF kept.
    data: String,
}

impl Received {
    fn subject(&self) -> &str {
        self.data
            .lines()
            .find_map(|l| l.strip_prefix("Subject: "))
            .unwrap_or_default()
    }
}

/// An SMTP server that speaks just enough (EHLO, MAIL, RCPT, DATA, QUIT)
/// to collect what is sent to it.
struct Sink {
    addr: SocketAddr,
    mails: mpsc::UnboundedReceiver<Received>,
}

impl Sink {
    async fn start() -> Sink {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, mails) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((conn, _)) = listener.accept().await {
                tokio::spawn(session(conn, tx.clone()));
            }
        });
        Sink { addr, mails }
    }

    fn settings(&self) -> MailSettings {
        MailSettings {
            smtp: format!("smtp://{}?tls=none", self.addr).parse().unwrap(),
            from: "club@example.org".into(),
            public_url: "https://chess.example.org".into(),
        }
    }

    /// The next mail, within five seconds.
    async fn next(&mut self) -> Received {
        tokio::time::timeout(Duration::from_secs(5), self.mails.recv())
            .await
            .expect("a mail within 5 s")
            .expect("the sink runs")
    }

    /// The next `n` mails, by recipient.
    async fn take(&mut self, n: usize) -> Vec<Received> {
        let mut mails = Vec::new();
        for _ in 0..n {
            mails.push(self.next().await);
        }
        mails.sort_by(|a, b| a.to.cmp(&b.to));
        mails
    }

    /// Asserts that no mail comes within `wait`.
    async fn quiet(&mut self, wait: Duration) {
        if let Ok(Some(mail)) = tokio::time::timeout(wait, self.mails.recv()).await {
            panic!("an unexpected mail: {mail:?}");
        }
    }
}

async fn session(conn: TcpStream, tx: mpsc::UnboundedSender<Received>) {
    let (read, mut write) = conn.into_split();
    let mut lines = BufReader::new(read).lines();
    let _ = write.write_all(b"220 sink ESMTP\r\n").await;
    let (mut from, mut to) = (String::new(), String::new());
    while let Ok(Some(line)) = lines.next_line().await {
        let upper = line.to_ascii_uppercase();
        let reply: &[u8] = if upper.starts_with("EHLO") {
            b"250-sink\r\n250 8BITMIME\r\n"
        } else if let Some(rest) = upper.strip_prefix("MAIL FROM:<") {
            from = line[11..11 + rest.find('>').unwrap_or(0)].to_string();
            b"250 ok\r\n"
        } else if upper.starts_with("RCPT TO:<") {
            to = line[9..].trim_end_matches('>').to_string();
            b"250 ok\r\n"
        } else if upper == "DATA" {
            let _ = write.write_all(b"354 go on\r\n").await;
            let mut data = String::new();
            while let Ok(Some(line)) = lines.next_line().await {
                if line == "." {
                    break;
                }
                data.push_str(line.strip_prefix('.').unwrap_or(&line));
                data.push_str("\r\n");
            }
            let _ = tx.send(Received {
                from: from.clone(),
                to: to.clone(),
                data,
            });
            b"250 queued\r\n"
        } else if upper == "QUIT" {
            let _ = write.write_all(b"221 bye\r\n").await;
            return;
        } else {
            b"502 not here\r\n"
        };
        if write.write_all(reply).await.is_err() {
            return;
        }
    }
}

/// A server on SQLite, and one on PostgreSQL if there is one to test.
async fn servers() -> Vec<TestServer> {
    let mut servers = vec![TestServer::sqlite().await];
    servers.extend(TestServer::postgres().await);
    servers
}

async fn set_email(server: &TestServer, token: &str, body: Value) -> (StatusCode, Value) {
    server
        .call(Method::POST, "/api/account/email", Some(token), Some(body))
        .await
}

/// `who` gives `address` (and `lang`, if any).
async fn give_address(server: &TestServer, who: &str, address: &str, lang: Option<&str>) {
    let token = server.token(who).await;
    let (status, body) = set_email(server, &token, json!({"email": address, "lang": lang})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn the_address_is_the_members_own_and_checked() {
    let server = TestServer::sqlite().await;
    let anna = server.token("anna").await;
    let (status, body) = server
        .call(Method::GET, "/api/account/email", Some(&anna), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({"email": null, "lang": null}));
    for bad in [
        json!({"email": "anna at example.org"}),
        json!({"email": "anna@example.org\r\nBcc: x@y"}),
        json!({"email": format!("{}@example.org", "a".repeat(300))}),
        json!({"email": "anna@example.org", "lang": "fr"}),
    ] {
        let (status, answer) = set_email(&server, &anna, bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    // A body of another shape is refused as every route refuses it.
    let (status, _) = set_email(&server, &anna, json!({"email": "a@b", "extra": 1})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, body) = set_email(
        &server,
        &anna,
        json!({"email": " anna@example.org ", "lang": "de"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({"email": "anna@example.org", "lang": "de"}));
    // Ben sees his own (none), never Anna's.
    let ben = server.token("ben").await;
    let (_, body) = server
        .call(Method::GET, "/api/account/email", Some(&ben), None)
        .await;
    assert_eq!(body["email"], Value::Null);
    let (status, body) = set_email(&server, &anna, json!({"email": ""})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({"email": null, "lang": null}));
    let (status, _) = server
        .call(Method::GET, "/api/account/email", None, None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_challenge_is_mailed_to_a_member_with_an_address() {
    for server in servers().await {
        let mut sink = Sink::start().await;
        let server = server.with_mail(sink.settings());
        give_address(&server, "ben", "ben@example.org", Some("en")).await;
        // A blitz game: its challenge is mailed, its moves are not.
        let (game, anna, _) = server
            .game(json!({"variant": "standard", "clock": "300+3"}))
            .await;
        let mail = sink.next().await;
        assert_eq!(
            (mail.from.as_str(), mail.to.as_str()),
            ("club@example.org", "ben@example.org")
        );
        assert_eq!(mail.subject(), "tempo: anna challenges you");
        assert!(mail.data.contains("time control 300+3"), "{}", mail.data);
        assert!(mail.data.contains("https://chess.example.org/lobby"));
        assert!(
            mail.data.contains("Date: ") && mail.data.contains("From: tempo <club@example.org>")
        );
        let (status, _) = server.play(&game, &anna, "e2e4").await;
        assert_eq!(status, StatusCode::OK);
        // Anna gave no address: ben's challenge to her is not mailed.
        let ben = server.token("ben").await;
        let (status, body) = server
            .call(
                Method::POST,
                "/api/challenge/anna",
                Some(&ben),
                Some(json!({"clock": "1/86400"})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        sink.quiet(Duration::from_millis(700)).await;
        server.finish().await;
    }
}

#[tokio::test]
async fn a_correspondence_game_mails_each_turn_a_reminder_and_the_end() {
    for server in servers().await {
        let mut sink = Sink::start().await;
        let server = server.with_mail(sink.settings());
        give_address(&server, "anna", "anna@example.org", None).await;
        give_address(&server, "ben", "ben@example.org", Some("de")).await;
        let (game, anna, ben) = server
            .game(json!({"variant": "standard", "clock": "1/86400"}))
            .await;
        // The challenge to ben, then anna's first turn (in both languages:
        // she chose none).
        let mails = sink.take(2).await;
        assert_eq!(mails[0].to, "anna@example.org");
        assert!(
            mails[0].data.contains("Du bist am Zug") && mails[0].data.contains("It is your move")
        );
        assert!(
            mails[0]
                .data
                .contains(&format!("https://chess.example.org/game/{game}"))
        );
        assert_eq!(mails[1].to, "ben@example.org");
        assert!(
            mails[1].subject().starts_with("=?UTF-8?B?") || mails[1].subject().contains("fordert")
        );
        let (status, _) = server.play(&game, &anna, "e2e4").await;
        assert_eq!(status, StatusCode::OK);
        let mail = sink.next().await;
        assert_eq!(mail.to, "ben@example.org");
        assert_eq!(mail.subject(), "tempo: Du bist am Zug gegen anna");
        assert!(mail.data.contains("anna hat gezogen: e4"), "{}", mail.data);
        assert!(mail.data.contains("Zug fällig bis"), "{}", mail.data);
        // The worker has stored ben's reminder instant (it follows the
        // mail in its queue): anna's, of the turn before, is gone.
        server.state.mail.settled().await;
        // Not yet 12 hours before ben's deadline: no reminder.
        let now = server.state.clock.now();
        assert_eq!(remind_once(&server.state, now).await, 0);
        // Then one, once (the worker stores its instant just after the mail).
        let later = now + 86_400_000 - REMIND_BEFORE + 1_000;
        let mut reminded = 0;
        for _ in 0..50 {
            reminded = remind_once(&server.state, later).await;
            if reminded > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(reminded, 1);
        let mail = sink.next().await;
        assert_eq!(mail.to, "ben@example.org");
        assert!(
            mail.data.contains("Dein Zug gegen anna ist bis"),
            "{}",
            mail.data
        );
        assert_eq!(remind_once(&server.state, later).await, 0, "sent once");
        // The end reaches both.
        let (status, _) = server
            .call(
                Method::POST,
                &format!("/api/board/game/{game}/resign"),
                Some(&ben),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let mails = sink.take(2).await;
        assert!(
            mails[0].data.contains("over: 1-0 (resignation)")
                && mails[0].data.contains("(Aufgabe)"),
            "{}",
            mails[0].data
        );
        assert!(
            mails[1].data.contains("beendet: 1-0 (Aufgabe)"),
            "{}",
            mails[1].data
        );
        sink.quiet(Duration::from_millis(500)).await;
        assert_eq!(remind_once(&server.state, later + 86_400_000).await, 0);
        server.finish().await;
    }
}

#[tokio::test]
async fn nothing_is_mailed_without_smtp() {
    let mut sink = Sink::start().await;
    let server = TestServer::sqlite().await;
    give_address(&server, "anna", "anna@example.org", None).await;
    give_address(&server, "ben", "ben@example.org", None).await;
    let (game, anna, _) = server.game(json!({"clock": "1/259200"})).await;
    let (status, _) = server.play(&game, &anna, "e2e4").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(remind_once(&server.state, u64::MAX >> 4).await, 0);
    sink.quiet(Duration::from_millis(700)).await;
}

#[tokio::test]
async fn an_unreachable_mail_server_does_not_hold_up_play() {
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let server = TestServer::sqlite().await.with_mail(MailSettings {
        smtp: format!("smtp://{closed}?tls=none").parse().unwrap(),
        from: "club@example.org".into(),
        public_url: "http://127.0.0.1:8080".into(),
    });
    give_address(&server, "anna", "anna@example.org", None).await;
    give_address(&server, "ben", "ben@example.org", None).await;
    let started = std::time::Instant::now();
    let (game, anna, ben) = server
        .game(json!({"variant": "fairschach", "clock": "1/86400"}))
        .await;
    for (token, choice) in [
        (&anna, "e2e4"),
        (&ben, "e7e5"),
        (&anna, "g1f3"),
        (&ben, "b8c6"),
    ] {
        let (status, body) = server.play(&game, token, choice).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}
