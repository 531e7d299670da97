//! What the printouts read, through the API: QR codes as SVG (and their
//! limits), a round's pairing list (starting numbers, ratings, points
//! before the round, byes and absences, the Chess960 position) and the
//! chart of every player's rounds by rank; the round view lists a
//! requested half-point bye beside the pairing's bye.

mod support;

use std::collections::BTreeMap;

use axum::http::{Method, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::{TestServer, ok, request};
use tower::ServiceExt;

async fn public(server: &TestServer, uri: &str) -> Value {
    let (status, answer) = server.call(Method::GET, uri, None, None).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {answer}");
    answer
}

/// A GET's status, content type and body text.
async fn raw(server: &TestServer, uri: &str) -> (StatusCode, String, String) {
    let response = server
        .router
        .clone()
        .oneshot(request(Method::GET, uri, None, None))
        .await
        .unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8_lossy(&bytes).to_string())
}

async fn qr_codes(server: &TestServer) {
    let (status, kind, svg) = raw(
        server,
        "/api/qr?text=https%3A%2F%2Fclub.example%2Ftournaments%2Fabc%2Fprint%3Fround%3D3",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{svg}");
    assert_eq!(kind, "image/svg+xml");
    assert!(svg.contains("<svg") && svg.contains("viewBox"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
    // Another text, another code; the same text, the same code.
    let (_, _, other) = raw(server, "/api/qr?text=seat%201").await;
    assert_ne!(svg, other);
    assert_eq!(raw(server, "/api/qr?text=seat%201").await.2, other);
    // The limit is in bytes: 1000 pass, 1001 do not.
    let (status, _, _) = raw(server, &format!("/api/qr?text={}", "x".repeat(1000))).await;
    assert_eq!(status, StatusCode::OK);
    for bad in [
        format!("/api/qr?text={}", "x".repeat(1001)),
        format!("/api/qr?text={}", "%C3%A9".repeat(501)),
        "/api/qr?text=".to_string(),
        "/api/qr".to_string(),
        "/api/qr?text=a%0Ab".to_string(),
        "/api/qr?text=a&size=9".to_string(),
    ] {
        let (status, body) = server.call(Method::GET, &bad, None, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert_eq!(body["code"], "bad_request", "{bad}: {body}");
        assert!(body["error"].is_string(), "{bad}: {body}");
    }
}

/// Seven rated players; round 1 with a forfeit and the pairing's bye,
/// round 2 with a requested half-point bye and an excused player.
async fn pairing_list_and_chart(server: &TestServer) {
    let arb = server.token("arb").await;
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Printouts 2026", "system": "dutch", "rounds": 5, "chess960": true}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let base = format!("/api/tournaments/{id}");
    let mut ratings = BTreeMap::new();
    for i in 1..=7u64 {
        let rating = 2150 - 75 * i;
        let player = ok(
            server,
            Method::POST,
            &format!("{base}/players"),
            &arb,
            json!({"name": format!("Player {i}"), "rating": rating}),
        )
        .await["id"]
            .as_u64()
            .unwrap();
        ratings.insert(player, rating);
    }
    // Not paired yet: no list.
    let (status, body) = server
        .call(
            Method::GET,
            &format!("{base}/rounds/1/pairing-list"),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["code"], "not_found");

    ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        json!({}),
    )
    .await;
    let list = public(server, &format!("{base}/rounds/1/pairing-list")).await;
    assert_eq!(list["round"], 1);
    assert_eq!(list["name"], "Printouts 2026");
    assert_eq!(list["totalRounds"], 5);
    assert!(list["chess960"]["number"].as_u64().unwrap() < 960);
    let boards = list["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 3);
    for b in boards {
        assert!(b["result"].is_null(), "{b}");
        for side in ["white", "black"] {
            let p = &b[side];
            assert_eq!(p["points"], 0.0, "{b}");
            assert_eq!(
                p["rating"].as_u64(),
                ratings.get(&p["player"].as_u64().unwrap()).copied()
            );
            assert_eq!(p["name"], format!("Player {}", p["player"]));
        }
    }
    let away = list["away"].as_array().unwrap();
    assert_eq!(away.len(), 1, "{list}");
    assert_eq!(away[0]["status"], "pairing-bye");
    let round1 = public(server, &format!("{base}/rounds/1")).await;
    assert_eq!(round1["away"][0]["player"], round1["bye"]);

    // Board 1 wins, board 2 a draw, board 3 a forfeit.
    for (board, result) in [(1, "1-0"), (2, "1/2-1/2"), (3, "+-")] {
        ok(
            server,
            Method::POST,
            &format!("{base}/rounds/1/results"),
            &arb,
            json!({"board": board, "result": result}),
        )
        .await;
    }
    let list = public(server, &format!("{base}/rounds/1/pairing-list")).await;
    let results: Vec<&str> = list["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["1-0", "1/2-1/2", "+-"]);

    // Round 2: the two players of board 2 (a draw) stay away: one asks for
    // a half-point bye, the other is excused.
    let drawn = &list["boards"][1];
    let (half, excused) = (
        drawn["white"]["player"].as_u64().unwrap(),
        drawn["black"]["player"].as_u64().unwrap(),
    );
    for (player, status) in [(half, "half-point-bye"), (excused, "excused")] {
        ok(
            server,
            Method::POST,
            &format!("{base}/attendance"),
            &arb,
            json!({"round": 2, "player": player, "status": status}),
        )
        .await;
    }
    ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        json!({}),
    )
    .await;
    let list = public(server, &format!("{base}/rounds/2/pairing-list")).await;
    let after1: BTreeMap<u64, f64> =
        public(server, &format!("{base}/standings?round=1")).await["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["player"].as_u64().unwrap(), r["score"].as_f64().unwrap()))
            .collect();
    let mut seen = Vec::new();
    for b in list["boards"].as_array().unwrap() {
        for side in ["white", "black"] {
            let p = b[side]["player"].as_u64().unwrap();
            assert_eq!(b[side]["points"].as_f64(), after1.get(&p).copied(), "{b}");
            seen.push(p);
        }
    }
    let away: BTreeMap<u64, String> = list["away"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let p = a["player"].as_u64().unwrap();
            assert_eq!(a["points"].as_f64(), after1.get(&p).copied(), "{a}");
            assert_eq!(a["rating"].as_u64(), ratings.get(&p).copied());
            (p, a["status"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(away.get(&half).map(String::as_str), Some("half-point-bye"));
    assert_eq!(away.get(&excused).map(String::as_str), Some("excused"));
    // Five left: two boards and the pairing's bye; every player once.
    assert_eq!(seen.len(), 4);
    assert_eq!(away.len(), 3, "{away:?}");
    let bye = away
        .iter()
        .find(|(_, s)| s.as_str() == "pairing-bye")
        .map(|(&p, _)| p)
        .expect("a pairing bye");
    seen.extend(away.keys());
    seen.sort_unstable();
    assert_eq!(seen, (1..=7).collect::<Vec<_>>());
    // The round view shows the requested bye too (it showed only the
    // pairing's bye).
    let round2 = public(server, &format!("{base}/rounds/2")).await;
    let statuses: Vec<(u64, &str)> = round2["away"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["player"].as_u64().unwrap(), a["status"].as_str().unwrap()))
        .collect();
    assert!(statuses.contains(&(half, "half-point-bye")), "{round2}");
    assert!(statuses.contains(&(bye, "pairing-bye")), "{round2}");

    // The chart: by rank after round 1 (round 2 has no results yet).
    let chart = public(server, &format!("{base}/chart")).await;
    assert_eq!(chart["rounds"], 2);
    assert_eq!(chart["totalRounds"], 5);
    assert_eq!(chart["after"], 1);
    let rows = chart["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    let standings = public(server, &format!("{base}/standings")).await;
    let order: Vec<u64> = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_u64().unwrap())
        .collect();
    let chart_order: Vec<u64> = rows.iter().map(|r| r["player"].as_u64().unwrap()).collect();
    assert_eq!(chart_order, order);
    let rank_of: BTreeMap<u64, u64> = rows
        .iter()
        .map(|r| (r["player"].as_u64().unwrap(), r["rank"].as_u64().unwrap()))
        .collect();
    for row in rows {
        let p = row["player"].as_u64().unwrap();
        let cells = row["cells"].as_array().unwrap();
        assert_eq!(cells.len(), 5, "a column for every round");
        for c in &cells[2..] {
            assert_eq!(c["kind"], "open");
            assert!(c["total"].is_null());
        }
        // The running total after round 1 is the standings' score.
        assert_eq!(cells[0]["total"].as_f64(), after1.get(&p).copied(), "{row}");
        if let Some(o) = cells[0]["opponent"].as_u64() {
            assert_eq!(cells[0]["kind"], "game");
            assert_eq!(cells[0]["opponentRank"].as_u64(), rank_of.get(&o).copied());
            assert!(matches!(
                cells[0]["colour"].as_str(),
                Some("white" | "black")
            ));
            assert!(
                ["1", "½", "0", "+", "−"].contains(&cells[0]["result"].as_str().unwrap()),
                "{row}"
            );
        } else {
            assert_eq!(cells[0]["kind"], "pairing-bye", "{row}");
            assert_eq!(cells[0]["points"], 1.0, "{row}");
        }
        let second = &cells[1];
        if p == half {
            assert_eq!(second["kind"], "half-point-bye");
            assert_eq!(second["total"].as_f64(), Some(after1[&p] + 0.5));
        } else if p == excused {
            assert_eq!(second["kind"], "absent");
            assert_eq!(second["status"], "excused");
            assert_eq!(second["total"].as_f64(), Some(after1[&p]));
        } else if p == bye {
            assert_eq!(second["kind"], "pairing-bye");
        } else {
            assert_eq!(second["kind"], "game");
            assert!(second["result"].is_null(), "no result yet: {row}");
            assert!(second["total"].is_null(), "no total yet: {row}");
        }
    }
    // Both sides of the forfeit read as + and −.
    let forfeits: Vec<&str> = rows
        .iter()
        .filter_map(|r| r["cells"][0]["result"].as_str())
        .filter(|s| ["+", "−"].contains(s))
        .collect();
    assert_eq!(forfeits.len(), 2, "{chart}");

    // An unknown round or tournament is 404 with its code.
    let (status, body) = server
        .call(
            Method::GET,
            &format!("{base}/rounds/3/pairing-list"),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, body) = server
        .call(Method::GET, "/api/tournaments/nosuch/chart", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["code"], "tournament_not_found");
}

/// A Keizer pairing list gives the Keizer score before the round.
async fn keizer_points(server: &TestServer) {
    let arb = server.token("arb").await;
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Printouts Keizer", "system": "keizer", "rounds": 3}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let base = format!("/api/tournaments/{id}");
    for i in 1..=4 {
        ok(
            server,
            Method::POST,
            &format!("{base}/players"),
            &arb,
            json!({"name": format!("K{i}"), "rating": 1900 - i * 50}),
        )
        .await;
    }
    ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        json!({}),
    )
    .await;
    for board in [1, 2] {
        ok(
            server,
            Method::POST,
            &format!("{base}/rounds/1/results"),
            &arb,
            json!({"board": board, "result": "1-0"}),
        )
        .await;
    }
    ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        json!({}),
    )
    .await;
    let list = public(server, &format!("{base}/rounds/2/pairing-list")).await;
    let keizer: BTreeMap<u64, f64> =
        public(server, &format!("{base}/standings?round=1")).await["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["player"].as_u64().unwrap(), r["score"].as_f64().unwrap()))
            .collect();
    for b in list["boards"].as_array().unwrap() {
        for side in ["white", "black"] {
            let p = b[side]["player"].as_u64().unwrap();
            assert_eq!(b[side]["points"].as_f64(), keizer.get(&p).copied(), "{b}");
        }
    }
    // Keizer scores are more than game points: the winners' are not 1.
    assert!(keizer.values().any(|&v| v > 1.0), "{keizer:?}");
}

/// A round robin's free round is the pairing's bye, worth nothing (not an
/// absence).
async fn round_robin_free_round(server: &TestServer) {
    let arb = server.token("arb").await;
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Printouts RR", "system": "round-robin"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let base = format!("/api/tournaments/{id}");
    for i in 1..=3 {
        ok(
            server,
            Method::POST,
            &format!("{base}/players"),
            &arb,
            json!({"name": format!("R{i}")}),
        )
        .await;
    }
    let round = ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        json!({}),
    )
    .await;
    let free = round["bye"].as_u64().expect("three players: one is free");
    let list = public(server, &format!("{base}/rounds/1/pairing-list")).await;
    assert_eq!(list["away"][0]["player"].as_u64(), Some(free), "{list}");
    assert_eq!(list["away"][0]["status"], "pairing-bye");
    let chart = public(server, &format!("{base}/chart")).await;
    let row = chart["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"].as_u64() == Some(free))
        .unwrap();
    assert_eq!(row["cells"][0]["kind"], "pairing-bye", "{row}");
    assert_eq!(row["cells"][0]["points"], 0.0, "{row}");
    assert!(row["rank"].is_null(), "no complete round: no rank");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printouts_on_sqlite() {
    let server = TestServer::sqlite().await;
    qr_codes(&server).await;
    pairing_list_and_chart(&server).await;
    keizer_points(&server).await;
    round_robin_free_round(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printouts_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    pairing_list_and_chart(&server).await;
    server.finish().await;
}
