//! Lichess's fields of a game (issue #28), on SQLite and (with
//! `TEMPO_TEST_DATABASE_URL`) on PostgreSQL: `gameFull` and `gameState`
//! as lichess's clients read them (the variant object, the clock in ms,
//! `moves` in lichess's UCI, `wtime`…`binc`, the status names), and the
//! export as JSON or PGN by `Accept` on both of its addresses.

mod support;

use std::time::Duration;

use axum::http::{HeaderMap, Method, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::{TestServer, request};
use tower::ServiceExt;

const WAIT: Duration = Duration::from_millis(300);
const NO_CLOCK: u64 = 2_147_483_647;

/// The Italian game to both sides castling short.
const CASTLES: [&str; 8] = [
    "e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1g1", "e8g8",
];

/// A GET with an `Accept` header: the status, headers and body text.
async fn get_as(
    server: &TestServer,
    uri: &str,
    accept: Option<&str>,
) -> (StatusCode, HeaderMap, String) {
    let mut req = request(Method::GET, uri, None, None);
    if let Some(accept) = accept {
        req.headers_mut()
            .insert(header::ACCEPT, accept.parse().unwrap());
    }
    let response = server.router.clone().oneshot(req).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

/// The export as JSON from `path` (`/api/game/export/` or `/game/export/`).
async fn export_json(server: &TestServer, path: &str, game: &str) -> Value {
    let (status, headers, body) =
        get_as(server, &format!("{path}{game}"), Some("application/json")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    serde_json::from_str(&body).expect("JSON")
}

/// The last `gameState` of the lines that come now.
async fn last_state(lines: &mut support::Lines) -> Value {
    lines
        .drain(WAIT)
        .await
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .rfind(|l| l["type"] == "gameState")
        .expect("a gameState")
}

async fn view(server: &TestServer, game: &str, token: Option<&str>) -> Value {
    let (status, body) = server
        .call(Method::GET, &format!("/api/game/{game}"), token, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// Plays `moves`, White's and Black's in turn.
async fn play_all(server: &TestServer, game: &str, white: &str, black: &str, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { white } else { black };
        let (status, body) = server.play(game, token, mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {body}");
    }
}

async fn post(server: &TestServer, uri: &str, token: &str, body: Option<Value>) {
    let (status, answer) = server.call(Method::POST, uri, Some(token), body).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {answer}");
}

fn is_ms(value: &Value) -> bool {
    value.as_u64().is_some_and(|ms| ms > 1_600_000_000_000)
}

/// A timed orthodox game: every gameFull field, castling `e1g1`, a draw
/// offer and its acceptance, and the export in both forms on both paths.
async fn orthodox(server: &TestServer) {
    let (game, anna, ben) = server
        .game(json!({"variant": "standard", "clock": "300+3"}))
        .await;
    let mut stream = server
        .stream(&format!("/api/board/game/stream/{game}"), None)
        .await;
    let full = stream.next(WAIT).await.expect("gameFull");
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["id"], game.as_str());
    assert_eq!(
        full["variant"],
        json!({"key": "standard", "name": "Standard", "short": "Std"})
    );
    assert_eq!(
        full["clock"],
        json!({"initial": 300_000, "increment": 3_000})
    );
    assert!(full.get("daysPerTurn").is_none(), "{full}");
    assert_eq!(full["timeControl"], "300+3");
    assert_eq!(full["speed"], "blitz");
    assert_eq!(full["perf"], json!({"name": "Blitz"}));
    assert_eq!(full["rated"], false);
    assert!(is_ms(&full["createdAt"]), "{full}");
    assert_eq!(full["white"]["id"], "anna");
    assert_eq!(full["white"]["name"], "anna");
    assert!(full["white"]["title"].is_null());
    assert!(full["white"]["rating"].is_i64(), "{full}");
    assert!(full["white"]["provisional"].is_boolean(), "{full}");
    assert_eq!(full["black"]["id"], "ben");
    assert!(
        full["initialFen"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq")
    );
    assert!(full["rules"].is_string() && full["head"].is_string());
    assert!(full["chess960"].is_null());
    let state = &full["state"];
    assert_eq!(state["type"], "gameState");
    assert_eq!(state["moves"], "");
    assert_eq!(state["status"], "started");
    assert_eq!(
        (state["wtime"].as_u64(), state["btime"].as_u64()),
        (Some(300_000), Some(300_000))
    );
    assert_eq!(
        (state["winc"].as_u64(), state["binc"].as_u64()),
        (Some(3_000), Some(3_000))
    );
    for flag in ["wdraw", "bdraw", "wtakeback", "btakeback"] {
        assert_eq!(state[flag], false, "{flag}");
    }
    assert!(state.get("winner").is_none());
    // The same first line from GET /api/game/{id}.
    let got = view(server, &game, None).await;
    assert_eq!(got["variant"], full["variant"]);
    assert_eq!(got["white"], full["white"]);
    assert_eq!(got["createdAt"], full["createdAt"]);

    // Each move's state on the stream (read as it comes: a stream's
    // state is the game's when the line is written).
    for (n, mv) in CASTLES.iter().enumerate() {
        let token = if n % 2 == 0 { &anna } else { &ben };
        let (status, body) = server.play(&game, token, mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {body}");
        let state = last_state(&mut stream).await;
        assert_eq!(state["moves"], CASTLES[..=n].join(" "), "after {mv}");
        assert!(
            state["wtime"].is_u64() && state["btime"].is_u64(),
            "{state}"
        );
    }

    post(
        server,
        &format!("/api/board/game/{game}/draw/yes"),
        &anna,
        None,
    )
    .await;
    let offered = view(server, &game, None).await;
    assert_eq!(offered["state"]["wdraw"], true);
    assert_eq!(offered["state"]["bdraw"], false);
    post(
        server,
        &format!("/api/board/game/{game}/draw/yes"),
        &ben,
        None,
    )
    .await;
    let state = view(server, &game, None).await["state"].clone();
    assert_eq!(state["status"], "draw");
    assert!(state.get("winner").is_none(), "{state}");
    assert_eq!(
        (state["result"].as_str(), state["reason"].as_str()),
        (Some("1/2-1/2"), Some("agreement"))
    );

    // The export: JSON by Accept, on lichess's path and tempo's.
    for path in ["/game/export/", "/api/game/export/"] {
        let export = export_json(server, path, &game).await;
        assert_eq!(export["id"], game.as_str());
        assert_eq!(export["rated"], false);
        assert_eq!(export["variant"], "standard");
        assert_eq!(export["speed"], "blitz");
        assert_eq!(export["perf"], "blitz");
        assert_eq!(export["createdAt"], full["createdAt"]);
        assert!(is_ms(&export["lastMoveAt"]));
        assert!(export["lastMoveAt"].as_u64() >= export["createdAt"].as_u64());
        assert_eq!(export["status"], "draw");
        assert!(export.get("winner").is_none());
        assert_eq!(
            export["players"]["white"]["user"],
            json!({"name": "anna", "id": "anna"})
        );
        assert!(export["players"]["black"]["rating"].is_i64());
        assert_eq!(export["moves"], "e4 e5 Nf3 Nf6 Bc4 Bc5 O-O O-O");
        assert_eq!(
            export["clock"],
            json!({"initial": 300, "increment": 3, "totalTime": 420})
        );
        assert!(export.get("daysPerTurn").is_none() && export.get("initialFen").is_none());
        assert_eq!(
            (export["result"].as_str(), export["reason"].as_str()),
            (Some("1/2-1/2"), Some("agreement"))
        );
        assert_eq!(export["record"].as_array().map(Vec::len), Some(8));
        assert!(export.get("pgn").is_none());
    }
    // PGN without Accept (and with lichess's flags, in Python's spelling
    // too), on both paths.
    for path in ["/game/export/", "/api/game/export/"] {
        let (status, headers, pgn) = get_as(server, &format!("{path}{game}"), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers[header::CONTENT_TYPE], "application/x-chess-pgn");
        assert_eq!(headers[header::VARY], "Accept");
        assert!(
            pgn.contains("[White \"anna\"]") && pgn.contains("O-O"),
            "{pgn}"
        );
        let uri = format!("{path}{game}?moves=False&clocks=True&evals=false&opening=1&literate=0");
        let (status, _, tags) = get_as(server, &uri, Some("application/x-chess-pgn")).await;
        assert_eq!(status, StatusCode::OK, "{tags}");
        assert!(
            tags.contains("[Black \"ben\"]") && !tags.contains("Nf3"),
            "{tags}"
        );
        let (_, _, moves) =
            get_as(server, &format!("{path}{game}?tags=false&unknown=1"), None).await;
        assert!(
            !moves.contains('[') && moves.contains("1. e4 e5"),
            "{moves}"
        );
    }
    let (status, _, body) =
        get_as(server, &format!("/game/export/{game}?moves=perhaps"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.contains("\"code\""), "{body}");
    let export = export_json(
        server,
        &format!("/game/export/{game}?pgnInJson=true&x="),
        "",
    )
    .await;
    assert!(
        export["pgn"]
            .as_str()
            .unwrap()
            .contains("[Result \"1/2-1/2\"]"),
        "{export}"
    );
    // A game that does not exist, on lichess's path: the API's 404.
    let (status, _, body) =
        get_as(server, "/game/export/nosuchgame", Some("application/json")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
}

/// Chess960 castles king-takes-rook in `moves`; a resignation.
async fn chess960(server: &TestServer) {
    let (game, anna, ben) = server
        .game(json!({"variant": "chess960", "chess960": 518, "clock": "900+10"}))
        .await;
    play_all(server, &game, &anna, &ben, &CASTLES).await;
    let full = view(server, &game, None).await;
    assert_eq!(full["variant"]["key"], "chess960");
    assert_eq!(full["speed"], "rapid");
    assert_eq!(full["perf"]["name"], "Chess960");
    assert_eq!(
        full["state"]["moves"],
        "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1 e8h8"
    );
    post(
        server,
        &format!("/api/board/game/{game}/resign"),
        &ben,
        None,
    )
    .await;
    let state = view(server, &game, None).await["state"].clone();
    assert_eq!(state["status"], "resign");
    assert_eq!(state["winner"], "white");
    let export = export_json(server, "/game/export/", &game).await;
    assert_eq!(export["variant"], "chess960");
    assert_eq!(export["perf"], "chess960");
    assert_eq!(export["winner"], "white");
    assert_eq!(export["initialFen"], full["initialFen"]);
}

/// An untimed game from a set-up position: `fromPosition`, lichess's
/// times without a clock, a stalemate.
async fn from_position(server: &TestServer) {
    let fen = "k7/8/8/8/8/8/2Q5/7K w - - 0 1";
    let (game, anna, _) = server
        .game(json!({"variant": "standard", "fen": fen}))
        .await;
    let full = view(server, &game, Some(&anna)).await;
    assert_eq!(
        full["variant"],
        json!({"key": "fromPosition", "name": "From Position", "short": "FEN"})
    );
    assert!(
        full["clock"].is_null() && full["timeControl"].is_null(),
        "{full}"
    );
    assert!(full.get("daysPerTurn").is_none());
    assert_eq!(full["speed"], "correspondence");
    assert_eq!(full["initialFen"], fen);
    let state = &full["state"];
    assert_eq!(
        (state["wtime"].as_u64(), state["btime"].as_u64()),
        (Some(NO_CLOCK), Some(NO_CLOCK))
    );
    assert_eq!(
        (state["winc"].as_u64(), state["binc"].as_u64()),
        (Some(0), Some(0))
    );
    let (status, body) = server.play(&game, &anna, "c2c7").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let state = view(server, &game, None).await["state"].clone();
    assert_eq!(state["status"], "stalemate");
    assert_eq!(state["moves"], "c2c7");
    assert!(state.get("winner").is_none());
    let export = export_json(server, "/api/game/export/", &game).await;
    assert_eq!(export["variant"], "fromPosition");
    assert_eq!(export["initialFen"], fen);
    assert!(export.get("clock").is_none(), "{export}");
}

/// A simultaneous game: a committed choice is in nobody's `moves` (nor in
/// any line the opponent or a spectator gets, nor the export) until its
/// reveal; then both are, White's first. An arbiter's result.
async fn simultaneous(server: &TestServer) {
    let (game, anna, ben) = server
        .game(json!({"variant": "fairschach", "clock": "300+3"}))
        .await;
    let uri = format!("/api/board/game/stream/{game}");
    let mut spectator = server.stream(&uri, None).await;
    let mut opponent = server.stream(&uri, Some(&ben)).await;
    let mut own = server.stream(&uri, Some(&anna)).await;
    for lines in [&mut spectator, &mut opponent, &mut own] {
        let full = lines.next(WAIT).await.unwrap();
        assert_eq!(full["variant"]["key"], "fairschach");
        assert_eq!(full["state"]["moves"], "");
    }
    let (status, _) = server.play(&game, &anna, "g1f3").await;
    assert_eq!(status, StatusCode::OK);
    let seen = [spectator.drain(WAIT).await, opponent.drain(WAIT).await].concat();
    let export = export_json(server, "/game/export/", &game).await;
    let (_, _, pgn) = get_as(server, &format!("/game/export/{game}"), None).await;
    let public = view(server, &game, None).await;
    let as_ben = view(server, &game, Some(&ben)).await;
    let everything = format!("{seen:?} {export} {pgn} {public} {as_ben}");
    assert!(
        !everything.contains("g1f3") && !everything.contains("Nf3"),
        "{everything}"
    );
    assert_eq!(public["state"]["moves"], "");
    let as_anna = view(server, &game, Some(&anna)).await;
    assert_eq!(as_anna["state"]["moves"], "", "not revealed: not in moves");
    assert_eq!(as_anna["state"]["mine"], "g1f3");

    let (status, _) = server.play(&game, &ben, "e7e5").await;
    assert_eq!(status, StatusCode::OK);
    for lines in [&mut spectator, &mut opponent, &mut own] {
        assert_eq!(last_state(lines).await["moves"], "g1f3 e7e5");
    }
    let arbiter = server.token("arb").await;
    let action = json!({"action": {"kind": "setResult", "result": "1-0"}, "reason": "test"});
    post(
        server,
        &format!("/api/game/{game}/arbiter"),
        &arbiter,
        Some(action),
    )
    .await;
    let state = view(server, &game, None).await["state"].clone();
    assert_eq!(state["status"], "unknownFinish");
    assert_eq!(state["winner"], "white");
    let export = export_json(server, "/api/game/export/", &game).await;
    assert_eq!(export["variant"], "fairschach");
    assert_eq!(export["perf"], "fairschach");
    assert_eq!(export["status"], "unknownFinish");
    assert!(export["initialFen"].is_string());
    assert_eq!(export["record"].as_array().map(Vec::len), Some(1));
}

/// A correspondence game (days per move): `daysPerTurn`, no clock; an
/// abort.
async fn correspondence(server: &TestServer) {
    let (game, anna, _) = server.game(json!({"clock": "1/259200"})).await;
    let full = view(server, &game, None).await;
    assert!(full["clock"].is_null(), "{full}");
    assert_eq!(full["daysPerTurn"], 3);
    assert_eq!(full["timeControl"], "1/259200");
    assert_eq!(full["speed"], "correspondence");
    assert!(full["state"]["wtime"].is_u64(), "{full}");
    post(
        server,
        &format!("/api/board/game/{game}/abort"),
        &anna,
        None,
    )
    .await;
    let state = view(server, &game, None).await["state"].clone();
    assert_eq!(state["status"], "aborted");
    assert!(state.get("winner").is_none());
    let export = export_json(server, "/game/export/", &game).await;
    assert_eq!(export["daysPerTurn"], 3);
    assert!(export.get("clock").is_none());
}

/// A checkmate, a king captured and a flag.
async fn other_ends(server: &TestServer) {
    let (game, anna, ben) = server.game(json!({"variant": "standard"})).await;
    play_all(
        server,
        &game,
        &anna,
        &ben,
        &["f2f3", "e7e5", "g2g4", "d8h4"],
    )
    .await;
    let state = view(server, &game, None).await["state"].clone();
    assert_eq!(state["status"], "mate");
    assert_eq!(state["winner"], "black");
    assert_eq!(state["moves"], "f2f3 e7e5 g2g4 d8h4");

    // Synchronschach: White's king left on the bishop's diagonal is
    // captured (lichess's `variantEnd`).
    let fen = "4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1";
    let (game, anna, ben) = server
        .game(json!({"variant": "synchronschach", "fen": fen}))
        .await;
    play_all(server, &game, &anna, &ben, &["b1d2", "b4e1"]).await;
    let state = view(server, &game, None).await["state"].clone();
    assert_eq!(state["status"], "variantEnd", "{state}");
    assert_eq!(state["winner"], "black");
    assert_eq!(state["reason"], "king-captured");
    assert_eq!(state["moves"], "b1d2 b4e1");

    // One second: the clocks start after both first moves; White's falls.
    let (game, anna, ben) = server.game(json!({"clock": "1+0"})).await;
    play_all(server, &game, &anna, &ben, &["e2e4", "e7e5"]).await;
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    let _ = server.play(&game, &anna, "g1f3").await;
    let state = view(server, &game, None).await["state"].clone();
    assert_eq!(state["status"], "outoftime", "{state}");
    assert_eq!(state["winner"], "black");
    assert_eq!(state["wtime"], 0);
}

/// As lichess's, a game's stream ends with the game: a live one after
/// the end entry (and its state), a finished game's after `gameFull`.
async fn streams_end_with_the_game(server: &TestServer) {
    let (game, anna, ben) = server.game(json!({"variant": "standard"})).await;
    let uri = format!("/api/board/game/stream/{game}");
    let mut live = server.stream(&uri, Some(&anna)).await;
    let full = live.next(WAIT).await.expect("gameFull");
    assert_eq!(full["type"], "gameFull");
    play_all(
        server,
        &game,
        &anna,
        &ben,
        &["f2f3", "e7e5", "g2g4", "d8h4"],
    )
    .await;
    let rest = live
        .rest(WAIT)
        .await
        .expect("the stream ends after the game");
    let last_two: Vec<Value> = rest
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .rev()
        .take(2)
        .collect();
    assert_eq!(last_two[0]["type"], "gameState", "{rest}");
    assert_eq!(last_two[0]["status"], "mate");
    assert_eq!(last_two[1]["type"], "end", "{rest}");

    for token in [None, Some(ben.as_str())] {
        let mut after = server.stream(&uri, token).await;
        let full = after.next(WAIT).await.expect("gameFull");
        assert_eq!(full["state"]["status"], "mate");
        let rest = after
            .rest(WAIT)
            .await
            .expect("a finished game's stream ends");
        assert!(rest.trim().is_empty(), "nothing after gameFull: {rest}");
    }
    // A game in play keeps its stream open.
    let (playing, _, _) = server.game(json!({"variant": "standard"})).await;
    let mut open = server
        .stream(&format!("/api/board/game/stream/{playing}"), None)
        .await;
    open.next(WAIT).await.expect("gameFull");
    assert!(open.rest(Duration::from_millis(300)).await.is_none());
}

async fn all(server: &TestServer) {
    streams_end_with_the_game(server).await;
    orthodox(server).await;
    chess960(server).await;
    from_position(server).await;
    simultaneous(server).await;
    correspondence(server).await;
    other_ends(server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lichess_fields_on_sqlite() {
    let server = TestServer::sqlite().await;
    all(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lichess_fields_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    all(&server).await;
    server.finish().await;
}
