//! The web calculator's endpoint gives what `tempo arbiter clock-reset`
//! prints: the README's worked example and the guide's (docs/clocks-and-arbiter.md),
//! with each step's value.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::json;
use support::TestServer;

const PATH: &str = "/api/arbiter/clock-reset";

#[tokio::test]
async fn the_readme_example_and_its_steps() {
    let server = TestServer::sqlite().await;
    // README: --control 5400+30 --played 40 --legal 35 --displayed 20:00 → 0:28:45
    let (status, body) = server
        .call(
            Method::POST,
            PATH,
            None,
            Some(json!({"control": "5400+30", "white": {"played": 40, "legal": 35, "displayed": "20:00"}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let white = &body["white"];
    assert_eq!(white["set"], "0:28:45");
    assert_eq!(body["control"]["initial"], "1:30:00");
    assert_eq!(body["control"]["increment"], "0:00:30");
    assert_eq!(body["control"]["severalPeriods"], false);
    // (2) used = 1:30:00 + 40 × 0:30 − 0:20:00 = 1:50:00 − 0:20:00.
    assert_eq!(white["allocPlayed"]["total"], "1:50:00");
    assert_eq!(white["step2Used"], "1:30:00");
    // (3) 35/40 × 1:30:00.
    assert_eq!(white["step3LegalUsed"], "1:18:45");
    // (4) 1:30:00 + 35 × 0:30 − 1:18:45.
    assert_eq!(white["allocLegal"]["total"], "1:47:30");
    assert_eq!(white["step4Set"], "0:28:45");
    assert_eq!(white["formula5"], "0:28:45");
    assert_eq!(white["formula5Agrees"], true);
    assert!(body.get("black").is_none());
}

#[tokio::test]
async fn both_players_and_several_periods_as_the_guide_shows() {
    let server = TestServer::sqlite().await;
    let (status, body) = server
        .call(
            Method::POST,
            PATH,
            None,
            Some(json!({"control": "5400+30",
                "white": {"played": 40, "legal": 35, "displayed": "20:00"},
                "black": {"played": 40, "legal": 35, "displayed": "1:00:00"}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["white"]["set"], "0:28:45");
    assert_eq!(body["black"]["set"], "1:03:45");

    let (status, body) = server
        .call(
            Method::POST,
            PATH,
            None,
            Some(json!({"control": "90m/40 + 30m + 30s",
                "white": {"played": 45, "legal": 38, "displayed": "25m"}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let white = &body["white"];
    assert_eq!(body["control"]["pgn"], "40/5400+30:1800+30");
    assert_eq!(white["allocPlayed"]["total"], "2:22:30");
    assert_eq!(white["allocPlayed"]["bonuses"], "0:30:00");
    assert_eq!(white["allocPlayed"]["increments"], "0:22:30");
    assert_eq!(white["allocLegal"]["total"], "1:49:00");
    assert_eq!(white["step2Used"], "1:57:30");
    assert_eq!(white["step3LegalUsed"], "1:39:13.333");
    assert_eq!(white["step4Set"], "0:09:46.667");
    assert_eq!(white["formula5"], "0:35:06.667");
    assert_eq!(white["formula5Agrees"], false);
    assert_eq!(white["set"], "0:09:47");
}

#[tokio::test]
async fn refusals_are_one_line_errors() {
    let server = TestServer::sqlite().await;
    for body in [
        json!({"control": "5400+30", "white": {"played": 30, "legal": 35, "displayed": "20:00"}}),
        json!({"control": "5400+30", "white": {"played": 40, "legal": 35, "displayed": "20"}}),
        json!({"control": "nonsense", "white": {"played": 40, "legal": 35, "displayed": "20:00"}}),
        json!({"control": "5400+30"}),
    ] {
        let (status, answer) = server
            .call(Method::POST, PATH, None, Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body} → {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
}
