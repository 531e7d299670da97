//! The API's one table: each endpoint's method, path, handler and what
//! its documentation says. The router and `GET /api/openapi.json` are
//! both made from it, so they cannot disagree.

use std::collections::BTreeMap;

use axum::Router;
use axum::routing::{MethodRouter, delete, get, post};
use serde_json::{Value, json};

use crate::state::AppState;
use crate::{arbiter_calc, lobby, routes};

/// Who may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone.
    Public,
    /// Anyone; a token shows the caller's own view.
    Optional,
    /// A token is needed.
    Token,
    /// A token of an arbiter or admin.
    Arbiter,
}

/// One endpoint.
pub struct Endpoint {
    pub method: &'static str,
    pub path: &'static str,
    pub summary: &'static str,
    pub access: Access,
    /// The JSON schema of the request body, if it takes one.
    pub body: Option<fn() -> Value>,
    /// The content type of a successful answer.
    pub answer: &'static str,
    pub(crate) handler: fn() -> MethodRouter<AppState>,
}

impl Endpoint {
    /// One row of the table (the endpoint tables' one constructor).
    pub(crate) fn new(
        method: &'static str,
        path: &'static str,
        summary: &'static str,
        access: Access,
        body: Option<fn() -> Value>,
        answer: &'static str,
        handler: fn() -> MethodRouter<AppState>,
    ) -> Endpoint {
        Endpoint {
            method,
            path,
            summary,
            access,
            body,
            answer,
            handler,
        }
    }
}

const JSON: &str = "application/json";
const NDJSON: &str = "application/x-ndjson";

