//! Password checks are rate-limited per client address and per account
//! (429 with `Retry-After` and one line of JSON), and run a few at once;
//! a player's moves with a token are never limited by them. Guesses from
//! strangers' addresses do not lock an account's owner out of the networks
//! they logged in from.

mod support;

use std::sync::Arc;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::{TestServer, request};
use tempo_server::limits::{HashingPool, LoginLimits, LoginQuotas, Quota};
use tempo_server::net::{NetOptions, TrustedProxy};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::ServiceExt;

/// A request's status, `Retry-After` header and JSON body.
async fn send(
    server: &TestServer,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Option<u64>, Value) {
    let response = server
        .router
        .clone()
        .oneshot(request(method, uri, token, Some(body)))
        .await
        .unwrap();
    let status = response.status();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, retry_after, serde_json::from_slice(&bytes).unwrap())
}

fn credentials(name: &str, password: &str) -> Value {
    json!({"username": name, "password": password})
}

/// Replaces the server's limits (the same rules, other numbers).
fn with_limits(mut server: TestServer, limits: LoginLimits, hashing: HashingPool) -> TestServer {
    server.state.logins = Arc::new(limits);
    server.state.hashing = Arc::new(hashing);
    server.router = tempo_server::router(server.state.clone());
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_gets_its_burst_of_attempts_then_429_but_moves_go_on() {
    let quotas = LoginQuotas {
        per_address: Quota {
            burst: 12,
            every: Duration::from_secs(60),
        },
        ..LoginQuotas::default()
    };
    let server = with_limits(
        TestServer::sqlite().await,
        LoginLimits::new(quotas),
        HashingPool::default(),
    );
    let (game, anna, ben) = server.game(json!({"variant": "synchronschach"})).await;
    // Two logins were made for the game; wrong ones on many names (no
    // account's limit is reached) use the rest.
    let mut refused = None;
    for n in 0..12 {
        let route = if n % 2 == 0 {
            "/api/token"
        } else {
            "/api/session"
        };
        let (status, retry_after, body) = send(
            &server,
            Method::POST,
            route,
            None,
            credentials(&format!("guess{n}"), "wrong-password"),
        )
        .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some((n, retry_after, body));
            break;
        }
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    }
    let (n, retry_after, body) = refused.expect("a 429 within the burst");
    assert_eq!(n, 10, "the two logins for the game counted too");
    let seconds = retry_after.expect("Retry-After");
    assert!((50..=60).contains(&seconds), "{seconds}");
    assert_eq!(
        body,
        json!({
            "error": format!("too many login attempts from this address: try again in {seconds} s"),
            "code": "rate_limited",
        })
    );
    // The right password is refused too from this address, for now.
    let (status, _, _) = send(
        &server,
        Method::POST,
        "/api/session",
        None,
        credentials("anna", "anna-password"),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Players with tokens play on: moves are not login attempts.
    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    assert_eq!(server.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_lock_an_account_until_its_window_passes() {
    let quotas = LoginQuotas {
        per_address: Quota {
            burst: 1000,
            every: Duration::from_millis(1),
        },
        per_account: Quota {
            burst: 3,
            every: Duration::from_millis(1500),
        },
    };
    let server = with_limits(
        TestServer::sqlite().await,
        LoginLimits::new(quotas),
        HashingPool::default(),
    );
    // Right passwords do not count against the account. Every request
    // here comes from loopback, which thereby becomes a network known to
    // anna: the guesses below use up its own bucket (as a guesser on the
    // owner's network would); strangers' networks are tested below.
    for _ in 0..5 {
        server.token("anna").await;
    }
    // An attacker's wrong guesses, in parallel, get exactly three checks.
    let guesses = (0..12).map(|n| {
        send(
            &server,
            Method::POST,
            "/api/token",
            None,
            credentials("ANNA", &format!("guess-{n}")),
        )
    });
    let answers = futures_util::future::join_all(guesses).await;
    let count = |status| answers.iter().filter(|(s, _, _)| *s == status).count();
    assert_eq!(count(StatusCode::UNAUTHORIZED), 3, "{answers:?}");
    assert_eq!(count(StatusCode::TOO_MANY_REQUESTS), 9, "{answers:?}");
    let (_, retry_after, body) = answers
        .iter()
        .find(|(s, _, _)| *s == StatusCode::TOO_MANY_REQUESTS)
        .unwrap();
    assert!(
        matches!(retry_after, Some(1 | 2)),
        "1.5 s at most, rounded up"
    );
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("too many failed logins for this account"),
        "{body}"
    );
    // While locked, the right password is refused too (nothing is checked)
    // from this network.
    let (status, _, _) = send(
        &server,
        Method::POST,
        "/api/session",
        None,
        credentials("anna", "anna-password"),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Other accounts are not locked.
    server.token("ben").await;
    // Once the window has passed, the owner gets in.
    tokio::time::sleep(Duration::from_millis(1600)).await;
    server.token("anna").await;

    // Changing a password checks the old one within the same limits.
    let token = server.token("carl").await;
    let change = |old: &str| json!({"old": old, "new": "carl-new-password"});
    for _ in 0..3 {
        let (status, _, _) = send(
            &server,
            Method::POST,
            "/api/account/password",
            Some(&token),
            change("wrong-old"),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    let (status, retry_after, _) = send(
        &server,
        Method::POST,
        "/api/account/password",
        Some(&token),
        change("carl-password"),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(matches!(retry_after, Some(1 | 2)), "{retry_after:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hashes_beyond_the_queue_are_refused_at_once() {
    let quotas = LoginQuotas {
        per_address: Quota {
            burst: 1000,
            every: Duration::from_millis(1),
        },
        per_account: Quota {
            burst: 1000,
            every: Duration::from_millis(1),
        },
    };
    let server = with_limits(
        TestServer::sqlite().await,
        LoginLimits::new(quotas),
        HashingPool::new(1, 2),
    );
    let guesses = (0..24).map(|n| {
        send(
            &server,
            Method::POST,
            "/api/token",
            None,
            credentials(&format!("name{n}"), "wrong-password"),
        )
    });
    let answers = futures_util::future::join_all(guesses).await;
    let refused: Vec<_> = answers
        .iter()
        .filter(|(s, _, _)| *s == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    let checked = answers
        .iter()
        .filter(|(s, _, _)| *s == StatusCode::UNAUTHORIZED)
        .count();
    assert_eq!(refused.len() + checked, 24, "{answers:?}");
    assert!(checked >= 3, "one running and two waiting: {answers:?}");
    assert!(!refused.is_empty(), "{answers:?}");
    for (_, retry_after, body) in refused {
        assert_eq!(*retry_after, Some(1));
        assert_eq!(
            body,
            &json!({"error": "too many password checks at once: try again in 1 s", "code": "busy"})
        );
    }
    assert_eq!(server.state.hashing.admitted(), 0);
}

/// A login over a real connection from 127.0.0.1, a trusted proxy that
/// forwards for `client`: the status, `Retry-After` and the answer.
async fn login_from(
    server: std::net::SocketAddr,
    client: &str,
    route: &str,
    name: &str,
    password: &str,
) -> (u16, Option<u64>, String) {
    let body = credentials(name, password).to_string();
    let request = format!(
        "POST {route} HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: {client}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(server).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut answer))
        .await
        .expect("an answer within 10 s")
        .unwrap();
    let status = answer[9..12].parse().unwrap();
    let retry_after = answer.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("retry-after")
            .then(|| value.trim().parse().unwrap())
    });
    (status, retry_after, answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strangers_guesses_do_not_lock_the_owner_out_of_networks_they_logged_in_from() {
    let quotas = LoginQuotas {
        per_address: Quota {
            burst: 1000,
            every: Duration::from_millis(1),
        },
        per_account: Quota {
            burst: 3,
            every: Duration::from_secs(60),
        },
    };
    let server = with_limits(
        TestServer::sqlite().await,
        LoginLimits::new(quotas),
        HashingPool::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let options = NetOptions {
        trusted_proxies: vec!["127.0.0.1".parse::<TrustedProxy>().unwrap()],
        ..NetOptions::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(tempo_server::serve_with(
        listener,
        server.state.clone(),
        options,
        async {
            let _ = stopped.await;
        },
    ));

    // The owner logs in at home and on a phone (an IPv6 /64).
    let (home, phone) = ("203.0.113.10", "2001:db8:7:1::10");
    for (client, route) in [(home, "/api/session"), (phone, "/api/token")] {
        let (status, _, answer) = login_from(address, client, route, "anna", "anna-password").await;
        assert_eq!(status, 200, "{answer}");
    }
    // Strangers on twelve addresses get three guesses in all.
    let mut checked = 0;
    for n in 1..=12 {
        let stranger = format!("198.51.100.{n}");
        let (status, retry_after, answer) =
            login_from(address, &stranger, "/api/token", "ANNA", "guess").await;
        match status {
            401 => checked += 1,
            429 => {
                assert!(matches!(retry_after, Some(1..=60)), "{answer}");
                assert!(
                    answer.contains("too many failed logins for this account"),
                    "{answer}"
                );
            }
            _ => panic!("{answer}"),
        }
    }
    assert_eq!(checked, 3);
    // A new network is refused even with the right password...
    let (status, _, answer) = login_from(
        address,
        "192.0.2.50",
        "/api/session",
        "anna",
        "anna-password",
    )
    .await;
    assert_eq!(status, 429, "{answer}");
    // ...but the owner's networks are still checked: a typo at home is
    // answered as one, the right password gets in, also from another
    // address of the phone's /64.
    let (status, _, answer) = login_from(address, home, "/api/token", "anna", "typo").await;
    assert_eq!(status, 401, "{answer}");
    let (status, _, answer) =
        login_from(address, home, "/api/session", "anna", "anna-password").await;
    assert_eq!(status, 200, "{answer}");
    let (status, _, answer) = login_from(
        address,
        "2001:db8:7:1::beef",
        "/api/token",
        "anna",
        "anna-password",
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    // The owner's typo and logins gave strangers nothing back.
    let (status, _, answer) =
        login_from(address, "198.51.100.13", "/api/token", "anna", "guess").await;
    assert_eq!(status, 429, "{answer}");

    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();
}
