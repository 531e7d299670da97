//! Accounts: users and roles, the rules of names and passwords
//! (Argon2id), API tokens and session ids (stored only as their SHA-256).

use std::str::FromStr;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use serde::Serialize;
use sha2::{Digest, Sha256};
use tempo_host::chain::hex;

/// What an account may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
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

/// A role's name that is none of the three.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("role '{0}': player, arbiter or admin")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(text: &str) -> Result<Role, UnknownRole> {
        match text {
            "player" => Ok(Role::Player),
            "arbiter" => Ok(Role::Arbiter),
            "admin" => Ok(Role::Admin),
            other => Err(UnknownRole(other.to_string())),
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
    #[error(
        "username '{0}': the name of a route (/api/challenge/open), so it could not be challenged"
    )]
    RouteName(String),
}

/// The prefix of the computer opponents' accounts (`tempo serve` makes
/// them; nobody else may take such a name).
pub const BOT_PREFIX: &str = "bot-";

/// Checks a username.
pub(crate) fn check_name(name: &str) -> Result<(), AccountError> {
    let ok = (1..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !ok {
        return Err(AccountError::BadName(name.chars().take(40).collect()));
    }
    Ok(())
}

/// Names that a route takes where a username would stand
/// (`POST /api/challenge/{username}` beside `/api/challenge/open`): a
/// member so named could not be challenged.
const ROUTE_NAMES: [&str; 1] = ["open"];

/// Checks the name of a new account: [`check_name`], not a computer
/// opponent's and not a route's.
pub fn check_new_name(name: &str) -> Result<(), AccountError> {
    check_name(name)?;
    let lower = name.to_ascii_lowercase();
    if lower.starts_with(BOT_PREFIX) {
        return Err(AccountError::Reserved(name.to_string()));
    }
    if ROUTE_NAMES.contains(&lower.as_str()) {
        return Err(AccountError::RouteName(name.to_string()));
    }
    Ok(())
}

/// A password's length in bytes.
pub(crate) const PASSWORD_BYTES: std::ops::RangeInclusive<usize> = 8..=256;

/// Checks a password's length (before the slow hash is made).
pub(crate) fn check_password(password: &str) -> Result<(), AccountError> {
    if PASSWORD_BYTES.contains(&password.len()) {
        Ok(())
    } else {
        Err(AccountError::BadPassword)
    }
}

/// The Argon2id hash (PHC string) of a password.
pub fn hash_password(password: &str) -> Result<String, AccountError> {
    check_password(password)?;
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>()).expect("16 bytes encode");
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("Argon2id with default parameters")
        .to_string())
}

/// Whether `password` matches `hash`. Unknown users are checked against a
/// fixed hash, so that the time taken does not tell whether a name exists.
pub(crate) fn verify_password(password: &str, hash: Option<&str>) -> bool {
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
pub(crate) fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// How long a browser session lasts.
pub(crate) const SESSION_TTL: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);

/// A new session id (for the cookie), its stored hash, and its CSRF token.
pub(crate) fn new_session() -> (String, String, String) {
    let id = hex(&rand::random::<[u8; 32]>());
    let hash = token_hash(&id);
    (id, hash, hex(&rand::random::<[u8; 16]>()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_name_is_neither_a_bots_nor_a_routes() {
        assert_eq!(check_new_name("anna"), Ok(()));
        assert_eq!(check_new_name("opener"), Ok(()));
        assert!(matches!(
            check_new_name("Bot-x"),
            Err(AccountError::Reserved(_))
        ));
        for name in ["open", "OPEN", "Open"] {
            assert_eq!(
                check_new_name(name),
                Err(AccountError::RouteName(name.into()))
            );
        }
    }
}
