//! Table games (issue #29) after review, on SQLite and (with
//! `TEMPO_TEST_DATABASE_URL`) on PostgreSQL: a director who plays at a
//! table gets neither seat (except the creator of a friendly game, who
//! was given both as they created it); a seat's QR code made on the
//! server for its director.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{TestServer, ok, request};
use tower::ServiceExt;

fn game_of(answer: &Value) -> String {
    answer["gameId"].as_str().unwrap().to_string()
}

/// A friendly table game of `white` and `black` made by `token`'s member.
async fn friendly(server: &TestServer, token: &str, white: &str, black: &str) -> String {
    let (status, answer) = server
        .call(
            Method::POST,
            "/api/tables",
            Some(token),
            Some(json!({"variant": "fairschach", "clock": "300+3",
                "white": {"name": white}, "black": {"name": black}})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    game_of(&answer)
}

/// The status and code of `method uri` as `token`.
async fn code(server: &TestServer, method: Method, uri: &str, token: &str) -> (StatusCode, String) {
    let (status, body) = server.call(method, uri, Some(token), None).await;
    (
        status,
        body["code"].as_str().unwrap_or_default().to_string(),
    )
}

async fn a_director_who_plays(server: &TestServer) {
    let arb = server.token("arb").await;
    let anna = server.token("anna").await;
    let refused = (StatusCode::FORBIDDEN, "not_the_director".to_string());

    // Anna's friendly game with the arbiter: Anna keeps her rights, the
    // arbiter (who plays in it) has none.
    let game = friendly(server, &anna, "arb", "ben").await;
    let uri = format!("/api/tables/{game}");
    assert_eq!(
        code(server, Method::GET, &uri, &anna).await.0,
        StatusCode::OK
    );
    assert_eq!(code(server, Method::GET, &uri, &arb).await, refused);
    for method in [Method::POST, Method::DELETE] {
        let seat = format!("{uri}/seats/black");
        assert_eq!(code(server, method, &seat, &arb).await, refused);
    }
    // Anna's own game: she plays in it and created it.
    let game = friendly(server, &anna, "anna", "ben").await;
    let uri = format!("/api/tables/{game}");
    assert_eq!(
        code(server, Method::GET, &uri, &anna).await.0,
        StatusCode::OK
    );
    let renew = format!("{uri}/seats/black");
    assert_eq!(
        code(server, Method::POST, &renew, &anna).await.0,
        StatusCode::OK
    );
    // The arbiter directs it (plays in neither seat).
    assert_eq!(
        code(server, Method::GET, &uri, &arb).await.0,
        StatusCode::OK
    );

    // A tournament whose director plays: their board's seats are not
    // theirs, neither in the round nor through the table routes.
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Arbiter plays", "system": "dutch", "rounds": 1, "clock": "600+5"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for (name, username) in [("Arb", "arb"), ("Anna", "anna")] {
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            json!({"name": name, "rating": 1500, "username": username}),
        )
        .await;
    }
    let round = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds"),
        &arb,
        json!({"online": "table"}),
    )
    .await;
    let board = &round["boards"][0];
    let game = board["gameId"].as_str().expect("a table game").to_string();
    assert!(board["seats"].is_null(), "{round}");
    let (_, again) = server
        .call(
            Method::GET,
            &format!("/api/tournaments/{id}/rounds/1"),
            Some(&arb),
            None,
        )
        .await;
    assert!(!again.to_string().contains("/play#"), "{again}");
    let uri = format!("/api/tables/{game}");
    assert_eq!(code(server, Method::GET, &uri, &arb).await, refused);
    for method in [Method::POST, Method::DELETE] {
        let seat = format!("{uri}/seats/black");
        assert_eq!(code(server, method, &seat, &arb).await, refused);
    }
}

/// `GET uri` as `token` with `host` as `Host`: status, code or
/// content type, `Cache-Control`, body.
async fn get_qr(
    server: &TestServer,
    uri: &str,
    token: Option<&str>,
    host: &str,
) -> (StatusCode, String, String, String) {
    let mut req = request(Method::GET, uri, token, None);
    req.headers_mut()
        .insert("host", host.parse().expect("a header value"));
    let response = server.router.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map_or(String::new(), |v| v.to_str().unwrap().to_string())
    };
    let (kind, cache) = (header("content-type"), header("cache-control"));
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let code = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| v["code"].as_str().map(str::to_string))
        .unwrap_or(kind);
    (status, code, cache, text)
}

