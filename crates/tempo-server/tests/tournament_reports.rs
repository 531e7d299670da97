//! Results reported from the players' phones (issue #26), on SQLite and
//! (with `TEMPO_TEST_DATABASE_URL`) on PostgreSQL: who may report (each
//! player of the board; no other member, no director who does not play
//! there, nobody without login), agreeing reports enter the result and
//! change the standings, disagreeing ones are disputed until the director
//! decides, a one-sided report is approved by the director, corrections
//! are logged, bad input is refused with its code; reports are stored
//! (a second instance over the store sees them) and told to the streams.
//! Also the check-in statuses each system accepts.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::{TestServer, ok};
use tempo_server::AppState;
use tempo_server::auth::{Role, User, hash_password};

/// Members beyond the test server's anna, ben, carl and arb.
const MORE: [&str; 3] = ["dora", "emil", "fritz"];

/// A refusal: its status and code, and the answer is one line of JSON.
async fn refused(
    server: &TestServer,
    uri: &str,
    token: Option<&str>,
    body: Value,
    status: StatusCode,
    code: &str,
) {
    let (got, answer) = server.call(Method::POST, uri, token, Some(body)).await;
    assert_eq!(got, status, "{uri}: {answer}");
    assert_eq!(answer["code"], code, "{answer}");
    assert!(
        answer["error"].as_str().is_some_and(|e| !e.contains('\n')),
        "{answer}"
    );
}

async fn add_members(server: &TestServer) {
    for name in MORE {
        let user = User {
            name: name.into(),
            role: Role::Player,
        };
        let hash = hash_password(&format!("{name}-password")).unwrap();
        server.state.store.add_user(&user, &hash, 0).await.unwrap();
    }
}

/// Board `number` of a round as the API shows it.
fn board(round: &Value, number: u64) -> &Value {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["board"] == number)
        .expect("the board")
}

/// The username of starting rank `id` (players 1-6 are registered in
/// this order).
fn username(id: &Value) -> &'static str {
    ["anna", "ben", "dora", "emil", "fritz", "carl"][id.as_u64().unwrap() as usize - 1]
}

async fn points(server: &TestServer, id: &str) -> Vec<(String, f64)> {
    let (status, body) = server
        .call(
            Method::GET,
            &format!("/api/tournaments/{id}/standings"),
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mut rows: Vec<(String, f64)> = body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["score"].as_f64().unwrap(),
            )
        })
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows
}

