//! Every route does what the endpoint table declares of it: without
//! credentials a Token, Arbiter or Session route refuses (401) and a
//! Public or Optional one does not; with a player's token an Arbiter
//! route refuses (403), with an arbiter's it lets the caller through.

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
    let list = endpoints();
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
