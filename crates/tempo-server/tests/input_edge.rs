//! The edge of the API, on SQLite and (with `TEMPO_TEST_DATABASE_URL`)
//! PostgreSQL: a NUL byte in any path parameter, query or JSON string of
//! every endpoint of the table, with and without a login, is a 4xx —
//! never the 503 PostgreSQL's refusal of a NUL once gave; and every API
//! answer tells caches not to store it.

mod support;

use std::time::Duration;

use axum::http::{Method, StatusCode, header};
use serde_json::{Map, Value, json};
use support::{TestServer, request};
use tower::ServiceExt;

/// Real values for the path parameters, so that a request with one bad
/// parameter gets as far as it can.
struct Known {
    game: String,
    challenge: String,
    tournament: String,
}

impl Known {
    fn value(&self, path: &str, name: &str) -> String {
        match name {
            "id" if path.starts_with("/api/tournaments/") => self.tournament.clone(),
            "id" if path.starts_with("/api/challenge/") => self.challenge.clone(),
            "id" => self.game.clone(),
            "username" => "ben".into(),
            "choice" => "e2e4".into(),
            "action" if path.starts_with("/api/challenge/") => "decline".into(),
            "action" => "resign".into(),
            "answer" => "yes".into(),
            "player" | "round" => "1".into(),
            _ => "x1".into(),
        }
    }
}

