//! lichess's Bot API on SQLite and (with `TEMPO_TEST_DATABASE_URL`) on
//! PostgreSQL: upgrading an account and its refusals, who may use the
//! bot routes, a bot playing a game through them (a move with a draw
//! offer), the games' chat (rooms, who hears which line, limits,
//! refusals), `POST /api/token/test`, and lichess's user fields.

mod support;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::{Lines, TestServer};
use tempo_server::auth::{Role, User, hash_password};

const WAIT: Duration = Duration::from_millis(300);

async fn add_member(server: &TestServer, name: &str) -> String {
    let user = User {
        name: name.into(),
        role: Role::Player,
    };
    let hash = hash_password(&format!("{name}-password")).unwrap();
    assert!(
        server
            .state
            .store
            .add_user(&user, &hash, 1_000)
            .await
            .unwrap()
    );
    server.token(name).await
}

async fn post(server: &TestServer, uri: &str, token: Option<&str>) -> (StatusCode, Value) {
    server.call(Method::POST, uri, token, None).await
}

async fn get(server: &TestServer, uri: &str, token: Option<&str>) -> (StatusCode, Value) {
    server.call(Method::GET, uri, token, None).await
}

/// A refusal's status and code.
fn refused(answer: (StatusCode, Value)) -> (StatusCode, String) {
    let code = answer.1["code"].as_str().unwrap_or_default().to_string();
    (answer.0, code)
}

