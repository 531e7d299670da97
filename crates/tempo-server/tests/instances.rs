//! Two server instances on one PostgreSQL serve the same game: White
//! plays on one, Black on the other, a spectator of the first sees the
//! reveal, and an overdue flag is settled exactly once.

mod support;

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;
use support::TestServer;
use tempo_host::Body;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_a_game() {
    let Some(first) = TestServer::postgres().await else {
        return;
    };
    // The second instance: its own connections, hub, writer and listener.
    let url = first.url.clone().expect("a PostgreSQL server");
    let store = tempo_server::store::Store::connect(&url).await.unwrap();
    let second = TestServer::with_state(tempo_server::AppState::new(store).await.unwrap());
    for state in [&first.state, &second.state] {
        tokio::spawn(tempo_server::follow_other_instances(state.clone()));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;

    let (game, anna, ben) = first
        .game(json!({"variant": "synchronschach", "clock": "2+0"}))
        .await;
    let mut spectator = first
        .stream(&format!("/api/board/game/stream/{game}"), None)
        .await;
    spectator
        .next(Duration::from_millis(300))
        .await
        .expect("gameFull");
    assert_eq!(first.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    assert_eq!(second.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    let seen = spectator
        .drain(Duration::from_millis(1_000))
        .await
        .join("\n");
    assert!(seen.contains(r#""type":"reveal""#), "{seen}");
    // The first instance's copy is current again: White plays there.
    assert_eq!(first.play(&game, &anna, "d2d4").await.0, StatusCode::OK);

    // Both instances look for the flag at once: one end entry.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let now = first.state.clock.now().max(second.state.clock.now());
    let (a, b) = (first.state.clone(), second.state.clone());
    tokio::join!(
        a.hub.settle_flags(&a.store, &a.writer, now),
        b.hub.settle_flags(&b.store, &b.writer, now),
    );
    let entries = first.state.store.entries(&game).await.unwrap();
    let ends = entries
        .iter()
        .filter(|e| matches!(e.body, Body::End { .. }))
        .count();
    assert_eq!(ends, 1, "{entries:#?}");
    first.finish().await;
}