async fn known(server: &TestServer) -> Known {
    let (game, anna, _) = server.game(json!({"clock": "600+5"})).await;
    let (status, body) = server
        .call(
            Method::POST,
            "/api/challenge/ben",
            Some(&anna),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let challenge = body["id"].as_str().unwrap().to_string();
    let arb = server.token("arb").await;
    let (status, body) = server
        .call(
            Method::POST,
            "/api/tournaments",
            Some(&arb),
            Some(json!({"name": "Edge", "system": "dutch", "rounds": 3})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    Known {
        game,
        challenge,
        tournament: body["id"].as_str().unwrap().to_string(),
    }
}

/// The schema `schema` refers to, in `document`.
fn resolve<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap();
            &document["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// A value of `schema` with a NUL in every string it holds.
fn with_nuls(document: &Value, schema: &Value, depth: u32) -> Value {
    let schema = resolve(document, schema);
    if depth > 4 {
        return Value::Null;
    }
    if let Some(options) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
        let last = options.iter().rfind(|o| o["type"] != "null");
        return last.map_or(Value::Null, |o| with_nuls(document, o, depth + 1));
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ if schema["properties"].is_object() => vec!["object"],
        _ => vec![],
    };
    if types.contains(&"string") || schema["enum"].is_array() {
        return json!("a\u{0}b");
    }
    if types.contains(&"object") {
        let mut object = Map::new();
        if let Some(properties) = schema["properties"].as_object() {
            for (name, property) in properties {
                object.insert(name.clone(), with_nuls(document, property, depth + 1));
            }
        } else {
            object.insert("k\u{0}".into(), json!("v\u{0}"));
        }
        return Value::Object(object);
    }
    if types.contains(&"array") {
        return json!([with_nuls(document, &schema["items"], depth + 1)]);
    }
    if types.contains(&"integer") || types.contains(&"number") {
        return json!(1);
    }
    if types.contains(&"boolean") {
        return json!(true);
    }
    Value::Null
}

async fn status(
    server: &TestServer,
    method: &Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> StatusCode {
    let req = request(method.clone(), uri, token, body);
    // Only the status is read: a stream let through never ends.
    tokio::time::timeout(Duration::from_secs(5), server.router.clone().oneshot(req))
        .await
        .unwrap_or_else(|_| panic!("{method} {uri}: no answer"))
        .unwrap()
        .status()
}

async fn every_endpoint_refuses_a_nul(server: &TestServer) {
    let known = known(server).await;
    let document = tempo_server::api::openapi();
    let callers = [
        None,
        Some(server.token("anna").await),
        Some(server.token("arb").await),
    ];
    let mut calls = 0;
    let mut wrong = Vec::new();
    for endpoint in tempo_server::api::endpoints() {
        let method = Method::from_bytes(endpoint.method.to_uppercase().as_bytes()).unwrap();
        let operation = &document["paths"][endpoint.path][endpoint.method];
        let params: Vec<&str> = endpoint
            .path
            .split('/')
            .filter_map(|part| part.strip_prefix('{')?.strip_suffix('}'))
            .collect();
        let uri = |bad: Option<(&str, &str)>| -> String {
            endpoint
                .path
                .split('/')
                .map(
                    |part| match part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                        Some(name) => match bad {
                            Some((which, value)) if which == name => value.to_string(),
                            _ => known.value(endpoint.path, name),
                        },
                        None => part.to_string(),
                    },
                )
                .collect::<Vec<_>>()
                .join("/")
        };
        let queries: Vec<&str> = operation["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["in"] == "query")
            .filter_map(|p| p["name"].as_str())
            .collect();
        let body = operation["requestBody"]["content"]["application/json"]["schema"]
            .as_object()
            .map(|_| {
                with_nuls(
                    &document,
                    &operation["requestBody"]["content"]["application/json"]["schema"],
                    0,
                )
            });
        for token in &callers {
            let token = token.as_deref();
            let mut cases: Vec<(String, Option<Value>)> = Vec::new();
            for name in &params {
                for bad in ["%00", "a%00b", "%00%00%00%00%00%00%00%00%00%00%00%00"] {
                    cases.push((uri(Some((name, bad))), None));
                }
            }
            for name in queries.iter().copied().chain(["user"]) {
                cases.push((format!("{}?{name}=a%00", uri(None)), None));
            }
            // A body with strings (not one of numbers or flags only).
            if let Some(body) = body.as_ref().filter(|b| b.to_string().contains("\\u0000")) {
                cases.push((uri(None), Some(body.clone())));
            }
            for (uri, body) in cases {
                let got = status(server, &method, &uri, token, body.clone()).await;
                calls += 1;
                if !got.is_client_error() {
                    let caller = if token.is_some() {
                        "a caller"
                    } else {
                        "nobody"
                    };
                    wrong.push(format!("{method} {uri} {body:?} by {caller}: {got}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {calls} answers not a 4xx:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(30)].join("\n")
    );
    assert!(calls > 300, "{calls} calls");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nul_anywhere_in_a_request_is_a_4xx_on_every_endpoint() {
    let server = TestServer::sqlite().await;
    every_endpoint_refuses_a_nul(&server).await;
    if let Some(server) = TestServer::postgres().await {
        every_endpoint_refuses_a_nul(&server).await;
        server.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_or_a_name_that_cannot_exist_is_not_found() {
    let server = TestServer::sqlite().await;
    let anna = server.token("anna").await;
    for (uri, token, what) in [
        ("/api/game/%E2%98%83", None, "game not found"),
        ("/api/game/a%20b", None, "game not found"),
        ("/api/tournaments/a.b", None, "tournament not found"),
        (
            "/api/challenge/x%27%3B/accept",
            Some(anna.as_str()),
            "challenge not found",
        ),
    ] {
        let method = if uri.ends_with("accept") {
            Method::POST
        } else {
            Method::GET
        };
        let (status, body) = server.call(method, uri, token, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {body}");
        assert_eq!(body["error"], what, "{uri}");
    }
    let (status, body) = server
        .call(
            Method::POST,
            &format!("/api/challenge/{}", "n".repeat(33)),
            Some(&anna),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "user not found");
}

/// The `Cache-Control` of an answer.
async fn cache_control(
    server: &TestServer,
    uri: &str,
    token: Option<&str>,
) -> (StatusCode, Option<String>) {
    let answer = server
        .router
        .clone()
        .oneshot(request(Method::GET, uri, token, None))
        .await
        .unwrap();
    let value = answer
        .headers()
        .get(header::CACHE_CONTROL)
        .map(|v| v.to_str().unwrap().to_string());
    (answer.status(), value)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_answers_are_not_stored_by_caches() {
    let server = TestServer::sqlite().await;
    let (game, anna, _) = server.game(json!({"variant": "fairschach"})).await;
    let (status, _) = server.play(&game, &anna, "e2e4").await;
    assert_eq!(status, StatusCode::OK);
    for (uri, token) in [
        ("/api/me", None),
        ("/api/account", Some(anna.as_str())),
        (&format!("/api/game/{game}") as &str, Some(anna.as_str())),
        (&format!("/api/game/{game}"), None),
        (
            &format!("/api/board/game/stream/{game}"),
            Some(anna.as_str()),
        ),
        ("/api/account/playing", Some(anna.as_str())),
        ("/api/users", Some(anna.as_str())),
        ("/api/challenge", Some(anna.as_str())),
        ("/api/users", None),
        ("/api/game/nosuchgame", None),
    ] {
        let (status, value) = cache_control(&server, uri, token).await;
        assert_eq!(value.as_deref(), Some("no-store"), "{uri}: {status}");
    }
    // The web app's files keep their own rule.
    let (status, value) = cache_control(&server, "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(value.as_deref(), Some("no-store"));
}
