//! A store written by an earlier release (`tests/data/release-0.1/`, see
//! its README) still serves: its finished games list with their results
//! and reasons (by each reason's one name, also where that release spelled
//! it otherwise), each log is handed out byte for byte as then (signature
//! included: an entry keeps its old spelling), and the unfinished game goes
//! on from its sealed commit.

mod support;

use std::path::Path;

use axum::http::{Method, StatusCode};
use serde_json::json;
use support::{TempDir, TestServer};
use tempo_host::chain::verify_log;
use tempo_server::AppState;
use tempo_server::store::Store;

const FINISHED_ORTHODOX: &str = "OFLP8lmkUFj7";
const FINISHED_FAIRSCHACH: &str = "Pg6AMkbe5nsU";
const UNFINISHED: &str = "qvVBkqj3voJ3";

fn release() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/release-0.1")
}

async fn server() -> (TestServer, TempDir) {
    let dir = TempDir(std::env::temp_dir().join(format!(
        "tempo-release-{}-{:x}",
        std::process::id(),
        rand::random::<u64>()
    )));
    std::fs::create_dir_all(&dir.0).unwrap();
    std::fs::copy(release().join("tempo.sqlite"), dir.0.join("tempo.sqlite")).unwrap();
    let store = Store::open_dir(&dir.0).await.expect("the old store opens");
    let state = AppState::new(store).await.expect("state");
    (TestServer::with_state(state), dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_store_serves_its_games_as_they_were() {
    let (server, _dir) = server().await;
    let (status, list) = server.call(Method::GET, "/api/games", None, None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let ends: Vec<_> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["gameId"].clone(),
                g["result"].clone(),
                g["reason"].clone(),
            )
        })
        .collect();
    assert_eq!(
        ends,
        [
            (json!(FINISHED_FAIRSCHACH), json!("1-0"), json!("resign")),
            (
                json!(FINISHED_ORTHODOX),
                json!("1/2-1/2"),
                json!("insufficient-material")
            ),
        ]
    );
    for game in [FINISHED_ORTHODOX, FINISHED_FAIRSCHACH, UNFINISHED] {
        let stored = std::fs::read_to_string(release().join(format!("{game}.log.ndjson"))).unwrap();
        let log = server
            .router_get_text(&format!("/api/game/{game}/log"))
            .await;
        assert_eq!(log, stored, "{game}");
    }
    let stored =
        std::fs::read_to_string(release().join(format!("{FINISHED_ORTHODOX}.log.ndjson"))).unwrap();
    assert!(stored.contains(r#""reason":"insufficientmaterial""#));
    let (_, state) = server
        .call(
            Method::GET,
            &format!("/api/game/{FINISHED_ORTHODOX}"),
            None,
            None,
        )
        .await;
    assert_eq!(state["state"]["reason"], "insufficient-material");
    assert_eq!(state["state"]["result"], "1/2-1/2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_sealed_commit_is_revealed_by_the_next_move() {
    let (server, _dir) = server().await;
    let (status, body) = server
        .call(
            Method::POST,
            "/api/token",
            None,
            Some(json!({"username": "ben", "password": "ben-password1"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let ben = body["token"].as_str().unwrap().to_string();
    let (status, body) = server.play(UNFINISHED, &ben, "e7e6").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let log = server
        .router_get_text(&format!("/api/game/{UNFINISHED}/log"))
        .await;
    let reveal = log.lines().last().unwrap();
    assert!(
        reveal.contains(r#""type":"reveal""#)
            && reveal.contains(r#""choice":"c2c4""#)
            && reveal.contains(r#""choice":"e7e6""#),
        "{reveal}"
    );
    let (_, key) = server
        .call(Method::GET, "/api/server-key", None, None)
        .await;
    assert_eq!(
        key,
        serde_json::from_str::<serde_json::Value>(
            &std::fs::read_to_string(release().join("server-key.json")).unwrap()
        )
        .unwrap()
    );
    let head = verify_log(&log, None).expect("the continued log verifies");
    assert_eq!(head.seq, 4);
}

/// The plan's lines of `query` on the SQLite file at `path`.
async fn plan(pool: &sqlx::AnyPool, query: &str) -> Vec<String> {
    use sqlx::Row;
    sqlx::query(&format!("EXPLAIN QUERY PLAN {query}"))
        .fetch_all(pool)
        .await
        .unwrap()
        .iter()
        .map(|row| row.try_get::<String, _>(3).unwrap())
        .collect()
}

/// That release had no index on challenges (issue #24): its store gains
/// them when it opens, and the challenge lists read by them, not by
/// scanning the table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_store_gains_the_indexes_its_challenge_lists_read_by() {
    let file = release().join("tempo.sqlite");
    sqlx::any::install_default_drivers();
    let indexes = |url: String| async move {
        use sqlx::Row;
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        let names: Vec<String> = sqlx::query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'challenges' \
             AND name NOT LIKE 'sqlite_autoindex%'",
        )
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|row| row.try_get(0).unwrap())
        .collect();
        (pool, names)
    };
    let (_, before) = indexes(format!("sqlite://{}?mode=ro", file.display())).await;
    assert!(before.is_empty(), "{before:?}");

    let (_server, dir) = server().await;
    let (pool, after) = indexes(format!("sqlite://{}", dir.0.join("tempo.sqlite").display())).await;
    for index in [
        "challenges_by_challenger",
        "challenges_by_dest",
        "challenges_by_status",
    ] {
        assert!(after.iter().any(|name| name == index), "{after:?}");
    }
    // The store's own queries of the challenges (storage/challenges.rs).
    for query in [
        "SELECT id FROM challenges WHERE status = 'open' AND (challenger = 'anna' OR dest = 'anna') \
         ORDER BY created LIMIT 200",
        "SELECT COUNT(*) FROM challenges WHERE status = 'open' AND challenger = 'anna'",
        "SELECT id FROM challenges WHERE id = 'x'",
    ] {
        let lines = plan(&pool, query).await;
        assert!(
            lines.iter().any(|l| l.contains("USING")),
            "{query}: {lines:?}"
        );
        assert!(
            !lines
                .iter()
                .any(|l| l.starts_with("SCAN challenges") && !l.contains("INDEX")),
            "{query}: {lines:?}"
        );
    }
}

/// The same indexes on PostgreSQL (with `TEMPO_TEST_DATABASE_URL`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgresql_has_the_challenge_indexes_too() {
    use sqlx::Row;
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    let pool = sqlx::AnyPool::connect(server.url.as_deref().unwrap())
        .await
        .unwrap();
    let names: Vec<String> = sqlx::query(
        "SELECT indexname::text FROM pg_indexes WHERE tablename = 'challenges' \
         AND schemaname = current_schema()",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    .iter()
    .map(|row| row.try_get(0).unwrap())
    .collect();
    for index in [
        "challenges_by_challenger",
        "challenges_by_dest",
        "challenges_by_status",
    ] {
        assert!(names.iter().any(|name| name == index), "{names:?}");
    }
    pool.close().await;
    server.finish().await;
}
