//! The API's one table: every endpoint ([`Endpoint`]). The router, the
//! access checks and `GET /api/openapi.json` are all made from it, so they
//! cannot disagree.

use std::collections::BTreeMap;

use axum::Router;
use axum::extract::{FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::Value;

use super::codes::Code;
use super::endpoint::{Access, Endpoint, JSON};
use super::error::ApiError;
use super::extract::{
    BrowserSession, Resolved, SeatResolved, TOKEN_NEEDED, bearer, browser_session, resolve,
};
use crate::domain::tables::is_seat_token;
use crate::service::AppState;
use crate::service::tables::{self, SeatCaller, SeatRefusal};

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
    list.extend(super::tables::endpoints());
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
    /// Whether a seat token may call it ([`Endpoint::seat`]).
    seat: bool,
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
    let seat_token = bearer(&parts.headers)
        .filter(|t| is_seat_token(t))
        .map(str::to_string);
    if let Some(token) = seat_token {
        match seat_access(&guard, &mut parts, &token).await {
            Ok(seat) => {
                if let Some(seat) = seat {
                    parts.extensions.insert(SeatResolved(seat));
                }
                parts.extensions.insert(Resolved(None));
            }
            Err(refusal) => return refusal.into_response(),
        }
        if let Err(refusal) = super::input::check_request(&mut parts, guard.resource).await {
            return ApiError::from(refusal).into_response();
        }
        return next.run(Request::from_parts(parts, body)).await;
    }
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

/// What a seat token (`token`) may do on the guarded route: on a route
/// that takes seats, play (or read) its own game's `{id}` while it is live
/// (`Some`: its seat); on a stream, read a game that ended as anyone may
/// (`None`); elsewhere nothing (403 if the token is known, else 401).
async fn seat_access(
    guard: &Guard,
    parts: &mut axum::http::request::Parts,
    token: &str,
) -> Result<Option<SeatCaller>, ApiError> {
    let unauthorized =
        |code, message: String| ApiError::new(axum::http::StatusCode::UNAUTHORIZED, code, message);
    if !guard.seat {
        return match tables::seat_known(&guard.state, token).await {
            Ok(true) => Err(ApiError::new(
                axum::http::StatusCode::FORBIDDEN,
                Code::SeatTokenNotHere,
                "a seat token plays its own game only: this route needs a member's token",
            )),
            Ok(false) => Err(unauthorized(
                Code::UnknownToken,
                "unknown seat token".into(),
            )),
            Err(e) => Err(e.into()),
        };
    }
    let seat = match tables::seat_caller(&guard.state, token).await {
        Ok(seat) => seat,
        // A stream of a game that has ended shows everything anyway.
        Err(SeatRefusal::GameOver) if parts.method == axum::http::Method::GET => return Ok(None),
        Err(refusal) => {
            let code = match refusal {
                SeatRefusal::Unknown => Code::UnknownToken,
                SeatRefusal::Revoked => Code::SeatRevoked,
                SeatRefusal::GameOver => Code::SeatEnded,
            };
            return Err(unauthorized(code, refusal.to_string()));
        }
    };
    let params = axum::extract::RawPathParams::from_request_parts(parts, &()).await;
    let game = params.ok().and_then(|params| {
        params
            .iter()
            .find(|(k, _)| *k == "id")
            .map(|(_, v)| v.to_string())
    });
    if game.as_deref() != Some(seat.game.as_str()) {
        return Err(ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            Code::SeatOtherGame,
            "this seat token plays another game",
        ));
    }
    Ok(Some(seat))
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
            seat: endpoint.seat,
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
