//! A stream opened with a token or a session ends with that credential:
//! after the token is revoked, the session logged out, or the password
//! changed, no later `mine` (the player's own hidden choice) arrives, on
//! SQLite and PostgreSQL. The session that changed the password keeps
//! its stream; on another instance a revoked token's stream ends within
//! the recheck interval.

mod support;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::{Lines, TestServer};
use tower::ServiceExt;

/// Well under [`tempo_server::limits::RECHECK`]: an end on this instance
/// is told at once, not found by the periodic look.
const AT_ONCE: Duration = Duration::from_secs(2);
const WAIT: Duration = Duration::from_millis(800);

/// A browser's session: its cookie's id and its CSRF token.
struct Session {
    id: String,
    csrf: String,
}

async fn log_in(server: &TestServer, name: &str) -> Session {
    let login = json!({"username": name, "password": format!("{name}-password")});
    let request = Request::post("/api/session")
        .header("content-type", "application/json")
        .body(Body::from(login.to_string()))
        .unwrap();
    let response = server.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    let id = cookie
        .split(';')
        .next()
        .and_then(|pair| pair.strip_prefix("tempo_session="))
        .unwrap()
        .to_string();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    Session {
        id,
        csrf: body["csrf"].as_str().unwrap().to_string(),
    }
}

/// A request with a session's cookie (and its CSRF token for a change).
fn with_session(
    method: Method,
    uri: &str,
    session: &Session,
    body: Option<Value>,
) -> Request<Body> {
    let builder = Request::builder()
        .method(method)
        .uri(uri)
        .header("cookie", format!("tempo_session={}", session.id))
        .header("x-csrf-token", &session.csrf);
    match body {
        Some(body) => builder
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap(),
        None => builder.body(Body::empty()).unwrap(),
    }
}

/// A Synchronschach game where anna (White) has committed e2e4, hidden:
/// the game, anna's and the arbiter's tokens.
async fn game_with_a_hidden_choice(server: &TestServer) -> (String, String, String) {
    let (game, anna, _) = server
        .game(json!({"variant": "synchronschach", "clock": "10+0"}))
        .await;
    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    (game, anna, server.token("arb").await)
}

