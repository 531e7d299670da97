//! The domain services: accounts, challenges, games (the hub, the
//! group-commit writer, flags) and tournaments (with their online
//! boards). Each takes the store (or the state around it) and returns
//! domain values or its own typed error; none knows HTTP.

pub(crate) mod access;
pub(crate) mod accounts;
pub(crate) mod addresses;
pub mod bot_levels;
pub(crate) mod bots;
pub(crate) mod challenge_json;
pub(crate) mod challenges;
pub(crate) mod chat;
pub(crate) mod events;
pub(crate) mod game_events;
pub(crate) mod game_facts;
pub(crate) mod games;
pub(crate) mod hashing;
pub(crate) mod instances;
pub(crate) mod lichess;
pub(crate) mod lobby;
pub(crate) mod login_limits;
pub mod mail;
pub(crate) mod ratings;
pub mod reminders;
pub(crate) mod seek_limits;
mod state;
pub(crate) mod tables;
pub(crate) mod token_test_limits;
mod tokens;
pub(crate) mod tournaments;
pub(crate) mod unloadable;
pub(crate) mod watch;

use std::sync::Arc;

use ed25519_dalek::SigningKey;

pub use state::{AppState, Metrics};

use crate::domain::clock::ServerClock;
use crate::storage::{Store, StoreError};
use games::{Hub, Writer};

impl AppState {
    /// The state over `store`, its signing key read (or made) there.
    pub async fn new(store: Store) -> Result<AppState, StoreError> {
        let seed = store.server_seed().await?;
        let state = AppState {
            writer: Writer::start(store.clone()),
            store,
            hub: Arc::new(Hub::default()),
            key: Arc::new(SigningKey::from_bytes(&seed)),
            clock: ServerClock::default(),
            metrics: Arc::new(Metrics::default()),
            tokens: Arc::default(),
            hashing: Arc::default(),
            logins: Arc::default(),
            seeks: Arc::default(),
            token_tests: Arc::default(),
            unloadable: Arc::default(),
            access_ends: Arc::default(),
            stopping: Arc::new(tokio::sync::watch::channel(false).0),
            instance: crate::domain::random_id().into(),
            mail: mail::Mail::default(),
            chat: Arc::default(),
            bot_levels: Arc::default(),
        };
        tournaments::follow_game_ends(&state);
        game_events::follow_news(&state);
        Ok(state)
    }
}
