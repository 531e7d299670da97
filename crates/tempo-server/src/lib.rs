//! tempo's play server: accounts, challenges and hosted games over HTTP
//! (a lichess-shaped API), stored in SQLite (default) or PostgreSQL.
//!
//! The rules of a game, its clocks, commits and reveals live in
//! [`tempo_host`]; this crate feeds it commands and the time, stores its
//! entries before acknowledging a command, and delivers them. Inside, the
//! layers run one way: `http` (routes, wire types, the one error at the
//! edge) → `service` (accounts, challenges, games, tournaments) →
//! `storage` (tables, typed rows) → `domain` (pure types and rules).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let store = tempo_server::store::Store::open_dir(std::path::Path::new("data")).await?;
//! let state = tempo_server::AppState::new(store).await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! tempo_server::serve(listener, state, std::future::pending()).await?;
//! # Ok(()) }
//! ```

mod domain;
mod http;
mod service;
mod storage;

use std::future::Future;
use std::time::Duration;

use axum::Router;
pub use service::bot_levels::{BotLevel, BotLevels};
pub use service::instances::{
    SWEEP_GRACE, SWEEP_INTERVAL, SWEEP_LEASE, follow_other_instances, sweep_flags, sweep_once,
};
pub use service::{AppState, Metrics};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

/// The store: opening it, and the accounts and logs that the CLI, the
/// bots and the benchmarks reach directly.
pub mod store {
    pub use crate::storage::{NextFlag, Store, StoreError};
    pub use crate::storage::{StoreFileError, StoreFileSummary, check_store_file};
}

/// Accounts: users, roles, the rules of names and passwords, tokens.
pub mod auth {
    pub use crate::domain::accounts::{
        AccountError, BOT_PREFIX, Role, UnknownRole, User, check_new_name, hash_password, new_token,
    };
}

/// Limits on password checks: the hashing pool, the rate limits of
/// logins, and how often a stream's credential is looked up again.
pub mod limits {
    pub use crate::domain::limits::Quota;
    pub use crate::service::access::RECHECK;
    pub use crate::service::hashing::HashingPool;
    pub use crate::service::login_limits::{LoginLimits, LoginQuotas};
}

/// The group-commit writer (the benchmarks time it alone).
pub mod writer {
    pub use crate::service::games::Writer;
}

/// The connection layer's options: caps, timeouts, trusted proxies, TLS
/// ([`serve_with`]).
pub mod net {
    pub use crate::http::net::head::{MAX_HEAD_BYTES, MAX_HEADERS, MAX_URI_BYTES};
    pub use crate::http::net::{
        BadProxy, HEADER_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS_CEILING, NetOptions, Tls, TlsError,
        TrustedProxy, default_max_connections, default_max_per_address, file_limit,
    };
}

/// E-mail for correspondence: the settings of `tempo serve --smtp`, and
/// the reminder sweep (tests drive it with their own time).
pub mod mail {
    pub use crate::domain::mail::check_email;
    pub use crate::service::mail::{
        Mail, MailError, MailSettings, REMIND_BEFORE, SmtpError, SmtpUrl,
    };
    pub use crate::service::reminders::{REMIND_INTERVAL, remind, remind_once};
}

/// The web app's embedded files.
pub mod web {
    pub use crate::http::web::asset_names;
}

/// The API's table of endpoints, the access each needs, and its OpenAPI
/// document.
pub mod api {
    pub use crate::http::endpoint::{Access, Endpoint};
    pub use crate::http::{endpoints, openapi};
}

/// Most open challenges one member may have sent.
pub use domain::challenges::MAX_OPEN_CHALLENGES;

/// Largest request body.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Longest a request may take to be answered (streams answer at once).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How often flags are looked for (a flag's entry carries its exact instant).
pub const FLAG_INTERVAL: Duration = Duration::from_millis(50);

/// The API's routes over `state`.
pub fn router(state: AppState) -> Router {
    router_with_timeout(state, REQUEST_TIMEOUT)
}

/// [`router`] with another request timeout (tests).
pub fn router_with_timeout(state: AppState, timeout: Duration) -> Router {
    http::routes(&state)
        .fallback(http::web::fallback)
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            timeout,
        ))
        // Before anything else looks at it: a head too large is a JSON 414/431.
        .layer(axum::middleware::from_fn(http::net::head::limits))
        // Outermost: the other layers' refusals become JSON too.
        .layer(axum::middleware::map_response(http::error::json_errors))
        .with_state(state)
}

/// Serves the API on `listener` until `shutdown` completes, settling
/// flags in the background; unfinished games are loaded first, so that
/// flags due while the server was down fall at their instants. The
/// connection layer's defaults ([`net::NetOptions::default`]) apply.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, state, net::NetOptions::default(), shutdown).await
}

/// [`serve`] with the connection layer's `options` (caps, timeouts,
/// trusted proxies, TLS).
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    state: AppState,
    options: net::NetOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    for id in state.store.unfinished_games(None).await.unwrap_or_default() {
        if let Err(e) = state.hub.slot(&state.store, &id).await {
            tracing::error!(game = id, error = %e, "loading a game");
        }
    }
    let ticker = {
        let state = state.clone();
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(FLAG_INTERVAL);
            loop {
                interval.tick().await;
                state
                    .hub
                    .settle_flags(&state.store, &state.writer, state.clock.now())
                    .await;
            }
        })
    };
    let listener_task = state
        .store
        .postgres_url()
        .is_some()
        .then(|| tokio::spawn(follow_other_instances(state.clone())));
    // Flags of games no live instance has in memory (see docs/server.md).
    let sweeper = tokio::spawn(sweep_flags(state.clone()));
    let reminders = state
        .mail
        .is_on()
        .then(|| tokio::spawn(mail::remind(state.clone())));
    let stopping = state.stopping.clone();
    let stopping_receiver = state.stopping.subscribe();
    let shutdown = async move {
        shutdown.await;
        // Streams end; answers in progress finish.
        let _ = stopping.send(true);
    };
    let result = http::net::serve(
        listener,
        router(state),
        options,
        stopping_receiver,
        shutdown,
    )
    .await;
    ticker.abort();
    sweeper.abort();
    if let Some(task) = reminders {
        task.abort();
    }
    if let Some(task) = listener_task {
        task.abort();
    }
    result
}
