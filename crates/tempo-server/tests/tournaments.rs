//! Club tournaments through the API, on SQLite and (with
//! `TEMPO_TEST_DATABASE_URL`) on PostgreSQL: the Keizer source example
//! gives the source's rankings; an imported Dutch tournament continues
//! exactly as `tempo pair` pairs its export; only directors change
//! anything; an online round's result enters by itself.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{TestServer, ok};
use tempo_tourney::Tournament;

/// A director's request; the answer must be 200.
fn pairs(round: &Value) -> Vec<(u64, u64)> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap()))
        .collect()
}

async fn standings(server: &TestServer, id: &str, round: Option<u32>) -> Vec<(String, f64)> {
    let uri = match round {
        Some(r) => format!("/api/tournaments/{id}/standings?round={r}"),
        None => format!("/api/tournaments/{id}/standings"),
    };
    let (status, body) = server.call(Method::GET, &uri, None, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["score"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn ranking(list: &[(&str, f64)]) -> Vec<(String, f64)> {
    list.iter().map(|(n, s)| (n.to_string(), *s)).collect()
}

async fn enter(server: &TestServer, arb: &str, id: &str, round: u64, results: &[&str]) {
    for (board, result) in results.iter().enumerate() {
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/rounds/{round}/results"),
            arb,
            json!({"board": board + 1, "result": result}),
        )
        .await;
    }
}

async fn exported(server: &TestServer, id: &str) -> Tournament {
    let text = server
        .router_get_text(&format!("/api/tournaments/{id}/trf"))
        .await;
    let t = Tournament::from_trf_str(&text).expect("the export reads");
    t.check_consistency().expect("the export is consistent");
    t
}

/// The source's worked example (J. H. Keizer, retold by J. Kehr), played
/// through the API, then a third evening with changed attendance.
async fn keizer_example(server: &TestServer) {
    let arb = server.token("arb").await;
    let created = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Keizer example", "system": "keizer", "rounds": 10,
            "keizer": {"top": 50, "colour-tie": "higher"}}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let names = [
        "Johnson", "Petersen", "Baker", "Butcher", "Carter", "Harrison", "Smith", "Higgins",
        "White", "Brown",
    ];
    for (i, name) in names.iter().enumerate() {
        let player = ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            json!({"name": name}),
        )
        .await;
        assert_eq!(player["id"], i + 1);
    }
    let rounds = format!("/api/tournaments/{id}/rounds");
    let round1 = ok(server, Method::POST, &rounds, &arb, Value::Null).await;
    assert_eq!(round1["round"], 1);
    assert_eq!(pairs(&round1), [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)]);
    enter(
        server,
        &arb,
        &id,
        1,
        &["1-0", "1/2-1/2", "0-1", "1/2-1/2", "0-1"],
    )
    .await;
    let after1 = ranking(&[
        ("Johnson", 99.0),
        ("Harrison", 91.0),
        ("Brown", 83.0),
        ("Baker", 71.5),
        ("Butcher", 71.0),
        ("Smith", 65.5),
        ("Higgins", 65.0),
        ("Petersen", 49.0),
        ("Carter", 46.0),
        ("White", 42.0),
    ]);
    assert_eq!(standings(server, &id, None).await, after1);

    let round2 = ok(server, Method::POST, &rounds, &arb, json!({})).await;
    // Harrison-Johnson, Brown-Baker, Butcher-Smith, Higgins-Petersen,
    // Carter-White: the source's boards, in its order.
    assert_eq!(pairs(&round2), [(6, 1), (10, 3), (4, 7), (8, 2), (5, 9)]);
    assert_eq!(round2["boards"][0]["whiteName"], "Harrison");
    let result_of = |white: u64| match white {
        6 | 10 => "1-0",
        8 => "0-1",
        _ => "1/2-1/2",
    };
    for board in round2["boards"].as_array().unwrap() {
        let white = board["white"].as_u64().unwrap();
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/rounds/2/results"),
            &arb,
            json!({"board": board["board"], "result": result_of(white)}),
        )
        .await;
    }
    let after2 = ranking(&[
        ("Harrison", 141.0),
        ("Brown", 136.0),
        ("Johnson", 93.0),
        ("Butcher", 92.0),
        ("Smith", 90.0),
        ("Petersen", 87.0),
        ("Baker", 70.0),
        ("Higgins", 66.5),
        ("Carter", 62.5),
        ("White", 62.0),
    ]);
    assert_eq!(standings(server, &id, None).await, after2);
    assert_eq!(standings(server, &id, Some(1)).await, after1);

    // A third evening: White excused, Carter withdraws, Newman comes late.
    ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/attendance"),
        &arb,
        json!({"round": 3, "player": 9, "status": "excused"}),
    )
    .await;
    ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/players/5/withdraw"),
        &arb,
        Value::Null,
    )
    .await;
    let newman = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/players"),
        &arb,
        json!({"name": "Newman", "rating": 1500, "club": "SK Tempo", "guest": true}),
    )
    .await;
    assert_eq!(newman["id"], 11);
    let t = exported(server, &id).await;
    let settings = tempo_tourney::keizer::settings_from_tournament(&t).unwrap();
    let expected = tempo_tourney::keizer::pair_tournament(&t, &settings).unwrap();
    let round3 = ok(server, Method::POST, &rounds, &arb, Value::Null).await;
    let want: Vec<(u64, u64)> = expected
        .boards
        .iter()
        .map(|b| (u64::from(b.white), u64::from(b.black)))
        .collect();
    assert_eq!(pairs(&round3), want);
    assert_eq!(round3["bye"].as_u64(), expected.bye.map(u64::from));
    let seated: Vec<u64> = pairs(&round3)
        .iter()
        .flat_map(|&(w, b)| [w, b])
        .chain(round3["bye"].as_u64())
        .collect();
    assert_eq!(seated.len(), 9);
    assert!(!seated.contains(&9) && !seated.contains(&5) && seated.contains(&11));
    let (_, detail) = server
        .call(Method::GET, &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert!(
        detail["attendance"]
            .as_array()
            .unwrap()
            .contains(&json!({"round": 3, "player": 9, "status": "excused"}))
    );
    assert_eq!(detail["players"][4]["withdrawnAfter"], 2);
    assert_eq!(detail["players"][10]["firstRound"], 3);
    assert_eq!(detail["players"][10]["guest"], true);
    assert_eq!(detail["rounds"].as_array().unwrap().len(), 3);
}

