//! Table games (issue #29), on SQLite and (with `TEMPO_TEST_DATABASE_URL`)
//! on PostgreSQL: creation, a whole Fairschach game played by two seat
//! tokens, the seat token's authorisation matrix, the director's routes,
//! no hidden move on the other seat's or the public stream.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Lines, TestServer};

const WAIT: Duration = Duration::from_millis(300);

async fn create(server: &TestServer, token: Option<&str>, body: Value) -> (StatusCode, Value) {
    server
        .call(Method::POST, "/api/tables", token, Some(body))
        .await
}

/// A table game of `body` made by `token`'s member; its answer.
async fn table(server: &TestServer, token: &str, body: Value) -> Value {
    let (status, answer) = create(server, Some(token), body).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer
}

fn seat(answer: &Value, color: &str) -> String {
    answer["seats"][color]["token"]
        .as_str()
        .unwrap()
        .to_string()
}

fn game_of(answer: &Value) -> String {
    answer["gameId"].as_str().unwrap().to_string()
}

async fn post(server: &TestServer, uri: &str, token: Option<&str>) -> (StatusCode, Value) {
    server.call(Method::POST, uri, token, None).await
}

/// The status of opening game `game`'s stream with `token`, and the
/// stream if it opened.
async fn open_stream(
    server: &TestServer,
    game: &str,
    token: Option<&str>,
) -> (StatusCode, Option<Lines>) {
    let uri = format!("/api/board/game/stream/{game}");
    let (status, _) = probe(server, Method::GET, &uri, token).await;
    if status != StatusCode::OK {
        return (status, None);
    }
    (status, Some(server.stream(&uri, token).await))
}

/// A request's status and code, without waiting for a stream's end.
async fn probe(
    server: &TestServer,
    method: Method,
    uri: &str,
    token: Option<&str>,
) -> (StatusCode, String) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let body = (method == Method::POST).then(|| json!({}));
    let response = server
        .router
        .clone()
        .oneshot(support::request(method, uri, token, body))
        .await
        .unwrap();
    let status = response.status();
    if status == StatusCode::OK && uri.contains("/stream/") {
        return (status, String::new());
    }
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let answer: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (
        status,
        answer["code"].as_str().unwrap_or_default().to_string(),
    )
}

