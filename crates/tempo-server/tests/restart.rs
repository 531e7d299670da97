//! A restart loses nothing: the games come back from the store, and a
//! flag that fell while the server was down falls at its instant.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::json;
use support::TestServer;
use tempo_host::chain::verify_log;
use tempo_server::AppState;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_and_flags_survive_a_restart() {
    let server = TestServer::sqlite().await;
    let (game, anna, ben) = server
        .game(json!({"variant": "synchronschach", "clock": "1+0"}))
        .await;
    // The clocks start at the first reveal (the first-move rule).
    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    assert_eq!(server.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    let started = server.state.clock.now();
    // White commits the second pair at once; Black does not, so that its
    // flag falls first.
    assert_eq!(server.play(&game, &anna, "d2d4").await.0, StatusCode::OK);
    // The server goes away (no flag ticker ran); its store stays.
    let store = server.state.store.clone();
    tokio::time::sleep(Duration::from_millis(1_300)).await;

    let state = AppState::new(store).await.expect("the same store");
    let slot = state
        .hub
        .slot(&state.store, &game)
        .await
        .expect("the game comes back");
    state
        .hub
        .settle_flags(&state.store, &state.writer, state.clock.now())
        .await;
    let game_now = slot.game.lock().await;
    // Black had not committed the second pair: its flag fell first.
    assert_eq!(game_now.end(), Some(("1-0", "timeout")));
    drop(game_now);
    let entries = state.store.entries(&game).await.unwrap();
    let last = entries.last().unwrap();
    // The end is dated at the fall, not at the restart.
    assert!(last.at < started + 1_100, "{} vs {started}", last.at);
    let text: String = entries.iter().map(|e| e.public_line() + "\n").collect();
    verify_log(&text, None).expect("the log verifies");

    // Same key after the restart: old signatures stay valid.
    let (_, key) = server
        .call(Method::GET, "/api/server-key", None, None)
        .await;
    let again = tempo_server::router(state.clone());
    let response = tower::ServiceExt::oneshot(
        again,
        support::request(Method::GET, "/api/server-key", None, None),
    )
    .await
    .unwrap();
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let key_again: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(key, key_again);
}