async fn reports(server: &TestServer) {
    add_members(server).await;
    let arb = server.token("arb").await;
    let created = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Reports", "system": "dutch", "rounds": 3}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    // Six players, each with an account; carl is a member who plays not.
    for (i, (name, user)) in [
        ("Anna", "anna"),
        ("Ben", "ben"),
        ("Dora", "dora"),
        ("Emil", "emil"),
        ("Fritz", "fritz"),
    ]
    .iter()
    .enumerate()
    {
        let player = ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            json!({"name": name, "rating": 2000 - 100 * i, "username": user}),
        )
        .await;
        assert_eq!(player["id"], i + 1);
    }
    ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/players"),
        &arb,
        json!({"name": "Gus", "rating": 1500}),
    )
    .await;
    let round1 = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds"),
        &arb,
        Value::Null,
    )
    .await;
    assert_eq!(round1["boards"].as_array().unwrap().len(), 3);
    // Every board of the current round shows its state, open at first.
    for b in round1["boards"].as_array().unwrap() {
        assert!(b.get("report").is_none(), "{b}");
    }
    let detail = ok(
        server,
        Method::GET,
        &format!("/api/tournaments/{id}"),
        &arb,
        Value::Null,
    )
    .await;
    for b in detail["rounds"][0]["boards"].as_array().unwrap() {
        assert_eq!(b["report"]["state"], "open", "{b}");
    }
    let uri = format!("/api/tournaments/{id}/rounds/1/report");
    // Which board has Gus (no account): boards 1-3 as the pairing gave them.
    let boards: Vec<Value> = round1["boards"].as_array().unwrap().clone();
    let with_gus = boards
        .iter()
        .find(|b| b["white"] == 6 || b["black"] == 6)
        .expect("Gus plays");
    let full: Vec<&Value> = boards
        .iter()
        .filter(|b| b["white"] != 6 && b["black"] != 6)
        .collect();
    let (a, b) = (full[0], full[1]);
    let (a_no, b_no, c_no) = (
        a["board"].as_u64().unwrap(),
        b["board"].as_u64().unwrap(),
        with_gus["board"].as_u64().unwrap(),
    );
    let token = |name: &'static str| server.token(name);
    let (a_white, a_black) = (
        token(username(&a["white"])).await,
        token(username(&a["black"])).await,
    );
    let (b_white, b_black) = (
        token(username(&b["white"])).await,
        token(username(&b["black"])).await,
    );
    let c_player = if with_gus["white"] == 6 {
        &with_gus["black"]
    } else {
        &with_gus["white"]
    };
    let c_token = token(username(c_player)).await;
    let carl = token("carl").await;

    // Who may report board a: its two players only.
    let draw = json!({"board": a_no, "result": "1/2-1/2"});
    refused(
        server,
        &uri,
        None,
        draw.clone(),
        StatusCode::UNAUTHORIZED,
        "login_required",
    )
    .await;
    for other in [&carl, &arb, &b_white, &c_token] {
        refused(
            server,
            &uri,
            Some(other),
            draw.clone(),
            StatusCode::FORBIDDEN,
            "not_your_board",
        )
        .await;
    }
    // Bad input, each with its code.
    let bad = [
        (
            json!({"board": 99, "result": "1-0"}),
            StatusCode::NOT_FOUND,
            "board_not_found",
        ),
        (
            json!({"board": a_no, "result": "+-"}),
            StatusCode::BAD_REQUEST,
            "forfeit_not_reported",
        ),
        (
            json!({"board": a_no, "result": "-+"}),
            StatusCode::BAD_REQUEST,
            "forfeit_not_reported",
        ),
        (
            json!({"board": a_no, "result": "2-0"}),
            StatusCode::BAD_REQUEST,
            "bad_report_result",
        ),
        (
            json!({"board": a_no, "result": "½-½"}),
            StatusCode::BAD_REQUEST,
            "bad_report_result",
        ),
    ];
    for (body, status, code) in bad {
        refused(server, &uri, Some(&a_white), body, status, code).await;
    }
    let (status, answer) = server
        .call(
            Method::POST,
            &uri,
            Some(&a_white),
            Some(json!({"board": a_no})),
        )
        .await;
    assert!(status.is_client_error(), "{answer}");
    assert!(answer["code"].is_string(), "{answer}");
    refused(
        server,
        &format!("/api/tournaments/{id}/rounds/2/report"),
        Some(&a_white),
        draw.clone(),
        StatusCode::CONFLICT,
        "round_not_current",
    )
    .await;
    let (status, _) = server
        .call(
            Method::POST,
            "/api/tournaments/nothing/rounds/1/report",
            Some(&a_white),
            Some(draw.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A member's stream is told of each report.
    let mut carl_stream = server.stream("/api/stream/event", Some(&carl)).await;
    carl_stream.drain(Duration::from_millis(200)).await;

    // Board a: White reports a win, changes it to a draw; Black agrees.
    let first = ok(
        server,
        Method::POST,
        &uri,
        &a_white,
        json!({"board": a_no, "result": "1-0"}),
    )
    .await;
    assert_eq!(first["entered"], false);
    assert_eq!(board(&first, a_no)["report"]["state"], "reported");
    assert_eq!(board(&first, a_no)["report"]["white"], "1-0");
    assert!(board(&first, a_no)["result"].is_null());
    let event = carl_stream
        .next(Duration::from_secs(2))
        .await
        .expect("an event");
    assert_eq!(event["type"], "tournamentBoard", "{event}");
    assert_eq!(event["board"]["tournament"], id.as_str());
    assert_eq!(event["board"]["board"], a_no);
    let changed = ok(server, Method::POST, &uri, &a_white, draw.clone()).await;
    assert_eq!(board(&changed, a_no)["report"]["white"], "1/2-1/2");
    // A second instance over the same store sees the stored report.
    let other = TestServer::with_state(AppState::new(server.state.store.clone()).await.unwrap());
    let (_, seen) = other
        .call(
            Method::GET,
            &format!("/api/tournaments/{id}/rounds/1"),
            None,
            None,
        )
        .await;
    assert_eq!(board(&seen, a_no)["report"]["state"], "reported", "{seen}");
    assert_eq!(board(&seen, a_no)["report"]["white"], "1/2-1/2");
    let agreed = ok(server, Method::POST, &uri, &a_black, draw.clone()).await;
    assert_eq!(agreed["entered"], true);
    assert_eq!(board(&agreed, a_no)["result"], "1/2-1/2");
    assert_eq!(board(&agreed, a_no)["report"]["state"], "confirmed");
    // Entered: no more reports, by anyone.
    refused(
        server,
        &uri,
        Some(&a_white),
        json!({"board": a_no, "result": "1-0"}),
        StatusCode::CONFLICT,
        "board_has_result",
    )
    .await;

    // Board b: the players disagree; the director decides.
    ok(
        server,
        Method::POST,
        &uri,
        &b_white,
        json!({"board": b_no, "result": "1-0"}),
    )
    .await;
    let disputed = ok(
        server,
        Method::POST,
        &uri,
        &b_black,
        json!({"board": b_no, "result": "0-1"}),
    )
    .await;
    assert_eq!(disputed["entered"], false);
    let report = &board(&disputed, b_no)["report"];
    assert_eq!(report["state"], "disputed", "{report}");
    assert_eq!(
        (&report["white"], &report["black"]),
        (&json!("1-0"), &json!("0-1"))
    );
    assert!(board(&disputed, b_no)["result"].is_null());
    let results = format!("/api/tournaments/{id}/rounds/1/results");
    let settled = ok(
        server,
        Method::POST,
        &results,
        &arb,
        json!({"board": b_no, "result": "1-0"}),
    )
    .await;
    assert_eq!(board(&settled, b_no)["result"], "1-0");
    assert_eq!(board(&settled, b_no)["report"]["state"], "confirmed");

    // Board c: one report; the director approves it (enters it).
    ok(
        server,
        Method::POST,
        &uri,
        &c_token,
        json!({"board": c_no, "result": if with_gus["white"] == 6 { "0-1" } else { "1-0" }}),
    )
    .await;
    let round = ok(
        server,
        Method::GET,
        &format!("/api/tournaments/{id}/rounds/1"),
        &arb,
        Value::Null,
    )
    .await;
    assert_eq!(board(&round, c_no)["report"]["state"], "reported");
    let reported = board(&round, c_no)["report"]
        .as_object()
        .unwrap()
        .values()
        .find_map(|v| v.as_str().filter(|s| s.contains('-')))
        .unwrap()
        .to_string();
    ok(
        server,
        Method::POST,
        &results,
        &arb,
        json!({"board": c_no, "result": reported}),
    )
    .await;

    // Every result is in: the standings count them.
    let name = |id: &Value| {
        ["Anna", "Ben", "Dora", "Emil", "Fritz", "Gus"][id.as_u64().unwrap() as usize - 1]
            .to_string()
    };
    let mut expected = vec![
        (name(&a["white"]), 0.5),
        (name(&a["black"]), 0.5),
        (name(&b["white"]), 1.0),
        (name(&b["black"]), 0.0),
        (name(c_player), 1.0),
        ("Gus".to_string(), 0.0),
    ];
    expected.sort_by(|x, y| x.0.cmp(&y.0));
    assert_eq!(points(server, &id).await, expected);

    // A correction by the director is logged; the standings follow it.
    ok(
        server,
        Method::POST,
        &results,
        &arb,
        json!({"board": b_no, "result": "0-1"}),
    )
    .await;
    let detail = ok(
        server,
        Method::GET,
        &format!("/api/tournaments/{id}"),
        &arb,
        Value::Null,
    )
    .await;
    let log = detail["log"].as_array().unwrap();
    assert!(
        log.iter().any(|l| l["by"] == "arb"
            && l["board"] == b_no
            && l["from"] == "1-0"
            && l["to"] == "0-1"),
        "{log:?}"
    );
    // The result the players agreed is logged with their names.
    let (wa, ba) = (username(&a["white"]), username(&a["black"]));
    assert!(
        log.iter().any(|l| l["board"] == a_no
            && l["to"] == "1/2-1/2"
            && l["by"] == format!("reported by {wa} and {ba}").as_str()),
        "{log:?}"
    );
    let after = points(server, &id).await;
    assert!(after.contains(&(name(&b["black"]), 1.0)), "{after:?}");

    // Round 2 online: its games give the results, and round 1 is past.
    let round2 = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds"),
        &arb,
        json!({"online": true}),
    )
    .await;
    let online = round2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["gameId"].is_string())
        .expect("an online board");
    let online_player = token(username(&online["white"])).await;
    refused(
        server,
        &format!("/api/tournaments/{id}/rounds/2/report"),
        Some(&online_player),
        json!({"board": online["board"], "result": "1-0"}),
        StatusCode::CONFLICT,
        "online_board",
    )
    .await;
    refused(
        server,
        &uri,
        Some(&online_player),
        json!({"board": 1, "result": "1-0"}),
        StatusCode::CONFLICT,
        "round_not_current",
    )
    .await;
}