/// Every endpoint of the API.
pub fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    let mut list = vec![
        e(
            "post",
            "/api/token",
            "A personal token for a username and password",
            Public,
            Some(token_body),
            JSON,
            || post(routes::token),
        ),
        e(
            "delete",
            "/api/token",
            "Revokes the token of this request",
            Token,
            None,
            JSON,
            || delete(routes::revoke),
        ),
        e(
            "post",
            "/api/session",
            "Logs a browser in: a session cookie, and the CSRF token to send in x-csrf-token with every change",
            Public,
            Some(token_body),
            JSON,
            || post(routes::login),
        ),
        e(
            "get",
            "/api/session",
            "The logged-in browser's name, role and CSRF token",
            Public,
            None,
            JSON,
            || get(routes::session),
        ),
        e(
            "get",
            "/api/me",
            "The logged-in browser's name, role and CSRF token, or a null username for a visitor",
            Public,
            None,
            JSON,
            || get(lobby::whoami),
        ),
        e(
            "delete",
            "/api/session",
            "Logs the browser out",
            Token,
            None,
            JSON,
            || delete(routes::logout),
        ),
        e(
            "get",
            "/api/account/playing",
            "The caller's unfinished games, those awaiting the caller's move first, with deadlines",
            Token,
            None,
            JSON,
            || get(routes::playing),
        ),
        e(
            "get",
            "/api/account",
            "The caller's name and role",
            Token,
            None,
            JSON,
            || get(routes::account),
        ),
        e(
            "get",
            "/api/challenge",
            "The caller's pending challenges: in (to the caller) and out (from the caller)",
            Token,
            None,
            JSON,
            || get(lobby::challenges),
        ),
        e(
            "post",
            "/api/account/password",
            "Changes the caller's password: old, new (8+ characters)",
            Token,
            Some(password_body),
            JSON,
            || post(lobby::change_password),
        ),
        e(
            "get",
            "/api/users",
            "The club's members (name and role)",
            Token,
            None,
            JSON,
            || get(lobby::members),
        ),
        e(
            "post",
            "/api/users",
            "An admin adds a member: username, password (8+ characters), role",
            Token,
            Some(new_user_body),
            JSON,
            || post(lobby::add_member),
        ),
        e(
            "get",
            "/api/games",
            "Finished games, newest first, 50 a page (?user=name, ?page=0)",
            Public,
            None,
            JSON,
            || get(lobby::finished),
        ),
        e(
            "post",
            "/api/challenge/{username}",
            "Challenges a user to a game",
            Token,
            Some(challenge_body),
            JSON,
            || post(routes::challenge),
        ),
        e(
            "post",
            "/api/challenge/{id}/accept",
            "Accepts a challenge; the game starts",
            Token,
            None,
            JSON,
            || post(routes::accept),
        ),
        e(
            "post",
            "/api/challenge/{id}/{action}",
            "Declines (the challenged) or cancels (the challenger) a challenge: action decline or cancel",
            Token,
            None,
            JSON,
            || post(routes::close),
        ),
        e(
            "get",
            "/api/board/game/stream/{id}",
            "The game as NDJSON: gameFull, then each entry with the log's head and the state after it",
            Optional,
            None,
            NDJSON,
            || get(routes::game_stream),
        ),
        e(
            "post",
            "/api/board/game/{id}/move/{choice}",
            "A move, or the hidden commit of a step (UCI; x + UCI or - in an exchange step)",
            Token,
            None,
            JSON,
            || post(routes::play),
        ),
        e(
            "post",
            "/api/board/game/{id}/draw/{answer}",
            "Offers or accepts (yes) or declines (no) a draw",
            Token,
            None,
            JSON,
            || post(routes::draw),
        ),
        e(
            "post",
            "/api/board/game/{id}/{action}",
            "resign, abort or claim-draw",
            Token,
            None,
            JSON,
            || post(routes::game_action),
        ),
        e(
            "get",
            "/api/game/{id}",
            "The game as the caller may see it",
            Optional,
            None,
            JSON,
            || get(routes::game),
        ),
        e(
            "get",
            "/api/game/{id}/log",
            "The game's hash-chained log as NDJSON, then the server's signature on its head",
            Public,
            None,
            NDJSON,
            || get(routes::log),
        ),
        e(
            "get",
            "/api/game/export/{id}",
            "The game as PGN",
            Public,
            None,
            "application/x-chess-pgn",
            || get(routes::export),
        ),
        e(
            "post",
            "/api/game/{id}/arbiter",
            "An arbiter's action, logged with name and reason",
            Arbiter,
            Some(arbiter_body),
            JSON,
            || post(routes::arbiter),
        ),
        e(
            "post",
            "/api/arbiter/clock-reset",
            "The clock correction after a late-discovered illegal move (tempo arbiter clock-reset), with the steps (2)-(4) and formula (5)",
            Public,
            Some(arbiter_calc::body_schema),
            JSON,
            || post(arbiter_calc::clock_reset),
        ),
        e(
            "get",
            "/api/server-key",
            "The ed25519 key that signs log heads",
            Public,
            None,
            JSON,
            || get(routes::server_key),
        ),
        e(
            "get",
            "/api/stream/event",
            "The caller's challenges and game starts as NDJSON",
            Token,
            None,
            NDJSON,
            || get(routes::event_stream),
        ),
        e(
            "get",
            "/api/openapi.json",
            "This document",
            Public,
            None,
            JSON,
            || get(openapi_route),
        ),
        e(
            "get",
            "/healthz",
            "ok when the store answers",
            Public,
            None,
            "text/plain",
            || get(routes::healthz),
        ),
        e(
            "get",
            "/metrics",
            "Counters in Prometheus text format",
            Public,
            None,
            "text/plain",
            || get(routes::metrics),
        ),
    ];
    list.extend(crate::tournaments::routes::endpoints());
    list
}

/// The routes of [`endpoints`] (one method router per path).
pub fn routes() -> Router<AppState> {
    let mut by_path: BTreeMap<&str, MethodRouter<AppState>> = BTreeMap::new();
    for endpoint in endpoints() {
        let handler = (endpoint.handler)();
        let merged = match by_path.remove(endpoint.path) {
            Some(existing) => existing.merge(handler),
            None => handler,
        };
        by_path.insert(endpoint.path, merged);
    }
    by_path
        .into_iter()
        .fold(Router::new(), |router, (path, handler)| {
            router.route(path, handler)
        })
}

