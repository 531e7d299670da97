//! Tournament rounds at tables (issue #29, item 4), on SQLite and (with
//! `TEMPO_TEST_DATABASE_URL`) on PostgreSQL: `{"online":"table"}` gives
//! every board without a result a table game (members and guests) with
//! the round's clock and Chess960 position; the seats play it with their
//! tokens and its result enters the tournament by itself; an aborted
//! board gets a new table game; the next round pairs. Only a director
//! sees seat links — in the tournament, the round and the pairing list —
//! never another member, a visitor or a seat. `online: true` and `false`
//! are as before; any other value is refused naming the field.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{TestServer, ok, request};
use tower::ServiceExt;

/// The token of a seat link `/table/{gameId}/play#{token}`.
fn token_of(url: &str) -> String {
    let (path, token) = url.split_once('#').expect("a seat link carries its token");
    assert!(
        path.starts_with("/table/") && path.ends_with("/play"),
        "{url}"
    );
    assert!(token.starts_with("seat_"), "{url}");
    token.to_string()
}

/// A Dutch Chess960 tournament of three members and four guests (seven
/// players: one has the bye), one guest named as a member's username.
async fn tournament(server: &TestServer, arb: &str) -> String {
    let id = ok(
        server,
        Method::POST,
        "/api/tournaments",
        arb,
        json!({"name": "Club evening", "system": "dutch", "rounds": 3,
            "chess960": true, "clock": "600+5"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let players = [
        json!({"name": "Anna", "rating": 2000, "username": "anna"}),
        json!({"name": "Ben", "rating": 1900, "username": "ben"}),
        json!({"name": "Carl", "rating": 1800, "username": "carl"}),
        json!({"name": "Gustav Gast", "rating": 1700, "guest": true}),
        json!({"name": "Greta Gast", "rating": 1600, "guest": true}),
        json!({"name": "Arb", "rating": 1500, "guest": true}),
        json!({"name": "Hans Gast", "rating": 1400, "guest": true}),
    ];
    for player in players {
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            arb,
            player,
        )
        .await;
    }
    id
}

/// Checks that the view of `uri` as `token` (or nobody) names no seat:
/// no seat link, none of `tokens`.
async fn no_seats(server: &TestServer, uri: &str, token: Option<&str>, tokens: &[&str]) {
    let (status, body) = server.call(Method::GET, uri, token, None).await;
    let text = body.to_string();
    assert!(
        !text.contains("/play#") && !text.contains("\"seats\""),
        "{uri} shows a seat to {token:?}: {text}"
    );
    for seat in tokens {
        assert!(!text.contains(seat), "{uri} shows a token to {token:?}");
    }
    match token {
        // A seat's token is good for its game's play routes only.
        Some(t) if t.starts_with("seat_") => {
            assert_eq!(status, StatusCode::FORBIDDEN, "{uri}: {body}")
        }
        _ => assert_eq!(status, StatusCode::OK, "{uri}: {body}"),
    }
}

/// The `Cache-Control` of the QR code of `text`.
async fn qr_caching(server: &TestServer, text: &str) -> String {
    let uri = format!("/api/qr?text={}", urlencode(text));
    let response = server
        .router
        .clone()
        .oneshot(request(Method::GET, &uri, None, None))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.headers()["cache-control"]
        .to_str()
        .unwrap()
        .to_string()
}

/// `text` for a query string.
fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Waits until `board` of `round` has a result; the result.
async fn result_of(server: &TestServer, id: &str, round: u32, board: usize) -> Value {
    for _ in 0..100 {
        let (_, view) = server
            .call(
                Method::GET,
                &format!("/api/tournaments/{id}/rounds/{round}"),
                None,
                None,
            )
            .await;
        let result = view["boards"][board]["result"].clone();
        if !result.is_null() {
            return result;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Value::Null
}

async fn a_round_at_tables(server: &TestServer) {
    let arb = server.token("arb").await;
    let anna = server.token("anna").await;
    let id = tournament(server, &arb).await;
    let base = format!("/api/tournaments/{id}");

    // Another value of `online` is refused, naming the field and the values.
    for bad in [json!("tables"), json!(1), json!({"table": true}), json!("")] {
        let (status, body) = server
            .call(
                Method::POST,
                &format!("{base}/rounds"),
                Some(&arb),
                Some(json!({ "online": bad })),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(
            error.contains("online") && error.contains("\"table\"") && error.contains("true"),
            "{error}"
        );
    }
    let (_, detail) = server.call(Method::GET, &base, None, None).await;
    assert_eq!(detail["pairedRounds"], 0, "a refused pairing pairs nothing");

    let round = ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        json!({"online": "table"}),
    )
    .await;
    assert_eq!(round["mode"], "table");
    let boards = round["boards"].as_array().unwrap().clone();
    assert_eq!(boards.len(), 3, "{round}");
    assert!(
        round["bye"].is_u64(),
        "seven players: one bye, and no game for it"
    );
    let fen = round["chess960"]["fen"].as_str().unwrap().to_string();
    let mut seats = Vec::new();
    for b in &boards {
        let game = b["gameId"].as_str().expect("every board has a game");
        assert_eq!(b["display"], format!("/table/{game}"));
        let white = b["seats"]["white"].as_str().expect("the director's seats");
        let black = b["seats"]["black"].as_str().unwrap();
        assert!(white.starts_with(&format!("/table/{game}/play#")));
        assert_ne!(token_of(white), token_of(black));
        seats.push((game.to_string(), token_of(white), token_of(black)));
        // The game: the round's clock and position, its players by their
        // tournament names or accounts.
        let (status, full) = server
            .call(Method::GET, &format!("/api/game/{game}"), None, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{full}");
        assert!(full.to_string().contains(&fen), "{full} starts at {fen}");
        assert!(
            full.to_string().contains("600"),
            "{full} has the round's clock"
        );
    }
    // Members sit by their accounts, guests by their names (the guest
    // named as the arbiter's username too: they must not sit as the
    // member); a game is rated only between two members.
    let members = ["Anna", "Ben", "Carl"];
    let mut rated_boards = 0;
    for (b, (game, ..)) in boards.iter().zip(&seats) {
        let (status, table) = server
            .call(
                Method::GET,
                &format!("/api/tables/{game}"),
                Some(&arb),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{table}");
        let mut both_members = true;
        for side in ["white", "black"] {
            let name = b[format!("{side}Name")].as_str().unwrap();
            let member = members.contains(&name);
            both_members &= member;
            let seated = if member {
                name.to_lowercase()
            } else {
                name.to_string()
            };
            assert_eq!(table[side]["name"], seated, "{table}");
            assert_eq!(table[side]["member"], member, "{table}");
        }
        let (_, full) = server
            .call(Method::GET, &format!("/api/game/{game}"), None, None)
            .await;
        assert_eq!(full["rated"], both_members, "{b}: {full}");
        rated_boards += usize::from(both_members);
    }
    assert!(rated_boards < boards.len(), "a guest plays in round 1");

    // Seat links for the director only: not for another member, not for
    // a visitor, not for a seat.
    let reads = [
        base.clone(),
        format!("{base}/rounds/1"),
        format!("{base}/rounds/1/pairing-list"),
    ];
    for uri in &reads {
        let (_, as_director) = server.call(Method::GET, uri, Some(&arb), None).await;
        assert!(
            as_director.to_string().contains(&seats[0].1),
            "{uri} shows the director the seats"
        );
        let tokens: Vec<&str> = seats
            .iter()
            .flat_map(|(_, w, b)| [w.as_str(), b.as_str()])
            .collect();
        no_seats(server, uri, Some(&anna), &tokens).await;
        no_seats(server, uri, None, &tokens).await;
        no_seats(server, uri, Some(&seats[0].1), &tokens).await;
        // Everyone sees the display.
        let (_, public) = server.call(Method::GET, uri, None, None).await;
        assert!(
            public
                .to_string()
                .contains(&format!("/table/{}", seats[0].0)),
            "{uri}: {public}"
        );
    }

    // A seat's code is cached nowhere; the list's own link may be.
    let seat_link = format!(
        "http://club.example{}",
        boards[0]["seats"]["white"].as_str().unwrap()
    );
    assert_eq!(qr_caching(server, &seat_link).await, "no-store");
    let live = format!("http://club.example/tournaments/{id}/print?round=1");
    assert!(qr_caching(server, &live).await.starts_with("public"));

    // Board 1's game is aborted (from its white seat): the board stays
    // open, and the director's "games" gives it a new table game (the
    // round's mode is remembered).
    let (first, white, _) = seats[0].clone();
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{first}/abort"),
            Some(&white),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let again = ok(
        server,
        Method::POST,
        &format!("{base}/rounds/1/games"),
        &arb,
        Value::Null,
    )
    .await;
    assert!(again["boards"][0]["result"].is_null());
    let renewed = again["boards"][0]["gameId"].as_str().unwrap().to_string();
    assert_ne!(renewed, first, "a new table game for the aborted board");
    assert_eq!(again["boards"][0]["display"], format!("/table/{renewed}"));
    assert_eq!(
        again["boards"][1]["gameId"].as_str(),
        Some(seats[1].0.as_str()),
        "the running game stays"
    );
    let white = token_of(again["boards"][0]["seats"]["white"].as_str().unwrap());
    let black = token_of(again["boards"][0]["seats"]["black"].as_str().unwrap());

    // The seats play: White's first move, then Black resigns on board 1;
    // White resigns on board 2. The results enter by themselves.
    let (status, body) = server.play(&renewed, &white, "e2e4").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // A seat plays its own colour only.
    let (status, _) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{renewed}/resign"),
            Some(&seats[1].1),
            None,
        )
        .await;
    assert!(
        status.is_client_error(),
        "another game's seat cannot resign"
    );
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/board/game/{renewed}/resign"),
            Some(&black),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for (game, white, black) in &seats[1..] {
        // Resigning before one's first move would abort the game.
        for (seat, choice) in [(white, "e2e4"), (black, "e7e5")] {
            let (status, body) = server.play(game, seat, choice).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        let (status, body) = server
            .call(
                Method::POST,
                &format!("/api/board/game/{game}/resign"),
                Some(white),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    assert_eq!(result_of(server, &id, 1, 0).await, "1-0");
    assert_eq!(result_of(server, &id, 1, 1).await, "0-1");
    assert_eq!(result_of(server, &id, 1, 2).await, "0-1");
    let (_, detail) = server.call(Method::GET, &base, Some(&arb), None).await;
    assert_eq!(detail["completeRounds"], 1);
    assert!(
        !detail.to_string().contains("/play#"),
        "no seat links once every board has its result"
    );

    // The next round pairs, online as before: games for the boards of two
    // members only, no display, no seats.
    let second = ok(
        server,
        Method::POST,
        &format!("{base}/rounds"),
        &arb,
        json!({"online": true}),
    )
    .await;
    assert_eq!(second["mode"], "online");
    for b in second["boards"].as_array().unwrap() {
        let members = ["whiteName", "blackName"]
            .iter()
            .all(|side| members.contains(&b[side].as_str().unwrap()));
        assert_eq!(b["gameId"].is_string(), members, "{b}");
        assert!(b["display"].is_null() && b["seats"].is_null(), "{b}");
    }
}

/// `online: false` (and no body) pairs over the board as before.
async fn over_the_board(server: &TestServer) {
    let arb = server.token("arb").await;
    for body in [Some(json!({"online": false})), Some(json!({})), None] {
        let id = tournament(server, &arb).await;
        let (status, round) = server
            .call(
                Method::POST,
                &format!("/api/tournaments/{id}/rounds"),
                Some(&arb),
                body.clone(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body:?}: {round}");
        assert!(round["mode"].is_null(), "{round}");
        for b in round["boards"].as_array().unwrap() {
            assert!(b["gameId"].is_null() && b["display"].is_null(), "{b}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_on_sqlite() {
    let server = TestServer::sqlite().await;
    a_round_at_tables(&server).await;
    over_the_board(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    a_round_at_tables(&server).await;
    over_the_board(&server).await;
    server.finish().await;
}
