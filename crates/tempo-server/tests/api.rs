//! The API contract, on SQLite and (with `TEMPO_TEST_DATABASE_URL`) on
//! PostgreSQL: tokens, challenges, hidden commits and reveals on streams,
//! authorisation, arbiter actions, the signed log, errors.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::TestServer;
use tempo_host::chain::{unhex, verify_log};

const WAIT: Duration = Duration::from_millis(300);

async fn contract(server: &TestServer) {
    // Tokens.
    let (status, body) = server
        .call(
            Method::POST,
            "/api/token",
            None,
            Some(json!({"username": "anna", "password": "wrong-password"})),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body["error"].is_string());
    let (status, _) = server
        .call(
            Method::POST,
            "/api/token",
            None,
            Some(json!({"username": "nobody", "password": "whatever1"})),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // A Fairschach game with every option named.
    let (game, anna, ben) = server
        .game(json!({"variant": "fairschach", "clock": "300+3", "rules": {"fsr8": "off", "pause": "capturable"}}))
        .await;
    let carl = server.token("carl").await;
    let (status, full) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["white"]["name"], "anna");
    assert!(full["rules"].as_str().unwrap().contains("pause=capturable"));

    let stream = format!("/api/board/game/stream/{game}");
    let mut spectator = server.stream(&stream, None).await;
    let mut opponent = server.stream(&stream, Some(&ben)).await;
    let mut own = server.stream(&stream, Some(&anna)).await;
    for lines in [&mut spectator, &mut opponent, &mut own] {
        assert_eq!(lines.next(WAIT).await.unwrap()["type"], "gameFull");
    }

    // White commits: others learn that, never what.
    let (status, body) = server.play(&game, &anna, "g1f3").await;
    assert_eq!((status, body), (StatusCode::OK, json!({"ok": true})));
    let seen: Vec<String> = [spectator.drain(WAIT).await, opponent.drain(WAIT).await].concat();
    assert!(
        seen.iter()
            .any(|l| l.contains(r#""type":"committed""#) && l.contains(r#""head""#))
    );
    let (_, public) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    let (_, as_ben) = server
        .call(Method::GET, &format!("/api/game/{game}"), Some(&ben), None)
        .await;
    let (_, log) = server
        .call(Method::GET, &format!("/api/game/{game}/log"), None, None)
        .await;
    let pgn = server
        .router_get_text(&format!("/api/game/export/{game}"))
        .await;
    // The record's text files (the downloads) hold revealed choices only.
    let notation = server
        .router_get_text(&format!("/api/game/{game}/record?format=sources"))
        .await;
    let digits = server
        .router_get_text(&format!("/api/game/{game}/record?format=digits"))
        .await;
    assert!(
        notation.starts_with("# tempo game") && digits.contains("# Rules: "),
        "{notation} {digits}"
    );
    assert!(
        !notation.contains("Nf3") && !digits.contains("7163"),
        "a hidden move in the record files: {notation} {digits}"
    );
    let everything = format!("{seen:?} {public} {as_ben} {log} {pgn} {notation} {digits}");
    assert!(
        !everything.contains("g1f3"),
        "a hidden move leaked: {everything}"
    );
    let (_, as_anna) = server
        .call(Method::GET, &format!("/api/game/{game}"), Some(&anna), None)
        .await;
    assert_eq!(as_anna["state"]["mine"], "g1f3");
    assert_eq!(as_ben["state"]["committed"]["white"], true);

    // The "my move" lists: Black's game awaits Black, not White.
    let (_, ben_list) = server
        .call(Method::GET, "/api/account/playing", Some(&ben), None)
        .await;
    let (_, anna_list) = server
        .call(Method::GET, "/api/account/playing", Some(&anna), None)
        .await;
    assert_eq!(ben_list["nowPlaying"][0]["isMyTurn"], true, "{ben_list}");
    assert!(
        ben_list["nowPlaying"][0]["deadline"]
            .as_str()
            .is_some_and(|d| d.ends_with('Z'))
    );
    assert_eq!(anna_list["nowPlaying"][0]["isMyTurn"], false, "{anna_list}");
    assert!(!format!("{anna_list} {ben_list}").contains("g1f3"));

    // Refusals: a second commit, the wrong seat, no seat, no token, illegal.
    assert_eq!(
        server.play(&game, &anna, "e2e4").await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        server.play(&game, &carl, "e7e5").await.0,
        StatusCode::FORBIDDEN
    );
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/move/e7e5"),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let (status, body) = server.play(&game, &ben, "e7e4").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("e7e4"), "{body}");

    // Black commits: the reveal reaches everyone at once.
    assert_eq!(server.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    for lines in [&mut spectator, &mut opponent, &mut own] {
        let got = lines.drain(WAIT).await.join("\n");
        assert!(
            got.contains(r#""type":"reveal""#) && got.contains(r#""choice":"g1f3""#),
            "{got}"
        );
    }

    // Arbiter actions: only for arbiters; a pause stops play.
    let pause = json!({"action": {"kind": "pause"}, "reason": "a phone rang"});
    let arbiter = format!("/api/game/{game}/arbiter");
    assert_eq!(
        server
            .call(Method::POST, &arbiter, Some(&anna), Some(pause.clone()))
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    let arb = server.token("arb").await;
    assert_eq!(
        server
            .call(Method::POST, &arbiter, Some(&arb), Some(pause))
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(
        server.play(&game, &anna, "d2d4").await.0,
        StatusCode::CONFLICT
    );
    let resume = json!({"action": {"kind": "resume"}, "reason": "quiet again"});
    assert_eq!(
        server
            .call(Method::POST, &arbiter, Some(&arb), Some(resume))
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(server.play(&game, &anna, "d2d4").await.0, StatusCode::OK);

    // The log verifies with the server's key.
    let (_, key) = server
        .call(Method::GET, "/api/server-key", None, None)
        .await;
    let key = ed25519_dalek::VerifyingKey::from_bytes(
        &unhex::<32>(key["key"].as_str().unwrap()).unwrap(),
    )
    .unwrap();
    let response = server
        .router_get_text(&format!("/api/game/{game}/log"))
        .await;
    let head = verify_log(&response, Some(&key)).expect("the log verifies");
    assert!(head.signed && head.seq >= 5, "{head:?}");

    // Resignation ends it; then nothing more is taken.
    let resign = format!("/api/board/game/{game}/resign");
    assert_eq!(
        server.call(Method::POST, &resign, Some(&ben), None).await.0,
        StatusCode::OK
    );
    let (_, state) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(state["state"]["result"], "1-0");
    let pgn = server
        .router_get_text(&format!("/api/game/export/{game}"))
        .await;
    assert!(
        pgn.contains("[Variant \"Fairschach\"]") && pgn.contains("[Result \"1-0\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("Nf3") || pgn.contains("g1f3"), "{pgn}");
    assert_eq!(
        server.play(&game, &ben, "e5e4").await.0,
        StatusCode::CONFLICT
    );
}

/// A request (method, path, token, body) and the code of its refusal.
type Case<'a> = (Method, String, Option<&'a str>, Option<Value>, &'a str);

async fn challenges_and_errors(server: &TestServer) {
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    let mut events = server.stream("/api/stream/event", Some(&ben)).await;
    let (status, body) = server
        .call(
            Method::POST,
            "/api/challenge/ben",
            Some(&anna),
            Some(json!({"variant": "chess960", "clock": "180+2"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    assert!(events.drain(WAIT).await.join("\n").contains(&id));
    let accept = format!("/api/challenge/{id}/accept");
    assert_eq!(
        server
            .call(Method::POST, &accept, Some(&anna), None)
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    let (status, body) = server.call(Method::POST, &accept, Some(&ben), None).await;
    assert_eq!(status, StatusCode::OK);
    let game = body["gameId"].as_str().unwrap();
    assert!(
        events
            .drain(WAIT)
            .await
            .join("\n")
            .contains(r#""gameStart""#)
    );
    assert_eq!(
        server.call(Method::POST, &accept, Some(&ben), None).await.0,
        StatusCode::CONFLICT
    );
    let (_, full) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert!(full["chess960"].as_u64().is_some_and(|n| n < 960), "{full}");

    // Bad requests: one line of JSON naming the problem, never a 500.
    let bad: Vec<(Value, &str)> = vec![
        (json!({"variant": "crazyhouse"}), "variant"),
        (json!({"variant": "standard", "clock": "soon"}), "clock"),
        (
            json!({"variant": "fairschach", "rules": {"pause": "sometimes"}}),
            "pause",
        ),
        (json!({"variant": "standard", "color": "green"}), "color"),
        (json!({"variant": "standard", "chess960": 960}), "chess960"),
        (
            json!({"variant": "standard", "fen": "8/8/8/8 w - - 0 1"}),
            "fen",
        ),
        (json!({"variant": "standard", "surprise": true}), "surprise"),
    ];
    for (body, needle) in bad {
        let (status, answer) = server
            .call(
                Method::POST,
                "/api/challenge/ben",
                Some(&anna),
                Some(body.clone()),
            )
            .await;
        assert!(status.is_client_error(), "{body}: {status}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(needle), "{body}: {answer}");
    }
    assert_eq!(
        server
            .call(
                Method::POST,
                "/api/challenge/anna",
                Some(&anna),
                Some(json!({}))
            )
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        server
            .call(
                Method::POST,
                "/api/challenge/nobody",
                Some(&anna),
                Some(json!({}))
            )
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (status, body) = server
        .call(Method::GET, "/api/no/such/route", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].is_string());
    let huge = json!({"variant": "standard", "fen": "x".repeat(100_000)});
    let (status, _) = server
        .call(Method::POST, "/api/challenge/ben", Some(&anna), Some(huge))
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        server
            .call(Method::GET, "/api/game/nosuchgame", None, None)
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (status, _) = server
        .call(Method::GET, "/api/account", Some("tempo_forged"), None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // Each refusal names its machine code beside the English (the game
    // aborted first, so that a second abort is refused).
    let abort = format!("/api/board/game/{game}/abort");
    let (status, _) = server.call(Method::POST, &abort, Some(&anna), None).await;
    assert_eq!(status, StatusCode::OK);
    let cases: Vec<Case> = vec![
        (
            Method::POST,
            "/api/challenge/anna".into(),
            Some(&anna),
            Some(json!({})),
            "challenge_yourself",
        ),
        (
            Method::POST,
            "/api/challenge/nobody".into(),
            Some(&anna),
            Some(json!({})),
            "user_not_found",
        ),
        (
            Method::POST,
            accept.clone(),
            Some(&ben),
            None,
            "challenge_closed",
        ),
        (
            Method::POST,
            "/api/challenge/ben".into(),
            Some(&anna),
            Some(json!({"variant": "standard", "color": "green"})),
            "bad_color",
        ),
        (
            Method::POST,
            "/api/challenge/ben".into(),
            Some(&anna),
            Some(json!({"variant": "standard", "clock": "soon"})),
            "bad_game_spec",
        ),
        (
            Method::POST,
            "/api/challenge/ben".into(),
            None,
            Some(json!({})),
            "login_required",
        ),
        (
            Method::GET,
            "/api/no/such/route".into(),
            None,
            None,
            "route_not_found",
        ),
        (
            Method::GET,
            "/api/game/nosuchgame".into(),
            None,
            None,
            "game_not_found",
        ),
        (
            Method::GET,
            "/api/account".into(),
            Some("tempo_forged"),
            None,
            "unknown_token",
        ),
        (Method::POST, abort.clone(), Some(&anna), None, "game_over"),
        (
            Method::POST,
            "/api/token".into(),
            None,
            Some(json!({"username": "anna", "password": "wrong-password"})),
            "wrong_password",
        ),
        (
            Method::GET,
            "/api/users?nb=0".into(),
            Some(&anna),
            None,
            "bad_page",
        ),
        (
            Method::DELETE,
            "/api/challenge".into(),
            Some(&anna),
            None,
            "method_not_allowed",
        ),
    ];
    for (method, path, token, body, code) in cases {
        let (status, answer) = server.call(method.clone(), &path, token, body).await;
        assert!(status.is_client_error(), "{method} {path}: {status}");
        assert_eq!(answer["code"], code, "{method} {path}: {answer}");
        assert!(answer["error"].is_string(), "{method} {path}: {answer}");
    }

    // A revoked token is refused.
    assert_eq!(
        server
            .call(Method::DELETE, "/api/token", Some(&anna), None)
            .await
            .0,
        StatusCode::OK
    );
    assert_eq!(
        server
            .call(Method::GET, "/api/account", Some(&anna), None)
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_on_sqlite() {
    let server = TestServer::sqlite().await;
    contract(&server).await;
    challenges_and_errors(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    contract(&server).await;
    challenges_and_errors(&server).await;
    server.finish().await;
}