async fn creation(server: &TestServer) {
    let anna = server.token("anna").await;
    // Guests by name, members by username in any case (registered spelling).
    let answer = table(
        server,
        &anna,
        json!({"variant": "fairschach", "clock": "300+3",
               "white": {"name": "  Gast Müller "}, "black": {"name": "BEN"}}),
    )
    .await;
    let game = game_of(&answer);
    assert_eq!(answer["display"], format!("/table/{game}"));
    assert_eq!(
        answer["white"],
        json!({"name": "Gast Müller", "member": false})
    );
    assert_eq!(answer["black"], json!({"name": "ben", "member": true}));
    for color in ["white", "black"] {
        let token = seat(&answer, color);
        assert!(token.starts_with("seat_") && token.len() == 69, "{token}");
        assert_eq!(
            answer["seats"][color]["url"],
            format!("/table/{game}/play#{token}")
        );
    }
    assert_ne!(seat(&answer, "white"), seat(&answer, "black"));
    // The game shows the guest by name, without an account's id; unrated.
    let (status, full) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(full["white"], json!({"name": "Gast Müller"}), "{full}");
    assert_eq!(full["black"]["id"], "ben");
    assert_eq!(full["rated"], false);
    assert!(!full.to_string().contains("guest:"), "{full}");
    // The clocks stand for the first moves, with a table's patience (30 min).
    let left = full["state"]["firstMove"]["left"].as_i64().unwrap();
    assert!((1_790_000..=1_800_000).contains(&left), "{full}");
    assert_eq!(full["state"]["clockRunning"], false);

    // A guest whose name is a member's username, asked for as a guest:
    // seated as a guest (the member cannot play it from their account).
    let answer = table(
        server,
        &anna,
        json!({"white": {"name": "ben", "member": false}, "black": {"name": "Carl", "member": true}}),
    )
    .await;
    assert_eq!(answer["white"], json!({"name": "ben", "member": false}));
    assert_eq!(answer["black"], json!({"name": "carl", "member": true}));
    let ben = server.token("ben").await;
    let (status, body) = server.play(&game_of(&answer), &ben, "e2e4").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = create(
        server,
        Some(&anna),
        json!({"white": {"name": "Nobody", "member": true}, "black": {"name": "Lee"}}),
    )
    .await;
    assert_eq!(
        (status, &body["code"]),
        (StatusCode::NOT_FOUND, &json!("user_not_found")),
        "{body}"
    );

    // A form body, as lichess's clients send challenges.
    let response = tower::ServiceExt::oneshot(
        server.router.clone(),
        axum::http::Request::builder()
            .method(Method::POST)
            .uri("/api/tables")
            .header("authorization", format!("Bearer {anna}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(axum::body::Body::from(
                "variant=synchronschach&clock=600%2B5&white=Kim&black.name=Lee",
            ))
            .unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);

    // Refusals name what is wrong.
    let named = |body: Value, field: &'static str, code: &'static str| {
        let anna = anna.clone();
        async move {
            let (status, answer) = create(server, Some(&anna), body.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
            assert_eq!(answer["code"], code, "{body}: {answer}");
            let error = answer["error"].as_str().unwrap();
            assert!(error.contains(field), "{body}: {error}");
        }
    };
    let players = |w: &str, b: &str| json!({"white": {"name": w}, "black": {"name": b}});
    named(players("", "Lee"), "white", "bad_player_name").await;
    named(players("Kim", "   "), "black", "bad_player_name").await;
    named(players(&"x".repeat(51), "Lee"), "white", "bad_player_name").await;
    named(players("Kim\u{7}", "Lee"), "white", "bad_player_name").await;
    named(players("Kim", "kim"), "different", "bad_player_name").await;
    named(players("anna", "ANNA"), "different", "bad_player_name").await;
    named(
        json!({"white": {"name": "Kim"}}),
        "black",
        "bad_player_name",
    )
    .await;
    let mut body = players("Kim", "Lee");
    body["variant"] = "atomic".into();
    named(body, "variant", "unsupported_challenge_option").await;
    let mut body = players("Kim", "Lee");
    body["variant"] = "nonsense".into();
    named(body, "variant", "bad_challenge_parameter").await;
    let mut body = players("Kim", "Lee");
    body["clock"] = "soon".into();
    named(body, "clock", "bad_game_spec").await;
    let mut body = players("Kim", "Lee");
    body["clock"] = "1/86400".into();
    named(body, "clock", "bad_game_spec").await;
    let mut body = players("Kim", "Lee");
    body["variant"] = "fromPosition".into();
    body["fen"] = "not a position".into();
    named(body, "fen", "bad_game_spec").await;
    let mut body = players("Kim", "Lee");
    body["variant"] = "fromPosition".into();
    named(body, "fen", "bad_challenge_parameter").await;
    // An unknown field is refused by name.
    let mut body = players("Kim", "Lee");
    body["rated"] = true.into();
    let (status, answer) = create(server, Some(&anna), body).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("rated"));
    // Members only.
    let (status, _) = create(server, None, players("Kim", "Lee")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // The bound: 50 unfinished friendly table games a director.
    let carl = server.token("carl").await;
    let mut last = String::new();
    for n in 0..50 {
        last = game_of(&table(server, &carl, players(&format!("A{n}"), "B")).await);
    }
    let (status, answer) = create(server, Some(&carl), players("A50", "B")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert_eq!(answer["code"], "too_many_tables");
    // One ends (aborted by its seat): room for one more.
    let seats = server
        .call(
            Method::GET,
            &format!("/api/tables/{last}"),
            Some(&carl),
            None,
        )
        .await
        .1;
    let (status, body) = post(
        server,
        &format!("/api/board/game/{last}/abort"),
        Some(&seat(&seats, "white")),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    table(server, &carl, players("A50", "B")).await;
}

/// White's and Black's seats commit `moves` step by step.
async fn step(server: &TestServer, game: &str, seats: [&str; 2], moves: [&str; 2]) {
    for (token, choice) in seats.into_iter().zip(moves) {
        let (status, body) = server.play(game, token, choice).await;
        assert_eq!(status, StatusCode::OK, "{choice}: {body}");
    }
}

async fn whole_game_and_matrix(server: &TestServer) {
    let anna = server.token("anna").await;
    let ben = server.token("ben").await;
    let arb = server.token("arb").await;
    let answer = table(
        server,
        &anna,
        json!({"variant": "fairschach", "clock": "300+3",
               "white": {"name": "Kim"}, "black": {"name": "Lee"}}),
    )
    .await;
    let game = game_of(&answer);
    let (white, black) = (seat(&answer, "white"), seat(&answer, "black"));
    let other = table(
        server,
        &anna,
        json!({"variant": "fairschach", "clock": "300+3",
               "white": {"name": "Ole"}, "black": {"name": "Pia"}}),
    )
    .await;
    let other_game = game_of(&other);
    let other_seat = seat(&other, "white");

    // Streams: White's seat, Black's seat, anyone.
    let (_, own) = open_stream(server, &game, Some(&white)).await;
    let (_, theirs) = open_stream(server, &game, Some(&black)).await;
    let (_, public) = open_stream(server, &game, None).await;
    let (mut own, mut theirs, mut public) = (own.unwrap(), theirs.unwrap(), public.unwrap());
    for lines in [&mut own, &mut theirs, &mut public] {
        let full = lines.next(WAIT).await.unwrap();
        assert_eq!(full["type"], "gameFull");
        assert_eq!(full["white"], json!({"name": "Kim"}));
    }

    // White commits by seat: both seats and the public learn that, never what.
    let (status, body) = server.play(&game, &white, "g1f3").await;
    assert_eq!((status, &body), (StatusCode::OK, &json!({"ok": true})));
    let seen = [
        own.drain(WAIT).await,
        theirs.drain(WAIT).await,
        public.drain(WAIT).await,
    ]
    .concat();
    assert!(seen.iter().any(|l| l.contains(r#""type":"committed""#)));
    let (_, anonymous_view) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    let everything = format!("{seen:?} {anonymous_view}");
    assert!(
        !everything.contains("g1f3"),
        "a hidden move leaked: {everything}"
    );
    // A seat's stream (opened afresh) is the public view plus its colour:
    // not even its own sealed choice, since a director may hold both tokens.
    for (token, color) in [(&white, "white"), (&black, "black")] {
        let (_, again) = open_stream(server, &game, Some(token)).await;
        let full = again.unwrap().next(WAIT).await.unwrap();
        assert_eq!(full["seat"], color, "{full}");
        assert!(full["state"].get("mine").is_none(), "{full}");
        assert!(!full.to_string().contains("g1f3"), "{full}");
    }
    let (_, anyone) = open_stream(server, &game, None).await;
    let full = anyone.unwrap().next(WAIT).await.unwrap();
    assert!(full.get("seat").is_none(), "{full}");
    assert!(!full.to_string().contains("g1f3"), "{full}");
    // The seat plays its own colour only: White's token cannot commit again
    // (as Black or otherwise).
    let (status, body) = server.play(&game, &white, "e7e5").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "already_committed");

    // The play routes × who calls.
    let routes = |id: &str| {
        [
            (Method::POST, format!("/api/board/game/{id}/move/e7e5")),
            (Method::POST, format!("/api/board/game/{id}/draw/no")),
            (Method::POST, format!("/api/board/game/{id}/claim-draw")),
            (Method::POST, format!("/api/board/game/{id}/resign")),
            (Method::POST, format!("/api/board/game/{id}/abort")),
            (Method::GET, format!("/api/board/game/stream/{id}")),
        ]
    };
    for (method, uri) in routes(&game) {
        // A seat of another game.
        let (status, code) = probe(server, method.clone(), &uri, Some(&other_seat)).await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::FORBIDDEN, "seat_other_game"),
            "{uri}"
        );
        // An unknown seat token.
        let unknown = format!("seat_{}", "0".repeat(64));
        let (status, code) = probe(server, method.clone(), &uri, Some(&unknown)).await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::UNAUTHORIZED, "unknown_token")
        );
        // Anonymous: the stream is public, a play route is not.
        let (status, _) = probe(server, method.clone(), &uri, None).await;
        let expected = if method == Method::GET {
            StatusCode::OK
        } else {
            StatusCode::UNAUTHORIZED
        };
        assert_eq!(status, expected, "{uri} anonymously");
        // A member who does not play it.
        if method == Method::POST {
            let (status, code) = probe(server, method.clone(), &uri, Some(&arb)).await;
            assert_eq!(
                (status, code.as_str()),
                (StatusCode::FORBIDDEN, "not_a_player")
            );
        }
    }
    // The own seat: Black's token is let through on every route (what the
    // game then says is the game's answer, never 401/403). Resigning and
    // aborting end the game: they come last.
    for (method, uri) in routes(&game).into_iter().take(3) {
        let (status, code) = probe(server, method, &uri, Some(&black)).await;
        assert!(
            !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN),
            "{uri}: {status} {code}"
        );
    }
    let (status, _) = probe(
        server,
        Method::GET,
        &format!("/api/board/game/stream/{game}"),
        Some(&black),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // The reveal: Black's e7e5 (the matrix's move) met White's g1f3.
    let revealed = public.drain(WAIT).await.join("\n");
    assert!(revealed.contains(r#""type":"reveal""#), "{revealed}");
    assert!(
        revealed.contains("g1f3") && revealed.contains("e7e5"),
        "{revealed}"
    );

    // A whole game: two more steps, then Black resigns from the seat.
    step(server, &game, [&white, &black], ["b1c3", "b8c6"]).await;
    step(server, &game, [&white, &black], ["e2e4", "g8f6"]).await;
    let (status, body) = post(
        server,
        &format!("/api/board/game/{game}/resign"),
        Some(&black),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let end = own.drain(WAIT).await.join("\n");
    assert!(end.contains(r#""result":"1-0""#), "{end}");
    assert!(
        own.rest(WAIT).await.is_some(),
        "the stream ends with the game"
    );
    let (_, view) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(view["state"]["result"], "1-0", "{view}");
    assert_eq!(view["state"]["reason"], "resign", "{view}");
    // The archive and the export show the guests by name.
    let pgn = server
        .router_get_text(&format!("/api/game/export/{game}"))
        .await;
    assert!(
        pgn.contains("[White \"Kim\"]") && pgn.contains("[Black \"Lee\"]"),
        "{pgn}"
    );
    let response = tower::ServiceExt::oneshot(
        server.router.clone(),
        axum::http::Request::builder()
            .uri(format!("/api/game/export/{game}"))
            .header("accept", "application/json")
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await
    .unwrap();
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let export: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        export["players"]["white"],
        json!({"name": "Kim"}),
        "{export}"
    );
    assert!(!export.to_string().contains("guest:"), "{export}");

    let (_, archive) = server.call(Method::GET, "/api/games", None, None).await;
    let listed = archive["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gameId"] == game.as_str())
        .unwrap();
    assert_eq!(
        (&listed["white"], &listed["black"]),
        (&json!("Kim"), &json!("Lee"))
    );
    let (_, playing) = server
        .call(Method::GET, "/api/games/playing", None, None)
        .await;
    let running = playing["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gameId"] == other_game.as_str())
        .unwrap();
    assert_eq!(
        (&running["white"], &running["black"]),
        (&json!("Ole"), &json!("Pia"))
    );
    assert!(!format!("{archive}{playing}").contains("guest:"));

    // The seats ended with the game: a play route refuses (401), the
    // stream shows the finished game as to anyone.
    for (method, uri) in routes(&game) {
        let (status, code) = probe(server, method.clone(), &uri, Some(&white)).await;
        if method == Method::GET {
            assert_eq!(status, StatusCode::OK, "{uri}");
        } else {
            assert_eq!(
                (status, code.as_str()),
                (StatusCode::UNAUTHORIZED, "seat_ended"),
                "{uri}"
            );
        }
    }

    // A revoked seat: 401 everywhere, the stream too; its stream ends.
    let (_, open_seat) = open_stream(server, &other_game, Some(&other_seat)).await;
    let mut open_seat = open_seat.unwrap();
    assert_eq!(open_seat.next(WAIT).await.unwrap()["type"], "gameFull");
    let (status, after) = server
        .call(
            Method::DELETE,
            &format!("/api/tables/{other_game}/seats/white"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["seats"]["white"]["token"], Value::Null);
    assert!(after["seats"]["black"]["token"].is_string());
    assert!(
        open_seat.rest(Duration::from_secs(2)).await.is_some(),
        "a revoked seat's stream ends"
    );
    for (method, uri) in routes(&other_game) {
        let (status, code) = probe(server, method, &uri, Some(&other_seat)).await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::UNAUTHORIZED, "seat_revoked"),
            "{uri}"
        );
    }
    // Renewed: a new token plays, the old stays refused.
    let (status, renewed) = post(
        server,
        &format!("/api/tables/{other_game}/seats/white"),
        Some(&anna),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{renewed}");
    let fresh = seat(&renewed, "white");
    assert_ne!(fresh, other_seat);
    assert_eq!(
        server.play(&other_game, &fresh, "d2d4").await.0,
        StatusCode::OK
    );
    assert_eq!(
        server.play(&other_game, &other_seat, "d2d4").await.0,
        StatusCode::UNAUTHORIZED
    );
    // The director sees the live tokens again (derived, not stored).
    let (_, shown) = server
        .call(
            Method::GET,
            &format!("/api/tables/{other_game}"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(shown["seats"]["white"]["token"], fresh.as_str());
    assert_eq!(
        shown["seats"]["black"]["token"],
        other["seats"]["black"]["token"]
    );
    assert_eq!(shown["status"], "started");

    // Every other family of routes refuses a known seat token (403) and an
    // unknown one (401).
    let live = seat(&shown, "black");
    let others = [
        (Method::GET, "/api/account".to_string()),
        (Method::GET, "/api/account/playing".to_string()),
        (Method::POST, "/api/challenge/ben".to_string()),
        (Method::POST, "/api/challenge/open".to_string()),
        (Method::GET, "/api/tournaments".to_string()),
        (Method::POST, "/api/tournaments".to_string()),
        (Method::POST, format!("/api/game/{other_game}/arbiter")),
        (Method::GET, format!("/api/game/{other_game}")),
        (Method::POST, "/api/token/test".to_string()),
        (Method::GET, "/api/stream/event".to_string()),
        (Method::POST, "/api/tables".to_string()),
        (Method::GET, format!("/api/tables/{other_game}")),
        (
            Method::POST,
            format!("/api/tables/{other_game}/seats/black"),
        ),
        (
            Method::DELETE,
            format!("/api/tables/{other_game}/seats/black"),
        ),
    ];
    for (method, uri) in &others {
        let (status, code) = probe(server, method.clone(), uri, Some(&live)).await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::FORBIDDEN, "seat_token_not_here"),
            "{method} {uri}"
        );
        let (status, _) = probe(server, method.clone(), uri, Some(&white)).await;
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "{method} {uri}: an ended seat"
        );
        let unknown = format!("seat_{}", "f".repeat(64));
        let (status, _) = probe(server, method.clone(), uri, Some(&unknown)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {uri}");
    }

    // The director's routes × who asks: the creator, an arbiter, another
    // member, a seat token, nobody.
    let director_routes = [
        (Method::GET, format!("/api/tables/{other_game}")),
        (
            Method::POST,
            format!("/api/tables/{other_game}/seats/black"),
        ),
        (
            Method::DELETE,
            format!("/api/tables/{other_game}/seats/black"),
        ),
    ];
    for (method, uri) in &director_routes {
        for (who, token, expected) in [
            ("the creator", Some(anna.as_str()), StatusCode::OK),
            ("an arbiter", Some(arb.as_str()), StatusCode::OK),
            ("another member", Some(ben.as_str()), StatusCode::FORBIDDEN),
            ("nobody", None, StatusCode::UNAUTHORIZED),
        ] {
            let (status, code) = probe(server, method.clone(), uri, token).await;
            assert_eq!(status, expected, "{method} {uri} by {who}: {code}");
        }
    }
    let (status, code) = probe(server, Method::GET, "/api/tables/nosuchgame", Some(&anna)).await;
    assert_eq!(
        (status, code.as_str()),
        (StatusCode::NOT_FOUND, "table_not_found")
    );
    // A game that is no table game is not found either.
    let (ordinary, _, _) = server.game(json!({"clock": "300+3"})).await;
    let (status, _) = probe(
        server,
        Method::GET,
        &format!("/api/tables/{ordinary}"),
        Some(&arb),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = probe(
        server,
        Method::POST,
        &format!("/api/tables/{other_game}/seats/green"),
        Some(&anna),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A finished game's seats are not renewed.
    let (status, code) = probe(
        server,
        Method::POST,
        &format!("/api/tables/{game}/seats/white"),
        Some(&anna),
    )
    .await;
    assert_eq!((status, code.as_str()), (StatusCode::CONFLICT, "game_over"));
    let (_, finished) = server
        .call(
            Method::GET,
            &format!("/api/tables/{game}"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(finished["finished"], true);
    assert_eq!(finished["seats"]["white"]["token"], Value::Null);
}

/// A member seated at a table may play from their account as well as from
/// the seat; the guest only from the seat.
async fn member_at_a_table(server: &TestServer) {
    let anna = server.token("anna").await;
    let ben = server.token("ben").await;
    let answer = table(
        server,
        &ben,
        json!({"variant": "synchronschach", "clock": "300+3",
               "white": {"name": "Anna"}, "black": {"name": "Guest"}}),
    )
    .await;
    let game = game_of(&answer);
    assert_eq!(server.play(&game, &anna, "e2e4").await.0, StatusCode::OK);
    let (status, body) = server.play(&game, &ben, "e7e5").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let guest = seat(&answer, "black");
    assert_eq!(server.play(&game, &guest, "e7e5").await.0, StatusCode::OK);
    // A seat token acts as its own colour: the guest's draw offer is Black's.
    let (status, body) = post(
        server,
        &format!("/api/board/game/{game}/draw/yes"),
        Some(&guest),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, view) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(
        (&view["state"]["bdraw"], &view["state"]["wdraw"]),
        (&json!(true), &json!(false)),
        "{view}"
    );
    // Her own account lists it; the guest has none.
    let (_, playing) = server
        .call(Method::GET, "/api/account/playing", Some(&anna), None)
        .await;
    assert!(playing.to_string().contains(&game), "{playing}");
    let entry = playing["nowPlaying"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gameId"] == game.as_str())
        .unwrap()
        .clone();
    assert_eq!(entry["opponent"]["id"], Value::Null, "{entry}");
    assert_eq!(entry["opponent"]["username"], "Guest", "{entry}");
    assert!(entry["opponent"].get("rating").is_none(), "{entry}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_on_sqlite() {
    let server = TestServer::sqlite().await;
    creation(&server).await;
    whole_game_and_matrix(&server).await;
    member_at_a_table(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    creation(&server).await;
    whole_game_and_matrix(&server).await;
    member_at_a_table(&server).await;
    server.finish().await;
}

#[test]
fn the_openapi_document_names_the_table_routes_and_the_seat_token() {
    let document = tempo_server::api::openapi();
    let create = &document["paths"]["/api/tables"]["post"];
    assert!(create["responses"]["201"].is_object(), "{create}");
    assert!(create["requestBody"].is_object(), "{create}");
    for (method, path) in [
        ("get", "/api/tables/{id}"),
        ("post", "/api/tables/{id}/seats/{color}"),
        ("delete", "/api/tables/{id}/seats/{color}"),
        ("get", "/api/tables/{id}/seats/{color}/qr"),
    ] {
        assert!(
            document["paths"][path][method].is_object(),
            "{method} {path}"
        );
    }
    assert_eq!(
        document["components"]["securitySchemes"]["seat"]["scheme"],
        "bearer"
    );
    let seat_routes: Vec<(String, String)> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .iter()
                .filter(|(_, op)| {
                    op["security"]
                        .as_array()
                        .is_some_and(|s| s.iter().any(|r| r.get("seat").is_some()))
                })
                .map(|(method, _)| (method.clone(), path.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(seat_routes.len(), 4, "{seat_routes:?}");
    assert!(
        seat_routes
            .iter()
            .all(|(_, p)| p.starts_with("/api/board/game/"))
    );
}
