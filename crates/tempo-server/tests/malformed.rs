//! Every endpoint of the OpenAPI document, fed malformed input — odd path
//! parameters, broken or mistyped bodies, with and without a token —
//! answers a clear 4xx with a one-line JSON error and a machine code of
//! the documented list: never a 500, never a hang.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use futures_util::StreamExt;
use http_body_util::BodyExt;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use support::{TestServer, request};
use tower::ServiceExt;

const ODD: &[&str] = &[
    "x",
    "0",
    "-1",
    "%00",
    "%FF",
    "%2F..%2F",
    "ä",
    "😀",
    "e2e4e2e4e2e4e2e4e2e4",
    "null",
    "'",
    "%20",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

fn odd_body(rng: &mut impl rand::Rng) -> Option<Value> {
    match rng.random_range(0..8) {
        0 => None,
        1 => Some(json!(null)),
        2 => Some(json!([1, 2, 3])),
        3 => Some(json!({"variant": 7, "clock": true})),
        4 => Some(json!({"username": ["a"], "password": {}})),
        5 => Some(json!({"action": {"kind": "teleport"}, "reason": "x"})),
        6 => Some(json!({"rules": {"pause": 3}, "chess960": -5})),
        _ => Some(json!("a string")),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_input_gets_a_clear_4xx_on_every_endpoint() {
    let server = TestServer::sqlite().await;
    let token = server.token("anna").await;
    let document = tempo_server::api::openapi();
    let paths = document["paths"].as_object().expect("paths");
    assert!(paths.len() >= 15, "{} paths", paths.len());
    let codes = error_codes(&document);
    let mut seen = std::collections::BTreeSet::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut calls = 0;
    for (path, item) in paths {
        for (method, _) in item.as_object().expect("operations") {
            for case in 0..24 {
                let uri: String = path
                    .split('/')
                    .map(|part| {
                        if part.starts_with('{') {
                            ODD[rng.random_range(0..ODD.len())].to_string()
                        } else {
                            part.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("/");
                let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
                let auth = (case % 2 == 0).then_some(token.as_str());
                let req = request(method.clone(), &uri, auth, odd_body(&mut rng));
                let answer = tokio::time::timeout(
                    Duration::from_secs(5),
                    server.router.clone().oneshot(req),
                )
                .await
                .unwrap_or_else(|_| panic!("{method} {uri}: no answer"))
                .unwrap();
                let status = answer.status();
                assert!(!status.is_server_error(), "{method} {uri}: {status}");
                calls += 1;
                if status.is_client_error() {
                    let bytes = answer.into_body().collect().await.unwrap().to_bytes();
                    let body: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
                        panic!(
                            "{method} {uri}: {status} not JSON: {}",
                            String::from_utf8_lossy(&bytes)
                        )
                    });
                    let error = body["error"].as_str().unwrap_or_default();
                    assert!(
                        !error.is_empty() && !error.contains('\n'),
                        "{method} {uri}: {body}"
                    );
                    let code = body["code"].as_str().unwrap_or_default();
                    assert!(codes.contains(&code), "{method} {uri}: {body}");
                    seen.insert(code.to_string());
                } else {
                    assert!(status == StatusCode::OK, "{method} {uri}: {status}");
                }
            }
        }
    }
    assert!(calls > 400, "{calls} calls");
    // The refusals are told apart, not all one code.
    for code in [
        "route_not_found",
        "login_required",
        "game_not_found",
        "bad_body",
    ] {
        assert!(seen.contains(code), "{code} never answered: {seen:?}");
    }
}

/// The codes the OpenAPI document lists for an error answer.
fn error_codes(document: &Value) -> Vec<&str> {
    let code = &document["components"]["schemas"]["ErrorAnswer"]["properties"]["code"];
    let name = code["$ref"].as_str().expect("a reference to the codes");
    let name = name.rsplit('/').next().unwrap();
    let codes: Vec<&str> = document["components"]["schemas"][name]["enum"]
        .as_array()
        .expect("the codes as an enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(codes.len() > 40, "{codes:?}");
    codes
}

#[tokio::test]
async fn the_openapi_document_names_every_route_of_the_contract() {
    let document = tempo_server::api::openapi();
    assert_eq!(document["openapi"], "3.1.0");
    for (method, path) in [
        ("post", "/api/token"),
        ("post", "/api/challenge/{username}"),
        ("post", "/api/challenge/{id}/accept"),
        ("get", "/api/board/game/stream/{id}"),
        ("get", "/api/stream/event"),
        ("post", "/api/board/game/{id}/move/{choice}"),
        ("get", "/api/game/{id}/log"),
        ("get", "/api/game/{id}/record"),
        ("get", "/api/game/export/{id}"),
        ("get", "/api/server-key"),
        ("get", "/api/openapi.json"),
    ] {
        assert!(
            document["paths"][path][method].is_object(),
            "{method} {path}"
        );
    }
    let server = TestServer::sqlite().await;
    let (status, served) = server
        .call(Method::GET, "/api/openapi.json", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(served, document);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_never_finishes_is_cut_off_with_a_json_408() {
    let server = TestServer::sqlite().await;
    let router =
        tempo_server::router_with_timeout(server.state.clone(), Duration::from_millis(300));
    // A body that starts and never ends (a slow or stalled client).
    let stalled = futures_util::stream::once(async {
        Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"{\"username\":"))
    })
    .chain(futures_util::stream::pending());
    let req = axum::http::Request::builder()
        .method(Method::POST)
        .uri("/api/token")
        .header("content-type", "application/json")
        .body(axum::body::Body::from_stream(stalled))
        .unwrap();
    let started = std::time::Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(5), router.oneshot(req))
        .await
        .expect("answered")
        .unwrap();
    assert_eq!(answer.status(), StatusCode::REQUEST_TIMEOUT);
    assert!(started.elapsed() < Duration::from_secs(2));
    let bytes = answer.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).expect("a JSON error");
    assert!(body["error"].is_string(), "{body}");
    assert_eq!(body["code"], "timeout", "{body}");
}
