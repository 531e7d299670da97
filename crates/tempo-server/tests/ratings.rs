//! Club ratings through the API: a rated game moves both players' Glicko-2
//! ratings once and leaves a history row each; casual and aborted games do
//! not; tournament boards are rated; the list is sorted and paged; an
//! unknown variant is a 400 with its code. On SQLite and PostgreSQL.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::TestServer;
use tempo_rating::glicko2::{Club, Score};
use tempo_server::auth::{Role, User, hash_password};

async fn get(server: &TestServer, uri: &str, token: &str) -> Value {
    let (status, body) = server.call(Method::GET, uri, Some(token), None).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    body
}

/// A game from `white`'s challenge to `black` (White), accepted.
async fn challenge_game(server: &TestServer, (white, black): (&str, &str), spec: Value) -> String {
    let (w, b) = (server.token(white).await, server.token(black).await);
    let mut spec = spec;
    spec["color"] = "white".into();
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/challenge/{black}"),
            Some(&w),
            Some(spec),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            Some(&b),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["gameId"].as_str().unwrap().to_string()
}

/// Both first moves, then `loser` resigns.
async fn play_and_resign(
    server: &TestServer,
    game: &str,
    (white, black): (&str, &str),
    loser: &str,
) {
    let (w, b) = (server.token(white).await, server.token(black).await);
    let (status, body) = server.play(game, &w, "e2e4").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = server.play(game, &b, "e7e5").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let token = server.token(loser).await;
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/resign"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

fn group<'a>(member: &'a Value, variant: &str) -> &'a Value {
    member["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["variant"] == variant)
        .unwrap_or_else(|| panic!("{variant} in {member}"))
}

async fn rated_game_moves_both_once(server: &TestServer) {
    let carl = server.token("carl").await;
    let game = challenge_game(
        server,
        ("anna", "ben"),
        json!({"variant": "standard", "clock": "300+3", "rated": true}),
    )
    .await;
    let (_, view) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(view["rated"], true, "{view}");
    play_and_resign(server, &game, ("anna", "ben"), "ben").await;
    // Both new members start at lichess's 1500 / 500 / 0.09; the figures
    // are the library's (checked there against Glickman's example).
    let club = Club::LICHESS;
    let (win, loss) = club
        .game((club.start, None), (club.start, None), Score::Win)
        .unwrap();
    let list = get(server, "/api/ratings?variant=standard", &carl).await;
    assert_eq!(list["variant"], "standard");
    assert_eq!(list["group"], "orthodox");
    // Chess960 shares the group: the same list under the name asked.
    let chess960 = get(server, "/api/ratings?variant=Chess960", &carl).await;
    assert_eq!(chess960["variant"], "chess960");
    assert_eq!(chess960["rows"], list["rows"]);
    let rows = list["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{list}");
    assert_eq!(rows[0]["username"], "anna");
    assert_eq!(rows[0]["rating"], win.rating.round() as i64);
    assert_eq!(rows[0]["games"], 1);
    assert_eq!(rows[1]["username"], "ben");
    assert_eq!(rows[1]["rating"], loss.rating.round() as i64);
    assert!(rows[0]["rd"].as_i64().unwrap() < 500);
    assert!(
        rows[0]["rating"].as_i64().unwrap() > 1500 && rows[1]["rating"].as_i64().unwrap() < 1500
    );
    assert_eq!(list["nextPage"], Value::Null);
    // The members' pages: the rating and one history row each.
    let anna = get(server, "/api/users/anna/ratings", &carl).await;
    let orthodox = group(&anna, "orthodox");
    assert_eq!(orthodox["games"], 1);
    assert_eq!(orthodox["provisional"], true);
    let history = orthodox["history"].as_array().unwrap();
    assert_eq!(history.len(), 1, "{anna}");
    assert_eq!(history[0]["gameId"], game.as_str());
    assert_eq!(history[0]["ratingBefore"], 1500.0);
    assert_eq!(history[0]["rdBefore"], 500.0);
    assert_eq!(
        history[0]["ratingAfter"].as_f64().unwrap().round() as i64,
        win.rating.round() as i64
    );
    let ben = get(server, "/api/users/ben/ratings", &carl).await;
    assert_eq!(
        group(&ben, "orthodox")["history"].as_array().unwrap().len(),
        1
    );
    // Other groups untouched: lichess's start, no games.
    let fair = group(&anna, "fairschach");
    assert_eq!(
        (
            fair["rating"].as_i64(),
            fair["rd"].as_i64(),
            fair["games"].as_i64()
        ),
        (Some(1500), Some(500), Some(0))
    );
    // The game is over: nothing more happens to the ratings.
    let again = get(server, "/api/ratings?variant=chess960", &carl).await;
    assert_eq!(again["rows"], list["rows"]);
    let paged = get(
        server,
        "/api/users/anna/ratings/orthodox/history?nb=1",
        &carl,
    )
    .await;
    assert_eq!(paged["history"].as_array().unwrap().len(), 1);
    assert_eq!(paged["nextPage"], Value::Null);
}

