//! A member's event stream tells them when their move is due in a game of
//! theirs (`yourTurn`) and when a game of theirs ends (`gameFinish`), each
//! once and only to the player concerned; and a game's refusals carry
//! their machine codes.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Lines, TestServer};

const WAIT: Duration = Duration::from_millis(400);

/// The events of `type` for `game` among the lines that come now.
async fn events(lines: &mut Lines, kind: &str, game: &str) -> Vec<Value> {
    lines
        .drain(WAIT)
        .await
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|e| e["type"] == kind && e["game"]["id"] == game)
        .collect()
}

async fn opened(server: &TestServer, token: &str) -> Lines {
    let mut lines = server.stream("/api/stream/event", Some(token)).await;
    // What is open when the stream begins.
    lines.drain(WAIT).await;
    lines
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orthodox_turns_and_the_end_reach_the_players() {
    let server = TestServer::sqlite().await;
    let (game, anna, ben) = server
        .game(json!({"variant": "standard", "clock": "300+3"}))
        .await;
    let mut to_anna = opened(&server, &anna).await;
    let mut to_ben = opened(&server, &ben).await;

    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    let turns = events(&mut to_ben, "yourTurn", &game).await;
    assert_eq!(turns.len(), 1, "{turns:?}");
    assert_eq!(turns[0]["game"]["gameId"], game.as_str());
    assert!(events(&mut to_anna, "yourTurn", &game).await.is_empty());

    // Refusals of a game, by code.
    let (status, body) = server.play(&game, &anna, "d2d4").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("not_your_turn"))
    );
    let (_, body) = server.play(&game, &ben, "e7e1").await;
    assert_eq!(body["code"], "illegal_move", "{body}");
    // A refused move tells nobody anything.
    assert!(events(&mut to_anna, "yourTurn", &game).await.is_empty());

    assert_eq!(server.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    assert_eq!(events(&mut to_anna, "yourTurn", &game).await.len(), 1);
    // Both first moves made: an abort is too late (lichess's rule).
    let abort = format!("/api/board/game/{game}/abort");
    let (status, body) = server.call(Method::POST, &abort, Some(&ben), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["code"], "too_late_to_abort", "{body}");

    let resign = format!("/api/board/game/{game}/resign");
    assert_eq!(
        server
            .call(Method::POST, &resign, Some(&anna), None)
            .await
            .0,
        StatusCode::OK
    );
    for lines in [&mut to_anna, &mut to_ben] {
        let ends = events(lines, "gameFinish", &game).await;
        assert_eq!(ends.len(), 1, "{ends:?}");
        assert_eq!(ends[0]["game"]["result"], "0-1");
        assert!(ends[0]["game"]["reason"].is_string(), "{ends:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_simultaneous_step_tells_both_after_the_reveal_only() {
    let server = TestServer::sqlite().await;
    let (game, anna, ben) = server
        .game(json!({"variant": "synchronschach", "clock": "300+3"}))
        .await;
    let mut to_anna = opened(&server, &anna).await;
    let mut to_ben = opened(&server, &ben).await;

    // A commit alone changes nothing for the other player (their move was
    // due already).
    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    assert!(events(&mut to_ben, "yourTurn", &game).await.is_empty());
    assert!(events(&mut to_anna, "yourTurn", &game).await.is_empty());
    let (_, body) = server.play(&game, &anna, "d2d4").await;
    assert_eq!(body["code"], "already_committed", "{body}");

    // The second commit reveals the step; the next one is due from both.
    assert_eq!(server.play(&game, &ben, "d7d5").await.0, StatusCode::OK);
    assert_eq!(events(&mut to_anna, "yourTurn", &game).await.len(), 1);
    assert_eq!(events(&mut to_ben, "yourTurn", &game).await.len(), 1);
}
