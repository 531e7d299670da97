//! Every route does what the endpoint table declares of it: without
//! credentials a Token, Arbiter or Session route refuses (401) and a
//! Public or Optional one does not; with a player's token an Arbiter
//! route refuses (403), with an arbiter's it lets the caller through. A
//! table game's seat token is refused by every route but the ones its
//! row marks as taking seats (403 known, 401 unknown), and there for any
//! game but its own (403).

mod support;

use axum::http::{Method, StatusCode};
use serde_json::json;
use support::{TestServer, request};
use tempo_server::api::{Access, endpoints};
use tower::ServiceExt;

/// The path with each `{parameter}` filled in.
fn uri(path: &str) -> String {
    path.split('/')
        .map(|part| if part.starts_with('{') { "x1" } else { part })
        .collect::<Vec<_>>()
        .join("/")
}

async fn status(server: &TestServer, method: &str, path: &str, token: Option<&str>) -> StatusCode {
    let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
    let body = (method == Method::POST).then(|| json!({}));
    let req = request(method, &uri(path), token, body);
    // Only the status is read: a stream that is let through never ends.
    server.router.clone().oneshot(req).await.unwrap().status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_enforces_the_access_its_row_declares() {
    let server = TestServer::sqlite().await;
    let player = server.token("anna").await;
    let arbiter = server.token("arb").await;
    let (code, table) = server
        .call(
            Method::POST,
            "/api/tables",
            Some(&player),
            Some(json!({"white": {"name": "Kim"}, "black": {"name": "Lee"}})),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{table}");
    let seat = table["seats"]["white"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let unknown_seat = format!("seat_{}", "0".repeat(64));
    let list = endpoints();
    let seat_routes: Vec<_> = list
        .iter()
        .filter(|e| e.seat)
        .map(|e| (e.method, e.path))
        .collect();
    assert_eq!(
        seat_routes,
        [
            ("post", "/api/board/game/{id}/move/{choice}"),
            ("post", "/api/board/game/{id}/draw/{answer}"),
            ("post", "/api/board/game/{id}/{action}"),
            ("get", "/api/board/game/stream/{id}"),
        ],
        "the routes a seat token may call"
    );
    assert!(list.len() > 40, "{} endpoints", list.len());
    for e in &list {
        let anonymous = status(&server, e.method, e.path, None).await;
        let needs_caller = matches!(e.access, Access::Token | Access::Arbiter | Access::Session);
        assert_eq!(
            anonymous == StatusCode::UNAUTHORIZED,
            needs_caller,
            "{} {} ({:?}) without credentials: {anonymous}",
            e.method,
            e.path,
            e.access
        );
        // A seat token: only for its own game (the path's `{id}` here is
        // another), and on no other route at all.
        let as_seat = status(&server, e.method, e.path, Some(&seat)).await;
        assert_eq!(
            as_seat,
            StatusCode::FORBIDDEN,
            "{} {} with a seat token",
            e.method,
            e.path
        );
        let as_unknown_seat = status(&server, e.method, e.path, Some(&unknown_seat)).await;
        assert_eq!(
            as_unknown_seat,
            StatusCode::UNAUTHORIZED,
            "{} {} with an unknown seat token",
            e.method,
            e.path
        );
        if e.access == Access::Arbiter {
            let as_player = status(&server, e.method, e.path, Some(&player)).await;
            assert_eq!(
                as_player,
                StatusCode::FORBIDDEN,
                "{} {} as a player",
                e.method,
                e.path
            );
            let as_arbiter = status(&server, e.method, e.path, Some(&arbiter)).await;
            assert!(
                !matches!(as_arbiter, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN),
                "{} {} as an arbiter: {as_arbiter}",
                e.method,
                e.path
            );
        }
    }
}
