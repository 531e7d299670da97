//! The bots name their strength: `/api/users` gives each of tempo's
//! computer opponents its level on the Elo scale, and nobody else one.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tempo_server::AppState;
use tempo_server::auth::{Role, User, hash_password};
use tempo_server::store::Store;
use tower::ServiceExt;

#[tokio::test]
async fn members_list_each_bot_with_its_level() {
    let dir = std::env::temp_dir().join(format!("tempo-bot-levels-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open_dir(&dir).await.expect("a store");
    let state = AppState::new(store).await.expect("state");
    tempo_bots::start(&state, 0).await.expect("the bots start");
    let anna = User {
        name: "anna".into(),
        role: Role::Player,
    };
    let hash = hash_password("anna-password").unwrap();
    state.store.add_user(&anna, &hash, 0).await.unwrap();
    let router = tempo_server::router(state.clone());

    let login = Request::post("/api/token")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"username": "anna", "password": "anna-password"}).to_string(),
        ))
        .unwrap();
    let body = router.clone().oneshot(login).await.unwrap().into_body();
    let token: Value = serde_json::from_slice(&body.collect().await.unwrap().to_bytes()).unwrap();
    let token = token["token"].as_str().expect("a token");

    let request = Request::get("/api/users")
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let response = router.oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    let users = answer["users"].as_array().expect("users");
    for bot in tempo_bots::BOTS {
        let entry = users
            .iter()
            .find(|u| u["name"] == bot.name)
            .unwrap_or_else(|| panic!("{} among {users:?}", bot.name));
        assert_eq!(entry["title"], "BOT");
        let level = &entry["level"];
        assert_eq!(level["elo"], json!(bot.level.elo), "{}", bot.name);
        assert_eq!(level["low"], json!(bot.level.low), "{}", bot.name);
        assert_eq!(level["high"], json!(bot.level.high), "{}", bot.name);
        if let Some(elo) = bot.level.elo {
            assert!(
                bot.level.low <= elo && elo <= bot.level.high,
                "{}",
                bot.name
            );
        }
    }
    let person = users.iter().find(|u| u["name"] == "anna").expect("anna");
    assert!(person.get("level").is_none(), "{person}");
    let _ = std::fs::remove_dir_all(&dir);
}
