//! Table games (issue #29) after review, on SQLite and (with
//! `TEMPO_TEST_DATABASE_URL`) on PostgreSQL: a director who plays at a
//! table gets neither seat (except the creator of a friendly game, who
//! was given both as they created it).

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{TestServer, ok};

fn game_of(answer: &Value) -> String {
    answer["gameId"].as_str().unwrap().to_string()
}

/// A friendly table game of `white` and `black` made by `token`'s member.
async fn friendly(server: &TestServer, token: &str, white: &str, black: &str) -> String {
    let (status, answer) = server
        .call(
            Method::POST,
            "/api/tables",
            Some(token),
            Some(json!({"variant": "fairschach", "clock": "300+3",
                "white": {"name": white}, "black": {"name": black}})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    game_of(&answer)
}

/// The status and code of `method uri` as `token`.
async fn code(server: &TestServer, method: Method, uri: &str, token: &str) -> (StatusCode, String) {
    let (status, body) = server.call(method, uri, Some(token), None).await;
    (
        status,
        body["code"].as_str().unwrap_or_default().to_string(),
    )
}

async fn a_director_who_plays(server: &TestServer) {
    let arb = server.token("arb").await;
    let anna = server.token("anna").await;
    let refused = (StatusCode::FORBIDDEN, "not_the_director".to_string());

    // Anna's friendly game with the arbiter: Anna keeps her rights, the
    // arbiter (who plays in it) has none.
    let game = friendly(server, &anna, "arb", "ben").await;
    let uri = format!("/api/tables/{game}");
    assert_eq!(
        code(server, Method::GET, &uri, &anna).await.0,
        StatusCode::OK
    );
    assert_eq!(code(server, Method::GET, &uri, &arb).await, refused);
    for method in [Method::POST, Method::DELETE] {
        let seat = format!("{uri}/seats/black");
        assert_eq!(code(server, method, &seat, &arb).await, refused);
    }
    // Anna's own game: she plays in it and created it.
    let game = friendly(server, &anna, "anna", "ben").await;
    let uri = format!("/api/tables/{game}");
    assert_eq!(
        code(server, Method::GET, &uri, &anna).await.0,
        StatusCode::OK
    );
    let renew = format!("{uri}/seats/black");
    assert_eq!(
        code(server, Method::POST, &renew, &anna).await.0,
        StatusCode::OK
    );
    // The arbiter directs it (plays in neither seat).
    assert_eq!(
        code(server, Method::GET, &uri, &arb).await.0,
        StatusCode::OK
    );

    // A tournament whose director plays: their board's seats are not
    // theirs, neither in the round nor through the table routes.
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Arbiter plays", "system": "dutch", "rounds": 1, "clock": "600+5"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for (name, username) in [("Arb", "arb"), ("Anna", "anna")] {
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            json!({"name": name, "rating": 1500, "username": username}),
        )
        .await;
    }
    let round = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds"),
        &arb,
        json!({"online": "table"}),
    )
    .await;
    let board = &round["boards"][0];
    let game = board["gameId"].as_str().expect("a table game").to_string();
    assert!(board["seats"].is_null(), "{round}");
    let (_, again) = server
        .call(
            Method::GET,
            &format!("/api/tournaments/{id}/rounds/1"),
            Some(&arb),
            None,
        )
        .await;
    assert!(!again.to_string().contains("/play#"), "{again}");
    let uri = format!("/api/tables/{game}");
    assert_eq!(code(server, Method::GET, &uri, &arb).await, refused);
    for method in [Method::POST, Method::DELETE] {
        let seat = format!("{uri}/seats/black");
        assert_eq!(code(server, method, &seat, &arb).await, refused);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_on_sqlite() {
    let server = TestServer::sqlite().await;
    a_director_who_plays(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    a_director_who_plays(&server).await;
    server.finish().await;
}
