//! Operations: the health check and the counters.

use std::sync::atomic::Ordering::Relaxed;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::endpoint::{Access, Endpoint};
use crate::service::AppState;

/// `GET /healthz`.
async fn healthz(State(state): State<AppState>) -> Response {
    if state.store.ping().await {
        (StatusCode::OK, "ok\n").into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "storage unavailable\n").into_response()
    }
}

/// `GET /metrics`: Prometheus text format.
async fn metrics(State(state): State<AppState>) -> Response {
    let m = &state.metrics;
    let games = state.hub.slots().len();
    let text = format!(
        "# TYPE tempo_commands_total counter\ntempo_commands_total {}\n\
         # TYPE tempo_commands_refused_total counter\ntempo_commands_refused_total {}\n\
         # TYPE tempo_games_created_total counter\ntempo_games_created_total {}\n\
         # TYPE tempo_streams_opened_total counter\ntempo_streams_opened_total {}\n\
         # TYPE tempo_games_in_memory gauge\ntempo_games_in_memory {games}\n",
        m.commands.load(Relaxed),
        m.commands_refused.load(Relaxed),
        m.games_created.load(Relaxed),
        m.streams_opened.load(Relaxed),
    );
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

/// The rows of the endpoint table.
pub(super) fn endpoints() -> Vec<Endpoint> {
    use Access::*;
    let e = Endpoint::new;
    vec![
        e(
            "get",
            "/healthz",
            "ok when the store answers",
            Public,
            || get(healthz),
        )
        .content("text/plain"),
        e(
            "get",
            "/metrics",
            "Counters in Prometheus text format",
            Public,
            || get(metrics),
        )
        .content("text/plain"),
    ]
}
