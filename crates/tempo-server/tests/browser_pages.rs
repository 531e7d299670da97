//! The archive, log, arbiter and rules pages in real Chromium (headless,
//! Debian's `chromium`; `TEMPO_CHROMIUM` names another binary): the
//! calculator gives the README's worked values, the log verifies in the
//! browser, the rules page draws every engine-checked example, the archive
//! lists a finished game. Screenshots at phone and desktop width are kept
//! in `target/tmp/web-pages/`. Without a Chromium the test says so and
//! passes (`.ci/run` installs it).

mod support;

use std::path::PathBuf;
use std::process::Command;

use axum::http::StatusCode;
use support::TestServer;

fn chromium() -> Option<String> {
    if let Ok(path) = std::env::var("TEMPO_CHROMIUM") {
        return Some(path);
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .map(str::to_string)
}

/// Runs Chromium headless on `url` with `args`; returns its standard output.
fn browse(chromium: &str, profile: &std::path::Path, args: &[&str], url: &str) -> String {
    let output = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--accept-lang=en",
            "--virtual-time-budget=8000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("run chromium");
    String::from_utf8_lossy(&output.stdout).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_work_in_chromium() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: no chromium (set TEMPO_CHROMIUM or install Debian's chromium)");
        return;
    };
    let dir = std::env::temp_dir().join(format!(
        "tempo-browser-pages-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    let store = tempo_server::store::Store::open_dir(&dir).await.unwrap();
    let server = TestServer::over(store, None).await;
    // A finished Fairschach game with a reveal, for the archive and the log.
    let (game, anna, ben) = server
        .game(serde_json::json!({"variant": "fairschach", "clock": "300+3"}))
        .await;
    for (token, choice) in [
        (&anna, "e2e4"),
        (&ben, "e7e5"),
        (&anna, "g1f3"),
        (&ben, "b8c6"),
    ] {
        let (status, body) = server.play(&game, token, choice).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, body) = server
        .call(
            axum::http::Method::POST,
            &format!("/api/board/game/{game}/resign"),
            Some(&ben),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // A second game whose stored reveal (seq 2) is then altered behind the
    // server's back: one millisecond on its arrival time.
    let (tampered, anna2, ben2) = server
        .game(serde_json::json!({"variant": "synchronschach", "clock": "300+3"}))
        .await;
    for (token, choice) in [(&anna2, "e2e4"), (&ben2, "e7e5")] {
        let (status, body) = server.play(&tampered, token, choice).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    sqlx::any::install_default_drivers();
    let db = sqlx::AnyPool::connect(&format!("sqlite://{}", dir.join("tempo.sqlite").display()))
        .await
        .unwrap();
    let changed = sqlx::query("UPDATE events SET at = at + 1 WHERE game_id = $1 AND seq = 2")
        .bind(&tampered)
        .execute(&db)
        .await
        .unwrap()
        .rows_affected();
    assert_eq!(changed, 1);
    db.close().await;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = server.router.clone();
    let serving = tokio::spawn(async move { axum::serve(listener, router).await });

    let out: PathBuf = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-pages");
    std::fs::create_dir_all(&out).unwrap();
    let game_for_checks = game.clone();
    let tampered = tampered.clone();
    let base_for_checks = base.clone();
    let out_for_checks = out.clone();
    tokio::task::spawn_blocking(move || {
        let (game, base, out) = (game_for_checks, base_for_checks, out_for_checks);
        let profile = out.join("profile");
        let dom = |path: &str| {
            browse(
                &chromium,
                &profile,
                &["--dump-dom"],
                &format!("{base}{path}"),
            )
        };

        // The README's worked example, and the guide's two-player one.
        let page = dom("/arbiter?control=5400%2B30&white=40,35,20:00&black=40,35,1:00:00");
        assert!(page.contains(r#"data-result="white">0:28:45<"#), "{page}");
        assert!(page.contains(r#"data-result="black">1:03:45<"#), "{page}");
        assert!(page.contains("(5) time to set"), "the formula is shown");

        let page = dom(&format!("/log/{game}"));
        assert!(page.contains(r#"data-verify="ok""#), "{page}");
        assert!(page.contains(r#"data-signature="ok""#), "{page}");

        let page = dom(&format!("/log/{tampered}"));
        assert!(page.contains(r#"data-verify="failed""#), "{page}");
        assert!(
            page.contains(r#"data-seq="2""#),
            "the altered entry is named: {page}"
        );

        let page = dom("/rules");
        let examples: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/web/rules-examples.json"
            ))
            .unwrap(),
        )
        .unwrap();
        for example in examples["examples"].as_array().unwrap() {
            let id = example["id"].as_str().unwrap();
            assert!(
                page.contains(&format!(r#"data-example="{id}""#)),
                "{id} drawn"
            );
        }

        let page = dom("/archive");
        assert!(page.contains(&format!(r#"data-game="{game}""#)), "{page}");

        for (name, path) in [
            ("archive", "/archive".to_string()),
            ("log", format!("/log/{game}")),
            (
                "arbiter",
                "/arbiter?control=5400%2B30&white=40,35,20:00".into(),
            ),
            ("rules", "/rules".into()),
        ] {
            for (width, height) in [(360, 1600), (1200, 1400)] {
                let file = out.join(format!("{name}-{width}.png"));
                browse(
                    &chromium,
                    &profile,
                    &[
                        &format!("--screenshot={}", file.display()),
                        &format!("--window-size={width},{height}"),
                    ],
                    &format!("{base}{path}"),
                );
                assert!(file.exists(), "{} written", file.display());
            }
        }
        eprintln!("screenshots in {}", out.display());
    })
    .await
    .unwrap();
    serving.abort();
    let _ = std::fs::remove_dir_all(&dir);
}

fn rand_suffix() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