/// The seat's QR code: made on the server (the token in no request line),
/// for the director only, never cached.
async fn seat_qr_codes(server: &TestServer) {
    let anna = server.token("anna").await;
    let ben = server.token("ben").await;
    let (_, answer) = server
        .call(
            Method::POST,
            "/api/tables",
            Some(&anna),
            Some(json!({"white": {"name": "Kim"}, "black": {"name": "Lee"}})),
        )
        .await;
    let game = game_of(&answer);
    let seat = answer["seats"]["white"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let uri = format!("/api/tables/{game}/seats/white/qr");
    let (status, kind, cache, svg) = get_qr(server, &uri, Some(&anna), "club.example:8080").await;
    assert_eq!(
        (status, kind.as_str(), cache.as_str()),
        (StatusCode::OK, "image/svg+xml", "no-store")
    );
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{svg}");
    assert!(!svg.contains(&seat), "the token is encoded, not written");
    let refused = |status: StatusCode, code: &str| (status, code.to_string());
    let short = |(status, code, _, _): (StatusCode, String, String, String)| (status, code);
    let host = "club.example";
    assert_eq!(
        short(get_qr(server, &uri, Some(&ben), host).await),
        refused(StatusCode::FORBIDDEN, "not_the_director")
    );
    assert_eq!(
        get_qr(server, &uri, None, host).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        short(get_qr(server, &uri, Some(&seat), host).await),
        refused(StatusCode::FORBIDDEN, "seat_token_not_here")
    );
    for bad in ["club example", "a/b", "x@y", &"h".repeat(256)] {
        let (status, ..) = get_qr(server, &uri, Some(&anna), bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "Host {bad}");
    }
    let green = format!("/api/tables/{game}/seats/green/qr");
    assert_eq!(
        get_qr(server, &green, Some(&anna), host).await.0,
        StatusCode::BAD_REQUEST
    );
    let (status, _) = server
        .call(
            Method::DELETE,
            &format!("/api/tables/{game}/seats/black"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let black = format!("/api/tables/{game}/seats/black/qr");
    assert_eq!(
        short(get_qr(server, &black, Some(&anna), host).await),
        refused(StatusCode::NOT_FOUND, "table_not_found")
    );
}

/// A round at tables: two guests both named "Müller" sit at one board
/// (two entries of the tournament, not one name twice), and the other
/// board is played too.
async fn namesakes_at_a_round(server: &TestServer) {
    let arb = server.token("arb").await;
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Namesakes", "system": "dutch", "rounds": 1, "clock": "600+5"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for (name, rating) in [
        ("Müller", 2000),
        ("Xaver", 1900),
        ("Müller", 1800),
        ("Yvonne", 1700),
    ] {
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            json!({"name": name, "rating": rating, "guest": true}),
        )
        .await;
    }
    let round = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds"),
        &arb,
        json!({"online": "table"}),
    )
    .await;
    let boards = round["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2, "{round}");
    let games: Vec<&str> = boards.iter().filter_map(|b| b["gameId"].as_str()).collect();
    assert_eq!(games.len(), 2, "{round}");
    let mut namesakes = 0;
    for game in games {
        let (status, full) = server
            .call(Method::GET, &format!("/api/game/{game}"), None, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{full}");
        if full["white"]["name"] == "Müller" && full["black"]["name"] == "Müller" {
            namesakes += 1;
        }
    }
    assert_eq!(namesakes, 1, "{round}");
}

/// Renewals of one seat at once all succeed, each with a generation of
/// its own: after them exactly as many more fit under the bound of 100.
async fn renewals_at_once(server: &TestServer) {
    let anna = server.token("anna").await;
    let game = friendly(server, &anna, "Kim", "Lee").await;
    let renew = format!("/api/tables/{game}/seats/white");
    let at_once = 9;
    let answers = futures_util::future::join_all(
        (0..at_once).map(|_| server.call(Method::POST, &renew, Some(&anna), None)),
    )
    .await;
    for (status, body) in &answers {
        assert_eq!(*status, StatusCode::OK, "{body}");
    }
    // Generation 1 and nine renewals: 90 more, then the bound.
    let mut more = 0;
    loop {
        let (status, body) = server.call(Method::POST, &renew, Some(&anna), None).await;
        if status != StatusCode::OK {
            assert_eq!(status, StatusCode::CONFLICT, "{body}");
            assert_eq!(body["code"], "too_many_seat_tokens");
            break;
        }
        more += 1;
        assert!(more <= 100, "no bound");
    }
    assert_eq!(more, 100 - 1 - at_once);
}

/// A one-round Dutch tournament of two guests, Ida and Jan, at `clock`;
/// its id.
async fn guests_tournament(server: &TestServer, arb: &str, name: &str, clock: &str) -> String {
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        arb,
        json!({"name": name, "system": "dutch", "rounds": 1, "clock": clock}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for name in ["Ida", "Jan"] {
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            arb,
            json!({"name": name, "rating": 1500, "guest": true}),
        )
        .await;
    }
    id
}

/// A round at tables none of whose boards can get a table game (a clock
/// by correspondence: no game of one sitting) says why.
async fn no_board_at_a_table(server: &TestServer) {
    let arb = server.token("arb").await;
    let id = guests_tournament(server, &arb, "By post", "1/259200").await;
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/tournaments/{id}/rounds"),
            Some(&arb),
            Some(json!({"online": "table"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("one sitting"),
        "{body}"
    );
}

/// A tournament board at a table keeps the older rule of paired games:
/// its clocks run from the start, no first-move wait, and no abort once
/// White has moved.
async fn a_board_keeps_the_older_rule(server: &TestServer) {
    let arb = server.token("arb").await;
    let id = guests_tournament(server, &arb, "Older rule", "600+5").await;
    let round = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds"),
        &arb,
        json!({"online": "table"}),
    )
    .await;
    let game = round["boards"][0]["gameId"].as_str().unwrap().to_string();
    let (_, table) = server
        .call(
            Method::GET,
            &format!("/api/tables/{game}"),
            Some(&arb),
            None,
        )
        .await;
    let token = |color: &str| table["seats"][color]["token"].as_str().unwrap().to_string();
    let (_, full) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert!(full["state"]["firstMove"].is_null(), "{full}");
    assert_eq!(full["state"]["clockRunning"], true, "{full}");
    let base = format!("/api/board/game/{game}");
    let (status, body) = server
        .call(
            Method::POST,
            &format!("{base}/move/e2e4"),
            Some(&token("white")),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = server
        .call(
            Method::POST,
            &format!("{base}/abort"),
            Some(&token("black")),
            None,
        )
        .await;
    assert!(status.is_client_error(), "{status} {body}");
    let (_, full) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    assert_eq!(full["state"]["status"], "started", "{full}");
}

/// A board whose table game cannot be read (its log gone, found so after
/// a restart) shows no seat links; the director's round is still shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_board_leaves_the_round_readable() {
    let dir = std::env::temp_dir().join(format!(
        "tempo-unreadable-{}-{:x}",
        std::process::id(),
        rand::random::<u64>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let store = tempo_server::store::Store::open_dir(&dir).await.unwrap();
    let server = TestServer::over(store, None).await;
    let arb = server.token("arb").await;
    let id = ok(
        &server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Unreadable", "system": "dutch", "rounds": 1, "clock": "600+5"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for name in ["Ida", "Jan", "Kai", "Lou"] {
        ok(
            &server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            json!({"name": name, "rating": 1500, "guest": true}),
        )
        .await;
    }
    let round = ok(
        &server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds"),
        &arb,
        json!({"online": "table"}),
    )
    .await;
    let lost = round["boards"][0]["gameId"].as_str().unwrap().to_string();
    sqlx::any::install_default_drivers();
    let db = sqlx::AnyPool::connect(&format!("sqlite://{}", dir.join("tempo.sqlite").display()))
        .await
        .unwrap();
    sqlx::query("DELETE FROM events WHERE game_id = $1")
        .bind(&lost)
        .execute(&db)
        .await
        .unwrap();
    db.close().await;
    // A restart: the games are read from the store again.
    let store = tempo_server::store::Store::open_dir(&dir).await.unwrap();
    let state = tempo_server::AppState::new(store).await.unwrap();
    let router = tempo_server::router(state);
    let uri = format!("/api/tournaments/{id}/rounds/1");
    let response = router
        .oneshot(request(Method::GET, &uri, Some(&arb), None))
        .await
        .unwrap();
    let status = response.status();
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    let view: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, StatusCode::OK, "{view}");
    assert!(view["boards"][0]["seats"].is_null(), "{view}");
    assert!(view["boards"][1]["seats"]["white"].is_string(), "{view}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_on_sqlite() {
    let server = TestServer::sqlite().await;
    a_director_who_plays(&server).await;
    seat_qr_codes(&server).await;
    namesakes_at_a_round(&server).await;
    renewals_at_once(&server).await;
    a_board_keeps_the_older_rule(&server).await;
    no_board_at_a_table(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    a_director_who_plays(&server).await;
    seat_qr_codes(&server).await;
    namesakes_at_a_round(&server).await;
    renewals_at_once(&server).await;
    a_board_keeps_the_older_rule(&server).await;
    no_board_at_a_table(&server).await;
    server.finish().await;
}