async fn openapi_route() -> axum::Json<Value> {
    axum::Json(openapi())
}

/// The OpenAPI 3.1 document of the API.
pub fn openapi() -> Value {
    let mut paths = serde_json::Map::new();
    for endpoint in endpoints() {
        let parameters: Vec<Value> = endpoint
            .path
            .split('/')
            .filter_map(|part| part.strip_prefix('{')?.strip_suffix('}'))
            .map(|name| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}))
            .collect();
        let mut operation = json!({
            "summary": endpoint.summary,
            "parameters": parameters,
            "responses": {
                "200": {"description": "done", "content": {endpoint.answer: {}}},
                "4XX": {"description": "refused", "content": {JSON: {"schema": {"$ref": "#/components/schemas/Error"}}}},
            },
        });
        match endpoint.access {
            Access::Token | Access::Arbiter => operation["security"] = json!([{"bearer": []}]),
            Access::Optional => operation["security"] = json!([{}, {"bearer": []}]),
            Access::Public => {}
        }
        if endpoint.access == Access::Arbiter {
            operation["description"] = "Arbiter or admin role.".into();
        }
        if let Some(schema) = endpoint.body {
            operation["requestBody"] =
                json!({"required": true, "content": {JSON: {"schema": schema()}}});
        }
        let item = paths.entry(endpoint.path).or_insert_with(|| json!({}));
        item[endpoint.method] = operation;
    }
    json!({
        "openapi": "3.1.0",
        "info": {"title": "tempo play server", "version": env!("CARGO_PKG_VERSION")},
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}},
        },
    })
}

fn password_body() -> Value {
    json!({"type": "object", "required": ["old", "new"], "properties": {
        "old": {"type": "string"}, "new": {"type": "string"}}})
}

fn new_user_body() -> Value {
    json!({"type": "object", "required": ["username", "password"], "properties": {
        "username": {"type": "string"}, "password": {"type": "string"},
        "role": {"enum": ["player", "arbiter", "admin"]}}})
}

fn token_body() -> Value {
    json!({"type": "object", "additionalProperties": false, "required": ["username", "password"],
        "properties": {"username": {"type": "string"}, "password": {"type": "string"}}})
}

fn challenge_body() -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": {
        "variant": {"enum": ["standard", "chess960", "synchronschach", "fairschach"]},
        "clock": {"type": "string", "description": "PGN TimeControl; omitted: untimed"},
        "color": {"enum": ["white", "black", "random"]},
        "fen": {"type": "string"},
        "chess960": {"type": "integer", "minimum": 0, "maximum": 959},
        "rules": {"type": "object", "additionalProperties": {"type": "string"},
            "description": "the variant's options as tempo sync takes them"},
    }})
}

fn arbiter_body() -> Value {
    let color = json!({"enum": ["white", "black"]});
    json!({"type": "object", "additionalProperties": false, "required": ["action", "reason"], "properties": {
        "reason": {"type": "string", "maxLength": 500},
        "action": {"oneOf": [
            {"type": "object", "required": ["kind"], "properties": {"kind": {"enum": ["pause", "resume"]}}},
            {"type": "object", "required": ["kind", "color", "millis"], "properties": {"kind": {"enum": ["setClock", "addTime"]}, "color": color, "millis": {"type": "integer"}}},
            {"type": "object", "required": ["kind", "offender"], "properties": {"kind": {"const": "penalty"}, "offender": color}},
            {"type": "object", "required": ["kind", "step", "clock"], "properties": {"kind": {"const": "restore"}, "step": {"type": "integer", "minimum": 0}, "clock": {"enum": ["exact", "proportional", "keep"]}}},
            {"type": "object", "required": ["kind", "result"], "properties": {"kind": {"const": "setResult"}, "result": {"enum": ["1-0", "0-1", "1/2-1/2", "*"]}}},
        ]},
    }})
}
