//! Round pages of logged-in members follow the event stream only, so
//! every change of a round's boards is told there as `tournamentBoard`:
//! a round paired and unpaired (board 0, the whole round) and an online
//! game's result entering by itself. On SQLite and (with
//! `TEMPO_TEST_DATABASE_URL`) on PostgreSQL.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Lines, TestServer, ok};

/// The next `tournamentBoard` event on `stream` (other events skipped).
async fn board_event(stream: &mut Lines, what: &str) -> Value {
    for _ in 0..20 {
        let event = stream
            .next(Duration::from_secs(3))
            .await
            .unwrap_or_else(|| panic!("{what}: no tournamentBoard event"));
        if event["type"] == "tournamentBoard" {
            return event["board"].clone();
        }
    }
    panic!("{what}: no tournamentBoard event among 20");
}

async fn events(server: &TestServer) {
    let arb = server.token("arb").await;
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Told", "system": "round-robin", "clock": "300+3"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let base = format!("/api/tournaments/{id}");
    for (name, user) in [("Anna", "anna"), ("Ben", "ben")] {
        ok(
            server,
            Method::POST,
            &format!("{base}/players"),
            &arb,
            json!({"name": name, "username": user}),
        )
        .await;
    }
    // carl plays not: a member watching the round page.
    let carl = server.token("carl").await;
    let mut stream = server.stream("/api/stream/event", Some(&carl)).await;
    stream.drain(Duration::from_millis(200)).await;

    let rounds = format!("{base}/rounds");
    ok(server, Method::POST, &rounds, &arb, Value::Null).await;
    let paired = board_event(&mut stream, "pair").await;
    assert_eq!(paired, json!({"tournament": id, "round": 1, "board": 0}));

    ok(
        server,
        Method::DELETE,
        &format!("{rounds}/1"),
        &arb,
        Value::Null,
    )
    .await;
    let unpaired = board_event(&mut stream, "unpair").await;
    assert_eq!(unpaired, json!({"tournament": id, "round": 1, "board": 0}));

    let round = ok(server, Method::POST, &rounds, &arb, json!({"online": true})).await;
    let paired = board_event(&mut stream, "pair online").await;
    assert_eq!(paired, json!({"tournament": id, "round": 1, "board": 0}));
    let game = round["boards"][0]["gameId"].as_str().expect("a game");
    let white = round["boards"][0]["white"].as_u64().unwrap();
    let resigner = server.token(if white == 1 { "anna" } else { "ben" }).await;
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/resign"),
            Some(&resigner),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let result = board_event(&mut stream, "online result").await;
    assert_eq!(result, json!({"tournament": id, "round": 1, "board": 1}));
    let (_, now) = server
        .call(Method::GET, &format!("{rounds}/1"), None, None)
        .await;
    assert_eq!(now["boards"][0]["result"], "0-1", "{now}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_on_sqlite() {
    let server = TestServer::sqlite().await;
    events(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    events(&server).await;
    server.finish().await;
}
