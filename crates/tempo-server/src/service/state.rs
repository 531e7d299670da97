//! What every handler shares.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use ed25519_dalek::SigningKey;

use crate::hub::{Hub, ServerClock};
use crate::store::Store;

/// The server's state, cloned into each handler.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// Stores entries by group commit.
    pub writer: crate::writer::Writer,
    pub hub: Arc<Hub>,
    /// Signs log heads (`GET /api/game/{id}/log`).
    pub key: Arc<SigningKey>,
    pub clock: ServerClock,
    pub metrics: Arc<Metrics>,
    /// Tokens recently seen valid.
    pub tokens: Arc<crate::auth::TokenCache>,
    /// Set at shutdown: open streams end, so that the server can stop.
    pub stopping: Arc<tokio::sync::watch::Sender<bool>>,
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
    /// Completes when the server begins to stop.
    pub fn stopped(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut receiver = self.stopping.subscribe();
        async move {
            let _ = receiver.wait_for(|stopping| *stopping).await;
        }
    }

    /// The state over `store`, its signing key read (or made) there.
    pub async fn new(store: Store) -> Result<AppState, crate::store::StoreError> {
        let seed = store.server_seed().await?;
        let state = AppState {
            writer: crate::writer::Writer::start(store.clone()),
            store,
            hub: Arc::new(Hub::default()),
            key: Arc::new(SigningKey::from_bytes(&seed)),
            clock: ServerClock::default(),
            metrics: Arc::new(Metrics::default()),
            tokens: Arc::default(),
            stopping: Arc::new(tokio::sync::watch::channel(false).0),
        };
        crate::tournaments::online::follow_game_ends(&state);
        Ok(state)
    }
}