/// The check-in statuses: the tournament names those its system accepts,
/// and the API refuses the others naming the status.
async fn statuses(server: &TestServer) {
    let arb = server.token("arb").await;
    for (system, expected) in [
        (
            "keizer",
            &["present", "excused", "unexcused", "club-duty"][..],
        ),
        (
            "dutch",
            &[
                "present",
                "excused",
                "unexcused",
                "club-duty",
                "half-point-bye",
                "full-point-bye",
            ][..],
        ),
        (
            "round-robin",
            &[
                "present",
                "excused",
                "unexcused",
                "club-duty",
                "half-point-bye",
                "full-point-bye",
            ][..],
        ),
    ] {
        let created = ok(
            server,
            Method::POST,
            "/api/tournaments",
            &arb,
            json!({"name": format!("Statuses {system}"), "system": system, "rounds": 3}),
        )
        .await;
        let id = created["id"].as_str().unwrap();
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            json!({"name": "Anna"}),
        )
        .await;
        let detail = ok(
            server,
            Method::GET,
            &format!("/api/tournaments/{id}"),
            &arb,
            Value::Null,
        )
        .await;
        assert_eq!(detail["attendanceStatuses"], json!(expected), "{system}");
        for status in expected {
            ok(
                server,
                Method::POST,
                &format!("/api/tournaments/{id}/attendance"),
                &arb,
                json!({"round": 1, "player": 1, "status": status}),
            )
            .await;
        }
        if system == "keizer" {
            for status in ["half-point-bye", "full-point-bye"] {
                let (code, answer) = server
                    .call(
                        Method::POST,
                        &format!("/api/tournaments/{id}/attendance"),
                        Some(&arb),
                        Some(json!({"round": 1, "player": 1, "status": status})),
                    )
                    .await;
                assert_eq!(code, StatusCode::BAD_REQUEST, "{answer}");
                assert_eq!(answer["code"], "tournament_invalid");
                let error = answer["error"].as_str().unwrap();
                assert!(error.contains(status), "{error}");
                assert!(error.contains("club-duty"), "{error}");
            }
        }
    }
}

