//! Lichess's challenge API, as its clients (berserk, lichess-bot) call it,
//! on SQLite and (with `TEMPO_TEST_DATABASE_URL`) on PostgreSQL: creation
//! with lichess's parameters form-encoded and as JSON with nulls, each
//! refusal by name, the challenge object in the answers, the lists and
//! the events (in full when a stream begins), declines with lichess's
//! reasons, `gameStart`/`gameFinish` from each player's seat, and
//! `nowPlaying`.

mod support;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::{Lines, TestServer, ok, request};
use tower::ServiceExt;

const WAIT: Duration = Duration::from_millis(400);

/// A form-encoded POST, as lichess-bot and curl send lichess's parameters.
async fn form(server: &TestServer, uri: &str, token: &str, body: &str) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = server.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn post(server: &TestServer, uri: &str, token: &str, body: Value) -> (StatusCode, Value) {
    let body = (!body.is_null()).then_some(body);
    server.call(Method::POST, uri, Some(token), body).await
}

/// The events of a stream until it is quiet.
async fn events(stream: &mut Lines) -> Vec<Value> {
    stream
        .drain(WAIT)
        .await
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The one event of `kind` among `seen`.
fn one<'a>(seen: &'a [Value], kind: &str) -> &'a Value {
    let found: Vec<&Value> = seen.iter().filter(|e| e["type"] == kind).collect();
    assert_eq!(found.len(), 1, "one {kind}: {seen:?}");
    found[0]
}

/// A member as lichess's light user, with a club rating.
fn assert_user(user: &Value, id: &str) {
    assert_eq!(user["id"], id, "{user}");
    assert_eq!(user["name"], id, "{user}");
    assert!(user["title"].is_null(), "{user}");
    assert!(user["rating"].is_i64(), "{user}");
    assert_eq!(user["provisional"], true, "{user}");
}

