//! Who is calling: a Bearer token or a browser's session cookie (with its
//! CSRF token on every change). The endpoint table's access layer
//! ([`super::endpoints`]) resolves the caller once and leaves it in the
//! request; the extractors here read it from there.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};

use super::codes::Code;
use super::error::ApiError;
use crate::domain::accounts::{SESSION_TTL, User};
use crate::service::AppState;
use crate::service::access::Credential;
use crate::service::accounts;
use crate::service::games::Player;
use crate::service::tables::SeatCaller;

/// The session cookie's name.
pub(crate) const SESSION_COOKIE: &str = "tempo_session";

/// The header a browser sends its session's CSRF token in, with every
/// request that changes something.
pub(crate) const CSRF_HEADER: &str = "x-csrf-token";

/// The refusal of a route that needs a caller and has none.
pub(crate) const TOKEN_NEEDED: &str = "a token is needed: POST /api/token";

/// The `Set-Cookie` value of a session (`None`: one that ends it). It is
/// `Secure` only when the request came over HTTPS (`https`): a browser
/// drops a `Secure` cookie set over plain HTTP anywhere but `localhost`,
/// so a club room served at `http://<LAN address>` could not log in.
pub(crate) fn session_cookie(id: Option<&str>, https: bool) -> String {
    let secure = if https { "; Secure" } else { "" };
    match id {
        Some(id) => format!(
            "{SESSION_COOKIE}={id}; HttpOnly{secure}; SameSite=Lax; Path=/; Max-Age={}",
            SESSION_TTL.as_secs()
        ),
        None => format!("{SESSION_COOKIE}=; HttpOnly{secure}; SameSite=Lax; Path=/; Max-Age=0"),
    }
}

/// The session id a request's cookies carry.
pub(crate) fn session_id(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_string())
        .filter(|value| !value.is_empty() && value.len() <= 128)
}

/// The Bearer token of a request, if it sent one.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim)
}

/// The credential a request carries, as [`resolve`] reads it: its Bearer
/// token, else its session cookie.
pub(crate) fn credential(headers: &HeaderMap) -> Option<Credential> {
    if headers.get(header::AUTHORIZATION).is_some() {
        return bearer(headers).map(Credential::token);
    }
    session_id(headers).map(|id| Credential::session(&id))
}

/// The caller a request names, if any: by its Bearer token, else by its
/// session cookie.
pub(crate) async fn resolve(parts: &Parts, state: &AppState) -> Result<Option<User>, ApiError> {
    if parts.headers.get(header::AUTHORIZATION).is_none() {
        return session_caller(parts, state).await;
    }
    let token = bearer(&parts.headers).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            Code::BadAuthorization,
            "Authorization: Bearer <token> expected",
        )
    })?;
    Ok(Some(accounts::token_user(state, token).await?))
}

/// The caller named by a session cookie. A request that may change
/// something (any method but GET and HEAD) must also carry the session's
/// CSRF token in [`CSRF_HEADER`]: another site can make a browser send the
/// cookie, not read the token.
async fn session_caller(parts: &Parts, state: &AppState) -> Result<Option<User>, ApiError> {
    let Some(id) = session_id(&parts.headers) else {
        return Ok(None);
    };
    let safe = matches!(parts.method, Method::GET | Method::HEAD);
    let Some((user, csrf)) = accounts::session(state, &id).await? else {
        // A read with an ended session is a visitor's (a route that needs
        // a caller still says so); a change is refused.
        if safe {
            return Ok(None);
        }
        return Err(accounts::AccountsError::SessionEnded.into());
    };
    let sent = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
    if !safe && !sent.is_some_and(|sent| constant_time_eq(sent.as_bytes(), csrf.as_bytes())) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::BadCsrf,
            format!("the {CSRF_HEADER} header is missing or wrong"),
        ));
    }
    Ok(Some(user))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A browser's session: its user and CSRF token.
#[derive(Debug, Clone)]
pub(crate) struct BrowserSession {
    pub user: User,
    pub csrf: String,
}

/// The session a request's cookie names, or why there is none.
pub(crate) async fn browser_session(
    headers: &HeaderMap,
    state: &AppState,
) -> Result<BrowserSession, ApiError> {
    let id = session_id(headers).ok_or_else(|| ApiError::unauthorized("not logged in"))?;
    let (user, csrf) = accounts::session(state, &id)
        .await?
        .ok_or(accounts::AccountsError::SessionEnded)?;
    Ok(BrowserSession { user, csrf })
}

/// The caller as the access layer resolved it.
#[derive(Debug, Clone)]
pub(super) struct Resolved(pub Option<User>);

/// The caller, named by a Bearer token or a session.
#[derive(Debug, Clone)]
pub(crate) struct Caller(pub User);

/// The caller if one is named, else nobody (for routes anyone may read).
#[derive(Debug, Clone)]
pub(crate) struct MaybeCaller(pub Option<User>);

impl FromRequestParts<AppState> for MaybeCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(Resolved(user)) = parts.extensions.get::<Resolved>() {
            return Ok(MaybeCaller(user.clone()));
        }
        resolve(parts, state).await.map(MaybeCaller)
    }
}

/// A seat token's caller as the access layer found it, on a route that
/// takes seats ([`super::endpoint::Endpoint::seat`]).
#[derive(Debug, Clone)]
pub(super) struct SeatResolved(pub SeatCaller);

/// Who plays a move: the seat of the request's seat token, else the
/// member calling (a route that takes seats).
#[derive(Debug, Clone)]
pub(crate) struct PlayAs(pub Player);

/// Who reads a game: a seat, a member or nobody (a route that takes
/// seats and is open to anyone).
#[derive(Debug, Clone)]
pub(crate) struct Viewer(pub Option<Player>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(SeatResolved(seat)) = parts.extensions.get::<SeatResolved>() {
            return Ok(Viewer(Some(Player::Seat(seat.clone()))));
        }
        let MaybeCaller(user) = MaybeCaller::from_request_parts(parts, state).await?;
        Ok(Viewer(user.map(Player::Member)))
    }
}

impl FromRequestParts<AppState> for PlayAs {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match Viewer::from_request_parts(parts, state).await? {
            Viewer(Some(player)) => Ok(PlayAs(player)),
            Viewer(None) => Err(ApiError::unauthorized(TOKEN_NEEDED)),
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match MaybeCaller::from_request_parts(parts, state).await? {
            MaybeCaller(Some(user)) => Ok(Caller(user)),
            MaybeCaller(None) => Err(ApiError::unauthorized(TOKEN_NEEDED)),
        }
    }
}

impl FromRequestParts<AppState> for BrowserSession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(session) = parts.extensions.get::<BrowserSession>() {
            return Ok(session.clone());
        }
        browser_session(&parts.headers, state).await
    }
}

#[cfg(test)]
mod tests {
    use super::session_cookie;

    #[test]
    fn the_session_cookie_is_secure_over_https_only() {
        for id in [Some("abc"), None] {
            let plain = session_cookie(id, false);
            let secure = session_cookie(id, true);
            assert!(!plain.contains("Secure"), "{plain}");
            assert!(secure.contains("; Secure;"), "{secure}");
            for cookie in [plain, secure] {
                assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
            }
        }
    }
}