/// A pairing taken back takes its reports with it: the round paired
/// again starts without them.
async fn unpaired(server: &TestServer) {
    let arb = server.token("arb").await;
    let created = ok(
        server,
        Method::POST,
        "/api/tournaments",
        &arb,
        json!({"name": "Unpaired", "system": "dutch", "rounds": 3}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    for (name, user) in [("Anna", "anna"), ("Ben", "ben")] {
        ok(
            server,
            Method::POST,
            &format!("/api/tournaments/{id}/players"),
            &arb,
            json!({"name": name, "username": user}),
        )
        .await;
    }
    let rounds = format!("/api/tournaments/{id}/rounds");
    ok(server, Method::POST, &rounds, &arb, Value::Null).await;
    let anna = server.token("anna").await;
    let reported = ok(
        server,
        Method::POST,
        &format!("/api/tournaments/{id}/rounds/1/report"),
        &anna,
        json!({"board": 1, "result": "1-0"}),
    )
    .await;
    assert_eq!(board(&reported, 1)["report"]["state"], "reported");
    let ben = server.token("ben").await;
    let report = format!("/api/tournaments/{id}/rounds/1/report");
    let disputed = ok(
        server,
        Method::POST,
        &report,
        &ben,
        json!({"board": 1, "result": "0-1"}),
    )
    .await;
    assert_eq!(board(&disputed, 1)["report"]["state"], "disputed");
    ok(
        server,
        Method::DELETE,
        &format!("{rounds}/1"),
        &arb,
        Value::Null,
    )
    .await;
    ok(server, Method::POST, &rounds, &arb, Value::Null).await;
    let round = ok(
        server,
        Method::GET,
        &format!("{rounds}/1"),
        &arb,
        Value::Null,
    )
    .await;
    assert_eq!(board(&round, 1)["report"]["state"], "open", "{round}");
    // A dispute ends when a player changes their report to the other's.
    let (white, black) = if board(&round, 1)["white"] == 1 {
        (&anna, &ben)
    } else {
        (&ben, &anna)
    };
    ok(
        server,
        Method::POST,
        &report,
        white,
        json!({"board": 1, "result": "0-1"}),
    )
    .await;
    let disputed = ok(
        server,
        Method::POST,
        &report,
        black,
        json!({"board": 1, "result": "1-0"}),
    )
    .await;
    assert_eq!(board(&disputed, 1)["report"]["state"], "disputed");
    let agreed = ok(
        server,
        Method::POST,
        &report,
        black,
        json!({"board": 1, "result": "0-1"}),
    )
    .await;
    assert_eq!(agreed["entered"], true);
    assert_eq!(board(&agreed, 1)["result"], "0-1");
}

#[tokio::test]
async fn reports_on_sqlite() {
    let server = TestServer::sqlite().await;
    reports(&server).await;
    statuses(&server).await;
    unpaired(&server).await;
}

#[tokio::test]
async fn reports_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    reports(&server).await;
    statuses(&server).await;
    unpaired(&server).await;
    server.finish().await;
}