async fn creation(server: &TestServer) {
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    // Form-encoded, as lichess-bot and curl send them.
    let (status, c) = form(
        server,
        "/api/challenge/ben",
        &anna,
        "rated=true&clock.limit=300&clock.increment=3&color=white&variant=standard",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{c}");
    let id = c["id"].as_str().unwrap();
    assert_eq!(c["url"], format!("http://localhost/challenge/{id}"));
    assert_eq!(c["status"], "created");
    assert_user(&c["challenger"], "anna");
    assert_user(&c["destUser"], "ben");
    assert_eq!(
        c["variant"],
        json!({"key": "standard", "name": "Standard", "short": "Std"})
    );
    assert_eq!(c["rated"], true);
    assert_eq!(c["speed"], "blitz");
    assert_eq!(
        c["timeControl"],
        json!({"type": "clock", "limit": 300, "increment": 3, "show": "5+3"})
    );
    assert_eq!(
        (&c["color"], &c["finalColor"]),
        (&json!("white"), &json!("white"))
    );
    assert_eq!(c["perf"], json!({"name": "Blitz"}));
    assert!(c.get("initialFen").is_none(), "{c}");
    assert!(c.get("direction").is_none(), "{c}");
    // tempo's fields beside.
    assert_eq!(c["clock"], "300+3");
    assert_eq!(c["rules"], json!({}));

    // As berserk sends them: JSON, every parameter not given null.
    let (status, c) = post(
        server,
        "/api/challenge/ben",
        &anna,
        json!({"rated": false, "clock.limit": null, "clock.increment": null, "days": 3,
            "color": null, "variant": "chess960", "fen": null}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{c}");
    assert_eq!(c["variant"]["key"], "chess960");
    assert_eq!(c["speed"], "correspondence");
    assert_eq!(
        c["timeControl"],
        json!({"type": "correspondence", "daysPerTurn": 3})
    );
    assert_eq!(c["clock"], "1/259200");
    assert_eq!(c["color"], "random");
    let final_color = c["finalColor"].as_str().unwrap();
    assert!(["white", "black"].contains(&final_color), "{c}");
    assert_eq!(c["perf"]["name"], "Chess960");
    assert_eq!(c["rated"], false);
    // The final colour is the game's: ben accepts, the challenger plays it.
    let id = c["id"].as_str().unwrap();
    let accepted = ok(
        server,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        &ben,
        Value::Null,
    )
    .await;
    let game = accepted["gameId"].as_str().unwrap();
    // The game has its challenge's id, as on lichess (lichess-bot relies on it).
    assert_eq!(game, id);
    let mut stream = server
        .stream(&format!("/api/board/game/stream/{game}"), Some(&anna))
        .await;
    let full = stream.next(WAIT).await.unwrap();
    assert_eq!(
        full["white"]["name"] == "anna",
        final_color == "white",
        "{full}"
    );
    // Chess960 without a position: one is drawn when the game is made.
    let number = full["chess960"].as_u64().expect("a drawn position");
    assert!(number < 960, "{full}");
    let abort = format!("/api/board/game/{game}/abort");
    ok(server, Method::POST, &abort, &anna, Value::Null).await;

    // An untimed game from a set-up position (lichess's fromPosition).
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let (status, c) = post(
        server,
        "/api/challenge/ben",
        &anna,
        json!({"variant": "fromPosition", "fen": fen, "keepAliveStream": false, "rules": "noGiveTime,noClaimWin"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{c}");
    assert_eq!(c["variant"]["key"], "fromPosition");
    assert_eq!(c["initialFen"], fen);
    assert_eq!(c["fen"], fen);
    assert_eq!(c["timeControl"], json!({"type": "unlimited"}));
    assert_eq!(c["perf"]["name"], "Correspondence");

    // tempo's own body keeps working.
    let (status, c) = post(
        server,
        "/api/challenge/ben",
        &anna,
        json!({"variant": "fairschach", "clock": "600+5", "color": "black", "rules": {"fsr8": "off"}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{c}");
    assert_eq!(c["variant"]["key"], "fairschach");
    assert_eq!(c["finalColor"], "black");
    assert_eq!(c["rules"], json!({"fsr8": "off"}));
    assert_eq!(c["speed"], "rapid");

    // An open challenge as berserk makes it: the same object, no destUser.
    let (status, c) = post(
        server,
        "/api/challenge/open",
        &anna,
        json!({"clock.limit": 60, "clock.increment": 1, "variant": null, "fen": null,
            "rated": null, "name": null}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{c}");
    assert!(c["destUser"].is_null(), "{c}");
    assert_eq!(c["speed"], "bullet");
    assert_eq!(c["status"], "created");
    assert!(c["expiresAt"].is_string(), "{c}");
    let id = c["id"].as_str().unwrap();
    assert_eq!(c["url"], format!("http://localhost/challenge/{id}"));
    let cancel = format!("/api/challenge/{id}/cancel");
    ok(server, Method::POST, &cancel, &anna, Value::Null).await;
    // Cancel the rest, so that later checks start clean.
    let pending = ok(server, Method::GET, "/api/challenge", &anna, Value::Null).await;
    for c in pending["out"].as_array().unwrap() {
        let cancel = format!("/api/challenge/{}/cancel", c["id"].as_str().unwrap());
        ok(server, Method::POST, &cancel, &anna, Value::Null).await;
    }
}

async fn refusals(server: &TestServer) {
    let anna = server.token("anna").await;
    let cases = [
        (
            json!({"variant": "atomic"}),
            "unsupported_challenge_option",
            "variant",
        ),
        (
            json!({"keepAliveStream": true}),
            "unsupported_challenge_option",
            "keepAliveStream",
        ),
        (
            json!({"acceptByToken": "xyz"}),
            "unsupported_challenge_option",
            "acceptByToken",
        ),
        (
            json!({"rules": "noAbort"}),
            "unsupported_challenge_option",
            "noAbort",
        ),
        (
            json!({"clock": "300+3", "clock.limit": 300, "clock.increment": 3}),
            "bad_challenge_parameter",
            "clock.limit",
        ),
        (json!({"days": 4}), "bad_challenge_parameter", "days"),
        (
            json!({"days": 2, "clock.limit": 60, "clock.increment": 0}),
            "bad_challenge_parameter",
            "days",
        ),
        (
            json!({"clock.limit": 300}),
            "bad_challenge_parameter",
            "clock.increment",
        ),
        (json!({"rated": "yes"}), "bad_challenge_parameter", "rated"),
        (
            json!({"variant": "fromPosition"}),
            "bad_challenge_parameter",
            "fen",
        ),
        (
            json!({"variant": "bughouse"}),
            "bad_challenge_parameter",
            "variant",
        ),
        (json!({"color": "green"}), "bad_color", "color"),
    ];
    for (body, code, name) in cases {
        let (status, answer) = post(server, "/api/challenge/ben", &anna, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["code"], code, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(name),
            "{body}: {answer}"
        );
    }
    // An unknown field stays refused, by name.
    let (status, answer) = post(
        server,
        "/api/challenge/ben",
        &anna,
        json!({"speed": "blitz"}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("speed"),
        "{answer}"
    );
    // A form's field given twice, or lichess's clock without its increment.
    let (status, answer) = form(server, "/api/challenge/ben", &anna, "days=1&days=2").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (status, answer) = form(server, "/api/challenge/open", &anna, "clock.limit=60").await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_challenge_parameter")),
        "{answer}"
    );
    let pending = ok(server, Method::GET, "/api/challenge", &anna, Value::Null).await;
    assert_eq!(pending["out"], json!([]), "nothing was made");
}

async fn lists_events_and_declines(server: &TestServer) {
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    let (_, first) = post(
        server,
        "/api/challenge/ben",
        &anna,
        json!({"clock": "180+2", "color": "black"}),
    )
    .await;
    let first_id = first["id"].as_str().unwrap().to_string();
    // The lists: lichess's objects with their direction.
    let mine = ok(server, Method::GET, "/api/challenge", &anna, Value::Null).await;
    assert_eq!(mine["out"][0]["id"], first_id.as_str());
    assert_eq!(mine["out"][0]["direction"], "out");
    assert_user(&mine["out"][0]["destUser"], "ben");
    let theirs = ok(server, Method::GET, "/api/challenge", &ben, Value::Null).await;
    assert_eq!(theirs["in"][0]["direction"], "in");
    assert_eq!(theirs["in"][0]["speed"], "blitz");
    assert_eq!(theirs["in"][0]["finalColor"], "black");

    // A stream that begins names the pending challenge in full, as
    // lichess-bot reads it.
    let mut to_ben = server.stream("/api/stream/event", Some(&ben)).await;
    let start = events(&mut to_ben).await;
    let c = one(&start, "challenge");
    assert_eq!(c["compat"], json!({"bot": true, "board": true}));
    let c = &c["challenge"];
    assert_eq!(c["id"], first_id.as_str());
    assert_eq!(c["rated"], false);
    assert_eq!(c["variant"]["key"], "standard");
    assert_eq!(c["perf"]["name"], "Blitz");
    assert_eq!(c["timeControl"]["limit"], 180);
    assert_eq!(c["challenger"]["name"], "anna");
    assert_eq!(c["color"], "black");
    assert_eq!(c["finalColor"], "black");
    let mut to_anna = server.stream("/api/stream/event", Some(&anna)).await;
    events(&mut to_anna).await;

    // A new challenge: both hear it in full.
    let (_, second) = post(
        server,
        "/api/challenge/ben",
        &anna,
        json!({"clock": "600+0", "rated": true}),
    )
    .await;
    let second_id = second["id"].as_str().unwrap().to_string();
    for stream in [&mut to_ben, &mut to_anna] {
        let seen = events(stream).await;
        let c = &one(&seen, "challenge")["challenge"];
        assert_eq!(c["id"], second_id.as_str());
        assert_eq!(c["status"], "created");
        assert_eq!(c["rated"], true);
        assert_user(&c["destUser"], "ben");
    }

    // Declines with lichess's reasons, form-encoded and JSON.
    let (status, _) = form(
        server,
        &format!("/api/challenge/{first_id}/decline"),
        &ben,
        "reason=tooFast",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for stream in [&mut to_ben, &mut to_anna] {
        let seen = events(stream).await;
        let c = &one(&seen, "challengeDeclined")["challenge"];
        assert_eq!(c["id"], first_id.as_str());
        assert_eq!(c["status"], "declined");
        assert_eq!(c["declineReasonKey"], "tooFast");
        assert!(
            c["declineReason"].as_str().unwrap().contains("too fast"),
            "{c}"
        );
        assert_user(&c["challenger"], "anna");
    }
    let decline = format!("/api/challenge/{second_id}/decline");
    let (status, answer) = post(server, &decline, &ben, json!({"reason": "nonsense"})).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_decline_reason"))
    );
    ok(
        server,
        Method::POST,
        &decline,
        &ben,
        json!({"reason": "later"}),
    )
    .await;
    let seen = events(&mut to_anna).await;
    let c = &one(&seen, "challengeDeclined")["challenge"];
    assert_eq!(c["declineReasonKey"], "later");
    // No reason: lichess's generic one.
    let (_, third) = post(server, "/api/challenge/ben", &anna, json!({})).await;
    let third_id = third["id"].as_str().unwrap();
    events(&mut to_anna).await;
    ok(
        server,
        Method::POST,
        &format!("/api/challenge/{third_id}/decline"),
        &ben,
        Value::Null,
    )
    .await;
    let seen = events(&mut to_anna).await;
    assert_eq!(
        one(&seen, "challengeDeclined")["challenge"]["declineReasonKey"],
        "generic"
    );

    // A cancel.
    let (_, fourth) = post(server, "/api/challenge/ben", &anna, json!({})).await;
    let fourth_id = fourth["id"].as_str().unwrap();
    events(&mut to_ben).await;
    ok(
        server,
        Method::POST,
        &format!("/api/challenge/{fourth_id}/cancel"),
        &anna,
        Value::Null,
    )
    .await;
    let seen = events(&mut to_ben).await;
    let c = &one(&seen, "challengeCanceled")["challenge"];
    assert_eq!(c["status"], "canceled");
    assert!(c.get("declineReason").is_none(), "{c}");
}

/// `game` as `player`'s event shows it.
fn assert_seat(game: &Value, color: &str, my_turn: bool, opponent: &str) {
    assert_eq!(game["color"], color, "{game}");
    assert_eq!(game["isMyTurn"], my_turn, "{game}");
    assert_eq!(game["opponent"]["id"], opponent, "{game}");
    assert_eq!(game["opponent"]["username"], opponent, "{game}");
    assert!(game["opponent"]["rating"].is_i64(), "{game}");
}

async fn games_from_each_seat(server: &TestServer) {
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    let mut to_anna = server.stream("/api/stream/event", Some(&anna)).await;
    let mut to_ben = server.stream("/api/stream/event", Some(&ben)).await;
    events(&mut to_anna).await;
    events(&mut to_ben).await;
    let (_, made) = post(
        server,
        "/api/challenge/ben",
        &anna,
        json!({"rated": true, "clock.limit": 300, "clock.increment": 3, "color": "white"}),
    )
    .await;
    let id = made["id"].as_str().unwrap();
    events(&mut to_anna).await;
    events(&mut to_ben).await;
    let accepted = ok(
        server,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        &ben,
        Value::Null,
    )
    .await;
    let game = accepted["gameId"].as_str().unwrap().to_string();
    let seen = events(&mut to_anna).await;
    let start = &one(&seen, "gameStart")["game"];
    assert_seat(start, "white", true, "ben");
    assert_eq!(start["id"], game.as_str());
    assert_eq!(start["gameId"], game.as_str());
    assert_eq!(start["fullId"], game.as_str());
    assert_eq!(
        start["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(start["hasMoved"], false);
    assert_eq!(start["lastMove"], "");
    assert_eq!(start["perf"], "blitz");
    assert_eq!(start["speed"], "blitz");
    assert_eq!(start["rated"], true);
    assert_eq!(start["source"], "friend");
    assert_eq!(start["secondsLeft"], 300);
    assert_eq!(start["variant"]["key"], "standard");
    assert_eq!(start["status"], json!({"id": 20, "name": "started"}));
    assert_eq!(start["compat"], json!({"bot": true, "board": true}));
    let seen = events(&mut to_ben).await;
    let start = &one(&seen, "gameStart")["game"];
    assert_seat(start, "black", false, "anna");

    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    // A stream that begins now names the game in play from the seat.
    let mut again = server.stream("/api/stream/event", Some(&ben)).await;
    let seen = events(&mut again).await;
    let start = &one(&seen, "gameStart")["game"];
    assert_seat(start, "black", true, "anna");
    assert_eq!(start["lastMove"], "e2e4");
    assert_eq!(start["hasMoved"], false);

    // nowPlaying: lichess's elements, tempo's deadline and paging beside.
    let playing = ok(
        server,
        Method::GET,
        "/api/account/playing",
        &ben,
        Value::Null,
    )
    .await;
    assert_eq!(
        (&playing["page"], &playing["nextPage"]),
        (&json!(0), &Value::Null)
    );
    let now = &playing["nowPlaying"][0];
    assert_seat(now, "black", true, "anna");
    assert_eq!(now["gameId"], game.as_str());
    assert_eq!(now["lastMove"], "e2e4");
    assert_eq!(now["perf"], "blitz");
    assert_eq!(now["speed"], "blitz");
    assert!(now["secondsLeft"].is_i64(), "{now}");
    assert!(now["deadline"].is_string(), "{now}");
    assert!(now["fen"].as_str().unwrap().contains(" b "), "{now}");
    let playing = ok(
        server,
        Method::GET,
        "/api/account/playing",
        &anna,
        Value::Null,
    )
    .await;
    let now = &playing["nowPlaying"][0];
    assert_seat(now, "white", false, "ben");
    assert_eq!(now["hasMoved"], true);
    assert!(now["deadline"].is_null(), "{now}");

    assert_eq!(server.play(&game, &ben, "e7e5").await.0, StatusCode::OK);
    events(&mut to_anna).await;
    events(&mut to_ben).await;
    let resign = format!("/api/board/game/{game}/resign");
    ok(server, Method::POST, &resign, &ben, Value::Null).await;
    for (stream, color, opponent) in [
        (&mut to_anna, "white", "ben"),
        (&mut to_ben, "black", "anna"),
    ] {
        let seen = events(stream).await;
        let end = &one(&seen, "gameFinish")["game"];
        assert_seat(end, color, false, opponent);
        assert_eq!(end["winner"], "white");
        assert_eq!(end["status"], json!({"id": 31, "name": "resign"}));
        assert_eq!(end["result"], "1-0");
        assert_eq!(end["reason"], "resign");
        assert_eq!(end["lastMove"], "e7e5");
        assert_eq!(end["hasMoved"], true);
    }
    let playing = ok(
        server,
        Method::GET,
        "/api/account/playing",
        &anna,
        Value::Null,
    )
    .await;
    assert_eq!(playing["nowPlaying"], json!([]));

    // A challenge open to anyone makes a lobby game; an untimed one has
    // no secondsLeft.
    let (_, open) = post(
        server,
        "/api/challenge/open",
        &anna,
        json!({"color": "black"}),
    )
    .await;
    let id = open["id"].as_str().unwrap();
    events(&mut to_anna).await;
    ok(
        server,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        &ben,
        Value::Null,
    )
    .await;
    let seen = events(&mut to_anna).await;
    let start = &one(&seen, "gameStart")["game"];
    assert_seat(start, "black", false, "ben");
    assert_eq!(start["source"], "lobby");
    assert_eq!(start["speed"], "correspondence");
    assert!(start.get("secondsLeft").is_none(), "{start}");
    let game = start["id"].as_str().unwrap();
    ok(
        server,
        Method::POST,
        &format!("/api/board/game/{game}/abort"),
        &anna,
        Value::Null,
    )
    .await;
    let seen = events(&mut to_anna).await;
    let end = &one(&seen, "gameFinish")["game"];
    assert_eq!(end["status"]["name"], "aborted");
    assert!(end.get("winner").is_none(), "{end}");
}

/// `request` naming the server as `host`.
fn at_host(mut request: Request<Body>, host: &str) -> Request<Body> {
    request.headers_mut().insert("host", host.parse().unwrap());
    request
}

/// A challenge's page in the events is the one each receiver reached the
/// server by: a caller's `Host` names only its own answer's page.
async fn links_name_the_receivers_host(server: &TestServer) {
    let (carl, ben) = (server.token("carl").await, server.token("ben").await);
    let event_stream = |token: &str| {
        at_host(
            request(Method::GET, "/api/stream/event", Some(token), None),
            "club.example",
        )
    };
    let mut to_ben = server.stream_of(event_stream(&ben)).await;
    let mut to_carl = server.stream_of(event_stream(&carl)).await;
    events(&mut to_ben).await;
    events(&mut to_carl).await;
    let create = at_host(
        request(
            Method::POST,
            "/api/challenge/ben",
            Some(&carl),
            Some(json!({"clock": "300+0"})),
        ),
        "evil.example",
    );
    let response = server.router.clone().oneshot(create).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    let id = answer["id"].as_str().unwrap().to_string();
    // The creator's own answer: the address it used.
    assert_eq!(answer["url"], format!("http://evil.example/challenge/{id}"));
    let page = format!("http://club.example/challenge/{id}");
    for stream in [&mut to_ben, &mut to_carl] {
        let seen = events(stream).await;
        assert_eq!(one(&seen, "challenge")["challenge"]["url"], page.as_str());
    }
    // A decline sent by another host: the streams still name their own.
    let decline = at_host(
        request(
            Method::POST,
            &format!("/api/challenge/{id}/decline"),
            Some(&ben),
            None,
        ),
        "evil.example",
    );
    let response = server.router.clone().oneshot(decline).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    for stream in [&mut to_ben, &mut to_carl] {
        let seen = events(stream).await;
        let c = &one(&seen, "challengeDeclined")["challenge"];
        assert_eq!(c["url"], page.as_str());
    }
}

/// A set-up start is `fromPosition` in every answer that names the
/// variant (the challenge object, `gameStart`, the game's view): the
/// standard pieces with Black to move, and a Standard game from a Chess960
/// number.
async fn set_up_starts_everywhere(server: &TestServer) {
    let (carl, ben) = (server.token("carl").await, server.token("ben").await);
    let black = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    for (params, initial) in [
        (json!({"variant": "fromPosition", "fen": black}), black),
        (
            json!({"variant": "standard", "chess960": 0}),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        ),
    ] {
        let mut to_ben = server.stream("/api/stream/event", Some(&ben)).await;
        events(&mut to_ben).await;
        let (status, c) = post(server, "/api/challenge/ben", &carl, params.clone()).await;
        assert_eq!(status, StatusCode::OK, "{params}: {c}");
        assert_eq!(c["variant"]["key"], "fromPosition", "{c}");
        let fen = c["initialFen"].as_str().unwrap_or_default().to_string();
        assert_eq!(fen.split(' ').next(), initial.split(' ').next(), "{c}");
        assert_eq!(fen.split(' ').nth(1), initial.split(' ').nth(1), "{c}");
        let id = c["id"].as_str().unwrap();
        let accepted = ok(
            server,
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            &ben,
            Value::Null,
        )
        .await;
        let game = accepted["gameId"].as_str().unwrap();
        let seen = events(&mut to_ben).await;
        assert_eq!(
            one(&seen, "challenge")["challenge"]["variant"]["key"],
            "fromPosition"
        );
        let start = &one(&seen, "gameStart")["game"];
        assert_eq!(start["variant"]["key"], "fromPosition", "{start}");
        let full = ok(
            server,
            Method::GET,
            &format!("/api/game/{game}"),
            &ben,
            Value::Null,
        )
        .await;
        assert_eq!(full["variant"]["key"], "fromPosition", "{full}");
        ok(
            server,
            Method::POST,
            &format!("/api/board/game/{game}/abort"),
            &ben,
            Value::Null,
        )
        .await;
    }
}

async fn all(server: &TestServer) {
    links_name_the_receivers_host(server).await;
    set_up_starts_everywhere(server).await;
    creation(server).await;
    refusals(server).await;
    lists_events_and_declines(server).await;
    games_from_each_seat(server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lichess_challenges_on_sqlite() {
    let server = TestServer::sqlite().await;
    all(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lichess_challenges_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    all(&server).await;
    server.finish().await;
}
