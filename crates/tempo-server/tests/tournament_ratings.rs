//! The rating previews beside the standings (docs/ratings.md), through the
//! API on SQLite and (with `TEMPO_TEST_DATABASE_URL`) on PostgreSQL: the
//! FIDE change of the example (1800, K 20, beating a 1900 and
//! drawing a 1700: +10.0), the DWZ figures of sk-troisdorf.de's example
//! (1000 beating 1200, both juniors: 1101 and 1132), forfeits and unrated
//! opponents left out, K from the regulation where none is registered.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{TestServer, ok};

/// This year (UTC), as the server takes it for ages.
fn this_year() -> i64 {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    tempo_host::chain::rfc3339_millis(ms)[..4].parse().unwrap()
}

/// The standings rows by starting number.
async fn rows(server: &TestServer, id: &str, round: Option<u32>) -> Vec<Value> {
    let uri = match round {
        Some(r) => format!("/api/tournaments/{id}/standings?round={r}"),
        None => format!("/api/tournaments/{id}/standings"),
    };
    let (status, body) = server.call(Method::GET, &uri, None, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mut rows = body["rows"].as_array().unwrap().clone();
    rows.sort_by_key(|r| r["player"].as_u64());
    rows
}

async fn previews(server: &TestServer) {
    let arb = server.token("arb").await;
    let created = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Rated evening", "system": "round-robin", "rounds": 3}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let junior = this_year() - 15;
    let players = [
        json!({"name": "Anna", "rating": 1800, "fide_k": 20, "dwz": 1000, "dwz_index": 10, "birth_year": junior}),
        json!({"name": "Ben", "rating": 1900, "dwz": 1200, "dwz_index": 10, "birth_year": junior}),
        json!({"name": "Cleo", "rating": 1700}),
        json!({"name": "Dirk"}),
    ];
    for p in players {
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            p,
        )
        .await;
    }
    // Bad facts are refused, naming the value.
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            Some(&arb),
            Some(json!({"name": "Eve", "fide_k": 50})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().contains("fide_k"), "{body}");

    // Berger's table for four: 1-4, 2-3; 4-3, 1-2; 2-4, 3-1.
    let rounds = format!("/api/tournaments/{id}/rounds");
    let results = [["1-0", "+-"], ["0-1", "1-0"], ["1/2-1/2", "1/2-1/2"]];
    for (r, round) in results.iter().enumerate() {
        ok(server, Method::POST, &rounds, &arb, Value::Null).await;
        for (board, result) in round.iter().enumerate() {
            ok(
                server,
                Method::POST,
                &format!("/api/tournaments/{id}/rounds/{}/results", r + 1),
                &arb,
                json!({"board": board + 1, "result": result}),
            )
            .await;
        }
    }

    let after = rows(server, &id, None).await;
    // Anna: Dirk is unrated (left out); Ben 1900 won, Cleo 1700 drawn:
    // the example, +10.0 with K 20 (docs/ratings.md).
    assert_eq!(
        after[0]["fide"],
        json!({"k": 20, "expected": 1.0, "change": 10.0})
    );
    // Ben: a junior below 2300 without a registered K takes K 40; the
    // forfeit against Cleo and the game against unrated Dirk do not
    // count: 40 × (0 − 0.64).
    assert_eq!(
        after[1]["fide"],
        json!({"k": 40, "expected": 0.64, "change": -25.6})
    );
    // Cleo: no birth year, K 20; the forfeit win and the win over Dirk do
    // not count; the draw with Anna: 20 × (0.5 − 0.36).
    assert_eq!(after[2]["fide"]["k"], 20);
    assert!((after[2]["fide"]["change"].as_f64().unwrap() - 2.8).abs() < 1e-9);
    assert_eq!(after[3]["fide"], Value::Null);

    // DWZ: sk-troisdorf.de's example (1000 beats 1200, both up to 20
    // years): 1101 with E 5 and 1132 with E 8. Cleo and Dirk have no DWZ.
    assert_eq!(
        after[0]["dwz"],
        json!({"old": 1000, "new": 1101, "expected": 0.24, "e": 5})
    );
    assert_eq!(
        after[1]["dwz"],
        json!({"old": 1200, "new": 1132, "expected": 0.76, "e": 8})
    );
    assert_eq!(after[2]["dwz"], Value::Null);
    assert_eq!(after[3]["dwz"], Value::Null);

    // After round 1 Anna had only beaten unrated Dirk: no figures.
    let first = rows(server, &id, Some(1)).await;
    assert_eq!(first[0]["fide"], Value::Null);
    assert_eq!(first[0]["dwz"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rating_previews_on_sqlite() {
    let server = TestServer::sqlite().await;
    previews(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rating_previews_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    previews(&server).await;
    server.finish().await;
}