async fn casual_and_aborted_games_are_not_rated(server: &TestServer) {
    let carl = server.token("carl").await;
    // Casual (no "rated"): Fairschach, played to a result.
    let casual = challenge_game(server, ("anna", "carl"), json!({"variant": "fairschach"})).await;
    let (_, view) = server
        .call(Method::GET, &format!("/api/game/{casual}"), None, None)
        .await;
    assert_eq!(view["rated"], false, "{view}");
    let anna = server.token("anna").await;
    let (status, _) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{casual}/resign"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // Rated, but aborted before the first moves.
    let aborted = challenge_game(
        server,
        ("anna", "carl"),
        json!({"variant": "fairschach", "rated": true}),
    )
    .await;
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{aborted}/abort"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let list = get(server, "/api/ratings?variant=fairschach", &carl).await;
    assert_eq!(list["variant"], "fairschach");
    assert_eq!(list["rows"], json!([]), "{list}");
    let member = get(server, "/api/users/carl/ratings", &carl).await;
    assert_eq!(group(&member, "fairschach")["games"], 0);
    assert_eq!(group(&member, "fairschach")["history"], json!([]));
}

/// An open challenge can be rated too; the result counts in its group.
async fn open_rated_challenge_counts_in_its_group(server: &TestServer) {
    let (ben, carl) = (server.token("ben").await, server.token("carl").await);
    let (status, body) = server
        .call(
            Method::POST,
            "/api/challenge/open",
            Some(&ben),
            Some(json!({"variant": "synchronschach", "rated": true, "color": "white"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let open = get(server, "/api/challenge/open", &carl).await;
    assert_eq!(open["challenges"][0]["rated"], true, "{open}");
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            Some(&carl),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let game = body["gameId"].as_str().unwrap().to_string();
    // Synchronschach: both commit a step, then carl resigns.
    assert_eq!(server.play(&game, &ben, "e2e4").await.0, StatusCode::OK);
    assert_eq!(server.play(&game, &carl, "e7e5").await.0, StatusCode::OK);
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/resign"),
            Some(&carl),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let list = get(server, "/api/ratings?variant=synchronschach", &carl).await;
    assert_eq!(list["variant"], "synchronschach");
    let rows = list["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{list}");
    assert_eq!(
        (rows[0]["username"].as_str(), rows[1]["username"].as_str()),
        (Some("ben"), Some("carl"))
    );
    assert!(rows.iter().all(|r| r["games"] == 1), "{list}");
    // Not in the orthodox group.
    let ben_page = get(server, "/api/users/ben/ratings", &carl).await;
    assert_eq!(group(&ben_page, "orthodox")["games"], 1);
}

async fn tournament_online_boards_are_rated(server: &TestServer) {
    let arb = server.token("arb").await;
    let (status, body) = server
        .call(
            Method::POST,
            "/api/tournaments",
            Some(&arb),
            Some(json!({"name": "Rated RR", "system": "round-robin", "variant": "standard", "clock": "300+3"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let base = format!("/api/tournaments/{}", body["id"].as_str().unwrap());
    for (name, user) in [("Ben", "ben"), ("Carl", "carl")] {
        let (status, body) = server
            .call(
                Method::POST,
                &format!("{base}/players"),
                Some(&arb),
                Some(json!({"name": name, "username": user})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, round) = server
        .call(
            Method::POST,
            &format!("{base}/rounds"),
            Some(&arb),
            Some(json!({"online": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{round}");
    let game = round["boards"][0]["gameId"].as_str().unwrap().to_string();
    let (_, view) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(view["rated"], true, "{view}");
    let white = view["white"]["name"].as_str().unwrap().to_string();
    let token = server.token(&white).await;
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/resign"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let carl = server.token("carl").await;
    let member = get(server, "/api/users/carl/ratings", &carl).await;
    let history = group(&member, "orthodox")["history"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(history.len(), 1, "{member}");
    assert_eq!(history[0]["gameId"], game.as_str());
    let won = white != "carl";
    let after = history[0]["ratingAfter"].as_f64().unwrap();
    let before = history[0]["ratingBefore"].as_f64().unwrap();
    assert_eq!(after > before, won, "{member}");
}

async fn list_is_sorted_and_paged(server: &TestServer) {
    let carl = server.token("carl").await;
    let all = get(server, "/api/ratings?variant=orthodox", &carl).await;
    let rows = all["rows"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 3, "{all}");
    let ratings: Vec<i64> = rows.iter().map(|r| r["rating"].as_i64().unwrap()).collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");
    let mut walked = Vec::new();
    let mut page = Some(0);
    while let Some(p) = page {
        let body = get(
            server,
            &format!("/api/ratings?variant=standard&nb=1&page={p}"),
            &carl,
        )
        .await;
        assert_eq!(body["page"], p);
        walked.extend(body["rows"].as_array().unwrap().clone());
        page = body["nextPage"].as_u64();
        assert!(walked.len() <= rows.len());
    }
    assert_eq!(walked, rows);
    let (status, body) = server
        .call(
            Method::GET,
            "/api/ratings?variant=orthodox&nb=0",
            Some(&carl),
            None,
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_page"))
    );
}

async fn refusals(server: &TestServer) {
    let carl = server.token("carl").await;
    for variant in ["atomic", "", "standard%00"] {
        let (status, body) = server
            .call(
                Method::GET,
                &format!("/api/ratings?variant={variant}"),
                Some(&carl),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{variant}: {body}");
        assert!(body["code"].is_string(), "{body}");
    }
    let (_, body) = server
        .call(
            Method::GET,
            "/api/ratings?variant=atomic",
            Some(&carl),
            None,
        )
        .await;
    assert_eq!(body["code"], "unknown_variant");
    let (status, body) = server
        .call(Method::GET, "/api/users/nobody/ratings", Some(&carl), None)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("user_not_found"))
    );
    let (status, body) = server
        .call(
            Method::GET,
            "/api/users/anna/ratings/atomic/history",
            Some(&carl),
            None,
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("unknown_variant"))
    );
    // Members only, as the members' list.
    let (status, _) = server
        .call(Method::GET, "/api/ratings?variant=standard", None, None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // A wrong type for "rated" is the body's fault.
    let anna = server.token("anna").await;
    let (status, body) = server
        .call(
            Method::POST,
            "/api/challenge/ben",
            Some(&anna),
            Some(json!({"rated": "yes"})),
        )
        .await;
    assert_eq!(status.as_u16() / 100, 4, "{body}");
}

/// Rated games ended at once for the same members: each counts once
/// (the rows are locked before they are read).
async fn parallel_ends_count_once_each(server: &TestServer) {
    let mut games = Vec::new();
    for _ in 0..4 {
        let game = challenge_game(
            server,
            ("anna", "carl"),
            json!({"variant": "chess960", "rated": true}),
        )
        .await;
        let (a, c) = (server.token("anna").await, server.token("carl").await);
        assert_eq!(server.play(&game, &a, "a2a3").await.0, StatusCode::OK);
        assert_eq!(server.play(&game, &c, "a7a6").await.0, StatusCode::OK);
        games.push(game);
    }
    let carl = server.token("carl").await;
    let before = get(server, "/api/users/carl/ratings", &carl).await;
    let games_before = group(&before, "orthodox")["games"].as_i64().unwrap();
    let mut tasks = Vec::new();
    for game in &games {
        let router = server.router.clone();
        let uri = format!("/api/board/game/{game}/resign");
        let token = carl.clone();
        tasks.push(tokio::spawn(async move {
            use tower::ServiceExt;
            let request = support::request(Method::POST, &uri, Some(&token), None);
            router.oneshot(request).await.unwrap().status()
        }));
    }
    for task in tasks {
        assert_eq!(task.await.unwrap(), StatusCode::OK);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let after = get(server, "/api/users/carl/ratings", &carl).await;
    let orthodox = group(&after, "orthodox");
    assert_eq!(
        orthodox["games"].as_i64().unwrap(),
        games_before + 4,
        "{after}"
    );
    assert_eq!(
        orthodox["history"].as_array().unwrap().len() as i64,
        games_before + 4
    );
    // Each game was rated from the one before it, never two from the
    // same "before". Newest first: the newer game's "before" is the
    // older's "after".
    let history = orthodox["history"].as_array().unwrap();
    for pair in history.windows(2) {
        assert_eq!(pair[0]["ratingBefore"], pair[1]["ratingAfter"], "{after}");
    }
}

/// Both member routes name the member as registered, whatever case the
/// path spells the name in.
async fn names_as_registered(server: &TestServer) {
    let user = User {
        name: "Zoe".into(),
        role: Role::Player,
    };
    let hash = hash_password("zoe-password").unwrap();
    server.state.store.add_user(&user, &hash, 0).await.unwrap();
    let carl = server.token("carl").await;
    let member = get(server, "/api/users/zOE/ratings", &carl).await;
    assert_eq!(member["username"], "Zoe", "{member}");
    let history = get(server, "/api/users/ZOE/ratings/orthodox/history", &carl).await;
    assert_eq!(history["username"], "Zoe", "{history}");
    assert_eq!(history["history"], json!([]));
}

async fn everything(server: &TestServer) {
    names_as_registered(server).await;
    rated_game_moves_both_once(server).await;
    casual_and_aborted_games_are_not_rated(server).await;
    open_rated_challenge_counts_in_its_group(server).await;
    tournament_online_boards_are_rated(server).await;
    list_is_sorted_and_paged(server).await;
    refusals(server).await;
    parallel_ends_count_once_each(server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_on_sqlite() {
    let server = TestServer::sqlite().await;
    everything(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    everything(&server).await;
    server.finish().await;
}
