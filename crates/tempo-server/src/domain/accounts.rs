//! Accounts: users and roles, passwords (Argon2id), API tokens (stored
//! only as their SHA-256), and the extractor that names the caller.

use std::str::FromStr;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde::Serialize;
use sha2::{Digest, Sha256};
use tempo_host::chain::hex;

use crate::error::ApiError;
use crate::state::AppState;

/// What an account may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Player,
    Arbiter,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Arbiter => "arbiter",
            Role::Admin => "admin",
        }
    }

    /// Whether this role may take arbiter actions.
    pub fn is_arbiter(self) -> bool {
        matches!(self, Role::Arbiter | Role::Admin)
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Role, String> {
        match text {
            "player" => Ok(Role::Player),
            "arbiter" => Ok(Role::Arbiter),
            "admin" => Ok(Role::Admin),
            other => Err(format!("role '{other}': player, arbiter or admin")),
        }
    }
}

/// An account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    /// As registered (names compare without case).
    pub name: String,
    pub role: Role,
}

/// Why an account cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    #[error("username '{0}': 1-32 letters, digits, '_' or '-'")]
    BadName(String),
    #[error("password: 8 to 256 bytes")]
    BadPassword,
    #[error("username '{0}' is taken")]
    Taken(String),
    #[error("username '{0}': names beginning with 'bot-' belong to the computer opponents")]
    Reserved(String),
}

/// The prefix of the computer opponents' accounts (`tempo serve` makes
/// them; nobody else may take such a name).
pub const BOT_PREFIX: &str = "bot-";

/// Checks a username.
pub fn check_name(name: &str) -> Result<(), AccountError> {
    let ok = (1..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !ok {
        return Err(AccountError::BadName(name.chars().take(40).collect()));
    }
    Ok(())
}

/// Checks the name of a new account: [`check_name`], and not a computer
/// opponent's.
pub fn check_new_name(name: &str) -> Result<(), AccountError> {
    check_name(name)?;
    if name.to_ascii_lowercase().starts_with(BOT_PREFIX) {
        return Err(AccountError::Reserved(name.to_string()));
    }
    Ok(())
}

/// The Argon2id hash (PHC string) of a password.
pub fn hash_password(password: &str) -> Result<String, AccountError> {
    if !(8..=256).contains(&password.len()) {
        return Err(AccountError::BadPassword);
    }
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>()).expect("16 bytes encode");
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("Argon2id with default parameters")
        .to_string())
}

/// Whether `password` matches `hash`. Unknown users are checked against a
/// fixed hash, so that the time taken does not tell whether a name exists.
pub fn verify_password(password: &str, hash: Option<&str>) -> bool {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash_password("not a password at all").expect("valid"));
    let Ok(parsed) = PasswordHash::new(hash.unwrap_or(dummy)) else {
        return false;
    };
    let ok = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    ok && hash.is_some()
}

/// A new API token (shown once) and the hash that is stored.
pub fn new_token() -> (String, String) {
    let token = format!("tempo_{}", hex(&rand::random::<[u8; 24]>()));
    let hash = token_hash(&token);
    (token, hash)
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// How long a browser session lasts.
pub const SESSION_TTL: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "tempo_session";

/// The header a browser sends its session's CSRF token in, with every
/// request that changes something.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// A new session id (for the cookie), its stored hash, and its CSRF token.
pub fn new_session() -> (String, String, String) {
    let id = hex(&rand::random::<[u8; 32]>());
    let hash = token_hash(&id);
    (id, hash, hex(&rand::random::<[u8; 16]>()))
}

/// The `Set-Cookie` value of a session (`None`: one that ends it).
pub fn session_cookie(id: Option<&str>) -> String {
    match id {
        Some(id) => format!(
            "{SESSION_COOKIE}={id}; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age={}",
            SESSION_TTL.as_secs()
        ),
        None => format!("{SESSION_COOKIE}=; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=0"),
    }
}

/// The session id a request's cookies carry.
pub fn session_id(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_string())
        .filter(|value| !value.is_empty() && value.len() <= 128)
}

