//! A server over a fresh store (SQLite in a temporary directory, or a
//! fresh schema of the PostgreSQL named by `TEMPO_TEST_DATABASE_URL`),
//! driven in process through its router.

#![allow(dead_code)]

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tempo_server::AppState;
use tempo_server::auth::{Role, User, hash_password};
use tempo_server::store::Store;
use tower::ServiceExt;

/// A call that must answer 200: its JSON (`body` null: no body).
pub async fn ok(server: &TestServer, method: Method, uri: &str, token: &str, body: Value) -> Value {
    let body = (!body.is_null()).then_some(body);
    let (status, answer) = server.call(method, uri, Some(token), body).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {answer}");
    answer
}

pub struct TestServer {
    pub state: AppState,
    pub router: Router,
    _dir: Option<TempDir>,
    /// The PostgreSQL schema to drop at the end.
    schema: Option<(sqlx::AnyPool, String)>,
    /// The URL of the store (PostgreSQL), for a second instance.
    pub url: Option<String>,
}

/// A directory removed on drop.
pub struct TempDir(pub std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn unique(prefix: &str) -> String {
    format!("{prefix}{}_{:x}", std::process::id(), rand::random::<u64>())
}

impl TestServer {
    pub async fn sqlite() -> TestServer {
        let dir = TempDir(std::env::temp_dir().join(unique("tempo-server-test-")));
        let store = Store::open_dir(&dir.0).await.expect("a store");
        TestServer::over(store, Some(dir)).await
    }

    /// A server on a fresh PostgreSQL schema, or `None` (with a notice)
    /// without `TEMPO_TEST_DATABASE_URL`.
    pub async fn postgres() -> Option<TestServer> {
        let Ok(url) = std::env::var("TEMPO_TEST_DATABASE_URL") else {
            eprintln!("skipped: TEMPO_TEST_DATABASE_URL not set (PostgreSQL tests)");
            return None;
        };
        let schema = unique("t_");
        sqlx::any::install_default_drivers();
        let admin = sqlx::AnyPool::connect(&url)
            .await
            .expect("PostgreSQL at TEMPO_TEST_DATABASE_URL");
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&admin)
            .await
            .expect("a schema");
        let separator = if url.contains('?') { '&' } else { '?' };
        let scoped = format!("{url}{separator}options=-c%20search_path%3D{schema}");
        let store = Store::connect(&scoped).await.expect("the schema");
        let mut server = TestServer::over(store, None).await;
        server.schema = Some((admin, schema));
        server.url = Some(scoped);
        Some(server)
    }

    pub async fn over(store: Store, dir: Option<TempDir>) -> TestServer {
        let state = AppState::new(store).await.expect("state");
        for (name, role) in [
            ("anna", Role::Player),
            ("ben", Role::Player),
            ("carl", Role::Player),
            ("arb", Role::Arbiter),
        ] {
            let user = User {
                name: name.into(),
                role,
            };
            let hash = hash_password(&format!("{name}-password")).unwrap();
            state.store.add_user(&user, &hash, 0).await.unwrap();
        }
        TestServer {
            router: tempo_server::router(state.clone()),
            state,
            _dir: dir,
            schema: None,
            url: None,
        }
    }

    /// A second server over the same state's store (another instance).
    pub fn with_state(state: AppState) -> TestServer {
        TestServer {
            router: tempo_server::router(state.clone()),
            state,
            _dir: None,
            schema: None,
            url: None,
        }
    }

    /// The same server with mail on (`tempo serve --smtp`).
    pub fn with_mail(mut self, settings: tempo_server::mail::MailSettings) -> TestServer {
        self.state = self
            .state
            .clone()
            .with_mail(settings)
            .expect("mail settings");
        self.router = tempo_server::router(self.state.clone());
        self
    }

    /// Drops a PostgreSQL test schema.
    pub async fn finish(self) {
        if let Some((admin, schema)) = self.schema {
            let _ = sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(&admin)
                .await;
        }
    }

    /// A request; returns the status and the body as JSON (or as a string).
    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let response = self
            .router
            .clone()
            .oneshot(request(method, uri, token, body))
            .await
            .unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&bytes).to_string();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// A GET's body as text.
    pub async fn router_get_text(&self, uri: &str) -> String {
        let response = self
            .router
            .clone()
            .oneshot(request(Method::GET, uri, None, None))
            .await
            .unwrap();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8_lossy(&bytes).to_string()
    }

    pub async fn token(&self, name: &str) -> String {
        let (status, body) = self
            .call(
                Method::POST,
                "/api/token",
                None,
                Some(json!({"username": name, "password": format!("{name}-password")})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["token"].as_str().unwrap().to_string()
    }

    /// A game between anna (White) and ben, as `spec` asks.
    pub async fn game(&self, spec: Value) -> (String, String, String) {
        let (anna, ben) = (self.token("anna").await, self.token("ben").await);
        let mut spec = spec;
        spec["color"] = "white".into();
        let (status, body) = self
            .call(Method::POST, "/api/challenge/ben", Some(&anna), Some(spec))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let id = body["id"].as_str().unwrap().to_string();
        let (status, body) = self
            .call(
                Method::POST,
                &format!("/api/challenge/{id}/accept"),
                Some(&ben),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["ok"], true);
        (body["gameId"].as_str().unwrap().to_string(), anna, ben)
    }

    pub async fn play(&self, game: &str, token: &str, choice: &str) -> (StatusCode, Value) {
        self.call(
            Method::POST,
            &format!("/api/board/game/{game}/move/{choice}"),
            Some(token),
            None,
        )
        .await
    }

    /// Opens a stream; its lines come through the returned reader.
    pub async fn stream(&self, uri: &str, token: Option<&str>) -> Lines {
        self.stream_of(request(Method::GET, uri, token, None)).await
    }

    /// Opens a stream by any request (a session's cookie, say).
    pub async fn stream_of(&self, request: Request<Body>) -> Lines {
        let response = self.router.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        Lines {
            body: response.into_body(),
            buffer: String::new(),
        }
    }
}

pub fn request(
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        builder = builder.header("authorization", format!("Bearer {token}"));
    }
    match body {
        Some(body) => builder
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap(),
        None => builder.body(Body::empty()).unwrap(),
    }
}

/// The lines of a streamed body.
pub struct Lines {
    body: Body,
    buffer: String,
}

impl Lines {
    /// The next non-empty line as JSON, or `None` if none comes within
    /// `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.find('\n') {
                let line: String = self.buffer.drain(..=end).collect();
                if line.trim().is_empty() {
                    continue;
                }
                return Some(serde_json::from_str(&line).expect("a JSON line"));
            }
            let frame = tokio::time::timeout(wait, self.body.frame())
                .await
                .ok()??
                .ok()?;
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }

    /// The rest of the body as text, if it ends within `wait`; `None` if
    /// it is still open then.
    pub async fn rest(&mut self, wait: Duration) -> Option<String> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut text = std::mem::take(&mut self.buffer);
        loop {
            match tokio::time::timeout_at(deadline, self.body.frame()).await {
                Err(_) => return None,
                Ok(None) => return Some(text),
                Ok(Some(Err(_))) => return Some(text),
                Ok(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        text.push_str(&String::from_utf8_lossy(&data));
                    }
                }
            }
        }
    }

    /// Every line that comes within `wait` of the one before, as text.
    pub async fn drain(&mut self, wait: Duration) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(line) = self.next(wait).await {
            out.push(line.to_string());
        }
        out
    }
}
