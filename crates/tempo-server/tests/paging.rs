//! The long lists come in pages (`?page=`, `?nb=`, `nextPage`): walking
//! them yields every member and every game in play once, in the order of
//! the unpaged answer; the OpenAPI document names the parameters. On
//! SQLite and (with `TEMPO_TEST_DATABASE_URL`) PostgreSQL.

mod support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use support::TestServer;
use tempo_server::auth::{Role, User, hash_password};

/// Every item of a paged list, `nb` a page, and the pages' count.
async fn walk(
    server: &TestServer,
    path: &str,
    key: &str,
    nb: u32,
    token: &str,
) -> (Vec<Value>, u32) {
    let mut items = Vec::new();
    let mut page = Some(0);
    let mut pages = 0;
    while let Some(index) = page {
        let (status, body) = server
            .call(
                Method::GET,
                &format!("{path}?nb={nb}&page={index}"),
                Some(token),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["page"], index);
        let list = body[key].as_array().unwrap();
        assert!(list.len() <= nb as usize);
        items.extend(list.iter().cloned());
        page = body["nextPage"].as_u64().map(|p| p as u32);
        if page.is_some() {
            assert_eq!(list.len(), nb as usize, "only a full page has one after it");
        }
        pages += 1;
        assert!(pages < 100, "no end");
    }
    (items, pages)
}

async fn members_are_paged(server: &TestServer) {
    let hash = hash_password("member-password").unwrap();
    for n in 0..23 {
        let user = User {
            name: format!("Member{n:02}"),
            role: Role::Player,
        };
        server.state.store.add_user(&user, &hash, 0).await.unwrap();
    }
    let anna = server.token("anna").await;
    let (status, whole) = server
        .call(Method::GET, "/api/users", Some(&anna), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(whole["nextPage"].is_null(), "{whole}");
    let all = whole["users"].as_array().unwrap().clone();
    assert_eq!(all.len(), 4 + 23);
    let (paged, pages) = walk(server, "/api/users", "users", 5, &anna).await;
    assert_eq!(pages, 6);
    assert_eq!(paged, all);
    for bad in ["nb=0", "nb=2001", "page=1000001", "page=-1", "nb=x"] {
        let (status, body) = server
            .call(Method::GET, &format!("/api/users?{bad}"), Some(&anna), None)
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["error"].is_string(), "{body}");
    }
    // Past the end: an empty page, and no next one.
    let (_, body) = server
        .call(Method::GET, "/api/users?nb=5&page=40", Some(&anna), None)
        .await;
    assert_eq!(body["users"], json!([]));
    assert!(body["nextPage"].is_null());
}

async fn games_in_play_are_paged(server: &TestServer) {
    let anna = server.token("anna").await;
    let ben = server.token("ben").await;
    for _ in 0..7 {
        let (status, body) = server
            .call(
                Method::POST,
                "/api/challenge/ben",
                Some(&anna),
                Some(json!({"clock": "600+5", "color": "white"})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let id = body["id"].as_str().unwrap();
        let (status, body) = server
            .call(
                Method::POST,
                &format!("/api/challenge/{id}/accept"),
                Some(&ben),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (_, whole) = server
        .call(Method::GET, "/api/account/playing", Some(&ben), None)
        .await;
    let all = whole["nowPlaying"].as_array().unwrap().clone();
    assert_eq!(all.len(), 7);
    assert!(whole["nextPage"].is_null());
    let ids = |list: &[Value]| -> Vec<String> {
        list.iter()
            .map(|g| g["gameId"].as_str().unwrap().to_string())
            .collect()
    };
    let (paged, pages) = walk(server, "/api/account/playing", "nowPlaying", 3, &ben).await;
    assert_eq!(pages, 3);
    assert_eq!(ids(&paged), ids(&all));
    // anna moves first in every game: her list has them all on her turn.
    let (mine, _) = walk(server, "/api/account/playing", "nowPlaying", 2, &anna).await;
    assert_eq!(mine.len(), 7);
    assert!(mine.iter().all(|g| g["isMyTurn"] == true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_member_list_and_the_games_in_play_come_in_pages() {
    let server = TestServer::sqlite().await;
    members_are_paged(&server).await;
    games_in_play_are_paged(&server).await;
    if let Some(server) = TestServer::postgres().await {
        members_are_paged(&server).await;
        games_in_play_are_paged(&server).await;
        server.finish().await;
    }
}

#[test]
fn the_openapi_document_names_the_paging_parameters() {
    let document = tempo_server::api::openapi();
    for path in ["/api/users", "/api/account/playing", "/api/games"] {
        let names: Vec<&str> = document["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: no parameters"))
            .iter()
            .filter(|p| p["in"] == "query")
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"page"), "{path}: {names:?}");
        if path != "/api/games" {
            assert!(names.contains(&"nb"), "{path}: {names:?}");
        }
    }
    for schema in ["MembersAnswer", "PlayingAnswer"] {
        let properties = &document["components"]["schemas"][schema]["properties"];
        assert!(properties["nextPage"].is_object(), "{schema}: {properties}");
    }
}