/// A standard game, `white` against `dest` (by their tokens and names).
async fn game(server: &TestServer, white: &str, dest: &str, dest_token: &str) -> String {
    let (status, made) = server
        .call(
            Method::POST,
            &format!("/api/challenge/{dest}"),
            Some(white),
            Some(json!({"variant": "standard", "color": "white"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{made}");
    let id = made["id"].as_str().unwrap();
    let (status, accepted) = post(
        server,
        &format!("/api/challenge/{id}/accept"),
        Some(dest_token),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    accepted["gameId"].as_str().unwrap().to_string()
}

/// The lines of a stream until it is quiet, of type `kind`.
async fn lines_of(stream: &mut Lines, kind: &str) -> Vec<Value> {
    stream
        .drain(WAIT)
        .await
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|line| line["type"] == kind)
        .collect()
}

/// A chat line sent as a form, as lichess-bot sends it.
async fn say_form(server: &TestServer, uri: &str, token: &str, form: &str) -> StatusCode {
    say_typed(
        server,
        uri,
        token,
        "application/x-www-form-urlencoded",
        form,
    )
    .await
    .0
}

/// A chat line with the content type `kind`: the status and the answer.
async fn say_typed(
    server: &TestServer,
    uri: &str,
    token: &str,
    kind: &str,
    body: &str,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", kind)
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = tower::ServiceExt::oneshot(server.router.clone(), request)
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.trim_end().contains('\n'), "one line: {text}");
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn say(
    server: &TestServer,
    game: &str,
    token: Option<&str>,
    room: &str,
    text: &str,
) -> (StatusCode, Value) {
    server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/chat"),
            token,
            Some(json!({"room": room, "text": text})),
        )
        .await
}

async fn upgrade_and_its_refusals(server: &TestServer) {
    let robo = add_member(server, "Robo").await;
    let (status, account) = get(server, "/api/account", Some(&robo)).await;
    assert_eq!(status, StatusCode::OK, "{account}");
    assert_eq!(account["username"], "Robo");
    assert_eq!(account["role"], "player");
    assert_eq!(account["id"], "robo");
    assert_eq!(account["title"], Value::Null);
    assert_eq!(account["createdAt"], 1_000);
    assert_eq!(account["url"], "http://localhost/@/Robo");
    assert_eq!(account["perfs"]["blitz"]["rating"], 1500);
    assert_eq!(account["perfs"]["blitz"]["prov"], true);
    assert_eq!(account["perfs"]["fairschach"]["games"], 0);

    let (status, done) = post(server, "/api/bot/account/upgrade", Some(&robo)).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let again = post(server, "/api/bot/account/upgrade", Some(&robo)).await;
    assert_eq!(
        refused(again),
        (StatusCode::BAD_REQUEST, "already_bot".into())
    );
    let (_, account) = get(server, "/api/account", Some(&robo)).await;
    assert_eq!(account["title"], "BOT");

    // An account that has played cannot become a bot (lichess's rule).
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    game(server, &anna, "ben", &ben).await;
    for token in [&anna, &ben] {
        let answer = post(server, "/api/bot/account/upgrade", Some(token)).await;
        assert_eq!(
            refused(answer),
            (StatusCode::BAD_REQUEST, "bot_has_played".into())
        );
    }
    let (_, account) = get(server, "/api/account", Some(&anna)).await;
    assert_eq!(account["title"], Value::Null);
    // tempo's own computer opponents are bots by their name.
    let user = User {
        name: "bot-greedy".into(),
        role: Role::Player,
    };
    let hash = hash_password("bot-greedy-password").unwrap();
    server.state.store.add_user(&user, &hash, 0).await.unwrap();
    let greedy = server.token("bot-greedy").await;
    let answer = post(server, "/api/bot/account/upgrade", Some(&greedy)).await;
    assert_eq!(
        refused(answer),
        (StatusCode::BAD_REQUEST, "already_bot".into())
    );
    assert_eq!(
        post(server, "/api/bot/account/upgrade", None).await.0,
        StatusCode::UNAUTHORIZED
    );

    // The public profile, the members' list, a lichess light user.
    assert_eq!(
        get(server, "/api/user/robo", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, profile) = get(server, "/api/user/robo", Some(&anna)).await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    assert_eq!(profile["id"], "robo");
    assert_eq!(profile["username"], "Robo");
    assert_eq!(profile["title"], "BOT");
    assert_eq!(profile["createdAt"], 1_000);
    assert_eq!(profile["url"], "http://localhost/@/Robo");
    assert_eq!(profile["perfs"]["chess960"]["rating"], 1500);
    let (_, profile) = get(server, "/api/user/bot-greedy", Some(&anna)).await;
    assert_eq!(profile["title"], "BOT");
    let (_, profile) = get(server, "/api/user/anna", Some(&anna)).await;
    assert_eq!(profile["title"], Value::Null);
    let unknown = get(server, "/api/user/nobody", Some(&anna)).await;
    assert_eq!(
        refused(unknown),
        (StatusCode::NOT_FOUND, "user_not_found".into())
    );
    let (_, members) = get(server, "/api/users", Some(&anna)).await;
    let title = |name: &str| {
        members["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {members}"))["title"]
            .clone()
    };
    assert_eq!(title("Robo"), "BOT");
    assert_eq!(title("bot-greedy"), "BOT");
    assert_eq!(title("anna"), Value::Null);
}

/// Every bot route, by a bot that plays (200 or the game's own refusal),
/// a bot that does not play in the game (403 `not_a_player`), a member
/// who is no bot (403 `not_a_bot`) and nobody (401).
async fn who_may_use_the_bot_routes(server: &TestServer) {
    let robo = server.token("Robo").await;
    let mecha = add_member(server, "mecha").await;
    assert_eq!(
        post(server, "/api/bot/account/upgrade", Some(&mecha))
            .await
            .0,
        StatusCode::OK
    );
    let carl = server.token("carl").await;
    let id = game(server, &robo, "carl", &carl).await;
    let posts = [
        format!("/api/bot/game/{id}/move/e2e4"),
        format!("/api/bot/game/{id}/draw/no"),
        format!("/api/bot/game/{id}/claim-draw"),
        format!("/api/bot/game/{id}/abort"),
        format!("/api/bot/game/{id}/resign"),
    ];
    for uri in &posts {
        let by_carl = post(server, uri, Some(&carl)).await;
        assert_eq!(
            refused(by_carl),
            (StatusCode::FORBIDDEN, "not_a_bot".into()),
            "{uri}"
        );
        let by_mecha = post(server, uri, Some(&mecha)).await;
        assert_eq!(
            refused(by_mecha),
            (StatusCode::FORBIDDEN, "not_a_player".into()),
            "{uri}"
        );
        assert_eq!(post(server, uri, None).await.0, StatusCode::UNAUTHORIZED);
    }
    let chat = format!("/api/bot/game/{id}/chat");
    let body = Some(json!({"room": "player", "text": "hi"}));
    let by_carl = server
        .call(Method::POST, &chat, Some(&carl), body.clone())
        .await;
    assert_eq!(
        refused(by_carl),
        (StatusCode::FORBIDDEN, "not_a_bot".into())
    );
    let by_mecha = server
        .call(Method::POST, &chat, Some(&mecha), body.clone())
        .await;
    assert_eq!(
        refused(by_mecha),
        (StatusCode::FORBIDDEN, "chat_players_only".into())
    );
    assert_eq!(
        refused(get(server, &chat, Some(&carl)).await),
        (StatusCode::FORBIDDEN, "not_a_bot".into())
    );
    assert_eq!(
        refused(get(server, &chat, Some(&mecha)).await),
        (StatusCode::FORBIDDEN, "chat_players_only".into())
    );
    assert_eq!(get(server, &chat, None).await.0, StatusCode::UNAUTHORIZED);
    let stream = format!("/api/bot/game/stream/{id}");
    assert_eq!(
        refused(get(server, &stream, Some(&carl)).await),
        (StatusCode::FORBIDDEN, "not_a_bot".into())
    );
    assert_eq!(get(server, &stream, None).await.0, StatusCode::UNAUTHORIZED);
    // A bot that does not play watches, as anyone may on the board route.
    let mut watching = server.stream(&stream, Some(&mecha)).await;
    assert_eq!(watching.next(WAIT).await.unwrap()["type"], "gameFull");
    // The bot that plays: its stream, a move, the rest refused by the game
    // itself or done.
    let mut lines = server.stream(&stream, Some(&robo)).await;
    let first = lines.next(WAIT).await.expect("gameFull");
    assert_eq!(first["type"], "gameFull", "{first}");
    let (status, moved) = post(server, &posts[0], Some(&robo)).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let (status, chatted) = server.call(Method::POST, &chat, Some(&robo), body).await;
    assert_eq!(status, StatusCode::OK, "{chatted}");
    let (status, room) = get(server, &chat, Some(&robo)).await;
    assert_eq!(status, StatusCode::OK, "{room}");
    assert_eq!(room, json!([{"user": "Robo", "text": "hi"}]));
    assert_eq!(
        refused(post(server, &posts[1], Some(&robo)).await),
        (StatusCode::BAD_REQUEST, "no_draw_offer".into())
    );
    let (status, resigned) = post(server, &posts[4], Some(&robo)).await;
    assert_eq!(status, StatusCode::OK, "{resigned}");
    // The board routes take bots as well (tempo's own play through them).
    let id = game(server, &robo, "carl", &carl).await;
    let (status, moved) = server.play(&id, &robo, "d2d4").await;
    assert_eq!(status, StatusCode::OK, "{moved}");
}

/// A bot plays a game through the bot routes: a move with a draw offer
/// (`?offeringDraw=true`), which its opponent accepts.
async fn a_bot_plays_and_offers_a_draw_with_its_move(server: &TestServer) {
    let robo = server.token("Robo").await;
    let carl = server.token("carl").await;
    let id = game(server, &robo, "carl", &carl).await;
    let mut watch = server
        .stream(&format!("/api/bot/game/stream/{id}"), Some(&robo))
        .await;
    assert_eq!(watch.next(WAIT).await.unwrap()["type"], "gameFull");
    let bot_move = |uci: &str, offer: bool| {
        let query = if offer { "?offeringDraw=true" } else { "" };
        format!("/api/bot/game/{id}/move/{uci}{query}")
    };
    assert_eq!(
        post(server, &bot_move("e2e4", false), Some(&robo)).await.0,
        StatusCode::OK
    );
    assert_eq!(server.play(&id, &carl, "e7e5").await.0, StatusCode::OK);
    let (status, moved) = post(server, &bot_move("g1f3", true), Some(&robo)).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let offers = lines_of(&mut watch, "drawOffer").await;
    assert_eq!(offers.len(), 1, "{offers:?}");
    // The opponent accepts (a move would decline it, as on lichess).
    let (status, answer) = post(
        server,
        &format!("/api/board/game/{id}/draw/yes"),
        Some(&carl),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let log = server.router_get_text(&format!("/api/game/{id}/log")).await;
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["type"], "end", "{log}");
    assert_eq!(last["result"], "1/2-1/2");
    assert_eq!(last["reason"], "agreement");
    // A finished game takes a move with an offer no more.
    assert_eq!(
        refused(post(server, &bot_move("f1c4", true), Some(&robo)).await),
        (StatusCode::CONFLICT, "game_over".into())
    );
}

/// The two rooms: a player's line reaches the players' streams only, a
/// spectator's everyone's; who may write where; the limits.
async fn chat_rooms_and_limits(server: &TestServer) {
    let (anna, ben, carl) = (
        server.token("anna").await,
        server.token("ben").await,
        server.token("carl").await,
    );
    let id = game(server, &anna, "ben", &ben).await;
    let uri = format!("/api/board/game/stream/{id}");
    let mut of_anna = server.stream(&uri, Some(&anna)).await;
    let mut of_ben = server.stream(&uri, Some(&ben)).await;
    let mut of_carl = server.stream(&uri, Some(&carl)).await;
    let mut of_visitor = server.stream(&uri, None).await;
    for stream in [&mut of_anna, &mut of_ben, &mut of_carl, &mut of_visitor] {
        assert_eq!(stream.next(WAIT).await.unwrap()["type"], "gameFull");
    }
    let (status, said) = say(server, &id, Some(&anna), "player", "good luck").await;
    assert_eq!(status, StatusCode::OK, "{said}");
    let line =
        json!({"type": "chatLine", "room": "player", "username": "anna", "text": "good luck"});
    assert_eq!(lines_of(&mut of_anna, "chatLine").await, vec![line.clone()]);
    assert_eq!(lines_of(&mut of_ben, "chatLine").await, [line]);
    assert!(lines_of(&mut of_carl, "chatLine").await.is_empty());
    assert!(lines_of(&mut of_visitor, "chatLine").await.is_empty());

    let form = format!("/api/board/game/{id}/chat");
    assert_eq!(
        say_form(server, &form, &carl, "room=spectator&text=nice+opening").await,
        StatusCode::OK
    );
    let line = json!({"type": "chatLine", "room": "spectator", "username": "carl", "text": "nice opening"});
    for stream in [&mut of_anna, &mut of_ben, &mut of_carl, &mut of_visitor] {
        assert_eq!(lines_of(stream, "chatLine").await, vec![line.clone()]);
    }
    // A move goes on beside the chat.
    assert_eq!(server.play(&id, &anna, "e2e4").await.0, StatusCode::OK);

    // Refusals.
    let players_only = say(server, &id, Some(&carl), "player", "psst").await;
    assert_eq!(
        refused(players_only),
        (StatusCode::FORBIDDEN, "chat_players_only".into())
    );
    let anonymous = say(server, &id, None, "spectator", "hi").await;
    assert_eq!(anonymous.0, StatusCode::UNAUTHORIZED);
    let long = "a".repeat(141);
    for (room, text) in [
        ("player", ""),
        ("player", "   "),
        ("player", "two\nlines"),
        ("player", "bell\u{7}"),
        ("player", long.as_str()),
        ("lobby", "hi"),
    ] {
        let answer = say(server, &id, Some(&anna), room, text).await;
        assert_eq!(
            refused(answer),
            (StatusCode::BAD_REQUEST, "bad_chat_line".into()),
            "{room} {text:?}"
        );
    }
    assert_eq!(
        say(server, &id, Some(&anna), "player", &"ä".repeat(140))
            .await
            .0,
        StatusCode::OK
    );
    let missing = say(server, "nosuchgame", Some(&anna), "spectator", "hi").await;
    assert_eq!(
        refused(missing),
        (StatusCode::NOT_FOUND, "game_not_found".into())
    );
    let (status, room) = get(server, &form, Some(&ben)).await;
    assert_eq!(status, StatusCode::OK, "{room}");
    assert_eq!(room.as_array().unwrap().len(), 2, "{room}");
    assert_eq!(room[0], json!({"user": "anna", "text": "good luck"}));
    assert_eq!(
        refused(get(server, &form, Some(&carl)).await),
        (StatusCode::FORBIDDEN, "chat_players_only".into())
    );

    // The body as every lichess route reads it: a NUL refused as such, the
    // content type's case ignored, an empty body a missing line.
    let nul = say_typed(
        server,
        &form,
        &ben,
        "application/x-www-form-urlencoded",
        "room=player&text=a%00b",
    )
    .await;
    assert_eq!(nul.0, StatusCode::BAD_REQUEST, "{}", nul.1);
    assert!(
        nul.1["error"].as_str().unwrap().contains("NUL"),
        "{}",
        nul.1
    );
    assert_eq!(nul.1["code"], "bad_request", "{}", nul.1);
    let mixed = say_typed(
        server,
        &form,
        &ben,
        "Application/X-WWW-Form-Urlencoded; charset=UTF-8",
        "room=player&text=mixed+case",
    )
    .await;
    assert_eq!(mixed.0, StatusCode::OK, "{}", mixed.1);
    let empty = say_typed(server, &form, &ben, "application/x-www-form-urlencoded", "").await;
    assert_eq!(empty.0, StatusCode::UNPROCESSABLE_ENTITY, "{}", empty.1);
    assert!(empty.1["code"].is_string(), "{}", empty.1);

    // Ten lines at once, then one every two seconds.
    let mut answers = Vec::new();
    for i in 0..12 {
        answers.push(say(server, &id, Some(&carl), "spectator", &format!("line {i}")).await);
    }
    let ok = answers.iter().filter(|a| a.0 == StatusCode::OK).count();
    assert_eq!(ok, 9, "carl wrote one before");
    let limited = answers.last().unwrap().clone();
    assert_eq!(
        refused(limited),
        (StatusCode::TOO_MANY_REQUESTS, "chat_rate_limited".into())
    );
    let request = support::request(
        Method::POST,
        &form,
        Some(&carl),
        Some(json!({"room": "spectator", "text": "more"})),
    );
    let response = tower::ServiceExt::oneshot(server.router.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait = response.headers()["retry-after"].to_str().unwrap();
    assert!(["1", "2"].contains(&wait), "{wait}");
    // Another member is not held back.
    assert_eq!(
        say(server, &id, Some(&ben), "spectator", "hello").await.0,
        StatusCode::OK
    );
}

async fn token_test(server: &TestServer) {
    let (robo, anna) = (server.token("Robo").await, server.token("anna").await);
    let body = format!("{robo},{anna},tempo_nope");
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/token/test")
        .header("content-type", "text/plain")
        .body(Body::from(body))
        .unwrap();
    let response = tower::ServiceExt::oneshot(server.router.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(answer[&robo]["userId"], "robo", "{answer}");
    let scopes = answer[&robo]["scopes"].as_str().unwrap();
    assert!(scopes.split(',').any(|s| s == "bot:play"), "{scopes}");
    assert_eq!(answer[&robo]["expires"], Value::Null);
    let scopes = answer[&anna]["scopes"].as_str().unwrap();
    assert!(scopes.split(',').any(|s| s == "board:play"), "{scopes}");
    // A player's token may upgrade its account: lichess's `bot:play`.
    assert!(scopes.split(',').any(|s| s == "bot:play"), "{scopes}");
    assert_eq!(answer["tempo_nope"], Value::Null);
    assert_eq!(answer.as_object().unwrap().len(), 3);
    // At most 1,000 tokens a request.
    let many = vec!["tempo_x"; 1001]
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{t}{i}"))
        .collect::<Vec<_>>()
        .join(",");
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/token/test")
        .body(Body::from(many))
        .unwrap();
    let response = tower::ServiceExt::oneshot(server.router.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    // An address's requests are limited (this test's address asked twice
    // above): twenty at once, then 429 with Retry-After.
    let mut statuses = Vec::new();
    let mut last = None;
    for _ in 0..20 {
        let request = Request::builder()
            .method(Method::POST)
            .uri("/api/token/test")
            .body(Body::from("nosuchtoken"))
            .unwrap();
        let response = tower::ServiceExt::oneshot(server.router.clone(), request)
            .await
            .unwrap();
        statuses.push(response.status());
        last = Some(response);
    }
    let ok = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    // 18 (one more if the bucket refilled meanwhile, slowly run).
    assert!((18..=19).contains(&ok), "{statuses:?}");
    let last = last.unwrap();
    assert_eq!(last.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait = last.headers()["retry-after"].to_str().unwrap().to_string();
    assert!(["1", "2", "3"].contains(&wait.as_str()), "{wait}");
    let bytes = last.into_body().collect().await.unwrap().to_bytes();
    let refusal: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(refusal["code"], "token_test_rate_limited");
}

async fn online_bots(server: &TestServer) {
    let (robo, anna) = (server.token("Robo").await, server.token("anna").await);
    let _robo_events = server.stream("/api/stream/event", Some(&robo)).await;
    let _anna_events = server.stream("/api/stream/event", Some(&anna)).await;
    assert_eq!(
        get(server, "/api/bot/online", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let request = support::request(Method::GET, "/api/bot/online", Some(&anna), None);
    let response = tower::ServiceExt::oneshot(server.router.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let bots: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(bots.len(), 1, "{text}");
    assert_eq!(bots[0]["username"], "Robo");
    assert_eq!(bots[0]["title"], "BOT");
    assert_eq!(bots[0]["id"], "robo");
    assert_eq!(
        get(server, "/api/bot/online?nb=0", Some(&anna)).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        get(server, "/api/bot/online?nb=301", Some(&anna)).await.0,
        StatusCode::BAD_REQUEST
    );
    let (status, online) = get(server, "/api/users/online", Some(&anna)).await;
    assert_eq!(status, StatusCode::OK, "{online}");
    assert_eq!(online["bots"], json!(["Robo"]), "{online}");
    let users = online["users"].as_array().unwrap();
    assert!(users.contains(&json!("anna")), "{online}");
}

async fn all(server: &TestServer) {
    upgrade_and_its_refusals(server).await;
    who_may_use_the_bot_routes(server).await;
    a_bot_plays_and_offers_a_draw_with_its_move(server).await;
    chat_rooms_and_limits(server).await;
    token_test(server).await;
    online_bots(server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_on_sqlite() {
    let server = TestServer::sqlite().await;
    all(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    all(&server).await;
    server.finish().await;
}

/// A chat line written on one instance reaches the game's streams on
/// another (PostgreSQL's notification), by the rooms' rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_reaches_the_streams_of_another_instance() {
    let Some(first) = TestServer::postgres().await else {
        return;
    };
    let store = tempo_server::store::Store::connect(first.url.as_ref().unwrap())
        .await
        .unwrap();
    let second = TestServer::with_state(tempo_server::AppState::new(store).await.unwrap());
    for state in [&first.state, &second.state] {
        tokio::spawn(tempo_server::follow_other_instances(state.clone()));
    }
    // Both listen before anything is said.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (anna, ben) = (first.token("anna").await, first.token("ben").await);
    let id = game(&first, &anna, "ben", &ben).await;
    let uri = format!("/api/board/game/stream/{id}");
    let mut of_ben = second.stream(&uri, Some(&ben)).await;
    let mut of_visitor = second.stream(&uri, None).await;
    for stream in [&mut of_ben, &mut of_visitor] {
        assert_eq!(stream.next(WAIT).await.unwrap()["type"], "gameFull");
    }
    assert_eq!(
        say(&first, &id, Some(&anna), "player", "hi ben").await.0,
        StatusCode::OK
    );
    assert_eq!(
        say(&first, &id, Some(&anna), "spectator", "hi all").await.0,
        StatusCode::OK
    );
    let texts = |lines: Vec<Value>| -> Vec<String> {
        lines
            .iter()
            .map(|l| l["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        texts(lines_of(&mut of_ben, "chatLine").await),
        ["hi ben", "hi all"]
    );
    assert_eq!(
        texts(lines_of(&mut of_visitor, "chatLine").await),
        ["hi all"]
    );
    // And the player room reads the same on either instance.
    let (_, room) = get(&second, &format!("/api/board/game/{id}/chat"), Some(&ben)).await;
    assert_eq!(room, json!([{"user": "anna", "text": "hi ben"}]));
    first.finish().await;
}
