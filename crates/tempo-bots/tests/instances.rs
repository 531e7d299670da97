//! Bots on two instances of one PostgreSQL store (skipped without
//! `TEMPO_TEST_DATABASE_URL`): the older instance's bots keep playing
//! after a newer one starts, a challenge made on either instance is
//! accepted once and its game played, every move by one instance's bot.

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tempo_server::AppState;
use tempo_server::auth::{Role, User, hash_password};
use tempo_server::store::Store;
use tower::ServiceExt;

const WAIT: Duration = Duration::from_secs(10);

/// One instance: its state and router.
struct Instance {
    state: AppState,
    router: Router,
}

impl Instance {
    /// An instance on `url` with its bots and its listener running.
    async fn start(url: &str) -> Instance {
        let store = Store::connect(url).await.expect("the schema");
        let state = AppState::new(store).await.expect("state");
        tempo_bots::start(&state, 0).await.expect("the bots start");
        tokio::spawn(tempo_server::follow_other_instances(state.clone()));
        // The listener is connected before anyone acts.
        tokio::time::sleep(Duration::from_millis(300)).await;
        Instance {
            router: tempo_server::router(state.clone()),
            state,
        }
    }

    async fn call(&self, method: Method, uri: &str, token: &str, body: Option<Value>) -> Value {
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header("authorization", format!("Bearer {token}"));
        let body = match body {
            Some(body) => {
                request = request.header("content-type", "application/json");
                Body::from(body.to_string())
            }
            None => Body::empty(),
        };
        let response = self
            .router
            .clone()
            .oneshot(request.body(body).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        assert_eq!(status, StatusCode::OK, "{uri}: {value}");
        value
    }

    async fn token(&self, name: &str) -> String {
        let request = Request::post("/api/token")
            .header("content-type", "application/json")
            .body(Body::from(
                json!({"username": name, "password": format!("{name}-password")}).to_string(),
            ))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        body["token"].as_str().expect("a token").to_string()
    }

    /// `token`'s player challenges `bot` to a five-minute game as White;
    /// the challenge's id.
    async fn challenge(&self, token: &str, bot: &str) -> String {
        let body = json!({"variant": "standard", "clock": "300+0", "color": "white"});
        let made = self
            .call(
                Method::POST,
                &format!("/api/challenge/{bot}"),
                token,
                Some(body),
            )
            .await;
        made["id"].as_str().unwrap().to_string()
    }

    /// White plays a legal move in `game`, then waits for the bot's answer.
    /// `seen` is the last step seen of the game on any instance: this
    /// instance learns of another's steps a moment later, so it is first
    /// waited for (a move chosen from an older position would be refused).
    async fn move_and_wait(&self, game: &str, token: &str, seen: &mut u64) {
        let uri = format!("/api/game/{game}");
        let start = Instant::now();
        let before = loop {
            let state = self.call(Method::GET, &uri, token, None).await;
            if state["state"]["seq"].as_u64().unwrap() >= *seen {
                break state;
            }
            assert!(start.elapsed() < WAIT, "{game} not caught up: {state}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let seq = before["state"]["seq"].as_u64().unwrap();
        let choice = before["state"]["legal"][0].as_str().expect("White to move");
        self.call(
            Method::POST,
            &format!("/api/board/game/{game}/move/{choice}"),
            token,
            None,
        )
        .await;
        let start = Instant::now();
        loop {
            let now = self.call(Method::GET, &uri, token, None).await;
            let now_seq = now["state"]["seq"].as_u64().unwrap();
            if now_seq >= seq + 2 {
                *seen = now_seq;
                return;
            }
            assert!(start.elapsed() < WAIT, "no answer in {game}: {now}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_on_two_instances_play_without_getting_in_each_others_way() {
    let Ok(url) = std::env::var("TEMPO_TEST_DATABASE_URL") else {
        eprintln!("skipped: TEMPO_TEST_DATABASE_URL not set (PostgreSQL tests)");
        return;
    };
    sqlx::any::install_default_drivers();
    let admin = sqlx::AnyPool::connect(&url).await.expect("PostgreSQL");
    let schema = format!("t_bots_{}_{:x}", std::process::id(), rand_suffix());
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .unwrap();
    let separator = if url.contains('?') { '&' } else { '?' };
    let scoped = format!("{url}{separator}options=-c%20search_path%3D{schema}");

    let first = Instance::start(&scoped).await;
    for name in ["anna", "carl"] {
        let user = User {
            name: name.into(),
            role: Role::Player,
        };
        let hash = hash_password(&format!("{name}-password")).unwrap();
        first.state.store.add_user(&user, &hash, 0).await.unwrap();
    }
    let anna = first.token("anna").await;
    let challenge = first.challenge(&anna, "bot-random").await;
    let with_anna = accepted(&admin, &schema, &challenge).await;
    let mut seen = 0;
    first.move_and_wait(&with_anna, &anna, &mut seen).await;

    // A newer instance starts its own bots: the first one's keep working,
    // also after the 5 s in which an instance keeps accepting a token it
    // has seen valid (had the start ended the first one's tokens, its bot
    // could no longer move).
    let second = Instance::start(&scoped).await;
    tokio::time::sleep(Duration::from_secs(6)).await;
    for _ in 0..2 {
        second.move_and_wait(&with_anna, &anna, &mut seen).await;
        first.move_and_wait(&with_anna, &anna, &mut seen).await;
    }
    assert_eq!(
        owners(&admin, &schema, &with_anna).await,
        [first.state.instance.to_string()],
        "the first instance's bot plays the game it began"
    );

    // A challenge made on the newer instance: accepted once, played.
    let carl = second.token("carl").await;
    let challenge = second.challenge(&carl, "bot-random").await;
    let with_carl = accepted(&admin, &schema, &challenge).await;
    let mut seen = 0;
    for _ in 0..3 {
        second.move_and_wait(&with_carl, &carl, &mut seen).await;
    }
    assert_eq!(owners(&admin, &schema, &with_carl).await.len(), 1);

    // Both instances' bots had every game in view: had two played one
    // game, a move would have been refused.
    for instance in [&first, &second] {
        let refused = instance
            .state
            .metrics
            .commands_refused
            .load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(refused, 0, "a bot's move was refused");
    }
    // Each bot holds a token per instance.
    let tokens: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM {schema}.tokens WHERE user_name = 'bot-random'"
    ))
    .fetch_one(&admin)
    .await
    .unwrap();
    assert_eq!(tokens, 2);
    let _ = sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&admin)
        .await;
}

/// The game of challenge `id` once a bot accepted it.
async fn accepted(admin: &sqlx::AnyPool, schema: &str, id: &str) -> String {
    let start = Instant::now();
    loop {
        let game: Option<String> = sqlx::query_scalar(&format!(
            "SELECT game_id FROM {schema}.challenges WHERE id = $1 AND status = 'accepted'"
        ))
        .bind(id)
        .fetch_optional(admin)
        .await
        .unwrap()
        .flatten();
        if let Some(game) = game {
            return game;
        }
        assert!(start.elapsed() < WAIT, "challenge {id} was not accepted");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The instances whose bot plays `game`.
async fn owners(admin: &sqlx::AnyPool, schema: &str, game: &str) -> Vec<String> {
    sqlx::query_scalar(&format!(
        "SELECT owner FROM {schema}.bot_games WHERE game_id = $1"
    ))
    .bind(game)
    .fetch_all(admin)
    .await
    .unwrap()
}

fn rand_suffix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