/// A Dutch tournament imported from TRF and continued through the API
/// pairs each round as `tempo pair` does on the export.
async fn dutch_import(server: &TestServer) {
    let arb = server.token("arb").await;
    let trf = include_str!("data/swiss.trf");
    let created = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"trf": trf}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let (_, detail) = server
        .call(Method::GET, &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert_eq!(detail["system"], "dutch");
    assert_eq!(detail["pairedRounds"], 3);
    assert_eq!(detail["totalRounds"], 5);
    let rounds = format!("/api/tournaments/{id}/rounds");
    // Attendance: the next round only (a blank column before it would
    // read as an absence); player 12 takes a half-point bye in round 5.
    let attendance = format!("/api/tournaments/{id}/attendance");
    let (status, body) = server
        .call(
            Method::POST,
            &attendance,
            Some(&arb),
            Some(json!({"round": 5, "player": 12, "status": "half-point-bye"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    for round in 4..=5u32 {
        if round == 5 {
            ok(
                server,
                Method::POST,
                &attendance,
                &arb,
                json!({"round": 5, "player": 12, "status": "half-point-bye"}),
            )
            .await;
        }
        let t = exported(server, &id).await;
        assert_eq!(t.paired_rounds() + 1, round);
        let input = tempo_tourney::dutch::input_for_round(&t, round).unwrap();
        let expected = tempo_tourney::dutch::pair(&input).unwrap();
        let paired = ok(server, Method::POST, &rounds, &arb, Value::Null).await;
        assert_eq!(paired["round"], round);
        let want: Vec<(u64, u64)> = expected
            .boards
            .iter()
            .map(|&(w, b)| (u64::from(w), u64::from(b)))
            .collect();
        assert_eq!(pairs(&paired), want, "round {round}");
        assert_eq!(paired["bye"].as_u64(), expected.bye.map(u64::from));
        let seated = pairs(&paired).iter().any(|&(w, b)| w == 12 || b == 12);
        assert_eq!(seated, round == 4);
        if round == 4 {
            // The documented pairing of docs/tournaments.md.
            assert_eq!(want, [(10, 1), (2, 11), (8, 5), (4, 12), (3, 6), (9, 7)]);
        }
        // No next round before every result is in.
        let (status, body) = server.call(Method::POST, &rounds, Some(&arb), None).await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        let why = if round == 5 {
            "all 5 rounds"
        } else {
            "no result"
        };
        assert!(body["error"].as_str().unwrap().contains(why), "{body}");
        let results: Vec<&str> = (0..want.len())
            .map(|i| ["1-0", "1/2-1/2", "0-1"][i % 3])
            .collect();
        enter(server, &arb, &id, u64::from(round), &results).await;
    }
    // A correction is logged and the standings follow it.
    let corrected = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds/5/results"),
        &arb,
        json!({"board": 1, "result": "0-1"}),
    )
    .await;
    assert_eq!(corrected["changed"], true);
    assert_eq!(corrected["boards"][0]["result"], "0-1");
    let (_, detail) = server
        .call(Method::GET, &format!("/api/tournaments/{id}"), None, None)
        .await;
    let log = detail["log"].as_array().unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(
        (&log[0]["by"], &log[0]["from"], &log[0]["to"]),
        (&json!("arb"), &json!("1-0"), &json!("0-1"))
    );
    let (status, body) = server.call(Method::POST, &rounds, Some(&arb), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    // The standings are tempo standings' on the export.
    let t = exported(server, &id).await;
    let s = tempo_tourney::standings::standings(
        &t,
        &tempo_tourney::standings::StandingsOptions::swiss(),
    );
    let (_, api) = server
        .call(
            Method::GET,
            &format!("/api/tournaments/{id}/standings"),
            None,
            None,
        )
        .await;
    assert_eq!(api["round"], 5);
    let rows = api["rows"].as_array().unwrap();
    assert_eq!(rows.len(), s.rows.len());
    for (row, want) in rows.iter().zip(&s.rows) {
        assert_eq!(row["player"], want.id);
        assert_eq!(row["rank"], want.rank);
        assert_eq!(row["score"].as_f64().unwrap(), want.score.as_f64());
        assert!(row["tiebreaks"]["BH-C1"].is_number(), "{row}");
    }
    let (status, cross) = server
        .call(
            Method::GET,
            &format!("/api/tournaments/{id}/crosstable"),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cross["players"][0]["rounds"].as_array().unwrap().len(), 5);
}

/// Only directors change; bad input is a 4xx with one JSON error.
async fn authorisation_and_errors(server: &TestServer) {
    let (arb, anna) = (server.token("arb").await, server.token("anna").await);
    let create = json!({"name": "Club 2026", "system": "dutch", "rounds": 5});
    let (status, body) = server
        .call(
            Method::POST,
            "/api/tournaments",
            Some(&anna),
            Some(create.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(body["error"].is_string());
    let (status, _) = server
        .call(Method::POST, "/api/tournaments", None, Some(create.clone()))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let id = ok(server, Method::POST, "/api/tournaments", &arb, create).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let base = format!("/api/tournaments/{id}");
    let refused = [
        (format!("{base}/players"), json!({"name": "Anna"})),
        (format!("{base}/rounds"), json!({})),
        (
            format!("{base}/attendance"),
            json!({"round": 1, "player": 1, "status": "excused"}),
        ),
        (
            format!("{base}/rounds/1/results"),
            json!({"board": 1, "result": "1-0"}),
        ),
        (format!("{base}/players/1/withdraw"), json!({})),
    ];
    for (uri, body) in &refused {
        let (status, answer) = server
            .call(Method::POST, uri, Some(&anna), Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{uri}: {answer}");
    }
    // Reading is public.
    let (status, list) = server
        .call(Method::GET, "/api/tournaments", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        list["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str())
    );

    let bad = [
        (
            "/api/tournaments".to_string(),
            json!({"name": "X", "system": "monrad", "rounds": 5}),
            400,
        ),
        (
            "/api/tournaments".to_string(),
            json!({"name": "X", "system": "dutch"}),
            400,
        ),
        (
            "/api/tournaments".to_string(),
            json!({"name": "X", "system": "dutch", "rounds": 500}),
            400,
        ),
        (
            "/api/tournaments".to_string(),
            json!({"name": "", "system": "dutch", "rounds": 5}),
            400,
        ),
        (
            "/api/tournaments".to_string(),
            json!({"name": "X", "system": "keizer", "rounds": 5, "keizer": {"top": "many"}}),
            400,
        ),
        (
            "/api/tournaments".to_string(),
            json!({"name": "X", "system": "dutch", "rounds": 5, "tiebreaks": ["XYZ"]}),
            400,
        ),
        (
            "/api/tournaments".to_string(),
            json!({"name": "X", "system": "dutch", "rounds": 5, "clock": "soon"}),
            400,
        ),
        (
            "/api/tournaments".to_string(),
            json!({"trf": "001 garbage"}),
            400,
        ),
        (
            format!("{base}/players"),
            json!({"name": "A name much too long for the TRF columns"}),
            400,
        ),
        (
            format!("{base}/players"),
            json!({"name": "Anna", "rating": 12000}),
            400,
        ),
        (
            format!("{base}/players"),
            json!({"name": "Anna", "username": "nobody"}),
            400,
        ),
        (
            format!("{base}/attendance"),
            json!({"round": 1, "player": 7, "status": "excused"}),
            404,
        ),
        (
            "/api/tournaments/nope/players".to_string(),
            json!({"name": "Anna"}),
            404,
        ),
    ];
    for (uri, body, want) in &bad {
        let (status, answer) = server
            .call(Method::POST, uri, Some(&arb), Some(body.clone()))
            .await;
        assert_eq!(status.as_u16(), *want, "{uri} {body}: {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    for name in ["Anna", "Ben"] {
        ok(
            server,
            Method::POST,
            &format!("{base}/players"),
            &arb,
            json!({"name": name}),
        )
        .await;
    }
    let (status, answer) = server
        .call(
            Method::POST,
            &format!("{base}/attendance"),
            Some(&arb),
            Some(json!({"round": 1, "player": 1, "status": "asleep"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        Value::Null,
    )
    .await;
    for (body, want) in [
        (json!({"board": 1, "result": "2-0"}), 400),
        (json!({"board": 9, "result": "1-0"}), 404),
    ] {
        let (status, answer) = server
            .call(
                Method::POST,
                &format!("{base}/rounds/1/results"),
                Some(&arb),
                Some(body),
            )
            .await;
        assert_eq!(status.as_u16(), want, "{answer}");
    }
    let (status, _) = server
        .call(
            Method::GET,
            &format!("{base}/standings?round=3"),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // The last round can be deleted and paired again.
    let (status, _) = server
        .call(
            Method::DELETE,
            &format!("{base}/rounds/2"),
            Some(&arb),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    ok(
        server,
        Method::DELETE,
        &format!("{base}/rounds/1"),
        &arb,
        Value::Null,
    )
    .await;
    let (_, detail) = server.call(Method::GET, &base, None, None).await;
    assert_eq!(detail["pairedRounds"], 0);
    let again = ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        Value::Null,
    )
    .await;
    assert_eq!(again["round"], 1);
    let (_, spec) = server
        .call(Method::GET, "/api/openapi.json", None, None)
        .await;
    for path in [
        "/api/tournaments",
        "/api/tournaments/{id}/rounds",
        "/api/tournaments/{id}/rounds/{round}/results",
        "/api/tournaments/{id}/standings",
        "/api/tournaments/{id}/trf",
    ] {
        assert!(spec["paths"][path].is_object(), "{path} in openapi.json");
    }
}

/// An online round: the games start from the round's Chess960 position,
/// and a game's result enters the tournament by itself.
async fn online_round(server: &TestServer) {
    let arb = server.token("arb").await;
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Online 960", "system": "round-robin", "variant": "chess960",
            "chess960": true, "clock": "300+3"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let base = format!("/api/tournaments/{id}");
    for (name, user) in [("Anna", "anna"), ("Ben", "ben")] {
        ok(
            server,
            Method::POST,
            &format!("{base}/players"),
            &arb,
            json!({"name": name, "username": user}),
        )
        .await;
    }
    let round = ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        json!({"online": true}),
    )
    .await;
    assert_eq!(pairs(&round), [(1, 2)]);
    let game = round["boards"][0]["gameId"]
        .as_str()
        .expect("a game")
        .to_string();
    let fen = round["chess960"]["fen"].as_str().unwrap().to_string();
    let (_, full) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(full["white"]["name"], "anna");
    assert!(full.to_string().contains(&fen), "{full} starts at {fen}");
    let anna = server.token("anna").await;
    // An aborted game leaves the board open; the director starts another.
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/abort"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let again = ok(
        server,
        Method::POST,
        &format!("{base}/rounds/1/games"),
        &arb,
        Value::Null,
    )
    .await;
    assert!(again["boards"][0]["result"].is_null());
    let game = again["boards"][0]["gameId"].as_str().unwrap().to_string();
    assert_ne!(Some(game.as_str()), round["boards"][0]["gameId"].as_str());
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/resign"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mut result = Value::Null;
    for _ in 0..100 {
        let (_, r) = server
            .call(Method::GET, &format!("{base}/rounds/1"), None, None)
            .await;
        result = r["boards"][0]["result"].clone();
        if !result.is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(result, "0-1");
    let rows = standings(server, &id, None).await;
    assert_eq!(rows[0], ("Ben".to_string(), 1.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournaments_on_sqlite() {
    let server = TestServer::sqlite().await;
    keizer_example(&server).await;
    dutch_import(&server).await;
    authorisation_and_errors(&server).await;
    online_round(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournaments_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    keizer_example(&server).await;
    dutch_import(&server).await;
    authorisation_and_errors(&server).await;
    online_round(&server).await;
    server.finish().await;
}
