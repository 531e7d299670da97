//! Rulings and the times they may set, on SQLite and (with
//! `TEMPO_TEST_DATABASE_URL`) PostgreSQL: no arbiter rules on a game they
//! play, no director enters the result of their own board; a clock no
//! one can play is refused wherever a time control enters; an arbiter's
//! times are bounded.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::TestServer;
use tempo_server::auth::{Role, User, hash_password};

async fn add_user(server: &TestServer, name: &str, role: Role) -> String {
    let user = User {
        name: name.into(),
        role,
    };
    let hash = hash_password(&format!("{name}-password")).unwrap();
    server.state.store.add_user(&user, &hash, 0).await.unwrap();
    server.token(name).await
}

/// A game of `clock` between anna (White) and `black`.
async fn game_with(server: &TestServer, black: &str, clock: &str) -> String {
    let anna = server.token("anna").await;
    let black_token = server.token(black).await;
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/challenge/{black}"),
            Some(&anna),
            Some(json!({"clock": clock, "color": "white"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            Some(&black_token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["gameId"].as_str().unwrap().to_string()
}

async fn arbiter(
    server: &TestServer,
    game: &str,
    token: &str,
    action: Value,
) -> (StatusCode, Value) {
    server
        .call(
            Method::POST,
            &format!("/api/game/{game}/arbiter"),
            Some(token),
            Some(json!({"action": action, "reason": "test"})),
        )
        .await
}

async fn status_of(server: &TestServer, game: &str) -> Value {
    let (status, body) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["state"]["status"].clone()
}

async fn on_both_stores<F, Fut>(test: F)
where
    F: Fn(TestServer) -> Fut,
    Fut: std::future::Future<Output = TestServer>,
{
    test(TestServer::sqlite().await).await;
    if let Some(server) = TestServer::postgres().await {
        test(server).await.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arbiter_cannot_rule_on_a_game_they_play() {
    on_both_stores(|server| async move {
        let arb = server.token("arb").await;
        let other = add_user(&server, "arb2", Role::Arbiter).await;
        let admin = add_user(&server, "boss", Role::Admin).await;
        let game = game_with(&server, "arb", "300+3").await;
        for action in [
            json!({"kind": "setResult", "result": "0-1"}),
            json!({"kind": "addTime", "color": "black", "millis": 60_000}),
            json!({"kind": "setClock", "color": "white", "millis": 1_000}),
            json!({"kind": "pause"}),
            json!({"kind": "penalty", "offender": "white"}),
            json!({"kind": "restore", "step": 0, "clock": "keep"}),
        ] {
            let (status, body) = arbiter(&server, &game, &arb, action.clone()).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{action}: {body}");
            assert!(
                body["error"]
                    .as_str()
                    .unwrap()
                    .contains("you play in this game"),
                "{body}"
            );
        }
        assert_eq!(status_of(&server, &game).await, "started");
        // An admin who plays is refused alike.
        let own = game_with(&server, "boss", "300+3").await;
        let (status, _) = arbiter(&server, &own, &admin, json!({"kind": "pause"})).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        // Another arbiter rules.
        let (status, body) = arbiter(
            &server,
            &game,
            &other,
            json!({"kind": "setResult", "result": "1-0"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_ne!(status_of(&server, &game).await, "started");
        server
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_director_cannot_enter_the_result_of_their_own_board() {
    on_both_stores(|server| async move {
        let arb = server.token("arb").await;
        let other = add_user(&server, "arb2", Role::Arbiter).await;
        let (status, body) = server
            .call(
                Method::POST,
                "/api/tournaments",
                Some(&arb),
                Some(json!({"name": "Club night", "system": "round-robin"})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let base = format!("/api/tournaments/{}", body["id"].as_str().unwrap());
        for (name, user) in [("Arb", "ARB"), ("Anna", "anna")] {
            let (status, body) = server
                .call(
                    Method::POST,
                    &format!("{base}/players"),
                    Some(&arb),
                    Some(json!({"name": name, "username": user})),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        let (status, body) = server
            .call(Method::POST, &format!("{base}/rounds"), Some(&arb), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let results = format!("{base}/rounds/1/results");
        let result = json!({"board": 1, "result": "1/2-1/2"});
        let (status, body) = server
            .call(Method::POST, &results, Some(&arb), Some(result.clone()))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("you play on board 1"),
            "{body}"
        );
        let (status, body) = server
            .call(Method::POST, &results, Some(&other), Some(result))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["changed"], true);
        server
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_no_one_can_play_is_refused_wherever_it_enters() {
    on_both_stores(|server| async move {
        let anna = server.token("anna").await;
        let arb = server.token("arb").await;
        for clock in ["0+5", "0", "40/0:60+5", "0+5b3"] {
            let (status, body) = server
                .call(
                    Method::POST,
                    "/api/challenge/ben",
                    Some(&anna),
                    Some(json!({"clock": clock})),
                )
                .await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{clock}: {body}");
            let error = body["error"].as_str().unwrap();
            assert!(error.starts_with(&format!("clock '{clock}'")), "{error}");
        }
        let (status, body) = server
            .call(
                Method::POST,
                "/api/challenge/ben",
                Some(&anna),
                Some(json!({"clock": "0+5"})),
            )
            .await;
        assert!(
            body["error"].as_str().unwrap().contains("no initial time"),
            "{status} {body}"
        );
        // Playable: an initial time, or a simple delay that holds the clock.
        for clock in ["1+0", "0d5", "300+3"] {
            let (status, body) = server
                .call(
                    Method::POST,
                    "/api/challenge/ben",
                    Some(&anna),
                    Some(json!({"clock": clock})),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{clock}: {body}");
        }
        // The upper bound: a time beyond 100 years is refused.
        let (status, body) = server
            .call(
                Method::POST,
                "/api/challenge/ben",
                Some(&anna),
                Some(json!({"clock": "99999999999999+0"})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        // Tournaments, in both forms of the clock.
        for clock in [json!("0+5"), json!({"limit": 0, "increment": 5})] {
            let (status, body) = server
                .call(
                    Method::POST,
                    "/api/tournaments",
                    Some(&arb),
                    Some(json!({"name": "Zero", "system": "dutch", "rounds": 3, "clock": clock})),
                )
                .await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{clock}: {body}");
            assert!(
                body["error"].as_str().unwrap().contains("no initial time"),
                "{body}"
            );
        }
        server
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arbiters_times_are_bounded() {
    on_both_stores(|server| async move {
        let arb = server.token("arb").await;
        let game = game_with(&server, "ben", "300+3").await;
        const DAY: i64 = 86_400_000;
        let refused = [
            json!({"kind": "setClock", "color": "white", "millis": i64::MAX}),
            json!({"kind": "setClock", "color": "white", "millis": DAY + 1}),
            json!({"kind": "setClock", "color": "black", "millis": -1}),
            json!({"kind": "addTime", "color": "white", "millis": i64::MAX}),
            json!({"kind": "addTime", "color": "white", "millis": i64::MIN}),
            json!({"kind": "addTime", "color": "white", "millis": 0}),
            json!({"kind": "addTime", "color": "white", "millis": DAY}),
            json!({"kind": "addTime", "color": "black", "millis": -400_000}),
        ];
        for action in refused {
            let (status, body) = arbiter(&server, &game, &arb, action.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{action}: {body}");
            let error = body["error"].as_str().unwrap();
            let kind = action["kind"].as_str().unwrap();
            assert!(error.starts_with(&format!("{kind}: ")), "{error}");
            assert_eq!(status_of(&server, &game).await, "started", "{action}");
        }
        for action in [
            json!({"kind": "setClock", "color": "white", "millis": DAY}),
            json!({"kind": "addTime", "color": "black", "millis": 60_000}),
            json!({"kind": "addTime", "color": "white", "millis": -60_000}),
        ] {
            let (status, body) = arbiter(&server, &game, &arb, action.clone()).await;
            assert_eq!(status, StatusCode::OK, "{action}: {body}");
        }
        let (_, full) = server
            .call(Method::GET, &format!("/api/game/{game}"), None, None)
            .await;
        let white = full["state"]["wtime"].as_i64().unwrap();
        assert!((DAY - 61_000..=DAY - 59_000).contains(&white), "{full}");
        // Now at (about) a day less a minute: two minutes more would pass it.
        let (status, body) = arbiter(
            &server,
            &game,
            &arb,
            json!({"kind": "addTime", "color": "white", "millis": 120_000}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("must stay 0 to"),
            "{body}"
        );
        assert_eq!(status_of(&server, &game).await, "started");
        server
    })
    .await;
}
