//! The first-move rule on the server: a game made from a challenge waits
//! for the first moves with its clocks standing, says so in its state,
//! and the flag sweep aborts it when a first move is not made in time.

mod support;

use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use serde_json::json;
use support::TestServer;
use tempo_host::{Body, EndReason, EndResult};
use tempo_server::AppState;

/// The game's state as anyone may see it.
async fn state(server: &TestServer, game: &str) -> serde_json::Value {
    let uri = format!("/api/game/{game}");
    server.call(Method::GET, &uri, None, None).await.1["state"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_state_tells_the_first_move_and_the_buttons_that_apply() {
    let server = TestServer::sqlite().await;
    let (game, anna, ben) = server
        .game(json!({"variant": "standard", "clock": "300+3"}))
        .await;
    let before = state(&server, &game).await;
    assert_eq!(before["clockRunning"], false, "{before}");
    assert_eq!(before["abortable"], true);
    assert_eq!(before["drawClaimable"], false);
    assert_eq!(before["firstMove"]["color"], "white");
    let left = before["firstMove"]["left"].as_u64().unwrap();
    assert!((20_000..=25_000).contains(&left), "{left}");
    assert_eq!(before["wtime"], 300_000, "the clock stands");
    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    assert_eq!(server.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    let after = state(&server, &game).await;
    assert_eq!(after["clockRunning"], true, "{after}");
    assert_eq!(after["abortable"], false);
    assert!(after.get("firstMove").is_none(), "{after}");
    // Abort is refused now, as the state said.
    let (status, _) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/abort"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweep_aborts_a_game_whose_first_move_is_not_made() {
    let first = TestServer::sqlite().await;
    // "10+0" is UltraBullet: 15 s for the first move.
    let (game, _, _) = first
        .game(json!({"variant": "fairschach", "clock": "10+0"}))
        .await;
    let created = first.state.store.entries(&game).await.unwrap()[0].at;
    // A fresh state over the same store (as after a restart): only the
    // sweep, reading the stored next flag, can find the game.
    let second = TestServer::with_state(AppState::new(first.state.store.clone()).await.unwrap());
    tokio::spawn(tempo_server::sweep_flags(second.state.clone()));
    let start = Instant::now();
    while second.state.store.game_end(&game).await.unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(25),
            "{game} never ended"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        second.state.store.game_end(&game).await.unwrap(),
        Some((EndResult::NoResult, EndReason::Aborted))
    );
    let entries = second.state.store.entries(&game).await.unwrap();
    let last = entries.last().unwrap();
    assert!(matches!(last.body, Body::End { .. }), "{last:?}");
    // Dated at the deadline, not at the sweep.
    assert_eq!(last.at, created + 15_000);
    let (_, view) = second
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(view["state"]["result"], "*", "{view}");
    assert_eq!(view["state"]["reason"], "aborted", "{view}");
}
