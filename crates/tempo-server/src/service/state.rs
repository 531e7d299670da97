//! The services' shared state: the store, the games in memory, the
//! writer, the key, the clock, the counters.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use ed25519_dalek::SigningKey;

use crate::domain::clock::ServerClock;
use crate::service::access::AccessEnds;
use crate::service::games::{Hub, Writer};
use crate::service::hashing::HashingPool;
use crate::service::login_limits::LoginLimits;
use crate::service::mail::{Mail, MailSettings, SmtpError};
use crate::service::tokens::TokenCache;
use crate::storage::Store;

/// The server's state, cloned into each handler.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// Stores entries by group commit.
    pub writer: Writer,
    pub hub: Arc<Hub>,
    /// Signs log heads (`GET /api/game/{id}/log`).
    pub key: Arc<SigningKey>,
    pub clock: ServerClock,
    pub metrics: Arc<Metrics>,
    /// Tokens recently seen valid.
    pub tokens: Arc<TokenCache>,
    /// Runs password hashes, a few at once.
    pub hashing: Arc<HashingPool>,
    /// Rate limits of password checks.
    pub logins: Arc<LoginLimits>,
    /// Rate limits of making challenges open to anyone.
    pub(crate) seeks: Arc<crate::service::seek_limits::SeekLimits>,
    /// Rate limits of `POST /api/token/test` per address.
    pub(crate) token_tests: Arc<crate::service::token_test_limits::TokenTestLimits>,
    /// Games in play left out of the public list (their logs do not replay).
    pub(crate) unloadable: Arc<crate::service::unloadable::Unloadable>,
    /// Tells streams that their token or session ended.
    pub access_ends: Arc<AccessEnds>,
    /// Set at shutdown: open streams end, so that the server can stop.
    pub stopping: Arc<tokio::sync::watch::Sender<bool>>,
    /// This instance's random id: it names the instance in the leases and
    /// notifications it shares with others on the same store.
    pub instance: Arc<str>,
    /// Correspondence mails (off without `--smtp`).
    pub mail: Mail,
    /// The games' chat channels and the members' chat rate limit.
    pub(crate) chat: Arc<crate::service::chat::ChatHub>,
    /// The computer opponents' strengths (set by the bots at start).
    pub bot_levels: Arc<crate::service::bot_levels::BotLevels>,
}

/// Counters for `/metrics`.
#[derive(Debug, Default)]
pub struct Metrics {
    pub commands: AtomicU64,
    pub commands_refused: AtomicU64,
    pub games_created: AtomicU64,
    pub streams_opened: AtomicU64,
}

impl AppState {
    /// The state with mail on: mails go through `settings`' server.
    pub fn with_mail(mut self, settings: MailSettings) -> Result<AppState, SmtpError> {
        self.mail = Mail::start(self.store.clone(), settings)?;
        self.hub.mail_to(self.mail.clone());
        Ok(self)
    }

    /// Completes when the server begins to stop.
    pub fn stopped(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut receiver = self.stopping.subscribe();
        async move {
            let _ = receiver.wait_for(|stopping| *stopping).await;
        }
    }
}
