//! Logging in and out: personal tokens and browser sessions.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::endpoint::{Access, Endpoint};
use super::error::{ApiError, ApiJson};
use super::extract::{BrowserSession, Caller, bearer, browser_session, session_cookie, session_id};
use super::peer::Peer;
use super::{ApiResult, Done, done};
use crate::domain::accounts::Role;
use crate::service::AppState;
use crate::service::accounts;

/// A username and password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Credentials {
    pub username: String,
    pub password: String,
}

/// A new personal token.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct TokenAnswer {
    /// Shown once: keep it.
    pub token: String,
    pub username: String,
}

/// A logged-in browser: its user and the CSRF token to send with every
/// change.
#[derive(Debug, Serialize, ToSchema)]
pub(super) struct SessionAnswer {
    pub username: String,
    pub role: Role,
    pub csrf: String,
}

/// `GET /api/me`: a browser's session, or a visitor.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub(super) enum MeAnswer {
    Browser(SessionAnswer),
    /// A visitor: `{"username": null}`.
    Visitor {
        username: Option<String>,
    },
}

impl From<BrowserSession> for SessionAnswer {
    fn from(session: BrowserSession) -> SessionAnswer {
        SessionAnswer {
            username: session.user.name,
            role: session.user.role,
            csrf: session.csrf,
        }
    }
}

/// `POST /api/token`: a personal token for a username and password
/// (rate-limited per address and per account: 429 with `Retry-After`).
async fn token(
    State(state): State<AppState>,
    peer: Peer,
    ApiJson(req): ApiJson<Credentials>,
) -> ApiResult<Json<TokenAnswer>> {
    let user = accounts::login(&state, peer.ip, &req.username, &req.password).await?;
    let token = accounts::issue_token(&state, &user).await?;
    Ok(Json(TokenAnswer {
        token,
        username: user.name,
    }))
}

/// `DELETE /api/token`: revokes the token of this request.
async fn revoke(
    State(state): State<AppState>,
    headers: HeaderMap,
    Caller(_): Caller,
) -> ApiResult<Json<Done>> {
    accounts::revoke_token(&state, bearer(&headers).unwrap_or_default()).await?;
    Ok(done())
}

/// `POST /api/session`: logs a browser in: a session cookie (HttpOnly,
/// SameSite=Lax, and Secure when the request came over HTTPS) and the CSRF
/// token the page sends back in the `x-csrf-token` header with every change.
/// Rate-limited as `POST /api/token`.
async fn login(
    State(state): State<AppState>,
    peer: Peer,
    ApiJson(req): ApiJson<Credentials>,
) -> ApiResult<Response> {
    let user = accounts::login(&state, peer.ip, &req.username, &req.password).await?;
    let session = accounts::open_session(&state, &user).await?;
    let body = Json(SessionAnswer {
        username: user.name,
        role: user.role,
        csrf: session.csrf,
    });
    let cookie = session_cookie(Some(&session.id), peer.https);
    Ok(([(header::SET_COOKIE, cookie)], body).into_response())
}

/// `GET /api/session`: the logged-in browser's name, role and CSRF token.
async fn session(session: BrowserSession) -> Json<SessionAnswer> {
    Json(session.into())
}

/// `GET /api/me`: `GET /api/session`'s answer, with a visitor instead of
/// its 401 (a page's first question, which should not fail).
async fn me(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Json<MeAnswer>> {
    match browser_session(&headers, &state).await {
        Ok(session) => Ok(Json(MeAnswer::Browser(session.into()))),
        Err(ApiError { status, .. }) if status == axum::http::StatusCode::UNAUTHORIZED => {
            Ok(Json(MeAnswer::Visitor { username: None }))
        }
        Err(refusal) => Err(refusal),
    }
}

/// `DELETE /api/session`: logs the browser out.
async fn logout(
    State(state): State<AppState>,
    peer: Peer,
    headers: HeaderMap,
    Caller(_): Caller,
) -> ApiResult<Response> {
    if let Some(id) = session_id(&headers) {
        accounts::end_session(&state, &id).await?;
    }
    Ok((
        [(header::SET_COOKIE, session_cookie(None, peer.https))],
        done(),
    )
        .into_response())
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e("post", "/api/token", "A personal token for a username and password", Public, || post(token))
            .body::<Credentials>()
            .json::<TokenAnswer>(),
        e("delete", "/api/token", "Revokes the token of this request", Token, || delete(revoke))
            .json::<Done>(),
        e(
            "post",
            "/api/session",
            "Logs a browser in: a session cookie, and the CSRF token to send in x-csrf-token with every change",
            Public,
            || post(login),
        )
        .body::<Credentials>()
        .json::<SessionAnswer>(),
        e("get", "/api/session", "The logged-in browser's name, role and CSRF token", Session, || get(session))
            .json::<SessionAnswer>(),
        e(
            "get",
            "/api/me",
            "The logged-in browser's name, role and CSRF token, or a null username for a visitor",
            Public,
            || get(me),
        )
        .json::<MeAnswer>(),
        e("delete", "/api/session", "Logs the browser out", Token, || delete(logout)).json::<Done>(),
    ]
}
