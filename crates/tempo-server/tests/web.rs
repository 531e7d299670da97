//! The web app's side of the server: its pages and files, and the API the
//! lobby, the account page and the archive use.

mod support;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::json;
use support::TestServer;
use tempo_server::auth::{Role, User, hash_password};
use tower::ServiceExt;

async fn fetch(
    server: &TestServer,
    uri: &str,
    etag: Option<&str>,
) -> (StatusCode, Vec<(String, String)>, String) {
    let mut request = Request::builder().uri(uri);
    if let Some(tag) = etag {
        request = request.header("if-none-match", tag);
    }
    let response = server
        .router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&bytes).to_string())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> &'a str {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

#[tokio::test]
async fn pages_and_files_come_from_the_binary() {
    let server = TestServer::sqlite().await;
    for page in [
        "/",
        "/login",
        "/game/AbC123",
        "/archive",
        "/log/AbC123",
        "/arbiter",
        "/rules",
        "/tournaments",
        "/account",
    ] {
        let (status, headers, body) = fetch(&server, page, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(
            header(&headers, "content-type").starts_with("text/html"),
            "{page}"
        );
        assert!(header(&headers, "content-security-policy").contains("script-src 'self'"));
        assert!(body.contains("<html lang=\"de\">") && body.contains("/assets/app.js"));
        assert!(
            !body.contains("http://") && !body.contains("https://"),
            "nothing from elsewhere"
        );
    }
    let (status, headers, body) = fetch(&server, "/assets/app.js", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(header(&headers, "content-type").starts_with("text/javascript"));
    assert!(body.contains("import"));
    let tag = header(&headers, "etag").to_string();
    let (status, _, _) = fetch(&server, "/assets/app.js", Some(&tag)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    for missing in ["/assets/nope.js", "/nonsense", "/api/nonsense"] {
        let (status, headers, body) = fetch(&server, missing, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
        assert!(header(&headers, "content-type").starts_with("application/json"));
        assert!(body.contains("\"error\""));
    }
}

#[tokio::test]
async fn no_file_of_the_app_loads_anything_from_elsewhere() {
    for name in tempo_server::web::asset_names() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("web")
            .join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for needle in ["https://", "http://", "fonts.googleapis", "cdn."] {
            let bad = text
                .lines()
                .filter(|l| l.contains(needle) && !l.contains("http://www.w3.org/2000/svg"))
                .collect::<Vec<_>>();
            assert!(bad.is_empty(), "{name} refers to {needle}: {bad:?}");
        }
    }
}

async fn lobby(server: &TestServer) {
    let (anna, ben) = (server.token("anna").await, server.token("ben").await);
    let (status, body) = server
        .call(
            Method::POST,
            "/api/challenge/ben",
            Some(&anna),
            Some(json!({"variant": "fairschach", "clock": "300+3", "color": "black", "rules": {"pause": "capturable"}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (_, mine) = server
        .call(Method::GET, "/api/challenge", Some(&anna), None)
        .await;
    assert_eq!(mine["out"][0]["id"], id.as_str());
    assert_eq!(mine["in"], json!([]));
    let (_, theirs) = server
        .call(Method::GET, "/api/challenge", Some(&ben), None)
        .await;
    let incoming = &theirs["in"][0];
    assert_eq!(incoming["id"], id.as_str());
    assert_eq!(incoming["challenger"]["name"], "anna");
    assert_eq!(incoming["variant"]["key"], "fairschach");
    assert_eq!(incoming["clock"], "300+3");
    assert_eq!(incoming["color"], "black");
    assert_eq!(incoming["rules"]["pause"], "capturable");
    let (status, _) = server.call(Method::GET, "/api/challenge", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let (_, accepted) = server
        .call(
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            Some(&ben),
            None,
        )
        .await;
    let game = accepted["gameId"].as_str().unwrap().to_string();
    let (_, theirs) = server
        .call(Method::GET, "/api/challenge", Some(&ben), None)
        .await;
    assert_eq!(
        theirs["in"],
        json!([]),
        "an accepted challenge is no longer pending"
    );

    // A player's state lists the player's own legal choices; a
    // spectator's has none (and no hidden choice).
    let (_, state) = server
        .call(Method::GET, &format!("/api/game/{game}"), Some(&ben), None)
        .await;
    let legal = state["state"]["legal"]
        .as_array()
        .or(state["legal"].as_array())
        .expect("legal choices")
        .clone();
    assert_eq!(legal.len(), 20, "{state}");
    server.play(&game, &ben, "e2e4").await;
    let (_, state) = server
        .call(Method::GET, &format!("/api/game/{game}"), Some(&ben), None)
        .await;
    let own = if state.get("state").is_some() {
        &state["state"]
    } else {
        &state
    };
    assert_eq!(own["mine"], "e2e4");
    assert_eq!(
        own["legal"],
        json!([]),
        "nothing more to choose after committing"
    );
    let (_, public) = server
        .call(Method::GET, &format!("/api/game/{game}"), None, None)
        .await;
    let text = public.to_string();
    assert!(
        !text.contains("\"legal\"") && !text.contains("e2e4"),
        "{text}"
    );

    // The archive lists the game once it is over.
    let (_, archive) = server.call(Method::GET, "/api/games", None, None).await;
    assert_eq!(archive["games"], json!([]));
    server
        .call(
            Method::POST,
            &format!("/api/board/game/{game}/resign"),
            Some(&anna),
            None,
        )
        .await;
    let (_, archive) = server
        .call(Method::GET, "/api/games?user=Anna", None, None)
        .await;
    let listed = &archive["games"][0];
    assert_eq!(listed["gameId"], game.as_str());
    assert_eq!(listed["white"], "ben");
    assert_eq!(listed["black"], "anna");
    assert_eq!(listed["variant"], "fairschach");
    assert_eq!(listed["result"], "1-0");
    assert_eq!(listed["reason"], "resign");
    let (_, other) = server
        .call(Method::GET, "/api/games?user=carl", None, None)
        .await;
    assert_eq!(other["games"], json!([]));
    let (status, _) = server
        .call(Method::GET, "/api/games?page=x", None, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

async fn members(server: &TestServer) {
    let admin = User {
        name: "Chief".into(),
        role: Role::Admin,
    };
    let hash = hash_password("Chief-password").unwrap();
    server.state.store.add_user(&admin, &hash, 0).await.unwrap();
    let chief = server.token("Chief").await;
    let anna = server.token("anna").await;
    let (_, list) = server
        .call(Method::GET, "/api/users", Some(&anna), None)
        .await;
    let names: Vec<&str> = list["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"anna") && names.contains(&"Chief"),
        "{names:?}"
    );

    let new = json!({"username": "dora", "password": "dora-password", "role": "player"});
    let (status, body) = server
        .call(Method::POST, "/api/users", Some(&anna), Some(new.clone()))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = server
        .call(Method::POST, "/api/users", Some(&chief), Some(new.clone()))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = server
        .call(Method::POST, "/api/users", Some(&chief), Some(new))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    for (bad, why) in [
        (json!({"username": "eve", "password": "short"}), "password"),
        (
            json!({"username": "e v", "password": "long-enough"}),
            "name",
        ),
        (
            json!({"username": "eve", "password": "long-enough", "role": "king"}),
            "role",
        ),
    ] {
        let (status, body) = server
            .call(Method::POST, "/api/users", Some(&chief), Some(bad))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{why}: {body}");
    }
    let dora = server.token("dora").await;

    let (status, _) = server
        .call(
            Method::POST,
            "/api/account/password",
            Some(&dora),
            Some(json!({"old": "wrong-one", "new": "new-password"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server
        .call(
            Method::POST,
            "/api/account/password",
            Some(&dora),
            Some(json!({"old": "dora-password", "new": "short"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = server
        .call(
            Method::POST,
            "/api/account/password",
            Some(&dora),
            Some(json!({"old": "dora-password", "new": "new-password"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let login = |password: &str| json!({"username": "dora", "password": password});
    let (status, _) = server
        .call(
            Method::POST,
            "/api/token",
            None,
            Some(login("dora-password")),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = server
        .call(
            Method::POST,
            "/api/token",
            None,
            Some(login("new-password")),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // The token made with the old password ended with it.
    let (status, _) = server
        .call(Method::GET, "/api/account", Some(&dora), None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The computer opponents' names are theirs.
    let bot = json!({"username": "Bot-Nash", "password": "long-enough"});
    let (status, body) = server
        .call(Method::POST, "/api/users", Some(&chief), Some(bot))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("computer opponents")
    );
    // Open challenges are capped per member.
    for n in 0..=tempo_server::MAX_OPEN_CHALLENGES {
        let (status, body) = server
            .call(
                Method::POST,
                "/api/challenge/ben",
                Some(&anna),
                Some(json!({"variant": "standard"})),
            )
            .await;
        let expected = if n < tempo_server::MAX_OPEN_CHALLENGES {
            StatusCode::OK
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(status, expected, "challenge {n}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_api_on_sqlite() {
    let server = TestServer::sqlite().await;
    lobby(&server).await;
    members(&server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_api_on_postgres() {
    let Some(server) = TestServer::postgres().await else {
        return;
    };
    lobby(&server).await;
    members(&server).await;
    server.finish().await;
}

#[test]
fn every_asset_is_named_without_surprises() {
    let names: Vec<_> = tempo_server::web::asset_names().collect();
    assert!(
        names
            .iter()
            .all(|n| !n.contains("..") && !n.starts_with('/')),
        "{names:?}"
    );
}

#[tokio::test]
async fn a_page_asks_who_is_logged_in_without_a_failing_request() {
    let server = TestServer::sqlite().await;
    let (status, visitor) = server.call(Method::GET, "/api/me", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(visitor, json!({"username": null}));
    let login = Request::builder()
        .method(Method::POST)
        .uri("/api/session")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"username": "anna", "password": "anna-password"}).to_string(),
        ))
        .unwrap();
    let response = server.router.clone().oneshot(login).await.unwrap();
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let me = Request::builder()
        .uri("/api/me")
        .header("cookie", &cookie)
        .body(Body::empty())
        .unwrap();
    let response = server.router.clone().oneshot(me).await.unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let me: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(me["username"], "anna");
    assert!(me["csrf"].as_str().is_some_and(|c| c.len() >= 16), "{me}");
    let stale = Request::builder()
        .uri("/api/me")
        .header("cookie", "tempo_session=not-a-session")
        .body(Body::empty())
        .unwrap();
    let response = server.router.clone().oneshot(stale).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    // A public read with an ended session is a visitor's, not an error.
    let stale = Request::builder()
        .uri("/api/game/NoSuchGame")
        .header("cookie", "tempo_session=not-a-session")
        .body(Body::empty())
        .unwrap();
    let response = server.router.clone().oneshot(stale).await.unwrap();
    assert_eq!(
        response.status(),
        StatusCode::NOT_FOUND,
        "a visitor's answer, not a 401"
    );
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
}
