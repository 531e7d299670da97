//! Accounts: logging in (tokens and browser sessions), who a token or a
//! session names, members and their passwords. Every password hash and
//! check goes through the state's [`HashingPool`](super::hashing), and
//! every check of a caller's password through its
//! [`LoginLimits`](super::login_limits).

use std::future::Future;
use std::net::IpAddr;

use crate::domain::Page;
use crate::domain::accounts::{
    self, AccountError, Role, SESSION_TTL, User, check_new_name, check_password,
};
use crate::service::AppState;
use crate::service::access::{Credential, Ended};
use crate::service::hashing::HashingError;
use crate::service::login_limits::Limited;
use crate::storage::{Store, StoreError};

/// Why an account request is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum AccountsError {
    /// A name or password breaks the rules.
    #[error(transparent)]
    Rules(#[from] AccountError),
    #[error("wrong username or password")]
    WrongPassword,
    #[error("unknown or revoked token")]
    UnknownToken,
    #[error("the session has ended: log in again")]
    SessionEnded,
    #[error("the old password is wrong")]
    OldPasswordWrong,
    #[error("only an admin adds members")]
    NotAdmin,
    #[error("role: player, arbiter or admin")]
    BadRole,
    #[error("the name {0} is taken")]
    NameTaken(String),
    #[error("user not found")]
    NoSuchUser,
    /// The password hashing thread went away.
    #[error("try again")]
    Busy,
    /// Too many password checks from the caller's address.
    #[error("too many login attempts from this address: try again in {0} s")]
    AddressLimited(u64),
    /// Too many failed password checks on the account.
    #[error("too many failed logins for this account: try again in {0} s")]
    AccountLimited(u64),
    /// Too many password checks waiting on the server.
    #[error("too many password checks at once: try again in {0} s")]
    HashingFull(u64),
    /// An e-mail address or its language breaks the rules.
    #[error(transparent)]
    Mail(#[from] crate::domain::mail::MailError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl AccountsError {
    /// After how many seconds a refusal for load may be tried again.
    pub(crate) fn retry_after(&self) -> Option<u64> {
        match self {
            AccountsError::AddressLimited(s)
            | AccountsError::AccountLimited(s)
            | AccountsError::HashingFull(s) => Some(*s),
            _ => None,
        }
    }
}

impl From<Limited> for AccountsError {
    fn from(limited: Limited) -> AccountsError {
        match limited {
            Limited::Address(wait) => AccountsError::AddressLimited(wait.seconds()),
            Limited::Account(wait) => AccountsError::AccountLimited(wait.seconds()),
        }
    }
}

impl From<HashingError> for AccountsError {
    fn from(err: HashingError) -> AccountsError {
        match err {
            // A place frees within a hash's time.
            HashingError::Full => AccountsError::HashingFull(1),
            HashingError::Lost => AccountsError::Busy,
        }
    }
}

/// Argon2 takes tens of milliseconds of CPU and 19 MiB: off the async
/// workers, a few at once.
async fn hash_off_thread(state: &AppState, password: String) -> Result<String, AccountsError> {
    Ok(state
        .hashing
        .run(move || accounts::hash_password(&password))
        .await??)
}

async fn verify_off_thread(
    state: &AppState,
    password: String,
    hash: Option<String>,
) -> Result<bool, AccountsError> {
    Ok(state
        .hashing
        .run(move || accounts::verify_password(&password, hash.as_deref()))
        .await?)
}

/// Checks `password` against `hash` (`None`: an unknown name) for the
/// account `name`, within the limits of `address` and the account.
async fn check_within_limits(
    state: &AppState,
    address: IpAddr,
    name: &str,
    password: String,
    hash: Option<String>,
) -> Result<bool, AccountsError> {
    let attempt = state.logins.attempt(address, name)?;
    match verify_off_thread(state, password, hash).await {
        Ok(true) => {
            state.logins.succeeded(attempt);
            Ok(true)
        }
        Ok(false) => {
            state.logins.failed(attempt);
            Ok(false)
        }
        // Not checked: no failure, and nothing learnt.
        Err(err) => {
            state.logins.not_checked(attempt);
            Err(err)
        }
    }
}

/// The account of a username and password (the same refusal for an
/// unknown name and a wrong password), for a client at `address`.
pub(crate) async fn login(
    state: &AppState,
    address: IpAddr,
    username: &str,
    password: &str,
) -> Result<User, AccountsError> {
    let found = state.store.user(username).await?;
    let hash = found.as_ref().map(|(_, hash)| hash.clone());
    let valid = check_within_limits(state, address, username, password.to_string(), hash).await?;
    found
        .filter(|_| valid)
        .map(|(user, _)| user)
        .ok_or(AccountsError::WrongPassword)
}

/// A new personal token for `user` (shown once, stored as its hash).
pub(crate) async fn issue_token(state: &AppState, user: &User) -> Result<String, AccountsError> {
    let (token, hash) = accounts::new_token();
    let now = state.clock.now() as i64;
    state.store.add_token(&hash, &user.name, now).await?;
    Ok(token)
}

/// The user a token names.
pub(crate) async fn token_user(state: &AppState, token: &str) -> Result<User, AccountsError> {
    let hash = accounts::token_hash(token);
    if let Some(user) = state.tokens.get(&hash) {
        return Ok(user);
    }
    let lookup = state.tokens.lookup();
    let user = state
        .store
        .token_user(&hash, state.clock.now() as i64)
        .await?
        .ok_or(AccountsError::UnknownToken)?;
    state.tokens.put(lookup, hash, user.clone());
    Ok(user)
}

/// Revokes a token, here at once (its streams end too).
pub(crate) async fn revoke_token(state: &AppState, token: &str) -> Result<(), AccountsError> {
    let hash = accounts::token_hash(token);
    state.store.revoke_token(&hash).await?;
    state.tokens.forget(&hash);
    state.access_ends.tell(Ended::Token(hash));
    Ok(())
}

/// A browser's new session: the id for its cookie and its CSRF token.
#[derive(Debug, Clone)]
pub(crate) struct NewSession {
    pub id: String,
    pub csrf: String,
}

/// Opens a session for `user`.
pub(crate) async fn open_session(
    state: &AppState,
    user: &User,
) -> Result<NewSession, AccountsError> {
    let (id, hash, csrf) = accounts::new_session();
    let expires = state.clock.now() as i64 + SESSION_TTL.as_millis() as i64;
    state
        .store
        .add_session(&hash, &user.name, &csrf, expires)
        .await?;
    Ok(NewSession { id, csrf })
}

/// The user and CSRF token of the session with this id, if it has not
/// ended.
pub(crate) async fn session(
    state: &AppState,
    id: &str,
) -> Result<Option<(User, String)>, AccountsError> {
    let now = state.clock.now() as i64;
    Ok(state.store.session(&accounts::token_hash(id), now).await?)
}

/// Ends the session with this id (its streams end too).
pub(crate) async fn end_session(state: &AppState, id: &str) -> Result<(), AccountsError> {
    let hash = accounts::token_hash(id);
    state.store.delete_session(&hash).await?;
    state.access_ends.tell(Ended::Session(hash));
    Ok(())
}

/// A page of the club's members, by name, and whether more follow.
pub(crate) async fn members(store: &Store, page: Page) -> Result<(Vec<User>, bool), AccountsError> {
    // One more than the page shows tells whether another page follows.
    let mut users = store
        .members(i64::from(page.size) + 1, page.offset())
        .await?;
    let more = users.len() > page.size as usize;
    users.truncate(page.size as usize);
    Ok((users, more))
}

/// An admin adds a member.
pub(crate) async fn add_member(
    state: &AppState,
    admin: &User,
    username: &str,
    password: String,
    role: &str,
) -> Result<User, AccountsError> {
    if admin.role != Role::Admin {
        return Err(AccountsError::NotAdmin);
    }
    check_new_name(username)?;
    let role: Role = role.parse().map_err(|_| AccountsError::BadRole)?;
    check_password(&password)?;
    let hash = hash_off_thread(state, password).await?;
    let user = User {
        name: username.to_string(),
        role,
    };
    let now = state.clock.now() as i64;
    if !state.store.add_user(&user, &hash, now).await? {
        return Err(AccountsError::NameTaken(username.to_string()));
    }
    Ok(user)
}

/// The caller (at `address`) changes their password; every token and
/// every session of the account but `keep_session` (a session id) ends,
/// and their streams with them, so that whoever knew the old password is
/// out.
pub(crate) async fn change_password(
    state: &AppState,
    address: IpAddr,
    user: &User,
    old: String,
    new: String,
    keep_session: Option<&str>,
) -> Result<(), AccountsError> {
    let (_, hash) = state
        .store
        .user(&user.name)
        .await?
        .ok_or(AccountsError::NoSuchUser)?;
    check_password(&new)?;
    if !check_within_limits(state, address, &user.name, old, Some(hash)).await? {
        return Err(AccountsError::OldPasswordWrong);
    }
    let hash = hash_off_thread(state, new).await?;
    let keep = keep_session.map(accounts::token_hash);
    let ended = state
        .store
        .replace_password(&user.name, &hash, keep.as_deref())
        .await?;
    for token in ended {
        state.tokens.forget(&token);
    }
    state.access_ends.tell(Ended::Account {
        user: user.name.clone(),
        keep,
    });
    Ok(())
}

/// Whether `credential` still stands in the store. A store that does not
/// answer is not taken to mean an end (the next look may).
async fn stands(state: &AppState, credential: &Credential) -> bool {
    let found = match credential {
        Credential::Token(hash) => {
            let now = state.clock.now() as i64;
            state.store.token_user(hash, now).await.map(|u| u.is_some())
        }
        Credential::Session(hash) => {
            let now = state.clock.now() as i64;
            state.store.session(hash, now).await.map(|s| s.is_some())
        }
    };
    found.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "looking up a stream's credential");
        true
    })
}

/// Completes when `credential` (of `user`) ends: at once on news from
/// this instance, within [`RECHECK`](crate::service::access::RECHECK) of an end elsewhere. All the
/// credential's streams share one look in the store per period
/// ([`AccessEnds::until_ended`](crate::service::access::AccessEnds::until_ended)).
pub(crate) fn until_ended(
    state: &AppState,
    credential: Credential,
    user: String,
) -> impl Future<Output = ()> + Send + 'static {
    let looks = state.clone();
    state
        .access_ends
        .until_ended(credential, user, move |credential| {
            let state = looks.clone();
            async move { stands(&state, &credential).await }
        })
}
