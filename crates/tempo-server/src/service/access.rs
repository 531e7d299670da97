//! The credential a request was made with (a token, a browser session),
//! and how a stream opened with one learns that it has ended: at once when
//! it ends on this instance (revoked, logged out, the password changed),
//! and by asking the store every [`RECHECK`] when it ended elsewhere
//! (another instance on the same PostgreSQL, an expired session).

use std::future::Future;
use std::time::Duration;

use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use crate::domain::accounts;
use crate::service::AppState;

/// How often a stream's credential is looked up again in the store.
pub const RECHECK: Duration = Duration::from_secs(5);

/// What a request was made with, by its stored hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Credential {
    Token(String),
    Session(String),
}

impl Credential {
    /// The credential of a Bearer token.
    pub(crate) fn token(token: &str) -> Credential {
        Credential::Token(accounts::token_hash(token))
    }

    /// The credential of a session id (the cookie's value).
    pub(crate) fn session(id: &str) -> Credential {
        Credential::Session(accounts::token_hash(id))
    }
}

/// Credentials that ended on this instance.
#[derive(Debug, Clone)]
pub(crate) enum Ended {
    Token(String),
    Session(String),
    /// Every token and session of an account, but the session `keep`.
    Account {
        user: String,
        keep: Option<String>,
    },
}

impl Ended {
    /// Whether `credential`, used by `user`, is among these.
    fn covers(&self, credential: &Credential, user: &str) -> bool {
        match (self, credential) {
            (Ended::Token(ended), Credential::Token(hash)) => ended == hash,
            (Ended::Session(ended), Credential::Session(hash)) => ended == hash,
            (Ended::Account { user: ended, keep }, credential) => {
                ended.eq_ignore_ascii_case(user)
                    && !matches!(credential, Credential::Session(hash) if Some(hash) == keep.as_ref())
            }
            _ => false,
        }
    }
}

/// Tells streams on this instance which credentials ended.
#[derive(Debug)]
pub struct AccessEnds {
    sender: broadcast::Sender<Ended>,
}

impl Default for AccessEnds {
    fn default() -> AccessEnds {
        AccessEnds {
            // A stream that falls behind asks the store instead.
            sender: broadcast::channel(256).0,
        }
    }
}

impl AccessEnds {
    pub(crate) fn tell(&self, ended: Ended) {
        // Nobody listening: no stream to end.
        let _ = self.sender.send(ended);
    }
}

/// Whether `credential` still stands in the store. A store that does not
/// answer is not taken to mean an end (the next look may).
async fn stands(state: &AppState, credential: &Credential) -> bool {
    let found = match credential {
        Credential::Token(hash) => state.store.token_user(hash).await.map(|u| u.is_some()),
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

/// Completes when `credential` (of `user`) ends. Subscribes at once, so
/// that an end after this call is not missed; an end before it is found
/// by a first look in the store.
pub(crate) fn until_ended(
    state: &AppState,
    credential: Credential,
    user: String,
) -> impl Future<Output = ()> + Send + 'static {
    let mut ends = state.access_ends.sender.subscribe();
    let state = state.clone();
    async move {
        let mut recheck = tokio::time::interval(RECHECK);
        recheck.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                ended = ends.recv() => match ended {
                    Ok(ended) if ended.covers(&credential, &user) => return,
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => {
                        if !stands(&state, &credential).await {
                            return;
                        }
                    }
                    Err(RecvError::Closed) => return,
                },
                _ = recheck.tick() => {
                    if !stands(&state, &credential).await {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_end_covers_all_but_the_kept_session() {
        let token = Credential::token("tempo_abc");
        let session = Credential::session("s1");
        let kept = Credential::session("s2");
        let ended = Ended::Account {
            user: "anna".into(),
            keep: match &kept {
                Credential::Session(hash) => Some(hash.clone()),
                Credential::Token(_) => None,
            },
        };
        assert!(ended.covers(&token, "Anna"));
        assert!(ended.covers(&session, "anna"));
        assert!(!ended.covers(&kept, "anna"));
        assert!(!ended.covers(&token, "ben"));
        assert!(Ended::Token(accounts::token_hash("tempo_abc")).covers(&token, "anna"));
        assert!(!Ended::Token(accounts::token_hash("tempo_abc")).covers(&session, "anna"));
        assert!(!Ended::Session(accounts::token_hash("s1")).covers(&kept, "anna"));
        assert!(Ended::Session(accounts::token_hash("s1")).covers(&session, "anna"));
    }
}