/// The caller, named by a Bearer token.
#[derive(Debug, Clone)]
pub struct Caller(pub User);

/// The caller if a valid token came, else nobody (for routes anyone may
/// read).
#[derive(Debug, Clone)]
pub struct MaybeCaller(pub Option<User>);

impl FromRequestParts<AppState> for MaybeCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(header) = parts.headers.get(axum::http::header::AUTHORIZATION) else {
            return session_caller(parts, state).await;
        };
        let token = header
            .to_str()
            .ok()
            .and_then(|h| h.strip_prefix("Bearer "))
            .ok_or_else(|| ApiError::unauthorized("Authorization: Bearer <token> expected"))?;
        let hash = token_hash(token.trim());
        if let Some(user) = state.tokens.get(&hash) {
            return Ok(MaybeCaller(Some(user)));
        }
        let user = state
            .store
            .token_user(&hash)
            .await?
            .ok_or_else(|| ApiError::unauthorized("unknown or revoked token"))?;
        state.tokens.put(hash, user.clone());
        Ok(MaybeCaller(Some(user)))
    }
}

/// The caller named by a session cookie. A request that may change
/// something (any method but GET and HEAD) must also carry the session's
/// CSRF token in [`CSRF_HEADER`]: another site can make a browser send the
/// cookie, not read the token.
async fn session_caller(parts: &Parts, state: &AppState) -> Result<MaybeCaller, ApiError> {
    let Some(id) = session_id(&parts.headers) else {
        return Ok(MaybeCaller(None));
    };
    let now = state.clock.now() as i64;
    let safe = matches!(
        parts.method,
        axum::http::Method::GET | axum::http::Method::HEAD
    );
    let Some((user, csrf)) = state.store.session(&token_hash(&id), now).await? else {
        // A read with an ended session is a visitor's (a route that needs
        // a caller still says so); a change is refused.
        if safe {
            return Ok(MaybeCaller(None));
        }
        return Err(ApiError::unauthorized(
            "the session has ended: log in again",
        ));
    };
    let sent = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
    if !safe && !sent.is_some_and(|sent| constant_time_eq(sent.as_bytes(), csrf.as_bytes())) {
        return Err(ApiError::forbidden(format!(
            "the {CSRF_HEADER} header is missing or wrong"
        )));
    }
    Ok(MaybeCaller(Some(user)))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match MaybeCaller::from_request_parts(parts, state).await? {
            MaybeCaller(Some(user)) => Ok(Caller(user)),
            MaybeCaller(None) => Err(ApiError::unauthorized("a token is needed: POST /api/token")),
        }
    }
}

/// Tokens recently seen valid, so that a request needs no query. An
/// entry lives [`TokenCache::TTL`]: a token revoked on another instance
/// stops working here within that time (at once on this one).
#[derive(Debug, Default)]
pub struct TokenCache {
    entries: std::sync::Mutex<std::collections::HashMap<String, (User, std::time::Instant)>>,
}

impl TokenCache {
    pub const TTL: std::time::Duration = std::time::Duration::from_secs(5);
    /// Entries kept at most (the cache is emptied when full).
    const ROOM: usize = 10_000;

    fn get(&self, hash: &str) -> Option<User> {
        let entries = self.entries.lock().expect("not poisoned");
        entries
            .get(hash)
            .filter(|(_, at)| at.elapsed() < TokenCache::TTL)
            .map(|(user, _)| user.clone())
    }

    fn put(&self, hash: String, user: User) {
        let mut entries = self.entries.lock().expect("not poisoned");
        if entries.len() >= TokenCache::ROOM {
            entries.clear();
        }
        entries.insert(hash, (user, std::time::Instant::now()));
    }

    /// Forgets a token (revoked).
    pub fn forget(&self, hash: &str) {
        self.entries.lock().expect("not poisoned").remove(hash);
    }
}
