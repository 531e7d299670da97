//! The credential a request was made with (a token, a browser session),
//! and the news of credentials that ended on this instance (revoked,
//! logged out, the password changed). A stream opened with one
//! ([`super::accounts::until_ended`]) ends at once on that news, and
//! asks the store every [`RECHECK`] for an end elsewhere (another
//! instance on the same PostgreSQL, an expired session).

use std::time::Duration;

use tokio::sync::broadcast;

use crate::domain::accounts;

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
    pub(crate) fn covers(&self, credential: &Credential, user: &str) -> bool {
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

    /// The news from now on.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Ended> {
        self.sender.subscribe()
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
