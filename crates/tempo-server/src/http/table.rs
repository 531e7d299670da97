//! The API's one table: every endpoint ([`Endpoint`]). The router, the
//! access checks and `GET /api/openapi.json` are all made from it, so they
//! cannot disagree.

use std::collections::BTreeMap;

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::Value;

use super::endpoint::{Access, Endpoint, JSON};
use super::error::ApiError;
use super::extract::{BrowserSession, Resolved, TOKEN_NEEDED, browser_session, resolve};
use crate::service::AppState;

/// Every endpoint of the API.
pub fn endpoints() -> Vec<Endpoint> {
    let mut list = Vec::new();
    list.extend(super::session::endpoints());
    list.extend(super::account::endpoints());
    list.extend(super::users::endpoints());
    list.extend(super::games::archive_endpoints());
    list.extend(super::lobby::endpoints());
    list.extend(super::challenges::endpoints());
    list.extend(super::board::endpoints());
    list.extend(super::bot::endpoints());
    list.extend(super::games::endpoints());
    list.extend(super::arbiter::endpoints());
    list.extend(super::stream::endpoints());
    list.extend(super::ops::endpoints());
    list.push(
        Endpoint::new(
            "get",
            "/api/openapi.json",
            "This document",
            Access::Public,
            || get(serve_openapi),
        )
        .content(JSON),
    );
    list.extend(super::tournaments::endpoints());
    list.extend(super::ratings::endpoints());
    list.extend(super::printouts::endpoints());
    list
}

/// What the access layer of one endpoint checks.
#[derive(Clone)]
struct Guard {
    state: AppState,
    access: Access,
    forbidden: &'static str,
    /// What an `{id}` in the endpoint's path names.
    resource: &'static str,
}

/// What an `{id}` in `path` names, for a "not found" answer.
fn resource_of(path: &str) -> &'static str {
    if path.starts_with("/api/tournaments/") {
        "tournament"
    } else if path.starts_with("/api/challenge/") {
        "challenge"
    } else {
        "game"
    }
}

/// Enforces an endpoint's [`Access`] before its handler runs, and leaves
/// the caller it found in the request for the handler's extractors; then
/// checks the path's parameters and query ([`super::input`]).
async fn guard(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    match guard.access {
        Access::Public => {}
        Access::Session => match browser_session(&parts.headers, &guard.state).await {
            Ok(session) => {
                parts.extensions.insert::<BrowserSession>(session);
            }
            Err(refusal) => return refusal.into_response(),
        },
        Access::Optional | Access::Token | Access::Arbiter => {
            let user = match resolve(&parts, &guard.state).await {
                Ok(user) => user,
                Err(refusal) => return refusal.into_response(),
            };
            let refusal = match (&user, guard.access) {
                (None, Access::Token | Access::Arbiter) => {
                    Some(ApiError::unauthorized(TOKEN_NEEDED))
                }
                (Some(user), Access::Arbiter) if !user.role.is_arbiter() => {
                    Some(ApiError::forbidden(guard.forbidden))
                }
                _ => None,
            };
            if let Some(refusal) = refusal {
                return refusal.into_response();
            }
            parts.extensions.insert(Resolved(user));
        }
    }
    if let Err(refusal) = super::input::check_request(&mut parts, guard.resource).await {
        return ApiError::from(refusal).into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

/// The routes of [`endpoints`] over `state` (one method router per path,
/// each method behind its access layer).
pub(crate) fn routes(state: &AppState) -> Router<AppState> {
    let mut by_path: BTreeMap<&str, MethodRouter<AppState>> = BTreeMap::new();
    for endpoint in endpoints() {
        let checks = Guard {
            state: state.clone(),
            access: endpoint.access,
            forbidden: endpoint.forbidden,
            resource: resource_of(endpoint.path),
        };
        let handler =
            (endpoint.handler)().route_layer(axum::middleware::from_fn_with_state(checks, guard));
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
        .layer(axum::middleware::map_response(no_store))
}

/// Every answer of the API that does not choose its own caching is not
/// stored by browsers or proxies: most carry a member's private data
/// (`/api/me`, a player's view of a game with their hidden move, their
/// challenges), and a shared cache must never hand one to someone else.
async fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .entry(axum::http::header::CACHE_CONTROL)
        .or_insert(axum::http::HeaderValue::from_static("no-store"));
    response
}

/// The OpenAPI 3.1 document of the API.
pub fn openapi() -> Value {
    super::openapi::document(&endpoints())
}

/// `GET /api/openapi.json`.
async fn serve_openapi() -> axum::Json<Value> {
    axum::Json(openapi())
}
