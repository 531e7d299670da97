//! The lobby's API, on SQLite and (with `TEMPO_TEST_DATABASE_URL`) on
//! PostgreSQL: open challenges (made, listed, announced, accepted by a
//! third member, the first accept winning, capped, cancelled), declines
//! and cancels told on the event stream, who is online, the games in play.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Lines, TestServer};

const WAIT: Duration = Duration::from_millis(300);

/// The events of a stream until it is quiet, as JSON.
async fn events(stream: &mut Lines) -> Vec<Value> {
    stream
        .drain(WAIT)
        .await
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

async fn post(
    server: &TestServer,
    uri: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    server.call(Method::POST, uri, Some(token), body).await
}

async fn open_list(server: &TestServer, token: &str) -> Vec<Value> {
    let (status, body) = server
        .call(Method::GET, "/api/challenge/open", Some(token), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["challenges"].as_array().unwrap().clone()
}

async fn open_challenges(server: &TestServer) {
    let anna = server.token("anna").await;
    let (ben, carl) = (server.token("ben").await, server.token("carl").await);
    let mut carl_events = server.stream("/api/stream/event", Some(&carl)).await;
    assert!(events(&mut carl_events).await.is_empty());
    let spec = json!({"variant": "standard", "clock": "300+3", "color": "white", "rated": true});
    let (status, made) = post(server, "/api/challenge/open", &anna, Some(spec)).await;
    assert_eq!(status, StatusCode::OK, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["url"], format!("http://localhost/challenge/{id}"));
    assert!(made["expiresAt"].is_string());
    // Announced to every stream, listed for everyone, in nobody's own list.
    let seen = events(&mut carl_events).await;
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["type"], "openChallenge");
    assert_eq!(seen[0]["challenge"]["id"], id.as_str());
    assert_eq!(seen[0]["challenge"]["status"], "open");
    assert_eq!(seen[0]["challenge"]["rated"], true, "{seen:?}");
    let listed = open_list(server, &ben).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["challenger"], "anna");
    assert_eq!(listed[0]["clock"], "300+3");
    let (_, mine) = server
        .call(Method::GET, "/api/challenge", Some(&anna), None)
        .await;
    assert_eq!(mine["out"], json!([]));
    // The challenger cannot accept or decline it; a third member accepts.
    let accept = format!("/api/challenge/{id}/accept");
    let (status, body) = post(server, &accept, &anna, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let decline = format!("/api/challenge/{id}/decline");
    assert_eq!(
        post(server, &decline, &ben, None).await.0,
        StatusCode::FORBIDDEN
    );
    let (status, body) = post(server, &accept, &carl, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let game = body["gameId"].as_str().unwrap().to_string();
    let (_, view) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(
        (&view["white"]["name"], &view["black"]["name"]),
        (&json!("anna"), &json!("carl"))
    );
    let seen = events(&mut carl_events).await;
    let types: Vec<_> = seen.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert!(
        types.contains(&"gameStart") && types.contains(&"openChallenge"),
        "{seen:?}"
    );
    // The first accept won: a second is refused, and the list is empty.
    let (status, body) = post(server, &accept, &ben, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(open_list(server, &ben).await.is_empty());
    // The games in play show it, with its position and both clocks.
    let (status, playing) = server
        .call(Method::GET, "/api/games/playing?nb=12", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{playing}");
    let shown = &playing["games"][0];
    assert_eq!(shown["gameId"], game.as_str());
    assert!(
        shown["state"]["fen"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/")
    );
    // White's clock runs (from the accept), Black's waits.
    let wtime = shown["state"]["wtime"].as_i64().unwrap();
    assert!((290_000..=300_000).contains(&wtime), "{wtime}");
    assert_eq!(shown["state"]["btime"], 300_000);
    // The board and the clocks, not the record (the game's page has it).
    assert!(shown["state"]["record"].is_null() && shown["state"]["due"]["white"] == "move");
    // Whether its clocks run (the first-move rule holds them): a small
    // board runs no clock while they stand.
    assert_eq!(shown["state"]["clockRunning"], false);
    assert_eq!(shown["state"]["paused"], false);
    assert_eq!(playing["nextPage"], Value::Null);
    let (status, _) = server
        .call(Method::GET, "/api/games/playing?nb=99", None, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

async fn open_challenges_are_capped_and_cancelled(server: &TestServer) {
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (status, made) = post(server, "/api/challenge/open", &anna, Some(json!({}))).await;
        assert_eq!(status, StatusCode::OK, "{made}");
        ids.push(made["id"].as_str().unwrap().to_string());
    }
    let (status, body) = post(server, "/api/challenge/open", &anna, Some(json!({}))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    // Bad input is refused as for a challenge by name.
    let bad = json!({"color": "green"});
    assert_eq!(
        post(server, "/api/challenge/open", &ben, Some(bad)).await.0,
        StatusCode::BAD_REQUEST
    );
    let mut ben_events = server.stream("/api/stream/event", Some(&ben)).await;
    events(&mut ben_events).await;
    let cancel = format!("/api/challenge/{}/cancel", ids[0]);
    assert_eq!(
        post(server, &cancel, &ben, None).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(post(server, &cancel, &anna, None).await.0, StatusCode::OK);
    let seen = events(&mut ben_events).await;
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["challenge"]["status"], "cancelled");
    assert_eq!(open_list(server, &ben).await.len(), 4);
    // Paged: two a page.
    let (_, page) = server
        .call(
            Method::GET,
            "/api/challenge/open?nb=2&page=1",
            Some(&ben),
            None,
        )
        .await;
    assert_eq!(page["challenges"].as_array().unwrap().len(), 2);
    assert_eq!(page["nextPage"], Value::Null);
    let (status, made) = post(server, "/api/challenge/open", &anna, Some(json!({}))).await;
    assert_eq!(status, StatusCode::OK, "{made}");
    // Anonymous callers see no list.
    assert_eq!(
        server
            .call(Method::GET, "/api/challenge/open", None, None)
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
}

async fn declines_and_cancels_are_told(server: &TestServer) {
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    let mut anna_events = server.stream("/api/stream/event", Some(&anna)).await;
    let mut ben_events = server.stream("/api/stream/event", Some(&ben)).await;
    events(&mut anna_events).await;
    events(&mut ben_events).await;
    let (_, made) = post(server, "/api/challenge/ben", &anna, Some(json!({}))).await;
    let id = made["id"].as_str().unwrap();
    events(&mut anna_events).await;
    // The challenged member's notification says whether the game is rated.
    let seen = events(&mut ben_events).await;
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["type"], "challenge");
    assert_eq!(seen[0]["challenge"]["rated"], false, "{seen:?}");
    let (status, _) = post(server, &format!("/api/challenge/{id}/decline"), &ben, None).await;
    assert_eq!(status, StatusCode::OK);
    for stream in [&mut anna_events, &mut ben_events] {
        let seen = events(stream).await;
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen[0]["type"], "challengeDeclined");
        assert_eq!(seen[0]["challenge"]["id"], id);
        assert_eq!(seen[0]["challenge"]["destUser"]["name"], "ben");
    }
    let rated = json!({"rated": true});
    let (_, made) = post(server, "/api/challenge/ben", &anna, Some(rated)).await;
    let id = made["id"].as_str().unwrap();
    let seen = events(&mut ben_events).await;
    assert_eq!(seen[0]["type"], "challenge");
    assert_eq!(seen[0]["challenge"]["rated"], true, "{seen:?}");
    let (status, _) = post(server, &format!("/api/challenge/{id}/cancel"), &anna, None).await;
    assert_eq!(status, StatusCode::OK);
    let seen = events(&mut ben_events).await;
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["type"], "challengeCanceled");
    assert_eq!(seen[0]["challenge"]["challenger"]["name"], "anna");
}

async fn who_is_online(server: &TestServer) {
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    let online = |token: String| async move {
        let (status, body) = server
            .call(Method::GET, "/api/users/online", Some(&token), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["users"].clone()
    };
    assert_eq!(online(anna.clone()).await, json!([]));
    let stream = server.stream("/api/stream/event", Some(&ben)).await;
    assert_eq!(online(anna.clone()).await, json!(["ben"]));
    drop(stream);
    // A closed stream is no longer counted (its end is seen at once).
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(online(anna).await, json!([]));
    assert_eq!(
        server
            .call(Method::GET, "/api/users/online", None, None)
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
}

/// Every open challenge is told to every stream: a member makes ten a
/// minute at most, however many they cancel.
async fn open_challenges_are_rate_limited(server: &TestServer) {
    let carl = server.token("carl").await;
    for _ in 0..10 {
        let (status, made) = post(server, "/api/challenge/open", &carl, Some(json!({}))).await;
        assert_eq!(status, StatusCode::OK, "{made}");
        let cancel = format!("/api/challenge/{}/cancel", made["id"].as_str().unwrap());
        assert_eq!(post(server, &cancel, &carl, None).await.0, StatusCode::OK);
    }
    let (status, body) = post(server, "/api/challenge/open", &carl, Some(json!({}))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["code"], "too_many_open_challenges");
    // Challenges by name are not held back by it.
    let (status, body) = post(server, "/api/challenge/ben", &carl, Some(json!({}))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// A game in play whose stored log does not replay is left out of the
/// public list; the others are still shown.
async fn an_unloadable_game_is_left_out(server: &TestServer) {
    let spec = tempo_host::GameSpec::default();
    let header = tempo_host::Header::new("broken1", &spec, "anna", "ben").unwrap();
    let (_, mut first) = tempo_host::HostedGame::create(header, 1_000).unwrap();
    first.at += 1; // its hash no longer holds
    let store = &server.state.store;
    store
        .add_game("anna", "ben", &first, "broken1")
        .await
        .unwrap();
    for _ in 0..2 {
        let (status, playing) = server
            .call(Method::GET, "/api/games/playing", None, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{playing}");
        let ids: Vec<_> = playing["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["gameId"].clone())
            .collect();
        assert!(
            !ids.is_empty() && !ids.contains(&json!("broken1")),
            "{ids:?}"
        );
    }
}

async fn all(server: &TestServer) {
    who_is_online(server).await;
    open_challenges(server).await;
    open_challenges_are_capped_and_cancelled(server).await;
    declines_and_cancels_are_told(server).await;
    open_challenges_are_rate_limited(server).await;
    an_unloadable_game_is_left_out(server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_on_sqlite() {
    let server = TestServer::sqlite().await;
    all(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    all(&server).await;
    server.finish().await;
}
