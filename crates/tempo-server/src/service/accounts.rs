//! Accounts: logging in (tokens and browser sessions), who a token or a
//! session names, members and their passwords.

use crate::domain::Page;
use crate::domain::accounts::{
    self, AccountError, Role, SESSION_TTL, User, check_new_name, check_password,
};
use crate::service::AppState;
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
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Argon2 takes tens of milliseconds of CPU: off the async workers.
async fn hash_off_thread(password: String) -> Result<String, AccountsError> {
    Ok(
        tokio::task::spawn_blocking(move || accounts::hash_password(&password))
            .await
            .map_err(|_| AccountsError::Busy)??,
    )
}

async fn verify_off_thread(password: String, hash: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || accounts::verify_password(&password, hash.as_deref()))
        .await
        .unwrap_or(false)
}

/// The account of a username and password (the same refusal for an
/// unknown name and a wrong password).
pub(crate) async fn login(
    store: &Store,
    username: &str,
    password: &str,
) -> Result<User, AccountsError> {
    let found = store.user(username).await?;
    let hash = found.as_ref().map(|(_, hash)| hash.clone());
    let valid = verify_off_thread(password.to_string(), hash).await;
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
    let user = state
        .store
        .token_user(&hash)
        .await?
        .ok_or(AccountsError::UnknownToken)?;
    state.tokens.put(hash, user.clone());
    Ok(user)
}

/// Revokes a token, here at once.
pub(crate) async fn revoke_token(state: &AppState, token: &str) -> Result<(), AccountsError> {
    let hash = accounts::token_hash(token);
    state.store.revoke_token(&hash).await?;
    state.tokens.forget(&hash);
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

/// Ends the session with this id.
pub(crate) async fn end_session(state: &AppState, id: &str) -> Result<(), AccountsError> {
    Ok(state
        .store
        .delete_session(&accounts::token_hash(id))
        .await?)
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
    let hash = hash_off_thread(password).await?;
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

/// The caller changes their password; every token and every session of
/// the account but `keep_session` (a session id) ends, so that whoever
/// knew the old password is out.
pub(crate) async fn change_password(
    state: &AppState,
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
    if !verify_off_thread(old, Some(hash)).await {
        return Err(AccountsError::OldPasswordWrong);
    }
    let hash = hash_off_thread(new).await?;
    state.store.set_password(&user.name, &hash).await?;
    let keep = keep_session.map(accounts::token_hash);
    for token in state.store.end_access(&user.name, keep.as_deref()).await? {
        state.tokens.forget(&token);
    }
    Ok(())
}
