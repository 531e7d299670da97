//! Browser sessions: a secure cookie, and the CSRF token every change
//! must carry; logging out ends the session.

mod support;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use support::TestServer;
use tower::ServiceExt;

async fn send(
    server: &TestServer,
    method: Method,
    uri: &str,
    cookie: Option<&str>,
    csrf: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Option<String>, Value) {
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(cookie) = cookie {
        builder = builder.header("cookie", format!("other=1; tempo_session={cookie}"));
    }
    if let Some(csrf) = csrf {
        builder = builder.header("x-csrf-token", csrf);
    }
    let request = match body {
        Some(body) => builder
            .header("content-type", "application/json")
            .body(Body::from(body.to_string())),
        None => builder.body(Body::empty()),
    }
    .unwrap();
    let response = server.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let set_cookie = response
        .headers()
        .get("set-cookie")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        set_cookie,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_session_needs_its_csrf_token_to_change_anything() {
    let server = TestServer::sqlite().await;
    let login = json!({"username": "anna", "password": "anna-password"});
    let (status, cookie, body) = send(
        &server,
        Method::POST,
        "/api/session",
        None,
        None,
        Some(login),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let cookie = cookie.expect("a session cookie");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    // A request without the connection layer's peer is plain HTTP: a
    // Secure cookie would be dropped by a browser at a LAN address.
    // (Over HTTPS it is Secure: tempo-cli's tests/serve_net.rs.)
    assert!(!cookie.contains("Secure"), "{cookie}");
    let id = cookie
        .split(';')
        .next()
        .unwrap()
        .strip_prefix("tempo_session=")
        .unwrap()
        .to_string();
    let csrf = body["csrf"].as_str().unwrap().to_string();
    assert_eq!(body["username"], "anna");

    // Reading needs the cookie only; the page can fetch its CSRF token.
    let (status, _, account) =
        send(&server, Method::GET, "/api/account", Some(&id), None, None).await;
    assert_eq!(
        (status, account["username"].clone()),
        (StatusCode::OK, json!("anna"))
    );
    let (_, _, again) = send(&server, Method::GET, "/api/session", Some(&id), None, None).await;
    assert_eq!(again["csrf"], csrf.as_str());

    // A change without the token (as another site could make the browser
    // send) is refused; with it, it is done.
    let challenge = json!({"variant": "fairschach"});
    let (status, _, _) = send(
        &server,
        Method::POST,
        "/api/challenge/ben",
        Some(&id),
        None,
        Some(challenge.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, _) = send(
        &server,
        Method::POST,
        "/api/challenge/ben",
        Some(&id),
        Some("wrong"),
        Some(challenge.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, made) = send(
        &server,
        Method::POST,
        "/api/challenge/ben",
        Some(&id),
        Some(&csrf),
        Some(challenge),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{made}");

    // Logging out ends it.
    let (status, cleared, _) = send(
        &server,
        Method::DELETE,
        "/api/session",
        Some(&id),
        Some(&csrf),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(cleared.unwrap().contains("Max-Age=0"));
    let (status, _, _) = send(&server, Method::GET, "/api/account", Some(&id), None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let wrong = json!({"username": "anna", "password": "not-her-password"});
    let (status, cookie, _) = send(
        &server,
        Method::POST,
        "/api/session",
        None,
        None,
        Some(wrong),
    )
    .await;
    assert_eq!((status, cookie), (StatusCode::UNAUTHORIZED, None));
}