/// An arbiter's entry: every player's stream then sends the state, with
/// the player's hidden choice as `mine`.
async fn add_time(server: &TestServer, game: &str, arb: &str) {
    let action = json!({"action": {"kind": "addTime", "color": "black", "millis": 1000}, "reason": "a test"});
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/game/{game}/arbiter"),
            Some(arb),
            Some(action),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// The stream shows anna's hidden choice now (so that its absence later
/// means something).
async fn sees_mine(lines: &mut Lines) {
    let seen = lines.drain(WAIT).await.join("\n");
    assert!(seen.contains(r#""mine":"e2e4""#), "{seen}");
}

/// The stream has ended, at once, with no `mine` after the end.
async fn ended_without_mine(lines: &mut Lines, what: &str) {
    let rest = lines
        .rest(AT_ONCE)
        .await
        .unwrap_or_else(|| panic!("the stream is still open after {what}"));
    assert!(!rest.contains("mine"), "after {what}: {rest}");
}

async fn revoking_a_token_ends_its_streams(server: &TestServer) {
    let (game, _, arb) = game_with_a_hidden_choice(server).await;
    let token = server.token("anna").await;
    let mut game_stream = server
        .stream(&format!("/api/board/game/stream/{game}"), Some(&token))
        .await;
    let mut events = server.stream("/api/stream/event", Some(&token)).await;
    add_time(server, &game, &arb).await;
    sees_mine(&mut game_stream).await;
    let (status, _) = server
        .call(Method::DELETE, "/api/token", Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    add_time(server, &game, &arb).await;
    ended_without_mine(&mut game_stream, "the token's revocation").await;
    assert!(
        events.rest(AT_ONCE).await.is_some(),
        "the event stream ends"
    );
    // The token is forgotten at once, also by the cache.
    let (status, _) = server
        .call(Method::GET, "/api/account", Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

async fn logging_out_ends_the_sessions_streams(server: &TestServer) {
    let (game, _, arb) = game_with_a_hidden_choice(server).await;
    let session = log_in(server, "anna").await;
    let uri = format!("/api/board/game/stream/{game}");
    let mut game_stream = server
        .stream_of(with_session(Method::GET, &uri, &session, None))
        .await;
    add_time(server, &game, &arb).await;
    sees_mine(&mut game_stream).await;
    let response = server
        .router
        .clone()
        .oneshot(with_session(Method::DELETE, "/api/session", &session, None))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    add_time(server, &game, &arb).await;
    ended_without_mine(&mut game_stream, "logging out").await;
}

async fn a_password_change_ends_every_other_stream(server: &TestServer) {
    let (game, anna, arb) = game_with_a_hidden_choice(server).await;
    let uri = format!("/api/board/game/stream/{game}");
    let (other, changer) = (log_in(server, "anna").await, log_in(server, "anna").await);
    let mut by_token = server.stream(&uri, Some(&anna)).await;
    let mut by_other = server
        .stream_of(with_session(Method::GET, &uri, &other, None))
        .await;
    let mut by_changer = server
        .stream_of(with_session(Method::GET, &uri, &changer, None))
        .await;
    add_time(server, &game, &arb).await;
    for lines in [&mut by_token, &mut by_other, &mut by_changer] {
        sees_mine(lines).await;
    }
    let change = json!({"old": "anna-password", "new": "a-new-password"});
    let response = server
        .router
        .clone()
        .oneshot(with_session(
            Method::POST,
            "/api/account/password",
            &changer,
            Some(change),
        ))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    add_time(server, &game, &arb).await;
    ended_without_mine(&mut by_token, "the password change (token)").await;
    ended_without_mine(&mut by_other, "the password change (other session)").await;
    // The session that made the change stays, and so does its stream.
    sees_mine(&mut by_changer).await;
    // Stored in one change: the new password, the old one's access gone.
    let (status, _) = server
        .call(Method::GET, "/api/account", Some(&anna), None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let session_of = |session: &Session| with_session(Method::GET, "/api/session", session, None);
    let other_now = server
        .router
        .clone()
        .oneshot(session_of(&other))
        .await
        .unwrap();
    assert_eq!(other_now.status(), StatusCode::UNAUTHORIZED);
    let changer_now = server
        .router
        .clone()
        .oneshot(session_of(&changer))
        .await
        .unwrap();
    assert_eq!(changer_now.status(), StatusCode::OK);
    for (password, status) in [
        ("anna-password", StatusCode::UNAUTHORIZED),
        ("a-new-password", StatusCode::OK),
    ] {
        let login = json!({"username": "anna", "password": password});
        let answer = server
            .call(Method::POST, "/api/token", None, Some(login))
            .await;
        assert_eq!(answer.0, status, "{}", answer.1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_end_with_their_credentials_on_sqlite() {
    let server = TestServer::sqlite().await;
    revoking_a_token_ends_its_streams(&server).await;
    logging_out_ends_the_sessions_streams(&server).await;
    a_password_change_ends_every_other_stream(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_end_with_their_credentials_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    revoking_a_token_ends_its_streams(&server).await;
    logging_out_ends_the_sessions_streams(&server).await;
    a_password_change_ends_every_other_stream(&server).await;
    server.finish().await;
}

/// Revoked on one instance, a token's stream on another ends within the
/// recheck interval.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_revoked_on_another_instance_ends_its_stream_soon() {
    let Some(first) = TestServer::postgres().await else {
        return;
    };
    let url = first.url.clone().expect("a PostgreSQL server");
    let store = tempo_server::store::Store::connect(&url).await.unwrap();
    let second = TestServer::with_state(tempo_server::AppState::new(store).await.unwrap());
    let (game, _, _) = game_with_a_hidden_choice(&first).await;
    let token = first.token("anna").await;
    let mut lines = second
        .stream(&format!("/api/board/game/stream/{game}"), Some(&token))
        .await;
    let full = lines.next(WAIT).await.expect("gameFull").to_string();
    assert!(full.contains(r#""mine":"e2e4""#), "{full}");
    // The stream's first look at its credential is done; the next is the
    // periodic one.
    lines.drain(Duration::from_millis(300)).await;
    let (status, _) = first
        .call(Method::DELETE, "/api/token", Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    let started = std::time::Instant::now();
    let rest = lines
        .rest(tempo_server::limits::RECHECK + Duration::from_secs(2))
        .await
        .expect("the stream on the other instance ends");
    assert!(!rest.contains("mine"), "{rest}");
    eprintln!("ended on the other instance after {:?}", started.elapsed());
    first.finish().await;
}
